"""Chunking speed and budget correctness against peer libraries, in one run.

    .venv/bin/pip install -r benchmarks/requirements.txt
    .venv/bin/python benchmarks/speed.py [--size 200] [--repeat 3]

Every library chunks the five corpora of Chroma's benchmark (1.45 M characters)
sized in all-MiniLM-L6-v2 tokens with the same tokenizers.Tokenizer. Prints the
best of --repeat wall times, the ratio to chunkwise recursive, and how many
chunks each library emits over the size when re-counted with that tokenizer.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tokenizers import Tokenizer

import chunkwise
from chunkwise.tokens import minilm_dir

ROOT = Path(__file__).resolve().parents[1]


def load_texts(folder: Path) -> list[str]:
    return [p.read_bytes().decode("utf-8") for p in sorted(folder.glob("*.md"))]


def hf_tokenizer() -> Tokenizer:
    tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


def peers(size: int):
    tok = hf_tokenizer()

    def count(s: str) -> int:
        return len(tok.encode(s, add_special_tokens=False).ids)

    out = {}
    for strategy in ("recursive", "sentence", "fixed"):
        chunker = chunkwise.get_chunker(strategy, size=size)
        out[f"chunkwise {strategy}"] = lambda t, c=chunker: [x.text for x in c.chunk(t)]
    try:
        import semchunk

        sc = semchunk.chunkerify(count, size)
        out["semchunk"] = lambda t: sc(t)
    except ImportError:
        pass
    try:
        from semantic_text_splitter import TextSplitter

        ts = TextSplitter.from_huggingface_tokenizer(tok, size)
        out["text-splitter"] = lambda t: ts.chunks(t)
    except ImportError:
        pass
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0, length_function=count)
        out["langchain recursive"] = lambda t: lc.split_text(t)
    except ImportError:
        pass
    try:
        from chonkie import RecursiveChunker

        ch = RecursiveChunker(tokenizer=tok, chunk_size=size)
        out["chonkie recursive"] = lambda t: [c.text for c in ch.chunk(t)]
    except Exception:
        pass
    try:
        from llama_index.core.node_parser import SentenceSplitter

        li = SentenceSplitter(chunk_size=size, chunk_overlap=0,
                              tokenizer=lambda s: tok.encode(s, add_special_tokens=False).ids)
        out["llamaindex sentence"] = lambda t: li.split_text(t)
    except ImportError:
        pass
    return out, count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "eval" / "chroma"))
    args = ap.parse_args()
    texts = load_texts(Path(args.dataset))
    chars = sum(len(t) for t in texts)
    names = list(peers(args.size)[0])
    rows = []
    for name in names:
        best = float("inf")
        for _ in range(args.repeat):
            # built afresh each time: several libraries memoise counts between calls
            libs, count = peers(args.size)
            split = libs[name]
            t0 = time.perf_counter()
            chunks = [c for t in texts for c in split(t)]
            best = min(best, time.perf_counter() - t0)
        over = sum(1 for c in chunks if count(c) > args.size)
        rows.append((name, best, len(chunks), over))
    base = next(r[1] for r in rows if r[0] == "chunkwise recursive")
    print(f"{len(texts)} documents, {chars:,} characters, size {args.size} MiniLM tokens, "
          f"best of {args.repeat}")
    print(f"{'library':<22}{'seconds':>9}{'MB/s':>8}{'x chunkwise':>13}{'chunks':>8}{'over size':>11}")
    for name, sec, n, over in rows:
        print(f"{name:<22}{sec:>9.2f}{chars / sec / 1e6:>8.2f}{sec / base:>13.2f}{n:>8}{over:>11}")


if __name__ == "__main__":
    main()
