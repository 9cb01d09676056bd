"""The ranking task on the one route (issue 40): items, legs, orders, windows, best-of-n,
reading, and the surfaces (prompts, cache keys, aask, check, grade), with scripted judges
that read the prompt they are sent."""

from __future__ import annotations

import asyncio
import csv
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from prin_guard import Guard, read_reply
from prin_guard._route._options import GuardOptions
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.judges import JudgeResponse
from prin_guard.models import AnswerContract, Flag, ParseStatus, Polarity, Ranked, RankingItem
from prin_guard.tasks import REGISTRY
from prin_guard.tasks._ranking import (
    RANKING,
    read_pick,
    window_calls,
    window_starts,
    window_sweeps,
)

_SHOWN = re.compile(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End of Response \1\]", re.S)

QUALITY = {
    "a thorough, correct answer": 9,
    "a correct but terse answer": 7,
    "a partly wrong answer": 4,
    "an off-topic answer": 2,
    "no answer at all": 1,
}


def item(count: int = 3, **extra: object) -> dict[str, object]:
    texts = (
        list(QUALITY)[:count] if count <= len(QUALITY) else [f"answer {i}" for i in range(count)]
    )
    return {"task": "ranking", "question": "How do I boil an egg?", "candidates": texts, **extra}


def shown_in(prompt: str) -> list[tuple[str, str]]:
    return _SHOWN.findall(prompt)


def reply_for(prompt: str, best_first: list[str]) -> str:
    """A reply in the form the leg asks, for a ranking ``best_first`` of shown labels."""
    if "decide which response is the best" in prompt:
        return f"Thoughts.\nBest: [[{best_first[0]}]]"
    if "decide which response is the worst" in prompt:
        return f"Thoughts.\nWorst: [[{best_first[-1]}]]"
    if "from the worst to the best" in prompt:
        return "Thoughts.\nRanking from worst to best: " + ", ".join(reversed(best_first))
    return "Thoughts.\nRanking from best to worst: " + ", ".join(best_first)


def content_judge(score: Callable[[str], float]) -> Callable[[str], str]:
    """A judge that ranks the responses shown by ``score`` of their texts, whatever their
    order: a consistent judge."""

    def judge(prompt: str) -> str:
        shown = shown_in(prompt)
        ranked = sorted(shown, key=lambda pair: -score(pair[1]))
        return reply_for(prompt, [label for label, _ in ranked])

    return judge


def quality(text: str) -> float:
    return QUALITY.get(text, 0) or -int(text.split()[-1])


def positional_judge(prompt: str) -> str:
    """A judge that ranks the responses in the order shown: all position bias."""
    return reply_for(prompt, [label for label, _ in shown_in(prompt)])


# -- the item -----------------------------------------------------------------------------


def test_the_item_labels_its_responses_and_keys_its_content() -> None:
    checked = RankingItem.coerce(item())
    assert checked.labels == ("A", "B", "C")
    assert checked.key == RankingItem.coerce(item()).key
    assert checked.key != RankingItem.coerce(item(4)).key
    assert RankingItem.coerce(item(id="mine")).key == "mine"


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (item(2), "candidates", "pairwise item"),
        ({**item(), "candidates": [f"r{i}" for i in range(21)]}, "candidates", "got 21"),
        ({**item(), "question": "  "}, "question", "empty"),
        ({**item(), "candidates": ["same", "same", "other"]}, "candidates", "same text"),
        (
            {**item(), "candidates": [{"text": "a", "weight": 2}, "b", "c"]},
            "candidates.0.weight",
            "checklists",
        ),
        ({**item(), "candidates": "abc"}, "candidates", "list"),
        ({**item(), "scale": {"min": 1}}, "scale", ""),
        ({**item(), "candidates": ["a", {"text": ""}, "c"]}, "candidates.1.text", ""),
    ],
)
def test_a_bad_item_names_its_field(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InvalidItemError) as caught:
        RankingItem.coerce(raw)
    assert caught.value.field == field
    assert words in str(caught.value)


def test_the_guard_refuses_a_bad_ranking_before_any_call() -> None:
    guard = Guard(content_judge(quality), cache=None)
    with pytest.raises(InvalidItemError) as caught:
        guard.check(item(2))
    assert caught.value.field == "candidates"
    assert guard.judge_calls == 0


