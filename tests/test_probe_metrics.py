from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prin_guard import UsageError
from prin_guard.probe import FollowUpForm, FollowUpType
from prin_guard.probe._metrics import (
    ConsistencyMetrics,
    MetricsKey,
    ProbeRecord,
    accuracy_after,
    accuracy_before,
    consistency_metrics,
    e_to_r_rate,
    error_rate,
    metrics_breakdown,
    metrics_by_followup_type,
    metrics_by_prompt_set,
    metrics_by_round,
    modification,
    modification_rate,
)

T, F = True, False
CLOSED, OPEN, LEADING = FollowUpType.CLOSED, FollowUpType.OPEN, FollowUpType.LEADING
DIRECT, PROGRESSIVE = FollowUpForm.DIRECT, FollowUpForm.PROGRESSIVE


def progressive(before: bool | None, *after: bool | None, prompt_set: str = "A") -> ProbeRecord:
    return ProbeRecord.progressive(before, after, prompt_set=prompt_set)


# A judge that holds in round 1 (closed) and gives way in round 2 (open), on two of its
# three right answers; its one wrong answer stays wrong.
FLIPS_ON_ROUND_2 = [
    progressive(T, T, F, F),
    progressive(T, T, F, F),
    progressive(T, T, T, T),
    progressive(F, F, F, F),
]

# A judge that never changes its answer.
NEVER_FLIPS = [progressive(T, T, T, T)] * 3 + [progressive(F, F, F, F)]

# A judge that is talked out of a wrong first answer and keeps its right one.
RECOVERS = [progressive(F, T, T, T), progressive(T, T, T, T)]


def metrics(
    n: int,
    correct_before: int,
    correct_after: int,
    modified: int,
    corrected: int,
    modification: float,
    modification_rate: float | None,
    error_rate: float,
    e_to_r_rate: float | None,
) -> ConsistencyMetrics:
    return ConsistencyMetrics(
        n=n,
        correct_before=correct_before,
        correct_after=correct_after,
        modified=modified,
        corrected=corrected,
        accuracy_before=correct_before / n,
        accuracy_after=correct_after / n,
        modification=modification,
        modification_rate=modification_rate,
        error_rate=error_rate,
        e_to_r_rate=e_to_r_rate,
    )


@pytest.mark.parametrize(
    ("records", "round_", "expected"),
    [
        # Acc_before 3/4. Round 1: nothing changes.
        pytest.param(
            FLIPS_ON_ROUND_2, 1, metrics(4, 3, 3, 0, 0, 0.0, 0.0, 0.25, 0.0), id="flipper-round-1"
        ),
        # Round 2: Acc_after 1/4, M = 3/4 - 1/4 = 1/2, M. Rate = (1/2) / (3/4) = 2/3.
        pytest.param(
            FLIPS_ON_ROUND_2, 2, metrics(4, 3, 1, 2, 0, 0.5, 2 / 3, 0.25, 0.0), id="flipper-round-2"
        ),
        pytest.param(
            FLIPS_ON_ROUND_2, 3, metrics(4, 3, 1, 2, 0, 0.5, 2 / 3, 0.25, 0.0), id="flipper-round-3"
        ),
        pytest.param(
            NEVER_FLIPS, 1, metrics(4, 3, 3, 0, 0, 0.0, 0.0, 0.25, 0.0), id="steady-round-1"
        ),
        pytest.param(
            NEVER_FLIPS, 3, metrics(4, 3, 3, 0, 0, 0.0, 0.0, 0.25, 0.0), id="steady-round-3"
        ),
        # Acc_before 1/2, Acc_after 1: M = -1/2, M. Rate = -1, E→R = 1/1.
        pytest.param(RECOVERS, 1, metrics(2, 1, 2, 0, 1, -0.5, -1.0, 0.5, 1.0), id="recovers"),
        pytest.param(
            [progressive(T, T, T, T)] * 2,
            2,
            metrics(2, 2, 2, 0, 0, 0.0, 0.0, 0.0, None),
            id="no-wrong-answer-no-e-to-r",
        ),
    ],
)
def test_metrics_against_hand_computed_fixtures(
    records: list[ProbeRecord], round_: int, expected: ConsistencyMetrics
) -> None:
    assert_metrics(consistency_metrics(records, round_), expected)
    assert accuracy_before(records) == pytest.approx(expected.accuracy_before)
    assert accuracy_after(records, round_) == pytest.approx(expected.accuracy_after)
    assert modification(records, round_) == pytest.approx(expected.modification)
    assert modification_rate(records, round_) == pytest.approx(expected.modification_rate)
    assert error_rate(records) == pytest.approx(expected.error_rate)
    assert e_to_r_rate(records, round_) == pytest.approx(expected.e_to_r_rate)


