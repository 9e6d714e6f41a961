"""Write questions.jsonl (our dataset format) from questions_src.py: each question's
evidence runs from its ``start`` text (which must occur once in the book) to the
end of the first ``end`` text after it, in the text the reader extracts.

    .venv/bin/python benchmarks/narrative_confirm/build_questions.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from questions_src import QUESTIONS  # noqa: E402

from eval_sets import build_anchored  # noqa: E402

#: evidence is a sentence or two: a longer span is a wrong ``end``
LONGEST = 400

if __name__ == "__main__":
    raise SystemExit(build_anchored(HERE, "pride-and-prejudice.txt", QUESTIONS,
                                    {"dialogue", "narration", "number"}, LONGEST))
