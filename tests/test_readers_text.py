"""Structure: readers, section chunking with heading trails, tables kept whole."""

import dataclasses
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, block_starting, by_text


def test_plain_text_numbered_headings():
    text = ("Accident procedure\n\n3 Records\n\nGeneral text about records.\n\n"
            "3.2 Accident reports\n\nRetention: seven years.\n")
    chunks = chunkwise.chunk(text, strategy="section", size=64)
    c = by_text(chunks, "seven years")[0]
    assert c.headings == ("3 Records", "3.2 Accident reports")
    # a lone numbered line is ambiguous: no headings
    doc = parse("1 Introduction\n\nSome text.", "x", fmt="text")
    assert all(b.kind != "heading" for b in doc.blocks)


def test_a_numbered_item_that_stops_mid_phrase_is_no_heading():
    """Plain text numbers its sections and its list items alike. An item ending in
    ``; and`` or a comma (a control's statements, NIST SP 800-53's AC-1, a work of the
    US Government) was a numbered heading, each over the next item as its section;
    the PDF reader had told them apart since 2026-12-07, the plain-text one had not."""
    text = ("1 Access Control\n\nThe organization shall:\n\n"
            "1. Develop and document an access control policy that addresses purpose,\n\n"
            "2. Designate an official to manage the access control policy; and\n\n"
            "3. Review and update the current access control policy annually.\n\n"
            "2 Awareness and Training\n\nTraining is given to all system users.\n")
    doc = parse(text, "controls.txt", fmt="text")
    headings = [text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["1 Access Control", "2 Awareness and Training"]
    chunks = chunkwise.chunk(text, strategy="section", size=64, format="text", doc_id="controls")
    assert by_text(chunks, "annually")[0].headings == ("1 Access Control",)


def test_plain_text_book_chapters_are_headings_and_speech_is_not():
    """Issue 21: a plain-text book's parts and chapters, set off by two or more blank
    lines as Project Gutenberg sets them, are headings (the trail then names the story
    or chapter a passage is in); a letter's signature in capitals, a quoted line, a
    sentence after a numeral, or a lone chapter-like line are not."""
    book = ("TREASURE ISLAND\n\n\n\nPART ONE--The Old Buccaneer\n\n\n\n\nI\n"
            "The Old Sea-dog at the Admiral Benbow\n\n\nSquire Trelawney asked me to write.\n\n"
            "\u201cYou have till ten tonight.\u201d\n\n\n\n\u201c\u2018ROBERT ST. SIMON.\u2019\n\n"
            "\n\nII. THE RED-HEADED LEAGUE\n\n\nI.\n\nHe called one day.\n\n\n\n"
            "12. It was late.\n\n\n\nIII\nwhen we left\n\nEnd.\n")
    doc = parse(book, "b.txt", fmt="text")
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(2, "TREASURE ISLAND"), (1, "PART ONE--The Old Buccaneer"),
                     (2, "I The Old Sea-dog at the Admiral Benbow"),
                     (2, "II. THE RED-HEADED LEAGUE"), (3, "I.")]
    chunks = chunkwise.chunk(doc, strategy="section", size=64)
    assert by_text(chunks, "Squire Trelawney")[0].headings == (
        "PART ONE--The Old Buccaneer", "I The Old Sea-dog at the Admiral Benbow")
    assert by_text(chunks, "He called one day")[0].headings == (
        "PART ONE--The Old Buccaneer", "II. THE RED-HEADED LEAGUE", "I.")
    assert_invariants(doc.text, chunks, 64)
    # one blank line before it (a paragraph in running text), or a single candidate
    # in the whole text: no headings
    for text in ("It began.\n\nCHAPTER ONE\n\nIt went on.\n\nII\nThe Storm\n\nEnd.",
                 "It began.\n\n\n\nCHAPTER ONE\n\nIt went on."):
        assert all(b.kind != "heading" for b in parse(text, "x", fmt="text").blocks)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=0, max_size=3000),
       prefix=st.sampled_from([b"", b"%PDF-1.4\n", b"<html>", b'{"cells": [{"cell_type": "code", ',
                               b"\\begin{document}\\section{", b"\\begin{tabular}{ll}a & b \\\\"]),
       ext=st.sampled_from([".pdf", ".html", ".md", ".txt", ".ipynb", ".rst", ".md.gz", ".tex"]))
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


_LINES = st.sampled_from(["CHAPTER I", "II. THE STORM", "3.2 Accident reports", "3 Records",
                          "It was late.", "He said no.", "A longer sentence about the sea and a ship.",
                          "", "", "  ", "word " * 30])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINES, min_size=1, max_size=40),
       name=st.sampled_from(["fixed", "recursive", "sentence", "section"]),
       size=st.sampled_from([16, 48, 160]))
def test_a_strategy_that_reads_no_structure_is_not_given_it_and_cuts_the_same(lines, name, size):
    """Plain text is cut into paragraphs and headings only for a strategy that reads
    them (``reads_structure``): fixed, recursive and sentence get the text alone (the
    text reader's scan was a tenth of recursive's time on a 20 MB corpus) and cut it
    exactly as they cut the parsed document; section still gets its headings."""
    text = "\n".join(lines) + "\n\nCHAPTER II\n\n\n\nIII\n\nEnd."
    chunker = chunkwise.get_chunker(name, size=size)
    parsed = parse(text, "t.txt", fmt="text", doc_id="t")
    plain = parse(text, "t.txt", fmt="text", doc_id="t", structure=False)
    assert plain.text == parsed.text and plain.blocks == () and parsed.blocks
    given_str = chunker.chunk(text, doc_id="t")  # a str: no source, as the Document below
    with_blocks = chunker.chunk(dataclasses.replace(parsed, source=None))
    assert [c.to_dict() for c in given_str] == [c.to_dict() for c in with_blocks]
    assert chunker.reads_structure is (name == "section")
    if name == "section" and any(b.kind == "heading" for b in parsed.blocks):
        assert any(c.headings for c in given_str)  # the headings reached it


def test_a_packing_strategy_with_its_own_split_still_gets_the_blocks():
    """A plug-in that subclasses a packing strategy and cuts by itself may read the
    blocks: it is given them (only the built-in cut is known not to read them)."""
    from chunkwise.strategies.basic import RecursiveChunker

    seen: list[int] = []

    class ByParagraph(RecursiveChunker):
        def split(self, doc, index, span):
            seen.append(len(doc.blocks))
            return super().split(doc, index, span)

    chunks = ByParagraph(size=32).chunk("One para.\n\nTwo para.\n\nThree.", doc_id="t")
    assert chunks and seen == [3]


DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "plain-text"


def test_underlined_titles_are_headings_git_release_notes():
    """Git's release notes (``Git v2.39 Release Notes`` over ``=====``, sections over
    ``-----``) were read as paragraphs: no chunk said which release or section it came
    from, and 40 releases' notes look alike. Underlined titles are headings, each
    underline style a level in the order they appear."""
    text = (DATA / "git-2.39.0-relnotes.txt").read_text()
    doc = parse(text, "2.39.0.txt", fmt="text")
    headings = [(b.level, doc.text[b.start:b.end].splitlines()[0])
                for b in doc.blocks if b.kind == "heading"]
    assert headings == [(1, "Git v2.39 Release Notes"), (2, "UI, Workflows & Features"),
                        (2, "Performance, Internal Implementation, Development Support etc."),
                        (2, "Fixes since v2.38")]
    chunks = chunkwise.chunk(doc)
    assert_invariants(text, chunks, 254)
    grep = by_text(chunks, '"git grep" learned to expand the sparse-index')[0]
    assert grep.headings == ("Git v2.39 Release Notes", "UI, Workflows & Features")
    assert all(c.headings[0] == "Git v2.39 Release Notes" for c in chunks)


def test_restructuredtext_titles_labels_and_fields():
    """pip's documentation is reStructuredText: an overlined and underlined title,
    sections under ``*****``, ``=====`` and ``~~~~`` (levels by first appearance),
    ``.. _label:`` targets and ``:orphan:`` before a title (which open its section
    rather than end the one before), text right under a title's underline."""
    text = (DATA / "pip-cli-pip.rst").read_text()
    doc = parse(text, "pip.rst", fmt="text")
    trail = {b.headings for b in doc.blocks if b.kind == "heading"}
    assert ("pip", "Description", "Logging", "Console logging") in trail
    assert ("pip", "General Options") in trail
    chunks = chunkwise.chunk(doc)
    assert_invariants(text, chunks, 254)
    for c in chunks:  # a label is never the end of a chunk: it opens the next title's
        assert not c.text.rstrip().endswith(":`:"), c.text[-40:]
    ux = (DATA / "pip-ux_research_design.rst").read_text()
    trails = {c.headings for c in chunkwise.chunk({"ux.rst": ux})}
    assert ("UX Research & Design", "How to contribute", "Report UX issues") in trails
    one = (":orphan:\n\n:tocdepth: 2\n\n=========\nCopyright\n=========\n\n"
           "pip and this documentation is:\n")
    doc = parse(one, "copyright.rst", fmt="text")
    assert [c.headings for c in chunkwise.chunk(doc)] == [("Copyright",)]
    moved = "Title\n=====\nText right under it, no blank line.\n\nMore\n----\nBody.\n"
    doc = parse(moved, "m.txt", fmt="text")
    assert [(b.kind, moved[b.start:b.end]) for b in doc.blocks] == [
        ("heading", "Title\n====="), ("paragraph", "Text right under it, no blank line."),
        ("heading", "More\n----"), ("paragraph", "Body.")]


def test_a_rule_under_a_line_is_not_always_a_title():
    """A lone underlined line inside a text (a signature over dashes, a total over a
    rule), a transition (a rule alone), a rule far longer or shorter than the line
    above: no headings."""
    for text in ("Dear Ann,\n\nThe parcel arrived.\n\nBest,\nBob\n---\n\nP.S. Thanks.\n",
                 "Items\n\nApples 3\nPears 4\n\n----------\n\nSome text after a transition.\n",
                 "A sentence that is much longer than the rule under it\n---\n\nMore text.\n\n"
                 "Another long sentence that is much longer than its rule\n===\n\nEnd.\n"):
        doc = parse(text, "t.txt", fmt="text")
        assert all(b.kind != "heading" for b in doc.blocks), text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from("=-~*^"), st.booleans(),
                          st.from_regex(r"[A-Z][a-z]{2,9}( [a-z]{2,8}){0,3}", fullmatch=True),
                          st.lists(st.from_regex(r"[A-Z][a-z]{1,8}( [a-z]{1,8}){3,12}\.",
                                                 fullmatch=True), max_size=3)),
                min_size=2, max_size=8))
def test_underlined_titles_property(sections):
    """Generated documents of underlined (some also overlined) titles over
    paragraphs: every title is a heading, its level the rank of its style's first
    appearance, every paragraph is one, and chunks keep the invariants."""
    parts, styles, expected = [], [], []
    for char, over, title, paras in sections:
        rule = char * (len(title) + 2)
        parts.append((f"{rule}\n" if over else "") + f"{title}\n{rule}")
        if (char, over) not in styles:
            styles.append((char, over))
        expected.append((styles.index((char, over)) + 1, title))
        parts.extend(paras)
    text = "\n\n".join(parts) + "\n"
    doc = parse(text, "doc.rst", fmt="text")
    found = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert found == expected
    assert sum(b.kind == "paragraph" for b in doc.blocks) == sum(len(s[3]) for s in sections)
    chunks = chunkwise.chunk(doc, strategy="section", size=64)
    assert_invariants(text, chunks, 64)


def test_short_and_centred_underlined_titles():
    """jq's README opens ``jq`` over ``==``; LLVM's Debian README centres its title
    with tabs, its rule too. Both are titles; a two-character rule under a longer
    line is not."""
    for text, title in (("jq\n==\n\njq is a lightweight JSON processor.\n", "jq"),
                        ("\t\tThe Debian LLVM Setup\n\t\t=====================\n\nAbstract\n"
                         "--------\n\nDebian uses a default version.\n", "The Debian LLVM Setup")):
        doc = parse(text, "README", fmt="text")
        assert doc.blocks[0].kind == "heading" and doc.blocks[-1].headings[0] == title
    doc = parse("Notes on it\n==\n\nText.\n\nMore notes\n--\n\nEnd.\n", "t", fmt="text")
    assert all(b.kind != "heading" for b in doc.blocks)


