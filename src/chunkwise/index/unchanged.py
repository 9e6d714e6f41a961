"""Files a sync can pass over without reading or chunking them again.

A file is passed over only when all of these hold: its bytes, its document id
and the sync's settings (the chunker's description, the embedder, the metadata
and encoding given, the chunkwise version and source) are those its rows were last made
from, *and* the index still holds exactly those rows (ids and row hashes, read
from the store in the same run). The record is kept next to a local index
(``chunkwise-unchanged.json``, written whole and then renamed, after the rows);
it is a hint, never trusted alone: a row deleted, repaired or rewritten by
anyone, a crash between the rows and the record, or an edit while a file was
being chunked makes the rows disagree with it and the file is chunked again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

FILE_NAME = "chunkwise-unchanged.json"
#: the layout of the record
LAYOUT = 1


def rows_digest(rows: Iterable[tuple[str, str]]) -> str:
    """One digest of a document's rows: its (id, row hash) pairs, in any order."""
    h = hashlib.sha256()
    for cid, row_hash in sorted(rows):
        h.update(f"{cid}\0{row_hash}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def chunkwise_version() -> str:
    """The installed chunkwise's version and a digest of its source files: a record
    another one wrote is not trusted (its chunks may differ for the same bytes and
    settings), nor one written before a development checkout's code changed (its
    version stays the same until a release: a pulled change to a strategy left
    every file "unchanged", its old chunks kept)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("chunkwise")
    except PackageNotFoundError:  # run from a source tree that is not installed
        installed = "unknown"
    return f"{installed} {source_digest(SOURCE)}"


#: the package's own folder, whose ``*.py`` files :func:`source_digest` reads
SOURCE = Path(__file__).resolve().parent.parent


@functools.cache
def source_digest(folder: Path) -> str:
    """One digest of every ``*.py`` file under ``folder`` (names and bytes; ~15 ms for
    chunkwise's ~100 files), read once per process."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        h.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        try:
            h.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()[:16]


def file_digest(path: Path) -> str | None:
    """The digest of a file's bytes (None: it cannot be read now)."""
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None


class UnchangedFiles:
    """The record of one local index: per document id, the digests of the file,
    of the rows made from it and of the settings it was synced with (two syncs of
    one index with other metadata each keep their own documents' entries)."""

    def __init__(self, folder: Path, settings: Mapping[str, Any]):
        self.path = folder / FILE_NAME
        settings = {**settings, "chunkwise": chunkwise_version()}
        self.settings = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str)
                                       .encode("utf-8", "surrogatepass")).hexdigest()
        self.known: dict[str, list[str]] = {}
        #: per document id whose file could not be read: the digests of the file and
        #: of the settings, and the problem
        self.failed: dict[str, list[str]] = {}
        try:
            data = json.loads(self.path.read_text("utf-8"))
            if data.get("layout") == LAYOUT:
                self.known = {str(k): [str(x) for x in v] for k, v in data["documents"].items()
                              if isinstance(v, list) and len(v) == 3}
                self.failed = {str(k): [str(x) for x in v]
                               for k, v in data.get("failed", {}).items()
                               if isinstance(v, list) and len(v) == 3}
        except (OSError, ValueError, AttributeError, KeyError, TypeError):
            pass  # no record or an unreadable one: every file is read

    def unchanged(self, doc_id: str, digest: str | None, stored: Mapping[str, str]) -> bool:
        """Whether the file of ``doc_id`` (its bytes' ``digest``) made exactly the
        rows the index holds for it (``stored``: id -> row hash)."""
        entry = self.known.get(doc_id)
        return (digest is not None and bool(stored) and entry is not None
                and entry[0] == digest and entry[2] == self.settings
                and entry[1] == rows_digest(stored.items()))

    def failed_before(self, doc_id: str, digest: str | None) -> str | None:
        """The problem the file of ``doc_id`` had when it last failed to read, with
        these bytes and settings; None: it did not, or it has changed since."""
        entry = self.failed.get(doc_id)
        if digest is None or entry is None or entry[0] != digest or entry[1] != self.settings:
            return None
        return entry[2]

    def record(self, doc_id: str, digest: str, rows: Iterable[tuple[str, str]]) -> None:
        self.known[doc_id] = [digest, rows_digest(rows), self.settings]
        self.failed.pop(doc_id, None)

    def record_failure(self, doc_id: str, digest: str, problem: str) -> None:
        """A file that could not be read: the same bytes are not read again with the
        same settings (a 300-page PDF of glyph codes took seconds every run)."""
        self.failed[doc_id] = [digest, self.settings, problem]

    def forget(self, doc_id: str) -> None:
        self.known.pop(doc_id, None)
        self.failed.pop(doc_id, None)

    def save(self) -> None:
        """Written whole under another name, then renamed over the record (a reader
        sees the old record or the new one, never half of one)."""
        tmp = self.path.with_name(f".{FILE_NAME}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"layout": LAYOUT, "documents": self.known,
                                       "failed": self.failed}, ensure_ascii=True), "utf-8")
            os.replace(tmp, self.path)
        except OSError:  # a read-only or full disk: the next sync reads every file
            tmp.unlink(missing_ok=True)
