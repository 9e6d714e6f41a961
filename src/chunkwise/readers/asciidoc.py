"""AsciiDoc (``.adoc``, ``.asciidoc``): section titles (``== Section``, a level per
``=``, and the older two-line form, a title over a rule of its length), delimited
blocks (``----`` listings, ``....`` literals and ```` ``` ```` fences as code, the
language from a ``[source,java]`` line above; inside any delimited block, nothing is
a title), paragraphs. Offsets into the file. Read as plain text, ``== Install`` was
a paragraph and a listing's lines could end one chunk and start the next.

The document header (the document title, with nothing above it but lines that
render nothing, see below, and its author line, revision line and attribute entries,
up to a blank line) is
front matter the document's metadata holds, as Markdown's is: ``title``, ``author``,
``revision`` and each entry by name; chunks start after it and every trail starts
with the title. Elsewhere, what Asciidoctor renders nothing of is no paragraph:
comment lines and ``////`` comment blocks, attribute entries (``:url-repo:
https://...``) and preprocessor directives (``include::partial$x.adoc[]``,
``ifdef::env-github[]``, ``endif::[]``); where such lines touch a title (an include
file's ``// tag::title[]`` above it) they are part of its block. A title's attribute
references (``{product} Setup``) are replaced in the trail by the values defined
above them (the document title's by the header's)."""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType

from ..types import Block, Document
from .reader import Reader
from .structure import ASCIIDOC_DIRECTIVE, FRONT_MATTER_HELD, HeadingTrail, stripped, table_block

_TITLE = re.compile(r"\ufeff?(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")  # (a byte-order mark first)
#: a delimited block's fence: its closing line is the same
_DELIMITER = re.compile(r"(?:-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|`{3}|\|={3,})[ \t]*")
_CODE_FENCES = ("-", ".", "`")
#: block attributes, an anchor, a block title: lines that open the block after them
_ATTRIBUTES = re.compile(r"\[\[[^\]\n]*\]\]|\[[^\]\n]*\]|\.[^\s.][^\n]*")
_SOURCE = re.compile(r"\[(?:source|listing)?,\s*([\w+#.-]+)")
#: the two-line title's rule characters, level by character (Asciidoctor's table)
_UNDERLINE = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
#: an attribute entry on a line of its own (``:toc: left``, ``:sectnums!:``,
#: ``:!sectnums:``); a value ending in `` \`` goes on on the next line
_ENTRY = re.compile(r":(!?)([A-Za-z0-9_][\w-]*)(!?):(?:[ \t]+(.*?))?[ \t]*")
#: a preprocessor directive on a line of its own: an include, a condition's lines
#: (``ifdef::env-github[]``, ``ifeval::[{x} > 1]``, ``endif::[]``; a one-line
#: ``ifdef::x[text]`` holds text, so is none)
_DIRECTIVE = re.compile(ASCIIDOC_DIRECTIVE)
#: an attribute reference (``{url-repo}``; ``\{x}`` is escaped)
_REFERENCE = re.compile(r"(\\)?\{([A-Za-z0-9_][\w-]*)\}")
#: Asciidoctor's character replacement attributes (its documentation's table)
_INTRINSIC = MappingProxyType({
    "empty": "", "blank": "", "sp": " ", "nbsp": "\u00a0", "zwsp": "\u200b", "wj": "\u2060",
    "apos": "'", "quot": '"', "lsquo": "\u2018", "rsquo": "\u2019", "ldquo": "\u201c",
    "rdquo": "\u201d", "deg": "\u00b0", "plus": "+", "brvbar": "\u00a6", "vbar": "|",
    "amp": "&", "lt": "<", "gt": ">", "startsb": "[", "endsb": "]", "caret": "^",
    "asterisk": "*", "tilde": "~", "backslash": "\\", "backtick": "`", "two-colons": "::",
    "two-semicolons": ";;", "cpp": "C++", "pp": "++"})


def parse_asciidoc(text: str, doc_id: str, source: str | None = None) -> Document:
    reader = _Reader(text)
    pos = 0
    for raw in text.splitlines(keepends=True):
        start, pos = pos, pos + len(raw)
        reader.line(raw.rstrip("\r\n"), start, pos)
    blocks, title, metadata = reader.finish()
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(blocks), metadata=metadata)


