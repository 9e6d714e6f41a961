"""Structure: readers, section chunking with heading trails, tables kept whole."""


import re
from pathlib import Path

import pytest

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, block_starting, by_text

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
    # the rows whole after their header; the section's few words ("See the table.",
    # under min_tokens of text) go with the table they introduce
    assert "See the table.\n\n| Record | Years |\n|---|---|\n" in table.text
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


# -- main-content selection: n-gram keys, every block at once ------------------------

def _select_main_by_strings(blocks, main_text):
    """The selection as first written (a search of the whole extraction per block, a
    set of trigram strings): the reference the integer-key version must equal."""

    def words(text):  # (a character of a script written without spaces is a word)
        unspaced = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
        return [w.lower() for w in re.findall(f"[{unspaced}]|[^\\W{unspaced}]+", text)]

    flat = " ".join(words(main_text))
    padded = f" {flat} "
    found_words = flat.split()
    grams = {" ".join(found_words[i:i + 3]) for i in range(len(found_words) - 2)}
    keep = []
    for b in blocks:
        w = words(b.text if b.kind != "table" else " ".join(" ".join(r) for r in b.rows))
        if not w:
            keep.append(False)
        elif f" {' '.join(w)} " in padded:
            keep.append(True)
        elif len(w) < 3:
            keep.append(False)
        else:
            found = sum(1 for i in range(len(w) - 2) if " ".join(w[i:i + 3]) in grams)
            keep.append(found >= 0.6 * (len(w) - 2))
    return keep


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_VOCAB = st.sampled_from(["the", "The", "order", "ships", "refund", "naïve", "İstanbul", "x1",
                          "日本", "a", "b", "c"])
_PHRASE = st.lists(_VOCAB, min_size=0, max_size=9).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(main=st.lists(_PHRASE, max_size=12).map(". ".join),
       texts=st.lists(_PHRASE, max_size=15),
       tables=st.lists(st.lists(st.lists(_VOCAB, max_size=3), max_size=3), max_size=2))
def test_main_content_selection_equals_the_string_search(main, texts, tables):
    from chunkwise.readers.html import _Raw, _select_main

    blocks = [_Raw("paragraph", t) for t in texts]
    blocks += [_Raw("table", "", rows=[list(r) for r in t]) for t in tables]
    assert _select_main(blocks, main) == _select_main_by_strings(blocks, main)


def test_a_page_too_long_for_main_content_extraction_is_read_whole(monkeypatch):
    import warnings

    import chunkwise.readers.html as html

    monkeypatch.setattr(html, "MAIN_CONTENT_MAX_CHARS", 200)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = parse(HTML.encode(), "big.html", fmt="html")
    assert doc.metadata["main_content"] == "whole page"
    assert doc.text == parse(HTML.encode(), "big.html", fmt="html-all").text
    assert any("big.html" in str(w.message) and "read whole" in str(w.message)
               for w in caught)
    # a documentation tool's page needs no extractor: its <main>, however long (a
    # rustdoc source page of 8.5 M characters warned and was read whole)
    tool = HTML.replace("<head>", '<head><meta name="generator" content="rustdoc">')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = parse(tool.encode(), "big.html", fmt="html")
    assert doc.metadata["main_content"] == "landmark" and not caught
    assert "Handbook" in doc.text and "Copyright" not in doc.text


def _forum(posts: int) -> str:
    """An old forum page whose posts never close their ``<div>``: each nests the next."""
    return ("<html><head><title>Forum</title></head><body><nav><a href='/'>Home</a> "
            "<a href='/f'>Forums</a></nav>" + "".join(
                f"<div class=post><p>Post number {i} asks whether the night train to "
                f"Vienna stops in Salzburg or runs straight through to the border.\n"
                for i in range(posts)) + "</body></html>")


@pytest.mark.parametrize("posts,warned", [(1_000, False), (3_000, True)])
def test_a_page_of_unclosed_tags_loses_no_post(posts, warned):
    """Unclosed tags nest every element after them: a page of 3,000 unclosed
    ``<div>``s was refused as "nested too deeply" (the walk recursed), and where it was
    not, main-content extraction kept the 253 posts lxml's parser reads (its depth
    limit is 256: what is below is dropped, silently). Deeper than 200: parsed with
    the limit raised (2,048); deeper than that: read whole, with a warning."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = parse(_forum(posts).encode(), "forum.html", fmt="html")
    found = {int(n) for n in re.findall(r"Post number (\d+) ", doc.text)}
    assert found == set(range(posts))
    said = [str(w.message) for w in caught]
    assert any("forum.html" in m and f"{posts + 1} deep" in m and "read whole" in m
               for m in said) == warned, said
    assert doc.metadata["main_content"] == ("whole page" if warned else "trafilatura")
    chunks = chunkwise.chunk(doc, size=96)
    assert_invariants(doc.text, chunks, 96)


def test_a_theme_menu_outside_the_content_is_chrome():
    """mdBook's pages (rustdoc's book as Rust ships it) carry a theme picker before the
    content, ``<ul role="menu">`` of ``<button role="menuitem">`` (Auto, Light, Rust,
    Coal, Navy, Ayu): it was a chunk of its own on 15 of the book's 26 pages, a lone
    "Rust" of one token ranked for any question about Rust. Menus, menu bars and
    toolbars outside the page's main content are chrome, as navigation is."""
    themes = "".join(f'<li role="none"><button role="menuitem" class="theme">{t}</button></li>'
                     for t in ("Auto", "Light", "Rust", "Coal", "Navy", "Ayu"))
    page = ("<html><body><div id='menu-bar'><div class='left-buttons'>"
            "<button aria-label='Change theme'>T</button>"
            f"<ul id='theme-list' class='theme-popup' role='menu'>{themes}</ul></div>"
            "<div role='toolbar'><button>Print this book</button></div></div>"
            "<div id='content'><h1>What is rustdoc?</h1><p>The standard Rust distribution "
            "ships with a tool called rustdoc. Its job is to generate documentation for "
            "Rust projects.</p><ul><li>Rust is the language.</li></ul></div></body></html>")
    doc = parse(page, "what-is-rustdoc.html", fmt="html")
    for word in ("Coal", "Navy", "Ayu", "Print this book"):
        assert word not in doc.text, word
    assert "Rust is the language." in doc.text and "ships with a tool" in doc.text
    chunks = chunkwise.chunk(doc)
    assert [c.text for c in chunks if c.token_count < 5] == []


def test_a_redirect_stub_is_a_page_without_text():
    """rustdoc's book keeps its moved pages as stubs (``<meta http-equiv="refresh"
    content="0; URL=...">``, "Redirecting to... the-doc-attribute.html."): 6 chunks of
    that sentence. A page that sends the reader on at once with little text of its own
    now has none (the summaries name it among the documents without text); a page that
    refreshes itself later, or has text of its own, keeps its text."""
    stub = ('<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; '
            'URL=write-documentation/the-doc-attribute.html"><title>Redirecting</title></head>'
            '<body><p>Redirecting to... <a href="write-documentation/the-doc-attribute.html">'
            'write-documentation/the-doc-attribute.html</a>.</p></body></html>')
    doc = parse(stub, "the-doc-attribute.html", fmt="html")
    assert doc.text == "" and doc.metadata["redirect"] == \
        "write-documentation/the-doc-attribute.html"
    assert chunkwise.chunk(doc) == []
    body = "<p>" + "The scoreboard is updated every five minutes during the match. " * 8 + "</p>"
    for refresh in ('content="300"', 'content="0; url=/live"'):
        page = f'<html><head><meta http-equiv="refresh" {refresh}></head><body>{body}</body></html>'
        kept = parse(page, "live.html", fmt="html")
        assert "updated every five minutes" in kept.text, refresh