def test_the_task_is_registered_on_the_one_route() -> None:
    assert REGISTRY["ranking"] is RANKING


# -- the legs -----------------------------------------------------------------------------


def test_a_consistent_judge_gives_a_clean_ranking() -> None:
    verdict = Guard(content_judge(quality), cache=None).check(item(4))
    assert verdict.task == "ranking"
    assert verdict.ranking == (("A",), ("B",), ("C",), ("D",))
    assert (verdict.best, verdict.worst) == ("A", "D")
    assert verdict.positions == {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0}
    assert verdict.scores.legs_tau == 1.0
    assert verdict.prin_score == 0.0
    assert verdict.flags == ()
    assert verdict.consistent
    assert verdict.judge_calls == 2
    assert verdict.direct is not None and verdict.direct.ranking == verdict.ranking
    assert verdict.reverse is not None and verdict.reverse.ranking == (
        ("D",),
        ("C",),
        ("B",),
        ("A",),
    )


def test_a_reverse_leg_that_ranks_best_first_is_polarity_confusion() -> None:
    def judge(prompt: str) -> str:  # reads "worst to best" as "best to worst"
        ranked = sorted(shown_in(prompt), key=lambda pair: -quality(pair[1]))
        return "Ranking: " + ", ".join(label for label, _ in ranked)

    verdict = Guard(judge, cache=None).check(item(4))
    assert verdict.prin_score == 1.0
    assert verdict.scores.legs_tau == -1.0
    assert {Flag.INCONSISTENT, Flag.POLARITY_CONFUSION, Flag.BEST_IS_WORST} <= set(verdict.flags)
    assert not verdict.consistent
    # two votes exactly opposed: the consensus ties everything
    assert verdict.ranking == (("A", "B", "C", "D"),)
    assert verdict.best is None and verdict.worst is None


def test_legs_one_swap_apart_are_within_the_tolerance_and_tie_the_swapped_pair() -> None:
    def judge(prompt: str) -> str:
        ranked = [label for label, _ in sorted(shown_in(prompt), key=lambda p: -quality(p[1]))]
        if "from the worst to the best" in prompt:
            ranked[0], ranked[1] = ranked[1], ranked[0]  # A and B swapped on this leg
        return reply_for(prompt, ranked)

    tolerant = Guard(judge, cache=None).check(item(5))
    assert tolerant.prin_score == pytest.approx(0.1)  # one pair of ten
    assert tolerant.scores.legs_tau == pytest.approx(0.8)
    assert Flag.INCONSISTENT not in tolerant.flags
    assert tolerant.ranking == (("A", "B"), ("C",), ("D",), ("E",))
    assert tolerant.best is None  # first place is shared
    strict = Guard(judge, cache=None, ranking_tolerance=0.05).check(item(5))
    assert Flag.INCONSISTENT in strict.flags
    assert strict.threshold == 0.05


def test_an_unreadable_leg_is_flagged_and_never_completed() -> None:
    def judge(prompt: str) -> str:
        if "from the worst to the best" in prompt:
            return "Ranking from worst to best: C, B"  # leaves A out
        return reply_for(prompt, ["A", "B", "C"])

    verdict = Guard(judge, cache=None).check(item())
    assert verdict.reverse is not None
    assert verdict.reverse.parse_status is ParseStatus.FAILED
    assert verdict.reverse.ranking is None
    assert Flag.UNPARSEABLE_REVERSE in verdict.flags
    assert verdict.ranking == (("A",), ("B",), ("C",))  # the direct leg's
    assert verdict.prin_score is None and not verdict.consistent


def test_ties_the_judge_writes_are_kept() -> None:
    def judge(prompt: str) -> str:
        if "from the worst to the best" in prompt:
            return "Ranking from worst to best: C, A = B"
        return "Ranking from best to worst: A = B, C"

    verdict = Guard(judge, cache=None).check(item())
    assert verdict.ranking == (("A", "B"), ("C",))
    assert verdict.positions == {"A": 1.5, "B": 1.5, "C": 3.0}
    assert verdict.worst == "C" and verdict.best is None
    assert verdict.consistent


