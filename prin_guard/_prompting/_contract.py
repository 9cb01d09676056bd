"""A template's answer contract: what the judge was asked to write, so the reader reads that
first and strictly.

A judge prompt names the candidates in its own way ("Assistant A", "Output (a)", "1" and
"2", model ids "m" and "M") and asks for the verdict in its own format: MT-Bench's "[[A]]"
("[[C]]" a tie), Arena-Hard's "[[A>>B]]", Prometheus' "[RESULT] A", PandaLM's first line
"1", "2" or "Tie", the Vicuna review's two scores on the first line ("8 9"), AlpacaEval's
ranked JSON list. The contract says so:

- ``labels``: the candidates' labels exactly as the prompt shows them, in the order shown
  (``None``: the item's own labels, A, B, ...). Matching is case-sensitive when two labels
  differ only in case ("m" and "M"), else not.
- ``tie``: the word (or label) the prompt asks for when neither response is better ("C",
  "Tie", "tie"); pairwise only.
- ``format``: one of the :data:`VerdictFormat` kinds below.

Each format is one class that owns what it means: how the reader finds it in a reply
(``read``, strictly, with the slot reading of :mod:`prin_guard.reader._declared`), how it is
described (``where``: what ``prin-guard prompts`` says the reader looks for), how the judge
is asked for it when a reply could not be read (``ask``) and how a prompt is checked to
ask for it (``check``). Nothing dispatches on ``kind``: a new format is a new class here,
added to :data:`VerdictFormat`.

The reader reads the declared format first; when it is there, its reading stands unless the
rest of the reply concludes otherwise (then the leg abstains); when it is not, the general
reader reads the reply. What a declared slot holds is the answer to the leg's own question:
on the reverse leg "[[A]]" names the worse response, and "[[A>B]]" says A is "more" of
what the leg asks (a reverse prompt derived by word flips redefines its tags that way).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, field_validator, model_validator

from prin_guard.errors import UsageError
from prin_guard.models import Frozen
from prin_guard.reader._declared import (
    SLOT_STRIP,
    VOID,
    Places,
    Reading,
    Shown,
    agreed,
    bulleted,
    decoded,
    first_line,
)
from prin_guard.reader._text import _Pattern, note_line

__all__ = [
    "AnswerContract",
    "Conclusion",
    "FirstLine",
    "JsonField",
    "JsonRanking",
    "Line",
    "Ordering",
    "Ranked",
    "RankingForm",
    "ScoresFormat",
    "Tag",
    "VerdictFormat",
]


def _phrase(value: str, name: str) -> str:
    if not value.strip() or "\n" in value or len(value) > 64:
        raise ValueError(f"{name} must be a short piece of text on one line")
    return value


def _quoted(labels: Sequence[str]) -> str:
    return ", ".join(f'"{label}"' for label in labels)


def _or_tie(tie: str | None) -> str:
    return f', or "{tie}" for a tie' if tie else ""


class _Format(Frozen):
    """What every verdict format does; the defaults are the free-text conclusion's."""

    kind: str
    """The format's name in a contract (``{"kind": "tag"}``): each class's own literal."""

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        """The verdict this format holds in ``text``: a reading in the item's labels, a
        void one when the format is there but says nothing readable, or None when the
        reply does not use it. Where it stands goes into ``places``."""
        return None

    def last(self, text: str, shown: Shown) -> Reading | None:
        """The reading of :meth:`read`, without its places: a format that reads its last
        place reads only as far back as it must."""
        return self.read(text, shown, [])

    def looks_for(self) -> str | None:
        """Where the reader looks, in words; None: the reply's conclusion in free text."""
        return None

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        """How the judge is asked to write its answer, given the prompt's ``labels`` and
        the item's ``count`` of candidates: "Reply with ..." completed."""
        return (
            f"one line only, naming your final answer among {_quoted(labels[:count])}{_or_tie(tie)}"
        )

    def check(self, own: str, *, reverse_written: bool) -> None:
        """A UsageError naming the field when the template's ``own`` words never ask for
        this format, or its reverse leg cannot be derived by flipping words."""
        for mark in self._marks():
            if mark and mark.casefold() not in own.casefold():
                raise UsageError(
                    f"template: contract.format: the prompt never asks for {mark!r} ({self.kind})"
                )

    def _marks(self) -> tuple[str, ...]:
        """The words a prompt that asks for this format shows."""
        return ()


