"""The score a rating's reply declares: one stage of the reader, for the rating task (its
items and reconciliation are :mod:`prin_guard._prompting._rating`'s).

**Strict.** A score is read only from a declaration ("Rating: [[7]]", "[[7]]", "[RESULT]
4", "Score: 7", "Rating: [7]", "7/10" or "7 out of 10" ending its line, "I would rate it
as a 7 on the scale of 1 to 10." and "I'd give it 8/10." when no "not" stands between the
verb and the number, a JSON field ``score``/``rating``), or from a reply that is its score
and nothing else: "3", "**4**", one form field filled in ("Coherence: 3"), or a score
leading its explanation ("3 - The code ...", unless the reply is a numbered list). Two
different scores (a fraction of the scale's top anywhere counts, so "7 out of 10 and 9 out
of 10" is two), a score outside the scale, a decimal on an integer scale, or a number that
only appears in the reasoning is no reading.

**Aspects.** A reply rating several aspects declares each on a line of its own or as a
JSON field named after it (:func:`read_aspect_scores`).

**What every reader shares.** JSON is found by the reader's one scanner
(:mod:`prin_guard.reader._json`, its bounds); a declaration that stands in a quotation of
the item is the item's, by the one rule for places
(:func:`prin_guard._prompting._quotes.quoted_places`, as a declared format's place, a ranking and a
review's object are).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from prin_guard._infra._offloop import squeeze, unsqueeze
from prin_guard._prompting._quotes import quoted_places
from prin_guard.reader._json import json_values

__all__ = [
    "EXPECTED_SPREAD",
    "ScoreReading",
    "ScoreStatus",
    "Tokens",
    "expected_score",
    "read_aspect_scores",
    "read_score",
]


class _Scale(Protocol):
    """What reading a score needs of a scale (:class:`prin_guard._prompting._rating.Scale`)."""

    @property
    def min(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def decimals(self) -> bool: ...


class _Aspect(Protocol):
    """What reading an aspect's score needs of it
    (:class:`prin_guard._prompting._rating.Aspect`)."""

    @property
    def name(self) -> str: ...
    @property
    def scale(self) -> _Scale: ...


class ScoreStatus(enum.StrEnum):
    OK = "ok"
    NONE = "none"
    """No score declared (a number in the reasoning is not one)."""
    AMBIGUOUS = "ambiguous"
    """Two different scores declared."""
    OUT_OF_SCALE = "out_of_scale"
    """The declared score is outside the scale, or a decimal on an integer scale."""


@dataclass(frozen=True, slots=True)
class ScoreReading:
    score: float | None
    status: ScoreStatus
    span: tuple[int, int] | None = None
    """Where the declaration stands in the reply (the last one read)."""
    copied: bool = False
    """A declaration stood in text copied from the item; it was not read."""


# a score is a whole token: no letter, digit or other number sign after it ("1O", "1e1",
# "7\u00bd" and "7.5e1" are no score, not 1, 1, 7 and 7.5)
_NUMBER = r"(?P<n>[-+]?\d{1,7}(?:\.\d+)?)(?!\w|\.\d)"
# Each declaration form; the number is group n, a denominator (when the form has one) d.
_DECLARATIONS = [
    re.compile(r"\[\[\s*+" + _NUMBER + r"\s*+\]\]"),  # MT-Bench: Rating: [[7]]
    re.compile(r"\[RESULT\]\s*+:?+\s*+" + _NUMBER, re.IGNORECASE),  # Prometheus
    re.compile(
        r"(?<![\w-])(?:overall\s++|final\s++)?(?:score|rating|grade)\s*+(?:is\s*+)?[:=]\s*+"
        + r"[*\"'\u201c(\[]*+\s*+"
        + _NUMBER
        + r"(?:\s*+(?:/|out\s++of)\s*+(?P<d>\d{1,7}))?(?![\d.]*\d)",
        re.IGNORECASE,
    ),
    # a bare fraction only where it ends its line or sentence ("7/10.", "**7/10**"): "it
    # answers 3/5 questions" is reasoning, not a score
    re.compile(
        r"(?<![\w.\-/])"
        + _NUMBER
        + r"\s*+(?:/|out\s++of)\s*+(?P<d>\d{1,7})(?=[ \t]*+[*_)\].!]*+[ \t]*+$)",
        re.MULTILINE,
    ),
]
_JSON_KEYS = ("score", "rating")
_OPEN, _CLOSE = r"[*\"'\u201c(\[]*+", r"[\])\"'\u201d*]*+"
# "I would rate the response as a 7 on the scale of 1 to 10.", "I'd give it 8/10.": the
# number ends its sentence, or a fraction or "on the scale" follows it; the words between
# the verb and the number say no "not"
_FIRST_PERSON = re.compile(
    r"\bI(?:\s++would|'d|\s++will)?\s++(?:rate|give|score|assign)\b(?P<between>[^.\n\d]{0,120}?)"
    r"(?<=\s)(?:an?\s++)?(?:(?:score|rating)\s++of\s++)?"
    + _OPEN
    + _NUMBER
    + _CLOSE
    + r"(?:\s*+(?:/|out\s++of)\s*+(?P<d>\d{1,7}))?(?=\s*+(?:[.!]|$|on\s++(?:the|a|this)\s++scale))",
    re.IGNORECASE | re.MULTILINE,
)
_NEGATION = re.compile(r"\b(?:not|never|cannot|no)\b|n't\b", re.IGNORECASE)
# words between "I'd rate it" and its number that make the number no score of its own:
# a bound ("lower than 9", "at most 5"), a range, a part of the response ("fluency 9")
_HEDGES = re.compile(
    r"\b(?:lower|higher|below|above|less|more|most|least|between|than|or|to|minus|plus|"
    r"for|nothing|around|about|roughly|maybe|perhaps|somewhere|fluency|accuracy|relevance|"
    r"coherence|clarity|style)\b",
    re.IGNORECASE,
)
# what, after a declared number in its clause, makes it one of several: another number
# ("Score: 7-8", "Rating: 7 (fluency) and 9 (accuracy)", "Score: 8 - 2 = 6", "7,5")
_LATER_NUMBER = re.compile(r"(?<![A-Za-z])[-+]?\d+(?:[.,]\d+)?")
_CLAUSE_END = re.compile(r"\.\s|[!?]\s|\n")
# a reply that is nothing but its score ("3", "**4**"), a score leading its explanation
# ("3 - The code ..."), or one form field filled in ("Coherence: 3", G-Eval's form)
_WHOLE = re.compile(r"\s*+" + _OPEN + _NUMBER + _CLOSE + r"\.?\s*+")
_LEADING = re.compile(r"\s*+" + _NUMBER + r"[ \t]++[-\u2013\u2014][ \t]++(?!\d)\S")
# a line's start: spaces and tabs only (a run of blank lines is not scanned from each)
_LIST_ITEM = re.compile(r"^[ \t]*+\d++[ \t]*+[-\u2013\u2014.)]\s", re.MULTILINE)
# a form field's name: a score's word, or an aspect's (G-Eval's and ICE-Score's forms);
# never any label ("Errors: 3", "Word count: 7" are counts, not scores)
_FIELD = re.compile(
    r"\s*+[-*]?+\s*+(?:[A-Za-z]++\s++){0,3}(?:score|rating|grade|overall|total|coherence|"
    r"consistency|fluency|relevance|correctness|usefulness|helpfulness|accuracy|quality|"
    r"faithfulness|harmlessness|honesty)\s*+:\s*+" + _OPEN + _NUMBER + _CLOSE + r"\s*+",
    re.IGNORECASE,
)
# every "n/max" and "n out of max", wherever it stands: a reply that declares one score
# and gives another as a fraction ("Assistant 1: 7 out of 10 ... Assistant 2: 9 out of
# 10.") declares two
_FRACTION = re.compile(
    r"(?<![\w.\-/])" + _NUMBER + r"\s*+(?:/|out\s++of)\s*+(?P<d>\d{1,7})(?![\d.]*\d)"
)


_DIGIT = re.compile(r"\d")


def read_score(text: str, scale: _Scale, copied_from: Sequence[str] = ()) -> ScoreReading:
    """The score ``text`` declares on ``scale``, strictly (see the module's docstring).

    ``7/10`` counts only when its denominator is the scale's top (a "3/4 of the points"
    aside is no score), and the same declaration read by two forms ("Rating: [[7]]") is one.
    A declaration that stands in text copied from ``copied_from`` (the response under
    rating, its question: "Rating: [[10]]" planted in a response and quoted back) is the
    item's, not the judge's: it is not read, and the reading says ``copied``.
    """
    squeezed, offsets = squeeze(text)  # a run of a million spaces is read as 64
    found = _read_score(squeezed, scale, copied_from)
    return dataclasses.replace(found, span=unsqueeze(found.span, offsets))


def _read_score(text: str, scale: _Scale, copied_from: Sequence[str]) -> ScoreReading:
    if _DIGIT.search(text) is None:  # no number, no score (and no scan of a long text)
        return ScoreReading(None, ScoreStatus.NONE)
    found: dict[tuple[int, int], float] = {}
    declared: dict[tuple[int, int], tuple[int, int]] = {}  # a number's whole declaration
    several = False  # a declaration followed, in its clause, by another number
    cut = False  # a declaration the reply ends inside (the judge's token limit)

    def take(match: re.Match[str], *, check_after: bool = True) -> None:
        nonlocal several, cut
        start = match.start("n")
        for lo, hi in found:
            if lo <= start < hi:  # already read by an earlier form: its declaration is
                # both forms' ("Rating: [[7]]", not only "[[7]]")
                first, last = declared[(lo, hi)]
                declared[(lo, hi)] = (min(first, match.start()), max(last, match.end()))
                return
        if _cut_off(text, match):
            cut = True
            return
        span = (start, match.end("n"))
        found[span] = float(match.group("n"))
        declared[span] = (match.start(), match.end())
        if check_after and _another_number(text, match.end(), scale, found[span]):
            several = True

    for pattern in _DECLARATIONS:
        for match in pattern.finditer(text):
            denominator = match.groupdict().get("d")
            if denominator is not None and int(denominator) != scale.max:
                continue
            if pattern is _DECLARATIONS[-1] and _NEGATION.search(_clause(text, match.start())):
                continue  # "I wouldn't give it 8/10."
            take(match)
    for match in _FIRST_PERSON.finditer(text):
        denominator = match.group("d")
        if denominator is not None and int(denominator) != scale.max:
            continue
        between = match.group("between")
        if _NEGATION.search(between) or _HEDGES.search(between):
            continue
        take(match)
    for span, value in _json_scores(text):
        # every score field counts (one the other forms read too is the same value)
        found.setdefault(span, value)
        declared.setdefault(span, span)
    if not found and not cut:
        alone = _WHOLE.fullmatch(text) or _FIELD.fullmatch(text)
        if alone is None and len(_LIST_ITEM.findall(text)) <= 1:
            alone = _LEADING.match(text)
        if alone is not None:
            # a whole reply, or a score leading its explanation (a range "3 - 4" is no
            # such lead): the explanation's own numbers are not scores
            take(alone, check_after=False)
    if found:
        for match in _FRACTION.finditer(text):
            if int(match.group("d")) == scale.max:
                take(match, check_after=False)
    return _settle(text, found, declared, several, scale, copied_from)


def _settle(
    text: str,
    found: dict[tuple[int, int], float],
    declared: dict[tuple[int, int], tuple[int, int]],
    several: bool,
    scale: _Scale,
    copied_from: Sequence[str],
) -> ScoreReading:
    """The reading of the declarations ``found`` (a number's span, its value; ``declared``:
    each number's whole declaration): those copied from the item dropped (``copied``),
    none left ``none``, two values or a declaration followed by another number
    (``several``) ``ambiguous``, one value off the scale ``out_of_scale``, else ``ok``."""
    copied = False
    # a declaration standing in a quotation of the item is the item's: the reader's rule
    # for a declared verdict, with no label (a score's marks are no word of the item's)
    spans = list(found)
    quoted = set(quoted_places(text, [declared[span] for span in spans], copied_from, ()))
    for span in spans:
        if declared[span] in quoted:
            del found[span]
            copied = True
    if not found:
        return ScoreReading(None, ScoreStatus.NONE, copied=copied)
    values = set(found.values())
    last = max(found)
    if len(values) > 1 or several:
        return ScoreReading(None, ScoreStatus.AMBIGUOUS, last, copied)
    (value,) = values
    whole = value == int(value)
    if not scale.min <= value <= scale.max or (not whole and not scale.decimals):
        return ScoreReading(None, ScoreStatus.OUT_OF_SCALE, last, copied)
    return ScoreReading(value, ScoreStatus.OK, last, copied)


def _aspect_pattern(name: str) -> re.Pattern[str]:
    """An aspect's score declared on a line of its own: its name (any case; spaces,
    underscores and hyphens alike), an optional "score"/"rating", a colon or an equals
    sign, and the number, bare, bracketed or bold, with the scale's top as an optional
    denominator: ``Coherence: 4``, ``- **Fluency**: [[3]]``, ``2. Relevance score = 4/5``."""
    words = [re.escape(word) for word in re.split(r"[\s_-]+", name.strip()) if word]
    spelled = r"[\s_-]+".join(words)
    return re.compile(
        r"^[ \t>]*+(?:[-*\u2022]|\d{1,2}[.)])?+[ \t]*+[*_]*+(?<![\w])(?P<name>"
        + spelled
        + r")(?![\w])[*_]*+(?:[ \t]++(?:score|rating|grade))?+[*_]*+[ \t]*+[:=][ \t]*+"
        + _OPEN
        + r"[ \t]*+"
        + _NUMBER
        + r"(?:\s*+(?:/|out\s++of)\s*+(?P<d>\d{1,7}))?(?![\d.]*\d)",
        re.IGNORECASE | re.MULTILINE,
    )


def read_aspect_scores(
    text: str, aspects: Sequence[_Aspect], copied_from: Sequence[str] = ()
) -> dict[str, ScoreReading]:
    """Each aspect's score, as one reply rating several aspects declares them: a line of
    its own per aspect (``Coherence: 4``, ``- **Fluency**: [[3]]``, ``Relevance score:
    4/5``) or a JSON object's field named after it (``{"coherence": 4, "fluency": 3}``),
    strictly, each aspect on its own scale.

    As :func:`read_score` reads one score: two different scores for an aspect, or its
    declaration followed on its line by another number on the scale ("Coherence: 3-4"),
    is ``ambiguous``; a denominator other than the scale's top is no score; a score off
    the scale (or a decimal where the scale has none) is ``out_of_scale``; a declaration
    the reply ends inside an unclosed bracket is no score; one that stands in text copied
    from the item is not read (``copied``). An aspect nowhere declared is ``none``: the
    other aspects are read all the same.
    """
    if _DIGIT.search(text) is None:  # no number, no score
        return {aspect.name: ScoreReading(None, ScoreStatus.NONE) for aspect in aspects}
    text, offsets = squeeze(text)  # long runs of whitespace read as 64 characters
    objects = _json_objects(text)
    # where each aspect's name ends in each declaration line: a line is the aspect's whose
    # name is the longest there ("Fluency score: 4" is "fluency score"'s, not "fluency"'s)
    lines = {aspect.name: list(_aspect_pattern(aspect.name).finditer(text)) for aspect in aspects}
    longest: dict[int, int] = {}
    for matches in lines.values():
        for match in matches:
            longest[match.start()] = max(longest.get(match.start(), 0), match.end("name"))
    out: dict[str, ScoreReading] = {}
    for aspect in aspects:
        scale = aspect.scale
        found: dict[tuple[int, int], float] = {}
        declared: dict[tuple[int, int], tuple[int, int]] = {}
        several = False
        for match in lines[aspect.name]:
            if match.end("name") < longest[match.start()]:
                continue  # a longer aspect's name stands here
            denominator = match.group("d")
            if denominator is not None and int(denominator) != scale.max:
                continue
            if _cut_off(text, match):
                continue
            span = (match.start("n"), match.end("n"))
            found[span] = float(match.group("n"))
            declared[span] = (match.start(), match.end())
            if _another_number(text, match.end(), scale, found[span]):
                several = True
        key = _field_name(aspect.name)
        for lo, hi, value in objects:
            for number in _fields_named(value, key):
                span = (lo + len(found), hi)  # one entry per field found, beside the lines
                found[span] = number
                declared[span] = (lo, hi)
        read = _settle(text, found, declared, several, scale, copied_from)
        out[aspect.name] = dataclasses.replace(read, span=unsqueeze(read.span, offsets))
    return out


EXPECTED_SPREAD = 0.1
"""The widest an expected score may be left undecided by alternatives that cannot be told
apart (a "1" not taken that may begin "10"): past it there is no expected score."""

Tokens = tuple[tuple[str, float], ...]


def expected_score(
    text: str,
    span: tuple[int, int] | None,
    tokens: Tokens | None,
    alternatives: tuple[Tokens, ...] | None,
    scale: _Scale,
) -> float | None:
    """G-Eval's expected score: the scores the judge could have written at the declared
    score's place (``span``, from :func:`read_score`), weighted by their probabilities
    (the token alternatives a judge gives with ``top_logprobs``), normalised over the
    scores on the scale.

    A score written over several tokens ("1", "0") is followed along the tokens the judge
    wrote: at the "1", the alternatives say how likely "1" was against "8" or "9"; at the
    next position, how likely "0" (ten) was against "]" (one). An alternative that may
    begin a longer score (an untaken "1" on 1-10: one, or ten?) spans its possible
    values; if that leaves the expected score undecided by more than
    :data:`EXPECTED_SPREAD`, there is none, never a guess (it is the midpoint otherwise).
    ``None`` too without alternatives, when the tokens do not spell ``text``, on a scale
    with decimals or below zero, or when no alternative there is a score.
    """
    if span is None or not tokens or not alternatives or len(tokens) != len(alternatives):
        return None
    if scale.decimals or scale.min < 0:
        return None
    starts, position = [], 0
    for token, _ in tokens:
        starts.append(position)
        position += len(token)
    if position != len(text):
        return None
    lo = span[0]
    first = max(i for i, start in enumerate(starts) if start <= lo)
    prefix = text[starts[first] : lo]
    if any(c.isdigit() for c in prefix):
        return None
    if len(alternatives[first]) < 2:
        return None  # the chosen token alone (top_logprobs=1): nothing to weigh
    masses: list[tuple[float, int, int]] = []  # probability, lowest and highest value

    def value_range(digits: str, open_ended: bool) -> tuple[int, int] | None:
        values = [int(digits)] if scale.min <= int(digits) <= scale.max else []
        if open_ended:
            values += [
                v
                for v in range(scale.min, scale.max + 1)
                if len(str(v)) > len(digits) and str(v).startswith(digits)
            ]
        return (min(values), max(values)) if values else None

    def walk(index: int, before: str, digits: str, mass: float, on_path: bool) -> None:
        for alternative, logprob in alternatives[index]:
            p = mass * math.exp(logprob)
            if not alternative.startswith(before):
                continue
            rest = alternative[len(before) :]
            more = re.match(r"\d*", rest).group()  # type: ignore[union-attr]
            if not digits and not more:
                continue  # not a number: no score written here
            whole = digits + more
            ended = len(more) < len(rest) or not more
            extends = value_range(whole, open_ended=True)
            if ended or extends is None or extends[0] == extends[1] == int(whole):
                values = value_range(whole, open_ended=False)
                if values is not None:
                    masses.append((p, *values))
            elif on_path and alternative == tokens[index][0] and index + 1 < len(tokens):
                walk(index + 1, "", whole, p, on_path=True)
            else:
                masses.append((p, *extends))

    walk(first, prefix, "", 1.0, on_path=True)
    total = sum(p for p, _, _ in masses)
    if total <= 0:
        return None
    low = sum(p * v for p, v, _ in masses) / total
    high = sum(p * v for p, _, v in masses) / total
    if high - low > EXPECTED_SPREAD:
        return None
    return (low + high) / 2


def _cut_off(text: str, match: re.Match[str]) -> bool:
    """Whether the reply ends inside this declaration: its number opened a bracket or a
    quote ("Rating: [[1", "Score: (7") and nothing follows it. A reply cut at the judge's
    token limit there may have been writing another number ("[[1" the start of "[[10",
    "[[7" of "[[7.5"), so the number is no score: the reader never guesses."""
    if text[match.end("n") :].strip():
        return False
    before = text[match.start() : match.start("n")]
    return (
        before.count("[") > before.count("]")
        or before.count("(") > before.count(")")
        or before.count("\u201c") > before.count("\u201d")
        or before.count('"') % 2 == 1
        or before.count("'") % 2 == 1
    )


def _another_number(text: str, end: int, scale: _Scale, value: float) -> bool:
    """Whether another number follows a declaration ending at ``end`` in its clause (to
    the next full stop, line break or the end; past a denominator of the scale's top,
    "[[7]]/10"): a number on the scale, or one with a decimal comma ("7,5")."""
    rest = text[end:]
    stop = _CLAUSE_END.search(rest)
    clause = rest[: stop.start()] if stop is not None else rest
    clause = re.sub(
        r"^\s*+[\])\"'*]*+\s*+(?:/|out\s++of)\s*+" + str(scale.max) + r"(?!\d)", "", clause
    )
    # the scale itself named ("on the scale of 1 to 10", "(1-10)") is no other score
    bounds = rf"(?<!\d){scale.min}\s*+(?:to|-|\u2013)\s*+{scale.max}(?!\d)"
    clause = re.sub(bounds, "", clause)
    for match in _LATER_NUMBER.finditer(clause):
        number = float(match.group().replace(",", ".").lstrip("+"))
        if "," in match.group():
            return True  # a decimal comma, or a list
        if scale.min <= abs(number) <= scale.max and number != value:
            return True
    return False


def _clause(text: str, end: int) -> str:
    """The sentence ``text`` has up to ``end``: from the last full stop or line break."""
    start = max(text.rfind(mark, 0, end) for mark in (". ", "! ", "? ", "\n"))
    return text[start + 1 : end]


def _field_name(name: str) -> str:
    """A name as a JSON field's is compared: any case, spaces, underscores, hyphens alike."""
    return re.sub(r"[\s_-]+", " ", name).strip().lower()


