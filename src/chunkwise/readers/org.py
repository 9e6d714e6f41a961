"""Org mode (``.org``): headlines as headings (``** Install``, a level per star, a
TODO keyword kept as Org's export shows it; ``COMMENT``, the priority cookie,
statistics cookies and tags left out of the trail, links and code markup as their
text), the header's keyword lines (``#+TITLE:``, ``#+AUTHOR:``, a file's property
drawer) as metadata, ``#+TITLE:`` the title; blocks (``#+BEGIN_SRC python`` ...
``#+END_SRC``, ``EXAMPLE`` and ``EXPORT`` code with their language, ``QUOTE`` a quote,
any other a paragraph, the ``#+NAME:`` and ``#+CAPTION:`` lines above one its first
lines), fixed-width lines (``: $ make``) as code, tables (``| a | b |``; a rule under
the first row makes it the header; ``#+TBLFM:`` lines the table's), a headline's
planning line and property drawer with it, paragraphs. Offsets into the file. Read as
plain text, a headline was a line of a paragraph and a source block could be cut
anywhere."""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from ..types import Block, Document
from .reader import Reader
from .structure import FRONT_MATTER_HELD, HeadingTrail, table_block

# (a value is ``\S(?:.*\S)?``: a lazy ``.*?`` before ``[ \t]*`` went back over every
# space of a long run, a 20 kB line of spaces taking 1.5 s)
_HEADLINE = re.compile(r"(\*+)[ \t]+(\S(?:.*\S)?)[ \t]*")
_KEYWORD = re.compile(r"[ \t]*#\+(\w[\w-]*)(\[[^\]\n]*\])?:(?:[ \t]+(\S(?:.*\S)?))?[ \t]*")
_BEGIN = re.compile(r"[ \t]*#\+begin(?:_(\w+)|:)(?:[ \t]+(\S(?:.*\S)?))?[ \t]*", re.I)
_DRAWER = re.compile(r"[ \t]*:([\w-]+):[ \t]*")
_DRAWER_END = re.compile(r"[ \t]*:end:[ \t]*", re.I)
_PROPERTY = re.compile(r"[ \t]*:([^\s:]+?)\+?:(?:[ \t]+(\S(?:.*\S)?))?[ \t]*")
#: the stars of an inline task (``org-inlinetask-min-level``), which a line of as
#: many stars and ``END`` closes
_INLINE_TASK = 15
_PLANNING = re.compile(r"[ \t]*(?:SCHEDULED|DEADLINE|CLOSED):")
#: a list item's bullet: ``-``, ``+``, ``1.``, ``1)``, or ``*`` indented (at the line's
#: start it is a headline's)
_BULLET = re.compile(r"[ \t]*(?:[-+]|\d{1,9}[.)])(?:[ \t]|$)|[ \t]+\*(?:[ \t]|$)")
_FIXED_WIDTH = re.compile(r"[ \t]*:(?:[ \t]|$)")
_TABLE_LINE = re.compile(r"[ \t]*\|")
_TABLE_RULE = re.compile(r"[ \t]*\|[-+:| \t]*")
_TBLFM = re.compile(r"[ \t]*#\+tblfm:", re.I)
#: keyword lines of the body, never the header's: a block's or table's name and
#: caption (and ``#+ATTR_HTML:``), a formula, a call and its results
_BODY_KEYWORDS = frozenset(("name", "caption", "results", "header", "headers", "plot", "tblname",
                            "srcname", "resname", "source", "data", "label", "call", "tblfm"))
#: blocks whose lines are code, and the block that is a quote
_CODE_BLOCKS = frozenset(("src", "example", "export"))
_PRIORITY = re.compile(r"(?:^|(?<=[ \t]))\[#[A-Za-z0-9]+\](?:[ \t]+|$)")
_TAGS = re.compile(r"(?<![ \t])[ \t]+:(?:[\w@#%]+:)+$")
_COOKIE = re.compile(r"\[\d*(?:%|/\d*)\]")
# (a link's target and text hold no bracket, code no marker: a search from each "[["
# or "=" stops at the next one, not at the line's end)
_LINK = re.compile(r"\[\[((?:[^\[\]\\]|\\.)+)\](?:\[([^\[\]]+)\])?\]")
_VERBATIM = re.compile(r"(?<![\w=~])(?:=([^\s=](?:[^=\n]*[^\s=])?)=|~([^\s~](?:[^~\n]*[^\s~])?)~)"
                       r"(?![\w=~])")


def parse_org(text: str, doc_id: str, source: str | None = None) -> Document:
    lines = _lines(text)
    meta, body_from, held = _header(text, lines)
    blocks: list[Block] = []
    if body_from:
        blocks.append(Block("front_matter", 0, lines[body_from - 1][1],
                            metadata=FRONT_MATTER_HELD[held]))
    title = meta.get("title")
    if isinstance(title, list):  # a title over several #+TITLE: lines, as Org joins them
        title = " ".join(title)
    _Walker(text, lines, blocks).walk(body_from)
    return Document(text=text, doc_id=doc_id, source=source, title=title or None,
                    blocks=tuple(blocks),
                    metadata=MappingProxyType({**meta, "format": "org"}))


