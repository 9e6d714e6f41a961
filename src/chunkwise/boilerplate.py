"""Boilerplate across documents: chunks made of text repeated verbatim in many
documents of one corpus (a licence header on every page, a navigation list, a
footer), found among the chunks of an index or an evaluation, flagged
(``metadata.boilerplate``) and by default kept out of ranking.

A line (whitespace collapsed) is *repeated* when it occurs in at least
``min_docs`` documents (by default :data:`MIN_DOCS`, or :data:`MIN_SHARE` of the
corpus's documents where that is more: text shared by 3 of 10,000 pages is
shared content, not boilerplate). A chunk is boilerplate when lines repeated so take at
least :data:`SHARE` of its content characters (lines with fewer than
:data:`MIN_ALNUM` letters or digits, such as a fence or a lone brace, count for
neither side). A document most of whose content would be flagged is a copy of
another (the same page under two versions' folders), not a carrier of
boilerplate: its chunks are not flagged, so that a corpus of copies stays
searchable.

A document's own navigation is flagged the same way: a chunk that is a run of a
table of contents' or a book index's entries (``2.1 Naming . . . . . 6``: dot-leader
entries and little other text; :func:`is_contents`) ranked above the
chapters it lists, for their titles' words, and so did a run of Markdown link
reference definitions (``[`fs.ReadStream`]: fs.md#class-fsreadstream``;
:func:`is_link_table`), unless it is all its document has."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from .errors import ConfigError
from .types import Chunk, stored_metadata

#: documents a line must occur in to be repeated ...
MIN_DOCS = 3
#: ... or this share of the corpus's documents, where that is more
MIN_SHARE = 0.02
#: share of a chunk's content characters in repeated lines that makes it boilerplate
SHARE = 0.75
#: a line with fewer letters or digits is neither content nor boilerplate
MIN_ALNUM = 3
#: a document whose flagged chunks would hold more than this share of its content is
#: a copy, not a carrier of boilerplate
COPY_SHARE = 0.5


#: a contents (or index) entry's end: dot leaders, then a page number (arabic or roman)
_LEADERS = re.compile(r"(?:\.[ \t]?){4,}[ \t]*(?:\d+|[ivxlcdm]+)\b", re.I)
#: characters of other text per entry a run of contents entries may hold
CONTENTS_ENTRY_CHARS = 80


def is_contents(text: str) -> bool:
    """Whether ``text`` is a run of a table of contents' or an index's entries: three
    dot-leader entries or more with at most :data:`CONTENTS_ENTRY_CHARS` characters of
    other text (titles) per entry, or one or two entries and at most half that in all
    (an index's last letter: ``P  Porting . . . . . 1``)."""
    entries = len(_LEADERS.findall(text))
    if not entries:
        return False
    rest = sum(not ch.isspace() for ch in _LEADERS.sub("", text))
    if entries < 3:
        return rest <= CONTENTS_ENTRY_CHARS // 2
    return rest <= CONTENTS_ENTRY_CHARS * entries


#: a Markdown link reference definition (``[fs.ReadStream]: fs.md#class-fsreadstream``):
#: the target of a reference-style link, not text a reader sees
_LINK_DEFINITION = re.compile(
    r"^ {0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*(?:<[^>\n]*>|\S+)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$", re.M)
#: share of a chunk's non-space characters in link definitions that makes it the
#: document's link table
LINK_TABLE_SHARE = 0.8


def is_link_table(text: str) -> bool:
    """Whether ``text`` is a run of Markdown link reference definitions (at least
    :data:`LINK_TABLE_SHARE` of its non-space characters): the list of
    link targets GitHub-style Markdown keeps at a page's end (Node.js's API pages end
    in 50 to 400 of them), which ranked for the words of its links' labels."""
    found = _LINK_DEFINITION.findall(text) if "]:" in text else []
    if not found:
        return False
    total = sum(not ch.isspace() for ch in text)
    return sum(not ch.isspace() for ch in "".join(found)) >= LINK_TABLE_SHARE * total


#: :data:`MIN_ALNUM` letters or digits (``[^\W_]`` is what ``str.isalnum`` admits),
#: anything between them: found in a line by a search that stops at the third, where
#: counting every character of every line took a cold search ~0.1 s
_CONTENT = re.compile(r"(?:\W|_)*".join(["[^\\W_]"] * MIN_ALNUM))


def _lines(text: str) -> list[tuple[int, int]]:
    """The content lines of ``text``: (hash of the line with its whitespace collapsed,
    its length)."""
    out = []
    for line in text.splitlines():
        if _CONTENT.search(line):
            norm = collapsed(line)
            out.append((hash(norm), len(norm)))
    return out


def collapsed(line: str) -> str:
    """A line with its whitespace collapsed (as lines are compared across documents)."""
    return " ".join(line.split())


def boilerplate_ids(items: Iterable[tuple[str, str, str]], min_docs: int | None = None,
                    ) -> set[str]:
    """The ids of the boilerplate chunks among ``items`` (id, doc_id, text)."""
    if min_docs is not None and (isinstance(min_docs, bool) or not isinstance(min_docs, int)
                                 or min_docs < 2):
        raise ConfigError(f"min_docs must be an integer of at least 2, got {min_docs!r}")
    chunks: list[tuple[str, str, list[tuple[int, int]]]] = []
    per_doc: dict[str, set[int]] = defaultdict(set)
    contents: dict[str, list[str]] = defaultdict(list)  # per document: its contents chunks
    n_chunks: Counter[str] = Counter()
    for chunk_id, doc_id, text in items:
        lines = _lines(text or "")
        chunks.append((chunk_id, doc_id, lines))
        per_doc[doc_id].update(h for h, _ in lines)
        n_chunks[doc_id] += 1
        if is_contents(text or "") or is_link_table(text or ""):
            contents[doc_id].append(chunk_id)
    navigation = {cid for doc_id, ids in contents.items() if len(ids) < n_chunks[doc_id]
                  for cid in ids}
    if min_docs is None:
        min_docs = max(MIN_DOCS, math.ceil(MIN_SHARE * len(per_doc)))
    if len(per_doc) < min_docs:
        return navigation
    docs_of: Counter[int] = Counter()
    for hashes in per_doc.values():
        docs_of.update(hashes)
    del per_doc
    flagged: dict[str, list[str]] = defaultdict(list)
    content: dict[str, dict[int, int]] = defaultdict(dict)  # per document: line -> length
    repeated: dict[str, set[int]] = defaultdict(set)  # ... the lines of its flagged chunks
    for chunk_id, doc_id, lines in chunks:
        total = sum(n for _, n in lines)
        if not total:
            continue
        content[doc_id].update(lines)
        covered = sum(n for h, n in lines if docs_of[h] >= min_docs)
        if covered >= SHARE * total:
            flagged[doc_id].append(chunk_id)
            repeated[doc_id].update(h for h, _ in lines)

    def share(doc_id: str) -> float:
        lengths = content[doc_id]
        return sum(lengths[h] for h in repeated[doc_id]) / sum(lengths.values())

    return navigation | {cid for doc_id, ids in flagged.items() if share(doc_id) <= COPY_SHARE
                         for cid in ids}


def row_boilerplate_ids(rows: Iterable[Mapping[str, Any]], min_docs: int | None = None) -> set[str]:
    """:func:`boilerplate_ids` of index rows (``id``, ``doc_id``, ``text``)."""
    return boilerplate_ids(((r["id"], r["doc_id"], r.get("text") or "") for r in rows),
                           min_docs)


def flag_boilerplate(chunks: Iterable[Chunk], min_docs: int | None = None) -> list[Chunk]:
    """The chunks of a corpus, those that are boilerplate with
    ``metadata["boilerplate"] = True`` (the others unchanged)::

        chunks = chunkwise.flag_boilerplate(chunkwise.chunk(Path("docs")))
        kept = [c for c in chunks if not c.metadata.get("boilerplate")]"""
    chunks = list(chunks)
    flagged = boilerplate_ids(((c.id, c.doc_id, c.text) for c in chunks), min_docs)
    return [replace(c, metadata={**c.metadata, "boilerplate": True}) if c.id in flagged else c
            for c in chunks]


def marked(row: dict[str, Any]) -> dict[str, Any]:
    """A copy of an index row with ``metadata.boilerplate`` set (the row's metadata
    may be a JSON string, as stores keep it, or a mapping)."""
    import json

    meta = row.get("metadata")
    if isinstance(meta, str):
        data = json.loads(meta) if meta else {}
        data["boilerplate"] = True
        return {**row, "metadata": json.dumps(data, ensure_ascii=False, sort_keys=True)}
    return {**row, "metadata": {**(meta or {}), "boilerplate": True}}


def is_marked(row: Mapping[str, Any]) -> bool:
    """Whether an index row (or hit) carries ``metadata.boilerplate``."""
    return bool(stored_metadata(row.get("metadata")).get("boilerplate"))
