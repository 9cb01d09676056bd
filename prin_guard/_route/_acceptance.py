"""Calibrated acceptance: which verdicts to accept, which to escalate, which to send to a human.

An :class:`Acceptance` is what ``prin-guard calibrate`` writes (the method is in
:mod:`prin_guard.calibrate` and docs/calibration.md): one :class:`Rule` per tier of a
cascade of judges, the error level ``alpha`` it guarantees with probability
``1 - delta``, and the judge identity and options each tier was calibrated for. This
module only reads, checks and applies the file; it needs neither numpy nor scipy, so
a guard that applies a rule imports nothing heavy.

A rule compares one signal of a verdict with a threshold. The signals are the one
registry of ``_decide`` (:data:`~prin_guard._route._decide.SIGNALS`), each with the direction
in which it is good:

========================  =========  ================================================
signal                    accepts    read from the verdict
========================  =========  ================================================
``prin``                  ``<= t``   ``scores.prin``
``order_inconsistency``   ``<= t``   ``scores.order_inconsistency`` (``order`` check)
``inconsistency``         ``<= t``   the larger of the two above, where present
``panel_agreement``       ``>= t``   ``scores.panel_agreement`` (a panel)
``confidence``            ``>= t``   ``scores.confidence`` (``confidence`` check)
========================  =========  ================================================

A verdict whose signal is missing (no legs, a judge error, a check that did not run)
is never accepted. A rule with threshold ``None`` accepts nothing: calibration found
no threshold that meets the guarantee.

**A file is checked, not trusted.** An :class:`Acceptance` holds only what calibration
can have written (:func:`inconsistency` says what and why): counts in order
(``errors <= accepted <= tested <= n``), coverage and the tiers' shares that agree
with them, the p-value recomputed from the counts (:func:`binomial_cdf`) and at most
the level it was tested at, enough items for any rule to pass (:func:`min_items`),
thresholds in their signal's range, and every option a tier is bound to. A file is
at most :data:`MAX_FILE_BYTES` and carries ``content_sha256``, a digest (sha256) of its
own content (:func:`content_sha256`), which :meth:`Acceptance.load` verifies: an edited or
damaged file is refused. A digest is no signature: it catches an accidental or careless
edit, not a deliberate one, since whoever edits the file can compute it again. Files of
version 1 (before the digest) still load, checked, with an ``acceptance_no_digest``
warning; a file of a later version rewritten as an earlier one (its digest deleted,
``"version": 1``) holds fields its version never had (:data:`FIELDS_SINCE`) and is refused.

**Tamper evidence** needs a secret: with the operator's key set
(``PRIN_GUARD_ACCEPTANCE_KEY``, read by :func:`~prin_guard._infra._settings.acceptance_key`),
``save`` adds ``signature``, an HMAC-SHA256 of the same content under that key, and
``load`` refuses a file whose signature is missing or does not match. Without the key a
signature is not checked (an ``acceptance_signature_unchecked`` warning says so).

**The error of a verdict** is defined here, once, for every task (:func:`verdict_wrong`);
eval's accuracy and flag quality, calibration and the guarantee of a file all use it;
a rating's (:func:`rating_wrong`) is its distance from the human score beyond the file's
``tolerance``, and a rating verdict that gives no rating is never accepted. A rating
file records the scales its items were rated on (``scales``), and a guard with it refuses
items on any other scale (:meth:`Acceptance.check_task`): a gap of one point is a quarter
of 1-5 and all of 0-1.
A file records the task it was calibrated on (``task``; ``choice`` for files written
before tasks existed), and a guard with it refuses items of another task
(:meth:`Acceptance.check_task`): a rule certified on pairwise verdicts says nothing of
checklist ones.

An acceptance file holds for the judge and the options it was calibrated with and
nothing else: :meth:`Acceptance.check_compatible` raises
:class:`~prin_guard.UsageError` naming the first difference. The options compared are
those that change a verdict's correct set or its scores (:data:`COMPARED_OPTIONS`);
limits, the consistency threshold, ``min_confidence`` and the probe do not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from prin_guard._infra._events import log
from prin_guard._infra._json import dumps
from prin_guard._infra._settings import ACCEPTANCE_KEY_VARIABLE, acceptance_key
from prin_guard._prompting._prompts import (
    DEFAULT_TEMPLATES,
    TEMPLATES,
    Template,
    get_template,
    template_digest,
)
from prin_guard._prompting._rating import Scale
from prin_guard._route._decide import SIGNALS, SignalName, signal_value
from prin_guard._route._options import DEFAULT_CHECKS, GuardOptions
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.models import Decision, Frozen, Task, Verdict

__all__ = [
    "CHECKSUM_FIELD",
    "COMPARED_OPTIONS",
    "FIELDS_SINCE",
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_ITEMS",
    "MIN_KEY_BYTES",
    "RANKING_OPTIONS",
    "SIGNAL_RANGE",
    "SIGNATURE_FIELD",
    "VERSION",
    "Acceptance",
    "CalibratedScale",
    "Rule",
    "Tier",
    "binomial_cdf",
    "candidate_errors",
    "compared_options",
    "content_sha256",
    "decision_wrong",
    "error_of",
    "inconsistency",
    "min_items",
    "ranking_wrong",
    "rating_wrong",
    "signature",
    "verdict_signal",
    "verdict_wrong",
]

FORMAT: Literal["prin-guard-acceptance"] = "prin-guard-acceptance"
VERSION: Final = 3
"""The version written: 3 records a rating file's ``scales`` and may carry a
``signature``; 2 carries ``content_sha256``; 1 (the first) did not."""
COMPARED_OPTIONS: tuple[str, ...] = ("template", "mitigations", "policy", "checks", "prompt_layout")
"""The guard options an acceptance file is bound to: they change the verdict's correct
set (``policy``) or its scores (the prompt wording and layout, the mitigations, the checks
run)."""
RANKING_OPTIONS: tuple[str, ...] = (
    "ranking_mode",
    "ranking_orders",
    "ranking_adaptive",
    "ranking_window",
    "ranking_tolerance",
    "ranking_tournament",
)
"""The options a ranking file is bound to besides :data:`COMPARED_OPTIONS`: they change
which legs a ranking asks, its ranking or its flags."""


def compared_options(task: str) -> tuple[str, ...]:
    """The options an acceptance file of ``task`` is bound to."""
    return COMPARED_OPTIONS + RANKING_OPTIONS if task == "ranking" else COMPARED_OPTIONS


_LATER_OPTIONS: Final[Mapping[str, Any]] = {"prompt_layout": "template"}
"""Options bound since files were first written, with the value every guard had before
(a file without one was calibrated with it)."""
CHECKSUM_FIELD: Final = "content_sha256"
"""The file's digest of its own content (a sha256 anyone can recompute: no signature)."""
SIGNATURE_FIELD: Final = "signature"
"""The HMAC-SHA256 of the file's content under the operator's key, when it was set."""
FIELDS_SINCE: Final[Mapping[str, int]] = {
    "selection": 2,
    "signals_compared": 2,
    "task": 2,
    "tolerance": 2,
    CHECKSUM_FIELD: 2,
    "scales": 3,
    SIGNATURE_FIELD: 3,
    "min_tau": 3,
    "forms": 3,
}
"""The fields a version-1 file never had, with the version that brought each: a file
holding one under an earlier version was rewritten as that version (its digest deleted,
``"version": 1``), and is refused."""
MIN_KEY_BYTES: Final = 16
"""The shortest operator's key accepted (an HMAC under a short key is guessed)."""
MAX_FILE_BYTES: Final = 1 << 20
"""The largest acceptance file read (1 MiB); calibrate writes a few kilobytes."""
MAX_ITEMS: Final = 10**9
"""The most calibration items a file may count."""
SIGNAL_RANGE: Final = (0.0, 1.0)
"""Where every signal of :data:`~prin_guard._route._decide.SIGNALS` lies (shares, F1 distances
and probabilities), so where a threshold can mean anything."""
_SHARE_TOLERANCE: Final = 1e-9  # a share written as count / tested, read back
_P_TOLERANCE: Final = 1e-6  # relative: binomial_cdf against scipy's, with room to spare


