"""Side-by-side reports: a terminal table (best per column marked), CSV, JSON,
and an SVG chart of recall against retrieved tokens."""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .answers import ANSWER_KEYS
from .run import METRIC_KEYS, Result

COLUMNS = METRIC_KEYS + ("n_chunks", "mean_retrieved_tokens")


def columns(results: Sequence[tuple[str, Result]]) -> tuple[str, ...]:
    """The columns of a report: the retrieval metrics, the answer scores any run
    has, then the chunk and token counts."""
    answered = tuple(k for k in ANSWER_KEYS if any(k in r.metrics for _, r in results))
    return METRIC_KEYS + answered + COLUMNS[len(METRIC_KEYS):]


def run_name(config: dict[str, Any]) -> str:
    """A short name for a configuration: strategy, size (and auto's sizes by kind),
    overlap, retriever."""
    if "chunks" in config:
        return Path(config["chunks"]).stem
    size = config.get("size", "")
    if "sizes" in config:
        size = "/".join(map(str, config["sizes"]))
    parts = [str(config.get("strategy", "?")), str(size)]
    if config.get("kind_sizes"):  # auto without a size: what each kind got
        parts.append("(" + ", ".join(f"{k} {v}" for k, v in config["kind_sizes"].items()) + ")")
    if config.get("overlap"):
        parts.append(f"o{config['overlap']}")
    if config.get("retriever", "dense") != "dense":
        parts.append(str(config["retriever"]))
    return " ".join(p for p in parts if p)


def _row(name: str, r: Result, keys: Sequence[str] = COLUMNS) -> dict[str, Any]:
    d = r.to_dict()
    return {"name": name, **{k: d.get(k) for k in keys}}


#: columns where less is better or that only describe (no best marked); abstaining
#: is neither good nor bad in itself
_UNMARKED = ("abstained",)


def table(results: Sequence[tuple[str, Result]]) -> str:
    """A fixed-width table; '*' marks the best value of each metric column."""
    keys = columns(results)
    rows = [_row(n, r, keys) for n, r in results]
    scored = [k for k in keys if k in METRIC_KEYS + ANSWER_KEYS and k not in _UNMARKED]
    best = {k: max(r[k] for r in rows if r[k] is not None) for k in scored
            if any(r[k] is not None for r in rows)}
    headers = ["config"] + list(keys)
    cells = []
    for r in rows:
        line = [r["name"]]
        for k in keys:
            v = r[k]
            text = "-" if v is None else f"{v:.1f}" if isinstance(v, float) else str(v)
            if k in best and len(rows) > 1 and v == best[k]:
                text += "*"
            line.append(text)
        cells.append(line)
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    out = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths)))]
    for c in cells:
        out.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                             for i, (v, w) in enumerate(zip(c, widths))))
    return "\n".join(out)


def corpus_table(by_corpus: dict[str, dict[str, float]], label: str = "corpus") -> str:
    """Per-corpus (or per-tag) metrics, one line each; the answer scores where the
    run has them ("-" for a group no judgement could be read for)."""
    keys: tuple[str, ...] = ("recall", "precision", "iou", "full_evidence", "budget_recall",
                             "mrr")
    keys += tuple(k for k in ANSWER_KEYS if any(k in m for m in by_corpus.values()))
    width = max(len(label), *(len(c) for c in by_corpus))
    lines = [label.ljust(width) + "".join(k.rjust(15) for k in keys)]
    for name, m in sorted(by_corpus.items()):
        lines.append(name.ljust(width) + "".join(
            f"{m[k]:15.1f}" if k in m else "-".rjust(15) for k in keys))
    return "\n".join(lines)


def write_csv(results: Sequence[tuple[str, Result]], path: Path) -> None:
    keys = columns(results)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["name", *keys, "config"])
        writer.writeheader()
        for n, r in results:
            writer.writerow({**_row(n, r, keys), "config": json.dumps(r.config)})


def write_answers(results: Sequence[tuple[str, Result]], path: Path) -> None:
    """Every answer of every run, one JSON object per line with the run's name."""
    with open(path, "w", encoding="utf-8") as f:
        for n, r in results:
            for record in r.answers:
                f.write(json.dumps({"run": n, **record}, ensure_ascii=False) + "\n")


#: the bars of the answer chart, each run's in this order
ANSWER_BARS = ("recall", "budget_recall", "answer_score", "answer_f1", "faithfulness")


