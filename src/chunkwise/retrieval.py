"""Retrieval over chunks, one implementation for ``search``, ``serve`` and ``eval``:
exact cosine (dense), BM25 (bm25s), and hybrid (the two fused by a weighted sum of
z-scored scores, or by reciprocal-rank fusion), over one index or per document;
and search over a store (its own nearest-neighbour search for dense)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
import threading
import types
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ConfigError
from .filters import Filter
from .index.store import Hit, Store, filtered_search

RETRIEVERS = ("dense", "bm25", "hybrid")
RRF_K = 60
FUSIONS = ("zscore", "rrf")


class Retriever:
    """Ranks chunk indices for questions. ``doc_ids`` restricts each question to
    its own document when ``scope == "document"``.

    Hybrid fuses dense and BM25 either by a weighted sum of per-question z-scored
    scores (``fusion="zscore"``, ``alpha`` = weight of dense, default 0.7), or by
    reciprocal-rank fusion (``fusion="rrf"``). On Chroma's benchmark (recursive,
    160 MiniLM tokens) z-score fusion at 0.7 gave recall 85.0 / IoU 7.6 against
    80.5 / 7.2 for RRF.
    """

    def __init__(self, texts: Sequence[str], chunk_docs: Sequence[str], kind: str = "dense",
                 embedder: Any = None, scope: str = "all", fusion: str = "zscore",
                 alpha: float = 0.7, vectors: np.ndarray | None = None,
                 bm25: Callable[[Sequence[str]], tuple[Any, Any]] | None = None):
        if fusion not in FUSIONS:
            raise ConfigError(f"unknown fusion {fusion!r} (expected {', '.join(FUSIONS)})")
        if not 0.0 <= alpha <= 1.0:
            raise ConfigError(f"alpha must be in [0, 1], got {alpha}")
        if kind not in RETRIEVERS:
            raise ConfigError(f"unknown retriever {kind!r} (expected {', '.join(RETRIEVERS)})")
        if scope not in ("all", "document"):
            raise ConfigError(f"scope must be 'all' or 'document', got {scope!r}")
        if kind != "bm25" and embedder is None:
            raise ConfigError(f"the {kind} retriever needs an embedder")
        self.fusion = fusion
        self.alpha = alpha
        self.kind = kind
        self.scope = scope
        self.chunk_docs = np.asarray(chunk_docs, dtype=object)
        self.embedder = embedder
        # ``vectors``: the texts' embeddings already made (an index stores them)
        self._vectors = None
        if kind in ("dense", "hybrid"):
            self._vectors = (np.asarray(vectors, dtype=np.float32) if vectors is not None
                             else embedder.embed(list(texts)))
        # ``bm25``: how the BM25 statistics are made (a local index's cache of them)
        self._bm25 = (bm25 or _build_bm25)(texts) if kind in ("bm25", "hybrid") else None

    def dense_scores(self, questions: Sequence[str]) -> np.ndarray:
        assert self._vectors is not None
        return np.asarray(self.embedder.embed(list(questions)) @ self._vectors.T)

    def bm25_scores(self, questions: Sequence[str]) -> np.ndarray:
        bm25s = import_bm25s()
        assert self._bm25 is not None
        model, vocab = self._bm25
        q_tokens = bm25s.tokenize(composed(questions), stopwords="en", show_progress=False,
                                  return_ids=False)
        scores = np.zeros((len(questions), len(self.chunk_docs)), dtype=np.float32)
        for i, toks in enumerate(q_tokens):
            toks = [t for t in toks if t in vocab]
            if toks:
                scores[i] = model.get_scores(toks)
        return scores

    def scores(self, questions: Sequence[str], among: np.ndarray | None = None) -> np.ndarray:
        """Each question's score for each chunk (``among``: for those chunk positions
        only): dense, BM25, or their z-score fusion (z-scored among the chunks scored);
        rrf has no scores of its own, so hybrid is always fused by z-score here."""
        def pick(scores: np.ndarray) -> np.ndarray:
            return scores if among is None else scores[:, among]

        if self.kind == "dense":
            return pick(self.dense_scores(questions))
        if self.kind == "bm25":
            return pick(self.bm25_scores(questions))
        return np.asarray(self.alpha * zscore(pick(self.dense_scores(questions)))
                          + (1.0 - self.alpha) * zscore(pick(self.bm25_scores(questions))))

    def rank(self, questions: Sequence[str], question_docs: Sequence[str],
             depth: int) -> list[list[int]]:
        """For each question, up to ``depth`` chunk indices, best first."""
        depth = max(1, min(depth, len(self.chunk_docs)))
        if self.kind != "hybrid" or self.fusion == "zscore":
            return self._top(self.scores(questions), question_docs, depth)
        pool = min(len(self.chunk_docs), 100)
        dense = self._top(self.dense_scores(questions), question_docs, pool)
        sparse = self._top(self.bm25_scores(questions), question_docs, pool)
        out: list[list[int]] = []
        for d, s in zip(dense, sparse):
            score: dict[int, float] = {}
            for ranking in (d, s):
                for rank, idx in enumerate(ranking):
                    score[idx] = score.get(idx, 0.0) + 1.0 / (RRF_K + rank + 1)
            out.append(sorted(score, key=lambda i: (-score[i], i))[:depth])
        return out

    def _top(self, scores: np.ndarray, question_docs: Sequence[str],
             depth: int) -> list[list[int]]:
        if self.scope == "document":
            mask = self.chunk_docs[None, :] != np.asarray(question_docs, dtype=object)[:, None]
            scores = np.where(mask, -np.inf, scores)
        out: list[list[int]] = []
        for row in scores:
            idx = np.argpartition(-row, depth - 1)[:depth] if depth < len(row) else np.arange(len(row))
            idx = idx[np.argsort(-row[idx], kind="stable")]
            out.append([int(i) for i in idx[np.isfinite(row[idx])]])
        return out


def _build_bm25(texts: Sequence[str]) -> tuple[Any, Any]:
    bm25s = import_bm25s()
    tokens = bm25s.tokenize(composed(texts), stopwords="en", show_progress=False)
    if not tokens.vocab:  # no text has a term (rules, stop words only): every score is 0
        return None, {}
    model = bm25s.BM25()
    model.index(tokens, show_progress=False)
    return model, tokens.vocab


#: where a local index keeps BM25's statistics for its latest version (a cold ``search``
#: built them from every row's text: ~2 s for 19,000 rows on a slow 2-core machine)
BM25_DIR = "chunkwise-bm25"
#: what the statistics depend on besides the rows: a change makes them be built again
BM25_RULE = {"stopwords": "en", "layout": 1, "unicode": "NFC"}


def composed(texts: Sequence[str]) -> list[str]:
    """The texts in Unicode's composed form (NFC) for BM25's words: a text written
    with combining marks ("cafe" and U+0301, as macOS and some editors store it, Korean
    jamo) split "café" into "cafe" and a mark no question holds, so a question typed
    as keyboards type it matched nothing."""
    return [t if t.isascii() or unicodedata.is_normalized("NFC", t)
            else unicodedata.normalize("NFC", t) for t in texts]


def cached_bm25(folder: Path, ids: Sequence[str], texts: Sequence[str]) -> tuple[Any, Any]:
    """:func:`_build_bm25` of ``texts``, kept in ``folder`` for the rows ``ids`` (in
    order): read back (memory-mapped) when the rows are the same, else built and
    written (whole, under another name, then moved in); any failure to read or write
    them only means building them."""
    import hashlib
    import json
    import shutil

    digest = hashlib.sha256("\n".join(ids).encode("utf-8", "surrogatepass")).hexdigest()
    key = {**BM25_RULE, "bm25s": _bm25s_version(), "rows": digest}
    try:
        if json.loads((folder / "chunkwise.json").read_text("utf-8")) == key:
            model = import_bm25s().BM25.load(str(folder), mmap=True, show_progress=False)
            return model, model.vocab_dict
    except Exception:  # none yet, another version's, or half replaced: built again
        pass
    model, vocab = _build_bm25(texts)
    if model is None:
        return model, vocab
    tmp = folder.with_name(f".{folder.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        model.save(str(tmp), show_progress=False)
        (tmp / "chunkwise.json").write_text(json.dumps(key), "utf-8")  # last: complete
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
    except OSError:  # a read-only index (or another search moved its own in first)
        shutil.rmtree(tmp, ignore_errors=True)
    return model, vocab


def _bm25s_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bm25s")
    except PackageNotFoundError:
        return "unknown"


_BM25S_LOCK = threading.Lock()
#: what bm25s imports at its top and, as chunkwise calls it, never uses: SciPy's sparse
#: matrices (its default CSC backend is NumPy's) and tqdm's front ends (no progress
#: bars); with NumPy's ``f2py``, which SciPy's array API layer imports, ~0.2 s of a
#: cold ``search`` (bm25s 0.23 s of a 1.2 s hybrid search, 1,166 rows); their packages
#: too, which an import of the modules would load before failing (SciPy's ~40 ms, tqdm's
#: ~30 ms, with its command line and ``email``)
_BM25S_UNUSED = ("scipy", "scipy.sparse", "tqdm", "tqdm.auto")


def import_bm25s() -> Any:
    """``bm25s``, imported the first time without :data:`_BM25S_UNUSED` (a finder
    fails them on the importing thread, where bm25s falls back, as it does when they
    are not installed); the module then gets them back, imported when first used
    (``BM25(csc_backend="scipy")``, a progress bar), so it behaves as a plain
    ``import bm25s`` would for any other caller."""
    if "bm25s" in sys.modules:
        return sys.modules["bm25s"]
    with _BM25S_LOCK:
        hidden = tuple(name for name in _BM25S_UNUSED if name not in sys.modules)
        blocker = _Hidden(hidden)
        sys.meta_path.insert(0, blocker)
        try:
            import bm25s
        finally:
            sys.meta_path.remove(blocker)
        if "scipy.sparse" in hidden and not bm25s.SCIPY_AVAILABLE and \
                importlib.util.find_spec("scipy") is not None:
            bm25s.sp, bm25s.SCIPY_AVAILABLE = _LazyModule("scipy.sparse"), True
        if "tqdm.auto" in hidden and importlib.util.find_spec("tqdm") is not None \
                and not os.environ.get("DISABLE_TQDM"):  # (bm25s's own switch)
            for name, module in list(sys.modules.items()):  # each module took its own
                if name.partition(".")[0] == "bm25s" and \
                        getattr(getattr(module, "tqdm", None), "__name__", "") == "_faketqdm":
                    setattr(module, "tqdm", _tqdm)  # noqa: B010 - a module's global
    return bm25s


class _Hidden:
    """A finder that fails the import of some modules on one thread."""

    def __init__(self, names: tuple[str, ...]):
        self.names, self.thread = names, threading.get_ident()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name in self.names and threading.get_ident() == self.thread:
            raise ImportError(f"{name} is imported when first used", name=name)
        return None


class _LazyModule(types.ModuleType):
    """A module imported at its first attribute."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self.__name__), attr)


