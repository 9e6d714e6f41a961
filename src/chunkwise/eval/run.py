"""Evaluate one chunking configuration (or chunks made by any tool) on a dataset."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ChunkwiseError
from ..retrieval import Retriever
from ..strategies import Chunker
from ..types import Chunk
from . import metrics
from .answers import ANSWER_KEYS, Answerer, Item, Passage
from .data import Dataset, DatasetError, Question, iter_jsonl

CURVE_BUDGETS = (125, 250, 500, 1000, 2000, 4000)
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
    config: dict[str, Any]
    by_corpus: dict[str, dict[str, float]] = field(default_factory=dict)
    by_tag: dict[str, dict[str, float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    retrieved_tokens: float = 0.0
    #: recall (percent) at each budget of retrieved tokens, for the recall/tokens chart
    curve: dict[int, float] = field(default_factory=dict)
    #: chunks longer than the embedder reads (their tails are ignored when embedding)
    truncated: int = 0
    warnings: list[str] = field(default_factory=list)
    #: with answers: one record per question (question, answer, grades, context chunks)
    answers: list[dict[str, Any]] = field(default_factory=list)
    #: with answers: mean tokens of the context the LLM was given
    context_tokens: float = 0.0
    #: each question's metrics (fractions; answer grades None where not given), in the
    #: dataset's order: what paired comparisons of two runs need (``tune``)
    per_question: list[dict[str, float | None]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = {**{k: round(v, 2) for k, v in self.metrics.items()},
               "n_questions": self.n_questions, "n_chunks": self.n_chunks,
               "truncated": self.truncated,
               "mean_retrieved_tokens": round(self.retrieved_tokens, 1),
               "config": self.config, "curve": self.curve, "by_corpus": self.by_corpus,
               "by_tag": self.by_tag,
               "seconds": {k: round(v, 2) for k, v in self.seconds.items()}}
        if self.answers:
            out["mean_context_tokens"] = round(self.context_tokens, 1)
        return out


def spans_from_chunks(chunks: Iterable[Chunk]) -> list[Span]:
    return [Span(c.doc_id, c.start, c.end, c.embed_text, c.token_count, c.kind, c.id,
                 c.parent_id, c.level) for c in chunks]


def spans_from_jsonl(path: str | Path, dataset: Dataset, tokenizer: Any = None) -> list[Span]:
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
             retriever: str = "hybrid", k: int = 5, embedder: Any = None, scope: str = "all",
             budget: int = 1000, expand: str | None = None, neighbours: int = 0,
             fusion: str = "zscore", alpha: float = 0.7, config: dict[str, Any] | None = None,
             curve_budgets: Sequence[int] = CURVE_BUDGETS,
             answerer: Answerer | None = None, include_boilerplate: bool = False) -> Result:
    """Chunk (or take ``spans``), index, retrieve top-k per question, score.

    ``expand="parents"`` replaces hierarchical hits by their parents (deduplicated);
    ``neighbours=N`` adds the N chunks either side of every table hit. With an
    ``answerer``, each question is also answered from its ranking's chunks within
    ``budget`` tokens and the answer graded (:mod:`chunkwise.eval.answers`).
    Boilerplate chunks (:mod:`chunkwise.boilerplate`) are not ranked unless
    ``include_boilerplate``, as in ``search``."""
    from ..embed import get_embedder

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    spans, config = _chunked(dataset, chunker, spans, config)
    timings["chunk"] = time.perf_counter() - t0

    by_id = {s.id: s for s in spans if s.id}
    leaves, left_out = _leaves(dataset, spans, include_boilerplate)
    emb = get_embedder(embedder) if retriever != "bm25" else None
    truncated, warnings_ = _truncation(emb, leaves)

    t0 = time.perf_counter()
    index = Retriever([s.embed_text for s in leaves], [s.doc_id for s in leaves], retriever,
                      emb, scope, fusion=fusion, alpha=alpha)
    timings["index"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    rankings = index.rank([q.question for q in dataset.questions],
                          [q.doc_id for q in dataset.questions], max(k, 100))
    timings["retrieve"] = time.perf_counter() - t0

    scorer = _Scorer(leaves, by_id, k, budget, expand, neighbours, curve_budgets)
    rows: list[dict[str, float | None]] = [
        dict(scorer.score(q, ranking)) for q, ranking in zip(dataset.questions, rankings)]
    records: list[dict[str, Any]] = []
    context_tokens = 0.0
    if answerer is not None:
        t0 = time.perf_counter()
        records, context_tokens = _answered(answerer, scorer, dataset.questions, rankings, rows)
        timings["answers"] = time.perf_counter() - t0

    by_corpus, by_tag = _grouped(dataset.questions, rows)
    cfg = _run_config(config, retriever=retriever, k=k, scope=scope, emb=emb, fusion=fusion,
                      alpha=alpha, expand=expand, neighbours=neighbours)
    cfg.update({"include_boilerplate": True} if left_out is None else
               {"boilerplate_excluded": left_out} if left_out else {})
    if answerer is not None:
        cfg.update(answerer.describe(), budget=budget)
    return Result(
        metrics=_mean(rows), n_questions=len(rows), n_chunks=len(leaves), config=cfg,
        by_corpus=by_corpus, by_tag=by_tag,
        seconds=timings, retrieved_tokens=float(np.mean(scorer.tokens_used)) if rows else 0.0,
        curve={b: round(100.0 * float(np.mean(v)), 2) for b, v in scorer.curve.items() if v},
        truncated=truncated, warnings=warnings_, answers=records, context_tokens=context_tokens,
        per_question=rows)


def _leaves(dataset: Dataset, spans: Sequence[Span], include_boilerplate: bool,
            ) -> tuple[list[Span], int | None]:
    """The chunks that are ranked: those without children, less boilerplate unless
    ``include_boilerplate``; and how many were left out as boilerplate (None: not
    looked for)."""
    has_children = {s.parent_id for s in spans if s.parent_id}
    leaves = [s for s in spans if s.id not in has_children]
    return (leaves, None) if include_boilerplate else _without_boilerplate(dataset, leaves)


def _without_boilerplate(dataset: Dataset, leaves: list[Span]) -> tuple[list[Span], int]:
    """The chunks that are not boilerplate across the dataset's documents, and how
    many were."""
    from ..boilerplate import boilerplate_ids

    def text(s: Span) -> str:
        doc = dataset.documents.get(s.doc_id)
        return doc.text[s.start:s.end] if doc is not None else ""

    flagged = boilerplate_ids((str(i), s.doc_id, text(s)) for i, s in enumerate(leaves))
    if not flagged:
        return leaves, 0
    return [s for i, s in enumerate(leaves) if str(i) not in flagged], len(flagged)


def _truncation(emb: Any, leaves: Sequence[Span]) -> tuple[int, list[str]]:
    """How many chunks are longer than the embedder reads, and the warning saying so."""
    truncated = count_truncated(emb, [s.embed_text for s in leaves]) if emb is not None else 0
    if not truncated:
        return 0, []
    return truncated, [f"{truncated} of {len(leaves)} chunks are longer than {emb.name} reads "
                       f"({embedder_limit(emb)} tokens): their tails are ignored when embedding"]


def _grouped(questions: Sequence[Question], rows: Sequence[dict[str, float | None]],
             ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """The metrics per corpus (document) and per tag."""
    by_corpus: dict[str, list[dict[str, float | None]]] = defaultdict(list)
    by_tag: dict[str, list[dict[str, float | None]]] = defaultdict(list)
    for q, r in zip(questions, rows):
        by_corpus[q.doc_id].append(r)
        for t in q.tags:
            by_tag[t].append(r)
    return ({d: _rounded(_mean(rs)) for d, rs in by_corpus.items()},
            {t: _rounded(_mean(rs)) for t, rs in by_tag.items()})


def _answered(answerer: Answerer, scorer: _Scorer, questions: Sequence[Question],
              rankings: Sequence[Sequence[int]], rows: list[dict[str, float | None]],
              ) -> tuple[list[dict[str, Any]], float]:
    """Every question answered from its context and graded: the grades go into its
    row; returns a record per question and the mean context tokens."""
    items = [scorer.context(q, ranking) for q, ranking in zip(questions, rankings)]
    graded = answerer.grade_all(items)
    records = []
    for row, item, g in zip(rows, items, graded):
        row.update(g.scores())
        records.append({"question": item.question.question, "doc_id": item.question.doc_id,
                        "answer": g.answer, **g.scores(), "reasons": g.reasons,
                        "context": [p.id for p in item.passages],
                        "context_tokens": item.context_tokens})
    return records, float(np.mean([it.context_tokens for it in items])) if items else 0.0


def _chunked(dataset: Dataset, chunker: Chunker | None, spans: Sequence[Span] | None,
             config: dict[str, Any] | None) -> tuple[list[Span], dict[str, Any] | None]:
    """The spans to score (``spans``, or the chunker's over every document), and the
    configuration to report."""
    if spans is None:
        if chunker is None:
            raise ChunkwiseError("evaluate needs a chunker or chunks")
        spans = []
        for doc in dataset.documents.values():
            spans.extend(spans_from_chunks(chunker.chunk_document(doc)))
        config = {**chunker.describe(), **(config or {})}
    spans = list(spans)
    if not spans:
        raise ChunkwiseError("the chunking produced no chunks to evaluate")
    return spans, config


def _run_config(config: dict[str, Any] | None, *, retriever: str, k: int, scope: str,
                emb: Any, fusion: str, alpha: float, expand: str | None,
                neighbours: int) -> dict[str, Any]:
    """The configuration a result reports: the chunker's and the retrieval settings that
    apply (fusion only for hybrid, alpha only for its z-score fusion, ...)."""
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
    return cfg


def _mean(rows: Sequence[dict[str, float | None]]) -> dict[str, float]:
    """Each metric's mean in percent; an answer metric over the questions that have it
    (a judgement that could not be read is left out), and only when some have it."""
    if not rows:
        return {key: 0.0 for key in METRIC_KEYS}
    out = {key: 100.0 * float(np.mean([r[key] or 0.0 for r in rows])) for key in METRIC_KEYS}
    for key in ANSWER_KEYS:
        values = [v for r in rows if (v := r.get(key)) is not None]
        if values:
            out[key] = 100.0 * float(np.mean(values))
    return out


def _rounded(m: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 2) for k, v in m.items()}


class _Scorer:
    """Scores one question's ranking: the metrics of the top k (after neighbours and
    parent expansion), recall within token budgets, precision-omega, MRR."""

    def __init__(self, leaves: list[Span], by_id: dict[str, Span], k: int, budget: int,
                 expand: str | None, neighbours: int, curve_budgets: Sequence[int]):
        self.leaves, self.by_id, self.k, self.budget = leaves, by_id, k, budget
        self.expand, self.neighbours = expand, neighbours
        self.curve: dict[int, list[float]] = {b: [] for b in curve_budgets}
        self.tokens_used: list[int] = []
        self.doc_order: dict[str, list[int]] = defaultdict(list)
        for i, s in enumerate(leaves):
            self.doc_order[s.doc_id].append(i)
        self.position = {i: (doc, n) for doc, idxs in self.doc_order.items()
                         for n, i in enumerate(idxs)}
        self.per_doc_spans = {doc: [(leaves[i].start, leaves[i].end) for i in idxs]
                              for doc, idxs in self.doc_order.items()}

    def _with_neighbours(self, top: list[int]) -> list[int]:
        extra = []
        for i in top:
            if self.leaves[i].kind == "table":
                doc, n = self.position[i]
                idxs = self.doc_order[doc]
                extra += [idxs[j] for j in range(max(0, n - self.neighbours),
                                                 min(len(idxs), n + self.neighbours + 1))]
        return list(dict.fromkeys(top + extra))

    def context(self, q: Question, ranking: Sequence[int]) -> Item:
        """What an LLM is given to answer ``q``: the ranking's chunks (or their parents,
        deduplicated) in rank order within the budget; the chunk that crosses it gives
        the proportional prefix of its text (as for ``budget_recall``)."""
        passages: list[Passage] = []
        seen: set[int] = set()
        used = 0
        for i in ranking:
            s = self.leaves[i]
            if self.expand == "parents" and s.parent_id:
                s = self.by_id.get(s.parent_id, s)
            if id(s) in seen:
                continue
            seen.add(id(s))
            n = max(1, s.token_count)
            if used + n <= self.budget:
                passages.append(Passage(s.id, s.doc_id, s.start, s.end, s.embed_text, n))
                used += n
                continue
            remaining = self.budget - used
            if remaining > 0:
                cut = int(len(s.embed_text) * remaining / n)
                if s.embed_text[:cut].strip():
                    passages.append(Passage(s.id, s.doc_id, s.start, s.end,
                                            s.embed_text[:cut], remaining))
            break
        return Item(q, tuple(passages))

    def score(self, q: Question, ranking: Sequence[int]) -> dict[str, float]:
        leaves = self.leaves
        top = list(ranking[:self.k])
        if self.neighbours:
            top = self._with_neighbours(top)
        hits = [leaves[i] for i in top]
        if self.expand == "parents":
            hits = list({id(p): p for p in (self.by_id.get(h.parent_id, h) if h.parent_id
                                            else h for h in hits)}.values())
        refs = [(r.start, r.end) for r in q.references]
        retrieved = [(h.start, h.end) for h in hits if h.doc_id == q.doc_id]
        elsewhere = sum(h.end - h.start for h in hits if h.doc_id != q.doc_id)
        recall, precision, iou = metrics.span_scores(retrieved, refs, elsewhere)
        ranked_all = [leaves[i] for i in ranking]
        ranked = [(h.start, h.end) if h.doc_id == q.doc_id else (-2, -1) for h in ranked_all]
        token_counts = [h.token_count for h in ranked_all]

        def recall_within(b: int) -> float:
            spans = metrics.budget_spans(ranked, token_counts, b)
            return metrics.span_scores([s for s in spans if s[0] >= 0], refs)[0]

        for b in self.curve:
            self.curve[b].append(recall_within(b))
        self.tokens_used.append(sum(h.token_count for h in hits))
        return {
            "recall": recall, "precision": precision, "iou": iou,
            "precision_omega": metrics.precision_omega(self.per_doc_spans.get(q.doc_id, []), refs),
            "full_evidence": metrics.full_evidence(retrieved, refs),
            "budget_recall": recall_within(self.budget),
            "mrr": metrics.reciprocal_rank(ranked[:self.k], refs),
        }


def embedder_limit(embedder: Any) -> int | None:
    """Tokens of its own the embedder reads (special tokens excluded), where known."""
    limit = getattr(embedder, "token_limit", None)
    return limit() if callable(limit) else None


def count_truncated(embedder: Any, texts: Sequence[str]) -> int:
    """How many texts are longer than the embedder reads (counted with its own
    tokenizer): their tails would be silently ignored."""
    limit = embedder_limit(embedder)
    counter = getattr(embedder, "token_counter", None)
    if limit is None or not callable(counter):
        return 0
    count = counter().count
    return sum(1 for t in texts if count(t) > limit)
