"""A PDF's outline (its bookmarks, the panel a viewer shows beside the pages) as
headings.

LaTeX (hyperref), Word, LibreOffice, InDesign and Chrome's "Save as PDF" write one
naming the document's sections and the page each starts on. Where an entry's title
is a line of its page as printed (compared as words, case and punctuation aside,
the exact words first, then less a leading enumeration that one side lacks or that
the line shortens: ``I Introduction`` is the line ``I. INTRODUCTION``, ``III-A
Google DeepDream`` the line ``A. Google DeepDream``, but ``1.2 Metric spaces`` is not
the running header ``7 1.2. METRIC SPACES``; numbers spelled out up to twenty are
digits, ``CHAPTER ONE: Creators`` for ``Chapter 1: Creators``; a title wrapped over
two or three lines is those lines), that line is a heading at the entry's depth,
whatever its font size: the font-size rule alone had found 1 of a paper's 20
sections (set in capitals of the body's size) and 1 of a report's 4 chapters set in
its body font. The heading's text is the line as printed; an entry whose title no
line of its page prints (other words, or an image of text) adds nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from ..errors import reraise_interrupt

#: bookmarks read at most (a malformed outline may loop or hold millions)
MAX_ENTRIES = 20_000
#: the longest title read as a heading, as for headings told by font size
MAX_TITLE = 120
#: lines of a page a wrapped title may take
_WRAP = 3
_WORD = re.compile(r"\w+")
#: a section's number, a roman numeral, a lone letter: "III", "A", "2", "1a"
_ENUMERATION = re.compile(r"^(?:\d{1,3}[a-z]?|[ivxlcdm]{1,6}|[a-z])$")

Entry = tuple[int, str, int]  # level (1 = outermost), title, 0-based page


def outline(pdf: Any) -> list[Entry]:
    """The entries of a pypdfium2 document's outline that point at one of its pages,
    in the outline's order; none where it has no outline or cannot be read."""
    out: list[Entry] = []
    n_pages = len(pdf)
    try:
        for mark in pdf.get_toc(max_depth=16):
            if len(out) >= MAX_ENTRIES:
                break
            dest = mark.get_dest()
            page = dest.get_index() if dest is not None else None
            title = " ".join((mark.get_title() or "").split())
            if page is None or not 0 <= page < n_pages or not _words(title) \
                    or len(title) > MAX_TITLE:  # (a bookmarked paragraph is no heading)
                continue
            out.append((mark.level + 1, title, page))
    except Exception as exc:  # a damaged outline costs the document its bookmarks only
        reraise_interrupt(exc)
        return []
    return out


#: numbers spelled out, as a chapter's opening page may print its number while the
#: outline gives digits ("CHAPTER ONE: Creators" under "Chapter 1: Creators")
_SPELLED = {w: str(n) for n, w in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty"])}


def _words(text: str) -> tuple[str, ...]:
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold().replace("_", " "))
    return tuple(_SPELLED.get(w, w) for w in words)


def _split(words: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A leading enumeration and the words after it ("iii a google deepdream" ->
    "iii a", "google deepdream"); no enumeration where nothing else would be left."""
    i = 0
    while i < len(words) - 1 and i < 3 and _ENUMERATION.match(words[i]):
        i += 1
    return words[:i], words[i:]


def _same(title: tuple[str, ...], line: tuple[str, ...], loose: bool) -> bool:
    """Whether a line prints a title: the same words, or (``loose``) the same words
    after an enumeration that one of them lacks or that the line shortens (the
    outline's ``III-A`` printed ``A.``); not a running header's page number before the
    section's (``7 1.2. METRISCHE RÄUME`` is no ``1.2 Metrische Räume``)."""
    if title == line:
        return True
    if not loose:
        return False
    (title_number, rest), (line_number, line_rest) = _split(title), _split(line)
    # (what is left must say something: two words, or one of four letters or more)
    return rest == line_rest and (len(rest) > 1 or len(rest[0]) >= 4) and (
        not title_number or not line_number or title_number[-len(line_number):] == line_number)


def _find(lines: list[tuple[str, ...] | None], title: tuple[str, ...],
          start: int) -> tuple[int, int] | None:
    """Where on a page (each line's words, None for a table; a blank line has none) a
    title is printed, from line ``start`` on: (first line, number of lines); the words
    as in the outline first."""
    for loose in (False, True):
        # (a loose match may have a few words more: the enumeration the title lacks)
        longest = len(title) + (3 if loose else 0)
        for i in range(start, len(lines)):
            if not lines[i]:
                continue  # (a title starts on a line of words, not on a stray glyph)
            words: tuple[str, ...] = ()
            for n in range(_WRAP):
                more = lines[i + n] if i + n < len(lines) else None
                if not more:
                    break
                words += more
                if _same(title, words, loose):
                    return i, n + 1
                if len(words) >= longest:
                    break
    return None


def outline_headings(pages: list[list[Any]], entries: list[Entry],
                     sized: dict[int, dict[str, int]]) -> dict[int, dict[str, int]]:
    """The lines of ``pages`` (0-based; a page's lines, tables as tuples) that print
    an outline entry's title, as {page: {line: level}}. A title wrapped over lines is
    joined into one line of ``pages`` (changed in place). Levels follow the headings
    found by font size (``sized``, same shape) where the two agree on an entry: an
    entry at outline depth 2 whose line the font sizes made level 3 makes depth 2
    level 3 throughout; else the depth is the level."""
    found: list[tuple[int, int, int, int]] = []  # page, first line, lines, depth
    after: dict[int, int] = {}  # per page, the line after the last title found there
    words_of: dict[int, list[tuple[str, ...] | None]] = {}  # per page, each line's words
    for depth, title, page in entries:
        words = _words(title)
        for p in (page, page + 1):  # (a destination may be the page before the title)
            if p >= len(pages):
                break
            if p not in words_of:
                words_of[p] = [_words(x) if isinstance(x, str) else None for x in pages[p]]
            at = _find(words_of[p], words, after.get(p, 0))
            if at is not None:
                found.append((p, at[0], at[1], depth))
                after[p] = at[0] + at[1]
                break
    agree: dict[int, Counter[int]] = {}
    lines = []
    for p, first, n, depth in found:
        text = " ".join(" ".join(pages[p][first:first + n]).split())
        lines.append((p, text, depth))
        if text in sized.get(p, {}):
            agree.setdefault(depth, Counter())[sized[p][text]] += 1
    # wrapped titles joined, last first so that the lines above keep their places
    for p, first, n, _ in sorted(found, reverse=True):
        if n > 1:
            pages[p][first:first + n] = [" ".join(line.strip() for line in pages[p][first:first + n])]
    shift = {depth: counts.most_common(1)[0][0] - depth for depth, counts in agree.items()}
    out: dict[int, dict[str, int]] = {}
    for p, text, depth in lines:
        known = sized.get(p, {}).get(text)
        nearest = min(shift, key=lambda d: (abs(d - depth), d), default=None)
        level = known or depth + (shift[nearest] if nearest is not None else 0)
        out.setdefault(p, {})[text] = max(1, level)
    return out
