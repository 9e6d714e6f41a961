import warnings

import pytest

import chunkwise
from chunkwise.errors import ConfigError

from helpers import assert_invariants

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
    for bad in (0, -5, 2.5, "10", True):
        with pytest.raises(ConfigError):
            chunkwise.get_chunker("fixed", size=bad)
    with pytest.raises(ConfigError, match="unknown strategy 'magic'"):
        chunkwise.chunk("text", strategy="magic")


def test_max_tokens_is_hard_and_defaults_to_model_length():
    text = "word " * 2000
    chunker = chunkwise.get_chunker("fixed")
    assert chunker.max_tokens == 254 and chunker.limit == 254
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


def test_offsets_index_the_file_as_read_with_crlf(tmp_path):
    raw = "Title line\r\n\r\nFirst paragraph here.\r\nSecond line of it.\r\n\r\nLast one.\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(raw.encode("utf-8"))
    chunks = chunkwise.chunk(path, size=6, tokenizer="words")
    text = path.read_bytes().decode("utf-8")
    assert_invariants(text, chunks, 6)
    assert chunks[0].source == str(path) and chunks[0].doc_id == str(path)
    assert any("\r\n" in c.text for c in chunks)


def test_empty_and_whitespace_documents_give_no_chunks(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    assert chunkwise.chunk(tmp_path / "empty.txt") == []
    assert chunkwise.chunk("   \n\n\t ") == []


def test_deterministic_ids_and_repeats():
    text = "Same line.\n\nSame line.\n\nSame line."
    a = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="doc")
    b = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="doc")
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == 3  # repeats differ by occurrence counter
    other = chunkwise.chunk(text, size=3, tokenizer="words", doc_id="other")
    assert not {c.id for c in a} & {c.id for c in other}


def test_chunk_accepts_lists_mappings_and_documents(tmp_path):
    (tmp_path / "a.txt").write_text("Alpha text.")
    (tmp_path / "b.md").write_text("# Beta\n\nBeta text.")
    chunks = chunkwise.chunk([tmp_path / "a.txt", tmp_path / "b.md", "Inline text.",
                              chunkwise.Document("Doc text.", doc_id="mine")])
    assert [c.text for c in chunks] == ["Alpha text.", "# Beta\n\nBeta text.", "Inline text.",
                                        "Doc text."]
    assert chunks[3].doc_id == "mine"
    folder = chunkwise.chunk(tmp_path)
    assert len(folder) == 2
    # a mapping names its documents: {doc_id: text or Path}
    mapped = chunkwise.chunk({"faq": "Question text.", "notes": tmp_path / "a.txt"})
    assert [(c.doc_id, c.text) for c in mapped] == [("faq", "Question text."),
                                                   ("notes", "Alpha text.")]


def test_unreadable_inputs_raise_input_error(tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(chunkwise.InputError, match="bin.txt: binary file"):
        chunkwise.chunk(tmp_path / "bin.txt")
    (tmp_path / "latin.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(chunkwise.InputError, match="not valid UTF-8"):
        chunkwise.chunk(tmp_path / "latin.txt")
    assert chunkwise.chunk(tmp_path / "latin.txt", encoding="latin-1")[0].text == "café"
    with pytest.raises(chunkwise.InputError, match="no such file"):
        chunkwise.chunk(tmp_path / "missing.txt")


def test_context_too_large_for_budget_is_a_clear_error():
    from chunkwise.engine import DocumentIndex, Packer, PackPolicy
    from chunkwise.levels import TOKEN, WORD
    from chunkwise.tokens import get_tokenizer

    index = DocumentIndex(chunkwise.Document("some text here", "d"), get_tokenizer("words"))
    packer = Packer(index, PackPolicy(levels=(WORD, TOKEN)), limit=3)
    with pytest.raises(chunkwise.ChunkwiseError, match="cannot hold even one character"):
        packer.pack(0, len(index.text), context="one two three ")
    pieces = packer.pack(0, len(index.text), context="one ")
    assert [index.text[p.start:p.end] for p in pieces] == ["some text", "here"]


def test_a_str_is_text_never_a_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("Do not read me.")
    # the old form (a path as a str) is refused with a message that says what to do
    for s in (str(secret), "docs/handbok.md", "."):
        with pytest.raises(chunkwise.InputError, match="looks like a file path: pass pathlib.Path"):
            chunkwise.chunk(s)
    assert chunkwise.chunk(secret)[0].text == "Do not read me."  # a Path is a file
    with pytest.raises(chunkwise.InputError, match="handbok.md: no such file"):
        chunkwise.chunk(tmp_path / "handbok.md")
    # a sentence that mentions a file is still text
    assert chunkwise.chunk("See handbook.md for details.")[0].text == "See handbook.md for details."
    # text that happens to equal a path is chunked as text when wrapped in a Document
    doc = chunkwise.Document(str(secret), doc_id="t")
    assert chunkwise.chunk(doc)[0].text == str(secret)


def test_overlap_from_a_boundary_inside_a_word_is_recounted():
    # sentencex ends a sentence after "?" inside the word "0?<"
    text = "0 0 0?< 0 0 0"
    chunks = chunkwise.chunk(text, strategy="recursive", size=4, overlap=2, tokenizer="words")
    words = chunkwise.get_tokenizer("words").count
    for a, b in zip(chunks, chunks[1:]):
        if b.start < a.end:
            assert words(text[b.start:a.end]) <= 2
    assert_invariants(text, chunks, 4, words)