def _tqdm(*args: Any, **kwargs: Any) -> Any:
    """tqdm's bar, imported when one is shown (a bar switched off, as bm25s asks for
    one on every call: the iterable itself, as bm25s's own stand-in gives)."""
    if args and kwargs.get("disable"):
        return args[0]
    from tqdm.auto import tqdm

    return tqdm(*args, **kwargs)


def zscore(scores: np.ndarray) -> np.ndarray:
    """Each row's scores less their mean, over their standard deviation."""
    mean = scores.mean(axis=1, keepdims=True)
    std = scores.std(axis=1, keepdims=True)
    return np.asarray((scores - mean) / np.where(std > 0, std, 1.0))


class RowSearch:
    """Search over a fixed set of rows (an index read once): the retriever, with its
    BM25 statistics and the stored vectors, built once per kind and reused for every
    query (a server keeps one per index version)."""

    def __init__(self, rows: list[dict[str, Any]], vectors: np.ndarray, embedder: Any,
                 boilerplate: set[str] | None = None, cache: Path | None = None):
        self.rows = rows
        self.vectors = vectors
        self.embedder = embedder
        #: where BM25's statistics for these rows are kept between processes (None: not)
        self.cache = cache
        self._retrievers: dict[tuple[str, bool, bool], tuple[Retriever, list[int]]] = {}
        self._allowed: dict[tuple[Filter, bool, bool], np.ndarray] = {}
        self._boilerplate: set[str] | None = boilerplate
        self._doc_rows: dict[str, int] | None = None

    @property
    def boilerplate(self) -> set[str]:
        """The ids of the rows that are boilerplate (:mod:`chunkwise.boilerplate`),
        found once."""
        if self._boilerplate is None:
            from .boilerplate import row_boilerplate_ids

            self._boilerplate = row_boilerplate_ids(self.rows)
        return self._boilerplate

    def _retriever(self, kind: str, leaves_only: bool, boilerplate: bool = True,
                   ) -> tuple[Retriever, list[int]]:
        key = (kind, leaves_only, boilerplate)
        if key not in self._retrievers:
            which = list(range(len(self.rows)))
            if leaves_only:
                parents = {r["parent_id"] for r in self.rows if r.get("parent_id")}
                if not parents:
                    raise ConfigError("expand needs a hierarchical index (chunks with parents)")
                which = [i for i in which if self.rows[i]["id"] not in parents]
            if not boilerplate and self.boilerplate:
                which = [i for i in which if self.rows[i]["id"] not in self.boilerplate]
            rows = [self.rows[i] for i in which]
            cache = self.cache
            made = (None if cache is None else
                    lambda texts: cached_bm25(cache, [r["id"] for r in rows], texts))
            retr = Retriever([r["embed_text"] for r in rows], [r["doc_id"] for r in rows],
                             kind=kind, embedder=self.embedder, vectors=self.vectors[which],
                             bm25=made)
            self._retrievers[key] = (retr, which)
        return self._retrievers[key]

    def search(self, query: str, k: int, retriever: str = "hybrid",
               expand: bool = False, where: Filter | None = None,
               include_boilerplate: bool = False) -> list[Hit]:
        """The ``k`` best rows for ``query``; ``expand``: rank the smallest chunks and
        return their parents, each once, in the order of their best child. ``where``:
        only rows it matches are ranked (with ``expand``, the small chunks), and
        hybrid's z-scores are taken over those rows. Boilerplate rows are not ranked
        unless ``include_boilerplate`` (then a hit that is one has
        ``metadata.boilerplate`` set)."""
        if not self.rows:
            return []
        retr, which = self._retriever(retriever, expand, include_boilerplate)
        if not which:
            return []
        fetch = k * COPIES_FETCH
        if not where:  # scored once (the query embedded once), ranked as rank() does
            scores = retr.scores([query])[0]
            order = retr._top(scores[None, :], [""], len(which) if expand else fetch)[0]
        else:
            allowed = self._allowed_rows(where, expand, which, include_boilerplate)
            scores = np.full(len(which), -np.inf, dtype=np.float32)
            if len(allowed):
                scores[allowed] = retr.scores([query], allowed)[0]
            depth = len(allowed) if expand else min(fetch, len(allowed))
            order = [int(i) for i in allowed[np.argsort(-scores[allowed], kind="stable")][:depth]]
        hits = [Hit(float(scores[i]), self.rows[which[i]]) for i in order]
        if include_boilerplate:
            hits = self.marked(hits)
        if not expand:
            return collapse_copies(hits, self.doc_rows)[:k]
        by_id = {r["id"]: r for r in self.rows}
        out: list[Hit] = []
        taken: set[str] = set()
        for hit in hits:
            parent = by_id.get(hit.row.get("parent_id") or "", hit.row)
            if parent["id"] not in taken:
                taken.add(parent["id"])
                out.append(Hit(hit.score, parent))
            if len(out) == fetch:
                break
        return collapse_copies(out, self.doc_rows)[:k]

    @property
    def doc_rows(self) -> dict[str, int]:
        """Rows per document, counted once."""
        if self._doc_rows is None:
            self._doc_rows = {}
            for r in self.rows:
                self._doc_rows[r["doc_id"]] = self._doc_rows.get(r["doc_id"], 0) + 1
        return self._doc_rows

    def marked(self, hits: list[Hit]) -> list[Hit]:
        """The hits, those that are boilerplate with ``metadata.boilerplate`` set."""
        from .boilerplate import marked

        flagged = self.boilerplate
        return [Hit(h.score, marked(h.row)) if h.row["id"] in flagged else h for h in hits]

    def _allowed_rows(self, where: Filter, leaves_only: bool, which: list[int],
                      boilerplate: bool = True) -> np.ndarray:
        """Positions (in ``which``) of the rows ``where`` matches, kept per filter."""
        key = (where, leaves_only, boilerplate)
        if key not in self._allowed:
            if len(self._allowed) >= 256:
                self._allowed.clear()
            self._allowed[key] = np.asarray([i for i, row in enumerate(which)
                                             if where.matches(self.rows[row])], dtype=np.int64)
        return self._allowed[key]


