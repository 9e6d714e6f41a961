"""The options every strategy shares, validated once (after text-splitter's ChunkConfig).

A strategy's own options (separators, embedder, sizes of a hierarchy, ...) live on
that strategy; this holds only what the packing engine needs: the tokenizer,
the target size, the overlap, the hard token limit and the character cap.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ConfigError
from .tokens import TokenCounter, get_tokenizer
from .types import TokenizerSpec

#: chosen by measurement (benchmarks/defaults_grid.py): with auto and hybrid retrieval
#: the best recall on both evaluation sets that keeps Chroma's IoU at 7 or more
DEFAULT_SIZE = 160
#: Default character cap, as a multiple of the token limit. Ordinary text runs at
#: 4-6 characters a MiniLM token, so this never binds there; it bounds the text a
#: single ``[UNK]`` token can stand for (a 5 MB line without spaces).
CHARS_PER_TOKEN_CAP = 16
#: the default smallest chunk: this fraction of the token limit (10 tokens at 160). A
#: sixteenth, not an eighth: at an eighth (20) Chroma's MRR rose 1.2 but the structured
#: set lost 0.4 recall; a sixteenth left both within 0.1 and ends the tails of a few
#: tokens (a lone "-->", "}", "///")
MIN_TOKENS_FRACTION = 16


def check_int(name: str, value: Any, minimum: int) -> int:
    """An integer option at least ``minimum``, or a ConfigError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def check_seconds(name: str, value: Any) -> float:
    """A positive, finite number of seconds, or a ConfigError naming the option."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ConfigError(f"{name} must be a number of seconds, got {value!r}")
    if not 0 < float(value) < float("inf"):
        raise ConfigError(f"{name} must be a positive number of seconds, got {value}")
    return float(value)


def resolve_overlap(overlap: Any, size: int) -> int:
    """Overlap in tokens from an int, or a float fraction of size in [0, 1).

    A float is always a fraction: ``1.0`` (all of the size) is an error, not one
    token; whole token counts are given as ints."""
    if overlap is None:
        return 0
    if isinstance(overlap, bool):
        raise ConfigError(f"overlap must be a token count or a fraction, got {overlap!r}")
    if isinstance(overlap, (float, np.floating)):
        overlap = float(overlap)
        if math.isnan(overlap) or not 0.0 <= overlap < 1.0:
            raise ConfigError(
                f"overlap as a float is a fraction of size in [0, 1), got {overlap} "
                "(give a token count as an integer)")
        tokens = int(round(overlap * size))
    else:
        tokens = check_int("overlap", overlap, 0)
    if tokens >= size:
        raise ConfigError(f"overlap ({tokens} tokens) must be smaller than size ({size})")
    return tokens


@dataclass(frozen=True, slots=True)
class Budget:
    """What every piece the engine packs must fit: at most ``limit`` tokens of context +
    text and ``max_chars`` characters (None: no cap); ``overlap`` tokens carried back
    from the previous piece, inside the limit; no piece under ``min_size`` tokens but a
    span's last. Made once from the :class:`ChunkConfig` (``config.budget``) and handed
    down; a strategy derives its own from it (``reserve``, ``replace``)."""

    limit: int
    overlap: int = 0
    max_chars: int | None = None
    min_size: int = 0

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise ConfigError(f"token limit must be at least 1, got {self.limit}")

    def reserve(self, tokens: int) -> Budget:
        """The same budget with ``tokens`` of its limit set aside (for context added
        after packing: resolved references, an LLM's sentence)."""
        return dataclasses.replace(self, limit=self.limit - tokens)

    def replace(self, **changes: Any) -> Budget:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    """Validated common options. Build with :meth:`create`.

    ``limit`` (``min(size, max_tokens)``) is the hard budget on ``context + text``
    of every chunk; ``max_chars`` bounds its characters too; ``overlap`` is in
    tokens and counted inside the budget.
    """

    tokenizer: TokenCounter
    size: int
    overlap: int
    max_tokens: int
    max_chars: int
    #: as given (None: the default, :data:`MIN_TOKENS_FRACTION` of the limit)
    min_tokens: int | None = None
    #: whether ``size`` was given (False: :data:`DEFAULT_SIZE`, which ``auto`` may set
    #: otherwise for a kind of document: see :meth:`resized`)
    size_given: bool = dataclasses.field(default=True, compare=False)

    @property
    def limit(self) -> int:
        return min(self.size, self.max_tokens)

    @property
    def min_size(self) -> int:
        """No chunk under this many tokens but a whole span (a document or a section)
        smaller than it: a span's small last piece (small by its own text: the heading
        trail in its context aside) is joined to the one before, or the cut between
        them moved back."""
        if self.min_tokens is not None:
            return self.min_tokens
        return self.limit // MIN_TOKENS_FRACTION

    @property
    def budget(self) -> Budget:
        """The packing engine's budget: the limit, the overlap, the character cap, the
        smallest piece."""
        return Budget(self.limit, self.overlap, self.max_chars, min_size=self.min_size)

    @classmethod
    def create(cls, size: int | None = None, overlap: int | float | None = 0,
               tokenizer: TokenizerSpec = None,
               max_tokens: int | None = None, max_chars: int | None = None,
               min_tokens: int | None = None) -> ChunkConfig:
        counter = get_tokenizer(tokenizer)
        explicit = size is not None
        size = check_int("size", DEFAULT_SIZE if size is None else size, 1)
        if max_tokens is None:
            max_tokens = counter.max_tokens or size
        max_tokens = check_int("max_tokens", max_tokens, 1)
        sequence = counter.max_sequence or max_tokens
        if explicit and size > max(max_tokens, sequence):
            warnings.warn(
                f"size {size} exceeds max_tokens {max_tokens} of {counter.name}; chunks are "
                f"capped at {max_tokens} tokens", stacklevel=3)
        limit = min(size, max_tokens)
        if max_chars is None:
            max_chars = max(64, CHARS_PER_TOKEN_CAP * limit)
        max_chars = check_int("max_chars", max_chars, 1)
        if min_tokens is not None:
            min_tokens = check_int("min_tokens", min_tokens, 0)
            if min_tokens > limit // 2:
                raise ConfigError(f"min_tokens {min_tokens} is more than half the token limit "
                                  f"{limit}: two pieces could not both reach it")
        return cls(tokenizer=counter, size=size, overlap=resolve_overlap(overlap, limit),
                   max_tokens=max_tokens, max_chars=max_chars, min_tokens=min_tokens,
                   size_given=explicit)

    def resized(self, size: int) -> ChunkConfig:
        """The same configuration at another size (capped at ``max_tokens``): the
        character cap follows the limit where it was the default, the overlap keeps
        its tokens (below the new limit)."""
        limit = min(check_int("size", size, 1), self.max_tokens)
        max_chars = self.max_chars
        if max_chars == max(64, CHARS_PER_TOKEN_CAP * self.limit):
            max_chars = max(64, CHARS_PER_TOKEN_CAP * limit)
        return dataclasses.replace(self, size=size, max_chars=max_chars,
                                   overlap=min(self.overlap, limit - 1), size_given=True)

    def as_dict(self) -> dict[str, Any]:
        out = {"size": self.size, "overlap": self.overlap, "max_tokens": self.max_tokens,
               "max_chars": self.max_chars, "tokenizer": self.tokenizer.name}
        if self.min_tokens is not None:  # the default is left out: an index stored before
            out["min_tokens"] = self.min_tokens  # min_tokens existed still matches
        return out
