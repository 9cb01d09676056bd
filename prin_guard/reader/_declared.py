"""The declared format: the verdict where the template's answer contract says the judge
writes it (``prin_guard._contract``), read first and strictly.

Each format kind has its reader; each returns a reading in the item's labels (the shown
labels mapped by position), a void reading when the format is there but says nothing
readable or says several things (verdict tags that disagree), or None when the reply does
not use the format at all (the general reader then reads it). A *slot* (what a tag, a line
or a JSON field holds) is read strictly: the shown labels, separated by commas, "and", "&"
or "/" (labels joined by "or" are alternatives: void), the tie word, or "none", "neither",
"both", "all". Where the shown labels are the item's own (the bundled templates), a slot
that is not strictly readable is read as the general reader reads an answer line.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from prin_guard.reader._answers import _read_answer
from prin_guard.reader._evidence import _Context, _Reading, _tie_free
from prin_guard.reader._text import _Pattern, _strip_bounds

if TYPE_CHECKING:  # the contract's models are built when a template asks for one
    from prin_guard._contract import (
        AnswerContract,
        JsonField,
        JsonRanking,
        Line,
        Scores,
        Tag,
    )

_VOID = _Reading(frozenset(), None, void=True)
_SLOT_STRIP = " \t\r\n*_`\"'“”‘’.!:;()[]{}<>"
_SLOT_SEP = _Pattern(r"\s*(?:,|;|&|/|\band\b|\bor\b)\s*", re.IGNORECASE)
_NONE_WORDS = frozenset({"none", "neither", "nothing", "no one", "n/a"})
_ALL_WORDS = frozenset({"both", "all", "all of them", "both of them"})
_COMPARISON = _Pattern(r"(?P<x>.+?)\s*(?P<op>>>|>|=|<<|<|≫|≪)\s*(?P<y>.+)", re.DOTALL)
_NUMBER = r"(-?\d{1,4}(?:\.\d+)?)(?:\s*/\s*\d{1,4})?"
_LINE_LEAD = " \t>*#_`-•"
_MAX_JSON = 16
_MAX_JSON_FAILURES = 64


def read_declared(
    text: str, contract: AnswerContract, ctx: _Context
) -> tuple[_Reading | None, list[tuple[int, int]]]:
    """The reading of the contract's declared format in ``text`` (copies masked), or None
    when the reply does not use it; and where the format stands in the reply (every tag,
    line or JSON value of it), so the rest of the reply can be read apart."""
    shown = _Shown(contract, ctx)
    form = contract.format
    places: list[tuple[int, int]] = []
    reading: _Reading | None = None
    kind = form.kind  # dispatched on the kind: this module does not import the models
    if kind == "tag":
        reading = _tags(text, cast("Tag", form), shown, places)
    elif kind == "line":
        reading = _lines(text, cast("Line", form), shown, places)
    elif kind == "first_line":
        line = _first_line(text)
        reading = shown.slot(text, *line) if line is not None else None
        if reading is not None and line is not None:
            places.append(line)
    elif kind == "scores":
        reading = _scores(text, cast("Scores", form), shown, places)
    elif kind == "json_field":
        reading = _json_field(text, cast("JsonField", form), shown, places)
    elif kind == "json_ranking":
        reading = _json_ranking(text, cast("JsonRanking", form), shown, places)
    elif kind == "ordering":
        reading = _ordering(text, shown, places)
    return reading, places


class _Shown:
    """The shown labels of one leg and how a slot is read with them."""

    def __init__(self, contract: AnswerContract, ctx: _Context) -> None:
        self.ctx = ctx
        self.own = contract.labels is None or tuple(contract.labels) == tuple(ctx.labels)
        shown = contract.labels if contract.labels is not None else tuple(ctx.labels)
        self.case = contract.case_sensitive
        # a leg may show fewer labels than the contract names (a checklist's criteria);
        # the contract's labels name the candidates by position
        self.by_label = {
            self._key(label): item for label, item in zip(shown, ctx.labels, strict=False)
        }
        self.tie = None if contract.tie is None else self._key(contract.tie)

    def _key(self, label: str) -> str:
        label = " ".join(label.split())
        return label if self.case else label.casefold()

    def label(self, token: str) -> str | None:
        return self.by_label.get(self._key(token.strip(_SLOT_STRIP)))

    def slot(self, text: str, lo: int, hi: int) -> _Reading | None:
        """What ``text[lo:hi]`` names (see the module's docstring)."""
        lo, hi = _strip_bounds(text, lo, hi, _SLOT_STRIP)
        if lo >= hi:
            return None
        whole = self._key(text[lo:hi])
        if self.tie is not None and whole == self.tie:
            return _Reading(frozenset(), (lo, hi)) if self.ctx.pair else None
        lowered = whole.casefold()
        if lowered in _NONE_WORDS:
            return _Reading(frozenset(), (lo, hi))
        if lowered in _ALL_WORDS:
            return _Reading(frozenset(), (lo, hi), inverted=True)
        found: set[str] = set()
        alternative = False
        pos = lo
        for sep in [*_SLOT_SEP.finditer(text, lo, hi), None]:
            end = sep.start() if sep is not None else hi
            label = self.label(text[pos:end])
            if label is None:
                return self._lenient(text, lo, hi)
            found.add(label)
            if sep is not None:
                alternative = alternative or sep.group().strip().casefold() == "or"
                pos = sep.end()
        return _Reading(frozenset(found), (lo, hi), void=alternative and len(found) > 1)

    def _lenient(self, text: str, lo: int, hi: int) -> _Reading | None:
        if not self.own:
            return None
        said = _read_answer(text, lo, hi, self.ctx)
        return said[1] if said is not None else None


@functools.lru_cache(maxsize=64)
def _tag_pattern(open_mark: str, close_mark: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(open_mark)}[^\S\n]*(?P<body>[^\n]{{1,80}}?)[^\S\n]*"
                      rf"{re.escape(close_mark)}")  # fmt: skip


