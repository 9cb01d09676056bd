"""Stance: what qualifies a claim (negation, hedges, conditions, aspects, revisions) and
what makes a sentence a conclusion.
"""

from __future__ import annotations

import re

from prin_guard.reader._text import _Pattern

# Words that make a sentence a conclusion.
_CONCLUDING = _Pattern(
    r"(?<![\w-])(?:therefore|thus|hence|so|consequently|accordingly|overall|ultimately"
    r"|finally|in\s+(?:conclusion|summary|sum|short|the\s+end|my\s+(?:view|opinion"
    r"|judge?ment|assessment))|to\s+(?:conclude|summari[sz]e|sum\s+up)|all\s+in\s+all"
    r"|on\s+balance|as\s+a\s+result|all\s+things\s+considered|considering|taking\s+(?:all"
    r"|everything|this|these|into)|based\s+on|given\s+(?:this|these|that|the\s+above|all)"
    r"|after\s+(?:careful|considering|evaluating|weighing|comparing|reviewing|analy[sz]ing)"
    r"|(?:final|my|our)\s+(?:verdict|decision|answer|choice|judge?ment|assessment|conclusion"
    r"|pick)|verdict|i\s+(?:would\s+|therefore\s+|thus\s+|also\s+)?(?:say|conclude|think"
    r"|believe|judge|find|consider|determine|decide|feel|rate))(?![\w-])",
    re.IGNORECASE,
)


# An aspect: "in terms of detail, A is better" is not the verdict.
_QUALIFIER = _Pattern(
    r"(?<![\w-])(?:in\s+terms\s+of|when\s+it\s+comes\s+to|with\s+(?:respect|regard)\s+to"
    r"|as\s+far\s+as|regarding|as\s+for|in\s+(?:some|certain|this|that|one|other|a\s+few"
    r"|many)\s+(?:ways?|respects?|aspects?|regards?|areas?)|on\s+(?:this|that)\s+(?:aspect"
    r"|front|point|criterion))(?![\w-])",
    re.IGNORECASE,
)


# What makes a sentence's claim conditional or undecided.
_HEDGE = _Pattern(
    r"(?<![\w-])(?<!even\s)(?:if|whether|unless|depends|depending|suppose|supposing|assuming"
    r"|can(?:no|['’])t\s+(?:decide|tell|say|choose)|hard\s+to\s+(?:say|tell|decide)"
    r"|difficult\s+to\s+(?:say|tell|decide)|not\s+sure|unclear)(?![\w-])",
    re.IGNORECASE,
)


_HEDGE_AFTER = _Pattern(
    r"[^.!?\n,;:]{0,60}?(?<![\w-])(?<!even\s)(?:if|unless|depending)(?![\w-])", re.IGNORECASE
)


# What revises an earlier conclusion.
_REVISION = _Pattern(
    r"(?<![\w-])(?:wait|actually|on\s+(?:second|further)\s+thought|on\s+reflection"
    r"|upon\s+(?:further\s+)?(?:reflection|review|consideration|closer\s+inspection)"
    r"|correction|i\s+made\s+a\s+mistake|i\s+was\s+wrong|scratch\s+that|hmm|no,|no\."
    r"|let\s+me\s+re(?:consider|-?evaluate|check|think)|reconsider\w*|re-?evaluat\w*)(?![\w-])",
    re.IGNORECASE,
)


_CLAIM_WINDOW = 200


# What may qualify a claim after it: a claim cut off there never said all it meant.
_OPEN_CLAUSE = _Pattern(
    r"[\s,;:*_`]*(?:in|at|for|when|if|than|on|with|regarding|only|except|but|although"
    r"|though|unless|as|provided|given|under|to|from)\b",
    re.IGNORECASE,
)


# Conditionals and negations before a statement: "if C is correct", "not all are".
_HEDGE_BEFORE = _Pattern(
    r"(?:\b(?:if|whether|nor|not|suppose|assume|assuming|unless)\s+)\Z", re.IGNORECASE
)


_HEDGE_WINDOW = 12


def _hedged(text: str, at: int) -> bool:
    """Whether a statement at ``at`` follows "if", "not", "whether", ..."""
    return bool(_HEDGE_BEFORE.search(text, max(0, at - _HEDGE_WINDOW), at))
