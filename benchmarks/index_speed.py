"""Indexing at the speed of the embedder: ``chunkwise index`` against one plain
embedding pass and against the LlamaIndex and LangChain indexing pipelines.

    .venv/bin/python benchmarks/index_speed.py [--docs FOLDER|TAR.XZ] [--device cpu|cuda]
        [--limit N] [--skip-peers]

(peers: ``pip install -r benchmarks/requirements.txt``). One run, one machine, the
bundled all-MiniLM-L6-v2, the same documents (by default the bundled FastAPI +
Pydantic docs, tests/data/docs/fastapi-pydantic-docs.tar.xz), every step its own
process (what a user or a cron job waits for, imports and model load included):

1. the floor: ``SentenceTransformer.encode`` of exactly chunkwise's chunk texts
   (``embed_text``), timed around the call alone, and the same process whole;
2. ``chunkwise index`` into a new LanceDB folder, then again after a one-file edit;
3. LlamaIndex ``IngestionPipeline`` (``SentenceSplitter`` at 160 MiniLM tokens,
   ``HuggingFaceEmbedding`` of the same model, ``LanceDBVectorStore``, its docstore
   persisted for de-duplication), first run and after the same edit (its store's
   ``delete`` patched: 0.6.0 quotes the document id as a column name);
4. LangChain ``RecursiveCharacterTextSplitter`` at 160 MiniLM tokens,
   ``HuggingFaceEmbeddings``, the community ``LanceDB`` store, through its indexing
   API with a ``SQLRecordManager`` (incremental clean-up), first run and after it.

5. ``chunkwise index --watch`` left running, then another edit: seconds from the
   write until the edited file's rows are written.

Prints seconds, chunks and chunks/s per step and the ratios the targets are
stated in: chunkwise's first run at most 1.15x the floor's encode and faster than
each pipeline's first run; its re-run after the edit at least 20x faster than each
pipeline's. Then the cold start: ``python -c pass``, ``import chunkwise`` plus the
tokenizer load, ``chunkwise --help`` and ``chunkwise chunk`` on one small file.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = 160  # chunkwise's default size, in MiniLM tokens: the peers cut at the same

_FLOOR = r"""
import json, sys, time
t0 = time.perf_counter()
from sentence_transformers import SentenceTransformer
from chunkwise.tokens import minilm_dir
texts = [json.loads(line)["embed_text"] for line in open(sys.argv[1], encoding="utf-8")]
model = SentenceTransformer(str(minilm_dir()), device=sys.argv[2])
t1 = time.perf_counter()
model.encode(texts, batch_size=int(sys.argv[3]), normalize_embeddings=True)
t2 = time.perf_counter()
print(json.dumps({"chunks": len(texts), "encode": t2 - t1, "whole": t2 - t0}))
"""

_LLAMA = r"""
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from llama_index.core import SimpleDirectoryReader
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.embeddings.huggingface import HuggingFaceEmbedding
from llama_index.vector_stores.lancedb import LanceDBVectorStore
from tokenizers import Tokenizer
from chunkwise.tokens import minilm_dir
docs, db, state, device, size = sys.argv[1:5] + [int(sys.argv[5])]


class Store(LanceDBVectorStore):
    # 0.6.0 quotes the document id as an identifier ("..."), so its re-run fails with
    # "No field named ..."; a user would patch it the same way
    def delete(self, ref_doc_id, **kwargs):
        self.table.delete(f"{self.doc_id_key} = '" + ref_doc_id.replace("'", "''") + "'")


tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
tok.no_padding(); tok.no_truncation()
split = SentenceSplitter(chunk_size=size, chunk_overlap=0,
                         tokenizer=lambda t: tok.encode(t, add_special_tokens=False).ids)
pipeline = IngestionPipeline(
    transformations=[split, HuggingFaceEmbedding(model_name=str(minilm_dir()), device=device)],
    vector_store=Store(uri=db, table_name="nodes"),
    docstore=SimpleDocumentStore())
if Path(state).exists():
    pipeline.load(state)
documents = SimpleDirectoryReader(docs, recursive=True, filename_as_id=True,
                                  required_exts=[".md"]).load_data()
nodes = pipeline.run(documents=documents)
pipeline.persist(state)
print(json.dumps({"chunks": len(nodes), "whole": time.perf_counter() - t0}))
"""

_LANGCHAIN = r"""
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
import lancedb
from langchain_classic.indexes import SQLRecordManager, index
from langchain_community.vectorstores import LanceDB
from langchain_core.documents import Document
from langchain_huggingface import HuggingFaceEmbeddings
from langchain_text_splitters import RecursiveCharacterTextSplitter
from transformers import AutoTokenizer
from chunkwise.tokens import minilm_dir
docs, db, state, device, size = sys.argv[1:5] + [int(sys.argv[5])]
tokenizer = AutoTokenizer.from_pretrained(str(minilm_dir()))
split = RecursiveCharacterTextSplitter.from_huggingface_tokenizer(
    tokenizer, chunk_size=size, chunk_overlap=0)
