"""Evaluation harness: datasets, metrics, retrieval, CLI."""

import json

import pytest

import chunkwise
from chunkwise.cli import main
from chunkwise.eval import (
    Dataset,
    DatasetError,
    evaluate,
    load_chroma,
    load_jsonl,
    metrics,
    spans_from_jsonl,
)


def test_span_metrics_by_hand():
    refs = [(10, 20), (30, 40)]  # 20 reference characters
    recall, precision, iou = metrics.span_scores([(0, 15), (35, 50)], refs)
    assert recall == pytest.approx(10 / 20)
    assert precision == pytest.approx(10 / 30)
    assert iou == pytest.approx(10 / (30 + 10))
    # overlapping retrieved chunks count their characters twice in the denominator
    r2, p2, i2 = metrics.span_scores([(10, 20), (10, 20)], [(10, 20)])
    assert (r2, p2, i2) == (1.0, 0.5, 0.5)
    assert metrics.precision_omega([(0, 12), (12, 25), (25, 60)], refs) == pytest.approx(20 / 60)
    assert metrics.full_evidence([(5, 25), (28, 41)], refs) == 1.0
    assert metrics.full_evidence([(5, 25), (31, 41)], refs) == 0.0
    assert metrics.reciprocal_rank([(50, 60), (0, 11)], refs) == 0.5
    assert metrics.budget_spans([(0, 100), (100, 200)], [10, 20], 20) == [(0, 100), (100, 150)]


@pytest.fixture()
def tiny(tmp_path):
    docs = {
        "policies/retention.md": "# Retention\n\nAccident reports are kept for seven years.\n\n"
                                 "Near-miss reports are kept for three years.\n",
        "faq.txt": "Refunds reach your card within five working days.\n\n"
                   "Standard shipping takes three to five days.\n",
    }
    for rel, text in docs.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    qs = []
    for doc, question, answer in [
        ("policies/retention.md", "How long are accident reports kept?", "Accident reports are kept for seven years."),
        ("faq.txt", "When do refunds arrive?", "Refunds reach your card within five working days."),
        ("faq.txt", "How long does standard shipping take?", "Standard shipping takes three to five days."),
    ]:
        start = docs[doc].index(answer)
        qs.append({"question": question, "doc_id": doc, "tags": ["demo"],
                   "references": [{"start": start, "end": start + len(answer), "content": answer}]})
    (tmp_path / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in qs))
    return tmp_path


@pytest.mark.slow
def test_jsonl_dataset_and_retrievers(tiny):
    ds = load_jsonl(tiny)
    assert len(ds.questions) == 3 and set(ds.documents) == {"policies/retention.md", "faq.txt"}
    chunker = chunkwise.get_chunker("sentence", size=16)
    for retriever in ("dense", "bm25", "hybrid"):
        r = evaluate(ds, chunker, retriever=retriever, k=1)
        assert r.metrics["recall"] == 100.0, retriever
        assert r.metrics["full_evidence"] == 100.0 and r.metrics["mrr"] == 100.0
        assert 0 < r.metrics["iou"] <= 100.0
        assert r.by_tag["demo"]["recall"] == 100.0 and set(r.by_corpus) == set(ds.documents)
    per_doc = evaluate(ds, chunker, retriever="bm25", k=1, scope="document")
    assert per_doc.metrics["recall"] == 100.0


def test_each_questions_metrics_are_given_in_the_datasets_order(tiny):
    """``Result.per_question``: one row per question, in order, whose means are the
    run's metrics (what a paired comparison of two runs needs:
    benchmarks/tune_rule.py)."""
    ds = load_jsonl(tiny)
    r = evaluate(ds, chunkwise.get_chunker("sentence", size=16), retriever="bm25", k=1)
    assert len(r.per_question) == len(ds.questions) == r.n_questions
    for key in ("recall", "full_evidence", "budget_recall", "mrr", "iou"):
        assert sum(row[key] or 0.0 for row in r.per_question) * 100 / 3 == pytest.approx(
            r.metrics[key])
    # in the dataset's order: the questions reversed, their rows reversed
    rows = r.per_question
    assert rows != rows[::-1]  # (the rows differ: the order can be told)
    backwards = Dataset("backwards", ds.documents, ds.questions[::-1])
    r = evaluate(backwards, chunkwise.get_chunker("sentence", size=16), retriever="bm25", k=1)
    assert r.per_question == rows[::-1]


