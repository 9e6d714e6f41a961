"""Spreadsheets and PowerPoint decks: read into sections, tables and slides, with real
writers' files (tests/data/office: MIT and Apache-2.0) and files written here by XlsxWriter and
python-pptx, the libraries users' own scripts write them with."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text, independent_minilm_count

DATA = Path(__file__).resolve().parent / "data" / "office"


def _workbook(sheets: dict[str, Sequence[Sequence[object]]]) -> bytes:
    import xlsxwriter

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_urls": False,
                                     "default_date_format": "yyyy-mm-dd hh:mm:ss"})
    for name, rows in sheets.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if isinstance(value, str):
                    sheet.write_string(r, c, value)  # (never read as a formula or a number)
                elif value is not None:
                    sheet.write(r, c, value)
    book.close()
    return out.getvalue()


def test_a_workbook_reads_as_sheets_of_tables_with_their_titles_and_notes():
    data = _workbook({
        "Population": [["Table 2: Population by region, 2021"],
                       ["Region", "Population", "Share", "Counted", "Estimated"],
                       ["North", 1200345, 0.1 + 0.2, dt.date(2021, 3, 21), False],
                       ["South", 2500000.0, 0.25, dt.datetime(2021, 3, 21, 9, 30), True],
                       ["Source: national census office"],
                       [],
                       [None, "Notes"],
                       [None, "Figures are rounded."]],
        "Sheet2": [[1, 2], [3, 4]]})
    doc = parse(data, "stats.xlsx")
    assert doc.metadata == {"format": "xlsx", "sheets": 2}
    kinds = [(b.kind, doc.text[b.start:b.end].split("\n")[0]) for b in doc.blocks]
    assert kinds == [
        ("heading", "Population"),
        ("paragraph", "Table 2: Population by region, 2021"),
        ("table", "| Region | Population | Share | Counted | Estimated |"),
        ("paragraph", "Source: national census office"),
        # a column alone (empty column A left out): a paragraph a row
        ("paragraph", "Notes"), ("paragraph", "Figures are rounded."),
        ("heading", "Sheet2"),
        ("table", "| 1 | 2 |")]  # numbers first: no header
    table = doc.blocks[2]
    assert table.metadata["columns"] == ("Region", "Population", "Share", "Counted", "Estimated")
    # what a spreadsheet shows: 15 digits, whole numbers without ".0", ISO dates, TRUE/FALSE
    assert table.metadata["cells"] == (
        ("North", "1200345", "0.3", "2021-03-21", "FALSE"),
        ("South", "2500000", "0.25", "2021-03-21 09:30:00", "TRUE"))
    assert doc.blocks[-1].metadata["header"] is None
    assert all(b.headings == ("Population",) for b in doc.blocks[:6])
    chunks = chunkwise.get_chunker("auto").chunk(doc)
    assert_invariants(doc.text, chunks, 254, independent_minilm_count())


def test_a_lone_sheet_with_a_default_name_gets_no_heading():
    doc = parse(_workbook({"Sheet1": [["Name", "Role"], ["Ada", "engineer"]]}), "team.xlsx")
    assert [b.kind for b in doc.blocks] == ["table"]
    assert doc.blocks[0].headings == ()
    named = parse(_workbook({"Staff": [["Name", "Role"], ["Ada", "engineer"]]}), "team.xlsx")
    assert [b.kind for b in named.blocks] == ["heading", "table"]


def test_a_long_table_is_cut_at_rows_with_its_header_in_every_later_part():
    rows = [["Ticket", "Customer", "Status", "Summary"]]
    rows += [[f"T-{i}", f"customer {i}", "open" if i % 3 else "closed",
              f"printer on floor {i} jams after the firmware update"] for i in range(200)]
    doc = parse(_workbook({"Tickets": rows}), "tickets.xlsx")
    chunks = chunkwise.get_chunker("section", size=128, max_tokens=128).chunk(doc)
    assert len(chunks) > 10
    assert_invariants(doc.text, chunks, 128, independent_minilm_count())
    for c in chunks[1:]:
        assert c.context.endswith("Ticket | Customer | Status | Summary\n"), c.context
        assert c.text.startswith("| T-") and c.text.endswith(" |")  # whole rows
    (hit,) = by_text(chunks, "| T-137 | customer 137 |")
    assert hit.headings == ("Tickets",)


def test_a_sheet_that_declares_every_cell_is_read_by_its_rows():
    """Gnumeric's file declares A1:XFD1048576; read by its declared size it took
    minutes, by its rows well under a second."""
    doc = read_path(DATA / "gnumeric-declared-whole-sheet.xlsx")
    (table,) = doc.blocks
    assert table.metadata["columns"][:3] == ("Your Ref #", "Contact Name", "Contact Number")
    assert table.metadata["cells"] == (("123", "Test Contact Name", "Test Contact Number",
                                        "Hello Address", "My City", "1.5", "1", "1.201",
                                        "Nothing SPL", "No Remarks", "My Company?"),)


def test_real_workbooks_keep_every_sheet_and_table():
    doc = read_path(DATA / "table-multiple.xlsx")
    assert [(b.kind, b.headings) for b in doc.blocks] == [
        ("heading", ("Sheet1",)), ("table", ("Sheet1",)), ("heading", ("Sheet2",)),
        ("table", ("Sheet2",)), ("heading", ("Sheet3",)), ("table", ("Sheet3",)),
        ("table", ("Sheet3",))]  # two tables under each other, a blank row between
    assert [b.metadata.get("columns") for b in doc.blocks if b.kind == "table"] == [
        ("Item", "Type", "Quantity"), ("Item", "Price"), ("Item", "Units"), ("Item", "Units")]
    pivots = read_path(DATA / "pivots.xlsx")
    headings = [pivots.text[b.start:b.end] for b in pivots.blocks if b.kind == "heading"]
    assert headings == ["PivotSheet1", "PivotSheet2", "PivotSheet3", "PivotSheet4", "DataSheet",
                        "DataSheet2"]
    assert "| Grand Total | 11.067 | 7.29762 | 18.36462 |" in pivots.text
    for d in (doc, pivots):
        for name in ("auto", "section", "recursive"):
            assert_invariants(d.text, chunkwise.get_chunker(name, size=48, max_tokens=48).chunk(d), 48)


def test_old_binary_opendocument_and_strict_workbooks_read_as_the_others():
    xls = read_path(DATA / "dates.xls")
    assert xls.metadata == {"format": "xls", "sheets": 1}
    assert xls.text == "| 2021-01-01 | 15 |\n| 2021-01-02 | 16 |\n| 10 days, 15:10:10 | 17 |"
    ods = read_path(DATA / "any-sheets.ods")  # hidden sheets are empty here
    assert ods.metadata["format"] == "ods"
    assert ods.text == ("Visible\n\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n\nThis workbook contains 4 "
                        "sheets: Visible, Hidden, VeryHidden and Chart")
    strict = read_path(DATA / "strict-iso-paths.xlsx")  # (openpyxl found no sheet in it)
    (heading, table) = strict.blocks
    assert strict.text[heading.start:heading.end] == "ml_out"
    assert table.metadata["columns"][:3] == ("Item", "Thickness", "Number Off Bends")
    assert len(table.metadata["rows"]) == 75


@pytest.mark.parametrize("name, message", [
    ("pass-protected.xlsx", "a password-protected workbook: save it without a password"),
    ("cells-past-the-limit.ods", r"not a readable spreadsheet \(CalamineError: Cell limit exceeded"),
    # calamine panics on it: pyo3's PanicException is no Exception, and it ended the run
    # with a traceback
    ("poi-fuzzed-panics-calamine.xls", r"cannot be read as spreadsheet \(its parser failed: range end"),
])
def test_a_workbook_that_cannot_be_read_is_one_clear_error(name, message):
    with pytest.raises(chunkwise.InputError, match=f"{name}: {message}"):
        read_path(DATA / name)


def _broken(path: Path, at: float) -> bytes:
    """The file with one byte of its largest compressed part changed."""
    data = bytearray(path.read_bytes())
    info = max(zipfile.ZipFile(path).infolist(), key=lambda i: i.compress_size)
    offset = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[offset + int(at * (info.compress_size - 1))] ^= 0x5A
    return bytes(data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(at=st.floats(0, 1), name=st.sampled_from(["pivots.xlsx", "python-pptx-test-slides.pptx"]))
def test_a_damaged_package_is_a_clear_error_or_a_whole_document(tmp_path, at, name):
    path = tmp_path / name
    path.write_bytes(_broken(DATA / name, at))
    try:
        doc = read_path(path)
    except chunkwise.InputError as exc:
        assert str(path) in str(exc)
        return
    assert_invariants(doc.text, chunkwise.get_chunker("section", size=64, max_tokens=64).chunk(doc), 64)


_CELL = st.one_of(st.none(), st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False),
                  st.booleans(), st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]),
                                         max_size=30),
                  st.sampled_from(["Region", "Total", "open | closed", "a\nb"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets=st.lists(st.lists(st.lists(_CELL, max_size=6), max_size=12), min_size=1, max_size=3))
def test_every_cell_of_any_workbook_is_in_the_text_and_chunked(sheets):
    data = _workbook({f"S{i}": rows for i, rows in enumerate(sheets)})
    doc = parse(data, "any.xlsx")
    from chunkwise.readers.spreadsheet import cell_text

    for rows in sheets:
        for row in rows:
            for value in row:
                if isinstance(value, float):  # (XlsxWriter stores 16 significant digits)
                    value = float(format(value, ".16g"))
                shown = cell_text(value)
                if shown:  # (a pipe is escaped in a table's cell)
                    assert shown in doc.text or shown.replace("|", "\\|") in doc.text
    for name in ("auto", "section"):
        assert_invariants(doc.text, chunkwise.get_chunker(name, size=32, max_tokens=32).chunk(doc), 32)


def _deck() -> bytes:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.enum.shapes import PP_PLACEHOLDER
    from pptx.util import Inches

    deck = Presentation()
    title = deck.slides.add_slide(deck.slide_layouts[0])
    title.shapes.title.text = "Quarterly review"
    title.placeholders[1].text = "Operations, third quarter"
    bullets = deck.slides.add_slide(deck.slide_layouts[1])
    bullets.shapes.title.text = "Incidents"
    body = bullets.placeholders[1].text_frame
    body.text = "Two outages in September"
    sub = body.add_paragraph()
    sub.text, sub.level = "Both in the Frankfurt region", 1
    bullets.notes_slide.notes_text_frame.text = "Mention the new on-call rota."
    for placeholder in bullets.slide_layout.placeholders:  # its number and footer: left out
        if placeholder.placeholder_format.type in (PP_PLACEHOLDER.SLIDE_NUMBER,
                                                   PP_PLACEHOLDER.FOOTER):
            bullets.shapes.clone_placeholder(placeholder)
    for shape in bullets.placeholders:
        if shape.placeholder_format.type == PP_PLACEHOLDER.SLIDE_NUMBER:
            shape.text_frame.text = "2"
        elif shape.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
            shape.text_frame.text = "Operations review, internal"
    chart = deck.slides.add_slide(deck.slide_layouts[5])
    chart.shapes.title.text = "Revenue"
    data = CategoryChartData()
    data.categories = ["July", "August", "September"]
    data.add_series("2024", (1.5, 2.25, 3.0))
    data.add_series("2025", (4.0, 5.0, 6.5))
    chart.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6),
                           Inches(4), data)
    untitled = deck.slides.add_slide(deck.slide_layouts[6])  # blank: no title placeholder
    lower = untitled.shapes.add_textbox(Inches(1), Inches(4), Inches(4), Inches(1))
    lower.text_frame.text = "Questions welcome"
    upper = untitled.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1))
    upper.text_frame.text = "Thank you"
    table = untitled.shapes.add_table(2, 2, Inches(5), Inches(1), Inches(3), Inches(1)).table
    for (r, c), text in {(0, 0): "Team", (0, 1): "Lead", (1, 0): "SRE", (1, 1): "Kim"}.items():
        table.cell(r, c).text = text
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def test_a_deck_reads_as_slides_under_their_titles():
    doc = parse(_deck(), "review.pptx")
    assert doc.title == "Quarterly review" and doc.metadata["slides"] == 4
    got = [(b.kind, b.page, b.headings, doc.text[b.start:b.end]) for b in doc.blocks]
    assert got == [
        ("heading", 1, ("Quarterly review",), "Quarterly review"),
        ("paragraph", 1, ("Quarterly review",), "Operations, third quarter"),
        ("heading", 2, ("Quarterly review", "Incidents"), "Incidents"),
        ("paragraph", 2, ("Quarterly review", "Incidents"),
         "Two outages in September\n  Both in the Frankfurt region"),
        ("paragraph", 2, ("Quarterly review", "Incidents"), "Mention the new on-call rota."),
        ("heading", 3, ("Quarterly review", "Revenue"), "Revenue"),
        ("table", 3, ("Quarterly review", "Revenue"),
         "|  | 2024 | 2025 |\n|---|---|---|\n| July | 1.5 | 4 |\n| August | 2.25 | 5 |\n"
         "| September | 3 | 6.5 |"),
        # no title: the slide before's ends; shapes top to bottom, then left to right
        ("paragraph", 4, ("Quarterly review",), "Thank you"),
        ("table", 4, ("Quarterly review",), "| Team | Lead |\n|---|---|\n| SRE | Kim |"),
        ("paragraph", 4, ("Quarterly review",), "Questions welcome")]
    assert doc.blocks[4].metadata["speaker_notes"] is True
    chunks = chunkwise.get_chunker("auto").chunk(doc)
    assert_invariants(doc.text, chunks, 254, independent_minilm_count())
    (bullets,) = by_text(chunks, "Frankfurt")
    assert bullets.page == 2
    (revenue,) = by_text(chunks, "September | 3 | 6.5")
    assert revenue.headings == ("Quarterly review", "Revenue")


def test_a_real_deck_keeps_grouped_shapes_and_tables():
    doc = read_path(DATA / "python-pptx-test-slides.pptx")
    assert doc.title == "python-pptx was here!"  # the core properties' title
    texts = [doc.text[b.start:b.end] for b in doc.blocks]
    assert texts == ["Test text", "Group test text",
                     "| Col head 1 | Col head 2 |\n|---|---|\n| Cell text 1 | Cell text 2 |",
                     "Box 1", "Box 2"]
    assert doc.blocks[2].metadata["columns"] == ("Col head 1", "Col head 2")
    assert all(b.page == 1 for b in doc.blocks)
    shapes = read_path(DATA / "python-pptx-shapes.pptx")
    # a chart's data as a table, and a SmartArt graphic's nodes (in its own part) a line each
    assert "|  | Sales |\n|---|---|\n| 1st Qtr | 8.2 |" in shapes.text
    assert shapes.text.endswith("\n\nshapes[5]\nSmart Art")


def test_a_folder_of_office_files_is_read_not_passed_over(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(_deck())
    (tmp_path / "stats.xlsx").write_bytes(_workbook({"Staff": [["Name"], ["Ada"]]}))
    (tmp_path / "old.xls").write_bytes((DATA / "dates.xls").read_bytes())
    (tmp_path / "old.ppt").write_bytes((DATA / "poi-basic_test_ppt_file.ppt").read_bytes())
    chunks = list(chunkwise.iter_chunks(tmp_path, chunkwise.get_chunker("auto")))
    assert sorted({Path(c.doc_id).name for c in chunks}) == ["deck.pptx", "old.ppt", "old.xls",
                                                              "stats.xlsx"]
    # a package without its extension is told by its parts
    assert parse(_deck(), "download").metadata["format"] == "pptx"
    assert parse(_workbook({"Staff": [["Name"], ["Ada"]]}), "download").metadata["format"] == "xlsx"
    ods = (DATA / "any-sheets.ods").read_bytes()
    assert parse(ods, "download").metadata["format"] == "ods"


def test_search_cites_a_deck_by_its_slides(capsys, tmp_path, static_embedder):
    from chunkwise import Index
    from chunkwise.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "review.pptx").write_bytes(_deck())
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs, embedder=static_embedder)
    capsys.readouterr()
    assert main(["search", "outages in the Frankfurt region", "--db", str(tmp_path / "idx"),
                 "-k", "10"]) == 0
    wheres = [line for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    assert wheres and all(re.search(r"review\.pptx:\d+-\d+ \(slide [1-4]\)", w) for w in wheres)
    assert any("(slide 2)" in w for w in wheres)


def test_word_text_in_tracked_insertions_smart_tags_content_controls_and_text_boxes_is_read():
    """python-docx's ``Paragraph.text`` reads only runs straight under a paragraph: 20 of
    Apache POI's readable test documents lost text, every word of it silently."""
    delins = read_path(DATA / "poi-delins.docx").text
    # the news items were typed with changes tracked: insertions are the text ...
    assert "March 2009: Apache Tika Release" in delins
    assert "Solr Boot Camp - A one day training session, March 24th" in delins
    # ... deletions are not
    assert "Maang Tika" not in delins and "Tika Waylan" not in delins
    smart = read_path(DATA / "poi-smarttag-snippet.docx").text  # (smart tags held the names)
    assert "copied from the Carnegie Mellon University School of Computer Science web site" in smart
    assert "\n\nAlice's Adventures in Wonderland\n\n" in smart
    # a simple field's shown value; ruby's base text without its reading aid
    assert read_path(DATA / "poi-FldSimple.docx").text == "FldSimple.docx"
    assert read_path(DATA / "poi-61470.docx").text == "東京"
    # a form's table whose rows and cells are content controls: the rows are read (a
    # control still showing its placeholder shows it, as Word does)
    form = read_path(DATA / "poi-tika-3816.docx")
    assert form.text == ("Sample 1:\n\n| Note | Details |\n|---|---|\n"
                         "| Choose an item. | Here is just a sample |")
    # Word's résumé template: the name in a content control in a text box (once, though
    # the text box is also kept in a copy for old readers)
    resume = read_path(DATA / "poi-60316.docx").text
    assert resume.count("Allison, Timothy B.") == 1
    assert resume.startswith("Objective\n\nAllison, Timothy B.\n\n[Job Title]\n\n")
    assert "Getting the perfect job might be challenging" in resume
    # content controls inside a paragraph and around one
    assert read_path(DATA / "poi-55966.docx").text == (
        "Content control within a paragraph is here text content from within a paragraph "
        "second control with a new line\n\nContent control that is the entire paragraph")
    # footnotes and endnotes (parts python-docx does not read) after the text
    assert read_path(DATA / "poi-footnotes.docx").text == "Eto ochen prostoy text so snoskoy\n\nsnoska"
    endnotes = read_path(DATA / "poi-endnotes.docx")
    assert endnotes.text.endswith("Apache Tika is a subproject of the Lucene\n\nXXX")
    assert endnotes.blocks[-1].headings == ()


