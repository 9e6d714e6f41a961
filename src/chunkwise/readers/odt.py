"""OpenDocument text (``.odt``: LibreOffice, docutils' ``rst2odt``): headings by
outline level, paragraphs, list items, tables as pipe tables, footnotes after the
text; the document's own table of contents and indexes, comments, tracked deletions
and drawings' anchors left out. Title from ``meta.xml``. Offsets are into the
extracted text, as for DOCX. A folder walk passed ``.odt`` files over."""

from __future__ import annotations

import io
import zipfile
from typing import Any
from xml.etree import ElementTree

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
#: paragraph styles that set the document's title (LibreOffice's, docutils')
_TITLE_STYLES = {"title", "rststyle-title"}
#: what is never the document's running text
_SKIP = {f"{_TEXT}table-of-content", f"{_TEXT}alphabetical-index", f"{_TEXT}illustration-index",
         f"{_TEXT}table-index", f"{_TEXT}object-index", f"{_TEXT}user-index",
         f"{_TEXT}bibliography", f"{_TEXT}tracked-changes", f"{_OFFICE}annotation",
         f"{_TEXT}note-citation", f"{_TEXT}sequence-decls", f"{_OFFICE}forms"}


def parse_odt(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        content = ElementTree.fromstring(package.read("content.xml"))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, OSError) as exc:
        raise InputError(name, f"not a readable OpenDocument text ({type(exc).__name__}: "
                               f"{exc})") from None
    reader = _Reader({s.get(f"{_STYLE}name"): s.get(f"{_STYLE}parent-style-name")
                      for s in content.iter(f"{_STYLE}style")})
    for body in content.iter(f"{_OFFICE}text"):
        reader.walk(body)
    for note in reader.notes:
        reader.out.add_block("paragraph", note, ())
    title = _meta_title(package) or reader.title
    return Document(text=reader.out.text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(reader.out.blocks), metadata={"format": "odt"})


def _meta_title(package: zipfile.ZipFile) -> str | None:
    try:
        meta = ElementTree.fromstring(package.read("meta.xml"))
    except (KeyError, ElementTree.ParseError, OSError):
        return None
    found = next(meta.iter(f"{_DC}title"), None)
    text = " ".join((found.text or "").split()) if found is not None else ""
    return text or None


class _Reader:
    def __init__(self, parents: dict[Any, Any]) -> None:
        self.parents = parents  # an automatic style -> the named style it derives from
        self.out = TextBuilder()
        self.trail = HeadingTrail()
        self.title: str | None = None
        self.notes: list[str] = []

    def walk(self, node: Any) -> None:
        for child in node:
            tag = child.tag
            if tag in _SKIP:
                continue
            if tag == f"{_TEXT}h":
                text = self.text(child)
                if text:
                    level = int(child.get(f"{_TEXT}outline-level") or 1)
                    self.trail.push(level, text)
                    self.out.add_block("heading", text, self.trail.path, level=level)
                    self.title = self.title or (text if level == 1 else None)
            elif tag == f"{_TEXT}p" and self.is_title(child):
                text = self.text(child)
                if text:  # the document's title: the root of every trail
                    self.trail.push(0, text)
                    self.out.add_block("heading", text, self.trail.path, level=0)
                    self.title = self.title or text
            elif tag == f"{_TEXT}p":
                self.out.add_block("paragraph", self.text(child), self.trail.path)
            elif tag == f"{_TEXT}list-item":
                self.out.add_block("list_item", "\n".join(
                    t for p in child.iter() if p.tag in (f"{_TEXT}p", f"{_TEXT}h")
                    and (t := self.text(p))), self.trail.path)
            elif tag == f"{_TABLE}table":
                rows = [[" ".join(self.text(p) for p in cell.iter(f"{_TEXT}p"))
                         for cell in row if cell.tag == f"{_TABLE}table-cell"]
                        for row in child.iter(f"{_TABLE}table-row")]
                self.out.add_table(rows, self.trail.path)
            else:  # sections, lists, frames' text boxes: what they hold
                self.walk(child)

    def is_title(self, node: Any) -> bool:
        style = node.get(f"{_TEXT}style-name") or ""
        style = self.parents.get(style) or style
        return style.replace("_20_", " ").lower() in _TITLE_STYLES

    def text(self, node: Any) -> str:
        """An element's words: spaces (``text:s``), tabs and line breaks as written,
        a footnote's body kept for after the text."""
        parts = [node.text or ""]
        for child in node:
            tag = child.tag
            if tag == f"{_TEXT}s":
                parts.append(" " * int(child.get(f"{_TEXT}c") or 1))
            elif tag == f"{_TEXT}tab":
                parts.append("\t")
            elif tag == f"{_TEXT}line-break":
                parts.append("\n")
            elif tag == f"{_TEXT}note":
                body = " ".join(self.text(p) for p in child.iter(f"{_TEXT}p"))
                if body.strip():
                    self.notes.append(body.strip())
            elif tag not in _SKIP:
                parts.append(self.text(child))
            parts.append(child.tail or "")
        return "\n".join(" ".join(line.split()) for line in "".join(parts).split("\n")).strip()


ODT = Reader(parse_odt, (".odt",), binary=True)
