"""XML documents: DocBook, DITA, JATS and TEI read as sections, paragraphs, code,
lists and tables; any other XML as plain text, as before the reader."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path, sniff_format

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "xml"


def _blocks(doc):
    return [(b.kind, doc.text[b.start:b.end]) for b in doc.blocks]


def _heads(doc):
    return [(b.level, doc.text[b.start:b.end]) for b in doc.blocks if b.kind == "heading"]


def test_the_php_manuals_page_for_array_map():
    """The PHP manual is DocBook 5 with entities defined in other files: read as
    text, its chunks were tags (``<methodparam><type>``); its examples' code could
    be cut anywhere and the parameters' names stood apart from what they mean."""
    path = DATA / "php-array-map.xml"
    assert sniff_format(path.read_bytes(), path.name) == "xml"
    doc = read_path(path)
    assert doc.metadata["format"] == "xml" and doc.metadata["xml_vocabulary"] == "docbook"
    assert doc.title == "array_map"
    assert "<para>" not in doc.text and "<![CDATA[" not in doc.text
    blocks = _blocks(doc)
    assert blocks[1] == ("paragraph",
                         "array_map — Applies the callback to the elements of the given arrays")
    # the synopsis on one line, words a space apart (its elements hold no spaces)
    assert ("code", "array array_map callable null callback array array array arrays") in blocks
    assert ("list_item", "callback: A callable to run for each element in each array.") in blocks
    # an entity defined in another file of the manual is kept as written, not lost
    assert "&null; can be passed as a value to callback" in doc.text
    assert ("paragraph", "&reftitle.returnvalues;") in blocks
    # the examples: titled sections whose code is whole, as written
    heads = _heads(doc)
    assert (2, "array_map example") in heads
    cube = next(t for k, t in blocks if k == "code" and "function cube" in t)
    assert cube.startswith("<?php\nfunction cube($n)\n{\n    return ($n * $n * $n);\n}")
    assert any(b.kind == "code" and b.metadata.get("language") is None for b in doc.blocks)
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert all(c.text.count("function cube") <= 1 for c in chunks)
    code = by_text(chunks, "function cube")[0]
    assert code.headings == ("array_map", "array_map example")
    assert "print_r($b);\n?>" in code.text  # the example in one chunk


def test_a_dita_task_from_dita_ots_documentation():
    path = DATA / "dita-ot-building-with-ant.dita"
    doc = read_path(path)
    assert doc.metadata["xml_vocabulary"] == "dita"
    assert doc.title == "Building output using Ant"
    blocks = _blocks(doc)
    assert blocks[:3] == [
        ("heading", "Building output using Ant"),
        ("paragraph", "You can build output with an Ant build script that provides the "
                      "DITA-OT parameters."),
        ("list_item", "Issue the following command:")]
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["cells"][1] == ("Windows", "bin\\ant -f build-script target")
    assert ("list_item", "build-script is name of the Ant build script.") in blocks
    assert "publishing with" not in doc.text  # the prolog's index terms
    assert "Linux" in doc.text and "macOS" in doc.text


DOCBOOK = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE book [
  <!ENTITY product "Widget Pro">
  <!ENTITY secret SYSTEM "file://{secret}">
]>
<book xmlns="http://docbook.org/ns/docbook" version="5.0">
  <info><title>The &product; Guide</title><author>Someone</author></info>
  <chapter xml:id="install">
    <title>Installing</title>
    <para>Install &product; with <command>pip</command>&mdash;see <xref linkend="conf"/>.<footnote><para>Or uv.</para></footnote> Then &undefined-here; &secret;</para>
    <indexterm><primary>install</primary></indexterm>
    <remark>Editor: check this.</remark>
    <programlisting language="bash"><![CDATA[
  pip install widget && echo "&nbsp; <done>"
    ]]></programlisting>
    <note><para>Needs Python 3.11.</para></note>
    <itemizedlist>
      <listitem><para>First item.</para><para>Its second paragraph.</para></listitem>
      <listitem><para>Second item.</para></listitem>
    </itemizedlist>
    <variablelist>
      <varlistentry><term><option>--fast</option></term>
        <listitem><para>Skips the checks.</para></listitem></varlistentry>
    </variablelist>
    <section xml:id="conf">
      <title>Configuring</title>
      <para>Settings are read from <filename>widget.toml</filename>.</para>
      <table><title>Settings</title><tgroup cols="2">
        <thead><row><entry>Name</entry><entry>Default</entry></row></thead>
        <tbody><row><entry>size</entry><entry><para>160</para></entry></row></tbody>
      </tgroup></table>
    </section>
    <para>Back in the chapter.</para>
  </chapter>
