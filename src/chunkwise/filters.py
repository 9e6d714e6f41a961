"""Filters on an index's chunks, one definition for ``search``, ``serve``, ``mcp`` and
Python: by path, kind, strategy, page range and document metadata.

A filter is exact: :meth:`Filter.matches` decides for each row. A store narrows its
own search with the parts it can test itself (:mod:`chunkwise.index` stores: LanceDB
``where`` expressions, Qdrant payload conditions, SQL with bound parameters), a
superset of what matches; the rest is checked row by row on what it returns.

The written form (a JSON object, or keyword arguments)::

    {"path": "fastapi/tutorial/",        # a prefix or a glob of doc_id; a list: any
     "kind": ["table", "code"],          # one kind or a list: any
     "strategy": "section",              # the strategy that cut the chunk
     "page": [3, 7],                     # a page (3) or an inclusive range
     "metadata": {"team": "docs"}}       # document metadata (--metadata at index time)

Paths name documents as the index does (``doc_id``: relative to the index's root,
``/`` between folders). A path without ``*``, ``?``, ``[`` or ``{`` is a prefix by whole
names: ``fastapi/tutorial`` is that folder or that file, not ``fastapi/tutorial-2.md``.
A glob matches the whole name: ``*`` and ``?`` stay inside one folder, ``**`` crosses
folders, ``{a,b}`` is either. A metadata key is looked up in the document's metadata
(the chunk's ``metadata["doc"]``), then in the chunk's own; its value matches when
equal as text (``3`` matches ``"3"``), or when it is a list holding the value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError

#: the keys of a filter's written form
FILTER_KEYS = ("path", "kind", "strategy", "page", "metadata")
_GLOB = frozenset("*?[{")


def is_glob(path: str) -> bool:
    return any(c in _GLOB for c in path)


def literal_prefix(pattern: str) -> str:
    """The part of a glob before its first wildcard (every name it matches starts so)."""
    for i, c in enumerate(pattern):
        if c in _GLOB or c == "\\":
            return pattern[:i]
    return pattern


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) and v for v in items):
        raise ConfigError(f"filter {what}: expected a name or a list of names, got {value!r}")
    return tuple(items)


def _pages(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, str):
        first, sep, last = value.partition("-")
        try:
            value = [int(first), int(last)] if sep else int(first)
        except ValueError:
            raise ConfigError(f"filter page: expected N or FIRST-LAST, got {value!r}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value, value]
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ConfigError(f"filter page: expected a page or [first, last], got {value!r}")
    first, last = value
    if first < 1 or last < first:
        raise ConfigError(f"filter page: expected 1 <= first <= last, got {first}-{last}")
    return first, last


def _metadata(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise ConfigError(f"filter metadata: expected an object of key: value, got {value!r}")
    out = []
    for key, wanted in value.items():
        if not isinstance(key, str) or not key:
            raise ConfigError(f"filter metadata: a key must be a non-empty name, got {key!r}")
        values = wanted if isinstance(wanted, (list, tuple)) else [wanted]
        if not values or any(isinstance(v, (dict, list, tuple)) for v in values):
            raise ConfigError(f"filter metadata {key}: expected a value or a list of values, "
                              f"got {wanted!r}")
        out.append((key, tuple(_as_text(v) for v in values)))
    return tuple(out)


def _as_text(value: Any) -> str:
    """A metadata value as the text a filter compares (True and 'true' alike)."""
    if isinstance(value, str):
        return value
    return json.dumps(value)


@dataclass(frozen=True)
class Filter:
    """Which chunks a search may return (every part given must hold; a list inside a
    part: any of it). Build one with :meth:`of` from the written form."""

    path: tuple[str, ...] = ()
    kind: tuple[str, ...] = ()
    strategy: tuple[str, ...] = ()
    page: tuple[int, int] | None = None
    metadata: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def of(cls, value: Filter | Mapping[str, Any] | None = None, **parts: Any) -> Filter | None:
        """A filter from its written form (a mapping, keyword arguments, or a Filter);
        None when it asks for nothing."""
        if isinstance(value, Filter):
            return value if value else None
        given = dict(value or {})
        if not isinstance(value, (Mapping, type(None))):
            raise ConfigError(f"a filter is an object of {', '.join(FILTER_KEYS)}, got {value!r}")
        given.update({k: v for k, v in parts.items() if v is not None})
        unknown = sorted(set(given) - set(FILTER_KEYS))
        if unknown:
            raise ConfigError(f"unknown filter key {unknown[0]!r} (expected "
                              f"{', '.join(FILTER_KEYS)})")
        paths = tuple(_check_glob(_normal_path(p)) for p in _strings(given.get("path"), "path"))
        made = cls(path=paths, kind=_strings(given.get("kind"), "kind"),
                   strategy=_strings(given.get("strategy"), "strategy"),
                   page=_pages(given.get("page")), metadata=_metadata(given.get("metadata")))
        return made if made else None

    def __bool__(self) -> bool:
        return bool(self.path or self.kind or self.strategy or self.page or self.metadata)

    def to_dict(self) -> dict[str, Any]:
        """The written form (what :meth:`of` reads back to an equal filter)."""
        out: dict[str, Any] = {}
        if self.path:
            out["path"] = list(self.path)
        if self.kind:
            out["kind"] = list(self.kind)
        if self.strategy:
            out["strategy"] = list(self.strategy)
        if self.page:
            out["page"] = list(self.page)
        if self.metadata:
            out["metadata"] = {k: list(v) if len(v) > 1 else v[0] for k, v in self.metadata}
        return out

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Plain path prefixes (a name equal to one, or under it as a folder)."""
        return tuple(p for p in self.path if not is_glob(p))

    @property
    def globs(self) -> tuple[str, ...]:
        return tuple(p for p in self.path if is_glob(p))

    def matches(self, row: Mapping[str, Any]) -> bool:
        """Whether a row of the index (or a chunk's ``to_dict()``) passes."""
        if self.path and not self._path_matches(str(row.get("doc_id", ""))):
            return False
        if self.kind and row.get("kind") not in self.kind:
            return False
        if self.page:
            page = row.get("page")
            if not isinstance(page, int) or not self.page[0] <= page <= self.page[1]:
                return False
        if not (self.strategy or self.metadata):
            return True
        meta = row.get("metadata") or {}
        if isinstance(meta, str):
            meta = json.loads(meta)
        if self.strategy and meta.get("strategy") not in self.strategy:
            return False
        return all(_meta_matches(meta, key, values) for key, values in self.metadata)

    def _path_matches(self, doc_id: str) -> bool:
        if any(doc_id == p or doc_id.startswith(p if p.endswith("/") else p + "/")
               for p in self.prefixes):
            return True
        from wcmatch import glob

        return any(glob.globmatch(doc_id, g, flags=_flags()) for g in self.globs)