def test_reference_mismatch_is_reported(tiny):
    lines = (tiny / "questions.jsonl").read_text().splitlines()
    q = json.loads(lines[0])
    q["references"][0]["start"] += 3
    (tiny / "questions.jsonl").write_text("\n".join([json.dumps(q)] + lines[1:]))
    with pytest.raises(DatasetError, match="1 reference\\(s\\) do not match"):
        load_jsonl(tiny)


def test_chroma_loader_validates_all_references(chroma_dir):
    ds = load_chroma(chroma_dir)
    assert len(ds.questions) == 472
    assert sum(len(q.references) for q in ds.questions) == 790
    assert set(ds.documents) == {"chatlogs", "finance", "pubmed", "state_of_the_union", "wikitexts"}


def test_cli_eval_json_on_chroma_with_bm25(chroma_dir, capsys):
    code = main(["eval", "--dataset", f"chroma:{chroma_dir}", "--retriever", "bm25",
                 "--size", "200", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    row = json.loads(out)
    for key in ("recall", "precision", "precision_omega", "iou", "full_evidence",
                "budget_recall", "mrr", "n_questions", "n_chunks", "config"):
        assert key in row
    assert row["n_questions"] == 472 and row["config"]["strategy"] == "auto"
    assert 60 < row["recall"] < 100 and 0 < row["iou"] < 20
    assert len(out.strip().splitlines()) == 1


@pytest.mark.slow
def test_cli_eval_scores_foreign_chunks_and_grid(chroma_dir, tmp_path, capsys):
    text = (chroma_dir / "chatlogs.md").read_text(encoding="utf-8")
    # a naive peer: fixed 800-character windows with no offsets given
    with open(tmp_path / "peer.jsonl", "w") as f:
        for i in range(0, len(text), 800):
            f.write(json.dumps({"doc_id": "chatlogs", "text": text[i:i + 800]}) + "\n")
    from chunkwise.eval import load_chroma as lc

    ds = lc(chroma_dir)
    spans = spans_from_jsonl(tmp_path / "peer.jsonl", ds)
    assert spans[1].start == 800 and spans[1].end == 1600
    grid = tmp_path / "grid.toml"
    grid.write_text(f"""
[defaults]
retriever = "bm25"

[[run]]
name = "peer 800 chars"
chunks = "{tmp_path / 'peer.jsonl'}"

[[run]]
name = "ours 128"
strategy = "recursive"
size = 128
""")
    code = main(["eval", "--dataset", f"chroma:{chroma_dir}", "--grid", str(grid),
                 "--out", str(tmp_path / "res")])
    out = capsys.readouterr().out
    assert code == 0
    assert "peer 800 chars" in out and "ours 128" in out and "*" in out
    rows = json.loads((tmp_path / "res" / "results.json").read_text())
    assert [r["name"] for r in rows] == ["peer 800 chars", "ours 128"]
    assert (tmp_path / "res" / "results.csv").read_text().startswith("name,recall")
    svg = (tmp_path / "res" / "recall_tokens.svg").read_text()
    assert svg.startswith("<svg") and "polyline" in svg


def test_cli_eval_bad_dataset(capsys, tmp_path):
    assert main(["eval", "--dataset", f"chroma:{tmp_path}"]) == 2
    assert "no questions_df.csv" in capsys.readouterr().err
    assert main(["eval", "--dataset", "nonsense"]) == 2


@pytest.mark.slow
def test_parent_expansion_and_table_neighbours(tmp_path):
    intro = "Retention rules for every record type are listed in the table below."
    names = ["payroll", "invoice", "boiler inspection", "visitor log", "cctv footage",
             "training", "contract", "tax return", "pension", "accident", "near miss", "audit"]
    table = "\n".join(["| Record | Years |", "|---|---|"] +
                      [f"| {name} | {i + 1} years |" for i, name in enumerate(names)])
    after = "Records under legal hold are never deleted until the hold is lifted."
    text = f"# Retention\n\n{intro}\n\n{table}\n\n{after}\n"
    (tmp_path / "policy.md").write_text(text)
    answer = "| boiler inspection | 3 years |"
    start = text.index(answer)
    q = {"question": "How many years are boiler inspection records kept?", "doc_id": "policy.md",
         "references": [{"start": start, "end": start + len(answer), "content": answer}]}
    (tmp_path / "questions.jsonl").write_text(json.dumps(q))
    ds = load_jsonl(tmp_path)

    hier = chunkwise.get_chunker("hierarchical", sizes=[400, 24], overlaps=[0, 0])
    leaves = evaluate(ds, hier, retriever="bm25", k=1)
    parents = evaluate(ds, hier, retriever="bm25", k=1, expand="parents")
    assert leaves.metrics["recall"] == 100.0 and parents.metrics["recall"] == 100.0
    assert parents.retrieved_tokens > leaves.retrieved_tokens  # the parent was handed back
    assert parents.config["expand"] == "parents"

    section = chunkwise.get_chunker("section", size=40, table_max=40)
    plain = evaluate(ds, section, retriever="bm25", k=1)
    wide = evaluate(ds, section, retriever="bm25", k=1, neighbours=1)
    assert plain.n_chunks > 3
    assert wide.retrieved_tokens > plain.retrieved_tokens  # table hits bring their neighbours
    assert wide.metrics["recall"] == 100.0


def test_eval_reports_truncated_chunks(tiny, capsys):
    """Issue 13, item 8: chunks counted in one tokenizer but longer than the embedder
    reads are counted and warned about, not silently cut."""
    code = main(["eval", "--dataset", f"jsonl:{tiny}", "--retriever", "bm25", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["truncated"] == 0
    from chunkwise.embed import OnnxMiniLMEmbedder
    from chunkwise.eval.run import count_truncated

    emb = OnnxMiniLMEmbedder()
    long = "word " * 400
    assert count_truncated(emb, ["short text", long, long]) == 2


def test_the_structured_evaluation_set_loads_and_is_varied(tmp_path):
    """Issue 13: 15+ documents (Markdown, HTML, PDF) with headings, tables,
    procedures and code; 100+ questions with exact spans, tagged, validated on load;
    questions.jsonl is what benchmarks/eval_sets.py writes."""
    from helpers import ROOT

    ds = load_jsonl(ROOT / "benchmarks" / "structured_eval")
    assert len(ds.questions) >= 100 and len(ds.documents) >= 15
    kinds = {d.rsplit(".", 1)[-1] for d in ds.documents}
    assert kinds == {"md", "html", "pdf"}
    tags = {t for q in ds.questions for t in q.tags}
    assert tags == {"table", "heading-dependent", "procedure", "prose", "code"}
    for q in ds.questions:  # validated on load; checked once more here
        doc = ds.documents[q.doc_id]
        assert all(doc.text[r.start:r.end] == r.content for r in q.references)
    _rebuilt_exactly(tmp_path, ROOT / "benchmarks" / "structured_eval")


def _rebuilt_exactly(tmp_path, folder):
    """``benchmarks/eval_sets.py`` rebuilds a copy of the set in ``folder`` and writes
    the questions.jsonl committed there, byte for byte (a changed reader or document
    would show here)."""
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "benchmarks" / folder.name
    shutil.copytree(folder, copy)
    shutil.copy(folder.parent / "eval_sets.py", copy.parent)
    (copy / "questions.jsonl").unlink()
    res = subprocess.run([sys.executable, str(copy.parent / "eval_sets.py"), str(copy)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert (copy / "questions.jsonl").read_bytes() == (folder / "questions.jsonl").read_bytes()


@pytest.mark.parametrize("name, doc, size", [
    ("narrative_eval", "adventures-of-sherlock-holmes.txt", 500_000),
    ("narrative_heldout", "treasure-island.txt", 350_000),
    ("narrative_confirm", "pride-and-prejudice.txt", 700_000)])
def test_the_narrative_evaluation_sets_load_and_their_questions_are_rebuilt_exactly(
        tmp_path, name, doc, size):
    """Issue 21: three narrative sets (one public-domain book each, hand-written
    questions with exact spans and short answers; the last never tuned on); questions.jsonl
    is what benchmarks/eval_sets.py writes from the questions as written."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / name
    ds = load_jsonl(folder)
    assert len(ds.questions) >= 30 and list(ds.documents) == [f"docs/{doc}"]
    book = ds.documents[f"docs/{doc}"].text
    assert len(book) > size and "Gutenberg" not in book
    for q in ds.questions:
        assert q.answer and len(q.references) == 1
        r = q.references[0]
        assert book[r.start:r.end] == r.content and 10 < len(r.content) <= 400
    _rebuilt_exactly(tmp_path, folder)


@pytest.mark.parametrize("name, ext", [("rst_eval", "rst"), ("sphinx_html_eval", "html")])
def test_the_sphinx_sets_load_their_pages_alone_and_are_rebuilt_exactly(tmp_path, name, ext):
    """benchmarks/rst_eval: Flask's pages as Sphinx sources; sphinx_html_eval: the same
    built to HTML; each corpus is its docs/ alone (the set's README, licence and
    questions_src.py were ranked with the pages until a .chunkwiseignore said so);
    questions.jsonl is what benchmarks/eval_sets.py writes (with today's readers)."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / name
    ds = load_jsonl(folder)
    assert len(ds.questions) >= 30
    assert sorted(ds.documents) == [f"docs/{n}.{ext}" for n in (
        "api", "config", "quickstart", "signals", "templating", "web-security")]
    assert {t for q in ds.questions for t in q.tags} == {"object", "prose"}
    _rebuilt_exactly(tmp_path, folder)


def test_the_org_set_loads_its_pages_alone_and_is_rebuilt_exactly(tmp_path):
    """benchmarks/org_eval: Doom Emacs's module pages in Org mode, questions about
    five of them; the corpus is docs/ alone (all 159 pages, read as Org: every page
    titled by its #+title: line), and questions.jsonl is what eval_sets.py writes."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / "org_eval"
    ds = load_jsonl(folder)
    assert len(ds.questions) == 16 and len(ds.documents) == 159
    assert all(d.startswith("docs/") and d.endswith("/README.org") for d in ds.documents)
    assert all(doc.metadata["format"] == "org" and doc.title for doc in ds.documents.values())
    assert {t for q in ds.questions for t in q.tags} == {
        "procedure", "heading-dependent", "prose", "table"}
    _rebuilt_exactly(tmp_path, folder)


def test_the_docbook_set_loads_its_pages_alone_and_is_rebuilt_exactly(tmp_path):
    """benchmarks/docbook_eval: the PHP manual's array functions in DocBook 5, read by
    the xml reader (every page a reference page titled by its function's name);
    questions.jsonl is what eval_sets.py writes from the reader's text, so a change
    to that text fails here until the set is rebuilt."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / "docbook_eval"
    ds = load_jsonl(folder)
    assert len(ds.questions) == 16 and len(ds.documents) == 88
    assert all(d.startswith("docs/") and d.endswith(".xml") for d in ds.documents)
    assert all(doc.metadata["xml_vocabulary"] == "docbook" and doc.title
               for doc in ds.documents.values())
    assert ds.documents["docs/usort.xml"].title == "usort"
    assert {t for q in ds.questions for t in q.tags} == {
        "procedure", "heading-dependent", "prose", "table", "code"}
    _rebuilt_exactly(tmp_path, folder)


def test_the_jats_set_loads_its_papers_alone_and_is_rebuilt_exactly(tmp_path):
    """benchmarks/jats_eval: six eLife papers in JATS, read by the xml reader (each
    titled by its article title, its authors and DOI metadata)."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / "jats_eval"
    ds = load_jsonl(folder)
    assert len(ds.questions) == 16 and len(ds.documents) == 6
    assert all(doc.metadata["xml_vocabulary"] == "jats" and doc.metadata["doi"]
               .startswith("10.7554/eLife.") and doc.metadata["authors"]
               for doc in ds.documents.values())
    assert {t for q in ds.questions for t in q.tags} == {"procedure", "heading-dependent", "prose"}
    _rebuilt_exactly(tmp_path, folder)


def test_the_pdf_outline_set_reads_its_controls_as_headings_and_is_rebuilt_exactly(tmp_path):
    """benchmarks/pdf_outline_eval: NIST SP 800-161, whose controls and enhancements
    are headings only through the PDF's outline; every heading-dependent question's
    evidence sits under the control it names (its heading trail holds it)."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / "pdf_outline_eval"
    ds = load_jsonl(folder)
    assert len(ds.questions) == 16 and list(ds.documents) == ["docs/nist-sp-800-161.pdf"]
    doc = ds.documents["docs/nist-sp-800-161.pdf"]
    signed = doc.text.index("This control aids in verifying that the acquired ICT components")
    trail = next(b.headings for b in doc.blocks if b.start <= signed < b.end)
    assert trail[-2:] == ("CM-5 ACCESS RESTRICTIONS FOR CHANGE",
                          "(3) ACCESS RESTRICTIONS FOR CHANGE | SIGNED COMPONENTS")
    assert {t for q in ds.questions for t in q.tags} == {"heading-dependent", "prose"}
    _rebuilt_exactly(tmp_path, folder)


def test_the_held_out_documentation_set_loads_and_its_questions_are_rebuilt_exactly(
        tmp_path):
    """Issue 21: a second documentation set (HTML and PDF of projects not used
    before: the Lua 5.3 manual and readme, OWASP ASVS 4.0.3 V2-V3); questions.jsonl
    is what benchmarks/eval_sets.py writes, and the ASVS requirements it asks about are
    read as table rows (the borderless tables)."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / "docs_heldout"
    ds = load_jsonl(folder)
    assert len(ds.questions) >= 35
    assert {d.rsplit(".", 1)[-1] for d in ds.documents} == {"html", "pdf"}
    assert {t for q in ds.questions for t in q.tags} == {
        "table", "heading-dependent", "procedure", "prose", "code"}
    asvs = ds.documents["docs/asvs-4.0.3-v2-v3.pdf"]
    for q in ds.questions:
        r = q.references[0]
        assert ds.documents[q.doc_id].text[r.start:r.end] == r.content
        if q.doc_id.endswith(".pdf") and "table" in q.tags:
            line_start = asvs.text.rfind("\n", 0, r.start) + 1
            assert asvs.text.startswith("| ", line_start)  # inside a table row
    _rebuilt_exactly(tmp_path, folder)


@pytest.mark.parametrize("name, languages, n", [
    ("code_eval", {"py"}, 45), ("code_heldout", {"js"}, 30), ("code_js_eval", {"js"}, 30),
    ("code_polyglot_eval", {"swift", "kt", "rb", "php", "sh", "lua"}, 38),
    ("transcript_eval", {"vtt"}, 30), ("transcript_heldout", {"vtt"}, 25)])
def test_the_code_and_transcript_sets_load_and_their_questions_are_rebuilt_exactly(
        tmp_path, name, languages, n):
    """Issue 21, size by kind for code and transcripts: two sets of each (Requests in
    Python and Mercury-Atlas 6 as WebVTT, the tuning sets; Express in JavaScript and
    Mercury-Atlas 7, held out), hand-written questions whose evidence is the file's own
    text; questions.jsonl is what benchmarks/eval_sets.py writes."""
    from helpers import ROOT

    folder = ROOT / "benchmarks" / name
    ds = load_jsonl(folder)
    assert len(ds.questions) >= n
    assert {d.rsplit(".", 1)[-1] for d in ds.documents} == languages
    for q in ds.questions:
        path = folder / q.doc_id
        raw = path.read_text(encoding="utf-8")
        for r in q.references:
            assert ds.documents[q.doc_id].text[r.start:r.end] == r.content
            assert raw[r.start:r.end] == r.content  # the reader keeps source text as it is
    _rebuilt_exactly(tmp_path, folder)


def test_bm25_over_texts_without_a_term_scores_zero_not_crashes():
    """Chunks that are only rules or stop words ("---", "the a an") give BM25 no
    vocabulary at all: bm25s fails to build an index over that; chunkwise scores 0."""
    from chunkwise.retrieval import Retriever

    r = Retriever(["---\n\n***", "the a an", "-->"], ["a.md", "b.txt", "b.txt"], "bm25")
    assert r.bm25_scores(["the", "anything at all"]).tolist() == [[0.0] * 3, [0.0] * 3]
    assert sorted(r.rank(["the"], ["a.md"], 3)[0]) == [0, 1, 2]


def test_bm25_finds_a_word_written_with_combining_marks_as_typed_and_the_other_way():
    """A chunk that writes "café" as "cafe" and U+0301 (macOS's way, some editors',
    Korean jamo) was two BM25 words, "cafe" and nothing: a question typed "café"
    scored it 0. Texts and questions are composed (NFC) before BM25 reads words."""
    from chunkwise.retrieval import Retriever

    texts = ["The cafe\u0301 opens at eight.", "Trains leave every hour.",
             "\u1112\u1161\u11ab\u1100\u116e\u11a8 menus are printed.", "Tea is served."]
    r = Retriever(texts, ["a", "b", "c", "d"], "bm25")
    scores = r.bm25_scores(["caf\u00e9", "\ud55c\uad6d", "cafe\u0301 hours"])
    assert [int(row.argmax()) for row in scores] == [0, 2, 0]
    assert all(row.max() > 0 for row in scores)


def test_a_run_is_named_with_the_sizes_auto_gave_each_kind():
    """eval's name for the defaults says what each kind of document got (auto 160 alone
    would hide that documentation is cut at 224); a given size names that size only."""
    from chunkwise.eval.report import run_name

    default = chunkwise.get_chunker("auto").describe()
    assert run_name({**default, "retriever": "hybrid"}) == (
        "auto 160 (narrative 254, reference 224) hybrid")
    sized = chunkwise.get_chunker("auto", size=160).describe()
    assert run_name({**sized, "retriever": "hybrid"}) == "auto 160 hybrid"


def test_a_jsonl_dataset_searches_every_document_of_its_folder(tmp_path, capsys):
    """Before, only the documents a question names were chunked and searched: after
    `chunkwise questions -n 50` over 82 pages, 40 pages were no part of the eval, and
    the held-out code set's express.js was never searched. Now the corpus is the
    folder walked as chunk walks it: ignore rules honoured, files of questions left
    out, an unreadable file a clear error."""
    folder = tmp_path / "set"
    (folder / "docs").mkdir(parents=True)
    answer = "The lighthouse keeper lights the lamp at dusk every evening of the year."
    (folder / "docs" / "keeper.md").write_text(f"# Keeper\n\n{answer}\n")
    decoy = "The lighthouse keeper lights the lamp at dusk, as the keeper always did."
    (folder / "docs" / "decoy.md").write_text(f"# Decoy\n\n{decoy}\n")
    (folder / "notes.md").write_text("# Notes\n\nLeft out by the ignore file.\n")
    (folder / ".chunkwiseignore").write_text("/notes.md\n")
    start = len("# Keeper\n\n")
    q = {"question": "When does the keeper light the lamp?", "doc_id": "docs/keeper.md",
         "references": [{"start": start, "end": start + len(answer), "content": answer}]}
    (folder / "questions.jsonl").write_text(json.dumps(q) + "\n")
    (folder / "other.jsonl").write_text(json.dumps(q) + "\n")  # another set's questions
    (folder / "records.jsonl").write_text('{"name": "a record", "value": 1}\n')
    ds = load_jsonl(folder)
    assert sorted(ds.documents) == ["docs/decoy.md", "docs/keeper.md", "records.jsonl"]
    assert ds.documents["docs/decoy.md"].text.endswith(decoy + "\n")
    # the decoy is ranked with the answer: it is in the chunks eval searches
    assert main(["eval", "--dataset", f"jsonl:{folder}", "--retriever", "bm25", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["n_chunks"] == len(chunkwise.chunk(ds.documents.values()))
    # the folder spelled another way reads the same documents from the same paths (a
    # source file's chunks carry its path: the figures moved with the spelling)
    again = load_jsonl(f"{folder}/./docs/../")
    assert {d: x.source for d, x in again.documents.items()} == {
        d: x.source for d, x in ds.documents.items()}
    # a question naming its document "./docs/keeper.md" does not add it twice
    (folder / "questions.jsonl").write_text(json.dumps({**q, "doc_id": "./docs/keeper.md"}) + "\n")
    assert sorted(load_jsonl(folder).documents) == [
        "./docs/keeper.md", "docs/decoy.md", "records.jsonl"]
    (folder / "questions.jsonl").write_text(json.dumps(q) + "\n")
    # a question's document is in the corpus even where the ignore file leaves it out
    (folder / ".chunkwiseignore").write_text("/notes.md\n/docs/keeper.md\n")
    assert "docs/keeper.md" in load_jsonl(folder).documents
    # a document that cannot be read is named, with the way to leave it out
    (folder / "docs" / "broken.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 4)
    with pytest.raises(DatasetError, match=r"broken\.pdf.*\.chunkwiseignore"):
        load_jsonl(folder)


def test_eval_refuses_an_input_format_it_cannot_use(capsys):
    """``eval --input-format`` was accepted and did nothing: a dataset's documents are
    read as its questions' offsets were written, by their names."""
    from helpers import ROOT

    code = main(["eval", "--dataset", f"jsonl:{ROOT / 'benchmarks' / 'docs_heldout'}",
                 "--input-format", "markdown"])
    err = capsys.readouterr().err
    assert code == 2 and "--input-format: eval reads a dataset's documents" in err