def test_macro_enabled_word_documents_templates_and_slide_shows_are_read(tmp_path):
    docm = read_path(DATA / "poi-45690.docm")
    assert docm.text.startswith("Стрелец A*") and docm.metadata["format"] == "docx"
    # a folder walk reads them as documents
    (tmp_path / "notes.docm").write_bytes((DATA / "poi-45690.docm").read_bytes())
    deck = _deck()
    show = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(deck)) as src, zipfile.ZipFile(show, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "[Content_Types].xml":
                data = data.replace(b"presentationml.presentation.main+xml",
                                    b"presentationml.slideshow.main+xml")
            dst.writestr(item, data)
    (tmp_path / "review.ppsx").write_bytes(show.getvalue())
    docs = {Path(str(c.source)).name for c in chunkwise.iter_chunks(tmp_path)}
    assert docs == {"notes.docm", "review.ppsx"}
    assert read_path(tmp_path / "review.ppsx").text == parse(deck, "review.pptx").text
    # an encrypted document is an OLE file, as an old .doc is: said so
    (tmp_path / "secret.docx").write_bytes((DATA / "pass-protected.xlsx").read_bytes())
    with pytest.raises(chunkwise.InputError, match="secret.docx: a password-protected Office "
                                                   "document: save it without a password"):
        read_path(tmp_path / "secret.docx")


def test_a_slide_whose_title_placeholder_holds_a_picture_is_read():
    """POI's 2411-Performance_Up.pptx failed whole: ``'PlaceholderPicture' object has no
    attribute 'text_frame'``."""
    from lxml import etree
    from PIL import Image
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    png = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(png, format="PNG")
    picture = slide.shapes.add_picture(png, Inches(1), Inches(1))
    nv_pr = picture._element.nvPicPr.nvPr
    nv_pr.append(etree.SubElement(nv_pr, "{http://schemas.openxmlformats.org/presentationml/2006/main}ph",
                                  type="title"))
    body = slide.shapes.add_textbox(Inches(1), Inches(3), Inches(4), Inches(1))
    body.text_frame.text = "Latency fell by half"
    out = io.BytesIO()
    prs.save(out)
    doc = parse(out.getvalue(), "perf.pptx")
    assert doc.text == "Latency fell by half" and doc.blocks[0].page == 1


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_WRAPS = ("none", "ins-run", "smartTag-run", "sdt-run", "sdt-block", "customXml-block", "ins-del")


def _wrapped_docx(paragraphs: list[tuple[str, str]]) -> bytes:
    """A Word document of ``(text, wrapper)`` paragraphs, each wrapped as Word writes
    tracked changes, smart tags, content controls and custom XML; ``ins-del`` keeps the
    text as an insertion and adds a tracked deletion beside it."""
    import docx
    from lxml import etree

    d = docx.Document()
    for text, how in paragraphs:
        p = d.add_paragraph(text)._p
        run = p.find(f"{_W}r")
        kind, _, level = how.partition("-")
        if kind == "none":
            continue
        if level in ("run", "del"):
            wrapper = etree.Element(f"{_W}{kind}")
            run.addprevious(wrapper)
            if kind == "sdt":
                etree.SubElement(etree.SubElement(wrapper, f"{_W}sdtPr"), f"{_W}alias").set(f"{_W}val", "x")
                wrapper = etree.SubElement(wrapper, f"{_W}sdtContent")
            wrapper.append(run)
            if level == "del":
                gone = etree.SubElement(p, f"{_W}del")
                etree.SubElement(etree.SubElement(gone, f"{_W}r"), f"{_W}delText").text = "struck out"
        else:
            wrapper = etree.Element(f"{_W}{kind}")
            p.addprevious(wrapper)
            if kind == "sdt":
                etree.SubElement(wrapper, f"{_W}sdtPr")
                wrapper = etree.SubElement(wrapper, f"{_W}sdtContent")
            wrapper.append(p)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


@settings(max_examples=30, deadline=None)
@given(paragraphs=st.lists(st.tuples(
    st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs", "Zl", "Zp"]), min_size=1,
            max_size=40).filter(str.strip),
    st.sampled_from(_WRAPS)), min_size=1, max_size=8))
