"""Cold ``chunkwise search`` against warm ``chunkwise serve`` queries.

    .venv/bin/python benchmarks/serve_speed.py [--docs FOLDER|TAR.XZ]
        [--embedder minilm] [--queries 200]

Indexes ``--docs`` (Markdown; by default the bundled FastAPI + Pydantic docs,
tests/data/docs/fastapi-pydantic-docs.tar.xz) into a new LanceDB folder, then
times: one cold ``chunkwise search`` process per retriever (imports, model load,
index read, query: what a shell user waits for, best of three), and ``--queries``
questions (the Chroma questions when the folder has them, else heading texts)
against one ``chunkwise serve`` process over HTTP, per retriever, and dense with a
path filter: p50 and p95 in milliseconds.
"""

from __future__ import annotations

import argparse
import csv
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _questions(docs: Path, n: int) -> list[str]:
    qfile = docs / "questions_df.csv"
    if qfile.is_file():
        with qfile.open(encoding="utf-8") as f:
            out = [row["question"] for row in csv.DictReader(f)]
    else:
        out = [line.lstrip("# ").strip() for p in sorted(docs.rglob("*.md"))
               for line in p.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    return (out * (n // max(1, len(out)) + 1))[:n]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    import httpx

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", default=str(ROOT / "tests" / "data" / "docs"
                                          / "fastapi-pydantic-docs.tar.xz"))
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    from index_speed import byte_compile  # (this folder: what an installed package has)

    byte_compile()
    cli = [sys.executable, "-m", "chunkwise.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(args.docs)
        if docs.is_file():  # a tarball: unpacked into the scratch folder
            import tarfile

            with tarfile.open(docs) as tar:
                tar.extractall(Path(tmp) / "docs", filter="data")
            docs = Path(tmp) / "docs"
        questions = _questions(docs, args.queries)
        db = str(Path(tmp) / "idx")
        t0 = time.perf_counter()
        subprocess.run([*cli, "index", *map(str, sorted(docs.rglob("*.md"))), "--db", db,
                        "--embedder", args.embedder, "--no-progress"], check=True,
                       capture_output=True)
        print(f"index {docs}: {time.perf_counter() - t0:.1f} s")
        for retriever in ("dense", "bm25", "hybrid"):
            took = []
            for q in questions[:3]:
                t0 = time.perf_counter()
                subprocess.run([*cli, "search", q, "--db", db, "--retriever", retriever],
                               check=True, capture_output=True)
                took.append(time.perf_counter() - t0)
            print(f"cold chunkwise search ({retriever}): {min(took):.2f} s "
                  f"(best of {len(took)})")
        port = _port()
        server = subprocess.Popen([*cli, "serve", "--db", db, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            t0 = time.perf_counter()
            while True:
                try:
                    httpx.get(f"{url}/health", timeout=5)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            print(f"serve ready in {time.perf_counter() - t0:.1f} s")
            with httpx.Client(base_url=url, timeout=60) as http:
                top = sorted(p.name for p in docs.iterdir() if p.is_dir())
                narrow = {"path": top[0] + "/"} if top else None
                for retriever, where in [("dense", None), ("bm25", None), ("hybrid", None),
                                         ("dense", narrow)]:
                    body: dict = {"k": 5, "retriever": retriever}
                    if where:
                        body["filter"] = where
                    http.post("/search", json={**body, "query": questions[0]})
                    times = []
                    for q in questions:
                        t0 = time.perf_counter()
                        r = http.post("/search", json={**body, "query": q})
                        times.append(1000 * (time.perf_counter() - t0))
                        r.raise_for_status()
                    q95 = statistics.quantiles(times, n=20)[-1]
                    label = retriever + (f", filter {where}" if where else "")
                    print(f"warm serve ({label}, {len(times)} queries): p50 "
                          f"{statistics.median(times):.1f} ms, p95 {q95:.1f} ms")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