</book>
"""


def test_docbook_sections_paragraphs_code_lists_tables_and_entities(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    doc = parse(DOCBOOK.replace("{secret}", str(secret)), "guide.xml")
    assert doc.metadata["xml_vocabulary"] == "docbook"
    assert "TOP-SECRET-VALUE" not in doc.text  # an external entity is never read
    assert _heads(doc) == [(1, "The Widget Pro Guide"), (2, "Installing"), (3, "Configuring")]
    blocks = _blocks(doc)
    assert ("paragraph", "Install Widget Pro with pip—see Configuring. Then &undefined-here; "
                         "&secret;") in blocks
    assert blocks[blocks.index(("paragraph", "Or uv.")) - 1][1].startswith("Install")
    assert "check this" not in doc.text and "install\n" not in doc.text
    code = next(b for b in doc.blocks if b.kind == "code")
    assert doc.text[code.start:code.end] == 'pip install widget && echo "&nbsp; <done>"'
    assert code.metadata["language"] == "bash"
    assert ("paragraph", "Note: Needs Python 3.11.") in blocks
    assert ("list_item", "First item.") in blocks and ("list_item", "Second item.") in blocks
    assert ("paragraph", "Its second paragraph.") in blocks
    assert ("list_item", "--fast: Skips the checks.") in blocks
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["columns"] == ("Name", "Default")
    assert table.metadata["cells"] == (("size", "160"),)
    assert ("paragraph", "Settings") in blocks  # the table's title, before it
    back = next(b for b in doc.blocks if doc.text[b.start:b.end] == "Back in the chapter.")
    assert back.headings == ("The Widget Pro Guide", "Installing")  # the section ended
    assert "Someone" not in doc.text  # the info's author: metadata, not text
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)


JATS = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.1 20151215//EN" "JATS-archivearticle1.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:mml="http://www.w3.org/1998/Math/MathML">
<front>
  <journal-meta><journal-title-group><journal-title>eLife</journal-title></journal-title-group></journal-meta>
  <article-meta>
    <article-id pub-id-type="doi">10.7554/eLife.00001</article-id>
    <title-group><article-title>Plants <italic>talk</italic> to neighbours</article-title></title-group>
    <contrib-group><contrib><name><surname>Schuman</surname><given-names>Meredith C</given-names></name></contrib></contrib-group>
    <permissions><license><license-p>CC BY 4.0</license-p></license></permissions>
    <abstract><p>Plants emit volatiles.</p></abstract>
    <kwd-group><kwd>volatiles</kwd><kwd><italic>Nicotiana</italic></kwd></kwd-group>
  </article-meta>
</front>
<body>
  <sec id="s1"><label>1.</label><title>Introduction</title>
    <p>Darwin wrote about varieties (<xref ref-type="bibr" rid="b1">Darwin, 1876</xref>).<fn><p>A note.</p></fn></p>
    <sec><label>1.1</label><p>Numbered only.</p></sec>
    <sec><title>Background</title>
      <list list-type="order"><list-item><label>a.</label><p>Sow.</p></list-item></list>
      <p>Energy is <inline-formula><alternatives><tex-math>E=mc^2</tex-math><mml:math><mml:mi>E</mml:mi></mml:math></alternatives></inline-formula>.</p>
      <table-wrap id="t1"><label>Table 1.</label><caption><title>Yields.</title></caption>
        <table><thead><tr><th>Line</th><th>Yield</th></tr></thead>
        <tbody><tr><td>WT</td><td>1.0</td></tr></tbody></table>
      </table-wrap>
    </sec>
  </sec>
</body>
<back>
  <ack><title>Acknowledgements</title><p>We thank the gardeners.</p></ack>
  <ref-list><title>References</title>
    <ref id="b1"><element-citation><person-group><name><surname>Darwin</surname><given-names>C</given-names></name></person-group><year>1876</year><article-title>The Origin of Species</article-title></element-citation></ref>
  </ref-list>
</back>
</article>
"""


