"""Copies of one passage in several documents (a site's print-all page, one guide in
two folders) take one place among the hits: the best-ranked copy, from the smaller
document among equal scores, with ``copies`` saying where the others are."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.cli import main
from chunkwise.index.store import Hit
from chunkwise.retrieval import collapse_copies

PAGES = {
    "keys.md": "# Rotating keys\n\nRotate the signing keys every ninety days with the "
               "rotate command; the old key stays valid for a day.\n",
    "retries.md": "# Retries\n\nUploads are retried five times with exponential backoff "
                  "before the job is marked failed.\n",
    "audit.md": "# Audit log\n\nThe audit log is exported as CSV files, one per day, "
                "kept for a year.\n",
}


@pytest.fixture
def site(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text)
    # the site's print-all page: every page again, one after another
    (docs / "print.md").write_text("\n".join(PAGES.values()))
    return docs


@pytest.mark.parametrize("retriever", ["dense", "hybrid", "bm25"])
def test_a_print_all_page_does_not_double_every_hit(site, tmp_path, static_embedder, retriever):
    with chunkwise.Index(str(tmp_path / "idx")) as index:
        index.sync(site, chunkwise.get_chunker("section", size=64), embedder=static_embedder)
        hits = index.search("how often are signing keys rotated", k=3, retriever=retriever)
        texts = [" ".join(h.row["text"].split()) for h in hits]
        assert len(hits) == 3 and len(set(texts)) == 3, texts
        for h in hits:
            # each passage is in its page and in print.md: one hit, the other its copy
            assert len(h.row["copies"]) == 1
            copy = h.row["copies"][0]
            assert {h.row["doc_id"], copy["doc_id"]} - {"print.md"} <= set(PAGES)
            assert "print.md" in {h.row["doc_id"], copy["doc_id"]}
            held = (site / copy["doc_id"]).read_text()[copy["start"]:copy["end"]]
            assert " ".join(held.split()) == " ".join(h.row["text"].split())


def test_copies_in_the_command_line_and_the_server(site, tmp_path, static_embedder, capsys):
    db = str(tmp_path / "idx")
    assert main(["index", str(site), "--db", db, "--embedder", static_embedder, "--strategy",
                 "section", "--size", "64", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["search", "audit log CSV", "--db", db, "-k", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("also in ") == 2 and "print.md" in out
    assert main(["search", "audit log CSV", "--db", db, "-k", "2", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [len(r["copies"]) for r in rows] == [1, 1]
    assert all("print.md" in {r["doc_id"], r["copies"][0]["doc_id"]} for r in rows)

    from chunkwise.serve import Searcher

    searcher = Searcher(db)
    hits = searcher.search("audit log CSV", 2, "hybrid")
    assert [(h["doc_id"], h["copies"]) for h in hits] == [
        (r["doc_id"], r["copies"]) for r in rows]
    searcher.index.close()


_hits = st.lists(st.tuples(st.sampled_from(["a b", "a  b", "c", "d e", ""]),
                           st.sampled_from(["p1", "p2", "all"]),
                           st.floats(-5, 5, allow_nan=False)), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_hits, st.dictionaries(st.sampled_from(["p1", "p2", "all"]), st.integers(1, 9)))
def test_collapse_keeps_one_hit_per_text_and_loses_none(items, sizes):
    items = sorted(items, key=lambda x: -x[2])
    hits = [Hit(score, {"id": str(i), "doc_id": doc, "source": doc, "start": i, "end": i + 1,
                        "text": text}) for i, (text, doc, score) in enumerate(items)]
    out = collapse_copies(hits, sizes)
    keys = [" ".join(h.row["text"].split()) for h in out]
    assert len(keys) == len(set(keys))  # one hit per text
    assert [h.score for h in out] == sorted((h.score for h in out), reverse=True)
    seen = sorted([h.row["start"] for h in out]
                  + [c["start"] for h in out for c in h.row.get("copies", [])])
    assert seen == list(range(len(hits)))  # every hit kept or named as a copy
    for h in out:
        group = [x for x in hits if " ".join(x.row["text"].split()) == " ".join(
            h.row["text"].split())]
        assert h.score == max(x.score for x in group)
        tied = [x for x in group if abs(x.score - group[0].score)
                <= 1e-6 * max(1.0, abs(group[0].score))]
        assert sizes.get(h.row["doc_id"], 0) == min(sizes.get(x.row["doc_id"], 0) for x in tied)
        if len(group) == 1:
            assert "copies" not in h.row
