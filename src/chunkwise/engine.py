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

import re
import warnings
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from types import MappingProxyType
from typing import Any

import numpy as np

from .config import Budget, ChunkConfig
from .errors import ConfigError
from .levels import Level, Paragraphs, Pattern, Sentences, Separator
from .levels import Tokens as TokenLevel
from .readers.structure import (
    ASCIIDOC_LETTERED,
    ASCIIDOC_MARKUP,
    DOCFX_MARKUP,
    DOCFX_OPENER,
    KRAMDOWN_ATTRIBUTES,
    TEMPLATE_TAGS,
)
from .tokens import TokenCounter, Tokens, position_dtype
from .types import Block, ChunkKind, Document


def complete_table(block: Block, text: str) -> Block:
    """A table block from another extractor (no ``rows``/``header`` metadata) gets
    them from its lines: each non-empty line a row, the first the header, cells at
    ``metadata["delimiter"]`` (or pipes, tabs or commas, whichever the header has)."""
    meta = block.metadata
    if meta.get("rows"):
        return block
    rows = []
    pos = block.start
    for line in text[block.start:block.end].splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.strip():
            lead = len(body) - len(body.lstrip())
            rows.append((pos + lead, pos + len(body.rstrip())))
        pos += len(line)
    if len(rows) < 2:
        return block
    header = rows[0]
    first = text[header[0]:header[1]]
    delimiter = meta.get("delimiter") or next(
        (d for d in ("|", "\t", ",", ";") if d in first), None)
    extra: dict[str, Any] = {"header": header, "rows": tuple(rows[1:])}
    if delimiter:
        extra["delimiter"] = delimiter
        extra["columns"] = tuple(c.strip() for c in first.strip("|").split(delimiter))
    return replace(block, metadata=MappingProxyType({**meta, **extra}))


#: separators for every tokenizer
_ASCII_SPACES = " \t\n\r"

#: characters before a window that a pattern level is given (for its look-behind)
_LOOK_BEHIND = 256
#: how far back a window's sentences are found from, at most, for a paragraph's start
_SENTENCE_LOOK_BEHIND = 1 << 14
#: how far past a window its sentences are found to, at most, for its paragraph's end
_SENTENCE_LOOK_AHEAD = 1 << 16
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\r?\n")
#: reStructuredText's hyperlink targets with an address (``.. _Flask:
#: https://flask.palletsprojects.com/``, the anonymous ``__ https://pygments.org/``,
#: the address on an indented line of its own too): where a link's words point, no
#: words of the text
RST_TARGET = (r"^[ \t]*(?:\.\. _[^\n]*?:|__)(?:[ \t]+|[ \t]*\n[ \t]+)(?:https?|ftp|mailto):"
              r"[^\s]+[ \t]*$")
#: what carries no words: HTML comments and tags, code fence lines (with their info
#: string), Org's block lines (``#+BEGIN_SRC python``, ``#+END_SRC``), Liquid's tags
#: and kramdown's attribute lists (Jekyll: ``{% endraw %}``, ``{: .note }``), Hugo's
#: shortcodes (``{{< img src="x.jpg" >}}``, ``{{% include "x.md" %}}``), AsciiDoc's
#: comments, directives and attribute entries (``// tag::body[]``, ``include::x.adoc[]``,
#: ``:toc: left``); a piece of only these and punctuation (``});`` and a closing fence,
#: ``</tr></table>``, ``<!-- lint disable -->``) is no chunk where it can be joined
_MARKUP = re.compile(r"<!--.*?-->|<[A-Za-z/!][^<>]*>|^[ \t]*(?:`{3,}|~{3,})[^\n]*$"
                     rf"|^[ \t]*#\+(?i:begin|end)(?:_\w+|:)[^\n]*$|{TEMPLATE_TAGS}|{KRAMDOWN_ATTRIBUTES}"
                     rf"|{ASCIIDOC_MARKUP}|{RST_TARGET}|{DOCFX_MARKUP}",
                     re.DOTALL | re.MULTILINE)
#: where a match of :data:`_MARKUP` may start: none starts before the next of these
_MARKUP_START = re.compile(r"[<`~{/:]|#\+|\[!|^[ \t]*(?:\.\. _|__ )|^(?:"
                           + "|".join(map(re.escape, ASCIIDOC_LETTERED)) + ")",
                           re.MULTILINE)
_WORD = re.compile(r"[^\W_]")  # a letter or a digit
_NON_SPACE = re.compile(r"\S")


def _masked(text: str) -> str:
    """``text`` with its markup (:data:`_MARKUP`) blanked, same length."""
    return _MARKUP.sub(lambda m: " " * len(m.group()), text)


def wordless(text: str) -> bool:
    """Whether ``text`` has no letter or digit outside markup."""
    lead = text[:1]
    if lead.isalnum() and (lead not in "ie" or not text.startswith(ASCIIDOC_LETTERED)):
        return False  # (most pieces: a word first)
    first = _WORD.search(text)
    if first is None:
        return True
    at = first.start()
    head = text[:at]
    if "<" not in head and "`" not in head and "~" not in head and "#+" not in head \
            and "{" not in head and "/" not in head and ":" not in head \
            and ".. _" not in head and "__ " not in head and "[!" not in head \
            and not text.startswith(ASCIIDOC_LETTERED, at):
        return False  # (most texts: their first letter is outside any markup)
    # a letter between the markup (what :func:`_masked` leaves), looked for from the
    # start (a code piece's opening fence line is followed by a word at once): no markup
    # starts before the next :data:`_MARKUP_START` (a fence line's indent is no word),
    # so a letter before that one is outside markup, found without looking further
    at, n = 0, len(text)
    while True:
        found = _MARKUP_START.search(text, at)
        c = found.start() if found is not None else n
        if _WORD.search(text, at, c) is not None:
            return False
        m = _MARKUP.search(text, at) if c < n else None
        if m is None:
            return _WORD.search(text, c) is None
        if _WORD.search(text, c, m.start()) is not None:
            return False
        at = m.end()


