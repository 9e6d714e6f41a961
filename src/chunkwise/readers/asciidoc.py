"""AsciiDoc (``.adoc``, ``.asciidoc``): section titles (``== Section``, a level per
``=``, and the older two-line form, a title over a rule of its length), delimited
blocks (``----`` listings, ``....`` literals and ```` ``` ```` fences as code, the
language from a ``[source,java]`` line above; inside any delimited block, nothing is
a title), paragraphs. Offsets into the file. Read as plain text, ``== Install`` was
a paragraph and a listing's lines could end one chunk and start the next."""

from __future__ import annotations

import re
from types import MappingProxyType

from ..types import Block, Document
from .reader import Reader
from .structure import HeadingTrail, stripped, table_block

_TITLE = re.compile(r"\ufeff?(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")  # (a byte-order mark first)
#: a delimited block's fence: its closing line is the same
_DELIMITER = re.compile(r"(?:-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|`{3}|\|={3,})[ \t]*")
_CODE_FENCES = ("-", ".", "`")
#: block attributes, an anchor, a block title: lines that open the block after them
_ATTRIBUTES = re.compile(r"\[\[[^\]\n]*\]\]|\[[^\]\n]*\]|\.[^\s.][^\n]*")
_SOURCE = re.compile(r"\[(?:source|listing)?,\s*([\w+#.-]+)")
#: the two-line title's rule characters, level by character (Asciidoctor's table)
_UNDERLINE = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}


def parse_asciidoc(text: str, doc_id: str, source: str | None = None) -> Document:
    blocks: list[Block] = []
    trail = HeadingTrail()
    title: str | None = None
    para: list[tuple[int, int]] = []  # the open paragraph's lines (start, end)
    fence: tuple[str, int, str] | None = None  # the open block: its line, start, language

    def close_para() -> None:
        if para:
            blocks.append(Block("paragraph", para[0][0], para[-1][1], trail.path))
            para.clear()

    def heading(level: int, name: str, s: int, e: int) -> None:
        nonlocal title
        trail.push(level, name)
        blocks.append(Block("heading", s, e, trail.path, level=level))
        title = title or (name if level == 1 else None)
        para.clear()

    pos = 0
    for raw in text.splitlines(keepends=True):
        start, pos = pos, pos + len(raw)
        line = raw.rstrip("\r\n")
        end = start + len(line)
        stripped = line.strip()
        if fence is not None:
            if stripped == fence[0]:
                blocks.append(_delimited(text, fence, end, trail.path))
                fence = None
            continue
        if not stripped:
            close_para()
            continue
        if stripped.startswith("//") and not stripped.startswith("////"):
            continue  # a comment line ("// tag::quick[]"): no paragraph's, nor a break
        if _DELIMITER.fullmatch(line):
            level = _two_line_level(text, para, stripped)
            if level is not None:  # the two-line form
                heading(level, text[para[0][0]:para[0][1]].strip(), para[0][0], end)
                continue
            opening, language = _attributes(text, para)
            if opening is None:
                close_para()
            para.clear()
            fence = (stripped, start if opening is None else opening, language)
            continue
        m = _TITLE.fullmatch(line)
        # a title may follow its anchor and attributes (``[#debug]``, ``[[install]]``,
        # ``[appendix]``): they open its block (64 of the 472 titles of Asciidoctor's
        # own docs were paragraph lines)
        if m is not None and (not para or _attributes(text, para)[0] is not None):
            heading(len(m.group(1)), m.group(2), para[0][0] if para else start, end)
            continue
        para.append((start, end))
    close_para()
    if fence is not None and len(text.rstrip()) > fence[1]:  # never closed: to the end
        blocks.append(_delimited(text, fence, len(text.rstrip()), trail.path))
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(blocks), metadata={"format": "asciidoc"})


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
