"""PDF: text per page with pypdfium2 (fast), tables with pdfplumber.

pdfium also gives each line's font size (headings told by size), tells which pages
could hold a table (:mod:`.pdf_lines`), and reads those pages' characters and shapes
for pdfplumber's table finder (:mod:`.pdf_objects`): pdfplumber, which has pdfminer
interpret a page in Python, interprets only a turned page (or one whose media box is
off the origin) that may hold a table.

The document text is repaired extracted text: words hyphenated at line ends are
re-joined ("reten-\\ntion" -> "retention"), hard-wrapped lines become one
paragraph, and lines repeated at the top or bottom of most pages (running
headers, footers, page numbers) are dropped. Every block carries its page
number (1-based); offsets index the repaired text.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import InputError, reraise_interrupt
from ..types import Document
from .pdf_bands import Table, around_tables, chars_text, gutter, pdfium_text
from .pdf_lines import Sized, may_hold_table, page_chars, sized_lines
from .pdf_objects import lend
from .pdf_outline import outline, outline_headings
from .reader import Reader
from .structure import HeadingTrail, TextBuilder
from .text import MID_PHRASE, NUMBERED_HEADING, TOC_LEADER, stops_mid_phrase

_TERMINAL = (".", "!", "?", ":", ";", "\u3002")
_BULLET = re.compile(r"^\s*(?:[-\u2022\u25aa\u25cf*]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")
# pdfium marks a hyphen it saw at a line end as U+FFFE (or U+0002); soft hyphens too
_HYPHEN_END = re.compile(r"[^\W\d_][-\ufffe\u0002\u00ad]$")


@dataclass
class _Para:
    text: str
    page: int
    kind: str = "paragraph"
    level: int | None = None
    rows: list[Any] | None = None
    #: (offset in text, page) where a later page's text starts inside this paragraph
    breaks: list[tuple[int, int]] | None = None
    #: a heading told by its number (``2.1 Title``) in the body's font, not by size
    numbered: bool = False


_DIGITS = re.compile(r"\d+")
#: a heading's section number, "2.4" of "2.4. Results" (or of "2.4Results")
_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){0,4})\.?(?![\d.])")

#: what a PDF's text holds where a font maps its glyphs to no character (a font without
#: a ToUnicode map and with made-up glyph names: TeX's Type 3 fonts, subsets): pdfium's
#: control codes, U+FFFD and private-use code points, pdfminer's ``(cid:N)`` in tables
_UNREADABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd-\uffff\ue000-\uf8ff]"
                         r"|\(cid:\d+\)")
#: share of the visible characters from which a PDF's (or a page's) text is such codes
UNREADABLE_SHARE = 0.5
#: whitespace, less the four control codes Python counts as whitespace
_BLANK = re.compile(r"(?![\x1c-\x1f])\s")


def _normalise(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.split())).lower()


def _open(data: bytes, source: str) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise InputError(source, "encrypted PDF (a password is required)") from None
        # (pdfium gives some damaged files' failure the reason "Success")
        msg = msg.replace(" (PDFium: Success)", "").rstrip(".")
        raise InputError(source, f"not a readable PDF (corrupt or truncated: {msg})") from None


_INFO_KEYS = {"Title": "title", "Author": "author", "Subject": "subject", "Keywords": "keywords",
              "CreationDate": "created", "ModDate": "modified", "Creator": "creator",
              "Producer": "producer"}
_PDF_DATE = re.compile(r"^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?")


def _info(pdf: Any) -> dict[str, Any]:
    """The document information dictionary: title, author, subject, keywords, dates
    (as ISO 8601 where the PDF date parses)."""
    try:
        raw = pdf.get_metadata_dict(skip_empty=True)
    except Exception as exc:  # a damaged info dictionary must not stop the text
        reraise_interrupt(exc)
        return {}
    out: dict[str, Any] = {}
    for key, name in _INFO_KEYS.items():
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        value = " ".join(value.split())
        m = _PDF_DATE.match(value) if name in ("created", "modified") else None
        if m:
            y, mo, d, h, mi, s = (g or "" for g in m.groups())
            value = "-".join(x for x in (y, mo, d) if x)
            if h:
                value += f"T{h}:{mi or '00'}:{s or '00'}"
        out[name] = value
    return out


def _page_lines(pdf: Any, placed: dict[int, tuple[float, list[Table]]],
                kept: dict[int, list[bool]]) -> list[list[Any]]:
    """Each page's lines as pdfium reads them, less the characters ``kept`` leaves out
    (:func:`_kept`, per page); a page with tables (``placed``: its height and its
    tables, found by pdfplumber) as the text around them and the tables' rows
    (``("table", rows)``) in their places."""
    pages: list[list[Any]] = []
    for i in range(len(pdf)):
        page = pdf[i]
        textpage = page.get_textpage()
        keep = kept.get(i)
        lines: list[Any] | None = None
        if i in placed:
            try:
                lines = _entry_lines(around_tables(textpage, *placed[i], keep))
            except Exception as exc:  # (the tables are a refinement: the page's text stands)
                reraise_interrupt(exc)
                lines = None
        if lines is None:
            text = pdfium_text(_visible_text(textpage, keep))
            lines = [line.rstrip() for line in re.split(r"\r\n|\r|\n", text)]
        textpage.close()
        page.close()
        pages.append(lines)
    return pages


def _entry_lines(entries: list[tuple[str, Any]]) -> list[Any]:
    """A page's text and tables as lines (a blank line after each text), each table
    one ``("table", rows)`` item."""
    lines: list[Any] = []
    for kind, value in entries:
        if kind == "text":
            lines.extend([line.rstrip() for line in value.splitlines()] + [""])
        else:
            lines.append(("table", value))
    return lines


#: the most of a page's characters that may lie outside its crop box and be left out
#: as a printer's marks; beyond it the crop box is a clip of the page and all is read
_MARGIN_SHARE = 0.25


def _kept(page: Any, textpage: Any) -> list[bool] | None:
    """Which of a page's characters are read (None: all): those inside its crop box.
    A printer's proof prints crop marks, a slug line (``14773_01_1-174_r9jm.qxd
    2/10/04 3:51 PM Page 20``) and line numbers in the margin that no viewer shows;
    read, they had pushed the running headers off the page's last lines (kept as
    headings on every other page of a book) and joined its paragraphs. Where more
    than a quarter of the page's characters lie outside (a crop box over a few words
    of a paper), nothing is left out: no text is lost to a crop box. The box is the
    part of the page a viewer shows (crop box within media box, either inherited
    from the page tree: pypdfium2's ``get_cropbox()`` and ``get_mediabox()`` read the
    page's own entries alone and fall back to US Letter), so text set off the page,
    which no viewer shows either, is left out the same way (as poppler's
    ``pdftotext`` leaves it out), a word over the edge kept whole."""
    try:
        left, bottom, right, top = (float(v) for v in page.get_bbox())

        def inside(box: tuple[float, float, float, float]) -> bool:
            x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            return left - 1 <= x <= right + 1 and bottom - 1 <= y <= top + 1

        if all(inside(textpage.get_rect(i)) for i in range(textpage.count_rects())):
            return None
        keep = _whole_words(textpage, [inside(textpage.get_charbox(i))
                                       for i in range(textpage.count_chars())])
    except Exception as exc:  # (the boxes are a refinement: the text as read stands)
        reraise_interrupt(exc)
        return None
    if all(keep) or keep.count(False) > _MARGIN_SHARE * len(keep):
        return None  # (or a crop box over a part of the page's text, a clip: all is read)
    return keep


def _whole_words(textpage: Any, keep: list[bool]) -> list[bool]:
    """``keep`` with every word kept whole that has a character kept (a character
    outside set on the line of a kept one next to it: a word set over the page's edge,
    ``Disp|osal``, is read whole, not cut where the edge cuts it), and the spaces and
    line breaks after a kept character."""
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw  # (not the object: ctypes would ask a Python property for it per call)

    out = list(keep)
    space = [chr(pdfium_c.FPDFText_GetUnicode(handle, i)).isspace() for i in range(len(keep))]

    def joined(a: int, b: int) -> bool:  # (b goes on on a's line, at most a height on)
        (_, b0, r0, t0), (l1, b1, _, t1) = ((float(v) for v in textpage.get_charbox(k))
                                            for k in (a, b))
        height = max(t0 - b0, t1 - b1, 1.0)
        return (min(t0, t1) - max(b0, b1) >= 0.5 * min(t0 - b0, t1 - b1)
                and -height <= l1 - r0 <= height)

    for i in range(1, len(keep)):
        if not out[i] and out[i - 1] and (space[i] or not space[i - 1] and joined(i - 1, i)):
            out[i] = True
    for i in range(len(keep) - 2, -1, -1):
        if not out[i] and out[i + 1] and not space[i] and not space[i + 1] and joined(i, i + 1):
            out[i] = True
    return out


def _visible_text(textpage: Any, keep: list[bool] | None) -> str:
    """A page's text as pdfium reads it, less the characters ``keep`` leaves out."""
    if keep is None:
        text: str = textpage.get_text_range()
        return text
    return chars_text(textpage, [i for i, k in enumerate(keep) if k])


def _pdfium_pass(pdf: Any) -> tuple[list[Sized], set[int], dict[int, list[bool]]]:
    """Every page's lines with their font sizes (:func:`pdf_lines.sized_lines`), the
    pages that may hold a table (:func:`pdf_lines.may_hold_table`), and the pages some
    of whose characters are left out (:func:`_kept`: which are read)."""
    sized: list[Sized] = []
    tabled: set[int] = set()
    kept: dict[int, list[bool]] = {}
    for i in range(len(pdf)):
        page = pdf[i]
        textpage = page.get_textpage()
        try:
            keep = _kept(page, textpage)
            if keep is not None:
                kept[i] = keep
            chars = page_chars(textpage, keep)
            sized.extend(sized_lines(chars, i))
            if may_hold_table(page, chars):
                tabled.add(i)
        except Exception as exc:  # (the sizes are a refinement; pdfplumber looks for tables)
            reraise_interrupt(exc)
            tabled.add(i)
        finally:
            textpage.close()
            page.close()
    return sized, tabled, kept


#: pages with tables whose text pdfium reads around them (0-based page: its height and
#: tables), pages with tables read by pdfplumber alone (a rotated page, a media box off
#: the origin: their entries), form fields' values per page
Layout = tuple[dict[int, tuple[float, list[Table]]], dict[int, list[Any]], dict[int, list[str]]]


def _layout(data: bytes, pdf: Any, tabled: set[int]) -> Layout:
    """pdfplumber's view of the pages: tables per 0-based page (of the pages in
    ``tabled``; an unturned page with its media box at the origin, where pdfplumber's
    coordinates are pdfium's from the top, is given its objects as pdfium reads them,
    :func:`pdf_objects.lend`), and the values filled in a form's fields per page
    (:func:`_form_fields`)."""
    import pdfplumber

    placed: dict[int, tuple[float, list[Table]]] = {}
    found: dict[int, list[Any]] = {}
    fields: dict[int, list[str]] = {}
    try:
        with pdfplumber.open(io.BytesIO(data)) as doc:
            for i, page in enumerate(doc.pages[:len(pdf)]):
                try:
                    if filled := _form_fields(page):
                        fields[i] = filled
                except Exception as exc:  # (a damaged field costs the page nothing else)
                    reraise_interrupt(exc)
                if i not in tabled:
                    continue
                aligned = page.rotation == 0 and tuple(page.mediabox[:2]) == (0, 0)
                tables = _page_tables(page, pdf, i, aligned)
                if tables and aligned:
                    placed[i] = (float(page.height), tables)
                elif tables:
                    found[i] = _around_tables(page, tables)
                page.close()  # (its objects, read: a long document's stay out of memory)
    except Exception as exc:  # layout analysis is best effort; text extraction stands alone
        reraise_interrupt(exc)
        return {}, {}, fields
    return placed, found, fields


def _page_tables(plumber_page: Any, pdf: Any, i: int, aligned: bool) -> list[Table]:
    """Page ``i``'s tables (:func:`_tables`), found in pdfium's objects lent to
    pdfplumber's page where the page is ``aligned`` (unturned, its media box at the
    origin); where pdfium's objects cannot be read or fail the table finder,
    pdfplumber interprets the page itself; a page whose tables cannot be found has
    none (the other pages' tables stand)."""
    if aligned:
        page = pdf[i]
        textpage = page.get_textpage()
        try:
            lend(plumber_page, page, textpage)
            return _tables(plumber_page)
        except Exception as exc:  # (pdfplumber reads the page as it always did)
            reraise_interrupt(exc)
            if hasattr(plumber_page, "_objects"):
                del plumber_page._objects
        finally:
            textpage.close()
            page.close()
    try:
        return _tables(plumber_page)
    except Exception as exc:  # (the page's text stands as text)
        reraise_interrupt(exc)
        return []


#: how far past the page's edge a ruled table may reach (points)
_OFF_PAGE = 5.0


def _tables(page: Any) -> list[Table]:
    """A page's tables: pdfplumber's ruled tables of two columns or more with text (a
    figure's or a chart's lines enclose its labels, a box encloses a note: text, no
    table; NIST SP 800-161's boxed notes were "tables" of one column, a row per line)
    and on the page (a drawing's lines clipped by its edges: the page's text in a
    "table" running off it) inside its crop box (a printer's proof: the slug line
    between its crop marks), else borderless ones (:func:`_borderless`)."""
    x0, top, x1, bottom = page.bbox
    crop = page.cropbox
    tables: list[Table] = []
    for t in page.find_tables():
        b = t.bbox
        if b[0] < x0 - _OFF_PAGE or b[1] < top - _OFF_PAGE or b[2] > x1 + _OFF_PAGE or (
                b[3] > bottom + _OFF_PAGE):
            continue
        if not (crop[0] <= (b[0] + b[2]) / 2 <= crop[2] and crop[1] <= (b[1] + b[3]) / 2 <= crop[3]):
            continue  # (a printer's slug line between crop marks, outside the crop box)
        rows = _filled_columns([[c or "" for c in row] for row in t.extract()])
        if rows and len(rows[0]) >= 2:  # (one column: a box around text, read as text)
            tables.append((b, rows))
    if not tables:
        area = page
        if tuple(crop) != tuple(page.bbox):
            try:  # (the crop box's words: a proof's line numbers are no column)
                area = page.within_bbox(crop)
            except ValueError:  # (a crop box reaching past the page: the page's words)
                area = page
        try:
            tables = _borderless(area)
        except Exception as exc:  # best effort: the page's text stands as text
            reraise_interrupt(exc)
            tables = []
    return [t for t in tables if not _letters_apart(t[1])]


def _filled_columns(rows: list[list[str]]) -> list[list[str]]:
    """A ruled table's rows less the columns empty in every row: pdfplumber's grid
    has a column for every vertical line, and a cell spanning several of them leaves
    the rest empty (NIST SP 800-161's allocation tables: ``|  | P1 |  |  | LOW AC-1 |
    |  | MOD AC-1 |  |  | HIGH AC-1 |  |``, 12 columns for 4)."""
    width = max((len(r) for r in rows), default=0)
    rows = [r + [""] * (width - len(r)) for r in rows]
    keep = [j for j in range(width) if any(r[j].strip() for r in rows)]
    return [[r[j] for j in keep] for r in rows]


#: single letters (a few or more) among a table's words from which its text is letters
#: set apart, not words
_APART_SHARE = 0.25


def _letters_apart(rows: list[list[str]]) -> bool:
    """Whether a table's cells read letter by letter: a diagram's turned or curved
    labels inside its frame, which pdfplumber reads as a "table" of single letters
    (NIST SP 800-161's risk-management figure: ``C D o e n te d r u m ct in B a a t s
    io e n``), where pdfium reads their words. Such a region is read as text."""
    words = [w for row in rows for c in row for w in c.split()]
    single = sum(1 for w in words if len(w) == 1 and w.isascii() and w.isalpha()
                 and w not in "aAI")
    return single >= 10 and single > _APART_SHARE * len(words)


def _borderless(page: Any) -> list[Table]:
    """A page's borderless tables (:func:`_aligned_tables`), looked for in each column
    of a page of two (:func:`pdf_bands.gutter`): a figure's labels in one column set
    level with the other column's lines read as a table whose first column was the
    other column's running text (a paper's page)."""
    words = page.extract_words(x_tolerance=1.5, y_tolerance=2)
    x = gutter([_segments(line) for line in _text_lines(words)], float(page.width))
    if x is None:
        return _aligned_tables(words)
    return [table for part in (page.crop((page.bbox[0], page.bbox[1], x, page.bbox[3])),
                               page.crop((x, page.bbox[1], page.bbox[2], page.bbox[3])))
            for table in _aligned_tables(part.extract_words(x_tolerance=1.5, y_tolerance=2))]


def _around_tables(page: Any, tables: list[Any]) -> list[tuple[str, Any]]:
    """A page with tables as pdfplumber reads it (a turned page, or one whose media box
    is off the origin): the text outside the tables in full-width bands (above each
    table; level with it, beside it; below the last) and each table's rows, top to
    bottom. A band of no height is empty (pdfplumber refuses to crop it: a table at
    the page's top, or touching the one before, had lost the whole document's tables
    and headings)."""
    entries: list[tuple[str, Any]] = []
    boxes = [bbox for bbox, _ in tables]

    def outside(obj: dict[str, Any], boxes: list[Any] = boxes) -> bool:
        x = (obj.get("x0", 0) + obj.get("x1", 0)) / 2
        y = (obj.get("top", 0) + obj.get("bottom", 0)) / 2
        return not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)

    free = page.filter(outside)
    x0, top, x1, bottom = page.bbox

    def band(lo: float, hi: float, whole: bool = False) -> str:
        lo, hi = max(lo, page.bbox[1]), min(hi, bottom)
        if lo >= hi:
            return ""
        area = (x0, lo, x1, hi)
        text = (free.within_bbox(area) if whole else free.crop(area)).extract_text()
        return str(text or "")

    for bbox, rows in sorted(tables, key=lambda t: t[0][1]):
        entries.append(("text", band(top, bbox[1])))
        entries.append(("table", rows))
        # the text level with the table, beside it (the other column of a two-column
        # page); wholly inside: a line across its edges is read with the band above
        # or below
        entries.append(("text", band(max(top, bbox[1]), bbox[3], whole=True)))
        top = max(top, min(bottom, bbox[3]))
    entries.append(("text", band(top, bottom)))
    return entries


