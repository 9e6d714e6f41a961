"""The one packing engine every strategy is a policy over.

Given a document's token units (one tokenizer pass) and ranked boundary
levels, it packs greedily: from the current position, find the highest level
at which at least one boundary fits the budget, and cut at the furthest
boundary of that level that still fits (after text-splitter's "semantic
levels"). Sizes come from cumulative token counts at the candidate
boundaries; every finished chunk is then re-counted exactly (context
included) and shrunk if the estimate was off, so the hard budget holds
for any tokenizer. (Tokenizers that are additive across whitespace skip the
re-count for chunks cut at whitespace on both sides: there the estimate is
exact.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .boundaries import SentenceSplitter, level_positions
from .errors import ChunkwiseError
from .tokens import TokenCounter, Tokens


class DocumentIndex:
    """Per-document analysis shared by every packing call: token units and
    boundary positions, each computed once and only when first needed."""

    def __init__(self, text: str, counter: TokenCounter,
                 sentence_splitter: SentenceSplitter | None = None):
        self.text = text
        self.counter = counter
        self.sentence_splitter = sentence_splitter
        self._tokens: Tokens | None = None
        self._levels: dict[str, np.ndarray] = {}

    @property
    def tokens(self) -> Tokens:
        if self._tokens is None:
            self._tokens = self.counter.tokenize(self.text)
        return self._tokens

    def level(self, name: str) -> np.ndarray:
        if name not in self._levels:
            starts = self.tokens.starts if name == "token" else None
            self._levels[name] = level_positions(name, self.text, self.sentence_splitter, starts)
        return self._levels[name]

    def add_level(self, name: str, positions: np.ndarray) -> None:
        self._levels[name] = np.asarray(positions, dtype=np.int64)

    def skip_space(self, pos: int, hi: int) -> int:
        text = self.text
        while pos < hi and text[pos].isspace():
            pos += 1
        return pos

    def trim_end(self, lo: int, pos: int) -> int:
        text = self.text
        while pos > lo and text[pos - 1].isspace():
            pos -= 1
        return pos


@dataclass(slots=True)
class Piece:
    """One packed span before it becomes a Chunk."""

    start: int
    end: int
    token_count: int
    context: str = ""
    kind: str = "prose"
    headings: tuple[str, ...] = ()
    page: int | None = None
    metadata: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PackPolicy:
    """What a strategy tells the engine: which levels to cut at, which to take overlap from."""

    levels: tuple[str, ...]
    overlap_levels: tuple[str, ...] = ()


class Packer:
    """Packs spans of one document under a hard token limit."""

    def __init__(self, index: DocumentIndex, policy: PackPolicy, limit: int, overlap: int = 0):
        if limit < 1:
            raise ChunkwiseError(f"token limit must be at least 1, got {limit}")
        self.index = index
        self.limit = limit
        self.overlap = overlap
        self._level_names = policy.levels
        self._overlap_names = policy.overlap_levels
        # counts add up exactly across whitespace for this tokenizer: a piece cut at
        # whitespace on both sides needs no re-count
        self._additive = getattr(index.counter, "additive", False)

    # -- public -----------------------------------------------------------------

    def pack(self, lo: int, hi: int, context: str = "") -> list[Piece]:
        """Cut ``text[lo:hi]`` into pieces whose ``context + text`` fits the limit."""
        index = self.index
        ctx_tokens = index.counter.count(context) if context else 0
        levels = _LazyLevels(self, self._level_names, lo, hi)
        overlap_levels = _LazyLevels(self, self._overlap_names, lo, hi)
        hi_content = index.trim_end(lo, hi)
        pieces: list[Piece] = []
        cur = index.skip_space(lo, hi)
        prev_end = lo
        while cur < hi_content:
            piece = self._next(cur, hi, levels, context, ctx_tokens, prev_end)
            if piece is None:  # overlap left no room to advance: restart without it
                cur = index.skip_space(prev_end, hi)
                piece = self._next(cur, hi, levels, context, ctx_tokens, prev_end)
            pieces.append(piece)
            prev_end = piece.end
            if piece.end >= hi_content:
                break
            nxt = piece.end
            if self.overlap and overlap_levels:
                nxt = self._overlap_start(piece.start, piece.end, overlap_levels)
            cur = index.skip_space(nxt, hi)
        return pieces

    # -- internals --------------------------------------------------------------

    def restrict(self, positions: np.ndarray, lo: int, hi: int):
        a = np.searchsorted(positions, lo, side="right")
        b = np.searchsorted(positions, hi, side="left")
        pos = np.append(positions[a:b], hi)
        return pos, self.index.tokens.before(pos)

    def _next(self, cur: int, hi: int, levels, context: str, ctx_tokens: int,
              must_pass: int) -> Piece | None:
        """The longest piece from ``cur`` that fits, ending after ``must_pass``.

        Levels are searched from the highest rank down; the first level with a
        boundary that fits gives the cut, at its furthest fitting boundary. (A
        higher-ranked boundary is also a boundary of every lower level, but when
        a level is reached no higher level had one that fits, so searching each
        level alone finds the same cut as searching their union.)"""
        index = self.index
        text = index.text
        base = int(index.tokens.before(cur))
        budget = self.limit - ctx_tokens
        floor = max(cur, must_pass)
        tried_end = hi
        sep = index.counter.separates
        additive = (self._additive and (cur == 0 or sep(text[cur - 1]))
                    and (not context or sep(context[-1])))
        while budget >= 1:
            end = None
            for pos, cpos in levels:
                first = int(np.searchsorted(pos, floor, side="right"))
                last = int(np.searchsorted(cpos, base + budget, side="right")) - 1
                if last >= first:
                    end = int(pos[last])
                    break
            if end is None:
                break
            end = index.trim_end(cur, end)
            if end <= must_pass:
                break
            if additive and (end == len(text) or sep(text[end])):
                n = ctx_tokens + int(index.tokens.before(end)) - base
            else:
                n = index.counter.count(context + text[cur:end])
            if n <= self.limit:
                return Piece(cur, end, n, context)
            tried_end = min(tried_end, end)
            budget -= max(1, n - self.limit)
        if must_pass > cur:
            return None
        return self._by_characters(cur, tried_end, context)

    def _by_characters(self, cur: int, hi: int, context: str) -> Piece:
        """Last resort: the longest prefix that fits, found by exact counts."""
        index = self.index
        count = index.counter.count
        # gallop to bracket the answer, so a huge span costs few counts of small texts
        step = 16
        while cur + step < hi and count(context + index.text[cur:cur + step]) <= self.limit:
            step *= 2
        hi = min(hi, cur + step)
        lo_ok, hi_bad = cur + step // 2 if step > 16 else cur, hi + 1
        while hi_bad - lo_ok > 1:
            mid = (lo_ok + hi_bad) // 2
            if count(context + index.text[cur:mid]) <= self.limit:
                lo_ok = mid
            else:
                hi_bad = mid
        end = index.trim_end(cur, lo_ok)
        if end <= cur:
            snippet = index.text[cur:cur + 1]
            raise ChunkwiseError(
                f"max_tokens={self.limit} cannot hold even one character ({snippet!r} at offset "
                f"{cur}) with its context of {count(context)} tokens; raise size/max_tokens"
            )
        return Piece(cur, end, count(context + index.text[cur:end]), context)

    def _overlap_start(self, start: int, end: int, overlap_levels: "_LazyLevels") -> int:
        """Where the next piece starts so that it repeats at most ``overlap`` tokens.

        The repeated text is re-counted exactly unless the estimate is exact (an
        additive tokenizer and whitespace at the cut): a boundary inside a token
        (a sentence end within "0?<") would otherwise repeat more than estimated."""
        index = self.index
        text = index.text
        tokens = index.tokens
        c_end = int(tokens.before(end))
        best = end
        for pos, cpos in overlap_levels:
            i = max(int(np.searchsorted(cpos, c_end - self.overlap, side="left")),
                    int(np.searchsorted(pos, start, side="right")))
            while i < len(pos) and pos[i] < end:
                p = int(pos[i])
                first = index.skip_space(p, end)
                if first >= end:
                    break
                estimate = c_end - int(tokens.before(first))
                sep = index.counter.separates
                exact = self._additive and first > 0 and sep(text[first - 1]) and (
                    end == len(text) or sep(text[end]))
                n = estimate if exact else index.counter.count(text[first:end])
                if n <= self.overlap:
                    if estimate * 2 >= self.overlap:
                        return p  # a high-ranked boundary that gives at least half the overlap
                    best = min(best, p)
                    break
                i += 1
        return best


class _LazyLevels:
    """A packer's levels restricted to one span, each computed on first use (a
    document packed at paragraphs never needs its sentences found)."""

    def __init__(self, packer: Packer, names: Sequence[str], lo: int, hi: int):
        self.packer, self.names, self.lo, self.hi = packer, names, lo, hi
        self._cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __bool__(self) -> bool:
        return bool(self.names)

    def __iter__(self):
        for i, name in enumerate(self.names):
            if i not in self._cache:
                self._cache[i] = self.packer.restrict(self.packer.index.level(name), self.lo, self.hi)
            yield self._cache[i]
