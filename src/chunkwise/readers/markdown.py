"""Markdown: the block structure from markdown-it-pyrs (markdown-it in Rust, about
six times faster than markdown-it-py), whose source maps give each block's span
in the file text as read (CRLF kept), so offsets cite the original file. Spans
are widened to whole lines, as markdown-it's line maps give them."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from itertools import accumulate
from types import MappingProxyType
from typing import Any

import numpy as np

from ..types import Block, Document
from .grid import grid_table
from .reader import Reader
from .structure import (
    FRONT_MATTER_HELD,
    HeadingTrail,
    anchors_to_headings,
    attributes_to_blocks,
    containers_as_quotes,
    fence_blocks,
    front_matter,
    heading_text,
    html_heading,
    indented_blocks_as_items,
    is_mdx,
    table_block,
)

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: the nodes whose children are blocks: only tables among them become blocks
_CONTAINERS = frozenset(("bullet_list", "ordered_list", "blockquote", "list_item"))
_NEWLINES = re.compile(r"\r\n?")


class _Lines:
    """Line starts and ends of the original text, and byte -> character offsets of
    the parser's source maps, for the segment being parsed (a map per byte of the
    whole text took 8 bytes per byte: 160 MB for a 20 MB file)."""

    def __init__(self, text: str):
        self.text = text
        self._starts: array[int] | None = None
        self._lo = 0
        #: where the segment's UTF-8 continuation bytes are (None: it is ASCII); set by
        #: segment() before parsing
        self._continuations: array[int] | None = None
        self._lf_only = "\r" not in text  # lines found by str.find (no bisect)

    @property
    def starts(self) -> array[int]:
        """Where each line starts: found when first asked (with only ``\n`` line breaks
        a block's lines are found by ``str.find``, and only tables ask)."""
        if self._starts is None:
            text = self.text
            # 8 bytes a line (a list would take ~36), and Python ints out of it for bisect
            starts = array("q", [0])
            if "\r" in text:
                starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
            else:  # each start is the previous one plus that line's length + 1
                lines = text.split("\n")
                lines.pop()
                starts.extend(accumulate(map((1).__add__, map(len, lines))))
            self._starts = starts
        return self._starts

    def segment(self, lo: int, part: str) -> None:
        """The parser is given ``part``, the text from character ``lo`` on."""
        self._lo = lo
        raw = part.encode("utf-8", "surrogatepass")
        if len(raw) == len(part):
            self._continuations = None
        else:  # a byte's character: the bytes before it less the continuation bytes
            # among them (a cumulative count per byte took 8 bytes per byte and three
            # passes over them: 3 % of the section strategy's time on Markdown)
            found = np.flatnonzero((np.frombuffer(raw, dtype=np.uint8) & 0xC0) == 0x80)
            self._continuations = array("q", found.astype(np.int64).tobytes())

    def char(self, byte: int) -> int:
        """The character of the segment's text that byte ``byte`` of its UTF-8 belongs
        to (its length, one past the end)."""
        if self._continuations is None:
            return self._lo + byte
        return self._lo + byte - bisect_right(self._continuations, byte)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_end(self, line: int) -> int:
        """Where line ``line`` ends, before its line break."""
        starts = self.starts
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        first = starts[line]
        text = self.text
        while end > first and text[end - 1] in "\r\n":
            end -= 1
        return end

    def extent(self, node: Any) -> tuple[int, int]:
        """The characters a node's source map covers."""
        return self.extent_of(*node.srcmap)

    def extent_of(self, b0: int, b1: int) -> tuple[int, int]:
        if self._continuations is None:
            return self._lo + b0, self._lo + b1
        return self.char(b0), self.char(b1)

    def span(self, node: Any) -> tuple[int, int]:
        """The whole lines a node's source map covers, without the last line break."""
        return self.span_of(node.srcmap)

    def span_of(self, srcmap: tuple[int, int]) -> tuple[int, int]:
        """:meth:`span` from the node's source map."""
        b0, b1 = srcmap  # (extent_of, inlined: called for nearly every block)
        if self._continuations is None:
            start, end = self._lo + b0, self._lo + b1
        else:
            start, end = self.char(b0), self.char(b1)
        text = self.text
        while end > start and text[end - 1].isspace():  # blank lines a list item runs over
            end -= 1
        if self._lf_only:  # the same lines, by str.find (text[end - 1] is no line break)
            last_break = text.find("\n", end - 1 if end > start else start)
            return text.rfind("\n", 0, start) + 1, len(text) if last_break < 0 else last_break
        starts = self.starts
        first = bisect_right(starts, start) - 1
        last = bisect_right(starts, end - 1) - 1 if end > start else first
        return starts[first], self.line_end(last)

    def inner(self, node: Any) -> str:
        """The source of a node's inline content (its children's extent), raw."""
        spans = [c.srcmap for c in node.children if c.srcmap]
        if not spans:
            return ""
        return self.text[self.char(spans[0][0]):self.char(spans[-1][1])]


#: CommonMark's block rules and GFM tables; no inline rules (emphasis, links): only
#: block spans are read, and the inline rules are where the parser has panicked
BLOCK_RULES: tuple[Any, ...] = ("blockquote", "code", "fence", "heading", "hr", "lheading",
                                "list", "paragraph", "reference", "html_block", "table")


def _parser(mdx: bool = False) -> Any:
    from markdown_it_pyrs import MarkdownIt

    md = MarkdownIt("zero")
    md.enable_many([r for r in BLOCK_RULES if not (mdx and r == "code")])
    return md


_PARSER: Any = None
#: MDX's: no indented code (JSX nests by indenting: :func:`~.structure.is_mdx`)
_MDX_PARSER: Any = None

#: characters of Markdown parsed at once: the parser's tree takes ~10x its text, so a
#: long document is parsed in segments, cut where no block can continue across
#: (:func:`segments`)
SEGMENT_CHARS = 1 << 20
_ATX = re.compile(r"#{1,6}(?:[ \t]|$)")
#: a list item at column 0, which starts a new one whatever the line before it holds
#: (a bullet with text interrupts a paragraph; one list of 200,000 items was one
#: segment, its tree ~100x the text) ...
_BULLET_ITEM = re.compile(r"[-+*][ \t]+\S")
#: ... but a thematic break (``- - -``, ``* * *``) ...
_THEMATIC = re.compile(r"([-*_])[ \t]*(?:\1[ \t]*){2,}$")
#: ... and an ordered item after a blank line (after text, only ``1.`` interrupts it)
_ORDERED_ITEM = re.compile(r"\d{1,9}[.)][ \t]+\S")
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})")
_HTML_OPEN = re.compile(r" {0,3}<(?:(script|pre|style|textarea)(?:[\s>]|$)|(!--)|(\?)|(![A-Za-z])"
                        r"|(!\[CDATA\[))", re.I)