def _paragraph_start(text: str, lo: int) -> int:
    """Where the paragraph holding ``lo`` starts (after the last blank line before it),
    looking back at most :data:`_SENTENCE_LOOK_BEHIND` characters."""
    start = max(0, lo - _SENTENCE_LOOK_BEHIND)
    last = None
    for m in _PARAGRAPH_BREAK.finditer(text, start, lo):
        last = m
    return last.end() if last is not None else start


def _paragraph_end(text: str, hi: int) -> int:
    """Where the paragraph holding ``hi`` ends as sentencex reads paragraphs (at a
    ``\n\n``), looking ahead at most :data:`_SENTENCE_LOOK_AHEAD` characters."""
    if hi >= len(text):
        return len(text)
    at = text.find("\n\n", hi, hi + _SENTENCE_LOOK_AHEAD)
    return at if at >= 0 else min(len(text), hi + _SENTENCE_LOOK_AHEAD)


@dataclass(frozen=True, slots=True)
class _TextView:
    """What a text-only level reads of a window: its text."""

    text: str


def _view(text: str) -> Any:
    """A window's text as the levels that read nothing else see it."""
    return _TextView(text)


class DocumentIndex:
    """Per-document analysis shared by every packing call and every level of a
    hierarchy: token units and boundary positions, each computed once and only
    when first needed."""

    def __init__(self, doc: Document, counter: TokenCounter,
                 window: tuple[int, int] | None = None, memo: dict[Any, Any] | None = None):
        self.doc = doc
        self.text = doc.text
        self.counter = counter
        #: the part of the text whose tokens and boundaries this index finds (the
        #: whole text, or a window of a long document: see ``Chunker.chunk_windows``);
        #: offsets stay the whole document's
        self.window = window
        self._tokens: Tokens | None = None
        self._levels: dict[Level, np.ndarray] = {}
        self._token_starts: np.ndarray | None = None
        #: the token starts of single words a count was asked inside (by word start)
        self._words: dict[int, np.ndarray] = {}
        # spans whose every token start is known (where a cut had to fall inside a
        # word), sorted and disjoint: start, end, token starts, tokens before the start
        self._fine: list[tuple[int, int, np.ndarray, int]] = []
        self._fine_lo: list[int] = []  # where each refined span starts
        #: per-document results a strategy computes once (semantic cuts, a parse tree);
        #: the windows of one document share it
        self.memo: dict[Any, Any] = {} if memo is None else memo

    @property
    def tokens(self) -> Tokens:
        """Token units of the text (of the window: counts from its start, which only
        differences of counts ever read)."""
        if self._tokens is None:
            if self.window is None:
                self._tokens = self.counter.tokenize(self.text)
            else:
                lo, hi = self.window
                found = self.counter.tokenize(self.text[lo:hi])
                starts = found.starts.astype(position_dtype(hi), copy=False) + lo
                self._tokens = Tokens(starts=starts, cum=found.cum)
        return self._tokens

    @property
    def token_starts(self) -> np.ndarray:
        """Every token's start (the token level), computed only when a cut must fall
        inside a word: ``tokens`` may count whole words."""
        found = self._token_starts
        if found is None:
            if self.window is None:
                found = self.counter.token_starts(self.text)
            else:
                lo, hi = self.window
                found = self.counter.token_starts(self.text[lo:hi]).astype(np.int64) + lo
            self._token_starts = found
            if self._tokens is not None and len(self._tokens.starts) != len(found):
                # counts at every token start from now on, not only at word starts
                # (the same wherever both have a unit)
                self._tokens = Tokens.from_starts(found)
        return found

    def span_token_starts(self, lo: int, hi: int) -> np.ndarray:
        """Every token start strictly inside ``(lo, hi)``, found for the words of that
        span only (a whole long document's token starts take ~5 arrays the size of
        its tokens); from then on :meth:`before` counts exactly at any position of
        the span, not only between words."""
        if not self.counter.additive:  # the units are the tokens already
            found = self.token_starts
        else:
            found = self._refine(lo, hi)
        a = int(found.searchsorted(lo, side="right"))
        b = int(found.searchsorted(hi, side="left"))
        return found[a:b]

    def _refine(self, lo: int, hi: int) -> np.ndarray:
        """The token starts of the words that ``[lo, hi)`` touches (one refined span,
        merged with any it overlaps: only the words no span covers yet are looked at;
        spans that merely touch stay apart, or a document's sections refined one
        after another would each take every earlier one's words again), kept for
        :meth:`before`."""
        text, sep = self.text, self.counter.separates
        lo, hi = max(0, lo), min(len(text), hi)
        while lo > 0 and not sep(text[lo - 1]):  # whole words: their tokens do not
            lo -= 1  # depend on what is around them
        while hi < len(text) and not sep(text[hi]):
            hi += 1
        fine = self._fine
        i = bisect_right(self._fine_lo, lo) - 1
        if i >= 0 and fine[i][0] <= lo and hi <= fine[i][1]:
            return fine[i][2]
        keep = [s for s in fine if s[1] <= lo or s[0] >= hi]
        merged = [s for s in fine if not (s[1] <= lo or s[0] >= hi)]  # sorted, apart
        lo = min([lo] + [s[0] for s in merged])
        hi = max([hi] + [s[1] for s in merged])
        parts, at = [], lo
        for s in merged:  # every span starts and ends at a word boundary, as the gaps do
            if at < s[0]:
                parts.append(self.counter.token_starts(text[at:s[0]]) + at)
            parts.append(s[2])
            at = s[1]
        if at < hi:
            parts.append(self.counter.token_starts(text[at:hi]) + at)
        starts = np.concatenate(parts).astype(np.int64, copy=False) if parts else \
            np.zeros(0, dtype=np.int64)
        keep.append((lo, hi, starts, int(self.tokens.before(lo))))
        keep.sort(key=lambda s: s[0])
        self._fine = keep
        self._fine_lo = [s[0] for s in keep]
        return starts

    def before(self, positions: Any) -> Any:
        """Tokens that start before each position (scalar or array): exact at every
        position. The document's units are whole words; inside the spans
        :meth:`span_token_starts` refined, and at any other position inside a word
        (a sentence end in ``Foo.bar``), the word's own tokens are counted up to the
        position. (Were a word counted whole there, a count would depend on which
        spans happened to be refined before it is asked.)"""
        if not isinstance(positions, np.ndarray) or positions.ndim == 0:
            return self._before_one(int(positions))
        counts = self.tokens.before(positions)
        fine = self._fine
        # 64-bit like every position array: the units may be 32-bit, and numpy
        # searches a 32-bit array for a Python int by first copying all of it
        counts = np.asarray(counts, dtype=np.int64)
        pos = np.asarray(positions)
        if pos.size == 0:
            return counts
        covered = np.zeros(pos.shape, dtype=bool)
        if fine:
            first, last = int(pos.min()), int(pos.max())
            for lo, hi, starts, base in fine:
                if hi <= first or lo > last:
                    continue
                inside = (pos > lo) & (pos < hi)
                if inside.any():
                    counts[inside] = base + starts.searchsorted(pos[inside], side="left")
                    covered |= inside
        self._in_words(pos, counts, covered)
        return counts

    def _before_one(self, p: int) -> int:
        """:meth:`before` at one position (the packer asks ~5 times a piece)."""
        fine = self._fine
        if fine:
            i = bisect_right(self._fine_lo, p) - 1
            if i >= 0 and p < fine[i][1]:
                return fine[i][3] + int(fine[i][2].searchsorted(p, side="left"))
        tokens = self.tokens
        starts = tokens.starts
        i = int(starts.searchsorted(tokens.key(p), side="left"))
        if i < len(starts) and starts[i] == p:  # a unit starts there
            return int(tokens.cum[i])
        text, sep = self.text, self.counter.separates
        if (i == 0 or not self.counter.additive or p <= 0 or p >= len(text)
                or sep(text[p]) or sep(text[p - 1])):
            return int(tokens.cum[i])
        # inside the word that starts at starts[i - 1]: its own tokens up to p
        start = int(starts[i - 1])
        inner = self._word_starts(start, p)
        return int(tokens.cum[i - 1]) + int(inner.searchsorted(p - start, side="left"))

    def _in_words(self, pos: np.ndarray, counts: np.ndarray, covered: np.ndarray) -> None:
        """``counts`` made exact at the positions of ``pos`` inside a word (not at a
        unit's start) that no refined span covers; 65,536 positions at a time (the
        arrays of a level's positions in a long span would be copied several times)."""
        if not self.counter.additive:  # the units are the tokens
            return
        starts = self.tokens.starts
        n, size = len(starts), len(self.text)
        if n == 0:
            return
        text = self.text
        for lo in range(0, len(pos), 1 << 16):
            at = pos[lo:lo + (1 << 16)]
            idx = starts.searchsorted(self.tokens.key(at), side="left")
            maybe = (idx > 0) & ~covered[lo:lo + (1 << 16)] & (at > 0) & (at < size)
            maybe &= (idx == n) | (starts[np.minimum(idx, n - 1)] != at)
            ks = np.flatnonzero(maybe)
            for k, p in zip(ks.tolist(), at[ks].tolist()):
                # a space, tab or line break on either side separates for every
                # tokenizer (most positions asked: word and line ends)
                if text[p] in _ASCII_SPACES or text[p - 1] in _ASCII_SPACES:
                    continue
                exact = self._in_word(p)
                if exact is not None:
                    counts[lo + k] = exact

    def _in_word(self, p: int) -> int | None:
        """The exact count at ``p`` if it lies inside a word (after its first
        character, before its end), else None (the units' count is exact there)."""
        text, sep = self.text, self.counter.separates
        if not self.counter.additive or p <= 0 or p >= len(text) or sep(text[p]) \
                or sep(text[p - 1]):
            return None
        tokens = self.tokens
        u = int(tokens.starts.searchsorted(tokens.key(p), side="right")) - 1
        if u < 0:
            return None
        start = int(tokens.starts[u])
        if start == p:
            return None
        inner = self._word_starts(start, p)
        return int(tokens.cum[u]) + int(inner.searchsorted(p - start, side="left"))

    def _word_starts(self, start: int, p: int) -> np.ndarray:
        """The token starts (relative to ``start``) of the word at ``start``, which
        runs past ``p``; found once."""
        inner = self._words.get(start)
        if inner is None:
            text, sep = self.text, self.counter.separates
            end = p
            while end < len(text) and not sep(text[end]):
                end += 1
            inner = self._words[start] = self.counter.token_starts(text[start:end])
        return inner

    def release(self) -> None:
        """Drops the token units, level positions and memo (several arrays the size of
        the document's tokens) once the pieces are cut; structure and pages stay."""
        self._tokens = None
        self._token_starts = None
        self._words = {}
        self._levels = {}
        self._fine = []
        self._fine_lo = []
        blocks = self.memo.get("block-index")  # what pages are read from, kept
        self.memo = {} if blocks is None else {"block-index": blocks}

    def positions(self, level: Level) -> np.ndarray:
        """The sorted cut positions of one level in the whole document (in the
        window, for an index of a window)."""
        found = self._levels.get(level)
        if found is None:
            found = self._window_positions(level) if self.window is not None else \
                np.asarray(level.positions(self), dtype=np.int64)
            self._levels[level] = found
        return found

    def _window_positions(self, level: Level) -> np.ndarray:
        """A level's positions in the window: found in the window's text alone where
        the level looks at nothing but the text around each position (patterns,
        separators, paragraph and sentence ends: the sentence ends of a part are the
        whole text's, see ``levels.Sentences``), else the whole document's (kept for
        every window of it) cut to the window."""
        assert self.window is not None
        lo, hi = self.window
        if type(level) in (Pattern, Separator):
            # from a little before the window: a pattern may look behind a position
            start = max(0, lo - _LOOK_BEHIND)
            found = np.asarray(level.positions(_view(self.text[start:hi])),
                               dtype=np.int64) + start
            return found[found.searchsorted(lo, side="left"):]
        if type(level) is Sentences:
            # from the paragraph the window starts in (a window may start mid-sentence,
            # after a piece: the segmenter reads a sentence's start differently there)
            # to the end of the paragraph it ends in: sentencex ends no sentence inside
            # parentheses that close later in the paragraph, however far ("(see. ...
            # below)." over 900 characters: the window's text, the ")" cut off, ended
            # one after "see.", the whole text none)
            start = _paragraph_start(self.text, lo) if lo > 0 else 0
            end = _paragraph_end(self.text, hi)
            found = np.asarray(level.positions(_view(self.text[start:end])),
                               dtype=np.int64) + start
            return found[found.searchsorted(lo, side="left"):found.searchsorted(hi, side="right")]
        if type(level) is Paragraphs:
            return np.asarray(level.positions(_view(self.text[lo:hi])), dtype=np.int64) + lo
        if isinstance(level, TokenLevel):
            return np.asarray(level.positions(self), dtype=np.int64)
        key = ("positions", level)
        whole = self.memo.get(key)
        if whole is None:
            whole = np.asarray(level.positions(self), dtype=np.int64)
            self.memo[key] = whole
        a = int(whole.searchsorted(lo, side="left"))
        b = int(whole.searchsorted(hi, side="right"))
        return whole[a:b]

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

    # -- structure ------------------------------------------------------------------

    def _block_index(self) -> None:
        shared = self.memo.get("block-index")  # the windows of a document share it
        if shared is None:
            shared = self.memo["block-index"] = self._sorted_blocks()
        self._blocks: list[Block] = shared[0]
        self._block_starts: list[int] = shared[1]
        self._block_reach: list[int] = shared[2]
        self._page_starts: list[int] = shared[3]
        self._pages: list[int] = shared[4]

    def _sorted_blocks(self) -> tuple[list[Block], list[int], list[int], list[int], list[int]]:
        blocks = [complete_table(b, self.text) if b.kind == "table" else b
                  for b in self.doc.blocks]
        # (a reader's blocks are in order but for a few: sorted only where they are not)
        if any(a.start > b.start or (a.start == b.start and a.end < b.end)
               for a, b in zip(blocks, blocks[1:])):
            blocks.sort(key=lambda b: (b.start, -b.end))
        # the furthest end of any block up to each position: blocks overlapping a
        # span are found by bisection even when an early block is long
        reach = list(accumulate((b.end for b in blocks), max, initial=-1))[1:]
        # pages from the blocks, and from the page turns a reader found inside a block
        # (a paragraph the PDF reader re-joined across a page break)
        paged = [(b.start, b.page) for b in blocks if b.page is not None]
        turns = self.doc.metadata.get("page_turns") or ()
        paged = sorted(paged + [(int(s), int(p)) for s, p in turns])
        return (blocks, [b.start for b in blocks], reach, [s for s, _ in paged],
                [pg for _, pg in paged])

    @property
    def blocks(self) -> list[Block]:
        """The document's blocks sorted by start."""
        if not hasattr(self, "_blocks"):
            self._block_index()
        return self._blocks

    def blocks_in(self, lo: int, hi: int) -> list[Block]:
        """Blocks that overlap ``[lo, hi)``, in document order."""
        blocks = self.blocks
        first = bisect_left(self._block_reach, lo + 1)
        last = bisect_left(self._block_starts, hi)
        return [b for b in blocks[first:last] if b.end > lo]

    def block_at(self, pos: int) -> Block | None:
        """The last block starting at or before ``pos``."""
        blocks = self.blocks
        i = bisect_right(self._block_starts, pos) - 1
        return blocks[i] if i >= 0 else None

    @property
    def has_pages(self) -> bool:
        return bool(self.blocks) and bool(self._pages)

    def page_at(self, pos: int) -> int | None:
        """The page of an offset: that of the last block with a page starting at or
        before it (the first page for offsets before any)."""
        if not self.blocks or not self._pages:
            return None
        i = bisect_right(self._page_starts, pos) - 1
        return self._pages[max(i, 0)]


