"""Ray Data: chunk (and embed) a corpus on every core of a cluster.

Install with ``pip install 'chunkwise[ray]'``. A Ray Dataset of documents goes in,
a Dataset of chunk rows comes out, one row per chunk with the columns of the
Parquet output (``metadata`` as a JSON string; ``vector`` too when embedding)::

    import ray, chunkwise.ray as cr

    ds = cr.read_paths(["s3-mounted/docs/", "more/*.md"])     # or ray.data.from_items(
    chunks = cr.chunk_dataset(ds, strategy="recursive", size=256)  # [{"text": ..}])
    chunks = cr.embed_dataset(chunks, "minilm", num_gpus=1)    # optional
    chunks.write_parquet("out/")

Input rows hold either ``path`` (a file every worker can read: a shared or mounted
file system) or ``text``, with an optional ``doc_id`` (and ``label``, the name
errors use). Each worker builds its chunker (and loads its tokenizer) once, in an
actor, not per row. Rows, ids and offsets are those of a one-process run of the
same configuration: the chunking code is the same.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Generator, Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import ChunkwiseError, ConfigError, InputError
from .factory import get_chunker
from .parallel import WorkerSettings, chunk_source
from .readers.sources import SourceItem, iter_sources
from .sinks import arrow_schema
from .strategies import Chunker
from .types import Chunk

#: the column of an input row that names a failure or warnings, in ``report`` mode
REPORT = "report"


def _ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError:
        raise ConfigError("the ray engine needs Ray Data: pip install 'chunkwise[ray]'") from None
    return ray


def source_rows(source: Any, *, doc_id: str | None = None) -> list[dict[str, Any]]:
    """Input rows for what :func:`chunkwise.iter_chunks` accepts (paths, folders,
    globs, ``{doc_id: text | Path}``): folders and globs expanded here, with the
    document ids a one-process run gives them."""
    rows: list[dict[str, Any]] = []
    for src in iter_sources(source, doc_id=doc_id, strings_are_paths=True):
        if src.stdin or src.document is not None:
            raise ConfigError("the ray engine reads files and texts, not standard input")
        rows.append({"label": src.label,
                     "path": str(src.path) if src.path is not None else None,
                     "text": src.text, "doc_id": src.doc_id, "error": src.error})
    return rows


def read_paths(source: Any) -> Any:
    """A Ray Dataset with one row per file of ``source`` (paths, folders, globs)."""
    ray = _ray()
    return ray.data.from_items(source_rows(source))


def chunk_rows(chunks: Iterable[Chunk]) -> list[dict[str, Any]]:
    """Chunks as rows of the Parquet schema (``metadata`` a JSON string)."""
    rows = []
    for c in chunks:
        row = c.to_dict()
        row["metadata"] = json.dumps(row["metadata"], ensure_ascii=False)
        rows.append(row)
    return rows


class ChunkBatches:
    """``Dataset.map_batches`` callable: one chunker per actor. ``on_error``: "raise"
    (the task fails with the :class:`InputError`), "skip" (the document is left out,
    with a warning in the worker's log) or "report" (a row whose ``report`` column
    holds the error and warnings as JSON, for a driver that shows them)."""

    def __init__(self, chunker: Chunker | list[Any] | None = None, strategy: str = "auto",
                 options: Mapping[str, Any] | None = None, on_error: str = "raise",
                 encoding: str | None = None, format: str | None = None,
                 metadata: Mapping[str, Any] | None = None):
        if isinstance(chunker, list):  # [a reference to it in Ray's object store]
            import ray

            chunker = ray.get(chunker[0])
        assert chunker is None or isinstance(chunker, Chunker)
        self.chunker: Chunker = chunker if chunker is not None else get_chunker(
            strategy, **dict(options or {}))
        self.settings = WorkerSettings(encoding, format, dict(metadata) if metadata else None)
        self.on_error = on_error
        self.schema = arrow_schema()
        if on_error == "report":
            import pyarrow as pa

            self.schema = self.schema.append(pa.field(REPORT, pa.string()))

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        columns = batch.column_names
        n = batch.num_rows
        get = {name: batch.column(name).to_pylist() for name in columns}
        rows: list[dict[str, Any]] = []
        for i in range(n):
            value = {name: get[name][i] for name in columns}
            path, text = value.get("path"), value.get("text")
            label = value.get("label") or path or "<text>"
            src = SourceItem(label, path=Path(path) if path is not None else None,
                         text=text if path is None else None, doc_id=value.get("doc_id"),
                         error=value.get("error") or (
                             None if path is not None or text is not None
                             else "a row needs a path or a text"))
            result = chunk_source(self.chunker, src, self.settings)
            out = chunk_rows(result.chunks)
            if self.on_error == "report":  # every document: a report row, then its chunks
                for row in out:
                    row[REPORT] = None
                error = result.error
                rows.append({REPORT: json.dumps({
                    "label": label, "chunks": len(out),
                    "error": None if error is None else
                    [type(error).__name__, getattr(error, "problem", str(error))],
                    "warnings": [[m, c.__name__] for m, c in result.warned]})})
            else:
                for message, category in result.warned:
                    warnings.warn(message, category, stacklevel=2)
                if result.error is not None:
                    if self.on_error == "raise" or not isinstance(result.error, InputError):
                        raise result.error
                    warnings.warn(f"skipped {result.error}", stacklevel=2)
            rows.extend(out)
        return pa.Table.from_pylist(rows, schema=self.schema)


def chunk_dataset(dataset: Any, strategy: str | Chunker = "auto", *,
                  concurrency: int | None = None, batch_size: int = 8,
                  on_error: str = "raise", encoding: str | None = None,
                  format: str | None = None, metadata: Mapping[str, Any] | None = None,
                  **options: Any) -> Any:
    """A Dataset of chunk rows from a Dataset of ``path``/``text`` rows. ``strategy``
    and ``options`` as for :func:`chunkwise.chunk` (checked here, before any task
    starts); ``concurrency``: chunking actors (default: the cluster's CPUs)."""
    ray = _ray()
    if on_error not in ("raise", "skip", "report"):
        raise ConfigError(f"on_error must be raise, skip or report, not {on_error!r}")
    chunker = strategy if isinstance(strategy, Chunker) else get_chunker(strategy, **options)
    if concurrency is None:
        concurrency = max(1, int(ray.cluster_resources().get("CPU", 1)))
    if concurrency < 1 or batch_size < 1:
        raise ConfigError("concurrency and batch_size must be positive")
    return dataset.map_batches(
        ChunkBatches, batch_format="pyarrow", batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(size=concurrency), num_cpus=1, zero_copy_batch=True,
        # the chunker (its tokenizer can weigh a megabyte) goes to the object store
        # once, by a reference each actor reads: not inline in every actor's arguments
        fn_constructor_kwargs={"chunker": [ray.put(chunker)], "on_error": on_error,
                               "encoding": encoding, "format": format,
                               "metadata": dict(metadata) if metadata else None})


class EmbedBatches:
    """``Dataset.map_batches`` callable: one embedder per actor (on a GPU where the
    actor has one); adds a ``vector`` column (float32 lists) of ``embed_text``."""

    def __init__(self, embedder: str | None = None, device: str | None = None):
        from .embed import get_embedder

        self.embedder = get_embedder(embedder, device=device)

    def __call__(self, batch: Any) -> Any:
        import numpy as np
        import pyarrow as pa

        texts = batch.column("embed_text").to_pylist()
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        dim = vectors.shape[1] if vectors.ndim == 2 else 0
        column = pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), dim)
        return batch.append_column("vector", column)