def _tags(text: str, form: Tag, shown: _Shown, places: list[tuple[int, int]]) -> _Reading | None:
    readings: list[_Reading] = []
    for match in _tag_pattern(form.open, form.close).finditer(text):
        lo, hi = match.span("body")
        reading = _comparison(text, lo, hi, shown) or shown.slot(text, lo, hi)
        if reading is not None:
            readings.append(reading)
            places.append(match.span())
    if not readings:
        return None
    values = {_tie_free(reading, shown.ctx) for reading in readings}
    return readings[-1] if len(values) == 1 else _VOID


def _comparison(text: str, lo: int, hi: int, shown: _Shown) -> _Reading | None:
    """``A>B``, ``A>>B``, ``A=B``, ``B<A``: for a pair, the candidate "more" of what the
    leg asks (the better one on a direct leg); equal is a tie."""
    match = _COMPARISON.fullmatch(text, lo, hi)
    if match is None or not shown.ctx.pair:
        return None
    first, second = shown.label(match.group("x")), shown.label(match.group("y"))
    if first is None or second is None or first == second:
        return None
    op = match.group("op")
    if op == "=":
        return _Reading(frozenset(), (lo, hi))
    winner = match.span("x") if op in (">", ">>", "≫") else match.span("y")
    label = first if op in (">", ">>", "≫") else second
    return _Reading(frozenset({label}), winner)


def _lines(text: str, form: Line, shown: _Shown, places: list[tuple[int, int]]) -> _Reading | None:
    """The last line that holds the prefix and a readable verdict after it. The prefix
    starts its line, or follows a sentence's end ("... accurate. [RESULT] B"), or, when it
    is a marker in brackets ("[RESULT]"), stands anywhere."""
    prefix = form.prefix
    folded = text.casefold()
    anywhere = prefix.startswith(("[", "<", "("))
    found: _Reading | None = None
    pos = folded.find(prefix.casefold())
    while pos >= 0:
        line_start = text.rfind("\n", 0, pos) + 1
        before = text[line_start:pos]
        if anywhere or not before.strip(_LINE_LEAD) or before.rstrip().endswith((".", "!", "?")):
            start = pos + len(prefix)
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            slot: tuple[int, int] | None = (start, end)
            if not text[start:end].strip(_SLOT_STRIP):  # the verdict on the next line
                slot = _first_line(text, end + 1)
            reading = shown.slot(text, *slot) if slot is not None else None
            if reading is not None and slot is not None:
                found = reading
                places.append((pos, slot[1]))
        pos = folded.find(prefix.casefold(), pos + len(prefix))
    return found


def _first_line(text: str, pos: int = 0) -> tuple[int, int] | None:
    """The first line with text from ``pos``, as offsets."""
    size = len(text)
    while pos <= size:
        end = text.find("\n", pos)
        end = size if end < 0 else end
        lo, hi = _strip_bounds(text, pos, end, _SLOT_STRIP)
        if lo < hi:
            return lo, hi
        pos = end + 1
    return None


