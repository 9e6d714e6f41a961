"""Structure: readers, section chunking with heading trails, tables kept whole."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text


def test_plain_text_numbered_headings():
    text = ("Accident procedure\n\n3 Records\n\nGeneral text about records.\n\n"
            "3.2 Accident reports\n\nRetention: seven years.\n")
    chunks = chunkwise.chunk(text, strategy="section", size=64)
    c = by_text(chunks, "seven years")[0]
    assert c.headings == ("3 Records", "3.2 Accident reports")
    # a lone numbered line is ambiguous: no headings
    doc = parse("1 Introduction\n\nSome text.", "x", fmt="text")
    assert all(b.kind != "heading" for b in doc.blocks)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=0, max_size=3000), prefix=st.sampled_from([b"", b"%PDF-1.4\n", b"<html>"]),
       ext=st.sampled_from([".pdf", ".html", ".md", ".txt"]))
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
