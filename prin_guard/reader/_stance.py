"""Stance: how the words around a claim qualify it, decided in one place for every claim
the reader finds (per-candidate statements, whole-answer claims, quantifiers, ties,
preferences, a checklist's verbs).

A claim ("B is better", "the answer is C", "it meets criterion 2") sits in a *clause*:
the stretch of its sentence between the nearest breaks on either side (a sentence end, a
line end, a semicolon, a colon, a contrast: "but", "however", "whereas", "although",
"though", "yet", "while"; or a result: "so", "therefore", "thus", "hence").
:func:`stance` reads that clause once and says whether the claim is

- **negated**: a negation scopes over it from the left ("I don't think B is better", "I
  wouldn't say C is correct", "it is not true that C is correct", "I disagree that ...",
  "not B"). A negated claim is evidence against its candidate, never for it: a set task
  reads "I don't think B is correct" as B on the other side (marked weak), a pair reads
  nothing from it ("B is not better" does not say that A is: it may be a tie);
- **hedged**: a condition, a doubt or an alternative makes it undecided ("if brevity
  matters, A is better", "A is better if ...", "I'm not sure B is met", "maybe C is
  correct", "either B or C is correct"): no evidence at all;
- **excepted**: its candidates are the exception ("all except B are better", "the response
  other than B is better", "rather than B, ..."): the claim is about the others;
- **soft**: it holds, with a softener ("probably", "likely", "arguably"): read, marked weak.

The same module says what concludes a sentence (``_CONCLUDING``), what restricts a claim to
an aspect (``_QUALIFIER``) and what leaves a claim open at the end of a cut-off reply
(``_OPEN_CLAUSE``); what revises an earlier claim is :mod:`prin_guard.reader._revisions`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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

# What may qualify a claim after it: a claim cut off there never said all it meant.
_OPEN_CLAUSE = _Pattern(
    r"[\s,;:*_`]*(?:in|at|for|when|if|than|on|with|regarding|only|except|but|although"
    r"|though|unless|as|provided|given|under|to|from)\b",
    re.IGNORECASE,
)

# Where a clause starts or ends: a sentence end, a line end, a semicolon, a colon, a
# contrast, or a result ("If n = 10, 10100 > 10000, so D is incorrect": D is concluded;
# not "then": "If C is correct, then D is too" asserts nothing of D). Scanned at most
# _CLAUSE_WINDOW characters from the claim (bounded cost).
_CLAUSE_BREAK = _Pattern(  # (?=...): each place's first character, tested first
    r"(?=[.!?\n;:bhwatysc])(?:[.!?](?=\s|$)|\n|;|:(?=\s)|(?<![\w-])(?:but|however|whereas"
    r"|although|though|yet|while|so|therefore|thus|hence|consequently)(?![\w-]))",
    re.IGNORECASE,
)
_CLAUSE_WINDOW = 200

# A negation scoping over what follows it in its clause.
_NEGATION = _Pattern(
    r"(?<![\w-])(?:"
    r"(?:do|does|did)(?:\s*n[’']t|\s+not)\s+(?:\w+\s+)?(?:think|believe|feel|agree|consider"
    r"|find|see|say|suppose|reckon)"
    r"|(?:would|will|could|can|should|must)(?:\s*n[’']t|\s*not)\s+(?:\w+\s+)?(?:say|argue"
    r"|agree|claim|conclude|call|consider|think|believe|describe)"
    r"|(?:won|can|couldn|wouldn|shouldn)[’']t\s+(?:\w+\s+)?(?:say|argue|agree|claim|conclude"
    r"|call|consider|think|believe|describe)"
    r"|cannot\s+(?:\w+\s+)?(?:say|agree|claim|conclude)"
    r"|(?:is|was|'s|’s)(?:\s*n[’']t|\s+not)\s+(?:\w+\s+)?(?:true|the\s+case|correct\s+to\s+say"
    r"|accurate\s+to\s+say|fair\s+to\s+say|right\s+to\s+say)"
    r"|(?:untrue|false|wrong)\s+(?:to\s+say\s+)?that|disagree|doubt(?:ful)?|never|no\s+longer"
    r"|hardly|by\s+no\s+means|far\s+from\s+(?:clear|certain|obvious)|i\s+reject"
    r")(?![\w-])",
    re.IGNORECASE,
)
# "not" right before the claim's candidate: "not B", "not that B ...", and a quantifier
# of none: "none of A, C and D is incorrect", "not one of the options B, D is".
_NOT_BEFORE = _Pattern(
    r"(?<![\w-])(?:not(?:\s+that)?|(?:none|not\s+(?:one|any)|neither)\s+of(?:\s+the"
    r"\s+(?:options?|choices?|answers?|letters?|labels?))?"
    # ... or a list's later candidate under it: "C" of "none of A, C and D is"
    r"(?:\s*[(\[]?[A-Za-z0-9]{1,4}[)\]]?\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|nor)\s|&))*)"
    r"\s*[(\[\"'*`]*\s*\Z",
    re.IGNORECASE,
)

# A condition or a doubt before the claim in its clause ("if brevity matters, A is better",
# "I'm not sure B is met")...
_HEDGE = _Pattern(
    r"(?<![\w-])(?<!even\s)(?:if|whether|unless|depends|depending|suppose|supposing|assuming"
    r"|can(?:no|['’])t\s+(?:decide|tell|say|choose|be\s+sure)|hard\s+to\s+(?:say|tell|decide)"
    r"|difficult\s+to\s+(?:say|tell|decide)|not\s+(?:sure|certain|clear|convinced)|unsure"
    r"|uncertain|unclear|undecided|i\s+wonder|questionable|(?:could|may|might)\s+(?:also\s+)?"
    r"(?:argue|say))(?![\w-])",
    re.IGNORECASE,
)
# A doubt about the whole sentence holds past a colon or a semicolon ("It depends: B is
# correct under one reading"), up to a contrast or a result ("Hard to say, but B is ...").
_DOUBT = _Pattern(
    r"(?<![\w-])(?:depends|depending|hard\s+to\s+(?:say|tell|decide)|difficult\s+to\s+(?:say"
    r"|tell|decide)|can(?:no|['’])t\s+(?:decide|tell|be\s+sure)|not\s+(?:sure|certain)|unsure"
    r"|uncertain|undecided)(?![\w-])",
    re.IGNORECASE,
)
_DOUBT_BREAK = _Pattern(  # (?=...): as _CLAUSE_BREAK's
    r"(?=[.!?\nbhwytsc])(?:[.!?](?=\s|$)|\n|(?<![\w-])(?:but|however|whereas|yet|so"
    r"|therefore|thus|hence|consequently)(?![\w-]))",
    re.IGNORECASE,
)

# ... a possibility or an alternative in the claim's own part of the clause (after its last
# comma: "While A might be shorter, B is better" is a claim about B) ...
_MODAL = _Pattern(
    r"(?<![\w-])(?:maybe|perhaps|possibly|might|either(?!\s+(?:way|case)))(?![\w-])",
    re.IGNORECASE,
)
# ... or after it, up to the next comma: "A is better if ...", "B is correct or maybe C".
_HEDGE_AFTER = _Pattern(
    r"(?<![\w-])(?<!even\s)(?:if|unless|depending|or\s+(?:maybe|perhaps|possibly)|or\s+not"
    r"|maybe|perhaps|(?:is|are|seems?|remains?)\s+(?:(?:much|far|a\s+bit|somewhat)\s+)?(?:less"
    r"\s+(?:clear|certain|obvious|convincing)|unclear|uncertain|doubtful|questionable"
    r"|debatable))(?![\w-])",
    re.IGNORECASE,
)
# The claim's candidates are the exception: "all except B", "the one other than B".
_EXCEPTION_BEFORE = _Pattern(  # (?=...): as _CLAUSE_BREAK's
    r"(?=[eoabswir])(?<![\w-])(?:except(?:\s+for)?|other\s+than|apart\s+from|besides|excluding|save\s+for"
    r"|aside\s+from|with\s+the\s+exception\s+of|instead\s+of|rather\s+than|in\s+place\s+of"
    r"|all\s+but|everything\s+but|anything\s+but)"
    r"(?:\s+(?:the\s+)?(?:options?|choices?|responses?|outputs?|answers?|criteri(?:on|a)"
    r"|claims?|ones?))?\s*[(\[\"'*`]*\s*\Z",
    re.IGNORECASE,
)
# A softener: the claim holds, less firmly.
_SOFT = _Pattern(
    r"(?<![\w-])(?:probably|likely|arguably|presumably|seemingly|i\s+guess|i\s+suppose"
    r"|more\s+or\s+less|sort\s+of|kind\s+of"
    # an impression, not a finding: "It seems that A and C are correct."
    r"|it\s+(?:seems|appears)(?:\s+that)?"
    # a confidence short of certainty: "I'm fairly confident", "I'm 90% sure"
    r"|i(?:'m|’m|\s+am)\s+(?:fairly|pretty|reasonably|\d{1,2}\s*%)\s+(?:sure|confident|certain)"
    r"|i(?:'m|’m|\s+am)\s+(?:sure|confident|certain)\s*\(~?\d{1,2}\s*%\))(?![\w-])",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Stance:
    """How a claim's clause qualifies it (see the module's docstring)."""

    negated: bool = False
    hedged: bool = False
    excepted: bool = False
    soft: bool = False

    @property
    def plain(self) -> bool:
        """Nothing qualifies the claim."""
        return not (self.negated or self.hedged or self.excepted or self.soft)


_PLAIN = Stance()


def _clause(text: str, at: int, end: int) -> tuple[int, int]:
    """The clause holding ``text[at:end]``: from the last break before ``at`` to the first
    break after ``end``, each looked for within ``_CLAUSE_WINDOW`` characters."""
    lo = max(0, at - _CLAUSE_WINDOW)
    start = lo
    for match in _CLAUSE_BREAK.finditer(text, lo, at):
        start = match.end()
    hi = min(len(text), end + _CLAUSE_WINDOW)
    stop = _CLAUSE_BREAK.search(text, end, hi)
    return start, stop.start() if stop is not None else hi


def stance(text: str, at: int, end: int) -> Stance:
    """How the clause around the claim ``text[at:end]`` qualifies it. ``at`` is where the
    claim's first candidate (or its first word) stands, ``end`` where its words end."""
    lo, hi = _clause(text, at, end)
    part_lo = text.rfind(",", lo, at) + 1 or lo
    part_hi = text.find(",", end, hi)
    part_hi = hi if part_hi < 0 else part_hi
    negated = bool(_NEGATION.search(text, lo, at) or _NOT_BEFORE.search(text, lo, at))
    hedged = bool(
        _HEDGE.search(text, lo, at)
        or _doubted(text, at)
        or _MODAL.search(text, part_lo, at)
        or _HEDGE_AFTER.search(text, end, part_hi)
    )
    # anchored right before the candidate, so not bounded by the clause: "but" in "all
    # but C" is no contrast
    excepted = bool(_EXCEPTION_BEFORE.search(text, max(0, at - _CLAUSE_WINDOW), at))
    soft = bool(_SOFT.search(text, part_lo, part_hi))
    if not (negated or hedged or excepted or soft):
        return _PLAIN
    return Stance(negated, hedged, excepted, soft)


def _doubted(text: str, at: int) -> bool:
    """Whether a doubt about the whole sentence stands before ``at`` (``_DOUBT``)."""
    lo = max(0, at - _CLAUSE_WINDOW)
    start = lo
    for match in _DOUBT_BREAK.finditer(text, lo, at):
        start = match.end()
    return _DOUBT.search(text, start, at) is not None