def test_the_legs_share_their_prefix_and_differ_in_the_last_paragraph() -> None:
    guard = Guard(content_judge(quality), cache=None)
    direct, reverse = guard.prompts(item())
    first, second = direct.messages[1]["content"], reverse.messages[1]["content"]
    shared = first.rsplit("[Instruction]", 1)[0]
    assert second.startswith(shared)
    assert "How do I boil an egg?" in shared and "no answer" not in shared
    assert (direct.name, reverse.name) == ("direct", "reverse")
    assert guard.messages(item(), Polarity.REVERSE) == reverse.messages


# -- orders ---------------------------------------------------------------------------------


def test_a_position_biased_judge_is_caught_by_balanced_orders() -> None:
    guard = Guard(positional_judge, cache=None, checks="reverse,order", ranking_orders=4)
    verdict = guard.check(item(4))
    assert verdict.judge_calls == 8
    assert len(verdict.permuted) == 6
    assert Flag.POSITION_BIAS in verdict.flags
    assert Flag.ORDER_SENSITIVE in verdict.flags
    assert verdict.scores.position_bias == pytest.approx(1.0)
    # each response shown once in each position over the four orders
    shown = [verdict.direct.order or verdict.labels] + [
        leg.order for leg in verdict.permuted if leg.polarity is Polarity.DIRECT
    ]
    for position in range(4):
        assert sorted(order[position] for order in shown if order) == ["A", "B", "C", "D"]


def test_a_consistent_judge_agrees_with_itself_over_orders() -> None:
    verdict = Guard(content_judge(quality), cache=None, checks="reverse,order").check(item(4))
    assert verdict.judge_calls == 6  # three orders (the default), both legs
    assert verdict.scores.orders_tau == 1.0
    assert verdict.scores.order_inconsistency == 0.0
    assert verdict.flags == ()
    assert verdict.ranking == (("A",), ("B",), ("C",), ("D",))


def test_the_swap_check_asks_the_direct_leg_alone_in_the_other_orders() -> None:
    verdict = Guard(content_judge(quality), cache=None, checks="reverse,swap").check(item(4))
    assert verdict.judge_calls == 4
    assert all(leg.polarity is Polarity.DIRECT for leg in verdict.permuted)


def test_adaptive_stopping_stops_once_two_orders_agree() -> None:
    options = {"checks": "reverse,order", "ranking_orders": 6}
    full = Guard(content_judge(quality), cache=None, **options).check(item(4))
    adaptive = Guard(content_judge(quality), cache=None, ranking_adaptive=True, **options)
    stopped = adaptive.check(item(4))
    assert full.judge_calls == 12
    assert stopped.judge_calls == 4  # the first two orders agree
    assert stopped.ranking == full.ranking
    # four orders of four responses: each shown in each position once, and a judge that
    # ranks by position never agrees with itself (a fifth order would repeat the first)
    biased = Guard(
        positional_judge,
        cache=None,
        ranking_adaptive=True,
        checks="reverse,order",
        ranking_orders=4,
    )
    assert biased.check(item(4)).judge_calls == 8


def test_cache_keys_list_every_planned_leg_and_the_verdict_is_cached() -> None:
    guard = Guard(content_judge(quality), checks="reverse,order")
    keys = guard.cache_keys(item(4))
    assert len(keys) == len(set(keys)) == 6
    first = guard.check(item(4))
    again = guard.check(item(4))
    assert not first.cached and again.cached
    assert guard.judge_calls == 6


async def test_aask_asks_one_leg_by_the_route() -> None:
    guard = Guard(content_judge(quality))
    leg = await guard.aask(item(), Polarity.REVERSE)
    assert leg.ranking == (("C",), ("B",), ("A",))
    verdict = await guard.acheck(item())
    assert verdict.reverse is not None and verdict.reverse.cached


# -- best-of-n -------------------------------------------------------------------------------


