"""The reader on negated, excepting, hedged, revised and alternative claims (issue 28): a
negated claim is evidence against its candidate and never for it, a hedged one is no
evidence, an exception names the others, a retraction replaces what it retracts, and
alternatives ("B or C") are no answer. Each row says what the reply names as its
positive (``never``): the reader must not read that; it reads the right answer or
abstains (``None``), and a reading that rests on a negation or a softener is marked weak.
"""

from __future__ import annotations

from typing import Any

import pytest

from prin_guard.models import ParseStatus, Polarity
from prin_guard.reader import parse_reply

D, R = Polarity.DIRECT, Polarity.REVERSE
ABSTAIN = None


def row(
    reply: str,
    expected: tuple[str, ...] | None,
    never: tuple[str, ...],
    *,
    polarity: Polarity = D,
    weak: bool | None = None,
    id: str,
) -> Any:
    """``expected``: the labels read, or ABSTAIN (the leg fails); ``never``: the reading
    the reply's words would give if the qualification were ignored; ``weak``: whether
    the reading is marked weak (None: not checked)."""
    return pytest.param(reply, polarity, expected, never, weak, id=id)


CHOICE = [
    # -- negation over the claim ---------------------------------------------------------
    row("I don't think B is correct.", ABSTAIN, ("B",), id="dont-think"),
    row("I do not think B is correct.", ABSTAIN, ("B",), id="do-not-think"),
    row("I don't believe option C is right.", ABSTAIN, ("C",), id="dont-believe"),
    row("I wouldn't say C is correct.", ABSTAIN, ("C",), id="wouldnt-say"),
    row("I would not say that D is correct.", ABSTAIN, ("D",), id="would-not-say"),
    row("I can't say that A is correct.", ABSTAIN, ("A",), id="cant-say"),
    row("It is not true that C is correct; B is.", ABSTAIN, ("C",), id="not-true-that"),
    row("It isn't the case that E is correct.", ABSTAIN, ("E",), id="not-the-case"),
    row("I disagree that A is correct.", ABSTAIN, ("A",), id="disagree-that"),
    row("I doubt that C is correct.", ABSTAIN, ("C",), id="doubt-that"),
    row("It would be wrong to say that B is correct.", ABSTAIN, ("B",), id="wrong-to-say"),
    row(
        "I don't think B is correct. C is correct.",
        ("C",),
        ("B", "C"),
        id="negated-then-plain",
    ),
    row(
        "I don't think B is incorrect.",
        ABSTAIN,
        ("B",),
        polarity=R,
        id="reverse-leg-negated",
    ),
    row(
        "I don't think A is correct, and I don't think B is correct either. C is correct.",
        ("C",),
        ("A", "B", "C"),
        id="two-negated-one-plain",
    ),
    row("B is not correct. D is correct.", ("D",), ("B", "D"), id="copula-negation"),
    row(
        "I don't think B is correct.",
        ("B",),
        (),
        polarity=R,
        weak=True,
        id="negated-positive-on-reverse-leg-is-weak",
    ),
    # -- hedges and conditions ---------------------------------------------------------
    row("Maybe C is correct.", ABSTAIN, ("C",), id="maybe"),
    row("Perhaps B is correct.", ABSTAIN, ("B",), id="perhaps"),
    row("C might be correct.", ABSTAIN, ("C",), id="might-be"),
    row("Possibly A is correct.", ABSTAIN, ("A",), id="possibly"),
    row("I'm not sure C is correct.", ABSTAIN, ("C",), id="not-sure"),
    row("I am not certain that D is correct.", ABSTAIN, ("D",), id="not-certain"),
    row("It is unclear whether B is correct.", ABSTAIN, ("B",), id="unclear-whether"),
    row("If the rate is annual, C is correct.", ABSTAIN, ("C",), id="if-before"),
    row("C is correct if the rate is annual.", ABSTAIN, ("C",), id="if-after"),
    row("Assuming simple interest, D is correct.", ABSTAIN, ("D",), id="assuming"),
    row("It depends: B is correct under one reading.", ABSTAIN, ("B",), id="depends"),
    row("Unless I misread the question, E is correct.", ABSTAIN, ("E",), id="unless"),
    row("If C is correct, then D is also correct.", ABSTAIN, ("D",), id="conditional"),
    row(
        "While A might look right, C is correct.",
        ("C",),
        ("A",),
        id="concession-then-claim",
    ),
    row("C is probably correct.", ("C",), (), weak=True, id="probably-is-weak"),
    # -- alternatives --------------------------------------------------------------------
    row("Either B or C is correct.", ABSTAIN, ("B", "C"), id="either-or"),
    row("B or C is correct.", ABSTAIN, ("B", "C"), id="or"),
    row("Answer: B or C", ABSTAIN, ("B", "C"), id="answer-line-or"),
    row("The answer is A or D.", ABSTAIN, ("A", "D"), id="answer-is-or"),
    # -- exceptions ----------------------------------------------------------------------
    row("All options except B are correct.", ("A", "C", "D", "E"), ("B",), id="all-except"),
    row("All but C are correct.", ("A", "B", "D", "E"), ("C",), id="all-but"),
    row(
        "Every option other than D is correct.",
        ("A", "B", "C", "E"),
        ("D",),
        id="other-than",
    ),
    row(
        "All of them are incorrect except A.",
        ("B", "C", "D", "E"),
        ("A", "B", "C", "D", "E"),
        polarity=R,
        id="except-after",
    ),
    row(
        "All of them are incorrect except A.",
        ABSTAIN,
        ("B", "C", "D", "E"),
        id="except-after-on-the-direct-leg-is-the-other-question",
    ),
    # -- revisions -----------------------------------------------------------------------
    row("C is correct. Wait, no: B is correct.", ("B",), ("B", "C"), id="wait-no"),
    row("A is correct. On second thought, D is correct.", ("D",), ("A", "D"), id="second-thought"),
    row(
        "C is correct. Scratch that, E is correct.",
        ("E",),
        ("C", "E"),
        id="scratch-that",
    ),
    row(
        "A is correct. Wait, B is correct too.",
        ("A", "B"),
        ("B",),
        id="wait-additive-keeps-both",
    ),
    row(
        "The answer is C. Actually, on second thought, the answer is B.",
        ("B",),
        ("C",),
        id="whole-claim-revised",
    ),
]

