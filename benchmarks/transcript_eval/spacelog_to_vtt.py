"""Spacelog's transcript format -> WebVTT, the layout the transcript sets ship in.

    python benchmarks/transcript_eval/spacelog_to_vtt.py TEC OUT.vtt

Spacelog (github.com/Spacelog/Spacelog, ``missions/<m>/transcripts/TEC``) keeps
NASA's air-to-ground transcripts as ``[dd:hh:mm:ss]`` lines, each followed by
``SPEAKER: text`` lines and ``_page``/``_tape``/``_extra`` fields. Each turn becomes
a cue from its time to the next turn's (a negative countdown time is 0), its speaker
a WebVTT voice (``<v CC>``); ``[glossary:TERM|shown]``, ``[time:T|shown]`` and
``[glossary:TERM]`` keep the text shown; an ``_extra`` field (the tracking station:
"BERMUDA (FIRST ORBIT)") is kept as a cue of its own; ``_page`` and ``_tape`` are
dropped. The words of the turns are otherwise unchanged."""

from __future__ import annotations

import re
import sys
from pathlib import Path

STAMP = re.compile(r"^\[(-?)(\d+):(\d+):(\d+):(\d+(?:\.\d+)?)\]\s*$")
GLOSSARY = re.compile(r"\[(?:glossary|time):([^|\]]+)(?:\|([^\]]+))?\]")
TURN = re.compile(r"^([A-Z][A-Za-z0-9]*): (.*)$")


def _time(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def turns(text: str) -> list[tuple[float, str | None, str]]:
    """(seconds, speaker or None for a station header, text) in order."""
    out: list[tuple[float, str | None, str]] = []
    at = 0.0
    for line in text.splitlines():
        line = line.rstrip()
        if m := STAMP.match(line):
            neg, d, h, mi, s = m.groups()
            at = 0.0 if neg else ((int(d) * 24 + int(h)) * 60 + int(mi)) * 60 + float(s)
        elif line.startswith("_extra"):
            out.append((at, None, line.split(":", 1)[1].strip()))
        elif line.startswith("_") or not line:
            continue
        elif m := TURN.match(line):
            out.append((at, m.group(1), m.group(2)))
        elif out:  # a turn's text continued on the next line
            t, who, said = out[-1]
            out[-1] = (t, who, f"{said} {line.strip()}")
    return [(t, who, GLOSSARY.sub(lambda g: g.group(2) or g.group(1), said))
            for t, who, said in out]


def to_vtt(text: str) -> str:
    cues = turns(text)
    parts = ["WEBVTT\n"]
    for i, (t, who, said) in enumerate(cues):
        end = next((u for u, _, _ in cues[i + 1:] if u > t), t + 5.0)
        body = f"<v {who}>{said}" if who else said
        parts.append(f"{_time(t)} --> {_time(end)}\n{body}\n")
    return "\n".join(parts)


if __name__ == "__main__":
    src, out = map(Path, sys.argv[1:3])
    Path(out).write_text(to_vtt(src.read_text(encoding="utf-8")), encoding="utf-8")
