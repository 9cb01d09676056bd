"""From ``prin-guard probe`` records to the paper's Table 8: the typed probe summary.

:func:`probe_summary` returns a :class:`ProbeSummary`; ``model_dump(mode="json")``
is the JSON written to ``summary.json``, in the layout the summaries had when they
were plain dicts. Pure: no judge, no I/O.

An answer that cannot be read counts as wrong: a right first answer followed by
an unreadable one counts as modified.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import ConfigDict

from prin_guard._output._runs import Failure, SparseModel, SummaryModel
from prin_guard.models import ParseStatus
from prin_guard.probe._metrics import ProbeRecord, consistency_metrics
from prin_guard.probe._prompts import FollowUpType

__all__ = ["FollowUpMetrics", "ProbeRunInfo", "ProbeSummary", "probe_summary"]


class ProbeRunInfo(SparseModel):
    """What the caller recorded about the probe run; keys other than these are kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    dataset: str | None = None
    """Dataset name (or path) the items came from."""
    judge: dict[str, Any] | None = None
    """The judge's identity (kind, model or name, sampling parameters)."""
    judge_name: str | None = None
    """The judge as the report names it ("kind: model")."""
    form: str | None = None
    """Follow-up form: "direct" (one conversation per type) or "progressive"."""
    types: tuple[str, ...] | None = None
    """Follow-up types asked in the Direct Form (closed, open, leading)."""
    prompt_set: str | None = None
    """The paper's prompt set of the follow-ups (A, B or C)."""
    mitigations: tuple[str, ...] | None = None
    """Mitigation prompts added to the conversation."""
    position: str | None = None
    """Where the mitigations were placed."""
    seed: int | None = None
    """Seed of the misleading answers."""
    partial: bool | None = None
    """True when the run was interrupted and the summary covers the items finished."""
    wall_seconds: float | None = None
    """Wall-clock time of the run."""


class FollowUpMetrics(SummaryModel):
    """The paper's metrics for one follow-up type or one progressive round."""

    round: int
    """Round of the follow-up (1 in the Direct Form)."""
    items: int
    """Items measured."""
    accuracy_before: float
    """Accuracy of the first answers."""
    accuracy_after: float
    """Accuracy of the answers after the follow-up."""
    modification: float
    """Accuracy before minus accuracy after."""
    modification_rate: float | None
    """Modification divided by accuracy before; None when that is 0."""
    e_to_r_rate: float | None
    """Share of wrong first answers that turned right; None when none was wrong."""


class ProbeSummary(SparseModel):
    """Every number of a probe report (Table 8), for one run.

    ``by_type`` is filled in the Direct Form and ``by_round`` in the Progressive
    Form; the other is empty.
    """

    items: int
    """Records read, failed ones included."""
    items_judged: int
    """Records whose judge answered every question; every metric is over these."""
    items_failed: int
    """Records whose judge failed."""
    failures: tuple[Failure, ...]
    """The first 20 failed items."""
    run: ProbeRunInfo
    """What the caller recorded about the run."""
    unreadable_first_answers: int
    """Judged items whose first answer could not be read (they count as wrong)."""
    by_type: dict[str, FollowUpMetrics]
    """Direct Form: the metrics by follow-up type ("closed", "open", "leading")."""
    by_round: dict[str, FollowUpMetrics]
    """Progressive Form: the metrics of each round, by its follow-up type."""


def _correct(status: str, labels: Sequence[str], gold: Sequence[str]) -> bool | None:
    if status == ParseStatus.FAILED.value:
        return None
    return set(labels) == set(gold)


def _probe_records(
    ok: Sequence[Mapping[str, Any]], name: str, prompt_set: str
) -> list[ProbeRecord]:
    out: list[ProbeRecord] = []
    for r in ok:
        rounds = r["runs"].get(name)
        if rounds is None:
            continue
        before = _correct(r["first"]["parse_status"], r["first"]["labels"], r["gold"])
        after = [_correct(x["parse_status"], x["labels"], r["gold"]) for x in rounds]
        if name == "progressive":
            # a leading round not asked (the judge named every candidate) keeps its
            # previous answer: nothing was suggested, nothing could change
            while len(after) < 3:
                after.append(after[-1] if after else before)
            out.append(
                ProbeRecord.progressive(before, after, prompt_set=prompt_set, item_id=r["id"])
            )
        elif rounds:
            out.append(
                ProbeRecord.direct(name, before, after[0], prompt_set=prompt_set, item_id=r["id"])
            )
    return out


def _metrics(records: Sequence[ProbeRecord], number: int) -> FollowUpMetrics:
    m = consistency_metrics(records, number)
    return FollowUpMetrics(
        round=number,
        items=len(records),
        accuracy_before=m.accuracy_before,
        accuracy_after=m.accuracy_after,
        modification=m.modification,
        modification_rate=m.modification_rate,
        e_to_r_rate=m.e_to_r_rate,
    )


def probe_summary(
    records: Iterable[Mapping[str, Any]], *, run: ProbeRunInfo | Mapping[str, Any]
) -> ProbeSummary:
    """Table 8's numbers (and the per-round ones of the Progressive Form)."""
    all_records = list(records)
    ok = [r for r in all_records if "error" not in r and "runs" in r]
    info = run if isinstance(run, ProbeRunInfo) else ProbeRunInfo.model_validate(dict(run))
    prompt_set = info.prompt_set if info.prompt_set is not None else "A"
    by_type: dict[str, FollowUpMetrics] = {}
    by_round: dict[str, FollowUpMetrics] = {}
    for name in sorted({name for r in ok for name in r["runs"]}):
        probe_records = _probe_records(ok, name, prompt_set)
        if not probe_records:
            continue
        if name == "progressive":
            by_round = {
                kind.value: _metrics(probe_records, number)
                for number, kind in enumerate(FollowUpType, start=1)
            }
        else:
            by_type[name] = _metrics(probe_records, 1)
    return ProbeSummary(
        items=len(all_records),
        items_judged=len(ok),
        items_failed=len(all_records) - len(ok),
        failures=[Failure(id=r["id"], error=r["error"]) for r in all_records if "error" in r][:20],
        run=info,
        unreadable_first_answers=sum(
            r["first"]["parse_status"] == ParseStatus.FAILED.value for r in ok
        ),
        by_type=by_type,
        by_round=by_round,
    )
