"""Structures: JSON objects, list lines and table rows, read as answers or as
per-candidate statuses.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

from prin_guard.reader._answers import _labels_only, _read_answer
from prin_guard.reader._evidence import (
    _admitted,
    _Context,
    _Found,
    _Reading,
    _signed,
    _Status,
    _union,
    per_text,
)
from prin_guard.reader._groups import sided_groups
from prin_guard.reader._json import DECODER, json_values, jsonish, members, whole_json
from prin_guard.reader._names import _named, _nth_label
from prin_guard.reader._resolve import _resolve
from prin_guard.reader._text import _ALNUM, _SENTENCE_END, _line_end, _Pattern, _strip_bounds
from prin_guard.reader._vocab import (
    _MARK_CLASS,
    _STATUS_MARKS,
    _name_sign,
    _status_sign,
    property_sign,
)

_FENCE_BEFORE = _Pattern(r"\s*(?:`{3,}[A-Za-z]*\s*)?")


_FENCE_AFTER = _Pattern(r"\s*(?:`{3,}\s*)?")


_JSON_LIST_STRIP = " \t\r\n[]\"'"


# A JSON key that names a candidate: "A", "b", "2", "Response A", "score_a"
_KEY_NAME = _Pattern(
    r"\s*(?:(?:score|rating|points|response|output|assistant|model|candidate|criterion|claim"
    r"|option|item|requirement)[\s_-]*)?(?:\(\s*)?(?P<t>[A-Za-z][A-Za-z0-9]{0,3}|\d{1,3})"
    r"(?:\s*\))?(?:[\s_-]*(?:score|rating|points))?\s*",
    re.IGNORECASE,
)


# The fields of a record that name its candidate and give its status.
_RECORD_NAMES = frozenset(
    {
        "criterion", "claim", "id", "label", "name", "key", "item", "option", "response",
        "candidate", "requirement", "statement", "letter", "output", "choice",
    }
)  # fmt: skip


_STATUS_KEYS = frozenset(
    {
        "status", "verdict", "result", "value", "answer", "decision", "judgment",
        "judgement", "score", "rating", "label", "outcome", "assessment",
    }
)  # fmt: skip


def _json_value(text: str, value: Any, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A JSON value at ``text[lo:hi]`` as an answer: a string or a list of strings."""
    if isinstance(value, str):
        if "\\" not in text[lo:hi]:
            said = _read_answer(text, lo + 1, hi - 1, ctx)
            return said[1] if said is not None else None
        said = _read_answer(value, 0, len(value), ctx)  # escapes: offsets are the value's
        if said is None:
            return None
        return _Reading(said[1].labels, (lo + 1, hi - 1), said[1].inverted, said[1].disagrees)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    readings: list[_Reading] = []
    for item in value:
        said = _read_answer(item, 0, len(item), ctx)
        if said is None:
            return None
        readings.append(said[1])
    span = _strip_bounds(text, lo, hi, _JSON_LIST_STRIP)
    labels, inverted = _union(readings)
    disagrees = any(reading.disagrees for reading in readings)
    return _Reading(labels, span if span[0] < span[1] else (lo, hi), inverted, disagrees)


def _read_json(text: str, ctx: _Context) -> _Found:
    """Every JSON object of the reply that holds an answer, whatever its key, in the
    reply's order (the last is the reply's answer; two that disagree, the reader sees).

    Keys in the leg's own words ("incorrect") rank first, then answer keys
    ("answer", "labels", "choice") and, without a polarity, keys in either word,
    then any other key whose value reads as labels, but only in an object that is
    the whole reply (perhaps fenced): an object quoted in prose, ``{"grade": "A"}``,
    is not an answer for its key alone. Keys that name candidates (``{"A": true}``,
    ``{"Response B": 6}``) and lists of records (``{"criteria": [{"id": "A", "met":
    true}]}``, or such a list alone: ``[{"option": "A", "correct": true}, ...]``) give
    per-candidate statuses, read as answer keys. An object whose best keys disagree is
    not read; one inside another read is a part of it. JSON written loosely (comments,
    a Python literal) is read as its JSON (:func:`~prin_guard.reader._json.jsonish`); a
    reply that is a JSON string or list alone (perhaps fenced) is that answer.
    """
    places, opposite = json_places(text, ctx)
    return _Found([(0, reading) for _, reading in places], opposite)


def json_places(text: str, ctx: _Context) -> tuple[list[tuple[int, _Reading]], bool]:
    """The JSON answers of :func:`_read_json`, each with where its value starts, and
    whether one answered the other question."""
    text = jsonish(text)
    out = _Found()
    read: list[tuple[int, int, _Reading]] = []
    lists = _record_lists(text, ctx)
    for start, end, found in json_values(text, decode=members):
        if not found or any(lo < start < hi for lo, hi, _ in lists):
            continue
        reading = _json_object(text, start, end, found, ctx, out)
        if reading is not None:
            read = [place for place in read if not start <= place[0] < end]
            read.append((start, end, reading))
    for lo, hi, statuses in lists:
        resolved = _resolve(statuses, ctx)
        if isinstance(resolved, _Reading):  # the list is where the answer stands
            read.append((lo, hi, replace(resolved, span=(lo, hi))))
        else:
            out.opposite = out.opposite or resolved
    if not read and (bare := _bare_json(text, ctx)) is not None:
        read.append((0, len(text), bare))
    return [(start, reading) for start, _, reading in sorted(read, key=lambda p: p[0])], bool(
        out.opposite
    )


