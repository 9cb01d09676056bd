"""Calibration items from eval run directories.

``prin-guard eval`` writes one record per item to ``items.jsonl``: the item's id, its
gold labels (``gold_known`` false when the dataset gives none) and, under
``configs``, the full verdict of every mitigation configuration it ran. Calibration
reads the verdict of one configuration (``none``, the base one, by default) and its
run's ``summary.json`` for the judge identity and options.

An item counts for calibration when its gold set is known. A verdict is *wrong* when
its ``correct`` set (the guard's policy set, synergy by default) differs from the
gold set (:func:`~prin_guard._route._acceptance.verdict_wrong`: the options, the winner or
the met set, by task). A rating run (``prin-guard eval summeval``: records of task
``rating`` with the ``human`` score and the ``scale`` rated on) is read with a
``tolerance``: a rating verdict is wrong when it gives no rating or one further than that
from the human score (:func:`~prin_guard._route._acceptance.rating_wrong`); the file records the
scales, and a guard with it rates on those only. A ranking run (records of task
``ranking`` whose ``gold`` is the human ranking, tiers of labels best first:
``[["B"], ["A", "C"]]``) is read with an optional ``min_tau``: a ranking verdict is wrong
when it gives no ranking, its best is not among the human best, or its Kendall's tau-b
with the human ranking is under ``min_tau``
(:func:`~prin_guard._route._acceptance.ranking_wrong`). A review run (``prin-guard eval
iclr2017``: records of task ``review`` with the venue's decision, ``accepted``, and the whole
``verdict``) has the gold set ``{"accept"}`` or ``{"reject"}``: a review's verdict is wrong
when it gives no decision (its two legs disagree, a reply unread) or not the venue's
(:func:`~prin_guard._route._acceptance.decision_wrong`); the file records the review form
the run asked in (its summary's ``form``), and a guard with it decides reviews in that form
only. A record whose judge failed has no
verdict: it is never accepted (it counts in the coverage denominator, as a guard would return a
``judge_error`` verdict for it). Items are matched across the tiers of a cascade by
id; each tier's runs must hold the same items, once each, and every item the same task
(a run of pairwise items calibrates a rule for pairwise verdicts).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from prin_guard._output._runs import ITEMS, SUMMARY, read_records
from prin_guard._prompting._rating import Scale
from prin_guard._ranking import Ranking, check_ranking
from prin_guard._review import form_identity, review_form
from prin_guard._route._acceptance import (
    CalibratedScale,
    _options_view,
    compared_options,
    decision_wrong,
    ranking_wrong,
    rating_wrong,
    verdict_signal,
    verdict_wrong,
)
from prin_guard._route._decide import SIGNALS, signal_value
from prin_guard._route._options import GuardOptions
from prin_guard.calibrate._stats import numpy
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.models import Task, Verdict

__all__ = ["CalibrationData", "TierData", "load_runs"]


@dataclass(frozen=True)
class TierData:
    """One judge's verdicts on the calibration items, in item order."""

    judge: dict[str, Any]
    options: dict[str, Any]
    """The compared options (:func:`~prin_guard._route._acceptance.compared_options`)."""
    verdicts: tuple[Verdict | None, ...]
    """None where the judge failed on the item."""
    runs: tuple[str, ...] = ()

    def signal(self, name: str) -> Any:
        """The signal per item as floats, NaN where the verdict has none."""
        np = numpy()
        return np.array(
            [
                np.nan if v is None or (x := verdict_signal(v, name)) is None else x
                for v in self.verdicts
            ],
            dtype=float,
        )

    def available(self) -> tuple[str, ...]:
        """The signals some verdict has, in registry order (``inconsistency`` only beside
        ``order_inconsistency``: without it, it is ``prin`` again)."""
        present = [
            name
            for name in SIGNALS
            if any(v is not None and verdict_signal(v, name) is not None for v in self.verdicts)
        ]
        if "order_inconsistency" not in present and "inconsistency" in present:
            present.remove("inconsistency")
        return tuple(present)

    def calls(self) -> Any:
        """Judge calls (legs asked) per verdict."""
        np = numpy()
        return np.array(
            [0 if v is None else (v.judge_calls or len(v.legs())) for v in self.verdicts],
            dtype=float,
        )

    def cost(self) -> Any:
        """Cost in USD per verdict, NaN where unknown."""
        np = numpy()
        return np.array(
            [
                np.nan if v is None or v.usage.cost_usd is None else v.usage.cost_usd
                for v in self.verdicts
            ],
            dtype=float,
        )


