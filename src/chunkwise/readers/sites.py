"""What a documentation site a generator built holds besides its pages: a folder
walk reads a built site's pages once, and passes over its scripts, its search index
(every page's text again, as JSON or a script), the copies of its pages' sources and
its generated index pages. A site Flask's six pages built by Sphinx was 617 chunks,
179 of them the pages'; a two-page MkDocs site 315 chunks, 7 of them the pages' (its
search library alone 244).

A built site is told by its root folder (:func:`site_of`): Sphinx writes
``objects.inv`` and ``searchindex.js`` there, MkDocs ``sitemap.xml`` and
``search/search_index.json``, mdBook ``book.js`` or ``searchindex.js`` beside
``print.html`` (whose own copies :mod:`chunkwise.readers.sources` passes over).
A sitemap (``sitemap.xml``, a list of addresses) is never a document, in a site or
not."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

SPHINX, MKDOCS, MDBOOK = "Sphinx", "MkDocs", "mdBook"
#: the reasons a walk gives
SITE_SCRIPT = "site script"
SEARCH_INDEX = "site search index"
SITEMAP = "sitemap"
PAGE_SOURCE = "Sphinx page source"
INDEX_PAGE = "Sphinx index page"
ERROR_PAGE = "site error page"
#: the pages Sphinx generates as indexes (of terms, of modules) and its search page
_SPHINX_INDEX_PAGE = re.compile(r"genindex(?:-[^/]+)?\.html|[a-z]+-modindex\.html|search\.html")
_SITEMAP = re.compile(r"sitemap(?:[-_.][\w-]*)?\.xml(?:\.gz)?", re.IGNORECASE)
#: the extensions of scripts (a site's; a minified one anywhere)
SCRIPT_EXTENSIONS = frozenset({"js", "mjs", "cjs"})


@lru_cache(maxsize=4096)
def site_of(folder: Path) -> str | None:
    """The generator that built the site whose root ``folder`` is, or None."""
    def has(*names: str) -> bool:
        return all((folder / name).is_file() for name in names)

    if has("objects.inv", "searchindex.js"):
        return SPHINX
    if has("sitemap.xml", "search/search_index.json"):
        return MKDOCS
    if has("print.html") and (has("book.js") or has("searchindex.js")):
        return MDBOOK
    return None


def sitemap(name: str) -> bool:
    """Whether a file of this name is a sitemap (``sitemap.xml``, ``sitemap-1.xml.gz``)."""
    return _SITEMAP.fullmatch(name) is not None


def site_file(f: Path, ext: str) -> str | None:
    """Why a walk passes over ``f`` (its extension ``ext``, lower case) as part of a
    built site rather than one of its pages, or None."""
    if ext not in SCRIPT_EXTENSIONS and ext not in ("txt", "html", "json"):
        return None
    for i, folder in enumerate(f.parents):
        site = site_of(folder)
        if site is None:
            continue
        inside = f.parts[len(folder.parts):]  # (the folders below the root, and the name)
        if ext in SCRIPT_EXTENSIONS:
            return SITE_SCRIPT
        if ext == "json" and f.name in ("search_index.json", "searchindex.json"):
            return SEARCH_INDEX
        if site == SPHINX and ext == "txt" and inside[0] == "_sources":
            return PAGE_SOURCE
        if site == SPHINX and i == 0 and ext == "html" and _SPHINX_INDEX_PAGE.fullmatch(f.name):
            return INDEX_PAGE
        if i == 0 and f.name == "404.html":  # "Page not found" in the site's frame
            return ERROR_PAGE
        return None
    return None
