"""Manual pages: roff's man and mdoc macros read as sections, paragraphs and code."""

import gzip
from pathlib import Path

import chunkwise
from chunkwise.readers import parse, read_path, sniff_format

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "man"


def test_jqs_manual_page_reads_as_its_sections():
    """Gzipped documents are now read (``/usr/share/man`` holds 23,869 pages), and a
    page read as plain text was roff: ``.SH "FILTERS"``, ``\\fBjq\\fR \\- Command\\-line
    JSON processor``. Now sections are headings under the page's name, escapes are
    the characters a reader sees, ``.nf`` examples are code."""
    doc = read_path(DATA / "jq.1.gz")
    assert doc.metadata["format"] == "man" and doc.title == "jq(1)"
    assert "\\f" not in doc.text and ".SH" not in doc.text and "\\-" not in doc.text
    assert doc.text.startswith("jq(1)\n\nNAME\n\njq - Command-line JSON processor")
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert by_text(chunks, "--seq")[0].headings[:2] == ("jq(1)", "FILTERS")
    contains = by_text(chunks, "jq 'contains(\"bar\")'")[0]
    assert contains.headings[-1] == "contains(element)"
    assert "=> true\n\njq 'contains([\"baz\", \"bar\"])'" in doc.text  # the example's lines
    code = [b for b in doc.blocks if b.kind == "code"]
    assert len(code) > 50


def test_mdoc_and_escapes_and_sniffing(tmp_path):
    page = (".\\\" a comment\n.Dd March 3, 2026\n.Dt SSH_CONFIG 5\n.Os\n.Sh NAME\n.Nm ssh_config\n"
            ".Nd OpenSSH client configuration file\n.Sh DESCRIPTION\n.Xr ssh 1\nobtains "
            "configuration data from\n.Pa ~/.ssh/config .\n.Pp\nThe file contains keyword\\-"
            "argument pairs, one per line \\(em as \\(lqHost\\(rq shows.\n.Bd -literal\n"
            "Host *.example.com\n    User alice\n.Ed\n.Ss Patterns\nA pattern \\fIconsists\\fP "
            "of zero or more characters.\n")
    path = tmp_path / "ssh_config.5"
    path.write_text(page)
    assert sniff_format(page.encode(), "ssh_config.5") == "man"
    doc = read_path(path)
    assert doc.title == "ssh_config(5)"
    assert "keyword-argument pairs, one per line — as “Host” shows." in doc.text
    assert "ssh 1 obtains configuration data from ~/.ssh/config ." in doc.text
    code = next(b for b in doc.blocks if b.kind == "code")
    assert doc.text[code.start:code.end] == "Host *.example.com\n    User alice"
    heads = [(b.level, b.headings[-1]) for b in doc.blocks if b.kind == "heading"]
    assert heads == [(1, "ssh_config(5)"), (2, "NAME"), (2, "DESCRIPTION"), (3, "Patterns")]
    gz = tmp_path / "ssh_config.5.gz"
    gz.write_bytes(gzip.compress(page.encode()))
    assert read_path(gz).text == doc.text
    for text in ("A note.\n.TH is not alone here\n", "Plain text, no requests.\n"):
        assert sniff_format(text.encode(), "notes") == "text"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from([".TH X 1", ".SH NAME", ".SS Sub", ".PP", ".nf", ".fi", ".IP \\(bu 2",
                     ".BR ls (1)", ".B \"bold words\"", ".\\\" comment", "", ".Bd", ".Ed",
                     "\\fBjq\\fR \\- a \\(em b \\[ci] \\*(lq\\s-1x\\s0", ".RS", ".\"unbalanced"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40)),
    max_size=30))
def test_any_roff_reads_and_chunks(lines):
    """Any mix of requests, escapes and text: read without an error, every block its
    text, chunks that keep the invariants."""
    from chunkwise.readers.man import parse_man

    doc = parse_man("\n".join(lines), "page.1")
    for b in doc.blocks:
        assert doc.text[b.start:b.end].strip()
    assert_invariants(doc.text, chunkwise.chunk(doc, strategy="section", size=48), 48)


