"""Structure: readers, section chunking with heading trails, tables kept whole."""


import chunkwise
from chunkwise.readers import parse

from helpers import assert_invariants, by_text


def test_markdown_offsets_with_crlf_setext_front_matter_and_code():
    text = ("---\r\ntitle: Handbook\r\nowner: ops\r\n---\r\nIntro line.\r\n\r\n"
            "Setext Heading\r\n==============\r\n\r\nBody text.\r\n\r\n```python\r\nx = 1\r\n```\r\n")
    doc = parse(text, "h.md", fmt="markdown")
    assert doc.title == "Handbook" and doc.metadata["owner"] == "ops"
    kinds = [b.kind for b in doc.blocks]
    assert kinds == ["front_matter", "paragraph", "heading", "paragraph", "code"]
    heading = doc.blocks[2]
    assert text[heading.start:heading.end] == "Setext Heading\r\n=============="
    code = doc.blocks[4]
    assert text[code.start:code.end] == "```python\r\nx = 1\r\n```"
    chunks = chunkwise.chunk(text, strategy="section", size=64, format="markdown")
    assert_invariants(text, chunks, 64)
    body = by_text(chunks, "Body text.")[0]
    assert body.headings == ("Setext Heading",) and body.context == "Handbook > Setext Heading\n\n"
    assert body.text.startswith("Setext Heading")
    assert chunks[0].kind == "front_matter"