#: a form field's flags (the annotation's ``F``) that keep it off the page: Hidden, NoView
_UNSEEN = 2 | 32


def _form_fields(page: Any) -> list[str]:
    """``label: value`` of each text or choice field filled in on a page, top to bottom:
    a form's values are in its fields' annotations, not in the page's text, so a filled
    application form read as "its pages are empty" (pdf.js's ``bug1844576.pdf``) and a
    form with printed text lost every answer. The label is the field's description
    (``TU``) or its name (``T``), inherited from its parent field; buttons (check boxes,
    radio buttons) and hidden fields are left out."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.utils import decode_text

    def inherited(d: dict[str, Any], key: str) -> Any:
        for _ in range(16):  # (a field's parents, never a cycle's)
            if d.get(key) is not None:
                return resolve1(d.get(key))
            parent = resolve1(d.get("Parent"))
            if not isinstance(parent, dict):
                return None
            d = parent
        return None

    def text(value: Any) -> str:
        value = resolve1(value)
        if isinstance(value, bytes):
            return " ".join(decode_text(value).split())
        if isinstance(value, str):
            return " ".join(value.split())
        if isinstance(value, list):
            return ", ".join(t for t in map(text, value) if t)
        return ""

    seen: list[str] = []
    for annot in sorted(page.annots, key=lambda a: (round(a.get("top") or 0), a.get("x0") or 0)):
        d = annot.get("data") or {}
        kind = inherited(d, "FT")
        if getattr(kind, "name", None) not in ("Tx", "Ch") or int(d.get("F") or 0) & _UNSEEN:
            continue
        value = text(_shown(inherited(d, "V"), inherited(d, "Opt")))
        if not value:
            continue
        line = f"{text(inherited(d, 'TU')) or text(inherited(d, 'T')) or 'field'}: {value}"
        if line not in seen:  # (a field shown in two places)
            seen.append(line)
    return seen


def _shown(value: Any, options: Any) -> Any:
    """A choice field's value as the form shows it: an option given as ``[export,
    shown]`` is stored by its export value (Tika's ``testPDF_acroform3.pdf`` read
    ``comboExportB`` where the form shows ``comboItemB``)."""
    from pdfminer.pdftypes import resolve1

    pairs = {}
    for option in options if isinstance(options, list) else ():
        option = resolve1(option)
        if isinstance(option, list) and len(option) == 2:
            pairs[resolve1(option[0])] = resolve1(option[1])
    if isinstance(value, list):
        return [pairs.get(resolve1(v), v) for v in value]
    return pairs.get(value, value) if isinstance(value, (bytes, str)) else value


#: a gap between two words on a line wider than this share of their height separates
#: two cells of a borderless table (a space is ~0.25 of it, a monospaced one 0.6; the
#: narrowest column gap of OWASP ASVS's requirement tables 1.1)
_CELL_GAP = 0.9
#: how far left of its label a column's text may start (right-aligned or centred
#: cells); text of the first two columns must end before the next label starts
_COLUMN_SLACK = 8.0


def _text_lines(words: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Words grouped into lines (tops within 3 points: a check mark set a point lower
    than the text beside it is on its line), each sorted left to right."""
    from pdfplumber.utils.clustering import cluster_objects

    return [sorted(line, key=lambda w: w["x0"]) for line in cluster_objects(words, "top", 3)]


