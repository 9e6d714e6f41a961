"""One writer at a time for an index kept in files: an advisory lock (``flock``) on a
lock file in the index's folder, released by the kernel when its process ends, so a
killed run never leaves the index locked."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import IndexBusyError

LOCK_NAME = ".chunkwise-writer.lock"


@contextlib.contextmanager
def file_lock(folder: Path, what: str, wait: bool = True,
              on_wait: Callable[[], object] | None = None) -> Iterator[None]:
    """Hold the writer lock of the index in ``folder``: at once when it is free, else
    after ``on_wait()`` once the other run lets it go (``wait``), else an
    :class:`IndexBusyError`."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                raise IndexBusyError(f"another run is writing the index at {what}; try again "
                                     "when it is done") from None
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)  # who writes, for readers that keep their snapshot meanwhile
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing releases the lock


def writer_running(folder: Path) -> bool:
    """Whether a run is writing the index in ``folder`` now (without touching the
    lock: a reader never delays a writer): the pid the holder wrote, still alive."""
    try:
        pid = int((folder / LOCK_NAME).read_text().strip() or 0)
    except (OSError, ValueError):
        return False
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False  # a run killed while writing: its lock is gone with it
    except PermissionError:
        return True
    return True