def _last_line(text: str) -> tuple[int, int] | None:
    end = len(text)
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        lo, hi = _strip_bounds(text, start, end, _SLOT_STRIP)
        if lo < hi:
            return lo, hi
        end = start - 1
    return None


@functools.lru_cache(maxsize=16)
def _scores_pattern(count: int) -> re.Pattern[str]:
    numbers = r"[^\S\n]*[,;]?[^\S\n]+".join([_NUMBER] * count)
    return re.compile(rf"[^\S\n]*{numbers}[^\S\n]*")


def _scores(
    text: str, form: Scores, shown: _Shown, places: list[tuple[int, int]]
) -> _Reading | None:
    ctx = shown.ctx
    if not ctx.pair:
        return None
    match: re.Match[str] | None = None
    if form.where == "first_line":
        line = _first_line(text)
        if line is None:
            return None
        match = _scores_pattern(len(ctx.labels)).fullmatch(text, *line)
    else:
        for match in _TUPLE.finditer(text):  # noqa: B007 (the last one counts)
            pass
    if match is None:
        return None
    places.append(match.span())
    values = [float(value) for value in match.groups()]
    best, worst = max(values), min(values)
    if best == worst:
        return _Reading(frozenset(), match.span())  # a tie
    index = values.index(best if ctx.leg >= 0 else worst)
    return _Reading(frozenset({ctx.labels[index]}), match.span(index + 1))


_TUPLE = _Pattern(rf"\(\s*{_NUMBER}\s*,\s*{_NUMBER}\s*\)")
_ORDER_SEP = _Pattern(r"\s*(>>|>|=|<<|<)\s*")


def _ordering(text: str, shown: _Shown, places: list[tuple[int, int]]) -> _Reading | None:
    """The last ordering of every candidate ("Assistant 2 > Assistant 1 = Assistant 3"),
    in the reply's last line that holds one ("Therefore, the order is: ...")."""
    ctx = shown.ctx
    pattern = _ordering_pattern(tuple(shown.by_label), shown.case)
    end = len(text)
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        found = None
        for match in pattern.finditer(text, start, end):
            ranks = _ranked(match.group(), shown)
            if ranks is not None:
                found = (ranks, match.span())
        if found is not None:
            ranks, span = found
            places.append(span)
            target = min(ranks.values()) if ctx.leg >= 0 else max(ranks.values())
            chosen = frozenset(label for label, rank in ranks.items() if rank == target)
            if len(chosen) == len(ranks) and ctx.pair:
                return _Reading(frozenset(), span)  # all equal: a tie
            return _Reading(chosen, span)
        end = start - 1
    return None


@functools.lru_cache(maxsize=64)
def _ordering_pattern(keys: tuple[str, ...], case: bool) -> re.Pattern[str]:
    """Names of the candidates joined by ">", "=", "<" (the keys are the shown labels as
    matched: case-folded unless the contract is case-sensitive)."""
    name = "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))
    flags = 0 if case else re.IGNORECASE
    return re.compile(rf"(?:{name})(?:\s*(?:>>|>|=|<<|<)\s*(?:{name}))+", flags)


def _ranked(ordering: str, shown: _Shown) -> dict[str, int] | None:
    """Each candidate's rank in an ordering naming every one, else None."""
    parts = _ORDER_SEP.compiled.split(ordering)
    names, ops = parts[::2], parts[1::2]
    if any(op in ("<", "<<") for op in ops) and any(op in (">", ">>") for op in ops):
        return None
    if any(op in ("<", "<<") for op in ops):
        names, ops = names[::-1], ops[::-1]
    ranks: dict[str, int] = {}
    rank = 1
    for index, name in enumerate(names):
        label = shown.label(name)
        if label is None or label in ranks:
            return None
        if index and ops[index - 1] != "=":
            rank += 1
        ranks[label] = rank
    return ranks if len(ranks) == len(shown.ctx.labels) else None


