"""Files read in windows: the same chunks as whole, in bounded memory."""

import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import get_chunker, stream
from chunkwise.errors import InputError

WORDS = ["alpha", "beta", "Gamma.", "delta?", "epsilon!", "über", "naïve", "日本語", "x" * 40,
         "1.2 Scope Of Work", "\n", "\n\n", "\n\n\n  ", "\r\n", "\t"]


@st.composite
def texts(draw):
    parts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=1500))
    return " ".join(parts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts(), strategy=st.sampled_from(stream.STREAMABLE),
       size=st.sampled_from([8, 16, 48, 128]), overlap=st.sampled_from([0, 3]),
       window=st.sampled_from([64, 300, 1000, 5000]))
def test_windows_give_the_chunks_of_the_whole_file(tmp_path, text, strategy, size, overlap,
                                                   window):
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8", newline="")
    chunker = get_chunker(strategy, size=size, overlap=min(overlap, size // 4))
    whole = chunker.chunk(path)
    streamed = list(stream.iter_file_chunks(chunker, path, window=window))
    assert [c.to_dict() for c in streamed] == [c.to_dict() for c in whole]


def test_large_files_stream_through_the_api_with_the_same_chunks(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    para = "The quick brown fox jumps over the lazy dog. " * 12
    path.write_text("\n\n".join(f"{i}. {para}" for i in range(400)) + "\n")
    whole = chunkwise.chunk(path, "recursive", size=64)
    monkeypatch.setattr(stream, "STREAM_MIN_BYTES", 1000)
    monkeypatch.setattr(stream, "WINDOW_CHARS", 20_000)
    assert stream.should_stream(get_chunker("recursive", size=64), path)
    streamed = chunkwise.chunk(path, "recursive", size=64, metadata={"team": "x"})
    assert [dict(c.to_dict(), metadata={}) for c in streamed] == \
        [dict(c.to_dict(), metadata={}) for c in whole]
    assert all(c.metadata["doc"] == {"team": "x"} for c in streamed)
    assert len({c.id for c in streamed}) == len(streamed) > 50
    assert stream.should_stream(get_chunker("recursive", size=64), path, format="auto")
    assert not stream.should_stream(get_chunker("recursive", size=64), path, format="markdown")
    # auto with options of its own chooses from the whole document: not streamed
    assert not stream.should_stream(get_chunker("auto", size=64, code_language="python"), path)


def _count_streamed(monkeypatch) -> list:
    """The paths the real ``iter_file_chunks`` is called with, from now on."""
    used: list = []
    real = stream.iter_file_chunks

    def spy(*args, **kwargs):
        used.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(stream, "iter_file_chunks", spy)
    return used


def test_auto_streams_plain_text_when_its_first_window_is_plain(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    para = "The quick brown fox jumps over the lazy dog. " * 12
    path.write_text("\n\n".join(f"Paragraph {i} is short. {para}" for i in range(400)) + "\n")
    talk = tmp_path / "talk.txt"
    talk.write_text("".join(f"ALICE: Line {i} of the call, about the lazy dog.\n"
                            f"BOB: Reply {i}, about the quick fox.\n" for i in range(400)))
    whole = chunkwise.chunk(path, "auto", size=64)
    whole_talk = chunkwise.chunk(talk, "auto", size=64)
    assert {c.metadata["strategy"] for c in whole} == {"recursive"}
    assert {c.metadata["strategy"] for c in whole_talk} == {"transcript"}
    used = _count_streamed(monkeypatch)
    monkeypatch.setattr(stream, "STREAM_MIN_BYTES", 1000)
    monkeypatch.setattr(stream, "WINDOW_CHARS", 20_000)
    assert stream.should_stream(get_chunker("auto", size=64), path)
    streamed = chunkwise.chunk(path, "auto", size=64)
    assert used == [path] and [c.to_dict() for c in streamed] == [c.to_dict() for c in whole]
    # a transcript: auto chooses from the first window that it is not plain: read whole
    assert chunkwise.chunk(talk, "auto", size=64) == whole_talk and used == [path]


def test_a_bad_file_fails_before_any_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "STREAM_MIN_BYTES", 10)
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good text\n\n" * 5000 + b"\xff\xfe broken")
    with pytest.raises(InputError, match=r"bad.txt: not valid UTF-8 \(byte 55000\)"):
        chunkwise.chunk(path, "fixed", size=32)
    got = list(chunkwise.iter_chunks([path, tmp_path / "missing.txt"], "fixed", size=32,
                                     on_error="skip"))
    assert got == []
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"text " * 10 + b"\x00")
    with pytest.raises(InputError, match="binary file"):
        chunkwise.chunk(nul, "fixed", size=32)
    utf16 = tmp_path / "wide.txt"
    utf16.write_text("Wide text here. " * 100, encoding="utf-16")
    assert not stream.should_stream(get_chunker("fixed", size=32), utf16)
    assert chunkwise.chunk(utf16, "fixed", size=32)[0].text.startswith("Wide")


_MEASURE = textwrap.dedent("""
    import hashlib, json, sys
    from pathlib import Path
    import chunkwise
    from chunkwise import stream

    def peak_mb():  # VmHWM: this process's own peak (ru_maxrss may carry its parent's)
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024

    # kitoken's tables (~36 MB) load once enough distinct words are seen: load them in
    # every run, the one-line floor included, so that they are not counted as growth
    chunkwise.tokens.HFTokenizer.KITOKEN_WORDS = 0
    stream.STREAM_MIN_BYTES = int(sys.argv[2])
    stream.WINDOW_CHARS = 1_000_000
    # the document read whole is cut whole too (not a window at a time)
    chunkwise.strategies.base.WINDOW_CHARS = int(sys.argv[3])
    h = hashlib.blake2b()
    n = 0
    for c in chunkwise.iter_chunks(Path(sys.argv[1]), "recursive", size=128):
        h.update(f"{c.id} {c.start} {c.end} {c.prev_id} {c.next_id}".encode())
        n += 1
    print(json.dumps({"rss_mb": peak_mb(),
                      "digest": h.hexdigest(), "chunks": n}))
""")


@pytest.mark.slow
def test_memory_stays_bounded_and_output_identical(tmp_path):
    path = tmp_path / "big.txt"
    line = ("Streaming keeps memory bounded while the chunks stay the same. " * 6 + "\n\n")
    with path.open("w") as f:
        for i in range(40_000):  # about 15 MB
            f.write(f"Paragraph {i}. {line}")

    def run(min_bytes, window=10**12):
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(path), str(min_bytes),
                              str(window)],
                             capture_output=True, text=True, timeout=600, check=True)
        return json.loads(out.stdout)

    whole = run(10**12)
    streamed = run(1)
    in_windows = run(10**12, 1 << 18)  # read whole, cut a window at a time
    assert streamed["digest"] == whole["digest"] == in_windows["digest"]
    assert streamed["chunks"] == whole["chunks"] > 1000
    # what each takes beyond a process that chunks one line (interpreter, libraries,
    # tokenizer): whole, the text, its token offsets and every chunk at once;
    # streamed, two windows; in windows, the text and one window
    small = tmp_path / "small.txt"
    small.write_text("One line.\n")
    base = subprocess.run([sys.executable, "-c", _MEASURE, str(small), "1", str(10**12)],
                          capture_output=True, text=True, timeout=600, check=True)
    floor = json.loads(base.stdout)["rss_mb"]
    grown = {name: r["rss_mb"] - floor for name, r in
             (("whole", whole), ("streamed", streamed), ("in_windows", in_windows))}
    assert grown["streamed"] < 0.6 * grown["whole"], grown
    assert grown["in_windows"] < 0.5 * grown["whole"], grown


