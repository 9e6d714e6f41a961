"""Hierarchical parent-child and semantic chunking, with the real bundled model."""


import pytest

import chunkwise
from chunkwise.errors import ConfigError

from helpers import TRANSCRIPT, assert_invariants, check_hierarchy, independent_minilm_count

pytestmark = pytest.mark.slow  # loads the MiniLM model

@pytest.fixture(scope="module")
def embedder():
    from chunkwise.embed import get_embedder

    return get_embedder()


@pytest.mark.parametrize("size", [200, None])  # None: the default size
def test_semantic_transcript_gives_three_topic_chunks(embedder, size):
    from chunkwise.config import DEFAULT_SIZE

    options = {} if size is None else {"size": size}
    size = size or DEFAULT_SIZE
    chunks = chunkwise.chunk({"call": TRANSCRIPT}, strategy="semantic", embedder=embedder,
                             **options)
    assert len(chunks) == 3
    refund, shipping, warranty = (c.text for c in chunks)
    assert "refund" in refund and "Refunds reach" in refund and "parcel" not in refund
    assert shipping.startswith("Customer: Also, my second order") and "Standard shipping" in shipping
    assert warranty.startswith("Customer: One more thing") and "warranty claim" in warranty
    assert_invariants(TRANSCRIPT, chunks, size, independent_minilm_count())


def test_semantic_hard_budget_and_min_size(embedder):
    text = " ".join([TRANSCRIPT] * 6)
    chunks = chunkwise.chunk(text, strategy="semantic", size=40, embedder=embedder)
    assert_invariants(text, chunks, 40, independent_minilm_count())
    merged = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=200, min_size=120,
                             embedder=embedder)
    assert len(merged) < 3
    assert_invariants(TRANSCRIPT, merged, 200)


@pytest.mark.parametrize("method", ["percentile", "std", "interquartile", "gradient"])
def test_semantic_threshold_methods(embedder, method):
    chunks = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=120, threshold=method,
                             embedder=embedder)
    assert chunks and all(c.token_count <= 120 for c in chunks)
    assert_invariants(TRANSCRIPT, chunks, 120)


def test_semantic_double_pass_merge(embedder):
    single = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=200, amount=50,
                             embedder=embedder)
    merged = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=200, amount=50, merge=0.3,
                             embedder=embedder)
    assert len(merged) < len(single)
    assert_invariants(TRANSCRIPT, merged, 200, independent_minilm_count())
    with pytest.raises(ConfigError):
        chunkwise.get_chunker("semantic", threshold="magic")
    with pytest.raises(ConfigError):
        chunkwise.get_chunker("semantic", size=50, min_size=60)


def test_semantic_children_inside_parents(embedder):
    text = TRANSCRIPT + "\n\n" + TRANSCRIPT
    chunks = chunkwise.chunk(text, strategy="hierarchical", sizes=[300, 120],
                             strategies=["recursive", "semantic"], overlaps=[0, 0],
                             embedder=embedder)
    check_hierarchy(text, chunks, (300, 120))
    children = [c for c in chunks if c.level == 1]
    chunker = chunkwise.get_chunker("hierarchical", sizes=[300, 120], overlaps=[0, 0],
                                    strategies=["recursive", "semantic"], embedder=embedder)
    from chunkwise.engine import DocumentIndex

    cuts = chunker.levels[1].cut_positions(DocumentIndex(chunkwise.Document(text, "d"),  # type: ignore[attr-defined]
                                                         chunker.tokenizer))
    assert cuts
    ends = {c.end for c in children}
    assert all(cut in ends for cut in cuts)  # every topic cut is a child boundary


def test_min_size_is_honoured_everywhere_but_the_last_piece(embedder):
    """Issue 13, item 4: with size 120 and min_size 100 no chunk in the middle is small."""
    text = " ".join([TRANSCRIPT] * 4)
    chunks = chunkwise.chunk(text, strategy="semantic", size=120, min_size=100,
                             embedder=embedder, doc_id="t")
    assert all(c.token_count >= 100 for c in chunks[:-1])
    assert_invariants(text, chunks, 120, independent_minilm_count())
    plain = chunkwise.chunk(text, strategy="semantic", size=120, embedder=embedder, doc_id="t")
    assert any(c.token_count < 100 for c in plain[:-1])  # the option changes something


def test_threshold_as_a_distance_and_ties_cut(embedder):
    few = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=254, threshold=1.9,
                          embedder=embedder, doc_id="t")
    many = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=254, threshold=0.01,
                           embedder=embedder, doc_id="t")
    assert len(few) == 1 and len(many) > 6
    with pytest.raises(ConfigError, match="cosine distance in \\(0, 2\\)"):
        chunkwise.get_chunker("semantic", threshold=2.5)
    # identical sentences: every distance ties; ">=" still cuts (">" made no cut at all)
    same = " ".join(["The same sentence again."] * 12)
    assert len(chunkwise.chunk(same, strategy="semantic", size=254, embedder=embedder,
                               doc_id="s")) > 1