class Tag(_Format):
    """A bracket tag around the verdict: ``[[A]]``, ``[[C]]`` (a tie), and for a pair the
    comparisons ``[[A>>B]]``, ``[[A>B]]``, ``[[A=B]]``, ``[[B>A]]``, ``[[B>>A]]``. Several
    tags that disagree are no verdict."""

    kind: Literal["tag"] = "tag"
    open: str = "[["
    close: str = "]]"

    @field_validator("open", "close")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a tag's open and close marks")

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        readings: list[Reading] = []
        for match in _tag_pattern(self.open, self.close).finditer(text):
            lo, hi = match.span("body")
            reading = _comparison(text, lo, hi, shown) or shown.slot(text, lo, hi)
            if reading is not None:
                readings.append(reading)
                places.append(match.span())
        return agreed(readings, shown) if readings else None

    def looks_for(self) -> str:
        return f"the last tag {self.open}...{self.close} (several that disagree: no verdict)"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        opening, closing = self.open, self.close
        forms = ", ".join(f'"{opening}{label}{closing}"' for label in labels[:2])
        tie_tag = f', or "{opening}{tie}{closing}" for a tie' if tie else ""
        return f"your final verdict only, as one of {forms}{tie_tag}"

    def _marks(self) -> tuple[str, ...]:
        return (self.open, self.close)


@functools.lru_cache(maxsize=64)
def _tag_pattern(open_mark: str, close_mark: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(open_mark)}[^\S\n]*(?P<body>[^\n]{{1,80}}?)[^\S\n]*"
                      rf"{re.escape(close_mark)}")  # fmt: skip


_COMPARISON = _Pattern(r"(?P<x>.+?)\s*(?P<op>>>|>|=|<<|<|≫|≪)\s*(?P<y>.+)", re.DOTALL)


def _comparison(text: str, lo: int, hi: int, shown: Shown) -> Reading | None:
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
        return Reading(frozenset(), (lo, hi))
    winner = match.span("x") if op in (">", ">>", "≫") else match.span("y")
    label = first if op in (">", ">>", "≫") else second
    return Reading(frozenset({label}), winner)


class Line(_Format):
    """A line that starts with ``prefix`` and holds the verdict: "Final verdict: A",
    "[RESULT] B", "Answer: A, C"; the last such line counts."""

    kind: Literal["line"] = "line"
    prefix: str

    @field_validator("prefix")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a line's prefix")

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        """The last line that holds the prefix and a readable verdict after it. The prefix
        starts its line, or follows a sentence's end ("... accurate. [RESULT] B"), or, when
        it is a marker in brackets ("[RESULT]"), stands anywhere."""
        found: Reading | None = None
        for pos in self._starts(text):
            said = self._at(text, pos, shown)
            if said is not None:
                found = said[0]
                places.append((pos, said[1]))
        return found

    def last(self, text: str, shown: Shown) -> Reading | None:
        """The last line's reading, read from the end (a looping reply writes its answer
        line hundreds of times)."""
        for pos in reversed(self._starts(text)):
            said = self._at(text, pos, shown)
            if said is not None:
                return said[0]
        return None

    def _starts(self, text: str) -> list[int]:
        """Where the prefix is written, in order (each search after the one before)."""
        prefix = self.prefix
        folded, wanted = text.casefold(), prefix.casefold()
        starts: list[int] = []
        pos = folded.find(wanted)
        while pos >= 0:
            starts.append(pos)
            pos = folded.find(wanted, pos + len(prefix))
        return starts

    def _at(self, text: str, pos: int, shown: Shown) -> tuple[Reading, int] | None:
        """The verdict of the prefix at ``pos`` and where it ends; None when the prefix
        starts no answer line there or holds nothing readable."""
        prefix = self.prefix
        line_start = text.rfind("\n", 0, pos) + 1
        before = text[line_start:pos]
        if not (
            prefix.startswith(("[", "<", "("))
            or not before.strip(_LINE_LEAD)
            or before.rstrip(" \t*_`").endswith((".", "!", "?"))
        ):
            return None
        start = pos + len(prefix)
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        slot: tuple[int, int] | None = (start, end)
        if not text[start:end].strip(SLOT_STRIP):  # the verdict on the next line
            slot = first_line(text, end + 1)
            if slot is not None and note_line(text, text.rfind("\n", 0, slot[0]) + 1):
                return None  # "Answer:\n\nNote: ...": a comment, not the verdict
        if slot is None:
            return None
        reading = shown.slot(text, *slot)
        if reading is not None and slot[0] > end:
            reading, slot = bulleted(text, slot, reading, shown)  # "Answer:\n- A\n- C"
        return (reading, slot[1]) if reading is not None else None

    def looks_for(self) -> str:
        return f"the last line starting {self.prefix!r}"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return (
            f'one line only: "{self.prefix} " followed by one of {_quoted(labels[:count])}'
            f"{_or_tie(tie)}"
        )

    def _marks(self) -> tuple[str, ...]:
        return (self.prefix,)


