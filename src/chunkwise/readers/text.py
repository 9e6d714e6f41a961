"""Plain text: decoded exactly as stored, so offsets cite the original file."""

from __future__ import annotations

import hashlib
import re
from types import MappingProxyType

from ..types import Block, Document
from .grid import directive_spans, directive_table, indented_past, join_simple_tables, table_in
from .reader import Reader
from .structure import OBJECT_TYPES, HeadingTrail, anchors_to_headings, blank_line_runs, markup_only, stripped


def default_doc_id(text: str) -> str:
    """The id of a document given as a string: a hash of its text."""
    return "text-" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()


#: a table of contents' entry: dot leaders, then a page number (arabic or roman)
TOC_LEADER = re.compile(r"(?:\.[ \t]*){3,}(?:\d+|[ivxlcdmIVXLCDM]+)[ \t]*$")

#: ``2.1 Title``; not a table of contents' ``2 Title . . . . 5`` (as a heading, that line
#: became the whole document's outer heading in a PDF manual)
NUMBERED_HEADING = re.compile(
    r"^[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3}){0,4})\.?[ \t]+"
    r"(?![^\r\n]*?(?:\.[ \t]*){3,}(?:\d+|[ivxlcdmIVXLCDM]+)[ \t]*$)"
    r"(?P<title>[A-Z][^\r\n]{0,78}?)[ \t]*$")


#: words no heading ends with, a wrapped sentence's line often does
MID_PHRASE = frozenset(["a", "an", "the", "of", "in", "on", "to", "for", "and", "or", "with",
                        "by", "from", "at", "as", "that", "which", "is", "are", "was", "were",
                        "be"])


def stops_mid_phrase(line: str) -> bool:
    """A numbered line that stops mid-phrase: a list item (``1. Agency constraints;
    and``, NIST SP 800-161's control statements: 14 such "headings" in its PDF), or a
    note's first line (``2. I probably never should have asked Matt Groening in the``),
    never a section's title, whatever its width. A closing ``A`` is a title's
    (``Appendix A``)."""
    words = line.split()
    last = words[-1] if words else ""
    return (last.lower() in MID_PHRASE and last != "A") or line.rstrip().endswith(
        (",", "-", "\u2013", "\u2014"))


#: a book's divisions, as plain-text editions (Project Gutenberg's among them) set
#: them: "PART ONE", "BOOK II" (level 1); "CHAPTER IV", "Chapter 4. The Storm",
#: "ADVENTURE I." (level 2)
_DIVISION = re.compile(r"(?:PART|Part|BOOK|Book|VOLUME|Volume)[ \t]+\S")
_CHAPTER = re.compile(r"(?:CHAPTER|Chapter|STAVE|Stave|ADVENTURE|Adventure|LETTER|Letter)"
                      r"[ \t]+(?:[IVXLCDM]+|\d{1,3}|[A-Z][a-z]+|[A-Z]+)\b")
#: "IV", "IV.", "12." alone on a line, or followed by a capitalised title
_NUMERAL = re.compile(r"(?:[IVXLCDM]{1,7}|\d{1,3})\.?(?:[ \t]+(?P<title>\S.*))?")
#: quotation marks: a line that opens or closes with one is speech or a letter's
#: signature ("“‘ROBERT ST. SIMON.’"), not a heading
_QUOTES = ("\"", "'", "\u201c", "\u201d", "\u2018", "\u2019", "(", "[")
_NOT_A_TITLE_END = (",", ";", ":", "?", "!", *_QUOTES[:6])
#: the longest line of a chapter heading
_HEADING_LINE = 70


def _chapter_level(para: str) -> int | None:
    """The level of a paragraph that is a book's part or chapter heading (1 or 2; 3
    for a bare numeral, a chapter's numbered division), else None: one or two short
    lines, a part/chapter keyword, a numeral with or without a capitalised title, or
    an all-capitals title; nothing that ends like a sentence."""
    lines = [ln.strip() for ln in para.strip().splitlines()]
    if not 1 <= len(lines) <= 2 or any(not ln or len(ln) > _HEADING_LINE for ln in lines):
        return None
    first, last = lines[0], lines[-1]
    if last.endswith(_NOT_A_TITLE_END) or first.startswith(_QUOTES):
        return None
    if _DIVISION.match(first):
        return 1
    if _CHAPTER.match(first):
        return 2
    m = _NUMERAL.fullmatch(first)
    if m is not None:
        title = m.group("title") or (lines[1] if len(lines) == 2 else None)
        if title is None:
            return 3 if len(lines) == 1 else None
        if title[0].isupper() and not title.endswith("."):
            return 2
        return None
    letters = [ch for ch in para if ch.isalpha()]
    if (len(letters) >= 3 and all(ch.isupper() for ch in letters)
            and not last.endswith(".")):
        return 2
    return None


