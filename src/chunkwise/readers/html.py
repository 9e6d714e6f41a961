"""HTML: structure from selectolax (Lexbor, a real HTML5 parser that repairs
malformed markup), main content chosen with trafilatura.

Two passes. The walk collects every visible block of the page in order
(heading, paragraph, list item, preformatted text, table rendered as a pipe
table), skipping only what is never content: scripts, styles, templates,
form controls, and navigation chrome *outside* the page's article or main
element (a ``<header>`` inside an ``<article>`` holds the headline and lede;
``<form>`` wraps whole ASP.NET pages; chrome classes are matched as whole
class names, so ``no-sidebar`` is not a sidebar). Then trafilatura, a
maintained main-content extractor (F1 0.958 on the article-extraction
benchmark), says which of those blocks are the main content; blocks are kept
when their words appear in its extraction, and rendered by us (tables as pipe
tables, code with its whitespace). Where trafilatura finds nothing, the walk is
kept whole: boilerplate removal never removes the main content. A page whose
extraction keeps under half of its non-link text is reported by a warning
(:class:`ExtractionWarning`), naming the file.

The document text is the extracted text, blocks joined by blank lines; offsets
index it; each block remembers its tag and element path in ``metadata``.
``fmt="html-all"`` keeps the whole walk (no main-content selection).
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from array import array
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from ..errors import ExtractionWarning, InputError
from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: never content
_DROP = {"script", "style", "noscript", "template", "svg", "canvas", "iframe", "object",
         "head", "meta", "link", "button", "select", "option", "textarea", "input", "dialog",
         "map", "audio", "video", "embed"}
#: chrome when it is not inside the page's article or main element
_CHROME_TAGS = {"nav", "header", "footer", "aside", "menu"}
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "menu",
                 "menubar", "toolbar"}
#: whole class or id names that mark navigation chrome on sites that do not use <nav>
#: (``header`` and ``nav-panel``: the Next/Previous/Up line makeinfo 6 and 7 set above
#: and below every node of a Texinfo manual in HTML; ``menu-bar``: mdBook's bar of
#: buttons around the book's title, an ``<h1>`` on every page; ``mdbook-help-container``:
#: its keyboard-help pop-up, "Press ← or → to navigate between chapters", kept where a
#: page's own text is a heading and a sentence)
_CHROME_NAMES = re.compile(
    r"^(?:nav|navbar|navigation|menu|menu-bar|main-menu|breadcrumbs?|cookie|cookies|cookie-banner|"
    r"cookie-notice|cookie-consent|sidebar|site-header|site-footer|skip-link|skip-to-content|"
    r"toc|table-of-contents|header|nav-panel|mdbook-help-container)$",
    re.I)
_CONTENT_TAGS = {"article", "main"}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_TEXT_BLOCKS = {"p": "paragraph", "blockquote": "quote", "dt": "paragraph", "dd": "paragraph",
                "figcaption": "paragraph", "caption": "paragraph", "address": "paragraph",
                "summary": "paragraph"}
_CONTAINERS = {"div", "section", "article", "main", "body", "ul", "ol", "dl", "figure",
               "details", "fieldset", "center", "hgroup", "form", "header", "footer", "aside",
               "nav", "table", "tbody", "blockquote"}
#: the elements a browser lays out as blocks (by default): their text stands apart
#: from the text around them, where an inline element's (``<code>``, ``<em>``,
#: ``<a>``, ``<span>``) runs on with it (see :func:`_text`)
_BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "caption", "center", "dd", "details", "dir",
    "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
    "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend", "li",
    "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre", "search", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp"})
#: ... and a superscript's text stays a word apart: ``2<sup>32</sup>`` is "2 32", not
#: "232" (Node.js's docs' limits); a footnote's mark "text [1]"
_APART = "sup"
_BLOCK_SELECTOR = ", ".join(sorted(_BLOCK_TAGS | {_APART}))
_SPACE = re.compile(r"\s+")
#: what separates inline items (``1.7.0 · Source``)
_SEPARATOR = re.compile(r"\s*[·|•]\s*")
#: the most words (and characters) of the text opening a heading's element that goes
#: after the heading
LEAD_WORDS = 12
LEAD_CHARS = 80
_WORD = re.compile(r"\w+", re.U)
#: the scripts written without spaces between words (Han, kana, Hangul, CJK
#: compatibility ideographs)
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: words as the page's text and the extractor's are matched and counted by: each
#: character of an unspaced script a word of its own (the walk read ``<code>cargo</code>
#: はRust`` as "cargo はRust" until 2026-12-06, the extractor as "cargoはRust": as runs
#: of ``\w``, no Japanese paragraph of an mdBook page matched, and none was prose; a
#: word of Chinese or Japanese is no run of ``\w`` either way)
_TEXT_WORD = re.compile(f"[{_UNSPACED}]|[^\\W{_UNSPACED}]+")

#: share of the page's non-link text under which a main-content extraction warns
WARN_SHARE = 0.5

#: share of the page's running text inside its <main>/<article> from which nothing
#: outside them is content (article-extraction benchmark: precision 0.883 -> 0.888,
#: recall the same)
LANDMARK_SHARE = 0.5

#: a page longer than this (characters of HTML) is read whole: main-content
#: extraction (trafilatura's lxml tree) takes ~25x the page (a 20 MB page: 530 MB)
MAIN_CONTENT_MAX_CHARS = 8_000_000

#: a page nesting elements this deep (in the walk, below ``<body>``) is parsed for
#: main-content extraction with lxml's depth limit raised (256 by default: what is
#: below is dropped) ...
DEEP = 200
#: ... and one this deep is read whole (lxml's raised limit is 2,048)
TOO_DEEP = 1_900


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _text(node: Any, holders: set[int]) -> str:
    """An element's text as a browser runs it: an inline element's text joined to
    what is around it without a space of its own (``a <code>str</code>.`` is "a str.",
    ``<b>un</b>safe`` "unsafe", ``(<code>g</code>)`` "(g)"; read with a space between
    every element's text they were "a str .", "un safe" and "( g )": 1,136 times in
    the 18 HTML pages of the evaluation sets), a block's text (:data:`_BLOCK_TAGS`:
    a ``<dd>``'s paragraphs, a cell's ``<div>``s) apart from the text around it.
    ``holders``: the elements that hold a block (:func:`_block_holders`)."""
    if node.mem_id not in holders:
        return str(node.text(deep=True, separator=""))
    parts: list[str] = []
    stack = [(node.iter(include_text=True), False)]
    while stack:
        child = next(stack[-1][0], None)
        if child is None:
            if stack.pop()[1]:
                parts.append(" ")
        elif child.tag == "-text":
            parts.append(str(child.text(deep=False)))
        elif not child.tag.startswith(("-", "!")):
            block = child.tag in _BLOCK_TAGS
            if block or child.tag == _APART:
                parts.append(" ")
            stack.append((child.iter(include_text=True), block))
    return "".join(parts)


def _block_holders(root: Any) -> set[int]:
    """The elements under ``root`` that hold a block or a superscript (their
    ``mem_id``): one query for the page, where asking each paragraph, link and cell
    took 14 % of the reader's time."""
    holders: set[int] = set()
    for element in root.css(_BLOCK_SELECTOR):
        parent = element.parent
        while parent is not None and parent.mem_id not in holders:
            holders.add(parent.mem_id)
            parent = parent.parent
    return holders


