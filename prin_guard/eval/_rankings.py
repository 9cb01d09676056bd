"""Ranking runs (issue 40, items 7 and 8): a guard ranks items with a human ranking, and
the run is written as ``prin-guard calibrate`` reads an eval run.

:func:`run_rankings` asks ``guard`` about each :class:`~prin_guard.datasets.RankedItem`
(OpenAssistant's crowd rankings, SummEval's ranks, or your own) and writes under ``out``:

- ``items.jsonl``: per item its ``id``, ``task`` (``ranking``), the human ranking as
  ``gold`` (tiers of labels, best first), its Kendall's tau-b with the verdict's ranking
  and whether the verdict's best is among the human best (``top1``), and the whole verdict
  under ``configs.none``;
- ``summary.json``: the judge's identity and the guard's options (``run.config``, what
  calibration binds a file to) and the run's figures: mean tau-b (over items with a
  ranking and a defined tau), top-1 agreement (an item without a ranking counts as a
  miss), the share flagged, judge calls per item.

The figures are the judge's under the guard's options: one pass (``checks="reverse"``
still asks both legs; ``ranking_mode="best"`` the best and the worst only), permutations
(``checks="reverse,order"``), adaptive stopping (``ranking_adaptive``).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from prin_guard._models import Verdict
from prin_guard._ranking import kendall_tau_b, top_agrees
from prin_guard.datasets._rankings import RankedItem

__all__ = ["ranked_item", "ranking_figures", "run_rankings"]


def ranked_item(entry: RankedItem) -> dict[str, Any]:
    """A ranked dataset row as a ranking item (its labels kept)."""
    item: dict[str, Any] = {
        "task": "ranking",
        "id": entry.id,
        "question": entry.question,
        "candidates": [{"text": c.text, "label": c.label} for c in entry.candidates],
    }
    if entry.context is not None:
        item["context"] = entry.context
    return item


def ranking_figures(verdict: Verdict, gold: Any) -> tuple[float | None, bool]:
    """A verdict's Kendall's tau-b with the human ranking (None without a ranking, or
    where it is not defined) and whether its best is among the human best."""
    if verdict.ranking is None:
        return None, False
    return kendall_tau_b(verdict.ranking, gold), top_agrees(verdict.ranking, gold)


def run_rankings(guard: Any, entries: Iterable[RankedItem], *, out: str | Path) -> dict[str, Any]:
    """Rank every entry with ``guard`` and write the run (see the module); returns the
    summary."""
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    ranked = list(entries)
    verdicts = guard.check_many([ranked_item(entry) for entry in ranked])
    taus: list[float] = []
    tops = flagged = calls = 0
    with (directory / "items.jsonl").open("w", encoding="utf-8") as rows:
        for entry, verdict in zip(ranked, verdicts, strict=True):
            tau, top = ranking_figures(verdict, entry.gold)
            if tau is not None:
                taus.append(tau)
            tops += top
            flagged += bool(verdict.flags)
            calls += verdict.judge_calls
            record = {
                "id": entry.id,
                "task": "ranking",
                "gold": [list(tier) for tier in entry.gold],
                "gold_known": True,
                "tau": tau,
                "top1": top,
                "configs": {"none": json.loads(verdict.model_dump_json())},
            }
            rows.write(json.dumps(record, ensure_ascii=False) + "\n")
    count = len(ranked)
    summary: dict[str, Any] = {
        "task": "ranking",
        "items": count,
        "kendall_tau_b": statistics.fmean(taus) if taus else None,
        "tau_items": len(taus),
        "top1_agreement": tops / count if count else None,
        "flagged": flagged / count if count else None,
        "calls_per_item": calls / count if count else None,
        # what `prin-guard calibrate` reads to bind an acceptance file to this judge
        "run": {
            "config": {
                "judge": dict(guard.tiers[0]),
                "options": guard.options.model_dump(mode="json"),
            }
        },
    }
    (directory / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
