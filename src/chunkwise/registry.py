"""One registry type for every extension point: strategies, readers, stores, LLM
providers, embedders and tokenizers (and runners).

A registry maps names to objects of one kind. Built-ins register themselves the way a
third-party package does: through an entry-point group in ``pyproject.toml``
(``chunkwise.strategies``, ``chunkwise.readers``, ``chunkwise.stores``,
``chunkwise.llms``, ``chunkwise.embedders``, ``chunkwise.tokenizers``,
``chunkwise.runners``), loaded the first time a name is looked up; or in code with
:meth:`Registry.register`. So the module that looks a name up imports none of the
implementations, and adding one never means editing a chain of ``if``\\ s.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from .errors import ConfigError, PluginWarning

T = TypeVar("T")

#: every installed package's entry points by group, read once for all registries (a
#: read looks at every installed package's metadata: ~5 ms each, one per registry
#: before), again only when ``sys.path`` has changed since
_SCANNED: tuple[tuple[str, ...], dict[str, list[EntryPoint]]] | None = None


def _group_entry_points(group: str) -> list[EntryPoint]:
    global _SCANNED
    path = tuple(sys.path)
    scanned = _SCANNED
    if scanned is None or scanned[0] != path:
        found = entry_points()
        by_group = {name: list(found.select(group=name)) for name in found.groups}
        scanned = _SCANNED = (path, by_group)
    return scanned[1].get(group, [])


class Registry(Mapping[str, T], Generic[T]):
    """Names to objects of one kind (``what`` names the kind in errors), extended
    by ``@registry.register(name)`` and by the entry-point group ``group``."""

    def __init__(self, group: str, what: str, check: Callable[[object], bool] | None = None):
        self.group = group
        self.what = what
        self._check = check
        self._items: dict[str, T] = {}
        self._pending: dict[str, EntryPoint] | None = None
        self._broken: dict[str, str] = {}  # name -> why its entry point did not load

    def register(self, name: str) -> Callable[[T], T]:
        """A decorator that registers its object under ``name``."""
        def decorate(obj: T) -> T:
            self.add(name, obj)
            return obj
        return decorate

    def add(self, name: str, obj: T) -> None:
        if self._check is not None and not self._check(obj):
            raise TypeError(f"{obj!r} cannot be registered as a {self.what}")
        if name in self._items and self._items[name] is not obj:
            raise ConfigError(f"{self.what} {name!r} is already registered")
        self._items[name] = obj

    def unregister(self, name: str) -> None:
        """Forget ``name`` (a plug-in's test cleaning up after itself)."""
        self._items.pop(name, None)
        self._entry_points().pop(name, None)

    def _entry_points(self) -> dict[str, EntryPoint]:
        if self._pending is None:
            self._pending = {}
            for ep in _group_entry_points(self.group):
                self._pending.setdefault(ep.name, ep)
        return self._pending

    def _load(self, name: str) -> None:
        if name in self._broken:
            raise ConfigError(self._broken[name])
        ep = self._entry_points().pop(name, None)
        if ep is None or name in self._items:
            return
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not break the built-ins
            why = self._broken[name] = (f"{self.what} {name!r} from {ep.value} cannot be "
                                        f"loaded ({type(exc).__name__}: {exc})")
            raise ConfigError(why) from None
        if name not in self._items:  # loading the module may have registered it already
            self.add(name, obj)

    def __getitem__(self, name: str) -> T:
        if name not in self._items:
            self._load(name)
        return self._items[name]

    def get_or_error(self, name: str) -> T:
        """The object named ``name``, or a :class:`ConfigError` listing the names."""
        if name not in self:
            raise ConfigError(f"unknown {self.what} {name!r} "
                              f"(expected one of {', '.join(self.names())})")
        return self[name]

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name not in self._items:
            self._load(name)
        return name in self._items

    def _load_all(self) -> None:
        """Every entry point loaded; one that fails is left out of the listing (a
        warning says why) and is an error only where its name is asked for."""
        for name in list(self._entry_points()):
            try:
                self._load(name)
            except ConfigError as exc:
                warnings.warn(f"{exc}: left out", PluginWarning, stacklevel=3)

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return iter(list(self._items))

    def __len__(self) -> int:
        self._load_all()
        return len(self._items)

    def names(self) -> list[str]:
        return sorted(self)

    def declared(self) -> list[str]:
        """Every name registered or offered by an entry point, without loading any."""
        return sorted({*self._items, *self._entry_points()})


#: where documents are read and chunked, by name: ``local`` (this process, or a pool of
#: processes) and ``ray``; each is called as ``run(chunker, source, **options)`` and
#: yields ``(document, chunks)``
RUNNERS: Registry[Callable[..., Iterator[tuple[Any, list[Any]]]]] = Registry(
    "chunkwise.runners", "runner", callable)
