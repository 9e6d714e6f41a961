"""Shared helpers for structured readers: heading trails and table blocks."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..types import Block, Document

#: template markup that carries no words, shared with the packer (``engine.wordless``):
#: Liquid's tags (Jekyll, GitBook: ``{% include toc.html %}``, ``{%- endraw -%}``) and
#: Hugo's shortcodes, on one line or several (``{{< img src="a.jpg" >}}``, ``{{% include
#: "x.md" %}}``; one never closed ends at the next ``{{``); compile with ``re.DOTALL``
TEMPLATE_TAGS = r"\{%[^\n]*?%\}|\{\{<(?:(?!\{\{).)*?>\}\}|\{\{%(?:(?!\{\{).)*?%\}\}"
#: a kramdown attribute list (Jekyll: ``{: .note }``, ``{:toc}``, ``{: #v4-4-1}``)
KRAMDOWN_ATTRIBUTES = r"\{:[^{}\n]*\}"
#: AsciiDoc's lines that render nothing: an include's tag lines (``// tag::body[]``,
#: ``// end::body[]``, in source files too; other comment lines may be a source file's
#: words) and ``////`` comment blocks, preprocessor directives
#: (``include::partial$x.adoc[]``, ``ifdef::env-github[]``, ``endif::[]``; a one-line
#: ``ifdef::x[text]`` holds text) and attribute entries whose value is one word or none
#: (``:toc: left``, ``:url-repo: https://...``, ``:sectnums!:``); compile with
#: ``re.MULTILINE | re.DOTALL``
ASCIIDOC_DIRECTIVE = (r"(?:include::[^\[\n]+\[[^\]\n]*\]|ifn?def::[^\[\n]*\[\]|ifeval::\[[^\]\n]*\]"
                      r"|endif::[^\[\n]*\[\])[ \t]*")
ASCIIDOC_MARKUP = (r"^[ \t]*//[ \t]*(?:tag|end)::[^\[\n]*\[\][ \t]*$"
                   r"|^(?P<adoc_comment>/{4,})[ \t]*$.*?^(?P=adoc_comment)[ \t]*$"
                   rf"|^{ASCIIDOC_DIRECTIVE}$"
                   r"|^:!?[A-Za-z0-9_][\w-]*!?:(?:[ \t]+\S*)?[ \t]*$")
#: DocFX's (Microsoft Learn's) lines that structure a page but render no words: a zone
#: shown for one choice of a pivot (``:::zone pivot="client-mode"`` ... ``:::zone-end``),
#: a version range (``::: moniker range=">= aspnetcore-8.0"`` ... ``::: moniker-end``),
#: rows and columns (``:::row:::``, ``:::column span="2":::``, ``:::column-end:::``),
#: an include (``[!INCLUDE [preview features callout](~/includes/preview.md)]``: the
#: text is another file's, as Hugo's ``{{% include %}}``) and a styled division
#: (``> [!div class="nextstepaction"]``); compile with ``re.MULTILINE``
_DOCFX_LINE = r"[ \t]*:::[ \t]*(?:zone|moniker|row|column)"
DOCFX_MARKUP = (rf"^{_DOCFX_LINE}(?:-end)?(?:[ \t][^\n]*?)?(?::::)?[ \t]*$"
                r"|^[ \t]*(?:>[ \t]*)?\[!(?:INCLUDE|include)[ \t]*\[[^\]\n]*\]\([^)\n]*\)\][ \t]*$"
                r"|^[ \t]*(?:>[ \t]*)?\[!div(?:[ \t][^\]\n]*)?\][ \t]*$")
#: one of them that closes what came before
DOCFX_CLOSER = re.compile(rf"^{_DOCFX_LINE}-end", re.MULTILINE)
#: one of them that opens what follows (no ``-end``)
DOCFX_OPENER = rf"{_DOCFX_LINE}(?:[ \t][^\n]*?)?(?::::)?[ \t]*"
#: where a line of :data:`ASCIIDOC_MARKUP` starting with a letter starts (a directive)
ASCIIDOC_LETTERED = ("include::", "ifdef::", "ifndef::", "ifeval::", "endif::")
#: a heading's attribute list (``{#id}``, ``{ #id .class }``: MkDocs, Docusaurus, Pandoc)
_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][^{}]*\}\s*$")
#: inline HTML that carries no words in a heading: anchors, comments, the tags of
#: HTML's phrasing elements (``<dfn title="...">conversion</dfn>`` keeps its word) and
#: of a few block ones (threadpoolctl's ``## <div id="semantics"> Semantics ... </div>``), a
#: component closed in its own tag (``## optimizeDeps.entries <NonInheritBadge />`` in
#: VitePress, ``<Since v="3.3.0" />`` in MDX: a capital first, as JSX and Vue name them),
#: an MDX comment (react.dev's heading ids, ``## Reference {/*reference*/}``)
_TAG = re.compile(r"<!--.*?-->|\{/\*.*?\*/\}|</?(?:a|abbr|b|bdi|bdo|br|cite|code|data|del|dfn|em|font|i|img|"
                  r"ins|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|tt|u|var|wbr"
                  r"|div|p|center|section|summary|details)\b[^<>]*>"
                  r"|(?-i:<[A-Z][\w.:-]*(?:\s[^<>]*)?/>)|" + TEMPLATE_TAGS,
                  re.IGNORECASE)
#: a Markdown code span (its tags are words) or what lies between two of them
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1|[^`]+|`+", re.DOTALL)


#: an HTML block that is one heading element (``<h2 style="...">Rising to the
#: challenge</h2>``, a README's ``<h1 align="center">``): a heading to Markdown's readers
_HTML_HEADING = re.compile(r"\s*<h([1-6])(?:\s[^<>]*)?>(.*?)</h\1\s*>\s*", re.IGNORECASE | re.DOTALL)
_ANY_TAG = re.compile(r"<!--.*?-->|<[^<>]*>", re.DOTALL)


def html_heading(source: str) -> tuple[int, str] | None:
    """(level, text) of an HTML block that is one ``<h1>``..``<h6>`` element with words
    in it (tags left out, entities decoded, spaces collapsed); None otherwise."""
    m = _HTML_HEADING.fullmatch(source)
    if m is None or "<h" in m.group(2).lower():
        return None
    import html

    words = " ".join(html.unescape(_ANY_TAG.sub(" ", m.group(2))).split())
    return (int(m.group(1)), words) if any(c.isalnum() for c in words) else None


#: a Markdown link or image, inline (``[text](url "title")``) or by reference
#: (``[text][ref]``, ``[text][]``): its text is what a trail shows
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"
                   r"(?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)|\[[^\[\]]*\])")


def heading_text(raw: str) -> str:
    """A heading as the trail shows it: without its attribute list or inline HTML tags
    (an ``<a id="x"></a>`` anchor) or template tags (Jekyll's Liquid, ``## Theme
    Variables {%- include docs_version_badge.html version="4.3.0" -%}``; Hugo's
    shortcodes, ``{{< new-in 0.154.0 />}}``), which carry
    no words, outside code spans, and a
    link as its text (a changelog's ``[2.4.1](https://github.com/.../compare/...)``,
    ``by [@user](https://github.com/user)``: the address is many tokens in every
    chunk's context and no words of the section); the block keeps the source."""
    text = _ATTRIBUTES.sub("", raw)
    if "<" in text or "{/*" in text or "{%" in text:
        text = "".join(part if part.startswith("`") else _TAG.sub("", part)
                       for part in (m.group(0) for m in _CODE_SPAN.finditer(text)))
        text = _ATTRIBUTES.sub("", text)  # (an attribute list after a tag left out)
    if "](" in text or "][" in text:
        # an image is no words of the section (a README's badges, ``# Thread-pool
        # Controls [![Build Status](https://...badge.svg)](https://...)``: each badge's
        # address was in every chunk's trail), unless the heading is images alone
        # (a logo: its alt text)
        bare = links_as_text(_without_images(text)) if "![" in text else ""
        text = bare if _WORD.search(bare) else links_as_text(text)
        if "](" in text or "][" in text:  # an image inside a link, now the link's text
            text = links_as_text(text)
    text = " ".join(text.split()) if "\n" not in text else text.strip()
    return text or raw


#: a Markdown image, inline or by reference (what :data:`_LINK` matches with a ``!``)
_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]"
                    r"(?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)|\[[^\[\]]*\])")
