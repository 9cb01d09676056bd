"""Reading a stretch of a reply known to be an answer (see :mod:`prin_guard._parsing`).
Pure functions, no I/O.

A stretch known to be an answer (after "Answer:", inside ``<answer>``, a JSON value,
the rest of an "Incorrect:" line, after "the correct options are") is read by
:func:`read_answer`: quantifiers ("all of them", "all except B", "both A and C",
"neither"), "none" forms, then a label list, marked labels and candidate texts. Its
*head* is read first, what precedes an aside, so that "B (not A, since A
miscounts)" names B only.

Polarity. A stretch may end on a *sign*: +1 when its words say "correct" (or the
template's positive word, "right", ...), -1 for "incorrect" ("wrong", "not
correct", ...), 0 when they say neither. :class:`Vocab` holds the words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from prin_guard._parsing_labels import (
    LABEL,
    NORM_STRIP,
    Reading,
    Texts,
    labels_only,
    marked_labels,
    strip_bounds,
)

__all__ = [
    "ASIDE",
    "NEGATIVE_WORDS",
    "NONE_ONLY",
    "NOUN",
    "NUMBERED",
    "POSITIVE_WORDS",
    "PUNCT_ONLY",
    "QUANT",
    "RUN",
    "VERB_ADJ",
    "Context",
    "TextsRead",
    "Vocab",
    "copied_line",
    "hedged",
    "line_key",
    "next_line",
    "quantified",
    "read_answer",
    "read_block",
]

POSITIVE_WORDS = frozenset({"correct", "right", "appropriate", "accurate", "valid", "true"})
NEGATIVE_WORDS = frozenset(
    {"incorrect", "wrong", "inappropriate", "inaccurate", "invalid", "false"}
)

NOUN = r"(?:options?|answers?|choices?|candidates?|ones?|letters?|labels?)"
_FILLER = (
    r"(?:a|an|the|both|all|also|only|each|definitely|clearly|indeed|likely|probably|obviously"
    r"|actually|certainly|therefore|thus|then|so|still|considered|deemed)"
)
# "... are (not) (both/the only) incorrect": the polarity a stretch ends on.
VERB_ADJ = re.compile(
    r"\s+(?:(?:is|are|was|were)(?P<nt>n[’']t)?|would\s+be|seems?\s+to\s+be|appears?\s+to\s+be)"
    rf"\s+(?P<neg>not\s+)?(?:{_FILLER}\s+){{0,3}}(?P<neg2>not\s+)?(?P<adj>[A-Za-z]+)(?![\w-])",
    re.IGNORECASE,
)
# "all", "all of them", "all five options", "none of the above", "neither", "no option";
# not "all other options", which leaves out the ones just named.
_ADJ = r"(?:(?!(?:other|remaining|rest|else)\b)[a-z]+\s+)?"
QUANT = re.compile(
    r"(?<![\w-])(?:(?P<all>all|every(?:thing|one)?|each|both)"
    rf"|(?P<none>none|neither|nothing|no(?=\s+{NOUN}\b)))(?![\w-])"
    rf"(?:\s+of\s+(?:them|these|those|the\s+above|(?:the|these|those)\s+{_ADJ}{NOUN})\b"
    rf"|\s+(?:(?:the|these|those)\s+)?{_ADJ}{NOUN}\b)?",
    re.IGNORECASE,
)
_EXCEPT = re.compile(
    r"\s*,?\s*(?:except(?:\s+for)?|but(?:\s+not)?|other\s+than|apart\s+from|besides|excluding"
    r"|save\s+for)\s+",
    re.IGNORECASE,
)
# After "are incorrect", "but" starts another clause: "all are correct, but B is better".
_EXCEPT_AFTER = re.compile(
    r"\s*,?\s*(?:except(?:\s+for)?|other\s+than|apart\s+from|excluding|save\s+for)\s+",
    re.IGNORECASE,
)
_EXCEPT_WINDOW = 200
# What may follow a quantifier: nothing, punctuation, or an explanation.
_TAIL_OK = re.compile(
    r"\s*(?:$|[(\[,;:.!?—–-]|(?:because|since|as|which|so|given|due|for)\b)", re.IGNORECASE
)
_CLOSING = re.compile(r"[)\]\"'*`]*")
PUNCT_ONLY = re.compile(r"[\s.!?*_`\"')\]]*")
# Conditionals and negations before a statement: "if C is correct", "not all are".
_HEDGE_BEFORE = re.compile(
    r"(?:\b(?:if|whether|nor|not|suppose|assume|assuming|unless)\s+)\Z", re.IGNORECASE
)
_HEDGE_WINDOW = 12
# Where the head of an answer ends: an aside in brackets that is not a label mark,
# a dash or semicolon, the end of a sentence, an explanation or a verb.
ASIDE = re.compile(
    rf"\s*[(\[](?!\s*{LABEL}\s*[)\]])"
    r"|\s*[;—–]|\s+-+\s"
    rf"|[.!?](?=\s|$)(?!\s+\(?{LABEL}\))"
    r"|,?\s+(?:because|since|as|which|due|given|where|while|though|although|so|then|but|if"
    r"|is|are|was|were|isn't|aren't|would|should|will|seems?|appears?|being|has|have|must"
    r"|can|could)\b",
    re.IGNORECASE,
)
_LIST_PREFIX = re.compile(
    r"(?:(?:both|only|just)\s+(?:of\s+)?)?(?:the\s+)?"
    r"(?:(?:options?|choices?|candidates?|letters?|labels?)(?![\w-])\s*:?\s*)?",
    re.IGNORECASE,
)
NONE_ONLY = re.compile(
    r"\W*(?:none|no(?:ne)? (?:of (?:them|the (?:options|answers|above)))|"
    r"there (?:are|is) (?:none|no (?:such )?(?:options?|answers?))|"
    r"no (?:options?|answers?)(?: (?:are|is) (?:correct|incorrect|right|wrong))?|n/?a|empty"
    r"|\[\s*\])\W*",
    re.IGNORECASE,
)
_NONE_STRIP = " \t\r\n.,;:!?\"'`*_()"
NUMBERED = re.compile(
    rf"^[^\S\n]*(?:\d+[.)]|[-*•])\s*(?:\*\*\s*)?(?:option\s+)?\(?(?P<n>{LABEL})"
    r"(?:\)|\.|:|\s|$|\*\*)",
    re.IGNORECASE | re.MULTILINE,
)
# A list item without a bullet: "D) 10", "(B)", "**C.**"
_BARE_ITEM = re.compile(
    rf"[^\S\n]*(?:\*\*[^\S\n]*)?[(\[]?(?P<n>{LABEL})(?:[)\]:]|\.(?!\d)|\*\*)", re.IGNORECASE
)
# A run of labels: "B and D", "(A), (C)", "options A, C". Possessive: a run is
# scanned once wherever it is matched from, which keeps searches linear.
_TOK = rf"[(\[]?{LABEL}(?![A-Za-z0-9])[)\]]?"
_SEP = r"(?:\s*[,&/]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
RUN = (
    r"(?:(?:the\s+)?(?:options?|choices?|candidates?|answers?|letters?|labels?)\s+)?"
    rf"(?P<run>{_TOK}(?:{_SEP}{_TOK})*+)"
)
_LABEL_RUN = re.compile(RUN, re.IGNORECASE)
_ALNUM = re.compile(r"[A-Za-z0-9]+")
_SEP_WORDS = frozenset({"and", "or"})
_LIST_TRIM = " \t\r\n*_`"

TextsRead = Literal["none", "whole", "inside"]


@dataclass(frozen=True, slots=True)
class Vocab:
    """The polarity words a parse knows: the bundled templates' and the caller's."""

    positive: frozenset[str] = POSITIVE_WORDS
    negative: frozenset[str] = NEGATIVE_WORDS

    @classmethod
    def of(cls, words: tuple[str, str] | None) -> Vocab:
        if words is None:
            return cls()
        positive, negative = (word.strip().lower() for word in words)
        return cls(POSITIVE_WORDS | {positive}, NEGATIVE_WORDS | {negative})

    def sign(self, word: str, *, negated: bool = False) -> int:
        word = word.lower()
        sign = 1 if word in self.positive else -1 if word in self.negative else 0
        return -sign if negated else sign

    def verb_sign(self, match: re.Match[str]) -> int:
        """The sign of a ``VERB_ADJ`` match: "are incorrect" -1, "is not correct" -1."""
        negated = bool(match.group("nt")) ^ bool(match.group("neg")) ^ bool(match.group("neg2"))
        return self.sign(match.group("adj"), negated=negated)

    def phrase_sign(self, words: Sequence[str], allowed: frozenset[str]) -> int | None:
        """The sign of a short phrase ("incorrect options", "not correct"); None when a
        word is neither a polarity word nor in ``allowed``, or both polarities occur."""
        signs: set[int] = set()
        for i, word in enumerate(words):
            sign = self.sign(word, negated=i > 0 and words[i - 1] == "not")
            if sign:
                signs.add(sign)
            elif word not in allowed:
                return None
        if len(signs) > 1:
            return None
        return signs.pop() if signs else 0


@dataclass(frozen=True, slots=True)
class Context:
    """What every reader of one parse needs."""

    keys: Mapping[str, str]
    labels: Sequence[str]
    texts: Texts
    vocab: Vocab
    leg: int
    """+1 the direct leg, -1 the reverse leg, 0 unknown."""
    copied: set[str]
    """Lines of text the judge was shown (see ``echo``), whitespace-normalised."""


def line_key(line: str) -> str:
    return " ".join(line.split())


def copied_line(text: str, at: int, ctx: Context) -> bool:
    """Whether the line holding ``text[at]`` is a verbatim copy of a line shown to the judge."""
    if not ctx.copied:
        return False
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return line_key(text[start : end if end >= 0 else len(text)]) in ctx.copied


def hedged(text: str, at: int) -> bool:
    """Whether a statement at ``at`` follows "if", "not", "whether", ..."""
    return bool(_HEDGE_BEFORE.search(text, max(0, at - _HEDGE_WINDOW), at))


def _only_labels(text: str, lo: int, hi: int, ctx: Context) -> Reading | None:
    """``text[lo:hi]`` as nothing but labels, after "options", "both", "only", ..."""
    prefix = _LIST_PREFIX.match(text, lo, hi)
    start = prefix.end() if prefix else lo
    return labels_only(text, start, hi, ctx.keys) if start < hi else None


def _list_at(text: str, lo: int, hi: int, ctx: Context, *, texts: TextsRead) -> Reading | None:
    found = _only_labels(text, lo, hi, ctx)
    if found is None:
        found = marked_labels(text, lo, hi, ctx.keys)
    if found is None and texts != "none":
        chunk = text[lo:hi]
        by_text = ctx.texts.exact(chunk)
        if not by_text and texts == "inside":
            by_text = ctx.texts.inside(chunk)
        if by_text:
            found = Reading(frozenset(by_text), strip_bounds(text, lo, hi, NORM_STRIP + "\t\r\n"))
    return found


def _read_list(
    text: str, lo: int, hi: int, ctx: Context, *, texts: TextsRead
) -> tuple[Reading, int] | None:
    """Labels or candidate texts listed in ``text[lo:hi]``, and where the list's head
    ends. The head (what precedes an aside) is read first, then the whole stretch;
    but a whole stretch that is exactly a candidate's text ("10 (rounded)") wins
    over the other forms of its head."""
    lo, hi = strip_bounds(text, lo, hi, _LIST_TRIM)
    if lo >= hi:
        return None
    cut = ASIDE.search(text, lo, hi)
    head = cut.start() if cut is not None and cut.start() > lo else hi
    if head < hi:
        if (found := _only_labels(text, lo, head, ctx)) is not None:
            return found, head  # most answers: no need to look at candidate texts
        if texts != "none" and (whole := ctx.texts.exact(text[lo:hi])):
            span = strip_bounds(text, lo, hi, NORM_STRIP + "\t\r\n")
            return Reading(frozenset(whole), span), hi
        found = _list_at(text, lo, head, ctx, texts=texts)
        if found is not None:
            return found, head
    found = _list_at(text, lo, hi, ctx, texts=texts)
    return (found, hi) if found is not None else None


def _excepted(text: str, lo: int, hi: int, ctx: Context) -> Reading | None:
    """What follows "all except": labels up to the first word that is not one, or a
    candidate's text. Read from a bounded window: a line may say "all except" many
    times, and each is read."""
    run = _LABEL_RUN.match(text, lo, hi)
    if run is not None:
        end = -1
        for word in _ALNUM.finditer(text, *run.span("run")):
            token = word.group()
            if token.lower() in _SEP_WORDS:
                continue
            if token.upper() not in ctx.keys:
                break
            end = word.end()
        if end >= 0:
            return labels_only(text, run.start("run"), end, ctx.keys)
    window = min(hi, lo + _EXCEPT_WINDOW)
    cut = ASIDE.search(text, lo, window)
    head = cut.start() if cut is not None else window
    found = ctx.texts.exact(text[lo:head])
    return Reading(frozenset(found), strip_bounds(text, lo, head, NORM_STRIP)) if found else None


def quantified(
    text: str, quant: re.Match[str], hi: int, ctx: Context
) -> tuple[int, Reading, int] | None:
    """A quantifier at ``quant`` ("all of them are incorrect", "all but B", "none"):
    its sign, its reading and where it ends; None when what follows is not an answer."""
    pos, sign = quant.end(), 0
    verb = VERB_ADJ.match(text, pos, hi)
    if verb is not None:
        sign, pos = ctx.vocab.verb_sign(verb), verb.end()
    excepted: Reading | None = None
    ex = (_EXCEPT if verb is None else _EXCEPT_AFTER).match(text, pos, hi)
    if ex is not None:
        excepted = _excepted(text, ex.end(), hi, ctx)
        if excepted is None or excepted.span is None:
            return None
        closing = _CLOSING.match(text, excepted.span[1], hi)
        pos = closing.end() if closing is not None else excepted.span[1]
        if verb is None and (verb := VERB_ADJ.match(text, pos, hi)) is not None:
            sign, pos = ctx.vocab.verb_sign(verb), verb.end()
    if not _TAIL_OK.match(text, pos, hi):
        return None
    span = (quant.start(), excepted.span[1] if excepted and excepted.span else quant.end())
    named = excepted.labels if excepted else frozenset()
    if quant.group("none"):
        return sign, Reading(named, span), pos  # "none but B": B
    if quant.group("all").lower() == "both" and excepted is None and len(ctx.keys) != 2:
        return None  # "both" names every option only when there are two
    return sign, Reading(named, span, inverted=True), pos


def read_answer(
    text: str, lo: int, hi: int, ctx: Context, *, texts: TextsRead = "inside"
) -> tuple[int, Reading] | None:
    """Read ``text[lo:hi]``, a stretch known to be an answer: its sign and reading.

    ``texts``: how candidate texts count: as the whole stretch or inside it
    (``"inside"``, answer lines, tags, JSON values), only as the whole stretch or its
    head (``"whole"``, headings: "Correct: 9 <= 10" is not C and D), or not at all
    (``"none"``, sentences, whose texts are read by a later rule)."""
    lo, hi = strip_bounds(text, lo, hi, _LIST_TRIM)
    if lo >= hi:
        return None
    quant = QUANT.match(text, lo, hi)
    if quant is not None and (said := quantified(text, quant, hi, ctx)) is not None:
        return said[0], said[1]
    cut = ASIDE.search(text, lo, hi)
    for end in (cut.start(), hi) if cut is not None and cut.start() > lo else (hi,):
        if NONE_ONLY.fullmatch(text, lo, end):
            span = strip_bounds(text, lo, end, _NONE_STRIP)
            return 0, Reading(frozenset(), span if span[0] < span[1] else (lo, end))
    listed = _read_list(text, lo, hi, ctx, texts=texts)
    if listed is None:
        return None
    found, head = listed
    verb = VERB_ADJ.match(text, head, hi)
    return (ctx.vocab.verb_sign(verb) if verb is not None else 0), found


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def next_line(text: str, end: int) -> tuple[int, int] | None:
    """The first line with text after the line ending at ``end``, as offsets."""
    pos = end + 1
    while pos <= len(text) and not text[pos : _line_end(text, pos)].strip():
        pos = _line_end(text, pos) + 1
    return (pos, _line_end(text, pos)) if pos <= len(text) else None


def _item(text: str, lo: int, hi: int) -> re.Match[str] | None:
    """A list item's label: "- B) 8", "2. (C)", "**A)** 7", "D) 10"."""
    return NUMBERED.match(text, lo, hi) or _BARE_ITEM.match(text, lo, hi)