def test_every_paragraph_of_a_word_document_is_read_however_it_is_wrapped(paragraphs):
    doc = parse(_wrapped_docx(paragraphs), "wrapped.docx")
    assert doc.text == "\n\n".join(" ".join(text.split()) for text, _ in paragraphs)
    assert "struck out" not in doc.text


def test_word_headings_by_outline_level_as_the_navigation_pane_shows_them(tmp_path):
    """Templates head sections with styles of their own, based on a heading or given an
    outline level, or give Normal text a level: those were paragraphs, and chunks had
    no heading trail (12 of ~150 readable Word documents in POI's and Tika's files)."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml.ns import qn
    from lxml import etree

    d = docx.Document()
    section = d.styles.add_style("Section Heading", WD_STYLE_TYPE.PARAGRAPH)
    section.base_style = d.styles["Heading 2"]  # its outline level, by inheritance
    d.add_paragraph("Refund policy", style="Title")
    d.add_paragraph("Timelines", style="Section Heading")
    d.add_paragraph("Refunds reach your card within five days.")
    marked = d.add_paragraph("Exceptions")  # Normal, given outline level 3 (0-based 2)
    etree.SubElement(marked._p.get_or_add_pPr(), qn("w:outlineLvl")).set(qn("w:val"), "2")
    d.add_paragraph("Gift cards are never refunded.")
    long = d.add_paragraph("A long paragraph given a level by mistake. " * 8)
    etree.SubElement(long._p.get_or_add_pPr(), qn("w:outlineLvl")).set(qn("w:val"), "0")
    body = d.add_paragraph("Body text, level 9.")
    etree.SubElement(body._p.get_or_add_pPr(), qn("w:outlineLvl")).set(qn("w:val"), "9")
    out = io.BytesIO()
    d.save(out)
    doc = parse(out.getvalue(), "policy.docx")
    got = [(b.kind, b.level, b.headings) for b in doc.blocks]
    assert got == [
        ("heading", 0, ("Refund policy",)),
        ("heading", 2, ("Refund policy", "Timelines")),
        ("paragraph", None, ("Refund policy", "Timelines")),
        ("heading", 3, ("Refund policy", "Timelines", "Exceptions")),
        ("paragraph", None, ("Refund policy", "Timelines", "Exceptions")),
        ("paragraph", None, ("Refund policy", "Timelines", "Exceptions")),
        ("paragraph", None, ("Refund policy", "Timelines", "Exceptions"))]
    # Word's résumé template: its "Section Heading" style
    resume = read_path(DATA / "poi-60316.docx")
    heads = [resume.text[b.start:b.end] for b in resume.blocks if b.kind == "heading"]
    assert heads == ["Objective", "Experience", "Education", "References"]


#: a 1x1 PNG
_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                     "0000000d4944415478da63f8cfc0f01f0005000201a5f0d6e90000000049454e44ae426082")


def _without(data: bytes, drop: str, corrupt: str | None = None) -> bytes:
    """The package ``data`` without its part ``drop`` (and with part ``corrupt``'s
    stored bytes changed, so that its checksum fails)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename == drop:
                continue
            blob = src.read(info)
            if info.filename == corrupt:
                dst.writestr(info.filename, blob, compress_type=zipfile.ZIP_STORED)
                continue
            dst.writestr(info, blob)
    data = out.getvalue()
    if corrupt is not None:  # flip a byte of its stored text (the CRC no longer matches)
        at = data.index(b"<a:theme") + 3 if b"<a:theme" in data else None
        assert at is not None
        data = data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1:]
    return data


