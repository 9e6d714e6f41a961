"""Transcripts and chats: SRT and WebVTT subtitles, chat JSON / JSON Lines, and plain
text with speaker lines (``[00:01:02] Alice: ...`` or ``Alice: ...``).

Every cue or message is a ``turn`` block with its speaker and times in
``metadata`` (``speaker``, ``start``/``end`` in seconds, ``start_stamp``/``end_stamp``
as written). Subtitle files keep their text as read: a turn's span is the cue's
text, so cue numbers and timing lines stay in the source between turns and a
chunk always starts at a cue's text. srt and webvtt-py parse the files (times,
voices); the cue spans come from the same line structure. A chat (JSON) becomes
text, one ``speaker: content`` paragraph per message, as for HTML.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from types import MappingProxyType
from typing import Any

from ..errors import InputError
from ..types import Block, Document
from .reader import Reader
from .structure import TextBuilder

_TIMING = re.compile(
    r"^[ \t]*(?P<a>(?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})[ \t]+-->[ \t]+"
    r"(?P<b>(?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})")
_SPEAKER = re.compile(r"^(?P<speaker>[A-Z][\w.'\- ]{0,30}?):[ \t]+\S")
_VOICE = re.compile(r"<v(?:\.[\w.]+)?[ \t]+(?P<speaker>[^>]+)>")
_LINE = re.compile(
    r"^[ \t]*(?:\[(?P<time>\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?)\][ \t]*)?"
    r"(?P<speaker>[A-Z][\w.'\- ]{0,30}?):[ \t]+(?P<text>\S.*)$")
# labels of questions and answers, notes and fields, not people (an e-mail's headers;
# the fields of Debian's machine-readable copyright files, 25 of the 826 installed here
# read as transcripts of "Files", "Copyright" and "License" talking)
_NOT_SPEAKERS = {"q", "a", "question", "answer", "note", "notes", "warning", "tip", "example",
                 "step", "see", "source", "date", "subject", "from", "to", "cc", "re",
                 "format", "files", "files-excluded", "copyright", "license", "comment",
                 "disclaimer", "upstream-name", "upstream-contact",
                 # an e-mail's (and HTTP's) header fields, ``X-...`` ones too: Python's
                 # test messages were transcripts of ``Content-Type:`` and ``Message-ID:``
                 "bcc", "sender", "reply-to", "in-reply-to", "references", "message-id",
                 "return-path", "delivered-to", "received", "mime-version", "content-type",
                 "content-transfer-encoding", "content-disposition", "content-id",
                 "content-description", "content-length", "user-agent", "organization",
                 "list-id", "precedence", "errors-to", "importance", "priority"}
SPEAKER_KEYS = ("speaker", "role", "author", "name", "from", "user")
TEXT_KEYS = ("content", "text", "message", "body")
TIME_KEYS = ("time", "timestamp", "start", "ts", "created_at")


def seconds(stamp: str) -> float:
    """``01:02:03,500``, ``02:03.5`` or ``02:03`` -> seconds."""
    parts = stamp.replace(",", ".").split(":")
    total = 0.0
    for part in parts:
        total = total * 60 + float(part)
    return total


def clock(value: float) -> str:
    """Seconds as ``HH:MM:SS`` (or ``MM:SS`` under an hour)."""
    s = int(round(value))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h:02d}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


@dataclass
class _Cue:
    start: int
    end: int
    t0: str
    t1: str
    speaker: str | None


def _cues(text: str) -> list[_Cue]:
    """Every timing line and the text lines after it (up to a blank line)."""
    cues: list[_Cue] = []
    pos = 0
    lines = text.splitlines(keepends=True)
    offsets = []
    for line in lines:
        offsets.append(pos)
        pos += len(line)
    i = 0
    while i < len(lines):
        m = _TIMING.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip():
            j += 1
        if j > i + 1:
            s = offsets[i + 1]
            e = offsets[j - 1] + len(lines[j - 1].rstrip("\r\n"))
            first = lines[i + 1].strip()
            voice = _VOICE.search(first)
            named = _SPEAKER.match(first)
            speaker = voice.group("speaker").strip() if voice else (
                named.group("speaker").strip() if named else None)
            cues.append(_Cue(s, e, m.group("a"), m.group("b"), speaker))
        i = j
    return cues


def _turn(cue: _Cue, index: int, t0: float, t1: float) -> Block:
    return Block("turn", cue.start, cue.end, metadata=MappingProxyType({
        "speaker": cue.speaker, "start": t0, "end": t1, "start_stamp": cue.t0,
        "end_stamp": cue.t1, "cue": index + 1}))


def parse_subtitles(text: str, doc_id: str, source: str | None, fmt: str) -> Document:
    """SRT or WebVTT: validated and timed by the maintained parser (srt, webvtt-py)."""
    name = source or doc_id
    cues = _cues(text)
    try:
        if fmt == "vtt":
            import webvtt

            captions = webvtt.from_string(text).captions
            count = len(captions)
            voices = [getattr(c, "voice", None) for c in captions]
        else:
            import srt

            count = len(list(srt.parse(text)))
            voices = [None] * count
    except Exception as exc:  # the libraries raise their own error types
        raise InputError(name, f"not a valid {fmt.upper()} file ({type(exc).__name__}: "
                               f"{str(exc)[:120]})") from None
    # times to the millisecond from the timing lines the parser validated
    # (webvtt-py's start_in_seconds drops the fraction)
    times = [(seconds(c.t0), seconds(c.t1)) for c in cues]
    if count != len(cues):  # an odd file: keep the cues found in its line structure
        voices = [None] * len(cues)
    blocks = []
    for i, (cue, (t0, t1), voice) in enumerate(zip(cues, times, voices)):
        if voice and not cue.speaker:
            cue.speaker = voice
        blocks.append(_turn(cue, i, t0, t1))
    # what lies between cue texts (the WEBVTT header, cue numbers, timing lines) is
    # markup, not content: chunks start at a cue's text, and it may be left out
    markup, pos = [], 0
    for b in blocks:
        if text[pos:b.start].strip():
            markup.append([pos, b.start])
        pos = b.end
    if text[pos:].strip() and not blocks:
        markup.append([pos, len(text)])
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(blocks),
                    metadata={"format": fmt, "turns": len(blocks), "markup": markup})


#: the share of speaker lines that repeat the speaker of the line before above which
#: the "speakers" are a log's labels (``PASS: gdb.base/break.exp: ...`` 27,119 times
#: in gdb's test log, jtreg's ``Passed: ...``), not people taking turns
MAX_REPEATS = 0.8


def looks_like_transcript(text: str) -> bool:
    """Clearly a transcript: most non-empty lines start with a speaker, at least
    three of them, from at least two speakers, who take turns (a speaker's lines
    mostly follow another's, not their own)."""
    lines = [line for line in text.splitlines() if line and not line.isspace()]
    if len(lines) < 3:
        return False
    need = 0.6 * len(lines)
    speakers: set[str] = set()
    found = repeats = 0
    last = None
    for i, line in enumerate(lines):
        if found + len(lines) - i < need:
            return False  # too few lines left to make most of them a speaker's
        m = _LINE.match(line)
        if m and (label := m.group("speaker").lower()) not in _NOT_SPEAKERS \
                and not label.startswith("x-"):
            found += 1
            speaker = m.group("speaker")
            speakers.add(speaker)
            repeats += speaker == last
            last = speaker
    return (found >= 3 and len(speakers) >= 2 and found >= need
            and (found < 10 or repeats <= MAX_REPEATS * (found - 1)))


def parse_speaker_text(text: str, doc_id: str, source: str | None = None) -> Document:
    """Plain text with ``[time] Speaker: text`` lines: a turn per speaker line and the
    lines that continue it."""
    blocks: list[Block] = []
    pos = 0
    current: dict[str, Any] | None = None
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        m = _LINE.match(body)
        if m:
            if current is not None:
                blocks.append(_text_turn(current, len(blocks)))
            lead = len(body) - len(body.lstrip())
            current = {"start": pos + lead, "end": pos + len(body), "speaker": m.group("speaker"),
                       "time": m.group("time")}
        elif body.strip() and current is not None:
            current["end"] = pos + len(body.rstrip())
        elif not body.strip() and current is not None:
            blocks.append(_text_turn(current, len(blocks)))
            current = None
        pos += len(line)
    if current is not None:
        blocks.append(_text_turn(current, len(blocks)))
    timed = _end_times(blocks)  # a turn's end time is the next turn's start
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(timed),
                    metadata={"format": "transcript", "turns": len(timed)})


