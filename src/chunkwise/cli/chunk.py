"""``chunkwise chunk``: files, folders, globs or stdin into JSON Lines or Parquet."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..errors import ChunkwiseError, InputError
from ..types import Chunk
from .common import (
    ENCODING_HELP,
    EXIT_BAD_INPUT,
    add_chunk_options,
    build_chunker,
    key_values,
    llm_report,
    uses_embedder,
)
from .output import add_progress_flags, error, progress_bar
from .walking import add_walk_flags, walk_of


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "chunk", help="chunk files, folders, globs or stdin into JSON Lines or Parquet",
        description="Chunk documents. Writes one JSON object per chunk (JSON Lines) to stdout "
                    "unless -o is given (written under a temporary name and renamed when "
                    "complete). Exit status 2 when an option or any input is bad; the other "
                    "inputs are still chunked.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (read recursively; hidden entries, what .gitignore "
                        "names, dependency folders, lock and generated files skipped), glob "
                        "patterns ('docs/**/*.md'), or - for standard input")
    add_chunk_options(p)
    add_walk_flags(p)
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="the embedder the chunks are for: semantic uses it to find topic "
                        "shifts; every strategy warns when chunks may be longer than it reads "
                        "(minilm, minilm-onnx, model2vec:PATH, openai:MODEL[@URL], or a "
                        "sentence-transformers folder)")
    p.add_argument("--embed", action="store_true",
                   help="embed every chunk's embed_text with --embedder (default: minilm) and "
                        "write it as a vector field / column")
    p.add_argument("--encoding", default=None, help=ENCODING_HELP)
    p.add_argument("--format", "-f", choices=("jsonl", "parquet"), default=None,
                   help="output format (default: parquet for -o NAME.parquet, else jsonl; "
                        "parquet needs -o)")
    p.add_argument("-o", "--output", default=None, metavar="OUT",
                   help="output file (default: stdout for jsonl); never one of the inputs")
    p.add_argument("--metadata", action="append", default=[], metavar="KEY=VALUE",
                   help="add a field to every document's metadata (every chunk carries it in "
                        "metadata.doc); repeatable")
    p.add_argument("--summary", action="store_true",
                   help="print documents, chunks, mean/max tokens and time; without -o the "
                        "chunks themselves are not printed")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes that read and chunk files in parallel (default: every "
                        "core for 4 MB of input or more; 1 for strategies that embed, whose "
                        "model already uses every core); output and ids are the same for any N")
    p.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local: processes on this machine (--workers); ray: Ray Data tasks on "
                        "the cluster at --address, or a local Ray when none is given (pip "
                        "install 'chunkwise[ray]'); output and ids are the same either way")
    p.add_argument("--address", metavar="ADDR", default=None,
                   help="with --engine ray: the cluster to use (ray://HOST:10001, HOST:6379, "
                        "or auto for the one this machine is part of)")
    add_progress_flags(p, "show a progress bar on stderr for several files even when stderr "
                          "is not a terminal (by default it is shown on a terminal only)")


def _sink(args: argparse.Namespace, sources: list[Any]) -> Any:
    from ..sinks import JsonlSink, ParquetSink, check_destination

    if args.dry_run:
        return None  # nothing is written
    if args.output:
        check_destination(args.output, [s.path for s in sources if s.path is not None])
        return ParquetSink(args.output) if args.format == "parquet" else JsonlSink(args.output)
    return None if args.summary else JsonlSink(sys.stdout)


def _documents(args: argparse.Namespace, chunker: Any, sources: list[Any],
               report: Any) -> Any:
    from ..api import iter_documents_chunks, local_workers
    from ..readers.sources import Walk

    metadata = key_values(args.metadata)
    if args.engine == "ray":
        from .. import ray as ray_engine

        return ray_engine.iter_documents_chunks(  # (the files the walk found)
            chunker, sources, report, encoding=args.encoding, format=args.input_format,
            metadata=metadata, address=args.address, num_cpus=args.workers)
    embeds = uses_embedder(*args.chunking)
    workers = local_workers(chunker, sources, args.workers, args.input_format, args.encoding,
                            embeds=embeds)
    return iter_documents_chunks(chunker, sources, on_error=report, encoding=args.encoding,
                                 format=args.input_format, metadata=metadata, workers=workers,
                                 walk=Walk())


def cmd_chunk(args: argparse.Namespace) -> int:
    from ..api import ChunkStats
    from ..readers.sources import SkipCounter, iter_sources

    if args.output == "-":  # the usual spelling of standard output
        args.output = None
    if args.format is None:  # the output's extension says, unless --format does
        parquet = args.output and args.output.lower().endswith((".parquet", ".pq"))
        args.format = "parquet" if parquet else "jsonl"
    if args.format == "parquet" and not args.output:
        raise ChunkwiseError("--format parquet needs an output file (-o OUT)")
    chunker = build_chunker(args)
    vector_model: Any = None
    if args.embed:
        from ..embed import get_embedder

        vector_model = get_embedder(args.embedder or "minilm", cache=False)
    skipped = SkipCounter()
    sources = list(iter_sources(args.paths, strings_are_paths=True,
                                walk=walk_of(args, skipped)))
    if getattr(chunker, "contextualizer", None) is not None and args.engine == "ray":
        raise ChunkwiseError("--contextualize runs on this machine (its LLM calls run "
                             "concurrently): drop --engine ray")
    sink = _sink(args, sources)
    stats = ChunkStats()
    failed: list[str] = []
    t0 = time.perf_counter()
    documents: Any = None
    with progress_bar(len(sources), "file", args.progress if len(sources) > 1 else False) as bar:
        def report(exc: InputError) -> None:
            failed.append(str(exc))
            if bar is not None:
                bar.update(1)
                bar.write(f"chunkwise: error: {exc}", file=sys.stderr)
            else:
                error(str(exc))

        try:
            documents = _documents(args, chunker, sources, report)
            for doc, chunks in documents:
                if sink is not None:
                    _write(sink, chunks, vector_model)
                if stats.add(doc, chunks) and bar is not None:
                    bar.update(1)
            if sink is not None:
                sink.close()
        except BaseException:
            if documents is not None:
                documents.close()  # worker processes stop now, not at exit
            if sink is not None and args.output:
                sink.abort()
            raise
    llm_report(chunker, args)
    if skipped.line():
        print(f"chunkwise: {skipped.line()}", file=sys.stderr)
    if args.summary:
        _summary(chunker, stats, time.perf_counter() - t0, failed)
    return EXIT_BAD_INPUT if failed else 0


def _write(sink: Any, chunks: list[Chunk], vector_model: Any) -> None:
    if vector_model is not None and chunks:
        sink.write(chunks, vector_model.embed([c.embed_text for c in chunks]))
    else:
        sink.write(chunks)


def _summary(chunker: Any, stats: Any, elapsed: float, failed: list[str]) -> None:
    cfg = chunker.describe()
    def shown(v: Any) -> str:
        if isinstance(v, dict):
            return ",".join(f"{a}:{b}" for a, b in v.items())
        return ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)

    print(", ".join(f"{k} {shown(v)}" for k, v in cfg.items() if v is not None))
    print(f"documents {stats.documents}  chunks {stats.chunks}  mean tokens {stats.mean:.1f}  "
          f"max tokens {stats.max_tokens}  time {elapsed:.2f}s")
    if stats.empty:
        print(f"documents without text {len(stats.empty)}: " + ", ".join(stats.empty[:3])
              + (f" and {len(stats.empty) - 3} more" if len(stats.empty) > 3 else ""))
    if stats.by_strategy:
        print("documents by strategy: " + ", ".join(
            f"{name} {n}" for name, n in sorted(stats.by_strategy.items())))
    if stats.by_kind:  # auto without a size: its kind_sizes are in the description
        sizes = cfg.get("kind_sizes") or {}
        print("documents sized by kind: " + ", ".join(
            f"{name} {n} ({sizes.get(name, '?')} tokens)"
            for name, n in sorted(stats.by_kind.items())))
    if failed:
        print(f"failed inputs {len(failed)}")
