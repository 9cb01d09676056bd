"""Prose: claims that state the whole answer, per-candidate statements, quantifiers, a
pair's ties and preferences; loose forms and candidate texts for the last resort.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from prin_guard.models import ParseMethod
from prin_guard.reader._answers import (
    _ASIDE,
    _EXCEPT_AFTER,
    _NUMBERED,
    _PUNCT_ONLY,
    _QUANT,
    _disagrees,
    _excepted,
    _item,
    _label_and_text,
    _marked_labels,
    _named,
    _only_labels,
    _quantified,
    _read_answer,
    _read_block,
    _run_labels,
    _texts_list,
    more_labels,
)
from prin_guard.reader._closers import closing_start
from prin_guard.reader._evidence import (
    _FAILED,
    ParseResult,
    _admitted,
    _Context,
    _Reading,
    _Status,
    _tie_free,
    per_text,
)
from prin_guard.reader._exclusion import sides as exclusion_sides
from prin_guard.reader._picks import pick_side, picked_texts
from prin_guard.reader._resolve import _joint_result, _result
from prin_guard.reader._revisions import Revisions
from prin_guard.reader._stance import (
    _CONCLUDING,
    _OPEN_CLAUSE,
    _QUALIFIER,
    stance,
)
from prin_guard.reader._structures import _structure_statuses
from prin_guard.reader._text import (
    _BREAK,
    _LABEL,
    _MARKED,
    _NORM_STRIP,
    _NOUN,
    _RUN,
    _VERB_ADJ,
    _VERB_ADJ_SCAN,
    _VERB_ADJ_SOURCE,
    _WORD_RUN,
    _line_end,
    _next_line,
    _norm,
    _Pattern,
    _strip_bounds,
)
from prin_guard.reader._vocab import _negated, predicate_source

_NONE_WORD = _Pattern(r"\bnone\b", re.IGNORECASE)


_QUOTED = _Pattern(r"[\"“'`]([^\"”'`\n]{1,200})[\"”'`]")


def _loose_forms(text: str, ctx: _Context) -> list[_Reading]:
    """ "c)", "(C)", "option C", numbered list lines "1. C", anywhere (choice only)."""
    loose: list[_Reading] = []
    math = _math_spans(text)
    matches = [
        match
        for match in _MARKED.finditer(text)
        if not _inside(math, match.start())
        and not (match.lastgroup == "r" and _closes_aside(text, match.start()))
        # "the conviction for larceny (E) is less clear": no pick
        and not stance(text, match.start(), match.end()).hedged
    ]
    # a reply that lists the options (two lines or more that restate one): its listing
    # lines are no picks
    listed = [
        match.start()
        for match in matches
        if (label := ctx.keys.get(match.group(match.lastgroup or "p").upper())) is not None
        and _listed(text, match.start(), label, ctx)
    ]
    skip = frozenset(listed) if len(listed) >= 2 else frozenset()
    # a reasoning that goes through the options by their texts, glossing each with its
    # label in sentences that conclude nothing ("The mitochondrion ... (A). Ribosomes
    # (C) make proteins, ..."), in two sentences or more: the options named, not picked
    glosses = {
        match.start(): sentence
        for match in matches
        if match.lastgroup in ("p", "b")
        and (label := ctx.keys.get(match.group(match.lastgroup).upper())) is not None
        and (sentence := _glosses(text, match.start(), label, ctx)) is not None
    }
    if len(set(glosses.values())) >= 2:
        skip |= frozenset(glosses)
    for match in matches:
        group = match.lastgroup or "p"
        label = ctx.keys.get(match.group(group).upper())
        if label is None or match.start() in skip:
            continue
        if group == "o" and (more := more_labels(text, match.start(group), len(text), ctx)):
            loose.append(more)  # "options A and C", "choices A & C": every label of the run
            continue
        disagrees = group in ("p", "r") and _disagrees(text, match.end(), label, ctx)
        loose.append(_Reading(frozenset({label}), match.span(group), disagrees=disagrees))
    for match in _NUMBERED.finditer(text):
        label = ctx.keys.get(match.group("n").upper())
        if label is not None and not _inside(math, match.start()):
            loose.append(_Reading(frozenset({label}), match.span("n")))
    return loose


# LaTeX math: "\( ( y - a ) \)", "\[ c = 1.5 \]", "$$...$$", "$x$" (a display at most
# _MATH_CHARS long: an unclosed one is not scanned to the reply's end from every opener)
_MATH_CHARS = 2000
_MATH = _Pattern(
    rf"\\\([\s\S]{{0,{_MATH_CHARS}}}?\\\)|\\\[[\s\S]{{0,{_MATH_CHARS}}}?\\\]"
    rf"|\$\$[\s\S]{{0,{_MATH_CHARS}}}?\$\$|\$[^$\n]{{1,200}}\$"
)


def _math_spans(text: str) -> list[tuple[int, int]]:
    """Where LaTeX math stands in ``text``: a letter in it is a variable ("\\( y - a \\)",
    "set \\( A \\)" when not a label's own math, which was read before), no label's mark."""
    if "\\" not in text and "$" not in text:
        return []
    return [match.span() for match in _MATH.finditer(text)]


def _glosses(text: str, at: int, label: str, ctx: _Context) -> int | None:
    """Whether the label in brackets at ``at`` glosses its own candidate's text named
    before it in a sentence that concludes nothing ("Ribosomes (C) make proteins", "the
    powerhouse of the cell, where respiration happens (A)" after "The mitochondrion"):
    the option named, as a reasoning names the ones it rules out. Where its sentence
    starts; None when it is no gloss."""
    if len(ctx.labels) > _TEXT_CANDIDATES:
        return None  # an item of many candidates does not pay for indexing their texts
    start = max(text.rfind(mark, max(0, at - _SUBJECT_WINDOW), at) for mark in _SENTENCE_ENDS)
    start = max(0, start + 1, at - _SUBJECT_WINDOW)
    ends = [found for mark in _SENTENCE_ENDS if (found := text.find(mark, at)) >= 0]
    end = min([*ends, len(text), at + _SUBJECT_WINDOW])
    if _CONCLUDING.search(text, start, end):
        return None  # "Based on the given properties, ... covalent network bonding (C)."
    if label in ctx.texts.inside(text[start:at]):
        return start
    own = ctx.texts.norm_of(label)  # in the plural: "Ribosomes (C)" of "Ribosome"
    if not own or len(own) < _SHORT_GLOSS:
        return None
    plural = re.compile(rf"(?<!\w){re.escape(own)}e?s(?!\w)")
    return start if plural.search(_norm(text[start:at])) is not None else None


_SHORT_GLOSS = 3


def _closes_aside(text: str, at: int) -> bool:
    """Whether the ")" after the letter at ``at`` closes a bracket opened before it on its
    line ("(on strain B)", "(see c)"): an aside's end, not a label's mark ("c)")."""
    line = text.rfind("\n", 0, at) + 1
    return text.count("(", line, at) > text.count(")", line, at)


_END = 1 << 62


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` falls in one of ``spans`` (in order, apart)."""
    i = bisect_right(spans, (at, _END)) - 1
    return i >= 0 and spans[i][0] <= at < spans[i][1]


def _listed(text: str, at: int, label: str, ctx: _Context) -> bool:
    """Whether the mark at ``at`` starts a line that restates its option ("A) 184",
    "C) A base pair is either inserted ..."), or is alone on a line after such a line (a
    listing cut there: "D) 177\nE)"): a listing of the options, no pick."""
    line = text.rfind("\n", 0, at) + 1
    if text[line:at].strip(_LINE_MARKUP):
        return False
    end = _line_end(text, at)
    own = _label_and_text(text, line, end, ctx)
    if own is not None:
        return label in own.labels and not own.disagrees
    if line < 2 or _only_labels(text, line, end, ctx) is None:
        return False
    before = text.rfind("\n", 0, line - 1) + 1
    restated = _label_and_text(text, before, line - 1, ctx)
    return restated is not None and not restated.disagrees


def _candidate_texts(text: str, ctx: _Context) -> ParseResult:
    whole = ctx.texts.exact(text)
    if whole:
        span = _strip_bounds(text, 0, len(text), _NORM_STRIP + "\t\r\n")
        return _result(_Reading(frozenset(whole), span), ParseMethod.CANDIDATE_TEXT, ctx)
    places: list[_Reading] = []
    for match in _QUOTED.finditer(text):
        lo, hi = match.span(1)
        marked = _marked_labels(text, lo, hi, ctx)
        exact = ctx.texts.in_quotes(match.group(), match.group(1))
        if marked is not None:
            places.append(marked)
        elif exact:
            places.append(_Reading(frozenset(exact), _strip_bounds(text, lo, hi, _NORM_STRIP)))
    if not places:
        for match in _ANCHORED.finditer(text):
            lo, hi = match.span("span")
            if not text[lo:hi].strip():  # "The answer is:" and the answer below
                lo, hi = _next_line(text, hi) or (hi, hi)
                below = _next_line(text, hi)
                if below is not None and _item(text, *below) is not None:
                    continue  # the first line of a listing of the options ("A) 184\nB) 367")
            inside = ctx.texts.inside(text[lo:hi])
            if inside:
                span = _strip_bounds(text, lo, hi, _NORM_STRIP + "\t\r\n")
                places.append(_Reading(frozenset(inside), span))
    if places:  # a candidate's text inside prose: a weak cue
        return _joint_result(places, ParseMethod.CANDIDATE_TEXT, ctx, weak=True)
    none = _NONE_WORD.search(text)
    if none is not None and len(text) < 80:
        none_said = _Reading(frozenset(), none.span(), weak=True)
        return _result(none_said, ParseMethod.NONE_WORD, ctx)
    return _FAILED


# "the answer is C", "the incorrect options are D and E", "the better response is B",
# "the correct ones are:", "the winner is Output (a)", "the criteria that are not met are B"
_ANCHORED = _Pattern(
    r"\b(?:the\s+)?(?:(?P<adj>[A-Za-z]+)\s+)??(?P<noun>answers?|options?|choices?|ones?"
    r"|responses?|outputs?|criteria|criterion|claims?|statements?|requirements?|verdict|decision|winner"
    r"|preference|picks?)\s+"
    # what the answer is for: "the most appropriate choice to find a place to stay would be"
    # (not before a colon: "the most likely option to provide ... is:\n\nThe answer is (B).")
    r"(?:(?:to|for)\s+[a-z]+(?:\s+[a-z]+){0,7}\s+"
    r"(?=(?:(?:would|should|must|will)\s+be|is)\b(?![^\S\n]*[:\n])))?"
    r"(?:(?:that|which)\s+(?:is|are)\s+(?P<rneg>not\s+)?(?P<radj>[A-Za-z]+)\s+"
    # a verb of the direct side: "the ones that hold are 11 and 17"
    r"|(?:that|which)\s+(?P<rverb>hold|fit|qualify|apply|work|count|belong)\s+)?"
    r"(?:is|are|(?:would|should|must|will)\s+be|:)[^\S\n]*(?::[^\S\n]*)?"
    # a connective after the verb: "the incorrect options are therefore A, C and D"
    r"(?:(?:therefore|thus|hence|then|so|clearly)\b,?[^\S\n]*)?"
    # a softener: "the answer is most likely D" (the clause's stance reads it: weak)
    r"(?:(?:(?:most|very|quite)\s+)?(?:likely|probably)\b,?[^\S\n]*)?"
    r"(?P<span>(?:[^\n.]|\.(?=\d)){0,1000})",
    re.IGNORECASE,
)


# an article before a candidate's text: "would be a phone book" of the text "phone book"
_ARTICLE = _Pattern(r"[^\S\n]*(?:a|an|the)[^\S\n]+", re.IGNORECASE)


# Labels before a verb: "A and C are incorrect", "Options B and D are wrong". The verb
# is optional, so that every run is consumed where it starts (linear time).
# (?=...): a run starts with a word or a label, perhaps in brackets
_STATEMENT = _Pattern(
    rf"(?=[a-z(\[])(?<![A-Za-z0-9°]){_RUN}(?P<verb>{_VERB_ADJ_SOURCE})?", re.IGNORECASE
)


# "only" just before a statement's labels ("Actually, only A is correct.", "only options B
# and D are wrong"); not "not only", "if only"
_ONLY_BEFORE = _Pattern(
    r"(?<![\w-])(?<!not\s)(?<!if\s)only[^\S\n]+(?:(?:the[^\S\n]+)?(?:options?|choices?)"
    r"[^\S\n]+)?[*_(\[]*\Z",
    re.IGNORECASE,
)


# Labels before a verb of their own: "Output (a) wins", "criterion B fails"
_RUN_VERB = _Pattern(
    rf"(?=[a-z(\[])(?<![A-Za-z0-9°]){_RUN}(?:\s+(?:(?:clearly|also|only|still|easily|narrowly"
    r"|slightly)\s+)?"
    r"(?P<v>wins|won|outperforms|outperformed|surpasses|beats|loses|lost|fails|failed|passes"
    r"|passed)\b)?",
    re.IGNORECASE,
)


_RUN_VERB_SIGNS = {
    "wins": 1, "won": 1, "outperforms": 1, "outperformed": 1, "surpasses": 1, "beats": 1,
    "loses": -1, "lost": -1, "fails": -1, "failed": -1, "passes": 1, "passed": 1,
}  # fmt: skip


_GRADE_VERBS = frozenset({"fails", "failed", "passes", "passed"})


# "Response B is more accurate than Response A", "A is clearer than B" (names written as
# labels): quality words only
_QUALITIES = (
    r"accurate|helpful|correct|relevant|complete|informative|precise|coherent|faithful"
    r"|useful|thorough|appropriate|comprehensive|truthful|reliable"
)
_COMPARATIVE = _Pattern(
    r"(?<![A-Za-z0-9])(?P<x>[A-Z][A-Z0-9]{0,3})(?![A-Za-z0-9])[^\S\n]+(?:is|was|seems)[^\S\n]+"
    r"(?:(?:much|far|slightly|clearly|significantly|somewhat|a\s+bit)[^\S\n]+)?"
    rf"(?:(?P<more>more|less)[^\S\n]+(?P<adj>{_QUALITIES})|(?P<adj2>clearer|stronger|weaker))"
    r"[^\S\n]+than[^\S\n]+(?P<y>[A-Z][A-Z0-9]{0,3})(?![A-Za-z0-9])",
    re.IGNORECASE,
)


# "...; so is C", "and so are B and D"
_SO_IS = _Pattern(
    rf"(?<![\w-])so\s+(?:is|are|was|were|does|do)\s+{_RUN}(?![\w-])\s*(?=$|[.;,!\n])",
    re.IGNORECASE,
)


# ", while B and D are not.", "; however, C is not"
_ELIDED = _Pattern(
    rf"(?:,|;)\s*(?:while|whereas|but|however,?|yet)\s+{_RUN}\s+(?:is|are)(?:\s+not|n[’']t)"
    r"\s*(?=$|[.;!\n])",
    re.IGNORECASE,
)


# "the rest are incorrect", "all other options are wrong": every label but those
# stated in the other polarity
_REST = _Pattern(
    rf"(?=[atro])(?<![\w-])(?P<rest>(?:all\s+)?(?:the\s+)?(?:rest|others|other\s+{_NOUN}"
    rf"|remaining(?:\s+{_NOUN})?)(?:\s+of\s+(?:them|the\s+{_NOUN}))?)(?![\w-])"
    rf"(?P<verb>{_VERB_ADJ_SOURCE})",
    re.IGNORECASE,
)


# "..., the others are not.", "; the rest aren't"
_REST_NOT = _Pattern(
    rf"(?=[atro])(?<![\w-])(?P<rest>(?:all\s+)?(?:the\s+)?(?:rest|others|other\s+{_NOUN}"
    rf"|remaining(?:\s+{_NOUN})?)(?:\s+of\s+(?:them|the\s+{_NOUN}))?)(?![\w-])"
    r"\s+(?:(?:is|are)\s+not|isn[’']t|aren[’']t)(?=\s*(?:$|[.;!\n]))",
    re.IGNORECASE,
)


# "the incorrect ones are the rest", "the correct options are all the others", "..., the
# wrong ones are the remaining ones": the rest, named by the side a subject gives them
_REST_NAMED = _Pattern(
    rf"(?<![\w-])(?P<adj>[A-Za-z]+)\s+{_NOUN}\s+(?:are|would\s+be)\s+(?P<rest>(?:all\s+)?"
    rf"(?:the\s+)?(?:rest|others|other\s+{_NOUN}|remaining(?:\s+{_NOUN})?)"
    rf"(?:\s+of\s+(?:them|the\s+{_NOUN}))?)(?![\w-])",
    re.IGNORECASE,
)


# "some of the others", "one of the rest": part of the rest, not all of it
_PART_OF = _Pattern(
    r"(?<![\w-])(?:some|one|two|three|a\s+few|few|several|many|most|any|each|none|either"
    r"|neither)\s+of\s+$",
    re.IGNORECASE,
)
_PART_SPAN = 24


def _part_of(text: str, at: int) -> bool:
    """Whether the rest named at ``at`` is only part of it ("some of the others")."""
    return _PART_OF.search(text, max(0, at - _PART_SPAN), at) is not None


# "B and D are not incorrect; the others are.": the rest, the status the clause before
# denied of its own
_REST_ARE = _Pattern(
    rf"(?=[atro])(?<![\w-])(?P<rest>(?:all\s+)?(?:the\s+)?(?:rest|others|other\s+{_NOUN}"
    rf"|remaining(?:\s+{_NOUN})?)(?:\s+of\s+(?:them|the\s+{_NOUN}))?)(?![\w-])"
    r"\s+(?:is|are)(?=\s*(?:$|[.;!\n]))",
    re.IGNORECASE,
)


# A second anchored claim joined to the first: ", and the incorrect ones are B and D"
_NEXT_ANCHORED = _Pattern(
    rf",?\s+(?:and|but|while|whereas)\s+(?=(?:the\s+)?[A-Za-z]+\s+{_NOUN}\s+(?:are|is)\s)",
    re.IGNORECASE,
)


# "I prefer Response 2", "I would choose B"
_PREFER = _Pattern(
    r"(?:(?<![\w-])I(?:\s+would|'d|’d|\s+will|'ll|’ll|'m|’m|\s+am|\s+must|\s+therefore|\s+thus"
    r"|\s+clearly|\s+definitely|\s+strongly|\s+slightly|\s+ultimately|\s+overall)*\s+"
    # or the imperative, at a sentence's start: "Go with B.", "So, pick A and C."
    r"|(?:\A|(?<=\n)|(?<=[.!?:;]\s))[^\S\n*_>#-]*+(?:(?:so|thus|hence|therefore)\s*,?\s+)?)"
    r"(?P<v>prefer|choose|going\s+with|pick|select|go\s+with|vote\s+for|favou?r|recommend"
    r"|side\s+with|settle\s+on|stick\s+with"
    r"|(?:(?<='ll\s)|(?<=’ll\s)|(?<='d\s)|(?<=’d\s)|(?<=will\s)|(?<=would\s))say)\s+"
    r"(?:(?:the\s+)?(?:responses?|outputs?|answers?|ones?|completions?)\s+(?:from|by|of)\s+)?"
    rf"{_RUN}",
    re.IGNORECASE,
)


# What a choice's reply says it answers, whichever question is asked: "I'll say A, D and
# E." (on the reverse leg, the incorrect ones; a pick, "I'll go with B", stays the direct
# side's), when the labels end the clause ("I'll say A and C are correct" is a status)
_RESOLVING = _Pattern(r"say", re.IGNORECASE)
_CLAUSE_DONE = _Pattern(r"[^\S\n]*(?:[.!;\n]|,|$|\.\.\.|…)")


# A pair's tie in words: "it's a tie", "both are equally good", "neither is better"
_TIE = _Pattern(
    r"(?<![\w-])(?:it(?:'s|’s|\s+is|\s+was)\s+a\s+(?:tie|draw)|(?:a|the)\s+(?:tie|draw)\b"
    r"|equally\s+(?:good|bad|well|poor|poorly|strong|weak|helpful|unhelpful|valid|acceptable"
    r"|effective|correct|incorrect|fine|great|preferable|suitable|appropriate|satisfactory"
    r"|useful|matched|flawed)"
    r"|(?:equal|the\s+same|similar|comparable)\s+(?:in\s+)?(?:overall\s+)?quality"
    r"|on\s+(?:a\s+)?par\b|no\s+(?:clear\s+)?(?:winner|preference)"
    r"|neither\s+(?:\w+\s+){0,2}?(?:is|was)\s+(?:\w+\s+)?(?:better|worse|superior|inferior"
    r"|preferable)|(?:they|both)\s+(?:are|were)\s+(?:\w+\s+)?tied)(?![\w-])",
    re.IGNORECASE,
)


# "The response meets criteria A and C", "it fails to meet B", "the sources do not
# support claims 1 and 3", "It meets all criteria"
_CHECK_VERB = _Pattern(
    r"(?<![\w-])(?:it|they|this|but|and|yet|while|though|the\s+(?:\w+\s+)?(?:response|answer"
    r"|output|text|essay|summary|submission|reply|sources?|context|passage|documents?"
    r"|evidence|references?|article))\s+"
    r"(?P<aux>(?:(?:does|do|did)\s*(?:not|n[’']t)|cannot|can[’']t|doesn[’']t|don[’']t)\s+)?"
    r"(?:(?:clearly|fully|also|only|successfully|correctly|indeed|still)\s+)?"
    r"(?P<verb>meets?|met|satisf(?:y|ies|ied)|fulfil+s?|fulfil+ed|supports?|supported"
    r"|pass(?:es|ed)?|address(?:es|ed)?|follows?|followed|adheres?\s+to|compl(?:ies|y)\s+with"
    r"|fail(?:s|ed)?(?:\s+to\s+(?:meet|satisfy|fulfil+|support|address|follow))?"
    r"|violates?|violated|misses|missed|contradicts?|contradicted)\s+"
    r"(?:(?P<quant>all|none|every|each|both|any)\s+(?:of\s+)?(?:the\s+|its\s+|these\s+|those\s+)?"
    r"(?:\w+\s+)?(?:criteria|criterion|claims?|requirements?|items?|statements?|points?)\b"
    r"|(?:the\s+)?(?:(?:following|given|stated|listed)\s+)?"
    rf"(?:(?:criteria|criterion|claims?|requirements?|items?|statements?|points?)\s*:?\s*)?{_RUN})",
    re.IGNORECASE,
)


_NEGATIVE_VERBS = ("fail", "violat", "miss", "contradict")


_LEAD = _Pattern(
    r"[\s*_`>#-]*(?:(?:so|thus|therefore|hence|overall|finally|in\s+(?:conclusion|summary))\b"
    r"[\s,:]*)?",
    re.IGNORECASE,
)


# Labels joined by ">", "=" or "<": "B > A", "B > C = A > D" (names already written as
# labels, padded with spaces).
_ORDERING = _Pattern(
    r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]{0,3}(?:[^\S\n]*(?:>>|>|=|<<|<)[^\S\n]*[A-Z][A-Z0-9]{0,3})+"
    r"(?![A-Za-z0-9])"
)
_ORDER_OP = _Pattern(r"[^\S\n]*(>>|>|=|<<|<)[^\S\n]*")


def _ranks(ordering: str, ctx: _Context) -> dict[str, int] | None:
    """Each candidate's rank in an ordering naming every one once, else None."""
    parts = _ORDER_OP.compiled.split(ordering.strip())
    names, ops = parts[::2], parts[1::2]
    if any(op in ("<", "<<") for op in ops):
        if any(op in (">", ">>") for op in ops):
            return None
        names, ops = names[::-1], ops[::-1]
    ranks: dict[str, int] = {}
    rank = 1
    for index, name in enumerate(names):
        label = ctx.keys.get(name)
        if label is None or label in ranks:
            return None
        if index and ops[index - 1] != "=":
            rank += 1
        ranks[label] = rank
    return ranks if len(ranks) == len(ctx.labels) else None


@dataclass(frozen=True, slots=True)
class _Claim:
    """A sentence that states the whole answer: "the answer is C", "Output (a) is better",
    "both are equally good"."""

    at: int
    """Where the claim starts."""
    end: int
    """Where its words end (an aspect or a condition may follow)."""
    reach: int
    """Where what it reads ends (a list below "The answer is:")."""
    sign: int
    reading: _Reading
    forced: bool = False
    """The form concludes by itself: "I prefer B", "A wins"."""
    stated: bool = False
    """The claim names the answer in so many words: "The answer is (B).", "The correct
    options are A and C." (not "the options are A) 9 B) 2")."""


class _Claims:
    """The claims and statuses of a reply's prose and structures, and its conclusion."""

    def __init__(self, text: str, ctx: _Context) -> None:
        self.text = text
        self.ctx = ctx
        self.whole: list[_Claim] = []
        self.statuses: list[_Status] = []
        self.opposite = False
        self.conflict = False
        self.structured = False
        self._breaks = [0, *(match.end() for match in _BREAK.finditer(text))]
        self._unfinished = _cut_off(text)
        lo, hi = _strip_bounds(text, 0, len(text))
        self._first_end = self._sentence(lo)[1]
        self._last_line = text.rfind("\n", 0, hi) + 1
        self._anchored()
        self._statements()
        self._quantifiers()
        if ctx.pair:
            self._pair_forms()
        elif ctx.task == "choice":
            self._choices()
            if ctx.vocab.predicate:
                self._predicate_claims()
        if ctx.task == "choice":
            self._side_verbs()
        if ctx.task != "checklist":
            self._orderings()
        if ctx.task == "checklist":
            self._check_verbs()
        # "C is correct. Wait, no: B is correct.": the statements before a retraction go
        cut = Revisions(text).retracted_before(
            sorted(
                ((status.at, status.label, status.sign) for status in self.statuses),
                key=lambda statement: statement[0],
            )
        )
        if cut:
            self.statuses = [status for status in self.statuses if status.at >= cut]
        structured = _structure_statuses(text, ctx)
        if structured:
            self.structured = True
            self.statuses.extend(structured)

    # -- finding claims --------------------------------------------------------------

    def _add(
        self, at: int, end: int, sign: int, reading: _Reading, *, forced: bool = False
    ) -> None:
        reach = max(end, reading.span[1] if reading.span else end)
        self.whole.append(_Claim(at, end, reach, sign, reading, forced))

    def _anchored(self) -> None:
        """ "The incorrect options are D and E", "The better response is B", "The answer is
        C", and a list below "The correct ones are:"."""
        text, ctx = self.text, self.ctx
        pos = 0
        while (match := _ANCHORED.search(text, pos)) is not None:
            lo, hi = match.span("span")
            semicolon = text.find(";", lo, hi)
            if (
                semicolon >= 0
                and text[lo:semicolon].strip()
                and _read_answer(text, lo, semicolon, ctx, texts="none") is None
                and _label_and_text(text, lo, semicolon, ctx) is None
            ):
                # named by its text before a semicolon: "The right one is Jane Austen;
                # Charlotte Brontë (A) wrote ...", not a list "A: 7; C: 13"
                hi = semicolon
                cut_at: int | None = semicolon + 1
            else:
                cut_at = None
            if (other := _NEXT_ANCHORED.search(text, lo, hi)) is not None:
                # "the correct options are A, C and E, and the incorrect ones are B and D":
                # two claims, each with its own labels
                hi, cut_at = other.start(), other.end()
            # the next sentence may start inside this one's span: "..., so the incorrect
            # options are A, B": go on from the end of this span's head
            cut = _ASIDE.search(text, lo, hi)
            pos = cut.end() if cut is not None else cut_at or match.end()
            reach = hi
            if text[lo:hi].strip():
                said = _read_answer(text, lo, hi, ctx, texts="none")
                if said is None and (own := _label_and_text(text, lo, hi, ctx)) is not None:
                    said = (0, own)  # "The answer is **G: developing a global ...**"
                if said is None and (match.group("adj") or match.group("rverb")):
                    # "the incorrect ones are Sydney and Toronto": texts, the whole stretch
                    said = _read_answer(text, lo, hi, ctx, texts="whole")
                    article = _ARTICLE.match(text, lo, hi)
                    if said is None and article is not None:
                        # "the most appropriate choice ... would be a phone book"
                        said = _read_answer(text, article.end(), hi, ctx, texts="whole")
            elif (block := _read_block(text, hi, ctx, texts="none")) is not None:
                said, pos, reach = block[:2], max(pos, block[2]), block[2]
            else:
                said = None
            if said is None:
                continue
            adjective, noun = match.group("adj"), match.group("noun")
            sign = (ctx.vocab.sign(adjective) if adjective else 0) or ctx.vocab.sign(noun)
            if match.group("radj"):  # "the criteria that are not met are B and D"
                sign = ctx.vocab.sign(match.group("radj"), negated=bool(match.group("rneg")))
            elif match.group("rverb") and ctx.task == "choice":
                sign = 1  # "the ones that hold are 11 and 17"
            reading = said[1]
            end = reading.span[1] if reading.span else hi
            qualified = stance(text, match.start(), end)
            if qualified.hedged or qualified.negated or qualified.excepted:
                continue  # "I don't think the answer is C" is no answer
            if qualified.soft:
                reading = dataclasses.replace(reading, weak=True)
            stated = noun.lower() in _ANSWER_NOUNS or bool(adjective and ctx.vocab.sign(adjective))
            if len(reading.labels) == 1 and reading.span is not None:
                # "The answer is **B. 15**." where 15 is A's text: no verdict
                (label,) = reading.labels
                mark = _TEXT_MARK.match(text, reading.span[1])
                if mark is not None and _disagrees(text, mark.end(), label, ctx):
                    reading = dataclasses.replace(reading, disagrees=True)
            claim = _Claim(match.start(), end, max(end, reach), sign or said[0], reading)
            self.whole.append(dataclasses.replace(claim, stated=stated))

    def _statements(self) -> None:
        """ "A and C are incorrect because ...", "Output (b) is better", "criterion B
        fails", and "the rest are incorrect" after labels stated in the other words."""
        text, ctx = self.text, self.ctx
        for match in _STATEMENT.finditer(text):
            if match.group("verb") is None:
                continue
            sign = ctx.vocab.verb_sign(match)
            run = _run_labels(text, match.start("run"), match.end("run"), ctx) if sign else None
            if run is not None:
                self._statement(run, sign, match.end(), negated=_negated(match))
        for match in _RUN_VERB.finditer(text):
            verb = (match.group("v") or "").lower()
            run = _run_labels(text, match.start("run"), match.end("run"), ctx) if verb else None
            if run is None:
                continue
            sign = _RUN_VERB_SIGNS[verb]
            if not ctx.pair and verb in _GRADE_VERBS:  # "criterion B fails"
                self._statement(run, sign, match.end())
            elif ctx.pair and verb not in _GRADE_VERBS:  # "A wins"
                self._statement(run, sign, match.end(), forced=True)
        if ctx.pair:
            self._comparatives()
            return
        self._so_is()
        self._elided()
        self._text_statements()
        self._option_lines()
        stated = {
            sign: {s.label for s in self.statuses if s.sign == sign and s.label} for sign in (1, -1)
        }
        for match in _REST.finditer(text):
            sign = ctx.vocab.verb_sign(match)
            if not sign or not stated.get(-sign):
                continue
            # "C is correct; the rest are incorrect": all but C
            qualified = stance(text, match.start("rest"), match.end())
            if qualified.hedged or qualified.excepted or _part_of(text, match.start("rest")):
                continue
            if qualified.negated:
                sign = -sign
            self.statuses.append(
                _Status(
                    None,
                    sign,
                    match.span("rest"),
                    match.start(),
                    False,
                    weak=qualified.negated or qualified.soft,
                )
            )
        self._complements(stated)
        for match in _REST_NOT.finditer(text):
            # "A and C are correct, the others are not": the rest, the side not stated
            signs = [sign for sign in (1, -1) if stated[sign]]
            if len(signs) != 1 or stated[signs[0]] == set(ctx.labels):
                continue
            qualified = stance(text, match.start("rest"), match.end())
            if qualified.hedged or qualified.excepted or qualified.negated:
                continue
            if _part_of(text, match.start("rest")):
                continue
            before = self._sentence(max(0, self._sentence(match.start())[0] - 2))[0]
            if not any(before <= s.at < match.start() for s in self.statuses if s.label):
                continue  # the statement it leaves out is not just before it
            self.statuses.append(
                _Status(
                    None, -signs[0], match.span("rest"), match.start(), False, weak=qualified.soft
                )
            )

    def _complements(self, stated: dict[int, set[str]]) -> None:
        """The rest named by a side ("B is correct, so the incorrect ones are the rest"),
        and the rest given the status a clause just before denied its own candidates ("B
        and D are not incorrect; the others are."): every candidate without a status."""
        text, ctx = self.text, self.ctx
        for match in _REST_NAMED.finditer(text):
            sign = ctx.vocab.sign(match.group("adj"))
            if not sign or not stated[-sign] or stated[sign]:
                continue
            qualified = stance(text, match.start(), match.end())
            if qualified.hedged or qualified.excepted or qualified.negated:
                continue
            self.statuses.append(
                _Status(None, sign, match.span("rest"), match.start(), False, weak=qualified.soft)
            )
        for match in _REST_ARE.finditer(text):
            start = self._sentence(max(0, self._sentence(match.start())[0] - 2))[0]
            before = [s for s in self.statuses if start <= s.at < match.start() and s.label]
            if not before or any(s.sign != before[-1].sign for s in before):
                continue
            last = before[-1]
            end = last.span[1] if last.span is not None else last.at
            verb = _VERB_ADJ.compiled.match(text, end)
            if verb is None or not _negated(verb) or ctx.vocab.verb_sign(verb) != last.sign:
                continue  # "B and D are not incorrect": the others are incorrect
            qualified = stance(text, match.start("rest"), match.end())
            if qualified.hedged or qualified.excepted or qualified.negated:
                continue
            if _part_of(text, match.start("rest")):
                continue
            self.statuses.append(
                _Status(None, -last.sign, match.span("rest"), match.start(), False, weak=last.weak)
            )

    def _text_statements(self) -> None:
        """Candidates named by their texts before a verb and a status: "Neon and Argon
        are noble gases", "Milan isn't a capital", "options A (124), C (142) and E (164)
        are incorrect" (the clause's subject, :meth:`_subject_before`); and, with the
        status left out after a statement, the other side: "Nitrogen (B) and oxygen (D)
        are not.", "; nitrogen and oxygen are not"."""
        text, ctx = self.text, self.ctx
        for match in _VERB_ADJ_SCAN.finditer(text):
            sign = ctx.vocab.verb_sign(match)
            if sign and (found := self._subject_before(match.start())) is not None:
                self._statement(found, sign, match.end(), negated=_negated(match))
        for match in _IS_NOT.finditer(text):
            found = self._subject_before(match.start())
            if found is None or found.span is None:
                continue
            # the statement just before: in this sentence or the one before it
            start = self._sentence(max(0, self._sentence(match.start())[0] - 2))[0]
            before = [
                status
                for status in self.statuses
                if start <= status.at < found.span[0] and status.label is not None
            ]
            if before and not (found.labels & {status.label for status in before}):
                last = before[-1]
                # "B is not. D is not.": after a denial, the elliptic "not" denies too
                end = last.span[1] if last.span is not None else last.at
                same = _DENIED.match(self.text, end, self._sentence(last.at)[1])
                self._carry(found, last.sign if same else -last.sign, last)

    def _subject_before(self, end: int) -> _Reading | None:
        """The candidates the subject of the clause ending at ``end`` names
        (:func:`_subject`), from the nearest clause start back that makes one (a comma
        may part the clause or the list): the longest such subject."""
        text, ctx = self.text, self.ctx
        # an item of many candidates does not pay for indexing their texts: labels only
        texts = len(ctx.labels) <= _TEXT_CANDIDATES
        lo = max(0, end - max(2 * ctx.texts.longest + 40 if texts else 0, _SUBJECT_WINDOW))
        # not across a sentence's end: "... A/C. (B & D are incorrect.)" is about B and D
        floor = max(
            (at + len(mark) for mark in _SENTENCE_ENDS if (at := text.rfind(mark, lo, end)) >= 0),
            default=0,
        )
        starts = sorted(
            at + len(mark)
            for mark in _CLAUSE_MARKS
            for at in _last_few(text, mark, max(lo, floor - len(mark)), end)
        )[-_SUBJECT_TRIES:]
        # "32 is valid and 45 is invalid": "and" after a clause with its own verb starts one
        clause = max(starts, default=max(lo, floor))
        starts.extend(
            at + 5
            for at in _last_few(text, " and ", clause, end)
            if _COPULA_WORD.search(text, clause, at)
        )
        starts.sort()
        if not lo and not floor:
            starts.insert(0, 0)
        for start in starts:
            if _list_tail(text, start, end, max(lo, floor), ctx):
                continue  # "0, [], and {} are falsy": not {} alone
            lead = _SUBJECT_LEAD.match(text, start, end)
            start = lead.end() if lead is not None else start
            if text.count("(", start, end) > text.count(")", start, end):
                continue  # no subject opens a bracket it does not close: "B/D/E (A and C"
            named = _subject(text, start, end, ctx, texts=texts) if start < end else set()
            if named:
                return _Reading(frozenset(named), _strip_bounds(text, start, end))
        return None

    def _option_lines(self) -> None:
        """A line that restates an option and says what it is: "A) Neon is a noble gas.",
        "B) Nitrogen: This is incorrect.", "C. Argon - correct", or the option on a line
        of its own and its status on the next ("A) Neon\n- This is a correct option.")."""
        text, ctx = self.text, self.ctx
        if len(ctx.labels) > _TEXT_CANDIDATES:
            return  # an item of many candidates does not pay for indexing their texts
        for match in _OPTION_HEAD.finditer(text):
            token = match.group("l")
            label = ctx.keys.get(token.upper())
            if label is None or not (token.isupper() or len(token) == 1):
                continue
            own = ctx.texts.norm_of(label)
            hi = _line_end(text, match.end())
            rest = _own_text_end(text, match.end(), hi, own)
            if rest is None:
                continue
            said = _OPTION_STATUS.match(text, rest, hi)
            if said is None and not text[rest:hi].strip(" \t\r:*_`-–—"):
                below = _next_line(text, hi)  # "A) Neon\n- This is a correct option."
                if below is not None:
                    said = _OPTION_STATUS.match(text, *below)
            if said is None:
                continue
            sign = ctx.vocab.verb_sign(said) if said.group("adj") else 0
            if not sign:
                continue
            span = match.span("l")
            run = _Reading(frozenset({label}), span)
            self._statement(run, sign, said.end(), negated=_negated(said))

    def _side_verbs(self) -> None:
        """Verbs that reject or keep candidates (``_exclusion``): "eliminate A and D",
        "B and D can be ruled out", "Frog and Salamander don't fit" as statuses; "The
        options that don't fit are ...: Frog and Salamander" as a claim of the answer."""
        text, ctx = self.text, self.ctx
        for side in exclusion_sides(text):
            if side.frame:
                said = _read_answer(text, side.lo, side.hi, ctx, texts="whole")
                if said is None or said[1].inverted:
                    continue
                qualified = stance(text, side.lo, side.end)
                if qualified.hedged or qualified.negated or qualified.excepted:
                    continue
                reading = dataclasses.replace(said[1], weak=qualified.soft)
                end = reading.span[1] if reading.span else side.hi
                claim = _Claim(side.lo, end, end, side.sign, reading, stated=True)
                self.whole.append(claim)
                continue
            if side.subject:
                run = self._subject_before(side.lo)
            else:
                named = _subject(text, side.lo, side.hi, ctx)
                run = _Reading(frozenset(named), (side.lo, side.hi)) if named else None
            if run is not None:
                self._statement(run, side.sign, side.end)

    def _comparatives(self) -> None:
        """A pair compared in a quality: "Response B is more accurate than Response A",
        "A is clearer than B", "B is less helpful than A"; only in words that say which
        is the better response (not "longer", "more verbose")."""
        text, ctx = self.text, self.ctx
        for match in _COMPARATIVE.finditer(text):
            first = ctx.keys.get(match.group("x").upper())
            second = ctx.keys.get(match.group("y").upper())
            if first is None or second is None or first == second:
                continue
            worse = (match.group("more") or match.group("adj2") or "").lower() in ("less", "weaker")
            sign = -1 if worse else 1  # of the first; the second is on the other side
            self._statement(_Reading(frozenset({first}), match.span("x")), sign, match.end())
            self._statement(_Reading(frozenset({second}), match.span("y")), -sign, match.end())

    def _so_is(self) -> None:
        """ "A is a capital; so is C.", "B is wrong, and so is D": the status of the
        statement just before, in the same sentence, for the candidates after "so"."""
        for run, last in self._after_statement(_SO_IS):
            self._carry(run, last.sign, last)

    def _elided(self) -> None:
        """ "A and C are correct, while B and D are not": after a contrast, candidates
        with the verb of the statement before them negated and its adjective left out
        take the other side."""
        for run, last in self._after_statement(_ELIDED):
            if last.label not in run.labels:
                self._carry(run, -last.sign, last)

    def _after_statement(self, pattern: _Pattern) -> Iterator[tuple[_Reading, _Status]]:
        """Each match of ``pattern`` whose run of candidates follows a statement in the same
        sentence: the run, and the sentence's last status before the match (statuses the
        caller adds for one match count for the next)."""
        text, ctx = self.text, self.ctx
        for match in pattern.finditer(text):
            run = _run_labels(text, match.start("run"), match.end("run"), ctx)
            if run is None or run.void or run.span is None:
                continue
            start = self._sentence(match.start())[0]
            before = [
                status
                for status in self.statuses
                if start <= status.at < match.start() and status.label is not None
            ]
            if before:
                yield run, before[-1]

    def _carry(self, run: _Reading, sign: int, last: _Status) -> None:
        """The candidates of ``run`` on side ``sign``, as weak as the status they follow."""
        assert run.span is not None
        for label in run.labels:
            self.statuses.append(_Status(label, sign, run.span, run.span[0], False, weak=last.weak))

    def _statement(
        self, run: _Reading, sign: int, end: int, *, negated: bool = False, forced: bool = False
    ) -> None:
        """One statement of labels and a side ("A and C are incorrect", "Output (b) is
        better", "criterion B fails") ending at ``end``, qualified by its clause
        (``_stance``): for a pair a whole-answer claim about one response, else a status
        per candidate. ``negated``: its own verb is negated ("B is not better")."""
        if run.void or run.span is None:
            return  # alternatives: "B or C is correct"
        at = run.span[0]
        qualified = stance(self.text, at, end)
        if qualified.hedged:
            return
        if self.ctx.pair:
            if negated or qualified.negated or len(run.labels) != 1:
                return  # "B is not better" does not say that A is (a tie?)
            if qualified.excepted:
                # "the response other than B is better": the other one
                others = frozenset(self.ctx.labels) - run.labels
                if len(others) != 1:
                    return
                run = _Reading(others, run.span)
            if qualified.soft:
                run = dataclasses.replace(run, weak=True)
            self._add(at, end, sign, run, forced=forced)
            return
        if qualified.excepted:
            return  # "all except B are correct": read by the quantifier
        if qualified.negated:
            sign = -sign  # "I don't think B is correct": B is not
        weak = qualified.negated or qualified.soft
        for label in run.labels:
            self.statuses.append(_Status(label, sign, run.span, at, False, weak=weak))
        if (
            self.ctx.task == "choice"
            and not qualified.negated
            and _ONLY_BEFORE.search(self.text, max(0, at - 40), at) is not None
        ):
            # "only A is correct" after "A and C are correct": C, said before to be on that
            # side, and the rest are not, from here on. Only where it takes back a candidate
            # said before: "Only A and C are capitals." alone is read as it was (on the
            # reverse leg it answers the direct question)
            before = {s.label for s in self.statuses if s.at < at and s.sign == sign}
            if before - run.labels:
                for label in self.ctx.labels:
                    if label in before and label not in run.labels:
                        self.statuses.append(_Status(label, -sign, run.span, at, False, weak=weak))
                # and every other candidate: "the rest are not"
                self.statuses.append(_Status(None, -sign, run.span, at, False, weak=weak))

    def _quantifiers(self) -> None:
        """ "So all of them are incorrect.", "All options except B are correct.", "Neither
        is better" (a pair's tie), or a line that is only a quantifier ("All of them.")."""
        text, ctx = self.text, self.ctx
        for match in _QUANT.finditer(text):
            hi = _line_end(text, match.start())
            said = _quantified(text, match, hi, ctx)
            if said is None:
                continue
            sign, reading, end = said
            qualified = stance(text, match.start(), end)
            if qualified.hedged or qualified.negated:
                continue  # "not all of them are correct" is no answer
            if qualified.soft:
                reading = dataclasses.replace(reading, weak=True)
            line = text.rfind("\n", 0, match.start()) + 1
            lead = _LEAD.match(text, line, hi)
            bare = (lead.end() if lead is not None else line) == match.start() and bool(
                _PUNCT_ONLY.fullmatch(text, end, hi)
            )
            if ctx.pair:
                if bare or (sign and not reading.names_some):  # "Neither is better."
                    self._add(match.start(), end, 0, _Reading(frozenset(), reading.span))
                elif sign and reading.inverted and len(reading.labels) == 1:
                    # "all except B are better": the other one
                    others = frozenset(ctx.labels) - reading.labels
                    if len(others) == 1:
                        self._add(match.start(), end, sign, _Reading(others, reading.span))
            elif sign or bare:
                self._add(match.start(), end, sign, reading)

    def _pair_forms(self) -> None:
        """A pair's ties in words and preferences: "both are equally good", "I prefer B"."""
        text, ctx = self.text, self.ctx
        for match in _TIE.finditer(text):
            qualified = stance(text, match.start(), match.end())
            if not (qualified.hedged or qualified.negated):
                tie = _Reading(frozenset(), match.span(), weak=qualified.soft)
                self._add(match.start(), match.end(), 0, tie)
        for match in _PREFER.finditer(text):
            run = _run_labels(text, match.start("run"), match.end("run"), ctx)
            if run is None or run.void or len(run.labels) != 1:
                continue
            qualified = stance(text, match.start(), match.end())
            if not (qualified.hedged or qualified.negated or qualified.excepted):
                if qualified.soft:
                    run = dataclasses.replace(run, weak=True)
                self._add(match.start(), match.end(), 1, run, forced=True)

    def _choices(self) -> None:
        """A pick in the first person: "I would choose A and C", "I'd go with B": the
        direct question's answer, a claim that concludes by its form."""
        text, ctx = self.text, self.ctx
        for match in _PREFER.finditer(text):
            run = _run_labels(text, match.start("run"), match.end("run"), ctx)
            if run is None or run.void:
                continue
            sign = 1
            if ctx.task == "choice" and _RESOLVING.fullmatch(match.group("v")):
                if not _CLAUSE_DONE.match(text, match.end()):
                    continue
                sign = ctx.leg or 1
            qualified = stance(text, match.start(), match.end())
            if not (qualified.hedged or qualified.negated or qualified.excepted):
                if qualified.soft:
                    run = dataclasses.replace(run, weak=True)
                # "... B and D as the wrong ones"; "I'll say B and D" answers the leg asked
                side = sign if sign != 1 else pick_side(text, match.end(), ctx)
                self._add(match.start(), match.end(), side, run, forced=True)
        for at, end, named in picked_texts(text, ctx):  # "I'd go with neon and argon"
            qualified = stance(text, at, end)
            if not (qualified.hedged or qualified.negated or qualified.excepted):
                if qualified.soft:
                    named = dataclasses.replace(named, weak=True)
                self._add(at, end, pick_side(text, end, ctx), named, forced=True)

    def _predicate_claims(self) -> None:
        """A conclusion in the question's own predicate, naming its subject: "Therefore the
        mammals are A and C.", "So the capitals are Paris and Rome.", "The mammals are the
        whale and the bat." (the direct question's answer), "The non-mammals are B and
        D.", "The cities that are not capitals are Sydney and Toronto." (the reverse
        question's). Only where the predicate starts its clause ("so", "therefore" and
        the like aside): "the animals that are not mammals are ..." is never read from its
        last words."""
        text, ctx = self.text, self.ctx
        pattern = _predicate_claim(ctx.vocab.predicate, ctx.vocab.noun)
        for match in pattern.finditer(text):
            floor = max(0, match.start() - _SUBJECT_WINDOW)  # bounded: linear on long replies
            found = (text.rfind(mark, floor, match.start()) for mark in _CLAUSE_MARKS)
            start = max(
                (at + len(mark) for at, mark in zip(found, _CLAUSE_MARKS, strict=True) if at >= 0),
                default=floor,
            )
            if not _PREDICATE_LEAD.fullmatch(text, start, match.start()):
                continue
            lo, hi = match.span("span")
            stop = _SUBJECT_END.search(text, lo, hi)
            head = stop.start() if stop is not None else hi  # "..., which correspond to"
            said = _read_answer(text, lo, head, ctx, texts="whole") if head > lo else None
            reading = said[1] if said is not None else None
            if reading is None:
                named = _named(text[lo:head], ctx) if head > lo else set()
                if not named:
                    continue
                reading = _Reading(frozenset(named), _strip_bounds(text, lo, head))
            sign = -1 if match.group("neg") or match.group("rneg") else 1
            end = reading.span[1] if reading.span else hi
            qualified = stance(text, match.start(), end)
            if qualified.hedged or qualified.negated or qualified.excepted:
                continue
            if qualified.soft:
                reading = dataclasses.replace(reading, weak=True)
            claim = _Claim(match.start(), end, end, sign, reading, stated=True)
            self.whole.append(claim)

    def _orderings(self) -> None:
        """An ordering of every candidate: "Assistant 2 > Assistant 1", "the order is:
        B > C = A > D": the first rank is the answer on a direct leg (for a pair, the last
        rank on the reverse leg; one rank for all is a tie)."""
        text, ctx = self.text, self.ctx
        for match in _ORDERING.finditer(text):
            ranks = _ranks(match.group(), ctx)
            if ranks is None:
                continue
            qualified = stance(text, match.start(), match.end())
            if qualified.hedged or qualified.negated:
                continue
            top = min(ranks.values())
            if ctx.leg < 0:
                if not ctx.pair:
                    continue  # an ordering says which are best, not which are incorrect
                top = max(ranks.values())
            chosen = frozenset(label for label, rank in ranks.items() if rank == top)
            if ctx.pair and len(chosen) == len(ranks):
                chosen = frozenset()  # all equal: a tie
            reading = _Reading(chosen, match.span(), weak=qualified.soft)
            self._add(match.start(), match.end(), 0, reading)

    def _check_verbs(self) -> None:
        """ "The response meets criteria A and C", "It fails to meet B", "The sources do not
        support claims 1 and 3", "It meets all the criteria"."""
        text, ctx = self.text, self.ctx
        for match in _CHECK_VERB.finditer(text):
            verb = match.group("verb").lower()
            sign = -1 if verb.startswith(_NEGATIVE_VERBS) else 1
            if match.group("aux"):
                sign = -sign
            quant = match.group("quant")
            if quant is not None:
                qualified = stance(text, match.start(), match.end())
                if qualified.hedged or qualified.negated:
                    continue
                excepted: frozenset[str] = frozenset()
                if (ex := _EXCEPT_AFTER.match(text, match.end())) is not None:
                    # "it meets every criterion other than A"
                    found = _excepted(text, ex.end(), _line_end(text, ex.end()), ctx)
                    if found is None or quant in ("none", "any"):
                        continue
                    excepted = found.labels
                reading = _Reading(
                    excepted,
                    match.span("quant"),
                    inverted=quant != "none",
                    weak=qualified.soft,
                )
                self._add(
                    match.start(), match.end(), sign if quant != "any" else -abs(sign), reading
                )
                continue
            run = _run_labels(text, match.start("run"), match.end("run"), ctx, after_verb=True)
            if run is not None:
                self._statement(run, sign, match.end())

    # -- the conclusion --------------------------------------------------------------

    def _sentence(self, at: int) -> tuple[int, int]:
        """The bounds of the sentence holding ``text[at]``."""
        i = bisect_right(self._breaks, at) - 1
        end = self._breaks[i + 1] if i + 1 < len(self._breaks) else len(self.text)
        return self._breaks[i], end

    @property
    def _last_claim(self) -> _Claim | None:
        return max(self.whole, key=lambda claim: claim.at, default=None)

    def _starts_line(self, at: int) -> bool:
        """Whether only markup stands between the start of the line, or of the sentence
        on the reply's last line ("... impaired judgment. The answer is (D)."), and ``at``."""
        line = self.text.rfind("\n", 0, at) + 1
        start = self._sentence(at)[0] if at >= self._last_line else line
        return not self.text[max(line, start) : at].strip(_LINE_MARKUP)

    def _concludes_where_it_stands(self, claim: _Claim) -> bool:
        return claim.stated and claim is self._last_claim and self._starts_line(claim.at)

    def _strength(self, claim: _Claim) -> int | None:
        """2: its sentence concludes; 1: it stands at an edge of the reply; 0: reasoning;
        None: not a claim (a condition, a hedge, or a sentence cut off)."""
        text = self.text
        start, end = self._sentence(claim.at)
        before = max(start, claim.at - _CLAIM_WINDOW)
        after = min(end, claim.end + _CLAIM_WINDOW)
        if end >= len(text) and self._unfinished and _OPEN_CLAUSE.match(text, claim.end, end):
            return None  # cut off where the claim could still be qualified: "A is better for"
        if (
            claim.forced
            or _CONCLUDING.search(text, before, claim.at)
            or Revisions(text).between(before, claim.at)  # "On second thought, B is better"
        ):
            return 2
        if _QUALIFIER.search(text, before, claim.at) or _QUALIFIER.search(text, claim.end, after):
            return 0
        if self._concludes_where_it_stands(claim):
            # "The answer is (B)." on a line of its own after a reasoning, "The answer is
            # A, C. Note: ...": the reply's last claim, a conclusion in so many words; what
            # its concluding part names besides is accounted for (reader._resolve)
            return 2
        if claim.at < self._first_end or claim.reach > self._last_line:
            return 1
        return 0

    def conclusion(self) -> _Reading | None:
        """The reply's conclusion among its whole-answer claims, or None (see the module's
        docstring); ``conflict`` is set when conclusions disagree."""
        ctx = self.ctx
        keep = _admitted((claim.sign for claim in self.whole), ctx.leg)
        rated: dict[int, tuple[_Claim, int]] = {}  # the last claim of each sentence
        for claim in sorted(self.whole, key=lambda claim: claim.at):
            if claim.sign not in keep:
                self.opposite = self.opposite or claim.sign == -ctx.leg != 0
                continue
            strength = self._strength(claim)
            if strength is not None:
                rated[self._sentence(claim.at)[0]] = (claim, strength)
        if not rated:
            return None
        best = max(strength for _, strength in rated.values())
        if best == 0 and ctx.task != "choice":
            return None
        chosen = [claim for claim, strength in rated.values() if strength == best]
        last = chosen[-1]
        value = _tie_free(last.reading, ctx)
        if self._concludes_where_it_stands(last) and not (
            _CONCLUDING.search(self.text, max(0, last.at - _CLAIM_WINDOW), last.at)
            or Revisions(self.text).between(max(0, last.at - _CLAIM_WINDOW), last.at)
        ):
            # a conclusion read from where it stands is one claim among the edge ones:
            # "The answer is A.\n...\nThe answer is D." says nothing
            chosen = [claim for claim, strength in rated.values() if strength >= 1]
        earlier = [claim for claim in chosen if _tie_free(claim.reading, ctx) != value]
        if earlier and not Revisions(self.text).between(earlier[-1].at, last.at):
            self.conflict = True
            return None
        if best < 2:  # it stands at an edge of the reply, or is mere reasoning: no conclusion
            return dataclasses.replace(last.reading, weak=True)
        return last.reading


def claims_of(text: str, ctx: _Context) -> _Claims:
    """The claims of ``text``, worked out once in a parse: a copy of them, whose
    :meth:`_Claims.conclusion` marks (``opposite``, ``conflict``) are its own."""
    return copy.copy(per_text(ctx, text, _Claims))


_LINE_MARKUP = " \t*_#>-`"

# What may stand before a conclusion in the question's predicate, from its clause's start
_PREDICATE_LEAD = _Pattern(
    r"[\s*_`>#-]*(?:(?:so|thus|therefore|hence|overall|finally|in\s+(?:conclusion|summary)"
    r"|i\s+(?:would\s+|'d\s+|’d\s+)?(?:think|believe|say|conclude)|then|and)\b[\s,:]*)*",
    re.IGNORECASE,
)
# Where a subject named in words ends: "the whale and the bat. ...", "Paris and Rome;"
_SUBJECT_END = _Pattern(
    r"[.!?](?=\s|$)|[;:]|\s[—–-]\s|,\s*(?:since|because|as|which|i\.e\.|namely|that\s+is)(?!\w)"
)


@functools.lru_cache(maxsize=64)
def _predicate_claim(words: tuple[str, ...], noun: str) -> re.Pattern[str]:
    """A conclusion in the predicate ``words``: "(the) mammals are ...", "the non-mammals
    are ...", "the animals that are not mammals are ..." (``noun``: the question's own)."""
    pred = predicate_source(words)
    nouns = r"ones?|options?|choices?|answers?|items?"
    if noun:
        nouns += rf"|{re.escape(noun)}(?:e?s)?"
        if noun.endswith("y"):
            nouns += rf"|{re.escape(noun[:-1])}ies"
    return re.compile(
        r"(?<![\w-])(?:(?:the|these|those)\s+)?(?:only\s+)?"
        rf"(?:(?P<neg>non-?\s*)?{pred}|(?:{nouns})\s+(?:that|which)\s+(?:is|are)\s+"
        rf"(?P<rneg>not\s+)?(?:an?\s+|the\s+)?{pred})"
        r"(?:\s+(?:here|in\s+(?:this|the)\s+list|among\s+(?:them|these|the\s+(?:options|choices))))?"
        r"\s+(?:is|are|would\s+be)\b[^\S\n]*:?[^\S\n]*(?P<span>[^\n]{1,300})",
        re.IGNORECASE,
    )


# Where a clause starts, before a subject: "; nitrogen and oxygen are", ", so Neon is"
_CLAUSE_MARKS = ("\n", ". ", "; ", ": ", ", ", "? ", "! ", "(")
_SUBJECT_LEAD = _Pattern(
    r"[\s*_`>#-]*(?:(?:so|thus|therefore|hence|and|but|while|whereas|both|only|however|only)\b[\s,]*)*"
    # a confidence before the subject: "I'm fairly confident (~85%) that German and ..."
    r"(?:I(?:'m|’m|\s+am)\s+(?:(?:fairly|pretty|quite|very|reasonably|\d{1,3}\s*%)\s+)?"
    r"(?:sure|certain|confident)(?:\s*\(~?\d{1,3}\s*%\))?\s+that\s+)?",
    re.IGNORECASE,
)

# A line that starts with an option's mark: "A) Neon ...", "- (B) Nitrogen: ...", "**C.**"
_OPTION_HEAD = _Pattern(
    rf"^[^\S\n]*+(?:[-*•][^\S\n]+|\d+[.)][^\S\n]+)?(?:\*\*)?[(\[]?(?P<l>{_LABEL})(?:[)\]][^\S\n]*[.:]?|[.:])"
    r"(?:\*\*)?[^\S\n]+",
    re.MULTILINE,
)

# What a line says of the option it restates: "is (not) a noble gas", ": This is
# incorrect.", "- correct"
_OPTION_STATUS = _Pattern(
    r"[^\S\n]*(?:[:\-–—][^\S\n]*)?(?:(?:this|it|which|that)(?:\s+option)?)?"
    + _VERB_ADJ_SOURCE.replace(r"\s+(?:(?:is|are", r"\s*(?:(?:is|are", 1),
    re.IGNORECASE,
)


# A status left out: "... are not.", "; nitrogen isn't"
_IS_NOT = _Pattern(  # (?<!\s): see _VERB_ADJ_SCAN
    r"(?<!\s)\s++(?:is|are)(?:\s+not|n[’']t)(?=\s*(?:$|[.;!\n]))", re.IGNORECASE | re.MULTILINE
)

# A status's own clause that negates its verb: "B is not a mammal", "D isn't."
_DENIED = _Pattern(
    r"[)\]]?\s+(?:(?:is|are|was|were)(?:\s+not|n[’']t)|(?:does|do)(?:\s+not|n[’']t))(?![\w-])",
    re.IGNORECASE,
)
_SUBJECT_WINDOW = 200
_COPULA_WORD = _Pattern(r"(?<![\w-])(?:is|are|was|were)(?![\w-])", re.IGNORECASE)
_TEXT_CANDIDATES = 32
"""Up to how many candidates their texts are looked for as subjects and option lines."""
_SENTENCE_ENDS = ("\n", ". ", "? ", "! ")
_SUBJECT_TRIES = 12


def _last_few(text: str, mark: str, lo: int, hi: int) -> list[int]:
    """Where ``mark`` last stands in ``text[lo:hi]``, up to ``_SUBJECT_TRIES`` times."""
    found: list[int] = []
    while len(found) < _SUBJECT_TRIES and (at := text.rfind(mark, lo, hi)) >= 0:
        found.append(at)
        hi = at
    return found


_SUBJECT_SEP = _Pattern(
    r"[^\S\n]*(?:,[^\S\n]*(?:and[^\S\n]+)?|[^\S\n]and[^\S\n]+|&|/)[^\S\n]*", re.IGNORECASE
)
_PIECE_BRACKET = _Pattern(r"(?P<a>[^()\n]+?)[^\S\n]*\((?P<b>[^()\n]+)\)")


def _list_tail(text: str, start: int, end: int, floor: int, ctx: _Context) -> bool:
    """Whether a clause start after a comma is the tail of a list the subject began
    before it ("0, [], and {} are falsy", "`0`, `[]`, `{}` are falsy"): "and" leads it,
    no verb before the comma; or the piece before the comma is a candidate's label or
    text."""
    if text[start - 2 : start] != ", ":
        return False
    comma = start - 2
    if _AND_LEAD.match(text, start, end) is not None:
        return _COPULA_WORD.search(text, floor, comma) is None
    piece = max(text.rfind(", ", floor, comma) + 2, floor) if floor < comma else comma
    before = text[piece:comma].strip(" \t*_`")
    return bool(before) and (before.upper() in ctx.keys or bool(ctx.texts.exact(before)))


_AND_LEAD = _Pattern(r"[^\S\n]*(?:and|or)(?![\w-])", re.IGNORECASE)


def _subject(text: str, lo: int, hi: int, ctx: _Context, *, texts: bool = True) -> set[str]:
    """The candidates a clause's subject names, when it names nothing else: labels ("B
    and D"), one text or a list of them ("Neon and Argon"), or pieces that pair a label
    with its own text ("Neon (A) and argon (C)", "options A (124), C (142) and E (164)");
    a piece whose label and text disagree names nothing. ``texts``: texts count (else
    labels only)."""
    labels = _only_labels(text, lo, hi, ctx)
    if labels is not None:
        return set() if labels.void else set(labels.labels)
    if not texts:
        return set()
    whole = ctx.texts.exact(text[lo:hi])
    if len(whole) == 1:
        return whole
    listed = _texts_list(text, lo, hi, ctx)
    if listed is not None and listed[1] >= hi - 1:
        return set(listed[0].labels)
    if "(" not in text[lo:hi]:
        return set()
    found: set[str] = set()
    pos = lo
    prefix = _LIST_NOUN.match(text, lo, hi)
    if prefix is not None:
        pos = prefix.end()
    for sep in [*_SUBJECT_SEP.finditer(text, pos, hi), None]:
        piece_end = sep.start() if sep is not None else hi
        piece = _PIECE_BRACKET.fullmatch(text, pos, piece_end)
        if piece is None:
            return set()
        one, two = piece.group("a").strip(" *_`"), piece.group("b").strip(" *_`")
        label = ctx.keys.get(two.upper()) if len(two) <= 4 else None
        said = one if label is not None else two
        if label is None:
            label = ctx.keys.get(one.upper()) if len(one) <= 4 else None
        if label is None or not (
            label in ctx.texts.exact(said) or _same_value(said, ctx.texts.norm_of(label))
        ):
            return set()
        found.add(label)
        pos = sep.end() if sep is not None else hi
    return found


_LIST_NOUN = _Pattern(r"(?:the[^\S\n]+)?(?:options?|choices?|answers?)[^\S\n]+", re.IGNORECASE)

# A number and its units: "100 °C", "12 km/h", "45%"
_VALUE_UNITS = _Pattern(
    r"[^\S\n]*(?P<n>-?\d[\d,]*(?:\.\d+)?)[^\S\n]*(?:[A-Za-z°%²³/$]{1,6}[^\S\n]*){0,2}"
)


def _same_value(said: str, own: str | None) -> bool:
    """Whether ``said`` is the candidate's own text ``own``, a number, with its units
    ("100 °C" of "100")."""
    if not own or not own[:1].isdigit():
        return False
    found = _VALUE_UNITS.fullmatch(said)
    return found is not None and found.group("n").replace(",", "") == own.replace(",", "")


def _own_text_end(text: str, pos: int, hi: int, own: str | None) -> int | None:
    """Where the option's own text, starting at ``pos``, ends on its line (case, spacing
    and trailing punctuation aside); None when the line does not restate it."""
    if not own:
        return None
    at = pos
    for word in own.split():
        while at < hi and text[at] in " \t*_`\"'":
            at += 1
        if text[at : at + len(word)].lower() != word:
            return None
        at += len(word)
    return at if at >= hi or not text[at].isalnum() else None


# What stands between a label and its text: "B. 15", "G: developing ...", "(C) 20%"
_TEXT_MARK = _Pattern(r"[^\S\n]*[.:)\]]?[^\S\n]*(?=\S)")

_ANSWER_NOUNS = frozenset({"answer", "answers", "verdict", "decision"})
"""The nouns of an anchored claim that name the answer whatever their adjective ("the
answer is C"); "the options are ..." names the answer only with a side's adjective."""

_CLAIM_WINDOW = 200
"""How far from a claim its sentence is searched for a concluding word or an aspect."""

_CUT_WORDS = 5


def _cut_off(text: str) -> bool:
    """Whether a reply stops in the middle of a sentence (it was cut off): it stops open
    (:func:`_stops_open`), or on a word, a comma or an opening quote with ``_CUT_WORDS``
    words or more in its last sentence ("c) 9" and "Output (a)" are answers; "A) 7 gives
    4949, B) 8 gives" is not)."""
    if _stops_open(text):
        return True
    stripped = text.rstrip(" \t\r\n*_`")
    if not stripped or not (stripped[-1].isalnum() or stripped[-1] in ',;:"“‘-'):
        return False
    start = max(stripped.rfind(mark) for mark in (". ", "! ", "? ", "\n")) + 1
    return sum(1 for _ in _WORD_RUN.finditer(stripped, start)) >= _CUT_WORDS


def _stops_open(text: str) -> bool:
    """Whether a reply stops where no sentence ends, whatever its length: on an opening
    bracket ("..., whereas Output (") or inside a LaTeX display it opened ("\\[ b = 8"), on
    a dash or an arrow ("57 — "), or on a word no sentence ends on ("- This is not", "The
    answer is"); closing lines after it aside (:func:`closing_start`: "The answer is\n\n
    Note: ..." stops open)."""
    stripped = text[: closing_start(text)].rstrip(" \t\r\n*_`")
    if not stripped:
        return False
    if stripped[-1] in "([{" or stripped.rfind("\\[") > stripped.rfind("\\]"):
        return True  # it stops on an opening bracket, or inside a display ("\\[ b = 8")
    if stripped[-1] in _OPEN_MARKS:
        return True  # it stops on a dash or an arrow before what it was about to say
    if not stripped[-1].isalnum():
        return False
    start = max(stripped.rfind(mark) for mark in (". ", "! ", "? ", "\n")) + 1
    return stripped[stripped.rfind(" ", start) + 1 :].lower() in _OPEN_WORDS


# Marks no finished reply ends on: a dash or an arrow opens what follows ("9 — ", "Rome →")
_OPEN_MARKS = frozenset("—–→⇒")

# Words no finished reply ends on: "- This is not", "... the answer is"
_OPEN_WORDS = frozenset(
    {
        "the", "a", "an", "is", "are", "was", "were", "not", "of", "to", "and", "or", "but",
        "that", "which", "for", "with", "in", "on", "at", "by", "as", "be", "than", "because",
        "if", "its", "their", "into", "from", "since", "whereas", "while",
    }
)  # fmt: skip