def test_a_jats_article_its_metadata_abstract_sections_and_references():
    doc = parse(JATS, "paper.nxml")
    meta = doc.metadata
    assert meta["xml_vocabulary"] == "jats"
    assert doc.title == "Plants talk to neighbours"
    assert meta["authors"] == ["Meredith C Schuman"] and meta["doi"] == "10.7554/eLife.00001"
    assert meta["journal"] == "eLife" and meta["keywords"] == ["volatiles", "Nicotiana"]
    assert _heads(doc) == [(0, "Plants talk to neighbours"), (1, "Abstract"),
                           (1, "1. Introduction"), (2, "1.1"), (2, "Background"),
                           (1, "Acknowledgements"), (1, "References")]
    blocks = _blocks(doc)
    assert ("paragraph", "Darwin wrote about varieties (Darwin, 1876).") in blocks
    assert ("paragraph", "A note.") in blocks
    assert ("paragraph", "Energy is E=mc^2.") in blocks
    assert ("list_item", "a. Sow.") in blocks  # an item's label before its text  # TeX, not MathML's letters too
    assert ("paragraph", "Table 1. Yields.") in blocks  # the label before its caption
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["columns"] == ("Line", "Yield")
    assert table.headings[-1] == "Background"
    assert ("list_item", "Darwin C 1876 The Origin of Species") in blocks
    assert "CC BY 4.0" not in doc.text  # the article's metadata is no running text
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


def test_a_dita_concept_and_a_tei_text():
    dita = """<?xml version="1.0"?>
<!DOCTYPE concept PUBLIC "-//OASIS//DTD DITA Concept//EN" "concept.dtd">
<concept id="c"><title>Keys</title><shortdesc>Keys name resources.</shortdesc>
<conbody><p>Define <term>keys</term> in a map.</p><section><title>Scopes</title><p>Scopes limit keys.</p>
<dl><dlentry><dt>keyref</dt><dd>Refers to a key.</dd></dlentry></dl></section></conbody></concept>"""
    doc = parse(dita, "keys.dita")
    assert doc.metadata["xml_vocabulary"] == "dita"
    assert _heads(doc) == [(1, "Keys"), (2, "Scopes")]
    assert ("list_item", "keyref: Refers to a key.") in _blocks(doc)
    assert ("paragraph", "Define keys in a map.") in _blocks(doc)  # DITA's term is inline
    tei = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt>
<title>Poems</title></titleStmt></fileDesc><profileDesc><abstract><p>Two poems.</p></abstract>
</profileDesc></teiHeader><text><body><div><head>First</head>
<lg><l>Line one,</l><l>line two.</l></lg><p>Prose<note>a note</note> here.</p>
<div><head>Inner</head><p>Deep.</p></div></div></body></text></TEI>"""
    doc = parse(tei, "poems.xml")
    assert doc.metadata["xml_vocabulary"] == "tei" and doc.title == "Poems"
    assert _heads(doc) == [(0, "Poems"), (1, "Abstract"), (1, "First"), (2, "Inner")]
    blocks = _blocks(doc)
    assert ("paragraph", "Line one,\nline two.") in blocks  # a verse's lines kept
    assert blocks.index(("paragraph", "Prose here.")) + 1 == blocks.index(("paragraph", "a note"))


GROBID = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title level="a" type="main">Calibrating sensors</title></titleStmt></fileDesc>
<profileDesc><abstract><div><p>We compare two strategies.</p></div></abstract></profileDesc></teiHeader>
<text xml:lang="en"><body>
<div><head n="1.">Introduction</head><p>Sensors drift <ref type="bibr" target="#b0">(Smith, 2020)</ref>.</p></div>
<div><head n="2.">Methods</head><p>We measured.</p></div>
<div><head n="2.1.">Calibration</head><p>Twice a day.</p>
<figure><head>Figure 1. Setup</head><figDesc>The rig.</figDesc></figure>
<formula xml:id="formula_0">E = mc 2 (1)</formula></div>
<div><head n="3.">Results</head><p>It works.</p></div>
</body><back><div type="acknowledgement"><div><head>Acknowledgements</head><p>Thanks.</p></div></div>
<div type="references"><listBibl><biblStruct xml:id="b0"><analytic><title level="a">On drift</title><author><persName><forename>J</forename><surname>Smith</surname></persName></author></analytic><monogr><title level="j">Sensors</title><imprint><date when="2020">2020</date></imprint></monogr></biblStruct></listBibl></div></back></text></TEI>
"""