def search(store: Store, query: str, embedder: Any, *, k: int = 5,
           retriever: str = "hybrid", expand: bool = False,
           where: Filter | None = None, include_boilerplate: bool = False) -> list[Hit]:
    """The ``k`` best chunks for ``query``. ``dense``: the store's own
    nearest-neighbour search by cosine similarity (the ranking of the evaluation's
    dense retriever, without loading the index). ``bm25`` and ``hybrid``: the
    evaluation's retriever (one implementation) over every row of the index, with
    the stored vectors. ``expand`` (a hierarchical index): rank the smallest
    chunks, return their parents, each once, in the order of their best child.
    ``where``: only chunks it matches (:class:`~chunkwise.filters.Filter`; dense
    pushes what the store can test into its own search). Chunks that are
    boilerplate across the index's documents (:mod:`chunkwise.boilerplate`: found
    from the rows' texts at each search) are not ranked unless
    ``include_boilerplate``, which marks them ``metadata.boilerplate``."""
    if retriever not in RETRIEVERS:
        raise ConfigError(f"unknown retriever {retriever!r} (expected {', '.join(RETRIEVERS)})")
    if retriever == "dense" and not expand:
        vector = np.asarray(embedder.embed([query]), dtype=np.float32)[0]
        return dense_search(store, vector, k, where, stored_boilerplate(store),
                            include_boilerplate)
    return row_search(store, embedder).search(query, k, retriever, expand, where,
                                              include_boilerplate)


