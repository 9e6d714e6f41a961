"""The packing strategies: thin policies over the one engine.

``fixed`` cuts at tokens, ``sentence`` packs whole sentences, ``recursive`` cuts at
the best-ranked boundary that fits, ``section`` and ``auto`` add structure
(headings as hard boundaries with their trail as context, atomic tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import (
    CLAUSE,
    DEFAULT_LEVELS,
    LINE,
    PARAGRAPH,
    TOKEN,
    WORD,
    Level,
    Sentences,
    SentenceSplitter,
    Separator,
)
from ..types import Document
from .base import Chunker, register
from .structure import STRUCTURE_OPTIONS, StructuredPacking, StructureOptions


class PackingChunker(Chunker):
    """A strategy that is one pack policy over the engine, structure-aware where
    its ``structure`` options are on and the document has structure."""

    structure: StructureOptions | None = None

    def policy(self) -> PackPolicy:  # pragma: no cover - interface
        raise NotImplementedError

    def structure_aware(self, doc: Document) -> bool:
        return self.structure is not None and bool(doc.blocks)

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        if self.structure is not None and self.structure_aware(doc):
            packing = StructuredPacking(index, self.policy(), self.config, self.structure)
            return packing.split(span)
        packer = Packer(index, self.policy(), self.limit, self.overlap, self.max_chars)
        pieces = packer.pack(span.lo, span.hi, span.context)
        for p in pieces:
            p.headings = span.headings
        return pieces


@register("fixed")
class FixedChunker(PackingChunker):
    """Every `size` tokens, cut at token boundaries; overlap in tokens."""

    _POLICY = PackPolicy(levels=(TOKEN,), overlap_levels=(TOKEN,))

    def policy(self) -> PackPolicy:
        return self._POLICY


class _SentenceAware(PackingChunker):
    """Options shared by the strategies that find sentences and may add structure."""

    extra_options = STRUCTURE_OPTIONS

    def __init__(self, size: int | None = None, *, language: str = "en",
                 sentence_splitter: SentenceSplitter | None = None, headers: bool = False,
                 **options: Any):
        if not isinstance(language, str) or not language:
            raise ConfigError(f"language must be a language code such as 'en', got {language!r}")
        if sentence_splitter is not None and not callable(sentence_splitter):
            raise ConfigError("sentence_splitter must be a callable text -> sentence end offsets")
        self.language = language
        self.sentence_splitter = sentence_splitter
        self.headers = bool(headers)
        self.structure = StructureOptions.pop_from(self.name, options, self.headers) \
            if self.headers or any(k in options for k in STRUCTURE_OPTIONS) else None
        super().__init__(size, **options)
        self.sentences = Sentences(language=language, splitter=sentence_splitter)

    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.language != "en":
            out["language"] = self.language
        if self.headers:
            out["headers"] = True
        if self.structure is not None:
            out.update(self.structure.changed())
        return out


@register("sentence")
class SentenceChunker(_SentenceAware):
    """Whole sentences packed up to `size` tokens. Overlap repeats the tail
    sentences whose total is at most the overlap budget (none if the last
    sentence alone is larger). A sentence longer than the budget is cut at
    words, then tokens."""

    def policy(self) -> PackPolicy:
        return PackPolicy(levels=(self.sentences, WORD, TOKEN), overlap_levels=(self.sentences,))


@register("recursive")
class RecursiveChunker(_SentenceAware):
    """Cut at the highest-ranked boundary that fits: paragraph > line > sentence >
    clause > word > token, or at custom separators (in priority order, then tokens)."""

    def __init__(self, size: int | None = None, *, separators: Sequence[str] | None = None,
                 **options: Any):
        if separators is not None:
            if isinstance(separators, str) or not all(isinstance(s, str) for s in separators):
                raise ConfigError("separators must be a list of strings")
            separators = tuple(separators)
        self.separators = separators
        super().__init__(size, **options)

    def levels(self) -> tuple[Level, ...]:
        if self.separators is None:
            return (PARAGRAPH, LINE, self.sentences, CLAUSE, WORD, TOKEN)
        return tuple(Separator(s) for s in self.separators) + (TOKEN,)

    def policy(self) -> PackPolicy:
        if self.separators is None:
            return PackPolicy(levels=self.levels(), overlap_levels=(self.sentences, WORD))
        return PackPolicy(levels=self.levels(), overlap_levels=self.levels())

    def options(self) -> dict[str, Any]:
        out = super().options()
        if self.separators is not None:
            out["separators"] = list(self.separators)
        return out


@register("section")
class SectionChunker(RecursiveChunker):
    """Headings are hard boundaries; each chunk carries its heading trail (and the
    document title) as context; a long section is cut by the recursive engine,
    every piece keeping the trail; tables are atomic. Documents without structure
    are packed like ``recursive``."""

    def __init__(self, size: int | None = None, **options: Any):
        if options.get("headers", True) is not True:
            raise ConfigError(f"strategy {self.name!r} always uses headings (headers=True)")
        options["headers"] = True
        super().__init__(size, **options)

    def options(self) -> dict[str, Any]:
        out = super().options()
        out.pop("headers", None)
        return out


@register("auto")
class AutoChunker(SectionChunker):
    """``section`` for documents with headings or tables, ``recursive`` otherwise."""

    def structure_aware(self, doc: Document) -> bool:
        return any(b.kind in ("heading", "table") for b in doc.blocks)


__all__ = ["AutoChunker", "FixedChunker", "PackingChunker", "RecursiveChunker",
           "SectionChunker", "SentenceChunker", "DEFAULT_LEVELS"]
