"""Transcripts and chats: whole turns packed up to the size, or by time window.

A turn is a run of consecutive cues or messages of one speaker. Turns are never
cut unless one alone is over the budget; then it is cut at sentences, its
speaker (and time) repeated in context. ``window_seconds`` groups turns by
time instead (a new chunk where a window starts), each window still within the
budget. Every chunk's context names its speakers and time range
(``Alice, Bob · 01:02–03:10``); ``metadata`` holds the speakers, the start and
end in seconds, and the stamps as written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import TOKEN, WORD, Sentences, SentenceSplitter
from ..readers.transcript import clock, looks_like_transcript, parse_speaker_text
from ..types import Block, Document
from .base import Chunker, register


@dataclass(slots=True)
class _Turn:
    start: int
    end: int
    speaker: str | None
    t0: float | None
    t1: float | None
    stamps: list[str | None] = field(default_factory=list)
    cues: list[Block] = field(default_factory=list)


@register("transcript")
class TranscriptChunker(Chunker):
    """Whole turns packed up to the size (``window_seconds``: by time windows), the
    speakers and time range in context."""

    kind = "turn"

    def __init__(self, size: int | None = None, *, window_seconds: float | None = None,
                 language: str = "en", sentence_splitter: SentenceSplitter | None = None,
                 **options: Any):
        if window_seconds is not None and (isinstance(window_seconds, bool) or not isinstance(
                window_seconds, (int, float)) or not window_seconds > 0 or
                                         math.isinf(window_seconds)):
            raise ConfigError(f"window_seconds must be a positive number, got {window_seconds!r}")
        self.window_seconds = float(window_seconds) if window_seconds is not None else None
        self.sentences = Sentences(language=language, splitter=sentence_splitter)
        super().__init__(size, **options)

    def options(self) -> dict[str, Any]:
        return {"window_seconds": self.window_seconds} if self.window_seconds else {}

    # -- turns ------------------------------------------------------------------------

    def _index(self, doc: Document, index: DocumentIndex) -> tuple[Document, DocumentIndex]:
        """Turn blocks as read, or found here in plain text with speaker lines."""
        if any(b.kind == "turn" for b in index.blocks):
            return doc, index
        found = index.memo.get("transcript-index")
        if found is None:
            found = (doc, index)
            if looks_like_transcript(doc.text):
                parsed = parse_speaker_text(doc.text, doc.doc_id, doc.source)
                tdoc = Document(doc.text, doc.doc_id, doc.source, doc.title, parsed.blocks,
                                {**doc.metadata, **parsed.metadata})
                found = (tdoc, DocumentIndex(tdoc, self.tokenizer))
            index.memo["transcript-index"] = found
        return found

    @staticmethod
    def _turns(blocks: list[Block]) -> list[_Turn]:
        """Consecutive cues of one speaker (or without a named one) are one turn."""
        turns: list[_Turn] = []
        for b in blocks:
            m = b.metadata
            speaker = m.get("speaker")
            t0, t1 = m.get("start"), m.get("end")
            last = turns[-1] if turns else None
            if last is not None and speaker is not None and speaker == last.speaker:
                last.end, last.t1 = b.end, t1 if t1 is not None else last.t1
                last.stamps[1] = m.get("end_stamp") or last.stamps[1]
                last.cues.append(b)
                continue
            turns.append(_Turn(b.start, b.end, speaker, t0, t1 if t1 is not None else t0,
                               [m.get("start_stamp"), m.get("end_stamp") or m.get("start_stamp")],
                               [b]))
        return turns

    # -- the interface ----------------------------------------------------------------

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        doc, index = self._index(doc, index)
        blocks = [b for b in index.blocks_in(span.lo, span.hi)
                  if b.kind == "turn" and b.start >= span.lo and b.end <= span.hi]
        turns = self._turns(blocks)
        packer = Packer(index, PackPolicy((self.sentences, WORD, TOKEN)), self.config.budget)
        if not turns:  # no speakers found: whole sentences
            pieces = packer.pack(span.lo, span.hi, span.context)
            for p in pieces:
                p.kind = "prose"
            return pieces
        text = index.text
        count = self.tokenizer.count
        out: list[Piece] = []
        markup = [tuple(m) for m in doc.metadata.get("markup", ())]
        head = (span.lo, turns[0].start)
        if text[head[0]:head[1]].strip() and not any(
                s <= head[0] and head[1] <= e for s, e in markup):  # a header before the turns
            out.extend(packer.pack(span.lo, turns[0].start, span.context))
        group: list[_Turn] = []

        def close() -> None:
            if group:
                ctx = self._context(span.context, group)
                s, e = group[0].start, group[-1].end
                out.append(self._piece(s, e, count(ctx + text[s:e]), ctx, group))
                group.clear()

        for turn in turns:
            if group and self.window_seconds and turn.t0 is not None and \
                    group[0].t0 is not None and \
                    self._window(turn.t0) != self._window(group[0].t0):
                close()
            candidate = [*group, turn]
            ctx = self._context(span.context, candidate)
            s = candidate[0].start
            if count(ctx + text[s:turn.end]) <= self.limit and \
                    turn.end - s + len(ctx) <= self.max_chars:
                group.append(turn)
                continue
            close()
            ctx = self._context(span.context, [turn])
            if count(ctx + text[turn.start:turn.end]) <= self.limit and \
                    turn.end - turn.start + len(ctx) <= self.max_chars:
                group.append(turn)
                continue
            out.extend(self._long_turn(turn, span, text, packer, ctx))
        close()
        return out

    def _long_turn(self, turn: _Turn, span: Span, text: str, packer: Packer,
                   ctx: str) -> list[Piece]:
        """One turn over the budget: its cues packed whole, a cue over the budget cut at
        sentences, the speaker (and time) in context."""
        if len(turn.cues) <= 1:
            return self._parts(packer.pack(turn.start, turn.end, ctx), [turn])
        count = self.tokenizer.count
        out: list[Piece] = []
        sub = [_Turn(c.start, c.end, turn.speaker, c.metadata.get("start"),
                     c.metadata.get("end"), [c.metadata.get("start_stamp"),
                                             c.metadata.get("end_stamp")], [c])
               for c in turn.cues]
        for piece_turns in self._pack_cues(sub, span.context, text):
            ctx = self._context(span.context, piece_turns)
            s, e = piece_turns[0].start, piece_turns[-1].end
            if count(ctx + text[s:e]) <= self.limit and e - s + len(ctx) <= self.max_chars:
                out.append(self._piece(s, e, count(ctx + text[s:e]), ctx, piece_turns))
            else:
                out.extend(self._parts(packer.pack(s, e, ctx), piece_turns))
        return out

    def _parts(self, pieces: list[Piece], turns: list[_Turn]) -> list[Piece]:
        """The pieces of a turn cut at sentences: ``turn_part`` i of ``turn_parts``."""
        out = []
        for i, p in enumerate(pieces):
            piece = self._piece(p.start, p.end, p.token_count, p.context, turns)
            piece.metadata.update(turn_part=i + 1, turn_parts=len(pieces))
            out.append(piece)
        return out

    def _pack_cues(self, cues: list[_Turn], inherited: str, text: str) -> list[list[_Turn]]:
        """Consecutive cues grouped up to the budget (a cue too big stays alone)."""
        count = self.tokenizer.count
        groups: list[list[_Turn]] = []
        for cue in cues:
            if groups:
                candidate = [*groups[-1], cue]
                ctx = self._context(inherited, candidate)
                s = candidate[0].start
                if count(ctx + text[s:cue.end]) <= self.limit and \
                        cue.end - s + len(ctx) <= self.max_chars:
                    groups[-1].append(cue)
                    continue
            groups.append([cue])
        return groups

    def _window(self, t: float) -> int:
        assert self.window_seconds is not None
        return int(t // self.window_seconds)

    def _context(self, inherited: str, turns: list[_Turn]) -> str:
        """``Alice, Bob · 01:02–03:10``; the speakers alone where that is too long
        for half the budget, nothing where even they are."""
        speakers = ", ".join(dict.fromkeys(t.speaker for t in turns if t.speaker))
        t0, t1 = turns[0].t0, turns[-1].t1
        when = _span_shown(t0, turns[0].stamps[0], t1, turns[-1].stamps[1]) \
            if t0 is not None else ""
        for parts in ([speakers, when], [speakers]):
            line = " · ".join(p for p in parts if p)
            ctx = inherited + (line + "\n" if line else "")
            if self.tokenizer.count(ctx) <= self.limit // 2 and len(ctx) <= self.max_chars // 2:
                return ctx
        return inherited

    @staticmethod
    def _piece(s: int, e: int, n: int, ctx: str, turns: list[_Turn]) -> Piece:
        speakers = list(dict.fromkeys(t.speaker for t in turns if t.speaker))
        meta: dict[str, Any] = {"speakers": speakers, "turns": len(turns)}
        if turns[0].t0 is not None:
            meta.update(start=turns[0].t0, start_stamp=turns[0].stamps[0])
        if turns[-1].t1 is not None:
            meta.update(end=turns[-1].t1, end_stamp=turns[-1].stamps[1])
        return Piece(s, e, n, ctx, kind="turn", metadata=meta)


def _span_shown(t0: float, stamp0: str | None, t1: float | None, stamp1: str | None) -> str:
    """A time range as the context shows it: clocks for media time (under 100 hours),
    else the date-times of a chat, the end's date left out when it is the start's."""
    if t0 < 360000 or not stamp0:
        a = clock(t0)
        b = clock(t1) if t1 is not None else a
        return a if a == b else f"{a}–{b}"
    a = _moment(stamp0)
    b = _moment(stamp1) if stamp1 else a
    if a == b:
        return a
    if b[:10] == a[:10] and len(b) > 11:
        b = b[11:]
    return f"{a}–{b}"


def _moment(stamp: str) -> str:
    """``2026-03-04T10:02:11Z`` -> ``2026-03-04 10:02:11``."""
    m = re.match(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)", stamp.strip())
    return f"{m.group(1)} {m.group(2)}" if m else stamp.strip()
