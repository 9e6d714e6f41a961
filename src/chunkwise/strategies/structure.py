"""Structure-aware packing of a span: headings are hard boundaries with their trail
as context, tables are atomic blocks (split only by whole rows, the header
repeated in context), front matter stands alone.

Used by ``section`` and ``auto``, and by ``recursive``/``sentence`` with
``headers=True``. It works on any span of a document, so a structure-aware
strategy can be any level of a hierarchy: sections and table rows are clipped
to the span, and a span that starts inside a section inherits its trail.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from ..config import ChunkConfig
from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span, wordless
from ..errors import ConfigError
from ..levels import TOKEN, WORD, Pattern, Positions
from ..readers.structure import DOCFX_CLOSER, links_as_text, markup_between
from ..types import Block, ChunkKind
from .base import blank_between

STRUCTURE_OPTIONS = ("context_template", "trail_separator", "title", "table_max", "table_rows",
                     "merge_sections", "dedupe_headings")


_NON_SPACE = re.compile(r"\S")
_BLANK_LINE = re.compile(r"\r?\n[ \t]*\r?\n")
#: what a title and a heading are compared by: their words, case aside
_NON_WORDS = re.compile(r"[\W_]+")


def restates(heading: str, title: str) -> bool:
    """Whether ``heading`` says all that ``title`` says: the same words, case and
    punctuation aside (Microsoft Learn's front matter titles a page ``Access a Private
    ... Cluster``, its first heading reads ``Access a private ... cluster``), or the
    title's words in a row within the heading's (``Projects in AKS Desktop`` under
    ``Overview of Projects in AKS desktop``)."""
    t = _words(title)
    return bool(t) and f" {' '.join(t)} " in f" {' '.join(_words(heading))} "


def _words(text: str) -> list[str]:
    """``text``'s words, case folded (what a title and a heading are compared by)."""
    return _NON_WORDS.sub(" ", text.casefold()).split()


def _block_ends(index: DocumentIndex) -> list[int]:
    return [b.end for b in index.blocks]


def _table_rows(index: DocumentIndex) -> list[int]:
    return [e for b in index.blocks if b.kind == "table" for _, e in b.metadata.get("rows", ())]


def _table_cells(index: DocumentIndex) -> list[int]:
    """Cell borders: every unescaped ``|`` inside a row of a pipe table, every
    delimiter inside a row of a CSV table."""
    text = index.text
    out = []
    for b in index.blocks:
        if b.kind != "table":
            continue
        sep = b.metadata.get("delimiter") or "|"
        for s, e in b.metadata.get("rows", ()):
            i = text.find(sep, s + 1, e - 1)
            while i != -1:
                if text[i - 1] != "\\":
                    out.append(i + (1 if sep != "|" else 0))
                i = text.find(sep, i + 1, e - 1)
    return out


#: a cut code block's pieces hold at least this share of the limit where lines allow
CODE_FILL = 4

BLOCK = Positions("block", _block_ends)
TABLE_ROW = Positions("table-row", _table_rows)
TABLE_CELL = Positions("table-cell", _table_cells)
TABLE_ROW_POLICY = PackPolicy(levels=(TABLE_ROW, TABLE_CELL, WORD, TOKEN))
CODE_LINES_POLICY = PackPolicy(levels=(Pattern("code-blank", r"\n[ \t]*\n"),
                                       Pattern("code-line", r"\n", use_end=True), WORD, TOKEN))


