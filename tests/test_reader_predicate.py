"""A reverse leg that answers the direct question through the question's own predicate
("The Red Planet is Mars.\\n\\nAnswer: B" on "which are incorrect?" of "Which planet is
known as the Red Planet?"): the concluding answer names only candidates the reply just
said have the predicate, with no status word to tell which question it answers. It is
never read: the leg fails, marked polarity-confused. The same sentences on the direct leg
read as they say; a reverse leg whose answer names the candidates said not to have the
predicate still reads.

The mirror: a direct leg that answers the reverse question through the predicate negated
("Sharks and penguins are not mammals. Answer: B, D") fails, marked polarity-confused; the
same sentences on the reverse leg read as they say; a direct leg whose answer names the
other candidates still reads.
"""

from __future__ import annotations

import pytest

import prin_guard
from prin_guard.models import Candidate, Item, ParseStatus
from prin_guard.reader._vocab import predicate_phrase, question_noun


def _item(question: str, *texts: str) -> Item:
    return Item(
        question=question,
        candidates=tuple(Candidate(label="ABCD"[i], text=t) for i, t in enumerate(texts)),
    )


PLANET = _item("Which planet is known as the Red Planet?", "Venus", "Mars", "Jupiter", "Saturn")
MAMMALS = _item("Which of the following animals are mammals?", "Whale", "Shark", "Bat", "Penguin")
CAPITALS = _item(
    "Which of these cities are national capitals?", "Madrid", "Barcelona", "Lisbon", "Milan"
)
PRIMES = _item("Which of these numbers are prime?", "9", "11", "15", "17")
GASES = _item("Which of these elements are noble gases?", "Neon", "Iron", "Argon", "Carbon")
FRANCE = _item("Which city is the capital of France?", "Lyon", "Paris", "Nice", "Lille")

# the reply, its item, and what it says on the direct question
THROUGH_THE_PREDICATE = [
    ("The Red Planet is Mars.\n\nAnswer: B", PLANET, ("B",)),
    ("Mars is the Red Planet. The answer is B.", PLANET, ("B",)),
    ("Mars is known as the Red Planet.\nAnswer: B", PLANET, ("B",)),
    ("Whales and bats are mammals. The answer is A, C.", MAMMALS, ("A", "C")),
    ("Whales and bats are mammals, so the answer is A and C.", MAMMALS, ("A", "C")),
    ("A whale is a mammal. A bat is a mammal.\nAnswer: A, C", MAMMALS, ("A", "C")),
    ("The whale and the bat are both mammals.\n\nAnswer: A, C", MAMMALS, ("A", "C")),
    ("Madrid and Lisbon are national capitals.\n\nAnswer: A, C", CAPITALS, ("A", "C")),
    ("A and C are national capitals. Answer: A, C", CAPITALS, ("A", "C")),
    ("11 and 17 are prime.\nAnswer: B, D", PRIMES, ("B", "D")),
    ("Neon and argon are noble gases. The answer is A, C.", GASES, ("A", "C")),
    ("Paris is the capital of France.\n\nAnswer: B", FRANCE, ("B",)),
    ("The capital of France is Paris. The answer is B.", FRANCE, ("B",)),
    # a contrast in the sentence: the first clause says it, the second says it not
    (
        "Whales and bats are mammals, but sharks and penguins are not. Answer: A, C",
        MAMMALS,
        ("A", "C"),
    ),
    (
        "Whales and bats are mammals; sharks and penguins are not.\nAnswer: A, C",
        MAMMALS,
        ("A", "C"),
    ),
    # candidates named by their text and their label
    ("Whale (A) and bat (C) are mammals.\n\nAnswer: A, C", MAMMALS, ("A", "C")),
]


@pytest.mark.parametrize(("reply", "item", "direct"), THROUGH_THE_PREDICATE)
def test_the_reverse_leg_answering_through_the_predicate_fails_marked(
    reply: str, item: Item, direct: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="reverse")
    assert reading.status is ParseStatus.FAILED, reading
    assert reading.polarity_confusion


@pytest.mark.parametrize(("reply", "item", "direct"), THROUGH_THE_PREDICATE)
def test_the_same_reply_on_the_direct_leg_reads(
    reply: str, item: Item, direct: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="direct")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == direct
    assert not reading.polarity_confusion


# reverse legs whose answer is the other candidates, or whose sentence says nothing
# plain of the predicate (a negation, a condition): read as before
STILL_READ = [
    ("Sharks and penguins are not mammals. Answer: B, D", MAMMALS, ("B", "D")),
    (
        "Whales and bats are mammals; sharks and penguins are not.\nAnswer: B, D",
        MAMMALS,
        ("B", "D"),
    ),
    ("Whale (A) and bat (C) are mammals. Answer: B, D", MAMMALS, ("B", "D")),
    # a question says nothing
    ("Are whales and bats mammals? Answer: B, D", MAMMALS, ("B", "D")),
    ("Whales and bats are mammals.\nAnswer: B, D", MAMMALS, ("B", "D")),
    ("If Venus were the Red Planet, A would be right. Answer: A, C, D", PLANET, ("A", "C", "D")),
    ("Mars is the Red Planet, so the incorrect options are A, C and D.", PLANET, ("A", "C", "D")),
]


