"""PowerPoint 97-2003 binary decks (``.ppt``, ``.pps``): read as ``.pptx`` decks are,
each slide a section under its title and a page of its own, its placeholders' and
text boxes' text, the speaker notes a paragraph after it. The document text is the
extracted text, blocks joined by blank lines; offsets index it.

As for ``.doc``, no maintained Python library reads the format (python-pptx reads
only .pptx), so the few records the text needs are read here after Microsoft's
[MS-PPT]: the current user's last edit, the persist directory of every edit before
it, the document's slide list (its slides in order, with the placeholders' text),
and each slide's drawing (its text boxes) and notes. The compound file around them is
read with olefile. Every read is bounded by its stream."""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator

from ..errors import InputError
from ..types import Document
from .reader import Reader
from .spreadsheet import OLE_SIGNATURE
from .structure import HeadingTrail, TextBuilder

_STREAM, _CURRENT_USER = "PowerPoint Document", "Current User"
_ENCRYPTED_TOKEN = 0xF3D1C4DF
#: record types read
(_DOCUMENT, _SLIDE, _SLIDE_ATOM, _NOTES, _SLIDE_LIST, _SLIDE_PERSIST, _USER_EDIT,
 _PERSIST_DIRECTORY, _TEXT_HEADER, _TEXT_CHARS, _TEXT_BYTES, _OUTLINE_REF,
 _CRYPT_SESSION) = (0x03E8, 0x03EE, 0x03EF, 0x03F0, 0x0FF0, 0x03F3, 0x0FF5, 0x1772,
                    0x0F9F, 0x0FA0, 0x0FA8, 0x0F9E, 0x2F14)
#: a text's type (TextHeaderAtom): title and centred title
_TITLES = (0, 6)
#: a shape (OfficeArt's SpContainer) and its placeholder (PlaceholderAtom), whose
#: placement says a title (title, centred, vertical) or what is no content (the date,
#: slide number, footer and header a master lays out)
_SHAPE, _PLACEHOLDER = 0xF004, 0x0BC3
_TITLE_PLACEMENTS = frozenset((0x0D, 0x0F, 0x11))
_NOT_CONTENT = frozenset((0x07, 0x08, 0x09, 0x0A))
#: the most user edits followed back (a damaged file may point in a circle)
_MAX_EDITS = 4096


def parse_ppt(data: bytes, doc_id: str, source: str | None = None) -> Document:
    name = source or doc_id
    stream, user = _streams(data, name)
    deck = _Deck(stream, user, name)
    out, metadata_title = TextBuilder(), None
    for number, (persist, placeholder_texts) in enumerate(deck.slides(), start=1):
        texts = list(placeholder_texts)
        slide_offset = deck.offset(persist)
        notes: list[str] = []
        if slide_offset is not None:
            seen = {t for _, t in texts}
            texts += [(k, t) for k, t in deck.texts_in(slide_offset) if t not in seen]
            notes = [t for _, t in deck.texts_in(deck.notes_of(slide_offset))]
        title = next((t for kind, t in texts if kind in _TITLES), None)
        trail = HeadingTrail()
        if title:
            trail.push(1, _one_line(title))
            out.add_block("heading", _one_line(title), trail.path, page=number, level=1)
            metadata_title = metadata_title or _one_line(title)
        for kind, text in texts:
            if kind in _TITLES and text == title:
                continue
            for paragraph in text.split("\r"):
                out.add_block("paragraph", paragraph.replace("\x0b", "\n"), trail.path,
                              page=number)
        if notes:
            out.add_block("paragraph", " ".join(" ".join(notes).split()), trail.path,
                          page=number, metadata={"speaker_notes": True})
    return Document(text=out.text, doc_id=doc_id, source=source, title=metadata_title,
                    blocks=tuple(out.blocks), metadata={"format": "ppt"})


def _one_line(text: str) -> str:
    return " ".join(text.replace("\x0b", " ").replace("\r", " ").split())


