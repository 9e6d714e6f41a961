"""``chunkwise tune``: the chunking that retrieves best on the user's own documents,
chosen on half of the questions made from them and confirmed on the other half."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError
from ..types import Chunk, Document
from .walking import add_walk_flags, nothing_found, walk_of


def add_parser(sub: Any) -> None:
    t = sub.add_parser(
        "tune", help="find the chunking that retrieves best on your documents; write chunkwise.toml",
        description="Make questions from the documents (as chunkwise questions does), split them "
                    "in a tuning and a confirming half, evaluate a grid of strategies and sizes "
                    "on both, choose by the tuning half (mean of recall, full evidence and "
                    "recall within 1,000 tokens), report the confirming half's figures for the "
                    "winner and the defaults side by side, and write the winner as "
                    "chunkwise.toml, which chunk, index and eval read.")
    t.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or glob patterns")
    add_walk_flags(t)
    how = t.add_mutually_exclusive_group(required=True)
    how.add_argument("--llm", metavar="LLM",
                     help="the questions' writer: anthropic:MODEL, openai:MODEL[@BASE_URL] or "
                          "local[:PATH.gguf]")
    how.add_argument("--heuristic", action="store_true",
                     help="no LLM: questions from headings, table rows, named definitions "
                          "and transcript turns (weaker)")
    t.add_argument("-o", "--output", default="chunkwise.toml", metavar="FILE.toml",
                   help="where to write the chosen settings (default: ./chunkwise.toml)")
    t.add_argument("-n", type=int, default=200,
                   help="with --llm, passages to ask about, one call each; with --heuristic, "
                        "questions to make (passages that give none are passed over) "
                        "(default: 200)")
    t.add_argument("--seed", type=int, default=0,
                   help="seed of the passage sampling and of the split (default: 0)")
    t.add_argument("--retriever", choices=("dense", "bm25", "hybrid"), default="hybrid",
                   help="as for eval (default: hybrid)")
    t.add_argument("--k", type=int, default=5, help="chunks retrieved per question (default: 5)")
    t.add_argument("--embedder", default=None, metavar="SPEC",
                   help="minilm (default), minilm-onnx, model2vec:PATH, ...")
    t.add_argument("--no-cache", action="store_true", help="do not use the embedding cache")
    t.add_argument("--no-llm-cache", action="store_true", help="do not use the LLM cache")
    t.add_argument("--llm-timeout", type=float, default=None, metavar="S",
                   help="seconds one LLM request may take (default: 60)")


def _documents(args: argparse.Namespace) -> tuple[dict[str, Document], dict[str, list[Chunk]]]:
    """The documents, and the chunks the questions' passages are picked from."""
    from ..api import iter_documents_chunks
    from ..factory import get_chunker
    from ..readers.sources import SkipCounter, iter_sources

    paths = args.paths
    skipped = SkipCounter()
    sources = list(iter_sources(paths, strings_are_paths=True, walk=walk_of(args, skipped)))
    for s in sources:
        if s.error is not None:
            raise ChunkwiseError(f"{s.label}: {s.error}")
        if s.path is None:
            raise ChunkwiseError("tune reads files, folders and globs, not standard input")
    documents: dict[str, Document] = {}
    by_doc: dict[str, list[Chunk]] = {}
    for doc, chunks in iter_documents_chunks(get_chunker("auto", size=200), sources,
                                             on_error="raise"):
        documents[doc.doc_id] = doc
        by_doc.setdefault(doc.doc_id, []).extend(chunks)
    if not documents:
        raise ChunkwiseError(nothing_found(paths, skipped))
    return documents, by_doc


def cmd_tune(args: argparse.Namespace) -> int:
    from ..questions import ask
    from ..sinks import check_destination
    from ..tune import questions_from, tune, write_config

    if args.n < 1:
        raise ChunkwiseError("-n must be a positive integer")
    if args.k < 1:
        raise ChunkwiseError(f"k must be at least 1, got {args.k}")
    out = Path(args.output)
    check_destination(str(out))
    t0 = time.perf_counter()
    documents, by_doc = _documents(args)
    made, report = ask(by_doc, args.n, {d: d for d in documents},
                       llm=None if args.heuristic else args.llm, seed=args.seed,
                       cache=not args.no_llm_cache, timeout=args.llm_timeout)
    if report is not None:
        print(report.line(), file=sys.stderr)
    questions = questions_from(made.questions)
    print(f"questions {len(questions)} from {len(documents)} documents ({made.dropped} "
          f"dropped: {made.why})", file=sys.stderr)

    def progress(i: int, n: int, trial: Any) -> None:
        print(f"[{i}/{n}] {trial.name}: tuning recall {trial.tuning['recall']:.1f}",
              file=sys.stderr)

    tuned = tune(documents, questions, retriever=args.retriever, k=args.k,
                 embedder=args.embedder, seed=args.seed, cache=not args.no_cache,
                 progress=progress)
    print(table(tuned))
    existed = out.exists()
    write_config(out, tuned, " ".join(args.paths))
    print(f"wrote {out}{' (replacing the previous one)' if existed else ''}: "
          f"{tuned.winner.name}; {time.perf_counter() - t0:.1f}s")
    return 0


def table(tuned: Any) -> str:
    """Every configuration on both halves; the winner and the defaults marked."""
    from ..tune import OBJECTIVE, leader, margin

    head = (f"{'config':<22}" + "".join(f"{'tune ' + k:>20}" for k in OBJECTIVE)
            + "".join(f"{'confirm ' + k:>23}" for k in OBJECTIVE))
    lines = [f"tuning half {tuned.n_tuning} questions, confirming half {tuned.n_confirming}",
             head]
    for t in tuned.trials:
        mark = " <- chosen" if t is tuned.winner else ""
        mark += " (defaults)" if t is tuned.default else ""
        lines.append(f"{t.name:<22}" + "".join(f"{t.tuning[k]:>20.1f}" for k in OBJECTIVE)
                     + "".join(f"{t.confirming[k]:>23.1f}" for k in OBJECTIVE) + mark)
    best, ahead = leader(tuned.trials)
    if tuned.winner is tuned.default and ahead > 0:
        lines.append(f"{best.name} led the defaults on the tuning half by {ahead:.1f} points "
                     f"(the mean of the three), not more than chance on "
                     f"{tuned.n_tuning} questions ({margin(tuned.trials, tuned.n_tuning):.1f}"
                     f"): the defaults stay")
    return "\n".join(lines)
