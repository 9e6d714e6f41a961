"""Boilerplate across documents (chunkwise.boilerplate): found among a corpus's
chunks, flagged, left out of search and eval by default, with a switch."""

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.boilerplate import boilerplate_ids, is_contents, is_marked
from chunkwise.cli import main
from chunkwise.errors import ConfigError

# the Apache License's own notice for applying it to a file (apache.org, Apache-2.0)
APACHE = """Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied."""

TOPICS = ["rotating the signing keys of the service", "configuring the retry policy of uploads",
          "exporting the audit log as CSV files", "sizing the worker pool for batch jobs",
          "migrating the schema of the settings table", "tracing slow requests end to end"]


def _page(i: int, licence: bool) -> str:
    topic = TOPICS[i]
    body = "\n\n".join(f"Step {n} of {topic}: " + " ".join(
        f"{topic.split()[1]}{n}{w}" for w in range(25)) + "." for n in range(4))
    return (APACHE + "\n\n" if licence else "") + f"Guide to {topic}.\n\n" + body + "\n"


def _corpus(with_licence: int, n: int = 6) -> dict[str, str]:
    return {f"page{i}.txt": _page(i, i < with_licence) for i in range(n)}


def test_a_licence_header_in_four_of_six_pages_is_flagged_and_nothing_else():
    chunks = chunkwise.chunk(_corpus(4), "recursive", size=96)
    flagged = [c for c in chunkwise.flag_boilerplate(chunks) if c.metadata.get("boilerplate")]
    assert sorted(c.doc_id for c in flagged) == [f"page{i}.txt" for i in range(4)]
    assert all(c.text.startswith("Licensed under the Apache License") for c in flagged)
    # every other chunk unchanged, the flagged ones equal but for the flag
    by_id = {c.id: c for c in chunks}
    for c in chunkwise.flag_boilerplate(chunks):
        assert c.text == by_id[c.id].text and (c.start, c.end) == (by_id[c.id].start,
                                                                   by_id[c.id].end)


def test_two_pages_of_six_are_not_enough_and_copies_are_not_boilerplate():
    chunks = chunkwise.chunk(_corpus(2), "recursive", size=96)
    assert not any(c.metadata.get("boilerplate") for c in chunkwise.flag_boilerplate(chunks))
    # three copies of one page: every chunk repeated, none is boilerplate
    copies = {f"v{i}/page.txt": _page(0, True) for i in range(3)}
    chunks = chunkwise.chunk(copies, "recursive", size=96)
    assert not any(c.metadata.get("boilerplate") for c in chunkwise.flag_boilerplate(chunks))
    # min_docs given: two of six pages do
    chunks = chunkwise.chunk(_corpus(2), "recursive", size=96)
    assert sum(bool(c.metadata.get("boilerplate"))
               for c in chunkwise.flag_boilerplate(chunks, min_docs=2)) == 2
    with pytest.raises(ConfigError, match="min_docs"):
        chunkwise.flag_boilerplate(chunks, min_docs=1)


def test_the_share_of_documents_raises_the_bar_on_large_corpora():
    # 3 pages of 200 carry a shared paragraph: below 2 % of the corpus, not boilerplate
    rng = random.Random(7)

    def words(k):
        return " ".join("".join(rng.choices(string.ascii_lowercase, k=7)) for _ in range(k))

    items = [(f"{d}-0", f"d{d}", "\n".join(words(12) for _ in range(8))) for d in range(200)]
    items += [(f"{d}-1", f"d{d}", APACHE) for d in range(3)]
    assert boilerplate_ids(items) == set()
    items += [(f"{d}-1", f"d{d}", APACHE) for d in range(3, 4)]
    assert boilerplate_ids(items) == {"0-1", "1-1", "2-1", "3-1"}


_line = st.text(alphabet=string.ascii_letters + " .,", min_size=0, max_size=30)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.lists(_line, max_size=4), min_size=1, max_size=4), min_size=1,
                max_size=8), st.lists(_line, min_size=1, max_size=3), st.data())