def _json_object(
    text: str,
    start: int,
    end: int,
    found: list[tuple[str, Any, int, int]],
    ctx: _Context,
    out: _Found,
) -> _Reading | None:
    """What one JSON object's members say as the leg's answer (:func:`_read_json`)."""
    alone = bool(_FENCE_BEFORE.fullmatch(text, 0, start) and _FENCE_AFTER.fullmatch(text, end))
    header = _enclosing_key_sign(text, start, ctx)
    places: list[tuple[int, int, _Reading]] = []
    statuses: list[_Status] = []
    for key, value, lo, hi in found:
        named = _name_sign(key, ctx)
        if len(ctx.labels) == 1 and isinstance(value, bool) and named and named[0]:
            # one criterion: {"met": true}
            sign = named[0] * (1 if value else -1)
            statuses.append(_Status(ctx.labels[0], sign, (lo, hi), lo, True))
            continue
        if named is not None and not named[1]:
            label = _key_candidate(key, ctx)
            status = _value_status(value, ctx, header) if label is not None else None
            if label is not None and status is not None:
                sign, score = status
                span = (lo + 1, hi - 1) if isinstance(value, str) else (lo, hi)
                statuses.append(_Status(label, sign, span, lo, True, score))
                continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            statuses.extend(_records(value, lo, ctx))
            continue
        reading = _json_value(text, value, lo, hi, ctx) if named is not None else None
        if named is not None and reading is not None and (named[1] or alone):
            places.append((_signed(named[0], reading, ctx), 2 if named[1] else 1, reading))
    if statuses:
        resolved = _resolve(statuses, ctx)
        if isinstance(resolved, _Reading):
            places.append((0, 2, resolved))
        else:
            out.opposite = out.opposite or resolved
    keep = _admitted((sign for sign, _, _ in places), ctx.leg)
    out.opposite = out.opposite or any(sign == -ctx.leg != 0 for sign, _, _ in places)
    ranked = [
        (3 if sign and sign == ctx.leg else rank, reading)
        for sign, rank, reading in places
        if sign in keep
    ]
    if not ranked:
        return None
    best = max(rank for rank, _ in ranked)
    readings = [reading for rank, reading in ranked if rank == best]
    return readings[-1] if len({reading.value for reading in readings}) == 1 else None


# The key an object is the value of: ``"divisible_by_9": {``
_ENCLOSING_KEY = _Pattern(r'"(?P<k>[^"\n]{1,60})"[^\S\n]*:[^\S\n]*$')
_KEY_REACH = 64


def _enclosing_key_sign(text: str, start: int, ctx: _Context) -> int:
    """The side of the key an object of per-candidate booleans is the value of, when
    that key names a status or the question's own predicate (``{"divisible_by_9": {"A":
    true, ...}}``, ``{"incorrect": {"B": true}}``): its ``true`` is that side; 0 when it
    names neither (``true`` then answers the leg's question)."""
    key = _ENCLOSING_KEY.search(text, max(0, start - _KEY_REACH), start)
    if key is None:
        return 0
    words = key.group("k").replace("_", " ").replace("-", " ")
    return _status_sign(words, 0, len(words), ctx) or property_sign(words, ctx)


# A list of records alone: ``[{"option": "A", ...}, ...]``
_RECORD_LIST = _Pattern(r"\[\s*\{")
_RECORD_LISTS = 8
_MEMBER_VALUE = _Pattern(r":\s*$")


def _record_lists(text: str, ctx: _Context) -> list[tuple[int, int, list[_Status]]]:
    """The lists of per-candidate records in the reply (not a member's value: those are
    read with their object), each with its statuses; at most :data:`_RECORD_LISTS`."""
    out: list[tuple[int, int, list[_Status]]] = []
    end = 0
    for match in _RECORD_LIST.finditer(text):
        if match.start() < end or len(out) == _RECORD_LISTS:
            continue
        if _MEMBER_VALUE.search(text, max(0, match.start() - 8), match.start()):
            continue  # a member's value
        try:
            value, end = DECODER.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            end = 0
            continue
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            statuses = _records(value, match.start(), ctx)
            if statuses:
                out.append((match.start(), end, statuses))
    return out


def _bare_json(text: str, ctx: _Context) -> _Reading | None:
    """A reply that is a fenced JSON string or list of strings alone
    (a fence around ``"C"``): that answer (unfenced, the reply's labels read as such)."""
    fence = _FENCE_BEFORE.match(text)
    lo = fence.end() if fence is not None else 0
    hi = text.rfind("```")
    if "```" not in text[:lo] or hi < lo or not _FENCE_AFTER.fullmatch(text, hi):
        return None
    value = whole_json(text[lo:hi])
    if not isinstance(value, str | list):
        return None
    a, b = _strip_bounds(text, lo, hi)
    return _json_value(text, value, a, b, ctx)


def _key_candidate(key: str, ctx: _Context) -> str | None:
    """The candidate a JSON key names: a label, a position ("2", "b"), a name ("Response
    A", "score_a") or a candidate's text."""
    match = _KEY_NAME.fullmatch(key)
    if match is not None:
        return _named(match.group("t"), ctx, marked=True)
    found = ctx.texts.exact(key)
    return next(iter(found)) if len(found) == 1 else None


def _value_status(value: Any, ctx: _Context, header: int = 0) -> tuple[int, float | None] | None:
    """A JSON value as a candidate's status: its sign (and, for a pair, a score).
    ``true``/``false`` (and 1/0) answer ``header``'s question, else the leg's."""
    if isinstance(value, bool):
        return (header or ctx.leg or 1) * (1 if value else -1), None
    if isinstance(value, int | float):
        if ctx.pair:
            return 0, float(value)
        if value in (0, 1):
            return (header or ctx.leg or 1) * (1 if value else -1), None
        return None
    if isinstance(value, str):
        sign = _status_sign(value, 0, len(value), ctx, header)
        return (sign, None) if sign else None
    if isinstance(value, dict):
        for key, inner in value.items():
            if not isinstance(key, str):
                continue
            named = _name_sign(key, ctx)
            sign = (named[0] if named else 0) or property_sign(key, ctx)
            if key.lower() in _STATUS_KEYS or sign:
                return _value_status(inner, ctx, sign)
    return None


