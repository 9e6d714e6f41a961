"""The chunking flags as data: each flag's destination is the name of the strategy
option it sets (``--code-language`` -> ``code_language``), so adding an option to a
strategy means adding one row here (a test checks every row names a real option)."""

from __future__ import annotations

import argparse
from typing import Any


def overlap_value(value: str) -> int | float:
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a token count (32) or a fraction of size (0.15), got {value!r}") from None


def threshold_value(value: str) -> str | float:
    if value in ("percentile", "std", "interquartile", "gradient"):
        return value
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected percentile, std, interquartile, gradient or a distance, got {value!r}"
        ) from None


def sizes_value(value: str) -> list[int]:
    try:
        return [int(x) for x in value.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {value!r}") from None


def separators_value(value: str) -> str:
    """A literal separator; escape sequences such as ``\\n`` are understood."""
    return value.encode("utf-8").decode("unicode_escape") if "\\" in value else value

Flag = tuple[tuple[str, ...], dict[str, Any]]

CHUNK_FLAGS: list[Flag] = [
    (("--overlap",), dict(
        type=overlap_value, default=None, metavar="N|F",
        help="overlap between neighbouring chunks, in tokens (32) or as a fraction of size "
             "(0.15); must be smaller than size (default: 0; hierarchical: a fifth of the "
             "child size, at most 40, at the child level)")),
    (("--sizes",), dict(type=sizes_value, default=None, metavar="N,N[,N]",
                        help="hierarchical: size of each level, largest first "
                             "(default: 800,200)")),
    (("--max-tokens",), dict(
        type=int, default=None, metavar="N",
        help="hard limit on tokens of context + text for every chunk (default: the model's "
             "maximum sequence length less its special tokens where known, else --size)")),
    (("--min-tokens",), dict(
        type=int, default=None, metavar="N",
        help="smallest chunk in tokens, but a whole document or section smaller than it "
             "(default: a sixteenth of the token limit, 10 at 160); 0 turns it off")),
    (("--max-chars",), dict(
        type=int, default=None, metavar="N",
        help="hard limit on characters of context + text (default: 16 x the token limit; "
             "bounds text that a tokenizer counts as few tokens)")),
    (("--tokenizer", "-t"), dict(
        default=None, metavar="NAME|PATH",
        help="minilm (default: the bundled all-MiniLM-L6-v2), cl100k_base, o200k_base, chars, "
             "words, or a path to a tokenizer.json or a model folder")),
    (("--separators",), dict(
        nargs="+", type=separators_value, default=None, metavar="SEP",
        help="recursive strategy only: literal separators in priority order (escape "
             "sequences such as \\n are understood)")),
    (("--language",), dict(default=None,
                           help="language code for sentence boundaries (default: en)")),
    (("--code-language",), dict(
        default=None, metavar="LANG",
        help="code strategy: the programming language when the file extension does not say "
             "(python, javascript, typescript, tsx, go, rust, java, c, cpp, c_sharp)")),
    (("--window-seconds",), dict(
        type=float, default=None, metavar="S",
        help="transcript strategy: a new chunk where each S-second window starts")),
    (("--references-budget",), dict(
        type=int, default=None, metavar="TOKENS",
        help="legal strategy: tokens of context for resolved cross-references and "
             "definitions (default: a quarter of the size)")),
    (("--merge-sections",), dict(action="store_true",
                                 help="section strategy: merge small sibling sections up to "
                                      "--size")),
    (("--table-rows",), dict(
        choices=("group", "row"), default=None,
        help="tables longer than the table budget split into row groups with the header "
             "repeated (group, default), or one chunk per row (row)")),
    (("--threshold",), dict(
        type=threshold_value, default=None, metavar="METHOD|DISTANCE",
        help="semantic: percentile, std, interquartile or gradient (the threshold taken from "
             "the distribution of neighbour distances), or a cosine distance such as 0.25 "
             "(cut wherever the distance reaches it)")),
    (("--amount",), dict(type=float, default=None,
                         help="semantic: the threshold's parameter (percentile 90, std 1.5, "
                              "...)")),
    (("--window",), dict(type=int, default=None,
                         help="semantic: sentences compared on each side of a gap "
                              "(default: 2)")),
    (("--min-size",), dict(type=int, default=None,
                           help="semantic: smallest chunk in tokens (default: 0)")),
    (("--merge",), dict(type=float, default=None, metavar="SIM",
                        help="semantic: merge neighbouring chunks whose similarity is at "
                             "least SIM")),
    (("--headers",), dict(
        action="store_true",
        help="recursive/sentence: headings become hard boundaries and each chunk carries its "
             "heading trail as context (always on for section)")),
]

#: the strategy options the flags above (and --size) set, by their library names
STRATEGY_OPTIONS = ("size", "overlap", "tokenizer", "max_tokens", "max_chars", "min_tokens",
                    "separators",
                    "language", "table_rows", "threshold", "amount", "window", "min_size",
                    "merge", "merge_sections", "headers", "code_language", "window_seconds",
                    "references_budget", "sizes")

CONTEXT_FLAGS: list[Flag] = [
    (("--contextualize",), dict(
        default=None, metavar="LLM",
        help="anthropic:MODEL, openai:MODEL[@BASE_URL], local[:PATH.gguf] (llama.cpp, default "
             "model Gemma 3 270M, offline) or title (the document title, no LLM): its "
             "sentences go into each chunk's context")),
    (("--context-tokens",), dict(
        type=int, default=None, metavar="N",
        help="tokens of the budget (size) reserved for the LLM's context at packing time "
             "(default: 80); context + text stays within the budget")),
    (("--context-position",), dict(
        choices=("before", "after"), default=None,
        help="the LLM's sentences after the heading trail (default, measured) or before it")),
    (("--llm-concurrency",), dict(type=int, default=None, metavar="N",
                                  help="LLM calls in flight (default: 8 hosted, 1 local)")),
    (("--llm-timeout",), dict(
        type=float, default=None, metavar="S",
        help="seconds one LLM request may take (default: 60); a request that times out is "
             "retried once, and a call with its retries takes at most 3 times this")),
    (("--prices",), dict(
        default=None, metavar="FILE.json",
        help="prices for the cost estimate: {MODEL: {input, cache_write, cached, output}} in "
             "US dollars per million tokens")),
    (("--no-llm-cache",), dict(
        action="store_true",
        help="do not read or write the LLM answer cache (~/.cache/chunkwise/llm.sqlite)")),
    (("--dry-run",), dict(
        action="store_true",
        help="with --contextualize (or eval --answers): chunk (and retrieve), print the "
             "calls, tokens and cost it would take, call nothing and write nothing")),
]

#: eval's --sample, then its answer-quality flags
EVAL_ANSWER_FLAGS: list[Flag] = [
    (("--sample",), dict(
        type=int, default=None, metavar="N",
        help="score N questions spread evenly over the dataset (the same ones every run; "
             "retrieval still searches every document): a quicker, cheaper run")),
    (("--answers",), dict(
        action="store_true",
        help="answer every question from its ranking's chunks within --budget tokens (parents "
             "with --expand) and report answer_score (judge against the reference, 0/0.5/1), "
             "answer_f1 (token F1, no model), faithfulness (judge against the context) and "
             "abstained beside recall")),
    (("--llm",), dict(
        default=None, metavar="LLM",
        help="with --answers: the answering model: anthropic:MODEL, openai:MODEL[@BASE_URL] "
             "or local[:PATH.gguf]")),
    (("--judge",), dict(
        default=None, metavar="LLM",
        help="with --answers: the grading model (default: the --llm model)")),
]
