"""``chunkwise view``, ``distill`` and ``questions``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError
from ..types import Chunk
from .common import add_chunk_options, build_chunker
from .walking import add_walk_flags, nothing_found, walk_of


def add_parsers(sub: Any) -> None:
    v = sub.add_parser(
        "view", help="write an HTML page showing where a document is cut",
        description="Chunk one document and write an HTML page with each chunk as a colour "
                    "band (overlaps hatched, details on hover) and a table of the chunks.")
    v.add_argument("path", metavar="PATH", help="the document")
    add_chunk_options(v)
    v.add_argument("--embedder", default=None, metavar="SPEC", help="semantic: the embedder")
    v.add_argument("--encoding", default=None, help="text encoding of the input")
    v.add_argument("-o", "--output", default=None, metavar="OUT.html",
                   help="where to write the page (default: PATH.chunks.html)")

    qg = sub.add_parser(
        "questions", help="generate evaluation questions from your own documents",
        description="Pick passages across the documents (by document and kind: tables, "
                    "procedures, code, prose), ask an LLM for a question each answers and the "
                    "verbatim evidence, keep those whose evidence is an exact substring, and "
                    "write questions.jsonl for chunkwise eval --dataset jsonl:FOLDER.")
    qg.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or glob patterns")
    add_walk_flags(qg)
    qg.add_argument("-o", "--output", required=True, metavar="FOLDER/questions.jsonl",
                    help="where to write; its folder must hold the documents (doc_id is the "
                         "path relative to it)")
    how = qg.add_mutually_exclusive_group(required=True)
    how.add_argument("--llm", metavar="LLM",
                     help="anthropic:MODEL, openai:MODEL[@BASE_URL] or local[:PATH.gguf]")
    how.add_argument("--heuristic", action="store_true",
                     help="no LLM: weaker questions from headings, table rows, named "
                          "definitions and transcript turns (tagged heuristic)")
    qg.add_argument("-n", type=int, default=50,
                    help="with --llm, passages to ask about, one call each; with --heuristic, "
                         "questions to make (passages that give none are passed over) "
                         "(default: 50)")
    qg.add_argument("--seed", type=int, default=0, help="passage sampling seed (default: 0)")
    qg.add_argument("--no-llm-cache", action="store_true", help="do not use the LLM cache")
    qg.add_argument("--llm-timeout", type=float, default=None, metavar="S",
                    help="seconds one LLM request may take (default: 60)")

    d = sub.add_parser(
        "distill", help="distil a fast static (model2vec) embedder from the bundled MiniLM, offline",
        description="Distil a model2vec static model from the bundled all-MiniLM-L6-v2, locally "
                    "(about 20 s on 2 cores). Use it with --embedder model2vec:OUT, e.g. for "
                    "fast semantic chunking.")
    d.add_argument("output", metavar="OUT", help="folder to write the model to")
    d.add_argument("--pca-dims", type=int, default=256,
                   help="dimensions of the static vectors (default: 256)")


def cmd_view(args: argparse.Namespace) -> int:
    from ..readers import read_path
    from ..sinks import check_destination, write_atomic
    from ..view import render

    out = Path(args.output or f"{args.path}.chunks.html")
    check_destination(out, [Path(args.path)])
    chunker = build_chunker(args)
    doc = read_path(args.path, encoding=args.encoding, fmt=args.input_format)
    chunks = chunker.chunk_document(doc)
    write_atomic(out, render(doc, chunks))
    print(f"wrote {out}: {len(chunks)} chunks")
    return 0


def cmd_distill(args: argparse.Namespace) -> int:
    from ..embed import distill

    t0 = time.perf_counter()
    out = distill(args.output, pca_dims=args.pca_dims)
    print(f"wrote {out} in {time.perf_counter() - t0:.1f}s; use --embedder model2vec:{out}")
    return 0


def cmd_questions(args: argparse.Namespace) -> int:
    from ..api import iter_documents_chunks
    from ..ids import path_of
    from ..questions import ask, relative_ids
    from ..readers.sources import SkipCounter, iter_sources
    from ..sinks import check_destination

    if args.n < 1:
        raise ChunkwiseError("-n must be a positive integer")
    out = Path(args.output)
    # the questions file a folder walk finds is the earlier output, not a document (a
    # re-run writes it again, from the same passages); named as an input, it is refused
    named = {Path(p).resolve() for p in args.paths}
    skipped = SkipCounter()
    sources = [s for s in iter_sources(args.paths, strings_are_paths=True,
                                       walk=walk_of(args, skipped))
               if s.path is None or s.path.resolve() != out.resolve()
               or s.path.resolve() in named]
    for s in sources:
        if s.error is not None:
            raise ChunkwiseError(f"{s.label}: {s.error}")
        if s.path is None:
            raise ChunkwiseError("questions reads files, folders and globs, not standard input")
    check_destination(str(out), [s.path for s in sources if s.path is not None])
    from ..factory import get_chunker

    chunker = get_chunker("auto", size=200)
    by_doc: dict[str, list[Chunk]] = {}
    paths: list[tuple[str, Path]] = []
    for doc, chunks in iter_documents_chunks(chunker, sources, on_error="raise"):
        by_doc.setdefault(doc.doc_id, []).extend(chunks)
        if doc.source and (doc.doc_id, Path(path_of(doc.source))) not in paths:
            paths.append((doc.doc_id, Path(path_of(doc.source))))
    if not by_doc:
        raise ChunkwiseError(nothing_found(args.paths, skipped))
    doc_ids = relative_ids(paths, out.parent)
    made, report = ask(by_doc, args.n, doc_ids, llm=None if args.heuristic else args.llm,
                       seed=args.seed, cache=not args.no_llm_cache, timeout=args.llm_timeout)
    if not made.questions:
        raise ChunkwiseError(f"no question kept ({made.dropped} dropped: {made.why})" + (
            "" if args.heuristic else "; a model too small to copy text, like the bundled "
            "local one, keeps none: use a larger model or --heuristic"))
    from ..sinks import write_atomic

    write_atomic(out, "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in made.questions))
    if report is not None:
        print(report.line(), file=sys.stderr)
    print(f"questions {len(made.questions)} written to {out} ({made.dropped} dropped: "
          f"{made.why}); tags: " + ", ".join(
              f"{k} {v}" for k, v in sorted(_tag_counts(made.questions).items())))
    return 0


def _tag_counts(questions: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for q in questions:
        counts[q["tags"][0]] = counts.get(q["tags"][0], 0) + 1
    return counts