@pytest.mark.parametrize("page, why", [
    # a byte-order mark wins over a <meta charset> (a page saved with one and an old
    # declaration was mojibake: "cafÃ©")
    (b"\xef\xbb\xbf<!DOCTYPE html>\n<meta charset=\"ISO-8859-1\">\n<p>caf\xc3\xa9 \xc3\xbc</p>", "bom"),
    # UTF-16 declared in a page read as ASCII is UTF-8 ("cannot be decoded as UTF-16")
    (b"<meta charset=\"UTF-16\">\n<p>caf\xc3\xa9 \xc3\xbc</p>", "utf-16"),
    (b"<meta charset=\"utf-16le\">\n<p>caf\xc3\xa9 \xc3\xbc</p>", "utf-16le"),
    # a label nobody knows is passed over for the next <meta>
    (b"<meta charset=\"bogus\">\n<meta charset=\"iso-8859-2\">\n<p>caf\xe9 \xfc</p>", "bogus"),
    # ... and one that declares nothing usable reads as a page that declares nothing
    (b"<meta charset=\"bogus\">\n<p>caf\xe9 \xfc</p>", "nothing usable"),
])
def test_a_pages_encoding_is_read_as_browsers_read_it(page, why):
    """Cases from html5lib-tests' encoding tests (``encoding/tests1.dat``, MIT)."""
    assert parse(page, "page.html", "html").text == "café ü", why


def test_node_api_html_page_headings_code_and_title():
    """Node.js's API docs as HTML (``string_decoder.html`` of v20.20.2): each heading
    ends in its permalink ``<a class="mark" href="#...">#</a>`` (every trail read
    ``String decoder #``), each example is one ``<pre>`` of two ``<code>`` elements (ES
    module and CommonJS, one shown at a time) and a copy button (read as
    ``...('node:string_decoder';const {...`` and ``// Prints: €copy``), and the page has
    no ``<h1>`` of its own, so its ``<title>`` (``String decoder | Node.js v20.20.2
    Documentation``) led every trail."""
    from pathlib import Path

    path = Path(__file__).parent / "data" / "nodejs-api" / "string_decoder.html"
    doc = read_path(path)
    assert doc.title == "String decoder"
    heads = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert "String decoder" in heads and "stringDecoder.write(buffer)" in heads
    assert not [h for h in heads if h.endswith("#")]
    assert "copy" not in doc.text.split()
    assert "Prints: €\n" in doc.text + "\n"
    assert "from 'node:string_decoder';\n\nconst { StringDecoder } = require(" in doc.text
    chunks = chunkwise.chunk(path)
    assert_invariants(doc.text, chunks, 254)
    assert all(c.context.startswith("String decoder") and "#" not in c.context
               and "Node.js v20" not in c.context for c in chunks)


def test_permalinks_leave_headings_and_a_title_keeps_a_site_name_it_does_not_repeat():
    page = ('<html><head><title>{title}</title></head><body><div>'
            '<h2>Usage<a class="headerlink" href="#usage" title="Link">¶</a></h2>'
            '<p>Words about usage of the tool in practice.</p>'
            '<h2>C#</h2><p>The language, named with a sharp sign.</p>'
            '<h3><a href="#x" class="anchor">#</a> Options</h3><p>Flags.</p></div></body></html>')
    doc = parse(page.format(title="Usage – Tool docs"), "u.html", fmt="html")
    heads = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert heads == ["Usage", "C#", "Options"]
    assert doc.title == "Usage"
    for title in ("Tool docs", "Tool - Usage", "Usage"):  # no site name to leave out
        assert parse(page.format(title=title), "u.html", fmt="html").title == title


def _docbook_chapter(n: int, title: str, sections: list[tuple[str, list[str]]],
                     lead: str = "") -> str:
    """A chapter page as DocBook's XSL stylesheets write it (Valgrind's manual as
    Debian installs it, /usr/share/doc/valgrind/html): a navigation table, the
    chapter's ``<h1>`` inside ``div.titlepage``, its table of contents (``div.toc``:
    a ``<b>Table of Contents</b>`` label over a ``<dl>`` of links), a lead paragraph,
    then one ``div.sect1`` per section."""
    toc = "".join(f'<dt><span class="sect1"><a href="#s{i}">{n}.{i + 1}. {h}</a></span></dt>'
                  for i, (h, _) in enumerate(sections))
    body = "".join(
        f'<div class="sect1"><div class="titlepage"><div><div><h2 class="title" '
        f'style="clear: both"><a name="s{i}"></a>{n}.{i + 1}. {h}</h2></div></div></div>'
        + "".join(f"<p>{p}</p>" for p in paras) + "</div>"
        for i, (h, paras) in enumerate(sections))
    return (f'<html><head><title>{n}. {title}</title><link rel="stylesheet" href="vg_basic.css">'
            '</head><body><div><table class="nav" width="100%" summary="Navigation header">'
            '<tr><td><a accesskey="p" href="prev.html"><img src="images/prev.png" alt="Prev">'
            '</a></td><th align="center">Valgrind User Manual</th></tr></table></div>'
            f'<div class="chapter"><div class="titlepage"><div><div><h1 class="title">'
            f'<a name="ch{n}"></a>{n}. {title}</h1></div></div></div>'
            f'<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">{toc}</dl></div>'
            + (f"<p>{lead}</p>" if lead else "") + body + "</div></body></html>")


def test_a_docbook_chapter_title_heads_its_sections_and_its_contents_are_chrome():
    """On Valgrind's manual every chapter's ``<h1>`` was dropped (the extractor keeps
    its lead paragraph, but the contents between them are more than three blocks), so
    the first chunk ("To use this tool, you must specify --tool=cachegrind") had no
    trail and no chunk said which tool's chapter it came from; and on chapters without
    a lead paragraph "Table of Contents" was left as a 9-token chunk. A heading stays
    when the first kept block after it is its content or a heading below it; a
    ``toc`` / ``table-of-contents`` element outside the main content is chrome."""
    para = ("Cachegrind simulates how your program interacts with a machine's cache "
            "hierarchy and (optionally) branch predictor, and it counts every instruction. ")
    sections = [(h, [para * 2, para]) for h in ("Overview", "Using Cachegrind",
                                                 "Cachegrind Command-line Options")]
    page = _docbook_chapter(5, "Cachegrind: a cache and branch-prediction profiler", sections,
                            "To use this tool, you must specify --tool=cachegrind on the "
                            "Valgrind command line.")
    chapter = "5. Cachegrind: a cache and branch-prediction profiler"
    doc = parse(page, "cg-manual.html", fmt="html")
    assert doc.text.startswith(chapter) and "Table of Contents" not in doc.text
    chunks = chunkwise.chunk(doc)
    assert chunks and all(c.headings[0] == chapter for c in chunks)
    assert by_text(chunks, "--tool=cachegrind")[0].headings == (chapter,)
    assert by_text(chunks, "Cachegrind simulates")[0].headings == (chapter, "5.1. Overview")
    bare = _docbook_chapter(1, "Introduction", sections)  # no lead paragraph
    doc = parse(bare, "manual-intro.html", fmt="html")
    assert doc.text.startswith("1. Introduction") and "Table of Contents" not in doc.text
    assert all(c.headings[0] == "1. Introduction" for c in chunkwise.chunk(doc))


