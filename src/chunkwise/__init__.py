"""chunkwise: cut documents into passages for RAG, with exact offsets and token budgets."""

from .api import chunk
from .chunkers import (Chunker, FixedChunker, RecursiveChunker, SentenceChunker, STRATEGIES,
                       get_chunker)
from .hierarchy import HierarchicalChunker, expand
from .semantic import SemanticChunker
from .errors import ChunkwiseError, ConfigError, InputError
from .tokens import get_tokenizer
from .types import Block, Chunk, Document

__version__ = "0.1.0"

__all__ = [
    "chunk", "Chunk", "Document", "Block", "Chunker", "FixedChunker", "SentenceChunker",
    "RecursiveChunker", "STRATEGIES", "get_chunker", "get_tokenizer", "ChunkwiseError",
    "ConfigError", "InputError", "HierarchicalChunker", "SemanticChunker", "expand", "__version__",
]
