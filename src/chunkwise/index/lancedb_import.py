"""``import lancedb`` in about half the time, and started early.

Every ``index`` and ``search`` of a LanceDB index imports ``lancedb``; a re-run after a
one-file edit spends most of its time there. What that import does but an embedded
index never uses, measured here (``python -X importtime``, Python 3.11):

- the generated REST client of Lance namespaces: its package ``__init__`` imports
  every API class, hundreds of methods each wrapped in pydantic's ``validate_call``
  (~0.7 s): the package is put in ``sys.modules`` unrun until a name is read from it;
- pandas (~0.25 s), imported by ``pyarrow.dataset`` only because building the scalar
  ``True`` asks pyarrow's pandas shim whether it is a pandas object: the shim is told
  "no pandas" for that one import, and asked again once anyone imports pandas (a
  finder runs that once pandas' module has loaded), so a DataFrame made later is
  converted as before;
- ``overrides.override`` (~0.1 s), which lancedb uses before Python 3.12 and which
  disassembles the calling frame to check each method's signature: for that import
  it only marks the method, as ``typing.override``, which lancedb uses from 3.12, does;
- the pydantic schemas of lancedb's and the namespace client's models (~0.1 s): built
  when a model is first used rather than when its class is made (pydantic's
  ``defer_build``, for the classes made during the import only: a user's subclass of
  lancedb's ``LanceModel`` is built as usual).

Each of these is undone once the import ends, is skipped when the package is not
there or is laid out otherwise, and falls back to the plain import.
:func:`prefetch` starts the import on a thread while the command does other work
(parses its options, loads the model, walks the files).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

#: the generated REST client of Lance namespaces, imported by ``lancedb`` on import
#: (``lance_namespace``) though an embedded index never calls it
_REST_CLIENT = "lance_namespace_urllib3_client"

_LOCK = threading.Lock()


def import_lancedb() -> Any:
    """``lancedb``, imported the quick way the first time (one thread at a time: a
    second caller waits for the first's import)."""
    with _LOCK:
        if "lancedb" not in sys.modules:
            _quick_import()
    import lancedb

    return lancedb


def prefetch() -> None:
    """Start importing ``lancedb`` on a daemon thread (nothing if it is imported or
    under way); whoever needs it then waits only for the rest of the import. An error
    is left for that caller's own import to raise."""
    if "lancedb" in sys.modules or _LOCK.locked():
        return

    def run() -> None:
        with suppress(Exception):
            import_lancedb()

    threading.Thread(target=run, name="chunkwise-import-lancedb", daemon=True).start()


def _quick_import() -> None:
    if _REST_CLIENT not in sys.modules:
        try:
            _defer_package_init(_REST_CLIENT)
        except Exception:  # pragma: no cover - another layout of the package
            sys.modules.pop(_REST_CLIENT, None)
    if "pyarrow.dataset" not in sys.modules and "pandas" not in sys.modules:
        with suppress(ImportError), _pandas_hidden():
            import pyarrow.dataset  # noqa: F401
    with _plain_override(), _pydantic_deferred():
        import lancedb  # noqa: F401


def _defer_package_init(name: str) -> None:
    """Put package ``name`` in ``sys.modules`` with its path set, so its submodules load
    as usual; the first name read from the package itself runs its ``__init__`` then,
    whole."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    module = importlib.util.module_from_spec(spec)
    loader = spec.loader
    lock = threading.Lock()

    def __getattr__(attr: str) -> Any:
        with lock:
            if "__getattr__" in module.__dict__:
                del module.__dict__["__getattr__"]
                try:
                    loader.exec_module(module)
                except BaseException:
                    sys.modules.pop(name, None)
                    raise
        try:
            return module.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    module.__dict__["__getattr__"] = __getattr__
    sys.modules[name] = module


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


@contextmanager
def _plain_override() -> Iterator[None]:
    """``overrides.override`` only marking the method (what ``typing.override`` does)."""
    try:
        import overrides
    except ImportError:
        yield
        return
    checked = overrides.override

    def override(method: Any = None, **_: Any) -> Any:
        if method is None:
            return override
        with suppress(AttributeError, TypeError):
            method.__override__ = True
        return method

    overrides.override = override
    try:
        yield
    finally:
        overrides.override = checked


@contextmanager
def _pydantic_deferred() -> Iterator[None]:
    """Models made meanwhile build their schema on first use (pydantic's
    ``defer_build``)."""
    try:
        from pydantic import BaseModel
    except ImportError:
        yield
        return
    config: Any = BaseModel.model_config
    before = dict(config)
    known = _models(BaseModel)
    config["defer_build"] = True
    try:
        yield
    finally:
        config.clear()
        config.update(before)
        for model in _models(BaseModel) - known:  # made meanwhile: lancedb's LanceModel,
            model.model_config.pop("defer_build", None)  # which users subclass, among them


def _models(base: Any) -> set[Any]:
    """Every subclass of ``base``, at any depth."""
    found: set[Any] = set()
    todo = [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found
