"""A claim about the whole set of options in the question's own predicate: "All of them
are divisible by 3.", "Every one of these numbers is prime.", "They are all capitals.",
"None of them is a mammal.". It gives every candidate a side as plainly as naming each,
so an answer after it is checked against it as against named ones: on the reverse leg,
"All of them are divisible by 3.\\nAnswer: A, B, C, D" answers the direct question.

A quantifier that is negated or excepted ("Not all of them are ...", "All of them except
B ...") or hedged says nothing of the whole set."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from prin_guard.reader._vocab import predicate_source

_NUMBER = r"(?:two|three|four|five|six|seven|eight|\d)"
_NOUNS = r"(?:options?|choices?|candidates?|answers?|items?|ones?"


def _all_of(noun: str) -> str:
    """ "all", "all of them", "all four", "all the options", "each of these numbers",
    "every one of them", "every option" (``noun``: the question's, singular)."""
    nouns = _NOUNS + (rf"|{re.escape(noun)}(?:s|es|ies)?" if noun else "") + ")"
    group = rf"(?:them|these|those|the\s+(?:{_NUMBER}\s+)?{nouns}|these\s+{nouns})"
    return (
        rf"(?:all(?:\s+of)?\s+{group}|all\s+{_NUMBER}(?:\s+{nouns})?|all\s+{nouns}|all"
        rf"|each(?:\s+of\s+{group}|\s+{nouns})|every\s+one(?:\s+of\s+{group})?|every\s+{nouns})"
    )


_PREFIX = r"^\s*(?:[^:\n]{0,200}:\s*)?(?:(?:so|thus|hence|therefore|clearly|indeed)\s*,?\s+)?"
_AFTER = r"(?:\s+(?:also|indeed|clearly|certainly|definitely))?\s+(?:an?\s+|the\s+)?"
_DOUBT = re.compile(
    r"(?<![\w-])(?:not|no|never|except|but|besides|other|if|whether|unless|maybe|perhaps|might"
    r"|seem\w*|appear\w*|probably|likely|only)(?![\w-])|n[’']t\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=64)
def _claims(words: tuple[str, ...], noun: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The whole-set affirmation and denial of the predicate ``words``."""
    pred = predicate_source(words)
    nouns = rf"(?:\s+{re.escape(noun)}(?:s|es|ies)?)?" if noun else ""
    end = rf"{pred}{nouns}\s*[.!]?\s*$"
    quant = _all_of(noun)
    affirm = re.compile(
        rf"{_PREFIX}(?P<q>{quant}\s+(?:is|are)|(?:they|these|those)\s+(?:are|'re|’re)\s+all"
        rf"|(?:they|these|those)\s+all\s+are){_AFTER}{end}",
        re.IGNORECASE,
    )
    deny = re.compile(
        rf"{_PREFIX}(?P<q>none\s+of\s+(?:them|these|those|the\s+\w+)|no\s+{_NOUNS}"
        + (rf"|{re.escape(noun)}" if noun else "")
        + rf"))\s+(?:is|are){_AFTER}{end}",
        re.IGNORECASE,
    )
    return affirm, deny


@dataclass(frozen=True, slots=True)
class WholeSet:
    """A whole-set claim: its side (1: every option has the predicate, -1: none has), and
    the words before its colon, which it may refer to instead of the whole set ("7, 11
    and 17: all of them are prime"); "" when it has none (then it may refer to the
    sentence before it, which the caller knows: "7 and 11 are odd. They are all prime.")."""

    sign: int
    refers_to: str


def whole_set(clause: str, words: tuple[str, ...], noun: str) -> WholeSet | None:
    """The whole-set claim ``clause`` makes in the predicate ``words``, or None (no such
    claim, or one negated, excepted or hedged)."""
    if not words:
        return None
    for pattern, sign in zip(_claims(words, noun), (1, -1), strict=True):
        found = pattern.match(clause)
        if found is not None:
            # the quantifier's own "none" aside, a negation or a doubt anywhere says nothing
            rest = clause[: found.start("q")] + " " + clause[found.end("q") :]
            if _DOUBT.search(rest):
                return None
            return WholeSet(sign, clause[: found.start("q")].strip(" \t:"))
    return None
