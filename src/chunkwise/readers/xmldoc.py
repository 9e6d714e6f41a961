"""XML documents in the vocabularies documentation and papers are written in:
DocBook (4 and 5: the PHP manual, KDE's and GNOME's handbooks, *DocBook: The
Definitive Guide*), DITA topics (DITA-OT's documentation), JATS/NLM articles
(PubMed Central's and eLife's papers, ``.nxml``) and TEI (digitised texts, GROBID's
output for PDFs); ``.sgml`` files that are XML (PostgreSQL's documentation).
Sections as headings (a section's ``title``, TEI's ``head``, a reference page's
name, a JATS section's ``label`` before its title), paragraphs,
program listings and synopses as code with their language, lists' items (a variable
list's term with its text, a reference list's citations), CALS, HTML-style and DITA
simple tables as pipe tables, block quotes, admonitions (``Warning: ...``), figure
and table titles and captions; footnotes after the paragraph that cites them; index
terms, editorial remarks, comments and processing instructions left out; a JATS
article's title, authors, DOI, journal and keywords and a TEI header's title as
metadata, their abstracts a section of their own. Offsets are into the extracted
text, as for DOCX.

An entity the file does not define (DocBook's ``&mdash;`` from its DTD, the PHP
manual's ``&null;``) is an HTML entity's character where it names one, else kept as
written (``&null;``): the DTD is never loaded, nothing is fetched, and no text is
lost. Any other XML (a ``pom.xml``, a configuration file, a sitemap, XML that is not
well formed) is read as plain text, as before this reader."""

from __future__ import annotations

import html.entities
import re
from collections.abc import Iterator
from typing import Any

from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder
from .text import parse_text

_DOCBOOK_NS = "http://docbook.org/ns/docbook"
_TEI_NS = "http://www.tei-c.org/ns/1.0"
_DOCBOOK_ROOTS = frozenset(("set", "book", "part", "chapter", "appendix", "preface", "article",
                            "section", "sect1", "sect2", "sect3", "sect4", "sect5", "refentry",
                            "reference", "glossary", "bibliography", "partintro", "colophon",
                            "dedication", "simplesect", "refsect1", "refsection"))
#: a DocBook file that is one block of a larger book (the PHP manual's included parts)
_DOCBOOK_PARTS = frozenset(("para", "simpara", "formalpara", "variablelist", "itemizedlist",
                            "orderedlist", "informaltable", "programlisting", "informalexample",
                            "procedure", "qandaset", "refsect2", "refsect3", "warning", "caution"))
_DITA_ROOTS = frozenset(("topic", "concept", "task", "reference", "troubleshooting",
                         "glossentry", "glossgroup", "dita"))

#: containers whose title is a heading, one level below the section around them
_SECTIONS = frozenset((
    "set", "book", "part", "chapter", "appendix", "preface", "article", "section", "sect1",
    "sect2", "sect3", "sect4", "sect5", "simplesect", "refentry", "refsect1", "refsect2",
    "refsect3", "refsection", "refsynopsisdiv", "reference", "glossary", "glossdiv",
    "bibliography", "bibliodiv", "colophon", "dedication", "acknowledgements", "partintro",
    "qandadiv", "sidebar", "example", "topic", "concept", "task", "troubleshooting", "refsyn",
    "sec", "app", "ack", "ref-list", "app-group", "sub-article", "div", "div1", "div2", "div3",
    "div4", "div5", "div6", "div7"))
#: a section's heading
_TITLES = frozenset(("title", "head"))
#: code, whitespace kept
_CODE = frozenset(("programlisting", "screen", "synopsis", "codeblock", "pre", "msgblock",
                   "preformat", "eg", "cmdsynopsis", "funcsynopsis", "classsynopsis",
                   "methodsynopsis", "fieldsynopsis", "constructorsynopsis",
                   "destructorsynopsis", "enumsynopsis", "macrosynopsis", "unionsynopsis",
                   "packagesynopsis", "typedefsynopsis"))
