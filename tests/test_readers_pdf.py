"""Structure: readers, section chunking with heading trails, tables kept whole."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    from PIL import Image

    scan = FPDF()
    scan.add_page()
    scan.image(Image.new("L", (64, 64), 200), x=10, y=10, w=50)
    scan.output(str(tmp_path / "scan.pdf"))
    with pytest.raises(chunkwise.InputError, match="scan.pdf: PDF has no text layer .scanned"):
        read_path(tmp_path / "scan.pdf")
    # a drawing alone (Knative's vector logos were told to run OCR) and an empty page
    logo = FPDF()
    logo.add_page()
    logo.rect(10, 10, 50, 50)
    logo.output(str(tmp_path / "logo.pdf"))
    with pytest.raises(chunkwise.InputError, match="logo.pdf: PDF has no text: its pages hold drawings"):
        read_path(tmp_path / "logo.pdf")
    blank = FPDF()
    blank.add_page()
    blank.output(str(tmp_path / "blank.pdf"))
    with pytest.raises(chunkwise.InputError, match="blank.pdf: PDF has no text: its pages are empty"):
        read_path(tmp_path / "blank.pdf")
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


def test_borderless_requirement_tables_of_the_real_owasp_asvs():
    """Issue 21: OWASP ASVS 4.0.3's requirement tables have no ruling lines, so
    pdfplumber finds none, and every row's first cell ("2.1.5 Verify users can
    change their password. ... 620 5.1.1.2") became a numbered heading. Now the
    header of short labels and the lines aligned under it make a table: one row per
    requirement, its wrapped description joined, the level marks and references in
    their columns (two pages of the real PDF, CC BY-SA 4.0, tests/data/asvs)."""
    import re

    from helpers import ROOT

    path = ROOT / "tests" / "data" / "asvs" / "asvs-4.0.3-v2.1-excerpt.pdf"
    doc = read_path(path)
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["Legend", "V2.1 Password Security"]
    tables = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "table"]
    assert [b.page for b in doc.blocks if b.kind == "table"] == [1, 2]
    assert all(t.startswith("| # | Description | L1 | L2 | L3 | CWE | NIST § |\n")
               for t in tables)
    ids = re.findall(r"^\| (2\.1\.\d+) \|", "\n".join(tables), re.M)
    assert ids == [f"2.1.{n}" for n in range(1, 13)]
    assert ("| 2.1.1 | Verify that user set passwords are at least 12 characters in length "
            "(after multiple spaces are combined). (C6) | \u2713 | \u2713 | \u2713 | 521 | "
            "5.1.1.2 |") in tables[0]
    assert "| 2.1.10 | Verify that there are no periodic credential rotation or password " \
           "history requirements. | \u2713 | \u2713 | \u2713 | 263 | 5.1.1.2 |" in tables[1]
    assert not re.search(r"2\.1\.\d+ Verify", doc.text)  # no row left as text
    # the prose around the tables stays prose
    assert "Note: The goal of allowing the user to view their password" in doc.text
    chunks = chunkwise.chunk(path, size=160)
    assert_invariants(doc.text, chunks, 254)  # a row over the size stays whole
    assert all(c.token_count <= 160 for c in chunks if c.kind != "table")
    row = by_text(chunks, "password strength meter")[0]
    assert row.kind == "table" and row.headings == ("V2.1 Password Security",)


def test_aligned_text_that_is_no_table_stays_text(tmp_path):
    """A borderless table needs a header of short labels over aligned lines: a
    monospaced command block ("hf auth login"), a two-column list and prose are
    left alone (the structured set's PDFs come out as before)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Courier", size=10)
    for y, line in enumerate(["hf auth login", "# Find models served by Inference Providers",
                              "hf models ls --warm", "# Download a model"]):
        pdf.text(20, 30 + 5 * y, line)
    pdf.set_font("Helvetica", size=10)
    for y, (term, meaning) in enumerate([("Term", "Meaning"), ("CSP", "Credential Service "
                                         "Provider"), ("OTP", "One-time password")]):
        pdf.text(20, 70 + 6 * y, term)
        pdf.text(60, 70 + 6 * y, meaning)
    path = tmp_path / "no-table.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    assert [b.kind for b in doc.blocks if b.kind == "table"] == []
    assert "hf auth login" in doc.text and "One-time password" in doc.text


def test_a_generated_borderless_table_is_a_table(tmp_path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.text(20, 20, "Retention of records, as agreed with the auditors in the last review.")
    rows = [("#", "Record", "Years", "Owner"), ("1", "Accident reports", "7", "Safety"),
            ("2", "Near misses", "3", "Safety"), ("3", "Training logs", "5", "HR")]
    for y, row in enumerate(rows):
        for x, cell in zip((20, 35, 110, 140), row):
            pdf.text(x, 35 + 7 * y, cell)
    path = tmp_path / "borderless.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    tables = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "table"]
    assert tables == ["| # | Record | Years | Owner |\n|---|---|---|---|\n"
                      "| 1 | Accident reports | 7 | Safety |\n| 2 | Near misses | 3 | Safety |\n"
                      "| 3 | Training logs | 5 | HR |"]
    assert "Retention of records" in doc.text


def _manual_with_contents(path):
    """A manual as GNU's are set: a contents page of dot-leader lines in the body's font,
    chapters set larger, and an appendix holding a licence numbered in the body's font."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()

    def line(size, text, height=8):
        pdf.set_font("Helvetica", size=size)
        pdf.cell(0, height, text, new_x="LMARGIN", new_y="NEXT")

    line(20, "Records Manual", 12)
    line(15, "Table of Contents", 10)
    for entry in ("1 Scope . . . . . . . . . . . . . . . . . . . . . . . . 2",
                  "2 Retention Rules . . . . . . . . . . . . . . . . . . 2",
                  "2.1 Accident Reports . . . . . . . . . . . . . . . . 2",
                  "Appendix A Licence . . . . . . . . . . . . . . . . . iv"):
        line(11, entry, 6)
    pdf.add_page()
    for size, text in ((15, "1 Scope"), (11, "This manual covers paper and electronic records."),
                       (15, "2 Retention Rules"),
                       (11, "Accident reports are kept for seven years after the case closes."),
                       (15, "Appendix A Licence"), (11, "1. APPLICABILITY AND DEFINITIONS"),
                       (11, "Anyone may copy this manual verbatim, in any medium."),
                       (15, "Index"), (11, "accident reports, disposal, retention.")):
        line(size, text)
    pdf.output(str(path))


def test_a_contents_page_gives_no_headings_and_numbered_lines_sit_under_the_chapters(tmp_path):
    """libtasn1's manual (GNU, as Debian ships it): the contents line "2 ASN.1 structure
    handling . . . . 2" was read as a numbered heading of level 1, above the chapters set
    larger, so every later chunk had it (dot leaders and all) in its trail; and the GNU
    licence's "11. RELICENSING", numbered in the body's font, was level 1 too, so the
    manual's index sat under it."""
    path = tmp_path / "manual.pdf"
    _manual_with_contents(path)
    doc = read_path(path)
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert not [h for h in headings if ". . ." in h], headings
    chunks = chunkwise.chunk(path, strategy="section", size=64)
    assert by_text(chunks, "seven years")[0].headings == ("Records Manual", "2 Retention Rules")
    assert by_text(chunks, "verbatim")[0].headings == (
        "Records Manual", "Appendix A Licence", "1. APPLICABILITY AND DEFINITIONS")
    assert by_text(chunks, "disposal, retention")[0].headings == ("Records Manual", "Index")


def test_a_contents_line_of_a_text_file_is_no_heading():
    from chunkwise.readers.text import NUMBERED_HEADING

    for line in ("2 ASN.1 structure handling . . . . . . . 2", "2.1 Overview ........ 12",
                 "1. Introduction . . . . iv"):
        assert NUMBERED_HEADING.match(line) is None, line
    for line in ("3 Utilities", "2.1 ASN.1 syntax", "4.2 Version 2.0 of the format"):
        assert NUMBERED_HEADING.match(line) is not None, line


def test_running_headers_on_a_quarter_of_the_pages_and_data_rows_kept(tmp_path):
    """A municipal report (pdfplumber's chelsea_pdta.pdf, 65 pages) repeats a
    three-line header (title, page number, "Rapport final_2021") on 24 pages, its
    charts filling the rest: the header was in the text of every page that had it
    (the rule wanted half the pages, and two lines at each end). Each chart ends in a
    totals row, the same words with other numbers on every page: data, kept."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    for page in range(1, 13):
        pdf.add_page()
        if page <= 4:  # text pages: the running header
            for y, line in ((10, "Active Transport Plan of the Municipality"), (16, str(page)),
                            (22, "Final Report 2021")):
                pdf.set_y(y)
                pdf.cell(0, 6, line)
            pdf.set_y(40)
            subject = ["trails", "roads", "schools", "parks"][page - 1]
            pdf.multi_cell(0, 6, "\n".join(f"This section explains how the {subject} grow, "
                                           f"{part} part." for part in ("first", "second", "third",
                                                                        "fourth", "fifth", "last")))
        else:  # chart pages
            pdf.set_y(40)
            topic = ["trails", "bike lanes", "sidewalks", "lighting", "crossings", "signs",
                     "parking", "benches"][page - 5]
            pdf.multi_cell(0, 6, f"Should the municipality add {topic}?\n\nStrongly agree\n"
                                 "Agree\nDisagree\nStrongly disagree")
            pdf.set_y(-30)
            pdf.cell(0, 6, f"Agree Disagree Total {100 + page} {20 + 2 * page} {120 + 3 * page}")
    path = tmp_path / "plan.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    assert "Active Transport Plan" not in doc.text and "Final Report 2021" not in doc.text
    assert "This section explains how the schools grow, last part." in doc.text
    assert "Should the municipality add benches?" in doc.text
    assert doc.text.count("Agree Disagree Total") == 8 and "Agree Disagree Total 112 44 156" in doc.text


def test_a_texinfo_running_header_naming_a_short_chapter_is_dropped(tmp_path):
    """GNU manuals typeset by Texinfo (libtasn1's, as Debian installs it) head each page
    but a chapter's first with ``Chapter 2: ASN.1 structure handling 3``: the chapter's
    name, then the folio. A short chapter's header is on fewer pages than the
    document-wide rule asks (a quarter), so it stayed in the text, once glued into a
    paragraph. The same words ending in a number that goes up with the page, on two
    pages or more, are a running header; a one-word title with a number is not."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    chapters = [("Introduction", 1), ("Structure handling", 3), ("Utilities", 3),
                ("Function reference", 6)]
    folio = 0
    for number, (name, pages) in enumerate(chapters, start=1):
        for k in range(pages):
            folio += 1
            pdf.add_page()
            pdf.set_y(10)
            pdf.cell(0, 6, str(folio) if k == 0 else f"Chapter {number}: {name} {folio}")
            pdf.set_y(30)
            if k == 0:
                pdf.cell(0, 8, f"{number} {name}")
                pdf.set_y(45)
            exercise = f"Exercise {folio}\n\n" if number == 2 else ""  # (a few pages)
            pdf.multi_cell(0, 6, exercise + " ".join(
                f"Sentence {i} of page {folio} explains {name.lower()} in some detail."
                for i in range(6)))
    path = tmp_path / "manual.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    for header in ("Chapter 2: Structure handling", "Chapter 3: Utilities", "Chapter 4:"):
        assert header not in doc.text
    assert "Sentence 2 of page 13 explains function reference" in doc.text
    assert all(f"Exercise {n}" in doc.text for n in (2, 3, 4))


def test_a_line_ending_in_a_hash_sign_at_a_pages_edge_is_read(tmp_path):
    """Valgrind's manual as Debian installs it (valgrind_manual.pdf.gz, 1.4 MB) failed
    whole ("cannot be read as pdf (IndexError: ...)"): a chart of Massif's at a page's
    foot ends its line in a ``#`` of its own, which the search for running headers
    ending in a page number took for a number it had replaced."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    topics = ["the heap", "the stack", "the snapshots"]
    for page, topic in enumerate(topics):
        pdf.add_page()
        pdf.set_y(30)
        pdf.multi_cell(0, 6, "\n".join(f"How Massif measures {topic}, {part} remark."
                                       for part in ("a first", "a second", "a third", "a last")))
        pdf.set_y(-30)
        pdf.cell(0, 6, "MB ^ #" if page == 1 else f"So much for {topic}.")
    path = tmp_path / "massif.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    assert "MB ^ #" in doc.text
    assert "How Massif measures the snapshots, a last remark." in doc.text


def _raw_pdf(objs: list[bytes]) -> bytes:
    """A PDF file of these objects (numbered from 1; the first is the catalog), with its
    cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def _pdf_with_glyph_codes(pages: list[list[bytes] | str]) -> bytes:
    """A PDF written by hand: a page given as bytes lines is set in a Type 3 font with
    made-up glyph names and no ToUnicode map (as TeX's bitmap fonts and some subset
    fonts are: its text extracts as control codes, not letters); a page given as a
    ``str`` is set in Helvetica (readable)."""
    names = " ".join(f"/g{i}" for i in range(1, 40))
    procs = " ".join(f"/g{i} 5 0 R" for i in range(1, 40))
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, once the pages' numbers are known
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << " + procs.encode() + b" >> /Encoding << /Type /Encoding /Differences [1 "
        + names.encode() + b"] >> /FirstChar 1 /LastChar 39 /Widths [" + b" 600" * 39 + b"] >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length 38 >>\nstream\n600 0 0 0 500 500 d1 0 0 500 500 re f\nendstream",
    ]
    kids = []
    for page in pages:
        font, lines = (b"/F2", [line.encode() for line in page.splitlines()]) if isinstance(page, str) \
            else (b"/F1", page)
        content = b"BT " + font + b" 11 Tf 72 740 Td 14 TL " + \
            b" ".join(b"(" + line + b") '" for line in lines) + b" ET"
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
                    b"<< /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>" % (len(objs)))
        kids.append(len(objs))
    objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + \
        b"] /Count %d >>" % len(kids)
    return _raw_pdf(objs)


# glyph codes 1-8 and 14-31 (pdfium reads 9, 10 and 13 as whitespace)
_CODES = [c for c in range(1, 32) if c not in (9, 10, 11, 12, 13)]
_GLYPH_LINES = [bytes(_CODES[(i * 7 + j) % len(_CODES)] for j in range(6)) + b" "
                + bytes(_CODES[(i * 3 + j) % len(_CODES)] for j in range(5)) for i in range(30)]


def test_a_pdf_whose_text_is_glyph_codes_is_refused_and_such_pages_are_named(tmp_path, capsys):
    """pdf.js's TAMReview.pdf (a review article set in fonts with no Unicode map) was
    read as 601 chunks of control characters, indexed without a word of warning."""
    import json

    from chunkwise.cli import main

    codes = tmp_path / "codes.pdf"
    codes.write_bytes(_pdf_with_glyph_codes([_GLYPH_LINES]))
    with pytest.raises(chunkwise.InputError, match=r"codes.pdf: PDF text is unreadable: 100% of its "
                       r"characters are glyph codes .* run OCR on it first"):
        read_path(codes)
    first = "".join(f"Refunds of order {i} reach your card within five days.\n" for i in range(20))
    last = "".join(f"The warehouse {i} ships parcels on weekdays.\n" for i in range(20))
    mixed = tmp_path / "mixed.pdf"
    mixed.write_bytes(_pdf_with_glyph_codes([first, _GLYPH_LINES, last]))
    with pytest.warns(UserWarning, match=r"mixed.pdf: the text of page 2 is glyph codes"):
        doc = read_path(mixed)
    assert doc.text.count("reach your card") == 20 and doc.text.count("ships parcels") == 20
    assert {b.page for b in doc.blocks} == {1, 2, 3}  # nothing dropped
    # a readable PDF says nothing
    make_pdf(tmp_path / "good.pdf")
    code = main(["chunk", str(tmp_path), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert "codes.pdf: PDF text is unreadable" in err
    assert "mixed.pdf: the text of page 2 is glyph codes" in err
    assert "good.pdf" not in err
    docs = {json.loads(line)["doc_id"] for line in out.splitlines()}
    assert docs == {str(tmp_path / "good.pdf"), str(tmp_path / "mixed.pdf")}


def _filled_form(with_text: bool) -> bytes:
    """A one-page PDF form written by hand (AcroForm text, choice and check-box fields,
    filled in), with a printed heading or none."""
    fields: list[tuple[bytes, int]] = [  # (annotation dictionary body, rectangle top)
        (b"/FT /Tx /T (name) /TU (Applicant name) /V (Ada Lovelace)", 700),
        (b"/FT /Tx /T (date) /V <FEFF0032003000320036002D00310032002D00300036>", 660),  # UTF-16
        (b"/FT /Ch /T (country) /V (NO) /Opt [[(SE) (Sweden)] [(NO) (Norway)]]", 620),  # exported
        (b"/FT /Btn /T (married) /V /Yes", 580),  # a check box: left out
        (b"/FT /Tx /T (secret) /V (hidden value) /F 2", 540),  # hidden: left out
        (b"/FT /Tx /T (empty) /V ()", 500),
    ]
    objs = [b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] >> >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> "
            b">> /Contents 4 0 R /Annots [%s] >>"]
    content = b"BT /F1 14 Tf 72 750 Td (Visa application) Tj ET" if with_text else b""
    objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    refs = []
    for body, top in fields:
        objs.append(b"<< /Type /Annot /Subtype /Widget /Rect [72 %d 300 %d] /P 3 0 R %s >>"
                    % (top - 20, top, body))
        refs.append(b"%d 0 R" % len(objs))
    objs[0] %= b" ".join(refs)
    objs[2] %= b" ".join(refs)
    return _raw_pdf(objs)


def test_the_values_filled_in_a_pdf_forms_fields_are_read(tmp_path):
    """A form's values live in its fields, not in the page's text: a filled form read as
    "PDF has no text: its pages are empty" (pdf.js's bug1844576.pdf), and a form with
    printed text lost every answer."""
    printed = tmp_path / "visa.pdf"
    printed.write_bytes(_filled_form(with_text=True))
    doc = read_path(printed)
    assert doc.text == ("Visa application\n\nApplicant name: Ada Lovelace\ndate: 2026-12-06\n"
                        "country: Norway")
    (fields,) = [b for b in doc.blocks if b.metadata.get("form_fields")]
    assert fields.page == 1 and doc.text[fields.start:fields.end].startswith("Applicant name: Ada")
    (bare := tmp_path / "bare.pdf").write_bytes(_filled_form(with_text=False))
    assert read_path(bare).text == "Applicant name: Ada Lovelace\ndate: 2026-12-06\ncountry: Norway"
    chunks = chunkwise.chunk(printed)
    assert any("Ada Lovelace" in c.text for c in chunks)


def _paper_with_an_outline(path, outline=True):
    """A paper set as IEEE sets one: section titles in the body's font and size, as
    ``I. INTRODUCTION`` over the outline's ``I Introduction``, subsections as ``A.
    Corpus`` under ``II-A Corpus``; a chapter opening with its number spelled out; a
    title wrapped over two lines; an outline entry whose title no line prints."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    body = ("The measurements below were taken on a quiet machine over three days, "
            "and each figure is the median of five runs.")
    sections = [  # (outline level, outline title, printed lines, paragraph)
        (0, "I Introduction", ["I. INTRODUCTION"], "Retrieval needs passages that cite back."),
        (0, "II Method", ["II. METHOD"], "Each document is cut by its structure first."),
        (1, "II-A Corpus", ["A. Corpus"], "The corpus holds manuals and papers."),
        (1, "II-B Questions", ["B. Questions"], "Questions were written by hand."),
        (0, "Chapter 3: Results", ["CHAPTER THREE: Results"], "Recall rose by nine points."),
        (1, "3.1 Effects of chunk size on recall for narrative prose",
         ["3.1 Effects of chunk size on recall", "for narrative prose"],
         "Larger chunks held whole scenes."),
        (1, "Threats to validity", [], "Only one machine was used."),
    ]
    for level, title, printed, paragraph in sections:
        pdf.add_page()
        if outline:
            pdf.start_section(title, level=level)
        pdf.set_y(30)
        for line in printed:
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.multi_cell(0, 6, f"{paragraph} {body}")
    pdf.output(str(path))


def test_a_pdfs_outline_names_its_headings_where_their_lines_print_the_titles(tmp_path):
    """LaTeX, Word, LibreOffice and Chrome write an outline (bookmarks) naming each
    section and its page. A paper whose section titles are set in the body's font (as
    IEEE sets them: small capitals of the body's size) got 1 heading of 20 from the
    font sizes, a French report 1 of its 4 chapters set in its body font
    (pdfplumber's issue-982-example.pdf and chelsea_pdta.pdf): the paper's chunks had
    no context. An entry is a heading where a line (or two, wrapped) of its page prints
    its title, compared as words, case, punctuation and a leading enumeration aside;
    its level is its depth in the outline; the heading's text is the line as printed."""
    path = tmp_path / "paper.pdf"
    _paper_with_an_outline(path)
    doc = read_path(path)
    headings = [(b.level, doc.text[b.start:b.end], b.page) for b in doc.blocks if b.kind == "heading"]
    assert headings == [
        (1, "I. INTRODUCTION", 1), (1, "II. METHOD", 2), (2, "A. Corpus", 3),
        (2, "B. Questions", 4), (1, "CHAPTER THREE: Results", 5),
        (2, "3.1 Effects of chunk size on recall for narrative prose", 6)]
    by_words = {doc.text[b.start:b.end].split(".")[0]: b.headings for b in doc.blocks
                if b.kind == "paragraph"}
    assert by_words["Questions were written by hand"] == ("II. METHOD", "B. Questions")
    # the entry no line prints adds nothing: its page stays under the section before
    assert by_words["Only one machine was used"] == (
        "CHAPTER THREE: Results", "3.1 Effects of chunk size on recall for narrative prose")
    assert "Threats to validity" not in doc.text
    chunks = chunkwise.chunk(path, strategy="section", size=64)
    corpus = by_text(chunks, "holds manuals and papers")[0]
    assert corpus.context == "II. METHOD > A. Corpus\n\n"
    assert_invariants(doc.text, chunks, 64)
    # the same pages without an outline: the font sizes and numbers alone, as before
    _paper_with_an_outline(tmp_path / "bare.pdf", outline=False)
    bare = read_path(tmp_path / "bare.pdf")
    assert [bare.text[b.start:b.end] for b in bare.blocks if b.kind == "heading"] == [
        "3.1 Effects of chunk size on recall"]


def test_outline_levels_follow_the_font_sizes_where_they_agree(tmp_path):
    """A report whose chapters are set large (headings by size, level 1) and whose
    sections are set in the body's font, both in its outline: the sections sit one
    level under the chapters, and a numbered line the outline leaves out sits by its
    number under the outline's numbered section ("2.4" under "2." at level 2, not
    under the last heading's level plus its depth)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    for chapter, sections in (("1. Context", ["1.1 Why revise the plan", "1.2 What changed"]),
                              ("2. Method", ["2.1 Meetings", "2.4 Validation"])):
        pdf.add_page()
        pdf.start_section(chapter, level=0)
        pdf.set_font("Helvetica", size=20)
        pdf.cell(0, 12, chapter, new_x="LMARGIN", new_y="NEXT")
        for section in sections:
            if section != "2.4 Validation":
                pdf.start_section(section, level=1)
            pdf.set_font("Helvetica", size=11)
            pdf.ln(4)
            pdf.cell(0, 6, section, new_x="LMARGIN", new_y="NEXT")
            pdf.multi_cell(0, 6, f"Text about {section.split(' ', 1)[1].lower()} in full sentences.")
    pdf.output(str(tmp_path / "plan.pdf"))
    doc = read_path(tmp_path / "plan.pdf")
    headings = [(b.level, doc.text[b.start:b.end]) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(1, "1. Context"), (2, "1.1 Why revise the plan"), (2, "1.2 What changed"),
                        (1, "2. Method"), (2, "2.1 Meetings"), (2, "2.4 Validation")]


def test_an_unreadable_or_looping_outline_costs_nothing_but_itself(tmp_path):
    """Outlines in the wild point nowhere (a URI, a page the file lacks), hold empty
    titles or whole paragraphs (a bookmarked sentence of a report's annex), or loop:
    such entries are passed over and the text is read as without them."""
    from chunkwise.readers.pdf_outline import outline, outline_headings

    class Dest:
        def __init__(self, index):
            self.index = index

        def get_index(self):
            return self.index

    class Mark:
        def __init__(self, level, title, page):
            self.level, self.title, self.page = level, title, page

        def get_title(self):
            return self.title

        def get_dest(self):
            return None if self.page is None else Dest(self.page)

    class Pdf:
        def __init__(self, marks):
            self.marks = marks

        def __len__(self):
            return 3

        def get_toc(self, max_depth):
            yield from self.marks

    marks = [Mark(0, "Intro", 0), Mark(0, "", 1), Mark(0, "Web site", None), Mark(0, "Far", 9),
             Mark(1, "A sentence a report bookmarked, " * 6, 1), Mark(0, "Results", 2)]
    assert outline(Pdf(marks)) == [(1, "Intro", 0), (1, "Results", 2)]

    class Broken(Pdf):
        def get_toc(self, max_depth):
            yield Mark(0, "Intro", 0)
            raise RuntimeError("circular outline")

    assert outline(Broken([])) == []
    endless = Pdf(iter(lambda: Mark(0, "Again", 0), None))
    assert len(outline(endless)) == 20_000
    pages: list[list[Any]] = [["Intro", "Text of the intro."], ["Results alone here"],
                              ["Results", ("table", [])]]
    assert outline_headings(pages, [(1, "Intro", 0), (1, "Results", 1)], {}) == {
        0: {"Intro": 1}, 2: {"Results": 1}}  # (a destination may be the page before)
    # as many entries as are read, none printed, on a page of 200 lines: each line's
    # words are found once (a time limit against a search that grows with their product)
    import time

    crowded: list[list[Any]] = [[f"line {i} of the page's words" for i in range(200)]]
    started = time.perf_counter()
    assert outline_headings(crowded, [(1, f"Entry {i} not printed", 0) for i in range(20_000)],
                            {}) == {}
    assert time.perf_counter() - started < 60


def _proof(path, pages, crop, ruled=False, inherited=False):
    """A book's pages as a printer's proof: the page (its crop box) inside a larger
    sheet whose margin holds line numbers and a slug line, written after the page's
    text (``ruled``: in a box of two cells); ``crop``: the crop box as (left, bottom,
    right, top) in points, set on each page or (``inherited``) once on the page tree's
    root for every page, beside its media box (fpdf2 writes the media box there)."""
    import pypdfium2 as pdfium
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format=(480, 678))
    pdf.compress = not inherited
    pdf.set_auto_page_break(False)
    filler = " ".join(f"Sentence {w} of the page's own text is here." for w in (
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"))
    for n, paragraphs in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=10)
        pdf.set_xy(90, 60)
        # (a page of a book is full: the margin's marks are a small part of its text)
        # (the first page ends in a sentence the second goes on with)
        pdf.multi_cell(290, 14, "\n\n".join([filler, filler, *paragraphs] if n != 2
                                            else [*paragraphs, filler, filler]))
        pdf.set_xy(90, 560)
        pdf.cell(200, 10, f"{n} FREE CULTURE" if n % 2 == 0 else f"CREATORS {n}")
        pdf.set_font("Helvetica", size=6)
        for line in range(1, 34):  # the proof's line numbers, left of the page
            pdf.set_xy(12, 40 + line * 15)
            pdf.cell(10, 6, str(line))
        pdf.set_xy(90, 655)
        pdf.cell(300, 6, f"14773_01_1-174_r9jm.qxd 2/10/04 3:51 PM Page {n}")
        if ruled:
            pdf.rect(86, 652, 308, 12)
            pdf.line(300, 652, 300, 664)
    pdf.output(str(path))
    if inherited:  # (saved again by pdfium below: the cross-reference table made anew)
        media = b"/MediaBox [0 0 480.00 678.00]"
        raw = path.read_bytes()
        assert raw.count(media) == 1 and b"/CropBox" not in raw
        path.write_bytes(raw.replace(media, media + b" /CropBox [%s]" % " ".join(
            str(v) for v in crop).encode()))
    doc = pdfium.PdfDocument(str(path))
    for i in range(len(doc) if not inherited else 0):
        doc[i].set_cropbox(*crop)
    doc.save(str(path) + ".tmp")
    doc.close()
    import os

    os.replace(str(path) + ".tmp", path)


@pytest.mark.parametrize("inherited", [False, True])
def test_text_outside_a_pages_crop_box_a_printers_marks_is_left_out(tmp_path, inherited):
    """Lessig's *Free Culture* as pdf.js keeps it (freeculture.pdf) is a printer's
    proof: around each page, outside its crop box and so in no viewer, line numbers
    and a slug line (``14773_01_1-174_r9jm.qxd 2/10/04 3:51 PM Page 20``). Read, they
    were the last lines of every page, so the running header above them (``20 FREE
    CULTURE``) was no longer at the page's edge and stayed, as a heading on every
    other page (135 of its 276 headings), and the paragraph a page turn
    splits was not joined. What lies outside the crop box is not read; where most of a
    page's text does (a crop box over a few words of a paper: pdf.js's
    issue16316.pdf), the page is read whole: no text is lost to a crop box. The crop box
    may be set once for every page, on the page tree (``inherited``): pypdfium2's
    ``get_cropbox()`` does not see it there, and the margins were read."""
    story = [
        ["Walt Disney made the first cartoon with synchronized sound in 1928, and it "
         "borrowed its story from a film by Buster Keaton that came out in the same year "
         "and was itself inspired by a popular song of the day about a riverboat and",
         ],
        ["its captain. Disney's genius was to build on the work of others, as every "
         "creator before him had done, and the law of his time let him."],
        ["Copyright then lasted thirty years on average, so the culture a generation "
         "old was free for anyone to take and change."],
        ["That is what this book calls free culture, and it is disappearing."],
    ]
    path = tmp_path / "proof.pdf"
    _proof(path, story, (41.76, 41.76, 438.24, 636.24), inherited=inherited)  # as freeculture.pdf's
    doc = read_path(path)
    assert "qxd" not in doc.text and "FREE CULTURE" not in doc.text and "CREATORS" not in doc.text
    assert not [b for b in doc.blocks if b.kind == "heading"]
    assert "riverboat and its captain. Disney's genius" in doc.text  # the page turn joined
    assert not any(word.isdigit() and int(word) < 34 for word in doc.text.split())
    assert all(p[0] in doc.text for p in story)
    # a crop box over a few words: every page read whole
    _proof(path, story, (90, 600, 200, 618), inherited=inherited)
    clip = read_path(path)
    assert all(p[0] in clip.text for p in story) and "1 2 3 4 5 6 7 8 9 10" in clip.text


def _written_and_read(pdf, path):
    """An fpdf2 document written to ``path`` and read: the document, its headings."""
    pdf.output(str(path))
    doc = read_path(path)
    return doc, [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]


def test_a_numbered_label_in_small_print_is_no_heading(tmp_path):
    """A chart's labels (pdf.js's tracemonkey.pdf: ``Trace 1``, ``Trace 2`` in 4.7-point
    type under 9-point text, read as the lines ``1 Trace``, ``2 Trace``) were numbered
    headings, nested in every later chunk's trail (``4. Nested Trace Tree Formation >
    1 Trace > 4.1 Nesting Algorithm``). A numbered line found only in type set smaller
    than the body text is a label; a numbered heading in the body's size still is one."""
    from fpdf import FPDF

    body = ("A trace tree is formed by extending a trunk trace with branch traces where "
            "its guards fail often enough to be worth compiling. ") * 5
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(25, 20)
    pdf.multi_cell(160, 5, "4 Nested Trees")
    pdf.set_xy(25, 30)
    pdf.multi_cell(160, 5, body)
    pdf.set_font("Helvetica", size=5)
    for k, y in enumerate((90, 105, 120), start=1):  # (the figure's labels)
        pdf.text(60, y, f"{k} Trace")
        pdf.text(120, y + 6, f"Guard {k}")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(25, 140)
    pdf.multi_cell(160, 5, "4.1 Nesting Algorithm")
    pdf.set_xy(25, 150)
    pdf.multi_cell(160, 5, body)
    doc, headings = _written_and_read(pdf, tmp_path / "trees.pdf")
    assert headings == ["4 Nested Trees", "4.1 Nesting Algorithm"]
    assert all(f"{k} Trace" in doc.text for k in (1, 2, 3))


def test_a_turned_line_is_no_heading_unless_its_page_is_set_sideways(tmp_path):
    """A chart's axis label set on its side (pdf.js's issue12295.pdf: ``Heart rate
    [bpm]``), a table's turned row label (NIST SP 800-161's ``Threat Scenario``) and
    arXiv's stamp up a preprint's margin (``arXiv:1601.03642v1 [cs.CV] 12 Jan 2016``,
    pdfplumber's issue-982) were headings: larger than the text and a line of their
    own. A turned line heads nothing, unless most of its page is turned (a page set
    sideways, whose title is turned with its text)."""
    from fpdf import FPDF

    body = ("The patients walked on the treadmill for twenty minutes while their heart "
            "rate was recorded once a second by a chest strap. ") * 6
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=16)
    pdf.text(25, 25, "Results")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(25, 30)
    pdf.multi_cell(160, 5, body)
    pdf.rect(40, 110, 120, 60)  # (the chart's frame)
    pdf.set_font("Helvetica", size=13)
    with pdf.rotation(angle=90, x=35, y=160):
        pdf.text(35, 160, "Heart rate [bpm]")
    pdf.set_font("Helvetica", size=20)
    with pdf.rotation(angle=90, x=12, y=220):
        pdf.text(12, 220, "arXiv:1601.03642v1 [cs.CV] 12 Jan 2016")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(25, 180)
    pdf.multi_cell(160, 5, body)
    pdf.add_page()  # (set sideways: its title and text turned)
    with pdf.rotation(angle=90, x=105, y=148):
        pdf.set_font("Helvetica", size=16)
        pdf.text(40, 60, "Appendix")
        pdf.set_font("Helvetica", size=10)
        pdf.set_xy(40, 65)
        pdf.multi_cell(130, 5, body)
    doc, headings = _written_and_read(pdf, tmp_path / "chart.pdf")
    assert headings == ["Results", "Appendix"]
    assert "Heart rate [bpm]" in doc.text and "arXiv:1601.03642v1" in doc.text


