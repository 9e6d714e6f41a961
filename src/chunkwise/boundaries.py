"""Ranked boundary levels: where a chunk may end, from best to worst.

A level is a sorted array of character positions at which a cut is allowed
(paragraph ends, line ends, sentence ends, clause ends, word ends, token
starts). Cutting at a position ``p`` ends one chunk at ``p`` and starts the next
at the first non-whitespace character at or after ``p``; whitespace around a cut
is dropped from both chunks, never text.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

import numpy as np

from .errors import ConfigError

SentenceSplitter = Callable[[str], Iterable[int]]

_PARAGRAPH = re.compile(r"[ \t]*\r?\n(?:[ \t\f\v]*\r?\n)+")
_LINE = re.compile(r"\r?\n|\r")
_CLAUSE = re.compile(r"[,;:)\]\u3001\uff0c\uff1b\uff1a\u2014](?=\s)|[\u3001\uff0c\uff1b\uff1a]")
_WORD_END = re.compile(r"(?<=\S)\s")

LEVELS = ("paragraph", "line", "sentence", "clause", "word", "token")


def sentencex_splitter(language: str = "en") -> SentenceSplitter:
    """Sentence ends found by sentencex (fast, rule-based, ~300 languages)."""
    import sentencex

    def split(text: str) -> list[int]:
        return [b["end_index"] for b in sentencex.get_sentence_boundaries(language, text)]

    split.__name__ = f"sentencex[{language}]"
    return split


def _positions(pattern: re.Pattern, text: str, use_end: bool = False) -> np.ndarray:
    if use_end:
        return np.fromiter((m.end() for m in pattern.finditer(text)), dtype=np.int64)
    return np.fromiter((m.start() for m in pattern.finditer(text)), dtype=np.int64)


def separator_positions(text: str, separator: str) -> np.ndarray:
    """Cut positions after each occurrence of a literal separator (kept with the text before it)."""
    if separator == "":
        return np.arange(1, len(text), dtype=np.int64)
    return _positions(re.compile(re.escape(separator)), text, use_end=True)


def level_positions(name: str, text: str, sentence_splitter: SentenceSplitter | None = None,
                    token_starts: np.ndarray | None = None) -> np.ndarray:
    """Candidate cut positions of one level (not including higher levels)."""
    if name == "paragraph":
        return _positions(_PARAGRAPH, text)
    if name == "line":
        return _positions(_LINE, text)
    if name == "sentence":
        splitter = sentence_splitter or sentencex_splitter()
        return np.fromiter((int(p) for p in splitter(text)), dtype=np.int64)
    if name == "clause":
        return _positions(_CLAUSE, text, use_end=True)
    if name == "word":
        return _positions(_WORD_END, text)
    if name == "token":
        if token_starts is None:
            raise ValueError("token level needs token starts")
        return token_starts
    raise ConfigError(f"unknown boundary level {name!r} (expected one of {', '.join(LEVELS)})")
