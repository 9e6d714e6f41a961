"""The store interface every index backend implements, the row format, and the
registry that opens a store from its URI (``chunkwise.stores`` entry points)."""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..filters import Filter
from ..registry import Registry
from ..sinks import check_utf8_names
from ..types import Chunk

TABLE = "chunks"
CONFIG_TABLE = "chunkwise_config"


def row_of(chunk: Chunk) -> dict[str, Any]:
    check_utf8_names(chunk.doc_id, chunk.source, "an index")
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
    #: the folder an embedded store keeps its files in (never read as input)
    local_path: Path | None = None

    def writer_lock(self, wait: bool = True, on_wait: Callable[[], object] | None = None,
                    ) -> contextlib.AbstractContextManager[None]:
        """Held by a run that writes, so that two runs never interleave; a second run
        waits (``on_wait()`` first) or, without ``wait``, gets an IndexBusyError.
        The base: no lock (a server's writes are upserts by id: never doubled)."""
        return contextlib.nullcontext()

    def version(self) -> Any:
        """Something that changes with every write (None: the store cannot say; a
        reader then compares :meth:`state`)."""
        return None

    def writing(self) -> bool:
        """Whether another process is writing the index now (a reader keeps the
        snapshot it has until the run is done). The base: never known."""
        return False

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

    def embed_texts(self, ids: Sequence[str] | None = None) -> dict[str, str]:
        """The ``embed_text`` (what its vector was made from) of each of these rows, or
        of every row (None), by id: a sync gives a new row of the same text that row's
        vector instead of embedding it again (a file renamed, a folder copied). The
        base reads every row; a store that can read by id or by column does so."""
        wanted = None if ids is None else set(ids)
        if wanted is not None and not wanted:
            return {}
        rows, _ = self.rows()
        return {r["id"]: r.get("embed_text") or "" for r in rows
                if wanted is None or r.get("id") in wanted}

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

    def texts(self) -> list[tuple[str, str, str]]:
        """Every row's (id, doc_id, text): what finding boilerplate reads (a store
        that can read columns alone does so; this base reads whole rows)."""
        rows, _ = self.rows()
        return [(r["id"], r["doc_id"], r.get("text") or "") for r in rows]

    def search(self, vector: np.ndarray, k: int, where: Filter | None = None) -> list[Hit]:
        """The ``k`` rows nearest to ``vector`` by cosine similarity, searched by the
        store itself (nothing loaded into memory but the hits). ``where``: a store may
        narrow the search with the part of the filter it can test itself
        (:func:`chunkwise.filters.pushdown`); :func:`filtered_search` checks the rest
        (a plug-in's ``search`` may leave the parameter out)."""
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

    def latest(self) -> None:
        """Read the store's latest state from now on: a handle kept open may read the
        version it was opened at (LanceDB), whose files another run's clean-up can
        have removed since. Nothing to do where every read is the latest."""


def filtered_search(store: Store, vector: np.ndarray, k: int,
                    where: Filter | None) -> list[Hit]:
    """The ``k`` nearest rows that ``where`` matches: the store's search, narrowed by
    what it pushes down, each hit checked exactly, asked for more (4x each time) while
    hits it returned failed the check and it may hold more."""
    if not where:
        return store.search(vector, k)
    takes_where = "where" in inspect.signature(store.search).parameters
    fetch = k
    while True:
        hits = (store.search(vector, fetch, where=where) if takes_where
                else store.search(vector, fetch))
        kept = [h for h in hits if where.matches(h.row)]
        if len(kept) >= k or len(hits) < fetch:
            return kept[:k]
        fetch *= 4


def batches(items: Sequence[Any], n: int = 500) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), n):
        yield items[i:i + n]


def sql_quote(values: Iterable[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)




#: URI scheme -> a function that opens the store at that URI (given whole); the
#: built-ins register through the ``chunkwise.stores`` entry points, as plug-ins do
STORES: Registry[Callable[[str], Store]] = Registry("chunkwise.stores", "index store", callable)

#: the extra that installs a built-in store's client library
_EXTRAS = {"qdrant": "qdrant", "qdrant+local": "qdrant", "postgresql": "postgres",
           "postgres": "postgres"}


def open_store(uri: str, create: bool = True) -> Store:
    """A store from its URI: ``SCHEME://...`` opens the store registered for SCHEME; a
    plain path is a LanceDB folder. ``create=False`` (a search): an embedded store that
    does not exist yet is a ConfigError, and nothing is created (a store's opener
    takes ``create`` where it can make something)."""
    scheme, sep, _ = uri.partition("://")
    if not sep:
        scheme = "lancedb"
    if scheme not in STORES:
        raise ConfigError(f"unknown index URI {uri!r} (PATH, lancedb://PATH, "
                          "qdrant+local://PATH, qdrant://HOST:PORT/NAME, "
                          "postgresql://... or a scheme of an installed plug-in: "
                          f"{', '.join(STORES.names())})")
    opener = STORES[scheme]
    try:
        if not create and "create" in inspect.signature(opener).parameters:
            return opener(uri, create=False)  # type: ignore[call-arg]
        return opener(uri)
    except ImportError as exc:
        extra = _EXTRAS.get(scheme)
        how = f"pip install 'chunkwise[{extra}]'" if extra else "install it"
        raise ConfigError(f"the store for {uri!r} needs {exc.name}: {how}") from None
