"""Web pages saved as one file (MHTML: Chrome's and Edge's "Webpage, Single File",
Word's and Internet Explorer's ``.mht``, Confluence's "Export to Word" ``.doc``).
Read as text before, such a file was its MIME source: headers, quoted-printable HTML
(``=3D``, words cut by soft line breaks) and chunks of base64. Two files were saved
by Chromium itself (``tests/data/mhtml/README.md``); the others are written here as
Word, Excel and Confluence write theirs."""

from __future__ import annotations

import base64
import os
import plistlib
import re
import unicodedata
from email import charset as email_charset
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import parse, read_path, sniff_format
from chunkwise.readers.decoding import looks_like_mhtml

from helpers import assert_invariants, independent_minilm_count

DATA = Path(__file__).resolve().parent / "data" / "mhtml"
ROOT = Path(__file__).resolve().parents[1]


def _texts(doc):
    return [doc.text[b.start:b.end] for b in doc.blocks]


def test_a_page_chrome_saved_reads_as_the_page_without_its_mime_chrome_or_frames():
    doc = read_path(DATA / "rotate-keys.mhtml")
    assert doc.metadata["format"] == "mhtml"
    assert doc.metadata["url"] == "http://127.0.0.1:8765/handbook/rotate-keys.html"
    assert doc.metadata["saved"] == "Sun, 6 Dec 2026 19:31:50 +0000"
    assert doc.title == "Rotating the signing keys"
    texts = _texts(doc)
    assert texts[:3] == ["Rotating the signing keys",
                         "Keys are rotated every ninety days by the keyctl rotate command; the "
                         "old key stays valid for verification for seven more days.",
                         "Before you start"]
    assert "Run keyctl rotate --grace 7d." in texts
    assert "$ keyctl rotate --grace 7d\nrotated: key 4 → key 5 (grace until 2026-12-13)" in texts
    table = next(b for b in doc.blocks if b.kind == "table")
    assert doc.text[table.start:table.end].splitlines()[2] == "| active | yes | yes |"
    # quoted-printable UTF-8 decoded though the part names no charset (its <meta> does)
    assert "Naïve scripts that cache the public key must re-read it: the café’s kiosk" in doc.text
    # no MIME, no site chrome, no style sheet or image, no inline frame's advertisement
    for absent in ("=3D", "=E2", "MultipartBoundary", "Content-Type", "iVBORw0KGgo", "font-family",
                   "Privacy", "Blog", "widgets"):
        assert absent not in doc.text, absent
    heading = next(b for b in doc.blocks if doc.text[b.start:b.end] == "Steps")
    assert heading.kind == "heading" and heading.headings == ("Rotating the signing keys", "Steps")


def test_a_saved_page_is_chunked_with_its_headings_as_any_page():
    count = independent_minilm_count()
    chunks = chunkwise.chunk(DATA / "rotate-keys.mhtml")
    doc = read_path(DATA / "rotate-keys.mhtml")
    assert_invariants(doc.text, chunks, 254, count)
    assert all(c.metadata["doc"]["format"] == "mhtml" for c in chunks)
    table = next(c for c in chunks if "| grace | no | yes |" in c.text)
    assert table.context.startswith("Rotating the signing keys > Steps")


def test_a_page_chrome_saved_reads_exactly_as_the_page_itself():
    """Flask's Sphinx-built "Signals" page and the same page saved by Chromium: the
    same text and blocks. Chrome writes a link into the page with the page's address
    (``href="http://host/signals.html#signals"``); read so, each heading's permalink
    was no permalink and every heading ended in "¶"."""
    page = read_path(ROOT / "benchmarks" / "sphinx_html_eval" / "docs" / "signals.html")
    saved = read_path(DATA / "flask-signals.mhtml")
    assert saved.text == page.text
    assert [(b.kind, b.start, b.end, b.headings) for b in saved.blocks] == \
        [(b.kind, b.start, b.end, b.headings) for b in page.blocks]
    assert saved.title == page.title == "Signals"
    assert not any(saved.text[b.start:b.end].endswith("¶") for b in saved.blocks)