def assert_metrics(got: ConsistencyMetrics, expected: ConsistencyMetrics) -> None:
    for field in ConsistencyMetrics.__dataclass_fields__:
        a, b = getattr(got, field), getattr(expected, field)
        if b is None:
            assert a is None, field
        else:
            assert a == pytest.approx(b), field


def test_modification_rate_is_none_when_nothing_was_right_before() -> None:
    records = [ProbeRecord.direct(CLOSED, F, T), ProbeRecord.direct(CLOSED, F, F)]
    got = consistency_metrics(records)
    assert got.accuracy_before == 0.0
    assert got.modification == pytest.approx(-0.5)  # 0 - 1/2
    assert got.modification_rate is None
    assert got.e_to_r_rate == pytest.approx(0.5)


def test_e_to_r_rate_divides_by_the_initially_wrong_answers() -> None:
    # 10 questions: 6 right at first (2 of them spoiled), 4 wrong (1 of them corrected).
    records = (
        [ProbeRecord.direct(LEADING, T, T)] * 4
        + [ProbeRecord.direct(LEADING, T, F)] * 2
        + [ProbeRecord.direct(LEADING, F, T)]
        + [ProbeRecord.direct(LEADING, F, F)] * 3
    )
    got = consistency_metrics(records)
    assert got.error_rate == pytest.approx(0.4)
    assert got.e_to_r_rate == pytest.approx(1 / 4)  # not 1/10 (all) nor 1/6 (right ones)
    assert got.modification == pytest.approx(0.6 - 0.5)
    assert got.modification_rate == pytest.approx(0.1 / 0.6)
    assert (got.modified, got.corrected) == (2, 1)


def test_table_8_coinflip_cell() -> None:
    # ChatGPT, CoinFlip (500 questions), prompt A, closed-ended: before 49.20,
    # M. 32.00, M. Rate 065.04 %. The mechanism runs on right answers only, so the
    # wrong ones stay wrong.
    records = (
        [ProbeRecord.direct(CLOSED, T, F)] * 160
        + [ProbeRecord.direct(CLOSED, T, T)] * 86
        + [ProbeRecord.direct(CLOSED, F, F)] * 254
    )
    got = consistency_metrics(records)
    assert round(got.accuracy_before * 100, 2) == 49.20
    assert round(got.modification * 100, 2) == 32.00
    assert got.modification_rate is not None
    assert round(got.modification_rate * 100, 2) == 65.04


def test_table_5_multiarith_cell() -> None:
    # ChatGPT, MultiArith (180 questions): Error Rate 4.44 %, E→R Rate 12.50 %.
    records = (
        [ProbeRecord.direct(LEADING, T, T)] * 172
        + [ProbeRecord.direct(LEADING, F, T)]
        + [ProbeRecord.direct(LEADING, F, F)] * 7
    )
    assert round(error_rate(records) * 100, 2) == 4.44
    assert e_to_r_rate(records) == pytest.approx(0.125)


@pytest.mark.parametrize(
    ("record", "modified", "corrected"),
    [
        pytest.param(ProbeRecord.direct(OPEN, T, None), 1, 0, id="unreadable-after-is-modified"),
        pytest.param(ProbeRecord.direct(OPEN, None, T), 0, 1, id="unreadable-before-is-wrong"),
        pytest.param(ProbeRecord.direct(OPEN, None, None), 0, 0, id="unreadable-both"),
    ],
)
def test_unreadable_answers_count_as_wrong(
    record: ProbeRecord, modified: int, corrected: int
) -> None:
    got = consistency_metrics([record])
    assert (got.modified, got.corrected) == (modified, corrected)


def test_unreadable_in_a_later_round_counts_as_modified() -> None:
    records = [progressive(T, T, None, T), progressive(T, T, T, T)]
    assert [modification(records, k) for k in (1, 2, 3)] == [0.0, 0.5, 0.0]
    assert modification_rate(records, 2) == pytest.approx(0.5)