def _streams(data: bytes, name: str) -> tuple[bytes, bytes]:
    import olefile

    if not data.startswith(OLE_SIGNATURE):
        raise InputError(name, "not a PowerPoint 97-2003 file (not an OLE compound file)")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError, struct.error, IndexError) as e:
        raise InputError(name, f"not a PowerPoint 97-2003 file (a damaged compound file: {e})") \
            from None
    with ole:
        if ole.exists("EncryptedPackage"):
            raise InputError(name, "a password-protected Office document: save it without a "
                                   "password")
        if not ole.exists(_STREAM) or not ole.exists(_CURRENT_USER):
            raise InputError(name, "not a PowerPoint 97-2003 file (no PowerPoint Document "
                                   "stream: an older PowerPoint, or another Office file?)")
        try:
            return ole.openstream(_STREAM).read(), ole.openstream(_CURRENT_USER).read()
        except (OSError, ValueError, struct.error, IndexError) as e:
            raise InputError(name, f"damaged PowerPoint file ({e})") from None


def _records(data: bytes, start: int, end: int) -> Iterator[tuple[int, int, int, int]]:
    """(type, instance, body start, body end) of the records in ``data[start:end]``,
    one level (a container's body holds records of its own)."""
    end = min(end, len(data))
    pos = start
    while pos + 8 <= end:
        ver_instance, rec_type, length = struct.unpack_from("<HHI", data, pos)
        body = pos + 8
        stop = min(body + length, end)
        yield rec_type, ver_instance >> 4, body, stop
        if ver_instance & 0xF == 0xF or length <= end - body:
            pos = body + length
        else:
            return


def _is_container(data: bytes, at: int) -> bool:
    return at + 2 <= len(data) and data[at] & 0xF == 0xF


