
import pytest

import chunkwise

from helpers import (
    assert_invariants,
)


def test_offsets_index_the_file_as_read_with_crlf(tmp_path):
    raw = "Title line\r\n\r\nFirst paragraph here.\r\nSecond line of it.\r\n\r\nLast one.\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(raw.encode("utf-8"))
    chunks = chunkwise.chunk(path, size=6, tokenizer="words")
    text = path.read_bytes().decode("utf-8")
    assert_invariants(text, chunks, 6)
    assert chunks[0].source == str(path) and chunks[0].doc_id == str(path)
    assert any("\r\n" in c.text for c in chunks)


def test_empty_and_whitespace_documents_give_no_chunks(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    assert chunkwise.chunk(tmp_path / "empty.txt") == []
    assert chunkwise.chunk("   \n\n\t ") == []


def test_chunk_accepts_lists_mappings_and_documents(tmp_path):
    (tmp_path / "a.txt").write_text("Alpha text.")
    (tmp_path / "b.md").write_text("# Beta\n\nBeta text.")
    chunks = chunkwise.chunk([tmp_path / "a.txt", tmp_path / "b.md", "Inline text.",
                              chunkwise.Document("Doc text.", doc_id="mine")])
    assert [c.text for c in chunks] == ["Alpha text.", "# Beta\n\nBeta text.", "Inline text.",
                                        "Doc text."]
    assert chunks[3].doc_id == "mine"
    folder = chunkwise.chunk(tmp_path)
    assert len(folder) == 2
    # a mapping names its documents: {doc_id: text or Path}
    mapped = chunkwise.chunk({"faq": "Question text.", "notes": tmp_path / "a.txt"})
    assert [(c.doc_id, c.text) for c in mapped] == [("faq", "Question text."),
                                                   ("notes", "Alpha text.")]


def test_unreadable_inputs_raise_input_error(tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(chunkwise.InputError, match="bin.txt: binary file"):
        chunkwise.chunk(tmp_path / "bin.txt")
    (tmp_path / "latin.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(chunkwise.InputError, match="not valid UTF-8"):
        chunkwise.chunk(tmp_path / "latin.txt")
    assert chunkwise.chunk(tmp_path / "latin.txt", encoding="latin-1")[0].text == "café"
    with pytest.raises(chunkwise.InputError, match="no such file"):
        chunkwise.chunk(tmp_path / "missing.txt")


def test_text_formatted_for_a_terminal_is_told_apart_from_binary(tmp_path):
    """man-db's manual as Debian installs it (man-db-manual.txt.gz) is grotty's output:
    bold and underlined words as escape sequences and backspaces. It was refused as a
    "binary file"; it is text, refused with what it is and how to clean it."""
    import shutil
    import subprocess

    line = "\x1b[1mman-db - the database cached manual pager suite\x1b[0m\n" \
           "   \x1b[4mGraeme\x1b[24m wrote it; N\bNA\bAM\bME\bE is bold by overstrike.\n\n"
    path = tmp_path / "man-db-manual.txt"
    path.write_text(line * 40)
    with pytest.raises(chunkwise.InputError, match="man-db-manual.txt: text formatted for a "
                                                   "terminal") as err:
        chunkwise.chunk(path)
    from chunkwise.stream import check_file  # the check of a file too big to read at once

    with pytest.raises(chunkwise.InputError, match="text formatted for a terminal"):
        check_file(path)
    assert "binary" not in str(err.value)
    if shutil.which("sed") and shutil.which("col"):  # the cleaning it suggests works
        command = str(err.value).split("e.g. ", 1)[1].replace("FILE", str(path))
        subprocess.run(command, shell=True, check=True)
        chunks = chunkwise.chunk(tmp_path / "man-db-manual.txt.txt")
        assert "NAME is bold" in chunks[0].text and "\x1b" not in chunks[0].text
    (tmp_path / "bin.txt").write_bytes(b"\x01\x02\x03\x04binary\x05\x06" * 10)
    with pytest.raises(chunkwise.InputError, match="bin.txt: binary file"):
        chunkwise.chunk(tmp_path / "bin.txt")


def test_a_str_is_text_never_a_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("Do not read me.")
    # the old form (a path as a str) is refused with a message that says what to do
    for s in (str(secret), "docs/handbok.md", "."):
        with pytest.raises(chunkwise.InputError, match="looks like a file path: pass pathlib.Path"):
            chunkwise.chunk(s)
    assert chunkwise.chunk(secret)[0].text == "Do not read me."  # a Path is a file
    with pytest.raises(chunkwise.InputError, match="handbok.md: no such file"):
        chunkwise.chunk(tmp_path / "handbok.md")
    # a sentence that mentions a file is still text
    assert chunkwise.chunk("See handbook.md for details.")[0].text == "See handbook.md for details."
    # text that happens to equal a path is chunked as text when wrapped in a Document
    doc = chunkwise.Document(str(secret), doc_id="t")
    assert chunkwise.chunk(doc)[0].text == str(secret)


def test_document_metadata_reaches_every_chunk(tmp_path, capsys):
    """Issue 13, item 6: front matter, HTML meta, PDF information and the user's own
    fields are on every chunk, under metadata["doc"]."""
    import json

    from chunkwise.cli import main

    md = "---\ntitle: Handbook\nowner: ops\n---\n# Handbook\n\n" + "Some text here. " * 60
    chunks = chunkwise.chunk(md, format="markdown", size=32, doc_id="h", metadata={"team": "safety"})
    assert len(chunks) > 2
    for c in chunks:
        assert c.metadata["doc"] == {"title": "Handbook", "owner": "ops", "team": "safety"}
    page = "<html><head><title>T</title><meta name='author' content='Ann'></head><body><p>Hello.</p></body></html>"
    (c,) = chunkwise.chunk({"p": page}, format="html")
    assert c.metadata["doc"]["author"] == "Ann" and c.metadata["doc"]["title"] == "T"
    (tmp_path / "n.txt").write_text("Plain note.")
    assert main(["chunk", str(tmp_path / "n.txt"), "--metadata", "team=safety",
                 "--metadata", "year=2026"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["metadata"]["doc"] == {"team": "safety", "year": "2026"}
    assert main(["chunk", str(tmp_path / "n.txt"), "--metadata", "oops"]) == 2
    assert "expected KEY=VALUE" in capsys.readouterr().err