_HTML_CLOSE = (re.compile(r"</(?:script|pre|style|textarea)>", re.I), re.compile("-->"),
               re.compile(r"\?>"), re.compile(">"), re.compile(r"\]\]>"))
#: CommonMark's HTML blocks 6 (a block-level tag, even inside a paragraph) and 7 (any
#: whole tag alone on its line, not inside a paragraph): both end at a blank line, and
#: a fence opened inside one is no fence
_HTML_BLOCK_TAG = re.compile(
    r" {0,3}</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|"
    r"colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|"
    r"frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|"
    r"noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    r"thead|title|tr|track|ul)(?:[ \t]|/?>|$)", re.I)
_HTML_TAG_LINE = re.compile(
    r" {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|"
    r"'[^']*'|\"[^\"]*\"))?)*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$")
_UNTIL_BLANK = re.compile(r"^\s*$")


def segments(text: str, size: int = SEGMENT_CHARS) -> list[tuple[int, int]]:
    """``[lo, hi)`` spans covering ``text`` that parse as they do in place: each
    (past ``size`` characters) ends before a line ``# ...``, a line starting with a
    letter or an ordered list item, at column 0 after a blank line (a new top-level
    block: nothing before it continues past a blank line but a fence, an HTML block,
    or a list item's indented lines), or before a bullet item with text at column 0
    (a new item, after whatever line), outside a fenced code block or an HTML block
    that runs past blank lines. A tag alone on a line after text may be more text or
    open an HTML block (after a heading, a table), and a block opened by an indented
    line may be in a list item that a line indented less ends: every reading is
    followed, and a cut falls only where none has a block open."""
    if len(text) <= size:
        return [(0, len(text))]
    out, lo, pos = [], 0, 0
    nothing = frozenset((_NOTHING_OPEN,))
    states = nothing
    blank = True  # the line before is blank
    while pos < len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl == -1 else nl + 1
        line = text[pos:end].rstrip("\r\n")
        if states is nothing:
            if pos - lo >= size and (
                    (blank and (_ATX.match(line) or line[:1].isalpha()
                                or _ORDERED_ITEM.match(line)))
                    or (_BULLET_ITEM.match(line) and not _THEMATIC.match(line))):
                out.append((lo, pos))
                lo = pos
            # (most lines open nothing: none but one starting with "<", "`" or "~")
            if line.lstrip(" ")[:1] in ("<", "`", "~"):
                states = frozenset(_opened(line, blank))
        else:
            states = frozenset(after for state in states for after in _next_states(state, line, blank))
        if states == nothing:
            states = nothing
        blank = not line.strip()
        pos = end
    out.append((lo, len(text)))
    return out


