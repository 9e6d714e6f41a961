
import pytest

import chunkwise


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
