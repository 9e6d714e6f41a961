"""What the evaluation sets' build scripts share: writing questions.jsonl."""

from __future__ import annotations

import json
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
