"""Command line: ``chunkwise chunk | eval | view | distill``.

A thin shell over the library: it parses arguments, calls the library (which
reads sources, isolates errors per document and writes outputs atomically) and
prints. Every error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import warnings
from collections.abc import Generator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from . import __version__
from .config import DEFAULT_SIZE
from .errors import ChunkwiseError, InputError
from .readers import FORMATS
from .strategies import STRATEGIES, Chunker, get_chunker
from .types import Chunk

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(BaseException):
    """SIGTERM, raised where the program is so that outputs are cleaned up."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``chunkwise: error: ...``, exit 2)."""

    def error(self, message: str) -> NoReturn:
        print(f"chunkwise: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _overlap(value: str) -> int | float:
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a token count (32) or a fraction of size (0.15), got {value!r}") from None


def _threshold(value: str) -> str | float:
    if value in ("percentile", "std", "interquartile", "gradient"):
        return value
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected percentile, std, interquartile, gradient or a distance, got {value!r}"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="chunkwise",
        description="Cut documents into passages for retrieval-augmented generation, "
                    "sized in your model's tokens, with exact character offsets.",
    )
    parser.add_argument("--version", action="version", version=f"chunkwise {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "chunk", help="chunk files, folders, globs or stdin into JSON Lines or Parquet",
        description="Chunk documents. Writes one JSON object per chunk (JSON Lines) to stdout "
                    "unless -o is given (written under a temporary name and renamed when "
                    "complete). Exit status 2 when an option or any input is bad; the other "
                    "inputs are still chunked.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (read recursively, hidden entries skipped), glob "
                        "patterns ('docs/**/*.md'), or - for standard input")
    _chunk_options(p)
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="the embedder the chunks are for: semantic uses it to find topic "
                        "shifts; every strategy warns when chunks may be longer than it reads "
                        "(minilm, minilm-onnx, model2vec:PATH, openai:MODEL[@URL], or a "
                        "sentence-transformers folder)")
    p.add_argument("--embed", action="store_true",
                   help="embed every chunk's embed_text with --embedder (default: minilm) and "
                        "write it as a vector field / column")
    p.add_argument("--encoding", default=None,
                   help="text encoding of the inputs (default: UTF-8, or UTF-16 with a BOM)")
    p.add_argument("--format", "-f", choices=("jsonl", "parquet"), default="jsonl",
                   help="output format (default: jsonl; parquet needs -o)")
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
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show a progress bar on stderr for several files even when stderr is "
                        "not a terminal (by default it is shown on a terminal only)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="never show the progress bar")

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
    _chunk_options(e)
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
    e.add_argument("--no-cache", action="store_true",
                   help="do not read or write the embedding cache (~/.cache/chunkwise)")
    e.add_argument("--json", action="store_true",
                   help="print one JSON object on one line (metrics in percent)")
    e.add_argument("--out", default=None, metavar="DIR",
                   help="with --grid: folder for results.csv, results.json and recall_tokens.svg "
                        "(default: eval-results)")

    v = sub.add_parser(
        "view", help="write an HTML page showing where a document is cut",
        description="Chunk one document and write an HTML page with each chunk as a colour "
                    "band (overlaps hatched, details on hover) and a table of the chunks.")
    v.add_argument("path", metavar="PATH", help="the document")
    _chunk_options(v)
    v.add_argument("--embedder", default=None, metavar="SPEC", help="semantic: the embedder")
    v.add_argument("--encoding", default=None, help="text encoding of the input")
    v.add_argument("-o", "--output", default=None, metavar="OUT.html",
                   help="where to write the page (default: PATH.chunks.html)")

    ix = sub.add_parser(
        "index", help="chunk, embed and upsert documents into a vector index, kept in sync",
        description="Keep an index in step with documents: chunk them, embed only chunks "
                    "the index does not hold yet, rewrite rows that moved, delete chunks a "
                    "document no longer has (and with --prune documents whose files are "
                    "gone). The configuration is stored with the index; another one is "
                    "refused unless --rebuild. A killed run is finished by the next.")
    ix.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or glob patterns")
    ix.add_argument("--db", required=True, metavar="URI",
                    help="./PATH or lancedb://PATH (LanceDB, embedded), qdrant+local://PATH "
                         "(Qdrant's local mode), qdrant://HOST:PORT/NAME (a Qdrant server), "
                         "postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME] (PostgreSQL "
                         "with pgvector)")
    _chunk_options(ix)
    ix.add_argument("--embedder", default=None, metavar="SPEC",
                    help="the embedding model (default: minilm; see chunk --help)")
    ix.add_argument("--encoding", default=None, help="text encoding of the inputs")
    ix.add_argument("--prune", action="store_true",
                    help="remove documents the index holds that these paths no longer give")
    ix.add_argument("--rebuild", action="store_true",
                    help="drop the index and build it again (needed to change configuration)")
    ix.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="show the progress bar even when stderr is not a terminal")
    ix.add_argument("--no-progress", dest="progress", action="store_false",
                    help="never show the progress bar")

    sq = sub.add_parser(
        "search", help="search an index: ranked chunks with their citations",
        description="Rank the index's chunks for a question with the evaluation's retriever "
                    "and print each with its source, page, heading trail and character span.")
    sq.add_argument("query", metavar="QUESTION")
    sq.add_argument("--db", required=True, metavar="URI", help="the index (see index --help)")
    sq.add_argument("-k", type=int, default=5, help="how many chunks (default: 5)")
    sq.add_argument("--retriever", choices=("dense", "bm25", "hybrid"), default="hybrid",
                    help="dense (the store's own nearest-neighbour search), bm25 or hybrid "
                         "(z-scored fusion, default; both rank every row in memory)")
    sq.add_argument("--json", action="store_true", help="one JSON object per hit")
    sq.add_argument("--expand", action="store_true",
                    help="a hierarchical index: rank the small chunks, return their parents "
                         "(each once)")

    qg = sub.add_parser(
        "questions", help="generate evaluation questions from your own documents",
        description="Pick passages across the documents (by document and kind: tables, "
                    "procedures, code, prose), ask an LLM for a question each answers and the "
                    "verbatim evidence, keep those whose evidence is an exact substring, and "
                    "write questions.jsonl for chunkwise eval --dataset jsonl:FOLDER.")
    qg.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or glob patterns")
    qg.add_argument("-o", "--output", required=True, metavar="FOLDER/questions.jsonl",
                    help="where to write; its folder must hold the documents (doc_id is the "
                         "path relative to it)")
    how = qg.add_mutually_exclusive_group(required=True)
    how.add_argument("--llm", metavar="LLM",
                     help="anthropic:MODEL, openai:MODEL[@BASE_URL] or local[:PATH.gguf]")
    how.add_argument("--heuristic", action="store_true",
                     help="no LLM: weaker questions from headings and table rows (tagged "
                          "heuristic)")
    qg.add_argument("-n", type=int, default=50, help="passages to ask about (default: 50)")
    qg.add_argument("--seed", type=int, default=0, help="passage sampling seed (default: 0)")
    qg.add_argument("--no-llm-cache", action="store_true", help="do not use the LLM cache")

    d = sub.add_parser(
        "distill", help="distil a fast static (model2vec) embedder from the bundled MiniLM, offline",
        description="Distil a model2vec static model from the bundled all-MiniLM-L6-v2, locally "
                    "(about 20 s on 2 cores). Use it with --embedder model2vec:OUT, e.g. for "
                    "fast semantic chunking.")
    d.add_argument("output", metavar="OUT", help="folder to write the model to")
    d.add_argument("--pca-dims", type=int, default=256,
                   help="dimensions of the static vectors (default: 256)")
    return parser


