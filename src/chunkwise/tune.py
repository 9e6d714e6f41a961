"""``chunkwise tune``: the chunking that retrieves best on the user's own corpus,
chosen on one half of questions made from it and confirmed on the other.

1. Questions from the documents, as ``chunkwise questions`` makes them (an LLM, or
   the heuristic without one), each with a verifiable reference span.
2. They are split in two halves by a seeded shuffle, document by document (each
   document's questions alternate between the halves): the **tuning** half chooses,
   the **confirming** half, never looked at while choosing, reports.
3. Every configuration of the grid (:data:`GRID`: strategies and sizes within the
   embedder's budget, the defaults first) chunks the corpus once and is evaluated
   on both halves with ``eval``'s retrieval (hybrid, k 5 by default).
4. The winner is the best on the tuning half by the mean of recall, full evidence
   and recall within 1,000 retrieved tokens, if it beats the defaults there by more
   than chance would (:func:`margin`: one standard error of a recall on the half's
   questions, at least one question; otherwise the defaults stay); the
   confirming half's figures of the winner and the defaults are reported side by
   side, and the winner is written as ``chunkwise.toml``, which ``chunk``,
   ``index`` and ``eval`` read (:mod:`chunkwise.cli.settings`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .config import DEFAULT_SIZE
from .errors import ChunkwiseError
from .eval import Dataset, Question, Reference, evaluate, spans_from_chunks
from .eval.run import Span
from .factory import get_chunker
from .types import Document

#: the configurations tried, the defaults first (auto without a size: 160 tokens, 224
#: for reference documentation, 256 for narrative prose; sizes stay within MiniLM's
#: 254 tokens)
GRID: tuple[dict[str, Any], ...] = (
    {"strategy": "auto"},
    {"strategy": "auto", "size": DEFAULT_SIZE},
    {"strategy": "auto", "size": 128},
    {"strategy": "auto", "size": 200},
    {"strategy": "auto", "size": 254},
    {"strategy": "recursive", "size": 160},
    {"strategy": "recursive", "size": 254},
    {"strategy": "sentence", "size": 254},
)
#: the tag marking a question's half (never a tag of the user's)
_HALF = "\0tune:"
#: the metrics whose mean chooses (percent)
OBJECTIVE = ("recall", "full_evidence", "budget_recall")


def objective(metrics: dict[str, float]) -> float:
    return sum(metrics[k] for k in OBJECTIVE) / len(OBJECTIVE)


def name_of(options: dict[str, Any]) -> str:
    return " ".join(f"{v}" if k == "strategy" else f"{k} {v}" for k, v in options.items())


@dataclass
class Trial:
    """One configuration's metrics (percent) on both halves."""

    options: dict[str, Any]
    tuning: dict[str, float]
    confirming: dict[str, float]

    @property
    def name(self) -> str:
        return name_of(self.options)


@dataclass
class Tuned:
    trials: list[Trial]
    winner: Trial
    default: Trial
    n_tuning: int
    n_confirming: int
    dropped: int = 0
    notes: list[str] = field(default_factory=list)


def split(questions: Sequence[Question], seed: int = 0) -> tuple[list[Question], list[Question]]:
    """Two halves: each document's questions shuffled (seeded) and dealt alternately,
    the first of each document to the half that has fewer so far."""
    rng = random.Random(seed)
    by_doc: dict[str, list[Question]] = {}
    for q in questions:
        by_doc.setdefault(q.doc_id, []).append(q)
    halves: tuple[list[Question], list[Question]] = ([], [])
    for doc_id in sorted(by_doc):
        qs = by_doc[doc_id]
        rng.shuffle(qs)
        first = 0 if len(halves[0]) <= len(halves[1]) else 1
        for i, q in enumerate(qs):
            halves[(first + i) % 2].append(q)
    return halves


def questions_from(made: Sequence[dict[str, Any]]) -> list[Question]:
    """Questions as :mod:`chunkwise.questions` writes them, as the evaluation reads them."""
    return [Question(q["question"], q["doc_id"], tuple(
        Reference(r["start"], r["end"], r["content"]) for r in q["references"]),
        tuple(q.get("tags", ())), q.get("answer")) for q in made]


Progress = Callable[[int, int, Trial], object]