def test_restructuredtext_files_are_never_sniffed_as_markdown():
    """Flask's docs (`.rst`) were read as Markdown when given as files: titles over
    ``===`` look like setext headings and two backtick underlines like a code fence,
    so ``URL Building`` was cut from its underline (a 16-token chunk ``.. _url-building:
    URL Building``, the next chunk opening with the underline) and its level-3 titles
    were in no trail; each page's ``.. currentmodule:: flask`` was a chunk alone."""
    path = DATA / "flask-quickstart.rst"
    from chunkwise.readers import read_path, sniff_format

    assert sniff_format(path.read_bytes(), path.name) == "text"
    doc = read_path(path)
    heads = {b.headings for b in doc.blocks if b.kind == "heading"}
    assert ("Quickstart", "Routing", "URL Building") in heads
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(path)
    assert_invariants(text, chunks, 254)
    building = by_text(chunks, "To build a URL to a specific function")[0]
    assert building.headings == ("Quickstart", "Routing", "URL Building")
    assert building.text.startswith(".. _url-building:\n\nURL Building\n````````````")
    cli = chunkwise.chunk({"cli.rst": ".. currentmodule:: flask\n\nCommand Line Interface\n"
                                      "======================\n\nInstalling Flask installs the script.\n\n"
                                      "Application Discovery\n---------------------\n\n"
                                      "The command is installed by Flask, not your application.\n"})
    assert cli[0].text.startswith(".. currentmodule:: flask\n\nCommand Line Interface")
    from chunkwise.readers.structure import markup_only

    assert not [c.text for c in chunks if markup_only(c.text)]


def test_restructuredtext_literal_blocks_are_code():
    """A paragraph ending in ``::`` or a ``.. code-block:: python`` directive opens a
    literal block: the lines indented under it, blank lines and all, are one code
    block (Flask's docs: each example was as many paragraphs as it had blank lines);
    ``.. warning::`` ends in ``::`` too, and its text is prose."""
    path = DATA / "flask-quickstart.rst"
    from chunkwise.readers import read_path

    doc = read_path(path)
    text = doc.text
    code = [b for b in doc.blocks if b.kind == "code"]
    first = code[0]
    assert first.metadata["language"] == "python"
    # the directive opens the block, as a fence line does in Markdown
    assert text[first.start:first.end].startswith(
        ".. code-block:: python\n\n    from flask import Flask\n\n    app = Flask(__name__)")
    assert not [b for b in doc.blocks if b.kind == "paragraph"
                and text[b.start:b.end].startswith(".. code-block::")]
    assert text[first.start:first.end].endswith('return "<p>Hello, World!</p>"')
    host = next(b for b in code if "flask run --host=0.0.0.0" in text[b.start:b.end])
    assert host.metadata["language"] == "" and text[host.start:host.end] == "$ flask run --host=0.0.0.0"
    warning = next(b for b in doc.blocks if text[b.start:b.end].startswith("The debugger allows"))
    assert warning.kind == "paragraph"
    chunks = chunkwise.chunk(path)
    assert_invariants(text, chunks, 254)
    minimal = by_text(chunks, "app = Flask(__name__)")[0]
    assert "from flask import Flask" in minimal.text and "Hello, World!" in minimal.text
    # CMake's docs: a directive with options (":caption:"), indented inside an example;
    # the directive and its caption were a chunk of 24 tokens before the long code
    rst = ("return\n------\n\nReturn from a file, directory or function.\n\n  For example:\n\n"
           "  .. code-block:: cmake\n    :caption: CMakeLists.txt\n\n    project(example)\n\n"
           "    set(var1 \"top-value\")\n\n  .. code-block:: cmake\n    :caption: subDir/CMakeLists.txt\n\n"
           + "".join(f"    set(var{i} \"value {i} of the nested scope\")\n" for i in range(40)))
    doc = parse(rst, "return.rst")
    codes = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "code"]
    assert len(codes) == 2 and codes[1].startswith(".. code-block:: cmake\n    :caption: subDir/")
    assert codes[1].rstrip().endswith('set(var39 "value 39 of the nested scope")')
    chunks = chunkwise.chunk(rst, format="text", doc_id="return.rst")
    assert not [c for c in chunks if c.text.strip().startswith(".. code-block::")
                and "set(" not in c.text]
    # plain text without underlined titles is left as it was
    plain = "Run this::\n\n    make install\n\nThen go on.\n"
    assert [b.kind for b in parse(plain, "notes.txt", fmt="text").blocks] == ["paragraph"] * 3


def test_an_indented_restructuredtext_title_is_no_heading():
    """docutils makes no section of a title in a literal block, a directive's body or
    a quote (all indented): PEP 12's sample titles (``First-Level Title`` in an
    example after ``::``) were headings, their styles levels, and every later section
    sat under them (``Abstract > Lists``); so too a docstring over its closing quotes
    (PEP 8), a line over ``...``, and Sphinx's changelog's example of a title in a
    ``.. code:: rst`` block. A plain-text file's centred title is still a title."""
    path = DATA / "pep-0012.rst"
    doc = read_path(path)
    text = doc.text
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert heads and all(text[b.start - 1] == "\n" for b in heads if b.start)
    titles = [b.headings[-1] for b in heads]
    assert "First-Level Title" not in titles and "Fifth-Level Title" not in titles
    assert titles.count("Abstract") == 1
    lists = next(b for b in heads if b.headings[-1] == "Lists")
    assert lists.headings == ("ReStructuredText PEP Formatting Requirements", "Lists")
    chunks = chunkwise.chunk(path)
    assert_invariants(text, chunks, 254)
    assert not [c for c in chunks if "Level Title" in c.context]
    sample = by_text(chunks, "Third-Level Title")[0]
    assert sample.context.startswith("ReStructuredText PEP Formatting Requirements > Section Headings")
    rst = ("Guide\n=====\n\nA module::\n\n   \"\"\"This module does stuff.\n   \"\"\"\n\n"
           "   for line in file:\n       ...\n\n* An entry.\n\n  .. code:: rst\n\n"
           "     :mod:`lobster` -- The lobster module\n     ====================================\n\n"
           "Usage\n-----\n\nRun it.\n")
    doc = parse(rst, "guide.rst")
    assert [b.headings for b in doc.blocks if b.kind == "heading"] == [("Guide",), ("Guide", "Usage")]
    centred = "        Read Me\n        =======\n\nSome text.\n\n        Usage\n        =====\n\nMore.\n"
    assert [b.headings[-1] for b in parse(centred, "notes.txt", fmt="text").blocks
            if b.kind == "heading"] == ["Read Me", "Usage"]