def test_a_saved_frameset_reads_as_its_frames_pages_in_order():
    doc = read_path(DATA / "frames.mhtml")
    assert doc.metadata["frames"] == 2 and doc.title == "Frames"
    ad = doc.text.index("Buy the best widgets now")
    assert ad < doc.text.index("Rotating the signing keys") < doc.text.index("Before you start")
    # the handbook frame's own inline frame is still not read: the advertisement once
    assert doc.text.count("Buy the best widgets") == 1
    table = next(b for b in doc.blocks if b.kind == "table")  # moved with its frame's text
    assert doc.text[slice(*table.metadata["rows"][0])] == "| active | yes | yes |"


def _qp(html: str, charset: str) -> MIMEText:
    cs = email_charset.Charset(charset)
    cs.body_encoding = email_charset.QP
    return MIMEText(html, "html", cs)  # type: ignore[arg-type]  # (a Charset is taken)


WORD_HTML = (
    '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40">'
    '<head><meta http-equiv=Content-Type content="text/html; charset=windows-1252">'
    '<meta name=Generator content="Microsoft Word 15"><title>Travel policy</title>'
    '<link rel=File-List href="report_files/filelist.xml">'
    '<!--[if gte mso 9]><xml><o:DocumentProperties><o:Author>Ana</o:Author>'
    '<o:Words>512</o:Words></o:DocumentProperties></xml><![endif]-->'
    '<style><!-- p.MsoNormal {margin:0cm; font-family:"Calibri"} --></style></head>'
    '<body lang=EN-GB style="tab-interval:36.0pt"><div class=WordSection1>'
    '<h1>Travel policy<o:p></o:p></h1>'
    '<p class=MsoNormal>Book trains for trips under four hours; the café car is not '
    'refunded.<o:p></o:p></p>'
    '<h2>Hotels<o:p></o:p></h2>'
    '<p class=MsoNormal>Up to 140 € a night in capitals.<o:p></o:p></p>'
    '</div></body></html>')


def _word_mht() -> bytes:
    """As Word writes "Single File Web Page": no From or Subject, a preamble for mail
    readers, the page in quoted-printable Windows-1252, then the files Word lists."""
    m = MIMEMultipart("related")
    del m["Content-Type"]
    m["Content-Type"] = 'multipart/related; boundary="----=_NextPart_01DB2F3A.6C1E5B40"'
    m.set_boundary("----=_NextPart_01DB2F3A.6C1E5B40")
    m.preamble = ("This document is a Single File Web Page, also known as a Web Archive file.  "
                  "If you are seeing this message, your browser or editor doesn't support Web "
                  "Archive files.")
    page = _qp(WORD_HTML, "windows-1252")
    page["Content-Location"] = "file:///C:/D3F1A2B4/report.htm"
    m.attach(page)
    files = MIMEText('<xml xmlns:o="urn:schemas-microsoft-com:office:office"><o:MainFile '
                     'HRef="../report.htm"/></xml>', "xml", "utf-8")
    files["Content-Location"] = "file:///C:/D3F1A2B4/report_files/filelist.xml"
    m.attach(files)
    return m.as_bytes()


def test_a_word_single_file_web_page_reads_in_its_declared_charset():
    doc = parse(_word_mht(), "travel.mht")
    assert doc.metadata["format"] == "mhtml" and doc.title == "Travel policy"
    assert _texts(doc) == ["Travel policy",
                           "Book trains for trips under four hours; the café car is not refunded.",
                           "Hotels", "Up to 140 € a night in capitals."]
    assert doc.metadata["url"] == "file:///C:/D3F1A2B4/report.htm"


def test_a_confluence_word_export_named_doc_is_read_as_the_saved_page_it_is():
    """Confluence's "Export to Word" writes a MIME page named ``.doc``; other web
    applications (metanorma's html2doc) write the same. The doc reader wants an OLE
    file; a ``.doc`` that is not one is read by its content."""
    m = MIMEMultipart("related")
    m["Date"] = "Mon, 30 Nov 2026 09:12:44 +0000 (UTC)"
    m["Message-ID"] = "<1416342.1.1764493964000@confluence>"
    m["Subject"] = "Exported From Confluence"
    page = _qp("<html><head><title>On-call handbook</title></head><body>"
               "<h1>On-call handbook</h1><p>Page the secondary after fifteen minutes.</p>"
               "</body></html>", "utf-8")
    page["Content-Location"] = "file:///C:/exported.html"
    m.attach(page)
    m.attach(MIMEImage(b"\x89PNG\r\n\x1a\n" + os.urandom(3000), "png"))
    data = m.as_bytes()
    assert sniff_format(data, "On-call handbook.doc") == "mhtml"
    assert sniff_format(data, "exported") == "mhtml"
    doc = parse(data, "On-call handbook.doc")
    assert doc.title == "On-call handbook"  # the page's, not the message's subject
    assert _texts(doc) == ["On-call handbook", "Page the secondary after fifteen minutes."]
    assert doc.metadata["saved"] == "Mon, 30 Nov 2026 09:12:44 +0000 (UTC)"


