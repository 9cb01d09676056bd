from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from prin_guard import Flag, InvalidItemError, Item, Verdict
from prin_guard import models as _models
from prin_guard.models import Candidate, Leg, ParseMethod, ParseStatus, Polarity, _nth_label


def test_labels_are_assigned_in_order_when_not_given() -> None:
    item = Item(question="q", candidates=["x", "y", "z"])
    assert item.labels == ("A", "B", "C")


def test_given_labels_are_kept_and_free_letters_fill_the_rest() -> None:
    item = Item(question="q", candidates=[Candidate(text="x", label="b"), "y", "z"])
    assert item.labels == ("B", "A", "C")


def test_labels_go_past_z_like_spreadsheet_columns_less_english_words() -> None:
    # AM, AN, AS, AT are words a reader treats specially ("as" ends a list): left out
    # of the series (issue 28, item 4)
    assert [_nth_label(i) for i in (0, 25, 26, 27, 37, 38, 39)] == [
        "A", "Z", "AA", "AB", "AL", "AO", "AP"
    ]  # fmt: skip
    item = Item(question="q", candidates=[str(i) for i in range(30)])
    assert item.labels[-1] == "AD"
    long = Item(task="checklist", response="r", candidates=[f"c{i}" for i in range(800)])
    assert not {"AS", "IS", "IF", "SO", "OR", "NA", "AND", "THE", "NONE"} & set(long.labels)


def test_a_fifty_criterion_checklist_reads_as_a_five_criterion_one() -> None:
    # Every other criterion met, in an answer line, a heading and status lines: the same
    # half is read whatever the number of criteria (issue 28, item 4).
    from prin_guard.reader import parse_reply

    for count in (5, 50):
        item = Item(task="checklist", response="r", candidates=[f"c{i}" for i in range(count)])
        met = item.labels[::2]
        texts = tuple(candidate.text for candidate in item.candidates)
        replies = (
            "Answer: " + ", ".join(met),
            "Met: " + ", ".join(met),
            "\n".join(f"{label}: {'met' if label in met else 'not met'}" for label in item.labels),
        )
        for reply in replies:
            result = parse_reply(
                reply, item.labels, texts, task="checklist", polarity=Polarity.DIRECT
            )
            assert result.labels == met, (count, reply[:40])


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


def _shared_leg(polarity: Polarity, ref: str | None, text: str | None = None) -> Leg:
    return Leg(
        polarity=polarity,
        template="rating-aspects",
        template_version=1,
        raw_text=text,
        raw_text_ref=ref,
        labels=(),
        parse_status=ParseStatus.OK,
        score=3.0,
    )


def test_a_leg_points_to_its_reply_by_a_json_pointer_escaped_per_rfc_6901() -> None:
    name = "a/b~c"  # an aspect name with the pointer's two reserved characters
    ref = _models.reply_pointer("aspects", name, "direct", "raw_text")
    assert ref == "/aspects/a~1b~0c/direct/raw_text"
    first = Verdict(
        item_id="x:1", task="rating", direct=_shared_leg(Polarity.DIRECT, None, "Reply: 3")
    )
    second = Verdict(item_id="x:2", task="rating", direct=_shared_leg(Polarity.DIRECT, ref))
    verdict = Verdict(item_id="x", task="rating", aspects={name: first, "other": second})
    assert second.direct is not None and verdict.reply(second.direct) == "Reply: 3"
    assert verdict.aspect("other").direct == _shared_leg(Polarity.DIRECT, None, "Reply: 3")
    # a pointer to nothing gives no reply; an unknown aspect is a KeyError
    lost = _shared_leg(Polarity.DIRECT, "/aspects/gone/direct/raw_text")
    assert verdict.reply(lost) is None
    with pytest.raises(KeyError):
        verdict.aspect("gone")


def test_a_leg_keeps_its_reply_in_one_place() -> None:
    with pytest.raises(ValidationError, match="raw_text_ref"):
        _shared_leg(Polarity.DIRECT, "/direct/raw_text", "Reply: 3")
    with pytest.raises(ValidationError, match="JSON Pointer"):
        _shared_leg(Polarity.DIRECT, "direct/raw_text")


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


# -- robustness (issue 11) ---------------------------------------------------------------


