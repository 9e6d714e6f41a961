"""XLSX workbooks (Excel, LibreOffice Calc, Google Sheets' downloads; ``.xlsm`` too)
with openpyxl, streamed (read-only mode: a sheet is never held as cell objects).
Each worksheet is a section under its name (a lone sheet with a default name,
``Sheet1``, gets none); a sheet's rows fall into regions at blank rows, and a region
is a table: its first row the header where every cell of it is text (``Region |
Population``), its rows whole and the header in the context of every later part, as
a CSV file's are. A title or a note on a row of its own above or below a region's
table (``Table 2: Population by region``, ``Source: ...``) is a paragraph. Cells
show what Excel shows of their value: a formula's last computed value, numbers
to 15 significant digits, dates as ISO dates, ``TRUE``/``FALSE``. Offsets are into
the extracted text, as for DOCX. Chart sheets carry no cells and are left out.

A sheet's declared size is not trusted (Gnumeric's files declare all 1,048,576 x
16,384 cells: read by it, a small sheet took minutes); the rows in the file are
read as they are."""

from __future__ import annotations

import io
import re
import zipfile
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
#: the start of an OLE compound file: a password-protected workbook (encrypted in one)
#: or an old binary .xls
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def parse_xlsx(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    book = _open(data, name)
    out, trail = TextBuilder(), HeadingTrail()
    sheets = list(book.worksheets)  # (chart sheets are not among them)
    named = len(sheets) > 1 or (bool(sheets) and not _DEFAULT_SHEET.fullmatch(sheets[0].title))
    try:
        for sheet in sheets:
            sheet.reset_dimensions()  # read the rows there are, not the declared size
            regions = _regions(sheet.iter_rows(values_only=True))
            if not regions:
                continue
            if named:
                trail.push(1, sheet.title)
                out.add_block("heading", sheet.title, trail.path, level=1)
            for region in regions:
                _add_region(out, region, trail.path)
    except Exception as exc:  # a part broken inside the package (a bad CRC, bad XML)
        raise InputError(name, f"not a readable XLSX workbook ({type(exc).__name__}: {exc})") \
            from None
    finally:
        book.close()
    if not out.blocks and not sheets and _has_worksheet_parts(data):
        raise InputError(name, "its worksheets could not be read (a Strict Open XML workbook? "
                               "save it as an ordinary Excel workbook)")
    title = book.properties.title if isinstance(book.properties.title, str) else None
    return Document(text=out.text, doc_id=doc_id, source=source,
                    title=(title or "").strip() or None, blocks=tuple(out.blocks),
                    metadata={"format": "xlsx", "sheets": len(sheets)})


def _open(data: bytes, name: str) -> Any:
    import warnings

    import openpyxl

    if data.startswith(_OLE):
        raise InputError(name, "a password-protected workbook or an old binary .xls, not an "
                               "XLSX file: save it as .xlsx without a password")
    try:
        with warnings.catch_warnings():  # (data validation and the like: not read here)
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # not a zip, parts missing or broken
        raise InputError(name, f"not a readable XLSX workbook ({type(exc).__name__}: {exc})") \
            from None


def _has_worksheet_parts(data: bytes) -> bool:
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile:
        return False
    return any("/worksheets/" in n for n in names)


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


def _regions(rows: Iterable[Row]) -> list[list[Row]]:
    """The sheet's non-blank rows in runs between blank rows, each row without the
    empty cells at its end."""
    regions: list[list[Row]] = []
    current: list[Row] = []
    for row in rows:
        end = len(row)
        while end and (row[end - 1] is None or (isinstance(row[end - 1], str)
                                                and not row[end - 1].strip())):
            end -= 1
        if end:
            current.append(row[:end])
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
    lo, hi = 0, len(texts)
    if max(filled) > 1:  # a table: its title and notes are rows of one cell
        while filled[lo] == 1:
            lo += 1
        while filled[hi - 1] == 1:
            hi -= 1
    for r in texts[:lo]:
        out.add_block("paragraph", " ".join(c for c in r if c), path)
    if max(filled) == 1:
        for r in texts[lo:hi]:
            out.add_block("paragraph", " ".join(c for c in r if c), path)
    elif hi > lo:
        out.add_table(texts[lo:hi], path, metadata={"format": "xlsx"},
                      has_header=hi - lo > 1 and _is_header(rows[lo], texts[lo]))
    for r in texts[hi:]:
        out.add_block("paragraph", " ".join(c for c in r if c), path)


def _is_header(values: Sequence[Any], texts: Sequence[str]) -> bool:
    """Whether a table's first row names its columns: every value in it is text, and
    most of its columns have one."""
    present = [v for v in values if v is not None and not (isinstance(v, str) and not v.strip())]
    return (all(isinstance(v, str) for v in present)
            and 2 * sum(1 for c in texts if c) >= len(texts))


XLSX = Reader(parse_xlsx, (".xlsx", ".xlsm"), binary=True)