def test_only_chunks_of_lines_shared_with_other_documents_are_flagged(docs, shared, data):
    """Invariants: a chunk none of whose content lines occurs in another document is
    never flagged (unless it is a run of contents entries); a flagged chunk's content
    is mostly such lines; no document has most of its content flagged as shared."""
    items = []
    for d, chunks in enumerate(docs):
        for c, lines in enumerate(chunks):
            if data.draw(st.booleans()):
                lines = lines + shared
            items.append((f"{d}:{c}", f"doc{d}", "\n".join(lines)))
    flagged = boilerplate_ids(items)

    def norm(line):
        return " ".join(line.split())

    def content(text):
        return [norm(x) for x in text.splitlines() if sum(ch.isalnum() for ch in norm(x)) >= 3]

    docs_of: dict[str, set[str]] = {}
    for _, doc, text in items:
        for line in set(content(text)):
            docs_of.setdefault(line, set()).add(doc)
    for cid, _, text in items:
        lines = content(text)
        shared_chars = sum([len(x) for x in lines if len(docs_of[x]) >= 3])
        if cid in flagged and not is_contents(text):
            assert lines and shared_chars >= 0.75 * sum(len(x) for x in lines)
        if not any(len(docs_of[x]) > 1 for x in lines) and not is_contents(text):
            assert cid not in flagged
    for d in range(len(docs)):
        mine = [content(t) for cid, doc, t in items if doc == f"doc{d}"]
        theirs = [content(t) for cid, doc, t in items if doc == f"doc{d}" and cid in flagged
                  and not is_contents(t)]
        total = sum(len(x) for x in {x for ls in mine for x in ls})
        assert sum(len(x) for x in {x for ls in theirs for x in ls}) <= 0.5 * total


def _write(folder, corpus):
    folder.mkdir()
    for name, text in corpus.items():
        (folder / name).write_text(text)
    return folder


@pytest.mark.parametrize("retriever", ["dense", "hybrid", "bm25"])
def test_search_leaves_boilerplate_out_unless_asked(tmp_path, static_embedder, retriever):
    docs = _write(tmp_path / "docs", _corpus(4))
    db = str(tmp_path / "idx")
    with chunkwise.Index(db) as index:
        index.sync(docs, chunkwise.get_chunker("recursive", size=96), embedder=static_embedder)
        query = "licensed under the Apache License, without warranties or conditions"
        hits = index.search(query, k=5, retriever=retriever)
        assert len(hits) == 5
        assert not any(h.row["text"].startswith("Licensed under") for h in hits)
        assert not any(is_marked(h.row) for h in hits)
        everything = index.search(query, k=5, retriever=retriever, include_boilerplate=True)
        licence = [h for h in everything if h.row["text"].startswith("Licensed under")]
        # the four pages' identical header chunks are one hit, the others its copies
        assert len(licence) == 1 and is_marked(licence[0].row)
        assert len(licence[0].row["copies"]) == 3
        assert not any(is_marked(h.row) for h in everything if h not in licence)
        # a store that reads whole rows finds the same boilerplate as LanceDB's columns
        from chunkwise.index.store import Store

        assert sorted(Store.texts(index.store)) == sorted(index.store.texts())