def test_office_files_missing_a_part_they_name_are_read_without_it():
    """python-docx and python-pptx load every part a package names: a document whose
    image a tool removed (POI's ``60316b.dotx``) or whose theme is corrupt failed
    whole ("There is no item named 'word/media/image1.png' in the archive", or "Bad
    CRC-32 for file 'ppt/theme/theme1.xml'"). It is read without them now, with a
    warning naming what was left out."""
    import docx
    import pptx

    word = docx.Document()
    word.add_heading("Ferry timetable", level=1)
    word.add_paragraph("Boats leave the harbour at nine and return at six.")
    word.add_picture(io.BytesIO(_PNG))
    buf = io.BytesIO()
    word.save(buf)
    names = zipfile.ZipFile(buf).namelist()
    image = next(n for n in names if n.startswith("word/media/"))
    theme = next(n for n in names if n.startswith("word/theme/"))
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Harbour works"
    slide.placeholders[1].text = "The north quay closes in May for repairs."
    slide.shapes.add_picture(io.BytesIO(_PNG), 0, 0)
    dbuf = io.BytesIO()
    deck.save(dbuf)
    dtheme = next(n for n in zipfile.ZipFile(dbuf).namelist() if n.startswith("ppt/theme/"))
    # (python-pptx opens a deck whose image is gone: only a corrupt part fails it)
    cases = [(_without(buf.getvalue(), image), "notes.docx", "Boats leave the harbour", image),
             (_without(buf.getvalue(), "", corrupt=theme), "notes.docx", "Boats leave", theme),
             (_without(dbuf.getvalue(), "", corrupt=dtheme), "deck.pptx", "north quay closes",
              dtheme)]
    for data, name, said, left in cases:
        with pytest.warns(UserWarning, match=f"{name}: parts it names are missing or corrupt, "
                                             f"read without them: {re.escape(left)}"):
            doc = parse(data, name)
        assert said in doc.text
    # a package without its main part is still an error, the first problem named
    with pytest.raises(chunkwise.InputError, match="notes.docx: not a readable DOCX file"):
        parse(_without(buf.getvalue(), "word/document.xml"), "notes.docx")