PAIRWISE = [
    # -- negation ------------------------------------------------------------------------
    row("I don't think B is better.", ABSTAIN, ("B",), id="dont-think"),
    row("I don't think A is worse.", ABSTAIN, ("A",), id="dont-think-worse"),
    row("I don't think A is worse.", ABSTAIN, ("A",), polarity=R, id="dont-think-worse-rev"),
    row("I would not say that Output (b) is better.", ABSTAIN, ("B",), id="would-not-say"),
    row("I wouldn't say Response A is better.", ABSTAIN, ("A",), id="wouldnt-say"),
    row("It is not true that Output (a) is better.", ABSTAIN, ("A",), id="not-true"),
    row("I disagree that Assistant B is better.", ABSTAIN, ("B",), id="disagree"),
    row("I doubt that Output (b) is better.", ABSTAIN, ("B",), id="doubt"),
    row("Output (b) is not better.", ABSTAIN, ("B",), id="copula-not"),
    row("Output (b) isn't better than Output (a).", ABSTAIN, ("B",), id="isnt-better"),
    row("Response A is by no means better.", ABSTAIN, ("A",), id="by-no-means"),
    row("I can't say that Output (a) is better.", ABSTAIN, ("A",), id="cant-say"),
    row("I do not prefer Output (a).", ABSTAIN, ("A",), id="do-not-prefer"),
    row("I don't think it's a tie.", ABSTAIN, ("A", "B"), id="not-a-tie"),
    row(
        "I don't think Output (a) is better. Output (b) is better.",
        ("B",),
        ("A",),
        id="negated-then-claim",
    ),
    # -- exceptions ----------------------------------------------------------------------
    row("All except B are better.", ("A",), ("B",), id="all-except"),
    row("The response other than B is better.", ("A",), ("B",), id="other-than"),
    row("Rather than Output (a), Output (b) is better.", ABSTAIN, ("A",), id="rather-than"),
    row("Besides Output (b), the other one is better.", ABSTAIN, ("B",), id="besides"),
    # -- hedges and conditions -----------------------------------------------------------
    row("Maybe Output (a) is better.", ABSTAIN, ("A",), id="maybe"),
    row("Perhaps Response B is better.", ABSTAIN, ("B",), id="perhaps"),
    row("Output (b) might be better.", ABSTAIN, ("B",), id="might"),
    row("I'm not sure Output (a) is better.", ABSTAIN, ("A",), id="not-sure"),
    row("If brevity matters, Output (a) is better.", ABSTAIN, ("A",), id="if-before"),
    row("Output (b) is better if the user wants detail.", ABSTAIN, ("B",), id="if-after"),
    row("It depends on the user: Output (a) is better for experts.", ABSTAIN, ("A",), id="depends"),
    row("It is hard to say whether Output (a) is better.", ABSTAIN, ("A",), id="hard-to-say"),
    row("Unless I am missing something, Output (b) is better.", ABSTAIN, ("B",), id="unless"),
    row("Assuming the user is a child, Output (a) is better.", ABSTAIN, ("A",), id="assuming"),
    row("I cannot decide whether Output (a) is better.", ABSTAIN, ("A",), id="cannot-decide"),
    row(
        "While Output (a) might be shorter, Output (b) is better.",
        ("B",),
        ("A",),
        id="concession",
    ),
    row("Output (a) is probably better.", ("A",), (), weak=True, id="probably"),
    # -- alternatives --------------------------------------------------------------------
    row("Either Output (a) or Output (b) is better.", ABSTAIN, ("A",), id="either-or"),
    row("Output (a) or Output (b) is better; hard to tell.", ABSTAIN, ("A",), id="or"),
    row("Answer: A or B", ABSTAIN, ("A",), id="answer-line-or"),
    # -- revisions -----------------------------------------------------------------------
    row(
        "Output (a) is better. Wait, no: Output (b) is better.",
        ("B",),
        ("A",),
        id="wait-no",
    ),
    row(
        "Therefore, Output (a) is better. On second thought, Output (b) is better.",
        ("B",),
        ("A",),
        id="second-thought",
    ),
    row(
        "Output (b) is better. Actually, Output (a) is better.",
        ("A",),
        ("B",),
        id="actually",
    ),
    row(
        "Therefore, Output (a) is better. Therefore, Output (b) is better.",
        ABSTAIN,
        ("A",),
        id="two-conclusions-no-revision",
    ),
    row(
        "In terms of detail, Output (a) is better. Overall, Output (b) is better.",
        ("B",),
        ("A",),
        id="aspect-then-overall",
    ),
    row(
        "I don't think either response is better.",
        ABSTAIN,
        ("A",),
        id="either-negated",
    ),
]

