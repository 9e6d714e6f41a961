"""``chunkwise serve`` as a user runs it, over an index of the bundled FastAPI +
Pydantic docs: the real command on a free port, queried over HTTP (filters,
documents, exact citations), under load from concurrent clients, and its web page
driven in a real headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from helpers import free_port, wait_until_serving

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def _serving(db: Path) -> Iterator[str]:
    """The base URL of ``chunkwise serve --db db`` on a free port, stopped after."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "serve", "--db",
                             str(db), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.fixture(scope="module")
def served(docs_index) -> Iterator[tuple[str, Path]]:
    """(base URL, the docs folder): ``chunkwise serve`` over the docs index."""
    with _serving(docs_index / "idx") as url:
        yield url, docs_index / "docs"


def _check_citations(hits: list[dict], docs: Path) -> None:
    for h in hits:
        text = (docs / h["doc_id"]).read_text(encoding="utf-8")
        assert text[h["start"]:h["end"]] == h["text"], h["id"]


def test_search_with_filters_and_documents_over_http(served):
    url, docs = served
    with httpx.Client(base_url=url, timeout=60) as http:
        health = http.get("/health").json()
        assert health["documents"] == 243 and health["chunks"] > 3000
        hits = http.post("/search", json={"query": "upload a file with UploadFile",
                                          "k": 5}).json()["hits"]
        assert hits[0]["doc_id"] == "fastapi/tutorial/request-files.md"
        _check_citations(hits, docs)
        for retriever in ("dense", "bm25", "hybrid"):
            body = {"query": "validate an email address", "k": 8, "retriever": retriever,
                    "filter": {"path": "pydantic/"}}
            found = http.post("/search", json=body).json()["hits"]
            assert len(found) == 8 and all(h["doc_id"].startswith("pydantic/") for h in found)
            _check_citations(found, docs)
            body["filter"] = {"path": "fastapi/tutorial/", "kind": "code"}
            code = http.post("/search", json=body).json()["hits"]
            assert code and all(h["doc_id"].startswith("fastapi/tutorial/")
                                and h["kind"] == "code" for h in code), retriever
            _check_citations(code, docs)
            body["filter"] = {"metadata": {"project": "fastapi"}, "path": "**/body*.md"}
            bodies = http.post("/search", json=body).json()["hits"]
            assert bodies and all(h["doc_id"].startswith("fastapi/")
                                  and Path(h["doc_id"]).name.startswith("body") for h in bodies)
        doc = http.get("/documents/fastapi/tutorial/request-files.md").json()
        assert doc["text"] == (docs / "fastapi/tutorial/request-files.md").read_text("utf-8")
        assert all(doc["text"][c["start"]:c["end"]] for c in doc["chunks"])
        bad = http.post("/search", json={"query": "x", "filter": {"page": "9-2"}})
        assert bad.status_code == 400 and bad.json()["error"].startswith("filter page")


#: requests of the load test: each asked many times, each answer must equal the first
LOAD = [{"query": q, "k": k, "retriever": r, **({"filter": f} if f else {})}
        for q, k, r, f in [
            ("upload a file with UploadFile", 5, "dense", None),
            ("upload a file with UploadFile", 5, "hybrid", None),
            ("dependency injection with Depends", 10, "bm25", None),
            ("dependency injection with Depends", 3, "hybrid", {"path": "fastapi/"}),
            ("custom validators on a model field", 5, "dense", {"path": "pydantic/concepts"}),
            ("custom validators on a model field", 5, "hybrid", {"kind": "code"}),
            ("OAuth2 password flow with JWT tokens", 8, "dense", {"kind": ["prose", "code"]}),
            ("serialize a model to JSON", 5, "bm25", {"metadata": {"project": "pydantic"}}),
            ("CORS middleware", 4, "dense", {"path": "**/middleware.md"}),
            ("background tasks after returning a response", 6, "hybrid", None),
        ]]