def test_search_command_and_server_switch(tmp_path, static_embedder, capsys):
    docs = _write(tmp_path / "docs", _corpus(4))
    db = str(tmp_path / "idx")
    assert main(["index", str(docs), "--db", db, "--embedder", static_embedder, "--strategy",
                 "recursive", "--size", "96", "--no-progress"]) == 0
    capsys.readouterr()
    query = "Apache License warranties"
    assert main(["search", query, "--db", db, "-k", "6", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(rows) == 6 and not any(r["text"].startswith("Licensed") for r in rows)
    assert main(["search", query, "--db", db, "-k", "6", "--include-boilerplate"]) == 0
    out = capsys.readouterr().out
    assert out.count("[boilerplate]") == 1 and out.count("also in ") == 3

    from chunkwise.serve import Searcher

    searcher = Searcher(db)
    for retriever in ("dense", "hybrid"):
        hits = searcher.search(query, 6, retriever)
        assert not any(h["text"].startswith("Licensed") for h in hits)
        hits = searcher.search(query, 6, retriever, include_boilerplate=True)
        licence = [h for h in hits if h["text"].startswith("Licensed")]
        assert len(licence) == 1 and len(licence[0]["copies"]) == 3
    searcher.index.close()


def test_real_docs_console_output_repeated_across_pages(docs_index):
    """On the bundled FastAPI + Pydantic docs: FastAPI's coloured console transcripts,
    repeated on many pages, are boilerplate; no chunk with a sentence of its own page
    is; Pydantic's `<!-- old anchor ... -->` `[](){#id}` stubs open the section they
    anchor (they were 12 markup-only chunks, all flagged as boilerplate)."""
    with chunkwise.Index(str(docs_index / "idx"), create=False) as index:
        rows, _ = index.store.rows()
        flagged = boilerplate_ids(index.store.texts())
        query = "Application startup complete"
        default = index.search(query, k=10, retriever="hybrid")
        marked = index.search(query, k=10, retriever="hybrid", include_boilerplate=True)
    texts = {r["id"]: r["text"] for r in rows}
    assert 10 <= len(flagged) <= 0.02 * len(rows)
    console = [i for i in flagged if "Application startup complete" in texts[i]]
    assert len(console) >= 3
    from chunkwise.readers.structure import markup_only

    stubs = [r for r in rows if "[](){#" in r["text"]]
    assert len(stubs) >= 30 and not any(markup_only(r["text"]) for r in stubs)
    assert not any(h.row["id"] in flagged for h in default)
    assert sum(is_marked(h.row) for h in marked) >= 3
    # a chunk with a line of prose found in no other page is never flagged
    pages: dict[str, set[str]] = {}
    for r in rows:
        for line in r["text"].splitlines():
            if len(line.split()) >= 8:
                pages.setdefault(" ".join(line.split()), set()).add(r["doc_id"])
    for i in flagged:
        lines = [" ".join(x.split()) for x in texts[i].splitlines() if len(x.split()) >= 8]
        assert all(len(pages[x]) > 1 for x in lines), texts[i]


def test_eval_leaves_boilerplate_out_unless_asked(tmp_path):
    from chunkwise.eval.data import Dataset, Question, Reference
    from chunkwise.eval.run import evaluate
    from chunkwise.readers import parse

    corpus = _corpus(4)
    documents = {name: parse(text, name, "text") for name, text in corpus.items()}
    questions = []
    for i, name in enumerate(corpus):
        text = corpus[name]
        start = text.index("Step 2")
        end = text.index(".", start) + 1
        questions.append(Question(f"step 2 of {TOPICS[i]}", name,
                                  (Reference(start, end, text[start:end]),)))
    dataset = Dataset("licences", documents, questions)
    chunker = chunkwise.get_chunker("recursive", size=96)
    without = evaluate(dataset, chunker, retriever="bm25")
    with_ = evaluate(dataset, chunker, retriever="bm25", include_boilerplate=True)
    assert without.config["boilerplate_excluded"] == 4
    assert without.n_chunks == with_.n_chunks - 4
    assert with_.config["include_boilerplate"] is True


def test_dense_search_keeps_the_boilerplate_it_found_per_index_version(tmp_path, static_embedder,
                                                                      monkeypatch):
    """A dense search reads every row's text to find boilerplate once per version of a
    local index, not at every search; a write makes it look again."""
    import chunkwise.boilerplate as bp
    from chunkwise.retrieval import BOILERPLATE_FILE

    docs = _write(tmp_path / "docs", _corpus(4))
    db = tmp_path / "idx"
    chunker = chunkwise.get_chunker("recursive", size=96)
    query = "Apache License warranties"
    with chunkwise.Index(str(db)) as index:
        index.sync(docs, chunker, embedder=static_embedder)
        first = index.search(query, k=6, retriever="dense")
        kept = json.loads((db / BOILERPLATE_FILE).read_text())
        assert len(kept["ids"]) == 4 and kept["version"] == str(index.store.version())
        calls: list[int] = []
        real = bp.boilerplate_ids

        def counted(items, *args):
            calls.append(1)
            return real(items, *args)

        monkeypatch.setattr(bp, "boilerplate_ids", counted)
        assert index.search(query, k=6, retriever="dense") == first and calls == []
        (docs / "page5.txt").write_text(_page(5, True))  # a fifth page with the header
        index.sync(docs, chunker, embedder=static_embedder)
        hits = index.search(query, k=6, retriever="dense", include_boilerplate=True)
        assert calls == [1] and len(json.loads((db / BOILERPLATE_FILE).read_text())["ids"]) == 5
        marked = [h for h in hits if is_marked(h.row)]
        assert len(marked) == 1 and len(marked[0].row["copies"]) == 4



@pytest.mark.parametrize("retriever", ["hybrid", "bm25"])
def test_a_hybrid_search_keeps_its_bm25_statistics_and_boilerplate_per_index_version(
        tmp_path, static_embedder, monkeypatch, retriever):
    """A cold ``bm25`` or ``hybrid`` search of a local index reads BM25's statistics
    and the boilerplate kept beside it for the rows it holds, rather than building
    them from every row's text at each search: the same hits, no build; a write
    (other rows) builds them again; damaged statistics are built again too."""
    import chunkwise.boilerplate as bp
    import chunkwise.retrieval as retrieval

    docs = _write(tmp_path / "docs", _corpus(4))
    db = tmp_path / "idx"
    chunker = chunkwise.get_chunker("recursive", size=96)
    calls: list[str] = []
    built, found = retrieval._build_bm25, bp.boilerplate_ids

    def build(texts):
        calls.append("bm25")
        return built(texts)

    def boiler(items, *args):
        calls.append("boilerplate")
        return found(items, *args)

    monkeypatch.setattr(retrieval, "_build_bm25", build)
    monkeypatch.setattr(bp, "boilerplate_ids", boiler)
    query = "page 3 section"

    def cold() -> list[tuple[str, float]]:  # a new Index: what a new process opens
        with chunkwise.Index(str(db)) as index:
            return [(h.row["id"], round(h.score, 5))
                    for h in index.search(query, k=5, retriever=retriever)]

    with chunkwise.Index(str(db)) as index:
        index.sync(docs, chunker, embedder=static_embedder)
    first = cold()
    assert calls == ["boilerplate", "bm25"] and (db / retrieval.BM25_DIR).is_dir()
    calls.clear()
    assert cold() == first and calls == []
    (docs / "page2.txt").write_text(_page(2, True) + "\nA closing note on page 3.\n")
    with chunkwise.Index(str(db)) as index:
        index.sync(docs, chunker, embedder=static_embedder)
    calls.clear()
    again = cold()
    assert calls == ["boilerplate", "bm25"]
    calls.clear()
    (db / retrieval.BM25_DIR / "data.csc.index.npy").write_bytes(b"not an array")
    assert cold() == again and calls == ["bm25"]
    calls.clear()
    assert cold() == again and calls == []
    import shutil

    shutil.rmtree(db / retrieval.BM25_DIR)
    (db / retrieval.BOILERPLATE_FILE).unlink()
    assert cold() == again and calls == ["boilerplate", "bm25"]  # as built anew

def test_a_book_s_contents_are_navigation_in_a_corpus_of_one():
    """Treasure Island's contents (``XIII.  HOW I BEGAN MY SHORE ADVENTURE  . . . . 82``)
    is its own navigation: flagged even in a corpus of one document (repeated lines
    need three), and nothing of the story is."""
    from pathlib import Path

    from helpers import ROOT

    path = ROOT / "benchmarks" / "narrative_heldout" / "docs" / "treasure-island.txt"
    chunks = chunkwise.flag_boilerplate(chunkwise.chunk(Path(path)))
    flagged = [c for c in chunks if c.metadata.get("boilerplate")]
    assert len(flagged) >= 3 and len(flagged) < len(chunks) // 50
    assert all(c.text.count(". . .") >= 3 or "CONTENTS" in c.text for c in flagged)
    assert "HOW I BEGAN MY SHORE ADVENTURE" in " ".join(c.text for c in flagged)
    story = [c for c in chunks if "Squire Trelawney, Dr. Livesey" in c.text]
    assert story and not story[0].metadata.get("boilerplate")


_title = st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=40).map(str.strip)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_title, st.integers(1, 999)), min_size=3, max_size=12),
       st.text(alphabet=string.ascii_letters + " .,;:", max_size=200))
