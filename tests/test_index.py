"""chunkwise index / search against real stores: LanceDB (embedded), Qdrant (local
mode) and PostgreSQL with pgvector (a throw-away server from pgserver), on
a real documentation folder: 243 Markdown files of FastAPI's and Pydantic's docs
(tests/data/docs, MIT)."""

import json
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from chunkwise.cli import main

pytestmark = pytest.mark.slow

DOCS = Path(__file__).parent / "data" / "docs" / "fastapi-pydantic-docs.tar.xz"
STORES = ["lancedb://{tmp}/lance", "qdrant+local://{tmp}/qdrant", "{postgres}&table=t{n}"]


_TABLES = iter(range(10**6))


def _db(template, tmp_path, postgres):
    return template.format(tmp=tmp_path, postgres=postgres, n=next(_TABLES))


def _docs(folder: Path) -> Path:
    folder.mkdir()
    with tarfile.open(DOCS) as tar:
        tar.extractall(folder, filter="data")
    assert len(list(folder.rglob("*.md"))) == 243
    return folder


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _summary(out):
    m = re.search(r"documents ([\d,]+) \(([\d,]+) changed, ([\d,]+) removed\) chunks ([\d,]+) "
                  r"\(([\d,]+) embedded, ([\d,]+) reused\)", out)
    assert m, out
    return [int(g.replace(",", "")) for g in m.groups()]


def _state(uri):
    from chunkwise.index import open_store

    store = open_store(uri)
    try:
        return store.state()
    finally:
        store.close()


@pytest.mark.parametrize("template", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_index_is_incremental_and_search_follows_the_files(capsys, tmp_path, template,
                                                          static_embedder, postgres):
    EMBEDDER = static_embedder
    docs = _docs(tmp_path / "docs")
    db = _db(template, tmp_path, postgres)
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                          "--size", "128", "--no-progress")
    assert code == 0, err
    n_docs, changed, removed, n_chunks, embedded, reused = _summary(out)
    assert n_docs == changed == 243 and embedded == n_chunks > 10 * n_docs
    assert re.search(r" s \([\d,.]+ chunks/s\)$", out.strip())  # the throughput, last
    first = _state(db)
    assert sum(len(v) for v in first.values()) == n_chunks

    # unchanged: nothing embedded
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "128", "--no-progress")
    assert _summary(out)[1:] == [0, 0, n_chunks, 0, n_chunks] and _state(db) == first

    # edit one (a new paragraph on top: later chunks keep their ids, their offsets move),
    # delete one, add one
    edited = docs / "pydantic" / "why.md"
    text = edited.read_text()
    head, _, rest = text.partition("\n\n## ")
    edited.write_text(f"{head}\n\nA new opening paragraph about zeppelin maintenance.\n\n## {rest}")
    gone = docs / "pydantic" / "concepts" / "alias.md"
    gone_text = "validation_alias and serialization_alias on a Field"
    assert "validation_alias" in gone.read_text()
    gone.unlink()
    (docs / "new.md").write_text("# Penguins\n\n## Logistics\n\nEmperor penguins are moved "
                                 "between aquariums in refrigerated trucks kept at minus "
                                 "five degrees.\n")
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "128", "--no-progress", "--prune")
    n_docs2, changed2, removed2, n_chunks2, embedded2, reused2 = _summary(out)
    after = _state(db)
    new_ids = {i for doc, ids in after.items() for i in ids} - {
        i for ids in first.values() for i in ids}
    assert n_docs2 == 243 and removed2 == 1 and changed2 == 2
    assert embedded2 == len(new_ids) <= 4
    assert reused2 == n_chunks2 - embedded2
    # documents are named relative to the index's root: the folder given
    assert "pydantic/concepts/alias.md" not in after and "new.md" in after
    # offsets of the edited file are its new ones (rows rewritten, vectors kept)
    from chunkwise.index import open_store

    store = open_store(db)
    rows, _ = store.rows()
    store.close()
    edited_text = edited.read_text()
    for r in rows:
        if r["doc_id"] == "pydantic/why.md":
            assert r["source"] == str(edited)  # the file itself, canonically spelled
            assert edited_text[r["start"]:r["end"]] == r["text"]

    code, out, _ = _run(capsys, "search", "penguins moved in refrigerated trucks", "--db", db,
                        "-k", "3", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and hits[0]["doc_id"] == "new.md"
    assert all(h["doc_id"] != "pydantic/concepts/alias.md" for h in hits)
    code, out, _ = _run(capsys, "search", gone_text, "--db", db, "-k", "5", "--json")
    assert all(json.loads(line)["doc_id"] != "pydantic/concepts/alias.md"
               for line in out.splitlines())
    code, out, _ = _run(capsys, "search", "zeppelin maintenance", "--db", db, "-k", "1")
    assert code == 0 and re.match(rf"1\. {re.escape(str(edited))}:\d+-\d+  score ", out)
    code, out, _ = _run(capsys, "search", "zeppelin maintenance", "--db", db, "-k", "1",
                        "--json")
    assert "zeppelin" in json.loads(out)["text"]
    # dense search by the store itself ranks as the evaluation's dense retriever does
    from chunkwise.embed import get_embedder
    from chunkwise.retrieval import search_rows

    store = open_store(db)
    rows, vectors = store.rows()
    question = "how do I declare a request body with a Pydantic model"
    native = [h.row["id"] for h in store.search(
        get_embedder(EMBEDDER).embed([question])[0], 10)]
    in_memory = [h.row["id"] for h in search_rows(rows, vectors, question,
                                                   get_embedder(EMBEDDER), k=10,
                                                   retriever="dense")]
    assert native[:5] == in_memory[:5] and len(set(native) & set(in_memory)) >= 9
    store.close()
    code, out, _ = _run(capsys, "search", question, "--db", db, "--retriever", "dense",
                        "--json", "-k", "10")
    assert [json.loads(line)["id"] for line in out.splitlines()] == native

    # another configuration is refused (and the index left as it was)
    code, _, err = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "64", "--no-progress")
    assert code == 2 and "--rebuild" in err and "size" in err and _state(db) == after


