"""The small public entry point: ``chunkwise.chunk(source, strategy=..., size=..., overlap=...)``."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Iterable, Iterator

from .chunkers import Chunker, get_chunker
from .errors import InputError
from .readers import default_doc_id, parse, read_path
from .types import Chunk, Document


_FILE_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf", ".rst", ".csv",
                  ".json", ".jsonl", ".xml")


def _looks_like_path(s: str) -> bool:
    """An existing path, or a string that can only be a file name (one word ending in
    a document extension): chunking a mistyped path as text would hide the mistake."""
    if not s or len(s) >= 4096 or "\n" in s or s.strip() != s:
        return False
    if os.path.exists(s):
        return True
    return not any(ch.isspace() for ch in s) and s.lower().endswith(_FILE_SUFFIXES)


def iter_files(folder: Path) -> Iterator[Path]:
    """Files below a folder, sorted, skipping hidden files and folders."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith("."):
                yield Path(root) / name


def load_sources(source, doc_id: str | None = None, encoding: str | None = None,
                 fmt: str | None = None) -> Iterator[Document]:
    """Documents from a string (text, or an existing path), a Path, a Document, or a list."""
    if isinstance(source, Document):
        yield source
    elif isinstance(source, Path) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        if path.is_dir():
            for f in iter_files(path):
                yield read_path(f, encoding=encoding, fmt=fmt)
        else:
            yield read_path(path, encoding=encoding, doc_id=doc_id, fmt=fmt)
    elif isinstance(source, str):
        doc = parse(source, "<text>", fmt=fmt or "text",
                    doc_id=doc_id or default_doc_id(source))
        yield dataclasses.replace(doc, source=None)
    elif isinstance(source, bytes):
        raise InputError("<bytes>", "pass text (str) or a path; decode bytes first")
    elif isinstance(source, Iterable):
        for item in source:
            yield from load_sources(item, encoding=encoding, fmt=fmt)
    else:
        raise InputError(repr(source)[:60], "not a string, path or Document")


def chunk(source, strategy: str | Chunker = "recursive", size: int | None = None, overlap=0,
          tokenizer=None, max_tokens: int | None = None, doc_id: str | None = None,
          encoding: str | None = None, format: str | None = None, **options) -> list[Chunk]:
    """Chunk text, a file, a folder, or a list of them.

    ``strategy`` is a name ("fixed", "sentence", "recursive", "section", "auto") or a
    Chunker; files are read by extension, then content (``format`` overrides:
    "text", "markdown", "html", "pdf"); a string is plain text unless ``format`` says;
    ``size``/``overlap`` are in tokens of ``tokenizer`` (default: the bundled
    all-MiniLM-L6-v2); ``overlap`` may be a fraction of size (0.15).
    """
    if isinstance(strategy, Chunker):
        chunker = strategy
    else:
        chunker = get_chunker(strategy, size=size, overlap=overlap, tokenizer=tokenizer,
                              max_tokens=max_tokens, **options)
    return chunker.chunk(source, doc_id=doc_id, encoding=encoding, fmt=format)
