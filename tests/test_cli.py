import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chunkwise
from chunkwise.cli import build_parser, main

from helpers import SAMPLES

# every file under samples/ is a document
SAMPLE_DOCS = sum(1 for p in SAMPLES.rglob("*") if p.is_file())


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_documents_every_option():
    res = subprocess.run([sys.executable, "-m", "chunkwise.cli", "chunk", "--help"],
                         capture_output=True, text=True)
    assert res.returncode == 0
    for opt in ("--strategy", "--size", "--overlap", "--max-tokens", "--tokenizer", "--format",
                "-o", "--summary", "--separators", "--encoding", "--no-progress"):
        assert opt in res.stdout
    top = subprocess.run([sys.executable, "-m", "chunkwise.cli", "--help"],
                         capture_output=True, text=True)
    assert top.returncode == 0 and "chunk" in top.stdout


def test_jsonl_to_stdout_with_all_fields(capsys):
    code, out, err = run(capsys, "chunk", f"{SAMPLES}/shipping-faq-note.txt", "--size", "64")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) > 1
    text = Path(f"{SAMPLES}/shipping-faq-note.txt").read_bytes().decode("utf-8")
    for r in rows:
        assert set(r) >= {"id", "doc_id", "source", "text", "start", "end", "context",
                          "embed_text", "token_count", "kind", "headings", "page", "parent_id",
                          "metadata"}
        assert text[r["start"]:r["end"]] == r["text"]
        assert r["token_count"] <= 64
        assert r["source"] == f"{SAMPLES}/shipping-faq-note.txt"


@pytest.mark.parametrize("strategy", ["fixed", "sentence", "recursive"])
def test_every_strategy_and_overlap_forms(capsys, strategy):
    for overlap in ("8", "0.2"):
        code, out, _ = run(capsys, "chunk", str(SAMPLES), "-s", strategy, "--size", "48",
                           "--overlap", overlap, "--no-progress")
        assert code == 0
        assert all(json.loads(line)["token_count"] <= 48 for line in out.splitlines())


