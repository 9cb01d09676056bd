"""A grammar of judge replies with known meaning, for the reader (issue 38, item 4).

Each generated :class:`Case` is a reply a person could write to one leg of an item, and
what a careful reader takes it to say: the labels that answer the leg's question, or
``None`` when it answers nothing a reader may take as the answer (a hedge, a statement of
the other side that leaves candidates without one, a reply cut off mid-derivation, a
reverse leg that answers the direct question). The reader must read the first or fail;
it may never read something else without marking it (weak, polarity confusion).

The phrasings are what judges write, not what the reader reads: conclusions, statements
of status in many words (and the question's own predicate: "capitals", "prime"), lists
in every syntax English and markdown use, marks, tables, JSON, notes after the answer,
negation, exception, hedges, revisions, copies of the item, candidate texts for labels,
LaTeX's ``\\boxed{}``, long reasoning before the answer. The meaning is fixed by the
facts of each item (Paris is a capital, 9 is not prime), so every reasoning sentence
agrees with the conclusion a class gives.

    generate(n, seed)   # n cases spread over every (task, leg, class), seeded
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["CLASSES", "Case", "generate"]


@dataclass(frozen=True)
class Case:
    cls: str
    task: str
    polarity: str
    item: dict[str, Any]
    reply: str
    expected: tuple[str, ...] | None
    """The labels a careful reader reads, in the candidates' order; None: no answer."""


# -- items --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Fact:
    text: str
    true: bool
    why: str
    """A reasoning sentence about the candidate, in words that agree with ``true``."""


@dataclass(frozen=True)
class _Topic:
    question: str
    facts: tuple[_Fact, ...]
    noun: str | None = None
    """The question's own predicate: ("a capital", "capitals", "not a capital", "not capitals")."""
    predicate: tuple[str, str, str, str] | None = None


_CHOICE = (
    _Topic(
        "Which of these cities are capitals?",
        (
            _Fact("Paris", True, "Paris is the seat of the French government"),
            _Fact("Sydney", False, "Sydney is the largest Australian city, but Canberra is the seat of government"),  # noqa: E501
            _Fact("Rome", True, "Rome has been the seat of the Italian government since 1871"),
            _Fact("Toronto", False, "Toronto is the largest Canadian city; Ottawa is the seat of government"),  # noqa: E501
            _Fact("Berlin", True, "Berlin is where the German government sits"),
            _Fact("Istanbul", False, "Istanbul is the largest Turkish city, while Ankara is the seat of government"),  # noqa: E501
        ),
        predicate=("a capital", "capitals", "not a capital", "not capitals"),
    ),
    _Topic(
        "Which of these numbers are prime?",
        (
            _Fact("2", True, "2 has no divisor other than 1 and itself"),
            _Fact("9", False, "9 = 3 x 3"),
            _Fact("11", True, "11 has no divisor between 2 and 10"),
            _Fact("15", False, "15 = 3 x 5"),
            _Fact("17", True, "17 is not divisible by 2, 3 or 5"),
            _Fact("21", False, "21 = 3 x 7"),
        ),
        predicate=("prime", "prime", "composite", "composite"),
    ),
    _Topic(
        "Which of these animals are mammals?",
        (
            _Fact("Dolphin", True, "dolphins breathe air and nurse their young"),
            _Fact("Shark", False, "sharks are fish with gills"),
            _Fact("Bat", True, "bats have fur and nurse their young"),
            _Fact("Salmon", False, "salmon are fish that lay eggs"),
            _Fact("Whale", True, "whales nurse their calves"),
        ),
        predicate=("a mammal", "mammals", "not a mammal", "not mammals"),
    ),
    _Topic(
        "Which of the following statements about water are true?",
        (
            _Fact("Water boils at 100 degrees Celsius at sea level", True, "that is the boiling point at one atmosphere"),  # noqa: E501
            _Fact("Ice is denser than liquid water", False, "ice floats, so it is less dense"),
            _Fact("A water molecule has two hydrogen atoms", True, "its formula is H2O"),
            _Fact("Water is a good conductor when perfectly pure", False, "pure water conducts very poorly"),  # noqa: E501
        ),
    ),
)  # fmt: skip


_CHECKLIST = (
    (
        "Dear Ms. Lee,\n\nThank you for your letter of 3 May. I am pleased to confirm your "
        "booking for two nights from 12 June. Breakfast is included.\n\nYours sincerely,\nTom",
        (
            _Fact("Uses a formal tone", True, "it opens with 'Dear Ms. Lee' and closes with 'Yours sincerely'"),  # noqa: E501
            _Fact("Confirms the dates of the stay", True, "it gives two nights from 12 June"),
            _Fact("States the price", False, "no price appears anywhere"),
            _Fact("Is under 100 words", True, "it has about forty words"),
            _Fact("Mentions parking", False, "parking is never mentioned"),
            _Fact("Thanks the guest", True, "it thanks Ms. Lee for her letter"),
        ),
    ),
    (
        "Photosynthesis turns light, water and carbon dioxide into glucose and oxygen. It takes "
        "place in the chloroplasts.",
        (
            _Fact("Names the inputs", True, "light, water and carbon dioxide are named"),
            _Fact("Names the products", True, "glucose and oxygen are named"),
            _Fact("Explains the Calvin cycle", False, "the Calvin cycle is not described"),
            _Fact("Says where it happens", True, "it says the chloroplasts"),
            _Fact("Gives an equation", False, "no equation is written"),
        ),
    ),
)  # fmt: skip


_PAIRS = (
    ("What is the capital of France?", "Paris is the capital of France.", "The capital of France is Lyon.",  # noqa: E501
     "it names the right city", "Lyon is not the capital"),
    ("How many legs does a spider have?", "A spider has eight legs.", "Spiders have six legs.",
     "it gives the right number", "six is the number for insects"),
    ("Write a haiku about rain.", "Soft rain on the roof / the garden drinks in silence / puddles hold the sky",  # noqa: E501
     "Rain is wet and it falls down from clouds in the sky.",
     "it keeps the 5-7-5 form and an image", "it is a plain sentence, not a haiku"),
)  # fmt: skip


@dataclass(frozen=True)
class _Spec:
    """One leg of one item, as a phrasing sees it."""

    task: str
    polarity: str
    item: dict[str, Any]
    labels: tuple[str, ...]
    texts: tuple[str, ...]
    truth: frozenset[str]
    """The direct question's answer: correct options, met criteria, the better response
    (both on a tie)."""
    why: dict[str, str]
    predicate: tuple[str, str, str, str] | None = None

    @property
    def direct(self) -> bool:
        return self.polarity == "direct"

    @property
    def answer(self) -> tuple[str, ...]:
        """This leg's answer."""
        if self.task == "pairwise":
            if len(self.truth) == 2:
                return self.labels if self.direct else ()
            return tuple(sorted(self.truth if self.direct else set(self.labels) - self.truth))
        side = self.truth if self.direct else set(self.labels) - self.truth
        return tuple(label for label in self.labels if label in side)

    @property
    def other(self) -> tuple[str, ...]:
        return tuple(label for label in self.labels if label not in self.answer)

    def text(self, label: str) -> str:
        return self.texts[self.labels.index(label)]


