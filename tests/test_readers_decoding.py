"""Bytes to text: byte-order marks, UTF-16/32 without one, declared encodings, and
``encoding="auto"`` for a folder of mixed encodings.

Found chunking chardet's test folder (as the Google Cloud SDK ships it: 425 files, the
encoding each is in named by its folder) with ``--encoding auto``: 73 files decoded to
mojibake without a word (KOI8-R, Shift JIS, Big5, Greek, Hebrew read as Windows-1252),
13 UTF-16/UTF-32 files passed over by the folder walk as "binary" (their NUL bytes),
UTF-32 with a byte-order mark decoded as UTF-16, ISO-2022 called "binary file", and a
page saying ``charset=x-sjis`` an error. The texts below are public domain (Tolstoy,
Natsume Soseki, Machado de Assis) or the Universal Declaration of Human Rights."""

from contextlib import nullcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import read_path
from chunkwise.readers.decoding import decode_bytes, unmarked_wide

RUSSIAN = ("Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива "
           "по-своему. Все смешалось в доме Облонских. Жена узнала, что муж был в связи с "
           "бывшею в их доме француженкою-гувернанткой, и объявила мужу, что не может жить с "
           "ним в одном доме.")
GREEK = ("Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα "
         "δικαιώματα. Είναι προικισμένοι με λογική και συνείδηση, και οφείλουν να "
         "συμπεριφέρονται μεταξύ τους με πνεύμα αδελφοσύνης.")
JAPANESE = ("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめ"
            "した所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。")
#: Cervantes, Camões, Dante: charset-normalizer's first guess for each in Latin-1 is
#: Windows-1250 or 1258 ("barões" -> "barőes", "dirò" -> "dirň", "è" -> "č")
SPANISH = ("En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo "
           "que vivía un hidalgo de los de lanza en astillero, adarga antigua, rocín flaco y "
           "galgo corredor. Una olla de algo más vaca que carnero, salpicón las más noches, "
           "duelos y quebrantos los sábados, lantejas los viernes, algún palomino de "
           "añadidura los domingos, consumían las tres partes de su hacienda.")
CAMOES = ("As armas e os barões assinalados, que da ocidental praia Lusitana, por mares nunca "
          "de antes navegados, passaram ainda além da Taprobana, em perigos e guerras "
          "esforçados mais do que prometia a força humana, e entre gente remota edificaram "
          "novo reino, que tanto sublimaram.")
DANTE = ("Nel mezzo del cammin di nostra vita mi ritrovai per una selva oscura, ché la diritta "
         "via era smarrita. Ahi quanto a dir qual era è cosa dura esta selva selvaggia e aspra "
         "e forte che nel pensier rinova la paura! Tant'è amara che poco è più morte; ma per "
         "trattar del ben ch'i' vi trovai, dirò de l'altre cose ch'i' v'ho scorte.")
PORTUGUESE = ("Uma noite destas, vindo da cidade para o Engenho Novo, encontrei no trem da "
              "Central um rapaz aqui do bairro, que eu conheço de vista e de chapéu. "
              "Cumprimentou-me, sentou-se ao pé de mim, falou da lua e dos ministros, e acabou "
              "recitando-me versos. A viagem era curta, e os versos pode ser que não fossem "
              "inteiramente maus.")


@pytest.mark.parametrize("text,encoding", [
    (RUSSIAN, "koi8_r"), (RUSSIAN, "cp1251"), (GREEK, "iso8859_7"), (GREEK, "cp1253"),
    (JAPANESE, "shift_jis"), (JAPANESE, "euc_jp"), (PORTUGUESE, "latin_1"),
    (PORTUGUESE, "cp1252"), (SPANISH, "latin_1"), (CAMOES, "cp1252"), (DANTE, "latin_1")])
def test_auto_reads_a_legacy_encoding_as_its_bytes_show(text, encoding):
    """Windows-1252 for everything not UTF-8 read Russian as "Все" -> "÷ÓÅ"; Western
    European text stays Windows-1252 where it reads about as well so."""
    assert decode_bytes(text.encode(encoding), "x.txt", "auto") == text
    with pytest.raises(InputError, match="not valid UTF-8"):  # without auto: an error
        decode_bytes(text.encode(encoding), "x.txt")


