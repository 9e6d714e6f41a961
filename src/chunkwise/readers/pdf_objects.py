"""A PDF page's characters and drawn shapes as pdfplumber's objects, read by pdfium.

pdfplumber finds tables in a page's objects (characters, rectangles, lines, curves),
which it has pdfminer interpret from the page's content in Python: most of the time
of reading a PDF with tables (NIST SP 800-161: 86 of 106 s under cProfile, on the 140
pages that may hold one). pdfium reads the same objects in C; here they are written
as pdfplumber's dictionaries, in its coordinates (from the page's top), and given to
the page (:func:`lend`), so that pdfplumber's table finder and word extraction work
on them unchanged. Paths are split into subpaths and told apart as pdfminer does: a
subpath of two points is a line, a closed one of four points at right angles a
rectangle, any other a curve through its points."""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from typing import Any

Obj = dict[str, Any]

#: how near two coordinates are to be one (pdfminer compares them exactly; pdfium's
#: points are single-precision)
_SAME = 1e-3


def _box(x0: float, x1: float, top: float, bottom: float, height: float, doctop: float,
         kind: str, page_number: int) -> Obj:
    """A pdfplumber object's geometry (``top`` and ``bottom`` from the page's top)."""
    return {"object_type": kind, "page_number": page_number, "x0": x0, "x1": x1,
            "top": top, "bottom": bottom, "doctop": doctop + top, "width": x1 - x0,
            "height": bottom - top, "y0": height - bottom, "y1": height - top}


def char_size(textpage: Any, i: int, matrix: Any) -> tuple[float, bool]:
    """Character ``i``'s effective font size, the font's size times its text's scale
    (``FPDFText_GetFontSize`` alone gives 1.0 for a font set at 1 point and scaled 5.2
    times), and whether its matrix was read into ``matrix`` (an ``FS_MATRIX``)."""
    import pypdfium2.raw as pdfium_c

    size: float = pdfium_c.FPDFText_GetFontSize(textpage, i)
    if pdfium_c.FPDFText_GetMatrix(textpage, i, matrix):
        return size * math.hypot(matrix.c, matrix.d), True
    return size, False


def _chars(textpage: Any, height: float, doctop: float, page_number: int) -> list[Obj]:
    """The page's characters (pdfium's made-up line ends left out, its made-up spaces
    kept where a word ends), each box as pdfminer makes it: from the origin to the
    advance, the font's size tall from its descent; a hyphen pdfium marked at a
    line's end is a hyphen."""
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw  # (not the object: ctypes would ask a Python property for it per call)

    matrix = pdfium_c.FS_MATRIX()
    rect = pdfium_c.FS_RECTF()
    out: list[Obj] = []
    last: Obj | None = None  # the character before, on this line
    for i in range(textpage.count_chars()):
        code = pdfium_c.FPDFText_GetUnicode(handle, i)
        if code in (10, 13):
            last = None
            continue
        if pdfium_c.FPDFText_IsGenerated(handle, i) == 1:
            if code == 32 and last is not None:  # a space where pdfium saw a word end:
                # one at the end of the word before (pdfplumber's 3-point rule ran
                # tightly set words together: "Accounting,and")
                space = dict(last, text=" ", x0=last["x1"], width=0.0, adv=0.0)
                out.append(space)
            continue
        size, read = char_size(handle, i, matrix)
        upright = not read or (matrix.a * matrix.d > 0 and matrix.b * matrix.c <= 0)
        pdfium_c.FPDFText_GetLooseCharBox(handle, i, ctypes.byref(rect))
        x0, x1 = min(rect.left, rect.right), max(rect.left, rect.right)
        bottom_y = min(rect.bottom, rect.top)
        top_y = bottom_y + size if upright else max(rect.bottom, rect.top)
        char = _box(x0, x1, height - top_y, height - bottom_y, height, doctop, "char", page_number)
        char.update(text="-" if code in (2, 0xFFFE) else chr(code), size=size, upright=upright,
                    fontname="", adv=x1 - x0, matrix=(matrix.a, matrix.b, matrix.c, matrix.d,
                                                     matrix.e, matrix.f),
                    stroking_color=None, non_stroking_color=None)
        out.append(char)
        last = char
    return out


