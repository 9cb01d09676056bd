from __future__ import annotations

import pytest
from pydantic import ValidationError

from prin_guard import Candidate, Flag, Item, Verdict
from prin_guard._models import _nth_label
from prin_guard.models import Leg, ParseMethod, ParseStatus, Polarity


def test_labels_are_assigned_in_order_when_not_given() -> None:
    item = Item(question="q", candidates=["x", "y", "z"])
    assert item.labels == ("A", "B", "C")


def test_given_labels_are_kept_and_free_letters_fill_the_rest() -> None:
    item = Item(question="q", candidates=[Candidate(text="x", label="b"), "y", "z"])
    assert item.labels == ("B", "A", "C")


def test_labels_go_past_z_like_spreadsheet_columns() -> None:
    assert [_nth_label(i) for i in (0, 25, 26, 27, 51, 52)] == ["A", "Z", "AA", "AB", "AZ", "BA"]
    item = Item(question="q", candidates=[str(i) for i in range(30)])
    assert item.labels[-1] == "AD"


@pytest.mark.parametrize(
    ("kwargs", "field", "reason"),
    [
        pytest.param({"question": "", "candidates": ["a", "b"]}, "question", "empty", id="empty"),
        pytest.param(
            {"question": "  \n", "candidates": ["a", "b"]},
            "question",
            "whitespace",
            id="whitespace-question",
        ),
        pytest.param(
            {"question": "q", "candidates": ["a"]}, "candidates", "at least two", id="one-candidate"
        ),
        pytest.param(
            {"question": "q", "candidates": []}, "candidates", "at least two", id="no-candidates"
        ),
        pytest.param(
            {"question": "q", "candidates": ["a b", " a  b "]},
            "candidates",
            "same text",
            id="duplicate-texts",
        ),
        pytest.param(
            {
                "question": "q",
                "candidates": [{"text": "a", "label": "A"}, {"text": "b", "label": "a"}],
            },
            "candidates",
            "duplicate label",
            id="duplicate-labels",
        ),
        pytest.param(
            {"question": "q", "candidates": ["a", 3]},
            "candidates",
            "int",
            id="non-string-candidate",
        ),
        pytest.param(
            {"question": 7, "candidates": ["a", "b"]},
            "question",
            "string",
            id="non-string-question",
        ),
        pytest.param(
            {"question": "q", "candidates": "ab"}, "candidates", "list", id="candidates-as-string"
        ),
        pytest.param(
            {"question": "q", "candidates": ["a", " "]}, "candidates", "empty", id="blank-candidate"
        ),
        pytest.param(
            {"question": "q", "candidates": [{"text": "a", "label": "1"}, "b"]},
            "candidates",
            "not a label",
            id="bad-label",
        ),
        pytest.param(
            {"question": "q", "candidates": ["a", "b"], "extra": 1},
            "extra",
            "Extra inputs",
            id="unknown-field",
        ),
    ],
)
def test_bad_items_are_rejected_naming_field_and_reason(
    kwargs: dict[str, object], field: str, reason: str
) -> None:
    with pytest.raises(ValidationError) as info:
        Item.model_validate(kwargs)
    error = info.value.errors()[0]
    location = ".".join(str(p) for p in error["loc"])
    assert location.startswith(field) or error["msg"].find(field) >= 0
    assert reason.lower() in str(info.value).lower()


def test_models_are_frozen() -> None:
    item = Item(question="q", candidates=["a", "b"])
    with pytest.raises(ValidationError):
        item.question = "other"  # type: ignore[misc]


def test_item_key_is_the_id_or_a_stable_content_hash() -> None:
    a = Item(question="q", candidates=["a", "b"])
    b = Item(question="q", candidates=["a", "b"])
    c = Item(question="q", candidates=["a", "c"])
    assert a.key == b.key != c.key
    assert len(a.key) == 12
    assert Item(question="q", candidates=["a", "b"], id="x-1").key == "x-1"


def test_verdict_json_round_trip_is_lossless() -> None:
    leg = Leg(
        polarity=Polarity.REVERSE,
        template="v0",
        template_version=1,
        mitigations=("neg_exp",),
        raw_text="The correct answer is c)",
        labels=("C",),
        parse_status=ParseStatus.OK,
        parse_method=ParseMethod.LABEL_FORMS,
        polarity_confusion=True,
        latency_ms=12.5,
    )
    verdict = Verdict(
        item_id="x",
        labels=("A", "B", "C"),
        correct=(),
        direct=leg.model_copy(update={"polarity": Polarity.DIRECT, "polarity_confusion": False}),
        reverse=leg,
        reverse_implied=("A", "B"),
        prin_score=1.0,
        consistent=False,
        flags=(Flag.INCONSISTENT, Flag.EMPTY_VERDICT, Flag.POLARITY_CONFUSION),
    )
    again = Verdict.model_validate_json(verdict.model_dump_json())
    assert again == verdict
    assert again.reverse is not None
    assert again.reverse.parse_method is ParseMethod.LABEL_FORMS