def test_auto_reads_an_english_file_with_a_latin1_name_as_windows_1252():
    """GNU make's NEWS (72 kB of English, "Kämpf" twice in Latin-1): charset-normalizer's
    first guess is Big5 ("K鄝pf"); so for psmisc's changelog ("Léger") and ed's AUTHORS
    ("François" as code page 850's "Franþois"). Too few bytes outside ASCII to guess by:
    Windows-1252, as before."""
    release = ("* Version 4.4 (31 Oct 2022)\n\nA complete list of bugs fixed in this version "
               "is available here.\n\n") * 20
    news = release + "  * The VMS port was done by Klaus Kämpf <kkaempf@example.org>.\n" + release
    assert "by Klaus Kämpf <" in decode_bytes(news.encode("latin-1"), "NEWS", "auto")  # (Big5)
    news = release + "Thanks to Jörg Léger.\n"  # (guessed: code page 775)
    assert "Thanks to Jörg Léger." in decode_bytes(news.encode("latin-1"), "NEWS", "auto")
    # a run of such characters with no ASCII letter beside is no Western name: guessed
    japanese = "Log in: " * 130 + "ログイン\n"
    assert decode_bytes(japanese.encode("shift_jis"), "login.txt", "auto") == japanese


def test_byte_order_marks_and_unmarked_utf16_and_utf32(tmp_path):
    """UTF-32 with its mark was read as UTF-16 (its little-endian mark starts as
    UTF-16's does): a NUL between letters. UTF-16/32 without a mark was "binary file
    (a NUL byte at offset 1)"; now an error naming the encoding to pass, or read by
    auto. A folder walk no longer passes over either as binary."""
    text = "Café menu\n\nEspresso — 2 €\n"
    for encoding in ("utf-32", "utf-16"):  # (Python writes its native order's mark)
        for order in ("-le", "-be"):
            data = ({"utf-32": {"-le": b"\xff\xfe\x00\x00", "-be": b"\x00\x00\xfe\xff"},
                     "utf-16": {"-le": b"\xff\xfe", "-be": b"\xfe\xff"}}[encoding][order]
                    + text.encode(encoding + order))
            assert decode_bytes(data, "menu.txt") == text
            unmarked = text.encode(encoding + order)
            assert unmarked_wide(unmarked) == encoding + order
            with pytest.raises(InputError, match=f"{encoding.upper()}{order.upper()} text without "
                               f"a byte-order mark; pass its encoding \\(encoding='{encoding}{order}'"):
                decode_bytes(unmarked, "menu.txt")
            assert decode_bytes(unmarked, "menu.txt", "auto") == text
    (tmp_path / "marked.txt").write_bytes(b"\xff\xfe\x00\x00" + text.encode("utf-32-le"))
    (tmp_path / "unmarked.txt").write_bytes(text.encode("utf-16-le"))
    (tmp_path / "blob.dat.txt").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    def documents(**options):
        with pytest.warns(chunkwise.errors.SkippedInputWarning) if not options else nullcontext():
            chunks = chunkwise.chunk(tmp_path, on_error="skip", **options)
        return {c.doc_id.rsplit("/", 1)[-1] for c in chunks}

    assert documents() == {"marked.txt"}  # the unmarked one: an error, skipped
    assert documents(encoding="auto") == {"marked.txt", "unmarked.txt"}
    with pytest.raises(InputError, match="binary file"):
        read_path(tmp_path / "blob.dat.txt", encoding="auto")


def test_a_binary_file_or_8bit_text_with_a_stray_nul_is_no_utf16():
    assert unmarked_wide(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8) is None
    stray = ("Plain Latin-1 text, café, with one stray NUL byte here:\x00 and more words "
             "after it." * 20).encode("latin-1")
    assert unmarked_wide(stray) is None
    with pytest.raises(InputError, match="binary file \\(a NUL byte at offset 55\\)"):
        decode_bytes(stray, "stray.txt")


def test_iso_2022_is_named_and_read_by_auto():
    data = JAPANESE.encode("iso2022_jp")
    with pytest.raises(InputError, match="ISO-2022-JP text .*encoding='iso2022_jp'"):
        decode_bytes(data, "mail.txt")
    assert decode_bytes(data, "mail.txt", "auto") == JAPANESE


def test_a_declared_encoding_as_the_web_names_it(tmp_path):
    """``<meta charset="x-sjis">`` (a label browsers know, Python not) was an error even
    with --encoding auto; a feed declaring Shift_JIS and holding code page 932's own
    characters (NEC's circled digits) failed at that byte: read as browsers do."""
    page = tmp_path / "page.html"
    page.write_bytes(('<html><head><meta http-equiv="Content-Type" content="text/html; '
                      'charset=x-sjis"></head><body><p>' + JAPANESE + "</p></body></html>"
                      ).encode("cp932"))
    assert JAPANESE in read_path(page).text
    feed = tmp_path / "feed.xml"
    feed.write_bytes(('<?xml version="1.0" encoding="Shift_JIS"?>\n<feed><title>①番 '
                      + JAPANESE + "</title></feed>\n").encode("cp932"))
    assert "①番" in read_path(feed).text


