from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

import chunkwise
from chunkwise.errors import ConfigError
from chunkwise.tokens import BPETokenizer, HFTokenizer, get_tokenizer, minilm_dir

from helpers import (
    SAMPLES,
    independent_minilm_count,
)


def test_default_is_bundled_minilm_with_its_max_length():
    tok = get_tokenizer()
    assert tok.name == "all-MiniLM-L6-v2"
    # max_seq_length 256 less [CLS] and [SEP]; the shipped file's padding to 128 must not leak in
    assert tok.max_tokens == 254
    text = "Retention: seven years for lost-time accident reports."
    assert tok.count(text) == independent_minilm_count()(text)


def test_minilm_by_path_to_file_and_folder():
    folder = minilm_dir()
    for spec in (folder, folder / "tokenizer.json", str(folder)):
        tok = get_tokenizer(spec)
        assert isinstance(tok, HFTokenizer)
        assert tok.count("hello world") == 2
    assert get_tokenizer(folder).max_tokens == 254


def test_openai_encodings_offline():
    import bpe_openai

    for name in ("cl100k_base", "o200k_base"):
        tok = get_tokenizer(name)
        assert isinstance(tok, BPETokenizer)
        text = "Ünïcödé tokens: 日本語 and emoji 😀 in one line.\r\nNext line."
        assert tok.count(text) == len(bpe_openai.get_encoding(name).encode_ordinary(text))
    assert get_tokenizer("cl100k_base").count("hello world") == 2


def test_bpe_offsets_map_bytes_to_characters():
    tok = get_tokenizer("cl100k_base")
    text = "héllo 😀 wörld"
    t = tok.tokenize(text)
    assert t.cum[-1] == tok.count(text)
    assert np.all(np.diff(t.starts) >= 0)
    assert t.starts[0] == 0 and t.starts[-1] < len(text)


def test_bpe_handles_texts_over_a_million_characters():
    tok = get_tokenizer("cl100k_base")
    text = ("word " * 9 + "end.\n") * 25_000  # 1.25M characters
    t = tok.tokenize(text)
    assert abs(int(t.cum[-1]) - tok.count(text)) <= 3


def test_plain_units_and_callable():
    assert get_tokenizer("chars").count("héllo") == 5
    assert get_tokenizer("words").count(" two  words\n") == 2
    calls = []

    def n_bytes(s):
        calls.append(s)
        return len(s.encode())

    tok = get_tokenizer(n_bytes)
    assert tok.count("日本") == 6
    units = tok.tokenize("日本 ok")
    assert int(units.cum[-1]) == 8


def test_unknown_tokenizer_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown tokenizer 'gpt-17'"):
        get_tokenizer("gpt-17")
    with pytest.raises(ConfigError):
        get_tokenizer(42)  # type: ignore[arg-type]


def test_hf_tokenizer_instance_accepted():
    from tokenizers import Tokenizer

    tok = get_tokenizer(Tokenizer.from_file(str(minilm_dir() / "tokenizer.json")))
    chunks = chunkwise.chunk("one two three four five six seven", strategy="fixed", size=3,
                             tokenizer=tok)
    assert [c.token_count for c in chunks] == [3, 3, 1]


def test_parallel_segments_give_the_same_tokens_as_one_pass():
    tok = get_tokenizer()
    sample = Path(f"{SAMPLES}/qual-047-incident-procedure.md").read_text(encoding="utf-8")
    # \x1f and \x0b look like whitespace to Python but join words for BERT
    text = (sample.replace(" the ", " the\x1f").replace("\n\n", "\n\x0b\n")) * 30
    assert len(text) > 2 * tok.SEGMENT  # type: ignore[attr-defined]
    batched = tok.tokenize(text)
    single = HFTokenizer(Tokenizer.from_file(str(minilm_dir() / "tokenizer.json")))
    single.SEGMENT = 10 ** 9
    one = single.tokenize(text)
    assert np.array_equal(batched.starts, one.starts)
    assert int(batched.cum[-1]) == tok.count(text)


def test_bpe_on_a_huge_token_dense_blob():
    import base64

    blob = base64.b64encode(bytes(range(256)) * 2400).decode()  # 819k chars, ~400k tokens
    tok = get_tokenizer("cl100k_base")
    assert tok.count(blob) > 200_000  # past bpe-openai's per-call limit
    chunks = chunkwise.chunk(blob, strategy="fixed", size=500, tokenizer="cl100k_base")
    assert max(c.token_count for c in chunks) <= 500
    assert chunks[-1].end == len(blob)