def test_more_candidates_than_ten_thousand_still_get_labels() -> None:
    # Label assignment stopped after 10,000 tries with "generator raised StopIteration".
    item = Item(question="q", candidates=[str(i) for i in range(10_001)])
    assert len(set(item.labels)) == 10_001
    assert item.labels[-1] == _nth_label(10_000)
    assert all(_models._LABEL_RE.fullmatch(label) for label in item.labels)


def test_the_assignable_labels_are_every_label_of_one_to_four_letters() -> None:
    last = _models._ASSIGNABLE_LABELS - 1
    assert (_nth_label(last), len(_nth_label(last + 1))) == ("ZZZZ", 5)


@pytest.mark.parametrize(
    ("candidates", "unlabelled", "free"),
    [
        pytest.param(["w", "x", "y", "z"], 4, 3, id="all-unlabelled"),
        pytest.param([{"text": "w", "label": "B"}, "x", "y", "z"], 3, 2, id="a-letter-is-taken"),
    ],
)
def test_running_out_of_labels_is_a_validation_error_naming_candidates(
    monkeypatch: pytest.MonkeyPatch, candidates: list[object], unlabelled: int, free: int
) -> None:
    # The real bound (475,254 unlabelled candidates) is too slow to build in a test.
    monkeypatch.setattr(_models, "_ASSIGNABLE_LABELS", 3)
    with pytest.raises(ValidationError) as info:
        Item.model_validate({"question": "q", "candidates": candidates})
    assert f"candidates: {unlabelled} candidates have no label" in str(info.value)
    assert f"only {free} labels are free" in str(info.value)
    with pytest.raises(InvalidItemError) as caught:
        Item.coerce({"question": "q", "candidates": candidates})
    assert caught.value.field == "candidates"


def test_labels_outside_the_letter_series_leave_it_free(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_models, "_ASSIGNABLE_LABELS", 3)
    item = Item(question="q", candidates=[Candidate(text="w", label="Q1"), "x", "y", "z"])
    assert item.labels == ("Q1", "A", "B", "C")


SURROGATE = "\ud800"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"question": f"q{SURROGATE}"}, "question", id="question"),
        pytest.param({"context": SURROGATE}, "context", id="context"),
        pytest.param({"id": f"x{SURROGATE}"}, "id", id="id"),
        pytest.param({"candidates": ["a", f"b{SURROGATE}"]}, "candidates.1.text", id="text"),
        pytest.param(
            {"candidates": [{"text": SURROGATE}, "b"]}, "candidates.0.text", id="text-in-dict"
        ),
        pytest.param(
            {"candidates": [{"text": "a", "label": f"A{SURROGATE}"}, "b"]},
            "candidates.0.label",
            id="label",
        ),
        pytest.param(
            {"candidates": ["a", {"text": "b", "reasoning": f"\udfff{SURROGATE}"}]},
            "candidates.1.reasoning",
            id="reasoning",
        ),
    ],
)
def test_unpaired_surrogates_are_rejected_naming_the_field(
    changes: dict[str, object], field: str
) -> None:
    # They used to pass validation and fail later as a UnicodeEncodeError.
    with pytest.raises(InvalidItemError) as info:
        Item.coerce({"question": "q", "candidates": ["a", "b"], **changes})
    assert info.value.field == field
    assert info.value.reason == "contains an unpaired surrogate (not valid Unicode text)"


def test_text_beyond_the_basic_plane_is_valid() -> None:
    item = Item.coerce({"question": "q \U0001f600", "candidates": ["\U0001d11e", "b"], "id": "é"})
    assert item.candidates[0].text == "\U0001d11e"


@pytest.mark.parametrize(
    ("length", "ok"),
    [pytest.param(256, True, id="256"), pytest.param(257, False, id="257")],
)
def test_id_length_is_bounded(length: int, ok: bool) -> None:
    value = {"question": "q", "candidates": ["a", "b"], "id": "i" * length}
    if ok:
        assert Item.coerce(value).key == "i" * length
        return
    with pytest.raises(InvalidItemError) as info:
        Item.coerce(value)
    assert info.value.field == "id"
    assert "256" in info.value.reason