def test_line_breaks_part_lines_and_two_in_a_row_paragraphs():
    """DocBook writes a NEWS file as ``<div class="literallayout"><p>`` lines ended by
    ``<br>`` (Valgrind's dist.news.html, 844 chunks): each ``<br>`` was a space, so the
    whole file was one paragraph and chunks began mid-line ("valgrind r8180). Release
    3.3.0 (7 December"). A ``<br>`` is now a line break in a block's text and two or
    more in a row a paragraph break; in headings and table cells a space."""
    releases = []
    for v in range(30, 0, -1):
        lines = [f"Release 3.{v}.0 ({v} June 20{v:02d})", "~" * 27, "",
                 f"3.{v}.0 fixes a bunch of bugs in 3.{v - 1}.0 and adds support for",
                 "newer systems, improves the existing glibc support, and adds support",
                 "for the SSSE3 (Core 2) instruction set on x86 and amd64 machines.", "",
                 f"n-i-bz  Massif segfaults at exit in release {v}",
                 f"n-i-bz  Memcheck asserts on Altivec code in release {v}"]
        releases.append("<br>\n".join(lines))
    page = ('<html><body><h1>2. NEWS</h1><div class="literallayout"><p><br>\n'
            + "<br>\n<br>\n".join(releases) + '<br></p></div></body></html>')
    doc = parse(page, "dist.news.html", fmt="html")
    assert "Release 3.30.0 (30 June 2030)\n~~~" in doc.text
    assert "3.30.0 fixes a bunch of bugs in 3.29.0 and adds support for\nnewer systems" in doc.text
    paragraphs = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "paragraph"]
    assert len(paragraphs) == 90
    assert all(p.startswith(("Release", "3.", "n-i-bz")) for p in paragraphs)
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert {c.metadata["strategy"] for c in chunks} == {"section"}  # versions are no clauses
    for c in chunks:
        assert c.text.startswith(("2. NEWS", "Release", "3.", "n-i-bz")), c.text[:40]
    cells = parse('<html><body><h1>Cells <br>and headings</h1><table><tr><th>a</th><th>b</th>'
                  '</tr><tr><td>one<br>two</td><td>x</td></tr></table></body></html>', "t.html",
                  fmt="html")
    assert cells.title == "Cells and headings" and "| one two | x |" in cells.text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True),
                                   st.sampled_from(["", " ", "<br>", "<br><br>", " <br/> <br> ",
                                                    "<b>", "</b>"])),
                         min_size=1, max_size=12), min_size=1, max_size=4))
def test_line_breaks_lose_no_word_and_keep_the_order(paragraphs):
    """Whatever the ``<br>``s between words, every word is in the text, in order, on
    the lines and in the paragraphs the breaks make."""
    body = "".join("<p>" + "".join(f"{w} {sep}" for w, sep in words) + "</p>"
                   for words in paragraphs)
    doc = parse(f"<html><body><h1>T</h1>{body}</body></html>", "p.html", fmt="html-all")
    assert doc.text.split()[1:] == [w for words in paragraphs for w, _ in words]
    lines = [line for line in doc.text.split("\n") if line.strip()][1:]
    expected: list[str] = []
    for words in paragraphs:
        line: list[str] = []
        for w, sep in words:
            line.append(w)
            if "<br" in sep:
                expected.append(" ".join(line))
                line = []
        if line:
            expected.append(" ".join(line))
    assert lines == expected


def test_a_list_of_links_to_the_pages_own_sections_is_its_contents():
    """Valgrind's FAQ (DocBook's ``qandaset``) opens with every question again as a
    list of links to the answers below (``<dd>1.1. <a href="faq.html#faq.pronounce">How
    do you pronounce "Valgrind"?</a>``): three chunks of questions without answers,
    which rank for any question they repeat. A list of two or more links to the
    page's own sections (``#id`` or ``this-page.html#id``) holding nearly all its
    letters, before any of the page's text but headings, is its contents, dropped;
    lists of links elsewhere, with words of their own, or further down (Node.js's
    "The following methods ... are available:" over links to each) stay."""
    questions = [("faq.pronounce", 'How do you pronounce "Valgrind"?',
                  'The "Val" as in the word "value". The "grind" is pronounced with a short i.'),
                 ("faq.whence", 'Where does the name "Valgrind" come from?',
                  "From Nordic mythology: Valgrind is the main entrance to Valhalla."),
                 ("faq.attach", "Is it possible to attach Valgrind to a running program?",
                  "No. The environment that Valgrind provides for running programs is "
                  "significantly different to that for normal programs.")]
    contents = "".join(f'<dd>1.{i + 1}. <a href="faq.html#{a}">{q}</a></dd>'
                       for i, (a, q, _) in enumerate(questions))
    answers = "".join(f'<h3><a name="{a}"></a>1.{i + 1}. {q}</h3><p>{ans}</p>'
                      for i, (a, q, ans) in enumerate(questions))
    page = ('<html><body><div class="article"><h1>Valgrind Frequently Asked Questions</h1>'
            f'<div class="qandaset"><dl><dt>1. <a href="faq.html#faq.background">Background'
            f'</a></dt>{contents}</dl>{answers}</div>'
            '<ul><li><a href="#faq.pronounce">Pronunciation</a>: how to say it aloud</li>'
            '<li><a href="#faq.whence">The name</a>: where it comes from, and why</li></ul>'
            '<ul><li><a href="other.html#x">Elsewhere one</a></li>'
            '<li><a href="other.html#y">Elsewhere two</a></li></ul>'
            "<p>The following methods of the resolver are available:</p>"
            '<ul><li><a href="#faq.whence"><code>resolver.getServers()</code></a></li>'
            '<li><a href="#faq.attach"><code>resolver.resolve4()</code></a></li></ul>'
            "</div></body></html>")
    doc = parse(page, "/docs/html/faq.html", fmt="html-all", doc_id="html/faq.html")
    for _, q, _ in questions:
        assert doc.text.count(q) == 1, q  # its heading over the answer, not the contents
    assert "Background" not in doc.text
    assert "how to say it aloud" in doc.text and "Elsewhere two" in doc.text
    assert "resolver.getServers()\n\nresolver.resolve4()" in doc.text  # below text: content
    same = parse(page.replace('href="faq.html#', 'href="#'), "faq.html", fmt="html-all")
    assert "Background" not in same.text
    chunks = chunkwise.chunk(parse(page, "faq.html", fmt="html"))
    first = next(c for c in chunks if "pronounce" in c.text)
    assert "The \"Val\" as in the word" in first.text


def test_a_table_of_contents_inside_the_content_is_chrome_too():
    """docutils renders ``.. contents::`` inside the page's ``<main>`` as ``<nav
    class="contents" role="doc-toc">`` (HTML5) or ``<div class="contents topic">``
    (HTML4, Sphinx): "Guide Contents Install Configure Sub part" was the first chunk.
    The ARIA role of a table of contents, or docutils' two classes, drop it wherever
    it stands."""
    toc = ('<p class="topic-title">Contents</p><ul><li><a href="#install" id="toc-1">Install'
           '</a></li><li><a href="#configure" id="toc-2">Configure</a><ul><li>'
           '<a href="#sub-part" id="toc-3">Sub part</a></li></ul></li></ul>')
    body = ('<section id="install"><h2>Install</h2><p>Run the installer and follow the steps '
            'shown on screen.</p></section><section id="configure"><h2>Configure</h2><p>Edit '
            'the configuration file in your home folder.</p><section id="sub-part"><h3>Sub '
            'part</h3><p>More about configuring the tool.</p></section></section>')
    for wrapper in ('<nav class="contents" id="contents" role="doc-toc">{}</nav>',
                    '<div class="contents topic" id="contents">{}</div>'):
        page = (f'<html><body><main id="guide"><h1 class="title">Guide</h1>'
                f'{wrapper.format(toc)}{body}</main></body></html>')
        doc = parse(page, "guide.html", fmt="html")
        assert "Contents" not in doc.text and doc.text.count("Sub part") == 1
        assert by_text(chunkwise.chunk(doc), "Run the installer")[0].headings == (
            "Guide", "Install")
    kept = parse('<html><body><main><div class="topic"><p class="topic-title">Note</p>'
                 '<p>A topic that is no contents stays.</p></div></main></body></html>',
                 "t.html", fmt="html")
    assert "A topic that is no contents stays." in kept.text