@dataclass(frozen=True, slots=True)
class Span:
    """A part of a document a strategy is asked to cut, with what it inherits from
    above (a hierarchy's parent, a section): context, heading trail, page."""

    lo: int
    hi: int
    context: str = ""
    headings: tuple[str, ...] = ()
    page: int | None = None


@dataclass(slots=True)
class Piece:
    """One packed span before it becomes a Chunk. ``depth``/``parent`` place it
    in a hierarchy (0 and None for flat strategies)."""

    start: int
    end: int
    token_count: int
    context: str = ""
    kind: ChunkKind = "prose"
    headings: tuple[str, ...] = ()
    page: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    depth: int = 0
    parent: Piece | None = None


@dataclass(frozen=True, slots=True)
class PackPolicy:
    """What a strategy tells the engine: the levels to cut at (best first) and the
    levels an overlap may start at."""

    levels: tuple[Level, ...]
    overlap_levels: tuple[Level, ...] = ()

    def __post_init__(self) -> None:
        for level in self.levels + self.overlap_levels:
            if not isinstance(level, Level):
                raise ConfigError(f"a pack policy takes Level objects, got {level!r}")


_LOOSE = ("limit", "overlap", "max_chars", "min_size")


def _budget(budget: Budget | ChunkConfig | int | None, loose: tuple[Any, ...],
            named: dict[str, Any]) -> Budget:
    """A Budget from what Packer was given: a Budget, a ChunkConfig, or (deprecated,
    for one release) the loose ``limit, overlap, max_chars, min_size``."""
    if isinstance(budget, ChunkConfig):
        budget = budget.budget
    if isinstance(budget, Budget):
        if loose or named:
            raise TypeError("Packer: give a Budget or the loose limit, overlap, max_chars, "
                            "min_size, not both")
        return budget
    unknown = set(named) - set(_LOOSE)
    if unknown or len(loose) > 3:
        raise TypeError(f"Packer got unexpected arguments {sorted(unknown) or loose}")
    values = dict(zip(_LOOSE, (budget, *loose)))
    if budget is None:
        values.pop("limit")
    values.update(named)
    if values.get("limit") is None:
        raise TypeError("Packer needs a Budget (or a ChunkConfig)")
    warnings.warn("Packer(index, policy, limit, overlap, max_chars, min_size) is deprecated: "
                  "pass a chunkwise.config.Budget (or the ChunkConfig)", DeprecationWarning,
                  stacklevel=3)
    return Budget(values["limit"], values.get("overlap") or 0, values.get("max_chars"),
                  values.get("min_size") or 0)


