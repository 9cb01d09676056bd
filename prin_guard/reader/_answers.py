"""Reading a stretch known to be an answer: label lists, quantifiers ("all", "none",
"all except B"), candidate texts, the list below a heading.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from prin_guard.reader._evidence import _Context, _Reading, _Status
from prin_guard.reader._resolve import _resolve
from prin_guard.reader._text import (
    _ALNUM,
    _LABEL,
    _LIST_PIECE,
    _MARKED,
    _MARKUP_STRIP,
    _NORM_STRIP,
    _NOUN,
    _POST,
    _PRE,
    _RUN,
    _SEP,
    _SEP_CHARS,
    _SEP_WORDS,
    _TOK,
    _VERB_ADJ,
    _line_end,
    _next_line,
    _norm,
    _Pattern,
    _strip_bounds,
    note_line,
)
from prin_guard.reader._vocab import _negated, _status_sign


def _status_only(text: str, lo: int, hi: int, ctx: _Context) -> _Status | None:
    """A whole reply that is a status ("PASS", "Yes.", "Not met"): one candidate's."""
    lo, hi = _strip_bounds(text, lo, hi, _NONE_STRIP)
    sign = _status_sign(text, lo, hi, ctx) if lo < hi else 0
    return _Status(ctx.labels[0], sign, (lo, hi), lo, True) if sign else None


# "all", "all of them", "all five options", "none of the above", "neither", "no option",
# a pair's "tie"; not "all other options", which leaves out the ones just named.
_ADJ = r"(?:(?!(?:other|remaining|rest|else)\b)[a-z]+\s+)?"


_QUANT = _Pattern(
    r"(?=[aebntd])(?<![\w-])(?:(?P<all>all|every(?:thing|one)?|each|both)"
    rf"|(?P<none>none|neither|nothing|no(?=\s+(?:[a-z]+\s+)?{_NOUN}\b))|(?P<tie>tie|tied|draw))(?![\w-])"
    rf"(?:\s+of\s+(?:them|these|those|the\s+above|(?:the|these|those)\s+{_ADJ}{_NOUN})\b"
    rf"|\s+(?:(?:the|these|those)\s+)?{_ADJ}{_NOUN}\b)?",
    re.IGNORECASE,
)


_EXCEPT = _Pattern(
    r"\s*,?\s*(?:except(?:\s+for)?|but(?:\s+not)?|other\s+than|apart\s+from|besides|excluding"
    r"|save\s+for)\s+",
    re.IGNORECASE,
)


# After "are incorrect", "but" starts another clause: "all are correct, but B is better".
_EXCEPT_AFTER = _Pattern(
    r"\s*,?\s*(?:except(?:\s+for)?|other\s+than|apart\s+from|excluding|save\s+for)\s+",
    re.IGNORECASE,
)


_EXCEPT_WINDOW = 200


# What may follow a quantifier: nothing, punctuation, or an explanation.
_TAIL_OK = _Pattern(
    r"\s*(?:$|[(\[,;:.!?—–-]|(?:because|since|as|which|so|given|due|for|without)\b)", re.IGNORECASE
)


# Where a quantifier ranges, after it: "among the options provided", "in the given choices"
_SCOPE = _Pattern(
    r"[^\S\n]+(?:among|in|of|from)[^\S\n]+(?:the|these|those|any[^\S\n]+of[^\S\n]+the)"
    r"[^\S\n]+(?:[a-z]+[^\S\n]+){0,2}?(?:options|choices|answers|alternatives|candidates)"
    r"(?:[^\S\n]+(?:provided|given|listed|shown|above|here|available))?",
    re.IGNORECASE,
)
_CLOSING = _Pattern(r"[)\]\"'*`]*")


_PUNCT_ONLY = _Pattern(r"[\s.!?*_`\"')\]]*")


# Where the head of an answer ends: an aside in brackets that is not a label mark,
# a dash or semicolon, the end of a sentence, an explanation or a verb.
_ASIDE = _Pattern(
    rf"\s*[(\[](?!\s*{_LABEL}\s*[)\]])"
    r"|\s*[;—–|]|\s+-+\s|\s+(?:note|n\.?b\.?|p\.?s\.?)\s*:|,\s*(?:but\s+)?not\s"
    rf"|[.!?](?=\s|$)(?!\s+\(?{_LABEL}\))"
    r"|,?\s+(?:because|since|as|which|due|given|where|while|though|although|so|then|but|if"
    r"|is|are|was|were|isn't|aren't|would|should|will|seems?|appears?|being|has|have|must"
    r"|can|could|performs?|does|did|fares?)\b",
    re.IGNORECASE,
)


_LIST_PREFIX = _Pattern(
    r"(?:(?:both|only|just)\s+(?:of\s+)?)?(?:the\s+)?"
    r"(?:(?:options?|choices?|candidates?|letters?|labels?)(?![\w-])\s*:?\s*)?",
    re.IGNORECASE,
)


_NONE_ONLY = _Pattern(
    r"\W*(?:none|no(?:ne)? (?:of (?:them|the (?:options|answers|above)))|"
    r"there (?:are|is) (?:none|no (?:such )?(?:options?|answers?))|"
    r"no (?:options?|answers?)(?: (?:are|is) (?:correct|incorrect|right|wrong))?|n/?a|empty"
    r"|\[\s*\])\W*",
    re.IGNORECASE,
)


