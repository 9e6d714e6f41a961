"""Readers turn sources (paths, bytes, strings) into Documents: one per format,
chosen by file extension, then by content."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TypeVar

from ..errors import ChunkwiseError, ConfigError, InputError, reraise_interrupt
from ..ids import name_of
from ..registry import Registry
from ..types import Document
from .decoding import AUTO, binary_head, bom_encoding, codec, decode_bytes
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE
from .text import default_doc_id

#: format name -> :class:`Reader`; the built-ins register through the
#: ``chunkwise.readers`` entry points, as a plug-in's formats do
READERS: Registry[Reader] = Registry("chunkwise.readers", "format",
                                     lambda obj: isinstance(obj, Reader))

#: the built-in formats, in the order their file extensions are claimed
FORMATS = ("text", "markdown", "html", "html-all", "pdf", "csv", "tsv", "docx", "code", "srt",
           "vtt", "transcript", "chat", "json", "jsonl", "ipynb",
           "asciidoc", "epub", "man", "odt", "info", "latex", "spreadsheet", "pptx", "doc", "rtf",
           "odp", "ppt", "eml", "mbox", "msg", "org", "xml", "mediawiki", "mhtml",
           "webarchive")
_by_extension: tuple[int, dict[str, str]] = (-1, {})
T = TypeVar("T")


def extension_formats() -> dict[str, str]:
    """File extension -> format: the built-ins' first, then the plug-ins'."""
    global _by_extension
    if _by_extension[0] != len(READERS):
        names = [*FORMATS, *(n for n in READERS.names() if n not in FORMATS)]
        table: dict[str, str] = {}
        for name in names:
            try:
                extensions = READERS[name].extensions
            except (KeyError, ConfigError):
                _unregistered(name)
                continue
            for ext in extensions:
                table.setdefault(ext, name)
        _by_extension = (len(READERS), table)
    return _by_extension[1]


def _unregistered(name: str) -> None:
    """A built-in format the installation's entry points lack (a checkout newer than
    its ``pip install``): said once, and its files read as the other formats allow;
    a plug-in that cannot be loaded was said already."""
    if name in FORMATS and name not in READERS.declared():
        import warnings

        from ..errors import PluginWarning

        warnings.warn(f"format {name!r} is not registered: chunkwise's installed entry "
                      "points are older than its code (install it again: pip install -e .)",
                      PluginWarning, stacklevel=3)


def sniff_format(data: bytes, name: str = "") -> str:
    """The format from the extension, else from the first bytes."""
    ext = Path(name).suffix.lower()
    by_extension = extension_formats()
    if ext in by_extension:
        fmt = by_extension[ext]
        if fmt in _OLE_FORMATS and not data.startswith(OLE_SIGNATURE):
            # a ".doc" that is a web page, RTF or text (Word saves them so if asked; web
            # applications export HTML as .doc), a ".msg" that is a ROS message
            # definition: read as what it holds
            return sniff_format(data)
        return fmt
    if data.startswith(b"PK\x03\x04") and data[30:38] == b"mimetype":
        for mimetype, zipped in _ZIP_MIMETYPES.items():  # the package's first entry
            if data[38:38 + len(mimetype)] == mimetype:
                return zipped
    if data.startswith(b"PK\x03\x04"):  # Office Open XML: a part's name says which
        head = data[:65536]
        for part, zipped in ((b"word/", "docx"), (b"ppt/", "pptx"), (b"xl/", "spreadsheet")):
            if part in head:
                return zipped
    head = data[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.lstrip(b"\xef\xbb\xbf").startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith((b"<!doctype html", b"<html")):
        return "html"
    from .decoding import looks_like_mhtml

    if looks_like_mhtml(data[:16384]):
        return "mhtml"  # a saved page's MIME (Confluence's "Export to Word" .doc)
    from .info import looks_like_info

    if looks_like_info(data[:65536]):
        return "info"  # find.info-1: a split manual's parts have no extension of their own
    if looks_like_markdown(data[:65536]):
        return "markdown"
    from .man import looks_like_man

    if looks_like_man(data[:8192].decode("utf-8", "replace")):
        return "man"  # ls.1, jq.1.gz: a manual page has no extension of its own
    return "text"


#: formats whose files are OLE compound files: one that is not is read by its content
_OLE_FORMATS = frozenset(("doc", "ppt", "msg"))
#: a zipped package's ``mimetype`` entry, stored first -> its format
_ZIP_MIMETYPES = {b"application/epub+zip": "epub",
                  b"application/vnd.oasis.opendocument.text": "odt",
                  b"application/vnd.oasis.opendocument.presentation": "odp",
                  b"application/vnd.oasis.opendocument.spreadsheet": "spreadsheet"}
_ATX = re.compile(rb"^#{1,6}[ \t]+\S|^[ \t]{0,3}\w[^\n]*\n[ \t]{0,3}(?:=+|-+)[ \t]*\r?$", re.M)
_FENCE = re.compile(rb"^ {0,3}```", re.M)
_MD_LINK = re.compile(rb"\]\([^()\s]+\)")


def looks_like_markdown(head: bytes) -> bool:
    """Whether a file with no known extension (``README``, ``CONTRIBUTING``) is
    Markdown: two headings or more (``## Install``, or a title over ``===`` /
    ``---``), with a Markdown link or a fenced code block, and not a script (``#!``).
    A configuration file's ``#`` comments come with neither."""
    if head.startswith(b"#!") or len(_ATX.findall(head)) < 2:
        return False
    return _MD_LINK.search(head) is not None or len(_FENCE.findall(head)) >= 2


_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def _declared_charset(data: bytes) -> str | None:
    """The encoding an HTML page declares in a <meta> tag as browsers read it (the HTML
    standard's prescan): a label nobody knows (``charset="bogus"``) is passed over for
    the next <meta>; UTF-16, which a <meta> read as ASCII cannot be in, is UTF-8; a
    page that declares nothing usable is :data:`AUTO` (as one that declares nothing)."""
    for m in _CHARSET.finditer(data[:4096]):
        label = m.group(1)
        if codec(label.decode("ascii", "replace")) is None:
            continue
        if label.lower().replace(b"-", b"").replace(b"_", b"").startswith(b"utf16"):
            return "utf-8"
        return _not_utf8(label) or "utf-8"
    return AUTO


def _not_utf8(label: bytes) -> str | None:
    name = codec(label.decode("ascii", "replace"))
    return None if name in (None, "utf-8") else name


def parse(data: bytes | str, source: str, fmt: str | None = None, encoding: str | None = None,
          doc_id: str | None = None, structure: bool = True) -> Document:
    """Parse bytes (or already-decoded text) in a given or sniffed format.

    The border of the readers: whatever a parser library raises on a malformed
    input is translated into an :class:`InputError` naming the source. ``structure``
    False: plain text is not cut into paragraphs and headings (for a strategy that
    reads no blocks: see :attr:`Chunker.reads_structure`)."""
    fmt, sniffed = _format(data, source, fmt)
    return _guarded(source, fmt, lambda: _parse(data, source, fmt, encoding, doc_id or source,
                                                sniffed, structure))


def _format(data: bytes | str, source: str, fmt: str | None) -> tuple[str, bool]:
    """The format to read with, and whether it was sniffed (not given)."""
    sniffed = fmt is None or fmt == "auto"
    if sniffed:
        fmt = sniff_format(data if isinstance(data, bytes) else data[:1024].encode(
            "utf-8", "surrogatepass"), source)
    if fmt not in READERS:
        raise ConfigError(f"unknown format {fmt!r} (expected one of {', '.join(READERS.names())})")
    assert fmt is not None
    return fmt, sniffed


def _guarded(source: str, fmt: str, read: Callable[[], T]) -> T:
    try:
        return read()
    except ChunkwiseError:
        raise
    except RecursionError:
        raise InputError(source, f"cannot be read as {fmt}: nested too deeply") from None
    except MemoryError:
        raise InputError(source, f"cannot be read as {fmt}: too large to parse in memory") from None
    except Exception as exc:  # a parser library choking on a malformed file
        reraise_interrupt(exc)  # (not a Ctrl-C that ctypes wrapped)
        raise InputError(source, f"cannot be read as {fmt} "
                                 f"({type(exc).__name__}: {str(exc)[:200]})") from None
    except BaseException as exc:
        # a Rust parser's panic (pyo3's PanicException is a BaseException: python-calamine
        # on a fuzzed .xls of Apache POI's test files ended the run with a traceback)
        if type(exc).__name__ != "PanicException":
            raise
        raise InputError(source, f"cannot be read as {fmt} (its parser failed: "
                                 f"{str(exc)[:200]})") from None


_XML_ENCODING = re.compile(rb"""\A\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")


def _xml_encoding(data: bytes) -> str | None:
    """The encoding an XML declaration names (``<?xml version="1.0"
    encoding="iso-8859-2"?>``), when Python knows it and it is not UTF-8."""
    m = _XML_ENCODING.match(data[:1024])
    return _not_utf8(m.group(1)) if m else None


#: a source file's encoding declaration on its first or second line (PEP 263's
#: pattern: ``# -*- coding: latin-1 -*-``, ``# vim: set fileencoding=koi8-r :``, Ruby's
#: ``# encoding: ...``)
_CODING = re.compile(rb"[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _coding_cookie(data: bytes) -> str | None:
    """The encoding a source file declares (see :data:`_CODING`), when Python knows
    it and it is not UTF-8."""
    for line in data[:1024].split(b"\n", 2)[:2]:
        if (m := _CODING.match(line)) is not None:
            return _not_utf8(m.group(1))
    return None


def _decoded(data: bytes, source: str, fmt: str, encoding: str | None) -> str:
    unnamed = encoding is None or encoding == AUTO  # what the file says comes first
    if unnamed and (data.startswith(b"\xef\xbb\xbf") or bom_encoding(data) is not None):
        # a byte-order mark first of all (a page saved with one and an old <meta charset>
        # was mojibake, as it is to no browser)
        return decode_bytes(data, source)
    if unnamed and (named := _xml_encoding(data)) is not None:
        return decode_bytes(data, source, named)  # an XML file (XHTML, DocBook) says
    if unnamed and fmt == "code" and (named := _coding_cookie(data)) is not None:
        return decode_bytes(data, source, named)  # so does a Python or Ruby file
    if READERS[fmt].html_charset and unnamed:
        declared = _declared_charset(data)
        if declared == AUTO and not data.lstrip().startswith(b"<?xml"):
            # a page that names no charset: UTF-8, else the encoding its bytes show,
            # as browsers guess it (Windows-1252 for Western text: libxslt's own
            # pages, Latin-1 with no <meta charset>)
            return decode_bytes(data, source, AUTO)
        return decode_bytes(data, source, encoding if declared in (AUTO, "utf-8") else declared)
    return decode_bytes(data, source, encoding)


#: a text of whitespace and byte-order marks alone
_BLANK = re.compile(r"[\s\ufeff]*\Z")


def _parse(data: bytes | str, source: str, fmt: str, encoding: str | None,
           doc_id: str, sniffed: bool = False, structure: bool = True) -> Document:
    reader = READERS[fmt]
    if reader.binary:
        if isinstance(data, str):
            raise InputError(source, f"a {fmt.upper()} file must be given as bytes or a path")
        return reader.read(data, doc_id, source)
    text = data if isinstance(data, str) else _decoded(data, source, fmt, encoding)
    if _BLANK.match(text):  # an empty file is a document without text in every format
        return Document(text=text, doc_id=doc_id, source=source)  # (WebVTT's and JSON's
    if fmt == "text" and sniffed:  # parsers refused one, and a .md of a BOM was a chunk)
        from .transcript import looks_like_transcript

        if looks_like_transcript(text[:200_000]):
            reader = READERS["transcript"]
    if not structure and reader is READERS["text"]:
        return Document(text=text, doc_id=doc_id, source=source)  # its blocks go unread
    return reader.read(text, doc_id, source)


def read_path(path: str | Path, encoding: str | None = None, doc_id: str | None = None,
              fmt: str | None = None, structure: bool = True) -> Document:
    """Read and parse one file; an :class:`InputError` naming it when it cannot be."""
    path = Path(path)
    source = name_of(path)
    if not path.exists():
        raise InputError(source, "no such file or directory")
    if path.is_dir():
        raise InputError(source, "is a directory")
    try:
        if path.is_file():
            data = path.read_bytes()
        else:  # a pipe, a device (``<(curl ...)``, /dev/stdin): read as it comes
            with path.open("rb") as stream:
                data = read_stream(stream, source, fmt)
    except MemoryError:
        raise InputError(source, "too large to read into memory") from None
    except OSError as exc:
        raise InputError(source, exc.strerror or str(exc)) from None
    named = source
    if gzipped(path.name):  # README.gz, changelog.Debian.gz: the document inside
        data = _gunzip(data, source)
        named = source[:-3]
    # the bytes are held only here, so that a text format lets them go once decoded
    # (a long file's text is parsed without its bytes beside it)
    held = [data]
    del data
    fmt, sniffed = _format(held[0], named, fmt)
    if READERS[fmt].binary:
        raw = held.pop()
        return _guarded(source, fmt, lambda: _parse(raw, source, fmt, encoding,
                                                    doc_id or source, sniffed))
    text = _guarded(source, fmt, lambda: _decoded(held.pop(), source, fmt, encoding))
    return _guarded(source, fmt, lambda: _parse(text, source, fmt, encoding, doc_id or source,
                                                sniffed, structure))


#: the most bytes read from a pipe or a device as one document (a file's size is its
#: own; /dev/zero's has no end)
STREAM_MAX_BYTES = 1 << 30


def read_stream(stream: BinaryIO, source: str, fmt: str | None = None) -> bytes:
    """The bytes of a pipe or a device, as they come: binary data refused from its
    first block, NUL bytes and not a binary format (``chunkwise chunk /dev/urandom``
    read until memory ran out), and at most :data:`STREAM_MAX_BYTES`."""
    first = stream.read(1 << 16)
    if binary_head(first) and not READERS[_format(first, source, fmt)[0]].binary:
        nul = first.find(b"\0")
        raise InputError(source, f"binary data (a NUL byte at offset {nul}), not text")
    parts, total = [first], len(first)
    while block := stream.read(1 << 20):
        total += len(block)
        if total > STREAM_MAX_BYTES:
            raise InputError(source, f"more than {STREAM_MAX_BYTES >> 20} MB from a pipe or a "
                                     "device: save it to a file and read that")
        parts.append(block)
    return b"".join(parts)


#: the most bytes a compressed document may hold (a larger one is an error, not a
#: machine out of memory: a gzip bomb is a few kB)
GUNZIP_MAX_BYTES = 256 << 20


def gzipped(name: str) -> bool:
    """A gzip-compressed document (``README.gz``, ``notes.md.gz``), not an archive
    (``.tar.gz``, ``.tgz``)."""
    lower = name.lower()
    return lower.endswith(".gz") and not lower.endswith(".tar.gz") and len(lower) > 3


def _gunzip(data: bytes, source: str) -> bytes:
    import gzip
    import io
    import zlib

    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(GUNZIP_MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(source, f"not valid gzip data ({exc})") from None
    if len(out) > GUNZIP_MAX_BYTES:
        raise InputError(source, f"decompresses to more than {GUNZIP_MAX_BYTES >> 20} MB")
    return out


__all__ = ["FORMATS", "READERS", "Reader", "decode_bytes", "default_doc_id",
           "extension_formats", "parse", "read_path", "sniff_format"]