#: a line of one punctuation character repeated: a title's underline (or overline)
#: in reStructuredText, AsciiDoc's two-line titles, Markdown's setext headings and
#: the NEWS files and release notes written like them
_RULE_CHARS = frozenset("=-~^*+#_\"'`:.<>")
_RULE_CLASS = "[" + re.escape("".join(sorted(_RULE_CHARS))) + "]"
_RULE = re.compile(rf"[ \t]*({_RULE_CLASS})\1+[ \t]*")

_RULE_LINE = re.compile(rf"^[ \t]*({_RULE_CLASS})\1+[ \t]*\r?$", re.M)
_NON_SPACE = re.compile(r"\S")
#: characters of a paragraph's start that hold any title with its rules
_TITLE_HEAD = 1024


def _underlined(para: str, rst: bool = False) -> tuple[str, tuple[str, bool], int] | None:
    """A paragraph that opens with an underlined title (``Release Notes`` over
    ``=============``, or between an overline and an underline of one character):
    the title, its style (the character, overlined or not) and where its last rule
    ends in ``para``; else None. A rule is at least half the title's length (any
    length from three characters where a title of six words at most and its rule are
    all the paragraph)
    and at most twice it (and two characters; in reStructuredText, ``rst``, any
    longer, as docutils reads it: ``Commandline interface`` over 50 ``=``), three
    characters or more unless the title is shorter (``jq`` over ``==``); the title is
    one line of words; both may be indented alike (a title centred with tabs; not in
    reStructuredText, where :func:`_underlined_headings` takes no indented title)."""
    lines = para.split("\n", 3)
    over = _RULE.fullmatch(lines[0].rstrip("\r"))
    if over is not None:  # ====== / Title / ======
        if len(lines) < 3 or not _RULE.fullmatch(lines[2].rstrip("\r")):
            return None
        title, rule, end = lines[1].strip(), lines[0].strip(), 2
        # two characters (coreutils' README sets its titles between ``*****`` and
        # ``-----``; docutils would not): both rules half the title or more
        mixed = lines[2].strip()[0] != over.group(1)
        if mixed and (rst or 2 * min(len(rule), len(lines[2].strip())) < len(title)):
            return None
        if (len(rule) < len(title) and not mixed) or rule in ("----", "...."):
            return None  # RST's rule; "----" / "$ ls" / "----" is an AsciiDoc listing
    else:
        if len(lines) < 2:
            return None
        under = _RULE.fullmatch(lines[1].rstrip("\r"))
        if under is None:
            return None
        title, rule, end = lines[0].strip(), lines[1].strip(), 1
    # a short title (six words at most) and its rule alone, a blank line after them,
    # may be ruled short (three characters or more, as Markdown's setext titles:
    # dbus's README ``Introduction`` over ``===``); a sentence over a short rule is not
    alone = end == 1 and len(lines) == 2 and len(rule) >= 3 and len(title.split()) <= 6
    if not title or len(title) > 100 or not any(ch.isalnum() for ch in title) or \
            not (alone or len(title) / 2 <= len(rule)) or \
            len(rule) > (1 << 20 if rst else 2 * len(title) + 2) or \
            len(rule) < min(3, len(title)):
        return None
    stop = sum(len(line) + 1 for line in lines[:end]) + len(lines[end].rstrip("\r\n"))
    return title, (rule[0], over is not None), stop


def _ruled(text: str, s: int, head: int) -> bool:
    """Whether the first or second line of the paragraph at ``s`` may be a rule (its
    first character past blanks is a rule's): what :func:`_underlined` needs, found
    without slicing the paragraph."""
    if text[s] in _RULE_CHARS:
        return True
    nl = text.find("\n", s, head)
    if nl == -1:
        return False
    j = nl + 1
    while j < head and text[j] in " \t":
        j += 1
    return j < head and text[j] in _RULE_CHARS


