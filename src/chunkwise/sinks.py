"""Where chunks go: JSON Lines and Parquet files. Columns are derived from the
:class:`~chunkwise.types.Chunk` dataclass, so a new field reaches every sink."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from .errors import OutputError
from .types import Chunk, chunk_fields


def check_destination(path: str | Path, inputs: Iterable[Path] = ()) -> Path:
    """Refuse, before any work, an output that cannot be written or that is one of
    the inputs (writing it would destroy the input)."""
    out = Path(path)
    if out.is_dir():
        raise OutputError(f"cannot write {out}: it is a directory")
    if out.exists() and not out.is_file():
        return out  # a pipe or device: written directly
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"cannot write {out}: no such directory {parent}")
    if not os.access(parent, os.W_OK):
        raise OutputError(f"cannot write {out}: directory {parent} is not writable")
    if out.exists():
        for source in inputs:
            try:
                if source.exists() and os.path.samefile(source, out):
                    raise OutputError(f"refusing to write {out}: it is one of the inputs")
            except OSError:
                continue
    return out


class AtomicFile:
    """A file written beside its target under a temporary name and renamed onto it
    on :meth:`commit`, so an interrupted run never leaves a complete-looking file;
    :meth:`abort` removes the temporary file. A target that exists and is not a
    regular file (a pipe, /dev/stdout, a device) is written directly."""

    def __init__(self, path: str | Path, binary: bool = False):
        self.path = Path(path)
        parent = self.path.parent if str(self.path.parent) else Path(".")
        self.tmp: Path | None = None
        if self.path.exists() and not self.path.is_file():
            try:  # closed by commit/abort
                self.stream: IO[Any] = self.path.open("wb" if binary else "w",
                                                      encoding=None if binary else "utf-8")
            except OSError as exc:
                raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
            return
        try:
            fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{self.path.name}.",
                                       suffix=".part")
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self.tmp = Path(tmp)
        try:  # the permissions a plain open() would give, not mkstemp's owner-only ones
            os.fchmod(fd, _plain_mode(self.path))
        except (OSError, AttributeError):
            pass
        self.stream = (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8"))

    def commit(self) -> None:
        try:
            self.stream.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def abort(self) -> None:
        try:
            self.stream.close()
        except OSError:
            pass
        if self.tmp is not None:
            try:
                self.tmp.unlink()
            except FileNotFoundError:
                pass


def _plain_mode(path: Path) -> int:
    """The mode of the file being replaced, or what the umask gives a new file."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole text file atomically (the HTML view, reports)."""
    f = AtomicFile(path)
    try:
        f.stream.write(text)
    except OSError as exc:
        f.abort()
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        f.abort()
        raise
    f.commit()

_ARROW_TYPES = {"str": "string", "str | None": "string", "ChunkKind": "string", "int": "int64",
                "int | None": "int64", "tuple[str, ...]": "list<string>",
                "Mapping[str, Any]": "json"}


def arrow_schema() -> Any:
    """The Parquet/Arrow schema of a chunk row (metadata as a JSON string)."""
    import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "list<string>": pa.list_(pa.string()),
             "json": pa.string()}
    fields = []
    for name, annotation in chunk_fields():
        kind = _ARROW_TYPES.get(str(annotation))
        if kind is None:  # a new Chunk field needs a column type here
            raise TypeError(f"no column type for Chunk.{name}: {annotation}")
        fields.append((name, types[kind]))
    return pa.schema(fields)


def _json_line(row: dict[str, Any]) -> str:
    """One JSON object on one line, UTF-8 as it is; a file name that is not valid UTF-8
    (a lone surrogate, as Python decodes such names) is written as a ``\\udcXX`` escape,
    which ``json.loads`` turns back into the same name (``os.fsencode`` gives the bytes)."""
    line = json.dumps(row, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(row, ensure_ascii=True)
    return line


def check_utf8_names(doc_id: str | None, source: str | None, where: str) -> None:
    """An OutputError for a document name holding a lone surrogate (a ``Chunk`` made
    by hand from ``str(path)``; chunkwise's readers name files with ``name_of``, which
    is always valid UTF-8), which ``where`` (Parquet, an index store) cannot hold."""
    for name in (doc_id, source):
        if name is None:
            continue
        try:
            name.encode("utf-8")
        except UnicodeEncodeError as exc:
            raw = os.fsencode(name)[:80]
            raise OutputError(f"{raw!r}: the document name is not valid UTF-8 (at character "
                              f"{exc.start}), which {where} cannot store; name the file "
                              "with chunkwise.name_of(path), which maps back to it") from None


class JsonlSink:
    """JSON Lines, one chunk per line, to a stream or (atomically) to a file."""

    def __init__(self, target: IO[str] | str | Path):
        self._file: AtomicFile | None = None
        if isinstance(target, (str, Path)):
            self._file = AtomicFile(target)
            self.stream: IO[str] = self._file.stream
        else:
            self.stream = target

    def write(self, chunks: Iterable[Chunk], vectors: Any = None) -> None:
        """``vectors``: one embedding per chunk, written as a ``vector`` field."""
        try:
            for i, c in enumerate(chunks):
                row = c.to_dict()
                if vectors is not None:
                    row["vector"] = [float(x) for x in vectors[i]]
                self.stream.write(_json_line(row))
                self.stream.write("\n")
        except OSError as exc:
            if self._file is None:
                raise
            self.abort()
            raise OutputError(f"cannot write {self._file.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self._file is not None:
            self._file.commit()
        else:
            self.stream.flush()

    def abort(self) -> None:
        if self._file is not None:
            self._file.abort()


class ParquetSink:
    """Streams chunks into a Parquet file (one row group per batch), written under a
    temporary name and renamed on :meth:`close`."""

    def __init__(self, path: str | Path):
        import pyarrow as pa
        import pyarrow.parquet

        self.path = Path(path)
        self.schema = arrow_schema()
        # pyarrow imports pandas (when installed) on its first table: done now, before
        # the output exists, not half-way through the run, where a Ctrl-C landing in
        # an import's callback is lost to Python ("Exception ignored")
        pa.Table.from_pylist([], schema=self.schema)
        self._file = AtomicFile(path, binary=True)
        self._writer: Any = None

    def write(self, chunks: Iterable[Chunk], vectors: Any = None) -> None:
        """``vectors``: one embedding per chunk, a ``vector`` column (float32 lists;
        every batch of a file has them or none does)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = [c.to_dict() for c in chunks]
        if not rows:
            return
        for r in rows:
            r["metadata"] = json.dumps(r["metadata"], ensure_ascii=False)
        if vectors is not None:
            if self._writer is None and "vector" not in self.schema.names:
                self.schema = self.schema.append(pa.field("vector", pa.list_(pa.float32())))
            for r, v in zip(rows, vectors):
                r["vector"] = [float(x) for x in v]
        for r in rows:
            check_utf8_names(r["doc_id"], r["source"], "Parquet")
        table = pa.Table.from_pylist(rows, schema=self.schema)
        try:
            if self._writer is None:
                self._writer = pq.ParquetWriter(self._file.stream, self.schema)
            self._writer.write_table(table)
        except OSError as exc:
            self.abort()
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            if self._writer is None:  # no chunks at all: still leave a valid, empty file
                pq.write_table(pa.Table.from_pylist([], schema=self.schema), self._file.stream)
            else:
                self._writer.close()
        except OSError as exc:
            self.abort()
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self._file.commit()

    def abort(self) -> None:
        self._writer = None
        self._file.abort()
