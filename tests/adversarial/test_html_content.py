"""The HTML reader must never drop the main content (red-team issue 14, item 1):
real-shaped pages of the layouts that lost whole articles before."""

import warnings

import pytest

from chunkwise.errors import ExtractionWarning
from chunkwise.readers import parse

ARTICLE = [
    "The city council voted on Tuesday to extend the night bus network to the northern "
    "suburbs, a change residents have asked for since the last route review.",
    "Under the plan, three new routes will run every twenty minutes between midnight and five "
    "in the morning, starting in the spring, paid for by the regional transport fund.",
    "Council members who opposed the plan said the money would be better spent on daytime "
    "services, which carry far more passengers across the whole of the network.",
    "The transport authority will publish the timetables next month and hold two public "
    "meetings before the routes open, one in each of the affected districts.",
]
NAV = "<nav><ul>" + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(12)) + \
    "</ul></nav>"
RELATED = "<div class='related'>" + "".join(
    f"<p><a href='/a{i}'>Another story about something else entirely, number {i}</a></p>"
    for i in range(8)) + "</div>"


def body(paragraphs=ARTICLE):
    return "".join(f"<p>{p}</p>" for p in paragraphs)


def page(inner, title="Night buses for the north"):
    return (f"<!doctype html><html lang='en'><head><title>{title} | The Daily</title>"
            f"<meta name='description' content='Council extends night buses.'>"
            f"<meta name='author' content='A. Reporter'></head><body>{NAV}{inner}"
            f"{RELATED}<footer>Copyright The Daily</footer></body></html>")


def kept(doc, paragraphs=ARTICLE):
    return [p for p in paragraphs if p in doc.text]


@pytest.mark.parametrize("inner", [
    # ASP.NET pages wrap the whole body in one <form>
    f"<form id='aspnetForm' method='post'><div id='main'><h1>Night buses</h1>{body()}</div></form>",
    # hyphenated class names that contain chrome words are not chrome
    f"<div class='content-with-sidebar-wrp'><div class='no-sidebar'><h1>Night buses</h1>"
    f"{body()}</div></div>",
    f"<div class='url-breadcrumb'>Home / City</div><div class='has-section-nav article-body'>"
    f"<h1>Night buses</h1>{body()}</div>",
    # the headline and lede live in a <header> inside the <article>
    f"<article><header><h1>Night buses</h1><p class='lede'>{ARTICLE[0]}</p></header>"
    f"{body(ARTICLE[1:])}</article>",
    # an old layout table around the article
    f"<table width='100%'><tr><td class='left'><a href='/'>Home</a></td><td class='main'>"
    f"<h1>Night buses</h1>{body()}</td></tr></table>",
    # every paragraph in its own wrapper, inside <main>
    "<main><h1>Night buses</h1>" + "".join(f"<div class='para-wrap'><div><p>{p}</p></div></div>"
                                           for p in ARTICLE) + "</main>",
])
def test_the_article_survives(inner):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExtractionWarning)
        doc = parse(page(inner), "news.html", fmt="html")
    assert kept(doc) == ARTICLE
    assert "Night buses" in doc.text
    assert "Section 3" not in doc.text and "Copyright The Daily" not in doc.text


def test_page_metadata_reaches_the_document():
    doc = parse(page(f"<article><h1>Night buses</h1>{body()}</article>"), "n.html", fmt="html")
    assert doc.metadata["title"] == "Night buses for the north | The Daily"
    assert doc.metadata["description"] == "Council extends night buses."
    assert doc.metadata["author"] == "A. Reporter" and doc.metadata["language"] == "en"
    assert doc.title == "Night buses"  # the page's own h1


def test_html_all_keeps_the_whole_page():
    doc = parse(page(f"<article><h1>Night buses</h1>{body()}</article>"), "n.html",
                fmt="html-all")
    assert kept(doc) == ARTICLE and "Another story about something else" in doc.text


def test_a_page_that_keeps_little_of_its_text_warns_naming_it():
    comments = "".join(
        f"<div class='comment'><p>Reader {i} wrote a long reply about buses, trains and the "
        f"state of the roads in the city, going on for quite a while about timetables and "
        f"fares and the weather on the platforms in winter, again and again.</p></div>"
        for i in range(40))
    html = page(f"<article><h1>Night buses</h1>{body(ARTICLE[:2])}</article>"
                f"<section id='comments'><h2>Comments</h2>{comments}</section>")
    with pytest.warns(ExtractionWarning, match=r"talk.html: main-content extraction kept \d+%"):
        doc = parse(html, "talk.html", fmt="html")
    assert kept(doc, ARTICLE[:2]) == ARTICLE[:2]