def test_best_of_n_asks_which_is_best_and_which_is_worst() -> None:
    guard = Guard(content_judge(quality), cache=None, ranking_mode="best")
    verdict = guard.check(item(5))
    assert (verdict.best, verdict.worst) == ("A", "E")
    assert verdict.ranking == (("A",), ("B", "C", "D"), ("E",))
    assert verdict.prin_score == 0.0 and verdict.consistent
    assert verdict.direct is not None and verdict.direct.labels == ("A",)
    assert "decide which response is the best" in guard.prompts(item(5))[0].messages[1]["content"]


def test_best_of_n_that_names_one_response_both_best_and_worst() -> None:
    def judge(prompt: str) -> str:
        return "Best: [[B]]" if "the best" in prompt else "Worst: [[B]]"

    verdict = Guard(judge, cache=None, ranking_mode="best").check(item())
    assert {Flag.BEST_IS_WORST, Flag.INCONSISTENT} <= set(verdict.flags)
    assert verdict.prin_score == 1.0
    assert verdict.ranking is None and verdict.best is None


@pytest.mark.parametrize(
    ("reply", "polarity", "expected"),
    [
        ("I pick [[B]].", Polarity.DIRECT, "B"),
        ("[[B]] ... so [[B]]", Polarity.DIRECT, "B"),
        ("[[B]] or [[C]]", Polarity.DIRECT, None),
        ("[[Z]]", Polarity.DIRECT, None),
        ("Worst: C", Polarity.REVERSE, "C"),
        ("Best: C", Polarity.REVERSE, None),
        ("no idea", Polarity.DIRECT, None),
    ],
)
def test_a_pick_is_read_strictly(reply: str, polarity: Polarity, expected: str | None) -> None:
    assert read_pick(reply, ("A", "B", "C"), polarity)[0] == expected


# -- long lists ------------------------------------------------------------------------------


def test_window_sweeps_settle_half_a_window_each() -> None:
    assert window_starts(12, 6) == [6, 3, 0]
    assert window_sweeps(12, 6) == [[6, 3, 0], [6, 3], [6]]
    assert window_calls(12, 6) == 6
    assert window_sweeps(5, 6) == [[0]]
    assert window_calls(20, 10) == 6


def test_a_long_list_is_ranked_by_sliding_windows_into_the_judges_order() -> None:
    texts = [f"answer {i}" for i in (7, 3, 11, 0, 9, 5, 1, 10, 2, 8, 6, 4)]
    raw = {"task": "ranking", "question": "q?", "candidates": texts}
    asked: list[int] = []

    def judge(prompt: str) -> str:
        shown = shown_in(prompt)
        asked.append(len(shown))
        ranked = sorted(shown, key=lambda pair: int(pair[1].split()[-1]))  # 0 is best
        return reply_for(prompt, [label for label, _ in ranked])

    guard = Guard(judge, cache=None, ranking_window=6)
    verdict = guard.check(raw)
    checked = RankingItem.coerce(raw)
    by_text = {c.text: c.label for c in checked.candidates}
    truth = tuple((by_text[f"answer {i}"],) for i in range(12))
    assert verdict.ranking == truth
    assert verdict.consistent and verdict.prin_score == 0.0
    assert set(asked) == {6}  # never more than a window at once
    assert verdict.judge_calls == len(asked) <= 2 * window_calls(12, 6)
    assert verdict.direct is not None and "--- window 2 of" in (verdict.direct.raw_text or "")
    legs = guard.prompts(raw)
    assert legs[0].name == "direct, window 1 of 6"
    assert len(shown_in(legs[0].messages[1]["content"])) == 6
    assert guard.max_judge_calls_for("ranking") == 2 * window_calls(20, 6)


# -- the reader ------------------------------------------------------------------------------


def test_read_reply_returns_the_ranking_as_listed() -> None:
    reading = read_reply("Final ranking: C > A = B", item())
    assert reading.ranking == (("C",), ("A", "B"))
    assert reading.status is ParseStatus.OK
    missing = read_reply("Final ranking: C > A", item())
    assert missing.status is ParseStatus.FAILED and missing.ranking is None
    twice = read_reply("Ranking: C > A > C > B", item())
    assert twice.ranking is None


def test_a_copy_of_a_response_is_masked_before_reading() -> None:
    raw = {**item(), "candidates": ["Ranking: C > B > A, surely", "b text", "c text"]}
    reading = read_reply("Response A says: Ranking: C > B > A, surely", raw)
    assert reading.ranking is None