def test_a_texinfo_html_node_reads_without_navigation_glyphs_or_faq():
    """Found using it on libffi's manual (makeinfo's HTML, /usr/share/doc/libffi8/html):
    every page's first chunk was its "Next: Structures , Up: Types [ Index ]" line
    (and its last one ended in it again), every defined term kept its permalink's
    "¶", and a definition list of types made the page an FAQ: 26 chunks of one term
    each on this page (every <dt> counted as a question). Valgrind's option lists
    (lk-manual.html) were chunked the same way."""
    from pathlib import Path

    page = Path(__file__).resolve().parent / "data" / "texinfo-html" / "Primitive-Types.html"
    doc = read_path(page)
    assert "Next:" not in doc.text and "[ Index ]" not in doc.text and "¶" not in doc.text
    chunks = chunkwise.chunk(doc)
    assert {c.metadata["strategy"] for c in chunks} == {"section"}
    assert len(chunks) <= 8
    uint8 = by_text(chunks, "ffi_type_uint8\n\nAn unsigned, 8-bit integer type.")
    assert uint8 and uint8[0].headings[-1] == "2.3.1 Primitive Types"
    # a definition list whose terms ask questions is still an FAQ
    faq = ("<html><body><h1>Kettles</h1><dl><dt>What is the warranty?</dt><dd>Two years on "
           "every kettle we sell.</dd><dt>Who pays return postage?</dt><dd>We do, with the "
           "label we send.</dd><dt>How fast are refunds?</dt><dd>Within five working days."
           "</dd></dl></body></html>")
    assert {c.metadata["strategy"] for c in chunkwise.chunk({"faq.html": faq}, format="html")} \
        == {"faq"}


def test_a_page_naming_no_charset_and_not_utf8_reads_as_browsers_read_it(tmp_path):
    """Found using it on libxslt's pages (/usr/share/doc/libxslt1-dev/html/xslt.html:
    Latin-1, no <meta charset>): "not valid UTF-8 (byte 18407)"; browsers read such a
    page as Windows-1252."""
    import pytest

    from chunkwise.errors import InputError

    body = "<html><head><title>News</title></head><body><p>Fix typos (Jan Pokorný), " \
           "“quotes” – 5 €.</p></body></html>"
    legacy = tmp_path / "news.html"
    legacy.write_bytes(body.encode("cp1252"))
    assert "Fix typos (Jan Pokorný), “quotes” – 5 €." in read_path(legacy).text
    odd = tmp_path / "odd.html"  # 0x81: undefined in Windows-1252, Latin-1 then
    odd.write_bytes(b"<p>caf\xe9 \x81</p>")
    assert "café" in read_path(odd).text
    declared = tmp_path / "declared.html"  # says UTF-8 and is not: an error, as before
    declared.write_bytes(b'<meta charset="utf-8"><p>caf\xe9</p>')
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_path(declared)
    text = tmp_path / "notes.txt"  # plain text names no charset: still an error
    text.write_bytes("Pokorný".encode("latin-1"))
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_path(text)


def test_an_xml_declarations_encoding_is_used(tmp_path):
    """Found using it on libxslt's tutorial (``libxslt_pipes.xml.gz``, DocBook whose
    declaration names iso-8859-2): "not valid UTF-8 (byte 17410)"."""
    import gzip

    xml = '<?xml version="1.0" encoding="iso-8859-2"?>\n<article><para>Łódź ą</para></article>\n'
    path = tmp_path / "pipes.xml.gz"
    path.write_bytes(gzip.compress(xml.encode("iso-8859-2")))
    assert "Łódź ą" in read_path(path).text
    page = tmp_path / "page.xhtml.html"
    page.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?><html><body><p>caf\xc3\xa9</p>'
                     b'</body></html>')
    assert "café" in read_path(page).text


def test_a_table_without_a_header_row_gets_no_made_up_header():
    """gtk-doc's parameter tables (libxslt's API reference) have no header row: each
    was rendered under ``| column 1 | column 2 |`` (227 of 1,811 chunks opened so, and
    a split table's every part carried it as context)."""
    rows = "".join(f"<tr><td>param{i} :</td><td>the {i}th parameter of the call, "
                   f"described at some length so that the table must be split</td></tr>"
                   for i in range(40))
    html = (f"<html><body><main><h1>xsltApplyTemplates ()</h1><p>Applies the templates.</p>"
            f"<table>{rows}</table></main></body></html>")
    doc = chunkwise.readers.parse(html, "api.html", "html-all")
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["header"] is None and table.metadata["columns"] == ()
    assert "column 1" not in doc.text
    assert doc.text[table.start:table.end].startswith("| param0 : | the 0th parameter")
    assert [doc.text[s:e] for s, e in table.metadata["rows"]][39].startswith("| param39 : |")
    chunks = chunkwise.chunk(doc, size=120)
    assert_invariants(doc.text, chunks, 254)
    parts = [c for c in chunks if c.kind == "table"]
    assert len(parts) > 2 and all(c.context == "xsltApplyTemplates ()\n\n" for c in parts)
    assert all(c.text.startswith("| param") for c in parts)


SPHINX_TABLE = """<!doctype html><html><head><title>Options - Tool 2.1</title></head><body>
<div class="sphinxsidebar" role="navigation"><ul><li><a href="index.html">Contents</a></li>
<li><a href="install.html">Install</a></li></ul></div>
<div class="body" role="main"><section id="options"><h1>Options</h1>
<p>The options of the tool are listed in the table below, with their defaults and meaning.</p>
<table class="docutils align-default"><thead><tr class="row-odd"><th class="head"><p>Option</p></th>
<th class="head"><p>Default</p></th><th class="head"><p>Meaning</p></th></tr></thead>
<tbody><tr class="row-even"><td><p><code class="docutils literal">timeout</code></p></td><td><p>30</p></td>
<td><p>Seconds to wait for the server before giving up on the request.</p>
<p>Zero waits for ever.</p></td></tr>
<tr class="row-odd"><td><p><code class="docutils literal">retries</code></p></td><td><p>3</p></td>
<td><ul class="simple"><li><p>How many times a failed request is sent again.</p></li></ul></td></tr>
</tbody></table>
<p>Every option can also be set in the configuration file of the tool, as shown later.</p>
</section></div></body></html>"""


def test_a_table_whose_cells_are_paragraphs_is_a_table():
    """Sphinx writes every cell as ``<td><p>...</p></td>`` (and Node.js its change
    histories the same way): each cell was read as a paragraph of its own, the table
    lost ("Option", "Default", "Meaning", "timeout", "30" ... one block each)."""
    for fmt in ("html", "html-all"):
        doc = parse(SPHINX_TABLE, "options.html", fmt=fmt)
        tables = [b for b in doc.blocks if b.kind == "table"]
        assert len(tables) == 1, fmt
        text = doc.text[tables[0].start:tables[0].end]
        assert text.splitlines()[0] == "| Option | Default | Meaning |"
        assert ("| timeout | 30 | Seconds to wait for the server before giving up on the "
                "request. Zero waits for ever. |") in text
        assert "| retries | 3 | How many times a failed request is sent again. |" in text
        assert not [b for b in doc.blocks if doc.text[b.start:b.end] in ("Option", "30")]
    chunks = chunkwise.chunk(SPHINX_TABLE, format="html", doc_id="options.html")
    assert [c.kind for c in chunks].count("table") == 1
    # Node.js's history table: "| Version | Changes |", not a paragraph per cell
    from pathlib import Path

    page = Path(__file__).parent / "data" / "nodejs-api" / "string_decoder.html"
    doc = parse(page.read_bytes(), "string_decoder.html", fmt="html-all")
    texts = [doc.text[b.start:b.end] for b in doc.blocks]
    assert any(t.startswith("| Version | Changes |\n|---|---|\n| v8.0.0 |") for t in texts)
    assert "Version" not in texts and "v8.0.0" not in texts


def test_a_table_laying_out_a_page_is_walked_as_its_blocks():
    """What a data table's cell never holds: a heading, a landmark, a nested table,
    or a run of paragraphs (a page's column laid out as a table cell)."""
    prose = "".join(f"<p>Paragraph {i} of the story, with words enough to read.</p>"
                    for i in range(6))
    for cell in (f"<h2>Story</h2>{prose[:120]}", f"<section>{prose[:120]}</section>", prose,
                 f"<table><tr><td>inner</td><td>cell</td></tr></table>{prose[:120]}"):
        page = (f"<html><body><table><tr><td><a href='/'>Home</a></td><td>{cell}</td></tr>"
                f"<tr><td>x</td><td>y</td></tr></table></body></html>")
        doc = parse(page, "p.html", fmt="html-all")
        kinds = [b.kind for b in doc.blocks]
        assert "paragraph" in kinds and kinds.count("table") <= 1, cell
        assert not [b for b in doc.blocks if b.kind == "table" and "Paragraph" in
                    doc.text[b.start:b.end]], cell


