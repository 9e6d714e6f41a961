"""Plain text: decoded exactly as stored, so offsets cite the original file."""

from __future__ import annotations

import codecs
import hashlib
from pathlib import Path

from ..errors import InputError
from ..types import Document

# Share of C0 control characters (other than tab/newline/CR/FF) above which a
# decodable file is still treated as binary.
_MAX_CONTROL_SHARE = 0.01
_CONTROL = {c for c in range(32) if c not in (9, 10, 12, 13)}


def decode_bytes(data: bytes, source: str, encoding: str | None = None) -> str:
    """Decode file bytes to text without touching newlines; a clear error otherwise."""
    if encoding:
        try:
            return data.decode(encoding)
        except LookupError:
            raise InputError(source, f"unknown encoding {encoding!r}") from None
        except UnicodeDecodeError as exc:
            raise InputError(source, f"cannot be decoded as {encoding} (byte {exc.start})") from None
    if data.startswith(codecs.BOM_UTF8):
        data, encoding = data[len(codecs.BOM_UTF8):], "utf-8"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(source, f"invalid UTF-16 text (byte {exc.start})") from None
    head = data[:65536]
    if b"\x00" in head:
        raise InputError(source, "binary file (contains NUL bytes), not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            source, f"not valid UTF-8 (byte {exc.start}); pass an explicit encoding "
            "(--encoding latin-1, cp1252, ...) if it is text") from None
    sample = text[:65536]
    if sample and sum(1 for ch in sample if ord(ch) in _CONTROL) > _MAX_CONTROL_SHARE * len(sample):
        raise InputError(source, "binary file (control characters), not text")
    return text


def text_document(text: str, doc_id: str | None = None, source: str | None = None) -> Document:
    if doc_id is None:
        doc_id = source or "text-" + hashlib.blake2b(
            text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
    return Document(text=text, doc_id=doc_id, source=source)


def read_path(path: str | Path, encoding: str | None = None, doc_id: str | None = None) -> Document:
    path = Path(path)
    source = str(path)
    if not path.exists():
        raise InputError(source, "no such file or directory")
    if path.is_dir():
        raise InputError(source, "is a directory")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(source, exc.strerror or str(exc)) from None
    text = decode_bytes(data, source, encoding)
    return text_document(text, doc_id=doc_id or source, source=source)
