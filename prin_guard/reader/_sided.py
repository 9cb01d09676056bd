"""Two forms of hold-out E (issue 38) read by general rules:

- a quantifier answer with its labels restated in a parenthesis ("All of the above (A, B,
  C, D).", "All of them (A, B, C and D)."): every option, when the parenthesis names
  exactly every label;
- a concluding sentence that names candidates and then gives them a side with a
  demonstrative ("The odd numbers are B, C and D, so those are the incorrect options.",
  "B and D, and these are the wrong ones."): the candidates, on the leg whose side the
  word gives; nothing on the other leg (the other question's answer)."""

from __future__ import annotations

import re

from prin_guard.reader._answers import _only_labels
from prin_guard.reader._evidence import _Context, _Reading

_ALL = re.compile(
    r"[^\S\n*_]*(?:the[^\S\n]+answer[^\S\n]+is[^\S\n]+)?all[^\S\n]+of[^\S\n]+(?:the[^\S\n]+above"
    r"|them|these|the[^\S\n]+(?:options|choices))[^\S\n]*\((?P<l>[^()\n]{1,80})\)[^\S\n*_]*[.!]?"
    r"[^\S\n*_]*",
    re.IGNORECASE,
)


def all_restated(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A one-line reply "All of the above (A, B, C, D).": every option, when the
    parenthesis names exactly every label."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _ALL.fullmatch(text, lo, hi)
    if found is None:
        return None
    labels = _only_labels(text, *found.span("l"), ctx)
    if labels is None or labels.void or set(labels.labels) != set(ctx.keys.values()):
        return None
    return _Reading(labels.labels, (lo, hi))


# the reply's last sentence: "[subject are] LABELS, so those are the incorrect options."
_LAST = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n]+[.!]?[^\S\n]*\Z")
_THOSE = re.compile(
    r"[^\S\n]*[,;—–-]?[^\S\n]*(?:(?:and[^\S\n]+)?so|which[^\S\n]+means|and|hence|thus)?[^\S\n]*,?"
    r"[^\S\n]*(?:those|these|they)[^\S\n]+(?:are|were)[^\S\n]+(?:the[^\S\n]+)?(?P<w>[A-Za-z-]+)"
    r"(?:[^\S\n]+(?:options|ones|answers|choices|candidates))?[^\S\n]*[.!]?[^\S\n]*\Z",
    re.IGNORECASE,
)
_COPULA = re.compile(r"(?<![\w-])(?:are|is|leaves|left[^\S\n]+with)[^\S\n]+", re.IGNORECASE)
_HEDGE = re.compile(
    r"(?<![\w-])(?:not|no|if|unless|maybe|perhaps|might|except|but|only|probably)(?![\w-])",
    re.IGNORECASE,
)


def then_sided(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The reply's last sentence names candidates (alone, or after its subject's "are")
    and then their side ("..., so those are the incorrect options"): the candidates on
    the leg the side's word answers; None on the other leg or with a hedge."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    end = hi
    last = _LAST.search(text, lo, end)
    if last is None:
        return None
    sentence_lo = last.start()
    while sentence_lo < end and text[sentence_lo] in " \t\n*_":
        sentence_lo += 1
    tail = _THOSE.search(text, sentence_lo, end)
    if tail is None or tail.start() <= sentence_lo:
        return None
    sign = ctx.vocab.sign(tail.group("w"))
    if sign * ctx.leg <= 0:
        return None
    head = text[sentence_lo : tail.start()]
    if _HEDGE.search(head):
        return None
    copulas = list(_COPULA.finditer(text, sentence_lo, tail.start()))
    start = copulas[-1].end() if copulas else sentence_lo
    labels = _only_labels(text, start, tail.start(), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    return _Reading(labels.labels, (start, tail.end()))
