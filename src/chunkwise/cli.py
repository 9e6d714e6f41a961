"""Command line: ``chunkwise chunk PATH... [options]``."""

from __future__ import annotations

import argparse
import glob
import sys
import time
import warnings
from pathlib import Path

from . import __version__
from .api import iter_files
from .chunkers import DEFAULT_SIZE, STRATEGIES, get_chunker
from .errors import ChunkwiseError, ConfigError, InputError
from .readers import parse, read_path
from .sinks import JsonlSink, ParquetSink

EXIT_BAD_INPUT = 2


def _overlap(value: str):
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a token count (32) or a fraction of size (0.15), got {value!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chunkwise",
        description="Cut documents into passages for retrieval-augmented generation, "
                    "sized in your model's tokens, with exact character offsets.",
    )
    parser.add_argument("--version", action="version", version=f"chunkwise {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "chunk", help="chunk files, folders, globs or stdin into JSON Lines or Parquet",
        description="Chunk documents. Writes one JSON object per chunk (JSON Lines) to stdout "
                    "unless -o is given. Exit status 2 when an option or any input is bad; the "
                    "other inputs are still chunked.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (read recursively, hidden entries skipped), glob "
                        "patterns ('docs/**/*.md'), or - for standard input")
    _chunk_options(p)
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="semantic: minilm (default), minilm-onnx, model2vec:PATH, "
                        "openai:MODEL[@URL], or a sentence-transformers folder")
    p.add_argument("--encoding", default=None,
                   help="text encoding of the inputs (default: UTF-8, or UTF-16 with a BOM)")
    p.add_argument("--format", "-f", choices=("jsonl", "parquet"), default="jsonl",
                   help="output format (default: jsonl; parquet needs -o)")
    p.add_argument("-o", "--output", default=None, metavar="OUT",
                   help="output file (default: stdout for jsonl)")
    p.add_argument("--summary", action="store_true",
                   help="print documents, chunks, mean/max tokens and time; without -o the "
                        "chunks themselves are not printed")
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
    _chunk_options(e, for_eval=True)
    e.add_argument("--chunks", default=None, metavar="FILE.jsonl",
                   help="score chunks made by any tool instead of chunking (JSON Lines with "
                        "doc_id and text; start/end used when present)")
    e.add_argument("--grid", default=None, metavar="FILE.toml",
                   help="run several configurations ([[run]] tables) and print them side by side")
    e.add_argument("--retriever", choices=("dense", "bm25", "hybrid"), default="dense",
                   help="dense (exact cosine), bm25, or hybrid (reciprocal-rank fusion); "
                        "default: dense")
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

    d = sub.add_parser(
        "distill", help="distil a fast static (model2vec) embedder from the bundled MiniLM, offline",
        description="Distil a model2vec static model from the bundled all-MiniLM-L6-v2, locally "
                    "(about 20 s on 2 cores). Use it with --embedder model2vec:OUT, e.g. for "
                    "fast semantic chunking.")
    d.add_argument("output", metavar="OUT", help="folder to write the model to")
    d.add_argument("--pca-dims", type=int, default=256,
                   help="dimensions of the static vectors (default: 256)")
    return parser


