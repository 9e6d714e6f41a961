"""Deterministic content-hash ids.

An id hashes (document id, context, text, occurrence) where occurrence counts
earlier chunks of the same document with the same context and text. Editing one
passage changes only the ids of chunks whose content changed, so migrating an
index after re-chunking is a set difference.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable


def content_id(doc_id: str, context: str, text: str, occurrence: int = 0) -> str:
    h = hashlib.blake2b(digest_size=12)
    for part in (doc_id, context, text):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    h.update(occurrence.to_bytes(8, "little"))
    return h.hexdigest()


def assign_ids(doc_id: str, items: Iterable[tuple[str, str]]) -> list[str]:
    """Ids for ``(context, text)`` pairs in document order."""
    seen: Counter[tuple[str, str]] = Counter()
    ids = []
    for context, text in items:
        key = (context, text)
        ids.append(content_id(doc_id, context, text, seen[key]))
        seen[key] += 1
    return ids
