"""Evaluation datasets: questions with reference character spans over a corpus."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError
from ..ids import path_of
from ..readers import read_path
from ..types import Document


class DatasetError(ChunkwiseError):
    pass


@dataclass(frozen=True, slots=True)
class Reference:
    start: int
    end: int
    content: str


@dataclass(frozen=True, slots=True)
class Question:
    question: str
    doc_id: str
    references: tuple[Reference, ...]
    tags: tuple[str, ...] = ()
    #: the reference answer, where the dataset has one (``eval --answers`` scores the
    #: model's answer against it, else against the evidence)
    answer: str | None = None


@dataclass
class Dataset:
    name: str
    documents: dict[str, Document]
    questions: list[Question] = field(default_factory=list)

    def sample(self, n: int) -> Dataset:
        """``n`` of the questions spread evenly over the dataset (every len/n-th, in
        order; all of them when there are no more than ``n``), the same ones on every
        run. Every document stays: retrieval still searches the whole corpus."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise DatasetError(f"sample must be a positive number of questions, got {n!r}")
        total = len(self.questions)
        if n >= total:
            return self
        picked = [self.questions[i * total // n] for i in range(n)]
        return Dataset(f"{self.name} (sample {n} of {total})", self.documents, picked)

    def validate(self) -> None:
        """Every reference must match its span; report all mismatches at once."""
        bad = []
        for i, q in enumerate(self.questions):
            doc = self.documents.get(q.doc_id)
            if doc is None:
                bad.append(f"question {i + 1}: unknown document {q.doc_id!r}")
                continue
            for r in q.references:
                if not (0 <= r.start < r.end <= len(doc.text)):
                    bad.append(f"question {i + 1}: span {r.start}-{r.end} outside {q.doc_id!r}")
                elif doc.text[r.start:r.end] != r.content:
                    bad.append(f"question {i + 1}: {q.doc_id}[{r.start}:{r.end}] is "
                               f"{doc.text[r.start:r.start + 40]!r}, reference says "
                               f"{r.content[:40]!r}")
        if bad:
            shown = "; ".join(bad[:5])
            more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
            raise DatasetError(f"{self.name}: {len(bad)} reference(s) do not match their "
                               f"documents: {shown}{more}")


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """(line number, object) for each non-blank line; a clear error for bad JSON or
    text that is not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{path}: not valid UTF-8 (byte {exc.start})") from None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield line_no, json.loads(line)
        except ValueError as exc:
            raise DatasetError(f"{path}:{line_no}: not JSON ({exc})") from None


def _offset(value: Any, name: str, where: str) -> int:
    """A character offset: a non-negative integer (a float is refused, not truncated)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DatasetError(f"{where}: {name} must be a non-negative integer, got {value!r}")
    return value


def _inside(folder: Path, doc_id: str, where: str) -> Path:
    """The document path for a doc_id, which must stay inside the dataset folder."""
    if not isinstance(doc_id, str) or not doc_id:
        raise DatasetError(f"{where}: doc_id must be a non-empty string, got {doc_id!r}")
    candidate = Path(path_of(doc_id))
    root = folder.resolve()
    resolved = (folder / candidate).resolve()
    if candidate.is_absolute() or (resolved != root and root not in resolved.parents):
        raise DatasetError(f"{where}: doc_id {doc_id!r} points outside the dataset folder "
                           f"{folder}")
    return folder / candidate


def _add_folder(folder: Path, documents: dict[str, Document]) -> None:
    """The folder's other documents, named by their paths relative to it as an index
    rooted there names them: the ones no question is about are what retrieval must
    rank below the answers (before, only the questions' documents were searched: 40
    of 82 pages of a folder that ``chunkwise questions -n 50`` had asked about, and
    Express's ``express.js`` in the held-out code set)."""
    from ..errors import InputError
    from ..readers.sources import Walk, iter_sources

    named = {os.path.realpath(folder / path_of(d)) for d in documents}  # ("./a.md" is "a.md")
    for item in iter_sources(folder, walk=Walk(root=Path(os.path.realpath(folder)))):
        if item.error is not None or item.path is None or item.doc_id is None:
            raise DatasetError(f"{item.label}: {item.error or 'not a file'}")
        if item.doc_id in documents or str(item.path) in named:
            continue
        try:  # read as a question's document is: its path as the folder spells it (a
            # source file's chunks carry it as context)
            doc = read_path(folder / path_of(item.doc_id), doc_id=item.doc_id)
        except InputError as exc:
            raise DatasetError(f"{exc} (a file of the dataset's folder: leave it out with a "
                               f"line in {folder / '.chunkwiseignore'})") from None
        documents[doc.doc_id] = doc


def load_chroma(path: str | Path) -> Dataset:
    """Chroma's chunking-evaluation format: questions_df.csv + <corpus_id>.md."""
    folder = Path(path)
    csv_path = folder / "questions_df.csv"
    if not csv_path.is_file():
        raise DatasetError(f"{folder}: no questions_df.csv (expected Chroma's format)")
    csv.field_size_limit(sys.maxsize)
    questions: list[Question] = []
    documents: dict[str, Document] = {}
    try:
        text = csv_path.read_bytes().decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{csv_path}: not valid UTF-8 (byte {exc.start})") from None
    except (OSError, csv.Error) as exc:
        raise DatasetError(f"{csv_path}: cannot be read ({exc})") from None
    for row_no, row in enumerate(rows, start=2):
        where = f"{csv_path}:{row_no}"
        try:
            refs = json.loads(row["references"])
            corpus = row["corpus_id"]
            q = Question(row["question"], corpus, tuple(
                Reference(_offset(r["start_index"], "start_index", where),
                          _offset(r["end_index"], "end_index", where), r["content"])
                for r in refs), tags=(corpus,))
        except (KeyError, ValueError, TypeError) as exc:
            raise DatasetError(f"{where}: malformed row ({exc})") from None
        if not q.references:
            raise DatasetError(f"{where}: the question has no references (nothing to score)")
        if corpus not in documents:
            doc_path = _inside(folder, f"{corpus}.md", where)
            if not doc_path.is_file():
                raise DatasetError(f"{where}: corpus file {doc_path} missing")
            doc = read_path(doc_path)
            documents[corpus] = Document(doc.text, corpus, str(doc_path), doc.title,
                                         doc.blocks, doc.metadata)
        questions.append(q)
    if not questions:
        raise DatasetError(f"{csv_path}: no questions in it")
    ds = Dataset(f"chroma:{folder}", documents, questions)
    ds.validate()
    return ds


def load_jsonl(path: str | Path) -> Dataset:
    """Our format: a folder of documents plus questions.jsonl lines
    {"question", "doc_id", "references": [{"start", "end", "content"}], "tags": [...],
    "answer"} (tags and answer optional) with doc_id the document's path relative to
    the folder. The corpus is every document of the folder, walked as ``chunk`` walks
    it (``.gitignore``, ``.ignore`` and ``.chunkwiseignore`` rules honoured; a file of
    questions is no document), and every document a question names."""
    # (spelled one way: "./set/../set" is "set"; a source file's chunks carry its path
    # as the folder spells it, and the figures moved with the spelling)
    path = Path(os.path.normpath(path))
    folder, qfile = (path, path / "questions.jsonl") if path.is_dir() else (path.parent, path)
    if not qfile.is_file():
        raise DatasetError(f"{path}: no questions.jsonl")
    questions: list[Question] = []
    documents: dict[str, Document] = {}
    for line_no, obj in iter_jsonl(qfile):
        where = f"{qfile}:{line_no}"
        try:
            if not isinstance(obj, dict):
                raise TypeError("expected a JSON object")
            refs = tuple(Reference(_offset(r["start"], "start", where),
                                   _offset(r["end"], "end", where), str(r["content"]))
                         for r in obj["references"])
            answer = obj.get("answer")
            if answer is not None and not isinstance(answer, str):
                raise TypeError(f"answer must be a string, got {answer!r}")
            q = Question(str(obj["question"]), obj["doc_id"], refs, tuple(obj.get("tags", ())),
                         answer.strip() or None if answer is not None else None)
        except (KeyError, ValueError, TypeError) as exc:
            raise DatasetError(f"{where}: malformed line ({type(exc).__name__}: {exc})") from None
        if not refs:
            raise DatasetError(f"{where}: the question has no references (nothing to score)")
        if q.doc_id not in documents:
            doc_path = _inside(folder, q.doc_id, where)
            if not doc_path.is_file():
                raise DatasetError(f"{qfile}:{line_no}: document {doc_path} missing")
            doc = read_path(doc_path)
            documents[q.doc_id] = Document(doc.text, q.doc_id, doc.source, doc.title,
                                           doc.blocks, doc.metadata)
        questions.append(q)
    if not questions:
        raise DatasetError(f"{qfile}: no questions in it")
    _add_folder(folder, documents)
    ds = Dataset(f"jsonl:{path}", documents, questions)
    ds.validate()
    return ds


def load_dataset(spec: str) -> Dataset:
    kind, sep, path = spec.partition(":")
    if not sep or kind not in ("chroma", "jsonl"):
        raise DatasetError(f"dataset {spec!r}: expected chroma:PATH or jsonl:PATH")
    return load_chroma(path) if kind == "chroma" else load_jsonl(path)
