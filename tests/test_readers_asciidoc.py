"""AsciiDoc: section titles, delimited blocks, paragraphs; offsets into the file."""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "asciidoc"


def test_jettys_readme_has_its_sections_and_listings():
    """Eclipse Jetty's README.adoc was read as plain text: ``==== Quick Setup`` was
    a paragraph (no trail said which part of the README a chunk came from) and the
    ``----`` listings were prose a cut could fall inside."""
    path = DATA / "jetty-README.adoc"
    doc = read_path(path)
    assert doc.metadata["format"] == "asciidoc"
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(3, "ECLIPSE JETTY"), (4, "Quick Setup")]
    codes = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "code"]
    assert len(codes) == 4 and all(c.startswith("----\n$ java") or c.startswith("----\n$ export")
                                   for c in codes)
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert by_text(chunks, "--add-module=demos")[0].headings == ("ECLIPSE JETTY", "Quick Setup")
    for c in chunks:  # a listing is never cut: it fits, and each chunk holds whole ones
        assert c.text.count("----") % 2 == 0, c.text


def test_titles_blocks_attributes_and_comments():
    text = ("= User Guide\n:toc: left\n\nIntro paragraph.\n\n"
            "== Install\n\n[source,python]\n.Installing it\n----\n== not a title\npip install x\n"
            "----\n\n// a comment line\n=== From source\n\n====\n== inside an example\n====\n\n"
            "Old Style Title\n---------------\n\nBody text.\n\n....\nliteral\n")
    doc = parse(text, "guide.adoc")
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(1, "User Guide"), (2, "Install"), (3, "From source"),
                     (2, "Old Style Title")]
    assert doc.title == "User Guide"
    code = [b for b in doc.blocks if b.kind == "code"]
    assert text[code[0].start:code[0].end].startswith("[source,python]\n.Installing it\n----")
    assert code[0].metadata["language"] == "python"
    assert text[code[-1].start:code[-1].end] == "....\nliteral"  # never closed: to the end
    assert_invariants(text, chunkwise.chunk(doc, strategy="section", size=32), 32)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.sampled_from(["title", "[#anchor]", "[[anchor]]", "[appendix]"]), st.integers(1, 4),
              st.from_regex(r"[A-Z][a-z]{2,8}( [a-z]{2,6}){0,3}", fullmatch=True)),
    st.tuples(st.just("table"), st.integers(1, 4),
              st.from_regex(r"[a-z]{1,8}( [a-z]{1,8}){0,6}", fullmatch=True)),
    st.tuples(st.just("[TIP]"), st.just(0),
              st.from_regex(r"[A-Z][a-z]{1,8}( [a-z]{1,8}){3,15}\.", fullmatch=True)),
    st.tuples(st.just("para"), st.just(0),
              st.from_regex(r"[A-Z][a-z]{1,8}( [a-z]{1,8}){3,15}\.", fullmatch=True)),
    st.tuples(st.just("listing"), st.just(0),
              st.from_regex(r"(== )?[a-z]{1,6} = [0-9]{1,3}", fullmatch=True))),
    min_size=1, max_size=12))
def test_asciidoc_property(parts):
    """Generated documents: each title a heading of its level (under its anchor or
    attributes too, the heading's block starting at them), nothing inside a listing
    a title, an admonition's example block (``[TIP]`` over ``====``) no title, a
    table a table (its first line over a blank line its header), and chunks that keep
    the invariants."""
    out = []
    for kind, level, body in parts:
        out.append(f"{'=' * level} {body}" if kind == "title" else
                   f"{kind}\n{'=' * level} {body}" if kind.startswith("[") and level else
                   f"{kind}\n====\n{body}\n====" if kind == "[TIP]" else
                   f"----\n{body}\n----" if kind == "listing" else
                   "|===\n" + " ".join(f"|h{i}" for i in range(level)) + "\n\n" + "\n".join(
                       f"|{body} {i}" for i in range(3 * level)) + "\n|===" if kind == "table" else body)
    text = "\n\n".join(out) + "\n"
    doc = parse(text, "gen.adoc")
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(level, body) for kind, level, body in parts
                     if kind == "title" or kind.startswith("[") and level]
    assert all(text[b.start:b.end].startswith(("=", "[#", "[[", "[appendix]"))
               for b in doc.blocks if b.kind == "heading")
    tables = [b for b in doc.blocks if b.kind == "table"]  # a header, three rows of cells
    assert [(t.metadata["columns"], len(t.metadata["cells"])) for t in tables] == [
        (tuple(f"h{i}" for i in range(level)), 3) for kind, level, _ in parts if kind == "table"]
    assert sum(b.kind == "code" for b in doc.blocks) == sum(k == "listing" for k, _, _ in parts)
    chunks = chunkwise.chunk(doc, strategy="section", size=48)
    assert_invariants(text, chunks, 254)  # (a table row over the size stays whole to max_tokens)
    assert all(c.token_count <= 48 for c in chunks if c.kind != "table")


