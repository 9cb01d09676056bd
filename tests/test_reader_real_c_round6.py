"""The reader, round 6 (the real replies of choice-real-c): the classes of its misses, each
in phrasings of our own (none is a reply of the set), with near-misses that must keep their
reading or stay unread.

1. An answer form (a LaTeX box, an "Answer:" line, bold) inside a sentence that negates it
   or gives it the other side ("\\boxed{B} is not correct", "nor is \\boxed{D}") is no
   answer of the leg; a reply that boxes its picks and then boxes the others as wrong
   answers with its picks (weak when several), never with the last box.
2. Boxes joined by "or" ("\\boxed{A} or \\boxed{C}") are a hedge between them: all of
   them, weak; never one of them alone, never confident, no polarity confusion. Labels
   joined by "or" in plain text ("the answer is A, C, or E") stay unread (choice-vault's
   "Answer: B or D" expects no reading); boxed picks then a conclusion naming exactly them
   ("a combination of choices A, C, and E") read that conclusion.
3. An option's text without its trailing parenthetical ("Sunflower oil" for "Sunflower
   oil (refined)") names that option, when no other option's text is the same.
4. A range of all the options after "among"/"of" ("among A through D") is no mention.
5. A softener between "the answer is" and its labels reads the answer, weak.
"""

from __future__ import annotations

import pytest

from prin_guard import read_reply

KITCHEN = {
    "task": "choice",
    "question": "What does a chef need in a kitchen?",
    "candidates": ["a knife", "a saddle", "a stove", "a tractor", "an oven"],
}
OILS = {
    "task": "choice",
    "question": "Which oil is richest in vitamin E?",
    "candidates": ["Olive oil", "Palm oil", "Lard", "Sunflower oil (refined)"],
}
TWIN_OILS = {
    "task": "choice",
    "question": "Which oil is richest in vitamin E?",
    "candidates": ["Olive oil", "Sunflower oil (raw)", "Lard", "Sunflower oil (refined)"],
}


def _read(reply: str, item: dict[str, object], polarity: str) -> tuple[tuple[str, ...], str, bool]:
    reading = read_reply(reply, item, polarity=polarity)
    return reading.labels, reading.status.value, reading.weak


def _never_confident_wrong(
    reply: str, item: dict[str, object], polarity: str, right: tuple[str, ...]
) -> None:
    reading = read_reply(reply, item, polarity=polarity)
    if reading.status.value == "ok" and reading.labels != right:
        assert reading.weak or reading.polarity_confusion, reading


# -- 1. an answer form the sentence puts on the other side is no answer -------------

SIDED_BOXES = [
    pytest.param(
        "A chef must have \\boxed{(A) a knife}. Cooking needs cutting.\n\nA chef also needs "
        "\\boxed{(C) a stove}. Most dishes are cooked on one.\n\nRiding is not part of "
        "cooking. Therefore, the choice \\boxed{(B) a saddle} is not correct.\n\nFinally, "
        "farming is not cooking, so \\boxed{(D) a tractor} is incorrect.",
        ("A", "C"),
        id="picks-boxed-then-others-boxed-not-correct",
    ),
    pytest.param(
        "The chef needs \\boxed{A}. Then, \\boxed{D} is wrong since tractors are for farms.",
        ("A",),
        id="one-pick-then-a-box-is-wrong",
    ),
    pytest.param(
        "Cutting is basic: the answer is \\boxed{A}. But note that \\boxed{B} is not correct, "
        "nor is \\boxed{D}.",
        ("A",),
        id="answer-then-not-correct-nor-is",
    ),
    pytest.param(
        "\\boxed{B} is not the right answer, and \\boxed{D} is incorrect. So \\boxed{A}.",
        ("A",),
        id="others-first-then-the-pick",
    ),
]


@pytest.mark.parametrize(("reply", "expected"), SIDED_BOXES)
def test_a_box_the_sentence_puts_on_the_other_side_is_no_answer(
    reply: str, expected: tuple[str, ...]
) -> None:
    labels, status, _ = _read(reply, KITCHEN, "direct")
    assert (status, labels) == ("ok", expected)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [pytest.param(*p.values, id=p.id) for p in SIDED_BOXES],
)
def test_sided_boxes_are_never_read_confidently_wrong_on_either_leg(
    reply: str, expected: tuple[str, ...]
) -> None:
    _never_confident_wrong(reply, KITCHEN, "direct", expected)
    reading = read_reply(reply, KITCHEN, polarity="reverse")
    if reading.status.value == "ok":  # the reverse leg never reads a pick as its answer
        assert not set(reading.labels) & set(expected) or reading.weak, reading


