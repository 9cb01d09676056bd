"""Planning and reading legs: the second order of the order check, mapping answers back,
and the answer's probability from the judge's token log-probabilities."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import Item
from prin_guard._route._legs import answer_confidence, map_back, permuted_item, second_order

LETTERS = "ABCDEFGHIJ"


@pytest.mark.parametrize("n", [2, 4, 6])
def test_second_order_reverses_an_even_number_of_candidates(n: int) -> None:
    labels = tuple(LETTERS[:n])
    assert second_order(labels, "item") == tuple(reversed(labels))


@given(n=st.integers(min_value=2, max_value=10), seed=st.text(max_size=12))
def test_second_order_moves_every_candidate_and_is_reproducible(n: int, seed: str) -> None:
    labels = tuple(LETTERS[:n])
    order = second_order(labels, seed)
    assert sorted(order) == sorted(labels)
    # reversal keeps the middle of an odd list in place; the check must move everyone
    assert all(shown != own for shown, own in zip(order, labels, strict=True))
    assert second_order(labels, seed) == order


def test_second_order_of_an_odd_list_depends_on_the_seed() -> None:
    labels = tuple("ABCDE")
    orders = {second_order(labels, f"item-{n}") for n in range(20)}
    assert len(orders) > 1


def test_permuted_item_labels_by_position_and_maps_back() -> None:
    item = Item(question="q?", candidates=["one", "two", "three"], id="x")
    order = ("C", "A", "B")
    asked, mapping = permuted_item(item, order)
    assert asked.labels == ("A", "B", "C")
    assert [c.text for c in asked.candidates] == ["three", "one", "two"]
    assert mapping == {"A": "C", "B": "A", "C": "B"}
    # the judge names "A" in the second order: that is the item's C ("three")
    assert map_back(["A", "C"], mapping, item.labels) == ("B", "C")


def test_permuted_item_keeps_reasoning_with_its_candidate() -> None:
    item = Item(
        question="q?",
        candidates=[{"text": "1", "reasoning": "r1"}, {"text": "2", "reasoning": "r2"}],
    )
    asked, _ = permuted_item(item, ("B", "A"))
    assert [(c.text, c.reasoning) for c in asked.candidates] == [("2", "r2"), ("1", "r1")]


def test_answer_confidence_is_the_probability_of_the_answer_tokens() -> None:
    text = "Reasoning.\nAnswer: A, C"
    tokens = [
        ("Reason", -0.1),
        ("ing.", -0.2),
        ("\n", 0.0),
        ("Answer", 0.0),
        (":", 0.0),
        (" A", math.log(0.9)),
        (",", math.log(0.5)),
        (" C", math.log(0.8)),
    ]
    start = text.index("A, C")
    value = answer_confidence(text, tokens, (start, len(text)))
    assert value == pytest.approx(0.9 * 0.5 * 0.8)


@pytest.mark.parametrize(
    ("tokens", "span"),
    [
        pytest.param(None, (0, 1), id="no-tokens"),
        pytest.param([("A", -0.1)], None, id="no-span"),
        pytest.param([("B", -0.1)], (0, 1), id="tokens-do-not-spell-the-text"),
        pytest.param([("A", float("nan"))], (0, 1), id="not-a-number"),
    ],
)
def test_answer_confidence_is_none_rather_than_made_up(
    tokens: list[tuple[str, float]] | None, span: tuple[int, int] | None
) -> None:
    assert answer_confidence("A", tokens, span) is None


# -- re-asking an unreadable leg (issue 28, item 5) --------------------------------------


class _Recording:
    """A judge that hedges on the first question and answers when asked again; it keeps
    the labels each call was sent with (which constrain a structured answer)."""

    def __init__(self) -> None:
        self.labels: list[tuple[str, ...]] = []
        self.conversations: list[list[str]] = []

    def identity(self) -> dict[str, str]:
        return {"kind": "recording"}

    async def complete(self, messages: Any, *, labels: Any = ()) -> Any:
        from prin_guard.judges import JudgeResponse
        from prin_guard.models import Usage

        self.labels.append(tuple(labels))
        self.conversations.append([m["content"] for m in messages])
        last = messages[-1]["content"]
        if "final answer I can read" in last:
            text = "Answer: B" if "worse" not in messages[0]["content"] else "Answer: A"
        else:
            text = "Both have merits; it is hard to say."
        return JudgeResponse(text=text, usage=Usage(prompt_tokens=10, completion_tokens=5))


PAIR = {"task": "pairwise", "question": "Capital of France?", "candidates": ["Lyon", "Paris"]}


async def test_an_unreadable_leg_is_asked_once_more_with_reask() -> None:
    from prin_guard import Guard
    from prin_guard.models import ParseMethod, ParseStatus

    judge = _Recording()
    verdict = await Guard(judge, cache=None, reask=True, checks="reverse").acheck(PAIR)
    assert verdict.winner == "B" and verdict.ok
    for leg in (verdict.direct, verdict.reverse):
        assert leg is not None
        assert leg.parse_method is ParseMethod.REASKED
        assert leg.raw_text == "Both have merits; it is hard to say."
        assert leg.reasked in ("Answer: A", "Answer: B")
        assert leg.usage is not None and leg.usage.prompt_tokens == 20  # both calls
    # the second question carries the first reply: the judge sees what it wrote
    reasks = [c for c in judge.conversations if len(c) == 3]
    assert len(reasks) == 2 and all(c[1] == "Both have merits; it is hard to say." for c in reasks)
    # without reask the same judge leaves the legs unread
    plain = await Guard(_Recording(), cache=None).acheck(PAIR)
    assert plain.direct is not None and plain.direct.parse_status is ParseStatus.FAILED
    assert plain.direct.reasked is None


async def test_a_template_of_ones_own_is_asked_without_labels_to_constrain_to() -> None:
    # The labels let a judge constrain its reply to a JSON schema of labels; a prompt of
    # one's own asks for its own verdict format, so its calls go in plain text.
    from prin_guard import Guard, Template

    builtin, own = _Recording(), _Recording()
    await Guard(builtin, cache=None).acheck(PAIR)
    mine = Template("mine", 1, "more helpful", "less helpful", task="pairwise")
    await Guard(own, cache=None, template=mine).acheck(PAIR)
    assert builtin.labels and all(labels == ("A", "B") for labels in builtin.labels)
    assert own.labels and all(labels == () for labels in own.labels)