@pytest.mark.parametrize(("reply", "item", "expected"), STILL_READ)
def test_a_reverse_leg_naming_the_others_still_reads(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="reverse")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


# the reply, its item, and what it says on the reverse question: the predicate negated
THROUGH_THE_PREDICATE_NEGATED = [
    ("Sharks and penguins are not mammals. Answer: B, D", MAMMALS, ("B", "D")),
    ("A shark is not a mammal. A penguin is not a mammal.\nAnswer: B, D", MAMMALS, ("B", "D")),
    ("Sharks and penguins aren't mammals.\n\nAnswer: B, D", MAMMALS, ("B", "D")),
    ("Sharks and penguins are not mammals, so the answer is B and D.", MAMMALS, ("B", "D")),
    ("Neither the shark nor the penguin is a mammal. The answer is B, D.", MAMMALS, ("B", "D")),
    ("Sharks are fish, not mammals. Answer: B", MAMMALS, ("B",)),
    ("B (Shark) and D (Penguin) are not mammals.\nAnswer: B, D", MAMMALS, ("B", "D")),
    ("Sharks are not considered mammals.\n\nAnswer: B", MAMMALS, ("B",)),
    ("Sharks don't count as mammals. Answer: B", MAMMALS, ("B",)),
    (
        "Whales and bats are mammals, but sharks and penguins are not. Answer: B, D",
        MAMMALS,
        ("B", "D"),
    ),
    (
        "Whales and bats are mammals; sharks and penguins are not.\nAnswer: B, D",
        MAMMALS,
        ("B", "D"),
    ),
    ("Venus is not the Red Planet.\n\nAnswer: A", PLANET, ("A",)),
    ("The Red Planet is not Venus. The answer is A.", PLANET, ("A",)),
    ("Venus isn't known as the Red Planet. Answer: A", PLANET, ("A",)),
    ("Barcelona and Milan are not national capitals.\n\nAnswer: B, D", CAPITALS, ("B", "D")),
    ("9 and 15 are not prime.\nAnswer: A, C", PRIMES, ("A", "C")),
    ("Iron and carbon are not noble gases. The answer is B, D.", GASES, ("B", "D")),
    ("Noble gases do not include iron and carbon. Answer: B, D", GASES, ("B", "D")),
    ("Lyon is not the capital of France.\n\nAnswer: A", FRANCE, ("A",)),
    ("The capital of France is not Lyon. The answer is A.", FRANCE, ("A",)),
]


@pytest.mark.parametrize(("reply", "item", "reverse"), THROUGH_THE_PREDICATE_NEGATED)
def test_the_direct_leg_answering_through_the_predicate_negated_fails_marked(
    reply: str, item: Item, reverse: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="direct")
    assert reading.status is ParseStatus.FAILED, reading
    assert reading.polarity_confusion


@pytest.mark.parametrize(("reply", "item", "reverse"), THROUGH_THE_PREDICATE_NEGATED)
def test_the_same_reply_on_the_reverse_leg_reads(
    reply: str, item: Item, reverse: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="reverse")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == reverse
    assert not reading.polarity_confusion


# direct legs whose answer is the other candidates, or names one not said to lack the
# predicate, or whose sentence says nothing plain of it (a condition, a doubt, a
# question): read as before
DIRECT_STILL_READ = [
    ("Sharks and penguins are not mammals. Answer: A, C", MAMMALS, ("A", "C")),
    ("Sharks are not mammals; whales and bats are.\nAnswer: A, C", MAMMALS, ("A", "C")),
    ("Sharks and penguins are not mammals, so the answer is A and C.", MAMMALS, ("A", "C")),
    ("Venus is not the Red Planet; Mars is. Answer: B", PLANET, ("B",)),
    ("Lyon is not the capital of France, but Paris is. The answer is B.", FRANCE, ("B",)),
    ("9 is not prime. Answer: B, D", PRIMES, ("B", "D")),
    ("Sharks are not mammals.\nAnswer: A, B, C", MAMMALS, ("A", "B", "C")),
    ("Sharks might not be mammals. Answer: B", MAMMALS, ("B",)),
    ("Aren't sharks mammals? Answer: B", MAMMALS, ("B",)),
]


@pytest.mark.parametrize(("reply", "item", "expected"), DIRECT_STILL_READ)
def test_a_direct_leg_naming_the_others_still_reads(
    reply: str, item: Item, expected: tuple[str, ...]
) -> None:
    reading = prin_guard.read_reply(reply, item, polarity="direct")
    assert reading.status is ParseStatus.OK, reading
    assert reading.labels == expected


