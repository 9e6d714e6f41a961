"""AsciiDoc (``.adoc``, ``.asciidoc``): section titles (``== Section``, a level per
``=``, and the older two-line form, a title over a rule of its length), delimited
blocks (``----`` listings, ``....`` literals and ```` ``` ```` fences as code, the
language from a ``[source,java]`` line above; inside any delimited block, nothing is
a title), paragraphs. Offsets into the file. Read as plain text, ``== Install`` was
a paragraph and a listing's lines could end one chunk and start the next."""

from __future__ import annotations

import re
from types import MappingProxyType

from ..types import Block, Document
from .reader import Reader
from .structure import HeadingTrail

_TITLE = re.compile(r"(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")
#: a delimited block's fence: its closing line is the same
_DELIMITER = re.compile(r"(?:-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|`{3}|\|={3,})[ \t]*")
_CODE_FENCES = ("-", ".", "`")
#: block attributes, an anchor, a block title: lines that open the block after them
_ATTRIBUTES = re.compile(r"\[\[[^\]\n]*\]\]|\[[^\]\n]*\]|\.[^\s.][^\n]*")
_SOURCE = re.compile(r"\[(?:source|listing)?,\s*([\w+#.-]+)")
#: the two-line title's rule characters, level by character (Asciidoctor's table)
_UNDERLINE = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}


def parse_asciidoc(text: str, doc_id: str, source: str | None = None) -> Document:
    blocks: list[Block] = []
    trail = HeadingTrail()
    title: str | None = None
    para: list[tuple[int, int]] = []  # the open paragraph's lines (start, end)
    fence: tuple[str, int, str] | None = None  # the open block: its line, start, language

    def close_para() -> None:
        if para:
            blocks.append(Block("paragraph", para[0][0], para[-1][1], trail.path))
            para.clear()

    pos = 0
    for raw in text.splitlines(keepends=True):
        start, pos = pos, pos + len(raw)
        line = raw.rstrip("\r\n")
        end = start + len(line)
        stripped = line.strip()
        if fence is not None:
            if stripped == fence[0]:
                blocks.append(_delimited(fence, end, trail.path))
                fence = None
            continue
        if not stripped:
            close_para()
            continue
        if stripped.startswith("//") and not stripped.startswith("////"):
            continue  # a comment line ("// tag::quick[]"): no paragraph's, nor a break
        if _DELIMITER.fullmatch(line):
            level = _UNDERLINE.get(stripped[0])
            above = text[para[0][0]:para[0][1]].strip() if len(para) == 1 else ""
            # (``[TIP]`` over ``====`` opens an example block: attributes are no title)
            if above and level is not None and abs(len(stripped) - len(above)) <= 2 \
                    and not _ATTRIBUTES.fullmatch(above):
                heading = text[para[0][0]:para[0][1]].strip()  # the two-line form
                trail.push(level, heading)
                blocks.append(Block("heading", para[0][0], end, trail.path, level=level))
                title = title or (heading if level == 1 else None)
                para.clear()
                continue
            opening, language = _attributes(text, para)
            if opening is None:
                close_para()
            para.clear()
            fence = (stripped, start if opening is None else opening, language)
            continue
        m = _TITLE.fullmatch(line)
        # a title may follow its anchor and attributes (``[#debug]``, ``[[install]]``,
        # ``[appendix]``): they open its block (64 of the 472 titles of Asciidoctor's
        # own docs were paragraph lines)
        if m is not None and (not para or _attributes(text, para)[0] is not None):
            level = len(m.group(1))
            trail.push(level, m.group(2))
            blocks.append(Block("heading", para[0][0] if para else start, end, trail.path,
                                level=level))
            para.clear()
            title = title or (m.group(2) if level == 1 else None)
            continue
        para.append((start, end))
    close_para()
    if fence is not None and len(text.rstrip()) > fence[1]:  # never closed: to the end
        blocks.append(_delimited(fence, len(text.rstrip()), trail.path))
    return Document(text=text, doc_id=doc_id, source=source, title=title,
                    blocks=tuple(blocks), metadata={"format": "asciidoc"})


def _attributes(text: str, para: list[tuple[int, int]]) -> tuple[int | None, str]:
    """Where lines of block attributes and a block title before a delimiter start
    (they open its block; None: the lines before are a paragraph) and the language
    a ``[source,java]`` among them names."""
    if not para or not all(_ATTRIBUTES.fullmatch(text[s:e].strip()) for s, e in para):
        return None, ""
    found = next((m for s, e in para if (m := _SOURCE.match(text[s:e].strip()))), None)
    return para[0][0], found.group(1) if found else ""


def _delimited(fence: tuple[str, int, str], end: int, path: tuple[str, ...]) -> Block:
    """A delimited block: code (a listing, a literal, a fence) with its language,
    or the lines of an example, sidebar, quote or table as one paragraph."""
    if fence[0][0] in _CODE_FENCES:
        return Block("code", fence[1], end, path, metadata=MappingProxyType(
            {"language": fence[2]} if fence[2] else {}))
    return Block("paragraph", fence[1], end, path)


ASCIIDOC = Reader(parse_asciidoc, (".adoc", ".asciidoc"))
