"""Web pages saved as one file. MHTML (``.mhtml``, ``.mht``: MIME HTML, RFC 2557): what
Chrome and Edge write for "Webpage, Single File", Internet Explorer and Word for
"Single File Web Page", Excel for a "Web Archive", and what Confluence's "Export to
Word" and other web applications write as a ``.doc``. The file is a MIME message:
its page (the part ``start`` names, else the first HTML part) is read by the HTML
reader, site chrome left out as for a saved ``.html`` page; its images, style
sheets and scripts are not read. Read as text before, such a file was its MIME
source: quoted-printable HTML (``=3D``, soft line breaks inside words), then chunks
of base64.

A frameset page, which holds no text of its own (a framed site, Excel's sheets), is
read as its frames' pages one after another; an inline frame's page (an
advertisement, an embedded player or a comment box in most saved pages) is not read,
as a browser's reader view does not. The page's address (``Snapshot-Content-Location``
or the part's ``Content-Location``) and the date it was saved go to the document's
metadata; the title is the page's, else the message's subject. Offsets are into the
extracted text, as for an HTML page.

Safari's web archives (``.webarchive``: a property list of the main resource, its
subresources and its frames' archives) are read the same way, with the standard
library's ``plistlib``: the main resource's page in the encoding the archive names,
a frameset's frames from its subframe archives. A folder walk passed them over as
binary data."""

from __future__ import annotations

import html
import plistlib
import re
from email.errors import MessageError
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from typing import Any
from urllib.parse import urljoin

from ..errors import InputError
from ..types import Document
from .decoding import codec
from .reader import Reader
from .structure import joined_documents

#: the most frames a frameset page's frames are followed through
MAX_FRAME_DEPTH = 4
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_FRAMESET = re.compile(r"<frameset\b", re.I)


def parse_mhtml(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    if not data.strip():
        return Document(text="", doc_id=doc_id, source=source, metadata={"format": "mhtml"})
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):  # a page saved under the name
        return _page(data, None, doc_id, source)
    try:
        # (the compat32 policy: the default one's header objects took 13 s where this
        # takes 1.3 s on a file of 100,000 parts)
        message = BytesParser().parsebytes(data)
    except (ValueError, TypeError, IndexError, LookupError, MessageError) as e:
        raise InputError(name, f"cannot be read as a saved web page (MIME: {e})") from None
    parts = list(message.walk()) if message.is_multipart() else [message]
    leaves = [p for p in parts if not p.is_multipart()]
    root = _root(message, leaves)
    if root is None:
        kinds = sorted({p.get_content_type() for p in leaves})
        raise InputError(name, "no web page in this saved page (its parts: "
                               f"{', '.join(kinds) or 'none'})")
    meta: dict[str, Any] = {}
    if url := _header(message, "Snapshot-Content-Location") or _header(root, "Content-Location"):
        meta["url"] = url
    if saved := _header(message, "Date"):
        meta["saved"] = saved
    subject = _header(message, "Subject") or None
    if root.get_content_type() not in _HTML_TYPES:  # a saved text file
        from . import parse

        doc = parse(_payload(root), name, "text", _charset(root), doc_id)
        return Document(text=doc.text, doc_id=doc_id, source=source, title=subject,
                        blocks=doc.blocks, metadata={**meta, "format": "mhtml"})
    doc = _with_frames(root, leaves, doc_id, source, 0, set())
    return Document(text=doc.text, doc_id=doc_id, source=source, title=doc.title or subject,
                    blocks=doc.blocks, metadata={**doc.metadata, **meta, "format": "mhtml"})


def _root(message: Message, leaves: list[Message]) -> Message | None:
    """The page: the part whose Content-ID the ``start`` parameter names, else the
    first HTML part, else a lone text part."""
    start = message.get_param("start") if message.is_multipart() else None
    if isinstance(start, str) and start.strip("<> "):
        wanted = start.strip("<> ")
        for part in leaves:
            if (_header(part, "Content-ID") or "").strip("<> ") == wanted:
                return part
    for part in leaves:
        if part.get_content_type() in _HTML_TYPES:
            return part
    texts = [p for p in leaves if p.get_content_maintype() == "text"]
    return texts[0] if len(texts) == 1 and texts[0].get_content_type() == "text/plain" else None


def _with_frames(part: Message, leaves: list[Message], doc_id: str, source: str | None,
                 depth: int, seen: set[int]) -> Document:
    """A page, or, for a frameset page with no text of its own, its frames' pages."""
    seen.add(id(part))
    raw = _payload(part)
    doc = _page(raw, _charset(part), doc_id, source, _header(part, "Content-Location"))
    if doc.text.strip() or depth >= MAX_FRAME_DEPTH:
        return doc
    markup = raw.decode("utf-8", "replace")
    if _FRAMESET.search(markup) is None:
        return doc
    base = _header(part, "Content-Location") or ""
    frames = []
    for src in _frame_sources(markup):
        target = _part_for(src, base, leaves)
        if target is not None and id(target) not in seen \
                and target.get_content_type() in _HTML_TYPES:
            frame = _with_frames(target, leaves, doc_id, source, depth + 1, seen)
            if frame.text.strip():
                frames.append(frame)
    return _framed(doc, frames)


def _framed(page: Document, frames: list[Document]) -> Document:
    """A frameset page as its frames' pages one after another (the page itself when
    none has text)."""
    if not frames:
        return page
    text, blocks = joined_documents(frames)
    return Document(text=text, doc_id=page.doc_id, source=page.source, title=page.title,
                    blocks=blocks, metadata={**page.metadata, "frames": len(frames)})


