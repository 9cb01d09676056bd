"""A judge's rankings measured against human rankings (issue 40, item 7).

Three sets of human rankings (loaders in :mod:`prin_guard.datasets._rankings`):

* ``oasst-rankings``: OpenAssistant's crowd rankings of 3 to 9 replies to one prompt
  (``../shared/data/rankings/oasst-rankings.jsonl``, Apache-2.0; ``--path``);
* ``summeval-rankings``: ``k`` of an article's summaries ranked by one aspect's expert
  mean (``../shared/data/ratings/summeval.jsonl``; ``--path``; the aspect's words join the
  question, as the rating eval puts them);
* ``mt-bench-rankings``: MT-Bench answers ranked by the experts' pairwise judgments (the
  shipped sample of LLMBar's MT-Bench subset, or ``--path`` for the 200 pairs; how the
  pairs are aggregated is :func:`~prin_guard.datasets._rankings.load_mt_bench_rankings`'s).

Each item is judged in every **mode** (one guard per mode over one judge and one cache,
so a call two modes share is asked once and counted in each mode's calls):

* ``one-pass``: the direct leg's ranking alone, in the order given (the direct+reverse
  verdict's direct leg: no call of its own);
* ``direct+reverse``: the verdict of the direct and the reverse leg (``ranking_orders=1``);
* ``permutations``: both legs in ``orders`` balanced orders, the Kemeny consensus;
* ``adaptive``: the same with ``ranking_adaptive`` (stop once two orders agree);
* ``best-of-n``: ``ranking_mode="best"``: which is the best, which is the worst (2 calls);
  its ranking is (best, the rest tied, worst);
* ``tournament``: the guard's ``ranking_tournament``: every pair of responses through the
  pairwise task with the reverse and order checks (four calls a pair), the ranking the
  Bradley-Terry fit's (``Verdict.tournament``), its intransitive triples; its calls are
  the pairs' (``2 n (n - 1)``; the legs it also asks are the direct+reverse mode's).
  Asked only when named.

Figures per mode: ``tau`` the mean Kendall's tau-b between the mode's ranking and the
humans' over the items it ranks (an undefined tau, a ranking that ties everything,
counts 0), ``top1`` the share of **all** items whose predicted best are all among the
humans' best (no ranking, or a first place shared with a response the humans put lower, is
a miss), ``ranked`` the share with a ranking, ``calls`` the mean judge calls per item,
``consistent`` the share of consistent verdicts and the mean tau of the consistent ones
against the flagged ones (a flag worth having marks the worse rankings); on MT-Bench also
``pairs`` the share of the experts' judged pairs the ranking orders their way (a tie half).

A run of one mode that has verdicts of its own (``--ranking-modes permutations``, with or
without ``one-pass``) is also one guard's run: its ``summary.json`` records that guard's
judge and options and each item's verdict is its ``none`` configuration, so ``prin-guard
calibrate RUN [--min-tau TAU]`` reads it.

**One guard's run** (:func:`run_rankings`, what ``prin-guard calibrate`` reads; E1's):
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

import itertools
import json
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prin_guard._output._runs import Section, write_files
from prin_guard._ranking import (
    Ranking,
    kendall_tau_b,
    tier_index,
    top_agrees,
)
from prin_guard._route._options import GuardOptions
from prin_guard.datasets._rankings import (
    SUMMEVAL_ASPECTS,
    RankedItem,
    load_mt_bench_rankings,
    load_oasst_rankings,
    load_summeval_rankings,
)
from prin_guard.errors import UsageError
from prin_guard.eval._ratings import ASPECTS
from prin_guard.models import Verdict

__all__ = [
    "DEFAULT_MODES",
    "MODES",
    "RANKING_DATASETS",
    "ModeFigures",
    "load_ranked",
    "pairs_agreement",
    "ranked_item",
    "ranking_figures",
    "ranking_report_text",
    "run_ranking_modes",
    "run_rankings",
]

RANKING_DATASETS = ("oasst-rankings", "summeval-rankings", "mt-bench-rankings")
"""The names ``prin-guard eval`` runs as rankings."""
MODES = ("one-pass", "direct+reverse", "permutations", "adaptive", "best-of-n", "tournament")
DEFAULT_MODES = ("one-pass", "direct+reverse", "permutations", "adaptive")
DEFAULT_ORDERS = 4
"""Orders of the permutation and adaptive modes when ``ranking_orders`` is not set."""

_SHIPPED_MT_BENCH = (
    Path(__file__).resolve().parent.parent / "data" / "mt-bench-human" / "sample.jsonl"
)


def load_ranked(
    dataset: str,
    path: str | Path | None,
    *,
    aspect: str = "coherence",
    summaries: int = 4,
    seed: int = 0,
    limit: int | None = None,
) -> list[tuple[RankedItem, dict[str, Any]]]:
    """The first ``limit`` items of ``dataset`` (one of :data:`RANKING_DATASETS`), each with
    the ranking item a guard checks."""
    if dataset == "mt-bench-rankings":
        loaded: Iterable[RankedItem] = load_mt_bench_rankings(path or _SHIPPED_MT_BENCH)
    elif path is None:
        where = (
            "rankings/oasst-rankings.jsonl"
            if dataset.startswith("oasst")
            else "ratings/summeval.jsonl"
        )
        raise UsageError(
            f"--path: prin-guard ships no copy of {dataset}; give the file "
            f"(../shared/data/{where} in this project)"
        )
    elif dataset == "oasst-rankings":
        loaded = load_oasst_rankings(path)
    elif dataset == "summeval-rankings":
        if aspect not in SUMMEVAL_ASPECTS:
            raise UsageError(
                f"--aspects: unknown aspect {aspect!r}; known: {', '.join(SUMMEVAL_ASPECTS)}"
            )
        loaded = load_summeval_rankings(path, aspect, k=summaries, seed=seed)
    else:
        raise UsageError(f"dataset: {dataset!r} is not one of {', '.join(RANKING_DATASETS)}")
    out = []
    for ranked in itertools.islice(loaded, limit):
        question = None
        if ranked.criterion is not None:
            question = (
                f"{ranked.question} Rank the summaries by their {ranked.criterion}: "
                f"{ASPECTS[ranked.criterion]}."
            )
        out.append((ranked, ranked.as_item(question)))
    return out


def pairs_agreement(ranking: Ranking, pairs: Sequence[tuple[str, str]]) -> float | None:
    """The share of ``(better, worse)`` pairs ``ranking`` orders that way, a pair it ties
    counting half; ``None`` without pairs."""
    if not pairs:
        return None
    tier = tier_index(ranking)
    won = sum(1.0 if tier[b] < tier[w] else 0.5 if tier[b] == tier[w] else 0.0 for b, w in pairs)
    return won / len(pairs)


@dataclass(slots=True)
class ModeFigures:
    """One mode's results over the items, in item order."""

    mode: str
    rankings: list[Ranking | None] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    consistent: list[bool | None] = field(default_factory=list)
    """Whether the verdict is consistent (``None``: the mode has no verdict of its own)."""
    extra: list[dict[str, Any]] = field(default_factory=list)

    def figures(self, gold: Sequence[RankedItem]) -> dict[str, Any]:
        taus: list[float] = []
        clean: list[float] = []
        flagged: list[float] = []
        top1 = 0
        pairs: list[float] = []
        for ranked, ranking, consistent in zip(gold, self.rankings, self.consistent, strict=True):
            if ranking is None:
                continue
            tau = kendall_tau_b(ranking, ranked.gold) or 0.0
            taus.append(tau)
            if consistent is not None:
                (clean if consistent else flagged).append(tau)
            top1 += top_agrees(ranking, ranked.gold)
            agreed = pairs_agreement(ranking, ranked.pairs)
            if agreed is not None:
                pairs.append(agreed)
        n = len(gold)
        out: dict[str, Any] = {
            "items": n,
            "ranked": len(taus) / n if n else None,
            "tau": statistics.fmean(taus) if taus else None,
            "top1": top1 / n if n else None,
            "calls": statistics.fmean(self.calls) if self.calls else None,
            "pairs": statistics.fmean(pairs) if pairs else None,
            "consistent": (
                sum(c is True for c in self.consistent) / n
                if n and any(c is not None for c in self.consistent)
                else None
            ),
            "tau_consistent": statistics.fmean(clean) if clean else None,
            "tau_flagged": statistics.fmean(flagged) if flagged else None,
        }
        if self.mode == "tournament":
            rates = [
                e["intransitive_rate"] for e in self.extra if e["intransitive_rate"] is not None
            ]
            out["intransitive_rate"] = statistics.fmean(rates) if rates else None
            out["cycles"] = sum(len(e["cycles"]) for e in self.extra)
            out["decided_triples"] = sum(e["decided"] for e in self.extra)
        return out


