"""Folder walks leave out what a project's ignore files name, folders of installed
packages and ``--exclude`` patterns; git itself is the oracle for the ``.gitignore``
rules (nested files, negation, anchors, folder patterns, ``**``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkwise import Index
from chunkwise.cli import main
from chunkwise.errors import ConfigError
from chunkwise.readers.sources import SkipCounter, Walk, iter_sources

GIT = shutil.which("git") or "git"
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
TEXT = "# Title\n\nSome words about the subject of this file, enough for a chunk.\n"


def _tree(root: Path, files: list[str]) -> None:
    for name in files:
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(TEXT)


def _read(*paths: Path | str, walk: Walk | None = None, base: Path) -> set[str]:
    found = iter_sources([str(p) for p in paths], strings_are_paths=True,
                         walk=walk or Walk())
    out = set()
    for s in found:
        assert s.error is None and s.path is not None, (s.label, s.error)
        out.add(Path(os.path.realpath(s.path)).relative_to(os.path.realpath(base)).as_posix())
    return out


def _git(repo: Path, *argv: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run([GIT, *argv], cwd=repo, env=env, check=True, capture_output=True,
                          text=True).stdout


def _project(root: Path) -> Path:
    _tree(root, ["docs/guide.md", "docs/_build/html/guide.md", "docs/notes.txt",
                 "node_modules/pkg/README.md", "web/node_modules/x/README.md",
                 "venv/lib/site.md", "env2/conda-meta/history.md", "src/__pycache__/m.md",
                 "src/gen/out.md", "src/keep.md", "drafts/one.md", "drafts/two.md",
                 "logs/a.log", "logs/keep.log", "README.md"])
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / ".gitignore").write_text("*.log\n!logs/keep.log\n/drafts/one.md\n")
    (root / "docs" / ".gitignore").write_text("# build output\n_build/\n")
    (root / "src" / ".ignore").write_text("gen/\n")
    (root / ".chunkwiseignore").write_text("notes.txt\n")
    return root


def test_a_walk_leaves_out_what_ignore_files_and_dependency_folders_hold(tmp_path):
    root = _project(tmp_path / "p")
    skipped = SkipCounter()
    assert _read(root, walk=Walk(on_skip=skipped), base=root) == {
        "README.md", "docs/guide.md", "drafts/two.md", "logs/keep.log", "src/keep.md"}
    assert skipped.ignored == {".gitignore": [1, 2], ".ignore": [1, 0],
                               ".chunkwiseignore": [0, 1], "node_modules": [2, 0],
                               "Python environment": [2, 0], "__pycache__": [1, 0]}
    assert skipped.line() == ("ignored 7 folders and 3 files: .gitignore 3, Python environment 2, "
                              "node_modules 2, .chunkwiseignore 1, .ignore 1, "
                              "__pycache__ 1 (--no-ignore reads them)")
    # without the rules every file is read (hidden ones still not)
    assert len(_read(root, walk=Walk(ignore_rules=False), base=root)) == 16
    # a glob is walked with the same rules
    assert _read(f"{root}/**/*.md", base=root) == {
        "README.md", "docs/guide.md", "drafts/two.md", "src/keep.md"}


def test_a_folder_or_file_named_is_read_whatever_the_rules_say(tmp_path):
    root = _project(tmp_path / "p")
    assert _read(root / "node_modules", base=root) == {"node_modules/pkg/README.md"}
    assert _read(root / "docs" / "_build", base=root) == {"docs/_build/html/guide.md"}
    assert _read(root / "drafts" / "one.md", base=root) == {"drafts/one.md"}
    # rules inside a folder named still count (those above it only in a repository)
    assert _read(root / "src", base=root) == {"src/keep.md"}
    assert _read(root / "logs", base=root) == {"logs/a.log", "logs/keep.log"}


def test_exclude_patterns_apply_relative_to_each_folder_given(tmp_path):
    root = _project(tmp_path / "p")
    walk = Walk(exclude_patterns=("drafts/", "/README.md", "guide.md"))
    assert _read(root, walk=walk, base=root) == {"logs/keep.log", "src/keep.md"}
    assert _read(root / "docs", walk=Walk(exclude_patterns=("/guide.md",)), base=root) == {
        "docs/notes.txt"}
    walk = Walk(ignore_rules=False, exclude_patterns=("node_modules/", "*.log", "_build"))
    assert "node_modules/pkg/README.md" not in _read(root, walk=walk, base=root)
    assert "venv/lib/site.md" in _read(root, walk=walk, base=root)
    with pytest.raises(ConfigError, match=r"--exclude '\[abc': not a pattern"):
        Walk(exclude_patterns=("*.md", "[abc"))
    with pytest.raises(ConfigError, match="--exclude '!': holds no pattern"):
        Walk(exclude_patterns=("!",))


def test_a_pattern_of_many_stars_is_matched_without_backtracking(tmp_path):
    """``*a*a*a*a*a*a*a*a*b`` against a long name: a plain translation into a regular
    expression backtracks for hours; the walk reads the folder at once (run in a
    process of its own, killed if it hangs)."""
    root = tmp_path / "p"
    _tree(root, ["a" * 200 + ".md", "x" + "a" * 8 + "b"])
    (root / ".gitignore").write_text("*a" * 8 + "*b\n" + "**/" * 40 + "x\n")
    script = ("import sys; from pathlib import Path; "
              "from chunkwise.readers.sources import iter_sources; "
              "print(sorted(Path(s.path).name for s in iter_sources([sys.argv[1]], "
              "strings_are_paths=True)))")
    done = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(["a" * 200 + ".md"])


def test_lines_git_takes_as_no_pattern_are_passed_over(tmp_path):
    root = tmp_path / "p"
    _tree(root, ["a.md", "b.tmp", "c.md"])
    (root / ".gitignore").write_text("!\n[z-a]\n\\\n*.tmp\n  \n# c.md\n")
    assert _read(root, base=root) == {"a.md", "c.md"}


@needs_git
def test_rules_of_the_folders_above_count_up_to_the_repository_top(tmp_path):
    repo = tmp_path / "repo"
    _tree(repo, ["a/b/doc.md", "a/b/out/gen.md", "a/b/skip.md", "a/b/c/deep.md"])
    _git(repo, "init", "-q")
    (repo / ".gitignore").write_text("out/\n")
    (repo / "a" / ".gitignore").write_text("b/skip.md\n")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("deep.md\n")
    assert _read(repo / "a" / "b", base=repo) == {"a/b/doc.md"}
    # outside a repository the folders above are not read
    shutil.rmtree(repo / ".git")
    assert _read(repo / "a" / "b", base=repo) == {
        "a/b/doc.md", "a/b/out/gen.md", "a/b/skip.md", "a/b/c/deep.md"}


NAMES = ["a", "b", "c"]
FILES = ["x.md", "y.txt", "a.md", "#x.md", "!x.md", "[a].md", "sp ace.md", "x.md "]
PATTERNS = st.sampled_from([
    "*.md", "*.txt", "!*.md", "!x.md", "a/", "/a", "a", "b/", "!b/", "x.md", "/x.md",
    "a/x.md", "**/b/", "**/y.txt", "a/**/x.md", "c/*", "?.md", "[ab]/", "[!a].txt",
    "!a/x.md", "b/**", "!c/", "**", "a/*/", "*/x.md", "\\!x.md", "b*", "!b*/", "!b/x.md",
    "[[:alpha:]].md", "x.m?", "!*/", "[a-b]/", "[^ab].md", "c/**/x.md", "/**", "**/",
    "a/**/", "*", "!a", "x.md ", "a/b", "/c/a/", "**/a/**", "[z-a].md", "[]a].md",
    "\\#x.md", "\\[a\\].md", "sp\\ ace.md", "sp ace.md", "[[]a].md", "x.md\\ ", "*\\ ",
    "[!]]*", "\\*.md", "*a*.md", "?*.*", "*.*", "x*m*", "[xa]*.m*", "*.m*d", "**a", "a**/x.md",
    "*/*/", "s*a*e*"])


def test_a_projects_community_pages_in_github_are_read(tmp_path):
    """GitHub looks for SECURITY.md, CONTRIBUTING.md, SUPPORT.md and the issue
    templates in ``.github`` too (pdf.js keeps its security policy there alone: "how
    do I report a vulnerability" found nothing). A walk, or a glob, reads the pages
    there; the workflows and settings beside them, and every other hidden folder,
    are not read."""
    _tree(tmp_path, ["README.md", ".github/SECURITY.md", ".github/ISSUE_TEMPLATE/bug.md",
                     ".github/workflows/ci.yml", ".github/dependabot.yml", ".github/CODEOWNERS",
                     ".vscode/notes.md", "docs/.drafts/plan.md", "docs/guide.md"])
    assert _read(tmp_path, base=tmp_path) == {
        "README.md", ".github/SECURITY.md", ".github/ISSUE_TEMPLATE/bug.md", "docs/guide.md"}
    assert _read(str(tmp_path / "**" / "*.md"), base=tmp_path) == {
        "README.md", ".github/SECURITY.md", ".github/ISSUE_TEMPLATE/bug.md", "docs/guide.md"}
    # the folder itself given: all of it, as any folder named
    assert len(_read(tmp_path / ".github", base=tmp_path)) == 5


def test_a_vendor_folder_a_package_manager_filled_is_left_out(tmp_path):
    """Go's ``go mod vendor`` (committed in many repositories: thousands of files of
    other projects' code and READMEs), Composer's and Bundler's ``vendor`` folders
    are dependencies; a ``vendor`` folder of the project's own (no such marker) is
    read, and --no-ignore reads them all."""
    _tree(tmp_path, ["go/main.go", "go/vendor/golang.org/x/text/README.md",
                     "php/vendor/monolog/monolog/README.md", "rb/vendor/bundle/ruby/3.3.0/gems/rake/README.md",
                     "own/vendor/notes.md", "own/guide.md"])
    (tmp_path / "go" / "vendor" / "modules.txt").write_text("# golang.org/x/text v0.14.0\n")
    (tmp_path / "php" / "vendor" / "autoload.php").write_text("<?php\nreturn 1;\n")
    skipped = SkipCounter()
    assert _read(tmp_path, walk=Walk(on_skip=skipped), base=tmp_path) == {
        "go/main.go", "own/vendor/notes.md", "own/guide.md"}
    assert skipped.ignored == {"vendored dependencies": [3, 0]}
    assert len(_read(tmp_path, walk=Walk(ignore_rules=False), base=tmp_path)) == 8


@needs_git
@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.lists(st.tuples(st.lists(st.sampled_from(NAMES), max_size=3),
                                st.sampled_from(FILES)), min_size=1, max_size=12),
       ignores=st.dictionaries(st.lists(st.sampled_from(NAMES), max_size=2).map(tuple),
                               st.lists(PATTERNS, min_size=1, max_size=4), max_size=3))
def test_the_walk_reads_what_git_would_track(tmp_path_factory, files, ignores):
    """Any tree, any .gitignore files in any of its folders: the walk reads exactly
    the files ``git ls-files --others --exclude-standard`` lists (untracked, not
    ignored)."""
    repo = tmp_path_factory.mktemp("repo")
    _tree(repo, ["/".join([*folders, name]) for folders, name in files])
    _git(repo, "init", "-q")
    for folder, patterns in ignores.items():
        where = repo.joinpath(*folder)
        if where.is_file():
            continue
        where.mkdir(parents=True, exist_ok=True)
        (where / ".gitignore").write_text("\n".join(patterns) + "\n")
    tracked = {line for line in _git(repo, "ls-files", "--others", "--exclude-standard",
                                     "-z").split("\0")
               if line and not any(part.startswith(".") for part in line.split("/"))}
    assert _read(repo, base=repo) == tracked


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_chunk_takes_exclude_and_no_ignore(tmp_path, capsys):
    root = _project(tmp_path / "p")
    code, out, err = _run(capsys, "chunk", root, "--summary", "--exclude", "drafts/")
    assert code == 0 and "documents 4 " in out
    assert ("ignored 8 folders and 2 files: .gitignore 2, Python environment 2, node_modules 2, "
            "--exclude 1, .chunkwiseignore 1, .ignore 1, __pycache__ 1 (--no-ignore reads "
            "them)") in err
    code, out, err = _run(capsys, "chunk", root, "--summary", "--no-ignore")
    assert code == 0 and "documents 16 " in out and "ignored" not in err
    code, out, err = _run(capsys, "chunk", root, "--summary", "--exclude", "[z-a")
    assert code == 2 and "--exclude '[z-a': not a pattern .gitignore takes" in err


@pytest.mark.slow
def test_a_document_left_out_later_is_counted_then_pruned(tmp_path, capsys, static_embedder):
    """A file the index holds that ignore rules or --exclude leave out later is no longer
    read: the summary counts it apart from deleted files, --prune removes it, and a
    file named on the command line is still indexed."""
    root = _project(tmp_path / "p")
    db = str(tmp_path / "db")
    base = ["--db", db, "--embedder", static_embedder, "--size", "64", "--no-progress"]
    code, out, err = _run(capsys, "index", root, *base, "--no-ignore")
    assert code == 0 and "documents 16 " in out
    (root / "README.md").unlink()
    code, out, err = _run(capsys, "index", root, *base, "--exclude", "drafts/")
    assert code == 0, err
    assert "1 document whose file is gone is still in the index" in out
    assert ("12 documents that a walk now leaves out (ignore rules, --exclude, not documents) "
            "are still in the index (--prune removes them)") in out
    code, out, err = _run(capsys, "index", root, *base, "--exclude", "drafts/", "--prune")
    assert code == 0 and "(0 changed, 13 removed)" in out, out
    code, out, err = _run(capsys, "index", root / "drafts" / "one.md", *base)
    assert code == 0 and "(1 changed, 0 removed)" in out
    with Index(db) as index:
        ids = {r["doc_id"] for r in index.store.rows()[0]}
    assert ids == {"docs/guide.md", "logs/keep.log", "src/keep.md", "drafts/one.md"}
    with pytest.raises(ConfigError, match="--exclude"), Index(db) as index:
        index.sync(root, embedder=static_embedder, exclude=["!"])


@pytest.mark.slow
def test_a_document_no_walk_reads_is_counted_then_pruned(tmp_path, capsys, static_embedder):
    """A lock file indexed by name (as every walk indexed lock files before a walk
    passed over them) is counted by a later run over its folder as a document the walk
    leaves out, and --prune removes it; the folder's documents stay."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "guide.md").write_text("# Guide\n\nHow to run the app.\n")
    (root / "Cargo.lock").write_text('[[package]]\nname = "memchr"\nversion = "2.7.4"\n')
    db = str(tmp_path / "db")
    base = ["--db", db, "--embedder", static_embedder, "--no-progress", "--root", str(root)]
    code, out, err = _run(capsys, "index", root / "Cargo.lock", *base)
    assert code == 0 and "documents 1 " in out, err
    code, out, err = _run(capsys, "index", root, *base)
    assert code == 0 and "skipped 1 file that is not a document: lock file 1" in err
    assert ("1 document that a walk now leaves out (ignore rules, --exclude, not documents) is "
            "still in the index (--prune removes it)") in out
    code, out, err = _run(capsys, "index", root, *base, "--prune")
    assert code == 0 and "(0 changed, 1 removed)" in out, out
    with Index(db) as index:
        assert {r["doc_id"] for r in index.store.rows()[0]} == {"guide.md"}


def test_backup_copies_are_left_out_unless_named(tmp_path, capsys):
    """An editor's backup (`notes.md~`), Emacs's autosave (`#notes.md#`), a merge's or
    a patch's leftovers (`.orig`, `.rej`) and `.bak` copies were read as documents of
    their own: each a second copy of a page in the results (and `index --watch` never
    woke for them, while the run it started read them). Left out as ignore rules leave
    things out now: counted, --no-ignore reads them, a file named is read."""
    names = ["notes.md~", "#notes.md#", "notes.md.orig", "notes.md.rej", "notes.md.BAK",
             "sub/guide.rst~"]
    _tree(tmp_path, ["notes.md", "sub/guide.rst", "tilde~dir/inside.md", *names])
    assert _read(tmp_path, base=tmp_path) == {"notes.md", "sub/guide.rst", "tilde~dir/inside.md"}
    assert _read(tmp_path, walk=Walk(ignore_rules=False), base=tmp_path) == {
        "notes.md", "sub/guide.rst", "tilde~dir/inside.md", *names}
    assert _read(tmp_path / "notes.md~", base=tmp_path) == {"notes.md~"}
    code, _, err = _run(capsys, "chunk", tmp_path, "--summary")
    assert code == 0 and "ignored 6 files: backup copy 6 (--no-ignore reads them)" in err
    # index --watch's filter sleeps through an editor's backups, as the walk now does
    from watchfiles import Change, DefaultFilter

    woken = DefaultFilter()
    assert not woken(Change.modified, str(tmp_path / "notes.md~"))
    assert woken(Change.modified, str(tmp_path / "notes.md"))


def test_an_index_kept_beside_the_documents_is_no_document(tmp_path, capsys, static_embedder):
    """`chunkwise chunk docs` with the index in docs/db read the index's
    chunkwise-unchanged.json (and BM25's files, after a search) as documents; eval,
    questions and an index elsewhere did too. A folder holding a chunkwise index
    (its writer lock, LanceDB's settings table) is left out like a package folder."""
    docs = tmp_path / "docs"
    _tree(docs, ["guide.md", "sub/notes.md"])
    with Index(str(docs / "db")) as index:
        index.sync(docs, embedder=static_embedder)
        assert index.search("subject", k=1)
    assert any(p.suffix == ".json" for p in (docs / "db").rglob("*"))
    assert _read(docs, base=docs) == {"guide.md", "sub/notes.md"}
    code, _, err = _run(capsys, "chunk", docs, "--summary")
    assert code == 0 and "ignored 1 folder: chunkwise index 1" in err
    # Qdrant's local mode: the writer lock marks its folder
    (docs / "qdrant").mkdir()
    (docs / "qdrant" / ".chunkwise-writer.lock").touch()
    (docs / "qdrant" / "meta.json").write_text('{"collections": {}}')
    assert _read(docs, base=docs) == {"guide.md", "sub/notes.md"}
    assert "qdrant/meta.json" in _read(docs, walk=Walk(ignore_rules=False), base=docs)


def test_the_folder_a_browser_writes_beside_a_saved_page_is_left_out(tmp_path, capsys):
    """A page saved "complete" by a browser (or as a web page by Office) is
    ``Page.html`` and a ``Page_files`` folder of its pictures, style sheets, scripts
    and frames' pages: the scripts were read as code (15 of a saved page's 21 chunks
    were its analytics script) and an advertisement's frame as a page. The folder is
    left out as a dependency folder is; a frameset page's folder holds its pages
    (Excel's sheets) and is read, as is a ``_files`` folder no page stands beside."""
    _tree(tmp_path, ["Rotating keys.html", "Rotating keys_files/analytics.js",
                     "Rotating keys_files/saved_resource.html",
                     "Schlüssel.HTM", "Schlüssel-Dateien/script.js",
                     "Budget.htm", "Budget_files/sheet001.htm",
                     "upload_files/notes.md", "_files/readme.md"])
    (tmp_path / "Budget.htm").write_text('<html><frameset rows="*,39"><frame src="Budget_files/'
                                         'sheet001.htm"></frameset></html>')
    kept = {"Rotating keys.html", "Schlüssel.HTM", "Budget.htm", "Budget_files/sheet001.htm",
            "upload_files/notes.md", "_files/readme.md"}
    assert _read(tmp_path, base=tmp_path) == kept
    assert _read(tmp_path, walk=Walk(ignore_rules=False), base=tmp_path) == kept | {
        "Rotating keys_files/analytics.js", "Rotating keys_files/saved_resource.html",
        "Schlüssel-Dateien/script.js"}
    code, _, err = _run(capsys, "chunk", tmp_path, "--summary")
    assert code == 0 and "ignored 2 folders: saved page's files 2 (--no-ignore reads them)" in err


def test_a_drives_recycle_bin_and_system_folders_are_left_out(tmp_path, capsys):
    """Indexing a USB drive or a mounted Windows disk read its recycle bin: deleted
    documents, renamed ``$R3XK2PQ.md``, served as live pages (and ``RECYCLER`` on XP's
    drives, restore points, what fsck recovered into ``lost+found``)."""
    _tree(tmp_path, ["report.md", "$RECYCLE.BIN/S-1-5-21-1004/$R3XK2PQ.md",
                     "RECYCLER/S-1-5-21/Dc1.md", "System Volume Information/tracking.md",
                     "lost+found/#12345.md", "recycler-notes/keep.md"])
    assert _read(tmp_path, base=tmp_path) == {"report.md", "recycler-notes/keep.md"}
    code, _, err = _run(capsys, "chunk", tmp_path, "--summary")
    assert code == 0 and "ignored 4 folders: recycle bin or system folder 4" in err
