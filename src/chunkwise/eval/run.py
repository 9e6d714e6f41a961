"""Evaluate one chunking configuration (or chunks made by any tool) on a dataset."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..chunkers import Chunker
from ..errors import ChunkwiseError
from ..types import Chunk
from . import metrics
from .data import Dataset, DatasetError, iter_jsonl
from .retrieval import Retriever

METRIC_KEYS = ("recall", "precision", "precision_omega", "iou", "full_evidence",
               "budget_recall", "mrr")


@dataclass(frozen=True, slots=True)
class Span:
    """What scoring needs of a chunk."""

    doc_id: str
    start: int
    end: int
    embed_text: str
    token_count: int
    kind: str = "prose"
    id: str = ""
    parent_id: str | None = None
    level: int = 0


@dataclass
class Result:
    metrics: dict[str, float]
    n_questions: int
    n_chunks: int
    config: dict
    by_corpus: dict[str, dict[str, float]] = field(default_factory=dict)
    by_tag: dict[str, dict[str, float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    retrieved_tokens: float = 0.0
    #: recall (percent) at each budget of retrieved tokens, for the recall/tokens chart
    curve: dict[int, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {**{k: round(v, 2) for k, v in self.metrics.items()},
                "n_questions": self.n_questions, "n_chunks": self.n_chunks,
                "mean_retrieved_tokens": round(self.retrieved_tokens, 1),
                "config": self.config, "curve": self.curve, "by_corpus": self.by_corpus, "by_tag": self.by_tag,
                "seconds": {k: round(v, 2) for k, v in self.seconds.items()}}


def spans_from_chunks(chunks: Iterable[Chunk]) -> list[Span]:
    return [Span(c.doc_id, c.start, c.end, c.embed_text, c.token_count, c.kind, c.id,
                 c.parent_id, c.level) for c in chunks]


def spans_from_jsonl(path: str | Path, dataset: Dataset, tokenizer=None) -> list[Span]:
    """Chunks written by any tool: JSON Lines with doc_id and text, and start/end
    where the tool knows them (else located with a forward search, the way
    Chroma's harness does). doc_id may also be a path whose stem names the corpus."""
    from ..tokens import get_tokenizer

    count = get_tokenizer(tokenizer).count
    by_stem = {Path(d).stem: d for d in dataset.documents}
    cursors: dict[str, int] = defaultdict(int)
    spans = []
    for line_no, row in iter_jsonl(path):
        try:
            doc_id = str(row["doc_id"])
            text = row["text"]
        except (KeyError, TypeError) as exc:
            raise DatasetError(f"{path}:{line_no}: malformed chunk ({exc})") from None
        doc_id = doc_id if doc_id in dataset.documents else by_stem.get(Path(doc_id).stem, doc_id)
        doc = dataset.documents.get(doc_id)
        if doc is None:
            raise DatasetError(f"{path}:{line_no}: unknown doc_id {row['doc_id']!r}")
        start = row.get("start")
        if start is None:
            start = doc.text.find(text, cursors[doc_id])
            if start < 0:
                start = doc.text.find(text)
            if start < 0:
                raise DatasetError(f"{path}:{line_no}: chunk text not found in {doc_id}")
        end = row.get("end", start + len(text))
        cursors[doc_id] = start + 1
        embed_text = row.get("embed_text") or text
        n = row.get("token_count") or count(embed_text)
        spans.append(Span(doc_id, int(start), int(end), embed_text, int(n),
                          row.get("kind", "prose"), row.get("id", f"{line_no}"),
                          row.get("parent_id"), int(row.get("level", 0) or 0)))
    return spans


def evaluate(dataset: Dataset, chunker: Chunker | None = None, spans: Sequence[Span] | None = None,
             retriever: str = "dense", k: int = 5, embedder=None, scope: str = "all",
             budget: int = 1000, expand: str | None = None, neighbours: int = 0,
             fusion: str = "zscore", alpha: float = 0.7,
             config: dict | None = None,
             curve_budgets: Sequence[int] = (125, 250, 500, 1000, 2000, 4000)) -> Result:
    """Chunk (or take ``spans``), index, retrieve top-k per question, score.

    ``expand="parents"`` replaces hierarchical hits by their parents (deduplicated);
    ``neighbours=N`` adds the N chunks either side of every table hit.
    """
    from ..embed import get_embedder

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if spans is None:
        if chunker is None:
            raise ChunkwiseError("evaluate needs a chunker or chunks")
        spans = []
        for doc in dataset.documents.values():
            spans.extend(spans_from_chunks(chunker.chunk_document(doc)))
        config = {**chunker.config(), **(config or {})}
    timings["chunk"] = time.perf_counter() - t0
    spans = list(spans)
    if not spans:
        raise ChunkwiseError("no chunks to evaluate")

    by_id = {s.id: s for s in spans if s.id}
    has_children = {s.parent_id for s in spans if s.parent_id}
    leaves = [s for s in spans if s.id not in has_children] if has_children else spans
    emb = get_embedder(embedder) if retriever != "bm25" else None

    t0 = time.perf_counter()
    index = Retriever([s.embed_text for s in leaves], [s.doc_id for s in leaves], retriever,
                      emb, scope, fusion=fusion, alpha=alpha)
    timings["index"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    depth = max(k, 100)
    rankings = index.rank([q.question for q in dataset.questions],
                          [q.doc_id for q in dataset.questions], depth)
    timings["retrieve"] = time.perf_counter() - t0

    doc_order: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(leaves):
        doc_order[s.doc_id].append(i)
    position = {i: (doc, n) for doc, idxs in doc_order.items() for n, i in enumerate(idxs)}
    per_doc_spans = {doc: [(leaves[i].start, leaves[i].end) for i in idxs]
                     for doc, idxs in doc_order.items()}

    rows, tokens_used = [], []
    curve_rows: dict[int, list[float]] = {b: [] for b in curve_budgets}
    for q, ranking in zip(dataset.questions, rankings):
        top = list(ranking[:k])
        if neighbours:
            extra = []
            for i in top:
                if leaves[i].kind == "table":
                    doc, n = position[i]
                    idxs = doc_order[doc]
                    extra += [idxs[j] for j in range(max(0, n - neighbours),
                                                     min(len(idxs), n + neighbours + 1))]
            top = list(dict.fromkeys(top + extra))
        hits = [leaves[i] for i in top]
        if expand == "parents":
            hits = list({id(p): p for p in (by_id.get(h.parent_id, h) if h.parent_id else h
                                            for h in hits)}.values())
        refs = [(r.start, r.end) for r in q.references]
        retrieved = [(h.start, h.end) for h in hits if h.doc_id == q.doc_id]
        recall, precision, iou = metrics.span_scores(retrieved, refs)
        # precision and IoU divide by everything retrieved, other documents included
        other = sum(h.end - h.start for h in hits if h.doc_id != q.doc_id)
        if other:
            covered = recall * sum(e - s for s, e in metrics._merge(refs))
            total = sum(e - s for s, e in retrieved) + other
            precision = covered / total
            ref_len = sum(e - s for s, e in metrics._merge(refs))
            iou = covered / (total + ref_len - covered)
        ranked_all = [leaves[i] for i in ranking]
        ranked = [(h.start, h.end) if h.doc_id == q.doc_id else (-2, -1) for h in ranked_all]
        budget_hits = metrics.budget_spans(ranked, [h.token_count for h in ranked_all], budget)
        b_recall, _, _ = metrics.span_scores([s for s in budget_hits if s[0] >= 0], refs)
        token_counts = [h.token_count for h in ranked_all]
        for b in curve_budgets:
            hits_b = metrics.budget_spans(ranked, token_counts, b)
            curve_rows[b].append(metrics.span_scores([s for s in hits_b if s[0] >= 0], refs)[0])
        rows.append({
            "recall": recall, "precision": precision, "iou": iou,
            "precision_omega": metrics.precision_omega(per_doc_spans.get(q.doc_id, []), refs),
            "full_evidence": metrics.full_evidence(retrieved, refs),
            "budget_recall": b_recall,
            "mrr": metrics.reciprocal_rank([s for s in ranked[:k]], refs),
        })
        tokens_used.append(sum(h.token_count for h in hits))

    def mean(selected):
        if not selected:
            return {key: 0.0 for key in METRIC_KEYS}
        return {key: 100.0 * float(np.mean([r[key] for r in selected])) for key in METRIC_KEYS}

    by_corpus, by_tag = defaultdict(list), defaultdict(list)
    for q, r in zip(dataset.questions, rows):
        by_corpus[q.doc_id].append(r)
        for t in q.tags:
            by_tag[t].append(r)
    cfg = dict(config or {})
    cfg.update({"retriever": retriever, "k": k, "scope": scope,
                "embedder": emb.name if emb is not None else None})
    if retriever == "hybrid":
        cfg["fusion"] = fusion
        if fusion == "zscore":
            cfg["alpha"] = alpha
    if expand:
        cfg["expand"] = expand
    if neighbours:
        cfg["neighbours"] = neighbours
    return Result(
        metrics=mean(rows), n_questions=len(rows), n_chunks=len(leaves), config=cfg,
        by_corpus={d: {k_: round(v, 2) for k_, v in mean(rs).items()} for d, rs in by_corpus.items()},
        by_tag={t: {k_: round(v, 2) for k_, v in mean(rs).items()} for t, rs in by_tag.items()},
        seconds=timings, retrieved_tokens=float(np.mean(tokens_used)) if tokens_used else 0.0,
        curve={b: round(100.0 * float(np.mean(v)), 2) for b, v in curve_rows.items() if v})