def _chunk_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", "-s", default=None, metavar="NAME",
                   help=f"chunking strategy: {', '.join(STRATEGIES.names())} (default: auto)")
    p.add_argument("--size", type=int, default=None,
                   help=f"target chunk size in tokens, context included (default: {DEFAULT_SIZE}, "
                        "capped at --max-tokens)")
    p.add_argument("--overlap", type=_overlap, default=None, metavar="N|F",
                   help="overlap between neighbouring chunks, in tokens (32) or as a fraction "
                        "of size (0.15); must be smaller than size (default: 0; hierarchical: "
                        "a fifth of the child size, at most 40, at the child level)")
    p.add_argument("--sizes", default=None, metavar="N,N[,N]",
                   help="hierarchical: size of each level, largest first (default: 800,200)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N",
                   help="hard limit on tokens of context + text for every chunk (default: the "
                        "model's maximum sequence length less its special tokens where known, "
                        "else --size)")
    p.add_argument("--max-chars", type=int, default=None, metavar="N",
                   help="hard limit on characters of context + text (default: 16 x the token "
                        "limit; bounds text that a tokenizer counts as few tokens)")
    p.add_argument("--tokenizer", "-t", default=None, metavar="NAME|PATH",
                   help="minilm (default: the bundled all-MiniLM-L6-v2), cl100k_base, "
                        "o200k_base, chars, words, or a path to a tokenizer.json or a model folder")
    p.add_argument("--separators", nargs="+", default=None, metavar="SEP",
                   help="recursive strategy only: literal separators in priority order "
                        "(escape sequences such as \\n are understood)")
    p.add_argument("--language", default=None,
                   help="language code for sentence boundaries (default: en)")
    p.add_argument("--input-format", default="auto",
                   choices=("auto", *FORMATS),
                   help="how to read the inputs (default: auto, by file extension, then content; "
                        "html-all keeps a whole web page, html keeps its main content; code "
                        "reads source files, srt/vtt subtitles, chat a chat JSON, transcript "
                        "speaker lines)")
    p.add_argument("--code-language", default=None, metavar="LANG",
                   help="code strategy: the programming language when the file extension "
                        "does not say (python, javascript, typescript, tsx, go, rust, java, c, "
                        "cpp, c_sharp)")
    p.add_argument("--window-seconds", type=float, default=None, metavar="S",
                   help="transcript strategy: a new chunk where each S-second window starts")
    p.add_argument("--references-budget", type=int, default=None, metavar="TOKENS",
                   help="legal strategy: tokens of context for resolved cross-references and "
                        "definitions (default: a quarter of the size)")
    p.add_argument("--merge-sections", action="store_true",
                   help="section strategy: merge small sibling sections up to --size")
    p.add_argument("--table-rows", choices=("group", "row"), default=None,
                   help="tables longer than the table budget split into row groups with the "
                        "header repeated (group, default), or one chunk per row (row)")
    p.add_argument("--threshold", type=_threshold, default=None, metavar="METHOD|DISTANCE",
                   help="semantic: percentile, std, interquartile or gradient (the threshold "
                        "taken from the distribution of neighbour distances), or a cosine "
                        "distance such as 0.25 (cut wherever the distance reaches it)")
    p.add_argument("--amount", type=float, default=None,
                   help="semantic: the threshold's parameter (percentile 90, std 1.5, ...)")
    p.add_argument("--window", type=int, default=None,
                   help="semantic: sentences compared on each side of a gap (default: 2)")
    p.add_argument("--min-size", type=int, default=None,
                   help="semantic: smallest chunk in tokens (default: 0)")
    p.add_argument("--merge", type=float, default=None, metavar="SIM",
                   help="semantic: merge neighbouring chunks whose similarity is at least SIM")
    p.add_argument("--headers", action="store_true",
                   help="recursive/sentence: headings become hard boundaries and each chunk "
                        "carries its heading trail as context (always on for section)")
    g = p.add_argument_group("contextual retrieval (an LLM situates each chunk in its document)")
    g.add_argument("--contextualize", default=None, metavar="LLM",
                   help="anthropic:MODEL, openai:MODEL[@BASE_URL], local[:PATH.gguf] (llama.cpp, "
                        "default model Gemma 3 270M, offline) or title (the document title, no "
                        "LLM): its sentences go into each chunk's context")
    g.add_argument("--context-tokens", type=int, default=None, metavar="N",
                   help="tokens of the budget (size) reserved for the LLM's context at "
                        "packing time (default: 80); context + text stays within the budget")
    g.add_argument("--context-position", choices=("before", "after"), default=None,
                   help="the LLM's sentences after the heading trail (default, measured) or "
                        "before it")
    g.add_argument("--llm-concurrency", type=int, default=None, metavar="N",
                   help="LLM calls in flight (default: 8 hosted, 1 local)")
    g.add_argument("--prices", default=None, metavar="FILE.json",
                   help="prices for the cost estimate: {MODEL: {input, cache_write, cached, "
                        "output}} in US dollars per million tokens")
    g.add_argument("--no-llm-cache", action="store_true",
                   help="do not read or write the LLM answer cache (~/.cache/chunkwise/llm.sqlite)")
    g.add_argument("--dry-run", action="store_true",
                   help="with --contextualize: chunk, print the calls, tokens and cost it would "
                        "take, call nothing and write nothing")


