"""``index --check`` and ``--repair``: is the index what a sync leaves?

One row per id, every row with a finite vector of the index's dimension, and every
document's rows one complete chain of neighbours per level (``prev_id``/``next_id``,
as the chunker made them). A repair keeps one row of a duplicated id and removes the
rows of a broken document, which the next sync adds again (nothing else re-embedded);
rows the store cannot read at all (a data file deleted) are all removed, the
configuration kept, and the next sync embeds every document again.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import StoreError
from .store import Store


@dataclass
class CheckReport:
    uri: str
    documents: int = 0
    rows: int = 0
    config: bool = True
    duplicated_ids: int = 0
    bad_vectors: int = 0
    broken_documents: list[str] = field(default_factory=list)
    #: why the rows cannot be read (None: they can)
    unreadable: str | None = None
    repaired: bool = False

    @property
    def clean(self) -> bool:
        return (self.config and not self.duplicated_ids and not self.bad_vectors
                and not self.broken_documents and self.unreadable is None)

    def line(self) -> str:
        if self.unreadable is not None:
            return (f"index {self.uri}: its rows cannot be read ({self.unreadable}): "
                    + ("repaired (every row removed, the configuration kept: the next index "
                       "run embeds every document again)" if self.repaired else
                       "run it again with repair to remove them (the next index run then "
                       "embeds every document again), or index with --rebuild"))
        found = (f"index {self.uri}: {self.documents:,} documents, {self.rows:,} rows; "
                 f"duplicated ids {self.duplicated_ids}, rows without a usable vector "
                 f"{self.bad_vectors}, broken documents {len(self.broken_documents)}"
                 + ("" if self.config else ", configuration unreadable"))
        if self.clean:
            return found + ": clean"
        if self.repaired:
            return (found + ": repaired (one row kept per id; the broken documents' rows "
                    "removed: the next index run adds them again)")
        return found + ": run it again with repair to fix it"


def _chain_complete(rows: list[dict[str, Any]]) -> bool:
    """The rows of one document and level form one chain, first to last."""
    by_id = {r["id"]: r for r in rows}
    heads = [r for r in rows if not r.get("prev_id")]
    if len(heads) != 1:
        return False
    seen = 0
    row: dict[str, Any] | None = heads[0]
    while row is not None and seen <= len(rows):
        seen += 1
        nxt = row.get("next_id")
        if not nxt:
            break
        following = by_id.get(nxt)
        if following is None or following.get("prev_id") != row["id"]:
            return False
        row = following
    return seen == len(rows) == len(by_id)


def check_index(store: Store, repair: bool = False) -> CheckReport:
    report = CheckReport(store.uri)
    try:
        config = store.get_config()
    except Exception:  # unreadable for whatever reason the store has: said, not raised
        config = None
    report.config = config is not None
    try:
        rows, vectors = store.rows()
    except StoreError as exc:
        report.unreadable = exc.problem
        if repair:
            with store.transaction():
                store.reset()
                if config is not None:
                    store.set_config(config)
            report.repaired = True
        return report
    report.rows = len(rows)
    dim = int((config or {}).get("dim") or (vectors.shape[1] if len(rows) else 0))
    counts = Counter(r["id"] for r in rows)
    report.duplicated_ids = sum(1 for n in counts.values() if n > 1)
    groups: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    unique: dict[str, tuple[dict[str, Any], np.ndarray]] = {}
    bad_docs: set[str] = set()
    for row, vec in zip(rows, vectors):
        if row["id"] in unique:
            continue
        unique[row["id"]] = (row, vec)
        groups[(row["doc_id"], int(row.get("level") or 0))].append(row)
        if vec.shape != (dim,) or not np.all(np.isfinite(vec)) or not np.any(vec):
            report.bad_vectors += 1
            bad_docs.add(row["doc_id"])
    report.documents = len({doc for doc, _ in groups})
    bad_docs |= {doc for (doc, _), members in groups.items() if not _chain_complete(members)}
    report.broken_documents = sorted(bad_docs)
    if repair and not report.clean:
        _repair(store, counts, unique, bad_docs)
        report.repaired = True
    return report


def _repair(store: Store, counts: Counter[str], unique: dict[str, tuple[dict[str, Any], Any]],
            bad_docs: set[str]) -> None:
    doubled = [cid for cid, n in counts.items() if n > 1 and unique[cid][0]["doc_id"]
               not in bad_docs]
    with store.transaction():
        if doubled:
            store.delete(doubled)
            store.upsert([unique[c][0] for c in doubled],
                         np.stack([unique[c][1] for c in doubled]))
        broken = [cid for cid, (row, _) in unique.items() if row["doc_id"] in bad_docs]
        if broken:
            store.delete(broken)
    store.finish()