def test_roles_in_restructuredtext_titles_read_as_sphinx_shows_them():
    """A title's roles are their text in every trail (40 of the 16,735 titles of the
    PEPs, Sphinx's, Flask's and PyPA's docs carried ``:c:func:`` and the like):
    ``:mod:`!string.templatelib``` -> ``string.templatelib``, ``~`` keeps the last
    name, ``:ref:`text <label>``` its text; literals stay as written, and a plain-text
    file's titles are left alone."""
    rst = ("The :mod:`!string.templatelib` Module\n=====================================\n\nText.\n\n"
           "Drop :c:member:`~PyLongExport.value` field\n-----------------------------------------\n\n"
           "Text.\n\nSee :ref:`the guide <guide>` and ``code``\n-----------------------------------------"
           "\n\nText.\n")
    heads = [b.headings for b in parse(rst, "pep.rst").blocks if b.kind == "heading"]
    assert heads == [("The string.templatelib Module",),
                     ("The string.templatelib Module", "Drop value field"),
                     ("The string.templatelib Module", "See the guide and ``code``")]
    plain = [b.headings for b in parse(rst, "notes.txt", fmt="text").blocks if b.kind == "heading"]
    assert plain[0] == ("The :mod:`!string.templatelib` Module",)


def test_a_restructuredtext_comment_above_a_title_goes_with_it():
    """CMake's manuals open with ``.. cmake-manual-description: CMake Buildsystem
    Reference``, a comment (no ``::``), then the title: the comment was a chunk of its
    own without a trail (13 of CMake's manuals). A one-line comment is markup now, as a
    label (``.. _x:``) is; a directive (``.. note::``) or a footnote stays text."""
    from chunkwise.readers.structure import markup_only

    rst = (".. cmake-manual-description: CMake Buildsystem Reference\n\ncmake-buildsystem(7)\n"
           "********************\n\nIntroduction\n============\n\nA CMake-based buildsystem is "
           "organized as a set of high-level logical targets.\n\nBinary Targets\n--------------"
           "\n\nExecutables and libraries are defined using the add_executable() command.\n")
    chunks = chunkwise.chunk(rst, format="text", doc_id="cmake-buildsystem.7.rst", size=96)
    assert_invariants(rst, chunks, 96)
    assert not [c for c in chunks if c.text.strip().startswith(".. cmake-manual")
                and "cmake-buildsystem(7)" not in c.text]
    assert markup_only(".. cmake-manual-description: CMake Buildsystem Reference")
    assert not markup_only(".. note::") and not markup_only(".. [1] A footnote.")
    # a substitution's definition sets something up and shows nowhere itself
    assert markup_only(".. |name| replace:: CMake")


def test_a_lone_restructuredtext_title_after_labels_and_substitutions_is_a_title():
    """pyasn1's documentation gives each type a page of one title under a label and
    substitutions (``.. _char.BMPString:``, ``.. |ASN.1| replace:: BMPString``, then
    ``|ASN.1| type`` over ``----``): one title that did not open the text was no
    title, and 30 pages' chunks had no trail (so too ``index.rst`` under
    sphinx-quickstart's comment of three lines). The markup above it is skipped;
    the substitution is made in the trail."""
    rst = ("\n.. _char.BMPString:\n\n.. |ASN.1| replace:: BMPString\n\n.. |encoding| replace:: "
           "utf-16-be\n\n|ASN.1| type\n------------\n\n.. autoclass:: pyasn1.type.char.BMPString\n"
           "   :members: isValue, clone\n\n   .. note::\n\n       The |ASN.1| type models a Unicode "
           "character string serialised into UTF-16 big endian.\n")
    chunks = chunkwise.chunk(rst, format="text", doc_id="bmpstring.rst", size=96)
    assert_invariants(rst, chunks, 96)
    assert [c.headings for c in chunks] == [("BMPString type",)] * len(chunks)
    index = (".. Python-RSA documentation master file, created by\n   sphinx-quickstart on Sat Jul "
             "30 23:11:07 2011.\n   You can adapt this file completely to your liking.\n\n"
             "Welcome to Python-RSA's documentation!\n======================================\n\n"
             "Python-RSA is a pure-Python RSA implementation. " * 1 + "It supports encryption "
             "and decryption, signing and verifying signatures.\n")
    chunks = chunkwise.chunk(index, format="text", doc_id="index.rst", size=96)
    assert_invariants(index, chunks, 96)
    assert chunks[0].text.startswith(".. Python-RSA") and \
        chunks[0].headings == ("Welcome to Python-RSA's documentation!",)


def test_a_restructuredtext_underline_longer_than_twice_its_title_still_underlines_it():
    """docutils takes any underline at least as long as its title: Python-RSA's
    ``Commandline interface`` over 50 ``=`` was no title (a page without a trail). In a
    plain ``.txt`` a short line over a long rule stays text (a total over a separator)."""
    rst = ("Commandline interface\n" + "=" * 50 + "\n\nA lot of the Python-RSA functionality is "
           "also available as commandline scripts.\n")
    chunks = chunkwise.chunk(rst, format="text", doc_id="cli.rst", size=96)
    assert chunks[0].headings == ("Commandline interface",)
    for name in ("cli.rst.gz", "CLI.REST"):
        assert chunkwise.chunk(rst, format="text", doc_id=name)[0].headings == \
            ("Commandline interface",)
    assert chunkwise.chunk(rst, format="text", doc_id="cli.txt", size=96)[0].headings == ()