def _records(records: list[dict[str, Any]], at: int, ctx: _Context) -> list[_Status]:
    """Statuses from records that name a candidate and give its status:
    ``[{"criterion": "A", "met": true}, {"claim": "2", "supported": false}]``. A key in
    a polarity's words ("correct", "is_correct") gives it before a generic one
    ("value", "status")."""
    out: list[_Status] = []
    for record in records:
        label: str | None = None
        signed: tuple[int, float | None] | None = None
        status: tuple[int, float | None] | None = None
        for key, value in record.items():
            if not isinstance(key, str):
                continue
            if key.lower() in _RECORD_NAMES and isinstance(value, str | int) and label is None:
                label = _key_candidate(str(value), ctx)
                if label is not None:
                    continue
            named = _name_sign(key, ctx)
            if signed is None and named is not None and named[0]:
                signed = _value_status(value, ctx, named[0])
            elif status is None and key.lower() in _STATUS_KEYS:
                status = _value_status(value, ctx)
        status = signed or status
        if label is None or status is None:
            return []  # not a list of statuses
        out.append(_Status(label, status[0], None, at, True, status[1]))
    return out


_STATUS_COLUMNS = frozenset(
    {
        "status", "verdict", "result", "outcome", "assessment", "judgment", "judgement",
        "answer", "decision", "evaluation", "met", "pass", "fail", "supported", "satisfied",
        "score", "rating", "check",
    }
)  # fmt: skip


# A list line's lead: a bullet or number, a checkbox, a check mark.
_ITEM = _Pattern(
    r"[^\S\n]*(?:(?:[-*•+]|(?P<num>\d{1,3})[.)])[^\S\n]*)?"
    rf"(?:\[(?P<box>[ xX✓✔✗✘]?)\][^\S\n]*)?(?P<mark>[{_MARK_CLASS}]\ufe0f?[^\S\n]*)?"
)


# A label leading a line: "A:", "**B**", "C)", "(D)", "E -"
_LEAD_LABEL = _Pattern(
    r"(?:[*_`]+[^\S\n]*)?[(\[]?(?P<l>[A-Za-z][A-Za-z0-9]{0,3})(?P<c>[)\]:.]|[*_`]+)?"
    r"(?=[^\S\n]|$|[:*_)\]])[)\]*_`]*"
)


# A status right after the candidate ("A: met (...)"), or ending the line ("... — not met")
_STATUS_HEAD = _Pattern(
    r"[^\S\n:=|>→*_`–—-]*[:=|>→*_`–—-]*[^\S\n*_`]*"
    rf"(?:(?P<m>[{_MARK_CLASS}])|(?P<s>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)?)"
    r"(?=[^\S\n]*(?:$|[.,;:!()\[\]|*_—–]|-\s|\s(?:because|since|as|—)\b)))"
)


# The first separator of a list line, after which its status may stand ("**A. Uses a
# formal tone**: ✅ ...", "1. Cites a source – Met.")
_FIRST_SEP = _Pattern(r"[:=|→]|[^\S\n][–—-][^\S\n]|[–—]")


_STATUS_TAIL = _Pattern(
    rf"(?:[:=|(—–,]|\s-)[^\S\n]*[*_`]*(?P<s>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)?|[{_MARK_CLASS}])"
    r"[*_`)\s.!]*$"
)


_TRAILING_MARK = _Pattern(rf"[^\S\n]*(?P<s>[{_MARK_CLASS}])\ufe0f?[^\S\n.]*$")


_TABLE_RULE = _Pattern(r"[\s|:-]*-{2,}[\s|:-]*")


_SCORE = _Pattern(
    r"[^\S\n]*+[:=\-–—]?+[^\S\n]*+(?:score[^\S\n]*+:?+[^\S\n]*+)?+[*_`]*+"
    r"(?P<n>\d{1,3}(?:\.\d+)?)"
    r"(?:[^\S\n]*+/[^\S\n]*+\d{1,3}|[^\S\n]++out[^\S\n]++of[^\S\n]++\d{1,3})?[*_`]*+"
    r"(?:[^\S\n]*+[.!]?+[^\S\n]*+(?:\([^()\n]*\)|[-–—:][^\S\n][^\n]*))?[^\S\n.]*+$",
    re.IGNORECASE,
)
# A pair's scores in prose: "I would give A a score of 8", "A's score is 3 out of 10",
# "A: 1 (incorrect)", "the scores for A and B are 4 and 9, respectively", "both
# receive a score of 10", and a section "A:" with a line "Score: 6/10" under it.
_N = r"(\d{1,3}(?:\.\d+)?)(?:\s*/\s*\d{1,3}|\s+out\s+of\s+\d{1,3})?"
_L = r"(?<![A-Za-z0-9])([A-Za-z][A-Za-z0-9]{0,3})(?![A-Za-z0-9])"
_PAIR_SCORE = _Pattern(
    rf"{_L}\s*(?:['’]s\s+)?(?:score\s*(?:is|of|:|=)\s*|(?:gets|receives|earns|deserves"
    rf"|scores|is\s+given|is\s+rated|is\s+awarded)\s+(?:a\s+)?(?:score\s+of\s+|rating\s+of\s+)?"
    rf"|a\s+(?:score|rating)\s+of\s+)"
    rf"{_N}"
    rf"|(?:give|rate|award|assign)\s+{_L}\s+(?:a\s+)?(?:score\s+of\s+|rating\s+of\s+)?{_N}",
    re.IGNORECASE,
)
_PAIR_RESPECTIVELY = _Pattern(
    rf"scores?\s+(?:for|of)\s+{_L}\s+and\s+{_L}\s+(?:are|were|would\s+be|:)\s*{_N}\s*"
    rf"(?:,\s*)?(?:and|,)\s*{_N}",
    re.IGNORECASE,
)
_PAIR_BOTH = _Pattern(
    rf"(?<![\w-])both(?:\s+assistants|\s+responses|\s+outputs|\s+{_L}\s+and\s+{_L})?\s+"
    rf"(?:receive|get|earn|deserve|are\s+given)\s+(?:a\s+)?(?:score\s+of\s+|scores\s+of\s+)?{_N}",
    re.IGNORECASE,
)
_FIRST_SCORES = _Pattern(
    r"\s*+[*_`]*+(\d{1,3}(?:\.\d+)?)(?:/\d{1,3})?(?:[^\S\n]*+[,;][^\S\n]++|[^\S\n]++)"
    r"(\d{1,3}(?:\.\d+)?)(?:/\d{1,3})?[*_`]*+[^\S\n]*+(?:\n|$)"
)
_SECTION_SCORE = _Pattern(r"[^\S\n]*+[*_`#-]*+[^\S\n]*+(?:overall[^\S\n]++)?score[^\S\n]*+[:=]"
                          rf"[^\S\n]*+[*_`]*+{_N}", re.IGNORECASE)  # fmt: skip


