"""Chunking strategies: one interface (:class:`Chunker.split` over a span), one
registry (:data:`STRATEGIES`, extended with :func:`register` or the
``chunkwise.strategies`` entry-point group).

Adding a strategy: subclass :class:`Chunker` (or :class:`PackingChunker` for a
pack policy over the engine), declare its own options as keyword arguments of
``__init__``, implement ``split(doc, index, span)``, and decorate the class with
``@register("name")``. It then works through ``chunkwise.chunk``, the CLI, and
as any level of ``hierarchical``.
"""

from ..registry import Registry
from .base import STRATEGIES, Chunker, make_chunks, option_names, option_specs, register
from .basic import (
                    AutoChunker,
                    FixedChunker,
                    PackingChunker,
                    RecursiveChunker,
                    SectionChunker,
                    SentenceChunker,
)
from .code import CodeChunker
from .faq import FaqChunker
from .hierarchical import HierarchicalChunker, expand
from .jsondoc import JsonChunker
from .legal import LegalChunker
from .semantic import SemanticChunker
from .structure import StructureOptions
from .transcript import TranscriptChunker

__all__ = ["STRATEGIES", "AutoChunker", "Chunker", "CodeChunker", "FaqChunker", "FixedChunker",
           "HierarchicalChunker", "JsonChunker", "LegalChunker", "PackingChunker",
           "RecursiveChunker", "Registry", "SectionChunker", "SemanticChunker", "SentenceChunker",
           "StructureOptions", "TranscriptChunker", "expand", "make_chunks", "option_specs",
           "option_names", "register"]
