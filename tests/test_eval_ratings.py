"""Ratings measured against human ratings (issue 30): rank correlations computed as
scipy computes them, per article as G-Eval does, on SummEval's real file."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from prin_guard import Guard, UsageError
from prin_guard.cli import main
from prin_guard.eval._ratings import (
    kendall_tau_b,
    load_summeval,
    per_article,
    rating_summary,
    spearman,
)
from prin_guard.judges import JudgeResponse

SUMMEVAL = (
    Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ratings" / "summeval.jsonl"
)
needs_summeval = pytest.mark.skipif(not SUMMEVAL.is_file(), reason="../shared/data absent")


def test_correlations_match_scipy_with_ties() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(2, 16)
        x = [float(rng.randint(1, 5)) for _ in range(n)]
        y = [rng.choice([1.0, 1.33, 2.0, 2.67, 3.0, 4.33, 5.0]) for _ in range(n)]
        rho, tau = spearman(x, y), kendall_tau_b(x, y)
        if len(set(x)) < 2 or len(set(y)) < 2:
            assert rho is None and tau is None
            continue
        assert rho == pytest.approx(stats.spearmanr(x, y).statistic)
        assert tau == pytest.approx(stats.kendalltau(x, y).statistic)


def test_per_article_leaves_out_articles_with_no_correlation() -> None:
    triples = [("a", 1, 1), ("a", 2, 2), ("a", 3, 3), ("b", 4, 1), ("b", 4, 2)]
    figures = per_article(triples)
    assert figures == {"spearman": 1.0, "kendall": 1.0, "articles": 2, "articles_correlated": 1}


@needs_summeval
def test_summeval_loads_whole_articles_without_losing_a_field() -> None:
    rated = load_summeval(SUMMEVAL, "coherence", articles=2)
    assert len(rated) == 32 and len({entry.article for entry in rated}) == 2
    first = rated[0]
    assert first.item["scale"] == {"min": 1, "max": 5} and first.item["context"]
    assert 1 <= first.human <= 5 and first.item["id"].endswith(":coherence")
    with pytest.raises(UsageError, match="unknown aspect"):
        load_summeval(SUMMEVAL, "style")


def _oracle(humans: dict[str, float]):
    """A judge that knows the experts' mean of each summary: it rates it rounded, and
    mirrors that on the reverse leg, except that it gives the same number on both legs
    for summaries the experts rated 3 or less (a judge confused by the mirror)."""

    def judge(prompt: str) -> str:
        summary = prompt.split("[The Start of Assistant's Answer]\n", 1)[1]
        summary = summary.split("\n[The End of Assistant's Answer]", 1)[0]
        human = humans[summary]
        score = max(1, min(5, round(human)))
        if "how poor the response" in prompt and human > 3:
            return f"Rating: [[{6 - score}]]"
        return f"Rating: [[{score}]]"

    return judge


@needs_summeval
def test_figures_on_real_summeval_items() -> None:
    rated = load_summeval(SUMMEVAL, "relevance", articles=3)
    humans = {entry.item["response"]: entry.human for entry in rated}
    verdicts = Guard(_oracle(humans), concurrency=4).check_many([e.item for e in rated])
    figures = rating_summary(rated, verdicts)
    assert figures["items"] == figures["direct_read"] == 48
    assert figures["direct"]["spearman"] > 0.8 and figures["direct"]["mae"] < 0.5
    confused = [v for v in verdicts if v.direct.score != 3 and v.direct.score == v.reverse.score]
    assert figures["flags"]["polarity_confusion"] == len(confused) > 0
    assert figures["rated"] == 48 - figures["flags"]["inconsistent"]


@needs_summeval
def test_eval_summeval_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rated = load_summeval(SUMMEVAL, "fluency", articles=1)
    humans = {entry.item["response"]: entry.human for entry in rated}
    module = tmp_path / "summeval_oracle.py"
    module.write_text(f"HUMANS = {json.dumps(humans)}\n" + _ORACLE_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["eval", "summeval", "--judge", "python:summeval_oracle:judge", "--limit", "16"]
    args += ["--path", str(SUMMEVAL)]
    assert main([*args, "--aspects", "fluency", "--out", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "| fluency | 16 | 16 |" in out
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["aspects"]["fluency"]["direct"]["articles"] == 1
    rows = (tmp_path / "run" / "items.jsonl").read_text().splitlines()
    assert len(rows) == 16 and "source" not in json.loads(rows[0])
    # the report: the table, and the scatter plot of scores against the experts' mean
    html = (tmp_path / "run" / "report.html").read_text()
    assert "<td>fluency</td>" in html and 'src="data:image/png;base64,' in html
    assert (tmp_path / "run" / "scatter.png").read_bytes().startswith(b"\x89PNG")
    assert (
        "![Correlation with the experts](scatter.png)"
        in (tmp_path / "run" / "report.md").read_text()
    )
    assert main(["eval", "summeval", "--judge", "python:summeval_oracle:judge"]) == 2
    assert "--path: SummEval's articles" in capsys.readouterr().err


_ORACLE_SOURCE = """
def judge(prompt):
    summary = prompt.split("[The Start of Assistant's Answer]\\n", 1)[1]
    summary = summary.split("\\n[The End of Assistant's Answer]", 1)[0]
    score = max(1, min(5, round(HUMANS[summary])))
    return f"Rating: [[{6 - score if 'how poor the response' in prompt else score}]]"
"""


@needs_summeval
def test_expected_scores_rank_better_than_rounded_ones() -> None:
    # A judge that writes the experts' mean rounded, with its token alternatives weighing
    # the two integers around it (G-Eval's expected score recovers the mean): the expected
    # figures are reported beside the read ones, and rank the summaries better
    rated = load_summeval(SUMMEVAL, "coherence", articles=3)
    humans = {entry.item["response"]: entry.human for entry in rated}

    class Judge:
        def identity(self) -> dict:
            return {"kind": "expected-oracle"}

        async def complete(self, messages, *, labels=()):
            prompt = messages[-1]["content"]
            summary = prompt.split("[The Start of Assistant's Answer]\n", 1)[1]
            human = humans[summary.split("\n[The End of Assistant's Answer]", 1)[0]]
            mirrored = "how poor the response" in prompt
            value = 6 - human if mirrored else human
            low = max(1, min(4, math.floor(value)))
            weight = min(max(value - low, 0.01), 0.99)  # the share of low + 1
            written = low + 1 if weight >= 0.5 else low
            alternatives = tuple(
                (str(score), math.log(p))
                for score, p in ((low, 1 - weight), (low + 1, weight))
                if p > 0
            ) or ((str(written), 0.0),)
            text = f"Rating: [[{written}]]"
            tokens = (("Rating: [[", 0.0), (str(written), 0.0), ("]]", 0.0))
            steps = (tokens[:1], alternatives, tokens[2:])
            return JudgeResponse(text, tokens=tokens, alternatives=steps)

    verdicts = Guard(Judge(), concurrency=4).check_many([e.item for e in rated])
    figures = rating_summary(rated, verdicts)
    expected, read = figures["expected_guarded"], figures["guarded"]
    assert figures["expected_direct"]["items"] == 48 and expected["items"] > 0
    assert expected["mae"] < read["mae"]
    assert expected["spearman"] > read["spearman"]
