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

from bench.reader_choice_freetext import HOLDOUT, Outcome, read, records

RECORDS = list(records())
ROUND2 = "qwen2.5-coder-1.5b-r2"
RIGHT_FLOOR_PERCENT = 97
"""The share of replies read right (the expected labels, marked weak or not; failed where
none can be told): 81 of 100 by the reader of main 9d9fe84 when the corpus was written, 82
after issue 38's round 3 (0 confident misreads, 11 of the right readings weak), 85 after its
follow-up (a LaTeX label, a conclusion ending a line, a label with a candidate's text; 6
weak), 88 after the second follow-up (a label and its own text on a line of its own or in
the answer sentence; 6 weak); with the second round of the local judge (146 replies), 130
by the reader of main 65f9ae7 and 143 after the reader work of that round (a reverse leg
that answers the direct question fails, listings and cut replies are no answer, subjects
named by texts, per-option lines; 7 weak), 144 after the predicate rule's branch ("None of
the given ratios form a proportion with 6/9." is the direct question's none). A reader may
read more, never less."""


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


ROUND2_RIGHT_FLOOR_PERCENT = 95
"""The second round of the local judge (guard prompts with and without CoT and NEG_EXP,
and plain user questions), read right by the reader of its commit: see SOURCES.md."""


def test_the_second_round_is_what_it_says() -> None:
    round2 = [r for r in RECORDS if r["source"] == ROUND2]
    assert len(round2) >= 40
    assert {r["route"] for r in round2} == {"guard", "user", "brief"}
    assert {r["dataset"] for r in round2} == {"mathqa", "aqua-rat", "mmlu"}
    assert {r["polarity"] for r in round2} == {"direct", "reverse"}
    assert any("neg_exp" in r["mitigations"] for r in round2)
    assert any(r["polarity_confused"] for r in round2)
    for record in round2:
        # what was asked is recorded: the guard's own prompt, or the user's question
        (message,) = record["messages"]
        assert record["route"] == "guard" or record["phrasing"] in message["content"]


def test_the_second_round_reads_at_its_floor(outcomes: list[Outcome]) -> None:
    mine = [o for o in outcomes if o.record["source"] == ROUND2]
    kinds = Counter(o.kind for o in mine)
    assert kinds["confident"] == 0, [o.record["id"] for o in mine if o.kind == "confident"]
    assert 100 * (kinds["right"] + kinds["right_weak"]) >= ROUND2_RIGHT_FLOOR_PERCENT * len(mine)


HOLDOUT_RIGHT_FLOOR_PERCENT = 85
"""The hand-written hold-out (tests/data/replies/choice-holdout, written before the second
round's reader work and never tuned to): 40 of 56 read right before it, 43 after its
first commit, 45 after its second (README), 47 after the predicate rule (a reverse leg
whose answer names the candidates it said have the question's predicate fails), 48 after
"so" and labels (holdout:30 "Whales and bats are mammals, so A and C.", read when the
reply said those candidates have the predicate)."""
HOLDOUT_KNOWN_CONFIDENT: set[str] = set()
"""Its confident misreads: none. Its two of before (holdout:25 "The Red Planet is
Mars.\n\nAnswer: B" and holdout:37 "Whales and bats are mammals. The answer is A, C.",
reverse legs that answer the direct question through its predicate) fail, marked
polarity-confused. A reader may never add one."""


def test_the_holdout_reads_at_its_floor_and_adds_no_confident_misread() -> None:
    held = [read(record) for record in records(HOLDOUT)]
    assert len(held) >= 40
    kinds = Counter(o.kind for o in held)
    confident = {o.record["id"] for o in held if o.kind == "confident"}
    assert confident <= HOLDOUT_KNOWN_CONFIDENT
    assert 100 * (kinds["right"] + kinds["right_weak"]) >= HOLDOUT_RIGHT_FLOOR_PERCENT * len(held)


BLIND_SETS = {
    # folder: (replies, floor of the share read right in percent, known confident misreads)
    "choice-holdout-a": (100, 96, set()),
    "choice-holdout-b": (100, 96, set()),
    "choice-holdout-c": (100, 90, set()),
    "choice-holdout-d": (100, 100, set()),
    "choice-holdout-e": (80, 95, set()),
    "choice-holdout-f": (100, 95, set()),
    "choice-holdout-g": (100, 96, set()),
    "choice-holdout-h": (100, 88, set()),
    "choice-real-b": (207, 92, set()),
    "choice-real-c": (161, 98, set()),
    "choice-vault": (110, 92, set()),
    "choice-vault-2": (120, 81, set()),
}
"""The hand-written sets of issue 38 (tests/data/replies/choice-holdout-a to -e, round 4;
-f, -g and -h, round 5; each folder's README): written blind to the reader, first measured
before any rule was written from their misses (a 75, b 80, c 60, d 85 of 100, e 65 of 80;
f 81 of 100 with 3 confident misreads, g 73 of 100 with 8, h 71 of 100 with 2), then
worked on, so their floors are tuned figures, not held-back ones. None has a confident
misread left; a reader may never add one. choice-real-b is real: 207 CoT replies of nine
models (MMLU-Pro, BIG-Bench Hard) that two repositories committed, read by hand before the
reader ran on them; first measured 178 of 207 (1 confident misread), 192 after round 5's
rules (0). choice-real-c is real too: 161 replies of four OpenAI models (MedMCQA,
CommonsenseQA) from two repositories, read by hand before the reader ran; first measured
151 of 161 (1 confident misread), 159 after round 6's rules (0). choice-vault, round 4's
vault, was retired on 2026-12-07: first measured 81 of 110 (4 confident misreads) by the
reader of main 957eb4f, 93 of 110 (1 confident) at its retirement, when its misses were
printed for the first time (main 865d986, the reader of 474bce7), then worked on like the
others: 102 of 110, none confident. choice-vault-2, round 5's vault, was retired on
2026-12-07: first measured 84 of 120 (3 confident misreads), 85 (2) at its retirement, when
its misses were printed for the first time, then worked on by cause (its README): 98 of 120,
none confident. The vault now is choice-vault-3, read by no test: its misses are never
printed, and its figure (`bench.reader_choice_freetext --corpus
tests/data/replies/choice-vault-3`, table only) is the round's untuned one."""


@pytest.mark.parametrize("folder", sorted(BLIND_SETS))
def test_a_blind_set_reads_at_its_floor_and_adds_no_confident_misread(folder: str) -> None:
    size, floor, known = BLIND_SETS[folder]
    held = [read(record) for record in records(HOLDOUT.parent / folder)]
    assert len(held) == size
    kinds = Counter(o.kind for o in held)
    confident = {o.record["id"] for o in held if o.kind == "confident"}
    assert confident <= known, sorted(confident - known)
    assert 100 * (kinds["right"] + kinds["right_weak"]) >= floor * size, kinds