def test_segments_never_cut_where_bert_joins_words():
    tok = get_tokenizer()
    text = "tokenization\x1fisation\x1fplaying\x1fground word " * 3000  # \x1f: deleted by BERT
    single = HFTokenizer(Tokenizer.from_file(str(minilm_dir() / "tokenizer.json")))
    single.SEGMENT = 10 ** 9
    assert np.array_equal(tok.tokenize(text).starts, single.tokenize(text).starts)


def test_a_transformers_tokenizer_object():
    """Issue 13, item 7: tokenizers users already hold work as tokenizer=."""
    from transformers import AutoTokenizer

    hf = AutoTokenizer.from_pretrained(str(minilm_dir()), local_files_only=True)
    hf.model_max_length = 256
    tok = get_tokenizer(hf)
    assert tok.max_tokens == 254 and tok.max_sequence == 256
    text = "Tokenizers users already hold work as they are, offsets and all."
    assert tok.count(text) == independent_minilm_count()(text)
    chunks = chunkwise.chunk(text * 20, tokenizer=hf, size=32, doc_id="t")
    assert all(c.token_count <= 32 for c in chunks)
    assert hf("x", padding="max_length", max_length=8)["input_ids"].__len__() == 8  # untouched


def _cl100k_tiktoken():
    """A real tiktoken.Encoding for cl100k_base, built offline from the ranks that
    bpe-openai ships (tiktoken itself would download them)."""
    import bpe_openai
    import tiktoken

    src = bpe_openai.get_encoding("cl100k_base")
    return tiktoken.Encoding("cl100k_base", pat_str=src._pat_str,
                             mergeable_ranks=dict(src._mergeable_ranks), special_tokens={})


def test_a_tiktoken_encoding():
    enc = _cl100k_tiktoken()
    tok = get_tokenizer(enc)
    text = "Ünïcödé text, numbers 12345 and emoji 👍🏽 all count the same."
    assert tok.count(text) == len(enc.encode_ordinary(text)) == get_tokenizer("cl100k_base").count(text)
    chunks = chunkwise.chunk(text * 30, tokenizer=enc, size=40, doc_id="t")
    assert all(len(enc.encode_ordinary(c.embed_text)) == c.token_count <= 40 for c in chunks)


def test_a_model_name_from_the_local_hugging_face_cache(tmp_path, monkeypatch):
    """The real cache layout (refs/main -> snapshots/<commit>/tokenizer.json)."""
    import shutil

    repo = tmp_path / "models--acme--tiny-bert"
    snap = repo / "snapshots" / "0123abcd"
    snap.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd")
    for name in ("tokenizer.json", "tokenizer_config.json", "sentence_bert_config.json"):
        if (minilm_dir() / name).exists():
            shutil.copy(minilm_dir() / name, snap / name)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    from chunkwise import tokens

    tokens._named.cache_clear()
    tok = get_tokenizer("acme/tiny-bert")
    assert tok.name == "acme/tiny-bert" and tok.count("hello world") == 2
    with pytest.raises(ConfigError, match=f"'acme/missing' is not in the local Hugging Face cache \\({tmp_path}\\)"):
        get_tokenizer("acme/missing")
    tokens._named.cache_clear()


@pytest.mark.slow
def test_a_sentence_transformers_model():
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(minilm_dir()), device="cpu", local_files_only=True)
    tok = get_tokenizer(model)
    assert tok.max_tokens == model.max_seq_length - 2  # type: ignore[operator]
    assert tok.count("one two three") == 3


# -- the word-cache fast path (issue 12): exact against the tokenizer itself ----------

def _reference():
    tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


_ALPHABET = st.sampled_from(list("ab Zé.,-'\t\n\r") + ["\x0b", "\x0c", "\x1c", "\x85", "\u00a0",
                                                      "\u2028", "\u3000", "\u4e2d", "\u0301",
                                                      "\x00", "\U0001f600", "tokenization"])


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=80))
def test_word_cached_counts_and_token_starts_equal_the_tokenizer(parts):
    text = "".join(parts)
    ref = _reference()
    tok = get_tokenizer("minilm")
    assert tok.additive
    enc = ref.encode(text, add_special_tokens=False)
    assert tok.count(text) == len(enc.ids)
    assert list(tok.token_starts(text)) == sorted(o[0] for o in enc.offsets)
    units = tok.tokenize(text)
    assert int(units.cum[-1]) == len(enc.ids)  # word units weigh the whole text exactly
    for word in set(tok._split(text)):  # type: ignore[attr-defined]  # cached words now
        expected = [o[0] for o in ref.encode(word, add_special_tokens=False).offsets]
        assert list(tok.token_starts(word)) == sorted(expected), word