#: prose whose line breaks are the author's
_LINES = frozenset(("literallayout", "address", "lines"))
_LISTS = frozenset(("itemizedlist", "orderedlist", "variablelist", "simplelist", "glosslist",
                    "calloutlist", "procedure", "substeps", "stepalternatives", "qandaset",
                    "list", "def-list", "ul", "ol", "sl", "dl", "steps", "steps-unordered",
                    "choices", "parml", "fn-group", "listbibl", "segmentedlist"))
_ITEMS = frozenset(("listitem", "varlistentry", "member", "step", "substep", "list-item",
                    "item", "li", "sli", "dlentry", "plentry", "def-item", "callout",
                    "glossentry", "qandaentry", "ref", "fn", "choice", "biblstruct", "bibl",
                    "seglistitem"))
_TABLES = frozenset(("table", "informaltable", "simpletable", "choicetable", "properties"))
_ROWS = frozenset(("row", "tr", "strow", "sthead", "chrow", "chhead", "property", "prophead"))
_ROW_GROUPS = frozenset(("tgroup", "thead", "tbody", "tfoot"))
_HEADER_ROWS = frozenset(("sthead", "chhead", "prophead"))
#: JATS blocks whose ``label`` (``Figure 1.``) comes before their caption
_LABELLED = frozenset(("fig", "table-wrap", "boxed-text", "supplementary-material",
                       "disp-formula", "media", "fig-group", "statement"))
_QUOTES = frozenset(("blockquote", "disp-quote", "lq", "epigraph"))
_ADMONITIONS = {"note": "Note", "tip": "Tip", "warning": "Warning", "caution": "Caution",
                "important": "Important", "danger": "Danger"}
#: blocks of paragraphs' kind (a container that holds blocks is walked instead)
_PARAGRAPHS = frozenset(("para", "simpara", "p", "ab", "shortdesc", "refpurpose", "attribution",
                         "subtitle", "cmd", "speaker", "lg", "sp", "figdesc", "question",
                         "mixed-citation",
                         "element-citation", "caption", "stepresult"))
#: never the document's text
_SKIP = frozenset((
    "indexterm", "remark", "comment", "titleabbrev", "refmeta", "prolog", "titlealts",
    "index", "toc", "lot", "anchor", "colspec", "spanspec", "imageobject", "imagedata",
    "graphic", "inline-graphic", "media", "object-id", "teiheader", "draft-comment",
    "required-cleanup", "data", "data-about", "related-links", "permissions", "alt-title",
    "fw", "pb", "sic", "abbr", "orig", "textobject-alt", "audioobject", "videoobject",
    "processing-meta", "custom-meta-group", "counts", "self-uri", "related-article"))
#: a document's or section's metadata: its title is the heading, its abstract text
_INFO = re.compile(r"(?:info|\w+info)\Z")
_BLOCKS = (_SECTIONS | _CODE | _LISTS | _ITEMS | _TABLES | _QUOTES | frozenset(_ADMONITIONS)
           | _PARAGRAPHS | _LINES | {"refnamediv"})
#: a section's children that :meth:`_Walker.titled` reads first (and its ``*info``)
_TITLED_SKIP = frozenset(("title", "head", "label"))
#: a definition list entry's terms, read before its definition
_TERMS = frozenset(("term", "dt", "pt", "glossterm"))
_LABEL = frozenset(("label",))
#: a doctype's public identifier naming its vocabulary ("-//OASIS//DTD DocBook XML V4.5//EN",
#: "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD ...")
_PUBLIC_ID = re.compile(r"\b(?:docbook|dita|tei|jats|journal publishing|journal archiving"
                        r"|archiving and interchange)\b")