embeddings = HuggingFaceEmbeddings(model_name=str(minilm_dir()),
                                   model_kwargs={"device": device},
                                   encode_kwargs={"normalize_embeddings": True})
store = LanceDB(connection=lancedb.connect(db), embedding=embeddings, table_name="chunks")
records = SQLRecordManager("lancedb/chunks", db_url=f"sqlite:///{state}")
records.create_schema()
documents = [Document(page_content=p.read_text(encoding="utf-8"), metadata={"source": str(p)})
             for p in sorted(Path(docs).rglob("*.md"))]
chunks = split.split_documents(documents)
result = index(chunks, records, store, cleanup="incremental", source_id_key="source")
print(json.dumps({"chunks": len(chunks), "whole": time.perf_counter() - t0,
                  "added": result["num_added"], "deleted": result["num_deleted"]}))
"""


def _run(args: list[str], what: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{what} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return seconds, out.stdout


def _python(code: str, *argv: str, what: str) -> tuple[float, dict[str, float]]:
    seconds, stdout = _run([sys.executable, "-c", code, *argv], what)
    return seconds, json.loads(stdout.strip().splitlines()[-1])


def _chunkwise(docs: Path, db: Path, device: str) -> tuple[float, int]:
    seconds, stdout = _run([sys.executable, "-m", "chunkwise.cli", "index", str(docs),
                            "--db", str(db), "--no-progress", "--no-config",
                            "--device", device], "chunkwise index")
    line = stdout.strip().splitlines()[-1]  # documents N (...) chunks N (...) ...
    return seconds, int(line.split("chunks ")[1].split()[0].replace(",", ""))


def _watched(docs: Path, db: Path, device: str) -> tuple[float, int]:
    """``chunkwise index --watch`` running (its sync at start finds nothing to do),
    then a one-file edit: seconds from the write until its line is printed (the
    edited file's rows are written by then)."""
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "index", str(docs), "--db",
                             str(db), "--no-progress", "--no-config", "--device", device,
                             "--watch"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        if not first.startswith("documents"):
            raise SystemExit(f"chunkwise index --watch failed:\n{proc.stderr.read()[-3000:]}")
        t0 = time.perf_counter()
        _edit(docs)
        line = proc.stdout.readline()
        seconds = time.perf_counter() - t0
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=120)
    finally:
        proc.kill()
    return seconds, int(line.split("chunks ")[1].split()[0].replace(",", ""))


