"""Org mode: headlines, the header's keywords, blocks, tables; offsets into the file."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path, sniff_format
from chunkwise.readers.org import headline_text

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "org"


def _held(doc):
    first = doc.blocks[0] if doc.blocks else None
    return first.end if first is not None and first.kind == "front_matter" \
        and first.metadata.get("held") else 0


def test_a_doom_emacs_modules_readme_has_its_headlines_blocks_and_tables():
    """Doom Emacs documents every module in Org: read as plain text, ``** macOS``
    was a line of a paragraph (no chunk said which system a command was for), the
    ``#+title:`` lines a chunk of their own, and a ``#+begin_src`` block prose a cut
    could fall inside."""
    path = DATA / "doom-dired-README.org"
    assert sniff_format(path.read_bytes(), path.name) == "org"
    doc = read_path(path)
    assert doc.metadata["format"] == "org"
    assert doc.title == ":emacs dired"
    assert doc.metadata["subtitle"] == "Making dired pretty [functional]"
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads[:6] == [(1, "Description"), (2, "Maintainers"), (2, "Module flags"),
                         (2, "Packages"), (2, "TODO Hacks"), (2, "TODO Changelog")]
    assert (2, "Debian-based") in heads and (3, "Basics") in heads
    codes = [b for b in doc.blocks if b.kind == "code"]
    assert len(codes) == 6 and all(doc.text[b.start:b.end].endswith("#+end_src") for b in codes)
    assert [b.metadata.get("language") for b in codes] == ["bash"] * 5 + ["emacs-lisp"]
    assert sum(b.kind == "quote" for b in doc.blocks) == 2
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [t.metadata["columns"] for t in tables][:2] == [("Keybind", "Description"),
                                                           ("Command", "Description")]
    assert tables[-1].metadata["columns"] == ()  # no rule under its first row: no header
    assert tables[0].metadata["cells"][0] == ("[[kbd:][SPC f d]]", "Find directory with dired")
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254, held=_held(doc))
    assert all("#+title:" not in c.text for c in chunks)  # the header is metadata
    apt = by_text(chunks, "$ apt install fd-find")[0]
    assert apt.headings == ("Installation", "Debian-based")
    assert apt.context.startswith(":emacs dired > Installation > Debian-based")
    assert "#+begin_src bash" in apt.text and "#+end_src" in apt.text  # whole
    assert {c.metadata["strategy"] for c in chunks} == {"section"}


def test_headlines_keywords_blocks_drawers_and_tables():
    text = ("#+TITLE: Research notes\n#+AUTHOR: A. Writer\n#+FILETAGS: :lab:\n"
            "#+OPTIONS: toc:nil\n#+OPTIONS: num:nil\n\n"
            "* TODO [#A] Run the assay [1/2] :lab:urgent:\n"
            "SCHEDULED: <2026-12-07 Mon>\n:PROPERTIES:\n:ID: 5b1c9e3e\n:END:\n"
            "The assay needs the buffer at pH 7.4.\n\n"
            "#+NAME: prepare\n#+BEGIN_SRC python :results output\nprint('* not a headline')\n"
            "#+END_SRC\n\n"
            ": $ make assay\n: done\n\n"
            "#+CAPTION: Readings\n| sample | value |\n|--------+-------|\n| a | 1 |\n|--------+-------|\n"
            "| b | 2 |\n#+TBLFM: $2=$1*2\n\n"
            "** COMMENT Draft [[https://example.org/x][the protocol]]\n"
            "#+begin_quote\nMeasure twice.\n#+end_quote\n\n"
            "#+BEGIN_SRC sh\nnever closed, so no block\n"
            "* Results =final=\nAll good.\n")
    doc = parse(text, "notes.org")
    assert doc.title == "Research notes"
    assert doc.metadata["author"] == "A. Writer" and doc.metadata["options"] == ["toc:nil", "num:nil"]
    assert _held(doc) == text.index("\n\n* TODO")  # every header line is metadata
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(1, "TODO Run the assay"), (2, "Draft the protocol"), (1, "Results final")]
    first = next(b for b in doc.blocks if b.kind == "heading")
    assert text[first.start:first.end].endswith(":END:")  # planning line and drawer with it
    kinds = [(b.kind, text[b.start:b.end].split("\n")[0]) for b in doc.blocks[1:]]
    assert kinds == [("heading", "* TODO [#A] Run the assay [1/2] :lab:urgent:"),
                     ("paragraph", "The assay needs the buffer at pH 7.4."),
                     ("code", "#+NAME: prepare"), ("code", ": $ make assay"),
                     ("table", "#+CAPTION: Readings"),
                     ("heading", "** COMMENT Draft [[https://example.org/x][the protocol]]"),
                     ("quote", "#+begin_quote"), ("paragraph", "#+BEGIN_SRC sh"),
                     ("heading", "* Results =final="), ("paragraph", "All good.")]
    code = next(b for b in doc.blocks if b.kind == "code")
    assert code.metadata["language"] == "python"
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.metadata["columns"] == ("sample", "value")
    assert table.metadata["cells"] == (("a", "1"), ("b", "2"))
    assert text[table.start:table.end].endswith("#+TBLFM: $2=$1*2")
    for size in (24, 64):  # (a table's row group with its header may take up to 254)
        chunks = chunkwise.chunk(doc, strategy="section", size=size)
        assert_invariants(text, chunks, 254, held=_held(doc))
        assert all(c.token_count <= size for c in chunks if c.kind != "table")
    # a named block right under the header is the body's (its name is no metadata);
    # a title over two lines is one, as Org joins them
    named = parse("#+TITLE: Babel\n#+TITLE: tests\n#+FORMAT: x\n\n#+NAME: showvar\n"
                  "#+BEGIN_SRC emacs-lisp\n(+ 1 2)\n#+END_SRC\n", "b.org")
    assert named.title == "Babel tests" and named.metadata["format"] == "org"
    (code,) = [b for b in named.blocks if b.kind == "code"]
    assert named.text[code.start:code.end].startswith("#+NAME: showvar\n#+BEGIN_SRC")
    assert code.metadata["language"] == "emacs-lisp" and "name" not in named.metadata
    # an inline task (15 stars) ends at its END line; a byte-order mark hides no header
    task = parse("\ufeff#+TITLE: Tasks\n* Parent\ntext\n*************** TODO Inline\nbody\n"
                 "*************** END\nmore\n", "t.org")
    assert task.title == "Tasks"
    assert [(task.text[b.start:b.end].split("\n")[0], b.headings) for b in task.blocks[1:]] == [
        ("* Parent", ("Parent",)), ("text", ("Parent",)),
        ("*************** TODO Inline", ("Parent", "TODO Inline")), ("body", ("Parent", "TODO Inline")),
        ("more", ("Parent",))]
    # a comment among the header's lines: the header stays text (no word of it lost)
    commented = parse("#+TITLE: T\n# a note\n\n* H\nBody.\n", "c.org")
    assert commented.title == "T" and _held(commented) == 0
    assert_invariants(commented.text, chunkwise.chunk(commented), 254)


def test_an_org_roam_notes_property_drawer_and_title_are_metadata():
    """org-roam opens every note with a property drawer holding its id, then its
    title: both metadata, the note's body its chunks, the title their trail."""
    text = (":PROPERTIES:\n:ID:       8d0c3c64-1f0e-4c2b-9a54-5a0f2b0c7e11\n:END:\n"
            "#+title: Zettelkasten\n\nA note links to other notes by their id.\n")
    doc = parse(text, "20261206-zettelkasten.org")
    assert doc.title == "Zettelkasten"
    assert doc.metadata["properties"]["ID"] == "8d0c3c64-1f0e-4c2b-9a54-5a0f2b0c7e11"
    (chunk,) = chunkwise.chunk(doc)
    assert chunk.text == "A note links to other notes by their id."
    assert chunk.context.startswith("Zettelkasten")
    # the metadata every chunk carries is written as JSON (the drawer's mapping was not)
    row = json.loads(json.dumps(chunk.to_dict()))
    assert row["metadata"]["doc"]["properties"] == {"ID": "8d0c3c64-1f0e-4c2b-9a54-5a0f2b0c7e11"}


