"""PDF: text per page with pypdfium2 (fast), tables with pdfplumber.

The document text is repaired extracted text: words hyphenated at line ends are
re-joined ("reten-\\ntion" -> "retention"), hard-wrapped lines become one
paragraph, and lines repeated at the top or bottom of most pages (running
headers, footers, page numbers) are dropped. Every block carries its page
number (1-based); offsets index the repaired text.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass

from ..errors import InputError
from ..types import Document
from .structure import HeadingTrail, TextBuilder
from .text import _NUMBERED_HEADING

_TERMINAL = (".", "!", "?", ":", ";", "\u3002")
_BULLET = re.compile(r"^\s*(?:[-\u2022\u25aa\u25cf*]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")
# pdfium marks a hyphen it saw at a line end as U+FFFE (or U+0002); soft hyphens too
_PDFIUM_HYPHEN = re.compile(r"[\ufffe\u0002](?:\r?\n)?(?=([a-z])?)")
_HYPHEN_END = re.compile(r"[^\W\d_][-\ufffe\u0002\u00ad]$")


@dataclass
class _Para:
    text: str
    page: int
    kind: str = "paragraph"
    level: int | None = None
    rows: list | None = None


def _normalise(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split())).lower()


def _open(data: bytes, source: str):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise InputError(source, "encrypted PDF (a password is required)") from None
        raise InputError(source, f"not a readable PDF (corrupt or truncated: {msg})") from None


def _page_lines(pdf) -> list[list[str]]:
    pages = []
    for i in range(len(pdf)):
        page = pdf[i]
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        textpage.close()
        page.close()
        # pdfium marks a hyphen found at a line end with U+FFFE/U+0002 and may join the
        # two halves itself: a word split there is re-joined, anything else keeps "-"
        text = _PDFIUM_HYPHEN.sub(lambda m: "" if m.group(1) else "-", text)
        pages.append([line.rstrip() for line in re.split(r"\r\n|\r|\n", text)])
    return pages


def _tables(data: bytes, n_pages: int, source: str) -> dict[int, list]:
    """Tables per 0-based page: (top, bottom, rows), plus the page text outside them."""
    import pdfplumber

    found: dict[int, list] = {}
    try:
        with pdfplumber.open(io.BytesIO(data)) as doc:
            for i, page in enumerate(doc.pages[:n_pages]):
                tables = page.find_tables()
                if not tables:
                    continue
                entries = []
                boxes = [t.bbox for t in tables]

                def outside(obj, boxes=boxes):
                    x = (obj.get("x0", 0) + obj.get("x1", 0)) / 2
                    y = (obj.get("top", 0) + obj.get("bottom", 0)) / 2
                    return not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)

                free = page.filter(outside)
                top = 0.0
                for t in sorted(tables, key=lambda t: t.bbox[1]):
                    above = free.crop((0, top, page.width, max(top, t.bbox[1])))
                    entries.append(("text", above.extract_text() or ""))
                    rows = [[c or "" for c in row] for row in t.extract()]
                    entries.append(("table", rows))
                    top = min(page.height, t.bbox[3])
                entries.append(("text", free.crop((0, top, page.width, page.height)).extract_text() or ""))
                found[i] = entries
    except InputError:
        raise
    except Exception:  # table detection is best effort; text extraction stands alone
        return {}
    return found


def _running_lines(pages: list[list[str]]) -> list[set[int]]:
    """Per page, the indices of lines that recur at the top or bottom of most pages."""
    if len(pages) < 2:
        return [set() for _ in pages]
    edges = Counter()
    edge_sets = []
    for lines in pages:
        content_idx = [i for i, l in enumerate(lines) if l.strip()]
        idx = content_idx[:2] + content_idx[-2:]
        edge_sets.append(idx)
        for line in {_normalise(lines[i]) for i in idx}:
            edges[line] += 1
    threshold = max(2, (len(pages) + 1) // 2)
    running = {line for line, n in edges.items() if n >= threshold}
    return [{i for i in idx if _normalise(lines[i]) in running}
            for lines, idx in zip(pages, edge_sets)]


def _paragraphs(lines: list[str], page: int) -> list[_Para]:
    """Re-join hard-wrapped lines into paragraphs; repair end-of-line hyphenation."""
    paras: list[_Para] = []
    current: list[str] = []
    widths = sorted(len(l.strip()) for l in lines if l.strip())
    typical = widths[int(len(widths) * 0.8)] if widths else 0

    def close():
        if current:
            paras.append(_Para(_join(current), page))
            current.clear()

    for raw in lines:
        line = raw.strip()
        if not line:
            close()
            continue
        heading = _NUMBERED_HEADING.match(line)
        if heading and not line.endswith(_TERMINAL) and len(line) < 80:
            close()
            paras.append(_Para(line, page, "heading", heading.group("num").count(".") + 1))
            continue
        if _BULLET.match(line):
            close()
        current.append(line)
        if line.endswith(_TERMINAL) and typical and len(line) < 0.7 * typical:
            close()  # a short line that ends a sentence ends its paragraph
    close()
    return paras


def _join(lines: list[str]) -> str:
    out = lines[0]
    for line in lines[1:]:
        if _HYPHEN_END.search(out) and line[:1].islower():
            out = out[:-1] + line
        else:
            out = out + " " + line
    return out


def parse_pdf(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    pdf = _open(data, name)
    try:
        pages = _page_lines(pdf)
    except Exception as exc:
        raise InputError(name, f"cannot extract text from PDF ({exc})") from None
    finally:
        pdf.close()
    tables = _tables(data, len(pages), name)
    for i, entries in tables.items():  # pages with tables: pdfplumber's text outside them
        lines: list = []
        for kind, value in entries:
            if kind == "text":
                lines.extend(value.splitlines() + [""])
            else:
                lines.append(("table", value))
        pages[i] = lines
    text_only = [[l for l in p if isinstance(l, str)] for p in pages]
    drop = _running_lines(text_only)

    paras: list[_Para] = []
    for i, page in enumerate(pages):
        segment: list[str] = []
        n_text = 0
        for item in page:
            if isinstance(item, tuple):
                paras.extend(_paragraphs(segment, i + 1))
                segment = []
                paras.append(_Para("", i + 1, "table", rows=item[1]))
                continue
            if n_text not in drop[i]:
                segment.append(item)
            n_text += 1
        paras.extend(_paragraphs(segment, i + 1))

    # paragraphs broken by a page turn are re-joined
    merged: list[_Para] = []
    for p in paras:
        prev = merged[-1] if merged else None
        if (prev is not None and prev.kind == p.kind == "paragraph" and prev.page != p.page
                and p.text[:1].islower() and not prev.text.endswith(_TERMINAL)):
            prev.text = _join([prev.text, p.text])
            continue
        merged.append(p)

    out = TextBuilder()
    trail = HeadingTrail()
    for p in merged:
        if p.kind == "table":
            out.add_table(p.rows, trail.path, page=p.page)
        elif p.kind == "heading":
            trail.push(p.level or 1, p.text)
            out.add_block("heading", p.text, trail.path, page=p.page, level=p.level)
        else:
            out.add_block("paragraph", p.text, trail.path, page=p.page)
    if not out.text.strip():
        raise InputError(name, "PDF has no text layer (scanned images?); run OCR on it first")
    return Document(text=out.text, doc_id=doc_id, source=source, blocks=tuple(out.blocks),
                    metadata={"format": "pdf", "pages": len(pages)})
