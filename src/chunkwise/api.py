"""The small public entry points: ``chunkwise.chunk`` and ``chunkwise.iter_chunks``.

The library owns behaviour the command line relies on: sources of every form
(:mod:`chunkwise.readers.sources`), error isolation per document (``on_error``),
and streaming document by document.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from itertools import chain, islice
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .errors import (
    ChunkwiseError,
    ConfigError,
    InputError,
    ServiceError,
    SkippedInputWarning,
    UnstableIdWarning,
)
from .filters import Filter, is_glob
from .ids import name_of, path_of
from .types import Chunk, Document, OnError, Source, TokenizerSpec

if TYPE_CHECKING:
    from .embed import Embedder
    from .readers.ignore import Ignorer
    from .readers.sources import SourceItem, Walk
    from .strategies import Chunker

# The chunking machinery (the factory, the strategies, the readers) is imported where
# a function uses it, not here: a search through :class:`Index` needs none of it.


def _handler(on_error: OnError) -> Callable[[InputError], object]:
    if on_error == "raise":
        def reraise(exc: InputError) -> None:
            raise exc
        return reraise
    if on_error == "skip":
        def report(exc: InputError) -> None:
            warnings.warn(f"skipped {exc}", SkippedInputWarning, stacklevel=4)
        return report
    if callable(on_error):
        return on_error
    raise ConfigError(f"on_error must be 'raise', 'skip' or a callable, got {on_error!r}")


def iter_loaded(sources: Iterator[SourceItem], on_error: OnError = "raise",
                encoding: str | None = None, format: str | None = None,
                structure: bool = True) -> Iterator[tuple[SourceItem, Document]]:
    """Documents read from sources; a source that cannot be read goes to ``on_error``
    (``structure`` False: plain text without its paragraph and heading blocks)."""
    handle = _handler(on_error)
    for src in sources:
        try:
            doc = src.load(encoding=encoding, format=format, structure=structure)
        except InputError as exc:
            handle(exc)
            continue
        _warn_unstable(src)
        yield src, doc


def _warn_unstable(src: SourceItem) -> None:
    if src.text is not None and src.doc_id is None:
        warnings.warn("a text given without doc_id gets an id hashed from all of it, so no "
                      "chunk id survives an edit; pass doc_id=... (or a {doc_id: text} "
                      "mapping) for ids that do", UnstableIdWarning, stacklevel=5)


def iter_documents_chunks(chunker: Chunker, source: Source | Iterable[SourceItem], *,
                          on_error: OnError = "raise",
                          doc_id: str | None = None, encoding: str | None = None,
                          format: str | None = None, strings_are_paths: bool = False,
                          metadata: Mapping[str, Any] | None = None, workers: int | None = 1,
                          walk: Walk | None = None,
                          ) -> Generator[tuple[Document, list[Chunk]], None, None]:
    """(document, its chunks) for every document of ``source``, one at a time;
    ``metadata`` is added to every document's (and so to every chunk's).
    ``workers``: processes reading and chunking documents (None: every core);
    results come in the order of the sources either way. ``walk``: how folders are
    walked (by default, files that are not documents are passed over and counted in
    one :class:`SkippedInputWarning` at the end)."""
    from .readers.sources import SkipCounter, Walk, iter_sources

    counter = None
    if walk is None:
        counter = SkipCounter()
        walk = Walk(on_skip=counter)
    yield from _documents_chunks(chunker, iter_sources(source, doc_id=doc_id,
                                                       strings_are_paths=strings_are_paths,
                                                       walk=walk),
                                 _handler(on_error), on_error, encoding, format, metadata,
                                 workers)
    if counter is not None and counter.line():
        warnings.warn(str(counter.line()), SkippedInputWarning, stacklevel=2)


def _documents_chunks(chunker: Chunker, sources: Iterator[SourceItem],
                      handle: Callable[[InputError], object], on_error: OnError,
                      encoding: str | None, format: str | None,
                      metadata: Mapping[str, Any] | None, workers: int | None,
                      ) -> Iterator[tuple[Document, list[Chunk]]]:
    n = _workers(workers)
    if n > 1 and workers is None and not _picklable(chunker):
        n = 1  # "every core" where possible: this chunker cannot travel to a worker
    if n > 1:
        first = list(islice(sources, 2))
        rest = chain(first, sources)
        if len(first) > 1:  # one document gains nothing from a pool
            from .parallel import parallel_documents_chunks
            from .readers.sources import SourceItem

            def announced() -> Iterator[SourceItem]:
                for src in rest:
                    _warn_unstable(src)
                    if src.stdin:  # only this process can read its standard input
                        try:
                            src = SourceItem(src.label, document=src.load(encoding=encoding,
                                                                      format=format))
                        except InputError as exc:
                            src = SourceItem(src.label, error=exc.problem)
                    yield src

            yield from parallel_documents_chunks(chunker, announced(), n, handle, encoding,
                                                 format, metadata)
            return
        sources = rest
    from .stream import should_stream

    def streamed(src: SourceItem) -> bool:
        return (src.path is not None and src.error is None
                and should_stream(chunker, src.path, format, encoding))

    for src in sources:
        if streamed(src):
            yield from _streamed_chunks(chunker, src, handle, metadata, on_error, encoding,
                                        format)
        else:
            yield from _loaded_chunks(chunker, iter((src,)), handle, on_error, encoding,
                                      format, metadata)


#: chunks handed on at once from a file read in windows
STREAM_BATCH = 4096


def _streamed_chunks(chunker: Chunker, src: SourceItem, handle: Callable[[InputError], object],
                     metadata: Mapping[str, Any] | None, on_error: OnError = "raise",
                     encoding: str | None = None, format: str | None = None,
                     ) -> Iterator[tuple[Document, list[Chunk]]]:
    """A large text file read and chunked a window at a time: the same chunks as
    whole, handed on in batches (each with the same document, whose text is not
    held); checked in full first, so an undecodable file yields nothing."""
    from .stream import check_file, iter_file_chunks, window_chunker

    assert src.path is not None
    doc_id = src.doc_id or name_of(src.path)
    meta = MappingProxyType(dict(metadata)) if metadata else MappingProxyType({})
    try:
        check_file(src.path)
        chosen = window_chunker(chunker, src.path)
    except InputError as exc:
        handle(exc)
        return
    if chosen is None:  # auto chooses another strategy: the file is read whole
        yield from _loaded_chunks(chunker, iter((src,)), handle, on_error, encoding, format,
                                  metadata)
        return
    doc = Document("", doc_id, name_of(src.path), metadata=meta)
    batch: list[Chunk] = []
    for c in iter_file_chunks(chosen[0], src.path, doc_id, metadata=meta, strategy=chosen[1]):
        batch.append(c)
        if len(batch) >= STREAM_BATCH:
            yield doc, batch
            batch = []
    yield doc, batch


def _loaded_chunks(chunker: Chunker, sources: Iterator[SourceItem],
                   handle: Callable[[InputError], object], on_error: OnError,
                   encoding: str | None, format: str | None,
                   metadata: Mapping[str, Any] | None,
                   ) -> Iterator[tuple[Document, list[Chunk]]]:
    for src, doc in iter_loaded(sources, on_error, encoding, format, chunker.reads_structure):
        if metadata:
            doc = dataclasses.replace(doc, metadata=MappingProxyType({**doc.metadata,
                                                                      **metadata}))
        # a long document comes in batches, a window of it at a time
        batches = chunker.chunk_windows(doc)
        handed = False
        while True:
            try:
                chunks = next(batches, None)
            except (ConfigError, ServiceError):
                raise
            except ChunkwiseError as exc:  # a document this configuration cannot chunk
                error = exc if isinstance(exc, InputError) else InputError(src.label, str(exc))
                if handed:  # part of it is handed on already: not a document to skip
                    raise error from None
                handle(error)
                break
            if chunks is None:
                if not handed:  # a document without chunks is still a document read
                    yield doc, []
                break
            handed = True
            yield doc, chunks


#: below this much input, starting worker processes costs more than it saves
POOL_MIN_BYTES = 4_000_000


def local_workers(chunker: Chunker, sources: list[SourceItem], workers: int | None,
                  format: str | None = None, encoding: str | None = None, *,
                  embeds: bool = False) -> int | None:
    """How many processes should chunk ``sources`` on this machine: one for a
    contextualizing chunker (one LLM client, its calls concurrent); else ``workers``
    when given; else one where a pool cannot help (a strategy that embeds, whose model
    uses every core already; too little input; a file read in windows, which is read
    in this process); else None (every core)."""
    if getattr(chunker, "contextualizer", None) is not None:
        return 1
    if workers is not None:
        return workers
    if embeds or _input_bytes(sources) < POOL_MIN_BYTES:
        return 1
    from .stream import should_stream

    if any(s.path is not None and should_stream(chunker, s.path, format, encoding)
           for s in sources):
        return 1
    return None


def _input_bytes(sources: list[SourceItem]) -> int:
    total = 0
    for s in sources:
        if s.path is not None:
            try:
                total += s.path.stat().st_size
            except OSError:
                pass
        elif s.text is not None:
            total += len(s.text)
        if total >= POOL_MIN_BYTES:
            break
    return total


@dataclasses.dataclass
class ChunkStats:
    """Counts over a run's ``(document, chunks)`` pairs: documents, chunks, tokens,
    the strategy ``auto`` chose for each document, and the documents of each kind
    it sized (``metadata["document_kind"]``)."""

    documents: int = 0
    chunks: int = 0
    tokens: int = 0
    max_tokens: int = 0
    by_strategy: dict[str, int] = dataclasses.field(default_factory=dict)
    by_kind: dict[str, int] = dataclasses.field(default_factory=dict)
    #: the documents that gave no chunk (an empty file, a page whose text its scripts
    #: make), by source
    empty: list[str] = dataclasses.field(default_factory=list)
    _last: Document | str | None = None

    def add(self, doc: Document | str | None, chunks: list[Chunk]) -> bool:
        """Count a pair; True when it starts a document (not more of a file read in
        windows). ``doc``: the document, or its name (as the Ray engine gives it)."""
        self.chunks += len(chunks)
        for c in chunks:
            self.tokens += c.token_count
            self.max_tokens = max(self.max_tokens, c.token_count)
        name = doc if isinstance(doc, str) or doc is None else (doc.source or doc.doc_id)
        if doc is self._last and doc is not None:
            if chunks and self.empty and self.empty[-1] == name:
                self.empty.pop()  # a later window of it gave text
            return False
        self._last = doc
        self.documents += 1
        if not chunks and name is not None:
            self.empty.append(name)
        chosen = chunks[0].metadata.get("strategy") if chunks else None
        if chosen:
            self.by_strategy[chosen] = self.by_strategy.get(chosen, 0) + 1
        kind = chunks[0].metadata.get("document_kind") if chunks else None
        if kind:
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        return True

    @property
    def mean(self) -> float:
        return self.tokens / self.chunks if self.chunks else 0.0


def _picklable(chunker: Chunker) -> bool:
    import pickle

    try:
        pickle.dumps(chunker)
    except Exception:
        return False
    return True


def _workers(workers: int | None) -> int:
    if workers is None:
        from .parallel import default_workers

        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer or None (every core), "
                          f"got {workers!r}")
    return workers


def iter_chunks(source: Source, strategy: str | Chunker = "auto", *, size: int | None = None,
                overlap: int | float | None = None, tokenizer: TokenizerSpec = None,
                max_tokens: int | None = None,
                on_error: OnError = "raise", doc_id: str | None = None,
                encoding: str | None = None, format: str | None = None,
                metadata: Mapping[str, Any] | None = None, workers: int | None = 1,
                **options: Any) -> Iterator[Chunk]:
    """Chunks of every document of ``source``, yielded document by document, so a
    million-file run never holds every chunk in memory.

    ``source``: a text (``str``), a ``pathlib.Path`` to a file or folder (read
    recursively) or a glob pattern, a :class:`Document`, a ``{doc_id: text or
    Path}`` mapping, or a list of these. A ``str`` is always text, never a file
    name: pass ``Path("docs/handbook.md")`` for files.

    ``on_error``: ``"raise"`` (default) stops at the first document that cannot
    be read; ``"skip"`` goes on and warns (:class:`SkippedInputWarning`) naming
    each skipped document; a callable receives each :class:`InputError` instead.

    ``strategy``: a registered name ("auto", "recursive", "section", ...) or a
    :class:`Chunker`; ``size``, ``overlap`` (tokens, or a fraction of size),
    ``tokenizer`` and ``max_tokens`` configure it, with the strategy's own
    options as further keywords. ``format`` forces a reader ("text", "markdown",
    "html", "pdf", ...); ``doc_id`` names a single text or file.

    ``metadata``: fields added to every document's own (front matter, HTML
    meta, PDF information); every chunk carries them as ``metadata["doc"]``.

    ``workers``: processes that read and chunk documents in parallel (``None``:
    every core; default 1, in this process). Chunks come in the same order and
    with the same ids either way.
    """
    chunker = _chunker(strategy, size, overlap, tokenizer, max_tokens, options)
    for _, chunks in iter_documents_chunks(chunker, source, on_error=on_error, doc_id=doc_id,
                                           encoding=encoding, format=format, metadata=metadata,
                                           workers=workers):
        yield from chunks


def chunk(source: Source, strategy: str | Chunker = "auto", *, size: int | None = None,
          overlap: int | float | None = None, tokenizer: TokenizerSpec = None, max_tokens: int | None = None,
          on_error: OnError = "raise", doc_id: str | None = None, encoding: str | None = None,
          format: str | None = None, metadata: Mapping[str, Any] | None = None,
          workers: int | None = 1, **options: Any) -> list[Chunk]:
    """All chunks of ``source`` as a list: :func:`iter_chunks`, collected."""
    return list(iter_chunks(source, strategy, size=size, overlap=overlap, tokenizer=tokenizer,
                            max_tokens=max_tokens, on_error=on_error, doc_id=doc_id,
                            encoding=encoding, format=format, metadata=metadata,
                            workers=workers, **options))


def _chunker(strategy: str | Chunker, size: int | None, overlap: int | float | None,
             tokenizer: TokenizerSpec,
             max_tokens: int | None, options: dict[str, Any]) -> Chunker:
    from .factory import get_chunker
    from .strategies import Chunker

    if isinstance(strategy, Chunker):
        given = {k: v for k, v in (("size", size), ("overlap", overlap), ("tokenizer", tokenizer),
                                   ("max_tokens", max_tokens)) if v is not None}
        if given or options:
            raise ConfigError("options belong to the strategy's constructor; with a Chunker "
                              f"instance give none (got {', '.join(sorted({**given, **options}))})")
        return strategy
    common: dict[str, Any] = {"size": size, "overlap": overlap, "tokenizer": tokenizer,
                              "max_tokens": max_tokens}
    return get_chunker(strategy, **{k: v for k, v in common.items() if v is not None}, **options)


def read_text(path: str | Path, encoding: str | None = None, format: str | None = None) -> str:
    """The text that chunk offsets of the file ``path`` index: for text and
    Markdown files exactly what ``Path(path).read_bytes().decode("utf-8")``
    returns (a byte-order mark kept as U+FEFF, CRLF kept); for HTML, PDF and
    other extracted formats the extracted text. ``path`` may be a chunk's ``source``
    (a file name that is not UTF-8 is stored escaped: see :func:`name_of`)."""
    from .readers import read_path

    where = Path(path)
    if isinstance(path, str) and not os.path.lexists(where):
        where = Path(path_of(path))
    return read_path(where, encoding=encoding, fmt=format).text


class _LeftOut:
    """Whether a path below the folders walked is one that every walk of a folder
    holding it leaves out (an ignore file, ``--exclude``): a sync counts its document
    as gone; a watch wakes no sync for it."""

    def __init__(self, folders: list[Path], walk: Walk):
        self.folders, self.walk = folders, walk
        self.ignorers: dict[Path, Ignorer | None] = {}  # (cleared to read rules again)

    def __call__(self, path: Path) -> bool:
        inside = [f for f in self.folders if path.is_relative_to(f)]
        for folder in inside:
            if folder not in self.ignorers:
                self.ignorers[folder] = self.walk.ignorer(folder)
            ignorer = self.ignorers[folder]
            if ignorer is None or ignorer.excluded(path) is None:
                return False
        return bool(inside)


def _watch_targets(paths: list[str | PathLike[str]]) -> tuple[list[Path], set[Path]]:
    """The folders (a glob's folder before its first pattern) and the files that a
    watch of ``paths`` looks at, absolute. A file is watched through its folder (an
    editor that saves by renaming a new file over it replaces what was watched)."""
    from .readers.sources import has_magic

    folders: list[Path] = []
    files: set[Path] = set()
    for given in paths:
        text = os.fspath(given)
        if has_magic(text):
            fixed = []
            for part in Path(text).parts:
                if has_magic(part):
                    break
                fixed.append(part)
            folders.append(Path(*fixed).resolve() if fixed else Path.cwd())
            continue
        p = Path(text).resolve()
        if p.is_dir():
            folders.append(p)
        elif p.exists() or p.parent.is_dir():
            files.add(p)
        else:
            raise InputError(text, "no such file or folder to watch")
    return folders, files


class Index:
    """A searchable index of documents at a store URI (``./PATH`` or ``lancedb://PATH``,
    ``qdrant+local://PATH``, ``qdrant://HOST:PORT/NAME``, ``postgresql://...``, or a
    plug-in's scheme), kept in sync with them::

        with chunkwise.Index("./idx") as index:
            index.sync(Path("docs"), prune=True)
            hits = index.search("how do I rotate the keys?", k=5)

    The chunker and embedder an index was built with are stored with it, and its
    root: files are named relative to it, so any spelling of a path names the same
    document. A sync with another configuration is refused unless ``rebuild=True``;
    a search uses the embedder the index was built with. ``create=False``: an
    index that does not exist is an error, and nothing is created."""

    def __init__(self, uri: str | PathLike[str], *, create: bool = True):
        from .index import open_store

        uri = os.fspath(uri)  # a folder given as a Path too
        self.uri = uri
        self.store = open_store(uri, create=create)
        self._models: dict[str | Path, Embedder] = {}  # spec -> the loaded embedder

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let the store go (Qdrant's local mode locks its folder until then)."""
        self.store.close()

    def config(self) -> dict[str, Any] | None:
        """How the index was built (None: no index there yet)."""
        return self.store.get_config()

    def sync(self, source: Source, chunker: Chunker | None = None, *, embedder: str | Embedder = "minilm",
             prune: bool = False, rebuild: bool = False, root: str | PathLike[str] | None = None,
             wait: bool = True, on_wait: Callable[[], object] | None = None,
             follow_links: bool = False, on_error: OnError = "raise",
             encoding: str | None = None,
             on_document: Callable[[Any], None] | None = None,
             metadata: Mapping[str, Any] | None = None, reread: bool = False,
             exclude: Iterable[str] = (), ignore_rules: bool = True,
             format: str | None = None) -> Any:
        """Chunk every document of ``source`` (as :func:`iter_chunks` reads it, in
        ``format`` if given; strings are paths here), embed only chunks the index does
        not hold, rewrite rows that moved, delete chunks a document no longer has.
        Returns an :class:`~chunkwise.index.IndexReport`; ``on_document(report)`` after each
        document (a progress bar).

        ``prune``: also remove the documents of this index whose files no longer exist,
        under the paths given (documents elsewhere are untouched). ``root``: the folder
        document ids are relative to (kept with the index; by default the one it has,
        or for a new index the common folder of the paths). ``wait``: another run
        writing the index is waited for (``on_wait()`` first), or without it an
        :class:`~chunkwise.errors.IndexBusyError`. Folders are walked as for
        :func:`iter_chunks`: what is not a document is passed over and counted in
        ``report.skipped``; links to files outside a folder are followed only with
        ``follow_links``; the index's own folder is never read. ``metadata``: fields
        added to every document's (a search's ``filter={"metadata": ...}`` finds them;
        changing them rewrites the rows, without embedding anything again). A local
        index passes over files unchanged since they were synced (see
        :mod:`chunkwise.index.unchanged`) unless ``reread``. ``exclude``, ``ignore_rules``:
        what a walk leaves out (:class:`~chunkwise.readers.sources.Walk`); a document
        left out so counts as one whose file is gone."""
        from .factory import get_chunker
        from .index.sync import IndexReport, sync_documents
        from .readers.sources import SkipCounter, Walk, iter_sources

        chunker = chunker if chunker is not None else get_chunker("auto")
        patterns = _patterns(exclude)  # (a bad one told before the index is touched)
        model = self._model(embedder)
        with self.store.writer_lock(wait, on_wait):
            top, config = self._configure(chunker, embedder, model, source, root, rebuild)
            report = IndexReport()
            skipped = SkipCounter()
            walk = Walk(root=top, exclude=tuple(filter(None, [self.store.local_path])),
                        follow_links=follow_links, on_skip=skipped, ignore_rules=ignore_rules,
                        exclude_patterns=patterns)
            state = self.store.state()
            passing = _Unchanged(self.store.local_path, state, report, on_document, reread, {
                "index": config, "metadata": metadata, "encoding": encoding, "format": format})
            failed = _noting(report, _handler(on_error), passing.failed)
            sources = passing.filter(iter_sources(source, strings_are_paths=True, walk=walk))
            documents = iter_documents_chunks(chunker, sources, on_error=failed, encoding=encoding,
                                              format=format, walk=walk, metadata=metadata)
            gone = _gone(source, top, walk)
            sync_documents(self.store, model, documents, report=report, on_document=on_document,
                           prune=gone if prune else None, state=state, on_planned=passing.planned,
                           gone=gone if top is not None and _paths(source) else None, twins=passing.twins)
            report.stale, report.stale_ignored = (0, 0) if prune else _stale(
                state, report.seen, gone, source, top)
            passing.save()
            report.skipped = skipped.line()
            return report

    def _configure(self, chunker: Chunker, embedder: str | Embedder, model: Embedder,
                   source: Source, root: str | PathLike[str] | None,
                   rebuild: bool) -> tuple[Path | None, dict[str, Any]]:
        """The sync's root (:func:`_index_root`) and configuration, checked against the
        stored one (and stored): under the writer's lock."""
        from .index.sync import check_config, index_config

        stored = self.store.get_config()
        top = _index_root(root, None if rebuild else stored, source, self.store.local_path)
        config = _located(index_config(chunker.describe(), embedder, model, _str(top),
                                       self.store.local_path), stored)
        # (a root given that is the place the index records relative to itself is the
        # project moved too)
        moved = not rebuild and _moved(stored, top) and (
            root is None or (stored is not None and top == _from_index(stored, self.store.local_path)))
        check_config(self.store, config, rebuild, moved=moved)
        return top, config

    def _model(self, embedder: str | Embedder) -> Embedder:
        """The embedder for ``embedder``: one per spec for this Index's life (a watch
        syncs again and again; the model is not loaded again each time)."""
        from .embed import get_embedder

        if not isinstance(embedder, (str, Path)):
            return get_embedder(embedder, cache=False)
        model = self._models.get(embedder)
        if model is None:
            model = self._models[embedder] = get_embedder(embedder, cache=False)
        return model

    def watch(self, paths: str | PathLike[str] | Iterable[str | PathLike[str]],
              chunker: Chunker | None = None, *,
              on_sync: Callable[[Any, float], None] | None = None,
              stop: Any = None, **sync_options: Any) -> int:
        """:meth:`sync` ``paths`` (files, folders, globs) now, then again after each
        change of a file under them, until ``stop`` (a :class:`threading.Event`) is set
        or Ctrl-C; ``on_sync(report, seconds)`` after each sync. The model stays loaded
        and the store open between syncs, so a saved edit is searchable in about the
        time its own chunks take to embed; the index is locked only while a sync
        writes (another run may write between them). Changes inside the index's own
        folder, version-control and editor swap files are not watched. Takes
        :meth:`sync`'s options (``prune=True`` also removes the documents of files
        deleted meanwhile; ``rebuild`` and ``reread`` apply to the first sync only).
        Returns how many syncs ran."""
        import time

        from watchfiles import DefaultFilter, watch

        from .readers.ignore import IGNORE_FILES
        from .readers.sources import Walk, passed_over_by_name

        given = [paths] if isinstance(paths, (str, PathLike)) else list(paths)
        if not given:
            raise ChunkwiseError("watch: give the files or folders to index")
        folders, files = _watch_targets(given)
        own = self.store.local_path
        base = DefaultFilter(ignore_paths=[str(Path(own).resolve())] if own is not None else ())
        left_out = _LeftOut(folders, Walk(
            ignore_rules=sync_options.get("ignore_rules", True),
            exclude_patterns=_patterns(sync_options.get("exclude", ()))))

        def relevant(change: Any, path: str) -> bool:
            if not base(change, path):
                return False
            p = Path(path)  # (an ignore file's change always counts)
            return p in files or (any(p.is_relative_to(f) for f in folders) and (
                p.name in IGNORE_FILES or not (left_out(p) or passed_over_by_name(p.name))))

        def once(options: dict[str, Any]) -> None:
            left_out.ignorers.clear()  # (read again: an ignore file may have changed)
            t0 = time.perf_counter()
            report = self.sync([os.fspath(g) for g in given], chunker, **options)
            if on_sync is not None:
                on_sync(report, time.perf_counter() - t0)

        later = {**sync_options, "rebuild": False, "reread": False}
        runs = 0
        # the watcher is up before the first sync (its first timeout says so): a change
        # made while that sync runs (minutes on a large folder) is caught after it
        for changes in watch(*sorted({*folders, *(f.parent for f in files)}),
                             watch_filter=relevant, stop_event=stop, raise_interrupt=False,
                             debounce=400, step=50, rust_timeout=250, yield_on_timeout=True):
            if runs and not changes:
                continue
            # rebuild and reread are for the first sync: later ones take what changed
            once(sync_options if not runs else later)
            runs += 1
        return runs

    def search(self, query: str, k: int = 5, *, retriever: str = "hybrid",
               expand: bool = False, filter: Filter | Mapping[str, Any] | None = None,
               include_boilerplate: bool = False) -> list[Any]:
        """The ``k`` best chunks for ``query`` (:class:`~chunkwise.index.Hit`: ``score``
        and ``row``, every field of the chunk), ranked by ``retriever`` (``dense``: the
        store's own nearest-neighbour search; ``bm25``; ``hybrid``); ``expand``: a
        hierarchical index's parents of the best small chunks, each once.

        ``filter``: only chunks it matches, e.g. ``{"path": "guide/", "kind": "table",
        "page": [3, 7], "metadata": {"team": "docs"}}`` (see :mod:`chunkwise.filters`;
        an absolute path is taken relative to the index's root).

        Chunks made of text repeated in many of the index's documents (a licence
        header, a footer: :mod:`chunkwise.boilerplate`) are not ranked unless
        ``include_boilerplate``; then those among the hits have
        ``metadata.boilerplate`` set."""
        from .embed import get_embedder
        from .retrieval import search

        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"k must be a positive integer, got {k!r}")
        if not isinstance(query, str) or not query.strip():
            raise ConfigError("the query is empty: give the question to search for")
        config = self.config()
        if config is None:
            raise ConfigError(f"no index at {self.uri} (build one with Index.sync or "
                              "chunkwise index)")
        where = self.filter(filter)
        model = get_embedder(config["embedder"], cache=False)  # the one it was built with
        self.store.latest()  # what other runs wrote since this Index was opened
        hits = search(self.store, query, model, k=k, retriever=retriever, expand=expand,
                      where=where, include_boilerplate=include_boilerplate)
        moved = relocation(config, self.store.local_path)
        if moved is not None:  # (a moved project not synced since: its files where they are)
            for h in hits:
                h.row = relocated_row(h.row, moved)
        return hits

    def filter(self, value: Filter | Mapping[str, Any] | None) -> Filter | None:
        """A filter in this index's terms: its written form read (a ConfigError names
        what is wrong), absolute paths made relative to the index's root."""
        config = self.config() or {}
        root = moved_root(config, self.store.local_path) if config.get("root") else None
        return index_filter(value, None if root is None else str(root))

    def check(self, repair: bool = False) -> Any:
        """Verify the index: its configuration readable, one row per id, every row with
        a vector of the index's dimension, every document's rows one complete chain of
        neighbours (per level). ``repair``: keep one row of each duplicated id, and
        remove the rows of a broken document (the next sync adds it again).
        Returns an :class:`~chunkwise.index.CheckReport`."""
        from .index.check import check_index

        with self.store.writer_lock(True, None) if repair else _nothing():
            self.store.latest()
            return check_index(self.store, repair=repair)


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


class _Unchanged:
    """A sync's files passed over unread (:mod:`chunkwise.index.unchanged`), and
    the record of what each file synced made, saved once all rows are written."""

    def __init__(self, folder: Path | None, state: dict[str, dict[str, str]], report: Any,
                 on_document: Callable[[Any], None] | None, reread: bool,
                 settings: Mapping[str, Any]):
        from .index.unchanged import UnchangedFiles

        self.record = UnchangedFiles(folder, settings) if folder is not None else None
        self.state, self.report, self.on_document = state, report, on_document
        self.reread = reread
        self._digests: dict[str, tuple[Path, str]] = {}
        self._by_digest: dict[str, list[str]] | None = None
        self._doc_ids: dict[str, str] = {}  # an error's source (the file) -> its document
        self._met: set[str] = set()  # the documents whose files the sync met
        self._told: set[str] = set()  # their failures told from the record, not read

    def filter(self, sources: Iterator[SourceItem]) -> Iterator[SourceItem]:
        from .index.unchanged import file_digest

        for src in sources:
            path = src.path
            if self.record is not None and path is not None and src.error is None:
                doc_id = src.doc_id or name_of(path)
                digest = file_digest(path)
                stored = self.state.get(doc_id, {})
                if not self.reread and self.record.unchanged(doc_id, digest, stored):
                    self.report.note_unchanged(doc_id, len(stored))
                    if self.on_document is not None:
                        self.on_document(self.report)
                    continue
                problem = None if self.reread else self.record.failed_before(doc_id, digest)
                if problem is not None:  # told again, from the record: not read again
                    self._told.add(doc_id)
                    src = dataclasses.replace(src, label=name_of(path), error=(
                        f"{problem} (unchanged since it failed: not read again; "
                        "--reread reads it)"))
                if digest is not None:
                    self._digests[doc_id] = (path, digest)
                    self._doc_ids[name_of(path)] = doc_id
                    self._met.add(doc_id)
            yield src

    def failed(self, exc: InputError) -> None:
        """A file that could not be read, recorded with its bytes (when it still has
        those it was read with): the next sync tells its problem without reading it."""
        from .index.unchanged import file_digest

        doc_id = self._doc_ids.pop(str(exc.source), None)
        if self.record is None or doc_id is None or doc_id in self._told:
            return  # (a failure told from the record keeps its entry as it is)
        path, digest = self._digests.pop(doc_id, (None, None))
        if path is None or digest is None:
            return
        if file_digest(path) == digest:
            self.record.record_failure(doc_id, digest, exc.problem)
        else:
            self.record.forget(doc_id)

    def twins(self, doc_id: str) -> list[str]:
        """The documents last synced, with these settings, from a file with the bytes
        the file of ``doc_id`` has now (it was copied from one of them)."""
        if self.record is None or doc_id not in self._digests:
            return []
        if self._by_digest is None:
            self._by_digest = {}
            for other, (digest, _, settings) in self.record.known.items():
                if settings == self.record.settings:
                    self._by_digest.setdefault(digest, []).append(other)
        return [d for d in self._by_digest.get(self._digests[doc_id][1], ()) if d != doc_id]

    def planned(self, doc_id: str, rows: list[dict[str, Any]]) -> None:
        """Recorded only when the file still has the bytes it had before it was read
        (an edit while it was chunked: the next sync reads it again)."""
        from .index.unchanged import file_digest

        if self.record is None:
            return
        path, digest = self._digests.pop(doc_id, (None, None))
        if path is not None and digest is not None and file_digest(path) == digest:
            self.record.record(doc_id, digest, ((r["id"], r["row_hash"]) for r in rows))
        else:
            self.record.forget(doc_id)

    def save(self) -> None:
        """Entries of documents the index no longer holds are dropped."""
        if self.record is not None:
            known = self.record.known
            self.record.known = {k: v for k, v in known.items()
                                 if k in self.state or k in self.report.seen}
            # (a failed file's entry stays while the index holds its document or the
            # sync met its file)
            self.record.failed = {k: v for k, v in self.record.failed.items()
                                  if k in self.state or k in self._met}
            self.record.save()


def index_filter(value: Filter | Mapping[str, Any] | None, root: str | None) -> Filter | None:
    """A filter in the terms of an index whose documents are named relative to
    ``root``: its written form read, absolute paths made relative to the root."""
    where = Filter.of(value)
    if where is None or not where.path:
        return where
    return dataclasses.replace(where, path=tuple(_relative_filter_path(p, root)
                                                 for p in where.path))


def _relative_filter_path(path: str, root: str | None) -> str:
    """A filter path as the index names documents: an absolute one relative to its root."""
    if not os.path.isabs(path):
        return path
    if root is None:
        raise ConfigError(f"filter path {path!r}: this index names documents as given, "
                          "not relative to a folder: give the name a hit shows as doc_id")
    full = path if is_glob(path) else os.path.realpath(path)
    top = root.rstrip("/") + "/"
    if full.rstrip("/") == root.rstrip("/"):
        return "**"
    if not full.startswith(top):
        raise ConfigError(f"filter path {path!r} is not under the index's root {root}")
    rest = full[len(top):]
    return name_of(rest) if not is_glob(path) else rest


def _nothing() -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


def _paths(source: Source) -> list[Path] | None:
    """The paths a source names (None when it is not only paths: texts, documents)."""
    from .readers.sources import has_magic

    items = [source] if isinstance(source, (str, PathLike)) else source
    if isinstance(items, Mapping) or not isinstance(items, Iterable):
        return None
    out = []
    for item in items:
        if not isinstance(item, (str, PathLike)) or item == "-":
            return None
        path = Path(item)
        if has_magic(str(path)):  # a glob: the folder its fixed part names
            fixed = [p for p in path.parts[:next(i for i, p in enumerate(path.parts)
                                                 if has_magic(p))]]
            path = Path(*fixed) if fixed else Path(".")
        out.append(path)
    return out


def _index_root(root: str | PathLike[str] | None, stored: dict[str, Any] | None,
                source: Source, index_path: Path | None = None) -> Path | None:
    """The folder documents are named relative to: the one given, else the index's own
    (:func:`moved_root`), else the common folder of the paths given (None for texts and
    documents)."""
    if root is not None:
        folder = Path(os.path.realpath(root))
        if not folder.is_dir():
            raise ConfigError(f"root {os.fspath(root)!r} is not a folder")
        return folder
    if stored is not None and stored.get("root"):
        found = moved_root(stored, index_path)
        copy = _from_index(stored, index_path)
        paths = _paths(source)
        if paths and copy is not None and copy != found and not all(
                _under_folder(p, found) for p in paths) and all(_under_folder(p, copy) for p in paths):
            return copy  # a copy of the project and its index: its own documents
        return found
    paths = _paths(source)
    if not paths:
        return None
    folders = [os.path.realpath(p) if p.is_dir() else os.path.realpath(p.parent) for p in paths]
    return Path(os.path.commonpath(folders))


def _located(config: dict[str, Any], stored: dict[str, Any] | None) -> dict[str, Any]:
    """``config`` with the root's place relative to the index as recorded when the root
    was chosen: an index copied elsewhere (its root left where it was) keeps the place
    it had, where a copy of its documents beside it would be found."""
    if stored is not None and stored.get("root") == config.get("root") \
            and "root_from_index" in stored:
        return {**config, "root_from_index": stored["root_from_index"]}
    return config


def _moved(stored: dict[str, Any] | None, top: Path | None) -> bool:
    """Whether the root found (:func:`_index_root`) is not the one recorded."""
    return stored is not None and bool(stored.get("root")) and _str(top) != stored["root"]


def moved_root(stored: Mapping[str, Any], index_path: Path | None) -> Path:
    """The root a local index's configuration names; where that folder is gone and the
    folder at the same place relative to the index is there (the project moved with its
    index: a renamed folder), that one. Documents are named relative to the root, so
    they keep their names and rows there. (A sync given paths inside that place and
    outside the named root, a copy of the project beside the original, takes it too:
    :func:`_index_root`.)"""
    root = Path(stored["root"])
    if root.is_dir():
        return root
    here = _from_index(stored, index_path)
    return root if here is None else here


def relocation(config: Mapping[str, Any], index_path: Path | None) -> tuple[str, str] | None:
    """(the root the rows' paths start with, where it is now) for a project moved with
    its index and not synced since (:func:`moved_root`); None when it is where it was."""
    root = config.get("root")
    if not isinstance(root, str) or not root:
        return None
    now = str(moved_root(config, index_path))
    return None if now == root else (root, now)


def relocated(source: Any, moved: tuple[str, str] | None) -> Any:
    """A row's ``source`` under the root where it is now (:func:`relocation`)."""
    if moved is None or not isinstance(source, str):
        return source
    old, new = moved
    return new + source[len(old):] if source.startswith(old + os.sep) else source


def relocated_row(row: dict[str, Any], moved: tuple[str, str] | None) -> dict[str, Any]:
    """A hit's row with its ``source`` and its copies' (the same text in other
    documents) under the root where it is now."""
    if moved is None:
        return row
    out = {**row, "source": relocated(row.get("source"), moved)}
    if row.get("copies"):
        out["copies"] = [{**c, "source": relocated(c.get("source"), moved)} for c in row["copies"]]
    return out


def _from_index(stored: Mapping[str, Any], index_path: Path | None) -> Path | None:
    """The folder at the root's place relative to a local index, where there is one."""
    relative = stored.get("root_from_index")
    if index_path is None or not isinstance(relative, str):
        return None
    here = Path(os.path.normpath(index_path / relative))
    return here if here.is_dir() else None


def _under_folder(path: Path, folder: Path) -> bool:
    """Whether ``path`` (links resolved) is ``folder`` or inside it."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _noting(report: Any, handle: Callable[[InputError], object],
            remember: Callable[[InputError], None]) -> Callable[[InputError], None]:
    """An input error noted in a sync's ``report`` (its document keeps its rows) and
    remembered (``remember``), then handled."""
    def failed(exc: InputError) -> None:
        report.note_failed(exc)
        remember(exc)
        handle(exc)
    return failed


def _patterns(exclude: Iterable[str]) -> tuple[str, ...]:
    """``exclude`` as a tuple of patterns (one string is one pattern), checked."""
    from .readers.ignore import check_patterns

    patterns = (exclude,) if isinstance(exclude, str) else tuple(exclude)
    check_patterns(patterns)
    return patterns


def _stale(state: dict[str, Any], seen: set[str], gone: Callable[[str], bool],
           source: Source, root: Path | None) -> tuple[int, int]:
    """Documents of the index under the paths given whose files are gone or left out,
    which a run without prune keeps, and how many of them are left out, their files
    still there ((0, 0) when no paths were given)."""
    if not _paths(source):
        return 0, 0
    stale = [doc_id for doc_id in state if doc_id not in seen and gone(doc_id)]
    there = 0 if root is None else sum(1 for d in stale if os.path.lexists(root / path_of(d)))
    return len(stale), there


def _gone(source: Source, root: Path | None, walk: Walk) -> Callable[[str], bool]:
    """Whether prune removes a document the run did not give: it lies under one of the
    paths given (without a root: every document not given) and its file is gone, or
    under a folder given whose walk now leaves it out (an ignore file, ``--exclude``,
    or what no walk reads: a lock file, a generated script, binary data, ...)."""
    from .readers.sources import passed_over

    paths = _paths(source)
    if root is None or paths is None:
        return lambda doc_id: True
    scopes = [Path(os.path.realpath(p)) for p in paths]
    left_out = _LeftOut([s for s in scopes if s.is_dir()], walk)

    def gone(doc_id: str) -> bool:
        where = root / path_of(doc_id)
        inside = [s for s in scopes if where == s or s in where.parents]
        if not inside:
            return False
        if not os.path.lexists(where):
            return True
        # a file named itself is read whatever the rules say
        return where not in inside and (left_out(where) or passed_over(where) is not None)
    return gone
