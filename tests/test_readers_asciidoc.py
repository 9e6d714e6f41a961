"""AsciiDoc: section titles, delimited blocks, paragraphs; offsets into the file."""

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text, independent_minilm_count

DATA = Path(__file__).resolve().parent / "data" / "asciidoc"


def held(doc) -> int:
    """Where the document header the metadata holds ends (0: none)."""
    first = doc.blocks[0] if doc.blocks else None
    return first.end if first is not None and first.kind == "front_matter" else 0


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
    assert_invariants(doc.text, chunks, 254, held=held(doc))
    assert by_text(chunks, "--add-module=demos")[0].headings == ("ECLIPSE JETTY", "Quick Setup")
    for c in chunks:  # a listing is never cut: it fits, and each chunk holds whole ones
        assert c.text.count("----") % 2 == 0, c.text


def test_titles_blocks_attributes_and_comments():
    text = ("= User Guide\n:toc: left\n\nIntro paragraph.\n\n"
            "== Install\n\n[source,python]\n.Installing it\n----\n== not a title\npip install x\n"
            "----\n\n// a comment line\n=== From source\n\n====\n== inside an example\n====\n\n"
            "Old Style Title\n---------------\n\nBody text.\n\n....\nliteral\n")
    doc = parse(text, "guide.adoc")
    heads = [(b.level, b.headings) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(2, ("User Guide", "Install")), (3, ("User Guide", "Install", "From source")),
                     (2, ("User Guide", "Old Style Title"))]
    assert doc.title == "User Guide"  # the header: held, as front matter is
    assert doc.blocks[0].kind == "front_matter" and held(doc) == len("= User Guide\n:toc: left")
    assert doc.metadata == {"title": "User Guide", "toc": "left", "format": "asciidoc"}
    code = [b for b in doc.blocks if b.kind == "code"]
    assert text[code[0].start:code[0].end].startswith("[source,python]\n.Installing it\n----")
    assert code[0].metadata["language"] == "python"
    assert text[code[-1].start:code[-1].end] == "....\nliteral"  # never closed: to the end
    chunks = chunkwise.chunk(doc, strategy="section", size=32)
    assert_invariants(text, chunks, 32, held=held(doc))
    assert chunks[0].text == "Intro paragraph." and chunks[0].context == "User Guide\n\n"


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
              st.from_regex(r"(== )?[a-z]{1,6} = [0-9]{1,3}", fullmatch=True)),
    st.tuples(st.just("markup"), st.just(0), st.sampled_from([
        "// tag::body[]", "// end::body[]\n// tag::more[]", "////\nA note to the writers.\n== not a title\n////",
        ":toc: left", ":url-repo: https://example.org/repo\n:sectnums!:", "include::partial$x.adoc[]",
        "ifdef::env-github[]", "endif::[]", "ifeval::[{x} > 1]"]))),
    min_size=1, max_size=12))
@example([("table", 1, "a"), ("title", 1, "Aaaa"), ("title", 1, "Aaaaaaaa"),
          ("table", 2, "aaaaaaaa a a a a"), ("markup", 0, "// tag::body[]"), ("title", 1, "Aaa")])
def test_asciidoc_property(parts):
    """Generated documents: each title a heading of its level (under its anchor or
    attributes too, the heading's block starting at them; the document title, with
    only markup above it, the header the metadata holds), nothing inside a listing
    a title, an admonition's example block (``[TIP]`` over ``====``) no title, a
    table a table (its first line over a blank line its header), and chunks that keep
    the invariants."""
    out = []
    for kind, level, body in parts:
        if kind == "markup":
            out.append(body)
            continue
        out.append(f"{'=' * level} {body}" if kind == "title" else
                   f"{kind}\n{'=' * level} {body}" if kind.startswith("[") and level else
                   f"{kind}\n====\n{body}\n====" if kind == "[TIP]" else
                   f"----\n{body}\n----" if kind == "listing" else
                   "|===\n" + " ".join(f"|h{i}" for i in range(level)) + "\n\n" + "\n".join(
                       f"|{body} {i}" for i in range(3 * level)) + "\n|===" if kind == "table" else body)
    text = "\n\n".join(out) + "\n"
    doc = parse(text, "gen.adoc")
    # lines rendering nothing are no block of their own, nor a title
    assert not any(_UNRENDERED.fullmatch(text, b.start, b.end) for b in doc.blocks)
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    titles = [(i, level, body) for i, (kind, level, body) in enumerate(parts)
              if kind == "title" or kind.startswith("[") and level]
    # a document title with nothing but markup above it and text below: the header
    header = bool(titles) and titles[0][1] == 1 and all(
        k == "markup" for k, _, _ in parts[:titles[0][0]]) and any(
        k != "markup" for k, _, _ in parts[titles[0][0] + 1:])
    assert heads == [(level, body) for _, level, body in titles[header:]]
    assert (bool(doc.blocks) and doc.blocks[0].kind == "front_matter") == header
    if titles:
        assert doc.title == next((body for _, level, body in titles if level == 1), None)
    assert all(text[b.start:b.end].startswith(("=", "[#", "[[", "[appendix]"))
               for b in doc.blocks if b.kind == "heading")
    tables = [b for b in doc.blocks if b.kind == "table"]  # a header, three rows of cells
    assert [(t.metadata["columns"], len(t.metadata["cells"])) for t in tables] == [
        (tuple(f"h{i}" for i in range(level)), 3) for kind, level, _ in parts if kind == "table"]
    assert sum(b.kind == "code" for b in doc.blocks) == sum(k == "listing" for k, _, _ in parts)
    chunks = chunkwise.chunk(doc, strategy="section", size=48)
    assert_invariants(text, chunks, 254, held=held(doc))  # (a table row over the size stays whole to max_tokens)
    assert all(c.token_count <= 48 for c in chunks if c.kind != "table")
    if any(_rendered_words(c.text) for c in chunks):  # a chunk of markup alone joins none
        count = chunkwise.get_chunker("section", size=48).tokenizer.count
        for i, c in enumerate(chunks):
            # (a neighbour in its section: markup ending a section after a table too
            # big to take it is no part of the next title's section)
            if not _rendered_words(c.text) and c.kind != "table":
                for j in (i - 1, i + 1):
                    if 0 <= j < len(chunks) and chunks[j].kind != "table" and \
                            chunks[j].headings == c.headings:
                        a, b = sorted((c, chunks[j]), key=lambda x: x.start)
                        assert count(chunks[j].context + text[a.start:b.end]) > 48, c.text


