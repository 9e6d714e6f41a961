"""Keeping an index in step with its documents: embed what is new, rewrite what
moved, delete what is gone, and check the stored configuration."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..types import Chunk, Document
from .store import Store, row_of


@dataclass
class IndexReport:
    documents: int = 0
    changed: int = 0
    removed: int = 0
    chunks: int = 0
    embedded: int = 0
    reused: int = 0
    #: document ids synced, or that failed to read and keep what the index had
    seen: set[str] = field(default_factory=set)
    #: what the folder walk passed over, in one line (None: nothing)
    skipped: str | None = None
    #: rows written so far (embedded or moved); planned rows are counted above first
    written: int = 0
    #: documents passed over unread: the file and settings those rows were made from
    unchanged: int = 0
    #: their chunks (counted in ``chunks`` and ``reused``, not in the rate)
    unchanged_chunks: int = 0
    #: documents read that gave no chunk (an empty file, a page whose text is made by
    #: its scripts): named in the summary, as nothing of them can be found
    empty: list[str] = field(default_factory=list)
    #: documents under the paths given whose files are gone, kept (no ``prune``):
    #: still found by a search, so the summary says so
    stale: int = 0
    #: of :attr:`stale`, documents whose files are there but left out by the walk (an
    #: ignore file, ``--exclude``)
    stale_ignored: int = 0

    def note_unchanged(self, doc_id: str, rows: int) -> None:
        """A document whose file was not read again: its rows stay, all reused."""
        self.seen.add(doc_id)
        self.documents += 1
        self.unchanged += 1
        self.unchanged_chunks += rows
        self.chunks += rows
        self.reused += rows

    def note_failed(self, exc: InputError) -> None:
        """A document that could not be read keeps what the index had for it."""
        if exc.source:
            self.seen.add(str(exc.source))

    def line(self, seconds: float) -> str:
        per_s = (self.chunks - self.unchanged_chunks) / seconds if seconds > 0 else 0.0
        rate = (f" ({per_s:,.0f} chunks/s)" if per_s >= 10 else f" ({per_s:.1f} chunks/s)"
                if self.chunks > self.unchanged_chunks and seconds > 0 else "")
        empty = ""
        if self.empty:
            names = ", ".join(self.empty[:3]) + (f" and {len(self.empty) - 3} more"
                                                 if len(self.empty) > 3 else "")
            empty = f", {len(self.empty):,} without text: {names}"
        return (f"documents {self.documents:,} ({self.changed:,} changed, {self.removed:,} "
                f"removed{empty}) chunks {self.chunks:,} ({self.embedded:,} embedded, "
                f"{self.reused:,} reused) {seconds:.1f} s{rate}"
                + (f"; {self.unchanged:,} file{'' if self.unchanged == 1 else 's'} unchanged, "
                   "not read again" if self.unchanged else "")
                + self._stale_line())

    def _stale_line(self) -> str:
        gone, left = self.stale - self.stale_ignored, self.stale_ignored
        return ((f"; {gone:,} " + ("document whose file is gone is" if gone == 1
                                   else "documents whose files are gone are")
                 + f" still in the index (--prune removes {'it' if gone == 1 else 'them'})"
                 if gone else "")
                + (f"; {left:,} " + ("document" if left == 1 else "documents")
                   + " that a walk now leaves out (ignore rules, --exclude, not documents) "
                   + ("is" if left == 1 else "are")
                   + f" still in the index (--prune removes {'it' if left == 1 else 'them'})"
                   if left else ""))


def _flat(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


#: the layout of the stored configuration: 2 names documents relative to a root
CONFIG_VERSION = 2


def check_config(store: Store, config: dict[str, Any], rebuild: bool, moved: bool = False) -> None:
    """Store ``config`` with the index, or refuse a run whose configuration differs
    from the stored one (each differing setting named) unless ``rebuild``, which
    empties the index first. Where the index is (``root_from_index``) is no setting;
    nor is its root when it ``moved`` with the index (see ``chunkwise.api.moved_root``):
    either is written, the rows kept."""
    stored = store.get_config()
    if stored is not None and stored.get("version", 1) < CONFIG_VERSION and not rebuild:
        raise ConfigError(f"the index at {store.uri} was built by an older chunkwise, whose "
                          "document ids depend on how paths were spelled; pass rebuild=True "
                          "to rebuild it once")
    was, now = _setting(stored or {}, moved), _setting(config, moved)
    if stored is not None and was != now:
        if not rebuild:
            was, now = _flat(was), _flat(now)
            diff = [f"{k} {was.get(k)!r} -> {now.get(k)!r}" for k in sorted(set(was) | set(now))
                    if was.get(k) != now.get(k)]
            why = ("; kind_sizes: the sizes auto gives reference documentation and narrative "
                   "prose when no size is given" if any("kind_sizes" in d for d in diff) else "")
            raise ConfigError(f"the index at {store.uri} was built with another configuration "
                              f"({', '.join(diff)}{why}); pass rebuild=True to rebuild it")
        store.reset()
    elif rebuild:
        store.reset()
    if rebuild or stored != config:  # an unchanged configuration is not written again
        store.set_config(config)


def _setting(config: dict[str, Any], moved: bool) -> dict[str, Any]:
    """What of a configuration must match between runs."""
    return {k: v for k, v in config.items()
            if k != "root_from_index" and not (moved and k == "root")}


#: rows (to embed or rewrite) gathered across documents before one write
BATCH_ROWS = 512


@dataclass
class _Pending:
    """Writes planned for documents not yet written: rows to embed, rows whose
    vector is kept, ids to delete. Written together (one store write, not one per
    document), so thousands of small files cost a few writes."""

    fresh: list[dict[str, Any]] = field(default_factory=list)
    moved: list[dict[str, Any]] = field(default_factory=list)
    kept: list[np.ndarray] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    #: new rows whose vector another row of the same text had (:class:`Reuse`)
    copied: list[dict[str, Any]] = field(default_factory=list)
    copied_vectors: list[np.ndarray] = field(default_factory=list)
    documents: int = 0

    @property
    def size(self) -> int:
        return len(self.fresh) + len(self.moved) + len(self.stale) + len(self.copied)

    @property
    def rows(self) -> int:
        """Rows it writes (embedded, moved or copied)."""
        return len(self.fresh) + len(self.moved) + len(self.copied)


def _usable(vector: np.ndarray) -> bool:
    """A vector worth copying (as ``index --check`` counts them: finite, not all zero)."""
    return vector.ndim == 1 and bool(np.all(np.isfinite(vector))) and bool(np.any(vector))


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Reuse:
    """Vectors the index has, for new rows of the same ``embed_text``: a file renamed or
    moved comes back under another document id (new chunk ids, the same texts), a
    folder copied (a second version of the docs) is mostly texts the index holds. Such
    rows take the stored vector instead of being embedded again (the same text, model
    and settings: the same vector). Looked up, as a digest per text, the first time a
    run has a row to embed: in the rows of the documents not synced by then whose files
    are gone (``gone``); once a run has :attr:`EVERY_ROW` rows to embed, in every row
    of the index."""

    #: rows to embed in one run from which every row of the index is looked at (and at
    #: least one per :attr:`ROWS_PER_ROW` rows it holds): reading a row's text and its
    #: digest took ~4.5 us (4,002 rows of the FastAPI docs, LanceDB), embedding one
    #: with MiniLM on this 2-core CPU ~20 ms, so when nothing matches the reading costs
    #: at most ~5 % of the run (a one-file edit reads nothing)
    EVERY_ROW = 64
    ROWS_PER_ROW = 200

    def __init__(self, store: Store, state: dict[str, dict[str, str]], report: IndexReport,
                 gone: Callable[[str], bool] | None,
                 twins: Callable[[str], list[str]] | None = None):
        self.store, self.state, self.report, self.gone = store, state, report, gone
        #: the documents last synced from a file with the bytes a document's file has
        #: now (a file copied: its texts are theirs, looked at below the mark too)
        self.twins = twins
        self._by_text: dict[bytes, str] = {}  # a text's digest -> a row holding it
        self._gone_read = self._every = False
        self._every_at = max(self.EVERY_ROW, sum(map(len, state.values())) // self.ROWS_PER_ROW)
        self._asked = 0  # rows to embed so far

    def _read(self, rows: int) -> bool:
        """Count ``rows`` more to embed: every row's text read once they reach the mark
        (whether that happened just now), else the gone documents' at the first call."""
        self._asked += rows
        if not self._every and self._asked >= self._every_at:
            self._every = True
            self._add(self.store.embed_texts(None))
            return True
        if not self._gone_read and not self._every and (gone := self.gone) is not None:
            self._gone_read = True
            seen = self.report.seen
            ids = [cid for doc_id, held in self.state.items()
                   if doc_id not in seen and gone(doc_id) for cid in held]
            if ids:
                self._add(self.store.embed_texts(ids))
        return False

    def _add(self, texts: dict[str, str]) -> None:
        for cid, text in texts.items():
            self._by_text.setdefault(_digest(text), cid)

    def take(self, rows: list[dict[str, Any]], pending: _Pending,
             doc_id: str | None = None) -> list[dict[str, Any]]:
        """Those of ``rows`` (to embed) still to embed: the others go into ``pending``
        with the vectors they take. When every row of the index was read just now, the
        rows ``pending`` has yet to embed are looked at again (a copied folder's first
        documents came before the mark)."""
        if self._read(len(rows)) and pending.fresh:
            before = {r["id"] for r in pending.fresh}
            pending.fresh = self._split(pending.fresh, pending)
            # (rows planned as new were counted as embedded; a row that moved but had no
            # vector was counted as reused)
            again = sum(1 for r in pending.copied if r["id"] in before
                        and r["id"] not in self.state.get(r["doc_id"], {}))
            self.report.embedded -= again
            self.report.reused += again
        if self.twins is not None and doc_id is not None and not self._every:
            ids = [cid for twin in self.twins(doc_id) for cid in self.state.get(twin, {})]
            if ids:
                self._add(self.store.embed_texts(ids))
        return self._split(rows, pending)

    def _split(self, rows: list[dict[str, Any]], pending: _Pending) -> list[dict[str, Any]]:
        table = self._by_text
        if not table or not rows:
            return rows
        source = {i: table[d] for i, r in enumerate(rows) if (d := _digest(r["embed_text"])) in table}
        vectors = self.store.vectors(sorted(set(source.values()))) if source else {}
        found = sorted(i for i, cid in source.items() if cid in vectors and _usable(vectors[cid]))
        pending.copied += [rows[i] for i in found]
        pending.copied_vectors += [vectors[source[i]] for i in found]
        taken = set(found)
        return [r for i, r in enumerate(rows) if i not in taken]


