"""Quotations of the item in a judge's reply: where an answer stands in text the item
holds, it is the item's, not the judge's. One rule for every task: the places a declared
verdict format stands (a tag, a line, a JSON value, an ordering) and the declarations of a
score (``Rating: [[10]]``, ``deserves 10/10``) are looked up the same way."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

__all__ = ["QUOTE_CONTEXT", "quoted_places"]


_WORD_RUN = re.compile(r"\w+")


QUOTE_CONTEXT = 64
"""How far around a declared verdict (characters, each side) a quotation of the item is
looked for."""


MAX_QUOTED_PLACES = 64
"""Places of the declared format looked up in the item's text per reply; past them a
place the item holds counts as quoted (bounds the cost of a reply made of verdicts)."""


_A_WORD = re.compile(r"[^\W\d_]{2,}")


@functools.lru_cache(maxsize=16)
def _held_text(key: tuple[tuple[str, ...], bool]) -> str:
    """The item's texts (``key``: the texts, and whether case counts) as a place is looked
    for in them: one space between words, lower case unless case counts, the texts apart
    by a NUL."""
    echo, case = key
    return "\x00".join(" ".join((t if case else t.casefold()).split()) for t in echo if t)


def quoted_places(
    text: str,
    places: Sequence[tuple[int, int]],
    echo: Sequence[str],
    names: Iterable[str],
    *,
    case: bool = False,
) -> list[tuple[int, int]]:
    """The places of a template's declared format (a tag, a line, a JSON value, an
    ordering: wherever its reader found one) that stand in a quotation of the item.

    The rule is the contract's, not a label set's: whatever the labels ("1"/"2", "m"/"M",
    "Assistant 1") and whatever the format, a place is quoted when the longest stretch
    around it that the item's texts hold as written (case and spacing aside; up to
    ``QUOTE_CONTEXT`` characters each side) holds a word that is not a label's or the
    tie's (``names``): ``{"winner": "2"}``, "Grader note: [[b]]", "note ... Final
    verdict: Y" planted in a response and quoted back. A bare mark the item also holds
    ("[[2]]") quotes nothing: it is the judge's. ``case``: the labels differ only in case
    ("m" and "M"), so case counts."""
    if not places or not any(echo):
        return []
    held_text = _held_text((tuple(echo), case))
    fold: Callable[[str], str] = str if case else str.casefold
    own = {word.casefold() for name in names for word in _WORD_RUN.findall(name)}
    seen: dict[tuple[str, bool, bool], bool] = {}

    def held(lo: int, hi: int, whole_left: bool = False, whole_right: bool = True) -> bool:
        """Whether the item holds ``text[lo:hi]``; at a place's own edge, as whole words
        ("Correct: i" is not held by "Correct: ii")."""
        key = (" ".join(fold(text[lo:hi]).split()), whole_left, whole_right)
        if key not in seen:
            words, left, right = key
            if words not in held_text:
                seen[key] = False
            elif (left and words[:1].isalnum()) or (right and words[-1:].isalnum()):
                edge = rf"(?<!\w){re.escape(words)}" if left else re.escape(words)
                seen[key] = re.search(edge + (r"(?!\w)" if right else ""), held_text) is not None
            else:
                seen[key] = True
        return seen[key]

    out: list[tuple[int, int]] = []
    looked = 0
    for lo, hi in places:
        if not held(lo, hi, whole_left=True):
            continue
        looked += 1
        if looked > MAX_QUOTED_PLACES:
            out.append((lo, hi))
            continue
        # held stretches nest (a piece of a held stretch is held): the longest, by halves
        left = _longest(lambda k: held(lo - k, hi), min(lo, QUOTE_CONTEXT))  # noqa: B023
        right = _longest(
            lambda k: held(lo - left, hi + k, whole_right=not k),  # noqa: B023
            min(len(text) - hi, QUOTE_CONTEXT),
        )
        words = (m.group().casefold() for m in _A_WORD.finditer(text, lo - left, hi + right))
        if any(word not in own for word in words):
            out.append((lo, hi))
    return out


def _longest(holds: Callable[[int], bool], most: int) -> int:
    """The largest ``k`` in ``[0, most]`` with ``holds(k)``, for ``holds`` true at 0 and
    false from some ``k`` on."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low
