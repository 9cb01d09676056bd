"""What the stages of the reader find and hand to the resolver: readings (a label set and
where it stands), per-candidate statuses, and the context every stage reads with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, cast

from prin_guard.models import ParseMethod, ParseStatus
from prin_guard.reader._text import _Texts
from prin_guard.reader._vocab import _Vocab
from prin_guard.tasks._words import Task


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The label set read from one reply, and how and where it was read."""

    labels: tuple[str, ...]
    """The labels named, in the candidates' order."""
    status: ParseStatus
    method: ParseMethod | None
    """The rule that read them; None on failure."""
    echoed: bool = False
    """The reply repeats the prompt (see :func:`detect_echo`)."""
    span: tuple[int, int] | None = None
    """Where the answer was read: ``[start, end)`` offsets in the reply as given, tight
    around what was read ("A, C" of "Answer: A, C", "none" of "Answer: none", "all
    except B"); None on failure or when the labels come from several places."""
    disagreement: bool = False
    """The answer named a candidate by a label and a text that disagree ('The answer is
    "C) 1 : 1"' where C is "1 : 6"): it was not read, and the parse failed."""
    copied: bool = False
    """Text copied from the item (``echo``) stood in the reply with an answer's words
    ("The correct option is E." restated): it was not read, whatever the result."""
    weak: bool = False
    """The reading rests on a weak cue: a claim that does not conclude (not in a
    concluding sentence, nor a form that concludes by itself), a softened one
    ("probably"), a negation read as the other side ("I don't think B is correct"), or
    the last-resort forms (loose label forms, a candidate's text inside prose). A
    reading that is not weak comes from a place where an answer is written (a declared
    format, a tag, an answer line, a heading, JSON, a list or table of statuses, a reply
    that is only the answer) or from a concluding claim."""


_FAILED = ParseResult((), ParseStatus.FAILED, None)


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one place of a reply says: a label set (empty: "none") and where."""

    labels: frozenset[str]
    span: tuple[int, int] | None
    """``[start, end)`` in the text read, tight around the labels; None: not one place."""
    inverted: bool = False
    """``labels`` are the labels *not* named: "all" is ``()`` inverted, "all except B"
    ``("B",)`` inverted. Nothing reads every label until the parse's result is built,
    so "all except" costs nothing per label, however often a reply says it."""
    disagrees: bool = False
    """A label and a candidate text disagree here: the answer is not read."""
    void: bool = False
    """This place is the answer but says nothing readable (verdict tags that disagree,
    alternatives: "B or C")."""
    weak: bool = False
    """What this place says rests on a weak cue (:attr:`ParseResult.weak`)."""

    @property
    def names_some(self) -> bool:
        """Whether the reading may name a label (it is not a plain "none")."""
        return self.inverted or bool(self.labels)

    @property
    def value(self) -> tuple[frozenset[str], bool]:
        return self.labels, self.inverted


def _union(readings: Iterable[_Reading]) -> tuple[frozenset[str], bool]:
    """The labels that readings name together, as ``(labels, inverted)``."""
    named: set[str] = set()
    excluded: frozenset[str] | None = None
    for reading in readings:
        if reading.inverted:
            excluded = reading.labels if excluded is None else excluded & reading.labels
        else:
            named |= reading.labels
    if excluded is None:
        return frozenset(named), False
    return excluded - named, True


@dataclass(frozen=True, slots=True)
class _Context:
    """What every reader of one parse needs."""

    keys: Mapping[str, str]
    labels: Sequence[str]
    texts: _Texts
    vocab: _Vocab
    leg: int
    """+1 the direct leg, -1 the reverse leg, 0 unknown (choice only)."""
    task: Task
    names: frozenset[str] = frozenset()
    """The words of the labels a template's contract shows instead of the item's ("1" and
    "2", "assistant"), lower case: a copied stretch naming one is an answer's too."""
    memo: dict[tuple[str, str], object] = field(default_factory=dict, compare=False, repr=False)
    """What the parse worked out once per text (:func:`per_text`): the stages read the
    same text again and again (a looping reply's thousand answer lines, each time)."""

    @property
    def pair(self) -> bool:
        return self.task == "pairwise"


_T = TypeVar("_T")


def per_text(ctx: _Context, text: str, build: Callable[[str, _Context], _T]) -> _T:
    """``build(text, ctx)``, worked out once per text in a parse (``ctx``): ``build`` must
    read nothing but its arguments, and its result must not be changed by who gets it."""
    key = (build.__qualname__, text)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = build(text, ctx)
    return cast(_T, found)


@dataclass(slots=True)
class _Found:
    """Places read by one rule, with their signs, and whether one answered the other
    question (a place of the sign opposite to the leg's)."""

    said: list[tuple[int, _Reading]] = field(default_factory=list)
    opposite: bool = False


def _admitted(signs: Iterable[int], leg: int) -> frozenset[int]:
    """The signs a parse reads, given the signs of the places found."""
    if leg:
        return frozenset({0, leg})
    present = set(signs)
    return frozenset({0}) if {1, -1} <= present else frozenset({-1, 0, 1})


def _admit(out: _Found, leg: int) -> _Found:
    """Keep the places of the signs the parse reads (see :func:`_admitted`)."""
    keep = _admitted((sign for sign, _ in out.said), leg)
    out.opposite = out.opposite or any(sign == -leg != 0 for sign, _ in out.said)
    out.said = [(sign, reading) for sign, reading in out.said if sign in keep]
    return out


def _signed(sign: int, reading: _Reading, ctx: _Context) -> int:
    """A place's sign, none for a pair's tie: "Better: tie" answers both questions."""
    return 0 if ctx.pair and _tie_free(reading, ctx) == (frozenset(), False) else sign


def _tie_free(reading: _Reading, ctx: _Context) -> tuple[frozenset[str], bool]:
    """What a reading says, a pair's tie being one value however it is written."""
    if ctx.pair and (not reading.names_some or (not reading.inverted and len(reading.labels) > 1)):
        return frozenset(), False
    return reading.value


@dataclass(frozen=True, slots=True)
class _Status:
    """A candidate's status, as a sentence or a structure gives it."""

    label: str | None
    """None: every candidate without a status of its own ("the rest are incorrect")."""
    sign: int
    """+1 the direct question's status (correct, met, supported), -1 the reverse's."""
    span: tuple[int, int] | None
    at: int
    structured: bool
    """From a list, a table or a JSON object: a format with a place for both statuses."""
    score: float | None = None
    weak: bool = False
    """The status rests on a weak cue: a softened or a negated statement."""
    """A pair's score ("Output (a): 8/10")."""
