"""``chunkwise.toml``: chunking settings kept beside a corpus (``chunkwise tune``
writes one), read by ``chunk``, ``index``, ``eval`` and ``view`` from the current
folder, or from ``--config FILE``; ``--no-config`` ignores it.

The file's ``[chunk]`` table holds the library's option names (``strategy``,
``size``, ``overlap``, ``min_tokens``, ...). A command-line flag wins over the
file; a ``--strategy`` other than the file's drops the file's options (they
describe another chunking). Where each setting came from is printed once on
stderr.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError

FILE_NAME = "chunkwise.toml"


def add_config_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default=None, metavar="FILE.toml",
                   help=f"chunking settings ([chunk] table, as chunkwise tune writes; default: "
                        f"./{FILE_NAME} when there is one); flags win over it")
    p.add_argument("--no-config", action="store_true",
                   help=f"ignore ./{FILE_NAME}")


def config_path(args: argparse.Namespace) -> Path | None:
    """The settings file in effect: ``--config``, else ./chunkwise.toml if present."""
    if getattr(args, "no_config", False):
        if getattr(args, "config", None):
            raise ChunkwiseError("--config and --no-config exclude each other")
        return None
    given = getattr(args, "config", None)
    if given:
        path = Path(given)
        if not path.is_file():
            raise ChunkwiseError(f"--config {given}: no such file")
        return path
    here = Path(FILE_NAME)
    return here if here.is_file() else None


def read_config(path: Path, known: set[str]) -> dict[str, Any]:
    """The ``[chunk]`` table of ``path``: option name -> value (names checked)."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ChunkwiseError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise ChunkwiseError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    extra = sorted(set(data) - {"chunk"})
    if extra:
        raise ChunkwiseError(f"{path}: unknown table(s) {', '.join(extra)} (expected [chunk])")
    table = data.get("chunk", {})
    if not isinstance(table, dict):
        raise ChunkwiseError(f"{path}: [chunk] must be a table")
    unknown = sorted(set(table) - known - {"strategy"})
    if unknown:
        raise ChunkwiseError(f"{path}: unknown setting(s) {', '.join(unknown)} in [chunk] "
                             "(settings are the library's option names: strategy, size, "
                             "overlap, min_tokens, ...)")
    if "strategy" in table and not isinstance(table["strategy"], str):
        raise ChunkwiseError(f"{path}: strategy must be a string, got {table['strategy']!r}")
    return dict(table)


def merged(args: argparse.Namespace, strategy: str | None, given: dict[str, Any],
           known: set[str]) -> tuple[str, dict[str, Any]]:
    """The strategy and options in effect: the command line's (``strategy``,
    ``given``) over the settings file's; where they came from told once."""
    path = config_path(args)
    if path is None:
        return strategy or "auto", given
    file = read_config(path, known)
    file_strategy = file.pop("strategy", None)
    if strategy is not None and file_strategy is not None and strategy != file_strategy:
        _tell(args, f"{path}: not used (--strategy {strategy} replaces its {file_strategy})")
        return strategy, given
    used = {k: v for k, v in file.items() if k not in given}
    name = strategy or file_strategy or "auto"
    parts = ([f"strategy {file_strategy}"] if file_strategy and strategy is None else []) + [
        f"{k.replace('_', '-')} {v}" for k, v in used.items()]
    over = sorted(k for k in file if k in given)
    _tell(args, f"settings from {path}: {', '.join(parts) or 'none'}"
                + (f" (flags win: {', '.join(over)})" if over else ""))
    return name, {**used, **given}


def _tell(args: argparse.Namespace, message: str) -> None:
    if not getattr(args, "_config_told", False):
        print(f"chunkwise: {message}", file=sys.stderr)
        args._config_told = True