class _Reader:
    """One pass over the lines: the blocks, the trail, the attribute entries."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: list[Block] = []
        self.trail = HeadingTrail()
        self.title: str | None = None
        self.para: list[tuple[int, int]] = []  # the open paragraph's lines (start, end)
        self.fence: tuple[str, int, str] | None = None  # the open block: its line, start, language
        self.attrs: dict[str, str] = {}  # the attribute entries so far, by name (lower case)
        self.header: dict[str, str] = {}  # the document header's: the document's metadata
        self.in_header = False  # right after the document title, before a blank line
        self.header_end = 0  # where the document header (title, byline, entries) ends
        self.raw_title = ""  # the document title as written, and where its block starts
        self.title_start = 0
        self.byline = 0  # the header's author and revision lines read
        self.attach = False  # the last block is a title that lines rendering nothing still join
        self.markup: tuple[int, int] | None = None  # the last run of such lines: start, next line's
        self.entry: list[str] | None = None  # an entry whose value goes on: name, value

    def line(self, line: str, start: int, pos: int) -> None:
        """One line (without its break) at ``start``; the next starts at ``pos``."""
        end = start + len(line)
        stripped = line.strip()
        if self.fence is not None:
            if stripped == self.fence[0]:
                if self.fence[0][0] == "/":  # a comment block
                    self.nothing_rendered(self.fence[1], end, pos)
                else:
                    self.blocks.append(_delimited(self.text, self.fence, end, self.trail.path))
                self.fence = None
        elif self.entry is not None:  # an attribute entry's value, going on
            self.entry[1] += " " + stripped.removesuffix("\\").strip()
            self.define(self.entry[0], self.entry[1])
            self.nothing_rendered(start, end, pos)
            self.entry = self.entry if stripped.endswith("\\") else None
        elif not stripped:
            self.close_para()
            self.attach = False
            if self.in_header:
                self.end_header()
        elif (stripped.startswith("//") and not stripped.startswith("////")) or _DIRECTIVE.fullmatch(line):
            # a comment line ("// tag::quick[]") or a directive: no paragraph's, nor a break
            if not self.para:
                self.nothing_rendered(start, end, pos)
        elif (not self.para or self.in_header) and (m := _ENTRY.fullmatch(line)):
            self.close_para()  # (a header's author or revision line)
            value = (m.group(4) or "").removesuffix("\\").strip()
            unset = bool(m.group(1) or m.group(3))
            self.define(m.group(2), None if unset else value)
            self.nothing_rendered(start, end, pos)
            if not unset and (m.group(4) or "").endswith("\\"):
                self.entry = [m.group(2), value]
        elif self.in_header and self.byline < 2 and not (
                _DELIMITER.fullmatch(line) or _TITLE.fullmatch(line) or _ATTRIBUTES.fullmatch(stripped)):
            self.header.setdefault(("author", "revision")[self.byline], stripped)
            self.byline += 1
            self.header_end = end
        else:
            if self.in_header:
                self.end_header()
            self.attach = False
            self.content(line, stripped, start, end)

    def content(self, line: str, stripped: str, start: int, end: int) -> None:
        """A line of text, a title, or a delimiter."""
        para, text = self.para, self.text
        if _DELIMITER.fullmatch(line):
            level = _two_line_level(text, para, stripped)
            if level is not None:  # the two-line form
                self.heading(level, text[para[0][0]:para[0][1]].strip(), para[0][0], end)
                return
            opening, language = _attributes(text, para)
            if opening is None:
                self.close_para()
            para.clear()
            self.fence = (stripped, start if opening is None else opening, language)
            return
        m = _TITLE.fullmatch(line)
        # a title may follow its anchor and attributes (``[#debug]``, ``[[install]]``,
        # ``[appendix]``): they open its block (64 of the 472 titles of Asciidoctor's
        # own docs were paragraph lines)
        if m is not None and (not para or _attributes(text, para)[0] is not None):
            self.heading(len(m.group(1)), m.group(2), para[0][0] if para else start, end)
            return
        para.append((start, end))

    def close_para(self) -> None:
        if self.para:
            self.blocks.append(Block("paragraph", self.para[0][0], self.para[-1][1], self.trail.path))
            self.para.clear()

    def heading(self, level: int, name: str, s: int, e: int) -> None:
        if self.markup is not None and self.markup[1] == s:  # lines rendering nothing right above it
            s = self.markup[0]
        if level == 1 and not self.blocks and self.title is None:
            # the document title, nothing but lines rendering nothing above it: the
            # header (what follows it up to a blank line) is the document's front matter
            self.in_header, self.raw_title, self.header_end = True, name, e
            self.title_start = s
            self.title = _substitute(name, self.attrs)
            self.trail.push(1, self.title)
            self.para.clear()
            return
        name = _substitute(name, self.attrs)
        self.trail.push(level, name)
        self.blocks.append(Block("heading", s, e, self.trail.path, level=level))
        self.title = self.title or (name if level == 1 else None)
        self.attach = True
        self.para.clear()

    def nothing_rendered(self, s: int, e: int, nxt: int) -> None:
        """Lines ``s``..``e`` render nothing (``nxt``: where the next line starts):
        part of the title just above them, or a run that a title just below takes."""
        if self.in_header:
            self.header_end = e
            self.byline = 2  # (an author or revision line comes before any entry)
        elif self.attach and self.blocks and self.blocks[-1].kind == "heading":
            self.blocks[-1] = dataclasses.replace(self.blocks[-1], end=e)
            self.markup = None
        else:
            run = self.markup
            self.markup = (run[0] if run is not None and run[1] == s else s, nxt)

    def define(self, name: str, value: str | None) -> None:
        """An attribute entry: ``name`` set to ``value`` (None: unset), in the document's
        metadata too where it is one of the header's."""
        key = name.lower()
        header = self.in_header or not self.blocks
        for into in (self.attrs, self.header) if header else (self.attrs,):
            if value is None:
                into.pop(key, None)
            else:
                into[key] = value

    def end_header(self) -> None:
        """The header read: it is the first block, held as the document's metadata
        (every chunk carries it; chunks start after it), and the document title's
        references are replaced by the header's values."""
        self.in_header = False
        self.title = _substitute(self.raw_title, self.attrs)
        self.trail.push(1, self.title)
        self.blocks.append(Block("front_matter", 0, self.header_end, metadata=FRONT_MATTER_HELD[True]))

    def finish(self) -> tuple[list[Block], str | None, dict[str, str]]:
        self.close_para()
        if self.in_header:
            self.end_header()
        if self.blocks and self.blocks[0].kind == "front_matter" and self.title:
            self.header.setdefault("title", self.title)  # (what the held header holds)
        if len(self.blocks) == 1 and self.blocks[0].kind == "front_matter":  # a header alone
            self.blocks[0] = Block("heading", self.title_start, self.header_end, self.trail.path, level=1)
        fence, text = self.fence, self.text
        if fence is not None and len(text.rstrip()) > fence[1] and fence[0][0] != "/":
            self.blocks.append(_delimited(text, fence, len(text.rstrip()), self.trail.path))  # never closed
        metadata = {**{k: v for k, v in self.header.items() if k != "format"}, "format": "asciidoc"}
        return self.blocks, self.title, metadata