@dataclass(frozen=True)
class CalibrationData:
    """Items with a gold set, and every tier's verdict on each."""

    ids: tuple[str, ...]
    gold: tuple[frozenset[str], ...]
    tiers: tuple[TierData, ...]
    skipped_unknown_gold: int = 0
    """Records left out because their gold set is unknown."""
    task: Task = "choice"
    """The items' task (every item's)."""
    human: tuple[float, ...] = ()
    """A rating run's human score per item (empty for the label tasks, whose ``gold``
    sets are then empty)."""
    tolerance: float | None = None
    """A rating run's tolerance: how far from the human score a rating is still right."""
    item_scales: tuple[CalibratedScale, ...] = ()
    """A rating run's scale per item (empty for the label tasks)."""
    rankings: tuple[Ranking, ...] = ()
    """A ranking run's human ranking per item (empty for the other tasks)."""
    min_tau: float | None = None
    """A ranking run's least Kendall's tau-b with the human ranking still right (None:
    top-1 alone)."""
    item_forms: tuple[str, ...] = ()
    """A review run's form per item (its identity; empty for the other tasks)."""

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def scales(self) -> tuple[CalibratedScale, ...]:
        """The distinct scales the items were rated on (what a rating file records)."""
        return tuple(sorted(set(self.item_scales), key=lambda s: s.model_dump_json()))

    @property
    def forms(self) -> tuple[str, ...]:
        """The distinct review forms the items were asked in (what a review file records)."""
        return tuple(sorted(set(self.item_forms)))

    def verdict_wrong(self, index: int, verdict: Verdict | None) -> bool:
        """Whether ``verdict`` is wrong on item ``index`` (no verdict: wrong)."""
        if verdict is None:
            return True
        if self.task == "rating":
            assert self.tolerance is not None
            return rating_wrong(verdict.rating, self.human[index], self.tolerance)
        if self.task == "ranking":
            return ranking_wrong(verdict.ranking, self.rankings[index], self.min_tau)
        if self.task == "review":
            decision = None if verdict.review is None else verdict.review.decision
            return decision_wrong(decision, "accept" in self.gold[index])
        return verdict_wrong(verdict.correct, self.gold[index])

    def wrong(self, tier: int) -> Any:
        """Whether tier ``tier``'s verdict on each item is wrong (no verdict: wrong)."""
        np = numpy()
        verdicts = self.tiers[tier].verdicts
        return np.array(
            [self.verdict_wrong(index, v) for index, v in enumerate(verdicts)], dtype=bool
        )

    def subset(self, indices: Sequence[int]) -> CalibrationData:
        """These items only, in this order."""
        chosen = [int(i) for i in indices]
        return replace(
            self,
            ids=tuple(self.ids[i] for i in chosen),
            gold=tuple(self.gold[i] for i in chosen),
            human=tuple(self.human[i] for i in chosen) if self.human else (),
            item_scales=tuple(self.item_scales[i] for i in chosen) if self.item_scales else (),
            rankings=tuple(self.rankings[i] for i in chosen) if self.rankings else (),
            item_forms=tuple(self.item_forms[i] for i in chosen) if self.item_forms else (),
            tiers=tuple(
                replace(t, verdicts=tuple(t.verdicts[i] for i in chosen)) for t in self.tiers
            ),
        )

    def digest(self) -> str:
        """sha256 of the items as calibration sees them: per item (sorted by id) its id,
        gold set and, per tier, the verdict's set and every signal (a rating run: the
        human score and the rating, with the tolerance)."""
        rows = []
        for index in sorted(range(self.n), key=lambda i: self.ids[i]):
            tiers = []
            for tier in self.tiers:
                verdict = tier.verdicts[index]
                seen: dict[str, Any] | None = None
                if verdict is not None:
                    seen = {
                        "correct": sorted(verdict.correct),
                        "signals": {name: signal_value(verdict, name) for name in SIGNALS},
                    }
                    if self.task == "rating":
                        seen["rating"] = verdict.rating
                    if self.task == "ranking":
                        seen["ranking"] = verdict.ranking
                    if self.task == "review":
                        seen["decision"] = (
                            None if verdict.review is None else verdict.review.decision
                        )
                tiers.append(seen)
            row: dict[str, Any] = {
                "id": self.ids[index],
                "gold": sorted(self.gold[index]),
                "tiers": tiers,
            }
            if self.task == "rating":
                row["human"] = self.human[index]
                row["tolerance"] = self.tolerance
                row["scale"] = self.item_scales[index].model_dump(mode="json")
            if self.task == "ranking":
                row["ranking"] = self.rankings[index]
                row["min_tau"] = self.min_tau
            if self.task == "review":
                row["form"] = self.item_forms[index]
            rows.append(row)
        canonical = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()