_LINE_LEAD = " \t>*#_`-•"


class FirstLine(_Format):
    """The reply's first line is the verdict alone: "1", "2", "Tie" (PandaLM)."""

    kind: Literal["first_line"] = "first_line"

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        line = first_line(text)
        reading = shown.slot(text, *line) if line is not None else None
        if reading is not None and line is not None:
            places.append(line)
        return reading

    def looks_for(self) -> str:
        return "the first line, alone"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return f"one line only: one of {_quoted(labels[:count])}{_or_tie(tie)}"


class ScoresFormat(_Format):
    """A score per candidate, in the order shown: on the first line alone ("8 9", the
    Vicuna review format; "8/10, 9/10"), or as the reply's last tuple ("(7, 9)", the
    Vicuna math review's "Python tuple"). The higher score wins, equal scores are a tie;
    on the reverse leg the lower score names the worse response. Pairwise only."""

    kind: Literal["scores"] = "scores"
    where: Literal["first_line", "last_tuple"] = "first_line"

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        ctx = shown.ctx
        if not ctx.pair:
            return None
        match: re.Match[str] | None = None
        if self.where == "first_line":
            line = first_line(text)
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
            return Reading(frozenset(), match.span())  # a tie
        index = values.index(best if ctx.leg >= 0 else worst)
        return Reading(frozenset({ctx.labels[index]}), match.span(index + 1))

    def looks_for(self) -> str:
        place = "first line, alone" if self.where == "first_line" else "last (s1, s2) tuple"
        return f"a score per candidate on the {place} (higher wins)"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        names = _quoted(labels[:count])
        return f"one line only: a score for each of {names}, in that order, separated by a space"

    def check(self, own: str, *, reverse_written: bool) -> None:
        if not reverse_written:
            raise UsageError(
                "template: reverse_instruction: a score per candidate keeps its scale on a "
                "'which is worse' leg, so the reverse leg cannot be derived by flipping words: "
                "write it (reverse_instruction)"
            )


_NUMBER = r"(-?\d{1,4}(?:\.\d+)?)(?:\s*/\s*\d{1,4})?"
_TUPLE = _Pattern(rf"\(\s*{_NUMBER}\s*,\s*{_NUMBER}\s*\)")


@functools.lru_cache(maxsize=16)
def _scores_pattern(count: int) -> re.Pattern[str]:
    numbers = r"[^\S\n]*[,;]?[^\S\n]+".join([_NUMBER] * count)
    return re.compile(rf"[^\S\n]*{numbers}[^\S\n]*")


class JsonField(_Format):
    """A JSON object whose field ``key`` holds the verdict: ``{"winner": "A"}``,
    ``{"correct": ["A", "C"]}``. The last object with the key counts."""

    kind: Literal["json_field"] = "json_field"
    key: str

    @field_validator("key")
    @classmethod
    def _short(cls, value: str) -> str:
        return _phrase(value, "a JSON key")

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        key = self.key.casefold()
        for value, start, end in decoded(text, "{"):
            if not isinstance(value, dict):
                continue
            for name, inner in value.items():
                if isinstance(name, str) and name.casefold() == key:
                    places.append((start, end))
                    return _json_slot(inner, shown, (start, end))
        return None

    def looks_for(self) -> str:
        return f"the JSON field {self.key!r}"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return (
            f'a JSON object only, with the field "{self.key}" naming one of '
            f"{_quoted(labels[:count])}{_or_tie(tie)}"
        )

    def _marks(self) -> tuple[str, ...]:
        return (self.key,)


