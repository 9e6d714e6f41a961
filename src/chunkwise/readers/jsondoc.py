"""JSON and JSON Lines. A chat-shaped value (messages with a speaker and a text)
becomes a chat transcript; anything else keeps its text as read, for the
``json`` strategy to cut at element boundaries (its parse errors are reported
here, with the position). JSON with comments and trailing commas (JSONC:
``tsconfig.json``, VS Code's and ESLint's settings, ``devcontainer.json``) is read
as JSON, its comments kept in the text."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path as _Path

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .transcript import parse_chat_json


def parse_json(text: str, doc_id: str, source: str | None = None, lines: bool = False,
               chat: bool | None = None) -> Document:
    name = source or doc_id
    if chat is not False:
        doc = parse_chat_json(text, doc_id, source, lines)
        if doc is not None:
            return doc
        if chat:
            raise InputError(name, "not a chat (expected messages with a speaker or role and "
                                   "a content or text)")
    # (a byte-order mark, which Windows tools write, is no JSON: the text keeps it and
    # chunks start after it)
    if lines:
        for n, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
            if line.strip():
                try:
                    json.loads(line)
                except ValueError as exc:
                    raise InputError(name, f"line {n} is not JSON ({exc})") from None
        return Document(text=text, doc_id=doc_id, source=source, metadata={"format": "jsonl"})
    try:
        json.loads(text.removeprefix("\ufeff"))
    except ValueError as exc:
        values = _sequence(text) if str(exc).startswith("Extra data") else None
        if values is None:
            if _parses(jsonc_masked(text)):
                return Document(text=text, doc_id=doc_id, source=source,
                                metadata={"format": "jsonc"})
            raise InputError(name, f"not valid JSON ({exc})") from None
        # JSON values one after another (jq's output, a log of pretty-printed events): a
        # record each, as a JSON Lines file's lines are
        return Document(text=text, doc_id=doc_id, source=source,
                        metadata={"format": "json-seq", "values": values})
    return Document(text=text, doc_id=doc_id, source=source, metadata={"format": "json"})


#: a JSON string, a line comment, a block comment; and a comma before a closing bracket
#: (a block comment never closed runs to the end: one search to the end, not one from
#: every "/*" after it, which took 18 s for 120 kB of "/*x")
_JSONC_PARTS = re.compile(r'"(?:[^"\\\n]|\\.)*"|(//[^\n]*|/\*(?:.*?\*/|.*))', re.DOTALL)
_TRAILING_COMMA = re.compile(r'"(?:[^"\\\n]|\\.)*"|(,)(?=\s*[}\]])')


def jsonc_masked(text: str) -> str:
    """``text`` with the comments (``// ...``, ``/* ... */``) outside strings and the
    commas before a closing bracket blanked (line breaks kept): the same length, so
    that a JSONC file's elements are found where they are in the file."""
    if "/" not in text and "," not in text:
        return text

    def blank(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return m.group(0)  # a string, as it is
        return re.sub(r"[^\r\n]", " ", m.group(0))

    return _TRAILING_COMMA.sub(blank, _JSONC_PARTS.sub(blank, text))


def _parses(text: str) -> bool:
    try:
        json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        return False
    return True


def _sequence(text: str) -> int | None:
    """How many JSON values ``text`` holds one after another (whitespace between them),
    or None when it is not such a sequence."""
    decoder = json.JSONDecoder()
    pos, n = (1 if text.startswith("\ufeff") else 0), 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":  # (JSON's whitespace)
            pos += 1
        if pos == len(text):
            return n
        try:
            _, pos = decoder.raw_decode(text, pos)
        except ValueError:
            return None
        n += 1


def _parse_chat(text: str, doc_id: str, source: str) -> Document:
    return parse_json(text, doc_id, source, chat=True,
                      lines=_Path(source).suffix.lower() in (".jsonl", ".ndjson"))


JSON = Reader(partial(parse_json, lines=False), (".json", ".jsonc"))
JSONL = Reader(partial(parse_json, lines=True), (".jsonl", ".ndjson"))
CHAT = Reader(_parse_chat)
