"""FAQs: one question and its answer per chunk.

Questions are found in Markdown (headings that ask, ``**bold questions?**``,
``Q:``/``A:``), HTML (``dt``/``dd``, headings, ``details``/``summary``) and plain
text (``Q:``/``A:``, ``Question:``/``Answer:``, numbered questions). A pair runs
from its question to the next question (or to the next heading that is not a
question). Pairs are never merged with each other, however small: one question
per chunk is the point. An answer too long for the budget is cut at
paragraphs, then sentences, the first piece holding the question and the start of
its answer (never the question alone, where that fits), the question repeated in
context on every piece after the first. What is not a question and answer (an introduction, a section
of prose) is cut as ``section`` would.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..levels import CLAUSE, LINE, PARAGRAPH, TOKEN, WORD
from ..types import Document
from .base import register
from .basic import SectionChunker
from .faq_detect import QAPair, find_pairs, looks_like_faq
from .structure import StructuredPacking


@register("faq")
class FaqChunker(SectionChunker):
    """One question and its answer per chunk; a long answer is cut with the question
    in context; text that is not a question and answer is cut like ``section``."""

    kind = "qa"

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        pairs = find_pairs(doc, index, span.lo, span.hi)
        if not pairs:
            return super().split(doc, index, span)
        packer = Packer(index, PackPolicy((PARAGRAPH, LINE, self.sentences, CLAUSE, WORD, TOKEN),
                                          (self.sentences,)), self.config.budget)
        assert self.structure is not None
        trails = StructuredPacking(index, self.policy(), self.config, self.structure)
        out: list[Piece] = []
        cur = span.lo
        for pair in pairs:
            asked = _asked_end(index, pair)
            if (lead := _headings_alone(index, cur, pair.start)) is not None:
                pair = dataclasses.replace(pair, start=lead)  # (a title over the questions)
            elif index.text[cur:pair.start].strip():  # prose between pairs
                out.extend(super().split(doc, index, Span(cur, pair.start, span.context,
                                                          span.headings, span.page)))
            out.extend(self._pair(index, packer, pair, span, trails, asked))
            cur = pair.end
        if index.text[cur:span.hi].strip():
            out.extend(super().split(doc, index, Span(cur, span.hi, span.context, span.headings,
                                                      span.page)))
        return out

    def _pair(self, index: DocumentIndex, packer: Packer, pair: QAPair, span: Span,
              trails: StructuredPacking, asked: int) -> list[Piece]:
        text = index.text
        count = self.tokenizer.count
        block = index.block_at(pair.start)
        headings = block.headings if block is not None else span.headings
        if block is not None and block.kind == "heading" and block.start == pair.start:
            headings = headings[:-1]  # the question itself is in the text
        ctx = trails.span_context(headings, span)  # (at the top: the document's title)
        n = count(ctx + text[pair.start:pair.end])
        meta: dict[str, Any] = {"question": pair.question}
        if n <= self.limit and pair.end - pair.start + len(ctx) <= self.max_chars:
            return [Piece(pair.start, pair.end, n, ctx, kind="qa", headings=headings,
                          metadata=meta)]
        q_ctx = ctx + f"Q: {pair.question}\n"
        if count(q_ctx) > self.limit // 2 or len(q_ctx) > self.max_chars // 2:
            q_ctx = ctx  # a question longer than half the budget cannot be repeated
        # the first piece holds the question and the start of its answer (``asked``: past
        # the question and an "A:"), not the question alone, where that fits
        first = packer.pack(pair.start, pair.end, ctx, first_floor=asked)[:1]
        rest = packer.pack(first[0].end, pair.end, q_ctx) if first and \
            first[0].end < pair.end else []
        pieces = first + rest
        for i, p in enumerate(pieces):
            p.kind, p.headings = "qa", headings
            p.metadata.update(meta, answer_part=i + 1, answer_parts=len(pieces))
        return pieces


_ANSWER_MARK = re.compile(r"[ \t]*(?:A|Answer)[ \t]*\d*[ \t]*[:.)\-]", re.IGNORECASE)


def _asked_end(index: DocumentIndex, pair: QAPair) -> int:
    """Where a pair's question ends (its heading, ``<dt>`` or ``<summary>`` block, else
    its line), past an answer's mark (``A:``, ``Answer:``) on the next line."""
    text = index.text
    block = index.block_at(pair.start)
    if block is not None and block.start == pair.start and (
            block.kind == "heading" or block.metadata.get("tag") in ("dt", "summary")):
        end = min(block.end, pair.end)
    else:
        newline = text.find("\n", pair.start, pair.end)
        end = pair.end if newline < 0 else newline
    mark = _ANSWER_MARK.match(text, index.skip_space(end, pair.end), pair.end)
    return mark.end() if mark else end


def _headings_alone(index: DocumentIndex, lo: int, hi: int) -> int | None:
    """Where the text before a question starts when it is headings alone (the page's
    title over its first question: the Cargo book's FAQ gave "Frequently Asked
    Questions" a chunk of its own), else None: a heading travels with the text after
    it, here the question and its answer."""
    text = index.text
    blocks = index.blocks_in(lo, hi)
    if not blocks or any(b.kind != "heading" or b.end > hi for b in blocks):
        return None
    covered = sum(len(text[b.start:b.end].split()) for b in blocks)
    if covered != len(text[lo:hi].split()):
        return None  # text outside the heading blocks
    return max(lo, blocks[0].start)


__all__ = ["FaqChunker", "find_pairs", "looks_like_faq"]
