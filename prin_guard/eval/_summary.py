"""From per-item records (``items.jsonl``) to the numbers a report shows.

Pure: no judge, no I/O besides reading records handed in. ``prin-guard report``
re-renders a run from its ``items.jsonl`` through this module, so a report can
be rebuilt (or compared with another run) without calling any judge.

Items whose judge failed (``error`` in the record) are counted and left out of
every metric. Items with unknown gold (generic JSONL ``"gold": null``) count for
PRIN and inconsistency metrics but not for accuracy.

The summary is an :class:`~prin_guard.eval._summary_models.EvalSummary`; its JSON
dump is what ``summary.json`` holds. Its ``checks`` section (order inconsistency,
position bias, panel agreement, confidence, every signal's quality) comes from
:mod:`prin_guard.eval._summary_checks`, for records whose verdicts record their
checks. A panel's verdict has no direct or reverse leg of its own: its direct,
reverse and synergy sets are what a strict majority of all its members' sets hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from prin_guard._models import Flag
from prin_guard.eval._metrics import (
    FlagQuality,
    accuracy,
    auroc,
    coverage_curve,
    distinct_ratio,
    flag_quality,
    mean,
    mean_f1,
    mean_std,
    self_consistency,
)
from prin_guard.eval._summary_checks import checks_block, verdict_legs
from prin_guard.eval._summary_models import (
    ConfigSummary,
    CostSummary,
    CurvePoint,
    EvalRunConfig,
    EvalRunInfo,
    EvalSummary,
    Failure,
    FlagCounts,
    FlagQualitySummary,
    MethodScore,
    OptionCountPrin,
    RepeatsSummary,
    SelfConsistencySummary,
)

__all__ = ["summarize"]

_BASE = "none"


def _labels(leg: Mapping[str, Any] | None) -> tuple[str, ...]:
    return tuple(leg["labels"]) if leg else ()


def _implied(verdict: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(verdict["reverse_implied"])


def _synergy(verdict: Mapping[str, Any]) -> tuple[str, ...]:
    implied = set(verdict["reverse_implied"])
    return tuple(label for label in _labels(verdict["direct"]) if label in implied)


def _method_sets(verdict: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    if verdict.get("members") and verdict["direct"] is None:
        return _panel_sets(verdict)
    return {
        "direct": _labels(verdict["direct"]),
        "reverse": _implied(verdict),
        "synergy": _synergy(verdict),
    }


def _panel_sets(verdict: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """A panel's sets by method: what a strict majority of *all* its members' sets
    holds, abstaining members counted, as the panel reconciles its verdict."""
    members = verdict["members"]
    every = verdict["labels"]
    sets: dict[str, list[set[str]]] = {"direct": [], "reverse": [], "synergy": []}
    for member in members:
        if member.get("abstained") or not member["direct"] or not member["reverse"]:
            continue
        direct = set(member["direct"]["labels"])
        implied = set(every) - set(member["reverse"]["labels"])
        sets["direct"].append(direct)
        sets["reverse"].append(implied)
        sets["synergy"].append(direct & implied)
    return {
        method: tuple(label for label in every if 2 * sum(label in s for s in votes) > len(members))
        for method, votes in sets.items()
    }


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _config_block(
    records: Sequence[Mapping[str, Any]], key: str, set_valued: bool
) -> ConfigSummary:
    verdicts = [r["configs"][key] for r in records]
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    golds = [r["gold"] for r, _ in scored]
    methods: dict[str, MethodScore] = {}
    for method in ("direct", "reverse", "synergy"):
        chosen = [_method_sets(v)[method] for _, v in scored]
        methods[method] = MethodScore(
            accuracy=_round(accuracy(chosen, golds)),
            f1=_round(mean_f1(chosen, golds)) if set_valued else None,
        )
    flags: Counter[str] = Counter()
    for verdict in verdicts:
        flags.update(verdict["flags"])
    n = len(verdicts)
    prin_values = [v["prin_score"] for v in verdicts]
    return ConfigSummary(
        prin=_round(mean(prin_values)),
        consistent_rate=_round(mean(float(v["consistent"]) for v in verdicts)),
        methods=methods,
        flag_rates={
            flag.value: _round(flags[flag.value] / n) if n else None
            for flag in Flag
            if flag.value in flags
        },
    )


def _flag_counts(quality: FlagQuality) -> FlagCounts:
    return FlagCounts(
        flagged=quality.flagged,
        unflagged=quality.unflagged,
        error_rate_flagged=_round(quality.error_rate_flagged),
        error_rate_unflagged=_round(quality.error_rate_unflagged),
        lift=_round(quality.lift),
    )


def _flag_quality_block(records: Sequence[Mapping[str, Any]], key: str) -> FlagQualitySummary:
    scored = [r for r in records if r.get("gold_known", True)]
    verdicts = [r["configs"][key] for r in scored]
    wrong = [
        set(_method_sets(v)["synergy"]) != set(r["gold"])
        for r, v in zip(scored, verdicts, strict=True)
    ]
    flagged = [Flag.INCONSISTENT.value in v["flags"] for v in verdicts]
    any_flag = [bool(v["flags"]) for v in verdicts]
    prin = [v["prin_score"] for v in verdicts]
    curve = coverage_curve(prin, [not w for w in wrong])
    return FlagQualitySummary(
        config=key,
        inconsistent_flag=_flag_counts(flag_quality(flagged, wrong)),
        any_flag=_flag_counts(flag_quality(any_flag, wrong)),
        auroc_prin_predicts_wrong=_round(auroc(prin, wrong)),
        coverage_curve=tuple(
            CurvePoint(
                threshold=round(p.threshold, 4),
                coverage=round(p.coverage, 4),
                accuracy=_round(p.accuracy),
                kept=p.kept,
            )
            for p in curve
        ),
    )


def _self_consistency_block(
    records: Sequence[Mapping[str, Any]], k: int, temperature: float | None, set_valued: bool
) -> SelfConsistencySummary:
    scored = [r for r in records if r.get("gold_known", True)]
    chosen = [self_consistency([_labels(s) for s in r["samples"][:k]], r["labels"]) for r in scored]
    golds = [r["gold"] for r in scored]
    return SelfConsistencySummary(
        samples=k,
        temperature=temperature,
        accuracy=_round(accuracy(chosen, golds)),
        f1=_round(mean_f1(chosen, golds)) if set_valued else None,
    )


def _prin_by_template(records: Sequence[Mapping[str, Any]], base: str) -> dict[str, float | None]:
    by_template = {"v0": _round(mean(r["configs"][base]["prin_score"] for r in records))}
    for template in ("v1", "v2"):
        by_template[template] = _round(
            mean(r["paraphrases"][template]["prin_score"] for r in records)
        )
    return by_template


def _paraphrase_inconsistency(records: Sequence[Mapping[str, Any]], base: str) -> float | None:
    return _round(
        mean(
            distinct_ratio(
                [
                    _labels(r["configs"][base]["direct"]),
                    _labels(r["paraphrases"]["v1"]["direct"]),
                    _labels(r["paraphrases"]["v2"]["direct"]),
                    _labels(r["paraphrases"]["v3"]),
                    _labels(r["paraphrases"]["v4"]),
                ]
            )
            for r in records
        )
    )


def _prin_by_option_count(
    records: Sequence[Mapping[str, Any]], base: str
) -> dict[str, OptionCountPrin]:
    by_count: dict[int, list[float]] = {}
    for r in records:
        by_count.setdefault(r["n_options"], []).append(r["configs"][base]["prin_score"])
        for n, entry in r.get("options", {}).items():
            by_count.setdefault(int(n), []).append(entry["verdict"]["prin_score"])
    return {
        str(n): OptionCountPrin(prin=_round(mean(values)), items=len(values))
        for n, values in sorted(by_count.items())
        if n <= 5
    }


def _repeats_block(records: Sequence[Mapping[str, Any]]) -> RepeatsSummary:
    per_run = [
        mean(r["repeats"][i]["prin_score"] for r in records) or 0.0
        for i in range(len(records[0]["repeats"]))
    ]
    m, sd = mean_std(per_run)
    return RepeatsSummary(
        runs=len(per_run), mean=_round(m), std=_round(sd), per_run=tuple(_round(v) for v in per_run)
    )


def summarize(
    records: Iterable[Mapping[str, Any]], *, run: EvalRunInfo | Mapping[str, Any] | None = None
) -> EvalSummary:
    """The run's summary: every metric of the report.

    ``run`` is what the caller records about the run (name, config, wall time...);
    it is kept in the summary as given.
    """
    all_records = list(records)
    ok = [r for r in all_records if "error" not in r and "configs" in r]
    errors = [r for r in all_records if "error" in r]
    info = run if isinstance(run, EvalRunInfo) else EvalRunInfo.model_validate(dict(run or {}))
    # Only the sections measured are passed: the others stay unset and out of the JSON.
    fields: dict[str, Any] = {
        "items": len(all_records),
        "items_judged": len(ok),
        "items_failed": len(errors),
        "failures": [Failure(id=r["id"], error=r["error"]) for r in errors[:20]],
        "run": info,
    }
    if not ok:
        return EvalSummary(**fields)
    set_valued = any(len(r["gold"]) != 1 for r in ok)
    fields["set_valued_gold"] = set_valued
    keys = list(ok[0]["configs"])
    fields["configs"] = {key: _config_block(ok, key, set_valued) for key in keys}
    base = _BASE if _BASE in keys else keys[0]
    fields["base_config"] = base
    fields["flag_quality"] = _flag_quality_block(ok, base)
    checks = checks_block(ok, base)
    if checks is not None:
        fields["checks"] = checks

    # Samples serve self-consistency, randomness or both; the recorded config says
    # which were asked for (both, when it is not recorded).
    config = info.config or EvalRunConfig()
    if ok[0].get("samples"):
        n_samples = len(ok[0]["samples"])
        k = n_samples if config.sc_samples is None else config.sc_samples
        methods = ("self_consistency",) if config.methods is None else config.methods
        if "self_consistency" in methods:
            fields["self_consistency"] = _self_consistency_block(
                ok, k, config.temperature, set_valued
            )
        analyses = ("randomness",) if config.analyses is None else config.analyses
        if "randomness" in analyses and n_samples >= 5:
            fields["randomness_inconsistency"] = _round(
                mean(distinct_ratio([_labels(s) for s in r["samples"][:5]]) for r in ok)
            )
    if ok[0].get("paraphrases"):
        fields["prin_by_template"] = _prin_by_template(ok, base)
        fields["paraphrase_inconsistency"] = _paraphrase_inconsistency(ok, base)
    if "options" in ok[0]:
        fields["prin_by_option_count"] = _prin_by_option_count(ok, base)
    if ok[0].get("repeats"):
        fields["prin_repeats"] = _repeats_block(ok)
    fields["cost"] = _cost_block(ok, info.wall_seconds)
    return EvalSummary(**fields)


def _legs(record: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    # a verdict's legs include its second-order legs and its panel members'
    for verdict in record["configs"].values():
        yield from verdict_legs(verdict)
    yield from record.get("samples", [])
    for entry in record.get("paraphrases", {}).values():
        # v1 and v2 are whole verdicts, v3 and v4 single direct legs
        if "polarity" in entry:
            yield entry
        else:
            yield from verdict_legs(entry)
    for entry in record.get("options", {}).values():
        yield from verdict_legs(entry["verdict"])
    for verdict in record.get("repeats", []):
        yield from verdict_legs(verdict)


def _cost_block(records: Sequence[Mapping[str, Any]], wall: float | None) -> CostSummary:
    legs = [leg for r in records for leg in _legs(r) if leg]
    fresh = [leg for leg in legs if not leg["cached"]]
    prompt = sum((leg.get("usage") or {}).get("prompt_tokens") or 0 for leg in fresh)
    completion = sum((leg.get("usage") or {}).get("completion_tokens") or 0 for leg in fresh)
    costs = [(leg.get("usage") or {}).get("cost_usd") for leg in fresh]
    known_costs = [c for c in costs if c is not None]
    verdicts = len(records)
    judge_latency = [leg["latency_ms"] for leg in fresh]
    return CostSummary(
        legs=len(legs),
        judge_calls=len(fresh),
        cached_legs=len(legs) - len(fresh),
        judge_calls_per_item=_round(len(fresh) / verdicts) if verdicts else None,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=round(sum(known_costs), 6) if known_costs else None,
        cost_usd_per_item=round(sum(known_costs) / verdicts, 6) if known_costs else None,
        mean_judge_latency_ms=_round(mean(judge_latency), 1),
        wall_seconds=_round(wall, 2),
        items_per_second=_round(verdicts / wall, 3) if wall else None,
    )