#: the levels where a short paragraph ending in a colon goes with what it introduces
INTRO_LEVELS = frozenset(("block", "paragraph"))
#: such a paragraph is at most this share of the limit (a quarter)
INTRO_SHARE = 4


#: the levels that cut inside a paragraph
_IN_PARAGRAPH_LEVELS = frozenset(("line", "sentence", "clause", "word", "token"))
#: a line holding a list item's marker alone (``*``, ``-``, ``+``, ``3.``, ``2)``)
_MARKER_LINE = re.compile(r"[ \t]*(?:[*+-]|[0-9]{1,3}[.)])")
#: reStructuredText's explicit markup opening its block: ``..`` alone, ``.. note::``,
#: ``.. code-block:: python``
_DIRECTIVE_LINE = re.compile(r"([ \t]*)\.\.(?:[ \t]+[\w:.+-]+::[^\n]*)?")
#: DocFX's line that opens a zone, a version range, a row or a column (``:::zone
#: pivot="cluster-mode"``): what follows it is its content
_OPENER_LINE = re.compile(DOCFX_OPENER)
#: an alert's first line (GitHub's and DocFX's ``> [!NOTE]``, ``> [!WARNING]``): the
#: quote's text follows it
_ALERT_LINE = re.compile(r"[ \t]*>[ \t]*\[!(?i:note|tip|important|warning|caution)\][ \t]*")
#: the text after a cut: on its line (group 1 None), or the next line's indentation
_NEXT_TEXT = re.compile(r"[ \t]*(?=[^\s])|[ \t]*\n(?:[ \t]*\n)*([ \t]*)(?=[^\s])")