def _lines(text: str) -> list[tuple[int, int]]:
    """Each line's start and end (without its line break)."""
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        out.append((pos, pos + len(raw.rstrip("\r\n"))))
        pos += len(raw)
    return out


def _header(text: str, lines: list[tuple[int, int]]) -> tuple[dict[str, Any], int, bool]:
    """The keyword lines (and a property drawer) at the top of the file as metadata,
    the line the body starts at (0: no header), and whether the metadata holds every
    line of the header (a comment among them: it stays text)."""
    meta: dict[str, Any] = {}
    held, end, i = True, 0, 0
    while i < len(lines):
        line = text[lines[i][0]:lines[i][1]].lstrip("\ufeff")  # (a byte-order mark first)
        if not line.strip():
            i += 1
            continue
        if line.strip().lower() == ":properties:":
            close = next((j for j in range(i + 1, len(lines))
                          if _DRAWER_END.fullmatch(text[lines[j][0]:lines[j][1]])), None)
            if close is None:
                break
            for j in range(i + 1, close):
                m = _PROPERTY.fullmatch(text[lines[j][0]:lines[j][1]])
                if m is None:
                    held = False
                elif m.group(2):
                    meta.setdefault("properties", {})[m.group(1)] = m.group(2)
            i = end = close + 1
            continue
        m = _KEYWORD.fullmatch(line)
        key = m.group(1).lower() if m is not None else ""
        if m is not None and not _BEGIN.match(line) and key not in _BODY_KEYWORDS \
                and not key.startswith("attr_"):
            value = m.group(3) or ""
            if key in meta:  # (#+LATEX_HEADER, #+OPTIONS, ... given more than once)
                earlier = meta[key]
                meta[key] = [*(earlier if isinstance(earlier, list) else [earlier]), value]
            else:
                meta[key] = value
        elif line.lstrip().startswith("#") and (line.strip() == "#" or line.lstrip()[1:2] in (" ", "\t")):
            held = False  # a comment
        else:
            break
        i = end = i + 1
    return meta, end, held


def headline_text(raw: str) -> str:
    """A headline's title as the trail shows it: its TODO keyword kept (``TODO Items``
    is the title of a chapter of Org's manual, and Org's export shows it), without
    ``COMMENT``, its priority cookie, statistics cookies and tags, its links as their
    description (else their target) and ``=code=`` / ``~verbatim~`` as their text."""
    if raw.startswith("COMMENT") and raw[7:8] in ("", " ", "\t"):
        raw = raw[7:].lstrip()
    if "[#" in raw:
        raw = _PRIORITY.sub("", raw, count=1)
    raw = _TAGS.sub("", raw)
    raw = _COOKIE.sub("", raw)
    return " ".join(inline_text(raw).split())


def inline_text(text: str) -> str:
    """Org's links as their description (else their target) and ``=code=`` and
    ``~verbatim~`` as their text (a headline's title, a table cell a question names)."""
    if "[[" in text:
        text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return _VERBATIM.sub(lambda m: m.group(1) or m.group(2), text)