#: what a ``<br>`` becomes before the walk (U+2028 LINE SEPARATOR: whitespace to
#: :func:`_clean`, so a space in headings, cells and links): in a block's text a line
#: break, two or more in a row a paragraph break (DocBook's literal layout, a NEWS
#: file as ``<p>`` lines, an old page's ``<br><br>`` paragraphs, a poem)
_BR = "\u2028"
_BR_PARAGRAPH = re.compile(r"\u2028\s*\u2028\s*")


def _paragraphs(text: str) -> list[str]:
    """A block's text as paragraphs, each line with its spaces collapsed."""
    if _BR not in text:
        return [_clean(text)]
    out = []
    for part in _BR_PARAGRAPH.split(text):
        lines = [line for line in map(_clean, part.split(_BR)) if line]
        if lines:
            out.append("\n".join(lines))
    return out


_LANGUAGE_CLASS = re.compile(r"^(?:language|lang|highlight-source|highlight)-([\w+#.-]+)$")


def _code_language(pre: Any) -> str | None:
    """The language a ``<pre>`` (or its ``<code>``) names in a class such as
    ``language-python``, ``lang-js`` or ``highlight-source-rust``."""
    for node in (pre, pre.css_first("code")):
        if node is None:
            continue
        for cls in (node.attributes.get("class") or "").split():
            m = _LANGUAGE_CLASS.match(cls)
            if m:
                return m.group(1).lower()
    return None


#: the text of a heading's permalink (``<a class="headerlink" href="#id">¶</a>`` in
#: Sphinx and MkDocs, ``#`` in Node.js's docs): no part of the heading
_PERMALINK_TEXT = {"#", "¶", "§", "🔗", "⚓", "link", "permalink", "anchor",
                   "ⓘ"}  # (rustdoc's tooltip on a signature, "notable traits")
#: a link to the source beside a heading or a signature (Node.js's ``Stream [src]``,
#: Sphinx's ``[source]`` after every function documented from its code)
_SOURCE_LINK_TEXT = {"[src]", "[source]"}
#: a link that only says there is more elsewhere (rustdoc ends every trait method's
#: summary with "Read more": 32,166 of the 89,522 chunks of Rust's std pages held
#: it, and BM25 found "read" in a third of them)
_TEASER_TEXT = {"read more", "read more…", "read more...", "read more »", "read more ›",
                "continue reading", "continue reading…", "continue reading »"}


_TITLE_SEPARATOR = re.compile(r"\s+(?:\||-|–|—|·|::)\s+")


def _site_title(title: str | None, first_heading: str | None) -> str | None:
    """A page's ``<title>`` as its title where it has no ``<h1>``; less the site's
    name after it (``Buffer | Node.js v20.20.2 Documentation``: ``Buffer``) when the
    part before the separator (or a parenthesis closing the title: Texinfo's HTML) is
    the page's first heading (each chunk's trail would repeat it)."""
    if title and first_heading:
        heading = _words(first_heading)
        cuts = [m.start() for m in _TITLE_SEPARATOR.finditer(title)]  # (the site's name
        if title.endswith(")") and " (" in title:  # may hold one too); makeinfo's
            cuts.append(title.rindex(" ("))  # "Closure Example (libffi: the portable ...)"
        for cut in cuts:
            head = _words(title[:cut])
            common = len(head & heading)
            if head and heading and common >= _SAME_TITLE * min(len(head), len(heading)) \
                    and (common >= 2 or len(head | heading) == 1):
                return first_heading
    return title


#: a ``<title>``'s part before a separator is the page's first heading when this share
#: of the words of the shorter of the two are in both, two words at least (or both are
#: the same one word): mdBook's ``Rc<T>, the Reference Counted Smart Pointer - The Rust
#: Programming Language`` over ``Rc<T> , the Reference-Counted Smart Pointer``, ``A -
#: Keywords - The Rust Programming Language`` over ``Appendix A: Keywords``
_SAME_TITLE = 0.75


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


