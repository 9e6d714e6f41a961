"""Word 97-2003 binary documents (``.doc``, ``.dot``): the text of the main document,
its footnotes, endnotes and text boxes, read through the piece table, with headings
(Title, Heading 1-9 and outline levels, by paragraph and style), list items and
tables from each paragraph's properties. Field codes (``HYPERLINK "..."``, ``PAGE``)
are left out and their results kept; pictures, page headers and footers and comments
are not read. The document text is the extracted text, blocks joined by blank lines
(tables as pipe tables), as for DOCX; offsets index it.

No maintained Python library reads this format (python-docx reads only .docx; the
tools that do are Java's Apache POI and C programs such as antiword), so the few
structures the text needs are read here, after Microsoft's [MS-DOC] specification:
the File Information Block, the piece table (CLX), the paragraph property pages
(PAPX FKPs) and the style sheet (STSH). The compound file around them is read with
olefile. Word 6 and Word 95 files (an older layout) are read when they were saved
whole (not fast-saved): their text is one run of 8-bit characters."""

from __future__ import annotations

import io
import re
import struct
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..types import Document
from .decoding import windows_codepage
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE
from .structure import HeadingTrail, TextBuilder

#: a WordDocument stream's first two bytes: Word 97 and later, Word 6 and 95
_WORD_IDENTS = (0xA5EC, 0xA5DC)
#: nFib of Word 97 and later; Word 6 and 95 wrote 101-105
_NFIB_97 = 0xC1
#: the (fc, lcb) pairs of FibRgFcLcb97 this reader uses, by their index
_STSHF, _PLCF_BTE_CHPX, _PLCF_BTE_PAPX, _CLX = 1, 12, 13, 33
#: FibRgLw97's character counts of the story parts, in the order Word lays them out:
#: main text, footnotes, headers, (reserved), comments, endnotes, text boxes, header text
#: boxes
_STORIES = ("text", "footnotes", "headers", "reserved", "comments", "endnotes", "text boxes",
            "header text boxes")
#: the stories read, in that order: the text, then notes and boxes after it (as DOCX)
_READ = ("text", "footnotes", "endnotes", "text boxes")
#: characters that end a paragraph (``\r``) and a table cell or row (``\x07``)
_PARAGRAPH_END, _CELL_END = "\r", "\x07"
_ENDS = re.compile("[\r\x07]")
_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END = "\x13", "\x14", "\x15"
#: characters as they read: a line break, a page or section break, a non-breaking and an
#: optional hyphen, Word's own non-breaking space
_CHARACTERS = str.maketrans({"\x0b": "\n", "\x0c": "\n", "\x1e": "-", "\x1f": None,
                             "\xa0": " "})
#: paragraph properties (sprm codes) read: outline level, in a table, the row's end
#: mark, nesting depth, an inner table's row end, a list
_OUTLINE, _IN_TABLE, _ROW_END, _DEPTH, _INNER_ROW_END, _LIST = (
    0x2640, 0x2416, 0x2417, 0x6649, 0x244C, 0x460B)
#: a character property: deleted with changes tracked
_DELETED = 0x0800
#: built-in style identifiers (sti): Normal, Heading 1-9, Title; list styles
_STI_TITLE = 62
_STI_LISTS = frozenset((47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61))
#: the longest paragraph an outline level alone makes a heading (as DOCX)
_OUTLINE_HEADING_CHARS = 200


@dataclass(slots=True)
class _Props:
    """What a paragraph's properties say: its style, outline level, table and list."""

    istd: int = 0
    outline: int | None = None
    in_table: bool = False
    row_end: bool = False
    listed: bool = False


@dataclass(slots=True)
class _Style:
    sti: int
    base: int
    name: str
    outline: int | None


