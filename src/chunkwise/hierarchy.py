"""Hierarchical parent-child chunking: retrieve small children, hand the model
their bigger parents.

Children are cut *inside* their parent's span by the same engine, so a child's
span always lies within its parent's (stronger than matching children to
independently cut parents). Any number of levels: (800, 200) by default, or
e.g. (2048, 512, 128). Level 0 is the largest; the last level is the one that
is embedded and retrieved.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable, Sequence

from .chunkers import STRATEGIES, Chunker, get_chunker
from .engine import Packer, Piece
from .errors import ConfigError
from .ids import assign_ids
from .types import Chunk, Document


_SEMANTIC_ONLY = {"embedder", "threshold", "amount", "window", "min_size", "merge", "cache"}


class HierarchicalChunker(Chunker):
    """Parents first, then children cut inside each parent.

    ``sizes`` (largest first) and ``overlaps`` give each level's budget and
    overlap; ``strategies`` each level's inner strategy (default: recursive for
    all; "section" at level 0 adds heading trails, inherited by the children).
    ``max_tokens`` bounds the embedded (last) level; upper levels are bounded by
    their own sizes, since they are handed to the LLM, not embedded.
    """

    name = "hierarchical"

    def __init__(self, sizes: Sequence[int] | None = None, overlaps: Sequence | None = None,
                 strategies: Sequence[str] | None = None, parent_size: int = 800,
                 child_size: int = 200, child_overlap=40, size: int | None = None,
                 overlap=None, tokenizer=None, max_tokens: int | None = None, **options):
        if sizes is None:
            sizes = (parent_size, size if size is not None else child_size)
        sizes = tuple(sizes)
        if len(sizes) < 2:
            raise ConfigError("hierarchical needs at least two levels (sizes=(parent, child))")
        if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in sizes):
            raise ConfigError(f"hierarchical sizes must be positive integers, got {sizes}")
        if list(sizes) != sorted(sizes, reverse=True) or len(set(sizes)) != len(sizes):
            raise ConfigError(f"hierarchical sizes must shrink level by level, got {sizes}")
        if overlaps is None:
            leaf_overlap = overlap if overlap is not None else child_overlap
            overlaps = (0,) * (len(sizes) - 1) + (leaf_overlap,)
        if len(overlaps) != len(sizes):
            raise ConfigError("hierarchical: give one overlap per level")
        strategies = tuple(strategies or ("recursive",) * len(sizes))
        if len(strategies) != len(sizes):
            raise ConfigError("hierarchical: give one strategy per level")
        for i, s in enumerate(strategies):
            if s not in ("fixed", "sentence", "recursive", "section", "semantic"):
                raise ConfigError(f"hierarchical: inner strategy {s!r} not supported "
                                  "(fixed, sentence, recursive, section, semantic)")
            if s == "semantic" and i == 0:
                raise ConfigError("hierarchical: semantic is supported below the top level "
                                  "(its topic cuts split each parent)")
        semantic_options = {k: options.pop(k) for k in list(options) if k in _SEMANTIC_ONLY}
        self.levels: list[Chunker] = []
        for i, (lsize, lover, lstrat) in enumerate(zip(sizes, overlaps, strategies)):
            leaf = i == len(sizes) - 1
            extra = semantic_options if lstrat == "semantic" else {}
            self.levels.append(get_chunker(
                lstrat, size=lsize, overlap=lover, tokenizer=tokenizer,
                max_tokens=max_tokens if leaf else lsize, **options, **extra))
        self.tokenizer = self.levels[0].tokenizer
        self.sizes = sizes
        self.overlaps = tuple(c.overlap for c in self.levels)
        self.strategies = strategies
        leaf = self.levels[-1]
        self.size, self.max_tokens, self.limit = leaf.size, leaf.max_tokens, leaf.limit
        self.overlap = leaf.overlap
        self.sentence_splitter = next((c.sentence_splitter for c in self.levels
                                       if c.sentence_splitter), None)
        self.headers = False
        self.structure = self.levels[0].structure
        # every non-leaf chunk produced so far, by id, for expand(hits)
        self._parents: dict[str, Chunk] = {}

    def policy(self):
        return self.levels[-1].policy()

    def prepare(self, index) -> None:
        for c in self.levels:
            c.prepare(index)

    def chunk_document(self, doc: Document) -> list[Chunk]:
        if not doc.text.strip():
            return []
        index = self.index(doc)
        top = self.levels[0]
        level_pieces: list[list[tuple[Piece, int | None]]] = [
            [(p, None) for p in top.pieces(doc, index)]]
        for depth, chunker in enumerate(self.levels[1:], start=1):
            packer = Packer(index, chunker.policy(), chunker.limit, chunker.overlap)
            # a semantic level's topic cuts (found once for the document) split each parent
            cuts = chunker.cut_positions(index) if hasattr(chunker, "cut_positions") else []
            children = []
            for parent_no, (parent, _) in enumerate(level_pieces[-1]):
                inner = cuts[bisect_right(cuts, parent.start):bisect_left(cuts, parent.end)]
                bounds = [parent.start] + inner + [parent.end]
                spans = [(a, b) for a, b in zip(bounds, bounds[1:])
                         if doc.text[a:b].strip()]
                for child in (c for a, b in spans for c in packer.pack(a, b, parent.context)):
                    child.headings, child.page = parent.headings, parent.page
                    child.kind = parent.kind if parent.kind != "prose" else child.kind
                    children.append((child, parent_no))
            level_pieces.append(children)
        chunks: list[Chunk] = []
        level_ids: list[list[str]] = []
        for depth, pieces in enumerate(level_pieces):
            ids = assign_ids(f"{doc.doc_id}#L{depth}",
                             ((p.context, doc.text[p.start:p.end]) for p, _ in pieces))
            level_ids.append(ids)
            for cid, (p, parent_no) in zip(ids, pieces):
                chunks.append(Chunk(
                    id=cid, doc_id=doc.doc_id, text=doc.text[p.start:p.end], start=p.start,
                    end=p.end, context=p.context, token_count=p.token_count, kind=p.kind,
                    headings=p.headings, page=p.page, source=doc.source, level=depth,
                    parent_id=None if parent_no is None else level_ids[depth - 1][parent_no],
                    metadata=p.metadata))
        leaf = len(self.levels) - 1
        self._parents.update((c.id, c) for c in chunks if c.level < leaf)
        return chunks

    def expand(self, hits: Iterable[Chunk], level: int | None = None) -> list[Chunk]:
        """Parents of retrieved chunks, deduplicated, order kept, looked up among the
        chunks this chunker has produced (use :func:`expand` with your own store
        when the parents live elsewhere)."""
        return expand(hits, self._parents, level)

    def config(self) -> dict:
        return {"strategy": self.name, "sizes": list(self.sizes), "overlaps": list(self.overlaps),
                "strategies": list(self.strategies), "max_tokens": self.max_tokens,
                "tokenizer": self.tokenizer.name}


def expand(hits: Iterable[Chunk], chunks: Iterable[Chunk] | dict, level: int | None = None) -> list[Chunk]:
    """Replace retrieved children by their parents, deduplicated, order kept.

    ``chunks`` is every chunk of the hierarchy (or a mapping id -> chunk).
    ``level`` climbs to that level (0 = the top); by default one level up.
    Hits without a parent are kept as they are.
    """
    by_id = chunks if isinstance(chunks, dict) else {c.id: c for c in chunks}
    out: dict[str, Chunk] = {}
    for hit in hits:
        node = hit
        if level is None:
            node = by_id.get(hit.parent_id, hit) if hit.parent_id else hit
        else:
            while node.level > level and node.parent_id in by_id:
                node = by_id[node.parent_id]
        out.setdefault(node.id, node)
    return list(out.values())


STRATEGIES["hierarchical"] = HierarchicalChunker
