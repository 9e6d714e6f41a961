"""Chunk a text file too large to hold: windows read from disk, the same chunks.

A window of text is chunked as a document; every chunk but those near the window's
end is final, and the next window starts at the first chunk not taken, so each cut
is made with the same text ahead of it as in the whole document. Offsets are
shifted to the whole file, ids counted over the whole file (one small digest per
distinct passage), and neighbour links carried across windows: the output equals
chunking the whole file (tests check it, window by window, for every strategy
listed in :data:`STREAMABLE`). Memory is about two windows, not the file.
"""

from __future__ import annotations

import codecs
import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import InputError
from .ids import IdAssigner, name_of
from .readers.decoding import SAMPLE_BYTES, binary_problem, bom_encoding, nul_problem
from .strategies import Chunker
from .types import Chunk, Document

#: strategies whose cuts depend only on the text ahead of the previous cut (no
#: headings, no document-wide statistics), so a window gives the whole file's cuts
STREAMABLE = ("fixed", "sentence", "recursive")

#: files at least this large are streamed (when the strategy and format allow): a
#: whole document takes about 10x its size while it is chunked
STREAM_MIN_BYTES = 16 * 1024 * 1024

#: characters chunked at once; the last quarter of a window is chunked again
WINDOW_CHARS = 2 * 1024 * 1024

_READ_BYTES = 1024 * 1024


def streamable(chunker: Chunker) -> bool:
    """A strategy whose cuts a window gives, or ``auto`` with its defaults (which
    chooses ``recursive`` for plain text without structure: see :func:`window_chunker`)."""
    name = getattr(chunker, "name", None)
    return name in STREAMABLE or (name == "auto" and not chunker.options())


def window_chunker(chunker: Chunker, path: Path) -> tuple[Chunker, str | None] | None:
    """The chunker a file is read in windows with, and the strategy name to record in
    each chunk's metadata: the chunker itself, or for ``auto`` the ``recursive``
    strategy with its configuration when the file's first window (2 M characters) is
    plain text auto chunks with ``recursive`` (no headings, tables, transcript, FAQ
    or contract, not narrative prose); None when auto would choose something else
    (the file is read whole)."""
    if getattr(chunker, "name", None) != "auto":
        return chunker, None
    from .engine import DocumentIndex
    from .readers import parse
    from .strategies import STRATEGIES, AutoChunker

    assert isinstance(chunker, AutoChunker)
    with path.open("rb") as stream:
        head = stream.read(4 * WINDOW_CHARS)
    sample = head.decode("utf-8", "ignore")[:WINDOW_CHARS]
    doc = parse(sample.encode("utf-8", "surrogatepass"), name_of(path), fmt="text")
    index = DocumentIndex(doc, chunker.tokenizer)
    if chunker.choose(doc, index) != "recursive" or chunker.narrative(doc, index):
        return None  # narrative prose: its own size and marks, from the whole document
    return STRATEGIES["recursive"](config=chunker.config), "recursive"


def should_stream(chunker: Chunker, path: Path, format: str | None = None,
                  encoding: str | None = None) -> bool:
    """A plain-text file over :data:`STREAM_MIN_BYTES`, UTF-8, under a streamable
    strategy (other formats need the whole document to parse)."""
    if not streamable(chunker) or (encoding or "utf-8").lower().replace("_", "-") not in (
            "utf-8", "utf8"):
        return False
    if format == "auto":  # the command line's default: by extension, then content
        format = None
    if format not in (None, "text"):
        return False
    if format is None and path.suffix.lower() not in (".txt", ".text", ".log", ""):
        return False
    try:
        if path.stat().st_size < STREAM_MIN_BYTES:
            return False
        with path.open("rb") as stream:  # UTF-16/32 is decoded whole, as the reader does
            return bom_encoding(stream.read(4)) is None
    except OSError:
        return False


def _starts_paragraph(text: str, pos: int) -> bool:
    return pos >= 2 and text[pos - 2:pos] == "\n\n"


