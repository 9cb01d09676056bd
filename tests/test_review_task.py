"""The review task on the one route (issue 41, items 1-5): a paper reviewed with a form, every
score asked on its scale and mirrored, the decision with its reverse question, the coherence
rules and the rebuttal probe on the verdict, the long document's shared prefix and its
context limit; scripted judges."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Flag, Guard
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.judges import JudgeResponse
from prin_guard.models import (
    REBUTTALS,
    ParseStatus,
    Polarity,
    ReviewItem,
    Usage,
    Verdict,
)
from prin_guard.tasks import REGISTRY

PAPER = {
    "task": "review",
    "title": "Adaptive Dual-Scale Denoising",
    "abstract": "We propose a two-branch denoiser for low-dimensional diffusion models.",
}
AIS_ASPECTS = ("Originality", "Quality", "Clarity", "Significance", "Soundness", "Presentation")


def _json(fields: dict[str, Any], thought: str = "I weighed it.") -> str:
    return f"THOUGHT:\n{thought}\n\nREVIEW JSON:\n```json\n{json.dumps(fields)}\n```"


class Scripted:
    """A judge answering the direct form, the mirrored one and a rebuttal, counting calls."""

    def __init__(self, direct: str, mirrored: str, after: str | None = None) -> None:
        self.direct, self.mirrored, self.after = direct, mirrored, after
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> JudgeResponse:
        self.prompts.append(prompt)
        if "Author rebuttal:" in prompt or "REBUTTAL-MARK" in prompt:
            text = self.after or ""
        elif "This time, do not fill in the review form" in prompt:
            text = self.mirrored
        else:
            text = self.direct
        cost = 0.001 if "This time" not in prompt else 0.0004  # the mirrored leg's prefix cached
        return JudgeResponse(
            text=text, usage=Usage(prompt_tokens=1000, completion_tokens=50, cost_usd=cost)
        )


def _iclr(rating: int, confidence: int, decision: str, text: str = "A solid study.") -> str:
    return _json({"Review": text, "Rating": rating, "Confidence": confidence, "Decision": decision})


def _mirror(rating: int, confidence: int, reject: str) -> str:
    return _json({"Rating": rating, "Confidence": confidence, "Reject": reject})


def test_review_is_a_registered_task() -> None:
    assert REGISTRY["review"].name == "review"


def test_a_review_is_asked_both_ways_in_two_calls_and_reconciled() -> None:
    # mirrored 4 on 1-10 is 7; mirrored 2 on 1-5 is 4; "Reject": "No" agrees with Accept
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    guard = Guard(judge)
    verdict = guard.check(PAPER)
    assert verdict.task == "review" and verdict.flags == () and verdict.consistent
    assert len(judge.prompts) == 2 and verdict.judge_calls == 2
    assert verdict.rating == 7.0
    assert set(verdict.aspects) == {"Rating", "Confidence"}
    assert verdict.aspects["Confidence"].rating == 4.0
    assert verdict.aspects["Rating"].reverse is not None
    assert verdict.aspects["Rating"].reverse.score == 4.0
    review = verdict.review
    assert review is not None and review.form == "iclr"
    assert (review.decision, review.decision_direct, review.rejected) == ("accept", "accept", False)
    assert review.text == {"Review": "A solid study."} and review.thought == "I weighed it."
    assert verdict.scores.prin == 0.0
    # what was paid: both calls; the premium over the direct leg's cost
    assert verdict.usage.prompt_tokens == 2000
    assert verdict.premium == pytest.approx(1.4)
    # a second check is the cache's: no call
    again = guard.check(PAPER)
    assert len(judge.prompts) == 2 and again.cached and again.rating == 7.0


def test_the_reverse_question_contradicting_the_decision_is_inconsistent() -> None:
    verdict = Guard(Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "Yes"))).check(PAPER)
    assert verdict.review is not None
    assert verdict.review.decision is None and verdict.review.decision_inconsistent
    assert verdict.review.rejected is True
    assert Flag.INCONSISTENT in verdict.flags and not verdict.consistent
    assert verdict.rating == 7.0  # the scores agree; the decision does not


def test_a_mirrored_score_given_as_the_direct_one_is_polarity_confusion() -> None:
    verdict = Guard(Scripted(_iclr(8, 4, "Accept"), _mirror(8, 2, "No"))).check(PAPER)
    rating = verdict.aspects["Rating"]
    assert rating.rating is None and Flag.POLARITY_CONFUSION in rating.flags
    assert verdict.rating is None
    assert {Flag.INCONSISTENT, Flag.POLARITY_CONFUSION} <= set(verdict.flags)


def test_a_reply_with_no_form_is_unparseable_and_not_guessed() -> None:
    verdict = Guard(Scripted("I would accept it, 8 of 10.", _mirror(3, 2, "No"))).check(PAPER)
    assert Flag.UNPARSEABLE_DIRECT in verdict.flags
    assert verdict.rating is None and verdict.review is not None
    assert verdict.review.decision is None and verdict.review.decision_direct is None
    assert verdict.review.unread == {"form": "no JSON object with the form's fields"}


def test_a_decision_against_the_threshold_is_flagged() -> None:
    verdict = Guard(Scripted(_iclr(8, 4, "Reject"), _mirror(3, 2, "Yes"))).check(PAPER)
    assert verdict.review is not None
    assert verdict.review.coherence == (Flag.DECISION_AGAINST_THRESHOLD,)
    assert Flag.DECISION_AGAINST_THRESHOLD in verdict.flags
    assert verdict.review.decision == "reject"  # both legs agree: the form contradicts itself


def test_a_confidence_the_text_disowns_is_flagged() -> None:
    text = "I am not familiar with diffusion models, but the results look fine."
    verdict = Guard(Scripted(_iclr(7, 5, "Accept", text), _mirror(4, 1, "No"))).check(PAPER)
    assert verdict.review is not None
    assert verdict.review.coherence == (Flag.CONFIDENCE_DISOWNED,)
    assert verdict.review.disowning == "I am not familiar with"


def _ais(overall: int, aspects: int, decision: str, **extra: int) -> dict[str, Any]:
    fields: dict[str, Any] = {"Summary": "A denoiser.", "Strengths": ["two branches"]}
    fields.update(dict.fromkeys(AIS_ASPECTS, aspects))
    fields.update({"Contribution": aspects, "Overall": overall, "Confidence": 4})
    fields.update({"Decision": decision, **extra})
    return fields


def test_the_ai_scientist_form_every_score_mirrored_and_overall_outside_aspects() -> None:
    direct = _json(_ais(2, 3, "Reject"))  # aspects all 3 of 4; overall 2 of 10: outside
    mirrored = dict.fromkeys((*AIS_ASPECTS, "Contribution"), 2)  # 2 on 1-4 is 3
    mirrored.update({"Overall": 9, "Confidence": 2})  # 9 on 1-10 is 2; 2 on 1-5 is 4
    judge = Scripted(direct, _json({**mirrored, "Reject": "Yes"}))
    verdict = Guard(judge).check({**PAPER, "form": "ai-scientist"})
    assert verdict.review is not None and verdict.review.form == "ai-scientist"
    assert len(verdict.aspects) == 9 and all(v.consistent for v in verdict.aspects.values())
    assert verdict.rating == 2.0 and verdict.review.decision == "reject"
    assert verdict.review.coherence == (Flag.OVERALL_OUTSIDE_ASPECTS,)
    assert verdict.review.text["Strengths"] == ["two branches"]
    _, mirrored_prompt = judge.prompts
    # the mirrored leg: every score on its scale mirrored, with the form's words moved
    assert (
        '- "Overall", from 1 to 10, where 1 means "Award quality" and 10 means "Very Strong '
        'Reject" (1: Award quality; 2: Very Strong Accept;' in mirrored_prompt
    )
    assert '"Reject": should this paper be rejected? Answer "Yes" or "No".' in mirrored_prompt


@pytest.mark.parametrize(
    ("form", "shares_whole_direct_message"),
    [
        pytest.param("iclr", False, id="iclr-paper-first"),
        pytest.param("ai-scientist", True, id="ais"),
    ],
)
def test_both_legs_share_the_paper_as_their_prefix(
    form: str, shares_whole_direct_message: bool
) -> None:
    document = "# A long paper\n\n" + "Our method works. " * 5000
    item = {"task": "review", "document": document, "form": form}
    guard = Guard(Scripted("", ""))
    direct, reverse = (leg.messages for leg in guard.prompts(item))
    assert direct[0] == reverse[0]  # the system message
    shared = direct[1]["content"][: direct[1]["content"].index(document) + len(document)]
    assert reverse[1]["content"].startswith(shared)
    assert reverse[1]["content"].startswith(direct[1]["content"]) is shares_whole_direct_message
    if form == "iclr":  # the paper laid out first: only the lead-in comes before it
        assert direct[1]["content"].index(document) < 100


def test_a_document_longer_than_the_judges_context_is_refused_before_any_call() -> None:
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    item = {"task": "review", "document": "word " * 40_000, "context_tokens": 32_000}
    with pytest.raises(
        InvalidItemError, match=r"^document: the longest leg is about 5\d{4} tokens"
    ):
        Guard(judge).check(item)
    assert judge.prompts == []
    verdict = Guard(judge).check({**item, "context_tokens": 128_000})
    assert verdict.rating == 7.0


def test_a_rebuttal_that_sways_the_review_is_flagged_with_each_move() -> None:
    judge = Scripted(_iclr(5, 4, "Reject"), _mirror(6, 2, "Yes"), after=_iclr(8, 4, "Accept"))
    verdict = Guard(judge).check({**PAPER, "rebuttal": "no-evidence"})
    assert len(judge.prompts) == 3 and verdict.judge_calls == 3
    assert REBUTTALS["no-evidence"] in judge.prompts[2]
    rebuttal = verdict.review.rebuttal if verdict.review else None
    assert rebuttal is not None and rebuttal.follow_up == "no-evidence"
    assert rebuttal.moved == {"Rating": 3.0, "Confidence": 0.0}
    assert rebuttal.decision == "accept" and rebuttal.decision_changed and rebuttal.swayed
    assert Flag.SWAYED_BY_REBUTTAL in verdict.flags
    # the verdict itself is the review before the rebuttal
    assert verdict.rating == 5.0 and verdict.review is not None
    assert verdict.review.decision == "reject"
    # the round is the probe's, as every task's: the follow-up sent, the reply, its cost
    (round_,) = verdict.probe
    assert round_.followup_type == "rebuttal" and round_.changed and round_.score == 8.0
    assert round_.followup.startswith(REBUTTALS["no-evidence"])
    assert round_.usage is not None and verdict.usage.prompt_tokens == 3000
    assert verdict.scores.probe_move == 1.0  # the decision changed: the whole way
    from prin_guard._route._usage import record_answers, verdict_answers

    assert record_answers(verdict.model_dump(mode="json")) == verdict_answers(verdict)
    assert len(verdict_answers(verdict)) == 3


def test_a_rebuttal_within_the_tolerance_does_not_sway() -> None:
    judge = Scripted(_iclr(5, 4, "Reject"), _mirror(6, 2, "Yes"), after=_iclr(6, 4, "Reject"))
    verdict = Guard(judge).check({**PAPER, "rebuttal": "hostile"})
    assert verdict.review is not None and verdict.review.rebuttal is not None
    assert verdict.review.rebuttal.moved["Rating"] == 1.0 and not verdict.review.rebuttal.swayed
    assert Flag.SWAYED_BY_REBUTTAL not in verdict.flags
    assert not verdict.probe[0].changed and verdict.scores.probe_move == pytest.approx(1 / 9)
    wider = Scripted(_iclr(5, 4, "Reject"), _mirror(6, 2, "Yes"), after=_iclr(8, 4, "Reject"))
    item = {**PAPER, "rebuttal": "REBUTTAL-MARK: you are wrong.", "rebuttal_tolerance": 3}
    verdict = Guard(wider).check(item)
    assert verdict.review is not None and verdict.review.rebuttal is not None
    assert verdict.review.rebuttal.follow_up == "custom"
    assert verdict.review.rebuttal.tolerance == 3.0 and not verdict.review.rebuttal.swayed


def test_an_unreadable_reply_after_the_rebuttal_moves_nothing() -> None:
    judge = Scripted(_iclr(5, 4, "Reject"), _mirror(6, 2, "Yes"), after="Fine, I accept.")
    verdict = Guard(judge).check({**PAPER, "rebuttal": "hostile"})
    assert verdict.review is not None and verdict.review.rebuttal is not None
    assert verdict.review.rebuttal.unread == "no JSON object with the form's fields"
    assert verdict.review.rebuttal.moved == {} and not verdict.review.rebuttal.swayed
    assert verdict.probe[0].parse_status is ParseStatus.FAILED
    assert verdict.scores.probe_move is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"title": "", "abstract": ""}, "document", id="no-paper"),
        pytest.param({"form": "neurips"}, "form", id="unknown-form"),
        pytest.param({"form": 3}, "form", id="form-not-text"),
        pytest.param({"system": "friendly"}, "system", id="unknown-system"),
        pytest.param({"rebuttal": ""}, "rebuttal", id="empty-rebuttal"),
        pytest.param({"rebuttal_tolerance": 1}, "rebuttal_tolerance", id="tolerance-alone"),
        pytest.param(
            {"rebuttal": "hostile", "rebuttal_tolerance": -1}, "rebuttal_tolerance", id="neg"
        ),
        pytest.param({"context_tokens": 0}, "context_tokens", id="context-zero"),
        pytest.param({"abstract": 3}, "abstract", id="abstract-not-text"),
        pytest.param({"pages": 9}, "pages", id="unknown-field"),
    ],
)
def test_a_bad_review_item_names_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidItemError) as caught:
        Guard(Scripted("", "")).validate({**PAPER, **change})
    assert caught.value.field == field


def test_the_guard_surfaces_take_a_review_item() -> None:
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    guard = Guard(judge)
    item = guard.validate(PAPER)
    assert isinstance(item, ReviewItem) and item.form.id == "iclr"
    keys = guard.cache_keys(PAPER)
    assert len(keys) == 2 and len(set(keys)) == 2
    assert [leg.name for leg in guard.prompts(PAPER)] == ["direct", "reverse"]
    assert guard.messages(PAPER)[1]["content"].startswith("Here is the submission")
    leg = asyncio.run(guard.aask(PAPER, Polarity.REVERSE))
    assert leg.raw_text == _mirror(4, 2, "No") and leg.parse_status is ParseStatus.OK
    verdicts = guard.check_many([PAPER, {**PAPER, "form": "nope"}])
    assert verdicts[0].rating == 7.0 and Flag.INVALID_ITEM in verdicts[1].flags
    assert verdicts[1].task == "review"


def test_options_a_review_cannot_honour_are_refused_naming_them() -> None:
    judge = Scripted("", "")
    with pytest.raises(UsageError, match=r"^checks: a review is guarded by the reverse check"):
        Guard(judge, checks=["reverse", "order"]).check(PAPER)
    with pytest.raises(InvalidItemError, match="a panel"):
        Guard([judge, Scripted("", "")]).check(PAPER)
    with pytest.raises(InvalidItemError, match="rebuttal"):
        Guard(judge, probe="closed").check(PAPER)


def test_a_review_verdict_reads_back_from_json_and_other_verdicts_keep_theirs() -> None:
    judge = Scripted(_iclr(5, 4, "Reject"), _mirror(6, 2, "Yes"), after=_iclr(8, 4, "Accept"))
    verdict = Guard(judge).check({**PAPER, "rebuttal": "no-evidence"})
    assert Verdict.model_validate_json(verdict.model_dump_json()) == verdict
    assert "review" in verdict.model_dump(mode="json")
    rating = Verdict(item_id="x", task="rating")
    assert "review" not in rating.model_dump(mode="json")
    assert "review" not in json.loads(rating.model_dump_json())


def _copies(dumped: str, reply: str) -> int:
    """How many times ``reply`` stands in a verdict's JSON (escaped as JSON writes it)."""
    return dumped.count(json.dumps(reply, ensure_ascii=False)[1:-1])


