"""Chunking strategies: thin policies over the packing engine."""

from __future__ import annotations

import math
import warnings
from typing import Sequence

import numpy as np

from .boundaries import LEVELS, SentenceSplitter, separator_positions, sentencex_splitter
from .engine import DocumentIndex, Packer, PackPolicy, Piece
from .errors import ConfigError
from .ids import assign_ids
from .structured import StructuredPacker, StructureOptions, prepare_structure
from .tokens import TokenCounter, get_tokenizer
from .types import Chunk, Document

DEFAULT_SIZE = 256


def _check_int(name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def resolve_overlap(overlap, size: int) -> int:
    """Overlap in tokens from an int or a fraction of size (0 <= f < 1)."""
    if overlap is None:
        return 0
    if isinstance(overlap, bool):
        raise ConfigError(f"overlap must be a token count or a fraction, got {overlap!r}")
    if isinstance(overlap, float):
        if math.isnan(overlap) or overlap < 0:
            raise ConfigError(f"overlap must not be negative, got {overlap}")
        if overlap < 1:
            tokens = int(round(overlap * size))
        elif overlap.is_integer():
            tokens = int(overlap)
        else:
            raise ConfigError(
                f"overlap must be a token count or a fraction in [0, 1), got {overlap}")
    else:
        tokens = _check_int("overlap", overlap, 0)
    if tokens >= size:
        raise ConfigError(f"overlap ({tokens} tokens) must be smaller than size ({size})")
    return tokens


class Chunker:
    """Base strategy: validates options, owns the tokenizer, turns pieces into chunks."""

    name = "base"
    kind = "prose"

    def __init__(self, size: int | None = None, overlap=0, tokenizer=None,
                 max_tokens: int | None = None, language: str = "en",
                 sentence_splitter: SentenceSplitter | None = None, headers: bool = False,
                 context_template: str = "{trail}\n\n", trail_separator: str = " > ",
                 title: bool = True, table_max: int | None = None, table_rows: str = "group",
                 merge_sections: bool = False):
        self.headers = bool(headers)
        self.structure = StructureOptions(
            context_template=context_template, trail_separator=trail_separator, title=title,
            table_max=table_max, table_rows=table_rows, merge_sections=merge_sections)
        self.tokenizer: TokenCounter = get_tokenizer(tokenizer)
        explicit_size = size is not None
        self.size = _check_int("size", DEFAULT_SIZE if size is None else size, 1)
        if max_tokens is None:
            max_tokens = self.tokenizer.max_tokens or self.size
        self.max_tokens = _check_int("max_tokens", max_tokens, 1)
        if explicit_size and self.size > self.max_tokens:
            warnings.warn(
                f"size {self.size} exceeds max_tokens {self.max_tokens} of {self.tokenizer.name}; "
                f"chunks are capped at {self.max_tokens} tokens", stacklevel=2)
        self.limit = min(self.size, self.max_tokens)
        self.overlap = resolve_overlap(overlap, self.limit)
        self.language = language
        self.sentence_splitter = sentence_splitter or (
            sentencex_splitter(language) if self._needs_sentences() else None)

    # -- to override --------------------------------------------------------------

    def policy(self) -> PackPolicy:  # pragma: no cover - interface
        raise NotImplementedError

    def _needs_sentences(self) -> bool:
        return "sentence" in self.policy().levels + self.policy().overlap_levels

    def structure_aware(self, doc: Document) -> bool:
        """Headings as hard boundaries with trail context, tables atomic."""
        return self.headers and bool(doc.blocks)

    def pieces(self, doc: Document, index: DocumentIndex) -> list[Piece]:
        if self.structure_aware(doc):
            prepare_structure(index, doc)
            policy = self.policy()
            policy = PackPolicy(("block",) + policy.levels, policy.overlap_levels)
            return StructuredPacker(doc, index, policy, self.limit, self.overlap,
                                    self.max_tokens, self.size, self.structure).pieces()
        packer = Packer(index, self.policy(), self.limit, self.overlap)
        return packer.pack(0, len(doc.text))

    def prepare(self, index: DocumentIndex) -> None:
        """Hook for strategies that add levels of their own."""

    # -- public -------------------------------------------------------------------

    def index(self, doc: Document) -> DocumentIndex:
        index = DocumentIndex(doc.text, self.tokenizer, self.sentence_splitter)
        self.prepare(index)
        return index

    def chunk_document(self, doc: Document) -> list[Chunk]:
        if not doc.text.strip():
            return []
        pieces = self.pieces(doc, self.index(doc))
        return self.to_chunks(doc, pieces)

    def chunk(self, source, **kwargs) -> list[Chunk]:
        """Chunk a string, a path, a Document, or a list of them."""
        from .api import load_sources

        out: list[Chunk] = []
        for doc in load_sources(source, **kwargs):
            out.extend(self.chunk_document(doc))
        return out

    __call__ = chunk

    def to_chunks(self, doc: Document, pieces: Sequence[Piece]) -> list[Chunk]:
        text = doc.text
        ids = assign_ids(doc.doc_id, ((p.context, text[p.start:p.end]) for p in pieces))
        return [
            Chunk(id=cid, doc_id=doc.doc_id, text=text[p.start:p.end], start=p.start, end=p.end,
                  context=p.context, token_count=p.token_count, kind=p.kind or self.kind,
                  headings=p.headings, page=p.page, source=doc.source, metadata=p.metadata)
            for cid, p in zip(ids, pieces)
        ]

    def config(self) -> dict:
        cfg = {"strategy": self.name, "size": self.size, "overlap": self.overlap,
               "max_tokens": self.max_tokens, "tokenizer": self.tokenizer.name}
        if self.headers and self.name != "section":
            cfg["headers"] = True
        return cfg

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.config().items() if k != "strategy")
        return f"{type(self).__name__}({args})"


