"""Planning and reading legs: the second order of the order check, mapping answers back,
and the answer's probability from the judge's token log-probabilities."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import Item
from prin_guard._legs import answer_confidence, map_back, permuted_item, second_order

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