def _error(message: str) -> None:
    print(f"chunkwise: error: {message}", file=sys.stderr)


def _warning(message: str) -> None:
    print(f"chunkwise: warning: {message}", file=sys.stderr)


def _decode_escapes(seps: list[str] | None) -> list[str] | None:
    if seps is None:
        return None
    return [s.encode("utf-8").decode("unicode_escape") if "\\" in s else s for s in seps]


def chunk_options(args: argparse.Namespace) -> dict[str, Any]:
    """The strategy options the command line gives (only those given: an option the
    strategy does not take is then the library's one-line error)."""
    options: dict[str, Any] = {
        "size": args.size, "overlap": args.overlap, "tokenizer": args.tokenizer,
        "max_tokens": args.max_tokens, "max_chars": args.max_chars,
        "separators": _decode_escapes(args.separators), "language": args.language,
        "table_rows": args.table_rows, "threshold": args.threshold, "amount": args.amount,
        "window": args.window, "min_size": args.min_size, "merge": args.merge,
        "merge_sections": True if args.merge_sections else None,
        "headers": True if args.headers else None,
        "code_language": args.code_language, "window_seconds": args.window_seconds,
        "references_budget": args.references_budget,
    }
    if getattr(args, "contextualize", None):
        prices = None
        if args.prices:
            try:
                prices = json.loads(Path(args.prices).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ChunkwiseError(f"--prices {args.prices}: {exc}") from None
        show = getattr(args, "progress", None)
        options.update({
            "contextualize": args.contextualize, "context_tokens": args.context_tokens,
            "context_position": args.context_position, "llm_concurrency": args.llm_concurrency,
            "llm_cache": not args.no_llm_cache, "llm_prices": prices, "dry_run": args.dry_run,
            "llm_progress": show if show is not None else sys.stderr.isatty()})
    elif getattr(args, "dry_run", False):
        raise ChunkwiseError("--dry-run estimates the cost of --contextualize; give it")
    if args.sizes:
        try:
            options["sizes"] = [int(x) for x in args.sizes.split(",")]
        except ValueError:
            raise ChunkwiseError(f"--sizes: expected comma-separated integers, "
                                 f"got {args.sizes!r}") from None
    return {k: v for k, v in options.items() if v is not None}


def build_chunker(args: argparse.Namespace, strategy: str | None = None,
                  overrides: dict[str, Any] | None = None) -> Chunker:
    """The chunker the command-line options describe (warnings printed as one line each)."""
    name = strategy or args.strategy or "auto"
    options = chunk_options(args)
    options.update(overrides or {})
    embedder = getattr(args, "embedder", None)
    if _uses_embedder(name, options):
        if embedder is not None:
            options.setdefault("embedder", embedder)
        options.setdefault("cache", not getattr(args, "no_cache", False))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunker = get_chunker(name, **options)
    for w in caught:
        if not issubclass(w.category, DeprecationWarning):  # third-party noise
            _warning(str(w.message))
    if embedder is not None and args.command in ("chunk", "view"):
        from .embed import get_embedder, truncation_warning

        message = truncation_warning(chunker.max_tokens, chunker.tokenizer,
                                     get_embedder(embedder))
        if message:
            _warning(message)
    return chunker


def _key_values(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ChunkwiseError(f"--metadata: expected KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def _uses_embedder(name: str, options: dict[str, Any]) -> bool:
    if name == "semantic":
        return True
    levels = options.get("strategies") or ()
    return name == "hierarchical" and any(
        (s if isinstance(s, str) else s[0]) == "semantic" for s in levels)


#: below this much input, starting worker processes costs more than it saves
POOL_MIN_BYTES = 4_000_000


def _input_bytes(sources: list[Any]) -> int:
    total = 0
    for s in sources:
        if s.path is not None:
            try:
                total += s.path.stat().st_size
            except OSError:
                pass
        elif s.text is not None:
            total += len(s.text)
        if total >= POOL_MIN_BYTES:
            break
    return total


def _streams(chunker: Chunker, sources: list[Any], args: argparse.Namespace) -> bool:
    from .stream import should_stream

    return any(s.path is not None and should_stream(chunker, s.path, args.input_format,
                                                    args.encoding) for s in sources)


def cmd_chunk(args: argparse.Namespace) -> int:
    from .api import iter_documents_chunks
    from .readers.sources import iter_sources
    from .sinks import JsonlSink, ParquetSink, check_destination

    if args.output == "-":  # the usual spelling of standard output
        args.output = None
    if args.format == "parquet" and not args.output:
        raise ChunkwiseError("--format parquet needs an output file (-o OUT)")
    chunker = build_chunker(args)
    vector_model: Any = None
    if args.embed:
        from .embed import get_embedder

        vector_model = get_embedder(args.embedder or "minilm", cache=False)
    sources = list(iter_sources(args.paths, strings_are_paths=True))
    sink: JsonlSink | ParquetSink | None = None
    contextual = getattr(chunker, "contextualizer", None)
    if contextual is not None and args.engine == "ray":
        raise ChunkwiseError("--contextualize runs on this machine (its LLM calls run "
                             "concurrently): drop --engine ray")
    if args.dry_run:
        pass  # nothing is written
    elif args.output:
        check_destination(args.output, [s.path for s in sources if s.path is not None])
        sink = ParquetSink(args.output) if args.format == "parquet" else JsonlSink(args.output)
    elif not args.summary:
        sink = JsonlSink(sys.stdout)

    progress: Any = None
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if len(sources) > 1 and show:
        from tqdm import tqdm

        progress = tqdm(total=len(sources), unit="file", file=sys.stderr, dynamic_ncols=True)
    failed: list[str] = []

    def report(exc: InputError) -> None:
        failed.append(str(exc))
        if progress is not None:
            progress.update(1)
            progress.write(f"chunkwise: error: {exc}", file=sys.stderr)
        else:
            _error(str(exc))

    n_docs = n_chunks = total_tokens = max_tokens = 0
    by_strategy: dict[str, int] = {}  # documents per strategy auto chose
    t0 = time.perf_counter()
    documents: Generator[tuple[Any, list[Chunk]], None, None] | None = None
    try:
        workers = args.workers
        if workers is None and (_uses_embedder(args.strategy or "auto", chunk_options(args))
                                or _input_bytes(sources) < POOL_MIN_BYTES):
            workers = 1  # the model uses every core already; or too little to share
        if workers is None and _streams(chunker, sources, args):
            workers = 1  # a file read in windows is read in this process
        if contextual is not None:
            workers = 1  # one LLM client, its calls concurrent (--llm-concurrency)
        if args.engine == "ray":
            from . import ray as ray_engine

            documents = ray_engine.iter_documents_chunks(
                chunker, args.paths, report, encoding=args.encoding,
                format=args.input_format, metadata=_key_values(args.metadata),
                address=args.address, num_cpus=args.workers)
        else:
            documents = iter_documents_chunks(chunker, sources, on_error=report,
                                              encoding=args.encoding, format=args.input_format,
                                              metadata=_key_values(args.metadata),
                                              workers=workers)
        last: Any = None
        for doc, chunks in documents:
            if sink is not None:
                if vector_model is not None and chunks:
                    sink.write(chunks, vector_model.embed([c.embed_text for c in chunks]))
                else:
                    sink.write(chunks)
            if doc is last and doc is not None:  # more of a file read in windows
                n_chunks += len(chunks)
                for c in chunks:
                    total_tokens += c.token_count
                    max_tokens = max(max_tokens, c.token_count)
                continue
            last = doc
            if progress is not None:
                progress.update(1)
            n_docs += 1
            n_chunks += len(chunks)
            for c in chunks:
                total_tokens += c.token_count
                max_tokens = max(max_tokens, c.token_count)
            chosen = chunks[0].metadata.get("strategy") if chunks else None
            if chosen:  # what auto chose for the document
                by_strategy[chosen] = by_strategy.get(chosen, 0) + 1
        if sink is not None:
            sink.close()
    except BaseException:
        if documents is not None:
            documents.close()  # worker processes stop now, not at exit
        if sink is not None and args.output:
            sink.abort()
        raise
    finally:
        if progress is not None:
            progress.close()
    elapsed = time.perf_counter() - t0
    _llm_report(chunker, args)

    if args.summary:
        mean = total_tokens / n_chunks if n_chunks else 0.0
        cfg = chunker.describe()
        print(", ".join(f"{k} {','.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
                        for k, v in cfg.items() if v is not None))
        print(f"documents {n_docs}  chunks {n_chunks}  mean tokens {mean:.1f}  "
              f"max tokens {max_tokens}  time {elapsed:.2f}s")
        if by_strategy:
            print("documents by strategy: " + ", ".join(
                f"{name} {n}" for name, n in sorted(by_strategy.items())))
        if failed:
            print(f"failed inputs {len(failed)}")
    return EXIT_BAD_INPUT if failed else 0


def _llm_report(chunker: Any, args: argparse.Namespace) -> None:
    """The contextualizer's cost line: the estimate on stdout for --dry-run, the
    run's figures on stderr otherwise."""
    contextual = getattr(chunker, "contextualizer", None)
    if contextual is None:
        return
    contextual.close()
    if args.dry_run:
        print(contextual.report.line(estimate=True))
    else:
        print(contextual.report.line(), file=sys.stderr)


def cmd_eval(args: argparse.Namespace) -> int:
    import json

    from .eval import load_dataset
    from .eval.grid import EvalSettings, load_grid, run_grid, run_one

    if args.chunks and args.grid:
        raise ChunkwiseError("--chunks and --grid exclude each other (put chunks = ... in a "
                             "[[run]])")
    dataset = load_dataset(args.dataset)
    settings = EvalSettings.from_args(args)

    made: list[Chunker] = []

    def make_chunker(strategy: str | None, overrides: dict[str, Any]) -> Chunker:
        made.append(build_chunker(args, strategy, overrides))
        return made[-1]

    if args.dry_run:
        chunker = make_chunker(None, {})
        for doc in dataset.documents.values():
            chunker.chunk_document(doc)
        _llm_report(chunker, args)
        return 0
    if not args.grid:
        t0 = time.perf_counter()
        result = run_one(dataset, settings, {}, make_chunker, chunks_file=args.chunks)
        elapsed = time.perf_counter() - t0
        for chunker in made:
            _llm_report(chunker, args)
        for message in result.warnings:
            _warning(message)
        if args.json:
            d = result.to_dict()
            keep = {k: d[k] for k in ("recall", "precision", "precision_omega", "iou",
                                      "full_evidence", "budget_recall", "mrr", "n_questions",
                                      "n_chunks", "truncated", "mean_retrieved_tokens", "config",
                                      "curve", "by_corpus", "by_tag")}
            keep["seconds"] = round(elapsed, 2)
            print(json.dumps(keep))
        else:
            from .eval.report import corpus_table, run_name, table

            print(table([(run_name(result.config), result)]))
            if len(result.by_corpus) > 1:
                print()
                print(corpus_table(result.by_corpus))
            print(f"{result.n_questions} questions, {result.n_chunks} chunks, "
                  f"{elapsed:.1f}s ({', '.join(f'{k} {v:.1f}s' for k, v in result.seconds.items())})")
        return 0

    from .eval.report import table

    runs = load_grid(args.grid)

    def progress(i: int, n: int, name: str, result: Any, seconds: float) -> None:
        print(f"[{i}/{n}] {name}: recall {result.metrics['recall']:.1f} "
              f"IoU {result.metrics['iou']:.1f} ({seconds:.1f}s)", file=sys.stderr)
        for message in result.warnings:
            _warning(f"{name}: {message}")

    out = Path(args.out or "eval-results")
    results, written = run_grid(dataset, settings, runs, make_chunker, out, progress)
    if args.json:
        print(json.dumps([{"name": n, **r.to_dict()} for n, r in results]))
    else:
        print(table(results))
        print(f"wrote {', '.join(str(p) for p in written)}")
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from .readers import read_path
    from .sinks import check_destination, write_atomic
    from .view import render

    out = Path(args.output or f"{args.path}.chunks.html")
    check_destination(out, [Path(args.path)])
    chunker = build_chunker(args)
    doc = read_path(args.path, encoding=args.encoding, fmt=args.input_format)
    chunks = chunker.chunk_document(doc)
    write_atomic(out, render(doc, chunks))
    print(f"wrote {out}: {len(chunks)} chunks")
    return 0


def cmd_distill(args: argparse.Namespace) -> int:
    from .embed import distill

    t0 = time.perf_counter()
    out = distill(args.output, pca_dims=args.pca_dims)
    print(f"wrote {out} in {time.perf_counter() - t0:.1f}s; use --embedder model2vec:{out}")
    return 0


def _index_config(chunker: Chunker, spec: str, embedder: Any) -> dict[str, Any]:
    return {"version": 1, "chunker": json.loads(json.dumps(chunker.describe(), default=str)),
            "embedder": spec, "model": getattr(embedder, "name", type(embedder).__name__),
            "dim": int(getattr(embedder, "dim", 0) or 0)}


def _with_store(args: argparse.Namespace, run: Any) -> int:
    """``run(args, store)`` with the store at ``--db``, closed afterwards (Qdrant's
    local mode locks its folder until then)."""
    from .index import open_store

    store = open_store(args.db)
    try:
        return int(run(args, store))
    finally:
        store.close()


def cmd_index(args: argparse.Namespace) -> int:
    if any(p == "-" for p in args.paths):
        raise ChunkwiseError("index reads files, folders and globs, not standard input")
    return _with_store(args, _index)


def _index(args: argparse.Namespace, store: Any) -> int:
    from .api import iter_documents_chunks
    from .embed import get_embedder
    from .index import IndexReport, check_config, sync_document
    from .readers.sources import iter_sources

    chunker = build_chunker(args)
    if args.dry_run:  # what contextualizing would cost; the index is left alone
        for _ in iter_documents_chunks(chunker, list(iter_sources(args.paths,
                                                                  strings_are_paths=True)),
                                       on_error="skip", encoding=args.encoding):
            pass
        _llm_report(chunker, args)
        return 0
    spec = args.embedder or "minilm"
    embedder = get_embedder(spec, cache=False)
    check_config(store, _index_config(chunker, spec, embedder), args.rebuild)
    state = store.state()
    sources = list(iter_sources(args.paths, strings_are_paths=True))
    failed: list[str] = []
    seen: set[str] = set()
    report = IndexReport()
    progress: Any = None
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if show:
        from tqdm import tqdm

        progress = tqdm(total=len(sources), unit="doc", file=sys.stderr, dynamic_ncols=True)

    def on_error(exc: InputError) -> None:
        failed.append(str(exc))
        _error(str(exc))
        if exc.source:  # a document that fails now keeps what the index had for it
            seen.add(str(exc.source))

    t0 = time.perf_counter()
    current: Any = None  # a document read in windows comes in parts: synced when whole
    parts: list[Chunk] = []

    def flush() -> None:
        if current is None:
            return
        seen.add(current.doc_id)
        sync_document(store, embedder, current.doc_id, parts, state.get(current.doc_id, {}),
                      report)
        if progress is not None:
            progress.update(1)
            progress.set_postfix(embedded=report.embedded, reused=report.reused)

    try:
        for doc, chunks in iter_documents_chunks(chunker, sources, on_error=on_error,
                                                 encoding=args.encoding):
            if doc is not current:
                flush()
                current, parts = doc, []
            parts.extend(chunks)
        flush()
        if args.prune:
            for doc_id, ids in state.items():
                if doc_id not in seen:
                    store.delete(list(ids))
                    report.removed += 1
        store.finish()
    finally:
        if progress is not None:
            progress.close()
    _llm_report(chunker, args)
    print(report.line(time.perf_counter() - t0))
    return EXIT_BAD_INPUT if failed else 0


def cmd_search(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise ChunkwiseError("-k must be a positive integer")
    return _with_store(args, _search)


def _search(args: argparse.Namespace, store: Any) -> int:
    from .embed import get_embedder
    from .index import search

    config = store.get_config()
    if config is None:
        raise ChunkwiseError(f"no index at {args.db} (build one with chunkwise index)")
    embedder = get_embedder(config["embedder"], cache=False)  # the one the index was built with
    for rank, hit in enumerate(search(store, args.query, embedder, k=args.k,
                                      retriever=args.retriever, expand=args.expand), 1):
        r = hit.row
        if args.json:
            print(json.dumps({"rank": rank, "score": round(hit.score, 6),
                              **{k: v for k, v in r.items() if k != "row_hash"}},
                             ensure_ascii=False))
            continue
        where = f"{r['source'] or r['doc_id']}:{r['start']}-{r['end']}"
        if r.get("page") is not None:
            where += f" (page {r['page']})"
        trail = " > ".join(r.get("headings") or [])
        print(f"{rank}. {where}  score {hit.score:.3f}" + (f"\n   {trail}" if trail else ""))
        text = " ".join(r["text"].split())
        print(f"   {text[:300]}{'...' if len(text) > 300 else ''}")
    return 0


def cmd_questions(args: argparse.Namespace) -> int:
    from .api import iter_documents_chunks
    from .questions import heuristic, pick, relative_ids, with_llm
    from .readers.sources import iter_sources
    from .sinks import check_destination

    if args.n < 1:
        raise ChunkwiseError("-n must be a positive integer")
    out = Path(args.output)
    sources = list(iter_sources(args.paths, strings_are_paths=True))
    if any(s.path is None for s in sources):
        raise ChunkwiseError("questions reads files, folders and globs, not standard input")
    check_destination(str(out), [s.path for s in sources if s.path is not None])
    chunker = get_chunker("auto", size=200)
    by_doc: dict[str, list[Chunk]] = {}
    paths: list[tuple[str, Path]] = []
    for doc, chunks in iter_documents_chunks(chunker, sources, on_error="raise"):
        by_doc.setdefault(doc.doc_id, []).extend(chunks)
        if doc.source and (doc.doc_id, Path(doc.source)) not in paths:
            paths.append((doc.doc_id, Path(doc.source)))
    doc_ids = relative_ids(paths, out.parent)
    passages = pick(by_doc, args.n, args.seed)
    report = None
    if args.heuristic:
        made = heuristic(passages, doc_ids)
    else:
        made, report = with_llm(passages, args.llm, doc_ids, cache=not args.no_llm_cache)
    if not made.questions:
        raise ChunkwiseError(f"no question kept ({made.dropped} dropped: evidence not found "
                             "verbatim in its passage); a model too small to copy text, like "
                             "the bundled local one, keeps none: use a larger model or "
                             "--heuristic")
    from .sinks import write_atomic

    write_atomic(out, "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in made.questions))
    if report is not None:
        print(report.line(), file=sys.stderr)
    print(f"questions {len(made.questions)} written to {out} ({made.dropped} dropped: evidence "
          f"not verbatim in its passage); tags: " + ", ".join(
              f"{k} {v}" for k, v in sorted(_tag_counts(made.questions).items())))
    return 0


def _tag_counts(questions: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for q in questions:
        counts[q["tags"][0]] = counts.get(q["tags"][0], 0) + 1
    return counts


COMMANDS = {"chunk": cmd_chunk, "eval": cmd_eval, "view": cmd_view, "distill": cmd_distill,
            "index": cmd_index, "search": cmd_search, "questions": cmd_questions}


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    if issubclass(category, DeprecationWarning):  # third-party noise
        return
    _warning(str(message))


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def _forget_keyboard_interrupt() -> None:
    """CPython marks a KeyboardInterrupt that left code run from a string (``exec``
    or ``eval`` of source: a dataclass or namedtuple being made while a module is
    imported, say) as unhandled, even when a caller catches it later; at exit it
    then kills the process with SIGINT instead of exiting with our code (seen: a
    Ctrl-C landing in namedtuple's ``eval`` while pyarrow imported pandas exited -2,
    not 130).
    Running code from a string resets that mark."""
    exec("None")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    # library warnings (a skipped file, a page that kept little text) as one line each
    warnings.showwarning = _show_warning
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (an embedding application): leave it alone
        pass
    try:
        return COMMANDS[args.command](args)
    except ChunkwiseError as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into `head`
        try:  # no second error when Python flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        _error("interrupted; no partial output was left")
        _forget_keyboard_interrupt()
        return EXIT_INTERRUPTED
    except Terminated:
        _error("terminated; no partial output was left")
        return EXIT_TERMINATED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
