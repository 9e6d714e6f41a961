import warnings

import pytest

import chunkwise
from chunkwise.errors import ConfigError

from helpers import (
    SAMPLES,
    assert_invariants,
)

SHIPPING = ("Thank you for your order from our shop today. Express orders ship within two "
            "days. Standard orders take five working days to arrive. Returns are free and "
            "easy from your account page.")


ANSWER = "Express orders ship within two days."


def test_seed_example_overlap_keeps_the_answer_whole():
    no_overlap = chunkwise.chunk(SHIPPING, strategy="fixed", size=12, tokenizer="words")
    assert all(c.token_count <= 12 for c in no_overlap)
    assert not any(ANSWER in c.text for c in no_overlap)  # the answer is cut in two
    with_overlap = chunkwise.chunk(SHIPPING, strategy="fixed", size=12, overlap=8,
                                   tokenizer="words")
    assert any(ANSWER in c.text for c in with_overlap)
    assert all(c.token_count <= 12 for c in with_overlap)
    assert len(with_overlap) > len(no_overlap)


def test_sentence_packing_keeps_sentences_whole_and_overlaps_tail_sentences():
    text = " ".join(f"Sentence number {i} has exactly seven words." for i in range(10))
    chunks = chunkwise.chunk(text, strategy="sentence", size=21, overlap=7, tokenizer="words")
    for c in chunks:
        assert c.text.startswith("Sentence") and c.text.endswith("words.")
        assert c.token_count <= 21
    # each chunk after the first repeats exactly the previous chunk's last sentence
    for a, b in zip(chunks, chunks[1:]):
        assert a.text.split(". ")[-1] == b.text.split(". ")[0] + "." or \
            b.text.startswith(a.text.rsplit(". ", 1)[-1])
        assert b.start < a.end
    # an overlap budget smaller than one sentence repeats nothing (the seeds' rule)
    tight = chunkwise.chunk(text, strategy="sentence", size=21, overlap=6, tokenizer="words")
    assert all(b.start >= a.end for a, b in zip(tight, tight[1:]))


def test_recursive_prefers_paragraphs_then_sentences():
    paras = ["Alpha one two three. Alpha four five six.", "Beta one two three. Beta four five.",
             "Gamma one two three four five six seven eight nine ten eleven twelve."]
    text = "\n\n".join(paras)
    chunks = chunkwise.chunk(text, strategy="recursive", size=16, tokenizer="words")
    assert [c.text for c in chunks] == [paras[0] + "\n\n" + paras[1], paras[2]]
    chunks = chunkwise.chunk(text, strategy="recursive", size=8, tokenizer="words")
    assert chunks[0].text == paras[0]
    assert chunks[1].text == paras[1]
    assert chunks[2].text == "Gamma one two three four five six seven"


def test_recursive_custom_separators():
    text = "a b c|d e f|g h i"
    chunks = chunkwise.chunk(text, strategy="recursive", size=4, tokenizer="words",
                             separators=["|"])
    assert [c.text for c in chunks] == ["a b c|", "d e f|", "g h i"]
    with pytest.raises(ConfigError):
        chunkwise.get_chunker("recursive", separators="|")


def test_overlap_as_fraction_and_validation():
    assert chunkwise.get_chunker("fixed", size=200, overlap=0.15).overlap == 30
    assert chunkwise.get_chunker("fixed", size=200, overlap=30).overlap == 30
    # a float is always a fraction of size: 30.0 or 1.0 is an error, not a token count
    for bad in (200, 250, 1.5, 1.0, 30.0, -1, -0.1, float("nan")):
        with pytest.raises(ConfigError):
            chunkwise.get_chunker("fixed", size=200, overlap=bad)
    for bad in (0, -5, 2.5, "10", True):  # type: ignore[assignment]
        with pytest.raises(ConfigError):
            chunkwise.get_chunker("fixed", size=bad)
    with pytest.raises(ConfigError, match="unknown strategy 'magic'"):
        chunkwise.chunk("text", strategy="magic")


