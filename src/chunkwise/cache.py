"""Where chunkwise keeps what it computed once (embeddings, LLM answers, assembled
models): ``$CHUNKWISE_CACHE``, else ``$XDG_CACHE_HOME/chunkwise``, else
``~/.cache/chunkwise``."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    base = os.environ.get("CHUNKWISE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "chunkwise")
    return Path(base)
