"""The ``checks`` section of a summary, from per-item records. Pure, no I/O.

Measured on the base configuration's verdicts (the only ones the runner asks in a
second order). A verdict is wrong when its ``correct`` set (what the guard hands
the caller, under its policy) is not the gold set; items with unknown gold count
for every rate and distribution but not for flag and score quality. The metrics
and their edge cases are those of :mod:`prin_guard.eval._signals`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from prin_guard._models import Flag
from prin_guard._reconcile import f1
from prin_guard.eval._checks_models import (
    ChecksSummary,
    ConfidenceSummary,
    FlagSignalSummary,
    OrderSummary,
    PanelSummary,
    PositionSummary,
    ScoreSignalSummary,
    SignalPoint,
)
from prin_guard.eval._metrics import mean
from prin_guard.eval._signals import (
    Riskier,
    flag_signal,
    fleiss_kappa,
    position_share,
    quantile,
    signal_auroc,
    signal_curve,
)

__all__ = ["checks_block", "verdict_legs"]

Record = Mapping[str, Any]

# the flag each check raises; a panel's flags when the verdicts have members
_CHECK_FLAGS = {
    "reverse": (Flag.INCONSISTENT,),
    "order": (Flag.ORDER_SENSITIVE,),
    "confidence": (Flag.LOW_CONFIDENCE,),
}
_PANEL_FLAGS = (Flag.PANEL_SPLIT, Flag.PANEL_ABSTENTION)
_ROLES = ("direct", "reverse", "direct_permuted", "reverse_permuted")


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def verdict_legs(verdict: Record) -> Iterator[Record]:
    """Every leg a verdict record holds: its own, its second-order ones, its members'."""
    owners = [verdict, *verdict.get("members", ())]
    for owner in owners:
        for leg in (owner.get("direct"), owner.get("reverse"), *owner.get("permuted", ())):
            if leg:
                yield leg


def _role(leg: Record) -> str:
    return str(leg["polarity"]) + ("_permuted" if leg.get("order") else "")


def _scores(verdict: Record) -> Mapping[str, Any]:
    scores: Mapping[str, Any] = verdict.get("scores") or {}
    return scores


def _prin(verdict: Record) -> float | None:
    value = _scores(verdict).get("prin")
    return verdict.get("prin_score") if value is None else value


def _wrong(record: Record, verdict: Record) -> bool:
    return set(verdict["correct"]) != set(record["gold"])


def checks_block(records: Sequence[Record], config: str) -> ChecksSummary | None:
    """The checks of ``config``'s verdicts; None for records written before verdicts
    recorded their checks."""
    verdicts = [r["configs"][config] for r in records]
    if not verdicts or not any("checks" in v for v in verdicts):
        return None
    checks = tuple(dict.fromkeys(c for v in verdicts for c in v.get("checks", ("reverse",))))
    paneled = any(v.get("members") for v in verdicts)
    fields: dict[str, Any] = {
        "config": config,
        "checks": checks,
        "verdicts": len(verdicts),
        "scored": sum(bool(r.get("gold_known", True)) for r in records),
    }
    if "order" in checks:
        fields["order"] = _order(verdicts)
    fields["position_bias"] = _position_bias(records, verdicts)
    if paneled:
        fields["panel"] = _panel(records, verdicts)
    confidence = _confidence(verdicts)
    if confidence is not None:
        fields["confidence"] = confidence
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    fields["flag_quality"] = _flag_quality(scored, checks, paneled)
    fields["score_quality"] = _score_quality(scored, checks, paneled, confidence is not None)
    return ChecksSummary(**fields)


def _pairs(verdict: Record, polarity: str) -> Iterator[tuple[Record, Record]]:
    """A first-order leg and its second-order twin, per owner (the verdict, each member),
    when both answers were read (as the guard compares them: an unreadable answer is
    flagged unparseable, not taken for a change of mind)."""
    for owner in (verdict, *verdict.get("members", ())):
        first = owner.get(polarity)
        for leg in owner.get("permuted", ()):
            if first and leg and leg["polarity"] == polarity and _read(first) and _read(leg):
                yield first, leg


def _read(leg: Record) -> bool:
    return bool(leg["parse_status"] != "failed")


def _order(verdicts: Sequence[Record]) -> OrderSummary:
    values = [
        v for verdict in verdicts if (v := _scores(verdict).get("order_inconsistency")) is not None
    ]
    by_polarity = {
        polarity: mean(
            1.0 - f1(a["labels"], b["labels"]) for v in verdicts for a, b in _pairs(v, polarity)
        )
        for polarity in ("direct", "reverse")
    }
    n = len(verdicts)
    return OrderSummary(
        verdicts=len(values),
        inconsistency=_round(mean(values)),
        direct=_round(by_polarity["direct"]),
        reverse=_round(by_polarity["reverse"]),
        changed_rate=_round(sum(v > 0 for v in values) / len(values)) if values else None,
        flag_rate=_round(sum(Flag.ORDER_SENSITIVE.value in v["flags"] for v in verdicts) / n),
    )


