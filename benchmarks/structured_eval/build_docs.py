"""Build the documents of the structured evaluation set from documentation that
installed packages ship (their README, the long description in their metadata),
each under a permissive licence kept beside it in licenses/.

    .venv/bin/python benchmarks/structured_eval/build_docs.py

Markdown documents are the READMEs as shipped; HTML documents are READMEs
rendered by markdown-it-py into a page with navigation and a footer (so the
reader's main-content extraction is exercised); PDF documents are READMEs laid
out by fpdf2 (headings in larger type, tables, code) with the DejaVu fonts.
The documents are committed; rerun this only to rebuild them (the questions'
offsets are then re-derived by benchmarks/eval_sets.py).
"""

from __future__ import annotations

import html
import importlib.metadata as md
import re
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
LICENSES = HERE / "licenses"

MARKDOWN = ["pdfplumber", "orjson", "charset-normalizer", "bm25s", "semchunk", "chonkie",
            "threadpoolctl", "dataclasses-json", "langsmith", "typer"]
HTML_DOCS = ["httpcore", "courlan", "sentence-transformers"]
PDF_DOCS = ["rich", "huggingface-hub", "transformers"]
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def readme(name: str) -> tuple[str, md.PackageMetadata, md.Distribution]:
    dist = md.distribution(name)
    meta = dist.metadata
    return meta.get_payload() or "", meta, dist


def copy_license(name: str, dist: md.Distribution) -> str:
    files = [f for f in (dist.files or []) if re.search(r"licen[cs]e|copying", f.name, re.I)]
    LICENSES.mkdir(exist_ok=True)
    for f in files:
        shutil.copy(dist.locate_file(f), LICENSES / f"{name}-{f.name}")
    return ", ".join(f.name for f in files)


def render_html(name: str, text: str) -> str:
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark").enable("table").render(text)
    nav = "".join(f"<li><a href='/{p}'>{p}</a></li>" for p in MARKDOWN[:6])
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{name} "
            f"documentation</title><meta name='description' content='The {name} README.'>"
            f"</head><body><nav class='site-nav'><ul>{nav}</ul></nav>"
            f"<main><article>{body}</article></main>"
            f"<footer>Built from the {html.escape(name)} package metadata.</footer></body></html>")


def render_pdf(name: str, text: str, path: Path) -> None:
    from fpdf import FPDF
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark").enable("table").render(text)
    # no images (they would be fetched), no links inside the document (fpdf2 wants
    # every named destination set)
    body = re.sub(r"</?(?:img|picture|source)\b[^>]*>", "", body)
    body = re.sub(r"<a\b[^>]*>(.*?)</a>", r"\1", body, flags=re.S)
    pdf = FPDF()
    pdf.add_font("DejaVu", "", str(FONTS / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(FONTS / "DejaVuSans-Bold.ttf"))
    pdf.add_font("DejaVu", "I", str(FONTS / "DejaVuSans-Oblique.ttf"))
    pdf.add_font("DejaVu", "BI", str(FONTS / "DejaVuSans-BoldOblique.ttf"))
    pdf.add_font("DejaVuMono", "", str(FONTS / "DejaVuSansMono.ttf"))
    pdf.set_title(f"{name} README")
    pdf.set_author(f"the {name} authors")
    pdf.add_page()
    pdf.set_font("DejaVu", size=10)
    pdf.write_html(body, font_family="DejaVu", pre_code_font="DejaVuMono")
    pdf.output(str(path))


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    rows = []
    for name in MARKDOWN + HTML_DOCS + PDF_DOCS:
        text, meta, dist = readme(name)
        classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
                       if c.startswith("License ::")]
        lic = (meta.get("License-Expression") or (meta.get("License") or "").strip()
               or ", ".join(classifiers) or "see licence files")
        files = copy_license(name, dist)
        if name in MARKDOWN:
            out = DOCS / f"{name}.md"
            out.write_text(text, encoding="utf-8")
        elif name in HTML_DOCS:
            out = DOCS / f"{name}.html"
            out.write_text(render_html(name, text), encoding="utf-8")
        else:
            out = DOCS / f"{name}.pdf"
            render_pdf(name, text, out)
        rows.append(f"| `docs/{out.name}` | {name} {meta['Version']} | "
                    f"{lic.splitlines()[0][:60]} | {files} |")
    (HERE / "SOURCES.md").write_text(
        "# Sources of the structured evaluation set\n\n"
        "Each document is the README (long description) that the named package ships in its\n"
        "installed metadata, as built by `build_docs.py`; its licence files are in `licenses/`.\n\n"
        "| document | package | licence | licence files |\n|---|---|---|---|\n"
        + "\n".join(rows) + "\n", encoding="utf-8")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
