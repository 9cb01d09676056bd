"""Calibrated acceptance: which verdicts to accept, which to escalate, which to send to a human.

An :class:`Acceptance` is what ``prin-guard calibrate`` writes (the method is in
:mod:`prin_guard.calibrate` and docs/calibration.md): one :class:`Rule` per tier of a
cascade of judges, the error level ``alpha`` it guarantees with probability
``1 - delta``, and the judge identity and options each tier was calibrated for. This
module only reads, checks and applies the file; it needs neither numpy nor scipy, so
a guard that applies a rule imports nothing heavy.

A rule compares one signal of a verdict with a threshold. The signals form a fixed
registry (:data:`SIGNALS`), each with the direction in which it is good:

========================  =========  ================================================
signal                    accepts    read from the verdict
========================  =========  ================================================
``prin``                  ``<= t``   ``scores.prin`` (``prin_score`` for old records)
``order_inconsistency``   ``<= t``   ``scores.order_inconsistency`` (``order`` check)
``inconsistency``         ``<= t``   the larger of the two above, where present
``panel_agreement``       ``>= t``   ``scores.panel_agreement`` (a panel)
``confidence``            ``>= t``   ``scores.confidence`` (``confidence`` check)
========================  =========  ================================================

A verdict whose signal is missing (no legs, a judge error, a check that did not run)
is never accepted. A rule with threshold ``None`` accepts nothing: calibration found
no threshold that meets the guarantee.

An acceptance file holds for the judge and the options it was calibrated with and
nothing else: :meth:`Acceptance.check_compatible` raises
:class:`~prin_guard.UsageError` naming the first difference. The options compared are
those that change a verdict's correct set or its scores (:data:`COMPARED_OPTIONS`);
limits, the consistency threshold, ``min_confidence`` and the probe do not.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from prin_guard._exceptions import UsageError
from prin_guard._kinds import Frozen
from prin_guard._verdict import Decision, Verdict

__all__ = [
    "COMPARED_OPTIONS",
    "FORMAT",
    "SIGNALS",
    "Acceptance",
    "Rule",
    "Signal",
    "SignalName",
    "Tier",
    "signal_value",
]

FORMAT: Literal["prin-guard-acceptance"] = "prin-guard-acceptance"
SignalName = Literal[
    "prin", "order_inconsistency", "inconsistency", "panel_agreement", "confidence"
]
COMPARED_OPTIONS: tuple[str, ...] = ("template", "mitigations", "policy", "checks")
"""The guard options an acceptance file is bound to: they change the verdict's correct
set (``policy``) or its scores (the prompt wording, the mitigations, the checks run)."""


@dataclass(frozen=True, slots=True)
class Signal:
    """One number of a verdict that an acceptance rule may compare with a threshold."""

    name: SignalName
    higher_is_better: bool
    """``confidence`` and ``panel_agreement``: accept at or above the threshold; the
    inconsistency scores: accept at or under it."""
    read: Callable[[Verdict], float | None]
    doc: str

    @property
    def op(self) -> str:
        return ">=" if self.higher_is_better else "<="


def _prin(verdict: Verdict) -> float | None:
    return verdict.scores.prin if verdict.scores.prin is not None else verdict.prin_score


def _inconsistency(verdict: Verdict) -> float | None:
    present = [v for v in (_prin(verdict), verdict.scores.order_inconsistency) if v is not None]
    return max(present) if present else None


SIGNALS: dict[str, Signal] = {
    signal.name: signal
    for signal in (
        Signal("prin", False, _prin, "Prompt-Reverse Inconsistency, 0 consistent to 1"),
        Signal(
            "order_inconsistency",
            False,
            lambda v: v.scores.order_inconsistency,
            "1 - F1 between the answers in two candidate orders (the order check)",
        ),
        Signal(
            "inconsistency",
            False,
            _inconsistency,
            "the larger of prin and order_inconsistency, over those present",
        ),
        Signal(
            "panel_agreement",
            True,
            lambda v: v.scores.panel_agreement,
            "a panel's observed agreement over the candidates, 1 unanimous",
        ),
        Signal(
            "confidence",
            True,
            lambda v: v.scores.confidence,
            "the judge's own probability of its answer (the confidence check)",
        ),
    )
}
"""Every signal a rule may use, by name (registry order: the order ``auto`` tries them)."""


def signal_value(verdict: Verdict, signal: str) -> float | None:
    """The verdict's value of ``signal``; ``None`` when it has none (or is an error)."""
    if verdict.error is not None:
        return None
    value = SIGNALS[signal].read(verdict)
    return None if value is None or math.isnan(value) else float(value)