def test_text_set_off_the_page_is_left_out_and_a_word_over_its_edge_kept_whole(tmp_path):
    """Text set outside a page's media box is in no viewer and on no print: a form's
    leftover answers 300 points left of the page (pdf.js's issue6127.pdf: ``Je vis
    maritalement avec l'assuré(e) non oui``), glyph codes above it (bug1146106.pdf), a
    report's duplicate titles and print stamp below it (issue14297.pdf: ``2021/07/06
    13:43:28 / 20731115_...``). It is left out as a crop box's margin is; a word set
    over the edge (a title starting 25 points from it) is read whole."""
    from fpdf import FPDF

    pdf = FPDF()  # (A4, 595 points wide)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    body = "The council meets on the first Monday of every month in the town hall. " * 12
    pdf.multi_cell(0, 6, body)
    pdf.set_font("Helvetica", size=15)
    pdf.text(210 - 25 * 0.3528, 120, "Minutes")  # (mm: 25 points from the right edge)
    pdf.set_font("Helvetica", size=9)
    pdf.text(-120, 200, "leftover answer nobody sees")  # (left of the page)
    path = tmp_path / "minutes.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    assert "leftover" not in doc.text and "nobody sees" not in doc.text
    assert "Minutes" in doc.text.split() and body.split()[0] in doc.text
    assert doc.text.count("town hall") == 12


