"""MediaWiki wikitext (``.wiki``, ``.mediawiki``, ``.wikitext``; and the pages of a
MediaWiki XML export, which :mod:`chunkwise.readers.xmldoc` hands here): headings
(``== History ==``, a level per ``=`` beyond the first), paragraphs (a wikitext
paragraph's line breaks are spaces), list items (``*``, ``#``, a definition's
``; term : text`` as ``term: text``), tables (``{| ... |}``: ``!`` cells a header,
the ``|+`` caption a paragraph before it), preformatted lines and
``<syntaxhighlight lang=...>``/``<source>``/``<pre>`` as code, links as their text
(``[[Target|label]]``: label; an image's caption; ``[[Category:X]]`` the page's
``categories`` metadata), references (``<ref>``) after the paragraph that cites them.
An inline template's unnamed arguments are text (``{{convert|5|km}}``: ``5 km``);
named arguments (an infobox's fields), citation, note, hatnote and navigation
templates, parser functions, comments and parameters are left out, as MediaWiki's
plain-text rendering leaves them. Parsed by mwparserfromhell;
offsets are into the extracted text."""

from __future__ import annotations

import re
from typing import Any

from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: tags whose content is code, kept as written
_CODE_TAGS = frozenset(("syntaxhighlight", "source", "pre"))
#: an image link's options (``[[File:x.png|thumb|right|200px|Caption]]``), never its caption
_IMAGE_OPTION = re.compile(r"(?:thumb|thumbnail|frame|frameless|border|left|right|center|"
                           r"centre|none|upright(?:=[\d.]+)?|baseline|middle|sub|super|top|"
                           r"text-top|bottom|text-bottom|\d*x?\d+px|(?:alt|link|page|class|lang)=.*)",
                           re.I)
#: templates whose arguments are a citation, a note, a link to another page or page
#: furniture, not the page's running text: names that start so, and whole names
_UNSPOKEN_PREFIXES = ("cite", "citation", "sfn", "efn", "refn", "harv", "pp-", "infobox",
                      "taxobox", "navbox", "use ", "coord")
_UNSPOKEN_NAMES = frozenset((
    "reflist", "notelist", "rp", "r", "anchor", "good article", "featured article",
    "authority control", "commons", "commons category", "portal", "sidebar", "clear", "main",
    "see also", "further", "redirect", "about", "for", "distinguish", "other uses", "stub",
    "cn", "dead link", "when", "who", "toc", "tocright", "-", "!"))
_REDIRECT = re.compile(r"\s*#redirect\s*:?\s*\[\[([^\]|]+)", re.I)
_LIST_MARKS = re.compile(r"[*#;:]+")


def parse_wikitext(text: str, doc_id: str, source: str | None = None) -> Document:
    out, trail = TextBuilder(), HeadingTrail()
    meta = add_wikitext(out, trail, text.removeprefix("\ufeff"), 0)  # (a byte-order mark
    # hid a first line's heading)
    return Document(text=out.text, doc_id=doc_id, source=source,  # (a page's title is
                    blocks=tuple(out.blocks),                          # its file's name)
                    metadata={**meta, "format": "mediawiki"})


def add_wikitext(out: TextBuilder, trail: HeadingTrail, wikitext: str, base: int) -> dict[str, Any]:
    """Add one page's blocks to ``out``, its headings ``base`` levels below the top
    (an export's page title is level 1: its ``==`` sections are 2); the page's
    metadata (its categories) returned."""
    import mwparserfromhell

    redirect = _REDIRECT.match(wikitext)
    if redirect is not None:  # a redirect page: its target, not a numbered list item
        out.add_block("paragraph", f"Redirect to {redirect.group(1).strip()}", trail.path)
        return {"redirect": redirect.group(1).strip()}
    page = _Page(out, trail, base)
    for piece, parse in pieces(wikitext):
        if parse:
            page.walk(mwparserfromhell.parse(piece).nodes)
        else:  # one line longer than a piece: its text as written
            page.add("paragraph", piece)
    return {"categories": page.categories} if page.categories else {}


#: what opens or closes a construct a page may not be cut inside: templates, tables
#: (at a line's start), block tags, comments; and the blank lines it may be cut at
_NESTING = re.compile(r"\{\{|\}\}|^\{\||^\|\}|<!--|-->|"
                      r"<(/?)(?:ref|references|syntaxhighlight|source|pre|gallery|math|nowiki|"
                      r"poem|blockquote|table)\b[^>]*?(/?)>|\n[ \t]*\n", re.M | re.I)
#: the most text parsed at once: mwparserfromhell's time grows with the square of an
#: unclosed construct's reach (20,000 unclosed ``[http://x`` links: 41 s in one parse)
PIECE = 16_384


