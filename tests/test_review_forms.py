"""Review forms as data (issue 41, item 1): the AI Scientist's form renders byte for byte as
its own code renders it; forms of one's own are checked field by field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prin_guard._review import ReviewForm, load_review_form, review_form, review_forms
from prin_guard.errors import UsageError

RENDERED = json.loads(
    (Path(__file__).parent / "data" / "review-forms" / "ai-scientist-rendered.json").read_text(
        encoding="utf-8"
    )
)


@pytest.mark.parametrize(
    ("case", "system", "shots"),
    [
        pytest.param("neg-fs0", "neg", 0, id="default-negative-no-examples"),
        pytest.param("pos-fs0", "pos", 0, id="positive"),
        pytest.param("base-fs0", "base", 0, id="base"),
        pytest.param("neg-fs1", "neg", 1, id="one-example"),
        pytest.param("neg-fs2", "neg", 2, id="two-examples"),
    ],
)
def test_ai_scientist_messages_are_its_codes_byte_for_byte(
    case: str, system: str, shots: int
) -> None:
    form = review_form("ai-scientist")
    examples = [(paper, review) for paper, review in RENDERED["examples"]][:shots]
    messages = form.messages(RENDERED["paper"], system=system, examples=examples)
    recorded = RENDERED["cases"][case]
    assert messages == [
        {"role": "system", "content": recorded["system"]},
        {"role": "user", "content": recorded["user"]},
    ]


def test_ai_scientist_default_system_is_the_negative_one_its_benchmark_ran() -> None:
    form = review_form("ai-scientist")
    assert form.messages(RENDERED["paper"])[0]["content"] == RENDERED["cases"]["neg-fs0"]["system"]


def test_ai_scientist_reflection_round_is_sent_unformatted() -> None:
    form = review_form("ai-scientist")
    messages = form.follow_up_messages(RENDERED["paper"], RENDERED["reply"])
    recorded = RENDERED["cases"]["neg-fs0-reflection"]
    assert messages[0]["content"] == recorded["system"]
    assert messages[1:3] == recorded["history"]
    assert messages[3] == {"role": "user", "content": recorded["user"]}
    assert messages[3]["content"].startswith("Round {current_round}/{num_reflections}.")


def test_ai_scientist_fields_are_the_ones_its_template_asks_for() -> None:
    form = review_form("ai-scientist")
    aspects = [(f.name, f.scale.min, f.scale.max) for f in form.aspects]
    assert aspects == [
        (name, 1, 4)
        for name in (
            "Originality",
            "Quality",
            "Clarity",
            "Significance",
            "Soundness",
            "Presentation",
            "Contribution",
        )
    ]
    assert (form.overall.name, form.overall.scale.min, form.overall.scale.max) == ("Overall", 1, 10)
    assert form.confidence is not None
    assert (form.confidence.name, form.confidence.scale.max) == ("Confidence", 5)
    assert (form.decision.accept, form.decision.reject) == (("Accept",), ("Reject",))
    # every field the template lists, in its order
    user = form.messages("x")[1]["content"]
    listed = [line.split('"')[1] for line in user.splitlines() if line.startswith('- "')]
    named = [*(f.name for f in form.scores), form.decision.name, *form.text_fields]
    assert sorted(listed) == sorted(named)
    assert form.overall.scale.labels[5] == "Borderline accept"
    assert (form.threshold, form.borderline) == (5.0, (4.0, 5.0))


def test_placeholders_in_a_paper_are_never_filled() -> None:
    form = review_form("iclr")
    paper = "We write {paper}, {examples} and {review} in braces."
    assert paper in form.messages(paper)[1]["content"]
    assert form.messages(paper)[1]["content"].count("{paper}") == 1


def test_iclr_form_lays_the_paper_out_first() -> None:
    form = review_form("iclr")
    plain = form.messages("PAPER TEXT")[1]["content"]
    shots = form.messages("PAPER TEXT", examples=[("other", "its review")])[1]["content"]
    cut = plain.index("PAPER TEXT") + len("PAPER TEXT\n```\n")
    assert shots[:cut] == plain[:cut]  # the paper is the shared prefix
    assert (form.overall.name, form.overall.scale.max, form.threshold) == ("Rating", 10, 6.0)
    assert form.confidence is not None and form.confidence.scale.max == 5
    assert form.aspects == ()


def test_shipped_forms() -> None:
    assert sorted(review_forms()) == ["ai-scientist", "iclr"]
    with pytest.raises(
        UsageError, match="unknown review form 'neurips'; known: ai-scientist, iclr"
    ):
        review_form("neurips")


_GOOD = """
id = "mine"
version = 1
title = "t"
source = "me"
licence = "CC0"
threshold = 3
default_system = "s"
[systems]
s = "You review."
[prompt]
user = "Paper: {paper}. Reply as JSON like {\\"Overall\\": 3}."
[[scores]]
name = "Overall"
role = "overall"
scale = [1, 5]
[decision]
accept = ["Accept", "Yes"]
reject = ["Reject"]
"""


def _form(tmp_path: Path, text: str) -> ReviewForm:
    file = tmp_path / "form.toml"
    file.write_text(text, encoding="utf-8")
    return load_review_form(file)


def test_a_form_of_ones_own_loads_and_keeps_other_braces(tmp_path: Path) -> None:
    form = _form(tmp_path, _GOOD)
    assert form.messages("P") == [
        {"role": "system", "content": "You review."},
        {"role": "user", "content": 'Paper: P. Reply as JSON like {"Overall": 3}.'},
    ]
    with pytest.raises(UsageError, match="no place for few-shot examples"):
        form.messages("P", examples=[("a", "b")])
    with pytest.raises(UsageError, match="has no follow-up"):
        form.follow_up_messages("P", "reply")
    assert (
        form.follow_up_messages("P", "reply", follow_up="Rebuttal.")[-1]["content"] == "Rebuttal."
    )
    with pytest.raises(UsageError, match="system: 'x' is not a system"):
        form.messages("P", system="x")
    with pytest.raises(UsageError, match="paper: expected"):
        form.messages("  ")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            'role = "overall"',
            'role = "aspect"',
            "exactly one has role 'overall', got 0",
            id="no-overall",
        ),
        pytest.param(
            "threshold = 3",
            "threshold = 7",
            "threshold 7.0 must lie above 1",
            id="threshold-off-scale",
        ),
        pytest.param(
            "threshold = 3",
            "threshold = 3\nborderline = [2, 9]",
            "borderline",
            id="borderline-off-scale",
        ),
        pytest.param("Paper: {paper}.", "Paper.", r"holds \{paper\} once", id="no-paper"),
        pytest.param(
            'default_system = "s"',
            'default_system = "t"',
            "default_system 't'",
            id="unknown-system",
        ),
        pytest.param("scale = [1, 5]", "scale = [5, 1]", "max must be above min", id="empty-scale"),
        pytest.param(
            "scale = [1, 5]",
            "scale = 5",
            r"scores.0.scale: expected \[min, max\]",
            id="scale-not-a-pair",
        ),
        pytest.param(
            'reject = ["Reject"]', 'reject = ["accept"]', "stands twice", id="word-on-both-sides"
        ),
        pytest.param(
            'name = "Overall"',
            'name = "Decision"',
            "a name is empty or stands twice",
            id="name-twice",
        ),
        pytest.param("version = 1", 'version = "1"', "version", id="version-not-int"),
        pytest.param('title = "t"', 'title = "t"\ncolour = "red"', "colour", id="unknown-key"),
    ],
)
def test_a_bad_form_names_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in _GOOD
    with pytest.raises(UsageError, match=message):
        _form(tmp_path, _GOOD.replace(old, new, 1))


def test_a_missing_or_broken_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read review form"):
        load_review_form(tmp_path / "none.toml")
    with pytest.raises(UsageError, match="not valid TOML"):
        _form(tmp_path, "id = ")
