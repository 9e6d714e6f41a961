"""The one interface every strategy implements, and the registry that names them.

A strategy cuts a *span* of a document (:meth:`Chunker.split`), given what the
span inherits from above (context, heading trail, page). Because every strategy
works on spans, any strategy can be a level of ``hierarchical``. The common
options (tokenizer, size, overlap, max_tokens, max_chars) are one validated
:class:`~chunkwise.config.ChunkConfig`; a strategy's own options are keyword
arguments of its own constructor, and an option no strategy in the chain takes
is a :class:`ConfigError` naming it and the strategy.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from ..config import ChunkConfig
from ..engine import DocumentIndex, Piece, Span
from ..errors import ConfigError
from ..ids import IdAssigner
from ..readers.structure import fenced_spans
from ..registry import RUNNERS, Registry
from ..tokens import TokenCounter
from ..types import Chunk, ChunkKind, Document, OnError, Source, TokenizerSpec

_COMMON = ("size", "overlap", "tokenizer", "max_tokens", "max_chars", "min_tokens")


class Chunker:
    """Base of every strategy. Subclasses set ``name`` (through :func:`register`)
    and implement :meth:`split`; their own options are keyword arguments of their
    ``__init__``, which passes the rest on to this one."""

    name: ClassVar[str] = "base"
    #: options a strategy takes through ``**options`` rather than named parameters
    extra_options: ClassVar[tuple[str, ...]] = ()
    #: their annotation and default, as ``inspect.Parameter`` would give them
    extra_option_specs: ClassVar[Mapping[str, tuple[object, object]]] = {}
    #: the kind of the chunks a strategy makes unless a piece says otherwise
    kind: ClassVar[ChunkKind] = "prose"

    def __init__(self, size: int | None = None, overlap: int | float | None = 0,
                 tokenizer: TokenizerSpec = None,
                 max_tokens: int | None = None, max_chars: int | None = None,
                 min_tokens: int | None = None, *,
                 config: ChunkConfig | None = None, **unknown: Any):
        if unknown:
            raise unknown_option(self, unknown)
        if config is not None:
            given = [k for k, v in (("size", size), ("tokenizer", tokenizer),
                                    ("max_tokens", max_tokens), ("max_chars", max_chars),
                                    ("min_tokens", min_tokens))
                     if v is not None] + (["overlap"] if overlap else [])
            if given:
                raise ConfigError(f"strategy {self.name!r}: give config= or "
                                  f"{', '.join(given)}, not both")
            self.config = config
        else:
            self.config = ChunkConfig.create(size=size, overlap=overlap, tokenizer=tokenizer,
                                             max_tokens=max_tokens, max_chars=max_chars,
                                             min_tokens=min_tokens)

    # -- the common configuration ---------------------------------------------------

    @property
    def tokenizer(self) -> TokenCounter:
        return self.config.tokenizer

    @property
    def size(self) -> int:
        return self.config.size

    @property
    def overlap(self) -> int:
        return self.config.overlap

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens

    @property
    def max_chars(self) -> int:
        return self.config.max_chars

    @property
    def min_tokens(self) -> int:
        """The smallest chunk in tokens (but a whole span smaller than it)."""
        return self.config.min_size

    @property
    def limit(self) -> int:
        """The hard budget on tokens of ``context + text``."""
        return self.config.limit

    # -- the one interface ----------------------------------------------------------

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        """Cut ``doc.text[span.lo:span.hi]`` into pieces within this strategy's budget,
        each carrying ``span.context`` unless the strategy builds its own."""
        raise NotImplementedError  # pragma: no cover - interface

    def options(self) -> dict[str, Any]:
        """This strategy's own options, for :meth:`describe` (defaults left out)."""
        return {}

    # -- chunking documents ---------------------------------------------------------

    @property
    def reads_structure(self) -> bool:
        """Whether this strategy reads a document's blocks (paragraphs, headings,
        tables ...). One that does not is given plain text without them: the text
        reader's paragraph and heading scan is skipped (its cuts find paragraphs
        themselves), and the chunks are the same."""
        return True

    def restarts(self, doc: Document, index: DocumentIndex, span: Span,
                 pieces: Sequence[Piece]) -> Sequence[int] | None:
        """Where the next window of a long document may start, given ``pieces``, this
        strategy's cut of the window ``span``: positions from which on its cuts do not
        depend on the text before them (a section's start whose section ends inside
        the window, a paragraph's start), in order (see :meth:`chunk_windows`)."""
        return None

    def windowed(self, doc: Document, index: DocumentIndex) -> bool:
        """Whether a long document may be cut a window at a time (``restarts`` says
        where); ``index`` is the first window's."""
        return False

    def known_restarts(self, doc: Document, index: DocumentIndex,
                       span: Span) -> Sequence[int] | None:
        """What :meth:`restarts` returns for the window ``span`` where it is known
        before the window is cut (a structure-aware cut's section starts: a window
        without one is grown before its tokens are counted); None where it depends on
        the cut."""
        return None

    def chunk_document(self, doc: Document) -> list[Chunk]:
        """One document's chunks, in document order."""
        return [c for batch in self.chunk_windows(doc) for c in batch]

    def chunk_windows(self, doc: Document) -> Iterator[list[Chunk]]:
        """One document's chunks in document order, in batches. A document over
        :data:`WINDOW_CHARS` is cut a window at a time where the strategy allows
        (:meth:`restarts`): the same chunks and ids as cut whole, in the memory of a
        window (tokens, boundaries, pieces, chunks) beside the document itself."""
        if type(self).chunk_document is not Chunker.chunk_document:
            yield self.chunk_document(doc)  # a strategy that cuts documents its own way
            return
        text = doc.text
        start = body_start(doc)
        if blank_from(text, start):
            return
        memo: dict[Any, Any] = {}
        if len(text) - start > WINDOW_CHARS:
            first = DocumentIndex(doc, self.tokenizer, window=(start, start + WINDOW_CHARS),
                                  memo=memo)
            if self.windowed(doc, first):
                yield from _Windows(self, doc, memo).batches(first, start)
                return
        index = DocumentIndex(doc, self.tokenizer, memo=memo)
        pieces = split_around_payloads(self, doc, index, Span(start, len(text)))
        index.release()  # before the chunks are made: the peak of a long document
        yield make_chunks(index, pieces, self.kind)

    def iter_chunks(self, source: Source, *, on_error: OnError = "raise", doc_id: str | None = None,
                    encoding: str | None = None, format: str | None = None) -> Iterator[Chunk]:
        """Chunks of every document of ``source``, document by document (see
        :func:`chunkwise.iter_chunks`)."""
        run = RUNNERS.get_or_error("local")  # chunkwise.api's, found without importing it
        for _, chunks in run(self, source, on_error=on_error, doc_id=doc_id,
                                               encoding=encoding, format=format):
            yield from chunks

    def chunk(self, source: Source, *, on_error: OnError = "raise", doc_id: str | None = None,
              encoding: str | None = None, format: str | None = None) -> list[Chunk]:
        """All chunks of ``source`` as a list (see :func:`chunkwise.chunk`)."""
        return list(self.iter_chunks(source, on_error=on_error, doc_id=doc_id,
                                     encoding=encoding, format=format))

    __call__ = chunk

    def describe(self) -> dict[str, Any]:
        """The strategy name, the common configuration and its own options: enough to
        rebuild it, and what an index stores to refuse a mismatched re-run."""
        return {"strategy": self.name, **self.config.as_dict(), **self.options()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.describe().items() if k != "strategy")
        return f"{type(self).__name__}({args})"