#: what is open after a line, for :func:`segments`: a fence (its character and
#: length), or an HTML block (the pattern of the line that ends it), and how far its
#: opening line is indented
_State = tuple[tuple[str, int] | None, Any, int]
_NOTHING_OPEN: _State = (None, None, 0)


def _next_states(state: _State, line: str, blank: bool) -> tuple[_State, ...]:
    """What may be open after ``line`` (``blank``: the line before it is blank). A
    block opened by an indented line may be inside a list item, which a line indented
    less ends (and the block with it), or at the top, which it does not: both."""
    fence, html, indent = state
    if fence is None and html is None:
        return _opened(line, blank)
    if fence is not None:
        close = line.lstrip(" ")
        if len(line) - len(close) <= 3 and close.startswith(fence[0] * fence[1]) \
                and not close.strip(fence[0]).strip():
            return (_NOTHING_OPEN,)
    elif html.search(line):
        return (_NOTHING_OPEN,)
    if indent and line.strip() and len(line) - len(line.lstrip(" \t")) < indent:
        return (state, *_opened(line, blank))
    return (state,)


def _opened(line: str, blank: bool) -> tuple[_State, ...]:
    """What may be open after ``line`` when nothing was before it."""
    indent = len(line) - len(line.lstrip(" "))
    if m := _FENCE_OPEN.match(line):
        return (((m.group(1)[0], len(m.group(1))), None, indent),)
    if m := _HTML_OPEN.match(line):
        kind = next(i for i in range(5) if m.group(i + 1))
        if _HTML_CLOSE[kind].search(line, m.end()):
            return (_NOTHING_OPEN,)
        return ((None, _HTML_CLOSE[kind], indent),)
    if _HTML_BLOCK_TAG.match(line) or (blank and _HTML_TAG_LINE.match(line)):
        return ((None, _UNTIL_BLANK, indent),)
    if _HTML_TAG_LINE.match(line):  # more text, or an HTML block (after a heading, a table)
        return (_NOTHING_OPEN, (None, _UNTIL_BLANK, indent))
    return (_NOTHING_OPEN,)


