"""The words a reply is read in: each task's polarity words, the nouns it names candidates
by, the status words and marks of per-candidate answers, and their signs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from prin_guard.reader._text import _Pattern
from prin_guard.tasks._words import TASK_WORDS, Task

# Nouns that ``_RUN`` already reads before a label ("option C"): not written over.
_NATIVE_NOUNS = frozenset({"option", "choice", "candidate", "answer", "letter", "label"})


@dataclass(frozen=True, slots=True)
class _Vocab:
    """The polarity words a parse knows: the task's, the bundled templates' and the
    caller's; ``phrases``: the caller's words of several words ("fails to meet")."""

    positive: frozenset[str]
    negative: frozenset[str]
    phrases: tuple[tuple[tuple[str, ...], int], ...] = ()
    predicate: tuple[str, ...] = ()
    """The words of the question's predicate ("red", "planet" of "Which planet is known as
    the Red Planet?"), lower case; none when the question does not end on one
    (:func:`predicate_phrase`)."""
    noun: str = ""
    """What the question calls its options ("ratio" of "Which ratio can form ...?"),
    lower case; empty when it names none (:func:`question_noun`)."""
    asks: frozenset[str] = frozenset()
    """The question's own words of three letters or more, lower case (a choice item's):
    a sentence that names a candidate in them ("Canberra is the capital of Australia.")
    answers it (``prin_guard.reader._answered``)."""
    question: str = ""
    """The item's question as given (a choice's: what a value it concludes on must name,
    ``prin_guard.reader._values``)."""

    @classmethod
    def of(
        cls, words: tuple[str, str] | None, task: Task = "choice", question: str | None = None
    ) -> _Vocab:
        positive, negative = TASK_WORDS[task].positive, TASK_WORDS[task].negative
        predicate = _predicate(question) if task == "choice" and question else frozenset()
        positive = positive | (predicate - negative)
        if task == "choice" and question:  # "ungrammatical" of "grammatically correct"
            negative = negative | (_negative_forms(question) - positive)
        # the predicate's antonyms ("composite" of "prime"): the reverse side's words
        negative = negative | (
            frozenset(word for form in predicate for word in _ANTONYMS.get(form, ())) - positive
        )
        phrase = predicate_phrase(question) if task == "choice" and question else ()
        noun = question_noun(question) if task == "choice" and question else ""
        if task == "choice":
            positive |= _DIRECT_SUPERLATIVES
        asks = (
            frozenset(_ASKED_WORD.compiled.findall(question.lower()))
            if task == "choice" and question
            else frozenset()
        )
        if words is None:
            return cls(
                positive, negative, predicate=phrase, noun=noun, asks=asks, question=question or ""
            )
        mine = [" ".join(word.lower().split()) for word in words]
        phrases = tuple(
            (tuple(word.split()), sign)
            for word, sign in zip(mine, (1, -1), strict=True)
            if " " in word
        )
        return cls(
            positive | {mine[0]}, negative | {mine[1]}, phrases, phrase, noun, asks, question or ""
        )

    def sign(self, word: str, *, negated: bool = False) -> int:
        word = word.lower()
        sign = 1 if word in self.positive else -1 if word in self.negative else 0
        return -sign if negated else sign

    def verb_sign(self, match: re.Match[str]) -> int:
        """The sign of a ``_VERB_ADJ`` match: "are incorrect" -1, "is not correct" -1."""
        return self.sign(match.group("adj"), negated=_negated(match))

    def predicate_end(self, text: str, pos: int, hi: int) -> int | None:
        """Where the question's whole predicate ends when ``text[pos:hi]`` starts with it
        ("multiples of 4" of "Which of these numbers are multiples of 4?", its last word
        in either number), else None."""
        if not self.predicate:
            return None
        found = _predicate_pattern(self.predicate).match(text, pos, hi)
        return found.end() if found is not None else None

    def phrase_sign(self, words: Sequence[str], allowed: frozenset[str]) -> int | None:
        """The sign of a short phrase ("incorrect options", "not correct", "fails to
        meet"); None when a word is neither a polarity word nor in ``allowed``, or both
        polarities occur."""
        signs: set[int] = set()
        i = 0
        while i < len(words):
            phrase = next(
                ((len(p), sign) for p, sign in self.phrases if tuple(words[i : i + len(p)]) == p),
                None,
            )
            if phrase is not None:
                signs.add(phrase[1])
                i += phrase[0]
                continue
            if (
                words[i] in _FAIL_WORDS
                and tuple(words[i + 1 : i + 2]) == ("to",)
                and self.sign(words[i + 2] if i + 2 < len(words) else "") > 0
            ):  # "fails to meet"
                signs.add(-1)
                i += 3
                continue
            sign = self.sign(words[i], negated=i > 0 and words[i - 1] == "not")
            if sign:
                signs.add(sign)
            elif words[i] not in allowed:
                return None
            i += 1
        if len(signs) > 1:
            return None
        return signs.pop() if signs else 0


_FAIL_WORDS = frozenset({"fail", "fails", "failed"})


@functools.lru_cache(maxsize=64)
def _predicate_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """The predicate ``words`` as a pattern, its last word in the singular or the plural."""
    last = re.escape(words[-1])
    stem = re.escape(words[-1][:-1]) if words[-1].endswith("s") else last
    forms = f"(?:{last}|{stem}|{last}s|{last}es)"
    head = "".join(re.escape(word) + r"\s+" for word in words[:-1])
    return re.compile(rf"(?:an?\s+|the\s+)?{head}{forms}(?![\w-])", re.IGNORECASE)


# Verbs that give the candidates they name a side of the item's own question, whatever the
# leg asks (issue 38, round 4): those that reject ("eliminate B and D", "B and D are off",
# "Frog and Salamander don't fit") the reverse side, those that keep ("keep A and C",
# "that leaves A and C") the direct side. One vocabulary for every stage that reads them
# (``prin_guard.reader._exclusion``): each verb's forms, imperative or first person
# ("eliminate", "I'd rule out"), and past participle ("B is eliminated", "D can be ruled
# out"); predicates a subject takes ("are off", "don't fit").
SIDE_VERBS: tuple[tuple[str, str, int], ...] = (
    # (active forms, participle forms, sign), as regular-expression alternatives
    ("eliminat(?:e|es|ing)", "eliminated", -1),
    (r"(?:rule|rules|ruling)\s+out", r"ruled\s+out", -1),
    (r"(?:strike|strikes|striking)(?:\s+out)?", r"(?:struck|stricken)(?:\s+out)?", -1),
    ("discard(?:s|ing)?", "discarded", -1),
    ("drop(?:s|ping)?", "dropped", -1),
    ("exclud(?:e|es|ing)", "excluded", -1),
    (r"cross(?:es|ing)?\s+(?:out|off)", r"crossed\s+(?:out|off)", -1),
    ("reject(?:s|ing)?", "rejected", -1),
    ("dismiss(?:es|ing)?", "dismissed", -1),
    ("remov(?:e|es|ing)", "removed", -1),
    (r"(?:leave|leaves|leaving)\s+out", r"left\s+out", -1),
    (r"(?:throw|throws|throwing|toss|tosses|tossing)\s+out", r"(?:thrown|tossed)\s+out", -1),
    ("(?:keep|keeps|keeping)", "kept", 1),
    ("retain(?:s|ing)?", "retained", 1),
)
# Predicates after a subject: "B and D are off", "Frog and Salamander don't fit"
SIDE_PREDICATES: tuple[tuple[str, int], ...] = (
    (r"(?:is|are)\s+(?:off|out)", -1),
    (r"(?:remains?|stays?|survives?)", 1),
    (r"(?:(?:do|does)(?:\s+not|n[’']t)|(?:can|could)(?:not|n[’']t|\s+not))\s+(?:fit|belong)", -1),
)
# "That leaves A and C", "which leaves B": what is left, the direct side
SIDE_LEFT = r"(?:(?:that|this|which|it)\s+leaves|leaving)"


# Words that name a choice's answer to the direct question: "the closest option is C",
# "the best answer is B" (on the reverse leg, an answer to the other question).
_DIRECT_SUPERLATIVES = frozenset({"closest", "best", "likeliest", "nearest"})


# "Which of these cities are capitals?", "Which numbers are prime?", "Which of the
# following is a mammal?", "Which of these are noble gases?": the predicate the question
# asks about, one word after the verb (and an article), or its first of two or three
# ("noble" of "noble gases"), ending the question.
_QUESTION = _Pattern(
    r"\bwhich\b[^?\n]{0,120}?\b(?:is|are)\s+(?:an?\s+|the\s+)?(?P<p>[a-z]{3,30})"
    r"(?P<more>(?:\s+[a-z]{3,30}){0,2})\s*\?\s*\Z",
    re.IGNORECASE,
)


_ASKED_WORD = _Pattern(r"[a-z]{3,}")


# Antonyms of common predicates, in both numbers: what has not the predicate, in one word
# ("9 and 15 are composite" on "Which of these numbers are prime?"). Strict ones only, and
# no word that is also a common adverb ("even")
_ANTONYM_PAIRS = (
    ("prime", "composite"),
    ("rational", "irrational"),
    ("metal", "nonmetal"),
    ("living", "nonliving"),
    ("renewable", "nonrenewable"),
    ("vertebrate", "invertebrate"),
    ("organic", "inorganic"),
)


def _antonyms() -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for one, other in _ANTONYM_PAIRS:
        for a, b in ((one, other), (other, one)):
            table[a] = table[a + "s"] = (b, b + "s")
    return table


_ANTONYMS = _antonyms()


_NOT_PREDICATES = frozenset(
    {"true", "false", "correct", "incorrect", "right", "wrong", "best", "worst", "better", "worse"}
)


def _predicate(question: str) -> frozenset[str]:
    """The question's own predicate and its other number ("capitals", "capital"); none
    when the question does not end on one."""
    match = _QUESTION.search(question.strip())
    if match is None:
        return frozenset()
    word = match.group("p").lower()
    if word in _ANSWER_WORDS or word in _NOT_PREDICATES:
        return frozenset()
    if match.group("more"):
        return frozenset({word})  # the modifier: "A and C are noble (gases)"
    forms = {word}
    if word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    else:
        forms.add(word + "s")
    return frozenset(forms)


# The question's whole predicate, up to four words ending it, after "is" / "are" and what
# names it ("known as", "called", "considered"): "Which planet is known as the Red
# Planet?": "red planet"; "Which of the following animals are mammals?": "mammals".
_QUESTION_PHRASE = _Pattern(
    r"\bwhich\b[^?\n]{0,120}?\b(?:is|are)\s+(?:(?:known|referred\s+to|called|considered"
    r"|classified|regarded|described)\s+(?:as\s+)?)?(?:an?\s+|the\s+)?"
    r"(?P<p>(?:(?:in|on|at|from)\s+)?[a-z]{3,30}(?:\s+(?:[a-z]{2,30}|\d{1,6})){0,3})\s*\?\s*\Z",
    re.IGNORECASE,
)
# The words a choice question asks about, after its verb: "grammatically correct in
# standard English" of "Which sentence is grammatically correct in standard English?"
_QUESTION_WORDS = _Pattern(
    r"\bwhich\b[^?\n]{0,120}?\b(?:is|are)\s+(?P<w>[^?\n]{1,120})\?\s*\Z", re.IGNORECASE
)
_NEGATIVE_PREFIXES = ("un", "im", "il", "ir", "non")  # not "in": "inflammable", "invaluable"
_PREFIXED_LETTERS = 5


def _negative_forms(question: str) -> frozenset[str]:
    """The question's own words of five letters or more (an adverb as its adjective:
    "grammatically", "grammatical") under a negative prefix: "ungrammatical",
    "illegal", "impossible", "nonmagnetic", words of the reverse side ("incorrect",
    "invalid" are the task's own). None when the
    question is itself negative ("Which are not ...?")."""
    match = _QUESTION_WORDS.search(question.strip())
    if match is None:
        return frozenset()
    words = [word.lower() for word in re.findall(r"[A-Za-z]+", match.group("w"))]
    if any(word in _NOT_PREDICATE_WORDS for word in words):
        return frozenset()
    stems = {word for word in words if len(word) >= _PREFIXED_LETTERS}
    stems |= {word[:-2] for word in stems if word.endswith("ally")}
    return frozenset(prefix + stem for stem in stems for prefix in _NEGATIVE_PREFIXES)


# Words that make a predicate no predicate of the direct side's own: "Which are not
# mammals?", "Which is true?" (the polarity words), "Which is the answer?".
_NOT_PREDICATE_WORDS = frozenset({"not", "never", "no", "neither", "nor", "none"})


def predicate_phrase(question: str) -> tuple[str, ...]:
    """The words of the predicate a choice question asks about, lower case ("red",
    "planet"); none when the question does not end on one, or it is a polarity word, an
    answer's noun or a negation ("Which are correct?", "Which are not mammals?")."""
    match = _QUESTION_PHRASE.search(question.strip())
    if match is None:
        return ()
    phrase = tuple(match.group("p").lower().split())
    if (
        phrase[0] in _NOT_PREDICATES
        or phrase[0] in _ANSWER_WORDS
        or any(word in _NOT_PREDICATE_WORDS for word in phrase)
    ):
        return ()
    return phrase


def predicate_source(words: Sequence[str]) -> str:
    """A pattern's source for the predicate ``words`` (:func:`predicate_phrase`), its last
    word in the singular and the plural ("mammal", "mammals"; "noble gas", "noble
    gases"), the words apart by any spacing."""
    last = words[-1]
    forms = {last, last + "s", last + "es"}
    if last.endswith("s") and not last.endswith("ss"):
        forms.add(last[:-1])
    if last.endswith("es"):
        forms.add(last[:-2])
    head = r"\s+".join(map(re.escape, words[:-1]))
    return (head + r"\s+" if head else "") + f"(?:{'|'.join(map(re.escape, sorted(forms)))})"


# "Which ratio can ...?", "Which of these numbers are ...?", "Which of the following
# cities ...?": the noun the question names its options by.
_QUESTION_NOUN = _Pattern(
    r"^\s*which\s+(?:(?:one\s+)?of\s+(?:the\s+following|these|those|the)\s+)?"
    r"(?P<n>[a-z]{3,30})\b",
    re.IGNORECASE,
)
_NOT_NOUNS = frozenset(
    {"is", "are", "was", "were", "can", "could", "would", "should", "does", "do", "did",
     "has", "have", "will", "must", "might", "may", "statement", "statements", "following",
     "these", "those", "one", "ones"}
)  # fmt: skip


def question_noun(question: str) -> str:
    """The noun a choice question names its options by, lower case and singular
    ("ratio"); empty when it names none ("Which is ...?", "Which of these ...?")."""
    match = _QUESTION_NOUN.search(question)
    if match is None:
        return ""
    noun = match.group("n").lower()
    if noun in _NOT_NOUNS or noun in _ANSWER_WORDS or noun in _NOT_PREDICATES:
        return ""
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def _negated(match: re.Match[str]) -> bool:
    return bool(match.group("nt")) ^ bool(match.group("neg")) ^ bool(match.group("neg2"))


# Words of a JSON key or tag name that make it an answer ("final_answer", "labels").
_ANSWER_WORDS = frozenset(
    {
        "answer", "answers", "label", "labels", "choice", "choices", "option", "options",
        "selected", "selection", "result", "results", "final", "verdict", "prediction",
        "predictions", "output", "letter", "letters", "candidates", "ones", "winner",
        "preference", "decision", "judgment", "judgement",
    }
)  # fmt: skip


class _Signed(Protocol):
    """What a sign is read with: the parse's words and its leg (a parse's ``_Context``,
    which holds a ``_Vocab``: named here by what is used, so the two modules do not
    import each other)."""

    @property
    def vocab(self) -> _Vocab: ...

    @property
    def leg(self) -> int: ...


_KEY_WORD = _Pattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _name_sign(name: str, ctx: _Signed) -> tuple[int, bool] | None:
    """A JSON key's or tag's sign, and whether it names an answer ("final_answer",
    "incorrect_options"); None when it names both polarities."""
    words = [word.lower() for word in _KEY_WORD.compiled.findall(name)]
    signs = {
        ctx.vocab.sign(word, negated=i > 0 and words[i - 1] == "not")
        for i, word in enumerate(words)
    } - {0}
    if len(signs) > 1:
        return None
    sign = signs.pop() if signs else 0
    return sign, sign != 0 or any(word in _ANSWER_WORDS for word in words)


_STATUS_MARKS = {
    "✓": 1, "✔": 1, "✅": 1, "☑": 1, "🗸": 1, "✗": -1, "✘": -1, "❌": -1, "☒": -1, "✖": -1,
}  # fmt: skip


_MARK_CLASS = "✓✔✅☑🗸✗✘❌☒✖"


# Answers to a question: read as the column header's, else the leg's.
_SELECTIONS = {"yes": 1, "y": 1, "no": -1, "n": -1}
# "true" and "false" are not selections: a statement or an option is true or false
# whichever question is asked ("| C | false |" on the reverse leg: C is incorrect),
# unless a header asks a question they answer ("Is incorrect?", "| Noble gas? |").
_TRUTHS = {"true": 1, "false": -1}


_STATUS_SIGNS = {
    **dict.fromkeys(
        (
            "met", "satisfied", "fulfilled", "fulfils", "fulfills", "pass", "passed",
            "passes", "supported", "addressed", "followed", "achieved", "present", "ok",
            "okay", "correct", "right", "valid", "done", "included", "accurate", "meets",
            "holds", "true",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "unmet", "unsatisfied", "unfulfilled", "fail", "failed", "fails", "unsupported",
            "unaddressed", "violated", "missing", "absent", "incorrect", "wrong", "invalid",
            "contradicted", "refuted", "inaccurate", "omitted", "false",
        ),
        -1,
    ),
}  # fmt: skip


_STATUS_FILLER = frozenset({"fully", "clearly", "completely", "entirely"})


_PARTIAL = frozenset({"partially", "partly", "somewhat", "mostly", "largely", "half"})


_STATUS_TOKEN = _Pattern(rf"[A-Za-z]+|[{_MARK_CLASS}]")


def _status_sign(text: str, lo: int, hi: int, ctx: _Signed, header: int = 0) -> int:
    """The sign of a short status ("met", "Not met", "✓", "Yes", "PASS"), 0 when
    ``text[lo:hi]`` is not one. A selection (yes/no, true/false) answers ``header``'s
    question, else the leg's."""
    sign = 0
    negated = False
    count = 0
    for match in _STATUS_TOKEN.finditer(text, lo, hi):
        count += 1
        token = match.group().lower()
        if count > 3 or token in _PARTIAL:
            return 0
        if token in ("not", "never"):
            negated = True
            continue
        found = (
            _STATUS_MARKS.get(token)
            or ((header or ctx.leg or 1) * _SELECTIONS[token] if token in _SELECTIONS else 0)
            or (header * _TRUTHS[token] if header and token in _TRUTHS else 0)
            or _STATUS_SIGNS.get(token)
            or ctx.vocab.sign(token)
        )
        if found:
            if sign and found != sign:
                return 0
            sign = found
        elif token not in _STATUS_FILLER:
            return 0
    return -sign if negated else sign


# Headers that ask whether an option answers the question, whatever it is: "Satisfies?",
# "Matches?", "Fits?"
_ANSWERING = frozenset(
    {"satisfies", "satisfy", "matches", "match", "fits", "fit", "qualifies", "qualify", "applies"}
)
_HEADER_FILLER = frozenset({"is", "it", "a", "an", "the", "of", "by", "in", "to", "does"})
_HEADER_WORD = _Pattern(r"[A-Za-z]+|\d+")
_PLURAL_LETTERS = 2


@functools.lru_cache(maxsize=64)
def _asked_property(question: str) -> frozenset[str]:
    """The words a choice question asks its options to have, after its verb ("divisible",
    "9" of "Which of these numbers are divisible by 9?"), lower case; none when the
    question is negative or names no such words."""
    match = _QUESTION_WORDS.search(question.strip())
    if match is None:
        return frozenset()
    words = {word.lower() for word in _HEADER_WORD.compiled.findall(match.group("w"))}
    if words & _NOT_PREDICATE_WORDS:
        return frozenset()
    return frozenset(words - _HEADER_FILLER)


def _same_word(word: str, asked: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``asked`` or its other number ("gas", "gases")."""
    return any(
        word == other
        or (other.startswith(word) and len(other) - len(word) <= _PLURAL_LETTERS)
        or (word.startswith(other) and len(word) - len(other) <= _PLURAL_LETTERS)
        for other in asked
    )


def property_sign(header: str, ctx: _Signed) -> int:
    """1 when a column's or a key's ``header`` asks whether an option has the question's
    own property ("Noble gas?", "divisible_by_9", "is_even", "Largest?" of "Which planet
    is the largest ...?") or answers it at all ("Satisfies?"): its yes and true are the
    direct question's side, on either leg; -1 for that property negated ("Not a noble
    gas?") and for the property without the question's negative prefix ("mutable" of
    "Which types are immutable?"); 0 when it names something else (the leg's question is
    then what it answers)."""
    words = [word.lower() for word in _HEADER_WORD.compiled.findall(header)]
    negated = bool(words) and words[0] in ("not", "non")
    words = [word for word in words[1 if negated else 0 :] if word not in _HEADER_FILLER]
    if not words or len(words) > len(_HEADER_FILLER):
        return 0
    if len(words) == 1 and words[0] in _ANSWERING:
        return -1 if negated else 1
    asked = _asked_property(ctx.vocab.question) if ctx.vocab.question else frozenset()
    if not asked:
        return 0
    if len(words) == 1 and any(prefix + words[0] in asked for prefix in _NEGATIVE_PREFIXES):
        return 1 if negated else -1  # "mutable" of "Which types are immutable?"
    if not all(_same_word(word, asked) for word in words):
        return 0
    return -1 if negated else 1
