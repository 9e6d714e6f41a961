"""LanceDB, embedded: ``./PATH`` or ``lancedb://PATH`` (the default store).

The index is a LanceDB database: a folder holding one Lance table per name
(``chunks.lance``, ``chunkwise_config.lance``), which ``lancedb.connect(PATH)`` opens
as it opens any (and an index LanceDB's own Python package wrote opens here). It is
read and written with Lance's Python package (``pylance``), the layer LanceDB's tables
are made of, without LanceDB's client above it: its import took two thirds of a
re-run after a one-file edit."""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, StoreError
from ..filters import Filter, prefix_range, pushdown
from ..sinks import arrow_schema
from .lance_import import import_lance
from .lock import file_lock, writer_running
from .store import CONFIG_TABLE, TABLE, Hit, Store, batches

#: where in Lance's Rust sources an error was raised (", /root/.cargo/.../local.rs:273:40")
_RUST_PLACE = re.compile(r",?\s*/\S+\.rs:\d+:\d+")

#: a run compacts the table (and drops the versions no reader needs) once it is in
#: this many files or more (each write of a run adds one) ...
COMPACT_FRAGMENTS = 16
#: ... or when the run wrote or deleted at least this share of its rows. Compacting
#: rewrites every file under Lance's million-row target, the whole table: 0.16 s at
#: 50,000 rows after a one-file edit, ~70 ms of a re-run on the bundled docs.
COMPACT_SHARE = 0.2


def _store_errors(method: Callable[..., Any]) -> Callable[..., Any]:
    """Lance's errors on the index's own files (``RuntimeError: lance error: Not found:
    .../data/....lance`` when a data file was deleted, an ``OSError`` when the folder
    cannot be written) as a :class:`~chunkwise.errors.StoreError` naming the index, in
    place of a traceback out of Lance."""
    @functools.wraps(method)
    def guarded(self: LanceStore, *args: Any, **kwargs: Any) -> Any:
        from pyarrow import ArrowException  # (a data file gone: ArrowInvalid)

        try:
            return method(self, *args, **kwargs)
        except (RuntimeError, OSError, ArrowException) as exc:
            said = _RUST_PLACE.sub("", str(exc)).strip() or type(exc).__name__
            raise StoreError(self.uri, said.splitlines()[0]) from exc
    return guarded


