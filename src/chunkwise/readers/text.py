"""Plain text: decoded exactly as stored, so offsets cite the original file."""

from __future__ import annotations

import codecs
import hashlib
import re

from ..errors import InputError
from ..types import Block, Document
from .reader import Reader
from .structure import HeadingTrail, blank_line_runs

# Share of C0 control characters (other than tab/newline/CR/FF) above which a
# decodable file is still treated as binary.
MAX_CONTROL_SHARE = 0.01
CONTROL_CHARS = {c for c in range(32) if c not in (9, 10, 12, 13)}


def decode_bytes(data: bytes, source: str, encoding: str | None = None) -> str:
    """Decode file bytes to text without touching newlines; a clear error otherwise."""
    if encoding:
        try:
            return data.decode(encoding)
        except LookupError:
            raise InputError(source, f"unknown encoding {encoding!r}") from None
        except UnicodeDecodeError as exc:
            raise InputError(source, f"cannot be decoded as {encoding} (byte {exc.start})") from None
    # a UTF-8 byte-order mark stays in the text as U+FEFF: offsets then index what
    # Path(path).read_text(encoding="utf-8") returns, as the README's recipe says
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(source, f"invalid UTF-16 text (byte {exc.start})") from None
    nul = data.find(b"\x00")
    if nul != -1:
        raise InputError(source, f"binary file (a NUL byte at offset {nul}), not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            source, f"not valid UTF-8 (byte {exc.start}); pass its encoding "
            "(encoding='latin-1', say) if it is text") from None
    sample = text[:65536]
    if sample and sum(1 for ch in sample if ord(ch) in CONTROL_CHARS) > MAX_CONTROL_SHARE * len(sample):
        raise InputError(source, "binary file (control characters), not text")
    return text


def default_doc_id(text: str) -> str:
    """The id of a document given as a string: a hash of its text."""
    return "text-" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()


NUMBERED_HEADING = re.compile(
    r"^[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3}){0,4})\.?[ \t]+(?P<title>[A-Z][^\r\n]{0,78}?)[ \t]*$")


def parse_text(text: str, doc_id: str, source: str | None = None) -> Document:
    """Plain text: paragraphs, and numbered headings ("3.2 Accident reports") where
    unambiguous: a one-line paragraph, no closing punctuation, and at least two
    such lines in the document."""
    spans = []
    pos = 0
    for start, end in blank_line_runs(text):
        spans.append((pos, start))
        pos = end
    spans.append((pos, len(text)))
    spans = [(s, e) for s, e in spans if text[s:e].strip()]
    candidates = {}
    for s, e in spans:
        para = text[s:e]
        m = NUMBERED_HEADING.match(para)
        if m and not para.rstrip().endswith((".", ":", ";", ",", "?", "!")):
            candidates[(s, e)] = (m.group("num").count(".") + 1, para.strip())
    if len(candidates) < 2:
        candidates = {}
    blocks = []
    trail = HeadingTrail()
    for span in spans:
        s, e = span
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        heading = candidates.get(span)
        if heading is not None:
            level, title = heading
            trail.push(level, title)
            blocks.append(Block("heading", s, e, trail.path, level=level))
        else:
            blocks.append(Block("paragraph", s, e, trail.path))
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(blocks))


TEXT = Reader(parse_text)
