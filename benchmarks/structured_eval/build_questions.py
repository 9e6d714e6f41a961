"""Write questions.jsonl (our dataset format) from questions_src.py: every piece of
evidence is located in the text the reader extracts from its document, which must
hold it exactly once (or, with ``after``, its first occurrence after that text).

    .venv/bin/python benchmarks/structured_eval/build_questions.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from chunkwise.readers import read_path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from questions_src import QUESTIONS  # noqa: E402

from eval_sets import write_questions  # noqa: E402

TAGS = {"table", "heading-dependent", "procedure", "prose", "code"}


def main() -> int:
    texts: dict[str, str] = {}
    rows, problems = [], []
    for n, q in enumerate(QUESTIONS, start=1):
        doc = q["doc"]
        if doc not in texts:
            texts[doc] = read_path(HERE / "docs" / doc).text
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
        if not set(q["tags"]) <= TAGS:
            problems.append(f"{n}: unknown tags {set(q['tags']) - TAGS}")
        rows.append({"question": q["question"], "doc_id": f"docs/{doc}", "references": refs,
                     "tags": q["tags"]})
    return write_questions(HERE, rows, problems, f" over {len(texts)} documents")


if __name__ == "__main__":
    sys.exit(main())
