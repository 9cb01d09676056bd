"""The probe in the guard and in `prin-guard probe`: scripted judges for the logic,
the bundled model for the real conversation."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Flag, Guard, Item, MemoryCache, UsageError
from prin_guard.datasets import LabeledItem
from prin_guard.judges import ScriptedJudge
from prin_guard.probe import Probe
from prin_guard.probe._report import write_probe_report
from prin_guard.probe._run import probe_records
from prin_guard.probe._summary import probe_summary

ITEM = Item(question="Is the sky blue?", candidates=["Yes", "No"], id="sky")


class ConversationJudge(ScriptedJudge):
    """Answers by (question asked first, follow-up asked last): sees the whole conversation."""

    def __init__(self, replies: dict[tuple[str, str], str]) -> None:
        super().__init__()
        self.replies = replies

    async def complete(self, messages, *, labels=()):  # type: ignore[no-untyped-def, override]
        from prin_guard.judges import JudgeResponse

        self.calls.append(list(messages))
        polarity = "reverse" if "incorrect ones" in messages[0]["content"] else "direct"
        last = messages[-1]["content"] if len(messages) > 1 else ""
        turn = next(
            (
                name
                for marker, name in (
                    ("Are you sure?", "closed"),
                    ("I don't agree", "open"),
                    ("I think the answer should be", "leading"),
                )
                if last.startswith(marker)
            ),
            "first",
        )
        return JudgeResponse(text=self.replies[(polarity, turn)])


def _judge(direct: list[str], reverse: list[str]) -> ConversationJudge:
    turns = ("first", "closed", "open", "leading")
    replies = {("direct", t): r for t, r in zip(turns, direct, strict=True)}
    replies |= {("reverse", t): r for t, r in zip(turns, reverse, strict=True)}
    return ConversationJudge(replies)


HOLDS = (["Answer: A"] * 4, ["Answer: B"] * 4)


def test_a_judge_that_holds_its_answer_is_not_flagged() -> None:
    verdict = Guard(_judge(*HOLDS), probe="closed").check(ITEM)
    assert Flag.VACILLATING not in verdict.flags
    assert [(r.polarity.value, r.round, r.followup_type, r.changed) for r in verdict.probe] == [
        ("direct", 1, "closed", False),
        ("reverse", 1, "closed", False),
    ]


def test_vacillation_is_flagged_and_the_verdict_stays_the_first_answer() -> None:
    judge = _judge(["Answer: A", "Answer: B", "Answer: B", "Answer: B"], ["Answer: B"] * 4)
    plain = Guard(judge).check(ITEM)
    probed = Guard(judge, probe="closed").check(ITEM)
    assert probed.correct == plain.correct == ("A",)
    assert probed.prin_score == plain.prin_score == 0.0
    assert Flag.VACILLATING in probed.flags
    direct_round = next(r for r in probed.probe if r.polarity.value == "direct")
    assert direct_round.labels == ("B",)
    assert direct_round.changed
    assert direct_round.followup.startswith("Are you sure? Reply with one line")


def test_progressive_form_asks_three_rounds_in_one_conversation() -> None:
    judge = _judge(["Answer: A", "Answer: A", "Answer: A", "Answer: B"], ["Answer: B"] * 4)
    verdict = Guard(judge, probe="progressive").check(ITEM)
    direct = [r for r in verdict.probe if r.polarity.value == "direct"]
    assert [(r.round, r.followup_type, r.changed) for r in direct] == [
        (1, "closed", False),
        (2, "open", False),
        (3, "leading", True),
    ]
    # the third call carried the whole conversation: question, answer, and two rounds
    conversation = max(judge.calls, key=len)
    assert [m["role"] for m in conversation] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert conversation[1]["content"] == "Answer: A"
    # the misleading answer is the one the judge did not give
    assert conversation[-1]["content"].startswith("I think the answer should be B.")


def test_probe_calls_are_cached_like_legs() -> None:
    judge = _judge(*HOLDS)
    guard = Guard(judge, probe="progressive")
    first = guard.check(ITEM)
    calls = judge.call_count
    assert calls == 2 + 2 * 3
    second = guard.check(ITEM)
    assert judge.call_count == calls
    assert second.cached
    assert second.probe == tuple(
        r.model_copy(update={"cached": True, "latency_ms": 0.0}) for r in first.probe
    )


class KeyRecorder(MemoryCache):
    """A memory cache that remembers every key written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.written: set[str] = set()

    async def set_many(self, entries: Mapping[str, str]) -> None:
        self.written |= set(entries)
        await super().set_many(entries)