def test_old_binary_word_documents_are_read_with_headings_tables_and_field_results(tmp_path):
    """Word 97-2003 ``.doc`` files (Apache POI's test files): the text through the piece
    table, headings from styles, tables from the paragraphs' properties, hyperlinks'
    results without their field codes, the title from the summary; they were skipped
    as "not documents"."""
    doc = read_path(DATA / "poi-Bug51686.doc")
    assert doc.metadata["format"] == "doc" and doc.title == "Sample Word Document"
    headings = [(b.level, doc.text[b.start:b.end]) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(0, "Sample Word Document Title"), (1, "Heading Level 1"),
                        (2, "Heading Level 2"), (3, "Heading Level 3")]
    table = next(b for b in doc.blocks if b.kind == "table")
    assert doc.text[table.start:table.end] == ("| This is a table |  |\n|---|---|\n"
                                               "| The table has things in it |  |")
    assert table.headings[-1] == "Heading Level 3"
    assert "Apache Tika: http://tika.apache.org/ Tika" in doc.text  # a field's result
    assert "HYPERLINK" not in doc.text and not re.search(r"[\x00-\x08\x13-\x15]", doc.text)
    # a cell of two paragraphs is one cell
    cells = read_path(DATA / "poi-Bug44292.doc").text.split("\n")[0]
    assert cells == ("| One paragraph is ok | First para is ok Second paragraph is skipped | "
                     "One paragraph is ok |")
    # text deleted with changes tracked is left out, inserted text kept (Tika's file)
    tracked = read_path(DATA / "tika-testWORD_features.doc").text
    assert "insert this" in tracked and tracked.count("ad litora") == 1  # (moved: once)
    assert "bibendum" not in tracked and "Donec" not in tracked
    # Word 6, an older layout
    assert read_path(DATA / "poi-Word6.doc").text == "The quick brown fox jumps over the lazy dog"
    # chunks under their heading trail, and a folder walk reads them (a .doc named .docx too)
    chunks = chunkwise.chunk(DATA / "poi-Bug51686.doc")
    table_chunk = by_text(chunks, "The table has things in it")[0]
    assert "Heading Level 3" in table_chunk.context
    assert_invariants(doc.text, chunks, 254, independent_minilm_count())
    (tmp_path / "a.doc").write_bytes((DATA / "poi-Word6.doc").read_bytes())
    (tmp_path / "b.docx").write_bytes((DATA / "poi-Bug44292.doc").read_bytes())
    assert {Path(str(c.source)).name for c in chunkwise.iter_chunks(tmp_path)} == {"a.doc", "b.docx"}