class _Walker:
    """Blocks of the body, a line at a time."""

    def __init__(self, text: str, lines: list[tuple[int, int]], blocks: list[Block]):
        self.text, self.lines, self.blocks = text, lines, blocks
        self.trail = HeadingTrail()
        self.para: list[int] = []  # the open paragraph's lines
        #: the indent of the list item the open paragraph is (None: no item)
        self.item: int | None = None
        #: a block name -> the line (a headline, or the end) that a search for its
        #: closing line reached without one: a block of that name opened before that
        #: line is not closed either (thousands of unclosed blocks, one search each)
        self.unclosed: dict[str, int] = {}

    def line(self, i: int) -> str:
        line = self.text[self.lines[i][0]:self.lines[i][1]]
        return line.lstrip("\ufeff") if i == 0 else line

    def close_para(self) -> None:
        if self.para:
            self.add("paragraph" if self.item is None else "list_item", self.para[0], self.para[-1])
            self.para = []
        self.item = None

    def text_line(self, i: int, line: str) -> None:
        """A line of text: a list item's bullet starts an item (a block of its own, a
        deeper one's lines part of it), a line indented less than an item's text ends
        it."""
        bullet = _BULLET.match(line)
        indent = len(line) - len(line.lstrip(" \t"))
        if self.item is not None and indent > self.item:
            self.para.append(i)  # the item's own lines, and items under it
            return
        if bullet is not None or self.item is not None:
            self.close_para()
        self.para.append(i)
        if bullet is not None:
            self.item = indent

    def add(self, kind: str, first: int, last: int, **metadata: Any) -> None:
        self.blocks.append(Block(kind, self.lines[first][0], self.lines[last][1], self.trail.path,
                                 metadata=MappingProxyType(metadata)))

    def opening(self, i: int) -> int:
        """Where a block or table opening at line ``i`` starts: at the keyword lines
        right above it (``#+NAME:``, ``#+CAPTION:``, ``#+ATTR_HTML:``), which were the
        open paragraph's every line."""
        if self.para and all(_KEYWORD.fullmatch(self.line(j)) for j in self.para):
            first = self.para[0]
            self.para, self.item = [], None
            return first
        self.close_para()
        return i

    def walk(self, i: int) -> None:
        n = len(self.lines)
        while i < n:
            line = self.line(i)
            if not line.strip():
                self.close_para()
                i += 1
            elif (m := _HEADLINE.fullmatch(line)) is not None:
                if len(m.group(1)) >= _INLINE_TASK and m.group(2) == "END":
                    self.para.append(i)  # an inline task's end: its last line; the text
                    self.close_para()  # after it is its headline's again
                    self.trail.end_at(len(m.group(1)))
                    i += 1
                    continue
                i = self.headline(i, len(m.group(1)), m.group(2))
            elif (b := _BEGIN.fullmatch(line)) is not None:
                i = self.block(i, (b.group(1) or "").lower(), b.group(2) or "")
            elif _TABLE_LINE.match(line):
                i = self.table(i)
            elif _FIXED_WIDTH.match(line) and not _DRAWER.fullmatch(line):
                first = self.opening(i)
                while i + 1 < n and _FIXED_WIDTH.match(self.line(i + 1)):
                    i += 1
                self.add("code", first, i)
                i += 1
            else:
                self.text_line(i, line)
                i += 1
        self.close_para()

    def headline(self, i: int, level: int, raw: str) -> int:
        """A headline, with the planning line and property drawer under it."""
        self.close_para()
        self.trail.push(level, headline_text(raw) or raw.strip())
        last, n = i, len(self.lines)
        if last + 1 < n and _PLANNING.match(self.line(last + 1)):
            last += 1
        if last + 1 < n and self.line(last + 1).strip().lower() == ":properties:":
            close = next((j for j in range(last + 2, n) if _DRAWER_END.fullmatch(self.line(j))
                          or _HEADLINE.fullmatch(self.line(j))), None)
            if close is not None and _DRAWER_END.fullmatch(self.line(close)):
                last = close
        self.blocks.append(Block("heading", self.lines[i][0], self.lines[last][1], self.trail.path,
                                 level=level))
        return last + 1

    def block(self, i: int, name: str, args: str) -> int:
        """``#+BEGIN_NAME`` to its ``#+END_NAME`` (``#+BEGIN:`` to ``#+END:``). One
        that a headline or the end of the file comes before closing is no block (as
        Org reads it): its first line is a paragraph's."""
        end = re.compile(r"[ \t]*#\+end" + (f"_{re.escape(name)}" if name else ":") + r"[ \t]*",
                         re.I)
        close = None
        if i >= self.unclosed.get(name, -1):
            j = i + 1
            while j < len(self.lines):
                line = self.line(j)
                if end.fullmatch(line):
                    close = j
                    break
                if _HEADLINE.fullmatch(line):
                    break
                j += 1
            if close is None:
                self.unclosed[name] = j
        if close is None:
            self.para.append(i)
            return i + 1
        first = self.opening(i)
        if name in _CODE_BLOCKS:
            language = args.split()[0] if args.split() and name != "example" else ""
            self.add("code", first, close, **({"language": language} if language else {}))
        else:
            self.add("quote" if name == "quote" else "paragraph", first, close)
        return close + 1

    def table(self, i: int) -> int:
        """Lines starting with ``|``, and the ``#+TBLFM:`` lines under them."""
        first_line, n = i, len(self.lines)
        first = self.opening(i)
        last = i
        while last + 1 < n and _TABLE_LINE.match(self.line(last + 1)):
            last += 1
        rows = [j for j in range(first_line, last + 1) if not _TABLE_RULE.fullmatch(self.line(j))]
        end = last
        while end + 1 < n and _TBLFM.match(self.line(end + 1)):
            end += 1
        if not rows:  # rules alone: no cell
            self.add("paragraph", first, end)
            return end + 1
        header: tuple[int, int] | None = None
        columns: tuple[str, ...] = ()
        ruled = rows[0] + 1 <= last and _TABLE_RULE.fullmatch(self.line(rows[0] + 1))
        if ruled and len(rows) > 1:
            header = (self.lines[first][0], self.lines[rows[0] + 1][1])
            columns = _cells(self.line(rows[0]))
            rows = rows[1:]
        # a row takes in the rules under it (``|---+---|`` between groups of rows)
        spans = [(self.lines[j][0], self.lines[k - 1][1]) for j, k in zip(rows, rows[1:])]
        spans.append((self.lines[rows[-1]][0], self.lines[end][1]))
        self.blocks.append(table_block(self.lines[first][0], self.lines[end][1], header, spans,
                                       columns, [_cells(self.line(j)) for j in rows],
                                       self.trail.path, fmt="org"))
        return end + 1


def _cells(row: str) -> tuple[str, ...]:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return tuple(" ".join(c.split()) for c in inner.split("|"))


ORG = Reader(parse_org, (".org",))