def _json_slot(value: Any, shown: Shown, span: tuple[int, int]) -> Reading:
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(item, str | int) and not isinstance(item, bool) for item in items):
        return VOID
    readings = []
    for item in items:
        token = str(item)
        reading = shown.slot(token, 0, len(token))
        if reading is None or reading.void:
            return VOID
        readings.append(reading)
    if len(readings) == 1:
        return Reading(readings[0].labels, span, readings[0].inverted)
    labels = frozenset[str]().union(*(reading.labels for reading in readings))
    return Reading(labels, span)


class JsonRanking(_Format):
    """A JSON list of records ranking the candidates, rank 1 the best:
    ``[{"model": "M", "rank": 1}, {"model": "m", "rank": 2}]`` (AlpacaEval's ranking
    annotators). On the reverse leg the candidate ranked last is the answer. Pairwise
    only."""

    kind: Literal["json_ranking"] = "json_ranking"
    name_key: str = "model"
    rank_key: str = "rank"

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        ctx = shown.ctx
        if not ctx.pair:
            return None
        for value, start, end in decoded(text, "["):
            ranks = self._ranks(value, shown)
            if ranks is None:
                continue
            places.append((start, end))
            if len(ranks) != len(ctx.labels):
                return VOID
            return _ranked_reading(ranks, shown, (start, end))
        return None

    def _ranks(self, value: Any, shown: Shown) -> dict[str, float] | None:
        """Each candidate's rank from a list of records, or None when ``value`` is not one."""
        if not isinstance(value, list) or not value:
            return None
        ranks: dict[str, float] = {}
        for record in value:
            if not isinstance(record, dict):
                return None
            name, rank = record.get(self.name_key), record.get(self.rank_key)
            if (
                not isinstance(name, str)
                or isinstance(rank, bool)
                or not isinstance(rank, int | float)
            ):
                return None
            label = shown.label(name)
            if label is None or label in ranks:
                return None
            ranks[label] = float(rank)
        return ranks

    def looks_for(self) -> str:
        return f"a JSON list ranking the candidates by {self.rank_key!r} (1 the best)"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return f"a JSON list only, ranking {_quoted(labels[:count])} with rank 1 the best"


def _ranked_reading(
    ranks: dict[str, float] | dict[str, int], shown: Shown, span: tuple[int, int]
) -> Reading:
    """The first rank on the direct leg, the last on the reverse leg; one rank for all is a
    tie for a pair."""
    target = min(ranks.values()) if shown.ctx.leg >= 0 else max(ranks.values())
    chosen = frozenset(label for label, rank in ranks.items() if rank == target)
    if len(chosen) == len(ranks) and shown.ctx.pair:
        return Reading(frozenset(), span)  # all ranked alike: a tie
    return Reading(chosen, span)


class Ordering(_Format):
    """The last line that orders the candidates with ">" ("is better than") and "="
    ("is equal to"): "Assistant 2 > Assistant 1 = Assistant 3" (LLMZoo). The first rank is
    the answer on the direct leg, the last on the reverse leg; one rank for all is a tie."""

    kind: Literal["ordering"] = "ordering"

    def read(self, text: str, shown: Shown, places: Places) -> Reading | None:
        """The last ordering of every candidate, in the reply's last line that holds one
        ("Therefore, the order is: ...")."""
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
                return _ranked_reading(ranks, shown, span)
            end = start - 1
        return None

    def looks_for(self) -> str:
        return "the last line ordering the candidates with '>' and '='"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return f"one line only, ordering {_quoted(labels[:count])} with '>' and '='"


_ORDER_SEP = _Pattern(r"\s*(>>|>|=|<<|<)\s*")


@functools.lru_cache(maxsize=64)
def _ordering_pattern(keys: tuple[str, ...], case: bool) -> re.Pattern[str]:
    """Names of the candidates joined by ">", "=", "<" (the keys are the shown labels as
    matched: case-folded unless the contract is case-sensitive)."""
    name = "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))
    flags = 0 if case else re.IGNORECASE
    return re.compile(rf"(?:{name})(?:\s*(?:>>|>|=|<<|<)\s*(?:{name}))+", flags)


def _ranked(ordering: str, shown: Shown) -> dict[str, int] | None:
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


RankingForm = Literal[
    "ordering", "identifiers", "json-list", "json-ranks", "numbered", "tags", "headed-list"
]
"""The forms a ranking judge writes its ranking in (:class:`Ranked`)."""