def test_a_link_to_the_source_is_no_part_of_a_heading_or_a_signature():
    """Node.js's ``stream.html``: ``<h2>Stream<a class="srclink" href="...">[src]</a>``
    made every trail ``Stream [src] > ...`` and, the first heading no longer matching the
    ``<title>``, put ``Stream | Node.js v20.20.2 Documentation`` before it; Sphinx writes
    ``[source]`` after every signature documented from code."""
    page = ('<html><head><title>Stream | Node.js v20.20.2 Documentation</title></head><body>'
            '<div id="apicontent"><h2>Stream<a class="srclink" href="https://github.com/nodejs/'
            'node/blob/v20/lib/stream.js#L55">[src]</a><span><a class="mark" href="#stream" '
            'id="stream">#</a></span></h2><p>A stream is an abstract interface for working '
            'with streaming data in Node.js.</p><h3>Types of streams<span><a class="mark" '
            'href="#types">#</a></span></h3><p>There are four fundamental stream types within '
            'Node.js.</p></div></body></html>')
    doc = parse(page, "stream.html", fmt="html")
    assert doc.title == "Stream"
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == [
        "Stream", "Types of streams"]
    chunks = chunkwise.chunk(page, format="html", doc_id="stream.html")
    assert chunks and all(c.context.startswith("Stream") and "[src]" not in c.context
                          and "Node.js v20" not in c.context for c in chunks)
    sphinx = ('<html><body><div role="main"><h1>json<a class="headerlink" href="#json">¶</a></h1>'
              '<dl class="py function"><dt class="sig sig-object py" id="json.dump">'
              '<span class="pre">dump</span>(<em>obj</em>)<a class="reference internal" '
              'href="../_modules/json.html#dump"><span class="viewcode-link"><span class="pre">'
              '[source]</span></span></a><a class="headerlink" href="#json.dump">¶</a></dt>'
              '<dd><p>Serialize obj as a JSON formatted stream to fp.</p></dd></dl></div></body></html>')
    doc = parse(sphinx, "json.html", fmt="html")
    # (a signature as Sphinx shows it, a heading over its description)
    assert "dump(obj)" in [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert "[source]" not in doc.text
    # a link without an address in a heading (<a href>) is read, not a crash
    doc = parse("<html><body><h2>Usage<a href>¶</a></h2><p>Text of the usage section.</p>"
                "</body></html>", "u.html", fmt="html-all")
    assert doc.text.startswith("Usage")


MDBOOK = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{title} - The Rust Programming Language</title></head><body>
<div id="mdbook-help-container"><div id="mdbook-help-popup">
<h2 class="mdbook-help-title">Keyboard shortcuts</h2><div>
<p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p>
<p>Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book</p></div></div></div>
<nav id="mdbook-sidebar" class="sidebar"><ol class="chapter"><li><a href="ch01-00-getting-started.html">
Getting Started</a></li><li><a href="ch03-02-data-types.html">Data Types</a></li></ol></nav>
<div id="mdbook-page-wrapper" class="page-wrapper"><div class="page">
<div id="mdbook-menu-bar" class="menu-bar sticky"><div class="left-buttons"></div>
<h1 class="menu-title">The Rust Programming Language</h1><div class="right-buttons">
<a href="print.html" title="Print this book">Print</a></div></div>
<div id="mdbook-content" class="content"><main>
<h2 id="rc"><a class="header" href="#rc">{heading}</a></h2>
<p>In the majority of cases, ownership is clear: you know exactly which variable owns
a given value. However, there are cases when a single value might have multiple
owners. For example, in graph data structures, multiple edges might point to the same
node, and that node is conceptually owned by all of the edges that point to it.</p>
<h3 id="sharing"><a class="header" href="#sharing">Sharing Data</a></h3>
<p>Let's return to our cons list example. Recall that we defined it using a box, and
that both lists will share ownership of a third list through a reference count.</p>
</main><nav class="nav-wrapper" aria-label="Page navigation"><a href="ch15-03-drop.html">
Previous</a></nav></div></div></div></body></html>"""


def test_an_mdbook_page_is_its_main_element_titled_by_its_own_heading():
    """The Rust book as mdBook writes it (as rustup installs it): the book's title is an
    ``<h1>`` in the bar of buttons above every page (every trail began ``The Rust
    Programming Language > ``), a help pop-up's "Keyboard shortcuts" heading and its
    "Press ← or →" lines were kept above the text of some pages (2 of 1,926 chunks; 29
    once the title bar was chrome and the pop-up's heading came first), and
    the ``<title>``, ``Rc<T>, the Reference Counted Smart Pointer - The Rust Programming
    Language``, names the page as its first heading does, written a little apart."""
    page = MDBOOK.format(title="Rc&lt;T&gt;, the Reference Counted Smart Pointer",
                         heading="<code>Rc&lt;T&gt;</code>, the Reference-Counted Smart Pointer")
    doc = parse(page, "ch15-04-rc.html", fmt="html")
    heads = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert heads == ["Rc<T>, the Reference-Counted Smart Pointer", "Sharing Data"]
    assert doc.title == heads[0]
    for chrome in ("Keyboard shortcuts", "Press", "The Rust Programming Language", "Previous"):
        assert chrome not in doc.text
    chunks = chunkwise.chunk(page, format="html", doc_id="ch15-04-rc.html")
    assert chunks and all(c.context.startswith("Rc<T>, the Reference-Counted Smart Pointer")
                          for c in chunks)
    # the bar of buttons is chrome even where the whole page is read
    whole = parse(page, "ch15-04-rc.html", fmt="html-all")
    assert "The Rust Programming Language" not in [
        whole.text[b.start:b.end] for b in whole.blocks if b.kind == "heading"]
    # "A - Keywords - The Rust Programming Language" over "Appendix A: Keywords"
    page = MDBOOK.format(title="A - Keywords", heading="Appendix A: Keywords")
    assert parse(page, "appendix-01-keywords.html", fmt="html").title == "Appendix A: Keywords"
    # a <title> that is another name than the first heading stays whole
    page = MDBOOK.format(title="Working With Any Number of Futures",
                         heading="Yielding Control to the Runtime")
    assert parse(page, "ch17-03.html", fmt="html").title == \
        "Working With Any Number of Futures - The Rust Programming Language"


RUSTDOC = """<!DOCTYPE html><html><head><title>Vec in std::vec - Rust</title></head><body>
<nav class="sidebar"><a href="../index.html">std</a></nav><main><section id="main-content">
<div class="main-heading"><h1>Struct <span class="struct">Vec</span></h1>
<span class="sub-heading"><a class="src" href="../../src/alloc/vec/mod.rs.html#397">Source</a></span></div>
<p>A contiguous growable array type, written as <code>Vec&lt;T&gt;</code>, short for vector.</p>
<h2 id="implementations" class="section-header">Implementations<a href="#implementations" class="anchor">§</a></h2>
<details class="toggle method-toggle" open><summary><section id="method.chunks" class="method">
<a class="src rightside" href="../../src/core/slice/mod.rs.html#1022">Source</a>
<a href="#method.chunks" class="anchor">§</a><h4 class="code-header">pub fn <a href="#method.chunks"
class="fn">chunks</a>(&amp;self, chunk_size: usize) -&gt; Chunks&lt;'_, T&gt;<a href="#" class="tooltip"
data-notable-ty="Chunks&lt;'_, T&gt;">ⓘ</a></h4></section></summary>
<div class="docblock"><p>Returns an iterator over <code>chunk_size</code> elements of the slice at a
time, starting at the beginning of the slice.</p>
<h5 id="panics"><a class="doc-anchor" href="#panics">§</a>Panics</h5>
<p>Panics if <code>chunk_size</code> is zero.</p></div></details>
<details class="toggle method-toggle" open><summary><section id="method.read_to_end" class="method">
<a href="#method.read_to_end" class="anchor">§</a><h4 class="code-header">pub fn read_<wbr>to_<wbr>end(&amp;mut self)</h4>
</section></summary><div class="docblock"><p>Reads every byte until the end of the source.</p></div>
</details></section></main></body></html>"""


def test_rustdoc_items_are_headings_without_their_marks():
    """rustdoc (every crate's docs on docs.rs; the standard library as rustup installs
    it): each method's ``<h4>`` sits in a ``<summary>``, read as one paragraph ("Source §
    pub fn chunks(...)"), so no method was in any trail ("Struct Vec > Implementations >
    Panics": whose?); ``§`` permalinks and "Source" links were text (79 and 269 chunks of
    five pages); names were cut at ``<wbr>`` ("read_ to_ end")."""
    doc = parse(RUSTDOC, "struct.Vec.html", fmt="html")
    heads = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert "Struct Vec" in heads and "Panics" in heads and "pub fn read_to_end(&mut self)" in heads
    assert any(h.startswith("pub fn chunks") for h in heads)
    for mark in ("§", "Source", "ⓘ"):
        assert mark not in doc.text
    chunks = chunkwise.chunk(RUSTDOC, format="html", doc_id="struct.Vec.html", strategy="section",
                             size=64)
    panics = [c for c in chunks if "Panics if chunk_size is zero." in c.text][0]
    assert "pub fn chunks" in panics.context and panics.context.rstrip().endswith("Panics")
    # a word is no glyph: a link reading "link" in running text stays
    doc = parse('<html><body><div>See the <a href="#x">link</a> below.</div></body></html>',
                "p.html", fmt="html-all")
    assert "See the link below." in doc.text
    # a question in a <summary> (an FAQ's <details>) is a heading too
    faq = ('<html><body><main><h1>FAQ</h1><details><summary><h3>Can I cancel my order?</h3>'
           '</summary><p>Yes, within fourteen days of delivery, by writing to us.</p></details>'
           '</main></body></html>')
    doc = parse(faq, "faq.html", fmt="html-all")
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == [
        "FAQ", "Can I cancel my order?"]


def test_chrome_names_written_with_underscores_are_chrome():
    """npm's documentation (as npm installs it): every page opens with ``<section
    id="table_of_contents">`` holding ``<div id="_table_of_contents">``, read as text (89
    of 1,656 chunks were a page's list of its own sections, without a trail)."""
    page = ('<html><body><div id="banner"><div class="title">npm command-line interface</div>'
            '</div><section id="content"><header class="title"><h1><span>npm-access</span> '
            '<span class="version">@11.19.1</span></h1><span class="description">Set access '
            'level on published packages</span></header><section id="table_of_contents">'
            '<h2 id="table-of-contents">Table of contents</h2><div id="_table_of_contents"><ul>'
            '<li><a href="#synopsis">Synopsis</a></li><li><a href="#description">Description'
            '</a></li></ul></div></section><div id="_content"><h3 id="synopsis">Synopsis</h3>'
            '<pre><code>npm access list packages [&lt;user&gt;]</code></pre><h3 id="description">'
            'Description</h3><p>Used to set access controls on private packages.</p></div>'
            '</section></body></html>')
    doc = parse(page, "npm-access.html", fmt="html-all")
    assert "Table of contents" not in doc.text and doc.text.count("Synopsis") == 1
    assert [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == [
        "Synopsis", "Description"]


def test_a_texinfo_title_names_the_node_before_the_manual_in_parentheses():
    """makeinfo titles each node's page ``Closure Example (libffi: the portable foreign
    function interface library)``: every trail opened with the whole of it, before the
    page's own ``2.6 Closure Example``."""
    page = ('<html><head><title>Closure Example (libffi: the portable foreign function '
            'interface library)</title></head><body><div class="section-level-extent">'
            '<h3 class="section">2.6 Closure Example</h3><p>A trivial example that creates '
            'a new puts by binding fputs with stdout.</p></div></body></html>')
    doc = parse(page, "Closure-Example.html", fmt="html")
    assert doc.title == "2.6 Closure Example"
    chunks = chunkwise.chunk(page, format="html", doc_id="Closure-Example.html")
    assert chunks and all(c.context == "2.6 Closure Example\n\n" for c in chunks)
    # another name in the parentheses' place stays whole
    other = page.replace("<title>Closure Example (", "<title>Introduction (")
    assert (parse(other, "Introduction.html", fmt="html").title or "").startswith(
        "Introduction (libffi")


RUSTDOC_PAGES = Path(__file__).parent / "data" / "rustdoc"
BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def test_a_documentation_tools_page_is_its_main_element_whole():
    """Rust's std::collections pages (rustdoc: ``<meta name="generator"
    content="rustdoc">``): the news-tuned extractor dropped 406 of the 836 code examples
    and one-line summaries ("Gets a reference to the key in the entry."); a page a
    documentation tool made is its ``<main>`` whole, and nothing around it."""
    for name, examples in (("collections-index.html", 8), ("btree_map-OccupiedEntry.html", 8)):
        doc = read_path(RUSTDOC_PAGES / name)
        assert doc.metadata["generator"] == "rustdoc"
        assert doc.metadata["main_content"] == "landmark"
        assert sum(b.kind == "code" for b in doc.blocks) == examples
        assert "Skip to main content" not in doc.text  # (outside <main>)
        whole = read_path(RUSTDOC_PAGES / name, fmt="html-all")
        kept = {doc.text[b.start:b.end] for b in doc.blocks}
        assert {whole.text[b.start:b.end] for b in whole.blocks if b.kind != "heading"} - kept \
            == {"Skip to main content"}  # (and the sidebar's title: its only heading)
    doc = read_path(RUSTDOC_PAGES / "btree_map-OccupiedEntry.html")
    assert "Gets a reference to the key in the entry." in doc.text
    # any page's code inside its <main> is kept, whatever the extractor says (Flask's
    # quickstart lost its cookie example): the same page, no generator named
    page = (RUSTDOC_PAGES / "collections-index.html").read_text(encoding="utf-8")
    doc = parse(page.replace('<meta name="generator" content="rustdoc">', ""), "index.html",
                fmt="html")
    assert doc.metadata["main_content"] == "trafilatura"
    assert sum(b.kind == "code" for b in doc.blocks) == 8


def test_an_items_version_goes_with_its_heading_not_the_section_before():
    """rustdoc puts each item's stable-since version (``1.10.0 · Source``) in the
    item's ``<section>`` before its ``<h4>``: it ended the section before ("...
    assert_eq!(o.get(), &12);\\n}\\n\\n1.0.0 ·": 3,998 of the 7,170 chunks of
    std::collections), and the module path above the ``<h1>`` was the page's first
    chunk ("std :: collections :: btree_map"). Loose text opening a heading's element
    follows the heading; a letterless label under a heading with no other text joins
    the next section, as a bare heading does."""

    doc = read_path(RUSTDOC_PAGES / "btree_map-OccupiedEntry.html")
    blocks = [(b.kind, doc.text[b.start:b.end]) for b in doc.blocks]
    at = blocks.index(("heading", "pub fn key(&self) -> &K"))
    assert blocks[at + 1] == ("paragraph", "1.10.0")  # (and no "·" left of "· Source")
    assert blocks[at + 2] == ("paragraph", "Gets a reference to the key in the entry.")
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert chunks[0].text.startswith("Struct OccupiedEntry\n\nstd::collections::btree_map")
    assert not [c.text for c in chunks if re.search(r"\d+\.\d+\.\d+\s*·?\s*$", c.text)]


def test_a_short_paragraph_opening_a_section_is_no_label():
    """Only loose text moves after the heading its element opens with (a kicker, a
    version); a description's first paragraph (``<p>``) stays before the "Examples"
    heading that follows it in the same ``<div>``."""
    page = ('<html><body><main><article><span class="kicker">Earnings</span><h1>Sales '
            'miss, shares fall</h1><p>The retailer said on Tuesday that sales fell.</p>'
            '<div class="docblock"><p>Clears the map.</p><h5>Examples</h5><pre>a.clear();'
            '</pre></div></article></main></body></html>')
    text = parse(page, "p.html", fmt="html-all").text
    assert text.startswith("Sales miss, shares fall\n\nEarnings\n\nThe retailer")
    assert "Clears the map.\n\nExamples\n\na.clear();" in text


def test_line_numbers_are_no_part_of_code():
    """rustdoc's source pages (``src/std/collections/hash/set.rs.html``) number each
    line with ``<a href=#1 id=1 data-nosnippet>1</a>`` inside the ``<pre>``: the code
    read "1#[cfg(test)]\\n2mod tests;"; Pygments' inline numbers likewise."""
    page = ('<html><head><meta name="generator" content="rustdoc"></head><body><main>'
            '<h1>set.rs</h1><pre class="rust"><code><a href=#1 id=1 data-nosnippet>1</a>'
            '<span class="attr">#[cfg(test)]\n<a href=#2 id=2 data-nosnippet>2</a></span>'
            '<span class="kw">mod </span>tests;\n<a href=#3 id=3 data-nosnippet>3</a>\n'
            '<a href=#4 id=4 data-nosnippet>4</a><span class="kw">use </span>hashbrown::hash_set '
            '<span class="kw">as </span>base;</code></pre>'
            '<pre><span class="linenos">1</span>import os\n<span class="linenos">2</span>'
            'print(os.sep)</pre></main></body></html>')
    doc = parse(page, "set.rs.html", fmt="html")
    code = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "code"]
    assert code == ["#[cfg(test)]\nmod tests;\n\nuse hashbrown::hash_set as base;",
                    "import os\nprint(os.sep)"]


def test_a_japanese_page_keeps_its_text_and_drops_the_site_around_it():
    """Rust by Example in Japanese (mdBook, as rustup installs it): the page's text
    was matched to the extractor's by runs of letters, and the walk read
    ``<code>cargo</code>はRust`` as "cargo はRust" where the extractor reads
    "cargoはRust" (as the walk does now): no Japanese paragraph matched (18 % of the book's text lost), none
    counted as prose, and the keyboard-help pop-up outside ``<main>`` was kept (14
    pages). Each character of a script written without spaces is a word of its own."""
    page = ('<html lang="ja"><head><title>Cargo - Rust By Example 日本語版</title></head><body>'
            '<div id="mdbook-help-container"><div id="mdbook-help-popup"><h2>Keyboard shortcuts'
            '</h2><div><p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p>'
            '<p>Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book</p></div></div></div>'
            '<div id="content" class="content"><main><h1 id="cargo">Cargo</h1>'
            '<p><code>cargo</code>はRustの公式パッケージ管理ツールです。とても便利な機能が多くあり、'
            'コードの品質や開発速度の向上に役立ちます。以下はその例です。</p><ul>'
            '<li>依存関係の管理と<a href="https://crates.io">crates.io</a>との統合</li>'
            '<li>ユニットテスト</li><li>ベンチマーク</li></ul><p>この章では、簡単な基本機能を説明します。'
            '包括的なドキュメントは<a href="https://doc.rust-lang.org/cargo/">The Cargo Book</a>'
            'を参照してください。</p></main></div></body></html>')
    doc = parse(page, "cargo.html", fmt="html")
    assert doc.text.startswith("Cargo\n\ncargoはRustの公式パッケージ管理ツールです。")
    assert "依存関係の管理とcrates.ioとの統合" in doc.text and "The Cargo Bookを参照" in doc.text
    assert "Keyboard shortcuts" not in doc.text and "Press" not in doc.text


def test_text_in_decomposed_unicode_is_kept_by_the_main_content_extraction():
    """A paragraph whose letters carry combining accents ("café" typed as "cafe" and
    U+0301, as macOS and some editors keep it; Vietnamese; Korean jamo; a CJK
    compatibility ideograph) was matched against the extractor's text, which is NFC:
    none of its words was found, and the paragraph was left out of the page."""
    paragraphs = ["The caf\u00e9 opens at eight.", "The cafe\u0301 closes at noon on Sundays.",
                  "Vie\u0323\u0302t Nam uses decomposed marks here.",
                  "\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 text in jamo.",
                  "The sign read \uf900 alone."]
    page = ("<html><head><title>Notes</title></head><body><nav><a href='/'>Home</a> "
            "<a href='/about'>About</a></nav><article><h1>Notes</h1>"
            + "".join(f"<p>{p}</p>" for p in paragraphs) + "</article><footer>Contact us"
            "</footer></body></html>")
    doc = parse(page, "notes.html", fmt="html")
    assert doc.metadata["main_content"] == "trafilatura"
    assert [doc.text[b.start:b.end] for b in doc.blocks] == ["Notes", *paragraphs]


def test_what_the_page_hides_is_no_text():
    """rustdoc opens every item's text with ``<summary class="hideme"><span>Expand
    description</span></summary>``, hidden once open: it led the first chunk of every
    item page. An element with the ``hidden`` attribute or a class that hides it is no
    text; one kept for screen readers is (GitHub's footnotes' ``sr-only`` heading)."""
    doc = read_path(RUSTDOC_PAGES / "btree_map-OccupiedEntry.html")
    assert "Expand description" not in doc.text
    assert "A view into an occupied entry in a BTreeMap" in doc.text
    page = ('<html><body><main><h1>Title</h1><p>Shown.</p><div hidden>Not shown.</div>'
            '<p class="d-none">Nor this.</p><section class="footnotes"><h2 class="sr-only">'
            'Footnotes</h2><p>The note.</p></section></main></body></html>')
    assert parse(page, "p.html", fmt="html-all").text == \
        "Title\n\nShown.\n\nFootnotes\n\nThe note."


def _mdbook_page(container: str, main: str) -> str:
    return ('<html lang="en"><head><title>The Cargo Book</title></head><body>'
            f'<div id="{container}"><div><h2>Keyboard shortcuts</h2><div>'
            '<p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p>'
            '<p>Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book</p>'
            '<p>Press <kbd>?</kbd> to show this help</p><p>Press <kbd>Esc</kbd> to hide this '
            f'help</p></div></div></div><div id="content" class="content"><main>{main}</main>'
            '</div></body></html>')


def test_an_extraction_that_keeps_nothing_of_the_main_element_is_overruled():
    """The Cargo book's command indexes (mdBook: a heading over a list of links) came
    out as the keyboard-help pop-up beside ``<main>`` and nothing else: an extraction
    that keeps nothing inside the page's ``<main>``/``<article>`` took the wrong part;
    mdBook's pop-up (``mdbook-help-container``) is chrome, and was kept beside a page's
    own heading and sentence (the 2024 edition guide's Rustfmt page)."""
    commands = "<h1>Build Commands</h1><ul>" + "".join(
        f'<li><a href="cargo-{c}.html">cargo {c}</a></li>'
        for c in ("bench", "build", "check", "clean", "doc", "fetch", "fix", "run", "test")) + "</ul>"
    text = parse(_mdbook_page("help-container", commands), "build-commands.html", fmt="html").text
    assert text.startswith("Build Commands\n\ncargo bench") and "Keyboard" not in text
    short = ("<h1>Rustfmt</h1><p>The following chapters detail changes to Rustfmt in the 2024 "
             "Edition.</p>")
    text = parse(_mdbook_page("mdbook-help-container", short), "rustfmt.html", fmt="html").text
    assert text == "Rustfmt\n\nThe following chapters detail changes to Rustfmt in the 2024 Edition."


def test_a_heading_left_without_its_text_ends_no_page():
    """The Cargo book's command pages end with "SEE ALSO" over a line of links: the
    extractor keeps the heading and leaves the links out, and the heading was a chunk
    of its own (one per command page)."""
    doc = read_path(RUSTDOC_PAGES / "cargo-fetch.html")
    assert doc.text.endswith("Fetch all dependencies:\n\ncargo fetch")
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert all(c.text != "SEE ALSO" for c in chunks)


def test_a_read_more_link_is_no_text():
    """rustdoc ends every trait method's summary with a "Read more" link: 32,166 of
    the 89,522 chunks of Rust's std pages held it (BM25 then found "read" in a third of
    them); a news site's teasers end so too. The words of a link that only says so are
    no text; a link whose words say more stays."""
    grep = "Read more" in (RUSTDOC_PAGES / "btree_map-OccupiedEntry.html").read_text(encoding="utf-8")
    doc = read_path(RUSTDOC_PAGES / "btree_map-OccupiedEntry.html")
    assert grep and "Read more" not in doc.text
    assert "Formats the value using the given formatter." in doc.text
    page = ('<html><body><main><h1>News</h1><p>Shares fell. <a href="/a">Read more »</a></p>'
            '<p>See <a href="/b">read more about the reasons</a> here.</p></main></body></html>')
    assert parse(page, "n.html", fmt="html-all").text == \
        "News\n\nShares fell.\n\nSee read more about the reasons here."



def test_a_page_declaring_utf8_in_latin1_bytes_is_guessed_under_encoding_auto():
    page = "<meta charset=\"utf-8\"><p>Crème brûlée, café au lait, déjà vu, naïve</p>".encode("latin-1")
    with pytest.raises(chunkwise.InputError, match="not valid UTF-8"):
        parse(page, "menu.html", "html")
    # (guessed from its bytes, as a page declaring nothing is)
    assert "café au lait" in parse(page, "menu.html", "html", encoding="auto").text


def test_sphinx_object_descriptions_in_html_are_headings_over_their_bodies():
    """A Sphinx page's object descriptions (``<dl class="py data"><dt class="sig
    sig-object py">SECRET_KEY</dt><dd>...``; a method's inside its class's; before
    Sphinx 4 a ``<dt>`` holding a ``descname``) are headings one level below the
    section (or the object) they are in, their signature as Sphinx shows it, without
    the spaces between its spans or its permalink and source link: a configuration
    page's entries were paragraphs, the name of each alone on a line under the
    section's heading. A glossary's or a field list's terms stay paragraphs. (The
    markup is Sphinx 9's, from building Flask's pages.)"""
    sig = ('<dt class="sig sig-object py" id="{id}">{pre}<span class="sig-name descname">'
           '<span class="pre">{name}</span></span>{params}<a class="headerlink" href="#{id}" '
           'title="Link to this definition">¶</a></dt>')
    page = (
        '<html><head><meta name="generator" content="Docutils 0.21.2: https://docutils.'
        'sourceforge.io/" /></head><body><div class="body" role="main">'
        '<section><h1>API<a class="headerlink" href="#api">¶</a></h1>'
        '<section><h2>Configuration</h2><p>Values Flask reads.</p>'
        '<dl class="py data">' + sig.format(id="SECRET_KEY", pre="", name="SECRET_KEY", params="")
        + '<dd><p>A secret key used for signing the session cookie.</p></dd></dl>'
        '<dl class="py class">' + sig.format(
            id="flask.Flask", name="Flask", params="",
            pre='<span class="property"><span class="k"><span class="pre">class</span></span>'
                '<span class="w"> </span></span><span class="sig-prename descclassname">'
                '<span class="pre">flask.</span></span>')
        + '<dd><p>The application object.</p><dl class="py method">' + sig.format(
            id="flask.Flask.route", pre="", name="route",
            params='<span class="sig-paren">(</span><em class="sig-param"><span class="n">'
                   '<span class="pre">rule</span></span></em>, <em class="sig-param">'
                   '<span class="o"><span class="pre">**</span></span><span class="n">'
                   '<span class="pre">options</span></span></em><span class="sig-paren">)'
                   '</span><a class="reference internal" href="_modules/flask/app.html">'
                   '<span class="viewcode-link"><span class="pre">[source]</span></span></a>')
        + '<dd><p>Decorate a view function to register it.</p><dl class="field-list simple">'
        '<dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd">'
        '<p><strong>rule</strong> – The URL rule.</p></dd></dl></dd></dl></dd></dl>'
        '<dl class="glossary simple"><dt id="term-view">view</dt><dd><p>A function.</p></dd></dl>'
        '<dl class="function"><dt id="old.send"><code class="descname">send</code>'
        '<span class="sig-paren">(</span><em>data</em><span class="sig-paren">)</span></dt>'
        '<dd><p>Send data, as Sphinx 3 wrote it.</p></dd></dl>'
        '</section></section></div></body></html>')
    doc = parse(page, "api.html")
    text = doc.text

    def block(start: str):
        return block_starting(doc, start)

    assert block("SECRET_KEY").kind == "heading" and block("SECRET_KEY").level == 3
    assert block("A secret key").headings == ("API", "Configuration", "SECRET_KEY")
    assert block("class flask.Flask").level == 3
    assert block("The application object.").headings[-1] == "class flask.Flask"
    assert block("route(rule, **options)").level == 4
    assert block("Decorate a view").headings == (
        "API", "Configuration", "class flask.Flask", "route(rule, **options)")
    assert "Parameters: rule – The URL rule." in text  # (a field list stays text)
    assert block("view").kind == "paragraph"  # a glossary's term is no object
    assert block("send(data)").kind == "heading"
    assert block("Send data").headings[-1] == "send(data)"
    assert "¶" not in text and "[source]" not in text


def test_an_inline_elements_text_runs_on_with_the_text_around_it():
    """A browser puts no space around ``<code>``, ``<em>``, ``<a>`` or ``<span>``: the
    walk read a space between every element's text, "a str .", "un safe", "( g )",
    "PUC-Rio ," (1,136 times in the 18 HTML pages of the evaluation sets, in every
    chunk of Flask's Sphinx pages), and Sphinx's field lists "Parameters : rule". A
    block inside a text block (a ``<dd>``'s paragraphs, a cell's ``<div>``s) and a
    superscript (``2<sup>32</sup>``) stay apart; a space between two inline elements
    stays."""
    page = ('<html><body><main><h1><code>Rc&lt;T&gt;</code>, the Pointer<a class="headerlink" '
            'href="#rc">¶</a></h1><p>The value is a <code>str</code>. It can be <em>bold</em>, '
            'or <a href="x">linked</a>; see <b>this</b>!</p><p>Call <code>f()</code>, then '
            '(<code>g</code>) it: <b>un</b>safe, <em>a</em> <b>b</b>.</p>'
            '<dl><dt><code>x</code>:</dt><dd><p>First.</p><p>Second.</p></dd></dl>'
            '<blockquote><p>One.</p><p>Two.</p></blockquote>'
            '<div>Loose <code>text</code>. <span>c</span> <span>d</span>, <span>e</span></div>'
            '<p>Limit 2<sup>32</sup> bytes, H<sub>2</sub>O.</p>'
            '<table><tr><th>A</th><th>B</th></tr><tr><td><div>one</div><div>two</div></td>'
            '<td><code>x</code>.</td></tr></table><ul><li><code>a</code>: first</li></ul>'
            '</main></body></html>')
    doc = parse(page, "p.html", fmt="html-all")
    assert doc.text.split("\n\n") == [
        "Rc<T>, the Pointer",
        "The value is a str. It can be bold, or linked; see this!",
        "Call f(), then (g) it: unsafe, a b.",
        "x:", "First. Second.", "One. Two.", "Loose text. c d, e",
        "Limit 2 32 bytes, H2O.",
        "| A | B |\n|---|---|\n| one two | x. |", "a: first"]
    # real pages: Flask's configuration page as Sphinx 9 built it, Lua's readme
    config = read_path(BENCHMARKS / "sphinx_html_eval/docs/config.html").text
    assert "a more specific version of TRAP_HTTP_EXCEPTIONS. If unset," in config
    # (one space before a stop is the page's own: "start with a dot <code>.</code> to")
    assert [m.group() for m in re.finditer(r"\w [.,;:)](?=\s)", config)] == ["t ."]
    readme = read_path(BENCHMARKS / "docs_heldout/docs/lua-5.3-readme.html").text
    assert "developed by a team at PUC-Rio, the Pontifical" in readme
