"""``get_chunker``: a strategy by name, with its options, contextualized on request.

It sits above the strategies and the contextualizer so that neither needs the other:
a contextualized chunker is the named strategy built with a budget less the LLM's
reservation, wrapped by :class:`~chunkwise.contextual.ContextualChunker`.
"""

from __future__ import annotations

from typing import Any

from .contextual import CONTEXT_SETTINGS, contextualized
from .errors import ConfigError
from .strategies import STRATEGIES, Chunker


def get_chunker(strategy: str | Chunker = "auto", **options: Any) -> Chunker:
    """A strategy by name (or the given Chunker, which takes no options)."""
    if isinstance(strategy, Chunker):
        if options:
            raise ConfigError("options are given to a strategy's constructor, not with an "
                              f"instance (got {', '.join(sorted(options))})")
        return strategy
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise ConfigError(f"unknown strategy {strategy!r} "
                          f"(expected one of {', '.join(STRATEGIES.names())})")
    cls = STRATEGIES[strategy]
    if options.get("contextualize") is not None:
        settings = {k: options.pop(k) for k in CONTEXT_SETTINGS if k in options}
        return contextualized(lambda **inner: _build(strategy, cls, inner), options, settings)
    options.pop("contextualize", None)
    return _build(strategy, cls, options)


def _build(name: str, cls: type[Chunker], options: dict[str, Any]) -> Chunker:
    try:
        return cls(**options)
    except TypeError as exc:  # e.g. a positional misuse inside a plug-in's constructor
        raise ConfigError(f"strategy {name!r}: {exc}") from None