def _pair_scores(text: str, ctx: _Context) -> list[_Status]:
    """A pair's scores in prose and in sections (``_PAIR_SCORE``): a score for each
    response, each response given one score only (two different scores for one response,
    per aspect perhaps, are no reading)."""
    found: dict[str, set[float]] = {}
    spans: dict[str, tuple[int, int]] = {}
    first = _FIRST_SCORES.match(text)
    if first is not None and len(ctx.labels) == 2:
        # the first line is two scores alone, in the order shown ("8 9": the Vicuna
        # review's format); nothing else is read with it
        at = first.start(1)
        return [
            _Status(label, 0, first.span(group), at, True, float(first.group(group)))
            for label, group in zip(ctx.labels, (1, 2), strict=True)
        ]

    def put(token: str, value: str, span: tuple[int, int]) -> None:
        label = ctx.keys.get(token.upper())
        if label is not None and (token.isupper() or len(token) == 1):
            found.setdefault(label, set()).add(float(value))
            spans.setdefault(label, span)

    for match in _PAIR_SCORE.finditer(text):
        if match.group(1) is not None:
            put(match.group(1), match.group(2), match.span(2))
        else:
            put(match.group(3), match.group(4), match.span(4))
    for match in _PAIR_RESPECTIVELY.finditer(text):
        put(match.group(1), match.group(3), match.span(3))
        put(match.group(2), match.group(4), match.span(4))
    for match in _PAIR_BOTH.finditer(text):
        for label in ctx.labels:
            put(label, match.group(3), match.span(3))
    section: str | None = None
    pos, size = 0, len(text)
    while pos <= size:  # "A:" alone on a line opens a section; "Score: 6/10" in it
        end = _line_end(text, pos)
        lo, hi = _strip_bounds(text, pos, end, " \t*_`#[]:")
        only = _labels_only(text, lo, hi, ctx.keys) if lo < hi else None
        if only is not None and len(only.labels) == 1:
            section = next(iter(only.labels))
        elif section is not None and (score := _SECTION_SCORE.match(text, pos, end)):
            found.setdefault(section, set()).add(float(score.group(1)))
            spans.setdefault(section, score.span(1))
        pos = end + 1
    if len(found) != len(ctx.labels) or any(len(values) != 1 for values in found.values()):
        return []
    at = min(span[0] for span in spans.values())
    return [
        _Status(label, 0, spans[label], at, True, next(iter(values)))
        for label, values in found.items()
    ]


def _structure_statuses(text: str, ctx: _Context) -> list[_Status]:
    """The statuses of list lines and table rows; a pair's scores (worked out once per
    text in a parse)."""
    return list(per_text(ctx, text, _statuses_of))


def _statuses_of(text: str, ctx: _Context) -> list[_Status]:
    out: list[_Status] = []
    table: list[tuple[int, int]] = []
    header = 0  # the side a header question gives the lines under it ("Is incorrect?")
    pos, size = 0, len(text)
    while pos <= size:
        end = _line_end(text, pos)
        lo, hi = _strip_bounds(text, pos, end)
        if text.startswith("|", lo):
            table.append((lo, hi))
        elif (csv := _csv_block(text, lo, ctx)) is not None:
            out.extend(_table_statuses(text, csv[0], ctx, sep=csv[1]))
            end = csv[0][-1][1]
        else:
            if table:
                out.extend(_table_statuses(text, table, ctx))
                table = []
            if lo >= hi:
                header = 0
            elif (asked := _HEADER_LINE.fullmatch(text, lo, hi)) is not None:
                header = _header_sign(asked.group("h"), ctx)
            else:
                out.extend(_line_statuses(text, lo, hi, ctx, header))
        pos = end + 1
    if table:
        out.extend(_table_statuses(text, table, ctx))
    if ctx.pair and len({s.label for s in out if s.score is not None}) < len(ctx.labels):
        out.extend(_pair_scores(text, ctx))
    return out


# A line that is a question alone, heading the lines under it: "Is incorrect?",
# "**Noble gas?**"
_HEADER_LINE = _Pattern(r"[*_#\s]*(?P<h>[A-Za-z][A-Za-z0-9 _-]{0,40}?)\s*\?[*_:\s]*")


def _header_sign(header: str, ctx: _Context) -> int:
    """The side a header question's yes and true stand for: its polarity words' ("Is
    incorrect?", "Wrong?"), else the question's own property's ("Noble gas?",
    "Satisfies?": the direct side); 0 when it names neither."""
    named = _name_sign(header, ctx)
    return (named[0] if named else 0) or property_sign(header, ctx)


