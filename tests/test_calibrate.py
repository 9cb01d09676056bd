"""Calibration statistics: exact binomial tests, fixed-sequence testing, the guarantee.

The simulations draw calibration sets from generative models whose error structure is
known exactly, so the error rate among accepted verdicts of the rule a calibration
picks is computed exactly (the limit of the test error over an endless held-out set),
not estimated on a finite test split that would add its own noise.

The claim each simulation checks (Learn then Test, fixed-sequence testing with exact
binomial p-values): over independent calibration draws, the share of draws whose
chosen rule has an error rate among accepted verdicts above ``alpha`` is at most
``delta``. With ``S`` draws that share is itself an estimate with standard error at
most ``sqrt(delta (1 - delta) / S)``, so each test allows ``delta`` plus three of
those (the binomial slack of the simulation, about 0.037 for 600 draws). A naive
rule (the most permissive threshold whose calibration error is at most ``alpha``) is
run on the same draws and must break the bound, so the simulations can tell a method
that holds from one that does not.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats
from structlog.testing import capture_logs

from prin_guard import Acceptance, Guard, GuardOptions, UsageError
from prin_guard.calibrate import (
    CalibrationData,
    TierData,
    binomial_p_values,
    calibrate,
    fit_cascade,
    fit_threshold,
    fixed_sequence,
    min_items,
    threshold_curve,
    upper_bounds,
)
from prin_guard.calibrate._report import summary_lines, write_report
from prin_guard.judges import ScriptedJudge
from prin_guard.models import Scores, Verdict

ALPHA = DELTA = 0.1


def slack(splits: int, delta: float = DELTA) -> float:
    return 3 * math.sqrt(delta * (1 - delta) / splits)


# -- exact tests ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alpha", "delta", "needed"),
    [
        pytest.param(0.1, 0.1, 22, id="0.1-0.1"),
        pytest.param(0.1, 0.05, 29, id="0.1-0.05"),
        pytest.param(0.05, 0.1, 45, id="0.05-0.1"),
        pytest.param(0.2, 0.01, 21, id="0.2-0.01"),
        pytest.param(0.5, 0.5, 1, id="0.5-0.5"),
    ],
)
def test_min_items_is_the_fewest_error_free_items_that_can_pass(
    alpha: float, delta: float, needed: int
) -> None:
    assert min_items(alpha, delta) == needed
    assert stats.binom.cdf(0, needed, alpha) <= delta
    if needed > 1:
        assert stats.binom.cdf(0, needed - 1, alpha) > delta


def test_p_values_are_the_binomial_lower_tail() -> None:
    p = binomial_p_values([0, 1, 3, 0], [22, 10, 100, 0], 0.1)
    assert p[0] == pytest.approx(0.9**22)
    assert p[1] == pytest.approx(0.9**10 + 10 * 0.1 * 0.9**9)
    assert p[2] == pytest.approx(stats.binom.cdf(3, 100, 0.1))
    assert p[3] == 1.0  # nothing accepted shows nothing


def test_upper_bounds_are_one_sided_clopper_pearson() -> None:
    bound = upper_bounds([0, 5], [22, 50], 0.1)
    assert bound[0] == pytest.approx(1 - 0.1 ** (1 / 22))
    assert stats.binom.cdf(5, 50, bound[1]) == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("p", "start", "last"),
    [
        pytest.param([0.01, 0.05, 0.2, 0.01], 0, 1, id="stops-at-first-failure"),
        pytest.param([0.5, 0.01, 0.01], 0, None, id="first-fails"),
        pytest.param([0.5, 0.01, 0.01], 1, 2, id="from-start"),
        pytest.param([0.1, 0.1], 0, 1, id="at-delta-rejects"),
        pytest.param([0.01, 0.01], 2, None, id="start-past-end"),
    ],
)
def test_fixed_sequence_rejects_until_the_first_failure(
    p: list[float], start: int, last: int | None
) -> None:
    assert fixed_sequence(p, 0.1, start) == last


def test_threshold_curve_counts_ties_and_never_accepts_a_missing_signal() -> None:
    values = [0.0, 0.0, 0.5, np.nan, 1.0, 0.5]
    wrong = [False, True, True, False, True, False]
    low = threshold_curve(values, wrong, higher_is_better=False)
    assert low.thresholds.tolist() == [0.0, 0.5, 1.0]
    assert low.accepted.tolist() == [2, 4, 5]
    assert low.errors.tolist() == [1, 2, 3]
    assert low.total == 6
    high = threshold_curve(values, wrong, higher_is_better=True)
    assert high.thresholds.tolist() == [1.0, 0.5, 0.0]
    assert high.accepted.tolist() == [1, 3, 5]
    assert high.errors.tolist() == [1, 2, 3]


def test_fit_threshold_picks_the_last_threshold_that_passes_on_a_hand_case() -> None:
    # 40 consistent verdicts, 1 wrong; 20 at PRIN 0.5, 2 wrong; 20 at PRIN 1, 15 wrong.
    values = [0.0] * 40 + [0.5] * 20 + [1.0] * 20
    wrong = [i < 1 for i in range(40)] + [i < 2 for i in range(20)] + [i < 15 for i in range(20)]
    fit = fit_threshold(values, wrong, 0.1, 0.1, False, start_coverage=0.0)
    # PRIN <= 0: p = P(Bin(40, .1) <= 1) = 0.080; PRIN <= 0.5: P(Bin(60, .1) <= 3) = 0.143
    assert fit.threshold is not None
    assert 0.0 <= fit.threshold < 0.5
    assert (fit.accepted, fit.errors) == (40, 1)
    assert fit.p_value == pytest.approx(stats.binom.cdf(1, 40, 0.1))
    looser = fit_threshold(values, wrong, 0.1, 0.15, False, start_coverage=0.0)
    assert looser.threshold is not None
    assert 0.5 <= looser.threshold < 1.0


def test_testing_starts_where_enough_items_are_accepted() -> None:
    values = [0.0] * 10 + [0.5] * 100
    wrong = [False] * 110
    fit = fit_threshold(values, wrong, 0.1, 0.1, False, start_coverage=0.0)
    assert fit.curve.accepted[fit.start] == 110  # 10 < 22 items: too few to test
    assert fit.threshold is not None
    assert fit.threshold >= 0.5


# -- calibrate() on hand-made items -----------------------------------------------------


OPTIONS = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}


def _tier(
    prin: list[float], wrong: list[bool], confidence: list[float] | None = None, name: str = "t"
) -> TierData:
    verdicts = tuple(
        Verdict(
            item_id=f"q{i}",
            labels=("A", "B"),
            correct=("B",) if bad else ("A",),
            prin_score=p,
            scores=Scores(prin=p, confidence=None if confidence is None else confidence[i]),
            judge_calls=2,
        )
        for i, (p, bad) in enumerate(zip(prin, wrong, strict=True))
    )
    return TierData(judge={"kind": "scripted", "name": name}, options=OPTIONS, verdicts=verdicts)


def _data(
    prin: list[float], wrong: list[bool], confidence: list[float] | None = None
) -> CalibrationData:
    return CalibrationData(
        ids=tuple(f"q{i}" for i in range(len(prin))),
        gold=tuple(frozenset({"A"}) for _ in prin),
        tiers=(_tier(prin, wrong, confidence),),
    )


def test_too_few_items_is_an_error_saying_how_many_are_needed() -> None:
    with pytest.raises(UsageError, match=r"needs at least 22 items with a gold set.*have 15"):
        calibrate(_data([0.0] * 15, [False] * 15), alpha=0.1, delta=0.1)
    with pytest.raises(UsageError, match="needs at least 45 items"):
        calibrate(_data([0.0] * 30, [False] * 30), alpha=0.05, delta=0.1)


def test_no_passing_rule_gives_a_file_that_accepts_nothing() -> None:
    data = _data([0.0] * 50, [i % 3 == 0 for i in range(50)])
    result = calibrate(data, alpha=0.1, delta=0.1)
    assert result.acceptance.tiers[0].rule.threshold is None
    assert (result.acceptance.accepted, result.acceptance.coverage) == (0, 0.0)


def test_calibrate_records_the_guarantee_and_the_items() -> None:
    data = _data([0.0] * 60 + [1.0] * 40, [False] * 58 + [True] * 2 + [True] * 40)
    result = calibrate(data, alpha=0.1, delta=0.1)
    acc = result.acceptance
    assert (acc.alpha, acc.delta, acc.n, acc.tested) == (0.1, 0.1, 100, 100)
    assert (acc.accepted, acc.errors, acc.coverage) == (60, 2, 0.6)
    assert acc.tiers[0].rule.signal == "prin"
    assert 0.0 <= acc.tiers[0].rule.threshold < 1.0  # type: ignore[operator]
    assert acc.calibration_sha256 == data.digest()
    assert data.subset(list(range(99, -1, -1))).digest() == data.digest()  # order-free
    assert _data([0.0] * 60 + [1.0] * 40, [False] * 100).digest() != data.digest()


def test_auto_chooses_on_a_selection_part_and_tests_on_the_rest(tmp_path: Any) -> None:
    # PRIN separates right from wrong; confidence is noise that accepts a little
    wrong = [False] * 150 + [True] * 50
    prin = [0.0] * 150 + [1.0] * 50
    confidence = [0.9 if i % 4 == 0 else 0.3 for i in range(200)]
    result = calibrate(_data(prin, wrong, confidence), alpha=0.1, delta=0.1)
    acc = result.acceptance
    assert result.signal == "prin"
    # chosen on 60 items kept apart, tested alone, at the whole delta, on the other 140
    assert (acc.n, acc.selection, acc.tested) == (200, 60, 140)
    assert acc.signals_compared == ("prin", "confidence")
    assert acc.signals_tested == ("prin",)
    assert set(result.fits) == {"prin"}
    assert result.fits["prin"].level == 0.1
    assert result.fits["prin"].curve.total == 140
    assert result.selection is not None
    assert {name: s.items for name, s in result.selection.items()} == {
        "prin": 60,
        "confidence": 60,
    }
    assert result.selection["prin"].auroc == 1.0
    assert result.selection["prin"].certified > result.selection["confidence"].certified
    lines = summary_lines(result)
    assert lines[0].endswith("(140 tested, 60 kept apart for choosing the signal)")
    (compared,) = [line for line in lines if line.startswith("signals compared on ")]
    assert compared.startswith("signals compared on 60 items kept apart (seed 0): prin certifies ")
    assert "(AUROC 1.00) (chosen), confidence certifies " in compared
    (tested,) = [line for line in lines if line.startswith("tested ")]
    # the rule as people read it (PRIN < 1: the grid's 0.99999999), not its machine form
    assert tested.startswith("tested prin on the other 140 items at delta 0.1: PRIN < 1 ")
    report = write_report(result, tmp_path).read_text()
    assert "| prin threshold |" in report
    # another seed draws another selection part, and the same signal wins
    again = calibrate(_data(prin, wrong, confidence), alpha=0.1, delta=0.1, seed=3)
    assert again.signal == "prin"
    assert again.acceptance.seed == 3


def test_auto_with_one_signal_tests_it_on_every_item() -> None:
    data = _data([0.0] * 60 + [1.0] * 40, [False] * 58 + [True] * 2 + [True] * 40)
    acc = calibrate(data, alpha=0.1, delta=0.1).acceptance
    assert (acc.selection, acc.tested, acc.signals_compared) == (0, 100, ())


def test_a_tie_on_the_selection_part_goes_to_a_signal_that_ranks_the_verdicts() -> None:
    from prin_guard.calibrate import SignalScore
    from prin_guard.calibrate._stats import choose_signal

    flat = SignalScore(certified=0.0, auroc=None, items=30, values=1)
    ranked = SignalScore(certified=0.0, auroc=0.45, items=30, values=2)
    better = SignalScore(certified=0.0, auroc=0.8, items=30, values=2)
    certifying = SignalScore(certified=0.5, auroc=0.6, items=30, values=2)
    assert choose_signal({"prin": flat, "order_inconsistency": ranked}) == "order_inconsistency"
    assert choose_signal({"prin": ranked, "order_inconsistency": better}) == "order_inconsistency"
    assert choose_signal({"prin": certifying, "order_inconsistency": better}) == "prin"
    assert choose_signal({"prin": ranked, "inconsistency": ranked}) == "prin"  # registry order


def test_auto_needs_enough_items_left_to_test_after_the_selection_part() -> None:
    wrong = [False] * 25
    with pytest.raises(UsageError, match=r"needs at least 32 items.*kept apart to choose"):
        calibrate(_data([0.0] * 25, wrong, [0.9] * 25), alpha=0.1, delta=0.1)
    # naming the signal tests it on all 25
    named = calibrate(_data([0.0] * 25, wrong, [0.9] * 25), alpha=0.1, delta=0.1, signals="prin")
    assert named.acceptance.tested == 25


def test_a_cascades_signal_choice_is_reported_per_tier() -> None:
    rng = np.random.default_rng(5)
    n = 300
    wrong = [bool(w) for w in rng.random(n) < 0.2]
    prin = [1.0 if w else 0.0 for w in wrong]
    noise = [float(c) for c in rng.random(n)]
    strong = [False] * n
    data = CalibrationData(
        ids=tuple(f"q{i}" for i in range(n)),
        gold=tuple(frozenset({"A"}) for _ in range(n)),
        tiers=(
            _tier(prin, wrong, noise, name="cheap"),
            _tier([0.0] * n, strong, name="strong"),
        ),
    )
    result = calibrate(data, alpha=0.1, delta=0.1)
    assert [set(tier) for tier in result.path_signals] == [{"prin", "confidence"}, {"prin"}]
    lines = summary_lines(result)
    (line,) = [line for line in lines if "signals compared" in line]
    assert line.startswith("tier 0 signals compared on the path part")
    chosen = result.acceptance.tiers[0].rule.signal
    marked = line.split("(chosen)")[0].rsplit(": ", 1)[-1].split(", ")[-1]
    assert line.count("(chosen)") == 1 and marked.startswith(f"{chosen} ")
    assert "prin " in line and "confidence " in line
    # tier 0 accepts nothing here but the cascade does: no "accepts nothing" warning
    assert result.acceptance.accepted > 0
    assert not any("accepts nothing" in line for line in lines)


def test_a_cascade_that_certifies_nothing_keeps_its_cheapest_tier_alone() -> None:
    # both judges wrong on a third of the items whatever their signal: no rule passes;
    # a guard asking every tier would pay for every judge and decide nothing, so the file
    # keeps the first (cheapest) tier alone, and with --keep-idle-tiers every tier
    n = 300
    wrong = [i % 3 == 0 for i in range(n)]
    data = CalibrationData(
        ids=tuple(f"q{i}" for i in range(n)),
        gold=tuple(frozenset({"A"}) for _ in range(n)),
        tiers=(_tier([0.0] * n, wrong, name="cheap"), _tier([0.0] * n, wrong, name="strong")),
    )
    result = calibrate(data, alpha=0.1, delta=0.1)
    acc = result.acceptance
    assert acc.accepted == 0 and all(rule.threshold is None for rule in acc.rules)
    assert [tier.judge["name"] for tier in acc.tiers] == ["cheap"]
    assert [(tier.asked, tier.accepted) for tier in acc.tiers] == [(1.0, 0.0)]
    assert result.left_out == (1,)
    assert Acceptance.from_json(acc.to_json()) == acc  # a file calibrate can write
    kept = calibrate(data, alpha=0.1, delta=0.1, keep_idle_tiers=True).acceptance
    assert [(tier.asked, tier.accepted) for tier in kept.tiers] == [(1.0, 0.0), (1.0, 0.0)]


def test_a_first_tier_that_accepts_nothing_is_left_out_and_never_asked() -> None:
    # issue 27: the cheap judge's rule accepts nothing; the cascade's file asked it about
    # every item anyway (4 legs per item for no accepted verdict)
    rng = np.random.default_rng(5)
    n = 300
    wrong = [bool(w) for w in rng.random(n) < 0.5]
    cheap = _tier([0.0] * n, wrong, name="cheap")  # no signal separates its errors
    strong = _tier([0.0] * n, [False] * n, name="strong")
    data = CalibrationData(
        ids=tuple(f"q{i}" for i in range(n)),
        gold=tuple(frozenset({"A"}) for _ in range(n)),
        tiers=(cheap, strong),
    )
    with capture_logs() as events:
        result = calibrate(data, alpha=0.1, delta=0.1)
    acc = result.acceptance
    assert result.left_out == (0,)
    assert [tier.judge["name"] for tier in acc.tiers] == ["strong"]
    assert acc.tiers[0].asked == 1.0 and acc.accepted > 0
    assert [e["tiers"] for e in events if e["event"] == "calibrate_idle_tiers"] == [[0]]
    # a guard with the file asks the strong judge alone: 2 calls per item, not 4
    assert result.calls_per_item == 2.0
    lines = summary_lines(result)
    assert any(line.startswith("left out of the file: tier 0 (cheap)") for line in lines)
    assert "judge calls per item with this file: 2.00 on the test part = 2.00 (tier 0)" in lines
    assert any(line.startswith("tier 0 (strong): reverse-consistent (PRIN 0)") for line in lines)
    assert not any("accepts nothing (every verdict goes to review)" in line for line in lines)
    # the file checks as one calibrate wrote, and a guard of the strong judge alone takes it
    assert Acceptance.from_json(acc.to_json()) == acc
    strong_judge = ScriptedJudge(name="strong")
    strong_judge.identity = lambda: {"kind": "scripted", "name": "strong"}  # type: ignore[method-assign]
    Guard(strong_judge, options=GuardOptions(**OPTIONS), acceptance=acc)
    with pytest.raises(UsageError, match="calibrated for 1 tier; the guard has 2"):
        Guard(
            tiers=[ScriptedJudge(name="cheap"), strong_judge],
            options=GuardOptions(**OPTIONS),
            acceptance=acc,
        )
    kept = calibrate(data, alpha=0.1, delta=0.1, keep_idle_tiers=True)
    assert kept.left_out == () and len(kept.acceptance.tiers) == 2
    assert kept.calls_per_item == 4.0


def test_when_no_judge_alone_reaches_the_guarantee_the_cascade_says_so() -> None:
    # Two kinds of items. The cheap judge is consistent (PRIN 0) on the first kind and
    # wrong on 14% of them, inconsistent on the second and wrong on half; the strong
    # judge is consistent everywhere, wrong on 40% of the first kind and 2% of the
    # second. Alone, neither has a rule within alpha = 0.1 (14% at best; 21%); the
    # cascade (cheap where consistent, strong on the rest) is wrong on 8%.
    n = 1000
    first = [i < n // 2 for i in range(n)]
    cheap_wrong = [(i % 50 < 7) if first[i] else (i % 2 == 0) for i in range(n)]
    strong_wrong = [(i % 5 < 2) if first[i] else (i % 50 == 1) for i in range(n)]
    data = CalibrationData(
        ids=tuple(f"q{i}" for i in range(n)),
        gold=tuple(frozenset({"A"}) for _ in range(n)),
        tiers=(
            _tier([0.0 if f else 1.0 for f in first], cheap_wrong, name="cheap"),
            _tier([0.0] * n, strong_wrong, name="strong"),
        ),
    )
    result = calibrate(data, alpha=0.1, delta=0.1)
    assert [base.fit.accepted for base in result.baselines] == [0, 0]
    assert result.acceptance.accepted > 0 and result.left_out == ()
    lines = summary_lines(result)
    assert any(
        line.startswith(
            "no judge's rule reaches the guarantee alone on these items, but the cascade does"
        )
        for line in lines
    )
    assert not any("a guard with this file accepts nothing" in line for line in lines)
    assert "tier 0 alone (cheap), calibrated on all items: never (accepts nothing)," in "\n".join(
        lines
    )


# -- simulations --------------------------------------------------------------------------

SPLITS = 600
N = 400


def _naive(curve: Any, alpha: float) -> float | None:
    ok = (curve.errors <= alpha * curve.accepted) & (curve.accepted > 0)
    return float(curve.thresholds[np.flatnonzero(ok)[-1]]) if ok.any() else None


def test_guarantee_holds_over_random_calibration_draws_with_a_discrete_signal() -> None:
    # PRIN-like values 0, 0.1, ..., 1, equally likely; the error rate rises from 2% to
    # 35%, so the rate among accepted verdicts crosses alpha between 0.4 and 0.5.
    rng = np.random.default_rng(20261201)
    values = np.linspace(0.0, 1.0, 11)
    rate = np.linspace(0.02, 0.35, 11)

    def risk(t: float) -> float:
        kept = values <= t + 1e-12
        return float(rate[kept].mean())

    violations = naive = 0
    for _ in range(SPLITS):
        index = rng.integers(0, 11, N)
        wrong = rng.random(N) < rate[index]
        fit = fit_threshold(values[index], wrong, ALPHA, DELTA, False)
        violations += fit.threshold is not None and risk(fit.threshold) > ALPHA
        chosen = _naive(fit.curve, ALPHA)
        naive += chosen is not None and risk(chosen) > ALPHA
    assert violations / SPLITS <= DELTA + slack(SPLITS)
    assert naive / SPLITS > DELTA + slack(SPLITS)


def test_guarantee_holds_over_random_calibration_draws_with_a_continuous_confidence() -> None:
    # confidence uniform on [0, 1], error rate 0.25 (1 - c): accepting c >= t has an
    # error rate of 0.125 (1 - t), which is alpha at t = 0.2.
    rng = np.random.default_rng(7)
    violations = naive = 0
    coverage = []
    for _ in range(SPLITS):
        confidence = rng.random(N)
        wrong = rng.random(N) < 0.25 * (1 - confidence)
        fit = fit_threshold(confidence, wrong, ALPHA, DELTA, True)
        violations += fit.threshold is not None and 0.125 * (1 - fit.threshold) > ALPHA
        coverage.append(fit.accepted / N)
        chosen = _naive(fit.curve, ALPHA)
        naive += chosen is not None and 0.125 * (1 - chosen) > ALPHA
    assert violations / SPLITS <= DELTA + slack(SPLITS)
    assert naive / SPLITS > DELTA + slack(SPLITS)
    assert np.mean(coverage) > 0.3  # not vacuous: the best possible is 0.8


# -- the cascade ---------------------------------------------------------------------------

# Items are easy, medium or hard; each judge errs at a rate set by the class, and its
# PRIN-like signal (0, 1/3, 2/3, 1) depends on whether it erred. Given the class, the
# two judges are independent, so every quantity below is exact.
CLASSES = np.array([0.5, 0.3, 0.2])
ERR = {0: np.array([0.06, 0.28, 0.52]), 1: np.array([0.02, 0.05, 0.15])}
SIGNAL = np.array([0.0, 1 / 3, 2 / 3, 1.0])
P_SIGNAL = {  # (tier, wrong) -> distribution over SIGNAL
    (0, False): np.array([0.75, 0.15, 0.07, 0.03]),
    (0, True): np.array([0.15, 0.25, 0.3, 0.3]),
    (1, False): np.array([0.85, 0.1, 0.03, 0.02]),
    (1, True): np.array([0.3, 0.3, 0.2, 0.2]),
}


def _draw(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    cls = rng.choice(3, n, p=CLASSES)
    values, wrong = [], []
    for tier in (0, 1):
        bad = rng.random(n) < ERR[tier][cls]
        cdf_right = np.cumsum(P_SIGNAL[(tier, False)])
        cdf_wrong = np.cumsum(P_SIGNAL[(tier, True)])
        u = rng.random(n)
        index = np.where(bad, np.searchsorted(cdf_wrong, u), np.searchsorted(cdf_right, u))
        values.append(SIGNAL[np.minimum(index, 3)])
        wrong.append(bad)
    return values, wrong


def _exact(thresholds: tuple[float | None, ...]) -> tuple[float, float, float]:
    """Error rate among accepted, coverage and share asked of the strong judge."""

    def below(tier: int, wrong: bool, t: float | None) -> float:
        return 0.0 if t is None else float(P_SIGNAL[(tier, wrong)][t + 1e-12 >= SIGNAL].sum())

    t0, t1 = thresholds
    err0 = ERR[0] * below(0, True, t0)
    acc0 = err0 + (1 - ERR[0]) * below(0, False, t0)
    reach = 1 - acc0
    err1 = reach * ERR[1] * below(1, True, t1)
    acc1 = reach * (ERR[1] * below(1, True, t1) + (1 - ERR[1]) * below(1, False, t1))
    accepted = float(CLASSES @ (acc0 + acc1))
    errors = float(CLASSES @ (err0 + err1))
    return (errors / accepted if accepted else 0.0), accepted, float(CLASSES @ reach)


def test_cascade_guarantee_holds_for_the_whole_cascade_with_fewer_strong_calls() -> None:
    rng = np.random.default_rng(11)
    splits, n = 500, 1000
    calls = [np.full(n, 2.0), np.full(n, 2.0)]
    violations = 0
    strong_share, coverage = [], []
    for _ in range(splits):
        values, wrong = _draw(rng, n)
        order = rng.permutation(n)
        fit = fit_cascade(
            values,
            wrong,
            calls,
            higher_is_better=[False, False],
            alpha=ALPHA,
            delta=DELTA,
            path_items=order[:300],
            test_items=order[300:],
        )
        risk, accepted, asked_strong = _exact(fit.thresholds)
        violations += risk > ALPHA
        coverage.append(accepted)
        strong_share.append(asked_strong)
    assert violations / splits <= DELTA + slack(splits)
    # always-strong asks the strong judge about every item; the cascade about far fewer,
    # and still decides most items
    assert np.mean(strong_share) < 0.8
    assert np.mean(coverage) > 0.8


def test_a_naive_cascade_breaks_the_guarantee_in_the_same_simulation() -> None:
    # The most covering combination whose calibration error is at most alpha (then the
    # one asking the strong judge least), on all items at once: the simulation has the
    # power to see a method that does not hold.
    rng = np.random.default_rng(11)
    grid = [None, *SIGNAL]
    violations = 0
    splits = 300
    for _ in range(splits):
        values, wrong = _draw(rng, 1000)
        best: tuple[int, int, tuple[float | None, float | None]] | None = None
        for t0 in grid:
            for t1 in grid:
                take0 = values[0] <= (-1 if t0 is None else t0)
                take1 = ~take0 & (values[1] <= (-1 if t1 is None else t1))
                accepted = int(take0.sum() + take1.sum())
                errors = int((take0 & wrong[0]).sum() + (take1 & wrong[1]).sum())
                key = (accepted, -int((~take0).sum()), (t0, t1))
                if accepted and errors <= ALPHA * accepted and (best is None or key[:2] > best[:2]):
                    best = key
        violations += best is not None and _exact(best[2])[0] > ALPHA
    assert violations / splits > DELTA + slack(splits)


def test_cascade_thresholds_mean_what_the_rules_apply_for_either_direction() -> None:
    # Three tiers, the last one's signal better when higher: the rules built from the
    # chosen thresholds accept, tier by tier, exactly the items calibration counted.
    from prin_guard._route._acceptance import Rule

    rng = np.random.default_rng(3)
    n = 900
    values = [rng.random(n), rng.random(n), rng.random(n)]
    wrong = [rng.random(n) < 0.3 * values[0], rng.random(n) < 0.3 * values[1]]
    wrong.append(rng.random(n) < 0.3 * (1 - values[2]))
    order = rng.permutation(n)
    fit = fit_cascade(
        values,
        wrong,
        [np.full(n, 2.0)] * 3,
        higher_is_better=[False, False, True],
        alpha=ALPHA,
        delta=DELTA,
        path_items=order[:300],
        test_items=order[300:],
    )
    assert fit.accepted > 0
    rules = [
        Rule(signal=name, threshold=t)  # type: ignore[arg-type]
        for name, t in zip(("prin", "prin", "confidence"), fit.thresholds, strict=True)
    ]
    accepted = errors = 0
    for i in order[300:]:
        for k, rule in enumerate(rules):
            if rule.accepts(float(values[k][i])):
                accepted += 1
                errors += bool(wrong[k][i])
                break
    assert (accepted, errors) == (fit.accepted, fit.errors)