def test_follow_up_rounds_keep_their_cache_keys() -> None:
    # A follow-up is keyed by the judge and the whole conversation, the paper's text
    # included: a key that moves makes every cached follow-up a miss. These are the
    # keys written before that text became package data.
    plain, probed = KeyRecorder(), KeyRecorder()
    Guard(ScriptedJudge("Answer: A", "Answer: B"), cache=plain).check(ITEM)
    Guard(ScriptedJudge("Answer: A", "Answer: B"), probe="closed", cache=probed).check(ITEM)
    assert probed.written - plain.written == {
        "prin_guard:v1:6f7bb9c1978fe3361945e99b48686814cb0c31cd57927168a37679f1d11bdddd",
        "prin_guard:v1:ae3754057e008afc5c5779f85be122ce611f69659948da3957c7c1977b88470d",
    }


def test_guard_rejects_probe_placements_that_change_the_first_question() -> None:
    with pytest.raises(UsageError, match="follow-ups"):
        Guard(ScriptedJudge(), probe=Probe(mitigations=("few_shot",)))
    with pytest.raises(UsageError, match="unknown probe"):
        Guard(ScriptedJudge(), probe="suspicious")
    Guard(ScriptedJudge(), probe=Probe(mitigations=("zero_shot_cot",), position="follow_up"))


def _records() -> list[LabeledItem]:
    return [
        LabeledItem(
            item=Item(question=f"q{i}", candidates=["Yes", "No"], id=f"i{i}"), gold=("A",), line=i
        )
        for i in range(4)
    ]


def _probe_judge() -> ScriptedJudge:
    """i0: right, flips on round 2. i1: right, never flips. i2: wrong, recovers on round 1.
    i3: unreadable first answer."""

    script: dict[str, list[str]] = {
        "q0": ["Answer: A", "Answer: A", "Answer: B", "Answer: B"],
        "q1": ["Answer: A"] * 4,
        "q2": ["Answer: B", "Answer: A", "Answer: A", "Answer: A"],
        "q3": ["hmm", "hmm", "hmm", "hmm"],
    }

    class Judge(ScriptedJudge):
        async def complete(self, messages, *, labels=()):  # type: ignore[no-untyped-def, override]
            self.calls.append(list(messages))
            found = re.search(r"Given this question\s+`{3,}\n(\S+)", messages[0]["content"])
            assert found, messages[0]["content"]
            question = found.group(1).rstrip("?")
            turn = sum(m["role"] == "assistant" for m in messages)
            from prin_guard.judges import JudgeResponse

            return JudgeResponse(text=script[question][turn])

    return Judge()


