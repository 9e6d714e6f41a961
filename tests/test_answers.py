"""``chunkwise eval --answers``: answers and judgements through local servers speaking
the real Anthropic Messages and OpenAI chat-completions protocols (the official SDKs
make the requests), with scripted answers (a right, a wrong and an unfaithful one)
and scripted judges; the cache, the dry-run estimate, the grid's files; and one real
run of the bundled local model."""

import csv
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkwise
from chunkwise.cli import main
from chunkwise.eval import evaluate, load_jsonl
from chunkwise.eval.answers import (
    ABSTAIN,
    ANSWER_PROMPT,
    CORRECT_RUBRIC,
    FAITHFUL_RUBRIC,
    Answerer,
    escape,
    normalise,
    parse_grade,
    token_f1,
)
from llm_servers import LLMServer

DOCS = {
    "guide.md": "# Shipping guide\n\n## Parcels\n\nParcels travel by courier within three days.\n\n"
                "## Pallets\n\nPallets travel by lorry within nine days.\n\n"
                "## Returns\n\nReturns are accepted within thirty days of delivery.\n",
}
#: question -> (evidence, how the scripted model answers it)
QUESTIONS = {
    "How fast do parcels travel?": ("Parcels travel by courier within three days.", "right"),
    "How fast do pallets travel?": ("Pallets travel by lorry within nine days.", "wrong"),
    "When are returns accepted?": ("Returns are accepted within thirty days of delivery.",
                                   "unfaithful"),
}
WRONG = "Pallets travel by drone within one hour."
EXTRA = " Returns are also refunded in gold bars."


def _section(prompt: str, tag: str) -> str:
    found = re.search(f"<{tag}>\n(.*?)\n</{tag}>", prompt, re.S)
    return found.group(1) if found else ""


def scripted(prompt: str) -> str:
    """The model and the judge, scripted: answers by the question's script; the
    correctness judge compares with the reference, the faithfulness judge with the
    passages, sentence by sentence."""
    if CORRECT_RUBRIC in prompt:
        answer, reference = _section(prompt, "answer"), _section(prompt, "reference")
        score = 1 if reference in answer else 0
        return json.dumps({"score": score, "reason": "scripted"})
    if FAITHFUL_RUBRIC in prompt:
        answer, passages = _section(prompt, "answer"), _section(prompt, "passages")
        claims = [s.strip() + "." for s in answer.split(".") if s.strip()]
        supported = answer == ABSTAIN or all(c in passages for c in claims)
        return "Here: " + json.dumps({"score": 1 if supported else 0, "reason": "scripted"})
    question = _section(prompt, "question")
    evidence, how = QUESTIONS[question]
    if evidence not in _section(prompt, "passages"):
        return ABSTAIN
    return {"right": evidence, "wrong": WRONG, "unfaithful": evidence + EXTRA}[how]


