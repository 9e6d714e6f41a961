"""Bytes to text: UTF-8 by default, UTF-16 and UTF-32 by their byte-order marks, a
named encoding, or ``encoding="auto"`` for a folder of mixed encodings; a clear error
naming the file and the problem otherwise (never text silently decoded wrong)."""

from __future__ import annotations

import codecs
import re
from contextlib import suppress

from ..errors import InputError

# Share of C0 control characters (other than tab/newline/CR/FF) above which a
# decodable file is still treated as binary.
MAX_CONTROL_SHARE = 0.01
CONTROL_CHARS = {c for c in range(32) if c not in (9, 10, 12, 13)}

#: ``encoding="auto"``: UTF-8 (or UTF-16/UTF-32 with a byte-order mark) where the
#: bytes are that; UTF-16/UTF-32 without a mark where the NUL bytes say so; else the
#: encoding the bytes show (charset-normalizer), Windows-1252 for Western European text
#: (a folder of old changelogs and READMEs, most UTF-8 and some Latin-1, KOI8-R or
#: Shift JIS, which no one encoding reads)
AUTO = "auto"

#: UTF-32's marks before UTF-16's: the little-endian one starts as UTF-16's does
_MARKS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
          (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))

#: bytes of a file looked at to tell its encoding (as many as the binary test reads)
SAMPLE_BYTES = 65536

#: ISO-2022-JP/KR: 7-bit text that switches character sets by escape sequences
_ISO2022 = re.compile(rb"\x1b\$[@B]|\x1b\$\([@BCD]|\x1b\$\)C")
_SWITCHED = "escape sequences switch its character sets"
#: how the errors ``encoding="auto"`` goes on from begin (raised and read here only)
_NOT_UTF8 = "not valid UTF-8"
_UNMARKED = "text without a byte-order mark"

#: the languages charset-normalizer names that Windows-1252 writes (Latin-1's): where
#: the bytes read in Windows-1252 about as well as in its first choice, and as one of
#: these (its three likeliest languages all of them, or no language it knows),
#: Windows-1252 it is (Portuguese read as Windows-1250 turns "tão" into "tăo"; a text
#: that may be Turkish, Czech or Hungarian keeps the code page found)
_WESTERN = frozenset({"Danish", "Dutch", "English", "English—", "Estonian", "Finnish", "French", "German",
                      "Indonesian", "Italian", "Norwegian", "Portuguese", "Spanish", "Swedish",
                      "Unknown"})
_LATIN_1 = frozenset({"cp1252", "latin_1", "iso8859_15"})
#: how much more disorder (charset-normalizer's ``chaos``) and less language coherence
#: Windows-1252 may show than the first choice and still be taken
_CHAOS_SLACK = 0.02
_COHERENCE_SLACK = 0.05