_WORD = re.compile(r"[^\W_]")


def links_as_text(text: str) -> str:
    """Links and images replaced by their text, but where one starts inside a code
    span (`` `[a](b)` `` is code, not a link)."""
    code = _code_spans(text)

    def text_of(m: re.Match[str]) -> str:
        if any(a <= m.start() < b for a, b in code):
            return m.group(0)
        return m.group(1)
    return _LINK.sub(text_of, text)


def _without_images(text: str) -> str:
    """Images left out, but where one starts inside a code span."""
    code = _code_spans(text)
    return _IMAGE.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in code) else "",
                      text)


def _code_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text) if m.group(0).startswith("`")
            and len(m.group(0)) > 1]


#: (a comment's, script's or MDX comment's end is looked for up to the next one's
#: start, no further: from every "<!--" to the end, 20,000 never closed took 8 s)
_MARKUP = re.compile(r"<!--(?:(?!<!--).)*?-->|(?i:<(script|style)\b[^<>]*>(?:(?!<(?:script|style)\b).)*?"
                     r"</\1\s*>)|<[A-Za-z/!][^<>]*>|\{/\*(?:(?!\{/\*).)*?\*/\}"
                     # MDX's ESM: imports (of components, of data) and re-exports
                     r"|^import[ \t]+(?:type[ \t]+)?(?:(?:[\w$]+[ \t]*,[ \t]*)?(?:\{[^{}]*\}|\*[ \t]*as"
                     r"[ \t]+[\w$]+)|[\w$]+)[ \t]+from[ \t]*(['\"])[^'\"\n]+\2[ \t]*;?[ \t]*$"
                     r"|^import[ \t]*(['\"])[^'\"\n]+\3[ \t]*;?[ \t]*$"
                     r"|^export[ \t]+(?:type[ \t]+)?(?:\{[^{}]*\}|\*(?:[ \t]+as[ \t]+[\w$]+)?)[ \t]+from"
                     r"[ \t]*(['\"])[^'\"\n]+\4[ \t]*;?[ \t]*$"
                     r"|\[\]\([^()\s]*\)(?:\{[^{}\n]*\})?"
                     # Jekyll: Liquid tags (``{% include toc.html %}``, ``{% endraw %}``)
                     # and kramdown's attribute lists on lines of their own; Hugo's
                     # shortcodes (``{{< img src="..." >}}``, ``{{% include "x.md" %}}``)
                     rf"|{TEMPLATE_TAGS}|^[ \t]*\{{:[^\n]*\}}[ \t]*$"
                     r"|^\.\. _(?:`[^`\n]+`|[^:`\n]+):[ \t]*$|^:[A-Za-z-]+:(?:[ \t]+\d+)?[ \t]*$"
                     r"|^\.\. (?:py:)?(?:currentmodule|module|rst-class|class|highlight|default-role"
                     r"|default-domain|include|meta|contents|sectnum|index|tabularcolumns|program)::[^\n]*$"
                     # Sphinx's domains' scope: the namespace, module or program of what follows
                     r"|^\.\. (?:(?:c|cpp):namespace(?:-push|-pop)?|js:module)::[^\n]*$"
                     r"|^\.\. (?![\[_|])(?![\w.:+-]+::)[^\n]*(?:\n[ \t]+\S[^\n]*)*$"
                     r"|^\([^()\n]+\)=[ \t]*$"
                     r"|^\.\. \|[^|\n]+\| [\w:-]+::[^\n]*$"
                     rf"|{ASCIIDOC_MARKUP}|{DOCFX_MARKUP}",
                     re.DOTALL | re.MULTILINE)