_BY_PUBLIC_ID = {"docbook": "docbook", "dita": "dita", "tei": "tei"}
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
_SECTION_NUMBER = re.compile(r"\d{1,4}(?:\.\d{1,4}){0,8}\.?")
_BREAKS = frozenset(("sbr", "lb", "br", "break"))
_NOTES = frozenset(("footnote", "fn", "note"))
_XML_DECLARATION = re.compile(r"\A\ufeff?\s*<\?xml[^>]*\?>")
# (a section never closed reads to the end of the text in one step: no search goes
# back over it from each later opener)
_ENTITY_OR_LITERAL = re.compile(r"<!\[CDATA\[.*?(?:\]\]>|\Z)|<!--.*?(?:-->|\Z)"
                                r"|&([A-Za-z_:][\w.:-]*);", re.S)
_DECLARED = re.compile(r"<!ENTITY\s+([A-Za-z_:][\w.:-]*)\s+[\"']")
_SUBSET = re.compile(r"\s*(?:(?:<!--.*?-->|<\?.*?\?>)\s*)*<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", re.S)
#: a parameter entity's reference in the DTD's internal subset (its external files
#: are never read: the declarations it would bring are left out)
_PARAMETER_REFERENCE = re.compile(r"%[A-Za-z_:][\w.:-]*;")
_PREDEFINED = frozenset(("amp", "lt", "gt", "quot", "apos"))
_SPACES = re.compile(r"[ \t\r\n]+")


def parse_xml(text: str, doc_id: str, source: str | None = None) -> Document:
    root = _tree(text)
    vocabulary = _vocabulary(root) if root is not None else None
    if root is None or vocabulary is None:
        head = _XML_DECLARATION.sub("", text[:4096], count=1).lstrip().lower()
        if (root is not None and _local(root) == "html"
                or root is None and head.startswith(("<!doctype html", "<html"))):
            from .html import parse_html  # XHTML, or a web page saved as .xml

            return parse_html(text, doc_id, source)
        return parse_text(text, doc_id, source)
    walker = _Walker(vocabulary)
    meta = walker.start(root)
    return Document(text=walker.out.text, doc_id=doc_id, source=source,
                    title=meta.pop("title", None) or walker.first_heading,
                    blocks=tuple(walker.out.blocks),
                    metadata={**meta, "xml_vocabulary": vocabulary, "format": "xml"})