@dataclass(frozen=True, slots=True)
class StructureOptions:
    """How structure becomes context. ``context_template`` renders the trail
    (``{trail}``, ``{title}``); a table up to ``table_max`` tokens (default 2 x
    size, never above max_tokens) is one chunk; ``table_rows="row"`` makes one
    chunk per row; ``merge_sections`` merges small sibling sections."""

    context_template: str = "{trail}\n\n"
    trail_separator: str = " > "
    title: bool = True  # put the document title at the head of the trail
    table_max: int | None = None
    table_rows: str = "group"
    merge_sections: bool = False
    #: leave a heading out of the trail when the chunk's text starts with it (off by
    #: default: measured, repeating it retrieves about a point better)
    dedupe_headings: bool = False

    def __post_init__(self) -> None:
        if self.table_rows not in ("group", "row"):
            raise ConfigError(f"table_rows must be 'group' or 'row', got {self.table_rows!r}")
        if not isinstance(self.context_template, str) or "{trail}" not in self.context_template:
            raise ConfigError("context_template must contain {trail}")
        if self.table_max is not None and (isinstance(self.table_max, bool) or not isinstance(
                self.table_max, int) or self.table_max < 1):
            raise ConfigError(f"table_max must be a positive integer, got {self.table_max!r}")

    @classmethod
    def specs(cls) -> dict[str, tuple[object, object]]:
        """Each option's annotation and default (for the command line's flags)."""
        return {f.name: (f.type, f.default) for f in dataclasses.fields(cls)}

    @classmethod
    def pop_from(cls, strategy: str, options: dict[str, Any], enabled: bool) -> StructureOptions:
        """Take the structure options out of a strategy's keyword options; they are
        an error where structure is off (``headers=False``)."""
        given = {k: options.pop(k) for k in STRUCTURE_OPTIONS if k in options}
        if given and not enabled:
            raise ConfigError(f"strategy {strategy!r}: {', '.join(sorted(given))} "
                              "apply only with headers=True")
        try:
            return cls(**given)
        except TypeError as exc:  # pragma: no cover - all keys are known
            raise ConfigError(str(exc)) from None

    def changed(self) -> dict[str, Any]:
        default = StructureOptions()
        return {k: getattr(self, k) for k in STRUCTURE_OPTIONS
                if getattr(self, k) != getattr(default, k)}


@dataclass(slots=True)
class Section:
    start: int
    end: int
    headings: tuple[str, ...]
    blocks: list[Block] = field(default_factory=list)
    body: int = 0  # blocks that are not headings


#: the longest paragraph without a letter that labels its heading rather than being
#: text under it (a version, ``1.57.0``; a date, ``2024-01-03``)
LABEL_CHARS = 32
_LETTER = re.compile(r"[^\W\d_]")


def _label(text: str, block: Block) -> bool:
    """A short paragraph without a letter: rustdoc's stable-since version under each
    item's heading (``impl PartialEq for TryReserveError`` over ``1.57.0``, then the
    impl's methods: 530 chunks of Rust's std::collections pages were a heading and
    its version alone)."""
    return (block.kind == "paragraph" and block.end - block.start <= LABEL_CHARS
            and _LETTER.search(text, block.start, block.end) is None)


#: blocks that may be markup alone (:func:`markup_only`), which is no section's body
_MARKED = frozenset(("html", "paragraph", "list_item"))


def split_sections(index: DocumentIndex, span: Span) -> list[Section]:
    """Sections of a span: a new one at every heading; the part before the span's
    first heading inherits the trail in force at the span's start."""
    doc = index.doc
    text = doc.text
    lo, hi = span.lo, span.hi
    before = index.block_at(lo)
    trail = before.headings if before is not None else span.headings
    sections: list[Section] = []
    current = Section(lo, hi, trail or span.headings)
    for block in index.blocks_in(lo, hi):
        # (a heading the span starts inside only by a byte-order mark before it, a
        # span's start after one: Vue's docs open pages with one, and their title was
        # a chunk of its own)
        if block.kind == "heading" and (block.start >= lo or blank_between(text, block.start, lo)):
            start = max(block.start, lo)
            current.end = start
            sections.append(current)
            current = Section(start, hi, block.headings, [block])
        else:
            current.blocks.append(block)
            # (whether a section has a body is all that is asked: once it has one, the
            # blocks after it are not looked at)
            if not current.body and not _label(text, block) and not (
                    block.kind in _MARKED and markup_between(text, block.start, block.end)):
                current.body = 1
    sections.append(current)
    sections = [s for s in sections if _NON_SPACE.search(text, s.start, s.end)]  # (no copy)
    # a heading with no body of its own ("5. Records" straight into "5.1 ...", or an
    # empty section before the next, or one of markup alone: a comment, a Liquid tag)
    # joins the next section instead of becoming a chunk of one line: a heading never
    # forms a chunk by itself; so does text before the first heading that no reader
    # made a block of, if it is markup (an AsciiDoc include file's ``// tag::x[]``
    # over its title, a blank line between)
    merged: list[Section] = []
    for s in sections:
        prev = merged[-1] if merged else None
        if prev is not None and not prev.body and (
                prev.blocks or wordless(text[prev.start:prev.end])):
            prev.end, prev.headings, prev.body = s.end, s.headings, s.body
            prev.blocks.extend(s.blocks)  # in place: a run of 100,000 headings stays linear
        else:
            merged.append(s)
    return merged