class _Deck:
    """The last edit's view of the deck: the persist directory (object id -> offset)
    and the document's slide list."""

    def __init__(self, stream: bytes, user: bytes, name: str):
        self.stream, self.name = stream, name
        try:
            token, edit_at = struct.unpack_from("<II", user, 12)
        except struct.error:
            raise InputError(name, "damaged PowerPoint file (its current user record is cut "
                                   "short)") from None
        if token == _ENCRYPTED_TOKEN:
            raise InputError(name, "a password-protected PowerPoint file: save it without a "
                                   "password")
        self.directory: dict[int, int] = {}
        self.notes: dict[int, int] = {}  # a notes page's id -> its persist id
        document_ref = None
        seen: set[int] = set()
        while edit_at and edit_at not in seen and len(seen) < _MAX_EDITS:
            seen.add(edit_at)
            try:
                _, rec_type, _ = struct.unpack_from("<HHI", stream, edit_at)
                if rec_type != _USER_EDIT:
                    break
                last_edit, directory_at, doc_ref = struct.unpack_from("<III", stream,
                                                                      edit_at + 8 + 8)
                if len(stream) >= edit_at + 8 + 32 and document_ref is None:
                    # an encrypted deck names its encryption's persist object here
                    (crypt_ref,) = struct.unpack_from("<I", stream, edit_at + 8 + 28)
                    if crypt_ref and self._type_at(crypt_ref, directory_at) == _CRYPT_SESSION:
                        raise InputError(name, "a password-protected PowerPoint file: save it "
                                               "without a password")
            except struct.error:
                break
            document_ref = doc_ref if document_ref is None else document_ref
            self._read_directory(directory_at)
            edit_at = last_edit
        at = self.directory.get(document_ref) if document_ref is not None else None
        if at is None or self._type(at) != _DOCUMENT:
            raise InputError(name, "damaged PowerPoint file (its document record is not where "
                                   "its last edit says)")
        self.document = at

    def _read_directory(self, at: int) -> None:
        """One edit's persist directory; an id a later edit set keeps its later offset."""
        try:
            _, rec_type, length = struct.unpack_from("<HHI", self.stream, at)
        except struct.error:
            return
        if rec_type != _PERSIST_DIRECTORY:
            return
        pos, end = at + 8, min(at + 8 + length, len(self.stream))
        while pos + 4 <= end:
            (entry,) = struct.unpack_from("<I", self.stream, pos)
            first, count = entry & 0xFFFFF, entry >> 20
            pos += 4
            for i in range(count):
                if pos + 4 > end:
                    return
                self.directory.setdefault(first + i, struct.unpack_from("<I", self.stream, pos)[0])
                pos += 4

    def _type_at(self, ref: int, directory_at: int) -> int | None:
        self._read_directory(directory_at)
        at = self.directory.get(ref)
        return self._type(at) if at is not None else None

    def _type(self, at: int) -> int | None:
        try:
            return int(struct.unpack_from("<H", self.stream, at + 2)[0])
        except struct.error:
            return None

    def offset(self, ref: int | None) -> int | None:
        at = self.directory.get(ref) if ref is not None else None
        return at if at is not None and self._type(at) in (_SLIDE, _NOTES) else None

    def slides(self) -> list[tuple[int | None, list[tuple[int, str]]]]:
        """Each slide in order: its persist id, and its placeholders' texts (type, text)
        from the document's slide list."""
        stream = self.stream
        (length,) = struct.unpack_from("<I", stream, self.document + 4)
        out: list[tuple[int | None, list[tuple[int, str]]]] = []
        for rec_type, instance, body, stop in _records(stream, self.document + 8,
                                                       self.document + 8 + length):
            if rec_type == _SLIDE_LIST and instance == 2:  # the notes pages: id -> persist id
                for child, _, c_body, c_stop in _records(stream, body, stop):
                    if child == _SLIDE_PERSIST and c_stop - c_body >= 16:
                        ref, _, _, slide_id = struct.unpack_from("<IIII", stream, c_body)
                        self.notes[slide_id] = ref
            if rec_type != _SLIDE_LIST or instance != 0:
                continue
            kind = 4
            for child, _, c_body, c_stop in _records(stream, body, stop):
                if child == _SLIDE_PERSIST and c_stop - c_body >= 4:
                    out.append((struct.unpack_from("<I", stream, c_body)[0], []))
                elif child == _TEXT_HEADER and c_stop - c_body >= 4:
                    kind = struct.unpack_from("<I", stream, c_body)[0]
                elif child in (_TEXT_CHARS, _TEXT_BYTES) and out:
                    text = _text(stream, child, c_body, c_stop)
                    if text.strip():
                        out[-1][1].append((kind, text))
        return out

    def texts_in(self, at: int | None) -> list[tuple[int, str]]:
        """The texts (type, text) anywhere inside the record at ``at`` (a slide's or a
        notes page's drawing: its text boxes), in order."""
        if at is None:
            return []
        stream = self.stream
        (length,) = struct.unpack_from("<I", stream, at + 4)
        out: list[tuple[int, str]] = []
        kind = 4
        placement: int | None = None
        stack = [_records(stream, at + 8, at + 8 + length)]
        budget = 1 << 20  # records looked at: a damaged length cannot make it loop long
        while stack and budget > 0:
            record = next(stack[-1], None)
            if record is None:
                stack.pop()
                continue
            budget -= 1
            rec_type, _, body, stop = record
            if _is_container(stream, body - 8):
                if rec_type == _SHAPE:
                    placement = None  # (a shape's placeholder comes before its text)
                stack.append(_records(stream, body, stop))
            elif rec_type == _PLACEHOLDER and stop - body >= 5:
                placement = stream[body + 4]
            elif rec_type == _TEXT_HEADER and stop - body >= 4:
                kind = struct.unpack_from("<I", stream, body)[0]
            elif rec_type in (_TEXT_CHARS, _TEXT_BYTES):
                text = _text(stream, rec_type, body, stop)
                if text.strip() and placement not in _NOT_CONTENT:
                    out.append((0 if placement in _TITLE_PLACEMENTS else kind, text))
                kind = 4
        return out

    def notes_of(self, slide_at: int) -> int | None:
        """The slide's notes page, which its SlideAtom names (by the id the notes list
        gives it; read after :meth:`slides`)."""
        stream = self.stream
        (length,) = struct.unpack_from("<I", stream, slide_at + 4)
        for rec_type, _, body, stop in _records(stream, slide_at + 8, slide_at + 8 + length):
            if rec_type == _SLIDE_ATOM and stop - body >= 20:
                (notes_id,) = struct.unpack_from("<I", stream, body + 16)
                ref = self.notes.get(notes_id) if notes_id else None
                at = self.directory.get(ref) if ref is not None else None
                return at if at is not None and self._type(at) == _NOTES else None
        return None


def _text(stream: bytes, rec_type: int, body: int, stop: int) -> str:
    raw = stream[body:stop]
    if rec_type == _TEXT_CHARS:
        return raw[:len(raw) & ~1].decode("utf-16-le", "replace")
    return raw.decode("latin-1")  # each byte the low byte of a UTF-16 code unit


def read_ppt(data: bytes, doc_id: str, source: str | None = None) -> Document:
    try:
        return parse_ppt(data, doc_id, source)
    except struct.error:
        raise InputError(source or doc_id, "damaged PowerPoint file (a record is cut short)") \
            from None


PPT = Reader(read_ppt, (".ppt", ".pps"), binary=True)
