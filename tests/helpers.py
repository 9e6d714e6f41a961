"""Invariant checks shared by the tests (DESIGN.md: 'The one invariant everything rests on')."""

from __future__ import annotations

from tokenizers import Tokenizer

from chunkwise.tokens import minilm_dir


def independent_minilm_count():
    """A MiniLM counter built straight from the tokenizers library, not through chunkwise."""
    tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return lambda s: len(tok.encode(s, add_special_tokens=False).ids)


def assert_invariants(text: str, chunks, limit: int, count=None):
    """Verbatim slices, hard budget (recounted), nothing lost, unique ids, ordered spans."""
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
        assert c.text.strip(), "empty chunk"
        assert c.id not in ids
        ids.add(c.id)
        covered[c.start:c.end] = b"\x01" * (c.end - c.start)
    lost = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert not lost, f"{len(lost)} characters lost, first at {lost[0]}: {text[lost[0]:lost[0]+20]!r}"
