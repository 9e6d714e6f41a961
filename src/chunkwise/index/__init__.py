"""An index kept in sync with its documents: chunk, embed what is new, upsert,
delete what is gone; and search it with citations.

Stores (``open_store(uri)``):

- ``./PATH`` or ``lancedb://PATH``: LanceDB, embedded (the default);
- ``qdrant+local://PATH``: Qdrant's embedded local mode; ``qdrant://HOST:PORT/NAME``
  a Qdrant server (collection NAME, default ``chunks``);
- ``postgresql://USER:PASSWORD@HOST:PORT/DB[?table=NAME]``: PostgreSQL with the
  pgvector extension (table NAME, default ``chunks``; the other parameters go to
  libpq as they are).

Every row is a chunk (every Chunk field, ``embed_text``, ``vector``) plus
``row_hash``, a digest of all its fields. Chunk ids hash (document, context,
text, occurrence), so an unchanged passage keeps its id and its vector: a run
embeds only ids the index has not seen, rewrites rows whose other fields moved
(offsets after an edit above them, neighbours) with their stored vectors, and
deletes ids a document no longer produces.

Write order, per document: new and changed rows first (an upsert by id), then
the ids it no longer has. PostgreSQL does a document's writes in one
transaction, so a reader never sees it half-replaced. LanceDB and Qdrant have no
transactions across writes: a run killed half-way leaves a document with some
of its new rows beside its old ones at worst; the next run reuses those rows
(no second embedding) and deletes the old, so it converges to the index an
uninterrupted run makes. The configuration (chunker and embedder) is stored with
the index and checked before anything is written.
"""

from .check import CheckReport, check_index
from .store import CONFIG_TABLE, STORES, TABLE, Hit, Store, open_store, row_of
from .sync import IndexReport, check_config, sync_document, sync_documents

__all__ = ["CONFIG_TABLE", "STORES", "TABLE", "CheckReport", "Hit", "IndexReport", "Store",
           "check_config", "check_index", "open_store", "row_of", "sync_document",
           "sync_documents"]
