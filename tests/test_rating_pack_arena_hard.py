"""The arena-hard-v1-single rating pack renders, byte for byte, what Arena-Hard v1 sent its
judge (lmarena/arena-hard-auto @ 4a705dd, then "Arena-Bench-V1"): the config's system_prompt
as the system message and the user prompts recorded beside gpt-4's judgments as the user
message (tests/data/packs/SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prin_guard import Guard, InvalidItemError
from prin_guard._prompting._prompts import packs

PACKS = Path(__file__).parent / "data" / "packs"
PACK = "arena-hard-v1-single"
CONFIG = json.loads((PACKS / "arena-hard-v1-judge-config.json").read_text(encoding="utf-8"))
SYSTEM = CONFIG["prompts"][PACK]["system_prompt"]
TEMPLATE = CONFIG["prompts"][PACK]["prompt_template"]
RECORDS = [
    json.loads(line)
    for line in (PACKS / "arena-hard-v1-single.jsonl").read_text(encoding="utf-8").splitlines()
]


def _judge(prompt: str) -> str:
    # a plain function sees "System: ...\n\nUser: ..."; the mirrored leg's system asks how poor
    return "Few flaws. Rating: [[3]]" if "how poor the response" in prompt else "Rating: [[8]]"


def _item(record: dict) -> dict:
    return {
        "task": "rating",
        "question": record["question"],
        "reference": record["reference"],
        "response": record["response"],
        "scale": {"min": 1, "max": 10},
    }


def test_the_sample_is_what_the_recorded_prompts_hold() -> None:
    # the item's fields, cut from the recorded prompt, give it back through judge.py's own
    # formatting (prompt_template.format with question_1, ref_answer_1, answer_1)
    assert len(RECORDS) >= 35 and len({record["model"] for record in RECORDS}) >= 10
    for record in RECORDS:
        sent = TEMPLATE.format(
            question_1=record["question"],
            ref_answer_1=record["reference"],
            answer_1=record["response"],
        )
        assert sent == record["user_prompt"], record["id"]


def test_the_packs_system_is_the_configs_system_prompt() -> None:
    pack = packs()[PACK]
    assert pack.system == SYSTEM and SYSTEM.endswith('"Rating: [[5]]".\n\n')
    assert pack.scale == (1, 10) and pack.licence == "Apache-2.0"
    assert pack.source is not None and "4a705dd6963f777aba2ae79259e3013934e6e012" in pack.source


@pytest.mark.parametrize("record", RECORDS, ids=[record["id"] for record in RECORDS])
def test_the_pack_renders_what_arena_hard_v1_sent(record: dict) -> None:
    guard = Guard(_judge, template=PACK)
    item = _item(record)
    assert guard.messages(item) == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": record["user_prompt"]},
    ]
    # the mirrored leg: the scale mirrored and said so in the system message; the user
    # message is the same, so the response is shown as it is
    system, user = guard.messages(item, "reverse")
    mirrored = system["content"]
    assert system["role"] == "system" and mirrored != SYSTEM
    assert "you must rate how poor the response is" in mirrored
    assert "on a scale of 1 to 10, where 1 means excellent and 10 means very poor" in mirrored
    assert "Note that this scale is mirrored" in mirrored
    assert user == {"role": "user", "content": record["user_prompt"]}
    assert record["response"] in user["content"]


def test_a_rating_through_the_pack_reads_both_legs() -> None:
    verdict = Guard(_judge, template=PACK).check(_item(RECORDS[0]))
    assert (verdict.rating, verdict.flags) == (8.0, ())
    assert verdict.direct is not None and verdict.direct.template == PACK


def test_the_pack_needs_the_reference() -> None:
    item = _item(RECORDS[0])
    del item["reference"]
    with pytest.raises(InvalidItemError, match=r"^reference: required"):
        Guard(_judge, template=PACK).messages(item)
