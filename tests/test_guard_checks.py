"""The guard's checks beyond the reverse question: candidate order, panels, confidence,
and policy strict. Scripted judges with known behaviour; the claim is in each name."""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from prin_guard import Flag, Guard, GuardOptions, Item, UsageError
from prin_guard.judges import JudgeResponse, ScriptedJudge
from prin_guard.models import Message

ITEM = Item(question="What is 2+2?", candidates=["3", "4", "5", "22"], id="sum")
ODD_ITEM = Item(question="What is 2+2?", candidates=["3", "4", "5"], id="odd")


def _options(prompt: str) -> dict[str, str]:
    """label -> text of the options as the prompt shows them."""
    return dict(re.findall(r'"([A-Z]+)\) ([^"]*)"', prompt))


def knows(right: set[str]) -> Any:
    """A judge that reads the options and answers by content: order does not matter."""

    def answer(prompt: str) -> str:
        shown = _options(prompt)
        if "incorrect ones" in prompt:
            wanted = [label for label, text in shown.items() if text not in right]
        else:
            wanted = [label for label, text in shown.items() if text in right]
        return "Answer: " + (", ".join(wanted) or "none")

    return answer


def first_position(prompt: str) -> str:
    """Position bias: the first option is correct, every other one incorrect."""
    labels = list(_options(prompt))
    if "incorrect ones" in prompt:
        return "Answer: " + ", ".join(labels[1:])
    return "Answer: " + labels[0]


# -- order ----------------------------------------------------------------------------


def test_a_position_biased_judge_is_flagged_order_sensitive() -> None:
    guard = Guard(first_position, checks=("reverse", "order"))
    verdict = guard.check(ITEM)
    # it agrees with itself within one order (PRIN 0) ...
    assert verdict.scores.prin == 0.0
    # ... and names the first-shown candidate whatever it is
    assert Flag.ORDER_SENSITIVE in verdict.flags
    assert verdict.scores.order_inconsistency == 1.0
    assert not verdict.consistent
    assert [leg.order for leg in verdict.permuted] == [("D", "C", "B", "A")] * 2
    # the second-order direct leg answered "A": mapped back to the item's own D
    assert verdict.permuted[0].labels == ("D",)
    assert verdict.correct == ("A",)


def test_a_judge_that_reads_the_content_is_not_order_sensitive() -> None:
    guard = Guard(knows({"4"}), checks=("reverse", "order"))
    for item in (ITEM, ODD_ITEM):
        verdict = guard.check(item)
        assert verdict.scores.order_inconsistency == 0.0
        assert Flag.ORDER_SENSITIVE not in verdict.flags
        assert verdict.consistent
        assert verdict.correct == ("B",)
        assert verdict.flags == ()


def test_without_the_order_check_no_second_order_is_asked() -> None:
    judge = ScriptedJudge(fn=first_position)
    verdict = Guard(judge).check(ITEM)
    assert len(judge.calls) == 2
    assert verdict.permuted == ()
    assert verdict.scores.order_inconsistency is None
    assert verdict.judge_calls == 2


def test_the_order_check_costs_two_more_legs_and_caches_them() -> None:
    judge = ScriptedJudge(fn=knows({"4"}))
    guard = Guard(judge, checks="reverse,order")
    first = guard.check(ITEM)
    assert first.judge_calls == 4 and len(judge.calls) == 4
    again = guard.check(ITEM)
    assert again.cached and len(judge.calls) == 4
    kept = {"cached", "direct", "reverse", "permuted", "usage", "saved_usage"}
    assert again.model_dump(exclude=kept) == first.model_dump(exclude=kept)
    # what the first paid, the second was served from the cache: paid then, not now
    assert (again.usage, again.saved_usage) == (first.saved_usage, first.usage)