def markup_only(text: str) -> bool:
    """Whether an HTML block carries no words: only tags and comments (an anchor
    ``<a id="old-name"></a>`` kept for links, ``<!-- notes -->``, an MDX comment, an
    empty link that only carries an anchor, ``[](){#old-name}`` in MkDocs, a
    reStructuredText label, ``.. _logging:``, or a field without a value or with a
    number, ``:orphan:``, ``:tocdepth: 2``, or a directive that only sets something
    up, ``.. currentmodule:: flask``, ``.. include:: ../CHANGES.rst``, ``.. program::
    sphinx-build`` (the program whose ``.. option::`` entries follow), or a one-line
    comment, ``.. cmake-manual-description: CMake Buildsystem Reference`` (or one of
    lines indented under it: sphinx-quickstart's above every ``index.rst``), or a
    substitution's definition, ``.. |ASN.1| replace:: BMPString``, or a MyST
    target, ``(repeatability)=``, which Sphinx sites written in Markdown put above a
    heading, or Jekyll's markup: a Liquid tag, ``{% include toc.html %}``, a
    kramdown attribute list, ``{: .warning }``, or its table of contents' place,
    ``* TOC`` over ``{:toc}``, or AsciiDoc's comments, directives and attribute
    entries, :data:`ASCIIDOC_MARKUP`)."""
    return markup_between(text, 0, len(text))


