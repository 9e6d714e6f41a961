"""What the program does to its own process around a command: the LanceDB import
started early, glibc's memory returned, an interrupt's mark forgotten."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def forget_keyboard_interrupt() -> None:
    """CPython marks a KeyboardInterrupt that left code run from a string (``exec``
    or ``eval`` of source: a dataclass or namedtuple being made while a module is
    imported, say) as unhandled, even when a caller catches it later; at exit it
    then kills the process with SIGINT instead of exiting with our code (seen: a
    Ctrl-C landing in namedtuple's ``eval`` while pyarrow imported pandas exited -2,
    not 130).
    Running code from a string resets that mark."""
    exec("None")


def return_freed_memory() -> None:
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


def open_early(argv: Sequence[str]) -> None:
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
