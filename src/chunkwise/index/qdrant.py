"""Qdrant: ``qdrant+local://PATH`` (embedded local mode) or ``qdrant://HOST:PORT/NAME``."""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..filters import Filter, pushdown
from .lock import file_lock
from .store import TABLE, Hit, Store, batches


class QdrantStore(Store):
    """Qdrant: local mode (a folder) or a server. Point ids are UUIDs derived from
    chunk ids; the payload holds the row; the configuration is a second collection."""

    def __init__(self, *, path: str | None = None, url: str | None = None,
                 collection: str = TABLE, create: bool = True):
        import qdrant_client  # noqa: F401  (a missing extra is said here, before any work)

        self.uri = path or url or ""
        self._url = url
        self.name = collection
        self._client: Any = None
        self._held = contextlib.ExitStack()
        self._locked = False
        if path is not None:  # local mode: one process at a time, under our lock file
            folder = Path(path)
            if folder.exists() and not folder.is_dir():
                raise ConfigError(f"{path} is a file, not an index folder")
            if not folder.exists() and not create:
                raise ConfigError(f"no index at {path} (build one with chunkwise index)")
            self.local_path = Path(os.path.realpath(folder))

    def writer_lock(self, wait: bool = True, on_wait: Callable[[], object] | None = None,
                    ) -> contextlib.AbstractContextManager[None]:
        if self.local_path is not None and not self._locked:
            self._held.enter_context(file_lock(self.local_path, self.uri, wait, on_wait))
            self._locked = True
        return contextlib.nullcontext()  # held until close: local mode's client locks too

    @property
    def client(self) -> Any:
        """The client, made on first use (in local mode, once this process holds the
        folder's lock: waiting for a run that writes it)."""
        if self._client is None:
            from qdrant_client import QdrantClient

            if self.local_path is not None:
                self.writer_lock()
                self._client = QdrantClient(path=str(self.local_path))
            else:
                self._client = QdrantClient(url=self._url)
        return self._client

    @staticmethod
    def _pid(cid: str) -> str:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, "chunkwise:" + cid))

    def _exists(self, name: str) -> bool:
        return bool(self.client.collection_exists(name))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self._held.close()
        self._locked = False

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
        for part in batches(list(ids)):
            for p in self.client.retrieve(self.name, ids=[self._pid(c) for c in part],
                                          with_payload=["id"], with_vectors=True):
                out[(p.payload or {})["id"]] = np.asarray(p.vector, dtype=np.float32)
        return out

    def embed_texts(self, ids: Sequence[str] | None = None) -> dict[str, str]:
        if (ids is not None and not ids) or not self._exists(self.name):
            return {}
        if ids is None:
            points: Iterable[Any] = self._scroll(["id", "embed_text"])
        else:
            points = (p for part in batches(list(ids)) for p in self.client.retrieve(
                self.name, ids=[self._pid(c) for c in part], with_payload=["id", "embed_text"]))
        out = {}
        for p in points:
            payload = p.payload or {}
            out[payload["id"]] = payload.get("embed_text") or ""
        return out

    def upsert(self, rows: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:
        from qdrant_client import models

        if not rows:
            return
        if not self._exists(self.name):
            self.client.create_collection(self.name, vectors_config=models.VectorParams(
                size=int(vectors.shape[1]), distance=models.Distance.COSINE))
        for part in batches(list(range(len(rows)))):
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

    def search(self, vector: np.ndarray, k: int, where: Filter | None = None) -> list[Hit]:
        if not self._exists(self.name):
            return []
        found = self.client.query_points(self.name, query=np.asarray(vector).tolist(),
                                         query_filter=qdrant_filter(where), limit=k,
                                         with_payload=True).points
        return [Hit(float(p.score), dict(p.payload or {})) for p in found]


def qdrant_filter(where: Filter | None) -> Any:
    """The part of ``where`` Qdrant tests itself, as payload conditions (kind: any of;
    page: a range); paths and metadata are checked on the hits."""
    from qdrant_client import models

    if where is None:
        return None
    down = pushdown(where)
    must: list[Any] = []
    if down.kinds:
        must.append(models.FieldCondition(key="kind", match=models.MatchAny(any=list(down.kinds))))
    if down.page is not None:
        must.append(models.FieldCondition(key="page", range=models.Range(gte=down.page[0],
                                                                         lte=down.page[1])))
    return models.Filter(must=must) if must else None


def open_local(uri: str, create: bool = True) -> QdrantStore:
    """``qdrant+local://PATH``: Qdrant's embedded local mode."""
    return QdrantStore(path=uri.removeprefix("qdrant+local://"), create=create)


def open_server(uri: str) -> QdrantStore:
    """``qdrant://HOST:PORT/NAME``: a Qdrant server (collection NAME, default chunks)."""
    host, _, name = uri.removeprefix("qdrant://").partition("/")
    return QdrantStore(url=f"http://{host}", collection=name or TABLE)
