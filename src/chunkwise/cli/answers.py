"""``chunkwise eval --answers``: its flags checked, its models made, its cost lines,
its dry run and the one-run answers file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ChunkwiseError
from .common import llm_report, read_prices
from .output import QuestionBar

if TYPE_CHECKING:
    from ..strategies import Chunker


def check_answer_flags(args: argparse.Namespace) -> None:
    if (args.llm or args.judge) and not args.answers:
        raise ChunkwiseError("--llm and --judge choose the models of --answers; give it")
    if args.answers and not args.llm:
        raise ChunkwiseError("--answers needs --llm (anthropic:MODEL, openai:MODEL[@BASE_URL] "
                             "or local)")


def make_answerer(args: argparse.Namespace) -> Any:
    """The answering and judging models of ``--answers`` (None without it)."""
    if not args.answers:
        return None
    from ..eval.answers import Answerer

    answerer = Answerer(args.llm, args.judge, concurrency=args.llm_concurrency,
                        cache=not args.no_llm_cache, timeout=args.llm_timeout,
                        prices=read_prices(args), dry_run=args.dry_run)
    if sys.stderr.isatty() and not args.dry_run:
        answerer.progress = QuestionBar()
    return answerer


def answer_lines(answerer: Any) -> None:
    """The answering and judging cost lines, on stderr (with what could not be graded)."""
    if answerer is None:
        return
    for line in answerer.lines():
        print(line, file=sys.stderr)


def dry_run(args: argparse.Namespace, dataset: Any, settings: Any, make_chunker: Any,
            made: list[Chunker], answerer: Any) -> int:
    """What the LLM calls would cost: contextualizing (chunking only), and with
    --answers the retrieval of every run (local, free) and the answers and
    judgements it would ask for. Nothing is called and nothing written."""
    from ..eval.grid import load_grid, run_one

    if answerer is None:
        chunker = make_chunker(None, {})
        for doc in dataset.documents.values():
            chunker.chunk_document(doc)
        llm_report(chunker, args)
        return 0
    runs = load_grid(args.grid) if args.grid else [{}]
    for run in runs:
        run_one(dataset, settings, run, make_chunker, chunks_file=args.chunks, answerer=answerer)
    for chunker in made:
        llm_report(chunker, args)
    for line in answerer.lines():
        print(line)
    return 0


def write_one(result: Any, out: Path) -> None:
    """One run's answers as ``out/answers.jsonl``."""
    from ..eval.report import run_name, write_answers
    from ..sinks import check_destination

    out.mkdir(parents=True, exist_ok=True)
    check_destination(out / "answers.jsonl")
    write_answers([(run_name(result.config), result)], out / "answers.jsonl")
    print(f"wrote {out / 'answers.jsonl'}", file=sys.stderr)
