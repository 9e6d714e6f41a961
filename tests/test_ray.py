"""Ray Data engine on a local Ray with 2 CPUs: the same rows as one process."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chunkwise
from chunkwise.errors import ConfigError

ray = pytest.importorskip("ray")
cr = pytest.importorskip("chunkwise.ray")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray():
    cr.init(num_cpus=2)
    yield
    ray.shutdown()


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    for p in sorted((ROOT / "samples").glob("*.*")):
        (folder / p.name).write_bytes(p.read_bytes())
    (folder / "page.html").write_text("<html><body><article><h1>Title</h1><p>"
                                      + "A sentence about shipping. " * 80
                                      + "</p></article></body></html>")
    (folder / "notes.txt").write_text("\n\n".join(f"Paragraph {i}. " + "word " * 60
                                                  for i in range(30)))
    (folder / "empty.md").write_text("")
    return folder


def test_rows_are_those_of_one_process(tmp_path, local_ray):
    folder = _corpus(tmp_path / "docs")
    for strategy, options in [("auto", {"size": 64}), ("recursive", {"size": 48, "overlap": 8}),
                              ("section", {"size": 96})]:
        rows = cr.chunk_dataset(cr.read_paths(folder), strategy, **options).take_all()
        one = cr.chunk_rows(chunkwise.chunk(folder, strategy, **options))  # type: ignore[arg-type]
        assert len(one) > 10
        assert rows == one, strategy
        # and back to the same chunks
        assert [chunkwise.Chunk.from_dict(r) for r in rows] == chunkwise.chunk(
            folder, strategy, **options)  # type: ignore[arg-type]


def test_text_rows_keep_their_ids_and_a_bad_row_fails_or_is_skipped(local_ray):
    texts = {"a": "First document. " * 50, "b": "Second one, shorter."}
    ds = ray.data.from_items([{"doc_id": k, "text": v} for k, v in texts.items()])
    rows = cr.chunk_dataset(ds, "sentence", size=32).take_all()
    assert rows == cr.chunk_rows(chunkwise.chunk(texts, "sentence", size=32))
    assert {r["doc_id"] for r in rows} == {"a", "b"}

    bad = ray.data.from_items([{"doc_id": "x", "text": "fine text", "path": None},
                               {"doc_id": "y", "text": None, "path": "/no/such/file.txt"}])
    with pytest.raises(Exception, match="/no/such/file.txt"):
        cr.chunk_dataset(bad, "recursive", size=32).take_all()
    kept = cr.chunk_dataset(bad, "recursive", size=32, on_error="skip").take_all()
    assert [r["doc_id"] for r in kept] == ["x"]


def test_options_are_checked_before_any_task(local_ray):
    ds = ray.data.from_items([{"text": "x"}])
    with pytest.raises(ConfigError, match="widht"):
        cr.chunk_dataset(ds, "recursive", widht=3)
    with pytest.raises(ConfigError, match="on_error"):
        cr.chunk_dataset(ds, "recursive", on_error="ignore")


def test_embedding_adds_the_vectors_of_the_local_embedder(local_ray):
    from chunkwise.embed import get_embedder

    texts = {"a": "Express delivery costs more. " * 20, "b": "Returns within 30 days."}
    ds = ray.data.from_items([{"doc_id": k, "text": v} for k, v in texts.items()])
    rows = cr.embed_dataset(cr.chunk_dataset(ds, "recursive", size=32), "minilm-onnx",
                            batch_size=4).take_all()
    expected = get_embedder("minilm-onnx").embed([r["embed_text"] for r in rows])
    got = np.array([r["vector"] for r in rows], dtype=np.float32)
    assert got.shape == expected.shape and got.shape[1] == 384
    assert np.allclose(got, expected, atol=1e-5)


def test_cli_engine_ray_writes_what_the_local_engine_writes(tmp_path):
    folder = _corpus(tmp_path / "docs")
    (folder / "bad.txt").write_bytes(b"caf\xe9 au lait " * 20)  # Latin-1, not UTF-8
    # what the walk leaves out, Ray leaves out too
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "pkg.md").write_text("# A package\n\nIts readme.\n")
    (folder / "skipped.md").write_text("# Skipped\n\nLeft out by --exclude.\n")
    cmd = [sys.executable, "-m", "chunkwise.cli", "chunk", str(folder), "--size", "64",
           "--exclude", "skipped.md"]
    local = subprocess.run(cmd + ["-o", str(tmp_path / "local.jsonl")], capture_output=True,
                           text=True, timeout=300)
    remote = subprocess.run(cmd + ["-o", str(tmp_path / "ray.jsonl"), "--engine", "ray",
                                   "--workers", "2"], capture_output=True, text=True, timeout=600)
    assert local.returncode == remote.returncode == 2, remote.stderr
    assert "bad.txt" in remote.stderr and "Traceback" not in remote.stderr
    lines = (tmp_path / "ray.jsonl").read_text().splitlines()
    assert len(lines) > 10 and lines == (tmp_path / "local.jsonl").read_text().splitlines()
    assert all(json.loads(line)["doc_id"] for line in lines)
    assert not any("pkg.md" in line or "skipped.md" in line for line in lines)


def test_cli_engine_ray_refuses_standard_input(capsys):
    from chunkwise.cli import main

    assert main(["chunk", "-", "--engine", "ray"]) == 2
    assert "standard input" in capsys.readouterr().err
