"""``chunkwise serve``: one process that keeps an index open and answers over HTTP.

The embedder is loaded once; the rows and BM25 statistics that ``bm25`` and
``hybrid`` need are read once per version of the index and kept. Each request
looks at the index's version first (LanceDB: the table's latest version;
other stores: the ids and row hashes): a change made by ``chunkwise index`` is
seen by the next request, and while a run is still writing (LanceDB: the
writer's lock file names a live process) the server keeps answering from the
snapshot it has, so no answer mixes a half-done run with the old index.

Endpoints (OpenAPI schema at ``/openapi.json``, pages at ``/docs``):

- ``POST /search`` ``{query, k, retriever, filter, expand, include_boilerplate}`` -> ranked hits with ``id``,
  ``doc_id``, ``source``, ``start``, ``end``, ``page``, ``headings``, ``kind``,
  ``text``, ``score``;
- ``GET /search?q=...&k=5&retriever=...&path=...&kind=...`` -> the same, from a URL;
- ``GET /documents/{doc_id}`` -> the document's text (read from its file, when
  it is still the text the index was built from) and its chunks' spans;
- ``GET /view/{doc_id}?chunk=ID`` -> the document as an HTML page, every chunk
  boundary drawn (``chunkwise view``'s rendering) and chunk ID highlighted;
- ``GET /health`` -> the index, its size and embedder;
- ``GET /`` -> the search page: a search box, filters, results with file, heading
  trail, page and score; a result opens its document (``/view``) beside them.

A bad request is a 4xx with ``{"error": "one line"}``; nothing a request does
stops the server. With ``token``, every request but ``/health`` and the page needs
``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from fastapi import FastAPI

from .api import Index, index_filter, moved_root, read_text, relocated, relocated_row, relocation
from .errors import ChunkwiseError, ConfigError, InputError, StoreError
from .retrieval import RETRIEVERS, RowSearch, dense_search, row_search
from .types import stored_metadata

#: the fields of a hit in an answer (every row field but the stored hash and vector)
HIT_FIELDS = ("id", "doc_id", "source", "start", "end", "page", "headings", "kind", "text",
              "context", "token_count", "parent_id", "level", "metadata")


MetadataValue = str | int | float | bool


class SearchFilter(BaseModel):
    """Which chunks a search may return (see :mod:`chunkwise.filters`): every part given
    must hold; a list inside a part is any of it."""

    model_config = ConfigDict(extra="forbid")
    path: str | list[str] | None = Field(
        None, description="a folder or file prefix, or a glob, of doc_id ('guide/', '**/*.md')")
    kind: str | list[str] | None = Field(None, description="prose, table, code, qa, ...")
    strategy: str | list[str] | None = Field(None, description="the strategy that cut it")
    page: int | list[int] | str | None = Field(None, description="3, [3, 7] or '3-7'")
    metadata: dict[str, MetadataValue | list[MetadataValue]] | None = Field(
        None, description="document metadata: key -> value (or any of a list)")


class SearchRequest(BaseModel):
    """The body of ``POST /search``."""

    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1, max_length=10_000)
    k: int = Field(5, ge=1, le=1000)
    retriever: Literal["dense", "bm25", "hybrid"] = "hybrid"
    filter: SearchFilter | None = None
    expand: bool = False
    #: rank chunks that are boilerplate across the index's documents too
    include_boilerplate: bool = False


class Searcher:
    """An index kept open for many queries (thread-safe)."""

    def __init__(self, uri: str):
        from .embed import get_embedder

        self.uri = uri
        self.index = Index(uri, create=False)
        config = self.index.config()
        if config is None:
            raise ConfigError(f"no index at {uri} (build one with chunkwise index)")
        self.config = config
        #: where documents are named from (a project moved with its index: the new place)
        self.root = str(moved_root(config, self.index.store.local_path)) if config.get("root") \
            else None
        self.moved = relocation(config, self.index.store.local_path)
        self.embedder = _OneAtATime(get_embedder(config["embedder"], cache=False))
        self._lock = threading.Lock()
        self._version: Any = self._current_version()
        self._rows: RowSearch | None = None

    def _current_version(self) -> Any:
        version = self.index.store.version()
        if version is not None:
            return version
        digest = hashlib.blake2b(digest_size=16)
        for doc_id, ids in sorted(self.index.store.state().items()):
            for cid, row_hash in sorted(ids.items()):
                digest.update(f"{doc_id}\0{cid}\0{row_hash}\n".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def refresh(self, force: bool = False) -> None:
        """Move to the index's latest version, unless a run is writing it now
        (``force``: even then, when the snapshot held can no longer be read)."""
        with self._lock:
            if self.index.store.writing() and not force:
                return
            version = self._current_version()
            if version != self._version or force:
                self.index.close()
                self.index = Index(self.uri, create=False)
                self._version, self._rows = version, None

    def rows(self) -> RowSearch:
        with self._lock:
            if self._rows is None:
                self._rows = row_search(self.index.store, self.embedder)
            return self._rows

    def search(self, query: str, k: int = 5, retriever: str = "hybrid",
               expand: bool = False, filter: Any = None,
               include_boilerplate: bool = False) -> list[dict[str, Any]]:
        """Ranked hits as JSON objects; ``filter``: a :class:`~chunkwise.filters.Filter`
        or its written form; boilerplate chunks left out unless ``include_boilerplate``
        (:mod:`chunkwise.boilerplate`)."""
        import numpy as np

        if not query.strip():
            raise ConfigError("the query is empty: give the question to search for")
        if retriever not in RETRIEVERS:
            raise ConfigError(f"unknown retriever {retriever!r} (expected "
                              f"{', '.join(RETRIEVERS)})")
        where = index_filter(filter, self.root)  # no store read per request
        self.refresh()
        for attempt in (1, 2):
            try:
                if retriever == "dense" and not expand:
                    vector = np.asarray(self.embedder.embed([query]), dtype=np.float32)[0]
                    hits = dense_search(self.index.store, vector, k, where,
                                        self.rows().boilerplate, include_boilerplate)
                else:
                    hits = self.rows().search(query, k, retriever, expand, where,
                                              include_boilerplate)
                break
            except Exception as exc:
                # the store failed (the snapshot's files removed by a run finishing):
                # once more; a ChunkwiseError about the request is its answer
                retry = isinstance(exc, StoreError) or not isinstance(exc, ChunkwiseError)
                if attempt == 2 or not retry:
                    raise
                self.refresh(force=True)
        return [{**_fields(relocated_row(h.row, self.moved)), "rank": i,
                 "score": round(h.score, 6)} for i, h in enumerate(hits, 1)]

    def document(self, doc_id: str) -> dict[str, Any] | None:
        self.refresh()
        rows = [r for r in self.rows().rows if r["doc_id"] == doc_id]
        if not rows:
            return None
        rows.sort(key=lambda r: (r.get("level") or 0, r["start"], r["end"]))
        source = relocated(rows[0].get("source"), self.moved)
        text: str | None = None
        if source:
            try:
                text = read_text(source)
            except (InputError, OSError):
                text = None
        if text is not None and any(text[r["start"]:r["end"]] != r["text"] for r in rows):
            text = None  # the file changed since it was indexed: its offsets would lie
        return {"doc_id": doc_id, "source": source, "text": text,
                "chunks": [{f: r.get(f) for f in ("id", "start", "end", "kind", "headings",
                                                  "page", "level", "parent_id")}
                           for r in rows]}

    def view(self, doc_id: str, chunk_id: str | None = None) -> str | None:
        """The document as ``chunkwise view`` draws it (every chunk boundary), with the
        chunk ``chunk_id`` highlighted; None: no such document. A ConfigError when its
        file is gone or changed (its offsets would point at other text)."""
        from .types import Chunk, Document
        from .view import render

        found = self.document(doc_id)
        if found is None:
            return None
        if found["text"] is None:
            raise ConfigError(f"{doc_id}: its file is gone or changed since it was indexed; "
                              "run chunkwise index again")
        rows = [r for r in self.rows().rows if r["doc_id"] == doc_id]
        chunks = sorted((Chunk.from_dict(r) for r in rows), key=lambda c: (c.level, c.start))
        lit = next((c for c in chunks if c.id == chunk_id), None)
        if chunk_id and lit is None:
            raise ConfigError(f"{doc_id} has no chunk {chunk_id!r} (the index changed: "
                              "search again)")
        doc = Document(found["text"], doc_id, found["source"])
        return render(doc, chunks, title=doc_id, highlight=lit)

    def health(self) -> dict[str, Any]:
        self.refresh()
        state = self.index.store.state()
        return {"status": "ok", "index": self.uri, "documents": len(state),
                "chunks": sum(len(v) for v in state.values()),
                "embedder": self.config.get("embedder"), "model": self.config.get("model")}

    def close(self) -> None:
        self.index.close()


class _OneAtATime:
    """An embedder called by one thread at a time: requests run in a thread pool, and a
    Hugging Face tokenizer used by two threads at once fails ("Already borrowed")."""

    def __init__(self, embedder: Any):
        self.inner = embedder
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> Any:
        with self._lock:
            return self.inner.embed(texts)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def create_app(uri: str, token: str | None = None) -> Any:
    """The ASGI application serving the index at ``uri``."""
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse

    searcher = Searcher(uri)
    app = FastAPI(title="chunkwise", description=f"Search the index at {uri}",
                  version=_version())
    app.state.searcher = searcher

    @app.middleware("http")
    async def bearer(request: Request, call_next: Any) -> Any:
        if token and request.url.path not in ("/health", "/"):
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                return JSONResponse({"error": "a bearer token is required (Authorization: "
                                              "Bearer TOKEN)"}, status_code=401)
        try:
            return await call_next(request)
        except Exception as exc:  # the server outlives any request
            return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"},
                                status_code=500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Any:
        first = exc.errors()[0] if exc.errors() else {}
        loc = list(first.get("loc", ()))
        if loc and loc[0] in ("body", "query", "path"):  # where it was: a body, a URL
            loc = loc[1:]
        where = ".".join(str(p) for p in loc if not isinstance(p, int)) or "body"
        return JSONResponse({"error": f"{where}: {first.get('msg', 'invalid')}"},
                            status_code=422)

    @app.exception_handler(ChunkwiseError)
    async def refused(request: Request, exc: ChunkwiseError) -> Any:
        # the index's own files failing is the server's trouble, not the request's
        return JSONResponse({"error": str(exc)},
                            status_code=503 if isinstance(exc, StoreError) else 400)

    _add_routes(app, searcher)
    return app


def _add_routes(app: FastAPI, searcher: Searcher) -> None:
    """The endpoints (the module's docstring lists them)."""
    from fastapi import Query
    from fastapi.responses import HTMLResponse, JSONResponse

    @app.post("/search")
    def search(body: SearchRequest) -> dict[str, Any]:
        where = body.filter.model_dump(exclude_none=True) if body.filter else None
        return {"hits": searcher.search(body.query, body.k, body.retriever, body.expand, where,
                                        body.include_boilerplate)}

    @app.get("/search")
    def search_get(q: str = Query(min_length=1, max_length=10_000),
                   k: int = Query(5, ge=1, le=1000),
                   retriever: Literal["dense", "bm25", "hybrid"] = "hybrid",
                   path: list[str] | None = Query(None),  # noqa: B008 (FastAPI's form)
                   kind: list[str] | None = Query(None),  # noqa: B008
                   expand: bool = False, include_boilerplate: bool = False) -> dict[str, Any]:
        """``POST /search`` from a URL (``curl 'HOST/search?q=refunds&k=3'``, a
        browser's address bar): the query as ``q``, the path and kind filters
        repeatable; the other filters need the POST body."""
        where = {key: value for key, value in (("path", path), ("kind", kind)) if value}
        return {"hits": searcher.search(q, k, retriever, expand, where or None,
                                        include_boilerplate)}

    @app.get("/documents/{doc_id:path}")
    def document(doc_id: str) -> Any:
        found = searcher.document(doc_id)
        if found is None:
            return JSONResponse({"error": f"no document {doc_id!r} in the index"},
                                status_code=404)
        return found

    @app.get("/view/{doc_id:path}", response_class=HTMLResponse)
    def view(doc_id: str, chunk: str | None = None) -> Any:
        page = searcher.view(doc_id, chunk)
        if page is None:
            return JSONResponse({"error": f"no document {doc_id!r} in the index"},
                                status_code=404)
        return HTMLResponse(page)

    @app.get("/health")
    def health() -> dict[str, Any]:
        return searcher.health()

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> Any:
        return HTMLResponse(_page())


def _fields(row: dict[str, Any]) -> dict[str, Any]:
    out = {f: row.get(f) for f in HIT_FIELDS}
    out["copies"] = row.get("copies") or []
    if isinstance(out["metadata"], str):  # stored as JSON text
        out["metadata"] = stored_metadata(out["metadata"])
    return out


def _page() -> str:
    from importlib.resources import files

    return files("chunkwise").joinpath("page.html").read_text(encoding="utf-8")


def _version() -> str:
    from . import __version__

    return __version__


def serve(uri: str, host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          log_level: str = "warning") -> None:
    """Run the server until interrupted."""
    import uvicorn

    token = token or os.environ.get("CHUNKWISE_TOKEN") or None
    uvicorn.run(create_app(uri, token), host=host, port=port, log_level=log_level)


__all__ = ["HIT_FIELDS", "Searcher", "create_app", "serve"]