def _chunk_options(p, for_eval: bool = False) -> None:
    p.add_argument("--strategy", "-s", default=None if for_eval else "recursive",
                   choices=sorted(STRATEGIES), help="chunking strategy (default: recursive)")
    p.add_argument("--size", type=int, default=None,
                   help=f"target chunk size in tokens, context included (default: {DEFAULT_SIZE}, "
                        "capped at --max-tokens)")
    p.add_argument("--overlap", type=_overlap, default=None, metavar="N|F",
                   help="overlap between neighbouring chunks, in tokens (32) or as a fraction "
                        "of size (0.15); must be smaller than size (default: 0; hierarchical: "
                        "40 at the child level)")
    p.add_argument("--sizes", default=None, metavar="N,N[,N]",
                   help="hierarchical: size of each level, largest first (default: 800,200)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N",
                   help="hard limit on tokens of context + text for every chunk (default: the "
                        "model's maximum sequence length less its special tokens where known, "
                        "else --size)")
    p.add_argument("--tokenizer", "-t", default=None, metavar="NAME|PATH",
                   help="minilm (default: the bundled all-MiniLM-L6-v2), cl100k_base, "
                        "o200k_base, chars, words, or a path to a tokenizer.json or a model folder")
    p.add_argument("--separators", nargs="+", default=None, metavar="SEP",
                   help="recursive strategy only: literal separators in priority order "
                        "(escape sequences such as \\n are understood)")
    p.add_argument("--language", default="en",
                   help="language code for sentence boundaries (default: en)")
    p.add_argument("--input-format", default="auto", choices=("auto", "text", "markdown", "html", "pdf"),
                   help="how to read the inputs (default: auto, by file extension, then content)")
    p.add_argument("--merge-sections", action="store_true",
                   help="section strategy: merge small sibling sections up to --size")
    p.add_argument("--table-rows", choices=("group", "row"), default="group",
                   help="tables longer than the table budget split into row groups with the "
                        "header repeated (group, default), or one chunk per row (row)")
    p.add_argument("--threshold", choices=("percentile", "std", "interquartile", "gradient"),
                   default=None, help="semantic: how the cut threshold is taken from the "
                                      "distribution of neighbour distances (default: percentile)")
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


def _error(message: str) -> None:
    print(f"chunkwise: error: {message}", file=sys.stderr)


def _expand(paths: list[str], errors: list[str]):
    """Yield (label, path-or-None) for every input; '-' is stdin."""
    for arg in paths:
        if arg == "-":
            yield "-", None
            continue
        p = Path(arg)
        if p.is_dir():
            yield from ((str(f), f) for f in iter_files(p))
        elif p.exists():
            yield arg, p
        else:
            matches = sorted(glob.glob(arg, recursive=True)) if glob.has_magic(arg) else []
            files = [Path(m) for m in matches if Path(m).is_file()]
            if not files:
                errors.append(f"{arg}: no such file or directory")
            for f in files:
                yield str(f), f


def _decode_escapes(seps):
    if seps is None:
        return None
    return [s.encode("utf-8").decode("unicode_escape") if "\\" in s else s for s in seps]