# "The answer is not listed among the provided options": of the direct question (the
# correct answer is none of the options), whatever the leg; on the reverse leg it says
# nothing of which options are incorrect
_NOT_LISTED = _Pattern(
    r"\W*not (?:(?:listed|given|included|present|found|shown|provided|available) )?(?:among"
    r"|in|one of) (?:the|these|those|any of the) (?:\w+ ){0,2}?(?:options|choices|answers)\W*",
    re.IGNORECASE,
)


_NONE_STRIP = " \t\r\n.,;:!?\"'`*_()"


_NUMBERED = _Pattern(
    rf"^[^\S\n]*(?:\d+[.)]|[-*•])\s*(?:\*\*\s*)?(?:option\s+)?\(?(?P<n>{_LABEL})"
    r"(?:\)|\.|:|\s|$|\*\*)",
    re.IGNORECASE | re.MULTILINE,
)


# A list item without a bullet: "D) 10", "(B)", "**C.**"
_BARE_ITEM = _Pattern(
    rf"[^\S\n]*(?:\*\*[^\S\n]*)?[(\[]?(?P<n>{_LABEL})(?:[)\]:]|\.(?!\d)|\*\*)", re.IGNORECASE
)


_LABEL_RUN = _Pattern(_RUN, re.IGNORECASE)


_LIST_TRIM = " \t\r\n*_`"


_TextsRead = Literal["none", "whole", "inside"]


