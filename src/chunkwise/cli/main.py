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
from .output import FLAGS, FLAGS_PENDING, error, warning
from .process import forget_keyboard_interrupt, open_early, return_freed_memory


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; ``command``: that command's alone (with those its
    module adds), so what only other commands list is not loaded (every reader and
    strategy for ``--format`` and ``--strategy``: ~0.1 s of a cold ``search``)."""
    parser = Parser(
        prog="chunkwise",
        description="Cut documents into passages for retrieval-augmented generation, "
                    "sized in your model's tokens, with exact character offsets.",
    )
    parser.add_argument("--version", action="version", version=f"chunkwise {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    adders = {"chunk": chunk.add_parser, "eval": eval.add_parser, "index": index.add_parser,
              "search": search.add_parser, "view": misc.add_parsers,
              "questions": misc.add_parsers, "distill": misc.add_parsers,
              "serve": serve.add_parser, "mcp": serve.add_parser, "tune": tune.add_parser}
    for add in ([adders[command]] if command in adders else dict.fromkeys(adders.values())):
        add(sub)
    for name, each in sub.choices.items():
        if name in ("search", "serve", "mcp") or "--embedder" in each._option_string_actions:
            each.add_argument(
                "--device", default=None, metavar="DEVICE",
                help="where local embedding models run: cpu (default), cuda, cuda:N, mps or "
                     f"auto (also the {DEVICE_ENV} environment variable)")
    for each in sub.choices.values():
        FLAGS.update(s for action in each._actions for s in action.option_strings)
    if command in adders and build_parser not in FLAGS_PENDING:
        FLAGS_PENDING.append(build_parser)  # every command's flags, once a message needs them
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


def main(argv: Sequence[str] | None = None) -> int:
    # library warnings (a skipped file, a page that kept little text, a plug-in that
    # cannot be loaded while the options are listed) as one line each
    warnings.showwarning = _show_warning
    words = list(sys.argv[1:] if argv is None else argv)
    open_early(words)
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    if args.command == "chunk":
        return_freed_memory()
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
        forget_keyboard_interrupt()
        return EXIT_INTERRUPTED
    finally:
        if device is None:
            os.environ.pop(DEVICE_ENV, None)
        else:
            os.environ[DEVICE_ENV] = device
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


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
