"""Flags made from the strategies' signatures: every strategy option (a plug-in's
included) that has no flag in :mod:`chunkwise.cli.options` and whose annotation a
flag can spell (int, float, str, bool) gets one, named after it."""

from __future__ import annotations

from typing import get_args

from .options import STRATEGY_OPTIONS, Flag

#: strategy options with no flag of their own: objects (embedder, sentence_splitter),
#: given another way (strategies and overlaps of a hierarchy through --sizes and
#: --overlap), run settings (cache), or deprecated spellings
NO_FLAG = frozenset({"embedder", "cache", "sentence_splitter", "strategies", "overlaps",
                     "parent_size", "child_size", "child_overlap"})

#: help for the built-in strategies' options whose flags are generated
OPTION_HELP = {
    "table_max": "structure-aware strategies: a table up to N tokens is one chunk "
                 "(default: 2 x size, never above --max-tokens)",
    "context_template": "structure-aware strategies: how the trail becomes context "
                        "({trail}, {title}; default: '{trail}\\n\\n')",
    "trail_separator": "structure-aware strategies: between headings of the trail "
                       "(default: ' > ')",
    "title": "structure-aware strategies: the document title at the head of the trail",
    "dedupe_headings": "structure-aware strategies: leave a heading out of the trail when "
                       "the chunk's text starts with it",
    "path_context": "code strategy: the file path at the head of the context",
}

_SCALARS: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}


def scalar_type(annotation: object) -> type | None:
    """int, float, str or bool when an annotation is one of them (or it or None),
    written as a type or as a string; None for anything a flag cannot spell."""
    if isinstance(annotation, str):
        parts = [p.strip() for p in annotation.split("|") if p.strip() != "None"]
        return _SCALARS.get(parts[0]) if len(parts) == 1 else None
    if annotation in _SCALARS.values():
        return annotation  # type: ignore[return-value]
    args = [a for a in get_args(annotation) if a is not type(None)]
    return args[0] if len(args) == 1 and args[0] in _SCALARS.values() else None


def generated_flags(specs: dict[str, list[tuple[str, object, object]]]) -> list[Flag]:
    """A flag for every strategy option without one above: ``specs`` maps an option to
    (strategy, annotation, default) for each strategy that takes it. A bool option
    defaulting to True gets ``--no-NAME``; one that no flag can spell gets none."""
    explicit = set(STRATEGY_OPTIONS) | NO_FLAG
    flags: list[Flag] = []
    for option, takers in sorted(specs.items()):
        if option in explicit:
            continue
        kinds = {scalar_type(annotation) for _, annotation, _ in takers}
        if len(kinds) != 1 or None in kinds:
            continue
        kind = kinds.pop()
        names = ", ".join(sorted({s for s, _, _ in takers}))
        text = OPTION_HELP.get(option, f"{names}: the strategy option {option}")
        flag = "--" + option.replace("_", "-")
        if kind is bool and any(default is True for _, _, default in takers):
            flags.append(((f"--no-{option.replace('_', '-')}",), dict(
                dest=option, action="store_const", const=False, default=None,
                help=f"{text} (on unless this is given)")))
        elif kind is bool:
            flags.append(((flag,), dict(dest=option, action="store_const", const=True,
                                        default=None, help=text)))
        else:
            flags.append(((flag,), dict(dest=option, type=kind, default=None,
                                        metavar=option.upper(), help=text)))
    return flags