def test_a_doc_that_is_protected_damaged_rtf_or_a_web_page_is_said_or_read_as_what_it_is(tmp_path):
    with pytest.raises(chunkwise.InputError, match="poi-PasswordProtected.doc: a password-"
                                                   "protected Word document"):
        read_path(DATA / "poi-PasswordProtected.doc")
    damaged = bytearray((DATA / "poi-Bug51686.doc").read_bytes())
    damaged[512:] = bytes(len(damaged) - 512)  # the compound file's sectors blanked
    (tmp_path / "damaged.doc").write_bytes(bytes(damaged))
    with pytest.raises(chunkwise.InputError, match="damaged.doc: "):
        read_path(tmp_path / "damaged.doc")
    for cut in (600, 5000, 20000):  # cut short: an error naming it
        (tmp_path / "cut.doc").write_bytes((DATA / "poi-Bug51686.doc").read_bytes()[:cut])
        with pytest.raises(chunkwise.InputError, match="cut.doc: "):
            read_path(tmp_path / "cut.doc")
    # what Word and web applications also save as .doc: RTF, a web page
    (tmp_path / "letter.doc").write_bytes((DATA / "tika-testRTFWindowsCodepage1250.rtf").read_bytes())
    assert read_path(tmp_path / "letter.doc").text.startswith("zażółć gęślą jaźń")
    (tmp_path / "page.doc").write_bytes(b"<html><body><h1>Minutes</h1><p>We met.</p></body></html>")
    page = read_path(tmp_path / "page.doc")
    assert page.metadata["format"] == "html" and "We met." in page.text


