"""An index you can trust: what users do every day (two runs at once, another spelling of
a path, --prune with part of the paths, odd table names, folders full of images) never
doubles, loses or strays a row. Against LanceDB, Qdrant's local mode and PostgreSQL
where the item concerns a store; a static embedder keeps the runs short."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import chunkwise
from chunkwise import Index, IndexBusyError, name_of, path_of
from chunkwise.cli import main

pytestmark = pytest.mark.slow

# tables named apart from test_index.py's: the PostgreSQL server is shared per process
STORES = ["lancedb://{tmp}/lance", "qdrant+local://{tmp}/qdrant", "{postgres}&table=trust{n}"]
_TABLES = iter(range(10**6))


def _db(template: str, tmp_path: Path, postgres: str) -> str:
    return template.format(tmp=tmp_path, postgres=postgres, n=next(_TABLES))


def _docs(folder: Path, n: int = 6) -> Path:
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"note{i}.md").write_text(
            f"# Note {i}\n\n" + "".join(f"Paragraph {j} of note {i} says something about "
                                        f"topic {i * 7 + j}.\n\n" for j in range(12)))
    return folder


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _rows(uri: str) -> list[dict]:
    with Index(uri) as index:
        rows, _ = index.store.rows()
    return rows


def _cli(*argv: str, cwd: Path | None = None) -> list[str]:
    return [sys.executable, "-m", "chunkwise.cli", *argv]


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_two_runs_at_once_leave_one_row_per_id(store, tmp_path, postgres, static_embedder):
    docs = _docs(tmp_path / "docs", n=30)
    db = _db(store, tmp_path, postgres)
    cmd = _cli("index", str(docs), "--db", db, "--embedder", static_embedder, "--size", "64",
               "--no-progress")
    # both started while a third holder writes: they overlap whatever their speed
    with Index(db) as holder, holder.store.writer_lock():
        runs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for _ in range(2)]
        heard = []
        for p in runs:  # each says it waits before the holder lets go
            assert p.stderr is not None
            line = p.stderr.readline()
            while line and "waiting for it" not in line:
                line = p.stderr.readline()
            heard.append(line)
    results = [p.communicate(timeout=600) for p in runs]
    assert [p.returncode for p in runs] == [0, 0], results
    rows = _rows(db)
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)) > 30
    summaries = [re.search(r"chunks ([\d,]+) \(([\d,]+) embedded", out) for out, _ in results]
    assert all(m and int(m.group(1).replace(",", "")) == len(ids) for m in summaries)
    # one run embedded everything, the other (which waited) nothing
    assert sorted(int(m.group(2).replace(",", "")) for m in summaries if m) == [0, len(ids)]
    assert all("another run is writing" in line for line in heard)
    with Index(db) as index:
        assert index.check().clean


def test_no_wait_exits_2_while_another_run_writes(tmp_path, capsys, static_embedder):
    docs = _docs(tmp_path / "docs", n=2)
    db = str(tmp_path / "idx")
    with Index(db) as holder, holder.store.writer_lock():
        code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                              "--no-wait", "--no-progress")
        assert code == 2 and "another run is writing the index" in err and not out
        with Index(db) as other, pytest.raises(IndexBusyError):
            other.sync(docs, embedder=static_embedder, wait=False)
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-wait", "--no-progress")
    assert code == 0 and "documents 2" in out


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_three_spellings_of_a_path_name_one_set_of_documents(store, tmp_path, postgres,
                                                             capsys, static_embedder,
                                                             monkeypatch):
    docs = _docs(tmp_path / "docs")
    db = _db(store, tmp_path, postgres)
    if "://" not in db.split("?")[0].split("&")[0] or db.startswith(("lancedb", "qdrant")):
        db = db.replace(str(tmp_path), str(tmp_path.resolve()))  # the same index from docs/
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(capsys, "index", "docs", *base)
    assert code == 0
    first = _rows(db)
    code, out, _ = _run(capsys, "index", str(docs.resolve()), *base, "--prune")
    assert code == 0 and "(0 changed, 0 removed)" in out and "0 embedded" in out
    monkeypatch.chdir(docs)
    code, out, _ = _run(capsys, "index", ".", *base, "--prune")
    assert code == 0 and "(0 changed, 0 removed)" in out and "0 embedded" in out
    code, out, _ = _run(capsys, "index", "./note1.md", "../docs/note2.md", *base)
    assert code == 0 and "documents 2 (0 changed" in out
    after = _rows(db)
    assert sorted(r["id"] for r in after) == sorted(r["id"] for r in first)
    assert {r["doc_id"] for r in after} == {f"note{i}.md" for i in range(6)}


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_prune_with_part_of_the_paths_keeps_the_rest(store, tmp_path, postgres, capsys,
                                                     static_embedder):
    root = tmp_path / "root"
    docs, other = _docs(root / "docs", n=3), _docs(root / "other", n=2)
    db = _db(store, tmp_path, postgres)
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, other, *base)[0] == 0
    assert {r["doc_id"] for r in _rows(db)} == {
        *(f"docs/note{i}.md" for i in range(3)), *(f"other/note{i}.md" for i in range(2))}
    (docs / "note0.md").unlink()
    code, out, _ = _run(capsys, "index", docs, *base, "--prune")
    assert code == 0 and "(0 changed, 1 removed)" in out
    assert {r["doc_id"] for r in _rows(db)} == {
        "docs/note1.md", "docs/note2.md", "other/note0.md", "other/note1.md"}
    with Index(db) as index:
        assert index.check().clean


def test_a_run_without_prune_says_how_many_documents_are_gone_but_kept(tmp_path, capsys,
                                                                     static_embedder):
    """Rows of deleted files stay without --prune (and a search still finds them): the
    summary counts them, for the paths given only (another folder's documents, or a
    file given alone, are not this run's to judge), and --prune then removes them."""
    root = tmp_path / "root"
    docs, other = _docs(root / "docs", n=4), _docs(root / "other", n=2)
    db = str(tmp_path / "db")
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, other, *base)[0] == 0
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "gone" not in out
    (docs / "note0.md").unlink()
    (docs / "note1.md").unlink()
    (other / "note0.md").unlink()
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "(0 changed, 0 removed)" in out
    assert "2 documents whose files are gone are still in the index (--prune removes them)" in out
    code, out, _ = _run(capsys, "index", docs / "note2.md", *base)
    assert code == 0 and "gone" not in out
    code, out, _ = _run(capsys, "index", other, *base)
    assert code == 0 and "1 document whose file is gone is still in the index" in out
    code, out, _ = _run(capsys, "index", docs, *base, "--prune")
    assert code == 0 and "(0 changed, 2 removed)" in out and "gone" not in out
    assert {r["doc_id"] for r in _rows(db)} == {
        "docs/note2.md", "docs/note3.md", "other/note0.md", "other/note1.md"}


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_a_renamed_or_moved_file_takes_its_vectors_along(store, tmp_path, postgres, capsys,
                                                         static_embedder):
    """A file renamed or moved into a subfolder comes back under another document id (new
    chunk ids, the same texts): its chunks take the vectors the index has for those texts
    (every chunk was embedded again); the old rows stay, counted as gone, until --prune.
    A file edited as it moves embeds only the chunk that changed."""
    docs = _docs(tmp_path / "docs", n=3)
    db = _db(store, tmp_path, postgres)
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, *base)[0] == 0
    with Index(db) as index:
        rows, vectors = index.store.rows()
    before = {r["embed_text"]: v for r, v in zip(rows, vectors)}
    moving = sum(r["doc_id"] in ("note0.md", "note1.md") for r in rows)
    assert moving >= 4
    (docs / "note0.md").rename(docs / "renamed.md")
    (docs / "sub").mkdir()
    (docs / "note1.md").rename(docs / "sub" / "note1.md")
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and f"(0 embedded, {len(rows)} reused)" in out, out
    assert "2 documents whose files are gone are still in the index" in out
    with Index(db) as index:
        rows, vectors = index.store.rows()
        assert index.check().clean
    moved = [(r, v) for r, v in zip(rows, vectors) if r["doc_id"] in ("renamed.md", "sub/note1.md")]
    assert len(moved) == moving
    for r, v in moved:
        assert np.array_equal(v, before[r["embed_text"]])
    text = (docs / "renamed.md").read_text()
    (docs / "renamed.md").unlink()
    (docs / "edited.md").write_text(text.replace("Paragraph 3 of note 0", "Paragraph three of note 0"))
    code, out, _ = _run(capsys, "index", docs, *base, "--prune")
    assert code == 0 and "(1 changed, 3 removed)" in out and "(1 embedded," in out, out
    with Index(db) as index:
        assert index.check().clean
        assert {r["doc_id"] for r in index.store.rows()[0]} == {"edited.md", "sub/note1.md",
                                                                "note2.md"}
        hit = index.search("Paragraph 5 of note 0 says something about topic 5", k=1)[0]
        assert hit.row["doc_id"] == "edited.md"


