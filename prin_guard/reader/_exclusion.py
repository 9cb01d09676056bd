"""Verbs that reject or keep candidates (issue 38, round 4): "Keep B, C and E; eliminate
A and D.", "I'd rule out B and D.", "B and D can be eliminated.", "B, D are off.",
"Frog and Salamander don't fit.", "That leaves A and C.", "The options that don't fit
are the amphibians: Frog and Salamander."

Rejecting a candidate gives it the reverse side of the item's own question, keeping it
the direct side, whatever the leg asks (the words are :data:`_vocab.SIDE_VERBS`). What
this module finds, :class:`prin_guard.reader._prose._Claims` turns into statuses and
claims, qualified by their clause like every other statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from prin_guard.reader._text import _Pattern
from prin_guard.reader._vocab import SIDE_LEFT, SIDE_PREDICATES, SIDE_VERBS

_ACTIVE = "|".join(f"(?:{active})" for active, _, _ in SIDE_VERBS)
_PARTICIPLE = "|".join(f"(?:{participle})" for _, participle, _ in SIDE_VERBS)
_PREDICATE = "|".join(f"(?:{predicate})" for predicate, _ in SIDE_PREDICATES)

# The verb before what it rejects or keeps: "eliminate A and D", "I'd rule out B",
# "That leaves A and C"
_VERB_FIRST = _Pattern(
    rf"(?=[a-z])(?<![\w-])(?P<verb>{_ACTIVE}|{SIDE_LEFT})[^\S\n]+(?:(?:the[^\S\n]+)?(?:options?|choices?"
    r"|answers?)[^\S\n]+)?(?P<obj>[^\n.;:!?—–()]{1,160})",
    re.IGNORECASE,
)
# Where the object ends: a reason or a new clause after it ("— 27 and 45 are odd", ",
# because ...", ", leaving ...")
_OBJECT_END = _Pattern(
    r"[^\S\n]+-[^\S\n]|,?[^\S\n]+(?:because|since|as|so|then|which|leaving|leaves|and\s+"
    r"(?:keep|retain|eliminate|rule|drop|discard|exclude|strike|cross)|but|while|for|from"
    r"|here|too)(?![\w-])",
    re.IGNORECASE,
)
# A negation just before the verb: "I wouldn't eliminate B", "We cannot rule out B"
_NEGATED = _Pattern(
    r"(?<![\w-])(?:not|never|n[’']t|cannot|can[’']t|don[’']t|shouldn[’']t|wouldn[’']t)"
    r"(?:[^\S\n]+\w+)?[^\S\n]*\Z",
    re.IGNORECASE,
)
# After a subject: "B and D can be eliminated", "B, D are off", "Toad doesn't fit"
_AFTER_SUBJECT = _Pattern(  # from a run of spaces' start only: linear over blanked copies
    rf"(?<![^\S\n])[^\S\n]++(?:(?:(?:is|are|was|were|gets?|got|can[^\S\n]+be|could[^\S\n]+be"
    rf"|should[^\S\n]+be|must[^\S\n]+be|will[^\S\n]+be)[^\S\n]+(?:(?:all|both|also|clearly"
    rf"|easily|safely|immediately|quickly)[^\S\n]+)?(?P<part>{_PARTICIPLE})(?![\w-]))"
    rf"|(?P<pred>{_PREDICATE})(?![\w-]))",
    re.IGNORECASE,
)
# Off and out end their clause: not "out of stock"
_CLAUSE_END = _Pattern(r"[^\S\n]*(?:$|[.;,!:—–)\n]|[^\S\n]-[^\S\n])", re.MULTILINE)
# A noun frame that names them as the answer: "The options that don't fit are ...", "The
# ones to eliminate are ...", "The ones I'd keep:"
_FRAME = _Pattern(
    r"(?=[toca])(?<![\w-])(?:the[^\S\n]+)?(?:options?|choices?|answers?|ones?|candidates?)[^\S\n]+"
    rf"(?:(?:that|which)[^\S\n]+(?:(?P<fpred>{_PREDICATE})|(?:can|should|must)[^\S\n]+be"
    rf"[^\S\n]+(?P<fpart>{_PARTICIPLE}))|to[^\S\n]+(?P<fto>{_ACTIVE})"
    rf"|(?:I|we)(?:[’']d|[^\S\n]+would|[^\S\n]+will|[^\S\n]+can|[^\S\n]+should)?[^\S\n]+"
    rf"(?P<fown>{_ACTIVE}))[^\S\n]*(?:are|is|would[^\S\n]+be|:)[^\S\n]*"
    r"(?P<span>[^\n.!?]{1,200})",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Side:
    """One statement: the candidates are named in ``text[lo:hi]`` (``subject``: in the
    subject of the clause that ends at ``lo``), on side ``sign``; the statement's words end
    at ``end``; ``frame``: a noun frame that names the answer."""

    lo: int
    hi: int
    sign: int
    end: int
    subject: bool = False
    frame: bool = False


def _sign(verb: str, *, participle: bool = False) -> int:
    for active, passive, sign in SIDE_VERBS:
        if re.fullmatch(passive if participle else active, verb, re.IGNORECASE):
            return sign
    if re.fullmatch(SIDE_LEFT, verb, re.IGNORECASE):
        return 1
    for predicate, sign in SIDE_PREDICATES:
        if re.fullmatch(predicate, verb, re.IGNORECASE):
            return sign
    return 0


_SENTENCE_END = _Pattern(r"[.!?\n]")


def _asked(text: str, at: int) -> bool:
    """Whether the sentence holding ``at`` is a question ("Eliminate A and C?")."""
    end = _SENTENCE_END.search(text, at)
    return end is not None and end.group() == "?"


def sides(text: str) -> Iterator[Side]:
    """Every statement of ``text`` that rejects or keeps candidates; not in a question,
    nor after a negation."""
    for match in _VERB_FIRST.finditer(text):
        if _NEGATED.search(text, max(0, match.start() - 40), match.start()):
            continue  # "I wouldn't eliminate B", "We cannot rule out B and D"
        if _asked(text, match.start()):
            continue  # "Should we eliminate B?"
        lo, hi = match.span("obj")
        cut = _OBJECT_END.search(text, lo, hi)
        if cut is not None:
            hi = cut.start()
        hi = len(text[:hi].rstrip(" \t,*_`"))
        sign = _sign(match.group("verb"))
        if sign and lo < hi:
            yield Side(lo, hi, sign, hi)
    for match in _AFTER_SUBJECT.finditer(text):
        if _asked(text, match.start()):
            continue  # "Are B and D off?"
        if match.group("part") is not None:
            sign = _sign(match.group("part"), participle=True)
        else:
            pred = match.group("pred")
            sign = _sign(pred)
            if not re.search("fit|belong", pred) and not _CLAUSE_END.match(text, match.end()):
                continue  # "out of stock", "A remains unclear"
        if sign:
            yield Side(match.start(), match.start(), sign, match.end(), subject=True)
    for match in _FRAME.finditer(text):
        if _asked(text, match.start()):
            continue
        verb = match.group("fpred") or match.group("fto") or match.group("fown")
        sign = _sign(verb) if verb else _sign(match.group("fpart"), participle=True)
        lo, hi = match.span("span")
        colon = text.rfind(":", lo, hi)
        lo = colon + 1 if colon >= 0 else lo
        if sign:
            yield Side(lo, hi, sign, hi, frame=True)


# A heading in those words: "Eliminated: B, D", "Ruled out: B and D", "To keep: A, C"
_HEADING = _Pattern(
    r"(?:(?:the|my)\s+)?(?:(?:options?|ones?|choices?|answers?)\s+)?(?:(?:to|I(?:[’']d|\s+would))"
    rf"\s+)?(?P<verb>{_ACTIVE}|{_PARTICIPLE})(?:\s+(?:options?|ones?|choices?|answers?))?",
    re.IGNORECASE,
)


def heading_sign(head: str) -> int:
    """The side a heading in these words gives what it lists ("Eliminated: B, D": -1,
    "Keep: A, C": 1), 0 when it is not one."""
    found = _HEADING.fullmatch(head.strip())
    if found is None:
        return 0
    verb = found.group("verb")
    return _sign(verb) or _sign(verb, participle=True)
