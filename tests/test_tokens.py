from pathlib import Path

import numpy as np
import pytest
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
        get_tokenizer(42)


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
    assert len(text) > 2 * tok.SEGMENT
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
