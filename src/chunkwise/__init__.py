"""chunkwise: cut documents into passages for RAG, with exact offsets and token budgets.

The public API is small: :func:`chunk` and :func:`iter_chunks`, :class:`Index` (an
index kept in sync with documents, and searched), the strategy classes (each also
reachable by name through :func:`get_chunker`), the data types,
:class:`Filter` (which chunks a search returns), :func:`get_tokenizer`, the
registries plug-ins extend, and the error types.
Everything else is an implementation detail.

The names are imported when first used (PEP 562): ``import chunkwise`` alone, or a
command that only searches an index, does not load the chunking machinery (the
packing engine, the strategies, the readers).
"""

from typing import TYPE_CHECKING

from .errors import (
    ChunkwiseError,
    ConfigError,
    EmbedderError,
    ExtractionWarning,
    IndexBusyError,
    InputError,
    LLMError,
    MissingExtraError,
    OutputError,
    ServiceError,
    SkippedInputWarning,
    StoreError,
    UnstableIdWarning,
)

if TYPE_CHECKING:
    from .api import Index, chunk, iter_chunks, read_text
    from .boilerplate import flag_boilerplate
    from .config import ChunkConfig
    from .factory import get_chunker
    from .filters import Filter
    from .ids import name_of, path_of
    from .levels import Level
    from .registry import Registry
    from .strategies import (
        STRATEGIES,
        AutoChunker,
        Chunker,
        CodeChunker,
        FaqChunker,
        FixedChunker,
        HierarchicalChunker,
        JsonChunker,
        LegalChunker,
        RecursiveChunker,
        SectionChunker,
        SemanticChunker,
        SentenceChunker,
        TranscriptChunker,
        expand,
        register,
    )
    from .tokens import TokenCounter, get_tokenizer
    from .types import Block, Chunk, Document

__version__ = "0.2.0"

#: each public name imported when first used -> the module that defines it
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Index", "chunk", "iter_chunks", "read_text"), "api"),
    "flag_boilerplate": "boilerplate", "ChunkConfig": "config", "get_chunker": "factory",
    "Filter": "filters", "name_of": "ids", "path_of": "ids", "Level": "levels",
    "Registry": "registry",
    **dict.fromkeys(("STRATEGIES", "AutoChunker", "Chunker", "CodeChunker", "FaqChunker",
                     "FixedChunker", "HierarchicalChunker", "JsonChunker", "LegalChunker",
                     "RecursiveChunker", "SectionChunker", "SemanticChunker", "SentenceChunker",
                     "TranscriptChunker", "expand", "register"), "strategies"),
    "TokenCounter": "tokens", "get_tokenizer": "tokens",
    **dict.fromkeys(("Block", "Chunk", "Document"), "types"),
}


if not TYPE_CHECKING:  # (a type checker reads the imports above, and flags a typo)
    def __getattr__(name):
        from importlib import import_module

        module = _LAZY.get(name)
        if module is None:
            if not name.startswith("__"):  # a submodule (``chunkwise.readers``), as when
                try:  # every name was imported at once
                    return import_module(f".{name}", __name__)
                except ModuleNotFoundError as exc:
                    if exc.name != f"{__name__}.{name}":
                        raise
            raise AttributeError(f"module 'chunkwise' has no attribute {name!r}")
        value = getattr(import_module(f".{module}", __name__), name)
        globals()[name] = value  # found once: later uses are plain attribute reads
        return value

    def __dir__():
        return sorted(set(globals()) | set(__all__))

del TYPE_CHECKING


__all__ = [
    "AutoChunker", "Block", "Chunk", "ChunkConfig", "Chunker", "ChunkwiseError", "CodeChunker",
    "ConfigError", "Document", "EmbedderError", "ExtractionWarning", "FaqChunker", "Filter",
    "FixedChunker", "HierarchicalChunker", "Index", "IndexBusyError", "InputError", "JsonChunker", "LLMError",
    "LegalChunker", "Level", "MissingExtraError", "OutputError", "RecursiveChunker", "Registry",
    "STRATEGIES", "SectionChunker", "SemanticChunker", "SentenceChunker", "ServiceError", "StoreError",
    "SkippedInputWarning", "TokenCounter", "TranscriptChunker", "UnstableIdWarning",
    "__version__", "chunk", "expand", "flag_boilerplate", "get_chunker", "get_tokenizer",
    "iter_chunks", "name_of", "path_of", "read_text", "register",
]