def test_two_thousand_requests_from_eight_clients_all_answer_correctly(served):
    url, docs = served
    with httpx.Client(base_url=url, timeout=60) as http:
        expected = []
        for body in LOAD:
            hits = http.post("/search", json=body).json()["hits"]
            assert hits, body
            _check_citations(hits, docs)
            expected.append([(h["id"], h["start"], h["end"], h["score"]) for h in hits])

    def client(worker: int) -> list[str]:
        wrong = []
        with httpx.Client(base_url=url, timeout=60) as http:
            for n in range(250):
                i = (worker * 7 + n) % len(LOAD)
                r = http.post("/search", json=LOAD[i])
                got = ([(h["id"], h["start"], h["end"], h["score"]) for h in r.json()["hits"]]
                       if r.status_code == 200 else None)
                if got != expected[i]:
                    wrong.append(f"request {i}: {r.status_code} {r.text[:200]}")
        return wrong

    t0 = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        failures = [w for ws in pool.map(client, range(8)) for w in ws]
    took = time.perf_counter() - t0
    assert failures == [], failures[:5]
    print(f"2,000 requests from 8 clients in {took:.1f} s ({2000 / took:.0f}/s)")


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                    reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_web_page_finds_and_highlights_the_passage_in_a_real_browser(served, tmp_path):
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, "chromium is missing: .ci/run installs it with apt-get"
    url, docs = served
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(url + "/")
            page.wait_for_function("document.getElementById('index').textContent.length > 0")
            assert "243 documents" in page.inner_text("#index")
            page.fill("#query", "upload a file with UploadFile")
            page.press("#query", "Enter")
            page.wait_for_selector(".hit")
            first = page.locator(".hit").first
            assert first.get_attribute("data-doc-id") == "fastapi/tutorial/request-files.md"
            chunk = first.get_attribute("data-chunk")
            frame = page.frame_locator("#document")
            frame.locator("#hit").wait_for()
            lit = "".join(frame.locator("span.hl").all_text_contents())
            hit = httpx.post(url + "/search", json={"query": "upload a file with UploadFile",
                                                    "k": 1}).json()["hits"][0]
            assert hit["id"] == chunk and lit == hit["text"]  # exactly the passage, marked
            text = (docs / hit["doc_id"]).read_text(encoding="utf-8")
            assert lit == text[hit["start"]:hit["end"]]
            bands = frame.locator("span.b").count()  # a bar where each drawn chunk starts
            assert bands >= len(httpx.get(url + "/documents/" + hit["doc_id"]).json()["chunks"]) - 1
            # a filter typed in the page narrows the results
            page.fill("#path", "pydantic/")
            page.press("#query", "Enter")
            page.wait_for_function("document.querySelector('.hit') && [...document.querySelectorAll"
                                   "('.hit')].every(h => h.dataset.docId.startsWith('pydantic/'))")
            page.fill("#path", "")
            page.press("#query", "Enter")
            page.wait_for_function("(document.querySelector('.hit') || {dataset: {}}).dataset"
                                   ".docId === 'fastapi/tutorial/request-files.md'")
            frame.locator("#hit").wait_for()
            shot = tmp_path / "page.png"
            page.screenshot(path=str(shot))
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
            # console transcripts pasted into many guides are boilerplate: shown, and
            # marked, only with the box ticked
            page.fill("#query", "INFO Application startup complete")
            page.press("#query", "Enter")
            page.wait_for_function("document.querySelector('.hit') && !document.querySelector"
                                   "('#status').textContent.startsWith('Searching')")
            assert not any("boilerplate" in m for m in page.locator(".hit .meta").all_inner_texts())
            page.check("#boilerplate")
            page.press("#query", "Enter")
            page.wait_for_function("[...document.querySelectorAll('.hit .meta')].some("
                                   "m => m.textContent.includes('boilerplate'))")
        finally:
            browser.close()


def test_the_web_page_says_where_a_hit_is_in_code_and_in_a_transcript(tmp_path, static_embedder):
    """As `search` prints it: a source file's lines and symbol, a transcript's times,
    on each hit of the page (a real headless Chromium)."""
    from playwright.sync_api import sync_playwright

    from chunkwise import Index

    assert CHROMIUM is not None, "chromium is missing: .ci/run installs it with apt-get"
    data = Path(__file__).parent / "data"
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(data / "code" / "shop.py", docs)
    shutil.copy(data / "transcripts" / "call.vtt", docs)
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs, embedder=static_embedder)
    with _serving(tmp_path / "idx") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(url + "/")
            for query, path, shown in (
                    ("total price of the cart", "shop.py", r"lines \d+-\d+ Cart\.total"),
                    ("what did they say on the call", "call.vtt",
                     r"\d\d:\d\d:\d\d\.\d{3}-\d\d:\d\d:\d\d\.\d{3}")):
                page.fill("#query", query)
                page.fill("#path", path)
                page.press("#query", "Enter")
                page.wait_for_function(
                    "document.querySelector('.hit') && [...document.querySelectorAll('.hit')]"
                    f".every(h => h.dataset.docId === '{path}')")
                metas = page.locator(".hit .meta").all_inner_texts()
                assert any(re.search(shown, m) for m in metas), metas
        finally:
            browser.close()
