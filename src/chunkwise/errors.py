"""Every error and warning chunkwise raises to its users, grouped by cause.

Each message is complete and user-facing (the command line prints it as one line,
never a traceback). Lower-level exceptions (a parser's, an SDK's, a database
driver's) are translated into these at the border where they occur::

    ChunkwiseError
    ├── ConfigError          an option or a combination of options is invalid (a ValueError)
    │   └── MissingExtraError    an optional dependency is not installed
    ├── InputError           a source cannot be read: missing, binary, undecodable, corrupt
    ├── OutputError          an output cannot be written, or would overwrite an input
    ├── IndexBusyError       another run is writing the index (and waiting was declined)
    └── ServiceError         a service failed: an LLM provider, an embedding server, a store
        ├── LLMError
        └── EmbedderError

Warnings: :class:`SkippedInputWarning`, :class:`UnstableIdWarning`,
:class:`ExtractionWarning`.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def one_line(name: str) -> str:
    """A file's name as one line of output: a line break, tab or other control
    character in it escaped (``new\\nline.md``)."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], name)


#: how ctypes words an exception raised while it converted a call's argument
_WRAPPED = re.compile(r"argument \d+: (\w+): ")


def reraise_interrupt(exc: BaseException) -> None:
    """Raise again an interruption that ctypes wrapped, else nothing. ctypes turns an
    exception raised while it converts a call's argument into ``ArgumentError("argument
    1: KeyboardInterrupt: ")``, an ``Exception``; pypdfium2 hands pdfium each handle
    through a Python property, so a Ctrl-C landing there while a PDF was read came out
    as an error a best-effort handler swallowed, and ``index`` ran on to its end (rc 0,
    70 s after the Ctrl-C). Every handler around pdfium calls passes its exception here
    first. The interruption's own class is raised (a subclass of ``KeyboardInterrupt``,
    such as the command line's SIGTERM, by its name)."""
    if type(exc).__name__ != "ArgumentError" or type(exc).__module__ != "ctypes":
        return
    m = _WRAPPED.match(str(exc))
    if m is None:
        return
    kinds = [KeyboardInterrupt, SystemExit]
    for kind in kinds:  # (and their subclasses, as found)
        if kind.__name__ == m.group(1):
            raise kind() from None
        kinds.extend(kind.__subclasses__())


class ChunkwiseError(Exception):
    """Base class: the message is complete and user-facing."""


class ConfigError(ChunkwiseError, ValueError):
    """An option is invalid (size < 1, overlap >= size, unknown strategy ...)."""


class MissingExtraError(ConfigError):
    """An optional dependency is not installed; the message names the ``pip install``."""

    def __init__(self, what: str, package: str | None, extra: str | None):
        self.what, self.package, self.extra = what, package, extra
        how = f"pip install 'chunkwise[{extra}]'" if extra else f"pip install {package}"
        super().__init__(f"{what} needs {package}: {how}")

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str | None, str | None]]:
        return (type(self), (self.what, self.package, self.extra))


class InputError(ChunkwiseError):
    """A source cannot be read: missing, binary, undecodable, corrupt."""

    def __init__(self, source: str, problem: str):
        self.source = source
        self.problem = problem
        # (the name on one line, as the command line prints it; ``source`` keeps it as is)
        super().__init__(f"{one_line(source)}: {problem}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        return (type(self), (self.source, self.problem))  # picklable (worker processes)


class OutputError(ChunkwiseError):
    """An output cannot be written (missing folder, a directory, no space ...)."""


class IndexBusyError(ChunkwiseError):
    """Another run holds the index's writer lock, and this one was told not to wait."""


class StoreError(ChunkwiseError):
    """An index's store failed on its own files (a data file deleted or truncated, a
    folder that cannot be written): the message names the index and what failed."""

    def __init__(self, uri: str, problem: str):
        self.uri, self.problem = uri, problem
        super().__init__(f"index {uri}: {problem} (chunkwise index --check --db {uri} says "
                         "what is wrong; --check --repair mends it)")

    def __reduce__(self) -> tuple[type[StoreError], tuple[str, str]]:
        return (type(self), (self.uri, self.problem))


class ServiceError(ChunkwiseError):
    """A service chunkwise calls failed for good (after its retries): an LLM provider,
    an embedding server, a vector store's server."""


class LLMError(ServiceError):
    """A provider refused a request for good (after retries): bad key, bad model, 5xx..."""


class EmbedderError(ServiceError):
    """An embedding model cannot be loaded, or an embedding server failed."""


class SkippedInputWarning(UserWarning):
    """A document was skipped (``on_error="skip"``); the message names it and why."""


class UnstableIdWarning(UserWarning):
    """Chunk ids cannot survive an edit: a text was given without a ``doc_id``."""


class PluginWarning(UserWarning):
    """A plug-in's entry point cannot be loaded: it is left out (the message says why)."""


class ExtractionWarning(UserWarning):
    """An HTML page kept little of its text as main content (the message names it)."""
