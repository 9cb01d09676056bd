"""A conclusion drawn on labels alone in a choice reply's last sentence: "Hence, B.", "Thus,
A and C.", "In conclusion: A, C.", "TL;DR: A, C, E.", "6 × 7 = 42 ∴ B", "..., which gives us
B.", "Eliminating B and D leaves A, C and E.", "Let's go with B.", "I'd circle B and D."

The words before the labels say only that the reasoning ends here; they name no side, so
the reading is the leg's answer only where nothing before it puts one of those labels on
the other side, and nothing before it concluded otherwise: the caller checks that. A
sentence that supposes, asks or denies ("If we drop A we get B", "This does not leave B")
draws nothing. On the reverse leg such words may answer the direct question (a pick
names no side): read there only where the reply's own sides say so (``_so_labels``)."""

from __future__ import annotations

import re
from dataclasses import replace

from prin_guard.reader._answers import _only_labels
from prin_guard.reader._evidence import _Context, _Reading

# Words that close a derivation at a sentence's start: "Hence,", "In conclusion:", "TL;DR:"
_CLOSING = (
    r"(?:so|thus|hence|therefore|consequently|accordingly|ultimately|finally|overall|then"
    r"|in\s+(?:conclusion|summary|short|sum|the\s+end)|to\s+(?:conclude|sum\s+up|summari[sz]e)"
    r"|tl;?\s*dr|short\s+answer|bottom\s+line|the\s+bottom\s+line)(?![\w-])"
)
# Symbols that close one anywhere: "42 ∴ B", "= 42 ⇒ answer B"
_SYMBOL = r"(?:∴|⇒|⟹|=>|→|->)"
# Verbs whose object is what the derivation arrived at, or a pick in the first person
_OBJECT = (
    r"(?:we\s+(?:get|have|obtain|arrive\s+at)|(?:we\s+are|we're|we’re)\s+left\s+with"
    r"|(?:that|this|which|it)\s+(?:gives|leaves|yields)(?:\s+us)?(?:\s+with)?"
    r"|leaves(?:\s+us\s+with)?|leaving(?:\s+us\s+with)?|(?:that|which)\s+is"
    r"|(?:let's|let’s|let\s+us|we(?:'ll|’ll|\s+will|'d|’d|\s+would)?"
    r"|I(?:'d|’d|\s+would|'ll|’ll|\s+will)?)\s+(?:go\s+with|choose|pick|select|circle|tick"
    r"|mark|check))(?![\w-])"
)
# After a closing word or symbol only: "Hence the answer: B", "⇒ answer B"
_ANSWER = r"(?:(?:the\s+)?(?:final\s+)?answer(?:\s+is)?(?![\w-]))"
_DRAWN = re.compile(
    rf"(?:(?:^|(?<=[.!?;:,\n]))[^\S\n]*{_CLOSING}[^\S\n]*[,:]?(?:[^\S\n]*(?:{_OBJECT}|{_ANSWER}))?"
    rf"|[^\S\n]{_SYMBOL}(?:[^\S\n]*(?:{_OBJECT}|{_ANSWER}))?|(?<![\w-]){_OBJECT})"
    r"[^\S\n]*:?[^\S\n]*(?P<l>[^\n.!?;:]{1,60}?)"
    r"(?P<as>[^\S\n]+as\s+(?:the\s+)?(?:correct|right|true)(?:\s+(?:ones?|answers?|options?))?)?"
    r"[^\S\n]*[.!]?[^\S\n]*\Z",
    re.IGNORECASE,
)
# What makes a sentence draw nothing: it supposes, asks, denies or rules out
_UNDRAWN = re.compile(
    r"(?<![\w-])(?:if|unless|suppose|supposing|assuming|whether|not|no|never|cannot|rule"
    r"|ruled|eliminate|exclude|except|wrong|incorrect|false)(?![\w-])|n[’']t(?![\w-])|\?",
    re.IGNORECASE,
)
_SOFT = re.compile(
    r"(?<![\w-])(?:probably|likely|perhaps|maybe|might|may|could|possibly|seems?)(?![\w-])",
    re.IGNORECASE,
)
_SENTENCE_START = re.compile(r"[.!?\n][^\S\n]*(?=[^\s.!?])")


def drawn(text: str, lo: int, hi: int, ctx: _Context) -> tuple[_Reading, int] | None:
    """The labels the reply's last sentence draws its conclusion on, and where the words
    that draw it start (the caller reads what comes before them for sides); None when the
    last sentence is no such conclusion."""
    if ctx.task != "choice" or ctx.leg == -1:
        return None  # on the reverse leg, words that name no side may answer the direct one
    found = _DRAWN.search(text, lo, hi)
    if found is None:
        return None
    listed = _only_labels(text, found.start("l"), found.end("l"), ctx)
    if listed is None or not listed.labels or listed.void or listed.inverted:
        return None
    start = lo
    for stop in _SENTENCE_START.finditer(text, lo, found.start("l")):
        start = stop.end()
    sentence = text[start : found.start("l")]
    if _UNDRAWN.search(sentence):
        return None
    if _SOFT.search(sentence):
        listed = replace(listed, weak=True)
    return listed, found.start()


# The last value a derivation arrives at: "6 × 7 = 42", "… = 42."
_ARRIVED = re.compile(
    r"=[^\S\n]*(?P<v>-?\d+(?:[.,]\d+)?(?:[^\S\n]*[A-Za-z/%°]+)?)[^\S\n]*[.,;]?[^\S\n]*\Z"
)


def arrived_at(text: str, lo: int, hi: int, ctx: _Context) -> frozenset[str]:
    """The candidate whose text is exactly the value ``text[lo:hi]`` ends on after an
    equals sign ("6 × 7 = 42" and the option "42"), as a set of one; empty when none or
    more than one is."""
    found = _ARRIVED.search(text, lo, hi)
    if found is None:
        return frozenset()
    value = found.group("v").replace(" ", "").casefold()
    same = {
        label
        for label, written in ctx.texts.pairs()
        if written.replace(" ", "").casefold() == value
    }
    return frozenset(same) if len(same) == 1 else frozenset()


def names_any(text: str, labels: frozenset[str], ctx: _Context) -> bool:
    """Whether ``text`` names one of ``labels``, by the label ("B", "(B)") or by its
    candidate's text ("sharks" for "Shark")."""
    texts = dict(ctx.texts.pairs())
    for label in labels:
        if re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", text):
            return True
        written = texts.get(label, "").strip()
        if written and re.search(
            rf"(?<![\w-]){re.escape(written)}(?:e?s)?(?![\w-])", text, re.IGNORECASE
        ):
            return True
    return False
