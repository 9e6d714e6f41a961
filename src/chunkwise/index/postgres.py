"""PostgreSQL with pgvector: ``postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME]``."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError
from .store import TABLE, Hit, Store


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


def open_postgres(uri: str) -> PostgresStore:
    return PostgresStore(uri)