@pytest.mark.parametrize(
    ("form", "labels", "reply", "expected"),
    [
        ("ordering", ["Assistant 1", "Assistant 2", "Assistant 3"],
         "Assistant 1 is good.\nAssistant 2 > Assistant 1 = Assistant 3", (("B",), ("A", "C"))),
        ("identifiers", ["[1]", "[2]", "[3]"], "[2] > [3] > [1]", (("B",), ("C",), ("A",))),
        ("json-list", None, 'Sure. {"ranking": ["C", "A", "B"]}', (("C",), ("A",), ("B",))),
        ("json-ranks", None, '{"A": 2, "B": 1, "C": 3}', (("B",), ("A",), ("C",))),
        ("numbered", ["Response 1", "Response 2", "Response 3"],
         "Ranking:\n1. Response 3\n2. Response 1\n3. Response 2", (("C",), ("A",), ("B",))),
        ("tags", None, "[[C]], [[A]], [[B]]", (("C",), ("A",), ("B",))),
    ],
)  # fmt: skip
def test_a_declared_form_is_read_strictly(
    form: str, labels: list[str] | None, reply: str, expected: tuple[tuple[str, ...], ...]
) -> None:
    contract = AnswerContract(
        labels=None if labels is None else tuple(labels),
        format=Ranked(form=form),  # type: ignore[arg-type]
    )
    reading = read_reply(reply, item(), template=contract)
    assert reading.ranking == expected
    assert reading.method is not None and reading.method.value == "declared"


def test_the_declared_form_decides_over_another_form() -> None:
    contract = AnswerContract(format=Ranked(form="tags"))
    reply = "Ranking: A > B > C\nMy answer: [[C]], [[B]], [[A]]"
    assert read_reply(reply, item(), template=contract).ranking == (("C",), ("B",), ("A",))
    assert read_reply(reply, item()).ranking is None  # undeclared: two rankings disagree


def test_a_contract_with_the_wrong_number_of_labels_is_refused() -> None:
    contract = AnswerContract(labels=("1", "2"), format=Ranked())
    with pytest.raises(UsageError, match=r"contract\.labels"):
        read_reply("2 > 1", item(), template=contract)


# -- options and surfaces ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"template": "pairwise"}, "template"),
        ({"checks": "reverse,confidence"}, "checks"),
        ({"probe": "closed"}, "probe"),
        ({"mitigations": "cot"}, "mitigations"),
        ({"reask": True}, "reask"),
    ],
)
def test_options_a_ranking_cannot_honour_are_refused(
    options: dict[str, object], field: str
) -> None:
    with pytest.raises(UsageError, match=f"^{field}"):
        Guard(content_judge(quality), cache=None, **options).check(item())


def test_a_panel_is_refused_naming_the_task() -> None:
    guard = Guard([content_judge(quality), positional_judge], cache=None)
    with pytest.raises(InvalidItemError) as caught:
        guard.check(item())
    assert caught.value.field == "task"


def test_a_batch_gives_an_invalid_ranking_its_own_verdict() -> None:
    guard = Guard(content_judge(quality), cache=None)
    good, bad = guard.check_many([item(), item(2, id="two")])
    assert good.consistent
    assert bad.task == "ranking" and bad.item_id == "two"
    assert bad.flags == (Flag.INVALID_ITEM,)
    assert bad.error is not None and bad.error.field == "candidates"


def test_the_verdict_round_trips_through_json() -> None:
    verdict = Guard(content_judge(quality), cache=None, checks="reverse,order").check(item(4))
    again = type(verdict).model_validate_json(verdict.model_dump_json())
    assert again == verdict
    assert json.loads(verdict.model_dump_json())["ranking"] == [["A"], ["B"], ["C"], ["D"]]


