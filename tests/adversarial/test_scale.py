"""No input takes minutes: every path is linear (red-team issue 14, item 4).

Each input is chunked at a small size and at 32x that size in the same run; a
linear path takes about 32x as long, a quadratic one 1024x. The bound, 10 x the
linear estimate plus a second of slack, catches a quadratic path, not noise.
"""

import time

import pytest

import chunkwise
from chunkwise.readers import parse

from helpers import assert_invariants


def spaces(n):
    return "a" + " " * (20 * n) + "b"


def paragraph(n):
    return " ".join(f"word{i}" for i in range(n))


def single_word(n):
    return "x" * (20 * n)


def table(n):
    return "| A | B |\n|---|---|\n" + "".join(f"| r{i} | value {i} |\n" for i in range(n // 4))


def headings(n):
    return "".join(f"## Heading {i}\n\nBody text for heading {i}.\n\n" for i in range(n // 8))


def bare_headings(n):
    return "".join(f"# H{i}\n" for i in range(n // 2))


def nested_list(n):
    return "".join(f"- item {i}\n  - sub {i}\n    - subsub {i} text\n" for i in range(n // 8))


def thai(n):
    return "สวัสดีครับผมชื่อ" * (n // 4)


def blank_lines(n):
    return ("text\n" + " \t \n" * 50) * (n // 20)


CASES = [
    (spaces, "recursive", "text"), (paragraph, "recursive", "text"),
    (single_word, "fixed", "text"), (table, "auto", "markdown"),
    (headings, "auto", "markdown"), (bare_headings, "auto", "markdown"),
    (nested_list, "section", "markdown"), (thai, "sentence", "text"),
    (blank_lines, "recursive", "text"),
]


def _time(make, strategy, fmt, n, warm=False):
    text = make(n).swapcase() if warm else make(n)
    t0 = time.perf_counter()
    doc = parse(text, "x", fmt=fmt)
    chunks = chunkwise.get_chunker(strategy, size=64).chunk_document(doc)
    return time.perf_counter() - t0, doc, chunks


@pytest.mark.parametrize("make,strategy,fmt", CASES, ids=[c[0].__name__ for c in CASES])
def test_linear_in_input(make, strategy, fmt):
    small, ratio = 1_500, 32
    # warm up (tokenizer load, imports) on other words of the same shape: timed again,
    # the same text's words would come from the tokenizer's cache, and the small time
    # be a fraction of what a first reading takes (0.003 s against 0.03 s for a
    # 30,000-character word: a bound the big input missed on a busy machine)
    _time(make, strategy, fmt, small, warm=True)
    t_small = _time(make, strategy, fmt, small)[0]
    t_big, doc, chunks = _time(make, strategy, fmt, ratio * small)
    bound = 10 * ratio * max(t_small, 0.005) + 1.0
    assert t_big < bound, f"{make.__name__}: {t_big:.2f}s for {ratio}x the input vs {t_small:.3f}s"
    limit = max((c.token_count for c in chunks), default=0)
    assert_invariants(doc.text, chunks, max(limit, 64))


def test_huge_word_is_bounded_by_max_chars():
    """A run with no spaces is one [UNK] token to MiniLM: the character cap cuts it."""
    text = "x" * 200_000
    chunks = chunkwise.chunk(text, strategy="recursive", size=64, doc_id="w")
    cap = chunkwise.get_chunker("recursive", size=64).max_chars
    assert cap == 16 * 64
    assert all(len(c.embed_text) <= cap for c in chunks)
    assert "".join(c.text for c in chunks) == text
    assert len(chunkwise.chunk(text, size=64, max_chars=500, doc_id="w")) == 400
    with pytest.raises(chunkwise.ConfigError, match="max_chars must be at least 1"):
        chunkwise.get_chunker("fixed", max_chars=0)


def test_thai_and_a_giant_table_cell_are_bounded():
    thai = "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ" * 3000
    chunks = chunkwise.chunk(thai, strategy="recursive", size=128, doc_id="t")
    assert max(len(c.text) for c in chunks) <= 16 * 128
    cell = "y" * 100_000
    md = f"| A | B |\n|---|---|\n| {cell} | small |\n"
    doc = parse(md, "t.md", fmt="markdown")
    tchunks = chunkwise.get_chunker("section", size=128).chunk_document(doc)
    assert max(len(c.embed_text) for c in tchunks) <= 16 * 128
    assert_invariants(md, tchunks, 254)
