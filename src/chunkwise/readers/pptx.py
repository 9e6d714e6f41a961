"""PowerPoint decks (``.pptx``, ``.pptm``) with python-pptx: each slide a section under
its title (a title slide's title, the deck's, at the root of every trail), cited by
its number (a block's ``page`` is the slide's, as a PDF's is its page). On a slide,
shapes in reading order (top to bottom, then left to right; a group's shapes in their
place): a text frame a block, its bullet paragraphs as lines (indented by level), a
table a table (its header row where the table marks one), a chart's data a table
(categories down, series across) under its title, a SmartArt graphic's nodes a line
each, and the speaker notes after the slide's content. Pictures' descriptions are left
out: in real decks they were a web image's title (``YOLT Logo Vector (.AI) Free
Download``) or PowerPoint's own guess (``Afbeelding met binnen, plafond, persoon,
computer Automatisch gegenereerde beschrijving``), not the author's words. Offsets are
into the extracted text, as for DOCX."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import InputError
from ..types import Document
from .ooxml import main_part
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE, cell_text
from .structure import HeadingTrail, TextBuilder

#: core-property titles PowerPoint and python-pptx's template leave in a new deck
_PLACEHOLDER_TITLES = frozenset({"presentation", "powerpoint presentation"})


def parse_pptx(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    deck = _open(data, name)
    out = TextBuilder()
    title: str | None = None  # the title slide's title, else the first slide title
    trail = HeadingTrail()
    deck_title: str | None = None
    try:
        for number, slide in enumerate(deck.slides, 1):
            heading = _title(slide)
            trail.end_at(1)  # (the deck's title, a title slide's, stays)
            if heading:
                level = 0 if number == 1 and _is_title_slide(slide) else 1
                trail.push(level, heading)
                out.add_block("heading", heading, trail.path, page=number, level=level)
                title = title or heading
                deck_title = deck_title or (heading if level == 0 else None)
            for kind, text, rows, header in _slide_content(slide):
                if rows is not None:
                    out.add_table(rows, trail.path, page=number, has_header=header,
                                  metadata={"format": "pptx"})
                else:
                    notes = kind == "notes"  # (a paragraph of the speaker's notes)
                    out.add_block("paragraph" if notes else kind, text, trail.path, page=number,
                                  metadata={"speaker_notes": True} if notes else None)
    except Exception as exc:  # a part broken inside the package (a bad CRC, bad XML)
        raise InputError(name, f"not a readable PowerPoint deck ({type(exc).__name__}: {exc})") \
            from None
    core = deck.core_properties.title if isinstance(deck.core_properties.title, str) else ""
    if core.strip().lower() not in _PLACEHOLDER_TITLES:
        title = deck_title or core.strip() or title
    return Document(text=out.text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(out.blocks),
                    metadata={"format": "pptx", "slides": len(deck.slides)})


#: the main parts of decks: python-pptx reads them all, but its ``Presentation()``
#: refuses a slide show (.ppsx) or a template (.potx) by its content type alone, and
#: knows no macro-enabled slide show or template (read as the others are)
_DECK_MAIN = {
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml",
    "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml",
    "application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml",
    "application/vnd.ms-powerpoint.template.macroEnabled.main+xml",
}


def _open(data: bytes, name: str) -> Any:
    from pptx.opc.package import PartFactory
    from pptx.package import Package
    from pptx.parts.presentation import PresentationPart

    if data.startswith(OLE_SIGNATURE):
        raise InputError(name, "a password-protected deck or an old binary .ppt, not a PPTX "
                               "file: save it as .pptx without a password")
    for content_type in _DECK_MAIN:
        PartFactory.part_type_for.setdefault(content_type, PresentationPart)
    part = main_part(data, name, "PowerPoint deck", lambda f: Package.open(f).main_document_part)
    if part.content_type not in _DECK_MAIN:
        raise InputError(name, f"not a PowerPoint deck (its main part is {part.content_type})")
    return part.presentation


def _title(slide: Any) -> str:
    """The title placeholder's text (none where a picture fills it: POI's
    ``2411-Performance_Up.pptx`` failed whole on it)."""
    shape = slide.shapes.title
    if shape is None or not getattr(shape, "has_text_frame", False):
        return ""
    return " ".join(shape.text_frame.text.split())


def _is_title_slide(slide: Any) -> bool:
    from pptx.enum.shapes import PP_PLACEHOLDER

    shape = slide.shapes.title
    return shape is not None and shape.placeholder_format.type == PP_PLACEHOLDER.CENTER_TITLE


Content = tuple[str, str, list[list[str]] | None, bool]


def _slide_content(slide: Any) -> Iterator[Content]:
    """A slide's blocks after its title: (kind, text, table rows or None, header); its
    number, footer and date placeholders are left out (a number a slide: ``2``,
    ``3``, ... were blocks of their own)."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    furniture = (PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE)
    title = slide.shapes.title
    for shape in _in_reading_order(slide.shapes):
        if title is not None and shape.shape_id == title.shape_id:
            continue
        if shape.is_placeholder and shape.placeholder_format.type in furniture:
            continue
        yield from _shape_content(shape)
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        notes = _frame_text(slide.notes_slide.notes_text_frame)
        if notes:
            yield "notes", notes, None, False


