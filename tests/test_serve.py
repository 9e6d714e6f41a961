"""``chunkwise serve``: a real uvicorn server on a free port, queried over HTTP with
httpx; the index is a real LanceDB folder built with a static embedder."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import httpx
import pytest

from chunkwise import Index

from helpers import free_port, wait_until_serving

pytestmark = pytest.mark.slow

DOCS = {
    "refunds.md": "# Refunds\n\nRefunds are paid within 14 days of the return reaching us.\n\n"
                  "## Exceptions\n\nGift cards are never refunded.\n",
    "shipping.md": "# Shipping\n\nParcels travel by courier and arrive in three working days.\n",
    "guide/setup.md": "# Setup\n\nInstall the package, then run the setup wizard once.\n",
}


class _Server:
    """uvicorn serving create_app(db) in a thread of this process."""

    def __init__(self, db: str, token: str | None = None):
        import uvicorn

        from chunkwise.serve import create_app

        self.port = free_port()
        config = uvicorn.Config(create_app(db, token), host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> httpx.Client:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def built(tmp_path, static_embedder):
    docs = tmp_path / "docs"
    for name, text in DOCS.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text)
    db = str(tmp_path / "idx")
    with Index(db) as index:
        index.sync(docs, embedder=static_embedder)
    return docs, db


def test_search_documents_health_and_schema(built):
    docs, db = built
    with _Server(db) as http:
        health = http.get("/health").json()
        assert health["status"] == "ok" and health["documents"] == 3 and health["chunks"] >= 4
        for retriever in ("hybrid", "dense", "bm25"):
            r = http.post("/search", json={"query": "when are refunds paid", "k": 3,
                                           "retriever": retriever})
            hits = r.json()["hits"]
            assert r.status_code == 200 and hits[0]["doc_id"] == "refunds.md", retriever
            assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
            assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
            top = hits[0]
            text = (docs / "refunds.md").read_text()
            assert text[top["start"]:top["end"]] == top["text"]  # an exact citation
            assert top["headings"][0] == "Refunds" and isinstance(top["metadata"], dict)
        doc = http.get("/documents/guide/setup.md").json()
        assert doc["text"] == DOCS["guide/setup.md"] and doc["chunks"]
        assert all(doc["text"][c["start"]:c["end"]] for c in doc["chunks"])
        schema = http.get("/openapi.json").json()
        assert {"/search", "/health", "/documents/{doc_id}"} <= set(schema["paths"])


@pytest.mark.parametrize("body,status,message", [
    ({"query": ""}, 422, "query: String should have at least 1 character"),
    ({"query": "x", "k": 0}, 422, "k: Input should be greater than or equal to 1"),
    ({"query": "x", "retriever": "magic"}, 422, "retriever: Input should be"),
    ({"query": "x", "colour": "red"}, 422, "colour: Extra inputs are not permitted"),
    ({"query": "   "}, 400, "the query is empty"),
    ({"query": "x", "expand": True}, 400, "expand needs a hierarchical index"),
])
def test_a_bad_request_is_one_line_and_the_server_goes_on(built, body, status, message):
    _, db = built
    with _Server(db) as http:
        r = http.post("/search", json=body)
        assert r.status_code == status and set(r.json()) == {"error"}
        assert r.json()["error"].startswith(message) and "\n" not in r.json()["error"]
        bad_json = http.post("/search", content=b"{not json",
                             headers={"content-type": "application/json"})
        assert bad_json.status_code == 422 and "JSON" in bad_json.json()["error"]
        missing = http.get("/documents/nope.md")
        assert missing.status_code == 404 and "no document 'nope.md'" in missing.json()["error"]
        assert http.post("/search", json={"query": "refunds"}).status_code == 200


def test_a_token_is_required_when_given(built):
    _, db = built
    with _Server(db, token="s3cret") as http:
        assert http.get("/health").status_code == 200  # for load balancers
        refused = http.post("/search", json={"query": "refunds"})
        assert refused.status_code == 401 and "bearer token" in refused.json()["error"]
        wrong = http.post("/search", json={"query": "refunds"},
                          headers={"Authorization": "Bearer guess"})
        assert wrong.status_code == 401
        ok = http.post("/search", json={"query": "refunds"},
                       headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200 and ok.json()["hits"]


def test_an_update_is_seen_by_the_next_request(built, static_embedder):
    docs, db = built
    with _Server(db) as http:
        assert http.post("/search", json={"query": "warranty"}).json()["hits"][0]["doc_id"] \
            != "warranty.md"
        (docs / "warranty.md").write_text("# Warranty\n\nThe warranty lasts two years.\n")
        (docs / "shipping.md").unlink()
        with Index(db) as index:
            index.sync(docs, embedder=static_embedder, prune=True)
        for retriever in ("hybrid", "dense"):
            hits = http.post("/search", json={"query": "how long is the warranty",
                                              "retriever": retriever}).json()["hits"]
            assert hits[0]["doc_id"] == "warranty.md", retriever
            assert "shipping.md" not in {h["doc_id"] for h in hits}
        assert http.get("/health").json()["documents"] == 3


def test_a_served_index_follows_a_watch_beside_it(built, static_embedder):
    """``index --watch`` and ``serve`` on one index: a file saved while both run is in
    the next answers once its sync is written, with no restart of either."""
    docs, db = built
    synced: list = []
    stop = threading.Event()
    with _Server(db) as http, Index(db) as index:
        watcher = threading.Thread(target=index.watch, args=(docs,), kwargs=dict(
            embedder=static_embedder, stop=stop, on_sync=lambda r, s: synced.append(r)))
        watcher.start()
        try:
            deadline = time.monotonic() + 60
            while not synced:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            (docs / "warranty.md").write_text("# Warranty\n\nThe warranty lasts two years.\n")
            while len(synced) < 2:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            hits = http.post("/search", json={"query": "how long is the warranty"}).json()["hits"]
            assert hits[0]["doc_id"] == "warranty.md"
            assert http.get("/health").json()["documents"] == 4
        finally:
            stop.set()
            watcher.join(timeout=30)
    assert not watcher.is_alive()


_HALF_RUN = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import numpy as np
    from chunkwise import Index
    from chunkwise.index.lock import file_lock

    db = sys.argv[1]
    with file_lock(Path(db).resolve(), db):
        with Index(db) as index:
            rows, vectors = index.store.rows()
            row = dict(rows[0], id="f" * 24, doc_id="half.md", row_hash="x")
            index.store.upsert([row], vectors[:1])
        print("written", flush=True)
        sys.stdin.read()  # until the test lets go
""")