def _position_bias(
    records: Sequence[Record], verdicts: Sequence[Record]
) -> dict[str, PositionSummary]:
    shown: dict[str, list[tuple[Sequence[str], Sequence[str]]]] = {}
    original: dict[str, list[tuple[Sequence[str], Sequence[str]]]] = {}
    for record, verdict in zip(records, verdicts, strict=True):
        for leg in verdict_legs(verdict):
            if not _read(leg):
                continue
            role = _role(leg)
            shown.setdefault(role, []).append((leg.get("order") or record["labels"], leg["labels"]))
            original.setdefault(role, []).append((record["labels"], leg["labels"]))
    out: dict[str, PositionSummary] = {}
    for role in sorted(shown, key=lambda r: _ROLES.index(r) if r in _ROLES else len(_ROLES)):
        share = position_share(shown[role])
        out[role] = PositionSummary(
            answers=share.answers,
            first_shown=_round(share.first_shown),
            expected=_round(share.expected),
            item_first=(
                _round(position_share(original[role]).first_shown)
                if role.endswith("_permuted")
                else None
            ),
        )
    return out


def _panel(records: Sequence[Record], verdicts: Sequence[Record]) -> PanelSummary:
    names: list[str] = []
    counts: list[tuple[int, int]] = []
    answers = abstained = 0
    votes: dict[str, list[bool]] = {}
    for record, verdict in zip(records, verdicts, strict=True):
        members = verdict.get("members", ())
        voting = [m for m in members if not m.get("abstained")]
        answers += len(members)
        abstained += len(members) - len(voting)
        for member in members:
            if member["judge"] not in names:
                names.append(member["judge"])
        for label in record["labels"]:
            yes = sum(label in m["correct"] for m in voting)
            counts.append((yes, len(voting) - yes))
        if record.get("gold_known", True):
            for member in voting:
                votes.setdefault(member["judge"], []).append(
                    set(member["correct"]) == set(record["gold"])
                )
    agreement = fleiss_kappa(counts)
    n = len(verdicts)
    return PanelSummary(
        members=tuple(names),
        kappa=_round(agreement.kappa),
        observed_agreement=_round(agreement.observed),
        expected_agreement=_round(agreement.expected),
        subjects=agreement.subjects,
        abstention_rate=_round(abstained / answers) if answers else None,
        split_rate=_round(sum(Flag.PANEL_SPLIT.value in v["flags"] for v in verdicts) / n),
        member_accuracy={name: _round(mean(map(float, votes.get(name, [])))) for name in names},
    )


def _confidence(verdicts: Sequence[Record]) -> ConfidenceSummary | None:
    legs = [leg for v in verdicts for leg in verdict_legs(v) if leg.get("confidence") is not None]
    values = [c for v in verdicts if (c := _scores(v).get("confidence")) is not None]
    if not legs and not values:
        return None
    histogram = [0] * 10
    for value in values:
        histogram[min(int(value * 10), 9)] += 1
    quartiles = tuple(_round(quantile(values, q)) for q in (0.0, 0.25, 0.5, 0.75, 1.0))
    low = sum(Flag.LOW_CONFIDENCE.value in v["flags"] for v in verdicts)
    return ConfidenceSummary(
        verdicts=len(values),
        legs=len(legs),
        mean=_round(mean(values)),
        quartiles=quartiles,
        histogram=tuple(histogram),
        low_rate=_round(low / len(verdicts)),
    )


def _flag_quality(
    scored: Sequence[tuple[Record, Record]], checks: Sequence[str], paneled: bool
) -> dict[str, FlagSignalSummary]:
    wanted = {flag for check in checks for flag in _CHECK_FLAGS.get(check, ())}
    if paneled:
        wanted.update(_PANEL_FLAGS)
    raised = {flag for _, v in scored for flag in v["flags"]}
    wrong = [_wrong(r, v) for r, v in scored]
    out: dict[str, FlagSignalSummary] = {}
    for flag in Flag:
        if flag in wanted or flag.value in raised:
            out[flag.value] = _flag_cell([flag.value in v["flags"] for _, v in scored], wrong)
    out["any"] = _flag_cell([bool(v["flags"]) for _, v in scored], wrong)
    return out


def _flag_cell(flagged: Sequence[bool], wrong: Sequence[bool]) -> FlagSignalSummary:
    signal = flag_signal(flagged, wrong)
    quality = signal.quality
    return FlagSignalSummary(
        flagged=quality.flagged,
        unflagged=quality.unflagged,
        share_flagged=_round(signal.share_flagged),
        error_rate_flagged=_round(quality.error_rate_flagged),
        error_rate_unflagged=_round(quality.error_rate_unflagged),
        lift=_round(quality.lift),
        auroc=_round(signal.auroc),
    )


def _score_quality(
    scored: Sequence[tuple[Record, Record]], checks: Sequence[str], paneled: bool, confident: bool
) -> dict[str, ScoreSignalSummary]:
    signals: list[tuple[str, Riskier]] = [("prin", "higher")]
    if "order" in checks:
        signals.append(("order_inconsistency", "higher"))
    if paneled:
        signals.append(("panel_agreement", "lower"))
    if confident:
        signals.append(("confidence", "lower"))
    wrong = [_wrong(r, v) for r, v in scored]
    out: dict[str, ScoreSignalSummary] = {}
    for name, riskier in signals:
        values = [_prin(v) if name == "prin" else _scores(v).get(name) for _, v in scored]
        curve = signal_curve(values, [not w for w in wrong], riskier)
        present = sum(v is not None for v in values)
        out[name] = ScoreSignalSummary(
            riskier=riskier,
            verdicts=present,
            missing=len(values) - present,
            auroc=_round(signal_auroc(values, wrong, riskier)),
            coverage_curve=tuple(
                SignalPoint(
                    threshold=round(p.threshold, 4),
                    coverage=round(p.coverage, 4),
                    accuracy=_round(p.accuracy),
                    kept=p.kept,
                )
                for p in curve
            ),
        )
    return out
