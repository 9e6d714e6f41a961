"""What every command shares: one-line errors, the chunking options (flags named after
the strategies' options), the chunker they describe, the LLM cost line, progress bars;
the strategies and readers imported where used (a search loads none of them)."""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import ChunkwiseError
from .generated import generated_flags
from .options import CHUNK_FLAGS, CONTEXT_FLAGS, STRATEGY_OPTIONS
from .output import CallBars, warning
from .settings import add_config_flags

if TYPE_CHECKING:
    from ..strategies import Chunker

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
ENCODING_HELP = ("text encoding of the inputs (default: UTF-8, or UTF-16/UTF-32 with a BOM; "
                 "auto: UTF-8 where the bytes are, else the encoding they show, Windows-1252 "
                 "for Western European text)")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is so that outputs are cleaned up; handled
    where an interruption is (an index run writes the batch it was embedding, a
    parser's panic fallback lets it through), said and exited as a termination."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``chunkwise: error: ...``, exit 2)."""

    def error(self, message: str) -> NoReturn:
        print(f"chunkwise: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def key_values(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ChunkwiseError(f"--metadata: expected KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def uses_embedder(name: str, options: dict[str, Any]) -> bool:
    """Whether this strategy (or a level of this hierarchy) embeds while it cuts."""
    if name == "semantic":
        return True
    levels = options.get("strategies") or ()
    return name == "hierarchical" and any(
        (s if isinstance(s, str) else s[0]) == "semantic" for s in levels)


def add_chunk_options(p: argparse.ArgumentParser) -> None:
    """The chunking flags: one per strategy option (``--code-language`` sets the
    strategy option ``code_language``), each given to the library only when set."""
    from ..config import DEFAULT_SIZE
    from ..readers import READERS
    from ..strategies import STRATEGIES
    from ..strategies.basic import NARRATIVE_SIZE, REFERENCE_SIZE

    p.add_argument("--strategy", "-s", default=None, metavar="NAME",
                   help=f"chunking strategy: {', '.join(STRATEGIES.names())} (default: auto)")
    p.add_argument("--size", type=int, default=None,
                   help=f"target chunk size in tokens, context included (default: {DEFAULT_SIZE}; "
                        f"auto gives narrative prose {NARRATIVE_SIZE}, reference documentation "
                        f"{REFERENCE_SIZE}; capped at --max-tokens)")
    for flags, kwargs in CHUNK_FLAGS:
        p.add_argument(*flags, **kwargs)
    taken = {s for action in p._actions for s in action.option_strings}
    for flags, kwargs in generated_flags(strategy_option_specs()):
        if not taken.intersection(flags):  # a plug-in's option named like a flag here
            p.add_argument(*flags, **kwargs)
    p.add_argument("--input-format", default="auto", choices=("auto", *READERS.names()),
                   help="how to read the inputs (default: auto, by file extension, then content; "
                        "html-all keeps a whole web page, html keeps its main content; code "
                        "reads source files, srt/vtt subtitles, chat a chat JSON, transcript "
                        "speaker lines)")
    add_config_flags(p)
    g = p.add_argument_group("contextual retrieval (an LLM situates each chunk in its document)")
    for flags, kwargs in CONTEXT_FLAGS:
        g.add_argument(*flags, **kwargs)


def known_settings() -> set[str]:
    """The option names a settings file may give."""
    return set(STRATEGY_OPTIONS) | set(strategy_option_specs()) | {
        "contextualize", "context_tokens", "context_position"}


def strategy_option_specs() -> dict[str, list[tuple[str, object, object]]]:
    """Every registered strategy's options: option -> (strategy, annotation, default)."""
    from ..strategies import STRATEGIES, option_specs
    specs: dict[str, list[tuple[str, object, object]]] = {}
    for name in STRATEGIES.names():
        for option, (annotation, default) in option_specs(STRATEGIES[name]).items():
            specs.setdefault(option, []).append((name, annotation, default))
    return specs


def read_prices(args: argparse.Namespace) -> dict[str, dict[str, float]] | None:
    """The prices ``--prices FILE.json`` gives, if any."""
    if not getattr(args, "prices", None):
        return None
    try:
        prices = json.loads(Path(args.prices).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ChunkwiseError(f"--prices {args.prices}: {exc}") from None
    if not isinstance(prices, dict):
        raise ChunkwiseError(f"--prices {args.prices}: expected an object of models")
    return prices


def chunk_options(args: argparse.Namespace) -> dict[str, Any]:
    """The strategy options the command line gives (only those given: an option the
    strategy does not take is then the library's one-line error)."""
    generated = [kw["dest"] for _, kw in generated_flags(strategy_option_specs())]
    options = {name: getattr(args, name, None) for name in (*STRATEGY_OPTIONS, *generated)}
    for flag in ("merge_sections", "headers"):  # store_true: given or not at all
        options[flag] = True if options[flag] else None
    if getattr(args, "contextualize", None):
        prices = read_prices(args)
        show = getattr(args, "progress", None)
        options.update({
            "contextualize": args.contextualize, "context_tokens": args.context_tokens,
            "context_position": args.context_position, "llm_concurrency": args.llm_concurrency,
            "llm_timeout": args.llm_timeout,
            "llm_cache": not args.no_llm_cache, "llm_prices": prices, "dry_run": args.dry_run,
            "llm_progress": CallBars() if (show if show is not None
                                            else sys.stderr.isatty()) else None})
    elif getattr(args, "dry_run", False) and not getattr(args, "answers", False):
        raise ChunkwiseError("--dry-run estimates the cost of --contextualize"
                             + (" or --answers" if hasattr(args, "answers") else "")
                             + "; give it")
    return {k: v for k, v in options.items() if v is not None}


def build_chunker(args: argparse.Namespace, strategy: str | None = None,
                  overrides: dict[str, Any] | None = None) -> Chunker:
    """The chunker the command-line options describe (warnings printed as one line each)."""
    from ..factory import get_chunker
    from .settings import merged

    options = chunk_options(args)
    options.update(overrides or {})
    name, options = merged(args, strategy or args.strategy, options, known_settings())
    args.chunking = (name, dict(options))  # what was built, for uses_embedder
    embedder = getattr(args, "embedder", None)
    if uses_embedder(name, options):
        if embedder is not None:
            options.setdefault("embedder", embedder)
        options.setdefault("cache", not getattr(args, "no_cache", False))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunker = get_chunker(name, **options)
    bars = options.get("llm_progress")
    if isinstance(bars, CallBars):
        from ..contextual import ContextualChunker

        assert isinstance(chunker, ContextualChunker)
        bars.report = chunker.contextualizer.report  # the bars show cached and in flight
    for w in caught:
        if not issubclass(w.category, DeprecationWarning):  # third-party noise
            warning(str(w.message))
    if embedder is not None and args.command in ("chunk", "view"):
        from ..embed import get_embedder, truncation_warning

        message = truncation_warning(chunker.max_tokens, chunker.tokenizer,
                                     get_embedder(embedder))
        if message:
            warning(message)
    return chunker


def llm_report(chunker: Any, args: argparse.Namespace) -> None:
    """The contextualizer's cost line: the estimate on stdout for --dry-run, the
    run's figures on stderr otherwise."""
    contextual = getattr(chunker, "contextualizer", None)
    if contextual is None:
        return
    contextual.close()
    if args.dry_run:
        print(contextual.report.line(estimate=True))
    else:
        print(contextual.report.line(), file=sys.stderr)


Command = Callable[[argparse.Namespace], int]