# -- the error of a verdict ---------------------------------------------------------------


def verdict_wrong(correct: Iterable[str], gold: Iterable[str]) -> bool:
    """Whether a verdict is wrong: its ``correct`` set (what the guard hands the caller,
    under its policy) is not the gold set. The one definition, for every task:

    - ``choice``: the correct options, exactly; one option too many or too few is wrong.
    - ``pairwise``: the winner. Gold is the better response's label, or both labels when
      the dataset calls the pair a tie; a verdict's set is its winner, both responses
      for a tie, none when the two answers contradict each other. So a verdict is wrong
      when its winner is not the gold winner, when it calls a tie the gold does not (or
      misses one it does), and when it names no winner. LLMBar and MT-Bench-human have no
      ties: every tie verdict there is wrong.
    - ``checklist``: the met set (criteria met, claims supported), exactly; a candidate
      ``contradicted`` counts as not met. How many candidates a wrong verdict puts on
      the wrong side is :func:`candidate_errors`; eval reports it as per-candidate
      accuracy, but calibration and the guarantee are about the whole set.
    """
    return set(correct) != set(gold)


def rating_wrong(rating: float | None, human: float, tolerance: float) -> bool:
    """Whether a rating verdict is wrong: it gives no rating (its legs disagree beyond
    the scale's tolerance, or a reply was unreadable), or its rating is further than
    ``tolerance`` from the human score. The one definition of a rating's error, which
    calibration and the guarantee of a rating acceptance file use: ``P(|rating - human|
    > tolerance | accepted) <= alpha``. Exactly ``tolerance`` away is not wrong."""
    return rating is None or abs(rating - human) > tolerance


def ranking_wrong(
    ranking: Sequence[Sequence[str]] | None,
    gold: Sequence[Sequence[str]],
    min_tau: float | None = None,
) -> bool:
    """Whether a ranking verdict is wrong: it gives no ranking (a leg unread, or best-of-n
    naming one response best and worst), its best are not all among the human ranking's
    best (top-1 wrong: :func:`~prin_guard._ranking.top_agrees`), or, with ``min_tau``,
    its Kendall's tau-b with the human ranking is under ``min_tau`` (or undefined: a
    ranking that ties everything). The one definition of a ranking's error, which
    calibration and the guarantee of a ranking acceptance file use."""
    if ranking is None:
        return True
    from prin_guard._ranking import check_ranking, kendall_tau_b, top_agrees

    ours, theirs = check_ranking(ranking), check_ranking(gold, "gold")
    if not top_agrees(ours, theirs):
        return True
    if min_tau is None:
        return False
    tau = kendall_tau_b(ours, theirs)
    return tau is None or tau < min_tau


def decision_wrong(decision: str | None, accepted: bool) -> bool:
    """Whether a review's decision is wrong: it gives none (its two legs disagree, or a
    reply was unreadable) or it is not the venue's (``accepted``). The one definition of a
    review's error, which the calibrated acceptance of ``eval iclr2017`` and a review
    acceptance file (``prin-guard calibrate`` on an ``eval iclr2017`` run) use."""
    return decision is None or (decision == "accept") != accepted


def error_of(task: str) -> Literal["set", "rating", "ranking", "decision"]:
    """What makes a verdict of ``task`` wrong, as an acceptance file names it: a rating's
    ``rating``, a ranking's ``ranking``, a review's ``decision``, every other task's
    ``set``."""
    if task == "rating":
        return "rating"
    if task == "ranking":
        return "ranking"
    if task == "review":
        return "decision"
    return "set"


