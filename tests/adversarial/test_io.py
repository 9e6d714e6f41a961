"""Files are never destroyed and interrupted runs never look complete; every
output problem is one line and exit 2 (red-team issue 14, items 2, 3, 7, 8, 9)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chunkwise
from chunkwise.cli import main


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err, needle):
    assert needle in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_output_that_is_an_input_is_refused(capsys, tmp_path):
    same = tmp_path / "same.txt"
    same.write_text("Precious text that must survive.")
    code, _, err = run(capsys, "chunk", same, "-o", same)
    assert code == 2 and same.read_text() == "Precious text that must survive."
    one_line_error(err, "it is one of the inputs")
    # also when the input comes through a folder or a different spelling of the path
    code, _, err = run(capsys, "chunk", tmp_path, "-o", tmp_path / ".." / tmp_path.name / "same.txt")
    assert code == 2 and same.read_text() == "Precious text that must survive."


@pytest.mark.parametrize("target,needle", [
    ("nodir/out.jsonl", "no such directory"),
    (".", "it is a directory"),
])
def test_bad_destinations_fail_before_any_work(capsys, tmp_path, target, needle):
    (tmp_path / "in.txt").write_text("Some text.")
    for fmt in ("jsonl", "parquet"):
        code, _, err = run(capsys, "chunk", tmp_path / "in.txt", "--format", fmt,
                           "-o", tmp_path / target)
        assert code == 2
        one_line_error(err, needle)
    code, _, err = run(capsys, "view", tmp_path / "in.txt", "-o", tmp_path / target)
    assert code == 2
    one_line_error(err, needle)


def test_full_disk_is_one_line(capsys, tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    (tmp_path / "in.txt").write_text("Some text. " * 2000)
    code, _, err = run(capsys, "chunk", tmp_path / "in.txt", "-o", "/dev/full", "--size", "16")
    assert code == 2
    one_line_error(err, "No space left on device")


def _slow_corpus(folder: Path, n: int = 80) -> None:
    folder.mkdir()
    for i in range(n):
        (folder / f"doc{i:03d}.txt").write_text(f"Document {i} sentence. " * 4000)


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("fmt,workers", [("jsonl", "1"), ("parquet", "1"), ("jsonl", "2")])
def test_an_interrupted_run_leaves_no_output(tmp_path, sig, code, fmt, workers):
    _slow_corpus(tmp_path / "in")
    out = tmp_path / f"out.{fmt}"
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "chunk", str(tmp_path / "in"),
                             "-o", str(out), "--format", fmt, "--size", "32", "--no-progress",
                             "--workers", workers],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and not list(tmp_path.glob(f".out.{fmt}.*.part")):
        time.sleep(0.05)  # wait until it is writing
    time.sleep(0.3)
    # as a terminal's Ctrl-C does: to the whole process group, worker processes included
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert not out.exists() and not list(tmp_path.glob(".out.*"))
    assert "no partial output" in err and "Traceback" not in err


_INTERRUPTED_IN_AN_EXEC = """
import sys
from chunkwise import cli

def chunk(args):  # as when Ctrl-C lands while a namedtuple is made by an import
    exec("raise KeyboardInterrupt")

