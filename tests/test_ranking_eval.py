"""Rankings measured against human rankings (issue 40, item 7): the MT-Bench ranking
loader's aggregation, ``run_ranking_modes``'s modes with scripted judges that know the gold
(an oracle), read only the order shown (positional) or prefer by text, and
``prin-guard eval`` on a ranking dataset."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prin_guard._ranking import tier_index
from prin_guard._route._informative import uninformative
from prin_guard.cli import main
from prin_guard.datasets._rankings import RankedItem, load_mt_bench_rankings
from prin_guard.errors import UsageError
from prin_guard.eval._rankings import (
    load_ranked,
    pairs_agreement,
    ranking_report_text,
    run_ranking_modes,
)

_SHOWN = re.compile(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End of Response \1\]", re.S)
_PAIR = re.compile(r"Response A:\n(`{3,})\n(.*?)\n\1\nResponse B:\n(`{3,})\n(.*?)\n\3", re.S)


def _row(number: int, question: str, first: str, second: str, label: int) -> str:
    return json.dumps(
        {
            "id": f"mtbench-{number}",
            "instruction": question,
            "output_1": first,
            "output_2": second,
            "label": label,
        }
    )


@pytest.fixture
def mt_bench(tmp_path: Path) -> Path:
    """Three questions: a chain with a repeated pair (majority), a star, a split pair with
    two parts; and a question with a cycle."""
    rows = [
        _row(0, "chain?", "c1", "c2", 1),  # c1 > c2
        _row(1, "chain?", "c2", "c3", 1),  # c2 > c3
        _row(2, "chain?", "c3", "c2", 1),  # c3 > c2: c2 vs c3 is 1-1 ... undecided
        _row(3, "chain?", "c3", "c2", 2),  # ... c2 wins 2-1
        _row(4, "star?", "s1", "s2", 1),
        _row(5, "star?", "s3", "s1", 2),
        _row(6, "parts?", "p1", "p2", 1),
        _row(7, "parts?", "p3", "p4", 1),
        _row(8, "cycle?", "y1", "y2", 1),
        _row(9, "cycle?", "y2", "y3", 1),
        _row(10, "cycle?", "y3", "y1", 1),
        _row(11, "cycle?", "y4", "y1", 2),
    ]
    path = tmp_path / "mt.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_mt_bench_rankings_close_the_experts_pairs_and_tie_what_they_leave_open(
    mt_bench: Path,
) -> None:
    items = {item.question: item for item in load_mt_bench_rankings(mt_bench)}
    assert set(items) == {"chain?", "star?", "cycle?"}  # "parts?" is two pairs: no item
    chain = items["chain?"]
    assert [c.text for c in chain.candidates] == ["c1", "c2", "c3"]
    assert chain.gold == (("A",), ("B",), ("C",))  # closed: c1 > c3, never judged
    assert chain.pairs == (("A", "B"), ("B", "C"))  # the majority of three votes
    assert items["star?"].gold == (("A",), ("B", "C"))  # s2 and s3 never compared
    cycle = items["cycle?"]
    assert cycle.gold == (("A", "B", "C"), ("D",))  # a cycle ties; all beat y4
    assert chain.id == "mt-bench-0-0"


def test_mt_bench_rankings_of_the_shipped_sample_and_the_full_subset() -> None:
    sample = list(load_ranked("mt-bench-rankings", None))
    assert [len(ranked.candidates) for ranked, _ in sample] == [3, 3, 3]
    for ranked, item in sample:
        assert item["task"] == "ranking" and len(item["candidates"]) == len(ranked.candidates)
        assert pairs_agreement(ranked.gold, ranked.pairs) == 1.0  # gold keeps every pair
    from tests.conftest import SHARED_DATA

    full = SHARED_DATA / "llmbar" / "mt-bench-human.jsonl"
    if not full.is_file():
        pytest.skip("the full MT-Bench subset is not here")
    items = list(load_mt_bench_rankings(full))
    assert len(items) == 53
    assert sum(len(item.pairs) for item in items) == 151
    # the experts' own majorities hold one cycle (A > C > D > A), tied in the gold
    broken = [item for item in items if pairs_agreement(item.gold, item.pairs) != 1.0]
    assert [item.id for item in broken] == ["mt-bench-46-0"]
    assert broken[0].gold == (("F",), ("E",), ("A", "C", "D"), ("B",))


def test_pairs_agreement_counts_a_tie_half() -> None:
    pairs = (("A", "B"), ("B", "C"))
    assert pairs_agreement((("A",), ("B",), ("C",)), pairs) == 1.0
    assert pairs_agreement((("C",), ("B",), ("A",)), pairs) == 0.0
    assert pairs_agreement((("A", "B"), ("C",)), pairs) == 0.75
    assert pairs_agreement((("A",), ("B",), ("C",)), ()) is None


# -- the modes, with scripted judges ------------------------------------------------------


def _items(count: int = 6) -> list[tuple[RankedItem, dict[str, object]]]:
    """Items of four responses whose gold orders them by the number in their text."""
    from prin_guard.models import Candidate

    out = []
    for number in range(count):
        scores = [(number * 7 + k * 3) % 11 for k in range(4)]
        candidates = tuple(
            Candidate(label="ABCD"[k], text=f"answer worth {score} (item {number})")
            for k, score in enumerate(scores)
        )
        gold = tuple((c.label,) for c in sorted(candidates, key=lambda c: -int(c.text.split()[2])))
        ranked = RankedItem(
            id=f"i{number}",
            question=f"question {number}?",
            candidates=candidates,
            gold=gold,
            line=number + 1,
        )
        out.append((ranked, ranked.as_item()))
    return out


def _worth(text: str) -> int:
    return int(text.split()[2])


def _reply(prompt: str, best_first: list[str]) -> str:
    if "decide which response is the best" in prompt:
        return f"Best: [[{best_first[0]}]]"
    if "decide which response is the worst" in prompt:
        return f"Worst: [[{best_first[-1]}]]"
    if "from the worst to the best" in prompt:
        return "Ranking from worst to best: " + ", ".join(reversed(best_first))
    return "Ranking from best to worst: " + ", ".join(best_first)


def oracle(prompt: str) -> str:
    """Ranks by the worth in the texts (the gold); in a pair, names the better (worse)."""
    pair = _PAIR.search(prompt)
    if pair is not None:
        better = "A" if _worth(pair.group(2)) > _worth(pair.group(4)) else "B"
        worse = "B" if better == "A" else "A"
        return f"Answer: {worse if 'output the worse one' in prompt else better}"
    shown = sorted(_SHOWN.findall(prompt), key=lambda p: -_worth(p[1]))
    return _reply(prompt, [label for label, _ in shown])


def positional(prompt: str) -> str:
    """Ranks the responses in the order shown; in a pair, always the first shown."""
    if _PAIR.search(prompt) is not None:
        return "Answer: A"
    return _reply(prompt, [label for label, _ in _SHOWN.findall(prompt)])


def test_an_oracle_agrees_with_the_humans_in_every_mode() -> None:
    modes = ("one-pass", "direct+reverse", "permutations", "adaptive", "best-of-n", "tournament")
    summary = run_ranking_modes(oracle, "test", _items(), modes=modes, orders=4, cache=None)
    figures = summary["modes"]
    for mode in ("one-pass", "direct+reverse", "permutations", "adaptive", "tournament"):
        assert figures[mode]["tau"] == 1.0, mode
        assert figures[mode]["top1"] == 1.0, mode
    assert figures["best-of-n"]["top1"] == 1.0
    assert figures["one-pass"]["calls"] == 1
    assert figures["direct+reverse"]["calls"] == 2
    assert figures["permutations"]["calls"] == 8
    assert figures["adaptive"]["calls"] == 4  # the first two orders agree: stop there
    assert figures["best-of-n"]["calls"] == 2
    assert figures["tournament"]["calls"] == 24  # 6 pairs, 4 legs each
    assert figures["tournament"]["intransitive_rate"] == 0.0
    assert figures["direct+reverse"]["consistent"] == 1.0
    text = ranking_report_text(summary)
    assert "| adaptive | 6 | 1.00 | 1.000 | 1.000 | — | 4.00 |" in text


def test_a_positional_judge_is_caught_by_the_orders_not_by_the_legs() -> None:
    summary = run_ranking_modes(
        positional,
        "test",
        _items(),
        modes=("direct+reverse", "permutations", "adaptive"),
        orders=4,
        cache=None,
    )
    figures = summary["modes"]
    # its two legs agree (both follow the order shown): consistent, and wrong
    assert figures["direct+reverse"]["consistent"] == 1.0
    # the orders disagree: flagged, and the consensus ties what the orders dispute
    assert figures["permutations"]["consistent"] == 0.0
    assert figures["adaptive"]["calls"] == 8  # never two orders agreeing: all four asked
    assert figures["permutations"]["ranked"] == 1.0


def test_uninformative_names_a_judge_that_writes_one_ranking_always() -> None:
    from prin_guard import Guard

    items = [item for _, item in _items(12)]
    assert [u.kind for u in uninformative(Guard(positional, cache=None).check_many(items))] == [
        "one_answer"
    ]
    assert uninformative(Guard(oracle, cache=None).check_many(items)) == []


def test_run_rankings_writes_a_run_and_refuses_bad_modes(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown mode 'fast'"):
        run_ranking_modes(oracle, "test", _items(), modes=("fast",))
    with pytest.raises(UsageError, match="2 or more orders"):
        run_ranking_modes(oracle, "test", _items(), modes=("permutations",), orders=1)
    run_ranking_modes(oracle, "test", _items(2), modes=("one-pass", "direct+reverse"), out=tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert [row["id"] for row in rows] == ["i0", "i1"]
    assert rows[0]["modes"]["one-pass"]["tau"] == 1.0
    assert rows[0]["configs"]["direct+reverse"]["task"] == "ranking"
    # one-pass has no verdict of its own: one guard's run, its verdict also config none
    assert list(rows[0]["configs"]) == ["direct+reverse", "none"]
    assert json.loads((tmp_path / "summary.json").read_text())["items"] == 2
    assert "Agreement with the human rankings" in (tmp_path / "report.md").read_text()


def test_load_ranked_names_what_is_missing() -> None:
    with pytest.raises(UsageError, match="--path"):
        load_ranked("oasst-rankings", None)
    with pytest.raises(UsageError, match="unknown aspect"):
        load_ranked("summeval-rankings", "x.jsonl", aspect="style")


def test_summeval_rankings_put_the_aspect_in_the_question() -> None:
    from tests.conftest import SHARED_DATA

    path = SHARED_DATA / "ratings" / "summeval.jsonl"
    if not path.is_file():
        pytest.skip("SummEval is not here")
    ((ranked, item),) = load_ranked("summeval-rankings", path, aspect="relevance", limit=1)
    assert len(item["candidates"]) == 4 and item["context"]
    assert "Rank the summaries by their relevance: the selection of important" in item["question"]
    assert ranked.criterion == "relevance"


def test_eval_command_runs_a_ranking_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "ranking_eval_judge.py"
    module.write_text(
        "import re\n"
        "SHOWN = re.compile(r'\\[The Start of Response (\\w+)\\]\\n(.*?)\\n\\[The End', re.S)\n"
        "def make():\n"
        "    def judge(prompt):\n"
        "        labels = [label for label, _ in SHOWN.findall(prompt)]\n"
        "        if 'from the worst to the best' in prompt:\n"
        "            return 'Ranking from worst to best: ' + ', '.join(reversed(labels))\n"
        "        return 'Ranking from best to worst: ' + ', '.join(labels)\n"
        "    return judge\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    args = ["eval", "mt-bench-rankings", "--judge", "python:ranking_eval_judge:make"]
    args += ["--ranking-modes", "one-pass,direct+reverse", "--out", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "# Rankings, mt-bench-rankings (3 items)" in printed
    assert "| direct+reverse | 3 | 1.00 |" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sizes"] == {"3": 3}
    gold = {ranked.id: ranked for ranked, _ in load_ranked("mt-bench-rankings", None)}
    rows = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    for row in rows:  # the judge ranked in the order shown: A, B, C, ...
        ranking = tuple(tuple(tier) for tier in row["modes"]["one-pass"]["ranking"])
        assert list(tier_index(ranking)) == list(gold[row["id"]].labels)


def test_a_ranking_eval_rerun_resumes_from_its_disk_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--cache reaches the ranking eval: a second run asks the judge nothing."""
    module = tmp_path / "ranking_cache_judge.py"
    module.write_text(
        "CALLS = []\n"
        "def make():\n"
        "    def judge(prompt):\n"
        "        CALLS.append(prompt)\n"
        "        if 'from the worst to the best' in prompt:\n"
        "            return 'Ranking from worst to best: C, B, A'\n"
        "        return 'Ranking from best to worst: A, B, C'\n"
        "    return judge\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import ranking_cache_judge  # type: ignore[import-not-found]

    cache = tmp_path / "run-cache.sqlite3"
    args = ["eval", "mt-bench-rankings", "--judge", "python:ranking_cache_judge:make"]
    args += ["--ranking-modes", "direct+reverse", "--cache", str(cache), "--limit", "2"]
    assert main([*args, "--out", str(tmp_path / "first")]) == 0
    assert len(ranking_cache_judge.CALLS) == 4 and cache.is_file()
    assert main([*args, "--out", str(tmp_path / "second")]) == 0
    assert len(ranking_cache_judge.CALLS) == 4  # every leg read from the cache


def test_a_run_of_one_mode_is_what_calibrate_reads(tmp_path: Path) -> None:
    from prin_guard.calibrate._data import load_runs

    run_ranking_modes(oracle, "test", _items(), modes=("one-pass", "permutations"), out=tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["config"]["options"]["ranking_orders"] == 4
    data = load_runs([[tmp_path]], min_tau=0.5)
    assert data.task == "ranking" and data.n == 6
    assert not data.wrong(0).any()  # the oracle is right on every item
    several = tmp_path / "several"
    run_ranking_modes(oracle, "test", _items(), modes=("direct+reverse", "adaptive"), out=several)
    assert "run" not in json.loads((several / "summary.json").read_text())