def plan_document(store: Store, doc_id: str, chunks: Sequence[Chunk], stored: dict[str, str],
                  report: IndexReport, pending: _Pending,
                  reuse: Reuse | None = None) -> list[dict[str, Any]]:
    """What makes the index hold exactly ``chunks`` for ``doc_id``, added to
    ``pending``; the document's rows. ``reuse``: vectors new rows may take."""
    rows = [row_of(c) for c in chunks]
    fresh = [r for r in rows if r["id"] not in stored]
    moved = [r for r in rows if r["id"] in stored and stored[r["id"]] != r["row_hash"]]
    stale = set(stored) - {r["id"] for r in rows}
    report.documents += 1
    if not rows:
        report.empty.append(doc_id)
    if fresh or moved or stale:
        report.changed += 1
    if reuse is not None and fresh:
        fresh = reuse.take(fresh, pending, doc_id)
    report.chunks += len(rows)
    report.embedded += len(fresh)
    report.reused += len(rows) - len(fresh)
    kept = store.vectors([r["id"] for r in moved]) if moved else {}
    pending.fresh += fresh + [r for r in moved if r["id"] not in kept]
    pending.moved += [r for r in moved if r["id"] in kept]
    pending.kept += [kept[r["id"]] for r in moved if r["id"] in kept]
    pending.stale += sorted(stale)
    pending.documents += 1
    return rows


