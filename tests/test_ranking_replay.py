"""A real judge's recorded ranking replies, replayed (issue 40, item 7).

``tests/data/rankings-qwen/`` holds every reply Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, on
llama.cpp) wrote to OpenAssistant ranking items in ``prin-guard eval oasst-rankings
--ranking-modes one-pass,direct+reverse`` (see its SOURCE.md), with the SHA-256 of each
conversation it was sent. Replayed through the guard and the eval's figures, and each reply
through ``prin_guard.read_reply``, they must give what the run recorded: the same prompts
(a prompt that changed is a reply the model never wrote, and fails here), the same readings,
the same figures (BENCHMARKS.md section 14d, docs/ranking.md)."""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bench.ranking_replies import conversation_digest
from prin_guard import read_reply
from prin_guard.datasets._rankings import RankedItem
from prin_guard.eval._rankings import run_ranking_modes
from prin_guard.judges import JudgeResponse
from prin_guard.models import Candidate, Message

DATA = Path(__file__).parent / "data" / "rankings-qwen"
ROWS = [json.loads(line) for line in (DATA / "replies.jsonl").read_text().splitlines()]
FIGURES = json.loads((DATA / "figures.json").read_text())


class ReplayJudge:
    """Answers a conversation with the reply recorded for it (by its digest); a
    conversation never recorded is an error, not a guess."""

    def __init__(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self.replies = {
            leg["prompt_sha256"]: leg["reply"] for row in rows for leg in row["legs"].values()
        }
        self.asked: list[str] = []

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "replay", "name": "qwen2.5-coder-1.5b-instruct-q4_k_m"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        digest = conversation_digest(messages)
        if digest not in self.replies:
            raise AssertionError(f"a conversation the model was never sent: {digest}")
        self.asked.append(digest)
        return JudgeResponse(text=self.replies[digest])


def _items() -> list[tuple[RankedItem, dict[str, Any]]]:
    out = []
    for row in ROWS:
        ranked = RankedItem(
            id=row["id"],
            question=row["question"],
            candidates=tuple(
                Candidate(label=string.ascii_uppercase[n], text=text)
                for n, text in enumerate(row["candidates"])
            ),
            gold=tuple(tuple(tier) for tier in row["gold"]),
            line=row["source_line"],
            context=row["context"],
        )
        out.append((ranked, ranked.as_item()))
    return out


def test_the_recording_is_what_the_run_describes() -> None:
    assert len(ROWS) == FIGURES["items"] == FIGURES["modes"]["direct+reverse"]["items"]
    assert len({row["id"] for row in ROWS}) == len(ROWS)
    for row in ROWS:
        assert 3 <= len(row["candidates"]) <= 9
        for leg in row["legs"].values():
            assert (leg["template"], leg["template_version"]) == ("ranking", 1)


def test_replayed_through_the_eval_the_replies_give_the_recorded_figures() -> None:
    judge = ReplayJudge(ROWS)
    summary = run_ranking_modes(
        judge, "oasst-rankings", _items(), modes=("one-pass", "direct+reverse")
    )
    assert len(judge.asked) == 2 * len(ROWS)  # every leg asked once, all recorded
    assert set(judge.asked) == set(judge.replies)
    for mode in ("one-pass", "direct+reverse"):
        got, recorded = summary["modes"][mode], FIGURES["modes"][mode]
        assert set(got) == set(recorded)
        for key, value in recorded.items():
            assert got[key] == pytest.approx(value), (mode, key)


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_each_reply_reads_as_recorded(row: dict[str, Any]) -> None:
    item = {"task": "ranking", "question": row["question"], "candidates": row["candidates"]}
    if row["context"]:
        item["context"] = row["context"]
    for polarity, leg in row["legs"].items():
        reading = read_reply(leg["reply"], item, polarity=polarity)
        ranking = None if reading.ranking is None else [list(tier) for tier in reading.ranking]
        assert ranking == leg["ranking"], polarity
        assert (reading.status == "ok") == (leg["parse_status"] == "ok"), polarity
