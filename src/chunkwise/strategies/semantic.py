"""Semantic chunking: cut where meaning shifts, under the same hard budget.

Sentences are embedded once (each with a window of neighbours), the similarity
between neighbouring windows is measured, and the document is cut where it
falls below a threshold taken from its own distribution. The cuts are hard
boundaries for the packing engine, which still enforces ``size`` (and a
minimum size: segments smaller than ``min_size`` join their neighbour), so no
chunk is ever over budget, unlike peers that cap semantic chunks afterwards or
not at all. An optional second pass merges neighbouring chunks whose
embeddings are close (double-pass merging).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import TOKEN, WORD, Sentences, SentenceSplitter
from ..types import Document
from .base import Chunker, register

METHODS = ("percentile", "std", "interquartile", "gradient")
_DEFAULT_AMOUNT = {"percentile": 90.0, "std": 1.5, "interquartile": 1.5, "gradient": 90.0}


def breakpoint_threshold(distances: np.ndarray, method: str | float, amount: float) -> float:
    """Distance at or above which neighbouring windows are cut apart: a number is an
    absolute cosine distance; a method name takes it from the distances' own
    distribution."""
    if not isinstance(method, str):
        return float(method)
    if method == "percentile":
        return float(np.percentile(distances, amount))
    if method == "std":
        return float(distances.mean() + amount * distances.std())
    if method == "interquartile":
        q1, q3 = np.percentile(distances, [25, 75])
        return float(distances.mean() + amount * (q3 - q1))
    raise ConfigError(f"unknown threshold method {method!r} (expected {', '.join(METHODS)})")


def window_similarities(vectors: np.ndarray, window: int) -> np.ndarray:
    """Cosine similarity across each gap between sentences i and i+1: the mean of
    the ``window`` sentences before the gap against the mean of those after it
    (block comparison, as in TextTiling), so a shift is located at the gap itself."""
    n = len(vectors)
    csum = np.vstack([np.zeros((1, vectors.shape[1]), dtype=np.float64),
                      np.cumsum(vectors, axis=0, dtype=np.float64)])
    gaps = np.arange(1, n)
    lo = np.maximum(0, gaps - window)
    hi = np.minimum(n, gaps + window)
    left = csum[gaps] - csum[lo]
    right = csum[hi] - csum[gaps]
    left /= np.linalg.norm(left, axis=1, keepdims=True) + 1e-12
    right /= np.linalg.norm(right, axis=1, keepdims=True) + 1e-12
    return np.asarray(np.sum(left * right, axis=1))


@register("semantic")
class SemanticChunker(Chunker):
    """Cut where the similarity of neighbouring sentence windows drops.

    ``threshold``: "percentile" (default: cut at the 10 % lowest similarities,
    amount 90), "std", "interquartile" or "gradient"; ``amount`` tunes it.
    ``window``: sentences on each side of a gap compared (each embedded once).
    ``min_size``: smallest chunk in tokens (small topic segments join a neighbour).
    ``merge``: similarity above which neighbouring chunks are merged in a second
    pass (None: off).
    """

    def __init__(self, size: int | None = None, *, embedder: Any = None,
                 threshold: str | float = "percentile", amount: float | None = None, window: int = 2,
                 min_size: int = 0, merge: float | None = None, cache: bool = False,
                 language: str = "en", sentence_splitter: SentenceSplitter | None = None,
                 **options: Any):
        if isinstance(threshold, bool) or not (
                threshold in METHODS or (isinstance(threshold, (int, float))
                                         and 0.0 < float(threshold) < 2.0)):
            raise ConfigError(f"threshold must be a method ({', '.join(METHODS)}) or a cosine "
                              f"distance in (0, 2), got {threshold!r}")
        if not isinstance(threshold, str):
            threshold = float(threshold)
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ConfigError(f"window must be a positive integer, got {window!r}")
        if merge is not None and not (-1.0 <= merge <= 1.0):
            raise ConfigError(f"merge must be a cosine similarity in [-1, 1], got {merge}")
        super().__init__(size, **options)
        if isinstance(min_size, bool) or not isinstance(min_size, int) or not \
                0 <= min_size <= self.limit:
            raise ConfigError(f"min_size must be between 0 and size ({self.limit}), got {min_size!r}")
        self.threshold = threshold
        self.amount = float(_DEFAULT_AMOUNT.get(str(threshold), 0.0) if amount is None
                            else amount)
        self.window = window
        self.min_size = min_size
        self.merge = merge
        self.language = language
        self.sentences = Sentences(language=language, splitter=sentence_splitter)
        self._policy = PackPolicy(levels=(self.sentences, WORD, TOKEN),
                                  overlap_levels=(self.sentences,))
        self._embedder_spec = embedder
        self._cache = cache
        self._embedder: Any = None

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            from ..embed import get_embedder

            self._embedder = get_embedder(self._embedder_spec, cache=self._cache)
        return self._embedder

    # -- the semantic levels ------------------------------------------------------

    def sentence_spans(self, index: DocumentIndex) -> list[tuple[int, int]]:
        text = index.text
        ends = [int(e) for e in index.positions(self.sentences)] + [len(text)]
        spans, start = [], 0
        for end in ends:
            s = index.skip_space(start, end)
            e = index.trim_end(s, end)
            if e > s:
                spans.append((s, e))
            start = max(start, end)
        return spans

    def cut_positions(self, index: DocumentIndex) -> list[int]:
        """Sentence ends after which the topic shifts (found once per document)."""
        key = ("semantic-cuts", self.threshold, self.amount, self.window, id(self))
        found = index.memo.get(key)
        if found is None:
            found = self._find_cuts(index)
            index.memo[key] = found
        return found

    def _find_cuts(self, index: DocumentIndex) -> list[int]:
        spans = self.sentence_spans(index)
        if len(spans) < 3:
            return []
        text = index.text
        vectors = self.embedder.embed([text[s:e] for s, e in spans])
        distances = 1.0 - window_similarities(vectors, self.window)
        # ">=": a tie at the threshold is a cut (with "<", equal distances made none)
        if self.threshold == "gradient":
            scores = np.gradient(distances) if len(distances) > 1 else distances
            cut = scores >= float(np.percentile(scores, self.amount))
        else:
            cut = distances >= breakpoint_threshold(distances, self.threshold, self.amount)
        return [spans[i][1] for i in np.nonzero(cut)[0]]

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        text = doc.text
        cuts = self.cut_positions(index)
        inner = cuts[bisect_right(cuts, span.lo):bisect_left(cuts, span.hi)]
        bounds = [span.lo, *inner, span.hi]
        segments = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
        packer = Packer(index, self._policy, self.config.budget.replace(
            min_size=max(self.min_size, self.config.min_size)))
        pieces: list[Piece] = []
        carry: int | None = None  # a small tail that joins the next topic segment
        for k, (a, b) in enumerate(segments):
            got = packer.pack(a if carry is None else carry, b, span.context)
            carry = None
            if self.min_size and k < len(segments) - 1 and got and \
                    got[-1].token_count < self.min_size:
                carry = got.pop().start  # only the span's last piece may be smaller
            pieces.extend(got)
        if self.min_size and len(pieces) > 1 and pieces[-1].token_count < self.min_size:
            pieces[-2:] = self._join(index, pieces[-2], pieces[-1], span.context)
        if self.merge is not None and len(pieces) > 1:
            pieces = self._merge_similar(index, pieces, span.context)
        for p in pieces:
            p.headings = span.headings
        return pieces

    def _join(self, index: DocumentIndex, a: Piece, b: Piece, context: str) -> list[Piece]:
        """The two pieces as one when that fits the budget, else as they are."""
        if b.start < a.end:
            return [a, b]
        n = index.counter.count(context + index.text[a.start:b.end])
        if n <= self.limit and b.end - a.start + len(context) <= self.max_chars:
            return [Piece(a.start, b.end, n, context)]
        return [a, b]

    def _merge_similar(self, index: DocumentIndex, pieces: Sequence[Piece],
                       context: str) -> list[Piece]:
        text = index.text
        vectors = self.embedder.embed([text[p.start:p.end] for p in pieces])
        out = [pieces[0]]
        last_vec = vectors[0]
        for p, v in zip(pieces[1:], vectors[1:]):
            prev = out[-1]
            if self.merge is not None and p.start >= prev.end and \
                    float(last_vec @ v) >= self.merge:
                n = index.counter.count(context + text[prev.start:p.end])
                if n <= self.limit and p.end - prev.start + len(context) <= self.max_chars:
                    out[-1] = Piece(prev.start, p.end, n, context)
                    merged = last_vec + v
                    last_vec = merged / (np.linalg.norm(merged) or 1.0)
                    continue
            out.append(p)
            last_vec = v
        return out

    def options(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "amount": self.amount, "window": self.window,
                "min_size": self.min_size, "merge": self.merge,
                "embedder": getattr(self._embedder, "name", self._embedder_spec or "minilm")}