def test_max_calls_bounds_what_a_ranking_asks() -> None:
    guard = Guard(
        content_judge(quality),
        cache=None,
        checks="reverse,order",
        ranking_orders=5,
        ranking_window=20,
    )
    assert guard.max_judge_calls_for("ranking") == 10
    swap = Guard(content_judge(quality), cache=None, checks="reverse,swap", ranking_window=20)
    assert swap.max_judge_calls_for("ranking") == 4
    # a list of twenty in windows of ten: six calls a leg at most
    assert Guard(content_judge(quality), cache=None).max_judge_calls_for("ranking") == 12
    assert GuardOptions().ranking_order_count() == 1


# -- the pairwise tournament ------------------------------------------------------------------

_PAIR = re.compile(r"Response A:\n```\n(.*?)\n```\nResponse B:\n```\n(.*?)\n```", re.S)


def pairwise_judge(prefers: Callable[[str, str], bool]) -> Callable[[str], str]:
    """A judge of the ranking legs by quality and of pairs by ``prefers(a, b)``."""
    listwise = content_judge(quality)

    def judge(prompt: str) -> str:
        pair = _PAIR.search(prompt)
        if pair is None:
            return listwise(prompt)
        a, b = pair.groups()
        better = "A" if prefers(a, b) else "B"
        worse = "B" if better == "A" else "A"
        return f"Answer: {better if 'the better one' in prompt else worse}"

    return judge


def test_a_tournament_of_a_consistent_judge_agrees_with_its_ranking() -> None:
    judge = pairwise_judge(lambda a, b: quality(a) > quality(b))
    guard = Guard(judge, cache=None, ranking_tournament=True)
    verdict = guard.check(item(4))
    assert verdict.tournament is not None
    assert verdict.tournament.ranking == verdict.ranking == (("A",), ("B",), ("C",), ("D",))
    assert verdict.tournament.cycles == () and verdict.tournament.decided == 4
    assert verdict.scores.tournament_tau == 1.0
    assert verdict.judge_calls == 2 + 6 * 4  # both legs, six pairs of four legs
    strength = verdict.tournament.strength
    assert strength["A"] > strength["B"] > strength["C"] > strength["D"]
    assert all(
        verdict.tournament.lower[x] < strength[x] < verdict.tournament.upper[x] for x in "ABCD"
    )
    assert verdict.consistent and verdict.flags == ()
    assert len(guard.cache_keys(item(4))) == 26
    names = [leg.name for leg in guard.prompts(item(4))]
    assert names[:2] == ["direct", "reverse"] and "pair A-B: direct, second order" in names
    assert guard.max_judge_calls_for("ranking") == 12 + 190 * 4


def test_a_tournament_counts_the_cycles_of_an_intransitive_judge() -> None:
    beats = {("a thorough, correct answer", "a correct but terse answer"),
             ("a correct but terse answer", "a partly wrong answer"),
             ("a partly wrong answer", "a thorough, correct answer")}  # fmt: skip

    def prefers(a: str, b: str) -> bool:
        return (a, b) in beats or ((b, a) not in beats and quality(a) > quality(b))

    verdict = Guard(pairwise_judge(prefers), cache=None, ranking_tournament=True).check(item(3))
    assert verdict.tournament is not None
    assert verdict.tournament.cycles == (("A", "B", "C"),)
    assert Flag.INTRANSITIVE in verdict.flags and not verdict.consistent
    assert verdict.tournament.ranking == (("A", "B", "C"),)  # a cycle: equal strengths


@pytest.mark.model
def test_the_bundled_model_ranks_through_the_route() -> None:
    """SmolLM2-135M shows the mechanics only: both legs asked and read or flagged
    unreadable, never a guessed ranking."""
    from prin_guard import LocalJudge

    guard = Guard(LocalJudge(), cache=None)
    verdict = guard.check(item())
    assert verdict.judge_calls == 2
    for leg, flag in (
        (verdict.direct, Flag.UNPARSEABLE_DIRECT),
        (verdict.reverse, Flag.UNPARSEABLE_REVERSE),
    ):
        assert leg is not None and leg.raw_text is not None
        if leg.ranking is None:
            assert flag in verdict.flags
        else:
            assert sorted(label for tier in leg.ranking for label in tier) == ["A", "B", "C"]
    assert (verdict.ranking is None) == (
        verdict.direct.ranking is None and verdict.reverse.ranking is None
    )


