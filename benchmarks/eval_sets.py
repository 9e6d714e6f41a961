"""Builds an evaluation set's questions.jsonl from its questions_src.py:

    .venv/bin/python benchmarks/eval_sets.py benchmarks/SET

``questions_src.py`` holds ``QUESTIONS`` and ``TAGS`` (the tags allowed), and for a
one-book set ``BOOK`` (its file in docs/; each question's evidence runs from its
``start`` text to its ``end`` text, at most ``LONGEST`` characters); otherwise each
question names its ``doc`` and its ``evidence`` (see :func:`build_evidence`).
Nothing is written when any question has a problem (each is printed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def write_questions(folder: Path, rows: list[dict[str, Any]], problems: list[str],
                    what: str = "") -> int:
    """Print ``problems`` and write nothing (1) if there are any, else write the
    rows to ``folder/questions.jsonl`` in our dataset format and print a summary
    (``what``: words after the count of questions)."""
    for p in problems:
        print(p)
    if problems:
        return 1
    (folder / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                    for r in rows), encoding="utf-8")
    tags = Counter(t for r in rows for t in r["tags"])
    print(f"{len(rows)} questions{what}; tags {dict(tags)}")
    return 0


def locate_anchored(text: str, doc_id: str, questions: list[dict[str, Any]],
                    tags: set[str], longest: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows for questions whose evidence runs from their ``start`` text (which must
    occur once in ``text``) to the end of the first ``end`` text after it, and the
    problems found (a start not found or found twice, an end not found, evidence
    longer than ``longest`` characters, a tag not in ``tags``)."""
    rows, problems = [], []
    for n, q in enumerate(questions, start=1):
        start = text.find(q["start"])
        if start < 0 or text.find(q["start"], start + 1) >= 0:
            problems.append(f"{n}: start text found {text.count(q['start'])} times: "
                            f"{q['start'][:60]!r}")
            continue
        end = text.find(q["end"], start)
        if end < 0:
            problems.append(f"{n}: end text not found after the start: {q['end'][:60]!r}")
            continue
        end += len(q["end"])
        if end - start > longest:
            problems.append(f"{n}: evidence of {end - start} characters")
        if not set(q["tags"]) <= tags:
            problems.append(f"{n}: unknown tags {set(q['tags']) - tags}")
        rows.append({"question": q["question"], "doc_id": doc_id,
                     "references": [{"start": start, "end": end, "content": text[start:end]}],
                     "tags": q["tags"], "answer": q["answer"]})
    return rows, problems


def build_anchored(folder: Path, doc: str, questions: list[dict[str, Any]], tags: set[str],
                   longest: int) -> int:
    """A one-book set's build: locate ``questions`` in ``folder/docs/doc`` as the
    reader extracts it and write ``folder/questions.jsonl`` (1 and nothing written if
    any question has a problem)."""
    from chunkwise.readers import read_path

    text = read_path(folder / "docs" / doc).text
    rows, problems = locate_anchored(text, f"docs/{doc}", questions, tags, longest)
    return write_questions(folder, rows, problems)


def build_evidence(folder: Path, questions: list[dict[str, Any]], tags: set[str]) -> int:
    """A set of several documents: every piece of a question's ``evidence`` is located
    in the text the reader extracts from ``folder/docs/<doc>``, which must hold it
    exactly once (or, with ``after``, its first occurrence after that text); writes
    ``folder/questions.jsonl`` (1 and nothing written on any problem)."""
    from chunkwise.readers import read_path

    texts: dict[str, str] = {}
    rows, problems = [], []
    for n, q in enumerate(questions, start=1):
        doc = q["doc"]
        if doc not in texts:
            texts[doc] = read_path(folder / "docs" / doc).text
        text = texts[doc]
        refs = []
        base = text.find(q["after"]) if q.get("after") else 0
        if base < 0:
            problems.append(f"{n} {doc}: 'after' text not found")
            continue
        for ev in q["evidence"]:
            start = text.find(ev, base)
            if start < 0:
                problems.append(f"{n} {doc}: evidence not found: {ev[:70]!r}")
                continue
            if not q.get("after") and text.find(ev, start + 1) >= 0:
                problems.append(f"{n} {doc}: evidence occurs more than once: {ev[:70]!r}")
                continue
            refs.append({"start": start, "end": start + len(ev), "content": ev})
        if not set(q["tags"]) <= tags:
            problems.append(f"{n}: unknown tags {set(q['tags']) - tags}")
        rows.append({"question": q["question"], "doc_id": f"docs/{doc}", "references": refs,
                     "tags": q["tags"]})
    return write_questions(folder, rows, problems, f" over {len(texts)} documents")


def build(folder: Path) -> int:
    """The set in ``folder``, built from its ``questions_src.py`` (see the module's
    docstring)."""
    spec = importlib.util.spec_from_file_location("questions_src", folder / "questions_src.py")
    assert spec is not None and spec.loader is not None
    src = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(src)
    if hasattr(src, "BOOK"):
        return build_anchored(folder, src.BOOK, src.QUESTIONS, src.TAGS,
                              getattr(src, "LONGEST", 400))
    return build_evidence(folder, src.QUESTIONS, src.TAGS)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python benchmarks/eval_sets.py benchmarks/SET")
    raise SystemExit(build(Path(sys.argv[1]).resolve()))
