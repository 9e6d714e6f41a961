"""Manual pages (roff with the ``man`` or ``mdoc`` macros: ``ls.1``, ``ssh_config.5``,
and gzipped as ``/usr/share/man`` holds them), found by their content: ``.SH``/``.Sh``
sections and ``.SS``/``.Ss`` subsections as headings under the page's name, paragraphs (``.PP``, ``.TP``,
``.IP``, ``.Pp``, ``.It``), no-fill and example regions (``.nf``/``.fi``, ``.EX``/``.EE``,
``.Bd``/``.Ed``) as code; font, size and character escapes resolved to the text a
reader sees, comments and layout requests dropped. The name and section (``.TH``,
``.Dt``) as the title. Offsets are into that text, as an HTML page's are into its
extracted text. Read as plain text, every line was roff markup."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from ..types import Document
from .reader import Reader
from .structure import HeadingTrail, TextBuilder

#: named characters a manual page uses most (others read as nothing)
_NAMED = {"bu": "•", "ci": "•", "em": "—", "en": "–", "hy": "-", "aq": "'", "dq": '"',
          "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "co": "©", "rg": "®", "tm": "™",
          "mu": "×", "de": "°", "<=": "≤", ">=": "≥", "!=": "≠", "->": "→", "<-": "←",
          "ti": "~", "ha": "^", "rs": "\\", "ga": "`", "sl": "/", "ba": "|", "pl": "+",
          "mi": "-", "eq": "="}
_ESCAPE = re.compile(r"\\(?:f(?:\[[^\]]*\]|\([A-Za-z0-9]{2}|.)|s[-+]?\d+|s\([-+]?\d{2}"
                     r"|\(([^\s]{2})|\[([^\]\s]+)\]|\*(?:\(..|\[[^\]]*\]|.)|([-.\\e&|^~ 0%c:,/'`])"
                     r"|(.))")
_LITERAL = {"-": "-", ".": ".", "\\": "\\", "e": "\\", "&": "", "|": "", "^": "", "~": " ",
            " ": " ", "0": " ", "%": "", "c": "", ":": "", ",": "", "/": "", "'": "'",
            "`": "`"}
#: under the page's own title (``jq(1)``, level 1), so that a trail says whose
#: OPTIONS or DESCRIPTION a passage is
_HEADINGS = {"SH": 2, "Sh": 2, "SS": 3, "Ss": 3}
_BREAKS = {"PP", "P", "LP", "TP", "TQ", "IP", "HP", "Pp", "It", "sp", "Bl", "El", "RS", "RE"}
_NO_FILL = {"nf": "fi", "EX": "EE", "Bd": "Ed"}
#: macros whose arguments are the words they set (fonts, mdoc's semantic macros)
_TEXT = {"B", "I", "BR", "RB", "IR", "RI", "BI", "IB", "SM", "SB", "Nm", "Nd", "Fl", "Ar", "Op",
         "Xr", "Cm", "Pa", "Ev", "Em", "Sy", "Dv", "Er", "Fn", "Fa", "Ft", "Va", "Li", "Ql",
         "Dq", "Sq", "Pq", "Ic", "Ad", "An", "Lk", "Mt", "UR", "MT", "OP"}
_ALTERNATING = {"BR", "RB", "IR", "RI", "BI", "IB"}
_MAN_HEAD = re.compile(r"^[.'][ \t]*(?:TH|Dd|Dt|SH|Sh)\b", re.M)


def looks_like_man(head: str) -> bool:
    """A roff manual page: ``.TH``/``.Dd``/``.Dt`` and ``.SH``/``.Sh`` requests."""
    found = {m.group(0).lstrip(".' \t")[:2] for m in _MAN_HEAD.finditer(head.removeprefix("\ufeff"))}
    return bool(found & {"TH", "Dd", "Dt"}) and bool(found & {"SH", "Sh"})


def inline(text: str) -> str:
    """A line's text with roff's escapes resolved."""
    if "\\" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        named = m.group(1) or m.group(2)
        if named is not None:
            return _NAMED.get(named, "")
        if m.group(3) is not None:
            return _LITERAL[m.group(3)]
        return ""

    return _ESCAPE.sub(one, text)


def _words(arg: str) -> list[str]:
    try:
        return shlex.split(arg, posix=True)
    except ValueError:  # an unbalanced quote: the words as written
        return arg.split()


def parse_man(text: str, doc_id: str, source: str | None = None) -> Document:
    page = _Page()
    end: str | None = None  # the request that ends the macro definition being skipped
    for line in _logical_lines(text.removeprefix("\ufeff")):  # (the page is a rendition)
        if end is not None:
            if line[:1] in (".", "'") and line[1:].strip() == end:  # ``..``, ``.  .``
                end = None
            continue
        m = _DEFINITION.match(line)
        if m:  # a macro's definition (pod2man's preamble), or text ignored: no words
            end = m.group("end") or "."
            continue
        if not line.startswith((".\\\"", "'\\\"", "\\\"", ".\\#")):  # not a comment
            page.line(line)
    page.flush()
    if page.code is not None:  # never closed: to the end
        page.close_code()
    return Document(text=page.out.text, doc_id=doc_id, source=source, title=page.title,
                    blocks=tuple(page.out.blocks), metadata={"format": "man"})


#: a macro definition (``.de Sh`` ... ``..``, ``.am``) or an ignored block (``.ig``),
#: with the name of the request that ends it when not ``..``
_DEFINITION = re.compile(r"^[.'][ \t]*(?:(?:de|dei|am|ami)1?[ \t]+\S+|(?P<ig>ig))"
                         r"(?:[ \t]+(?P<end>[^\s\\]+))?[ \t]*(?:\\\".*)?$")


def _logical_lines(text: str) -> Iterator[str]:
    """The lines of roff source, a line ending in an escaped newline (an odd number of
    backslashes) joined to the next: ``.if \\n(.H>23 .if \\n(.V>19 \\`` over ``\\{\\``
    is one request (its second line was read as text, a chunk of one backslash)."""
    held = ""
    for line in text.splitlines():
        stripped = line.rstrip("\\")
        if (len(line) - len(stripped)) % 2:
            held += line[:-1]
            continue
        yield held + line
        held = ""
    if held:
        yield held


class _Page:
    """A manual page being read, a line at a time."""

    def __init__(self) -> None:
        self.out = TextBuilder()
        self.trail = HeadingTrail()
        self.title: str | None = None
        self.para: list[str] = []
        self.code: tuple[str, list[str]] | None = None  # the closing request, its lines

    def flush(self) -> None:
        words = " ".join(" ".join(self.para).split())
        if words:
            self.out.add_block("paragraph", words, self.trail.path)
        self.para.clear()

    def close_code(self) -> None:
        assert self.code is not None
        body = "\n".join(self.code[1]).strip("\n")
        if body.strip():
            self.out.add_block("code", body, self.trail.path)
        self.code = None

    def line(self, line: str) -> None:
        request = line[1:].strip().split(None, 1) if line[:1] in (".", "'") else None
        name = request[0] if request else ""
        if self.code is not None:
            if name == self.code[0]:
                self.close_code()
            elif request is None:
                self.code[1].append(inline(line))
            elif name in _TEXT:
                self.code[1].append(_set_words(name, _words(request[1]) if len(request) > 1
                                               else []))
        elif request is None:
            if line.strip():
                self.para.append(inline(line))
            else:
                self.flush()
        elif name:
            self.request(name, _words(request[1]) if len(request) > 1 else [])

    def heading(self, level: int, text: str) -> None:
        self.trail.push(level, text)
        self.out.add_block("heading", text, self.trail.path, level=level)

    def request(self, name: str, args: list[str]) -> None:
        if name in ("TH", "Dt"):
            if args and self.title is None:
                self.title = inline(f"{args[0]}({args[1]})" if len(args) > 1
                                    else args[0]).lower()
                self.heading(1, self.title)
        elif name in _HEADINGS:
            self.flush()
            heading = " ".join(inline(" ".join(args)).split())
            if heading:
                self.heading(_HEADINGS[name], heading)
        elif name in _NO_FILL:
            self.flush()
            self.code = (_NO_FILL[name], [])
        elif name in _BREAKS:
            self.flush()
            if name == "IP" and args and inline(args[0]).strip() not in ("", "•"):
                self.para.append(inline(args[0]))  # its tag starts the paragraph
        elif name in _TEXT:
            self.para.append(_set_words(name, args))


def _set_words(name: str, args: list[str]) -> str:
    """The words a font or semantic macro sets: alternating fonts run together
    (``.BR ls (1)`` is ``ls(1)``), the others spaced."""
    return ("" if name in _ALTERNATING else " ").join(map(inline, args))


MAN = Reader(parse_man)
