"""Boundary levels: where a chunk may end, as typed objects a strategy declares.

A level finds the sorted character positions at which a cut is allowed
(paragraph ends, line ends, sentence ends, clause ends, word ends, token
starts, table row ends, ...). A strategy's policy lists its levels best first;
the engine cuts at the highest-ranked level that has a boundary within budget
(text-splitter's semantic levels, chonkie's recursive levels). New content
strategies declare their own levels (a :class:`Positions` level from the
document's blocks, a :class:`Pattern`, a :class:`Separator`) instead of editing
the engine.

Cutting at a position ``p`` ends one chunk at ``p`` and starts the next at the
first non-whitespace character at or after ``p``; whitespace around a cut is
dropped from both chunks, never text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .readers.structure import blank_line_runs

SentenceSplitter = Callable[[str], Iterable[int]]


class DocumentIndex(Protocol):
    """What a level reads of a document (:class:`chunkwise.engine.DocumentIndex` is one):
    its text and where its tokens start."""

    @property
    def text(self) -> str: ...

    @property
    def token_starts(self) -> np.ndarray: ...

    def span_token_starts(self, lo: int, hi: int) -> np.ndarray: ...


class Level:
    """One kind of boundary. Subclasses are frozen dataclasses (hashable, so a
    document's positions for a level are computed once and cached)."""

    name: str

    def positions(self, index: DocumentIndex) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def span_positions(self, index: DocumentIndex, lo: int, hi: int) -> np.ndarray | None:
        """The positions strictly inside ``(lo, hi)`` found for that span alone, or
        None: the engine restricts the whole document's :meth:`positions` (computed
        once). A level whose positions cost memory in proportion to the document and
        are rarely needed everywhere (token starts) answers per span."""
        return None

    def __str__(self) -> str:
        return self.name


def _match_positions(pattern: re.Pattern[str], text: str, use_end: bool) -> np.ndarray:
    if pattern.pattern == r"\r\n|\r|\n" and not use_end:  # the line level, vectorised
        return _line_break_starts(text)
    if pattern.pattern == r"(?<=\S)\s" and not use_end:  # the word level, vectorised
        return _word_ends(text)
    if pattern.pattern == r"\n":  # code lines: where each "\n" is (or ends)
        return _newlines(text, use_end)
    if use_end:
        return np.fromiter((m.end() for m in pattern.finditer(text)), dtype=np.int64)
    return np.fromiter((m.start() for m in pattern.finditer(text)), dtype=np.int64)


def _newlines(text: str, use_end: bool) -> np.ndarray:
    """The offsets of every ``\n`` (after it with ``use_end``), from the lengths of
    the lines between them (a match object per line cost ~1 us)."""
    lines = text.split("\n")
    lines.pop()
    ends = np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)) + 1)
    return ends if use_end else ends - 1


# every code point Python's str.isspace() accepts (what \s matches in a str pattern)
_SPACE_CODES = np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


#: characters scanned at once by the vectorised levels: a whole document's code
#: points and masks at once took ~9 bytes per character on top of its text
VECTOR_WINDOW = 1 << 20


def _code_windows(text: str) -> Iterator[tuple[int, np.ndarray]]:
    """``text``'s code points a window at a time, with where each window starts."""
    for lo in range(0, len(text), VECTOR_WINDOW):
        piece = text[lo:lo + VECTOR_WINDOW]
        yield lo, np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _word_ends(text: str) -> np.ndarray:
    """Every whitespace character that follows a non-whitespace one."""
    parts, before_space = [], True  # the first character never ends a word
    for lo, codes in _code_windows(text):
        space = (codes == 32) | ((codes >= 9) & (codes <= 13)) | ((codes >= 28) & (codes <= 31))
        wide = np.flatnonzero(codes >= 0x80)
        if len(wide):
            space[wide] |= np.isin(codes[wide], _SPACE_CODES)
        hit = space.copy()
        hit[0] &= not before_space
        hit[1:] &= ~space[:-1]
        parts.append(np.flatnonzero(hit).astype(np.int64) + lo)
        before_space = bool(space[-1])
    return _joined(parts)


def _line_break_starts(text: str) -> np.ndarray:
    """Where every line break (``\r\n``, ``\r`` or ``\n``) starts."""
    if "\n" not in text and "\r" not in text:
        return np.zeros(0, dtype=np.int64)
    parts, after_cr = [], False
    for lo, codes in _code_windows(text):
        lf = codes == 10
        cr = codes == 13
        lf_after_cr = lf.copy()  # the \n of a \r\n: that break started at the \r
        lf_after_cr[1:] &= cr[:-1]
        lf_after_cr[0] &= after_cr
        parts.append(np.flatnonzero(cr | (lf & ~lf_after_cr)).astype(np.int64) + lo)
        after_cr = bool(cr[-1])
    return _joined(parts)