_LETTERS = "ABCDEFGH"


def _choice_spec(rng: random.Random, polarity: str) -> _Spec:
    topic = rng.choice(_CHOICE)
    facts = list(topic.facts)
    rng.shuffle(facts)
    facts = facts[: rng.randint(4, min(5, len(facts)))]
    if all(f.true for f in facts) or not any(f.true for f in facts):
        facts = [*sorted(topic.facts, key=lambda f: f.true)[:2], topic.facts[0], topic.facts[1]]
        facts = list(dict.fromkeys(facts))
        rng.shuffle(facts)
    labels = tuple(_LETTERS[: len(facts)])
    return _Spec(
        "choice",
        polarity,
        {"task": "choice", "question": topic.question, "candidates": [f.text for f in facts]},
        labels,
        tuple(f.text for f in facts),
        frozenset(label for label, f in zip(labels, facts, strict=True) if f.true),
        {label: f.why for label, f in zip(labels, facts, strict=True)},
        topic.predicate,
    )


def _checklist_spec(rng: random.Random, polarity: str) -> _Spec:
    response, all_facts = rng.choice(_CHECKLIST)
    facts = list(all_facts)
    rng.shuffle(facts)
    facts = facts[: rng.randint(3, len(facts))]
    if all(f.true for f in facts) or not any(f.true for f in facts):
        facts = list(all_facts)
        rng.shuffle(facts)
    labels = tuple(_LETTERS[: len(facts)])
    return _Spec(
        "checklist",
        polarity,
        {"task": "checklist", "response": response, "candidates": [f.text for f in facts]},
        labels,
        tuple(f.text for f in facts),
        frozenset(label for label, f in zip(labels, facts, strict=True) if f.true),
        {label: f.why for label, f in zip(labels, facts, strict=True)},
    )


def _pair_spec(rng: random.Random, polarity: str) -> _Spec:
    question, good, bad, good_why, bad_why = rng.choice(_PAIRS)
    good_first = rng.random() < 0.5
    texts = (good, bad) if good_first else (bad, good)
    winner = "A" if good_first else "B"
    loser = "B" if good_first else "A"
    return _Spec(
        "pairwise",
        polarity,
        {"task": "pairwise", "question": question, "candidates": list(texts)},
        ("A", "B"),
        texts,
        frozenset({winner}),
        {winner: good_why, loser: bad_why},
    )


# -- words ----------------------------------------------------------------------------------

# (positive, negative) status words per task: the leg's own words are spec.direct's side
_STATUS = {
    "choice": (("correct", "incorrect"), ("right", "wrong"), ("true", "false"), ("valid", "invalid"),  # noqa: E501
               ("correct", "not correct")),
    "checklist": (("met", "not met"), ("met", "unmet"), ("satisfied", "not satisfied"),
                  ("fulfilled", "not fulfilled"), ("satisfied", "unsatisfied")),
}  # fmt: skip


def _join(rng: random.Random, items: Sequence[str], style: str | None = None) -> str:
    items = list(items)
    if len(items) == 1:
        return items[0]
    style = style or rng.choice(("comma", "and", "oxford", "amp", "slash", "comma_and"))
    if style == "comma":
        return ", ".join(items)
    if style == "and" and len(items) == 2:
        return f"{items[0]} and {items[1]}"
    if style == "amp":
        return " & ".join(items)
    if style == "slash":
        return "/".join(items)
    if style == "oxford" and len(items) > 2:
        return ", ".join(items[:-1]) + ", and " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _name(rng: random.Random, spec: _Spec, label: str) -> str:
    if spec.task == "pairwise":
        return rng.choice(
            (
                f"Response {label}",
                f"Output ({label.lower()})",
                f"Assistant {label}",
                f"Response {label}",
            )
        )
    if spec.task == "checklist":
        return rng.choice((f"Criterion {label}", label, f"{label}"))
    return rng.choice((f"Option {label}", label, f"({label})", f"{label})"))


def _names(rng: random.Random, spec: _Spec, labels: Sequence[str]) -> str:
    """Several candidates by label: "A and C", "Options A, C", "criteria B and D"."""
    noun = {"choice": "Options", "checklist": "Criteria", "pairwise": "Responses"}[spec.task]
    listed = _join(rng, labels)
    if len(labels) > 1 and rng.random() < 0.4:
        return f"{noun} {listed}"
    return listed


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _leg_words(spec: _Spec) -> tuple[str, str]:
    """The status words of this leg's answer side and of the other side."""
    if spec.task == "checklist":
        pos, neg = "met", "not met"
    else:
        pos, neg = "correct", "incorrect"
    return (pos, neg) if spec.direct else (neg, pos)


def _kind(spec: _Spec, plural: bool) -> str:
    return {
        ("choice", True): "options", ("choice", False): "option",
        ("checklist", True): "criteria", ("checklist", False): "criterion",
    }[spec.task, plural]  # fmt: skip


def _answer_phrase(rng: random.Random, spec: _Spec) -> str:
    """ "the correct options are", "the criteria that are not met are", "the answer is"."""
    ans = spec.answer
    plural = len(ans) != 1
    verb = "are" if plural else "is"
    if spec.task == "checklist":
        side = "met" if spec.direct else "not met"
        return rng.choice(
            (
                f"the criteria that are {side} {verb}"
                if plural
                else f"the criterion that is {side} is",
                f"the {'unmet' if not spec.direct else 'met'} {_kind(spec, plural)} {verb}",
            )
        )
    word = rng.choice(("correct", "right") if spec.direct else ("incorrect", "wrong"))
    return rng.choice(
        (
            f"the {word} {_kind(spec, plural)} {verb}",
            f"the {word} answer{'s' if plural else ''} {verb}",
        )
    )


def _none_phrase(rng: random.Random, spec: _Spec) -> str:
    if spec.task == "checklist":
        return (
            "None of the criteria are met." if spec.direct else "All criteria are met; none fails."
        )
    return (
        "None of the options are correct." if spec.direct else "None of the options are incorrect."
    )


# -- classes for the set tasks (choice, checklist) --------------------------------------------

Phrasing = Callable[[random.Random, _Spec], tuple[str, tuple[str, ...] | None]]


def _reasoning(rng: random.Random, spec: _Spec) -> str:
    """Reasoning over every candidate, in the facts' words (no status word)."""
    lines = []
    for label in spec.labels:
        why = spec.why[label]
        form = rng.choice(
            (
                "{l}) {t}: {w}.",
                "Option {l} ({t}): {w}.",
                "- {l}: {w}.",
                "{L}.",
                "Looking at {t}, {w}.",
            )
        )
        if spec.task == "checklist":
            form = rng.choice(("- {t}: {w}.", "Criterion {l} ({t}): {w}.", "{l}. {t} - {w}."))
        lines.append(form.format(l=label, t=spec.text(label), w=why, L=_cap(why)))
    return ("\n" if rng.random() < 0.6 else " ").join(lines)


