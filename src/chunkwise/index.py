"""An index kept in sync with its documents: chunk, embed what is new, upsert,
delete what is gone; and search it with citations.

Stores (``open_store(uri)``):

- ``./PATH`` or ``lancedb://PATH``: LanceDB, embedded (the default);
- ``qdrant+local://PATH``: Qdrant's embedded local mode; ``qdrant://HOST:PORT/NAME``
  a Qdrant server (collection NAME, default ``chunks``);
- ``postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME]``: PostgreSQL with the
  pgvector extension (table NAME, default ``chunks``; the other parameters go to
  libpq as they are).

Every row is a chunk (every Chunk field, ``embed_text``, ``vector``) plus
``row_hash``, a digest of all its fields. Chunk ids hash (document, context,
text, occurrence), so an unchanged passage keeps its id and its vector: a run
embeds only ids the index has not seen, rewrites rows whose other fields moved
(offsets after an edit above them, neighbours) with their stored vectors, and
deletes ids a document no longer produces.

Write order, per document: new and changed rows first (an upsert by id), then
the ids it no longer has. PostgreSQL does a document's writes in one
transaction, so a reader never sees it half-replaced. LanceDB and Qdrant have no
transactions across writes: a run killed half-way leaves a document with some
of its new rows beside its old ones at worst; the next run reuses those rows
(no second embedding) and deletes the old, so it converges to the index an
uninterrupted run makes. The configuration (chunker and embedder) is stored with
the index and checked before anything is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
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

    def insert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        """Rows whose ids the index does not hold (an upsert where the store has no
        faster way)."""
        self.upsert(rows, vectors)

    def delete(self, ids: Iterable[str]) -> None:
        raise NotImplementedError

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        """Every row (without its vector) and the vectors, in one order."""
        raise NotImplementedError

    def search(self, vector: np.ndarray, k: int) -> list[Hit]:
        """The ``k`` rows nearest to ``vector`` by cosine similarity, searched by the
        store itself (nothing loaded into memory but the hits)."""
        raise NotImplementedError

    def ids(self, doc_id: str) -> set[str]:
        """The chunk ids the index holds for one document."""
        return set(self.state().get(doc_id, {}))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Writes inside are one transaction where the store has them."""
        yield

    def close(self) -> None:
        """Release the connection (Qdrant's local mode locks its folder until then)."""

    def finish(self) -> None:
        """After a run's writes (LanceDB compacts the files they made)."""


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

    def _data(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray, dim: int) -> Any:
        import pyarrow as pa

        return pa.Table.from_pylist([{**r, "vector": v.tolist()} for r, v in zip(rows, vectors)],
                                    schema=self._schema(dim))

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        if not rows:
            return
        dim = int(vectors.shape[1])
        table = self.table(dim)
        data = self._data(rows, vectors, dim)
        (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
         .execute(data))

    def insert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        if rows:
            dim = int(vectors.shape[1])
            self.table(dim).add(self._data(rows, vectors, dim))

    def finish(self) -> None:
        if self.table() is not None:
            self.table().optimize()

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

    def search(self, vector: np.ndarray, k: int) -> list[Hit]:
        table = self.table()
        if table is None:
            return []
        found = (table.search(np.asarray(vector, dtype=np.float32).tolist())
                 .distance_type("cosine").limit(k).to_arrow().drop(["vector"]).to_pylist())
        return [Hit(1.0 - float(r.pop("_distance")), r) for r in found]


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

    def close(self) -> None:
        self.client.close()

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

    def search(self, vector: np.ndarray, k: int) -> list[Hit]:
        if not self._exists(self.name):
            return []
        found = self.client.query_points(self.name, query=np.asarray(vector).tolist(),
                                         limit=k, with_payload=True).points
        return [Hit(float(p.score), dict(p.payload or {})) for p in found]