@dataclass(frozen=True, slots=True)
class Pattern(Level):
    """Positions where a regular expression matches (its start, or its end)."""

    name: str
    regex: str
    use_end: bool = False
    _compiled: re.Pattern[str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", re.compile(self.regex))

    def positions(self, index: DocumentIndex) -> np.ndarray:
        return _match_positions(self._compiled, index.text, self.use_end)


@dataclass(frozen=True, slots=True)
class Paragraphs(Level):
    """Ends of paragraphs: the start of every blank-line run (a line break
    followed by one or more lines of only whitespace). Found in one linear scan:
    a regular expression that backtracks over long whitespace runs is quadratic."""

    name: str = "paragraph"

    def positions(self, index: DocumentIndex) -> np.ndarray:
        return paragraph_ends(index.text)


_BREAK = re.compile(r"\r\n|\r|\n")
_INLINE_SPACE = " \t\f\v"


# a line break followed by one or more lines holding only inline spaces, each ended
# by a break; anchored at a break and possessive, so every character is looked at
# a bounded number of times (a pattern starting with the spaces is quadratic)


def paragraph_ends(text: str) -> np.ndarray:
    """Positions where a paragraph ends: before the trailing spaces of its last
    line, when two or more line breaks follow with nothing but spaces between."""
    return np.asarray([s for s, _ in blank_line_runs(text)], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Sentences(Level):
    """Sentence ends from a splitter (sentencex by default, ~300 languages)."""

    language: str = "en"
    splitter: SentenceSplitter | None = None
    name: str = "sentence"

    def positions(self, index: DocumentIndex) -> np.ndarray:
        split = self.splitter or sentencex_splitter(self.language)
        return _before_space(index.text, split(index.text))


def _before_space(text: str, ends: Iterable[int]) -> np.ndarray:
    """Sentence ends moved back over the whitespace before them, without repeats.
    A cut there makes the same chunks (whitespace around a cut belongs to neither),
    and sentencex ends a sentence before or after a paragraph break depending on
    text far away (~0.3 % of ends move when it is given the text from a heading on):
    trimmed, the ends of a part of a document are those of the whole."""
    out: list[int] = []
    last = -1
    for p in ends:
        p = int(p)
        while p > 0 and text[p - 1].isspace():
            p -= 1
        if p > last:
            out.append(p)
            last = p
    return np.asarray(out, dtype=np.int64)


def sentencex_splitter(language: str = "en") -> SentenceSplitter:
    """Sentence ends found by sentencex (fast, rule-based)."""
    import sentencex

    def split(text: str) -> list[int]:
        # `segment` returns the sentences' texts in order (what lies between two
        # sentences, such as a blank line, is in none), so each is found from the
        # end of the one before. The same ends as `get_sentence_boundaries`, whose
        # five-key dict per sentence (with a copy of its text) took ~14 bytes per
        # character of the document at once: the peak of a whole-file chunk.
        ends, pos, find = [], 0, text.find
        for sentence in sentencex.segment(language, text):
            at = find(sentence, pos)
            if at < 0:  # never seen; the dict form says where sentences end
                return [b["end_index"] for b in sentencex.get_sentence_boundaries(language, text)]
            pos = at + len(sentence)
            ends.append(pos)
        return ends

    split.__name__ = f"sentencex[{language}]"
    return split


@dataclass(frozen=True, slots=True)
class Tokens(Level):
    """Token starts of the configured tokenizer (the finest level)."""

    name: str = "token"

    def positions(self, index: DocumentIndex) -> np.ndarray:
        return index.token_starts

    def span_positions(self, index: DocumentIndex, lo: int, hi: int) -> np.ndarray | None:
        return index.span_token_starts(lo, hi)


@dataclass(frozen=True, slots=True)
class Separator(Level):
    """Cut after every occurrence of a literal separator (kept with the text before
    it); the empty separator cuts between any two characters."""

    separator: str
    name: str = "separator"

    def positions(self, index: DocumentIndex) -> np.ndarray:
        text = index.text
        if self.separator == "":
            return np.arange(1, len(text), dtype=np.int64)
        sep, n, out, i = self.separator, len(self.separator), [], text.find(self.separator)
        while i != -1:
            out.append(i + n)
            i = text.find(sep, i + n)
        return np.asarray(out, dtype=np.int64)

    def __str__(self) -> str:
        return f"separator {self.separator!r}"


@dataclass(frozen=True, slots=True)
class Positions(Level):
    """Positions computed from the document by a function of the index: block
    ends, table rows, definitions of a code file... ``key`` tells apart two
    levels of the same name with different functions."""

    name: str
    #: called with the engine's DocumentIndex (more than the protocol above promises)
    find: Callable[[Any], Iterable[int]] = field(compare=False, hash=False)
    key: str = ""

    def positions(self, index: DocumentIndex) -> np.ndarray:
        found = self.find(index)
        return np.unique(np.asarray(found if isinstance(found, list) else list(found),
                                    dtype=np.int64))


PARAGRAPH = Paragraphs()
LINE = Pattern("line", r"\r\n|\r|\n")
SENTENCE = Sentences()
CLAUSE = Pattern("clause", r"[,;:)\]\u3001\uff0c\uff1b\uff1a\u2014](?=\s)|[\u3001\uff0c\uff1b\uff1a]",
                 use_end=True)
WORD = Pattern("word", r"(?<=\S)\s")
TOKEN = Tokens()

#: recursive's levels, best first
DEFAULT_LEVELS: tuple[Level, ...] = (PARAGRAPH, LINE, SENTENCE, CLAUSE, WORD, TOKEN)

