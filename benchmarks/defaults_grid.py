"""Choose the library's defaults by measurement: a grid of chunking and retrieval
configurations over Chroma's benchmark and the structured set, side by side.

    .venv/bin/python benchmarks/defaults_grid.py --out out/defaults
    .venv/bin/python benchmarks/defaults_grid.py --semantic --out out/semantic

Prints recall, IoU, full-evidence and MRR per dataset (and, for the structured
set, recall per tag), then the configurations ranked by mean recall over both
sets with IoU as the tie-break; writes results.json. Embeddings are cached
(CHUNKWISE_CACHE), so a re-run costs seconds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import chunkwise
from chunkwise.embed import get_embedder
from chunkwise.eval import evaluate, load_dataset

ROOT = Path(__file__).resolve().parents[1]
DATASETS = {"chroma": f"chroma:{ROOT.parent / 'shared' / 'eval' / 'chroma'}",
            "structured": f"jsonl:{ROOT / 'benchmarks' / 'structured_eval'}"}


def chunking_grid() -> list[dict]:
    runs = []
    for strategy, size, overlap in itertools.product(
            ("auto", "recursive", "sentence"), (128, 160, 200, 254), (0, 0.15)):
        runs.append({"strategy": strategy, "size": size, "overlap": overlap})
    runs.append({"strategy": "auto", "size": 160, "overlap": 0, "dedupe_headings": False})
    runs.append({"strategy": "auto", "size": 254, "overlap": 0, "dedupe_headings": False})
    return runs


def semantic_grid() -> list[dict]:
    runs = []
    for threshold, amount in (("percentile", 90), ("percentile", 95), ("percentile", 80),
                              ("std", 1.0), ("std", 1.5), ("interquartile", 1.5),
                              ("gradient", 90), (0.3, None), (0.4, None), (0.5, None)):
        for size in (160, 254):
            run = {"strategy": "semantic", "size": size, "threshold": threshold}
            if amount is not None:
                run["amount"] = amount
            runs.append(run)
    runs.append({"strategy": "semantic", "size": 160, "threshold": "percentile", "amount": 90,
                 "min_size": 48})
    runs.append({"strategy": "semantic", "size": 160, "threshold": "percentile", "amount": 90,
                 "window": 1})
    return runs


def name(run: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in run.items())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--semantic", action="store_true", help="the semantic strategy's grid")
    ap.add_argument("--retrievers", default="dense,hybrid")
    ap.add_argument("--out", type=Path, default=Path("out/defaults"))
    args = ap.parse_args()
    datasets = {k: load_dataset(v) for k, v in DATASETS.items()}
    emb = get_embedder(None, cache=True)
    runs = semantic_grid() if args.semantic else chunking_grid()
    retrievers = args.retrievers.split(",")
    results: list[dict] = []
    for run in runs:
        options = {k: v for k, v in run.items() if k != "strategy"}
        if run["strategy"] == "semantic":
            options["embedder"] = emb
        chunker = chunkwise.get_chunker(run["strategy"], **options)
        for ds_name, ds in datasets.items():
            for retriever in retrievers:
                t0 = time.perf_counter()
                r = evaluate(ds, chunker, retriever=retriever, embedder=emb)
                row = {"config": name(run), "dataset": ds_name, "retriever": retriever,
                       **{k: round(r.metrics[k], 2) for k in ("recall", "iou", "full_evidence",
                                                              "mrr")},
                       "chunks": r.n_chunks, "seconds": round(time.perf_counter() - t0, 1)}
                if ds_name == "structured":
                    row["by_tag"] = {t: m["recall"] for t, m in r.by_tag.items()}
                results.append(row)
                print(json.dumps(row), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    # rank by mean recall over both datasets (IoU breaks ties)
    combined: dict[tuple[str, str], list[dict]] = {}
    for row in results:
        combined.setdefault((row["config"], row["retriever"]), []).append(row)
    ranked = sorted(combined.items(), key=lambda kv: (
        -sum(r["recall"] for r in kv[1]) / len(kv[1]), -sum(r["iou"] for r in kv[1])))
    print(f"\n{'configuration':<58}{'retriever':>9}  {'chroma R/IoU':>13}  {'structured R/IoU':>17}")
    for (config, retriever), rows in ranked:
        by = {r["dataset"]: r for r in rows}
        cells = [f"{by[d]['recall']:5.1f}/{by[d]['iou']:4.1f}" if d in by else "-"
                 for d in ("chroma", "structured")]
        print(f"{config:<58}{retriever:>9}  {cells[0]:>13}  {cells[1]:>17}")


if __name__ == "__main__":
    main()