def write_answer_chart(results: Sequence[tuple[str, Result]], path: Path,
                       title: str = "Retrieval and answer quality") -> None:
    """SVG bar chart: per run, recall, budget recall and the answer scores (%)."""
    bars = [k for k in ANSWER_BARS if any(k in r.metrics for _, r in results)]
    w, left, top, bottom = 1000, 60, 40, 90
    h = 440
    pw, ph = w - left - 40, h - top - bottom
    group = pw / max(1, len(results))
    bar = group * 0.8 / max(1, len(bars))

    def y(v: float) -> float:
        return top + ph * (1 - v / 100.0)

    parts = _frame(w, h, left, pw, title, y)
    for g, (name, r) in enumerate(results):
        x0 = left + g * group + group * 0.1
        for b, key in enumerate(bars):
            v = r.metrics.get(key)
            if v is None:
                continue
            x = x0 + b * bar
            parts.append(f"<rect x='{x:.1f}' y='{y(v):.1f}' width='{bar * 0.9:.1f}' "
                         f"height='{y(0) - y(v):.1f}' fill='{_PALETTE[b % len(_PALETTE)]}'>"
                         f"<title>{html.escape(name)}: {key} {v:.1f}</title></rect>")
            parts.append(f"<text x='{x + bar * 0.45:.1f}' y='{y(v) - 3:.1f}' font-size='10' "
                         f"text-anchor='middle'>{v:.0f}</text>")
        parts.append(f"<text x='{left + g * group + group / 2:.1f}' y='{top + ph + 18}' "
                     f"text-anchor='middle'>{html.escape(name[:40])}</text>")
    for b, key in enumerate(bars):
        lx = left + b * 170
        parts.append(f"<rect x='{lx}' y='{h - 32}' width='12' height='12' "
                     f"fill='{_PALETTE[b % len(_PALETTE)]}'/>")
        parts.append(f"<text x='{lx + 16}' y='{h - 22}'>{key}</text>")
    parts.append("</svg>")
    path.write_text("\n".join(parts), encoding="utf-8")


def write_json(results: Sequence[tuple[str, Result]], path: Path) -> None:
    path.write_text(json.dumps([{"name": n, **r.to_dict()} for n, r in results], indent=2),
                    encoding="utf-8")


def _frame(w: int, h: int, left: int, pw: float, title: str,
           y: Callable[[float], float]) -> list[str]:
    """An SVG chart's opening: white ground, title, the 0-100 % grid lines."""
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' "
             f"font-family='sans-serif' font-size='12'>",
             f"<rect width='{w}' height='{h}' fill='white'/>",
             f"<text x='{left}' y='22' font-size='15'>{html.escape(title)}</text>"]
    for tick in range(0, 101, 20):
        parts.append(f"<line x1='{left}' x2='{left + pw}' y1='{y(tick):.1f}' y2='{y(tick):.1f}' "
                     "stroke='#ddd'/>")
        parts.append(f"<text x='{left - 8}' y='{y(tick) + 4:.1f}' text-anchor='end'>{tick}</text>")
    return parts


_PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf"]


def write_chart(results: Sequence[tuple[str, Result]], path: Path,
                title: str = "Recall against retrieved tokens") -> None:
    """SVG line chart: x = budget of retrieved tokens (log scale), y = recall (%)."""
    import math

    w, right = 1000, 400
    h, left, top, bottom = max(440, 60 + 18 * len(results)), 60, 40, 50
    pw, ph = w - left - right, h - top - bottom
    budgets = sorted({b for _, r in results for b in r.curve})
    if not budgets:
        path.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
        return
    lo = math.log(budgets[0])
    hi = math.log(budgets[-1]) if budgets[-1] > budgets[0] else lo + 1

    def x(b: float) -> float:
        return left + pw * (math.log(b) - lo) / (hi - lo)

    def y(v: float) -> float:
        return top + ph * (1 - v / 100.0)

    parts = _frame(w, h, left, pw, title, y)
    for b in budgets:
        parts.append(f"<line x1='{x(b):.1f}' x2='{x(b):.1f}' y1='{top}' y2='{top + ph}' stroke='#eee'/>")
        parts.append(f"<text x='{x(b):.1f}' y='{top + ph + 18}' text-anchor='middle'>{b}</text>")
    parts.append(f"<text x='{left + pw / 2}' y='{h - 10}' text-anchor='middle'>"
                 "retrieved tokens (budget)</text>")
    parts.append(f"<text x='16' y='{top + ph / 2}' transform='rotate(-90 16 {top + ph / 2})' "
                 f"text-anchor='middle'>recall %</text>")
    for i, (name, r) in enumerate(results):
        color = _PALETTE[i % len(_PALETTE)]
        dash = "" if i < len(_PALETTE) else " stroke-dasharray='6 3'"  # colours repeat: dash
        pts = " ".join(f"{x(b):.1f},{y(v):.1f}" for b, v in sorted(r.curve.items()))
        parts.append(f"<polyline points='{pts}' fill='none' stroke='{color}' stroke-width='2'{dash}/>")
        for b, v in sorted(r.curve.items()):
            parts.append(f"<circle cx='{x(b):.1f}' cy='{y(v):.1f}' r='3' fill='{color}'/>")
        ly = top + 14 + 18 * i
        parts.append(f"<line x1='{left + pw + 12}' x2='{left + pw + 30}' y1='{ly - 3}' y2='{ly - 3}' "
                     f"stroke='{color}' stroke-width='3'{dash}/>")
        parts.append(f"<text x='{left + pw + 34}' y='{ly + 1}'>{html.escape(name[:60])}</text>")
    parts.append("</svg>")
    path.write_text("\n".join(parts), encoding="utf-8")