def test_folder_glob_stdin_and_output_file(capsys, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.md").write_text("# A\n\nAlpha text.")
    (tmp_path / "b.txt").write_text("Beta text.")
    (tmp_path / ".hidden.txt").write_text("Hidden text.")
    out_file = tmp_path / "out.jsonl"
    code, out, _ = run(capsys, "chunk", str(tmp_path), "-o", str(out_file), "--no-progress")
    assert code == 0 and out == ""
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted(r["text"] for r in rows) == ["# A\n\nAlpha text.", "Beta text."]
    code, out, _ = run(capsys, "chunk", str(tmp_path / "**" / "*.md"))
    assert code == 0 and [json.loads(line)["text"] for line in out.splitlines()] == ["# A\n\nAlpha text."]

    import io

    class FakeStdin:
        buffer = io.BytesIO(b"From standard input.\r\n")

    monkeypatch.setattr(sys, "stdin", FakeStdin)
    code, out, _ = run(capsys, "chunk", "-")
    row = json.loads(out)
    assert code == 0 and row["text"] == "From standard input." and row["source"] == "<stdin>"


def test_parquet_output(capsys, tmp_path):
    import pyarrow.parquet as pq

    out_file = tmp_path / "chunks.parquet"
    code, _, _ = run(capsys, "chunk", str(SAMPLES), "--format", "parquet", "-o", str(out_file),
                     "--size", "64", "--no-progress")
    assert code == 0
    table = pq.read_table(out_file).to_pylist()
    assert len(table) > 3
    # auto (the default) keeps a table up to twice the size whole
    assert all(r["token_count"] <= (128 if r["kind"] == "table" else 64) for r in table)
    code, _, err = run(capsys, "chunk", str(SAMPLES), "--format", "parquet")
    assert code == 2 and "needs an output file" in err


@pytest.mark.parametrize("args,needle", [
    (["chunk", str(SAMPLES), "--size", "0"], "size must be at least 1"),
    (["chunk", str(SAMPLES), "--size", "10", "--overlap", "10"], "must be smaller than size"),
    (["chunk", str(SAMPLES), "--tokenizer", "nope"], "unknown tokenizer 'nope'"),
    (["chunk", "missing-file.txt"], "missing-file.txt: no such file"),
])
def test_bad_options_one_line_exit_2(capsys, args, needle):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_unknown_strategy_exit_2():
    res = subprocess.run([sys.executable, "-m", "chunkwise.cli", "chunk", str(SAMPLES), "-s", "magic"],
                         capture_output=True, text=True)
    assert res.returncode == 2 and "unknown strategy 'magic' (expected one of" in res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_one_bad_file_in_a_folder_is_reported_others_chunked(capsys, tmp_path):
    (tmp_path / "good.txt").write_text("Good text here.")
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9 au lait " * 20)  # Latin-1, not UTF-8
    (tmp_path / "empty.txt").write_bytes(b"")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--no-progress")
    assert code == 2
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["Good text here."]
    assert err.count("error") == 1 and "bad.txt: not valid UTF-8" in err
    assert "Traceback" not in err


def test_a_folder_walk_passes_over_what_is_not_a_document(capsys, tmp_path):
    (tmp_path / "good.txt").write_text("Good text here.")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "more.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "bundle.zip").write_bytes(b"PK\x03\x04")
    (tmp_path / "data.txt").write_bytes(b"\x00\x01\x02 binary with a text name")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--no-progress")
    assert code == 0
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["Good text here."]
    assert ("chunkwise: skipped 4 files that are not documents: png 2, binary 1, zip 1"
            in err.splitlines())
    assert "error" not in err
    # named explicitly, a binary file is still an error
    code, out, err = run(capsys, "chunk", str(tmp_path / "data.txt"))
    assert code == 2 and "data.txt: binary file" in err
    # TeX's DVI, gzipped as /usr/share/doc/gdb/refcard.dvi.gz, and PostScript: an
    # error on each before (found chunking /usr/share/doc)
    for name in ("data.txt", "logo.png", "more.png", "bundle.zip"):
        (tmp_path / name).unlink()
    (tmp_path / "refcard.dvi.gz").write_bytes(gzip.compress(b"\xf7\x02\x01\x83\x92\xc0\x1c"))
    (tmp_path / "refcard.ps").write_text("%!PS-Adobe-2.0\n/Times-Roman findfont\n")
    # and an Illustrator logo, a PDF inside (Knative's docs: an error, "no text layer")
    (tmp_path / "logo.ai").write_bytes(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--no-progress")
    assert code == 0 and "error" not in err
    assert "skipped 3 files that are not documents: ai 1, dvi 1, ps 1" in err
    # a LaTeX project: its build files, packages and bibliography styles are passed over
    # (Michaillat's template folder: 147 chunks of them beside its paper's 132), the
    # paper and its BibTeX database read
    for name in ("refcard.dvi.gz", "refcard.ps", "logo.ai"):
        (tmp_path / name).unlink()
    (tmp_path / "paper.tex").write_text("\\section{Intro}\nWe study it.\n")
    (tmp_path / "paper.bib").write_text("@article{a, title={On it}, year={2021}}\n")
    (tmp_path / "paper.aux").write_text("\\relax\n\\newlabel{s:intro}{{1}{1}}\n")
    (tmp_path / "paper.bbl").write_text("\\begin{thebibliography}{9}\n\\bibitem{a} On it.\n")
    (tmp_path / "paper.sty").write_text("\\ProvidesPackage{paper}\n")
    (tmp_path / "paper.synctex.gz").write_bytes(gzip.compress(b"SyncTeX Version:1\n"))
    code, out, err = run(capsys, "chunk", str(tmp_path), "--no-progress")
    assert code == 0 and "skipped 4 files that are not documents: aux 1, bbl 1, sty 1, synctex 1" in err
    read = sorted({Path(json.loads(line)["doc_id"]).name for line in out.splitlines()})
    assert read == ["good.txt", "paper.bib", "paper.tex"]


def test_a_folder_walk_passes_over_office_owner_files_folder_settings_and_shortcuts(capsys, tmp_path):
    """A folder synced from Windows: Word writes ``~$port.docx`` beside a document it
    has open (162 bytes, no zip: a failed input and an error line on every run),
    Explorer ``desktop.ini`` (its icon settings were a chunk), a browser ``.url``
    shortcuts (an address, never the page). Passed over and counted; ``index --watch``
    sleeps through them (Word writes and removes its owner file as it opens and
    closes); a file named is read as any other."""
    from chunkwise.readers.sources import passed_over_by_name

    (tmp_path / "~$port.docx").write_bytes(b"\x05Ana Garc\xeda" + b" " * 40 + b"\x05\x00A\x00n\x00a")
    (tmp_path / "~$dget.xlsx").write_bytes(os.urandom(162))
    (tmp_path / "desktop.ini").write_text("[.ShellClassInfo]\r\nIconResource=C:\\Windows\\"
                                          "System32\\imageres.dll,-112\r\n")
    (tmp_path / "Handbook.url").write_text("[InternetShortcut]\r\nURL=https://example.org/handbook\r\n")
    (tmp_path / "report.md").write_text("# Report\n\nSales grew in the third quarter.\n")
    # what copying a download out of Windows into WSL leaves, and a download under way
    (tmp_path / "report.md:Zone.Identifier").write_text(
        "[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=https://example.org/report.md\r\n")
    (tmp_path / "manual.pdf.crdownload").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--no-progress")
    assert code == 0 and "error" not in err
    assert ("skipped 6 files that are not documents: Office owner file 2, crdownload 1, "
            "download's origin 1, folder settings 1, url 1") in err
    assert {Path(json.loads(line)["doc_id"]).name for line in out.splitlines()} == {"report.md"}
    assert [passed_over_by_name(n) for n in ("~$port.docx", "Desktop.ini", "a.webloc", "a.lnk",
                                             "report.docx", "$money.md")] == \
        ["Office owner file", "folder settings", "webloc", "lnk", None, None]
    code, out, err = run(capsys, "chunk", str(tmp_path / "desktop.ini"))
    assert code == 0 and "ShellClassInfo" in out


def test_a_folder_walk_passes_over_an_mdbook_sites_print_edition(capsys, tmp_path):
    """mdBook writes every chapter again into ``print.html`` (half of the Rust book's
    chunks as rustup installs it, search hits twice) and the sidebar's chapter list
    into ``toc.html``, both ``<meta name="robots" content="noindex">``: a folder walk
    passes over them and says so; named on its own, the print edition is read."""
    head = ('<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<!-- Book generated using mdBook -->\n'
            '<meta charset="UTF-8">\n<title>The Book</title>\n<meta name="robots" '
            'content="noindex">\n</head>\n<body><main>')
    chapter = "<h1>Shared state</h1><p>A mutex allows only one thread to access some data.</p>"
    book = tmp_path / "book"
    book.mkdir()
    (book / "print.html").write_text(head + chapter + "<h1>Tests</h1><p>Use assert.</p>"
                                     "</main></body></html>")
    (book / "toc.html").write_text(head.replace("Book generated", "sidebar iframe generated")
                                   + "<ol><li>Shared state</li><li>Tests</li></ol></main></body></html>")
    (book / "ch16-03.html").write_text(head.replace('<meta name="robots" content="noindex">', "")
                                       + chapter + "</main></body></html>")
    (book / "old-print.html").write_text(head + chapter + "</main></body></html>")  # (another name)
    code, out, err = run(capsys, "chunk", str(book), "--no-progress")
    assert code == 0, err
    read = {Path(json.loads(line)["source"]).name for line in out.splitlines()}
    assert read == {"ch16-03.html", "old-print.html"}
    assert "chunkwise: skipped 2 files that are not documents: contents page 1, print edition 1" \
        in err.splitlines()
    code, out, err = run(capsys, "chunk", str(book / "print.html"), "--no-progress")
    assert code == 0 and "Use assert." in out


def test_a_folder_walk_reads_a_built_sites_pages_once(capsys, tmp_path):
    """A site Sphinx built (``make html``, a mirrored Read the Docs site) holds each
    page's source again (``_sources/config.rst.txt``: every page read twice), its own
    scripts (``_static/doctools.js``) and generated index and search pages: 617
    chunks for Flask's six pages built, 179 of them its pages'. Only the pages are
    read; the same names outside a built site (no ``objects.inv`` and
    ``searchindex.js`` beside them) are read. The same for a site MkDocs built."""
    site = tmp_path / "html"
    (site / "_sources").mkdir(parents=True)
    (site / "_static" / "scripts").mkdir(parents=True)
    (site / "objects.inv").write_bytes(b"# Sphinx inventory version 2\n# Project: Flask\n"
                                       b"# zlib\n" + bytes(range(256)))
    (site / "searchindex.js").write_text('Search.setIndex({"docnames": ["config"]})')
    (site / "config.html").write_text(
        "<html><body><div role='main'><h1>Configuration</h1><p>Values Flask reads.</p>"
        "</div></body></html>")
    (site / "_sources" / "config.rst.txt").write_text(
        "Configuration\n=============\n\nValues Flask reads.\n")
    (site / "_static" / "doctools.js").write_text("const Documentation = {\n  init: () => {},\n};\n")
    (site / "_static" / "scripts" / "theme.js").write_text("function go() {\n  return 1;\n}\n")
    for page in ("genindex.html", "py-modindex.html", "search.html"):
        (site / page).write_text("<html><body><h1>Index</h1><p>config</p></body></html>")
    notes = tmp_path / "notes"
    (notes / "_sources").mkdir(parents=True)
    (notes / "_sources" / "reading.txt").write_text("Papers to read.\n")
    (notes / "search.html").write_text("<html><body><p>How we search.</p></body></html>")
    code, out, err = run(capsys, "chunk", str(site), str(notes), "--no-progress")
    assert code == 0, err
    read = {Path(json.loads(line)["source"]).relative_to(tmp_path).as_posix()
            for line in out.splitlines()}
    assert read == {"html/config.html", "notes/_sources/reading.txt", "notes/search.html"}
    assert ("chunkwise: skipped 8 files that are not documents: Sphinx index page 3, "
            "site script 3, Sphinx page source 1, binary 1" in err.splitlines()), err
    # MkDocs' build of two pages was 315 chunks, 7 of them the pages': its search index
    # (every page again, as JSON), lunr.js and its own scripts, a sitemap, a 404 page
    mk = tmp_path / "site"
    (mk / "search").mkdir(parents=True)
    (mk / "js").mkdir()
    (mk / "usage").mkdir()
    (mk / "index.html").write_text("<html><body><main><h1>Home</h1><p>Welcome.</p></main></body></html>")
    (mk / "usage" / "index.html").write_text("<html><body><main><h1>Usage</h1><p>Use it daily.</p>"
                                             "</main></body></html>")
    (mk / "404.html").write_text("<html><body><main><h1>404</h1><p>Page not found</p></main></body></html>")
    (mk / "sitemap.xml").write_text('<?xml version="1.0"?>\n<urlset><url><loc>/usage/</loc></url></urlset>\n')
    (mk / "search" / "search_index.json").write_text(
        '{"config":{"lang":["en"]},"docs":[{"location":"","text":"Welcome.","title":"Home"}]}')
    (mk / "search" / "lunr.js").write_text("/**\n * lunr - http://lunrjs.com\n */\nvar lunr = 1;\n")
    (mk / "js" / "base.js").write_text("function applyTopPadding() {\n  return 1;\n}\n")
    code, out, err = run(capsys, "chunk", str(mk), "--no-progress")
    assert code == 0, err
    assert {Path(json.loads(line)["source"]).relative_to(mk).as_posix() for line in out.splitlines()} \
        == {"index.html", "usage/index.html"}
    assert ("chunkwise: skipped 5 files that are not documents: site script 2, site error page 1, "
            "site search index 1, sitemap 1" in err.splitlines()), err


def test_a_folder_walk_passes_over_minified_scripts(capsys, tmp_path):
    """A built site ships its search index and libraries minified (rustdoc's book as
    Rust ships it: 7,128 of its 8,237 chunks came from five such files). Real
    bundles (Playwright's, a pinned test dependency) and hand-written modules from the
    same package: the bundles are passed over and counted; one named explicitly is
    read."""
    import shutil

    import playwright

    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    bundles = sorted((lib / "vite" / "traceViewer").rglob("*.js"))
    bundles = [f for f in bundles if f.stat().st_size > 20_000][:3]
    written = [lib / "serverRegistry.js", lib / "tools" / "cli-client" / "program.js"]
    assert len(bundles) == 3 and all(f.is_file() for f in written)
    site = tmp_path / "site"
    site.mkdir()
    for f in bundles + written:
        shutil.copy(f, site / f.name)
    (site / "theme.min.css").write_text("a{color:red}\n")
    # a built site's style sheet, minified or not, is no document (Valgrind's manual:
    # its vg_basic.css was 5 chunks of colours and borders)
    (site / "vg_basic.css").write_text("body {\n  color: black;\n}\n")
    (site / "guide.md").write_text("# Guide\n\nHow the site is built.\n")
    # small generated scripts of one line, as rustdoc writes them beside Rust's
    # documentation (297 module sidebars, 1,868 pieces of its search index)
    (site / "sidebar-items1.95.0.js").write_text(
        'window.SIDEBAR_ITEMS = {"enum":["TryReserveErrorKind"],"mod":["binary_heap",'
        '"btree_map","btree_set","hash_map","hash_set","linked_list","vec_deque"],"struct":'
        '["BTreeMap","BTreeSet","BinaryHeap","HashMap","HashSet","LinkedList",'
        '"TryReserveError","VecDeque"]};')
    (site / "3c2a0e92d415.js").write_text(
        'rn_("dQBJAQBxXilfKWApYSlqKWspbCltKWmFHIYchxyIHMgcyRzKHMsccUQBAN0Q3hDfEOAQFxcYFxkXGh'
        'dxQwEADwsQCxELEgvRENIQ0xDUEOMAhLAgtaAAAQAJBTowAAABAAAAAAAIABAAAADocOlwH4QghCGEBJc9o'
        'dfX2Nc=")')
    (site / "sidebar-items-short.js").write_text(
        'window.SIDEBAR_ITEMS = {"struct":["Box","ThinBox"]};')  # (under 120 characters)
    (site / "index.js").write_text("module.exports = require('./lib/server');\n")  # written
    # a binary Netpbm bitmap (Python's test/imghdrdata/python.pbm): no NUL byte, and
    # with --encoding auto it read as text
    (site / "python.pbm").write_bytes(b"P4\n16 16\n\xff\xff\x80\x01\xbf\xfd\xa0\x05" * 4)
    code, out, err = run(capsys, "chunk", str(site), "--no-progress")
    assert code == 0, err
    read = {Path(json.loads(line)["source"]).name for line in out.splitlines()}
    assert read == {"guide.md", "serverRegistry.js", "program.js", "index.js"}
    assert ("chunkwise: skipped 9 files that are not documents: minified 6, css 2, pbm 1"
            in err.splitlines())
    code, out, err = run(capsys, "chunk", str(site / bundles[0].name), "--no-progress")
    assert code == 0 and len(out.splitlines()) > 5


def test_a_folder_walk_passes_over_lock_files_and_generated_code(capsys, tmp_path):
    """A project's lock files are its package manager's (Flask's ``uv.lock``: 1,913
    chunks of versions and hashes beside the project's 3,051; pdf.js's
    ``package-lock.json``: 2,460), and generated sources say so in their first lines
    (real ones from pinned dependencies: tokenizers' stubs, protoc's descriptor
    module, Qdrant's async client). All are passed over and counted; a page of
    documentation written by a tool is still read, and so is a lock file named
    explicitly. A binary file without a NUL byte in its head (pdf.js's compressed
    CMaps, refused as "not valid UTF-8") is passed over as binary."""
    import importlib.util
    import shutil

    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "README.md").write_text("# App\n\nHow to run the app.\n")
    (project / "package-lock.json").write_text(
        '{\n  "name": "app",\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/ms": {'
        '\n      "version": "2.1.3",\n      "integrity": "sha512-6FlzubTLZG3J2a"\n    }\n  }\n}\n')
    (project / "Cargo.lock").write_text(
        '# This file is automatically @generated by Cargo.\n# It is not intended for manual '
        'editing.\nversion = 4\n\n[[package]]\nname = "memchr"\nversion = "2.7.4"\n')
    (project / "yarn.lock").write_text('ms@^2.1.3:\n  version "2.1.3"\n')
    (project / "go.sum").write_text("golang.org/x/text v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWg=\n")
    for module, name in (("tokenizers", "__init__.pyi"), ("google.protobuf", "descriptor_pb2.py"),
                         ("qdrant_client", "async_qdrant_client.py")):
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        shutil.copy(Path(spec.origin).parent / name, project / "src" / name)
    (project / "src" / "api.pb.go").write_text(
        "// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: api.proto\n\npackage api\n")
    (project / "src" / "app.py").write_text('"""The app: it greets."""\n\n\ndef greet():\n    return "hi"\n')
    (project / "cli.md").write_text("<!-- generated by the CLI; do not edit -->\n# CLI\n\nThe options.\n")
    # test snapshots, as Rust's insta and Jest record them
    (project / "src" / "it__lock.snap").write_text(
        "---\nsource: crates/uv/tests/it/ecosystem.rs\nexpression: lock\n---\nversion = 1\n")
    (project / "src" / "App.test.js.snap").write_text(
        "// Jest Snapshot v1, https://goo.gl/fbAQLP\n\nexports[`renders 1`] = `<div />`;\n")
    # a compressed CMap as pdf.js ships them: control bytes, no NUL, not UTF-8
    (project / "GB-H.bcmap").write_bytes(b"\x02\xe0RCopyright 1990-2009 Adobe Systems.\n\x01\x02"
                                         b"\x8c\x01\x03\x05\x11\x16\x1c\xa1\x02\x04")
    code, out, err = run(capsys, "chunk", str(project), "--no-progress")
    assert code == 0, err
    read = {Path(json.loads(line)["source"]).name for line in out.splitlines()}
    assert read == {"README.md", "app.py", "cli.md"}
    assert ("chunkwise: skipped 11 files that are not documents: generated 4, lock file 4, "
            "test snapshot 2, binary 1" in err.splitlines()), err
    code, out, err = run(capsys, "chunk", str(project / "Cargo.lock"), "--no-progress")
    assert code == 0 and "memchr" in out
    code, out, err = run(capsys, "chunk", str(project / "GB-H.bcmap"), "--no-progress")
    assert code == 2 and "GB-H.bcmap: binary file (control characters), not text" in err


def test_a_folder_walk_passes_over_translation_catalogues(capsys, tmp_path):
    """A program's strings once per language are no documents to search: pdf.js's
    114 locales' ``viewer.ftl`` were 6,503 of its 24,261 chunks, the ``.po`` files of
    Sphinx's 70 locales 22,275 chunks beside its 1,173 others. gettext's catalogues and
    templates, XLIFF, Fluent, Flutter's ARB, .NET's ``.resx`` and Apple's ``.strings``
    are passed over by their names (``.mo`` was already); one named is read."""
    project = tmp_path / "app"
    (project / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (project / "README.md").write_text("# App\n\nHow to open a document.\n")
    (project / "locale" / "fr" / "LC_MESSAGES" / "app.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: app/viewer.py:12\nmsgid "Open a document"\nmsgstr "Ouvrir un document"\n')
    (project / "locale" / "app.pot").write_text(
        'msgid ""\nmsgstr ""\n\n#: app/viewer.py:12\nmsgid "Open a document"\nmsgstr ""\n')
    for lang, text in (("de", "Dokument öffnen"), ("en-US", "Open a document")):
        (project / "l10n" / lang).mkdir(parents=True)
        (project / "l10n" / lang / "viewer.ftl").write_text(
            f"## Toolbar\n\napp-open-button =\n    .title = {text}\napp-open-label = {text}\n")
    (project / "app.fr.xlf").write_text(
        '<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en" '
        'target-language="fr"><body><trans-unit id="open"><source>Open a document</source>'
        "<target>Ouvrir un document</target></trans-unit></body></file></xliff>\n")
    (project / "Strings.resx").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<root><data name="Open" xml:space="preserve">'
        "<value>Open a document</value></data></root>\n")
    (project / "en.lproj").mkdir()
    (project / "en.lproj" / "Localizable.strings").write_text('"open" = "Open a document";\n')
    (project / "app_en.arb").write_text('{\n  "@@locale": "en",\n  "open": "Open a document"\n}\n')
    code, out, err = run(capsys, "chunk", str(project), "--no-progress")
    assert code == 0, err
    assert {Path(json.loads(line)["source"]).name for line in out.splitlines()} == {"README.md"}
    assert ("chunkwise: skipped 8 files that are not documents: ftl 2, arb 1, po 1, pot 1, "
            "resx 1, strings 1, xlf 1" in err.splitlines()), err
    po = project / "locale" / "fr" / "LC_MESSAGES" / "app.po"
    code, out, err = run(capsys, "chunk", str(po), "--no-progress")
    assert code == 0 and "Ouvrir un document" in out


def test_a_folder_walk_never_reads_a_private_key(capsys, tmp_path):
    """Keys and certificates kept in a project (a deploy key, a TLS certificate, an
    SSH key pair) were read as documents: base64 to the embedder, and a private key in
    an index that search, serve and MCP hand out. A walk passes over every file that
    opens with a PEM or OpenPGP armoured block, key stores and public keys; a
    clear-signed announcement is text and is read."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    folder = tmp_path / "deploy"
    folder.mkdir()
    key = ec.generate_private_key(ec.SECP256R1())
    (folder / "server.key").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()))
    ssh = ed25519.Ed25519PrivateKey.generate()
    (folder / "id_ed25519").write_bytes(ssh.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()))
    (folder / "id_ed25519.pub").write_bytes(ssh.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH) + b" deploy@host\n")
    (folder / "public.pem").write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    (folder / "release.txt").write_text(
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nVersion 2.1 is out: it reads "
        "old Word files.\n-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE\n"
        "-----END PGP SIGNATURE-----\n")
    (folder / "README.md").write_text("# Deploy\n\nThe server's key is kept here.\n")
    code, out, err = run(capsys, "chunk", str(folder), "--no-progress")
    assert code == 0, err
    assert {Path(json.loads(line)["source"]).name for line in out.splitlines()} == {
        "README.md", "release.txt"}
    assert "PRIVATE KEY" not in out and "Version 2.1 is out" in out
    assert ("chunkwise: skipped 4 files that are not documents: key or certificate 3, pub 1"
            in err.splitlines()), err


def test_an_index_kept_beside_the_documents_is_not_read_as_documents(capsys, tmp_path):
    """A LanceDB index inside the folder holds JSON files of its own
    (``chunks.lance/_versions/latest_version_hint.json``): chunk (which knows no
    --db) passes over every ``*.lance`` folder, by folder walk and by glob."""
    (tmp_path / "good.md").write_text("# Good\n\nGood text here.\n")
    hint = tmp_path / "db" / "chunks.lance" / "_versions" / "latest_version_hint.json"
    hint.parent.mkdir(parents=True)
    hint.write_text('{"version": 2}')
    for target in (str(tmp_path), str(tmp_path / "**" / "*")):
        code, out, err = run(capsys, "chunk", target, "--no-progress")
        assert code == 0 and "version" not in out and "Good text" in out, target


def test_summary_and_progress(capsys):
    code, out, err = run(capsys, "chunk", str(SAMPLES), "--summary", "--progress")
    assert code == 0
    assert f"documents {SAMPLE_DOCS}" in out and "chunks" in out and "mean tokens" in out
    assert "max tokens" in out and "time" in out
    # the mixed samples (make demo) show what auto chose for each document
    line = next(x for x in out.splitlines() if x.startswith("documents by strategy: "))
    counts = dict(item.rsplit(" ", 1) for item in line.split(": ", 1)[1].split(", "))
    assert {k: int(v) for k, v in counts.items()} == {
        "code": 1, "faq": 1, "json": 1, "legal": 1, "recursive": 1, "section": 2, "transcript": 1}
    assert "file" in err  # the progress bar went to stderr
    # the two section documents (headings, a table) are sized as reference
    # documentation; with --size nothing is sized by kind
    assert "documents sized by kind: reference 2 (224 tokens)" in out.splitlines()
    code, out, err = run(capsys, "chunk", str(SAMPLES), "--summary", "--size", "160")
    assert code == 0 and "sized by kind" not in out


def test_the_summary_names_documents_that_gave_no_text(capsys, tmp_path):
    (tmp_path / "guide.md").write_text("# Guide\n\nHow the service rotates its keys.\n")
    (tmp_path / "py.typed").write_text("")
    (tmp_path / "app.html").write_text("<html><body><div id='root'></div>"
                                       "<script>render()</script></body></html>")
    code, out, _ = run(capsys, "chunk", str(tmp_path), "--summary", "-o", str(tmp_path / "o"))
    assert code == 0
    assert "documents 3  chunks 1" in out
    assert f"documents without text 2: {tmp_path / 'app.html'}, {tmp_path / 'py.typed'}" in out
    code, out, _ = run(capsys, "chunk", str(tmp_path / "guide.md"), "--summary")
    assert code == 0 and "without text" not in out


def test_empty_blank_and_byte_order_mark_only_files_are_documents_without_text(capsys, tmp_path):
    """In every text format: WebVTT's and JSON's parsers refused an empty file, and a
    Markdown or SRT file holding a byte-order mark alone was a chunk of it (0 tokens)."""
    suffixes = ["vtt", "srt", "json", "jsonl", "ipynb", "csv", "tsv", "md", "txt", "html", "xml",
                "rst", "adoc", "tex", "py"]
    names = []
    for suffix in suffixes:
        for stem, data in (("empty", b""), ("blank", b"\n \n\t\n"), ("bom", b"\xef\xbb\xbf"),
                           ("bom-blank", b"\xef\xbb\xbf\r\n\r\n")):
            (tmp_path / f"{stem}.{suffix}").write_bytes(data)
            names.append(f"{stem}.{suffix}")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--summary", "-o", str(tmp_path / "o.jsonl"))
    assert code == 0 and "error" not in err, err
    assert f"documents {len(names)}  chunks 0" in out
    assert (tmp_path / "o.jsonl").read_text() == ""
    for name in names:
        assert chunkwise.chunk(Path(tmp_path / name)) == []


def test_separators_option(capsys, tmp_path):
    f = tmp_path / "s.txt"
    f.write_text("a b c|d e f|g h i")
    code, out, _ = run(capsys, "chunk", str(f), "--size", "4", "--tokenizer", "words",
                       "--separators", "|")
    assert code == 0
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["a b c|", "d e f|", "g h i"]


def test_view_writes_an_html_page_of_boundaries(capsys, tmp_path):
    import html as htmlmod

    out = tmp_path / "view.html"
    code = main(["view", f"{SAMPLES}/qual-047-incident-procedure.md", "-s", "section", "--size", "80",
                 "--overlap", "8", "-o", str(out)])
    assert code == 0 and "chunks" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    text = Path(f"{SAMPLES}/qual-047-incident-procedure.md").read_bytes().decode("utf-8")
    import re

    stripped = htmlmod.unescape(re.sub(r"<[^>]+>", "", page.split("<pre class='doc'>")[1]
                                       .split("</pre>")[0]))
    assert stripped == text  # the page shows the whole document, verbatim
    assert page.count('class="c') > 5 and "5.2 Accident reports" in page


def test_ids_identical_across_processes():
    runs = [subprocess.run([sys.executable, "-m", "chunkwise.cli", "chunk", str(SAMPLES), "--size", "64",
                            "--no-progress"], capture_output=True, text=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": seed})
            for seed in ("1", "2")]
    ids = [[json.loads(line)["id"] for line in r.stdout.splitlines()] for r in runs]
    assert ids[0] and ids[0] == ids[1] and len(set(ids[0])) == len(ids[0])


@pytest.mark.parametrize("strategy", [pytest.param(s, marks=pytest.mark.slow) if s == "semantic" else s
                                      for s in sorted(__import__("chunkwise").STRATEGIES)])
def test_summary_for_every_strategy(capsys, strategy):
    code, out, err = run(capsys, "chunk", str(SAMPLES), "-s", strategy, "--size", "80", "--summary",
                         "--no-progress")
    assert code == 0, err
    assert f"strategy {strategy}" in out and f"documents {SAMPLE_DOCS}" in out
    assert "Traceback" not in err


def test_chunk_warns_when_chunks_are_longer_than_the_embedder_reads(capsys):
    code, _, err = run(capsys, "chunk", str(SAMPLES), "--summary", "-t", "cl100k_base",
                       "--size", "500", "--embedder", "minilm")
    assert code == 0 and err.count("\n") == 1
    assert "all-MiniLM-L6-v2, which reads 254: the tail of a longer chunk is ignored" in err
    code, _, err = run(capsys, "chunk", str(SAMPLES), "--summary", "--embedder", "minilm")
    assert code == 0 and err == ""


def test_the_library_names_options_and_the_command_line_names_flags(tmp_path, capsys):
    bad = tmp_path / "latin.txt"
    bad.write_bytes("caf\xe9 au lait\n".encode("latin-1"))
    with pytest.raises(chunkwise.InputError, match=r"encoding='latin-1'"):
        chunkwise.chunk(bad)
    assert main(["chunk", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "(--encoding latin-1, say), or --encoding auto" in err and "encoding=" not in err
    assert main(["chunk", str(bad), "--encoding", "auto"]) == 0  # as the message says
    from chunkwise.cli.output import as_flags

    build_parser()
    assert as_flags("pass rebuild=True; lower max_tokens= (or size=)") == (
        "pass --rebuild; lower --max-tokens (or --size)")
    assert as_flags("sizes=(800, 200) and nonsense=True") == "sizes=(800, 200) and nonsense=True"


def test_flags_are_generated_for_strategy_options_without_one(tmp_path, capsys):
    """--table-max, --no-title ... come from the strategies' signatures."""
    doc = tmp_path / "t.md"
    rows = "".join(f"| r{i} | {i} |\n" for i in range(12))
    doc.write_text("---\ntitle: Handbook\n---\n\n## Prices\n\n| item | price |\n|---|---|\n"
                   + rows)
    assert main(["chunk", str(doc), "--strategy", "section", "--size", "64"]) == 0
    whole = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["chunk", str(doc), "--strategy", "section", "--size", "64", "--table-max",
                 "40", "--no-title"]) == 0
    split = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(split) > len(whole)
    assert all(c["context"].startswith("Handbook > Prices") for c in whole if c["kind"] == "table")
    assert all(c["context"].startswith("Prices") for c in split if c["kind"] == "table")
    assert main(["chunk", str(doc), "--strategy", "fixed", "--table-max", "40"]) == 2
    assert "has no option 'table_max'" in capsys.readouterr().err


def test_search_says_where_a_hit_is_in_the_terms_of_its_document(capsys, tmp_path,
                                                                 static_embedder):
    """A hit in a source file names its lines (and symbol), one in a transcript its
    times, beside the character offsets every hit has (--json keeps the metadata)."""
    import shutil

    from chunkwise import Index

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(Path(__file__).parent / "data" / "code" / "shop.py", docs)
    shutil.copy(Path(__file__).parent / "data" / "transcripts" / "call.vtt", docs)
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs, embedder=static_embedder)
    code = (docs / "shop.py").read_text(encoding="utf-8")
    for query, file in (("def total price of the cart", "shop.py"),
                        ("what did they say on the call", "call.vtt")):
        capsys.readouterr()
        assert main(["search", query, "--db", str(tmp_path / "idx"), "-k", "20",
                     "--path", file]) == 0
        out = capsys.readouterr().out
        wheres = [line for line in out.splitlines() if line[:1].isdigit()]
        assert wheres, out
        for line in wheres:
            if file == "shop.py":
                m = re.search(r":(\d+)-(\d+) \(lines (\d+)-(\d+)(, [^)]+)?\)", line)
                assert m, line
                start, end, first, last = map(int, m.groups()[:4])
                assert code.count("\n", 0, start) + 1 == first  # 1-based, inclusive
                assert code.count("\n", 0, end - 1) + 1 == last
            else:
                assert re.search(r"\(\d\d:\d\d:\d\d\.\d{3}-\d\d:\d\d:\d\d\.\d{3}\)", line), line
        if file == "shop.py":  # a method alone, and a group of members by their names
            assert any(re.search(r", Cart\.total\)", w) for w in wheres), wheres
            assert any(re.search(r", Cart\.\w+, Cart\.\w+", w) for w in wheres), wheres


