"""OpenDocument text (``.odt``: LibreOffice, docutils' ``rst2odt``): headings by
outline level, paragraphs, list items, tables as pipe tables, footnotes after the
text; the document's own table of contents and indexes, comments, tracked deletions
and drawings' anchors left out. Title from ``meta.xml``. Offsets are into the
extracted text, as for DOCX. A folder walk passed ``.odt`` files over.

OpenDocument presentations (``.odp``: LibreOffice Impress) as PowerPoint decks are
read: each slide a section under its title, every block's page the slide's number,
its frames' text boxes, lists and tables in document order, the speaker notes a
paragraph after them. A folder walk passed ``.odp`` files over."""

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
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_PRESENTATION = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
#: paragraph styles that set the document's title (LibreOffice's, docutils')
_TITLE_STYLES = {"title", "rststyle-title"}
#: what is never the document's running text
_SKIP = {f"{_TEXT}table-of-content", f"{_TEXT}alphabetical-index", f"{_TEXT}illustration-index",
         f"{_TEXT}table-index", f"{_TEXT}object-index", f"{_TEXT}user-index",
         f"{_TEXT}bibliography", f"{_TEXT}tracked-changes", f"{_OFFICE}annotation",
         f"{_TEXT}note-citation", f"{_TEXT}sequence-decls", f"{_OFFICE}forms"}


def _open(data: bytes, name: str, what: str) -> tuple[zipfile.ZipFile, Any, _Reader]:
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        content = ElementTree.fromstring(package.read("content.xml"))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, OSError) as exc:
        raise InputError(name, f"not a readable OpenDocument {what} ({type(exc).__name__}: "
                               f"{exc})") from None
    return package, content, _Reader({s.get(f"{_STYLE}name"): s.get(f"{_STYLE}parent-style-name")
                                      for s in content.iter(f"{_STYLE}style")})


def parse_odt(data: bytes, doc_id: str, source: str | None = None) -> Document:
    package, content, reader = _open(data, source or doc_id, "text")
    for body in content.iter(f"{_OFFICE}text"):
        reader.walk(body)
    for note in reader.notes:
        reader.out.add_block("paragraph", note, ())
    title = _meta_title(package) or reader.title
    return Document(text=reader.out.text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(reader.out.blocks), metadata={"format": "odt"})


def parse_odp(data: bytes, doc_id: str, source: str | None = None) -> Document:
    package, content, reader = _open(data, source or doc_id, "presentation")
    deck_title = _meta_title(package)
    for number, slide in enumerate(content.iter(f"{_DRAW}page"), start=1):
        reader.page = number
        frames = list(slide)
        title = next((reader.text(f) for f in frames
                      if f.get(f"{_PRESENTATION}class") == "title"), "")
        reader.trail = HeadingTrail()  # (a slide without a title is under no other's)
        if title:
            reader.trail.push(1, title)
            reader.out.add_block("heading", title, reader.trail.path, page=number, level=1)
        for frame in frames:
            if frame.get(f"{_PRESENTATION}class") == "title" or frame.tag in _NOT_ON_SLIDE:
                continue
            reader.walk_frame(frame)
        for notes in slide.iter(f"{_PRESENTATION}notes"):
            said = " ".join(t for p in notes.iter(f"{_TEXT}p") if (t := reader.text(p)))
            reader.out.add_block("paragraph", said, reader.trail.path, page=number,
                                 metadata={"speaker_notes": True})
    first = next((b for b in reader.out.blocks if b.kind == "heading"), None)
    found = deck_title or (reader.out.text[first.start:first.end] if first else None)
    return Document(text=reader.out.text, doc_id=doc_id, source=source, title=found,
                    blocks=tuple(reader.out.blocks), metadata={"format": "odp"})


#: what a slide holds that is not its content: the speaker notes (read after it), forms
_NOT_ON_SLIDE = frozenset((f"{_PRESENTATION}notes", f"{_OFFICE}forms"))


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
        self.page: int | None = None  # a presentation's slide

    def walk_frame(self, frame: Any) -> None:
        """A slide's frame or shape: its text boxes' paragraphs, lists and tables (a
        shape's own paragraphs too), a group's shapes in order."""
        if frame.tag == f"{_TEXT}p":
            self.out.add_block("paragraph", self.text(frame), self.trail.path, page=self.page)
        elif frame.tag in (f"{_TEXT}list", f"{_TABLE}table"):
            self.walk_children([frame])
        else:
            for child in frame:
                self.walk_frame(child)

    def walk_children(self, children: list[Any]) -> None:
        holder = ElementTree.Element("holder")
        holder.extend(children)
        self.walk(holder)

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
                    self.out.add_block("heading", text, self.trail.path, level=level,
                                       page=self.page)
                    self.title = self.title or (text if level == 1 else None)
            elif tag == f"{_TEXT}p" and self.is_title(child):
                text = self.text(child)
                if text:  # the document's title: the root of every trail
                    self.trail.push(0, text)
                    self.out.add_block("heading", text, self.trail.path, level=0)
                    self.title = self.title or text
            elif tag == f"{_TEXT}p":
                self.out.add_block("paragraph", self.text(child), self.trail.path, page=self.page)
            elif tag == f"{_TEXT}list-item":
                self.out.add_block("list_item", "\n".join(
                    t for p in child.iter() if p.tag in (f"{_TEXT}p", f"{_TEXT}h")
                    and (t := self.text(p))), self.trail.path, page=self.page)
            elif tag == f"{_TABLE}table":
                rows = [[" ".join(self.text(p) for p in cell.iter(f"{_TEXT}p"))
                         for cell in row if cell.tag == f"{_TABLE}table-cell"]
                        for row in child.iter(f"{_TABLE}table-row")]
                self.out.add_table(rows, self.trail.path, page=self.page)
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
ODP = Reader(parse_odp, (".odp",), binary=True)