def _text_turn(current: dict[str, Any], index: int) -> Block:
    stamp = current["time"]
    meta: dict[str, Any] = {"speaker": current["speaker"], "turn": index + 1}
    if stamp:
        meta.update(start=seconds(stamp), start_stamp=stamp)
    return Block("turn", current["start"], current["end"], metadata=MappingProxyType(meta))


def chat_messages(data: Any) -> list[dict[str, Any]] | None:
    """The messages of a chat-shaped JSON value (a list of objects with a speaker
    and a text, or an object holding such a list under "messages"), else None."""
    if isinstance(data, dict):
        for key in ("messages", "conversation", "turns", "transcript"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
    if not isinstance(data, list) or not data:
        return None
    out = []
    for item in data:
        if not isinstance(item, dict):
            return None
        speaker = next((item[k] for k in SPEAKER_KEYS if isinstance(item.get(k), str)), None)
        content = next((item[k] for k in TEXT_KEYS if isinstance(item.get(k), str)), None)
        if speaker is None or content is None:
            return None
        time = next((item[k] for k in TIME_KEYS if isinstance(item.get(k), (str, int, float))),
                    None)
        out.append({"speaker": speaker, "content": content, "time": time})
    return out


def parse_chat(messages: list[dict[str, Any]], doc_id: str, source: str | None) -> Document:
    """A chat as text: ``[time] speaker: content`` per message, a turn block each."""
    out = TextBuilder()
    blocks = []
    for i, msg in enumerate(messages):
        time = msg.get("time")
        stamp = str(time) if time is not None else None
        prefix = f"[{stamp}] " if stamp else ""
        content = msg["content"].strip()
        if not content:
            continue
        s, e = out.add(f"{prefix}{msg['speaker']}: {content}")
        meta: dict[str, Any] = {"speaker": msg["speaker"], "turn": i + 1}
        if stamp is not None:
            meta["start_stamp"] = stamp
            start = time_value(time)
            if start is not None:
                meta["start"] = start
        blocks.append(Block("turn", s, e, metadata=MappingProxyType(meta)))
    return Document(text=out.text, doc_id=doc_id, source=source, blocks=tuple(_end_times(blocks)),
                    metadata={"format": "chat", "turns": len(blocks)})


def time_value(time: Any) -> float | None:
    """A message time in seconds: a number as it is, a clock stamp (``01:02``), or an
    ISO 8601 date-time as POSIX seconds (UTC when it names no zone); None otherwise."""
    if isinstance(time, (int, float)) and not isinstance(time, bool):
        return float(time)
    text = str(time).strip()
    try:
        return seconds(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _end_times(blocks: list[Block]) -> list[Block]:
    """A turn without an end time ends when the next one starts."""
    timed = []
    for i, b in enumerate(blocks):
        nxt = blocks[i + 1].metadata.get("start") if i + 1 < len(blocks) else None
        meta = dict(b.metadata)
        if meta.get("start") is not None and meta.get("end") is None and nxt is not None:
            meta["end"], meta["end_stamp"] = nxt, blocks[i + 1].metadata.get("start_stamp")
        timed.append(Block(b.kind, b.start, b.end, metadata=MappingProxyType(meta)))
    return timed


def parse_chat_json(text: str, doc_id: str, source: str | None, lines: bool) -> Document | None:
    """A chat from JSON or JSON Lines text, or None when it is not chat-shaped."""
    text = text.removeprefix("\ufeff")  # (a byte-order mark is no JSON)
    try:
        if lines:
            data: Any = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
    except ValueError:
        return None
    messages = chat_messages(data)
    return parse_chat(messages, doc_id, source) if messages else None


SRT = Reader(partial(parse_subtitles, fmt="srt"), (".srt",))
VTT = Reader(partial(parse_subtitles, fmt="vtt"), (".vtt",))
SPEAKERS = Reader(parse_speaker_text)