def test_titles_under_their_anchors_and_an_admonitions_example_block():
    """Asciidoctor's own docs put an anchor over most titles (``[#debug]`` over ``==
    Debug messages``): the title was a line of a paragraph, 64 of the docs' 472 titles
    missed. And ``[TIP]`` over ``====`` (an admonition's example block) was read as a
    title over its rule, the block's closing ``====`` then opening a block that ran
    to the end: every title after it lost. Both read as Asciidoctor reads them."""
    doc = read_path(DATA / "asciidoctor-errors-and-warnings.adoc")
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert [b.headings for b in heads[:1]] == [("Errors and Warnings", "Notification types")]
    assert [b.headings[-1] for b in heads] == [  # (the document title: its header)
        "Notification types", "Debug messages", "Info messages",
        "Warning messages", "Error messages", "Fatal messages"]
    debug = heads[1]
    assert doc.text[debug.start:debug.end] == "[#debug]\n== Debug messages"
    logging = read_path(DATA / "asciidoctor-logging.adoc")
    assert logging.title == "Log from an Extension"  # (its header: held)
    assert [b.headings[-1] for b in logging.blocks if b.kind == "heading"] == [
        "Mix in the Logger", "Add context to the message",
        "Add the extension name", "Add the source location"]
    chunks = chunkwise.chunk(logging)
    assert by_text(chunks, "Let's look at how to do that")[0].headings[-1] == \
        "Add the extension name"
    assert_invariants(logging.text, chunks, 254, held=held(logging))


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
    assert_invariants(doc.text, chunks, 254, held=held(doc))
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


#: what Asciidoctor renders nothing of, written here apart from the reader and the
#: packer: comment blocks, an include's tag lines (other comment lines are words to the
#: packer, as a source file's are), attribute entries (a value ending in `` \`` goes
#: on), preprocessor directives
_UNRENDERED = re.compile(r"^////+[ \t]*\n.*?^////+[ \t]*$|^// (?:tag|end)::[^\n]*\[\]$"
                         r"|^:!?[\w-]+!?:(?:[^\n]*\\\n)*[^\n]*$"
                         r"|^(?:include|ifn?def|ifeval|endif)::[^\n]*\[[^\n]*\][ \t]*$",
                         re.MULTILINE | re.DOTALL)


def _rendered_words(text: str) -> bool:
    return any(ch.isalnum() for ch in _UNRENDERED.sub(" ", text))


@pytest.mark.parametrize("name", ["asciidoc-docs-conditionals.adoc", "asciidoc-docs-metadata.adoc",
                                  "asciidoc-docs-reference-author.adoc", "asciidoctor-my-document.adoc"])
@pytest.mark.parametrize("size", [None, 96])
def test_no_chunk_of_comments_entries_or_directives_alone(name, size):
    """Lines Asciidoctor renders nothing of were paragraphs and chunks of their own: an
    include file's ``// tag::desc-base[]`` above a document title, a ``////`` comment
    block of 112 tokens (the language documentation's ``conditionals.adoc``), a title
    over its header's entries (``:page-aliases: faqs.adoc``), an ``include::`` line.
    Now none is a chunk where it fits beside the text next to it."""
    path = DATA / name
    doc = read_path(path)
    chunker = chunkwise.get_chunker("auto", **({"size": size} if size else {}))
    chunks = chunker.chunk_document(doc)
    limit = size or 254  # (auto gives reference documentation 224 within MiniLM's 254)
    assert_invariants(doc.text, chunks, limit, independent_minilm_count(), held=held(doc))
    text = doc.text

    def fits(ctx: str, lo: int, hi: int) -> bool:
        return len(ctx) + hi - lo <= chunker.max_chars and \
            chunker.tokenizer.count(ctx + text[lo:hi]) <= limit

    bare = [c for c in chunks if not _rendered_words(c.text)]
    for c in bare:
        i = chunks.index(c)
        assert not (i + 1 < len(chunks) and fits(chunks[i + 1].context, c.start, chunks[i + 1].end)), c.text
        assert not (i > 0 and fits(chunks[i - 1].context, chunks[i - 1].start, c.end)), c.text
    if size is None:
        assert bare == []


