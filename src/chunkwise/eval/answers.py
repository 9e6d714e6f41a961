"""Answer quality: an LLM answers each question from the retrieved context, and each
answer is graded, so chunkings compare on what the model can do with their chunks,
not only on what retrieval finds.

For each question the **context** is the ranking's chunks (their parents with
``expand="parents"``, deduplicated) in rank order until the token budget is full
(the chunk that crosses it gives the proportional prefix of its text): every
chunking is judged at the same budget, the one ``budget_recall`` measures.

- ``answer_score``: a judge (an LLM, by default the answering one) compares the
  answer with the question's reference evidence (and its reference answer, when
  the dataset has one) under a fixed rubric: 1, 0.5 or 0 (:data:`CORRECT_RUBRIC`).
- ``answer_f1``: model-free, the token F1 of the answer against the reference
  answer when the dataset has one, else against the evidence (SQuAD's
  normalisation: lower case, no punctuation or articles).
- ``faithfulness``: the judge's 1, 0.5 or 0 for whether every claim of the
  answer is supported by the context it was given (:data:`FAITHFUL_RUBRIC`).
- ``abstained``: the share of answers that say the context does not tell.

Every reply is kept in the LLM cache (:class:`~chunkwise.llm.LLMCache`) under the
model, :data:`ANSWER_VERSION` or :data:`RUBRIC_VERSION` and the whole prompt, so a
re-run makes no call; ``dry_run`` counts the calls and tokens a run would take
(from the cache where it already holds the answer) and calls nothing.
"""

from __future__ import annotations

import json
import re
import string
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import check_seconds
from ..errors import ConfigError
from ..llm import LLM, LLMCache, LocalLLM, Reply, Usage, get_llm, text_hash
from .data import Question

#: a change of the answering prompt changes this, and so the answers' cache keys
ANSWER_VERSION = "1"
#: a change of either rubric changes this, and so the judgements' cache keys
RUBRIC_VERSION = "1"
#: what eval reports per run (percent), beside the retrieval metrics
ANSWER_KEYS = ("answer_score", "answer_f1", "faithfulness", "abstained")
#: tokens an answer may take; a judgement
ANSWER_TOKENS = 200
JUDGE_TOKENS = 120
#: what an answer says when the context does not tell (counted as ``abstained``)
ABSTAIN = "The passages do not say."

_TAGS = re.compile(r"<(\s*/?\s*(?:passages?|question|answer|reference|reference_answer|"
                   r"document|chunk)\b[^<>]*)>", re.I)

CONTEXT_PROMPT = "<passages>\n{passages}</passages>\n"
PASSAGE_PROMPT = "<passage>\n{text}\n</passage>\n"
ANSWER_PROMPT = (
    "<question>\n{question}\n</question>\n"
    "Answer the question using only the passages above, in one to three sentences. If the "
    f"passages do not tell, answer exactly: {ABSTAIN}")
CORRECT_RUBRIC = (
    "Grade the answer against the reference, which holds the correct information. "
    "Score 1: the answer states what the reference states in answer to the question "
    "(in any words). Score 0.5: it states part of it, or states it with a minor error. "
    "Score 0: it does not state it, says the passages do not tell, or contradicts the "
    'reference. Reply with JSON only, on one line: {"score": 0 or 0.5 or 1, "reason": "..."}')
FAITHFUL_RUBRIC = (
    "Check the answer against the passages above only, not against what you know. "
    "Score 1: every claim of the answer is supported by the passages, or the answer says "
    "the passages do not tell. Score 0.5: its main claim is supported but a detail is not. "
    "Score 0: its main claim is not supported by the passages, or contradicts them. "
    'Reply with JSON only, on one line: {"score": 0 or 0.5 or 1, "reason": "..."}')
#: how a judgement starts, for a base model that continues text
JUDGE_LEAD = '{"score": '
#: what may follow the lead where the provider enforces a grammar (llama.cpp): a
#: score on the scale, so a small local model's grade can always be read
JUDGE_GRAMMAR = 'root ::= ("0" | "0.5" | "1") "}"'
#: characters per token assumed by the dry-run estimate
CHARS_PER_TOKEN = 4


def escape(text: str) -> str:
    """``text`` with the prompts' own tags written ``&lt;/passage&gt;``, so a document
    cannot close its section of a prompt."""
    return _TAGS.sub(r"&lt;\1&gt;", text)


@dataclass(frozen=True, slots=True)
class Passage:
    """One chunk of a question's context."""

    id: str
    doc_id: str
    start: int
    end: int
    text: str
    tokens: int


@dataclass(frozen=True, slots=True)
class Item:
    """A question and the context retrieval gave it."""

    question: Question
    passages: tuple[Passage, ...]

    @property
    def context_tokens(self) -> int:
        return sum(p.tokens for p in self.passages)


@dataclass
class Graded:
    """One question's answer and grades (``None``: the judge's reply could not be read,
    or a dry run)."""

    answer: str
    answer_score: float | None
    answer_f1: float
    faithfulness: float | None
    abstained: float
    reasons: dict[str, str] = field(default_factory=dict)

    def scores(self) -> dict[str, float | None]:
        return {"answer_score": self.answer_score, "answer_f1": self.answer_f1,
                "faithfulness": self.faithfulness, "abstained": self.abstained}


