"""Shared helpers for structured readers: heading trails and table blocks."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..types import Block

#: a heading's attribute list (``{#id}``, ``{ #id .class }``: MkDocs, Docusaurus, Pandoc)
_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][^{}]*\}\s*$")
#: inline HTML that carries no words in a heading: anchors, comments, the tags of
#: HTML's phrasing elements (``<dfn title="...">conversion</dfn>`` keeps its word)
_TAG = re.compile(r"<!--.*?-->|</?(?:a|abbr|b|bdi|bdo|br|cite|code|data|del|dfn|em|font|i|img|"
                  r"ins|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|tt|u|var|wbr)\b[^<>]*>",
                  re.IGNORECASE)
#: a Markdown code span (its tags are words) or what lies between two of them
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1|[^`]+|`+", re.DOTALL)


def heading_text(raw: str) -> str:
    """A heading as the trail shows it: without its attribute list or inline HTML tags
    (an ``<a id="x"></a>`` anchor), which carry no words, outside code spans; the
    block keeps the source."""
    text = _ATTRIBUTES.sub("", raw)
    if "<" in text:
        text = "".join(part if part.startswith("`") else _TAG.sub("", part)
                       for part in (m.group(0) for m in _CODE_SPAN.finditer(text)))
    text = " ".join(text.split()) if "\n" not in text else text.strip()
    return text or raw


_MARKUP = re.compile(r"<!--.*?-->|<[A-Za-z/!][^<>]*>|\{/\*.*?\*/\}"
                     r"|\[\]\([^()\s]*\)(?:\{[^{}\n]*\})?"
                     r"|^\.\. _(?:`[^`\n]+`|[^:`\n]+):[ \t]*$|^:[A-Za-z-]+:(?:[ \t]+\d+)?[ \t]*$",
                     re.DOTALL | re.MULTILINE)


def markup_only(text: str) -> bool:
    """Whether an HTML block carries no words: only tags and comments (an anchor
    ``<a id="old-name"></a>`` kept for links, ``<!-- notes -->``, an MDX comment, an
    empty link that only carries an anchor, ``[](){#old-name}`` in MkDocs, a
    reStructuredText label, ``.. _logging:``, or a field without a value or with a
    number, ``:orphan:``, ``:tocdepth: 2``)."""
    return not _MARKUP.sub("", text).strip()


def anchors_to_headings(blocks: list[Block], text: str) -> list[Block]:
    """Markup-only blocks right before a heading (anchors for old links to it, an HTML
    comment: a paragraph or an HTML block of tags only) made part of that heading's
    block, so they start its section instead of ending the one before as a chunk of
    markup; offsets unchanged, nothing dropped."""
    out: list[Block] = []
    for block in blocks:
        if block.kind == "heading":
            start = block.start
            while (out and out[-1].kind in ("html", "paragraph") and out[-1].end <= start
                   and not text[out[-1].end:start].strip()
                   and markup_only(text[out[-1].start:out[-1].end])):
                start = out.pop().start
            if start != block.start:
                block = dataclasses.replace(block, start=start)
        out.append(block)
    return out


class HeadingTrail:
    """The stack of headings above the current position."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []
        self._path: tuple[str, ...] | None = ()

    def push(self, level: int, heading: str) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, heading))
        self._path = None

    @property
    def path(self) -> tuple[str, ...]:
        # one tuple per heading, shared by the blocks under it (not one per block)
        if self._path is None:
            self._path = tuple(h for _, h in self._stack)
        return self._path


def table_block(start: int, end: int, header: tuple[int, int] | None,
                rows: Sequence[tuple[int, int]], columns: Sequence[str],
                cells: Sequence[Sequence[str]], headings: tuple[str, ...],
                page: int | None = None, fmt: str = "markdown") -> Block:
    """A table: its span, the span of its header (repeated as context when it is
    split), each row's span, and the cell texts (for row-as-record chunks)."""
    return Block("table", start, end, headings, page=page, metadata=MappingProxyType({
        "header": header,
        "rows": tuple(rows),
        "columns": tuple(columns),
        "cells": tuple(tuple(r) for r in cells),
        "format": fmt,
    }))