def _conclusion(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    listed = _names(rng, spec, ans)
    lead = rng.choice(("Therefore, ", "So ", "In conclusion, ", "", "Overall, "))
    form = rng.choice(
        (
            f"{lead}{_answer_phrase(rng, spec)} {listed}.",
            f"{lead}{_answer_phrase(rng, spec)}: {listed}.",
            f"Final answer: {listed}",
            f"Answer: {listed}",
            f"**Answer:** {listed}",
        )
    )
    return _cap(form), ans


def _status(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A status for every candidate, one sentence each or grouped."""
    pos, neg = rng.choice(_STATUS[spec.task])
    if rng.random() < 0.5:
        order = list(spec.labels)
        rng.shuffle(order) if rng.random() < 0.3 else None
        out = []
        for label in order:
            word = pos if label in spec.truth else neg
            out.append(rng.choice((f"{_name(rng, spec, label)} is {word}.", f"{label}: {word}.")))
        return " ".join(out) if rng.random() < 0.5 else "\n".join(out), spec.answer
    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    first = (good, pos), (bad, neg)
    if rng.random() < 0.5:
        first = first[::-1]
    parts = []
    for group, word in first:
        if group:
            verb = "are" if len(group) > 1 else "is"
            parts.append(f"{_names(rng, spec, group)} {verb} {word}")
    return _cap("; ".join(parts) + "."), spec.answer


def _one_side(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Statements of one side only: the leg's side is its answer; the other side,
    leaving candidates without a side, answers nothing ("Option D is false.")."""
    pos, neg = rng.choice(_STATUS[spec.task])
    if rng.random() < 0.5:
        group = [lab for lab in spec.labels if lab in spec.truth]
        word = pos
    else:
        group = [lab for lab in spec.labels if lab not in spec.truth]
        word = neg
    if not group:
        return _conclusion(rng, spec)
    if rng.random() < 0.5 and len(group) > 1:
        group = rng.sample(group, 1)
    verb = "are" if len(group) > 1 else "is"
    reply = f"{_cap(_names(rng, spec, group))} {verb} {word}."
    leg_side = (word == pos) == spec.direct
    if leg_side and len(group) == len(spec.answer):
        return reply, spec.answer
    if leg_side:
        return reply, tuple(lab for lab in spec.labels if lab in group)
    return reply, None


def _lists(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The answer as a list, in every syntax: commas, "and", "&", slashes, bullets,
    numbered lines, under a heading or an answer line."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    pos, _ = _leg_words(spec)
    head = rng.choice(
        (
            f"{_cap(pos)} {_kind(spec, True)}:",
            f"**{_cap(pos)}:**",
            "Answer:",
            "Final answer:",
            f"The {pos} {_kind(spec, True)} are:"
            if spec.task == "choice"
            else f"{_cap(_kind(spec, True))} {pos}:",
        )
    )
    style = rng.choice(("inline", "bullets", "numbered", "bare"))
    if style == "inline" or len(ans) == 1:
        return f"{head} {_join(rng, ans)}", ans
    if style == "bullets":
        bullet = rng.choice(("-", "*", "•"))
        body = "\n".join(
            f"{bullet} {lab}" + (f" ({spec.text(lab)})" if rng.random() < 0.4 else "")
            for lab in ans
        )
        return f"{head}\n{body}", ans
    if style == "numbered":
        body = "\n".join(f"{i}. {lab}" for i, lab in enumerate(ans, 1))
        return f"{head}\n{body}", ans
    return _join(rng, ans), ans


def _marks(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Check marks (✅ the direct question's side) or check boxes (ticked: this leg's)."""
    yes, no = rng.choice((("✅", "❌"), ("✓", "✗"), ("✔", "✘")))
    style = rng.choice(("inline", "lines", "lead", "boxes"))
    if style == "boxes":
        lines = [
            f"- [{'x' if lab in spec.answer else ' '}] {lab}"
            + (f" {spec.text(lab)}" if rng.random() < 0.5 else "")
            for lab in spec.labels
        ]
        return "\n".join(lines), spec.answer
    parts = []
    for label in spec.labels:
        mark = yes if label in spec.truth else no
        if style == "inline":
            parts.append(f"{label} {mark}")
        elif style == "lines":
            parts.append(f"{label}) {spec.text(label)} {mark}")
        else:
            parts.append(f"{mark} {label}")
    return (" ".join(parts) if style == "inline" else "\n".join(parts)), spec.answer


def _yes_no(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Yes/no per candidate, answering this leg's question."""
    if rng.random() < 0.5:
        lines = [f"{lab}: {'Yes' if lab in spec.answer else 'No'}" for lab in spec.labels]
        return "\n".join(lines), spec.answer
    yes = [lab for lab in spec.labels if lab in spec.answer]
    no = [lab for lab in spec.labels if lab not in spec.answer]
    if not yes or not no:
        return "\n".join(
            f"{lab}: {'yes' if lab in spec.answer else 'no'}" for lab in spec.labels
        ), spec.answer
    return f"Yes: {_join(rng, yes, 'comma')}. No: {_join(rng, no, 'comma')}.", spec.answer


def _table(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    pos, neg = rng.choice(_STATUS[spec.task])
    kind = "Option" if spec.task == "choice" else "Criterion"
    style = rng.choice(("status", "question", "predicate"))
    if style == "predicate" and spec.predicate:
        header = f"{_cap(spec.predicate[1])}?"
        cells = {lab: ("Yes" if lab in spec.truth else "No") for lab in spec.labels}
    elif style == "question":
        header = f"{_cap(pos)}?"
        cells = {lab: ("Yes" if lab in spec.truth else "No") for lab in spec.labels}
    else:
        header = rng.choice(("Verdict", "Status", "Assessment"))
        cells = {lab: (pos if lab in spec.truth else neg) for lab in spec.labels}
    rows = [f"| {kind} | {header} |", "|---|---|"]
    for label in spec.labels:
        name = label if rng.random() < 0.6 else f"{label}. {spec.text(label)}"
        rows.append(f"| {name} | {cells[label]} |")
    return "\n".join(rows), spec.answer


def _json(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    import json

    pos, neg = rng.choice(_STATUS[spec.task][:2])
    style = rng.choice(("statuses", "booleans", "both_lists", "leg_list", "answer"))
    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    if style == "statuses":
        value: Any = {lab: (pos if lab in spec.truth else neg) for lab in spec.labels}
    elif style == "booleans":
        key = pos if spec.task == "checklist" else "correct"
        value = (
            {lab: {key: lab in spec.truth} for lab in spec.labels}
            if rng.random() < 0.3
            else {lab: lab in spec.answer for lab in spec.labels}
        )
    elif style == "both_lists":
        value = {pos: good, neg.replace(" ", "_"): bad}
    elif style == "leg_list":
        word = pos if spec.direct else neg.replace(" ", "_")
        value = {word: list(spec.answer)}
    else:
        value = (
            {"answer": list(spec.answer)}
            if rng.random() < 0.5
            else {"reasoning": "Checked each one.", "labels": list(spec.answer)}
        )
    text = json.dumps(value, indent=rng.choice((None, 2)))
    if rng.random() < 0.3:
        text = f"```json\n{text}\n```"
    return text, spec.answer


def _note(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A concluding answer, then a note or a parenthetical: naming no label, or naming
    the other side's labels in words that agree."""
    reply, expected = _conclusion(rng, spec)
    other = list(spec.other)
    _, neg = _leg_words(spec)
    notes = [
        "Note: this one needed care.",
        "(I double-checked each one.)",
        "Note: the question is a little tricky.",
    ]
    if other:
        verb = "are" if len(other) > 1 else "is"
        notes += [
            f"Note: {_join(rng, other)} {verb} {neg}.",
            f"({_join(rng, other)} {verb} {neg}.)",
            f"Note: {_join(rng, other)} {verb} {neg} because " + spec.why[other[0]] + ".",
        ]
    return f"{reply} {rng.choice(notes)}", expected


def _negation(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Every candidate a status, some negated: "B is not correct", "I don't think D is
    correct"."""
    pos, _ = ("met", "") if spec.task == "checklist" else ("correct", "")
    out = []
    for label in spec.labels:
        if label in spec.truth:
            out.append(f"{label} is {pos}.")
        else:
            out.append(
                rng.choice(
                    (
                        f"{label} is not {pos}.",
                        f"{label} isn't {pos}.",
                        f"I don't think {label} is {pos}.",
                    )
                )
            )
    return " ".join(out), spec.answer


def _exception(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    ans, other = spec.answer, spec.other
    if not other or not ans:
        return _conclusion(rng, spec)
    word = _leg_words(spec)[0]
    noun = _kind(spec, True)
    form = rng.choice(
        (
            f"All {noun} except {_join(rng, other)} are {word}.",
            f"Every {_kind(spec, False)} other than {_join(rng, other)} is {word}.",
            f"All of them except {_join(rng, other)} are {word}.",
        )
    )
    return form if rng.random() < 0.5 else f"Therefore, {form[0].lower()}{form[1:]}", ans


def _hedge(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A hedged answer is no answer; a hedge before a firm conclusion changes nothing."""
    labels = list(spec.labels)
    two = rng.sample(labels, 2)
    word = _leg_words(spec)[0]
    if rng.random() < 0.5:
        return rng.choice(
            (
                f"It could be either {two[0]} or {two[1]}.",
                f"Maybe {two[0]} is {word}, but I'm not sure.",
                f"I'm not sure whether {two[0]} is {word}.",
                f"It depends on the reading: {two[0]} might be {word}.",
                f"{two[0]} or {two[1]}, hard to say.",
            )
        ), None
    reply, expected = _conclusion(rng, spec)
    return f"At first I wondered whether {two[0]} might be {word}. {reply}", expected


def _revision(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    ans = spec.answer
    wrong = [lab for lab in spec.labels if lab not in ans][:1] or list(spec.labels[:1])
    if not ans or list(ans) == wrong:
        return _conclusion(rng, spec)
    phrase = _answer_phrase(rng, spec)
    wphrase = phrase.replace(" are", " is") if len(ans) > 1 and len(wrong) == 1 else phrase
    wphrase = (
        wphrase.replace("options is", "option is")
        .replace("answers is", "answer is")
        .replace("criteria that is", "criterion that is")
        .replace("criteria is", "criterion is")
    )
    turn = rng.choice(
        ("Wait, no:", "On second thought,", "Correction:", "Actually, I made a mistake:")
    )
    return _cap(f"{wphrase} {wrong[0]}. {turn} {phrase} {_join(rng, ans)}."), ans


def _copy(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The item restated, then the conclusion."""
    item = spec.item
    head = item.get("question") or "The response is to be checked against these criteria."
    opts = "\n".join(f"{lab}) {spec.text(lab)}" for lab in spec.labels)
    reply, expected = _conclusion(rng, spec)
    return f"{head}\n{opts}\n\n{_reasoning(rng, spec)}\n\n{reply}", expected


def _predicate(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The question's own predicate: "A and C are capitals", "B is not a capital"."""
    if spec.predicate is None:
        return _status(rng, spec)
    one, many, not_one, not_many = spec.predicate
    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    side, _ = (good, bad) if spec.direct else (bad, good)
    w_one, w_many = (one, many) if spec.direct else (not_one, not_many)
    style = rng.choice(("group", "so", "every", "texts"))
    if style == "group" or len(side) == 1:
        verb = f"is {w_one}" if len(side) == 1 else f"are {w_many}"
        return f"{_join(rng, side)} {verb}.", tuple(side)
    if style == "so":
        tail = "".join(f" so is {lab};" for lab in side[1:]).rstrip(";")
        return f"{side[0]} is {w_one};{tail}.", tuple(side)
    if style == "every":
        out = []
        for label in spec.labels:
            word = one if label in spec.truth else not_one
            out.append(f"{spec.text(label)} ({label}) is {word}.")
        return " ".join(out), spec.answer
    verb = f"is {w_one}" if len(side) == 1 else f"are {w_many}"
    return f"{_join(rng, [spec.text(lab) for lab in side], 'and')} {verb}.", tuple(side)


def _texts(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Candidate texts in place of labels."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    named = _join(rng, [spec.text(lab) for lab in ans], "and" if len(ans) == 2 else "comma_and")
    form = rng.choice(
        (f"{named}.", f"Answer: {named}", f"{_cap(_answer_phrase(rng, spec))} {named}.")
    )
    return form, ans


def _long(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Long reasoning over every candidate, then the answer."""
    reply, expected = rng.choice((_conclusion, _lists, _json))(rng, spec)
    intro = rng.choice(
        (
            "Let me go through each one.",
            "A careful look at each candidate follows.",
            "I will check them one by one.",
        )
    )
    return f"{intro}\n\n{_reasoning(rng, spec)}\n\n{reply}", expected


def _boxed(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """LaTeX's \\boxed{...}, the way math models answer."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    inner = _join(rng, ans, "comma")
    inner = (
        rng.choice((inner, f"\\text{{{inner}}}", f"\\textbf{{{inner}}}"))
        if len(ans) == 1
        else inner
    )
    box = rng.choice(
        (f"\\boxed{{{inner}}}", f"\\(\\boxed{{{inner}}}\\)", f"\\[\n\\boxed{{{inner}}}\n\\]")
    )
    lead = _cap(_answer_phrase(rng, spec))
    form = rng.choice(
        (f"Therefore, {lead[0].lower()}{lead[1:]}:\n{box}", f"{lead}: {box}", f"{lead} {box}.", box)
    )
    return f"{_reasoning(rng, spec)}\n\n{form}", ans


def _confused(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A reverse leg that answers the direct question, its format line included: the
    words around the format line disagree with it. A direct leg: a plain conclusion."""
    if spec.direct or spec.task != "choice":
        return _conclusion(rng, spec)
    good = [lab for lab in spec.labels if lab in spec.truth]
    pick = good[0]
    return rng.choice(
        (
            f"{_reasoning(rng, spec)}\n\nThe correct answer is:\n\\[\nAnswer: {pick}\n\\]",
            f"{_reasoning(rng, spec)}\n\nSo the correct option is {pick} {spec.text(pick)}.\n\nAnswer: {pick}",  # noqa: E501
            f"The right answer is {pick}.\nAnswer: {pick}",
        )
    ), None


def _cut(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A reply cut by the token limit before it concludes."""
    opts = " ".join(f"{lab}) {spec.text(lab)}" for lab in spec.labels)
    return rng.choice(
        (
            "Let set A be the numbers below 10 and set B the numbers below 20. Then the sizes of set A and set B are",  # noqa: E501
            "We have a = 2, b = 3 and c = 1.5, so the product a * b * c equals 9 and we must compare it with",  # noqa: E501
            f"The options are: {opts}. Let me evaluate each of them in turn, starting with the first one, which",  # noqa: E501
            f"{opts}\n\nFirst, recall the definition we need here, since each option must be checked against",  # noqa: E501
        )
    ), None


def _while_not(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Both sides in one sentence, the second verb elided: "A and C are correct, while B
    and D are not"."""
    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    word = "met" if spec.task == "checklist" else rng.choice(("correct", "right", "valid"))
    verb_g = "are" if len(good) > 1 else "is"
    verb_b = "are" if len(bad) > 1 else "is"
    link = rng.choice((", while", ", whereas", "; however,", ", but"))
    return f"{_join(rng, good)} {verb_g} {word}{link} {_join(rng, bad)} {verb_b} not.", spec.answer


def _bold(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Markdown around the labels: "**A** and **C** are correct", "### Final answer\nA, C"."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    bold = [f"**{lab}**" for lab in ans]
    word = _leg_words(spec)[0]
    verb = "are" if len(ans) > 1 else "is"
    return rng.choice(
        (
            f"{_join(rng, bold)} {verb} {word}.",
            f"### Final answer\n{_join(rng, ans)}",
            f"{_cap(_answer_phrase(rng, spec))} {_join(rng, bold)}.",
            f"**Final answer: {_join(rng, ans)}**",
        )
    ), ans


def _with_text(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Labels with their texts: "(A) Paris and (C) Rome", "A) Paris, C) Rome"."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    form = rng.choice(("({l}) {t}", "{l}) {t}", "{l} ({t})", "{l}: {t}"))
    items = [form.format(l=lab, t=spec.text(lab)) for lab in ans]
    glue = "; " if form == "{l}: {t}" else None
    listed = (
        glue.join(items) if glue else _join(rng, items, "and" if len(items) == 2 else "comma_and")
    )
    return f"{_cap(_answer_phrase(rng, spec))} {listed}.", ans


def _json_keys(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """JSON lists under keys of either side: "rejected", "unmet", "selected"."""
    import json

    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    if spec.task == "checklist":
        pos_key, neg_key = rng.choice(
            (("met", "unmet"), ("met", "not_met"), ("satisfied", "unsatisfied"))
        )
    else:
        pos_key, neg_key = rng.choice(
            (("correct", "incorrect"), ("correct_options", "incorrect_options"), ("right", "wrong"))
        )
    style = rng.choice(("both", "leg", "other"))
    if style == "both":
        return json.dumps({pos_key: good, neg_key: bad}), spec.answer
    if style == "leg":
        return json.dumps({pos_key if spec.direct else neg_key: list(spec.answer)}), spec.answer
    # only the other side's list: every candidate not in it is on this side? No: a list
    # under the other key answers the other question
    return json.dumps({neg_key if spec.direct else pos_key: list(spec.other)}), None


def _status_lines(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """One line per candidate: "A - correct", "**B** → incorrect", "C (Rome): correct"."""
    pos, neg = rng.choice(_STATUS[spec.task])
    form = rng.choice(
        ("{l} - {w}", "**{l}** → {w}", "{l} ({t}): {w}", "- {l}: {W}", "{l}. {t} — {w}")
    )
    lines = [
        form.format(
            l=lab,
            t=spec.text(lab),
            w=(pos if lab in spec.truth else neg),
            W=_cap(pos if lab in spec.truth else neg),
        )
        for lab in spec.labels
    ]
    order = lines[:]
    if rng.random() < 0.3:
        rng.shuffle(order)
    return "\n".join(order), spec.answer


def _contradiction(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """An answer and a note that contradicts it: no answer."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    _, other_word = _leg_words(spec)
    pick = rng.choice(ans)
    return f"Answer: {_join(rng, ans, 'comma')}. Note: {pick} is {other_word}.", None


def _lowercase(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Labels in lower case: "a and c are correct"."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    word = _leg_words(spec)[0]
    verb = "are" if len(ans) > 1 else "is"
    low = [lab.lower() for lab in ans]
    return rng.choice(
        (f"so {_join(rng, low, 'and')} {verb} {word}.", f"answer: {', '.join(low)}")
    ), ans


def _not_the_answer(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A negated claim, then the answer: "I don't think the answer is B; it is A, C"."""
    ans, other = spec.answer, spec.other
    if not ans or not other:
        return _conclusion(rng, spec)
    return (
        f"I don't think {other[0]} belongs in the answer. Therefore, {_answer_phrase(rng, spec)} "
        f"{_join(rng, ans)}."
    ), ans


def _only(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """ "Only A and C are correct.", "Options A and C are the correct ones."."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    word = _leg_words(spec)[0]
    verb = "are" if len(ans) > 1 else "is"
    ones = "ones" if len(ans) > 1 else "one"
    return rng.choice(
        (
            f"Only {_join(rng, ans)} {verb} {word}.",
            f"{_cap(_names(rng, spec, ans))} {verb} the {word} {ones}.",
            f"[{', '.join(ans)}]",
        )
    ), ans


def _two_headings(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Both sides as headings on one line or two: "Correct: A, C | Incorrect: B, D"."""
    good = [lab for lab in spec.labels if lab in spec.truth]
    bad = [lab for lab in spec.labels if lab not in spec.truth]
    pos, neg = ("Met", "Not met") if spec.task == "checklist" else ("Correct", "Incorrect")
    glue = rng.choice((" | ", "\n", "; "))
    return f"{pos}: {', '.join(good) or 'none'}{glue}{neg}: {', '.join(bad) or 'none'}", spec.answer


def _reasoned_table(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A table with a reason column after the verdict."""
    pos, neg = _STATUS[spec.task][0]
    kind = "Option" if spec.task == "choice" else "Criterion"
    rows = [f"| {kind} | Verdict | Reason |", "|---|---|---|"]
    for lab in spec.labels:
        word = pos if lab in spec.truth else neg
        rows.append(f"| {lab} | {word} | {spec.why[lab]} |")
    return "\n".join(rows), spec.answer


def _numbered_reasons(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """Numbered lines, each a candidate, its status and its reason."""
    pos, neg = _STATUS[spec.task][rng.randrange(2)]
    lines = []
    for i, lab in enumerate(spec.labels, 1):
        word = pos if lab in spec.truth else neg
        lines.append(f"{i}. {lab} - {word}, because {spec.why[lab]}.")
    return "\n".join(lines), spec.answer


def _side_sentence(rng: random.Random, spec: _Spec, labels: Sequence[str], own: bool) -> str:
    """ "The wrong options are A), B), D), and E).": ``labels`` on this leg's side
    (``own``) or on the other side, in a polarity's words."""
    word = _leg_words(spec)[0 if own else 1]
    plural = len(labels) > 1
    named = _join(rng, [rng.choice((lab, f"{lab})")) for lab in labels])
    return rng.choice(
        (
            f"The {'unmet' if word == 'not met' else word} {_kind(spec, plural)} "
            f"{'are' if plural else 'is'} {named}.",
            f"{_cap(_names(rng, spec, labels))} {'are' if plural else 'is'} {word}.",
        )
    )


def _lead_in_line(rng: random.Random, spec: _Spec, answer: str) -> str:
    """A lead-in that introduces the answer line, then the line."""
    lead = rng.choice(
        (
            "Therefore, the final answer is:",
            "So the answer is:",
            "The final answer is:",
            "Hence:",
        )
    )
    gap = rng.choice(("\n", "\n\n", "\n\\[\n"))
    close = "\n\\]" if gap.endswith("[\n") else ""
    glue = rng.choice((" ", "\n"))
    return f"{glue}{lead}{gap}Answer: {answer}{close}"


def _lead_in(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The answer line introduced by a paragraph that states sides agreeing with it:
    "The wrong options are B and D. Therefore, the final answer is:\nAnswer: A, C"."""
    ans, other = spec.answer, spec.other
    if not ans:
        return _none_phrase(rng, spec), ()
    own = not other or rng.random() < 0.5
    said = _side_sentence(rng, spec, ans if own else other, own)
    line = _lead_in_line(rng, spec, _join(rng, ans, "comma"))
    return f"{_reasoning(rng, spec)}\n\n{said}{line}", ans


def _lead_in_contradicts(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The answer line introduced by a paragraph that contradicts it: the lead-in names
    candidates on this leg's side and the line answers "none" (a real 1.5B judge's
    reverse leg), or the lead-in puts one the line names on the other side."""
    ans, other = spec.answer, spec.other
    if not ans:
        return _none_phrase(rng, spec), ()
    if rng.random() < 0.5 or not other:
        said = _side_sentence(rng, spec, ans, True)
        return f"{_reasoning(rng, spec)}\n\n{said}{_lead_in_line(rng, spec, 'none')}", None
    pick = rng.choice(ans)
    said = _side_sentence(rng, spec, [pick], False)
    line = _lead_in_line(rng, spec, _join(rng, ans, "comma"))
    return f"{_reasoning(rng, spec)}\n\n{said}{line}", None


def _answer_is(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A conclusion in so many words where the reply ends (MMLU-Pro's CoT replies: "The
    answer is (B)." after the reasoning) or a one-line reply that opens with it, perhaps
    with a note that places the others: "The answer is A, C. Note: B and D are wrong."."""
    ans, other = spec.answer, spec.other
    if not ans:
        return _none_phrase(rng, spec), ()
    inner = _join(rng, ans, "comma")
    said = rng.choice(
        (f"The answer is ({inner}).", f"The answer is {inner}.", f"The answer is **{inner}**.")
    )
    if other and rng.random() < 0.5:
        said += " Note: " + _side_sentence(rng, spec, other, False)
    if rng.random() < 0.5:
        return said, ans
    return f"{_reasoning(rng, spec)}\n\n{said}", ans


def _line_text(rng: random.Random, spec: _Spec) -> str:
    """A line of reasoning with no label and no status word, long enough to be a paragraph."""
    label = rng.choice(spec.labels)
    return (
        f"We refer to what each option says for help, and {spec.why[label]}; weighing the "
        "options one by one against the question settles it."
    )


def _answer_ends_line(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A conclusion in so many words as the last sentence of a long line (DeepSeek's
    MMLU-Pro replies: "... impaired judgment. The answer is (D)."), or "the correct
    statement is (F)" after per-option sentences."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    inner = _join(rng, ans, "comma")
    own = _leg_words(spec)[0]
    said = rng.choice(
        (
            f"The answer is ({inner}).",
            f"The answer is {inner}.",
            f"Therefore, the {own} {'statements are' if len(ans) > 1 else 'statement is'} "
            f"({inner}).",
        )
    )
    if rng.random() < 0.5:
        return f"{_line_text(rng, spec)} {said}", ans
    return f"{_reasoning(rng, spec)}\n\n{_line_text(rng, spec)} {said}", ans


def _latex_answer(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """ "The answer is \\( B \\)." or "$B$" after a derivation whose variables are
    lower-case letters that are labels too ("\\( c = 2 \\)")."""
    ans = spec.answer
    if not ans:
        return _none_phrase(rng, spec), ()
    inner = _join(rng, ans, "comma")
    var = rng.choice(("a", "b", "c", "d"))
    if rng.random() < 0.5:
        math, said = f"\\( {var} = 2 \\)", f"\\( {inner} \\)"
    else:
        math, said = f"${var} = 2$", f"${inner}$"
    head = f"{_reasoning(rng, spec)}\n\nSuppose {math} and check each option again."
    return f"{head}\n\nThe answer is {said}.", ans


def _label_own_text(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """One label with its own candidate's text as the answer: "The answer is \\( C. 20%
    \\).", "The answer is **G: developing a global ...**", or "C. 20%" on a line of its
    own after a lead-in, perhaps with a sentence after it that names no candidate."""
    ans = spec.answer
    if len(ans) != 1:
        return _none_phrase(rng, spec) if not ans else _conclusion(rng, spec)
    (label,) = ans
    said = rng.choice(("{l}. {t}", "{l}: {t}", "({l}) {t}", "{l}) {t}")).format(
        l=label, t=spec.text(label)
    )
    form = rng.choice(("latex", "bold", "line"))
    if form == "latex":
        tail = f"The answer is \\( {said} \\)."
    elif form == "bold":
        tail = f"The answer is **{said}**."
    else:
        lead = rng.choice(
            ("Considering all of this, the answer is:", "Therefore, the best choice would be:")
        )
        after = rng.choice(("", "\n\nThis is because it fits the question best."))
        tail = f"{lead}\n\n{said}{after}"
    return f"{_reasoning(rng, spec)}\n\n{tail}", ans


def _label_other_text(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A label written with another candidate's text: no verdict ("C. 30%" where C is
    20%)."""
    label = rng.choice(spec.labels)
    other = rng.choice([lab for lab in spec.labels if lab != label])
    said = rng.choice(("{l}. {t}", "{l}: {t}", "({l}) {t}")).format(l=label, t=spec.text(other))
    tail = rng.choice(
        (
            f"The answer is \\( {said} \\).",
            f"The answer is **{said}**.",
            f"Therefore, the answer is:\n\n{said}",
        )
    )
    return f"{_reasoning(rng, spec)}\n\n{tail}", None


def _written(rng: random.Random, text: str) -> str:
    """A candidate's text as a reply writes it after its label: whole, or its first three
    words or more and an ellipsis when it is longer."""
    words = text.split()
    if len(words) > 3 and rng.random() < 0.5:
        return " ".join(words[: rng.randint(3, len(words) - 1)]) + " ..."
    return text


def _line_lead(rng: random.Random, spec: _Spec) -> str:
    """A lead-in ending in ":" before an answer on a line of its own; on the reverse leg,
    in that leg's words."""
    own = _leg_words(spec)[0]
    if spec.direct and rng.random() < 0.5:
        return rng.choice(
            (
                "Considering all these factors, the most likely one is:",
                "Therefore, the best course of action would be:",
                "So the conclusion is:",
            )
        )
    return f"Therefore, the {own} option is:"


_LINE_FORMS = ("{l}. {t}", "**{l}. {t}**", "({l}) {t}", "{l}) {t}", "{l}: {t}")


def _label_line(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """One label and its own candidate's text (whole, or its first words) on a line of
    its own: after a lead-in ending in ":" ("the most likely diagnosis is:\n\nD. Aortic
    dissection"), perhaps with a sentence after it that names no candidate, or as the
    reply's last line after reasoning (DeepSeek's MMLU-Pro replies)."""
    ans = spec.answer
    if spec.task != "choice" or len(ans) != 1:
        return _none_phrase(rng, spec) if not ans else _conclusion(rng, spec)
    (label,) = ans
    said = rng.choice(_LINE_FORMS).format(l=label, t=_written(rng, spec.text(label)))
    if rng.random() < 0.3 and spec.direct:
        return f"{_reasoning(rng, spec)}\n\nAll of this points one way.\n\n{said}", ans
    after = rng.choice(("", "\n\nThis is because it fits the question best."))
    return f"{_reasoning(rng, spec)}\n\n{_line_lead(rng, spec)}\n\n{said}{after}", ans


def _label_line_other(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A label on a line of its own with another candidate's text (or its first words):
    no verdict."""
    label = rng.choice(spec.labels)
    other = rng.choice([lab for lab in spec.labels if lab != label])
    said = rng.choice(_LINE_FORMS).format(l=label, t=_written(rng, spec.text(other)))
    after = rng.choice(("", "\n\nThis is because it fits the question best."))
    return f"{_reasoning(rng, spec)}\n\n{_line_lead(rng, spec)}\n\n{said}{after}", None


def _option_listing(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """The options listed one a paragraph at the end of a reply that concludes nothing:
    a listing is no answer."""
    form = rng.choice(_LINE_FORMS)
    listing = "\n\n".join(form.format(l=lab, t=spec.text(lab)) for lab in spec.labels)
    lead = rng.choice(("The options are:", "Let me list the options again:"))
    return f"{_reasoning(rng, spec)}\n\n{lead}\n\n{listing}", None


def _label_long_text(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """ "The answer is **G: developing a global regulatory body ...**": one label with its
    own text, whole or its first words, in the answer sentence; with another candidate's
    text (or its first words) there, no verdict."""
    ans = spec.answer
    if len(ans) != 1:
        return _none_phrase(rng, spec) if not ans else _conclusion(rng, spec)
    (label,) = ans
    mine = rng.random() < 0.5
    whose = label if mine else rng.choice([lab for lab in spec.labels if lab != label])
    said = rng.choice(("{l}: {t}", "{l}. {t}", "({l}) {t}")).format(
        l=label, t=_written(rng, spec.text(whose))
    )
    tail = rng.choice((f"The answer is **{said}**.", f"The answer is {said}"))
    return f"{_reasoning(rng, spec)}\n\n{tail}", ans if mine else None


SET_CLASSES: dict[str, Phrasing] = {
    "conclusion": _conclusion,
    "status": _status,
    "one_side": _one_side,
    "list": _lists,
    "marks": _marks,
    "yes_no": _yes_no,
    "table": _table,
    "json": _json,
    "note": _note,
    "negation": _negation,
    "exception": _exception,
    "hedge": _hedge,
    "revision": _revision,
    "copy": _copy,
    "predicate": _predicate,
    "texts": _texts,
    "long": _long,
    "boxed": _boxed,
    "confused": _confused,
    "cut": _cut,
    "while_not": _while_not,
    "bold": _bold,
    "with_text": _with_text,
    "json_keys": _json_keys,
    "status_lines": _status_lines,
    "contradiction": _contradiction,
    "lowercase": _lowercase,
    "not_the_answer": _not_the_answer,
    "only": _only,
    "two_headings": _two_headings,
    "reasoned_table": _reasoned_table,
    "numbered_reasons": _numbered_reasons,
    "lead_in": _lead_in,
    "lead_in_contradicts": _lead_in_contradicts,
    "answer_is": _answer_is,
    "answer_ends_line": _answer_ends_line,
    "latex_answer": _latex_answer,
    "label_own_text": _label_own_text,
    "label_other_text": _label_other_text,
    "label_line": _label_line,
    "label_line_other": _label_line_other,
    "option_listing": _option_listing,
    "label_long_text": _label_long_text,
}


# -- classes for a pair ------------------------------------------------------------------------


def _p_word(spec: _Spec) -> str:
    return "better" if spec.direct else "worse"


def _p_conclusion(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    name = _name(rng, spec, label)
    lead = rng.choice(("Therefore, ", "Overall, ", "So ", "In conclusion, ", ""))
    if spec.direct:
        form = rng.choice(
            (
                f"{lead}{name} is better.",
                f"I prefer {name}.",
                f"{name} wins.",
                f"[[{label}]]",
                f"{lead}the better response is {name}.",
                f"Final verdict: {label}",
            )
        )
    else:
        form = rng.choice(
            (
                f"{lead}{name} is worse.",
                f"{lead}the worse response is {name}.",
                f"Answer: {label}",
                f"[[{label}]]",
            )
        )
    return _cap(form), (label,)


def _p_reasoning(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    reply, expected = _p_conclusion(rng, spec)
    parts = [f"{_name(rng, spec, lab)}: {spec.why[lab]}." for lab in spec.labels]
    return "\n".join(parts) + "\n\n" + reply, expected


def _p_tie(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    form = rng.choice(
        (
            "Both responses are equally good.",
            "It's a tie.",
            "Neither is better than the other.",
            "[[C]]" if spec.direct else "Both are equally good.",
        )
    )
    return form, spec.labels if spec.direct else ()


def _p_json(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    import json

    (label,) = spec.answer
    key = rng.choice(("winner", "better")) if spec.direct else "worse"
    return json.dumps({"reasoning": spec.why[label], key: label}), (label,)


def _p_scores(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    winner = next(iter(spec.truth))
    score = {lab: (8 if lab == winner else 5) for lab in spec.labels}
    lines = [f"{_name(rng, spec, lab)}: {score[lab]}/10" for lab in spec.labels]
    return "\n".join(lines), spec.answer


def _p_negation(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (_label,) = spec.answer
    other = spec.other[0]
    return rng.choice(
        (
            f"I don't think {_name(rng, spec, other)} is {_p_word(spec)}.",
            f"{_name(rng, spec, other)} is not {_p_word(spec)}.",
        )
    ), None


def _p_hedge(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    return rng.choice(
        (
            f"If brevity matters, {_name(rng, spec, label)} is {_p_word(spec)}.",
            f"{_name(rng, spec, label)} might be {_p_word(spec)}, hard to say.",
            "It depends on what the user wants.",
        )
    ), None


def _p_revision(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    other = spec.other[0]
    w = _p_word(spec)
    return (
        f"{_name(rng, spec, other)} is {w}. Wait, no: {_name(rng, spec, label)} is {w}, since "
        f"{spec.why[label if spec.direct else other]}."
    ), (label,)


def _p_note(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    reply, expected = _p_conclusion(rng, spec)
    return reply + " " + rng.choice(
        ("Note: both are short.", "(Both are polite.)", "Note: neither uses markdown.")
    ), expected


def _p_confused(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    if spec.direct:
        return _p_conclusion(rng, spec)
    good = next(iter(spec.truth))
    return f"{_name(rng, spec, good)} is better.", None


def _p_contrast(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """A concession, then the verdict: "B is more detailed, but A is better overall"."""
    (label,) = spec.answer
    other = spec.other[0]
    return (
        f"{_name(rng, spec, other)} is longer, but {_name(rng, spec, label)} is {_p_word(spec)} "
        f"overall."
    ), (label,)


def _p_bold(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    word = "Winner" if spec.direct else "Worse response"
    return rng.choice(
        (
            f"**{word}: {_name(rng, spec, label)}**",
            f"### Verdict\n{_name(rng, spec, label)} is {_p_word(spec)}.",
            f"{spec.why[label].capitalize()}.\n\n**{_name(rng, spec, label)}** is {_p_word(spec)}.",
        )
    ), (label,)


def _p_ordering(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    winner = next(iter(spec.truth))
    loser = next(lab for lab in spec.labels if lab != winner)
    return rng.choice((f"Ranking: {winner} > {loser}", f"{loser} < {winner}")), spec.answer


def _p_actually(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    other = spec.other[0]
    w = _p_word(spec)
    return (
        f"At first glance {_name(rng, spec, other)} seems {w}. On second thought, "
        f"{_name(rng, spec, label)} is {w}."
    ), (label,)


def _p_comparative(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    """ "Response A is more accurate than Response B": the better one, and the worse."""
    winner = next(iter(spec.truth))
    loser = next(lab for lab in spec.labels if lab != winner)
    adjective = rng.choice(("more accurate", "more helpful", "clearer"))
    noun = rng.choice(("Response", "Assistant"))
    reply = f"{noun} {winner} is {adjective} than {noun} {loser}."
    return reply, spec.answer


def _p_go_with(rng: random.Random, spec: _Spec) -> tuple[str, tuple[str, ...] | None]:
    (label,) = spec.answer
    if spec.direct:
        return rng.choice(
            (
                f"I'd go with {_name(rng, spec, label)} because {spec.why[label]}.",
                f"Winner: {_name(rng, spec, label)}",
            )
        ), (label,)
    return f"The weaker response is {_name(rng, spec, label)}.", (label,)


PAIR_CLASSES: dict[str, Phrasing] = {
    "conclusion": _p_conclusion,
    "long": _p_reasoning,
    "tie": _p_tie,
    "json": _p_json,
    "scores": _p_scores,
    "negation": _p_negation,
    "hedge": _p_hedge,
    "revision": _p_revision,
    "note": _p_note,
    "confused": _p_confused,
    "contrast": _p_contrast,
    "bold": _p_bold,
    "ordering": _p_ordering,
    "actually": _p_actually,
    "comparative": _p_comparative,
    "go_with": _p_go_with,
}


CLASSES: dict[str, tuple[str, ...]] = {
    "choice": tuple(SET_CLASSES),
    "checklist": tuple(
        name for name in SET_CLASSES if name not in ("predicate", "confused", "lowercase")
    ),
    "pairwise": tuple(PAIR_CLASSES),
}


_SPECS = {"choice": _choice_spec, "checklist": _checklist_spec, "pairwise": _pair_spec}


def _tie_spec(rng: random.Random, polarity: str) -> _Spec:
    spec = _pair_spec(rng, polarity)
    return _Spec(
        spec.task, polarity, spec.item, spec.labels, spec.texts, frozenset(spec.labels), spec.why
    )


def generate(n: int, seed: int = 0) -> Iterator[Case]:
    """``n`` cases, spread evenly over every task, leg and class (seeded)."""
    rng = random.Random(seed)
    cells = [
        (task, leg, name)
        for task, names in CLASSES.items()
        for name in names
        for leg in ("direct", "reverse")
    ]
    for i in range(n):
        task, leg, name = cells[i % len(cells)]
        if task == "pairwise":
            spec = (_tie_spec if name == "tie" else _pair_spec)(rng, leg)
            reply, expected = PAIR_CLASSES[name](rng, spec)
        else:
            spec = _SPECS[task](rng, leg)
            reply, expected = SET_CLASSES[name](rng, spec)
        if expected is not None:
            expected = tuple(label for label in spec.labels if label in expected)
        yield Case(name, task, leg, spec.item, reply, expected)


def outcome(case: Case, reading: Any) -> str:
    """How a reading of ``case`` fares: ``right`` (the expected labels, or a failure or
    a reading marked as the other question's answer where no answer to this leg's
    question is meant), ``abstain`` (failed where an answer is expected),
    ``misread`` (something else, marked weak or polarity-confused) or ``confident``
    (something else, unmarked: the one failure a reader must not have)."""
    failed = reading.status.value == "failed"
    if failed:
        return "right" if case.expected is None else "abstain"
    if case.expected is None and reading.polarity_confusion:
        return "right"  # read as the other question's answer, and said so
    if case.expected is not None and tuple(reading.labels) == case.expected:
        return "right"
    marked = reading.weak or reading.polarity_confusion or reading.answer_mismatch
    return "misread" if marked else "confident"
