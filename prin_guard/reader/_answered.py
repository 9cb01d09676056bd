"""What the reasoning just before a conclusion picks as the answer to the item's own
question, and what that says of the conclusion (issue 38, round 4).

A choice item's question ("What is 6 × 6?", "What is the capital city of Australia?") is
the direct question. A reply that, right before its conclusion, identifies a candidate as
the result ("x = 12", "… = 68 dollars, which is option C.", "Canberra is the capital of
Australia.") and then concludes on it, in words that name no side ("The answer is B.",
"Answer: C", ``\\boxed{B}``), gives the direct question's answer: on the reverse leg it is
not the incorrect ones (the leg fails, marked polarity-confused), and on the direct leg a
conclusion that names none of what it just identified contradicts it (the leg fails).

A reverse leg whose conclusion is "the answer" in so many words ("The answer is B.",
``\\boxed{B}``, "The answer is 36 (B).") and whose reply has no word of the reverse side
anywhere says not which question it answers: read, and marked weak. The prompt's own
``Answer:`` line and a bare list of labels are the leg's answer as asked.
"""

from __future__ import annotations

import re

from prin_guard.models import ParseMethod, ParseStatus
from prin_guard.reader._evidence import ParseResult, _Context
from prin_guard.reader._revisions import Revisions
from prin_guard.reader._text import _Pattern