def _summary(run: Path) -> dict[str, Any]:
    file = run / SUMMARY
    if not (run / ITEMS).is_file():
        raise UsageError(f"runs: {str(run)!r} is not an eval run directory (no {ITEMS})")
    if not file.is_file():
        raise UsageError(f"runs: {str(run)!r} has no {SUMMARY}; run `prin-guard report` on it")
    data = json.loads(file.read_text(encoding="utf-8"))
    config = (data.get("run") or {}).get("config") or {}
    if "judge" not in config or "options" not in config:
        raise UsageError(
            f"runs: {str(run)!r}: {SUMMARY} does not record the judge identity and options "
            "(written by an older prin-guard: run eval again)"
        )
    return dict(config)


def _tier_identity(run: Path, config_key: str, task: str) -> tuple[dict[str, Any], dict[str, Any]]:
    config = _summary(run)
    mitigations = () if config_key == "none" else tuple(config_key.split("+"))
    recorded = GuardOptions.model_validate(config["options"])
    # the template the run asked in: the options', or the dataset's own (claims)
    template = recorded.template or config.get("template")
    options = GuardOptions.of(recorded, mitigations=mitigations, template=template)
    # as a guard's options are read when compared with the file (no template: the default)
    dumped = _options_view(options, task)
    return dict(config["judge"]), {name: dumped[name] for name in compared_options(task)}


Gold = frozenset[str] | float | Ranking
"""An item's gold: its gold set, a rating item's human score, or a ranking item's human
ranking."""


def _gold(record: dict[str, Any], task: str) -> Gold | None:
    """A record's gold (None when unknown): a rating record's ``human`` score, else its
    gold set."""
    if task == "rating":
        human = record.get("human")
        if human is None:
            return None
        if isinstance(human, bool) or not isinstance(human, int | float) or human != human:
            raise UsageError(f"runs: item {record['id']!r}: human score {human!r} is not a number")
        return float(human)
    if task == "ranking":
        gold = record.get("gold")
        if gold is None or not record.get("gold_known", True):
            return None
        try:
            return check_ranking(gold, "gold")
        except UsageError as exc:
            raise UsageError(f"runs: item {record['id']!r}: {exc}") from None
    if task == "review":
        accepted = record.get("accepted")
        if accepted is None:
            return None
        if not isinstance(accepted, bool):
            raise UsageError(
                f"runs: item {record['id']!r}: accepted {accepted!r} is not true or false "
                "(the venue's decision)"
            )
        return frozenset({"accept" if accepted else "reject"})
    return frozenset(record.get("gold") or ()) if record.get("gold_known", True) else None


