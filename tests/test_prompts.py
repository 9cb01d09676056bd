from __future__ import annotations

import pytest

from prin_guard import Candidate, Item, UsageError
from prin_guard._prompts import TEMPLATES, build_prompt, get_template, parse_mitigations
from prin_guard.models import Mitigation, Polarity

ITEM = Item(question="What is 2 + 2?", candidates=["3", "4", "5"])


@pytest.mark.parametrize(
    ("template", "direct", "reverse"),
    [
        pytest.param("v0", "correct", "incorrect", id="v0-paper"),
        pytest.param("v1", "right", "wrong", id="v1-paraphrase"),
        pytest.param("v2", "appropriate", "inappropriate", id="v2-paraphrase"),
    ],
)
def test_templates_use_the_paper_wording(template: str, direct: str, reverse: str) -> None:
    t = get_template(template)
    options = '"A) 3", "B) 4", "C) 5"'
    head = f"Given this question What is 2 + 2? and its answer options: {options}, "
    assert build_prompt(ITEM, Polarity.DIRECT, t, ()).startswith(
        head + f"please output the {direct} ones.\n"
    )
    assert build_prompt(ITEM, Polarity.REVERSE, t, ()).startswith(
        head + f"please output the {reverse} ones.\n"
    )


def test_every_prompt_asks_for_a_final_answer_line() -> None:
    for template in TEMPLATES.values():
        for polarity in Polarity:
            prompt = build_prompt(ITEM, polarity, template, ())
            assert prompt.endswith('or "Answer: none" if there are none.')


def test_neg_exp_is_appended_to_the_reverse_prompt_only() -> None:
    t = get_template("v0")
    sentence = (
        "Please recall that 'incorrect options' are simply the options different from "
        "the correct ones."
    )
    assert sentence in build_prompt(ITEM, Polarity.REVERSE, t, (Mitigation.NEG_EXP,))
    assert sentence not in build_prompt(ITEM, Polarity.DIRECT, t, (Mitigation.NEG_EXP,))
    assert sentence not in build_prompt(ITEM, Polarity.REVERSE, t, ())


def test_cot_shows_each_reasoning_path() -> None:
    item = Item(
        question="q",
        candidates=[Candidate(text="4", reasoning="2 + 2 = 4"), Candidate(text="5")],
    )
    prompt = build_prompt(item, Polarity.DIRECT, get_template("v0"), (Mitigation.COT,))
    assert "A) 4\nReasoning: 2 + 2 = 4" in prompt
    assert "B) 5\nReasoning: (not given)" in prompt
    assert "step by step" in prompt


def test_cot_without_reasoning_paths_asks_for_step_by_step_reasoning() -> None:
    prompt = build_prompt(ITEM, Polarity.DIRECT, get_template("v0"), (Mitigation.COT,))
    assert "Reasoning:" not in prompt
    assert "Let's think step by step" in prompt
    assert "step by step" not in build_prompt(ITEM, Polarity.DIRECT, get_template("v0"), ())


def test_context_comes_first() -> None:
    item = Item(question="q", candidates=["a", "b"], context="A passage.")
    assert build_prompt(item, Polarity.DIRECT, get_template("v0"), ()).startswith(
        "Context:\nA passage.\n"
    )


def test_mitigations_accept_cli_spelling_and_reject_unknown() -> None:
    assert parse_mitigations(["neg-exp", "cot", "cot"]) == (Mitigation.COT, Mitigation.NEG_EXP)
    with pytest.raises(UsageError, match="mitigations: unknown mitigation 'vote'"):
        parse_mitigations(["vote"])


def test_unknown_template_lists_known_ones() -> None:
    with pytest.raises(UsageError, match="known: v0, v1, v2, v3, v4"):
        get_template("v9")


def test_template_ids_carry_versions() -> None:
    assert [t.prompt_id for t in TEMPLATES.values()] == ["v0@1", "v1@1", "v2@1", "v3@1", "v4@1"]
