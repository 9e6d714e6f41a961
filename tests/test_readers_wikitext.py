"""MediaWiki wikitext: .wiki files and a wiki's XML export read as headings,
paragraphs, lists, tables and code, links as their text, templates left out."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, sniff_format
from chunkwise.readers.wikitext import PIECE, pieces

from helpers import assert_invariants

PAGE = """{{Short description|A cutting tool}}{{Infobox tool|name=Widget|maker=Acme}}
'''Widget''' is a [[tool|small tool]] for [[Cutting]] things.<ref>Smith, 2020.</ref> It
was made in 1990.{{cite web|url=http://example.org}} See [http://example.org the site].
It weighs {{convert|5|kg|lb}}.{{citation needed|date=May 2020}}{{DEFAULTSORT:Widget}}

== History ==
Early [[File:Widget.png|thumb|200px|A widget in 1990]] models were steel &amp; wood.
* one item
** nested [[Page]]
# numbered
; Term : Its definition
 $ widget --cut
 done

=== Models ===
{| class="wikitable"
|+ Models by year
! Year !! Model
|-
| 1990 || Mk I
|-
| 1995
| Mk II
|}
<syntaxhighlight lang="python">
import widget

widget.cut()
</syntaxhighlight>
<!-- an editor's comment -->
[[Category:Tools]]
[[Category:Steel]]
"""


def _blocks(doc):
    return [(b.kind, doc.text[b.start:b.end]) for b in doc.blocks]


def test_a_wiki_page_is_headings_paragraphs_lists_tables_and_code():
    """Read as text, a wiki page's chunks held ``{{cite web|...}}``, ``[[File:...]]``
    and ``{| class="wikitable"`` markup, and ``== History ==`` was no heading."""
    assert sniff_format(PAGE.encode(), "widget.wiki") == "mediawiki"
    doc = parse(PAGE, "widget.wiki")
    assert doc.metadata["format"] == "mediawiki"
    assert doc.metadata["categories"] == ["Tools", "Steel"]
    blocks = _blocks(doc)
    assert blocks[:3] == [
        ("paragraph", "A cutting tool Widget is a small tool for Cutting things. It was "
                      "made in 1990. See the site. It weighs 5 kg lb."),
        ("paragraph", "Smith, 2020."),  # the reference, after the paragraph citing it
        ("heading", "History")]
    assert ("paragraph", "Early A widget in 1990 models were steel & wood.") in blocks
    assert [t for k, t in blocks if k == "list_item"] == [
        "one item", "nested Page", "numbered", "Term: Its definition"]
    assert ("code", "$ widget --cut\ndone") in blocks  # preformatted lines
    models = next(b for b in doc.blocks if doc.text[b.start:b.end] == "Models")
    assert models.level == 2 and models.headings == ("History", "Models")
    assert ("paragraph", "Models by year") in blocks  # the caption
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["columns"] == ("Year", "Model")
    assert table.metadata["cells"] == (("1990", "Mk I"), ("1995", "Mk II"))
    code = next(b for b in doc.blocks if b.kind == "code" and "widget.cut" in doc.text[b.start:b.end])
    assert doc.text[code.start:code.end] == "import widget\n\nwidget.cut()"
    assert code.metadata["language"] == "python"
    for markup in ("{{", "[[", "{|", "<ref", "<!--", "Category:", "thumb", "'''", "Acme",
                   "May 2020", "DEFAULTSORT"):
        assert markup not in doc.text
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


EXPORT = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo><sitename>Test Wiki</sitename></siteinfo>
  <page><title>Widget</title><ns>0</ns><id>1</id>
    <revision><id>10</id><text xml:space="preserve">Old text.</text></revision>
    <revision><id>11</id><contributor><username>Ann</username></contributor>
      <comment>fix &amp; expand</comment>
      <text bytes="80" xml:space="preserve">'''Widget''' cuts things.&lt;ref&gt;Smith.&lt;/ref&gt;
== Use ==
* Hold it.
[[Category:Tools]]</text></revision>
  </page>
  <page><title>Gadget</title><ns>0</ns><id>2</id><redirect title="Widget"/>
    <revision><id>12</id><text xml:space="preserve">#REDIRECT [[Widget]]</text></revision></page>
</mediawiki>
"""


def test_a_mediawiki_export_is_its_pages_latest_revisions():
    doc = parse(EXPORT, "wiki-export.xml")
    assert doc.metadata["xml_vocabulary"] == "mediawiki"
    assert doc.metadata["pages"] == 2 and doc.metadata["categories"] == ["Tools"]
    assert _blocks(doc) == [
        ("heading", "Widget"), ("paragraph", "Widget cuts things."), ("paragraph", "Smith."),
        ("heading", "Use"), ("list_item", "Hold it."),
        ("heading", "Gadget"), ("paragraph", "Redirect to Widget")]
    use = next(b for b in doc.blocks if doc.text[b.start:b.end] == "Use")
    assert use.level == 2 and use.headings == ("Widget", "Use")
    gadget = doc.blocks[-1]
    assert gadget.headings == ("Gadget",)  # the first page's sections ended
    assert "Old text" not in doc.text and "Ann" not in doc.text
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", [
    "[http://x " * 20_000,  # 41 s in one parse: each unclosed link searched to the end
    "<ref>" * 10_000,
    "{|\n" * 20_000,
    "<ref>\n" * 20_000,
    "{{" * 20_000 + "x",
    "x" * 100_000,  # one line longer than a piece: read as text
])
def test_unclosed_constructs_are_no_hang_and_lose_nothing(text):
    doc = parse(text, "bad.wiki")
    assert re.sub(r"[^a-z]", "", doc.text) == re.sub(r"[^a-z]", "", text)  # as written
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


def test_pieces_are_cut_at_blank_lines_outside_tables_templates_and_tags():
    para = "word " * 1000 + "\n\n"
    table = "{|\n" + "| cell\n|-\n" * 3000 + "\n\n" + "| more\n|}\n\n"
    code = "<syntaxhighlight>\n" + "x = 1\n\n" * 3000 + "</syntaxhighlight>\n\n"
    text = para * 10 + table + para * 10 + code + para
    cut = pieces(text)
    assert "".join(p for p, _ in cut) == text and all(parsed for _, parsed in cut)
    assert any(p.count("{|") == 1 and p.count("|}") == 1 for p, _ in cut)  # the table whole
    assert any("<syntaxhighlight>" in p and "</syntaxhighlight>" in p for p, _ in cut)
    assert max(len(p) for p, _ in cut if "{|" not in p and "<syntax" not in p) < 2 * PIECE


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)


@st.composite
def _wikitext(draw):
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        words = " ".join(draw(st.lists(_WORD, min_size=1, max_size=6)))
        kind = draw(st.sampled_from(["para", "heading", "list", "link", "table", "bold"]))
        if kind == "heading":
            lines.append(f"\n== {words} ==")
        elif kind == "list":
            lines.append(f"* {words}")
        elif kind == "link":
            lines.append(f"see [[{draw(_WORD)}|{words}]] now")
        elif kind == "table":
            lines.append(f"{{|\n! {draw(_WORD)}\n|-\n| {words}\n|}}")
        elif kind == "bold":
            lines.append(f"'''{words}''' ''{draw(_WORD)}''")
        else:
            lines.append(words + "\n")
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(_wikitext())
def test_every_word_of_a_page_is_read(text):
    doc = parse(text, "page.wiki")
    expected = re.findall(r"[a-z]+", re.sub(r"\[\[[a-z]+\|", " ", text))
    assert re.findall(r"[a-z]+", doc.text) == expected
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)