def embed_dataset(chunks: Any, embedder: str | None = None, *, concurrency: int = 1,
                  batch_size: int | None = None, num_gpus: float = 0) -> Any:
    """Chunk rows with a ``vector`` column; ``num_gpus=1`` puts each actor on a GPU (its
    model on ``cuda``, fed 512 rows a batch; 64 on a CPU, unless ``batch_size``)."""
    ray = _ray()
    on_gpu = num_gpus > 0
    return chunks.map_batches(EmbedBatches, batch_format="pyarrow",
                              batch_size=batch_size or (512 if on_gpu else 64),
                              compute=ray.data.ActorPoolStrategy(size=concurrency),
                              num_gpus=num_gpus,
                              fn_constructor_kwargs={"embedder": embedder,
                                                     "device": "cuda" if on_gpu else None})


def init(address: str | None = None, num_cpus: int | None = None, quiet: bool = False) -> None:
    """Connect to the cluster at ``address`` (``auto``: the one this machine belongs
    to), or start a local Ray when none is given; order-preserving. ``quiet``: no
    Python log lines from Ray below errors (its native core may still print one)."""
    ray = _ray()
    if ray.is_initialized():
        return
    import logging

    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
    if quiet:
        kwargs["logging_level"] = logging.ERROR
    try:
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(num_cpus=num_cpus, **kwargs)
    except ChunkwiseError:
        raise
    except Exception as exc:  # connection refused, bad address, ...
        raise ConfigError(f"cannot start or reach Ray{f' at {address}' if address else ''}: "
                          f"{type(exc).__name__}: {exc}") from None
    if quiet:  # progress and start-up chatter off stderr
        for name in ("ray", "ray.data"):
            logging.getLogger(name).setLevel(logging.ERROR)
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False
    context.print_on_execution_start = False


def _warning_class(name: str) -> type[Warning]:
    import builtins

    from . import errors  # every warning chunkwise issues is defined there

    found = getattr(errors, name, None) or getattr(builtins, name, None)
    return found if isinstance(found, type) and issubclass(found, Warning) else UserWarning


def iter_documents_chunks(chunker: Chunker, source: Any, handle: Any, *,
                          encoding: str | None = None, format: str | None = None,
                          metadata: Mapping[str, Any] | None = None,
                          address: str | None = None, num_cpus: int | None = None,
                          quiet: bool = True) -> Generator[tuple[str, list[Chunk]], None, None]:
    """(label, chunks) for every document of ``source``, in order, chunked on Ray;
    warnings re-issued here, a document's :class:`InputError` given to ``handle``:
    what :func:`chunkwise.api.iter_documents_chunks` does in one process."""
    ray = _ray()
    rows = source_rows(source)
    init(address, num_cpus, quiet)
    if not rows:
        return
    out = chunk_dataset(ray.data.from_items(rows), chunker, on_error="report",
                        encoding=encoding, format=format, metadata=metadata)
    label: str | None = None
    chunks: list[Chunk] = []
    for batch in out.iter_batches(batch_format="pyarrow", batch_size=256):
        for row in batch.to_pylist():
            report = row.pop(REPORT)
            if report is None:
                chunks.append(Chunk.from_dict(row))
                continue
            if label is not None:
                yield label, chunks
            info = json.loads(report)
            label, chunks = info["label"], []
            for message, category in info["warnings"]:
                warnings.warn(message, _warning_class(category), stacklevel=2)
            if info["error"] is not None:
                kind, problem = info["error"]
                if kind != "InputError":
                    raise ChunkwiseError(problem)
                handle(InputError(info["label"], problem))
                label = None
    if label is not None:
        yield label, chunks