def test_a_review_verdict_holds_each_reply_once_and_each_score_gets_it_back() -> None:
    # long replies, so that a copy cannot hide inside another field
    direct = _iclr(7, 4, "Accept", text="A solid study of denoisers. " * 100)
    mirrored = _json({"Rating": 4, "Confidence": 2, "Reject": "No"}, "Mirrored. " * 300)
    verdict = Guard(Scripted(direct, mirrored)).check(PAPER)
    dumped = verdict.model_dump_json()
    assert (_copies(dumped, direct), _copies(dumped, mirrored)) == (1, 1)
    assert verdict.direct is not None and verdict.direct.raw_text == direct
    assert verdict.reverse is not None and verdict.reverse.raw_text == mirrored
    for aspect in verdict.aspects.values():
        assert aspect.direct is not None and aspect.reverse is not None
        assert (aspect.direct.raw_text, aspect.reverse.raw_text) == (None, None)
        assert aspect.direct.raw_text_ref == "/direct/raw_text"
        assert aspect.reverse.raw_text_ref == "/reverse/raw_text"
        assert (verdict.reply(aspect.direct), verdict.reply(aspect.reverse)) == (direct, mirrored)
    # read back from JSON: the same verdict, and each score's legs with their replies
    back = Verdict.model_validate_json(dumped)
    assert back == verdict
    for name in ("Rating", "Confidence"):
        alone = back.aspect(name)
        assert alone.direct is not None and alone.direct.raw_text == direct
        assert alone.reverse is not None and alone.reverse.raw_text == mirrored
        assert alone.direct.raw_text_ref is None and alone.direct.score is not None
        assert alone.rating == verdict.aspects[name].rating