def test_a_broken_vector_is_never_copied_to_a_renamed_file(tmp_path, capsys, static_embedder):
    """A row whose vector is not usable (NaN: what ``index --check`` counts) does not
    give it to the renamed file's chunk of the same text: that chunk is embedded."""
    docs = _docs(tmp_path / "docs", n=2)
    db = str(tmp_path / "db")
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, *base)[0] == 0
    with Index(db) as index:
        rows, vectors = index.store.rows()
        broken = next(r for r in rows if r["doc_id"] == "note0.md")
        index.store.upsert([broken], np.full((1, vectors.shape[1]), np.nan, dtype=np.float32))
        assert not index.check().clean
    (docs / "note0.md").rename(docs / "renamed.md")
    code, out, _ = _run(capsys, "index", docs, *base, "--prune")
    assert code == 0 and "(1 embedded," in out and "1 removed" in out, out
    with Index(db) as index:
        assert index.check().clean


def test_a_file_copied_takes_the_vectors_of_the_file_it_was_copied_from(tmp_path, capsys,
                                                                        static_embedder):
    """One small file copied (far below the rows that make a run read every row): the
    local index's record knows which document was synced from those bytes, so the copy's
    chunks take that document's vectors; a copy edited on the way has no such twin and
    its chunks are embedded."""
    docs = _docs(tmp_path / "docs", n=3)
    db = str(tmp_path / "db")
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, *base)[0] == 0
    rows = _rows(db)
    n = sum(r["doc_id"] == "note1.md" for r in rows)
    shutil.copy(docs / "note1.md", docs / "copy.md")
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "(1 changed, 0 removed)" in out, out
    assert f"(0 embedded, {len(rows) + n} reused)" in out, out
    (docs / "edited.md").write_text((docs / "note2.md").read_text() + "\nOne more line.\n")
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "(0 embedded" not in out, out
    with Index(db) as index:
        assert index.check().clean


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_a_copied_folder_embeds_only_what_differs(store, tmp_path, postgres, capsys,
                                                  static_embedder):
    """A second version of the docs beside the first (a folder copied, one paragraph
    edited) is texts the index holds but one: a run with Reuse.EVERY_ROW rows or more to
    embed looks at every row, and only the chunk that differs is embedded."""
    from chunkwise.index.sync import Reuse

    site = tmp_path / "site"
    v1 = _docs(site / "v1", n=24)
    db = _db(store, tmp_path, postgres)
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", site, *base)[0] == 0
    first = len(_rows(db))
    assert first >= Reuse.EVERY_ROW
    shutil.copytree(v1, site / "v2")
    page = site / "v2" / "note3.md"
    page.write_text(page.read_text().replace("Paragraph 3 of note 3", "Paragraph three of note 3"))
    code, out, _ = _run(capsys, "index", site, *base)
    assert code == 0 and f"chunks {2 * first:,} (1 embedded, {2 * first - 1:,} reused)" in out, out
    with Index(db) as index:
        rows, vectors = index.store.rows()
        assert index.check().clean
        hit = index.search("Paragraph three of note 3", k=1)[0]
        assert hit.row["doc_id"] == "v2/note3.md"
    by_text: dict[str, list[np.ndarray]] = {}
    for r, v in zip(rows, vectors):
        by_text.setdefault(r["embed_text"], []).append(v)
    assert all(np.array_equal(vs[0], v) for vs in by_text.values() for v in vs)


def test_a_text_many_new_files_share_is_embedded_once(tmp_path, static_embedder):
    """Ten new pages that open with the same licence section: the batch sends each text
    to the model once (the real static model, its calls counted), every copy of the
    licence chunk gets the same vector, and the run counts all of them as embedded."""
    from chunkwise.embed import Embedder, get_embedder

    real = get_embedder(static_embedder)

    class Counting(Embedder):
        name = real.name
        texts: list[str] = []

        @property
        def dim(self):
            return real.dim

        def _embed(self, texts):
            self.texts += texts
            return real.embed(texts)

    docs = tmp_path / "docs"
    docs.mkdir()
    licence = "Licensed under the Apache License, Version 2.0; you may not use this file " \
              "except in compliance with the License."
    for i in range(10):
        (docs / f"page{i}.md").write_text(f"# Licence\n\n{licence}\n\n# Page {i}\n\n"
                                          f"Page {i} explains topic {i * 13} in a sentence.\n")
    spy = Counting()
    with Index(tmp_path / "db") as index:
        report = index.sync(docs, chunkwise.get_chunker("auto", size=64), embedder=spy)
        rows, vectors = index.store.rows()
    assert report.embedded == len(rows) == 20
    assert len(spy.texts) == len(set(spy.texts)) == 11
    copies = [v for r, v in zip(rows, vectors) if licence in r["text"]]
    assert len(copies) == 10 and all(np.array_equal(copies[0], v) for v in copies)


