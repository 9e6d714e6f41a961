"""Search filters: exact in every store (what the store pushes down is a superset that
the hits are checked against), the same in Python, ``search``, ``serve`` and ``mcp``,
and values never able to change a store's query."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chunkwise import Chunk, ConfigError, Filter
from chunkwise.index import open_store, row_of
from chunkwise.index.store import filtered_search
from chunkwise.retrieval import RowSearch

DOC_IDS = ["guide/a.md", "guide/sub/b.md", "guide-2.md", "guide", "gu'ide/c.md", "%/d.md",
           "ünï/e.md", "a_b/f.md", "x.md", 'q"uote/g.md', "guide/sub/deep/h.txt"]
KINDS: list[Any] = ["prose", "table", "code", "qa"]
TEAMS = ["docs", "ops", "o'brien"]
PATHS = ["guide", "guide/", "guide/sub", "guide/*.md", "**/b.md", "guide/**", "gu'ide", "%",
         "a_b", "ünï/", "guide/{a,x}.md", "x' OR '1'='1", "*.md", "guide/sub/deep", "q\"uote"]
N_ROWS = 80
DIM = 8


def _rows() -> tuple[list[dict], np.ndarray]:
    rng = np.random.default_rng(7)
    rows = []
    for i in range(N_ROWS):
        doc = DOC_IDS[i % len(DOC_IDS)]
        page = None if i % 3 == 0 else int(rng.integers(1, 6))
        meta = {"strategy": ["section", "faq", "code"][i % 3],
                "doc": {"team": TEAMS[i % len(TEAMS)], "n": i % 4, "tags": ["a", "b"][: i % 3]}}
        text = f"passage {i} of {doc}"
        rows.append(row_of(Chunk(id=f"c{i:03d}", doc_id=doc, text=text, start=0, end=len(text),
                                 kind=KINDS[i % len(KINDS)], page=page, source=doc,
                                 metadata=meta)))
    vectors = rng.normal(size=(N_ROWS, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return rows, vectors


ROWS, VECTORS = _rows()

filters = st.fixed_dictionaries({}, optional={
    "path": st.one_of(st.sampled_from(PATHS), st.lists(st.sampled_from(PATHS), min_size=1,
                                                       max_size=3)),
    "kind": st.lists(st.sampled_from(KINDS), min_size=1, max_size=2),
    "strategy": st.sampled_from(["section", "faq", "code", "nope"]),
    "page": st.one_of(st.integers(1, 5), st.tuples(st.integers(1, 3), st.integers(3, 6)).map(list)),
    "metadata": st.one_of(st.fixed_dictionaries({"team": st.sampled_from(TEAMS)}),
                          st.fixed_dictionaries({"n": st.integers(0, 4)}),
                          st.fixed_dictionaries({"tags": st.sampled_from(["a", "b", "c"])})),
})


def _expected(where: Filter, query: np.ndarray, k: int) -> tuple[list[str], bool]:
    """The ids of the k nearest matching rows, and whether the k-th is clear of the next."""
    keep = [i for i, row in enumerate(ROWS) if where.matches(row)]
    scores = VECTORS[keep] @ query
    order = np.argsort(-scores, kind="stable")
    ids = [ROWS[keep[i]]["id"] for i in order[:k]]
    clear = len(order) <= k or scores[order[k - 1]] - scores[order[k]] > 1e-4
    return ids, clear


@pytest.fixture(scope="module", params=["lancedb", "qdrant", "postgres"])
def store(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("filters")
    if request.param == "lancedb":
        uri = f"lancedb://{tmp}/lance"
    elif request.param == "qdrant":
        uri = f"qdrant+local://{tmp}/qdrant"
    else:
        uri = request.getfixturevalue("postgres") + "&table=filters"
    made = open_store(uri)
    made.reset()
    made.upsert(ROWS, VECTORS)
    yield made
    made.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(written=filters, seed=st.integers(0, 2**16), k=st.integers(1, 12))
def test_a_filtered_store_search_is_the_exact_top_k_of_the_matching_rows(store, written, seed,
                                                                          k):
    where = Filter.of(written)
    query = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    query /= np.linalg.norm(query)
    if where is None:
        return
    expected, clear = _expected(where, query, k)
    assume(clear)
    hits = filtered_search(store, query, k, where)
    assert [h.row["id"] for h in hits] == expected
    assert all(where.matches(h.row) for h in hits)


@settings(max_examples=60, deadline=None)
@given(written=filters, seed=st.integers(0, 2**16), k=st.integers(1, 12))
def test_in_memory_search_ranks_only_matching_rows(written, seed, k):
    where = Filter.of(written)
    assume(where is not None)
    assert where is not None
    query = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)

    class Fixed:  # the query's vector, as an embedder would give it
        def embed(self, texts):
            return np.asarray([query / np.linalg.norm(query)] * len(texts))

    expected, clear = _expected(where, query / np.linalg.norm(query), k)
    assume(clear)
    found = RowSearch(ROWS, VECTORS, Fixed()).search("q", k, "dense", where=where)
    assert [h.row["id"] for h in found] == expected
    for kind in ("bm25", "hybrid"):
        hits = RowSearch(ROWS, VECTORS, Fixed()).search("passage guide", k, kind, where=where)
        assert len(hits) == min(k, sum(where.matches(r) for r in ROWS))
        assert all(where.matches(h.row) for h in hits)


def test_the_written_form_round_trips_and_bad_filters_are_one_line_errors():
    where = Filter.of({"path": ["guide/", "**/*.md"], "kind": "table", "page": "2-4",
                       "metadata": {"team": "docs", "n": 3}})
    assert where is not None
    assert Filter.of(where.to_dict()) == where
    assert Filter.of({}) is None and Filter.of(None) is None
    cases: list[tuple[Any, str]] = [
        ({"paths": "x"}, "unknown filter key 'paths'"),
        ({"page": "4-2"}, "1 <= first <= last"),
        ({"page": "two"}, "expected N or FIRST-LAST"),
        ({"kind": 3}, "filter kind"),
        ({"metadata": ["team"]}, "filter metadata"),
        ({"metadata": {"team": {"x": 1}}}, "filter metadata team"),
        ({"path": ""}, "filter path")]
    for bad, says in cases:
        with pytest.raises(ConfigError, match=says.replace("(", r"\(")):
            Filter.of(bad)


@pytest.mark.parametrize("path, inside, outside", [
    ("guide", ["guide", "guide/a.md", "guide/sub/b.md"], ["guide-2.md", "guidex/a.md"]),
    ("guide/", ["guide/a.md"], ["guide", "guide-2.md"]),
    ("guide/*.md", ["guide/a.md"], ["guide/sub/b.md", "guide/a.txt"]),
    ("guide/**/*.md", ["guide/a.md", "guide/sub/b.md"], ["x/guide/a.md"]),
    ("**/b.md", ["b.md", "guide/sub/b.md"], ["guide/sub/bb.md"]),
    ("{guide,x}/a.md", ["guide/a.md", "x/a.md"], ["y/a.md"]),
    ("./guide/", ["guide/a.md"], ["guide-2.md"]),
])
def test_paths_are_prefixes_by_whole_names_or_globs(path, inside, outside):
    where = Filter.of(path=path)
    assert where is not None
    assert all(where.matches({"doc_id": d}) for d in inside)
    assert not any(where.matches({"doc_id": d}) for d in outside)


def test_metadata_matches_as_text_and_by_list_membership():
    row = {"doc_id": "a", "metadata": json.dumps({"strategy": "faq", "doc": {
        "n": 3, "draft": True, "tags": ["x", "y"], "team": "docs"}})}
    for meta in [{"n": "3"}, {"n": 3}, {"draft": "true"}, {"tags": "y"}, {"team": ["ops", "docs"]},
                 {"strategy": "faq"}]:
        assert Filter.of(metadata=meta).matches(row), meta  # type: ignore[union-attr]
    for meta in [{"n": 4}, {"tags": "z"}, {"team": "ops"}, {"missing": "x"}]:
        assert not Filter.of(metadata=meta).matches(row), meta  # type: ignore[union-attr]


def test_an_injection_attempt_in_a_value_matches_nothing_and_harms_nothing(store):
    query = VECTORS[0]
    attempts: list[Any] = [{"path": "x' OR '1'='1"}, {"kind": "prose') OR ('1'='1"},
                           {"metadata": {"team": "x'; DROP TABLE filters; --"}},
                           {"strategy": '"faq"} OR 1=1'}]
    for written in attempts:
        where = Filter.of(written)
        assert filtered_search(store, query, 5, where) == [], written
    assert len(store.rows()[0]) == N_ROWS  # nothing was changed


@pytest.mark.slow
def test_the_command_line_filters_a_real_index(docs_index, capsys, monkeypatch):
    from chunkwise.cli import main

    db = str(docs_index / "idx")

    said: list[str] = []

    def search(*flags: str) -> list[dict]:
        capsys.readouterr()
        assert main(["search", "how do I declare a request body", "--db", db, "-k", "8",
                     "--json", *flags]) == 0
        out, err = capsys.readouterr()
        said.append(err)
        return [json.loads(line) for line in out.splitlines()]

    assert {h["doc_id"].split("/")[0] for h in search()} >= {"fastapi"}
    for flags, test in [
        (["--path", "pydantic/"], lambda h: h["doc_id"].startswith("pydantic/")),
        (["--path", str(docs_index / "docs" / "fastapi" / "tutorial")],
         lambda h: h["doc_id"].startswith("fastapi/tutorial/")),
        (["--path", "fastapi/tutorial/*.md", "--retriever", "dense"],
         lambda h: h["doc_id"].count("/") == 2),
        (["--kind", "code"], lambda h: h["kind"] == "code"),
        (["--metadata", "project=pydantic", "--retriever", "bm25"],
         lambda h: h["doc_id"].startswith("pydantic/")),
        (["--kind", "table", "--path", "fastapi"],
         lambda h: h["kind"] == "table" and h["doc_id"].startswith("fastapi/")),
    ]:
        hits = search(*flags)
        assert hits, flags
        assert all(test(h) for h in hits), flags
        for h in hits:
            text = (docs_index / "docs" / h["doc_id"]).read_text(encoding="utf-8")
            assert text[h["start"]:h["end"]] == h["text"]
    assert search("--metadata", "project=django") == []
    assert "no chunk matches the filter" in said[-1]
    # a glob whose folder exists here is taken from here, as a path is
    monkeypatch.chdir(docs_index)
    here = search("--path", "docs/fastapi/tutorial/*.md")
    assert here and all(h["doc_id"].startswith("fastapi/tutorial/")
                        and h["doc_id"].count("/") == 2 for h in here)
    assert main(["search", "x", "--db", db, "--page", "9-2"]) == 2
    assert "filter page" in capsys.readouterr().err