def row_search(store: Store, embedder: Any) -> RowSearch:
    """A :class:`RowSearch` over every row of ``store``, with the boilerplate and (a
    local index) BM25's statistics kept beside it for its rows, not built again."""
    rows, vectors = store.rows()
    boilerplate = stored_boilerplate(store, rows)
    cache = (store.local_path / BM25_DIR
             if store.local_path is not None and store.version() is not None else None)
    return RowSearch(rows, vectors, embedder, boilerplate, cache)


#: where a local index keeps the boilerplate it found for its latest version
BOILERPLATE_FILE = "chunkwise-boilerplate.json"


def stored_boilerplate(store: Store, rows: list[dict[str, Any]] | None = None) -> set[str]:
    """The ids of the index's boilerplate chunks (:mod:`chunkwise.boilerplate`): found
    from the rows' texts (``rows``: the rows already read, else their texts are), and
    for a local store with versions kept beside it for that version (the first search
    after a write pays for it, not every one: it reads every row's text)."""
    import json
    import os

    from . import boilerplate as bp

    version = store.version()
    path = (store.local_path / BOILERPLATE_FILE
            if store.local_path is not None and version is not None else None)
    rule = [bp.MIN_DOCS, bp.MIN_SHARE, bp.SHARE, bp.MIN_ALNUM, bp.COPY_SHARE,
            bp.CONTENTS_ENTRY_CHARS, bp.LINK_TABLE_SHARE]  # an earlier rule's file: found again
    if path is not None:
        try:
            data = json.loads(path.read_text("utf-8"))
            if data.get("version") == str(version) and data.get("rule") == rule:
                return set(data["ids"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # none yet, or unreadable: found again
    ids = (bp.row_boilerplate_ids(rows) if rows is not None
           else bp.boilerplate_ids(store.texts()))
    if path is not None:
        tmp = path.with_name(f".{BOILERPLATE_FILE}.{os.getpid()}.tmp")
        try:  # written whole, then renamed; a read-only index is searched all the same
            tmp.write_text(json.dumps({"version": str(version), "rule": rule,
                                       "ids": sorted(ids)}), "utf-8")
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
    return ids


def dense_search(store: Store, vector: np.ndarray, k: int, where: Filter | None,
                 boilerplate: set[str], include_boilerplate: bool = False) -> list[Hit]:
    """The store's own nearest-neighbour search, the ``boilerplate`` ids left out
    (asked for more while they took places) or, with ``include_boilerplate``, marked."""
    from .boilerplate import marked

    fetch = k * COPIES_FETCH
    while True:
        found = filtered_search(store, vector, fetch, where)
        if include_boilerplate:
            kept = [Hit(h.score, marked(h.row)) if h.row["id"] in boilerplate else h
                    for h in found]
        else:
            kept = [h for h in found if h.row["id"] not in boilerplate]
        distinct = collapse_copies(kept)
        if len(distinct) >= k or len(found) < fetch:
            return distinct[:k]
        fetch *= 4


#: hits asked for per hit returned, so that copies folded together leave k
COPIES_FETCH = 3


def collapse_copies(hits: list[Hit], doc_rows: dict[str, int] | None = None) -> list[Hit]:
    """Hits of the same text (whitespace aside) in several documents as one (a page
    and the site's print-all page, one guide in two folders: each took a place of
    the top k), in rank order: the best-ranked copy, among equal scores the one from
    the document with the fewest rows (``doc_rows``: the page, not the print-all) at
    the best copy's score, its row given ``copies``: where the others are (``doc_id``, ``source``, ``start``,
    ``end``). A hit with no copy is returned as it was."""
    groups: dict[str, list[Hit]] = {}
    for h in hits:
        groups.setdefault(" ".join(str(h.row.get("text") or "").split()), []).append(h)
    out: list[Hit] = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        top = group[0].score
        equal = [h for h in group if abs(h.score - top) <= 1e-6 * max(1.0, abs(top))]
        best = min(equal, key=lambda h: (doc_rows or {}).get(h.row.get("doc_id") or "", 0))
        copies = [{f: h.row.get(f) for f in ("doc_id", "source", "start", "end")}
                  for h in group if h is not best]
        # the group's score (its rank), not the chosen copy's: equal within 1e-6
        out.append(Hit(top, {**best.row, "copies": copies}))
    return out


def search_rows(rows: list[dict[str, Any]], vectors: np.ndarray, query: str, embedder: Any,
                *, k: int, retriever: str, include_boilerplate: bool = False) -> list[Hit]:
    return RowSearch(rows, vectors, embedder).search(query, k, retriever,
                                                     include_boilerplate=include_boilerplate)