def check_file(path: Path) -> None:
    """An :class:`InputError` if the file is not UTF-8 text (a NUL byte, a bad
    sequence), found before any chunk is handed on: one pass, about a second a GB."""
    source = name_of(path)
    decoder = codecs.getincrementaldecoder("utf-8")()
    read = 0
    try:
        with path.open("rb") as stream:
            while data := stream.read(16 * _READ_BYTES):
                nul = data.find(b"\x00")
                if nul != -1:
                    raise InputError(source, nul_problem(data[:SAMPLE_BYTES] if read == 0
                                                         else b"", read + nul))
                try:
                    decoder.decode(data)
                except UnicodeDecodeError as exc:
                    raise InputError(source, f"not valid UTF-8 (byte {read + exc.start}); "
                                             "if it is text, pass its encoding (encoding="
                                             "'latin-1', say), or encoding='auto' for a "
                                             "folder of mixed encodings (UTF-8 where the "
                                             "bytes are, else the encoding they show)") from None
                if read == 0:  # the reader's test for binary files, on the same sample
                    sample = data[:4 * 65536].decode("utf-8", "ignore")[:65536]
                    problem = binary_problem(sample)
                    if problem:
                        raise InputError(source, problem)
                read += len(data)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise InputError(source, f"not valid UTF-8 (byte {read + exc.start})") from None
    except OSError as exc:
        raise InputError(source, exc.strerror or str(exc)) from None


class _Utf8Text:
    """A binary stream decoded as UTF-8, a NUL byte or a bad sequence an InputError
    naming the file and the byte offset."""

    def __init__(self, stream: Any, source: str):
        self.stream = stream
        self.source = source
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.read = 0
        self.eof = False

    def read_until(self, chars: int) -> str:
        """At least ``chars`` more characters, or the rest of the file."""
        out = ""
        while not self.eof and len(out) < chars:
            data = self.stream.read(_READ_BYTES)
            if not data:
                self.eof = True
                return out + self.decoder.decode(b"", final=True)
            nul = data.find(b"\x00")
            if nul != -1:
                raise InputError(self.source, nul_problem(data[:SAMPLE_BYTES] if self.read == 0
                                                          else b"", self.read + nul))
            try:
                out += self.decoder.decode(data)
            except UnicodeDecodeError as exc:
                raise InputError(self.source, f"not valid UTF-8 (byte {self.read + exc.start}); "
                                              "pass an explicit encoding") from None
            self.read += len(data)
        return out


def iter_file_chunks(chunker: Chunker, path: str | Path, doc_id: str | None = None, *,
                     window: int | None = None,
                     metadata: Mapping[str, Any] | None = None,
                     strategy: str | None = None) -> Iterator[Chunk]:
    """The chunks of a UTF-8 text file, equal to ``chunker.chunk(Path(path))``,
    read and chunked a window at a time (``strategy``: recorded in each chunk's
    metadata, as ``auto`` does)."""
    path = Path(path)
    source = name_of(path)
    doc_id = doc_id or source
    window = window or WINDOW_CHARS
    meta = MappingProxyType(dict(metadata or {}))
    assign = IdAssigner(doc_id)  # occurrences counted over the whole file
    held: Chunk | None = None
    base = 0  # where buf starts in the whole text
    buf = ""
    try:
        stream = path.open("rb")
    except OSError as exc:
        raise InputError(source, exc.strerror or str(exc)) from None
    with stream:
        text = _Utf8Text(stream, source)
        while True:
            buf += text.read_until(window - len(buf))
            eof = text.eof
            chunks = chunker.chunk_document(Document(buf, doc_id, source, metadata=meta))
            if eof:
                take, cut = chunks, len(buf)
            else:
                j = _restart(chunks, buf, len(buf) - window // 4)
                if j is None:  # no safe restart in this window: read more first
                    window *= 2
                    continue
                take, cut = chunks[:j], chunks[j].start
            for c in take:
                if strategy is not None:
                    c = dataclasses.replace(c, metadata=MappingProxyType(
                        {**c.metadata, "strategy": strategy}))
                c = dataclasses.replace(
                    c, id=assign(c.context, c.text),
                    start=c.start + base, end=c.end + base,
                    prev_id=held.id if held is not None else None, next_id=None)
                if held is not None:
                    yield dataclasses.replace(held, next_id=c.id)
                held = c
            buf = buf[cut:]
            base += cut
            if eof:
                break
    if held is not None:
        yield held


def _restart(chunks: list[Chunk], text: str, limit: int) -> int | None:
    """The chunk the next window starts with: the last one starting before ``limit``
    that does not overlap the chunk before it, at a paragraph start if there is one
    (then nothing before it can matter), else at any cut; None if none is found."""
    fallback = None
    for j in range(len(chunks) - 1, 0, -1):
        c = chunks[j]
        if c.start > limit or c.start < chunks[j - 1].end:
            continue
        if _starts_paragraph(text, c.start):
            return j
        if fallback is None:
            fallback = j
    return fallback
