"""Structure: readers, section chunking with heading trails, tables kept whole."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, independent_minilm_count

QUAL = """# QUAL-047

## 1. Purpose

This procedure sets how incident records are created, kept and destroyed.

## 2. Scope

It applies to all sites and all staff, including contractors on site.

## 3. Records

### 3.1 Storage

Records are stored in the document system, never on local drives.

### 3.2 Accident reports

Accident reports are kept as shown below.

| Record | Retention | Owner |
|---|---|---|
| Near-miss report | 3 years | Safety lead |
| Accident report | seven years | Quality office |
| Illness record | 40 years | HR |
"""


def by_text(chunks, needle):
    return [c for c in chunks if needle in c.text]


def test_markdown_sections_one_chunk_each_with_trail():
    chunks = chunkwise.chunk(QUAL, strategy="section", size=128, format="markdown")
    assert_invariants(QUAL, chunks, 254, independent_minilm_count())
    assert all(c.token_count <= 128 for c in chunks if c.kind != "table")
    purpose = by_text(chunks, "This procedure sets")
    assert len(purpose) == 1 and purpose[0].headings == ("QUAL-047", "1. Purpose")
    assert purpose[0].context == "QUAL-047 > 1. Purpose\n\n"
    # the title heading has no body of its own: it travels with the first section
    assert purpose[0].text.startswith("# QUAL-047\n\n## 1. Purpose")
    storage = by_text(chunks, "document system")[0]
    # "3. Records" has no body of its own: it travels in the subsection's chunk
    assert storage.text.startswith("## 3. Records")
    assert storage.headings == ("QUAL-047", "3. Records", "3.1 Storage")
    table = by_text(chunks, "seven years")
    assert len(table) == 1 and table[0].kind == "table"
    assert table[0].headings == ("QUAL-047", "3. Records", "3.2 Accident reports")
    assert table[0].context == "QUAL-047 > 3. Records > 3.2 Accident reports\n\n"
    assert table[0].text.startswith("| Record | Retention | Owner |")  # header row carried
    # every chunk's embed text counts within budget, context included
    count = independent_minilm_count()
    for c in chunks:
        assert count(c.context + c.text) == c.token_count <= 254


def test_headers_option_on_recursive_and_sentence():
    for strategy in ("recursive", "sentence"):
        chunks = chunkwise.chunk(QUAL, strategy=strategy, size=128, headers=True,
                                 format="markdown")
        assert by_text(chunks, "document system")[0].context.startswith("QUAL-047 > 3. Records")
        plain = chunkwise.chunk(QUAL, strategy=strategy, size=128, format="markdown")
        assert all(c.context == "" for c in plain)


def test_context_template_and_no_title():
    chunks = chunkwise.chunk(QUAL, strategy="section", size=128, format="markdown",
                             context_template="Section: {trail}\n", trail_separator=" / ")
    c = by_text(chunks, "This procedure sets")[0]
    assert c.context == "Section: QUAL-047 / 1. Purpose\n"


def _big_table(rows=60):
    lines = ["| Code | Description | Retention |", "|---|---|---|"]
    lines += [f"| R-{i:03d} | Record class number {i} for testing | {i % 12 + 1} years |"
              for i in range(rows)]
    return "# Register\n\n## Classes\n\nAll classes:\n\n" + "\n".join(lines) + "\n"


def test_long_table_split_by_whole_rows_with_header_repeated():
    text = _big_table(60)
    chunks = chunkwise.chunk(text, strategy="section", size=128, format="markdown")
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) > 2
    header = "| Code | Description | Retention |\n|---|---|---|"
    rows = {f"| R-{i:03d} |" for i in range(60)}
    seen = set()
    for t in tables:
        assert (t.context + t.text).split("\n\n", 1)[1].startswith(header)  # renders as a table
        assert t.token_count <= 128
        for line in t.text.splitlines():
            if line.startswith("| R-"):
                assert line.endswith("years |")  # a row is never cut
                seen.add(line[:9])
    assert seen == rows
    assert_invariants(text, chunks, 128, independent_minilm_count())


def test_table_up_to_table_max_is_one_chunk():
    text = _big_table(5)
    chunks = chunkwise.chunk(text, strategy="section", size=64, format="markdown")
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) == 1 and 64 < tables[0].token_count <= 128  # 2 x size by default
    split = chunkwise.chunk(text, strategy="section", size=64, table_max=64, format="markdown")
    assert len([c for c in split if c.kind == "table"]) > 1


def test_giant_row_cut_at_cells_header_still_in_context():
    cell = " ".join(f"word{i}" for i in range(150))
    text = f"# T\n\n| A | B |\n|---|---|\n| {cell} | {cell} |\n| small | row |\n"
    chunks = chunkwise.chunk(text, strategy="section", size=100, format="markdown")
    tables = [c for c in chunks if c.kind == "table"]
    assert all(c.token_count <= 100 for c in tables)
    assert all("| A | B |" in c.context + c.text for c in tables)
    assert_invariants(text, chunks, 100)


def test_table_rows_as_records():
    chunks = chunkwise.chunk(QUAL, strategy="section", size=128, table_rows="row",
                             format="markdown")
    rows = [c for c in chunks if c.kind == "table"]
    assert len(rows) == 3
    seven = by_text(rows, "seven years")[0]
    assert "Record: Accident report; Retention: seven years; Owner: Quality office" in seven.context
    assert rows[0].text.startswith("| Record |")  # the header lines travel with the first row


def test_merge_small_sibling_sections():
    text = "# Doc\n\n## A\n\nShort a.\n\n## B\n\nShort b.\n\n## C\n\nShort c.\n"
    separate = chunkwise.chunk(text, strategy="section", size=128, format="markdown")
    merged = chunkwise.chunk(text, strategy="section", size=128, merge_sections=True,
                             format="markdown")
    assert len(merged) < len(separate)
    both = by_text(merged, "Short b.")[0]
    assert "Short c." in both.text and both.context == "Doc\n\n"
    assert_invariants(text, merged, 128)


def test_markdown_offsets_with_crlf_setext_front_matter_and_code():
    text = ("---\r\ntitle: Handbook\r\nowner: ops\r\n---\r\nIntro line.\r\n\r\n"
            "Setext Heading\r\n==============\r\n\r\nBody text.\r\n\r\n```python\r\nx = 1\r\n```\r\n")
    doc = parse(text, "h.md", fmt="markdown")
    assert doc.title == "Handbook" and doc.metadata["owner"] == "ops"
    kinds = [b.kind for b in doc.blocks]
    assert kinds == ["front_matter", "paragraph", "heading", "paragraph", "code"]
    heading = doc.blocks[2]
    assert text[heading.start:heading.end] == "Setext Heading\r\n=============="
    code = doc.blocks[4]
    assert text[code.start:code.end] == "```python\r\nx = 1\r\n```"
    chunks = chunkwise.chunk(text, strategy="section", size=64, format="markdown")
    assert_invariants(text, chunks, 64)
    body = by_text(chunks, "Body text.")[0]
    assert body.headings == ("Setext Heading",) and body.context.startswith("Handbook > ")
    assert chunks[0].kind == "front_matter"


def test_plain_text_numbered_headings():
    text = ("Accident procedure\n\n3 Records\n\nGeneral text about records.\n\n"
            "3.2 Accident reports\n\nRetention: seven years.\n")
    chunks = chunkwise.chunk(text, strategy="section", size=64)
    c = by_text(chunks, "seven years")[0]
    assert c.headings == ("3 Records", "3.2 Accident reports")
    # a lone numbered line is ambiguous: no headings
    doc = parse("1 Introduction\n\nSome text.", "x", fmt="text")
    assert all(b.kind != "heading" for b in doc.blocks)


HTML = """<!doctype html><html><head><title>Site</title><script>var x = "<p>no</p>";</script>
<style>p { color: red }</style></head><body>
<nav><ul><li>Home</li><li>About</li></ul></nav>
<div class="cookie-banner">We use cookies</div>
<main><h1>Handbook</h1><section><h2>Records</h2><p>Records are <b>kept</b> safely.</p>
<section><h3>Retention</h3><p>See the table.
<table><thead><tr><th>Record</th><th>Years</th></tr></thead>
<tbody><tr><td>Accident</td><td>7</td></tr><tr><td>Near miss</td><td>3</td></tr></tbody></table>
</section></section><ul><li>First item</li><li>Second <i>item</i></li></ul>
<pre>code
  indented</pre></main><footer>Copyright</footer></body></html>"""


def test_html_blocks_trail_and_table():
    doc = parse(HTML, "page.html", fmt="html")
    assert doc.title == "Handbook"
    for dropped in ("var x", "color: red", "Home", "cookies", "Copyright"):
        assert dropped not in doc.text
    chunks = chunkwise.chunk(HTML, strategy="section", size=128, format="html")
    assert_invariants(doc.text, chunks, 128)
    table = [c for c in chunks if c.kind == "table"][0]
    assert table.headings == ("Handbook", "Records", "Retention")
    assert table.text.splitlines()[0] == "| Record | Years |"
    assert "| Accident | 7 |" in table.text
    para = by_text(chunks, "Records are kept safely.")[0]
    assert para.headings == ("Handbook", "Records")
    heading = [b for b in doc.blocks if b.kind == "heading"][1]
    assert heading.metadata["tag"] == "h2" and "section" in heading.metadata["path"]
    code = [b for b in doc.blocks if b.kind == "code"][0]
    assert doc.text[code.start:code.end] == "code\n  indented"


def test_malformed_html_still_chunked():
    bad = "<html><body><h1>Title<p>Unclosed <b>bold <div>and <table><tr><td>cell<td>two"
    doc = parse(bad, "bad.html", fmt="html")
    assert "Unclosed bold" in doc.text and "cell" in doc.text
    chunks = chunkwise.chunk(bad, strategy="section", format="html")
    assert_invariants(doc.text, chunks, 254)


def make_pdf(path, hyphen=True, tables=True, password=None):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    for page in (1, 2):
        pdf.add_page()
        pdf.set_y(10)
        pdf.cell(0, 8, "ACME Corp - Records Manual")
        pdf.set_y(30)
        if page == 1:
            pdf.multi_cell(0, 6, "1 Records\n\nAccident reports are kept for the full reten-\n"
                                 "tion period set out below and are destroyed after\n"
                                 "review by the safety lead.")
        else:
            pdf.multi_cell(0, 6, "2 Retention\n\nThe periods are listed here.")
            if tables:
                with pdf.table() as table:
                    for row in [("Record", "Years"), ("Accident", "7"), ("Near miss", "3")]:
                        r = table.row()
                        for cell in row:
                            r.cell(cell)
        pdf.set_y(-20)
        pdf.cell(0, 8, f"Page {page} of 2")
    if password:
        pdf.set_encryption(owner_password="o", user_password=password)
    pdf.output(str(path))


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
    docs = {json.loads(l)["doc_id"] for l in out.splitlines()}
    assert docs == {str(tmp_path / "good.pdf"), str(tmp_path / "notes.md")}


def test_auto_strategy_picks_section_for_structure():
    structured = chunkwise.chunk(QUAL, strategy="auto", format="markdown")
    assert all(c.headings for c in structured)
    plain = chunkwise.chunk("Just a plain paragraph. Another sentence.", strategy="auto")
    assert plain[0].context == "" and plain[0].headings == ()


_MD_PARTS = st.one_of(
    st.from_regex(r"#{1,4} [A-Z][a-z]{1,10}( [a-z]{1,8}){0,3}", fullmatch=True),
    st.from_regex(r"[A-Z][a-z]{1,9}( [a-z]{1,9}){2,30}\.", fullmatch=True),
    st.from_regex(r"- [a-z]{1,9}( [a-z]{1,9}){1,10}", fullmatch=True),
    st.integers(1, 30).map(lambda n: "| A | B |\n|---|---|\n" +
                           "\n".join(f"| r{i} value text | {i} more words here |" for i in range(n))),
    st.text(min_size=1, max_size=60),
    st.integers(1, 8).map(lambda n: "- item with a table:\n\n  | A | B |\n  |---|---|\n" +
                          "\n".join(f"  | nested {i} | value {i} |" for i in range(n))),
    st.integers(1, 5).map(lambda n: "> ## Quoted heading\n>\n> " +
                          "\n> ".join(f"quoted line {i} with words" for i in range(n))),
    st.just("```\n# not a heading\n| not | a table |\n```"),
    st.just("Setext title\n============"),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(_MD_PARTS, min_size=1, max_size=15),
       sep=st.sampled_from(["\n\n", "\r\n\r\n"]), size=st.integers(16, 200),
       strategy=st.sampled_from(["section", "recursive", "sentence", "auto"]))
def test_structure_invariants_markdown(parts, sep, size, strategy):
    text = sep.join(parts)
    options = {"headers": True} if strategy in ("recursive", "sentence") else {}
    chunker = chunkwise.get_chunker(strategy, size=size, **options)
    doc = parse(text, "p.md", fmt="markdown")
    chunks = chunker.chunk_document(doc)
    # max_tokens (254) is the hard limit for everything; prose also keeps to the size
    # (a table may reach 2 x size whole, and one row larger than the size stays whole)
    assert_invariants(text, chunks, 254, independent_minilm_count())
    prose = [c for c in chunks if c.kind != "table"]
    assert all(c.token_count <= min(size, 254) for c in prose)
    for c in chunks:
        if c.kind == "table" and c.token_count > min(2 * size, 254):
            assert c.metadata.get("table_parts", 0) >= 1  # only a split table's single row


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(_MD_PARTS, min_size=1, max_size=10), size=st.integers(16, 200))
def test_structure_invariants_html(parts, size):
    import html as htmlmod

    body = "".join(f"<h2>{htmlmod.escape(p[:30])}</h2>" if p.startswith("#") else
                   f"<p>{htmlmod.escape(p)}</p>" for p in parts)
    doc = parse(f"<html><body>{body}</body></html>", "p.html", fmt="html")
    chunks = chunkwise.get_chunker("section", size=size).chunk_document(doc)
    assert_invariants(doc.text, chunks, 254, independent_minilm_count())


def test_html_declared_charset(tmp_path):
    page = ('<html><head><meta charset="windows-1252"></head><body><h1>Caf\xe9</h1>'
            '<p>Cr\xe8me br\xfbl\xe9e \u2013 \u20ac 5</p></body></html>').encode("cp1252")
    (tmp_path / "menu.html").write_bytes(page)
    doc = read_path(tmp_path / "menu.html")
    assert doc.title == "Café" and "Crème brûlée – € 5" in doc.text


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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=0, max_size=3000), prefix=st.sampled_from([b"", b"%PDF-1.4\n", b"<html>"]),
       ext=st.sampled_from([".pdf", ".html", ".md", ".txt"]))
def test_random_bytes_never_crash_a_reader(tmp_path, data, prefix, ext):
    path = tmp_path / f"fuzz{ext}"
    path.write_bytes(prefix + data)
    try:
        doc = read_path(path)
    except chunkwise.InputError as exc:
        assert str(path) in str(exc)
        return
    chunks = chunkwise.get_chunker("section", size=64).chunk_document(doc)
    assert_invariants(doc.text, chunks, 128)


def test_row_over_size_but_under_max_tokens_stays_whole():
    mid = " ".join(f"w{i}" for i in range(40))
    text = f"# T\n\n| A | B |\n|---|---|\n| {mid} | {mid} |\n| small | row |\n| x | y |\n"
    chunks = chunkwise.chunk(text, strategy="section", size=64, table_max=64, format="markdown")
    big = by_text(chunks, "w39 |")[0]
    assert 64 < big.token_count <= 254 and big.text.count("\n| w0") == 1  # whole row
    assert big.text.startswith("# T")  # the lone heading travels with its table
    rest = by_text(chunks, "| small | row |")[0]
    assert rest.context.endswith("| A | B |\n|---|---|\n") and rest.token_count <= 64
    assert [c for c in chunks if c.text.strip() == "# T"] == []
    assert_invariants(text, chunks, 254)
