"""The questions of the Org mode set, written by hand against five of Doom Emacs's
module pages in docs/ (Org mode: headlines, ``#+begin_src`` blocks, tables, lists):
Rust, Magit, Python, dired and C/C++; the other 154 module pages are the corpus they
are asked in. Each question's evidence is the file's text exactly (found once).

Tags: procedure (a command or setting to use), table (the evidence is a table row),
heading-dependent (the question needs the headline the evidence sits under: which
system, which module), prose.
"""

TAGS = {"procedure", "table", "heading-dependent", "prose"}

Q = dict

RUST = "lang/rust/README.org"
MAGIT = "tools/magit/README.org"
PY = "lang/python/README.org"
DIRED = "emacs/dired/README.org"
CC = "lang/cc/README.org"

QUESTIONS = [
    Q(doc=RUST, question="How do I install rust-analyzer for Doom's Rust support?",
      evidence=["$ rustup component add rust-analyzer rust-src"], tags=["procedure"]),
    Q(doc=RUST, question="Which keybinding runs cargo clippy in Rust buffers?",
      evidence=["| =<localleader> b C= | ~cargo clippy~              |"], tags=["table"]),
    Q(doc=RUST, question="What does rustic do differently in Doom about installing lsp-mode?",
      evidence=["rustic has been modified /not/ to automatically install lsp-mode or eglot if"],
      tags=["prose"]),
    Q(doc=RUST, question="What do I need for formatting Rust code with the editor format module?",
      evidence=["you'll need =rustfmt="], tags=["procedure"]),
    Q(doc=MAGIT, question="How do I open magit status?",
      evidence=["Start magit with [[kbd:][<leader> g g]] (~M-x magit-status~)."],
      tags=["procedure"]),
    Q(doc=MAGIT, question="How can I show gravatars when viewing commits in magit?",
      evidence=["(setq magit-revision-show-gravatars '(\"^Author:     \" . \"^Commit:     \")))"],
      tags=["procedure", "heading-dependent"]),
    Q(doc=MAGIT, question="How do I get character-wise diff highlights for all hunks?",
      evidence=["(setq magit-diff-refine-hunk 'all))"], tags=["procedure", "heading-dependent"]),
    Q(doc=MAGIT, question="What Emacs version does the forge flag need?",
      evidence=["*Requires Emacs\n  29.1 or newer.*"], tags=["prose"]),
    Q(doc=MAGIT, question="What change does the authinfo file need after github-review was "
                          "replaced by code-review?",
      evidence=["machine api.github.com login yourlogin^code-review password MYTOKENGOESHERE"],
      tags=["procedure"]),
    Q(doc=PY, question="Which python module flag cannot be used together with +uv?",
      evidence=["Enable Python virtual environment support via [[https://github.com/pyenv/pyenv]"
                "[pyenv]]. Cannot be used together"], tags=["prose"]),
    Q(doc=PY, question="What does the +cython flag of the python module enable?",
      evidence=["Enable support for Cython files support."], tags=["prose"]),
    Q(doc=DIRED, question="What do I install on Debian to get dirvish previews working?",
      evidence=["$ apt install fd-find poppler-utils ffmpegthumbnailer mediainfo imagemagick tar unzip"],
      tags=["procedure", "heading-dependent"]),
    Q(doc=DIRED, question="How do I jump to the current directory in dired?",
      evidence=["Jump to current directory in dired"], tags=["table"]),
    Q(doc=DIRED, question="How do I stop dirvish from keeping session buffers after quitting?",
      evidence=["Set ~dirvish-reuse-session~ to nil."], tags=["procedure", "heading-dependent"]),
    Q(doc=CC, question="How do I install clangd on Fedora?",
      evidence=["Fedora & CentOS/RHEL 8+: ~$ dnf install clang-tools-extra~"], tags=["procedure"]),
    Q(doc=CC, question="Which formatter does the cc module use?",
      evidence=["The formatter used is [[doom-executable:clang-format]] which should be installed "
                "alongside"], tags=["heading-dependent"]),
]