def test_grobids_tei_for_a_pdf_its_numbered_sections_and_references():
    """GROBID turns a paper's PDF into TEI: its sections one flat list of divs whose
    heads are numbered (``n="2.1."``), a citation an inline ``<ref>``, the references
    a ``listBibl`` of structured entries."""
    doc = parse(GROBID, "paper.tei.xml")
    assert doc.metadata["xml_vocabulary"] == "tei" and doc.title == "Calibrating sensors"
    assert _heads(doc) == [(0, "Calibrating sensors"), (1, "Abstract"), (1, "1. Introduction"),
                           (1, "2. Methods"), (2, "2.1. Calibration"), (1, "3. Results"),
                           (1, "Acknowledgements"), (1, "References")]
    blocks = _blocks(doc)
    assert ("paragraph", "Sensors drift (Smith, 2020).") in blocks  # the citation inline
    calibration = next(b for b in doc.blocks if doc.text[b.start:b.end] == "Twice a day.")
    assert calibration.headings[-2:] == ("2. Methods", "2.1. Calibration")
    results = next(b for b in doc.blocks if doc.text[b.start:b.end] == "It works.")
    assert results.headings[-1] == "3. Results"
    assert ("list_item", "On drift J Smith Sensors 2020") in blocks
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


def test_postgresqls_sgml_sources_are_xml_and_real_sgml_stays_text():
    """PostgreSQL's documentation sources are ``.sgml`` files that are XML (a
    reference page per command); a LinuxDoc HOWTO is SGML with unclosed tags."""
    page = """<!-- PostgreSQL documentation -->
<refentry id="sql-abort">
 <refmeta><refentrytitle>ABORT</refentrytitle><manvolnum>7</manvolnum></refmeta>
 <refnamediv><refname>ABORT</refname><refpurpose>abort the current transaction</refpurpose></refnamediv>
 <refsynopsisdiv><synopsis>
ABORT [ WORK | TRANSACTION ] [ AND [ NO ] CHAIN ]
</synopsis></refsynopsisdiv>
 <refsect1><title>Description</title>
  <para><command>ABORT</command> rolls back the current transaction &mdash; see &cite;.</para>
 </refsect1>
</refentry>"""
    assert sniff_format(page.encode(), "abort.sgml") == "xml"
    doc = parse(page, "ref/abort.sgml")
    assert doc.metadata["xml_vocabulary"] == "docbook" and doc.title == "ABORT"
    assert _heads(doc) == [(1, "ABORT"), (2, "Synopsis"), (2, "Description")]
    assert _blocks(doc)[1:4] == [
        ("paragraph", "ABORT — abort the current transaction"), ("heading", "Synopsis"),
        ("code", "ABORT [ WORK | TRANSACTION ] [ AND [ NO ] CHAIN ]")]
    assert ("paragraph", "ABORT rolls back the current transaction — see &cite;.") in _blocks(doc)
    howto = "<!doctype linuxdoc system>\n<article>\n<title>Old HOWTO\n<sect>Intro<p>\nText.\n"
    doc = parse(howto, "old.sgml")
    assert doc.text == howto and "xml_vocabulary" not in doc.metadata


@pytest.mark.parametrize("text", [
    # a build file, a configuration, a feed: their element names are their meaning
    '<?xml version="1.0"?>\n<project><groupId>org.example</groupId>\n'
    '<artifactId>app</artifactId></project>\n',
    "<note><to>Tove</to><from>Jani</from><body>Don't forget me!</body></note>",
    # not well formed: read as it is, nothing lost
    '<book xmlns="http://docbook.org/ns/docbook"><title>T</title><para>open</book>',
    # 5,000 levels deep: beyond the parser's limit
    "<chapter><title>x</title>" + "<section>" * 5000 + "deep" + "</section>" * 5000
    + "</chapter>",
])
def test_other_xml_is_read_as_plain_text(text):
    doc = parse(text, "file.xml")
    assert "xml_vocabulary" not in doc.metadata
    assert doc.text == text
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


