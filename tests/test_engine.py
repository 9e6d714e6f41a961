
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
