"""``chunkwise index``: an index kept in sync with files (once, or ``--watch``). It calls
:class:`chunkwise.Index`; this only parses and prints (``search``: cli/search.py)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..errors import ChunkwiseError, InputError
from .common import ENCODING_HELP, EXIT_BAD_INPUT, add_chunk_options, build_chunker, key_values, llm_report
from .output import add_progress_flags, error, progress_bar
from .walking import add_walk_flags, count_sources, walk_of, walk_options


def add_parser(sub: Any) -> None:
    ix = sub.add_parser(
        "index", help="chunk, embed and upsert documents into a vector index, kept in sync",
        description="Keep an index in step with documents: chunk them, embed only chunks "
                    "the index does not hold yet, rewrite rows that moved, delete chunks a "
                    "document no longer has (and with --prune documents whose files are "
                    "gone). Documents are named relative to the index's root, so any "
                    "spelling of a path names the same document. The configuration is "
                    "stored with the index; another one is refused unless --rebuild. One "
                    "run writes at a time; a killed run is finished by the next.")
    ix.add_argument("paths", nargs="*", metavar="PATH",
                    help="files, folders or glob patterns (folders: what is not a document, "
                         "such as images and archives, is passed over and counted)")
    ix.add_argument("--db", required=True, metavar="URI",
                    help="./PATH or lancedb://PATH (LanceDB, embedded), qdrant+local://PATH "
                         "(Qdrant's local mode), qdrant://HOST:PORT/NAME (a Qdrant server), "
                         "postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME] (PostgreSQL "
                         "with pgvector)")
    add_chunk_options(ix)
    ix.add_argument("--embedder", default=None, metavar="SPEC",
                    help="the embedding model (default: minilm; see chunk --help)")
    ix.add_argument("--encoding", default=None, help=ENCODING_HELP)
    ix.add_argument("--prune", action="store_true",
                    help="also remove documents of this index whose files no longer exist or "
                         "a walk now leaves out, under the paths given (others are untouched)")
    ix.add_argument("--rebuild", action="store_true",
                    help="drop the index and build it again (needed to change configuration)")
    ix.add_argument("--root", default=None, metavar="DIR",
                    help="the folder document ids are relative to (kept with the index, found "
                         "again where a project moved or was copied with its index; default: "
                         "the index's own, or for a new index the common folder of the paths)")
    ix.add_argument("--no-wait", action="store_true",
                    help="when another run is writing the index, stop (exit 2) instead of "
                         "waiting for it")
    add_walk_flags(ix, links=True)
    ix.add_argument("--check", action="store_true",
                    help="verify the index (one row per id, vectors, every document's chunks "
                         "complete, configuration readable) and print a summary; nothing "
                         "else is done")
    ix.add_argument("--repair", action="store_true",
                    help="with --check: fix what it finds (one row kept per id, broken "
                         "documents removed for the next run to add again)")
    ix.add_argument("--reread", action="store_true",
                    help="read and chunk every file again, even one whose bytes and settings "
                         "are those its rows were made from, or that failed to read with "
                         "them (passed over by default; a failure's error is told again)")
    ix.add_argument("--watch", action="store_true",
                    help="keep running: index again after each change under the paths "
                         "(an edit is searchable once its chunks are embedded); a line per "
                         "run; Ctrl-C or SIGTERM stops it once the run under way is written")
    ix.add_argument("--metadata", action="append", default=[], metavar="KEY=VALUE",
                    help="add a field to every document's metadata (search --metadata "
                         "KEY=VALUE then finds only these documents); repeatable")
    add_progress_flags(ix, "show the progress bar even when stderr is not a terminal")


def cmd_index(args: argparse.Namespace) -> int:
    from ..api import Index, iter_documents_chunks

    if args.watch and (args.check or args.repair or args.dry_run):
        raise ChunkwiseError("--watch indexes; it does not go with --check or --dry-run")
    if args.check or args.repair:
        return _check(args)
    if not args.paths:
        raise ChunkwiseError("give the files or folders to index (or --check)")
    if any(p == "-" for p in args.paths):
        raise ChunkwiseError("index reads files, folders and globs, not standard input")
    chunker = build_chunker(args)
    if args.dry_run:  # what contextualizing would cost; the index is left alone
        for _ in iter_documents_chunks(chunker, args.paths, on_error="skip", walk=walk_of(args),
                                       encoding=args.encoding, format=args.input_format,
                                       strings_are_paths=True):
            pass
        llm_report(chunker, args)
        return 0
    failed: list[str] = []

    def on_error(exc: InputError) -> None:
        failed.append(str(exc))
        error(str(exc))

    if args.watch:
        return _watch(args, chunker, on_error, failed)
    t0 = time.perf_counter()
    with Index(args.db) as index, progress_bar(lambda: count_sources(args), "doc", args.progress) as bar:
        def on_document(report: Any) -> None:
            if bar is not None:
                bar.update(1)
                # written rows per second: the embedder's pace (reading runs ahead)
                rate = report.written / max(time.perf_counter() - t0, 1e-9)
                bar.set_postfix({"chunks": report.chunks, "embedded": report.embedded,
                                 "reused": report.reused, "chunks/s": f"{rate:.1f}"})

        report = index.sync(args.paths, chunker, embedder=args.embedder or "minilm",
                            prune=args.prune, rebuild=args.rebuild, root=args.root,
                            wait=not args.no_wait, on_wait=_waiting(args.db),
                            follow_links=args.follow_links, on_error=on_error,
                            encoding=args.encoding, on_document=on_document,
                            metadata=key_values(args.metadata), reread=args.reread,
                            format=args.input_format,
                            **walk_options(args))
    llm_report(chunker, args)
    _summary(report, time.perf_counter() - t0, set())
    return EXIT_BAD_INPUT if failed else 0


def _watch(args: argparse.Namespace, chunker: Any, on_error: Any, failed: list[str]) -> int:
    """``index --watch``: a line per sync until Ctrl-C or SIGTERM (each ends the
    watch once the sync under way is written; a second Ctrl-C ends it at once)."""
    import contextlib
    import signal
    import threading

    from ..api import Index

    stop = threading.Event()

    def stopping(signum: int, frame: Any) -> None:
        if signum == signal.SIGINT and stop.is_set():
            raise KeyboardInterrupt  # a second Ctrl-C: now
        stop.set()

    previous = {s: signal.signal(s, stopping) for s in (signal.SIGTERM, signal.SIGINT)}

    bars = contextlib.ExitStack()  # a progress bar for the first run (the whole folder)
    bar = bars.enter_context(progress_bar(lambda: count_sources(args), "doc", args.progress))

    def on_document(report: Any) -> None:
        if bar is not None and not bar.disable:
            bar.update(1)

    said: set[str] = set()  # what the walk passed over, said once (not every run)

    def on_sync(report: Any, seconds: float) -> None:
        bars.close()
        _summary(report, seconds, said)

    try:
        with bars, Index(args.db) as index:
            print(f"chunkwise: indexing {' '.join(args.paths)} into {args.db}, then again "
                  "after each change (Ctrl-C to stop)", file=sys.stderr, flush=True)
            runs = index.watch(args.paths, chunker, on_sync=on_sync, stop=stop,
                               on_document=on_document,
                               embedder=args.embedder or "minilm", prune=args.prune,
                               rebuild=args.rebuild, root=args.root, wait=not args.no_wait,
                               on_wait=_waiting(args.db), follow_links=args.follow_links,
                               on_error=on_error, encoding=args.encoding,
                               metadata=key_values(args.metadata), reread=args.reread,
                               format=args.input_format, **walk_options(args))
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    print(f"chunkwise: watch ended after {runs} run{'s' if runs != 1 else ''}", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else 0


def _waiting(db: str) -> Any:
    """What a run says while another one writes the index."""
    return lambda: print(f"chunkwise: another run is writing {db}; waiting for it (--no-wait "
                         "to stop)", file=sys.stderr, flush=True)


def _summary(report: Any, seconds: float, said: set[str]) -> None:
    """A sync's line (and what the walk passed over, on stderr, unless in ``said``)."""
    if report.skipped and str(report.skipped) not in said:
        print(f"chunkwise: {report.skipped}", file=sys.stderr)
        said.add(str(report.skipped))
    print(report.line(seconds), flush=True)


def _check(args: argparse.Namespace) -> int:
    from ..api import Index

    if args.repair and not args.check:
        raise ChunkwiseError("--repair goes with --check")
    if args.paths:
        raise ChunkwiseError("--check verifies the index itself: give no paths")
    with Index(args.db, create=False) as index:
        report = index.check(repair=args.repair)
    print(report.line())
    return 0 if report.clean or report.repaired else 1