@pytest.mark.parametrize("name", ["poi-Bug51686.doc", "poi-basic_test_ppt_file.ppt"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1,
                        max_size=40))
def test_a_corrupted_old_office_file_is_a_document_or_one_clear_error(name, changes):
    """Bytes of a real .doc or .ppt overwritten anywhere (header, piece table, property
    pages, style sheet, persist directory, records, text): a document, or an
    InputError naming the file; never another exception (both readers read these
    structures by hand)."""
    data = bytearray((DATA / name).read_bytes())
    for at, value in changes:
        data[at % len(data)] = value
    fuzzed = "fuzzed" + Path(name).suffix
    try:
        doc = parse(bytes(data), fuzzed)
    except chunkwise.InputError as e:
        assert str(e).startswith(f"{fuzzed}: ")
    else:
        assert isinstance(doc.text, str)


def test_rtf_files_are_read_with_code_pages_unicode_and_tables_and_footnotes_said():
    """RTF (Apache Tika's test files): escapes in the file's code page, Unicode beyond
    the BMP from surrogate pairs, table rows as a pipe table; the footnote striprtf
    leaves out is said, not lost in silence. Skipped as "not documents" before."""
    assert read_path(DATA / "tika-testRTFWindowsCodepage1250.rtf").text == (
        "zażółć gęślą jaźń\n\nZAŻÓŁĆ GĘŚLĄ JAŹŃ")
    with pytest.warns(chunkwise.ExtractionWarning, match="1 footnote not read"):
        doc = read_path(DATA / "tika-testRTFVarious.rtf")
    assert doc.metadata["format"] == "rtf"
    table = next(b for b in doc.blocks if b.kind == "table")
    assert doc.text[table.start:table.end].splitlines()[-1] == \
        "| Row 2 Col 1 | Row 2 Col 2 | Row 2 Col 3 |"
    assert "𐌲𐌿𐍄𐌹𐍃𐌺" in doc.text and "ゾルゲと尾崎、淡々と最期" in doc.text
    assert not re.search(r"[\ud800-\udfff]", doc.text)
    with pytest.raises(chunkwise.InputError, match="not an RTF file"):
        parse(b"plain words", "notes.rtf")