def build_chunker(args, strategy: str | None = None, overrides: dict | None = None):
    """The chunker the command-line options describe (warnings printed as one line each)."""
    options = {}
    strategy = strategy or args.strategy or "recursive"
    if args.separators is not None:
        if strategy != "recursive":
            raise ConfigError("--separators applies to --strategy recursive only")
        options["separators"] = _decode_escapes(args.separators)
    if args.merge_sections:
        options["merge_sections"] = True
    if args.table_rows != "group":
        options["table_rows"] = args.table_rows
    if args.headers and strategy in ("recursive", "sentence"):
        options["headers"] = True
    semantic = {"threshold": args.threshold, "amount": args.amount, "window": args.window,
                "min_size": args.min_size, "merge": args.merge}
    if any(v is not None for v in semantic.values()) and strategy != "semantic":
        raise ConfigError("--threshold/--amount/--window/--min-size/--merge apply to "
                          "--strategy semantic only")
    if strategy == "semantic":
        options.update({k: v for k, v in semantic.items() if v is not None})
        options["embedder"] = getattr(args, "embedder", None)
        options["cache"] = not getattr(args, "no_cache", False)
    if args.sizes:
        if strategy != "hierarchical":
            raise ConfigError("--sizes applies to --strategy hierarchical only")
        try:
            options["sizes"] = [int(x) for x in args.sizes.split(",")]
        except ValueError:
            raise ConfigError(f"--sizes: expected comma-separated integers, got {args.sizes!r}") from None
    options.update(size=args.size, overlap=args.overlap, tokenizer=args.tokenizer,
                   max_tokens=args.max_tokens, language=args.language)
    options.update(overrides or {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunker = get_chunker(strategy, **options)
    for w in caught:
        if not issubclass(w.category, DeprecationWarning):  # third-party noise
            print(f"chunkwise: warning: {w.message}", file=sys.stderr)
    return chunker


def cmd_chunk(args) -> int:
    if args.format == "parquet" and not args.output:
        _error("--format parquet needs an output file (-o OUT)")
        return EXIT_BAD_INPUT
    chunker = build_chunker(args)

    errors: list[str] = []
    inputs = list(_expand(args.paths, errors))
    for e in errors:
        _error(e)

    if args.format == "parquet":
        sink = ParquetSink(args.output)
        out_stream = None
    else:
        if args.output:
            out_stream = open(args.output, "w", encoding="utf-8")
        elif args.summary:
            out_stream = None
        else:
            out_stream = sys.stdout
        sink = JsonlSink(out_stream) if out_stream is not None else None

    progress = None
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if len(inputs) > 1 and show:
        from tqdm import tqdm

        progress = tqdm(total=len(inputs), unit="file", file=sys.stderr, dynamic_ncols=True)

    n_docs = n_chunks = total_tokens = max_tokens = 0
    t0 = time.perf_counter()
    try:
        for label, path in inputs:
            try:
                if path is None:
                    data = sys.stdin.buffer.read()
                    doc = parse(data, "<stdin>", fmt=args.input_format, encoding=args.encoding)
                else:
                    doc = read_path(path, encoding=args.encoding, fmt=args.input_format)
                chunks = chunker.chunk_document(doc)
            except InputError as exc:
                errors.append(str(exc))
                if progress is None:
                    _error(str(exc))
                else:
                    progress.write(f"chunkwise: error: {exc}", file=sys.stderr)
                continue
            except ChunkwiseError as exc:
                errors.append(f"{label}: {exc}")
                _error(f"{label}: {exc}")
                continue
            except (RecursionError, MemoryError, UnicodeError, ValueError, OSError) as exc:
                # a reader library choking on a malformed file: report it, go on
                errors.append(f"{label}: cannot be read ({type(exc).__name__}: {exc})")
                _error(errors[-1])
                continue
            finally:
                if progress is not None:
                    progress.update(1)
            if sink is not None:
                sink.write(chunks)
            n_docs += 1
            n_chunks += len(chunks)
            for c in chunks:
                total_tokens += c.token_count
                max_tokens = max(max_tokens, c.token_count)
    finally:
        if progress is not None:
            progress.close()
        if sink is not None:
            sink.close()
        if out_stream is not None and out_stream is not sys.stdout:
            out_stream.close()
    elapsed = time.perf_counter() - t0

    if args.summary:
        mean = total_tokens / n_chunks if n_chunks else 0.0
        cfg = chunker.config()
        print(", ".join(f"{k} {','.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
                        for k, v in cfg.items() if v is not None))
        print(f"documents {n_docs}  chunks {n_chunks}  mean tokens {mean:.1f}  "
              f"max tokens {max_tokens}  time {elapsed:.2f}s")
        if errors:
            print(f"failed inputs {len(errors)}")
    return EXIT_BAD_INPUT if errors else 0


_EVAL_KEYS = ("retriever", "k", "embedder", "scope", "budget", "expand", "neighbours", "fusion",
              "alpha")


def _eval_one(dataset, args, run: dict, embedders: dict):
    """Evaluate one configuration: ``run`` holds grid keys over the command line's."""
    from .embed import get_embedder
    from .eval import evaluate, spans_from_jsonl

    settings = {key: run.get(key, getattr(args, key)) for key in _EVAL_KEYS}
    if settings["k"] < 1:
        raise ConfigError(f"--k must be at least 1, got {settings['k']}")
    if settings["budget"] < 1:
        raise ConfigError(f"--budget must be at least 1 token, got {settings['budget']}")
    if settings["neighbours"] < 0:
        raise ConfigError(f"--neighbours must not be negative, got {settings['neighbours']}")
    spec = settings.pop("embedder")
    emb = None
    if settings["retriever"] != "bm25":
        key = spec or "minilm"
        if key not in embedders:
            embedders[key] = get_embedder(spec, cache=not args.no_cache)
        emb = embedders[key]
    chunks_file = run.get("chunks", args.chunks if not run else None)
    if chunks_file:
        spans = spans_from_jsonl(chunks_file, dataset, tokenizer=run.get("tokenizer"))
        config = {"chunks": str(chunks_file)}
        return evaluate(dataset, spans=spans, embedder=emb, config=config, **settings)
    chunk_keys = {k: v for k, v in run.items() if k not in _EVAL_KEYS + ("name", "chunks")}
    strategy = chunk_keys.pop("strategy", None)
    chunker = build_chunker(args, strategy, chunk_keys)
    return evaluate(dataset, chunker, embedder=emb, **settings)


def cmd_eval(args) -> int:
    import json

    from .eval import load_dataset

    if args.chunks and args.grid:
        raise ConfigError("--chunks and --grid exclude each other (put chunks = ... in a [[run]])")
    dataset = load_dataset(args.dataset)
    embedders: dict = {}
    if not args.grid:
        t0 = time.perf_counter()
        result = _eval_one(dataset, args, {}, embedders)
        elapsed = time.perf_counter() - t0
        d = result.to_dict()
        if args.json:
            keep = {k: d[k] for k in ("recall", "precision", "precision_omega", "iou",
                                      "full_evidence", "budget_recall", "mrr", "n_questions",
                                      "n_chunks", "mean_retrieved_tokens", "config", "curve",
                                      "by_corpus", "by_tag")}
            keep["seconds"] = round(elapsed, 2)
            print(json.dumps(keep))
        else:
            from .eval.report import corpus_table, table

            print(table([(_run_name(result.config), result)]))
            if len(result.by_corpus) > 1:
                print()
                print(corpus_table(result.by_corpus))
            print(f"{result.n_questions} questions, {result.n_chunks} chunks, "
                  f"{elapsed:.1f}s ({', '.join(f'{k} {v:.1f}s' for k, v in result.seconds.items())})")
        return 0

    import tomllib

    from .eval.report import table, write_chart, write_csv, write_json

    try:
        with open(args.grid, "rb") as f:
            grid = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{args.grid}: cannot read grid ({exc})") from None
    runs = grid.get("run") or []
    if not runs:
        raise ConfigError(f"{args.grid}: no [[run]] tables")
    defaults = grid.get("defaults", {})
    results = []
    for i, run in enumerate(runs, start=1):
        merged = {**defaults, **run}
        t0 = time.perf_counter()
        result = _eval_one(dataset, args, merged, embedders)
        name = str(merged.get("name") or _run_name(result.config))
        results.append((name, result))
        print(f"[{i}/{len(runs)}] {name}: recall {result.metrics['recall']:.1f} "
              f"IoU {result.metrics['iou']:.1f} ({time.perf_counter() - t0:.1f}s)",
              file=sys.stderr)
    out = Path(args.out or "eval-results")
    out.mkdir(parents=True, exist_ok=True)
    write_csv(results, out / "results.csv")
    write_json(results, out / "results.json")
    write_chart(results, out / "recall_tokens.svg")
    if args.json:
        print(json.dumps([{"name": n, **r.to_dict()} for n, r in results]))
    else:
        print(table(results))
        print(f"wrote {out / 'results.csv'}, {out / 'results.json'}, {out / 'recall_tokens.svg'}")
    return 0


def _run_name(config: dict) -> str:
    if "chunks" in config:
        return Path(config["chunks"]).stem
    parts = [config.get("strategy", "?"), str(config.get("size", ""))]
    if config.get("overlap"):
        parts.append(f"o{config['overlap']}")
    if config.get("retriever", "dense") != "dense":
        parts.append(config["retriever"])
    return " ".join(p for p in parts if p)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        if args.command == "chunk":
            return cmd_chunk(args)
        if args.command == "eval":
            return cmd_eval(args)
        if args.command == "view":
            from .view import render

            chunker = build_chunker(args)
            doc = read_path(args.path, encoding=args.encoding, fmt=args.input_format)
            chunks = chunker.chunk_document(doc)
            out = Path(args.output or f"{args.path}.chunks.html")
            out.write_text(render(doc, chunks), encoding="utf-8")
            print(f"wrote {out}: {len(chunks)} chunks")
            return 0
        if args.command == "distill":
            from .embed import distill

            t0 = time.perf_counter()
            out = distill(args.output, pca_dims=args.pca_dims)
            print(f"wrote {out} in {time.perf_counter() - t0:.1f}s; use --embedder model2vec:{out}")
            return 0
    except ConfigError as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except ChunkwiseError as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