def test_probe_run_metrics_by_hand(tmp_path: Path) -> None:
    judge = _probe_judge()
    asyncio.run(
        probe_records(
            judge,
            _records(),
            Probe.of("progressive"),
            items_path=tmp_path / "items.jsonl",
            cache=None,
        )
    )
    records = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    summary = probe_summary(records, run={"prompt_set": "A"})
    rounds = summary.model_dump(mode="json")["by_round"]
    # before: i0 right, i1 right, i2 wrong, i3 unreadable (wrong) -> 2/4
    assert rounds["closed"]["accuracy_before"] == pytest.approx(0.5)
    # round 1: i0 A, i1 A, i2 A -> 3/4: M = -0.25, E->R = 1/2
    assert rounds["closed"]["accuracy_after"] == pytest.approx(0.75)
    assert rounds["closed"]["modification"] == pytest.approx(-0.25)
    assert rounds["closed"]["e_to_r_rate"] == pytest.approx(0.5)
    # round 2: i0 flips to B -> 2/4: M = 0, M. Rate 0
    assert rounds["open"]["accuracy_after"] == pytest.approx(0.5)
    assert rounds["open"]["modification_rate"] == pytest.approx(0.0)
    assert summary.unreadable_first_answers == 1
    html = write_probe_report(summary, tmp_path, title="t").read_text()
    assert "data:image/png;base64," in html
    assert "| closed | 4 | 50.0 | 75.0 | -25.0 |" in (tmp_path / "report.md").read_text()


def test_direct_form_runs_each_type_in_its_own_conversation(tmp_path: Path) -> None:
    judge = _probe_judge()
    asyncio.run(
        probe_records(
            judge,
            _records()[:2],
            Probe.of("closed"),
            items_path=tmp_path / "items.jsonl",
            cache=None,
        )
    )
    records = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    summary = probe_summary(records, run={})
    assert set(summary.by_type) == {"closed", "open", "leading"}
    assert all(len(c) <= 3 for c in judge.calls)  # question, answer, one follow-up


@pytest.mark.model
def test_real_probe_of_the_bundled_model_on_strategyqa(shared_data: Path, tmp_path: Path) -> None:
    from prin_guard import LocalJudge
    from prin_guard.datasets import load_dataset

    records = list(
        load_dataset("strategyqa", path=shared_data / "strategyqa" / "task.json", limit=3)
    )
    asyncio.run(
        probe_records(
            LocalJudge(),
            records,
            Probe.of("progressive"),
            items_path=tmp_path / "items.jsonl",
            cache=None,
        )
    )
    rows = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    for row in rows:
        assert "error" not in row
        assert row["first"]["parse_status"] in {"ok", "none", "failed"}
        for entry in row["runs"]["progressive"]:
            assert entry["parse_status"] in {"ok", "none", "failed"}
            assert entry["raw_text"] is not None
    summary = probe_summary(rows, run={})
    assert set(summary.by_round) == {"closed", "open", "leading"}
    assert 0.0 <= summary.by_round["closed"].accuracy_before <= 1.0


def test_the_probe_speaks_the_items_task_and_template() -> None:
    # issue 29, item 6: a pairwise item's follow-ups end by asking for the answer as the
    # template asks for it (MT-Bench's tags here), and are read as its legs are
    from prin_guard import Guard

    asked: list[list[dict[str, str]]] = []

    class Judge:
        def identity(self) -> dict[str, str]:
            return {"kind": "probe-pairs"}

        async def complete(self, messages: Any, *, labels: Any = ()) -> Any:
            from prin_guard.judges import JudgeResponse

            asked.append([dict(m) for m in messages])
            worse = "is worse" in messages[0]["content"]
            if len(messages) > 2:  # a follow-up: the judge changes its mind
                return JudgeResponse(text="On reflection, [[A]]" if not worse else "[[B]]")
            return JudgeResponse(text="[[A]]" if worse else "[[B]]")

    item = {"task": "pairwise", "question": "Capital of France?", "candidates": ["Lyon", "Paris"]}
    verdict = Guard(Judge(), template="mt-bench-pair", probe="closed", cache=None).check(item)
    followups = [conversation for conversation in asked if len(conversation) > 2]
    assert followups, asked
    for conversation in followups:
        last = conversation[-1]["content"]
        assert '"[[A]]", "[[B]]", or "[[C]]" for a tie' in last
        assert "options" not in last and "Answer:" not in last
    assert "vacillating" in verdict.flags
    assert {r.labels for r in verdict.probe} == {("A",), ("B",)}