@pytest.mark.timeout(60)
def test_thousands_of_unclosed_blocks_are_one_paragraph_not_a_hang():
    """Each ``#+BEGIN_SRC`` no ``#+END_SRC`` closes was searched to the next headline
    anew: 20,000 of them took 84 s. A search that found no end says so for every
    block of that name opened before where it stopped."""
    text = "#+BEGIN_SRC sh\n" * 20_000 + "* Next\n#+begin_src sh\nls\n#+end_src\n"
    doc = parse(text, "unclosed.org")
    assert [b.kind for b in doc.blocks] == ["paragraph", "heading", "code"]
    assert_invariants(text, chunkwise.chunk(doc), 254)
    # long runs in a line: spaces before a value (1.5 s for 20 kB: a lazy match went
    # back over every space), "[[" and "=" never closed (25 s and 11 s)
    for line in ("* a" + " " * 50_000 + "b :tag:", "#+TITLE: a" + " " * 50_000 + "b",
                 "* " + "[[a" * 50_000, "* " + "=a " * 50_000, "#+BEGIN_SRC a" + " " * 50_000 + "b"):
        doc = parse(line + "\n", "long.org")
        assert doc.blocks
    assert headline_text("a" + " " * 50_000 + "b :tag:") == "a b"


def test_a_list_item_is_a_block_with_the_lines_under_it():
    """A list's items are blocks (as Markdown's are): the section packer cuts between
    items before it cuts inside one; a deeper item and a line indented under an
    item are that item's, a line indented no further ends it; ``*`` is a bullet only
    indented (at the line's start it is a headline)."""
    text = ("* Module flags\nThis module offers:\n- +lsp ::\n  Enable LSP support.\n  - needs a server\n"
            "- +tree-sitter :: better highlighting\n+ plus bullet\n1. numbered\n   more of it\n"
            "After the list.\n\n * star bullet\n")
    doc = parse(text, "flags.org")
    assert [(b.kind, text[b.start:b.end]) for b in doc.blocks] == [
        ("heading", "* Module flags"), ("paragraph", "This module offers:"),
        ("list_item", "- +lsp ::\n  Enable LSP support.\n  - needs a server"),
        ("list_item", "- +tree-sitter :: better highlighting"), ("list_item", "+ plus bullet"),
        ("list_item", "1. numbered\n   more of it"), ("paragraph", "After the list."),
        ("list_item", " * star bullet")]
    assert all(b.headings == ("Module flags",) for b in doc.blocks)
    assert_invariants(text, chunkwise.chunk(doc, strategy="section", size=16), 254)


