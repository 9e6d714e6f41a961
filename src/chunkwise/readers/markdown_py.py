"""The Markdown reader on markdown-it-py (pure Python): the fallback for a document
the faster markdown-it-pyrs parser cannot take (a Rust panic), and the reference
it is checked against block by block (tests/test_readers_markdown.py)."""

from __future__ import annotations

import re
from bisect import bisect_right
from types import MappingProxyType

from ..types import Block, Document
from . import structure as st

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class _Lines:
    """Line number <-> character offset in the original text."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Characters of lines [first, last), without the final line break."""
        start = self.starts[first] if first < len(self.starts) else len(self.text)
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return start, end

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1


def _cells(inline_contents: list[str]) -> tuple[str, ...]:
    return tuple(c.strip() for c in inline_contents)


def _heading(blocks: list[Block], trail: st.HeadingTrail, title: str | None, level: int,
             heading: str, s: int, e: int) -> str | None:
    """A heading block appended (the trail moved to it); the title, the first level-1
    heading's when the front matter names none."""
    trail.push(level, heading)
    blocks.append(Block("heading", s, e, trail.path, level=level))
    return heading if title is None and level == 1 else title


def parse_markdown(text: str, doc_id: str, source: str | None = None) -> Document:
    from markdown_it import MarkdownIt

    meta, fm_end, held = st.front_matter(text)
    lines = _Lines(text)
    blocks: list[Block] = []
    if fm_end:
        blocks.append(Block("front_matter", 0, fm_end, metadata=st.FRONT_MATTER_HELD[held]))
    # parse only what follows the front matter, keeping line numbers aligned
    fm_lines = lines.line_of(fm_end) if fm_end else 0
    body = "\n" * fm_lines + text[lines.starts[fm_lines]:] if fm_end else text
    if body.startswith("\ufeff"):  # a byte-order mark would hide a heading on line 1
        body = " " + body[1:]
    body = st.indented_blocks_as_items(body)
    # block structure only: inline content (emphasis, links) is never needed, and
    # skipping the inline rules saves a third of the time
    md = MarkdownIt("commonmark").enable("table").disable("inline")
    if st.is_mdx(source or doc_id):  # (MDX has no indented code: JSX nests by indenting)
        md.disable("code")
    tokens = md.parse(body)

    trail = st.HeadingTrail()
    depth = 0  # nesting inside list items / blockquotes: only outermost blocks are emitted
    i = 0
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    while i < len(tokens):
        tok = tokens[i]
        if tok.type in ("bullet_list_open", "ordered_list_open", "blockquote_open"):
            if depth == 0 and tok.type == "blockquote_open" and tok.map:
                s, e = lines.span(*tok.map)
                blocks.append(Block("quote", s, e, trail.path))
            depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            depth -= 1
        elif tok.type == "list_item_open" and tok.map and depth == 1:
            s, e = lines.span(*tok.map)
            blocks.append(Block("list_item", s, e, trail.path))
        elif tok.type == "heading_open" and tok.map and depth == 0:
            title = _heading(blocks, trail, title, int(tok.tag[1]),
                             st.heading_text(tokens[i + 1].content.strip()), *lines.span(*tok.map))
        elif depth == 0 and tok.type == "paragraph_open" and tok.map:
            s, e = lines.span(*tok.map)
            blocks.append(Block("paragraph", s, e, trail.path))
        elif depth == 0 and tok.type in ("fence", "code_block") and tok.map:
            s, e = lines.span(*tok.map)
            blocks.extend(st.fence_blocks(text, s, e, tok.info.strip(), trail))
        elif depth == 0 and tok.type == "html_block" and tok.map:
            s, e = lines.span(*tok.map)
            if (found := st.html_heading(text[s:e])) is not None:
                title = _heading(blocks, trail, title, *found, s, e)
            else:
                blocks.append(Block("html", s, e, trail.path))
        elif tok.type == "table_open" and tok.map:
            j = i
            rows: list[tuple[int, int]] = []
            cells: list[tuple[str, ...]] = []
            header_cells: tuple[str, ...] = ()
            in_head = False
            current: list[str] = []
            while tokens[j].type != "table_close":
                t = tokens[j]
                if t.type == "thead_open":
                    in_head = True
                elif t.type == "thead_close":
                    in_head = False
                elif t.type == "tr_open":
                    current = []
                    row_map = t.map
                elif t.type == "inline":
                    current.append(t.content)
                elif t.type == "tr_close":
                    if in_head:
                        header_cells = _cells(current)
                    elif row_map:
                        rows.append(lines.span(*row_map))
                        cells.append(_cells(current))
                j += 1
            t_start, t_end = lines.span(*tok.map)
            # header = header line + delimiter row (two source lines)
            h_start, h_end = lines.span(tok.map[0], tok.map[0] + 2)
            blocks.append(st.table_block(t_start, t_end, (h_start, h_end), rows, header_cells,
                                      cells, trail.path, fmt="markdown"))
            i = j
        i += 1
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(st.anchors_to_headings(st.attributes_to_blocks(
                        st.containers_as_quotes(blocks, text), text), text)),
                    metadata=MappingProxyType(dict(meta)))
