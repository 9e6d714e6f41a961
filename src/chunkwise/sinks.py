"""Where chunks go: JSON Lines and Parquet files."""

from __future__ import annotations

import json
from typing import IO, Iterable

from .types import Chunk


class JsonlSink:
    def __init__(self, stream: IO[str]):
        self.stream = stream

    def write(self, chunks: Iterable[Chunk]) -> None:
        for c in chunks:
            self.stream.write(json.dumps(c.to_dict(), ensure_ascii=False))
            self.stream.write("\n")

    def close(self) -> None:
        self.stream.flush()


class ParquetSink:
    """Streams chunks into a Parquet file, one row group per batch."""

    def __init__(self, path: str):
        import pyarrow as pa

        self.path = path
        self.schema = pa.schema([
            ("id", pa.string()), ("doc_id", pa.string()), ("source", pa.string()),
            ("text", pa.string()), ("start", pa.int64()), ("end", pa.int64()),
            ("context", pa.string()), ("embed_text", pa.string()), ("token_count", pa.int64()),
            ("kind", pa.string()), ("headings", pa.list_(pa.string())), ("page", pa.int64()),
            ("parent_id", pa.string()), ("level", pa.int64()), ("metadata", pa.string()),
        ])
        self._writer = None

    def write(self, chunks: Iterable[Chunk]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = [c.to_dict() for c in chunks]
        if not rows:
            return
        for r in rows:
            r["metadata"] = json.dumps(r["metadata"], ensure_ascii=False)
        table = pa.Table.from_pylist(rows, schema=self.schema)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.path, self.schema)
        self._writer.write_table(table)

    def close(self) -> None:
        import pyarrow.parquet as pq

        if self._writer is None:  # no chunks at all: still leave a valid, empty file
            import pyarrow as pa

            pq.write_table(pa.Table.from_pylist([], schema=self.schema), self.path)
        else:
            self._writer.close()


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