def test_an_excel_web_archive_reads_its_sheets_through_the_frameset_by_address():
    """Excel's "Web Archive": a frameset page whose frames name the sheets by a path
    relative to the page's Content-Location (no cid:), and a tab strip."""
    m = MIMEMultipart("related")
    root = _qp('<html><head><title>Budget</title></head><frameset rows="*,39">'
               '<frame src="Budget_files/sheet001.htm" name="frSheet">'
               '<frame src="Budget_files/tabstrip.htm" name="frTabs"></frameset></html>',
               "us-ascii")
    root["Content-Location"] = "file:///C:/XXX/Budget.htm"
    m.attach(root)
    sheet = _qp("<html><body><table><tr><td>Item</td><td>Cost</td></tr><tr><td>Laptops</td>"
                "<td>12,400</td></tr></table></body></html>", "windows-1252")
    sheet["Content-Location"] = "file:///C:/XXX/Budget_files/sheet001.htm"
    m.attach(sheet)
    tabs = _qp('<html><body><table><tr><td><a href="sheet001.htm" target="frSheet">2027</a>'
               "</td></tr></table></body></html>", "us-ascii")
    tabs["Content-Location"] = "file:///C:/XXX/Budget_files/tabstrip.htm"
    m.attach(tabs)
    doc = parse(m.as_bytes(), "Budget.mht")
    assert doc.metadata["frames"] == 2 and doc.title == "Budget"
    assert "Laptops" in doc.text and doc.text.index("Laptops") < doc.text.index("2027")


def test_a_saved_page_that_is_plain_html_or_text_is_read_as_such():
    assert _texts(parse(b"<html><body><p>Just a page.</p></body></html>", "p.mht")) == \
        ["Just a page."]
    m = MIMEMultipart("related")
    m.attach(MIMEText("Line one.\n\nLine two.\n", "plain", "utf-8"))
    doc = parse(m.as_bytes(), "notes.mhtml")
    assert doc.text.split() == ["Line", "one.", "Line", "two."]
    assert parse(b"", "empty.mht").text == "" and parse(b"\r\n \n", "blank.mht").text.strip() == ""


def test_an_e_mail_with_pictures_is_not_taken_for_a_saved_page():
    m = MIMEMultipart("related")
    m["From"] = "news@example.org"
    m["To"] = "reader@example.com"
    m.attach(MIMEText("<p>Hello</p>", "html"))
    assert not looks_like_mhtml(m.as_bytes())
    assert looks_like_mhtml(_word_mht()) and looks_like_mhtml((DATA / "frames.mhtml").read_bytes())
    # a header block must open the file: a text that quotes one is no saved page
    assert not looks_like_mhtml(b"Notes\n\nContent-Type: multipart/related; boundary=x\n\n")


@pytest.mark.timeout(60)
def test_broken_saved_pages_are_clear_errors_naming_the_file(tmp_path):
    pictures = MIMEMultipart("related")
    pictures.attach(MIMEImage(b"GIF89a" + os.urandom(100), "gif"))
    with pytest.raises(InputError, match=r"pictures\.mht.*no web page.*image/gif"):
        parse(pictures.as_bytes(), "pictures.mht")
    deep = ['MIME-Version: 1.0\nContent-Type: multipart/related; boundary="B0"\n\n']
    deep += [f'--B{i - 1}\nContent-Type: multipart/related; boundary="B{i}"\n\n' for i in range(1, 3000)]
    deep.append("--B2999\nContent-Type: text/html\n\n<p>deep</p>\n")
    with pytest.raises(InputError, match="deep.mht"):
        parse("".join(deep).encode(), "deep.mht")
    with pytest.raises(InputError, match="noise.mht"):
        parse(os.urandom(20000), "noise.mht")
    # a page cut short (its boundary never closed, its quoted-printable cut mid-line)
    cut = (DATA / "rotate-keys.mhtml").read_bytes()[:1700]
    assert "Rotating the signing keys" in parse(cut, "cut.mhtml").text
    # 100,000 parts: read in seconds (the email package's default policy took 13 s)
    many = ['MIME-Version: 1.0\nContent-Type: multipart/related; boundary="B"\n\n']
    many += ["--B\nContent-Type: text/css\n\np{}\n"] * 100_000
    many.append("--B\nContent-Type: text/html\n\n<p>last of many</p>\n--B--\n")
    assert parse("".join(many).encode(), "many.mht").text == "last of many"