_ODP_CONTENT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.3">
<office:body><office:presentation>
<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box>
<text:p>Quarterly review</text:p></draw:text-box></draw:frame>
<draw:frame presentation:class="outline"><draw:text-box><text:list>
<text:list-item><text:p>Revenue rose 12 percent</text:p></text:list-item>
<text:list-item><text:p>Churn fell to 3 percent</text:p></text:list-item></text:list>
</draw:text-box></draw:frame>
<draw:frame><table:table><table:table-row><table:table-cell><text:p>Region</text:p></table:table-cell>
<table:table-cell><text:p>Sales</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>North</text:p></table:table-cell>
<table:table-cell><text:p>410</text:p></table:table-cell></table:table-row></table:table></draw:frame>
<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>
<text:p>Say the churn figure twice.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
<draw:page draw:name="page2"><draw:custom-shape><text:p>A shape with words</text:p></draw:custom-shape>
</draw:page>
</office:presentation></office:body></office:document-content>"""


def _odp(content: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.presentation",
                   compress_type=zipfile.ZIP_STORED)
        z.writestr("content.xml", content)
    return out.getvalue()


def test_opendocument_presentations_read_as_decks_of_slides(tmp_path):
    """Impress decks (``.odp``) were passed over by a folder walk: now each slide a
    section under its title, its lists, tables and shapes' text, the speaker notes
    after them, every block's page the slide's number."""
    deck = parse(_odp(_ODP_CONTENT), "review.odp")
    blocks = [(b.kind, b.page, b.headings, deck.text[b.start:b.end]) for b in deck.blocks]
    assert blocks[:3] == [("heading", 1, ("Quarterly review",), "Quarterly review"),
                          ("list_item", 1, ("Quarterly review",), "Revenue rose 12 percent"),
                          ("list_item", 1, ("Quarterly review",), "Churn fell to 3 percent")]
    assert blocks[3][:2] == ("table", 1) and "| North | 410 |" in blocks[3][3]
    assert blocks[4] == ("paragraph", 1, ("Quarterly review",), "Say the churn figure twice.")
    assert blocks[5] == ("paragraph", 2, (), "A shape with words")  # (no title: no trail)
    assert deck.title == "Quarterly review" and deck.metadata["format"] == "odp"
    # by its parts without an extension; a real LibreOffice file; a folder walk reads them
    assert parse(_odp(_ODP_CONTENT), "download").metadata["format"] == "odp"
    real = read_path(DATA / "tika-LibreOfficeImpress_odp_1.3.odp")
    assert real.text == "This is\n\nAn example Impress file"
    (tmp_path / "review.odp").write_bytes(_odp(_ODP_CONTENT))
    chunks = chunkwise.chunk(tmp_path)
    assert {Path(str(c.source)).name for c in chunks} == {"review.odp"}
    assert by_text(chunks, "Churn fell")[0].page == 1
    with pytest.raises(chunkwise.InputError, match="broken.odp: not a readable OpenDocument "
                                                   "presentation"):
        parse(b"PK\x03\x04 not really", "broken.odp")


def test_old_binary_powerpoint_decks_read_as_decks_in_the_order_shown():
    """PowerPoint 97-2003 decks (Apache POI's test files) were passed over: now each slide
    a section under its title and a page, in the order the deck shows them (not the
    order they are stored in), the speaker notes after each."""
    deck = read_path(DATA / "poi-basic_test_ppt_file.ppt")
    blocks = [(b.kind, b.page, deck.text[b.start:b.end]) for b in deck.blocks]
    assert blocks == [
        ("heading", 1, "This is a test title"), ("paragraph", 1, "This is a test subtitle"),
        ("paragraph", 1, "This is on page 1"), ("paragraph", 1, "These are the notes for page 1"),
        ("heading", 2, "This is the title on page 2"), ("paragraph", 2, "This is page two"),
        ("paragraph", 2, "It has several blocks of text"),
        ("paragraph", 2, "None of them have formatting"),
        ("paragraph", 2, "These are the notes on page two, again lacking formatting")]
    assert deck.blocks[3].metadata["speaker_notes"] and deck.metadata["format"] == "ppt"
    shown = read_path(DATA / "poi-incorrect_slide_order.ppt")
    assert [shown.text[b.start:b.end] for b in shown.blocks if b.kind != "heading"] == [
        "First slide I added", "Third slide I added", "Second slide I added"]
    chunk = by_text(chunkwise.chunk(DATA / "poi-basic_test_ppt_file.ppt"), "several blocks")[0]
    assert chunk.page == 2 and "This is the title on page 2" in chunk.context
    with pytest.raises(chunkwise.InputError, match="poi-Password_Protected-hello.ppt: a password-"
                                                   "protected PowerPoint file"):
        read_path(DATA / "poi-Password_Protected-hello.ppt")

