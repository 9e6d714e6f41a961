"""EPUB books (``.epub``, EPUB 2 and 3): the reading order's XHTML documents (the
package's spine, less items marked ``linear="no"``), each read as HTML whole (a
book's chapter has no site chrome), one after another; the book's title, authors
and language from its package metadata. Offsets are into that text, as an HTML
page's are into its extracted text. A folder walk passed books over as archives."""

from __future__ import annotations

import io
import posixpath
import zipfile
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import joined_documents

_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_XHTML = ("application/xhtml+xml", "text/html")
#: the most bytes of one book's documents, uncompressed (a zip bomb is a few kB)
MAX_BYTES = 256 << 20


def parse_epub(data: bytes, doc_id: str, source: str | None = None) -> Document:
    from .html import parse_html

    name = source or doc_id
    try:
        book = zipfile.ZipFile(io.BytesIO(data))
        opf_path = _rootfile(book)
        package = ElementTree.fromstring(book.read(opf_path))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, ValueError, OSError) as exc:
        raise InputError(name, f"not a readable EPUB book ({type(exc).__name__}: {exc})") \
            from None
    items = _reading_order(package, posixpath.dirname(opf_path))
    total = sum(book.getinfo(p).file_size for p in items if p in book.NameToInfo)
    if total > MAX_BYTES:
        raise InputError(name, f"its documents hold more than {MAX_BYTES >> 20} MB")
    chapters = []
    for path in items:
        if path not in book.NameToInfo:
            continue  # listed but missing: the rest of the book is still read
        chapter = parse_html(book.read(path).decode("utf-8", "replace"), doc_id, source,
                             main_content=False)
        if chapter.text.strip():
            chapters.append(chapter)
    text, blocks = joined_documents(chapters)
    meta = _metadata(package)
    return Document(text=text, doc_id=doc_id, source=source, title=meta.get("title"),
                    blocks=blocks, metadata={**meta, "format": "epub", "documents": len(chapters)})


def _rootfile(book: zipfile.ZipFile) -> str:
    """The package document's path, from ``META-INF/container.xml``."""
    container = ElementTree.fromstring(book.read("META-INF/container.xml"))
    for rootfile in container.iter(f"{_CONTAINER}rootfile"):
        path = rootfile.get("full-path")
        if path:
            return path
    raise ValueError("META-INF/container.xml names no package document")


def _reading_order(package: Any, base: str) -> list[str]:
    manifest = {item.get("id"): item for item in package.iter(f"{_OPF}item")}
    out = []
    for ref in package.iter(f"{_OPF}itemref"):
        item = manifest.get(ref.get("idref"))
        if item is None or ref.get("linear") == "no" or item.get("media-type") not in _XHTML:
            continue
        href = unquote((item.get("href") or "").split("#")[0])
        if href:
            out.append(posixpath.normpath(posixpath.join(base, href)))
    return out


def _metadata(package: Any) -> dict[str, Any]:
    def texts(tag: str) -> list[str]:
        return [" ".join((e.text or "").split()) for e in package.iter(f"{_DC}{tag}")
                if (e.text or "").strip()]

    meta: dict[str, Any] = {}
    for key, tag in (("title", "title"), ("language", "language")):
        if found := texts(tag):
            meta[key] = found[0]
    if authors := texts("creator"):
        meta["authors"] = authors
    return meta


EPUB = Reader(parse_epub, (".epub",), binary=True)