def subpaths(obj: Any, mat: tuple[float, ...]) -> list[tuple[str, list[tuple[float, float]]]]:
    """A path's subpaths as pdfminer's shapes (``m``, ``l``, ``c``, ``h`` a point each,
    a Bézier curve's control points left out) and points, in the page's space."""
    import pypdfium2.raw as pdfium_c

    a, b, c, d, e, f = mat
    x, y = ctypes.c_float(), ctypes.c_float()
    out: list[tuple[str, list[tuple[float, float]]]] = []
    shape, bezier = "", 0
    points: list[tuple[float, float]] = []
    for k in range(pdfium_c.FPDFPath_CountSegments(obj)):
        seg = pdfium_c.FPDFPath_GetPathSegment(obj, k)
        pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
        p = (x.value * a + y.value * c + e, x.value * b + y.value * d + f)
        kind = pdfium_c.FPDFPathSegment_GetType(seg)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not shape:
            if shape:
                out.append((shape, points))
            shape, points, bezier = "m", [p], 0
        elif kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            bezier += 1
            if bezier % 3 == 0:
                shape, points = shape + "c", [*points, p]
        else:
            shape, points = shape + "l", [*points, p]
        if pdfium_c.FPDFPathSegment_GetClose(seg):
            shape, points = shape + "h", [*points, points[0]]
    if shape:
        out.append((shape, points))
    return out


def _shape(shape: str, pts: list[tuple[float, float]], height: float, doctop: float,
           page_number: int) -> tuple[str, Obj] | None:
    """A subpath as pdfplumber's ``line``, ``rect`` or ``curve`` (None: no shape)."""
    if len(shape) > 3 and shape[-2:] == "lh" and _near(pts[-2], pts[0]):
        shape, pts = shape[:-2] + "h", [*pts[:-2], pts[-1]]
    if len(pts) < 2:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    if shape in ("mlh", "ml"):
        kind = "line"
    elif shape in ("mlllh", "mllll") and _near(pts[0], pts[4]) and _square(pts):
        kind = "rect"
    else:
        kind = "curve"
    obj = _box(min(xs), max(xs), height - max(ys), height - min(ys), height, doctop, kind,
               page_number)
    if kind == "line":
        pts = pts[:2]
    if kind != "rect":
        obj["pts"] = [(px, height - py) for px, py in pts]
    return kind, obj


def _near(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return abs(p[0] - q[0]) <= _SAME and abs(p[1] - q[1]) <= _SAME


def _square(pts: list[tuple[float, float]]) -> bool:
    """Four points at right angles, their sides level and upright."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts[:4]

    def eq(u: float, v: float) -> bool:
        return abs(u - v) <= _SAME

    return (eq(x0, x1) and eq(y1, y2) and eq(x2, x3) and eq(y3, y0)) or (
        eq(y0, y1) and eq(x1, x2) and eq(y2, y3) and eq(x3, x0))


#: a matrix (a, b, c, d, e, f), PDF's order
Matrix = tuple[float, float, float, float, float, float]


def page_paths(page: Any) -> Iterator[tuple[Any, Matrix]]:
    """Each path object of a page (inside forms too, eight deep at most) with the
    matrix that takes its points to the page's space."""
    import pypdfium2.raw as pdfium_c

    m = pdfium_c.FS_MATRIX()

    def walk(obj: Any, outer: Matrix, depth: int) -> Iterator[tuple[Any, Matrix]]:
        pdfium_c.FPDFPageObj_GetMatrix(obj, m)
        a, b, c, d, e, f = (m.a, m.b, m.c, m.d, m.e, m.f)
        oa, ob, oc, od, oe, of = outer
        mat = (a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od,
               e * oa + f * oc + oe, e * ob + f * od + of)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
            for k in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
                yield from walk(pdfium_c.FPDFFormObj_GetObject(obj, k), mat, depth + 1)
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            yield obj, mat

    for k in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        yield from walk(pdfium_c.FPDFPage_GetObject(page.raw, k), (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0)


def _shapes(page: Any, height: float, doctop: float, page_number: int) -> dict[str, list[Obj]]:
    """The page's painted paths (inside forms too) as lines, rectangles and curves."""
    out: dict[str, list[Obj]] = {"line": [], "rect": [], "curve": []}
    for obj, mat in page_paths(page):
        for shape, pts in subpaths(obj, mat):
            if (found := _shape(shape, pts, height, doctop, page_number)) is not None:
                out[found[0]].append(found[1])
    return out


def lend(plumber_page: Any, page: Any, textpage: Any) -> None:
    """Give a pdfplumber page (unturned, its media box at the origin: coordinates as
    pdfium's) its objects as pdfium reads them, so that pdfplumber does not interpret
    the page."""
    height = float(plumber_page.height)
    doctop = float(plumber_page.initial_doctop)
    number = int(plumber_page.page_number)
    objects = _shapes(page, height, doctop, number)
    objects["char"] = _chars(textpage, height, doctop, number)
    plumber_page._objects = {kind: objs for kind, objs in objects.items() if objs}
