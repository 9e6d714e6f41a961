"""Source code, cut along its definitions (tree-sitter, through the code reader).

A span is a sequence of units: definitions, and the code between them (module
docstring, imports, module-level statements). Units are packed greedily, so
small neighbouring definitions share a chunk; a unit too big for the budget is
opened: a class (or impl, namespace, interface ...) becomes its header
(signature, docstring, class-level statements) and its members, each member's
chunk carrying ``path > Class`` and the class signature in context; a function
too big is cut at statement boundaries, its later pieces carrying its signature
in context. Every chunk starts at the start of a line (indentation included).
Without definitions (an unknown language, no grammar installed, or prose) the
file is cut at blank lines, then lines.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..errors import ConfigError
from ..levels import TOKEN, Pattern, Positions
from ..types import Block, Document
from .base import Chunker, register

BLANK_LINES = Pattern("blank-lines", r"\n[ \t]*\n")  # cut after a blank line
LINES = Pattern("code-line", r"\n", use_end=True)  # cut at the start of every line


def _statement_starts(index: DocumentIndex) -> list[int]:
    """Line starts of the statements of definitions' bodies (tree-sitter's children
    of each body): the natural cut points of a function too big for the budget."""
    text = index.text
    out = []
    for b in index.blocks:
        for pos in b.metadata.get("statements", ()) if b.kind == "code" else ():
            start = _line_start(text, pos, b.start)
            if start == 0 or text[start - 1] in "\r\n":  # not a comment after code
                out.append(start)
    return out


STATEMENTS = Positions("statement", _statement_starts)
CODE_POLICY = PackPolicy(levels=(BLANK_LINES, LINES, TOKEN))
LINE_POLICY = PackPolicy(levels=(LINES, TOKEN))
#: a too-big function's first piece: statements first, then blank lines, then lines
OPENINGS = (PackPolicy((STATEMENTS, BLANK_LINES, LINES, TOKEN)), CODE_POLICY, LINE_POLICY)


@dataclass(slots=True)
class _Unit:
    start: int
    end: int
    block: Block | None = None  # a definition, or None for the code between them


@register("code")
class CodeChunker(Chunker):
    """Definitions as units: small ones merged up to the size, big classes opened
    into their members (``path > Class`` and the class signature in context), big
    functions cut at statements (the signature in context). ``path_context``:
    put the file's path (and enclosing class) at the head of the context."""

    kind = "code"

    def __init__(self, size: int | None = None, *, code_language: str | None = None,
                 path_context: bool = True, **options: Any):
        from ..readers.code import LANGUAGES

        if code_language is not None and code_language not in LANGUAGES:
            raise ConfigError(f"strategy 'code': unknown code_language {code_language!r} "
                              f"(expected one of {', '.join(LANGUAGES)})")
        self.language = code_language
        self.path_context = bool(path_context)
        super().__init__(size, **options)

    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.language:
            out["code_language"] = self.language
        if not self.path_context:
            out["path_context"] = False
        return out

    def _code_index(self, doc: Document, index: DocumentIndex) -> tuple[Document, DocumentIndex]:
        """The document with its definitions: as read, or parsed here when it came in
        as plain text (a str, a Markdown code block) and a language is known."""
        if any(b.kind == "code" and "symbol" in b.metadata for b in index.blocks):
            return doc, index
        language = self.language or doc.metadata.get("language")
        if not language:
            return doc, index
        found = index.memo.get(("code-index", language))
        if found is None:
            from ..readers.code import parse_code

            parsed = parse_code(doc.text, doc.doc_id, doc.source, language=language)
            code_doc = Document(doc.text, doc.doc_id, doc.source, doc.title, parsed.blocks,
                                {**doc.metadata, **parsed.metadata})
            found = (code_doc, DocumentIndex(code_doc, self.tokenizer))
            index.memo[("code-index", language)] = found
        return found

    # -- the interface ----------------------------------------------------------------

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        doc, index = self._code_index(doc, index)
        defs = [b for b in index.blocks_in(span.lo, span.hi)
                if b.kind == "code" and "symbol" in b.metadata]
        base_ctx = span.context or self._path_context(doc, ())
        packer = self._packer(index, CODE_POLICY)
        if not defs:
            pieces = packer.pack(span.lo, span.hi, base_ctx)
            return self._finish(doc, index, pieces, None)
        # the outermost definitions inside the span (a span inside a class sees its members)
        inside = {b.metadata.get("definition"): b for b in defs
                  if b.start >= span.lo and b.end <= span.hi}
        top = [b for b in inside.values() if b.metadata.get("parent") not in inside]
        return self._region(doc, index, span.lo, span.hi, base_ctx, top)

    # -- packing ----------------------------------------------------------------------

    def _packer(self, index: DocumentIndex, policy: PackPolicy) -> Packer:
        return Packer(index, policy, self.config.budget.replace(overlap=0), line_starts=True)

    def _path_context(self, doc: Document, trail: tuple[str, ...],
                      signatures: tuple[str, ...] = ()) -> str:
        """``path > Outer > inner`` and the signatures of the enclosing definitions,
        outermost first. Where that would take more than half the budget, the path
        is shortened to the file name first, then signatures are dropped from the
        outside in."""
        if not self.path_context and not trail:
            return ""
        path = doc.source or doc.doc_id
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        budget = self.limit // 2
        count = self.tokenizer.count
        heads = [" > ".join(((p,) if self.path_context else ()) + trail)
                 for p in dict.fromkeys((path, name))]
        candidates = [(heads[0], len(signatures))] + \
            [(heads[-1], keep) for keep in range(len(signatures), -1, -1)]
        for head, keep in candidates:
            sigs = signatures[len(signatures) - keep:] if keep else ()
            ctx = head + "\n" + "".join(s + "\n" for s in sigs)
            if count(ctx) <= budget and len(ctx) <= self.max_chars // 2:
                return ctx
        return ""

    def _units(self, index: DocumentIndex, lo: int, hi: int, defs: list[Block]) -> list[_Unit]:
        text = index.text
        units: list[_Unit] = []
        cur = lo
        ordered = sorted(defs, key=lambda b: b.start)
        for i, d in enumerate(ordered):
            start = _line_start(text, d.start, cur)
            line = text.rfind("\n", 0, start) + 1
            if cur <= line < start:
                # words before it on its line are its own (C's ``typedef struct {``,
                # whose struct starts mid-line: ``typedef`` was a chunk of its own and
                # the struct's first one began inside the line)
                start = line
            if text[cur:start].strip():
                units.append(_Unit(cur, start))
            # the rest of its last line (a ";" after a C++ class, a trailing comment)
            # belongs to the definition, so that what follows starts a line
            limit = ordered[i + 1].start if i + 1 < len(ordered) else hi
            nl = text.find("\n", d.end, limit)
            end = nl if nl != -1 else d.end
            units.append(_Unit(start, max(end, d.end), d))
            cur = max(end, d.end)
        if text[cur:hi].strip():
            units.append(_Unit(cur, hi))
        return units

    def _region(self, doc: Document, index: DocumentIndex, lo: int, hi: int, ctx: str,
                defs: list[Block], signatures: tuple[str, ...] = ()) -> list[Piece]:
        """Pack a region's units: whole units merged up to the budget, a unit that does
        not fit opened on its own."""
        text = index.text
        count = self.tokenizer.count
        out: list[Piece] = []
        group: list[_Unit] = []
        group_n = 0

        def close() -> None:
            nonlocal group, group_n
            if group:
                s = _content_start(text, group[0].start, group[-1].end)
                e = _content_end(text, s, group[-1].end)
                out.append(Piece(s, e, group_n, ctx, kind="code",
                                 metadata=self._group_metadata(group)))
            group, group_n = [], 0

        for unit in self._units(index, lo, hi, defs):
            start = group[0].start if group else unit.start
            s = _content_start(text, start, unit.end)
            e = _content_end(text, s, unit.end)
            if e <= s:
                continue
            n = count(ctx + text[s:e])
            if n <= self.limit and e - s + len(ctx) <= self.max_chars:
                group.append(unit)
                group_n = n
                continue
            close()
            s = _content_start(text, unit.start, unit.end)
            e = _content_end(text, s, unit.end)
            n = count(ctx + text[s:e])
            if n <= self.limit and e - s + len(ctx) <= self.max_chars:
                group, group_n = [unit], n
                continue
            out.extend(self._open(doc, index, unit, ctx, signatures))
        close()
        return self._finish(doc, index, out, None)

    def _open(self, doc: Document, index: DocumentIndex, unit: _Unit, ctx: str,
              signatures: tuple[str, ...]) -> list[Piece]:
        """A unit too big for the budget: a container's header and members, or a
        function's statements with its signature in context, or plain lines."""
        text = index.text
        block = unit.block
        if block is None:
            return self._packer(index, CODE_POLICY).pack(unit.start, unit.end, ctx)
        meta = block.metadata
        signature = meta.get("signature") or " ".join(
            text[meta["header"][0]:meta["header"][1]].split())
        trail = block.headings
        sigs = (*signatures, signature)
        inner_ctx = self._path_context(doc, trail, sigs)
        members = [b for b in index.blocks_in(block.start, block.end)
                   if b.kind == "code" and b.metadata.get("parent") == meta.get("definition")
                   and b is not block]
        if members:
            first = _line_start(text, min(m.start for m in members), block.start)
            head: list[Piece] = []
            if text[unit.start:first].strip():
                # the class line opens the first piece; a long preamble's later pieces
                # (attributes, comments) carry the class in context, as members do
                head = self._opening(index, unit.start, first, ctx, meta["header"][1],
                                     OPENINGS[1:])
                if head and head[0].end < first and text[head[0].end:first].strip():
                    head += self._packer(index, CODE_POLICY).pack(head[0].end, first, inner_ctx)
            for p in head:
                p.metadata.update(symbol=meta["symbol"], kind=meta["kind"])
            rest = self._region(doc, index, first, unit.end, inner_ctx, members, sigs)
            return self._joined(index, head, rest)
        # a function (or a member-less class) too big: its statements, signature in context
        pieces = self._opening(index, unit.start, unit.end, ctx, meta["header"][1], OPENINGS)
        if pieces and pieces[0].end < unit.end:
            packer = self._packer(index, OPENINGS[0])
            rest = packer.pack(pieces[0].end, unit.end, inner_ctx)
            if any(text[p.start - 1] != "\n" for p in rest) and \
                    (short := self._path_context(doc, trail, signatures)) != inner_ctx:
                # a line too long to stay whole beside the signature: the trail alone
                # (``path > cheapest``) where that keeps every line whole
                alt = packer.pack(pieces[0].end, unit.end, short)
                rest = rest if any(text[p.start - 1] != "\n" for p in alt) else alt
            pieces += rest
        for i, p in enumerate(pieces):
            p.metadata.update(symbol=meta["symbol"], kind=meta["kind"],
                              part=i + 1, parts=len(pieces))
        return pieces

    def _opening(self, index: DocumentIndex, lo: int, hi: int, ctx: str, header_end: int,
                 policies: tuple[PackPolicy, ...]) -> list[Piece]:
        """The first piece of a definition too big for the budget, cut by the first
        policy that does not leave its header alone (a docstring or a first statement
        too big to join the signature, or a blank line after a class line: the
        header opens the first piece with as many of the next lines as fit)."""
        text = index.text
        first: list[Piece] = []
        for policy in policies:
            first = self._packer(index, policy).pack(lo, hi, ctx)[:1]
            if not first or text[header_end:first[0].end].strip(" \t\r\n{(:"):
                break
        return first

    def _joined(self, index: DocumentIndex, head: list[Piece], rest: list[Piece]) -> list[Piece]:
        """A container's head (its header line, docstring) and its first members'
        piece as one piece where that fits the budget, under the head's context, as
        whole units are packed (``class Request:`` was a chunk of its own before a
        first method too big to join it; its members' pieces carry it in context)."""
        if len(head) != 1 or not rest:
            return head + rest
        h, r = head[0], rest[0]
        text = index.text
        if text[h.end:r.start].strip() or r.depth or h.depth:
            return head + rest
        n = self.tokenizer.count(h.context + text[h.start:r.end])
        if n > self.limit or r.end - h.start + len(h.context) > self.max_chars:
            return head + rest
        members = r.metadata.get("symbols") or ([r.metadata["symbol"]] if "symbol" in r.metadata
                                                else [])
        meta = {k: v for k, v in r.metadata.items()
                if k not in ("symbol", "kind", "symbols", "part", "parts")}
        meta["symbols"] = [h.metadata["symbol"], *members]
        merged = Piece(h.start, r.end, n, h.context, kind="code", headings=h.headings,
                       page=h.page, metadata=meta)
        return [merged] + rest[1:]

    def _group_metadata(self, group: list[_Unit]) -> dict[str, Any]:
        defs = [u.block for u in group if u.block is not None]
        if len(defs) == 1 and len(group) == 1:
            assert defs[0] is not None
            return {"symbol": defs[0].metadata["symbol"], "kind": defs[0].metadata["kind"]}
        if defs:
            return {"symbols": [d.metadata["symbol"] for d in defs if d is not None]}
        return {}

    def _finish(self, doc: Document, index: DocumentIndex, pieces: list[Piece],
                _: Any) -> list[Piece]:
        """Language and line range on every piece."""
        text = index.text
        language = doc.metadata.get("language")
        starts = index.memo.get("line-starts")
        if starts is None:
            starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
            index.memo["line-starts"] = starts
        for p in pieces:
            p.kind = "code"
            if language:
                p.metadata.setdefault("language", language)
            p.metadata["lines"] = [bisect_right(starts, p.start),
                                   bisect_right(starts, max(p.start, p.end - 1))]
        return pieces


def _line_start(text: str, pos: int, floor: int) -> int:
    """The start of ``pos``'s line when only indentation precedes it (not before floor)."""
    start = pos
    while start > floor and text[start - 1] in " \t":
        start -= 1
    return start if start == floor or text[start - 1] in "\r\n" else pos


def _content_start(text: str, start: int, end: int) -> int:
    """Skip blank lines at the start, keep the first line's indentation."""
    pos = start
    while pos < end and text[pos] in " \t\r\n\f\v":
        pos += 1
    return _line_start(text, pos, start)


def _content_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


__all__ = ["CodeChunker"]