def test_gzip_compressed_documents_are_read_by_the_name_inside(capsys, tmp_path, monkeypatch):
    """Debian installs most documentation gzipped (1,909 ``.gz`` under /usr/share/doc
    here: ``changelog.gz``, ``NEWS.Debian.gz``, pip's ``user_guide.rst.gz``); a folder
    walk passed them over as archives. A gzip-compressed file is read as the document
    inside, its format by the name without ``.gz``; a ``.tar.gz`` is still an archive;
    bad gzip data or a bomb is an error naming the file."""
    import gzip
    import tarfile

    docs = tmp_path / "docs"
    docs.mkdir()
    guide = "User Guide\n==========\n\nRunning pip\n-----------\n\nRun it as a module.\n"
    (docs / "user_guide.rst.gz").write_bytes(gzip.compress(guide.encode()))
    (docs / "NEWS.gz").write_bytes(gzip.compress(b"Version 2\n\nNothing new.\n"))
    with tarfile.open(docs / "bundle.tar.gz", "w:gz") as tar:
        tar.add(docs / "NEWS.gz", arcname="NEWS.gz")
    code, out, err = run(capsys, "chunk", str(docs), "--no-progress")
    assert code == 0, err
    rows = {Path(json.loads(line)["doc_id"]).name: json.loads(line) for line in out.splitlines()}
    assert set(rows) == {"user_guide.rst.gz", "NEWS.gz"}
    assert rows["user_guide.rst.gz"]["headings"] == ["User Guide", "Running pip"]
    assert rows["NEWS.gz"]["text"] == "Version 2\n\nNothing new."
    assert "skipped 1 file that is not a document: gz 1" in err
    (docs / "broken.md.gz").write_bytes(b"\x1f\x8b\x08\x00not gzip at all")
    code, out, err = run(capsys, "chunk", str(docs / "broken.md.gz"), "--no-progress")
    assert code != 0 and "broken.md.gz: not valid gzip data" in err
    import chunkwise.readers as readers

    monkeypatch.setattr(readers, "GUNZIP_MAX_BYTES", 1 << 20)  # 256 MB by default
    bomb = docs / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"a" * (2 << 20)))
    code, out, err = run(capsys, "chunk", str(bomb), "--no-progress")
    assert code != 0 and "bomb.txt.gz: decompresses to more than 1 MB" in err


