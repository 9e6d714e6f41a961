"""Many files on all cores (issue 12): a process pool gives the same chunks, in the
same order, with the same ids, as one process; errors and warnings still reach
the caller."""

from __future__ import annotations

import json
import warnings

import pytest

import chunkwise
from chunkwise.cli import main
from chunkwise.errors import ConfigError, ExtractionWarning, InputError, SkippedInputWarning

from helpers import SAMPLES

HTML_LOSSY = (
    "<html><head><title>t</title></head><body><article><h1>Night buses</h1>"
    "<p>Buses run all night on the north line from June, the council said.</p></article>"
    "<section id='comments'><h2>Comments</h2>" + "".join(
        f"<div class='comment'><p>Reader {i} wrote a long reply about buses, trains and the "
        f"state of the roads in the city, going on for quite a while about timetables and "
        f"fares and the weather on the platforms in winter, again and again.</p></div>"
        for i in range(40)) + "</section></body></html>")


def _corpus(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    for p in sorted(SAMPLES.rglob("*")):
        if p.is_file():
            (folder / p.name).write_bytes(p.read_bytes())
    for i in range(12):
        (folder / "sub" / f"note-{i:02d}.txt").write_text(
            f"Note {i}.\n\n" + " ".join(f"Sentence {j} of note {i} is here." for j in range(60)))
    return folder


def test_a_pool_gives_the_same_chunks_in_the_same_order(tmp_path):
    folder = _corpus(tmp_path)
    one = chunkwise.chunk(folder, size=64)
    two = chunkwise.chunk(folder, size=64, workers=2)
    assert len(one) > 50
    assert [c.to_dict() for c in two] == [c.to_dict() for c in one]
    every = chunkwise.chunk(folder, size=64, workers=None)  # every core
    assert [c.id for c in every] == [c.id for c in one]


def test_errors_and_warnings_come_back_from_the_workers(tmp_path):
    folder = _corpus(tmp_path)
    (folder / "broken.txt").write_bytes(b"caf\xe9 au lait " * 50)  # Latin-1, not UTF-8
    (folder / "talk.html").write_text(HTML_LOSSY)
    with pytest.raises(InputError, match="broken.txt"):
        chunkwise.chunk(folder, workers=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = chunkwise.chunk(folder, workers=2, on_error="skip")
    messages = [(w.category, str(w.message)) for w in caught]
    assert any(cat is SkippedInputWarning and "broken.txt" in m for cat, m in messages)
    assert any(cat is ExtractionWarning and "talk.html" in m for cat, m in messages)
    assert not any("broken.txt" in c.doc_id for c in chunks)
    seen: list[str] = []
    chunkwise.chunk(folder, workers=2, on_error=lambda exc: seen.append(exc.source))
    assert len(seen) == 1 and seen[0].endswith("broken.txt")


def test_bad_worker_counts_are_clear_errors():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ConfigError, match="workers must be a positive integer"):
            chunkwise.chunk({"a": "x", "b": "y"}, workers=bad)  # type: ignore[arg-type]


def test_the_cli_uses_a_pool_with_identical_output(tmp_path, capsys):
    folder = _corpus(tmp_path)
    outs = []
    for n in ("1", "2"):
        out = tmp_path / f"w{n}.jsonl"
        assert main(["chunk", str(folder), "--size", "64", "--workers", n, "-o", str(out)]) == 0
        outs.append([json.loads(line) for line in out.read_text().splitlines()])
    assert outs[0] == outs[1] and len(outs[0]) > 50
    capsys.readouterr()
    assert main(["chunk", str(folder), "--workers", "0"]) == 2
    assert "workers must be a positive integer" in capsys.readouterr().err


def test_every_tokenizer_backend_travels_to_workers_or_runs_in_one_process(tmp_path):
    folder = _corpus(tmp_path)
    one = chunkwise.chunk(folder, size=64, tokenizer="cl100k_base")
    two = chunkwise.chunk(folder, size=64, tokenizer="cl100k_base", workers=2)
    assert [c.to_dict() for c in two] == [c.to_dict() for c in one]
    # a lambda cannot be sent to another process: "every core" quietly runs in this
    # one, an explicit worker count says why it cannot
    words = lambda s: len(s.split())  # noqa: E731
    auto = chunkwise.chunk(folder, size=64, tokenizer=words, workers=None)
    assert [c.id for c in auto] == [c.id for c in chunkwise.chunk(folder, size=64,
                                                                  tokenizer=words)]
    with pytest.raises(ConfigError, match="cannot be sent to worker processes"):
        chunkwise.chunk(folder, size=64, tokenizer=words, workers=2)
