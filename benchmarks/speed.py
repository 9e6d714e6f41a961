"""Chunking speed, memory and budget correctness against the peer libraries, in one run.

    .venv/bin/pip install -r benchmarks/requirements.txt      # the peers
    .venv/bin/python benchmarks/corpus.py --mb 20 --out out/corpus-20.jsonl
    .venv/bin/python benchmarks/speed.py --corpus out/corpus-20.jsonl \\
        [--tokenizers minilm,cl100k] [--sizes 256,512] [--overlaps 0,0.15] \\
        [--modes docs,concat] [--repeat 3] [--peers-python /path/to/peer-venv/bin/python]

Every run is its own process (so peak RSS is its own), timed on the same text and
the same tokenizer: the bundled all-MiniLM-L6-v2 ``tokenizer.json`` or OpenAI's
cl100k_base (bpe-openai; text-splitter uses its own built-in copy). Runs are
interleaved (every library once per round, rounds repeated) and the median is
reported. The limit is measured in the same run: one plain single-threaded
tokenization pass over the same documents (``tokenize``). Every chunk is then
re-counted with the reference tokenizer and chunks over the limit are reported
(the re-count is not timed). ``docs``: each document chunked on its own;
``concat``: all of them joined into one text. chunkwise is given
``max_tokens=size`` so a size of 512 is not capped at MiniLM's 254.

Prints one table per configuration: MB/s, the ratio of speed to the fastest
peer doing the same kind of cut (fixed, sentence, recursive) and of time to the
tokenization pass, peak RSS, chunks and chunks over the limit.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: library -> the kind of cut it makes (compared with chunkwise's strategy of that kind)
LIBRARIES: dict[str, str] = {
    "tokenize": "limit",
    "chunkwise fixed": "fixed",
    "chunkwise sentence": "sentence",
    "chunkwise recursive": "recursive",
    "chunkwise section (Markdown)": "section",
    "chonkie TokenChunker": "fixed",
    "LlamaIndex TokenTextSplitter": "fixed",
    "chonkie SentenceChunker": "sentence",
    "LlamaIndex SentenceSplitter": "sentence",
    "chonkie RecursiveChunker": "recursive",
    "semchunk": "recursive",
    "semantic-text-splitter": "recursive",
    "LangChain RecursiveCharacterTextSplitter": "recursive",
}


# -- one run, in its own process -----------------------------------------------------

def _reference(tokenizer: str) -> tuple[Any, Callable[[str], int], Callable[[str], list[int]]]:
    """(backend object, count, encode) for a tokenizer name."""
    if tokenizer == "minilm":
        from tokenizers import Tokenizer

        from chunkwise.tokens import minilm_dir

        tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
        tok.no_padding()
        tok.no_truncation()

        def encode(s: str) -> list[int]:
            return tok.encode(s, add_special_tokens=False).ids

        return tok, lambda s: len(encode(s)), encode
    import bpe_openai

    enc = bpe_openai.get_encoding("cl100k_base")

    def encode_bpe(s: str) -> list[int]:
        out: list[int] = []
        for i in range(0, len(s), 40_000):  # bpe-openai refuses very long inputs
            out.extend(enc.encode_ordinary(s[i:i + 40_000]))
        return out

    return enc, lambda s: len(encode_bpe(s)), encode_bpe


class _Encoding:
    """The encode/decode protocol chonkie needs, over any encode function."""

    def __init__(self, encode: Callable[[str], list[int]], decode: Callable[[list[int]], str]):
        self.encode, self.decode = encode, decode


def _splitter(lib: str, tokenizer: str, size: int, overlap: float) -> Callable[[str], list[str]]:
    backend, count, encode = _reference(tokenizer)
    over = int(round(overlap * size))
    if lib == "tokenize":
        return lambda t: [None] * len(encode(t))  # type: ignore[list-item]
    if lib.startswith("chunkwise"):
        import chunkwise

        name = lib.split()[1]
        chunker = chunkwise.get_chunker(name, size=size, max_tokens=size, overlap=overlap,
                                        tokenizer="minilm" if tokenizer == "minilm" else
                                        "cl100k_base")
        if lib.endswith(" processes"):  # the whole corpus through a pool
            workers = int(lib.rsplit(" ", 2)[-2])
            fmt = "markdown" if name == "section" else "text"

            def pooled(texts: list[str]) -> list[str]:
                corpus = {f"doc{i}.md": t for i, t in enumerate(texts)}
                return [c.text for c in chunkwise.iter_chunks(corpus, chunker, format=fmt,
                                                              workers=workers)]
            pooled.whole_corpus = True  # type: ignore[attr-defined]
            return pooled
        if name == "section":
            def markdown(t: str) -> list[str]:
                doc = chunkwise.readers.parse(t, "doc.md", "markdown")
                return [c.text for c in chunker.chunk(doc)]
            return markdown
        return lambda t: [c.text for c in chunker.chunk(t, doc_id="d")]
    decode = (lambda ids: backend.decode(ids)) if tokenizer == "minilm" else \
        (lambda ids: backend.decode(ids))
    chonkie_tok = backend if tokenizer == "minilm" else _Encoding(encode, decode)
    if lib == "chonkie TokenChunker":
        from chonkie import TokenChunker

        ch = TokenChunker(tokenizer=chonkie_tok, chunk_size=size, chunk_overlap=over)
        return lambda t: [c.text for c in ch.chunk(t)]
    if lib == "chonkie SentenceChunker":
        from chonkie import SentenceChunker

        sc = SentenceChunker(tokenizer=chonkie_tok, chunk_size=size, chunk_overlap=over)
        return lambda t: [c.text for c in sc.chunk(t)]
    if lib == "chonkie RecursiveChunker":
        if over:
            raise NotImplementedError("no overlap option")
        from chonkie import RecursiveChunker

        rc = RecursiveChunker(tokenizer=chonkie_tok, chunk_size=size)
        return lambda t: [c.text for c in rc.chunk(t)]
    if lib == "semchunk":
        import semchunk

        sem = semchunk.chunkerify(count, size)
        return lambda t: sem(t, overlap=over or None)
    if lib == "semantic-text-splitter":
        from semantic_text_splitter import TextSplitter

        ts = TextSplitter.from_huggingface_tokenizer(backend, size, overlap=over) \
            if tokenizer == "minilm" else TextSplitter.from_tiktoken_model("gpt-4", size,
                                                                           overlap=over)
        return lambda t: ts.chunks(t)
    if lib == "LangChain RecursiveCharacterTextSplitter":
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=over,
                                            length_function=count)
        return lambda t: lc.split_text(t)
    if lib == "LlamaIndex SentenceSplitter":
        from llama_index.core.node_parser import SentenceSplitter

        li = SentenceSplitter(chunk_size=size, chunk_overlap=over, tokenizer=encode)
        return lambda t: li.split_text(t)
    if lib == "LlamaIndex TokenTextSplitter":
        from llama_index.core.node_parser import TokenTextSplitter

        lt = TokenTextSplitter(chunk_size=size, chunk_overlap=over, tokenizer=encode)
        return lambda t: lt.split_text(t)
    raise SystemExit(f"unknown library {lib!r}")


def worker(args: argparse.Namespace) -> None:
    texts = [json.loads(line)["text"]
             for line in Path(args.corpus).read_text(encoding="utf-8").splitlines()]
    if args.mode == "concat":
        texts = ["\n\n".join(texts)]
    try:
        split = _splitter(args.worker, args.tokenizer, args.size, args.overlap)
        if not getattr(split, "whole_corpus", False):
            split(texts[0][:2000])  # imports and first-call set-up are not timed
    except (ImportError, NotImplementedError) as exc:
        print(json.dumps({"skipped": f"{type(exc).__name__}: {exc}"}))
        return
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    if getattr(split, "whole_corpus", False):
        chunks = split(texts)  # type: ignore[arg-type]
    else:
        chunks = [c for t in texts for c in split(t)]
    seconds = time.perf_counter() - t0
    rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
              resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    over = 0
    if args.worker != "tokenize" and args.recount:
        _, count, _ = _reference(args.tokenizer)
        over = sum(1 for c in chunks if count(c) > args.size)
    print(json.dumps({"seconds": seconds, "chunks": len(chunks), "over": over,
                      "peak_rss_mb": rss / 1024, "rss_before_mb": rss_before / 1024,
                      "bytes": sum(len(t.encode("utf-8")) for t in texts)}))


# -- the driver --------------------------------------------------------------------------

def run_one(python: str, lib: str, corpus: Path, tokenizer: str, size: int, overlap: float,
            mode: str, recount: bool, timeout: float) -> dict[str, Any]:
    cmd = [python, str(Path(__file__).resolve()), "--worker", lib, "--corpus", str(corpus),
           "--tokenizer", tokenizer, "--size", str(size), "--overlap", str(overlap),
           "--mode", mode] + ([] if recount else ["--no-recount"])
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "TOKENIZERS_PARALLELISM": "true"}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"skipped": f"over {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"skipped": (done.stderr.strip().splitlines() or ["failed"])[-1][:120]}
    return dict(json.loads(lines[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT / "out" / "corpus-20.jsonl")
    ap.add_argument("--tokenizers", default="minilm,cl100k")
    ap.add_argument("--sizes", default="256,512")
    ap.add_argument("--overlaps", default="0,0.15")
    ap.add_argument("--modes", default="docs")
    ap.add_argument("--libs", default=",".join(LIBRARIES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=0,
                    help="also run chunkwise's strategies through a pool of this many processes")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--peers-python", default=sys.executable,
                    help="the interpreter of the peers' own environment (default: this one)")
    ap.add_argument("--json", type=Path, default=None, help="also write every run here")
    # a single run (internal)
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--tokenizer", default="minilm", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, default=512, help=argparse.SUPPRESS)
    ap.add_argument("--overlap", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="docs", help=argparse.SUPPRESS)
    ap.add_argument("--no-recount", dest="recount", action="store_false", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    if not args.corpus.is_file():
        raise SystemExit(f"{args.corpus}: no corpus; make one with benchmarks/corpus.py")
    libs = [lib.strip() for lib in args.libs.split(",") if lib.strip()]
    if args.workers > 1:
        pooled = [f"{lib} x {args.workers} processes" for lib in libs
                  if lib.startswith("chunkwise")]
        libs = libs[:5] + pooled + libs[5:]
        for lib in pooled:
            LIBRARIES[lib] = LIBRARIES[lib.split(" x ")[0]]
    configs = [(t, int(s), float(o), m) for t in args.tokenizers.split(",")
               for s in args.sizes.split(",") for o in args.overlaps.split(",")
               for m in args.modes.split(",")]
    all_runs = []
    for tokenizer, size, overlap, mode in configs:
        runs: dict[str, list[dict[str, Any]]] = {lib: [] for lib in libs}
        for r in range(args.repeat):
            for lib in libs:  # interleaved: every library once per round
                if runs[lib] and "skipped" in runs[lib][-1]:
                    continue
                python = sys.executable if lib.startswith(("chunkwise", "tokenize")) \
                    else args.peers_python
                res = run_one(python, lib, args.corpus, tokenizer, size, overlap, mode,
                              recount=(r == 0), timeout=args.timeout)
                runs[lib].append(res)
                all_runs.append({"lib": lib, "tokenizer": tokenizer, "size": size,
                                 "overlap": overlap, "mode": mode, "round": r, **res})
        report(runs, tokenizer, size, overlap, mode, args.repeat)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(all_runs, indent=1))


def report(runs: dict[str, list[dict[str, Any]]], tokenizer: str, size: int, overlap: float,
           mode: str, repeat: int) -> None:
    rows = {}
    for lib, results in runs.items():
        ok = [r for r in results if "seconds" in r]
        if not ok:
            rows[lib] = {"skipped": results[0].get("skipped", "?") if results else "?"}
            continue
        sec = statistics.median(r["seconds"] for r in ok)
        rows[lib] = {"seconds": sec, "mbps": ok[0]["bytes"] / sec / 1e6,
                     "rss": max(r["peak_rss_mb"] for r in ok), "chunks": ok[0]["chunks"],
                     "over": ok[0]["over"], "bytes": ok[0]["bytes"]}
    limit = rows.get("tokenize", {}).get("seconds")
    fastest: dict[str, float] = {}
    for lib, row in rows.items():
        kind = LIBRARIES.get(lib, "?")
        if "seconds" in row and not lib.startswith(("chunkwise", "tokenize")):
            fastest[kind] = max(fastest.get(kind, 0.0), row["mbps"])
    any_row = next((r for r in rows.values() if "bytes" in r), None)
    mb = any_row["bytes"] / 1e6 if any_row else 0
    print(f"\n{tokenizer}, size {size}, overlap {overlap:g}, {mode}, {mb:.1f} MB, "
          f"median of {repeat}")
    print("| library | MB/s | x fastest peer (same cut) | x tokenization time | peak RSS MB "
          "| chunks | over limit |")
    print("|---|---|---|---|---|---|---|")
    for lib, row in rows.items():
        if "seconds" not in row:
            print(f"| {lib} | skipped: {row['skipped']} | | | | | |")
            continue
        kind = LIBRARIES.get(lib, "?")
        peer = fastest.get("recursive" if kind == "section" else kind)
        vs_peer = f"{row['mbps'] / peer:.2f}" if peer and lib.startswith("chunkwise") else ""
        vs_tok = f"{row['seconds'] / limit:.2f}" if limit else ""
        print(f"| {lib} | {row['mbps']:.2f} | {vs_peer} | {vs_tok} | {row['rss']:.0f} "
              f"| {row['chunks']} | {row['over'] if lib != 'tokenize' else ''} |")
    _print_targets(rows, fastest)
    sys.stdout.flush()


def _print_targets(rows: dict[str, dict[str, Any]], fastest: dict[str, float]) -> None:
    """The ratios the speed issue names, from this run: recursive and fixed >= 2x the
    fastest peer of their cut, section on Markdown <= 1.5x recursive's time."""
    def mbps(lib: str) -> float | None:
        row = rows.get(lib, {})
        return row.get("mbps") if "seconds" in row else None

    out = []
    for lib, kind in (("chunkwise recursive", "recursive"), ("chunkwise fixed", "fixed")):
        speed, peer = mbps(lib), fastest.get(kind)
        if speed and peer:
            out.append(f"{lib.split()[1]} {speed / peer:.2f}x the fastest {kind} peer (target >= 2)")
    section, recursive = mbps("chunkwise section (Markdown)"), mbps("chunkwise recursive")
    if section and recursive:
        out.append(f"section {recursive / section:.2f}x recursive's time (target <= 1.5)")
    if out:
        print("targets: " + "; ".join(out))


if __name__ == "__main__":
    main()