#: what a text block (a paragraph, a ``<summary>``, a ``<dd>``) holds that makes it a
#: container to walk: rustdoc puts each method's ``<h4>`` in a ``<summary>``, FAQ
#: pages a question's ``<h3>``; read as one paragraph, no method was in any trail
_HOLDS_BLOCKS = "table, pre, ul, ol, h1, h2, h3, h4, h5, h6"


def _is_mark(link: Any, text: str, words: bool = False) -> bool:
    """A link that is no content wherever it stands: a permalink's glyph (``§`` before
    each of rustdoc's items, ``¶``; ``words``: "link", "anchor" too, as at a heading's
    end), a link to the source beside an item (rustdoc's ``<a class="src">Source</a>``)
    or one that only says there is more elsewhere ("Read more")."""
    mark = _clean(text).lower()
    attrs = link.attributes or {}
    if mark in _PERMALINK_TEXT and (words or not mark.isalpha()) and \
            (attrs.get("href") or "").startswith("#"):
        return True  # (a glyph: "see the <a href='#x'>link</a>" keeps its word)
    return mark in _SOURCE_LINK_TEXT or mark in _TEASER_TEXT or (
        mark == "source" and "src" in (attrs.get("class") or "").split())


def _heading_text(node: Any, holders: set[int]) -> str:
    """A heading's words, without a permalink anchor's glyph (``Buffer #`` in
    Node.js's docs, ``Usage ¶`` in Sphinx's): an ``<a href="#...">`` whose text is
    only such a glyph, at the start or the end of the heading; nor a link to the
    source there (``[src]``, ``[source]``)."""
    text = _clean(_text(node, holders))
    marks = [_clean(a.text(deep=True)) for a in node.css("a")
             if _is_mark(a, a.text(deep=True), words=True)]
    for _ in range(len(marks)):  # the permalink may follow a source link: "f(x) [source] ¶"
        for mark in marks:
            # (a glyph may touch the heading's last word, Sphinx's "Usage¶"; a word
            # only after a space: "Hyperlink" keeps its "link")
            glyph = not mark[:1].isalnum()
            if text.endswith(" " + mark) or (glyph and text.endswith(mark) and text != mark):
                text = text[:-len(mark)].rstrip()
            elif text.startswith(mark + " ") or (glyph and text.startswith(mark)
                                                 and text != mark):
                text = text[len(mark):].lstrip()
    return text


#: where a Sphinx object's signature is (see :func:`_is_signature`)
_SIGNATURES = "dt.sig-object, dt .descname, dt .sig-name"


def _is_signature(dt: Any) -> bool:
    """Whether a ``<dt>`` is a Sphinx object's signature (``<dt class="sig sig-object
    py" id="SECRET_KEY">``; before Sphinx 4, a ``<dt>`` holding a ``descname``)."""
    classes = (dt.attributes or {}).get("class") or ""
    return "sig-object" in classes.split() or dt.css_first(".descname, .sig-name") is not None


def _objects_around(dt: Any) -> int:
    """How many Sphinx object descriptions a signature's own is inside (a method's
    is inside its class's)."""
    count, node = 0, dt.parent  # (its own <dl>)
    node = node.parent if node is not None else None
    while node is not None:
        if node.tag == "dl":
            first = next((c for c in node.iter() if c.tag == "dt"), None)
            count += first is not None and _is_signature(first)
        node = node.parent
    return count


def _signature_text(dt: Any) -> str:
    """A signature as Sphinx shows it, ``flask.url_for(endpoint, **values)``: its
    inline pieces (a span a name, a parameter, a bracket) joined without the spaces a
    block's text puts between elements, less the permalink and a source link."""
    text = " ".join(str(dt.text(deep=True, separator="")).split())
    marks = [_clean(a.text(deep=True)) for a in dt.css("a")
             if _is_mark(a, a.text(deep=True), words=True)]
    trimmed = None
    while trimmed != text:
        trimmed = text
        for mark in marks:
            if mark and text.endswith(mark) and len(text) > len(mark):
                text = text[:-len(mark)].rstrip()
    return text


def _block_text(node: Any, tag: str, holders: set[int]) -> str:
    """A text block's words; a defined term's without its permalink glyph (makeinfo's
    ``ffi_type_void ¶``); a paragraph's without a "Read more" link ending it."""
    if tag == "dt":
        return _heading_text(node, holders)
    text = _text(node, holders)
    body = text.rstrip()  # (only its last characters looked at: paragraphs are many)
    if (m := _TEASER_END.search(body, max(0, len(body) - _TEASER_TAIL))) is not None and any(
            _clean(a.text(deep=True)).lower() in _TEASER_TEXT for a in node.css("a")):
        text = body[:m.start()]
    return text


#: a "Read more" (see :data:`_TEASER_TEXT`) ending a block's text
_TEASER_END = re.compile(r"\s*(?:read more|continue reading)\s*(?:…|\.\.\.|»|›)?$", re.I)
_TEASER_TAIL = 40


#: line numbers inside a ``<pre>``: rustdoc's source pages mark each
#: ``<a href=#1 id=1 data-nosnippet>1</a>`` (read into the code as "1#[cfg(test)]",
#: "17/// As with the [`HashMap`] type"), Pygments' inline numbers ``<span
#: class="linenos">``
_LINE_NUMBERS = ("[data-nosnippet], .linenos, .lineno, .line-number, .line-numbers, "
                 ".linenumber")


