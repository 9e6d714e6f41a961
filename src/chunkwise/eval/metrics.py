"""Retrieval metrics over characters (Chroma's definitions) plus answer-intact
hit rate, recall at a fixed token budget, and MRR."""

from __future__ import annotations

from collections.abc import Sequence


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for s, e in sorted(spans):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def _length(spans: Sequence[tuple[int, int]]) -> int:
    return sum(e - s for s, e in spans)


def _intersect(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append((s, e))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def span_scores(retrieved: Sequence[tuple[int, int]], references: Sequence[tuple[int, int]],
                elsewhere: int = 0) -> tuple[float, float, float]:
    """Chroma's recall, precision and IoU for one question.

    ``retrieved`` are the spans retrieved from the question's document;
    ``elsewhere`` the characters retrieved from other documents, which count in
    the denominators of precision and IoU but cover nothing.

    recall = reference characters covered / reference characters;
    precision = covered reference characters / summed retrieved length;
    IoU = covered / (summed retrieved length + reference characters missed).
    """
    refs = _merge(references)
    ref_len = _length(refs)
    covered = _length(_intersect(_merge(retrieved), refs))
    retrieved_len = sum(e - s for s, e in retrieved) + elsewhere
    recall = covered / ref_len if ref_len else 0.0
    precision = covered / retrieved_len if retrieved_len else 0.0
    denom = retrieved_len + (ref_len - covered)
    iou = covered / denom if denom else 0.0
    return recall, precision, iou


def precision_omega(all_chunks: Sequence[tuple[int, int]], references: Sequence[tuple[int, int]]) -> float:
    """Precision if every chunk touching a reference were retrieved (the ceiling)."""
    refs = _merge(references)
    touching = [c for c in all_chunks if any(c[0] < e and s < c[1] for s, e in refs)]
    total = sum(e - s for s, e in touching)
    covered = _length(_intersect(_merge(touching), refs))
    return covered / total if total else 0.0


def full_evidence(retrieved: Sequence[tuple[int, int]], references: Sequence[tuple[int, int]]) -> float:
    """1.0 when every reference lies wholly inside one retrieved chunk (the answer is intact)."""
    if not references:
        return 0.0
    return float(all(any(s <= rs and re <= e for s, e in retrieved) for rs, re in references))


def reciprocal_rank(ranked: Sequence[tuple[int, int]], references: Sequence[tuple[int, int]]) -> float:
    for rank, (s, e) in enumerate(ranked, start=1):
        if any(s < re and rs < e for rs, re in references):
            return 1.0 / rank
    return 0.0


def budget_spans(ranked: Sequence[tuple[int, int]], tokens: Sequence[int],
                 budget: int) -> list[tuple[int, int]]:
    """The ranked spans that fit a budget of retrieved tokens; the chunk that crosses
    the budget contributes the proportional prefix of its characters."""
    out: list[tuple[int, int]] = []
    used = 0
    for (s, e), n in zip(ranked, tokens):
        if used + n <= budget:
            out.append((s, e))
            used += n
            continue
        remaining = budget - used
        if remaining > 0 and n > 0:
            out.append((s, s + int((e - s) * remaining / n)))
        break
    return out
