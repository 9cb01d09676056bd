"""Reverse legs where they matter (``reverse_legs='uncertain'``): the direct leg first, the
others only when its confidence is under ``reverse_below`` (and for a sampled share of the
confident items); verdicts say which legs were asked, flag rates count only the verdicts
that could carry the flag, and eval reports what skipping saved and what it missed."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Flag, Guard, GuardOptions, Item, UsageError
from prin_guard.cache import MemoryCache
from prin_guard.datasets import LabeledItem
from prin_guard.eval import EvalConfig
from prin_guard.eval._run import run_eval
from prin_guard.eval._summary import summarize
from prin_guard.grade import grade, summary_text
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message, Usage


class Sure:
    """Answers "A" to the direct question with the probability its question names
    ("sure 0.97"), "B, C" to the reverse one (or, for a question saying "torn", "A" to
    both: inconsistent); each call costs 0.001 USD."""

    def __init__(self, tokens: bool = True) -> None:
        self.calls: list[str] = []
        self.tokens = tokens

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "sure"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        text = messages[-1]["content"]
        reverse = "incorrect ones" in text
        self.calls.append("reverse" if reverse else "direct")
        answer = "A" if not reverse or "torn" in text else "B, C"
        p = float(text.split("sure ")[1].split()[0]) if not reverse else 0.99
        tokens = (("Answer: ", 0.0), (answer, math.log(p))) if self.tokens else None
        usage = Usage(prompt_tokens=100, completion_tokens=3, cost_usd=0.001)
        return JudgeResponse(text=f"Answer: {answer}", tokens=tokens, usage=usage)


def item(question: str, name: str | None = None) -> Item:
    return Item(question=question, candidates=["4", "5", "6"], id=name or question)


def test_a_confident_direct_leg_is_the_verdict_alone() -> None:
    judge = Sure()
    guard = Guard(judge, reverse_legs="uncertain", reverse_below=0.9, monitor_share=0.0)
    verdict = guard.check(item("sure 0.97 torn"))
    assert judge.calls == ["direct"]
    assert verdict.selected == "confident"
    assert verdict.reverse is None and verdict.permuted == ()
    assert verdict.correct == ("A",)
    assert "reverse" not in verdict.checks
    assert verdict.flags == ()  # no reverse leg, so nothing to be inconsistent with
    assert verdict.scores.direct_confidence == pytest.approx(0.97)
    assert verdict.judge_calls == 1 and verdict.premium == pytest.approx(1.0)


def test_an_uncertain_one_asks_every_leg_and_is_flagged_as_usual() -> None:
    judge = Sure()
    options = {"reverse_legs": "uncertain", "reverse_below": 0.9, "monitor_share": 0.0}
    guard = Guard(judge, checks="reverse,order", **options)
    verdict = guard.check(item("sure 0.6 torn"))
    assert sorted(judge.calls) == ["direct", "direct", "reverse", "reverse"]
    assert verdict.selected == "uncertain"
    assert verdict.reverse is not None and len(verdict.permuted) == 2
    assert Flag.INCONSISTENT in verdict.flags
    assert verdict.judge_calls == 4


def test_a_monitored_share_of_the_confident_is_asked_in_full() -> None:
    judge = Sure()
    guard = Guard(judge, reverse_legs="uncertain", reverse_below=0.9, monitor_share=1.0)
    verdict = guard.check(item("sure 0.97 torn"))
    assert verdict.selected == "monitored"
    assert judge.calls == ["direct", "reverse"]
    assert Flag.INCONSISTENT in verdict.flags


def test_a_direct_leg_without_a_confidence_counts_as_uncertain() -> None:
    judge = Sure(tokens=False)
    guard = Guard(judge, reverse_legs="uncertain", reverse_below=0.5)
    verdict = guard.check(item("sure 0.99"))
    assert verdict.selected == "uncertain" and judge.calls == ["direct", "reverse"]


def test_the_monitored_items_are_drawn_by_id_at_the_share() -> None:
    guard = Guard(Sure(), reverse_legs="uncertain", reverse_below=0.9, monitor_share=0.25)
    verdicts = guard.check_many([item("sure 0.97", f"q{n}") for n in range(400)])
    monitored = sum(v.selected == "monitored" for v in verdicts)
    assert 60 < monitored < 140  # a quarter of 400, drawn by hash
    again = guard.check_many([item("sure 0.97", f"q{n}") for n in range(400)])
    assert [v.selected for v in again] == [v.selected for v in verdicts]


def test_uncertain_needs_a_threshold() -> None:
    with pytest.raises(UsageError, match="reverse_below"):
        Guard(Sure(), reverse_legs="uncertain")
    with pytest.raises(UsageError, match="reverse_below"):
        GuardOptions.of(reverse_below=1.5)


def test_grade_counts_flags_only_over_the_rows_that_could_carry_them(tmp_path: Path) -> None:
    given = tmp_path / "in.jsonl"
    rows = [item("sure 0.97 torn", "a"), item("sure 0.6 torn", "b"), item("sure 0.6", "c")]
    given.write_text("".join(row.model_dump_json() + "\n" for row in rows))
    guard = Guard(Sure(), reverse_legs="uncertain", reverse_below=0.9, monitor_share=0.0)
    summary = grade(guard, given, tmp_path / "out.jsonl")
    assert summary.reverse_skipped == 1
    # one of the two rows whose reverse leg was asked is inconsistent: a half, not a third
    assert summary.flag_rates["inconsistent"] == pytest.approx(0.5)
    assert "reverse legs skipped on 1 of 3 rows" in summary_text(summary)
    selected = [json.loads(line)["selected"] for line in (tmp_path / "out.jsonl").open()]
    assert sorted(selected) == ["confident", "uncertain", "uncertain"]


def test_eval_reports_what_skipping_saved_and_what_it_missed(tmp_path: Path) -> None:
    # gold: "A" is right on q-right items, wrong on q-wrong ones
    def labelled(question: str, name: str, gold: str) -> LabeledItem:
        return LabeledItem(item=item(question, name), gold=(gold,), line=1)

    records = [
        labelled("sure 0.97", "confident-right", "A"),
        labelled("sure 0.97", "confident-wrong", "B"),
        labelled("sure 0.6", "uncertain-right", "A"),
        labelled("sure 0.6 torn", "uncertain-torn", "B"),
    ]
    config = EvalConfig(
        dataset="toy",
        mitigations=(),
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        options=GuardOptions(reverse_legs="uncertain", reverse_below=0.9, monitor_share=0.0),
    )
    items = tmp_path / "items.jsonl"
    stats = asyncio.run(run_eval(Sure(), records, config, items_path=items, cache=MemoryCache()))
    written = [json.loads(line) for line in items.read_text().splitlines()]
    summary = summarize(written, run={"config": stats["config"]})
    block = summary.reverse_legs
    assert block is not None
    assert (block.confident, block.uncertain, block.monitored) == (2, 2, 0)
    assert block.judge_calls_saved == 2  # one reverse leg per confident verdict
    assert block.cost_saved_usd == pytest.approx(0.002)  # at the full verdicts' premium
    assert block.confident_wrong == 1 and block.confident_error_rate == 0.5
    # the inconsistent flag over the verdicts that asked the reverse leg: 1 of 2
    assert summary.configs["none"].flag_rates["inconsistent"] == 0.5


def test_the_threshold_of_an_acceptance_rule_on_direct_confidence_is_the_guards() -> None:
    from test_acceptance import acceptance

    from prin_guard import Acceptance
    from prin_guard._route._acceptance import Rule

    judge = Sure()
    options = {
        "template": "v0",
        "mitigations": [],
        "policy": "direct",
        "checks": ["reverse"],
        "prompt_layout": "template",
    }
    made: Acceptance = acceptance(
        Rule(signal="direct_confidence", threshold=0.9),
        judges=(dict(judge.identity()),),
        options=options,
    )
    guard = Guard(
        judge, acceptance=made, policy="direct", reverse_legs="uncertain", monitor_share=0.0
    )
    assert guard.options.reverse_below == 0.9
    confident = guard.check(item("sure 0.97", "x"))
    # the rule calibrated on direct answers accepts the confident one, alone
    assert confident.selected == "confident" and confident.accepted is True
    uncertain = guard.check(item("sure 0.6", "y"))
    assert uncertain.selected == "uncertain" and uncertain.accepted is False