_TEXT_LINES = 32
"""Up to how many candidates a line of marks is looked up by their texts."""

# Several candidates and their marks on one line: "A ✅ B ❌ C ✅", "(A) ✓, (B) ✗"
_MARK_PAIR = (
    rf"[(\[]?(?P<l>[A-Za-z][A-Za-z0-9]{{0,3}})[)\]:.]?[^\S\n]*(?P<m>[{_MARK_CLASS}])\ufe0f?"
)
_MARK_PAIRS = _Pattern(rf"(?:[^\S\n]*{_MARK_PAIR}[^\S\n]*[,;|]?)+[^\S\n]*")
# ... each mark followed by a gloss, the pairs separated: "A ✔ mammal | B ✘ fish | ..."
_GLOSSED_PAIR = _MARK_PAIR.replace("?P<l>", "?:").replace("?P<m>", "?:")
_GLOSSED_PAIRS = _Pattern(
    rf"[^\S\n]*{_GLOSSED_PAIR}(?:[^\S\n]+[a-z][a-z-]*){{0,3}}[^\S\n]*"
    rf"(?:[,;|][^\S\n]*{_GLOSSED_PAIR}(?:[^\S\n]+[a-z][a-z-]*){{0,3}}[^\S\n]*)+"
)
_MARK_PAIR_ONE = _Pattern(_MARK_PAIR)


# A candidate's text and its mark: "Paris ✓", "Sydney ✗,"
_TEXT_MARK_PAIR = _Pattern(
    rf"[^\S\n]*(?P<t>[^{_MARK_CLASS}\n,;|]{{1,200}}?)[^\S\n]*(?P<m>[{_MARK_CLASS}])\ufe0f?"
    r"[^\S\n]*[,;|]?"
)


def _text_marks(text: str, lo: int, hi: int, ctx: _Context) -> list[_Status]:
    """A line of two candidates' texts and their marks or more ("Paris ✓ Sydney ✗ Rome
    ✓"): every candidate's status; none unless each piece is exactly one candidate's
    text, and every candidate named once."""
    out: list[_Status] = []
    pos = lo
    while pos < hi and (match := _TEXT_MARK_PAIR.match(text, pos, hi)) is not None:
        named = ctx.texts.exact(match.group("t").strip(" \t*_`"))
        if len(named) != 1:
            return []
        (label,) = named
        out.append(_Status(label, _STATUS_MARKS[match.group("m")], match.span("t"), lo, True))
        pos = match.end()
    if text[pos:hi].strip() or len(out) < 2 or len({s.label for s in out}) != len(out):
        return []
    return out


def _inline_marks(text: str, lo: int, hi: int, ctx: _Context) -> list[_Status]:
    """A line of two candidates and their marks or more ("A ✅ B ❌ C ✅ D ❌", or their
    texts: "Paris ✓ Sydney ✗"): every candidate's status; none unless the whole line is
    such pairs of the item's labels (or texts)."""
    if not (_MARK_PAIRS.fullmatch(text, lo, hi) or _GLOSSED_PAIRS.fullmatch(text, lo, hi)):
        if len(ctx.labels) > _TEXT_LINES or not any(c in _MARK_CLASS for c in text[lo:hi]):
            return []
        return _text_marks(text, lo, hi, ctx)
    out: list[_Status] = []
    for match in _MARK_PAIR_ONE.finditer(text, lo, hi):
        token = match.group("l")
        label = ctx.keys.get(token.upper())
        if label is None or not (token.isupper() or len(token) == 1):
            return []
        out.append(_Status(label, _STATUS_MARKS[match.group("m")], match.span("l"), lo, True))
    return out if len(out) >= 2 else []


# One candidate and its status in a line of several: "A: correct", "B incorrect", "(C) - yes",
# "A is right" (the verb of the first, left out after it: "A is right, B wrong")
_STATUS_PAIR = _Pattern(
    r"[^\S\n]*(?:and[^\S\n]+)?[*_`]*[(\[]?(?P<l>[A-Za-z][A-Za-z0-9]{0,3})[)\]]?[*_`]*"
    r"[^\S\n]*(?:[:=→–—-][^\S\n]*)?(?:(?:is|are)[^\S\n]+)?[*_`]*(?P<s>(?:not[^\S\n]+)?[A-Za-z]+)"
    r"[*_`]*[^\S\n]*[.!]?"
    r"[^\S\n]*"
)
_PAIR_SEP = _Pattern(r"[,;|]|[^\S\n]+/[^\S\n]+")
_BRACKETED = _Pattern(r"[(\[][A-Z][)\]]")


def _inline_statuses(text: str, lo: int, hi: int, ctx: _Context, header: int = 0) -> list[_Status]:
    """A line of two candidates and their statuses or more, separated by commas or
    semicolons ("A: correct, B: incorrect, C: correct, D: incorrect", "A correct, B
    wrong."): every candidate's status; none unless the whole line is such pairs, each
    of an item's label (in capitals) and a status word, no candidate twice."""
    if (grouped := sided_groups(text, lo, hi, ctx)) is not None:  # "A, C right; B wrong"
        return [_Status(label, sign, None, lo, True) for label, sign in grouped]
    if _PAIR_SEP.search(text, lo, hi) is not None:
        cuts = [(m.start(), m.end()) for m in _PAIR_SEP.finditer(text, lo, hi)]
    else:  # each label in brackets: "(A) right (B) wrong (C) right (D) wrong"
        cuts = [(m.start(), m.start()) for m in _BRACKETED.finditer(text, lo, hi)]
        if len(cuts) < 2 or _strip_bounds(text, lo, cuts[0][0])[0] < cuts[0][0]:
            return []
        cuts = cuts[1:]
    out: list[_Status] = []
    start = lo
    for end, after in [*cuts, (hi, hi)]:
        pair = _STATUS_PAIR.fullmatch(text, start, end)
        start = after
        if pair is None:
            return []
        token = pair.group("l")
        label = ctx.keys.get(token.upper())
        sign = _status_sign(text, *pair.span("s"), ctx, header)
        if label is None or not token.isupper() or not sign:
            return []
        weak = _ambiguous_selection(text, *pair.span("s"), ctx, header)
        out.append(_Status(label, sign, pair.span("l"), lo, True, weak=weak))
    if len(out) < 2 or len({status.label for status in out}) != len(out):
        return []
    return out


