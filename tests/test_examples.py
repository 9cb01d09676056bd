"""The examples run as their READMEs say: one command, on the bundled model or a litellm judge."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from prin_guard import Item

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


def summary_count(out: str, name: str) -> int:
    match = re.search(rf"^{re.escape(name)}:\s+(\d+)", out, re.MULTILINE)
    assert match, f"no {name!r} line in:\n{out}"
    return int(match.group(1))


def check_grading_output(result: subprocess.CompletedProcess[str], ids: list[str]) -> None:
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    sections = [
        out.index(heading) for heading in ("== Grades ==", "== Flagged ==", "== Summary ==")
    ]
    assert sections == sorted(sections)
    grades = out[sections[0] : sections[1]]
    for item_id in ids:
        assert re.search(rf"^{item_id}\s", grades, re.MULTILINE), grades
    errors = summary_count(out, "grading errors")
    caught = re.search(r"^errors caught by flags: (\d+) of (\d+)$", out, re.MULTILINE)
    assert caught, out
    assert int(caught.group(2)) == errors
    assert int(caught.group(1)) + summary_count(out, "errors not flagged") == errors
    assert grades.count("<- wrong") == errors


@pytest.mark.model
def test_grading_example_on_the_bundled_model() -> None:
    result = run_example(str(EXAMPLES / "grading" / "grade.py"), "--limit", "1")

    check_grading_output(result, ["gsm8k-solutions-1"])
    assert "judge 'local'" in result.stdout


@pytest.mark.model
def test_grading_example_with_a_litellm_judge_is_one_argument_away(llama_server: str) -> None:
    # llama.cpp's OpenAI-compatible server with the bundled weights, on loopback
    result = run_example(
        str(EXAMPLES / "grading" / "grade.py"),
        "--limit",
        "1",
        "--judge",
        "openai/smollm2",
        "--api-base",
        llama_server,
    )

    check_grading_output(result, ["gsm8k-solutions-1"])
    assert "judge 'openai/smollm2'" in result.stdout


@pytest.mark.model
def test_peer_review_example_on_the_bundled_model() -> None:
    result = run_example(str(EXAMPLES / "peer_review" / "review.py"), "--limit", "1")

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert out.index("== Verdicts ==") < out.index("[ema-weights]") < out.index("== Summary ==")
    assert "<- gold" in out or "<- verdict and gold" in out
    assert re.search(r"correct ones: .* \| incorrect ones: .* \| agreed: .* \| PRIN ", out)
    assert re.search(r"^passages: 1, verdict = gold: [01], flagged for a human: [01]$", out, re.M)


def test_peer_review_passages_are_valid_items_with_one_gold_candidate() -> None:
    spec = importlib.util.spec_from_file_location(
        "passages", EXAMPLES / "peer_review" / "passages.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    passages: list[dict[str, Any]] = module.PASSAGES

    assert len(passages) >= 4
    for passage in passages:
        item = Item(
            id=passage["id"],
            question=passage["question"],
            context=passage["context"],
            candidates=passage["candidates"],
        )
        assert "[EQUATION]" in passage["context"]
        assert len(item.candidates) == 4
        assert passage["gold"] in item.labels
    golds = {passage["gold"] for passage in passages}
    assert len(golds) > 1  # the right equation is not always in the same place


# -- the task examples: a stand-in judge in CI, the bundled model one flag away ----------


def test_compare_models_example_names_the_winner_and_the_pairs_left_undecided() -> None:
    result = run_example(str(EXAMPLES / "compare_models" / "compare.py"))

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    pairs = out[out.index("== Pairs ==") : out.index("== Summary ==")]
    assert len(re.findall(r"^\S+ +A = model-[ab], B = model-[ab]: ", pairs, re.M)) == 8
    # the stand-in's position bias, on the close pairs, is caught by the swap
    assert re.search(r"^prime +A = .*: not decided \(.*order_sensitive", pairs, re.M)
    assert "model-a wins 3, model-b wins 2, ties 0, not decided 3" in out
    assert "model-a wins 60% of the 5 decided pairs, 3 to 2 (95% interval 23% to 88%)" in out
    assert re.search(r"could not decide.*\n  prime: .*\n  photosynthesis: .*\n  units: ", out)


def test_rubric_example_grades_each_criterion_and_flags_the_contradicted() -> None:
    result = run_example(str(EXAMPLES / "rubric" / "grade_answers.py"))

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "[photosynthesis/s1] score 0.75" in out
    assert re.search(r"A\) contradicted +Says that plants use light energy", out)
    assert "-> check by hand: A" in out
    assert "answers: 6, graded as the teacher did: 5, to check by hand: 1" in out


def test_ratings_example_flags_the_judge_that_ignores_the_mirror() -> None:
    # issue 30: the stand-in gives the same number to both questions for the shortest
    # response; that one has no rating and is flagged, the others are rated
    result = run_example(str(EXAMPLES / "ratings" / "rate_responses.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if "rating " in line}
    assert "rating 8 " in lines["boiling/precise"] and "flags none" in lines["boiling/precise"]
    assert "rating 2 " in lines["boiling/wrong"]
    thin = lines["photosynthesis/thin"]
    assert "rating - " in thin and "flags inconsistent, polarity_confusion" in thin
    assert "responses: 4, rated: 3, flagged: 1" in result.stdout


def test_ranking_example_flags_the_judge_that_ranks_in_the_order_shown() -> None:
    # issue 40: the stand-in ranks the primes' responses in the order shown; its legs
    # agree (both follow the order), its orders do not: flagged
    result = run_example(str(EXAMPLES / "ranking" / "rank_responses.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert re.search(r"^photosynthesis +ranking C > B > A ", out, re.M)
    assert re.search(r"^boiling +ranking B > A > C > D ", out, re.M)
    primes = out[out.index("primes") : out.index("== Summary ==")]
    assert "legs tau 1.00" in primes
    assert "flags order_sensitive, position_bias" in primes
    assert "questions: 3, consistent: 2, flagged: 1" in out


def test_rag_claims_example_checks_real_claims_against_their_sources() -> None:
    result = run_example(str(EXAMPLES / "rag_claims" / "check_claims.py"), "--limit", "3")

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert out.count("\n[expertqa-claims-") == 3
    statuses = re.findall(r"^  [A-Z]+\) (supported|not supported|contradicted) ", out, re.M)
    match = re.search(
        r"^claims: (\d+), supported: (\d+), not supported: (\d+), contradicted \(review\): (\d+)$",
        out,
        re.M,
    )
    assert match, out
    total, *parts = map(int, match.groups())
    assert total == len(statuses) == sum(parts)
    assert re.search(rf"^as the experts judged them: \d+ of {total}$", out, re.M)


def test_peer_review_checklist_example_ticks_criteria_per_section() -> None:
    result = run_example(str(EXAMPLES / "peer_review" / "checklist.py"))

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "[sparse-attention] 4 of 4 met" in out
    assert re.search(r"\[data-pruning\][^\[]*A\) contradicted", out)
    assert "sections: 3, checklist as the reviewer's: 2, criteria to check by hand: 1" in out


def test_peer_review_guarded_review_example_flags_the_reviews_to_read() -> None:
    result = run_example(str(EXAMPLES / "peer_review" / "guarded_review.py"))

    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    universal = out[out.index("[universal]") : out.index("[pruning]")]
    assert "guarded: none (the two calls disagree)" in universal
    assert "flags: inconsistent, polarity_confusion" in universal
    pruning = out[out.index("[pruning]") :]
    assert "Rating +2" in pruning and "decision accept" in pruning
    assert 'confidence_disowned, swayed_by_rebuttal ("outside my expertise")' in pruning
    assert "papers: 3, decided both ways: 2, for a person to read: 2" in out


@pytest.mark.model
@pytest.mark.parametrize(
    ("script", "summary"),
    [
        pytest.param(
            "compare_models/compare.py",
            r"^model-a wins \d+, model-b wins \d+, ties \d+, not decided \d+$",
            id="compare",
        ),
        pytest.param(
            "rubric/grade_answers.py",
            r"^answers: 1, graded as the teacher did: [01], to check by hand: [01]$",
            id="rubric",
        ),
        pytest.param(
            "rag_claims/check_claims.py",
            r"^claims: \d+, supported: \d+, not supported: \d+, contradicted \(review\): \d+$",
            id="rag-claims",
        ),
        pytest.param(
            "ratings/rate_responses.py",
            r"^responses: 1, rated: [01], flagged: [01]$",
            id="ratings",
        ),
        pytest.param(
            "peer_review/checklist.py",
            r"^sections: 1, checklist as the reviewer's: [01], criteria to check by hand: \d$",
            id="peer-review-checklist",
        ),
        pytest.param(
            "peer_review/guarded_review.py",
            r"^papers: 1, decided both ways: [01], for a person to read: [01]$",
            id="peer-review-guarded-review",
        ),
    ],
)
def test_task_examples_run_on_the_bundled_model(script: str, summary: str) -> None:
    result = run_example(str(EXAMPLES / script), "--judge", "local", "--limit", "1")

    assert result.returncode == 0, result.stderr[-3000:]
    assert "judge 'local'" in result.stdout
    assert re.search(summary, result.stdout, re.M), result.stdout


class _Service(BaseHTTPRequestHandler):
    """A stand-in for ``prin-guard serve``: records requests, answers per the API."""

    key = "k" * 32
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests.append(
            {"path": self.path, "authorization": self.headers["Authorization"], "body": body}
        )
        if self.headers["Authorization"] != f"Bearer {self.key}":
            self.answer(401, {"error": {"type": "unauthorized", "message": "bad API key"}})
        elif "items" in body:
            self.answer(200, {"verdicts": [verdict(i) for i in body["items"]], "errors": []})
        else:
            self.answer(200, {"verdict": verdict(body["item"])})

    def answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def verdict(item: dict[str, Any]) -> dict[str, Any]:
    return {"item_id": item["id"], "correct": ["C"], "prin_score": 0.5, "flags": ["inconsistent"]}


@pytest.fixture
def service() -> Iterator[str]:
    _Service.requests.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Service)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_service_client_posts_one_item_with_a_bearer_key(service: str) -> None:
    client = str(EXAMPLES / "service" / "client.py")

    result = run_example(client, "--url", service, "--key", _Service.key)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "table1: correct C; PRIN 0.50; flags inconsistent"
    [request] = _Service.requests
    assert request["path"] == "/v1/verdicts"
    assert request["authorization"] == f"Bearer {_Service.key}"
    assert set(request["body"]) == {"item", "options"}
    assert request["body"]["item"]["candidates"] == ["7", "8", "9", "10", "11"]


def test_service_client_sends_a_batch_and_reports_errors(service: str) -> None:
    client = str(EXAMPLES / "service" / "client.py")

    batch = run_example(client, "--url", service, "--key", _Service.key, "--batch")
    refused = run_example(client, "--url", service, "--key", "wrong-key-wrong-key")

    assert batch.returncode == 0, batch.stderr
    assert batch.stdout.splitlines() == [
        "table1: correct C; PRIN 0.50; flags inconsistent",
        "capital: correct C; PRIN 0.50; flags inconsistent",
    ]
    assert refused.returncode == 1
    assert "HTTP 401 unauthorized: bad API key" in refused.stderr


def test_own_prompt_example_guards_the_mt_bench_prompt_through_the_users_client() -> None:
    # issue 29: "[[C]]" on both legs is a tie; "[[B]]" on both is flagged inconsistent
    result = run_example(str(EXAMPLES / "own_prompt" / "guard_mt_bench.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    flags = "inconsistent, empty_verdict, order_sensitive"
    assert f"capital: no winner  (direct [[B]], reverse [[B]]; {flags})" in out
    assert "same: a tie  (direct [[C]], reverse [[C]]; clean)" in out
    assert re.search(
        r"^boiling: winner A: .*\(direct \[\[A\]\], reverse \[\[B\]\]; clean\)", out, re.M
    )
    # a pair's default checks ask both questions in both orders: 4 calls per pair
    assert "judge calls: 12; prompt tokens counted: 3656" in out
    shown = run_example(str(EXAMPLES / "own_prompt" / "guard_mt_bench.py"), "--show-prompts")
    assert shown.returncode == 0, shown.stderr[-3000:]
    assert shown.stdout.count("== ") == 4 and "if assistant A is worse" in shown.stdout


def test_own_prompt_example_runs_a_prompt_of_ones_own_from_its_file() -> None:
    folder = EXAMPLES / "own_prompt"
    result = run_example(
        str(folder / "guard_mt_bench.py"), "--template", str(folder / "my_prompt.toml")
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert 'same: a tie  (direct {"winner": "tie"}, reverse {"winner": "tie"}; clean)' in (
        result.stdout
    )


@pytest.mark.llama_cpp
def test_own_prompt_example_with_a_litellm_judge_is_one_argument_away(llama_server: str) -> None:
    # the bundled model rarely writes "[[A]]": the run completes and every pair is reported
    result = run_example(
        str(EXAMPLES / "own_prompt" / "guard_mt_bench.py"),
        "--judge", "openai/smollm2", "--api-base", llama_server,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert [line.split(":")[0] for line in result.stdout.splitlines()[:3]] == [
        "capital", "boiling", "same"
    ]  # fmt: skip
