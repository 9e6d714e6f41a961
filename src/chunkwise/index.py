"""An index kept in sync with its documents: chunk, embed what is new, upsert,
delete what is gone; and search it with citations.

Stores (``open_store(uri)``):

- ``./PATH`` or ``lancedb://PATH``: LanceDB, embedded (the default);
- ``qdrant+local://PATH``: Qdrant's embedded local mode; ``qdrant://HOST:PORT/NAME``
  a Qdrant server (collection NAME, default ``chunks``).

Every row is a chunk (every Chunk field, ``embed_text``, ``vector``) plus
``row_hash``, a digest of all its fields. Chunk ids hash (document, context,
text, occurrence), so an unchanged passage keeps its id and its vector: a run
embeds only ids the index has not seen, rewrites rows whose other fields moved
(offsets after an edit above them, neighbours) with their stored vectors, and
deletes ids a document no longer produces.

Write order, per document: new and changed rows first (an upsert by id), then
the ids it no longer has. A run killed half-way leaves a document with some of
its new rows beside its old ones at worst; the next run reuses those rows (no
second embedding) and deletes the old, so it converges to the index an
uninterrupted run makes. The configuration (chunker and embedder) is stored with
the index and checked before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ConfigError
from .sinks import arrow_schema
from .types import Chunk

TABLE = "chunks"
CONFIG_TABLE = "chunkwise_config"


def row_of(chunk: Chunk) -> dict[str, Any]:
    row = chunk.to_dict()
    row["metadata"] = json.dumps(row["metadata"], ensure_ascii=False, sort_keys=True)
    row["row_hash"] = hashlib.blake2b(json.dumps(row, ensure_ascii=False, sort_keys=True)
                                      .encode("utf-8", "surrogatepass"),
                                      digest_size=12).hexdigest()
    return row


@dataclass
class Hit:
    score: float
    row: dict[str, Any]

    @property
    def chunk(self) -> Chunk:
        return Chunk.from_dict(self.row)


class Store:
    """What ``index`` and ``search`` need from a vector store."""

    uri: str

    def get_config(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def set_config(self, config: dict[str, Any]) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def state(self) -> dict[str, dict[str, str]]:
        """doc_id -> {chunk id: row_hash} for every row."""
        raise NotImplementedError

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        raise NotImplementedError

    def delete(self, ids: Iterable[str]) -> None:
        raise NotImplementedError

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        """Every row (without its vector) and the vectors, in one order."""
        raise NotImplementedError


def _batches(items: Sequence[Any], n: int = 500) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _quote(values: Iterable[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)


class LanceStore(Store):
    def __init__(self, path: str):
        import os

        os.environ.setdefault("LANCE_LOG", "error")  # Lance's own log lines off stderr
        import lancedb

        self.uri = path
        Path(path).mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(path)
        self._table: Any = None

    def _names(self) -> list[str]:
        listed = self.db.list_tables()
        return list(getattr(listed, "tables", listed))

    def _schema(self, dim: int) -> Any:
        import pyarrow as pa

        return (arrow_schema().append(pa.field("row_hash", pa.string()))
                .append(pa.field("vector", pa.list_(pa.float32(), dim))))

    def table(self, dim: int | None = None) -> Any:
        if self._table is None:
            if TABLE in self._names():
                self._table = self.db.open_table(TABLE)
            elif dim is not None:
                self._table = self.db.create_table(TABLE, schema=self._schema(dim))
        return self._table

    def get_config(self) -> dict[str, Any] | None:
        if CONFIG_TABLE not in self._names():
            return None
        rows = self.db.open_table(CONFIG_TABLE).to_arrow().to_pylist()
        return json.loads(rows[0]["value"]) if rows else None

    def set_config(self, config: dict[str, Any]) -> None:
        import pyarrow as pa

        data = pa.Table.from_pylist([{"value": json.dumps(config, sort_keys=True)}])
        if CONFIG_TABLE in self._names():
            table = self.db.open_table(CONFIG_TABLE)
            table.delete("true")
            table.add(data)
        else:
            self.db.create_table(CONFIG_TABLE, data=data)

    def reset(self) -> None:
        for name in (TABLE, CONFIG_TABLE):
            if name in self._names():
                self.db.drop_table(name)
        self._table = None

    def state(self) -> dict[str, dict[str, str]]:
        table = self.table()
        out: dict[str, dict[str, str]] = {}
        if table is None:
            return out
        data = table.to_arrow().select(["id", "doc_id", "row_hash"]).to_pydict()
        for cid, doc, h in zip(data["id"], data["doc_id"], data["row_hash"]):
            out.setdefault(doc, {})[cid] = h
        return out

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        table = self.table()
        out: dict[str, np.ndarray] = {}
        if table is None or not ids:
            return out
        for part in _batches(list(ids)):
            data = (table.search().where(f"id IN ({_quote(part)})").select(["id", "vector"])
                    .limit(None).to_arrow().to_pydict())
            for cid, v in zip(data["id"], data["vector"]):
                out[cid] = np.asarray(v, dtype=np.float32)
        return out

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        import pyarrow as pa

        if not rows:
            return
        dim = int(vectors.shape[1])
        table = self.table(dim)
        data = pa.Table.from_pylist([{**r, "vector": v.tolist()} for r, v in zip(rows, vectors)],
                                    schema=self._schema(dim))
        (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
         .execute(data))

    def delete(self, ids: Iterable[str]) -> None:
        table = self.table()
        ids = list(ids)
        if table is None or not ids:
            return
        for part in _batches(ids):
            table.delete(f"id IN ({_quote(part)})")

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        table = self.table()
        if table is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        data = table.to_arrow()
        vectors = np.asarray(data.column("vector").to_pylist(), dtype=np.float32)
        return data.drop(["vector"]).to_pylist(), vectors


class QdrantStore(Store):
    """Qdrant: local mode (a folder) or a server. Point ids are UUIDs derived from
    chunk ids; the payload holds the row; the configuration is a second collection."""

    def __init__(self, *, path: str | None = None, url: str | None = None,
                 collection: str = TABLE):
        from qdrant_client import QdrantClient

        self.uri = path or url or ""
        self.client = QdrantClient(path=path) if path else QdrantClient(url=url)
        self.name = collection

    @staticmethod
    def _pid(cid: str) -> str:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, "chunkwise:" + cid))

    def _exists(self, name: str) -> bool:
        return bool(self.client.collection_exists(name))

    def get_config(self) -> dict[str, Any] | None:
        name = self.name + "_config"
        if not self._exists(name):
            return None
        points = self.client.retrieve(name, ids=[self._pid("config")], with_payload=True)
        payload = points[0].payload if points else None
        return json.loads(payload["value"]) if payload else None

    def set_config(self, config: dict[str, Any]) -> None:
        from qdrant_client import models

        name = self.name + "_config"
        if not self._exists(name):
            self.client.create_collection(name, vectors_config=models.VectorParams(
                size=1, distance=models.Distance.DOT))
        self.client.upsert(name, points=[models.PointStruct(
            id=self._pid("config"), vector=[0.0],
            payload={"value": json.dumps(config, sort_keys=True)})])

    def reset(self) -> None:
        for name in (self.name, self.name + "_config"):
            if self._exists(name):
                self.client.delete_collection(name)

    def _scroll(self, fields: list[str] | bool, vectors: bool = False) -> Iterable[Any]:
        if not self._exists(self.name):
            return
        offset = None
        while True:
            points, offset = self.client.scroll(self.name, limit=1000, offset=offset,
                                                with_payload=fields, with_vectors=vectors)
            yield from points
            if offset is None:
                break

    def state(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for p in self._scroll(["id", "doc_id", "row_hash"]):
            payload = p.payload or {}
            out.setdefault(payload["doc_id"], {})[payload["id"]] = payload["row_hash"]
        return out

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids or not self._exists(self.name):
            return {}
        out = {}
        for part in _batches(list(ids)):
            for p in self.client.retrieve(self.name, ids=[self._pid(c) for c in part],
                                          with_payload=["id"], with_vectors=True):
                out[(p.payload or {})["id"]] = np.asarray(p.vector, dtype=np.float32)
        return out

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        from qdrant_client import models

        if not rows:
            return
        if not self._exists(self.name):
            self.client.create_collection(self.name, vectors_config=models.VectorParams(
                size=int(vectors.shape[1]), distance=models.Distance.COSINE))
        for part in _batches(list(range(len(rows)))):
            self.client.upsert(self.name, points=[models.PointStruct(
                id=self._pid(rows[i]["id"]), vector=vectors[i].tolist(), payload=rows[i])
                for i in part])

    def delete(self, ids: Iterable[str]) -> None:
        from qdrant_client import models

        ids = list(ids)
        if not ids or not self._exists(self.name):
            return
        self.client.delete(self.name, points_selector=models.PointIdsList(
            points=[self._pid(c) for c in ids]))

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        points = list(self._scroll(True, vectors=True))
        if not points:
            return [], np.zeros((0, 0), dtype=np.float32)
        return ([dict(p.payload or {}) for p in points],
                np.asarray([p.vector for p in points], dtype=np.float32))


def open_store(uri: str) -> Store:
    """A store from its URI (see the module docstring)."""
    try:
        if uri.startswith("lancedb://"):
            return LanceStore(uri[len("lancedb://"):])
        if uri.startswith("qdrant+local://"):
            return QdrantStore(path=uri[len("qdrant+local://"):])
        if uri.startswith("qdrant://"):
            rest = uri[len("qdrant://"):]
            host, _, name = rest.partition("/")
            return QdrantStore(url=f"http://{host}", collection=name or TABLE)
        if "://" in uri:
            raise ConfigError(f"unknown index URI {uri!r} (PATH, lancedb://PATH, "
                              "qdrant+local://PATH or qdrant://HOST:PORT/NAME)")
        return LanceStore(uri)
    except ImportError as exc:
        raise ConfigError(f"the store for {uri!r} needs {exc.name}: "
                          "pip install 'chunkwise[qdrant]'") from None


@dataclass
class IndexReport:
    documents: int = 0
    changed: int = 0
    removed: int = 0
    chunks: int = 0
    embedded: int = 0
    reused: int = 0

    def line(self, seconds: float) -> str:
        return (f"documents {self.documents:,} ({self.changed:,} changed, {self.removed:,} "
                f"removed) chunks {self.chunks:,} ({self.embedded:,} embedded, "
                f"{self.reused:,} reused) {seconds:.1f} s")


def check_config(store: Store, config: dict[str, Any], rebuild: bool) -> None:
    stored = store.get_config()
    if stored is not None and stored != config:
        if not rebuild:
            diff = sorted(k for k in set(stored) | set(config) if stored.get(k) != config.get(k))
            raise ConfigError(f"the index at {store.uri} was built with another configuration "
                              f"({', '.join(diff)} differ); pass --rebuild to rebuild it")
        store.reset()
    elif rebuild:
        store.reset()
    store.set_config(config)


def sync_document(store: Store, embedder: Any, doc_id: str, chunks: Sequence[Chunk],
                  stored: dict[str, str], report: IndexReport) -> None:
    """Make the index hold exactly ``chunks`` for ``doc_id`` (upserts, then deletes)."""
    rows = [row_of(c) for c in chunks]
    fresh = [r for r in rows if r["id"] not in stored]
    moved = [r for r in rows if r["id"] in stored and stored[r["id"]] != r["row_hash"]]
    stale = set(stored) - {r["id"] for r in rows}
    report.documents += 1
    report.chunks += len(rows)
    report.embedded += len(fresh)
    report.reused += len(rows) - len(fresh)
    if fresh or moved or stale:
        report.changed += 1
    if moved:
        kept = store.vectors([r["id"] for r in moved])
        missing = [r for r in moved if r["id"] not in kept]
        fresh, moved = fresh + missing, [r for r in moved if r["id"] in kept]
        if moved:
            store.upsert(moved, np.stack([kept[r["id"]] for r in moved]))
    for part in _batches(fresh, 256):
        vectors = np.asarray(embedder.embed([r["embed_text"] for r in part]), dtype=np.float32)
        store.upsert(part, vectors)
    store.delete(stale)


def search(store: Store, query: str, embedder: Any, *, k: int = 5,
           retriever: str = "hybrid", expand: bool = False) -> list[Hit]:
    """The ``k`` best chunks for ``query``, ranked by the evaluation's retriever
    (one implementation) over every row of the index, with the stored vectors.
    ``expand`` (a hierarchical index): rank the smallest chunks, return their
    parents, each once, in the order of their best child."""

    rows, vectors = store.rows()
    if not rows:
        return []
    if expand:
        by_id = {r["id"]: r for r in rows}
        parents = {r["parent_id"] for r in rows if r.get("parent_id")}
        if not parents:
            raise ConfigError("--expand needs a hierarchical index (chunks with parents)")
        leaves = [i for i, r in enumerate(rows) if r["id"] not in parents]
        hits = search_rows([rows[i] for i in leaves], vectors[leaves], query, embedder,
                           k=len(leaves), retriever=retriever)
        out: list[Hit] = []
        taken: set[str] = set()
        for hit in hits:
            parent = by_id.get(hit.row.get("parent_id") or "", hit.row)
            if parent["id"] not in taken:
                taken.add(parent["id"])
                out.append(Hit(hit.score, parent))
            if len(out) == k:
                break
        return out
    return search_rows(rows, vectors, query, embedder, k=k, retriever=retriever)


def search_rows(rows: list[dict[str, Any]], vectors: np.ndarray, query: str, embedder: Any,
                *, k: int, retriever: str) -> list[Hit]:
    from .eval.retrieval import Retriever

    if not rows:
        return []
    retr = Retriever([r["embed_text"] for r in rows], [r["doc_id"] for r in rows],
                     kind=retriever, embedder=embedder, vectors=vectors)
    from .eval.retrieval import _zscore

    if retriever == "dense":
        scores = retr.dense_scores([query])[0]
    elif retriever == "bm25":
        scores = retr.bm25_scores([query])[0]
    else:  # the z-score fusion rank() uses
        scores = (retr.alpha * _zscore(retr.dense_scores([query]))
                  + (1.0 - retr.alpha) * _zscore(retr.bm25_scores([query])))[0]
    order = retr.rank([query], [""], k)[0]
    return [Hit(float(scores[i]), rows[i]) for i in order]
