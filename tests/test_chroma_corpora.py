"""The CLI on every corpus of Chroma's benchmark, every strategy, sizes 128 and 256."""

import json
from pathlib import Path

import pytest

from chunkwise.cli import main

from helpers import (
    assert_invariants,
    independent_minilm_count,
)

CORPORA = ["chatlogs", "finance", "pubmed", "state_of_the_union", "wikitexts"]


@pytest.mark.parametrize("size", [128, 256])
@pytest.mark.parametrize("strategy", ["fixed", "sentence", "recursive"])
def test_cli_on_chroma_corpora(chroma_dir, tmp_path, capsys, strategy, size):
    out = tmp_path / "chunks.jsonl"
    paths = [str(chroma_dir / f"{c}.md") for c in CORPORA]
    overlap = "0" if strategy == "sentence" else "0.125"
    code = main(["chunk", *paths, "-s", strategy, "--size", str(size), "--overlap", overlap,
                 "-o", str(out), "--no-progress"])
    capsys.readouterr()
    assert code == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    count = independent_minilm_count()
    limit = min(size, 254)
    by_doc = {}  # type: ignore[var-annotated]
    for r in rows:
        by_doc.setdefault(r["doc_id"], []).append(r)
    assert sorted(by_doc) == sorted(paths)
    from types import SimpleNamespace

    for path, doc_rows in by_doc.items():
        text = Path(path).read_bytes().decode("utf-8")
        chunks = [SimpleNamespace(**{**r, "embed_text": r["context"] + r["text"]}) for r in doc_rows]
        assert_invariants(text, chunks, limit, count)