_BLANK_TO_END = re.compile(r"[\s\ufeff]*\Z")


def blank_from(text: str, start: int) -> bool:
    """Whether ``text[start:]`` is empty or whitespace (without copying a long text); a
    byte-order mark is no text either (a file holding one alone was a chunk of it)."""
    return _BLANK_TO_END.match(text, start) is not None


_NON_SPACE = re.compile(r"[^\s\ufeff]")


def blank_between(text: str, lo: int, hi: int) -> bool:
    """Whether ``text[lo:hi]`` is empty or whitespace (without copying it)."""
    return _NON_SPACE.search(text, lo, hi) is None


def body_start(doc: Document) -> int:
    """Where a document's chunks start: after Markdown front matter its metadata holds
    (every chunk carries it as ``metadata["doc"]``), else at 0; after a byte-order mark
    (U+FEFF, which the text keeps: a file opening with one and a blank line was a chunk
    of it alone before its first heading)."""
    first = doc.blocks[0] if doc.blocks else None
    if first is not None and first.kind == "front_matter" and first.metadata.get("held"):
        return first.end
    return 1 if doc.text.startswith("\ufeff") else 0


#: a data URI's base64 payload (an image pasted into Markdown, a font inlined in a page's
#: style) of at least :data:`PAYLOAD_CHARS` characters: data, not text
_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+(?:;[\w.+=-]+)*;base64,([A-Za-z0-9+/=_-]+)")
#: an inline SVG's shape: a path's data or a polygon's points (``<path d="M15.59
#: 8.04C15.49 7.91 ...">``: an icon drawn in an MDX page), in quotes after a space
_SVG_SHAPE = re.compile(r"""\s(?:d|points)[ \t]*=[ \t]*(["'])([MmZzLlHhVvCcSsQqTtAa0-9eE.,+\s-]+)\1""")
PAYLOAD_CHARS = 256


