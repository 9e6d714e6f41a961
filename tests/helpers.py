"""Invariant checks shared by the tests (DESIGN.md: 'The one invariant everything rests on')."""

from __future__ import annotations

import re
from pathlib import Path

from tokenizers import Tokenizer

from chunkwise.tokens import minilm_dir

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def independent_minilm_count():
    """A MiniLM counter built straight from the tokenizers library, not through chunkwise."""
    tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return lambda s: len(tok.encode(s, add_special_tokens=False).ids)


_DATA_URI_PAYLOAD = re.compile(r"data:[^;,\s]+/[^;,\s]+(?:;[^;,\s]+)*;base64,([0-9A-Za-z+/=_-]+)")


def assert_invariants(text: str, chunks, limit: int, count=None, held: int = 0):
    """Verbatim slices, hard budget (recounted), nothing lost, unique ids, ordered spans.
    ``held``: where a header the document's metadata holds ends (an Org file's keyword
    lines); Markdown's front matter is found here."""
    covered = bytearray(len(text))
    ids = set()
    for c in chunks:
        assert 0 <= c.start < c.end <= len(text), (c.start, c.end)
        assert text[c.start:c.end] == c.text
        assert c.embed_text == c.context + c.text
        if count is not None:
            n = count(c.embed_text)
            assert n == c.token_count, (n, c.token_count)
        assert c.token_count <= limit, (c.token_count, limit)
        assert c.text.replace("\ufeff", "").strip(), "empty chunk"
        assert c.id not in ids
        ids.add(c.id)
        covered[c.start:c.end] = b"\x01" * (c.end - c.start)
    # Markdown front matter the document's metadata holds forms no chunk (DESIGN.md)
    from chunkwise.readers.structure import front_matter

    _, held_end, is_held = front_matter(text)
    held_end = max(held_end if is_held else 0, held)
    covered[:held_end] = b"\x01" * held_end
    # a data URI's base64 payload of 256 characters or more is data, in no chunk
    for m in _DATA_URI_PAYLOAD.finditer(text):
        if len(m.group(1)) >= 256:
            covered[m.start(1):m.end(1)] = b"\x01" * (m.end(1) - m.start(1))
    # so is an inline SVG without words (an icon drawn in MDX), and an SVG path's data or
    # points of 256 characters or more, but where shown as code in a fence
    for a, b in _svg_payloads(text):
        covered[a:b] = b"\x01" * (b - a)
    # (a byte-order mark is no text: chunks start after one, chunking.strategies.base.body_start)
    lost = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]
            and not (i == 0 and ch == "\ufeff")]
    assert not lost, f"{len(lost)} characters lost, first at {lost[0]}: {text[lost[0]:lost[0]+20]!r}"


QUAL = """# QUAL-047

## 1. Purpose

This procedure sets how incident records are created, kept and destroyed.

## 2. Scope

It applies to all sites and all staff, including contractors on site.

## 3. Records

### 3.1 Storage

Records are stored in the document system, never on local drives.

### 3.2 Accident reports

Accident reports are kept as shown below.

| Record | Retention | Owner |
|---|---|---|
| Near-miss report | 3 years | Safety lead |
| Accident report | seven years | Quality office |
| Illness record | 40 years | HR |
"""


def by_text(chunks, needle):
    return [c for c in chunks if needle in c.text]


def block_starting(doc, start):
    """The first block of ``doc`` whose text starts with ``start``."""
    return next(b for b in doc.blocks if doc.text.startswith(start, b.start))