def test_a_manual_page_listing_items_with_dashes_is_no_fiction():
    """114 of the Google Cloud SDK's manual pages (``gcloud alpha filestore instances
    list``) were sized as narrative prose (254 tokens): their items, ``.IP "\\(em"``,
    read as paragraphs opening with a dash, which in fiction opens dialogue. A manual
    page is no fiction."""
    items = "".join(f'.IP "\\(em" 2m\nset the property filestore/{p} with a fully specified name;\n'
                    for p in ("zone", "region", "location", "project", "network", "tier"))
    flags = "".join(f".TP 2m\n\\fB\\-\\-flag{i}\\fR=\\fIVALUE\\fR\n\nWhat flag {i} sets.\n\n"
                    f"To set the \\f5project\\fR attribute:\n.RS 2m\n{items}.RE\n"
                    for i in range(8))
    page = (".TH \"GCLOUD_ALPHA_FILESTORE_INSTANCES_LIST\" 1\n.SH \"NAME\"\n.HP\ngcloud alpha "
            "filestore instances list \\- list Filestore instances\n.SH \"FLAGS\"\n.RS 2m\n"
            + flags + ".RE\n")
    doc = parse(page, "gcloud_alpha_filestore_instances_list.1", None)
    assert doc.metadata["format"] == "man"
    paragraphs = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "paragraph"]
    assert len(paragraphs) >= 40 and sum(p.startswith("\u2014") for p in paragraphs) >= 0.2 * len(paragraphs)
    chunks = chunkwise.chunk(doc)
    assert not [c for c in chunks if c.metadata.get("document_kind") == "narrative"]
    assert max(c.token_count for c in chunks) <= 160  # the default size, not fiction's 254


def test_macro_definitions_ignored_blocks_and_continued_requests_set_no_text():
    """pod2man's preamble defines macros whose bodies hold ``\\fB\\\\$1\\fR`` (a chunk
    ``\\$1`` on glibc's gencat(1)); its ``.if ... \\`` continued over ``\\{\\`` left a
    chunk of one backslash on binutils' pages (ar, as, ld, nm ...); DocBook's pages set
    every bullet as ``.ie n \\{\\`` over ``\\h'-04'\\(bu\\h'+03'\\c``, read as a paragraph
    ``'-04'•'+03'`` (127 in git-config(1)); ssh-copy-id(1) keeps its licence in an
    ``.ig`` block, which man never shows. 18,133 pages here: 525 lose such noise,
    none a word of their text."""
    page = "\n".join([
        '.de Sh', '.br', '.ne 5', '.PP', '\\fB\\\\$1\\fR', '.PP', '..',
        '.de URL', '\\fI\\\\$2\\fP <\\\\$1>\\\\$3', '..',
        '.if \\n[.g] \\{\\', '.  am URL', '.    ad l', '.  .', '.\\}',
        '.ig', 'Copyright (c) 1999 Someone. Redistribution is permitted.', '..',
        '.if \\n(.H>23 .if \\n(.V>19 \\', '\\{\\', '.    ds : e', '.\\}',
        '.TH GIT-LOG 1', '.SH "NAME"', 'git-log \\- Show commit logs',
        '.SH "OPTIONS"', '.RS 4', ".ie n \\{\\", "\\h'-04'\\(bu\\h'+03'\\c", '.\\}',
        '.el \\{\\', '.sp -1', '.IP \\(bu 2.3', '.\\}',
        'Show the commits reachable from the given ones.', '.RE',
        '.RS 4', ".ie n \\{\\", "\\h'-04' 1.\\h'+01'\\c", '.\\}', '.el \\{\\', '.sp -1',
        '.IP "  1." 4.2', '.\\}', 'Optionally move the old cluster.', '.RE',
        'A long line that goes \\', 'on after an escaped line break.', ''])
    doc = parse(page, "git-log.1", None)
    text = doc.text
    for noise in ("\\$1", "\\$2", "'-04'", "'+03'", "Copyright", "ds :"):
        assert noise not in text, noise
    paragraphs = [text[b.start:b.end] for b in doc.blocks if b.kind == "paragraph"]
    assert "\\" not in paragraphs
    assert "Show the commits reachable from the given ones." in text
    assert "1. Optionally move the old cluster." in text
    assert "A long line that goes on after an escaped line break." in text
    assert [text[b.start:b.end] for b in doc.blocks if b.kind == "heading"] == \
        ["git-log(1)", "NAME", "OPTIONS"]
