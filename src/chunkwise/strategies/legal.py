"""Contracts and regulations: numbered clauses as the hierarchy, cross-references
and defined terms resolved into context.

Clauses are found at line starts (``1.``, ``1.1``, ``1.1.1``, ``(a)``, ``(i)``,
``Article 3``, ``Section 7``, ``Clause 2``, ``§ 4``) and inline, where a
sub-clause starts mid-line after a colon or semicolon (``...as follows: (a) the
first; (b) the second``). Each top-level clause is cut on its own, at its
sub-clauses first; every chunk carries its clause trail (``7. Termination >
7.2``) in context. Defined terms (``"Confidential Information" means ...``) are
collected; a chunk that refers to another clause (``as defined in 4.2``,
``subject to Section 7(b)``, ``pursuant to Article 3``) or uses a defined term
gets the referenced clause's number and heading and the definition's first
sentence in context: ``references_budget`` tokens (default a quarter of the
budget) are kept free for them when clauses are cut, and they may also fill what
room a chunk leaves under the limit (a short clause gets a definition longer than
the reserve); what was resolved is listed in ``metadata.references``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import PARAGRAPH, TOKEN, WORD, Positions, Sentences, SentenceSplitter
from ..readers.structure import markup_between
from ..types import Document
from .base import STRATEGIES, Chunker, register

_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_NUMBERED = re.compile(
    r"^[ \t>#*]*(?:(?P<word>(?:Article|Section|Clause|Schedule|Part)\b|§)\s*"
    r"(?P<wnum>[0-9]+[A-Za-z]?(?:\.[0-9]+)*|[IVXLC]+\b)\.?"
    r"|(?P<num>[0-9]{1,3}(?:\.[0-9]{1,3}){0,4})\.?(?:\*\*)?(?=\s))"
    r"[ \t]*[-–—:.]?[ \t]*(?P<title>[^\n]*)$", re.MULTILINE | re.IGNORECASE)
_LETTERED = re.compile(r"^[ \t]*\((?P<item>[a-z]{1,4})\)[ \t]+(?P<title>[^\n]*)$",
                       re.MULTILINE)
#: an item in running text after a colon or semicolon ("...: (a) the Services; and (b)");
#: the colon is matched, not looked behind for: the same items, found ~5x faster
_INLINE = re.compile(r"[:;][ \t]+(?:and[ \t]+|or[ \t]+)?\((?P<item>[a-z]{1,4})\)[ \t]+")
_DEFINITION = re.compile(
    # (the term in bold too, as Markdown writes it: "**Subscription**" means, **"Fees"** means)
    r"(?:\*\*|__)?[\"“](?:\*\*|__)?(?P<term>[A-Z][^\"”\n*]{1,80}?)(?:\*\*|__)?[\"”](?:\*\*|__)?"
    r"\s+(?:means|shall mean|has the meaning|refers to|"
    r"is defined as|includes)\b")
_REFERENCE = re.compile(
    r"\b(?:(?:(?:Sections?|Clauses?|Articles?|Paragraphs?|Schedules?)\b|§§?)\s*"
    r"(?P<a>[0-9]+[A-Za-z]?(?:\.[0-9]+)*(?:\([a-z0-9]+\))*|[IVXLC]+\b"
    r"|(?-i:[A-Z])(?:\.[0-9]+)*(?:\([a-z0-9]+\))*(?!\w))"
    r"|(?:as defined in|defined in|set out in|referred to in|under|pursuant to|in accordance "
    r"with|subject to|in)\s+(?P<b>[0-9]+(?:\.[0-9]+)+(?:\([a-z0-9]+\))*))",
    re.IGNORECASE)


@dataclass(slots=True)
class Clause:
    number: str  # "4", "4.2", "4.2(a)", "4.2(a)(i)"
    title: str
    start: int
    level: int
    parent: int | None
    end: int = 0
    children: list[int] = field(default_factory=list)
    prefix: str = ""  # "Article", "Section", "§" where the clause is numbered so
    body: int = 0  # a heading's clause: where its heading ends

    @property
    def name(self) -> str:
        return f"{self.prefix} {self.number}".strip()

    @property
    def heading(self) -> str:
        """The clause's heading when its first line is one (short, not a sentence), or
        opens with one run in before its text (``Termination for Convenience. Either
        Party may ...``, ``DEFINITIONS. As used ...``, ``Payment.``)."""
        t = self.title.replace("**", "").strip()  # (Markdown's bold: ``**Fees.** ...``)
        run_in = run_in_heading(t)
        if run_in or not t or len(t) > 80 or t.endswith((".", ";", ",")):
            return run_in
        return t.rstrip(":")

    @property
    def label(self) -> str:
        return f"{self.name} {self.heading}".strip()

    def summary(self, text: str) -> str:
        """What a reference to the clause says: its number and heading, or its number
        and first sentence."""
        if self.heading:
            return f"{self.name} {self.heading}"
        body = " ".join(w for w in text[self.start:self.end].split() if w.strip("#"))
        body = body[len(self.name):].lstrip(" .)") if body.startswith(self.name) else body
        end = body.find(". ")
        sentence = body[:end + 1] if end != -1 else body
        if len(sentence) > 240:
            sentence = sentence[:237].rsplit(" ", 1)[0] + "..."
        return f"{self.name}: {sentence}"


class TermUses:
    """Where each defined term is first used in a text, as a whole word or phrase
    (case as defined), in one pass over the text for all the terms.

    One pattern finds, at each place, the longest term used there (the terms in
    order of length); the shorter terms used at the same place are the longer one's
    own beginnings that end a word there, known from the terms alone. What it finds
    is what searching the text for each term alone finds (tested)."""

    def __init__(self, terms: Iterable[str]):
        by_length = sorted({t for t in terms if t}, key=len, reverse=True)
        self.pattern = re.compile(r"(?<!\w)(?=(" + "|".join(map(re.escape, by_length))
                                  + r")(?!\w))") if by_length else None
        word = re.compile(r"\w")
        self.inner: dict[str, list[str]] = {
            t: [u for u in by_length if len(u) < len(t) and t.startswith(u)
                and not word.match(t, len(u))] for t in by_length}

    def first_uses(self, text: str) -> dict[str, int]:
        found: dict[str, int] = {}
        if self.pattern is None:
            return found
        for m in self.pattern.finditer(text):
            term = m.group(1)
            for t in (term, *self.inner[term]):
                found.setdefault(t, m.start())
        return found


@dataclass(slots=True)
class Definition:
    term: str
    clause: str | None
    sentence: str
    start: int
    end: int


#: words a title leaves in lower case ("Termination for Convenience", "Use of Data")
_SMALL_WORDS = frozenset((
    "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "nor", "of",
    "on", "or", "per", "the", "to", "under", "upon", "via", "with", "without"))
_RUN_IN = re.compile(r"([^.:!?\n]{1,80}?)[.:](?=\s|$)")
_WORDS = re.compile(r"[^\W\d_][\w'’/&-]*")


def run_in_heading(line: str) -> str:
    """The heading a clause's first line opens with, ended by a full stop or a colon:
    up to ten words, each capitalised but the small ones (``Waiver; Reps and
    Warranties; Indemnification.``, ``GRANT OF LICENSE.``); "" where the line opens
    with a sentence (``The Licensee shall pay ...``, ``You agree.``, ``THE SOFTWARE
    IS PROVIDED "AS IS" WITHOUT ...``)."""
    m = _RUN_IN.match(line)
    if m is None:
        return ""
    phrase = m.group(1).strip()
    words = _WORDS.findall(phrase)
    if not phrase or not phrase[0].isupper() or not words or len(words) > 10:
        return ""
    if phrase.isupper() and len(words) > 6:  # a disclaimer in capitals: a sentence
        return ""
    if all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words):
        return phrase
    return ""


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _roman(item: str) -> bool:
    return bool(_ROMAN.match(item))


def _wrapped(text: str, start: int, title: str) -> bool:
    """Whether a line that starts with a number is a sentence's hard-wrapped
    continuation ("... under Section\n2.1 of this License"), not a clause: the line
    before is text that does not end a sentence or clause, and what follows the number
    starts in lower case."""
    words = title.lstrip()
    if not words or not words[0].islower():
        return False
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(0, text.rfind("\n", 0, max(0, line_start - 1)) + 1):max(0, line_start - 1)]
    before = before.rstrip()
    return bool(before) and before[-1] not in ".:;!?)]" and not before.lstrip().startswith("#")


def find_clauses(text: str) -> list[Clause]:
    """The clause tree of a text, in document order."""
    marks: list[tuple[int, str, str, str]] = []  # start, kind, item, title
    for m in _NUMBERED.finditer(text):
        # the clause starts at its line (Markdown markers included), after indentation
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(" \t"))
        if m.group("word"):
            said = m.group("title").split()
            if said and said[0][0].islower() and (
                    len(said) > 3 or _wrapped(text, start, m.group("title"))):
                continue  # a sentence opening with a reference: "Section 15.2 does not apply to:"
            marks.append((start, "word:" + m.group("word").capitalize(), m.group("wnum"),
                          m.group("title")))
        elif not _wrapped(text, start, m.group("title")):
            marks.append((start, "num", m.group("num"), m.group("title")))
    for m in _LETTERED.finditer(text):
        marks.append((m.start("item") - 1, "letter", m.group("item"), m.group("title")))
    for m in _INLINE.finditer(text):
        marks.append((m.start("item") - 1, "inline", m.group("item"), ""))
    marks.sort()
    clauses: list[Clause] = []
    inline: list[int] = []  # clauses that are items in running text
    stack: list[int] = []  # open clauses, outermost first

    def item_of(c: Clause) -> str:
        return c.number.rsplit("(", 1)[-1].rstrip(")") if c.number.endswith(")") else ""

    # a top-level number far from both numbers around it is no clause: an address
    # ("51 Franklin Street, ..." before GPL-2.0's clause 0 and after its clause 12)
    tops = [k for k, (_, kind, item, title) in enumerate(marks)
            if kind == "num" and "." not in item and title.strip()]
    isolated = {k for j, k in enumerate(tops) if len(tops) > 1 and all(
        abs(int(marks[k][2]) - int(marks[o][2])) > 9
        for o in (tops[j - 1] if j else None, tops[j + 1] if j + 1 < len(tops) else None)
        if o is not None)}
    for n, (start, kind, item, title) in enumerate(marks):
        word = kind[5:] if kind.startswith("word:") else ""
        if kind == "num" or word:
            depth = item.count(".") + 1 if kind == "num" else 1
            if kind == "num" and depth == 1 and (not title.strip() or n in isolated):
                continue  # a bare number on a line (a page number, an amount), an address
            while stack and (clauses[stack[-1]].level >= depth or
                             clauses[stack[-1]].number.endswith(")")):
                stack.pop()
            number, level = item, depth
        else:
            top = clauses[stack[-1]] if stack else None
            top_item = item_of(top) if top is not None else ""
            letter_top = bool(top_item) and not _roman(top_item)
            roman_top = bool(top_item) and _roman(top_item)
            if _roman(item) and letter_top and not (
                    len(item) == len(top_item) == 1 and ord(item) == ord(top_item) + 1):
                pass  # (i) under (a): one level down; (i) after (h), (c) after (b): letters
            elif _roman(item) and roman_top and not (len(item) == 1 and item != "i" and
                                                      item == chr(ord(top_item[-1]) + 1)):
                stack.pop()  # (ii) after (i): a sibling
            else:
                while stack and clauses[stack[-1]].number.endswith(")"):
                    stack.pop()  # (b) after (a) or after (a)(iii): back to the letters
            parent_clause = clauses[stack[-1]] if stack else None
            number = f"{parent_clause.number if parent_clause else ''}({item})"
            level = parent_clause.level + 1 if parent_clause else 1
        parent = stack[-1] if stack else None
        if kind == "inline":
            inline.append(len(clauses))
        clauses.append(Clause(number, title, start, level, parent, prefix=word))
        if parent is not None:
            clauses[parent].children.append(len(clauses) - 1)
        stack.append(len(clauses) - 1)
    # a clause ends where the next clause of its level or above starts (one pass)
    open_: list[int] = []
    for i, c in enumerate(clauses):
        while open_ and clauses[open_[-1]].level >= c.level:
            clauses[open_.pop()].end = c.start
        open_.append(i)
    for i in open_:
        clauses[i].end = len(text)
    # an item in running text ends with its paragraph at the latest: the definitions
    # after "... means: (i) students; ... and (iv) researchers." are not item (iv)'s
    for i in inline:
        c = clauses[i]
        blank = _BLANK_LINE.search(text, c.start, c.end)
        # (an item whose own items follow in the next paragraphs goes on with them)
        if blank is not None and all(clauses[k].start < blank.start() for k in c.children):
            c.end = blank.start()
            for k in c.children:
                clauses[k].end = min(clauses[k].end, c.end)
    return clauses


#: a defined term used in more than this share of the top-level clauses ("License",
#: "You": 91 % and 73 % of MPL-2.0's 11) says nothing about where a chunk stands: its
#: definition is not attached (documents of at least 6 top-level clauses; a short
#: contract's key term, in 3 of its 5, still is)
UBIQUITOUS = 0.7


def _informative(text: str, clauses: list[Clause],
                 definitions: dict[str, Definition]) -> dict[str, Definition]:
    """The definitions worth attaching: not those of terms nearly every clause uses
    (MPL-2.0's "License" definition went into 27 of its 50 chunks)."""
    tops = [c for c in clauses if c.level == 1]
    if len(tops) < 6:
        return definitions
    terms = TermUses(definitions)
    using: dict[str, int] = {}  # term -> how many top-level clauses use it
    for c in tops:
        for term in terms.first_uses(text[c.start:c.end]):
            using[term] = using.get(term, 0) + 1
    return {term: d for term, d in definitions.items()
            if using.get(term, 0) / len(tops) <= UBIQUITOUS}


def find_definitions(text: str, clauses: list[Clause]) -> dict[str, Definition]:
    starts = [c.start for c in clauses]
    out: dict[str, Definition] = {}
    for m in _DEFINITION.finditer(text):
        term = m.group("term").strip()
        if term in out:
            continue
        end = len(text)
        for stop in (". ", ".\n", ";\n"):
            j = text.find(stop, m.end())
            if j != -1:
                end = min(end, j + 1)
        sentence = " ".join(text[m.start():end].replace("**", "").split())  # (no bold marks)
        if len(sentence) > 400:
            sentence = sentence[:397].rsplit(" ", 1)[0] + "..."
        i = bisect_right(starts, m.start()) - 1
        out[term] = Definition(term, clauses[i].number if i >= 0 and clauses[i].number else None, sentence,
                               m.start(), end)
    return out


def _heading_lines_end(text: str, lo: int, hi: int) -> int | None:
    """Where the heading lines at ``lo`` end (a clause's title line, Markdown headings
    under it), so that they travel with the text after them; None when there are none."""
    end = None
    pos = lo
    first = True
    while pos < hi:
        nl = text.find("\n", pos, hi)
        line_end = hi if nl == -1 else nl
        line = text[pos:line_end].strip()
        if line:
            short = len(line) <= 120 and not line.endswith((".", ";", ":", ","))
            if not (line.startswith("#") or (first and short)):
                break
            end = line_end
            first = False
        if nl == -1:
            break
        pos = nl + 1
    return end


def _few_numbers(text: str) -> bool:
    """Fewer than five different numbers open a line (what a contract's clauses need,
    checked before the clause tree is built: most documents stop here)."""
    numbers: set[str] = set()
    for m in _NUMBERED.finditer(text):
        numbers.add((m.group("num") or m.group("wnum") or "").lower())
        if len(numbers) >= 5:
            return False
    return True


def looks_like_contract(text: str, headings: list[str] | None = None) -> bool:
    """Clearly a contract or regulation: five numbered clauses or more, and defined
    terms or cross-references between clauses; where the document has headings
    (``headings``: their texts), most of them are numbered clauses; in English, the
    words of legal drafting at least :data:`LEGAL_WORDS_PER_1000` per thousand."""
    if headings:
        numbered = sum(1 for h in headings if _NUMBERED.match(h.lstrip("# ")))
        if numbered < 0.6 * len(headings):
            return False  # a structured document that mentions clauses: section
    sample = text[:200_000]
    if _few_numbers(sample) or not _drafted_as_law(sample):
        return False
    clauses = [c for c in find_clauses(sample) if "(" not in c.number]
    numbers = {c.number.lower() for c in clauses}
    if len(numbers) < 5:  # five different clause numbers, not one repeated
        return False
    if not _ascending(clauses):
        return False  # numbered newest first: a change log's versions (3.3.1, 3.3.0, ...)
    if len(find_definitions(sample, clauses)) >= 2:
        return True
    refs = (m for m in _REFERENCE.finditer(sample)
            if (m.group("a") or m.group("b") or "").lower() in numbers)
    return next(refs, None) is not None and next(refs, None) is not None  # two or more


#: the words of English legal drafting: licences, contracts and regulations use them
#: 28 to 81 times per thousand words of their first half (the 18 licences in
#: /usr/share/common-licenses, the samples' supply agreement 47), technical manuals and
#: specifications with numbered sections and "see section 2.1" 0.4 to 2.0 (seven
#: manuals), 9.2 GNU time's short manual, whose second half is the GFDL
#: ("null-terminated" is why "terminated" is not one of them)
_LEGAL_WORDS = re.compile(
    r"\b(?:shall|hereby|herein|hereof|hereunder|hereto|thereof|thereto|therein|pursuant|"
    r"notwithstanding|whereas|party|parties|agreements?|licen[cs]e[sd]?|licen[cs]ees?|"
    r"licensors?|permissions?|liable|liability|indemnif\w*|warranty|warranties|terminate|"
    r"termination|jurisdiction|obligations?|breach|covenants?|provisions?|rights?|grants?|"
    r"granted|copyright|contracts?|laws?|damages|conditions)\b", re.IGNORECASE)
LEGAL_WORDS_PER_1000 = 12
#: English by its commonest words (a fifth of the words of English prose, a tenth of
#: a manual opening with its table of contents, none of a German or French contract's,
#: whose clauses are judged by their numbers alone), among words of letters
_ENGLISH_WORDS = re.compile(r"\b(?:the|of|and|to)\b", re.IGNORECASE)
_LETTER_WORDS = re.compile(r"[^\W\d_]+")


def _drafted_as_law(text: str) -> bool:
    """Whether ``text`` is worded as law from its start (its first half): always where
    it is not English, else where the words of legal drafting come often enough (a
    manual numbers its sections and refers to them as a contract does, but does not
    grant, warrant or oblige; GNU time's manual has the GFDL as its second half: 23.8
    per thousand words over the whole, 9.2 over its first half)."""
    text = text[:len(text) // 2 + 1]
    words = len(text.split())
    if not words or len(_ENGLISH_WORDS.findall(text)) < 0.02 * len(_LETTER_WORDS.findall(text)):
        return True
    return len(_LEGAL_WORDS.findall(text)) * 1000 >= LEGAL_WORDS_PER_1000 * words


_DOTTED = re.compile(r"\d+(?:\.\d+)*")
_WORDY = re.compile(r"[^\W_]")  # a letter or a digit


def _ascending(clauses: Sequence[Clause]) -> bool:
    """Whether a text's numbered clauses mostly count up, as a contract's do: at
    least half of the steps between two dotted numbers (``2`` -> ``2.1`` ->
    ``3``) go up. A NEWS file's release lines (``3.3.1 fixes ...``) count down."""
    ranks = [tuple(map(int, c.number.split("."))) for c in clauses
             if _DOTTED.fullmatch(c.number)]
    steps = list(zip(ranks, ranks[1:]))
    return not steps or 2 * sum(b > a for a, b in steps) >= len(steps)


#: a heading's clause number (``4.``, ``2.1``, ``1A.``, ``A.``, ``IV.``, ``Article 3``,
#: ``Section 7:``, ``§ 4``): what a contract written with headings numbers its parts by
_HEADING_NUMBER = re.compile(
    r"(?:(?P<word>Article|Section|Clause|Schedule|Part)\s+|§\s*)?"
    r"(?P<num>[0-9]{1,3}[A-Za-z]?(?:\.[0-9]{1,3})*\.?|[A-Za-z][.)]|[IVXLC]+[.)]"
    r"|(?<=[\w§] )(?:[A-Z]|[IVXLC]+))(?=\s|$)[ \t]*[-–—:.]?[ \t]*(?P<title>.*)", re.IGNORECASE)


def heading_clauses(doc: Document) -> list[Clause] | None:
    """A contract's clause tree from its headings, where the headings rather than
    their numbers tell it: the same number heads two parts (GitHub's Terms of Service
    number the articles of each lettered part 1, 2, 3 ...: ``B. Account Terms >
    1. Account Controls``, ``D. User-Generated Content > 1. Responsibility ...``; its
    Sponsors terms restart at 1 under each of three parts). A heading's number is its
    own under a heading without one, or dotted (``2.1``), else its parent's and its
    own (``D.4``); an unnumbered heading is a clause without a number. None where the
    numbers alone make the tree (each number once), or there are no headings."""
    heads = [b for b in doc.blocks if b.kind == "heading" and b.headings]
    labels: list[tuple[str, str, str]] = []  # (number as written, prefix, title)
    seen: set[str] = set()
    repeated = False
    for b in heads:
        name = b.headings[-1].strip()
        m = _HEADING_NUMBER.match(name)
        if m is None:
            labels.append(("", "", name))
            continue
        label = m.group("num").rstrip(".)")
        word = m.group("word") or ("§" if name.startswith("§") else "")
        labels.append((label, word.capitalize() if word != "§" else word, m.group("title")))
        repeated = repeated or label.lower() in seen
        seen.add(label.lower())
    if not repeated:
        return None
    clauses: list[Clause] = []
    stack: list[tuple[int, int]] = []  # (heading level, clause index), outermost first
    for b, (label, word, title) in zip(heads, labels):
        level = b.level or 1
        while stack and stack[-1][0] >= level:
            clauses[stack.pop()[1]].end = b.start
        parent = stack[-1][1] if stack else None
        above = parent
        while above is not None and not clauses[above].number:
            above = clauses[above].parent
        number = label
        if label and above is not None and "." not in label:
            number = f"{clauses[above].number}.{label}"
        clauses.append(Clause(number, title if label else b.headings[-1].strip(), b.start,
                              len(stack) + 1, parent, prefix=word, body=b.end))
        if parent is not None:
            clauses[parent].children.append(len(clauses) - 1)
        stack.append((level, len(clauses) - 1))
    for _, i in stack:
        clauses[i].end = len(doc.text)
    return clauses


def _parent(clauses: list[Clause], i: int) -> int:
    parent = clauses[i].parent
    return -1 if parent is None else parent


def _owner(clauses: list[Clause], starts: list[int], pos: int) -> int:
    """The innermost clause still open at ``pos`` (-1: none): the last to start before
    it, or its parent where it ended before (an item that ended with its paragraph, a
    part before the next heading)."""
    j = bisect_right(starts, pos) - 1
    while j >= 0 and clauses[j].end <= pos:
        j = _parent(clauses, j)
    return j


def _title_line(text: str) -> bool:
    """Whether stripped text is one short line: a title that goes with what follows."""
    return bool(text) and "\n" not in text and len(text) <= 120


@register("legal")
class LegalChunker(Chunker):
    """Clauses as the hierarchy, their trail in context, references and defined
    terms resolved into context within ``references_budget`` tokens."""

    kind = "clause"

    def __init__(self, size: int | None = None, *, references_budget: int | None = None,
                 language: str = "en", sentence_splitter: SentenceSplitter | None = None,
                 **options: Any):
        super().__init__(size, **options)
        if references_budget is None:
            references_budget = self.limit // 4
        if isinstance(references_budget, bool) or not isinstance(references_budget, int) or \
                not 0 <= references_budget <= self.limit // 2:
            raise ConfigError(f"references_budget must be between 0 and half the budget "
                              f"({self.limit // 2}), got {references_budget!r}")
        self.references_budget = references_budget
        self.sentences = Sentences(language=language, splitter=sentence_splitter)
        self._section: Chunker | None = None

    def options(self) -> dict[str, Any]:
        return {"references_budget": self.references_budget}

    def _analysis(self, index: DocumentIndex) -> tuple[list[Clause], dict[str, Definition]]:
        found = index.memo.get("legal")
        if found is None:
            clauses = index.memo.get("legal-headed") or find_clauses(index.text)
            definitions = find_definitions(index.text, clauses)
            found = (clauses, _informative(index.text, clauses, definitions))
            index.memo["legal"] = found
        return found

    def _headed(self, doc: Document, index: DocumentIndex) -> Chunker | None:
        """The section packing (at the budget less the references' reserve) for a
        contract whose headings, not its numbers, are its clause tree
        (:func:`heading_clauses`); None for the others."""
        if "legal-headed" not in index.memo:
            index.memo["legal-headed"] = heading_clauses(doc)
        if index.memo["legal-headed"] is None:
            return None
        if self._section is None:
            size = self.limit - self.references_budget
            self._section = STRATEGIES["section"](config=replace(
                self.config, size=size, size_given=True,
                overlap=min(self.config.overlap, size - 1)))
        return self._section

    def windowed(self, doc: Document, index: DocumentIndex) -> bool:
        section = self._headed(doc, index)
        return section.windowed(doc, index) if section is not None else True

    def known_restarts(self, doc: Document, index: DocumentIndex,
                       span: Span) -> Sequence[int] | None:
        section = self._headed(doc, index)
        return section.known_restarts(doc, index, span) if section is not None else None

    def restarts(self, doc: Document, index: DocumentIndex, span: Span,
                 pieces: Sequence[Piece]) -> Sequence[int] | None:
        """The starts of the span's top-level clauses after the first that end inside
        it: each is cut on its own (clauses, definitions and references are the whole
        document's, found once); a contract cut at its headings: the section packing's."""
        section = self._headed(doc, index)
        if section is not None:
            return section.restarts(doc, index, span, pieces)
        clauses, _ = self._analysis(index)
        starts, tops = self._starts(index, clauses)
        inside = tops[bisect_left(tops, span.lo, key=lambda i: starts[i]):
                      bisect_left(tops, span.hi, key=lambda i: starts[i])]
        return [starts[i] for i in inside[1:-1]]

    @staticmethod
    def _starts(index: DocumentIndex, clauses: list[Clause]) -> tuple[list[int], list[int]]:
        """Every clause's start, and the top-level clauses' indices (found once for
        the document: its windows each ask)."""
        found = index.memo.get("legal-starts")
        if found is None:
            found = index.memo["legal-starts"] = (
                [c.start for c in clauses], [i for i, c in enumerate(clauses) if c.parent is None])
        return found

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        section = self._headed(doc, index)
        if section is not None:
            return self._split_headed(doc, index, span, section)
        text = index.text
        clauses, definitions = self._analysis(index)
        starts, all_tops = self._starts(index, clauses)

        def level_starts(depth: int) -> Positions:
            return Positions(f"clause-{depth}", lambda ix: [c.start for c in clauses
                                                            if c.level == depth],
                             key=str(id(clauses)))

        policy = PackPolicy((level_starts(2), level_starts(3), level_starts(4), PARAGRAPH,
                             self.sentences, WORD, TOKEN), (self.sentences,))
        packer = Packer(index, policy, self.config.budget.reserve(self.references_budget))
        # the preamble and every top-level clause, each cut on its own
        tops = all_tops[bisect_left(all_tops, span.lo, key=lambda i: starts[i]):
                        bisect_left(all_tops, span.hi, key=lambda i: starts[i])]
        out: list[Piece] = []
        lead_end = clauses[tops[0]].start if tops else span.hi
        lead = text[span.lo:lead_end].strip()
        first_lo = None
        if tops and _title_line(lead):
            first_lo = span.lo  # a title line goes with the first clause
        elif lead:
            first = index.skip_space(span.lo, lead_end)
            i = bisect_right(starts, first) - 1  # a span inside a clause (a child level)
            out.extend(self._cut(index, packer, clauses, i, span.lo, lead_end, span.context))
        carry: int | None = first_lo
        for k, i in enumerate(tops):
            hi = min(clauses[i].end, span.hi)
            if k + 1 < len(tops):
                hi = min(hi, clauses[tops[k + 1]].start)
            lo = carry if carry is not None else clauses[i].start
            floor = _heading_lines_end(text, clauses[i].start, hi)
            if k + 1 < len(tops) and floor is not None and not _WORDY.search(text, floor, hi):
                # a clause of headings only (and punctuation: Debian's copyright files
                # write a licence's blank lines as " ."): it goes with the next clause
                carry = lo
                continue
            carry = None
            out.extend(self._cut(index, packer, clauses, i, lo, hi, span.context))
        owners = []
        for p in out:
            j = _owner(clauses, starts, p.start)
            owners.append(j)
            if j < 0 and starts and starts[0] < p.end:  # a title line, then the first clause
                j = 0
            p.kind = "clause"
            if j >= 0:
                p.metadata["clause"] = clauses[j].number
            p.headings = tuple(self._trail(clauses, j))
        return [self._with_references(index, p, clauses, definitions, j)
                for p, j in zip(out, owners)]

    def _split_headed(self, doc: Document, index: DocumentIndex, span: Span,
                      section: Chunker) -> list[Piece]:
        """A contract written with headings: cut as ``section`` cuts (its heading
        trail in context, tables whole), each piece's clause the innermost numbered
        heading above it, its references and defined terms resolved into context; a
        number that heads two clauses is no reference's target."""
        clauses, definitions = self._analysis(index)
        if "legal-numbers" not in index.memo:
            numbers: dict[str, Clause | None] = {}
            for c in clauses:
                if c.number:
                    key = c.number.lower()
                    numbers[key] = None if key in numbers else c
            index.memo["legal-numbers"] = {k: c for k, c in numbers.items() if c is not None}
        starts, _ = self._starts(index, clauses)
        out = []
        for p in section.split(doc, index, span):
            j = _owner(clauses, starts, p.start)
            # headings over headings alone (``## B. Account Terms`` over ``### 1. ...``):
            # the clause is the last of them, the one whose text the piece holds
            while j + 1 < len(clauses) and (j < 0 or clauses[j].start >= p.start) and \
                    p.start <= clauses[j + 1].start < p.end and \
                    markup_between(index.text, clauses[j].body if j >= 0 else p.start,
                                   clauses[j + 1].start):
                j += 1
            k = j
            while k >= 0 and not clauses[k].number:
                k = _parent(clauses, k)
            if k >= 0:
                p.metadata["clause"] = clauses[k].number
            if p.kind in (None, "prose"):
                p.kind = "clause"
            out.append(self._with_references(index, p, clauses, definitions, j))
        return out

    def _ctx(self, inherited: str, clauses: list[Clause], i: int) -> str:
        """The clause trail (``7 Termination > 7.2``) in context; only the clause's own
        label where the trail would take more than a quarter of the budget (of its
        tokens or of its characters)."""
        trail = self._trail(clauses, i)
        if not trail:
            return inherited

        def too_long(ctx: str) -> bool:
            return len(ctx) > self.max_chars // 4 or self.tokenizer.count(ctx) > self.limit // 4

        ctx = inherited + " > ".join(trail) + "\n"
        if too_long(ctx):
            ctx = inherited + trail[-1] + "\n"
            if too_long(ctx):
                return inherited
        return ctx

    def _cut(self, index: DocumentIndex, packer: Packer, clauses: list[Clause], i: int,
             lo: int, hi: int, inherited: str) -> list[Piece]:
        """Clause ``i`` (``[lo, hi)``): whole if it fits with its trail; else its
        sub-clauses cut the same way, one level down (the clause's first line going
        with the first of them), whole neighbours joined again under this clause's
        trail while they fit; a clause without sub-clauses packed at paragraphs and
        sentences."""
        text = index.text
        count = self.tokenizer.count
        budget = self.limit - self.references_budget
        lo = index.skip_space(lo, hi)
        # a first sub-clause holding its parent's first line is under the parent's trail
        own = clauses[i].parent if i >= 0 and lo < clauses[i].start else i
        ctx = self._ctx(inherited, clauses, own) if own is not None and own >= 0 else inherited
        hi = index.trim_end(lo, hi)
        if hi <= lo:
            return []
        n = count(ctx + text[lo:hi])
        if n <= budget and hi - lo + len(ctx) <= self.max_chars:
            return [Piece(lo, hi, n, ctx, kind="clause")]
        kids = [k for k in (clauses[i].children if i >= 0 else ())
                if lo < clauses[k].start < hi]
        if not kids:
            return packer.pack(lo, hi, ctx, first_floor=_heading_lines_end(text, lo, hi))
        groups: list[list[Piece]] = []  # per sub-clause (the lead text first)
        lead = (lo, clauses[kids[0]].start)
        lead_text = text[lead[0]:lead[1]].strip()
        with_first = _title_line(lead_text)
        if lead_text and not with_first:
            groups.append(packer.pack(lead[0], lead[1], ctx,
                                      first_floor=_heading_lines_end(text, lead[0], lead[1])))
        carried: int | None = None  # a title line after an item, for the next one
        for m, k in enumerate(kids):
            s = lo if m == 0 and with_first else clauses[k].start
            if carried is not None:
                s, carried = carried, None
            following = clauses[kids[m + 1]].start if m + 1 < len(kids) else hi
            e = min(following, clauses[k].end)  # (an item may end with its paragraph)
            groups.append(self._cut(index, packer, clauses, k, s, e, inherited))
            gap = text[e:following].strip()
            if gap:  # this clause's own text after an item that ended with its paragraph
                g = index.skip_space(e, following)
                if m + 1 < len(kids) and _title_line(gap):
                    carried = g  # a title line (``**A1-4. Data Protection**``) goes on
                else:
                    groups.append(packer.pack(g, following, ctx, first_floor=_heading_lines_end(
                        text, g, following)))
        return self._joined(text, groups, ctx, budget)

    def _joined(self, text: str, groups: list[list[Piece]], ctx: str, budget: int) -> list[Piece]:
        """Whole sub-clauses (groups of one piece) joined while they fit under the
        clause's trail ``ctx``."""
        out: list[Piece] = []
        run: Piece | None = None
        for g in groups:
            if len(g) == 1 and run is not None:
                e = g[0].end
                n = self.tokenizer.count(ctx + text[run.start:e])
                if n <= budget and e - run.start + len(ctx) <= self.max_chars:
                    run = Piece(run.start, e, n, ctx, kind="clause")
                    continue
            if run is not None:
                out.append(run)
                run = None
            if len(g) == 1:
                run = g[0]
            else:
                out.extend(g)
        if run is not None:
            out.append(run)
        return out

    @staticmethod
    def _trail(clauses: list[Clause], i: int) -> list[str]:
        trail = []
        while i is not None and i >= 0:
            c = clauses[i]
            above = clauses[c.parent].number if c.parent is not None else ""
            short = c.number[len(above):] if above and c.number.startswith(above + "(") \
                else c.number  # "(b)" under "2.2", not "2.2(b)" again
            trail.append(f"{c.prefix} {short} {c.heading}".strip() if short == c.number
                         else f"{short} {c.heading}".strip())
            i = c.parent if c.parent is not None else -1
        return list(reversed(trail))

    def _with_references(self, index: DocumentIndex, piece: Piece, clauses: list[Clause],
                         definitions: dict[str, Definition], own: int) -> Piece:
        """References and defined terms of the piece's text, resolved into its context
        while they fit the budget."""
        text = index.text[piece.start:piece.end]
        by_number = index.memo.get("legal-numbers")
        if by_number is None:  # once per document, not once per chunk
            by_number = index.memo["legal-numbers"] = {c.number.lower(): c for c in clauses}
        own_numbers = set()
        k: int | None = own
        while k is not None and k >= 0:
            own_numbers.add(clauses[k].number.lower())
            k = clauses[k].parent
        items: list[tuple[int, str, dict[str, Any]]] = []  # by where the chunk first uses them
        seen: set[str] = set()
        for m in _REFERENCE.finditer(text):
            ref = (m.group("a") or m.group("b") or "").strip()
            target = by_number.get(ref.lower())
            if target is None and "(" in ref:  # "7(b)" without an item (b) found: clause 7
                target = by_number.get(ref.split("(")[0].lower())
            if target is None or target.number.lower() in own_numbers or target.number in seen \
                    or piece.start <= target.start < piece.end:
                continue  # its own clause, or a clause the chunk itself holds
            seen.add(target.number)
            items.append((m.start(), f"See {target.summary(index.text)}",
                          {"ref": m.group(0).strip(), "clause": target.number,
                           "heading": target.heading}))
        terms = index.memo.get("legal-terms")
        if terms is None or terms[0] is not definitions:  # once per document
            terms = index.memo["legal-terms"] = (definitions, TermUses(definitions))
        uses = terms[1].first_uses(text)
        for term, d in definitions.items():
            if term in seen or (piece.start <= d.start and d.end <= piece.end) or \
                    (d.clause is not None and d.clause in seen):
                continue  # the definition is in the chunk, or its clause already in context
            used = uses.get(term)
            if used is not None:
                seen.add(term)
                items.append((used, d.sentence, {"term": term, "clause": d.clause}))
        if not items or not self.references_budget:
            return piece
        count = self.tokenizer.count
        ctx = piece.context
        ceiling = self.limit  # the reserve, and any room the piece left
        refs: list[dict[str, Any]] = []
        for _, line, meta in sorted(items, key=lambda item: item[0]):
            candidate = ctx + line + "\n"
            if count(candidate + text) <= ceiling and \
                    len(candidate) + len(text) <= self.max_chars:
                ctx = candidate
                refs.append(meta)
        if refs:
            piece.context = ctx
            piece.token_count = count(ctx + text)
            piece.metadata["references"] = refs
        return piece
