"""Sources: what a user hands chunkwise, turned into documents one at a time.

One place for every form of input, used by the library and the command line
alike: texts (``str``), files and folders (``pathlib.Path``), glob patterns,
standard input, ready :class:`Document` objects, ``{doc_id: text or path}``
mappings, and lists of any of these. Listing is lazy and cheap; reading happens
in :meth:`SourceItem.load`, so one bad file fails alone and a million-file folder is
never held in memory.

A ``str`` is always text, never a file name: a pipeline chunking untrusted text
must not read files by accident. A ``str`` that looks like a path (one word
naming an existing file, or ending in a document extension) is refused with an
error that says to pass ``Path(...)``; the command line takes paths.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from ..errors import InputError
from ..ids import name_of
from ..types import Document
from .decoding import SAMPLE_BYTES, binary_head, control_binary
from .generated import LOCK_FILE, generated_reason, lock_file
from .ignore import BY_EXCLUDE, Ignorer, check_patterns
from .sites import SCRIPT_EXTENSIONS, SITEMAP, site_file, site_of, sitemap

#: Office files: Word documents and templates (macro-enabled too), workbooks, decks,
#: slide shows and deck templates
OFFICE_SUFFIXES = (".docx", ".docm", ".dotx", ".dotm", ".xlsx", ".xlsm", ".xlsb", ".xls", ".ods",
                   ".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm")
DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf", ".rst", ".csv",
                     ".tsv", ".json", ".jsonl", ".xml", ".srt", ".vtt", ".py", ".js",
                     ".ts", ".ipynb", ".adoc", ".epub", ".odt", ".odp", ".doc", ".rtf", ".ppt", ".pps",
                     ".eml", ".mbox", ".msg", ".mht", ".mhtml", ".webarchive", *OFFICE_SUFFIXES)


@dataclass(frozen=True, slots=True)
class SourceItem:
    """One document to read. Exactly one of ``path``, ``text``, ``document`` is set,
    or ``stdin``; ``error`` marks an entry that cannot be read at all (a missing
    path, a str that looks like a path), reported when it is loaded."""

    label: str
    path: Path | None = None
    text: str | None = None
    document: Document | None = None
    stdin: bool = False
    doc_id: str | None = None
    error: str | None = None

    def load(self, *, encoding: str | None = None, format: str | None = None,
             structure: bool = True) -> Document:
        """Read and parse it; an :class:`InputError` naming the source otherwise
        (``structure``: see :func:`chunkwise.readers.parse`)."""
        from . import parse, read_path, read_stream

        if self.error is not None:
            raise InputError(self.label, self.error)
        if self.document is not None:
            check_text(self.document.text, self.label)
            return self.document
        if self.path is not None:
            return read_path(self.path, encoding=encoding, doc_id=self.doc_id, fmt=format,
                             structure=structure)
        if self.stdin:
            data = read_stream(sys.stdin.buffer, "<stdin>", format)
            return parse(data, "<stdin>", fmt=format, encoding=encoding,
                         doc_id=self.doc_id or "<stdin>", structure=structure)
        assert self.text is not None
        check_text(self.text, self.label)
        doc = parse(self.text, self.label, fmt=format or "text",
                    doc_id=self.doc_id or default_text_id(self.text), structure=structure)
        return Document(doc.text, doc.doc_id, None, doc.title, doc.blocks, doc.metadata)


def default_text_id(text: str) -> str:
    from .text import default_doc_id

    return default_doc_id(text)


def check_text(text: str, label: str) -> None:
    """Refuse text that no tokenizer can encode: lone surrogates (invalid Unicode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(label, f"contains a lone surrogate at offset {exc.start} "
                                "(not valid Unicode text)") from None


def looks_like_path(s: str) -> bool:
    """A one-line, one-word string naming an existing file or folder, or ending in
    a document extension: what ``chunk("docs/handbook.md")`` used to read."""
    if not s or len(s) > 4096 or s.strip() != s or any(ch.isspace() for ch in s):
        return False
    if s.lower().endswith(DOCUMENT_SUFFIXES):
        return True
    try:
        return os.path.exists(s) and (os.sep in s or "." in s or os.path.isdir(s))
    except (OSError, ValueError):
        return False


def _path_hint(s: str) -> str:
    return (f"a str is chunked as text, and this one looks like a file path: pass "
            f"pathlib.Path({s!r}) to read the file, or wrap the text in "
            f"chunkwise.Document(text, doc_id=...) to chunk it as it is")


#: file extensions a folder walk passes over: images, media, fonts, archives, binaries
NOT_DOCUMENTS = frozenset({
    "png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "ico", "webp", "avif", "heic", "psd", "svg",
    # Netpbm's and X11's images (a binary P4 bitmap has no NUL byte to tell it by)
    "pbm", "pgm", "ppm", "pnm", "pam", "xbm", "xpm",
    "eps", "mp3", "mp4", "m4a", "wav", "flac", "ogg", "oga", "opus", "avi", "mov", "mkv", "webm",
    "wmv", "woff", "woff2", "ttf", "otf", "eot", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z",
    "rar", "tar", "jar", "war", "whl", "egg", "deb", "rpm", "dmg", "iso", "apk", "exe", "dll",
    "so", "dylib", "o", "a", "lib", "obj", "class", "pyc", "pyo", "pyd", "wasm", "bin", "dat",
    "sqlite", "sqlite3", "db", "parquet", "arrow", "feather", "lance", "npy", "npz", "pkl",
    "pickle", "pt", "pth", "onnx", "safetensors", "gguf", "h5", "hdf5",
    # typesetters' and translators' output: TeX's DVI (gdb's refcard.dvi.gz), PostScript,
    # compiled message catalogues
    "dvi", "ps", "mo", "gmo",
    # translation catalogues: a program's (or a Sphinx site's) strings once per language
    # (gettext's .po and template .pot, XLIFF, Mozilla's Fluent, Flutter's ARB, .NET's
    # .resx, Apple's .strings): pdf.js's 114 locales' viewer.ftl were 28 % of its chunks
    "po", "pot", "xlf", "xliff", "ftl", "arb", "resx", "strings",
    # LaTeX's build files (a paper's .aux, .toc, .bbl, .synctex.gz) and its macro
    # packages, classes and bibliography styles: Michaillat's template folder gave 147
    # chunks of \newlabel, \bibitem and macro lines beside its paper's 132
    "aux", "toc", "lof", "lot", "bbl", "blg", "bcf", "fls", "fdb_latexmk", "synctex", "nav",
    "snm", "vrb", "idx", "ind", "ilg", "xdv", "brf", "sty", "cls", "bst", "clo",
    # a built site's style sheets and source maps (generated JSON)
    "css", "scss", "sass", "less", "map",
    # artwork: Illustrator (a PDF inside: Knative's logos failed as "no text layer"),
    # Sketch, Figma and GIMP files
    "ai", "sketch", "fig", "xcf",
    # key stores (binary; a PEM file is told by its first line), public keys (an SSH
    # key's one line of base64) and Publisher's documents
    "p12", "pfx", "jks", "keystore", "pub",
    # shortcuts to a page or a file (Windows' Internet shortcuts and links, macOS's
    # .webloc): an address or a path, never the page; downloads still under way
    # (Chrome's, Firefox's): part of a file
    "url", "webloc", "lnk", "crdownload", "part",
})
#: what an office suite writes beside a document it has open, and the file manager's
#: settings of a folder and marks on a file: no document's text (a Word document open
#: while its folder was indexed made ``~$port.docx`` a failed input; ``desktop.ini``
#: in every folder copied from Windows was a chunk of icon settings, and
#: ``report.pdf:Zone.Identifier``, the stream saying where a download came from that
#: copying out of Windows into WSL leaves as a file, one of its address)
OFFICE_OWNER_FILE = "Office owner file"
FOLDER_SETTINGS = "folder settings"
DOWNLOAD_ORIGIN = "download's origin"
#: formats whose reader takes NUL bytes (binary ones, and Info's index markers): never
#: skipped for the NUL bytes they hold
_BINARY_DOCUMENTS = (".pdf", ".epub", ".odt", ".odp", ".info", ".doc", ".rtf", ".ppt", ".pps",
                     ".eml", ".mbox", ".msg", ".mht", ".mhtml", ".webarchive", *OFFICE_SUFFIXES)


@dataclass(frozen=True)
class Walk:
    """How folders and globs are walked. ``root``: document ids are paths relative
    to it (folders spelled canonically, so ``docs``, ``./docs`` and ``/abs/docs`` name
    the same documents), and a file outside it is an error; None: ids are paths as
    given. ``exclude``: folders never read (an index's own). ``follow_links``: follow
    a file link that leads outside the walked folder. ``on_skip(path, reason)`` hears
    of every file passed over (not a document, a link outside, a dangling link) and of
    every file and folder left out by ``ignore_rules`` or ``exclude_patterns`` (reason
    ``ignored (WHY)``). ``ignore_rules``: leave out what the folders' ``.gitignore``,
    ``.ignore`` and ``.chunkwiseignore`` files name, and folders of installed packages
    (``node_modules``, a virtual environment); ``exclude_patterns``: more patterns in
    the same syntax, relative to each folder walked (see :mod:`.ignore`)."""

    root: Path | None = None
    exclude: tuple[Path, ...] = ()
    follow_links: bool = False
    on_skip: Callable[[Path, str], object] | None = None
    ignore_rules: bool = True
    exclude_patterns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_patterns(self.exclude_patterns)

    def skip(self, path: Path, reason: str) -> None:
        if self.on_skip is not None:
            self.on_skip(path, reason)

    def ignorer(self, top: Path) -> Ignorer | None:
        """What a walk of ``top`` (resolved) leaves out; None when nothing is."""
        if not self.ignore_rules and not self.exclude_patterns:
            return None
        return Ignorer(top, self.exclude_patterns, self.ignore_rules)

    def ignored(self, ignorer: Ignorer | None, where: Path, shown: Path, is_dir: bool) -> bool:
        """Whether ``ignorer`` leaves out the entry met as ``shown`` (``where``: its
        resolved folder / its name); told to :attr:`on_skip` when it does."""
        if ignorer is None:
            return False
        why = ignorer.reason(where, is_dir)
        if why is not None:
            self.skip(shown, f"{IGNORED} ({why})")
        return why is not None


PLAIN = Walk()

_LINKS = ("link out of the folder", "dangling link")
#: the start of the reason :class:`Walk` gives for what ignore rules leave out
IGNORED = "ignored"


class SkipCounter:
    """Counts what a walk passed over, by reason, and says it in one line."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        #: what ignore rules left out: why -> [folders, files]
        self.ignored: dict[str, list[int]] = {}

    def __call__(self, path: Path, reason: str) -> None:
        if reason.startswith(IGNORED + " (") and reason.endswith(")"):
            counts = self.ignored.setdefault(reason[len(IGNORED) + 2:-1], [0, 0])
            counts[0 if path.is_dir() else 1] += 1
            return
        self.counts[reason] = self.counts.get(reason, 0) + 1

    def line(self) -> str | None:
        """``skipped 22 files that are not documents: png 20, zip 2; not followed: 1
        dangling link; ignored 1 folder and 3 files: .gitignore 3, node_modules 1
        (--no-ignore reads them)`` (None when nothing was skipped)."""
        files = {k: v for k, v in self.counts.items() if k not in _LINKS}
        links = {k: v for k, v in self.counts.items() if k in _LINKS}
        parts = []
        if files:
            n = sum(files.values())
            what = "files that are not documents" if n != 1 else "file that is not a document"
            parts.append(f"skipped {n} {what}: " + ", ".join(
                f"{k} {v}" for k, v in sorted(files.items(), key=lambda kv: (-kv[1], kv[0]))))
        if links:
            parts.append("not followed: " + ", ".join(
                f"{v} {k}{'s' if v != 1 else ''}" for k, v in sorted(links.items())))
        if self.ignored:
            parts.append(self._ignored_line())
        return "; ".join(parts) or None

    def _ignored_line(self) -> str:
        folders = sum(c[0] for c in self.ignored.values())
        files = sum(c[1] for c in self.ignored.values())
        what = " and ".join(f"{n} {word}{'s' if n != 1 else ''}"
                            for n, word in ((folders, "folder"), (files, "file")) if n)
        by = ", ".join(f"{k} {sum(v)}" for k, v in
                       sorted(self.ignored.items(), key=lambda kv: (-sum(kv[1]), kv[0])))
        hint = " (--no-ignore reads them)" if set(self.ignored) - {BY_EXCLUDE} else ""
        return f"ignored {what}: {by}{hint}"


def canonical(path: Path) -> Path:
    """``path`` with its folders resolved (links, ``..``, the current folder) and its
    own name kept, so a link to a file stays that file."""
    return Path(os.path.realpath(path.parent)) / path.name


def iter_sources(source: Any, *, doc_id: str | None = None, strings_are_paths: bool = False,
                 walk: Walk = PLAIN) -> Iterator[SourceItem]:
    """Every document ``source`` stands for, lazily, in order.

    ``strings_are_paths`` (the command line): a str is a file, folder or glob
    pattern, and ``-`` is standard input. ``doc_id`` names a single text or file.
    ``walk``: how folders are walked and files named (see :class:`Walk`)."""
    if isinstance(source, SourceItem):
        yield source
    elif isinstance(source, Document):
        yield SourceItem(source.source or source.doc_id, document=source)
    elif isinstance(source, os.PathLike) and not isinstance(source, Path):
        yield from _expand_path(Path(source), doc_id, walk=walk)
    elif isinstance(source, Path):
        yield from _expand_path(source, doc_id, walk=walk)
    elif isinstance(source, str):
        if strings_are_paths:
            if source == "-":
                yield SourceItem("<stdin>", stdin=True, doc_id=doc_id)
            else:
                yield from _expand_path(Path(source), doc_id, label=source, walk=walk)
        elif looks_like_path(source):
            yield SourceItem(source, error=_path_hint(source))
        else:
            yield SourceItem("<text>" if doc_id is None else doc_id, text=source, doc_id=doc_id)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        yield SourceItem("<bytes>", error="pass text (str) or a pathlib.Path; decode bytes first")
    elif isinstance(source, Mapping):
        for key, value in source.items():
            if not isinstance(key, str):
                yield SourceItem(repr(key)[:60], error="a mapping's keys are document ids (str)")
                continue
            if isinstance(value, str):
                yield SourceItem(key, text=value, doc_id=key)
            elif isinstance(value, Path):
                yield from _expand_path(value, key, walk=walk)
            elif isinstance(value, Document):
                yield SourceItem(key, document=value)
            else:
                yield SourceItem(key, error=f"expected text or a Path for document {key!r}, "
                                        f"got {type(value).__name__}")
    elif isinstance(source, Iterable):
        if doc_id is not None:
            yield SourceItem(str(doc_id), error="doc_id names one document; give a list of "
                                            "Documents or a {doc_id: text} mapping instead")
            return
        for item in source:
            yield from iter_sources(item, strings_are_paths=strings_are_paths, walk=walk)
    else:
        yield SourceItem(repr(source)[:60], error=f"not text, a path or a Document "
                                              f"({type(source).__name__})")


def _expand_path(path: Path, doc_id: str | None, label: str | None = None,
                 walk: Walk = PLAIN) -> Iterator[SourceItem]:
    label = name_of(label or path)
    try:
        is_dir = path.is_dir()
        exists = is_dir or path.exists()
    except OSError as exc:
        yield SourceItem(label, error=exc.strerror or str(exc))
        return
    if is_dir:
        if doc_id is not None:
            yield SourceItem(label, error="doc_id names one document, not a folder")
            return
        for f, where in _walk_files(path, walk):
            yield _file(f, walk, where=where)
    elif exists:
        if any(_under(canonical(path), x) for x in walk.exclude):
            yield SourceItem(label, error="is part of the index itself, not a document")
        else:
            yield _file(path, walk, label=label, doc_id=doc_id)
    elif has_magic(str(path)):
        matches = [f for f in glob_files(str(path), walk) if _walked(f, walk)]
        if not matches:
            yield SourceItem(label, error="no file matches this pattern")
        for f in matches:
            yield _file(f, walk)
    elif path.is_symlink():
        yield SourceItem(label, error="a dangling link (its target does not exist)")
    else:
        yield SourceItem(label, error="no such file or directory")


def _file(path: Path, walk: Walk, label: str | None = None,
          doc_id: str | None = None, where: Path | None = None) -> SourceItem:
    """The entry for one file: named relative to the walk's root when it has one.
    ``where``: its :func:`canonical` path, when the caller knows it."""
    if walk.root is None or doc_id is not None:
        return SourceItem(name_of(label or path), path=path, doc_id=doc_id)
    where = canonical(path) if where is None else where
    if not _under(where, walk.root):
        return SourceItem(name_of(label or path),
                          error=f"is outside the index's root {walk.root} (documents are "
                                "named relative to it; give another root, and rebuild)")
    return SourceItem(name_of(label or path), path=where,
                      doc_id=name_of(where.relative_to(walk.root).as_posix()))


def _under(path: Path, folder: Path) -> bool:
    return path.is_relative_to(folder)  # (``folder`` itself or a path below it)


def _walked(f: Path, walk: Walk, top: Path | None = None, where: Path | None = None) -> bool:
    """Whether a file met in a folder walk is read: not excluded, a document by
    its extension and first bytes, and not a link leading out of the folder.
    ``where``: its :func:`canonical` path, when the caller knows it."""
    where = canonical(f) if where is None else where
    if any(_under(where, x) for x in walk.exclude):
        return False
    if f.is_symlink():
        try:
            target = f.resolve(strict=True)
        except (OSError, RuntimeError):
            walk.skip(f, "dangling link")
            return False
        if top is not None and not walk.follow_links and not _under(
                target, Path(os.path.realpath(top))):
            walk.skip(f, "link out of the folder")
            return False
    if not _is_file(f):
        if _special(f):  # a named pipe, a socket, a device: never read (a pipe would block)
            walk.skip(f, "not a regular file")
        return False
    reason = passed_over(f)
    if reason is not None:
        walk.skip(f, reason)
        return False
    return True


def passed_over_by_name(name: str) -> str | None:
    """Why a folder walk passes over any file named ``name``, whatever it holds (an
    extension no document has, a sitemap, a lock file), or None: its content decides
    (:func:`passed_over`). ``index --watch`` sleeps through such files' changes (an
    image a build rewrites, the lock file ``npm install`` or ``uv sync`` rewrites)."""
    ext = PurePath(name).suffix.lower().lstrip(".")
    from . import gzipped

    if sitemap(name):  # (a list of addresses, gzipped or not)
        return SITEMAP
    if ext == "gz" and gzipped(name):  # README.gz: the document inside, by its name
        ext = PurePath(name[:-3]).suffix.lower().lstrip(".")
        return ext if ext in NOT_DOCUMENTS else None
    if ext in NOT_DOCUMENTS:
        return ext
    if lock_file(name):
        return LOCK_FILE
    if name.startswith("~$"):  # Word's, Excel's, PowerPoint's "~$port.docx" (162 bytes)
        return OFFICE_OWNER_FILE
    if name.lower() == "desktop.ini":
        return FOLDER_SETTINGS
    if name.lower().endswith(":zone.identifier"):  # (as WSL copies it out of Windows)
        return DOWNLOAD_ORIGIN
    return None


def passed_over(f: Path) -> str | None:
    """Why a folder walk passes over a regular file, by its name and first bytes
    (an extension no document has, a lock file, binary data, a minified or generated
    script, an mdBook site's copy, evaluation questions), or None: it is read."""
    if (by_name := passed_over_by_name(f.name)) is not None:
        return by_name
    from . import gzipped

    ext = f.suffix.lower().lstrip(".")
    if ext == "gz" and gzipped(f.name):  # README.gz: the document inside, by its name
        return None
    if f.suffix.lower() in _BINARY_DOCUMENTS:
        return None
    head = _head(f)
    if binary_head(head) or (control_binary(head) and control_binary(_head(f, SAMPLE_BYTES))):
        return "binary"  # (UTF-16 and UTF-32 text hold NUL bytes too)
    if ext in _MINIFIABLE and (f.name.lower().endswith((".min." + ext, "-min." + ext))
                               or _minified(head)):
        return "minified"
    if (made := generated_reason(f.suffix, head)) is not None:
        return made
    if _PEM.match(head):
        return KEY_OR_CERTIFICATE
    if ext == "html" and (copy := _mdbook_copy(f.name, head)) is not None:
        return copy
    if (built := site_file(f, ext)) is not None:
        return built
    if ext == "jsonl" and questions_file(head):
        return "evaluation questions"
    return None


#: a file that opens with a PEM or OpenPGP armoured block: a private or public key,
#: a certificate, a signature, an encrypted message (base64 to an embedder, and a
#: private key must never reach an index that search, serve and MCP hand out); a
#: clear-signed message is text to read
_PEM = re.compile(rb"\s*-----BEGIN (?!PGP SIGNED MESSAGE-----)[A-Z0-9 ]{1,40}-----\r?\n")
#: the reason given for such a file
KEY_OR_CERTIFICATE = "key or certificate"


def questions_file(head: bytes) -> bool:
    """Whether a JSON Lines file's first bytes open an evaluation set's questions
    (``chunkwise questions`` writes them beside the documents they ask about: read
    as a document, they put every answer's evidence in the index)."""
    first = head.split(b"\n", 1)[0]
    try:
        obj = json.loads(first)
    except ValueError:
        return False
    return isinstance(obj, dict) and {"question", "doc_id", "references"} <= obj.keys()


def _mdbook_copy(name: str, head: bytes) -> str | None:
    """What an mdBook site's page that repeats the others is (its name and marks:
    ``print.html``, every chapter again on one page, half the Rust book's chunks;
    ``toc.html``, the sidebar's list of chapters), or None. mdBook marks both
    ``<meta name="robots" content="noindex">``; named on its own, such a page is read."""
    if name not in ("print.html", "toc.html") or b"generated using mdBook" not in head \
            or _NOINDEX.search(head) is None:
        return None
    return "print edition" if name == "print.html" else "contents page"


_NOINDEX = re.compile(rb"""<meta\s+name=["']?robots["']?\s+content=["'][^"']*noindex""", re.I)


#: scripts a site ships minified (one line of thousands of characters; its style
#: sheets are no documents at all)
_MINIFIABLE = SCRIPT_EXTENSIONS


def _head(path: Path, size: int = 8192) -> bytes:
    """A file's first ``size`` bytes (empty when it cannot be read: reading it will say
    why): 8 KB, or as many as the reader's binary test reads."""
    try:
        with path.open("rb") as stream:
            return stream.read(size)
    except OSError:
        return b""


def _minified(head: bytes) -> bool:
    """Whether a script's first 8 KB read as minified or generated (a site's search
    index, a bundled library): lines of 200 characters on average, one of 1,000 or
    more. Hand-written code averages under 50. A small script of one line of
    :data:`ONE_LINE_GENERATED` characters or more is generated too (rustdoc writes
    ``window.SIDEBAR_ITEMS = {...};`` into every module's folder, 297 of them in
    Rust's documentation, and 1,868 pieces of its search index as ``rn_("dQBJ...")``)."""
    lines = head.split(b"\n")
    if len(head) < 2048:
        line = head.strip()
        return b"\n" not in line and (len(line) >= ONE_LINE_GENERATED
                                      or _DATA_ASSIGNMENT.match(line) is not None)
    return max(map(len, lines)) >= 1000 and len(head) / len(lines) >= 200


#: the shortest script of one line read as generated, not written
ONE_LINE_GENERATED = 120
#: one line that only sets a global to a literal object or array (rustdoc's shortest
#: ``window.SIDEBAR_ITEMS = {"struct":["Box","ThinBox"]};``: 76 of std's were read)
_DATA_ASSIGNMENT = re.compile(rb"(?:(?:window|self|globalThis)\.[\w$]+|(?:var|let|const)\s+[\w$]+)"
                              rb"\s*=\s*[\[{].*[\]}]\s*;?\Z")


def _walkable(folder_name: str) -> bool:
    """A folder a walk goes into: not hidden (but :data:`COMMUNITY_FOLDER`), not a
    LanceDB table's data (``*.lance``: an index kept beside the documents holds JSON
    files of its own)."""
    return (not folder_name.startswith(".") or folder_name == COMMUNITY_FOLDER) \
        and not folder_name.endswith(".lance")


#: the one hidden folder a walk goes into, for its pages only (:data:`PAGES`): where
#: GitHub looks for a project's community files (SECURITY.md, CONTRIBUTING.md,
#: SUPPORT.md, CODE_OF_CONDUCT.md) and its issue and pull request templates; pdf.js
#: keeps its security policy there alone. Its workflows and settings are not read.
COMMUNITY_FOLDER = ".github"
#: the files read from :data:`COMMUNITY_FOLDER`
PAGES = (".md", ".markdown", ".rst", ".txt", ".adoc")


def iter_files(folder: Path, walk: Walk = PLAIN) -> Iterator[Path]:
    """Documents below a folder, sorted, skipping hidden files and folders (and
    LanceDB tables' ``*.lance`` folders), never
    descending into a symbolic link to a folder (no loops), and passing over what
    is not a document (images, archives, binaries: see :data:`NOT_DOCUMENTS`) and
    file links that lead out of the folder, each told to ``walk.on_skip``."""
    for f, _ in _walk_files(folder, walk):
        yield f


def _walk_files(folder: Path, walk: Walk) -> Iterator[tuple[Path, Path]]:
    """:func:`iter_files`, each file with its :func:`canonical` path."""
    site_of.cache_clear()  # (a site built since the last walk, in a long --watch)
    ignorer = walk.ignorer(Path(os.path.realpath(folder)))
    for root, dirs, files in os.walk(folder, followlinks=False):
        here = Path(root)
        real = Path(os.path.realpath(here))  # once per folder, not per file
        dirs[:] = sorted(d for d in dirs if _walkable(d)
                         and not any(_under(real / d, x) for x in walk.exclude)
                         and not walk.ignored(ignorer, real / d, here / d, True))
        pages_only = here != folder and COMMUNITY_FOLDER in here.relative_to(folder).parts
        for name in sorted(files):
            if not name.startswith(".") and (not pages_only or name.lower().endswith(PAGES)):
                f = here / name
                where = real / name
                if not walk.ignored(ignorer, where, f, False) \
                        and _walked(f, walk, folder, where=where):
                    yield f, where


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _special(path: Path) -> bool:
    """Whether ``path`` is there but neither a file nor a folder (a pipe, a socket)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_MAGIC = re.compile(r"[*?[]")


def has_magic(pattern: str) -> bool:
    return _MAGIC.search(pattern) is not None


def _translate(pattern: str) -> re.Pattern[str]:
    """A glob over '/'-separated relative paths: ``**`` any number of folders,
    ``*`` and ``?`` within one name, ``[...]`` a character class."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "]") else i + 1)
            if j == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def glob_files(pattern: str, walk: Walk = PLAIN) -> Iterator[Path]:
    """Files matching a glob pattern, sorted, hidden entries skipped, without
    following symbolic links to folders (a link loop under ``**`` cannot hang); what
    ``walk``'s ignore rules leave out below the pattern's fixed folder is passed over."""
    parts = Path(pattern).parts
    fixed: list[str] = []
    for part in parts:
        if has_magic(part):
            break
        fixed.append(part)
    root = Path(*fixed) if fixed else Path(".")
    rest = "/".join(parts[len(fixed):])
    matcher = _translate(rest)
    if not root.is_dir():
        return
    # without "**" a pattern of k names never looks deeper than k - 1 folders down
    max_depth = None if "**" in rest else rest.count("/")
    found = []
    ignorer = walk.ignorer(Path(os.path.realpath(root)))
    for dirpath, dirs, files in os.walk(root, followlinks=False):
        here = Path(dirpath)
        real = Path(os.path.realpath(here))
        depth = len(here.relative_to(root).parts)
        if max_depth is not None and depth >= max_depth:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if _walkable(d)
                         and not walk.ignored(ignorer, real / d, here / d, True))
        pages_only = here != root and COMMUNITY_FOLDER in here.relative_to(root).parts
        for name in files:
            if name.startswith(".") or (pages_only and not name.lower().endswith(PAGES)):
                continue
            f = here / name
            if matcher.match(f.relative_to(root).as_posix()) and _is_file(f) \
                    and not walk.ignored(ignorer, real / name, f, False):
                found.append(f)
    yield from sorted(found)