def tune(documents: dict[str, Document], questions: Sequence[Question], *,
         grid: Sequence[dict[str, Any]] = GRID, retriever: str = "hybrid", k: int = 5,
         embedder: Any = None, seed: int = 0, cache: bool = True,
         progress: Progress | None = None) -> Tuned:
    """Evaluate every configuration of ``grid`` on both halves of ``questions``
    (see the module) and choose by the tuning half."""
    from .embed import get_embedder

    if len(questions) < 4:
        raise ChunkwiseError(f"tune needs at least 4 questions to split in two halves, got "
                             f"{len(questions)}")
    if not grid:
        raise ChunkwiseError("tune needs at least one configuration to try")
    tuning, confirming = split(questions, seed)
    # one evaluation per configuration, each question tagged with its half: the
    # chunks are embedded and every question ranked once, the halves read per tag
    tagged = [replace(q, tags=q.tags + (_HALF + half,))
              for half, qs in (("tuning", tuning), ("confirming", confirming)) for q in qs]
    dataset = Dataset("tune", documents, tagged)
    emb = get_embedder(embedder, cache=cache) if retriever != "bm25" else None
    trials: list[Trial] = []
    for options in grid:
        chunker = get_chunker(options["strategy"], **{k: v for k, v in options.items()
                                                      if k != "strategy"})
        spans: list[Span] = []
        for doc in documents.values():
            spans.extend(spans_from_chunks(chunker.chunk_document(doc)))
        result = evaluate(dataset, spans=spans, retriever=retriever, k=k, embedder=emb,
                          config=chunker.describe())
        trials.append(Trial(dict(options), result.by_tag[_HALF + "tuning"],
                            result.by_tag[_HALF + "confirming"]))
        if progress is not None:
            progress(len(trials), len(grid), trials[-1])
    return Tuned(trials, choose(trials, len(tuning)), trials[0], len(tuning),
                 len(confirming))


def margin(trials: Sequence[Trial], n_tuning: int) -> float:
    """The lead (points of the objective) the tuning half cannot tell from chance:
    one standard error of a recall of the defaults' level on ``n_tuning`` questions,
    ``100 * sqrt(p (1 - p) / n)``, and never less than one question's worth
    (``100 / n``). With 31 heuristic questions on the bundled docs that is 8.9
    points: ``auto`` at 254 once led the defaults by 7.5 there (2.3 questions) and
    trailed them by one question on the confirming half; with 100 questions a half
    it is 5 points."""
    n = max(1, n_tuning)
    p = min(1.0, max(0.0, objective(trials[0].tuning) / 100.0))
    return max(100.0 / n, 100.0 * math.sqrt(p * (1.0 - p) / n))


def choose(trials: Sequence[Trial], n_tuning: int) -> Trial:
    """The best trial on the tuning half (the first of equals), if its objective beats
    the first trial's (the defaults') by more than :func:`margin`; else the first. A
    smaller lead is what chance gives between two configurations: with 31 heuristic
    questions on the bundled docs, ``auto`` at 160 led the defaults by 2.2 points on
    the tuning half and trailed them by 6.6 recall on the confirming half."""
    best, ahead = leader(trials)
    return best if ahead > margin(trials, n_tuning) else trials[0]


def leader(trials: Sequence[Trial]) -> tuple[Trial, float]:
    """The best trial on the tuning half (the first of equals) and its lead over the
    first trial's (the defaults') objective, in points."""
    best = max(trials, key=lambda t: objective(t.tuning))
    return best, objective(best.tuning) - objective(trials[0].tuning)


def write_config(path: str | Path, tuned: Tuned, source: str) -> Path:
    """The winner as a ``chunkwise.toml`` (a ``[chunk]`` table), with how it was chosen
    in comments."""
    from .sinks import write_atomic

    w, d = tuned.winner, tuned.default

    def figures(metrics: dict[str, float]) -> str:
        return ", ".join(f"{key} {metrics[key]:.1f}" for key in OBJECTIVE)

    lines = [
        f"# written by chunkwise tune from {source}",
        f"# chosen on {tuned.n_tuning} questions: {figures(w.tuning)}",
        f"# confirmed on {tuned.n_confirming} others: {figures(w.confirming)} "
        f"(the defaults, {d.name}: {figures(d.confirming)})",
        "# chunk, index and eval read this file from the current folder (or --config FILE);",
        "# a command-line flag wins over it.",
        "",
        "[chunk]",
    ]
    for key, value in w.options.items():
        lines.append(f"{key} = {_toml(value)}")
    out = Path(path)
    write_atomic(out, "\n".join(lines) + "\n")
    return out


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
