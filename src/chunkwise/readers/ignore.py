"""What a folder walk leaves out: what the folders' ignore files say, folders of
installed packages, and the user's ``--exclude`` patterns.

- **Ignore files**: ``.gitignore``, ``.ignore`` and ``.chunkwiseignore`` in the walked
  folder, in every folder below it, and in the folders above it up to the repository's
  top (the nearest folder holding ``.git``), with that repository's
  ``.git/info/exclude``; git's rules (gitignore(5)): a pattern is relative to its
  file's folder when it holds a ``/`` other than a trailing one, else it matches a name
  at any depth; ``*``, ``?``, ``[...]`` (``[!...]``, ranges, ``[:alpha:]``) never match
  a ``/``; ``**`` as a whole part matches any folders; a trailing ``/`` matches folders
  only; ``!`` takes a path back; the last pattern that matches decides, a deeper file's
  patterns over a higher one's, and within a folder ``.chunkwiseignore`` over
  ``.ignore`` over ``.gitignore``. A folder left out is not entered (git cannot take back a file below
  an ignored folder either). Read wherever they are, in a repository or not (a
  project's ``build/`` is output whether or not it was cloned).
- **Dependency folders**: ``node_modules``, ``site-packages``, ``__pycache__``, ...,
  Python environments (a folder holding ``pyvenv.cfg`` or ``conda-meta``) and a
  ``vendor`` folder a package manager filled (:data:`VENDOR_MARKERS`: Go, Composer,
  Bundler): installed packages are never the user's documents (a project's
  ``node_modules`` holds thousands of READMEs).
- **An index's folder** (:data:`INDEX_MARKERS`): a chunkwise index kept beside the
  documents holds JSON files of its own (``chunkwise-unchanged.json``, BM25's
  statistics), which ``chunk``, ``eval`` and an index elsewhere read as documents.
- **Backup copies** (:data:`BACKUP_COPY`): ``notes.md~``, ``#notes.md#``, ``.bak``,
  ``.orig``, ``.rej``, ``.swp``: a document read twice, or a fragment of one (``index
  --watch`` never woke for them, yet the run it started read them).
- **A drive's recycle bin and system folders** (:data:`SYSTEM_FOLDERS`): deleted
  documents (``$RECYCLE.BIN``), restore points, ``lost+found``.
- **A saved page's files** (:func:`saved_page_files`): the folder a browser
  ("Webpage, Complete") or Office ("Web Page") writes beside a saved page for its
  pictures, style sheets, scripts and frames' pages (``Page_files`` beside
  ``Page.html``): its scripts were read as code, its advertisements' frames as pages.
  A frameset page's folder is read (Excel's sheets are its pages).
- **``--exclude``** patterns, in the same syntax, relative to each folder given;
  applied with or without the rules above.

A file named on the command line is read whatever these say (as a file that is not
a document by its extension is).

The patterns are matched here, not by pathspec's ``GitIgnoreSpec``: that matches a
path together with its parents (``a/`` then ``!c/`` left ``c/a/x.md`` in, which git
leaves out), while a walk asks of one path at a time, its folders already decided.
``tests/test_walk_ignore.py`` compares the walk with git itself on random trees and
patterns."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from ..errors import ConfigError

#: folders of installed packages and caches (never the user's own documents)
DEPENDENCY_FOLDERS = frozenset({"node_modules", "bower_components", "jspm_packages",
                                "site-packages", "dist-packages", "__pypackages__",
                                "__pycache__"})
#: what marks a folder as a Python environment (virtualenv/venv, conda)
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")
#: what marks a ``vendor`` folder as one of dependencies a package manager copied in:
#: Go's module list (``go mod vendor``), Composer's autoloader, Bundler's gems
#: (``bundle install --path vendor/bundle``)
VENDOR_MARKERS = ("modules.txt", "autoload.php", "bundle/ruby")
#: the reason given for such a folder
VENDORED = "vendored dependencies"
#: what marks a folder as a chunkwise index kept on disk (LanceDB, Qdrant's local
#: mode): its writer lock, and LanceDB's settings table
INDEX_MARKERS = (".chunkwise-writer.lock", "chunkwise_config.lance")
#: the reason given for a chunkwise index's folder
AN_INDEX = "chunkwise index"
#: editors' backup and autosave copies (``notes.md~``, Emacs's ``#notes.md#``, Vim's
#: swap files) and what merges and patches leave beside a file (``.orig``, ``.rej``),
#: and hand-made ``.bak`` copies: each a second copy of a document, or part of one
BACKUP_COPY = re.compile(r"~\Z|\A#.*#\Z|\.(?:bak|orig|rej|swp|swo)\Z", re.IGNORECASE)
#: the reason given for what :data:`BACKUP_COPY` leaves out
BACKUPS = "backup copy"
#: a drive's own folders (lower case): Windows' recycle bins (``$RECYCLE.BIN``, XP's
#: ``RECYCLER``) hold deleted documents under new names, which a walk of a USB drive
#: or a mounted disk read as documents; ``System Volume Information`` holds restore
#: points, ``lost+found`` what a file system check recovered
SYSTEM_FOLDERS = frozenset({"$recycle.bin", "recycler", "system volume information",
                            "lost+found"})
#: the reason given for such a folder
SYSTEM_FOLDER = "recycle bin or system folder"
#: the endings of the folder a browser or Office writes beside a saved page (its
#: name, then one of these): English, and as the German, French, Spanish,
#: Portuguese, Dutch, Italian and Scandinavian versions of Office and browsers name it
SAVED_FILES_ENDINGS = ("_files", "-dateien", "_fichiers", "_archivos", "_arquivos",
                       "_bestanden", "_file", "-filer", "_filer")
#: the pages such a folder belongs to
_SAVED_PAGES = (".html", ".htm", ".xhtml", ".shtml")
#: the reason given for such a folder
SAVED_PAGE_FILES = "saved page's files"
#: ignore files read in each folder, weakest first
IGNORE_FILES = (".gitignore", ".ignore", ".chunkwiseignore")
#: the reason given for what ``--exclude`` leaves out
BY_EXCLUDE = "--exclude"


def _lines(path: Path) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:  # unreadable (or a folder of that name): no rules from it
        return []


def _repository_top(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` that holds ``.git``."""
    for d in (folder, *folder.parents):
        if os.path.lexists(d / ".git"):
            return d
    return None