class LanceStore(Store):
    """An index in a folder. Writes are keyed by id (merge-insert), one writer at a
    time (a lock file in the folder); a run that leaves the table in many files, or
    changed a good share of its rows, compacts it and cleans up the versions Lance
    keeps of every write, so the folder stays near the size of its rows (a one-file
    edit does not rewrite the whole table)."""

    def __init__(self, path: str, create: bool = True):
        import os

        os.environ.setdefault("LANCE_LOG", "error")  # Lance's own log lines off stderr
        self.lance = import_lance()

        self.uri = path
        folder = Path(path)
        if folder.exists() and not folder.is_dir():
            raise ConfigError(f"{path} is a file, not an index folder")
        if not folder.exists():
            if not create:
                raise ConfigError(f"no index at {path} (build one with chunkwise index)")
            folder.mkdir(parents=True, exist_ok=True)  # two first runs at once
        self.local_path = Path(os.path.realpath(folder))
        self._table: Any = None
        #: whether this handle wrote anything (a run that wrote nothing has nothing to
        #: compact or clean up)
        self._wrote = False
        #: rows this handle wrote or deleted since it last compacted
        self._changed = 0

    def writer_lock(self, wait: bool = True, on_wait: Callable[[], object] | None = None,
                    ) -> AbstractContextManager[None]:
        return self._locked(wait, on_wait)

    @contextmanager
    def _locked(self, wait: bool, on_wait: Callable[[], object] | None) -> Iterator[None]:
        assert self.local_path is not None
        with file_lock(self.local_path, self.uri, wait, on_wait):
            # once the lock is held, the run reads the latest (another process may
            # have written, and cleaned up the files of older versions, since)
            self.latest()
            yield

    def latest(self) -> None:
        self._table = None  # a handle stays at the version it opened: open it afresh

    @_store_errors
    def version(self) -> Any:
        table = self._open(TABLE)  # the latest version, not the handle's own
        return None if table is None else table.version

    def writing(self) -> bool:
        assert self.local_path is not None
        return writer_running(self.local_path)

    def _path(self, name: str) -> Path:
        """Where LanceDB keeps table ``name`` of the database: ``NAME.lance``."""
        assert self.local_path is not None
        return self.local_path / f"{name}.lance"

    def _schema(self, dim: int) -> Any:
        import pyarrow as pa

        return (arrow_schema().append(pa.field("row_hash", pa.string()))
                .append(pa.field("vector", pa.list_(pa.float32(), dim))))

    def _open(self, name: str) -> Any:
        """The table ``name``, or None while it does not exist: a folder without a
        version yet is a table another process is creating right now (a reader then
        sees the index as it was: empty); one whose first version appears while it is
        being opened is opened again."""
        path = self._path(name)
        if not path.is_dir():
            return None
        for attempt in range(3):
            try:
                return self.lance.dataset(str(path))
            except ValueError as exc:
                if "not found" not in str(exc).lower() or attempt == 2:
                    raise
                if not any((path / "_versions").glob("*")):
                    return None
                # (its first version was written between the open and the look: the
                # table is there now; a search racing the first index run's creation
                # raised Lance's "not found")
        return None

    def table(self, dim: int | None = None) -> Any:
        if self._table is None:
            self._table = self._open(TABLE)
            if self._table is None and dim is not None:
                schema = self._schema(dim)
                self._table = self.lance.write_dataset(schema.empty_table(), str(self._path(TABLE)),
                                                       schema=schema, mode="create")
        return self._table

    @_store_errors
    def get_config(self) -> dict[str, Any] | None:
        table = self._open(CONFIG_TABLE)
        if table is None:
            return None
        rows = table.to_table().to_pylist()
        return json.loads(rows[0]["value"]) if rows else None

    @_store_errors
    def set_config(self, config: dict[str, Any]) -> None:
        import pyarrow as pa

        data = pa.Table.from_pylist([{"value": json.dumps(config, sort_keys=True)}])
        self._wrote = True
        path = str(self._path(CONFIG_TABLE))
        # one new version holding the one row (the table made when there is none)
        self.lance.write_dataset(data, path, mode="overwrite" if self._open(CONFIG_TABLE)
                                 is not None else "create")

    @_store_errors
    def reset(self) -> None:
        import shutil

        self._wrote = True
        for name in (TABLE, CONFIG_TABLE):
            if self._path(name).is_dir():
                shutil.rmtree(self._path(name))
        self._table = None

    @_store_errors
    def state(self) -> dict[str, dict[str, str]]:
        table = self.table()
        out: dict[str, dict[str, str]] = {}
        if table is None:
            return out
        data = table.to_table(columns=["id", "doc_id", "row_hash"]).to_pydict()
        for cid, doc, h in zip(data["id"], data["doc_id"], data["row_hash"]):
            out.setdefault(doc, {})[cid] = h
        return out

    @_store_errors
    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        import pyarrow.compute as pc

        table = self.table()
        out: dict[str, np.ndarray] = {}
        if table is None or not ids:
            return out
        for part in batches(list(ids)):
            data = table.to_table(columns=["id", "vector"],
                                  filter=pc.field("id").isin(part)).to_pydict()
            for cid, v in zip(data["id"], data["vector"]):
                out[cid] = np.asarray(v, dtype=np.float32)
        return out

    @_store_errors
    def embed_texts(self, ids: Sequence[str] | None = None) -> dict[str, str]:
        import pyarrow.compute as pc

        table = self.table()
        if table is None or (ids is not None and not ids):
            return {}
        if ids is None:  # every row: one scan of the two columns
            data = table.to_table(columns=["id", "embed_text"])
            return dict(zip(data.column("id").to_pylist(), data.column("embed_text").to_pylist()))
        out: dict[str, str] = {}
        for part in batches(list(ids)):
            found = table.to_table(columns=["id", "embed_text"],
                                   filter=pc.field("id").isin(part)).to_pydict()
            out.update(zip(found["id"], found["embed_text"]))
        return out

    def _data(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray, dim: int) -> Any:
        import pyarrow as pa

        return pa.Table.from_pylist([{**r, "vector": v.tolist()} for r, v in zip(rows, vectors)],
                                    schema=self._schema(dim))

    def _writing(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> tuple[Any, Any]:
        """The table (made if need be) and the rows as its Arrow table, counted as written."""
        dim = int(vectors.shape[1])
        table = self.table(dim)
        self._wrote = True
        self._changed += len(rows)
        return table, self._data(rows, vectors, dim)

    @_store_errors
    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        if rows:
            table, data = self._writing(rows, vectors)
            (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
             .execute(data))

    @_store_errors
    def insert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        """Rows whose ids the index does not hold (the run read its state under the
        writer lock): appended, without merge-insert's join on the id column (a
        quarter of the time on the bundled docs)."""
        if rows:
            table, data = self._writing(rows, vectors)
            table.insert(data)  # (the handle moves to the new version)

    @_store_errors
    def finish(self) -> None:
        """Compact the table's files and drop the versions no reader needs, when the
        table is in :data:`COMPACT_FRAGMENTS` files or more or this handle changed
        :data:`COMPACT_SHARE` of its rows (nothing when it wrote nothing)."""
        from datetime import timedelta

        table = self.table() if self._wrote else None
        if table is None or not self._worth_compacting(table):
            return
        with warnings.catch_warnings():  # said in the README: a search reading an old
            warnings.simplefilter("ignore")  # version right then may fail once
            table.optimize.compact_files()
            table.cleanup_old_versions(older_than=timedelta(seconds=0))
        self._changed = 0

    def _worth_compacting(self, table: Any) -> bool:
        files = len(table.get_fragments())
        rows = int(table.count_rows())
        return files >= COMPACT_FRAGMENTS or self._changed >= COMPACT_SHARE * max(rows, 1)

    @_store_errors
    def delete(self, ids: Iterable[str]) -> None:
        import pyarrow.compute as pc

        table = self.table()
        ids = list(ids)
        if table is None or not ids:
            return
        self._wrote = True
        self._changed += len(ids)
        for part in batches(ids):
            table.delete(pc.field("id").isin(part))

    @_store_errors
    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        table = self.table()
        if table is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        data = table.to_table()
        return data.drop(["vector"]).to_pylist(), _matrix(data.column("vector"))

    @_store_errors
    def texts(self) -> list[tuple[str, str, str]]:
        table = self.table()
        if table is None:
            return []
        # those columns alone (no vectors read into Python)
        data = table.to_table(columns=["id", "doc_id", "text"])
        return list(zip(data.column("id").to_pylist(), data.column("doc_id").to_pylist(),
                        data.column("text").to_pylist()))

    @_store_errors
    def search(self, vector: np.ndarray, k: int, where: Filter | None = None) -> list[Hit]:
        table = self.table()
        if table is None:
            return []
        nearest = {"column": "vector", "q": np.asarray(vector, dtype=np.float32), "k": k,
                   "metric": "cosine"}
        expr = lance_where(where) if where is not None else None
        # the filter before the nearest-neighbour search: exact among the rows kept
        found = table.to_table(nearest=nearest, filter=expr, prefilter=expr is not None)
        hits = found.drop(["vector"]).to_pylist()
        return [Hit(1.0 - float(r.pop("_distance")), r) for r in hits]


def _matrix(column: Any) -> np.ndarray:
    """A column of fixed-size float lists as one float32 matrix, read from its buffer
    (each row a Python list first took a cold hybrid search ~0.07 s of 0.1 s)."""
    import pyarrow as pa

    lists = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    width = lists.type.list_size
    if len(lists) == 0:
        return np.zeros((0, width), dtype=np.float32)
    if lists.null_count:  # (a row written without a vector: as before, one by one)
        return np.asarray(lists.to_pylist(), dtype=np.float32)
    flat = lists.flatten().to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(len(lists), width)


def lance_where(where: Filter) -> Any:
    """The part of ``where`` Lance tests itself, as a typed expression (values are
    literals of the expression, never pasted into SQL text); None: nothing to test."""
    import pyarrow.compute as pc

    down = pushdown(where)
    parts: list[Any] = []
    if not down.any_doc:
        doc = pc.field("doc_id")
        tests = [doc == d for d in down.doc_ids]
        for p in down.doc_prefixes:
            bounds = prefix_range(p)
            tests.append(doc >= p if bounds is None
                         else (doc >= bounds[0]) & (doc < bounds[1]))
        parts.append(_any(tests))
    if down.kinds:
        parts.append(pc.field("kind").isin(list(down.kinds)))
    if down.page is not None:
        parts.append((pc.field("page") >= down.page[0]) & (pc.field("page") <= down.page[1]))
    for group in down.contains:
        parts.append(_any([pc.match_substring(pc.field("metadata"), text) for text in group]))
    if not parts:
        return None
    out = parts[0]
    for part in parts[1:]:
        out = out & part
    return out


def _any(tests: list[Any]) -> Any:
    out = tests[0]
    for test in tests[1:]:
        out = out | test
    return out


def open_lance(uri: str, create: bool = True) -> LanceStore:
    """``lancedb://PATH`` or a plain ``PATH``."""
    return LanceStore(uri.removeprefix("lancedb://"), create=create)