@pytest.mark.parametrize(
    "value",
    [
        pytest.param({"question": "q", "candidates": ["a", "b", "c"]}, id="list"),
        pytest.param({"question": "q", "candidates": ("a", "b", "c")}, id="tuple"),
        pytest.param(Item(question="q", candidates=["a", "b", "c"]), id="item"),
    ],
)
def test_coerce_bounds_the_number_of_candidates(value: object) -> None:
    assert len(Item.coerce(value, max_candidates=3).candidates) == 3
    with pytest.raises(InvalidItemError) as info:
        Item.coerce(value, max_candidates=2)
    assert (info.value.field, info.value.reason) == (
        "candidates",
        "has 3 candidates; the limit is 2 (max_candidates)",
    )


def test_the_candidate_count_is_checked_before_the_candidates_are_validated() -> None:
    # Counting a list is cheap, validating 20,000 candidates is not: a list that is too
    # long is refused for its length, not for what is in it.
    with pytest.raises(InvalidItemError) as info:
        Item.coerce({"question": "q", "candidates": [7] * 20_000}, max_candidates=64)
    assert info.value.reason == "has 20000 candidates; the limit is 64 (max_candidates)"


def test_a_dataset_rows_gold_is_ignored_so_one_file_serves_grade_check_and_eval() -> None:
    # issue 21 item 24: eval needs `gold`, grade ignores it, and check refused it
    row = {"id": "q1", "question": "2 + 2?", "candidates": ["4", "5"], "gold": ["A"]}
    without = {key: value for key, value in row.items() if key != "gold"}
    assert Item.coerce(row) == Item.coerce(without)
    assert Item.coerce({**row, "gold": None}) == Item.coerce(without)
    # every other unknown field is still refused: it catches a typo such as "candidate"
    with pytest.raises(InvalidItemError) as info:
        Item.coerce({**row, "golden": ["A"]})
    assert info.value.field == "golden"


def test_a_guard_checks_a_row_with_gold() -> None:
    from prin_guard import Guard
    from prin_guard.judges import ScriptedJudge

    row = {"question": "2 + 2?", "candidates": ["4", "5"], "gold": ["A"]}
    verdict = Guard(ScriptedJudge("Answer: A", "Answer: B")).check(row)
    assert verdict.error is None
    assert verdict.correct == ("A",)


def test_winner_text_is_filled_in_from_the_winners_candidate() -> None:
    """Issue 27, item 12: the verdict's JSON carries the winner's text (grade rows did)."""
    from prin_guard.models import CandidateVerdict

    candidates = (
        CandidateVerdict(label="A", text="hi", status="worse"),
        CandidateVerdict(label="B", text="hello", status="better"),
    )
    verdict = Verdict(
        item_id="p", task="pairwise", labels=("A", "B"), candidates=candidates, winner="B"
    )
    assert verdict.winner_text == "hello"
    assert json.loads(verdict.model_dump_json())["winner_text"] == "hello"
    assert Verdict.model_validate_json(verdict.model_dump_json()) == verdict
    assert Verdict(item_id="c").winner_text is None
    with pytest.raises(ValidationError, match="winner_text"):
        Verdict(item_id="p", candidates=candidates, winner="B", winner_text="hi")


@pytest.mark.parametrize(
    "weight",
    [
        pytest.param(10**400, id="an-integer-too-large-for-a-float"),
        pytest.param(float("inf"), id="infinity"),
        pytest.param(float("nan"), id="nan"),
        pytest.param(0, id="zero"),
        pytest.param(-2.0, id="negative"),
    ],
)
def test_a_weight_is_a_positive_finite_number(weight: object) -> None:
    item = {"task": "checklist", "response": "r", "candidates": [{"text": "a", "weight": weight}]}
    says = r"^candidates\.0\.weight: must be a positive finite number"
    with pytest.raises(InvalidItemError, match=says):
        Item.coerce(item)


def test_a_verdict_holds_no_number_that_is_not_finite() -> None:
    # a NaN score would be written as a bare NaN, which is not JSON
    with pytest.raises(ValidationError, match="finite number"):
        Verdict(item_id="x", task="checklist", score=float("nan"))
    with pytest.raises(ValidationError, match="finite number"):
        Leg(
            polarity=Polarity.DIRECT,
            template="v0",
            template_version=2,
            raw_text="Answer: A",
            labels=("A",),
            parse_status=ParseStatus.OK,
            confidence=float("inf"),
        )