class Pattern(NamedTuple):
    """One line of an ignore file as git reads it."""

    #: one expression per part of the pattern between ``/``s, each matched whole
    #: against one part of a path (None: a pattern with ``**``, matched by ``steps``)
    parts: tuple[re.Pattern[str], ...] | None
    #: a pattern with ``**``: its steps, matched against the whole path (:func:`_walk`)
    steps: tuple[tuple[int, Callable[[str], object] | None], ...]
    #: ``parts`` match the path's last parts (a pattern without a ``/`` other than a
    #: trailing one, or one that starts ``**/``), else all of them
    suffix: bool
    ignore: bool  # False for a ``!`` line (it takes a path back)
    folders_only: bool  # a trailing ``/``

    def matches(self, relative: str) -> bool:
        """Whether the pattern matches ``relative`` (a path relative to its file's
        folder, "/"-separated)."""
        parts = self.parts
        if parts is None:
            return _walk(self.steps, relative)
        if self.suffix and len(parts) == 1:  # the path's last part
            return parts[0].fullmatch(relative[relative.rfind("/") + 1:]) is not None
        names = relative.split("/")
        if self.suffix:
            if len(names) < len(parts):
                return False
            names = names[len(names) - len(parts):]
        return len(names) == len(parts) and all(
            part.fullmatch(name) is not None for part, name in zip(parts, names))


#: steps of a pattern with ``**``: one character (its test), ``*`` (no ``/``), a run of
#: stars that is no whole part (anything: git 2.39 matches ``b**/x.md`` against
#: ``bq/z/x.md``), and a ``**/`` part (nothing, or anything ending in ``/``)
_CHAR, _STAR, _ANY, _FOLDERS = range(4)


def _walk(steps: tuple[tuple[int, Callable[[str], object] | None], ...], text: str) -> bool:
    """Whether ``steps`` match all of ``text``: the positions each step can reach, a
    step at a time (len(steps) x len(text): no backtracking)."""
    n = len(text)
    reach = [True] + [False] * n
    for kind, test in steps:
        nxt = [False] * (n + 1)
        if kind == _CHAR:
            assert test is not None
            for j in range(n):
                if reach[j] and test(text[j]):
                    nxt[j + 1] = True
        else:
            on = False
            for j in range(n + 1):
                if kind == _STAR:
                    on = reach[j] or (on and text[j - 1] != "/")
                elif kind == _ANY:
                    on = on or reach[j]
                else:  # _FOLDERS: here from a reached place, or through a "/" just read
                    nxt[j] = reach[j] or (on and text[j - 1] == "/")
                    on = on or reach[j]
                    continue
                nxt[j] = on
        reach = nxt
        if not any(reach):
            return False
    return reach[n]