def parse_markdown(text: str, doc_id: str, source: str | None = None) -> Document:
    global _PARSER, _MDX_PARSER
    if is_mdx(source or doc_id):
        if _MDX_PARSER is None:
            _MDX_PARSER = _parser(mdx=True)
        parser = _MDX_PARSER
    else:
        if _PARSER is None:
            _PARSER = _parser()
        parser = _PARSER
    meta, fm_end, held = front_matter(text)
    blocks: list[Block] = []
    if fm_end:
        blocks.append(Block("front_matter", 0, fm_end, metadata=FRONT_MATTER_HELD[held]))
    # the parser sees the front matter blanked (same length, line breaks kept), and a
    # byte-order mark as a space (it would hide a heading on line 1): offsets agree
    body = re.sub(r"[^\r\n]", " ", text[:fm_end]) + text[fm_end:] if fm_end else text
    if body.startswith("\ufeff"):
        body = " " + body[1:]
    body = indented_blocks_as_items(body)
    lines = _Lines(body)
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    trail = HeadingTrail()

    def nested(node: Any) -> None:
        """Inside a list or a quote only tables are blocks of their own."""
        name = node.name
        if name == "table":
            if node.srcmap:
                blocks.append(_table(node, lines, trail))
        elif name in _CONTAINERS:
            for child in node.children:
                nested(child)

    def heading_block(level: int, heading: str, s: int, e: int) -> None:
        nonlocal title
        trail.push(level, heading)
        blocks.append(Block("heading", s, e, trail.path, level=level))
        if title is None and level == 1:
            title = heading

    def visit(node: Any) -> None:
        """A top-level node."""
        name = node.name
        if name == "paragraph":  # most nodes: their source map read once
            srcmap = node.srcmap
            if srcmap:
                s, e = lines.span_of(srcmap)
                if body.startswith("+", s) and (table := grid_table(body, s, e, trail.path)):
                    blocks.append(table)  # a grid table (Pandoc's, a MySQL client's)
                else:
                    blocks.append(Block("paragraph", s, e, trail.path))
            return
        if name in ("heading", "lheading") and node.srcmap:
            heading_block(int(node.meta.get("level", 1)),
                          heading_text(_NEWLINES.sub("\n", lines.inner(node).strip())), *lines.span(node))
            return
        if name == "table" and node.srcmap:
            blocks.append(_table(node, lines, trail))
            return
        if name == "list_item":  # (never at the top: a list holds it)
            for child in node.children:
                visit(child)
            return
        if name in _CONTAINERS:
            children = node.children
            if name == "blockquote" and node.srcmap:
                s, e = lines.span(node)
                blocks.append(Block("quote", s, e, trail.path))
            else:
                path = trail.path
                for child in children:
                    if child.name == "list_item" and (srcmap := child.srcmap):
                        s, e = lines.span_of(srcmap)
                        blocks.append(Block("list_item", s, e, path))
            # a table inside needs a pipe: where there is none, nothing below is looked at
            if node.srcmap and body.find("|", *lines.extent(node)) == -1:
                return
            for child in children:
                nested(child)
            return
        if node.srcmap:
            if name in ("fence", "code_block"):
                s, e = lines.span(node)
                blocks.extend(fence_blocks(body, s, e, str(node.meta.get("info", "")).strip(), trail))
            elif name == "html_block":
                s, e = lines.span(node)
                if (found := html_heading(body[s:e])) is not None:
                    heading_block(*found, s, e)
                else:
                    blocks.append(Block("html", s, e, trail.path))

    for lo, hi in segments(body, SEGMENT_CHARS):
        part = body[lo:hi]
        try:
            tree = parser.tree(part)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # a panic in the Rust parser (pyo3 raises a BaseException)
            from .markdown_py import parse_markdown as parse_slowly

            return parse_slowly(text, doc_id, source)
        lines.segment(lo, part)
        del part
        for node in tree.children:
            visit(node)
        del tree
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(anchors_to_headings(attributes_to_blocks(
                        containers_as_quotes(blocks, text), text), text)),
                    metadata=MappingProxyType(dict(meta)))


def _table(node: Any, lines: _Lines, trail: HeadingTrail) -> Block:
    rows: list[tuple[int, int]] = []
    cells: list[tuple[str, ...]] = []
    header_cells: tuple[str, ...] = ()
    for part in node.children:
        for row in part.children:
            if row.name != "trow":
                continue
            # a cell's raw content, its escaped pipes unescaped (GFM does so first)
            values = tuple(lines.inner(cell).strip().replace("\\|", "|") for cell in row.children)
            if part.name == "thead":
                header_cells = values
            elif row.srcmap:
                rows.append(lines.span(row))
                cells.append(values)
    t_start, t_end = lines.span(node)
    # the header: its line and the delimiter row under it
    first = lines.line_of(t_start)
    h_end = lines.line_end(min(first + 1, len(lines.starts) - 1))
    return table_block(t_start, t_end, (t_start, h_end), rows, header_cells, cells, trail.path,
                       fmt="markdown")


MARKDOWN = Reader(parse_markdown, (".md", ".markdown", ".mdx", ".mkd"))
