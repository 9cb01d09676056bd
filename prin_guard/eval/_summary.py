"""From per-item records (``items.jsonl``) to the numbers a report shows.

Pure: no judge, no I/O besides reading records handed in. ``prin-guard report``
re-renders a run from its ``items.jsonl`` through this module, so a report can
be rebuilt (or compared with another run) without calling any judge.

Items whose judge failed (``error`` in the record) are counted and left out of
every metric. Items with unknown gold (generic JSONL ``"gold": null``) count for
PRIN and inconsistency metrics but not for accuracy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from prin_guard._models import Flag
from prin_guard.eval._metrics import (
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
    return {
        "direct": _labels(verdict["direct"]),
        "reverse": _implied(verdict),
        "synergy": _synergy(verdict),
    }


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _config_block(
    records: Sequence[Mapping[str, Any]], key: str, set_valued: bool
) -> dict[str, Any]:
    verdicts = [r["configs"][key] for r in records]
    scored = [(r, v) for r, v in zip(records, verdicts, strict=True) if r.get("gold_known", True)]
    golds = [r["gold"] for r, _ in scored]
    methods: dict[str, Any] = {}
    for method in ("direct", "reverse", "synergy"):
        chosen = [_method_sets(v)[method] for _, v in scored]
        methods[method] = {
            "accuracy": _round(accuracy(chosen, golds)),
            "f1": _round(mean_f1(chosen, golds)) if set_valued else None,
        }
    flags: Counter[str] = Counter()
    for verdict in verdicts:
        flags.update(verdict["flags"])
    n = len(verdicts)
    prin_values = [v["prin_score"] for v in verdicts]
    return {
        "prin": _round(mean(prin_values)),
        "consistent_rate": _round(mean(float(v["consistent"]) for v in verdicts)),
        "methods": methods,
        "flag_rates": {
            flag.value: _round(flags[flag.value] / n) if n else None
            for flag in Flag
            if flag.value in flags
        },
    }


def _flag_quality_block(records: Sequence[Mapping[str, Any]], key: str) -> dict[str, Any]:
    scored = [r for r in records if r.get("gold_known", True)]
    verdicts = [r["configs"][key] for r in scored]
    wrong = [set(_synergy(v)) != set(r["gold"]) for r, v in zip(scored, verdicts, strict=True)]
    flagged = [Flag.INCONSISTENT.value in v["flags"] for v in verdicts]
    any_flag = [bool(v["flags"]) for v in verdicts]
    prin = [v["prin_score"] for v in verdicts]
    quality = flag_quality(flagged, wrong)
    quality_any = flag_quality(any_flag, wrong)
    curve = coverage_curve(prin, [not w for w in wrong])
    return {
        "config": key,
        "inconsistent_flag": {
            "flagged": quality.flagged,
            "unflagged": quality.unflagged,
            "error_rate_flagged": _round(quality.error_rate_flagged),
            "error_rate_unflagged": _round(quality.error_rate_unflagged),
            "lift": _round(quality.lift),
        },
        "any_flag": {
            "flagged": quality_any.flagged,
            "unflagged": quality_any.unflagged,
            "error_rate_flagged": _round(quality_any.error_rate_flagged),
            "error_rate_unflagged": _round(quality_any.error_rate_unflagged),
            "lift": _round(quality_any.lift),
        },
        "auroc_prin_predicts_wrong": _round(auroc(prin, wrong)),
        "coverage_curve": [
            {
                "threshold": _round(p.threshold),
                "coverage": _round(p.coverage),
                "accuracy": _round(p.accuracy),
                "kept": p.kept,
            }
            for p in curve
        ],
    }


def summarize(
    records: Iterable[Mapping[str, Any]], *, run: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The run's summary: every metric of the report, as plain JSON data."""
    all_records = list(records)
    ok = [r for r in all_records if "error" not in r and "configs" in r]
    errors = [r for r in all_records if "error" in r]
    run = dict(run or {})
    summary: dict[str, Any] = {
        "items": len(all_records),
        "items_judged": len(ok),
        "items_failed": len(errors),
        "failures": [{"id": r["id"], "error": r["error"]} for r in errors[:20]],
        "run": run,
    }
    if not ok:
        return summary
    set_valued = any(len(r["gold"]) != 1 for r in ok)
    summary["set_valued_gold"] = set_valued
    keys = list(ok[0]["configs"])
    summary["configs"] = {key: _config_block(ok, key, set_valued) for key in keys}
    base = _BASE if _BASE in keys else keys[0]
    summary["base_config"] = base
    summary["flag_quality"] = _flag_quality_block(ok, base)

    scored = [r for r in ok if r.get("gold_known", True)]
    config = run.get("config", {})
    if ok[0].get("samples"):
        k = int(config.get("sc_samples", len(ok[0]["samples"])))
        methods = config.get("methods", ["self_consistency"])
        if "self_consistency" in methods:
            chosen = [
                self_consistency([_labels(s) for s in r["samples"][:k]], r["labels"])
                for r in scored
            ]
            golds = [r["gold"] for r in scored]
            summary["self_consistency"] = {
                "samples": k,
                "temperature": config.get("temperature"),
                "accuracy": _round(accuracy(chosen, golds)),
                "f1": _round(mean_f1(chosen, golds)) if set_valued else None,
            }
        if "randomness" in config.get("analyses", ["randomness"]) and len(ok[0]["samples"]) >= 5:
            summary["randomness_inconsistency"] = _round(
                mean(distinct_ratio([_labels(s) for s in r["samples"][:5]]) for r in ok)
            )
    if ok[0].get("paraphrases"):
        by_template = {"v0": _round(mean(r["configs"][base]["prin_score"] for r in ok))}
        for template in ("v1", "v2"):
            by_template[template] = _round(
                mean(r["paraphrases"][template]["prin_score"] for r in ok)
            )
        summary["prin_by_template"] = by_template
        summary["paraphrase_inconsistency"] = _round(
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
                for r in ok
            )
        )
    if "options" in ok[0]:
        by_count: dict[int, list[float]] = {}
        for r in ok:
            by_count.setdefault(r["n_options"], []).append(r["configs"][base]["prin_score"])
            for n, entry in r.get("options", {}).items():
                by_count.setdefault(int(n), []).append(entry["verdict"]["prin_score"])
        summary["prin_by_option_count"] = {
            str(n): {"prin": _round(mean(values)), "items": len(values)}
            for n, values in sorted(by_count.items())
            if n <= 5
        }
    if ok[0].get("repeats"):
        per_run = [
            mean(r["repeats"][i]["prin_score"] for r in ok) or 0.0
            for i in range(len(ok[0]["repeats"]))
        ]
        m, sd = mean_std(per_run)
        summary["prin_repeats"] = {
            "runs": len(per_run),
            "mean": _round(m),
            "std": _round(sd),
            "per_run": [_round(v) for v in per_run],
        }
    summary["cost"] = _cost_block(ok, run)
    return summary


