"""HTML with selectolax (Lexbor, a real HTML5 parser that repairs malformed markup).

The document text is the extracted text: one block per heading, paragraph,
list item, preformatted block and table (rendered as a pipe table), joined by
blank lines. Offsets index that text; each block remembers its tag and its
element path in ``metadata``.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from ..types import Document
from .structure import HeadingTrail, TextBuilder

_DROP = {"script", "style", "noscript", "template", "svg", "canvas", "iframe", "object",
         "nav", "header", "footer", "aside", "form", "button", "select", "head", "meta",
         "link", "dialog", "menu"}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_TEXT_BLOCKS = {"p": "paragraph", "blockquote": "quote", "dt": "paragraph", "dd": "paragraph",
                "figcaption": "paragraph", "caption": "paragraph", "address": "paragraph",
                "summary": "paragraph"}
_SPACE = re.compile(r"\s+")
# roles and classes that mark navigation chrome on sites that do not use <nav>
_CHROME = re.compile(r"\b(nav|navbar|menu|breadcrumbs?|cookie|sidebar|site-header|site-footer|"
                     r"skip-link)\b", re.I)


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


class _Walker:
    def __init__(self) -> None:
        self.out = TextBuilder()
        self.trail = HeadingTrail()
        self.title: str | None = None
        self.inline: list[str] = []  # loose text directly inside containers
        self.inline_path = ""

    def flush(self) -> None:
        if self.inline:
            text = _clean(" ".join(self.inline))
            self.inline = []
            if text:
                self.out.add_block("paragraph", text, self.trail.path,
                                   metadata={"tag": "div", "path": self.inline_path})

    def walk(self, node: Any, path: str) -> None:
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                text = child.text(deep=False)
                if text and text.strip():
                    if not self.inline:
                        self.inline_path = path
                    self.inline.append(text)
                continue
            if tag in _DROP or tag.startswith("-"):
                continue
            attrs = child.attributes or {}
            role = attrs.get("role") or ""
            if role in ("navigation", "banner", "contentinfo") or \
                    _CHROME.search((attrs.get("class") or "") + " " + (attrs.get("id") or "")):
                continue
            here = f"{path}>{tag}"
            if tag in _HEADINGS:
                self.flush()
                text = _clean(child.text(deep=True, separator=" "))
                if text:
                    level = _HEADINGS[tag]
                    self.trail.push(level, text)
                    if self.title is None and level == 1:
                        self.title = text
                    self.out.add_block("heading", text, self.trail.path, level=level,
                                       metadata={"tag": tag, "path": here})
            elif tag in _TEXT_BLOCKS:
                self.flush()
                self.out.add_block(_TEXT_BLOCKS[tag], _clean(child.text(deep=True, separator=" ")),
                                   self.trail.path, metadata={"tag": tag, "path": here})
            elif tag == "li":
                self.flush()
                nested = child.css_first("ul, ol, table")
                if nested is None:
                    self.out.add_block("list_item", _clean(child.text(deep=True, separator=" ")),
                                       self.trail.path, metadata={"tag": "li", "path": here})
                else:
                    self.walk(child, here)
                    self.flush()
            elif tag == "pre":
                self.flush()
                self.out.add_block("code", child.text(deep=True).strip("\n"), self.trail.path,
                                   metadata={"tag": "pre", "path": here})
            elif tag == "table":
                self.flush()
                self.table(child, here)
            elif tag == "br":
                continue
            else:
                is_block = tag in ("div", "section", "article", "main", "body", "ul", "ol", "dl",
                                   "figure", "details", "fieldset", "center", "hgroup")
                if is_block:
                    self.flush()
                self.walk(child, here)
                if is_block:
                    self.flush()

    def table(self, node: Any, path: str) -> None:
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
            rows.append([_clean(c.text(deep=True, separator=" ")) for c in cells])
        if not rows:
            return
        if len(rows) == 1 and len(rows[0]) == 1:  # a layout table around one cell
            self.out.add_block("paragraph", rows[0][0], self.trail.path,
                               metadata={"tag": "table", "path": path})
            return
        self.out.add_table(rows, self.trail.path, metadata={"tag": "table", "path": path},
                           has_header=has_header)


def parse_html(text: str, doc_id: str, source: str | None = None) -> Document:
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(text)
    except Exception as exc:  # the parser is lenient; this is a genuinely unreadable input
        raise InputError(source or doc_id, f"cannot parse HTML ({exc})") from None
    walker = _Walker()
    root = tree.body or tree.root
    if root is not None:
        walker.walk(root, "body")
        walker.flush()
    title_node = tree.css_first("title")
    title = walker.title or (_clean(title_node.text()) if title_node is not None else None) or None
    return Document(text=walker.out.text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(walker.out.blocks), metadata={"format": "html"})
