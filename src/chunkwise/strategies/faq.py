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
from ..readers.structure import markup_only
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
            # headings with no text under them before a question (a page's title over its
            # first question, a heading over a nav component) go with its pair
            lead = _headings_before(index, cur, pair.start)
            end = pair.start if lead is None else lead
            if index.text[cur:end].strip():  # prose between pairs
                out.extend(super().split(doc, index, Span(cur, end, span.context,
                                                          span.headings, span.page)))
            if lead is not None:
                pair = dataclasses.replace(pair, start=lead)
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
        rest = self._rest(index, packer, trails, first[0].end, pair.end, q_ctx) if first and \
            first[0].end < pair.end else []
        pieces = first + rest
        for i, p in enumerate(pieces):
            p.kind, p.headings = "qa", headings
            p.metadata.update(meta, answer_part=i + 1, answer_parts=len(pieces))
        return pieces


    @staticmethod
    def _rest(index: DocumentIndex, packer: Packer, trails: StructuredPacking, lo: int, hi: int,
              q_ctx: str) -> list[Piece]:
        """An answer's pieces after the first, the question in context; a table in it
        cut at its rows with its header in context too, as ``section`` cuts one (a
        grid table's rows each a piece under ``Q: What commands should be used
        instead?`` alone, nothing naming ``Deprecated | Recommendation``)."""
        out: list[Piece] = []
        cur = lo
        for block in index.blocks_in(lo, hi):
            if block.kind != "table" or not block.metadata.get("rows") or block.end > hi:
                continue
            start = index.skip_space(max(block.start, cur), block.end)
            if cur < start and index.text[cur:start].strip():
                out.extend(packer.pack(cur, start, q_ctx))
            out.extend(trails.table_pieces(block, q_ctx, None, start, block.end))
            cur = block.end
        if cur < hi and index.text[cur:hi].strip():
            out.extend(packer.pack(cur, hi, q_ctx))
        return out


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


def _headings_before(index: DocumentIndex, lo: int, hi: int) -> int | None:
    """Where the headings (and markup: an MDX import, an anchor) that end
    ``text[lo:hi]`` start, when nothing but space follows them (the page's title over
    its first question: the Cargo book's FAQ gave "Frequently Asked Questions" a chunk
    of its own; Astro's "Hosted Media Guides" over a nav component the reader made
    part of the question's heading; an MDX page's imports over its first question),
    else None: a heading travels with the text after it, here the question and its
    answer, and markup carries no text to make a chunk of."""
    text = index.text
    start = None
    for b in reversed(index.blocks_in(lo, hi)):
        if b.end > hi or text[b.end:hi if start is None else start].strip() or not (
                b.kind == "heading" or (b.kind in ("html", "paragraph")
                                        and markup_only(text[b.start:b.end]))):
            break
        start = max(lo, b.start)
    return start


__all__ = ["FaqChunker", "find_pairs", "looks_like_faq"]
