"""PDF page numbers on every chunk under every strategy, right where a page turns
mid-paragraph (issue 13, item 1), and PDF metadata on the document."""

import pytest

import chunkwise
from chunkwise.readers import read_path

from helpers import assert_invariants

SENTENCES = [f"Sentence {i} of the long report describes finding number {i} in plain words."
             for i in range(160)]


def long_pdf(path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("Annual Findings")
    pdf.set_author("Quality Office")
    pdf.set_creation_date(__import__("datetime").datetime(2026, 3, 4, 10, 30))
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    # one paragraph long enough to run over three pages: the page turns mid-paragraph
    pdf.multi_cell(0, 6, " ".join(SENTENCES[:110]))
    pdf.ln(6)
    pdf.multi_cell(0, 6, " ".join(SENTENCES[110:]))
    pdf.output(str(path))


def page_texts(path):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    out = [" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]
    pdf.close()
    return out


@pytest.mark.parametrize("strategy", ["fixed", "sentence", "recursive", "section", "auto"])
def test_every_chunk_carries_the_page_where_it_starts(tmp_path, strategy):
    path = tmp_path / "report.pdf"
    long_pdf(path)
    pages = page_texts(path)
    assert len(pages) >= 3
    doc = read_path(path)
    chunks = chunkwise.chunk(path, strategy=strategy, size=64)
    assert_invariants(doc.text, chunks, 64)
    spanning = 0
    for c in chunks:
        assert c.page is not None
        head = " ".join(c.text.split()[:4])
        assert head in pages[c.page - 1], (c.page, head)
        first, last = c.metadata.get("pages", [c.page, c.page])
        assert first == c.page and last >= first
        tail = " ".join(c.text.split()[-3:])
        assert tail in pages[last - 1] or tail in pages[last - 1].replace("- ", "")
        spanning += last > first
    assert spanning >= 1  # some chunk crosses a page turn and says so


def test_pdf_metadata_reaches_the_document_and_its_chunks(tmp_path):
    path = tmp_path / "report.pdf"
    long_pdf(path)
    doc = read_path(path)
    assert doc.metadata["title"] == "Annual Findings" and doc.metadata["author"] == "Quality Office"
    assert doc.metadata["created"].startswith("2026-03-04")
    assert doc.title == "Annual Findings"