def verdict_signal(verdict: Verdict, name: str) -> float | None:
    """The signal a rule reads from ``verdict``, as calibration and a guard read it alike:
    :func:`~prin_guard._route._decide.signal_value`, but none for a review that gives no
    decision (its two legs disagree, a reply unread): never accepted, whatever its PRIN."""
    if verdict.task == "review" and (verdict.review is None or verdict.review.decision is None):
        return None
    return signal_value(verdict, name)


def candidate_errors(labels: Iterable[str], correct: Iterable[str], gold: Iterable[str]) -> int:
    """How many of the item's candidates the verdict puts on the wrong side of the gold:
    called met (correct, better) and not in the gold set, or in the gold set and not
    called so. ``verdict_wrong`` is exactly "this is above 0"."""
    chosen, wanted = set(correct), set(gold)
    return sum((label in chosen) != (label in wanted) for label in labels)


# -- the statistics a file is checked with ----------------------------------------------


def min_items(alpha: float, delta: float) -> int:
    """The fewest accepted items with which any rule can pass: the smallest ``m`` with
    ``(1 - alpha)^m <= delta`` (``m`` accepted verdicts, none wrong)."""
    if not (0 < alpha < 1 and 0 < delta < 1):
        raise ValueError("alpha and delta must be between 0 and 1")
    m = max(1, math.ceil(math.log(delta) / math.log1p(-alpha)))
    while (1 - alpha) ** m > delta:  # float rounding of the logarithms
        m += 1
    while m > 1 and (1 - alpha) ** (m - 1) <= delta:
        m -= 1
    return m


# Catherine Loader's saddle-point binomial probability ("Fast and accurate computation
# of binomial probabilities", 2000; R's dbinom): accurate to a few ulps for any n,
# where log-gamma differences lose digits once n is in the millions.
_LN_2PI: Final = math.log(2 * math.pi)


def _stirlerr(n: int) -> float:
    """log(n!) - log(sqrt(2 pi n) (n / e)^n), for n >= 1."""
    if n <= 15:
        return math.lgamma(n + 1.0) - (n + 0.5) * math.log(n) + n - _LN_2PI / 2
    s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
    nn = float(n) * n
    if n > 500:
        return (s0 - s1 / nn) / n
    if n > 80:
        return (s0 - (s1 - s2 / nn) / nn) / n
    if n > 35:
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n


def _bd0(x: float, mean: float) -> float:
    """x log(x / mean) + mean - x, without cancellation when x is near mean."""
    if abs(x - mean) < 0.1 * (x + mean):
        v = (x - mean) / (x + mean)
        s = (x - mean) * v
        ej = 2 * x * v
        v *= v
        for j in range(1, 1000):  # |v| < 1/11: a dozen terms
            ej *= v
            following = s + ej / (2 * j + 1)
            if following == s:
                break
            s = following
        return s
    return x * math.log(x / mean) + mean - x


def _binomial_pmf(k: int, n: int, p: float) -> float:
    if k == 0:
        return math.exp(n * math.log1p(-p))
    if k == n:
        return math.exp(n * math.log(p))
    q = 1.0 - p
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, n * p) - _bd0(n - k, n * q)
    lf = _LN_2PI + math.log(k) + math.log1p(-k / n)
    return math.exp(lc - 0.5 * lf)


def binomial_cdf(k: int, n: int, p: float) -> float:
    """``P(Binomial(n, p) <= k)`` for ``0 < p < 1``, in pure Python (to check a file's
    p-value without scipy): the tail away from the mode is summed from its largest term
    until the terms no longer count, about ten standard deviations at most."""
    if not 0 < p < 1:
        raise ValueError("p must be between 0 and 1")
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    q = 1.0 - p
    if k < math.floor((n + 1) * p):
        # the lower tail: its terms fall from k down to 0
        total, term, i = 0.0, _binomial_pmf(k, n, p), k
        while term > 0.0:
            total += term
            if term <= total * 1e-17:
                break
            term *= i * q / ((n - i + 1) * p)
            i -= 1
        return min(total, 1.0)
    # 1 - the upper tail: its terms fall from k + 1 up to n
    total, term, i = 0.0, _binomial_pmf(k + 1, n, p), k + 1
    while term > 0.0:
        total += term
        if term <= total * 1e-17:
            break
        term *= (n - i) * p / ((i + 1) * q)
        i += 1
    return max(0.0, 1.0 - total)


def _canonical(data: Mapping[str, Any]) -> bytes:
    """An acceptance file's content as the digest and the signature read it: the JSON
    value without ``content_sha256`` and ``signature``, not the bytes, so a file
    re-indented or with its keys in another order keeps both: keys sorted, no spaces,
    ASCII escapes, and a number with an integral value written as an integer (``1.0``
    and ``1`` are one number)."""
    body = {
        key: value for key, value in data.items() if key not in (CHECKSUM_FIELD, SIGNATURE_FIELD)
    }
    canonical = json.dumps(
        _integral(body), sort_keys=True, separators=(",", ":"), ensure_ascii=True
    )
    return canonical.encode("ascii")


def content_sha256(data: Mapping[str, Any]) -> str:
    """The digest (sha256) of an acceptance file's content, ``content_sha256`` and
    ``signature`` left out: anyone can recompute it, so it shows a careless edit only."""
    return hashlib.sha256(_canonical(data)).hexdigest()


