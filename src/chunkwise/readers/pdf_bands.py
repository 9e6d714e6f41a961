"""A PDF page with tables: the text around them as pdfium reads it.

pdfplumber finds a page's tables; the text outside them used to be pdfplumber's too,
read in full-width bands above, beside and below each table. pdfplumber reads a band
line by line across the whole page, so on a two-column page (most papers) each line
held the left column's line and then the right one's, sentence by sentence
interleaved; and with its fixed 3-point word gap it ran tightly set words together
(``Hence,recordingandcompilingatrace``). pdfium reads the rest of the document: here
it reads these pages too, each character inside a table left to the table's rows,
and each table placed where pdfium's reading reaches it (a column's lines before the
next column's, as on every other page), with pdfium's spacing."""

from __future__ import annotations

import re
from typing import Any

#: pdfium marks a hyphen it saw at a line end as U+FFFE (or U+0002); soft hyphens too
PDFIUM_HYPHEN = re.compile(r"[\ufffe\u0002](?:\r?\n)?(?=([a-z])?)")

Box = tuple[float, float, float, float]  # x0, top, x1, bottom: pdfplumber's, from the top
Table = tuple[Box, list[list[str]]]

#: a character outside every table
_OUTSIDE = -1


def pdfium_text(text: str) -> str:
    """pdfium's text with its line-end hyphen marks resolved: a word split there is
    re-joined, anything else keeps ``-``."""
    return PDFIUM_HYPHEN.sub(lambda m: "" if m.group(1) else "-", text)


def char_places(textpage: Any, height: float, tables: list[Table],
                keep: list[bool] | None = None) -> list[tuple[int, float] | None]:
    """Each character's table (its index, or ``_OUTSIDE``) by its centre, with the
    centre's height from the top (None: left out, outside the crop box where
    ``keep`` says so). A character pdfium made up (a space, a line end, a hyphen
    mark) or one without a box goes with the character before it."""
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw  # (not the object: ctypes would ask a Python property for it per call)

    places: list[tuple[int, float] | None] = []
    last: tuple[int, float] | None = None
    for i in range(textpage.count_chars()):
        if keep is not None and not keep[i]:
            places.append(None)
            continue
        left, bottom, right, top = textpage.get_charbox(i)
        code = pdfium_c.FPDFText_GetUnicode(handle, i)
        if (pdfium_c.FPDFText_IsGenerated(handle, i) == 1 or right <= left
                or chr(code).isspace() or code in (0xFFFE, 0x2)):
            places.append(last or (_OUTSIDE, 0.0))
            continue
        x, y = (left + right) / 2, height - (bottom + top) / 2
        inside = [k for k, (b, _) in enumerate(tables) if b[0] <= x <= b[2] and b[1] <= y <= b[3]]
        last = (inside[0] if inside else _OUTSIDE, y)
        places.append(last)
    return places


def chars_text(textpage: Any, indices: list[int]) -> str:
    """The text of the characters at ``indices`` (ascending): pdfium's text of each
    run of consecutive characters, a line end between two runs that meet mid-line
    (what stood between them was a line's end, or a table)."""
    parts: list[str] = []
    i = 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        run: str = textpage.get_text_range(indices[i], j - i + 1)
        if parts and run[:1].strip() and parts[-1][-1:].strip():
            parts.append("\n")
        parts.append(run)
        i = j + 1
    return "".join(parts)


def around_tables(textpage: Any, height: float, tables: list[Table],
                  keep: list[bool] | None = None) -> list[tuple[str, Any]]:
    """A page with tables in pdfium's reading order: its text outside the tables, each
    table's rows (``("table", rows)``) where pdfium reads the table's first character
    (a table it reads nothing of: before the first character below the table's top),
    every character outside the tables once; a column's lines come before the next
    column's, as on a page without tables."""
    places = char_places(textpage, height, tables, keep)
    starts: dict[int, list[int]] = {}  # character index: the tables placed before it
    for k, (box, _) in enumerate(tables):
        inside = next((i for i, p in enumerate(places) if p is not None and p[0] == k), None)
        if inside is None:
            inside = next((i for i, p in enumerate(places)
                           if p is not None and p[0] == _OUTSIDE and p[1] >= box[1]), len(places))
        starts.setdefault(inside, []).append(k)
    entries: list[tuple[str, Any]] = []
    run: list[int] = []
    for i in range(len(places) + 1):
        for k in starts.get(i, ()):
            entries.append(("text", pdfium_text(chars_text(textpage, run))))
            entries.append(("table", tables[k][1]))
            run = []
        if i < len(places) and (p := places[i]) is not None and p[0] == _OUTSIDE:
            run.append(i)
    entries.append(("text", pdfium_text(chars_text(textpage, run))))
    return entries


#: the share of a page's lines that may run across its gutter (a title, a full-width
#: figure's caption) on a page of two columns
_ACROSS_SHARE = 0.25
#: lines of running text (one run of words at least 60 % of the column's width) each
#: column needs before the page counts as two columns
_PROSE_LINES = 5


def gutter(lines: list[list[tuple[float, float, str]]], width: float) -> float | None:
    """Where a page of two columns of running text divides (``lines``: each line's
    runs of words, ``(x0, x1, text)``, left to right), or None: the point of the
    page's middle fifth that the fewest lines run across, when at most a quarter do,
    and each side holds five lines or more of running text that fill most of its
    column. A table's rows have runs on both sides too, but short ones, and its
    description cells run across the middle: a table is no column."""
    if not lines:
        return None
    left_edge = min(line[0][0] for line in lines)
    right_edge = max(line[-1][1] for line in lines)
    best: tuple[int, float] | None = None
    for step in range(41):
        x = width * (0.4 + step * 0.005)
        across = sum(1 for line in lines if any(x0 < x < x1 for x0, x1, _ in line))
        if best is None or across < best[0]:
            best = (across, x)
    assert best is not None
    across, x = best
    if across > _ACROSS_SHARE * len(lines):
        return None

    def prose(runs: list[tuple[float, float, str]], span: float) -> bool:
        return len(runs) == 1 and runs[0][1] - runs[0][0] >= 0.6 * span

    left = sum(1 for line in lines if prose([r for r in line if r[1] <= x], x - left_edge))
    right = sum(1 for line in lines if prose([r for r in line if r[0] >= x], right_edge - x))
    return x if left >= _PROSE_LINES and right >= _PROSE_LINES else None