def _flags() -> int:
    from wcmatch import glob

    return int(glob.GLOBSTAR | glob.BRACE | glob.DOTMATCH)


def _check_glob(pattern: str) -> str:
    """A glob checked once, at the border (a malformed one is a ConfigError here, not an
    exception per row later)."""
    if not is_glob(pattern):
        return pattern
    from wcmatch import glob

    try:
        glob.globmatch("", pattern, flags=_flags())
    except Exception as exc:  # wcmatch raises ValueError and its own errors
        raise ConfigError(f"filter path: bad glob {pattern!r}: {exc}") from None
    return pattern


def _normal_path(path: str) -> str:
    path = path.replace("\\", "/") if "\\" in path and not is_glob(path) else path
    while path.startswith("./"):
        path = path[2:]
    if not path or path == ".":
        raise ConfigError("filter path: empty (give a folder, a file or a glob)")
    return path


def _meta_matches(meta: Mapping[str, Any], key: str, values: Sequence[str]) -> bool:
    doc = meta.get("doc")
    found: Any = None
    if isinstance(doc, Mapping) and key in doc:
        found = doc[key]
    elif key in meta:
        found = meta[key]
    else:
        return False
    if isinstance(found, list):
        return any(_as_text(item) in values for item in found)
    return _as_text(found) in values


@dataclass(frozen=True)
class Pushdown:
    """What a store can test itself, a superset of a filter (each store translates it to
    its own query, values bound, never written into query text): ``doc_id`` equal to
    one of ``doc_ids`` or starting with one of ``doc_prefixes`` (both empty, with
    ``any_doc``: not narrowed), ``kind`` one of ``kinds``, ``page`` within ``page``,
    and for each group of ``contains`` the row's metadata JSON text containing one of
    the group's strings."""

    doc_ids: tuple[str, ...] = ()
    doc_prefixes: tuple[str, ...] = ()
    any_doc: bool = True
    kinds: tuple[str, ...] = ()
    page: tuple[int, int] | None = None
    contains: tuple[tuple[str, ...], ...] = ()


def pushdown(where: Filter) -> Pushdown:
    """The store-side part of ``where``: every row ``where`` matches passes it."""
    ids: list[str] = []
    prefixes: list[str] = []
    any_doc = not where.path
    for p in where.prefixes:
        if p.endswith("/"):
            prefixes.append(p)
        else:
            ids.append(p)
            prefixes.append(p + "/")
    for g in where.globs:
        head = literal_prefix(g)
        if not head:
            any_doc = True
        else:
            prefixes.append(head)
    if any_doc:
        ids, prefixes = [], []
    contains = [tuple('"strategy": ' + json.dumps(s, ensure_ascii=False) for s in where.strategy)
                ] if where.strategy else []
    contains += [(json_key(key),) for key, _ in where.metadata]
    return Pushdown(doc_ids=tuple(ids), doc_prefixes=tuple(prefixes), any_doc=any_doc,
                    kinds=where.kind, page=where.page, contains=tuple(contains))


def prefix_range(prefix: str) -> tuple[str, str] | None:
    """``(low, high)``: every string that starts with ``prefix`` sorts in
    ``low <= s < high`` (code-point order, which is also UTF-8 byte order); None when
    no bound exists (a prefix of only the last code point)."""
    chars = list(prefix)
    while chars:
        last = ord(chars.pop())
        if last < 0x10FFFF:
            nxt = last + 1
            if 0xD800 <= nxt <= 0xDFFF:
                nxt = 0xE000
            return prefix, "".join(chars) + chr(nxt)
    return None


def json_key(key: str) -> str:
    """How a metadata key is written in a stored row's JSON (``"key": ``): a row holding
    the key contains this text."""
    return json.dumps(key, ensure_ascii=False) + ": "


__all__ = ["FILTER_KEYS", "Filter", "Pushdown", "is_glob", "json_key", "literal_prefix",
           "prefix_range", "pushdown"]