def markup_between(text: str, start: int, end: int) -> bool:
    """:func:`markup_only` of ``text[start:end]``, without copying what is no markup."""
    first = _NON_SPACE.search(text, start, end)
    if first is None:
        return True
    c = first.group()
    if c not in "<{[.:(/":  # (where every kind of markup above starts, but three)
        if c in "ie":  # an MDX import or export, an AsciiDoc directive
            if not _ESM_START.match(text, first.start(), end) and \
                    not text.startswith(ASCIIDOC_LETTERED, first.start(), end):
                return False
        else:  # a list: the TOC's place
            return c in "*+-0123456789" and _TOC.fullmatch(text, start, end) is not None
    return not _MARKUP.sub("", text[start:end]).strip()


_NON_SPACE = re.compile(r"\S")
#: where kramdown writes a page's table of contents: a list of one item, ``TOC``,
#: with the attribute list ``{:toc}`` (just-the-docs' pages open with one)
_TOC = re.compile(r"\s*(?:[*+-]|\d+[.)])[ \t]+TOC[ \t]*\n[ \t]*\{:[ \t]*toc[ \t]*\}\s*")
#: a paragraph of kramdown block attribute lists only (``{: .no_toc }``,
#: ``{: #v4-4-1}``, ``{:.warning}``): they belong to the block they touch
_BLOCK_ATTRIBUTES = re.compile(rf"(?:[ \t]*{KRAMDOWN_ATTRIBUTES}[ \t]*(?:\n|$))+")


def attributes_to_blocks(blocks: list[Block], text: str) -> list[Block]:
    """Kramdown's markup that renders no text of its own made part of the block it
    belongs to (Jekyll's sites, GitHub Pages): a block attribute list on the line
    right after a block (``## 4.4.1 / 2025-01-29`` over ``{: #v4-4-1}`` in Jekyll's
    own changelog, ``# Buttons`` over ``{: .no_toc }``) is that block's, and so is
    the table of contents' place (``1. TOC`` over ``{:toc}``) right after a heading:
    a heading and its attributes were a chunk of their own, each one of Jekyll's 100
    releases, and a page's "Table of contents" heading over the placeholder was
    another. Offsets unchanged, nothing dropped; an attribute list before a block (a
    callout's ``{: .note }`` over its quote) is markup before it, as an anchor is."""
    out: list[Block] = []
    for block in blocks:
        prev = out[-1] if out else None
        if prev is not None and prev.kind != "front_matter" and prev.end <= block.start and (
                (block.kind == "paragraph" and _BLOCK_ATTRIBUTES.fullmatch(text, block.start, block.end)
                 and text.count("\n", prev.end, block.start) <= 1)
                or (block.kind == "list_item" and prev.kind == "heading"
                    and _TOC.fullmatch(text, block.start, block.end))) \
                and not text[prev.end:block.start].strip():
            out[-1] = dataclasses.replace(prev, end=block.end)
            continue
        out.append(block)
    return out

_ESM_START = re.compile(r"(?:import|export)[\s{*'\"]")


#: the blocks markup-only blocks before them become part of
_ANCHORED = frozenset(("heading", "list_item", "quote"))


def anchors_to_headings(blocks: list[Block], text: str) -> list[Block]:
    """Markup-only blocks right before a heading (anchors for old links to it, an HTML
    comment: a paragraph or an HTML block of tags only) made part of that heading's
    block, so they start its section instead of ending the one before as a chunk of
    markup; so too before a list item or a quote (an admonition with an anchor above
    it, ``[](){#id}``, too long for one chunk: the anchor alone was one); offsets
    unchanged, nothing dropped. A block that closes something (DocFX's ``:::zone-end``)
    stays with the text before it."""
    out: list[Block] = []
    for block in blocks:
        if block.kind in _ANCHORED:
            start = block.start
            while (out and out[-1].kind in ("html", "paragraph") and out[-1].end <= start
                   and not text[out[-1].end:start].strip()
                   and markup_only(text[out[-1].start:out[-1].end])
                   and not DOCFX_CLOSER.search(text, out[-1].start, out[-1].end)):
                start = out.pop().start
            if start != block.start:
                block = dataclasses.replace(block, start=start)
        out.append(block)
    return out


def stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without the whitespace at either end (empty: start == end)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


#: the object types Sphinx describes, in any domain (``py:function``, ``c:macro``,
#: ``std:confval``, ``rst:directive:option``): a reStructuredText directive or a MyST
#: fence of one is a heading over its description
OBJECT_TYPES = (r"(?:[a-z]+:){0,2}(?:function|class|method|attribute|data|exception|decorator|"
                r"decoratormethod|classmethod|staticmethod|property|type|member|macro|var|"
                r"struct|union|enum|enumerator|directive|role|option|confval|envvar|describe|"
                r"object|event|get|post|put|patch|delete)")
