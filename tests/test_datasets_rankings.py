"""Loaders of human rankings: OpenAssistant's crowd rankings, SummEval's by aspect."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from prin_guard._ranking import kendall_tau_b, labels_of
from prin_guard.datasets._rankings import (
    SUMMEVAL_ASPECTS,
    load_oasst_rankings,
    load_summeval_rankings,
)
from prin_guard.errors import UsageError


def _skips() -> tuple[list[tuple[int, str]], object]:
    skipped: list[tuple[int, str]] = []
    return skipped, lambda line, reason: skipped.append((line, reason))


# --------------------------------------------------------------------------- OpenAssistant


def test_oasst_rankings_load_as_source_md_counts_them(shared_data: Path) -> None:
    skipped, on_skip = _skips()
    items = list(
        load_oasst_rankings(shared_data / "rankings" / "oasst-rankings.jsonl", on_skip=on_skip)
    )  # type: ignore[arg-type]
    assert skipped == []
    sizes = collections.Counter(len(item.candidates) for item in items)
    assert sizes == {3: 117, 4: 27, 5: 3, 6: 6, 8: 1, 9: 1}
    for item in items:
        assert labels_of(item.gold) == set(item.labels)
        assert all(len(tier) == 1 for tier in item.gold)  # the crowd's rank has no ties
    assert sum(item.context is not None for item in items) == 64
    first = items[0]
    assert first.id == "oasst-000" and first.gold != (("A",), ("B",), ("C",))  # shuffled
    assert first.question == "How can I find the best 401k plan for my needs?"


def test_oasst_replies_are_shown_shuffled_since_the_file_lists_them_best_first(
    shared_data: Path,
) -> None:
    # the file order is the crowd's order on every row: shown so, position is the answer
    path = shared_data / "rankings" / "oasst-rankings.jsonl"
    in_file = list(load_oasst_rankings(path, seed=None))
    assert all(item.gold == tuple((label,) for label in item.labels) for item in in_file)
    shown = list(load_oasst_rankings(path))
    firsts = sum(item.gold[0] == ("A",) for item in shown)
    assert 30 < firsts < 80  # about one in three (117 of the 155 rows have 3 replies)
    assert [item.gold for item in shown] == [item.gold for item in load_oasst_rankings(path)]
    assert [item.gold for item in load_oasst_rankings(path, seed=1)] != [
        item.gold for item in shown
    ]


def test_oasst_gold_follows_the_recorded_indexes(shared_data: Path) -> None:
    path = shared_data / "rankings" / "oasst-rankings.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row, item in zip(rows, load_oasst_rankings(path), strict=True):
        best_first = [row["shown_texts"][i] for i in row["recorded_ranking"]]
        by_label = {c.label: c.text for c in item.candidates}
        assert [by_label[tier[0]] for tier in item.gold] == best_first


GOOD = {
    "id": "x-1",
    "question": "Say hi.",
    "conversation_before": [["prompter", "Hello"], ["assistant", "Hi!"]],
    "shown_texts": ["Hi", "Hello there", "Go away"],
    "recorded_ranking": [1, 0, 2],
}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param({"recorded_ranking": [1, 1, 2]}, "recorded_ranking", id="repeated index"),
        pytest.param({"recorded_ranking": [1, 0]}, "recorded_ranking", id="short ranking"),
        pytest.param(
            {"shown_texts": ["only one"], "recorded_ranking": [0]}, "shown_texts", id="one text"
        ),
        pytest.param(
            {"conversation_before": [["system", "x"]]}, "conversation_before.0", id="role"
        ),
        pytest.param({"question": ""}, "question", id="empty question"),
    ],
)
def test_a_malformed_oasst_row_is_skipped_and_the_rest_loads(
    tmp_path: Path, change: dict[str, object], reason: str
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({**GOOD, **change}) + "\n" + json.dumps(GOOD) + "\n")
    skipped, on_skip = _skips()
    items = list(load_oasst_rankings(path, seed=None, on_skip=on_skip))  # type: ignore[arg-type]
    assert len(items) == 1 and items[0].gold == (("B",), ("A",), ("C",))
    assert items[0].context == "User: Hello\n\nAssistant: Hi!"
    assert len(skipped) == 1 and skipped[0][0] == 1 and reason in skipped[0][1]


# --------------------------------------------------------------------------- SummEval


def _summeval(shared_data: Path) -> Path:
    return shared_data / "ratings" / "summeval.jsonl"


@pytest.mark.parametrize("aspect", SUMMEVAL_ASPECTS)
def test_summeval_rankings_rank_each_articles_distinct_summaries(
    shared_data: Path, aspect: str
) -> None:
    skipped, on_skip = _skips()
    items = list(load_summeval_rankings(_summeval(shared_data), aspect, on_skip=on_skip))  # type: ignore[arg-type]
    assert skipped == []
    assert len(items) == 100
    # 44 groups of 96 records repeat a summary text of their article (SOURCE.md)
    assert sum(len(item.candidates) for item in items) == 1600 - (96 - 44)
    for item in items:
        assert labels_of(item.gold) == set(item.labels)
        assert item.criterion == aspect and item.context


def test_summeval_gold_orders_by_the_expert_mean_with_exact_ties(shared_data: Path) -> None:
    path = _summeval(shared_data)
    rows = [json.loads(line) for line in path.read_text().splitlines()[:16]]
    item = next(load_summeval_rankings(path, "relevance"))
    mean = {}
    for row in rows:
        for candidate in item.candidates:
            if candidate.text == row["response"] and candidate.label not in mean:
                mean[candidate.label] = (
                    sum(row["expert_scores"]["relevance"]) / 3
                    if row["expert_scores"]
                    else row["expert_mean"]["relevance"]
                )
    places = {label: n for n, tier in enumerate(item.gold) for label in tier}
    for a in mean:
        for b in mean:
            if abs(mean[a] - mean[b]) < 1e-9:
                assert places[a] == places[b]
            elif mean[a] > mean[b]:
                assert places[a] < places[b]


def test_summeval_k_chooses_the_same_summaries_for_a_seed(shared_data: Path) -> None:
    path = _summeval(shared_data)
    first = list(load_summeval_rankings(path, "coherence", k=5, seed=3))
    again = list(load_summeval_rankings(path, "coherence", k=5, seed=3))
    other = list(load_summeval_rankings(path, "coherence", k=5, seed=4))
    assert [i.candidates for i in first] == [i.candidates for i in again]
    assert [i.candidates for i in first] != [i.candidates for i in other]
    assert all(len(item.candidates) == 5 for item in first)
    assert first[0].id.endswith("-coherence-k5-seed3")
    full = {c.text for c in next(load_summeval_rankings(path, "coherence")).candidates}
    assert {c.text for c in first[0].candidates} <= full


def test_summeval_articles_with_fewer_summaries_than_k_are_skipped(shared_data: Path) -> None:
    skipped, on_skip = _skips()
    items = list(load_summeval_rankings(_summeval(shared_data), "fluency", k=16, on_skip=on_skip))  # type: ignore[arg-type]
    assert len(items) + len(skipped) == 100 and skipped
    assert "fewer than k=16" in skipped[0][1]


def test_summeval_human_rankings_agree_with_the_fluency_ceiling(shared_data: Path) -> None:
    """Consistency and fluency are 5 for most summaries (SOURCE.md): their rankings are mostly
    ties at the top, which tau-b accounts for; coherence has few."""
    path = _summeval(shared_data)
    top_ties = {
        aspect: sum(len(item.gold[0]) for item in load_summeval_rankings(path, aspect))
        for aspect in SUMMEVAL_ASPECTS
    }
    assert top_ties["consistency"] > top_ties["coherence"]
    assert top_ties["fluency"] > top_ties["relevance"]
    item = next(load_summeval_rankings(path, "coherence"))
    assert kendall_tau_b(item.gold, item.gold) == pytest.approx(1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"aspect": "style"}, "aspect", id="aspect"),
        pytest.param({"aspect": "coherence", "k": 1}, "k:", id="k"),
    ],
)
def test_summeval_bad_arguments(tmp_path: Path, kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(UsageError, match=match):
        load_summeval_rankings(tmp_path / "none.jsonl", **kwargs)  # type: ignore[arg-type]
