"""A PDF page's lines with their font sizes, and whether it may hold a table, from
pdfium alone.

Font-size headings were told from pdfplumber's lines, and pdfplumber's tables were
looked for on every page: both need pdfplumber to interpret each page's content in
Python, most of the time of reading a PDF (NIST SP 800-161's 282 pages: 49 s, 88 %
of it that pass). pdfium reads each character's size and place in C; here a page's
lines are pdfium's own (the lines its text is read in, so a heading is found in the
text by its line, and a column's heading is a line of its own where pdfplumber's
line ran on into the other column), and pdfplumber is asked for tables only on
pages whose drawn lines or aligned text could make one (:func:`may_hold_table`)."""

from __future__ import annotations

import ctypes
import math
import re
from typing import Any, NamedTuple

from ..errors import reraise_interrupt
from .pdf_bands import PDFIUM_HYPHEN
from .pdf_objects import char_size, page_paths, subpaths


class Sized(NamedTuple):
    """A line of a page, as pdfium reads it."""

    page: int
    #: its words, a space apart: the key the page's text is looked up by
    text: str
    #: its characters' median font size
    size: float
    #: how many characters it inks
    chars: int
    #: set close under a line of its size: its baseline 1 to 1.4 times the size below
    #: the line above's (the gap between the two lines' boxes at most 0.4 of the
    #: size): a line of a paragraph or of a wrapped title; a heading above a heading
    #: stands further apart
    close: bool
    #: a line of its own: pdfium reads no line before or after it on its baseline (a
    #: line broken at an author's superscript mark, a table's cells read one by one)
    alone: bool
    #: set on its side: most of its characters run up or down the page (a figure's
    #: axis label, a table's turned column header, a page set sideways)
    turned: bool = False


#: the most a line's baseline lies below the line above's, as a share of the size,
#: for the line to be set close under it
LEADING = 1.4
#: how near two lines' baselines lie, as a share of the size, to be one baseline
_LEVEL = 0.3

_BREAK = re.compile(r"\r\n|\r|\n")


class _Char:
    """What is read of each character: its code, font size, box (left, bottom,
    right, top)."""

    __slots__ = ("code", "size", "box", "turned")

    def __init__(self, code: int, size: float, box: tuple[float, float, float, float],
                 turned: bool = False) -> None:
        self.code, self.size, self.box, self.turned = code, size, box, turned


def page_chars(textpage: Any, keep: list[bool] | None = None) -> list[_Char | None]:
    """Each character's code, effective font size (the font's size times the text's
    scale: a font set at 1 point and scaled 5.2 times is 5.2) and loose box; None for
    a character ``keep`` leaves out."""
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw  # (not the object: ctypes would ask a Python property for it per call)

    matrix = pdfium_c.FS_MATRIX()
    rect = pdfium_c.FS_RECTF()
    out: list[_Char | None] = []
    for i in range(textpage.count_chars()):
        if keep is not None and not keep[i]:
            out.append(None)
            continue
        code = pdfium_c.FPDFText_GetUnicode(handle, i)
        if code <= 32 or pdfium_c.FPDFText_IsGenerated(handle, i) == 1:
            out.append(_Char(code, 0.0, (0.0, 0.0, 0.0, 0.0)))
            continue
        size, read = char_size(handle, i, matrix)
        turned = read and abs(matrix.b) > abs(matrix.a)
        pdfium_c.FPDFText_GetLooseCharBox(handle, i, ctypes.byref(rect))
        out.append(_Char(code, round(size, 1), (rect.left, rect.bottom, rect.right, rect.top),
                         turned))
    return out


def _resolved(chars: list[_Char | None]) -> tuple[str, list[int]]:
    """The page's text as :func:`pdf_bands.pdfium_text` gives it (hyphen marks
    resolved), and for each of its characters the index of the character it is."""
    text_parts: list[str] = []
    index: list[int] = []
    last = -2
    for i, c in enumerate(chars):
        if c is None:
            continue
        if last != i - 1 and text_parts and text_parts[-1] not in "\r\n" and chr(c.code) not in "\r\n":
            text_parts.append("\n")  # (a run of kept characters breaks: a line ends)
            index.append(-1)
        text_parts.append(chr(c.code) if c.code != 2 else "\ufffe")
        index.append(i)
        last = i
    text = "".join(text_parts)
    out: list[str] = []
    out_index: list[int] = []
    pos = 0
    for m in PDFIUM_HYPHEN.finditer(text):
        out.append(text[pos:m.start()])
        out_index.extend(index[pos:m.start()])
        if not m.group(1):
            out.append("-")
            out_index.append(index[m.start()])
        pos = m.end()
    out.append(text[pos:])
    out_index.extend(index[pos:])
    return "".join(out), out_index