def test_the_header_is_held_and_comments_entries_and_directives_are_no_paragraphs():
    """The document header (tag lines above the title, its author line and entries
    under it) is front matter the metadata holds: chunks start after it, every trail
    starts with its title, and its entries (one wrapped over lines whole), author and
    title are the metadata. Elsewhere a comment block, an include and a condition's
    lines are no paragraph, tag lines touching a title are part of its block, and a
    title naming an attribute shows its value in the trail."""
    mine = read_path(DATA / "asciidoctor-my-document.adoc")
    head = mine.blocks[0]
    assert head.kind == "front_matter" and mine.text[head.start:head.end] == (
        "// tag::title[]\n= The Dangers of Wolpertingers\n"
        ":url-wolpertinger: https://en.wikipedia.org/wiki/Wolpertinger\n// end::title[]\n// tag::body[]")
    assert mine.metadata == {"url-wolpertinger": "https://en.wikipedia.org/wiki/Wolpertinger",
                             "title": "The Dangers of Wolpertingers", "format": "asciidoc"}
    chunks = chunkwise.chunk(mine)
    assert chunks[0].text.startswith("Don't worry about gumberoos")
    assert chunks[0].context == "The Dangers of Wolpertingers\n\n"
    assert chunks[0].metadata["doc"]["url-wolpertinger"].startswith("https://")
    assert_invariants(mine.text, chunks, 254, held=held(mine))

    cond = read_path(DATA / "asciidoc-docs-conditionals.adoc")
    texts = [cond.text[b.start:b.end] for b in cond.blocks]
    assert not any(t.startswith(("////", "include::", "//")) for t in texts), texts
    assert "The conditional preprocessor directives determine which lines" in " ".join(texts)

    wrapped = parse("= Guide\nAnn Author <ann@example.org>\nv1.2, 2025-01-02\n:description: A value \\\n"
                    "  over two lines\n:toc:\n\nText.\n", "g.adoc")
    assert wrapped.metadata == {"author": "Ann Author <ann@example.org>", "revision": "v1.2, 2025-01-02",
                                "description": "A value over two lines", "toc": "", "title": "Guide",
                                "format": "asciidoc"}
    assert [b.kind for b in wrapped.blocks] == ["front_matter", "paragraph"]
    alone = parse("= Guide\n:toc:\n", "g.adoc")  # a header and nothing else: a heading
    assert [(b.kind, b.start, b.end) for b in alone.blocks] == [("heading", 0, 13)]
    assert [c.text for c in chunkwise.chunk(alone)] == ["= Guide\n:toc:"]

    meta = read_path(DATA / "asciidoc-docs-metadata.adoc")
    assert meta.metadata["author"] == "Kismet Lee; Lazarus Draeke"
    assert meta.text[held(meta):].lstrip().startswith("hazards and unique")  # (its entry ends at <.>)
    later = [b for b in meta.blocks if b.kind == "heading" and b.level == 1]
    assert later and all(meta.text[b.start:b.end].startswith("// tag::") for b in later)

    author = read_path(DATA / "asciidoc-docs-reference-author.adoc")
    assert [b.headings for b in author.blocks if b.kind == "heading"] == [
        ("The Intrepid Chronicles", "About Kismet R. Lee")]
    assert author.metadata["email"] == "kismet@asciidoctor.org"
    chunks = chunkwise.chunk(author)
    assert chunks[0].headings[-1] == "About Kismet R. Lee"
    assert chunks[0].text.startswith("== About {author}")  # offsets: the file's


@pytest.mark.parametrize(("source", "trail"), [
    ("= {product} Guide\n:product: Acme\n\n== Install\n\nText.\n", ("Acme Guide", "Install")),
    (":product: Acme\n= Guide\n\n== About {product}{nbsp}and \\{x} {missing}\n\nText.\n",
     ("Guide", "About Acme and {x} {missing}")),
    ("= Guide\n\n:product: Acme\n:product!:\n\n=== [[latest]]Version {product}\n\nText.\n",
     ("Guide", "Version {product}")),
    ("= Guide\n\n== anchor:setup[]Setup {cpp}\n\nText.\n", ("Guide", "Setup C++")),
])
def test_a_titles_attribute_references_and_anchors_in_its_trail(source, trail):
    doc = parse(source, "g.adoc")
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert heads[-1].headings == trail
    assert doc.title == trail[0]
    assert doc.text[heads[-1].start:heads[-1].end].startswith("=")  # the source as written