@pytest.mark.parametrize("template", STORES, ids=["lancedb", "qdrant", "postgres"])
def test_rebuild_replaces_the_index(capsys, tmp_path, template, static_embedder, postgres):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"{i}.md").write_text(f"# Doc {i}\n\n" + f"Sentence {i} about couriers. " * 60)
    db = _db(template, tmp_path, postgres)
    base = ["index", docs, "--db", db, "--embedder", static_embedder, "--no-progress"]
    code, out, err = _run(capsys, *base, "--size", "128")
    assert code == 0, err
    before = _state(db)
    code, _, err = _run(capsys, *base, "--size", "32")
    assert code == 2 and "--rebuild" in err and _state(db) == before
    code, out, err = _run(capsys, *base, "--size", "32", "--rebuild")
    n_docs, changed, removed, n_chunks, embedded, reused = _summary(out)
    after = _state(db)
    assert code == 0 and embedded == n_chunks == sum(len(v) for v in after.values())
    assert n_chunks > sum(len(v) for v in before.values()) and not (
        {i for v in after.values() for i in v} & {i for v in before.values() for i in v})
    code, out, _ = _run(capsys, *base, "--size", "32")
    assert code == 0 and _summary(out)[4] == 0  # the new configuration is the stored one


@pytest.mark.parametrize("store", ["lancedb", "postgres"])
def test_a_killed_run_is_finished_by_the_next(tmp_path, capsys, static_embedder, postgres,
                                              store):
    EMBEDDER = static_embedder
    docs = _docs(tmp_path / "docs")
    template = "lancedb://{tmp}/{name}" if store == "lancedb" else STORES[2]
    killed = _db(template.replace("{name}", "killed"), tmp_path, postgres)
    clean = _db(template.replace("{name}", "clean"), tmp_path, postgres)
    cmd = [sys.executable, "-m", "chunkwise.cli", "index", str(docs), "--db", killed,
           "--embedder", EMBEDDER, "--size", "128", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and not _state(killed):  # until it has begun writing
        time.sleep(0.05)
    time.sleep(0.5)
    proc.kill()
    proc.wait()
    assert proc.returncode != 0  # killed before the end
    half = _state(killed)
    partial = sum(len(v) for v in half.values())
    assert 0 < len(half) < 243
    code, out, err = _run(capsys, "index", docs, "--db", killed, "--embedder", EMBEDDER,
                          "--size", "128", "--no-progress")
    assert code == 0, err
    assert _summary(out)[5] >= partial  # what the killed run wrote is reused
    code, _, err = _run(capsys, "index", docs, "--db", clean, "--embedder", EMBEDDER,
                        "--size", "128", "--no-progress")
    assert code == 0, err
    final = _state(clean)
    assert _state(killed) == final
    if store == "postgres":  # one transaction per document: none was left half-written
        assert all(half[doc] == final[doc] for doc in half)


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_an_interrupted_run_says_what_it_left(tmp_path, static_embedder, how):
    """Ctrl-C during `index` said "no partial output was left", as `chunk` does; an
    index keeps what the run wrote, searchable, and the next run reuses it. SIGTERM
    (a service stopped, a container's timeout) ends it the same way, the batch being
    embedded written first (it was dropped: 25 s of MiniLM work lost on /usr/share/info)."""
    import signal

    docs = _docs(tmp_path / "docs")
    db = f"lancedb://{tmp_path}/idx"
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "index", str(docs), "--db",
                             db, "--embedder", static_embedder, "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and not _state(db):  # until it has begun writing
        time.sleep(0.05)
    os.killpg(proc.pid, getattr(signal, how))
    _, err = proc.communicate(timeout=120)
    said = "interrupted" if how == "SIGINT" else "terminated"
    assert proc.returncode == (130 if how == "SIGINT" else 143), err
    assert f"{said}; what the index holds stays searchable; the next run finishes the " \
           "rest" in err and "no partial output" not in err and "Traceback" not in err


def test_a_ctrl_c_while_a_batch_embeds_keeps_it_and_never_embeds_twice_at_once(tmp_path,
                                                                               monkeypatch):
    """Ctrl-C while `index` waited for the batch the model was embedding (MiniLM, the
    Rust book's pages): the batch was dropped (its documents never written) and, still
    embedding on the worker, raced the clean-up's embedding of the rest through the
    same tokenizer: "IndexError: index 3561 is out of bounds" and a traceback. Now the
    interrupted wait keeps the batch, the clean-up waits for it and writes it, then
    embeds the rest, one embedding at a time."""
    import signal
    import threading

    import numpy as np

    import chunkwise
    from chunkwise.index import open_store, sync_documents
    from chunkwise.index import sync as sync_module
    from chunkwise.readers import parse

    monkeypatch.setattr(sync_module, "BATCH_ROWS", 1)  # a batch a document
    main = threading.get_ident()

    class Slow:
        name, dim = "slow", 4

        def __init__(self):
            self.busy, self.overlapped, self.calls = threading.Lock(), False, 0

        def embed(self, texts):
            if not self.busy.acquire(blocking=False):
                self.overlapped = True
                self.busy.acquire()
            try:
                self.calls += 1
                if self.calls == 1:  # the first batch: Ctrl-C while the caller waits for it
                    time.sleep(0.5)
                    signal.pthread_kill(main, signal.SIGINT)
                    time.sleep(0.5)
                return np.ones((len(texts), 4), dtype=np.float32)
            finally:
                self.busy.release()

    def documents():
        for i in range(4):
            doc = parse(f"# Page {i}\n\nThe text of page {i}.\n", f"p{i}.md")
            yield doc, chunkwise.chunk(doc)

    store, model = open_store(f"lancedb://{tmp_path}/idx"), Slow()
    try:
        with pytest.raises(KeyboardInterrupt):
            sync_documents(store, model, documents())
        written = set(store.state())
    finally:
        store.close()
    assert not model.overlapped
    assert {"p0.md", "p1.md"} <= written  # the batch embedding, and the one gathered


def test_expand_returns_parents_of_a_hierarchical_index(capsys, tmp_path, static_embedder):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Fleet\n\n" + "".join(
        f"## Part {i}\n\n" + f"Paragraph {i} about routine truck servicing schedules. " * 20
        + "\n\n" for i in range(6)) + "## Cold chain\n\nEmperor penguins travel in "
        "refrigerated trucks kept at minus five degrees.\n")
    db = f"lancedb://{tmp_path}/h"
    code, _, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                        "--strategy", "hierarchical", "--sizes", "256,48", "--no-progress")
    assert code == 0, err
    code, out, _ = _run(capsys, "search", "penguins in refrigerated trucks", "--db", db,
                        "-k", "2", "--json", "--expand")
    hits = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and hits and "penguins" in hits[0]["text"]
    assert all(h["level"] == 0 and h["parent_id"] is None for h in hits)
    assert len({h["id"] for h in hits}) == len(hits)
    flat = f"lancedb://{tmp_path}/flat"
    _run(capsys, "index", docs, "--db", flat, "--embedder", static_embedder, "--no-progress")
    code, _, err = _run(capsys, "search", "penguins", "--db", flat, "--expand")
    assert code == 2 and "hierarchical" in err


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_chunk_embed_writes_the_vectors(capsys, tmp_path, static_embedder, fmt):
    import numpy as np

    from chunkwise.embed import get_embedder

    src = tmp_path / "a.md"
    src.write_text("# Title\n\n" + "A paragraph about parcels and couriers. " * 40)
    out = tmp_path / f"out.{fmt}"
    code, _, err = _run(capsys, "chunk", src, "--embed", "--embedder", static_embedder,
                        "--size", "64", "-o", out, "--format", fmt)
    assert code == 0, err
    if fmt == "jsonl":
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(out).to_pylist()
    assert len(rows) > 3
    expected = get_embedder(static_embedder).embed([r["embed_text"] for r in rows])
    got = np.array([r["vector"] for r in rows], dtype=np.float32)
    assert got.shape == expected.shape and np.allclose(got, expected, atol=1e-6)


