"""What the command line prints: one-line errors and warnings (the library's option
names written as this command line's flags), and progress bars on stderr."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: every flag of every command (filled by the parser's builder)
FLAGS: set[str] = set()
#: where a parser of one command was built: the builder of them all, called when a
#: message is first rewritten (a search's message may name an ``index`` flag)
FLAGS_PENDING: list[Callable[[], object]] = []
_OPTION = re.compile(r"\b([a-z][a-z_]*)=(True\b|'([^']*)'|(?=[\s),.;:]|$))")


def as_flags(message: str) -> str:
    """A library message, its options named as this command line's flags: ``rebuild=True``
    -> ``--rebuild``, ``encoding='latin-1'`` -> ``--encoding latin-1``, ``max_tokens=``
    -> ``--max-tokens`` (only names that are flags here)."""
    def flag(m: re.Match[str]) -> str:
        name = "--" + m.group(1).replace("_", "-")
        if name not in FLAGS:
            return m.group(0)
        return name if m.group(3) is None else f"{name} {m.group(3)}"
    while FLAGS_PENDING:  # (taken off first: the build may warn, and warnings come here)
        FLAGS_PENDING.pop()()
    return _OPTION.sub(flag, message)


def error(message: str) -> None:
    print(f"chunkwise: error: {as_flags(message)}", file=sys.stderr)


def warning(message: str) -> None:
    print(f"chunkwise: warning: {as_flags(message)}", file=sys.stderr)


@contextmanager
def progress_bar(total: int | Callable[[], int], unit: str, show: bool | None) -> Iterator[Any]:
    """A tqdm bar on stderr (None when not shown: by default on a terminal only).
    ``total`` may be a function, called only when the bar is shown (counting a
    folder's files is a walk of its own)."""
    if not (show if show is not None else sys.stderr.isatty()):
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total() if callable(total) else total, unit=unit, file=sys.stderr,
               dynamic_ncols=True)
    try:
        yield bar
    finally:
        bar.close()


class CallBars:
    """A progress callback for a document's LLM calls: a tqdm bar while they run,
    with the run's answers from the cache, calls in flight and empty answers when
    ``report`` (the contextualizer's RunReport) is set."""

    def __init__(self) -> None:
        self.bars: dict[str, Any] = {}
        self.report: Any = None

    def __call__(self, doc_id: str, done: int, total: int) -> None:
        from tqdm import tqdm

        bar = self.bars.get(doc_id)
        if bar is None:
            bar = self.bars[doc_id] = tqdm(total=total, unit="call", file=sys.stderr,
                                           leave=False, desc=doc_id[-40:], dynamic_ncols=True)
        r = self.report
        if r is not None:
            bar.set_postfix_str(f"{r.from_cache:,} cached, {r.in_flight} in flight"
                                + (f", {r.empty} empty" if r.empty else ""), refresh=False)
        bar.update(done - bar.n)
        if done >= total:
            self.bars.pop(doc_id).close()
        else:
            bar.refresh()


class QuestionBar:
    """A bar on stderr while a run's questions are answered and judged."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(total=total, unit="question", desc="answers", file=sys.stderr,
                            leave=False, dynamic_ncols=True)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()
            self.bar = None


def add_progress_flags(p: argparse.ArgumentParser, help_on: str) -> None:
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help=help_on)
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="never show the progress bar")