def payloads(text: str, lo: int = 0, hi: int | None = None, svg: bool = True) -> list[tuple[int, int]]:
    """The spans of ``text[lo:hi]`` that hold a data URI's base64 payload of at least
    :data:`PAYLOAD_CHARS` characters (the ``data:image/png;base64,`` before it is kept):
    no chunk holds one (a 40 kB image pasted into a Markdown file was 166 chunks of
    base64, each embedded); nor an inline SVG's path data or points of as many (the
    ``d="`` around it kept: a page of analytics platforms' cards, each with its logo
    drawn inline, was 6 chunks of coordinates; not in source code, ``svg=False``: a
    component's SVG is its code). A payload running past ``hi`` ends there."""
    hi = len(text) if hi is None else hi
    found: list[tuple[int, int]] = []
    if text.find(";base64,", lo, hi) != -1:  # (the common case, without a regex scan)
        found = [m.span(1) for m in _DATA_URI.finditer(text, lo, hi)
                 if m.end(1) - m.start(1) >= PAYLOAD_CHARS]
    if svg and (text.find("<svg", lo, hi) != -1 or text.find("<path", lo, hi) != -1):
        images = _svg_images(text, lo, hi)
        shapes = [m.span(2) for m in _SVG_SHAPE.finditer(text, lo, hi)
                  if m.end(2) - m.start(2) >= PAYLOAD_CHARS and not _inside(images, m.start(2))]
        if images or shapes:  # (an SVG shown as code to copy, in a fence, is code)
            fenced = fenced_spans(text, hi)
            found = sorted(found + [s for s in images + shapes if not _inside(fenced, s[0])])
    return found


def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
    return any(a <= pos < b for a, b in spans)


#: an SVG element's start and end
_SVG_OPEN = re.compile(r"<svg\b", re.IGNORECASE)
_SVG_CLOSE = re.compile(r"</svg\s*>", re.IGNORECASE)
#: what gives an SVG words a reader sees or hears: they keep it text
_SVG_WORDS = re.compile(r"<(?:text|title|desc|foreignObject)\b", re.IGNORECASE)


