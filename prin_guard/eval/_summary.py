"""From per-item records (``items.jsonl``) to the numbers a report shows.

Pure: no judge, no I/O besides reading records handed in. ``prin-guard report``
re-renders a run from its ``items.jsonl`` through this module, so a report can
be rebuilt (or compared with another run) without calling any judge.

Items whose judge failed (``error`` in the record) are counted and left out of
every metric. Items with unknown gold (generic JSONL ``"gold": null``) count for
PRIN and inconsistency metrics but not for accuracy.

The summary is an :class:`~prin_guard.eval._summary_models.EvalSummary`; its JSON
dump is what ``summary.json`` holds. A panel's verdict has no direct or reverse leg
of its own: its direct, reverse and synergy sets are what a strict majority of all
its members' sets hold.

The ``checks`` section (order inconsistency, position bias, panel agreement,
confidence, every signal's quality) is written for records whose verdicts record
their checks, and measured on the base configuration's verdicts (the only ones the
runner asks in a second order). There a verdict is wrong when its ``correct`` set
(what the guard hands the caller, under its policy) is not the gold set
(:func:`~prin_guard._route._acceptance.verdict_wrong`, the one definition: the options, the
winner, the met set); items with unknown gold count for every rate and distribution
but not for flag and score quality. The metrics and their edge cases are those of
:mod:`prin_guard.eval._metrics`.

Tasks. A pairwise run's summary has a ``pairwise`` section (winner accuracy, ties,
undecided pairs, how often the response shown first wins), a checklist run's a
``checklist`` one (per-candidate and exact-set accuracy, false "met" and missed
candidates, scores). For pairwise items the position-bias table counts only the
answers naming one response (a tie names both, which says nothing of position).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from prin_guard._output._runs import Failure
from prin_guard._route._acceptance import candidate_errors, verdict_wrong
from prin_guard._route._decide import SIGNALS, could_fire, order_inconsistency, panel_majority
from prin_guard._route._informative import uninformative
from prin_guard._route._usage import UsageSummary, UsageTally, leg_answer, premium, record_answers
from prin_guard.eval._metrics import (
    CoveragePoint,
    FlagQuality,
    accuracy,
    auroc,
    coverage_curve,
    distinct_ratio,
    flag_quality,
    flag_signal,
    fleiss_kappa,
    mean,
    mean_f1,
    mean_std,
    position_share,
    quantile,
    self_consistency,
    signal_auroc,
    signal_curve,
)
from prin_guard.eval._summary_models import (
    ChecklistSummary,
    ChecksSummary,
    ConfidenceSummary,
    ConfigSummary,
    CostSummary,
    CurvePoint,
    EvalRunConfig,
    EvalRunInfo,
    EvalSummary,
    FlagCounts,
    FlagQualitySummary,
    FlagSignalSummary,
    MethodScore,
    OptionCountPrin,
    OrderSummary,
    PairwiseSummary,
    PanelSummary,
    PositionSummary,
    RepeatsSummary,
    ReverseLegsSummary,
    ScoreSignalSummary,
    SelfConsistencySummary,
    UninformativeSummary,
)
from prin_guard.models import SECOND_ORDER_CHECKS, Flag, Scores

__all__ = ["checklist_block", "pairwise_block", "record_task", "summarize", "verdict_legs"]


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
    if verdict.get("selected") == "confident":
        # the direct leg alone (reverse_legs='uncertain'): the guard's answer by every method
        answered = _labels(verdict["direct"])
        return {"direct": answered, "reverse": answered, "synergy": answered}
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
    sets: dict[str, list[set[str] | None]] = {"direct": [], "reverse": [], "synergy": []}
    for member in members:
        if member.get("abstained") or not member["direct"] or not member["reverse"]:
            for votes in sets.values():
                votes.append(None)
            continue
        direct = set(member["direct"]["labels"])
        implied = set(every) - set(member["reverse"]["labels"])
        sets["direct"].append(direct)
        sets["reverse"].append(implied)
        sets["synergy"].append(direct & implied)
    return {method: panel_majority(every, votes)[0] for method, votes in sets.items()}


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _points(curve: Sequence[CoveragePoint]) -> tuple[CurvePoint, ...]:
    """A coverage–accuracy curve as the summary stores it (PRIN's and each signal's)."""
    return tuple(
        CurvePoint(
            threshold=round(p.threshold, 4),
            coverage=round(p.coverage, 4),
            accuracy=_round(p.accuracy),
            kept=p.kept,
        )
        for p in curve
    )


def _per_candidate(
    records: Sequence[Mapping[str, Any]], chosen: Sequence[Sequence[str]]
) -> float | None:
    """Share of all candidates put on the gold's side."""
    total = sum(len(r["labels"]) for r in records)
    errors = sum(
        candidate_errors(r["labels"], c, r["gold"]) for r, c in zip(records, chosen, strict=True)
    )
    return 1.0 - errors / total if total else None