class Ranked(_Format):
    """A ranking of every candidate, in one of the forms ranking judges write: ``ordering``
    "Assistant 2 > Assistant 1 = Assistant 3" (LLMZoo), ``identifiers`` "[2] > [1] > [3]"
    (RankGPT), ``json-list`` ``["B", "A", "C"]`` (a tie a nested list), ``json-ranks``
    ``{"A": 2, "B": 1, "C": 3}``, ``numbered`` lines "1. Response C", ``tags`` "[[C]],
    [[A]], [[B]]", ``headed-list`` "Ranking: C, A, B". For ranking items (read strictly by
    :func:`prin_guard.reader._ranking.read_ranking`, the declared form first: every label
    exactly once); a label task's reply holds no answer in it."""

    kind: Literal["ranking"] = "ranking"
    form: RankingForm = "ordering"

    @property
    def reader_form(self) -> str:
        """The form as the ranking reader names it (RankGPT's identifiers are an ordering)."""
        return "ordering" if self.form == "identifiers" else self.form

    def looks_for(self) -> str:
        return f"a ranking of every candidate, each exactly once ({self.form})"

    def ask(self, labels: Sequence[str], count: int, tie: str | None) -> str:
        return f"your ranking only, of every one of {_quoted(labels[:count])} ({self.form})"


class Conclusion(_Format):
    """No declared format: the judge concludes in free text, read by the general reader."""

    kind: Literal["conclusion"] = "conclusion"


VerdictFormat = Annotated[
    Tag
    | Line
    | FirstLine
    | ScoresFormat
    | JsonField
    | JsonRanking
    | Ordering
    | Ranked
    | Conclusion,
    Field(discriminator="kind"),
]
"""The verdict formats a contract may declare: each reads, describes, asks for and checks
itself (:class:`_Format`); a new one is a class above, added here."""

FORMAT_KINDS: tuple[str, ...] = tuple(
    member.model_fields["kind"].default for member in get_args(get_args(VerdictFormat)[0])
)
"""The ``kind`` of each verdict format, in the union's order (what TOML spells)."""


class AnswerContract(Frozen):
    """What a template asks the judge to write (see the module's docstring)."""

    labels: tuple[str, ...] | None = None
    """The candidates' labels as the prompt shows them, in the order shown (``None``: the
    item's own labels)."""
    tie: str | None = None
    """The tie word or label ("C", "Tie"); pairwise only."""
    format: VerdictFormat = Conclusion()
    """Where and how the verdict is written."""

    @field_validator("labels")
    @classmethod
    def _labels(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is None:
            return None
        if len(value) < 1:
            raise ValueError("labels: give at least one label, or none to use the item's")
        for label in value:
            _phrase(label, "each label")
        if len(set(value)) != len(value):
            raise ValueError("labels: two candidates have the same label")
        return value

    @field_validator("tie")
    @classmethod
    def _tie(cls, value: str | None) -> str | None:
        return None if value is None else _phrase(value, "tie")

    @model_validator(mode="after")
    def _tie_is_no_label(self) -> AnswerContract:
        labels = self.labels or ()
        folded = {label.casefold() for label in labels}
        if self.tie is not None and (
            self.tie in labels or (not self.case_sensitive and self.tie.casefold() in folded)
        ):
            raise ValueError(f"tie: {self.tie!r} is also a candidate's label")
        return self

    @property
    def case_sensitive(self) -> bool:
        """Labels are matched with their case when two differ only in case ("m", "M")."""
        labels = self.labels or ()
        return len({label.casefold() for label in labels}) != len(labels)

    @property
    def declared(self) -> bool:
        """The contract declares a format (not a free-text conclusion)."""
        return not isinstance(self.format, Conclusion)

    def describe(self, labels: Sequence[str]) -> str:
        """What the reader looks for, in words (for ``prin-guard prompts``); ``labels``:
        the item's, shown when the contract names none."""
        shown = self.labels or tuple(labels)
        names = ", ".join(repr(label) for label in shown)
        tie = f"; a tie is {self.tie!r}" if self.tie else ""
        where = self.format.looks_for()
        if where is None:
            return f"a conclusion in free text naming {names}{tie}"
        return f"{where}, naming {names}{tie}; else the reply's conclusion"

    def ask(self, labels: Sequence[str], count: int) -> str:
        """The instruction that asks the judge for its answer in this contract's format
        (what ends a probe's follow-up and a re-ask); ``labels``: the item's, shown when
        the contract names none; ``count``: the item's candidates."""
        return f"Reply with {self.format.ask(self.labels or labels, count, self.tie)}."
