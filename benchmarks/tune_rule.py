"""How ``chunkwise tune`` decides: its rule for replacing the defaults, measured on
real corpora instead of argued.

    .venv/bin/python benchmarks/tune_rule.py NAME FOLDER... [--draws 500]

Makes ``tune``'s heuristic questions from the folders (200, seed 0, as ``tune
--heuristic`` does) and scores every configuration of ``tune.GRID`` on every question
once (eval's defaults: hybrid, k 5, MiniLM; cached in ``out/tune_rule/NAME.json``).
Then, taking the corpus's questions as the population, it draws a tuning half from
them (with replacement) ``--draws`` times, lets each rule choose on the draw, and
prints for each rule how often it kept the defaults and the chosen configuration's
gain over the defaults on all the questions (the objective: the mean of recall, full
evidence and recall within 1,000 tokens, in points): its mean, how often it was a
loss, and the worst. Drawing from the questions instead of splitting them keeps the
draw independent of what it is judged on (a split's confirming half is the rest of
a fixed pool: a tuning half that flatters a configuration leaves a confirming half
that does not, which penalises every rule that waits for a clear lead).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from statistics import NormalDist

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

Rule = Callable[[np.ndarray], int]


def scores(name: str, folders: list[str]) -> np.ndarray:
    """Configurations x questions: each question's objective (percent)."""
    from chunkwise.cli import build_parser
    from chunkwise.cli.tune import _documents
    from chunkwise.embed import get_embedder
    from chunkwise.eval import Dataset, evaluate, spans_from_chunks
    from chunkwise.factory import get_chunker
    from chunkwise.questions import ask
    from chunkwise.tune import GRID, OBJECTIVE, questions_from

    cache = ROOT / "out" / "tune_rule" / f"{name}.json"
    if cache.exists():
        return np.array(json.loads(cache.read_text())["scores"])
    documents, by_doc = _documents(build_parser().parse_args(["tune", *folders, "--heuristic"]))
    made, _ = ask(by_doc, 200, {d: d for d in documents}, llm=None, seed=0)
    dataset = Dataset(name, documents, questions_from(made.questions))
    embedder = get_embedder(None)
    table = []
    for options in GRID:
        chunker = get_chunker(options["strategy"], **{k: v for k, v in options.items()
                                                      if k != "strategy"})
        spans = [s for doc in documents.values() for s in spans_from_chunks(
            chunker.chunk_document(doc))]
        result = evaluate(dataset, spans=spans, retriever="hybrid", k=5, embedder=embedder)
        table.append([100 * sum(row[k] or 0.0 for k in OBJECTIVE) / len(OBJECTIVE)
                      for row in result.per_question])
        print(f"{options}: {np.mean(table[-1]):.1f}", file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"folders": folders, "grid": list(GRID), "scores": table}))
    return np.array(table)


def argmax(t: np.ndarray) -> int:
    return int(np.argmax(t.mean(axis=1)))


def tunes(t: np.ndarray) -> int:
    """``tune``'s own rule (:func:`chunkwise.tune.choose`: the leader, if ahead by one
    standard error of an unpaired recall at the defaults' level, at least one
    question), called on the draw's means."""
    from chunkwise.tune import Trial, choose

    trials = [Trial({"strategy": str(i)}, {"recall": m, "full_evidence": m, "budget_recall": m},
                    {}) for i, m in enumerate(t.mean(axis=1).tolist())]
    return trials.index(choose(trials, t.shape[1]))


def paired(z_of: Callable[[int], float]) -> Rule:
    """The best of the configurations whose paired lead over the defaults is above
    ``z * sd / sqrt(n)`` (and one question's worth); ``z_of(tries)``."""
    def rule(t: np.ndarray) -> int:
        n, tries = t.shape[1], t.shape[0] - 1
        z = z_of(tries)
        means = t.mean(axis=1)
        ok = [c for c in range(1, t.shape[0])
              if (d := t[c] - t[0]).mean() > max(100 / n, z * d.std(ddof=1) / math.sqrt(n))]
        return max(ok, key=lambda c: means[c]) if ok else 0
    return rule


def bonferroni(alpha: float) -> Callable[[int], float]:
    return lambda tries: NormalDist().inv_cdf(1 - alpha / max(1, tries))


RULES: dict[str, Rule] = {
    "argmax (no guard)": argmax,
    "tune's (unpaired, 1 SE)": tunes,
    "paired, 1 SE": paired(lambda tries: 1.0),
    "paired, z 1.645": paired(lambda tries: 1.645),
    "paired, Bonferroni 20 %": paired(bonferroni(0.2)),
    "paired, Bonferroni 5 %": paired(bonferroni(0.05)),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name")
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--draws", type=int, default=500)
    args = ap.parse_args()
    table = scores(args.name, args.folders)
    full = table.mean(axis=1)
    n = table.shape[1]
    print(f"{args.name}: {n} questions; objective on all of them: "
          + ", ".join(f"{i}: {v:.1f}" for i, v in enumerate(full)) + " (0: the defaults)")
    rng = np.random.default_rng(0)
    draws = [rng.choice(n, n // 2, replace=True) for _ in range(args.draws)]
    print(f"{'rule':<30}{'defaults kept':>15}{'mean gain':>11}{'P(loss)':>9}{'worst':>8}")
    for name, rule in RULES.items():
        chosen = [rule(table[:, idx]) for idx in draws]
        gain = np.array([full[c] - full[0] for c in chosen])
        print(f"{name:<30}{np.mean([c == 0 for c in chosen]):>15.1%}{gain.mean():>+11.2f}"
              f"{np.mean(gain < -1e-9):>9.1%}{gain.min():>+8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
