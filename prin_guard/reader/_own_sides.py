"""The sides a choice reply's own per-candidate statements give (issue 38, round 5), and
the answer read against them.

- A question that names one candidate, answered yes or no ("Is 9 prime? No. Is 11 prime?
  Yes.", "Is it 52? Yes.", "2nd? No."): the candidate's side, in the question's words
  (the predicate, its antonym, a status word) or, with none, as the answer itself. A
  hedge ("Maybe.") or a word the question's vocabulary does not hold gives no side. A run
  of such questions is read when it gives every candidate a side; on the direct leg, a
  "yes" to one candidate asked as the answer reads it; else the reading is weak.
- A line or a clause that gives a candidate a side in the question's words: "Paris:
  capital.", "Sydney: not.", "Sydney - no", "9 - not prime", "11: composite", "Sydney
  is not a capital, nor is Toronto.", "Neither Sydney nor Toronto is a capital.".

A predicate of two words whose head is not what every option is ("national capitals" of
"Which of these cities are national capitals?", not "red planet" of "Which planet is
...?") is also said by its head alone ("capital"): one form, :func:`predicate_alone`.

An answer read after such statements that names only candidates they put on the other
side is no verdict (the reasoning's error, the answer's, or the other question's answer);
one that names some such, or leaves out one they put on the leg's side, is weak."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from prin_guard.models import ParseMethod, ParseStatus
from prin_guard.reader._answers import _named
from prin_guard.reader._evidence import _FAILED, ParseResult, _Context, _Reading
from prin_guard.reader._revisions import Revisions
from prin_guard.reader._vocab import _Vocab, predicate_source

_PREPOSITIONS = frozenset({"in", "on", "at", "from", "of", "by", "with", "to", "for"})


def predicate_alone(vocab: _Vocab) -> str:
    """A pattern's source for the question's predicate, or its head alone when it may
    stand for it (two words, the first no preposition, the head not the question's noun
    nor a number); empty when the question has no predicate."""
    return _alone(vocab.predicate, vocab.noun) if vocab.predicate else ""


@functools.lru_cache(maxsize=64)
def _alone(words: tuple[str, ...], noun: str) -> str:
    whole = predicate_source(words)
    head = words[-1]
    forms = {head, head + "s", head + "es", head[:-1] if head.endswith("s") else head}
    if (
        len(words) != 2
        or words[0] in _PREPOSITIONS
        or not head.isalpha()
        or (noun and (noun in forms or noun + "s" in forms))
    ):
        return whole
    return f"(?:{whole}|{predicate_source((head,))})"


# -- questions answered yes or no ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Asked:
    """One candidate asked about and its side (0: the answer says not: a hedge, or a
    question in words the item's vocabulary does not hold); ``answer``: asked as the
    item's answer ("Is it 52?"), not in the question's words."""

    label: str
    sign: int
    answer: bool
    at: int


_QUESTION_CHARS = 160
"""How far back from its question mark a question is read."""
_REPLY = re.compile(
    r"[^\S\n]*[*_`]*[^\S\n]*(?P<a>yes|yep|yeah|no|nope|maybe|perhaps|possibly|probably|not\s+sure|unsure|unclear"
    r"|partly|partially|sort\s+of|kind\s+of)(?![\w-])",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^[^\S\n]*[-*•>#]*[^\S\n]*(?:(?:so|and|but|then|now|next|also|finally|first|lastly)"
    r"[^\S\n]*,?[^\S\n]+)?(?:(?P<v>is|are|does|do|could|can|would|might|will)[^\S\n]+)?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_EQUALS = re.compile(r"^[\d\s.,x×*·/+\-−()^]+(?:=|equals?\b|makes?\b|gives?\b)", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
_FILLER = frozenset(
    {
        "it", "this", "that", "a", "an", "the", "be", "option", "choice", "one", "also", "really",
        "actually", "indeed", "then", "so", "still", "number", "value", "result", "answer",
    }
)  # fmt: skip
_NEGATION = frozenset({"not", "isn't", "isn’t", "aren't", "aren’t", "doesn't", "doesn’t"})


def _question_side(body: str, ctx: _Context) -> tuple[str, int, bool] | None:
    """The candidate a question names and the sign a "yes" gives it, and whether it asks
    for the answer itself; (label, 0, ...) when its words say not which side; None when
    it names no one candidate."""
    asking = _ASKING.match(body)
    if asking is None:
        return None
    rest = asking.group("rest").strip(" \t*_`\"'")
    equation = _EQUALS.match(rest)
    if equation is not None:
        rest = rest[equation.end() :].strip()  # "Is 13 x 4 = 48": the value asked
    named = ctx.texts.inside(rest) if len(ctx.labels) <= _TEXTS else set()
    words = [word.group() for word in _WORD.finditer(rest)]
    for word in words:
        label = ctx.keys.get(word) if len(word) == 1 and word.isupper() else None
        if label is not None:
            named.add(label)
    if len(named) != 1:
        return None
    (label,) = named
    own = (ctx.texts.norm_of(label) or "").split()
    pred = _predicate_words(ctx.vocab)
    signs: set[int] = set()
    negated = False
    for word in words:
        lower = word.lower()
        if (len(word) == 1 and word in ctx.keys) or lower in own:
            continue
        if lower in _NEGATION:
            negated = True
        elif lower in pred:
            signs.add(1)
        elif sign := ctx.vocab.sign(lower):
            signs.add(sign)
        elif lower not in _FILLER:
            return label, 0, False  # "Is Sydney in Australia?": not the question's words
    if len(signs) > 1:
        return label, 0, False
    if not signs:
        return label, -1 if negated else 1, True  # "Is it 52?", "2nd?"
    sign = signs.pop()
    return label, -sign if negated else sign, False


_TEXTS = 32
"""Up to how many candidates a question is looked up by their texts."""


@functools.lru_cache(maxsize=64)
def _predicate_words_of(words: tuple[str, ...], alone: bool) -> frozenset[str]:
    out: set[str] = set()
    for word in words:
        out |= {word, word + "s", word + "es"}
        if word.endswith("s"):
            out.add(word[:-1])
        if word.endswith("es"):
            out.add(word[:-2])
    return frozenset(out if alone or len(words) == 1 else set(words))


def _predicate_words(vocab: _Vocab) -> frozenset[str]:
    """The words of the question's predicate, in both numbers, that a question may ask in
    ("Is Paris a capital?"): its head alone only where :func:`predicate_alone` allows."""
    if not vocab.predicate:
        return frozenset()
    alone = predicate_alone(vocab) != predicate_source(vocab.predicate)
    return _predicate_words_of(vocab.predicate, alone)


def asked(text: str, lo: int, hi: int, ctx: _Context) -> list[_Asked]:
    """The questions of ``text[lo:hi]`` that name one candidate and are answered right
    after ("Is 9 prime? No."), in order."""
    out: list[_Asked] = []
    if ctx.task != "choice":
        return out
    at = text.find("?", lo, hi)
    while at >= 0:
        mark, at = at, text.find("?", at + 1, hi)
        reply = _REPLY.match(text, mark + 1, hi)
        if reply is None:
            continue
        start = max(lo, mark - _QUESTION_CHARS)
        start = max(start, *(text.rfind(end, start, mark) + 1 for end in ".!?\n"))
        side = _question_side(text[start:mark], ctx)
        if side is None:
            continue
        label, sign, answer = side
        said = reply.group("a").lower()
        if said in ("no", "nope"):
            sign = -sign
        elif said not in ("yes", "yep", "yeah"):
            sign = 0
        out.append(_Asked(label, sign, answer, start))
    return out


def read_asked(text: str, lo: int, hi: int, ctx: _Context) -> ParseResult | _Reading | None:
    """The reading of a reply whose per-candidate statements are questions answered yes
    or no (see the module): the leg's side when every candidate has one; on the direct
    leg, the one candidate a "yes" says is the answer; else weak, or no verdict when it
    names none on the leg's side or gives a candidate both sides. None when the reply
    asks no such question."""
    if not ctx.leg:
        return None
    questions = asked(text, lo, hi, ctx)
    if not questions:
        return None
    sides: dict[str, set[int]] = {}
    for question in questions:
        sides.setdefault(question.label, set()).add(question.sign)
    if any(len(signs) > 1 for signs in sides.values()):
        return _FAILED  # a candidate on both sides, or a hedge beside an answer
    known = {label: signs.pop() for label, signs in sides.items()}
    if 0 in known.values():
        return None  # a hedge, or a question in other words: the rest of the reply tells
    said = frozenset(label for label, sign in known.items() if sign == ctx.leg)
    if len(known) == len(ctx.labels):
        return _Reading(said, None)
    yes = {q.label for q in questions if q.answer and q.sign > 0}
    if ctx.leg == 1 and len(yes) == 1 and said == yes:
        return _Reading(said, None)  # "Is it 48? No. Is it 52? Yes."
    if not said:
        return _FAILED
    return _Reading(said, None, weak=True)


# -- statements in the question's words ----------------------------------------------

_SEGMENT = re.compile(r"[^.;!?\n]+")
_LIST_LEAD = r"[^\S\n]*(?:[-*•][^\S\n]+|\d{1,2}[.)][^\S\n]+)?[*_`]*"
_COPULA = r"[^\S\n]+(?:is|are)[^\S\n]+"
_NOT_COPULA = r"[^\S\n]+(?:(?:is|are)[^\S\n]+not|isn[’']t|aren[’']t)[^\S\n]+"
_ARTICLE = r"(?:(?:an?|the)[^\S\n]+)?"
_HEDGE = re.compile(
    r"(?<![\w-])(?:if|whether|unless|maybe|perhaps|might|may|probably|possibly|not|no|never"
    r"|neither|nor|except)(?![\w-])",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Forms:
    deny: re.Pattern[str]
    neither: re.Pattern[str]
    affirm: re.Pattern[str]
    pred: re.Pattern[str]


@functools.lru_cache(maxsize=64)
def _forms(pred: str) -> _Forms:
    """The statement forms of the predicate pattern ``pred`` (:func:`predicate_alone`)."""
    flags = re.IGNORECASE
    subject = r"(?P<s>[^:\n]{1,80}?)"
    return _Forms(
        deny=re.compile(
            rf"^{_LIST_LEAD}{subject}{_NOT_COPULA}{_ARTICLE}(?:{pred})"
            r"(?:[^\S\n]*,[^\S\n]*(?:and[^\S\n]+)?nor[^\S\n]+(?:is|are)[^\S\n]+(?P<t>[^,\n]{1,80}?))?"
            r"[^\S\n]*$",
            flags,
        ),
        neither=re.compile(
            rf"^{_LIST_LEAD}neither[^\S\n]+(?P<s>[^,\n]{{1,80}}?)[^\S\n]+nor[^\S\n]+"
            rf"(?P<t>[^,\n]{{1,80}}?){_COPULA}{_ARTICLE}(?:{pred})[^\S\n]*$",
            flags,
        ),
        affirm=re.compile(
            rf"^{_LIST_LEAD}{subject}{_COPULA}(?:(?:also|both|all|indeed|clearly)[^\S\n]+)?"
            rf"{_ARTICLE}(?:{pred})[^\S\n]*$",
            flags,
        ),
        pred=re.compile(rf"{_ARTICLE}(?:{pred})", flags),
    )


def _value_sign(value: str, forms: _Forms | None, ctx: _Context) -> int:
    """The side a colon's or a dash's value gives its candidate: the predicate (+1), "not"
    it, "no" or "not" alone (-1), "yes" (+1: the item's question answered), one polarity
    word or the predicate's antonym; 0 for anything else."""
    words = value.strip(" \t*_`.!").lower().split()
    if words in (["yes"], ["yep"]):
        return 1
    if words in (["no"], ["not"], ["nope"]):
        return -1
    negated = bool(words) and words[0] in ("not", "no", "non")
    if negated:
        words = words[1:]
    if not words:
        return 0
    rest = " ".join(words)
    if forms is not None and forms.pred.fullmatch(rest):
        sign = 1
    elif len(words) == 1:
        sign = ctx.vocab.sign(words[0])
    else:
        return 0
    return -sign if negated else sign


def _stated(text: str, ctx: _Context) -> list[tuple[int, str, int]]:
    """Where a line or clause of ``text`` gives candidates a side, in order."""
    pred = predicate_alone(ctx.vocab)
    forms = _forms(pred) if pred else None
    out: list[tuple[int, str, int]] = []
    for segment in _SEGMENT.finditer(text):
        body = segment.group()
        if _CUE.search(body) is None:
            continue  # no copula, no colon, no dash: no statement of these forms
        found = _said(body, forms, ctx)
        out.extend((segment.start(), label, sign) for label, sign in found)
    return out


_CUE = re.compile(r":|[^\S\n]-|[–—]|(?<![\w-])(?:is|are)(?![\w-])|n[’']t", re.IGNORECASE)


def _said(body: str, forms: _Forms | None, ctx: _Context) -> list[tuple[str, int]]:
    """The candidates one line or clause gives a side, and the side."""
    if forms is not None:
        if (deny := forms.deny.match(body)) is not None and not _HEDGE.search(deny.group("s")):
            named = _named(deny.group("s"), ctx)
            more = _named(deny.group("t"), ctx) if deny.group("t") else set()
            if named and (more or not deny.group("t")):
                return [(label, -1) for label in sorted(named | more)]
        neither = forms.neither.match(body)
        if neither is not None:
            first, second = _named(neither.group("s"), ctx), _named(neither.group("t"), ctx)
            if first and second:
                return [(label, -1) for label in sorted(first | second)]
        affirm = forms.affirm.match(body)
        if affirm is not None and not _HEDGE.search(body):
            return [(label, 1) for label in sorted(_named(affirm.group("s"), ctx))]
    colon = _COLON.match(body)
    if colon is None:
        return []
    sign = _value_sign(colon.group("v"), forms, ctx)
    if not sign:
        return []
    return [(label, sign) for label in sorted(_named(colon.group("s"), ctx))]


# A line or clause that gives its subject a value: "Paris: capital", "Sydney - no"
_COLON = re.compile(
    rf"^{_LIST_LEAD}(?P<s>[^:\n]{{1,80}}?)[*_`]*[^\S\n]*(?::|[^\S\n][-–—]|[–—])"
    r"[^\S\n]*[*_`]*(?P<v>[^:\n]{1,60}?)[*_`]*[^\S\n]*$",
    re.IGNORECASE,
)


def _statements(text: str, ctx: _Context) -> list[tuple[int, str, int]]:
    """Where the statements of ``text`` give a candidate a side, the candidate and the
    side (0: a hedged question), in order: questions answered, lines and clauses in the
    question's words."""
    said = _stated(text, ctx)
    said.extend(
        (question.at, question.label, question.sign) for question in asked(text, 0, len(text), ctx)
    )
    said.sort()
    return said


def _last_sides(said: list[tuple[int, str, int]]) -> dict[str, int]:
    """The side each candidate's last statement gives it; a hedged question takes its
    candidate's side away."""
    last: dict[str, int] = {}
    for _, label, sign in said:
        last[label] = sign
    return {label: sign for label, sign in last.items() if sign}


def against_own_sides(text: str, result: ParseResult, ctx: _Context) -> ParseResult:
    """``result``, read at its span, against the sides the reply's own statements gave
    before it (after its last revision): no verdict when it names one put on the other
    side, weak when it leaves out one put on the leg's side (see the module)."""
    if (
        ctx.task != "choice"
        or not ctx.leg
        or result.status is not ParseStatus.OK
        or result.span is None
        or result.method is ParseMethod.PER_CANDIDATE
    ):
        return result
    start = max(text.rfind(". ", 0, result.span[0]), text.rfind("\n", 0, result.span[0])) + 1
    said = _statements(text[:start], ctx)
    if not said:
        return result
    # after what a revision took back; "no." answers a question or a line here
    cut = Revisions(text).stands_from(said[0][0], start, bare_no=False)
    sides = _last_sides([statement for statement in said if statement[0] >= cut])
    if not sides:
        return result
    named = set(result.labels)
    against = {label for label in named if sides.get(label) == -ctx.leg}
    if against and against == named:
        return _FAILED  # "Paris: capital. Sydney: not. ...\n\nAnswer: B, D"
    if against or any(sign == ctx.leg and label not in named for label, sign in sides.items()):
        return replace(result, weak=True)  # "Sharks are not mammals.\nAnswer: A, B, C"
    return result


# A rejection right after an answer: "third (not 2nd, not 4th)", "3rd — not second, and
# not fourth", "52, not 48"
_REJECTED = re.compile(
    r"[^\S\n]*(?:\(|[,;—–]|[^\S\n]-)[^\S\n]*(?:but[^\S\n]+)?not[^\S\n]+(?P<body>[^()\n.!?]{1,120})"
    r"\)?[^\S\n]*[.!]?[^\S\n]*(?=$|\n)",
    re.IGNORECASE,
)
_REJECTED_SPLIT = re.compile(
    r"[^\S\n]*(?:,|;|\bor\b|\band\b|\bnot\b|\bnor\b)[^\S\n]*", re.IGNORECASE
)


def rejected_after(text: str, end: int, ctx: _Context) -> set[str]:
    """The candidates a rejection right after an answer ending at ``end`` names, each
    part of it a candidate's label or text ("(not 2nd, not 4th)": B and D); none when a
    part names none."""
    found = _REJECTED.match(text, end)
    if found is None:
        return set()
    named: set[str] = set()
    for part in _REJECTED_SPLIT.split(found.group("body")):
        if not part.strip():
            continue
        one = _named(part, ctx)
        if not one:
            return set()
        named |= one
    return named
