"""Tables drawn in characters: reStructuredText's (and Pandoc's) grid tables, which a
MySQL client also prints, and reStructuredText's simple tables.

A grid table's borders are ``+---+---+`` lines (``+===+===+`` under its header), its
cells between ``|`` characters at the borders' ``+`` columns; a simple table's are
runs of ``=`` (``-`` between header rows) separated by spaces. Read as paragraphs, a
grid table was cut a row at a time with nothing saying what its columns are, and a
border alone (one token a character: 167 in PyPA's widest) was a chunk of no word.
As a table block its rows are whole units and its header is every later part's
context, as a Markdown table's is."""

from __future__ import annotations

import re
from collections.abc import Container, Iterator

from ..types import Block
from .structure import table_block

#: a grid table's full border (its top and bottom), ``+----+----+`` or ``+====+====+``
_BORDER = re.compile(r"\+(?:-+\+)+|\+(?:=+\+)+")
#: a line inside: a border, partial where a cell spans rows (``+----+     |``), or a row
_INSIDE = re.compile(r"[+|].*[+|]")
#: a separator inside: only border characters, a ``+`` at a run's end
_SEPARATOR = re.compile(r"[-=+| ]*(?:\+[-=]|[-=]\+)[-=+| ]*")


def _lines(text: str, s: int, e: int) -> list[tuple[int, int]] | None:
    """The ``[start, end)`` of each line of ``text[s:e]`` with text on it, from the
    table's left edge (the column of ``s``), without line breaks or trailing blanks
    (blank lines between a simple table's rows are left out); None when a line
    starts left of that edge."""
    indent = s - (text.rfind("\n", 0, s) + 1)
    out = []
    pos = s - indent
    while pos < e:
        nl = text.find("\n", pos, e)
        end = e if nl < 0 else nl
        stop = end
        while stop > pos and text[stop - 1] in " \t\r":
            stop -= 1
        if stop > pos:
            if text[pos:pos + indent].strip(" \t") or stop - pos <= indent:
                return None
            out.append((pos + indent, stop))
        pos = end + 1
    return out


#: a line that is a simple table's border (its top, its header's end, its bottom)
_SIMPLE_LINE = re.compile(r"[ \t]*=+(?: +=+)+[ \t]*\r?$", re.MULTILINE)