def _steps(line: str) -> tuple[tuple[int, Callable[[str], object] | None], ...]:
    """The steps of an anchored pattern with ``**`` (:func:`_walk`)."""
    out: list[tuple[int, Callable[[str], object] | None]] = []
    parts = line.split("/")
    for k, part in enumerate(parts):
        if len(part) >= 2 and part.strip("*") == "":  # a "**" part
            if k == len(parts) - 1:  # "a/**": what is inside (a "/" already read)
                out += [(_CHAR, bool), (_ANY, None)]
            else:  # "**/", "a/**/b": no folder or any folders
                out.append((_FOLDERS, None))
            continue
        for token in _tokens(part):
            if isinstance(token, int):
                out.append((_ANY if token >= 2 else _STAR, None))
            else:
                out.append((_CHAR, re.compile(token, re.DOTALL).fullmatch))
        if k < len(parts) - 1:  # (a "**/" part takes its "/" along)
            out.append((_CHAR, "/".__eq__))
    return tuple(out)


#: POSIX classes git's wildmatch knows inside ``[...]`` (ASCII, as in the C locale)
_CLASSES = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "blank": " \t", "cntrl": "\x00-\x1f\x7f",
            "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
            "punct": "!-/:-@\\[-`{-~", "space": " \t\n\r\f\v", "upper": "A-Z",
            "xdigit": "0-9A-Fa-f"}


def compile_pattern(line: str) -> Pattern | None:
    """``line`` of an ignore file as git reads it (gitignore(5)); None for a line that
    holds no pattern (blank, a comment, ``!`` or ``/`` alone). Raises ValueError for
    one git can match nothing with (an unclosed ``[``, a trailing backslash, an
    unknown ``[:class:]``)."""
    if not line or line.startswith("#"):
        return None
    while line.endswith(" ") and not line.endswith("\\ "):  # trailing spaces, unescaped
        line = line[:-1]
    ignore = not line.startswith("!")
    if not ignore:
        line = line[1:]
    folders_only = line.endswith("/")
    if folders_only:
        line = line[:-1]
    if not line:
        return None
    anchored = "/" in line  # (a separator at the start or in the middle)
    if line.startswith("/"):
        line = line[1:]
    suffix = not anchored
    head, sep, tail = line.partition("/")
    if anchored and sep and len(head) >= 2 and head.strip("*") == "" and "**" not in tail:
        line, suffix = tail, True  # "**/a/b": a/b at any depth
    if not suffix and "**" in line:
        return Pattern(None, _steps(line), suffix, ignore, folders_only)
    return Pattern(tuple(_component(part) for part in line.split("/")), (), suffix, ignore,
                   folders_only)


def _component(p: str) -> re.Pattern[str]:
    """One part of a pattern (no ``/``) as an expression matched whole against one
    name. Its stars cut it into pieces of fixed length (literals, ``?``, ``[...]``);
    every piece between two stars is matched at its first place, atomically (the
    classic wildcard match: a first place leaves the most room, so nothing is lost),
    and only the last star backtracks: linear, where a plain translation of
    ``*a*a*a*a*a*b`` took seconds on a long name."""
    pieces: list[list[str]] = [[]]  # the fixed-length pieces, split at stars
    for token in _tokens(p):
        if isinstance(token, int):
            pieces.append([])
        else:
            pieces[-1].append(token)
    out = ["".join(pieces[0])]
    for middle in pieces[1:-1]:
        out.append(f"(?>.*?{''.join(middle)})")
    if len(pieces) > 1:
        out.append(".*" + "".join(pieces[-1]))
    return re.compile("".join(out), re.DOTALL)