@pytest.fixture()
def dataset(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text)
    lines = []
    for question, (evidence, _) in QUESTIONS.items():
        start = DOCS["guide.md"].index(evidence)
        lines.append(json.dumps({"question": question, "doc_id": "guide.md", "tags": ["demo"],
                                 "references": [{"start": start, "end": start + len(evidence),
                                                 "content": evidence}]}))
    (folder / "questions.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def _eval(server, dataset, tmp_path, *extra, kind="openai"):
    spec = (f"openai:m@{server.url}/v1" if kind == "openai" else "anthropic:claude-haiku-4-5")
    return main(["eval", "--dataset", f"jsonl:{dataset}", "--retriever", "bm25", "--k", "1",
                 "--strategy", "sentence", "--size", "24", "--answers", "--llm", spec,
                 "--llm-concurrency", "2", "--json", *extra])


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_answers_are_scored_cached_and_estimated(kind, dataset, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CHUNKWISE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with LLMServer(kind, answer=scripted) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        # the estimate first: nothing called, nothing cached
        code = _eval(server, dataset, tmp_path, "--dry-run", kind=kind)
        out = capsys.readouterr().out
        assert code == 0 and server.requests == []
        answers_line, judge_line = out.strip().splitlines()[-2:]
        assert answers_line.startswith("answers estimate (no call made)")
        assert "3 prompts (0 from cache, 3 calls)" in answers_line
        assert judge_line.startswith("judge estimate") and "6 prompts (0 from cache, 6 calls)" in judge_line

        code = _eval(server, dataset, tmp_path, kind=kind)
        captured = capsys.readouterr()
        result = json.loads(captured.out)
        assert code == 0 and len(server.ok()) == 9  # an answer and two judgements each
        # right: 1 / 1; wrong: 0 / 0; unfaithful: right (1) but not faithful (0)
        assert result["answer_score"] == pytest.approx(200 / 3, abs=0.01)
        assert result["faithfulness"] == pytest.approx(100 / 3, abs=0.01)
        assert result["abstained"] == 0.0 and result["budget_recall"] == 100.0
        assert 0 < result["answer_f1"] < 100 and result["mean_context_tokens"] > 0
        assert result["by_tag"]["demo"]["answer_score"] == result["answer_score"]
        assert result["config"]["llm"].startswith(kind) and result["config"]["rubric"] == "1"
        assert "answers: " in captured.err and "9 calls" not in captured.err
        assert "3 prompts (0 from cache, 3 calls)" in captured.err
        for request in server.ok():  # every call asked for by the scripted prompts
            prompt = json.dumps(request["body"])
            assert "Answer the question using only" in prompt or "Score 1" in prompt
            assert "grammar" not in request["body"]  # a llama.cpp-only field

        # the same run again: every reply from the cache, not one call
        code = _eval(server, dataset, tmp_path, kind=kind)
        captured = capsys.readouterr()
        assert code == 0 and len(server.ok()) == 9
        assert json.loads(captured.out)["answer_score"] == result["answer_score"]
        assert "3 prompts (3 from cache, 0 calls)" in captured.err
        # and the estimate knows it costs nothing now
        code = _eval(server, dataset, tmp_path, "--dry-run", kind=kind)
        out = capsys.readouterr().out
        assert code == 0 and len(server.requests) == 9
        assert "6 prompts (6 from cache, 0 calls)" in out and "tokens in 0 " in out


def test_the_context_is_the_ranking_within_the_budget(dataset, tmp_path, monkeypatch):
    """k does not bound the context, the budget does: with room for every chunk
    each question's context is every chunk; with a budget below the first chunk's
    tokens, a prefix of that chunk; every prompt escapes the prompts' tags."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ds = load_jsonl(dataset)
    chunker = chunkwise.get_chunker("sentence", size=24)
    with LLMServer("openai", answer=scripted) as server:
        answerer = Answerer(f"openai:m@{server.url}/v1", cache=False)
        r = evaluate(ds, chunker, retriever="bm25", k=1, budget=1000, answerer=answerer)
        assert r.n_chunks >= 2
        assert all(len(rec["context"]) == r.n_chunks for rec in r.answers)
        assert r.metrics["answer_score"] == pytest.approx(200 / 3)
        r = evaluate(ds, chunker, retriever="bm25", k=1, budget=14, answerer=answerer)
        answerer.close()
        assert all(len(rec["context"]) == 1 and rec["context_tokens"] == 14
                   for rec in r.answers)
        short = Answerer(f"openai:m@{server.url}/v1", cache=False)
        r = evaluate(ds, chunker, retriever="bm25", k=1, budget=3, answerer=short)
        short.close()
        assert {rec["answer"] for rec in r.answers} == {ABSTAIN}  # the evidence was cut
        assert r.metrics["abstained"] == 100.0 and r.metrics["answer_score"] == 0.0
        assert r.metrics["faithfulness"] == 100.0  # saying so is faithful
    assert escape("a </passage> b <question>") == "a &lt;/passage&gt; b &lt;question&gt;"


def test_a_judgement_without_a_score_is_left_out(dataset, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    def vague(prompt: str) -> str:
        if FAITHFUL_RUBRIC in prompt:
            return "It seems fine to me."
        return scripted(prompt)

    with LLMServer("openai", answer=vague) as server:
        code = _eval(server, dataset, tmp_path, "--no-llm-cache")
        captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert code == 0 and "faithfulness" not in result  # no judgement could be read
    assert result["answer_score"] == pytest.approx(200 / 3, abs=0.01)
    assert "3 unreadable (left out)" in captured.err


def test_a_reference_answer_is_what_f1_is_measured_against(dataset, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    lines = [json.loads(x) for x in (dataset / "questions.jsonl").read_text().splitlines()]
    lines[0]["answer"] = "within three days"
    (dataset / "questions.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    ds = load_jsonl(dataset)
    assert ds.questions[0].answer == "within three days" and ds.questions[1].answer is None
    seen = []

    def recording(prompt: str) -> str:
        seen.append(prompt)
        return scripted(prompt)

    with LLMServer("openai", answer=recording) as server:
        answerer = Answerer(f"openai:m@{server.url}/v1", cache=False)
        r = evaluate(ds, chunkwise.get_chunker("sentence", size=24), retriever="bm25", k=1,
                     answerer=answerer)
        answerer.close()
    first = r.answers[0]
    assert first["answer_f1"] == pytest.approx(
        token_f1("Parcels travel by courier within three days.", "within three days"))
    assert any("<reference_answer>\nwithin three days\n" in p for p in seen)
    (dataset / "questions.jsonl").write_text(json.dumps({**lines[0], "answer": 3}))
    with pytest.raises(chunkwise.ChunkwiseError, match="answer must be a string"):
        load_jsonl(dataset)


def test_a_grid_compares_chunkings_on_answers(dataset, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    grid = tmp_path / "grid.toml"
    grid.write_text('[defaults]\nretriever = "bm25"\nk = 1\n\n'
                    '[[run]]\nname = "sentences"\nstrategy = "sentence"\nsize = 24\n\n'
                    '[[run]]\nname = "whole"\nstrategy = "recursive"\nsize = 200\n')
    out = tmp_path / "results"
    with LLMServer("openai", answer=scripted) as server:
        code = main(["eval", "--dataset", f"jsonl:{dataset}", "--grid", str(grid), "--out",
                     str(out), "--answers", "--llm", f"openai:m@{server.url}/v1",
                     "--no-llm-cache"])
        captured = capsys.readouterr()
    assert code == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [r["name"] for r in rows] == ["sentences", "whole"]
    assert all(float(r["answer_score"]) == pytest.approx(200 / 3, abs=0.01) for r in rows)
    svg = (out / "answers.svg").read_text()
    assert svg.count("<rect x=") >= 2 * 5 and "faithfulness" in svg and "whole" in svg
    records = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert len(records) == 6 and {r["run"] for r in records} == {"sentences", "whole"}
    assert {r["answer"] for r in records} >= {WRONG}
    assert "answer_score" in captured.out.splitlines()[0]  # the table's header
    assert "answer_score 66.7" in captured.err  # the progress lines


def test_answers_need_a_model(dataset, capsys):
    for argv, message in [
        (["--answers"], "--answers needs --llm"),
        (["--llm", "local"], "choose the models of --answers"),
        (["--answers", "--llm", "nowhere:x"], "unknown LLM"),
        (["--sample", "0"], "sample must be a positive number"),
        (["--dry-run"], "--contextualize or --answers"),
    ]:
        code = main(["eval", "--dataset", f"jsonl:{dataset}", "--retriever", "bm25", *argv])
        err = capsys.readouterr().err
        assert code == 2 and message in err and "Traceback" not in err, argv


def test_a_sample_is_spread_and_searches_every_document(dataset):
    ds = load_jsonl(dataset)
    one = ds.sample(2)
    assert [q.question for q in one.questions] == [ds.questions[0].question,
                                                    ds.questions[1].question]
    assert one.documents == ds.documents and ds.sample(10) is ds


@given(st.text(max_size=60), st.text(max_size=60))
def test_token_f1_is_symmetric_and_bounded(a, b):
    f = token_f1(a, b)
    assert f == pytest.approx(token_f1(b, a)) and 0.0 <= f <= 1.0
    if normalise(a):
        assert token_f1(a, a) == 1.0


def test_grades_are_read_only_when_they_are_on_the_scale():
    assert parse_grade('{"score": 0.5, "reason": "part"}') == (0.5, "part")
    assert parse_grade('Sure! {"score": "1", "reason": "ok"} done') == (1.0, "ok")
    assert parse_grade('{"score": 1, "grade": "A", "text": {"nested": 1}') == (1.0, "")
    assert parse_grade('{"score": 2, "reason": "x"}') is None
    assert parse_grade("It is right.") is None
    assert parse_grade('{"score": 0}') == (0.0, "")
    assert "{question}" in ANSWER_PROMPT


@pytest.mark.slow
def test_the_local_model_answers_and_judges_for_real(dataset, tmp_path, capsys):
    """One small real run of the bundled model (a 270M base model: its grades are
    poor; that they come back, parsed or counted unreadable, is what is checked)."""
    argv = ["eval", "--dataset", f"jsonl:{dataset}", "--retriever", "bm25", "--k", "2",
            "--answers", "--llm", "local", "--json", "--out", str(tmp_path / "out")]
    code = main(argv)
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert code == 0 and result["config"]["llm"] == "local"
    assert 0.0 <= result["answer_f1"] <= 100.0 and "answers: gemma" in captured.err
    records = [json.loads(x) for x in (tmp_path / "out" / "answers.jsonl").read_text()
               .splitlines()]
    assert len(records) == 3 and all(isinstance(r["answer"], str) for r in records)
    judged = re.search(r"judge: .*?(\d+) prompts \((\d+) from cache, (\d+) calls", captured.err)
    assert judged and int(judged.group(1)) == 6
    # the grammar holds the small model to the scale: every grade can be read
    assert "unreadable" not in captured.err
    assert all(r["answer_score"] in (0.0, 0.5, 1.0) and r["faithfulness"] in (0.0, 0.5, 1.0)
               for r in records)
