"""Evaluation datasets: questions with reference character spans over a corpus."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError
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


@dataclass
class Dataset:
    name: str
    documents: dict[str, Document]
    questions: list[Question] = field(default_factory=list)

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
    """(line number, object) for each non-blank line; a clear error for bad JSON."""
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield line_no, json.loads(line)
            except ValueError as exc:
                raise DatasetError(f"{path}:{line_no}: not JSON ({exc})") from None


def load_chroma(path: str | Path) -> Dataset:
    """Chroma's chunking-evaluation format: questions_df.csv + <corpus_id>.md."""
    folder = Path(path)
    csv_path = folder / "questions_df.csv"
    if not csv_path.is_file():
        raise DatasetError(f"{folder}: no questions_df.csv (expected Chroma's format)")
    csv.field_size_limit(sys.maxsize)
    questions, documents = [], {}
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row_no, row in enumerate(csv.DictReader(f), start=2):
            try:
                refs = json.loads(row["references"])
                corpus = row["corpus_id"]
                q = Question(row["question"], corpus, tuple(
                    Reference(int(r["start_index"]), int(r["end_index"]), r["content"])
                    for r in refs), tags=(corpus,))
            except (KeyError, ValueError, TypeError) as exc:
                raise DatasetError(f"{csv_path}:{row_no}: malformed row ({exc})") from None
            if corpus not in documents:
                doc_path = folder / f"{corpus}.md"
                if not doc_path.is_file():
                    raise DatasetError(f"{csv_path}:{row_no}: corpus file {doc_path} missing")
                doc = read_path(doc_path)
                documents[corpus] = Document(doc.text, corpus, str(doc_path), doc.title,
                                             doc.blocks, doc.metadata)
            questions.append(q)
    ds = Dataset(f"chroma:{folder}", documents, questions)
    ds.validate()
    return ds


def load_jsonl(path: str | Path) -> Dataset:
    """Our format: a folder of documents plus questions.jsonl lines
    {"question", "doc_id", "references": [{"start", "end", "content"}], "tags": [...]}
    with doc_id the document's path relative to the folder."""
    path = Path(path)
    folder, qfile = (path, path / "questions.jsonl") if path.is_dir() else (path.parent, path)
    if not qfile.is_file():
        raise DatasetError(f"{path}: no questions.jsonl")
    questions, documents = [], {}
    for line_no, obj in iter_jsonl(qfile):
        try:
            refs = tuple(Reference(int(r["start"]), int(r["end"]), r["content"])
                         for r in obj["references"])
            q = Question(obj["question"], obj["doc_id"], refs, tuple(obj.get("tags", ())))
        except (KeyError, ValueError, TypeError) as exc:
            raise DatasetError(f"{qfile}:{line_no}: malformed line ({exc})") from None
        if q.doc_id not in documents:
            doc_path = folder / q.doc_id
            if not doc_path.is_file():
                raise DatasetError(f"{qfile}:{line_no}: document {doc_path} missing")
            doc = read_path(doc_path)
            documents[q.doc_id] = Document(doc.text, q.doc_id, str(doc_path), doc.title,
                                           doc.blocks, doc.metadata)
        questions.append(q)
    ds = Dataset(f"jsonl:{path}", documents, questions)
    ds.validate()
    return ds


def load_dataset(spec: str) -> Dataset:
    kind, sep, path = spec.partition(":")
    if not sep or kind not in ("chroma", "jsonl"):
        raise DatasetError(f"dataset {spec!r}: expected chroma:PATH or jsonl:PATH")
    return load_chroma(path) if kind == "chroma" else load_jsonl(path)