def _leg_calls(leg: Any) -> int:
    """Calls a leg made: one, or a windowed leg's windows (its joined reply's headers)."""
    text = getattr(leg, "raw_text", None) or ""
    found = re.match(r"--- window 1 of (\d+):", text)
    return int(found.group(1)) if found else 1


def _mode_options(base: GuardOptions, mode: str, orders: int) -> GuardOptions:
    update: dict[str, Any] = {"checks": ("reverse",), "ranking_orders": 1}
    if mode in ("permutations", "adaptive"):
        update.update(checks=("reverse", "order"), ranking_orders=orders)
    if mode == "adaptive":
        update["ranking_adaptive"] = True
    update["ranking_mode"] = "best" if mode == "best-of-n" else "full"
    update["ranking_tournament"] = mode == "tournament"
    return base.model_copy(update=update)


def _tournament_figures(verdict: Verdict) -> tuple[Ranking | None, int, dict[str, Any]]:
    """A tournament verdict's Bradley-Terry ranking, the pairs' calls (its legs' left
    out) and its cycles."""
    found = verdict.tournament
    legs = sum(_leg_calls(leg) for leg in (verdict.direct, verdict.reverse) if leg is not None)
    if found is None:
        return (
            None,
            verdict.judge_calls - legs,
            {"cycles": [], "decided": 0, "intransitive_rate": None},
        )
    extra = {
        "cycles": [list(cycle) for cycle in found.cycles],
        "decided": found.decided,
        "intransitive_rate": len(found.cycles) / found.decided if found.decided else None,
        "strength": dict(found.strength),
        "interval": {label: [found.lower[label], found.upper[label]] for label in found.lower},
    }
    return found.ranking, verdict.judge_calls - legs, extra


