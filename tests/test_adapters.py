"""LangChain and LlamaIndex adapters, with the real packages."""

import pytest

import chunkwise

MD = ("# Guide\n\nIntro paragraph about shipping.\n\n## Returns\n\n"
      + "Items can be returned within thirty days of delivery. " * 12
      + "\n\n## Express\n\nExpress delivery costs more. " * 1
      + "\n\nRepeated line.\n\nRepeated line.\n")


def test_langchain_splitter_keeps_exact_offsets_and_structure():
    pytest.importorskip("langchain_text_splitters")
    from langchain_core.documents import Document

    from chunkwise.adapters.langchain import ChunkwiseTextSplitter

    splitter = ChunkwiseTextSplitter("section", size=48, format="markdown")
    docs = splitter.split_documents([Document(page_content=MD,
                                              metadata={"source": "guide.md", "team": "ops"})])
    expected = chunkwise.chunk({"guide.md": MD}, "section", size=48, format="markdown")
    assert len(docs) == len(expected) > 3
    for d, c in zip(docs, expected):
        start = d.metadata["start_index"]
        assert MD[start:d.metadata["end_index"]] == d.page_content == c.text
        assert d.metadata["chunk_id"] == c.id and d.metadata["team"] == "ops"
        assert d.metadata["headings"] == list(c.headings) and d.metadata["context"] == c.context
    returns = [d for d in docs if "thirty days" in d.page_content]
    assert returns and all(d.metadata["headings"][-1] == "Returns" for d in returns)
    # the two identical lines get their own offsets, not the first copy's twice
    repeated = [d.metadata["start_index"] for d in docs if d.page_content == "Repeated line."]
    assert len(set(repeated)) == len(repeated)
    assert splitter.split_text(MD) == [c.text for c in expected]


def test_llamaindex_parser_gives_nodes_with_offsets_and_relationships():
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import Document, MetadataMode, NodeRelationship

    from chunkwise.adapters.llamaindex import ChunkwiseNodeParser

    parser = ChunkwiseNodeParser.from_strategy("section", size=48, format="markdown")
    doc = Document(text=MD, id_="guide.md", metadata={"team": "ops"})
    nodes = parser.get_nodes_from_documents([doc])
    expected = chunkwise.chunk({"guide.md": MD}, "section", size=48, format="markdown")
    assert [n.node_id for n in nodes] == [c.id for c in expected]
    for i, (n, c) in enumerate(zip(nodes, expected)):
        assert MD[n.start_char_idx:n.end_char_idx] == n.text == c.text  # type: ignore[attr-defined]
        assert n.relationships[NodeRelationship.SOURCE].node_id == "guide.md"  # type: ignore[union-attr]
        if i:
            assert n.relationships[NodeRelationship.PREVIOUS].node_id == nodes[i - 1].node_id  # type: ignore[union-attr]
        else:
            assert NodeRelationship.PREVIOUS not in n.relationships
        assert n.metadata["team"] == "ops"
        llm = n.get_content(metadata_mode=MetadataMode.LLM)
        embed = n.get_content(metadata_mode=MetadataMode.EMBED)
        if c.context:
            assert c.context.strip() in embed and "context" in n.excluded_llm_metadata_keys
        assert n.text in llm and n.text in embed  # type: ignore[attr-defined]
    # hierarchical cuts link children to parents
    nested = ChunkwiseNodeParser.from_strategy("hierarchical", sizes=(128, 32)).get_nodes_from_documents(
        [Document(text=MD, id_="h")])
    ids = {n.node_id for n in nested}
    parents = [n.relationships[NodeRelationship.PARENT].node_id for n in nested  # type: ignore[union-attr]
               if NodeRelationship.PARENT in n.relationships]
    assert parents and set(parents) <= ids
    # constructed directly, as pydantic models are, with the strategy's options
    direct = ChunkwiseNodeParser("hierarchical", sizes=(128, 32)).get_nodes_from_documents(
        [Document(text=MD, id_="h")])
    assert [n.node_id for n in direct] == [n.node_id for n in nested]
    plain = ChunkwiseNodeParser(include_metadata=False).get_nodes_from_documents([doc])
    assert plain and "team" not in plain[0].metadata