def _segments(line: list[dict[str, Any]]) -> list[tuple[float, float, str]]:
    """A line's runs of words separated by cell-wide gaps: (x0, x1, text)."""
    height = sorted(w["bottom"] - w["top"] for w in line)[len(line) // 2]
    out: list[tuple[float, float, str]] = []
    for w in line:
        if out and w["x0"] - out[-1][1] <= _CELL_GAP * height:
            x0, _, text = out[-1]
            out[-1] = (x0, w["x1"], f"{text} {w['text']}")
        else:
            out.append((w["x0"], w["x1"], w["text"]))
    return out


def _header(segments: list[tuple[float, float, str]]) -> bool:
    """A borderless table's header: three cells or more, each a short label."""
    return len(segments) >= 3 and all(len(t) <= 24 and t.count(" ") <= 2
                                      for _, _, t in segments)


def _cells(line: list[dict[str, Any]], edges: list[float]) -> list[str] | None:
    """A table line's text per column (``edges``: where each column after the first
    starts, then infinity), or None for a line that is text, not cells: a run that
    starts in the first two columns and runs past the next one's start (a run in a
    later column may run on: a cell wider than its label)."""
    row = [""] * len(edges)
    for x0, x1, text in _segments(line):
        col = sum(1 for e in edges[:-1] if x0 >= e)
        if col <= 1 and x1 > edges[col] + _COLUMN_SLACK:
            return None
        if col > 1:  # a later cell goes where most of it is
            col = max(col, sum(1 for e in edges[:-1] if (x0 + x1) / 2 >= e))
        row[col] = f"{row[col]} {text}".strip()
    return row


def _rows(cells: list[list[str]]) -> list[list[str]]:
    """Table lines joined into rows: a line with text in the first column starts a
    row and the lines below it without continue its cells; where the first column is
    empty throughout, a line with two cells or more starts a row."""
    by_first = sum(1 for r in cells if r[0]) >= 2
    rows: list[list[str]] = []
    for r in cells:
        if not rows or (r[0] if by_first else sum(1 for c in r if c) >= 2):
            rows.append(r)
        else:
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], r)]
    return rows