def test_headline_text_is_what_orgs_export_shows():
    assert headline_text("TODO [#B] Call the lab [2/3] :work:phone:") == "TODO Call the lab"
    assert headline_text("DONE Ship it [100%]") == "DONE Ship it"
    assert headline_text("Use =setq= with ~M-x~ and [[https://gnu.org][GNU]]") == "Use setq with M-x and GNU"
    assert headline_text("See [[file:other.org]]") == "See file:other.org"
    assert headline_text("a :: b") == "a :: b"  # a description list's separator, no tags
    # code holding the other mark (a question of Doom's FAQ)
    assert headline_text('"The directory =~/.emacs.d/server= is unsafe" error') == \
        '"The directory ~/.emacs.d/server is unsafe" error'


_WORDS = st.from_regex(r"[A-Z][a-z]{1,8}( [a-z]{1,8}){0,4}", fullmatch=True)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.just("headline"), st.integers(1, 4), _WORDS),
    st.tuples(st.just("para"), st.just(0), _WORDS.map(lambda w: w + " " + w.lower() + ".")),
    st.tuples(st.just("src"), st.just(0), st.from_regex(r"\* [a-z]{1,6} = [0-9]{1,3}", fullmatch=True)),
    st.tuples(st.just("table"), st.integers(1, 3), _WORDS),
    st.tuples(st.just("fixed"), st.just(0), _WORDS)), min_size=1, max_size=12),
    st.booleans())
def test_org_property(parts, header):
    """Generated Org documents: each headline a heading of its level, a source block's
    lines (escaped ``,*`` as Org writes them) no headline, a table a table (its first
    row over a rule its header), fixed-width lines code, and chunks that keep the
    invariants, the header (when there is one) metadata."""
    out = ["#+TITLE: Generated\n#+AUTHOR: Test"] if header else []
    for kind, level, body in parts:
        out.append(f"{'*' * level} {body}" if kind == "headline" else
                   f"#+BEGIN_SRC python\n,{body}\n#+END_SRC" if kind == "src" else
                   f": {body}" if kind == "fixed" else
                   "| " + " | ".join(f"h{i}" for i in range(level + 1)) + " |\n|---|\n" + "\n".join(
                       f"| {body} {r} | " + " | ".join(str(r) * (i + 1) for i in range(level)) + " |"
                       for r in range(3)) if kind == "table" else body)
    text = "\n\n".join(out) + "\n"
    doc = parse(text, "gen.org")
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(level, body) for kind, level, body in parts if kind == "headline"]
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [(t.metadata["columns"], len(t.metadata["cells"])) for t in tables] == [
        (tuple(f"h{i}" for i in range(level + 1)), 3) for kind, level, _ in parts if kind == "table"]
    assert sum(b.kind == "code" for b in doc.blocks) == sum(k in ("src", "fixed") for k, _, _ in parts)
    assert doc.title == ("Generated" if header else None)
    chunks = chunkwise.chunk(doc, strategy="section", size=48)
    assert_invariants(text, chunks, 254, held=_held(doc))
    assert all(c.token_count <= 48 for c in chunks if c.kind != "table")