def parse_doc(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    word, table, meta = _streams(data, name)
    fib = _Fib(word, name)
    if fib.nfib < _NFIB_97:
        text = fib.old_text()
        out = TextBuilder()
        for paragraph in _clean(text).split(_PARAGRAPH_END):
            out.add_block("paragraph", paragraph, ())
        return _document(out, None, doc_id, source, meta)
    if table is None:
        raise InputError(name, "a Word document without its table stream (damaged?)")
    pieces = _Pieces(word, table, fib, name)
    styles = _styles(table, fib)
    papx = _ParagraphProps(word, table, fib)
    deleted = _deleted_runs(word, table, fib)
    out, trail = TextBuilder(), HeadingTrail()
    title: str | None = None
    cp = 0
    for story, length in zip(_STORIES, fib.story_lengths, strict=True):
        if story in _READ and length > 0:
            paragraphs = _paragraphs(pieces, papx, deleted, cp, cp + length)
            main = story == "text"  # (notes and boxes after the text: under no heading)
            found = _add_story(out, trail if main else HeadingTrail(), paragraphs, styles, main)
            title = title or found
        cp += length
    return _document(out, title, doc_id, source, meta)


def _document(out: TextBuilder, title: str | None, doc_id: str, source: str | None,
              meta: dict[str, Any]) -> Document:
    return Document(text=out.text, doc_id=doc_id, source=source,
                    title=meta.get("title") or title, blocks=tuple(out.blocks),
                    metadata={"format": "doc", **meta})


def _streams(data: bytes, name: str) -> tuple[bytes, bytes | None, dict[str, Any]]:
    """The WordDocument and table streams of the compound file, and its summary."""
    import olefile

    if not data.startswith(OLE_SIGNATURE):
        raise InputError(name, "not a Word 97-2003 document (not an OLE compound file)")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError, struct.error, IndexError) as e:  # olefile's own errors
        raise InputError(name, f"not a Word 97-2003 document (a damaged compound file: {e})") \
            from None
    with ole:
        if not ole.exists("WordDocument"):
            if ole.exists("EncryptedPackage"):
                raise InputError(name, "a password-protected Office document: save it without a "
                                       "password")
            raise InputError(name, "not a Word document (a compound file without its "
                                   "WordDocument stream: an old Excel or PowerPoint file?)")
        try:
            word = ole.openstream("WordDocument").read()
            flags = struct.unpack_from("<H", word, 0x0A)[0] if len(word) >= 12 else 0
            which = "1Table" if flags & 0x0200 else "0Table"
            table = ole.openstream(which).read() if ole.exists(which) else None
            meta = _summary(ole)
        except (OSError, ValueError, struct.error, IndexError) as e:
            raise InputError(name, f"damaged Word document ({e})") from None
    return word, table, meta


#: the summary information's properties read: its code page, title, subject, author,
#: keywords
_CODEPAGE, _SUMMARY = 1, {2: "title", 3: "subject", 4: "author", 5: "keywords"}


