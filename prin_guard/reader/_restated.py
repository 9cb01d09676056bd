"""Answers a choice reply writes twice or with one word of scope (issue 38, set C's
phrasings): the same candidates by their texts and by their labels across a dash, an
arrow or a parenthesis ("Red, green and blue — A, C, D", "RGB → red, green, blue → A, C,
D", "B and E (yellow, purple)"), and labels with "only" or "alone" ("B alone.", "Only B
fits: ...")."""

from __future__ import annotations

import re
from dataclasses import replace

from prin_guard.reader._answers import _TEXT_SEP, _only_labels, _texts_list
from prin_guard.reader._evidence import _Context, _Reading
from prin_guard.reader._text import _Pattern

# The last dash or arrow of a line: what stands before it, restated after it
_RESTATE = _Pattern(r"[^\S\n]*(?:—|–|[^\S\n]-{1,2}[^\S\n]|→|->|=>|⇒)[^\S\n]*")
# Words that give a side, negate, limit or hedge: a restatement holds none of them
_SIDED = _Pattern(
    r"(?<![\w-])(?:not|no|never|neither|nor|none|except|but|only|if|unless|maybe|perhaps"
    r"|might|probably|\w+n[’']t)(?![\w-])",
    re.IGNORECASE,
)
_WORD = _Pattern(r"[A-Za-z]+")
_TRAIL = " \t.!*_`"
_LONGEST = 300