def _aligned_tables(words: list[dict[str, Any]]) -> list[Table]:
    """Borderless tables (no ruling lines for pdfplumber to find): a header line of
    three or more short labels set apart by cell-wide gaps, then the lines that are
    cells under its columns (:func:`_cells`) until a line that is text, a wide
    vertical gap or the page's end, joined into rows (:func:`_rows`). Two rows at
    least, two of them with two cells or more, or a single row with four."""
    lines = _text_lines(words)
    found: list[Table] = []
    i = 0
    while i < len(lines):
        head = _segments(lines[i])
        if not _header(head):
            i += 1
            continue
        edges = [x0 - _COLUMN_SLACK for x0, _, _ in head[1:]] + [float("inf")]
        cells: list[list[str]] = []  # per table line, its text per column
        bottom = max(w["bottom"] for w in lines[i])
        j = i + 1
        while j < len(lines):
            height = max(w["bottom"] - w["top"] for w in lines[j])
            row = _cells(lines[j], edges) if lines[j][0]["top"] - bottom <= 3 * height else None
            if row is None:
                break
            cells.append(row)
            bottom = max(w["bottom"] for w in lines[j])
            j += 1
        rows = _rows(cells)
        filled = [sum(1 for c in r if c) for r in rows]
        if (len(rows) >= 2 and sum(1 for n in filled if n >= 2) >= 2) or (
                len(rows) == 1 and filled[0] >= 4):
            bbox = (min(w["x0"] for ln in lines[i:j] for w in ln) - 0.5,
                    min(w["top"] for w in lines[i]) - 0.5,
                    max(w["x1"] for ln in lines[i:j] for w in ln) + 0.5, bottom + 0.5)
            found.append((bbox, [[t for _, _, t in head], *rows]))
            i = j
        else:
            i += 1
    return found


