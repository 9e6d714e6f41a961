"""The packing strategies: thin policies over the one engine.

``fixed`` cuts at tokens, ``sentence`` packs whole sentences, ``recursive`` cuts at
the best-ranked boundary that fits, ``section`` and ``auto`` add structure
(headings as hard boundaries with their trail as context, atomic tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import (
    CLAUSE,
    DEFAULT_LEVELS,
    LINE,
    PARAGRAPH,
    TOKEN,
    WORD,
    Level,
    Sentences,
    SentenceSplitter,
    Separator,
)
from ..types import Document
from .base import Chunker, register
from .structure import STRUCTURE_OPTIONS, StructuredPacking, StructureOptions, section_restarts


class PackingChunker(Chunker):
    """A strategy that is one pack policy over the engine, structure-aware where
    its ``structure`` options are on and the document has structure."""

    structure: StructureOptions | None = None

    @property
    def reads_structure(self) -> bool:
        # a subclass with its own split (a plug-in) may read blocks: it gets them
        return self.structure is not None or type(self).split is not PackingChunker.split

    def policy(self) -> PackPolicy:  # pragma: no cover - interface
        raise NotImplementedError

    def structure_aware(self, doc: Document) -> bool:
        return self.structure is not None and bool(doc.blocks)

    def windowed(self, doc: Document, index: DocumentIndex) -> bool:
        return True

    def restarts(self, doc: Document, index: DocumentIndex, span: Span,
                 pieces: Sequence[Piece]) -> Sequence[int] | None:
        """Section starts (structure-aware: :meth:`known_restarts`); else paragraph
        starts, or any cut where no paragraph starts (the cuts depend only on the text
        after the cut before)."""
        known = self.known_restarts(doc, index, span)
        if known is not None:
            return known
        text = index.text
        starts = [p.start for p in pieces]
        return [s for s in starts if text[max(0, s - 2):s] == "\n\n"] or starts

    def known_restarts(self, doc: Document, index: DocumentIndex,
                       span: Span) -> Sequence[int] | None:
        if self.structure is not None and self.structure_aware(doc):
            return section_restarts(index, span)
        return None

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        if self.structure is not None and self.structure_aware(doc):
            packing = StructuredPacking(index, self.policy(), self.config, self.structure)
            return packing.split(span)
        packer = Packer(index, self.policy(), self.config.budget)
        pieces = packer.pack(span.lo, span.hi, span.context)
        for p in pieces:
            p.headings = span.headings
        return pieces


@register("fixed")
class FixedChunker(PackingChunker):
    """Every `size` tokens, cut at token boundaries; overlap in tokens."""

    _POLICY = PackPolicy(levels=(TOKEN,), overlap_levels=(TOKEN,))

    def policy(self) -> PackPolicy:
        return self._POLICY


class _SentenceAware(PackingChunker):
    """Options shared by the strategies that find sentences and may add structure."""

    extra_options = STRUCTURE_OPTIONS
    extra_option_specs = StructureOptions.specs()

    def __init__(self, size: int | None = None, *, language: str = "en",
                 sentence_splitter: SentenceSplitter | None = None, headers: bool = False,
                 **options: Any):
        if not isinstance(language, str) or not language:
            raise ConfigError(f"language must be a language code such as 'en', got {language!r}")
        if sentence_splitter is not None and not callable(sentence_splitter):
            raise ConfigError("sentence_splitter must be a callable text -> sentence end offsets")
        self.language = language
        self.sentence_splitter = sentence_splitter
        self.headers = bool(headers)
        self.structure = StructureOptions.pop_from(self.name, options, self.headers) \
            if self.headers or any(k in options for k in STRUCTURE_OPTIONS) else None
        super().__init__(size, **options)
        self.sentences = Sentences(language=language, splitter=sentence_splitter)

    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.language != "en":
            out["language"] = self.language
        if self.headers:
            out["headers"] = True
        if self.structure is not None:
            out.update(self.structure.changed())
        return out


@register("sentence")
class SentenceChunker(_SentenceAware):
    """Whole sentences packed up to `size` tokens. Overlap repeats the tail
    sentences whose total is at most the overlap budget (none if the last
    sentence alone is larger). A sentence longer than the budget is cut at
    words, then tokens."""

    def policy(self) -> PackPolicy:
        return PackPolicy(levels=(self.sentences, WORD, TOKEN), overlap_levels=(self.sentences,))


@register("recursive")
class RecursiveChunker(_SentenceAware):
    """Cut at the highest-ranked boundary that fits: paragraph > line > sentence >
    clause > word > token, or at custom separators (in priority order, then tokens)."""

    def __init__(self, size: int | None = None, *, separators: Sequence[str] | None = None,
                 **options: Any):
        if separators is not None:
            if isinstance(separators, str) or not all(isinstance(s, str) for s in separators):
                raise ConfigError("separators must be a list of strings")
            separators = tuple(separators)
        self.separators = separators
        super().__init__(size, **options)

    def levels(self) -> tuple[Level, ...]:
        if self.separators is None:
            return (PARAGRAPH, LINE, self.sentences, CLAUSE, WORD, TOKEN)
        return tuple(Separator(s) for s in self.separators) + (TOKEN,)

    def policy(self) -> PackPolicy:
        if self.separators is None:
            return PackPolicy(levels=self.levels(), overlap_levels=(self.sentences, WORD))
        return PackPolicy(levels=self.levels(), overlap_levels=self.levels())

    def options(self) -> dict[str, Any]:
        out = super().options()
        if self.separators is not None:
            out["separators"] = list(self.separators)
        return out


@register("section")
class SectionChunker(RecursiveChunker):
    """Headings are hard boundaries; each chunk carries its heading trail (and the
    document title) as context; a long section is cut by the recursive engine,
    every piece keeping the trail; tables are atomic. Documents without structure
    are packed like ``recursive``."""

    def __init__(self, size: int | None = None, **options: Any):
        if options.get("headers", True) is not True:
            raise ConfigError(f"strategy {self.name!r} always uses headings (headers=True)")
        options["headers"] = True
        super().__init__(size, **options)

    def options(self) -> dict[str, Any]:
        out = super().options()
        out.pop("headers", None)
        return out


#: the size ``auto`` gives narrative prose when ``size`` is not given (capped at
#: ``max_tokens``: the model's limit): chosen on two books, where it retrieved better
#: than 160 tokens (docs/benchmarks.md, "The narrative sets"); 256 is the largest
#: size measured there
NARRATIVE_SIZE = 256
#: the size ``auto`` gives reference documentation (a document it chunks with
#: ``section``: headings or tables) when ``size`` is not given (capped at
#: ``max_tokens``): chosen on the structured set, where recall at k = 5 rose with the
#: size while recall within 1,000 retrieved tokens held until 240 (docs/benchmarks.md,
#: "Size by kind"); prose without structure keeps the configured 160
REFERENCE_SIZE = 224
#: ``metadata["document_kind"]`` -> the size ``auto`` gives that kind
KIND_SIZES = {"narrative": NARRATIVE_SIZE, "reference": REFERENCE_SIZE}


#: formats that are reference manuals whatever they hold: numbered sections and the
#: licence many append (GNU's manuals end in the GFDL, with its defined terms and
#: cross-references) make no contract of them, items set as paragraphs opening with a
#: dash (114 of the Google Cloud SDK's manual pages) no fiction
_MANUALS = ("info", "man")


@register("auto")
class AutoChunker(SectionChunker):
    """The strategy each document needs: ``code`` for source files, ``transcript`` for
    subtitles, chats and speaker-line transcripts, ``json`` for JSON and JSON Lines,
    ``faq`` for documents that are clearly questions and answers, and otherwise
    ``section`` for documents with headings or tables (``recursive`` for the rest).
    The choice is in every chunk's ``metadata["strategy"]``. When ``size`` is not
    given, the size follows the document's kind (:meth:`document_kind`, within ``max_tokens``):
    narrative prose (fiction: :func:`~.narrative_detect.looks_like_narrative`) is
    chunked at :data:`NARRATIVE_SIZE` tokens, reference documentation (headings or
    tables throughout) at :data:`REFERENCE_SIZE`, their chunks marked
    ``metadata["document_kind"]`` (``"narrative"``, ``"reference"``); other prose
    keeps the configured size."""

    def __init__(self, size: int | None = None, *, code_language: str | None = None,
                 path_context: bool = True, window_seconds: float | None = None,
                 references_budget: int | None = None, **options: Any):
        super().__init__(size, **options)
        self._delegates: dict[str, Chunker] = {}
        self._kinds: dict[str, SectionChunker] = {}
        # the options of the strategies auto may choose, checked now (not at the first
        # document that needs them)
        self._delegate_options: dict[str, dict[str, Any]] = {
            "code": {"code_language": code_language, "path_context": path_context},
            "transcript": {"window_seconds": window_seconds, "language": self.language},
            "legal": {"references_budget": references_budget, "language": self.language},
        }
        for name in ("code", "transcript", "legal"):
            if any(v is not None for k, v in self._delegate_options[name].items()
                   if k not in ("language", "path_context")):
                self.delegate(name)

    def options(self) -> dict[str, Any]:
        out = dict(super().options())
        for opts in self._delegate_options.values():
            for k, v in opts.items():
                if k != "language" and v is not None and not (k == "path_context" and v):
                    out[k] = v
        return out

    def structure_aware(self, doc: Document) -> bool:
        """Headings or tables; or a title in front matter (a site's page whose body has
        no heading: ``recursive`` left its only name out of every chunk's text and
        context, as front matter is metadata; ``section`` puts it in the context)."""
        return any(b.kind in ("heading", "table") for b in doc.blocks) or (
            bool(doc.title) and any(b.kind == "front_matter" for b in doc.blocks))

    def kind_sizes(self) -> dict[str, int]:
        """The sizes this chunker gives each kind of document (:data:`KIND_SIZES`
        within ``max_tokens``, where larger than its own limit; none when ``size`` was
        given)."""
        if self.config.size_given:
            return {}
        sizes = {k: min(v, self.config.max_tokens) for k, v in KIND_SIZES.items()}
        return {k: v for k, v in sizes.items() if v > self.config.limit}

    def describe(self) -> dict[str, Any]:
        """With ``kind_sizes`` where it has any: an index built with them refuses a
        run that cuts without them (``--size 160``), and the other way round."""
        out = super().describe()
        sizes = self.kind_sizes()
        if sizes:
            out["kind_sizes"] = sizes
        return out

    def choose(self, doc: Document, index: DocumentIndex) -> str:
        found = index.memo.get("auto-choice")
        if found is not None:
            return str(found)
        from ..readers.transcript import looks_like_transcript
        from .faq_detect import looks_like_faq
        from .legal import looks_like_contract

        fmt = doc.metadata.get("format")
        if fmt == "code":
            choice = "code"
        elif fmt in ("srt", "vtt", "chat", "transcript") or any(
                b.kind == "turn" for b in index.blocks):
            choice = "transcript"
        elif fmt in ("json", "jsonc", "jsonl", "json-seq"):
            choice = "json"
        elif fmt in (None, "text") and looks_like_transcript(doc.text[:200_000]):
            choice = "transcript"
        elif looks_like_faq(doc, index):
            choice = "faq"
        elif fmt not in _MANUALS and looks_like_contract(
                doc.text, [doc.text[b.start:b.end] for b in index.blocks if b.kind == "heading"]):
            choice = "legal"
        else:
            choice = "section" if self.structure_aware(doc) else "recursive"
        index.memo["auto-choice"] = choice
        return choice

    def delegate(self, name: str) -> Chunker:
        if name not in self._delegates:
            from .base import STRATEGIES

            extra: dict[str, Any] = {}
            if name == "faq" and self.structure is not None:
                extra = {**self.structure.changed(), "language": self.language}
            else:
                extra = {k: v for k, v in self._delegate_options.get(name, {}).items()
                         if v is not None}
            self._delegates[name] = STRATEGIES[name](config=self.config, **extra)
        return self._delegates[name]

    def document_kind(self, doc: Document, index: DocumentIndex) -> str | None:
        """The kind of document whose size ``auto`` chooses (:data:`KIND_SIZES`):
        ``"narrative"`` (``section`` or ``recursive`` chosen and
        :func:`~.narrative_detect.looks_like_narrative`) or ``"reference"``
        (``section`` chosen, headings or tables throughout:
        :func:`~.narrative_detect.looks_like_reference`), when ``size`` is not given
        and the kind's size is larger than the configured one within ``max_tokens``;
        None otherwise."""
        if "auto-kind" not in index.memo:
            found: str | None = None
            choice = self.choose(doc, index)
            sizes = self.kind_sizes()
            if sizes and choice in ("section", "recursive"):
                from .narrative_detect import looks_like_narrative, looks_like_reference

                # (a manual is no fiction: gcloud's manual pages list their items as
                # paragraphs opening with a dash, which reads as dialogue)
                found = ("narrative" if doc.metadata.get("format") not in _MANUALS
                         and looks_like_narrative(doc, index) else "reference"
                         if choice == "section" and looks_like_reference(index) else None)
                if found not in sizes:
                    found = None
            index.memo["auto-kind"] = found
        return index.memo["auto-kind"]  # type: ignore[no-any-return]

    def narrative(self, doc: Document, index: DocumentIndex) -> bool:
        """Whether ``doc`` is chunked as narrative prose (:meth:`document_kind`)."""
        return self.document_kind(doc, index) == "narrative"

    def kind_chunker(self, kind: str) -> SectionChunker:
        """This chunker's own packing (headings, tables, its options) at the kind's
        size (:data:`KIND_SIZES`)."""
        if kind not in self._kinds:
            self._kinds[kind] = SectionChunker(config=self.config.resized(KIND_SIZES[kind]),
                                               **SectionChunker.options(self))
        return self._kinds[kind]

    def _own(self, doc: Document, index: DocumentIndex) -> SectionChunker | None:
        """For a document auto packs itself (section or recursive): the chunker of its
        kind, or None (this one)."""
        kind = self.document_kind(doc, index)
        return self.kind_chunker(kind) if kind else None

    def windowed(self, doc: Document, index: DocumentIndex) -> bool:
        choice = self.choose(doc, index)
        if choice in ("section", "recursive"):
            own = self._own(doc, index)
            return own.windowed(doc, index) if own else super().windowed(doc, index)
        return self.delegate(choice).windowed(doc, index)

    def restarts(self, doc: Document, index: DocumentIndex, span: Span,
                 pieces: Sequence[Piece]) -> Sequence[int] | None:
        choice = self.choose(doc, index)
        if choice in ("section", "recursive"):
            own = self._own(doc, index)
            return (own.restarts(doc, index, span, pieces) if own
                    else super().restarts(doc, index, span, pieces))
        return self.delegate(choice).restarts(doc, index, span, pieces)

    def known_restarts(self, doc: Document, index: DocumentIndex,
                       span: Span) -> Sequence[int] | None:
        choice = self.choose(doc, index)
        if choice in ("section", "recursive"):
            own = self._own(doc, index)
            return (own.known_restarts(doc, index, span) if own
                    else super().known_restarts(doc, index, span))
        return self.delegate(choice).known_restarts(doc, index, span)

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        choice = self.choose(doc, index)
        own = None
        if choice in ("section", "recursive"):
            own = self._own(doc, index)
            pieces = own.split(doc, index, span) if own else super().split(doc, index, span)
        else:
            pieces = self.delegate(choice).split(doc, index, span)
        for p in pieces:
            p.metadata["strategy"] = choice
            if own is not None:
                p.metadata["document_kind"] = self.document_kind(doc, index)
        return pieces


__all__ = ["AutoChunker", "FixedChunker", "PackingChunker", "RecursiveChunker",
           "SectionChunker", "SentenceChunker", "DEFAULT_LEVELS", "KIND_SIZES",
           "NARRATIVE_SIZE", "REFERENCE_SIZE"]