CHECKLIST = [
    # -- negation ------------------------------------------------------------------------
    row("I don't think criterion B is met.", ABSTAIN, ("B",), id="dont-think"),
    row("I wouldn't say criterion A is met.", ABSTAIN, ("A",), id="wouldnt-say"),
    row("It is not true that criterion C is met.", ABSTAIN, ("C",), id="not-true"),
    row("I doubt criterion B is satisfied.", ABSTAIN, ("B",), id="doubt"),
    row("I don't think the response meets criterion B.", ABSTAIN, ("B",), id="dont-think-verb"),
    row("The response does not meet criterion A.", ABSTAIN, ("A",), id="does-not-meet"),
    row("The response fails to meet criterion C.", ABSTAIN, ("C",), id="fails-to-meet"),
    row("Criterion B is not met.", ABSTAIN, ("B",), id="copula-not"),
    row("Criterion A is never met in the response.", ABSTAIN, ("A",), id="never"),
    row(
        "I don't think criterion A is met. Criterion B is met.",
        ("B",),
        ("A", "B"),
        id="negated-then-plain",
    ),
    row(
        "I don't think criterion A is met.",
        ("A",),
        (),
        polarity=R,
        weak=True,
        id="negated-on-reverse-leg-is-weak",
    ),
    row(
        "Criterion A is met. I don't think criterion B is met. Criterion C is met.",
        ("A", "C"),
        ("A", "B", "C"),
        id="mixed",
    ),
    # -- hedges --------------------------------------------------------------------------
    row("I'm not sure B is met.", ABSTAIN, ("B",), id="not-sure"),
    row("Maybe criterion C is met.", ABSTAIN, ("C",), id="maybe"),
    row("Perhaps the response meets criterion A.", ABSTAIN, ("A",), id="perhaps-verb"),
    row("Criterion B might be met.", ABSTAIN, ("B",), id="might"),
    row("If the tone counts as formal, criterion A is met.", ABSTAIN, ("A",), id="if-before"),
    row("Criterion C is met if we count the footnote.", ABSTAIN, ("C",), id="if-after"),
    row("It is unclear whether criterion B is met.", ABSTAIN, ("B",), id="unclear"),
    row("Assuming the table counts, criterion C is met.", ABSTAIN, ("C",), id="assuming"),
    row("Unless the list is required, criterion B is met.", ABSTAIN, ("B",), id="unless"),
    row("Criterion A is probably met.", ("A",), (), weak=True, id="probably"),
    row(
        "While criterion A might be borderline, criterion B is met.",
        ("B",),
        ("A",),
        id="concession",
    ),
    # -- alternatives --------------------------------------------------------------------
    row("Either criterion A or criterion C is met.", ABSTAIN, ("A", "C"), id="either-or"),
    row("Criteria A or C are met.", ABSTAIN, ("A", "C"), id="or"),
    row("Answer: A or C", ABSTAIN, ("A", "C"), id="answer-line-or"),
    # -- exceptions ----------------------------------------------------------------------
    row("All criteria except B are met.", ("A", "C"), ("B",), id="all-except"),
    row("All but criterion C are met.", ("A", "B"), ("C",), id="all-but"),
    row("The response meets every criterion other than A.", ("B", "C"), ("A",), id="other-than"),
    # -- revisions -----------------------------------------------------------------------
    row("Criterion A is met. Wait, no: criterion B is met.", ("B",), ("A", "B"), id="wait-no"),
    row(
        "Criterion C is met. On second thought, criterion A is met.",
        ("A",),
        ("A", "C"),
        id="second-thought",
    ),
    row(
        "Criterion A is met. Wait, criterion B is met too.",
        ("A", "B"),
        ("B",),
        id="wait-additive",
    ),
    row(
        "Criterion B is met. I take that back: criterion C is met.",
        ("C",),
        ("B", "C"),
        id="take-back",
    ),
    # -- statuses in lines ---------------------------------------------------------------
    row("A: met\nB: not met\nC: met", ("A", "C"), ("A", "B", "C"), id="lines"),
    row("A: met\nB: maybe\nC: met", ("A", "C"), ("A", "B", "C"), id="lines-maybe-unread"),
    row("- [x] A\n- [ ] B\n- [x] C", ("A", "C"), ("A", "B", "C"), id="boxes"),
    row(
        "I don't think the response meets all criteria.",
        ABSTAIN,
        ("A", "B", "C"),
        id="not-all",
    ),
    row("Not all criteria are met.", ABSTAIN, ("A", "B", "C"), id="not-all-quant"),
    row(
        "The response meets criteria A and C, but I'm not sure about B.",
        ("A", "C"),
        ("A", "B", "C"),
        id="met-and-unsure",
    ),
    row("It is not true that all criteria are met.", ABSTAIN, ("A", "B", "C"), id="not-true-all"),
]