def render_pipe_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(" ".join(c.split()).replace("|", "\\|") for c in cells) + " |"


class TextBuilder:
    """Accumulates extracted text and the blocks that index it (HTML, PDF)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.blocks: list[Block] = []

    def add(self, text: str) -> tuple[int, int]:
        if self.parts:
            self.parts.append("\n\n")
            self.length += 2
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start, self.length

    def add_block(self, kind: str, text: str, headings: tuple[str, ...], page: int | None = None,
                  level: int | None = None, metadata: dict[str, Any] | None = None) -> Block | None:
        text = text.strip()
        if not text:
            return None
        s, e = self.add(text)
        block = Block(kind, s, e, headings, page=page, level=level,
                      metadata=MappingProxyType(metadata or {}))
        self.blocks.append(block)
        return block

    def add_table(self, rows: Sequence[Sequence[str]], headings: tuple[str, ...],
                  page: int | None = None, metadata: dict[str, Any] | None = None,
                  has_header: bool = True) -> Block | None:
        """Render rows as a pipe table (header, delimiter, rows) and record its spans."""
        grid = [list(r) for r in rows if any(c.strip() for c in r)]
        if not grid:
            return None
        width = max(len(r) for r in grid)
        grid = [r + [""] * (width - len(r)) for r in grid]
        header = grid[0] if has_header else [f"column {i + 1}" for i in range(width)]
        body = grid[1:] if has_header else grid
        lines = [render_pipe_row(header), "|" + "---|" * width]
        lines += [render_pipe_row(r) for r in body]
        s, e = self.add("\n".join(lines))
        header_end = s + len(lines[0]) + 1 + len(lines[1])
        row_spans = []
        pos = header_end + 1
        for line in lines[2:]:
            row_spans.append((pos, pos + len(line)))
            pos += len(line) + 1
        block = table_block(s, e, (s, header_end), row_spans, [c.strip() for c in header],
                            [[c.strip() for c in r] for r in body], headings, page=page)
        if metadata:
            block = Block(block.kind, block.start, block.end, block.headings, block.page,
                          metadata=MappingProxyType({**block.metadata, **metadata}))
        self.blocks.append(block)
        return block

    @property
    def text(self) -> str:
        return "".join(self.parts)


_NL = r"(?:\r\n|\r|\n)"
_FRONT_MATTER = re.compile(rf"\A(?:\ufeff)?---[ \t]*{_NL}(.*?{_NL})?---[ \t]*(?:{_NL}|\Z)", re.S)
_KEY_VALUE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")


def front_matter(text: str) -> tuple[dict[str, str], int]:
    """YAML-style ``key: value`` front matter at the start of a Markdown text, and
    where it ends (0 when there is none): one reader for both Markdown parsers."""
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, 0
    meta = {}
    for line in (m.group(1) or "").splitlines():
        kv = _KEY_VALUE.match(line)
        if kv:
            meta[kv.group(1)] = kv.group(2).strip("\"'")
    return meta, m.end()


#: a paragraph break: two or more line breaks with only spaces between them
_PARAGRAPH_BREAK = re.compile(r"(?:\r\n?+|\n)(?:[ \t\f\v]*+(?:\r\n?+|\n))+")


#: the text blank_line_runs last scanned and what it found (the text reader and the
#: paragraph level both ask for the same document's runs, one after the other)
_LAST_RUNS: tuple[str, tuple[tuple[int, int], ...]] = ("", ())


def blank_line_runs(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of every paragraph break: from the trailing spaces of a line
    through two or more line breaks with only spaces between them. Linear; the last
    text's answer is remembered."""
    global _LAST_RUNS
    last = _LAST_RUNS  # one read: another thread may replace it
    if last[0] is text:
        return last[1]
    runs = tuple(_blank_line_runs(text))
    if len(text) <= 1 << 22:  # a larger text is not kept alive for it
        _LAST_RUNS = (text, runs)
    return runs


def _blank_line_runs(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    last_end = 0
    for m in _PARAGRAPH_BREAK.finditer(text):
        start = m.start()
        while start > last_end and text[start - 1] in " \t":
            start -= 1
        out.append((start, m.end()))
        last_end = m.end()
    return out
