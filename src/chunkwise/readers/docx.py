"""DOCX with python-docx: headings by style (Title, Heading 1-9), paragraphs, list
items (list styles and numbered paragraphs) and tables, in document order. The
document text is the extracted text, blocks joined by blank lines (tables as
pipe tables), as for HTML; offsets index it. Core properties (title, author,
subject, keywords, dates) go to the document's metadata."""

from __future__ import annotations

import io
import re
from typing import Any

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

_HEADING = re.compile(r"^heading\s*(\d)$", re.I)


def _heading_level(style: str) -> int | None:
    if style.lower() == "title":
        return 0  # above Heading 1
    m = _HEADING.match(style.strip())
    return int(m.group(1)) if m else None


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


def cell_text(cell: Any) -> str:
    """A table cell's text in reading order: its paragraphs, and the rows of tables
    nested in it (cells joined by " / ", rows by "; "), which ``cell.text`` drops."""
    from docx.table import Table

    parts = []
    for item in cell.iter_inner_content():
        if isinstance(item, Table):
            rows = ["/".join(f" {t} " for t in (cell_text(c) for c in row.cells) if t).strip()
                    for row in item.rows]
            parts.append("; ".join(r for r in rows if r))
        else:
            parts.append(item.text)
    return " ".join(" ".join(parts).split())


def parse_docx(data: bytes, doc_id: str, source: str | None = None) -> Document:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    name = source or doc_id
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # not a zip, or no word/document.xml in it
        raise InputError(name, f"not a readable DOCX file ({type(exc).__name__}: {exc})") \
            from None
    out = TextBuilder()
    trail = HeadingTrail()
    title: str | None = None
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            text = " ".join(item.text.split())
            if not text:
                continue
            style = (item.style.name if item.style is not None else "") or ""
            level = _heading_level(style)
            if level is not None:
                trail.push(level, text)
                if title is None and level <= 1:
                    title = text
                out.add_block("heading", text, trail.path, level=level,
                              metadata={"style": style})
            elif _is_list(item):
                out.add_block("list_item", text, trail.path, metadata={"style": style})
            else:
                out.add_block("paragraph", text, trail.path, metadata={"style": style})
        elif isinstance(item, Table):
            rows = [[cell_text(cell) for cell in row.cells] for row in item.rows]
            out.add_table(rows, trail.path, metadata={"tag": "table"})
    metadata = _metadata(document)
    return Document(text=out.text, doc_id=doc_id, source=source,
                    title=metadata.get("title") or title, blocks=tuple(out.blocks),
                    metadata=metadata)


DOCX = Reader(parse_docx, (".docx",), binary=True)