def test_the_swap_check_asks_the_direct_question_alone_in_the_second_order() -> None:
    # issue 37, item 14: three legs (direct, reverse, the direct question swapped) see
    # position bias as the four of the order check do
    judge = ScriptedJudge(fn=first_position)
    guard = Guard(judge, checks="reverse,swap")
    verdict = guard.check(ITEM)
    assert verdict.judge_calls == 3 and len(judge.calls) == 3
    assert [(leg.polarity.value, leg.order) for leg in verdict.permuted] == [
        ("direct", ("D", "C", "B", "A"))
    ]
    assert Flag.ORDER_SENSITIVE in verdict.flags and verdict.scores.order_inconsistency == 1.0
    assert verdict.checks == ("reverse", "swap")
    assert guard.max_judge_calls_for("pairwise") == 3
    assert [leg.name for leg in guard.prompts(ITEM)] == [
        "direct",
        "reverse",
        "direct, second order",
    ]
    reading = Guard(knows({"4"}), checks="reverse,swap").check(ODD_ITEM)
    assert reading.consistent and reading.flags == () and reading.scores.order_inconsistency == 0


def test_the_swap_checks_leg_is_the_order_checks_direct_leg_in_the_cache() -> None:
    from prin_guard import MemoryCache

    judge, cache = ScriptedJudge(fn=knows({"4"})), MemoryCache()
    Guard(judge, checks="reverse,order", cache=cache).check(ITEM)
    again = Guard(judge, checks="reverse,swap", cache=cache).check(ITEM)
    assert again.cached and len(judge.calls) == 4


def test_order_and_swap_together_are_refused() -> None:
    with pytest.raises(UsageError, match=r"checks.*'order' or 'swap'"):
        Guard(first_position, checks="reverse,order,swap")


def test_policy_strict_keeps_what_every_leg_agrees_on() -> None:
    # direct says A and B; reverse says C, D (so A, B are implied correct); in the second
    # order the judge still calls the first shown (D) correct
    def judge(prompt: str) -> str:
        labels = list(_options(prompt))
        if "incorrect ones" in prompt:
            return "Answer: C, D"
        return "Answer: A, B" if labels and _options(prompt)["A"] == "3" else "Answer: A, D"

    synergy = Guard(judge, checks=("reverse", "order")).check(ITEM)
    strict = Guard(judge, checks=("reverse", "order"), policy="strict").check(ITEM)
    assert synergy.correct == ("A", "B")
    # second-order direct "A, D" maps back to D, A; its reverse "C, D" maps to B, A
    assert strict.correct == ()
    assert Flag.EMPTY_VERDICT in strict.flags


async def test_every_leg_of_a_verdict_runs_at_once() -> None:
    class Barrier:
        """Each call waits until all four legs are in flight: legs run one after
        another would never get there."""

        def __init__(self) -> None:
            self.active = 0
            self.peak = 0
            self.all_in = asyncio.Event()

        def identity(self) -> Mapping[str, Any]:
            return {"kind": "barrier"}

        async def complete(
            self, messages: Sequence[Message], *, labels: Sequence[str] = ()
        ) -> JudgeResponse:
            self.active += 1
            self.peak = max(self.peak, self.active)
            if self.active == 4:
                self.all_in.set()
            await self.all_in.wait()
            self.active -= 1
            return JudgeResponse(knows({"4"})(messages[-1]["content"]))

    judge = Barrier()
    async with asyncio.timeout(60):  # hang protection: legs in turn wait here forever
        verdict = await Guard(judge, checks=("reverse", "order"), cache=None).acheck(ITEM)
    assert judge.peak == 4
    assert verdict.correct == ("B",)


def test_checks_must_include_reverse_and_be_known() -> None:
    with pytest.raises(UsageError, match=r"checks: .*must include 'reverse'"):
        Guard(knows({"4"}), checks=("order",))
    with pytest.raises(UsageError, match=r"checks: .*unknown check 'position'"):
        GuardOptions.of(checks=("reverse", "position"))
    assert GuardOptions.of(checks="order,reverse").checks == ("reverse", "order")


# -- panels ---------------------------------------------------------------------------


def test_a_panel_reports_the_majority_and_each_member() -> None:
    panel = [
        ScriptedJudge(fn=knows({"4"}), name="good-1"),
        ScriptedJudge(fn=knows({"4"}), name="good-2"),
        ScriptedJudge(fn=knows({"3"}), name="wrong"),
    ]
    verdict = Guard(panel).check(ITEM)
    assert verdict.correct == ("B",)
    assert [m.judge for m in verdict.members] == ["good-1", "good-2", "wrong"]
    assert [m.correct for m in verdict.members] == [("B",), ("B",), ("A",)]
    assert verdict.direct is None and verdict.reverse is None
    assert Flag.PANEL_SPLIT not in verdict.flags
    # A: 1 yes 2 no; B: 2 yes 1 no; C, D: 3 no -> (1/3 + 1/3 + 1 + 1) / 4
    assert verdict.scores.panel_agreement == pytest.approx((1 / 3 + 1 / 3 + 2) / 4)
    assert verdict.judge_calls == 6