def test_lines_of_bold_alone_title_a_text_without_headings():
    """The AWS CLI's examples (``awscli/examples/ec2/*.rst``, 630 files as pip installs
    them) title each example with a line of bold, ``**To create a snapshot**``, and
    have no underlined titles: no chunk had a trail (2,033 chunks, all without
    context). Two such lines or more, or one opening the text, are titles now; one
    inside running text is not."""
    rst = ("**Example 1: To create a snapshot**\n\nThe following ``create-snapshot`` example "
           "creates a snapshot of the specified volume. ::\n\n    aws ec2 create-snapshot "
           "--volume-id vol-1234567890abcdef0\n\n**Example 2: To create a snapshot with tags**"
           "\n\nThe following example creates a snapshot and applies two tags. ::\n\n    aws ec2 "
           "create-snapshot --volume-id vol-1234567890abcdef0 --tag-specifications x\n")
    doc = parse(rst, "create-snapshot.rst")
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert [doc.text[b.start:b.end] for b in heads] == [
        "**Example 1: To create a snapshot**", "**Example 2: To create a snapshot with tags**"]
    chunks = chunkwise.chunk(rst, format="text", doc_id="create-snapshot.rst", size=48)
    assert_invariants(rst, chunks, 48)
    tagged = by_text(chunks, "applies two tags")[0]
    assert tagged.context.startswith("Example 2: To create a snapshot with tags")
    one = "**To copy an image**\n\nThis example copies the image to the current region.\n"
    assert [b.kind for b in parse(one, "copy-image.rst").blocks] == ["heading", "paragraph"]
    inside = "Some words first.\n\n**Note the bold**\n\nMore words after it.\n"
    assert "heading" not in [b.kind for b in parse(inside, "notes.txt", fmt="text").blocks]


def test_a_lone_top_level_restructuredtext_title_is_the_document_title():
    """pip's pages under development/ open with a ``.. note::`` above their one
    top-level title: the note was a chunk with no context. Such a title is the
    document's (as docutils makes it), so text above it has it as its trail; where two
    titles share the top level (a NEWS file's versions) there is none."""
    rst = (".. note::\n\n    This section of the documentation is currently out of date.\n\n"
           "Continuous Integration\n======================\n\nSupported interpreters\n"
           "----------------------\n\npip support a variety of Python interpreters.\n")
    doc = chunkwise.readers.parse(rst, "ci.rst", None)
    assert doc.title == "Continuous Integration"
    chunks = chunkwise.chunk(rst, format="text", doc_id="ci.rst", size=24, strategy="section")
    assert_invariants(rst, chunks, 24)
    assert chunks[0].text.startswith(".. note::") and \
        chunks[0].context.startswith("Continuous Integration")
    news = "Version 2\n=========\n\nFixed a bug.\n\nVersion 1\n=========\n\nFirst release.\n"
    assert chunkwise.readers.parse(news, "NEWS.rst", None).title is None


def test_a_title_centred_on_the_first_line_heads_the_document():
    """Plain-text files of /usr/share/doc open with their title centred on the first
    line, then headings of their own: GIFLIB's NEWS (three tabs, ``GIFLIB NEWS``, then
    versions underlined), lsof's quick start (``1.  Introduction`` underlined),
    OpenJDK's JAVA_HOME (numbered headings). The title was a chunk of two to five
    tokens without context; it is the document's title and heads every trail."""
    news = ("\t\t\tGIFLIB NEWS\n\n\nVersion 5.2.1\n==============\n\nA release made while in "
            "surgical recovery.\n\n* In gifbuild.c, avoid a core dump on no color map.\n\n"
            "Version 5.2.0\n=============\n\nThe deprecated GifQuantizeBuffer() entry point "
            "is gone.\n")
    numbered = ("                             JAVA_HOME\n\n1. Legacy use of JAVA_HOME\n\n   "
                "There should be no need for JAVA_HOME any more.\n\n2. Selecting OpenJDK as "
                "the default\n\n   Please see README.alternatives.\n")
    for text, title, first in ((news, "GIFLIB NEWS", "Version 5.2.1"),
                               (numbered, "JAVA_HOME", "1. Legacy use of JAVA_HOME")):
        doc = parse(text, "NEWS", None)
        assert doc.title == title
        chunks = chunkwise.chunk(doc, strategy="section", size=32)
        assert_invariants(text, chunks, 32)
        assert chunks[0].text.lstrip().startswith(title)  # with what follows it, not alone
        assert all(c.headings[0] == title for c in chunks)
        assert chunks[0].headings[1] == first
    # a first line that is a sentence, or not centred, is no title
    for opening in ("\t\t\tThis file lists what changed.\n\n", "GIFLIB NEWS\n\n"):
        assert parse(opening + news.split("\n\n\n", 1)[1], "NEWS", None).title != "GIFLIB NEWS"


def test_a_debian_changelogs_entries_are_its_sections():
    """Some 800 ``changelog.Debian.gz`` files under /usr/share/doc were read as prose:
    chunks without a trail, an entry's text under the one before's signature (``--
    Laszlo Boszormenyi ...``), so that no chunk said which version it was about.
    Each entry's first line is a heading, up to its distribution."""
    path = DATA / "expat-changelog.Debian"
    text = path.read_text()
    doc = read_path(path)
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert [b.headings[-1] for b in heads][:2] == ["expat (2.5.0-1+deb12u1) bookworm-security",
                                                  "expat (2.5.0-1) unstable"]
    assert len(heads) == text.count("\nexpat (") + 1
    chunks = chunkwise.chunk(path)
    assert_invariants(text, chunks, 224)
    for c in chunks:
        assert c.headings and c.headings[-1].startswith("expat (")
        assert c.text.startswith("expat (")  # an entry, not the tail of the one before
    fix = next(c for c in chunks if "CVE-2022-43680" in c.text)
    assert fix.context.startswith("expat (2.5.0-1) unstable")
    # one such line is no changelog
    assert not [b for b in parse("expat (2.5.0-1) unstable; urgency=high\n\nText.\n",
                                 "notes.txt", None).blocks if b.kind == "heading"]


def test_a_title_over_a_short_rule_alone_is_a_title():
    """dbus's README (installed without an extension, so read as plain text) rules its
    titles short, as Markdown allows: ``Introduction`` over ``===``. A rule under half
    its title's length was not one, and the README was prose without trails. A title
    and a rule of three characters or more that are the whole paragraph are a title;
    within a paragraph a short rule still is not."""
    readme = ("Sections in this file describe:\n - introduction and overview\n\n"
              "Introduction\n===\n\nD-Bus is a simple system for interprocess communication.\n\n"
              "Security\n===\n\nReport a vulnerability privately to the list.\n\n"
              "Version numbers\n===\n\nD-Bus uses the common Linux kernel versioning scheme.\n")
    doc = parse(readme, "README", None)
    assert [h.headings[-1] for h in doc.blocks if h.kind == "heading"] == \
        ["Introduction", "Security", "Version numbers"]
    chunks = chunkwise.chunk(doc, size=32)
    assert next(c for c in chunks if "vulnerability" in c.text).headings == ("Security",)
    inside = "Totals for the year\n===\nwere better than the year before, said the report.\n\n"
    assert not [b for b in parse(inside * 3, "notes.txt", None).blocks if b.kind == "heading"]