def test_the_command_line_streams_large_text_files(tmp_path, monkeypatch, capsys):
    from chunkwise.cli import main

    path = tmp_path / "big.txt"
    path.write_text("\n\n".join(f"Paragraph {i}. " + "Some words here. " * 30
                                for i in range(300)))
    assert main(["chunk", str(path), "--strategy", "recursive", "--size", "64"]) == 0
    whole = capsys.readouterr().out
    used = _count_streamed(monkeypatch)
    monkeypatch.setattr(stream, "STREAM_MIN_BYTES", 1000)
    monkeypatch.setattr(stream, "WINDOW_CHARS", 10_000)
    assert main(["chunk", str(path), "--strategy", "recursive", "--size", "64", "--summary"]) == 0
    assert used == [path] and "documents 1  chunks" in capsys.readouterr().out
    assert main(["chunk", str(path), "--strategy", "recursive", "--size", "64"]) == 0
    assert capsys.readouterr().out == whole and len(used) == 2


def test_a_large_novel_is_read_whole_with_its_narrative_size(tmp_path, monkeypatch):
    """Issue 21: auto gives narrative prose its own size (document_kind "narrative"),
    decided on the whole document: a large story file is not streamed at the default
    size but read whole, so its chunks are the same either way."""
    path = tmp_path / "story.txt"
    path.write_text("\n\n".join(
        f"\u201cWe sail at dawn with the tide, number {i},\u201d said the captain."
        if i % 3 == 0 else f"The ship rode at anchor in the bay on the night of day {i}, "
        "and the old men came down to the door of the inn to watch her." for i in range(900))
        + "\n", encoding="utf-8")
    whole = chunkwise.chunk(path)
    assert {c.metadata.get("document_kind") for c in whole} == {"narrative"}
    used = _count_streamed(monkeypatch)
    monkeypatch.setattr(stream, "STREAM_MIN_BYTES", 1000)
    monkeypatch.setattr(stream, "WINDOW_CHARS", 20_000)
    assert chunkwise.chunk(path) == whole and used == []
