"""An HTML page that shows where a document was cut: each chunk a colour band,
overlaps hatched, each chunk's tokens, trail and context on hover."""

from __future__ import annotations

import html
from collections.abc import Sequence

from .types import Chunk, Document

_COLOURS = ("#dbeafe", "#fde68a", "#bbf7d0", "#fbcfe8", "#ddd6fe", "#fed7aa")

_STYLE = """
body { font: 14px/1.5 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
pre.doc { white-space: pre-wrap; word-wrap: break-word; font: 13px/1.6 ui-monospace, monospace; }
span.c { border-radius: 2px; }
span.o { background-image: repeating-linear-gradient(45deg, rgba(0,0,0,.12) 0 2px, transparent 2px 6px); }
span.b { border-left: 2px solid #c00; }
span.hl { outline: 2px solid #d97706; background-color: #fef08a !important; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
"""


def render(doc: Document, chunks: Sequence[Chunk], title: str | None = None,
           highlight: Chunk | None = None) -> str:
    """The page for one document's chunks (only chunks of the deepest level of a
    hierarchy are drawn; all are listed). ``highlight``: a chunk whose text is marked
    (class ``hl``, the first piece with ``id="hit"``) and scrolled to on opening."""
    text = doc.text
    deepest = max((c.level for c in chunks), default=0)
    drawn = [c for c in chunks if c.level == deepest]
    parts = _bands(text, drawn, highlight)
    rows = "".join(
        f"<tr><td>{i + 1}</td><td>{c.level}</td><td>{c.start}</td><td>{c.end}</td>"
        f"<td>{c.token_count}</td><td style='text-align:left'>{html.escape(c.kind)}</td>"
        f"<td style='text-align:left'>{html.escape(' > '.join(c.headings))}</td>"
        f"<td style='text-align:left'><code>{html.escape(c.context.strip()[:80])}</code></td></tr>"
        for i, c in enumerate(chunks))
    name = html.escape(title or doc.source or doc.doc_id)
    tokens = [c.token_count for c in drawn]
    summary = (f"{len(drawn)} chunks, mean {sum(tokens) / len(tokens):.1f} tokens, max {max(tokens)}"
               if tokens else "no chunks")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{name}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{name}</h1><p>{summary}. Colour bands are "
            f"chunks, hatching marks overlap, a red bar starts a chunk; hover for details.</p>"
            f"<pre class='doc'>{''.join(parts)}</pre><h2>Chunks</h2><table><tr><th>#</th>"
            f"<th>level</th><th>start</th><th>end</th><th>tokens</th><th>kind</th><th>headings</th>"
            f"<th>context</th></tr>{rows}</table>{_SCROLL if highlight else ''}</body></html>")


_SCROLL = ("<script>const hit = document.getElementById('hit'); "
           "if (hit) hit.scrollIntoView({block: 'center'});</script>")


def _bands(text: str, drawn: Sequence[Chunk], highlight: Chunk | None) -> list[str]:
    """The document's text as spans: one colour per chunk, hatched where chunks
    overlap, a bar where one starts, ``hl`` inside the highlighted chunk."""
    marks = (highlight.start, highlight.end) if highlight is not None else ()
    cuts = sorted({0, len(text), *(c.start for c in drawn), *(c.end for c in drawn), *marks})
    starts = {c.start for c in drawn}
    order = sorted(range(len(drawn)), key=lambda i: drawn[i].start)
    parts: list[str] = []
    active: list[int] = []
    nxt = 0
    first_hit = True
    for a, b in zip(cuts, cuts[1:]):
        # sweep: chunks starting here join, chunks ended by here leave
        while nxt < len(order) and drawn[order[nxt]].start <= a:
            active.append(order[nxt])
            nxt += 1
        active = [i for i in active if drawn[i].end > a]
        covering = sorted(i for i in active if b <= drawn[i].end)
        segment = html.escape(text[a:b])
        lit = highlight is not None and highlight.start <= a and b <= highlight.end
        anchor = ' id="hit"' if lit and first_hit else ""
        first_hit = first_hit and not lit
        if not covering:
            parts.append(f'<span class="hl"{anchor}>{segment}</span>' if lit else segment)
            continue
        first = drawn[covering[0]]
        classes = (["c"] + (["o"] if len(covering) > 1 else []) + (["b"] if a in starts else [])
                   + (["hl"] if lit else []))
        tip = "; ".join(
            f"#{i + 1} {drawn[i].token_count} tokens"
            + (f", {' > '.join(drawn[i].headings)}" if drawn[i].headings else "")
            for i in covering)
        parts.append(f'<span class="{" ".join(classes)}"{anchor} style="background-color:'
                     f'{_COLOURS[covering[0] % len(_COLOURS)]}" title="{html.escape(tip)}" '
                     f'data-chunk="{first.id}">{segment}</span>')
    return parts