def _summary(ole: Any) -> dict[str, Any]:
    """Title, author, subject and keywords from the summary information property set,
    where set. Read here, within the stream's bounds: olefile's reader looped for minutes
    over a damaged file's property count."""
    if not ole.exists("\x05SummaryInformation"):
        return {}
    data = ole.openstream("\x05SummaryInformation").read(1 << 20)
    out: dict[str, Any] = {}
    try:
        (at,) = struct.unpack_from("<I", data, 44)  # the first section's offset
        _, count = struct.unpack_from("<II", data, at)
        entries = [struct.unpack_from("<II", data, at + 8 + 8 * i)
                   for i in range(min(count, (len(data) - at) // 8))]
        values: dict[int, Any] = {}
        for pid, offset in entries:
            if pid == _CODEPAGE or pid in _SUMMARY:
                values[pid] = _property(data, at + offset)
    except struct.error:
        return out
    codepage = values.get(_CODEPAGE)
    for pid, key in _SUMMARY.items():
        value = values.get(pid)
        if isinstance(value, bytes):
            value = value.decode(windows_codepage(codepage), "replace")
        if isinstance(value, str) and value.strip("\x00 "):
            out[key] = value.strip("\x00 ")
    return out


def _property(data: bytes, at: int) -> Any:
    """A property's value: an integer, or a string's bytes (8-bit) or text (UTF-16)."""
    (kind,) = struct.unpack_from("<I", data, at)
    if kind == 2:  # VT_I2
        return struct.unpack_from("<h", data, at + 4)[0]
    (size,) = struct.unpack_from("<I", data, at + 4)
    if kind == 0x1E:  # VT_LPSTR
        return data[at + 8:at + 8 + size]
    if kind == 0x1F:  # VT_LPWSTR
        return data[at + 8:at + 8 + 2 * size].decode("utf-16-le", "replace")
    return None


class _Fib:
    """The File Information Block: where the text's parts and tables are."""

    def __init__(self, word: bytes, name: str):
        if len(word) < 0x20 or struct.unpack_from("<H", word, 0)[0] not in _WORD_IDENTS:
            raise InputError(name, "not a Word document (its WordDocument stream has no Word "
                                   "header)")
        self.word, self.name = word, name
        self.nfib, _, _, _, flags = struct.unpack_from("<HHHHH", word, 2)
        if struct.unpack_from("<H", word, 0)[0] != _WORD_IDENTS[0]:
            self.nfib = min(self.nfib, _NFIB_97 - 1)
        if flags & 0x0100:  # fEncrypted
            raise InputError(name, "a password-protected Word document: save it without a "
                                   "password")
        self.complex = bool(flags & 0x0004)
        if self.nfib < _NFIB_97:
            return
        try:
            csw = struct.unpack_from("<H", word, 32)[0]
            lw_at = 32 + 2 + 2 * csw + 2
            cslw = struct.unpack_from("<H", word, lw_at - 2)[0]
            self.story_lengths = [max(0, n) for n in struct.unpack_from("<8i", word, lw_at + 12)]
            fc_at = lw_at + 4 * cslw + 2
            count = struct.unpack_from("<H", word, fc_at - 2)[0]
            self.pairs = [struct.unpack_from("<II", word, fc_at + 8 * i)
                          for i in range(min(count, _CLX + 1))]
        except struct.error:
            raise InputError(name, "damaged Word document (its header is cut short)") from None
        if len(self.pairs) <= _CLX:
            raise InputError(name, "damaged Word document (its header is cut short)")

    def pair(self, index: int) -> tuple[int, int]:
        return self.pairs[index]

    def old_text(self) -> str:
        """A Word 6 or 95 document's text: one run of 8-bit characters (fcMin to fcMac),
        the main text's ccpText of them; a fast-saved one is refused."""
        if self.complex:
            raise InputError(self.name, "a fast-saved Word 6/95 document: open it in Word or "
                                        "LibreOffice and save it as .docx")
        fc_min, fc_mac = struct.unpack_from("<II", self.word, 0x18)
        ccp_text = struct.unpack_from("<i", self.word, 0x34)[0]
        raw = self.word[fc_min:min(fc_mac, fc_min + max(0, ccp_text))]
        return raw.decode("cp1252", "replace")


class _Pieces:
    """The piece table: which bytes of the WordDocument stream hold which characters
    (CPs), as 8-bit (cp1252) or UTF-16 text."""

    def __init__(self, word: bytes, table: bytes, fib: _Fib, name: str):
        fc, lcb = fib.pair(_CLX)
        clx = table[fc:fc + lcb]
        pos = 0
        while pos < len(clx) and clx[pos] == 0x01:  # Prc: property modifiers, passed over
            if pos + 3 > len(clx):
                break
            pos += 3 + struct.unpack_from("<H", clx, pos + 1)[0]
        if pos + 5 > len(clx) or clx[pos] != 0x02:
            raise InputError(name, "damaged Word document (no piece table)")
        lcb_pcd = struct.unpack_from("<I", clx, pos + 1)[0]
        plc = clx[pos + 5:pos + 5 + lcb_pcd]
        n = (len(plc) - 4) // 12
        if n <= 0:
            raise InputError(name, "damaged Word document (an empty piece table)")
        self.cps = list(struct.unpack_from(f"<{n + 1}i", plc, 0))
        self.pieces: list[tuple[int, bool]] = []  # (byte offset, compressed)
        for i in range(n):
            raw_fc = struct.unpack_from("<I", plc, 4 * (n + 1) + 8 * i + 2)[0]
            compressed = bool(raw_fc & 0x40000000)
            fc_real = raw_fc & 0x3FFFFFFF
            self.pieces.append((fc_real // 2 if compressed else fc_real, compressed))
        self.word = word

    def runs(self, lo: int, hi: int) -> Iterator[tuple[int, str, int, bool]]:
        """The text of CPs ``[lo, hi)`` as (first CP, text, its first byte, compressed)
        runs, piece by piece."""
        i = max(0, bisect_right(self.cps, lo) - 1)
        while i < len(self.pieces) and self.cps[i] < hi:
            start, end = max(lo, self.cps[i]), min(hi, self.cps[i + 1])
            if end > start:
                at, compressed = self.pieces[i]
                width = 1 if compressed else 2
                first = at + (start - self.cps[i]) * width
                raw = self.word[first:first + (end - start) * width]
                text = raw.decode("cp1252", "replace") if compressed else \
                    raw.decode("utf-16-le", "replace")
                yield start, text, first, compressed
            i += 1


def _fkp_pages(word: bytes, table: bytes, fib: _Fib, pair: int) -> Iterator[bytes]:
    """The 512-byte property pages (FKPs) a bin table (PlcBtePapx, PlcBteChpx) lists."""
    fc, lcb = fib.pair(pair)
    n = (lcb - 4) // 8 if lcb >= 12 else 0
    plc = table[fc:fc + lcb]
    for i in range(n):
        try:
            pn = struct.unpack_from("<I", plc, 4 * (n + 1) + 4 * i)[0] & 0x3FFFFF
        except struct.error:
            return
        page = word[pn * 512:pn * 512 + 512]
        if len(page) == 512:
            yield page


class _ParagraphProps:
    """Each paragraph's properties, found by the byte offset of its end mark in the
    PAPX pages (FKPs) the bin table lists."""

    def __init__(self, word: bytes, table: bytes, fib: _Fib):
        runs = sorted((r for page in _fkp_pages(word, table, fib, _PLCF_BTE_PAPX)
                       for r in _fkp_runs(page)), key=lambda r: r[0])
        self.starts = [r[0] for r in runs]
        self.ends = [r[1] for r in runs]
        self.props = [r[2] for r in runs]

    def at(self, fc: int) -> _Props:
        i = bisect_right(self.starts, fc) - 1
        if i >= 0 and fc < self.ends[i]:
            return self.props[i]
        return _Props()


def _deleted_runs(word: bytes, table: bytes, fib: _Fib) -> list[tuple[int, int]]:
    """The byte ranges of text deleted with changes tracked (sprmCFRMarkDel in the
    character properties' pages), sorted: Word shows them struck through, the document
    reads without them (a table's "20,223" deleted for "30,000" read "20,22330,000")."""
    out: list[tuple[int, int]] = []
    for page in _fkp_pages(word, table, fib, _PLCF_BTE_CHPX):
        crun = page[511]
        if 5 * crun + 4 > 511:
            continue
        fcs = struct.unpack_from(f"<{crun + 1}I", page, 0)
        for i in range(crun):
            offset = page[4 * (crun + 1) + i] * 2
            if not offset:
                continue
            grp = page[offset + 1:offset + 1 + page[offset]]
            if any(sprm == _DELETED and operand and operand[0] in (1, 0x81)
                   for sprm, operand in _sprms(grp, 0)):
                out.append((fcs[i], fcs[i + 1]))
    return sorted(out)


def _without_deleted(text: str, first: int, width: int, deleted: list[tuple[int, int]]) -> str:
    """``text`` (starting at byte ``first``, ``width`` bytes a character) with its deleted
    characters as NULs, which :func:`_clean` drops (the rest keep their places)."""
    end = first + len(text) * width
    i = max(0, bisect_right(deleted, (first, first)) - 1)
    chars: list[str] | None = None
    while i < len(deleted) and deleted[i][0] < end:
        a, b = deleted[i]
        lo, hi = max(0, (a - first) // width), min(len(text), -(-(b - first) // width))
        if hi > lo:
            chars = chars if chars is not None else list(text)
            chars[lo:hi] = "\x00" * (hi - lo)
        i += 1
    return text if chars is None else "".join(chars)


def _fkp_runs(page: bytes) -> Iterator[tuple[int, int, _Props]]:
    crun = page[511]
    if 4 * (crun + 1) + 13 * crun > 511:
        return
    fcs = struct.unpack_from(f"<{crun + 1}I", page, 0)
    for i in range(crun):
        offset = page[4 * (crun + 1) + 13 * i] * 2
        props = _Props()
        if offset:
            cb = page[offset]
            start, size = (offset + 1, 2 * cb - 1) if cb else (offset + 2, 2 * page[offset + 1])
            grp = page[start:start + size]
            if len(grp) >= 2:
                props.istd = struct.unpack_from("<H", grp, 0)[0]
                _apply(props, grp, 2)
        yield fcs[i], fcs[i + 1], props


def _sprms(grp: bytes, pos: int) -> Iterator[tuple[int, bytes]]:
    """(sprm, operand) of the property modifiers in ``grp`` from ``pos`` on."""
    while pos + 2 <= len(grp):
        sprm = struct.unpack_from("<H", grp, pos)[0]
        pos += 2
        spra = sprm >> 13
        if spra == 6:  # variable: a size byte (two for a table definition)
            if sprm == 0xD608 and pos + 2 <= len(grp):
                size = struct.unpack_from("<H", grp, pos)[0] - 1
                pos += 2
            elif pos < len(grp) and not (sprm == 0xC615 and grp[pos] == 255):
                size = grp[pos]
                pos += 1
            else:
                return  # (a tab list in its long form: nothing after it is needed)
        else:
            size = (1, 1, 2, 4, 2, 2, 0, 3)[spra]
        yield sprm, grp[pos:pos + size]
        pos += size


def _apply(props: _Props, grp: bytes, pos: int) -> None:
    for sprm, operand in _sprms(grp, pos):
        if not operand:
            continue
        if sprm == _OUTLINE:
            props.outline = operand[0]
        elif sprm == _IN_TABLE:
            props.in_table = bool(operand[0])
        elif sprm in (_ROW_END, _INNER_ROW_END):
            props.row_end = props.row_end or bool(operand[0])
        elif sprm == _DEPTH and len(operand) == 4:
            props.in_table = props.in_table or struct.unpack("<i", operand)[0] > 0
        elif sprm == _LIST and len(operand) == 2:
            props.listed = struct.unpack("<h", operand)[0] > 0


def _styles(table: bytes, fib: _Fib) -> list[_Style | None]:
    """The style sheet's styles by index: built-in identifier, base style, name and the
    outline level of its paragraph properties (None where the sheet cannot be read)."""
    fc, lcb = fib.pair(_STSHF)
    sheet = table[fc:fc + lcb]
    out: list[_Style | None] = []
    try:
        cb_stshi = struct.unpack_from("<H", sheet, 0)[0]
        cstd, cb_base = struct.unpack_from("<HH", sheet, 2)
        pos = 2 + cb_stshi
        for _ in range(cstd):
            cb_std = struct.unpack_from("<H", sheet, pos)[0]
            std = sheet[pos + 2:pos + 2 + cb_std]
            pos += 2 + cb_std
            out.append(_style(std, cb_base) if cb_std >= 10 else None)
    except struct.error:
        pass
    return out


def _style(std: bytes, cb_base: int) -> _Style | None:
    try:
        w0, w1, w2 = struct.unpack_from("<HHH", std, 0)
        sti, stk, base, cupx = w0 & 0x0FFF, w1 & 0x000F, w1 >> 4, w2 & 0x000F
        pos = cb_base
        cch = struct.unpack_from("<H", std, pos)[0]
        name = std[pos + 2:pos + 2 + 2 * cch].decode("utf-16-le", "replace")
        pos += 2 + 2 * cch + 2
        outline = None
        if stk == 1 and cupx >= 1:  # a paragraph style: its first UPX is the PAPX
            cb_upx = struct.unpack_from("<H", std, pos)[0]
            probe = _Props()
            _apply(probe, std[pos + 2:pos + 2 + cb_upx], 2)
            outline = probe.outline
    except struct.error:
        return None
    return _Style(sti, base, name, outline)


@dataclass(slots=True)
class _Paragraph:
    text: str
    props: _Props
    cell_end: bool  # ends with a cell mark, not a paragraph mark


def _paragraphs(pieces: _Pieces, papx: _ParagraphProps, deleted: list[tuple[int, int]],
                lo: int, hi: int) -> list[_Paragraph]:
    """The paragraphs of CPs ``[lo, hi)``, each with the properties of its end mark;
    deleted text (a deleted paragraph mark too) left out."""
    out: list[_Paragraph] = []
    current: list[str] = []
    for _, text, first, compressed in pieces.runs(lo, hi):
        width = 1 if compressed else 2
        if deleted:
            text = _without_deleted(text, first, width, deleted)
        at = 0
        for m in _ENDS.finditer(text):
            i = m.start()
            current.append(text[at:i])
            out.append(_Paragraph("".join(current), papx.at(first + i * width),
                                  m.group() == _CELL_END))
            current, at = [], i + 1
        current.append(text[at:])
    if any(current):
        out.append(_Paragraph("".join(current), _Props(), False))
    return out


def _clean(text: str) -> str:
    """A paragraph's text as it reads: field codes out (their results kept), control
    characters (pictures, note references, drawn objects) out, breaks as line breaks."""
    if _FIELD_BEGIN in text:
        kept: list[str] = []
        stack: list[bool] = []  # per open field: whether its result has begun
        for ch in text:
            if ch == _FIELD_BEGIN:
                stack.append(False)
            elif ch == _FIELD_SEPARATOR and stack:
                stack[-1] = True
            elif ch == _FIELD_END and stack:
                stack.pop()
            elif all(stack):
                kept.append(ch)
        text = "".join(kept)
    text = text.translate(_CHARACTERS)
    return "".join(ch for ch in text if ch >= " " or ch in "\t\n\r")


def _heading_level(props: _Props, styles: list[_Style | None], text: str) -> int | None:
    """Title 0, Heading N N, else the outline level (the paragraph's, else its style
    chain's) plus one, for short paragraphs (as DOCX)."""
    style = styles[props.istd] if props.istd < len(styles) else None
    if style is not None:
        if style.sti == _STI_TITLE:
            return 0
        if 1 <= style.sti <= 9:
            return style.sti
    if len(text) > _OUTLINE_HEADING_CHARS:
        return None
    level, seen = props.outline, 0
    while level is None and style is not None and seen < 16:
        level = style.outline
        style = styles[style.base] if style.base < len(styles) else None
        seen += 1
    return level + 1 if level is not None and level < 9 else None


def _listed(props: _Props, styles: list[_Style | None]) -> bool:
    style = styles[props.istd] if props.istd < len(styles) else None
    return props.listed or (style is not None and (style.sti in _STI_LISTS
                                                  or style.name.lower().startswith("list")))


def _add_story(out: TextBuilder, trail: HeadingTrail, paragraphs: list[_Paragraph],
               styles: list[_Style | None], main: bool) -> str | None:
    """The blocks of one story; in the main text, the title (the first Title or Heading
    1)."""
    title: str | None = None
    rows: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    for p in paragraphs:
        text = _clean(p.text).strip()
        if p.props.in_table or p.cell_end:
            if p.props.row_end:  # the row's end mark: the row is done
                rows.append(row)
                row, cell = [], []
            elif p.cell_end:
                cell.append(text)
                row.append(" ".join(" ".join(cell).split()))
                cell = []
            else:
                cell.append(text)
            continue
        if rows or row:
            _flush_table(out, trail, rows, row)
            rows, row, cell = [], [], []
        if not text:
            continue
        level = _heading_level(p.props, styles, text) if main else None
        if level is not None:
            trail.push(level, text)
            if title is None and level <= 1:
                title = text
            out.add_block("heading", text, trail.path, level=level)
        else:
            out.add_block("list_item" if _listed(p.props, styles) else "paragraph", text,
                          trail.path)
    if rows or row:
        _flush_table(out, trail, rows, row)
    return title


def _flush_table(out: TextBuilder, trail: HeadingTrail, rows: list[list[str]],
                 row: list[str]) -> None:
    if row:  # (a row whose end mark was not found: kept, not lost)
        rows.append(row)
    out.add_table(rows, trail.path, metadata={"tag": "table"})


DOC = Reader(parse_doc, (".doc", ".dot"), binary=True)