@pytest.mark.timeout(20)
def test_entities_that_grow_without_bound_are_no_hang():
    laughs = ('<?xml version="1.0"?><!DOCTYPE article [<!ENTITY a "lol">'
              + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
                        for p, c in zip("abcdefgh", "bcdefghi"))
              + ']><article><title>T</title><para>&i;</para></article>')
    doc = parse(laughs, "laughs.xml")
    assert len(doc.text) < 10_000_000  # libxml2 refuses the expansion: read as text
    many = "<chapter><title>t</title><para>" + "<![CDATA[x" * 20_000 + "</para></chapter>"
    parse(many, "many.xml")
    parse("<!--" * 20_000 + "<chapter/>", "comments.xml")
    # a paragraph of 50,000 elements and no text of its own: their texts a space apart
    # (the space was decided by joining everything before each one: 50,000 joins)
    wide = "<article><title>t</title><para>" + "<b>w</b>" * 50_000 + "</para></article>"
    doc = parse(wide, "wide.xml")
    assert doc.text.count("w w w") > 10_000


@pytest.mark.parametrize("text", [
    '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title>'
    "</head><body><h1>Intro</h1><p>Some text.</p></body></html>",
    "<!DOCTYPE html><html><body><h1>Intro</h1><p>Some text.<br></p></body></html>",  # not XML
])
def test_a_web_page_saved_as_xml_is_read_as_html(text):
    doc = parse(text, "page.xml")
    assert doc.metadata["format"] == "html"
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == ["Intro"]


@pytest.mark.parametrize("data", [
    "\ufeff<article xmlns='http://docbook.org/ns/docbook'><title>T</title><para>café</para>"
    "</article>".encode(),
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<article xmlns="http://docbook.org/ns/docbook">'
    "<title>T</title><para>café</para></article>".encode("latin-1"),
    '<?xml version="1.0" encoding="UTF-16"?><article xmlns="http://docbook.org/ns/docbook">'
    "<title>T</title><para>café</para></article>".encode("utf-16"),
])
def test_an_xml_files_encoding_is_the_one_it_declares(data):
    doc = parse(data, "doc.xml")
    assert doc.metadata["xml_vocabulary"] == "docbook"
    assert doc.text == "T\n\ncafé"


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)


@st.composite
def _docbook(draw, depth=0):
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["para", "code", "list", "section", "text", "table"]
                                    if depth < 3 else ["para", "code", "text"]))
        words = " ".join(draw(st.lists(_WORD, min_size=1, max_size=6)))
        if kind == "para":
            parts.append(f"<para>{words} <emphasis>{draw(_WORD)}</emphasis></para>")
        elif kind == "code":
            parts.append(f"<programlisting>{words}\n  {draw(_WORD)}</programlisting>")
        elif kind == "list":
            parts.append(f"<itemizedlist><listitem><para>{words}</para></listitem>"
                         f"<listitem>{draw(_WORD)}</listitem></itemizedlist>")
        elif kind == "table":
            parts.append(f"<informaltable><tgroup cols='1'><tbody><row><entry>{words}</entry>"
                         "</row></tbody></tgroup></informaltable>")
        elif kind == "text":
            parts.append(words)  # text straight in a section (an unexpanded entity's place)
        else:
            parts.append(f"<section><title>{words}</title>{draw(_docbook(depth + 1))}</section>")
    return "".join(parts)


@settings(max_examples=60, deadline=None)
@given(_docbook())
def test_every_word_of_a_docbook_document_is_read(body):
    """Nothing lost: every word the XML holds is in the text, in order of reading;
    the chunks keep the engine's invariants."""
    text = f'<article xmlns="http://docbook.org/ns/docbook"><title>Top</title>{body}</article>'
    doc = parse(text, "file.xml")
    assert doc.metadata["xml_vocabulary"] == "docbook"
    source = re.findall(r"[a-z]+", re.sub(r"<[^>]*>", " ", text))
    assert re.findall(r"[a-z]+", doc.text) == source
    assert_invariants(doc.text, chunkwise.chunk(doc), 254)


def test_a_folder_reads_xml_files_by_their_vocabulary(tmp_path):
    (tmp_path / "guide.dbk").write_text(DOCBOOK.replace("{secret}", "/nonexistent"))
    (tmp_path / "pom.xml").write_text("<project><version>1.0</version></project>\n")
    (tmp_path / "task.dita").write_text((DATA / "dita-ot-building-with-ant.dita").read_text())
    chunks = chunkwise.chunk(tmp_path)
    formats = {Path(c.doc_id).name: c.metadata.get("doc", {}).get("xml_vocabulary") for c in chunks}
    assert formats == {"guide.dbk": "docbook", "pom.xml": None, "task.dita": "dita"}