TRANSCRIPT = (
    "Agent: Thanks for calling, how can I help? "
    "Customer: I want a refund for the blender I returned last week. "
    "Agent: I see the return arrived on Monday, so the refund of 89 dollars is being processed. "
    "Customer: When will the money be back on my card? "
    "Agent: Refunds reach the original payment method within five working days. "
    "Customer: Also, my second order has not arrived yet. "
    "Agent: That parcel left the warehouse yesterday with the courier. "
    "Customer: How long does delivery usually take? "
    "Agent: Standard shipping takes three to five days, and you will get a tracking link by e-mail. "
    "Customer: One more thing, the kettle I bought last year stopped heating. "
    "Agent: The kettle is still under the two-year warranty against manufacturing defects. "
    "Customer: Do I need the receipt to make a warranty claim? "
    "Agent: Just send the order number and a photo of the fault, and we repair or replace it.")


def make_pdf(path, hyphen=True, tables=True, password=None):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    for page in (1, 2):
        pdf.add_page()
        pdf.set_y(10)
        pdf.cell(0, 8, "ACME Corp - Records Manual")
        pdf.set_y(30)
        if page == 1:
            pdf.multi_cell(0, 6, "1 Records\n\nAccident reports are kept for the full reten-\n"
                                 "tion period set out below and are destroyed after\n"
                                 "review by the safety lead.")
        else:
            pdf.multi_cell(0, 6, "2 Retention\n\nThe periods are listed here.")
            if tables:
                with pdf.table() as table:
                    for row in [("Record", "Years"), ("Accident", "7"), ("Near miss", "3")]:
                        r = table.row()
                        for cell in row:
                            r.cell(cell)
        pdf.set_y(-20)
        pdf.cell(0, 8, f"Page {page} of 2")
    if password:
        pdf.set_encryption(owner_password="o", user_password=password)
    pdf.output(str(path))


def check_hierarchy(text, chunks, sizes):
    by_id = {c.id: c for c in chunks}
    assert len(by_id) == len(chunks)
    levels = sorted({c.level for c in chunks})
    assert levels == list(range(len(sizes)))
    count = independent_minilm_count()
    for level, size in enumerate(sizes):
        layer = [c for c in chunks if c.level == level]
        assert_invariants(text, layer, min(size, 254) if level == len(sizes) - 1 else size, count)
    for c in chunks:
        if c.level == 0:
            assert c.parent_id is None
        else:
            parent = by_id[c.parent_id]
            assert parent.level == c.level - 1
            assert parent.start <= c.start and c.end <= parent.end  # child inside parent


def free_port() -> int:
    """A TCP port nothing listens on now (for a server a test starts)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_serving(url: str, proc, seconds: float = 120) -> None:
    """Poll ``url + /health`` until it answers 200, failing if ``proc`` (a started
    ``chunkwise serve``) exits or the time runs out."""
    import time

    import httpx

    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url + "/health", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "the server exited"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)


def _svg_payloads(text: str) -> list[tuple[int, int]]:
    """The inline SVG data no chunk holds (DESIGN.md), found line by line apart from
    the library: fenced code is skipped."""
    fenced, fence = [], None
    at = 0
    for line in text.splitlines(keepends=True):
        bare = line.lstrip(" \t>")
        mark = re.match(r"(`{3,}|~{3,})(.*)", bare)
        if fence is None and mark:
            fence = (at, mark.group(1))
        elif fence is not None and mark and mark.group(1)[0] == fence[1][0] \
                and len(mark.group(1)) >= len(fence[1]) and not mark.group(2).strip():
            fenced.append((fence[0], at + len(line)))
            fence = None
        at += len(line)
    if fence is not None:
        fenced.append((fence[0], len(text)))
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"(?is)<svg\b.*?</svg\s*>", text):
        if len(m.group()) >= 256 and not re.search(r"(?i)<(?:text|title|desc|foreignObject)\b",
                                                   m.group()) \
                and not any(a <= m.start() < b for a, b in fenced):
            out.append(m.span())
    for m in re.finditer(r"""\s(?:d|points)\s*=\s*(["'])([MmZzLlHhVvCcSsQqTtAa0-9eE.,+\s-]+)\1""", text):
        if len(m.group(2)) >= 256 and not any(a <= m.start(2) < b for a, b in fenced + out):
            out.append(m.span(2))
    return out
