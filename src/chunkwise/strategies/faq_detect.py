"""Finding questions and their answers in a document (for ``faq`` and for ``auto``'s
choice), apart from the strategy so that ``auto`` can ask without importing it."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..engine import DocumentIndex
from ..types import Document

_Q_LINE = re.compile(
    r"^[ \t]*(?:"
    r"(?:Q|Question)[ \t]*\d*[ \t]*[:.)\-][ \t]*(?P<qa>\S.*)"            # Q: / Question:
    r"|\d{1,3}[.)][ \t]+(?P<num>\S.*\?)[ \t]*"                          # 1. How ...?
    r"|\*\*(?P<bold>[^*\n]+\?)[ \t]*\*\*.*"                            # **How ...?**
    r"|#{1,6}[ \t]+(?P<head>\S.*\?)[ \t]*#*[ \t]*"                       # ## How ...?
    r")$", re.IGNORECASE | re.MULTILINE)
_QUESTION_TAGS = {"dt", "summary"}


@dataclass(slots=True)
class QAPair:
    start: int
    end: int
    question: str


def find_pairs(doc: Document, index: DocumentIndex, lo: int, hi: int) -> list[QAPair]:
    """Question starts in ``[lo, hi)``, each running to the next question or to a
    heading that is not one."""
    text = doc.text
    starts: dict[int, str] = {}
    code = [(b.start, b.end) for b in index.blocks_in(lo, hi) if b.kind == "code"]
    code_starts = [c[0] for c in code]
    for m in _Q_LINE.finditer(text, lo, hi):
        at = bisect_right(code_starts, m.start()) - 1
        if at >= 0 and m.start() < code[at][1]:
            continue  # inside code: Rust's ``where Q: Hash + Eq`` is no question
        q = next(g for g in (m.group("qa"), m.group("num"), m.group("bold"), m.group("head"))
                 if g)
        at = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        if m.group("head") and (block := index.block_at(at)) is not None and \
                block.kind == "heading" and lo <= block.start < at:
            # markup the reader made part of the heading's block (an anchor, a
            # ``<!-- more -->``, an MDX import above it) starts its question's pair: it
            # was a pair of its own, its "question" the markup and the heading
            at = block.start
        starts[at] = q.strip()
    stops: list[int] = []
    for b in index.blocks_in(lo, hi):
        tag = b.metadata.get("tag")
        if b.kind != "heading" and tag not in _QUESTION_TAGS:
            continue  # a paragraph, a list, code...: neither a question nor a stop
        # a heading's question: its text as the trail shows it, without markup or an
        # id (``## Why is it slow? {#slow}``, react.dev's ``{/*slow*/}``), setext too
        asked = b.headings[-1] if b.kind == "heading" and b.headings else \
            text[b.start:b.end].strip().strip("#").strip()
        if tag == "summary" or ((tag == "dt" or b.kind == "heading") and asked.endswith("?")):
            # a term a definition list defines is no question (an API reference's
            # types, a glossary, an option list): a <dt> asks when it ends in "?"
            starts.setdefault(b.start, asked)
        elif b.kind == "heading" and b.start not in starts:
            stops.append(b.start)
    ordered = sorted(s for s in starts if lo <= s < hi)
    bounds = sorted(set(ordered) | {s for s in stops if lo <= s < hi} | {hi})
    pairs = []
    for s in ordered:
        e = bounds[bisect_right(bounds, s)]
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            pairs.append(QAPair(s, e, starts[s]))
    return pairs


def looks_like_faq(doc: Document, index: DocumentIndex) -> bool:
    """Clearly an FAQ: three questions or more whose answers cover most of the text."""
    pairs = find_pairs(doc, index, 0, len(doc.text))
    if len(pairs) < 3:
        return False
    covered = sum(_words(doc.text, p.start, p.end) for p in pairs)
    return covered >= 0.6 * max(1, _words(doc.text, 0, len(doc.text)))


_WORD = re.compile(r"\S+")


def _words(text: str, lo: int, hi: int) -> int:
    """Words in ``text[lo:hi]``, counted without listing them (a long document's
    words as strings take ~10x its text)."""
    return sum(1 for _ in _WORD.finditer(text, lo, hi))
