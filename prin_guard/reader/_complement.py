"""A reply that gives one side to the candidates it names and the other side to "the
rest": "A and C are capitals; the rest are not.", "B is correct, so the incorrect ones are
the rest.", "Copper and zinc are metals; the other two are nonmetals.", "A, C and E are
mammals, leaving B and D.". Every candidate has a side, so either leg reads: the direct leg
the side of the question, the reverse leg the other. Read only where the statement ends
the reply; a "rest" that names its candidates ("the rest, B and D,") must name the
complement, else the leg fails."""

from __future__ import annotations

import functools
import re

from prin_guard.models import ParseMethod
from prin_guard.reader._evidence import _FAILED, ParseResult, _Context, _Reading
from prin_guard.reader._resolve import _result

_SEP = r"(?:[^\S\n]*(?:,|&|/|\band\b)[^\S\n]*(?:and[^\S\n]+)?|[^\S\n]+)"
_ASIDE = r"(?:[^\S\n]*\([^()\n]{0,40}\))?"
_LABELS = rf"(?<![\w-])[A-Z](?![\w-]){_ASIDE}(?:{_SEP}[A-Z](?![\w-]){_ASIDE})*"
_NOUN = r"(?:ones?|options?|answers?|choices?|statements?)"
_REST = (
    r"(?:all[^\S\n]+)?(?:the[^\S\n]+)?(?:rest|others|remaining(?:[^\S\n]+" + _NOUN + r")?"
    r"|other[^\S\n]+(?:\w+[^\S\n]+)?" + _NOUN + r"|other[^\S\n]+(?:two|three|four|five|ones)"
    r"|everything[^\S\n]+else|every[^\S\n]+other[^\S\n]+" + _NOUN + r")"
)
_BE = r"(?:are|is|were|am|'re)"
_NOT = r"(?:not|n't|aren't|isn't|never)"
# "A and C are capitals" / "Only copper and zinc are metals" / "B is correct"
_NAMED = (
    rf"(?:only[^\S\n]+)?(?P<named>{_LABELS})[^\S\n]+(?:{_BE}[^\S\n]+)(?:both[^\S\n]+|all[^\S\n]+)?"
    rf"(?P<first>(?:{_NOT}[^\S\n]+)?(?:the[^\S\n]+)?(?:only[^\S\n]+)?[\w-]+(?:[^\S\n]+[\w-]+)?)"
    rf"|the[^\S\n]+(?:only[^\S\n]+)?(?P<first2>[\w-]+)[^\S\n]+(?:{_NOUN}[^\S\n]+)?{_BE}"
    rf"[^\S\n]+(?P<named2>{_LABELS})"
)
_JOIN = (
    r"[^\S\n]*(?:[;,:.]|[—–-])?[^\S\n]*(?:(?:so|and|thus|hence|therefore|which[^\S\n]+means)"
    r"[^\S\n]*,?[^\S\n]*)?"
)
# "the rest are not", "the other two aren't", "the rest (B, D) are wrong", "the rest, B and
# D, are wrong", "the incorrect ones are the rest", "everything else is wrong"
_OTHERS = (
    rf"(?:{_REST}(?:[^\S\n]*\((?P<echo>{_LABELS})\)|[^\S\n]*,[^\S\n]*(?P<echo2>{_LABELS})"
    rf"[^\S\n]*,|[^\S\n]*[—–-][^\S\n]*(?P<echo3>{_LABELS})[^\S\n]*[—–-])?"
    rf"(?:[^\S\n]+{_BE})?(?:[^\S\n]+|(?=n't))(?P<second>(?:{_NOT}[^\S\n]*)?(?:[\w-]+)?)"
    rf"|the[^\S\n]+(?P<second2>[\w-]+)[^\S\n]+{_NOUN}[^\S\n]+{_BE}[^\S\n]+{_REST}"
    rf"|(?:leaving|which[^\S\n]+leaves|that[^\S\n]+leaves)[^\S\n]+(?P<left>{_LABELS})"
    rf"(?:[^\S\n]+as[^\S\n]+the[^\S\n]+(?P<second3>[\w-]+)(?:[^\S\n]+{_NOUN})?)?)"
)
_COMPLEMENT = re.compile(
    rf"(?:^|(?<=[.!;:\n])[^\S\n]*|(?<=\bso[^\S\n]))(?:{_NAMED}){_JOIN}(?:{_OTHERS})"
    r"[^\S\n]*[.!]?[^\S\n]*$",
    re.IGNORECASE,
)
_TAIL = 400
_SAME = frozenset({"either", "neither", "too", "also", "same"})
_TOKEN = re.compile(r"[\w'-]+")
# What a reply must say for the rule to look further (texts are indexed only then).
_CUE = re.compile(r"\b(?:rest|others?|remaining|else|leav(?:es|ing))\b", re.IGNORECASE)
_LABEL = re.compile(r"(?<![\w-])[A-Z](?![\w-])")
_ASIDES = re.compile(r"\([^()\n]*\)")


