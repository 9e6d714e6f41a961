"""How commands that read folders walk them: ``--exclude PATTERN`` and ``--no-ignore``
(and ``index``'s ``--follow-links``); see :mod:`chunkwise.readers.ignore`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_walk_flags(p: argparse.ArgumentParser, links: bool = False) -> None:
    p.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                   help="leave out what matches, in .gitignore's syntax relative to each "
                        "folder given ('drafts/', '*.log', '/CHANGELOG.md'); repeatable")
    p.add_argument("--no-ignore", action="store_true",
                   help="also read what .gitignore, .ignore and .chunkwiseignore files name, "
                        "folders of installed packages (node_modules, virtual environments) "
                        "and of chunkwise indexes, a saved page's files (Page_files beside "
                        "Page.html), a drive's recycle bin and system folders, and backup "
                        "copies (notes.md~, .bak), left out by default")
    if links:
        p.add_argument("--follow-links", action="store_true",
                       help="follow links to files outside the folders given (not followed "
                            "by default; dangling links are counted)")


def walk_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``exclude`` and ``ignore_rules`` options of :meth:`chunkwise.Index.sync`."""
    return {"exclude": tuple(args.exclude), "ignore_rules": not args.no_ignore}


def walk_of(args: argparse.Namespace, on_skip: Callable[[Path, str], object] | None = None) -> Any:
    """The :class:`~chunkwise.readers.sources.Walk` the flags ask for."""
    from ..readers.sources import Walk

    return Walk(on_skip=on_skip, ignore_rules=not args.no_ignore,
                exclude_patterns=tuple(args.exclude))


def count_sources(args: argparse.Namespace) -> int:
    """How many documents the paths name, walked as the flags say (a progress bar's
    total)."""
    from ..readers.sources import iter_sources

    return sum(1 for _ in iter_sources(args.paths, strings_are_paths=True, walk=walk_of(args)))


def nothing_found(paths: list[str], skipped: Any) -> str:
    """The error for paths that hold no document, with what the walk passed over
    (``skipped``: a :class:`~chunkwise.readers.sources.SkipCounter`)."""
    line = skipped.line()
    return f"no document found in {' '.join(paths)}" + (f" ({line})" if line else "")
