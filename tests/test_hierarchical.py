"""Hierarchical parent-child and semantic chunking, with the real bundled model."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import ConfigError

from helpers import (
    SAMPLES,
    check_hierarchy,
)


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
    check_hierarchy(text, chunks, sizes)
    again = chunkwise.chunk(text, strategy="hierarchical", sizes=sizes,
                            overlaps=[0] * (len(sizes) - 1) + [child_overlap])
    assert [c.id for c in again] == [c.id for c in chunks]


def test_hierarchy_defaults_expand_and_section_trails():
    text = Path(f"{SAMPLES}/qual-047-incident-procedure.md").read_text(encoding="utf-8")
    chunker = chunkwise.get_chunker("hierarchical")
    assert chunker.sizes == (800, 200) and chunker.overlaps == (0, 40)  # type: ignore[attr-defined]
    chunks = chunkwise.chunk(Path(f"{SAMPLES}/qual-047-incident-procedure.md"), strategy="hierarchical",
                             sizes=[300, 60], strategies=["section", "recursive"])
    check_hierarchy(text, chunks, (300, 60))
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
    mine = hc.chunk(Path(f"{SAMPLES}/qual-047-incident-procedure.md"))
    kids = [c for c in mine if c.level == 1]
    assert [p.id for p in hc.expand(kids[:3])] == list(dict.fromkeys(k.parent_id for k in kids[:3]))  # type: ignore[attr-defined]
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

    code = main(["chunk", f"{SAMPLES}/shipping-faq-note.txt", "-s", "hierarchical",
                 "--sizes", "200,50", "--overlap", "10"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and {r["level"] for r in rows} == {0, 1}
    assert all(r["parent_id"] for r in rows if r["level"] == 1)


def test_sizes_is_the_one_spelling_the_others_warn_for_a_release():
    import warnings

    text = (Path(__file__).parents[1] / "samples" / "qual-047-incident-procedure.md").read_text() * 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # sizes= alone warns about nothing
        wanted = chunkwise.chunk(text, strategy="hierarchical", sizes=[300, 120], doc_id="q")
    for old in ({"parent_size": 300, "child_size": 120}, {"parent_size": 300, "size": 120}):
        with pytest.warns(FutureWarning, match="deprecated .* sizes="):
            got = chunkwise.chunk(text, strategy="hierarchical", doc_id="q", **old)  # type: ignore[arg-type]
        assert [(c.id, c.start, c.end) for c in got] == [(c.id, c.start, c.end) for c in wanted]
    with pytest.raises(chunkwise.ConfigError, match="not both"):
        chunkwise.get_chunker("hierarchical", sizes=[300, 120], child_size=100)
    assert chunkwise.get_chunker("hierarchical").sizes == (800, 200)  # type: ignore[attr-defined]