def _texts_as_labels(text: str, lo: int, ctx: _Context) -> str:
    """``text`` with each candidate's text from ``lo`` on written over by its label (the
    same length: offsets hold), so that "Copper and zinc are metals" reads as "A and C are
    metals"; texts that hold a label's letter alone, or one another, are left."""
    pairs = [(label, given.strip()) for label, given in ctx.texts.pairs()]
    if not pairs or any(
        not given
        or _LABEL.fullmatch(given)
        or any(given.casefold() in other.casefold() for _, other in pairs if other != given)
        for _, given in pairs
    ):
        return text
    pattern = _texts_pattern(tuple(given for _, given in pairs))
    labels = {given.casefold(): label for label, given in pairs}
    return text[:lo] + pattern.sub(
        lambda m: labels[m.group().casefold()].ljust(len(m.group())), text[lo:]
    )


@functools.lru_cache(maxsize=64)
def _texts_pattern(texts: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for an item's candidate texts, each whole (not inside a word or a
    number), compiled once per item."""
    return re.compile(
        r"(?<![\w.])(?:" + "|".join(re.escape(given) for given in texts) + r")(?![\w]|\.\d)",
        re.IGNORECASE,
    )


def _labels(span: str | None, ctx: _Context) -> frozenset[str] | None:
    """The labels a run names (asides aside), or None when one is not the item's."""
    if span is None:
        return None
    found = _LABEL.findall(_ASIDES.sub(" ", span))
    if not found or any(label not in ctx.keys for label in found):
        return None
    return frozenset(found)


def _sign(words: str | None, ctx: _Context) -> int:
    """The side a short phrase gives ("capitals" +1, "not capitals" -1, "nonmetals" -1,
    "wrong" -1); 0 when it names none, or both."""
    if words is None:
        return 0
    tokens = _TOKEN.findall(words.lower())
    if _SAME & set(tokens):
        return 0  # "the others are not either": the same side as the first, not the other
    negated = any(t in ("not", "never") or t.endswith("n't") for t in tokens)
    signs = {ctx.vocab.sign(t) for t in tokens if t not in ("the", "only")} - {0}
    if len(signs) != 1:
        if negated and not signs:
            return -1  # "the rest are not"
        return 0
    sign = signs.pop()
    return -sign if negated else sign


def read_complement(text: str, ctx: _Context) -> ParseResult | None:
    """The leg's reading of a reply that ends on a side for the candidates it names and
    the other side for the rest; None when it does not end so. Asked only where the
    reader's other forms read no label ("A, C, E are mammals, leaving B and D." is no
    "none")."""
    if ctx.task != "choice" or not ctx.leg or len(ctx.labels) < 3:
        return None
    lo = max(0, len(text) - _TAIL)
    if _CUE.search(text, lo) is None:
        return None
    found = _COMPLEMENT.search(text, lo)
    if found is None:  # "Copper and zinc are metals; the rest are not."
        text = _texts_as_labels(text, lo, ctx)
        found = _COMPLEMENT.search(text, lo)
    if found is None:
        return None
    named = _labels(found.group("named") or found.group("named2"), ctx)
    if named is None or len(named) >= len(ctx.labels):
        return None
    first = _sign(found.group("first") or found.group("first2"), ctx)
    if first == 0:
        return None
    rest = frozenset(ctx.labels) - named
    if found.group("left") is not None:
        left = _labels(found.group("left"), ctx)
        second = -first if found.group("second3") is None else _sign(found.group("second3"), ctx)
        if left != rest:
            return _FAILED if left is not None else None
    else:
        second = _sign(found.group("second") or found.group("second2"), ctx)
        echo = found.group("echo") or found.group("echo2") or found.group("echo3")
        if echo is not None and _labels(echo, ctx) != rest:
            return _FAILED  # "the rest (B) are wrong" of B, D and E
    if second != -first:
        return None
    # the whole statement: its first half accounts for the candidates it names
    said = named if first == ctx.leg else rest
    span = (found.start(), found.end())
    reading = _Reading(said, span)
    return _result(reading, ParseMethod.LABEL_FORMS, ctx)