def test_a_project_moved_or_copied_with_its_index_keeps_its_rows(tmp_path, capsys, monkeypatch,
                                                                static_embedder):
    """A project folder renamed (or copied: another checkout, a CI artifact) with its
    index inside was "docs/note0.md: is outside the index's root /old/docs ... give
    another root, and rebuild" for every file: every chunk embedded again. The index
    now records where its root is from itself; where the recorded root is gone, or a
    sync's paths lie in the copy's own folder, that place is the root: no chunk is
    embedded again, the rows name the files where they are now. An index copied
    elsewhere without its documents still names the original folder."""
    import shutil

    project = tmp_path / "project"
    _docs(project / "docs", n=3)
    base = ["--embedder", static_embedder, "--size", "64", "--no-progress"]
    monkeypatch.chdir(project)
    assert _run(capsys, "index", "docs", "--db", "db", *base)[0] == 0
    rows = {r["id"]: r for r in _rows(str(project / "db"))}
    moved = tmp_path / "renamed"
    project.rename(moved)
    monkeypatch.chdir(moved)
    # before any sync there, a search names the files where they are now (the rows
    # still hold the old paths)
    from chunkwise.serve import Searcher

    with Index(moved / "db") as index:
        assert index.search("topic 15 of note 2", k=1)[0].row["source"] == \
            str(moved / "docs" / "note2.md")
    served = Searcher(str(moved / "db")).search("topic 15 of note 2", k=1)[0]
    assert served["source"] == str(moved / "docs" / "note2.md")
    assert {r["source"] for r in _rows(str(moved / "db"))} == {
        str(project / "docs" / f"note{i}.md") for i in range(3)}
    code, out, err = _run(capsys, "index", "docs", "--db", "db", *base)
    assert code == 0 and "outside" not in err and "(0 embedded, " in out, (out, err)
    after = _rows(str(moved / "db"))
    assert {r["id"] for r in after} == set(rows)  # the same chunks, none embedded again
    assert {r["source"] for r in after} == {str(moved / "docs" / f"note{i}.md") for i in range(3)}
    with Index(moved / "db") as index:
        assert index.check().clean
        assert (index.config() or {})["root"] == str(moved / "docs")
        hit = index.search("topic 15 of note 2", k=1)[0]
        assert hit.row["source"] == str(moved / "docs" / "note2.md")
    # a copy beside the original: each indexes its own files
    copy = tmp_path / "copy"
    shutil.copytree(moved, copy)
    (copy / "docs" / "note1.md").write_text("# Note 1\n\nRewritten in the copy alone.\n")
    monkeypatch.chdir(copy)
    code, out, err = _run(capsys, "index", "docs", "--db", "db", *base)
    # (every row names its file anew; one chunk is new)
    assert code == 0 and "outside" not in err and "(1 embedded, " in out, (out, err)
    assert (Index(copy / "db").config() or {})["root"] == str(copy / "docs")
    assert {r["source"] for r in _rows(str(copy / "db"))} == {
        str(copy / "docs" / f"note{i}.md") for i in range(3)}
    monkeypatch.chdir(moved)
    code, out, _ = _run(capsys, "index", "docs", "--db", "db", *base)
    assert code == 0 and "(0 changed, 0 removed)" in out
    assert (Index(moved / "db").config() or {})["root"] == str(moved / "docs")
    # the index alone copied elsewhere: its documents are still where they were
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(moved / "db", elsewhere / "db")
    code, out, err = _run(capsys, "index", moved / "docs", "--db", elsewhere / "db", *base)
    assert code == 0 and "(0 changed, 0 removed)" in out, (out, err)
    assert (Index(elsewhere / "db").config() or {})["root"] == str(moved / "docs")


def test_a_moved_project_may_name_its_new_root_but_not_another(tmp_path, capsys, monkeypatch,
                                                              static_embedder):
    """After a move, ``--root`` naming the place the index records (the project's docs
    where they are now) is the same root; any other root is still refused (documents
    would be named anew, each twice)."""
    project = tmp_path / "project"
    _docs(project / "docs", n=2)
    base = ["--embedder", static_embedder, "--size", "64", "--no-progress"]
    monkeypatch.chdir(project)
    assert _run(capsys, "index", "docs", "--db", "db", *base)[0] == 0
    project.rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    code, out, err = _run(capsys, "index", "docs", "--db", "db", "--root", ".", *base)
    assert code == 2 and "another configuration (root" in err and "--rebuild" in err
    code, out, err = _run(capsys, "index", "docs", "--db", "db", "--root", "docs", *base)
    assert code == 0 and "(0 embedded, " in out, (out, err)


def test_postgres_table_names_are_identifiers_and_never_collide(tmp_path, postgres, capsys,
                                                                static_embedder):
    docs = _docs(tmp_path / "docs", n=2)
    base = ["--embedder", static_embedder, "--size", "64", "--no-progress"]
    chunks, shadow = f"{postgres}&table=chunks", f"{postgres}&table=chunks_config"
    assert _run(capsys, "index", docs, "--db", chunks, *base)[0] == 0
    before = sorted(r["id"] for r in _rows(chunks))
    code, _, err = _run(capsys, "index", docs, "--db", shadow, *base, "--size", "32",
                        "--rebuild")
    assert code == 0, err
    assert sorted(r["id"] for r in _rows(chunks)) == before  # untouched
    with Index(chunks) as index:
        assert (index.config() or {})["chunker"]["size"] == 64
    for name in ("select", "Mixed_Case"):  # quoted: any identifier works
        assert _run(capsys, "index", docs, "--db", f"{postgres}&table={name}", *base)[0] == 0
        assert len(_rows(f"{postgres}&table={name}")) == len(before)
    for bad in ("1abc", "a-b", "x;drop table chunks", "chunkwise_indexes"):
        code, _, err = _run(capsys, "index", docs, "--db", f"{postgres}&table={bad}", *base)
        assert code == 2 and "table name" in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_check_is_clean_after_syncs_and_repair_mends_duplicates(store, tmp_path, postgres,
                                                                capsys, static_embedder):
    docs = _docs(tmp_path / "docs", n=4)
    db = _db(store, tmp_path, postgres)
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, *base)[0] == 0
    code, out, _ = _run(capsys, "index", "--db", db, "--check")
    assert code == 0 and out.strip().endswith(": clean") and "4 documents" in out
    with Index(db) as index:
        rows, vectors = index.store.rows()
        n = len(rows)
        if store.startswith("lancedb"):  # rows doubled by LanceDB itself (a table can hold them)
            import lancedb

            data = index.store._data(rows[:3], vectors[:3], vectors.shape[1])  # type: ignore[attr-defined]
            lancedb.connect(db.removeprefix("lancedb://")).open_table("chunks").add(data)
        # a broken document: one of its chunks gone
        broken = rows[5]
        index.store.delete([broken["id"]])
    code, out, _ = _run(capsys, "index", "--db", db, "--check")
    assert code == 1 and "broken documents 1" in out
    if store.startswith("lancedb"):
        assert "duplicated ids 3" in out
    code, out, _ = _run(capsys, "index", "--db", db, "--check", "--repair")
    assert code == 0 and "repaired" in out
    code, out, _ = _run(capsys, "index", "--db", db, "--check")
    assert code == 0 and out.strip().endswith(": clean")
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "(1 changed" in out
    assert len(_rows(db)) == n


