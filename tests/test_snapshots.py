"""Golden snapshots of where each strategy cuts a few varied documents (see
tests/snapshots/make_snapshots.py; rerun it with --write to accept a deliberate change)."""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "snapshots"
sys.path.insert(0, str(HERE))

import make_snapshots  # noqa: E402

GOLDEN = json.loads((HERE / "cuts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_cuts_unchanged(key):
    doc, config = key.split(" ")
    assert make_snapshots.snapshot(doc, *make_snapshots.CONFIGS[config]) == GOLDEN[key], (  # type: ignore[arg-type]
        f"{key}: the cuts changed; if deliberate, run tests/snapshots/make_snapshots.py --write")


def test_snapshots_cover_every_document_and_config():
    assert set(GOLDEN) == {f"{d} {c}" for d in make_snapshots.DOCS for c in make_snapshots.CONFIGS}
