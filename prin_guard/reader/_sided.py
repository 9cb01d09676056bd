"""Two forms of hold-out E (issue 38) read by general rules:

- a quantifier answer with its labels restated in a parenthesis ("All of the above (A, B,
  C, D).", "All of them (A, B, C and D)."): every option, when the parenthesis names
  exactly every label;
- a concluding sentence that names candidates and then gives them a side with a
  demonstrative ("The odd numbers are B, C and D, so those are the incorrect options.",
  "B and D, and these are the wrong ones.", "..., so those options are correct"), or
  in a sentence of its own after one that names them as one list ("B and D both have a
  factor of 3. These are the wrong options."; the retired vault-2's misses): the
  candidates, on the leg whose side the word gives; nothing on the other leg (the other
  question's answer)."""

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
    r"[^\S\n]*(?:those|these|they)(?:[^\S\n]+(?:options|ones|answers|choices|candidates))?"
    r"[^\S\n]+(?:are|were)[^\S\n]+(?:the[^\S\n]+)?(?P<w>[A-Za-z-]+)"
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
    if tail is None:
        return None
    sign = ctx.vocab.sign(tail.group("w"))
    if sign * ctx.leg <= 0:
        return None
    if tail.start() <= sentence_lo:  # "B and D have a factor of 3. These are the wrong ones."
        return _referred_back(text, lo, sentence_lo, tail.end(), ctx)
    copulas = list(_COPULA.finditer(text, sentence_lo, tail.start()))
    start = copulas[-1].end() if copulas else sentence_lo
    if _HEDGE.search(text, start, tail.start()):
        return None
    if copulas and _SET_APART.search(text, sentence_lo, copulas[-1].start()):
        return None  # its subject hedged ("The ones that might be prime are ..."); a
        # negation there describes them ("The values that are not falsy are B and E")
    labels = _only_labels(text, start, tail.start(), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    return _Reading(labels.labels, (start, tail.end()))


# The sentence before a demonstrative's own: its labels, one list ("B and D", "Neither B nor
# D"), and no word that hedges them or sets them apart
_BEFORE = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n]+[.!?]?[\s*_]*\Z")
_KEY = re.compile(r"(?<![\w'’-])\(?[A-Z]\)?(?![\w'’-])")
_NEITHER = re.compile(r"(?<![\w-])neither[^\S\n]+\(?[A-Z]\)?[^\S\n]+(?P<nor>nor)(?![\w-])", re.I)
_SET_APART = re.compile(
    r"(?<![\w-])(?:if|unless|maybe|perhaps|might|could|may|except|but|probably|possibly|or|so\s+does"
    r"|so\s+do|as\s+does|as\s+do|too|also|as\s+well)(?![\w-])",
    re.IGNORECASE,
)


def _referred_back(text: str, lo: int, at: int, end: int, ctx: _Context) -> _Reading | None:
    """The candidates of the sentence before ``at`` that a demonstrative sentence of its
    own gives a side ("B and D both have a factor of 3. These are the wrong options."):
    that sentence must name labels as one list and nothing else, with no word that hedges
    them or sets others beside them ("A is prime, not B.", "Maybe B and D.", "..., and so
    does 21.")."""
    before = _BEFORE.search(text, lo, at)
    if before is None:
        return None
    sentence = text[before.start() : at]
    keys = [m for m in _KEY.finditer(sentence) if m.group().strip("()") in ctx.keys]
    if not keys or _SET_APART.search(sentence):
        return None
    run = sentence
    neither = _NEITHER.search(sentence)
    if neither is not None:  # "Neither B nor D ...": a list of the two
        run = run[: neither.start("nor")] + "and" + run[neither.end("nor") :]
    labels = _only_labels(run, keys[0].start(), keys[-1].end(), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    start = before.start() + keys[0].start()
    return _Reading(labels.labels, (start, end))
