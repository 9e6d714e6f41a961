"""CSV/TSV as tables and DOCX documents (issue 9)."""

import pytest

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, independent_minilm_count


def _csv(rows=120, sep=","):
    lines = [sep.join(["id", "product", "description", "price"])]
    for i in range(rows):
        desc = f'"Item {i}, a useful thing' + (' with a note\nover two lines"' if i == 7 else '"')
        lines.append(sep.join([str(i), f"product-{i}", desc, f"{i * 3}.50"]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("sep,ext", [(",", "csv"), ("\t", "tsv")])
def test_a_csv_is_a_table_with_its_header_on_every_part(tmp_path, sep, ext):
    path = tmp_path / f"products.{ext}"
    text = _csv(sep=sep)
    path.write_text(text, encoding="utf-8", newline="")
    doc = read_path(path)
    (table,) = doc.blocks
    assert table.kind == "table" and len(table.metadata["rows"]) == 120
    assert table.metadata["columns"] == ("id", "product", "description", "price")
    chunks = chunkwise.chunk(path, size=96)
    assert len(chunks) > 4 and all(c.kind == "table" for c in chunks)
    assert chunks[0].text.startswith("id")
    for c in chunks[1:]:
        assert c.context.endswith("id | product | description | price\n")
    # every record whole and once, the two-line record included
    seen = [line for c in chunks for line in c.text.split("\n") if line[:1].isdigit()]
    assert len([s for s in seen if s.split(sep)[0].isdigit()]) == 120
    assert any("over two lines" in c.text and "with a note" in c.text for c in chunks)
    assert_invariants(text, chunks, 254, independent_minilm_count())


def test_a_docx_document(tmp_path):
    import docx

    d = docx.Document()
    d.core_properties.title = "Site Safety Handbook"
    d.core_properties.author = "Safety Office"
    d.add_heading("Site Safety Handbook", level=0)
    d.add_heading("Protective equipment", level=1)
    d.add_paragraph("Wear boots, a helmet and a high-visibility vest at all times.")
    d.add_paragraph("Check the vest before the shift.", style="List Bullet")
    d.add_heading("Incidents", level=1)
    d.add_paragraph("Stop work at once after an incident and call the supervisor.")
    table = d.add_table(rows=3, cols=2)
    for r, (a, b) in enumerate([("Incident", "Report within"), ("Near miss", "5 days"),
                                ("Injury", "same day")]):
        table.rows[r].cells[0].text, table.rows[r].cells[1].text = a, b
    path = tmp_path / "handbook.docx"
    d.save(str(path))
    doc = read_path(path)
    assert doc.title == "Site Safety Handbook" and doc.metadata["author"] == "Safety Office"
    kinds = [b.kind for b in doc.blocks]
    assert kinds == ["heading", "heading", "paragraph", "list_item", "heading", "paragraph",
                     "table"]
    chunks = chunkwise.chunk(path, size=64)
    incident = [c for c in chunks if "Stop work" in c.text][0]
    assert incident.headings == ("Site Safety Handbook", "Incidents")
    tables = [c for c in chunks if c.kind == "table"]
    assert "| Near miss | 5 days |" in tables[0].text
    assert_invariants(doc.text, chunks, 254)
    # sniffed from content as well
    assert parse(path.read_bytes(), "noext").blocks == doc.blocks


def test_docx_nested_tables_keep_their_text_in_reading_order(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("Rates", level=1)
    table = d.add_table(rows=2, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Zone", "Prices"
    table.rows[1].cells[0].text = "North"
    cell = table.rows[1].cells[1]
    cell.text = "From March:"
    inner = cell.add_table(rows=2, cols=2)
    for r, (a, b) in enumerate([("Small parcel", "4 EUR"), ("Large parcel", "9 EUR")]):
        inner.rows[r].cells[0].text, inner.rows[r].cells[1].text = a, b
    innermost = inner.rows[1].cells[1].add_table(rows=1, cols=1)
    innermost.rows[0].cells[0].text = "surcharge 2 EUR"
    cell.add_paragraph("Taxes included.")
    path = tmp_path / "rates.docx"
    d.save(str(path))
    doc = read_path(path)
    words = ["From March:", "Small parcel / 4 EUR; Large parcel / 9 EUR surcharge 2 EUR",
             "Taxes included."]
    row = [line for line in doc.text.splitlines() if line.startswith("| North")][0]
    assert row == "| North | " + " ".join(words) + " |"  # nothing dropped, in reading order
    chunks = chunkwise.chunk(path, size=64)
    assert any("Large parcel / 9 EUR" in c.text for c in chunks)
    assert_invariants(doc.text, chunks, 254)


def test_a_broken_docx_is_one_clear_error(tmp_path):
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(chunkwise.InputError, match="broken.docx: not a readable DOCX"):
        read_path(path)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_csv_record_spans_are_exact_whatever_ends_its_lines(newline):
    """Each record's span is found from the lines the csv module reads (a cell may hold
    a line break in quotes, or U+2028, which str.splitlines would count as a line)."""
    records = [["id", "note"], ["1", "plain"], ["2", "two\nlines in quotes"],
               ["3", "a \u2028 separator \x0c and a form feed"], ["", ""], ["4", "last"]]
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator=newline).writerows(records)
    text = out.getvalue().replace("\n", newline) if newline != "\n" else out.getvalue()
    doc = parse(text.encode(), "notes.csv", fmt="csv")
    (table,) = doc.blocks
    meta = table.metadata
    assert meta["columns"] == ("id", "note")
    assert meta["cells"] == (("1", "plain"), ("2", "two" + newline + "lines in quotes"),
                             ("3", "a \u2028 separator \x0c and a form feed"), ("4", "last"))
    spans = [meta["header"], *meta["rows"]]
    got = [list(next(csv.reader(io.StringIO(doc.text[s:e], newline="")))) for s, e in spans]
    assert got == [[c.replace("\n", newline) for c in r] for r in records if any(r)]
    assert all(not doc.text[e - 1].isspace() for _, e in spans)