def _line_statuses(
    text: str, lo: int, hi: int, ctx: _Context, header: int = 0
) -> Iterator[_Status]:
    """The statuses of a line, or of each of its sentences ("A: met. B: not met."), or
    of a line that names its candidate first and ends on a sentence that is a status
    ("**Criterion A (Uses a formal tone):** It opens with 'Dear Sir'. Met."), or of
    its pairs of candidates and marks ("A ✅ B ❌ C ✅")."""
    if not ctx.pair and (marks := _inline_marks(text, lo, hi, ctx)):
        yield from marks
        return
    if not ctx.pair and (pairs := _inline_statuses(text, lo, hi, ctx, header)):
        yield from pairs
        return
    item = _ITEM.match(text, lo, hi)
    after = item.end() if item is not None else lo  # "1." is no sentence
    if (lead := _lead_label(text, after, hi, ctx)) is not None:
        after = lead[2]  # nor is "D." ("D. A water molecule has two hydrogen atoms — right")
    ends = [m.end() for m in _SENTENCE_END.finditer(text, after, hi) if m.end() < hi]
    names = declared_names(text)
    if not ends:
        whole = None if _of_a_name(text, lo, hi, names) else _line_status(text, lo, hi, ctx, header)
        if whole is not None:
            yield whole
        return
    found = False
    start = lo
    for end in [*ends, hi]:
        a, b = _strip_bounds(text, start, end)
        if _of_a_name(text, a, b, names):
            start = end
            continue  # "L takes two parameters and draws a line.": of the L command
        if a < b and (status := _line_status(text, a, b, ctx, header)) is not None:
            found = True
            yield status
        start = end
    if found or ctx.pair or _ANSWERED.search(text, lo, ends[-1]):
        return  # a question answered ("Is 9 prime? No."): read as one (_own_sides)
    a, b = _strip_bounds(text, ends[-1], hi)
    sign = _status_sign(text, a, b, ctx) if a < b else 0
    if sign:
        label, span = _line_candidate(text, lo, ends[0], item, ctx)
        if label is not None:
            yield _Status(label, sign, span, lo, True)


# Letters a reply names things by: 'the "M", "L" and "A" commands', "side E", "point A",
# "|E|". Such a letter is that thing's name, not an option's label.
_NAME_NOUNS = (
    r"(?i:sides?|points?|vertex|vertices|angles?|sets?|segments?|commands?|variables?|nodes?"
    r"|edges?|rays?|vectors?|matri(?:x|ces)|functions?|events?)"
)
_QUOTED_RUN = r'"[A-Z]"(?:[^\S\n]*,[^\S\n]*(?:and[^\S\n]+)?"[A-Z]"|[^\S\n]+and[^\S\n]+"[A-Z]")*'
_DECLARED_NAME = _Pattern(
    rf"\b{_NAME_NOUNS}[^\S\n]+(?P<one>[A-Z])\b|\|(?P<bar>[A-Z])\|"
    rf"|(?P<quoted>{_QUOTED_RUN})[^\S\n]+{_NAME_NOUNS}\b"
    rf"|\b{_NAME_NOUNS}[^\S\n]*:?[^\S\n]*(?P<after>{_QUOTED_RUN})"
)
_QUOTED_LETTER = _Pattern(r'"([A-Z])"')
_SUBJECT_LETTER = _Pattern(r"[^\S\n*_]*(?P<l>[A-Z])[^\S\n]+(?=[a-z])")


@functools.lru_cache(maxsize=8)
def declared_names(text: str) -> frozenset[str]:
    """The letters ``text`` names things other than options by (cached: every line of a
    reply asks)."""
    names: set[str] = set()
    for found in _DECLARED_NAME.finditer(text):
        if run := found.group("quoted") or found.group("after"):
            names.update(_QUOTED_LETTER.compiled.findall(run))
        else:
            names.add(found.group("one") or found.group("bar"))
    return frozenset(names)


def _of_a_name(text: str, lo: int, hi: int, names: frozenset[str]) -> bool:
    """Whether the sentence ``text[lo:hi]`` opens on a letter the reply named something
    else by, as its subject ("L takes two parameters ...", "E is the longest side")."""
    if not names:
        return False
    subject = _SUBJECT_LETTER.match(text, lo, hi)
    return subject is not None and subject.group("l") in names


# A question answered yes or no: "Is 9 prime? No."
_ANSWERED = _Pattern(r"\?[^\S\n]*[*_`]*[^\S\n]*(?:yes|no|yep|nope)(?![\w-])", re.IGNORECASE)


