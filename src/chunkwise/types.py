"""The data that flows through chunkwise: documents in, chunks out."""

from __future__ import annotations

import copyreg
import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeAlias, get_args

from .errors import InputError

#: What a chunk holds. ``prose`` is running text; the others name the structure a
#: strategy kept whole or cut along (a table, a code definition, a question with
#: its answer, a transcript turn, a legal clause, a JSON element).
ChunkKind = Literal["prose", "table", "front_matter", "code", "list", "qa", "turn", "clause",
                    "json", "record"]
CHUNK_KINDS: tuple[str, ...] = get_args(ChunkKind)

#: The kinds of structural block a reader reports.
BlockKind = Literal["heading", "paragraph", "list_item", "table", "code", "quote", "html",
                    "front_matter", "qa", "turn", "clause", "json", "record"]
BLOCK_KINDS: tuple[str, ...] = get_args(BlockKind)


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _reduce_mapping_proxy(m: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(m),)


# documents, blocks and chunks hold read-only mappings; pickling them (to send work
# to other processes) copies the mapping and wraps it read-only again
copyreg.pickle(MappingProxyType, _reduce_mapping_proxy)


def stored_metadata(value: Any) -> dict[str, Any]:
    """A chunk's metadata as a store or a Parquet file keeps it (JSON text) or as a
    mapping: a dict (empty for none)."""
    if isinstance(value, str):
        value = json.loads(value) if value else {}
    return dict(value or {})


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


#: the metadata of a block, chunk or document that has none: one shared read-only
#: mapping (a document's ~10^5 blocks each had a dict and a proxy of their own)
_NO_METADATA: Mapping[str, Any] = MappingProxyType({})


def _no_metadata() -> Mapping[str, Any]:
    return _NO_METADATA


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
    metadata: Mapping[str, Any] = field(default_factory=_no_metadata)


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
    metadata: Mapping[str, Any] = field(default_factory=_no_metadata)


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
    kind: ChunkKind = "prose"
    headings: tuple[str, ...] = ()
    page: int | None = None
    parent_id: str | None = None
    source: str | None = None
    level: int = 0
    prev_id: str | None = None
    next_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=_no_metadata)

    @property
    def embed_text(self) -> str:
        return self.context + self.text

    def to_dict(self) -> dict[str, Any]:
        """Every field (tuples as lists) plus the derived ``embed_text``."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "headings":
                value = list(value)
            elif f.name == "metadata":
                value = dict(value)
            out[f.name] = value
            if f.name == "context":
                out["embed_text"] = self.embed_text
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Chunk:
        """The inverse of :meth:`to_dict` (``embed_text`` is derived, so ignored);
        ``metadata`` may also be a JSON string, as Parquet files store it."""
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name == "headings":
                value = tuple(value or ())
            elif f.name == "metadata":
                value = _frozen(stored_metadata(value))
            values[f.name] = value
        return cls(**values)


def chunk_fields() -> tuple[tuple[str, Any], ...]:
    """(name, type annotation) of every column a sink stores: the Chunk's fields
    with ``embed_text`` after ``context``. Sinks derive their schemas from this."""
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(Chunk):
        out.append((f.name, f.type))
        if f.name == "context":
            out.append(("embed_text", "str"))
    return tuple(out)


# -- what the public functions accept -------------------------------------------------

class CountsTokens(Protocol):
    """A token counter chunkwise can use as it is (a :class:`chunkwise.TokenCounter`)."""

    def count(self, text: str) -> int: ...


class EncodesText(Protocol):
    """A tokenizer object a user already holds: ``tokenizers.Tokenizer``, a
    ``transformers`` tokenizer, a ``SentenceTransformer``, a ``tiktoken.Encoding``."""

    def encode(self, text: str, /, *args: Any, **kwargs: Any) -> Any: ...


#: what ``tokenizer=`` takes: a name (minilm, cl100k_base, o200k_base, chars, words, a
#: plug-in's), a path to a tokenizer.json or model folder, a tokenizer object, a
#: ``str -> int`` function, or None for the default (the bundled MiniLM)
TokenizerSpec: TypeAlias = "str | PathLike[str] | CountsTokens | EncodesText | Callable[[str], int] | None"

#: what ``chunk`` and ``iter_chunks`` read: a text, a ``pathlib.Path`` (file, folder or
#: glob), a :class:`Document`, a ``{doc_id: text or Path}`` mapping, or a list of these
Source: TypeAlias = ("str | PathLike[str] | Document | Mapping[str, str | PathLike[str] | Document]"
                     " | Iterable[str | PathLike[str] | Document]")

#: what ``on_error`` takes: stop at the first unreadable input, skip it with a warning,
#: or a function that receives each :class:`~chunkwise.errors.InputError`
OnError: TypeAlias = 'Literal["raise", "skip"] | Callable[[InputError], object]'