def pieces(wikitext: str) -> list[tuple[str, bool]]:
    """The page cut at blank lines outside templates, tables, block tags and comments
    into pieces of about :data:`PIECE` characters, each parsed alone; a piece that
    cannot be cut so is cut at its lines, and a line longer than a piece is read as
    text (``False``)."""
    cuts, depth, comment, start = [], 0, False, 0
    for m in _NESTING.finditer(wikitext):
        token = m.group(0)
        if comment:
            comment = token != "-->"
        elif token == "<!--":
            comment = True
        elif token.startswith("\n"):
            if depth == 0 and m.start() - start >= PIECE:
                cuts.append(m.end())
                start = m.end()
        elif token in ("{{", "{|") or token.startswith("<") and not m.group(1) and not m.group(2):
            depth += 1
        elif token != "-->":
            depth = max(depth - 1, 0)
    out, last = [], 0
    for cut in [*cuts, len(wikitext)]:
        out += _lines_if_long(wikitext[last:cut])
        last = cut
    return out


_TABLE_OPEN = re.compile(r"^[ \t]*\{\|", re.M)
_TABLE_CLOSE = re.compile(r"^[ \t]*\|\}", re.M)


def _lines_if_long(piece: str) -> list[tuple[str, bool]]:
    """A piece as it is if it is short, or if what keeps it whole is tables that all
    close (a long table parses in time linear in its length: 400 kB in 4.9 s);
    else its lines, grouped."""
    if len(piece) <= 2 * PIECE or (len(_TABLE_OPEN.findall(piece)) == len(_TABLE_CLOSE.findall(piece))
                                   and "{|" in piece and len(piece) <= 64 * PIECE):
        return [(piece, True)]
    out: list[tuple[str, bool]] = []
    run: list[str] = []
    size = 0
    for line in piece.splitlines(keepends=True):
        if len(line) > PIECE:
            out += [("".join(run), True)] if run else []
            out.append((line, False))
            run, size = [], 0
            continue
        run.append(line)
        size += len(line)
        if size >= PIECE // 4:  # (unclosed tables and tags: quadratic within a group)
            out.append(("".join(run), True))
            run, size = [], 0
    return out + ([("".join(run), True)] if run else [])