def test_titles_under_their_anchors_and_an_admonitions_example_block():
    """Asciidoctor's own docs put an anchor over most titles (``[#debug]`` over ``==
    Debug messages``): the title was a line of a paragraph, 64 of the docs' 472 titles
    missed. And ``[TIP]`` over ``====`` (an admonition's example block) was read as a
    title over its rule, the block's closing ``====`` then opening a block that ran
    to the end: every title after it lost. Both read as Asciidoctor reads them."""
    doc = read_path(DATA / "asciidoctor-errors-and-warnings.adoc")
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert [b.headings[-1] for b in heads] == [
        "Errors and Warnings", "Notification types", "Debug messages", "Info messages",
        "Warning messages", "Error messages", "Fatal messages"]
    debug = heads[2]
    assert doc.text[debug.start:debug.end] == "[#debug]\n== Debug messages"
    logging = read_path(DATA / "asciidoctor-logging.adoc")
    assert [b.headings[-1] for b in logging.blocks if b.kind == "heading"] == [
        "Log from an Extension", "Mix in the Logger", "Add context to the message",
        "Add the extension name", "Add the source location"]
    chunks = chunkwise.chunk(logging)
    assert by_text(chunks, "Let's look at how to do that")[0].headings[-1] == \
        "Add the extension name"
    assert_invariants(logging.text, chunks, 254)


def test_tables_are_tables_their_header_the_context_of_every_later_part():
    """A table (``|===``) was a paragraph: its rows cut at lines, no part naming the
    columns. Its cells are read as Asciidoctor reads them: as many a row as ``cols``
    names or the first line holds, a cell over two columns (``2+|``) two, an escaped
    ``\\|`` content; the header the first row where the attributes ask
    (``%header``, ``options="header"``) or where it is one line over a blank line,
    never with ``%noheader``."""
    doc = read_path(DATA / "asciidoctor-errors-and-warnings.adoc")
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 5
    assert all(t.metadata["columns"] == ("Message", "Troubleshooting") for t in tables)
    first = tables[0].metadata["cells"][0]
    assert first[0] == "unknown style for <y> block: <x>"
    assert first[1].startswith("The processor could not find an extension registered for the <y> "
                               "block") and first[1].endswith("custom style is not present.")
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    later = [c for c in chunks if c.metadata.get("table_part", 1) > 1]
    assert later and all(c.context.endswith("Message | Troubleshooting\n") for c in later)
    for t in tables:
        for s, e in t.metadata["rows"]:
            assert any(c.start <= s and e <= c.end for c in chunks)

    def table(attrs: str, body: str) -> dict:
        found = [b for b in parse(f"= T\n\n{attrs}|===\n{body}\n|===\n", "t.adoc").blocks
                 if b.kind == "table"]
        assert len(found) == 1
        return dict(found[0].metadata)

    meta = table('[cols="1,2m,1", options="header"]\n',
                 "|Name\n|Value\n|Notes\n|a\n|`x \\| y`\n|one\n2+|both columns\n|c")
    assert meta["columns"] == ("Name", "Value", "Notes")
    assert meta["cells"] == (("a", "`x \\| y`", "one"), ("both columns", "c"))
    implicit = table("", "|Key |Meaning\n\n|k1 |first\n\n|k2 |second")
    assert implicit["columns"] == ("Key", "Meaning") and len(implicit["cells"]) == 2
    none = table("[%noheader]\n", "|Key |Meaning\n\n|k1 |first")
    assert none["header"] is None and none["cells"] == (("Key", "Meaning"), ("k1", "first"))
    assert table("", "|a |b\n|c |d")["header"] is None  # no blank line under the first row
