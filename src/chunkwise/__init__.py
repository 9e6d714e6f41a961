"""chunkwise: cut documents into passages for RAG, with exact offsets and token budgets.

The public API is small: :func:`chunk` and :func:`iter_chunks`, :class:`Index` (an
index kept in sync with documents, and searched), the strategy classes (each also
reachable by name through :func:`get_chunker`), the data types,
:class:`Filter` (which chunks a search returns), :func:`get_tokenizer`, the
registries plug-ins extend, and the error types.
Everything else is an implementation detail.
"""

from .api import Index, chunk, iter_chunks, read_text
from .boilerplate import flag_boilerplate
from .config import ChunkConfig
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
