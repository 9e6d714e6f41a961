"""Structure: readers, section chunking with heading trails, tables kept whole."""

import pytest

import chunkwise
from chunkwise.readers import read_path

from helpers import (
    QUAL,
    assert_invariants,
    by_text,
    make_pdf,
)


def test_pdf_pages_hyphenation_headers_and_table(tmp_path):
    path = tmp_path / "manual.pdf"
    make_pdf(path)
    doc = read_path(path)
    assert "retention period" in doc.text and "reten-" not in doc.text
    assert "ACME Corp" not in doc.text and "Page 1 of 2" not in doc.text  # running lines
    chunks = chunkwise.chunk(path, strategy="section", size=128)
    assert_invariants(doc.text, chunks, 128)
    records = by_text(chunks, "retention period")[0]
    assert records.page == 1 and records.headings == ("1 Records",)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) == 1 and tables[0].page == 2
    assert tables[0].text.splitlines()[0] == "| Record | Years |"
    assert "| Near miss | 3 |" in tables[0].text


def test_bad_pdfs_and_binary_html_are_clear_errors(tmp_path):
    enc = tmp_path / "secret.pdf"
    make_pdf(enc, password="pw")
    with pytest.raises(chunkwise.InputError, match="secret.pdf: encrypted PDF"):
        read_path(enc)
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage")
    with pytest.raises(chunkwise.InputError, match="corrupt.pdf: not a readable PDF"):
        read_path(corrupt)
    from fpdf import FPDF

    blank = FPDF()
    blank.add_page()
    blank.rect(10, 10, 50, 50)
    blank.output(str(tmp_path / "scan.pdf"))
    with pytest.raises(chunkwise.InputError, match="scan.pdf: PDF has no text layer"):
        read_path(tmp_path / "scan.pdf")
    fake = tmp_path / "page.html"
    fake.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + bytes(range(256)))
    with pytest.raises(chunkwise.InputError, match="page.html: binary file"):
        read_path(fake)


def test_cli_folder_with_bad_pdf_goes_on(tmp_path, capsys):
    import json

    from chunkwise.cli import main

    make_pdf(tmp_path / "good.pdf")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    (tmp_path / "notes.md").write_text(QUAL)
    code = main(["chunk", str(tmp_path), "--strategy", "auto", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 2 and "broken.pdf: not a readable PDF" in err and "Traceback" not in err
    docs = {json.loads(line)["doc_id"] for line in out.splitlines()}
    assert docs == {str(tmp_path / "good.pdf"), str(tmp_path / "notes.md")}


def test_pdf_headings_by_font_size(tmp_path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=20)
    pdf.cell(0, 12, "Records Manual", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=15)
    pdf.cell(0, 10, "Retention Rules", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Accident reports are kept for seven years after the case closes.\n\n"
                         "Near-miss reports are kept for three years.")
    pdf.set_font("Helvetica", size=15)
    pdf.cell(0, 10, "Disposal", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Expired records are shredded on site by the records officer.")
    pdf.output(str(tmp_path / "manual.pdf"))
    doc = read_path(tmp_path / "manual.pdf")
    headings = [(b.level, doc.text[b.start:b.end]) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(1, "Records Manual"), (2, "Retention Rules"), (2, "Disposal")]
    chunks = chunkwise.chunk(tmp_path / "manual.pdf", strategy="section", size=64)
    seven = by_text(chunks, "seven years")[0]
    assert seven.headings == ("Records Manual", "Retention Rules") and seven.page == 1
    assert seven.context == "Records Manual > Retention Rules\n\n"
    shred = by_text(chunks, "shredded")[0]
    assert shred.headings == ("Records Manual", "Disposal")
