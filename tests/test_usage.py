"""What a verdict cost: usage that says what is unknown, one rule for what was paid now and
what the cache saved, the guard's premium, and the summaries that print them (grade, eval,
check, the service's metrics)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from prin_guard import Guard, Item
from prin_guard._route._usage import UsageTally, record_answers, usage_line, verdict_answers
from prin_guard.grade import grade, summary_text
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message, Usage

PAIR = Item(
    task="pairwise",
    question="Name a colour.",
    candidates=["Blue.", "Seven."],
    id="pair",
)


class PricedJudge:
    """Answers the direct leg "A" at one price, the reverse leg "B" at another, and says
    how many prompt tokens its provider's cache served."""

    def __init__(self, direct: Usage | None, reverse: Usage | None) -> None:
        self.usage = {"direct": direct, "reverse": reverse}

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "priced"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        reverse = "worse one" in messages[-1]["content"]
        return JudgeResponse(
            text="Answer: B" if reverse else "Answer: A",
            usage=self.usage["reverse" if reverse else "direct"],
        )


DIRECT = Usage(
    prompt_tokens=2000,
    cached_prompt_tokens=0,
    cache_write_tokens=1950,
    completion_tokens=30,
    cost_usd=0.0079,
)
REVERSE = Usage(
    prompt_tokens=2000,
    cached_prompt_tokens=1950,
    cache_write_tokens=0,
    completion_tokens=30,
    cost_usd=0.0012,
)


def test_a_sum_with_an_unknown_part_is_unknown() -> None:
    known = Usage(prompt_tokens=10, completion_tokens=2, cost_usd=0.5, cached_prompt_tokens=4)
    total = known + Usage(prompt_tokens=5, completion_tokens=1, cost_usd=None)
    assert total.prompt_tokens == 15 and total.completion_tokens == 3
    assert total.cost_usd is None  # one call's price is unknown: so is the sum's
    assert total.cached_prompt_tokens is None
    assert Usage.zero() + known == known


def test_a_verdict_records_what_was_paid_now_and_what_the_cache_saved() -> None:
    guard = Guard(PricedJudge(DIRECT, REVERSE), checks="reverse")
    first = guard.check(PAIR)
    assert first.usage == DIRECT + REVERSE
    assert first.usage.cached_prompt_tokens == 1950
    assert first.usage.cache_write_tokens == 1950
    assert first.saved_usage == Usage.zero()
    again = guard.check(PAIR)  # every answer from prin-guard's cache: nothing paid now
    assert again.cached
    assert again.usage == Usage.zero()
    assert again.saved_usage == first.usage
    # the legs keep what they cost when first asked
    assert again.direct is not None and again.direct.usage == DIRECT


def test_the_premium_is_every_answers_cost_over_the_direct_legs() -> None:
    verdict = Guard(PricedJudge(DIRECT, REVERSE), checks="reverse").check(PAIR)
    assert verdict.premium == pytest.approx((0.0079 + 0.0012) / 0.0079)
    # a price unknown: no premium, not a made-up one
    unpriced = Guard(
        PricedJudge(DIRECT, REVERSE.model_copy(update={"cost_usd": None})), checks="reverse"
    )
    assert unpriced.check(PAIR).premium is None


def test_a_summary_of_calls_that_reported_nothing_says_unknown_not_zero(tmp_path: Path) -> None:
    items = tmp_path / "in.jsonl"
    items.write_text(PAIR.model_dump_json() + "\n")
    summary = grade(Guard(PricedJudge(None, None), checks="reverse"), items, tmp_path / "out.jsonl")
    assert (summary.prompt_tokens, summary.completion_tokens, summary.cost_usd) == (None,) * 3
    text = summary_text(summary)
    assert "tokens unknown; cost unknown" in text
    assert "0 prompt" not in text and "$0.0000" not in text


def test_a_summary_prints_the_premium_and_the_share_from_a_prompt_cache(tmp_path: Path) -> None:
    items = tmp_path / "in.jsonl"
    items.write_text(PAIR.model_dump_json() + "\n")
    summary = grade(
        Guard(PricedJudge(DIRECT, REVERSE), checks="reverse"), items, tmp_path / "out.jsonl"
    )
    assert summary.usage.cache_share == pytest.approx(1950 / 4000, abs=1e-4)
    assert summary.usage.premium == pytest.approx(9.1 / 7.9, abs=1e-3)
    assert summary.usage.cached_prompt_tokens == 1950
    assert summary.usage.cache_write_tokens == 1950
    text = summary_text(summary)
    assert "48.8% of prompt tokens from a prompt cache" in text
    assert "guard premium 1.15x the direct leg" in text