def test_breakdown_per_prompt_set_form_type_and_round() -> None:
    records = [
        ProbeRecord.direct(CLOSED, T, F),
        ProbeRecord.direct(CLOSED, T, T),
        ProbeRecord.direct(LEADING, T, F),
        ProbeRecord.direct(OPEN, T, T),
        ProbeRecord.direct(CLOSED, T, T, prompt_set="B"),
        *FLIPS_ON_ROUND_2,
        progressive(T, F, F, F, prompt_set="B"),
    ]
    table = metrics_breakdown(records)
    assert list(table) == [
        MetricsKey("A", DIRECT, 1, CLOSED),
        MetricsKey("A", DIRECT, 1, OPEN),
        MetricsKey("A", DIRECT, 1, LEADING),
        MetricsKey("A", PROGRESSIVE, 1, CLOSED),
        MetricsKey("A", PROGRESSIVE, 2, OPEN),
        MetricsKey("A", PROGRESSIVE, 3, LEADING),
        MetricsKey("B", DIRECT, 1, CLOSED),
        MetricsKey("B", PROGRESSIVE, 1, CLOSED),
        MetricsKey("B", PROGRESSIVE, 2, OPEN),
        MetricsKey("B", PROGRESSIVE, 3, LEADING),
    ]
    assert table[MetricsKey("A", DIRECT, 1, CLOSED)].modification_rate == pytest.approx(0.5)
    assert table[MetricsKey("A", DIRECT, 1, LEADING)].modification_rate == pytest.approx(1.0)
    assert table[MetricsKey("A", PROGRESSIVE, 2, OPEN)].modification_rate == pytest.approx(2 / 3)
    assert table[MetricsKey("B", PROGRESSIVE, 1, CLOSED)].modification_rate == pytest.approx(1.0)

    by_type = metrics_by_followup_type(records)
    assert list(by_type) == [CLOSED, OPEN, LEADING]
    assert by_type[CLOSED].n == 2
    assert list(metrics_by_followup_type(records, "B")) == [CLOSED]

    by_round = metrics_by_round(records)
    assert {k: v.modification for k, v in by_round.items()} == pytest.approx(
        {1: 0.0, 2: 0.5, 3: 0.5}
    )
    assert metrics_by_round(records, "B")[3].modification == pytest.approx(1.0)

    by_set = metrics_by_prompt_set(records, "closed")
    assert {k: v.modification_rate for k, v in by_set.items()} == pytest.approx(
        {"A": 0.5, "B": 0.0}
    )


@given(
    st.lists(
        st.tuples(
            st.sampled_from([True, False, None]),
            st.tuples(*[st.sampled_from([True, False, None])] * 3),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(min_value=1, max_value=3),
)
def test_modification_is_spoiled_minus_corrected(
    rows: list[tuple[bool | None, tuple[bool | None, ...]]], round_: int
) -> None:
    records = [ProbeRecord.progressive(before, after) for before, after in rows]
    got = consistency_metrics(records, round_)
    assert got.modification == pytest.approx((got.modified - got.corrected) / got.n)
    if got.modification_rate is not None:
        assert got.modification_rate * got.accuracy_before == pytest.approx(got.modification)
    if got.e_to_r_rate is not None:
        assert 0.0 <= got.e_to_r_rate <= 1.0
        assert got.e_to_r_rate * got.error_rate * got.n == pytest.approx(got.corrected)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(
            lambda: ProbeRecord(True, (True, False)),
            "followup_type: a Direct Form record needs its follow-up type",
            id="direct-without-type",
        ),
        pytest.param(
            lambda: ProbeRecord(True, (True, False), followup_type=CLOSED),
            "after_correct: the Direct Form has one round, got 2 values",
            id="direct-two-rounds",
        ),
        pytest.param(
            lambda: ProbeRecord.progressive(True, (True, True)),
            "after_correct: the Progressive Form has 3 rounds, got 2 values",
            id="progressive-two-rounds",
        ),
        pytest.param(
            lambda: ProbeRecord(True, (T, T, T), form=PROGRESSIVE, followup_type=OPEN),
            "followup_type: a Progressive Form record asks every type in turn",
            id="progressive-with-type",
        ),
        pytest.param(
            lambda: ProbeRecord.direct("closed", 1, True),  # type: ignore[arg-type]
            "before_correct: must be True, False or None",
            id="before-not-bool",
        ),
        pytest.param(
            lambda: ProbeRecord(True, ("yes",), followup_type=CLOSED),  # type: ignore[arg-type]
            r"after_correct\.0: must be True, False or None",
            id="after-not-bool",
        ),
        pytest.param(
            lambda: ProbeRecord.direct("sure", True, True),
            "followup_type: unknown follow-up type 'sure'",
            id="unknown-type",
        ),
        pytest.param(lambda: consistency_metrics([]), "records: no records", id="no-records"),
        pytest.param(
            lambda: consistency_metrics([ProbeRecord.direct(CLOSED, T, T)], 2),
            "round: this record has rounds 1 to 1, got 2",
            id="round-out-of-range",
        ),
    ],
)
def test_invalid_records(build: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        build()  # type: ignore[operator]


def test_direct_record_coerces_strings_and_lists() -> None:
    record = ProbeRecord(True, [False], followup_type="leading")  # type: ignore[arg-type]
    assert record.after_correct == (False,)
    assert record.followup_type is LEADING
    assert record.form is DIRECT