class Rule(Frozen):
    """Accept a verdict when its signal is on the good side of the threshold."""

    signal: SignalName
    threshold: float | None
    """Accept at or under it (at or above for ``confidence``, ``panel_agreement``);
    ``None``: accept nothing."""

    @field_validator("threshold")
    @classmethod
    def _finite(cls, value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise ValueError("must be a finite number or null")
        return value

    @property
    def text(self) -> str:
        """The rule as people read it: ``prin <= 0.0``, ``confidence >= 0.93``, ``prin: never``."""
        if self.threshold is None:
            return f"{self.signal}: never"
        return f"{self.signal} {SIGNALS[self.signal].op} {self.threshold!r}"

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
    """The guard options of the calibration runs that an acceptance is bound to
    (:data:`COMPARED_OPTIONS`)."""
    rule: Rule
    asked: float = Field(ge=0.0, le=1.0)
    """Share of the tested calibration items that reached this tier."""
    accepted: float = Field(ge=0.0, le=1.0)
    """Share of the tested calibration items this tier accepted."""


class Acceptance(Frozen):
    """A calibrated acceptance rule per tier, with the guarantee it was calibrated for.

    With probability at least ``1 - delta`` over the draw of the calibration items, a
    future item exchangeable with them is wrongly judged, given that the cascade
    accepts it, with probability at most ``alpha`` (docs/calibration.md says what that
    does and does not cover).
    """

    format: Literal["prin-guard-acceptance"] = FORMAT
    version: Literal[1] = 1
    alpha: float = Field(gt=0.0, lt=1.0)
    """Largest error rate among accepted verdicts that is guaranteed."""
    delta: float = Field(gt=0.0, lt=1.0)
    """Probability that the calibration draw misleads (the guarantee fails)."""
    error: Literal["set"] = "set"
    """An accepted verdict is an error when its ``correct`` set differs from the gold set."""
    n: int = Field(ge=1)
    """Calibration items (with a gold set) the file was fitted on."""
    tested: int = Field(ge=1)
    """Of those, the items the guarantee was tested on (all of them for one tier; the
    items left after the path split for a cascade)."""
    accepted: int = Field(ge=0)
    """Tested items the chosen rules accept."""
    errors: int = Field(ge=0)
    """Accepted tested items whose verdict is wrong."""
    coverage: float = Field(ge=0.0, le=1.0)
    """``accepted / tested``: the share of items decided without a human."""
    p_value: float | None = None
    """The binomial p-value of the chosen rules (``None`` when nothing is accepted)."""
    method: Literal["fixed_sequence", "pareto_fixed_sequence"]
    """``fixed_sequence`` for one tier; ``pareto_fixed_sequence`` for a cascade."""
    signals_tested: tuple[str, ...]
    """The signals calibration chose among (``delta`` split evenly between them)."""
    tiers: tuple[Tier, ...] = Field(min_length=1)
    """One per judge, cheapest first."""
    calibration_sha256: str
    """sha256 of the calibration items: ids, gold sets, verdicts' sets and signals."""
    runs: tuple[tuple[str, ...], ...] = ()
    """The eval run directories read, per tier."""
    seed: int | None = None
    """Seed of the path split (cascades) and of any hold-out split."""
    created_with: str = ""
    """The prin-guard version that wrote the file."""

    # -- files -------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> Acceptance:
        """Read an acceptance file, or raise UsageError saying what is wrong with it."""
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"acceptance: cannot read {str(file)!r}: {exc.strerror}") from None
        return cls.from_json(text, where=str(file))

    @classmethod
    def from_json(cls, text: str, *, where: str = "acceptance") -> Acceptance:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise UsageError(f"{where}: not a prin-guard acceptance file (format {FORMAT!r})")
        if data.get("version") != 1:
            raise UsageError(
                f"{where}: acceptance file version {data.get('version')!r}; this prin-guard "
                "reads version 1"
            )
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "file"
            message = str(first["msg"]).removeprefix("Value error, ")
            raise UsageError(f"{where}: {field}: {message}") from None

    def to_json(self) -> str:
        return self.model_dump_json(indent=2) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    # -- applying ----------------------------------------------------------------

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(tier.rule for tier in self.tiers)

    def decide(self, verdict: Verdict, tier: int = 0) -> Decision:
        """What tier ``tier``'s rule decides about ``verdict`` (that tier's judge's verdict)."""
        if not 0 <= tier < len(self.tiers):
            raise UsageError(
                f"tier: {tier} is not a tier of this acceptance (0..{len(self.tiers) - 1})"
            )
        rule = self.tiers[tier].rule
        score = signal_value(verdict, rule.signal)
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
            view = _options_view(opts)
            for name, calibrated in tier.options.items():
                if name not in view:
                    raise UsageError(f"{where}: options lack {name!r} (calibrated {calibrated!r})")
                if _normal(view[name]) != _normal(calibrated):
                    raise UsageError(
                        f"{where} was calibrated with {name}={_show(calibrated)}; this guard "
                        f"has {name}={_show(view[name])} (a verdict's scores or sets differ "
                        "between them: calibrate again)"
                    )


def _tiers(n: int) -> str:
    return "1 tier" if n == 1 else f"{n} tiers"


def _options_view(options: Any) -> dict[str, Any]:
    dump = getattr(options, "model_dump", None)
    if callable(dump):
        data = dump(mode="json")
        if isinstance(data, dict):
            return data
    if isinstance(options, Mapping):
        data = json.loads(json.dumps(dict(options), default=str))
        if isinstance(data, dict):
            return data
    raise UsageError(f"options: expected GuardOptions or a mapping, got {type(options).__name__}")


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