def _config_block(
    records: Sequence[Mapping[str, Any]], key: str, set_valued: bool, task: str = "choice"
) -> ConfigSummary:
    verdicts = [r["configs"][key] for r in records]
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    golds = [r["gold"] for r, _ in scored]
    methods: dict[str, MethodScore] = {}
    for method in ("direct", "reverse", "synergy"):
        chosen = [_method_sets(v)[method] for _, v in scored]
        extra: dict[str, Any] = {}
        if task == "checklist":
            extra["per_candidate"] = _round(_per_candidate([r for r, _ in scored], chosen))
        methods[method] = MethodScore(
            accuracy=_round(accuracy(chosen, golds)),
            f1=_round(mean_f1(chosen, golds)) if set_valued else None,
            **extra,
        )
    flags: Counter[str] = Counter()
    for verdict in verdicts:
        flags.update(verdict["flags"])

    def rate(flag: Flag) -> float | None:
        # over the verdicts that ran the check the flag needs (a confident direct leg
        # alone ran no reverse check)
        could = sum(could_fire(flag, v.get("checks")) for v in verdicts)
        return _round(flags[flag.value] / could) if could else None

    # a confident direct leg alone has no PRIN (no reverse leg was asked)
    prin_values = [v["prin_score"] for v in verdicts if v["prin_score"] is not None]
    return ConfigSummary(
        prin=_round(mean(prin_values)),
        consistent_rate=_round(mean(float(v["consistent"]) for v in verdicts)),
        methods=methods,
        flag_rates={flag.value: rate(flag) for flag in Flag if flag.value in flags},
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
    # over the verdicts that asked the reverse leg (a confident direct leg alone could
    # not be flagged inconsistent)
    scored = [
        r
        for r in records
        if r.get("gold_known", True)
        and could_fire(Flag.INCONSISTENT, r["configs"][key].get("checks"))
    ]
    verdicts = [r["configs"][key] for r in scored]
    wrong = [
        verdict_wrong(_method_sets(v)["synergy"], r["gold"])
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
        coverage_curve=_points(curve),
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
    task = record_task(ok[0])
    if task != "choice":  # a choice run's summary is what it always was
        fields["task"] = task
    set_valued = any(len(r["gold"]) != 1 for r in ok)
    fields["set_valued_gold"] = set_valued
    keys = list(ok[0]["configs"])
    fields["configs"] = {key: _config_block(ok, key, set_valued, task) for key in keys}
    base = _BASE if _BASE in keys else keys[0]
    fields["base_config"] = base
    fields["flag_quality"] = _flag_quality_block(ok, base)
    checks = checks_block(ok, base)
    if checks is not None:
        fields["checks"] = checks
    if task == "pairwise":
        fields["pairwise"] = pairwise_block(ok, base)
    if task == "checklist":
        fields["checklist"] = checklist_block(ok, base)

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
    # set only when found: a run whose answers are informative keeps its JSON as it was
    found = uninformative(r["configs"][base] for r in ok)
    if found:
        fields["uninformative"] = tuple(UninformativeSummary(**f.as_dict()) for f in found)
    if any(r["configs"][base].get("selected") for r in ok):
        fields["reverse_legs"] = _reverse_legs_block(ok, base)
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


def _reverse_legs_block(records: Sequence[Mapping[str, Any]], base: str) -> ReverseLegsSummary:
    """Which legs the base configuration's verdicts asked (``reverse_legs='uncertain'``),
    what that saved and what it missed."""
    verdicts = [r["configs"][base] for r in records]
    kinds = Counter(v.get("selected") or "uncertain" for v in verdicts)
    full = [v for v in verdicts if v.get("selected") != "confident"]
    confident = [
        (r, v) for r, v in zip(records, verdicts, strict=True) if v.get("selected") == "confident"
    ]
    legs = round(sum(len(list(verdict_legs(v))) for v in full) / len(full)) if full else 2
    ratios = []
    for verdict in full:
        answers = record_answers(verdict)
        value = premium(answers)
        if value is not None:
            ratios.append(value)
    saved_cost = None
    direct_costs = [
        ((v.get("direct") or {}).get("usage") or {}).get("cost_usd") for _, v in confident
    ]
    if ratios and confident and all(c is not None for c in direct_costs):
        factor = sum(ratios) / len(ratios) - 1
        saved_cost = round(sum(c for c in direct_costs if c is not None) * factor, 6)

    def wrong(record: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
        return verdict_wrong(verdict["correct"], record["gold"])

    def direct_wrong(record: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
        return verdict_wrong((verdict.get("direct") or {}).get("labels") or (), record["gold"])

    scored = [(r, v) for r, v in confident if r.get("gold_known", True)]
    uncertain = [
        (r, v)
        for r, v in zip(records, verdicts, strict=True)
        if v.get("selected") in (None, "uncertain") and r.get("gold_known", True)
    ]
    monitored = [
        (r, v) for r, v in zip(records, verdicts, strict=True) if v.get("selected") == "monitored"
    ]
    skipped = {Flag.INCONSISTENT.value, Flag.ORDER_SENSITIVE.value}
    flagged = [(r, v) for r, v in monitored if skipped & set(v["flags"])]
    known = [(r, v) for r, v in flagged if r.get("gold_known", True)]
    return ReverseLegsSummary(
        verdicts=len(verdicts),
        confident=kinds["confident"],
        uncertain=kinds["uncertain"],
        monitored=kinds["monitored"],
        judge_calls_saved=kinds["confident"] * max(legs - 1, 0),
        cost_saved_usd=saved_cost,
        confident_wrong=sum(wrong(r, v) for r, v in scored) if scored else None,
        confident_error_rate=_round(mean(float(wrong(r, v)) for r, v in scored)),
        uncertain_error_rate=_round(mean(float(wrong(r, v)) for r, v in uncertain)),
        monitored_flagged=len(flagged),
        monitored_flagged_wrong=sum(direct_wrong(r, v) for r, v in known) if known else None,
    )


def _verdicts_and_legs(
    record: Mapping[str, Any],
) -> Iterator[tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]]:
    """A record's whole verdicts ``(verdict, None)`` and lone legs ``(None, leg)``: what
    :func:`_legs` walks, grouped as the guard's premium needs."""
    for verdict in record["configs"].values():
        yield verdict, None
    for sample in record.get("samples", []):
        yield None, sample
    for entry in record.get("paraphrases", {}).values():
        yield (None, entry) if "polarity" in entry else (entry, None)
    for entry in record.get("options", {}).values():
        yield entry["verdict"], None
    for verdict in record.get("repeats", []):
        yield verdict, None


def _cost_block(records: Sequence[Mapping[str, Any]], wall: float | None) -> CostSummary:
    legs = [leg for r in records for leg in _legs(r) if leg]
    fresh = [leg for leg in legs if not leg["cached"]]
    # one rule for what was paid now and what the cache saved: _usage's, as grade's
    tally, current = UsageTally(), False
    for record in records:
        for verdict, leg in _verdicts_and_legs(record):
            if verdict is not None:
                current = current or "saved_usage" in verdict
                tally.add_answers(record_answers(verdict))
            elif leg:
                tally.add_answers([leg_answer(leg)])
    usage: UsageSummary | None = tally.summary()
    assert usage is not None
    prompt, completion, cost = usage.prompt_tokens, usage.completion_tokens, usage.cost_usd
    if not current:
        # Records written before the rule (no verdict with ``saved_usage``) are summarised
        # as they were: their summaries and reports are the compatibility reference.
        prompt, completion = prompt or 0, completion or 0
        cost = cost if tally.priced_calls else None
        usage = None
    verdicts = len(records)
    judge_latency = [leg["latency_ms"] for leg in fresh]
    return CostSummary(
        legs=len(legs),
        judge_calls=len(fresh),
        cached_legs=len(legs) - len(fresh),
        judge_calls_per_item=_round(len(fresh) / verdicts) if verdicts else None,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
        cost_usd_per_item=round(cost / verdicts, 6) if cost is not None and verdicts else None,
        mean_judge_latency_ms=_round(mean(judge_latency), 1),
        wall_seconds=_round(wall, 2),
        items_per_second=_round(verdicts / wall, 3) if wall else None,
        **({} if usage is None else {"usage": usage}),
    )


# --------------------------------------------------------------------- checks


Record = Mapping[str, Any]

# the flag each check raises; a panel's flags when the verdicts have members
_CHECK_FLAGS = {
    "reverse": (Flag.INCONSISTENT,),
    "order": (Flag.ORDER_SENSITIVE,),
    "swap": (Flag.ORDER_SENSITIVE,),
    "confidence": (Flag.LOW_CONFIDENCE,),
}
_PANEL_FLAGS = (Flag.PANEL_SPLIT, Flag.PANEL_ABSTENTION)
_ROLES = ("direct", "reverse", "direct_permuted", "reverse_permuted")


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


def _score_model(verdict: Record) -> Scores:
    """A record's scores as the model the signal registry reads (PRIN from ``prin_score``
    in records written before ``scores`` existed)."""
    given = {name: _scores(verdict).get(name) for name in Scores.model_fields}
    given["prin"] = _prin(verdict)
    return Scores(**{k: None if v is None else float(v) for k, v in given.items()})


def _wrong(record: Record, verdict: Record) -> bool:
    return verdict_wrong(verdict["correct"], record["gold"])


def record_task(record: Record) -> str:
    """The task of a record's item (``choice`` for records written before tasks)."""
    if "task" in record:
        return str(record["task"])
    verdicts = list((record.get("configs") or {}).values())
    return str(verdicts[0].get("task", "choice")) if verdicts else "choice"


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
    if not SECOND_ORDER_CHECKS.isdisjoint(checks):
        fields["order"] = _order(verdicts)
    fields["position_bias"] = _position_bias(records, verdicts, record_task(records[0]))
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
            order_inconsistency(a["labels"], b["labels"])
            for v in verdicts
            for a, b in _pairs(v, polarity)
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
    records: Sequence[Record], verdicts: Sequence[Record], task: str = "choice"
) -> dict[str, PositionSummary]:
    shown: dict[str, list[tuple[Sequence[str], Sequence[str]]]] = {}
    original: dict[str, list[tuple[Sequence[str], Sequence[str]]]] = {}
    for record, verdict in zip(records, verdicts, strict=True):
        for leg in verdict_legs(verdict):
            if not _read(leg):
                continue
            if task == "pairwise" and len(leg["labels"]) != 1:
                continue  # a tie (or no answer) says nothing of position
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
    # the signals these checks give, in the registry's order (and with its directions)
    given = {"prin"}
    if not SECOND_ORDER_CHECKS.isdisjoint(checks):
        given.add("order_inconsistency")
    if paneled:
        given.add("panel_agreement")
    if confident:
        given.add("confidence")
    wrong = [_wrong(r, v) for r, v in scored]
    read = [_score_model(v) for _, v in scored]
    out: dict[str, ScoreSignalSummary] = {}
    for name in (name for name in SIGNALS if name in given):
        riskier = SIGNALS[name].riskier
        values = [SIGNALS[name].read(scores) for scores in read]
        curve = signal_curve(values, [not w for w in wrong], riskier)
        present = sum(v is not None for v in values)
        out[name] = ScoreSignalSummary(
            riskier=riskier,
            verdicts=present,
            missing=len(values) - present,
            auroc=_round(signal_auroc(values, wrong, riskier)),
            coverage_curve=_points(curve),
        )
    return out


# --------------------------------------------------------------------- tasks


def _direct_answers(record: Record, verdict: Record) -> Iterator[tuple[Sequence[str], Record]]:
    """``(shown order, leg)`` of a verdict's direct legs whose answer was read, in both
    orders."""
    for leg in verdict_legs(verdict):
        if leg["polarity"] == "direct" and _read(leg):
            yield leg.get("order") or record["labels"], leg


def pairwise_block(records: Sequence[Record], config: str) -> PairwiseSummary:
    """Winners, ties and the first position of ``config``'s pairwise verdicts."""
    verdicts = [r["configs"][config] for r in records]
    n = len(verdicts)
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    decided = [(r, v) for r, v in scored if v.get("winner")]
    first: list[bool] = []
    both = False
    for record, verdict in zip(records, verdicts, strict=True):
        for order, leg in _direct_answers(record, verdict):
            both = both or bool(leg.get("order"))
            if len(leg["labels"]) == 1:
                first.append(leg["labels"][0] == order[0])
    return PairwiseSummary(
        verdicts=n,
        scored=len(scored),
        winner_accuracy=_round(mean(float(not _wrong(r, v)) for r, v in scored)),
        accuracy_when_decided=_round(mean(float(not _wrong(r, v)) for r, v in decided)),
        decided_rate=_round(sum(bool(v.get("winner")) for v in verdicts) / n) if n else None,
        tie_rate=_round(sum(bool(v.get("tie")) for v in verdicts) / n) if n else None,
        undecided_rate=(
            _round(sum(not v.get("winner") and not v.get("tie") for v in verdicts) / n)
            if n
            else None
        ),
        first_shown_wins=_round(mean(map(float, first))),
        first_shown_answers=len(first),
        expected_first_shown=0.5 if both and first else None,
        gold_first_shown=_round(
            mean(float(list(r["gold"]) == [r["labels"][0]]) for r, _ in scored)
        ),
        both_orders=both,
    )


def _weights(verdict: Record) -> dict[str, float]:
    return {
        c["label"]: 1.0 if c.get("weight") is None else float(c["weight"])
        for c in verdict.get("candidates", ())
    }


def checklist_block(records: Sequence[Record], config: str) -> ChecklistSummary:
    """Per-candidate and exact-set accuracy and scores of ``config``'s checklist verdicts."""
    verdicts = [r["configs"][config] for r in records]
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    total = sum(len(r["labels"]) for r, _ in scored)
    gold_met = sum(len(r["gold"]) for r, _ in scored)
    false_met = missed = contradicted = 0
    score_errors: list[float] = []
    gold_scores: list[float] = []
    for record, verdict in scored:
        chosen, gold = set(verdict["correct"]), set(record["gold"])
        false_met += len(chosen - gold)
        missed += len(gold - chosen)
        contradicted += sum(
            c.get("status") == "contradicted" for c in verdict.get("candidates", ())
        )
        weights = _weights(verdict) or dict.fromkeys(record["labels"], 1.0)
        gold_score = sum(weights.get(label, 1.0) for label in gold) / sum(weights.values())
        gold_scores.append(gold_score)
        if verdict.get("score") is not None:
            score_errors.append(abs(float(verdict["score"]) - gold_score))
    not_met = total - gold_met
    return ChecklistSummary(
        verdicts=len(verdicts),
        scored=len(scored),
        candidates=total,
        exact_accuracy=_round(mean(float(not _wrong(r, v)) for r, v in scored)),
        per_candidate_accuracy=_round(
            _per_candidate([r for r, _ in scored], [v["correct"] for _, v in scored])
        ),
        false_met=_round(false_met / not_met) if not_met else None,
        missed=_round(missed / gold_met) if gold_met else None,
        contradicted_rate=_round(contradicted / total) if total else None,
        mean_score=_round(mean(float(v["score"]) for v in verdicts if v.get("score") is not None)),
        mean_gold_score=_round(mean(gold_scores)),
        score_error=_round(mean(score_errors)),
    )