def _scale(record: dict[str, Any]) -> CalibratedScale:
    """A rating record's scale (eval writes it beside the human score)."""
    if "scale" not in record:
        raise UsageError(
            f"runs: item {record['id']!r} records no scale (written by an older prin-guard: "
            "run eval again): a rating file records the scales it was calibrated on"
        )
    try:
        return CalibratedScale.of(Scale.coerce(record["scale"]))
    except InvalidItemError as exc:
        raise UsageError(f"runs: item {record['id']!r}: {exc.field}: {exc.reason}") from None


def _review_form(run: Path) -> str:
    """The review form a review run asked in, by its identity (its summary's ``form``, a
    shipped form: ``eval iclr2017`` asks in no other)."""
    summary = json.loads((run / SUMMARY).read_text(encoding="utf-8"))
    name = summary.get("form")
    if not isinstance(name, str):
        raise UsageError(
            f"runs: {str(run)!r}: {SUMMARY} records no review form (form): not an "
            "`eval iclr2017` run"
        )
    try:
        return form_identity(review_form(name))
    except UsageError as exc:
        raise UsageError(f"runs: {str(run)!r}: {exc}") from None


def _review_verdict(run: Path, record: dict[str, Any], form: str) -> Verdict:
    """A review record's verdict (``eval iclr2017`` writes it whole under ``verdict``),
    asked in ``form`` (at the shipped form's version)."""
    if not isinstance(record.get("verdict"), dict):
        raise UsageError(
            f"runs: item {record['id']!r} of {str(run)!r} records no verdict: not an "
            "`eval iclr2017` record"
        )
    verdict = Verdict.model_validate_json(json.dumps(record["verdict"]))
    review = verdict.review
    if review is not None:
        shipped = review_form(form)
        if (review.form, review.form_version) != (shipped.id, shipped.version):
            raise UsageError(
                f"runs: item {record['id']!r} of {str(run)!r} was reviewed in "
                f"{review.form}@{review.form_version}, not the form {shipped.id}@"
                f"{shipped.version} of this prin-guard: run eval again"
            )
    return verdict


def _read_tier(
    runs: Sequence[Path], config_key: str
) -> tuple[TierData, dict[str, tuple[Gold | None, Verdict | None, Any]], str]:
    judge: dict[str, Any] | None = None
    options: dict[str, Any] | None = None
    task: str | None = None
    # the third: a rating item's scale, a review item's form, None for the others
    items: dict[str, tuple[Gold | None, Verdict | None, Any]] = {}
    # eval's reading of a record's task (imported here: `import prin_guard.calibrate`
    # stays without eval, as in _stats)
    from prin_guard.eval._summary import record_task

    for run in runs:
        form: str | None = None
        records = list(read_records(run / ITEMS))
        for record in records:
            found = record_task(record)
            if task is None:
                task = found
            elif found != task:
                raise UsageError(
                    f"runs: item {record['id']!r} of {str(run)!r} is a {found} item, the "
                    f"others {task} items; calibrate one task at a time"
                )
        identity, opts = _tier_identity(run, config_key, task or "choice")
        if judge is None or options is None:
            judge, options = identity, opts
        elif identity != judge or opts != options:
            raise UsageError(
                f"runs: {str(run)!r} was run with another judge or other options than "
                f"{str(runs[0])!r}; calibrate one judge and one set of options at a time"
            )
        for record in records:
            key = str(record["id"])
            if key in items:
                raise UsageError(
                    f"runs: item {key!r} appears twice (in {str(run)!r}); calibration items "
                    "must be distinct"
                )
            gold = _gold(record, task or "choice")
            verdict = None
            if task == "review":
                form = form or _review_form(run)
                items[key] = (gold, _review_verdict(run, record, form), form)
                continue
            if "configs" in record:
                if config_key not in record["configs"]:
                    known = ", ".join(sorted(record["configs"]))
                    raise UsageError(
                        f"config: {str(run)!r} has no configuration {config_key!r} (it has {known})"
                    )
                verdict = Verdict.model_validate_json(json.dumps(record["configs"][config_key]))
            scale = _scale(record) if task == "rating" and gold is not None else None
            items[key] = (gold, verdict, scale)
    assert judge is not None
    assert options is not None
    tier = TierData(judge=judge, options=options, verdicts=(), runs=tuple(str(r) for r in runs))
    return tier, items, task or "choice"


