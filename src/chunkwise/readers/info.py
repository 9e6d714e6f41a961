"""GNU Info manuals (``grep.info``, ``coreutils.info.gz``, the parts of a split manual
such as ``find.info-1.gz``: what ``/usr/share/info`` holds), found by extension or by
content. Each node's underlined title is a heading (``*`` a chapter, ``=`` a section,
``-`` a subsection, ``.`` below), under the manual's own title (the ``Top`` node's, or
the manual's file name in a part without it); the text between blank lines is a
paragraph, kept as written (examples and option lists keep their lines). What Info
adds for its own navigation is left out: the node header lines (``File: grep.info,
Node: Usage, Next: ...``), menus, index nodes, the tag table and the preamble before
the first node. Offsets are into that text, as a manual page's are. A split manual's
main file (``find.info``: the list of its parts) and a part holding only the index
have no text: no chunks.

Read as text, an Info file was either refused as binary (the index markers hold NUL
bytes) or read with every header line, menu and tag-table line as content."""

from __future__ import annotations

import re

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: ``\0\b[index\0\b]`` and ``\0\b[image src=...\0\b]``: display cookies, not text
_COOKIE = re.compile(r"\x00\x08\[[^\x00]{0,4096}\x00\x08\]")
_INDEX_COOKIE = "\x00\x08[index\x00\x08]"
_INDEX = "\ue000index\ue000"  # marks an index node once the cookies are gone
_CODING = re.compile(r"^coding:[ \t]*([\w.-]+)", re.M)
_SEPARATOR = re.compile(r"\x1f[ \t]*\r?\n")
_HEADER = re.compile(r"File:[ \t]*([^,\t\n]+)[,\t][ \t]*Node:[ \t]*([^,\t\n]+)")
_PARTS = ("Tag Table:", "End Tag Table", "Indirect:", "Local Variables:")
#: a title's underline character -> its level (the manual's title is level 1)
_LEVELS = {"*": 2, "=": 3, "-": 4, ".": 5}
_MENU = re.compile(r"^\* Menu:", re.M)
_HEAD = re.compile(rb"\AThis is [^\n]{1,200}, produced by (?:makeinfo|texi2any)\b")


def _decoded(data: bytes, name: str, coding: str) -> str:
    """The file's text in the coding its trailer names (a coding Python does not know:
    UTF-8); a clear error when the bytes are not that."""
    try:
        return data.decode(coding)
    except LookupError:
        return _decoded(data, name, "utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not valid {coding} (byte {exc.start}), not an Info manual "
                               "in the coding it names") from None


def looks_like_info(head: bytes) -> bool:
    """An Info file: makeinfo's first line, or a node separator and header early on."""
    return _HEAD.match(head) is not None or b"\x1f\nFile: " in head[:65536]


def parse_info(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    coding = _CODING.search(data[-2048:].decode("ascii", "replace"))
    text = _decoded(data, name, coding.group(1) if coding else "utf-8")
    # an index node holds the index cookie; the other cookies are display hints
    text = _COOKIE.sub("", text.replace(_INDEX_COOKIE, _INDEX))
    nul = text.find("\x00")
    if nul != -1:
        raise InputError(name, f"binary file (a NUL byte at character {nul}), not an Info "
                               "manual")
    manual = _Manual()
    for part in _SEPARATOR.split(text)[1:]:  # [0]: the preamble before the first node
        manual.node(part)
    return Document(text=manual.out.text, doc_id=doc_id, source=source, title=manual.title,
                    blocks=tuple(manual.out.blocks),
                    metadata={"format": "info", "nodes": manual.nodes})


class _Manual:
    """An Info manual being read, a node at a time."""

    def __init__(self) -> None:
        self.out = TextBuilder()
        self.trail = HeadingTrail()
        self.title: str | None = None
        self.nodes = 0

    def node(self, part: str) -> None:
        header, _, body = part.partition("\n")
        m = _HEADER.match(header.strip())
        if m is None or part.startswith(_PARTS) or _INDEX in body:
            return  # the tag table, a split manual's list of parts, an index node
        self.nodes += 1
        if self.title is None:  # the manual's name first: a part's trails say whose
            stem = m.group(1).strip()
            self.title = stem[:-5] if stem.endswith(".info") else stem
            self.trail.push(1, self.title)
        menu = _MENU.search(body)
        if menu is not None:  # a node's menu is the last thing in it
            body = body[:menu.start()]
        top = m.group(2).strip() == "Top"
        for para in re.split(r"\n[ \t\r]*\n", body):
            self.paragraph(para.rstrip(), top)

    def paragraph(self, para: str, top: bool) -> None:
        lines = para.split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        if len(lines) >= 2 and _underline(lines[0], lines[1]):
            title = lines[0].strip()
            level = 1 if top else _LEVELS[lines[1].strip()[0]]
            if top:
                self.title = title
            self.trail.push(level, title)
            self.out.add_block("heading", title, self.trail.path, level=level)
            lines = lines[2:]
        body = "\n".join(lines).strip("\n")
        if body.strip():
            self.out.add_block(_kind(body), _dedent(body), self.trail.path)


def _underline(title: str, rule: str) -> bool:
    rule = rule.strip()
    return (bool(title.strip()) and len(rule) >= 2 and rule[0] in _LEVELS
            and rule == rule[0] * len(rule) and abs(len(rule) - len(title.strip())) <= 2)


_ITEM = re.compile(r"[ \t]*(?:[•*-]|\d{1,3}\.)[ \t]")
#: what code and program output have and prose does not: columns aligned by runs of
#: spaces inside a line, a shell prompt
_CODE_LINE = re.compile(r"\S {3,}\S|^\s*[$#] ")


def _prose(lines: list[str]) -> bool:
    """Sentences: the text ends as a sentence does, with some words a line, and no
    line is laid out in columns or starts with a prompt."""
    if any(_CODE_LINE.search(x) for x in lines):
        return False
    words = sum(len(x.split()) for x in lines)
    return lines[-1].rstrip().endswith((".", ":", ";", "?", "!", ")")) and (
        words >= 4 * len(lines) or (len(lines) == 1 and words >= 3))


def _kind(body: str) -> str:
    """``list_item`` for a bullet or numbered item, or a term with its description
    indented under it (a table of options: the term's lines, then prose deeper);
    ``code`` for an example or program output (set five columns in or more, as
    makeinfo sets them, and not prose: makeinfo indents nested prose as far);
    else ``paragraph``."""
    lines = [x for x in body.split("\n") if x.strip()]
    indents = [len(x) - len(x.lstrip(" ")) for x in lines]
    if _ITEM.match(body):
        return "list_item"
    deeper = [i for i, n in enumerate(indents) if n >= indents[0] + 3]
    if deeper and indents[0] == min(indents) and all(
            n == indents[0] for n in indents[:deeper[0]]) and _prose(lines[deeper[0]:]):
        return "list_item"
    if min(indents) >= 5 and not _prose(lines):
        return "code"
    return "paragraph"


def _dedent(body: str) -> str:
    """The paragraph less the indentation all its lines share."""
    lines = body.split("\n")
    indent = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
    return "\n".join(x[indent:] for x in lines)


INFO = Reader(parse_info, (".info",), binary=True)