def read_block(
    text: str, end: int, ctx: Context, *, texts: TextsRead = "inside"
) -> tuple[int, Reading, int] | None:
    """The answer under a line that ends before it ("Incorrect options:", "The
    correct answer is:"), ``end`` being that line's end: a list of labels, one item
    a line ("- B) 8", "D) 10"), when it has two items or more, else the next line.
    Its sign, its reading and the end of what was read."""
    first = next_line(text, end)
    if first is None:
        return None
    lo, hi = first
    following = next_line(text, hi)
    item = _item(text, lo, hi)
    if item is None or following is None or _item(text, *following) is None:
        said = read_answer(text, lo, hi, ctx, texts=texts)
        if said is not None:
            return said[0], said[1], hi
        if item is not None and (label := ctx.keys.get(item["n"].upper())) is not None:
            return 0, Reading(frozenset({label}), item.span("n")), hi  # "- C) 9: the greatest"
        return None
    found: set[str] = set()
    stop = hi
    while True:
        item = _item(text, lo, hi)
        label = ctx.keys.get(item.group("n").upper()) if item is not None else None
        if item is None or label is None:
            break
        found.add(label)
        stop = hi
        line = next_line(text, hi)
        if line is None:
            break
        lo, hi = line
    return (0, Reading(frozenset(found), None), stop) if found else None