def test_contents_entries_are_contents_and_prose_is_not(entries, prose):
    toc = "\n".join(f"{t} . . . . . . . . {n}" for t, n in entries)
    assert is_contents(toc) and is_contents("Contents\n\n" + toc)
    assert not is_contents(prose + "\n".join(f"{t} {n}" for t, n in entries))
    two = "\n".join(f"{t} . . . . . . {n}" for t, n in entries[:2])
    assert is_contents(two) == (sum(not ch.isspace() for ch in two.replace(".", "")) - sum(
        len(str(n)) for _, n in entries[:2]) <= 40)
    assert not is_contents(two + "\n" + "A sentence of the story goes on. " * 3 + prose)


def test_search_leaves_a_manual_s_contents_out(tmp_path, static_embedder):
    chapters = {"Scope": "This manual covers paper and electronic records of the plant.",
                "Retention rules": "Accident reports are kept for seven years after closing.",
                "Disposal": "Expired records are shredded on site by the records officer."}
    toc = "\n".join(f"{i}. {t} . . . . . . . . . . . . {i + 1}"
                     for i, t in enumerate(chapters, 1))
    body = "\n\n".join(f"{i}. {t}\n\n{text}" for i, (t, text) in enumerate(chapters.items(), 1))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.txt").write_text(f"CONTENTS\n\n{toc}\n\n\n{body}\n")
    with chunkwise.Index(str(tmp_path / "idx")) as index:
        index.sync(docs, chunkwise.get_chunker("recursive", size=64), embedder=static_embedder)
        query = "scope retention rules disposal"
        hits = index.search(query, k=3, retriever="bm25")
        assert hits and not any(is_contents(h.row["text"]) for h in hits)
        everything = index.search(query, k=3, retriever="bm25", include_boilerplate=True)
        assert is_contents(everything[0].row["text"]) and is_marked(everything[0].row)