#: a MyST directive's fence info, ``{note}`` or ``{py:function} connect(host)``
_MYST_INFO = re.compile(r"\{([A-Za-z][\w:.-]*)\}[ \t]*(.*)")
_MYST_OBJECT = re.compile(OBJECT_TYPES)
#: MyST directives whose content is text (docutils' and Sphinx's admonitions and
#: version notes, topics and sidebars, sphinx-design's dropdowns, cards and tabs,
#: sphinx-exercise's): a fence of any other (``{code-block}``, ``{math}``, Quarto's
#: and R Markdown's ``{r}`` and ``{python}`` chunks) stays code
MYST_PROSE = frozenset({
    "note", "warning", "tip", "important", "hint", "caution", "attention", "danger", "error",
    "admonition", "seealso", "versionadded", "versionchanged", "versionremoved", "deprecated",
    "todo", "topic", "sidebar", "margin", "epigraph", "pull-quote", "highlights", "rubric",
    "glossary", "dropdown", "card", "tab-item", "tab-set", "grid-item-card", "exercise",
    "solution", "centered", "only"})


def fence_blocks(text: str, s: int, e: int, info: str, trail: HeadingTrail) -> list[Block]:
    """The blocks of a fenced block ``text[s:e]`` with this info string: code, but a
    MyST directive's fence (Sphinx sites and Jupyter Books written in Markdown) of an
    object's description (``{py:function} connect(host)``) is a heading of its first
    line, its signature in the trail, over a paragraph of its body (the trail closed
    after it), and one of text (:data:`MYST_PROSE`: ``{note}``, ``{warning}``,
    ``{dropdown}``) is a paragraph: text, not code (the language ``{note}``)."""
    m = _MYST_INFO.match(info)
    first_end = text.find("\n", s, e)
    if m is not None and _MYST_OBJECT.fullmatch(m.group(1)) and m.group(2).strip() \
            and first_end != -1:
        level = trail.level + 1
        trail.push(level, m.group(2).strip())
        out = [Block("heading", s, first_end, trail.path, level=level)]
        body = _NON_SPACE.search(text, first_end, e)
        if body is not None:
            out.append(Block("paragraph", body.start(), e, trail.path))
        trail.end_at(level)
        return out
    if m is not None and m.group(1) in MYST_PROSE:
        return [Block("paragraph", s, e, trail.path)]
    return [Block("code", s, e, trail.path, metadata=MappingProxyType({"language": info}))]


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

    def end_at(self, level: int) -> None:
        """Close every heading of ``level`` or deeper (a slide without a title ends the
        one before's)."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
            self._path = None

    @property
    def level(self) -> int:
        """The innermost heading's level (0 above every heading)."""
        return self._stack[-1][0] if self._stack else 0

    @property
    def path(self) -> tuple[str, ...]:
        # one tuple per heading, shared by the blocks under it (not one per block)
        if self._path is None:
            self._path = tuple(h for _, h in self._stack)
        return self._path


def joined_documents(parts: Sequence[Document]) -> tuple[str, tuple[Block, ...]]:
    """The text and blocks of documents read one after another as one (an EPUB's
    chapters, a saved frameset's pages): their texts a blank line apart, each one's
    blocks moved to where it starts (a table's header and row spans with them)."""
    texts: list[str] = []
    blocks: list[Block] = []
    offset = 0
    for doc in parts:
        if texts:
            offset += 2
        blocks.extend(_shifted(b, offset) for b in doc.blocks)
        texts.append(doc.text)
        offset += len(doc.text)
    return "\n\n".join(texts), tuple(blocks)