# Where a sentence (or a clause before a result: "x = 12, so ...") ends.
_END = _Pattern(
    r"[.!?](?=\s|$)|\n|;|,?\s+(?:so|therefore|thus|hence)\b|,(?=\s+(?:which|making)\b)",
    re.IGNORECASE,
)
# A clause that is only a connective or a format's head: "So", "Answer:"
_FILLER_CLAUSE = _Pattern(
    r"(?:so|thus|hence|therefore|then|(?:final\s+)?answer\s*:?)", re.IGNORECASE
)
# The candidate a clause identifies by label: "which is option C", "that matches B",
# "this corresponds to option (C)", "i.e. C".
_IDENTIFIES = _Pattern(
    r"(?:\b(?:which|that|this|it|what)\s+(?:is|was|gives|matches|equals|corresponds\s+to"
    r"|corresponds\s+with)|\bi\.e\.,?|\bnamely)\s+(?:(?:the\s+)?(?:option|choice|answer)\s+)?"
    r"\(?(?P<l>[A-Za-z][A-Za-z0-9]{0,3})\)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
# The candidate a clause names as the answer in the direct side's words: "the closest
# option is C 290", "the correct answer is (B)", "the best choice would be D"
_POSITIVE_PICK = _Pattern(
    r"\b(?P<adj>[A-Za-z]+)\s+(?:option|choice|answer)\s+(?:is|would\s+be)\s+(?:option\s+)?"
    r"\(?(?P<l>[A-Z][A-Z0-9]{0,3})\)?(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# A value a clause ends on, the result of what it computes: "x = 12", "the price is $68."
_VALUE = _Pattern(
    r"^.*(?:=|:|→|\bequals\b|\bis\b|\bare\b)\s*(?P<v>[^=:\n]{1,40}?)\s*[.!]?\s*$", re.DOTALL
)
_NUMBER = _Pattern(r"^[^\d\-−]{0,2}(?P<n>[\-−]?\d[\d,]*(?:\.\d+)?)(?P<rest>.*)$")
# What may follow a value: its units ("km/h", "cm²", "%", "dollars", "years old")
_UNITS = _Pattern(
    r"[^\S\n]*(?:(?!(?:is|are|was|were|not|too|so|and|or|but|which|that|than|the|a|an)\b)"
    r"[A-Za-z°%²³/$.]+[^\S\n]*){0,2}",
    re.IGNORECASE,
)
# A candidate named in the question's own words: "Canberra is the capital of Australia",
# "The capital of Australia is Canberra".
_COPULA = _Pattern(
    r"^\s*(?P<a>[^,;:]{1,80}?)\s+(?:is|are)\s+(?P<b>[^,;:]{1,80}?)\s*[.!]?\s*$", re.IGNORECASE
)
_NEGATIONS = _Pattern(
    r"(?<![\w-])(?:not|no|never|neither|nor|none|isn[’']t|aren[’']t|if|whether|unless|maybe"
    r"|perhaps|might|except|or)(?![\w-])",
    re.IGNORECASE,
)
_FILLER = frozenset(
    {"the", "and", "for", "its", "this", "that", "these", "those", "which", "what", "with",
     "from", "use", "also", "now", "here", "one", "then"}
)  # fmt: skip
_LEAD_SPAN = 400
# One value of a listing, and a run of two or more: "Alice: Karl, Bob: Sam; Claire: Lola".
# A later pair led by a connective ("x = 3, so y = 12") is a result, not the listing's.
_PAIR = r"[^\W\d_][\w'’]*(?:[^\S\n]+[\w'’]+){0,3}[^\S\n]*(?:=|:|→)[^\S\n]*[^,;:=→\n]{1,40}?"
_LISTING = _Pattern(
    rf"{_PAIR}(?:[^\S\n]*[,;][^\S\n]*(?:and[^\S\n]+)?"
    rf"(?!(?:so|thus|hence|therefore|then|which|making)\b){_PAIR})+"
    r"(?=[^\S\n]*(?:[.,;]|$))",
    re.IGNORECASE | re.MULTILINE,
)
# A label and its own value: "D is 108", "(B) = 102"
_OWN_VALUE = _Pattern(r"\s*(?:option\s+)?\(?(?P<l>[A-Z])\)?\s*(?:is|=|:)\s", re.IGNORECASE)
_TEXTS_LOOKED_AT = 32  # as the mentions of a concluding part (``_read._TEXT_MENTIONS``)
_LOWER_WORD = _Pattern(r"[a-z]+")
_WORD = _Pattern(r"[A-Za-z']+")
_ARTICLE = _Pattern(r"^(?:the|an?)\s+", re.IGNORECASE)


def _lead(text: str, at: int) -> list[str]:
    """The clauses of the reasoning just before ``at``: the sentence or line before the
    conclusion's own, and the conclusion's sentence up to it, last first; none from
    before a revision ("wait", "actually", "correction")."""
    # "The correct option is A. Wait, no: ...": what it revised goes
    lo = Revisions(text).stands_from(max(0, at - _LEAD_SPAN), at, hmm=True)
    cuts = [lo, *(match.end() for match in _END.finditer(text, lo, at))]
    clauses: list[str] = []
    for start, end in zip(cuts, [*cuts[1:], at], strict=True):
        clause = text[start:end].strip(" \t\r\n*_`>#-$\\[](),")
        if clause and not _FILLER_CLAUSE.fullmatch(clause.rstrip(".,:")):
            clauses.append(clause)
    # the conclusion's own clause (if any text leads it in) and the one before it
    return clauses[::-1][:3]


def _by_value(value: str, ctx: _Context) -> str | None:
    """The one candidate whose text is ``value`` (its number, units aside)."""
    if len(ctx.labels) > _TEXTS_LOOKED_AT:
        return None  # many candidates: their texts are not indexed for this
    value = value.strip(" \t*_`$\\()[]{}")
    label = ctx.texts.label_of(value)
    if label is not None:
        return label
    found = _NUMBER.match(value)
    if found is None or not _UNITS.fullmatch(found.group("rest")):
        return None
    number = found.group("n").replace(",", "").replace("−", "-")
    named = []
    for candidate in ctx.labels:
        own = _NUMBER.match((ctx.texts.norm_of(candidate) or "").strip())
        if own is not None and own.group("n").replace(",", "").replace("−", "-") == number:
            named.append(candidate)
    return named[0] if len(named) == 1 else None


def _given_by_the_question(value: str, ctx: _Context) -> bool:
    """Whether ``value`` is a number the question itself states ("6" of "A can do it in 6
    days ..."): a clause that repeats it, with no "=" of a computation ("x = 12" is one),
    restates the data, it computes no result."""
    found = _NUMBER.match(value.strip(" \t*_`$\\()[]{}"))
    if found is None or not ctx.vocab.question:
        return False
    number = found.group("n").replace(",", "").replace("−", "-")
    stated = {n.replace(",", "") for n in _QUESTION_NUMBER.compiled.findall(ctx.vocab.question)}
    return number in stated


_QUESTION_NUMBER = _Pattern(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w.]*\d)")


def _in_question_words(phrase: str, ctx: _Context) -> bool:
    """Whether ``phrase`` says only what the question says ("the capital of Australia"
    of "What is the capital city of Australia?"), in two words of it or more."""
    words = [w for w in _LOWER_WORD.compiled.findall(phrase.lower()) if len(w) >= 3]
    content = [w for w in words if w not in _FILLER]
    return len(content) >= 2 and all(w in ctx.vocab.asks or w in _FILLER for w in words)


def _named_alone(part: str, ctx: _Context) -> str | None:
    """The candidate ``part`` names by its label or its whole text."""
    written = part.strip(" \t*_`()[]")  # quotes kept: a text's own (0 and "0")
    part = written.strip(" \t*_`\"'()[]")
    if len(part) <= 4 and part.upper() == part and part in ctx.keys:
        return ctx.keys[part]
    if len(ctx.labels) > _TEXTS_LOOKED_AT:
        return None
    return ctx.texts.label_of(_ARTICLE.sub("", written))


def identified(text: str, at: int, ctx: _Context) -> frozenset[str]:
    """The candidates the clauses just before ``at`` identify by label as the result
    ("…, which is option C.", "the closest option is C 290")."""
    out: set[str] = set()
    for clause in _lead(text, at):
        if _NEGATIONS.search(clause):
            continue
        found = _IDENTIFIES.search(clause)
        if found is not None:
            label = ctx.keys.get(found.group("l").upper()) if found.group("l").isupper() else None
            if label is not None:
                out.add(label)
        for pick in _POSITIVE_PICK.finditer(clause):
            label = ctx.keys.get(pick.group("l")) if pick.group("l").isupper() else None
            if label is not None and ctx.vocab.sign(pick.group("adj")) > 0:
                out.add(label)
    return frozenset(out)


def _without_listings(text: str, at: int) -> str:
    """``text`` with the runs of values it lists just before ``at`` blanked ("Alice:
    Karl, Bob: Sam, Claire: Lola", "a = 3, b = 4"): a listing states several values
    side by side, and the last of them is no more a result than the first."""
    lo = max(0, at - _LEAD_SPAN)
    runs = [(m.start(), m.end()) for m in _LISTING.finditer(text, lo, at)]
    if not runs:
        return text
    parts, last = [], 0
    for start, end in runs:
        parts += [text[last:start], " " * (end - start)]
        last = end
    return "".join([*parts, text[last:]])


def endorsed(text: str, at: int, ctx: _Context) -> frozenset[str]:
    """The candidates the clauses just before ``at`` pick as the answer to the item's
    question: identified by label ("which is option C"), by the value computed ("x =
    12", B being "12"), or named in the question's own words ("Canberra is the capital
    of Australia"). Not the last of a listing of values ("Alice: Karl, Bob: Sam, Claire:
    Lola."), which computes nothing."""
    out = set(identified(text, at, ctx))
    for clause in _lead(_without_listings(text, at), at):
        if _NEGATIONS.search(clause):
            continue
        value = _VALUE.search(clause)
        given = value.group("v") if value is not None else clause
        label = _by_value(given, ctx)
        if label is not None and "=" not in clause and _given_by_the_question(given, ctx):
            continue  # "A alone: 6 days." restates the question's data, computes nothing
        own = _OWN_VALUE.match(clause)
        if label is not None and own is not None and ctx.keys.get(own.group("l")) == label:
            continue  # "D is 108": an option restated, no result
        if label is not None:  # "x = 12", "Sale price: $68", or the value alone: "Canberra."
            out.add(label)
            continue
        said = _COPULA.match(clause)
        if said is not None and ctx.vocab.asks:
            a, b = said.group("a"), said.group("b")
            for name, phrase in ((a, b), (b, a)):
                label = _named_alone(name, ctx)
                if label is not None and _in_question_words(phrase, ctx):
                    out.add(label)
    return frozenset(out)


def answers_the_question(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether the answer read contradicts what the reasoning just before it picked as
    the item's answer: on the reverse leg it names only such candidates (the direct
    question's answer), on the direct leg it names none of those it identified by label
    ("… = 68 dollars, which is option C.\\n\\nAnswer: D")."""
    if (
        ctx.task != "choice"
        or not ctx.leg
        or result.status is not ParseStatus.OK
        or not result.labels
        or result.span is None
    ):
        return False
    at = text.rfind("\n", 0, result.span[0]) + 1
    at = result.span[0] if text[at : result.span[0]].strip(" \t*_`#>") else at
    if ctx.leg == -1:
        said = endorsed(text, at, ctx)
        return bool(said) and set(result.labels) <= said
    said = identified(text, at, ctx)
    if said:
        return not said & set(result.labels)
    # one value computed, one other label concluded: "… = 68 dollars.\n\nAnswer: D"
    said = endorsed(text, at, ctx)
    return len(said) == 1 and len(result.labels) == 1 and not said & set(result.labels)


# "The answer is", "\\boxed{": a conclusion that names "the answer" without a side.
_THE_ANSWER = _Pattern(
    r"\b(?:answer|solution|result)\s+(?:is|would\s+be|=)|\bthe\s+(?:final\s+)?answer\b"
    r"|\\boxed\b|\b(?:i\s+(?:would\s+)?(?:choose|pick|select|go\s+with))\b",
    re.IGNORECASE,
)
# The prompt's own answer line ("Answer: B, D", "Final answer: C").
_FORMAT_LINE = _Pattern(r"[^\S\n]*[*_#>`-]*[^\S\n]*(?:final\s+)?answer\s*:", re.IGNORECASE)
_REVERSE_WORDS = frozenset(
    {"not", "no", "never", "neither", "nor", "none", "except", "excluding", "exclude",
     "excluded", "eliminate", "eliminated", "rule", "ruled", "other", "others", "rest",
     "isn't", "aren't", "doesn't", "don't", "can't", "cannot"}
)  # fmt: skip


_REASONED_WORDS = 5
"""Words before an answer tag that make it follow reasoning, not stand alone."""


def says_no_side(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether a reverse leg's reading rests on "the answer" in so many words ("The
    answer is B.", ``\\boxed{B}``, "The answer is 36 (B).", an ``<answer>`` tag after
    reasoning) in a reply that has no word of the reverse side anywhere (nor a
    negation): it says not which question it answers. Not the prompt's own ``Answer:``
    line, nor a bare list of labels or a tag alone."""
    if ctx.task != "choice" or ctx.leg != -1 or result.status is ParseStatus.FAILED:
        return False
    if result.method not in (
        ParseMethod.LABEL_FORMS,
        ParseMethod.FINAL_LINE,
        ParseMethod.CANDIDATE_TEXT,
        ParseMethod.ANSWER_TAG,
    ):
        return False
    if result.span is None:
        return False
    line = text.rfind("\n", 0, result.span[0]) + 1
    end = text.find("\n", result.span[1])
    end = len(text) if end < 0 else end
    if _FORMAT_LINE.match(text, line) is not None:
        return False  # "Answer: B, D" as asked
    if result.method is ParseMethod.ANSWER_TAG:
        if len(_WORD.compiled.findall(text, 0, line)) < _REASONED_WORDS:
            return False  # "<answer>B, D</answer>" alone: the leg's answer as asked
    elif result.method is not ParseMethod.CANDIDATE_TEXT and not _THE_ANSWER.search(
        text, line, end
    ):
        return False  # "B, D" alone; candidate texts ("36", "Canberra") are the item's words
    words = {word.lower() for word in _WORD.compiled.findall(text)}
    return not words & (_REVERSE_WORDS | ctx.vocab.negative) and "n't" not in text


def bare_none(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether a reverse leg's reading is a bare "none" ("None of them.", "None.") in
    a reply with no word of either side: "none" answers the item's own question ("Which
    of these numbers are even?": none is even) as readily as the leg's (none is
    incorrect), and the two are opposite."""
    if ctx.task != "choice" or ctx.leg != -1 or result.status is not ParseStatus.NONE:
        return False
    if result.method is not ParseMethod.NONE_WORD:
        return False
    words = {word.lower() for word in _WORD.compiled.findall(text)}
    return not words & (ctx.vocab.negative | ctx.vocab.positive)