def test_bad_places_are_one_line_errors_that_create_nothing(tmp_path, capsys,
                                                            static_embedder):
    docs = _docs(tmp_path / "docs", n=1)
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not an index")
    for argv, message in [
        (["index", docs, "--db", a_file], "is a file, not an index folder"),
        (["search", "x", "--db", tmp_path / "missing"], "no index at"),
        (["search", "x", "--db", f"qdrant+local://{tmp_path / 'missing-q'}"], "no index at"),
        (["index", "--db", tmp_path / "missing", "--check"], "no index at"),
    ]:
        code, out, err = _run(capsys, *argv)
        assert code == 2 and message in err and "Traceback" not in err, (argv, err)
    assert not (tmp_path / "missing").exists() and not (tmp_path / "missing-q").exists()
    db = tmp_path / "idx"
    assert _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                "--no-progress")[0] == 0
    for query in ("", "   "):
        code, out, err = _run(capsys, "search", query, "--db", db)
        assert code == 2 and "the query is empty" in err and not out


def test_a_folder_with_images_and_the_index_inside_it(tmp_path, capsys, static_embedder):
    docs = _docs(tmp_path / "book", n=3)
    (docs / "img").mkdir()
    for i in range(20):
        (docs / "img" / f"fig{i}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (docs / "archive.zip").write_bytes(b"PK\x03\x04" + bytes(64))
    (docs / "blob.dat2").write_bytes(b"\x00" * 100)
    db = docs / "index"  # the store inside one of the inputs
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-progress")
    assert code == 0, err
    assert "chunkwise: skipped 22 files that are not documents: png 20, binary 1, zip 1" in err
    assert "error" not in err and "documents 3 (3 changed" in out
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-progress")
    assert code == 0 and "documents 3 (0 changed" in out  # its own files never read
    assert {r["doc_id"] for r in _rows(str(db))} == {f"note{i}.md" for i in range(3)}


def test_links_out_of_the_folder_are_followed_only_when_asked(tmp_path, capsys,
                                                              static_embedder):
    docs = _docs(tmp_path / "docs", n=2)
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\nA file outside the folder.\n")
    (docs / "link.md").symlink_to(outside)
    (docs / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    (docs / "inside.md").symlink_to(docs / "note0.md")
    db = tmp_path / "idx"
    base = ["--db", db, "--embedder", static_embedder, "--no-progress", "--root", tmp_path]
    code, out, err = _run(capsys, "index", docs, *base)
    assert code == 0 and "not followed: 1 dangling link, 1 link out of the folder" in err
    assert {r["doc_id"] for r in _rows(str(db))} == {
        "docs/note0.md", "docs/note1.md", "docs/inside.md"}
    code, out, err = _run(capsys, "index", docs, *base, "--follow-links")
    assert code == 0 and "1 dangling link" in err
    assert "docs/link.md" in {r["doc_id"] for r in _rows(str(db))}


def test_a_named_pipe_in_a_folder_is_named_and_never_opened(tmp_path, capsys, static_embedder):
    """A FIFO among the documents (a tool's control pipe) was passed over without a
    word; it is counted with what the walk skipped, and never opened (opening a pipe
    with no writer would wait for ever)."""
    docs = _docs(tmp_path / "docs", n=2)
    os.mkfifo(docs / "control.md")
    code, out, err = _run(capsys, "index", docs, "--db", tmp_path / "idx", "--embedder",
                          static_embedder, "--no-progress")
    assert code == 0 and "skipped 1 file that is not a document: not a regular file 1" in err
    assert "documents 2 (2 changed" in out
    code, out, err = _run(capsys, "chunk", docs, "-o", tmp_path / "c.jsonl")
    assert code == 0 and "not a regular file 1" in err


def test_disk_stays_bounded_over_fifty_edit_and_index_runs(tmp_path, static_embedder):
    docs = _docs(tmp_path / "docs", n=3)
    db = tmp_path / "idx"

    def size() -> int:
        return sum(f.stat().st_size for f in db.rglob("*") if f.is_file())

    with Index(str(db)) as index:
        index.sync(docs, embedder=static_embedder)
    live = size()
    target = docs / "note1.md"
    for i in range(50):
        target.write_text(target.read_text() + f"\nEdit number {i} adds a line.\n")
        with Index(str(db)) as index:
            index.sync(docs, embedder=static_embedder)
    assert size() <= 2.5 * live, (size(), live)
    with Index(str(db)) as index:
        assert index.check().clean


def test_a_one_file_edit_does_not_rewrite_the_whole_lancedb_table(tmp_path, static_embedder):
    """Compacting rewrites every file under Lance's million-row target: done after every
    run, a one-file edit rewrote the whole table (0.16 s at 50,000 rows, growing with
    the index). A small edit now leaves the table's files as they are; once the edits
    have made many files, a run compacts them (and drops the old versions), and every
    row is there, once, throughout."""
    from chunkwise.index.lance import COMPACT_FRAGMENTS

    docs = _docs(tmp_path / "docs", n=40)
    db = tmp_path / "idx"
    data = db / "chunks.lance" / "data"
    with Index(str(db)) as index:
        first = index.sync(docs, embedder=static_embedder)
    compacted = {f.name for f in data.iterdir()}
    assert len(compacted) == 1  # the first run wrote every row: compacted into one file

    def files() -> int:
        with Index(str(db)) as index:
            table = index.store.table()  # type: ignore[attr-defined]
            rows = {r["id"] for r in index.store.rows()[0]}
            assert len(rows) == table.count_rows() and table.count_rows() >= first.written
        return len(table.get_fragments())

    counts = []
    for i in range(COMPACT_FRAGMENTS + 3):  # another file each time: the rows an edit
        target = docs / f"note{i}.md"  # wrote stay (a file whose rows all go, goes)
        target.write_text(target.read_text() + f"\nEdit number {i} adds a line.\n")
        with Index(str(db)) as index:
            report = index.sync(docs, embedder=static_embedder)
        assert report.changed == 1 and report.embedded >= 1
        counts.append(files())
        if i == 0:
            assert compacted <= {f.name for f in data.iterdir()}  # nothing rewritten
    assert counts[:3] == [2, 3, 4]  # one file more per edit ...
    # ... until a run leaves COMPACT_FRAGMENTS: it compacts them into one
    assert max(counts) < COMPACT_FRAGMENTS and counts[COMPACT_FRAGMENTS - 2] == 1, counts
    with Index(str(db)) as index:
        assert index.check().clean


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_many_small_files_are_written_in_a_few_batches(store, tmp_path, postgres,
                                                         static_embedder):
    """Writes are batched across documents (not one write per file): 1,200 files
    cost three LanceDB commits, and every store ends with exactly their rows."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(1200):
        (docs / f"n{i:04d}.md").write_text(f"# Note {i}\n\nItem {i} is about topic {i % 31}.\n")
    db = _db(store, tmp_path, postgres)
    with Index(db) as index:
        seen: list[int] = []
        report = index.sync(docs, embedder=static_embedder,
                            on_document=lambda r: seen.append(r.documents))
        assert report.documents == report.changed == 1200 and seen == list(range(1, 1201))
        assert report.written == 1200  # every planned row written, batch by batch
        if store.startswith("lancedb"):  # config, then 512 + 512 + 176 rows
            version = index.store.table().version  # type: ignore[attr-defined]
            assert version <= 6, version
        rows, _ = index.store.rows()
        assert len(rows) == len({r["id"] for r in rows}) == 1200
        (docs / "n0007.md").write_text("# Note 7\n\nItem 7 changed its topic.\n")
        (docs / "n0008.md").unlink()
        again = index.sync(docs, embedder=static_embedder, prune=True)
        assert (again.changed, again.removed, again.embedded) == (1, 1, 1)
        rows, _ = index.store.rows()
        assert len(rows) == 1199 and "n0008.md" not in {r["doc_id"] for r in rows}
        assert index.check().clean


def test_output_format_follows_the_extension(tmp_path, capsys):
    doc = tmp_path / "a.md"
    doc.write_text("# A\n\nSome text.\n")
    out = tmp_path / "chunks.parquet"
    assert _run(capsys, "chunk", doc, "-o", out)[0] == 0
    assert out.read_bytes()[:4] == b"PAR1"
    forced = tmp_path / "forced.parquet"
    assert _run(capsys, "chunk", doc, "-o", forced, "--format", "jsonl")[0] == 0
    assert json.loads(forced.read_text().splitlines()[0])["text"]


def test_an_index_of_an_older_chunkwise_is_refused_with_a_rebuild_hint(tmp_path, capsys,
                                                                       static_embedder):
    docs = _docs(tmp_path / "docs", n=1)
    db = tmp_path / "idx"
    assert _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                "--no-progress")[0] == 0
    with Index(str(db)) as index:
        old = dict(index.config() or {})
        old.pop("root")
        old["version"] = 1
        index.store.set_config(old)
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-progress")
    assert code == 2 and "older chunkwise" in err and "--rebuild" in err
    assert len(err.strip().splitlines()) == 1
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-progress", "--rebuild")
    assert code == 0 and len(_rows(str(db))) > 0
    rows = _rows(str(db))
    assert len({r["id"] for r in rows}) == len(rows)


def test_a_waiting_run_says_so_and_finishes_after_the_first(tmp_path, static_embedder):
    docs = _docs(tmp_path / "docs", n=2)
    db = str(tmp_path / "idx")
    holder = Index(db)
    lock = holder.store.writer_lock()
    lock.__enter__()
    proc = subprocess.Popen(_cli("index", str(docs), "--db", db, "--embedder", static_embedder,
                                 "--no-progress"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ})
    assert proc.stderr is not None
    said = proc.stderr.readline()  # it says so while it waits (the lock is still ours)
    assert "another run is writing" in said and "waiting for it" in said
    time.sleep(1)
    assert proc.poll() is None
    lock.__exit__(None, None, None)
    holder.close()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "documents 2" in out
    assert np.unique([r["id"] for r in _rows(db)]).size == len(_rows(db))


def _odd_docs(tmp_path: Path) -> tuple[Path, bytes]:
    docs = tmp_path / "docs"
    docs.mkdir()
    odd = os.fsencode(docs) + b"/caf\xe9.md"
    with open(odd, "w") as f:
        f.write("# Menu\n\nA list of coffees: espresso, ristretto, lungo.\n")
    (docs / "ok.md").write_text("# Ok\n\nA fine note about the weather.\n")
    return docs, odd


def test_a_file_name_that_is_not_utf8_survives_jsonl_and_parquet(tmp_path, capsys):
    docs, odd = _odd_docs(tmp_path)
    out = tmp_path / "chunks.jsonl"
    assert _run(capsys, "chunk", docs, "-o", out)[0] == 0
    raw = out.read_bytes()
    rows = [json.loads(line) for line in raw.decode("utf-8").splitlines()]  # valid UTF-8
    odd_rows = [r for r in rows if "caf" in r["doc_id"]]
    assert odd_rows and odd_rows[0]["source"].endswith("caf\ufffde9.md")
    assert os.fsencode(path_of(odd_rows[0]["source"])) == odd  # maps back to the file
    r = odd_rows[0]  # and offsets cite it, read through its stored name
    assert chunkwise.read_text(r["source"])[r["start"]:r["end"]] == r["text"]
    code, _, err = _run(capsys, "chunk", docs, "-o", tmp_path / "chunks.parquet")
    assert code == 0 and err == ""
    table = pq.read_table(tmp_path / "chunks.parquet").to_pylist()
    assert sorted(r["doc_id"] for r in table) == sorted(r["doc_id"] for r in rows)
    assert {os.fsencode(path_of(r["source"])) for r in table} == {
        odd, os.fsencode(docs / "ok.md")}


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_a_file_name_that_is_not_utf8_survives_every_store(store, tmp_path, capsys, postgres,
                                                            static_embedder):
    docs, odd = _odd_docs(tmp_path)
    db = _db(store, tmp_path, postgres)
    index = ["index", docs, "--db", db, "--embedder", static_embedder, "--no-progress"]
    code, out, err = _run(capsys, *index)
    assert code == 0 and "Traceback" not in err and "documents 2 (2 changed" in out
    assert {r["doc_id"] for r in _rows(db)} == {"caf\ufffde9.md", "ok.md"}
    code, out, err = _run(capsys, "search", "espresso coffees", "--db", db, "--json", "-k", "1")
    hit = json.loads(out.splitlines()[0])
    assert code == 0 and hit["doc_id"] == "caf\ufffde9.md"
    assert os.fsencode(path_of(hit["source"])) == odd
    # the file exists, so --prune keeps it (its name maps back), and nothing changed
    code, out, _ = _run(capsys, *index, "--prune")
    assert code == 0 and "documents 2 (0 changed, 0 removed)" in out
    os.remove(odd)
    code, out, _ = _run(capsys, *index, "--prune")
    assert code == 0 and "1 removed" in out and {r["doc_id"] for r in _rows(db)} == {"ok.md"}


def test_names_map_back_to_every_file_name():
    """name_of is valid UTF-8 and path_of inverts it, whatever the bytes."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.binary(min_size=1, max_size=40))
    def check(raw):
        path = os.fsdecode(raw)
        name = name_of(path)
        name.encode("utf-8")
        assert os.fsencode(path_of(name)) == raw
        try:
            utf8 = raw.decode("utf-8")
        except UnicodeDecodeError:
            return
        if "\ufffd" not in utf8:
            assert name == path  # a UTF-8 name is stored as it is
    check()



def test_a_reader_racing_the_creation_of_the_table_sees_an_empty_index(tmp_path):
    """A table another process is creating is a folder before it has a version ("Table
    'chunks' was not found"; seen in CI while a killed run began writing): a reader then
    sees the index as it was, empty, instead of failing; the writer then creates it."""
    from chunkwise.index.lance import LanceStore

    store = LanceStore(str(tmp_path / "idx"))
    for name in ("chunks", "chunkwise_config"):  # as Lance leaves them before the manifest
        (tmp_path / "idx" / f"{name}.lance" / "data").mkdir(parents=True)
    assert store.state() == {} and store.get_config() is None and store.version() is None
    assert store.rows()[0] == [] and store.search(np.ones(4, dtype=np.float32), 3) == []
    store.set_config({"dim": 4})
    store.upsert([{"id": "a", "doc_id": "d", "text": "t", "row_hash": "h"}],
                 np.ones((1, 4), dtype=np.float32))
    assert store.get_config() == {"dim": 4} and store.state() == {"d": {"a": "h"}}


def test_a_reader_whose_table_gets_its_first_version_while_opening_it_reads_it(tmp_path, monkeypatch):
    """The first index run writes its table's first version while a reader opens it:
    Lance said "not found" (no version when it looked) and the reader, looking a
    moment later, saw a version and raised that error (a CI rehearsal under load,
    `test_an_interrupted_run_says_what_it_left`). The reader opens the table again
    and reads it. The race is injected: the real writer writes the version at the
    moment Lance's first look has failed."""
    import lance

    from chunkwise.index.lance import LanceStore

    writer = LanceStore(str(tmp_path / "idx"))
    (tmp_path / "idx" / "chunks.lance" / "data").mkdir(parents=True)
    real = lance.dataset
    looks: list[str] = []

    def racing(uri, *args, **kwargs):
        looks.append(uri)
        if len(looks) == 1 and uri.endswith("chunks.lance"):
            writer.upsert([{"id": "a", "doc_id": "d", "text": "t", "row_hash": "h"}],
                          np.ones((1, 4), dtype=np.float32))
            raise ValueError(f"Dataset at path {uri} was not found: Not found: {uri}/_versions")
        return real(uri, *args, **kwargs)

    monkeypatch.setattr(lance, "dataset", racing)
    reader = LanceStore(str(tmp_path / "idx"))
    assert reader.state() == {"d": {"a": "h"}}
    assert len(looks) >= 2


def test_the_model_is_prepared_on_the_embedding_thread_before_the_files_are_walked(
        tmp_path, static_embedder):
    """A re-run after a one-file edit waited for the model's first load (MiniLM's
    tokenizer file and weights, ~20 ms) after walking the files; an index run now
    has the embedder prepare itself on its embedding thread as the run starts (while
    the caller walks the files), before its first batch; one that cannot (an error)
    leaves it to that batch. The default model's NumPy pass is what preparing loads."""
    import threading

    from chunkwise.embed import Embedder, get_embedder

    real = get_embedder(static_embedder)
    events: list[tuple[str, str]] = []

    class Spy(Embedder):
        name = real.name

        def __init__(self, broken: bool = False):
            self.broken = broken

        def prepare(self) -> None:
            events.append(("prepare", threading.current_thread().name))
            if self.broken:
                raise RuntimeError("no model here")

        def embed(self, texts):
            events.append(("embed", threading.current_thread().name))
            return real.embed(texts)

        @property
        def dim(self) -> int:
            return real.dim

    docs = _docs(tmp_path / "docs", n=3)
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs, embedder=Spy())
        assert events == [("prepare", "chunkwise-embed_0"), ("embed", "chunkwise-embed_0")]
        (Path(docs) / "note1.md").write_text("# Note 1\n\nNew words.\n")
        events.clear()
        report = index.sync(docs, embedder=Spy(broken=True))
        assert report.changed == 1 and [e for e, _ in events] == ["prepare", "embed"]
    model = get_embedder("minilm")
    assert getattr(model, "_numpy", None) is None
    model.prepare()
    assert model._numpy is not None and model._numpy is not False  # type: ignore[attr-defined]


def test_batches_embed_off_the_main_thread_and_a_failing_batch_keeps_the_ones_before(
        tmp_path, static_embedder):
    """Embedding runs on a worker thread while the next documents are read and
    chunked; the store is written from the caller's thread only, batch by batch.
    An embedder that fails on the third batch stops the run with its error, the
    index holding exactly the two batches before it (complete documents, clean
    check), and the next run finishes the rest."""
    import threading

    from chunkwise.embed import Embedder, get_embedder
    from chunkwise.errors import EmbedderError

    real = get_embedder(static_embedder)

    class Failing(Embedder):
        name = real.name

        def __init__(self, fail_on: int | None):
            self.calls, self.fail_on = 0, fail_on
            self.threads: set[str] = set()

        def embed(self, texts):
            self.calls += 1
            self.threads.add(threading.current_thread().name)
            if self.calls == self.fail_on:
                raise EmbedderError("embedder: the server went away")
            return real.embed(texts)

        @property
        def dim(self) -> int:
            return real.dim

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(1200):
        (docs / f"n{i:04d}.md").write_text(f"# Note {i}\n\nItem {i} is about topic {i % 31}.\n")
    db = str(tmp_path / "idx")
    failing = Failing(fail_on=3)
    with Index(db) as index:
        with pytest.raises(EmbedderError, match="went away"):
            index.sync(docs, embedder=failing)
        assert failing.threads == {"chunkwise-embed_0"}  # never the caller's thread
        rows, _ = index.store.rows()
        assert len(rows) == len({r["id"] for r in rows}) == 1024  # two batches of 512
        assert index.check().clean
        again = index.sync(docs, embedder=Failing(fail_on=None))
        assert (again.embedded, again.reused) == (176, 1024)
        rows, _ = index.store.rows()
        assert len(rows) == len({r["id"] for r in rows}) == 1200


def _count_reads(monkeypatch) -> list[str]:
    """The names of the files read from now on (the readers' ``read_path`` spied on)."""
    import chunkwise.readers as readers

    read: list[str] = []
    real = readers.read_path

    def counting(path, *a, **k):
        read.append(Path(path).name)
        return real(path, *a, **k)

    monkeypatch.setattr(readers, "read_path", counting)
    return read


@pytest.mark.parametrize("store", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_unchanged_files_are_passed_over_only_while_their_rows_are_intact(
        store, tmp_path, postgres, static_embedder, monkeypatch):
    """A re-run reads and chunks only the files whose bytes or settings changed; the
    record is never trusted alone: a row deleted by hand, other metadata, another
    chunkwise version or a damaged record make the files be read again. A remote
    store keeps no record: every file is read, as before."""
    uri = _db(store, tmp_path, postgres)
    docs = _docs(tmp_path / "docs")
    (docs / "note4.md").write_text("# Note 4\n\n" + "".join(  # several chunks
        f"Paragraph {j} of the long note covers subject {j} in some detail.\n\n"
        for j in range(120)))
    local = not uri.startswith("postgresql")
    read = _count_reads(monkeypatch)
    with Index(uri) as index:  # one client: Qdrant's local mode locks its folder
        first = index.sync(docs, embedder=static_embedder)
        assert first.unchanged == 0 and len(read) == 6
        want = sorted((r["id"], r["text"]) for r in index.store.rows()[0])

        read.clear()
        again = index.sync(docs, embedder=static_embedder)
        assert (again.unchanged, len(read)) == ((6, 0) if local else (0, 6))
        assert (again.documents, again.chunks, again.reused) == (6, first.chunks, first.chunks)
        assert sorted((r["id"], r["text"]) for r in index.store.rows()[0]) == want

        read.clear()
        (docs / "note2.md").write_text("# Note 2\n\nA rewritten note about zebras.\n")
        edited = index.sync(docs, embedder=static_embedder)
        assert read == ["note2.md"] if local else len(read) == 6
        assert edited.changed == 1 and edited.embedded >= 1
        assert "zebras" in index.search("zebras", k=1)[0].row["text"]

        if local:
            # a row removed behind the record's back: that file is read and mended
            victim = next(r for r in index.store.rows()[0] if r["doc_id"].endswith("note4.md"))
            index.store.delete([victim["id"]])
            index.store.finish()
            read.clear()
            mended = index.sync(docs, embedder=static_embedder)
            assert read == ["note4.md"] and mended.embedded == 1
            assert index.check().clean

            read.clear()
            index.sync(docs, embedder=static_embedder, metadata={"team": "a"})
            assert len(read) == 6  # other settings: every file
            read.clear()
            index.sync(docs, embedder=static_embedder, reread=True, metadata={"team": "a"})
            assert len(read) == 6  # asked to
            import chunkwise.index.unchanged as unchanged

            monkeypatch.setattr(unchanged, "chunkwise_version", lambda: "99.0")
            read.clear()
            index.sync(docs, embedder=static_embedder, metadata={"team": "a"})
            assert len(read) == 6  # another chunkwise
            assert index.store.local_path is not None
            record = index.store.local_path / "chunkwise-unchanged.json"
            record.write_text("{not json")
            read.clear()
            index.sync(docs, embedder=static_embedder, metadata={"team": "a"})
            assert len(read) == 6  # a damaged record: every file, then a good record
            read.clear()
            assert index.sync(docs, embedder=static_embedder,
                              metadata={"team": "a"}).unchanged == 6 and not read
        assert len({r["id"] for r in index.store.rows()[0]}) == len(index.store.rows()[0])
        assert index.check().clean



def test_a_change_to_chunkwise_code_reads_every_file_again(tmp_path, static_embedder,
                                                          monkeypatch):
    """The record holds a digest of chunkwise's source files with its version: in a
    development checkout (the version the same until a release) a pulled change to
    the chunking code makes the next sync read every file again, as a new release
    does; unchanged code passes them over."""
    import chunkwise.index.unchanged as unchanged

    assert (unchanged.SOURCE / "engine.py").is_file()  # the package's own source
    code = tmp_path / "code"
    (code / "strategies").mkdir(parents=True)
    (code / "strategies" / "cut.py").write_text("SIZE = 160\n")
    monkeypatch.setattr(unchanged, "SOURCE", code)
    docs = _docs(tmp_path / "docs")
    read = _count_reads(monkeypatch)
    with Index(str(tmp_path / "idx")) as index:
        first = index.sync(docs, embedder=static_embedder)
        read.clear()
        assert index.sync(docs, embedder=static_embedder).unchanged == first.documents
        assert read == []
        (code / "strategies" / "cut.py").write_text("SIZE = 161\n")  # the code pulled
        unchanged.source_digest.cache_clear()  # (a new process)
        again = index.sync(docs, embedder=static_embedder)
        assert again.unchanged == 0 and len(read) == first.documents
        assert (again.embedded, again.reused) == (0, first.chunks)  # same chunks: no embedding
        read.clear()
        assert index.sync(docs, embedder=static_embedder).unchanged == first.documents
        assert read == []

def test_a_file_edited_while_it_is_read_leaves_no_entry(tmp_path, static_embedder, monkeypatch):
    """The record keeps a file's digest only when the file still has the bytes it
    had before it was read: edited between the two (here: just before its reader
    opens it), then put back as it was, it is read again, not passed over with
    the rows of the edit."""
    import chunkwise.readers as readers

    docs = _docs(tmp_path / "docs", n=3)
    target = docs / "note1.md"
    before = target.read_bytes()
    real = readers.read_path

    def racing(path, *a, **k):
        if Path(path).name == "note1.md" and b"late edit" not in Path(path).read_bytes():
            Path(path).write_bytes(before + b"\nA late edit about walruses.\n")
        return real(path, *a, **k)

    uri = str(tmp_path / "idx")
    with Index(uri) as index:
        monkeypatch.setattr(readers, "read_path", racing)
        index.sync(docs, embedder=static_embedder)
        monkeypatch.setattr(readers, "read_path", real)
        assert any("walruses" in r["text"] for r in index.store.rows()[0])
        target.write_bytes(before)  # the bytes whose digest was taken before the read
        report = index.sync(docs, embedder=static_embedder)
        assert report.unchanged == 2 and report.changed == 1
        assert not any("walruses" in r["text"] for r in index.store.rows()[0])
        assert index.sync(docs, embedder=static_embedder).unchanged == 3
        assert index.check().clean


def test_the_summary_says_how_many_files_were_not_read_again(tmp_path, capsys, static_embedder):
    docs = _docs(tmp_path / "docs", n=4)
    db = tmp_path / "idx"
    assert _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder)[0] == 0
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder)
    assert code == 0 and "4 files unchanged, not read again" in out
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                        "--reread")
    assert code == 0 and "not read again" not in out and "0 changed" in out