def _decoded(text: str, opener: str) -> list[tuple[Any, int, int]]:
    """The last ``_MAX_JSON`` JSON (or Python literal) values of ``text`` that start with
    ``opener``, with their offsets, last first."""
    out: list[tuple[Any, int, int]] = []
    decoder = json.JSONDecoder(strict=False)  # raw line breaks in strings: see _structures
    pos = len(text)
    failed = 0  # a failed decode counts the lines before it: bounded, or a run of "{"
    # would be read in time quadratic in its length
    while (
        len(out) < _MAX_JSON
        and failed < _MAX_JSON_FAILURES
        and (start := text.rfind(opener, 0, pos)) >= 0
    ):
        pos = start
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            failed += 1
            closer = "]" if opener == "[" else "}"
            stop = text.find(closer, start, start + 4097)
            if stop < 0:
                continue
            try:  # AlpacaEval records its rankings as Python literals
                value, end = ast.literal_eval(text[start : stop + 1]), stop + 1
            except (ValueError, SyntaxError, RecursionError, MemoryError):
                continue
        out.append((value, start, end))
    return out


def _json_field(
    text: str, form: JsonField, shown: _Shown, places: list[tuple[int, int]]
) -> _Reading | None:
    key = form.key.casefold()
    for value, start, end in _decoded(text, "{"):
        if not isinstance(value, dict):
            continue
        for name, inner in value.items():
            if isinstance(name, str) and name.casefold() == key:
                places.append((start, end))
                return _json_slot(inner, shown, (start, end))
    return None


def _json_slot(value: Any, shown: _Shown, span: tuple[int, int]) -> _Reading:
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(item, str | int) and not isinstance(item, bool) for item in items):
        return _VOID
    readings = []
    for item in items:
        token = str(item)
        reading = shown.slot(token, 0, len(token))
        if reading is None or reading.void:
            return _VOID
        readings.append(reading)
    if len(readings) == 1:
        return _Reading(readings[0].labels, span, readings[0].inverted)
    labels = frozenset().union(*(reading.labels for reading in readings))
    return _Reading(labels, span)


def _json_ranking(
    text: str, form: JsonRanking, shown: _Shown, places: list[tuple[int, int]]
) -> _Reading | None:
    ctx = shown.ctx
    if not ctx.pair:
        return None
    for value, start, end in _decoded(text, "["):
        ranks = _ranks(value, form, shown)
        if ranks is None:
            continue
        places.append((start, end))
        if len(ranks) != len(ctx.labels):
            return _VOID
        target = min(ranks.values()) if ctx.leg >= 0 else max(ranks.values())
        chosen = frozenset(label for label, rank in ranks.items() if rank == target)
        if len(chosen) == len(ranks):
            return _Reading(frozenset(), (start, end))  # all ranked alike: a tie
        return _Reading(chosen, (start, end))
    return None


def _ranks(value: Any, form: JsonRanking, shown: _Shown) -> dict[str, float] | None:
    """Each candidate's rank from a list of records, or None when ``value`` is not one."""
    if not isinstance(value, list) or not value:
        return None
    ranks: dict[str, float] = {}
    for record in value:
        if not isinstance(record, dict):
            return None
        name, rank = record.get(form.name_key), record.get(form.rank_key)
        if not isinstance(name, str) or isinstance(rank, bool) or not isinstance(rank, int | float):
            return None
        label = shown.label(name)
        if label is None or label in ranks:
            return None
        ranks[label] = float(rank)
    return ranks


def describe(contract: AnswerContract, labels: Sequence[str]) -> str:
    """What the reader looks for, in words (for ``prin-guard prompts``)."""
    shown = contract.labels or tuple(labels)
    names = ", ".join(repr(label) for label in shown)
    tie = f"; a tie is {contract.tie!r}" if contract.tie else ""
    form = contract.format
    kind = form.kind
    if kind == "tag":
        tag = cast("Tag", form)
        where = f"the last tag {tag.open}...{tag.close} (several that disagree: no verdict)"
    elif kind == "line":
        where = f"the last line starting {cast('Line', form).prefix!r}"
    elif kind == "first_line":
        where = "the first line, alone"
    elif kind == "scores":
        first = cast("Scores", form).where == "first_line"
        place = "first line, alone" if first else "last (s1, s2) tuple"
        where = f"a score per candidate on the {place} (higher wins)"
    elif kind == "ordering":
        where = "the last line ordering the candidates with '>' and '='"
    elif kind == "json_field":
        where = f"the JSON field {cast('JsonField', form).key!r}"
    elif kind == "json_ranking":
        ranking = cast("JsonRanking", form)
        where = f"a JSON list ranking the candidates by {ranking.rank_key!r} (1 the best)"
    else:
        return f"a conclusion in free text naming {names}{tie}"
    return f"{where}, naming {names}{tie}; else the reply's conclusion"