def _tokens(p: str) -> list[int | str]:
    """One part of a pattern (no ``/``) read: a run of stars as its length, any other
    character (a literal, ``?``, ``[...]``, an escaped one) as an expression for one
    character other than ``/``."""
    out: list[int | str] = []
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        if c == "*":
            j = i
            while j < n and p[j] == "*":
                j += 1
            out.append(j - i)
            i = j
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            found, i = _bracket(p, i)
            out.append(found)
        elif c == "\\":
            if i + 1 >= n:
                raise ValueError("a backslash at the end")
            out.append(re.escape(p[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return out


def _bracket(p: str, i: int) -> tuple[str, int]:
    """The bracket expression at ``p[i]`` (``[``) as a character class that never
    matches ``/``, and where it ends."""
    n, j = len(p), i + 1
    negate = j < n and p[j] in "!^"
    j += negate
    items: list[str] = []
    first = True
    while True:
        if j >= n:
            raise ValueError(f"an unclosed [ in {p!r}")
        c = p[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if p.startswith("[:", j) and (end := p.find(":]", j + 2)) != -1:
            name = p[j + 2:end]
            if name not in _CLASSES:
                raise ValueError(f"no character class [:{name}:]")
            items.append(_CLASSES[name])
            j = end + 2
            continue
        if c == "\\":
            j += 1
            if j >= n:
                raise ValueError(f"an unclosed [ in {p!r}")
            c = p[j]
        j += 1
        if j + 1 < n and p[j] == "-" and p[j + 1] != "]":  # a range
            hi = p[j + 1]
            j += 2
            if hi == "\\" and j < n:
                hi = p[j]
                j += 1
            if c <= hi:  # (z-a matches nothing)
                items.append(f"{re.escape(c)}-{re.escape(hi)}")
            continue
        items.append(re.escape(c))
    body = "".join(items)
    if negate:
        return f"[^/{body}]", j
    return (f"(?!/)[{body}]" if body else "(?!)"), j


class _Rules:
    """One folder's ignore patterns, by the file they came from."""

    def __init__(self, sources: list[tuple[str, list[str]]]):
        # strongest first (a later file's patterns come after an earlier one's), each
        # file's patterns last first: the last pattern that matches decides
        self.files = [(name, _patterns(name, lines)[::-1]) for name, lines in reversed(sources)]

    def check(self, relative: str, is_dir: bool) -> tuple[bool, str] | None:
        """(ignored, the file that says so) when a pattern matches ``relative`` (a path
        relative to the folder), else None."""
        for name, patterns in self.files:
            for pattern in patterns:
                if (is_dir or not pattern.folders_only) and pattern.matches(relative):
                    return pattern.ignore, name
        return None


def saved_page_files(folder: Path) -> bool:
    """Whether ``folder`` is the one a browser or Office wrote beside a saved page
    (``Page_files`` beside ``Page.html``, the name's case aside: see
    :data:`SAVED_FILES_ENDINGS`), for a page that is not a frameset (a frameset's
    pages are in it: Excel's "Web Page" keeps its sheets there)."""
    name = folder.name.lower()
    ending = next((e for e in SAVED_FILES_ENDINGS if name.endswith(e)), None)
    if ending is None or len(name) == len(ending):
        return False
    wanted = {name[:-len(ending)] + ext for ext in _SAVED_PAGES}
    try:
        pages = [folder.parent / n for n in os.listdir(folder.parent) if n.lower() in wanted]
    except OSError:
        return False
    pages = [p for p in pages if os.path.isfile(p)]
    return bool(pages) and not any(_frameset(p) for p in pages)


def _frameset(page: Path) -> bool:
    try:
        with open(page, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    return re.search(rb"<frameset\b", head, re.IGNORECASE) is not None


class Ignorer:
    """What a walk of one folder leaves out (:func:`reason`), its rules read as the
    walk meets them. ``top``: the walked folder, resolved (links, ``..``).
    ``rules``: ignore files and dependency folders count; ``patterns``: the
    ``--exclude`` patterns (relative to ``top``)."""

    def __init__(self, top: Path, patterns: Sequence[str] = (), rules: bool = True):
        self.top = top
        self.rules = rules
        self._exclude: _Rules | None = _Rules([(BY_EXCLUDE, list(patterns))]) if patterns \
            else None
        self._folders: dict[str, _Rules | None] = {}  # by path relative to ``top``
        self._decided: dict[str, str | None] = {}  # folder -> why it is left out
        # the rules of the folders above ``top`` up to the repository's top, nearest
        # first, each with ``top`` relative to its folder followed by "/"
        self._above: list[tuple[_Rules, str]] = []
        self._repo: Path | None = None
        top_str = os.fspath(top)
        self._prefix = top_str if top_str.endswith(os.sep) else top_str + os.sep
        if rules:
            self._repo = _repository_top(top)
            if self._repo is not None and self._repo != top:
                parents = list(top.parents)
                for d in parents[:parents.index(self._repo) + 1]:
                    if (found := self._rules_at(d)) is not None:
                        self._above.append((found, top.relative_to(d).as_posix() + "/"))
                if self._decide_above("", True):
                    # a folder named to be walked is read though a folder above ignores
                    # it (``chunkwise chunk build/``): only its own rules count
                    self._above = []

    def _rules_at(self, folder: Path) -> _Rules | None:
        sources = []
        if folder == self._repo:
            sources.append((".git/info/exclude", _lines(folder / ".git" / "info" / "exclude")))
        sources += [(name, _lines(folder / name)) for name in IGNORE_FILES
                    if os.path.isfile(folder / name)]
        found = [s for s in sources if any(line.strip() and not line.startswith("#")
                                           for line in s[1])]
        return _Rules(found) if found else None

    def _rules_of(self, folder: str) -> _Rules | None:
        """The rules of the folder ``folder`` (relative to ``top``; "" is ``top``)."""
        if folder not in self._folders:
            self._folders[folder] = self._rules_at(self.top / folder if folder else self.top)
        return self._folders[folder]

    def _relative(self, path: Path) -> str | None:
        """``path`` relative to ``top``, "/"-separated (None: not below it)."""
        text = os.fspath(path)
        if not text.startswith(self._prefix):
            return None
        rel = text[len(self._prefix):]
        return rel if os.sep == "/" else rel.replace(os.sep, "/")

    def reason(self, path: Path, is_dir: bool) -> str | None:
        """Why the walk leaves ``path`` (resolved, below ``top``, in a folder the walk
        entered) out: the ignore file or ``--exclude`` that says so, or the kind of
        dependency folder; None when it is read."""
        rel = self._relative(path)
        if rel is None:
            return None
        return self._reason(rel, is_dir)

    def _reason(self, rel: str, is_dir: bool) -> str | None:
        if self._exclude is not None:
            found = self._exclude.check(rel, is_dir)
            if found is not None and found[0]:
                return BY_EXCLUDE
        if not self.rules:
            return None
        name = rel.rsplit("/", 1)[-1]
        if not is_dir and BACKUP_COPY.search(name):
            return BACKUPS
        if is_dir:
            if name in DEPENDENCY_FOLDERS:
                return name
            if name.lower() in SYSTEM_FOLDERS:
                return SYSTEM_FOLDER
            where = self.top / rel
            if any(os.path.lexists(where / m) for m in ENVIRONMENT_MARKERS):
                return "Python environment"
            if name == "vendor" and any(os.path.lexists(where / m) for m in VENDOR_MARKERS):
                return VENDORED
            if any(os.path.lexists(where / m) for m in INDEX_MARKERS):
                return AN_INDEX
            if saved_page_files(where):
                return SAVED_PAGE_FILES
        # the deepest folder whose patterns match decides (git's precedence)
        cut = len(rel)
        while cut > 0:
            cut = rel.rfind("/", 0, cut)
            folder = rel[:cut] if cut > 0 else ""
            rules = self._rules_of(folder)
            if rules is not None and (found := rules.check(rel[cut + 1:], is_dir)):
                return found[1] if found[0] else None
        return self._decide_above(rel, is_dir)

    def _decide_above(self, rel: str, is_dir: bool) -> str | None:
        """What the folders above ``top`` say of ``rel`` ("": ``top`` itself)."""
        for rules, prefix in self._above:
            if found := rules.check(prefix + rel if rel else prefix[:-1], is_dir or not rel):
                return found[1] if found[0] else None
        return None

    def excluded(self, path: Path) -> str | None:
        """:meth:`reason` for any file below ``top`` (resolved), its folders included:
        why the walk would not read it, or None."""
        rel = self._relative(path)
        if rel is None:
            return None
        cut = rel.find("/")
        while cut > 0:
            folder = rel[:cut]
            if folder not in self._decided:
                self._decided[folder] = self._reason(folder, True)
            if self._decided[folder] is not None:
                return self._decided[folder]
            cut = rel.find("/", cut + 1)
        return self._reason(rel, False)


def _patterns(name: str, lines: list[str]) -> list[Pattern]:
    """The patterns of ``lines``; a line git can match nothing with is passed over (as
    git passes over it), except in ``--exclude``, where it is the user's mistake."""
    out = []
    for line in lines:
        try:
            found = compile_pattern(line)
        except ValueError as exc:
            if name == BY_EXCLUDE:
                raise ConfigError(f"--exclude {line!r}: not a pattern .gitignore takes "
                                  f"({exc})") from None
            continue
        if found is not None:
            out.append(found)
        elif name == BY_EXCLUDE:
            raise ConfigError(f"--exclude {line!r}: holds no pattern")
    return out


def check_patterns(patterns: Sequence[str]) -> None:
    """Raises :class:`~chunkwise.errors.ConfigError` naming an ``--exclude`` pattern
    that is none."""
    if isinstance(patterns, str):
        raise ConfigError(f"exclude takes a list of patterns, got the string {patterns!r}")
    if patterns:
        _patterns(BY_EXCLUDE, list(patterns))