def _pre_text(pre: Any) -> str:
    """A ``<pre>``'s code, without line numbers (:data:`_LINE_NUMBERS`); several
    ``<code>`` elements in one ``<pre>`` (Node.js's docs give each example as an ES
    module and as CommonJS, one shown at a time) are separated by a blank line instead
    of run together."""
    for number in pre.css(_LINE_NUMBERS):
        number.decompose()
    codes = [c for c in pre.iter() if c.tag == "code"]
    if len(codes) > 1 and _clean("".join(c.text(deep=True) for c in codes)) == _clean(
            pre.text(deep=True)):
        return "\n\n".join(c.text(deep=True).replace(_BR, "\n").strip("\n") for c in codes)
    return str(pre.text(deep=True)).replace(_BR, "\n").strip("\n")


@dataclass
class _Raw:
    """A block found by the walk, before main-content selection and offsets."""

    kind: str
    text: str = ""
    level: int | None = None
    rows: list[list[str]] = field(default_factory=list)
    has_header: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    link_chars: int = 0
    in_content: bool = False  # inside the page's <article>/<main>


_LISTS = {"ul", "ol", "dl"}
_LETTER = re.compile(r"[^\W\d_]")


def _is_contents(node: Any, page: str) -> bool:
    """A list of links to the page's own sections before any text of the page but
    headings: its table of contents (DocBook's list of questions above an FAQ's
    answers, kept by the extractor, ranked for the questions it repeats). Two such
    links or more, and nearly all the list's letters (its numbering aside) in them.
    Further down such a list is content ("The following methods are available:"
    over links to each, in Node.js's docs)."""
    links = [a for a in node.css("a[href]") if _in_page(a.attributes.get("href") or "", page)]
    if len(links) < 2:
        return False
    letters = len(_LETTER.findall(node.text(deep=True)))
    linked = sum(len(_LETTER.findall(a.text(deep=True))) for a in links)
    return letters > 0 and linked >= 0.8 * letters


def _in_page(href: str, page: str) -> bool:
    target, _, fragment = href.partition("#")
    return bool(fragment) and (not target or bool(page) and target.removeprefix("./") == page)


#: classes that hide an element from sight (rustdoc's ``<summary class="hideme">Expand
#: description</summary>`` above every item's text, Bootstrap's ``d-none``); text kept
#: for screen readers (``sr-only``) stays: GitHub's footnotes are headed by one
_HIDDEN_CLASSES = frozenset({"hidden", "hideme", "d-none"})


def _is_hidden(attrs: dict[str, Any]) -> bool:
    """An element the page does not show: the ``hidden`` attribute, or a class of
    :data:`_HIDDEN_CLASSES`."""
    return "hidden" in attrs or not _HIDDEN_CLASSES.isdisjoint(
        (attrs.get("class") or "").split())


def _is_chrome(tag: str, attrs: dict[str, Any], in_content: bool) -> bool:
    if (attrs.get("role") or "") == "doc-toc" or {"contents", "topic"} <= set(
            (attrs.get("class") or "").split()):
        return True  # a table of contents, inside the content too (docutils, Sphinx)
    if in_content:
        return False
    if tag in _CHROME_TAGS:
        return True
    if (attrs.get("role") or "") in _CHROME_ROLES:
        return True
    names = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".split()
    # (written with underscores too: npm's docs' <section id="table_of_contents">)
    return any(_CHROME_NAMES.match(n.strip("_-").replace("_", "-")) for n in names)