def _svg_images(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Inline SVG elements (``<svg ...>`` to ``</svg>``) of at least
    :data:`PAYLOAD_CHARS` characters that hold no words (no ``<text>``, ``<title>``,
    ``<desc>``): a logo drawn in an MDX card's ``icon={<svg ...>}``, tags and all."""
    out: list[tuple[int, int]] = []
    at = lo
    while (m := _SVG_OPEN.search(text, at, hi)) is not None:
        close = _SVG_CLOSE.search(text, m.end(), hi)
        if close is None:
            break
        if close.end() - m.start() >= PAYLOAD_CHARS and \
                _SVG_WORDS.search(text, m.start(), close.start()) is None:
            out.append((m.start(), close.end()))
        at = close.end()
    return out


def split_around_payloads(chunker: Chunker, doc: Document, index: DocumentIndex,
                          span: Span) -> list[Piece]:
    """``chunker.split`` of the parts of ``span`` between data URIs' payloads
    (:func:`payloads`), each cut as a span of its own (a part holding no text is none)."""
    gaps = payloads(doc.text, span.lo, span.hi,
                    svg=chunker.kind != "code" and doc.metadata.get("format") != "code")
    if not gaps:
        return chunker.split(doc, index, span)
    pieces: list[Piece] = []
    lo = span.lo
    for s, e in [*gaps, (span.hi, span.hi)]:
        if not blank_between(doc.text, lo, s):
            pieces.extend(chunker.split(doc, index, dataclasses.replace(span, lo=lo, hi=s)))
        lo = e
    return pieces


#: characters of a long document cut at once (see :meth:`Chunker.chunk_windows`); the
#: next window starts at a restart in the first seven eighths of this one
WINDOW_CHARS = 1 << 18


class _Windows:
    """A long document cut a window at a time: each window is cut as a span of the
    document (offsets are the document's), the pieces before the last restart in its
    first seven eighths are kept, and the next window starts there; ids count
    occurrences over the whole document and neighbour links cross windows."""

    def __init__(self, chunker: Chunker, doc: Document, memo: dict[Any, Any]):
        self.chunker = chunker
        self.doc = doc
        self.memo = memo  # document-wide analysis (structure, clauses), found once

    def batches(self, index: DocumentIndex | None, start: int = 0) -> Iterator[list[Chunk]]:
        chunker, doc = self.chunker, self.doc
        n = len(doc.text)
        lo, size = start, WINDOW_CHARS
        assigners: dict[str, IdAssigner] = {}
        held: Chunk | None = None
        while lo < n:
            hi = min(n, lo + size)
            if index is None:  # (the whole document: its text is not copied)
                index = DocumentIndex(doc, chunker.tokenizer, memo=self.memo,
                                      window=None if (lo, hi) == (0, n) else (lo, hi))
            span = Span(lo, hi)
            # a piece is at most max_chars long: one that starts before the restart
            # never looked at the window's last eighth (nor is it one of the span's
            # last two, which a small last piece may rebalance)
            limit = hi - max(2 * chunker.max_chars, (hi - lo) // 8)
            known = chunker.known_restarts(doc, index, span) if hi < n else None
            if known is not None and not any(lo < r <= limit for r in known):
                size *= 4  # no restart can be found in it: a larger one, uncut
                index = None
                continue
            pieces = split_around_payloads(chunker, doc, index, span)
            cut = n
            if hi < n:
                candidates = known if known is not None else \
                    chunker.restarts(doc, index, span, pieces)
                found = _restart(candidates or (), pieces, lo, limit, doc.text,
                                 chunker.tokenizer.separates)
                if found is None:  # no restart in this window: a larger one
                    size *= 4
                    index = None
                    continue
                cut, keep = found
                pieces = pieces[:keep]
            index.release()
            chunks = make_chunks(index, pieces, chunker.kind, assigners=assigners)
            index, lo, size = None, cut, WINDOW_CHARS
            if held is not None:
                if chunks:
                    chunks[0] = dataclasses.replace(chunks[0], prev_id=held.id)
                    held = dataclasses.replace(held, next_id=chunks[0].id)
                chunks.insert(0, held)
            held = chunks.pop() if chunks else None
            if chunks:
                yield chunks
        if held is not None:
            yield [held]


def _restart(candidates: Sequence[int], pieces: Sequence[Piece], lo: int, limit: int,
             text: str, separates: Callable[[str], bool]) -> tuple[int, int] | None:
    """The last candidate in ``(lo, limit]`` at which a piece starts that no piece
    before it reaches past (no overlap into it), and how many pieces come before it.
    Only after whitespace: a word's tokens depend on all of it."""
    first_at: dict[int, int] = {}
    for i, p in enumerate(pieces):
        first_at.setdefault(p.start, i)
    reach = -1
    reaches = []  # the furthest end of the pieces before each
    for p in pieces:
        reaches.append(reach)
        reach = max(reach, p.end)
    for r in reversed(candidates):
        if not lo < r <= limit or not separates(text[r - 1]):
            continue
        j = first_at.get(r)
        if j is not None and 0 < j <= len(pieces) - 2 and reaches[j] <= r:
            return r, j
    return None


def option_names(cls: type) -> list[str]:
    """Keyword options a strategy class accepts, over its whole constructor chain."""
    return list(option_specs(cls))


def option_specs(cls: type) -> dict[str, tuple[object, object]]:
    """Each option :func:`option_names` lists, with its annotation (often a string,
    under postponed evaluation) and its default (``inspect.Parameter.empty`` when it
    has none): what the command line makes its flags from."""
    return dict(_option_specs(cls))


@functools.cache
def _option_specs(cls: type) -> dict[str, tuple[object, object]]:
    """:func:`option_specs`, read once per class (the command line asks for every
    strategy's options once per command that takes them: 170 signatures each time)."""
    specs: dict[str, tuple[object, object]] = {}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in (
                    "self", "config"):
                specs.setdefault(p.name, (p.annotation, p.default))
    for name, spec in getattr(cls, "extra_option_specs", {}).items():
        specs.setdefault(name, spec)
    for name in getattr(cls, "extra_options", ()):
        specs.setdefault(name, (inspect.Parameter.empty, inspect.Parameter.empty))
    return specs


def unknown_option(strategy: Chunker | type[Chunker], options: Mapping[str, Any]) -> ConfigError:
    cls = strategy if isinstance(strategy, type) else type(strategy)
    names = sorted(options)
    known = ", ".join(option_names(cls))
    word = "option" if len(names) == 1 else "options"
    return ConfigError(f"strategy {cls.name!r} has no {word} {', '.join(map(repr, names))} "
                       f"(its options: {known})")


def make_chunks(index: DocumentIndex, pieces: Sequence[Piece], default_kind: ChunkKind = "prose",
                layered: bool = False,
                assigners: dict[str, IdAssigner] | None = None) -> list[Chunk]:
    """Chunks from pieces: content-hash ids (per depth when ``layered``), parent ids,
    page of the start (and ``metadata.pages`` when a chunk spans pages), and
    previous/next ids among the chunks of the same depth. ``assigners``: the id
    counters of the document's chunks made before (the windows of a long one)."""
    doc = index.doc
    text = doc.text
    assigners = {} if assigners is None else assigners
    by_depth: dict[int, list[int]] = {}
    for i, p in enumerate(pieces):
        by_depth.setdefault(p.depth, []).append(i)
    ids: list[str] = [""] * len(pieces)
    for depth, members in by_depth.items():
        key = f"{doc.doc_id}#L{depth}" if layered else doc.doc_id
        assign = assigners.get(key)
        if assign is None:
            assign = assigners[key] = IdAssigner(key)
        for i in members:
            ids[i] = assign(pieces[i].context, text[pieces[i].start:pieces[i].end])
    piece_ids = {id(p): ids[i] for i, p in enumerate(pieces)}
    neighbours: dict[int, tuple[str | None, str | None]] = {}
    for members in by_depth.values():
        for j, i in enumerate(members):
            neighbours[i] = (ids[members[j - 1]] if j else None,
                             ids[members[j + 1]] if j + 1 < len(members) else None)
    doc_meta = document_metadata(doc)
    paged = index.has_pages
    out = []
    for i, p in enumerate(pieces):
        page = p.page
        metadata = {**p.metadata, "doc": doc_meta} if doc_meta else p.metadata
        if paged:
            first, last = index.page_at(p.start), index.page_at(max(p.start, p.end - 1))
            page = first
            if first is not None and last is not None and last != first:
                metadata = {**metadata, "pages": [first, last]}
        out.append(Chunk(
            id=ids[i], doc_id=doc.doc_id, text=text[p.start:p.end], start=p.start, end=p.end,
            context=p.context, token_count=p.token_count, kind=p.kind or default_kind,
            headings=p.headings, page=page, source=doc.source, level=p.depth,
            parent_id=piece_ids.get(id(p.parent)) if p.parent is not None else None,
            prev_id=neighbours[i][0], next_id=neighbours[i][1],
            metadata=MappingProxyType(dict(metadata))))
    return out


#: document metadata a reader keeps for itself, not copied onto chunks
_INTERNAL_METADATA = ("page_turns", "markup")


def document_metadata(doc: Document) -> dict[str, Any]:
    """What every chunk of a document carries as ``metadata["doc"]``: front matter,
    HTML title and meta fields, PDF information, and what the user attached."""
    return {k: v for k, v in doc.metadata.items() if k not in _INTERNAL_METADATA}


# -- the registry ------------------------------------------------------------------

C = TypeVar("C", bound=type)

ENTRY_POINT_GROUP = "chunkwise.strategies"


class StrategyRegistry(Registry[type[Chunker]]):
    """Strategy names to :class:`Chunker` classes; registering sets the class's ``name``."""

    def add(self, name: str, obj: type[Chunker]) -> None:
        super().add(name, obj)
        obj.name = name


def _is_chunker_class(obj: object) -> bool:
    return isinstance(obj, type) and issubclass(obj, Chunker)


STRATEGIES = StrategyRegistry(ENTRY_POINT_GROUP, "strategy", _is_chunker_class)


def register(name: str) -> Callable[[C], C]:
    """Register a :class:`Chunker` subclass as strategy ``name`` (a class decorator)."""
    def decorate(cls: C) -> C:
        if not _is_chunker_class(cls):
            raise TypeError(f"{cls!r} is not a Chunker subclass")
        STRATEGIES.add(name, cls)
        return cls
    return decorate
