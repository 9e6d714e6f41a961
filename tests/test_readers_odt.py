"""OpenDocument text: headings, paragraphs, lists, tables, notes; what is no text left out."""

import zipfile
from pathlib import Path

import pytest

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import read_path, sniff_format

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "odt"

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/"')


def test_docutils_odt_reads_as_its_structure():
    """``.odt`` was among the files a folder walk passed over. A real writer's file
    (docutils' rst2odt): the title paragraph (an automatic style deriving from
    ``rststyle-title``) roots every trail, headings by outline level, the list, the
    table as a pipe table, the footnote after the text."""
    doc = read_path(DATA / "field-station-handbook.odt")
    assert doc.title == "Field Station Handbook" and doc.metadata["format"] == "odt"
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    storm = by_text(chunks, "Storm warnings are posted")[0]
    assert storm.headings == ("Field Station Handbook", "Safety", "Weather")
    assert "Carry the radio at all times." in storm.text
    table = next(c for c in chunks if c.kind == "table")
    assert "| Fire | Extension 21 |" in table.text
    assert doc.text.rstrip().endswith("The duty officer may extend this in calm conditions.")


def test_what_is_no_running_text_is_left_out(tmp_path):
    content = (f'<office:document-content {NS}><office:automatic-styles>'
               '<style:style style:name="P1" style:parent-style-name="Title"/>'
               '</office:automatic-styles><office:body><office:text>'
               '<text:tracked-changes><text:changed-region><text:deletion><text:p>deleted '
               'words</text:p></text:deletion></text:changed-region></text:tracked-changes>'
               '<text:p text:style-name="P1">Lab Manual</text:p>'
               '<text:table-of-content><text:index-body><text:p>1 Setup ..... 2</text:p>'
               '</text:index-body></text:table-of-content>'
               '<text:h text:outline-level="1">Setup</text:h>'
               '<text:p>Plug in<text:s text:c="2"/>the <text:span>centrifuge</text:span>'
               '<office:annotation><text:p>a reviewer comment</text:p></office:annotation>'
               ' first.<text:line-break/>Then wait.</text:p>'
               '<text:list><text:list-item><text:p>Gloves</text:p></text:list-item>'
               '<text:list-item><text:p>Goggles</text:p></text:list-item></text:list>'
               '</office:text></office:body></office:document-content>')
    path = tmp_path / "manual.odt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    doc = read_path(path)
    for gone in ("deleted words", "a reviewer comment", "Setup ..... 2"):
        assert gone not in doc.text
    assert doc.title == "Lab Manual"
    assert "Plug in the centrifuge first.\nThen wait." in doc.text
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "list_item"] == [
        "Gloves", "Goggles"]
    assert sniff_format(path.read_bytes(), "manual") == "odt"
    (tmp_path / "broken.odt").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(InputError) as err:
        read_path(tmp_path / "broken.odt")
    assert "broken.odt: not a readable OpenDocument text" in str(err.value)
