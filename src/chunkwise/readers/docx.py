"""DOCX with python-docx: headings by style (Title, Heading 1-9), paragraphs, list
items (list styles and numbered paragraphs) and tables, in document order. The
document text is the extracted text, blocks joined by blank lines (tables as
pipe tables), as for HTML; offsets index it. Core properties (title, author,
subject, keywords, dates) go to the document's metadata.

A paragraph's text is read from its XML, not from python-docx's ``Paragraph.text``,
which reads only runs and hyperlinks straight under the paragraph: text in content
controls, tracked insertions, smart tags, custom XML, right-to-left runs, simple
fields and ruby was dropped without a word (20 of Apache POI's ~150 readable test
documents lost text, one of them 6,789 characters of tracked insertions), and so were
paragraphs inside content controls and text boxes. Deleted and moved-away text,
field codes, ruby's reading aids and the copy a text box keeps for old readers
(``mc:Fallback``) are not the document's text. Footnotes and endnotes follow the
text, a note a paragraph, as the ODT reader puts them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import InputError
from ..types import Document
from .ooxml import main_part
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE
from .structure import HeadingTrail, TextBuilder

_HEADING = re.compile(r"^heading\s*(\d)$", re.I)

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _TBL, _T, _SDT, _SDT_CONTENT, _TXBX = (f"{_W}{n}" for n in (
    "p", "tbl", "t", "sdt", "sdtContent", "txbxContent"))
#: what a paragraph's text reads as, besides ``w:t``
_CHARACTERS = {f"{_W}tab": "\t", f"{_W}ptab": "\t", f"{_W}br": "\n", f"{_W}cr": "\n",
               f"{_W}noBreakHyphen": "-"}
#: never the text as it reads: deleted and moved-away text, ruby's reading aid, a
#: content control's properties, formatting, and a text box's copy for old readers
_NOT_TEXT = frozenset([f"{_W}{n}" for n in ("del", "moveFrom", "rt", "sdtPr", "sdtEndPr", "pPr",
                                            "rPr", "instrText", "delText")]
                      + ["{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"])
#: wrappers whose content is the document's (at any level: paragraphs, rows, cells, runs)
_WRAPPERS = frozenset(f"{_W}{n}" for n in ("customXml", "ins", "moveTo", "smartTag"))
#: the main parts of documents python-docx reads as any other (it refuses them by their
#: content type alone): macro-enabled documents, templates, macro-enabled templates
_WORD_MAIN = ("application/vnd.ms-word.document.macroEnabled.main+xml",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
              "application/vnd.ms-word.template.macroEnabledTemplate.main+xml")


#: the longest paragraph an outline level alone makes a heading (a letter's subject line
#: is one; a whole paragraph marked level 1 would make every trail under it a paragraph)
_OUTLINE_HEADING_CHARS = 200


def _heading_level(paragraph: Any, style: str, text: str) -> int | None:
    """A heading's level: Title 0, "Heading N" N, else the outline level Word's
    navigation pane shows (the paragraph's own, else its style's or a style it is
    based on), plus one: templates head sections with styles of their own ("Section
    Heading", "Edf Titre 3", "تیتر اول", the UN's "_ H_1") or with Normal text given a
    level (12 of ~150 readable Word documents in Apache POI's and Tika's test files)."""
    if style.lower() == "title":
        return 0  # above Heading 1
    m = _HEADING.match(style.strip())
    if m:
        return int(m.group(1))
    if len(text) > _OUTLINE_HEADING_CHARS:
        return None
    level = _outline_level(paragraph._p.pPr)
    seen = 0
    style_obj = paragraph.style
    while level is None and style_obj is not None and seen < 16:  # (a style's bases)
        level = _outline_level(style_obj.element.pPr)
        style_obj, seen = style_obj.base_style, seen + 1
    return level + 1 if level is not None and level < 9 else None  # (9: body text)


def _outline_level(ppr: Any) -> int | None:
    found = ppr.find(f"{_W}outlineLvl") if ppr is not None else None
    try:
        return int(found.get(f"{_W}val")) if found is not None else None
    except (TypeError, ValueError):
        return None


def _is_list(paragraph: Any) -> bool:
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    if style.lower().startswith("list"):
        return True
    ppr = paragraph._p.pPr
    return ppr is not None and ppr.numPr is not None


def _metadata(doc: Any) -> dict[str, Any]:
    props = doc.core_properties
    meta: dict[str, Any] = {"format": "docx"}
    for key in ("title", "author", "subject", "keywords", "category", "comments"):
        value = getattr(props, key, None)
        if isinstance(value, str) and value.strip():
            meta[key] = value.strip()
    for key, name in (("created", "created"), ("modified", "modified")):
        value = getattr(props, key, None)
        if value is not None:
            meta[name] = value.isoformat()
    return meta


def unwrap(root: Any) -> None:
    """Content controls (``w:sdt``: their ``w:sdtContent``; one still showing its
    placeholder keeps it, as Word shows and prints it: a template's author may have
    written it, POI's ``55966.docx``), tracked insertions and moves,
    custom XML and smart tags replaced by what they hold, at every level (paragraphs,
    table rows and cells, runs), so that python-docx's tables see a form's rows and
    cells (a repeating section wraps rows in content controls) and :func:`content`
    sees every paragraph; their properties go with them."""
    for element in list(root.iter(_SDT, *_WRAPPERS)):
        parent = element.getparent()
        if parent is None:
            continue
        inner = element.find(_SDT_CONTENT) if element.tag == _SDT else element
        kept = [] if inner is None else [c for c in inner if not (
            isinstance(c.tag, str) and c.tag.endswith(("Pr", "}sdtEndPr")))]
        at = parent.index(element)
        parent[at:at + 1] = kept


def content(element: Any) -> Iterator[Any]:
    """The paragraphs (``w:p``) and tables (``w:tbl``) of a body, cell or text box in
    reading order (once :func:`unwrap` has run)."""
    return (child for child in element if child.tag == _P or child.tag == _TBL)


def paragraph_text(p: Any, boxes: list[Any] | None = None) -> str:
    """A paragraph's text as it reads (see the module's note); the text boxes anchored in
    it are appended to ``boxes`` (their text is not the paragraph's)."""
    parts: list[str] = []

    def walk(element: Any) -> None:
        for child in element:
            tag = child.tag
            if tag == _T:
                parts.append(child.text or "")
            elif tag in _CHARACTERS:
                parts.append(_CHARACTERS[tag])
            elif tag == _TXBX:
                if boxes is not None:
                    boxes.append(child)
            elif isinstance(tag, str) and tag not in _NOT_TEXT:  # (comments' tag is not)
                walk(child)

    walk(p)
    return " ".join("".join(parts).split())


def cell_text(cell: Any) -> str:
    """A table cell's text in reading order: its paragraphs, and the rows of tables
    nested in it (cells joined by " / ", rows by "; "), which ``cell.text`` drops."""
    from docx.table import Table

    parts = []
    for element in content(cell._tc):
        if element.tag == _TBL:
            rows = ["/".join(f" {t} " for t in (cell_text(c) for c in row.cells) if t).strip()
                    for row in Table(element, cell).rows]
            parts.append("; ".join(r for r in rows if r))
        else:
            boxes: list[Any] = []
            parts.append(paragraph_text(element, boxes))
            parts.extend(paragraph_text(p) for box in boxes for p in content(box) if p.tag == _P)
    return " ".join(" ".join(parts).split())


def _open(data: bytes, name: str) -> Any:
    """The python-docx document in ``data``, a macro-enabled one or a template too."""
    from docx.opc.constants import CONTENT_TYPE
    from docx.opc.package import OpcPackage
    from docx.opc.part import PartFactory
    from docx.parts.document import DocumentPart

    for content_type in _WORD_MAIN:
        PartFactory.part_type_for.setdefault(content_type, DocumentPart)
    part = main_part(data, name, "DOCX file", lambda f: OpcPackage.open(f).main_document_part)
    if part.content_type not in (CONTENT_TYPE.WML_DOCUMENT_MAIN, *_WORD_MAIN):
        raise InputError(name, f"not a Word document (its main part is {part.content_type})")
    return part.document


def parse_docx(data: bytes, doc_id: str, source: str | None = None) -> Document:
    if data.startswith(OLE_SIGNATURE):  # an old binary .doc named .docx, or a protected file
        from .doc import parse_doc

        return parse_doc(data, doc_id, source)
    document = _open(data, source or doc_id)
    unwrap(document.element.body)
    out = TextBuilder()
    trail = HeadingTrail()
    title = _add_content(out, trail, document.element.body, document.part)
    for note in _notes(document.part):  # (as the ODT reader puts them: after the text)
        out.add_block("paragraph", note, ())
    metadata = _metadata(document)
    return Document(text=out.text, doc_id=doc_id, source=source,
                    title=metadata.get("title") or title, blocks=tuple(out.blocks),
                    metadata=metadata)


#: the parts of footnotes and endnotes (python-docx reads neither), in that order
_NOTE_PARTS = ("footnotes", "endnotes")
#: a notes part's separators (the rule above the notes), not notes
_NOT_NOTES = frozenset(("separator", "continuationSeparator", "continuationNotice"))


def _notes(part: Any) -> list[str]:
    """The text of each footnote, then of each endnote, a note a paragraph: Word keeps
    them in parts of their own, which python-docx does not read (their text was lost)."""
    from lxml import etree

    notes: list[str] = []
    rels = {rel.reltype.rsplit("/", 1)[-1]: rel for rel in part.rels.values() if not rel.is_external}
    for kind in _NOTE_PARTS:
        if kind not in rels:
            continue
        try:
            root = etree.fromstring(rels[kind].target_part.blob)
        except etree.XMLSyntaxError:
            continue  # (a broken notes part does not cost the document its text)
        unwrap(root)
        for note in root:
            if note.get(f"{_W}type") in _NOT_NOTES:
                continue
            text = " ".join(t for t in (paragraph_text(p) for p in content(note)) if t)
            if text:
                notes.append(text)
    return notes


def _add_content(out: TextBuilder, trail: HeadingTrail, element: Any, part: Any) -> str | None:
    """The blocks of a body or text box, in reading order (a text box's after the
    paragraph it is anchored in); the title: the first Title or Heading 1."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    title: str | None = None
    for child in content(element):
        if child.tag == _TBL:
            rows = [[cell_text(cell) for cell in row.cells] for row in Table(child, part).rows]
            out.add_table(rows, trail.path, metadata={"tag": "table"})
            continue
        boxes: list[Any] = []
        text = paragraph_text(child, boxes)
        if text:
            item = Paragraph(child, part)
            style = (item.style.name if item.style is not None else "") or ""
            level = _heading_level(item, style, text)
            if level is not None:
                trail.push(level, text)
                if title is None and level <= 1:
                    title = text
                out.add_block("heading", text, trail.path, level=level,
                              metadata={"style": style})
            else:
                out.add_block("list_item" if _is_list(item) else "paragraph", text, trail.path,
                              metadata={"style": style})
        for box in boxes:  # (read whether or not a title was found: it adds blocks)
            boxed = _add_content(out, trail, box, part)
            title = title or boxed
    return title


DOCX = Reader(parse_docx, (".docx", ".docm", ".dotx", ".dotm"), binary=True)
