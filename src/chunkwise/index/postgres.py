"""PostgreSQL with pgvector: ``postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME]``."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from ..errors import ConfigError, IndexBusyError
from ..filters import Filter, pushdown
from .store import TABLE, Hit, Store

#: where every index of a database keeps its configuration, keyed by its table's name
CONFIGS = "chunkwise_indexes"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,57}\Z")


class PostgresStore(Store):
    """PostgreSQL with pgvector: one row per chunk (id, doc_id, row_hash, the row as
    JSON text, the vector), a second table for the configuration. Each document's
    writes are one transaction. The row is JSON text with every non-ASCII
    character escaped, so text PostgreSQL cannot hold (NUL, lone surrogates) is
    kept exactly."""

    def __init__(self, uri: str):
        from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

        parts = urlsplit(uri)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self.name = query.pop("table", TABLE)
        if not _IDENTIFIER.match(self.name) or self.name == CONFIGS:
            raise ConfigError(f"table name {self.name!r} in {uri!r}: a letter or _ first, then "
                              "letters, digits and _, at most 58 characters, not "
                              f"{CONFIGS!r}")
        self.table = sql.Identifier(self.name)
        self.doc_index = sql.Identifier(self.name + "_doc")
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
        self.conn.execute(f"CREATE TABLE IF NOT EXISTS {CONFIGS} "
                          "(table_name text PRIMARY KEY, value text NOT NULL)")

    def _q(self, query: str) -> sql.Composed:
        """A statement with ``{t}`` the quoted table name, ``{i}`` its index's."""
        return sql.SQL(query).format(t=self.table, i=self.doc_index)

    def _exists(self, name: str | None = None) -> bool:
        row = self.conn.execute("SELECT to_regclass(quote_ident(%s))",
                                (name or self.name,)).fetchone()
        return bool(row and row[0])

    def writer_lock(self, wait: bool = True, on_wait: Callable[[], object] | None = None,
                    ) -> contextlib.AbstractContextManager[None]:
        return self._advisory_lock(wait, on_wait)

    @contextlib.contextmanager
    def _advisory_lock(self, wait: bool, on_wait: Callable[[], object] | None) -> Iterator[None]:
        """A session-level advisory lock on the table's name: released at unlock, or
        by the server when the connection ends (a killed run holds nothing)."""
        key = "chunkwise:" + self.name
        got = self.conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)).fetchone()
        if not (got and got[0]):
            if not wait:
                raise IndexBusyError(f"another run is writing the index at {self.uri}; try "
                                     "again when it is done")
            if on_wait is not None:
                on_wait()
            self.conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
        try:
            yield
        finally:
            self.conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.conn.transaction():
            yield

    def close(self) -> None:
        self.conn.close()

    def get_config(self) -> dict[str, Any] | None:
        row = self.conn.execute(f"SELECT value FROM {CONFIGS} WHERE table_name = %s",
                                (self.name,)).fetchone()
        if row is None:
            row = self._old_config()
        return json.loads(row[0]) if row else None

    def _old_config(self) -> tuple[str] | None:
        """The configuration as chunkwise 0.2 kept it, in a table ``<name>_config``."""
        old = self.name + "_config"
        if not self._exists(old):
            return None
        try:
            with self.conn.transaction():
                row = self.conn.execute(sql.SQL("SELECT value FROM {} WHERE key = 'config'")
                                        .format(sql.Identifier(old))).fetchone()
        except psycopg.Error:  # a table of the user's that happens to have this name
            return None
        return (str(row[0]),) if row else None

    def set_config(self, config: dict[str, Any]) -> None:
        self.conn.execute(f"INSERT INTO {CONFIGS} VALUES (%s, %s) ON CONFLICT (table_name) "
                          "DO UPDATE SET value = EXCLUDED.value",
                          (self.name, json.dumps(config, sort_keys=True)))

    def reset(self) -> None:
        with self.conn.transaction():
            self.conn.execute(self._q("DROP TABLE IF EXISTS {t}"))
            self.conn.execute(f"DELETE FROM {CONFIGS} WHERE table_name = %s", (self.name,))

    def state(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        if self._exists():
            for cid, doc, h in self.conn.execute(self._q("SELECT id, doc_id, row_hash FROM {t}")):
                out.setdefault(doc, {})[cid] = h
        return out

    def ids(self, doc_id: str) -> set[str]:
        if not self._exists():
            return set()
        return {r[0] for r in self.conn.execute(self._q("SELECT id FROM {t} WHERE doc_id = %s"),
                                                (doc_id,))}

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids or not self._exists():
            return {}
        found = self.conn.execute(self._q("SELECT id, vector FROM {t} WHERE id = ANY(%s)"),
                                  (list(ids),))
        return {cid: v.to_numpy().astype(np.float32) for cid, v in found}

    def embed_texts(self, ids: Sequence[str] | None = None) -> dict[str, str]:
        if (ids is not None and not ids) or not self._exists():
            return {}
        query = "SELECT id, row::json->>'embed_text' FROM {t}"
        found = (self.conn.execute(self._q(query)) if ids is None else
                 self.conn.execute(self._q(query + " WHERE id = ANY(%s)"), (list(ids),)))
        return {cid: text or "" for cid, text in found}

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        if not rows:
            return
        with self.conn.transaction():
            self.conn.execute(self._q(
                "CREATE TABLE IF NOT EXISTS {t} (id text PRIMARY KEY, doc_id text NOT NULL, "
                "row_hash text NOT NULL, row text NOT NULL, vector vector("
                + str(int(vectors.shape[1])) + ") NOT NULL)"))
            self.conn.execute(self._q("CREATE INDEX IF NOT EXISTS {i} ON {t} (doc_id)"))
            with self.conn.cursor() as cur:
                cur.executemany(
                    self._q("INSERT INTO {t} VALUES (%s, %s, %s, %s, %s) ON CONFLICT (id) DO "
                            "UPDATE SET doc_id = EXCLUDED.doc_id, row_hash = EXCLUDED.row_hash, "
                            "row = EXCLUDED.row, vector = EXCLUDED.vector"),
                    [(r["id"], r["doc_id"], r["row_hash"], json.dumps(r, ensure_ascii=True),
                      np.asarray(v, dtype=np.float32)) for r, v in zip(rows, vectors)])

    def delete(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids and self._exists():
            self.conn.execute(self._q("DELETE FROM {t} WHERE id = ANY(%s)"), (ids,))

    def rows(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        if not self._exists():
            return [], np.zeros((0, 0), dtype=np.float32)
        found = self.conn.execute(self._q("SELECT row, vector FROM {t} ORDER BY id")).fetchall()
        if not found:
            return [], np.zeros((0, 0), dtype=np.float32)
        return ([json.loads(r) for r, _ in found],
                np.asarray([v.to_numpy() for _, v in found], dtype=np.float32))

    def search(self, vector: np.ndarray, k: int, where: Filter | None = None) -> list[Hit]:
        if not self._exists():
            return []
        q = np.asarray(vector, dtype=np.float32)
        test, params = sql_where(where)
        found = self.conn.execute(self._q("SELECT row, 1 - (vector <=> %s) FROM {t} WHERE "
                                          + test + " ORDER BY vector <=> %s LIMIT %s"),
                                  (q, *params, q, k))
        return [Hit(float(score), json.loads(row)) for row, score in found]


def sql_where(where: Filter | None) -> tuple[str, list[Any]]:
    """The part of ``where`` PostgreSQL tests itself: SQL with ``%s`` placeholders and
    the values bound to them (never written into the text). doc_id is a column; kind
    and metadata are tested on the row's JSON text (every row holds ``"kind": "..."``
    and its metadata JSON escaped once more), a superset the hits are checked against."""
    if where is None:
        return "TRUE", []
    down = pushdown(where)
    tests: list[str] = []
    params: list[Any] = []
    if not down.any_doc:
        tests.append("(doc_id = ANY(%s) OR " + " OR ".join(["starts_with(doc_id, %s)"]
                                                          * len(down.doc_prefixes)) + ")")
        params += [list(down.doc_ids), *down.doc_prefixes]
    if down.kinds:
        tests.append("(" + " OR ".join(["strpos(row, %s) > 0"] * len(down.kinds)) + ")")
        params += ['"kind": ' + json.dumps(kind) for kind in down.kinds]
    for group in down.contains:
        tests.append("(" + " OR ".join(["strpos(row, %s) > 0"] * len(group)) + ")")
        params += [json.dumps(text)[1:-1] for text in group]
    return " AND ".join(tests) or "TRUE", params


def open_postgres(uri: str) -> PostgresStore:
    return PostgresStore(uri)
