"""The declared format: the verdict where the template's answer contract says the judge
writes it (``prin_guard._prompting._contract``), read first and strictly.

Each format reads itself (its ``read``, in ``prin_guard._prompting._contract``) with what this
module gives it: the shown labels of the leg and how a *slot* is read with them (:class:`Shown`),
the first line of a reply, its last JSON values, and the readings the formats return. A
format returns a reading in the item's labels (the shown labels mapped by position), a
void reading when the format is there but says nothing readable or says several things
(verdict tags that disagree), or None when the reply does not use the format at all (the
general reader then reads it). A slot (what a tag, a line or a JSON field holds) is read
strictly: the shown labels, separated by commas, "and", "&" or "/" (labels joined by "or"
are alternatives: void), the tie word, or "none", "neither", "both", "all". Where the
shown labels are the item's own (the bundled templates), a slot that is not strictly
readable is read as the general reader reads an answer line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

from prin_guard.reader._answers import _ASIDE, _read_answer
from prin_guard.reader._evidence import _Context, _Reading, _tie_free
from prin_guard.reader._json import json_values
from prin_guard.reader._text import _Pattern, _strip_bounds

__all__ = [
    "SLOT_STRIP",
    "VOID",
    "Places",
    "Reading",
    "Shown",
    "agreed",
    "bulleted",
    "decoded",
    "first_line",
    "read_declared",
    "read_last",
]

Reading: TypeAlias = _Reading
"""What a format reads (the reader's reading of one place)."""
Places: TypeAlias = list[tuple[int, int]]
"""Where a format stands in the reply: every tag, line or JSON value of it."""

VOID = _Reading(frozenset(), None, void=True)
SLOT_STRIP = " \t\r\n*_`\"'“”‘’.!:;()[]{}<>"
# the Oxford comma's ", and" is one separator: "(A), (C), and (D)"
_SLOT_SEP = _Pattern(r"\s*(?:,\s*(?:and|or)\b|,|;|&|/|\band\b|\bor\b)\s*", re.IGNORECASE)
_NONE_WORDS = frozenset({"none", "neither", "nothing", "no one", "n/a"})
_ALL_WORDS = frozenset({"both", "all", "all of them", "both of them"})


class _Format(Protocol):
    def read(self, text: str, shown: Shown, places: Places) -> _Reading | None: ...

    def last(self, text: str, shown: Shown) -> _Reading | None: ...


class _Contract(Protocol):
    """What this module reads of a template's answer contract (``prin_guard._prompting._contract``,
    which reads through this module: named here by what is used, so neither module
    imports the other back)."""

    @property
    def labels(self) -> tuple[str, ...] | None: ...

    @property
    def tie(self) -> str | None: ...

    @property
    def case_sensitive(self) -> bool: ...

    @property
    def format(self) -> _Format: ...


def read_declared(text: str, contract: _Contract, ctx: _Context) -> tuple[_Reading | None, Places]:
    """The reading of the contract's declared format in ``text`` (copies masked), or None
    when the reply does not use it; and where the format stands in the reply (every tag,
    line or JSON value of it), so the rest of the reply can be read apart."""
    places: Places = []
    return contract.format.read(text, Shown(contract, ctx), places), places


def read_last(text: str, contract: _Contract, ctx: _Context) -> _Reading | None:
    """The reading of :func:`read_declared`, without the places: read from the reply's end
    where the format reads its last place (a looping reply's answer line, written
    hundreds of times, is read once)."""
    return contract.format.last(text, Shown(contract, ctx))


class Shown:
    """The shown labels of one leg and how a slot is read with them."""

    def __init__(self, contract: _Contract, ctx: _Context) -> None:
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
        return self.by_label.get(self._key(token.strip(SLOT_STRIP)))

    def slot(self, text: str, lo: int, hi: int) -> _Reading | None:
        """What ``text[lo:hi]`` names (see the module's docstring)."""
        lo, hi = _strip_bounds(text, lo, _emoji_end(text, lo, hi), SLOT_STRIP)
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
                alternative = alternative or sep.group().strip(" \t\n,").casefold() == "or"
                pos = sep.end()
        return _Reading(frozenset(found), (lo, hi), void=alternative and len(found) > 1)

    def _lenient(self, text: str, lo: int, hi: int) -> _Reading | None:
        if not self.own:
            return None
        said = _read_answer(text, lo, hi, self.ctx)
        return said[1] if said is not None else None


# Marks that say a side ("B ❌"): never a decoration
_MARKS = frozenset("✓✔✗✘❌✅❎✖☑☐☒")


def _emoji_end(text: str, lo: int, hi: int) -> int:
    """``hi`` before the pictographs that close a slot ("(B) and (D) 🌎", "B, D 😊"): a
    decoration of small instruct models, not part of the answer; a mark that says a side
    ends nothing."""
    end = hi
    while end > lo and (
        text[end - 1].isspace()
        or text[end - 1] in "\u200d\ufe0f"
        or (unicodedata.category(text[end - 1]) == "So" and text[end - 1] not in _MARKS)
    ):
        end -= 1
    return end


def agreed(readings: Sequence[_Reading], shown: Shown) -> _Reading:
    """The last of several readings of one format (verdict tags), when they all say the
    same (a pair's tie however written); else a void reading: no verdict."""
    values = {_tie_free(reading, shown.ctx) for reading in readings}
    return readings[-1] if len(values) == 1 else VOID


def first_line(text: str, pos: int = 0) -> tuple[int, int] | None:
    """The first line with text from ``pos``, as offsets."""
    size = len(text)
    while pos <= size:
        end = text.find("\n", pos)
        end = size if end < 0 else end
        lo, hi = _strip_bounds(text, pos, end, SLOT_STRIP)
        if lo < hi:
            return lo, hi
        pos = end + 1
    return None


_BULLET = re.compile(r"[^\S\n]*(?:[-*•]|\d{1,3}[.)])[^\S\n]")


def bulleted(
    text: str, slot: tuple[int, int], reading: _Reading, shown: Shown
) -> tuple[_Reading | None, tuple[int, int]]:
    """The verdict under a prefix as a list of bullets, one candidate a line: every
    line's, when every bullet line that follows names one (issue 38: only the first was
    read); the first line's alone when it is no bullet."""
    start = text.rfind("\n", 0, slot[0]) + 1
    if not _BULLET.match(text, start):
        return reading, slot
    found, end, pos = set(reading.labels), slot[1], text.find("\n", slot[1])
    while pos >= 0 and (item := _BULLET.match(text, pos + 1)) is not None:
        line_end = text.find("\n", item.end())
        line_end = len(text) if line_end < 0 else line_end
        lo, hi = _strip_bounds(text, item.end(), line_end, SLOT_STRIP)
        aside = _ASIDE.search(text, lo, hi)  # "- C (Shark)"
        said = shown.slot(
            text, lo, aside.start() if aside is not None and aside.start() > lo else hi
        )
        if said is None or said.inverted or said.void:
            return None, slot  # a bullet that names no candidate: not a list of them
        found |= said.labels
        end, pos = hi, text.find("\n", line_end) if line_end < len(text) else -1
    return _Reading(frozenset(found), (slot[0], end)), (slot[0], end)


def decoded(text: str, opener: str) -> list[tuple[Any, int, int]]:
    """The last JSON (or Python literal: AlpacaEval records its rankings so) values of
    ``text`` that start with ``opener``, with their offsets, last first: the reader's one
    JSON scanner (:func:`~prin_guard.reader._json.json_values`), its bounds included."""
    return [(value, start, end) for start, end, value in json_values(text, opener, literals=True)]
