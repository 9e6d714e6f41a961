"""LlamaIndex: a ``NodeParser`` whose cuts are chunkwise's.

    from chunkwise.adapters.llamaindex import ChunkwiseNodeParser
    parser = ChunkwiseNodeParser.from_strategy("section", size=256, format="markdown")
    nodes = parser.get_nodes_from_documents(documents)

Each ``TextNode`` has the chunk's id as ``id_``, its verbatim text, exact
``start_char_idx``/``end_char_idx`` (not searched for), relationships SOURCE (the
document), PREVIOUS/NEXT (its neighbours) and PARENT (in a hierarchical cut), and
metadata ``headings``, ``page``, ``context``, ``token_count``; ``context`` (the
heading trail or table header chunkwise embeds) is shown to the embedding model
and hidden from the LLM, which sees the text itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import (
        BaseNode,
        Document,
        NodeRelationship,
        RelatedNodeInfo,
        TextNode,
    )
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the LlamaIndex adapter needs llama-index-core: "
                      "pip install 'chunkwise[llamaindex]'") from exc

from pydantic import ConfigDict, Field, PrivateAttr

from ..factory import get_chunker
from ..readers import parse
from ..strategies import Chunker

_HIDDEN_FROM_LLM = ["context", "chunk_id", "doc_id", "token_count", "kind"]


class ChunkwiseNodeParser(NodeParser):
    """A LlamaIndex node parser over a chunkwise strategy."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    format: str = Field(default="text", description="how to read the documents' text")
    _chunker: Chunker = PrivateAttr()

    def __init__(self, strategy: str | Chunker = "auto", *, format: str = "text",
                 **options: Any):
        """``ChunkwiseNodeParser("hierarchical", sizes=(512, 128))``: the strategy's own
        options (anything that is not a NodeParser field) build its chunker."""
        fields = {k: options.pop(k) for k in list(options) if k in NodeParser.model_fields}
        fields.setdefault("include_prev_next_rel", False)  # chunkwise links them itself
        super().__init__(format=format, **fields)  # type: ignore[call-arg]  # our field
        self._chunker = strategy if isinstance(strategy, Chunker) else get_chunker(
            strategy, **options)

    @classmethod
    def from_strategy(cls, strategy: str | Chunker = "auto", *, format: str = "text",
                      **options: Any) -> ChunkwiseNodeParser:
        return cls(strategy, format=format, **options)

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False,
                     **kwargs: Any) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node in nodes:
            text = node.get_content()
            doc_id = node.node_id
            doc = parse(text, doc_id, fmt=self.format, doc_id=doc_id)
            for c in self._chunker.chunk_document(doc):
                relationships: dict[NodeRelationship, Any] = {
                    NodeRelationship.SOURCE: node.as_related_node_info()}
                if c.prev_id:
                    relationships[NodeRelationship.PREVIOUS] = RelatedNodeInfo(node_id=c.prev_id)
                if c.next_id:
                    relationships[NodeRelationship.NEXT] = RelatedNodeInfo(node_id=c.next_id)
                if c.parent_id:
                    relationships[NodeRelationship.PARENT] = RelatedNodeInfo(node_id=c.parent_id)
                metadata: dict[str, Any] = {
                    **(node.metadata if self.include_metadata else {}),
                    **{k: v for k, v in c.metadata.items() if isinstance(v, (str, int, float))},
                    "headings": " > ".join(c.headings), "context": c.context,
                    "chunk_id": c.id, "doc_id": c.doc_id, "token_count": c.token_count,
                    "kind": c.kind}
                if c.page is not None:
                    metadata["page"] = c.page
                out.append(TextNode(
                    id_=c.id, text=c.text, start_char_idx=c.start, end_char_idx=c.end,
                    metadata=metadata, relationships=relationships,
                    excluded_llm_metadata_keys=list(_HIDDEN_FROM_LLM),
                    excluded_embed_metadata_keys=[*_HIDDEN_FROM_LLM[1:], "headings", "page"],
                    metadata_template="{value}", metadata_seperator="\n",
                    text_template="{metadata_str}\n{content}"))
        return out

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode],
                                  parent_doc_map: dict[str, Document]) -> list[BaseNode]:
        # the offsets and relationships are chunkwise's own: LlamaIndex's default
        # re-finds each node's text in its document, which may pick another copy
        return nodes