def test_the_predicate_is_the_questions_own() -> None:
    assert predicate_phrase("Which planet is known as the Red Planet?") == ("red", "planet")
    assert predicate_phrase("Which of the following animals are mammals?") == ("mammals",)
    assert predicate_phrase("Which city is the capital of France?") == ("capital", "of", "france")
    # polarity words, answer nouns and negations are no predicate of the direct side's
    assert predicate_phrase("Which of the following is correct?") == ()
    assert predicate_phrase("Which of these are not mammals?") == ()
    assert predicate_phrase("Which is the answer?") == ()
    assert predicate_phrase("What is 2 + 2?") == ()


RATIOS = _item("Which ratio can form a proportion with 6 over 9?", "18/24", "8/12", "3/5", "9/6")
WORKED = "A. 18/24 = 3/4\nB. 8/12 = 2/3\nC. 3/5\nD. 9/6 = 3/2\n\n"


@pytest.mark.parametrize(
    "last",
    [
        "None of the given ratios form a proportion with 6/9.",
        "Therefore, none of the ratios form a proportion with 6 over 9.",
        "None of the listed options can form a proportion with 6/9.",
    ],
)
def test_none_of_the_questions_options_is_the_direct_questions_none(last: str) -> None:
    # the question's own noun, in the reply's last sentence, with no polarity word
    direct = prin_guard.read_reply(WORKED + last, RATIOS, polarity="direct")
    assert direct.status is ParseStatus.NONE, direct
    assert direct.labels == ()
    # on the reverse leg it says nothing of which are incorrect
    reverse = prin_guard.read_reply(WORKED + last, RATIOS, polarity="reverse")
    assert reverse.status is ParseStatus.FAILED, reverse


@pytest.mark.parametrize(
    "last",
    [
        "None of the given ratios form a proportion except B.",
        "None of the ratios seem to form a proportion with 6/9.",
        "None of the ratios form a proportion with 6/9. Hmm, let me check B again",
        "None of the numbers form a proportion with 6/9.",
    ],
)
def test_none_of_them_with_an_exception_a_doubt_or_another_noun_is_not_none(last: str) -> None:
    reading = prin_guard.read_reply(WORKED + last, RATIOS, polarity="direct")
    assert reading.status is not ParseStatus.NONE, reading


def test_the_question_names_its_options() -> None:
    assert question_noun("Which ratio can form a proportion with 6 over 9?") == "ratio"
    assert question_noun("Which of these numbers are prime?") == "number"
    assert question_noun("Which of the following is correct?") == ""
    assert question_noun("Which is the Red Planet?") == ""


# A last sentence that concludes on labels alone after "so" or "therefore": read only when
# the reply said, in the question's predicate, that exactly those candidates have it (the
# direct leg) or have it not (the reverse leg); "so A and C" says not which question it
# answers. (reply, item, direct leg's reading, reverse leg's reading; None: unread)
SO_LABELS = [
    ("Whales and bats are mammals, so A and C.", MAMMALS, ("A", "C"), None),
    ("Whales and bats are mammals. Therefore, A and C.", MAMMALS, ("A", "C"), None),
    ("Whales and bats are mammals, thus A, C.", MAMMALS, ("A", "C"), None),
    ("Sharks and penguins are not mammals, so B and D.", MAMMALS, None, ("B", "D")),
    (
        "Whales and bats are mammals; sharks and penguins are not. So B and D.",
        MAMMALS,
        None,
        ("B", "D"),
    ),
    ("Mars is the Red Planet, so B.", PLANET, ("B",), None),
    ("11 and 17 are prime. Therefore B and D.", PRIMES, ("B", "D"), None),
    # what it said names other candidates, more, fewer, or nothing in the predicate's words
    ("Whales and bats are mammals, so A.", MAMMALS, None, None),
    ("Whales and bats are mammals, so A, C and D.", MAMMALS, None, None),
    ("Sharks are fish and penguins are birds, so B and D.", MAMMALS, None, None),
    ("So, A and C.", MAMMALS, None, None),
    ("If whales and bats are mammals, so A and C.", MAMMALS, None, None),
    ("Whales and bats are mammals, so A and C?", MAMMALS, None, None),
]


@pytest.mark.parametrize(("reply", "item", "direct", "reverse"), SO_LABELS)
def test_so_and_labels_reads_only_on_the_side_the_reply_said(
    reply: str,
    item: Item,
    direct: tuple[str, ...] | None,
    reverse: tuple[str, ...] | None,
) -> None:
    for polarity, expected in (("direct", direct), ("reverse", reverse)):
        reading = prin_guard.read_reply(reply, item, polarity=polarity)
        if expected is None:
            assert reading.status is ParseStatus.FAILED, (polarity, reading)
        else:
            assert reading.status is ParseStatus.OK, (polarity, reading)
            assert reading.labels == expected
            assert not reading.weak
