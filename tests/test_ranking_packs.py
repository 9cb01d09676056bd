"""Ranking packs (issue 40, item 6): LLMZoo's ordering prompt and RankGPT's listwise prompt
render what their projects render, byte for byte; the reverse leg is prin-guard's; a guard
asks a ranking in a pack's words and reads both legs in the forms they ask for; bad ranking
templates are errors naming the field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Guard, Template, UsageError, read_reply
from prin_guard._prompting._prompts import get_template, packs
from prin_guard.errors import InvalidItemError
from prin_guard.models import Flag, ParseStatus, Polarity, RankingItem
from prin_guard.tasks._ranking import check_ranking_template, ranking_messages

DATA = Path(__file__).parent / "data" / "packs"
QUALITY = {
    "Boil it for nine minutes, then cool it in cold water.": 9,
    "Put it in boiling water for a while.": 6,
    "Eggs are laid by hens.": 2,
    "Fry it in a pan instead.": 1,
}
ITEM = RankingItem.coerce(
    {"task": "ranking", "question": "How do I boil an egg?", "candidates": list(QUALITY)[:3]}
)


def _source(name: str) -> dict[str, Any]:
    prompts: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))["prompts"]
    return prompts


# -- byte for byte ---------------------------------------------------------------------------


def test_llmzoo_order_renders_what_llmzoo_renders() -> None:
    source = _source("llmzoo-order-prompts.json")
    # eval_gpt_review_all.py, as LLMZoo builds the user message
    num2str = {3: "three"}
    answers = [candidate.text for candidate in ITEM.candidates]
    prompt = source["general"]["prompt"].format(num=3, num_str=num2str[3])
    role = source["general"]["role"]
    content = f"[Question]\n{ITEM.question}\n\n"
    content += "\n\n".join(
        [f"[{role} {i}]\n{ans}\n\n[End of {role} {i}]" for i, ans in enumerate(answers, start=1)]
    )
    content += "\n\n" + f"[System]\n{prompt}\n\n"
    expected = [
        {"role": "system", "content": source["system"]},
        {"role": "user", "content": content},
    ]
    assert ranking_messages(ITEM, Polarity.DIRECT, template=get_template("llmzoo-order")) == (
        expected
    )


def test_rankgpt_renders_what_rankgpt_renders() -> None:
    namespace: dict[str, Any] = {}
    exec(_source("rankgpt-prompts.json")["code"], namespace)  # RankGPT's own functions
    hits = [{"content": candidate.text} for candidate in ITEM.candidates]
    expected = namespace["create_permutation_instruction"](
        {"query": ITEM.question, "hits": hits}, 0, 3
    )
    assert ranking_messages(ITEM, Polarity.DIRECT, template=get_template("rankgpt")) == expected


@pytest.mark.parametrize("name", ["llmzoo-order", "rankgpt"])
def test_the_reverse_leg_differs_only_in_its_last_instruction(name: str) -> None:
    template = get_template(name)
    direct = ranking_messages(ITEM, Polarity.DIRECT, template=template)
    reverse = ranking_messages(ITEM, Polarity.REVERSE, template=template)
    assert len(direct) == len(reverse)
    assert direct[:-1] == reverse[:-1] or name == "llmzoo-order"
    last_direct, last_reverse = direct[-1]["content"], reverse[-1]["content"]
    shared = last_direct.split("[System]")[0] if name == "llmzoo-order" else ""
    assert last_reverse.startswith(shared)
    assert last_direct != last_reverse
    assert "Order from " in last_reverse and "Order from " not in last_direct


def test_the_packs_record_their_source_and_licence() -> None:
    for name, commit in (("llmzoo-order", "cf70d9cd7a34"), ("rankgpt", "0d62bc3855c7")):
        template = packs()[name]
        assert template.task == "ranking"
        assert template.licence == "Apache-2.0"
        assert template.source is not None and commit in template.source
        check_ranking_template(template)


# -- a guard asks in the pack's words ----------------------------------------------------------

_LLMZOO_SHOWN = re.compile(r"\[Assistant (\d+)\]\n(.*?)\n\n\[End of Assistant \1\]", re.S)
_RANKGPT_SHOWN = re.compile(r"User: \[(\d+)\] (.*?)\n\nAssistant: Received passage", re.S)


def llmzoo_judge(prompt: str) -> str:
    """Answers LLMZoo's direct leg with its ordering line, the reverse one with the line it
    asks for; ranks by the texts' quality, whatever the order shown."""
    shown = sorted(_LLMZOO_SHOWN.findall(prompt), key=lambda pair: -QUALITY[pair[1]])
    names = [f"Assistant {number}" for number, _ in shown]
    if "from the worst to the best" in prompt:
        return "Assistant 3 is the worst.\nOrder from worst to best: " + ", ".join(names[::-1])
    return "Assistant 1 is thorough.\nTherefore, the order is: " + " > ".join(names)


def rankgpt_judge(prompt: str) -> str:
    shown = sorted(_RANKGPT_SHOWN.findall(prompt), key=lambda pair: -QUALITY[pair[1]])
    ids = [f"[{number}]" for number, _ in shown]
    if "from the least relevant to the most relevant" in prompt:
        return "Order from least to most relevant: " + ", ".join(ids[::-1])
    return " > ".join(ids)