def _underlined_headings(kept: list[tuple[tuple[int, int], int]], text: str, rst: bool = False
                         ) -> tuple[list[tuple[tuple[int, int], int]],
                                    dict[tuple[int, int], tuple[int, str]]]:
    """The paragraphs, each underlined title a span of its own (the text under it,
    without a blank line between, another), and the titles' levels: each style a
    level, in the order the styles first appear (reStructuredText's rule)."""
    out: list[tuple[tuple[int, int], int]] = []
    found: dict[tuple[int, int], tuple[int, str]] = {}
    styles: list[tuple[str, bool]] = []
    if _RULE_LINE.search(text) is None:  # no rule anywhere (a book, a note): no title
        return kept, found
    for (s, e), gap in kept:
        first = _NON_SPACE.search(text, s, e)
        s = first.start() if first is not None else s
        # a title and its rules are three lines of a few hundred characters at most
        head = min(e, s + _TITLE_HEAD)
        # (in reStructuredText a title is never indented: an indented one is in a
        # literal block, a directive's body or a quote, where docutils makes no
        # section: PEP 8's docstring over its closing quotes, PEP 12's sample titles)
        indented = rst and s > 0 and text[s - 1] in " \t"
        m = _underlined(text[s:head], rst) if not indented and _ruled(text, s, head) else None
        if m is None:
            out.append(((s, e), gap))
            continue
        title, style, stop = m
        if style not in styles:
            styles.append(style)
        found[(s, s + stop)] = (styles.index(style) + 1, _roles_as_text(title) if rst else title)
        out.append(((s, s + stop), gap))
        rest = text.find("\n", s + stop)
        if rest != -1 and text[rest:e].strip():
            out.append(((rest + 1, e), 1))
    return out, found


#: a reStructuredText role (``:mod:`json```, ``:c:func:`PyLong_Export```)
_ROLE = re.compile(r":(?:[A-Za-z][\w.+-]*:)+`([^`\n]+)`")


def _roles_as_text(title: str) -> str:
    """A title's roles as Sphinx shows them: ``:mod:`!string.templatelib``` ->
    ``string.templatelib``, ``:meth:`~flask.Flask.run``` -> ``run``, ``:ref:`the
    guide <guide>``` -> ``the guide`` (every chunk's trail carried the markup)."""
    if ":`" not in title:
        return title

    def shown(m: re.Match[str]) -> str:
        inner = m.group(1)
        if inner.endswith(">") and " <" in inner:
            return inner[:inner.rindex(" <")]
        if inner.startswith("~"):
            return inner[1:].rsplit(".", 1)[-1]
        return inner.lstrip("!")
    return _ROLE.sub(shown, title)


def _overlined(found: dict[tuple[int, int], tuple[int, str]], text: str) -> bool:
    """Whether the one title found is overlined too (``=====`` / title / ``=====``:
    reStructuredText's document title, after ``:orphan:`` or a ``.. meta::``)."""
    (s, _), = found
    return _RULE.fullmatch(text[s:text.find("\n", s)].rstrip("\r")) is not None


def _numbered_or_chapters(kept: list[tuple[tuple[int, int], int]], text: str
                          ) -> dict[tuple[int, int], tuple[int, str]]:
    """The paragraphs that are headings when the document marks none itself: a Debian
    changelog's entries (two or more), numbered headings (two or more) and a book's
    part and chapter headings (two or more)."""
    entries = _changelog_entries(kept, text)
    if entries:
        return entries
    candidates: dict[tuple[int, int], tuple[int, str]] = {}
    chapters: dict[tuple[int, int], tuple[int, str]] = {}
    for (s, e), gap in kept:
        lead = s
        while text[lead] in " \t":
            lead += 1
        if not text[lead].isdecimal() and gap < 3:
            continue  # neither a numbered heading (a digit first) nor a chapter's
        para = text[s:e]
        m = NUMBERED_HEADING.match(para) if text[lead].isdecimal() else None
        if m and not para.rstrip().endswith((".", ":", ";", ",", "?", "!")) \
                and not stops_mid_phrase(para):
            candidates[(s, e)] = (m.group("num").count(".") + 1, para.strip())
        elif gap >= 3:
            level = _chapter_level(para)
            if level is not None:
                chapters[(s, e)] = (level, " ".join(para.split()))
    if len(candidates) < 2:
        candidates = {}
    if len(chapters) >= 2:
        candidates.update(chapters)
    if not candidates:
        candidates = _bold_titles(kept, text)
    return candidates


