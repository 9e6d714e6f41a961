"""Write questions.jsonl (our dataset format) from questions_src.py: each question's
evidence runs from its ``start`` text (which must occur once in the story) to the
end of the first ``end`` text after it, in the text the reader extracts.

    .venv/bin/python benchmarks/narrative_eval/build_questions.py
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

DOC = "adventures-of-sherlock-holmes.txt"
TAGS = {"dialogue", "narration", "number"}
#: evidence is a sentence or two: a longer span is a wrong ``end``
LONGEST = 400


def main() -> int:
    text = read_path(HERE / "docs" / DOC).text
    rows, problems = [], []
    for n, q in enumerate(QUESTIONS, start=1):
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
        if end - start > LONGEST:
            problems.append(f"{n}: evidence of {end - start} characters")
        if not set(q["tags"]) <= TAGS:
            problems.append(f"{n}: unknown tags {set(q['tags']) - TAGS}")
        rows.append({"question": q["question"], "doc_id": f"docs/{DOC}",
                     "references": [{"start": start, "end": end, "content": text[start:end]}],
                     "tags": q["tags"], "answer": q["answer"]})
    return write_questions(HERE, rows, problems)


if __name__ == "__main__":
    raise SystemExit(main())