def _tree(text: str) -> Any | None:
    """The parsed element tree, or None where the text is not well-formed XML. No DTD
    is loaded and nothing fetched; entities the file declares are expanded (libxml2
    bounds their growth), others replaced as the module says."""
    from lxml import etree

    body = _XML_DECLARATION.sub("", text, count=1)
    subset = _SUBSET.match(body)
    declared = set(_DECLARED.findall(subset.group(1))) if subset else set()
    if subset and "%" in subset.group(1):
        body = (body[:subset.start(1)] + _PARAMETER_REFERENCE.sub("", subset.group(1))
                + body[subset.end(1):])

    def entity(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None or name in _PREDEFINED or name in declared:
            return m.group(0)
        char = html.entities.html5.get(name + ";")
        return char.replace("&", "&amp;").replace("<", "&lt;") if char else "&amp;" + name + ";"

    parser = etree.XMLParser(resolve_entities="internal", no_network=True, load_dtd=False,
                             remove_comments=True, remove_pis=True)
    try:
        return etree.fromstring(_ENTITY_OR_LITERAL.sub(entity, body), parser)
    except (etree.XMLSyntaxError, ValueError):
        return None


def _local(el: Any) -> str:
    """An element's name without its namespace, in lower case ("" for an entity)."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    name = _LOCAL_NAMES.get(tag)
    if name is None:
        if len(_LOCAL_NAMES) > 10_000:  # (a file of made-up names: the cache stays small)
            _LOCAL_NAMES.clear()
        name = _LOCAL_NAMES[tag] = tag.rpartition("}")[2].lower()
    return name


_LOCAL_NAMES: dict[str, str] = {}


def _ends_in_text(parts: list[str]) -> bool:
    """Whether the text so far ends in something other than whitespace (the last
    part that is not empty decides; empty tails are skipped)."""
    for part in reversed(parts):
        if part:
            return not part[-1].isspace()
    return False


def _vocabulary(root: Any) -> str | None:
    name, ns = _local(root), root.tag.partition("}")[0].lstrip("{")
    if name == "mediawiki" and any(_local(c) == "page" for c in root):
        return "mediawiki"
    if ns == _DOCBOOK_NS:
        return "docbook"
    if ns == _TEI_NS or name in ("tei", "teicorpus"):
        return "tei"
    public = (root.getroottree().docinfo.public_id or "").lower()
    if (marker := _PUBLIC_ID.search(public)) is not None:
        return _BY_PUBLIC_ID.get(marker.group(0), "jats")
    children = {_local(c) for c in root}
    if name == "article" and children & {"front", "body", "back"} or name == "pmc-articleset":
        return "jats"
    if name in _DITA_ROOTS and children & {"body", "conbody", "taskbody", "refbody",
                                            "glossterm", "troublebody", "topic", "concept",
                                            "shortdesc"}:
        return "dita"
    if name in _DOCBOOK_ROOTS and children & {"title", "info", "para", "section", "sect1",
                                              "chapter", "refnamediv", "bookinfo",
                                              "articleinfo", "chapterinfo", "simpara"}:
        return "docbook"
    if name in _DOCBOOK_PARTS and not set(root.attrib) - {"id", "role"}:
        return "docbook"
    return None


class _Walker:
    def __init__(self, vocabulary: str) -> None:
        self.vocabulary = vocabulary
        self.out = TextBuilder()
        self.trail = HeadingTrail()
        self.depth = 0
        self.notes: list[str] = []
        self.first_heading: str | None = None
        self.prefix = ""
        self.blocky: dict[Any, bool] = {}
        self.root: Any = None
        self.ids: dict[str, Any] | None = None
        self.resolving: set[str] = set()

    def start(self, root: Any) -> dict[str, Any]:
        self.root = root
        meta: dict[str, Any] = {}
        if self.vocabulary == "jats":
            for article in ([root] if _local(root) == "article" else _all(root, "article")):
                meta = meta or _jats_meta(article)
                self.jats(article)
        elif self.vocabulary == "mediawiki":
            meta = self.wiki_pages(root)
        elif self.vocabulary == "tei":
            meta = self.tei_header(root)
            for child in root:
                self.block(child)
        elif _local(root) in _SKIP:  # a file that is an index or a table of contents
            self.flow(root, "paragraph")
        else:
            self.block(root)
        return meta

    def jats(self, article: Any) -> None:
        """A JATS article: its title the trail's root, its abstracts sections, then
        its body, back matter and sub-articles (reviews, replies)."""
        title = _first(_first(article, "front"), "article-meta", "title-group", "article-title")
        if title is None:
            title = _first(_first(article, "front-stub"), "title-group", "article-title")
        if title is not None and (text := self.inline(title)):
            self.heading(text, 0)
        front = _first(article, "front")
        for abstract in _all(front if front is not None else _first(article, "front-stub"),
                             "article-meta", "abstract"):
            self.titled(abstract, "Abstract")
        for child in article:
            if _local(child) not in ("front", "front-stub"):
                self.block(child)

    def wiki_pages(self, root: Any) -> dict[str, Any]:
        """A MediaWiki XML export (Special:Export, a dump): each page a section
        titled by its title, its latest revision's wikitext read by
        :mod:`chunkwise.readers.wikitext`."""
        from .wikitext import add_wikitext

        categories: list[str] = []
        pages = 0
        for page in (c for c in root if _local(c) == "page"):
            title = _clean(_text_of(_first(page, "title")))
            revisions = _all(page, "revision")
            wikitext = _text_of(_first(revisions[-1], "text")) if revisions else ""
            if title:
                self.heading(title, 1)
            found = add_wikitext(self.out, self.trail, wikitext, 1)
            categories += [c for c in found.get("categories", ()) if c not in categories]
            self.trail.end_at(1)
            pages += 1
        return {"pages": pages, **({"categories": categories} if categories else {})}

    def tei_header(self, root: Any) -> dict[str, Any]:
        header = _first(root, "teiheader")
        title = _first(header, "filedesc", "titlestmt", "title")
        text = self.inline(title) if title is not None else ""
        if text:
            self.heading(text, 0)
        for abstract in _all(_first(header, "profiledesc"), "abstract"):
            self.titled(abstract, "Abstract")
        return {"title": text} if text else {}

    def heading(self, text: str, level: int) -> None:
        self.trail.push(level, text)
        self.out.add_block("heading", text, self.trail.path, level=level)
        self.first_heading = self.first_heading or text

    def titled(self, el: Any, default: str | None = None) -> None:
        """A section: its heading (a title, a reference page's name, or ``default``)
        one level below the enclosing section's, its content under it. A TEI head
        numbered ``n="2.1"`` (GROBID's sections, one flat list of divs) is at the
        level its number says, and lasts to the next heading as a Markdown one does."""
        text = self.section_title(el) or default or self.typed(el)
        saved, numbered = self.depth, self.numbered(el)
        level = max(self.depth + 1, numbered)
        if text:
            self.heading(text, level)
            self.depth = level
        for info in (c for c in el if _INFO.match(_local(c))):
            for abstract in _all(info, "abstract"):
                self.flow(abstract, "paragraph")
        self.flow(el, "paragraph", _TITLED_SKIP, skip_info=True)
        if text and not numbered:
            self.trail.end_at(level)
        self.depth = saved

    def numbered(self, el: Any) -> int:
        """A TEI head's number's depth (``2.1``: 2), else 0."""
        head = _first(el, "head") if self.vocabulary == "tei" else None
        number = (head.get("n") or "") if head is not None else ""
        return number.rstrip(".").count(".") + 1 if _SECTION_NUMBER.fullmatch(number) else 0

    def typed(self, el: Any) -> str:
        """A TEI division's type as its title where it has no head (GROBID's
        ``<div type="references">``, ``acknowledgement``, ``annex``)."""
        kind = el.get("type") or "" if self.vocabulary == "tei" else ""
        if any(_local(c) in _SECTIONS and _first(c, "head") is not None for c in el):
            return ""  # (the divisions in it have heads of their own)
        return kind.capitalize() if kind.isalpha() else ""

    def section_title(self, el: Any) -> str:
        title = next((c for c in el if _local(c) in _TITLES), None)
        if title is None:
            title = next((t for c in el if _INFO.match(_local(c))
                          for t in c if _local(t) == "title"), None)
        if title is not None:
            text = self.inline(title)
            label = next((c for c in el if _local(c) == "label"), None)
            number = self.inline(label) if label is not None else title.get("n") or ""
            if number and self.vocabulary in ("jats", "tei") and not text.startswith(number):
                text = f"{number} {text}".strip()
            return text
        label = _first(el, "label")
        if label is not None and self.vocabulary == "jats":  # a section numbered, not titled
            return _clean(self.inline(label))
        if _local(el) == "refentry":  # a reference page: its names
            names = [self.inline(n) for n in el.iter("{*}refname", "refname")]
            return ", ".join(n for n in names if n)
        return "Synopsis" if _local(el) == "refsynopsisdiv" else ""  # as DocBook shows it

    def block(self, el: Any) -> None:
        name = _local(el)
        if not name or name in _SKIP:
            return
        if name in _SECTIONS:
            self.titled(el)
        elif name in _CODE:
            self.code(el, name)
        elif name == "refnamediv":  # a reference page's names and purpose, as man shows them
            names = ", ".join(t for c in el if _local(c) == "refname" and (t := _clean(self.inline(c))))
            purpose = " ".join(_clean(self.inline(c)) for c in el if _local(c) == "refpurpose")
            other = " ".join(t for c in el if _local(c) not in ("refname", "refpurpose")
                             and (t := _clean(self.inline(c))))
            self.add("paragraph", " — ".join(t for t in (names, purpose, other) if t))
        elif name in _LINES:
            self.add("paragraph", _verbatim(self.inline(el, keep=True)))
        elif name in _LISTS:  # its items (and any text between them)
            self.flow(el, "paragraph")
        elif name in _ITEMS:
            self.item(el)
        elif name in _TABLES:
            self.table(el)
        elif name in _QUOTES:
            self.quote(el)
        elif name in _ADMONITIONS:
            self.admonition(el, _ADMONITIONS[name])
        elif name in _LABELLED and (label := _first(el, "label")) is not None:
            # a JATS figure's or table's label before its caption: "Figure 1. Title"
            number = _clean(self.inline(label))
            self.prefixed(number + " " if number else "", el, "paragraph", _LABEL)
        elif name in _TITLES:  # a figure's, table's or example's title
            self.add("paragraph", self.inline(el))
        else:
            self.flow(el, "paragraph")

    def is_block(self, el: Any) -> bool:
        """Whether ``el`` is a block (a paragraph, list, table, ...) or holds one (a
        DITA ``taskbody``); else its text is inline in the run around it."""
        name = _local(el)
        if self.is_note(name) or name in _BREAKS:
            return False
        if name == "ref" and self.vocabulary != "jats":  # TEI's <ref target="#b0">: a link
            return False
        if name in _BLOCKS:
            return True
        if name in _SKIP or not len(el):
            return False
        known = self.blocky.get(el)
        if known is None:
            known = self.blocky[el] = any(self.is_block(c) for c in el)
        return known

    def is_note(self, name: str) -> bool:
        """A footnote, read after the block citing it (a DocBook ``note`` is an
        admonition; TEI's is a note)."""
        return name in _NOTES and (name != "note" or self.vocabulary == "tei")

    def flow(self, el: Any, kind: str, skip: frozenset[str] = frozenset(),
             skip_info: bool = False) -> bool:
        """Mixed content: runs of text and inline elements become blocks of ``kind``
        (the first; ``paragraph`` after), block elements are walked in their place (a
        paragraph's first taking ``kind``); children named in ``skip`` (and ``*info``
        ones with ``skip_info``) are left out, their tails kept. Whether a block was
        added."""
        run: list[str] = [_ws(el.text, False)]
        added = False
        spaced = _only_elements(el)
        for child in el:
            name = _local(child)
            if name in _SKIP or not name or name in skip or skip_info and _INFO.match(name):
                pass
            elif self.is_block(child):
                if self.add(kind, _clean("".join(run))):
                    kind, added = "paragraph", True
                run = []
                if name in _PARAGRAPHS and self.flow(child, kind) or self.walked(child):
                    kind, added = "paragraph", True
            else:
                text = self.inline(child)
                if spaced and text and _ends_in_text(run):
                    run.append(" ")
                run.append(text)
            run.append(_ws(child.tail, False))
        return self.add(kind, _clean("".join(run))) or added

    def walked(self, el: Any) -> bool:
        """:meth:`block` on ``el`` (not a paragraph); whether it added a block."""
        if _local(el) in _PARAGRAPHS:
            return False
        before = len(self.out.blocks)
        self.block(el)
        return len(self.out.blocks) > before

    def add(self, kind: str, text: str) -> bool:
        if text and self.prefix:
            text, self.prefix = self.prefix + text, ""
        added = self.out.add_block(kind, text, self.trail.path) is not None
        notes, self.notes = self.notes, []
        for note in notes:
            self.out.add_block("paragraph", note, self.trail.path)
        return added

    def prefixed(self, prefix: str, el: Any, kind: str, skip: frozenset[str] = frozenset()) -> None:
        """``el``'s content as :meth:`flow` adds it (less ``skip``), ``prefix`` before
        its first text (a term before its definition, ``Warning:`` before a warning's)."""
        self.prefix += prefix  # (after a term's, a note's in its definition)
        self.flow(el, kind, skip)
        if self.prefix:  # nothing followed it
            self.add(kind, self.prefix.rstrip(": "))
            self.prefix = ""

    def inline(self, el: Any, keep: bool = False) -> str:
        """An element's text: descendants in order (an element that holds only
        elements: theirs a space apart), footnotes kept for after the block, line
        breaks as line breaks; whitespace as written when ``keep``."""
        name = _local(el)
        if name in _BREAKS:
            return "\n"
        if not keep and self.is_note(name):
            note = _clean(self.inline_children(el, keep))
            if note:
                self.notes.append(note)
            return ""
        if name == "xref" and not len(el) and not (el.text or "").strip():
            return self.cross_reference(el.get("linkend") or "")
        if name == "alternatives":  # a formula's forms: its TeX, else the first
            chosen = next((c for c in el if _local(c) == "tex-math"), None)
            return self.inline(chosen if chosen is not None else el[0], keep) if len(el) else ""
        if name == "choice":  # TEI: the corrected, expanded, regularised reading
            return " ".join(self.inline(c, keep) for c in el if _local(c) not in _SKIP)
        text = self.inline_children(el, keep)
        return text + "\n" if name == "l" else text

    def cross_reference(self, target: str) -> str:
        """A DocBook ``<xref linkend="..."/>`` as its target's title, as DocBook's
        stylesheets show it (nothing where the target is elsewhere)."""
        if self.ids is None:
            self.ids = {}
            for el in self.root.iter():
                key = el.get(_XML_ID) or el.get("id") if isinstance(el.tag, str) else None
                if key:
                    self.ids.setdefault(key, el)
        found = self.ids.get(target)
        if found is None or target in self.resolving:
            return ""
        self.resolving.add(target)
        try:
            return _clean(self.section_title(found))
        finally:
            self.resolving.discard(target)

    def inline_children(self, el: Any, keep: bool) -> str:
        parts = [_ws(el.text, keep)]
        spaced = _only_elements(el)
        for child in el:
            if _local(child) not in _SKIP and _local(child):
                text = self.inline(child, keep)
                if spaced and text and _ends_in_text(parts):
                    parts.append(" ")
                parts.append(text)
            parts.append(_ws(child.tail, keep))
        return "".join(parts)

    def code(self, el: Any, name: str) -> None:
        if name.endswith("synopsis") and name not in ("synopsis", "cmdsynopsis"):
            text = _clean(self.inline(el))  # a function's or class's: its words on a line
        else:
            text = _verbatim(self.inline(el, keep=True))
        language = el.get("language") or el.get("code-type") or el.get("lang") or ""
        outputclass = el.get("outputclass") or ""
        if not language and outputclass.startswith("language-"):
            language = outputclass[len("language-"):]
        if self.out.add_block("code", text, self.trail.path,
                              metadata={"language": language} if language else None):
            self.add("paragraph", "")  # (no text: the footnotes inside it)

    def item(self, el: Any) -> None:
        name = _local(el)
        if name in ("varlistentry", "dlentry", "plentry", "def-item", "glossentry"):
            head = ", ".join(t for c in el if _local(c) in _TERMS and (t := _clean(self.inline(c))))
            self.prefixed(head + ": " if head else "", el, "list_item", _TERMS)
        else:
            label = _first(el, "label")  # a JATS item's "a." or "1."
            number = _clean(self.inline(label)) if label is not None else ""
            self.prefixed(number + " " if number else "", el, "list_item", _LABEL)

    def quote(self, el: Any) -> None:
        start = len(self.out.blocks)
        self.flow(el, "quote")
        for i in range(start, len(self.out.blocks)):
            block = self.out.blocks[i]
            if block.kind == "paragraph":
                self.out.blocks[i] = type(block)("quote", block.start, block.end, block.headings,
                                                 block.page, level=block.level,
                                                 metadata=block.metadata)

    def admonition(self, el: Any, label: str) -> None:
        title = next((c for c in el if _local(c) in _TITLES), None)
        heading = self.inline(title) if title is not None else ""
        kind_label = (el.get("type") or "").capitalize() or label  # DITA's <note type="tip">
        self.prefixed(f"{kind_label}: {heading + '. ' if heading else ''}", el, "paragraph",
                      _TITLES)

    def table(self, el: Any) -> None:
        title = next((c for c in el if _local(c) in _TITLES or _local(c) == "caption"), None)
        if title is not None:
            self.flow(title, "paragraph")
        rows, header = [], False
        for row in _rows(el):
            if isinstance(row, str):
                rows.append([row])
                continue
            cells = [_clean(self.inline(c)) for c in row if _local(c) not in _SKIP and _local(c)]
            if not rows:
                parent = _local(row.getparent())
                header = (parent == "thead" or _local(row) in _HEADER_ROWS
                          or row.get("role") == "label"
                          or bool(len(row)) and all(_local(c) == "th" for c in row))
            rows.append(cells)
        if self.out.add_table(rows, self.trail.path, has_header=header) is not None:
            self.add("paragraph", "")
        for foot in (c for c in el if _local(c) in ("table-wrap-foot", "desc")):
            self.flow(foot, "paragraph")


def _rows(table: Any) -> Iterator[Any]:
    """A table's rows in order, a nested table's left to its cell; text between rows
    (an entity the file does not define, standing for rows) a row of its own."""
    if (table.text or "").strip():
        yield _clean(_ws(table.text, False))
    for child in table:
        name = _local(child)
        if name in _ROWS:
            yield child
        elif name in _ROW_GROUPS or name == "table":
            yield from _rows(child)
        if (child.tail or "").strip():
            yield _clean(_ws(child.tail, False))


def _first(el: Any, *path: str) -> Any | None:
    for name in path:
        if el is None:
            return None
        el = next((c for c in el if _local(c) == name), None)
    return el


def _all(el: Any, *path: str) -> list[Any]:
    if el is None:
        return []
    *parents, last = path
    found = _first(el, *parents) if parents else el
    return [c for c in found if _local(c) == last] if found is not None else []


def _jats_meta(article: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    front = _first(article, "front")
    title = _first(front, "article-meta", "title-group", "article-title")
    if title is not None and (text := _clean(" ".join(title.itertext()))):
        meta["title"] = text
    names = [" ".join(" ".join(p.split()) for p in (_text_of(_first(n, "given-names")),
                                                     _text_of(_first(n, "surname"))) if p)
             for c in _all(_first(front, "article-meta"), "contrib-group", "contrib")
             if (n := _first(c, "name")) is not None]
    if names := [n for n in names if n]:
        meta["authors"] = names
    for key, el in (("doi", next((i for i in _all(front, "article-meta", "article-id")
                                  if i.get("pub-id-type") == "doi"), None)),
                    ("journal", _first(front, "journal-meta", "journal-title-group",
                                       "journal-title"))):
        if el is not None and (text := _clean(_text_of(el))):
            meta[key] = text
    keywords = [_clean(_text_of(k)) for g in _all(_first(front, "article-meta"), "kwd-group")
                for k in g if _local(k) == "kwd"]
    if keywords := [k for k in keywords if k]:
        meta["keywords"] = keywords
    return meta


def _text_of(el: Any) -> str:
    return "".join(el.itertext()) if el is not None else ""


def _only_elements(el: Any) -> bool:
    """Whether ``el`` holds elements and no text of its own (a citation's authors,
    year and title; a function's synopsis): their texts are joined with spaces."""
    return not (el.text or "").strip() and all(not (c.tail or "").strip() for c in el)


def _ws(text: str | None, keep: bool) -> str:
    """Source text: as written in code, else its whitespace one space (a line break
    in an XML paragraph is formatting)."""
    if not text:
        return ""
    return text if keep else _SPACES.sub(" ", text)


def _clean(text: str) -> str:
    """Whitespace as a browser shows it, line breaks given by the markup kept."""
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n")).strip()


def _verbatim(text: str) -> str:
    """Code as written, less the blank lines around it and the indentation every
    line shares."""
    lines = text.strip("\n").split("\n")
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return "\n".join(x[indent:].rstrip() for x in lines).strip("\n")


XML = Reader(parse_xml, (".xml", ".dbk", ".docbook", ".dita", ".nxml", ".tei", ".sgml"))