def decode_bytes(data: bytes, source: str, encoding: str | None = None) -> str:
    """Decode file bytes to text without touching newlines; a clear error otherwise."""
    if encoding == AUTO:
        return _decode_auto(data, source)
    if encoding:
        name = codec(encoding)
        if name is None:
            raise InputError(source, f"unknown encoding {encoding!r}")
        try:
            return data.decode(name)
        except UnicodeDecodeError as exc:
            wider = _SUPERSETS.get(name)
            if wider is not None:
                with suppress(UnicodeDecodeError):
                    return data.decode(wider)
            raise InputError(source, f"cannot be decoded as {encoding} (byte {exc.start})") from None
    # a UTF-8 byte-order mark stays in the text as U+FEFF: offsets then index what
    # Path(path).read_text(encoding="utf-8") returns, as the README's recipe says
    marked = bom_encoding(data)
    if marked is not None:
        try:
            return data.decode(marked)
        except UnicodeDecodeError as exc:
            raise InputError(source, f"invalid {marked.upper()} text (byte {exc.start})") from None
    nul = data.find(b"\x00")
    if nul != -1:
        raise InputError(source, nul_problem(data[:SAMPLE_BYTES], nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if control_binary(data[:SAMPLE_BYTES]):
            raise InputError(source, "binary file (control characters), not text") from None
        raise InputError(
            source, f"{_NOT_UTF8} (byte {exc.start}); if it is text, pass its encoding "
            "(encoding='latin-1', say), or encoding='auto' for a folder of mixed encodings "
            "(UTF-8 where the bytes are, else the encoding they show)") from None
    problem = binary_problem(text[:SAMPLE_BYTES])
    if problem:
        if problem.startswith("binary file") and (m := _ISO2022.search(data, 0, SAMPLE_BYTES)):
            name = "iso2022_kr" if m.group() == b"\x1b$)C" else "iso2022_jp"
            problem = (f"{name.upper().replace('O2', 'O-2').replace('_', '-')} text "
                       f"({_SWITCHED}); pass its encoding (encoding='{name}'), or "
                       "encoding='auto'")
        raise InputError(source, problem)
    return text


#: encodings' names as web pages write them that Python does not know (the WHATWG
#: Encoding Standard's labels: ``<meta charset="x-sjis">``)
_WEB_LABELS = {"x-sjis": "cp932", "windows-31j": "cp932", "x-euc-jp": "euc_jp", "x-gbk": "gbk",
               "x-mac-roman": "mac_roman", "x-mac-cyrillic": "mac_cyrillic",
               "x-mac-ukrainian": "mac_cyrillic", "iso-8859-8-i": "iso8859_8",
               "windows-874": "cp874", "x-cp1251": "cp1251", "x-x-big5": "big5",
               "windows-949": "cp949", "cseuckr": "euc_kr", "x-euc-kr": "euc_kr",
               "gb_2312-80": "gb2312"}
#: encodings whose bytes are often those of a larger one that keeps all of theirs (a
#: page that says Shift_JIS written in Windows' code page 932, as browsers read it):
#: tried where the named one fails
_SUPERSETS = {"shift_jis": "cp932", "euc_kr": "cp949", "gb2312": "gb18030", "gbk": "gb18030",
              "big5": "big5hkscs"}


def codec(label: str) -> str | None:
    """Python's codec for an encoding's name (``Shift_JIS``, ``x-sjis``), or None."""
    label = label.strip().lower()
    try:
        return codecs.lookup(_WEB_LABELS.get(label, label)).name
    except LookupError:
        return None


def nul_problem(head: bytes, nul: int) -> str:
    """What a file holding a NUL byte (at offset ``nul``) is, from its first bytes
    ``head``: UTF-16 or UTF-32 text without a byte-order mark (and how to read it), or
    binary."""
    wide = unmarked_wide(head)
    if wide is not None:
        return (f"{wide.upper()} {_UNMARKED}; pass its encoding "
                f"(encoding='{wide}'), or encoding='auto'")
    return f"binary file (a NUL byte at offset {nul}), not text"


def _decode_auto(data: bytes, source: str) -> str:
    try:
        return decode_bytes(data, source)
    except InputError as exc:
        problem = exc.problem
        if problem.startswith(_NOT_UTF8):
            if _few_high_bytes(data):
                western = _western(data)
                if not _FOREIGN_RUN.search(western):
                    return western  # an English text with an author's name
            return _guessed(data) or _western(data)
        wide = unmarked_wide(data[:SAMPLE_BYTES]) if _UNMARKED in problem else None
        if wide is not None:
            try:
                return data.decode(wide)
            except UnicodeDecodeError as bad:
                raise InputError(source, f"invalid {wide.upper()} text (byte {bad.start})") from None
        if _SWITCHED in problem:
            text = _guessed(data)
            if text is not None:
                return text
        raise  # binary: no encoding makes it text


#: bytes of a file with at most this share (or this many) outside ASCII are read as
#: Windows-1252 without a guess, unless that reads two or more of them in a row with
#: no ASCII letter beside (Japanese's "¥í¥°¥¤¥ó", not "Kämpf" or "väärä"): given two
#: or three such bytes among thousands, charset-normalizer took a name's "ä" or "é"
#: for half of a Chinese or Japanese character (4 of the 28 Latin-1 files under
#: /usr/share/doc here: "Kämpf" as Big5's "K鄝pf")
FEW_HIGH_SHARE = 0.01
FEW_HIGH_BYTES = 4
_HIGH = bytes(range(128, 256))
_FOREIGN_RUN = re.compile(r"(?<![A-Za-z])[^\x00-\x7f]{2,}(?![A-Za-z])")


def _few_high_bytes(data: bytes) -> bool:
    high = len(data) - len(data.translate(None, _HIGH))
    return high <= max(FEW_HIGH_BYTES, FEW_HIGH_SHARE * len(data))


def _western(data: bytes) -> str:
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:  # one of the five bytes Windows-1252 leaves undefined
        return data.decode("latin-1")


def windows_codepage(value: object) -> str:
    """The codec of a Windows code page number as Office files store it (1252, 950 ...;
    65001 is UTF-8), Windows-1252 where there is none or Python knows none by it."""
    name = "utf-8" if value == 65001 else f"cp{value & 0xFFFF}" if isinstance(value, int) \
        and value else "cp1252"
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name


def bom_encoding(data: bytes) -> str | None:
    """``utf-32`` or ``utf-16`` where the bytes open with that encoding's byte-order
    mark, else None."""
    for mark, name in _MARKS:
        if data.startswith(mark):
            return name
    return None


def binary_head(head: bytes) -> bool:
    """Whether a file's first bytes are binary data: a NUL byte in them, and neither a
    byte-order mark nor the NUL bytes of UTF-16 or UTF-32 text."""
    return b"\x00" in head and bom_encoding(head) is None and unmarked_wide(head) is None


def control_binary(sample: bytes) -> bool:
    """Whether bytes without a NUL byte are binary data all the same: more control
    characters than text has (:func:`binary_problem`), which are neither a terminal's
    codes nor ISO-2022's escapes (pdf.js's compressed CMaps, ``.bcmap``, which the
    reader refused as "not valid UTF-8")."""
    if b"\x00" in sample or bom_encoding(sample) is not None:  # (:func:`binary_head`'s)
        return False
    controls = len(sample.translate(None, _NOT_CONTROL))  # (one pass: a walk asks of every file)
    if controls <= MAX_CONTROL_SHARE * len(sample) or _ISO2022.search(sample):
        return False
    problem = binary_problem(sample.decode("latin-1"))  # (C0 controls are one byte in both)
    return problem is not None and problem.startswith("binary file")


#: every byte but :data:`CONTROL_CHARS` (deleted, what is left is the controls)
_NOT_CONTROL = bytes(b for b in range(256) if b not in CONTROL_CHARS)


def unmarked_wide(sample: bytes) -> str | None:
    """The encoding of UTF-32 or UTF-16 text written without a byte-order mark
    (``utf-16-le``, ...), told by where its NUL bytes fall: the first of the four that
    decodes ``sample`` (a file's first bytes) to text with no NUL character, no more
    control characters than text has, and at least a third ASCII (the characters whose
    wide forms hold the NUL bytes); else None (binary data, or 8-bit text with a
    stray NUL byte, decode to neither)."""
    for name, width in (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2)):
        head = sample[:len(sample) - len(sample) % width]
        try:  # (not final: the sample may end inside a surrogate pair)
            text = codecs.getincrementaldecoder(name)("strict").decode(head, final=False)
        except UnicodeDecodeError:
            continue
        if text and "\x00" not in text and binary_problem(text) is None \
                and 3 * len(text.encode("ascii", "ignore")) >= len(text):
            return name
    return None


def _guessed(data: bytes) -> str | None:
    """``data`` decoded as the encoding charset-normalizer finds, Windows-1252 (Latin-1
    for its five undefined bytes) where the text reads as a Western European language
    about as well so; None when it finds none that gives text."""
    from charset_normalizer import from_bytes

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        return None
    name = best.encoding
    if not name.startswith(("utf", "iso2022")):
        for match in matches:
            if (match.chaos <= best.chaos + _CHAOS_SLACK
                    and match.coherence >= best.coherence - _COHERENCE_SLACK
                    and _LATIN_1.intersection(match.could_be_from_charset)
                    and _WESTERN.issuperset(match.languages[:3] or ["Unknown"])):
                return _western(data)
    try:
        text = data.decode(name)
    except (UnicodeDecodeError, LookupError):
        return None
    sample = text[:SAMPLE_BYTES]
    return None if "\x00" in sample or binary_problem(sample) else text


#: what a terminal is told rather than shown: an escape sequence (``ESC[1m`` bold,
#: ``ESC[0m``) or a character struck over by a backspace (``N\bN``)
_TERMINAL_CODE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[^\x08]\x08")


def binary_problem(sample: str) -> str | None:
    """Why decoded text is not to be read as text (control characters above
    :data:`MAX_CONTROL_SHARE` of ``sample``), or None. Text formatted for a terminal
    (``man`` page output, a coloured log: escape sequences and overstrikes, which
    would embed as ``[1m``) is told apart from binary data, with how to clean it."""
    controls = sum(1 for ch in sample if ord(ch) in CONTROL_CHARS)
    if not sample or controls <= MAX_CONTROL_SHARE * len(sample):
        return None
    if 2 * len(_TERMINAL_CODE.findall(sample)) >= controls:
        return ("text formatted for a terminal (escape sequences or backspaces, as man "
                "prints bold and underlined words), not plain text; remove them first, "
                "e.g. sed 's/\\x1b\\[[0-9;]*[A-Za-z]//g' FILE | col -bx > FILE.txt")
    return "binary file (control characters), not text"


#: a MIME header block that opens a multipart/related message (what sniffing looks for)
_RELATED = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/related\b", re.I | re.M)
_RECIPIENT = re.compile(rb"^(?:to|cc|received):", re.I | re.M)
_HEADER_LINE = re.compile(rb"[!-9;-~]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*")


def looks_like_mhtml(head: bytes) -> bool:
    """Whether a file's first bytes are a saved web page's MIME header (read by
    ``readers.saved``; sniffed here, below the readers): header lines
    from the first byte to the first blank line, ``Content-Type: multipart/related``
    among them and no recipient (a message with an HTML body and pictures is an
    e-mail, not a page)."""
    end = re.search(rb"\r?\n\r?\n", head)
    if end is None:
        return False
    header = head[:end.end()].lstrip(b"\xef\xbb\xbf")
    at = 0
    while at < len(header) and (m := _HEADER_LINE.match(header, at)) is not None:
        at = m.end()
    return header[at:].strip() == b"" and _RELATED.search(header) is not None \
        and _RECIPIENT.search(header) is None