def embed_rows(embedder: Any, rows: Sequence[dict[str, Any]]) -> np.ndarray | None:
    """The vectors of ``rows``' ``embed_text``, in one call (the embedder batches them
    by their token counts, so a batch pads little), each text once (a licence header
    many new files open with); None for no rows."""
    if not rows:
        return None
    where: dict[str, int] = {}
    slots = [where.setdefault(r["embed_text"], len(where)) for r in rows]
    vectors = np.asarray(embedder.embed(list(where)), dtype=np.float32)
    return vectors if len(where) == len(rows) else vectors[slots]


def write_rows(store: Store, pending: _Pending, vectors: np.ndarray | None) -> None:
    """One transaction: upserts keyed by id (rows moved keep their vectors, new rows
    get ``vectors``), then deletes."""
    if not pending.size:
        return
    with store.transaction():
        if pending.moved:
            store.upsert(pending.moved, np.stack(pending.kept))
        new = list(pending.fresh) if pending.fresh and vectors is not None else []
        parts = [vectors] if new and vectors is not None else []
        if pending.copied:
            new += pending.copied
            parts.append(np.stack(pending.copied_vectors))
        if new:  # (one write: rows embedded and rows given another row's vector)
            store.insert(new, np.concatenate(parts))
        store.delete(pending.stale)


