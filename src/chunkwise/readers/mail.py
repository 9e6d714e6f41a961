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

import io
import re
import struct
from datetime import UTC, datetime, timedelta
from email import policy
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime
from typing import Any

from ..errors import InputError
from ..types import Document
from .decoding import windows_codepage
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE
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
    data = data.removeprefix(b"\xef\xbb\xbf")  # (a byte-order mark hid the first header)
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
    fields = {header: _header(message, header) for header in _HEADERS}
    attachments = [part.get_filename() or part.get_content_type()
                   for part in message.iter_attachments()] if message.is_multipart() else []
    return _add_mail(out, trail, fields, attachments, _body(message, name), heading)


def _add_mail(out: TextBuilder, trail: HeadingTrail, fields: dict[str, str],
              attachments: list[str], body: str, heading: bool) -> dict[str, Any]:
    """A message's blocks from its header fields (:data:`_HEADERS`), attachments' names
    and body text; its metadata."""
    meta: dict[str, Any] = {}
    lines = []
    for header in _HEADERS:
        value = fields.get(header)
        if value:
            lines.append(f"{header}: {value}")
            meta[header.lower()] = value
    if attachments:
        lines.append(f"Attachments: {', '.join(attachments)}")
        meta["attachments"] = attachments
    subject = meta.get("subject")
    if heading and subject:
        trail.push(1, subject)
        out.add_block("heading", subject, trail.path, level=1)
    out.add_block("paragraph", "\n".join(lines), trail.path, metadata={"headers": True})
    for paragraph in _BLANK_LINES.split(body):
        out.add_block("paragraph", paragraph, trail.path)
    return meta


def parse_msg(data: bytes, doc_id: str, source: str | None = None) -> Document:
    """An Outlook message (``.msg``: a compound file of MAPI properties, as Outlook
    saves a message): the same paragraphs as an ``.eml``'s, from the sender's name and
    address, the To and Cc display lines, the time it was sent, the subject, the
    attachments' file names, and the plain body (else the HTML body's text)."""
    import olefile

    name = source or doc_id
    if not data.startswith(OLE_SIGNATURE):
        raise InputError(name, "not an Outlook message (not an OLE compound file)")
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            if not ole.exists("__properties_version1.0"):
                raise InputError(name, "not an Outlook message (no MAPI properties: another "
                                       "Office file?)")
            props = _MapiProperties(ole, "")
            sender = props.text(0x0C1A) or props.text(0x0042)
            address = props.text(0x5D01) or props.text(0x0C1F) or props.text(0x0065)
            fields = {"From": f"{sender} <{address}>" if sender and "@" in address and
                      address not in sender else sender or address,
                      "To": props.text(0x0E04), "Cc": props.text(0x0E03),
                      "Date": props.time(0x0039) or props.time(0x0E06),
                      "Subject": props.text(0x0037)}
            attachments = []
            for storage in sorted({e[0] for e in ole.listdir() if e[0].startswith("__attach")}):
                attached = _MapiProperties(ole, storage + "/", props.codec)
                attachments.append(attached.text(0x3707) or attached.text(0x3704)
                                   or attached.text(0x3001) or "attachment")
            body = props.text(0x1000)
            if not body.strip() and (html := props.text(0x1013)):
                from . import parse

                body = parse(html, f"{name}#body.html", "html").text
    except (OSError, ValueError, struct.error, IndexError) as e:
        raise InputError(name, f"not a readable Outlook message ({e})") from None
    out = TextBuilder()
    meta = _add_mail(out, HeadingTrail(), {k: " ".join(v.split()) for k, v in fields.items()},
                     attachments, body.replace("\r\n", "\n").replace("\r", "\n").strip(), False)
    return Document(text=out.text, doc_id=doc_id, source=source, title=meta.get("subject"),
                    blocks=tuple(out.blocks), metadata={"format": "msg", **meta})


class _MapiProperties:
    """A message's (or an attachment's) MAPI properties: strings from their streams
    (``__substg1.0_IIIITTTT``: 001F UTF-16, 001E 8-bit, 0102 bytes), times from the
    fixed-size property stream."""

    def __init__(self, ole: Any, prefix: str, codec: str | None = None):
        self.ole, self.prefix = ole, prefix
        # 8-bit strings are in the message's code page (Big5 in a Taiwanese message)
        self.codec = codec or windows_codepage(self.fixed(0x3FFD, 0x0003) or self.fixed(0x3FDE, 0x0003))

    def text(self, prop: int) -> str:
        for kind, codec in (("001F", "utf-16-le"), ("001E", self.codec), ("0102", "utf-8")):
            stream = f"{self.prefix}__substg1.0_{prop:04X}{kind}"
            if self.ole.exists(stream):
                raw = self.ole.openstream(stream).read(1 << 26)
                return str(raw.decode(codec, "replace").rstrip("\x00"))
        return ""

    def fixed(self, prop: int, kind: int) -> int | None:
        """A fixed-size property's value (its 8 bytes as an integer), from the property
        stream (a 32-byte header for the message, 8 for an attachment)."""
        stream = f"{self.prefix}__properties_version1.0"
        if not self.ole.exists(stream):
            return None
        raw = self.ole.openstream(stream).read(1 << 20)
        for at in range(32 if not self.prefix else 8, len(raw) - 15, 16):
            tag_type, tag_id = struct.unpack_from("<HH", raw, at)
            if tag_id == prop and tag_type == kind:
                return int(struct.unpack_from("<Q", raw, at + 8)[0])
        return None

    def time(self, prop: int) -> str:
        """A PT_SYSTIME property (a FILETIME) as an RFC 5322 date, UTC."""
        ticks = self.fixed(prop, 0x0040)
        if ticks is None:
            return ""
        try:
            when = datetime(1601, 1, 1, tzinfo=UTC) + timedelta(microseconds=ticks // 10)
        except OverflowError:
            return ""
        return format_datetime(when)


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
MSG = Reader(parse_msg, (".msg",), binary=True)