class PostgresStore(Store):
    """PostgreSQL with pgvector: one row per chunk (id, doc_id, row_hash, the row as
    JSON text, the vector), a second table for the configuration. Each document's
    writes are one transaction. The row is JSON text with every non-ASCII
    character escaped, so text PostgreSQL cannot hold (NUL, lone surrogates) is
    kept exactly."""

    def __init__(self, uri: str):
        from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

        import psycopg

        parts = urlsplit(uri)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self.name = query.pop("table", TABLE)
        if not self.name.replace("_", "").isalnum():
            raise ConfigError(f"table name {self.name!r} in {uri!r}: letters, digits and _ only")
        self.uri = uri
        try:
            self.conn = psycopg.connect(urlunsplit(parts._replace(query=urlencode(query))),
                                        autocommit=True)
        except psycopg.Error as exc:
            raise ConfigError(f"cannot connect to {uri}: {str(exc).strip()}") from None
        try:
            if not self.conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'"
                                     ).fetchone():
                self.conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise ConfigError(f"{uri}: the pgvector extension is not available "
                              f"({str(exc).strip()})") from None
        from pgvector.psycopg import register_vector

        register_vector(self.conn)
        self.conn.execute(f"CREATE TABLE IF NOT EXISTS {self.name}_config "
                          "(key text PRIMARY KEY, value text NOT NULL)")

    def _exists(self) -> bool:
        row = self.conn.execute("SELECT to_regclass(%s)", (self.name,)).fetchone()
        return bool(row and row[0])

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.conn.transaction():
            yield

    def close(self) -> None:
        self.conn.close()

    def get_config(self) -> dict[str, Any] | None:
        row = self.conn.execute(f"SELECT value FROM {self.name}_config WHERE key = 'config'"
                                ).fetchone()
        return json.loads(row[0]) if row else None

    def set_config(self, config: dict[str, Any]) -> None:
        self.conn.execute(f"INSERT INTO {self.name}_config VALUES ('config', %s) ON CONFLICT "
                          "(key) DO UPDATE SET value = EXCLUDED.value",
                          (json.dumps(config, sort_keys=True),))

    def reset(self) -> None:
        with self.conn.transaction():
            self.conn.execute(f"DROP TABLE IF EXISTS {self.name}")
            self.conn.execute(f"DELETE FROM {self.name}_config")

    def state(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        if self._exists():
            for cid, doc, h in self.conn.execute(f"SELECT id, doc_id, row_hash FROM {self.name}"):
                out.setdefault(doc, {})[cid] = h
        return out

    def ids(self, doc_id: str) -> set[str]:
        if not self._exists():
            return set()
        return {r[0] for r in self.conn.execute(f"SELECT id FROM {self.name} WHERE doc_id = %s",
                                                (doc_id,))}

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids or not self._exists():
            return {}
        found = self.conn.execute(f"SELECT id, vector FROM {self.name} WHERE id = ANY(%s)",
                                  (list(ids),))
        return {cid: v.to_numpy().astype(np.float32) for cid, v in found}

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        if not rows:
            return
        with self.conn.transaction():
            self.conn.execute(f"CREATE TABLE IF NOT EXISTS {self.name} (id text PRIMARY KEY, "
                              "doc_id text NOT NULL, row_hash text NOT NULL, row text NOT NULL, "
                              f"vector vector({int(vectors.shape[1])}) NOT NULL)")
            self.conn.execute(f"CREATE INDEX IF NOT EXISTS {self.name}_doc ON {self.name} "
                              "(doc_id)")
            with self.conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO {self.name} VALUES (%s, %s, %s, %s, %s) ON CONFLICT (id) DO "
                    "UPDATE SET doc_id = EXCLUDED.doc_id, row_hash = EXCLUDED.row_hash, "
                    "row = EXCLUDED.row, vector = EXCLUDED.vector",
                    [(r["id"], r["doc_id"], r["row_hash"], json.dumps(r, ensure_ascii=True),
                      np.asarray(v, dtype=np.float32)) for r, v in zip(rows, vectors)])

    def delete(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids and self._exists():
            self.conn.execute(f"DELETE FROM {self.name} WHERE id = ANY(%s)", (ids,))

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        if not self._exists():
            return [], np.zeros((0, 0), dtype=np.float32)
        found = self.conn.execute(f"SELECT row, vector FROM {self.name} ORDER BY id").fetchall()
        if not found:
            return [], np.zeros((0, 0), dtype=np.float32)
        return ([json.loads(r) for r, _ in found],
                np.asarray([v.to_numpy() for _, v in found], dtype=np.float32))

    def search(self, vector: np.ndarray, k: int) -> list[Hit]:
        if not self._exists():
            return []
        q = np.asarray(vector, dtype=np.float32)
        found = self.conn.execute(f"SELECT row, 1 - (vector <=> %s) FROM {self.name} "
                                  "ORDER BY vector <=> %s LIMIT %s", (q, q, k))
        return [Hit(float(score), json.loads(row)) for row, score in found]


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
        if uri.startswith(("postgresql://", "postgres://")):
            return PostgresStore(uri)
        if "://" in uri:
            raise ConfigError(f"unknown index URI {uri!r} (PATH, lancedb://PATH, "
                              "qdrant+local://PATH, qdrant://HOST:PORT/NAME or "
                              "postgresql://...)")
        return LanceStore(uri)
    except ImportError as exc:
        extra = "postgres" if uri.startswith("postgres") else "qdrant"
        raise ConfigError(f"the store for {uri!r} needs {exc.name}: "
                          f"pip install 'chunkwise[{extra}]'") from None


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


def _flat(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def check_config(store: Store, config: dict[str, Any], rebuild: bool) -> None:
    stored = store.get_config()
    if stored is not None and stored != config:
        if not rebuild:
            was, now = _flat(stored), _flat(config)
            diff = [f"{k} {was.get(k)!r} -> {now.get(k)!r}" for k in sorted(set(was) | set(now))
                    if was.get(k) != now.get(k)]
            raise ConfigError(f"the index at {store.uri} was built with another configuration "
                              f"({', '.join(diff)}); pass --rebuild to rebuild it")
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
    kept = store.vectors([r["id"] for r in moved]) if moved else {}
    fresh += [r for r in moved if r["id"] not in kept]
    moved = [r for r in moved if r["id"] in kept]
    # embedded before the writes begin: a transaction is not held open by the model
    vectors = [np.asarray(embedder.embed([r["embed_text"] for r in part]), dtype=np.float32)
               for part in _batches(fresh, 256)]
    with store.transaction():
        if moved:
            store.upsert(moved, np.stack([kept[r["id"]] for r in moved]))
        for part, vecs in zip(_batches(fresh, 256), vectors):
            store.insert(part, vecs)
        store.delete(stale)


def search(store: Store, query: str, embedder: Any, *, k: int = 5,
           retriever: str = "hybrid", expand: bool = False) -> list[Hit]:
    """The ``k`` best chunks for ``query``. ``dense``: the store's own
    nearest-neighbour search by cosine similarity (the ranking of the evaluation's
    dense retriever, without loading the index). ``bm25`` and ``hybrid``: the
    evaluation's retriever (one implementation) over every row of the index, with
    the stored vectors. ``expand`` (a hierarchical index): rank the smallest
    chunks, return their parents, each once, in the order of their best child."""

    if retriever == "dense" and not expand:
        return store.search(np.asarray(embedder.embed([query]), dtype=np.float32)[0], k)
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