def _line_status(text: str, lo: int, hi: int, ctx: _Context, header: int = 0) -> _Status | None:
    """One list line's candidate and status: "A: met", "- [x] B", "1. ✓ Uses a formal
    tone", "B — not met", "**A. Uses a formal tone**: ✅ ...", "Output (a): 8/10" (a
    pair's score)."""
    item = _ITEM.match(text, lo, hi)
    pos = item.end() if item is not None else lo
    lead = _lead_label(text, pos, hi, ctx)
    if ctx.pair:
        score = _SCORE.fullmatch(text, lead[2], hi) if lead is not None else None
        if lead is None or score is None:
            return None
        return _Status(lead[0], 0, lead[1], lo, True, float(score.group("n")))
    sign, status_at = _line_sign(text, lead[2] if lead else pos, hi, item, ctx, header)
    if not sign:
        return None
    label, span = lead[:2] if lead else _line_candidate(text, lo, status_at, item, ctx)
    weak = _ambiguous_selection(text, status_at, hi, ctx, header)
    return _Status(label, sign, span, lo, True, weak=weak) if label is not None else None


_SELECTION_WORD = _Pattern(r"(?<![\w-])(?:yes|no)(?![\w-])", re.IGNORECASE)
_TRUTH_WORD = _Pattern(r"(?<![\w-])(?:true|false)(?![\w-])", re.IGNORECASE)


def _ambiguous_selection(
    text: str, lo: int, hi: int, ctx: _Context, header: int = 0, *, verdict: bool = False
) -> bool:
    """Whether a status is a bare yes or no on a choice's reverse leg, under no header
    with a polarity: "Spain: yes" answers the item's own question ("Which of these
    countries are in Europe?") as readily as the leg's ("is it incorrect?"), and the two
    are opposite. Read as the leg's, and weak. So is a bare true or false outside a
    verdict column: "A: True" says A is a true answer as readily as "true, A is
    incorrect" (under "| Verdict |", true is the option's verdict)."""
    if ctx.task != "choice" or ctx.leg != -1 or header:
        return False
    if _SELECTION_WORD.search(text, lo, hi) is not None:
        return True
    return not verdict and _TRUTH_WORD.search(text, lo, hi) is not None


def _lead_label(
    text: str, pos: int, hi: int, ctx: _Context
) -> tuple[str, tuple[int, int], int] | None:
    """A label leading a list line ("A:", "**B**", "C)", "(d)"), where it is, and where
    what follows it starts."""
    lead = _LEAD_LABEL.match(text, pos, hi)
    if lead is None:
        return None
    token = lead.group("l")
    found = ctx.keys.get(token.upper())
    if found is None or not (token.isupper() or (len(token) == 1 and lead.group("c"))):
        return None
    return found, lead.span("l"), lead.end()


def _line_candidate(
    text: str, lo: int, hi: int, item: re.Match[str] | None, ctx: _Context
) -> tuple[str | None, tuple[int, int] | None]:
    """The candidate a list line names before ``hi`` (where its status stands): a
    leading label, else a candidate's text, else its number ("2." the second)."""
    pos = item.end() if item is not None else lo
    lead = _lead_label(text, pos, hi, ctx)
    if lead is not None:
        return lead[0], lead[1]
    named = ctx.texts.inside(text[pos:hi]) if pos < hi else set()
    if len(named) == 1:
        return next(iter(named)), None
    if item is not None and item.group("num"):
        return _nth_label(int(item.group("num")), ctx), None
    return None, None


def _line_sign(
    text: str, pos: int, hi: int, item: re.Match[str] | None, ctx: _Context, header: int = 0
) -> tuple[int, int]:
    """A list line's status after its lead (from ``pos``), and where the candidate's
    name must end: a check box or a check mark before it (the name runs to ``hi``), a
    status right after the candidate or after the line's first separator, or ending the
    line."""
    box = item.group("box") if item is not None else None
    mark = item.group("mark") if item is not None else None
    if box is not None:
        return (ctx.leg or 1) * (1 if box.strip() else -1), hi
    if mark:
        return _STATUS_MARKS.get(mark.strip().rstrip("\ufe0f"), 0), hi
    heads = [pos]
    if (sep := _FIRST_SEP.search(text, pos, hi)) is not None and sep.start() > pos:
        heads.append(sep.start())
    for at in heads:
        head = _STATUS_HEAD.match(text, at, hi)
        if head is not None and _one_letter_within(text, head, hi):
            continue  # "2. x + |y| = 5": a variable, not "y" for yes
        if head is not None:
            group = "m" if head.group("m") else "s"
            sign = _status_sign(text, *head.span(group), ctx, header)
            if sign:
                return sign, at
    for pattern in (_STATUS_TAIL, _TRAILING_MARK):
        tail = pattern.search(text, pos, hi)
        if tail is not None and (sign := _status_sign(text, *tail.span("s"), ctx, header)):
            return sign, tail.start()
    return 0, hi


def _one_letter_within(text: str, head: re.Match[str], hi: int) -> bool:
    """Whether a list line's status is one letter ("y", "n") with more of the line after
    it: a variable ("x + |y| = 5"), not a status, which ends its line or cell."""
    if not head.group("s") or len(head.group("s")) > 1:
        return False
    return bool(text[head.end("s") : hi].strip(" \t.,;:!*_`|)"))