def test_a_panel_member_that_cannot_be_read_abstains_and_is_reported() -> None:
    panel = [
        ScriptedJudge(fn=knows({"4"}), name="a"),
        ScriptedJudge(fn=knows({"4"}), name="b"),
        ScriptedJudge("I would rather not say.", "Hmm.", name="mute"),
    ]
    verdict = Guard(panel).check(ITEM)
    mute = verdict.members[2]
    assert mute.abstained and mute.reason and "could not be read" in mute.reason
    assert Flag.PANEL_ABSTENTION in verdict.flags
    # two of three is still a strict majority of the whole panel
    assert verdict.correct == ("B",)
    assert not verdict.consistent


def test_a_panel_member_that_fails_abstains_and_the_rest_decide() -> None:
    panel = [
        ScriptedJudge(fn=knows({"4"}), name="a"),
        ScriptedJudge(fn=knows({"4"}), name="b"),
        ScriptedJudge(RuntimeError("boom"), RuntimeError("boom"), name="broken"),
    ]
    verdict = Guard(panel, retry=None).check(ITEM)
    assert verdict.members[2].abstained
    assert "judge error" in (verdict.members[2].reason or "")
    assert verdict.correct == ("B",)
    assert verdict.error is None


def test_a_two_two_panel_is_split_not_broken_by_list_order() -> None:
    panel = [
        ScriptedJudge(fn=knows({"4"}), name="b-1"),
        ScriptedJudge(fn=knows({"3"}), name="a-1"),
        ScriptedJudge(fn=knows({"4"}), name="b-2"),
        ScriptedJudge(fn=knows({"3"}), name="a-2"),
    ]
    verdict = Guard(panel).check(ITEM)
    assert Flag.PANEL_SPLIT in verdict.flags
    assert verdict.correct == ()
    reordered = Guard(list(reversed(panel))).check(ITEM)
    assert reordered.correct == () and Flag.PANEL_SPLIT in reordered.flags


def test_a_panel_whose_members_all_fail_is_a_judge_error() -> None:
    panel = [ScriptedJudge(RuntimeError("x"), RuntimeError("x"), name=n) for n in "ab"]
    [verdict] = Guard(panel).check_many([ITEM])
    assert verdict.flags == (Flag.JUDGE_ERROR,)


def test_panel_member_names_are_unique() -> None:
    guard = Guard([ScriptedJudge(fn=knows({"4"})), ScriptedJudge(fn=knows({"4"}))])
    assert guard.members == ("scripted", "scripted#2")
    with pytest.raises(UsageError, match="judge: this guard is a panel"):
        _ = guard.judge


def test_a_panel_with_the_order_check_reports_each_members_order_score() -> None:
    panel = [
        ScriptedJudge(fn=first_position, name="biased"),
        ScriptedJudge(fn=knows({"3"}), name="a"),
        ScriptedJudge(fn=knows({"3"}), name="b"),
    ]
    verdict = Guard(panel, checks=("reverse", "order")).check(ITEM)
    assert [m.scores.order_inconsistency for m in verdict.members] == [1.0, 0.0, 0.0]
    assert verdict.scores.order_inconsistency == pytest.approx(1 / 3)
    assert Flag.ORDER_SENSITIVE in verdict.flags
    assert verdict.correct == ("A",)


# -- confidence -----------------------------------------------------------------------


class TokenJudge:
    """Answers "Answer: B" with log-probabilities: p(" B") is the given probability."""

    def __init__(self, probability: float, tokens: bool = True) -> None:
        self.probability = probability
        self.tokens = tokens

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "tokens", "p": self.probability, "tokens": self.tokens}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        prompt = messages[-1]["content"]
        answer = " A, C, D" if "incorrect ones" in prompt else " B"
        pieces = [("Answer", 0.0), (":", 0.0)]
        pieces += [(piece, math.log(self.probability)) for piece in re.findall(r"[ ,]*\w", answer)]
        text = "".join(piece for piece, _ in pieces)
        return JudgeResponse(text, tokens=tuple(pieces) if self.tokens else None)


