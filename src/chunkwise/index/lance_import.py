"""``import lance`` without pandas, and started early.

Every ``index`` and ``search`` of a LanceDB index reads and writes its tables with
Lance's own Python package (``pylance``: ``lance.dataset``, merge-insert, delete,
nearest-neighbour scans), the format LanceDB keeps its tables in; LanceDB's Python
layer (its client, the REST client of Lance namespaces it imports, pydantic models,
an event loop) is not imported at all. A re-run after a one-file edit spends most of
its time importing, and this import is about a fifth of ``import lancedb``'s.

What is left out of it: pandas (~0.25 s), imported by ``pyarrow.dataset`` only
because building the scalar ``True`` asks pyarrow's pandas shim whether it is a
pandas object. The shim is told "no pandas" for that one import, and asked again
once anyone imports pandas (a finder runs that once pandas' module has loaded), so a
DataFrame made later is converted as before. :func:`prefetch` starts the import on a
thread while the command does other work (parses its options, loads the model,
walks the files).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

_LOCK = threading.Lock()


def import_lance() -> Any:
    """``lance``, imported without pandas the first time (one thread at a time: a
    second caller waits for the first's import)."""
    with _LOCK:
        if "lance" not in sys.modules and "pyarrow.dataset" not in sys.modules \
                and "pandas" not in sys.modules:
            with suppress(ImportError), _pandas_hidden():
                import pyarrow.dataset  # noqa: F401
        import lance
    return lance


def prefetch() -> None:
    """Start importing ``lance`` on a daemon thread (nothing if it is imported or under
    way); whoever needs it then waits only for the rest of the import. An error is left
    for that caller's own import to raise."""
    if "lance" in sys.modules or _LOCK.locked():
        return

    def run() -> None:
        with suppress(Exception):
            import_lance()

    threading.Thread(target=run, name="chunkwise-import-lance", daemon=True).start()


class _NoPandas:
    """A finder that fails ``import pandas`` on one thread (the importing one)."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.partition(".")[0] == "pandas" and threading.get_ident() == self.thread:
            raise ImportError("pandas is not imported here", name=name)
        return None


class _WhenPandasLoads:
    """A finder that, once ``pandas`` itself has loaded (imported by anyone), asks
    pyarrow's pandas shim again, which then finds it; then it leaves the finders. (A
    look for pandas that does not load it, ``importlib.util.find_spec``, changes
    nothing.)"""

    def __init__(self) -> None:
        self.looking = threading.local()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "pandas" or getattr(self.looking, "now", False):
            return None
        self.looking.now = True
        try:  # the spec the other finders give
            spec = importlib.util.find_spec(name)
        finally:
            self.looking.now = False
        loader = getattr(spec, "loader", None)
        run = getattr(loader, "exec_module", None)
        if run is None or not hasattr(loader, "__dict__"):
            return spec

        def exec_module(module: Any) -> None:
            try:
                run(module)
            finally:
                loader.__dict__.pop("exec_module", None)
            with suppress(ValueError):
                sys.meta_path.remove(self)
            _shim_sees_pandas()

        loader.__dict__["exec_module"] = exec_module
        return spec


def _shim_sees_pandas() -> None:
    with suppress(Exception):
        import pyarrow

        pyarrow.lib._pandas_api.pd  # noqa: B018 - the shim imports it now, and says so


@contextmanager
def _pandas_hidden() -> Iterator[None]:
    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        yield
    finally:
        sys.meta_path.remove(blocker)
        if "pandas" in sys.modules:  # another thread imported it meanwhile
            _shim_sees_pandas()
        else:
            sys.meta_path.insert(0, _WhenPandasLoads())