def test_a_long_lived_index_syncs_after_another_wrote_and_cleaned_up(tmp_path, static_embedder):
    """An Index kept open (a watch, a notebook) syncs again after another run wrote the
    index and cleaned up the files of older versions: it diffs against the latest
    rows, not against the version its handle opened (which can no longer be read)."""
    docs = _docs(tmp_path / "docs", n=4)
    db = str(tmp_path / "idx")
    with Index(db) as kept:
        kept.sync(docs, embedder=static_embedder)
        (docs / "note1.md").write_text("# Note 1\n\nRewritten by another run.\n")
        with Index(db) as other:
            other.sync(docs, embedder=static_embedder)
        (docs / "note2.md").write_text("# Note 2\n\nThen changed for the kept index.\n")
        report = kept.sync(docs, embedder=static_embedder)
    assert report.changed == 1 and report.embedded == 1
    texts = {r["doc_id"]: r["text"] for r in _rows(db)}
    assert "Rewritten by another run." in texts["note1.md"]
    assert "Then changed for the kept index." in texts["note2.md"]
    ids = [r["id"] for r in _rows(db)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("retriever", ["dense", "hybrid"])
def test_a_long_lived_index_searches_what_another_run_wrote(tmp_path, static_embedder,
                                                            retriever):
    """An Index kept open for searching (a notebook, an application) finds what
    another run wrote since it was opened, after that run cleaned up the files of
    older versions: never the version its handle opened, never an error."""
    docs = _docs(tmp_path / "docs", n=4)
    db = str(tmp_path / "idx")
    with Index(db) as other:
        other.sync(docs, embedder=static_embedder)
    with Index(db) as kept:
        assert kept.search("topic 8", retriever=retriever)
        (docs / "note1.md").write_text("# Note 1\n\nZebras graze beside the lighthouse.\n")
        (docs / "note3.md").unlink()
        with Index(db) as other:
            other.sync(docs, embedder=static_embedder, prune=True)
        hits = kept.search("zebras graze beside the lighthouse", k=20, retriever=retriever)
    texts = [h.row["text"] for h in hits]
    assert any("Zebras graze" in t for t in texts)
    assert not any(h.row["doc_id"] == "note3.md" for h in hits)
    assert not any("of note 1 says" in t for t in texts)


def test_a_lancedb_index_with_a_data_file_gone_is_a_one_line_error_and_repairs(
        tmp_path, capsys, static_embedder):
    """A data file of the index deleted (a half-copied folder, a clean-up gone wrong):
    search, index and --check say so in one line naming the index (no traceback out of
    lancedb); --check --repair removes the unreadable rows, keeps the configuration,
    and the next run embeds every document again."""
    docs = _docs(tmp_path / "docs", n=3)
    db = str(tmp_path / "idx")
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    assert _run(capsys, "index", docs, *base)[0] == 0
    data = list((tmp_path / "idx" / "chunks.lance" / "data").glob("*.lance"))
    assert data
    for f in data:
        f.unlink()
    code, out, err = _run(capsys, "search", "topic 15", "--db", db)
    assert code == 2 and not out
    assert err.count("\n") == 1 and f"index {db}: " in err and "Not found" in err
    assert "--check --repair" in err and "Traceback" not in err and ".rs:" not in err
    with Index(db) as index, pytest.raises(chunkwise.StoreError, match="Not found"):
        index.search("topic 15")
    code, out, err = _run(capsys, "index", docs, *base)
    assert code == 2 and err.count("\n") == 1 and "Not found" in err
    code, out, err = _run(capsys, "index", "--check", "--db", db)
    assert code == 1 and "rows cannot be read" in out
    code, out, err = _run(capsys, "index", "--check", "--repair", "--db", db)
    assert code == 0 and "repaired" in out
    code, out, err = _run(capsys, "index", docs, *base)  # the same settings: accepted
    assert code == 0 and "3 changed" in out, err
    code, out, err = _run(capsys, "index", "--check", "--db", db)
    assert code == 0 and "3 documents" in out and out.rstrip().endswith("clean")
    code, out, err = _run(capsys, "search", "topic 15", "--db", db)
    assert code == 0 and "note2.md" in out


def test_two_first_runs_at_once_both_open_the_new_index(tmp_path, monkeypatch):
    """Two ``chunkwise index DOCS --db NEW`` started together (found by hand: the
    second died with a FileExistsError traceback): each saw no folder, and the one
    that created it second failed. The folder another run made in between is used."""
    import pathlib

    from chunkwise.index.lance import LanceStore

    db = tmp_path / "db"
    db.mkdir()  # the other run made it after this one looked
    real_exists = pathlib.Path.exists

    def exists(self, *args, **kwargs):
        return False if self == db else real_exists(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "exists", exists)
    store = LanceStore(str(db))
    monkeypatch.undo()
    assert store.local_path == pathlib.Path(os.path.realpath(db))


@pytest.mark.parametrize("name", ["my index #1 %20 ü?", "a%2Fb", "q?x=1&y=2"])
def test_an_index_folder_named_like_a_url_is_that_folder(tmp_path, capsys, static_embedder, name):
    """Lance names tables by URI; a folder whose name holds what a URI escapes or
    cuts (a space, ``#``, ``%20``, ``%2F``, ``?``, ``&``, a non-ASCII letter) is
    still that folder: the index is written there, not beside it or below a
    decoded name, and indexes, searches and checks as any."""
    docs = _docs(tmp_path / "docs", n=3)
    db = tmp_path / name / "idx"
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    code, out, err = _run(capsys, "index", docs, *base)
    assert code == 0, err
    assert sorted(p.name for p in db.iterdir() if p.suffix == ".lance") == [
        "chunks.lance", "chunkwise_config.lance"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["docs", name])
    code, out, _ = _run(capsys, "search", "topic 15", "--db", db, "--retriever", "dense")
    assert code == 0 and "note2.md" in out
    code, out, _ = _run(capsys, "index", "--check", "--db", db)
    assert code == 0 and out.rstrip().endswith("clean")
    code, out, _ = _run(capsys, "index", docs, *base)
    assert code == 0 and "0 changed" in out


def test_a_file_that_failed_is_not_read_again_until_it_changes(tmp_path, capsys, static_embedder,
                                                               monkeypatch):
    """A file that cannot be read (a PDF of glyph codes takes seconds to refuse) was
    read again by every sync, a watch's too: its problem is now told again from the
    record while its bytes and the settings are the same; --reread, an edit or a
    fixed file reads it."""
    docs = _docs(tmp_path / "docs", n=2)
    bad = docs / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + b"garbage " * 500)
    db = tmp_path / "idx"
    base = ["index", docs, "--db", db, "--embedder", static_embedder, "--no-progress"]
    reads = _count_reads(monkeypatch)
    code, out, err = _run(capsys, *base)
    assert code == 2 and "broken.pdf: not a readable PDF" in err and reads.count("broken.pdf") == 1
    code, out, err = _run(capsys, *base)
    assert code == 2 and "broken.pdf: not a readable PDF" in err
    assert "(unchanged since it failed: not read again; --reread reads it)" in err
    assert reads.count("broken.pdf") == 1 and "2 files unchanged" in out
    code, _, err = _run(capsys, *base, "--reread")
    assert code == 2 and reads.count("broken.pdf") == 2 and "unchanged since" not in err
    bad.write_bytes(b"%PDF-1.7\n" + b"other garbage " * 500)  # changed: read again
    code, _, err = _run(capsys, *base)
    assert code == 2 and reads.count("broken.pdf") == 3 and "unchanged since" not in err
    bad.unlink()
    (docs / "broken.md").write_text("# Fixed\n\nNow a note about herons.\n")
    code, out, err = _run(capsys, *base)
    assert code == 0 and not err and "1 changed" in out
    record = json.loads((db / "chunkwise-unchanged.json").read_text())
    assert record["failed"] == {}


def test_index_reads_in_the_input_format_given(tmp_path, capsys, static_embedder):
    """``index --input-format`` was accepted and did nothing: Markdown in a .txt file
    was cut as plain text, without heading trails."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.txt").write_text("# Install\n\nRun the installer first.\n\n## Linux\n\n"
                                    "Use apt to install the package on Linux.\n")
    db = tmp_path / "idx"
    code, _, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                        "--no-progress", "--input-format", "markdown")
    assert code == 0, err
    code, out, _ = _run(capsys, "search", "apt on Linux", "--db", db, "--json", "-k", "1")
    hit = json.loads(out.splitlines()[0])
    assert hit["headings"] == ["Install", "Linux"]
    # another format reads the file again (the record of unchanged files knows it)
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                        "--no-progress")
    assert code == 0 and "not read again" not in out and "1 changed" in out
