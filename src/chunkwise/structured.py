"""Structure-aware packing: headings as hard boundaries with their trail as
context, tables as atomic blocks (split only by whole rows, header repeated).

Used by the ``section`` strategy, and by ``recursive``/``sentence`` with
``headers=True``.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from .engine import DocumentIndex, Packer, PackPolicy, Piece
from .errors import ConfigError
from .types import Block, Document

TABLE_ROW_POLICY = PackPolicy(levels=("table-row", "table-cell", "word", "token"))


@dataclass(slots=True)
class Section:
    start: int
    end: int
    headings: tuple[str, ...]
    blocks: list[Block] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StructureOptions:
    context_template: str = "{trail}\n\n"
    trail_separator: str = " > "
    title: bool = True  # put the document title at the head of the trail
    table_max: int | None = None  # default: 2 x size, never above max_tokens
    table_rows: str = "group"  # "group": split by row groups; "row": one chunk per row
    merge_sections: bool = False  # merge small sibling sections up to size

    def __post_init__(self):
        if self.table_rows not in ("group", "row"):
            raise ConfigError(f"table_rows must be 'group' or 'row', got {self.table_rows!r}")
        if "{trail}" not in self.context_template:
            raise ConfigError("context_template must contain {trail}")
        if self.table_max is not None and (not isinstance(self.table_max, int) or self.table_max < 1):
            raise ConfigError(f"table_max must be a positive integer, got {self.table_max!r}")


def split_sections(doc: Document) -> list[Section]:
    """Sections start at every heading; text before the first heading is its own section."""
    sections: list[Section] = []
    current = Section(0, len(doc.text), ())
    for block in doc.blocks:
        if block.kind == "heading":
            current.end = block.start
            sections.append(current)
            current = Section(block.start, len(doc.text), block.headings, [block])
        else:
            current.blocks.append(block)
    sections.append(current)
    sections = [s for s in sections if doc.text[s.start:s.end].strip()]
    # a heading with no body of its own ("5. Records" straight into "5.1 ...") joins
    # the first subsection instead of becoming a chunk of one line
    merged: list[Section] = []
    for s in sections:
        prev = merged[-1] if merged else None
        if (prev is not None and len(prev.blocks) == 1 and prev.blocks[0].kind == "heading"
                and len(s.headings) > len(prev.headings)
                and s.headings[:len(prev.headings)] == prev.headings):
            merged[-1] = Section(prev.start, s.end, s.headings, prev.blocks + s.blocks)
        else:
            merged.append(s)
    return merged


def prepare_structure(index: DocumentIndex, doc: Document) -> None:
    """Levels structure-aware packing cuts at: block ends, table row ends, cell borders."""
    text = doc.text
    index.add_level("block", np.array(sorted({b.end for b in doc.blocks}), dtype=np.int64))
    rows, cells = [], []
    for b in doc.blocks:
        if b.kind != "table":
            continue
        for s, e in b.metadata.get("rows", ()):
            rows.append(e)
            cells.extend(s + i for i, ch in enumerate(text[s:e]) if ch == "|" and 0 < i < e - s - 1)
    index.add_level("table-row", np.array(sorted(set(rows)), dtype=np.int64))
    index.add_level("table-cell", np.array(sorted(set(cells)), dtype=np.int64))


class StructuredPacker:
    def __init__(self, doc: Document, index: DocumentIndex, policy: PackPolicy, limit: int,
                 overlap: int, max_tokens: int, size: int, options: StructureOptions):
        self.doc = doc
        self.index = index
        self.limit = limit
        self.options = options
        self.count = index.counter.count
        self.prose = Packer(index, policy, limit, overlap)
        self.rows = Packer(index, TABLE_ROW_POLICY, limit)
        table_max = options.table_max if options.table_max is not None else 2 * size
        self.table_limit = min(table_max, max_tokens)
        self.max_tokens = max_tokens
        self._block_starts = [b.start for b in doc.blocks]
        self._contexts: dict[tuple[str, ...], str] = {}

    # -- context ------------------------------------------------------------------

    def trail(self, headings: tuple[str, ...]) -> tuple[str, ...]:
        title = self.doc.title if self.options.title else None
        if title and (not headings or headings[0] != title):
            return (title,) + headings
        return headings

    def context(self, headings: tuple[str, ...]) -> str:
        """The rendered trail; outer headings are dropped while it would take more than
        half the budget (the text must keep room), and it is left out if even the
        innermost heading is too long."""
        if headings in self._contexts:
            return self._contexts[headings]
        trail = self.trail(headings)
        ctx = ""
        while trail:
            ctx = self.options.context_template.format(
                trail=self.options.trail_separator.join(trail), title=self.doc.title or "")
            if self.count(ctx) <= self.limit // 2:
                break
            trail, ctx = trail[1:], ""
        self._contexts[headings] = ctx
        return ctx

    def fits_context(self, ctx: str, extra: str) -> str:
        """``ctx + extra`` if it leaves half the budget for text, else ``ctx``."""
        return ctx + extra if self.count(ctx + extra) <= self.limit // 2 else ctx

    def page_at(self, pos: int) -> int | None:
        i = bisect_right(self._block_starts, pos) - 1
        while i >= 0:
            page = self.doc.blocks[i].page
            if page is not None:
                return page
            i -= 1
        return None

    # -- packing ------------------------------------------------------------------

    def pieces(self) -> list[Piece]:
        out: list[Piece] = []
        for section in split_sections(self.doc):
            section_pieces = self.section_pieces(section)
            for p in section_pieces:
                p.headings = section.headings
                if p.page is None:
                    p.page = self.page_at(p.start)
            if len(section_pieces) == 1 and section_pieces[0].kind == "prose":
                section_pieces[0].metadata["whole_section"] = True
            out.extend(section_pieces)
        if self.options.merge_sections:
            out = self.merge_siblings(out)
        for p in out:
            p.metadata.pop("whole_section", None)
        return out

    def section_pieces(self, section: Section) -> list[Piece]:
        ctx = self.context(section.headings)
        pieces: list[Piece] = []
        cur = section.start
        pending: list[Block] = []  # blocks since cur
        for block in section.blocks:
            if block.kind not in ("table", "front_matter"):
                pending.append(block)
                continue
            if block.kind == "table":
                # headings alone before a table travel with it rather than make a
                # chunk of one line
                lead = cur if pending and all(b.kind == "heading" for b in pending) else None
                if lead is None and cur < block.start:
                    pieces.extend(self.prose.pack(cur, block.start, ctx))
                pieces.extend(self.table_pieces(block, ctx, lead))
            else:
                if cur < block.start:
                    pieces.extend(self.prose.pack(cur, block.start, ctx))
                for p in self.prose.pack(block.start, block.end):
                    p.kind = "front_matter"
                    pieces.append(p)
            cur = block.end
            pending = []
        if cur < section.end:
            pieces.extend(self.prose.pack(cur, section.end, ctx))
        return pieces

    def table_pieces(self, block: Block, ctx: str, lead: int | None = None) -> list[Piece]:
        """A table's chunks; ``lead`` is an earlier start (a heading just above it)."""
        text = self.doc.text
        meta = block.metadata
        start = block.start if lead is None else lead
        whole = self.count(ctx + text[start:block.end])
        rows = meta.get("rows", ())
        header = meta.get("header")
        if self.options.table_rows == "row" and rows and header:
            return self.row_pieces(block, ctx, start)
        if whole <= self.table_limit or not rows or not header:
            if whole <= self.table_limit:
                return [Piece(start, block.end, whole, ctx, kind="table")]
            return self._tag(self.rows.pack(start, block.end, ctx), "table")
        header_ctx = self.fits_context(ctx, text[header[0]:header[1]] + "\n")
        pieces = self.row_groups(start, rows, ctx, header_ctx)
        for i, p in enumerate(pieces):
            p.metadata.update(table_part=i + 1, table_parts=len(pieces))
        return self._tag(pieces, "table")

    def row_groups(self, start: int, rows, ctx: str, header_ctx: str) -> list[Piece]:
        """Whole rows packed up to the size; the first group carries the header lines
        in its text, the others in their context. A row larger than the size stays
        whole up to max_tokens; only a row beyond that is cut, at cell borders."""
        text = self.doc.text
        pieces: list[Piece] = []
        group_start, group_end, group_n = start, None, 0

        def group_ctx() -> str:
            return ctx if not pieces else header_ctx

        for s, e in rows:
            if group_start is None:
                group_start = s
            n = self.count(group_ctx() + text[group_start:e])
            if n <= self.limit:
                group_end, group_n = e, n
                continue
            if group_end is not None:  # close the group before this row
                pieces.append(Piece(group_start, group_end, group_n, group_ctx()))
                group_start = s
                n = self.count(group_ctx() + text[group_start:e])
                if n <= self.limit:
                    group_end, group_n = e, n
                    continue
            if n <= self.max_tokens:  # one big row: kept whole
                pieces.append(Piece(group_start, e, n, group_ctx()))
            else:  # cut at cell borders; the header is context from the second piece on
                cut = self.rows.pack(group_start, e, group_ctx())
                pieces.append(cut[0])
                if cut[0].end < e:
                    pieces.extend(self.rows.pack(cut[0].end, e, header_ctx))
            group_start, group_end = None, None
        if group_end is not None:
            pieces.append(Piece(group_start, group_end, group_n, group_ctx()))
        return pieces

    def row_pieces(self, block: Block, ctx: str, start: int) -> list[Piece]:
        """One chunk per row, the row rendered as 'column: value; ...' in context."""
        text = self.doc.text
        meta = block.metadata
        columns = meta.get("columns", ())
        header = meta["header"]
        header_ctx = self.fits_context(ctx, text[header[0]:header[1]] + "\n")
        pieces: list[Piece] = []
        for i, ((s, e), cells) in enumerate(zip(meta["rows"], meta.get("cells", ()))):
            record = "; ".join(f"{c}: {v}" for c, v in zip(columns, cells) if c or v)
            begin = start if i == 0 else s  # the header lines travel with the first row
            row_ctx = ctx + record + "\n"
            n = self.count(row_ctx + text[begin:e])
            if n <= self.limit:
                pieces.append(Piece(begin, e, n, row_ctx, kind="table",
                                    metadata={"row": i + 1}))
            else:
                pieces.extend(self.rows.pack(begin, e, header_ctx if i else ctx))
        return self._tag(pieces, "table")

    @staticmethod
    def _tag(pieces: list[Piece], kind: str) -> list[Piece]:
        for p in pieces:
            p.kind = kind
        return pieces

    def merge_siblings(self, pieces: list[Piece]) -> list[Piece]:
        """Merge neighbouring whole small sections under a common trail, up to the size."""
        out: list[Piece] = []
        text = self.doc.text
        for p in pieces:
            prev = out[-1] if out else None
            if (prev is not None and prev.metadata.get("whole_section")
                    and p.metadata.get("whole_section") and prev.page == p.page):
                common = _common_prefix(prev.headings, p.headings)
                if common and len(common) >= min(len(prev.headings), len(p.headings)) - 1:
                    ctx = self.context(common)
                    n = self.count(ctx + text[prev.start:p.end])
                    if n <= self.limit:
                        merged = Piece(prev.start, p.end, n, ctx, headings=common, page=prev.page,
                                       metadata={"whole_section": True})
                        out[-1] = merged
                        continue
            out.append(p)
        return out


def _common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]