def write_pending(store: Store, embedder: Any, pending: _Pending) -> None:
    """Embed the pending rows (before the writes begin: a transaction is not held open
    by the model), then write them in one transaction. ``pending`` is emptied."""
    write_rows(store, pending, embed_rows(embedder, pending.fresh))
    pending.__init__()  # type: ignore[misc]


class _Pipeline:
    """Embeds one batch on a worker thread while the caller reads, chunks and plans
    the next (the model releases the interpreter while it computes); the store is
    only touched from the caller's thread, a batch written once its vectors are in.
    At most two batches are held: the one embedding and the one being gathered."""

    def __init__(self, store: Store, embedder: Any, report: IndexReport):
        self.store, self.embedder, self.report = store, embedder, report
        self._pool: Any = None
        self._job: tuple[_Pending, Any] | None = None
        self.prepare()  # the model loads while the caller walks and chunks the files

    def _worker(self) -> Any:
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(1, thread_name_prefix="chunkwise-embed")
        return self._pool

    def prepare(self) -> None:
        """The embedder's :meth:`~chunkwise.embed.Embedder.prepare` on the worker, first
        (an error there is left for the first batch to raise)."""
        prepare = getattr(self.embedder, "prepare", None)
        if prepare is not None:
            self._worker().submit(prepare)

    def submit(self, pending: _Pending) -> None:
        self.drain()
        self._job = (pending, self._worker().submit(embed_rows, self.embedder, pending.fresh))

    def drain(self) -> None:
        """Waits for the batch embedding, and writes it. A wait interrupted (Ctrl-C)
        keeps the batch for the next drain: it was dropped, its documents never
        written, and the model went on embedding it on the worker while the caller's
        clean-up embedded the rest with the same tokenizer (an IndexError from its
        word cache, and a traceback)."""
        job = self._job
        if job is not None:
            vectors = job[1].result()
            self._job = None
            write_rows(self.store, job[0], vectors)
            self.report.written += job[0].rows

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)