def run_ranking_modes(
    judge: Any,
    dataset: str,
    items: Sequence[tuple[RankedItem, dict[str, Any]]],
    *,
    options: GuardOptions | None = None,
    modes: Sequence[str] = DEFAULT_MODES,
    orders: int | None = None,
    cache: Any = "memory",
    out: str | Path | None = None,
    judge_name: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Judge ``items`` (from :func:`load_ranked`) with ``judge`` in each of ``modes`` and
    return the summary (``modes``: each mode's figures); with ``out``, also write
    ``summary.json``, ``items.jsonl`` (per item and mode: the ranking, calls, flags, the
    whole verdict) and ``report.md``/``report.html`` there."""
    from prin_guard import Guard
    from prin_guard.cache import MemoryCache

    unknown = [mode for mode in modes if mode not in MODES]
    if unknown:
        raise UsageError(f"--ranking-modes: unknown mode {unknown[0]!r}; known: {', '.join(MODES)}")
    if not items:
        raise UsageError(f"dataset: {dataset} gave no ranking items")
    base = options or GuardOptions()
    count = orders or base.ranking_orders or DEFAULT_ORDERS
    if count < 2 and any(mode in ("permutations", "adaptive") for mode in modes):
        raise UsageError("--ranking-orders: the permutation modes need 2 or more orders")
    shared = MemoryCache() if cache == "memory" else cache
    gold = [ranked for ranked, _ in items]
    results = {mode: ModeFigures(mode) for mode in modes}
    verdicts: dict[str, list[Any]] = {}
    configs: dict[str, dict[str, Any]] = {}
    guards = []
    try:
        asked = [m for m in modes if m != "one-pass"]
        if "one-pass" in modes and "direct+reverse" not in asked:
            asked.insert(0, "direct+reverse")
        for mode in asked:
            guard = Guard(judge, options=_mode_options(base, mode, count), cache=shared)
            guards.append(guard)
            if progress:
                progress(f"{mode}: {len(items)} items")
            verdicts[mode] = guard.check_many([item for _, item in items])
            configs[mode] = {
                "judge": dict(guard.tiers[0]),
                "options": guard.options.model_dump(mode="json"),
            }
        for mode in asked:
            if mode not in results or mode == "tournament":
                continue
            for verdict in verdicts[mode]:
                results[mode].rankings.append(verdict.ranking)
                results[mode].calls.append(verdict.judge_calls)
                results[mode].consistent.append(verdict.consistent)
        if "one-pass" in results:
            for verdict in verdicts["direct+reverse"]:
                leg = verdict.direct
                results["one-pass"].rankings.append(leg.ranking if leg is not None else None)
                results["one-pass"].calls.append(_leg_calls(leg) if leg is not None else 0)
                results["one-pass"].consistent.append(None)
        if "tournament" in results:
            for verdict in verdicts["tournament"]:
                ranking, calls, extra = _tournament_figures(verdict)
                results["tournament"].rankings.append(ranking)
                results["tournament"].calls.append(calls)
                results["tournament"].consistent.append(None)
                results["tournament"].extra.append(extra)
    finally:
        for guard in guards:
            guard.close()
    name = judge_name or _judge_name(judge)
    summary: dict[str, Any] = {
        "dataset": dataset,
        "judge": name,
        "items": len(items),
        "orders": count,
        "tolerance": base.ranking_tolerance,
        "sizes": _sizes(gold),
        "modes": {mode: results[mode].figures(gold) for mode in modes},
    }
    judged = [mode for mode in modes if mode in configs]
    if len(judged) == 1:
        # one guard's run: what `prin-guard calibrate` reads (its verdicts as config none)
        summary["run"] = {"config": configs[judged[0]]}
    if out is not None:
        _write(
            Path(out), summary, items, results, verdicts, judged[0] if len(judged) == 1 else None
        )
    return summary


def _judge_name(judge: Any) -> str:
    identity = getattr(judge, "identity", None)
    if callable(identity):
        found = dict(identity())
        return str(found.get("model") or found.get("name") or type(judge).__name__)
    return str(getattr(judge, "__name__", type(judge).__name__))


def _sizes(gold: Sequence[RankedItem]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for ranked in gold:
        key = str(len(ranked.candidates))
        sizes[key] = sizes.get(key, 0) + 1
    return dict(sorted(sizes.items(), key=lambda pair: int(pair[0])))


def _write(
    directory: Path,
    summary: dict[str, Any],
    items: Sequence[tuple[RankedItem, dict[str, Any]]],
    results: dict[str, ModeFigures],
    verdicts: dict[str, list[Any]],
    calibrated: str | None = None,
) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / "items.jsonl").open("w", encoding="utf-8") as rows:
        for number, (ranked, _) in enumerate(items):
            row: dict[str, Any] = {
                "id": ranked.id,
                "task": "ranking",
                "gold": [list(tier) for tier in ranked.gold],
                "gold_known": True,
                "modes": {},
                # each mode's whole verdict, as eval runs keep their configurations'
                "configs": {
                    mode: verdicts[mode][number].model_dump(mode="json")
                    for mode in results
                    if mode in verdicts
                },
            }
            if calibrated is not None:
                row["configs"]["none"] = row["configs"][calibrated]
            for mode, figures in results.items():
                ranking = figures.rankings[number]
                entry: dict[str, Any] = {
                    "ranking": None if ranking is None else [list(t) for t in ranking],
                    "tau": None if ranking is None else kendall_tau_b(ranking, ranked.gold),
                    "calls": figures.calls[number],
                }
                if figures.extra:
                    entry.update(figures.extra[number])
                row["modes"][mode] = entry
            rows.write(json.dumps(row) + "\n")
    (directory / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    section = Section(
        "Agreement with the human rankings",
        _TEXT,
        header=list(_HEADER),
        rows=_rows(summary),
    )
    write_files(directory, _title(summary), [section])


_HEADER = [
    "mode",
    "items",
    "ranked",
    "Kendall τ-b",
    "top-1",
    "judged pairs",
    "calls / item",
    "consistent",
    "τ consistent / flagged",
]
_TEXT = (
    "Kendall's tau-b against the humans' ranking, mean over the items the mode ranks (an "
    "undefined tau counts 0); top-1: share of all items whose predicted best are all among "
    "the humans' best (no ranking is a miss); judged pairs (MT-Bench): share of the experts' "
    "own pairwise judgments the ranking orders their way, a tie half; calls: judge calls per "
    "item (calls another mode also made are counted in both)."
)


def _num(value: Any, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _rows(summary: dict[str, Any]) -> list[list[str]]:
    rows = []
    for mode, figures in summary["modes"].items():
        rows.append(
            [
                mode,
                str(figures["items"]),
                _num(figures["ranked"], 2),
                _num(figures["tau"]),
                _num(figures["top1"]),
                _num(figures["pairs"]),
                _num(figures["calls"], 2),
                _num(figures["consistent"], 2),
                f"{_num(figures['tau_consistent'])} / {_num(figures['tau_flagged'])}",
            ]
        )
    return rows


def _title(summary: dict[str, Any]) -> str:
    return f"{summary['dataset']} ({summary['items']} items): {summary['judge']}"


def ranking_report_text(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table, one row per mode (what the command prints)."""
    lines = [f"# Rankings, {_title(summary)}", "", _TEXT, ""]
    lines.append(
        f"Sizes (responses: items): {summary['sizes']}; orders {summary['orders']}, "
        f"tolerance {summary['tolerance']}."
    )
    lines.append("")
    lines.append("| " + " | ".join(_HEADER) + " |")
    lines.append("|" + "|".join("---" for _ in _HEADER) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in _rows(summary)]
    tournament = summary["modes"].get("tournament")
    if tournament is not None:
        lines.append("")
        lines.append(
            f"Tournament: {tournament['cycles']} intransitive triples of "
            f"{tournament['decided_triples']} decided (mean rate per item "
            f"{_num(tournament['intransitive_rate'])})."
        )
    return "\n".join(lines) + "\n"


# -- one guard's run, as calibrate reads it ---------------------------------------------


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
