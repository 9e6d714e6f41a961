"""Deterministic content-hash ids.

An id hashes (document id, context, text, occurrence) where occurrence counts
earlier chunks of the same document with the same context and text. Editing one
passage changes only the ids of chunks whose content changed, so migrating an
index after re-chunking is a set difference.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable

#: In a document's name, stands before the two hex digits of a byte of its file
#: name that is not UTF-8 (and, doubled, for itself), so that every name is valid
#: Unicode (JSON, Arrow, PostgreSQL) and maps back to the file: see :func:`path_of`.
NAME_ESCAPE = "\ufffd"


def name_of(path: str | os.PathLike[str]) -> str:
    """A file's name as chunkwise stores it (``source``, ``doc_id``): the path as
    Python spells it, except that a byte that is not UTF-8 (which Python holds as a
    lone surrogate ``\\udcXX``) becomes U+FFFD and two hex digits (``caf\\xe9.md``
    -> ``caf\ufffde9.md``) and a U+FFFD in the name is doubled. ``path_of`` reverses it."""
    name = os.fspath(path)
    if NAME_ESCAPE not in name:
        try:
            name.encode("utf-8")
            return name
        except UnicodeEncodeError:
            pass
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"{NAME_ESCAPE}{code - 0xDC00:02x}")
        elif ch == NAME_ESCAPE:
            out.append(NAME_ESCAPE * 2)
        else:
            out.append(ch)
    return "".join(out)


def path_of(name: str) -> str:
    """The path a stored name stands for (``os.fsencode`` gives its bytes): the
    inverse of :func:`name_of`."""
    if NAME_ESCAPE not in name:
        return name
    out, i = [], 0
    while i < len(name):
        ch = name[i]
        if ch != NAME_ESCAPE:
            out.append(ch)
            i += 1
        elif name[i + 1:i + 2] == NAME_ESCAPE:
            out.append(NAME_ESCAPE)
            i += 2
        else:
            digits = name[i + 1:i + 3]
            try:
                byte = int(digits, 16) if len(digits) == 2 else -1
            except ValueError:
                byte = -1
            # a U+FFFD not followed by an escape (a name written by hand) stays itself
            out.append(chr(0xDC00 + byte) if byte >= 0x80 else ch)
            i += 3 if byte >= 0x80 else 1
    return "".join(out)


def content_id(doc_id: str, context: str, text: str, occurrence: int = 0) -> str:
    h = hashlib.blake2b(digest_size=12)
    for part in (doc_id, context, text):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    h.update(occurrence.to_bytes(8, "little"))
    return h.hexdigest()


class IdAssigner:
    """Ids for one document's ``(context, text)`` pairs given in document order, over
    as many calls as the document comes in (windows of a long one): each pair's
    occurrence is counted by its first id (24 hex digits, not the passage's text)."""

    def __init__(self, doc_id: str):
        self.doc_id = doc_id
        self.seen: Counter[str] = Counter()

    def __call__(self, context: str, text: str) -> str:
        first = content_id(self.doc_id, context, text)
        occurrence = self.seen[first]
        self.seen[first] = occurrence + 1
        return first if occurrence == 0 else content_id(self.doc_id, context, text, occurrence)


def assign_ids(doc_id: str, items: Iterable[tuple[str, str]]) -> list[str]:
    """Ids for ``(context, text)`` pairs in document order."""
    assign = IdAssigner(doc_id)
    return [assign(context, text) for context, text in items]