def sync_document(store: Store, embedder: Any, doc_id: str, chunks: Sequence[Chunk],
                  stored: dict[str, str], report: IndexReport) -> None:
    """Make the index hold exactly ``chunks`` for ``doc_id`` (upserts, then deletes)."""
    pending = _Pending()
    plan_document(store, doc_id, chunks, stored, report, pending)
    write_pending(store, embedder, pending)


def index_config(chunker_description: dict[str, Any], spec: Any, embedder: Any,
                 root: str | None = None, index_path: Path | None = None) -> dict[str, Any]:
    """What an index stores of how it was built; another configuration is refused.
    ``root``: the folder its documents are named relative to (None: ids as given);
    for a local index (``index_path``) also where the root is from the index, so a
    project moved with its index is found again."""
    config = {"version": CONFIG_VERSION,
              "chunker": json.loads(json.dumps(chunker_description, default=str)),
              "embedder": spec if spec is None or isinstance(spec, str) else
              str(spec) if isinstance(spec, Path) else getattr(embedder, "name", str(spec)),
              "model": getattr(embedder, "name", type(embedder).__name__),
              "dim": int(getattr(embedder, "dim", 0) or 0), "root": root}
    if root is not None and index_path is not None:
        try:
            config["root_from_index"] = Path(os.path.relpath(root, index_path)).as_posix()
        except ValueError:  # another drive
            pass
    return config


def sync_documents(store: Store, embedder: Any,
                   documents: Iterable[tuple[Document, Sequence[Chunk]]], *,
                   prune: Callable[[str], bool] | None = None, report: IndexReport | None = None,
                   on_document: Callable[[IndexReport], None] | None = None,
                   state: dict[str, dict[str, str]] | None = None,
                   on_planned: Callable[[str, list[dict[str, Any]]], None] | None = None,
                   gone: Callable[[str], bool] | None = None,
                   twins: Callable[[str], list[str]] | None = None) -> IndexReport:
    """Make the index hold exactly the chunks of ``documents`` for each (one read in
    windows comes as consecutive pairs: synced when whole), calling ``on_document``
    after each and ``on_planned(doc_id, rows)`` once its rows are planned; ``prune``:
    remove each document not given for which ``prune(doc_id)`` is true, except those
    that failed to read (:meth:`IndexReport.note_failed`). ``state``: if read already.
    ``gone``, ``twins``: where new rows look for a vector first (:class:`Reuse`)."""
    report = report if report is not None else IndexReport()
    state = store.state() if state is None else state
    reuse = Reuse(store, state, report, gone, twins)
    current: Document | None = None
    parts: list[Chunk] = []
    pending, pipeline = _Pending(), _Pipeline(store, embedder, report)

    def flush() -> None:
        nonlocal pending
        if current is None:
            return
        report.seen.add(current.doc_id)
        rows = plan_document(store, current.doc_id, parts, state.get(current.doc_id, {}),
                             report, pending, reuse)
        if on_planned is not None:
            on_planned(current.doc_id, rows)
        if pending.size >= BATCH_ROWS:
            pipeline.submit(pending)
            pending = _Pending()
        if on_document is not None:
            on_document(report)

    try:
        try:
            for doc, chunks in documents:
                if doc is not current:
                    flush()
                    current, parts = doc, []
                parts.extend(chunks)
        except (InputError, KeyboardInterrupt):
            pipeline.drain()  # the documents read before the failure are kept
            if pending.documents:
                rows = pending.rows
                write_pending(store, embedder, pending)
                report.written += rows
            raise
        flush()
        if pending.documents:
            pipeline.submit(pending)
        pipeline.drain()
    finally:
        pipeline.close()
    if prune is not None:
        _prune(store, state, report, prune)
    store.finish()
    return report


def _prune(store: Store, state: dict[str, dict[str, str]], report: IndexReport,
           prune: Callable[[str], bool]) -> None:
    """Delete the rows of each document the run did not see that ``prune`` names."""
    for doc_id, ids in state.items():
        if doc_id not in report.seen and prune(doc_id):
            store.delete(list(ids))
            report.removed += 1