def test_a_source_files_coding_declaration_is_used(tmp_path):
    """Python's own test modules and Python 2's standard library declare Latin-1 or
    KOI8-R in PEP 263's comment (``# -*- coding: iso-8859-1 -*-``): "not valid UTF-8"."""
    module = tmp_path / "months.py"
    module.write_bytes(("# -*- coding: koi8-r -*-\n\"\"\"" + RUSSIAN + "\"\"\"\n\n\ndef first():\n"
                        "    return 'Января'\n").encode("koi8_r"))
    text = read_path(module).text
    assert RUSSIAN in text and "'Января'" in text


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=300))
def test_auto_never_changes_what_utf8_or_a_mark_reads(text):
    """Invariant: a file that decodes as UTF-8 (or by its byte-order mark) decodes the
    same under auto; auto adds readings, it changes none."""
    for data in (text.encode("utf-8"), b"\xff\xfe" + text.encode("utf-16-le"),
                 b"\x00\x00\xfe\xff" + text.encode("utf-32-be")):
        try:
            plain = decode_bytes(data, "t.txt")
        except InputError:
            continue
        assert decode_bytes(data, "t.txt", "auto") == plain


@given(st.binary(max_size=2000))
def test_auto_on_any_bytes_is_text_or_a_clear_error(data):
    """Invariant: whatever the bytes, auto gives text with no NUL character or an
    InputError naming the file; never another exception."""
    try:
        text = decode_bytes(data, "any.bin", "auto")
    except InputError as exc:
        assert exc.source == "any.bin" and exc.problem
    else:
        assert isinstance(text, str)


_TITLED = {
    "page.md": "# Plugins {#plugins}\n\n## Introduction\n\nPlugins add app-level functionality.\n",
    "notes.txt": "Installing\n==========\n\nSection\n-------\n\nWords of the section here.\n",
    "guide.rst": "Installing\n==========\n\nSection\n-------\n\nWords of the section here.\n",
    "guide.adoc": "= Title\n\n== Sub\n\nWords here, a few of them.\n",
    "notes.org": "* Title\n** Sub\nWords here, a few of them.\n",
    "page.wiki": "= Title =\n\n== Sub ==\n\nWords here, a few of them.\n",
    "paper.tex": "\\section{Title}\n\n\\subsection{Sub}\n\nWords here, a few of them.\n",
    "novel.txt": "CHAPTER I\n\n\n\nIt was a dark night, and the rain fell.\n\n\n\nCHAPTER II\n\n\n\n"
                 "The morning came at last.\n",
    "tool.1": ".TH TOOL 1\n.SH NAME\ntool \\- do things\n.SH DESCRIPTION\nWords of the "
              "description here.\n",
    "note.eml": "Subject: Hello\nFrom: a@example.com\n\nWords of the mail body here.\n",
}
#: readers whose text is a rendition (its offsets index that, not the file)
_RENDERED = ("page.wiki", "tool.1", "note.eml")


@pytest.mark.parametrize("name", sorted(_TITLED))
@pytest.mark.parametrize("size", [16, 64])
def test_a_byte_order_mark_changes_no_chunk_but_its_offsets(tmp_path, name, size):
    """Vue's documentation opens a page with a byte-order mark: its title was a chunk
    of its own (the heading's block started at the mark, before the chunks' start);
    a text file's or reStructuredText's title kept the mark in every trail, an AsciiDoc
    or wikitext title was no heading, a manual page was read as plain text and an
    e-mail was "not an e-mail message". A file with the mark and one without give the
    same chunks, the mark's character on (where offsets index the file)."""
    text = _TITLED[name]
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    plain.mkdir()
    marked.mkdir()
    (plain / name).write_text(text, encoding="utf-8")
    (marked / name).write_text("\ufeff" + text, encoding="utf-8")
    a = chunkwise.chunk(plain / name, size=size)
    b = chunkwise.chunk(marked / name, size=size)
    assert [(c.text, c.context, c.headings) for c in a] == \
        [(c.text, c.context, c.headings) for c in b]
    shift = 0 if name in _RENDERED else 1
    assert [(c.start + shift, c.end + shift) for c in a] == [(c.start, c.end) for c in b]