def join_simple_tables(text: str, spans: list[tuple[int, int]],
                       keep: Container[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Paragraph spans with each simple table's made one: blank lines may part its rows
    (PEP 291's table of features by version), and the table ends at the first border
    after its top that a blank line or the end follows. A span in ``keep`` (a
    heading) is never joined; a table not closed within :data:`JOIN_SPANS` spans is
    left as it was."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(spans):
        s, e = spans[i]
        j = i
        if (m := _SIMPLE_LINE.match(text, s)) is not None and m.end() <= e:
            j = next((k for k in range(i, min(len(spans), i + JOIN_SPANS))
                      if _ends_in_border(text, spans[k], m.end() if k == i else spans[k][0])
                      or (k > i and spans[k] in keep)), i)
            if j > i and spans[j] in keep:
                j = i
        out.append((s, spans[j][1]))
        i = j + 1
    return out


def _ends_in_border(text: str, span: tuple[int, int], after: int) -> bool:
    """Whether the last line of ``text[span]``, starting at or after ``after``, is a
    simple table's border."""
    last = text.rfind("\n", span[0], span[1]) + 1 or span[0]
    return last >= after and _SIMPLE_LINE.fullmatch(text, last, span[1]) is not None


#: the most paragraph spans a simple table is looked for over
JOIN_SPANS = 200


def table_in(text: str, s: int, e: int, headings: tuple[str, ...], page: int | None = None
             ) -> Block | None:
    """The table that ``text[s:e]`` (a paragraph: no blank line inside) is, whole; None
    when it is none. Only a paragraph starting with ``+`` or ``=`` is looked at."""
    first = text[s:s + 1]
    if first not in ("+", "=") or (lines := _lines(text, s, e)) is None or len(lines) < 3:
        return None
    if first == "+":
        return _grid(text, lines, headings, page)
    return _simple(text, lines, headings, page)


def grid_table(text: str, s: int, e: int, headings: tuple[str, ...]) -> Block | None:
    """:func:`table_in` for a grid table only (Markdown: Pandoc's grid tables; a line
    of ``=`` there underlines a title)."""
    return table_in(text, s, e, headings) if text.startswith("+", s) else None


def _grid(text: str, lines: list[tuple[int, int]], headings: tuple[str, ...], page: int | None
          ) -> Block | None:
    """A grid table: full borders on top and at the bottom, each line between a row's
    (its cells between ``|`` at the border's ``+`` columns) or a separator; a
    separator of ``=`` ends the header (else the first row names the columns). A
    row's span starts at the separator above it (the last row's runs to the bottom
    border): the header is then one border and its lines, and a part of the table
    after the first opens at a border rather than ending at one."""
    top = text[lines[0][0]:lines[0][1]]
    if not _BORDER.fullmatch(top) or not _BORDER.fullmatch(text[lines[-1][0]:lines[-1][1]]):
        return None
    # each row: the separator above it, its first line, its end, its cells, whether the
    # separator under it is of "=" and whether it is whole (no cell spans it)
    groups: list[tuple[int, int, int, tuple[tuple[int, int, str], ...], bool, bool]] = []
    above = lines[0][0]
    ends = dict(lines)
    row: list[tuple[int, int]] = []
    for ls, le in lines[1:]:
        line = text[ls:le]
        if not _INSIDE.fullmatch(line):
            return None
        if not _SEPARATOR.fullmatch(line):
            row.append((ls, le))
            continue
        if not row:  # two separators in a row: no table of ours
            return None
        # (a row's columns are the separator's above it: a header's cell over two)
        groups.append((above, row[0][0], row[-1][1],
                       _cells([text[a:b] for a, b in row], _bounds(text[above:ends[above]])),
                       "=" in line, _BORDER.fullmatch(line) is not None))
        above, row = ls, []
    if row or not groups:
        return None
    # the header: the rows above the first separator of "=", else the first row (to the
    # first whole separator: PEP 393's header has cells over two)
    marked = next((i + 1 for i, g in enumerate(groups) if g[4]), None)
    whole = next(i + 1 for i, g in enumerate(groups) if g[5])  # (the bottom border at least)
    head = marked if marked is not None else (whole if whole < len(groups) else 0)
    header = (lines[0][0], groups[head - 1][2]) if head else None
    rows = [(g[0], g[2]) for g in groups[head:]]
    if not rows:
        return None
    under = groups[head][0] if head < len(groups) else lines[-1][0]
    columns = _header_columns([g[3] for g in groups[:head]], _bounds(text[under:ends[under]]))
    rows[-1] = (rows[-1][0], lines[-1][1])
    return table_block(lines[0][0], lines[-1][1], header, rows, columns,
                       [tuple(v for _, _, v in g[3]) for g in groups[head:]], headings, page,
                       fmt="grid")


def _bounds(border: str) -> list[int]:
    """The columns of a border's ``+`` and ``|`` (a partial one's edge is a ``|``)."""
    return [i for i, c in enumerate(border) if c in "+|"]


def _cells(row_lines: list[str], bounds: list[int]) -> tuple[tuple[int, int, str], ...]:
    """A row's cells, each with the columns it spans (``[a, b)`` between the border's
    ``+``): each line cut at the border's columns where it has a ``|`` or a ``+``
    there (a cell spanning columns has neither), the lines of a cell joined, less the
    borders inside a cell (PEP 393's header, ``+------+------+`` under a cell over
    two); where the lines of a row cut differently, the row is one cell."""
    spans: list[tuple[int, int]] = []
    parts: list[list[str]] = []
    for line in row_lines:
        cuts = [0] + [b for b in bounds[1:-1] if b < len(line) and line[b] in "|+"] + [len(line) - 1]
        if parts and len(cuts) - 1 != len(parts):
            cuts = [0, len(line) - 1]
            parts = [[" ".join(" ".join(p) for p in parts if p)]]
            spans = [(cuts[0], cuts[1])]
        values = [line[a + 1:b].strip() for a, b in zip(cuts, cuts[1:])]
        values = ["" if _SEPARATOR.fullmatch(v) else v for v in values]
        if not parts:
            parts = [[] for _ in values]
            spans = list(zip(cuts, cuts[1:]))
        for part, value in zip(parts, values):
            if value:
                part.append(value)
    return tuple((a, b, " ".join(part)) for (a, b), part in zip(spans, parts))


def _header_columns(header: list[tuple[tuple[int, int, str], ...]], under: list[int]
                    ) -> tuple[str, ...]:
    """The header's rows flattened to the columns of the border under it (``under``:
    its ``+`` and ``|`` columns): each column named by every header cell over it, top
    down (``Python 3.2 32-bit``, ``Python 3.2 64-bit``)."""
    out = []
    for a, b in zip(under, under[1:]):
        names = [v for row in header for s, e, v in row if v and s <= a and b <= e]
        out.append(" ".join(names))
    return tuple(out)


def _simple(text: str, lines: list[tuple[int, int]], headings: tuple[str, ...], page: int | None
            ) -> Block | None:
    """A simple table: a border of ``=`` runs on top, rows, a border at the bottom;
    a border between ends the header. Each row a line; a line whose first column is
    blank goes on the row before."""
    texts = [text[a:b] for a, b in lines]
    borders = [i for i, t in enumerate(texts) if _SIMPLE_LINE.fullmatch(t)]
    if borders[:1] != [0] or borders[-1] != len(lines) - 1 or len(borders) > 3:
        return None
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", texts[0])]
    header: tuple[int, int] | None = None
    columns: tuple[str, ...] = ()
    body_from = 1
    if len(borders) == 3:
        header = (lines[0][0], lines[borders[1]][1])
        named = [_columns_of(texts[i], spans) for i in range(1, borders[1])
                 if not _RULE.fullmatch(texts[i])]
        columns = tuple(" ".join(v for v in names if v) for names in zip(*named))
        body_from = borders[1] + 1
    rows: list[tuple[int, int]] = []
    cells: list[tuple[str, ...]] = []
    for i in range(body_from, len(lines) - 1):
        values = _columns_of(texts[i], spans)
        if rows and not values[0]:
            rows[-1] = (rows[-1][0], lines[i][1])  # the row goes on
            cells[-1] = tuple(" ".join(v for v in pair if v) for pair in zip(cells[-1], values))
            continue
        rows.append(lines[i])
        cells.append(values)
    if not rows:
        return None
    if header is None and len(rows) > 1:
        header, columns = (lines[0][0], rows[0][1]), cells[0]
        rows, cells = rows[1:], cells[1:]
    rows[-1] = (rows[-1][0], lines[-1][1])  # the bottom border with the last row
    return table_block(lines[0][0], lines[-1][1], header, rows, columns, cells, headings, page,
                       fmt="simple")


#: a simple table's rule under a header cell spanning columns (``------------  ------``)
_RULE = re.compile(r"-+(?: +-+)*")


def _columns_of(line: str, spans: list[tuple[int, int]]) -> tuple[str, ...]:
    """A simple table's line cut at its columns (the last runs to the line's end); a
    cell whose text runs over the gap to the next column (a header cell spanning
    columns) takes in that column too, which is left empty."""
    out: list[str] = []
    start = 0
    for i in range(len(spans)):
        if i + 1 < len(spans) and line[spans[i][1]:spans[i + 1][0]].strip():
            out.append("")
            continue  # no cut here: the cell goes on
        end = spans[i + 1][0] if i + 1 < len(spans) else len(line)
        out[len(out) - (i - start):] = [line[spans[start][0]:end].strip()] + [""] * (i - start)
        start = i + 1
    return tuple(out)


#: reStructuredText's tables written as directives: a list of lists, or CSV lines
_DIRECTIVE = re.compile(r"\.\. (list-table|csv-table)::[^\n]*")
_DIRECTIVE_AT = re.compile(r"\s*(?=\.\. (?:list|csv)-table::)")
_OPTION = re.compile(r"[ \t]+:([\w-]+):[ \t]*([^\n]*)")


def directive_spans(text: str, spans: list[tuple[int, int]],
                    keep: Container[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Paragraph spans with each ``.. list-table::`` and ``.. csv-table::`` directive
    made one span with the blocks indented under it (blank lines part its rows)."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(spans):
        s, e = spans[i]
        j = i
        if (m := _DIRECTIVE_AT.match(text, s, e)) is not None:  # (no copy of the span)
            indent = m.end() - (text.rfind("\n", 0, m.end()) + 1)
            while j + 1 < len(spans) and spans[j + 1] not in keep and indented_past(
                    text, spans[j + 1], indent):
                j += 1
        out.append((s, spans[j][1]))
        i = j + 1
    return out


def indented_past(text: str, span: tuple[int, int], indent: int) -> bool:
    """Whether every line of ``text[span]`` with text on it is indented past ``indent``
    (a paragraph's span starts past its own indentation)."""
    start = text.rfind("\n", 0, span[0]) + 1
    lines = [line for line in text[start:span[1]].splitlines() if line.strip()]
    return bool(lines) and all(len(line) - len(line.lstrip()) > indent for line in lines)


def directive_table(text: str, s: int, e: int, headings: tuple[str, ...]) -> Block | None:
    """The table a ``.. list-table::`` or ``.. csv-table::`` directive (``text[s:e]``,
    its options and body) writes; None when it writes none here (a CSV file it names,
    no row). The header: the first ``:header-rows:`` rows, or a CSV table's
    ``:header:`` option (then the directive and its options are the header's span)."""
    m = _DIRECTIVE.match(text, s)
    if m is None:
        return None
    options: dict[str, str] = {}
    pos = m.end() + 1
    while (o := _OPTION.match(text, pos, e)) is not None:
        options[o.group(1)] = o.group(2).strip()
        pos = o.end() + 1
    try:
        head_rows = int(options.get("header-rows", "0"))
    except ValueError:
        return None
    body = [(a, b) for a, b in _body_lines(text, min(pos, e), e)]
    found = _list_rows(text, body) if m.group(1) == "list-table" else _csv_rows(text, body, options)
    if found is None or len(found) <= head_rows:
        return None
    rows = [(a, b) for a, b, _ in found]
    cells = [c for _, _, c in found]
    header: tuple[int, int] | None = None
    columns: tuple[str, ...] = ()
    if head_rows:
        header = (s, rows[head_rows - 1][1])
        columns = tuple(" ".join(v for v in names if v) for names in zip(*cells[:head_rows]))
        rows, cells = rows[head_rows:], cells[head_rows:]
    elif m.group(1) == "csv-table" and options.get("header"):
        header = (s, max(m.end(), pos - 1))
        columns = _csv_cells(options["header"], options)
    rows[-1] = (rows[-1][0], e)
    return table_block(s, e, header, rows, columns, cells, headings, fmt=m.group(1))


def _body_lines(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """``[start, end)`` of each line of ``text[lo:hi]`` with text on it, from its first
    character to its last."""
    out = []
    for mm in re.finditer(r"[^\n]+", text[lo:hi]):
        line = mm.group()
        if line.strip():
            a = lo + mm.start() + len(line) - len(line.lstrip())
            out.append((a, lo + mm.start() + len(line.rstrip())))
    return out


def _list_rows(text: str, body: list[tuple[int, int]]) -> list[tuple[int, int, tuple[str, ...]]] | None:
    """A list table's rows: the items of its outer list (``* - a``), each cell an item
    of the inner list (``- a``, its lines joined)."""
    if not body or not text.startswith("* ", body[0][0]):
        return None
    col = _column(text, body[0][0])
    rows: list[tuple[int, int, list[list[str]]]] = []
    for a, b in body:
        line = text[a:b]
        if _column(text, a) == col and (line.startswith("* ") or line == "*"):
            rows.append((a, b, []))
            line = line[1:].lstrip()
            if not line:
                continue
        elif not rows:
            return None
        start, end, cells = rows[-1]
        rows[-1] = (start, b, cells)
        if line.startswith("- ") or line == "-":
            cells.append([line[1:].strip()])
        elif cells:
            cells[-1].append(line.strip())
    return [(a, b, tuple(" ".join(p for p in cell if p) for cell in row)) for a, b, row in rows]


def _column(text: str, at: int) -> int:
    return at - (text.rfind("\n", 0, at) + 1)


def _delimiter(options: dict[str, str]) -> str:
    delim = options.get("delim", ",")
    return {"tab": "\t", "space": " "}.get(delim, delim[:1] or ",")


def _csv_cells(line: str, options: dict[str, str]) -> tuple[str, ...]:
    import csv

    try:
        values = next(csv.reader([line], delimiter=_delimiter(options), skipinitialspace=True), [])
    except csv.Error:
        values = line.split(_delimiter(options))
    return tuple(v.strip() for v in values)


def _csv_rows(text: str, body: list[tuple[int, int]], options: dict[str, str]
              ) -> list[tuple[int, int, tuple[str, ...]]] | None:
    """A CSV table's rows: a record each (its lines: a quoted value may run over
    two); none when the table is in a file it names or its CSV does not parse."""
    import csv

    if not body or "file" in options or "url" in options:
        return None
    read: list[int] = []  # the lines the reader has taken

    def lines() -> Iterator[str]:
        for i, (a, b) in enumerate(body):
            read.append(i)
            yield text[a:b] + "\n"
    rows = []
    first = 0
    try:
        for record in csv.reader(lines(), delimiter=_delimiter(options), skipinitialspace=True,
                                 strict=True):
            rows.append((body[first][0], body[read[-1]][1],
                         tuple(" ".join(v.split()) for v in record)))
            first = read[-1] + 1
    except csv.Error:
        return None
    return rows or None