def _only_labels(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as nothing but labels, after "options", "both", "only", ..."""
    prefix = _LIST_PREFIX.match(text, lo, hi)
    start = prefix.end() if prefix else lo
    return _labels_only(text, start, hi, ctx.keys) if start < hi else None


# What an answer excludes after it: "A and C, not B or D", "C, but not A"
_EXCLUDED = _Pattern(
    rf"[^\S\n]*,[^\S\n]*(?:but[^\S\n]+)?not[^\S\n]+{_RUN}[^\S\n]*(?=$|[.;!\n)])",
    re.IGNORECASE,
)


def _excluded(text: str, end: int, ctx: _Context) -> _Reading | None:
    """The labels an answer ending at ``end`` excludes right after it ("A and C, not B or
    D": B and D), in upper case; None when it excludes none."""
    found = _EXCLUDED.match(text, end)
    if found is None:
        return None
    return _labels_only(text, found.start("run"), found.end("run"), ctx.keys, upper=True)


def _but_not(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as labels and those it excludes ("B and D, not A or C."): the
    labels, when the two lists do not meet."""
    lo, hi = _strip_bounds(text, lo, hi, _LIST_TRIM + ".!")
    cut = _EXCLUDED.search(text, lo, hi)
    if cut is None or not _PUNCT_ONLY.fullmatch(text, cut.end(), hi):
        return None
    listed = _only_labels(text, lo, cut.start(), ctx)
    excluded = _excluded(text, cut.start(), ctx)
    if listed is None or listed.void or excluded is None or listed.labels & excluded.labels:
        return None
    return listed


def _list_at(text: str, lo: int, hi: int, ctx: _Context, *, texts: _TextsRead) -> _Reading | None:
    found = _only_labels(text, lo, hi, ctx)
    if found is None:
        found = _marked_labels(text, lo, hi, ctx)
    if found is None and texts != "none":
        chunk = text[lo:hi]
        by_text = ctx.texts.exact(chunk)
        if not by_text and texts == "inside":
            by_text = ctx.texts.inside(chunk)
        if by_text:
            found = _Reading(
                frozenset(by_text), _strip_bounds(text, lo, hi, _NORM_STRIP + "\t\r\n")
            )
    return found


def _read_list(
    text: str, lo: int, hi: int, ctx: _Context, *, texts: _TextsRead
) -> tuple[_Reading, int] | None:
    """Labels or candidate texts listed in ``text[lo:hi]``, and where the list's head
    ends. The head (what precedes an aside) is read first, then the whole stretch;
    but a whole stretch that is exactly a candidate's text ("10 (rounded)") wins
    over the other forms of its head."""
    lo, hi = _strip_bounds(text, lo, hi, _LIST_TRIM)
    if lo >= hi:
        return None
    cut = _ASIDE.search(text, lo, hi)
    head = cut.start() if cut is not None and cut.start() > lo else hi
    if head < hi and text[head:hi].lstrip().startswith(";"):
        # labels separated by semicolons throughout: "B; C", "A; C; E"
        semi = _only_labels(text, lo, hi, ctx)
        if semi is not None and not semi.void:
            return semi, hi
    if (
        (head < hi or "(" in text[lo:hi])
        and _LABELLED_LIST.match(text, lo, hi)
        and (listed := _texts_list(text, lo, hi, ctx, labelled=True)) is not None
    ):
        return listed  # "A (Whale), B (Dolphin) and C (Bat)", "(A) Paris and (D) Berlin"
    if (
        cut is not None
        and text[cut.start() : cut.end()].strip() in ("(", "[")
        and (blanked := _asides_blanked(text, lo, hi, ctx)) is not None
    ):
        # "B (shark, a fish) and D (penguin, a bird)": the labels, their asides apart
        stop = _SENTENCE_STOP.search(blanked, lo, hi)
        end = stop.start() if stop is not None else hi
        found = _only_labels(blanked, lo, end, ctx)
        if found is not None and len(found.labels) > 1:
            return found, end
    if (found := _only_labels(text, lo, head, ctx)) is not None:
        return found, head  # most answers: no need to look at candidate texts
    if texts != "none" and (listed := _texts_list(text, lo, hi, ctx)) is not None:
        return listed  # "Paris and Rome", "Uses a formal tone, Is under 100 words"
    if head < hi:
        if texts != "none" and (whole := ctx.texts.exact(text[lo:hi])):
            span = _strip_bounds(text, lo, hi, _NORM_STRIP + "\t\r\n")
            return _Reading(frozenset(whole), span), hi
        found = _list_at(text, lo, head, ctx, texts=texts)
        if found is not None:
            return found, head
        if texts != "none" and (listed := _texts_list(text, lo, head, ctx)) is not None:
            return listed[0], head  # "11 and 17; 9, 15 and 21 all have small factors"
    if head < hi and _REJECTING.search(text, head, hi):
        return None  # "third (not 2nd, not 4th)": what the aside names, it rejects
    found = _list_at(text, lo, hi, ctx, texts=texts)
    return (found, hi) if found is not None else None


# An aside that rejects what it names: "(not 2nd, not 4th)", "— not B", "(2nd? No — 1st.)"
_REJECTING = _Pattern(r"(?<![\w-])(?:not|no|never|except|rather\s+than)(?![\w-])", re.IGNORECASE)


_ARTICLE_HEAD = _Pattern(r"[^\S\n]*(?:the|an?)[^\S\n]+", re.IGNORECASE)
# A bracketed aside: "(shark, a fish)", "(the others are divisible by 3)"
_BRACKET_ASIDE = _Pattern(r"\((?P<in>[^()\n]{1,200})\)|\[(?P<sq>[^\[\]\n]{1,200})\]")
# What makes an aside more than an aside: an alternative, a doubt, a negation, a condition
_UNSAFE_ASIDE = _Pattern(
    r"(?<![\w-])(?:or|maybe|perhaps|possibly|might|unless|if|not|no|except|but|either|nor"
    r"|also|too)(?![\w-])",
    re.IGNORECASE,
)
_SENTENCE_STOP = _Pattern(r"[.!?](?=\s|$)")


def _asides_blanked(text: str, lo: int, hi: int, ctx: _Context) -> str | None:
    """``text`` with each bracketed aside of ``text[lo:hi]`` that is no label's mark
    written over by spaces (offsets hold); None when there is none, or one names a label,
    a side, an alternative, a doubt or a negation ("(or C)", "(not B)", "(correct)")."""
    out: list[str] | None = None
    words = ctx.vocab.positive | ctx.vocab.negative
    for match in _BRACKET_ASIDE.finditer(text, lo, hi):
        group = "in" if match.group("in") is not None else "sq"
        inner = match.group(group)
        if _labels_only(text, *match.span(group), ctx.keys) is not None:
            continue  # "(A)": a label's mark
        tokens = [word.group() for word in _ALNUM.finditer(inner)]
        if _UNSAFE_ASIDE.search(inner) or any(
            (token.isupper() and token in ctx.keys) or token.lower() in words for token in tokens
        ):
            return None
        out = out if out is not None else list(text)
        for at in range(*match.span()):
            out[at] = " "
    return "".join(out) if out is not None else None


def _with_note(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as labels and a bracketed note after them ("B, D (the others are
    divisible by 3)"): the labels."""
    lo, hi = _strip_bounds(text, lo, hi, _LIST_TRIM + ".!")
    if lo >= hi or text[hi - 1] not in ")]":
        return None
    blanked = _asides_blanked(text, lo, hi, ctx)
    if blanked is None or blanked[lo:hi].rstrip() == blanked[lo:hi]:
        return None  # no note at the end
    return _only_labels(blanked, lo, hi, ctx)


_TEXT_SEP = _Pattern(r"\s*(?:,\s*(?:and|&)?|;|&|/|\band\b)\s*", re.IGNORECASE)


def _texts_list(
    text: str, lo: int, hi: int, ctx: _Context, *, labelled: bool = False
) -> tuple[_Reading, int] | None:
    """``text[lo:hi]`` (perhaps up to a note) as a list of two candidates' texts or more,
    each exactly one candidate's, joined as a list is ("Paris and Rome", "2, 11, and
    17"); None unless every piece is one. ``labelled``: each piece is a label with its
    own text ("A (Whale), B (Dolphin) and C (Bat)", "(A) Paris and (D) Berlin"), or a
    label alone; a label written with another candidate's text disagrees."""
    # labelled: brackets are the pieces' own, only a note or a sentence's end cuts
    cut = (_NOTE_ONLY if labelled else _NOTE).search(text, lo, hi)
    end = cut.start() if cut is not None else hi
    end = _strip_bounds(text, lo, end, _MARKUP_STRIP + "\t\r\n,;")[1]  # quotes kept: "0"
    found: set[str] = set()
    disagrees = with_text = False
    pos = lo
    for sep in [*_TEXT_SEP.finditer(text, lo, end), None]:
        piece_end = sep.start() if sep is not None else end
        if piece_end - pos > 2 * ctx.texts.longest + 16:
            return None  # longer than any text: no list of them (and linear time)
        if sep is not None and sep.start() == sep.end():
            continue
        if labelled:
            piece = _labelled_piece(text, pos, piece_end, ctx)
            named = {piece[0]} if piece is not None else set()
            if piece is not None:
                disagrees, with_text = disagrees or piece[1], with_text or piece[2]
        else:
            named = ctx.texts.exact(text[pos:piece_end])
            if not named and (article := _ARTICLE_HEAD.match(text, pos, piece_end)):
                named = ctx.texts.exact(text[article.end() : piece_end])  # "the Nile"
        if len(named) != 1:
            if sep is None:
                return None
            continue  # the separator was inside a text ("Rock and roll"): go on
        found |= named
        pos = sep.end() if sep is not None else end
    if pos < end or len(found) < (1 if labelled else 2) or (labelled and not with_text):
        return None
    return _Reading(frozenset(found), (lo, end), disagrees=disagrees), end


_LABELLED_PIECE = _Pattern(
    rf"\(?(?P<l>{_LABEL})(?:[).:]|(?=\s*\())?\s*(?:\((?P<t1>[^()\n]{{1,200}})\)|(?P<t2>[^()\n]{{1,200}}))?",
)


# A text, then its label in brackets: "Paris (A)"
_TEXT_LABELLED = _Pattern(rf"(?P<t>[^()\n]{{1,200}}?)[^\S\n]*\((?P<l>{_LABEL})\)")


def _labelled_piece(text: str, lo: int, hi: int, ctx: _Context) -> tuple[str, bool, bool] | None:
    """A list piece that is a label, perhaps with a text ("A (Whale)", "(D) Berlin",
    "Paris (A)"): the label, whether the text is another candidate's, whether a text was
    written."""
    lo, hi = _strip_bounds(text, lo, hi, " \t\r\n*_`\"'")
    for form in (_LABELLED_PIECE, _TEXT_LABELLED):  # "Rome (C)": not the label "Rome"
        piece = form.fullmatch(text, lo, hi)
        token = piece.group("l") if piece is not None else ""
        label = ctx.keys.get(token.upper())
        if piece is not None and label is not None and (token.isupper() or len(token) == 1):
            break
    else:
        return None
    groups = piece.groupdict()
    written = groups.get("t1") or groups.get("t2") or groups.get("t")
    if written is None:
        return label, False, False
    named = ctx.texts.exact(written)
    if not named:
        return None
    return label, label not in named, True


# The shape of a list of labels with their texts, looked for before any text is: two
# pieces or more, one with a text ("A (Whale), B", "(A) Paris and (D) Berlin")
_PIECE = (
    rf"\(?{_LABEL}\)?[^\S\n]*\([^()\n]{{1,200}}\)|\(?{_LABEL}[).:][^\S\n]*[^()\n,;&]{{1,200}}?"
    rf"|[^()\n,;&]{{1,200}}?[^\S\n]*\({_LABEL}\)"
)
# An explanation after a list of labelled pieces: "B (3/5) and E (6/10), since both ..."
_BECAUSE = r",?[^\S\n]+(?:because|since|as|which|given|due\s+to|while|whereas|though|although)\b"


_LABELLED_LIST = _Pattern(
    rf"(?:{_PIECE}|\(?{_LABEL}\)?)(?:[^\S\n]*(?:,[^\S\n]*(?:and[^\S\n]+)?|[^\S\n]and[^\S\n]+|&|;)"
    rf"[^\S\n]*(?:{_PIECE}|\(?{_LABEL}\)?))+[^\S\n]*(?:$|[.!?;:]|\s+(?:note|n\.?b\.?)\s*:"
    rf"|{_BECAUSE})",
    re.IGNORECASE,
)


# (a label's own full stop, "A. Peru and C. Chile", ends no sentence)
_NOTE_ONLY = _Pattern(
    rf"\s*\b(?:note|n\.?b\.?|p\.?s\.?)\s*:|(?<!\b[A-Z])[.!?](?=\s|$)|{_BECAUSE}", re.IGNORECASE
)


_NOTE = _Pattern(r"\s*(?:[(\[]|\b(?:note|n\.?b\.?|p\.?s\.?)\s*:)|[.!?](?=\s|$)", re.IGNORECASE)


def _excepted(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
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
            return _labels_only(text, run.start("run"), end, ctx.keys)
    window = min(hi, lo + _EXCEPT_WINDOW)
    cut = _ASIDE.search(text, lo, window)
    head = cut.start() if cut is not None else window
    found = ctx.texts.exact(text[lo:head])
    if not found and (listed := _texts_list(text, lo, head, ctx)) is not None:
        return listed[0]  # "all except Sydney and Toronto"
    return _Reading(frozenset(found), _strip_bounds(text, lo, head, _NORM_STRIP)) if found else None


def _quantified_sign(text: str, verb: re.Match[str], hi: int, ctx: _Context) -> tuple[int, int]:
    """The sign of a quantifier's verb and where it ends: a polarity word ("all of them
    are incorrect"), or the question's whole predicate ("All of them are multiples of
    4." on "Which of these numbers are multiples of 4?"; "are not": the other side)."""
    sign = ctx.vocab.verb_sign(verb)
    if sign:
        return sign, verb.end()
    end = ctx.vocab.predicate_end(text, verb.start("adj"), hi)
    if end is None:
        return 0, verb.end()
    return (-1 if _negated(verb) else 1), end


def _quantified(
    text: str, quant: re.Match[str], hi: int, ctx: _Context
) -> tuple[int, _Reading, int] | None:
    """A quantifier at ``quant`` ("all of them are incorrect", "all but B", "none", a
    pair's "tie"): its sign, its reading and where it ends; None when what follows is
    not an answer."""
    if quant.group("tie") and not ctx.pair:
        return None
    pos, sign = quant.end(), 0
    verb = _VERB_ADJ.match(text, pos, hi)
    if verb is not None:
        sign, pos = _quantified_sign(text, verb, hi, ctx)
    excepted: _Reading | None = None
    ex = (_EXCEPT if verb is None else _EXCEPT_AFTER).match(text, pos, hi)
    if ex is not None:
        excepted = _excepted(text, ex.end(), hi, ctx)
        if excepted is None or excepted.span is None:
            return None
        closing = _CLOSING.match(text, excepted.span[1], hi)
        pos = closing.end() if closing is not None else excepted.span[1]
        if verb is None and (verb := _VERB_ADJ.match(text, pos, hi)) is not None:
            sign, pos = _quantified_sign(text, verb, hi, ctx)
    scope = _SCOPE.match(text, pos, hi)  # "no correct answer among the options provided"
    pos = scope.end() if scope is not None else pos
    if verb is None and quant.group("none") and quant.group("none").lower() == "no":
        # "no correct answer": the side is the noun's own adjective
        sign = next((s for w in quant.group().split()[1:] if (s := ctx.vocab.sign(w))), 0)
    if not _TAIL_OK.match(text, pos, hi):
        return None
    span = (quant.start(), excepted.span[1] if excepted and excepted.span else quant.end())
    named = excepted.labels if excepted else frozenset()
    if quant.group("none") or quant.group("tie"):
        return sign, _Reading(named, span), pos  # "none but B": B
    if quant.group("all").lower() == "both" and excepted is None and len(ctx.keys) != 2:
        return None  # "both" names every option only when there are two
    return sign, _Reading(named, span, inverted=True), pos


def _read_answer(
    text: str, lo: int, hi: int, ctx: _Context, *, texts: _TextsRead = "inside"
) -> tuple[int, _Reading] | None:
    """Read ``text[lo:hi]``, a stretch known to be an answer: its sign and reading.

    ``texts``: how candidate texts count: as the whole stretch or inside it
    (``"inside"``, answer lines, tags, JSON values), only as the whole stretch or its
    head (``"whole"``, headings: "Correct: 9 <= 10" is not C and D), or not at all
    (``"none"``, sentences, whose texts are read by a later rule)."""
    lo, hi = _strip_bounds(text, lo, hi, _LIST_TRIM)
    hi = _before_a_denial(text, lo, hi, ctx)
    if lo >= hi:
        return None
    quant = _QUANT.match(text, lo, hi)
    if quant is not None and (said := _quantified(text, quant, hi, ctx)) is not None:
        return said[0], said[1]
    cut = _ASIDE.search(text, lo, hi)
    for end in (cut.start(), hi) if cut is not None and cut.start() > lo else (hi,):
        unlisted = not ctx.pair and _NOT_LISTED.fullmatch(text, lo, end) is not None
        if unlisted or _NONE_ONLY.fullmatch(text, lo, end):
            span = _strip_bounds(text, lo, end, _NONE_STRIP)
            reading = _Reading(frozenset(), span if span[0] < span[1] else (lo, end))
            return (1 if unlisted else 0), reading
    listed = _read_list(text, lo, hi, ctx, texts=texts)
    if listed is None:
        if len(ctx.labels) == 1 and (status := _status_only(text, lo, hi, ctx)) is not None:
            resolved = _resolve([status], ctx)
            if isinstance(resolved, _Reading):
                return 0, resolved  # "Answer: PASS" for a single criterion
        return None
    found, head = listed
    verb = _VERB_ADJ.match(text, head, hi)
    return (ctx.vocab.verb_sign(verb) if verb is not None else 0), found


# A label denied: "not (A)", "is not **A. Gold**", "isn't option B"
_DENIED = _Pattern(
    r"(?<![\w-])(?:not|isn[’']t|aren[’']t|never)[^\S\n]+(?:(?:the[^\S\n]+)?(?:option|choice"
    r"|answer)[^\S\n]+)?[*_(\[]*(?P<l>[A-Z][A-Z0-9]{0,3})(?![\w])",
)


def _before_a_denial(text: str, lo: int, hi: int, ctx: _Context) -> int:
    """Where an answer stretch ends when a later sentence of it denies a label ("The
    answer is (C). It is not (A), since ..."; "**E. Silicon** (...). The answer is not
    **A. Gold** because ..."): at the end of the sentence before, as a label the reply
    says is not the answer is never part of it. ``hi`` when no sentence does."""
    for denial in _DENIED.finditer(text, lo, hi):
        if denial.group("l") not in ctx.keys:
            continue
        stops = [stop.start() for stop in _SENTENCE_STOP.finditer(text, lo, denial.start())]
        if stops and text[lo : stops[-1]].strip(_LIST_TRIM):
            return stops[-1]
        return hi  # the first sentence denies it: "not A but C" is read as it stands
    return hi


def _item(text: str, lo: int, hi: int) -> re.Match[str] | None:
    """A list item's label: "- B) 8", "2. (C)", "**A)** 7", "D) 10"."""
    return _NUMBERED.match(text, lo, hi) or _BARE_ITEM.match(text, lo, hi)


def _read_block(
    text: str, end: int, ctx: _Context, *, texts: _TextsRead = "inside"
) -> tuple[int, _Reading, int] | None:
    """The answer under a line that ends before it ("Incorrect options:", "The
    correct answer is:"), ``end`` being that line's end: a list of labels, one item
    a line ("- B) 8", "D) 10"), when it has two items or more, else the next line.
    Its sign, its reading and the end of what was read."""
    first = _next_line(text, end)
    if first is None or note_line(text, first[0]):
        return None  # "The incorrect options are\n\nNote: I considered A, B, C and D."
    lo, hi = first
    following = _next_line(text, hi)
    if (stacked := _stacked_labels(text, lo, hi, ctx)) is not None:
        return stacked
    item = _item(text, lo, hi)
    if item is None or following is None or _item(text, *following) is None:
        said = _read_answer(text, lo, hi, ctx, texts=texts)
        if said is not None:
            return said[0], said[1], hi
        if item is not None and (label := ctx.keys.get(item["n"].upper())) is not None:
            return 0, _Reading(frozenset({label}), item.span("n")), hi  # "- C) 9: the greatest"
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
        line = _next_line(text, hi)
        if line is None:
            break
        lo, hi = line
    return (0, _Reading(frozenset(found), None), stop) if found else None


def _stacked_labels(text: str, lo: int, hi: int, ctx: _Context) -> tuple[int, _Reading, int] | None:
    """Labels written one a line under a heading, each line a label alone ("Correct
    options:\nB\nD"), two or more, up to a blank line or a line that is not one label:
    their reading and the end of the last."""
    found: set[str] = set()
    first: int | None = None
    stop = hi
    line: tuple[int, int] | None = (lo, hi)
    while line is not None:
        start, end = line
        one = _labels_only(text, start, end, ctx.keys, upper=True)
        if one is None or len(one.labels) != 1 or one.void:
            if found and _item(text, start, end) is not None:
                return None  # "* B\n* C\n* D (15)": a list's items, read as such
            break
        if text[start:end].lstrip()[:1] in ("*", "-", "•"):
            return None  # bullets: a list's items, read as such
        found |= one.labels
        first = start if first is None else first
        stop = end
        after = text.find("\n", end) + 1 if end < len(text) else 0
        if not after or after >= len(text) or text[after] == "\n":
            break
        nl = text.find("\n", after)
        line = (after, len(text) if nl < 0 else nl)
    if len(found) < 2 or first is None:
        return None
    return 0, _Reading(frozenset(found), (first, stop)), stop


def _run_labels(
    text: str, lo: int, hi: int, ctx: _Context, *, after_verb: bool = False
) -> _Reading | None:
    """The labels of a run before a verb, less the words that lead into it ("Thus, A
    and C are ..."): from the first label after the last word that is not one. In
    free text a label in lower case counts only as a single letter ("a and c").
    ``after_verb``: the run is the verb's object ("it meets criteria A and C, but ..."),
    and ends at its last label."""
    if after_verb:
        last = -1
        for word in _ALNUM.finditer(text, lo, hi):
            token = word.group()
            if ctx.keys.get(token.upper()) is not None and (len(token) == 1 or token.isupper()):
                last = word.end()
        if last < 0:
            return None
        hi = last + (last < hi and text[last] in ")]")
    start = -1
    for word in _ALNUM.finditer(text, lo, hi):
        token = word.group()
        if token.lower() in _SEP_WORDS:
            continue
        if ctx.keys.get(token.upper()) is None or (len(token) > 1 and not token.isupper()):
            start = -1
        elif start < 0:
            start = word.start() - (word.start() > lo and text[word.start() - 1] in "([")
    if start < 0:
        return None
    return _labels_only(text, start, hi, ctx.keys, upper=True)


# More labels after "option C": "options A and C", "choices B/D", "options A, C and E"
_MORE_LABELS = _Pattern(rf"{_TOK}(?:{_SEP}{_TOK})*+", re.IGNORECASE)


def more_labels(text: str, at: int, hi: int, ctx: _Context) -> _Reading | None:
    """The run of labels that starts at ``at`` (after "options"), when it holds more than
    one: "A and C" of "options A and C, from what I recall"."""
    run = _MORE_LABELS.match(text, at, hi)
    if run is None or run.end() - at <= 1:
        return None
    more = _run_labels(text, at, run.end(), ctx, after_verb=True)
    if more is None or more.span is None or more.span[0] != at or len(more.labels) < 2:
        return None
    return more


def _marked_labels(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The labels written in a marked form ("(C)", "c)", "option C") in ``text[lo:hi]``;
    it disagrees when a label's mark is followed by another candidate's text."""
    found: set[str] = set()
    first, last = hi, lo
    disagrees = False
    matches = list(_MARKED.finditer(text, lo, hi))
    for i, match in enumerate(matches):
        group = match.lastgroup or "p"
        label = ctx.keys.get(match.group(group).upper())
        if label is not None:
            found.add(label)
            first, last = min(first, match.start(group)), max(last, match.end(group))
            if group == "o" and (run := more_labels(text, match.start(group), hi, ctx)):
                found |= run.labels  # "options B/D", "choices A & C"
                last = max(last, run.span[1] if run.span else last)
            upto = matches[i + 1].start() if i + 1 < len(matches) else hi
            disagrees = disagrees or (
                group in ("p", "r") and _disagrees(text, match.end(), label, ctx, upto)
            )
    return _Reading(frozenset(found), (first, last), disagrees=disagrees) if found else None


_AFTER_MARK_STRIP = " \t\"'`*.,;:“”"


def _disagrees(text: str, pos: int, label: str, ctx: _Context, hi: int | None = None) -> bool:
    """Whether the text after a label's mark ("C) 1 : 1") is another candidate's text."""
    return _text_side(text, pos, label, ctx, hi) is False


def _text_side(
    text: str, pos: int, label: str, ctx: _Context, hi: int | None = None
) -> bool | None:
    """Whose text follows a label's mark at ``pos``, up to an aside or the line's end:
    the label's own candidate's (True), another candidate's (False), or none's (None).
    A text names a candidate when it is its whole text or begins it with
    ``PREFIX_WORDS`` words or more, case, spacing and punctuation aside ("G: developing
    a global regulatory body ..."); a quote twin's as written (``"0"``, not ``0``)."""
    return _text_side_end(text, pos, label, ctx, hi)[0]


def _text_side_end(
    text: str, pos: int, label: str, ctx: _Context, hi: int | None = None
) -> tuple[bool | None, int]:
    """:func:`_text_side`, and where the text it read ends (``pos`` when none)."""
    hi = _line_end(text, pos) if hi is None else min(hi, _line_end(text, pos))
    cut = _ASIDE.search(text, pos, hi)
    # the whole stretch first (a text may hold an aside's word: "A murderer is not
    # wrong ..."), then up to the aside ("C) 20% (a fifth)", "B. 15, which is ...")
    for end in (hi, cut.start()) if cut is not None else (hi,):
        lo, end = _strip_bounds(text, pos, end, _AFTER_MARK_STRIP)
        if lo >= end:
            continue
        rest = text[lo:end]
        for word in (" and", " or"):
            if rest.lower().endswith(word):
                rest = rest[: -len(word)]
        norm = _norm(rest)
        if (twin := ctx.texts.quoted(rest)) is not None:
            return twin == label, end  # "A. \"0\"" of 0 and "0": the text as written
        if ctx.texts.norm_of(label) == norm:
            return True, end
        other = ctx.texts.by_text.get(norm)
        if other is not None:
            return other == label, end
        named = ctx.texts.written(rest)
        if named:
            return label in named, end
    return None, pos


# One label and a text, the whole of a stretch: "G: developing a global ...", "(C) 20%",
# "**D. Aortic dissection**"
_LABEL_AND_TEXT = _Pattern(
    rf"[^\S\n]*(?:[*_`][^\S\n]*)*[(\[]?(?P<l>{_LABEL})(?:[)\]][^\S\n]*[.:]?|[.:]|[^\S\n]+[—–](?=[^\S\n])"
    # a comma, "or" after it: "the answer is D, Metronidazole.", "D, or amylase."
    r"|,(?:[^\S\n]+or(?=[^\S\n]))?)"
    r"(?:[^\S\n]*[*_`])*[^\S\n]+(?=[^\s*_`])"
)


def _label_and_text(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as one label followed by a candidate's text (:func:`_text_side`):
    the label, marked as disagreeing when the text is another candidate's; None when the
    text is no candidate's."""
    found = label_and_text_end(text, lo, hi, ctx)
    return found[0] if found is not None else None


def label_and_text_end(text: str, lo: int, hi: int, ctx: _Context) -> tuple[_Reading, int] | None:
    """:func:`_label_and_text`, and where the text after the label ends (what follows
    it, up to ``hi``, is an aside: "B. 1914, with ...")."""
    match = _LABEL_AND_TEXT.match(text, lo, hi)
    if match is None:
        return None
    token = match.group("l")
    label = ctx.keys.get(token.upper())
    if label is None or not (token.isupper() or len(token) == 1):
        return None
    side, end = _text_side_end(text, match.end(), label, ctx, hi)
    if side is None:
        return None
    return _Reading(frozenset({label}), match.span("l"), disagrees=not side), end


_GAP_CHARS = _PRE | _POST | _SEP_CHARS
"""Every character a gap around or between labels may hold besides whitespace."""


def _gap_ok(gap: Sequence[str]) -> bool:
    """Whether what lies between two labels separates them.

    The grammar is ``closing* separator opening*``: closing marks ``) ] " ' . * ```,
    opening marks ``" ' * ` ( [``, and one separator (``, ; / &``, "and", "or") or
    whitespace between them.
    """
    seps = [i for i, piece in enumerate(gap) if piece in _SEP_CHARS or piece.lower() in _SEP_WORDS]
    if (
        len(seps) == 2
        and gap[seps[0]] == ","
        and gap[seps[1]].lower() in _SEP_WORDS
        and all(p.isspace() for p in gap[seps[0] + 1 : seps[1]])
    ):
        seps = seps[1:]  # the Oxford comma: "A, C, and E"
        gap = [*(p if p != "," else " " for p in gap[: seps[0]]), *gap[seps[0] :]]
    if len(seps) > 1:
        return False
    if seps:
        at = seps[0]
        return all(p.isspace() or p in _POST for p in gap[:at]) and all(
            p.isspace() or p in _PRE for p in gap[at + 1 :]
        )
    # No separator word or mark: whitespace must sit between the closing and the
    # opening marks ("C) (D" reads, "C)(D" does not).
    last_not_pre = max((i for i, p in enumerate(gap) if not (p.isspace() or p in _PRE)), default=-1)
    first_not_post = next(
        (i for i, p in enumerate(gap) if not (p.isspace() or p in _POST)), len(gap)
    )
    return any(gap[i].isspace() for i in range(last_not_pre + 1, first_not_post))


def _labels_only(
    text: str, lo: int, hi: int, keys: Mapping[str, str], *, upper: bool = False
) -> _Reading | None:
    """The labels of ``text[lo:hi]`` when it is made of nothing but labels ("C, D and
    E", "(B)"), else None. ``upper``: a label written in lower case counts only as a
    single letter ("a and c", but not "it" for the label IT). Labels joined by "or" are
    alternatives ("B or C"), no answer: the reading is void."""
    lo, hi = _strip_bounds(text, lo, hi)
    found: set[str] = set()
    gap: list[str] = []
    first = last = -1
    alternative = False
    for match in _LIST_PIECE.finditer(text, lo, hi):
        piece = match.group(0)
        if not _ALNUM.fullmatch(piece):
            if not (piece.isspace() or piece in _GAP_CHARS):
                return None  # no gap holds it: fail at once, not after a long run of it
            gap.append(piece)
            continue
        if first >= 0 and piece.lower() in _SEP_WORDS:
            # "C and D" is two labels even when AND is a label too (4,000+ options)
            gap.append(piece)
            alternative = alternative or piece.lower() == "or"
            continue
        label = keys.get(piece.upper())
        if label is None or (upper and len(piece) > 1 and not piece.isupper()):
            return None
        if first >= 0:
            if not _gap_ok(gap):
                return None
        elif not all(p.isspace() or p in _PRE for p in gap):
            return None
        found.add(label)
        if first < 0:
            first = match.start()
        last = match.end()
        gap = []
    if first < 0 or not all(p.isspace() or p in _POST for p in gap):
        return None
    return _Reading(frozenset(found), (first, last), void=alternative and len(found) > 1)


_JOINS = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b|&|\bboth\b)\s*", re.IGNORECASE)
_ARTICLES = re.compile(r"^(?:(?:the|an?|options?|choices?)\s+)+", re.IGNORECASE)


def _named(subject: str, ctx: _Context) -> set[str]:
    """The candidates a subject names, every part of it a candidate's label or text (a
    plural of it: "whales" for "Whale"), or both ("B (Shark)", "sharks (B)"); none when a
    part is something else."""
    named: set[str] = set()
    for part in _JOINS.split(subject):
        part = part.strip(" \t*_`[]\"'")
        both = _BOTH_NAMES.match(part)
        if both is not None:
            label = _one_named(both.group("a"), ctx)
            if label != _one_named(both.group("b"), ctx):
                return set()  # a label with another candidate's text
        else:
            if not part.strip("()"):
                continue
            label = _one_named(part, ctx)
        if label is None:
            return set()
        named.add(label)
    return named


# A candidate named twice in one part of a subject: "B (Shark)", "sharks (B)"
_BOTH_NAMES = _Pattern(r"^(?P<a>[^()]{1,80}?)\s*\((?P<b>[^()]{1,80})\)$")


def _one_named(part: str, ctx: _Context) -> str | None:
    """The candidate one part of a subject names by its label or its text (a quote
    twin's as written: ``"0"``, not ``0``)."""
    twin = ctx.texts.quoted(_ARTICLES.sub("", part.strip(" \t*_`()[]")))
    if twin is not None:
        return twin
    part = _ARTICLES.sub("", part.strip(" \t*_`()[]\"'")).strip(" \t*_`()[]\"'")
    label = ctx.keys.get(part.upper()) if len(part) <= 4 and part.isupper() else None
    if label is None:
        by_text = ctx.texts.by_text
        norm = _norm(part)
        label = by_text.get(norm)
        for cut in (1, 2):
            if label is None and len(norm) > cut + 2 and norm.endswith("es"[2 - cut :]):
                label = by_text.get(norm[:-cut])
    return label