def _in_reading_order(shapes: Iterable[Any]) -> list[Any]:
    return sorted(shapes, key=lambda s: (s.top or 0, s.left or 0))


def _shape_content(shape: Any) -> Iterator[Content]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        for child in _in_reading_order(shape.shapes):
            yield from _shape_content(child)
    elif getattr(shape, "has_table", False):
        table = shape.table
        rows = [[" ".join(cell.text.split()) for cell in row.cells] for row in table.rows]
        yield "table", "", rows, bool(table.first_row) and len(rows) > 1
    elif getattr(shape, "has_chart", False):
        yield from _chart(shape.chart)
    elif shape.has_text_frame:
        text = _frame_text(shape.text_frame)
        if text:
            yield "paragraph", text, None, False
    else:  # a picture, a connector, an embedded object: nothing; SmartArt: its text
        text = _smartart_text(shape)
        if text:
            yield "paragraph", text, None, False


def _smartart_text(shape: Any) -> str:
    """A SmartArt graphic's text, a line a node in the diagram's order, from its data
    part (python-pptx reads no SmartArt; its text is nowhere on the slide itself)."""
    from lxml import etree

    ids = [e.get(f"{{{_R}}}dm") for e in shape._element.iter(f"{{{_DGM}}}relIds")]
    if not ids or not ids[0]:
        return ""
    try:
        root = etree.fromstring(shape.part.related_part(ids[0]).blob)
    except (KeyError, etree.XMLSyntaxError):
        return ""
    lines = []
    for point in root.iterfind(f"{{{_DGM}}}ptLst/{{{_DGM}}}pt"):
        if point.get("type", "node") != "node":  # (the document, connectors, layout points)
            continue
        for paragraph in point.iterfind(f"{{{_DGM}}}t/{{{_A}}}p"):
            text = " ".join("".join(paragraph.itertext()).split())
            if text:
                lines.append(text)
    return "\n".join(lines)


_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _frame_text(frame: Any) -> str:
    """A text frame's paragraphs a line each, indented two spaces a bullet level."""
    lines = []
    for paragraph in frame.paragraphs:
        text = " ".join(paragraph.text.split())
        if text:
            lines.append("  " * (paragraph.level or 0) + text)
    return "\n".join(lines)


def _chart(chart: Any) -> Iterator[Content]:
    """A chart's title, and its data as a table: a row per category, a column a series."""
    if chart.has_title and chart.chart_title.has_text_frame:
        heading = _frame_text(chart.chart_title.text_frame)
        if heading:
            yield "paragraph", heading, None, False
    try:
        categories = [cell_text(c) for c in chart.plots[0].categories] if chart.plots else []
        series = list(chart.series)
        columns = [[cell_text(v) for v in s.values] for s in series]
    except (KeyError, ValueError, TypeError, AttributeError, IndexError, NotImplementedError):
        return  # (a chart python-pptx cannot read the data of, an XY chart: its title alone)
    if not series or not columns:
        return
    length = max(len(categories), *(len(c) for c in columns))
    categories += [""] * (length - len(categories))
    rows = [["", *(str(s.name or "") for s in series)]]
    rows += [[categories[i], *(c[i] if i < len(c) else "" for c in columns)]
             for i in range(length)]
    yield "table", "", rows, True


PPTX = Reader(parse_pptx, (".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm"), binary=True)
