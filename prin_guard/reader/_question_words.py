"""A last sentence that names the options by the question's own words, where the question
has no predicate word to read them by (its verb asks: "Which of these values equal
3/4?"): "The options not equal to 0.75 are C (0.7) and D (about 0.667)." answers the
reverse question, "The values equal to 3/4 are A and B." the direct one. Every word of
the phrase must be the question's ("equal", "to", "0.75" of "... equal 0.75?"), so a
phrase of the reply's own ("The options I doubt are B and C.") reads nothing."""

from __future__ import annotations

import re

from prin_guard.reader._answers import _only_labels, _with_note
from prin_guard.reader._evidence import _Context, _Reading

_CLAIM = re.compile(
    r"[^\S\n*_]*(?:(?:so|thus|therefore|hence)\s*,?\s+)?the\s+(?P<n>[a-z]+)\s+"
    r"(?:(?:that|which)\s+(?:are\s+|is\s+|do\s+|does\s+)?)?"
    r"(?P<not>not\s+|do\s+not\s+|don[’']t\s+|does\s+not\s+|doesn[’']t\s+)?"
    r"(?P<p>(?:[^.!?\n]|(?<=\d)\.(?=\d)){2,60}?)\s+(?:are|is)\s+(?P<l>[^!?\n]{1,80}?)[^\S\n*_]*[.!]?[^\S\n*_]*",
    re.IGNORECASE,
)
_NOUNS = frozenset({"option", "options", "choice", "choices", "value", "values", "ones",
                    "answer", "answers", "candidates"})  # fmt: skip
_TOKEN = re.compile(r"[a-z]+|\d+(?:[./]\d+)?%?", re.IGNORECASE)
# the question's own negation: its phrase is no side of the direct question's own
_NEGATIVE = frozenset({"not", "no", "never", "incorrect", "false", "wrong", "except"})
_SMALL = frozenset({"to", "of", "the", "a", "an", "by", "than", "as", "with"})


def in_question_words(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The labels the last sentence of ``text[lo:hi]`` names as the options with (or
    without) the question's own phrase, on the leg that side answers; else None."""
    question = ctx.vocab.question
    if ctx.task != "choice" or not ctx.leg or ctx.vocab.predicate or not question:
        return None
    start = max(text.rfind(mark, lo, hi) for mark in (". ", "\n", "! ")) + 1
    start = max(start, lo)
    said = _CLAIM.fullmatch(text, start, hi)
    if said is None:
        return None
    asked = {token.lower() for token in _TOKEN.findall(question)}
    if asked & _NEGATIVE:
        return None
    noun = said.group("n").lower()
    own = ctx.vocab.noun
    if noun not in _NOUNS and not (own and noun in {own + "s", own + "es"}):
        return None
    words = [token.lower() for token in _TOKEN.findall(said.group("p"))]
    content = [word for word in words if word not in _SMALL]
    if not content or not set(words) <= asked | _SMALL:
        return None
    sign = -1 if said.group("not") else 1
    if sign != ctx.leg:
        return None
    lo_l, hi_l = said.span("l")
    listed = _only_labels(text, lo_l, hi_l, ctx) or _with_note(text, lo_l, hi_l, ctx)
    if listed is None and "(" in text[lo_l:hi_l]:
        blanked = _values_blanked(text, lo_l, hi_l, ctx)
        listed = None if blanked is None else _only_labels(blanked, lo_l, hi_l, ctx)
    return listed


_VALUE = re.compile(r"(?P<l>\b[A-Z])[^\S\n]*\((?P<v>[^()\n]{1,40})\)")


def _values_blanked(text: str, lo: int, hi: int, ctx: _Context) -> str | None:
    """``text`` with a value in brackets after each label of ``text[lo:hi]`` written over
    by spaces ("C (0.7) and D (about 0.667)"); None when a bracket holds another
    candidate's text or label ("C (0.75)" where 0.75 is A's)."""
    out = list(text)
    for found in _VALUE.finditer(text, lo, hi):
        label = ctx.keys.get(found.group("l"))
        inner = found.group("v").strip()
        named = ctx.texts.exact(inner) | ({ctx.keys[inner]} if inner in ctx.keys else set())
        if label is None or named - {label}:
            return None
        for at in range(found.start("v") - 1, found.end()):
            out[at] = " "
    return "".join(out)
