"""Errors that chunkwise reports to users as one clear line (never a traceback)."""

from __future__ import annotations


class ChunkwiseError(Exception):
    """Base class: the message is complete and user-facing."""


class ConfigError(ChunkwiseError, ValueError):
    """An option is invalid (size < 1, overlap >= size, unknown strategy ...)."""


class InputError(ChunkwiseError):
    """A source cannot be read: missing, binary, undecodable, corrupt."""

    def __init__(self, source: str, problem: str):
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        return (type(self), (self.source, self.problem))  # picklable (worker processes)