def signature(data: Mapping[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 of an acceptance file's content (as :func:`content_sha256` reads
    it) under the operator's ``key``: ``hmac-sha256:<hex>``. Only a holder of the key can
    write it, so a file edited without the key is refused where the key is set."""
    return "hmac-sha256:" + hmac.new(key, _canonical(data), hashlib.sha256).hexdigest()


def _operator_key() -> bytes | None:
    key = acceptance_key()
    if key is not None and len(key) < MIN_KEY_BYTES:
        raise UsageError(
            f"{ACCEPTANCE_KEY_VARIABLE}: {len(key)} bytes; an acceptance key is at least "
            f"{MIN_KEY_BYTES} bytes (e.g. 32 random bytes, hex-encoded)"
        )
    return key


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_integral(item) for item in value]
    return value


# -- the model ----------------------------------------------------------------------------


class Rule(Frozen):
    """Accept a verdict when its signal is on the good side of the threshold."""

    signal: SignalName
    threshold: float | None
    """Accept at or under it (at or above for ``confidence``, ``panel_agreement``);
    ``None``: accept nothing. Within :data:`SIGNAL_RANGE`."""

    @field_validator("threshold", mode="before")
    @classmethod
    def _in_range(cls, value: Any) -> Any:
        # before pydantic's own check, whose word for a NaN is vaguer than this one
        low, high = SIGNAL_RANGE
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and not (math.isfinite(value) and low <= value <= high):
            raise ValueError(
                f"{value!r} is not a threshold: signals lie in [{low:g}, {high:g}] "
                "(null accepts nothing)"
            )
        return value

    @property
    def text(self) -> str:
        """The rule in its machine form, as the file holds it (and a verdict's decision
        names it): ``prin <= 0.0``, ``confidence >= 0.93``, ``prin: never``."""
        if self.threshold is None:
            return f"{self.signal}: never"
        return f"{self.signal} {SIGNALS[self.signal].op} {self.threshold!r}"

    @property
    def words(self) -> str:
        """The rule as people read it: ``order-consistent``, ``confidence >= 0.83``,
        ``order inconsistency < 1``, ``never (accepts nothing)``."""
        return SIGNALS[self.signal].words(self.threshold)

    def accepts(self, score: float | None) -> bool:
        if score is None or self.threshold is None or math.isnan(score):
            return False
        if SIGNALS[self.signal].higher_is_better:
            return score >= self.threshold
        return score <= self.threshold

    def __str__(self) -> str:
        return self.text


class Tier(Frozen):
    """One judge of the cascade: what it was calibrated for and the rule it applies."""

    judge: dict[str, Any]
    """The judge's identity (``judge.identity()``) in the calibration runs."""
    options: dict[str, Any]
    """The guard options of the calibration runs that an acceptance is bound to: every
    one of :data:`COMPARED_OPTIONS`, a ranking file's :data:`RANKING_OPTIONS` too, and
    nothing else."""
    rule: Rule
    asked: float = Field(ge=0.0, le=1.0)
    """Share of the tested calibration items that reached this tier."""
    accepted: float = Field(ge=0.0, le=1.0)
    """Share of the tested calibration items this tier accepted."""

    @field_validator("options", mode="before")
    @classmethod
    def _earlier_files(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {**_LATER_OPTIONS, **value}
        return value

    @field_validator("options")
    @classmethod
    def _bound_options(cls, value: dict[str, Any]) -> dict[str, Any]:
        # An option left out would match any guard's: the file binds all of them.
        missing = [name for name in COMPARED_OPTIONS if name not in value]
        if missing:
            raise ValueError(
                f"lacks {', '.join(missing)}: a tier is bound to {', '.join(COMPARED_OPTIONS)}"
            )
        extra = sorted(set(value) - set(COMPARED_OPTIONS) - set(RANKING_OPTIONS))
        if extra:
            raise ValueError(
                f"{', '.join(extra)}: not an option a tier is bound to "
                f"({', '.join(COMPARED_OPTIONS)})"
            )
        try:
            GuardOptions.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            raise ValueError(f"{field}: {message}") from None
        return value


class CalibratedScale(Frozen):
    """A scale a rating file was calibrated on: what gives a score and a gap between the
    legs their meaning (the bounds, decimals, the legs' tolerance), without the item's
    own words (labels, rubric)."""

    min: int
    max: int
    decimals: bool = False
    tolerance: float | None = None

    @model_validator(mode="after")
    def _a_scale(self) -> CalibratedScale:
        try:
            Scale.coerce(self.model_dump(exclude_none=True))
        except InvalidItemError as exc:
            raise ValueError(f"{exc.field.removeprefix('scale.')}: {exc.reason}") from None
        return self

    @classmethod
    def of(cls, scale: Scale) -> CalibratedScale:
        return cls(min=scale.min, max=scale.max, decimals=scale.decimals, tolerance=scale.tolerance)

    def __str__(self) -> str:
        extra = [" with decimals" if self.decimals else ""]
        if self.tolerance is not None:
            extra.append(f", tolerance {self.tolerance:g}")
        return f"{self.min}-{self.max}{''.join(extra)}"


class Acceptance(Frozen):
    """A calibrated acceptance rule per tier, with the guarantee it was calibrated for.

    With probability at least ``1 - delta`` over the draw of the calibration items, a
    future item exchangeable with them is wrongly judged, given that the cascade
    accepts it, with probability at most ``alpha`` (docs/calibration.md says what that
    does and does not cover). Built only consistent (:func:`inconsistency`).
    """

    format: Literal["prin-guard-acceptance"] = FORMAT
    version: Literal[1, 2, 3] = VERSION
    """The file format read: 3 records ``scales`` (a rating file's), 2 carries
    ``content_sha256``, 1 did not. Written as 3."""
    alpha: float = Field(gt=0.0, lt=1.0)
    """Largest error rate among accepted verdicts that is guaranteed."""
    delta: float = Field(gt=0.0, lt=1.0)
    """Probability that the calibration draw misleads (the guarantee fails)."""
    error: Literal["set", "rating", "ranking", "decision"] = "set"
    """``set``: an accepted verdict is an error when its ``correct`` set differs from the
    gold set (:func:`verdict_wrong`: the options, the winner, the met set, by task).
    ``rating`` (task ``rating``): when it gives no rating or one further than
    ``tolerance`` from the human score (:func:`rating_wrong`). ``ranking`` (task
    ``ranking``): when it gives no ranking, its best is not among the human ranking's
    best, or its Kendall's tau-b with it is under ``min_tau`` (:func:`ranking_wrong`).
    ``decision`` (task ``review``): when the review gives no decision (its two legs
    disagree, a reply unread) or not the venue's (:func:`decision_wrong`)."""
    tolerance: float | None = Field(None, gt=0.0, allow_inf_nan=False)
    """A rating file's tolerance, in the scale's points: how far a rating may lie from
    the human score and still be right. None for the label tasks."""
    min_tau: float | None = Field(None, ge=-1.0, le=1.0, allow_inf_nan=False)
    """A ranking file's least Kendall's tau-b with the human ranking that is still right
    (``None``: top-1 alone decides). None for the other tasks."""
    task: Task = "choice"
    """The task of the calibration items; a guard with the file judges items of this task
    only. Files written before tasks existed are ``choice``."""
    scales: tuple[CalibratedScale, ...] = ()
    """A rating file's scales: those its calibration items were rated on, and the only
    ones a guard with it rates items on. Empty for the label tasks."""
    forms: tuple[str, ...] = ()
    """A review file's review forms (their ids: the shipped forms, whose words are fixed
    by id and version): those its calibration reviews were asked in, and the only ones a
    guard with it decides reviews in. Empty for the other tasks."""
    n: int = Field(ge=1, le=MAX_ITEMS)
    """Calibration items (with a gold set) the file was fitted on."""
    selection: int = Field(0, ge=0, le=MAX_ITEMS)
    """Of those, the items kept apart to choose the signal (``--signal auto`` with more
    than one signal, one tier) or the thresholds' order (a cascade's path part); the
    guarantee was tested on the others. 0 when every item was tested (and in files
    written before it was recorded)."""
    tested: int = Field(ge=1, le=MAX_ITEMS)
    """The items the guarantee was tested on: ``n - selection``."""
    accepted: int = Field(ge=0, le=MAX_ITEMS)
    """Tested items the chosen rules accept."""
    errors: int = Field(ge=0, le=MAX_ITEMS)
    """Accepted tested items whose verdict is wrong."""
    coverage: float = Field(ge=0.0, le=1.0)
    """``accepted / tested``: the share of items decided without a human."""
    p_value: float | None = Field(None, ge=0.0, le=1.0)
    """The exact binomial p-value of the chosen rules, ``P(Binomial(accepted, alpha) <=
    errors)`` (``None`` when nothing is accepted)."""
    method: Literal["fixed_sequence", "pareto_fixed_sequence"]
    """``fixed_sequence`` for one tier; ``pareto_fixed_sequence`` for a cascade."""
    signals_tested: tuple[SignalName, ...] = Field(min_length=1)
    """The signals whose rules were tested on the tested items (one tier: ``delta`` split
    evenly between them; one, when it was chosen on the selection part); a cascade: the
    tiers' signals."""
    signals_compared: tuple[SignalName, ...] = ()
    """With ``--signal auto``, the signals compared on the selection (or path) part to
    choose the tested ones; empty when no choice was made there."""
    tiers: tuple[Tier, ...] = Field(min_length=1)
    """One per judge, cheapest first."""
    calibration_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """sha256 of the calibration items: ids, gold sets, verdicts' sets and signals."""
    runs: tuple[tuple[str, ...], ...] = ()
    """The eval run directories read, per tier."""
    seed: int | None = None
    """Seed of the path split (cascades) and of any hold-out split."""
    created_with: str = ""
    """The prin-guard version that wrote the file."""

    @model_validator(mode="after")
    def _consistent(self) -> Acceptance:
        problem = inconsistency(self)
        if problem is not None:
            raise ValueError(problem)
        return self

    # -- files -------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Acceptance:
        """Read an acceptance file, or raise UsageError naming the file, the field and
        what is wrong with it (checked as :meth:`from_json` says)."""
        file = Path(path)
        where = str(file)
        try:
            with file.open("rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > MAX_FILE_BYTES:
                    raise _too_big(where, size)
                raw = handle.read(MAX_FILE_BYTES + 1)  # not a regular file: read no more
        except OSError as exc:
            raise UsageError(f"{where}: cannot read the acceptance file: {exc.strerror}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise _too_big(where, len(raw))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{where}: not an acceptance file (not UTF-8 text)") from None
        return cls.from_json(text, where=where)

    @classmethod
    def from_json(cls, text: str, *, where: str = "acceptance") -> Acceptance:
        """An acceptance from a file's content, or UsageError naming ``where`` and the
        field: at most :data:`MAX_FILE_BYTES`, the format and a version this prin-guard
        reads, no field its version never had (:data:`FIELDS_SINCE`: a downgrade), every
        field consistent with the others (:func:`inconsistency`), then the digest
        ``content_sha256`` against the content (required from version 2; a version-1
        file without it loads with an ``acceptance_no_digest`` warning) and, with the
        operator's key set, the ``signature`` (required then)."""
        if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
            raise _too_big(where, len(text.encode("utf-8", "replace")))
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
        except (ValueError, RecursionError) as exc:  # a 5,000-digit number, deep nesting
            raise UsageError(f"{where}: not an acceptance file ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise UsageError(f"{where}: not a prin-guard acceptance file (format {FORMAT!r})")
        version = data.get("version")
        if version not in range(1, VERSION + 1) or not isinstance(version, int):
            raise UsageError(
                f"{where}: acceptance file version {version!r}; this prin-guard reads "
                f"versions 1 to {VERSION}"
            )
        for name, since in FIELDS_SINCE.items():
            if name in data and since > version:
                raise UsageError(
                    f"{where}: {name}: version-{version} files never had it (it came with "
                    f"version {since}): a file rewritten as an earlier version is refused. "
                    "Calibrate again"
                )
        key = _operator_key()
        given = data.pop(CHECKSUM_FIELD, None)
        signed = data.pop(SIGNATURE_FIELD, None)
        if given is None and version != 1:
            raise UsageError(
                f"{where}: {CHECKSUM_FIELD}: missing; a version-{version} file carries the "
                "digest of its content (calibrate writes it)"
            )
        try:
            acceptance = cls.model_validate_json(json.dumps(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            named = f"{field}: {message}" if field else message
            raise UsageError(f"{where}: {named}") from None
        if given is None:
            log().warning(
                "acceptance_no_digest",
                file=where,
                reason=f"version 1 carries no {CHECKSUM_FIELD}: an edit to it cannot be "
                f"seen; calibrate again to write a version-{VERSION} file",
            )
        elif given != content_sha256(data):
            raise UsageError(
                f"{where}: {CHECKSUM_FIELD}: the digest does not match the file's content: "
                "it was edited or damaged after calibrate wrote it. Rules or figures changed "
                "by hand carry no guarantee: calibrate again"
            )
        if key is not None:
            if signed is None:
                raise UsageError(
                    f"{where}: {SIGNATURE_FIELD}: missing; {ACCEPTANCE_KEY_VARIABLE} is set, "
                    "so an acceptance file must be signed with it (calibrate with the key set)"
                )
            if not isinstance(signed, str) or not hmac.compare_digest(
                signed.encode("utf-8", "replace"), signature(data, key).encode("ascii")
            ):
                raise UsageError(
                    f"{where}: {SIGNATURE_FIELD}: does not match the file's content under "
                    f"{ACCEPTANCE_KEY_VARIABLE}: edited after it was signed, or signed with "
                    "another key. Calibrate again with this key"
                )
        elif signed is not None:
            log().warning(
                "acceptance_signature_unchecked",
                file=where,
                reason=f"the file is signed, but {ACCEPTANCE_KEY_VARIABLE} is not set: "
                "its signature was not checked",
            )
        return acceptance

    def to_json(self) -> str:
        """The file's content: this acceptance as version :data:`VERSION`, with its digest
        ``content_sha256`` and, when the operator's key is set, its ``signature``."""
        key = _operator_key()
        data = self.model_dump(mode="json")
        data["version"] = VERSION
        data[CHECKSUM_FIELD] = content_sha256(data)
        if key is not None:
            data[SIGNATURE_FIELD] = signature(data, key)
        return dumps(data, indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    # -- applying ----------------------------------------------------------------

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(tier.rule for tier in self.tiers)

    def check_task(self, task: str, scale: Scale | None = None, form: str | None = None) -> None:
        """Raise :class:`~prin_guard.InvalidItemError` (naming ``task``) unless items of
        ``task`` are what this file was calibrated on, (naming ``scale``) unless a
        rating item's ``scale`` is one of the file's :attr:`scales`, and (naming ``form``)
        unless a review item's form (its identity, ``form_identity``) is one of the
        file's :attr:`forms`."""
        if task != self.task:
            raise InvalidItemError(
                "task",
                f"the item is a {task} item; the guard's acceptance file was calibrated on "
                f"{self.task} verdicts, and its guarantee says nothing of others (calibrate "
                f"on {task} items for a rule of their own)",
            )
        if scale is not None and task == "rating" and CalibratedScale.of(scale) not in self.scales:
            raise InvalidItemError(
                "scale",
                f"the item rates on {CalibratedScale.of(scale)}; the guard's acceptance "
                f"file was calibrated on {', '.join(map(str, self.scales))}, and its "
                "guarantee says nothing of another scale (calibrate on items of this one)",
            )
        if form is not None and task == "review" and form not in self.forms:
            raise InvalidItemError(
                "form",
                f"the item is reviewed in the form {form!r}; the guard's acceptance file was "
                f"calibrated on reviews in {', '.join(map(repr, self.forms))}, and its "
                "guarantee says nothing of another form (calibrate on reviews in this one)",
            )

    def decide(self, verdict: Verdict, tier: int = 0) -> Decision:
        """What tier ``tier``'s rule decides about ``verdict`` (that tier's judge's verdict).

        A verdict of another task than the file's is refused (:meth:`check_task`); an
        error verdict (no legs) is not accepted, whatever its task, nor is a review that
        gives no decision (its two legs disagree, or a reply was unread: wrong by
        :func:`decision_wrong`, whatever its signal)."""
        if not 0 <= tier < len(self.tiers):
            raise UsageError(
                f"tier: {tier} is not a tier of this acceptance (0..{len(self.tiers) - 1})"
            )
        if verdict.error is None:
            self.check_task(verdict.task)
        rule = self.tiers[tier].rule
        score = verdict_signal(verdict, rule.signal)
        return Decision(
            accepted=rule.accepts(score),
            score=score,
            rule=rule.text,
            tier=tier,
            tiers_asked=tier + 1,
        )

    def check_compatible(
        self,
        judges: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        options: Any,
    ) -> None:
        """Raise UsageError unless the guard asks the judges it was calibrated for, in
        the same order, with the same :data:`COMPARED_OPTIONS`.

        ``judges``: one identity per tier (``judge.identity()``), or one identity for a
        single tier. ``options``: a :class:`~prin_guard.GuardOptions` (or its dump)
        for every tier, or a sequence of them, one per tier.
        """
        given = [judges] if isinstance(judges, Mapping) else list(judges)
        if len(given) != len(self.tiers):
            raise UsageError(
                f"acceptance: calibrated for {_tiers(len(self.tiers))}; the guard has "
                f"{_tiers(len(given))}"
            )
        per_tier = list(options) if isinstance(options, list | tuple) else [options] * len(given)
        if len(per_tier) != len(self.tiers):
            raise UsageError(
                f"options: {len(per_tier)} given for {_tiers(len(self.tiers))} (one per tier)"
            )
        pairs = zip(self.tiers, given, per_tier, strict=True)
        for index, (tier, identity, opts) in enumerate(pairs):
            where = f"acceptance: tier {index}" if len(self.tiers) > 1 else "acceptance"
            differ = _differences(tier.judge, dict(identity))
            if differ:
                raise UsageError(
                    f"{where} was calibrated for another judge ({differ}); calibrate again "
                    "for this judge"
                )
            view = _options_view(opts, self.task)
            bound = _options_view(tier.options, self.task)  # read as a guard's are
            # every bound option, even one a tier somehow lacks: absent is no wildcard
            for name in compared_options(self.task):
                if name not in bound:
                    raise UsageError(f"{where}: the file does not record the option {name!r}")
                calibrated = bound[name]
                if name not in view:
                    raise UsageError(f"{where}: options lack {name!r} (calibrated {calibrated!r})")
                if _normal(view[name]) != _normal(calibrated):
                    raise UsageError(
                        f"{where} was calibrated with {name}={_show(calibrated)}; this guard "
                        f"has {name}={_show(view[name])} (a verdict's scores or sets differ "
                        "between them: calibrate again)"
                    )


# -- what calibration can have written ----------------------------------------------------


def inconsistency(acceptance: Acceptance) -> str | None:
    """The first way ``acceptance`` differs from anything calibrate can write, as
    ``field: why``; ``None`` when it is consistent.

    Calibrate tests the guarantee on ``tested`` of the ``n`` items (all of them for one
    tier, but for the ``selection`` part kept apart to choose its signal) and counts
    ``accepted`` and ``errors`` there; ``coverage`` is their ratio, the
    p-value ``P(Binomial(accepted, alpha) <= errors)`` and, for a rule it certifies, at
    most the level it was tested at (``delta`` split between the signals of one tier;
    at most ``delta`` for a cascade's chains). A rule that accepts something needs
    :func:`min_items` accepted verdicts, and calibrate refuses fewer items than that.
    A file accepts nothing exactly when every rule is ``never`` and there is no
    p-value. The tiers' shares are counts of the tested items: the first tier is asked
    about every item, each next one about those the previous did not accept, and
    together they accept ``accepted``.
    """
    acc = acceptance
    n, tested, accepted, errors = acc.n, acc.tested, acc.accepted, acc.errors
    one = acc.method == "fixed_sequence"
    expected = error_of(acc.task)
    if acc.error != expected:
        return (
            f"error: {acc.error!r} for {acc.task} verdicts (a rating's error is 'rating', "
            "a ranking's 'ranking', a review's 'decision', every other task's 'set')"
        )
    if (acc.task == "review") != bool(acc.forms):
        if not acc.forms:
            return "forms: missing; a review file records the review forms it was calibrated on"
        return f"forms: {list(acc.forms)}, but a {acc.task} file has no review form"
    if len(set(acc.forms)) != len(acc.forms):
        return f"forms: {list(acc.forms)} names a form twice"
    if acc.min_tau is not None and acc.task != "ranking":
        return f"min_tau: {acc.min_tau!r}, but a {acc.task} file has no ranking"
    if (acc.error == "rating") != (acc.tolerance is not None):
        if acc.tolerance is None:
            return "tolerance: missing; a rating file says how far from the human score is right"
        return f"tolerance: {acc.tolerance!r}, but a {acc.task} file has no tolerance"
    if (acc.task == "rating") != bool(acc.scales):
        if not acc.scales:
            return (
                "scales: missing; a rating file records the scales it was calibrated on "
                "(files before version 3 did not: calibrate again)"
            )
        return f"scales: {[str(s) for s in acc.scales]}, but a {acc.task} file has no scale"
    if len(set(acc.scales)) != len(acc.scales):
        return f"scales: {[str(s) for s in acc.scales]} names a scale twice"
    if tested > n:
        return f"tested: {tested} items tested of {n} calibration items (tested <= n)"
    if accepted > tested:
        return f"accepted: {accepted} accepted of {tested} tested (accepted <= tested)"
    if errors > accepted:
        return f"errors: {errors} wrong of {accepted} accepted (errors <= accepted)"
    if not math.isclose(acc.coverage, accepted / tested, abs_tol=_SHARE_TOLERANCE):
        return f"coverage: {acc.coverage!r} is not accepted / tested ({accepted} / {tested})"
    if one and len(acc.tiers) != 1:
        return f"method: fixed_sequence calibrates one tier; the file has {len(acc.tiers)}"
    if not one and len(acc.tiers) < 2 and not acc.selection:
        # a cascade's file of one tier is one whose idle tiers were left out: tested on
        # the test part, the path part kept apart
        return (
            "method: pareto_fixed_sequence calibrates a cascade on a part of the items; "
            "the file has one tier and tests every item"
        )
    if acc.selection and tested != n - acc.selection:
        return (
            f"tested: {tested} items tested; {n} items less the {acc.selection} of the "
            f"selection part are {n - acc.selection}"
        )
    if one and tested != n - acc.selection:
        return f"tested: one tier is tested on all {n} items, not {tested}"
    if acc.runs and len(acc.runs) != len(acc.tiers):
        return f"runs: {len(acc.runs)} lists of run directories for {_tiers(len(acc.tiers))}"
    if len(set(acc.signals_tested)) != len(acc.signals_tested):
        return f"signals_tested: {list(acc.signals_tested)} names a signal twice"
    if len(set(acc.signals_compared)) != len(acc.signals_compared):
        return f"signals_compared: {list(acc.signals_compared)} names a signal twice"
    if acc.signals_compared and not set(acc.signals_tested) <= set(acc.signals_compared):
        return (
            f"signals_tested: {list(acc.signals_tested)} were not all compared "
            f"({list(acc.signals_compared)})"
        )
    if one and acc.signals_compared and not acc.selection:
        return "selection: 0, but one tier compared signals (it does so on a part kept apart)"
    for k, tier in enumerate(acc.tiers):
        if tier.rule.signal not in acc.signals_tested:
            return f"tiers.{k}.rule.signal: {tier.rule.signal!r} is not among signals_tested"
    level = acc.delta / len(acc.signals_tested) if one else acc.delta
    need = min_items(acc.alpha, level)
    if tested < need:
        return (
            f"tested: {tested} items cannot certify any rule at alpha={acc.alpha}, "
            f"delta={acc.delta} (at least {need})"
        )
    never = all(tier.rule.threshold is None for tier in acc.tiers)
    if never and accepted:
        return f"accepted: {accepted}, but every rule accepts nothing (threshold null)"
    if not never and not accepted:
        return "accepted: 0, but a rule has a threshold (calibrate writes null when none passes)"
    if (acc.p_value is None) != (accepted == 0):
        return f"p_value: {acc.p_value!r}; it is null exactly when nothing is accepted"
    if acc.p_value is not None:
        exact = binomial_cdf(errors, accepted, acc.alpha)
        if not math.isclose(acc.p_value, exact, rel_tol=_P_TOLERANCE, abs_tol=1e-12):
            return (
                f"p_value: {acc.p_value!r} is not P(Binomial({accepted}, {acc.alpha}) <= "
                f"{errors}) = {exact:.6g}"
            )
        if acc.p_value > level:
            return (
                f"p_value: {acc.p_value!r} is above {level:.6g}, the level the rule was tested "
                "at: calibration does not certify such a rule"
            )
    return _tier_inconsistency(acc)


def _tier_inconsistency(acc: Acceptance) -> str | None:
    tested = acc.tested
    counts: list[tuple[int, int]] = []
    for k, tier in enumerate(acc.tiers):
        pair = []
        for name in ("asked", "accepted"):
            share = getattr(tier, name)
            count = round(share * tested)
            if abs(share * tested - count) > 1e-6:
                return f"tiers.{k}.{name}: {share!r} is not a share of the {tested} tested items"
            pair.append(count)
        asked, accepted = pair
        if accepted > asked:
            return f"tiers.{k}.accepted: {tier.accepted!r}, more than it was asked ({tier.asked!r})"
        if tier.rule.threshold is None and accepted:
            return f"tiers.{k}.accepted: {tier.accepted!r}, but its rule accepts nothing"
        counts.append((asked, accepted))
    if counts[0][0] != tested:
        return f"tiers.0.asked: {acc.tiers[0].asked!r}; the first tier is asked about every item"
    for k in range(1, len(counts)):
        reach = counts[k - 1][0] - counts[k - 1][1]
        if counts[k][0] > counts[k - 1][0]:
            return f"tiers.{k}.asked: {acc.tiers[k].asked!r}, more than tier {k - 1} was asked"
        # Accepting nothing, every tier is asked about every item; version 1 wrote 0
        # for the later tiers then, which is harmless: they accept nothing either.
        if acc.accepted and counts[k][0] != reach:
            return (
                f"tiers.{k}.asked: {acc.tiers[k].asked!r}; tier {k - 1} left "
                f"{reach / tested!r} of the items to it"
            )
    total = sum(accepted for _, accepted in counts)
    if total != acc.accepted:
        return f"tiers: the tiers accept {total} items in all; accepted is {acc.accepted}"
    return None


def _too_big(where: str, size: int) -> UsageError:
    return UsageError(
        f"{where}: {size:,} bytes; an acceptance file is at most {MAX_FILE_BYTES:,} bytes "
        "(calibrate writes a few kilobytes): not an acceptance file"
    )


def _tiers(n: int) -> str:
    return "1 tier" if n == 1 else f"{n} tiers"


def _options_view(options: Any, task: str = "choice") -> dict[str, Any]:
    data: Any = None
    raw = getattr(options, "template", None)
    if isinstance(options, Mapping):
        raw = options.get("template")
    dump = getattr(options, "model_dump", None)
    if callable(dump):
        data = dump(mode="json")
    elif isinstance(options, Mapping):
        data = json.loads(json.dumps(dict(options), default=str))
    if not isinstance(data, dict):
        raise UsageError(
            f"options: expected GuardOptions or a mapping, got {type(options).__name__}"
        )
    if "template" in data and data["template"] is None:
        # no template named: the task's default, which is what calibration ran with (a
        # rating's: prin-guard's own wording, recorded as no template, as files written
        # before it was the template 'rating' say)
        data["template"] = None if task == "rating" else DEFAULT_TEMPLATES.get(task)
    if isinstance(raw, Template):
        data["template"] = _template_identity(raw)
    elif data.get("template") is not None:
        data["template"] = _template_identity(data["template"])
    if "checks" in data and data["checks"] is None:
        # no checks named: the task's default, as a guard runs them
        data["checks"] = list(DEFAULT_CHECKS[task])  # type: ignore[index]
    view: dict[str, Any] = {**_LATER_OPTIONS, **data}
    if task != "choice":
        # the task templates put what the legs share first in either layout
        view["prompt_layout"] = _LATER_OPTIONS["prompt_layout"]
    return view


def _template_identity(template: Any) -> Any:
    """A bundled template by its id (its words are fixed by id and version); a pack or a
    prompt of one's own by id, version and the hash of every word it says, so that an
    acceptance file refuses a template edited since calibration."""
    if isinstance(template, str) and template in TEMPLATES:
        return template
    try:
        if isinstance(template, Template):
            chosen = template
        elif isinstance(template, Mapping):
            chosen = Template.from_mapping(template)
        else:
            chosen = get_template(template)
    except UsageError:
        return template  # compared as written; a bad template fails where it is used
    if chosen.builtin:
        return chosen.id
    return f"{chosen.id}@{chosen.version} sha256:{template_digest(chosen)}"


def _normal(value: Any) -> Any:
    # lists in the compared options are sets (mitigations, checks): order is not meaning
    value = json.loads(json.dumps(value, default=str))
    if isinstance(value, list):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    return value


def _show(value: Any) -> str:
    return json.dumps(value, default=str, sort_keys=True)


def _differences(calibrated: Mapping[str, Any], given: Mapping[str, Any]) -> str:
    keys = sorted(set(calibrated) | set(given))
    parts = []
    for key in keys:
        a, b = calibrated.get(key, "<absent>"), given.get(key, "<absent>")
        if _show(a) != _show(b):
            parts.append(f"{key}: calibrated {_show(a)}, given {_show(b)}")
    return "; ".join(parts[:3]) + ("; ..." if len(parts) > 3 else "")
