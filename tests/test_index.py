"""chunkwise index / search against real stores: LanceDB (embedded) and Qdrant
(local mode). A documentation-like folder made from Chroma's wikitexts corpus
(one Markdown file per article section, and pubmed articles: about ninety files)."""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chunkwise.cli import main

pytestmark = pytest.mark.slow

WIKI = Path(__file__).resolve().parents[2] / "shared" / "eval" / "chroma" / "wikitexts.md"
STORES = ["lancedb://{tmp}/lance", "qdrant+local://{tmp}/qdrant"]


def _docs(folder: Path, limit: int = 120) -> Path:
    if not WIKI.exists():
        pytest.skip("needs ../shared/eval/chroma")
    folder.mkdir()
    article, n = "", 0
    section: list[str] = []
    title = ""

    def flush():
        nonlocal n
        body = "\n\n".join(p.strip() for p in section if p.strip())
        if body and n < limit:
            (folder / f"{n:03d}.md").write_text(f"# {article}\n\n## {title}\n\n{body}\n")
            n += 1

    for line in WIKI.read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(r" = ([^=].*?) = ", line):
            flush()
            article, title, section = m.group(1), "Overview", []
        elif m := re.fullmatch(r" = = (?:= )?([^=].*?) (?:= )?= = ", line):
            flush()  # a section or a subsection: a file of its own
            title, section = m.group(1), []
        else:
            section.append(line)
    flush()
    # and articles from the pubmed corpus, one file each
    pubmed = (WIKI.parent / "pubmed.md").read_text(encoding="utf-8")
    for part in re.split(r"\n(?=PMID: )", pubmed):
        if n >= limit:
            break
        if part.strip():
            (folder / f"{n:03d}.md").write_text(part.strip() + "\n")
            n += 1
    assert n >= 90
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

    return open_store(uri).state()


@pytest.mark.parametrize("template", STORES)
def test_index_is_incremental_and_search_follows_the_files(capsys, tmp_path, template,
                                                          static_embedder):
    EMBEDDER = static_embedder
    docs = _docs(tmp_path / "docs")
    db = template.format(tmp=tmp_path)
    code, out, err = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                          "--size", "128", "--no-progress")
    assert code == 0, err
    n_docs, changed, removed, n_chunks, embedded, reused = _summary(out)
    assert n_docs == changed == len(list(docs.glob("*.md"))) and embedded == n_chunks > n_docs
    first = _state(db)
    assert sum(len(v) for v in first.values()) == n_chunks

    # unchanged: nothing embedded
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "128", "--no-progress")
    assert _summary(out)[1:] == [0, 0, n_chunks, 0, n_chunks] and _state(db) == first

    # edit one (a new paragraph on top: later chunks keep their ids, their offsets move),
    # delete one, add one
    edited = docs / "003.md"
    text = edited.read_text()
    head, _, rest = text.partition("\n\n## ")
    edited.write_text(f"{head}\n\nA new opening paragraph about zeppelin maintenance.\n\n## {rest}")
    gone = docs / "010.md"
    gone_text = gone.read_text().split("\n\n")[-1][:80]
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
    assert removed2 == 1 and changed2 == 2 and embedded2 == len(new_ids) <= 4
    assert reused2 == n_chunks2 - embedded2
    assert str(gone) not in after and str(docs / "new.md") in after
    # offsets of the edited file are its new ones (rows rewritten, vectors kept)
    from chunkwise.index import open_store

    rows, _ = open_store(db).rows()
    edited_text = edited.read_text()
    for r in rows:
        if r["doc_id"] == str(edited):
            assert edited_text[r["start"]:r["end"]] == r["text"]

    code, out, _ = _run(capsys, "search", "penguins moved in refrigerated trucks", "--db", db,
                        "-k", "3", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and hits[0]["doc_id"] == str(docs / "new.md")
    assert all(h["doc_id"] != str(gone) for h in hits)
    code, out, _ = _run(capsys, "search", gone_text, "--db", db, "-k", "5", "--json")
    assert all(json.loads(line)["doc_id"] != str(gone) for line in out.splitlines())
    code, out, _ = _run(capsys, "search", "zeppelin maintenance", "--db", db, "-k", "1")
    assert code == 0 and "003.md:" in out and "zeppelin" in out

    # another configuration is refused, then rebuilt on request
    code, _, err = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "64", "--no-progress")
    assert code == 2 and "--rebuild" in err
    code, out, _ = _run(capsys, "index", docs, "--db", db, "--embedder", EMBEDDER,
                        "--size", "64", "--no-progress", "--rebuild")
    assert code == 0 and _summary(out)[4] == _summary(out)[3]


def test_a_killed_run_is_finished_by_the_next(tmp_path, capsys, static_embedder):
    EMBEDDER = static_embedder
    docs = _docs(tmp_path / "docs")
    killed = f"lancedb://{tmp_path}/killed"
    clean = f"lancedb://{tmp_path}/clean"
    cmd = [sys.executable, "-m", "chunkwise.cli", "index", str(docs), "--db", killed,
           "--embedder", EMBEDDER, "--size", "128", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    lance = tmp_path / "killed" / "chunks.lance"
    while time.time() < deadline and not lance.exists():  # until it has begun writing
        time.sleep(0.05)
    time.sleep(1.0)
    proc.kill()
    proc.wait()
    assert proc.returncode != 0  # killed before the end
    partial = sum(len(v) for v in _state(killed).values())
    code, out, err = _run(capsys, "index", docs, "--db", killed, "--embedder", EMBEDDER,
                          "--size", "128", "--no-progress")
    assert code == 0, err
    assert _summary(out)[5] >= partial  # what the killed run wrote is reused
    code, _, err = _run(capsys, "index", docs, "--db", clean, "--embedder", EMBEDDER,
                        "--size", "128", "--no-progress")
    assert code == 0, err
    assert _state(killed) == _state(clean)


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
