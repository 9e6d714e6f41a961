"""Write questions.jsonl (our dataset format) from questions_src.py: every piece of
evidence is located in the text the reader extracts from its document, which must
hold it exactly once (or, with ``after``, its first occurrence after that text).

    .venv/bin/python benchmarks/docs_heldout/build_questions.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from questions_src import QUESTIONS  # noqa: E402

from eval_sets import build_evidence  # noqa: E402

TAGS = {"table", "heading-dependent", "procedure", "prose", "code"}


def main() -> int:
    return build_evidence(HERE, QUESTIONS, TAGS)


if __name__ == "__main__":
    sys.exit(main())
