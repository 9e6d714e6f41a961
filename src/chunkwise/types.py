"""The data that flows through chunkwise: documents in, chunks out."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class Block:
    """A typed span of a document (heading, paragraph, table, code, ...).

    `start`/`end` index `Document.text`; readers fill `headings` with the trail of
    headings the block sits under and `page` where the format has pages.
    """

    kind: str
    start: int
    end: int
    headings: tuple[str, ...] = ()
    page: int | None = None
    level: int | None = None  # heading level, for kind == "heading"
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Document:
    """A document's full text plus optional structure.

    `text` is what every chunk offset indexes. For plain text and Markdown it is
    the file's decoded text exactly as read (no newline normalisation).
    """

    text: str
    doc_id: str
    source: str | None = None
    title: str | None = None
    blocks: tuple[Block, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Chunk:
    """One passage: a verbatim slice of its document plus what is added for embedding.

    Invariant: ``document.text[chunk.start:chunk.end] == chunk.text``.
    `context` (heading trail, repeated table header, ...) is never part of the
    source text; `embed_text` is ``context + text`` and `token_count` counts it.
    """

    id: str
    doc_id: str
    text: str
    start: int
    end: int
    context: str = ""
    token_count: int = 0
    kind: str = "prose"
    headings: tuple[str, ...] = ()
    page: int | None = None
    parent_id: str | None = None
    source: str | None = None
    level: int = 0
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def embed_text(self) -> str:
        return self.context + self.text

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "doc_id": self.doc_id,
            "source": self.source,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "context": self.context,
            "embed_text": self.embed_text,
            "token_count": self.token_count,
            "kind": self.kind,
            "headings": list(self.headings),
            "page": self.page,
            "parent_id": self.parent_id,
            "level": self.level,
            "metadata": dict(self.metadata),
        }
