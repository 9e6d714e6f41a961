"""EPUB books: the spine's XHTML documents in reading order, the package's metadata."""

import zipfile
from pathlib import Path

import pytest

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import read_path

from helpers import assert_invariants, by_text

CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             '</rootfiles></container>')


def _chapter(title: str, paragraphs: list[str], table: bool = False) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    if table:
        body += ("<table><tr><th>Ship</th><th>Crew</th></tr><tr><td>Hispaniola</td>"
                 "<td>twenty-six</td></tr></table>")
    return ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html '
            'xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>'
            '<link rel="stylesheet" href="../css/book.css"/></head><body>'
            f'<section><h2>{title}</h2>{body}</section></body></html>')


def _book(path: Path, chapters: dict[str, str], spine: list[tuple[str, bool]]) -> Path:
    """An EPUB 3 as the spec lays it out: the mimetype first and stored, a
    container naming the package, a package listing a manifest and a spine."""
    manifest = "".join(f'<item id="{i}" href="text/{i}.xhtml" media-type="application/xhtml+xml"/>'
                       for i in chapters)
    manifest += ('<item id="css" href="css/book.css" media-type="text/css"/>'
                 '<item id="cover" href="images/cover.jpg" media-type="image/jpeg"/>')
    nonlinear = ' linear="no"'
    itemrefs = "".join(f'<itemref idref="{i}"{"" if linear else nonlinear}/>'
                       for i, linear in spine)
    opf = ('<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" '
           'version="3.0" unique-identifier="id"><metadata '
           'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:x</dc:identifier>'
           '<dc:title>Treasure Island</dc:title><dc:creator>Robert Louis Stevenson</dc:creator>'
           f'<dc:language>en</dc:language></metadata><manifest>{manifest}</manifest>'
           f'<spine>{itemrefs}</spine></package>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip",
                   compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", CONTAINER)
        z.writestr("OEBPS/content.opf", opf)
        for i, xhtml in chapters.items():
            z.writestr(f"OEBPS/text/{i}.xhtml", xhtml)
        z.writestr("OEBPS/css/book.css", "p { margin: 0 }")
        z.writestr("OEBPS/images/cover.jpg", b"\xff\xd8\xff" + bytes(64))
    return path


def test_a_book_reads_in_reading_order_with_its_chapters_and_metadata(tmp_path):
    """EPUB was among the files a folder walk passed over as archives: a user's
    books gave nothing. Now the spine's documents are read in order (the
    manifest's order and files outside the spine do not matter), each chapter's
    headings its trail, the title and author from the package."""
    speech = "“Fifteen men on the dead man’s chest,” he sang, and the crew took it up again."
    chapters = {
        "ch2": _chapter("II. Black Dog Appears and Disappears",
                        ["It was not very long after this that there occurred the first of "
                         "the mysterious events.", speech] * 3),
        "ch1": _chapter("I. The Old Sea-dog at the Admiral Benbow",
                        ["Squire Trelawney, Dr. Livesey, and the rest of these gentlemen "
                         "asked me to write down the whole particulars.", speech] * 3,
                        table=True),
        "notes": _chapter("Notes", ["Endnotes that the reading order leaves out."]),
    }
    path = _book(tmp_path / "treasure.epub", chapters, [("ch1", True), ("ch2", True),
                                                         ("notes", False)])
    doc = read_path(path)
    assert doc.title == "Treasure Island" and doc.metadata["format"] == "epub"
    assert doc.metadata["authors"] == ["Robert Louis Stevenson"]
    assert doc.metadata["language"] == "en" and doc.metadata["documents"] == 2
    assert doc.text.index("Admiral Benbow") < doc.text.index("Black Dog")
    assert "Endnotes" not in doc.text and "margin" not in doc.text
    for b in doc.blocks:  # every block's span is its text in the book's text
        assert doc.text[b.start:b.end].strip()
    table = next(b for b in doc.blocks if b.kind == "table")
    assert doc.text[slice(*table.metadata["rows"][0])] == "| Hispaniola | twenty-six |"
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert by_text(chunks, "mysterious events")[0].headings == (
        "II. Black Dog Appears and Disappears",)
    assert by_text(chunks, "Squire Trelawney")[0].headings == (
        "I. The Old Sea-dog at the Admiral Benbow",)


def test_a_folder_walk_reads_books(tmp_path, capsys):
    from chunkwise.cli import main

    books = tmp_path / "books"
    books.mkdir()
    _book(books / "a.epub", {"c": _chapter("One", ["A sentence of the first book."])},
          [("c", True)])
    (books / "cover.jpg").write_bytes(b"\xff\xd8\xff" + bytes(16))
    assert main(["chunk", str(books), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "A sentence of the first book." in out and "jpg 1" in err


@pytest.mark.parametrize("content, message", [
    (b"not a zip at all", "not a readable EPUB book (BadZipFile"),
    (None, "not a readable EPUB book (KeyError"),  # a zip without META-INF/container.xml
])
def test_a_broken_book_is_a_clear_error_naming_it(tmp_path, content, message):
    path = tmp_path / "broken.epub"
    if content is None:
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("mimetype", "application/epub+zip")
    else:
        path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_path(path)
    assert "broken.epub" in str(err.value) and message in str(err.value)


EPUBCHECK = Path(__file__).resolve().parent / "data" / "epub"


@pytest.mark.parametrize("name, version", [("epub3-minimal.epub", "3.0"),
                                           ("epub2-ocf-minimal-valid.epub", "2.0"),
                                           ("ocf-filepath-utf8-valid.epub", "3.0")])
def test_epubchecks_valid_books(name, version):
    """EPUBCheck's own conformance books (EPUB 2 and 3, a UTF-8 file path inside the
    zip): "Call me Ishmael." under its chapter, the book's title from the package."""
    doc = read_path(EPUBCHECK / name)
    assert doc.title == f"Minimal EPUB {version}"
    chunks = chunkwise.chunk(doc)
    assert [c.text for c in chunks] == ["Loomings\n\nCall me Ishmael."]
    assert chunks[0].headings == ("Loomings",)


def test_epubchecks_unreadable_zip_is_an_error_naming_it():
    with pytest.raises(InputError) as err:
        read_path(EPUBCHECK / "ocf-zip-unreadable-no-end-header-fatal.epub")
    assert "ocf-zip-unreadable-no-end-header-fatal.epub: not a readable EPUB book" in str(err.value)