def test_a_folder_walk_reads_saved_pages_even_with_binary_parts(tmp_path):
    """A page whose picture is a binary part (NUL bytes): a walk read it as binary data
    and passed it over."""
    raw = (b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="B"\r\n\r\n'
           b"--B\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
           b"<h1>Shipping</h1><p>Parcels leave on Tuesdays.</p>\r\n"
           b"--B\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: binary\r\n\r\n"
           + b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64 + b"\r\n--B--\r\n")
    (tmp_path / "shipping.mht").write_bytes(raw)
    (tmp_path / "rotate-keys.mhtml").write_bytes((DATA / "rotate-keys.mhtml").read_bytes())
    chunks = chunkwise.chunk(tmp_path)
    assert {Path(c.doc_id).name for c in chunks} == {"shipping.mht", "rotate-keys.mhtml"}
    assert any("Parcels leave on Tuesdays." in c.text for c in chunks)


_WORD = st.text(st.characters(codec="utf-8", categories=("L", "N")), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paragraphs=st.lists(st.lists(_WORD, min_size=1, max_size=30), min_size=1, max_size=8),
       encoding=st.sampled_from(["qp", "base64", "8bit"]),
       charset=st.sampled_from(["utf-8", "utf-16"]))
def test_every_word_of_a_saved_page_is_read_in_order(paragraphs, encoding, charset):
    """However the page part is encoded, the words come out in order, and chunking
    keeps the engine's invariants."""
    html = "<html><body>" + "".join(f"<p>{' '.join(p)}</p>" for p in paragraphs) + "</body></html>"
    cs = email_charset.Charset(charset)
    cs.body_encoding = {"qp": email_charset.QP, "base64": email_charset.BASE64,
                        "8bit": None}[encoding]  # type: ignore[assignment]  # (None: 8bit)
    if charset == "utf-16":
        cs.body_encoding = email_charset.BASE64
    m = MIMEMultipart("related")
    m.attach(MIMEText(html, "html", cs))  # type: ignore[arg-type]
    m.attach(MIMEImage(base64.b64decode("R0lGODlhAQABAAAAACw="), "gif"))
    doc = parse(m.as_bytes(), "page.mhtml")
    words = " ".join(w for p in paragraphs for w in p)
    # (NFC: the email package's encoder writes U+F900 as the U+8C48 it stands for)
    assert re.findall(r"\w+", unicodedata.normalize("NFC", doc.text)) == \
        re.findall(r"\w+", unicodedata.normalize("NFC", words))
    chunks = chunkwise.get_chunker("auto").chunk(doc)
    assert_invariants(doc.text, chunks, 254)


def _archive(html: bytes, url: str, encoding: str = "UTF-8", frames: list | None = None) -> dict:
    """A web archive's property list as Safari writes it: the main resource (the
    page's bytes, MIME type, encoding, address), subresources, subframe archives."""
    archive = {"WebMainResource": {"WebResourceData": html, "WebResourceFrameName": "",
                                   "WebResourceMIMEType": "text/html",
                                   "WebResourceTextEncodingName": encoding,
                                   "WebResourceURL": url},
               "WebSubresources": [{"WebResourceData": base64.b64decode("R0lGODlhAQABAAAAACw="),
                                    "WebResourceMIMEType": "image/gif",
                                    "WebResourceURL": url.rsplit("/", 1)[0] + "/logo.gif"}]}
    if frames:
        archive["WebSubframeArchives"] = frames
    return archive