def section_restarts(index: DocumentIndex, span: Span) -> list[int]:
    """The starts of the span's sections after the first that end inside it (another
    section follows): from there on, the cuts of the sections (and the joining of
    whole small ones, left to right) do not depend on the text before."""
    sections = split_sections(index, span)
    return [s.start for s in sections[1:-1]]


class StructuredPacking:
    """Structure-aware pieces of spans of one document."""

    def __init__(self, index: DocumentIndex, policy: PackPolicy, config: ChunkConfig,
                 options: StructureOptions):
        self.doc = index.doc
        self.index = index
        self.limit = config.limit
        self.options = options
        self.count = index.counter.count
        budget = config.budget
        self.prose = Packer(index, PackPolicy((BLOCK,) + policy.levels, policy.overlap_levels),
                            budget)
        self.rows = Packer(index, TABLE_ROW_POLICY, budget.replace(overlap=0))
        # a code block's piece holds at least a quarter of the limit where a line allows:
        # its blank lines are the first boundaries tried, and the one after an import
        # made a piece of it alone (react.dev: "```js\nimport { useState } from
        # 'react';", 22 tokens, the function after it cut at lines)
        self.code = Packer(index, CODE_LINES_POLICY, budget.replace(overlap=0), line_starts=True,
                           min_fill=budget.limit // CODE_FILL)
        table_max = options.table_max if options.table_max is not None else 2 * config.size
        self.table_limit = min(table_max, config.max_tokens)
        self.max_tokens = config.max_tokens
        self.max_chars = config.max_chars
        self._contexts: dict[tuple[str, ...], str] = {}
        self._rendered: dict[tuple[str, ...], tuple[str, ...]] = {}

    # -- context ------------------------------------------------------------------

    def trail(self, headings: tuple[str, ...]) -> tuple[str, ...]:
        title = self.doc.title if self.options.title else None
        if not title or (headings and restates(headings[0], title)):
            return headings
        if headings and restates(title, headings[0]) and \
                2 * len(_words(headings[0])) >= len(_words(title)):
            # (the title says more, and the heading at least half of it: the title stands
            # for both; a section "Title" under "Document Title (Level 0)" stays)
            return (title,) + headings[1:]
        return (title,) + headings

    def context(self, headings: tuple[str, ...]) -> str:
        """The rendered trail; outer headings are dropped while it would take more than
        half the budget (the text must keep room), and it is left out if even the
        innermost heading is too long."""
        if headings not in self._contexts:
            self._contexts[headings], self._rendered[headings] = self.render(
                self.trail(headings))
        return self._contexts[headings]

    def span_context(self, headings: tuple[str, ...], span: Span) -> str:
        """The context of text under ``headings`` in ``span``: their trail; before the
        first heading, the document's title where there is one (a page titled in its
        front matter opens with its summary), else the span's own context."""
        titled = self.options.title and bool(self.doc.title) and not span.context
        return self.context(headings) if headings or titled else span.context

    def fits_context(self, ctx: str, extra: str) -> str:
        """``ctx + extra`` if it leaves half the budget for text, else ``ctx``."""
        both = ctx + extra
        if self.count(both) <= self.limit // 2 and len(both) <= self.max_chars // 2:
            return both
        return ctx

    def header_context(self, ctx: str, block: Block) -> tuple[str, bool]:
        """The context of a table part after the first: the trail plus a compact
        rendering of the header (cells trimmed, no delimiter row: ``Property |
        Description | Default``). Context is not source text, so it need not be
        verbatim. Only when the compact header alone would take more than half the
        budget is it shortened, at cell borders (the flag says so)."""
        # (a link as its text: the header is context, not the table's source)
        columns = [links_as_text(" ".join(str(c).split())) for c in block.metadata.get("columns", ())]
        if not any(columns):
            header = block.metadata.get("header")
            if header is None:
                return ctx, False
            columns = [c.strip() for c in self.doc.text[header[0]:header[1]].splitlines()[0]
                       .strip().strip("|").split("|")]
        full = " | ".join(columns) + "\n"
        if self.count(ctx + full) <= self.limit // 2 and len(ctx + full) <= self.max_chars // 2:
            return ctx + full, False
        for n in range(len(columns) - 1, 0, -1):  # cut at a cell border
            short = " | ".join(columns[:n]) + " | ...\n"
            if self.count(ctx + short) <= self.limit // 2 and \
                    len(ctx + short) <= self.max_chars // 2:
                return ctx + short, True
        return ctx, True

    # -- packing ------------------------------------------------------------------

    def split(self, span: Span) -> list[Piece]:
        out: list[Piece] = []
        # the document's words into the tokenizer's word cache first: its heading trails
        # (counted as contexts before any piece) are then counted from known words, not
        # encoded a few new words at a time (~4 % of this strategy's time on a corpus
        # whose words are new)
        _ = self.index.tokens
        for section in split_sections(self.index, span):
            section_pieces = self.section_pieces(section, span)
            for p in section_pieces:
                p.headings = section.headings
            if out and section_pieces and wordless(self.doc.text[out[-1].start:out[-1].end]):
                # markup alone ending the section before (too much for its last part: a
                # zone's closing line, kept there by the reader) opens this one where
                # that fits
                joined = self._joined(out[-1], section_pieces[0], section_pieces[0])
                if joined is not None:
                    joined.headings = section.headings
                    out.pop()
                    section_pieces[0] = joined
            if self.options.dedupe_headings and section.headings:
                self._drop_repeated_headings(section, section_pieces)
            if len(section_pieces) == 1 and section_pieces[0].kind == "prose":
                section_pieces[0].metadata["whole_section"] = True
            out.extend(section_pieces)
        if self.options.merge_sections:
            out = self.merge_siblings(out)
        for p in out:
            p.metadata.pop("whole_section", None)
        return out

    def _drop_repeated_headings(self, section: Section, pieces: list[Piece]) -> None:
        """A piece whose text starts with its section's heading(s) would embed them
        twice: leave those headings out of its trail (``headings`` keeps them)."""
        full = self.context(section.headings)
        if not full:
            return
        shown = self._rendered[section.headings]
        heads = [b for b in section.blocks if b.kind == "heading" and b.headings]
        starts = [b.start for b in heads]
        for p in pieces:
            if p.context != full:
                continue
            first = bisect_left(starts, p.start)
            last = bisect_left(starts, p.end)
            inside = {b.headings[-1] for b in heads[first:last] if b.end <= p.end}
            if not inside:
                continue
            ctx = self.render(tuple(h for h in shown if h not in inside))[0]
            n = self.count(ctx + self.doc.text[p.start:p.end])
            if n <= p.token_count:
                p.context, p.token_count = ctx, n

    def render(self, trail: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """A trail as context, outer headings dropped while it would take more than half
        the budget; also the part of the trail that made it in."""
        while trail:
            ctx = self.options.context_template.format(
                trail=self.options.trail_separator.join(trail), title=self.doc.title or "")
            if self.count(ctx) <= self.limit // 2 and len(ctx) <= self.max_chars // 2:
                return ctx, trail
            trail = trail[1:]
        return "", ()

    def section_pieces(self, section: Section, span: Span) -> list[Piece]:
        ctx = self.span_context(section.headings, span)
        pieces: list[Piece] = []
        cur = section.start
        pending: list[Block] = []  # blocks since cur
        for block in section.blocks:
            clipped = block.start < section.start or block.end > section.end
            if block.kind == "table":
                lo, hi = max(block.start, section.start), min(block.end, section.end)
                # headings alone before a table (and a line introducing it) travel
                # with it rather than make a chunk of one line
                # (a small part before it only where the table is cut anyway: one that
                # fits alone stays whole)
                lead = None if clipped else self._lead(cur, pending, lo, ctx, small=(
                    hi - lo + len(ctx) > self.max_chars
                    or self.span_count(ctx, lo, hi) > self.table_limit))
                pieces.extend(self._before(cur, lead, lo, ctx, pending))
                pieces.extend(self.table_pieces(block, ctx, lead, lo, hi))
                cur, pending = hi, []
            elif block.kind == "front_matter" and not clipped:
                if cur < block.start:
                    pieces.extend(self._prose(cur, block.start, ctx, pending))
                # (front matter the document's metadata holds is before every span:
                # chunks start after it, strategies.base.body_start)
                for p in self.prose.pack(block.start, block.end):
                    p.kind = "front_matter"
                    pieces.append(p)
                cur, pending = block.end, []
            elif block.kind == "code" and not clipped and self._too_big(ctx, block):
                # a code block that cannot fit is cut at lines; from the second piece
                # on, its opening fence line (with the language) is in context.
                # Headings alone before it travel with its first piece (a heading is
                # never a chunk by itself), and so does a line introducing it
                lead = self._lead(cur, pending, block.start, ctx)
                pieces.extend(self._before(cur, lead, block.start, ctx, pending))
                pieces.extend(self.code_pieces(block, ctx, lead))
                cur, pending = block.end, []
            else:
                pending.append(block)
        if cur < section.end:
            pieces.extend(self._prose(cur, section.end, ctx, pending))
        return self._join_bare(pieces) if len(pieces) > 1 else pieces

    #: a paragraph ending in a colon of at most this share of the limit introduces the
    #: code block or table after it ("Example: using ``Cipher`` and piped streams:")
    INTRO_SHARE = 4

    def _lead(self, cur: int, pending: list[Block], start: int, ctx: str,
              small: bool = True) -> int | None:
        """Where the first piece of a code block or table too big for one chunk
        (starting at ``start``) starts when what is before it goes with it: headings
        alone (and markup: ``cur``), what would be a piece under ``min_tokens`` alone
        (``cur``: "On Windows" between two code blocks), or a short paragraph ending in
        a colon that introduces it (its start, or that of the markup right above it, or
        ``cur`` when only headings are above it); None: nothing goes with it."""
        end = self.index.trim_end(cur, start)
        if small and cur < end and self.prose.min_size and \
                self.span_count("", cur, end) < self.prose.min_size:
            return cur
        intro = pending[-1] if pending else None
        if intro is not None and intro.kind == "paragraph":
            said = self.doc.text[intro.start:intro.end].rstrip()
            if not said.endswith(":") or \
                    self.span_count("", intro.start, intro.end) > self.limit // self.INTRO_SHARE:
                intro = None
        else:
            intro = None
        above = pending[:-1] if intro is not None else pending
        if pending and all(self._heading_like(b) for b in above):
            return cur
        if intro is None:
            return None
        # markup right above the introduction goes with it (DocFX's ``:::zone
        # pivot="cluster-mode"``, an anchor), but what closes the text before it
        lead = intro.start
        for b in reversed(above):
            if b.kind == "heading" or not self._heading_like(b) or \
                    DOCFX_CLOSER.search(self.doc.text, b.start, b.end):
                break
            lead = b.start
        return lead

    def _before(self, cur: int, lead: int | None, start: int, ctx: str,
                pending: list[Block]) -> list[Piece]:
        """The prose of a section up to a code block or table starting at ``start``
        (or up to what goes with it: ``lead``)."""
        end = start if lead is None else lead
        if cur >= end:
            return []
        return self._prose(cur, end, ctx, [b for b in pending if b.end <= end])

    def _join_bare(self, pieces: list[Piece]) -> list[Piece]:
        """A piece of markup or punctuation alone between a section's parts (an HTML
        comment before a table or after a code block cut at lines: each packed on its
        own) joined to the part after it, or, ending the section, to the one before,
        where the two fit; so too a piece under ``min_tokens`` (a line between two
        code blocks, ``.. tab:: Windows``, a closing remark after one): prose goes
        with the part after it first (what it introduces), a code or table part with
        the one before (the rest of its block)."""
        text, small = self.doc.text, self.prose.min_size
        out = list(pieces)
        i = 0
        while i < len(out) and len(out) > 1:
            p = out[i]
            bare = wordless(text[p.start:p.end])
            if bare:
                ahead = True
            elif small and self.span_count("", p.start, p.end) < small:  # (its own text)
                ahead = p.kind in (None, "prose")
            else:
                i += 1
                continue
            joined = None
            for forward in (ahead, not ahead):
                j = i + 1 if forward else i - 1
                # (text joins no front matter: a chunk of that kind holds only it)
                if not 0 <= j < len(out) or (not bare and out[j].kind == "front_matter"):
                    continue
                joined = self._joined(*((p, out[j]) if forward else (out[j], p)), out[j])
                if joined is not None:
                    i = min(i, j)
                    out[i:i + 2] = [joined]
                    break
            if joined is None:
                i += 1
        return out

    def _joined(self, a: Piece, b: Piece, like: Piece) -> Piece | None:
        """``a`` and ``b`` as one piece like ``like`` (its context, kind, metadata), if
        that fits."""
        # (a whole table may take up to table_limit; the parts of one cut at its rows
        # keep to the limit, as they were packed)
        parts = "table_part" in a.metadata or "table_part" in b.metadata
        limit = self.table_limit if like.kind == "table" and not parts else self.limit
        if b.end - a.start + len(like.context) > self.max_chars:
            return None
        n = self.count(like.context + self.doc.text[a.start:b.end])
        if n > limit:
            return None
        return dataclasses.replace(like, start=a.start, end=b.end, token_count=n,
                                   metadata=dict(like.metadata))

    def _too_big(self, ctx: str, block: Block) -> bool:
        return (block.end - block.start + len(ctx) > self.max_chars
                or self.span_count(ctx, block.start, block.end) > self.limit)

    def span_count(self, ctx: str, lo: int, hi: int) -> int:
        """``count(ctx + text[lo:hi])``, from the document's token counts where the
        counter adds up across whitespace and whitespace surrounds the span (as the
        packer counts a piece), else by counting it."""
        text, index = self.doc.text, self.index
        sep = index.counter.separates
        if (index.counter.additive and (not ctx or sep(ctx[-1])) and (lo == 0 or sep(text[lo - 1]))
                and (hi == len(text) or sep(text[hi]))):
            return (self.count(ctx) if ctx else 0) + int(index.before(hi)) - int(index.before(lo))
        return self.count(ctx + text[lo:hi])

    def code_pieces(self, block: Block, ctx: str, lead: int | None = None) -> list[Piece]:
        """A code block's pieces; ``lead``: an earlier start (headings just above it)."""
        text = self.doc.text
        nl = text.find("\n", block.start, block.end)
        fence = text[block.start:nl].strip() if nl != -1 else ""
        if not fence.startswith(("```", "~~~")):
            # an indented code block or a <pre>: a fence naming its language, if known
            language = block.metadata.get("language")
            fence = f"```{language}" if language else ""
        # with headings above: the first piece takes code past its opening line; so
        # always past a reStructuredText directive and its options (a blank line
        # follows them: the first cut fell there, the directive a piece alone)
        floor = (nl if nl != -1 else block.end) if lead is not None else None
        if text.startswith(".. ", block.start) and (blank := text.find("\n\n", block.start,
                                                                         block.end)) != -1:
            floor = max(floor or 0, blank)
        first = self.code.pack(block.start if lead is None else lead, block.end, ctx,
                               first_floor=floor)[:1]
        if lead is not None and first and first[0].end <= block.start:
            # the headings above do not all fit beside the code's first line: they are
            # packed at lines in the section's context, their last part going with the
            # code where it fits (the part after the first cut was a "code" piece in
            # the fence line's context)
            heads = self.code.pack(lead, block.start, ctx)
            if len(heads) > 1 and heads[-1].start > lead:
                return heads[:-1] + self.code_pieces(block, ctx, heads[-1].start)
            return heads + self.code_pieces(block, ctx)
        rest_ctx = self.fits_context(ctx, fence + "\n") if fence else ctx
        rest = self.code.pack(first[0].end, block.end, rest_ctx) if first and \
            first[0].end < block.end else []
        pieces = first + rest
        for i, p in enumerate(pieces):
            p.kind = "code"
            p.metadata.update(code_part=i + 1, code_parts=len(pieces))
            if block.metadata.get("language"):
                p.metadata["language"] = block.metadata["language"]
        return pieces

    def _prose(self, lo: int, hi: int, ctx: str, pending: list[Block]) -> list[Piece]:
        """Prose of a section; headings (and markup) at its start travel with the first piece."""
        floor = marked = None  # after the headings at its start; after short markup too
        for b in pending:
            if b.kind == "heading" and marked == floor:
                floor = b.end
            elif not self._heading_like(b) or (b.kind != "heading" and self.span_count(
                    "", b.start, b.end) > self.MARKUP_TOKENS):
                if floor is not None:  # markup that opens the block after the headings
                    marked = self._markup_opening(b) or marked
                break
            marked = b.end
        if marked is not None and marked != floor:  # markup too: past it where that fits
            pieces = self.prose.pack(lo, hi, ctx, first_floor=marked)
            if pieces and pieces[0].end > marked:
                return pieces
        return self.prose.pack(lo, hi, ctx, first_floor=floor)

    def _markup_opening(self, block: Block) -> int | None:
        """Where short markup that opens a block ends, a blank line before its text
        (Node.js's ``<!-- YAML`` history of a function, made part of the list of its
        options after it: the heading and the comment were a chunk); None if none."""
        text = self.doc.text
        if text[block.start] not in "<{[.:(":
            return None
        gap = _BLANK_LINE.search(text, block.start, block.end)
        if gap is None or not markup_between(text, block.start, gap.start()) or \
                self.span_count("", block.start, gap.start()) > self.MARKUP_TOKENS:
            return None
        return gap.start()

    #: markup up to this many tokens under a heading travels with the heading into the
    #: text after it (an anchor, ``<!--type=misc-->``); longer markup (a logo's link, a
    #: ``<!-- YAML`` history) would push the first cut deep into that text
    MARKUP_TOKENS = 32

    def _heading_like(self, block: Block) -> bool:
        """A heading, or markup without words (``<!--type=misc-->`` under a heading,
        an anchor): what travels with the text after it rather than form a chunk."""
        return block.kind == "heading" or (block.kind in _MARKED and markup_between(
            self.doc.text, block.start, block.end))

    def table_pieces(self, block: Block, ctx: str, lead: int | None, lo: int,
                     hi: int) -> list[Piece]:
        """A table's chunks (of its part ``[lo, hi)`` when a span clips it); ``lead`` is
        an earlier start (a heading just above it)."""
        meta = block.metadata
        start = lo if lead is None else lead
        whole = self.span_count(ctx, start, hi)
        rows = [(s, e) for s, e in meta.get("rows", ()) if s >= lo and e <= hi]
        header = meta.get("header")
        header_inside = header is not None and header[0] >= lo and header[1] <= hi
        header_ctx, shortened = self.header_context(ctx, block) if header else (ctx, False)
        first_ctx = ctx if header_inside or header is None else header_ctx
        if self.options.table_rows == "row" and rows and header:
            pieces = self.row_pieces(block, ctx, start, hi, header_inside, header_ctx)
        elif whole <= self.table_limit and hi - start + len(ctx) <= self.max_chars and (
                header_inside or header is None):
            return [Piece(start, hi, whole, ctx, kind="table")]
        elif not rows:
            pieces = self.rows.pack(start, hi, first_ctx)
        else:
            header_end = header[1] if header_inside and header is not None else None
            pieces = self.row_groups(start, hi, rows, first_ctx, header_ctx, header_end)
            for i, p in enumerate(pieces):
                p.metadata.update(table_part=i + 1, table_parts=len(pieces))
        if shortened:
            for p in pieces:
                if p.context != first_ctx or not header_inside:
                    p.metadata["header_shortened"] = True
        return self._tag(pieces, "table")

    def row_groups(self, start: int, hi: int, rows: list[tuple[int, int]], ctx: str,
                   header_ctx: str, header_end: int | None = None) -> list[Piece]:
        """Whole rows packed into what the budget leaves after the context; the first
        group carries the header and delimiter lines in its text (they are never
        separated: the first cut comes after them), the others the compact header in
        their context. A row larger than the size stays whole up to max_tokens; only
        a row beyond that is cut, at cell borders."""
        text = self.doc.text
        pieces: list[Piece] = []
        group_start: int | None = start
        group_end: int | None = None
        group_n = 0
        cap = self.max_chars

        def group_ctx() -> str:
            return ctx if not pieces else header_ctx

        for s, e in rows:
            if group_start is None:
                group_start = s
            gctx = group_ctx()
            n = self.count(gctx + text[group_start:e])
            if n <= self.limit and e - group_start + len(gctx) <= cap:
                group_end, group_n = e, n
                continue
            if group_end is not None:  # close the group before this row
                pieces.append(Piece(group_start, group_end, group_n, gctx))
                group_start = s
                gctx = group_ctx()
                n = self.count(gctx + text[group_start:e])
                if n <= self.limit and e - group_start + len(gctx) <= cap:
                    group_end, group_n = e, n
                    continue
            if not pieces and group_end is None and (n > self.max_tokens or e - group_start + len(
                    gctx) > cap) and (head := self._header_alone(group_start, header_end, (s, e), gctx,
                                                                 header_ctx)):
                pieces.append(head)
                group_start, group_end, group_n = s, e, self.count(header_ctx + text[s:e])
                continue
            if n <= self.max_tokens and e - group_start + len(gctx) <= cap:
                pieces.append(Piece(group_start, e, n, gctx))  # one big row: kept whole
            else:  # cut at cell borders, never between the header and its delimiter row
                floor = header_end if not pieces and header_end is not None and \
                    group_start < header_end else None
                cut = self.rows.pack(group_start, e, gctx, first_floor=floor)
                pieces.append(cut[0])
                if cut[0].end < e:
                    pieces.extend(self.rows.pack(cut[0].end, e, header_ctx))
            group_start, group_end = None, None
        if group_end is not None and group_start is not None:
            gctx = group_ctx()
            n = self.count(gctx + text[group_start:hi]) if text[group_end:hi].strip() else 0
            if n and n <= self.limit and hi - group_start + len(gctx) <= cap:
                group_end, group_n = hi, n  # (with the row the span clips: see below)
            pieces.append(Piece(group_start, group_end, group_n, gctx))
        done = pieces[-1].end if pieces else start
        if done < hi and text[done:hi].strip():  # text after the rows; a row the span clips
            pieces.extend(self.rows.pack(done, hi, group_ctx()))  # (before a pasted image)
        return pieces

    def _header_alone(self, start: int, header_end: int | None, row: tuple[int, int], ctx: str,
                      header_ctx: str) -> Piece | None:
        """The header (and what leads it) as a piece of its own, where it and the first
        row would be cut but the row fits alone, and the header holds a quarter
        of the limit: a grid table's, whose border is a token a character (PyPA's
        guide: 103 a border), rather than the first row cut at a cell after it. (A
        Markdown table's header line is small: it keeps the start of the row.)"""
        s, e = row
        if header_end is None or not start < header_end <= s:
            return None
        text = self.doc.text
        n = self.count(ctx + text[start:header_end])
        if not self.limit // CODE_FILL <= n <= self.limit or \
                header_end - start + len(ctx) > self.max_chars:
            return None
        if self.count(header_ctx + text[s:e]) > self.limit or e - s + len(header_ctx) > self.max_chars:
            return None
        return Piece(start, header_end, n, ctx)

    def row_pieces(self, block: Block, ctx: str, start: int, hi: int,
                   header_inside: bool, header_ctx: str) -> list[Piece]:
        """One chunk per row, the row rendered as 'column: value; ...' in context."""
        text = self.doc.text
        meta = block.metadata
        columns = meta.get("columns", ())
        pieces: list[Piece] = []
        first = True
        for i, ((s, e), cells) in enumerate(zip(meta["rows"], meta.get("cells", ()))):
            if s < start or e > hi:
                continue
            record = "; ".join(f"{c}: {v}" for c, v in zip(columns, cells) if c or v)
            begin = start if first and header_inside else s  # header lines with the first row
            row_ctx = ctx + record + "\n"
            n = self.count(row_ctx + text[begin:e])
            if n <= self.limit and e - begin + len(row_ctx) <= self.max_chars:
                pieces.append(Piece(begin, e, n, row_ctx, kind="table",
                                    metadata={"row": i + 1}))
            else:
                pieces.extend(self.rows.pack(begin, e, ctx if first and header_inside
                                             else header_ctx))
            first = False
        return pieces

    @staticmethod
    def _tag(pieces: list[Piece], kind: ChunkKind) -> list[Piece]:
        for p in pieces:
            p.kind = kind
        return pieces

    def merge_siblings(self, pieces: list[Piece]) -> list[Piece]:
        """Merge neighbouring whole small sections under a common trail, up to the size."""
        out: list[Piece] = []
        text = self.doc.text
        page_at = self.index.page_at
        for p in pieces:
            prev = out[-1] if out else None
            if (prev is not None and prev.metadata.get("whole_section")
                    and p.metadata.get("whole_section")
                    and page_at(prev.start) == page_at(p.start)):
                common = _common_prefix(prev.headings, p.headings)
                if common and len(common) >= min(len(prev.headings), len(p.headings)) - 1:
                    ctx = self.context(common)
                    n = self.count(ctx + text[prev.start:p.end])
                    if n <= self.limit and p.end - prev.start + len(ctx) <= self.max_chars:
                        out[-1] = Piece(prev.start, p.end, n, ctx, headings=common,
                                        metadata={"whole_section": True})
                        continue
            out.append(p)
        return out


def _common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


__all__ = ["BLOCK", "TABLE_ROW", "TABLE_CELL", "StructureOptions", "StructuredPacking",
           "section_restarts", "split_sections"]