def _check(
    result: Any, expected: tuple[str, ...] | None, never: tuple[str, ...], weak: bool | None
) -> None:
    if expected is None:
        assert result.status is ParseStatus.FAILED, result
    else:
        assert result.labels == expected, result
        assert result.status is not ParseStatus.FAILED
    if never != expected:
        assert result.labels != never or result.status is ParseStatus.FAILED
    if weak is not None:
        assert result.weak is weak


@pytest.mark.parametrize(("reply", "polarity", "expected", "never", "weak"), CHOICE)
def test_choice(
    reply: str,
    polarity: Polarity,
    expected: tuple[str, ...] | None,
    never: tuple[str, ...],
    weak: bool | None,
) -> None:
    labels, texts = ("A", "B", "C", "D", "E"), ("7", "8", "9", "10", "11")
    _check(parse_reply(reply, labels, texts, polarity=polarity), expected, never, weak)


@pytest.mark.parametrize(("reply", "polarity", "expected", "never", "weak"), PAIRWISE)
def test_pairwise(
    reply: str,
    polarity: Polarity,
    expected: tuple[str, ...] | None,
    never: tuple[str, ...],
    weak: bool | None,
) -> None:
    texts = ("Paris is the capital of France.", "The capital of France is Paris.")
    result = parse_reply(
        reply,
        ("A", "B"),
        texts,
        task="pairwise",
        polarity=polarity,
        nouns=("output", "response", "assistant"),
    )
    _check(result, expected, never, weak)