# -- model-free scores -----------------------------------------------------------

_PUNCT = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def normalise(text: str) -> list[str]:
    """SQuAD's answer normalisation: lower case, punctuation and articles removed."""
    return _ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split()


def token_f1(answer: str, reference: str) -> float:
    """Token F1 of ``answer`` against ``reference`` (0 when either has no token)."""
    a, r = normalise(answer), normalise(reference)
    common = sum((Counter(a) & Counter(r)).values())
    if not a or not r or not common:
        return 0.0
    precision, recall = common / len(a), common / len(r)
    return 2 * precision * recall / (precision + recall)


def abstains(answer: str) -> bool:
    return normalise(answer) == normalise(ABSTAIN)


_SCORE = re.compile(r'"?score"?\s*:\s*"?\s*(0(?:\.0+)?|0?\.5|1(?:\.0+)?)\s*"?\s*[,}]')


def parse_grade(text: str) -> tuple[float, str] | None:
    """(score, reason) from a judge's reply: a JSON object whose score is 0, 0.5 or
    1 (as a number or a string), or failing that a ``"score": N`` in the text."""
    for match in re.finditer(r"\{[^{}]*\}", text, re.S):
        try:
            obj = json.loads(match.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict) and "score" in obj:
            try:
                score = float(obj["score"])
            except (TypeError, ValueError):
                continue
            if score in (0.0, 0.5, 1.0):
                return score, str(obj.get("reason", "")).strip()
    found = _SCORE.search(text)
    return (float(found.group(1)), "") if found else None


# -- the calls -------------------------------------------------------------------

@dataclass
class CallReport:
    """What one role (answering or judging) cost."""

    role: str
    model: str
    calls_wanted: int = 0
    from_cache: int = 0
    #: judgements whose reply had no 0/0.5/1 score (left out of the means)
    unread: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    prices: dict[str, dict[str, float]] | None = None

    def line(self, estimate: bool = False) -> str:
        u = self.usage
        price = u.price(self.model, self.prices)
        head = f"{self.role} estimate (no call made)" if estimate else self.role
        unread = f", {self.unread:,} unreadable (left out)" if self.unread else ""
        return (f"{head}: {self.model}: {self.calls_wanted:,} prompts ({self.from_cache:,} from "
                f"cache, {u.calls:,} calls{unread}) tokens in {u.input:,} ({u.cached:,} cached) "
                f"out {u.output:,}; {price}" + ("" if estimate else f"; {self.seconds:.1f} s"))


class _Role:
    """One model in one role: its spec, its client (none in a dry run), its report."""

    def __init__(self, role: str, spec: str | LLM, dry_run: bool, timeout: float | None,
                 prices: dict[str, dict[str, float]] | None, shared: _Role | None = None):
        self.llm: LLM | None = None
        self.spec: str
        self.model: str
        if shared is not None and shared.spec == spec:
            self.llm, self.spec, self.model = shared.llm, shared.spec, shared.model
        elif dry_run and isinstance(spec, str):  # an estimate needs no client (nor key)
            self.spec, self.model = spec, spec.partition(":")[2].partition("@")[0] or spec
        else:
            self.llm = get_llm(spec)
            if timeout is not None:
                self.llm.timeout = timeout
            self.spec, self.model = self.llm.spec, self.llm.model
        self.report = CallReport(role, self.model, prices=prices)
        self.owned = shared is None or self.llm is not shared.llm

    @property
    def concurrency(self) -> int:
        if self.llm is not None:
            return self.llm.concurrency
        return LocalLLM.concurrency if self.spec.startswith("local") else LLM.concurrency