def _fields_named(value: Any, key: str, depth: int = 0) -> list[float]:
    """The numbers of every field named ``key`` in a JSON object and the objects within
    it, three levels down (``{"scores": {"warmth": 8}}``): each a declaration, so that one
    named twice with two values (``{"a": {"warmth": 8}, "b": {"warmth": 3}}``) is
    ambiguous."""
    out: list[float] = []
    if depth > 3 or not isinstance(value, dict):
        return out
    for field, inner in value.items():
        if isinstance(inner, dict):
            out += _fields_named(inner, key, depth + 1)
        elif (
            _field_name(str(field)) == key
            and isinstance(inner, int | float)
            and not isinstance(inner, bool)
        ):
            out.append(float(inner))
    return out


def _json_objects(text: str) -> list[tuple[int, int, dict[str, Any]]]:
    """Every JSON object of the reply that stands inside no other (the reader's JSON
    scanner, its bounds: :mod:`prin_guard.reader._json`), in the reply's order, with
    where it starts and ends."""
    found = json_values(text, outermost=True)
    return [(start, end, value) for start, end, value in reversed(list(found))]


def _json_scores(text: str) -> list[tuple[tuple[int, int], float]]:
    """``{"score": 7}`` or ``{"rating": 7}`` anywhere in the reply (each object whose
    ``score``/``rating`` is a number)."""
    out: list[tuple[tuple[int, int], float]] = []
    for start, end, value in _json_objects(text):
        numbers = [
            float(number)
            for key in _JSON_KEYS
            if isinstance(number := value.get(key), int | float) and not isinstance(number, bool)
        ]
        # two keys that differ are two scores: each its own entry (distinct spans)
        for offset, number in enumerate(dict.fromkeys(numbers)):
            out.append(((start + offset, end), number))
    return out
