"""Hierarchical parent-child and semantic chunking, with the real bundled model."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import ConfigError

from helpers import assert_invariants, independent_minilm_count

TRANSCRIPT = (
    "Agent: Thanks for calling, how can I help? "
    "Customer: I want a refund for the blender I returned last week. "
    "Agent: I see the return arrived on Monday, so the refund of 89 dollars is being processed. "
    "Customer: When will the money be back on my card? "
    "Agent: Refunds reach the original payment method within five working days. "
    "Customer: Also, my second order has not arrived yet. "
    "Agent: That parcel left the warehouse yesterday with the courier. "
    "Customer: How long does delivery usually take? "
    "Agent: Standard shipping takes three to five days, and you will get a tracking link by e-mail. "
    "Customer: One more thing, the kettle I bought last year stopped heating. "
    "Agent: The kettle is still under the two-year warranty against manufacturing defects. "
    "Customer: Do I need the receipt to make a warranty claim? "
    "Agent: Just send the order number and a photo of the fault, and we repair or replace it.")


@pytest.fixture(scope="module")
def embedder():
    from chunkwise.embed import get_embedder

    return get_embedder()


def test_semantic_transcript_gives_three_topic_chunks(embedder):
    chunks = chunkwise.chunk(TRANSCRIPT, strategy="semantic", size=200, embedder=embedder)
    assert len(chunks) == 3
    refund, shipping, warranty = (c.text for c in chunks)
    assert "refund" in refund and "Refunds reach" in refund and "parcel" not in refund
    assert shipping.startswith("Customer: Also, my second order") and "Standard shipping" in shipping
    assert warranty.startswith("Customer: One more thing") and "warranty claim" in warranty
    assert_invariants(TRANSCRIPT, chunks, 200, independent_minilm_count())


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


def _check_hierarchy(text, chunks, sizes):
    by_id = {c.id: c for c in chunks}
    assert len(by_id) == len(chunks)
    levels = sorted({c.level for c in chunks})
    assert levels == list(range(len(sizes)))
    count = independent_minilm_count()
    for level, size in enumerate(sizes):
        layer = [c for c in chunks if c.level == level]
        assert_invariants(text, layer, min(size, 254) if level == len(sizes) - 1 else size, count)
    for c in chunks:
        if c.level == 0:
            assert c.parent_id is None
        else:
            parent = by_id[c.parent_id]
            assert parent.level == c.level - 1
            assert parent.start <= c.start and c.end <= parent.end  # child inside parent


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.from_regex(r"[A-Za-z]{1,12}[.,]?", fullmatch=True), min_size=1,
                      max_size=700),
       seps=st.lists(st.sampled_from([" ", " ", " ", "\n", "\n\n"]), min_size=1, max_size=50),
       sizes=st.sampled_from([(800, 200), (300, 100, 30), (120, 40), (2048, 512, 128)]),
       child_overlap=st.integers(0, 20))
def test_hierarchy_invariants(words, seps, sizes, child_overlap):
    text = "".join(w + seps[i % len(seps)] for i, w in enumerate(words))
    chunks = chunkwise.chunk(text, strategy="hierarchical", sizes=sizes,
                             overlaps=[0] * (len(sizes) - 1) + [child_overlap])
    _check_hierarchy(text, chunks, sizes)
    again = chunkwise.chunk(text, strategy="hierarchical", sizes=sizes,
                            overlaps=[0] * (len(sizes) - 1) + [child_overlap])
    assert [c.id for c in again] == [c.id for c in chunks]


def test_hierarchy_defaults_expand_and_section_trails():
    text = open("samples/qual-047-incident-procedure.md", encoding="utf-8").read()
    chunker = chunkwise.get_chunker("hierarchical")
    assert chunker.sizes == (800, 200) and chunker.overlaps == (0, 40)
    chunks = chunkwise.chunk(Path("samples/qual-047-incident-procedure.md"), strategy="hierarchical",
                             sizes=[300, 60], strategies=["section", "recursive"])
    _check_hierarchy(text, chunks, (300, 60))
    children = [c for c in chunks if c.level == 1]
    table_child = [c for c in children if "seven" in c.text or "7 years" in c.text][0]
    assert "5.2 Accident reports" in table_child.context  # the trail travels down
    hits = children[:4] + children[:2]
    parents = chunkwise.expand(hits, chunks)
    assert [p.level for p in parents] == [0] * len(parents)
    assert len(parents) == len({h.parent_id for h in hits})  # deduplicated, order kept
    assert parents[0].id == hits[0].parent_id
    # the chunker remembers its parents: expand(hits) needs nothing else
    hc = chunkwise.get_chunker("hierarchical", sizes=[300, 60], strategies=["section", "recursive"])
    mine = hc.chunk(Path("samples/qual-047-incident-procedure.md"))
    kids = [c for c in mine if c.level == 1]
    assert [p.id for p in hc.expand(kids[:3])] == list(dict.fromkeys(k.parent_id for k in kids[:3]))
    three = chunkwise.chunk(text, strategy="hierarchical", sizes=[400, 120, 40])
    leaves = [c for c in three if c.level == 2]
    assert all(p.level == 0 for p in chunkwise.expand(leaves[:3], three, level=0))


def test_hierarchy_bad_sizes():
    for sizes in ([200], [100, 200], [100, 100], [100, 0]):
        with pytest.raises(ConfigError):
            chunkwise.get_chunker("hierarchical", sizes=sizes)
    for bad in ({"strategies": ["recursive", "magic"]}, {"strategies": ["hierarchical", "fixed"]},
                {"strategies": ["recursive"]}, {"separators": ["|"], "strategies": ["fixed", "fixed"]}):
        with pytest.raises(ConfigError):
            chunkwise.get_chunker("hierarchical", sizes=[100, 50], **bad)


def test_hierarchy_cli(capsys):
    import json

    from chunkwise.cli import main

    code = main(["chunk", "samples/shipping-faq-note.txt", "-s", "hierarchical",
                 "--sizes", "200,50", "--overlap", "10"])
    rows = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert code == 0 and {r["level"] for r in rows} == {0, 1}
    assert all(r["parent_id"] for r in rows if r["level"] == 1)


def test_semantic_children_inside_parents(embedder):
    text = TRANSCRIPT + "\n\n" + TRANSCRIPT
    chunks = chunkwise.chunk(text, strategy="hierarchical", sizes=[300, 120],
                             strategies=["recursive", "semantic"], overlaps=[0, 0],
                             embedder=embedder)
    _check_hierarchy(text, chunks, (300, 120))
    children = [c for c in chunks if c.level == 1]
    chunker = chunkwise.get_chunker("hierarchical", sizes=[300, 120], overlaps=[0, 0],
                                    strategies=["recursive", "semantic"], embedder=embedder)
    from chunkwise.engine import DocumentIndex

    cuts = chunker.levels[1].cut_positions(DocumentIndex(chunkwise.Document(text, "d"),
                                                         chunker.tokenizer))
    assert cuts
    ends = {c.end for c in children}
    assert all(cut in ends for cut in cuts)  # every topic cut is a child boundary
