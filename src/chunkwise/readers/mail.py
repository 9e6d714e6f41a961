"""E-mail messages (``.eml``: RFC 5322 / MIME, as mail programs save them) with the
standard library's ``email`` package: the sender, recipients, date and subject as a
first paragraph (what a question about a message names), then the body as a reader
sees it: the plain-text part, else the HTML part's text (read by the HTML reader),
quoted-printable and base64 decoded in the part's charset, paragraphs at blank
lines. Attachments are not read: their names are listed in the first paragraph and in
``metadata["attachments"]`` (a message with a PDF attached was hundreds of chunks of
base64 when read as text). The subject is the title; ``from``, ``to``, ``date`` go to
the document's metadata. Offsets index the extracted text, as for DOCX.

An mbox file (``.mbox``) is its messages one after another, each a section under its
subject."""

from __future__ import annotations

import re
from email import policy
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: the headers read into the first paragraph, in this order
_HEADERS = ("From", "To", "Cc", "Date", "Subject")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
#: an mbox file's message separator: a "From " line at the start of a line
_MBOX_FROM = re.compile(rb"^From [^\n]*\n", re.M)


def parse_eml(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    if not data.strip():  # (an empty file is a document without text, in every format)
        return Document(text="", doc_id=doc_id, source=source, metadata={"format": "eml"})
    message = _message(data, name)
    out = TextBuilder()
    meta = _add_message(out, HeadingTrail(), message, name, heading=False)
    return Document(text=out.text, doc_id=doc_id, source=source, title=meta.get("subject"),
                    blocks=tuple(out.blocks), metadata={"format": "eml", **meta})


def parse_mbox(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    starts = [m.start() for m in _MBOX_FROM.finditer(data)]
    if not starts:
        if data.strip():
            raise InputError(name, "not an mbox file (no \"From \" line starts a message)")
        return Document(text="", doc_id=doc_id, source=source, metadata={"format": "mbox"})
    out, count = TextBuilder(), 0
    for lo, hi in zip(starts, [*starts[1:], len(data)], strict=True):
        raw = data[data.index(b"\n", lo) + 1:hi]
        # a body line that began "From " was written ">From ": one ">" less
        raw = re.sub(rb"^>(>*From )", rb"\1", raw, flags=re.M)
        if raw.lstrip(b" \t").startswith((b"\n", b"\r\n")):  # a message of no header: its body
            for paragraph in _BLANK_LINES.split(raw.decode("utf-8", "replace").strip()):
                out.add_block("paragraph", paragraph, ())
        else:
            _add_message(out, HeadingTrail(), _message(raw, name), name, heading=True)
        count += 1
    return Document(text=out.text, doc_id=doc_id, source=source, blocks=tuple(out.blocks),
                    metadata={"format": "mbox", "messages": count})


def _message(data: bytes, name: str) -> EmailMessage:
    try:
        message = BytesParser(policy=policy.default).parsebytes(data)
    except (ValueError, TypeError, IndexError, MessageError) as e:  # (it is lenient: rare)
        raise InputError(name, f"cannot be read as an e-mail message ({e})") from None
    if not isinstance(message, EmailMessage) or not message.keys() or message.defects and \
            not any(h in message for h in _HEADERS):
        raise InputError(name, "not an e-mail message (it has no header: From, To, Subject ...)")
    return message


def _add_message(out: TextBuilder, trail: HeadingTrail, message: EmailMessage, name: str,
                 heading: bool) -> dict[str, Any]:
    """One message's blocks: its subject as a heading (in an mbox), the header
    paragraph, the body's paragraphs."""
    meta: dict[str, Any] = {}
    lines = []
    for header in _HEADERS:
        value = _header(message, header)
        if value:
            lines.append(f"{header}: {value}")
            meta[header.lower()] = value
    attachments = [part.get_filename() or part.get_content_type()
                   for part in message.iter_attachments()] if message.is_multipart() else []
    if attachments:
        lines.append(f"Attachments: {', '.join(attachments)}")
        meta["attachments"] = attachments
    subject = meta.get("subject")
    if heading and subject:
        trail.push(1, subject)
        out.add_block("heading", subject, trail.path, level=1)
    out.add_block("paragraph", "\n".join(lines), trail.path, metadata={"headers": True})
    for paragraph in _BLANK_LINES.split(_body(message, name)):
        out.add_block("paragraph", paragraph, trail.path)
    return meta


def _header(message: EmailMessage, header: str) -> str:
    try:
        value = message.get(header)
    except (ValueError, TypeError, IndexError, MessageError):  # a malformed address or word
        raw = message.get_all(header, failobj=[]) if hasattr(message, "get_all") else []
        value = " ".join(str(v) for v in raw)
    return " ".join(str(value).split()) if value is not None else ""


def _body(message: EmailMessage, name: str) -> str:
    """The message's text: its plain part, else its HTML part's text."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, UnicodeError, ValueError, MessageError):  # an unknown charset
        raw = part.get_payload(decode=True)
        content = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")
    if not isinstance(content, str):
        return ""
    text = content.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/html":
        from . import parse

        text = parse(text, f"{name}#body.html", "html").text
    return text.strip()


EML = Reader(parse_eml, (".eml",), binary=True)
MBOX = Reader(parse_mbox, (".mbox",), binary=True)