def test_a_tally_of_answers_from_the_cache_counts_them_as_saved() -> None:
    guard = Guard(PricedJudge(DIRECT, REVERSE), checks="reverse")
    tally = UsageTally()
    tally.add(guard.check(PAIR))
    tally.add(guard.check(PAIR))
    summary = tally.summary()
    assert (summary.calls, summary.answers_from_cache) == (2, 2)
    assert summary.cost_usd == pytest.approx(0.0091)
    assert summary.saved_cost_usd == pytest.approx(0.0091)
    assert "answers from prin-guard's cache 2, first asked for $0.0091" in usage_line(summary)


# -- usage as a judge reports it: checked where it enters (issue 37, item 13) -------------

GOOD = Usage(prompt_tokens=100, completion_tokens=5, cost_usd=0.001, cached_prompt_tokens=40)


@pytest.mark.parametrize(
    ("update", "unknown"),
    [
        pytest.param({"prompt_tokens": -100}, {"prompt_tokens"}, id="negative-prompt-tokens"),
        pytest.param({"completion_tokens": -5}, {"completion_tokens"}, id="negative-completion"),
        pytest.param({"cost_usd": -0.01}, {"cost_usd"}, id="negative-cost"),
        pytest.param({"cached_prompt_tokens": -1}, {"cached_prompt_tokens"}, id="negative-cached"),
        pytest.param({"cache_write_tokens": -1}, {"cache_write_tokens"}, id="negative-written"),
        pytest.param(
            {"cached_prompt_tokens": 500}, {"cached_prompt_tokens"}, id="more-cached-than-prompt"
        ),
        pytest.param(
            {"cached_prompt_tokens": 60, "cache_write_tokens": 60},
            {"cached_prompt_tokens", "cache_write_tokens"},
            id="cached-and-written-more-than-prompt",
        ),
    ],
)
def test_a_bad_usage_figure_is_unknown_with_a_warning(
    update: dict[str, Any], unknown: set[str]
) -> None:
    """Issue 37, item 13: negative tokens and cost, and more cached tokens than prompt
    tokens, were summed as reported ("cost $-0.0200", "500.0% of prompt tokens from a
    prompt cache"). A figure that cannot be is unknown, and the judge is warned about
    once (not once per call)."""
    bad = GOOD.model_copy(update=update)
    with capture_logs() as events:
        verdict = Guard(PricedJudge(bad, bad), checks="reverse").check(PAIR)
    assert verdict.direct is not None and verdict.direct.usage is not None
    for name in Usage.model_fields:
        expected = None if name in unknown else getattr(bad, name)
        assert getattr(verdict.direct.usage, name) == expected, name
        if name in unknown:
            assert getattr(verdict.usage, name) is None, name
    warnings = [e for e in events if e["event"] == "judge_usage_invalid"]
    assert len(warnings) == 1, events
    assert warnings[0]["log_level"] == "warning"
    assert set(warnings[0]["fields"]) == unknown
    tally = UsageTally()
    tally.add(verdict)
    line = usage_line(tally.summary())
    assert "$-" not in line and "-1" not in line
    assert "500.0%" not in line and "120.0%" not in line


def test_a_summary_never_prints_a_negative_cost_or_a_share_above_all(tmp_path: Path) -> None:
    """Issue 37, item 13, as grade's summary printed it."""
    bad = Usage(prompt_tokens=100, completion_tokens=5, cost_usd=-0.01, cached_prompt_tokens=500)
    items = tmp_path / "in.jsonl"
    items.write_text(PAIR.model_dump_json() + "\n")
    summary = grade(Guard(PricedJudge(bad, bad), checks="reverse"), items, tmp_path / "out.jsonl")
    text = summary_text(summary)
    assert "$-" not in text and "500.0%" not in text
    assert "cost unknown" in text


# -- every call of a verdict counted, its aspects' too (issue 37, item 6) -----------------

ASPECTS_ITEM = {
    "task": "rating",
    "question": "Summarize the article.",
    "response": "The council approved the budget on Monday.",
    "scale": {"min": 1, "max": 5},
    "aspects": ["coherence", "fluency", "relevance", "consistency"],
}


class RatingJudge:
    """Rates 4 (2 on the mirrored leg), every aspect at once too; each call costs 0.001."""

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "rating-priced"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        score = "2" if "how poor the response" in messages[-1]["content"] else "4"
        lines = [f"{name}: [[{score}]]" for name in ASPECTS_ITEM["aspects"]]
        text = "\n".join(lines) + f"\nRating: [[{score}]]"
        return JudgeResponse(text=text, usage=Usage(prompt_tokens=50, cost_usd=0.001))