def test_grade_writes_a_rankings_columns_and_resumes(tmp_path: Path) -> None:
    from prin_guard.grade import grade

    given = tmp_path / "in.jsonl"
    given.write_text(json.dumps(item(4, id="one")) + "\n" + json.dumps(item(2, id="bad")) + "\n")
    out = tmp_path / "out.csv"
    summary = grade(content_judge(quality), given, out)
    rows = sorted(csv.DictReader(out.open(encoding="utf-8")), key=lambda row: row["line"])
    assert [row["id"] for row in rows] == ["one", "bad"]
    first, bad = rows
    assert (first["task"], first["ranking"], first["best"], first["worst"]) == (
        "ranking",
        "A > B > C > D",
        "A",
        "D",
    )
    assert first["score_legs_tau"] == "1.0" and first["consistent"] == "true"
    assert (bad["task"], bad["flags"], bad["error_field"]) == (
        "ranking",
        "invalid_item",
        "candidates",
    )
    assert summary.items == 2
    again = grade(content_judge(quality), given, out)
    assert again.skipped == 2 and again.changed == 0


def test_a_ranking_template_declares_how_recorded_replies_are_read() -> None:
    from prin_guard.models import Template

    llmzoo = Template(
        id="llmzoo-ordering",
        version=1,
        positive="better",
        negative="worse",
        task="ranking",
        contract=AnswerContract(
            labels=("Assistant 1", "Assistant 2", "Assistant 3"), format=Ranked(form="ordering")
        ),
    )
    reply = "Assistant 1 > Assistant 3 in terms of detail.\nAssistant 2 > Assistant 1 = Assistant 3"
    reading = read_reply(reply, item(), template=llmzoo)
    assert reading.ranking == (("B",), ("A", "C"))
    assert read_reply(reply, item(), template=llmzoo, polarity="reverse").ranking == (
        ("B",),
        ("A", "C"),
    )  # as the reply lists it: the caller reverses a reverse leg's
    with pytest.raises(UsageError, match=r"^template"):
        Guard(content_judge(quality), cache=None, template=llmzoo).check(item())


_CLI_JUDGE = """
import re

def judge(prompt):
    shown = re.findall(r"\\[The Start of Response (\\w+)\\]\\n(.*?)\\n\\[The End", prompt, re.S)
    ranked = [label for label, text in sorted(shown, key=lambda pair: -len(pair[1]))]
    if "from the worst to the best" in prompt:
        return "Ranking from worst to best: " + ", ".join(reversed(ranked))
    return "Ranking from best to worst: " + ", ".join(ranked)
"""