def test_a_review_verdict_written_before_the_reply_was_kept_once_still_loads() -> None:
    # the JSON of a review verdict from before raw_text_ref: every score's legs with the
    # whole reply (no raw_text_ref); it validates, and its replies read as they were
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    old = json.loads(Guard(judge).check(PAPER).model_dump_json())
    for aspect in old["aspects"].values():
        for polarity in ("direct", "reverse"):
            del aspect[polarity]["raw_text_ref"]
            aspect[polarity]["raw_text"] = old[polarity]["raw_text"]
    verdict = Verdict.model_validate_json(json.dumps(old))
    rating = verdict.aspects["Rating"]
    assert rating.direct is not None and rating.direct.raw_text == judge.direct
    assert verdict.reply(rating.direct) == judge.direct
    assert verdict.aspect("Rating").direct == rating.direct  # nothing to fill in


def test_the_bench_figures_a_review_and_aspects_together_hold_each_reply_once() -> None:
    from bench.verdict_size import measure

    cases = measure(3000)
    assert [case[3] for case in cases] == ["1 + 1", "1 + 1"]
    review, rating = (case[4] for case in cases)
    assert len(review.aspects) == 9 and len(rating.aspects) == 5
    assert review.review is not None and review.flags == () and rating.flags == ()


REVIEWER_MODULE = """
import json


def _reply(form):
    return "THOUGHT:\\nSound.\\n\\nREVIEW JSON:\\n```json\\n" + json.dumps(form) + "\\n```"


def reviewer(prompt: str) -> str:
    if "Author rebuttal:" in prompt:
        return _reply({"Review": "Raised.", "Rating": 8, "Confidence": 4, "Decision": "Accept"})
    if "This time, do not fill in the review form" in prompt:
        return _reply({"Rating": 5, "Confidence": 2, "Reject": "Yes"})
    review = {"Review": "Not my area, but fine.", "Rating": 6, "Confidence": 5}
    return _reply({**review, "Decision": "Reject"})
"""