@pytest.mark.parametrize("asked", ["apart", "together"])
def test_a_summary_counts_every_call_of_a_verdict_with_aspects(asked: str, tmp_path: Path) -> None:
    """Issue 37, item 6: grade's summary showed $0.0020 where its rows paid $0.0100, and
    /metrics 0.0: the aspects' calls were counted in the verdict's usage, not in the
    answers every summary counts. Apart: two calls per aspect (8); together: two."""
    guard = Guard(RatingJudge(), rating_aspects=asked)
    calls = 8 if asked == "apart" else 2
    verdict = guard.check(ASPECTS_ITEM)
    assert verdict.judge_calls == calls
    assert verdict.usage.cost_usd == pytest.approx(0.001 * calls)
    tally = UsageTally()
    tally.add(verdict)
    summary = tally.summary()
    assert (summary.calls, summary.priced_calls) == (calls, calls)
    # eval reads its records (the verdict as JSON) by the same rule
    assert record_answers(verdict.model_dump(mode="json")) == verdict_answers(verdict)
    assert summary.cost_usd == pytest.approx(0.001 * calls)
    assert summary.prompt_tokens == 50 * calls
    again = UsageTally()
    again.add(guard.check(ASPECTS_ITEM))  # every answer from the cache: saved, not paid
    assert again.summary().answers_from_cache == calls
    assert again.summary().saved_cost_usd == pytest.approx(0.001 * calls)
    # grade: the summary is what its rows paid
    items = tmp_path / "in.jsonl"
    items.write_text(json.dumps({**ASPECTS_ITEM, "id": "a"}) + "\n")
    out = tmp_path / "out.jsonl"
    graded = grade(Guard(RatingJudge(), rating_aspects=asked), items, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert graded.usage.cost_usd == pytest.approx(sum(row["cost_usd"] for row in rows))
    assert graded.usage.calls == calls


# -- a rating's premium, as a pair's (issue 39, item 7) ----------------------------------


class PricedRater:
    """Answers a pair (A, then B on the reverse leg) and a rating (4, then 2 on the mirrored
    leg, every aspect at once too), the direct leg at one price and every other at another."""

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "priced-rater"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        content = messages[-1]["content"]
        reverse = "worse one" in content or "how poor the response" in content
        if "Rating" in content or "rate" in content:
            score = "2" if reverse else "4"
            lines = [f"{name}: [[{score}]]" for name in ASPECTS_ITEM["aspects"]]
            text = "\n".join(lines) + f"\nRating: [[{score}]]"
        else:
            text = "Answer: B" if reverse else "Answer: A"
        return JudgeResponse(text=text, usage=REVERSE if reverse else DIRECT)


RATING = {key: value for key, value in ASPECTS_ITEM.items() if key != "aspects"}


@pytest.mark.parametrize(
    ("judges", "item", "options"),
    [
        pytest.param(1, RATING, {}, id="rating"),
        pytest.param(2, RATING, {}, id="rating-panel"),
        pytest.param(1, ASPECTS_ITEM, {"rating_aspects": "apart"}, id="aspects-apart"),
        pytest.param(1, ASPECTS_ITEM, {"rating_aspects": "together"}, id="aspects-together"),
    ],
)
def test_a_rating_verdict_carries_the_premium_a_pair_with_the_same_judge_does(
    judges: int, item: dict[str, Any], options: dict[str, Any]
) -> None:
    """Issue 39, item 7: a rating verdict never had a ``premium``, though a pairwise one
    with the same judge did. Both here: every answer's cost over the direct legs'."""
    judge = PricedRater() if judges == 1 else [PricedRater() for _ in range(judges)]
    pair = Guard(judge, checks="reverse").check(PAIR)
    assert pair.premium == pytest.approx((0.0079 + 0.0012) / 0.0079)
    rated = Guard(judge, **options).check(item)
    assert rated.rating is not None or rated.aspects
    assert rated.premium == pytest.approx(pair.premium)
    # the summaries' rule gives the same figure
    tally = UsageTally()
    tally.add(rated)
    assert tally.summary().premium == pytest.approx(pair.premium, abs=1e-4)


def test_a_rating_with_a_price_unknown_or_a_failed_member_has_no_premium() -> None:
    unpriced = Guard(PricedJudge(None, None)).check(RATING)
    assert unpriced.premium is None

    class Failing(PricedRater):
        def identity(self) -> dict[str, Any]:
            return {"kind": "test", "name": "failing"}

        async def complete(
            self, messages: Sequence[Message], *, labels: Sequence[str] = ()
        ) -> JudgeResponse:
            raise RuntimeError("down")

    panel = Guard([PricedRater(), Failing()], retry=None).check(RATING)
    assert any(member.abstained for member in panel.members)
    assert panel.premium is None  # as a pair's panel: the failed member's cost is unknown
