"""JSON and JSON Lines, cut at element boundaries.

A value that fits the budget is one chunk. A container that does not is cut
into runs of whole members (objects) or elements (arrays), packed up to the
size, each chunk a verbatim slice of the file with its JSON path
(``$.items[3].address``) in context and ``metadata``; a member too big is cut
the same way one level down. JSON Lines: one record, or a pack of whole
records, per chunk. A value too big to open further (a very long string) is
cut at words, then tokens, its key (and the brackets opening with it) starting its
first chunk. JSON with comments (JSONC) is cut the same way, its elements found in
the text with its comments blanked; a comment before an element starts its chunk.
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import DocumentIndex, Packer, PackPolicy, Piece, Span
from ..levels import CLAUSE, LINE, TOKEN, WORD
from ..readers.jsondoc import jsonc_masked
from ..types import Document
from .base import Chunker, register

_WS = re.compile(r"[ \t\n\r]*")
_COMMA = re.compile(r"[ \t\r\n]*,")
_SAME_LINE_COMMENT = re.compile(r"[ \t]*(?://[^\n]*|/\*(?:[^*\n]|\*(?!/))*\*/)")
# the standard library's JSON string scanner (it returns where the string ends)
scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
_DECODER = json.JSONDecoder()
_FALLBACK = PackPolicy((LINE, CLAUSE, WORD, TOKEN))


@dataclass(slots=True)
class _Element:
    path: str
    start: int
    end: int
    value_start: int


def _skip(text: str, i: int) -> int:
    m = _WS.match(text, i)
    return m.end() if m else i


def _key(name: str) -> str:
    return f".{name}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else f"[{json.dumps(name)}]"


def children(text: str, start: int, path: str, real: str | None = None) -> list[_Element]:
    """The members of the object, or elements of the array, at ``start``; each
    element's span takes in the comma after it, so that nothing falls between.
    ``real``: the file's text where ``text`` is it with its comments blanked (JSONC):
    an element starts at the comments before it."""
    real = text if real is None else real
    out: list[_Element] = []
    opening = text[start:start + 1]
    if opening not in ("{", "["):
        return out
    closing = "}" if opening == "{" else "]"
    i = _skip(text, start + 1)
    lo = _skip(real, start + 1)  # (i, but for comments before the element)
    n = 0
    while i < len(text) and text[i] != closing:
        if opening == "{":
            if text[i] != '"':
                break
            key, j = scanstring(text, i + 1)
            j = _skip(text, j)
            if text[j:j + 1] != ":":
                break
            value_start = _skip(text, j + 1)
            child = path + _key(key)
        else:
            value_start, child = i, f"{path}[{n}]"
        _, end = _DECODER.raw_decode(text, value_start)
        after = _skip(text, end)
        if text[after:after + 1] == ",":
            end = after + 1
            after = _skip(text, end)
        if real is not text:  # JSONC: a trailing comma (blanked in ``text``) and a comment
            if comma := _COMMA.match(real, end):  # on its line, after it: the element's
                end = comma.end()
            if note := _SAME_LINE_COMMENT.match(real, end):
                end = note.end()
        out.append(_Element(child, lo, end, value_start))
        n += 1
        i, lo = after, _skip(real, end)
    return out


#: members that name a record, best first (else its first short scalar member)
_NAMING_KEYS = ("name", "title", "id", "key", "slug", "label", "type")


def _label(text: str, members: list[_Element], path: str) -> str:
    """``name: ahash``: a record's member that names it (a record: an object that is
    an array's element), a string or number of at most 60 characters, by
    :data:`_NAMING_KEYS`, else its first such member; "" for an array or an object
    without one."""
    short: dict[str, str] = {}
    for m in members:
        raw = text[m.value_start:m.end].rstrip().rstrip(",").rstrip()
        if len(raw) > 62 or raw[:1] in ("{", "[") or raw in ("null", "true", "false"):
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, str) and not value.strip():
            continue
        key = m.path[len(path):].lstrip(".")
        if key.startswith("["):  # an array's element, or a quoted key
            if not key.startswith('["'):
                continue
            key = json.loads(key[1:-1])
        short.setdefault(key, " ".join(str(value).split()))
    for key in _NAMING_KEYS:
        if key in short:
            return f"{key}: {short[key]}"
    return next((f"{k}: {v}" for k, v in short.items()), "")


def root(text: str) -> _Element | None:
    start = _skip(text, 1 if text.startswith("\ufeff") else 0)  # (a byte-order mark: no JSON)
    if start >= len(text):
        return None
    try:
        _, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    return _Element("$", start, end, start)


def _under(path: str, outer: str) -> bool:
    """Whether JSON path ``path`` is ``outer`` or inside it (``$.a[1].b`` is under
    ``$.a[1]``; ``$.a[10]`` is not)."""
    return path == outer or (path.startswith(outer) and path[len(outer)] in ".[")


@register("json")
class JsonChunker(Chunker):
    """Whole JSON elements packed up to the size, the JSON path in context."""

    kind = "json"

    def split(self, doc: Document, index: DocumentIndex, span: Span) -> list[Piece]:
        text, shape = index.text, self._shape(index)
        fallback = Packer(index, _FALLBACK, self.config.budget)
        if doc.metadata.get("format") == "jsonl":
            return self._records(index, span, fallback)
        if doc.metadata.get("format") == "json-seq":
            return self._sequence(index, span, fallback)
        top = root(shape)
        if top is None:  # not JSON: lines
            return fallback.pack(span.lo, span.hi, span.context)
        # the smallest element that holds the span
        node = top
        while node.end - node.start > span.hi - span.lo:
            inner = [c for c in children(shape, node.value_start, node.path, text)
                     if c.start <= span.lo and span.hi <= c.end]
            if not inner:
                break
            node = inner[0]
        if span.lo <= node.start and node.end <= span.hi:
            pieces = self._value(index, node, span.context, fallback)
            around = [(span.lo, node.start), (node.end, span.hi)]
        else:
            units = [c for c in children(shape, node.value_start, node.path, text)
                     if c.end > span.lo and c.start < span.hi]
            pieces = self._units(index, units, node.path, span, fallback)
            around = [(span.lo, units[0].start), (units[-1].end, span.hi)] if units else \
                [(span.lo, span.hi)]
        for lo, hi in around:  # brackets and text around the elements (never lost)
            if hi > lo and text[lo:hi].strip():
                pieces.extend(fallback.pack(lo, hi, span.context))
        pieces.sort(key=lambda p: p.start)
        pieces = self._join_fragments(pieces, text)
        for p in pieces:
            p.kind = "json"
        return pieces

    #: a piece under this share of the limit is a fragment: a key whose value was cut
    #: (``"description":``), a record's tail (``"levels": [1, 2] },``), the object's
    #: opening line
    FRAGMENT_SHARE = 4

    def _join_fragments(self, pieces: list[Piece], text: str) -> list[Piece]:
        """Neighbouring pieces joined where one is a fragment and both fit the budget
        together, under the shallower of their JSON paths (the one whose path the
        other's starts with): no chunk of a key alone or of a record's last line."""
        small = max(self.config.min_size, self.limit // self.FRAGMENT_SHARE)
        out: list[Piece] = []
        for p in pieces:
            out.append(p)
            # a joined piece may join the one before it in turn (a record's last
            # member, then its closing bracket, then under the outer path both fit)
            while len(out) > 1 and (out[-2].token_count < small or out[-1].token_count < small):
                joined = self._joined(out[-2], out[-1], text)
                if joined is None:
                    break
                out[-2:] = [joined]
        return out

    def _joined(self, a: Piece, b: Piece, text: str) -> Piece | None:
        if a.end > b.start or text[a.end:b.start].strip():  # overlapping, or apart
            return None
        pa, pb = a.metadata.get("json_path"), b.metadata.get("json_path")
        if not isinstance(pa, str) or not isinstance(pb, str):
            return None
        if _under(pb, pa):
            outer = a
        elif _under(pa, pb):
            outer = b
        else:
            return None
        n = self._fits(outer.context, a.start, b.end, text)
        if n is None:
            return None
        return Piece(a.start, b.end, n, outer.context, kind="json",
                     metadata={"json_path": outer.metadata["json_path"],
                               "first": a.metadata.get("first", pa),
                               "last": b.metadata.get("last", pb)})

    def _fits(self, ctx: str, s: int, e: int, text: str) -> int | None:
        if e - s + len(ctx) > self.max_chars:
            return None
        n = self.tokenizer.count(ctx + text[s:e])
        return n if n <= self.limit else None

    def _ctx(self, inherited: str, path: str, labels: tuple[str, ...] = ()) -> str:
        """The JSON path in context, with the labels of the records it is inside
        (``$.components[0].hashes (name: ahash)``) where they fit, else the path alone."""
        for line in ((f"{path} ({'; '.join(labels)})",) if labels else ()) + (path,):
            ctx = inherited + line + "\n"
            if self.tokenizer.count(ctx) <= self.limit // 2 and len(ctx) <= self.max_chars // 2:
                return ctx
        return inherited

    def _value(self, index: DocumentIndex, el: _Element, inherited: str,
               fallback: Packer, labels: tuple[str, ...] = (),
               outer: int | None = None) -> list[Piece]:
        """One element: whole if it fits, else its members in runs (its opening and
        closing brackets joined to the first and last run where they fit); an object
        opened so names itself in its parts' context by a short member (``name: ...``).
        ``outer``: where its container's key and bracket start, when they open with it
        (``"ap-east-1": {`` over ``"enum": [``: the first run starts there too)."""
        text = index.text
        ctx = self._ctx(inherited, el.path, labels)
        start = el.start if outer is None else outer
        n = self._fits(ctx, start, el.end, text)
        if n is not None:
            return [Piece(start, el.end, n, ctx, kind="json", metadata={"json_path": el.path})]
        shape = self._shape(index)
        units = children(shape, el.value_start, el.path, text)
        own = _label(shape, units, el.path) if el.path.endswith("]") else ""
        if own:
            labels = (*labels, own)
            ctx = self._ctx(inherited, el.path, labels)
        if not units:  # a scalar too big: a very long string (with its key and the
            # brackets opening with it, not a chunk of those alone, where they fit)
            pieces = fallback.pack(start, el.end, ctx, first_floor=el.value_start)
            for p in pieces:
                p.metadata["json_path"] = el.path
            return pieces
        head, tail = (start, units[0].start), (units[-1].end, el.end)
        lead = head[0] if text[head[0]:head[1]].strip() else None  # the key, the bracket
        trail = tail[1] if text[tail[0]:tail[1]].strip() else None  # the closing bracket
        body = self._units(index, units, el.path, Span(el.start, el.end, inherited), fallback,
                           lead, trail, labels)
        out: list[Piece] = []
        if lead is not None and body[0].start != lead:  # no room for the key: on its own
            out.extend(self._tagged(fallback.pack(head[0], head[1], ctx), el.path))
        if trail is not None and body[-1].end != trail:
            body.extend(self._tagged(fallback.pack(tail[0], tail[1], ctx), el.path))
        return out + body

    @staticmethod
    def _shape(index: DocumentIndex) -> str:
        """The text elements are found in: the document's, or for JSONC, the same with
        its comments and trailing commas blanked (found once per document)."""
        if index.doc.metadata.get("format") != "jsonc":
            return index.text
        shape = index.memo.get("jsonc-shape")
        if shape is None:
            shape = index.memo["jsonc-shape"] = jsonc_masked(index.text)
        return str(shape)

    @staticmethod
    def _tagged(pieces: list[Piece], path: str) -> list[Piece]:
        for p in pieces:
            p.metadata["json_path"] = path
        return pieces

    def _units(self, index: DocumentIndex, units: list[_Element], path: str, span: Span,
               fallback: Packer, lead: int | None = None,
               trail: int | None = None, labels: tuple[str, ...] = ()) -> list[Piece]:
        """Runs of whole sibling elements packed up to the budget. ``lead``: where the
        first run starts if it has room (the container's key and opening bracket);
        ``trail``: where the last run ends if it has room (the closing bracket);
        ``labels``: of the records the elements are inside."""
        text = index.text
        ctx = self._ctx(span.context, path, labels)
        out: list[Piece] = []
        group: list[_Element] = []
        group_n = 0
        lead_open = lead is not None

        def start_of(first: _Element) -> int:
            return lead if lead_open and lead is not None else first.start

        def close() -> None:
            nonlocal group, group_n, lead_open
            if group:
                meta = {"json_path": path, "first": group[0].path, "last": group[-1].path}
                out.append(Piece(start_of(group[0]), group[-1].end, group_n, ctx, kind="json",
                                 metadata=meta))
                lead_open = False
            group, group_n = [], 0

        for el in units:
            first_open = lead_open and not group and not out  # the key may open with it
            lo, hi = max(el.start, span.lo), min(el.end, span.hi)
            if (lo, hi) != (el.start, el.end):  # clipped by the span: its part, by lines
                close()
                out.extend(self._tagged(fallback.pack(lo, hi, ctx), path))
                lead_open = False
                continue
            s = start_of(group[0] if group else el)
            n = self._fits(ctx, s, el.end, text)
            if n is not None:
                group.append(el)
                group_n = n
                continue
            if not group and lead_open:  # the key does not fit with its first element
                lead_open = False
                n = self._fits(ctx, el.start, el.end, text)
                if n is not None:
                    group, group_n = [el], n
                    continue
            close()
            n = self._fits(ctx, el.start, el.end, text)
            if n is not None:
                group, group_n = [el], n
                continue
            out.extend(self._value(index, el, span.context, fallback, labels,
                                   lead if first_open else None))
            lead_open = False
        if group and trail is not None:  # the closing bracket joins the last run
            n = self._fits(ctx, start_of(group[0]), trail, text)
            if n is None and len(group) > 1:  # or the last element and the bracket alone
                last = group.pop()
                n_last = self._fits(ctx, last.start, trail, text)
                if n_last is not None:
                    group_n = self._fits(ctx, start_of(group[0]), group[-1].end, text) or group_n
                    close()
                    out.append(Piece(last.start, trail, n_last, ctx, kind="json",
                                     metadata={"json_path": path, "first": last.path,
                                               "last": last.path}))
                    return out
                group.append(last)
            if n is not None:
                close()
                out[-1] = Piece(out[-1].start, trail, n, ctx, kind="json",
                                metadata=out[-1].metadata)
                return out
        close()
        if trail is not None and out and out[-1].end == units[-1].end:  # after an opened one
            last_piece = out[-1]
            n = self._fits(last_piece.context, last_piece.start, trail, text)
            if n is not None:
                out[-1] = Piece(last_piece.start, trail, n, last_piece.context, kind="json",
                                metadata=last_piece.metadata)
        return out

    def _sequence(self, index: DocumentIndex, span: Span, fallback: Packer) -> list[Piece]:
        """JSON values one after another: each a record (``$[n]``), as a JSON Lines
        file's lines are, however many lines it takes."""
        text = index.text
        units: list[_Element] = []
        pos = _skip(text, 1 if text.startswith("\ufeff") else 0)
        n = 0
        while pos < len(text):
            _, end = _DECODER.raw_decode(text, pos)
            if pos >= span.lo and end <= span.hi:
                units.append(_Element(f"$[{n}]", pos, end, pos))
            n += 1
            pos = _skip(text, end)
        pieces = self._units(index, units, "$", span, fallback) if units else \
            fallback.pack(span.lo, span.hi, span.context)
        for p in pieces:
            p.kind = "json"
        return pieces

    def _records(self, index: DocumentIndex, span: Span, fallback: Packer) -> list[Piece]:
        """JSON Lines: whole records packed up to the budget, a record too big opened."""
        text = index.text
        units: list[_Element] = []
        pos = 0
        for n, line in enumerate(text.splitlines(keepends=True)):
            body = line.rstrip("\r\n")
            s = pos + len(body) - len(body.lstrip().lstrip("\ufeff").lstrip())  # (a BOM: none)
            e = pos + len(body.rstrip())
            if e > s and s >= span.lo and e <= span.hi:
                units.append(_Element(f"$[{n}]", s, e, s))
            pos += len(line)
        pieces = self._units(index, units, "$", span, fallback) if units else \
            fallback.pack(span.lo, span.hi, span.context)
        for p in pieces:
            p.kind = "json"
        return pieces