class Packer:
    """Packs spans of one document under a hard token limit and a character cap."""

    def __init__(self, index: DocumentIndex, policy: PackPolicy,
                 budget: Budget | ChunkConfig | int | None = None, *loose: Any,
                 line_starts: bool = False, min_fill: int = 0, **loose_named: Any):
        budget = _budget(budget, loose, loose_named)
        self.index = index
        self.budget = budget
        self.limit = budget.limit
        self.overlap = budget.overlap
        #: smallest piece: a boundary is taken where the piece before it holds this many
        #: tokens, context included (``min_fill``); a span's last piece holds this many
        #: of its own text, its context aside (a heading trail of 20 tokens over
        #: ``.. versionadded:: 1.0`` is no chunk), unless it cannot share the budget
        #: with the one before (:meth:`_balance_tail`)
        self.min_size = budget.min_size
        #: a boundary is taken only where the piece before it holds this many tokens
        #: (context included), where a lower level's boundary gives one (the last piece
        #: of a span excepted; a tail under it is left as ``min_size`` leaves it)
        self.min_fill = max(min_fill, self.min_size)
        #: pieces start at the start of their line, indentation included (source code)
        self.line_starts = line_starts
        self.max_chars = budget.max_chars if budget.max_chars is not None else 1 << 62
        self._levels = policy.levels
        self._overlap_levels = policy.overlap_levels
        #: the levels of whole blocks and paragraphs, where a cut is moved back before a
        #: short paragraph that introduces what follows it (:meth:`_introduced`)
        self._intro_levels = tuple(level.name in INTRO_LEVELS for level in policy.levels)
        # counts add up exactly across whitespace for this tokenizer: a piece cut at
        # whitespace on both sides needs no re-count
        self._additive = index.counter.additive

    # -- public -----------------------------------------------------------------

    def pack(self, lo: int, hi: int, context: str = "", first_floor: int | None = None) -> list[Piece]:
        """Cut ``text[lo:hi]`` into pieces whose ``context + text`` fits the limit.

        ``first_floor``: the first piece should end after this position (a heading
        travels with the start of its section rather than forming a piece alone);
        if nothing that long fits, the first piece is cut as usual."""
        index = self.index
        ctx_tokens = index.counter.count(context) if context else 0
        if len(context) >= self.max_chars:
            raise ConfigError(f"a context of {len(context)} characters leaves no room under "
                              f"max_chars={self.max_chars}")
        hi_content = index.trim_end(lo, hi)
        cur = self._start(lo, index.skip_space(lo, hi), lo)
        whole = self._whole(cur, hi, context, ctx_tokens)
        if whole is not None:  # the span fits: no level is needed
            return [whole]
        levels = _LazyLevels(self, self._levels, lo, hi)
        overlap_levels = _LazyLevels(self, self._overlap_levels, lo, hi)
        pieces: list[Piece] = []
        prev_end = lo
        while cur < hi_content:
            must_pass = prev_end
            if not pieces and first_floor is not None and first_floor < hi_content:
                # past the whitespace after the floor too: a cut there is trimmed back
                must_pass = max(prev_end, index.skip_space(first_floor, hi))
            elif (term_end := self._terms().get(cur)) is not None and term_end < hi_content:
                # a definition list's term: with (the start of) its definition
                must_pass = max(prev_end, index.skip_space(term_end, hi))
            piece = self._next(cur, hi, levels, context, ctx_tokens, must_pass)
            if piece is None:  # overlap (or the floor) left no room: restart without it
                cur = self._start(prev_end, index.skip_space(prev_end, hi), lo)
                piece = self._next(cur, hi, levels, context, ctx_tokens, prev_end)
                assert piece is not None
            if piece.end < hi_content and self._bare(piece):
                piece = self._with_next(piece, hi, levels, context, ctx_tokens)
            pieces.append(piece)
            prev_end = piece.end
            if piece.end >= hi_content:
                break
            nxt = piece.end
            if self.overlap and overlap_levels:
                nxt = self._overlap_start(piece.start, piece.end, overlap_levels)
            cur = self._start(nxt, index.skip_space(nxt, hi), lo)
        if len(pieces) > 1:
            last = pieces[-1]
            bare = self._bare(last)
            if bare or (self.min_size and last.token_count - ctx_tokens < self.min_size):
                # the first piece keeps the floor it was given (a heading stays with text)
                keep = (index.skip_space(first_floor, hi) if len(pieces) == 2
                        and first_floor is not None else pieces[-2].start)
                if len(pieces) > 2:  # (with overlap) still ending after the one before it
                    keep = max(keep, pieces[-3].end)
                pieces[-2:] = self._balance_tail(pieces[-2], last, hi, levels, context,
                                                 ctx_tokens, keep, bare)
        return pieces

    def _balance_tail(self, a: Piece, b: Piece, hi: int, levels: _LazyLevels, context: str,
                      ctx_tokens: int, keep: int, bare: bool = False) -> list[Piece]:
        """A span's last piece under ``min_size`` tokens of its own text (a lone
        ``-->``, a ``}``, ``.. versionadded:: 1.0`` under a long trail), or ``bare``
        (no word outside markup: a closing fence, ``});``): joined to the one before
        when both fit the budget; else the cut between them moved back to the
        furthest boundary that leaves the last piece ``min_size`` tokens of text (and
        a word), when both still fit (the first still ending after ``keep``, with
        ``min_size`` tokens of text); else the two as they are."""
        index = self.index
        text = index.text
        if b.start < a.end:  # overlapping pieces: their cut is the overlap's, left alone
            return [a, b]
        if b.end - a.start + len(context) <= self.max_chars:
            n = index.counter.count(context + text[a.start:b.end])
            if n <= self.limit:
                return [Piece(a.start, b.end, n, context)]
        # a cut with at least min_size tokens after it (and a word, when bare) and at
        # most the limit: the furthest boundary of the highest level between the two
        tokens = index.tokens
        total = int(index.before(b.end))
        starts, cum = tokens.starts, tokens.cum
        count = cum.dtype.type  # searched in the array's own type (no copy of it)
        j = int(cum.searchsorted(count(total - (self.limit - ctx_tokens)), side="left"))
        # (the first must hold every token before starts[x]: end where the text before
        # it ends, the space before that token aside)
        floor = max(keep, index.trim_end(a.start, int(starts[j])) - 1 if j < len(starts)
                    else b.end)
        k = int(cum.searchsorted(count(total - self.min_size), side="right")) - 1
        if k < 0 and not bare:
            return [a, b]
        cap = int(starts[k]) if 0 <= k < len(starts) and self.min_size else b.end
        if self.min_size:  # the first keeps min_size tokens of text too
            m = int(cum.searchsorted(count(int(index.before(a.start)) + self.min_size),
                                     side="left"))
            floor = max(floor, index.trim_end(a.start, int(starts[m])) - 1 if m < len(starts)
                        else b.end)
        first_end, worded = self._word_bounds(a.start, a.end, b.end)
        if worded > a.start:  # a word on each side of the cut (where there are words)
            cap = min(cap, worded)
            floor = max(floor, first_end)
        elif bare:
            return [a, b]
        if cap <= floor:
            return [a, b]
        moved = self._coarse(levels) if bare and b.token_count - ctx_tokens >= self.min_size \
            else levels
        first = self._next(a.start, hi, moved, context, ctx_tokens, floor, cap=cap)
        if first is None or first.end <= a.start or first.end >= b.start:
            return [a, b]
        nxt = self._start(first.end, index.skip_space(first.end, hi), a.start)
        second = self._next(nxt, hi, levels, context, ctx_tokens, nxt)
        if (second is None or second.end != b.end or first.token_count - ctx_tokens < self.min_size
                or second.token_count - ctx_tokens < self.min_size
                or (worded > a.start and (self._bare(second) or self._bare(first)))):
            return [a, b]
        return [first, second]

    def _bare(self, piece: Piece) -> bool:
        """Whether a piece has no word outside markup (:func:`wordless`)."""
        return wordless(self.index.text[piece.start:piece.end])

    def _word_bounds(self, start: int, end: int, hi: int) -> tuple[int, int]:
        """Where the first word outside markup in ``text[start:end]`` ends (``end``
        when there is none) and where the last one starts (``start`` when there is
        none: no cut can leave one after it); markup is read up to ``hi`` (a tag that
        ``end`` cuts is no word)."""
        masked = _masked(self.index.text[start:hi])
        first = _WORD.search(masked, 0, end - start)
        if first is None:
            return end, start
        i = first.start()
        while i < end - start and _WORD.match(masked[i]):
            i += 1
        j = end - start
        while j > 0 and not _WORD.match(masked[j - 1]):
            j -= 1
        while j > 0 and _WORD.match(masked[j - 1]):
            j -= 1
        if self.line_starts:  # the cut before its line
            j = masked.rfind("\n", 0, j) + 1
        return start + i, start + j

    def _start(self, floor: int, first: int, lo: int) -> int:
        """Where a piece starts: its first non-space character, or (``line_starts``)
        the start of that line when only indentation precedes it since ``floor``."""
        if not self.line_starts:
            return first
        text = self.index.text
        start = first
        while start > max(floor, lo) and text[start - 1] in " \t":
            start -= 1
        return start if start == 0 or text[start - 1] in "\n\r" else first

    # -- internals --------------------------------------------------------------

    def restrict(self, positions: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        a = positions.searchsorted(lo, side="right")
        b = positions.searchsorted(hi, side="left")
        pos = np.append(positions[a:b], hi)
        return pos, self.index.before(pos)

    def _whole(self, cur: int, hi: int, context: str, ctx_tokens: int) -> Piece | None:
        """``[cur, hi)`` as one piece when :meth:`_next` would find that first (``hi``
        is a boundary of every level: the first level's furthest boundary when it
        fits by characters and by the tokens that start before it), counted as
        :meth:`_next` counts it; None when it may not, or the span is empty."""
        index = self.index
        end = index.trim_end(cur, hi)
        if (not self._levels or end <= cur or self.limit - ctx_tokens < 1
                or hi - cur + len(context) > self.max_chars):
            return None
        base = int(index.before(cur))
        if int(index.before(hi)) - base > self.limit - ctx_tokens:
            return None
        n = self._counted(cur, end, context, ctx_tokens, base,
                          self._additive_from(cur, context))
        return Piece(cur, end, n, context) if n <= self.limit else None

    def _additive_from(self, cur: int, context: str) -> bool:
        """Whether a piece from ``cur`` after ``context`` may be counted from the
        document's counts (whitespace before it and at the end of the context)."""
        text, sep = self.index.text, self.index.counter.separates
        return (self._additive and (cur == 0 or sep(text[cur - 1]))
                and (not context or sep(context[-1])))

    def _counted(self, cur: int, end: int, context: str, ctx_tokens: int, base: int,
                 additive: bool) -> int:
        """Tokens of ``context + text[cur:end]``: from the document's counts where
        ``additive`` and whitespace follows ``end``, else counted (``base``: the
        tokens before ``cur``)."""
        index = self.index
        text = index.text
        if additive and (end == len(text) or index.counter.separates(text[end])):
            return ctx_tokens + int(index.before(end)) - base
        return index.counter.count(context + text[cur:end])

    def _next(self, cur: int, hi: int, levels: _LazyLevels, context: str, ctx_tokens: int,
              must_pass: int, cap: int | None = None) -> Piece | None:
        """The longest piece from ``cur`` that fits, ending after ``must_pass``.

        Levels are searched from the highest rank down; the first level with a
        boundary that fits gives the cut, at its furthest fitting boundary. (A
        higher-ranked boundary is also a boundary of every lower level, but when
        a level is reached no higher level had one that fits, so searching each
        level alone finds the same cut as searching their union.)"""
        index = self.index
        base = int(index.before(cur))
        budget = self.limit - ctx_tokens
        char_end = cur + self.max_chars - len(context)  # the furthest end the cap allows
        if cap is not None:  # a caller's furthest end (room left for a tail)
            char_end = min(char_end, cap)
        floor = max(cur, must_pass)
        tried_end = min(hi, char_end)
        additive = self._additive_from(cur, context)
        small = base + self.min_fill - ctx_tokens  # candidates below this are too small
        finest = len(self._levels) - 1  # (the packer's finest: a caller may pass fewer)
        while budget >= 1:
            end = None
            for i, (pos, cpos) in enumerate(levels):
                first = int(pos.searchsorted(floor, side="right"))
                last = min(int(cpos.searchsorted(base + budget, side="right")),
                           int(pos.searchsorted(char_end, side="right"))) - 1
                if self.min_fill and last >= first and int(pos[last]) != hi:
                    first = max(first, int(cpos.searchsorted(small, side="left")))
                # (the finest level, tokens, cuts where it must: fixed's windows)
                if i < finest:
                    last = self._clear_of_markers(cur, pos, first, last)
                if last >= first:
                    if last > first and cap is None and self._intro_levels[i] and \
                            self._introduced(pos, cpos, last, cur, context, ctx_tokens):
                        # (the paragraph introducing what follows starts the next
                        # piece, and so does a line opening a zone above it)
                        back = self._clear_of_markers(cur, pos, first, last - 1) \
                            if i < finest else last - 1
                        last = back if back >= first else last
                    end = int(pos[last])
                    break
            if end is None:
                break
            end = index.trim_end(cur, end)
            if end <= max(must_pass, cur):  # (only indentation before it: nothing)
                break
            n = self._counted(cur, end, context, ctx_tokens, base, additive)
            if n <= self.limit:
                return Piece(cur, end, n, context)
            tried_end = min(tried_end, end)
            budget -= max(1, n - self.limit)
        if must_pass > cur:
            return None
        return self._by_characters(cur, tried_end, context, hi)

    def _clear_of_markers(self, cur: int, pos: np.ndarray, first: int, last: int) -> int:
        """The last of the candidates ``pos[first:last + 1]`` whose cut leaves no marker
        behind (:meth:`_after_marker`), or ``first - 1``."""
        while last >= first and self._after_marker(cur, int(pos[last])):
            last -= 1
        return last

    def _with_next(self, piece: Piece, hi: int, levels: _LazyLevels, context: str,
                   ctx_tokens: int) -> Piece:
        """A piece of markup or punctuation alone, joined to what follows where that
        fits and brings a word (not the `..` that opens the next of a list of link
        targets, nor a cut inside a target)."""
        past = self.index.skip_space(piece.end, hi)  # (a cut in the space is trimmed back)
        joined = self._next(piece.start, hi, levels, context, ctx_tokens, past)
        if joined is not None and not self._bare(joined) and not self._inside_markup(joined.end):
            return joined
        return piece

    def _coarse(self, levels: _LazyLevels) -> _LazyLevels:
        """The levels above lines and sentences: a block of markup of its own size (a
        list of link targets) at the end of a span gets a word only where a block or
        paragraph boundary gives it one, not by a cut inside a sentence or a
        hard-wrapped paragraph."""
        coarse = [lv for lv in self._levels if lv.name not in _IN_PARAGRAPH_LEVELS]
        if len(coarse) == len(self._levels):
            return levels
        return _LazyLevels(self, coarse, levels.lo, levels.hi)

    def _inside_markup(self, pos: int) -> bool:
        """Whether ``pos`` falls inside markup of its line or the line before (a cut
        in a hyperlink target, between its name and its address)."""
        text = self.index.text
        line = text.rfind("\n", 0, max(0, text.rfind("\n", 0, pos))) + 1
        end = text.find("\n", pos)
        for m in _MARKUP.finditer(text, line, len(text) if end < 0 else end):
            if m.start() < pos < m.end():
                return True
        return False

    def _after_marker(self, cur: int, end: int) -> bool:
        """Whether a cut at ``end`` leaves a list item's marker alone at the end of its
        piece (``... notify GitHub immediately.\n*``: sentencex ends a sentence at a
        bullet), its item in the next, or a reStructuredText directive's first line
        (``.. note::``) without its body, or DocFX's line opening a zone (``:::zone
        pivot="cluster-mode"``) without what it shows, or an alert's first line (``>
        [!IMPORTANT]``) without its text."""
        text = self.index.text
        end = self.index.trim_end(cur, end)
        if end <= cur or _NON_SPACE.search(text, end) is None:  # (the text's end: no cut)
            return False
        line = text.rfind("\n", cur, end) + 1 or cur
        directive = _DIRECTIVE_LINE.fullmatch(text, line, end) if "." in text[line:line + 8] \
            else None
        if directive is not None:
            # reStructuredText's `..` with the rest of its line after the cut, or a
            # directive's first line (`.. note::`) over its indented body
            after = _NEXT_TEXT.match(text, end)
            if after is not None and (after.group(1) is None or
                                      len(after.group(1)) > len(directive.group(1))):
                return True
        if text[end - 1] not in "*+-.)":
            if text[end - 1] == "]":
                return _ALERT_LINE.fullmatch(text, line, end) is not None
            return text[end - 1] in "\":" and _OPENER_LINE.fullmatch(text, line, end) is not None
        return _MARKER_LINE.fullmatch(text, line, end) is not None

    def _introduced(self, pos: np.ndarray, cpos: np.ndarray, last: int, cur: int, context: str,
                    ctx_tokens: int) -> bool:
        """Whether the piece's last paragraph (``pos[last - 1]`` to ``pos[last]``) is a
        short one ending in a colon that introduces the block after it ("First, create
        the file `hello.cc`:" before the code), which fits in one piece with it, or a
        short term of a definition list: then it starts the next piece rather than end
        this one."""
        end = int(pos[last])
        if last + 1 >= len(pos) or cpos[last] - cpos[last - 1] > self.limit // INTRO_SHARE:
            return False
        said = self.index.trim_end(cur, end)
        start, after = int(pos[last - 1]), int(pos[last + 1])
        if said <= cur:
            return False
        if self.index.text[said - 1] != ":":
            # a definition list's term starts its definition's piece even where the
            # definition is too long to join it whole (its first sentences then)
            return self._term(start, said)
        return (int(cpos[last + 1]) - int(cpos[last - 1]) + ctx_tokens < self.limit
                and after - start + len(context) <= self.max_chars)

    def _term(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` (a paragraph, less the space around it) is a term
        of a definition list (HTML's ``<dt>``: an option, Sphinx's signature of a
        function) that its definition follows: it introduces it as a colon does."""
        terms = self._terms()
        return bool(terms) and terms.get(self.index.skip_space(start, end)) == end

    def _terms(self) -> dict[int, int]:
        """Where each term of a definition list starts -> where it ends (found once per
        document; most have none)."""
        index = self.index
        terms: dict[int, int] | None = index.memo.get("term-starts")
        if terms is None:
            terms = index.memo["term-starts"] = {
                b.start: b.end for b in index.doc.blocks if b.metadata.get("tag") == "dt"}
        return terms

    def _by_characters(self, cur: int, hi: int, context: str, span_hi: int | None = None) -> Piece:
        """Last resort: the longest prefix that fits, found by exact counts (before
        ``hi``; ``span_hi``: where the span ends, past the character cap)."""
        index = self.index
        count = index.counter.count
        # a short span that fits whole (a long run of one character, a URL the
        # tokenizer maps to one unknown token) takes one count, not a search
        if hi - cur <= 16384:
            n = count(context + index.text[cur:hi])
            if n <= self.limit:
                end = index.trim_end(cur, hi)
                if end > cur:
                    return Piece(cur, end, n if end == hi else count(
                        context + index.text[cur:end]), context)
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
            span_hi = hi if span_hi is None else span_hi
            first = index.skip_space(cur, span_hi)
            if cur < first < span_hi:  # only a line's indentation fitted: start past it
                return self._by_characters(
                    first, min(span_hi, first + self.max_chars - len(context)), context, span_hi)
            snippet = index.text[cur:cur + 1]
            raise ConfigError(
                f"max_tokens={self.limit} cannot hold even one character ({snippet!r} at offset "
                f"{cur}) with its context of {count(context)} tokens; raise size/max_tokens"
            )
        return Piece(cur, end, count(context + index.text[cur:end]), context)

    def _overlap_start(self, start: int, end: int, overlap_levels: _LazyLevels) -> int:
        """Where the next piece starts so that it repeats at most ``overlap`` tokens.

        The repeated text is re-counted exactly unless the estimate is exact (an
        additive tokenizer and whitespace at the cut): a boundary inside a token
        (a sentence end within "0?<") would otherwise repeat more than estimated."""
        index = self.index
        text = index.text
        sep = index.counter.separates
        c_end = int(index.before(end))
        best = end
        for pos, cpos in overlap_levels:
            i = max(int(cpos.searchsorted(c_end - self.overlap, side="left")),
                    int(pos.searchsorted(start, side="right")))
            while i < len(pos) and pos[i] < end:
                p = int(pos[i])
                first = index.skip_space(p, end)
                if first >= end:
                    break
                estimate = c_end - int(index.before(first))
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

    def __init__(self, packer: Packer, levels: Sequence[Level], lo: int, hi: int):
        self.packer, self.levels, self.lo, self.hi = packer, levels, lo, hi
        self._cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __bool__(self) -> bool:
        return bool(self.levels)

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for i, level in enumerate(self.levels):
            if i not in self._cache:
                index = self.packer.index
                found = level.span_positions(index, self.lo, self.hi)
                if found is None:
                    self._cache[i] = self.packer.restrict(index.positions(level),
                                                          self.lo, self.hi)
                else:
                    pos = np.append(found, self.hi)
                    self._cache[i] = pos, index.before(pos)
            yield self._cache[i]