#: a size whose lines run longer than this (characters, as a median) and come mostly
#: three or more in a row is a body's, not a heading's: a paper's 12-point text where
#: its 9-point abstract and notes hold more characters
_HEADING_LINE = 60


def _body_sizes(lines: list[Sized]) -> set[float]:
    """The sizes of running text (:data:`_HEADING_LINE`), whichever holds the most
    characters: a wrapped title's lines are short, a caption's stand alone."""
    lengths: dict[float, list[int]] = {}
    in_runs: Counter[float] = Counter()
    run: list[Sized] = []
    for line in [*lines, None]:
        if line is None or not run or (line.size, line.page) != (run[0].size, run[0].page):
            if len(run) >= 3:
                in_runs[run[0].size] += len(run)
            run = []
        if line is not None:
            run.append(line)
            lengths.setdefault(line.size, []).append(len(line.text))
    return {size for size, n in lengths.items()
            if sorted(n)[len(n) // 2] > _HEADING_LINE and in_runs[size] >= len(n) / 2}


class _Print(NamedTuple):
    """A page's lines set smaller than the body text and the others, each line ended."""

    small: str
    others: str

    def small_only(self, line: str) -> bool:
        """Whether ``line`` is found in small print alone: a figure's labels (pdf.js's
        tracemonkey.pdf: a chart's ``Trace 1 Trace 2``, read around its table as lines
        ``1 Trace``, ``2 Trace``, were numbered headings)."""
        return line in self.small and line not in self.others


#: how much smaller than the body text small print is set
_SMALL = 0.85


def _body_size(lines: list[Sized]) -> float | None:
    """The size most characters are set in (None: no line)."""
    weight: Counter[float] = Counter()
    for line in lines:
        weight[line.size] += line.chars
    return weight.most_common(1)[0][0] if weight else None


def _small_print(lines: list[Sized]) -> dict[int, _Print]:
    """Each page's small print and other lines (:class:`_Print`)."""
    body = _body_size(lines)
    if body is None:
        return {}
    small: dict[int, list[str]] = {}
    others: dict[int, list[str]] = {}
    for line in lines:
        (small if line.size < _SMALL * body else others).setdefault(line.page, []).append(line.text)
    return {page: _Print("\n".join(small.get(page, [])) + "\n", "\n".join(others.get(page, [])) + "\n")
            for page in small}


def _headings_by_size(lines: list[Sized]) -> tuple[dict[int, dict[str, int]],
                                                   dict[int, set[str]]]:
    """Heading lines per page ({page: {line: level}}), told by font size: lines set at
    least 15 % larger than the body text (the size of most characters), short, with
    two letters or more, not ending a sentence, a line of their own (:class:`Sized`),
    upright (unless most of the page is turned), in no size of running text
    (:func:`_body_sizes`); the largest size is level 1; and per page those set close
    under the line above: a heading's wrapped lines."""
    body = _body_size(lines)
    if body is None:
        return {}, {}
    long = _body_sizes(lines)
    sideways = _sideways_pages(lines)
    candidates = [line for line in lines
                  if line.size >= 1.15 * body and line.size not in long and line.alone
                  and (not line.turned or line.page in sideways)
                  and len(line.text) <= 120 and sum(ch.isalpha() for ch in line.text) >= 2
                  and not line.text.endswith(_TERMINAL) and not TOC_LEADER.search(line.text)]
    levels = {size: rank + 1 for rank, size in
              enumerate(sorted({line.size for line in candidates}, reverse=True)[:6])}
    out: dict[int, dict[str, int]] = {}
    wrapped: dict[int, set[str]] = {}
    for line in candidates:
        if line.size in levels:
            out.setdefault(line.page, {})[line.text] = levels[line.size]
            if line.close:
                wrapped.setdefault(line.page, set()).add(line.text)
    return out, wrapped


def _sideways_pages(lines: list[Sized]) -> set[int]:
    """The pages most of whose characters are turned: a page set sideways, whose
    headings are turned with its text (elsewhere a turned line is a figure's axis
    label, a table's turned row label or an arXiv stamp up the margin, no heading)."""
    turned: Counter[int] = Counter()
    inked: Counter[int] = Counter()
    for line in lines:
        inked[line.page] += line.chars
        if line.turned:
            turned[line.page] += line.chars
    return {page for page, n in turned.items() if 2 * n > inked[page]}


#: lines at each end of a page looked at for running headers and footers (a header
#: of a title, the page number and a date is three)
_EDGE_LINES = 3


def _without_text(data: bytes) -> str:
    """Why a PDF gives no text: pages of images (a scan: OCR it), or of drawings alone
    (a logo, a chart: Knative's logos were told to run OCR), or nothing at all."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    kinds: set[int] = set()
    try:
        pdf = pdfium.PdfDocument(data)
        try:
            for i in range(min(len(pdf), 20)):
                kinds.update(obj.type for obj in pdf[i].get_objects(max_depth=8))
        finally:
            pdf.close()
    except Exception as exc:  # (it opened a moment ago: say what is likeliest)
        reraise_interrupt(exc)
        kinds = {raw.FPDF_PAGEOBJ_IMAGE}
    if raw.FPDF_PAGEOBJ_IMAGE in kinds:
        return "PDF has no text layer (scanned images?); run OCR on it first"
    if kinds:
        return "PDF has no text: its pages hold drawings only (a logo, a chart?)"
    return "PDF has no text: its pages are empty"


def _running_lines(pages: list[list[str]]) -> list[set[int]]:
    """Per page, the indices of lines that recur (digits aside) among the first or
    last three lines of a quarter of the pages or more (at least three, and at most
    half of them; two of two or three pages): running headers, footers, page
    numbers. A quarter, not half: a report whose charts and maps fill many pages
    without its header kept it in 24 of 65 pages' text."""
    if len(pages) < 2:
        return [set() for _ in pages]
    edges: Counter[str] = Counter()
    numbers: dict[str, list[tuple[str, ...]]] = {}  # each occurrence's numbers
    folios: dict[str, list[tuple[int, str]]] = {}  # (page, its last number) of each
    folio_first: set[str] = set()  # (lines that start with a number)
    edge_sets = []
    for page, lines in enumerate(pages):
        content_idx = [i for i, line in enumerate(lines) if line.strip()]
        k = min(_EDGE_LINES, max(1, len(content_idx) // 3))  # (a short page is mostly text)
        idx = list(dict.fromkeys(content_idx[:k] + content_idx[-k:]))
        edge_sets.append(idx)
        seen: dict[str, tuple[str, ...]] = {}
        for i in idx:
            seen.setdefault(_normalise(lines[i]), tuple(_DIGITS.findall(lines[i])))
            if lines[i].lstrip()[:1].isdigit():
                folio_first.add(_normalise(lines[i]))
        for line, digits in seen.items():
            edges[line] += 1
            numbers.setdefault(line, []).append(digits)
            if line.endswith("#") and digits:  # (not a line ending in a '#' of its own,
                # a shell prompt at the foot of a page of Valgrind's manual, numberless)
                folios.setdefault(line, []).append((page, digits[-1]))
            elif line in folio_first and line[1:2] != "#":  # the folio first, as
                # LaTeX's books head a left page: "7 1.2. METRISCHE RÄUME"
                folios.setdefault(line, []).append((page, digits[0]))
    n = len(pages)
    threshold = max(2, min((n + 1) // 2, max(3, -(-n // 4))))
    # a page number (or a folio, a date) changes from page to page; where several
    # numbers change it is data (a survey chart's totals row under every chart)
    running = {line for line, count in edges.items() if count >= threshold
               and sum(len(set(col)) > 1 for col in zip(*numbers[line])) <= 1}
    running |= {line for line, seen in folios.items() if _folio_header(line, seen, numbers[line])}
    return [{i for i in idx if _normalise(lines[i]) in running}
            for lines, idx in zip(pages, edge_sets)]


def _folio_header(line: str, seen: list[tuple[int, str]], numbers: list[tuple[str, ...]]) -> bool:
    """A running header that names its chapter, seen on fewer pages than the rule for
    the whole document asks: the same words (two or more) at a page's edge on two
    pages or more, ending in the page's folio, the one number that changes, going up
    with the page (Texinfo's ``Chapter 2: ASN.1 structure handling 3`` on the pages of
    a short chapter)."""
    if len(seen) < 2 or len(_WORDS.findall(line)) < 2:
        return False
    if sum(len(set(col)) > 1 for col in zip(*numbers)) != 1:
        return False
    offsets = {int(folio) - page for page, folio in seen}
    return len(offsets) == 1


_WORDS = re.compile(r"[^\W\d_]{2,}")


def _paragraphs(lines: list[str], page: int, headings: dict[str, int] | None = None,
                wrapped: set[str] | None = None, labels: _Print | None = None) -> list[_Para]:
    """Re-join hard-wrapped lines into paragraphs; repair end-of-line hyphenation;
    lines known as headings (by font size, or numbered, unless in small print:
    ``labels``) stand alone, a heading's wrapped lines (``wrapped``: set close under
    the line above) joined to it."""
    paras: list[_Para] = []
    current: list[str] = []
    widths = sorted(len(line.strip()) for line in lines if line.strip())
    typical = widths[int(len(widths) * 0.8)] if widths else 0

    def close() -> None:
        if current:
            paras.append(_Para(_join(current), page))
            current.clear()

    for n, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            close()
            continue
        key = " ".join(line.split())
        if by_size := (headings or {}).get(key):
            close()
            if key in (wrapped or ()) and _wraps(paras, lines[n - 1] if n else "", line, by_size):
                paras[-1].text = f"{paras[-1].text} {line}"
            else:
                paras.append(_Para(line, page, "heading", by_size))
            continue
        heading = NUMBERED_HEADING.match(line)
        if heading and not line.endswith(_TERMINAL) and len(line) < 80 and not stops_mid_phrase(line) \
                and not _runs_on(line, lines[n + 1:n + 2], typical) \
                and not (labels is not None and labels.small_only(key)):
            close()
            paras.append(_Para(line, page, "heading", heading.group("num").count(".") + 1,
                               numbered=True))
            continue
        if _BULLET.match(line):
            close()
        current.append(line)
        if line.endswith(_TERMINAL) and typical and len(line) < 0.7 * typical:
            close()  # a short line that ends a sentence ends its paragraph
    close()
    return paras


#: the longest heading lines set in one size are joined into (characters)
_WRAPPED_TITLE = 120


def _wraps(paras: list[_Para], before: str, line: str, level: int) -> bool:
    """Whether a heading line (told by its size, set close under the line above) goes
    on the heading of the line before it: a title wrapped over lines of one size (NIST
    SP 800-161's cover: "Supply Chain Risk Management" / "Practices for Federal
    Information" / "Systems and Organizations", three headings, each nested under the
    one before in every trail). Not a numbered line (a section of its own), nor past
    120 characters."""
    last = paras[-1] if paras else None
    return (last is not None and last.kind == "heading" and last.level == level
            and not last.numbered and bool(before.strip()) and last.text.endswith(before.strip())
            and not NUMBERED_HEADING.match(line)
            and len(last.text) + 1 + len(line) <= _WRAPPED_TITLE)


def _runs_on(line: str, after: list[str], typical: int) -> bool:
    """A numbered line set as wide as the page's lines whose sentence goes on in the
    next line (``1. Before our films can be broadcast, the network requires`` over
    ``that all music be cleared``; ``9. See Jessica Litman, Digital Copyright (New
    York: Prometheus Books,`` over ``2001)``): a numbered note or list item, no
    heading."""
    if not typical or len(line) < 0.8 * typical:
        return False
    nxt = after[0].strip()[:1] if after else ""
    last = line.rsplit(None, 1)[-1].lower()
    return nxt.islower() or nxt.isdigit() or nxt in ("(", "[") or \
        line.endswith((",", "(", "-", "\u2013", "\u2014")) or last in MID_PHRASE


def _join(lines: list[str]) -> str:
    out = lines[0]
    for line in lines[1:]:
        if _HYPHEN_END.search(out) and line[:1].islower():
            out = out[:-1] + line
        else:
            out = out + " " + line
    return out


def parse_pdf(data: bytes, doc_id: str, source: str | None = None) -> Document:
    # pdfminer (under pdfplumber) logs font quirks ("Could not get FontBBox ...") as
    # warnings on stderr for every odd PDF; they say nothing about the text
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    name = source or doc_id
    pdf = _open(data, name)
    try:
        info = _info(pdf)
        lines, tabled, kept = _pdfium_pass(pdf)
        headings, wrapped = _headings_by_size(lines)
        labels = _small_print(lines)
        placed, tables, fields = _layout(data, pdf, tabled)
        pages = _page_lines(pdf, placed, kept)
        marks = outline(pdf)
    except Exception as exc:
        reraise_interrupt(exc)
        raise InputError(name, f"cannot extract text from PDF ({exc})") from None
    finally:
        pdf.close()
    for i, entries in tables.items():  # turned pages with tables: pdfplumber's reading
        pages[i] = _entry_lines(entries)
    outlined = outline_headings(pages, marks, headings) if marks else {}
    for i, found in outlined.items():
        headings.setdefault(i, {}).update(found)
    text_only = [[line for line in p if isinstance(line, str)] for p in pages]
    drop = _running_lines(text_only)

    paras: list[_Para] = []
    for i, page in enumerate(pages):
        segment: list[str] = []
        n_text = 0
        for item in page:
            if isinstance(item, tuple):
                paras.extend(_paragraphs(segment, i + 1, headings.get(i), wrapped.get(i), labels.get(i)))
                segment = []
                paras.append(_Para("", i + 1, "table", rows=item[1]))
                continue
            if n_text not in drop[i]:
                segment.append(item)
            n_text += 1
        paras.extend(_paragraphs(segment, i + 1, headings.get(i), wrapped.get(i), labels.get(i)))
        if i in fields:  # a form's filled-in values, after the page's printed text
            paras.append(_Para("\n".join(fields[i]), i + 1, "fields"))

    # paragraphs broken by a page turn are re-joined
    merged: list[_Para] = []
    for p in paras:
        prev = merged[-1] if merged else None
        if (prev is not None and prev.kind == p.kind == "paragraph" and prev.page != p.page
                and p.text[:1].islower() and not prev.text.endswith(_TERMINAL)):
            joined = _join([prev.text, p.text])
            # where the page turns inside the joined paragraph
            offset = len(joined) - len(p.text)
            prev.breaks = (prev.breaks or []) + [(offset, p.page)]
            prev.text = joined
            continue
        merged.append(p)

    out = TextBuilder()
    trail = HeadingTrail()
    page_turns: list[tuple[int, int]] = []
    sized = 0  # the level of the last heading told by font size
    for p in merged:
        if p.kind == "table":
            out.add_table(p.rows or [], trail.path, page=p.page)
        elif p.kind == "heading":
            # a numbered heading in the body's font sits under the last heading set
            # larger (the GNU licence's "11. RELICENSING" in a manual's appendix was
            # level 1, above the manual's title, and every later chapter under it)
            level = (p.level or 1) + sized if p.numbered else (p.level or 1)
            if not p.numbered:
                sized = level
                if p.text in outlined.get(p.page - 1, ()) and (num := _NUMBER.match(p.text)):
                    # an outline's "2. Methods" at level 1: a numbered line under it
                    # that the outline leaves out ("2.4 Results") is level 2, not 3
                    sized = max(0, level - num.group(1).count(".") - 1)
            trail.push(level, p.text)
            out.add_block("heading", p.text, trail.path, page=p.page, level=level)
        elif p.kind == "fields":
            out.add_block("paragraph", p.text, trail.path, page=p.page,
                          metadata={"form_fields": True})
        else:
            block = out.add_block("paragraph", p.text, trail.path, page=p.page)
            if block is not None and p.breaks:
                page_turns.extend((block.start + off, page) for off, page in p.breaks)
    if not out.text.strip():
        raise InputError(name, _without_text(data))
    _check_readable(out.text, out.blocks, name)
    metadata: dict[str, Any] = {"format": "pdf", "pages": len(pages), **info}
    if page_turns:
        metadata["page_turns"] = page_turns
    return Document(text=out.text, doc_id=doc_id, source=source, blocks=tuple(out.blocks),
                    title=info.get("title"), metadata=metadata)


def _glyph_codes(text: str) -> int:
    """How many of ``text``'s characters are glyph codes."""
    return sum(map(len, _UNREADABLE.findall(text)))


def _visible(text: str) -> int:
    """How many of ``text``'s characters are not whitespace."""
    return len(text) - sum(1 for _ in _BLANK.finditer(text))


def _check_readable(text: str, blocks: list[Any], name: str) -> None:
    """A PDF whose text is mostly glyph codes (TeX's Type 3 fonts, a subset font with
    made-up glyph names and no Unicode map: pdf.js's ``TAMReview.pdf`` gave 601 chunks
    of control characters) is refused as one without text is; a few such pages in a
    readable PDF are named in a warning (their chunks match no search)."""
    bad = _glyph_codes(text)
    if not bad:  # (every readable PDF: nothing more is counted)
        return
    visible = _visible(text)
    if bad >= UNREADABLE_SHARE * visible:
        raise InputError(name, f"PDF text is unreadable: {bad / visible:.0%} of its characters are "
                               "glyph codes its fonts map to no letter (no Unicode map); run OCR "
                               "on it first")
    by_page: dict[int, list[int]] = {}
    for block in blocks:
        if block.page is not None:
            counts = by_page.setdefault(block.page, [0, 0])
            part = text[block.start:block.end]
            counts[0] += _glyph_codes(part)
            counts[1] += _visible(part)
    pages = [page for page, (b, v) in sorted(by_page.items()) if b >= 20 and b >= UNREADABLE_SHARE * v]
    if pages:
        shown = ", ".join(map(str, pages[:10])) + (f" and {len(pages) - 10} more" if len(pages) > 10 else "")
        warnings.warn(f"{name}: the text of page{'s' if len(pages) > 1 else ''} {shown} is glyph "
                      "codes its fonts map to no letter (no Unicode map), which no search "
                      "matches; run OCR on the PDF to read it", stacklevel=2)


PDF = Reader(parse_pdf, (".pdf",), binary=True)