def test_a_markdown_page_s_link_definitions_are_navigation(tmp_path, static_embedder):
    """Node.js's ``readline.md`` ends in its reference-style links' targets
    (``[reading files]: #example-read-file-stream-line-by-line``); as chunks (two here,
    279 over Node.js's 64 API pages) they ranked for their labels' words: second for
    "how to read a file line by line". They are the page's own navigation, flagged
    and left out of ranking like a book's contents; the prose around is not."""
    import shutil
    from pathlib import Path

    from chunkwise.boilerplate import is_link_table

    from helpers import ROOT

    path = ROOT / "tests" / "data" / "nodejs-api" / "readline.md"
    chunks = chunkwise.flag_boilerplate(chunkwise.chunk(Path(path)))
    flagged = [c for c in chunks if c.metadata.get("boilerplate")]
    assert [c.text.splitlines()[0] for c in flagged] == [
        "[EOF character]: https://en.wikipedia.org/wiki/End-of-file#EOF_character",
        "[reading files]: #example-read-file-stream-line-by-line"]
    assert not [c for c in chunks if not c.metadata.get("boilerplate")
                and is_link_table(c.text)]
    assert not is_link_table("See [the guide][guide] for more.\n\n[guide]: guide.md")
    assert is_link_table("[a]: a.md\n[`b()`]: <b c.md> \"B\"\n  [c d]: https://x.org/c")
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(path, docs / "readline.md")
    with chunkwise.Index(str(tmp_path / "idx")) as index:
        index.sync(docs, chunkwise.get_chunker("auto"), embedder=static_embedder)
        query = "how to read a file line by line"
        hits = index.search(query, k=5, retriever="bm25")
        assert hits and not any(is_link_table(h.row["text"]) for h in hits)
        everything = index.search(query, k=5, retriever="bm25", include_boilerplate=True)
        assert any(is_link_table(h.row["text"]) for h in everything)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("a1_ \t-.\u00e9\u0663\u00b2\u0301\u00a0\u01c5\u2167\n\u2028x")),
               max_size=40))
def test_a_content_line_is_one_with_three_letters_or_digits(text):
    """The lines that count are found by a search that stops at the third letter or
    digit (counting every character of every line took a cold search ~0.1 s): the
    same lines as counting with ``str.isalnum``, whatever the characters between."""
    from chunkwise import boilerplate as bp

    expected = []
    for line in text.splitlines():
        norm = " ".join(line.split())
        if sum(c.isalnum() for c in norm) >= bp.MIN_ALNUM:
            expected.append((hash(norm), len(norm)))
    assert bp._lines(text) == expected


def test_a_long_line_with_few_letters_is_read_in_linear_time():
    import time

    from chunkwise import boilerplate as bp

    line = "a" + " -" * 200_000 + "b"
    t = time.perf_counter()
    assert bp._lines(line) == []
    assert time.perf_counter() - t < 2.0  # a backtracking search would take minutes
