"""Structure: readers, section chunking with heading trails, tables kept whole."""


import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text

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


def test_html_declared_charset(tmp_path):
    page = ('<html><head><meta charset="windows-1252"></head><body><h1>Caf\xe9</h1>'
            '<p>Cr\xe8me br\xfbl\xe9e \u2013 \u20ac 5</p></body></html>').encode("cp1252")
    (tmp_path / "menu.html").write_bytes(page)
    doc = read_path(tmp_path / "menu.html")
    assert doc.title == "Café" and "Crème brûlée – € 5" in doc.text