def _table_statuses(
    text: str, rows: list[tuple[int, int]], ctx: _Context, sep: str = "|"
) -> list[_Status]:
    """Rows of a table with a candidate and a status column: ``| A | Yes |`` under
    ``| Criterion | Met? |``, or CSV lines (``sep`` "," or ";", the header their first
    line). A yes/no answers the status column's header when it has a polarity ("Met?",
    "Fails"), else the leg's question."""
    cells = [_cells(text, lo, hi) if sep == "|" else _fields(text, lo, hi, sep) for lo, hi in rows]
    column: int | None = None
    header = 0
    first = 0
    if sep != "|" or (len(rows) >= 2 and _TABLE_RULE.fullmatch(text, *rows[1])):
        first = 2 if sep == "|" else 1
        # the first column headed by a side ("Met?", "Noble gas?"), else the last headed
        # by a status's name ("| Option | Check | Verdict |": the verdict)
        for k, (a, b) in enumerate(cells[0]):
            sign = _status_sign(text, a, b, ctx) or _header_sign(text[a:b], ctx)
            words = {word.lower() for word in _ALNUM.compiled.findall(text, a, b)}
            if k and sign:
                column, header = k, sign
                break
            if k and words & _STATUS_COLUMNS:
                column = k
    out: list[_Status] = []
    sided = _sided_columns(text, cells[0], ctx) if first else {}
    for (lo, _), row in zip(rows[first:], cells[first:], strict=True):
        if len(row) < 2 or _TABLE_RULE.fullmatch(text, row[0][0], row[-1][1]):
            continue
        if sided:  # "| Option | Valid | Invalid |" and a tick in one: that column's side
            ticked = {sign for k, sign in sided.items() if k < len(row) and _ticked(text, *row[k])}
            named = _cell_candidate(text, *row[0], ctx) if len(ticked) == 1 else None
            if named is not None:
                out.append(_Status(named[0], ticked.pop(), named[1], lo, True))
            continue
        k = column if column is not None and column < len(row) else len(row) - 1
        sign = _status_sign(text, *row[k], ctx, header) or _cell_mark(text, *row[k])
        if not sign:
            continue
        weak = _ambiguous_selection(text, *row[k], ctx, header, verdict=column is not None)
        for j, (a, b) in enumerate(row):
            if j == k:
                continue
            named = _cell_candidate(text, a, b, ctx)
            if named is not None:
                out.append(_Status(named[0], sign, named[1], lo, True, weak=weak))
                break
    return out


def _sided_columns(text: str, head: list[tuple[int, int]], ctx: _Context) -> dict[int, int]:
    """The columns of a table's header row headed by a status word, when both sides head
    one ("| Option | Valid | Invalid |"): each column's side; else none."""
    sided = {
        k: sign for k, (a, b) in enumerate(head) if k and (sign := _status_sign(text, a, b, ctx))
    }
    return sided if set(sided.values()) == {1, -1} else {}


_TICKS = frozenset({"x", "X", "•", "*", "yes", "Yes", "YES"})


def _ticked(text: str, lo: int, hi: int) -> bool:
    """Whether a table cell holds a tick ("✓", "✅", "x"), not a cross."""
    cell = text[lo:hi].strip()
    return bool(cell) and (cell in _TICKS or _STATUS_MARKS.get(cell.rstrip("\ufe0f")) == 1)


# A status cell that opens on a mark and explains it: "❌ dwarf planet", "✅ (group 18)"
_CELL_MARK = _Pattern(rf"[^\S\n*_`]*(?P<m>[{_MARK_CLASS}])\ufe0f?[^\S\n]+[^{_MARK_CLASS}]*")


def _cell_mark(text: str, lo: int, hi: int) -> int:
    """The sign of the mark a status cell opens on, when it explains it in words (and
    holds no other mark); 0 otherwise."""
    found = _CELL_MARK.fullmatch(text, lo, hi)
    return _STATUS_MARKS[found.group("m")] if found is not None else 0


# CSV: a header line of two to six fields, the first naming no candidate, then lines of
# as many fields each, the first a candidate's label
_CSV_SEPS = ",;"
_CSV_FIELDS = range(2, 7)


def _csv_block(text: str, lo: int, ctx: _Context) -> tuple[list[tuple[int, int]], str] | None:
    """The CSV block starting at the line at ``lo`` (its header and rows, and the
    separator), when one does: a header and two rows at least."""
    end = _line_end(text, lo)
    head = text[lo:end]
    sep = next((c for c in _CSV_SEPS if c in head), None)
    if sep is None or head.count(sep) + 1 not in _CSV_FIELDS or " " in head.strip():
        return None
    size = head.count(sep)
    rows = [(lo, end)]
    pos = end + 1
    while pos < len(text):
        end = _line_end(text, pos)
        a, b = _strip_bounds(text, pos, end)
        if a >= b or text.count(sep, a, b) != size:
            break
        first = text[a : text.find(sep, a, b)].strip(" \t*_`")
        if first.upper() not in ctx.keys:
            break
        rows.append((a, b))
        pos = end + 1
    first_field = head.split(sep)[0].strip(" \t*_`")
    if len(rows) < 3 or first_field.upper() in ctx.keys:
        return None
    return rows, sep


def _fields(text: str, lo: int, hi: int, sep: str) -> list[tuple[int, int]]:
    """The fields of a CSV line, as stripped offsets."""
    cuts = [lo - 1, *(i for i in range(lo, hi) if text[i] == sep), hi]
    return [_strip_bounds(text, a + 1, b, " \t*_`") for a, b in pairwise(cuts)]


def _cells(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The cells of a table row ``| a | b |``, as stripped offsets."""
    bars = [i for i in range(lo, hi) if text[i] == "|"]
    if bars and bars[-1] != hi - 1:
        bars.append(hi)
    return [_strip_bounds(text, a + 1, b, " \t*_`") for a, b in pairwise(bars)]


def _cell_candidate(
    text: str, lo: int, hi: int, ctx: _Context
) -> tuple[str, tuple[int, int] | None] | None:
    """The candidate a table cell names: its label (perhaps with its text, "A. Uses a
    formal tone"), or its text."""
    if lo >= hi:
        return None
    only = _labels_only(text, lo, hi, ctx.keys)
    if only is not None and len(only.labels) == 1:
        return next(iter(only.labels)), only.span
    lead = _LEAD_LABEL.match(text, lo, hi)
    if lead is not None and lead.group("c") and (label := ctx.keys.get(lead.group("l").upper())):
        return label, lead.span("l")
    named = ctx.texts.exact(text[lo:hi]) or ctx.texts.inside(text[lo:hi])
    return (next(iter(named)), None) if len(named) == 1 else None