def test_the_word_cache_starts_afresh_when_full_and_stays_exact():
    ref = _reference()
    tok = get_tokenizer("minilm")
    tok = type(tok)(Tokenizer.from_str(ref.to_str()), name="small-cache")  # type: ignore[call-arg]
    tok.CACHE_WORDS = 50  # type: ignore[attr-defined]  # a tiny cache: every text below overflows it
    text = " ".join(f"word{i} tokenization{i % 7}, re-count" for i in range(200))
    for _ in range(2):
        enc = ref.encode(text, add_special_tokens=False)
        assert tok.count(text) == len(enc.ids)
        assert list(tok.token_starts(text)) == [o[0] for o in enc.offsets]
        assert len(tok._word_ids) <= 50 + len(set(text.split()))  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["word", "naïve", "ünïcödé", "x", " ", "  ", "\n", "\n\n",
                                 "\t", "\u00a0", "\u2028", "\u3000", "re-use", "3.14", "東京"]),
                max_size=300), st.integers(1, 40))
def test_words_listed_in_windows_give_the_same_tokens(parts, window):
    """A long text's words are listed a window at a time (cut at a space or a line
    break): the token starts and counts are those of the text listed at once."""
    import copy

    text = "".join(parts)
    whole = get_tokenizer(None)  # a shared instance: the copy gets the small window
    windowed = copy.copy(whole)
    windowed.WORDS_WINDOW = window  # type: ignore[attr-defined]
    assert whole.WORDS_WINDOW == 1 << 20  # type: ignore[attr-defined]
    assert windowed is not whole
    a, b = whole.tokenize(text), windowed.tokenize(text)
    assert np.array_equal(a.starts, b.starts) and np.array_equal(a.cum, b.cum)
    assert int(b.cum[-1]) == whole.count(text)
    # counting a long text a window at a time (memory) gives the tokenizer's count
    exact = len(whole._tok.encode(text, add_special_tokens=False).ids)  # type: ignore[attr-defined]
    assert windowed.count(text) == whole.count(text) == exact
    assert np.array_equal(whole.token_starts(text), windowed.token_starts(text))


# -- kitoken counts the words a corpus has not shown before ---------------------------

_ASCII_WORDS = st.lists(st.one_of(
    st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7e), min_size=1,
            max_size=30),
    st.sampled_from(["[UNK]", "x[SEP]y", "[CLS]a", "[MASK].", "[PAD]", "x" * 101, "\x1c", "a\x1fb",
                     "\U00012544", "0A\U00012544", "ab\u0378cd", "naïve", "日本語"])),
    min_size=1, max_size=40).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(text=_ASCII_WORDS, join=st.sampled_from([1, 3, 2048]))
def test_kitoken_counts_equal_the_tokenizer_and_offsets_come_when_cut(text, join):
    """ASCII words are counted by kitoken (offsets from tokenizers only when a cut needs
    them); words with an added token ("[UNK]" is one token to tokenizers) or with
    characters outside ASCII (kitoken drops some it takes for unassigned) by tokenizers.
    kitoken is given ``join`` words joined at a time; a batch whose pieces do not add
    up to its words (an [UNK], a control character) is encoded a word at a time."""
    ref = _reference()
    tok = HFTokenizer(Tokenizer.from_str(ref.to_str()), name="fresh")
    tok.KITOKEN_WORDS = 1  # loaded for the first unseen word
    tok.KIT_JOIN = join
    enc = ref.encode(text, add_special_tokens=False)
    assert tok.count(text) == len(enc.ids)
    assert int(tok.tokenize(text).cum[-1]) == len(enc.ids)
    assert tok._kit is not None and tok._piece_lengths is not None
    assert list(tok.token_starts(text)) == sorted(o[0] for o in enc.offsets)
    assert tok.count(text) == len(enc.ids)  # again, from the cache with offsets filled in


def test_kitoken_is_loaded_only_once_many_distinct_words_were_seen():
    """Its compiled tables take ~36 MB: a few files or a query never load it."""
    ref = _reference()
    tok = HFTokenizer(Tokenizer.from_str(ref.to_str()), name="fresh")
    few = "Retention: seven years for lost-time accident reports."
    assert tok.count(few) == len(ref.encode(few, add_special_tokens=False).ids)
    assert tok._kit is None
    many = " ".join(f"word{i}x" for i in range(20_000))
    assert tok.count(many) == len(ref.encode(many, add_special_tokens=False).ids)
    assert tok._kit is not None