def test_max_tokens_is_hard_and_defaults_to_model_length():
    text = "word " * 2000
    chunker = chunkwise.get_chunker("fixed")
    assert chunker.max_tokens == 254 and chunker.limit == chunker.size == 160  # the default
    assert chunkwise.get_chunker("fixed", size=256).limit == 254  # capped at the model
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        big = chunkwise.get_chunker("fixed", size=1000)
    assert any("exceeds max_tokens" in str(w.message) for w in caught)
    chunks = big.chunk(text)
    assert max(c.token_count for c in chunks) == 254
    chunks = chunkwise.chunk(text, strategy="fixed", size=100, max_tokens=50)
    assert max(c.token_count for c in chunks) == 50
    # a tokenizer with no known maximum falls back to size
    assert chunkwise.get_chunker("fixed", size=700, tokenizer="cl100k_base").max_tokens == 700


def test_deterministic_ids_and_repeats():
    text = "Same line.\n\nSame line.\n\nSame line."
    a = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="doc")
    b = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="doc")
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == 3  # repeats differ by occurrence counter
    other = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="other")
    assert not {c.id for c in a} & {c.id for c in other}


def test_overlap_from_a_boundary_inside_a_word_is_recounted():
    # sentencex ends a sentence after "?" inside the word "0?<"
    text = "0 0 0?< 0 0 0"
    chunks = chunkwise.chunk(text, strategy="recursive", size=4, overlap=2, tokenizer="words")
    words = chunkwise.get_tokenizer("words").count
    for a, b in zip(chunks, chunks[1:]):
        if b.start < a.end:
            assert words(text[b.start:a.end]) <= 2
    assert_invariants(text, chunks, 4, words)


@pytest.mark.parametrize("strategy", ["auto", "code", "faq", "fixed", "hierarchical", "json", "legal",
                                      "recursive", "section", "sentence", "transcript"])
def test_a_byte_order_mark_is_in_no_chunk_and_costs_nothing(tmp_path, strategy):
    """Windows tools open files with U+FEFF, which the text keeps: a Markdown file opening
    with one and a blank line was a chunk of it alone, and a JSON Lines file's first
    record was lost (its line did not start after the mark)."""
    from chunkwise.readers import read_path

    for sample in sorted(p for p in SAMPLES.rglob("*") if p.is_file()):
        data = sample.read_bytes()
        for prefix in (b"",) if sample.suffix == ".vtt" else (b"", b"\n\n"):  # ("WEBVTT" first)
            # (the same name: a code chunk's context holds its path)
            marked = tmp_path / f"bom-{len(prefix)}" / sample.name
            marked.parent.mkdir(exist_ok=True)
            marked.write_bytes(b"\xef\xbb\xbf" + prefix + data)
            plain = tmp_path / f"plain-{len(prefix)}" / sample.name
            plain.parent.mkdir(exist_ok=True)
            plain.write_bytes(prefix + data)
            chunker = chunkwise.get_chunker(strategy, size=64)
            got, want = chunker.chunk(marked), chunker.chunk(plain)
            assert got and all("\ufeff" not in c.text for c in got)
            # the same chunks, one character on (the text keeps the mark)
            assert [c.text for c in got] == [c.text for c in want], (sample, strategy)
            assert [(c.start, c.end) for c in got] == [(c.start + 1, c.end + 1) for c in want]
            text = read_path(marked).text
            assert all(text[c.start:c.end] == c.text for c in got)
    # a JSON Lines file's first record
    records = tmp_path / "records.jsonl"
    records.write_bytes(b'\xef\xbb\xbf{"q": 1}\n{"q": 2}\n')
    got = chunkwise.chunk(records, strategy=strategy, size=64)
    assert any('{"q": 1}' in c.text for c in got) and any('{"q": 2}' in c.text for c in got)
