"""``chunkwise index --watch`` / ``Index.watch``: the index kept current while files
change, with the model loaded once; the index's own writes never wake it; it stops
cleanly (Ctrl-C, SIGTERM, a stop event). Real files, real LanceDB, real inotify (via
watchfiles); a static embedder keeps the syncs short."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from chunkwise import Index, InputError
from chunkwise.api import _watch_targets

pytestmark = pytest.mark.slow


def _wait(predicate, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _docs(folder: Path) -> Path:
    (folder / "guide").mkdir(parents=True)
    (folder / "intro.md").write_text("# Intro\n\nThe service stores invoices for seven years.\n")
    (folder / "guide" / "keys.md").write_text("# Keys\n\nRotate the signing keys every ninety "
                                              "days with the rotate command.\n")
    return folder


def _texts(db: str) -> dict[str, str]:
    with Index(db) as index:
        rows, _ = index.store.rows()
    return {r["doc_id"]: r["text"] for r in rows}


def test_index_watch_syncs_each_change_and_ignores_its_own_writes(tmp_path, static_embedder):
    docs = _docs(tmp_path / "docs")
    db = str(docs / ".index")  # inside the watched folder: its writes must not wake it
    reports: list = []
    stop = threading.Event()
    with Index(db) as index:
        runs: list[int] = []
        worker = threading.Thread(target=lambda: runs.append(index.watch(
            docs, embedder=static_embedder, prune=True, stop=stop,
            on_sync=lambda report, seconds: reports.append(report))))
        worker.start()
        _wait(lambda: len(reports) == 1)
        assert reports[0].documents == 2 and reports[0].embedded == 2
        time.sleep(1.5)  # the first sync's own writes, inside docs/, wake nothing
        assert len(reports) == 1

        (docs / "guide" / "billing.md").write_text("# Billing\n\nInvoices are sent monthly.\n")
        _wait(lambda: len(reports) == 2)
        assert reports[1].changed == 1 and reports[1].embedded == 1
        assert "Invoices are sent monthly." in " ".join(_texts(db).values())

        (docs / "intro.md").write_text("# Intro\n\nThe service keeps invoices ten years.\n")
        _wait(lambda: len(reports) == 3)
        texts = " ".join(_texts(db).values())
        assert "ten years" in texts and "seven years" not in texts

        (docs / "guide" / "keys.md").unlink()  # prune: its rows go
        _wait(lambda: len(reports) >= 4)
        _wait(lambda: not any("keys" in d for d in _texts(db)))
        assert sorted(_texts(db)) == ["guide/billing.md", "intro.md"]
        time.sleep(1.5)
        settled = len(reports)
        time.sleep(1.5)
        assert len(reports) == settled  # nothing wakes it while nothing changes

        stop.set()
        worker.join(timeout=30)
        assert not worker.is_alive()
    assert runs == [settled]


def test_index_watch_sleeps_through_what_the_walk_leaves_out(tmp_path, static_embedder):
    """A build output the project's .gitignore names (or --exclude) changing wakes no
    sync, nor does a file no walk reads by its name (an image a build writes, the lock
    file ``npm install`` rewrites: each woke a sync, and a rescan, until 2026-12-06); a
    change to the .gitignore itself does, and what it no longer names is read."""
    docs = _docs(tmp_path / "docs")
    (docs / ".gitignore").write_text("build/\n")
    (docs / "build").mkdir()
    reports: list = []
    stop = threading.Event()
    with Index(str(tmp_path / "idx")) as index:
        worker = threading.Thread(target=lambda: index.watch(
            docs, embedder=static_embedder, stop=stop, exclude=["*.tmp"],
            on_sync=lambda report, seconds: reports.append(report)))
        worker.start()
        _wait(lambda: len(reports) == 1)
        for i in range(3):
            (docs / "build" / f"out{i}.md").write_text(f"# Out {i}\n\nGenerated.\n")
            (docs / f"scratch{i}.tmp").write_text("scratch\n")
            (docs / "guide" / f"figure{i}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(i))
            (docs / "package-lock.json").write_text(f'{{"lockfileVersion": {i}}}\n')
            (docs / "uv.lock").write_text(f"version = {i}\n")
        time.sleep(2.0)
        assert len(reports) == 1  # nothing the walk reads changed
        (docs / ".gitignore").write_text("# nothing ignored\n")
        _wait(lambda: len(reports) == 2)
        assert sorted(_texts(str(tmp_path / "idx"))) == [
            "build/out0.md", "build/out1.md", "build/out2.md", "guide/keys.md", "intro.md"]
        stop.set()
        worker.join(timeout=30)
        assert not worker.is_alive()


def test_index_watch_model_is_loaded_once(tmp_path, static_embedder):
    docs = _docs(tmp_path / "docs")
    with Index(str(tmp_path / "idx")) as index:
        index.sync([str(docs)], embedder=static_embedder)
        first = index._models[static_embedder]
        (docs / "intro.md").write_text("# Intro\n\nChanged.\n")
        index.sync([str(docs)], embedder=static_embedder)
        assert index._models[static_embedder] is first


def test_watch_targets(tmp_path):
    docs = _docs(tmp_path / "docs")
    folders, files = _watch_targets([str(docs / "guide" / "*.md"), str(docs / "intro.md"),
                                     str(tmp_path / "new.md")])
    assert folders == [(docs / "guide").resolve()]
    assert files == {(docs / "intro.md").resolve(), (tmp_path / "new.md").resolve()}
    with pytest.raises(InputError, match="nothing/here.md: no such file or folder to watch"):
        _watch_targets([str(tmp_path / "nothing" / "here.md")])


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_cli_index_watch(tmp_path, static_embedder, how):
    docs = _docs(tmp_path / "docs")
    (docs / "logo.png").write_bytes(bytes(range(256)))  # passed over: said once, not each run
    db = str(tmp_path / "idx")
    bar = "--progress" if how == signal.SIGINT else "--no-progress"  # a bar for the first run
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "index", str(docs), "--db",
                             db, "--embedder", static_embedder, "--watch", bar],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("documents 2 (2 changed"), first
        (docs / "guide" / "new.md").write_text("# New\n\nA page written while it watches.\n")
        second = proc.stdout.readline()
        assert second.startswith("documents 3 (1 changed"), second
        assert "2 files unchanged, not read again" in second
        proc.send_signal(how)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "watch ended after 2 runs" in err
    assert err.count("not a document") == 1, err
    assert ("2/2" in err) == (bar == "--progress"), err  # the bar counted the first run only
    assert "3/2" not in err
    assert "A page written while it watches." in " ".join(_texts(db).values())


def test_cli_index_watch_refuses_check(tmp_path, static_embedder, capsys):
    from chunkwise.cli import main

    docs = _docs(tmp_path / "docs")
    code = main(["index", str(docs), "--db", str(tmp_path / "idx"), "--watch", "--dry-run",
                 "--embedder", static_embedder])
    assert code != 0
    assert "--watch indexes" in capsys.readouterr().err