@pytest.mark.parametrize(("reply", "polarity", "expected", "never", "weak"), CHECKLIST)
def test_checklist(
    reply: str,
    polarity: Polarity,
    expected: tuple[str, ...] | None,
    never: tuple[str, ...],
    weak: bool | None,
) -> None:
    texts = ("Uses a formal tone.", "Cites a source.", "Stays under 100 words.")
    result = parse_reply(reply, ("A", "B", "C"), texts, task="checklist", polarity=polarity)
    _check(result, expected, never, weak)


def test_the_set_is_large_enough() -> None:
    # at least 40 qualified sentences per task (issue 28, item 8)
    assert min(len(CHOICE), len(PAIRWISE), len(CHECKLIST)) >= 40


# -- long replies (issue 27 item 5, issue 28 item 7) -----------------------------------


def test_a_long_reply_is_read_from_its_ends_and_marked_weak() -> None:
    from prin_guard import Item, read_reply
    from prin_guard.reader._text import WINDOW

    item = Item(task="pairwise", question="Which?", candidates=["Paris.", "London."])
    filler = "Both responses name a city and say little else about it. " * 20_000
    reply = filler + "\nAnswer: B"
    assert len(reply) > 1_000_000
    reading = read_reply(reply, item)
    assert (reading.labels, reading.weak) == (("B",), True)
    assert reading.span is not None
    assert reply[slice(*reading.span)] == "B"  # the span points into the whole reply
    # a conclusion in the unread middle is not read: what the ends say stands, weakly
    middle = filler[: len(filler) // 2] + "Therefore, Output (a) is better. " + filler
    assert len(middle) // 2 > 2 * WINDOW
    assert read_reply(middle + "\nAnswer: B", item).labels == ("B",)
    short = read_reply("Both name a city.\nAnswer: B", item)
    assert (short.labels, short.weak) == (("B",), False)


async def test_a_long_reply_is_read_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from prin_guard import Guard, Item
    from prin_guard._route import _legs

    readers: list[bool] = []
    original = _legs.read_answer

    def spy(*args: Any, **kwargs: Any) -> Any:
        readers.append(threading.current_thread() is threading.main_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(_legs, "read_answer", spy)
    long = "Both name a city. " * 2_000 + "\nAnswer: B"
    assert len(long) > _legs.OFF_LOOP_CHARS
    item = Item(task="pairwise", question="Which?", candidates=["Paris.", "London."])
    for reply, on_loop in (("Answer: B", True), (long, False)):
        readers.clear()
        guard = Guard(lambda prompt, reply=reply: reply, cache=None)
        await guard.acheck(item)
        assert readers and set(readers) == {on_loop}


def test_parse_reply_takes_the_polarity_by_its_name() -> None:
    # "direct" as a string was compared by identity with Polarity.DIRECT: read as reverse
    labels, texts = ["A", "B", "C"], ["Paris", "Sydney", "Rome"]
    for given in ("direct", Polarity.DIRECT):
        reading = parse_reply("A is correct.", labels, texts, polarity=given)  # type: ignore[arg-type]
        assert reading.labels == ("A",)
    assert parse_reply("A is correct.", labels, texts, polarity="reverse").labels == ()  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="polarity: unknown polarity 'up'"):
        parse_reply("A is correct.", labels, texts, polarity="up")  # type: ignore[arg-type]
