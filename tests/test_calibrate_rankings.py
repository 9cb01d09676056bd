"""Calibrated acceptance for rankings (issue 40, item 8): ranking runs (eval's
``run_rankings``) calibrated with top-1 (and optionally a least Kendall's tau) as the
error, the file's guarantee, and a guard (one judge or a cascade) applying it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prin_guard import Acceptance, Flag, Guard, InvalidItemError, UsageError
from prin_guard._route._acceptance import ranking_wrong
from prin_guard.calibrate import calibrate, load_runs
from prin_guard.datasets._rankings import RankedItem
from prin_guard.eval._rankings import ranked_item, run_rankings
from prin_guard.models import Candidate

ITEMS = 64
SHOWN = re.compile(r"\[The Start of Response (\w+)\]\nreply (\d+) of item (\d+)\n")


def _entries() -> list[RankedItem]:
    """Four replies per item; reply ``k`` is the k-th best (0 the best), shown in a
    rotated order so that the best is not always first."""
    out = []
    for number in range(ITEMS):
        order = [(number + k) % 4 for k in range(4)]
        labels = "ABCD"
        candidates = tuple(
            Candidate(label=labels[i], text=f"reply {k} of item {number}")
            for i, k in enumerate(order)
        )
        gold = tuple((labels[order.index(k)],) for k in range(4))
        out.append(RankedItem(f"r{number}", f"Question {number}?", candidates, gold, number + 1))
    return out


def _ranked(prompt: str) -> tuple[list[str], int]:
    """The labels shown, best first by the replies' quality, and the item's number."""
    shown = [(label, int(k), int(item)) for label, k, item in SHOWN.findall(prompt)]
    return [label for label, _, _ in sorted(shown, key=lambda entry: entry[1])], shown[0][2]


def _reply(prompt: str, best_first: list[str]) -> str:
    if "from the worst to the best" in prompt:
        return "Ranking from worst to best: " + ", ".join(best_first[::-1])
    return "Ranking from best to worst: " + ", ".join(best_first)


def careful(prompt: str) -> str:
    """Ranks the replies by their quality: right, and consistent."""
    return _reply(prompt, _ranked(prompt)[0])


def sloppy(prompt: str) -> str:  # another judge's identity: its own cache keys
    """As ``careful``, but on every fourth item its direct leg ranks the worst first
    (its reverse leg stays right: the legs are opposed, and the verdict has no best)."""
    ranked, number = _ranked(prompt)
    if number % 4 == 0 and "from the worst to the best" not in prompt:
        return "Ranking from best to worst: " + ", ".join(ranked[::-1])
    return _reply(prompt, ranked)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("rankings")
    out: dict[str, object] = {}
    for name, judge in (("cheap", sloppy), ("strong", careful)):
        out[f"{name}-judge"] = judge
        out[name] = folder / name
        out[f"{name}-summary"] = run_rankings(
            Guard(judge, cache=None), _entries(), out=folder / name
        )
    return out


def test_a_ranking_is_wrong_without_one_off_the_top_or_under_the_least_tau() -> None:
    gold = (("A",), ("B",), ("C",))
    assert not ranking_wrong(gold, gold)
    assert ranking_wrong(None, gold)
    assert ranking_wrong((("B",), ("A",), ("C",)), gold)  # top-1 wrong
    assert not ranking_wrong((("A",), ("C",), ("B",)), gold)  # top-1 right: enough
    assert ranking_wrong((("A",), ("C",), ("B",)), gold, min_tau=0.5)  # tau 1/3
    assert not ranking_wrong((("A",), ("B", "C")), (("A", "B"), ("C",)))  # among the best


def test_a_ranking_run_reports_its_figures(runs: dict) -> None:
    strong, cheap = runs["strong-summary"], runs["cheap-summary"]
    assert strong["kendall_tau_b"] == 1.0 and strong["top1_agreement"] == 1.0
    assert strong["calls_per_item"] == 2.0 and strong["flagged"] == 0.0
    # the sloppy judge's every fourth item: legs opposed, so a tied consensus, no top-1
    assert cheap["top1_agreement"] == 0.75 and cheap["flagged"] == 0.25


def test_ranking_runs_take_a_least_tau_and_other_runs_refuse_one(runs: dict) -> None:
    data = load_runs([[runs["cheap"]]])
    assert (data.task, data.n, data.min_tau) == ("ranking", ITEMS, None)
    assert data.wrong(0).sum() == ITEMS // 4
    assert load_runs([[runs["cheap"]]], min_tau=0.5).min_tau == 0.5
    with pytest.raises(UsageError, match=r"^min_tau: must be"):
        load_runs([[runs["cheap"]]], min_tau=2)
    with pytest.raises(UsageError, match=r"^tolerance: the runs judged ranking items"):
        load_runs([[runs["cheap"]]], tolerance=1.0)


def test_a_calibrated_ranking_file_accepts_consistent_rankings_only(
    runs: dict, tmp_path: Path
) -> None:
    data = load_runs([[runs["cheap"]]], min_tau=0.5)
    acc = calibrate(data, alpha=0.1, delta=0.1, signals="prin").acceptance
    assert (acc.task, acc.error, acc.min_tau) == ("ranking", "ranking", 0.5)
    assert (acc.accepted, acc.errors) == (ITEMS * 3 // 4, 0)
    file = tmp_path / "acceptance.json"
    acc.save(file)
    assert Acceptance.load(file) == acc
    assert acc.tiers[0].options["ranking_mode"] == "full"

    guard = Guard(runs["cheap-judge"], acceptance=file)
    clean = guard.check(ranked_item(_entries()[1]))
    assert clean.decision is not None and clean.decision.accepted
    sloppy = guard.check(ranked_item(_entries()[4]))
    assert Flag.NOT_ACCEPTED in sloppy.flags
    with pytest.raises(InvalidItemError, match=r"^task: the item is a choice item"):
        guard.check({"question": "2 + 2?", "candidates": ["4", "5"]})
    with pytest.raises(UsageError, match=r"calibrated with ranking_mode="):
        Guard(runs["cheap-judge"], acceptance=file, ranking_mode="best")


def test_a_cascade_escalates_rankings_to_the_next_tier(runs: dict, tmp_path: Path) -> None:
    data = load_runs([[runs["cheap"]], [runs["strong"]]])
    acc = calibrate(data, alpha=0.1, delta=0.1, signals="prin", keep_idle_tiers=True).acceptance
    assert len(acc.tiers) == 2
    file = tmp_path / "cascade.json"
    acc.save(file)
    guard = Guard(tiers=[runs["cheap-judge"], runs["strong-judge"]], acceptance=file)
    escalated = guard.check(ranked_item(_entries()[8]))
    assert escalated.decision is not None
    assert (escalated.decision.accepted, escalated.decision.tier) == (True, 1)
    assert escalated.judge_calls == 4  # both tiers' two legs
    assert escalated.ranking == _entries()[8].gold