class _Walker:
    def __init__(self, page: str = "") -> None:
        self.page = page  # the file's own name: links to page.html#x are in-page
        self.text_seen = False  # a block other than a heading found yet
        self.blocks: list[_Raw] = []
        self.depth = 0  # the most elements open at once in the walk
        self.section = 0  # the level of the last <h1>..<h6>
        self.inline: list[str] = []  # loose text directly inside containers
        self.inline_path = ""
        self.inline_links = 0
        self.inline_in_content = False
        #: the elements that hold a block (see :func:`_text`), found before the walk
        self.holders: set[int] = set()

    def flush(self) -> None:
        if self.inline:
            self.paragraphs("paragraph", "".join(self.inline), self.inline_links,
                            {"tag": "div", "path": self.inline_path}, self.inline_in_content)
            self.inline = []
        self.inline_links = 0

    def paragraphs(self, kind: str, text: str, link_chars: int, meta: dict[str, Any],
                   in_content: bool) -> None:
        """A block of text, one per paragraph where ``<br>``s in a row part them (the
        links' characters shared out by length)."""
        parts = _paragraphs(text)
        total = sum(map(len, parts)) or 1
        for part in parts:
            if part:
                self.add(_Raw(kind, part, link_chars=link_chars * len(part) // total,
                              meta=dict(meta)), in_content)

    def add(self, block: _Raw, in_content: bool) -> None:
        block.in_content = in_content
        self.blocks.append(block)
        self.text_seen = self.text_seen or block.kind != "heading"

    #: an element path stops growing at this many characters (a page of 3,000 unclosed
    #: ``<div>``s nests them all: each block's path would hold every one)
    MAX_PATH = 2048

    def walk(self, node: Any, path: str, in_content: bool = False) -> None:
        """The blocks under ``node``, in document order. Walked with a stack of the
        elements open (not Python's own: an old page's unclosed ``<font>`` or ``<div>``
        tags nest thousands deep, and the page was refused as "nested too deeply");
        each entry: its children, its path, whether it is content, where its blocks
        start, and whether it is a block (a flush after it)."""
        stack = [(node.iter(include_text=True), path, in_content, len(self.blocks), False)]
        while stack:
            children, path, in_content, first, is_block = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                if is_block:
                    self.flush()
                continue
            entered = self.visit(child, path, in_content, first)
            if entered is not None:
                here, inside, block = entered
                if block:
                    self.flush()
                stack.append((child.iter(include_text=True), here, inside, len(self.blocks),
                              block))
                self.depth = max(self.depth, len(stack))

    def visit(self, child: Any, path: str, in_content: bool,
              first: int) -> tuple[str, bool, bool] | None:
        """One node met by :meth:`walk` (``first``: where the blocks of the element it is
        in start); for an element whose children are to be walked, its path, whether
        it is content, and whether it is a block."""
        tag = child.tag
        if tag == "-text":
            self.text(child.text(deep=False), path, in_content)
            return None
        if tag in _DROP or tag.startswith("-") or tag.startswith("!"):
            return None
        attrs = child.attributes or {}
        if _is_chrome(tag, attrs, in_content) or _is_hidden(attrs):
            return None
        if tag in _LISTS and not self.text_seen and _is_contents(child, self.page):
            return None
        here = f"{path}>{tag}" if len(path) < self.MAX_PATH else path
        inside = in_content or tag in _CONTENT_TAGS or attrs.get("role") == "main"
        if tag in _HEADINGS:
            self.flush()
            text = _heading_text(child, self.holders)
            if text:
                self.section = _HEADINGS[tag]
                self.add(_Raw("heading", text, level=_HEADINGS[tag],
                              meta={"tag": tag, "path": here}), inside)
                self.lead_after_heading(first)
        elif tag == "dt" and _is_signature(child):
            self.signature(child, here, inside)
        elif tag in _TEXT_BLOCKS and child.css_first(_HOLDS_BLOCKS) is None \
                and child.css_first(_SIGNATURES) is None:  # (a class's <dd>: its methods)
            self.flush()
            self.paragraphs(_TEXT_BLOCKS[tag], _block_text(child, tag, self.holders),
                            _link_chars(child),
                            {"tag": tag, "path": here}, inside)
        elif tag == "li" and child.css_first("ul, ol, table, pre, p, div") is None:
            self.flush()
            self.add(_Raw("list_item", "\n".join(_paragraphs(_text(child, self.holders))),
                          link_chars=_link_chars(child), meta={"tag": "li", "path": here}),
                     inside)
        elif tag == "pre":
            self.flush()
            meta = {"tag": "pre", "path": here}
            language = _code_language(child)
            if language:
                meta["language"] = language
            self.add(_Raw("code", _pre_text(child), meta=meta), inside)
        elif tag == "table" and _is_data_table(child):
            self.flush()
            self.table(child, here, inside)
        elif tag == "a":
            self.link(child, path, in_content)
        else:
            if tag == _APART and self.inline:
                self.inline.append(" ")
            return here, inside, tag in _BLOCK_TAGS
        return None

    def text(self, text: str, path: str, in_content: bool) -> None:
        """Loose text, run on with the inline text before it; a space alone only between
        two pieces of it (``<em>a</em> <b>b</b>``)."""
        if text and (text.strip() or _BR in text):
            if not self.inline:
                self.inline_path, self.inline_in_content = path, in_content
            self.inline.append(text)
        elif text and self.inline:
            self.inline.append(" ")

    def signature(self, dt: Any, path: str, in_content: bool) -> None:
        """A Sphinx object's signature: a heading over its ``<dd>``, a level below the
        section (or the object) it is in."""
        self.flush()
        text = _signature_text(dt)
        if text:
            self.add(_Raw("heading", text, level=self.section + 1 + _objects_around(dt),
                          meta={"tag": "dt", "path": path, "object": True}), in_content)

    def lead_after_heading(self, first: int) -> None:
        """Short loose text (no ``<p>``: a description's first paragraph is no
        label) that opens the element a heading is in, before the heading (rustdoc's
        stable-since version beside each method's ``<h4>`` and its module path beside
        the ``<h1>``, all in one ``<section>``; a news page's kicker or date above its
        title): read after the heading, the first line of the heading's section,
        rather than a line ending the section before it (3,998 of the 7,170 chunks of
        ``std::collections``' pages ended with a version, 108 were one alone) or a
        chunk of its own before the title (30)."""
        lead = self.blocks[first:-1]
        if 0 < len(lead) <= 2 and all(b.kind == "paragraph" and b.meta.get("tag") == "div"
                                      and len(b.text) <= LEAD_CHARS
                                      and len(_WORD.findall(b.text)) <= LEAD_WORDS
                                      for b in lead):
            self.blocks.insert(first, self.blocks.pop())

    def link(self, node: Any, path: str, in_content: bool) -> None:
        """A link's text, inline with the text around it (not a permalink's glyph,
        nor a separator left before one: rustdoc's ``1.7.0 · Source``)."""
        text = _text(node, self.holders)
        if text.strip() and not _is_mark(node, text):
            if not self.inline:
                self.inline_path, self.inline_in_content = path, in_content
            self.inline.append(text)
            self.inline_links += len(_clean(text))
        else:
            while self.inline and not self.inline[-1].strip():
                self.inline.pop()
            if self.inline and _SEPARATOR.fullmatch(self.inline[-1]):
                self.inline.pop()

    def table(self, node: Any, path: str, in_content: bool) -> None:
        rows: list[list[str]] = []
        has_header = False
        for i, tr in enumerate(node.css("tr")):
            # skip rows of nested tables: they belong to the inner table's cells
            if tr.parent is not None and tr.parent.tag != "table" and \
                    tr.parent.parent is not None and tr.parent.parent.mem_id != node.mem_id:
                continue
            cells = [c for c in tr.iter() if c.tag in ("td", "th")]
            if not cells:
                continue
            if i == 0 and (all(c.tag == "th" for c in cells) or
                           (tr.parent is not None and tr.parent.tag == "thead")):
                has_header = True
            rows.append([_clean(_text(c, self.holders)) for c in cells])
        if not rows:
            return
        if len(rows) == 1 and len(rows[0]) == 1:  # a layout table around one cell
            self.add(_Raw("paragraph", rows[0][0], meta={"tag": "table", "path": path}),
                     in_content)
            return
        self.add(_Raw("table", rows=rows, has_header=has_header,
                      text=" ".join(" ".join(r) for r in rows),
                      meta={"tag": "table", "path": path}), in_content)


