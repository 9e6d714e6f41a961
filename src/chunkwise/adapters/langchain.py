"""LangChain: a ``TextSplitter`` whose cuts are chunkwise's.

    from chunkwise.adapters.langchain import ChunkwiseTextSplitter
    splitter = ChunkwiseTextSplitter("section", size=256, format="markdown")
    docs = splitter.split_documents(loaded_docs)

``page_content`` is the chunk's verbatim text; ``metadata`` gets ``start_index``
(exact, not searched for), ``end_index``, ``chunk_id``, ``doc_id``, ``headings``,
``page`` (where known), ``context`` (heading trail or table header, what
chunkwise embeds before the text), ``token_count`` and the chunk's own metadata,
over the input document's metadata.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

try:
    from langchain_core.documents import Document as LCDocument
    from langchain_text_splitters import TextSplitter
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the LangChain adapter needs langchain-text-splitters: "
                      "pip install 'chunkwise[langchain]'") from exc

from ..factory import get_chunker
from ..readers import parse
from ..strategies import Chunker
from ..types import Chunk


class ChunkwiseTextSplitter(TextSplitter):
    """A LangChain text splitter over a chunkwise strategy. ``format``: how to read
    the texts (``text``, ``markdown``, ``html``, ...; default ``text``)."""

    def __init__(self, strategy: str | Chunker = "auto", *, format: str = "text",
                 **options: Any) -> None:
        self.chunker = strategy if isinstance(strategy, Chunker) else get_chunker(strategy,
                                                                                 **options)
        size = getattr(self.chunker, "config", None)
        super().__init__(chunk_size=getattr(size, "size", 1) or 1, chunk_overlap=0,
                         add_start_index=True)
        self.format = format

    def _chunks(self, text: str, doc_id: str) -> list[Chunk]:
        doc = parse(text, doc_id, fmt=self.format, doc_id=doc_id)
        return self.chunker.chunk_document(doc)

    def split_text(self, text: str) -> list[str]:
        from ..readers.text import default_doc_id

        return [c.text for c in self._chunks(text, default_doc_id(text))]

    def create_documents(self, texts: list[str],
                         metadatas: list[dict[Any, Any]] | None = None) -> list[LCDocument]:
        from ..readers.text import default_doc_id

        out = []
        for i, text in enumerate(texts):
            meta = dict(metadatas[i]) if metadatas else {}
            doc_id = str(meta.get("doc_id") or meta.get("source") or default_doc_id(text))
            for c in self._chunks(text, doc_id):
                out.append(LCDocument(page_content=c.text, metadata={**meta, **_metadata(c)}))
        return out

    def split_documents(self, documents: Iterable[LCDocument]) -> list[LCDocument]:
        docs = list(documents)
        return self.create_documents([d.page_content for d in docs],
                                     [dict(d.metadata) for d in docs])

    def transform_documents(self, documents: Sequence[LCDocument],
                            **kwargs: Any) -> Sequence[LCDocument]:
        return self.split_documents(list(documents))


def _metadata(c: Chunk) -> dict[str, Any]:
    out: dict[str, Any] = dict(c.metadata)
    out.update({"start_index": c.start, "end_index": c.end, "chunk_id": c.id,
                "doc_id": c.doc_id, "headings": list(c.headings), "context": c.context,
                "token_count": c.token_count, "kind": c.kind})
    if c.page is not None:
        out["page"] = c.page
    if c.parent_id is not None:
        out["parent_id"] = c.parent_id
    return out
