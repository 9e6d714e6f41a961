"""Many documents on all cores: a process pool that reads and chunks each source
in a worker and hands the results back in the order of the sources, so output
and ids are the same as in one process.

Workers are started with ``spawn`` (no state of the parent's threads, such as a
tokenizer's or torch's thread pools, is copied into them); each builds nothing
but unpickles the chunker once. At most ``4 x workers`` sources are in flight,
so a listing of millions of files is never held at once. A worker's warnings
(an extraction warning naming a page, say) are re-issued in the parent, in order;
a document that cannot be read comes back as its :class:`InputError` for the
caller's ``on_error``.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .errors import ChunkwiseError, ConfigError, InputError, ServiceError
from .readers.sources import SourceItem
from .strategies import Chunker
from .types import Chunk, Document


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    encoding: str | None
    format: str | None
    metadata: Mapping[str, Any] | None


_CHUNKER: Chunker | None = None
_SETTINGS: WorkerSettings | None = None


def _init(chunker_bytes: bytes, settings: WorkerSettings) -> None:
    global _CHUNKER, _SETTINGS
    # Ctrl-C reaches the whole process group: the parent stops the workers itself (a
    # worker started with SIGINT blocked, so one that arrived meanwhile is dropped)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # the pool is the parallelism
    # a parent killed outright (SIGKILL) cannot stop its workers: they stop themselves
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="chunkwise-parent-watch", daemon=True).start()
    _CHUNKER = pickle.loads(chunker_bytes)
    _SETTINGS = settings


@dataclass(slots=True)
class _Result:
    doc: Document | None
    chunks: list[Chunk]
    error: BaseException | None
    warned: list[tuple[str, type[Warning]]]


def _work(src: SourceItem) -> _Result:
    assert _CHUNKER is not None and _SETTINGS is not None
    return chunk_source(_CHUNKER, src, _SETTINGS)


def chunk_source(chunker: Chunker, src: SourceItem, settings: WorkerSettings) -> _Result:
    """Read and chunk one source as one process would, with its warnings and an
    error (a :class:`ChunkwiseError`) recorded rather than raised or shown."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            doc = src.load(encoding=settings.encoding, format=settings.format)
            if settings.metadata:
                doc = replace(doc, metadata=MappingProxyType({**doc.metadata,
                                                              **settings.metadata}))
            try:
                chunks = chunker.chunk_document(doc)
            except (ConfigError, ServiceError):
                raise
            except InputError:
                raise
            except ChunkwiseError as exc:
                raise InputError(src.label, str(exc)) from None
            result = _Result(doc, chunks, None, [])
        except ChunkwiseError as exc:
            result = _Result(None, [], exc, [])
    result.warned = [(str(w.message), w.category) for w in caught]
    return result


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def parallel_documents_chunks(chunker: Chunker, sources: Iterator[SourceItem], workers: int,
                              handle: Callable[[InputError], Any],
                              encoding: str | None = None, format: str | None = None,
                              metadata: Mapping[str, Any] | None = None,
                              ) -> Iterator[tuple[Document, list[Chunk]]]:
    """(document, chunks) for every source, read and chunked by ``workers``
    processes, in the order of ``sources``."""
    settings = WorkerSettings(encoding, format, dict(metadata) if metadata else None)
    try:
        payload = pickle.dumps(chunker)
    except Exception as exc:
        raise ConfigError(f"workers: this chunker cannot be sent to worker processes "
                          f"({type(exc).__name__}: {exc}); use workers=1") from None
    context = multiprocessing.get_context("spawn")
    pending: deque[Future[_Result]] = deque()
    # every worker is started, and has read its chunker, before the work begins, with
    # Ctrl-C and SIGTERM held back meanwhile (delivered right after): a worker
    # interrupted half-way through starting would print its own traceback
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init,
                               initargs=(payload, settings))

    def abort() -> None:
        _stop(pool)

    _LIVE[id(pool)] = abort  # stopped at interpreter exit if this generator never is
    _exit_hook()
    try:
        with _signals_blocked():
            ready: set[int] = set()
            for _ in range(20):  # until every worker has answered (each is then started)
                ready.update(f.result() for f in [pool.submit(_ready) for _ in range(workers)])
                if len(ready) >= workers:
                    break
        for src in sources:
            pending.append(pool.submit(_work, src))
            if len(pending) >= 4 * workers:
                yield from _finish(pending.popleft().result(), handle)
        while pending:
            yield from _finish(pending.popleft().result(), handle)
    except BaseException:  # interrupted, an error, or abandoned (closed): stop the workers now
        abort()
        raise
    finally:
        _LIVE.pop(id(pool), None)
    pool.shutdown(wait=True)


#: how to stop each pool still running, by id
_LIVE: dict[int, Callable[[], None]] = {}
_HOOKED = False


def _exit_hook() -> None:
    """Stop every pool still running when the interpreter exits: one whose generator was
    left unfinished (say, by a KeyboardInterrupt in the caller's loop, whose traceback
    keeps it alive) would otherwise keep the exit waiting on its threads. Threading's
    exit hooks run newest first, so this one runs before concurrent.futures' own."""
    global _HOOKED
    if _HOOKED:
        return
    register = getattr(threading, "_register_atexit", None)
    if register is None:
        return
    try:
        register(lambda: [stop() for stop in list(_LIVE.values())])
    except RuntimeError:  # the interpreter is already shutting down
        return
    _HOOKED = True


def _stop(pool: ProcessPoolExecutor) -> None:
    # (taken first: shutdown() lets go of the queue)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    # (futures are cancelled by the pool's own thread, through shutdown: one cancelled
    # here, if a worker dies meanwhile, makes that thread fail on it with a traceback)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for proc in processes:
        proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.join(timeout=5)
    # a worker stopped half-way through sending its result leaves a partial message
    # that the pool's reader thread would wait on for ever (the parent holds the
    # pipe's other end too, so no end-of-file comes): close that end, the reader
    # sees end-of-file, and the interpreter can exit
    if writer is not None and not writer.closed:
        writer.close()
    # the pool's manager thread then closes its wake-up pipe and ends: waited for, since
    # concurrent.futures' exit hook writes to that pipe unlocked (Python 3.11), and a
    # close between its check and its write printed an OSError traceback after Ctrl-C
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)


def _ready() -> int:
    time.sleep(0.1)  # long enough for the other workers to take the others
    return os.getpid()


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back: blocked in this thread (processes started here
    inherit the mask), and, since another thread (a tokenizer's) may take a
    signal, recorded by a handler meanwhile; re-raised on the way out."""
    held: list[int] = []
    sigs = (signal.SIGINT, signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    previous: dict[int, Any] = {}
    if in_main:
        for sig in sigs:
            previous[sig] = signal.signal(sig, lambda signum, _frame: held.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set(sigs)) \
        if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for number, handler in previous.items():
            signal.signal(number, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


def _finish(result: _Result, handle: Callable[[InputError], Any],
            ) -> Iterator[tuple[Document, list[Chunk]]]:
    for message, category in result.warned:
        warnings.warn(message, category, stacklevel=4)
    if result.error is not None:
        if isinstance(result.error, InputError):
            handle(result.error)
            return
        raise result.error
    assert result.doc is not None
    yield result.doc, result.chunks
