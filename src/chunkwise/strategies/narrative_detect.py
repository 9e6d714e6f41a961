"""Is a document narrative prose (fiction: a novel, a story), or reference
documentation? ``auto`` gives each its own size when the size is not given
(docs/benchmarks.md, "The narrative sets" and "Size by kind")."""

from __future__ import annotations

from ..engine import DocumentIndex
from ..types import Document

#: the fewest prose paragraphs a narrative has here (a short story's worth)
MIN_PARAGRAPHS = 40
#: the least share of them that open with a quotation mark or a dialogue dash
MIN_DIALOGUE = 0.2
#: the most blocks of other kinds (tables, code, list items) per prose paragraph
MAX_OTHER = 0.05
#: what a line of dialogue opens with: English, French, German, Spanish, Russian
#: quotation marks, and the dash several languages set dialogue with
DIALOGUE_OPENERS = ("\u201c", '"', "\u2018", "'", "\u00ab", "\u00bb", "\u201e", "\u2014",
                    "\u2015")
_OTHER = frozenset(("table", "code", "list_item"))
#: the least headings and tables per prose paragraph of reference documentation: one
#: per 20 (the structured and held-out documentation sets' 19 files have 0.10 to 5.6;
#: Chroma's PubMed corpus, one stray heading in 740 paragraphs, 0.001)
MIN_STRUCTURE = 0.05


def looks_like_narrative(doc: Document, index: DocumentIndex) -> bool:
    """Many prose paragraphs, a fifth or more of them dialogue (opening with a
    quotation mark or a dash), and next to nothing else (tables, code, lists):
    fiction. Reference documentation, papers, speeches and reports quote too, but
    seldom open a paragraph with it (none of Chroma's corpora or of the structured
    set's documents does; of the narrative sets' books, 46 % to 87 % of paragraphs)."""
    text = doc.text
    blocks = index.blocks
    if not blocks:  # a Document built without a reader: the text reader's paragraphs
        from ..readers.text import parse_text

        blocks = list(parse_text(text, doc.doc_id).blocks)
    heads = [text[b.start:b.start + 4].lstrip() for b in blocks if b.kind == "paragraph"]
    other = sum(1 for b in blocks if b.kind in _OTHER)
    paragraphs = len(heads)
    dialogue = sum(h.startswith(DIALOGUE_OPENERS) for h in heads)
    return (paragraphs >= MIN_PARAGRAPHS and dialogue >= MIN_DIALOGUE * paragraphs
            and other <= MAX_OTHER * paragraphs)


def looks_like_reference(index: DocumentIndex) -> bool:
    """Headings and tables throughout: at least :data:`MIN_STRUCTURE` of them per
    prose paragraph (and at least one). A paper or a transcript with one stray
    heading line is not reference documentation."""
    structure = sum(1 for b in index.blocks if b.kind in ("heading", "table"))
    paragraphs = sum(1 for b in index.blocks if b.kind == "paragraph")
    return structure >= max(1.0, MIN_STRUCTURE * paragraphs)
