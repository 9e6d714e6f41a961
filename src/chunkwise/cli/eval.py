"""``chunkwise eval``: retrieval quality of a chunking on questions with reference spans."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ChunkwiseError
from .answers import answer_lines, check_answer_flags, dry_run, make_answerer, write_one
from .common import add_chunk_options, build_chunker, llm_report
from .options import EVAL_ANSWER_FLAGS
from .output import warning

if TYPE_CHECKING:
    from ..strategies import Chunker


def add_parser(sub: Any) -> None:
    e = sub.add_parser(
        "eval", help="measure retrieval quality of a chunking on questions with reference spans",
        description="Chunk a dataset's documents, embed the chunks, retrieve the top k for every "
                    "question and score them against the reference spans (Chroma's character "
                    "recall, precision, precision-omega and IoU; answer-intact rate; recall at a "
                    "budget of retrieved tokens; MRR). Without chunking options the library's "
                    "default configuration is measured.")
    e.add_argument("--dataset", required=True, metavar="chroma:PATH|jsonl:PATH",
                   help="Chroma's format (questions_df.csv + <corpus>.md) or ours "
                        "(a folder with questions.jsonl)")
    add_chunk_options(e)
    e.add_argument("--chunks", default=None, metavar="FILE.jsonl",
                   help="score chunks made by any tool instead of chunking (JSON Lines with "
                        "doc_id and text; start/end used when present)")
    e.add_argument("--grid", default=None, metavar="FILE.toml",
                   help="run several configurations ([[run]] tables) and print them side by side")
    e.add_argument("--retriever", choices=("dense", "bm25", "hybrid"), default="hybrid",
                   help="dense (exact cosine), bm25, or hybrid (dense and BM25 fused: by "
                        "default a weighted sum of z-scored scores, see --fusion); "
                        "default: hybrid")
    e.add_argument("--fusion", choices=("zscore", "rrf"), default="zscore",
                   help="hybrid: weighted sum of z-scored dense and BM25 scores (default) or "
                        "reciprocal-rank fusion")
    e.add_argument("--alpha", type=float, default=0.7,
                   help="hybrid zscore: weight of the dense score, 0..1 (default: 0.7)")
    e.add_argument("--k", type=int, default=5, help="chunks retrieved per question (default: 5)")
    e.add_argument("--embedder", default=None, metavar="SPEC",
                   help="minilm (default), minilm-onnx, model2vec:PATH, openai:MODEL[@URL], or a "
                        "sentence-transformers folder")
    e.add_argument("--scope", choices=("all", "document"), default="all",
                   help="one index over all documents (Chroma's protocol, default) or per document")
    e.add_argument("--budget", type=int, default=1000,
                   help="token budget for budget_recall (default: 1000)")
    e.add_argument("--expand", choices=("parents",), default=None,
                   help="replace hierarchical hits by their parents (deduplicated)")
    e.add_argument("--neighbours", type=int, default=0, metavar="N",
                   help="add the N chunks either side of every table hit")
    e.add_argument("--include-boilerplate", action="store_true",
                   help="also rank chunks made of text repeated in many of the documents "
                        "(licence headers, footers); by default they are left out, as "
                        "search leaves them out")
    e.add_argument("--no-cache", action="store_true",
                   help="do not read or write the embedding cache (~/.cache/chunkwise)")
    e.add_argument("--json", action="store_true",
                   help="print one JSON object on one line (metrics in percent)")
    e.add_argument("--out", default=None, metavar="DIR",
                   help="with --grid: folder for results.csv, results.json and recall_tokens.svg "
                        "(default: eval-results), with --answers also answers.svg and "
                        "answers.jsonl; one run with --answers: folder for answers.jsonl")
    for flags, kwargs in EVAL_ANSWER_FLAGS[:1]:
        e.add_argument(*flags, **kwargs)
    a = e.add_argument_group(
        "answer quality (an LLM answers each question from the retrieved context; a judge "
        "grades the answer)")
    for flags, kwargs in EVAL_ANSWER_FLAGS[1:]:
        a.add_argument(*flags, **kwargs)


def cmd_eval(args: argparse.Namespace) -> int:
    from ..eval import load_dataset
    from ..eval.grid import EvalSettings

    if args.chunks and args.grid:
        raise ChunkwiseError("--chunks and --grid exclude each other (put chunks = ... in a "
                             "[[run]])")
    check_answer_flags(args)
    if args.input_format != "auto":  # (it was accepted and did nothing)
        raise ChunkwiseError("--input-format: eval reads a dataset's documents as their "
                             "questions' offsets were written, by their names; name the "
                             "files so (notes.md, not notes.txt)")
    dataset = load_dataset(args.dataset)
    if args.sample is not None:
        dataset = dataset.sample(args.sample)
    settings = EvalSettings(**{f.name: getattr(args, f.name) for f in fields(EvalSettings)
                                if f.name != "cache"}, cache=not args.no_cache)
    made: list[Chunker] = []

    def make_chunker(strategy: str | None, overrides: dict[str, Any]) -> Chunker:
        made.append(build_chunker(args, strategy, overrides))
        return made[-1]

    answerer = make_answerer(args)
    try:
        if args.dry_run:
            return dry_run(args, dataset, settings, make_chunker, made, answerer)
        if args.grid:
            return _grid(args, dataset, settings, make_chunker, answerer)
        return _one(args, dataset, settings, make_chunker, made, answerer)
    finally:
        if answerer is not None:
            answerer.close()


def _one(args: argparse.Namespace, dataset: Any, settings: Any, make_chunker: Any,
         made: list[Chunker], answerer: Any) -> int:
    from ..eval.grid import run_one
    from ..eval.report import corpus_table, run_name, table

    t0 = time.perf_counter()
    result = run_one(dataset, settings, {}, make_chunker, chunks_file=args.chunks,
                     answerer=answerer)
    elapsed = time.perf_counter() - t0
    for chunker in made:
        llm_report(chunker, args)
    answer_lines(answerer)
    for message in result.warnings:
        warning(message)
    if answerer is not None and args.out:
        write_one(result, Path(args.out))
    if args.json:
        d = result.to_dict()
        keep = {k: d[k] for k in JSON_FIELDS + ANSWER_FIELDS if k in d}
        keep["seconds"] = round(elapsed, 2)
        print(json.dumps(keep))
        return 0
    print(table([(run_name(result.config), result)]))
    if len(result.by_corpus) > 1:
        print()
        print(corpus_table(result.by_corpus))
    if result.by_tag and set(result.by_tag) != set(result.by_corpus):
        print()
        print(corpus_table(result.by_tag, label="tag"))
    print(f"{result.n_questions} questions, {result.n_chunks} chunks, "
          f"{elapsed:.1f}s ({', '.join(f'{k} {v:.1f}s' for k, v in result.seconds.items())})")
    return 0


#: the fields of ``eval --json`` (one run)
JSON_FIELDS = ("recall", "precision", "precision_omega", "iou", "full_evidence",
               "budget_recall", "mrr", "n_questions", "n_chunks", "truncated",
               "mean_retrieved_tokens", "config", "curve", "by_corpus", "by_tag")
#: with --answers, these too (percent; mean_context_tokens: what the LLM was given)
ANSWER_FIELDS = ("answer_score", "answer_f1", "faithfulness", "abstained",
                 "mean_context_tokens")


def _grid(args: argparse.Namespace, dataset: Any, settings: Any, make_chunker: Any,
          answerer: Any) -> int:
    from ..eval.grid import load_grid, run_grid
    from ..eval.report import table

    runs = load_grid(args.grid)

    def progress(i: int, n: int, name: str, result: Any, seconds: float) -> None:
        m = result.metrics
        answers = "".join(f" {k} {m[k]:.1f}" for k in ("answer_score", "faithfulness") if k in m)
        print(f"[{i}/{n}] {name}: recall {m['recall']:.1f} "
              f"IoU {m['iou']:.1f}{answers} ({seconds:.1f}s)", file=sys.stderr)
        for message in result.warnings:
            warning(f"{name}: {message}")

    out = Path(args.out or "eval-results")
    results, written = run_grid(dataset, settings, runs, make_chunker, out, progress,
                                answerer=answerer)
    answer_lines(answerer)
    if args.json:
        print(json.dumps([{"name": n, **r.to_dict()} for n, r in results]))
    else:
        print(table(results))
        print(f"wrote {', '.join(str(p) for p in written)}")
    return 0