def restated(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A one-line reply that names the same candidates by their texts and by their labels
    across its last dash or arrow ("Red, green and blue — A, C, D"), or with the texts in
    a closing parenthesis ("B and E (yellow, purple)."): the labels, when the texts name
    exactly them and nothing on the line gives a side, negates or hedges."""
    if ctx.task != "choice" or not ctx.leg or hi - lo > _LONGEST or "\n" in text[lo:hi]:
        return None
    end = hi
    while end > lo and text[end - 1] in _TRAIL:
        end -= 1
    line = text[lo:end]
    if _SIDED.search(line) or any(ctx.vocab.sign(w.group()) for w in _WORD.finditer(line)):
        return None
    if line.endswith(")") and (open_at := line.rfind("(")) > 0:
        labels = _only_labels(text, lo, lo + open_at, ctx)
        inner = lo + open_at + 1, end - 1
        named = _texts_list(text, *inner, ctx)
        if labels is None or labels.void or named is None or named[1] < inner[1]:
            return None
        return labels if named[0].labels == labels.labels else None
    marks = list(_RESTATE.finditer(text, lo, end))
    if not marks:
        return None
    mark = marks[-1]
    labels = _only_labels(text, mark.end(), end, ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    before = text[lo : mark.start()]
    if labels.labels != ctx.texts.inside(before) or ctx.keys.keys() & {
        w.group() for w in _WORD.finditer(before)
    }:
        return None  # the texts before name others, or labels stand there too
    return labels


# "B alone.", "Only B fits: ...", "Just A and C.": the labels, limited to themselves
_ALONE = _Pattern(
    r"[^\S\n*_]*(?:(?P<only>only|just)[^\S\n]+(?P<a>[^\n.:;!?—–]{1,40}?)(?:[^\S\n]+(?P<verb>fits?"
    r"|qualif(?:y|ies)|holds?|works?|appl(?:y|ies)|counts?|belongs?))?"
    r"|(?P<b>[^\n.:;!?—–]{1,40}?)[^\S\n]+(?:alone|only))[^\S\n*_]*(?P<end>[.:;!—–]|\Z)",
    re.IGNORECASE,
)
_LABEL_WORD = _Pattern(r"(?<![A-Za-z0-9])[A-Z](?![A-Za-z0-9])")


def alone(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that opens with labels limited by "only", "just" or "alone" ("B
    alone.", "Only B fits: the war ended in 1945."), and names no label after it: the
    leg's answer; with a verb that gives the direct side ("fits", "qualifies"), only on
    the direct leg."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _ALONE.match(text, lo, hi)
    if found is None:
        return None
    group = "a" if found.group("a") is not None else "b"
    labels = _only_labels(text, found.start(group), found.end(group), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    if found.group("verb") and ctx.leg != 1:
        return None  # "Only B fits" on the reverse leg: the other question's answer
    if found.group("only") is None and found.group("end") in ":;" and found.end() < hi:
        return None
    for word in _LABEL_WORD.finditer(text, found.end(), hi):
        if word.group() in ctx.keys:
            return None  # more labels after it: not the reply's one answer
    return labels


# "It's B.", "I'm 90% sure it's B.", "I think it is A and C.": the whole reply
_ITS = _Pattern(
    r"[^\S\n*_]*(?P<hedge>(?:I(?:'m|’m|\s+am)\s+(?:(?:\d{1,3}\s*%|fairly|pretty|quite|very"
    r"|reasonably)\s+)?(?:sure|certain|confident)(?:\s+that)?|I\s+(?:think|believe|reckon)"
    r"(?:\s+that)?)\s*,?\s+)?it(?:'s|’s|\s+is|\s+must\s+be|\s+should\s+be)\s+"
    r"(?P<l>[^\n.!?;:]{1,40}?)[^\S\n*_]*[.!]?[^\S\n*_]*",
    re.IGNORECASE,
)
_SURE = _Pattern(r"I(?:'m|’m|\s+am)\s+(?:sure|certain)", re.IGNORECASE)


def its(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that is one sentence, "it's" and labels ("It's B.", "I'm 90% sure
    it's B."): the leg's answer; weak after a hedge short of certainty."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _ITS.fullmatch(text, lo, hi)
    if found is None:
        return None
    labels = _only_labels(text, found.start("l"), found.end("l"), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    hedge = found.group("hedge")
    if hedge and not _SURE.fullmatch(hedge.strip()):
        labels = _Reading(labels.labels, labels.span, weak=True)
    return labels


# "Neither 1943 nor 1947 nor 1950 is right.", "Neither A nor C is correct": every one named
# on the side opposite the word's
_NEITHER = _Pattern(
    r"[^\S\n*_]*neither\s+(?P<names>[^\n.!?;:]{1,200}?)\s+(?:is|are)\s+(?:(?:an?|the)\s+)?"
    r"(?P<w>[A-Za-z]+)[^\S\n*_]*[.!]?[^\S\n*_]*",
    re.IGNORECASE,
)
_NOR = _Pattern(r"\s+nor\s+", re.IGNORECASE)
_ARTICLE_HEAD = _Pattern(r"(?:the|an?)\s+", re.IGNORECASE)


def _one(part: str, ctx: _Context) -> str | None:
    """The candidate a part names by its label or its whole text (an article before)."""
    part = part.strip(" \t*_`\"'()")
    if len(part) <= 4 and part.isupper() and part in ctx.keys:
        return ctx.keys[part]
    named = ctx.texts.exact(part) or ctx.texts.exact(_ARTICLE_HEAD.compiled.sub("", part, count=1))
    return next(iter(named)) if len(named) == 1 else None


def neither_nor(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that is one sentence, "Neither X nor Y [nor Z] is STATUS", STATUS a
    word of either side ("right", "wrong", the question's predicate): every one named has
    the other side; the leg's answer when that is the leg's side."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _NEITHER.fullmatch(text, lo, hi)
    if found is None:
        return None
    sign = ctx.vocab.sign(found.group("w"))
    if not sign or -sign != ctx.leg:
        return None
    parts = _NOR.compiled.split(found.group("names"))
    named = [_one(part, ctx) for part in parts]
    if len(parts) < 2 or any(label is None for label in named):
        return None
    return _Reading(frozenset(label for label in named if label is not None), found.span("names"))


# "B is the only one that doesn't fit.", "vector is the only one that isn't a builtin":
# the one named on one side, every other on the other
_ONLY_ONE = _Pattern(
    r"[^\S\n*_]*(?P<name>[^\n.!?;:]{1,80}?)\s+is\s+the\s+only\s+(?:one|option|choice)\s+"
    r"(?:that|which)\s+(?:(?P<vneg>doesn[’']t|does\s+not)\s+)?(?P<verb>fits?|belongs?"
    r"|qualif(?:y|ies)|holds?|works?|appl(?:y|ies)|counts?)(?![\w-])",
    re.IGNORECASE,
)


def only_one(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that opens "X is the only one that (doesn't) fit(s)": X on one
    side, every other candidate on the other; the leg's side read, and no other label
    named after it."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _ONLY_ONE.match(text, lo, hi)
    if found is None:
        return None
    label = _one(found.group("name"), ctx)
    if label is None:
        return None
    for word in _LABEL_WORD.finditer(text, found.end(), hi):
        if word.group() in ctx.keys:
            return None
    sign = -1 if found.group("vneg") else 1
    said = {label} if sign == ctx.leg else set(ctx.labels) - {label}
    return _Reading(frozenset(said), found.span("name"))


# "B and D are the odd ones out; the rest qualify.", "Mars is the exception, all the
# others are correct": the named on one side, the rest said to be on the other
_ODD_OUT = _Pattern(
    r"[^\S\n*_]*(?P<names>[^\n.!?;:]{1,120}?)\s+(?:is|are)\s+the\s+(?:odd\s+ones?\s+out"
    r"|exceptions?|outliers?)\s*(?:[;,.:—–]\s*|\s-\s)(?:and\s+|so\s+)?(?:all\s+)?(?:the\s+)?"
    r"(?:rest|others|other\s+(?:ones|options|choices))(?:\s+of\s+them)?\s+(?:(?P<verb>qualify"
    r"|fit|belong|hold|count|apply|work)|(?:are|do)\s+(?P<adj>[A-Za-z]+))[^\S\n*_]*[.!]?"
    r"[^\S\n*_]*",
    re.IGNORECASE,
)
_JOIN = _Pattern(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|&)\s*", re.IGNORECASE)


def odd_out(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that is one sentence naming the odd ones out (the exception) and
    giving the rest a side in so many words ("B and D are the odd ones out; the rest
    qualify."): the rest on that side, the named on the other, every candidate a side."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    found = _ODD_OUT.fullmatch(text, lo, hi)
    if found is None:
        return None
    sign = 1 if found.group("verb") else ctx.vocab.sign(found.group("adj"))
    if not sign:
        return None
    parts = _JOIN.compiled.split(found.group("names"))
    named = {_one(part, ctx) for part in parts}
    if None in named or not named:
        return None
    odd = frozenset(label for label in named if label is not None)
    rest = frozenset(ctx.labels) - odd
    return _Reading(rest if sign == ctx.leg else odd, found.span("names"))


# "there are no incorrect options", "no option is wrong": the reply's last clause ("none of
# them is incorrect" is read by the reader's none words)
_NO_STATUS = _Pattern(
    r"(?:^|(?<=[.!?;:,\n]))[^\S\n*_]*(?:(?:so|thus|hence|therefore)\s*,?\s+)?(?:there\s+(?:are|is)"
    r"\s+no\s+(?P<a>[A-Za-z]+)\s+(?:options?|choices?|answers?|ones?)|no\s+(?:options?|choices?"
    r"|answers?)\s+(?:is|are)\s+(?P<b>[A-Za-z]+))[^\S\n*_]*[.!]?[^\S\n*_]*\Z",
    re.IGNORECASE | re.MULTILINE,
)


def no_status(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply whose last clause says no option has the leg's status ("All five
    are prime, so there are no incorrect options." on the reverse leg): the leg's none.
    Not the other side's none ("no option is correct" on the reverse leg)."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    start = max(lo, hi - _NONE_WINDOW)
    found = _NO_STATUS.search(text[:hi], start)
    if found is None:
        return None
    word = found.group("a") or found.group("b")
    if ctx.vocab.sign(word) != ctx.leg:
        return None
    for label in _LABEL_WORD.finditer(text, lo, hi):
        if label.group() in ctx.keys:
            return None  # labels named: an answer of its own, read elsewhere
    return _Reading(frozenset(), found.span())


_NONE_WINDOW = 200


# "strike A, C and D", "so cross out B": the reply's last clause rejects the labels
_STRIKE = _Pattern(
    r"(?:^|(?<=[.!?;:,\n]))[^\S\n*_]*(?:(?:so|thus|hence|therefore|then)\s*,?\s+)?(?:strike"
    r"|cross\s+(?:out|off)|reject|discard)\s+(?:(?:options?|choices?)\s+)?"
    r"(?P<l>[^\n.!?;:]{1,60}?)[^\S\n*_]*[.!]?[^\S\n*_]*\Z",
    re.IGNORECASE | re.MULTILINE,
)


def struck(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply whose last clause strikes labels out ("Only Austen wrote it, so
    strike A, C and D."): the wrong ones, the reverse leg's answer (no answer of the
    direct leg: it says not which are right)."""
    if ctx.task != "choice" or ctx.leg != -1:
        return None
    found = _STRIKE.search(text[:hi], max(lo, hi - _NONE_WINDOW))
    if found is None:
        return None
    labels = _only_labels(text, found.start("l"), found.end("l"), ctx)
    if labels is None or labels.void or not labels.labels:
        return None
    return labels


# "B (100 °C).", "German, French and Italian: A, B and D.": labels glossed by their texts
_GLOSS_AFTER = _Pattern(r"(?P<l>[^()\n]{1,60}?)[^\S\n]*\((?P<t>[^()\n]{1,200})\)[.!]?")
_GLOSS_BEFORE = _Pattern(r"(?P<t>[^:\n]{1,200}?)[^\S\n]*:[^\S\n]*(?P<l>[^:\n]{1,60}?)[.!]?")


def _glossing(text: str, lo: int, hi: int, ctx: _Context) -> set[str] | None:
    """The candidates ``text[lo:hi]`` names as a list of their exact texts ("German,
    French and Italian", "100 °C"); None unless every piece names exactly one."""
    named: set[str] = set()
    pos = lo
    for sep in [*_TEXT_SEP.finditer(text, lo, hi), None]:
        end = sep.start() if sep is not None else hi
        if sep is not None and sep.start() == sep.end():
            continue
        piece = text[pos:end]
        if (article := _ARTICLE_HEAD.compiled.match(piece)) is not None:
            piece = piece[article.end() :]
        found = ctx.texts.exact(piece)
        if len(found) != 1:
            return None
        named |= found
        pos = sep.end() if sep is not None else hi
    return named


def glossed(text: str, lo: int, hi: int, ctx: _Context) -> tuple[bool, _Reading | None]:
    """A one-line reply of labels glossed by their candidates' texts, in a closing
    parenthesis or before a colon ("B (100 °C).", "German, French and Italian: A, B and
    D."): whether it is one, and the labels when the texts name exactly them (a gloss
    naming other candidates, "B (13)." of B 12 and C 13, reads nothing)."""
    if ctx.task != "choice" or not ctx.leg or hi - lo > _LONGEST or "\n" in text[lo:hi]:
        return False, None
    for pattern in (_GLOSS_AFTER, _GLOSS_BEFORE):
        found = pattern.compiled.fullmatch(text, lo, hi)
        if found is None:
            continue
        named = _glossing(text, *found.span("t"), ctx)
        labels = _only_labels(text, *found.span("l"), ctx)
        if named is None or labels is None or labels.void or labels.inverted or not labels.labels:
            continue
        return True, labels if labels.labels == frozenset(named) else None
    return False, None


# Where a reply's first sentence ends, and where its last one starts
_SENTENCE_STOP = _Pattern(r"[.!](?=\s)|\n")
_BOOKEND_SPAN = 600


def bookended(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that opens and closes on the same labels alone, its doubt between
    ("C. Hmm, or D? 7·9 = 63, plus 3 is 66, too big. C."): the labels, said twice with
    nothing that revises them. A mention between (D) is the concluding part's to
    account for. On the reverse leg it reads weak: labels alone say not which question
    the reasoning between answered ("B. 12 × 12 = 144. B.")."""
    if ctx.task != "choice" or not ctx.leg or hi - lo > _BOOKEND_SPAN:
        return None
    first = _SENTENCE_STOP.search(text, lo, hi)
    if first is None:
        return None
    opening = _only_labels(text, lo, first.start(), ctx)
    last = lo
    for stop in _SENTENCE_STOP.finditer(text, lo, max(lo, hi - 1)):
        last = stop.end()
    if opening is None or last <= first.end() or not opening.labels or opening.void:
        return None
    closing = _only_labels(text, last, hi, ctx)
    if closing is None or closing.void or closing.inverted or opening.inverted:
        return None
    if closing.labels != opening.labels:
        return None
    # on the reverse leg the reasoning between may be the direct question's: weak
    return replace(closing, weak=True) if ctx.leg < 0 else closing