def test_several_picks_among_sided_boxes_are_weak() -> None:
    labels, status, weak = _read(SIDED_BOXES[0].values[0], KITCHEN, "direct")  # type: ignore[arg-type]
    assert (status, labels, weak) == ("ok", ("A", "C"), True)


@pytest.mark.parametrize(
    "reply",
    [
        "Answer: A.\nThe answer (B) is not correct, since nobody rides in a kitchen.",
        "**A) a knife** is needed. **B) a saddle** is not correct, since nobody rides there.",
    ],
    ids=["answer-line-then-a-sentence", "bold-then-bold-not-correct"],
)
def test_other_answer_forms_in_a_negating_sentence_are_no_answer(reply: str) -> None:
    _never_confident_wrong(reply, KITCHEN, "direct", ("A",))
    assert "B" not in _read(reply, KITCHEN, "direct")[0]


def test_a_box_that_is_correct_stays_the_answer() -> None:
    assert _read("So \\boxed{C} is correct.", KITCHEN, "direct")[:2] == (("C",), "ok")


def test_a_pick_also_boxed_as_wrong_is_no_reading() -> None:
    reply = "A chef needs \\boxed{A}.\n\nOn reflection, \\boxed{A} is not correct: \\boxed{C}."
    _never_confident_wrong(reply, KITCHEN, "direct", ("C",))


# -- 2. answers joined by "or": a hedge, read all, weak --------------------------------

HEDGES = [
    pytest.param(
        "Both are used daily, so the answer is \\boxed{(A) a knife} or \\boxed{(C) a stove}, "
        "since a cook uses both.",
        ("A", "C"),
        id="two-boxes-or",
    ),
    pytest.param(
        "A cook cuts and heats food. The answer is \\boxed{A} or \\boxed{C}.",
        ("A", "C"),
        id="bare-boxes-or",
    ),
    pytest.param(
        "A cook cuts and heats. The correct answer is \\boxed{A} a knife or \\boxed{C} a stove.",
        ("A", "C"),
        id="boxes-each-with-its-text-or",
    ),
]


@pytest.mark.parametrize(("reply", "expected"), HEDGES)
def test_answers_joined_by_or_read_all_weak(reply: str, expected: tuple[str, ...]) -> None:
    reading = read_reply(reply, KITCHEN, polarity="direct")
    assert (reading.status.value, reading.labels) == ("ok", expected)
    assert reading.weak and not reading.polarity_confusion


@pytest.mark.parametrize(("reply", "expected"), [pytest.param(*p.values, id=p.id) for p in HEDGES])
def test_answers_joined_by_or_are_never_one_of_them_confidently(
    reply: str, expected: tuple[str, ...]
) -> None:
    for polarity in ("direct", "reverse"):
        reading = read_reply(reply, KITCHEN, polarity=polarity)
        assert reading.status.value != "ok" or reading.weak, (polarity, reading)


def test_words_between_boxes_that_are_not_the_first_box_text_join_nothing() -> None:
    reply = "The answer is \\boxed{A} rather than C or \\boxed{C}."
    _never_confident_wrong(reply, KITCHEN, "direct", ("A", "C"))
    assert _read(reply, KITCHEN, "direct")[0] != ("A", "C")


def test_boxed_picks_then_a_conclusion_naming_them_all_read_all() -> None:
    reply = (
        "You \\boxed{A} cut the meat, then you \\boxed{C} cook it, and you \\boxed{E} "
        "bake the bread. So the correct answer would be a combination of choices A, C, and E."
    )
    assert _read(reply, KITCHEN, "direct")[:2] == (("A", "C", "E"), "ok")


def test_boxed_picks_then_a_conclusion_naming_others_is_not_their_union() -> None:
    reply = (
        "You \\boxed{A} cut the meat, then you \\boxed{C} cook it. So the correct answer "
        "would be a combination of choices A, C, and E."
    )
    _never_confident_wrong(reply, KITCHEN, "direct", ("A", "C", "E"))


def test_labels_joined_by_or_in_plain_text_stay_unread_or_weak() -> None:
    # boxes joined by "or" read all, weak; "the answer is A, C, or E" keeps the reader's
    # rule for labels joined by "or" (a void reading: unread), as choice-vault's "Answer:
    # B or D" (expected: no reading) requires
    reply = "Knives, stoves and ovens are all standard. Therefore, the answer is A, C, or E."
    for polarity in ("direct", "reverse"):
        reading = read_reply(reply, KITCHEN, polarity=polarity)
        assert reading.status.value == "failed" or reading.weak, (polarity, reading)


# -- 3. an option's text without its trailing parenthetical -------------------------


