"""Running evaluations: one configuration, or a grid of them side by side.

The command line only parses options into :class:`EvalSettings` and prints;
choosing the embedder, scoring foreign chunks, merging a grid's defaults and
naming its runs happen here.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..strategies import Chunker
from .answers import Answerer
from .data import Dataset
from .run import Result, evaluate, spans_from_jsonl

#: keys of a grid run that configure retrieval rather than chunking
EVAL_KEYS = ("retriever", "k", "embedder", "scope", "budget", "expand", "neighbours", "fusion",
             "alpha", "include_boilerplate")

MakeChunker = Callable[[str | None, dict[str, Any]], Chunker]


@dataclass(frozen=True, slots=True)
class EvalSettings:
    retriever: str = "hybrid"
    k: int = 5
    embedder: str | None = None
    scope: str = "all"
    budget: int = 1000
    expand: str | None = None
    neighbours: int = 0
    fusion: str = "zscore"
    alpha: float = 0.7
    include_boilerplate: bool = False
    cache: bool = True

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ConfigError(f"k must be at least 1, got {self.k}")
        if self.budget < 1:
            raise ConfigError(f"budget must be at least 1 token, got {self.budget}")
        if self.neighbours < 0:
            raise ConfigError(f"neighbours must not be negative, got {self.neighbours}")

    def merged(self, run: dict[str, Any]) -> EvalSettings:
        return replace(self, **{k: run[k] for k in EVAL_KEYS if k in run})


class _Embedders:
    """One embedder per spec across a grid (models load once)."""

    def __init__(self, cache: bool):
        self.cache = cache
        self._loaded: dict[str, Any] = {}

    def get(self, spec: str | None) -> Any:
        from ..embed import get_embedder

        key = spec or "minilm"
        if key not in self._loaded:
            self._loaded[key] = get_embedder(spec, cache=self.cache)
        return self._loaded[key]


def run_one(dataset: Dataset, settings: EvalSettings, run: dict[str, Any],
            make_chunker: MakeChunker, chunks_file: str | None = None,
            embedders: _Embedders | None = None, answerer: Answerer | None = None) -> Result:
    """Evaluate one configuration: ``run`` holds a grid run's keys (chunking options
    and retrieval settings) over ``settings``; with an ``answerer``, answers too."""
    s = settings.merged(run)
    embedders = embedders or _Embedders(s.cache)
    emb = embedders.get(s.embedder) if s.retriever != "bm25" else None
    kwargs: dict[str, Any] = dict(retriever=s.retriever, k=s.k, embedder=emb, scope=s.scope,
                                  budget=s.budget, expand=s.expand, neighbours=s.neighbours,
                                  fusion=s.fusion, alpha=s.alpha, answerer=answerer,
                                  include_boilerplate=s.include_boilerplate)
    chunks_file = run.get("chunks", chunks_file)
    if chunks_file:
        spans = spans_from_jsonl(chunks_file, dataset, tokenizer=run.get("tokenizer"))
        return evaluate(dataset, spans=spans, config={"chunks": str(chunks_file)}, **kwargs)
    chunk_keys = {k: v for k, v in run.items() if k not in EVAL_KEYS + ("name", "chunks")}
    strategy = chunk_keys.pop("strategy", None)
    return evaluate(dataset, make_chunker(strategy, chunk_keys), **kwargs)


def load_grid(path: str | Path) -> list[dict[str, Any]]:
    """The runs of a grid file: ``[[run]]`` tables over its ``[defaults]``."""
    try:
        with open(path, "rb") as f:
            grid = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read grid ({exc})") from None
    runs = grid.get("run") or []
    if not runs:
        raise ConfigError(f"{path}: no [[run]] tables")
    defaults = grid.get("defaults", {})
    return [{**defaults, **run} for run in runs]


def run_grid(dataset: Dataset, settings: EvalSettings, runs: Sequence[dict[str, Any]],
             make_chunker: MakeChunker, out: Path,
             progress: Callable[[int, int, str, Result, float], None] | None = None,
             answerer: Answerer | None = None,
             ) -> tuple[list[tuple[str, Result]], list[Path]]:
    """Every run, named, then written to ``out`` as CSV, JSON and an SVG chart of
    recall against tokens; with an ``answerer`` also a chart of recall beside the
    answer scores and every answer (``answers.jsonl``)."""
    from .report import run_name, write_answer_chart, write_answers, write_chart, write_csv, write_json

    embedders = _Embedders(settings.cache)
    results: list[tuple[str, Result]] = []
    for i, run in enumerate(runs, start=1):
        t0 = time.perf_counter()
        result = run_one(dataset, settings, run, make_chunker, embedders=embedders,
                         answerer=answerer)
        name = str(run.get("name") or run_name(result.config))
        results.append((name, result))
        if progress is not None:
            progress(i, len(runs), name, result, time.perf_counter() - t0)
    from ..sinks import check_destination

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.csv", out / "results.json", out / "recall_tokens.svg"]
    answered = any(r.answers for _, r in results)
    if answered:
        written += [out / "answers.svg", out / "answers.jsonl"]
    for path in written:
        check_destination(path)
    write_csv(results, written[0])
    write_json(results, written[1])
    write_chart(results, written[2])
    if answered:
        write_answer_chart(results, written[3])
        write_answers(results, written[4])
    return results, written
