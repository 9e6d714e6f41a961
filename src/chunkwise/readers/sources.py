"""Sources: what a user hands chunkwise, turned into documents one at a time.

One place for every form of input, used by the library and the command line
alike: texts (``str``), files and folders (``pathlib.Path``), glob patterns,
standard input, ready :class:`Document` objects, ``{doc_id: text or path}``
mappings, and lists of any of these. Listing is lazy and cheap; reading happens
in :meth:`SourceItem.load`, so one bad file fails alone and a million-file folder is
never held in memory.

A ``str`` is always text, never a file name: a pipeline chunking untrusted text
must not read files by accident. A ``str`` that looks like a path (one word
naming an existing file, or ending in a document extension) is refused with an
error that says to pass ``Path(...)``; the command line takes paths.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..types import Document

DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf", ".rst", ".csv",
                     ".tsv", ".json", ".jsonl", ".xml", ".docx", ".srt", ".vtt", ".py", ".js",
                     ".ts")


@dataclass(frozen=True, slots=True)
class SourceItem:
    """One document to read. Exactly one of ``path``, ``text``, ``document`` is set,
    or ``stdin``; ``error`` marks an entry that cannot be read at all (a missing
    path, a str that looks like a path), reported when it is loaded."""

    label: str
    path: Path | None = None
    text: str | None = None
    document: Document | None = None
    stdin: bool = False
    doc_id: str | None = None
    error: str | None = None

    def load(self, *, encoding: str | None = None, format: str | None = None) -> Document:
        """Read and parse it; an :class:`InputError` naming the source otherwise."""
        from . import parse, read_path

        if self.error is not None:
            raise InputError(self.label, self.error)
        if self.document is not None:
            check_text(self.document.text, self.label)
            return self.document
        if self.path is not None:
            return read_path(self.path, encoding=encoding, doc_id=self.doc_id, fmt=format)
        if self.stdin:
            data = sys.stdin.buffer.read()
            return parse(data, "<stdin>", fmt=format, encoding=encoding,
                         doc_id=self.doc_id or "<stdin>")
        assert self.text is not None
        check_text(self.text, self.label)
        doc = parse(self.text, self.label, fmt=format or "text",
                    doc_id=self.doc_id or default_text_id(self.text))
        return Document(doc.text, doc.doc_id, None, doc.title, doc.blocks, doc.metadata)


def default_text_id(text: str) -> str:
    from .text import default_doc_id

    return default_doc_id(text)


def check_text(text: str, label: str) -> None:
    """Refuse text that no tokenizer can encode: lone surrogates (invalid Unicode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(label, f"contains a lone surrogate at offset {exc.start} "
                                "(not valid Unicode text)") from None


def looks_like_path(s: str) -> bool:
    """A one-line, one-word string naming an existing file or folder, or ending in
    a document extension: what ``chunk("docs/handbook.md")`` used to read."""
    if not s or len(s) > 4096 or s.strip() != s or any(ch.isspace() for ch in s):
        return False
    if s.lower().endswith(DOCUMENT_SUFFIXES):
        return True
    try:
        return os.path.exists(s) and (os.sep in s or "." in s or os.path.isdir(s))
    except (OSError, ValueError):
        return False


def _path_hint(s: str) -> str:
    return (f"a str is chunked as text, and this one looks like a file path: pass "
            f"pathlib.Path({s!r}) to read the file, or wrap the text in "
            f"chunkwise.Document(text, doc_id=...) to chunk it as it is")


def iter_sources(source: Any, *, doc_id: str | None = None,
                 strings_are_paths: bool = False) -> Iterator[SourceItem]:
    """Every document ``source`` stands for, lazily, in order.

    ``strings_are_paths`` (the command line): a str is a file, folder or glob
    pattern, and ``-`` is standard input. ``doc_id`` names a single text or file."""
    if isinstance(source, SourceItem):
        yield source
    elif isinstance(source, Document):
        yield SourceItem(source.source or source.doc_id, document=source)
    elif isinstance(source, Path):
        yield from _expand_path(source, doc_id)
    elif isinstance(source, str):
        if strings_are_paths:
            if source == "-":
                yield SourceItem("<stdin>", stdin=True, doc_id=doc_id)
            else:
                yield from _expand_path(Path(source), doc_id, label=source)
        elif looks_like_path(source):
            yield SourceItem(source, error=_path_hint(source))
        else:
            yield SourceItem("<text>" if doc_id is None else doc_id, text=source, doc_id=doc_id)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        yield SourceItem("<bytes>", error="pass text (str) or a pathlib.Path; decode bytes first")
    elif isinstance(source, Mapping):
        for key, value in source.items():
            if not isinstance(key, str):
                yield SourceItem(repr(key)[:60], error="a mapping's keys are document ids (str)")
                continue
            if isinstance(value, str):
                yield SourceItem(key, text=value, doc_id=key)
            elif isinstance(value, Path):
                yield from _expand_path(value, key)
            elif isinstance(value, Document):
                yield SourceItem(key, document=value)
            else:
                yield SourceItem(key, error=f"expected text or a Path for document {key!r}, "
                                        f"got {type(value).__name__}")
    elif isinstance(source, Iterable):
        if doc_id is not None:
            yield SourceItem(str(doc_id), error="doc_id names one document; give a list of "
                                            "Documents or a {doc_id: text} mapping instead")
            return
        for item in source:
            yield from iter_sources(item, strings_are_paths=strings_are_paths)
    else:
        yield SourceItem(repr(source)[:60], error=f"not text, a path or a Document "
                                              f"({type(source).__name__})")


def _expand_path(path: Path, doc_id: str | None, label: str | None = None) -> Iterator[SourceItem]:
    label = label or str(path)
    try:
        is_dir = path.is_dir()
        exists = is_dir or path.exists()
    except OSError as exc:
        yield SourceItem(label, error=exc.strerror or str(exc))
        return
    if is_dir:
        if doc_id is not None:
            yield SourceItem(label, error="doc_id names one document, not a folder")
            return
        for f in iter_files(path):
            yield SourceItem(str(f), path=f)
    elif exists:
        yield SourceItem(label, path=path, doc_id=doc_id)
    elif has_magic(str(path)):
        matches = list(glob_files(str(path)))
        if not matches:
            yield SourceItem(label, error="no file matches this pattern")
        for f in matches:
            yield SourceItem(str(f), path=f)
    else:
        yield SourceItem(label, error="no such file or directory")


def iter_files(folder: Path) -> Iterator[Path]:
    """Files below a folder, sorted, skipping hidden files and folders and never
    descending into a symbolic link to a folder (no loops)."""
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith("."):
                f = Path(root) / name
                if _is_file(f):
                    yield f


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


_MAGIC = re.compile(r"[*?[]")


def has_magic(pattern: str) -> bool:
    return _MAGIC.search(pattern) is not None


def _translate(pattern: str) -> re.Pattern[str]:
    """A glob over '/'-separated relative paths: ``**`` any number of folders,
    ``*`` and ``?`` within one name, ``[...]`` a character class."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "]") else i + 1)
            if j == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def glob_files(pattern: str) -> Iterator[Path]:
    """Files matching a glob pattern, sorted, hidden entries skipped, without
    following symbolic links to folders (a link loop under ``**`` cannot hang)."""
    parts = Path(pattern).parts
    fixed: list[str] = []
    for part in parts:
        if has_magic(part):
            break
        fixed.append(part)
    root = Path(*fixed) if fixed else Path(".")
    rest = "/".join(parts[len(fixed):])
    matcher = _translate(rest)
    if not root.is_dir():
        return
    # without "**" a pattern of k names never looks deeper than k - 1 folders down
    max_depth = None if "**" in rest else rest.count("/")
    found = []
    for dirpath, dirs, files in os.walk(root, followlinks=False):
        here = Path(dirpath)
        depth = len(here.relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if max_depth is not None and depth >= max_depth:
            dirs[:] = []
        for name in files:
            if name.startswith("."):
                continue
            f = here / name
            if matcher.match(f.relative_to(root).as_posix()) and _is_file(f):
                found.append(f)
    yield from sorted(found)