def _link_chars(node: Any) -> int:
    return sum(len(_clean(a.text(deep=True))) for a in node.css("a"))


#: what a data table's cell never holds: a page's headings and landmarks
_LAYOUT_CELL = "h1, h2, h3, h4, h5, h6, article, main, section, nav, header, footer, aside, form"
#: a cell holding more blocks than this is a column of a page laid out as a table
CELL_BLOCKS = 4


def _is_data_table(node: Any) -> bool:
    """A table of data, not a layout table wrapping a page (ASP.NET-era sites lay
    out whole articles in nested tables: those are walked like containers). A
    cell of a few paragraphs or a list is data (Sphinx writes every cell as
    ``<td><p>...</p></td>``, Node.js its change history the same way); a heading,
    a landmark, a nested table or a run of blocks in a cell is a page's layout."""
    if any(t.mem_id != node.mem_id for t in node.css("table")):  # nested tables: layout
        return False
    if node.css_first(_LAYOUT_CELL) is not None:
        return False
    return not any(len(c.css("p, div, ul, ol, pre, blockquote, dl")) > CELL_BLOCKS
                   for c in node.css("td"))


def _trafilatura_text(html: str, deep: bool = False) -> str | None:
    """Main content by trafilatura (tables included, favouring recall). ``deep``: the
    page nests elements deeper than lxml's parser goes by default (256: it drops the
    text below, a forum page of unclosed ``<div>``s kept 253 of its 3,000 posts), so
    it is parsed here, as trafilatura parses, with lxml's limit raised."""
    try:
        import trafilatura
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    try:
        page: Any = html
        if deep:
            from lxml.html import HTMLParser, fromstring

            page = fromstring(html.encode("utf-8", "surrogatepass"), parser=HTMLParser(
                collect_ids=False, default_doctype=False, encoding="utf-8",
                remove_comments=True, remove_pis=True, huge_tree=True))
        return trafilatura.extract(page, favor_recall=True, include_tables=True,
                                   include_comments=False, deduplicate=False)
    except Exception:  # the extractor is a guide: the walk stands alone without it
        return None


def _word_ids(text: str, vocabulary: dict[str, int], add: bool,
              out: array[int] | None = None) -> array[int]:
    """The text's words (lower case) as ids, appended to ``out``; a word not in the
    vocabulary is added (``add``) or -1."""
    get = vocabulary.get
    out = array("q") if out is None else out
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        # as the extractor writes it (a "café" typed with a combining accent, as macOS
        # and some editors keep it, was no word of the extraction: its paragraph lost)
        text = unicodedata.normalize("NFC", text)
    for m in _TEXT_WORD.finditer(text):
        word = m.group().lower()
        i = get(word)
        if i is None:
            i = -1
            if add:
                i = vocabulary[word] = len(vocabulary)
        out.append(i)
    return out