def test_titles_between_rules_of_two_characters_are_titles():
    """coreutils' README sets each title between ``*****`` and ``-----``, the rules
    shorter than some titles; docutils would refuse two characters, so only plain
    text reads them so, where both rules are half the title or more."""
    readme = ("Intro text of the file, before its titles.\n\n\n"
              "*********************\nPre-C99 build failure\n---------------------\n\n"
              "You need a C99 compiler to build it.\n\n\n"
              "************************\nOSF/1 4.0d and AIX build failures\n"
              "------------------------\n\nUse GNU make on these systems.\n")
    doc = parse(readme, "README", None)
    assert [b.headings[-1] for b in doc.blocks if b.kind == "heading"] == \
        ["Pre-C99 build failure", "OSF/1 4.0d and AIX build failures"]
    assert not [b for b in parse(readme, "README.rst", None).blocks if b.kind == "heading"]
    # rules far shorter than the title are none
    short = readme.replace("************************\n", "****\n").replace(
        "------------------------\n", "----\n")
    assert [b.headings[-1] for b in parse(short, "README", None).blocks
            if b.kind == "heading"] == ["Pre-C99 build failure"]


def test_a_grid_table_is_a_table_its_header_the_context_of_every_later_part():
    """PEP 452's grid table of hash names (``+-----+``, ``+=====+`` under the header)
    was read as a paragraph: cut a row at a time, no part saying what its columns
    are. It is a table: the header's cells are its columns, a row (a cell spanning
    rows too) its lines from the separator above it, and every part after the first
    has the header in its context."""
    text = (DATA / "pep-0452.rst").read_text()
    doc = parse(text, "pep-0452.rst", fmt="text")
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 1
    meta = tables[0].metadata
    assert meta["columns"] == ("algorithm", "variant", "recommended name")
    assert meta["cells"][0] == ("MD5", "", "md5")
    assert meta["cells"][3] == ("SHA-2", "SHA-224", "sha224")
    assert meta["cells"][4] == ("", "SHA-256", "sha256")
    assert len(meta["rows"]) == 12
    assert text[tables[0].start:tables[0].end].startswith("+------------+")
    assert meta["rows"][-1][1] == tables[0].end  # the bottom border with the last row
    chunks = chunkwise.chunk(doc)
    parts = [c for c in chunks if c.metadata.get("table_part")]
    assert len(parts) > 1
    for c in parts[1:]:
        assert c.context.endswith("algorithm | variant | recommended name\n"), c.context
    for s, e in meta["rows"]:  # no row is cut
        assert any(c.start <= s and e <= c.end for c in chunks), text[s:e]
    assert not [c for c in chunks if not any(ch.isalnum() for ch in c.text)]


