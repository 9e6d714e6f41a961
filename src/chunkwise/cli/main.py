"""The command line: ``chunkwise chunk | eval | view | index | search | questions |
distill``. Each command lives in a module of its own and only parses its arguments,
calls the library and prints; every error is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from types import FrameType
from typing import Any

from .. import __version__
from ..embed import DEVICE_ENV, resolve_device
from ..errors import ChunkwiseError
from . import chunk, eval, index, misc, search, serve, tune
from .common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_TERMINATED, Command, Parser, Terminated
from .output import FLAGS, error, warning


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="chunkwise",
        description="Cut documents into passages for retrieval-augmented generation, "
                    "sized in your model's tokens, with exact character offsets.",
    )
    parser.add_argument("--version", action="version", version=f"chunkwise {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    chunk.add_parser(sub)
    eval.add_parser(sub)
    index.add_parser(sub)
    search.add_parser(sub)
    misc.add_parsers(sub)
    serve.add_parser(sub)
    tune.add_parser(sub)
    for name, command in sub.choices.items():
        if name in ("search", "serve", "mcp") or "--embedder" in command._option_string_actions:
            command.add_argument(
                "--device", default=None, metavar="DEVICE",
                help="where local embedding models run: cpu (default), cuda, cuda:N, mps or "
                     f"auto (also the {DEVICE_ENV} environment variable)")
    for command in sub.choices.values():
        FLAGS.update(s for action in command._actions for s in action.option_strings)
    return parser


COMMANDS: dict[str, Command] = {
    "chunk": chunk.cmd_chunk, "eval": eval.cmd_eval, "view": misc.cmd_view,
    "distill": misc.cmd_distill, "index": index.cmd_index, "search": search.cmd_search,
    "questions": misc.cmd_questions, "serve": serve.cmd_serve,
    "mcp": serve.cmd_mcp, "tune": tune.cmd_tune}


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    if issubclass(category, DeprecationWarning):  # third-party noise
        return
    warning(str(message))


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def _left(command: str) -> str:
    """What an interrupted command left behind."""
    if command == "index":  # what it wrote stays, and is reused
        return "what the index holds stays searchable; the next run finishes the rest"
    return "no partial output was left"


def _forget_keyboard_interrupt() -> None:
    """CPython marks a KeyboardInterrupt that left code run from a string (``exec``
    or ``eval`` of source: a dataclass or namedtuple being made while a module is
    imported, say) as unhandled, even when a caller catches it later; at exit it
    then kills the process with SIGINT instead of exiting with our code (seen: a
    Ctrl-C landing in namedtuple's ``eval`` while pyarrow imported pandas exited -2,
    not 130).
    Running code from a string resets that mark."""
    exec("None")


def _return_freed_memory() -> None:
    """glibc raises its mmap threshold each time a large block is freed (up to
    32 MB), so the arrays of a long document's later steps come from a heap it never
    gives back (peak RSS of a 20 MB Markdown file ~20 % higher). A fixed threshold
    (the default 128 KiB) keeps large blocks mapped, returned when freed. Only
    ``chunk`` does this: it made embedding ~15 % slower (a model's activations mapped
    and unmapped at every batch), and an application's allocator is its own."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-3, 1 << 17)  # -3: M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # another C library: nothing to tune
        pass


def main(argv: Sequence[str] | None = None) -> int:
    # library warnings (a skipped file, a page that kept little text, a plug-in that
    # cannot be loaded while the options are listed) as one line each
    warnings.showwarning = _show_warning
    _open_early(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    if args.command == "chunk":
        _return_freed_memory()
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (an embedding application): leave it alone
        pass
    device = os.environ.get(DEVICE_ENV)
    try:
        if getattr(args, "device", None):
            resolve_device(args.device)  # a device that is not here: one line, before work
            os.environ[DEVICE_ENV] = args.device  # every embedder the command makes
        return COMMANDS[args.command](args)
    except ChunkwiseError as exc:
        error(str(exc))
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into `head`
        try:  # no second error when Python flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except Terminated:  # (a KeyboardInterrupt too: caught first)
        error(f"terminated; {_left(args.command)}")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        error(f"interrupted; {_left(args.command)}")
        _forget_keyboard_interrupt()
        return EXIT_INTERRUPTED
    finally:
        if device is None:
            os.environ.pop(DEVICE_ENV, None)
        else:
            os.environ[DEVICE_ENV] = device
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _open_early(argv: Sequence[str]) -> None:
    """``index`` or ``search`` of a LanceDB index: its import starts now, on a thread,
    while the options are parsed, the chunker built and the files walked."""
    words = list(argv)
    if not words or words[0] not in ("index", "search"):
        return
    for word, value in zip(words, words[1:] + [""]):
        uri = value if word == "--db" else word[5:] if word.startswith("--db=") else None
        if uri and ("://" not in uri or uri.startswith("lancedb://")):
            from ..index.lance_import import prefetch

            prefetch()
            return


def run() -> None:
    """The ``chunkwise`` program: :func:`main`, then the process ends without
    tearing the interpreter down once nothing else runs (every module's objects
    freed one by one: ~0.5 s after ``index`` or ``search``, when LanceDB's client
    and its pydantic schemas were imported). The exit handlers run and the output is
    flushed first, as at a normal exit; a thread still running gets the normal exit."""
    code = main()
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # piped into `head`: nothing more to write
        pass
    try:
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass
    import atexit
    import threading

    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive()
           for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass
    os._exit(code)
