"""Hierarchical parent-child chunking: retrieve small children, hand the model
their bigger parents.

Children are cut *inside* their parent's span by the same engine, so a child's
span always lies within its parent's (stronger than matching children to
independently cut parents). Any number of levels: (800, 200) by default, or
e.g. (2048, 512, 128). Level 0 is the largest; the last level is the one that
is embedded and retrieved.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..config import ChunkConfig
from ..engine import DocumentIndex, Piece, Span
from ..errors import ConfigError
from ..types import Chunk, Document, TokenizerSpec
from .base import (
    STRATEGIES,
    Chunker,
    blank_from,
    body_start,
    make_chunks,
    option_names,
    register,
    split_around_payloads,
)

#: how many parent chunks ``expand(hits)`` remembers (oldest documents forgotten first)
PARENTS_KEPT = 100_000

LevelSpec = str | tuple[str, Mapping[str, Any]]


@register("hierarchical")
class HierarchicalChunker(Chunker):
    """Parents first, then children cut inside each parent by the next level's
    strategy: a composition of strategies over spans.

    ``sizes`` (largest first) and ``overlaps`` give each level's budget and
    overlap; ``strategies`` each level's strategy, by name or as ``(name,
    {options})`` (default: recursive for all). Any strategy works at any level:
    "section" adds heading trails and keeps tables whole at its level, "semantic"
    cuts each parent at topic shifts. Options given to the hierarchy itself go to
    every level whose strategy takes them (and are an error if none does).
    ``max_tokens`` bounds the embedded (last) level; upper levels are bounded by
    their own sizes, since they are handed to the LLM, not embedded. The default
    child overlap is a fifth of the child size, at most 40 tokens.
    """

    def __init__(self, sizes: Sequence[int] | None = None, *, overlaps: Sequence[Any] | None = None,
                 strategies: Sequence[LevelSpec] | None = None, overlap: Any = None,
                 tokenizer: TokenizerSpec = None, max_tokens: int | None = None,
                 max_chars: int | None = None, size: int | None = None,
                 parent_size: int | None = None, child_size: int | None = None,
                 child_overlap: Any = None, min_tokens: int | None = None, **options: Any):
        sizes = tuple(_sizes(sizes, size, parent_size, child_size))
        if child_overlap is not None:
            _deprecated("child_overlap", "overlap=N (the last level's) or overlaps=(...)")
        if len(sizes) < 2:
            raise ConfigError("hierarchical needs at least two levels (sizes=(parent, child))")
        if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in sizes):
            raise ConfigError(f"hierarchical sizes must be positive integers, got {sizes}")
        if list(sizes) != sorted(sizes, reverse=True) or len(set(sizes)) != len(sizes):
            raise ConfigError(f"hierarchical sizes must shrink level by level, got {sizes}")
        if overlaps is None:
            leaf_overlap = overlap if overlap is not None else child_overlap
            if leaf_overlap is None:
                leaf_overlap = min(40, sizes[-1] // 5)
            overlaps = (0,) * (len(sizes) - 1) + (leaf_overlap,)
        elif overlap is not None or child_overlap is not None:
            raise ConfigError("hierarchical: give overlaps=(...) or overlap=, not both")
        overlaps = tuple(overlaps)
        if len(overlaps) != len(sizes):
            raise ConfigError("hierarchical: give one overlap per level")
        specs = tuple(strategies or ("recursive",) * len(sizes))
        if len(specs) != len(sizes):
            raise ConfigError("hierarchical: give one strategy per level")
        leaf_config = ChunkConfig.create(size=sizes[-1], overlap=overlaps[-1], tokenizer=tokenizer,
                                         max_tokens=max_tokens, max_chars=max_chars,
                                         min_tokens=min_tokens)
        super().__init__(config=leaf_config)
        self.levels: list[Chunker] = []
        used: set[str] = set()
        for i, (lsize, lover, spec) in enumerate(zip(sizes, overlaps, specs)):
            leaf = i == len(sizes) - 1
            name, own = _level_spec(spec)
            cls = STRATEGIES[name]
            accepted = set(option_names(cls))
            shared = {k: v for k, v in options.items() if k in accepted}
            used.update(shared)
            config = leaf_config if leaf else ChunkConfig.create(
                size=lsize, overlap=lover, tokenizer=leaf_config.tokenizer, max_tokens=lsize)
            try:
                self.levels.append(cls(config=config, **{**shared, **own}))
            except TypeError as exc:
                raise ConfigError(f"hierarchical level {i} ({name}): {exc}") from None
        unused = {k: v for k, v in options.items() if k not in used}
        if unused:
            raise ConfigError(f"strategy 'hierarchical' has no option "
                              f"{', '.join(map(repr, sorted(unused)))}, and none of its levels "
                              f"({', '.join(c.name for c in self.levels)}) takes it")
        self.sizes = sizes
        self.overlaps = tuple(c.overlap for c in self.levels)
        self.strategies = tuple(c.name for c in self.levels)
        # parents of the documents chunked last, by document, for expand(hits)
        self._parents: OrderedDict[str, dict[str, Chunk]] = OrderedDict()
        self._n_parents = 0

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        current = self.levels[0].split(doc, index, span)
        out = list(current)
        for depth, strategy in enumerate(self.levels[1:], start=1):
            children: list[Piece] = []
            for parent in current:
                inner = Span(parent.start, parent.end, parent.context, parent.headings,
                             parent.page)
                for child in strategy.split(doc, index, inner):
                    child.depth, child.parent = depth, parent
                    if parent.kind != "prose" and not _outside(index, child, parent.kind):
                        child.kind = parent.kind
                    children.append(child)
            out.extend(children)
            current = children
        return out

    def chunk_document(self, doc: Document) -> list[Chunk]:
        start = body_start(doc)
        if blank_from(doc.text, start):
            return []
        index = DocumentIndex(doc, self.tokenizer)
        pieces = split_around_payloads(self, doc, index, Span(start, len(doc.text)))
        chunks = make_chunks(index, pieces, self.kind, layered=True)
        self._remember(doc.doc_id, chunks)
        return chunks

    def _remember(self, doc_id: str, chunks: list[Chunk]) -> None:
        leaf = len(self.levels) - 1
        parents = {c.id: c for c in chunks if c.level < leaf}
        old = self._parents.pop(doc_id, None)
        self._n_parents -= len(old or ())
        self._parents[doc_id] = parents
        self._n_parents += len(parents)
        while self._n_parents > PARENTS_KEPT and len(self._parents) > 1:
            _, dropped = self._parents.popitem(last=False)
            self._n_parents -= len(dropped)

    def expand(self, hits: Iterable[Chunk], level: int | None = None) -> list[Chunk]:
        """Parents of retrieved chunks, deduplicated, order kept, looked up among the
        parents of the documents this chunker chunked last (up to PARENTS_KEPT
        parents; use :func:`expand` with your own store when they live elsewhere)."""
        by_id: dict[str, Chunk] = {}
        for parents in self._parents.values():
            by_id.update(parents)
        return expand(hits, by_id, level)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"strategy": self.name, "sizes": list(self.sizes),
                               "overlaps": list(self.overlaps),
                               "strategies": list(self.strategies),
                               "max_tokens": self.max_tokens, "tokenizer": self.tokenizer.name}
        for i, level in enumerate(self.levels):
            if level.options():
                out[f"level{i}"] = level.options()
        return out


DEFAULT_SIZES = (800, 200)


def _deprecated(name: str, instead: str) -> None:
    warnings.warn(f"hierarchical: {name}= is deprecated and goes in the next release; give "
                  f"{instead}", FutureWarning, stacklevel=5)


def _sizes(sizes: Sequence[int] | None, size: int | None, parent_size: int | None,
           child_size: int | None) -> Sequence[int]:
    """Each level's size from ``sizes``, or (deprecated, for one release) from
    ``parent_size``, ``child_size`` and ``size`` (the child's)."""
    given = [n for n, v in (("size", size), ("parent_size", parent_size),
                            ("child_size", child_size)) if v is not None]
    if sizes is not None:
        if given:
            raise ConfigError(f"hierarchical: give sizes=(...) or {', '.join(given)}=, not both")
        return sizes
    if not given:
        return DEFAULT_SIZES
    for name in given:
        _deprecated(name, "sizes=(parent, child)")
    child = size if size is not None else child_size
    return (parent_size if parent_size is not None else DEFAULT_SIZES[0],
            child if child is not None else DEFAULT_SIZES[1])


def _level_spec(spec: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(spec, str):
        name, own = spec, {}
    elif isinstance(spec, (tuple, list)) and len(spec) == 2 and isinstance(spec[0], str) \
            and isinstance(spec[1], Mapping):
        name, own = spec[0], dict(spec[1])
    else:
        raise ConfigError(f"hierarchical: a level is a strategy name or (name, {{options}}), "
                          f"got {spec!r}")
    if name not in STRATEGIES:
        raise ConfigError(f"hierarchical: unknown strategy {name!r} "
                          f"(expected one of {', '.join(STRATEGIES.names())})")
    if name == "hierarchical":
        raise ConfigError("hierarchical: a level cannot itself be hierarchical")
    for key in ("size", "overlap", "tokenizer", "max_tokens", "max_chars", "min_tokens"):
        if key in own:
            raise ConfigError(f"hierarchical: give {key} per level through sizes/overlaps, "
                              f"not in the options of level {name!r}")
    return name, own


def expand(hits: Iterable[Chunk], chunks: Iterable[Chunk] | Mapping[str, Chunk],
           level: int | None = None) -> list[Chunk]:
    """Replace retrieved children by their parents, deduplicated, order kept.

    ``chunks`` is every chunk of the hierarchy (or a mapping id -> chunk).
    ``level`` climbs to that level (0 = the top); by default one level up.
    Hits without a parent are kept as they are.
    """
    by_id: Mapping[str, Chunk] = chunks if isinstance(chunks, Mapping) else {c.id: c for c in chunks}
    out: dict[str, Chunk] = {}
    for hit in hits:
        node = hit
        if level is None:
            node = by_id.get(hit.parent_id, hit) if hit.parent_id else hit
        else:
            while node.level > level and node.parent_id is not None and node.parent_id in by_id:
                node = by_id[node.parent_id]
        out.setdefault(node.id, node)
    return list(out.values())


def _outside(index: DocumentIndex, child: Piece, kind: str) -> bool:
    """Whether a child of a table or code chunk lies outside every block of that kind
    (the line introducing a table, which its parent chunk starts with, is prose)."""
    return (kind in ("table", "code") and child.kind in (None, "prose") and bool(index.blocks)
            and not any(b.kind == kind for b in index.blocks_in(child.start, child.end)))
