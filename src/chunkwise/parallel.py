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
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .errors import ChunkwiseError, ConfigError, InputError
from .readers.sources import Source
from .strategies import Chunker
from .types import Chunk, Document


@dataclass(frozen=True, slots=True)
class _Settings:
    encoding: str | None
    format: str | None
    metadata: Mapping[str, Any] | None


_CHUNKER: Chunker | None = None
_SETTINGS: _Settings | None = None


def _init(chunker_bytes: bytes, settings: _Settings) -> None:
    global _CHUNKER, _SETTINGS
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # the pool is the parallelism
    _CHUNKER = pickle.loads(chunker_bytes)
    _SETTINGS = settings


@dataclass(slots=True)
class _Result:
    doc: Document | None
    chunks: list[Chunk]
    error: BaseException | None
    warned: list[tuple[str, type[Warning]]]


def _work(src: Source) -> _Result:
    assert _CHUNKER is not None and _SETTINGS is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            doc = src.load(encoding=_SETTINGS.encoding, format=_SETTINGS.format)
            if _SETTINGS.metadata:
                doc = replace(doc, metadata=MappingProxyType({**doc.metadata,
                                                              **_SETTINGS.metadata}))
            try:
                chunks = _CHUNKER.chunk_document(doc)
            except ConfigError:
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


def parallel_documents_chunks(chunker: Chunker, sources: Iterator[Source], workers: int,
                              handle: Callable[[InputError], Any],
                              encoding: str | None = None, format: str | None = None,
                              metadata: Mapping[str, Any] | None = None,
                              ) -> Iterator[tuple[Document, list[Chunk]]]:
    """(document, chunks) for every source, read and chunked by ``workers``
    processes, in the order of ``sources``."""
    settings = _Settings(encoding, format, dict(metadata) if metadata else None)
    try:
        payload = pickle.dumps(chunker)
    except Exception as exc:
        raise ConfigError(f"workers: this chunker cannot be sent to worker processes "
                          f"({type(exc).__name__}: {exc}); use workers=1") from None
    context = multiprocessing.get_context("spawn")
    pending: deque[Future[_Result]] = deque()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init,
                             initargs=(payload, settings)) as pool:
        try:
            for src in sources:
                pending.append(pool.submit(_work, src))
                if len(pending) >= 4 * workers:
                    yield from _finish(pending.popleft().result(), handle)
            while pending:
                yield from _finish(pending.popleft().result(), handle)
        except BaseException:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


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