def _legs(record: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    for verdict in record["configs"].values():
        yield from (verdict["direct"], verdict["reverse"])
    yield from record.get("samples", [])
    for entry in record.get("paraphrases", {}).values():
        # v1 and v2 are whole verdicts, v3 and v4 single direct legs
        if "polarity" in entry:
            yield entry
        else:
            yield from (entry["direct"], entry["reverse"])
    for entry in record.get("options", {}).values():
        yield from (entry["verdict"]["direct"], entry["verdict"]["reverse"])
    for verdict in record.get("repeats", []):
        yield from (verdict["direct"], verdict["reverse"])


def _cost_block(records: Sequence[Mapping[str, Any]], run: Mapping[str, Any]) -> dict[str, Any]:
    legs = [leg for r in records for leg in _legs(r) if leg]
    fresh = [leg for leg in legs if not leg["cached"]]
    prompt = sum((leg.get("usage") or {}).get("prompt_tokens") or 0 for leg in fresh)
    completion = sum((leg.get("usage") or {}).get("completion_tokens") or 0 for leg in fresh)
    costs = [(leg.get("usage") or {}).get("cost_usd") for leg in fresh]
    known_costs = [c for c in costs if c is not None]
    verdicts = len(records)
    wall = run.get("wall_seconds")
    judge_latency = [leg["latency_ms"] for leg in fresh]
    return {
        "legs": len(legs),
        "judge_calls": len(fresh),
        "cached_legs": len(legs) - len(fresh),
        "judge_calls_per_item": _round(len(fresh) / verdicts) if verdicts else None,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cost_usd": round(sum(known_costs), 6) if known_costs else None,
        "cost_usd_per_item": round(sum(known_costs) / verdicts, 6) if known_costs else None,
        "mean_judge_latency_ms": _round(mean(judge_latency), 1),
        "wall_seconds": _round(wall, 2),
        "items_per_second": _round(verdicts / wall, 3) if wall else None,
    }
