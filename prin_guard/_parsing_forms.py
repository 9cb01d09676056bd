"""The places a judge writes its answer (see :mod:`prin_guard._parsing`, whose rules
use them in order): JSON objects, answer tags, answer lines, headings, sentences and
a concluding quantifier. Pure functions, no I/O.

Each place is read with :func:`~prin_guard._parsing_answer.read_answer` and carries
a *sign* (+1 "correct", -1 "incorrect", 0 neither). A leg of known polarity reads
places of its own sign and of none, and notes places of the opposite sign
(:attr:`Found.opposite`): they answer the other question. A parse without a
polarity reads every sign, except that when places of both signs occur it reads
only unsigned ones (:func:`admitted`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from prin_guard._parsing_answer import (
    ASIDE,
    NOUN,
    PUNCT_ONLY,
    QUANT,
    RUN,
    VERB_ADJ,
    Context,
    copied_line,
    hedged,
    quantified,
    read_answer,
    read_block,
)
from prin_guard._parsing_labels import Reading, labels_only, strip_bounds, union

__all__ = [
    "ANCHORED",
    "ANSWER_LINE",
    "MAX_JSON_TRIES",
    "Found",
    "conclusion",
    "read_headings",
    "read_json",
    "read_tags",
    "statements",
]

MAX_JSON_TRIES = 16
"""JSON objects tried per reply, from its end: bounds the cost of replies full of braces."""

# Words of a JSON key or tag name that make it an answer ("final_answer", "labels").
_ANSWER_WORDS = frozenset(
    {
        "answer", "answers", "label", "labels", "choice", "choices", "option", "options",
        "selected", "selection", "result", "results", "final", "verdict", "prediction",
        "predictions", "output", "letter", "letters", "candidates", "ones",
    }
)  # fmt: skip
# Words a heading may have besides its polarity word ("The incorrect options:"). Not
# "is" or "are": "The correct answer is:" is a sentence, read as one.
_HEADING_WORDS = _ANSWER_WORDS | {
    "the", "my", "so", "thus", "hence", "therefore", "not", "of", "list",
    "all", "only", "one", "choice", "candidate", "which",
}  # fmt: skip

# Horizontal whitespace only at line starts: a class that also takes newlines would
# rescan every following blank line from every line start (quadratic). Besides line
# starts, an answer may follow the end of a sentence: "C is right. Answer: C".
ANSWER_LINE = re.compile(
    r"(?:^(?:[^\S\n]|[>*#_`-])*|(?<=[.!?])[^\S\n]+)(?:(?:my|our)[^\S\n]+)?"
    r"(?:final[^\S\n]+)?answers?\b[^\S\n*_`]*[*_`]*[^\S\n]*"
    r"(?:(?:is|are)[^\S\n]*)?[:：=\-][^\S\n]*(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING = re.compile(
    r"^(?:[^\S\n]|[>*#_`-])*(?P<head>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+){0,4})[*_`]*[^\S\n]*[:：]"
    r"[^\S\n]*(?P<rest>[^\n]*)",
    re.MULTILINE,
)
# "the answer is C", "the incorrect options are D and E", "the correct ones are:"
ANCHORED = re.compile(
    r"\b(?:the\s+)?(?:(?P<adj>[A-Za-z]+)\s+)??(?:answers?|options?|choices?|ones?)\s+"
    r"(?:is|are|would\s+be|:)[^\S\n]*(?::[^\S\n]*)?(?P<span>(?:[^\n.]|\.(?=\d)){0,1000})",
    re.IGNORECASE,
)
# Labels before a verb: "A and C are incorrect", "Options B and D are wrong". The verb
# is optional, so that every run is consumed where it starts (linear time).
_STATEMENT = re.compile(rf"(?<![A-Za-z0-9]){RUN}(?P<verb>{VERB_ADJ.pattern})?", re.IGNORECASE)
# "the rest are incorrect", "all other options are wrong": every label but those
# stated in the other polarity
_REST = re.compile(
    rf"(?<![\w-])(?P<rest>(?:all\s+)?(?:the\s+)?(?:rest|others|other\s+{NOUN}"
    rf"|remaining(?:\s+{NOUN})?)(?:\s+of\s+(?:them|the\s+{NOUN}))?)(?![\w-])"
    rf"(?P<verb>{VERB_ADJ.pattern})",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"[\s*_`>#-]*(?:(?:so|thus|therefore|hence|overall|finally|in\s+(?:conclusion|summary))\b"
    r"[\s,:]*)?",
    re.IGNORECASE,
)
_TAG = re.compile(
    r"<\s*(?P<tag>[A-Za-z][\w-]{0,40})\s*>(?P<body>[^<]*)<\s*/\s*(?P=tag)\s*>", re.IGNORECASE
)
_KEY_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_OBJECT_START = re.compile(r"\{(?=\s*[\"}])")
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_FENCE_BEFORE = re.compile(r"\s*(?:`{3,}[A-Za-z]*\s*)?")
_FENCE_AFTER = re.compile(r"\s*(?:`{3,}\s*)?")
_DECODER = json.JSONDecoder()
_LIST_STRIP = " \t\r\n[]\"'"
_ALNUM = re.compile(r"[A-Za-z0-9]+")
_SEP_WORDS = frozenset({"and", "or"})


@dataclass(slots=True)
class Found:
    """Places read by one rule, with their signs, and whether one answered the other
    question (a place of the sign opposite to the leg's)."""

    said: list[tuple[int, Reading]] = field(default_factory=list)
    opposite: bool = False


def admitted(signs: Iterable[int], leg: int) -> frozenset[int]:
    """The signs a parse reads, given the signs of the places found."""
    if leg:
        return frozenset({0, leg})
    present = set(signs)
    return frozenset({0}) if {1, -1} <= present else frozenset({-1, 0, 1})


def _admit(out: Found, leg: int) -> Found:
    """Keep the places of the signs the parse reads (see :func:`admitted`)."""
    keep = admitted((sign for sign, _ in out.said), leg)
    out.opposite = out.opposite or any(sign == -leg != 0 for sign, _ in out.said)
    out.said = [(sign, reading) for sign, reading in out.said if sign in keep]
    return out


# -- JSON objects and tags --------------------------------------------------------------


def _name_sign(name: str, ctx: Context) -> tuple[int, bool] | None:
    """A JSON key's or tag's sign, and whether it names an answer ("final_answer",
    "incorrect_options"); None when it names both polarities."""
    words = [word.lower() for word in _KEY_WORD.findall(name)]
    signs = {
        ctx.vocab.sign(word, negated=i > 0 and words[i - 1] == "not")
        for i, word in enumerate(words)
    } - {0}
    if len(signs) > 1:
        return None
    sign = signs.pop() if signs else 0
    return sign, sign != 0 or any(word in _ANSWER_WORDS for word in words)


def _json_value(text: str, value: Any, lo: int, hi: int, ctx: Context) -> Reading | None:
    """A JSON value at ``text[lo:hi]`` as an answer: a string or a list of strings."""
    if isinstance(value, str):
        if "\\" not in text[lo:hi]:
            said = read_answer(text, lo + 1, hi - 1, ctx)
            return said[1] if said is not None else None
        said = read_answer(value, 0, len(value), ctx)  # escapes: offsets are the value's
        if said is None:
            return None
        return Reading(said[1].labels, (lo + 1, hi - 1), said[1].inverted)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    readings: list[Reading] = []
    for item in value:
        said = read_answer(item, 0, len(item), ctx)
        if said is None:
            return None
        readings.append(said[1])
    span = strip_bounds(text, lo, hi, _LIST_STRIP)
    labels, inverted = union(readings)
    return Reading(labels, span if span[0] < span[1] else (lo, hi), inverted)


def _skip_space(text: str, pos: int) -> int:
    space = _JSON_SPACE.match(text, pos)
    return space.end() if space is not None else pos


def _members(text: str, start: int) -> tuple[list[tuple[str, Any, int, int]], int] | None:
    """The top-level members of the JSON object at ``text[start]`` (key, value and
    the value's offsets) and where the object ends; None when it is not one."""
    members: list[tuple[str, Any, int, int]] = []
    pos = _skip_space(text, start + 1)
    if text.startswith("}", pos):
        return members, pos + 1
    try:
        while True:
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _skip_space(text, pos)
            if not isinstance(key, str) or not text.startswith(":", pos):
                return None
            value_start = _skip_space(text, pos + 1)
            value, pos = _DECODER.raw_decode(text, value_start)
            members.append((key, value, value_start, pos))
            pos = _skip_space(text, pos)
            if text.startswith("}", pos):
                return members, pos + 1
            if not text.startswith(",", pos):
                return None
            pos = _skip_space(text, pos + 1)
    except (ValueError, RecursionError):  # not JSON; nested too deep to decode
        return None


def read_json(text: str, ctx: Context) -> Found:
    """The last JSON object of the reply that holds an answer, whatever its key.

    Keys in the leg's own words ("incorrect") rank first, then answer keys
    ("answer", "labels", "choice") and, without a polarity, keys in either word,
    then any other key whose value reads as labels, but only in an object that is
    the whole reply (perhaps fenced): an object quoted in prose, ``{"grade": "A"}``,
    is not an answer for its key alone. An object whose best keys disagree is not
    read.
    """
    out = Found()
    starts = [match.start() for match in _OBJECT_START.finditer(text)]
    for start in reversed(starts[-MAX_JSON_TRIES:]):
        decoded = _members(text, start)
        if decoded is None or not decoded[0] or copied_line(text, start, ctx):
            continue
        members, end = decoded
        alone = bool(_FENCE_BEFORE.fullmatch(text, 0, start) and _FENCE_AFTER.fullmatch(text, end))
        places: list[tuple[int, int, Reading]] = []
        for key, value, lo, hi in members:
            named = _name_sign(key, ctx)
            reading = _json_value(text, value, lo, hi, ctx) if named is not None else None
            if named is not None and reading is not None and (named[1] or alone):
                places.append((named[0], 2 if named[1] else 1, reading))
        keep = admitted((sign for sign, _, _ in places), ctx.leg)
        out.opposite = out.opposite or any(sign == -ctx.leg != 0 for sign, _, _ in places)
        ranked = [
            (3 if sign and sign == ctx.leg else rank, reading)
            for sign, rank, reading in places
            if sign in keep
        ]
        if not ranked:
            continue
        best = max(rank for rank, _ in ranked)
        readings = [reading for rank, reading in ranked if rank == best]
        if len({(reading.labels, reading.inverted) for reading in readings}) == 1:
            out.said = [(0, readings[-1])]
            return out
    return out


def read_tags(text: str, ctx: Context) -> Found:
    """``<answer>A, C</answer>`` and tags named in either polarity (``<incorrect>``)."""
    out = Found()
    for match in _TAG.finditer(text):
        named = _name_sign(match.group("tag"), ctx)
        if named is None or not named[1] or copied_line(text, match.start(), ctx):
            continue
        said = read_answer(text, match.start("body"), match.end("body"), ctx)
        if said is not None:
            out.said.append((named[0] or said[0], said[1]))
    return _admit(out, ctx.leg)


# -- lines and sentences ----------------------------------------------------------------


def read_headings(text: str, ctx: Context) -> Found:
    """Lines headed in a polarity's words: "Incorrect: B, D", "Correct answers: A, C"."""
    out = Found()
    for match in _HEADING.finditer(text):
        words = match.group("head").lower().split()
        sign = ctx.vocab.phrase_sign(words, _HEADING_WORDS)
        if not sign or copied_line(text, match.start(), ctx):
            continue
        rest = match.group("rest")
        if rest.strip(" \t\r*_`"):
            said = read_answer(text, match.start("rest"), match.end("rest"), ctx, texts="whole")
        else:
            block = read_block(text, match.end(), ctx, texts="whole")
            said = block[:2] if block is not None else None
        if said is not None:
            out.said.append((sign, said[1]))
    return _admit(out, ctx.leg)


def _run_labels(text: str, lo: int, hi: int, ctx: Context) -> Reading | None:
    """The labels of a run before a verb, less the words that lead into it ("Thus, A
    and C are ..."): from the first label after the last word that is not one. In
    free text a label in lower case counts only as a single letter ("a and c")."""
    start = -1
    for word in _ALNUM.finditer(text, lo, hi):
        token = word.group()
        if token.lower() in _SEP_WORDS:
            continue
        if ctx.keys.get(token.upper()) is None or (len(token) > 1 and not token.isupper()):
            start = -1
        elif start < 0:
            start = word.start() - (word.start() > lo and text[word.start() - 1] in "([")
    if start < 0:
        return None
    return labels_only(text, start, hi, ctx.keys, upper=True)


def statements(text: str, ctx: Context) -> Found:
    """Sentences that state labels: "The incorrect options are D and E", "The answer
    is C", "A and C are incorrect because ...", "Options B and D are wrong.", and
    "the rest are incorrect" after labels stated in the other polarity."""
    out = Found()
    pos = 0
    while (match := ANCHORED.search(text, pos)) is not None:
        lo, hi = match.span("span")
        # the next sentence may start inside this one's span: "..., so the incorrect
        # options are A, B": go on from the end of this span's head
        cut = ASIDE.search(text, lo, hi)
        pos = cut.end() if cut is not None else match.end()
        if text[lo:hi].strip():
            said = read_answer(text, lo, hi, ctx, texts="none")
        elif (block := read_block(text, hi, ctx, texts="none")) is not None:
            said, pos = block[:2], max(pos, block[2])  # "The incorrect options are:" and a list
        else:
            said = None
        if said is not None:
            adjective = match.group("adj")
            sign = ctx.vocab.sign(adjective) if adjective else 0
            out.said.append((sign or said[0], said[1]))
    for match in _STATEMENT.finditer(text):
        if match.group("verb") is None or hedged(text, match.start()):
            continue
        sign = ctx.vocab.verb_sign(match)
        run = _run_labels(text, match.start("run"), match.end("run"), ctx) if sign else None
        if run is not None:
            out.said.append((sign, run))
    stated = {
        sign: union(reading for said, reading in out.said if said == sign) for sign in (1, -1)
    }
    for match in _REST.finditer(text):
        sign = ctx.vocab.verb_sign(match)
        others, inverted = stated.get(-sign, (frozenset(), True))
        if others and not inverted and not hedged(text, match.start()):
            # "C is correct; the rest are incorrect": all but C
            out.said.append((sign, Reading(others, match.span("rest"), inverted=True)))
    return _admit(out, ctx.leg)


def conclusion(text: str, ctx: Context) -> Found:
    """A quantifier in the reply's last line: "So all of them are incorrect.", "All
    options except B are correct.", "Neither is correct.", or a bare "All of them."."""
    hi = len(text.rstrip())
    lo = text.rfind("\n", 0, hi) + 1
    lead = _LEAD.match(text, lo, hi)
    bare_at = lead.end() if lead is not None else lo
    last: dict[int, Reading] = {}  # only the last of each sign can be the answer
    for match in QUANT.finditer(text, lo, hi):
        if hedged(text, match.start()):
            continue
        said = quantified(text, match, hi, ctx)
        if said is None:
            continue
        sign, reading, end = said
        if sign or (match.start() == bare_at and PUNCT_ONLY.fullmatch(text, end, hi)):
            last.pop(sign, None)
            last[sign] = reading  # dicts keep insertion order: the last one said is last
    return _admit(Found(list(last.items())), ctx.leg)