def test_a_safari_web_archive_reads_as_its_page():
    """Safari saves a page as a binary property list: a folder walk passed it over as
    binary data."""
    page = (DATA / "rotate-keys.mhtml").read_bytes()
    html = parse(page, "p.mhtml")  # the same page, for its text
    source = ("<html><head><meta charset='iso-8859-1'><title>Rotating the signing keys</title>"
              "</head><body><nav><a href='/'>Home</a> <a href='/blog'>Blog</a></nav><main>"
              "<h1>Rotating the signing keys</h1><p>Keys are rotated every ninety days by the "
              "<code>keyctl rotate</code> command; the old key stays valid for verification for "
              "seven more days.</p><p>Na\u00efve scripts that cache the public key must re-read "
              "it.</p></main><footer>Privacy</footer></body></html>")
    data = plistlib.dumps(_archive(source.encode("utf-8"), "https://example.org/rotate.html"),
                          fmt=plistlib.FMT_BINARY)
    doc = parse(data, "rotate.webarchive")
    assert doc.metadata["format"] == "webarchive"
    assert doc.metadata["url"] == "https://example.org/rotate.html"
    # the encoding the archive names (Safari's reading of the page) wins over a <meta>
    # charset that says otherwise
    assert _texts(doc) == [*_texts(html)[:2], "Naïve scripts that cache the public key must re-read it."]
    assert "Blog" not in doc.text and "Privacy" not in doc.text and "GIF89a" not in doc.text
    latin = plistlib.dumps(_archive("<p>Caf\u00e9 cr\u00e8me</p>".encode("cp1252"), "https://x.org/",
                                    "windows-1252"), fmt=plistlib.FMT_BINARY)
    assert parse(latin, "latin.webarchive").text == "Café crème"


def test_a_web_archive_of_a_frameset_reads_its_frames_archives(tmp_path):
    frames = [_archive(b"<h1>Contents</h1><p>Install, Configure, Rotate keys.</p>", "https://x.org/toc.html"),
              _archive(b"<h1>Rotate keys</h1><p>Rotate them every ninety days.</p>", "https://x.org/body.html")]
    root = _archive(b'<html><head><title>Manual</title></head><frameset cols="20%,80%"><frame src="toc.html">'
                    b'<frame src="body.html"></frameset></html>', "https://x.org/index.html", frames=frames)
    path = tmp_path / "manual.webarchive"
    path.write_bytes(plistlib.dumps(root, fmt=plistlib.FMT_BINARY))
    doc = read_path(path)
    assert doc.metadata["frames"] == 2 and doc.title == "Manual"
    assert _texts(doc) == ["Contents", "Install, Configure, Rotate keys.", "Rotate keys",
                           "Rotate them every ninety days."]
    # a folder walk reads it (its bytes hold NULs: it was passed over as binary)
    chunks = chunkwise.chunk(tmp_path)
    assert [Path(c.doc_id).name for c in chunks] and \
        all(Path(c.doc_id).name == "manual.webarchive" for c in chunks)


@pytest.mark.timeout(60)
def test_broken_web_archives_are_clear_errors_naming_the_file():
    with pytest.raises(InputError, match=r"junk\.webarchive.*not a readable web archive"):
        parse(os.urandom(5000), "junk.webarchive")
    with pytest.raises(InputError, match=r"other\.webarchive.*no WebMainResource"):
        parse(plistlib.dumps({"CFBundleName": "App"}, fmt=plistlib.FMT_BINARY), "other.webarchive")
    picture = _archive(b"GIF89a", "https://x.org/a.gif")
    picture["WebMainResource"]["WebResourceMIMEType"] = "image/gif"
    with pytest.raises(InputError, match=r"pic\.webarchive.*no web page.*image/gif"):
        parse(plistlib.dumps(picture, fmt=plistlib.FMT_BINARY), "pic.webarchive")
    # a binary property list whose top object holds itself: an error, not a hang
    cyclic = (b"bplist00" + b"\xa1\x00"  # object 0: an array of one reference, to object 0
              + b"\x08"  # offset table: object 0 at byte 8
              + b"\x00" * 6 + b"\x01\x01" + (1).to_bytes(8, "big") + (0).to_bytes(8, "big")
              + (10).to_bytes(8, "big"))
    with pytest.raises(InputError, match=r"cyclic\.webarchive"):
        parse(cyclic, "cyclic.webarchive")