def _frame_sources(markup: str) -> list[str]:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(markup)
    return [src for node in tree.css("frame") if (src := (node.attributes.get("src") or "").strip())]


def _part_for(src: str, base: str, leaves: list[Message]) -> Message | None:
    """The part a frame's ``src`` names: ``cid:`` a Content-ID (Chrome), else an
    address, as written or resolved against the page's (Internet Explorer, Excel)."""
    if src.lower().startswith("cid:"):
        wanted = src[4:].strip("<> ")
        return next((p for p in leaves if (_header(p, "Content-ID") or "").strip("<> ") == wanted),
                    None)
    addresses = {src, urljoin(base, src)} if base else {src}
    return next((p for p in leaves if _header(p, "Content-Location") in addresses), None)


def _page(raw: bytes, charset: str | None, doc_id: str, source: str | None,
          url: str = "") -> Document:
    """One HTML part read by the HTML reader, decoded as the part's charset says,
    else as the page's ``<meta charset>`` says (Chrome names no charset in the part).
    A link to a place in the page itself, which the browser wrote with the page's
    address (``href="https://host/page.html#usage"``), is written as the page had it
    (``href="#usage"``): the HTML reader knows a heading's permalink (Sphinx's ``¶``)
    by it."""
    from . import parse

    if url and "#" not in url:
        for address in {url, html.escape(url)}:
            for quote in (b'"', b"'"):
                raw = raw.replace(b"href=" + quote + address.encode("utf-8", "replace") + b"#",
                                  b"href=" + quote + b"#")
    return parse(raw, source or doc_id, "html", charset, doc_id)


def _payload(part: Message) -> bytes:
    """A part's bytes, its transfer encoding (quoted-printable, base64) undone."""
    raw = part.get_payload(decode=True)
    if isinstance(raw, bytes):
        return raw
    payload = part.get_payload()
    return payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""


def _charset(part: Message) -> str | None:
    """The charset a part's Content-Type names (see :func:`_known_charset`)."""
    return _known_charset(part.get_content_charset())


def _known_charset(charset: str | None) -> str | None:
    """Python's codec for the charset a page's container names (``decoding.codec``);
    none for an unknown label (the page's own ``<meta charset>`` decides) and for
    US-ASCII, which the MIME default and careless writers give to pages in UTF-8 or
    Windows-1252."""
    name = codec(charset) if charset else None
    return None if name in (None, "ascii") else name


def _header(part: Message, name: str) -> str:
    """A header's value, its encoded words (``=?utf-8?Q?...?=``) decoded."""
    value = part.get(name)
    if value is None:
        return ""
    try:
        value = str(make_header(decode_header(str(value))))
    except (ValueError, TypeError, IndexError, LookupError, MessageError, UnicodeError):
        value = str(value)
    return " ".join(value.split())


def parse_webarchive(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    if not data.strip():
        return Document(text="", doc_id=doc_id, source=source, metadata={"format": "webarchive"})
    try:
        archive = plistlib.loads(data)
    except (plistlib.InvalidFileException, ValueError, TypeError, IndexError, KeyError,
            OverflowError, UnicodeError) as e:
        raise InputError(name, f"not a readable web archive ({type(e).__name__}: {e})") from None
    main = archive.get("WebMainResource") if isinstance(archive, dict) else None
    if not isinstance(main, dict):
        raise InputError(name, "not a web archive (no WebMainResource in its property list)")
    doc = _archived_page(archive, doc_id, source, 0)
    meta: dict[str, Any] = {"format": "webarchive"}
    if isinstance(url := main.get("WebResourceURL"), str) and url:
        meta["url"] = url
    return Document(text=doc.text, doc_id=doc_id, source=source, title=doc.title,
                    blocks=doc.blocks, metadata={**doc.metadata, **meta})


def _archived_page(archive: dict[str, Any], doc_id: str, source: str | None,
                   depth: int) -> Document:
    """An archive's main resource read as a page (a frameset's: its frames' archives
    one after another)."""
    main = archive.get("WebMainResource")
    main = main if isinstance(main, dict) else {}
    raw = main.get("WebResourceData")
    raw = raw if isinstance(raw, bytes) else b""
    mime = str(main.get("WebResourceMIMEType") or "text/html").lower()
    label = main.get("WebResourceTextEncodingName")
    charset = _known_charset(label if isinstance(label, str) else None)
    from . import parse

    if mime not in _HTML_TYPES:
        if not mime.startswith("text/"):
            raise InputError(source or doc_id, f"no web page in this web archive (its page is {mime})")
        return parse(raw, source or doc_id, "text", charset, doc_id)
    url = main.get("WebResourceURL")
    doc = _page(raw, charset, doc_id, source, url if isinstance(url, str) else "")
    frames_archived = archive.get("WebSubframeArchives")
    if doc.text.strip() or depth >= MAX_FRAME_DEPTH or not isinstance(frames_archived, list) \
            or _FRAMESET.search(raw.decode("utf-8", "replace")) is None:
        return doc
    return _framed(doc, [frame for sub in frames_archived if isinstance(sub, dict)
                         and (frame := _archived_page(sub, doc_id, source, depth + 1)).text.strip()])


MHTML = Reader(parse_mhtml, (".mhtml", ".mht"), binary=True)
WEBARCHIVE = Reader(parse_webarchive, (".webarchive",), binary=True)

__all__ = ["MHTML", "WEBARCHIVE", "parse_mhtml", "parse_webarchive"]
