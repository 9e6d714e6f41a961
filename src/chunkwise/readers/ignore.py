"""What a folder walk leaves out: what the folders' ignore files say, folders of
installed packages, and the user's ``--exclude`` patterns.

- **Ignore files**: ``.gitignore``, ``.ignore`` and ``.chunkwiseignore`` in the walked
  folder, in every folder below it, and in the folders above it up to the repository's
  top (the nearest folder holding ``.git``), with that repository's
  ``.git/info/exclude``; git's rules (pathspec's ``GitIgnoreSpec``): a pattern is
  relative to its file's folder, ``!`` takes a path back, a deeper file's patterns win
  over a higher one's, and within a folder ``.chunkwiseignore`` over ``.ignore`` over
  ``.gitignore``. A folder left out is not entered (git cannot take back a file below
  an ignored folder either). Read wherever they are, in a repository or not (a
  project's ``build/`` is output whether or not it was cloned).
- **Dependency folders**: ``node_modules``, ``site-packages``, ``__pycache__``, ... and
  Python environments (a folder holding ``pyvenv.cfg`` or ``conda-meta``): installed
  packages are never the user's documents (a project's ``node_modules`` holds
  thousands of READMEs).
- **``--exclude``** patterns, in the same syntax, relative to each folder given;
  applied with or without the rules above.

A file named on the command line is read whatever these say (as a file that is not
a document by its extension is)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError

#: folders of installed packages and caches (never the user's own documents)
DEPENDENCY_FOLDERS = frozenset({"node_modules", "bower_components", "jspm_packages",
                                "site-packages", "dist-packages", "__pypackages__",
                                "__pycache__"})
#: what marks a folder as a Python environment (virtualenv/venv, conda)
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")
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


class _Rules:
    """One folder's ignore patterns, by the file they came from."""

    def __init__(self, sources: list[tuple[str, list[str]]]):
        # strongest first: the last pattern that matches decides, and a later file's
        # patterns come after an earlier one's
        self.specs = [(name, _spec(name, lines)) for name, lines in reversed(sources)]

    def check(self, relative: str) -> tuple[bool, str] | None:
        """(ignored, the file that says so) when a pattern matches, else None."""
        for name, spec in self.specs:
            include: Any = spec.check_file(relative).include
            if include is not None:
                return bool(include), name
        return None


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
        self._folders: dict[Path, _Rules | None] = {}
        self._decided: dict[Path, str | None] = {}  # folder -> why it is left out
        self._above: list[Path] = []  # folders above ``top`` whose rules apply
        self._repo: Path | None = None
        if rules:
            self._repo = _repository_top(top)
            if self._repo is not None and self._repo != top:
                parents = list(top.parents)
                self._above = parents[:parents.index(self._repo) + 1]  # nearest first
                if self._decide(top, True, self._above):
                    # a folder named to be walked is read though a folder above ignores
                    # it (``chunkwise chunk build/``): only its own rules count
                    self._above = []

    def _rules_of(self, folder: Path) -> _Rules | None:
        if folder not in self._folders:
            sources = []
            if folder == self._repo:
                sources.append((".git/info/exclude", _lines(folder / ".git" / "info" / "exclude")))
            sources += [(name, _lines(folder / name)) for name in IGNORE_FILES
                        if os.path.isfile(folder / name)]
            found = [s for s in sources if any(line.strip() and not line.startswith("#")
                                               for line in s[1])]
            self._folders[folder] = _Rules(found) if found else None
        return self._folders[folder]

    def reason(self, path: Path, is_dir: bool) -> str | None:
        """Why the walk leaves ``path`` (resolved, below ``top``, in a folder the walk
        entered) out: the ignore file or ``--exclude`` that says so, or the kind of
        dependency folder; None when it is read."""
        if self._exclude is not None:
            found = self._exclude.check(_relative(path, self.top, is_dir))
            if found is not None and found[0]:
                return BY_EXCLUDE
        if not self.rules:
            return None
        if is_dir:
            if path.name in DEPENDENCY_FOLDERS:
                return path.name
            if any(os.path.lexists(path / m) for m in ENVIRONMENT_MARKERS):
                return "Python environment"
        folder = path.parent
        chain: list[Path] = []
        while folder != self.top and self.top in folder.parents:
            chain.append(folder)
            folder = folder.parent
        chain.append(self.top)
        return self._decide(path, is_dir, chain + self._above)

    def _decide(self, path: Path, is_dir: bool, folders: list[Path]) -> str | None:
        """The ignore file that leaves ``path`` out, from the rules of ``folders``
        (nearest first: the deepest folder whose patterns match decides, as in git)."""
        for d in folders:
            rules = self._rules_of(d)
            if rules is not None and (found := rules.check(_relative(path, d, is_dir))):
                return found[1] if found[0] else None
        return None

    def excluded(self, path: Path) -> str | None:
        """:meth:`reason` for any file below ``top`` (resolved), its folders included:
        why the walk would not read it, or None."""
        try:
            parts = path.relative_to(self.top).parts
        except ValueError:
            return None
        folder = self.top
        for name in parts[:-1]:
            folder = folder / name
            if folder not in self._decided:
                self._decided[folder] = self.reason(folder, True)
            if self._decided[folder] is not None:
                return self._decided[folder]
        return self.reason(path, False)


def _spec(name: str, lines: list[str]) -> Any:
    """The patterns of ``lines``; a line git would not take as a pattern (``!`` alone,
    ``[z-a]``) is passed over as git passes over it, except in ``--exclude``, where it
    is the user's mistake to hear of."""
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines(lines)
    except Exception:  # (pathspec's own error, or re.error from a character range)
        pass
    good = []
    for line in lines:
        try:
            GitIgnoreSpec.from_lines([line])
        except Exception as exc:
            if name == BY_EXCLUDE:
                raise ConfigError(f"--exclude {line!r}: not a pattern .gitignore takes "
                                  f"({exc})") from None
            continue
        good.append(line)
    return GitIgnoreSpec.from_lines(good)


def check_patterns(patterns: Sequence[str]) -> None:
    """Raises :class:`~chunkwise.errors.ConfigError` naming an ``--exclude`` pattern
    that is none."""
    if isinstance(patterns, str):
        raise ConfigError(f"exclude takes a list of patterns, got the string {patterns!r}")
    if patterns:
        _spec(BY_EXCLUDE, list(patterns))


def _relative(path: Path, folder: Path, is_dir: bool) -> str:
    rel = path.relative_to(folder).as_posix()
    return rel + "/" if is_dir else rel
