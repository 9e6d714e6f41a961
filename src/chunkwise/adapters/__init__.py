"""Adapters for the frameworks users already run (optional extras):
``chunkwise.adapters.langchain.ChunkwiseTextSplitter`` (``pip install
'chunkwise[langchain]'``) and ``chunkwise.adapters.llamaindex.ChunkwiseNodeParser``
(``pip install 'chunkwise[llamaindex]'``). Both cut with any chunkwise strategy and
keep what chunkwise knows: exact offsets, chunk ids, heading trail, page, context."""