def _select_main(blocks: list[_Raw], main_text: str) -> list[bool]:
    """Which blocks the extracted main text covers: the block's words as a run of
    the extraction, or most of its word trigrams found there (a block of one or two
    words: as a run). Words are ids and n-grams sorted integer keys, every block at
    once: a search of the whole extraction per block was quadratic (a 20 MB page
    took minutes) and a set of trigram strings ~10x the page."""
    vocabulary: dict[str, int] = {}
    main = np.frombuffer(_word_ids(main_text, vocabulary, add=True), dtype=np.int64)
    v = len(vocabulary) + 1
    pairs = np.unique(main[:-1] * v + main[1:])  # every bigram of the extraction
    triples = np.unique(np.searchsorted(pairs, main[:-2] * v + main[1:-1]) * v + main[2:])
    del main
    ids: array[int] = array("q")
    lens = []
    for b in blocks:
        before = len(ids)
        _word_ids(b.text if b.kind != "table" else " ".join(" ".join(r) for r in b.rows),
                  vocabulary, False, ids)
        lens.append(len(ids) - before)
    words = np.frombuffer(ids, dtype=np.int64)
    sizes = np.asarray(lens, dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    block_end = np.repeat(ends, sizes)  # where the block of each word ends
    index = np.arange(len(words))
    # is the bigram (trigram) starting at each word inside its block and in the extraction
    pair_at = np.searchsorted(pairs, words[:-1] * v + words[1:])
    pair_ok = np.zeros(len(words), dtype=bool)
    pair_ok[:-1] = ((index[:-1] + 1 < block_end[:-1]) & (words[:-1] >= 0) & (words[1:] >= 0)
                    & (pair_at < len(pairs))
                    & (pairs[np.minimum(pair_at, max(len(pairs) - 1, 0))] == words[:-1] * v
                       + words[1:]) if len(pairs) else False)
    triple_ok = np.zeros(len(words), dtype=bool)
    if len(triples) and len(words) >= 3:
        key = pair_at[:-1] * v + words[2:]
        at = np.minimum(np.searchsorted(triples, key), len(triples) - 1)
        triple_ok[:-2] = (pair_ok[:-2] & (index[:-2] + 2 < block_end[:-2]) & (words[2:] >= 0)
                          & (triples[at] == key))
    counts = np.concatenate([[0], np.cumsum(triple_ok)])
    found = counts[ends] - counts[starts]
    keep = []
    for k, n in enumerate(lens):
        if n == 0:
            keep.append(False)
        elif n == 1:
            keep.append(bool(words[starts[k]] >= 0))
        elif n == 2:
            keep.append(bool(pair_ok[starts[k]]))
        else:
            keep.append(bool(found[k] >= 0.6 * (n - 2)))
    return keep


def _landmark_prose(b: _Raw) -> bool:
    """A block of running text (not links) inside the page's <article>/<main>."""
    if not b.in_content:
        return False
    return b.kind in ("code", "table") or _is_prose(b)


#: a refresh that sends the reader on: its delay and the address
_REFRESH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*[;,]\s*(?:url\s*=\s*)?(\S.*)", re.I)
#: a page that redirects at once and holds fewer characters than this is a stub
REDIRECT_STUB_CHARS = 300


def _page_metadata(tree: Any) -> dict[str, Any]:
    """<title>, <html lang>, and the <meta> fields a RAG user cites."""
    meta: dict[str, Any] = {"format": "html"}
    title = tree.css_first("title")
    if title is not None and _clean(title.text()):
        meta["title"] = _clean(title.text())
    html_node = tree.css_first("html")
    if html_node is not None and (html_node.attributes or {}).get("lang"):
        meta["language"] = html_node.attributes["lang"]
    wanted = {"description": "description", "author": "author", "keywords": "keywords",
              "og:title": "og_title", "og:description": "og_description",
              "og:site_name": "site_name", "article:published_time": "published",
              "article:modified_time": "modified", "date": "date", "generator": "generator"}
    for node in tree.css("meta"):
        attrs = node.attributes or {}
        key = (attrs.get("name") or attrs.get("property") or "").lower()
        if key in wanted and attrs.get("content"):
            meta.setdefault(wanted[key], _clean(attrs["content"]))
    for node in tree.css("meta"):  # <meta http-equiv="refresh" content="0; URL=...">
        attrs = node.attributes or {}
        if (attrs.get("http-equiv") or "").lower() == "refresh":
            m = _REFRESH.match(attrs.get("content") or "")
            if m and float(m.group(1)) <= 1:
                meta["redirect"] = m.group(2).strip("'\" ")
    canonical = tree.css_first("link[rel=canonical]")
    if canonical is not None and (canonical.attributes or {}).get("href"):
        meta["url"] = canonical.attributes["href"]
    return meta


def _too_much_to_extract(text: str, depth: int, name: str) -> bool:
    """Whether a page is read whole, with a warning, rather than through main-content
    extraction: too long for it, or nesting elements deeper than its parser reads."""
    if len(text) > MAIN_CONTENT_MAX_CHARS:
        warnings.warn(f"{name}: a page of {len(text) / 1e6:.1f} M characters is "
                      f"read whole (main-content extraction stops at "
                      f"{MAIN_CONTENT_MAX_CHARS / 1e6:.0f} M: its memory is ~25x the page); "
                      "format 'html-all' reads it whole without this warning",
                      ExtractionWarning, stacklevel=4)
        return True
    if depth >= TOO_DEEP:
        warnings.warn(f"{name}: the page nests elements {depth} deep (unclosed tags?), deeper "
                      f"than main-content extraction reads (its parser stops at ~2,000 and "
                      "drops what is below): read whole; format 'html-all' reads it whole "
                      "without this warning", ExtractionWarning, stacklevel=4)
        return True
    return False


def _main_content(raw: list[_Raw], text: str, metadata: dict[str, Any],
                  name: str, depth: int = 0) -> list[_Raw]:
    """The blocks of the page's main content (trafilatura's extraction, the page's
    own article/main prose, headings above kept content); ``metadata`` says how.
    ``depth``: how deep the page nests its elements."""
    # (before the size check: no extractor runs, so no page is too long for it)
    if _documentation_tool(metadata) and any(b.in_content for b in raw):
        metadata["main_content"] = "landmark"
        return [b for b in raw if b.in_content]
    metadata["main_content"] = "whole page"
    if _too_much_to_extract(text, depth, name):
        return raw
    main_text = _trafilatura_text(text, deep=depth >= DEEP)
    if not main_text or not main_text.strip():
        return raw
    metadata["main_content"] = "trafilatura"
    keep = _select_main(raw, main_text)
    # when the extractor kept less than most of the prose inside the page's own
    # article/main element (it drops whole runs of paragraphs on some layouts),
    # that prose is kept too
    landmark = [i for i, b in enumerate(raw) if _landmark_prose(b)]
    total = sum(len(raw[i].text) for i in landmark)
    if total and sum(len(raw[i].text) for i in landmark if keep[i]) < 0.6 * total:
        for i in landmark:
            keep[i] = True
    # an extraction that kept nothing of the page's own article/main took the wrong
    # part of the page: the landmark is the content (an mdBook page that lists a
    # chapter's sections as links came out as the keyboard-help pop-up beside it)
    if any(b.in_content and b.text.strip() for b in raw) and \
            not any(k and b.in_content for b, k in zip(raw, keep)):
        keep = [b.in_content for b in raw]
    # code inside the page's own article/main is content: the extractor drops some of
    # it (406 of the 836 examples on the pages of Rust's std::collections, rustdoc's
    # <pre> in a <div class="example-wrap"> beside a "Run" link)
    for i, b in enumerate(raw):
        if b.kind == "code" and b.in_content:
            keep[i] = True
    # headings directly above kept content stay with it
    for i, b in enumerate(raw):
        if b.kind == "heading" and not keep[i] and any(keep[i + 1:i + 4]):
            keep[i] = True
    _keep_section_headings(raw, keep)
    # a page whose <main>/<article> holds most of its running text: what is outside
    # it is the site around the page (an mdBook page's help pop-up, "Keyboard
    # shortcuts", kept above its text on some pages)
    prose = [len(b.text) if _is_prose(b) else 0 for b in raw]
    if sum(prose) and sum(n for b, n in zip(raw, prose) if b.in_content) >= \
            LANDMARK_SHARE * sum(prose):
        keep = [k and b.in_content for b, k in zip(raw, keep)]
    selected = [b for b, k in zip(raw, keep) if k]
    if not selected:
        return raw
    _warn_if_little(raw, selected, name)
    return selected


def _keep_section_headings(raw: list[_Raw], keep: list[bool]) -> None:
    """A heading also stays when the first block after it that stays is its own
    content (what the extractor dropped between them skipped: a DocBook chapter's
    table of contents under its ``<h1>``) or a heading below it: a chapter's title
    stays above the sections it holds, in their trails."""
    following = 0  # what stays next: -1 content, a heading's level, 0 nothing
    for i in range(len(raw) - 1, -1, -1):
        b = raw[i]
        if b.kind != "heading":
            if keep[i]:
                following = -1
            continue
        level = b.level or 1
        if not keep[i] and (following == -1 or following > level):
            keep[i] = True
        following = level if keep[i] else 0


def parse_html(text: str, doc_id: str, source: str | None = None,
               main_content: bool = True) -> Document:
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(text)
    except Exception as exc:  # the parser is lenient; this is a genuinely unreadable input
        raise InputError(source or doc_id, f"cannot parse HTML ({exc})") from None
    walker = _Walker(PurePosixPath((source or doc_id).replace("\\", "/")).name)
    root = tree.body or tree.root
    if root is not None:
        # what is never content goes before any block's text is read (a copy button
        # inside a <pre> made "Prints: €copy")
        root.strip_tags([t for t in _DROP if t not in ("head", "meta", "link")])
        for br in root.css("br"):
            br.replace_with(_BR)
        # a word-break opportunity is no break: rustdoc writes every long name as
        # "read_<wbr>to_<wbr>string", which the walk read as "read_ to_ string"
        if root.css_first("wbr") is not None:
            for wbr in root.css("wbr"):
                wbr.decompose()
            root.merge_text_nodes()
        walker.holders = _block_holders(root)
        walker.walk(root, "body")
        walker.flush()
    raw = [b for b in walker.blocks if b.text.strip() or b.rows]
    metadata = _page_metadata(tree)
    if metadata.get("redirect") and sum(len(b.text) for b in raw) < REDIRECT_STUB_CHARS:
        raw = []  # "Redirecting to ...": a moved page's stub, nothing of its own
    if main_content and raw:
        raw = _main_content(raw, text, metadata, source or doc_id, walker.depth)
        while len(raw) > 1 and raw[-1].kind == "heading":
            raw.pop()  # a heading whose text the extraction left out (Cargo's "SEE ALSO")
    out = TextBuilder()
    trail = HeadingTrail()
    title: str | None = None
    for b in raw:
        if b.kind == "heading":
            trail.push(b.level or 1, b.text)
            if title is None and b.level == 1:
                title = b.text
            out.add_block("heading", b.text, trail.path, level=b.level, metadata=b.meta)
        elif b.kind == "table":
            out.add_table(b.rows, trail.path, metadata=b.meta, has_header=b.has_header)
        else:
            out.add_block(b.kind, b.text, trail.path, metadata=b.meta)
    title = title or _site_title(metadata.get("title"), next(
        (b.text for b in raw if b.kind == "heading"), None))
    return Document(text=out.text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(out.blocks), metadata=metadata)


#: the generators of documentation sites, as their pages' ``<meta name="generator">``
#: names them: such a page's ``<main>``/``<article>`` (or ``role="main"``) is its content,
#: whole. Trafilatura, tuned on news pages, dropped a method's one-line summary
#: ("Clears the map, removing all elements.": 65 of the 211 paragraphs of rustdoc's
#: BTreeMap page) and half the code examples of Rust's std::collections pages
_DOCUMENTATION_TOOLS = re.compile(r"^(?:rustdoc|docutils|sphinx|mkdocs|docusaurus|mdbook|"
                                  r"doxygen|javadoc|pdoc|typedoc|vitepress|gtk-doc|texi2any|"
                                  r"makeinfo|antora|jsdoc)\b", re.I)


def _documentation_tool(metadata: dict[str, Any]) -> bool:
    return bool(_DOCUMENTATION_TOOLS.match(str(metadata.get("generator") or "")))


def _is_prose(b: _Raw) -> bool:
    return (b.kind in ("paragraph", "quote", "list_item") and len(_TEXT_WORD.findall(b.text)) >= 12
            and b.link_chars < 0.3 * len(b.text))


def _warn_if_little(raw: list[_Raw], kept: list[_Raw], name: str) -> None:
    """The page's text, for this check, is its running prose: paragraphs of a dozen
    words or more that are not mostly links (menus, teasers and share buttons are not)."""
    def prose(blocks: list[_Raw]) -> int:
        return sum(len(b.text) for b in blocks if _is_prose(b))

    total, share = prose(raw), 0.0
    if total:
        share = prose(kept) / total
    if total >= 2000 and share < WARN_SHARE:
        warnings.warn(f"{name}: main-content extraction kept {share:.0%} of the page's "
                      f"non-link text; check it, or read it whole with format 'html-all'",
                      ExtractionWarning, stacklevel=2)


HTML = Reader(partial(parse_html, main_content=True), (".html", ".htm", ".xhtml"),
              html_charset=True)
#: the whole page, not only its main content
HTML_ALL = Reader(partial(parse_html, main_content=False), html_charset=True)