class _Page:
    def __init__(self, out: TextBuilder, trail: HeadingTrail, base: int) -> None:
        self.out, self.trail, self.base = out, trail, base
        self.categories: list[str] = []
        self.notes: list[str] = []

    def walk(self, nodes: list[Any]) -> None:
        from mwparserfromhell.nodes import Heading, Tag

        run: list[Any] = []
        for node in nodes:
            if isinstance(node, Heading):
                self.flush(run)
                run = []
                title = _clean(self.plain(node.title.nodes))
                if title:
                    level = self.base + max(node.level - 1, 1)
                    self.trail.push(level, title)
                    self.out.add_block("heading", title, self.trail.path, level=level)
            elif isinstance(node, Tag) and str(node.tag).lower() in ("table", *_CODE_TAGS):
                self.flush(run)
                run = []
                if str(node.tag).lower() == "table":
                    self.table(node)
                else:
                    self.code(node)
            else:
                run.append(node)
        self.flush(run)

    def plain(self, nodes: list[Any]) -> str:
        return "".join(self.render(n) for n in nodes)

    def render(self, node: Any) -> str:
        """A node as text (list markers kept at their line's start, for :meth:`flush`)."""
        from mwparserfromhell.nodes import Comment, ExternalLink, HTMLEntity, Tag, Template, Text, Wikilink

        if isinstance(node, Text):
            return str(node.value)
        if isinstance(node, Wikilink):
            return self.link(node)
        if isinstance(node, ExternalLink):
            return self.plain(node.title.nodes) if node.title is not None else str(node.url)
        if isinstance(node, HTMLEntity):
            return str(node.normalize())
        if isinstance(node, Template):
            return self.template(node)
        if isinstance(node, Comment):
            return ""
        if isinstance(node, Tag):
            return self.tag(node)
        return ""  # a template's parameter ({{{1}}}) outside a template

    def template(self, node: Any) -> str:
        """An inline template's unnamed arguments, a space apart (``{{convert|5|km}}``:
        ``5 km``; ``{{lang|fr|texte}}``: ``fr texte``), their words being the page's;
        named arguments (an infobox's fields, a citation's) and citation and note
        templates left out, as MediaWiki's plain-text rendering leaves them."""
        name = str(node.name).strip().lower()
        if name.startswith(_UNSPOKEN_PREFIXES) or name in _UNSPOKEN_NAMES or ":" in name:
            return ""  # (``{{DEFAULTSORT:...}}``, ``{{#if:...}}``: parser functions)
        words = [_clean(self.plain(p.value.nodes)) for p in node.params if not p.showkey]
        return " ".join(w for w in words if w)

    def link(self, node: Any) -> str:
        target = str(node.title).strip()
        namespace, _, rest = target.partition(":")
        namespace = namespace.strip().lower()
        if namespace == "category" and rest:
            self.categories.append(rest.split("|")[0].strip())
            return ""
        if namespace in ("file", "image", "media") and rest:
            parts = str(node.text or "").split("|")
            caption = next((p for p in reversed(parts) if p.strip()
                            and not _IMAGE_OPTION.fullmatch(p.strip())), "")
            if not caption:
                return ""
            import mwparserfromhell

            return self.plain(mwparserfromhell.parse(caption).nodes)
        return self.plain(node.text.nodes) if node.text is not None else target.lstrip(":")

    def tag(self, node: Any) -> str:
        name = str(node.tag).lower()
        if name == "ref":
            note = _clean(self.plain(node.contents.nodes)) if node.contents is not None else ""
            if note:
                self.notes.append(note)
            return ""
        if name in ("li", "dt", "dd"):
            return str(node.wiki_markup or "")
        if name in ("br", "hr"):
            return "\n"
        if name == "nowiki":
            return str(node.contents or "")
        if node.contents is None:
            return ""
        return self.plain(node.contents.nodes)

    def flush(self, run: list[Any]) -> None:
        """A run of inline nodes as paragraphs (lines joined, a blank line between
        paragraphs), list items and preformatted code."""
        text = self.plain(run)
        para: list[str] = []
        pre: list[str] = []
        for line in text.split("\n"):
            if pre and not line.startswith(" "):
                self.add("code", "\n".join(pre))
                pre = []
            if not line.strip():
                self.add("paragraph", " ".join(para))
                para = []
            elif line[0] in "*#;:":
                self.add("paragraph", " ".join(para))
                para = []
                self.add("list_item", _item(line))
            elif line.startswith(" "):
                self.add("paragraph", " ".join(para))
                para = []
                pre.append(line[1:])
            else:
                para.append(line.strip())
        if pre:
            self.add("code", "\n".join(pre))
        self.add("paragraph", " ".join(para))

    def add(self, kind: str, text: str) -> None:
        text = text if kind == "code" else _clean(text)
        if self.out.add_block(kind, text, self.trail.path) is None:
            return
        notes, self.notes = self.notes, []
        for note in notes:
            self.out.add_block("paragraph", note, self.trail.path)

    def code(self, node: Any) -> None:
        language = ""
        for attr in node.attributes:
            if str(attr.name).strip().lower() == "lang" and attr.value is not None:
                language = str(attr.value).strip()
        body = str(node.contents or "").strip("\n")
        self.out.add_block("code", body, self.trail.path,
                           metadata={"language": language} if language else None)

    def table(self, node: Any) -> None:
        """A ``{| ... |}`` table: its rows (cells before the first ``|-`` a row of
        their own), the first a header where every cell is ``!``."""
        rows: list[list[Any]] = []
        loose: list[Any] = []
        for child in node.contents.ifilter_tags(recursive=False):
            name = str(child.tag).lower()
            if name in ("td", "th") and str(child).lstrip().startswith("|+"):
                caption = _clean(self.plain(child.contents.nodes))
                self.add("paragraph", caption[1:] if caption.startswith("+") else caption)
            elif name in ("td", "th"):
                loose.append(child)
            elif name == "tr":
                rows += [loose] if loose else []
                loose = []
                rows.append([c for c in child.contents.ifilter_tags(recursive=False)
                             if str(c.tag).lower() in ("td", "th")])
        rows += [loose] if loose else []
        header = bool(rows and rows[0]) and all(str(c.tag).lower() == "th" for c in rows[0])
        self.out.add_table([self.cells(r) for r in rows], self.trail.path, has_header=header)
        self.add("paragraph", "")

    def cells(self, cells: list[Any]) -> list[str]:
        return [_clean(self.plain(c.contents.nodes)) for c in cells]


def _item(line: str) -> str:
    """A list line's text: ``; term : text`` as ``term: text``, markers dropped."""
    marks = _LIST_MARKS.match(line)
    body = line[marks.end():] if marks else line
    if marks and marks.group(0).endswith(";") and " : " in body:
        term, _, definition = body.partition(" : ")
        return f"{term.strip()}: {definition.strip()}"
    return body


def _clean(text: str) -> str:
    return " ".join(text.split())


WIKITEXT = Reader(parse_wikitext, (".wiki", ".mediawiki", ".wikitext"))