#: the first line of a Debian changelog's entry, ``expat (2.5.0-1) unstable;
#: urgency=high`` (what goes into the heading: up to the distribution)
_CHANGELOG_ENTRY = re.compile(
    r"(?P<head>[a-z0-9][a-z0-9+.-]+ \([^()\s]+\)(?: [A-Za-z0-9/.+-]+)+);"
    r"(?: [A-Za-z-]+=[A-Za-z-]+,?)+[ \t]*\r?(?:\n|$)")


def _changelog_entries(kept: list[tuple[tuple[int, int], int]], text: str
                       ) -> dict[tuple[int, int], tuple[int, str]]:
    """A Debian changelog's entries (``changelog.Debian.gz``, some 800 files under
    /usr/share/doc): each entry's first line a heading, ``expat (2.5.0-1) unstable``,
    so that a chunk names the version it is about (read as prose, an entry's text
    began under the one before's signature, ``-- Laszlo Boszormenyi ...``, with no
    trail); none unless two paragraphs or more open so."""
    found: dict[tuple[int, int], tuple[int, str]] = {}
    for (s, e), _ in kept:
        m = _CHANGELOG_ENTRY.match(text, s, e)
        if m is not None:
            found[(s, e)] = (1, m.group("head"))
    return found if len(found) >= 2 else {}


#: a paragraph that is one line of strong emphasis, ``**To create a snapshot**``
_BOLD_LINE = re.compile(r"[ \t]*\*\*(?P<title>[^*\n]{2,200})\*\*[ \t]*")


def _bold_titles(kept: list[tuple[tuple[int, int], int]], text: str
                 ) -> dict[tuple[int, int], tuple[int, str]]:
    """Lines of bold alone as titles, where a text has no other headings: two or more,
    or one opening it (the AWS CLI's examples, ``**To create a snapshot**`` over each
    example, ``**Example 2: To ...**``)."""
    found = {span: (1, " ".join(m.group("title").split())) for span, _ in kept
             if (m := _BOLD_LINE.fullmatch(text, *span)) is not None}
    if len(found) >= 2 or (found and kept and kept[0][0] in found):
        return found
    return {}


def parse_text(text: str, doc_id: str, source: str | None = None) -> Document:
    """Plain text: paragraphs, and headings where unambiguous (at least two of a kind
    in the document): numbered headings ("3.2 Accident reports": a one-line
    paragraph, no closing punctuation), and a book's part and chapter headings ("PART
    ONE", "CHAPTER IV", "VI" over its title, "I. A SCANDAL IN BOHEMIA": a paragraph
    of one or two short lines set off by two or more blank lines before it, or
    opening the text); and, where two or more titles are underlined (``=====`` under
    or over and under them: reStructuredText, AsciiDoc, release notes) or one opens
    the text, those alone, each underline style a level in the order the styles
    appear."""
    spans = []
    gaps = []  # the line breaks before each paragraph
    pos = 1 if text.startswith("\ufeff") else 0  # (a byte-order mark: no paragraph's)
    for start, end in blank_line_runs(text):
        spans.append((pos, start))
        pos = end
        gaps.append(text.count("\n", start, end) or text.count("\r", start, end))
    spans.append((pos, len(text)))
    before = [3, *gaps]  # the text's start counts as a wide gap
    kept = [(span, gap) for span, gap in zip(spans, before)
            if _NON_SPACE.search(text, span[0], span[1])]
    split, underlined = _underlined_headings(kept, text, _is_rst(source or doc_id))
    # (a title opening the text may follow markup: ``.. _label:``, ``:orphan:``, a
    # substitution's definition, ``.. |ASN.1| replace:: BMPString``)
    opening = next((span for span, _ in split if not markup_only(text[span[0]:span[1]])), None)
    marked = len(underlined) >= 2 or len(underlined) == 1 and (
        opening in underlined or _overlined(underlined, text))
    if marked:  # two titles underlined or more, or one opening the text or overlined
        kept = split
    spans = [span for span, _ in kept]
    candidates = _substituted(underlined, text) if marked else _numbered_or_chapters(kept, text)
    spans = directive_spans(text, join_simple_tables(text, spans, candidates), candidates)
    title = _document_title(candidates) if marked else None
    centred = _centred_title(kept, text, candidates)
    if centred is not None:  # above every heading: the others a level down
        candidates = {span: (level + 1, t) for span, (level, t) in candidates.items()}
        candidates[centred[0]] = (1, centred[1])
        title = centred[1]
    blocks = _blocks(text, spans, candidates, marked)
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(anchors_to_headings(blocks, text) if marked else blocks))