def test_a_numbered_line_whose_sentence_runs_on_is_no_heading(tmp_path):
    """Numbered paragraphs of an old school reader (pdf.js's pdkids.pdf: ``1. The
    beaver is found chiefly in North America. It is``) and a book's numbered notes
    (``9. See Jessica Litman, Digital Copyright (New York: Prometheus Books,``) were
    headings: a numbered line under 80 characters not ending a sentence. One set as
    wide as the page's lines whose sentence goes on in the next line is a paragraph;
    a short numbered title still heads its section."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.set_y(20)
    lines = ["2 The Beaver",
             "",
             "1. The beaver is found chiefly in North America, and it lives in",
             "colonies beside the rivers and lakes of the northern woods there.",
             "",
             "2. The long, shining hair on the back is chestnut-colored, and",
             "the fur below it is soft and thick, which is why men hunt it so.",
             "",
             "3. See John Smith, The Beaver and Its Works (New York: Penguin,",
             "1987), pages 34 and 35, for the dams they build across streams.",
             "",
             "3 The Otter",
             "",
             "Otters swim in the same rivers but build no dams of their own."]
    for line in lines:
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "reader.pdf"))
    doc = read_path(tmp_path / "reader.pdf")
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == [
        "2 The Beaver", "3 The Otter"]
    assert "1. The beaver is found chiefly in North America, and it lives in colonies" in doc.text
    assert "(New York: Penguin, 1987), pages 34" in doc.text


_LINE_WORDS = ["Intro", "Method", "results", "2.1", "A.", "III", "the", "data", "Über", "naïve"]


@settings(max_examples=200, deadline=None)
@given(pages=st.lists(st.lists(st.one_of(
    st.lists(st.sampled_from(_LINE_WORDS), min_size=0, max_size=5).map(" ".join),
    st.just(("table", []))), max_size=8), min_size=1, max_size=4),
    picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 7), st.integers(1, 3),
                             st.integers(1, 3)), max_size=6))
def test_outline_matching_keeps_every_line_and_finds_printed_titles(pages, picks):
    """Whatever the pages and entries: every word of every line stays, in order (a
    wrapped title's lines are joined, nothing else changes); what is found is a line
    of its page; and an entry whose title is a line of its page is found when it is
    the only entry."""
    import copy

    from chunkwise.readers.pdf_outline import outline_headings

    entries = []
    for page, line, span, depth in picks:
        if page < len(pages) and line < len(pages[page]):
            printed = [x for x in pages[page][line:line + span] if isinstance(x, str)]
            if " ".join(printed).strip():
                entries.append((depth, " ".join(printed), page))
    before = copy.deepcopy(pages)
    found = outline_headings(pages, entries, {})

    def words(ps):
        return [w for p in ps for x in p if isinstance(x, str) for w in x.split()]

    assert words(pages) == words(before)
    assert sum(1 for p in pages for x in p if not isinstance(x, str)) == \
        sum(1 for p in before for x in p if not isinstance(x, str))
    for page, heads in found.items():
        lines = {" ".join(x.split()) for x in pages[page] if isinstance(x, str)}
        assert set(heads) <= lines and all(level >= 1 for level in heads.values())
    for depth, title, page in entries:
        if title in [x for x in before[page] if isinstance(x, str)]:
            alone = copy.deepcopy(before)
            assert outline_headings(alone, [(depth, title, page)], {}).get(page) is not None


def test_a_latex_books_running_header_is_no_section_and_is_dropped(tmp_path):
    """A LaTeX book (pypdf's sample GeoTopo.pdf, CC BY-SA 4.0) heads its pages with the
    folio, then the section (``7 1.2. METRISCHE RÄUME``), also on the page where the
    section starts, above its title ``1.2 Metrische Räume``: the outline's entry is
    the title's line, not the header's (whose words, the numbers aside, are the
    same), and the header, the folio first, is dropped as one with the folio last."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    section = {1: "1.1 Topologische Raume", 4: "1.2 Metrische Raume"}
    current = ""
    for page in range(1, 7):
        pdf.add_page()
        current = section.get(page, current)
        number, name = current.split(" ", 1)
        if page > 1:  # (a chapter's first page has no header)
            pdf.set_y(10)
            pdf.cell(0, 6, f"{page} {number}. {name.upper()}")
        pdf.set_y(30)
        if page in section:
            pdf.start_section(current, level=1)
            pdf.cell(0, 6, current, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        pdf.multi_cell(0, 6, f"Page {page} says more about {name.lower()} in sentences.\n\n"
                             "A second paragraph follows the first one here.")
    pdf.output(str(tmp_path / "book.pdf"))
    doc = read_path(tmp_path / "book.pdf")
    assert [(b.level, doc.text[b.start:b.end], b.page) for b in doc.blocks
            if b.kind == "heading"] == [(1, "1.1 Topologische Raume", 1),
                                        (1, "1.2 Metrische Raume", 4)]
    assert "RAUME" not in doc.text


def test_the_text_beside_a_table_is_read_once(tmp_path):
    """On a page with a table, the text outside it was read in bands above and below
    the table, full width; the text level with the table, beside it (the other column
    of a two-column page, a caption set to its side), was in no band: lost without a
    word (pdfplumber's pr-138-example.pdf 580 words, pdf.js's pdfjs_wikipedia.pdf 228).
    It is read after the table; a line across the table's top or bottom edge is read
    once, with the band it was read with before."""
    from collections import Counter

    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    left = "Left column opening paragraph that introduces the results in a few lines."
    pdf.set_xy(10, 20)
    pdf.multi_cell(90, 5, left)
    pdf.set_xy(10, 45)
    with pdf.table(width=90, col_widths=(45, 45), align="LEFT") as table:
        for row in [("Metric", "Value"), ("Recall", "91"), ("Precision", "47"),
                    ("Latency", "12 ms")]:
            cells = table.row()
            for cell in row:
                cells.cell(cell)
    right = " ".join(f"Right column sentence number {i} runs beside the table." for i in range(1, 12))
    pdf.set_xy(110, 20)
    pdf.multi_cell(90, 5, right)
    pdf.output(str(tmp_path / "two-columns.pdf"))
    doc = read_path(tmp_path / "two-columns.pdf")
    assert [b.kind for b in doc.blocks].count("table") == 1
    words = Counter(doc.text.split())
    assert all(words[w] >= n for w, n in Counter(f"{left} {right}".split()).items())
    assert words["sentence"] == 11 and words["beside"] == 11  # (each line read once)


def _columns_pdf(path, right_labels=False, table=True):
    """A page of two columns of running text (fpdf2): the left one with a ruled table
    part way down (or none), the right one prose, or a figure's labels in short runs
    set level with the left column's lines and then prose."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    left = " ".join(f"Left sentence {w} tells the reader about the method in a plain way."
                    for w in ("one", "two", "three", "four", "five", "six", "seven", "eight"))
    right = " ".join(f"Right sentence {w} explains the results beside the other column."
                     for w in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
                               "theta", "iota", "kappa"))
    pdf.set_xy(10, 20)
    pdf.multi_cell(90, 5, left)
    if table:
        pdf.set_xy(10, pdf.get_y() + 5)
        with pdf.table(width=90, col_widths=(45, 45), align="LEFT") as t:
            for row in [("Metric", "Value"), ("Recall", "91"), ("Precision", "47")]:
                cells = t.row()
                for cell in row:
                    cells.cell(cell)
    if right_labels:  # a state machine's labels, three to a line, then prose
        for i, labels in enumerate([("abort", "Monitor", "compiled"), ("record", "", "ready"),
                                    ("hot", "", "enter"), ("trace", "", "exit")]):
            for x, label in zip((110, 150, 180), labels):
                pdf.set_xy(x, 22 + 5 * i)  # (a little below the left line)
                pdf.cell(20, 5, label)
        pdf.set_xy(110, 45)
    else:
        pdf.set_xy(110, 20)
    pdf.multi_cell(90, 5, right)
    pdf.output(str(path))
    return left, right


def test_a_two_column_page_with_a_table_reads_column_after_column(tmp_path):
    """A page with a table was read by pdfplumber in full-width lines: on a two-column
    page each line held a line of the left column and then one of the right, the two
    texts interleaved line by line (pdf.js's tracemonkey.pdf, pdfplumber's
    issue-982-example.pdf). It is read as pdfium reads every other page: the left
    column's sentences, then the right column's, each whole, the table in its place."""
    left, right = _columns_pdf(tmp_path / "paper.pdf")
    doc = read_path(tmp_path / "paper.pdf")
    text = " ".join(doc.text.split())
    assert [b.kind for b in doc.blocks].count("table") == 1
    assert left in text and right in text
    table = next(b for b in doc.blocks if b.kind == "table")
    assert text.index(left) < text.index(right)
    assert "Recall" in doc.text[table.start:table.end]
    assert doc.text.count("Recall") == 1 and doc.text.count("zeta") == 1
    # the same page without the table reads the same prose
    _columns_pdf(tmp_path / "plain.pdf", table=False)
    plain = " ".join(read_path(tmp_path / "plain.pdf").text.split())
    assert left in plain and right in plain


def test_a_figures_labels_beside_a_column_are_no_table_of_its_lines(tmp_path):
    """A figure's labels set in short runs in the right column, level with the left
    column's lines, were read as a borderless table whose first column was the left
    column's running text, and a left line set a little above the table's first row
    was lost (pdf.js's tracemonkey.pdf, page 2: "In essence, this is a form").
    Borderless tables are looked for in each column of a two-column page: the left
    column stays running text, every word of it read."""
    left, right = _columns_pdf(tmp_path / "figure.pdf", right_labels=True, table=False)
    doc = read_path(tmp_path / "figure.pdf")
    text = " ".join(doc.text.split())
    assert left in text and right in text
    for table in (b for b in doc.blocks if b.kind == "table"):
        assert "sentence" not in doc.text[table.start:table.end]


def test_a_ruled_table_running_off_the_page_is_a_drawings_lines(tmp_path):
    """A figure's lines clipped at the page's edges made pdfplumber find a "table"
    reaching far off the page (pdf.js's tracemonkey.pdf, page 7: from 442 points above
    the page), whose cells took the page's running text, cut at the lines. A ruled
    table reaching past the page's edge is no table: the text is read as text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    prose = " ".join(f"Paragraph line {i} describes the trace tree in running text." for i in range(12))
    pdf.set_xy(20, 30)
    pdf.multi_cell(170, 5, prose)
    for x in (15, 105, 195):  # a drawing's frame, from above the page to below the text
        pdf.line(x, -120, x, 110)
    for y in (-120, 25, 110):
        pdf.line(15, y, 195, y)
    pdf.output(str(tmp_path / "drawing.pdf"))
    doc = read_path(tmp_path / "drawing.pdf")
    assert [b.kind for b in doc.blocks].count("table") == 0
    assert prose in " ".join(doc.text.split())


@pytest.mark.parametrize("turned", [False, True])
def test_a_table_at_a_pages_top_keeps_the_documents_tables_and_headings(tmp_path, turned):
    """A table starting at a page's top edge (or touching the table above it) left a
    band of no height above it, which pdfplumber refuses to crop: the error ended the
    layout analysis of the whole document, whose tables and font-size headings were
    all lost without a word (NIST SP 800-161: 0 tables; its boxed notes and tables are
    read now). A turned page, still read in bands by pdfplumber, is checked too."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=22)
    pdf.set_xy(20, 20)
    pdf.cell(0, 12, "Retention Schedule")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(20, 40)
    pdf.multi_cell(170, 5, "Records are kept for the periods listed in the table. " * 4)
    pdf.add_page()
    pdf.set_xy(10, 0)
    with pdf.table(width=120, col_widths=(60, 60), align="LEFT") as table:
        for row in [("Record", "Years"), ("Accident", "7"), ("Near miss", "3")]:
            cells = table.row()
            for cell in row:
                cells.cell(cell)
    pdf.set_xy(20, 60)
    pdf.multi_cell(170, 5, "Periods run from the end of the calendar year.")
    path = tmp_path / "schedule.pdf"
    pdf.output(str(path))
    if turned:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(str(path))
        doc[1].set_rotation(90)
        doc.save(str(tmp_path / "turned.pdf"))
        doc.close()
        path = tmp_path / "turned.pdf"
    doc = read_path(path)
    kinds = [b.kind for b in doc.blocks]
    assert kinds.count("table") == 1 and "heading" in kinds
    assert doc.text.count("Accident") == 1 and "calendar year" in doc.text
    heading = next(b for b in doc.blocks if b.kind == "heading")
    assert doc.text[heading.start:heading.end] == "Retention Schedule"


def test_a_diagrams_turned_labels_in_a_frame_are_read_as_words(tmp_path):
    """A diagram's frame around labels set at an angle was a ruled "table" whose cells
    pdfplumber reads letter by letter (NIST SP 800-161's risk-management figure: ``C D
    o e n te d r u m ct in B a a t s io e n``); pdfium reads its labels as words. A
    table whose words are mostly single letters is no table: the region is text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(20, 20)
    pdf.multi_cell(170, 5, "The figure below shows the stages of the process. " * 3)
    for x in (20, 105, 190):
        pdf.line(x, 50, x, 150)
    for y in (50, 150):
        pdf.line(20, y, 190, y)
    labels = ["Identify the mission functions", "Assess the supply chain risk",
              "Respond with tailored controls", "Monitor the changes continuously"]
    for i, label in enumerate(labels):
        with pdf.rotation(angle=35, x=30 + 40 * i, y=140):
            pdf.text(30 + 40 * i, 140, label)
    pdf.output(str(tmp_path / "diagram.pdf"))
    doc = read_path(tmp_path / "diagram.pdf")
    assert [b.kind for b in doc.blocks].count("table") == 0
    assert all(label in doc.text for label in labels)


def test_a_title_wrapped_over_lines_of_one_size_is_one_heading(tmp_path):
    """A cover's title set large over three lines was three headings, each nested under
    the one before in every chunk's trail (NIST SP 800-161: "Supply Chain Risk
    Management" > "Practices for Federal Information" > "Systems and Organizations").
    Heading lines of one size, one under the other, are one heading; numbered lines
    of that size stay headings of their own."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=24)
    for i, line in enumerate(["Supply Chain Risk", "Management Practices", "for Federal Systems"]):
        pdf.set_xy(20, 30 + 11 * i)
        pdf.cell(0, 10, line)
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(20, 75)
    pdf.multi_cell(170, 5, "This guide tells agencies how to manage the risks of their suppliers. " * 3)
    pdf.set_font("Helvetica", size=24)
    for i, line in enumerate(["1 Scope", "2 Audience"]):  # (an empty section, then one)
        pdf.set_xy(20, 100 + 11 * i)
        pdf.cell(0, 10, line)
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(20, 125)
    pdf.multi_cell(170, 5, "The guide is written for acquirers and their suppliers.")
    pdf.output(str(tmp_path / "cover.pdf"))
    doc = read_path(tmp_path / "cover.pdf")
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["Supply Chain Risk Management Practices for Federal Systems", "1 Scope",
                        "2 Audience"]
    body = next(b for b in doc.blocks if b.kind == "paragraph")
    assert body.headings == ("Supply Chain Risk Management Practices for Federal Systems",)


def test_a_box_in_a_proofs_margin_is_no_table(tmp_path):
    """The slug line of *Free Culture*'s proof sits between crop marks, outside the crop
    box; pdfplumber read the box as a table of two cells (``| 14773_00_i-xviii_r9jm.qxd
    2/10/04 3:46 PM Pa | ge i |``) on 354 pages. A table outside the crop box is not
    read, as no text there is."""
    story = [["Walt Disney made the first cartoon with synchronized sound in 1928."],
             ["Copyright then lasted thirty years on average."]]
    path = tmp_path / "proof.pdf"
    _proof(path, story, (41.76, 41.76, 438.24, 636.24), ruled=True)
    doc = read_path(path)
    assert [b.kind for b in doc.blocks].count("table") == 0
    assert "qxd" not in doc.text and all(p[0] in doc.text for p in story)


@settings(max_examples=12, deadline=None)
@given(left_n=st.integers(1, 8), right_n=st.integers(0, 8), table_at=st.integers(0, 3),
       table_left=st.booleans(), rows=st.integers(2, 4))
def test_a_page_with_a_table_reads_every_word_outside_it_once(tmp_path_factory, left_n, right_n,
                                                              table_at, table_left, rows):
    """Whatever the columns' lengths and wherever the table sits (either column, at
    the page's top or further down): every word outside the table is read exactly
    once, each column's sentences whole and in order, the table's cells in the table
    only."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    left = [f"Left {i} tells the reader about the method." for i in range(left_n)]
    right = [f"Right {i} reports the measured results." for i in range(right_n)]
    cells = [(f"Key{r}", f"Val{r}") for r in range(rows)]
    y = {0: 0.0, 1: 30.0, 2: 120.0, 3: 200.0}[table_at]
    pdf.set_xy(10 if table_left else 110, y)
    with pdf.table(width=80, col_widths=(40, 40), align="LEFT") as table:
        for row in cells:
            cells_row = table.row()
            for cell in row:
                cells_row.cell(cell)
    table_top, table_bottom = y, pdf.get_y()
    for x, sentences, here in ((10, left, table_left), (110, right, not table_left)):
        pdf.set_xy(x, 250 if here and table_top < 40 else 60 if here else 20)
        if here and table_top >= 40:
            pdf.set_xy(x, table_bottom + 5)
        pdf.multi_cell(85, 5, " ".join(sentences))
    path = tmp_path_factory.mktemp("pdf") / "page.pdf"
    pdf.output(str(path))
    doc = read_path(path)
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 1
    text = " ".join(doc.text.split())
    for sentence in left + right:
        assert text.count(sentence) == 1
    for a, b in zip(left, left[1:]):
        assert text.index(a) < text.index(b)
    for a, b in zip(right, right[1:]):
        assert text.index(a) < text.index(b)
    inside = doc.text[tables[0].start:tables[0].end]
    for key, value in cells:
        assert doc.text.count(key) == 1 and key in inside and value in inside


def _paper_page(path, heading="Related Work"):
    """A page of two columns of running text (fpdf2): in the left column a 14-point
    heading part way down, level with a line of the right column's 10-point text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    before = " ".join(f"Opening sentence {w} sets out the problem in the left column."
                      for w in ("one", "two", "three", "four", "five"))
    after = " ".join(f"Earlier work {w} traced loops in interpreters before this one."
                     for w in ("alpha", "beta", "gamma", "delta"))
    right = " ".join(f"Right sentence {w} explains the results beside the other column."
                     for w in ("one", "two", "three", "four", "five", "six", "seven", "eight",
                               "nine", "ten", "eleven", "twelve"))
    pdf.set_xy(10, 20)
    pdf.multi_cell(90, 5, before)
    pdf.set_font("Helvetica", style="B", size=14)
    pdf.set_xy(10, pdf.get_y() + 4)
    pdf.cell(90, 7, heading)
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(10, pdf.get_y() + 9)
    pdf.multi_cell(90, 5, after)
    pdf.set_xy(110, 20)
    pdf.multi_cell(90, 5, right)
    pdf.output(str(path))
    return before, after, right


def test_a_heading_in_one_column_level_with_the_others_text_is_a_heading(tmp_path):
    """Font-size headings were told from pdfplumber's lines, which run across the
    page: a column's heading set level with the other column's text was one line with
    it ("Related Work Right sentence five explains ..."), too long and ending a
    sentence, so no heading (tracemonkey.pdf's "Abstract" and "References",
    issue-982's title). The lines are pdfium's, a column's line each: the heading is
    found, and the text under it sits in its section."""
    before, after, right = _paper_page(tmp_path / "paper.pdf")
    doc = read_path(tmp_path / "paper.pdf")
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["Related Work"]
    text = " ".join(doc.text.split())
    assert before in text and after in text and right in text
    under = [b for b in doc.blocks if b.kind == "paragraph" and "Earlier work alpha" in doc.text[b.start:b.end]]
    assert under and under[0].headings == ("Related Work",)


def test_pdfplumber_reads_only_the_pages_that_may_hold_a_table(tmp_path, monkeypatch):
    """pdfplumber interprets a page in Python, most of a PDF's reading time; it was
    asked for tables on every page. It is asked only on a page whose drawn lines or
    aligned text could make one: of three pages of prose, one with a ruled table and
    one with a borderless table, those two; both tables are read."""
    import pdfplumber.page
    from fpdf import FPDF

    asked: list[int] = []
    real = pdfplumber.page.Page.find_tables

    def find_tables(self, *args, **kwargs):
        asked.append(self.page_number)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pdfplumber.page.Page, "find_tables", find_tables)
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    prose = " ".join(f"Sentence {i} of the page is plain running text." for i in range(20))
    for kind in ("prose", "ruled", "prose", "borderless", "prose"):
        pdf.add_page()
        pdf.multi_cell(0, 5, prose)
        if kind == "ruled":
            pdf.ln(5)
            with pdf.table(width=120, col_widths=(40, 40, 40), align="LEFT") as t:
                for row in [("Name", "Size", "Kind"), ("alpha", "12", "ruled")]:
                    cells = t.row()
                    for cell in row:
                        cells.cell(cell)
        elif kind == "borderless":
            for i, labels in enumerate([("Name", "Size", "Kind", "Note"), ("beta", "14", "aligned", "none"),
                                        ("gamma", "16", "aligned", "some")]):
                for x, label in zip((20, 60, 100, 140), labels):
                    pdf.text(x, 150 + 6 * i, label)
    pdf.output(str(tmp_path / "mixed.pdf"))
    doc = read_path(tmp_path / "mixed.pdf")
    assert asked == [2, 4]
    tables = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 2 and "ruled" in tables[0] and "gamma" in tables[1]
    assert doc.text.count("Sentence 7 of the page") == 5


@settings(max_examples=30, deadline=None)
@given(ruled=st.one_of(st.none(), st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(10, 90),
                                            st.integers(20, 200))),
       aligned=st.one_of(st.none(), st.tuples(st.integers(2, 5), st.integers(1, 4),
                                              st.integers(12, 40), st.integers(8, 12))),
       prose=st.integers(0, 12), size=st.integers(8, 14))
def test_a_page_pdfplumber_finds_a_table_on_is_never_passed_over(tmp_path_factory, ruled, aligned,
                                                                  prose, size):
    """The pages pdfplumber is not asked about (:func:`pdf_lines.may_hold_table`) are
    pages it finds no table on: whatever ruled grid (columns, rows, place) or aligned
    runs of text (columns, rows, gap, size) a page of prose holds, where pdfplumber
    finds a table the page is one it is asked about."""
    import pdfplumber
    import pypdfium2 as pdfium
    from fpdf import FPDF

    from chunkwise.readers.pdf import _tables
    from chunkwise.readers.pdf_lines import may_hold_table, page_chars

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=size)
    pdf.set_xy(10, 230)
    pdf.multi_cell(0, 5, " ".join(f"Line {i} is running text of the page." for i in range(prose)))
    if ruled:
        cols, rows, x, y = ruled
        pdf.set_xy(x, y)
        with pdf.table(width=25 * cols, col_widths=(25,) * cols, align="LEFT") as table:
            for r in range(rows):
                cells = table.row()
                for c in range(cols):
                    cells.cell(f"r{r}c{c}")
    if aligned:
        cols, rows, gap, text_size = aligned
        pdf.set_font("Helvetica", size=text_size)
        for r in range(rows + 1):
            for c in range(cols):
                pdf.text(12 + c * (gap + 10), 150 + r * 6, f"H{c}" if r == 0 else f"v{r}{c}")
    path = tmp_path_factory.mktemp("pdf") / "page.pdf"
    pdf.output(str(path))
    with pdfplumber.open(path) as doc:
        found = _tables(doc.pages[0])
    document = pdfium.PdfDocument(str(path))
    page = document[0]
    textpage = page.get_textpage()
    try:
        if found:
            assert may_hold_table(page, page_chars(textpage))
    finally:
        textpage.close()
        page.close()
        document.close()


def test_an_author_line_broken_at_its_marks_is_no_heading(tmp_path):
    """pdfium breaks a line at a raised mark (an author's ``*``): the pieces of a
    paper's 11-point author line over 9-point text were each a heading ("Andreas
    Gal*", ", Brendan Eich*", ...; pdf.js's tracemonkey.pdf, 13 of them) while the
    lines were told apart by size on pdfium's lines. A line with another on its
    baseline is no line of its own and no heading."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.set_xy(20, 20)
    for name in ("Andreas Gal", ", Brendan Eich", ", Mike Shaver"):
        pdf.write(6, name)
        pdf.char_vpos = "SUP"
        pdf.write(6, "*")
        pdf.char_vpos = "LINE"
    pdf.ln(10)
    pdf.set_font("Helvetica", size=16)
    pdf.cell(0, 8, "Introduction")
    pdf.ln(10)
    pdf.set_font("Helvetica", size=9)
    pdf.multi_cell(0, 4, "Body text of the paper runs on in nine points. " * 30)
    pdf.output(str(tmp_path / "authors.pdf"))
    doc = read_path(tmp_path / "authors.pdf")
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == ["Introduction"]
    assert "Brendan Eich" in doc.text and "Mike Shaver" in doc.text


def test_running_text_set_larger_than_most_characters_is_no_heading(tmp_path):
    """Headings are the lines set larger than the size most characters have; where a
    paper's 9-point abstract holds more characters than its 12-point text (a page of a
    preprint, double-spaced), every line of that text not ending a sentence was a
    heading (pdf.js's issue6132.pdf). A size whose lines run long, three or more in a
    row, is running text: its lines are no headings; the title is one, its two lines
    joined."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=17)
    pdf.multi_cell(0, 8, "Efficient Arithmetic in Finite Field Extensions with\n"
                         "Application in Elliptic Curve Cryptography")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=9)
    pdf.multi_cell(0, 4, "Abstract. This contribution focuses on a class of Galois field used to "
                         "achieve fast finite field arithmetic which we call an Optimal Extension Field. "
                         * 9)
    pdf.ln(4)
    pdf.set_font("Helvetica", size=12)
    body = ("Since their introduction elliptic curve cryptosystems have been considered as an "
            "alternative to the public-key schemes in use and our focus in the present paper is "
            "their efficient realization in software for the common processors of the day ")
    pdf.multi_cell(0, 10, body * 3)  # (double-spaced)
    pdf.output(str(tmp_path / "preprint.pdf"))
    doc = read_path(tmp_path / "preprint.pdf")
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["Efficient Arithmetic in Finite Field Extensions with Application in "
                        "Elliptic Curve Cryptography"]
    assert " ".join(body.split()) in " ".join(doc.text.split())


def _tight_table_pdf(turned: bool = False) -> bytes:
    """A page (written by hand) with a ruled table of two columns whose cells' words
    are set apart by TJ offsets of a quarter of the size, no space glyphs: as
    typesetters set justified text (NIST SP 800-161's tables)."""
    cells = [(b"Name", b"Notes"), (b"Accounting", b"[(Cost) -250 (Accounting,) -250 (and) -250 (other)] TJ"),
             (b"Systems", b"[(approving) -250 (selection,) -250 (payment)] TJ")]
    draw = [b"0.5 w 72 600 m 472 600 l S 72 640 m 472 640 l S 72 680 m 472 680 l S 72 720 m 472 720 l S",
            b"72 600 m 72 720 l S 200 600 m 200 720 l S 472 600 m 472 720 l S"]
    for row, (left, right) in enumerate(cells):
        y = 705 - 40 * row
        right_text = right if right.endswith(b"TJ") else b"(" + right + b") Tj"
        draw.append(b"BT /F1 9 Tf 78 %d Td (%s) Tj ET BT /F1 9 Tf 206 %d Td %s ET" % (y, left, y, right_text))
    draw.append(b"BT /F1 11 Tf 72 500 Td (Text under the table reads as running text.) Tj ET")
    content = b"\n".join(draw)
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]" + (b" /Rotate 90" if turned else b"")
            + b" /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"]
    return _raw_pdf(objs)


@pytest.mark.parametrize("turned", [False, True])
def test_a_tables_page_is_read_by_pdfium_for_pdfplumber(tmp_path, monkeypatch, turned):
    """pdfplumber had pdfminer interpret a page with a table in Python (NIST SP
    800-161: 86 of 106 s under cProfile). pdfium's characters and shapes are given to
    pdfplumber's page instead: the page is not interpreted, the table is found, and
    its cells keep the words apart where pdfium saw a word end (pdfplumber's 3-point
    rule ran them together: ``Accounting,and``). A turned page keeps pdfplumber's own
    reading."""
    import pdfplumber.page

    interpreted: list[int] = []
    real = pdfplumber.page.Page.parse_objects

    def parse_objects(self):
        interpreted.append(self.page_number)
        return real(self)

    monkeypatch.setattr(pdfplumber.page.Page, "parse_objects", parse_objects)
    (tmp_path / "table.pdf").write_bytes(_tight_table_pdf(turned))
    doc = read_path(tmp_path / "table.pdf")
    tables = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 1
    assert interpreted == ([1] if turned else [])
    if not turned:
        assert "Cost Accounting, and other" in tables[0]
        assert "approving selection, payment" in tables[0]
    assert "Text under the table reads as running text." in " ".join(doc.text.split())


def test_a_page_pdfium_cannot_lend_is_read_by_pdfplumber_itself(tmp_path, monkeypatch):
    """Where pdfium's objects of a page cannot be read (or fail pdfplumber's table
    finder), pdfplumber interprets the page itself: its table is found all the same
    (fault injected: the lending raises)."""
    import pdfplumber.page

    import chunkwise.readers.pdf as pdf_reader

    def broken(*args, **kwargs):
        raise RuntimeError("pdfium could not read the page's objects")

    interpreted: list[int] = []
    real = pdfplumber.page.Page.parse_objects

    def parse_objects(self):
        interpreted.append(self.page_number)
        return real(self)

    monkeypatch.setattr(pdf_reader, "lend", broken)
    monkeypatch.setattr(pdfplumber.page.Page, "parse_objects", parse_objects)
    (tmp_path / "table.pdf").write_bytes(_tight_table_pdf())
    doc = read_path(tmp_path / "table.pdf")
    assert [b.kind for b in doc.blocks].count("table") == 1
    assert interpreted == [1]


def test_a_numbered_item_that_stops_mid_phrase_is_no_heading(tmp_path):
    """A numbered line in the body's font is a heading unless it reads as a sentence;
    a list item ending ``; and`` (NIST SP 800-161's control statements: "1. Access
    control policy [Assignment: organization-defined frequency]; and", 14 of them)
    or a note's first line stopping at "the" was one, each nested in the next
    chunk's trail. A numbered line that stops mid-phrase is none; numbered section
    titles stay headings."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    body = "The organization develops and documents the controls described here in full. " * 3
    for line in ["1. Access Control", body, "The organization:", "1. Access control policy; and",
                 "2. Procedures to facilitate the implementation of the policy.",
                 "2. Audit and Accountability", body, "3 For example, an adversary may have the",
                 "means to reach the system.", "3. Program Management A", body]:
        pdf.multi_cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "controls.pdf"))
    doc = read_path(tmp_path / "controls.pdf")
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["1. Access Control", "2. Audit and Accountability", "3. Program Management A"]
    assert "1. Access control policy; and" in doc.text and "may have the" in doc.text


class _Stopped(KeyboardInterrupt):
    """An interruption of the caller's own class (the command line's SIGTERM is one)."""


def _calls_to_pdfium(monkeypatch, stop_at=None, kind: Any = KeyboardInterrupt):
    """Counts the handles pypdfium2 gives ctypes (its ``_as_parameter_`` property, run
    in Python at every call into pdfium) and, at call ``stop_at``, raises ``kind``
    there: where a Ctrl-C's KeyboardInterrupt lands when it arrives during that call."""
    from pypdfium2.internal import bases

    calls = [0]

    def handle(self):
        calls[0] += 1
        if calls[0] == stop_at:
            raise kind()
        return self.raw

    monkeypatch.setattr(bases.AutoCastable, "_as_parameter_", property(handle))
    return calls


def _report(path):
    """A PDF of three pages whose second holds a ruled table: every pass of the reader."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    for n in range(3):
        pdf.add_page()
        pdf.set_font("Helvetica", size=16)
        pdf.text(20, 20, ("Budget", "Schedule", "Risks")[n])
        pdf.set_font("Helvetica", size=10)
        pdf.set_xy(20, 30)
        pdf.multi_cell(170, 5, "The committee reviewed the budget and the schedule. " * 8)
        if n == 1:
            with pdf.table(col_widths=(40, 40, 40)) as table:
                for row in (("Item", "Cost", "Due"), ("Roof", "1200", "May"),
                            ("Doors", "300", "June")):
                    table.row(row)
    pdf.output(str(path))


@pytest.mark.parametrize("kind", [KeyboardInterrupt, _Stopped])
def test_a_ctrl_c_while_pdfium_is_called_stops_the_reading(tmp_path, monkeypatch, kind):
    """A Ctrl-C while a PDF was read was lost: pypdfium2 hands pdfium each handle
    through a Python property, ctypes turns an exception raised there into an
    ``ArgumentError`` (an ``Exception``), and the reader's best-effort handlers (a
    page's sizes, its crop box, its tables) took it for a damaged page and went on;
    ``chunkwise index`` ran 70 s more to its end and exited 0. Wherever among the
    reader's calls into pdfium the interruption lands, it is raised, of its own class."""
    path = tmp_path / "report.pdf"
    _report(path)
    calls = _calls_to_pdfium(monkeypatch)
    doc = read_path(path)
    assert all(t in doc.text for t in ("Budget", "Risks", "Roof"))
    total = calls[0]
    assert total > 300  # (each page's text page, characters, boxes, objects: calls)
    for stop_at in sorted({1, 2, 3, 5, 8, *range(13, total, max(1, total // 40)), total}):
        _calls_to_pdfium(monkeypatch, stop_at, kind)
        with pytest.raises(kind):
            read_path(path)
            pytest.fail(f"the interruption at call {stop_at} of {total} was lost")


def test_a_ctrl_c_while_index_reads_a_pdf_ends_the_run(tmp_path, monkeypatch, capsys,
                                                       static_embedder):
    """The same through ``chunkwise index``: interrupted (exit 130), the index keeping
    what was written, not a run that goes on and exits 0."""
    from chunkwise.cli.main import main

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Notes\n\nWritten before the PDF.\n")
    _report(docs / "report.pdf")
    calls = _calls_to_pdfium(monkeypatch)
    read_path(docs / "report.pdf")
    _calls_to_pdfium(monkeypatch, calls[0] // 2)
    code = main(["index", str(docs), "--db", str(tmp_path / "db"), "--embedder", static_embedder,
                 "--no-progress"])
    assert code == 130
    assert "interrupted; what the index holds stays searchable" in capsys.readouterr().err
