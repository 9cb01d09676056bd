"""Reading a filled-in review form from a reviewer's reply (issue 41, item 2): strict, pure,
no I/O.

``read_review(reply, form)`` returns each field of the form that the reply fills in
unambiguously, and for every other field the reason it was not read; or, when no review can
be found at all, why the reply is unreadable. It never guesses a value.

**Where the review is.** A JSON object in a fenced block (```` ```json ```` or a bare
```` ``` ````), as the AI Scientist asks ("THOUGHT:" then "REVIEW JSON:" and the block); or,
with no fence, a reply that is one JSON object and nothing else (or one after the last
"REVIEW JSON:"). When the reply holds "REVIEW JSON:", only objects after its last occurrence
count: what comes before is the reviewer's notes. Of these objects, those that name at least
one field of the form are the review; when there are several, they must be the same object
(a reflection round repeats its JSON), else the reply is unreadable ("several different
review JSON objects"). A reply with no such object is unreadable; prose is never read for
scores. Control characters inside JSON strings (a raw line break in a summary) are allowed,
as the AI Scientist's own parser allows them, without changing any text.

**Copies of the item.** A review object that stands in a quotation of the item's texts
(``echo``: the paper, the example reviews a prompt shows) is the item's, not the
reviewer's: it is not read, and the reading says ``copied``. The rule is every reader's for
a place (:func:`prin_guard._prompting._quotes.quoted_places`): the longest stretch around the object
that the item holds holds a word that is none of the form's names and decision words.

**Fields** are matched by name, case, spaces, underscores and hyphens ignored ("overall",
"Ethical_Concerns"). A field given twice (the same key twice, or two spellings of it) with
different values is unread; with the same value it is read.

**A score** is read when it is an integer on its scale: a JSON integer, a number with no
fractional part (``7.0``), or a string holding only the integer (``"7"``) or the integer
over the scale's top (``"7/10"`` on 1-10). Unread, with the reason: a score outside the
scale, a fraction of another top (``"7/5"`` on 1-10), a non-integer (``7.5``), a boolean,
any other text (``"high"``, ``"7 (accept)"``), a list or an object.

**The decision** is read when it is one of the form's words for a side (``Accept`` /
``Reject``, case and spaces ignored). Anything else is unread: the AI Scientist's form forbids
"Weak Accept", "Borderline Reject" and the like, and a word the form does not name for a side
is not given one.

**Text fields** (summary, strengths, ...) are kept as the reply gives them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from prin_guard._prompting._quotes import quoted_places
from prin_guard._review import ReviewForm, ReviewScale, field_key
from prin_guard.reader._json import DECODER, whole_json

__all__ = ["ReviewReading", "Side", "read_review"]

Side = Literal["accept", "reject"]

_FENCE = re.compile(r"```[ \t]*(?P<lang>[A-Za-z0-9_+-]*)[ \t]*\n(?P<body>.*?)```", re.DOTALL)
_MARKER = re.compile(r"REVIEW\s+JSON\s*:", re.IGNORECASE)
_THOUGHT = re.compile(r"THOUGHT\s*:", re.IGNORECASE)
_INTEGER = re.compile(r"\s*(?P<n>[+-]?\d+)\s*(?:/\s*(?P<top>\d+)\s*)?")


@dataclass(frozen=True, slots=True)
class ReviewReading:
    """What a reply fills in of a review form."""

    scores: dict[str, int] = field(default_factory=dict)
    """The score fields read, by the form's names."""
    decision: Side | None = None
    decision_word: str | None = None
    """The decision as the reply wrote it (``"accept"``)."""
    text: dict[str, Any] = field(default_factory=dict)
    """The text fields given, by the form's names, as the reply gives them."""
    unread: dict[str, str] = field(default_factory=dict)
    """Each form field (scores and decision) that was not read, and why."""
    thought: str | None = None
    """The reviewer's notes before the JSON ("THOUGHT:" ...), stripped; ``None`` if none."""
    reason: str | None = None
    """Why no review was found in the reply; ``None`` when one was."""
    copied: bool = False
    """A review JSON object stood in text copied from the item (``echo``); it was not read."""

    @property
    def found(self) -> bool:
        return self.reason is None

    @property
    def complete(self) -> bool:
        """Every score and the decision were read."""
        return self.found and not self.unread


class _Pairs(dict[str, Any]):
    """A JSON object that remembers every key-value pair, repeated keys included."""

    pairs: list[tuple[str, Any]]

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


# the reader's decoding (:data:`~prin_guard.reader._json.DECODER`: raw control characters
# in strings allowed), every member kept
_PAIRS = json.JSONDecoder(strict=DECODER.strict, object_pairs_hook=_Pairs)


def _decode(text: str) -> _Pairs | None:
    value = whole_json(text, _PAIRS.raw_decode)
    return value if isinstance(value, _Pairs) else None