#: a centred title's indentation at least, in columns (a tab to the next eighth)
CENTRED = 8


def _centred_title(kept: list[tuple[tuple[int, int], int]], text: str,
                   candidates: dict[tuple[int, int], tuple[int, str]]
                   ) -> tuple[tuple[int, int], str] | None:
    """The title a plain-text document centres on its first line, above headings of
    its own (GIFLIB's NEWS, three tabs then ``GIFLIB NEWS`` over ``Version 5.2.1``
    underlined; lsof's quick start over ``1.  Introduction``): alone it was a chunk of
    two words. One short line, indented :data:`CENTRED` columns or more, not a
    sentence, before the first heading; None when there is none."""
    if not candidates or not kept or kept[0][0] in candidates:
        return None
    (s, e), _ = kept[0]
    line = text[text.rfind("\n", 0, s) + 1:e].strip("\r\n")  # from its line's start
    title = line.strip()
    if "\n" in title or not 2 <= len(title) <= 80 or title.endswith((".", ":", ";", ",", "!")):
        return None
    if len(line.expandtabs(8)) - len(line.lstrip().expandtabs(8)) < CENTRED:
        return None
    return (s, e), title


def _document_title(titles: dict[tuple[int, int], tuple[int, str]]) -> str | None:
    """The first underlined title when it is the only one of its style, the level every
    other title sits under (docutils makes such a title the document's): the trail of
    text above it (a ``.. note::`` before pip's page titles)."""
    if not titles:
        return None
    level, title = titles[min(titles)]
    if level != 1 or sum(1 for lvl, _ in titles.values() if lvl == 1) > 1:
        return None
    return title


_REPLACE = re.compile(r"^\.\. \|([^|\n]+)\| replace::[ \t]*(\S[^\n]*?)[ \t]*\r?$", re.M)


def _substituted(titles: dict[tuple[int, int], tuple[int, str]], text: str
                 ) -> dict[tuple[int, int], tuple[int, str]]:
    """Titles with the substitutions the text defines replaced (pyasn1 titles each
    type's page ``|ASN.1| type`` under ``.. |ASN.1| replace:: BMPString``: every
    chunk's trail said ``|ASN.1| type``, now ``BMPString type``)."""
    if not any("|" in title for _, title in titles.values()):
        return titles
    values = {name: value for name, value in _REPLACE.findall(text)}
    if not values:
        return titles
    pattern = re.compile("|".join(re.escape(f"|{name}|") for name in values))
    return {span: (level, pattern.sub(lambda m: values[m.group()[1:-1]], title))
            for span, (level, title) in titles.items()}


def _is_rst(name: str) -> bool:
    """Whether a file is reStructuredText by its name (``.rst``, ``.rest``, also
    gzipped: pip's documentation as Debian installs it, ``pip_show.rst.gz``)."""
    return name.lower().removesuffix(".gz").endswith((".rst", ".rest"))


def _blocks(text: str, spans: list[tuple[int, int]], candidates: dict[tuple[int, int], tuple[int, str]],
            marked: bool) -> list[Block]:
    """The paragraphs' blocks: headings, paragraphs, and (where titles are underlined)
    literal blocks of code."""
    blocks: list[Block] = []
    trail = HeadingTrail()
    # a literal block's indentation, language, and whether a directive opened it
    literal: tuple[int, str, bool] | None = None
    described = _described_objects(text, spans) if marked else {}
    objects = _Objects(trail)
    for span in spans:
        s, e = stripped(text, *span)
        heading = candidates.get(span)
        if heading is None and marked:
            objects.close_before(text, s)
            if (signature := described.get(span)) is not None:
                level = objects.open(text, s, signature)
                blocks.append(Block("heading", s, e, trail.path, level=level))
                literal = None
                continue
        if literal is not None and heading is None and indented_past(text, span, literal[0]):
            last = blocks[-1]
            if last.kind == "code":  # the literal block goes on past a blank line
                blocks[-1] = Block("code", last.start, e, last.headings, metadata=last.metadata)
            else:
                blocks.append(Block("code", s, e, trail.path,
                                    metadata=MappingProxyType({"language": literal[1]})))
            continue
        literal = None
        if heading is not None:
            level, title = heading
            trail.push(level, title)
            objects.section(level)
            blocks.append(Block("heading", s, e, trail.path, level=level))
        else:
            if marked:
                literal = _literal_opening(text, s, e)
            if literal is not None and literal[2]:
                # ``.. code-block:: cmake`` and its options open the code, as a fence
                # line does in Markdown (alone, a chunk of 24 tokens before long code)
                blocks.append(Block("code", s, e, trail.path,
                                    metadata=MappingProxyType({"language": literal[1]})))
            elif text[s] in "+=" and (table := table_in(text, s, e, trail.path)) is not None:
                blocks.append(table)  # a grid or simple table (reStructuredText, MySQL's)
            elif text.startswith(".. ", s) and (table := directive_table(text, s, e, trail.path)):
                blocks.append(table)  # .. list-table:: and .. csv-table::
            else:
                blocks.append(Block("paragraph", s, e, trail.path))
    return blocks