def test_the_review_command_prints_the_form_the_reverse_the_flags_and_the_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard.cli import main

    (tmp_path / "cli_reviewer.py").write_text(REVIEWER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "paper.md").write_text("# A paper\n\nWe show a thing.\n")
    args = ["review", str(tmp_path / "paper.md"), "--judge", "python:cli_reviewer:reviewer"]
    assert main([*args, "--rebuttal", "hostile"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review, form iclr v1: ICLR-style review")
    assert "    Rating (1-10)          6 |       5 (6) |     6\n" in out
    assert "    Confidence (1-5)       5 |       2 (4) |   4.5\n" in out
    assert 'Decision: direct reject; reverse "should it be rejected?" yes (reject); ' in out
    assert "Coherence: confidence_disowned" in out and "'Not my area'" in out
    assert "Rebuttal (hostile): Rating +2, Confidence -1; decision reject -> accept; swayed" in out
    assert "Flags: confidence_disowned, swayed_by_rebuttal" in out
    assert "Cost: judge calls 3;" in out
    assert main([*args, "--json", "--fail-on-flag", "swayed_by_rebuttal"]) == 0  # no rebuttal
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["task"] == "review" and verdict["review"]["decision"] == "reject"
    assert main([*args, "--context-tokens", "100"]) == 2
    assert "document: the longest leg is about" in capsys.readouterr().err
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.7")
    assert main(["review", str(tmp_path / "paper.pdf")]) == 2
    assert "is a PDF; give its text or markdown" in capsys.readouterr().err
    assert main([*args, "--form", "nope"]) == 2
    assert "form: unknown review form 'nope'" in capsys.readouterr().err
    # prompts shows both legs of a review item, calling no judge
    (tmp_path / "item.json").write_text(json.dumps(PAPER))
    assert main(["prompts", "--item", str(tmp_path / "item.json")]) == 0
    out = capsys.readouterr().out
    assert "direct leg" in out and "reverse leg" in out
    assert "This time, do not fill in the review form" in out


def test_grade_takes_review_rows_like_any_other(tmp_path: Path) -> None:
    from prin_guard.grade import grade

    rows = [
        {**PAPER, "id": "p1"},
        {"task": "review", "id": "p2", "document": "# Full text\n\nIt works.", "form": "iclr"},
        {"task": "review", "id": "p3", "form": "iclr"},  # no paper: an invalid row
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    csv = tmp_path / "in.csv"
    csv.write_text(
        "task,id,title,abstract,document,form,rebuttal,rebuttal_tolerance\n"
        "review,c1,A title,An abstract.,,iclr,hostile,2\n"
        "review,c2,A title,An abstract.,,iclr,hostile,many\n"
    )
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"), after=_iclr(9, 4, "Accept"))
    grade(judge, source, tmp_path / "out.jsonl")
    out = {row["id"]: row for row in map(json.loads, (tmp_path / "out.jsonl").open())}
    assert out["p1"]["task"] == "review" and out["p1"]["rating"] == 7.0
    assert out["p1"]["aspect_ratings"] == ["Rating:7", "Confidence:4"]
    assert out["p1"]["review_decision"] == "accept" and out["p1"]["judge_calls"] == 2
    assert out["p2"]["rating"] == 7.0
    assert out["p3"]["flags"] == ["invalid_item"] and out["p3"]["error_field"] == "document"
    grade(judge, csv, tmp_path / "out.csv.jsonl")
    out = {row["id"]: row for row in map(json.loads, (tmp_path / "out.csv.jsonl").open())}
    assert out["c1"]["judge_calls"] == 3 and "swayed_by_rebuttal" not in out["c1"]["flags"]
    assert out["c2"]["error_field"] == "rebuttal_tolerance"


def test_the_service_takes_a_review_item_alone_and_in_a_batch() -> None:
    pytest.importorskip("fastapi")
    from test_server import AUTH, ITEM, service

    from prin_guard import FunctionJudge

    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    paper = {**PAPER, "id": "p1"}
    with service(judge=FunctionJudge(judge)) as client:
        one = client.post("/v1/verdicts", json={"item": paper}, headers=AUTH)
        batch = client.post(
            "/v1/verdicts",
            json={"items": [paper, ITEM, {**paper, "id": "p2", "form": "neurips"}]},
            headers=AUTH,
        )
        bad = client.post("/v1/verdicts", json={"item": {**paper, "form": 3}}, headers=AUTH)
        schema = client.get("/openapi.json", headers=AUTH).json()
    assert one.status_code == 200, one.text
    verdict = one.json()["verdict"]
    assert (verdict["task"], verdict["item_id"], verdict["rating"]) == ("review", "p1", 7.0)
    assert verdict["review"]["decision"] == "accept" and verdict["judge_calls"] == 2
    verdicts = batch.json()["verdicts"]
    assert [v["task"] for v in verdicts] == ["review", "choice", "review"]
    assert "review" not in verdicts[1]  # a choice verdict's JSON as before
    assert verdicts[2]["flags"] == ["invalid_item"] and verdicts[2]["error"]["field"] == "form"
    assert bad.status_code == 422 and "form" in bad.text
    assert "ReviewItemIn" in schema["components"]["schemas"]


def test_a_form_of_ones_own_by_its_path(tmp_path: Path) -> None:
    from prin_guard._review import review_form

    shipped = Path(review_form("iclr").source)  # "prin-guard": not a path to read
    assert not shipped.is_file()
    source = Path(__file__).parents[1] / "prin_guard" / "data" / "review-forms" / "iclr.toml"
    own = tmp_path / "mine.toml"
    own.write_text(source.read_text().replace('id = "iclr"', 'id = "mine"'))
    judge = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    verdict = Guard(judge).check({**PAPER, "form": own})
    assert verdict.review is not None and verdict.review.form == "mine"
    clash = tmp_path / "clash.toml"
    clash.write_text(own.read_text().replace('name = "Decision"', 'name = "Reject"'))
    with pytest.raises(InvalidItemError, match=r"^form: form 'mine' has a field named 'Reject'"):
        Guard(judge).validate({**PAPER, "form": clash})
    with pytest.raises(InvalidItemError, match=r"^form: cannot read review form '.*missing.toml'"):
        Guard(judge).validate({**PAPER, "form": tmp_path / "missing.toml"})


def test_a_judge_that_declares_its_context_bounds_the_document() -> None:
    from prin_guard import FunctionJudge

    script = Scripted(_iclr(7, 4, "Accept"), _mirror(4, 2, "No"))
    judge = FunctionJudge(script)
    judge.context_tokens = 8192  # type: ignore[attr-defined]
    long = {"task": "review", "document": "word " * 40_000}
    with pytest.raises(InvalidItemError, match=r"judge's context of 8192 tokens"):
        Guard(judge).check(long)
    assert script.prompts == []
    # the item's own limit wins over the judge's
    assert Guard(judge).check({**long, "context_tokens": 128_000}).rating == 7.0


CORPUS = (
    Path(__file__).parent / "data" / "replies" / "reviews" / "ai-scientist-example-papers.jsonl"
)


def test_real_ai_scientist_reviews_through_the_route_with_a_faithful_mirror() -> None:
    # The AI Scientist's own ten reviews as the direct legs (real replies, read strictly),
    # and a mirrored leg that mirrors each exactly: every score agrees, every decision is
    # confirmed, and the two weak accepts it rejected are flagged by the form's own rule
    from prin_guard._review import review_form

    form = review_form("ai-scientist")
    flagged = []
    for record in map(json.loads, CORPUS.open()):
        expected = record["expected"]
        mirrored: dict[str, Any] = {
            f.name: f.scale.min + f.scale.max - expected[f.name] for f in form.scores
        }
        mirrored["Reject"] = "Yes" if expected["Decision"] == "Reject" else "No"
        judge = Scripted(str(record["reply"]), _json(mirrored))
        item = {"task": "review", "id": record["id"], "title": record["id"], "form": form.id}
        verdict = Guard(judge).check(item)
        assert verdict.review is not None
        assert verdict.review.decision == expected["Decision"].lower()
        assert verdict.rating == expected["Overall"] and verdict.scores.prin == 0.0
        assert len(verdict.aspects) == 9
        assert all(aspect.consistent for aspect in verdict.aspects.values())
        assert verdict.review.text["Summary"] == expected["Summary"]
        flagged += [(record["id"], flag.value) for flag in verdict.review.coherence]
    assert flagged == [
        ("ai-scientist-layerwise_lr_grokking", "decision_against_threshold"),
        ("ai-scientist-weight_initialization_grokking", "decision_against_threshold"),
    ]


class PrefixCaching:
    """A judge whose provider caches prompt prefixes (as ``mode`` says); records each call's
    prefix and the order the calls began in."""

    def __init__(self, mode: str | None) -> None:
        self.mode = mode
        self.calls: list[tuple[str, Any]] = []

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "prefix-caching"}

    def prefix_caching(self, messages: Any, prefix: Any) -> Any:
        return self.mode

    async def complete(
        self, messages: Any, *, labels: Any = (), prefix: Any = None
    ) -> JudgeResponse:
        text = messages[-1]["content"]
        mirrored = "This time, do not fill in the review form" in text
        self.calls.append(("reverse" if mirrored else "direct", prefix))
        if prefix is not None and prefix.started is not None:
            await asyncio.sleep(0.05)  # the provider has read the prompt: the reply begins
            prefix.started()
            await asyncio.sleep(0.05)
        return JudgeResponse(text=_mirror(4, 2, "No") if mirrored else _iclr(7, 4, "Accept"))


def test_the_mirrored_leg_is_staggered_behind_the_direct_one_to_read_the_paper_cached() -> None:
    document = "# A long paper\n\n" + "Our method works on every benchmark.\n" * 2000
    item = {"task": "review", "document": document}
    judge = PrefixCaching("stream")
    verdict = Guard(judge).check(item)
    assert verdict.rating == 7.0 and verdict.flags == ()
    (first, lead), (second, shared) = judge.calls
    assert (first, second) == ("direct", "reverse")  # the direct leg goes first
    assert lead is not None and lead.started is not None and shared.started is None
    assert lead.key == shared.key and shared.chars > len(document)  # the paper is shared
    # a judge that caches nothing, or stagger off: both at once, unmarked
    for judge, options in (
        (PrefixCaching(None), {}),
        (PrefixCaching("stream"), {"stagger": "off"}),
    ):
        Guard(judge, **options).check(item)
        assert [prefix for _, prefix in judge.calls] == [None, None]


def test_a_guard_bounds_a_review_by_its_three_calls() -> None:
    guard = Guard(Scripted("", ""), checks=["reverse"])
    assert guard.max_judge_calls_for("review") == 3  # both legs and the rebuttal's
    assert guard.max_judge_calls_for("choice") == 2
    # any task: the costliest (a ranking of 20 responses in sliding windows, 12)
    assert guard.max_judge_calls == max(
        guard.max_judge_calls_for(task) for task in ("choice", "rating", "ranking", "review")
    )
    assert guard.max_judge_calls >= 3