def test_simple_tables_are_tables_blank_lines_between_their_rows_too():
    """PEP 291's table of what to avoid by version parts its rows by blank lines (as
    docutils allows): it was six paragraphs, read as prose. A simple table is a table
    whatever blank lines part its rows, to the first border after its top that ends
    a paragraph; a row's lines under a blank first column are the row's."""
    text = (DATA / "pep-0291.rst").read_text()
    doc = parse(text, "pep-0291.rst", fmt="text")
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [t.metadata["columns"] for t in tables] == [
        ("Version", "Features to Avoid"),
        ("Package/Module", "Maintainer(s)", "Python Version", "Notes"),
        ("Tool", "Maintainer(s)", "Python Version")]
    versions = tables[0].metadata["cells"]
    assert [row[0] for row in versions] == ["1.5.2", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5"]
    assert versions[-1][1].startswith("with statement without from __future__ import, io module")
    packages = dict((row[0], row[1]) for row in tables[1].metadata["cells"])
    assert packages["bsddb"] == "- Greg Smith - Barry Warsaw"
    assert len(packages) == 14
    chunks = chunkwise.chunk(doc)
    assert_invariants(text, chunks, 254)
    later = [c for c in chunks if c.metadata.get("table_part", 1) > 1]
    assert later and all("Version | Features to Avoid\n" in c.context
                         or "Package/Module | Maintainer(s)" in c.context for c in later)


def test_what_only_looks_like_a_table_stays_text():
    """A paragraph opening with ``+`` or a row of ``=`` runs that is no whole table
    (a vote, a box drawn beside words, a border never closed, a diff) is a paragraph."""
    for para in ("+1 for this proposal, from the list.",
                 "+-----+\n| box |  --> the next step\n+-----+",
                 "+-----+-----+\n| a   | b   |",
                 "+--- a/setup.py\n+++ b/setup.py\n+import os",
                 "=====  =====\nonly a top border and a row",
                 "=====  =====\n\nwords after a lone border\n\nand more words"):
        for name in ("notes.rst", "notes.txt"):
            doc = parse(f"Title\n=====\n\n{para}\n\nAfter it.\n", name, fmt="text")
            assert not [b for b in doc.blocks if b.kind == "table"], para
            assert doc.text.count("After it.") == 1


def test_a_grid_table_in_markdown_is_a_table():
    """Pandoc's grid tables (and a MySQL client's output pasted into a README) are
    paragraphs to CommonMark; Markdown's reader reads them as reStructuredText's."""
    table = ("+-------+----------------+\n| Name  | Meaning        |\n+=======+================+\n"
             "| qmark | Question mark  |\n+-------+----------------+\n| named | Named style    |\n"
             "|       | ``:name``      |\n+-------+----------------+")
    doc = parse(f"# Styles\n\nThe styles:\n\n{table}\n\nAfter it.\n", "styles.md", fmt="markdown")
    (found,) = [b for b in doc.blocks if b.kind == "table"]
    assert found.metadata["columns"] == ("Name", "Meaning")
    assert found.metadata["cells"] == (("qmark", "Question mark"), ("named", "Named style ``:name``"))
    assert doc.text[found.start:found.end] == table


def test_a_wide_grid_tables_header_is_a_part_alone_and_no_row_is_cut():
    """PyPA's comparison of pip and easy_install draws a table 103 characters wide: a
    border is 103 tokens, so its header (with the line introducing it) and first row
    do not fit one chunk, and the first row was cut at a cell after the header. The
    header holds a quarter of the limit: it is a part of its own, and every row lies
    whole in one chunk, the header's cells in the context of each part after it."""
    path = DATA / "pypa-pip-vs-easy-install.rst"
    text = path.read_text()
    doc = read_path(path)
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.metadata["columns"] == ("", "**pip**", "**easy_install**")
    chunks = chunkwise.chunk(doc)
    parts = [c for c in chunks if c.metadata.get("table_part")]
    header_end = table.metadata["header"][1]
    assert parts[0].end == header_end and parts[0].start < table.start  # with its lead
    for s, e in table.metadata["rows"]:
        assert any(c.start <= s and e <= c.end for c in chunks), text[s:e]
    assert all(c.context.endswith("| **pip** | **easy_install**\n") for c in parts[1:])


def test_a_grid_tables_header_over_two_rows_of_cells_names_its_columns_without_borders():
    """PEP 393 heads its table with a cell over two (``Python 3.2`` over ``16-bit`` and
    ``32-bit``), a border inside the header under it: the header is the rows to the
    first whole border, its borders left out of the columns (they were the context of
    every part), and each row is cut at the separator above it."""
    table = ("+------+-------------------+\n"
             "|size  | Python 3.2        |\n"
             "|      +---------+---------+\n"
             "|      | 32-bit  | 64-bit  |\n"
             "+------+---------+---------+\n"
             "|1     | 32      | 64      |\n"
             "+------+---------+---------+\n"
             "|2     | 40      | 64      |\n"
             "+------+---------+---------+")
    doc = parse(f"Sizes\n=====\n\n{table}\n", "pep.rst", fmt="text")
    (found,) = [b for b in doc.blocks if b.kind == "table"]
    assert found.metadata["columns"] == ("size", "Python 3.2 32-bit", "Python 3.2 64-bit")
    assert found.metadata["cells"] == (("1", "32", "64"), ("2", "40", "64"))
    assert doc.text[slice(*found.metadata["header"])].endswith("| 32-bit  | 64-bit  |")


def test_a_table_in_an_faq_answer_keeps_its_header_in_every_later_part():
    """PyPA's "Is setup.py deprecated?" is an FAQ whose answer to "What commands
    should be used instead?" is a grid table: cut a row a piece, each piece had the
    question in its context but nothing naming ``Deprecated | Recommendation``; the
    rows are now cut as ``section`` cuts a table, the header after the question."""
    path = DATA / "pypa-setup-py-deprecated.rst"
    chunks = chunkwise.chunk(path)
    assert {c.metadata.get("strategy") for c in chunks} == {"faq"}
    assert_invariants(read_path(path).text, chunks, 254)
    rows = [c for c in chunks if "python setup.py" in c.text and c.text.lstrip().startswith(("+", "|"))]
    assert len(rows) >= 3
    for c in rows:
        assert c.context.endswith("Q: What commands should be used instead?\nDeprecated | Recommendation\n")
        assert c.text == c.text.strip() and c.kind == "qa"
    install = by_text(chunks, "python -m pip install --editable .")[0]
    assert "Deprecated | Recommendation" in install.context


def test_list_and_csv_table_directives_are_tables():
    """Sphinx's own docs and the PEPs write most tables as directives (85 list tables
    and 9 CSV tables in the four corpora read): a ``.. list-table::`` (rows the outer
    items, cells the inner, blank lines between rows, ``:header-rows:``) and a
    ``.. csv-table::`` (a record a row, a quoted value over two lines one cell, the
    ``:header:`` option the header) are tables; one naming its ``:file:`` stays text."""
    rows = "".join(f"   * - ``sphinx.util.old{i}``\n     - 9.0\n     - 11.0\n     - Use the new "
                   f"helper number {i} instead of it, which does the same.\n\n" for i in range(30))
    text = ("Deprecated APIs\n===============\n\nThe following is a list of deprecated interfaces.\n\n"
            ".. list-table:: deprecated APIs\n   :header-rows: 1\n   :widths: 40, 10, 10, 40\n\n"
            "   * - Target\n     - Deprecated\n     - Removed\n     - Alternatives\n\n" + rows
            + "After the table.\n")
    doc = parse(text, "deprecated.rst", fmt="text")
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    meta = table.metadata
    assert meta["columns"] == ("Target", "Deprecated", "Removed", "Alternatives")
    assert len(meta["cells"]) == 30
    assert meta["cells"][7] == ("``sphinx.util.old7``", "9.0", "11.0",
                                "Use the new helper number 7 instead of it, which does the same.")
    assert text[table.start:table.end].startswith(".. list-table::")
    assert text[table.start:table.end].endswith("which does the same.")
    chunks = chunkwise.chunk(doc)
    assert_invariants(text, chunks, 254)
    parts = [c for c in chunks if c.metadata.get("table_part")]
    assert len(parts) > 1 and all(c.context.endswith("Target | Deprecated | Removed | Alternatives\n")
                                  for c in parts[1:])
    csv_text = ("Treats\n======\n\n.. csv-table:: Frozen Delights!\n"
                '   :header: "Treat", "Quantity", "Description"\n   :widths: 15, 10, 30\n\n'
                '   "Albatross", 2.99, "On a stick!"\n'
                '   "Crunchy Frog", 1.49, "If we took the bones out, it wouldn\'t be\n'
                '   crunchy, now would it?"\n   "Gannet Ripple", 1.99, "On a stick!"\n\nAfter.\n')
    (table,) = [b for b in parse(csv_text, "treats.rst", fmt="text").blocks if b.kind == "table"]
    assert table.metadata["columns"] == ("Treat", "Quantity", "Description")
    assert table.metadata["cells"][1] == (
        "Crunchy Frog", "1.49", "If we took the bones out, it wouldn't be crunchy, now would it?")
    assert len(table.metadata["rows"]) == 3
    named = csv_text.replace("   :widths: 15, 10, 30\n", "   :file: treats.csv\n")
    assert not [b for b in parse(named, "treats.rst", fmt="text").blocks if b.kind == "table"]


def test_sphinx_object_descriptions_are_headings_over_their_bodies():
    """A Sphinx object's description (``.. py:data:: SECRET_KEY`` and the text indented
    under it) is found under its name: a heading one level below its section (or the
    object it is in), closed by text not indented past it. Flask's configuration page
    cut ``SECRET_KEY``'s entry onto the tail of the entry before it; a directive
    without a body (Django's ``.. setting::`` target, ``.. autoclass::``) stays a
    paragraph."""
    rst = ("Config\n======\n\nBuiltin Values\n--------------\n\n"
           ".. py:data:: DEBUG\n\n    Whether debug mode is enabled.\n\n    Default: ``False``\n\n"
           ".. py:data:: SECRET_KEY\n\n    A secret key that will be used for signing.\n\n"
           ".. py:class:: Flask(import_name)\n   :module: flask\n\n   The application object.\n\n"
           "   .. py:method:: route(rule, **options)\n\n      Decorate a view function.\n\n"
           "   An application's own text after its methods.\n\n"
           "Text of the section after the entries.\n\n"
           ".. setting:: ALLOWED_HOSTS\n\n"
           ".. autoclass:: flask.Blueprint\n\n"
           "Other\n-----\n\n.. confval:: html_theme\n\n   The theme.\n")
    doc = parse(rst, "config.rst")

    def block(start: str):
        return block_starting(doc, start)

    debug = block(".. py:data:: DEBUG")
    assert debug.kind == "heading" and debug.level == 3
    assert block("Default: ``False``").headings == ("Config", "Builtin Values", "DEBUG")
    assert block("A secret key").headings == ("Config", "Builtin Values", "SECRET_KEY")
    assert block(".. py:class::").kind == "heading"
    assert block("The application object.").headings[-1] == "Flask(import_name)"
    assert block("Decorate a view").headings == (
        "Config", "Builtin Values", "Flask(import_name)", "route(rule, **options)")
    assert block("An application's own text").headings[-1] == "Flask(import_name)"
    assert block("Text of the section").headings == ("Config", "Builtin Values")
    assert block(".. setting::").kind == "paragraph" and block(".. autoclass::").kind == "paragraph"
    assert block("The theme.").headings == ("Config", "Other", "html_theme")
    # every entry of Flask's configuration page is a chunk of its own under its name
    path = DATA.parents[2] / "benchmarks" / "rst_eval" / "docs" / "config.rst"
    chunks = chunkwise.chunk(path)
    assert_invariants(read_path(path).text, chunks, 254)
    secret = by_text(chunks, "A secret key that will be used for securely signing")
    assert len(secret) == 1 and secret[0].text.startswith(".. py:data:: SECRET_KEY")
    assert secret[0].context.startswith(
        "Configuration Handling > Builtin Configuration Values > SECRET_KEY")
    assert "TRAP_BAD_REQUEST_ERRORS" not in secret[0].text


def test_a_sphinx_program_directive_is_no_text_of_its_own():
    """Sphinx's ``sphinx-apidoc`` manual page: ``Options`` over ``.. program::
    sphinx-apidoc`` (which names the program its ``.. option::`` entries belong to)
    was a chunk of its own, a heading and a directive (25 tokens, in each of the four
    manual pages of Sphinx's docs); a domain's scope directive sets something up as
    ``.. currentmodule::`` does, so the title goes with the first option."""
    from chunkwise.readers.structure import markup_only

    path = DATA / "sphinx-apidoc.rst"
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(path)
    assert_invariants(text, chunks, 254)
    first = by_text(chunks, "Directory to place the output files.")[0]
    assert first.text.startswith("Options\n-------\n\n.. program:: sphinx-apidoc\n\n.. option:: -o")
    assert first.headings[-1] == "-o <OUTPUT_PATH>"
    assert not [c.text for c in chunks if markup_only(c.text)]
    assert all(markup_only(d) for d in (".. program:: sphinx-build", ".. cpp:namespace-push:: a",
                                        ".. c:namespace:: NULL", ".. js:module:: app"))
    assert not any(markup_only(d) for d in (".. option:: -a", ".. py:function:: f()",
                                            ".. programs:: x"))


_TARGET_LINE = re.compile(r"^(?:\.\. _[^\n]*?:|__)[ \t]+\S+$")


def test_hyperlink_targets_go_with_the_text_that_uses_them():
    """Sphinx's docs end a paragraph with its link targets (``.. _Read the Docs:
    https://readthedocs.org/``, the anonymous ``.. __: https://...``): with the
    paragraph before them too big to take them they were a chunk of addresses alone
    (19 of Sphinx's docs' chunks). A target with an address is markup (it points a
    link's words somewhere, it says nothing): the cut moves back to a paragraph
    boundary so they go with the paragraph they serve; a list of targets too long for
    that stays as it is rather than be cut inside a sentence or a target (pip's). A
    cut is not made after a directive's first line over its indented body
    (``.. note::``)."""
    from chunkwise.engine import wordless

    assert wordless(".. _Read the Docs: https://readthedocs.org/\n"
                    ".. _Google:\n   https://google.github.io/styleguide/pyguide.html\n"
                    "__ https://pygments.org/docs/lexers\n.. __: https://gitlab.com/")
    assert not wordless(".. _label:\n") and not wordless("See __ https://x.org/ too")
    for name in ("sphinx-deploying.rst", "sphinx-imgconverter.rst", "pip-ux_research_design.rst"):
        path = DATA / name
        text = path.read_text(encoding="utf-8")
        chunks = chunkwise.chunk(path)
        assert_invariants(text, chunks, 254)
        for c in chunks:
            lines = [x.strip() for x in c.text.splitlines() if x.strip()]
            if name.startswith("sphinx"):  # (pip's list of targets is longer than a chunk)
                assert not all(_TARGET_LINE.match(x) for x in lines), c.text[:80]
            # no cut inside a target (its name in one chunk, its address in the next)
            assert not re.match(r"https?://", c.text), c.text[:80]
            assert not re.search(r"(?:^|\n)\.\. _[^\n]*:$", c.text), c.text[-80:]
            assert not re.search(r"\n[ \t]*\.\.(?: [\w:-]+::)?$", c.text), c.text[-80:]
    deploying = chunkwise.chunk(DATA / "sphinx-deploying.rst")
    rtd = by_text(deploying, ".. _Read the Docs: https://readthedocs.org/")[0]
    assert "All these options have zero cost" in rtd.text
    note = by_text(chunkwise.chunk(DATA / "sphinx-imgconverter.rst"), ".. note::")[0]
    assert "ImageMagick rasterizes a SVG image" in note.text