def load_runs(
    tiers: Sequence[Sequence[str | Path]],
    *,
    config: str = "none",
    tolerance: float | None = None,
    min_tau: float | None = None,
) -> CalibrationData:
    """The calibration items of eval runs: ``tiers[k]`` lists the run directories of
    tier k's judge (one list for a single judge). ``tolerance``: for rating runs (and
    only for them), how far from the human score a rating is still right, in the
    scale's points. ``min_tau``: for ranking runs (and only for them), the least
    Kendall's tau-b with the human ranking that is still right (None: top-1 alone)."""
    if not tiers or not all(tiers):
        raise UsageError("runs: give at least one eval run directory per tier")
    read = [_read_tier([Path(r) for r in runs], config) for runs in tiers]
    first = read[0][1]
    task = read[0][2]
    if task == "rating":
        if tolerance is None:
            raise UsageError(
                "tolerance: the runs rate on a scale; say how far from the human score a "
                "rating is still right (--tolerance, in the scale's points, e.g. 1)"
            )
        if isinstance(tolerance, bool) or not (
            isinstance(tolerance, int | float) and 0 < tolerance < float("inf")
        ):
            raise UsageError(f"tolerance: must be a positive number of points, got {tolerance!r}")
    elif tolerance is not None:
        raise UsageError(f"tolerance: the runs judged {task} items, which have no scale")
    if task == "review" and config != "none":
        raise UsageError(
            f"config: {config!r}; a review run (eval iclr2017) has one configuration, the "
            "guard's own (give no --config)"
        )
    if min_tau is not None and task != "ranking":
        raise UsageError(f"min_tau: the runs judged {task} items, which have no ranking")
    if min_tau is not None and (
        isinstance(min_tau, bool) or not isinstance(min_tau, int | float) or not -1 <= min_tau <= 1
    ):
        raise UsageError(f"min_tau: must be a Kendall's tau from -1 to 1, got {min_tau!r}")
    for index, (_, items, tier_task) in enumerate(read[1:], start=1):
        if tier_task != task:
            raise UsageError(f"runs: tier {index} judged {tier_task} items, tier 0 {task} items")
        if set(items) != set(first):
            missing = len(set(first) - set(items))
            extra = len(set(items) - set(first))
            raise UsageError(
                f"runs: tier {index} does not hold the items of tier 0 ({missing} missing, "
                f"{extra} not in tier 0): evaluate every tier on the same items"
            )
        differ = [
            key for key, (gold, _, scale) in items.items() if (gold, scale) != first[key][::2]
        ]
        if differ:
            what = {"rating": "human score or scale", "review": "decision or form"}.get(
                task, "gold set"
            )
            raise UsageError(
                f"runs: tier {index} gives item {differ[0]!r} another {what} than tier 0"
            )
    ids = [key for key, (gold, _, _) in first.items() if gold is not None]
    skipped = len(first) - len(ids)
    golds = [first[key][0] for key in ids]
    rating = task == "rating"
    ranking = task == "ranking"
    review = task == "review"
    return CalibrationData(
        ids=tuple(ids),
        gold=tuple(frozenset() if rating or ranking else g for g in golds),  # type: ignore[misc]
        tiers=tuple(
            replace(tier, verdicts=tuple(items[key][1] for key in ids)) for tier, items, _ in read
        ),
        skipped_unknown_gold=skipped,
        task=task,  # type: ignore[arg-type]
        human=tuple(float(g) for g in golds) if rating else (),  # type: ignore[arg-type]
        tolerance=float(tolerance) if rating and tolerance is not None else None,
        item_scales=tuple(first[key][2] for key in ids) if rating else (),
        rankings=tuple(golds) if ranking else (),  # type: ignore[arg-type]
        min_tau=float(min_tau) if ranking and min_tau is not None else None,
        item_forms=tuple(first[key][2] for key in ids) if review else (),
    )
