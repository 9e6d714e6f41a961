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
    p.add_argument("--strategy", "-s", default="recursive", choices=sorted(STRATEGIES),
                   help="chunking strategy (default: recursive)")
    p.add_argument("--size", type=int, default=None,
                   help=f"target chunk size in tokens, context included (default: {DEFAULT_SIZE}, "
                        "capped at --max-tokens)")
    p.add_argument("--overlap", type=_overlap, default=0, metavar="N|F",
                   help="overlap between neighbouring chunks, in tokens (32) or as a fraction "
                        "of size (0.15); must be smaller than size (default: 0)")
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
    p.add_argument("--headers", action="store_true",
                   help="recursive/sentence: headings become hard boundaries and each chunk "
                        "carries its heading trail as context (always on for section)")
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
    return parser


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


def cmd_chunk(args) -> int:
    if args.format == "parquet" and not args.output:
        _error("--format parquet needs an output file (-o OUT)")
        return EXIT_BAD_INPUT
    options = {}
    if args.separators is not None:
        if args.strategy != "recursive":
            _error("--separators applies to --strategy recursive only")
            return EXIT_BAD_INPUT
        options["separators"] = _decode_escapes(args.separators)
    if args.merge_sections:
        options["merge_sections"] = True
    if args.table_rows != "group":
        options["table_rows"] = args.table_rows
    if args.headers and args.strategy in ("recursive", "sentence"):
        options["headers"] = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunker = get_chunker(args.strategy, size=args.size, overlap=args.overlap,
                              tokenizer=args.tokenizer, max_tokens=args.max_tokens,
                              language=args.language, **options)
    for w in caught:
        print(f"chunkwise: warning: {w.message}", file=sys.stderr)

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
        print(f"strategy {cfg['strategy']}, size {cfg['size']}, overlap {cfg['overlap']}, "
              f"max_tokens {cfg['max_tokens']}, tokenizer {cfg['tokenizer']}")
        print(f"documents {n_docs}  chunks {n_chunks}  mean tokens {mean:.1f}  "
              f"max tokens {max_tokens}  time {elapsed:.2f}s")
        if errors:
            print(f"failed inputs {len(errors)}")
    return EXIT_BAD_INPUT if errors else 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        if args.command == "chunk":
            return cmd_chunk(args)
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
