"""A heading in a side's words over a list of candidate texts, as the reply's last block:
"The incorrect ones:\\n1) Venus\\n2) Mars", "Correct options:\\n- Paris\\n- Rome", "Not
prime:\\n- 9\\n- 15". The labels' form of it ("Incorrect:\\n1) B\\n2) D") is read with the
headings; here every item must be one candidate's text, whole ("Melbourne", "Saturn (not
sure)" read nothing), and the heading must give one side (the leg's: the list is its
answer; the other leg's: the list is not this leg's answer, and nothing is read). A reply
that is nothing but such a list, no heading, is read as a list of labels alone is
(:func:`texts_alone`)."""

from __future__ import annotations

import re

from prin_guard.reader._evidence import _Context, _Reading

_HEADING = re.compile(
    r"(?:^|(?<=\n))[^\S\n]*[#*_>]*[^\S\n]*(?P<h>[A-Za-z][^\n:]{0,60}?)[^\S\n]*[*_]*:[*_]*"
    r"[^\S\n]*\n"
)
_ITEM = re.compile(r"[^\S\n]*(?:[-*•]|\d{1,2}[.)])[^\S\n]+(?P<t>[^\n]*?)[^\S\n]*(?:\n|\Z)")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
_ALLOWED = frozenset(
    {"the", "ones", "one", "options", "option", "answers", "answer", "choices", "choice",
     "are", "is", "these", "those", "here", "so", "final", "my", "list", "of", "not"}
)  # fmt: skip


def heading_over_texts(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The candidates listed by their texts under the last heading of ``text[lo:hi]``,
    when the list runs to its end and the heading is in the leg's words; else None."""
    if ctx.task != "choice" or not ctx.leg or "\n" not in text[lo:hi]:
        return None
    headings = list(_HEADING.finditer(text, lo, hi))
    if not headings:
        return None
    heading = headings[-1]
    labels: list[str] = []
    at = heading.end()
    first = at
    while at < hi and (item := _ITEM.match(text, at, hi)) is not None:
        named = ctx.texts.exact(item.group("t").strip(" \t*_`.;,"))
        if len(named) != 1:
            return None  # an item that is no candidate's text, or names it with more
        labels.extend(named)
        at = item.end()
    if not labels or text[at:hi].strip() or len(set(labels)) != len(labels):
        return None
    words = _WORD.findall(heading.group("h").lower())
    noun = ctx.vocab.noun
    allowed = _ALLOWED | ({noun, noun + "s", noun + "es"} if noun else set())
    sign = ctx.vocab.phrase_sign(words, allowed)
    if sign != ctx.leg:
        return None
    return _Reading(frozenset(labels), (first, at))


def texts_alone(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A reply that is nothing but a list of candidate texts, one an item ("- Paris\n-
    Rome", "1) Sydney\n2) Toronto"): the leg's answer as asked, as a list of labels alone
    is. Not a listing of the options: every option, or the first ones in their order
    ("1. Paris\n2. Sydney" may be a listing cut short)."""
    if ctx.task != "choice" or not ctx.leg or "\n" not in text[lo:hi].strip():
        return None
    labels: list[str] = []
    at = lo
    while at < hi and (item := _ITEM.match(text, at, hi)) is not None:
        named = ctx.texts.exact(item.group("t").strip(" \t*_`.;,"))
        if len(named) != 1:
            return None  # an item that is no candidate's text, or names it with more
        labels.extend(named)
        at = item.end()
    if len(labels) < 2 or text[at:hi].strip() or len(set(labels)) != len(labels):
        return None
    if len(labels) == len(ctx.labels) or labels == list(ctx.labels[: len(labels)]):
        return None  # a listing of the options
    return _Reading(frozenset(labels), (lo, at))