@pytest.mark.parametrize(
    ("name", "judge"), [("llmzoo-order", llmzoo_judge), ("rankgpt", rankgpt_judge)]
)
@pytest.mark.parametrize("checks", [("reverse",), ("reverse", "order")])
def test_a_guard_asks_in_the_pack_and_reads_both_legs(
    name: str, judge: Any, checks: tuple[str, ...]
) -> None:
    raw = {"task": "ranking", "question": "How do I boil an egg?", "candidates": list(QUALITY)}
    shuffled = {**raw, "candidates": [list(QUALITY)[i] for i in (2, 0, 3, 1)]}
    verdict = Guard(judge, cache=None, template=name, checks=checks).check(shuffled)
    assert verdict.direct is not None and verdict.reverse is not None
    assert verdict.direct.parse_status is ParseStatus.OK
    assert verdict.reverse.parse_status is ParseStatus.OK
    assert verdict.direct.template == name and verdict.reverse.template == name
    # B is the best text, D the second, A the third, C the worst
    assert verdict.ranking == (("B",), ("D",), ("A",), ("C",))
    assert verdict.reverse.ranking == (("C",), ("A",), ("D",), ("B",))
    assert verdict.best == "B" and verdict.worst == "C"
    assert verdict.prin_score == 0.0 and verdict.consistent
    assert verdict.judge_calls == (2 if checks == ("reverse",) else 2 * 3)


def test_a_reverse_leg_answered_best_first_is_polarity_confusion_under_a_pack() -> None:
    def judge(prompt: str) -> str:  # answers the reverse leg best first
        shown = sorted(_RANKGPT_SHOWN.findall(prompt), key=lambda pair: -QUALITY[pair[1]])
        ids = [f"[{number}]" for number, _ in shown]
        if "from the least relevant" in prompt:
            return "Order from least to most relevant: " + ", ".join(ids)
        return " > ".join(ids)

    verdict = Guard(judge, cache=None, template="rankgpt").check(ITEM.as_dict())
    assert Flag.POLARITY_CONFUSION in verdict.flags and not verdict.consistent


def test_a_pack_reply_missing_a_response_leaves_the_leg_unread() -> None:
    def judge(prompt: str) -> str:
        return "[2] > [1]" if "from the least" not in prompt else "Order: [1], [2], [3]"

    verdict = Guard(judge, cache=None, template="rankgpt").check(ITEM.as_dict())
    assert verdict.direct is not None and verdict.direct.parse_status is ParseStatus.FAILED
    assert Flag.UNPARSEABLE_DIRECT in verdict.flags


def test_guard_prompts_show_the_pack_and_say_what_each_leg_reads() -> None:
    legs = Guard(lambda p: "", cache=None, template="llmzoo-order").prompts(ITEM.as_dict())
    assert [leg.name for leg in legs] == ["direct", "reverse"]
    assert "ordering form" in legs[0].reads and "headed-list form" in legs[1].reads
    assert legs[0].messages == ranking_messages(
        ITEM, Polarity.DIRECT, template=get_template("llmzoo-order")
    )


def test_read_reply_reads_a_recorded_reply_with_the_pack() -> None:
    reading = read_reply(
        "Thus the order is: Assistant 2 > Assistant 1 = Assistant 3", ITEM.as_dict(),
        template=get_template("llmzoo-order"),
    )  # fmt: skip
    assert reading.ranking == (("B",), ("A", "C"))


# -- refusals ----------------------------------------------------------------------------------


def test_a_pack_refuses_best_of_n_and_an_item_with_a_context_it_never_shows() -> None:
    with pytest.raises(UsageError, match="ranking_mode"):
        Guard(lambda p: "", cache=None, template="rankgpt", ranking_mode="best").check(
            ITEM.as_dict()
        )
    with pytest.raises(InvalidItemError) as caught:
        Guard(lambda p: "", cache=None, template="rankgpt").check(
            {**ITEM.as_dict(), "context": "A cookbook page."}
        )
    assert caught.value.field == "context"


def test_a_label_task_template_asks_no_rankings() -> None:
    with pytest.raises(UsageError, match="pairwise questions, not rankings"):
        Guard(lambda p: "", cache=None, template="mt-bench-pair").check(ITEM.as_dict())


_OWN = {
    "id": "mine",
    "version": 1,
    "task": "ranking",
    "positive": "better",
    "negative": "worse",
    "instruction": "{question}\n\n{responses}\n\nRank them: B > A > C.",
    "reverse_instruction": "{question}\n\n{responses}\n\nOrder from worst to best: C, A, B.",
    "contract": {"format": {"kind": "ranking", "form": "ordering"}},
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"reverse_instruction": None}, "reverse_instruction"),
        ({"instruction": "{question} {shoes}", "reverse_instruction": "x"}, "instruction"),
        ({"instruction": "Rank them.", "reverse_instruction": "Rank them, worst first."},
         "instruction"),
        ({"values": {"colour": "red"}}, "values"),
        ({"values": {"label_kind": "roman"}}, "values.label_kind"),
        ({"values": {"intro": "{question}"}}, "values"),
        ({"contract": {"format": {"kind": "line", "prefix": "Answer:"}}}, "contract.format"),
        ({"contract": {"labels": ["A", "B", "C"], "format": {"kind": "ranking"}}},
         "contract.labels"),
        ({"candidate_format": "{label}"}, "candidate_format"),
        ({"placeholders": {"q": "reference"}}, "placeholders"),
    ],
)  # fmt: skip
def test_a_bad_ranking_template_is_an_error_naming_the_field(
    change: dict[str, Any], field: str
) -> None:
    template = Template.from_mapping({**_OWN, **change})
    with pytest.raises(UsageError, match=rf"template: {re.escape(field)}"):
        Guard(lambda p: "", cache=None, template=template).check(ITEM.as_dict())


def test_a_ranking_template_of_ones_own_asks_and_reads() -> None:
    def judge(prompt: str) -> str:
        return "Order from worst to best: C, A, B" if "worst" in prompt else "B > A > C"

    template = Template.from_mapping(_OWN)
    verdict = Guard(judge, cache=None, template=template).check(ITEM.as_dict())
    assert verdict.ranking == (("B",), ("A",), ("C",)) and verdict.consistent