def _shifted(block: Block, offset: int) -> Block:
    meta = block.metadata
    if block.kind == "table" and "rows" in meta:
        header = meta.get("header")
        meta = MappingProxyType({
            **meta, "header": (header[0] + offset, header[1] + offset) if header else header,
            "rows": tuple((s + offset, e + offset) for s, e in meta["rows"])})
    return dataclasses.replace(block, start=block.start + offset, end=block.end + offset,
                               metadata=meta)


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
        """Render rows as a pipe table (header, delimiter, rows) and record its spans. A
        table without a header row (gtk-doc's parameter tables, a layout's key-value
        rows) is its rows alone: no header is made up for it (``| column 1 | column 2
        |`` was 227 of 1,811 chunks' first line in libxslt's API reference, and every
        split part's context)."""
        grid = [list(r) for r in rows if any(c.strip() for c in r)]
        if not grid:
            return None
        width = max(len(r) for r in grid)
        grid = [r + [""] * (width - len(r)) for r in grid]
        header = grid[0] if has_header else []
        body = grid[1:] if has_header else grid
        lines = [render_pipe_row(header), "|" + "---|" * width] if has_header else []
        lines += [render_pipe_row(r) for r in body]
        s, e = self.add("\n".join(lines))
        header_span = (s, s + len(lines[0]) + 1 + len(lines[1])) if has_header else None
        row_spans = []
        pos = header_span[1] + 1 if header_span else s
        for line in lines[2 if has_header else 0:]:
            row_spans.append((pos, pos + len(line)))
            pos += len(line) + 1
        block = table_block(s, e, header_span, row_spans, [c.strip() for c in header],
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
#: YAML front matter between ``---`` lines (Jekyll, Hugo, MkDocs, Docusaurus) and
#: TOML front matter between ``+++`` lines (Hugo)
_FRONT_MATTER = re.compile(rf"\A(?:\ufeff)?---[ \t]*{_NL}(.*?{_NL})?---[ \t]*(?:{_NL}|\Z)", re.S)
_TOML_FRONT_MATTER = re.compile(rf"\A(?:\ufeff)?\+\+\+[ \t]*{_NL}(.*?{_NL})?\+\+\+[ \t]*(?:{_NL}|\Z)",
                                re.S)
_KEY_VALUE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")
#: a front-matter block's metadata: ``held`` when the document's metadata holds all of
#: it (then it forms no chunk: every chunk carries it in ``metadata["doc"]``)
FRONT_MATTER_HELD = {held: MappingProxyType({"held": held}) for held in (False, True)}
#: the most values (and nesting) front matter may hold to be read as metadata: YAML's
#: aliases can name one list many times over (a "billion laughs" would never end)
_FRONT_MATTER_VALUES = 10_000
_FRONT_MATTER_DEPTH = 32


def front_matter(text: str) -> tuple[dict[str, Any], int, bool]:
    """The front matter at the start of a Markdown text as metadata, where it ends (0
    when there is none), and whether the metadata holds all of it: YAML (``---``) or
    TOML (``+++``) that parses as a mapping, every scalar as text (YAML's as written:
    ``3``, ``1.10``, ``2022-04-06``, ``true``), lists and mappings kept as such. YAML
    that does not parse (or is no mapping) is read a line at a time (``key: value``)
    and is not all held. One reader for both Markdown parsers."""
    toml = False
    m = _FRONT_MATTER.match(text)
    if not m:
        m = _TOML_FRONT_MATTER.match(text)
        if not m:
            return _pandoc_title_block(text)
        toml = True
    body = m.group(1) or ""
    parsed = _parsed_front_matter(body, toml)
    if parsed is not None:
        return parsed, m.end(), True
    if toml:  # not TOML after all: text like any other
        return {}, 0, False
    meta = {}
    for line in body.splitlines():
        kv = _KEY_VALUE.match(line)
        if kv:
            meta[kv.group(1)] = kv.group(2).strip("\"'")
    return meta, m.end(), False


#: Pandoc's title block: the first lines ``% Title``, ``% Author; Author``, ``% Date``
#: (Rust's release notes open with ``% Rust Release Notes``: a chunk of its own,
#: without a trail)
_PANDOC_TITLE = re.compile(r"%[ \t]+(?P<title>\S[^\r\n]*)\r?\n(?:%[ \t]*(?P<author>[^\r\n]*)\r?\n)?"
                           r"(?:%[ \t]*(?P<date>[^\r\n]*)\r?\n)?")


def _pandoc_title_block(text: str) -> tuple[dict[str, Any], int, bool]:
    """Pandoc's title block as front matter, all of it held (its title, authors and
    date are the document's metadata), or none."""
    m = _PANDOC_TITLE.match(text)
    if m is None:
        return {}, 0, False
    meta = {key: value.strip() for key, value in m.groupdict().items() if value and value.strip()}
    return meta, m.end(), True


def _parsed_front_matter(body: str, toml: bool) -> dict[str, Any] | None:
    """``body`` as a mapping of plain values, or None when it is no mapping (or too
    many values, or nested too deep, to be metadata)."""
    data: Any
    if toml:
        import tomllib

        try:
            data = tomllib.loads(body)
        except (tomllib.TOMLDecodeError, RecursionError):
            return None
    else:
        import yaml

        try:
            # the base loader resolves no types: every scalar stays text as written
            # (``1.10`` is no float 1.1, ``2022-04-06`` no date)
            data = yaml.load(body, Loader=getattr(yaml, "CBaseLoader", yaml.BaseLoader)) \
                if body.strip() else {}
        except (yaml.YAMLError, RecursionError):
            return None
    if not isinstance(data, dict):
        return None
    budget = [_FRONT_MATTER_VALUES]
    try:
        plain = _plain(data, budget, 0)
    except _TooMuch:
        return None
    assert isinstance(plain, dict)
    return plain


class _TooMuch(Exception):
    pass


def _plain(value: Any, budget: list[int], depth: int) -> Any:
    """A parsed front-matter value as JSON-ready metadata: text for every scalar."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _FRONT_MATTER_DEPTH:
        raise _TooMuch
    if isinstance(value, dict):
        return {str(k): _plain(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, budget, depth + 1) for v in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if hasattr(value, "isoformat"):  # dates and times
        return str(value.isoformat())
    return str(value)


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


#: a line opening a Python-Markdown / MkDocs Material block whose body is indented
#: four spaces under it: an admonition (``!!! note "Title"``), a collapsible one
#: (``??? tip``, ``???+ tip``), a content tab (``=== "Python 3.10+"``)
_INDENTED_BLOCK = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?|===\+?)[ \t]+\S.*$", re.MULTILINE)
_FENCE_LINE = re.compile(r"[ \t]*(`{3,}|~{3,})")
#: such a line's marker, wherever it is on its line
_MARKER = re.compile(r"(?:!!!|\?\?\?|===)\+?[ \t]+\S")


def indented_blocks_as_items(body: str) -> str:
    """``body`` as Markdown's parser should see it where admonitions and content tabs
    hold their text indented under an opening line (CommonMark would read that text as
    indented code): each such opening line, outside fenced code and followed by a line
    indented four more columns, replaced by a list item's first line of the same length
    (``- xxxx``), so the indented body is read as the item's blocks (its paragraphs,
    fences, tables, nested blocks), and the admonition is one block. Offsets and line
    breaks are unchanged; the text itself is never rewritten, only what is parsed."""
    if not any(body[body.rfind("\n", 0, m.start()) + 1:m.start()].strip(" \t") == ""
               for m in _MARKER.finditer(body)):  # (faster than the line pattern's search)
        return body
    lines = body.split("\n")
    fence: str | None = None
    for i, line in enumerate(lines):
        f = _FENCE_LINE.match(line)
        if fence is not None:
            if f and closes_fence(fence, f.group(1), line[f.end():]):
                fence = None
            continue
        if f:
            fence = f.group(1)
            continue
        m = _INDENTED_BLOCK.match(line)
        if m is None:
            continue
        indent = _columns(m.group(1))
        body_line = next((nxt for nxt in lines[i + 1:] if nxt.strip()), "")
        if _columns(body_line[:len(body_line) - len(body_line.lstrip())]) < indent + 4:
            continue
        end = len(line.rstrip("\r"))
        lines[i] = m.group(1) + "- " + "x" * (end - len(m.group(1)) - 2) + line[end:]
    return "\n".join(lines)


def closes_fence(opening: str, marker: str, rest: str) -> bool:
    """Whether a fence line of ``marker`` (````` ``` `````, ``~~~~``) followed by ``rest``
    closes the code block ``opening`` opened: the same character, as many or more,
    nothing after it."""
    return marker[0] == opening[0] and len(marker) >= len(opening) and not rest.strip()


#: a Markdown code fence's line, in a block quote or a list item too
_QUOTED_FENCE_LINE = re.compile(r"^[ \t>]*(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)


def fenced_spans(text: str, hi: int) -> list[tuple[int, int]]:
    """The spans of the fenced code blocks of ``text`` that open before ``hi`` (one
    never closed runs to the end)."""
    out: list[tuple[int, int]] = []
    opened: re.Match[str] | None = None
    for m in _QUOTED_FENCE_LINE.finditer(text):
        if opened is None:
            if m.start() >= hi:
                break
            opened = m
        elif closes_fence(opened.group(1), m.group(1), m.group(2)):
            out.append((opened.start(), m.end()))
            opened = None
    if opened is not None:
        out.append((opened.start(), len(text)))
    return out


def _columns(indent: str) -> int:
    """The width of leading blanks, a tab to the next multiple of four."""
    col = 0
    for c in indent:
        col = col + 4 - col % 4 if c == "\t" else col + 1
    return col


#: a container's first line: an admonition of Docusaurus, VitePress or Starlight
#: (``:::note``, ``::: warning Title``, ``:::tip[Did you know?]``) or of Python-Markdown's
#: blocks (FastAPI's docs: ``/// tip | Title``, ``//// tab | Python 3.10+``), and its last
#: (``:::``, ``///``: the same characters, as many)
_CONTAINER_OPEN = re.compile(r" {0,3}(:{3,}|/{3,})[ \t]*[A-Za-z][^\n]*")
_CONTAINER_CLOSE = re.compile(r" {0,3}(:{3,}|/{3,})[ \t]*")
#: a Hugo shortcode alone on its line, opening (``{{< note >}}``, ``{{% tab name="kn" %}}``,
#: kind's ``{{< codeFromInline lang="bash" >}}``) and closing (``{{< /note >}}``); one
#: that is never closed (``{{< codeFromFile file="..." >}}``) stands alone
_SHORTCODE_OPEN = re.compile(r" {0,3}\{\{(?:<[ \t]*([A-Za-z][\w-]*)(?:[ \t][^\n]*?)?>|%[ \t]*([A-Za-z][\w-]*)"
                             r"(?:[ \t][^\n]*?)?%)\}\}[ \t]*(?:\n|\Z)")
_SHORTCODE_CLOSE = re.compile(r" {0,3}\{\{(?:<[ \t]*/[ \t]*([A-Za-z][\w-]*)[ \t]*>|%[ \t]*/[ \t]*"
                              r"([A-Za-z][\w-]*)[ \t]*%)\}\}[ \t]*")


#: a line that may open a container (blocks start at line starts)
_ANY_OPENING = re.compile(r"^ {0,3}(?::::|///|\{\{[<%])", re.MULTILINE)


def _opening(text: str, at: int) -> str | None:
    """What closes the container whose first line starts at ``at`` (``:::``, ``////``,
    ``/note`` for a shortcode), or None when no container opens there."""
    m = _CONTAINER_OPEN.match(text, at)
    if m is not None:
        return m.group(1)
    m = _SHORTCODE_OPEN.match(text, at)
    return "/" + (m.group(1) or m.group(2)) if m is not None else None


def _closing(text: str, start: int, end: int) -> str | None:
    """What ``text[start:end]``, a block's last line, closes (as :func:`_opening`)."""
    m = _CONTAINER_CLOSE.fullmatch(text, start, end)
    if m is not None:
        return m.group(1)
    m = _SHORTCODE_CLOSE.fullmatch(text, start, end)
    return "/" + (m.group(1) or m.group(2)) if m is not None else None


def containers_as_quotes(blocks: list[Block], text: str) -> list[Block]:
    """Admonitions written as containers (``:::info`` ... ``:::``, ``/// tip`` ...
    ``///``), whose lines CommonMark reads as paragraphs: each one made a block of its
    own (kind ``quote``, as a block quote is), from the block its opening line starts
    to the one its closing line (the same characters, as many) ends, so a cut neither
    leaves the opening line at the end of a chunk and its text in the next (10 chunks
    of Prettier's docs ended with ``:::note``, 41 of FastAPI's with ``/// tip | ...``)
    nor opens one with the closing line. Only containers made of whole top-level
    blocks without a heading among them; the tables inside stay blocks too (as in a
    quote)."""
    if (":::" not in text and "///" not in text and "{{" not in text) \
            or _ANY_OPENING.search(text) is None:  # ("{{" is in templates, "///" in
        return blocks  # Rust's doc comments: only a line opening with one may open)
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        opened = _opening(text, block.start) if block.kind in ("paragraph", "html") else None
        end = _container_end(blocks, i, text, opened) if opened else None
        if end is None:
            out.append(block)
            i += 1
            continue
        inner = blocks[i:end + 1]
        out.append(Block("quote", block.start, blocks[end].end, block.headings, block.page))
        out.extend(b for b in inner if b.kind == "table")
        i = end + 1
    return out


def is_mdx(name: str | None) -> bool:
    """Whether a document named so is MDX (``.mdx``), where indenting is JSX's nesting,
    not a code block: MDX reads no indented code (its ``<Step>``'s text, indented eight
    columns in Mintlify's pages, was code)."""
    return bool(name) and str(name).lower().endswith(".mdx")


def _container_end(blocks: list[Block], first: int, text: str, marker: str) -> int | None:
    """The index of the block whose last line closes the container opened by
    ``blocks[first]`` with ``marker`` (``:::``, ``////``); None when none does before a
    heading."""
    for j in range(first, len(blocks)):
        b = blocks[j]
        if b.kind == "heading":
            return None
        if b.kind == "table":
            continue
        last = text.rfind("\n", b.start, b.end) + 1  # where the block's last line starts
        if j == first and last == 0 or j == first and last <= b.start:
            continue  # (the opening line itself)
        if _closing(text, max(last, b.start), b.end) == marker:
            return j
    return None