def _edit(docs: Path) -> Path:
    """One file changed the way a writer does: a paragraph added in the middle."""
    files = sorted(docs.rglob("*.md"), key=lambda p: p.stat().st_size)
    target = files[len(files) // 2]
    text = target.read_text(encoding="utf-8")
    middle = text.find("\n\n", len(text) // 2)
    middle = len(text) if middle < 0 else middle
    target.write_text(text[:middle] + "\n\nAn added paragraph: the edit the re-runs index."
                      + text[middle:], encoding="utf-8")
    return target


def _docs(spec: str, tmp: Path, limit: int | None) -> Path:
    src = Path(spec)
    docs = tmp / "docs"
    if src.is_file():
        import tarfile

        with tarfile.open(src) as tar:
            tar.extractall(tmp / "unpacked", filter="data")
        roots = [p for p in (tmp / "unpacked").iterdir() if p.is_dir()]
        src = roots[0] if len(roots) == 1 else tmp / "unpacked"
    import shutil

    files = sorted(src.rglob("*.md"))[:limit]
    for f in files:
        dest = docs / f.relative_to(src)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dest)
    return docs


def _row(name: str, seconds: float, chunks: int) -> None:
    rate = chunks / seconds if seconds > 0 else 0.0
    print(f"| {name:<44} | {seconds:8.1f} | {chunks:6,} | {rate:8.1f} |")


def _peers(peers: dict[str, str], docs: Path, tmp: Path, device: str,
           into: dict[str, tuple[float, int]], when: str) -> None:
    """Each pipeline once over ``docs``, its store and state kept in ``tmp``."""
    for name, code in peers.items():
        key = name.split()[0]
        seconds, out = _python(code, str(docs), str(tmp / f"{key}-db"),
                               str(tmp / f"{key}-state"), device, str(SIZE), what=name)
        into[name] = (seconds, int(out["chunks"]))
        _row(f"{name}, {when}", *into[name])


def _cold(small: Path) -> None:
    def best(args: list[str]) -> float:
        return min(_run(args, " ".join(args[-3:]))[0] for _ in range(5))

    py = sys.executable
    base = best([py, "-c", "pass"])
    tok = best([py, "-c", "import chunkwise; from chunkwise.tokens import get_tokenizer; "
                          "get_tokenizer(None).count('x')"])
    helps = best([py, "-m", "chunkwise.cli", "--help"])
    chunk = best([py, "-m", "chunkwise.cli", "chunk", str(small), "--no-config", "-o", "-"])
    print("\ncold start (best of 5, seconds)")
    print(f"  python -c pass {base:.2f}; import chunkwise + tokenizer load {tok:.2f}; "
          f"chunkwise --help {helps:.2f}; chunkwise chunk {small.name} {chunk:.2f} "
          f"({chunk - tok:+.2f} over import + tokenizer; target within 0.5)")


def byte_compile() -> None:
    """chunkwise's modules byte-compiled before anything is timed, as pip compiles a
    package it installs (the peers' are): this project's machines set
    PYTHONDONTWRITEBYTECODE, under which an editable install compiles every module
    edited since its last ``.pyc`` again in every new process (11 modules after a
    day's edits: ~40 ms of each re-run, which no installed chunkwise pays)."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("chunkwise")
    if spec is not None and spec.origin is not None:
        compileall.compile_dir(str(Path(spec.origin).parent), quiet=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", default=str(ROOT / "tests" / "data" / "docs"
                                          / "fastapi-pydantic-docs.tar.xz"))
    ap.add_argument("--device", default="cpu", help="cpu, cuda, ... for every model")
    ap.add_argument("--batch-size", type=int, default=32, help="the floor's batch size")
    ap.add_argument("--limit", type=int, default=None, help="the first N Markdown files")
    ap.add_argument("--skip-peers", action="store_true")
    args = ap.parse_args()
    byte_compile()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        docs = _docs(args.docs, tmp, args.limit)
        n_files = len(list(docs.rglob("*.md")))
        texts = tmp / "chunks.jsonl"
        _run([sys.executable, "-m", "chunkwise.cli", "chunk", str(docs), "--no-config",
              "-o", str(texts)], "chunkwise chunk")
        print(f"{n_files} Markdown files, {sum(f.stat().st_size for f in docs.rglob('*.md')):,} "
              f"bytes; device {args.device}\n")
        print(f"| {'step':<44} | {'seconds':>8} | {'chunks':>6} | {'chunks/s':>8} |")
        print(f"|{'-' * 46}|{'-' * 10}|{'-' * 8}|{'-' * 10}|")
        _, floor = _python(_FLOOR, str(texts), args.device, str(args.batch_size), what="floor")
        _row("floor: SentenceTransformer.encode (call)", floor["encode"], int(floor["chunks"]))
        _row("floor: the same process whole", floor["whole"], int(floor["chunks"]))
        first: dict[str, tuple[float, int]] = {}
        first["chunkwise"] = _chunkwise(docs, tmp / "cw-idx", args.device)
        _row("chunkwise index, first run", *first["chunkwise"])
        peers = {} if args.skip_peers else {"LlamaIndex IngestionPipeline": _LLAMA,
                                           "LangChain index() + record manager": _LANGCHAIN}
        _peers(peers, docs, tmp, args.device, first, "first run")
        edited = _edit(docs)
        again: dict[str, tuple[float, int]] = {}
        again["chunkwise"] = _chunkwise(docs, tmp / "cw-idx", args.device)
        _row("chunkwise index, after a one-file edit", *again["chunkwise"])
        _peers(peers, docs, tmp, args.device, again, "after the edit")
        watched = _watched(docs, tmp / "cw-idx", args.device)
        _row("chunkwise index --watch: an edit to its rows", *watched)
        cw_first, cw_again = first["chunkwise"][0], again["chunkwise"][0]
        print(f"\nedited: {edited.relative_to(docs)}")
        print(f"chunkwise first run / floor encode: {cw_first / floor['encode']:.3f}x "
              f"(target <= 1.15); / the floor's whole process: {cw_first / floor['whole']:.3f}x")
        for name in peers:
            print(f"{name}: first run {first[name][0] / cw_first:.2f}x chunkwise's time "
                  f"(target > 1), re-run {again[name][0] / cw_again:.1f}x (target >= 20); "
                  f"its re-run / an edit under chunkwise index --watch: "
                  f"{again[name][0] / watched[0]:.0f}x")
        _cold(next(iter(sorted(docs.rglob("*.md"), key=lambda p: p.stat().st_size))))


if __name__ == "__main__":
    main()
