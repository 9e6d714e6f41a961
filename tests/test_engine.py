
import pytest

import chunkwise


def test_context_too_large_for_budget_is_a_clear_error():
    from chunkwise.config import Budget
    from chunkwise.engine import DocumentIndex, Packer, PackPolicy
    from chunkwise.levels import TOKEN, WORD
    from chunkwise.tokens import get_tokenizer

    index = DocumentIndex(chunkwise.Document("some text here", "d"), get_tokenizer("words"))
    packer = Packer(index, PackPolicy(levels=(WORD, TOKEN)), Budget(3))
    with pytest.raises(chunkwise.ChunkwiseError, match="cannot hold even one character"):
        packer.pack(0, len(index.text), context="one two three ")
    pieces = packer.pack(0, len(index.text), context="one ")
    assert [index.text[p.start:p.end] for p in pieces] == ["some text", "here"]


def test_the_loose_packer_arguments_still_work_for_a_release_with_a_warning():
    from chunkwise.config import Budget
    from chunkwise.engine import DocumentIndex, Packer, PackPolicy
    from chunkwise.levels import TOKEN, WORD
    from chunkwise.tokens import get_tokenizer

    text = "one two three four five six seven"
    index = DocumentIndex(chunkwise.Document(text, "d"), get_tokenizer("words"))
    policy = PackPolicy(levels=(WORD, TOKEN))
    with pytest.warns(DeprecationWarning, match="pass a chunkwise.config.Budget"):
        loose = Packer(index, policy, 3, 1, 100).pack(0, len(text))
    with pytest.warns(DeprecationWarning):
        named = Packer(index, policy, limit=3, overlap=1, max_chars=100).pack(0, len(text))
    budget = Packer(index, policy, Budget(3, 1, 100)).pack(0, len(text))
    spans = [[(p.start, p.end) for p in pieces] for pieces in (loose, named, budget)]
    assert spans[0] == spans[1] == spans[2] and len(spans[0]) > 2
    with pytest.raises(TypeError, match="not both"):
        Packer(index, policy, Budget(3), 1)
    with pytest.raises(chunkwise.ConfigError, match="token limit must be at least 1"):
        Budget(0)


@pytest.mark.parametrize("max_chars", [3, 4, 5, 8, 64])
def test_an_indented_code_line_under_a_small_character_cap_starts_at_its_first_character(
        tmp_path, max_chars):
    """Code pieces start at their line's start, indentation included; where a cap of a
    few characters leaves room for that indentation alone, the piece starts at the
    line's first character instead (it raised "max_tokens=224 cannot hold even one
    character (' ' ...)": Flask's config.rst failed at max_chars 64, its 16-space
    lines under a heading trail)."""
    code = "\n".join(" " * 16 + f"app.config['KEY_{i}'] = value_{i}" for i in range(6))
    doc = tmp_path / "config.md"
    doc.write_text(f"# Settings\n\nSet them like this:\n\n```python\n{code}\n```\n\nDone.\n")
    text = doc.read_text()
    chunks = chunkwise.chunk(doc, max_chars=max_chars)
    assert chunks
    for c in chunks:
        assert text[c.start:c.end] == c.text and c.text.strip()
        assert len(c.context) + len(c.text) <= max_chars
    covered: set[int] = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())



@pytest.mark.parametrize("max_chars", [50, 54, 56])
def test_a_cap_that_ends_inside_an_indentation_gives_no_empty_chunk(max_chars):
    """A member's line whose indentation alone reaches the cap after its trail (``d.py
    > A > a`` + the signature): a level's boundary there, trimmed of that space, left
    an empty piece (found by hypothesis: a chunk (74, 74) at ``max_chars=54``)."""
    from chunkwise.readers import parse

    text = ("import os\n\nclass A:\n    # a comment\n    attr = 1\n\n    def a(x):\n"
            "        _\n" + " " * 31 + "_")
    chunks = chunkwise.get_chunker("auto", size=28, max_chars=max_chars).chunk_document(
        parse(text, "d.py", "code"))
    for c in chunks:
        assert c.start < c.end and c.text.strip() and text[c.start:c.end] == c.text
        assert len(c.embed_text) <= max_chars
    assert chunks[-1].end == len(text)