class Answerer:
    """Answers questions from their context with one LLM and grades the answers with
    a judge (the same LLM unless ``judge`` names another)."""

    def __init__(self, llm: str | LLM, judge: str | LLM | None = None, *,
                 concurrency: int | None = None, cache: bool | str | Path = True,
                 timeout: float | None = None, prices: dict[str, dict[str, float]] | None = None,
                 dry_run: bool = False):
        timeout = None if timeout is None else check_seconds("llm_timeout", timeout)
        if concurrency is not None and (isinstance(concurrency, bool)
                                        or not isinstance(concurrency, int) or concurrency < 1):
            raise ConfigError(f"llm_concurrency must be a positive integer, got {concurrency!r}")
        self.dry_run = dry_run
        self.answering = _Role("answers", llm, dry_run, timeout, prices)
        self.judging = _Role("judge", judge if judge is not None else self.answering.spec,
                             dry_run, timeout, prices, shared=self.answering)
        self.concurrency = concurrency or min(self.answering.concurrency,
                                              self.judging.concurrency)
        self.cache = LLMCache(None if cache is True else cache) if cache else None
        self._lock = threading.Lock()
        #: ``progress(done, total)``: called as the questions of a run are graded
        self.progress: Callable[[int, int], object] | None = None

    def describe(self) -> dict[str, Any]:
        return {"llm": self.answering.spec, "judge": self.judging.spec,
                "answer_prompt": ANSWER_VERSION, "rubric": RUBRIC_VERSION}

    def lines(self) -> list[str]:
        """The cost lines of answering and judging."""
        return [self.answering.report.line(self.dry_run), self.judging.report.line(self.dry_run)]

    # -- prompts -----------------------------------------------------------------

    @staticmethod
    def context(item: Item) -> str:
        return CONTEXT_PROMPT.format(passages="".join(
            PASSAGE_PROMPT.format(text=escape(p.text)) for p in item.passages))

    @staticmethod
    def reference(q: Question) -> str:
        evidence = "\n...\n".join(r.content for r in q.references)
        out = (f"<question>\n{escape(q.question)}\n</question>\n"
               f"<reference>\n{escape(evidence)}\n</reference>\n")
        if q.answer:
            out += f"<reference_answer>\n{escape(q.answer)}\n</reference_answer>\n"
        return out

    # -- calls -------------------------------------------------------------------

    def _ask(self, role: _Role, version: str, prefix: str, suffix: str, max_tokens: int,
             lead: str = "", grammar: str | None = None) -> str | None:
        """The reply to ``prefix + suffix``: from the cache, else from the model (a dry
        run counts the tokens it would take and returns None)."""
        key = LLMCache.key(role.spec, version, text_hash(prefix), text_hash(suffix),
                           str(max_tokens), grammar or "")
        cached = self.cache.get(key) if self.cache else None
        with self._lock:
            role.report.calls_wanted += 1
            role.report.from_cache += cached is not None
        if cached is not None:
            return cached.text
        if role.llm is None:  # dry run: every call reads its prefix from the cache but the first
            n_in = (len(prefix) + len(suffix)) // CHARS_PER_TOKEN
            with self._lock:
                role.report.usage.add(Usage(calls=1, input=n_in, output=max_tokens))
            return None
        t0 = time.perf_counter()
        reply: Reply = role.llm.complete(prefix, suffix, max_tokens, lead=lead, grammar=grammar)
        with self._lock:
            role.report.usage.add(reply.usage)
            role.report.seconds += time.perf_counter() - t0
        if self.cache and reply.text.strip():
            self.cache.put(key, Reply(reply.text, reply.usage))
        return reply.text

    def _judge(self, prefix: str, answer: str, rubric: str) -> tuple[float | None, str]:
        suffix = f"<answer>\n{escape(answer)}\n</answer>\n{rubric}"
        text = self._ask(self.judging, "judge-" + RUBRIC_VERSION, prefix, suffix, JUDGE_TOKENS,
                         lead=JUDGE_LEAD, grammar=JUDGE_GRAMMAR)
        if text is None:
            return None, ""
        grade = parse_grade(text)
        if grade is None:
            with self._lock:
                self.judging.report.unread += 1
            return None, text.strip()[:200]
        return grade

    def grade(self, item: Item) -> Graded:
        """One question: answered, then judged against its reference and its context."""
        q = item.question
        context = self.context(item)
        answer = self._ask(self.answering, "answer-" + ANSWER_VERSION, context,
                           ANSWER_PROMPT.format(question=escape(q.question)), ANSWER_TOKENS)
        if answer is None:  # dry run: the judge's prompts with an answer of full length
            placeholder = "x" * (ANSWER_TOKENS * CHARS_PER_TOKEN)
            self._judge(self.reference(q), placeholder, CORRECT_RUBRIC)
            self._judge(context, placeholder, FAITHFUL_RUBRIC)
            return Graded("", None, 0.0, None, 0.0)
        answer = " ".join(answer.split())
        correct, why_correct = self._judge(self.reference(q), answer, CORRECT_RUBRIC)
        faithful, why_faithful = self._judge(context, answer, FAITHFUL_RUBRIC)
        target = q.answer or " ".join(r.content for r in q.references)
        return Graded(answer, correct, token_f1(answer, target), faithful,
                      float(abstains(answer)),
                      {"answer_score": why_correct, "faithfulness": why_faithful})

    def grade_all(self, items: Sequence[Item]) -> list[Graded]:
        """Every question, ``concurrency`` at a time (in order); the first failure
        cancels the questions not yet started and is raised."""
        done = [0]

        def one(item: Item) -> Graded:
            graded = self.grade(item)
            with self._lock:
                done[0] += 1
                if self.progress is not None:
                    self.progress(done[0], len(items))
            return graded

        if self.progress is not None:
            self.progress(0, len(items))
        if self.concurrency <= 1 or len(items) <= 1:
            return [one(item) for item in items]
        pool = ThreadPoolExecutor(max_workers=self.concurrency)
        try:
            futures = [pool.submit(one, item) for item in items]
            return [f.result() for f in futures]
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        for role in (self.answering, self.judging):
            if role.llm is not None and role.owned:
                role.llm.close()
        if self.cache is not None:
            self.cache.close()
            self.cache = None