class FixedChunker(Chunker):
    """Every `size` tokens, cut at token boundaries; overlap in tokens."""

    name = "fixed"

    def policy(self) -> PackPolicy:
        return PackPolicy(levels=("token",), overlap_levels=("token",))


class SentenceChunker(Chunker):
    """Whole sentences packed up to `size` tokens. Overlap repeats the tail
    sentences whose total is at most the overlap budget (none if the last
    sentence alone is larger). A sentence longer than the budget is cut at
    words, then tokens."""

    name = "sentence"

    def policy(self) -> PackPolicy:
        return PackPolicy(levels=("sentence", "word", "token"), overlap_levels=("sentence",))


class RecursiveChunker(Chunker):
    """Cut at the highest-ranked boundary that fits: paragraph > line > sentence >
    clause > word > token, or at custom separators (in priority order, then tokens)."""

    name = "recursive"
    DEFAULT_LEVELS = LEVELS  # paragraph > line > sentence > clause > word > token

    def __init__(self, *args, separators: Sequence[str] | None = None, **kwargs):
        if separators is not None:
            if isinstance(separators, str) or not all(isinstance(s, str) for s in separators):
                raise ConfigError("separators must be a list of strings")
            separators = tuple(separators)
        self.separators = separators
        super().__init__(*args, **kwargs)

    def _level_names(self) -> tuple[str, ...]:
        if self.separators is None:
            return self.DEFAULT_LEVELS
        return tuple(f"sep:{s}" for s in self.separators) + ("token",)

    def policy(self) -> PackPolicy:
        if self.separators is None:
            return PackPolicy(levels=self.DEFAULT_LEVELS, overlap_levels=("sentence", "word"))
        return PackPolicy(levels=self._level_names(), overlap_levels=self._level_names())

    def prepare(self, index: DocumentIndex) -> None:
        for sep in self.separators or ():
            index.add_level(f"sep:{sep}", separator_positions(index.text, sep))

    def config(self) -> dict:
        cfg = super().config()
        if self.separators is not None:
            cfg["separators"] = list(self.separators)
        return cfg


class SectionChunker(RecursiveChunker):
    """Headings are hard boundaries; each chunk carries its heading trail (and the
    document title) as context; a long section is cut by the recursive engine,
    every piece keeping the trail; tables are atomic. Documents without structure
    are packed like ``recursive``."""

    name = "section"

    def __init__(self, *args, **kwargs):
        kwargs["headers"] = True
        super().__init__(*args, **kwargs)

    def config(self) -> dict:
        cfg = super().config()
        if self.structure.merge_sections:
            cfg["merge_sections"] = True
        return cfg


class AutoChunker(SectionChunker):
    """``section`` for documents with headings or tables, ``recursive`` otherwise."""

    name = "auto"

    def structure_aware(self, doc: Document) -> bool:
        return any(b.kind in ("heading", "table") for b in doc.blocks)


STRATEGIES: dict[str, type[Chunker]] = {
    "fixed": FixedChunker,
    "sentence": SentenceChunker,
    "recursive": RecursiveChunker,
    "section": SectionChunker,
    "auto": AutoChunker,
}


def get_chunker(strategy="recursive", **options) -> Chunker:
    if isinstance(strategy, Chunker):
        return strategy
    cls = STRATEGIES.get(strategy) if isinstance(strategy, str) else None
    if cls is None:
        raise ConfigError(
            f"unknown strategy {strategy!r} (expected one of {', '.join(sorted(STRATEGIES))})")
    try:
        return cls(**options)
    except TypeError as exc:
        raise ConfigError(f"strategy {strategy!r}: {exc}") from None