def sized_lines(chars: list[_Char | None], page: int) -> list[Sized]:
    """A page's lines in pdfium's reading order (:class:`Sized`), as its text is split
    into lines."""
    text, index = _resolved(chars)
    found: list[tuple[str, float, int, float, bool]] = []  # text, size, characters, baseline, turned
    pos = 0
    for m in [*_BREAK.finditer(text), None]:
        end = m.start() if m else len(text)
        line = text[pos:end]
        pos = m.end() if m else end
        inked = [c for k in range(end - len(line), end)
                 if index[k] >= 0 and (c := chars[index[k]]) is not None and c.size > 0
                 and not chr(c.code).isspace()]
        if inked:
            sizes = sorted(c.size for c in inked)
            base = sorted(c.box[1] for c in inked)[len(inked) // 2]
            found.append((" ".join(line.split()), sizes[len(sizes) // 2], len(inked), base,
                          2 * sum(c.turned for c in inked) > len(inked)))
    out: list[Sized] = []
    for k, (words, size, n, base, turned) in enumerate(found):
        above = found[k - 1] if k else None
        close = (above is not None and above[1] == size
                 and size <= above[3] - base <= LEADING * size)
        level = any(abs(found[j][3] - base) <= _LEVEL * size for j in (k - 1, k + 1)
                    if 0 <= j < len(found))
        out.append(Sized(page, words, size, n, close, not level, turned))
    return out


#: how near two drawn edges must lie to be one line of a table (pdfplumber's snap and
#: join tolerance) and how long such a line must be (its shortest edge)
_SNAP = 3.0


def _lines_apart(edges: list[tuple[float, float]]) -> int:
    """How many lines ``edges`` (each: its place across, its length) make, edges less
    than :data:`_SNAP` apart counted as one line, a line shorter than that none."""
    count = 0
    run_at, run_length = None, 0.0
    for at, length in sorted(edges):
        if run_at is not None and at - run_at <= _SNAP:
            run_length += length
        else:
            count += run_length >= _SNAP
            run_length = length
        run_at = at
    return count + (run_length >= _SNAP)


#: a drawn edge: where it lies across, where its middle lies along, its length
_Edge = tuple[float, float, float]


def _drawn_edges(page: Any) -> tuple[list[_Edge], list[_Edge]]:
    """A page's drawn straight edges, level and upright (:data:`_Edge`), in the
    page's space: between each point of every subpath and the next (a curve's end
    points, as pdfminer takes them), inside forms too; a slanted line of two points
    counts as upright, as pdfplumber takes it."""
    level: list[_Edge] = []
    upright: list[_Edge] = []
    for obj, mat in page_paths(page):
        for shape, pts in subpaths(obj, mat):
            for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                dx, dy = abs(x1 - x0), abs(y1 - y0)
                if dy <= _FLAT:
                    level.append(((y0 + y1) / 2, (x0 + x1) / 2, dx))
                elif dx <= _FLAT or shape in ("ml", "mlh"):
                    upright.append(((x0 + x1) / 2, (y0 + y1) / 2, dy))
    return level, upright


#: how far from level (or upright) an edge may run and still count as level
_FLAT = 0.5


def may_hold_table(page: Any, chars: list[_Char | None]) -> bool:
    """Whether pdfplumber could find a table on a page: a ruled one of two columns
    needs three upright lines and two level ones inside the crop box (a page with
    turned text: or the other way round, a table set sideways); a borderless one a
    line of three short runs of text set a cell's gap apart (:func:`_aligned_runs`).
    A page with neither is not given to pdfplumber."""
    try:
        if page.get_rotation() % 360:
            return True  # (pdfplumber reads a turned page's words turned)
        level, upright = _drawn_edges(page)
        left, bottom, right, top = (float(v) for v in page.get_bbox())  # (crop box, inherited)
    except Exception as exc:  # (the drawing unread: pdfplumber looks)
        reraise_interrupt(exc)
        return True
    h = _lines_apart([(y, n) for y, x, n in level if left - _SNAP <= x <= right + _SNAP
                      and bottom - _SNAP <= y <= top + _SNAP])
    v = _lines_apart([(x, n) for x, y, n in upright if left - _SNAP <= x <= right + _SNAP
                      and bottom - _SNAP <= y <= top + _SNAP])
    if (h >= 2 and v >= 3) or (h >= 3 and v >= 2 and any(c is not None and c.turned for c in chars)):
        return True
    return _aligned_runs(chars)


#: the least gap between two runs of a line, as a share of the font size, from which
#: pdfplumber may read them as cells (its rule: 0.9 of the words' height; a word's
#: own gap is under 0.3)
_RUN_GAP = 0.8


def _aligned_runs(chars: list[_Char | None]) -> bool:
    """Whether a line of the page (characters whose boxes' bottoms lie within
    :data:`_SNAP` of each other) holds three runs of text set wide apart."""
    inked = sorted((c.box[1], c.box[0], c.box[2], c.size) for c in chars
                   if c is not None and c.size > 0)  # (bottom, left, right, size)
    line: list[tuple[float, float, float]] = []
    bottom = None
    for b, left, right, size in [*inked, (math.inf, 0.0, 0.0, 0.0)]:
        if bottom is None or b - bottom > _SNAP:
            if _runs(sorted(line)) >= 3:
                return True
            line = []
        bottom = b if bottom is None or b - bottom > _SNAP else bottom
        line.append((left, right, size))
    return False


#: the longest run of a borderless table's header (pdf._header: 24 characters)
_LABEL = 24


def _runs(line: list[tuple[float, float, float]]) -> int:
    """How many runs a line's characters (left, right, size; left to right) make, 0
    where one is longer than a header's label."""
    runs, right, length = 1, line[0][1] if line else 0.0, 1
    for (left, r, size), prev_size in zip(line[1:], [c[2] for c in line]):
        if left - right > _RUN_GAP * max(prev_size, size, 1.0):
            runs, length = runs + 1, 0
        length += 1
        if length > _LABEL:
            return 0
        right = max(right, r)
    return runs
