"""Evaluation harness: which chunking retrieves best, measured on questions with
reference spans (Chroma's protocol and metrics, plus answer-intact, budget recall, MRR),
and, with an :class:`Answerer`, the quality of an LLM's answers from the retrieved context."""

from .answers import ANSWER_KEYS, Answerer
from .data import Dataset, DatasetError, Question, Reference, load_chroma, load_dataset, load_jsonl
from .run import METRIC_KEYS, Result, Span, evaluate, spans_from_chunks, spans_from_jsonl

__all__ = ["ANSWER_KEYS", "Answerer", "Dataset", "DatasetError", "Question", "Reference",
           "load_chroma", "load_dataset", "load_jsonl", "METRIC_KEYS", "Result", "Span",
           "evaluate", "spans_from_chunks", "spans_from_jsonl"]