def test_a_run_still_writing_is_not_seen_until_it_is_done(built):
    _, db = built
    with _Server(db) as http:
        before = http.get("/health").json()["chunks"]
        writer = subprocess.Popen([sys.executable, "-c", _HALF_RUN, db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert writer.stdout is not None and writer.stdout.readline().strip() == "written"
            assert http.get("/health").json()["chunks"] == before  # the old snapshot
            hits = http.post("/search", json={"query": "refunds", "k": 50}).json()["hits"]
            assert "half.md" not in {h["doc_id"] for h in hits}
        finally:
            writer.communicate("", timeout=60)
        assert http.get("/health").json()["chunks"] == before + 1  # done: seen


def test_an_index_whose_files_are_gone_is_a_503_naming_it(built):
    """A data file of the index deleted under a running server: a search answers 503
    (the server's trouble, not the request's) with the one-line error naming the
    index, and the server goes on answering."""
    from pathlib import Path

    _, db = built
    for f in (Path(db) / "chunks.lance" / "data").glob("*.lance"):
        f.unlink()
    with _Server(db) as http:
        for retriever in ("dense", "hybrid"):
            answer = http.post("/search", json={"query": "refunds", "retriever": retriever})
            assert answer.status_code == 503, answer.text
            error = answer.json()["error"]
            assert error.startswith(f"index {db}: ") and "Not found" in error
            assert "--check --repair" in error


def test_the_command_warns_when_it_listens_beyond_this_machine(built, tmp_path):
    _, db = built
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "serve", "--db", db,
                             "--host", "0.0.0.0", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", proc)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert "serving on 0.0.0.0: anyone who can reach this machine can query the index" in err
    assert "--token" in err and f"http://0.0.0.0:{port}" in out
    code = subprocess.run([sys.executable, "-m", "chunkwise.cli", "serve", "--db",
                           str(tmp_path / "missing")], capture_output=True, text=True)
    assert code.returncode == 2 and "no index at" in code.stderr
    assert "Traceback" not in code.stderr and not (tmp_path / "missing").exists()
    assert Path(db).is_dir()


def test_search_from_a_url(built):
    """`curl 'HOST/search?q=...'` answered "Method Not Allowed": a GET takes the query
    as q, k and the retriever, and repeatable path and kind filters, with the same
    hits as the POST and the same one-line errors."""
    _, db = built
    with _Server(db) as http:
        got = http.get("/search", params={"q": "when are refunds paid", "k": 2})
        posted = http.post("/search", json={"query": "when are refunds paid", "k": 2})
        assert got.status_code == 200 and got.json() == posted.json()
        assert got.json()["hits"][0]["doc_id"] == "refunds.md"
        only = http.get("/search", params=[("q", "refunds"), ("path", "guide/"),
                                           ("retriever", "bm25")]).json()["hits"]
        assert only and {h["doc_id"] for h in only} == {"guide/setup.md"}
        both = http.get("/search", params=[("q", "refunds"), ("path", "guide/"),
                                           ("path", "shipping.md")]).json()["hits"]
        assert {h["doc_id"] for h in both} == {"guide/setup.md", "shipping.md"}
        cases: list[tuple[dict[str, str | int], str]] = [
            ({"k": 2}, "q: Field required"),
            ({"q": "x", "k": 0}, "k: Input should be greater than"),
            ({"q": "x", "retriever": "magic"}, "retriever: Input should be"),
            ({"q": "  "}, "the query is empty")]
        for params, message in cases:
            r = http.get("/search", params=params)
            assert r.status_code in (400, 422) and r.json()["error"].startswith(message), r.json()
        assert "/search" in http.get("/openapi.json").json()["paths"]