def test_postgres_keeps_text_postgres_cannot_store_and_names_a_bad_server(
        capsys, tmp_path, static_embedder, postgres):
    from chunkwise.api import chunk
    from chunkwise.embed import get_embedder
    from chunkwise.index import IndexReport, open_store, sync_document

    text = "Nul \x00 byte, emoji 🚚 and ünïcode. " * 40 + "\n\nSecond paragraph.\n"
    chunks = chunk(text, size=32)
    store = open_store(_db(STORES[2], tmp_path, postgres))
    sync_document(store, get_embedder(static_embedder), chunks[0].doc_id, chunks, {},
                  IndexReport())
    rows, vectors = store.rows()
    store.close()
    assert {r["id"]: r["text"] for r in rows} == {c.id: c.text for c in chunks}
    assert "\x00" in rows[0]["text"] and vectors.shape == (len(chunks), 64)

    code, _, err = _run(capsys, "search", "emoji", "--db",
                        "postgresql://nobody@127.0.0.1:1/none", "-k", "1")
    assert code == 2 and "cannot connect to postgresql://nobody@127.0.0.1:1/none" in err
    assert "Traceback" not in err


def test_sizes_by_kind_are_part_of_the_stored_configuration(capsys, tmp_path, static_embedder):
    """Without --size, auto cuts reference documentation at 224 tokens: an index built
    with --size 160 (every document at 160) refuses a run without it, naming the
    setting, rather than mixing 160- and 224-token chunks of one kind of page as
    files change; the other way round too."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"{i}.md").write_text(f"# Doc {i}\n\n## Part\n\n" + f"Sentence {i} about "
                                      "couriers. " * 60)
    base = ["index", docs, "--embedder", static_embedder, "--no-progress"]
    sized, default = str(tmp_path / "sized"), str(tmp_path / "default")
    code, _, err = _run(capsys, *base, "--db", sized, "--size", "160")
    assert code == 0, err
    before = _state(sized)
    code, _, err = _run(capsys, *base, "--db", sized)
    assert code == 2 and "--rebuild" in err and "kind_sizes.reference None -> 224" in err
    assert "kind_sizes: the sizes auto gives reference documentation" in err
    assert _state(sized) == before
    code, _, err = _run(capsys, *base, "--db", default)
    assert code == 0, err
    code, _, err = _run(capsys, *base, "--db", default, "--size", "160")
    assert code == 2 and "kind_sizes.reference 224 -> None" in err
    code, out, err = _run(capsys, *base, "--db", default)
    assert code == 0 and _summary(out)[4] == 0  # the stored configuration: nothing to embed


def test_the_summary_names_documents_that_gave_no_text(tmp_path, capsys, static_embedder):
    """httpx's folder holds an empty ``py.typed``: the first run said "documents 52 (51
    changed" and nothing of which. A document read that gives no chunk (an empty file,
    a page whose text its scripts make) is named, as nothing of it can be found."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHow the service rotates its keys.\n")
    (docs / "py.typed").write_text("")
    (docs / "app.html").write_text("<html><body><div id='root'></div>"
                                   "<script>render()</script></body></html>")
    db = tmp_path / "idx"
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                         "--no-progress")
    assert code == 0, err
    assert "documents 3 (1 changed, 0 removed, 2 without text: app.html, py.typed)" in out, out
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", static_embedder,
                          "--no-progress")
    # the index holds nothing of them, so they are read again, and named again
    assert code == 0 and "(0 changed, 0 removed, 2 without text: app.html, py.typed)" in out