#: a Sphinx directive describing an object (a function, class, method, attribute,
#: configuration value, option, environment variable, HTTP route, ...) of any domain
#: (``py:``, ``js:``, ``c:``, ``rst:directive:``, ...), its signature after ``::``
_OBJECT_DIRECTIVE = re.compile(rf"([ \t]*)\.\. {OBJECT_TYPES}::[ \t]+(\S[^\r\n]*)")
#: the longest signature kept as a heading, in characters
SIGNATURE_CHARS = 120


def _described_objects(text: str, spans: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The paragraphs that open a Sphinx object's description (``.. py:data::
    SECRET_KEY``, its options included) followed by an indented body, with each one's
    signature: a heading over its body, so an API page's or a configuration page's
    entries are each found under their names (Flask's ``SECRET_KEY`` was the tail of
    a chunk holding the entry before it). Without a body (Django's ``.. setting::``
    targets, autodoc's ``.. autoclass::`` without content) it stays a paragraph."""
    found: dict[tuple[int, int], str] = {}
    for i, span in enumerate(spans[:-1]):
        line_start = text.rfind("\n", 0, span[0]) + 1
        m = _OBJECT_DIRECTIVE.match(text, line_start)
        if m is None or m.end(1) != span[0] or not indented_past(text, spans[i + 1], len(m.group(1))):
            continue
        signature = m.group(2).strip()
        found[span] = signature if len(signature) <= SIGNATURE_CHARS else \
            signature[:SIGNATURE_CHARS].rsplit(" ", 1)[0] + " ..."
    return found


class _Objects:
    """The Sphinx object descriptions open at a point of the text (a class's, then
    its method's), each a heading one level below the section or object it is in,
    closed by the next section heading or by text not indented past it."""

    def __init__(self, trail: HeadingTrail):
        self.trail = trail
        self.level = 0  # the section's
        self.open_ones: list[tuple[int, int]] = []  # (indentation, level)

    def section(self, level: int) -> None:
        self.level = level
        self.open_ones.clear()

    def close_before(self, text: str, s: int) -> None:
        indent = s - (text.rfind("\n", 0, s) + 1)
        while self.open_ones and indent <= self.open_ones[-1][0]:
            self.trail.end_at(self.open_ones.pop()[1])

    def open(self, text: str, s: int, signature: str) -> int:
        level = (self.open_ones[-1][1] if self.open_ones else self.level) + 1
        self.trail.push(level, signature)
        self.open_ones.append((s - (text.rfind("\n", 0, s) + 1), level))
        return level


#: a reStructuredText directive whose indented content is code
_CODE_DIRECTIVE = re.compile(r"[ \t]*\.\. (?:code-block|code|sourcecode)::[ \t]*(\S*)")


def _literal_opening(text: str, s: int, e: int) -> tuple[int, str, bool] | None:
    """Where a paragraph opens a reStructuredText literal block (it ends in ``::``, or
    it is a ``.. code-block:: python`` directive, its options included): the
    paragraph's indentation, which the block's lines go past, the language, and
    whether it is that directive (then part of the code block)."""
    line_start = text.rfind("\n", 0, s) + 1
    indent = s - line_start
    m = _CODE_DIRECTIVE.match(text, line_start)
    if m is not None and m.start(1) <= e:
        return indent, m.group(1), True
    if text.endswith("::", s, e) and not text.startswith("..", s):  # (``.. warning::``: prose)
        return indent, "", False
    return None


#: reStructuredText is never sniffed: its titles over ``===`` and its backtick
#: underlines look like Markdown's setext headings and fences (Flask's docs were read
#: as Markdown, a title cut from its underline); this reader reads its titles
TEXT = Reader(parse_text, (".rst", ".rest"))
