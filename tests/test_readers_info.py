"""GNU Info manuals (``/usr/share/info``): nodes' titles as headings under the
manual's, their text as paragraphs, list items and examples; navigation left out."""

import gzip
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import read_path, sniff_format

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "info"


def test_gzips_manual_reads_as_its_nodes_without_navigation(tmp_path):
    """Read as text, an Info file with an index was refused as binary (the index
    markers hold NUL bytes: ``grep.info.gz``, ``coreutils.info.gz``), and one without
    kept every node header, menu and tag-table line as content."""
    doc = read_path(DATA / "gzip.info.gz")
    assert doc.metadata["format"] == "info" and doc.metadata["nodes"] == 9  # not the index
    assert doc.title == "GNU Gzip: General file (de)compression"
    for navigation in ("File: gzip.info", "Node: ", "* Menu:", "Tag Table", "\x00", "\x1f",
                       "produced by makeinfo", "INFO-DIR-SECTION", "Concept index"):
        assert navigation not in doc.text, navigation
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads[:3] == [(1, doc.title), (2, "1 Overview"), (2, "2 Sample output")]
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert {c.metadata["strategy"] for c in chunks} == {"section"}  # the GFDL makes no contract
    stdout = by_text(chunks, "Write output on standard output; keep original files")[0]
    assert stdout.headings == (doc.title, "3 Invoking ‘gzip’")
    item = next(b for b in doc.blocks if doc.text[b.start:b.end].startswith("‘--stdout’"))
    assert item.kind == "list_item"  # a term, its description indented under it
    example = next(b for b in doc.blocks if doc.text[b.start:b.end] == "gzip -c file1 file2 > foo.gz")
    assert example.kind == "code"
    # nested prose (the licence's numbered clauses) is prose, not an example
    purpose = next(b for b in doc.blocks
                   if doc.text[b.start:b.end].startswith("The purpose of this License"))
    assert purpose.kind == "paragraph"
    # no text of a node is lost: every word of the Overview node is in the document
    raw = gzip.decompress((DATA / "gzip.info.gz").read_bytes()).decode()
    overview = raw.split("\x1f\n")[2].split("\n", 1)[1]
    assert overview.lstrip().startswith("1 Overview")
    words = {w for w in overview.split() if w.strip("*")}  # the title's underline aside
    assert words <= set(doc.text.split())


def test_found_by_content_split_manuals_tabs_and_codings(tmp_path):
    node = ("\x1f\nFile: tool.info,  Node: {name},  Next: B,  Up: Top\n\n{title}\n{rule}\n\n"
            "{body}\n")
    part = ("This is tool.info, produced by makeinfo version 7.0 from tool.texi.\n\n"
            + node.format(name="Usage", title="2 Usage", rule="*" * 7,
                          body="Run 'tool' on a file.  Caf\xe9 au lait.\n\n* Menu:\n\n* A::  a")
            + "\x1f\nLocal Variables:\ncoding: latin-1\nEnd:\n")
    path = tmp_path / "tool.info-1"  # a part of a split manual: no extension of its own
    path.write_bytes(part.encode("latin-1"))
    assert sniff_format(path.read_bytes(), path.name) == "info"
    doc = read_path(path)
    assert doc.text == "2 Usage\n\nRun 'tool' on a file.  Café au lait."  # as latin-1
    assert doc.blocks[0].headings == ("tool", "2 Usage")  # the manual's name above
    crlf = tmp_path / "crlf.info"
    crlf.write_bytes(part.replace("\n", "\r\n").encode("latin-1"))
    assert read_path(crlf).text == doc.text
    main = tmp_path / "tool.info"  # a split manual's main file: the list of its parts
    main.write_text("This is tool.info, produced by makeinfo version 7.0 from tool.texi.\n\n"
                    "\x1f\nIndirect:\ntool.info-1: 120\n\x1f\nTag Table:\n(Indirect)\n"
                    "Node: Top\x7f120\n\x1f\nEnd Tag Table\n")
    empty = read_path(main)
    assert empty.text == "" and chunkwise.chunk(empty) == []
    directory = tmp_path / "dir"  # /usr/share/info/dir: tabs, not commas, in its header
    directory.write_text("-*- Text -*-\nThe top.\n\x1f\nFile: dir\tNode: Top\tThe top\n"
                         "  This is the Directory node.\n\n* Menu:\n\nBasics\n* ls: (ls).\n")
    assert read_path(directory).text == "This is the Directory node."
    gz = tmp_path / "tool.info.gz"
    gz.write_bytes(gzip.compress(part.encode("latin-1")))
    assert read_path(gz).text == doc.text
    (tmp_path / "notes").write_text("This is a note, produced by hand.\n")
    assert sniff_format((tmp_path / "notes").read_bytes(), "notes") == "text"


def test_a_folder_of_info_files_is_read_not_skipped_as_binary(tmp_path):
    (tmp_path / "gzip.info.gz").write_bytes((DATA / "gzip.info.gz").read_bytes())
    small = tmp_path / "tiny.info"  # its index's NUL bytes within the first 8 KB
    small.write_bytes(b"\x1f\nFile: tiny.info,  Node: Top,  Up: (dir)\n\nTiny\n****\n\n"
                      b"A tiny manual.\n\x1f\nFile: tiny.info,  Node: Index\n\nIndex\n*****\n\n"
                      b"\x00\x08[index\x00\x08]\n* Menu:\n\n* tiny:  Top.  (line 3)\n")
    chunks = chunkwise.chunk(tmp_path)
    names = {c.doc_id.rsplit("/", 1)[-1] for c in chunks}
    assert names == {"gzip.info.gz", "tiny.info"}
    tiny = [c for c in chunks if c.doc_id.endswith("tiny.info")]
    assert [c.text for c in tiny] == ["Tiny\n\nA tiny manual."]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["\x1f", "File: m.info,  Node: Top,  Up: (dir)", "File: m.info\tNode: X",
                     "Title", "*****", "=====", "-----", "* Menu:", "* A::  a.", "",
                     "     $ example --flag", "‘-x’", "     Describe the option.",
                     "\x00\x08[index\x00\x08]", "Tag Table:", "coding: utf-8", "   • item"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30)),
    max_size=30))
def test_any_info_shaped_text_reads_or_is_one_clear_error(lines):
    from chunkwise.readers.info import parse_info

    data = "\n".join(lines).encode()
    try:
        doc = parse_info(data, "m.info", "m.info")
    except InputError as exc:
        assert "m.info" in str(exc)
        return
    for b in doc.blocks:
        assert doc.text[b.start:b.end].strip()
    assert "\x1f" not in doc.text and "\x00" not in doc.text  # separators, cookies
    assert_invariants(doc.text, chunkwise.chunk(doc, strategy="section", size=48), 48)