#: an inline anchor in a title (``=== [[current]][[latest]]Version 4.9``,
#: ``anchor:install[]``): no words of it
_INLINE_ANCHOR = re.compile(r"\[\[[^\[\]\n]*\]\]|\banchor:[^\s\[]+\[[^\]\n]*\]")


def _substitute(title: str, attrs: dict[str, str]) -> str:
    """A title as a trail shows it: its inline anchors left out, its attribute
    references replaced by their values (defined ones and Asciidoctor's character
    replacements; others left as written, as Asciidoctor leaves them)."""
    if "[" in title:
        title = " ".join(_INLINE_ANCHOR.sub(" ", title).split()) or title
    if "{" not in title:
        return title

    def value(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(0)[1:]
        name = m.group(2).lower()
        found = attrs.get(name, _INTRINSIC.get(name))
        return m.group(0) if found is None else found
    return " ".join(_REFERENCE.sub(value, title).split()) or title


def _two_line_level(text: str, para: list[tuple[int, int]], rule: str) -> int | None:
    """The level of a title in the older two-line form (one line over a rule of about
    its length), None when the paragraph and the rule are none (``[TIP]`` over
    ``====`` opens an example block: attributes are no title)."""
    level = _UNDERLINE.get(rule[0])
    above = text[para[0][0]:para[0][1]].strip() if len(para) == 1 else ""
    if not above or level is None or abs(len(rule) - len(above)) > 2 or _ATTRIBUTES.fullmatch(above):
        return None
    return level


def _attributes(text: str, para: list[tuple[int, int]]) -> tuple[int | None, str]:
    """Where lines of block attributes and a block title before a delimiter start
    (they open its block; None: the lines before are a paragraph) and the language
    a ``[source,java]`` among them names."""
    if not para or not all(_ATTRIBUTES.fullmatch(text[s:e].strip()) for s, e in para):
        return None, ""
    found = next((m for s, e in para if (m := _SOURCE.match(text[s:e].strip()))), None)
    return para[0][0], found.group(1) if found else ""


def _delimited(text: str, fence: tuple[str, int, str], end: int, path: tuple[str, ...]) -> Block:
    """A delimited block: code (a listing, a literal, a fence) with its language, a
    table (``|===``), or the lines of an example, sidebar or quote as one paragraph."""
    if fence[0][0] in _CODE_FENCES:
        return Block("code", fence[1], end, path, metadata=MappingProxyType(
            {"language": fence[2]} if fence[2] else {}))
    if fence[0].startswith("|=") and (table := _table(text, fence[1], end, path)) is not None:
        return table
    return Block("paragraph", fence[1], end, path)


#: a cell's separator: ``|``, not escaped, after its spec where one stands before it
#: at a line's start or after a blank (``a|``, ``2+|``, ``^.^|``)
_CELL = re.compile(r"(?:(?:(?<=\s)|^)(\d+[+*])?(?:\.?\d+\+)?[<^>]?(?:\.[<^>])?[adehlmsv]?)?(?<!\\)\|",
                   re.MULTILINE)
_COLS = re.compile(r"""\bcols\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,\]\s]+))""")


def _table(text: str, start: int, end: int, path: tuple[str, ...]) -> Block | None:
    """A table (``|===`` ... ``|===``, its attribute lines above): rows of cells, as
    many a row as ``cols`` names (``cols="1,2m,1"``, ``cols=2*``) or as the first line
    holds; its header the first row where the attributes ask for it
    (``options="header"``, ``%header``) or where that row is one line with a blank
    line under it (Asciidoctor's rule), ``%noheader`` aside. None when no cell is
    read (the block is then a paragraph)."""
    open_at = text.index("|=", start)
    attrs = text[start:open_at]
    body_from = text.find("\n", open_at) + 1
    close = text.rfind("\n", body_from, end) + 1  # the closing |=== line
    if body_from <= 0 or close <= body_from:
        return None
    cells = []  # (separator, content start, content end, columns spanned)
    found = list(_CELL.finditer(text, body_from, close))
    for i, m in enumerate(found):
        stop = found[i + 1].start() if i + 1 < len(found) else close
        a, b = stripped(text, m.end(), stop)
        span = int(m.group(1)[:-1]) if m.group(1) and m.group(1).endswith("+") else 1
        cells.append((m.start(), a, b, span))
    if not cells or text[body_from:cells[0][0]].strip():
        return None
    n = _columns(attrs) or sum(c[3] for c in cells if text.count("\n", body_from, c[0]) == 0)
    rows: list[tuple[int, int]] = []
    values: list[tuple[str, ...]] = []
    taken = 0
    for c in cells:
        if taken == 0 or taken >= n:
            rows.append((c[0], c[2]))
            values.append(())
            taken = 0
        rows[-1] = (rows[-1][0], max(rows[-1][1], c[2]))
        values[-1] = values[-1] + (" ".join(text[c[1]:c[2]].split()),)
        taken += c[3]
    header: tuple[int, int] | None = None
    columns: tuple[str, ...] = ()
    first_line = text.count("\n", rows[0][0], rows[0][1]) == 0
    implicit = first_line and len(rows) > 1 and not text[rows[0][1]:rows[1][0]].strip("\n \t") \
        and text.count("\n", rows[0][1], rows[1][0]) >= 2
    wanted = re.search(r"%header|options\s*=\s*[\"']?[^\]]*header", attrs)
    if len(rows) > 1 and "%noheader" not in attrs and (wanted or implicit):
        header, columns = (start, rows[0][1]), values[0]
        rows, values = rows[1:], values[1:]
    rows[-1] = (rows[-1][0], end)
    return table_block(start, end, header, rows, columns, values, path, fmt="asciidoc")


def _columns(attrs: str) -> int:
    """The columns a table's ``cols`` attribute names (0: it names none)."""
    m = _COLS.search(attrs)
    if m is None:
        return 0
    spec = next(g for g in m.groups() if g is not None).strip()
    if re.fullmatch(r"\d+", spec):
        return int(spec)
    total = 0
    for item in re.split(r"[,;]", spec):
        k = re.match(r"\s*(\d+)\*", item)
        total += int(k.group(1)) if k else 1
    return total


ASCIIDOC = Reader(parse_asciidoc, (".adoc", ".asciidoc"))
