"""Readers turn sources (paths, bytes, strings) into Documents: one per format,
chosen by file extension, then by content."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import ChunkwiseError, ConfigError, InputError
from ..types import Document
from .text import decode_bytes, default_doc_id, parse_text

FORMATS = ("text", "markdown", "html", "html-all", "pdf", "csv", "tsv", "docx", "code", "srt",
           "vtt", "transcript", "chat", "json", "jsonl")
#: formats read from bytes (a str cannot hold them)
BINARY_FORMATS = ("pdf", "docx")
_EXTENSIONS = {
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".mkd": "markdown",
    ".html": "html", ".htm": "html", ".xhtml": "html",
    ".pdf": "pdf",
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv",
    ".docx": "docx",
    ".srt": "srt", ".vtt": "vtt",
    ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
}


def sniff_format(data: bytes, name: str = "") -> str:
    """The format from the extension, else from the first bytes."""
    from .code import EXTENSIONS as CODE_EXTENSIONS

    ext = Path(name).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if ext in CODE_EXTENSIONS:
        return "code"
    if data.startswith(b"PK\x03\x04") and b"word/" in data[:65536]:
        return "docx"
    head = data[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.startswith((b"<!doctype html", b"<html")):
        return "html"
    return "text"


_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def _declared_charset(data: bytes) -> str | None:
    """The charset an HTML page declares in a <meta> tag, when it is not UTF-8."""
    m = _CHARSET.search(data[:4096])
    if not m:
        return None
    name = m.group(1).decode("ascii", "replace").lower()
    if name in ("utf-8", "utf8"):
        return None
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return name


def parse(data: bytes | str, source: str, fmt: str | None = None, encoding: str | None = None,
          doc_id: str | None = None) -> Document:
    """Parse bytes (or already-decoded text) in a given or sniffed format.

    The border of the readers: whatever a parser library raises on a malformed
    input is translated into an :class:`InputError` naming the source."""
    sniffed = fmt is None or fmt == "auto"
    if sniffed:
        fmt = sniff_format(data if isinstance(data, bytes) else data[:1024].encode(
            "utf-8", "surrogatepass"), source)
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    doc_id = doc_id or source
    assert fmt is not None
    try:
        return _parse(data, source, fmt, encoding, doc_id, sniffed)
    except ChunkwiseError:
        raise
    except RecursionError:
        raise InputError(source, f"cannot be read as {fmt}: nested too deeply") from None
    except MemoryError:
        raise InputError(source, f"cannot be read as {fmt}: too large to parse in memory") from None
    except Exception as exc:  # a parser library choking on a malformed file
        raise InputError(source, f"cannot be read as {fmt} "
                                 f"({type(exc).__name__}: {str(exc)[:200]})") from None


def _parse(data: bytes | str, source: str, fmt: str, encoding: str | None,
           doc_id: str, sniffed: bool = False) -> Document:
    if fmt in BINARY_FORMATS and isinstance(data, str):
        raise InputError(source, f"a {fmt.upper()} file must be given as bytes or a path")
    if fmt == "pdf":
        from .pdf import parse_pdf

        assert isinstance(data, bytes)
        return parse_pdf(data, doc_id, source)
    if fmt == "docx":
        from .docx import parse_docx

        assert isinstance(data, bytes)
        return parse_docx(data, doc_id, source)
    if isinstance(data, str):
        text = data
    elif fmt in ("html", "html-all") and encoding is None:
        text = decode_bytes(data, source, _declared_charset(data))
    else:
        text = decode_bytes(data, source, encoding)
    if fmt == "markdown":
        from .markdown import parse_markdown

        return parse_markdown(text, doc_id, source)
    if fmt in ("html", "html-all"):
        from .html import parse_html

        return parse_html(text, doc_id, source, main_content=fmt == "html")
    if fmt == "code":
        from .code import EXTENSIONS as CODE_EXTENSIONS
        from .code import parse_code

        return parse_code(text, doc_id, source,
                          language=CODE_EXTENSIONS.get(Path(source).suffix.lower()))
    if fmt in ("csv", "tsv"):
        from .tabular import parse_csv

        return parse_csv(text, doc_id, source, delimiter="\t" if fmt == "tsv" else None)
    if fmt in ("srt", "vtt"):
        from .transcript import parse_subtitles

        return parse_subtitles(text, doc_id, source, fmt)
    if fmt in ("json", "jsonl", "chat"):
        from .jsondoc import parse_json

        return parse_json(text, doc_id, source, lines=fmt == "jsonl" or (
            fmt == "chat" and Path(source).suffix.lower() in (".jsonl", ".ndjson")),
            chat=None if fmt != "chat" else True)
    from .transcript import looks_like_transcript, parse_speaker_text

    if fmt == "transcript" or (sniffed and looks_like_transcript(text[:200_000])):
        return parse_speaker_text(text, doc_id, source)
    return parse_text(text, doc_id, source)


def read_path(path: str | Path, encoding: str | None = None, doc_id: str | None = None,
              fmt: str | None = None) -> Document:
    """Read and parse one file; an :class:`InputError` naming it when it cannot be."""
    path = Path(path)
    source = str(path)
    if not path.exists():
        raise InputError(source, "no such file or directory")
    if path.is_dir():
        raise InputError(source, "is a directory")
    try:
        data = path.read_bytes()
    except MemoryError:
        raise InputError(source, "too large to read into memory") from None
    except OSError as exc:
        raise InputError(source, exc.strerror or str(exc)) from None
    return parse(data, source, fmt=fmt, encoding=encoding, doc_id=doc_id)


__all__ = ["FORMATS", "decode_bytes", "parse", "read_path", "sniff_format", "default_doc_id"]