def test_encoding_auto_reads_a_folder_of_utf8_and_latin1_files(capsys, tmp_path):
    """Found chunking /usr/share/doc: 20 of 4,461 files (changelogs, NEWS) are Latin-1
    among UTF-8 ones; no one --encoding reads both (latin-1 turns UTF-8 into mojibake
    without an error). --encoding auto: UTF-8 where the bytes are, else Windows-1252."""
    (tmp_path / "new.txt").write_text("Zoë’s café — UTF-8.\n", encoding="utf-8")
    (tmp_path / "old.txt").write_bytes("Jan Pokorný’s fix.\n".encode("cp1252"))
    (tmp_path / "page.html").write_bytes('<meta charset="iso-8859-2"><p>Łódź</p>'.encode(
        "iso-8859-2"))  # a declared charset still wins
    (tmp_path / "blob.txt").write_bytes(b"\x00\x01binary")
    code, out, err = run(capsys, "chunk", str(tmp_path), "--encoding", "auto", "--no-progress")
    texts = sorted(json.loads(line)["text"] for line in out.splitlines())
    assert texts == ["Jan Pokorný’s fix.", "Zoë’s café — UTF-8.", "Łódź"], err
    assert code == 0  # the binary file is passed over by the walk, as without auto
    code, out, err = run(capsys, "chunk", str(tmp_path / "old.txt"))
    assert code == 2 and "not valid UTF-8" in err  # without it: an error, as before
    code, out, err = run(capsys, "chunk", str(tmp_path / "blob.txt"), "--encoding", "auto")
    assert code == 2 and "binary file" in err  # no encoding makes a binary file text


