"""Spreadsheets: Excel workbooks (``.xlsx``, ``.xlsm``, ``.xlsb`` and the old binary
``.xls``) and OpenDocument spreadsheets (``.ods``), read with python-calamine (Rust's
calamine: a 100,000-row sheet in ~1 s, where openpyxl took ~27 s here). Each
worksheet is a section under its name (a lone sheet with a default name, ``Sheet1``,
gets none); a sheet's rows fall into regions at blank rows, and a region is a table:
its first row the header where every cell of it is text (``Region | Population``),
its rows whole and the header in the context of every later part, as a CSV file's
are. A title or a note on a row of its own above or below a region's table (``Table
2: Population by region``, ``Source: ...``) is a paragraph; a region one column wide
(a sheet of notes) a paragraph a row. Cells show what a spreadsheet shows of their
value: a formula's last computed value, numbers to 15 significant digits, dates as
ISO dates, ``TRUE``/``FALSE``. Offsets are into the extracted text, as for DOCX.
Chart sheets carry no cells and are left out; so are error values (``#DIV/0!``)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: the name a spreadsheet program gives a new sheet (English, French, German, Spanish,
#: Italian, Portuguese, Dutch): a lone sheet so named says nothing in a heading trail
_DEFAULT_SHEET = re.compile(r"(?i)(sheet|feuil(le)?|tabelle|hoja|foglio|planilha|blad)\s*\d*")
#: the start of an OLE compound file: an old binary .xls, .ppt or .doc, or an encrypted
#: Office document (a password-protected .xlsx or .pptx)
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def parse_spreadsheet(data: bytes, doc_id: str, source: str | None = None) -> Document:
    import python_calamine as calamine

    name = source or doc_id
    out, trail = TextBuilder(), HeadingTrail()
    kind = _kind(data, name)
    try:
        # calamine tells the format from a path's extension: from a file-like object it
        # told no encrypted workbook and not every .xls (Calamine's own test files)
        with tempfile.NamedTemporaryFile(suffix=f".{kind}") as spool:
            spool.write(data)
            spool.flush()
            book = calamine.CalamineWorkbook.from_path(spool.name)
        sheets = [m.name for m in book.sheets_metadata
                  if m.typ == calamine.SheetTypeEnum.WorkSheet]
        named = len(sheets) > 1 or (bool(sheets) and not _DEFAULT_SHEET.fullmatch(sheets[0]))
        for sheet in sheets:
            regions = _regions(book.get_sheet_by_name(sheet).iter_rows())
            if not regions:
                continue
            if named:
                trail.push(1, sheet)
                out.add_block("heading", sheet, trail.path, level=1)
            for region in regions:
                _add_region(out, region, trail.path)
    except calamine.PasswordError:
        raise InputError(name, "a password-protected workbook: save it without a password") \
            from None
    except Exception as exc:  # not a workbook, parts missing or broken
        raise InputError(name, f"not a readable spreadsheet ({type(exc).__name__}: {exc})") \
            from None
    return Document(text=out.text, doc_id=doc_id, source=source, blocks=tuple(out.blocks),
                    metadata={"format": kind, "sheets": len(sheets)})


def _kind(data: bytes, name: str) -> str:
    """The workbook's file format: its name's extension where that is a spreadsheet's,
    else by its first bytes and parts (an encrypted workbook is an OLE file, as an
    old .xls is)."""
    ext = name.rsplit(".", 1)[-1].lower()
    if ext in ("xlsx", "xlsm", "xlsb", "xls", "ods"):
        return ext
    if data.startswith(OLE_SIGNATURE):
        return "xls"
    head = data[:65536]
    if b"opendocument.spreadsheet" in head:
        return "ods"
    return "xlsb" if b"xl/workbook.bin" in head else "xlsx"


def cell_text(value: Any) -> str:
    """A cell's value as a spreadsheet shows it (without its number format)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return format(value, ".15g")  # Excel's 15 digits: 0.1 + 0.2 shows as 0.3
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(" ")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return " ".join(str(value).split())


Row = tuple[Any, ...]


def _regions(rows: Iterable[Sequence[Any]]) -> list[list[Row]]:
    """The sheet's non-blank rows in runs between blank rows, each row without the
    empty cells at its end."""
    regions: list[list[Row]] = []
    current: list[Row] = []
    for row in rows:
        end = len(row)
        # a blank row by two counts in C (a sheet declaring 65,536 rows of 256 cells with
        # values in its corners took 4.3 s a cell at a time, 0.6 s so)
        if row.count("") + row.count(None) == end:
            end = 0
        while end and (row[end - 1] is None or (isinstance(row[end - 1], str)
                                                and not row[end - 1].strip())):
            end -= 1
        if end:
            current.append(tuple(row[:end]))
        elif current:
            regions.append(current)
            current = []
    if current:
        regions.append(current)
    return regions


def _add_region(out: TextBuilder, rows: list[Row], path: tuple[str, ...]) -> None:
    """A region's titles and notes (rows of one cell above and below a wider table) as
    paragraphs, the rest a table; a region one column wide (a sheet of notes, a list)
    a paragraph a row."""
    texts = [[cell_text(v) for v in row] for row in rows]
    used = [j for j in range(max(len(r) for r in texts)) if any(j < len(r) and r[j] for r in texts)]
    texts = [[r[j] if j < len(r) else "" for j in used] for r in texts]
    filled = [sum(1 for c in r if c) for r in texts]
    lo, hi = len(texts), len(texts)  # one column: every row a paragraph
    if max(filled) > 1:  # a table: its title and notes are rows of one cell
        lo = 0
        while filled[lo] == 1:
            lo += 1
        while filled[hi - 1] == 1:
            hi -= 1
    for r in texts[:lo]:
        out.add_block("paragraph", " ".join(c for c in r if c), path)
    if hi > lo:
        out.add_table(texts[lo:hi], path, metadata={"format": "spreadsheet"},
                      has_header=hi - lo > 1 and _is_header(rows[lo], texts[lo]))
    for r in texts[hi:]:
        out.add_block("paragraph", " ".join(c for c in r if c), path)


def _is_header(values: Sequence[Any], texts: Sequence[str]) -> bool:
    """Whether a table's first row names its columns: every value in it is text, and
    most of its columns have one."""
    present = [v for v in values if v is not None and not (isinstance(v, str) and not v.strip())]
    return (all(isinstance(v, str) for v in present)
            and 2 * sum(1 for c in texts if c) >= len(texts))


SPREADSHEET = Reader(parse_spreadsheet, (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"),
                     binary=True)