def _objects(reply: str) -> list[tuple[int, int, _Pairs]]:
    """The review JSON objects of the reply, each with where it stands."""
    markers = list(_MARKER.finditer(reply))
    offset = markers[-1].end() if markers else 0
    found = [
        (fence.start("body"), fence.end("body"), decoded)
        for fence in _FENCE.finditer(reply, offset)
        if fence.group("lang").lower() in ("", "json")
        and (decoded := _decode(fence.group("body"))) is not None
    ]
    if not found:
        tail = reply[offset:]
        start = offset + len(tail) - len(tail.lstrip())
        decoded = _decode(tail.strip())
        if decoded is not None:
            found.append((start, start + len(tail.strip()), decoded))
    return found


def _canonical(pairs: _Pairs) -> str:
    return json.dumps(pairs.pairs, sort_keys=False, ensure_ascii=False)


def _values(obj: _Pairs, name: str) -> list[Any]:
    key = field_key(name)
    return [value for k, value in obj.pairs if field_key(k) == key]


def _one(values: list[Any]) -> tuple[Any, str | None]:
    if not values:
        return None, "missing"
    if len({json.dumps(v, sort_keys=True) for v in values}) > 1:
        return None, "given twice with different values"
    return values[0], None


def _score(value: Any, scale: ReviewScale) -> tuple[int | None, str | None]:
    span = f"{scale.min}-{scale.max}"
    number: int
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None, f"{json.dumps(value)} is not a score on {span}"
    if isinstance(value, float):
        if not value.is_integer():
            return None, f"{value} is not an integer score on {span}"
        number = int(value)
    elif isinstance(value, int):
        number = value
    else:
        match = _INTEGER.fullmatch(value)
        if match is None:
            return None, f"{value!r} is not a score on {span}"
        if match.group("top") is not None and int(match.group("top")) != scale.max:
            return None, f"{value!r} is not out of {scale.max}, the top of {span}"
        number = int(match.group("n"))
    if not scale.min <= number <= scale.max:
        return None, f"{number} is outside {span}"
    return number, None


def _thought(reply: str) -> str | None:
    start = _THOUGHT.search(reply)
    if start is None:
        return None
    end = _MARKER.search(reply, start.end())
    fence = reply.find("```", start.end())
    stop = min(
        (position for position in (end.start() if end else -1, fence) if position >= 0),
        default=len(reply),
    )
    return reply[start.end() : stop].strip() or None


def read_review(reply: str, form: ReviewForm, *, echo: Sequence[str] = ()) -> ReviewReading:
    """The review form ``reply`` fills in (see the module's docstring for every rule);
    ``echo``: the item's texts (the paper, the example reviews the prompt shows), whose
    reviews quoted back are not the reviewer's."""
    placed = [(lo, hi, obj) for lo, hi, obj in _objects(reply) if _fills_in(obj, form)]
    names = (
        *(f.name for f in form.scores),
        form.decision.name,
        *form.decision.accept,
        *form.decision.reject,
        *form.text_fields,
    )
    quoted = set(quoted_places(reply, [(lo, hi) for lo, hi, _ in placed], echo, names))
    copied = bool(quoted)
    objects = [obj for lo, hi, obj in placed if (lo, hi) not in quoted]
    if not objects:
        return ReviewReading(reason="no JSON object with the form's fields", copied=copied)
    if len({_canonical(obj) for obj in objects}) > 1:
        return ReviewReading(reason="several different review JSON objects", copied=copied)
    review = objects[0]
    scores: dict[str, int] = {}
    unread: dict[str, str] = {}
    for score_field in form.scores:
        value, why = _one(_values(review, score_field.name))
        if why is None:
            score, why = _score(value, score_field.scale)
            if score is not None:
                scores[score_field.name] = score
        if why is not None:
            unread[score_field.name] = why
    decision: Side | None = None
    word: str | None = None
    value, why = _one(_values(review, form.decision.name))
    if why is None:
        if isinstance(value, str) and field_key(value) in {
            field_key(w) for w in form.decision.accept
        }:
            decision, word = "accept", value
        elif isinstance(value, str) and field_key(value) in {
            field_key(w) for w in form.decision.reject
        }:
            decision, word = "reject", value
        else:
            words = ", ".join((*form.decision.accept, *form.decision.reject))
            why = f"{json.dumps(value)} is not one of {words}"
    if why is not None:
        unread[form.decision.name] = why
    text: dict[str, Any] = {}
    for name in form.text_fields:
        value, why = _one(_values(review, name))
        if why is None:
            text[name] = value
    return ReviewReading(
        scores=scores,
        decision=decision,
        decision_word=word,
        text=text,
        unread=unread,
        thought=_thought(reply),
        copied=copied,
    )


def _fills_in(obj: _Pairs, form: ReviewForm) -> bool:
    names = {field_key(f.name) for f in form.scores} | {field_key(form.decision.name)}
    return any(field_key(key) in names for key, _ in obj.pairs)
