"""The reader on real free-text replies to multiple-choice questions (issue 38): legs a real
1.5B judge answered through the guard's own choice prompts (MathQA, AQuA-RAT, MMLU; direct
and reverse; with and without zero-shot CoT) and GPT-4o / DeepSeek-Chat CoT replies to
MMLU-Pro that TIGER-AI-Lab/MMLU-Pro committed, each with the reading a careful person gives
it (tests/data/replies/choice-freetext, SOURCES.md there). Read through
``prin_guard.read_reply`` on the reply's own item, leg, template and mitigations, no reply
is misread without a mark (weak or polarity-confused), and the share read right does not
fall under what the reader reached when the corpus was written. ``python -m
bench.reader_choice_freetext --misses`` prints the figures and every reply not read right.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.reader_choice_freetext import Outcome, read, records

RECORDS = list(records())
RIGHT_FLOOR_PERCENT = 88
"""The share of replies read right (the expected labels, marked weak or not; failed where
none can be told): 81 of 100 by the reader of main 9d9fe84 when the corpus was written, 82
after issue 38's round 3 (0 confident misreads, 11 of the right readings weak), 85 after its
follow-up (a LaTeX label, a conclusion ending a line, a label with a candidate's text; 6
weak), 88 after the second follow-up (a label and its own text on a line of its own or in
the answer sentence; 6 weak). A reader may read more, never less."""


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    return [read(record) for record in RECORDS]


def test_the_corpus_is_what_the_issue_asks_for() -> None:
    # every dataset and leg the issue names, replies cut at the token limit, reverse legs
    # that answer the direct question, and real replies of other projects' models
    local = [r for r in RECORDS if r["source"].startswith("qwen")]
    assert {r["dataset"] for r in local} == {"mathqa", "aqua-rat", "mmlu"}
    assert {(r["polarity"], "cot" in r["mitigations"]) for r in local} == {
        (polarity, cot) for polarity in ("direct", "reverse") for cot in (True, False)
    }
    assert len(local) >= 60
    assert any(r["cut_at_limit"] for r in local)
    assert any(r.get("polarity_confused") for r in local)
    assert len([r for r in RECORDS if r["source"].startswith("mmlu-pro")]) >= 30
    for record in RECORDS:
        labels = [c["label"] for c in record["item"]["candidates"]]
        assert record["expected"] is None or set(record["expected"]) <= set(labels), record["id"]
        assert record["note"], record["id"]
    assert len({r["id"] for r in RECORDS}) == len(RECORDS)


def test_no_reply_is_misread_without_a_mark(outcomes: list[Outcome]) -> None:
    confident = [
        (o.record["id"], o.record["expected"], o.read) for o in outcomes if o.kind == "confident"
    ]
    assert confident == []


def test_the_share_read_right_stays_at_its_floor(outcomes: list[Outcome]) -> None:
    kinds = Counter(o.kind for o in outcomes)
    right = kinds["right"] + kinds["right_weak"]
    assert 100 * right >= RIGHT_FLOOR_PERCENT * len(outcomes), kinds
