"""E-mail messages (.eml) and mbox files: the headers a question names, the body as a
reader sees it, attachments named but not read. Messages are written here by the
standard library's ``email`` package, as mail programs write them (MIME multipart,
quoted-printable in Latin-1, base64 attachments, an HTML-only newsletter)."""

from __future__ import annotations

import os
import re
from email.message import EmailMessage
from pathlib import Path

import pytest

import chunkwise
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, independent_minilm_count

DATA = Path(__file__).resolve().parent / "data" / "mail"


def _refund() -> bytes:
    m = EmailMessage()
    m["From"] = "Ana García <ana@example.com>"
    m["To"] = "support@example.com"
    m["Subject"] = "Refund for order 4411 — café machine"
    m["Date"] = "Tue, 01 Dec 2026 10:00:00 +0100"
    m.set_content("Hello,\n\nThe café machine from order 4411 arrived broken.\nPlease refund "
                  "it to my card.\n\nThanks,\nAna\n", charset="iso-8859-1", cte="quoted-printable")
    m.add_alternative("<html><body><p>Hello,</p><p>The <b>café machine</b> arrived broken."
                      "</p></body></html>", subtype="html")
    m.add_attachment(os.urandom(30000), maintype="application", subtype="pdf",
                     filename="receipt-4411.pdf")
    return bytes(m)


def _newsletter(subject: str, body: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = "news@example.org"
    m["To"] = "reader@example.com"
    m["Subject"] = subject
    m.set_content(f"<html><body><h1>{subject}</h1><p>{body}</p></body></html>", subtype="html")
    return m


def test_a_message_reads_as_its_headers_and_body_with_attachments_named_not_read():
    """Read as text before, a message was its MIME source: quoted-printable (`caf=E9`),
    encoded headers (`=?utf-8?q?Garc=C3=ADa?=`) and ~550 chunks of the PDF's base64."""
    doc = parse(_refund(), "refund.eml")
    assert doc.title == "Refund for order 4411 — café machine"
    assert doc.metadata["format"] == "eml" and doc.metadata["attachments"] == ["receipt-4411.pdf"]
    assert doc.metadata["from"] == "Ana García <ana@example.com>"
    first = doc.text[doc.blocks[0].start:doc.blocks[0].end]
    assert first.splitlines() == [
        "From: Ana García <ana@example.com>", "To: support@example.com",
        "Date: Tue, 01 Dec 2026 10:00:00 +0100",
        "Subject: Refund for order 4411 — café machine", "Attachments: receipt-4411.pdf"]
    # the plain part, decoded from quoted-printable Latin-1, a paragraph at each blank line
    assert [doc.text[b.start:b.end] for b in doc.blocks[1:]] == [
        "Hello,", "The café machine from order 4411 arrived broken.\nPlease refund it to my card.",
        "Thanks,\nAna"]
    assert not re.search(r"[A-Za-z0-9+/]{60}", doc.text)  # (no base64 of the attachment)
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254, independent_minilm_count())


def test_an_html_only_message_is_its_pages_text_and_an_mbox_its_messages(tmp_path):
    html = parse(bytes(_newsletter("December news", "Our <b>winter</b> hours start Monday.")),
                 "news.eml")
    assert "Our winter hours start Monday." in html.text and "<" not in html.text
    # an mbox: each message a section under its subject; a body's ">From " unescaped
    second = _newsletter("January news", "x")
    second.set_content("From now on we open at nine.\n")
    box = (b"From news@example.org Mon Dec  1 10:00:00 2026\n"
           + bytes(_newsletter("December news", "Winter hours.")) + b"\n"
           + b"From news@example.org Thu Jan  1 10:00:00 2027\n"
           + bytes(second).replace(b"\nFrom now", b"\n>From now") + b"\n")
    doc = parse(box, "news.mbox")
    assert doc.metadata["messages"] == 2
    headings = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["December news", "January news"]
    last = [b for b in doc.blocks if b.headings == ("January news",)][-1]
    assert doc.text[last.start:last.end] == "From now on we open at nine."
    # a message of no header (Apache Tika's simple.mbox has such): its body
    bare = parse(b"From someone Mon Jun 01 10:00:00 2009\n\nTest content 1\n\n"
                 b"From someone Mon Jun 01 11:00:00 2010\n\nTest content 2\n", "bare.mbox")
    assert bare.text == "Test content 1\n\nTest content 2" and bare.metadata["messages"] == 2
    # a folder walk reads both (they were read as plain text, or passed over)
    (tmp_path / "refund.eml").write_bytes(_refund())
    (tmp_path / "news.mbox").write_bytes(box)
    sources = {Path(str(c.source)).name for c in chunkwise.iter_chunks(tmp_path)}
    assert sources == {"refund.eml", "news.mbox"}


def test_what_is_no_message_is_said_and_an_empty_one_has_no_text(tmp_path):
    (tmp_path / "junk.eml").write_bytes(os.urandom(2000).replace(b":", b"."))
    with pytest.raises(chunkwise.InputError, match="junk.eml: not an e-mail message"):
        read_path(tmp_path / "junk.eml")
    (tmp_path / "empty.eml").write_bytes(b"")
    assert read_path(tmp_path / "empty.eml").text == ""
    with pytest.raises(chunkwise.InputError, match="notes.mbox: not an mbox file"):
        parse(b"just some words\n", "notes.mbox")


def test_outlook_messages_read_as_e_mail_in_their_code_page(tmp_path):
    """Outlook's ``.msg`` (MAPI properties in a compound file; Apache Tika's test files)
    reads as an ``.eml`` does: 8-bit strings in the message's code page (Big5 here:
    cp1252 gave `±i·¶`), the sending time, attachments named."""
    chinese = read_path(DATA / "tika-testMSG_chinese.msg")
    assert chinese.metadata["format"] == "msg"
    assert chinese.title == "Alfresco MSG format testing ( MSG 格式測試 )"
    assert chinese.metadata["from"] == "Tests Chang@FT (張毓倫)"
    assert chinese.metadata["date"] == "Tue, 29 Mar 2011 08:52:48 +0000"
    assert "中文測試" in chinese.text
    attached = read_path(DATA / "tika-testMSG_att_doc.msg")
    assert attached.metadata["attachments"] == ["test-unicode.doc", "pj1.txt"]
    assert attached.metadata["subject"] == "test pièce jointe 1"
    assert attached.text.endswith("\n\ncontenu")
    # a folder walk reads them (their NUL bytes are no reason to pass them over)
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / "chinese.msg").write_bytes((DATA / "tika-testMSG_chinese.msg").read_bytes())
    (tmp_path / "mail" / "Pose.msg").write_bytes(b"float64 heading\n")
    assert {Path(str(c.source)).name for c in chunkwise.iter_chunks(tmp_path / "mail")} == {
        "chinese.msg", "Pose.msg"}
    # a ROS message definition is a .msg too: read as the text it is
    ros = parse(b"# a robot's pose\ngeometry_msgs/Point position\nfloat64 heading\n", "Pose.msg")
    assert ros.text.startswith("# a robot's pose") and ros.metadata.get("format") != "msg"
    with pytest.raises(chunkwise.InputError, match="deck.msg: not an Outlook message"):
        parse((Path(__file__).resolve().parent / "data" / "office" /
               "poi-basic_test_ppt_file.ppt").read_bytes(), "deck.msg")