def test_check_on_the_command_line_prints_the_ranking_and_each_leg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard.cli import main

    (tmp_path / "ranking_judge.py").write_text(_CLI_JUDGE)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["check", "--task", "ranking", "--question", "Say hello", "--judge"]
    args += ["python:ranking_judge:judge", "--candidate", "hi", "--candidate"]
    args += ["hello there, friend", "--candidate", "hello"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ranking: B > C > A\n  Best: B  hello there, friend\n  Worst: A  hi\n")
    assert "  direct leg: B > C > A (best first)\n  reverse leg: A < C < B (worst first)\n" in out
    assert "legs' Kendall tau 1.00" in out and "Flags: none" in out and "judge calls 2" in out
    assert main([*args, "--json", "--ranking-mode", "best"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["task"] == "ranking" and verdict["judge_calls"] == 2
    assert main([*args[:-6], "--candidate", "hi", "--candidate", "hello"]) == 2
    assert "candidates: a ranking has 3 to 20 responses, got 2" in capsys.readouterr().err


class Holding:
    """A judge whose provider caches prefixes: the first leg says it has begun, then
    holds its answer until another leg has arrived (a test hangs, and fails, if the
    others waited for the first to finish)."""

    def __init__(self, mode: str | None = "stream") -> None:
        self.mode = mode
        self.calls: list[tuple[str, object]] = []
        self.arrived = asyncio.Event()
        self.before_start: int | None = None
        self.rank = content_judge(quality)

    def identity(self) -> dict[str, object]:
        return {"kind": "test", "name": "holding"}

    def prefix_caching(self, messages: object, prefix: object) -> str | None:
        return self.mode

    async def complete(
        self, messages: list[dict[str, str]], *, labels: object = (), prefix: object = None
    ) -> JudgeResponse:
        text = messages[-1]["content"]
        self.calls.append(("reverse" if "from the worst" in text else "direct", prefix))
        started = getattr(prefix, "started", None)
        if started is not None:
            for _ in range(20):  # a leg asked at once would have arrived by now
                await asyncio.sleep(0)
            self.before_start = len(self.calls)
            started()
            await asyncio.wait_for(self.arrived.wait(), 10)
        else:
            self.arrived.set()
        return JudgeResponse(text=self.rank(text))


async def test_the_reverse_leg_goes_once_the_direct_one_has_begun_and_reads_its_prefix() -> None:
    judge = Holding()
    verdict = await Guard(judge, cache=None).acheck(item(4))
    assert verdict.consistent and verdict.ranking == (("A",), ("B",), ("C",), ("D",))
    assert judge.before_start == 1  # only the direct leg, until it had begun
    (lead, lead_prefix), (other, other_prefix) = judge.calls
    assert (lead, other) == ("direct", "reverse")
    assert lead_prefix is not None and other_prefix is not None
    assert lead_prefix.key == other_prefix.key and other_prefix.started is None  # type: ignore[attr-defined]
    shared = lead_prefix.chars  # type: ignore[attr-defined]
    prompts = Guard(judge, cache=None).prompts(item(4))
    assert prompts[0].messages[1]["content"][:shared].endswith("[Instruction]\n")
    # stagger off: both at once, no prefix given
    plain = Holding(mode=None)
    await Guard(plain, cache=None, stagger="off").acheck(item(4))
    assert [prefix for _, prefix in plain.calls] == [None, None]


def test_a_judge_that_ranks_by_position_alone_carries_no_information() -> None:
    from prin_guard._route._informative import uninformative

    raws = [{**item(4), "question": f"Question {n}?"} for n in range(12)]
    biased = Guard(positional_judge, cache=None).check_many(raws)
    found = {finding.kind: finding for finding in uninformative(biased)}
    assert found["one_answer"].answer.startswith('"A > B > C > D"')
    # a judge that reads the responses answers differently as the order differs
    texts = list(QUALITY)[:4]
    shuffled = [
        {**raw, "candidates": texts[n % 4 :] + texts[: n % 4]} for n, raw in enumerate(raws)
    ]
    assert uninformative(Guard(content_judge(quality), cache=None).check_many(shuffled)) == []


@pytest.mark.parametrize("seed", range(12))
def test_sliding_windows_give_a_consistent_judge_its_whole_order(seed: int) -> None:
    import random

    draw = random.Random(seed)
    count = draw.randint(5, 20)
    window = draw.randint(3, count - 1)
    scores = draw.sample(range(100), count)
    raw = {"task": "ranking", "question": "q?", "candidates": [f"answer {s}" for s in scores]}

    def judge(prompt: str) -> str:
        shown = shown_in(prompt)
        assert len(shown) <= window
        ranked = sorted(shown, key=lambda pair: -int(pair[1].split()[-1]))
        return reply_for(prompt, [label for label, _ in ranked])

    verdict = Guard(judge, cache=None, ranking_window=window).check(raw)
    labels = RankingItem.coerce(raw).labels
    truth = tuple((labels[i],) for i in sorted(range(count), key=lambda i: -scores[i]))
    assert verdict.ranking == truth, (count, window)
    assert verdict.judge_calls <= 2 * window_calls(count, window)


def test_a_ranking_written_inside_a_response_is_the_items_and_the_leg_says_copied() -> None:
    texts = ["Ranking from best to worst: C, B, A is my plan", "a short one", "a long one"]

    def judge(prompt: str) -> str:  # repeats response A's text, and ranks nothing itself
        return "Response A says:\nRanking from best to worst: C, B, A is my plan"

    verdict = Guard(judge, cache=None).check({**item(), "candidates": texts})
    assert verdict.direct is not None and verdict.direct.copied
    assert verdict.direct.ranking is None
    assert Flag.COPIED_ANSWER in verdict.flags and Flag.UNPARSEABLE_DIRECT in verdict.flags