def test_a_text_without_its_parenthetical_names_its_option() -> None:
    reply = "Sunflower oil has the most tocopherol. Therefore, the answer is Sunflower oil."
    assert _read(reply, OILS, "direct")[:2] == (("D",), "ok")


def test_a_text_without_its_parenthetical_shared_by_two_options_is_no_answer() -> None:
    reply = "Sunflower oil has the most tocopherol. Therefore, the answer is Sunflower oil."
    assert _read(reply, TWIN_OILS, "direct")[1] == "failed"


# -- 4. a range of all the options names the set, no pick ----------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "A chef cooks on a stove.\n\nTherefore, among A through E, the answer is C.",
        "A chef cooks on a stove.\n\nSo, of options A-E, the answer is C.",
        "A chef cooks on a stove. So out of (A) to (E), the answer is C.",
    ],
    ids=["among-a-through-e", "of-options-a-e", "out-of-a-to-e"],
)
def test_a_range_of_all_the_options_is_no_mention(reply: str) -> None:
    assert _read(reply, KITCHEN, "direct") == (("C",), "ok", False)


def test_a_range_and_its_comma_leave_the_answer_starting_its_line() -> None:
    reply = "What does a chef need?\namong A through E, the answer is C."
    assert _read(reply, KITCHEN, "direct") == (("C",), "ok", False)


def test_a_range_of_some_options_is_still_a_mention() -> None:
    reply = "A chef cooks on a stove.\n\nTherefore, among A through D, the answer is C."
    labels, status, weak = _read(reply, KITCHEN, "direct")
    assert (labels, status) == (("C",), "ok") and weak


def test_a_stem_that_is_another_option_whole_text_names_that_option() -> None:
    item = {
        "task": "choice",
        "question": "Which oil is richest in vitamin E?",
        "candidates": ["Olive oil", "Sunflower oil", "Lard", "Sunflower oil (refined)"],
    }
    reply = "Sunflower oil has the most tocopherol. Therefore, the answer is Sunflower oil."
    assert _read(reply, item, "direct")[:2] == (("B",), "ok")


# -- 5. "the answer is most likely D": a softened conclusion, read weak ----------------


@pytest.mark.parametrize(
    "reply",
    [
        "A) a knife - could be needed.\nB) a saddle - could be needed.\nC) a stove - this "
        "is what a chef needs most.\n\nTherefore, the answer is most likely C.",
        "Heat is the point of a kitchen. So the answer is probably C.",
    ],
    ids=["after-could-be-lines", "probably"],
)
def test_a_softened_answer_is_read_weak(reply: str) -> None:
    assert _read(reply, KITCHEN, "direct") == (("C",), "ok", True)


def test_a_softened_answer_to_be_is_still_no_answer() -> None:
    reply = "Heat is the point of a kitchen. So the answer is likely to be found in C or E."
    _never_confident_wrong(reply, KITCHEN, "direct", ("C",))


# -- 6. "the most appropriate choice to <do X> would be <an option's text>" -----------

PLACES = {
    "task": "choice",
    "question": "Where would you look up a plumber's number?",
    "candidates": ["garden", "phone book", "river", "oven"],
}


@pytest.mark.parametrize(
    "reply",
    [
        "A garden has plants, a river has fish, an oven bakes.\n\nBased on the options, the "
        "most appropriate choice to look up a number would be a phone book. Online searches "
        "are more common today, though.",
        "So the best option for finding a plumber is the phone book.",
    ],
    ids=["choice-to-do-would-be-a-text", "option-for-doing-is-the-text"],
)
def test_a_choice_for_a_purpose_names_its_option_by_text(reply: str) -> None:
    assert _read(reply, PLACES, "direct")[:2] == (("B",), "ok")


def test_a_choice_for_a_purpose_before_a_colon_leaves_the_answer_line_alone() -> None:
    reply = (
        "Gardens grow things.\n\nThe most likely option to list numbers is:\n\nThe answer is (B)."
    )
    assert _read(reply, PLACES, "direct") == (("B",), "ok", False)


# -- 7. "the answer is D, Metronidazole.": a label and its own text after a comma -----


@pytest.mark.parametrize(
    "reply",
    [
        "Cooking needs heat.\n\nTherefore, the answer is C, a stove.",
        "Cooking needs heat.\n\nTherefore, the answer is C, or a stove.",
    ],
    ids=["comma", "comma-or"],
)
def test_a_label_and_its_own_text_after_a_comma_read_confidently(reply: str) -> None:
    assert _read(reply, KITCHEN, "direct") == (("C",), "ok", False)


def test_a_label_and_another_option_text_after_a_comma_is_no_reading() -> None:
    reply = "Cooking needs heat.\n\nTherefore, the answer is C, a knife."
    assert _read(reply, KITCHEN, "direct")[1] == "failed"