@pytest.mark.parametrize(
    ("probability", "flagged"),
    [pytest.param(0.9, False, id="confident"), pytest.param(0.3, True, id="unsure")],
)
def test_low_confidence_is_flagged_under_min_confidence(probability: float, flagged: bool) -> None:
    guard = Guard(TokenJudge(probability), checks=("reverse", "confidence"), min_confidence=0.5)
    verdict = guard.check(ITEM)
    assert verdict.direct is not None and verdict.reverse is not None
    assert verdict.direct.confidence == pytest.approx(probability)
    # the reverse answer is three labels: the product of their probabilities
    assert verdict.reverse.confidence == pytest.approx(probability**3)
    assert verdict.scores.confidence == pytest.approx(probability**3)
    assert (Flag.LOW_CONFIDENCE in verdict.flags) is flagged


def test_confidence_is_none_without_log_probabilities_and_never_flagged() -> None:
    guard = Guard(TokenJudge(0.1, tokens=False), checks=("reverse", "confidence"))
    verdict = guard.check(ITEM)
    assert verdict.scores.confidence is None
    assert Flag.LOW_CONFIDENCE not in verdict.flags


def test_confidence_survives_the_cache() -> None:
    guard = Guard(TokenJudge(0.8), checks=("reverse", "confidence"))
    first = guard.check(ITEM)
    again = guard.check(ITEM)
    assert again.cached
    assert again.scores.confidence == first.scores.confidence == pytest.approx(0.8**3)


def test_confidence_is_recorded_without_the_check_but_not_flagged() -> None:
    verdict = Guard(TokenJudge(0.1)).check(ITEM)
    assert verdict.scores.confidence == pytest.approx(0.1**3)
    assert Flag.LOW_CONFIDENCE not in verdict.flags


class _CountingJudge:
    """Counts its calls; reverse legs name every other candidate (consistent)."""

    def __init__(self, name: str) -> None:
        self.name, self.calls = name, 0

    def identity(self) -> dict[str, Any]:
        return {"kind": "counting", "name": self.name}

    async def complete(self, messages: Sequence[Message], *, labels: Sequence[str] = ()) -> Any:
        self.calls += 1
        return JudgeResponse(text="Answer: B" if "incorrect" in str(messages) else "Answer: A")


@pytest.mark.parametrize(
    ("options", "per_judge"),
    [
        # no checks named: each task's default, so as many as a pair's (reverse, order)
        pytest.param({}, 4, id="default"),
        pytest.param({"checks": "reverse"}, 2, id="reverse"),
        pytest.param({"checks": "reverse,order"}, 4, id="order"),
        pytest.param({"checks": "reverse", "probe": "closed"}, 4, id="probe-closed"),
        pytest.param({"checks": "reverse", "probe": "progressive"}, 8, id="probe-progressive"),
        pytest.param({"checks": "reverse,order", "probe": "progressive"}, 10, id="heaviest"),
        pytest.param({"checks": "reverse", "reask": True}, 4, id="reask"),
        pytest.param({"checks": "reverse,order", "reask": True}, 8, id="order-reask"),
    ],
)
@pytest.mark.parametrize("panel", [1, 2])
def test_max_judge_calls_bounds_what_an_item_costs(
    options: dict[str, Any], per_judge: int, panel: int
) -> None:
    """What a budget reserves per item (issue 27, item 2): never fewer calls than made."""
    judges = [_CountingJudge(f"j{n}") for n in range(panel)]
    guard = Guard(judges if panel > 1 else judges[0], cache=None, **options)
    # the label tasks' bound (no checks named: each task's default, a pair's the most)
    labels = max(guard.max_judge_calls_for(task) for task in ("choice", "pairwise", "checklist"))
    assert labels == per_judge * panel
    # any task: the costliest (a ranking's sliding windows over 20), never less
    assert guard.max_judge_calls >= labels
    guard.check({"question": "2 + 2?", "candidates": ["4", "5"]})
    assert 0 < sum(judge.calls for judge in judges) <= guard.max_judge_calls_for("choice")
