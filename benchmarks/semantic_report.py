"""Semantic chunking on Chroma's chatlogs and pubmed corpora: chunk count, mean
and max size, time, with the bundled MiniLM and with a distilled static model.

    .venv/bin/chunkwise distill out/minilm-static        # once, ~20 s
    .venv/bin/python benchmarks/semantic_report.py [--size 254]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import chunkwise
from chunkwise.embed import get_embedder

ROOT = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=254)
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "eval" / "chroma"))
    ap.add_argument("--static", default=str(ROOT / "out" / "minilm-static"))
    args = ap.parse_args()
    embedders = {"minilm": get_embedder()}
    if Path(args.static).is_dir():
        embedders["model2vec static"] = get_embedder(f"model2vec:{args.static}")
    embedders["minilm"].embed(["warm up"])
    print(f"semantic, size {args.size} MiniLM tokens, percentile 90, window 2 (embeddings not cached)")
    print(f"{'corpus':<12}{'embedder':<18}{'chunks':>8}{'mean':>8}{'max':>6}{'limit':>7}{'seconds':>9}")
    for corpus in ("chatlogs", "pubmed"):
        text = (Path(args.dataset) / f"{corpus}.md").read_bytes().decode("utf-8")
        for name, emb in embedders.items():
            chunker = chunkwise.get_chunker("semantic", size=args.size, embedder=emb)
            t0 = time.perf_counter()
            chunks = chunker.chunk(chunkwise.Document(text=text, doc_id=corpus))
            sec = time.perf_counter() - t0
            sizes = [c.token_count for c in chunks]
            assert max(sizes) <= chunker.limit
            print(f"{corpus:<12}{name:<18}{len(chunks):>8}{sum(sizes) / len(sizes):>8.1f}"
                  f"{max(sizes):>6}{chunker.limit:>7}{sec:>9.1f}")


if __name__ == "__main__":
    main()
