"""A leg's own word defined back, then its answer (issue 38, round 5; the PRIN paper's
negation explanation, "incorrect options are simply the options different from the
correct ones", restated by the judge).

"Incorrect here means the options that are not capitals, so B and D." says which side
its labels are on in so many words: the defined word's. The definition must agree with
the question's predicate when it names it ("Incorrect here means the animals that are
mammals, so A and C." contradicts itself: nothing is read), and the labels must end the
reply in the definition's own sentence: a conclusion after other statements ("...
Whales and bats are mammals, so A and C.") is not the definition's.
"""

from __future__ import annotations

import re

from prin_guard.reader._answers import _only_labels
from prin_guard.reader._evidence import _Context, _Reading
from prin_guard.reader._restated import glossed
from prin_guard.reader._text import _NOUN, _Pattern
from prin_guard.reader._vocab import predicate_source
from prin_guard.tasks._words import TASK_WORDS

_SIGNS = {
    **dict.fromkeys(TASK_WORDS["choice"].positive, 1),
    **dict.fromkeys(TASK_WORDS["choice"].negative, -1),
}
# "Incorrect here means the options that are not capitals, so", "'Incorrect' means not a
# mammal:", "The incorrect ones are the animals that aren't mammals, so", "Since
# incorrect means ..., ", "Incorrect options are those that are not prime, so"
_DEFINED = _Pattern(
    r"(?:^|(?<=[.!?])\s+|(?<=\n))[^\S\n]*(?:(?:since|as|here|because)\s*,?\s+)?(?:the\s+)?"
    r"['\"‘“]?(?P<w>[A-Za-z]+)['\"’”]?"
    rf"(?:\s+{_NOUN})?(?:\s+(?:here|in\s+this\s+(?:question|case|context)))?\s+"
    r"(?P<verb>means?|refers?\s+to|are|is)\s+(?:simply\s+|just\s+)?"
    r"(?P<clause>[^.;:!?\n]{1,160}?)"
    r"(?:,?\s+(?:so|thus|hence|therefore|that\s+is|i\.e\.)\s*,?\s*|\s*[:—–]\s*|,\s+)"
    r"(?P<tail>[^.;!?\n]{1,120}?)\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
# What makes the clause a definition rather than a list: a relative or a negation
_DEFINING = _Pattern(
    r"(?<![\w-])(?:that|which|who|those|not|no|n[’']t|different|other\s+than)(?![\w-])|n[’']t",
    re.IGNORECASE,
)
_NEGATION = _Pattern(r"(?<![\w-])(?:not|no|never)(?![\w-])|n[’']t", re.IGNORECASE)
_HEDGE = _Pattern(
    r"(?<![\w-])(?:if|whether|maybe|perhaps|might|unless|unsure|doubt\w*)(?![\w-])", re.IGNORECASE
)


# The definition alone, as a sentence before its answer: "Incorrect here means the
# numbers that are not perfect squares."
_DEFINITION = _Pattern(
    r"(?:^|(?<=[.!?])\s+|(?<=\n))[^\S\n]*(?:(?:since|as|here|because)\s*,?\s+)?(?:the\s+)?"
    r"['\"‘“]?(?P<w>[A-Za-z]+)['\"’”]?"
    rf"(?:\s+{_NOUN})?(?:\s+(?:here|in\s+this\s+(?:question|case|context)))?\s+"
    r"(?:means?|refers?\s+to)\s+(?:simply\s+|just\s+)?(?P<clause>[^.;:!?\n]{1,160}?)\s*\."
    r"(?P<next>[^.;!?\n]{1,160}?)\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
# Its answer, the candidates it said have not the predicate: "150 and 200 are not: B and
# E.", "Lyon and Milan aren't, so B and D."
_NOT_THEY = _Pattern(
    r"\s*(?P<s>[^:]{1,120}?)\s+(?:(?:is|are)\s+not|isn[’']t|aren[’']t)\s*"
    r"(?:,?\s*(?:so|thus|hence|therefore)\s*,?\s*|:\s*)(?P<l>[^:]{1,60}?)\s*",
    re.IGNORECASE,
)


def _then_denied(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A definition in the leg's word of what has not a property, then, in the reply's
    last sentence, the candidates that have it not by their texts and labels
    ("Incorrect here means the numbers that are not perfect squares. 150 and 200 are
    not: B and E.")."""
    found = _DEFINITION.compiled.search(text, lo, hi)
    if found is None or _SIGNS.get(found.group("w").lower()) != ctx.leg:
        return None
    clause = found.group("clause")
    if not _NEGATION.compiled.search(clause) or _HEDGE.compiled.search(found.group()):
        return None
    said = _NOT_THEY.compiled.fullmatch(text, *found.span("next"))
    if said is None:
        return None
    labels = _only_labels(text, *said.span("l"), ctx)
    if labels is None or labels.void or labels.inverted or not labels.labels:
        return None
    subject = _only_labels(text, *said.span("s"), ctx)
    named = subject.labels if subject is not None else ctx.texts.inside(said.group("s"))
    return labels if named == labels.labels else None


def defined(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The labels that end a reply in a sentence defining the leg's own word ("Incorrect
    here means the options that are not capitals, so B and D."); None unless the word
    is this leg's, the definition agrees with the question's predicate when it names
    it, and nothing in the sentence hedges."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    lo = max(lo, text.rfind("\n", lo, hi) + 1)  # the reply's last line
    found = _DEFINED.compiled.search(text, lo, hi)
    if found is None:
        return _then_denied(text, lo, hi, ctx)
    if _SIGNS.get(found.group("w").lower()) != ctx.leg:
        return None
    clause = found.group("clause")
    if not _DEFINING.compiled.search(clause) or _HEDGE.compiled.search(found.group()):
        return None
    if ctx.vocab.predicate:
        said = re.search(predicate_source(ctx.vocab.predicate), clause, re.IGNORECASE)
        if said is not None:
            sign = -1 if _NEGATION.compiled.search(clause, 0, said.start()) else 1
            if sign != ctx.leg:
                return None  # "incorrect means the animals that are mammals"
    tail = found.span("tail")
    labels = _only_labels(text, *tail, ctx)
    if labels is None:
        gloss, labels = glossed(text, tail[0], hi, ctx)
        if not gloss:
            return None
    if labels is None or labels.void or labels.inverted or not labels.labels:
        return None
    return labels