def test_a_hit_in_a_file_named_with_a_line_break_is_listed_on_one_line(capsys, tmp_path,
                                                                      static_embedder):
    """A file named ``new<line break>line.md`` split its hit's listing in two (the path
    printed raw); it is shown escaped, as --json keeps it whole."""
    from chunkwise import Index

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "new\nline.md").write_text("# B\n\nbeta text about dogs.\n", encoding="utf-8")
    (docs / "tab\there.md").write_text("# C\n\ngamma text about cats.\n", encoding="utf-8")
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs, embedder=static_embedder)
    capsys.readouterr()
    assert main(["search", "dogs", "--db", str(tmp_path / "idx"), "-k", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = [line for line in lines if line[:1].isdigit()]
    assert len(listed) == 2 and any("new\\nline.md:0-" in line for line in listed), lines
    assert any("tab\\there.md:0-" in line for line in listed), lines
    assert main(["search", "dogs", "--db", str(tmp_path / "idx"), "-k", "2", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {Path(r["source"]).name for r in rows} == {"new\nline.md", "tab\there.md"}


def test_an_error_about_a_file_named_with_a_line_break_is_one_line(tmp_path, capsys):
    """The error naming a file printed its name raw: a line break in it split the
    message. The name is shown escaped; the exception keeps it as it is."""
    bad = tmp_path / "bad\nname.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    assert main(["chunk", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad\\nname.txt: not valid UTF-8" in err
    with pytest.raises(chunkwise.InputError) as caught:
        chunkwise.chunk(bad)
    assert caught.value.source.endswith("bad\nname.txt")


def test_a_commands_parser_alone_loads_no_reader_and_messages_still_name_every_flag():
    """``search`` builds its own parser only (no reader or strategy loaded to list
    ``--format``/``--strategy`` choices), yet a message naming another command's
    option is still written as that flag."""
    from chunkwise.cli import output

    res = subprocess.run([sys.executable, "-c", (
        "import sys; from chunkwise.cli.main import build_parser; build_parser('search'); "
        "print(sorted(m for m in sys.modules if m.startswith('chunkwise.readers.') "
        "and m.rsplit('.', 1)[1] in ('pdf', 'docx', 'epub', 'html', 'markdown')))")],
        capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
    saved = set(output.FLAGS)
    output.FLAGS.clear()
    try:
        build_parser("search")
        build_parser("search")  # (a program calling main again: one full build pending)
        assert len(output.FLAGS_PENDING) == 1
        assert "--retriever" in output.FLAGS and "--rebuild" not in output.FLAGS
        assert output.as_flags("pass rebuild=True") == "pass --rebuild"
        assert not output.FLAGS_PENDING
    finally:
        output.FLAGS.update(saved)
        output.FLAGS_PENDING.clear()