cli.COMMANDS["chunk"] = chunk
sys.exit(cli.main(["chunk", "-"]))
"""


def test_an_interrupt_raised_inside_exec_still_exits_130(tmp_path):
    """CPython kills a program with SIGINT at exit when a KeyboardInterrupt left code
    run from a string, even if it was caught (seen: a Ctrl-C during pyarrow's lazy
    import of pandas exited -2): the CLI still exits 130."""
    (tmp_path / "interrupted_in_exec.py").write_text(_INTERRUPTED_IN_AN_EXEC)
    proc = subprocess.run([sys.executable, "-m", "interrupted_in_exec"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert "interrupted; no partial output" in proc.stderr and "Traceback" not in proc.stderr


def test_a_killed_run_never_leaves_a_complete_looking_file(tmp_path):
    _slow_corpus(tmp_path / "in")
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise.cli", "chunk", str(tmp_path / "in"),
                             "-o", str(out), "--size", "32", "--no-progress"])
    deadline = time.time() + 60
    while time.time() < deadline and not list(tmp_path.glob(".out.jsonl.*.part")):
        time.sleep(0.05)
    time.sleep(0.3)
    proc.kill()  # SIGKILL: nothing can clean up, but the final name was never written
    proc.wait(timeout=60)
    assert not out.exists()


def test_a_complete_run_replaces_the_output_atomically(capsys, tmp_path):
    (tmp_path / "in.txt").write_text("New text here.")
    out = tmp_path / "out.jsonl"
    out.write_text("old content\n")
    code, _, _ = run(capsys, "chunk", tmp_path / "in.txt", "-o", out)
    assert code == 0 and json.loads(out.read_text())["text"] == "New text here."
    assert not list(tmp_path.glob(".out.jsonl.*"))


def test_dash_as_output_is_standard_output(capsys, tmp_path, monkeypatch):
    (tmp_path / "in.txt").write_text("Some text.")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "chunk", tmp_path / "in.txt", "-o", "-")
    assert code == 0 and json.loads(out)["text"] == "Some text."
    assert not (tmp_path / "-").exists()


def test_output_gets_the_permissions_a_plain_write_would(capsys, tmp_path):
    (tmp_path / "in.txt").write_text("Text.")
    old = os.umask(0o022)
    try:
        assert run(capsys, "chunk", tmp_path / "in.txt", "-o", tmp_path / "new.jsonl")[0] == 0
        kept = tmp_path / "kept.jsonl"
        kept.write_text("")
        kept.chmod(0o640)
        assert run(capsys, "chunk", tmp_path / "in.txt", "-o", kept)[0] == 0
    finally:
        os.umask(old)
    assert (tmp_path / "new.jsonl").stat().st_mode & 0o777 == 0o644
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text()


def test_a_symlink_loop_under_a_glob_does_not_hang(capsys, tmp_path):
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "docs" / "sub" / "a.md").write_text("# A\n\nText.")
    os.symlink(tmp_path / "docs", tmp_path / "docs" / "sub" / "loop")
    t0 = time.perf_counter()
    code, out, _ = run(capsys, "chunk", f"{tmp_path}/docs/**/*.md")
    assert code == 0 and time.perf_counter() - t0 < 10
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["# A\n\nText."]
    found = list(chunkwise.iter_chunks(tmp_path / "docs"))
    assert len(found) == 1


def test_bom_offsets_follow_the_readme_recipe(tmp_path):
    path = tmp_path / "bom.md"
    path.write_bytes("\ufeff# Title\r\n\r\nBody with a BOM.\r\n".encode("utf-8"))
    chunks = chunkwise.chunk(path, size=16)
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    assert text.startswith("\ufeff")
    for c in chunks:
        assert text[c.start:c.end] == c.text
        assert chunkwise.read_text(path)[c.start:c.end] == c.text
    assert chunks[0].headings == ("Title",)  # the BOM does not hide the heading


def test_nul_bytes_anywhere_mean_binary(tmp_path):
    path = tmp_path / "late.txt"
    path.write_bytes(b"text " * 20_000 + b"\x00 more")
    with pytest.raises(chunkwise.InputError, match="binary file \\(a NUL byte at offset 100000\\)"):
        chunkwise.chunk(path)


def _fed_fifo(path: Path, chunks) -> list[int]:
    """A named pipe at ``path`` that a thread writes ``chunks`` into (as many as the
    reader takes: a reader that stops early breaks the pipe, which ends the writer);
    the list returned counts the chunks written."""
    import threading

    os.mkfifo(path)
    written = [0]

    def feed() -> None:
        try:
            with open(path, "wb") as f:
                for block in chunks:
                    f.write(block)
                    written[0] += 1
        except BrokenPipeError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    return written


def test_a_pipe_or_device_named_as_a_file_is_read_as_it_comes(tmp_path, monkeypatch):
    """A pipe or a device named as a file was read whole before anything was looked
    at: ``chunkwise chunk /dev/urandom`` (or a pipe fed forever) read until memory ran
    out. Its first block now says whether it is binary, and it is read up to a bound."""
    from itertools import repeat

    import chunkwise.readers as readers
    from chunkwise.readers import read_path

    # binary data (64 MB here; /dev/urandom's has no end): refused from its first block
    written = _fed_fifo(tmp_path / "random", repeat(os.urandom(1 << 16) + b"\0", 1024))
    with pytest.raises(chunkwise.InputError, match=r"random: binary data \(a NUL byte"):
        read_path(tmp_path / "random")
    time.sleep(0.2)
    assert written[0] < 16  # the writer stopped when the reader did
    # text without end: refused past the bound, naming it
    monkeypatch.setattr(readers, "STREAM_MAX_BYTES", 1 << 20)
    _fed_fifo(tmp_path / "yes", repeat(b"y\n" * 4096))
    with pytest.raises(chunkwise.InputError, match=r"yes: more than 1 MB from a pipe or a device"):
        read_path(tmp_path / "yes")
    # a document through a pipe (``<(curl ...)``), text or a binary format, is read
    _fed_fifo(tmp_path / "notes", [b"# Notes\n\n", b"Ferries leave at nine. " * 5000])
    doc = read_path(tmp_path / "notes")
    assert doc.text.count("Ferries leave at nine.") == 5000
    pdf = Path(__file__).parents[1] / "data" / "asvs" / "asvs-4.0.3-v2.1-excerpt.pdf"
    _fed_fifo(tmp_path / "report", [pdf.read_bytes()])
    assert read_path(tmp_path / "report").text == read_path(pdf).text
