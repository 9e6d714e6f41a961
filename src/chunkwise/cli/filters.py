"""The filter flags ``search`` takes (the written form of :mod:`chunkwise.filters`)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..filters import is_glob, literal_prefix
from .common import key_values


def add_filter_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("filters (each repeatable: any of its values; all flags must hold)")
    g.add_argument("--path", action="append", default=[], metavar="PATH",
                   help="documents under a folder, a file, or a glob of names relative to the "
                        "index's root ('guide/', 'guide/*.md', '**/faq-*.md'); a path that "
                        "exists here is taken as that file or folder")
    g.add_argument("--kind", action="append", default=[], metavar="KIND",
                   help="chunks of a kind: prose, table, code, qa, turn, clause, json ...")
    g.add_argument("--strategy", dest="filter_strategy", action="append", default=[],
                   metavar="NAME", help="chunks cut by a strategy (section, faq, code ...)")
    g.add_argument("--page", default=None, metavar="N|FIRST-LAST",
                   help="chunks on a page or in an inclusive page range (PDF)")
    g.add_argument("--metadata", dest="filter_metadata", action="append", default=[],
                   metavar="KEY=VALUE",
                   help="documents whose metadata has KEY equal to VALUE (given at index time "
                        "with --metadata, or front matter)")


def _here(path: str) -> str:
    """A path (or a glob's folder part) that exists here, as the absolute path the
    index turns into a name relative to its root; anything else as given."""
    if os.path.exists(path):
        return os.path.realpath(path)
    head = literal_prefix(path)
    folder = head[: head.rfind("/") + 1] if is_glob(path) else ""
    if folder and os.path.isdir(folder):
        return os.path.join(os.path.realpath(folder), path[len(folder):])
    return path


def filter_of(args: argparse.Namespace) -> dict[str, Any] | None:
    """The filter the flags ask for (None: none)."""
    out: dict[str, Any] = {}
    if args.path:
        out["path"] = [_here(p) for p in args.path]
    if args.kind:
        out["kind"] = args.kind
    if args.filter_strategy:
        out["strategy"] = args.filter_strategy
    if args.page:
        out["page"] = args.page
    metadata: dict[str, list[str]] = {}
    for item in args.filter_metadata:  # a key repeated: any of its values
        for key, value in key_values([item]).items():
            metadata.setdefault(key, []).append(value)
    if metadata:
        out["metadata"] = metadata
    return out or None
