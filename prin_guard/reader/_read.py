"""The reader's pipeline: the stages in order, from a reply to a :class:`ParseResult`."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING

from prin_guard._infra._offloop import squeeze, unsqueeze
from prin_guard._prompting._quotes import quoted_places
from prin_guard.models import TASKS, ParseMethod, ParseStatus, Polarity, Task
from prin_guard.reader._answered import (
    answers_the_question,
    bare_none,
    endorsed,
    says_no_side,
)
from prin_guard.reader._answering import (
    in_own_nouns,
    in_status_words,
    label_marks,
    labels_first,
)
from prin_guard.reader._answers import (
    _NONE_ONLY,
    _NONE_STRIP,
    _PUNCT_ONLY,
    _QUANT,
    _but_not,
    _excluded,
    _label_and_text,
    _labels_only,
    _named,
    _only_labels,
    _quantified,
    _status_only,
    _texts_list,
    _with_note,
    label_and_text_end,
)
from prin_guard.reader._asides import without_asides
from prin_guard.reader._closers import closers_start
from prin_guard.reader._complement import read_complement
from prin_guard.reader._concluded import concluded_otherwise
from prin_guard.reader._copies import (
    _blank_copies,
    _echo_lines,
    _map_span,
    _own_lines,
    _Words,
    detect_echo,
)
from prin_guard.reader._corrected import blank_before_correction
from prin_guard.reader._declared import read_declared, read_last
from prin_guard.reader._defined import defined
from prin_guard.reader._drawn import arrived_at, drawn, names_any
from prin_guard.reader._evidence import _FAILED, ParseResult, _Context, _Reading, _Status
from prin_guard.reader._formats import (
    _LEAD_IN,
    _answer_line,
    _heading_sides,
    _label_line,
    _lines,
    _option_line,
    _read_headings,
    _read_tags,
    _read_verdicts,
    boxed_labels,
)
from prin_guard.reader._listings import blank_listings, blank_whole_ranges
from prin_guard.reader._names import _name_labels, _View
from prin_guard.reader._openers import blank_openers
from prin_guard.reader._option_scores import option_scores
from prin_guard.reader._own_sides import against_own_sides, read_asked, rejected_after
from prin_guard.reader._prose import (
    _candidate_texts,
    _cut_off,
    _loose_forms,
    _stops_open,
    claims_of,
)
from prin_guard.reader._question_words import in_question_words
from prin_guard.reader._questioned import questions_the_leg
from prin_guard.reader._resolve import _accounted, _joint_result, _resolve, _result
from prin_guard.reader._restated import (
    alone,
    bookended,
    glossed,
    its,
    neither_nor,
    no_status,
    odd_out,
    only_one,
    restated,
    struck,
)
from prin_guard.reader._revisions import Revisions, Said
from prin_guard.reader._side_by_side import side_by_side
from prin_guard.reader._sided import all_restated, then_sided
from prin_guard.reader._structures import _structure_statuses, json_places
from prin_guard.reader._terse import terse
from prin_guard.reader._text import (
    _VERB_ADJ_SOURCE,
    WINDOW,
    _keys_of,
    _next_line,
    _ordered,
    _Pattern,
    _strip_bounds,
    _Texts,
    word_runs,
)
from prin_guard.reader._text_lists import heading_over_texts, texts_alone
from prin_guard.reader._values import read_value
from prin_guard.reader._vocab import _status_sign, _Vocab, predicate_source
from prin_guard.reader._wholeset import whole_set

if TYPE_CHECKING:
    from prin_guard._prompting._contract import AnswerContract


def parse_reply(
    text: str | None,
    labels: Sequence[str],
    texts: Sequence[str],
    *,
    task: Task = "choice",
    polarity: Polarity | None = None,
    words: tuple[str, str] | None = None,
    nouns: Iterable[str] = (),
    echo: Sequence[str] = (),
    prompt: Sequence[str] = (),
    contract: AnswerContract | None = None,
    question: str | None = None,
) -> ParseResult:
    """Read the set of labels a reply names. ``labels`` and ``texts`` are the candidates'
    as shown to the judge, in the order shown.

    ``task``: ``"choice"``, ``"pairwise"`` or ``"checklist"``: which words and nouns
    the reply is read in, and, for a pair, that naming both or neither is a tie.

    ``polarity``: the question the reply answers. Places in that question's words are
    read ("Incorrect: B, D" on the reverse leg), those in the opposite words are not.
    ``words``: the template's ``(positive, negative)`` words, such as ``("right",
    "wrong")`` or ``("meets", "fails to meet")``; the bundled templates' words are
    always known, so only a template of one's own needs it.

    ``nouns``: what the prompt calls the candidates, besides the task's usual nouns
    ("output" for "Output (a)", "criterion" for "criterion 3").

    ``echo``: the item's texts the judge may copy (its question, context, response,
    candidate texts and reasoning paths): text the caller does not control. Copied
    text is not read as the judge's answer, and ``copied`` says when some was skipped.
    ``prompt``: the prompt's own text (the messages sent): copies of it are skipped the
    same way ("[[A]] if assistant A is better, [[B]] if ..." restated), but are not
    reported, as the caller wrote it. When the reply repeats the prompt (``echoed``),
    only the lines after its question sentence that are copies of neither are read.

    ``contract``: the template's answer contract (the labels as the prompt shows them,
    the tie word, the verdict format). A declared format is read first and strictly;
    when the reply's own conclusion (read by the general reader, not from a weak cue)
    disagrees with it, the leg fails; when the reply does not use it, the general
    reader's reading stands.

    ``question``: the item's question; the predicate it asks about ("Which of these
    cities are capitals?": "capitals") is a status word of the direct question's side
    ("A and C are capitals", "B is not a capital", a column "Capital?").
    """
    if task not in TASKS:
        raise ValueError(f"task: unknown task {task!r}; use choice, pairwise or checklist")
    if polarity is not None and not isinstance(polarity, Polarity):
        try:  # "direct" given as a string is the direct question, not "not direct"
            polarity = Polarity(polarity)
        except ValueError:
            raise ValueError(
                f"polarity: unknown polarity {polarity!r}; use direct or reverse"
            ) from None
    if text is None or not text.strip():
        return _FAILED
    leg = 0 if polarity is None else 1 if polarity is Polarity.DIRECT else -1
    if task != "choice" and not leg:
        leg = 1  # a pair or a checklist without a polarity: the direct question
    keys = _keys_of(labels)
    # the contract's labels, where a copied stretch may name a candidate by them; not
    # labels that differ only in case, which a copy (compared case aside) cannot tell
    # apart, and which the general reader does not read
    shown = () if contract is None or contract.case_sensitive else contract.labels or ()
    if tuple(shown) == tuple(labels):
        shown = ()  # the item's own labels: read as keys, as written
    names = frozenset(word.casefold() for label in shown for word in word_runs(label))
    ctx = _Context(
        keys, labels, _Texts(labels, texts), _Vocab.of(words, task, question), leg, task, names
    )
    # closing lines that name no label, option text or side ("I hope this helps!"): the
    # reply is read without them; offsets before them are the reply's own
    text = text[: closers_start(text, ctx)]
    long = len(text) > 2 * WINDOW
    cut_at: list[int] = []
    text_at_cut: list[int] = []
    if long:  # its first and last WINDOW characters, and offsets back into the reply
        cut_at, text_at_cut = [0, WINDOW + len(_GAP)], [0, len(text) - WINDOW]
        text = text[:WINDOW] + _GAP + text[-WINDOW:]
    text, squeezed = squeeze(text)  # long runs of whitespace read as LONG_SPACE characters
    echoed = detect_echo(text, labels, prompt)
    read, read_at, text_at = text, list[int](), list[int]()
    if echoed:
        read, read_at, text_at = _own_lines(text, _echo_lines([*echo, *prompt]), prompt)
    copied, written = False, read
    if any(echo) or any(prompt):
        reply = _Words(read)  # worked out once for both, unless the first blanks some
        read, copied = _blank_copies(reply, echo, ctx)
        read, _ = _blank_copies(_Words(read) if copied else reply, prompt, ctx, short=False)
    read = blank_openers(read, ctx, written)  # "Let me think.\n\n", the question restated
    read = side_by_side(_latex(terse(read, ctx)), ctx)  # "(A)(C)", "\\boxed{A}, \\boxed{C}"
    read = blank_listings(_joined(_plain(read), ctx), ctx)  # "The options are A) ..."
    read = blank_whole_ranges(read, ctx)  # "Therefore, among A through D, the answer is B."
    read = in_status_words(read)  # "the options that do not answer the question are ..."
    read = in_own_nouns(read, ctx)  # "the incorrect numbers are B and D"
    read = label_marks(read, ctx)  # "A. Peru and C. Chile"
    read = labels_first(read, ctx)  # "* **Hamlet** (A)"
    read = blank_before_correction(read)  # "## Answer\nVenus\n...## Corrected Answer\n(B)"
    declared: _Reading | None = None
    if contract is not None and contract.declared:
        declared, places = read_declared(read, contract, ctx)
        quoted = _quoted(read, places, contract, ctx, echo) if any(echo) else []
        if quoted:  # the item's verdict quoted back, under the template's own labels
            read, copied = _blanked(read, quoted), True
            declared, places = read_declared(read, contract, ctx)
        if declared is not None:
            # the rest of the reply, read apart: its conclusion must not disagree
            rest = _name_labels(_blanked(read, places), ctx, nouns)
            general = _parse(rest.text, ctx)
            at = rest.original(general.span)
            revisions, after = Revisions(read), max(hi for _, hi in places)
            revised = revisions.answered_anew(after, at)
            walked = _walked(revisions, rest, after, declared, ctx)
            if walked is not None:
                # "Answer: A, C\n\nActually, C is wrong. No wait, C is right.": A and C
                result, revised = walked, revised or set(walked.labels) != declared.labels
            else:
                if revised and not ctx.pair and revisions.adds(at) and not declared.inverted:
                    # "Answer: A\n\nActually C is appropriate too.": the answer and C
                    joint = _Reading(declared.labels | set(general.labels), None, weak=general.weak)
                    general = _result(joint, ParseMethod.LABEL_FORMS, ctx)
                stands = _stands(read, places, at, general, declared)
                result = _with_declared(declared, general, ctx, revised=revised, stands=stands)
                if (
                    not revised
                    and not stands
                    and _whole_set_after(read, general, at, after, declared, ctx)
                ):
                    result = _FAILED  # "Answer: A, C\n\nNote: none of them is right."
            # the declared answer's concluding part: what the reply says after it
            named = _name_labels(read, ctx, nouns).text
            result = _account(named, result, ctx)
            result = _against_reasoning(named, result, ctx)
            result = against_own_sides(named, result, ctx)
            view = _View(read, {}, {})  # the declared span is in the reply as read
            if (
                _answers_the_predicate(read, result, ctx)
                or answers_the_question(read, result, ctx)
                or concluded_otherwise(read, result, ctx)
                or questions_the_leg(read, result, ctx)
            ):
                result = _FAILED  # the direct question's answer, in the declared format
            elif _lines_disagree(read, places, contract, ctx):
                result = _FAILED  # "Answer: B" ... "Answer: C", no revision between
            elif not revised and _against_own_lines(rest.text, result, ctx):
                result = _FAILED  # "C - This option is correct. ... Answer: C" (reverse)
            elif _touches_the_other_side(read, result, ctx):
                result = replace(result, weak=True)
    if declared is None:
        view = _name_labels(read, ctx, nouns)
        result = _parse(view.text, ctx)
        if _by_number(read, view, result, ctx):
            result = _FAILED  # "The answer is option 3." of options A-D, nothing to pin it
    return ParseResult(
        result.labels,
        result.status,
        result.method,
        echoed,
        _map_span(
            unsqueeze(_map_span(view.original(result.span), read_at, text_at), squeezed),
            cut_at,
            text_at_cut,
        ),
        result.disagreement,
        copied,
        result.weak or (long and result.status is not ParseStatus.FAILED),
    )


_GAP = "\n\n"


def _by_number(text: str, view: _View, result: ParseResult, ctx: _Context) -> bool:
    """Whether a choice's answer names lettered options by number ("option 3": the
    third, or the one whose text is 3?) and the reasoning just before it does not pin
    the same candidates (its value computed: "... = $300.\n\nThe answer is option 2.")."""
    if ctx.task != "choice" or result.span is None or result.status is not ParseStatus.OK:
        return False
    if any(label.isdigit() for label in ctx.labels):
        return False
    original = view.original(result.span)
    if original is None:
        return False
    token = text[original[0] : original[1]]
    if token == view.text[result.span[0] : result.span[1]] or not any(map(str.isdigit, token)):
        return False  # not a number written over by a label: "9", a candidate's text
    return not set(result.labels) <= endorsed(view.text, result.span[0], ctx)


# Markdown's strong emphasis around a name: "**C** and **D** are correct", "**Response A**"
_EMPHASIS = _Pattern(
    r"\*\*(?=\S)(?P<inner>[^*\n]{1,40}?)(?<=\S)\*\*|__(?=\S)(?P<u>[^_\n]{1,40}?)(?<=\S)__"
)


# LaTeX's inline math around a label, a list of labels, or a label and its text: "\\( B
# \\)", "$A, C$", "\\( E. 0.39 \\)"; not a variable in a formula ("\\( c = 2 \\)")
_LABEL_MATH = _Pattern(
    r"(?:\\\(|\$)[^\S\n]*(?P<inner>\(?[A-Z](?:(?:[^\S\n]*(?:,|&|/|\band\b)[^\S\n]*[A-Z])*"
    r"\)?(?![A-Za-z0-9=])|[.:)][^\S\n]+(?![=<>+*/^-])[^$\n]{1,200}?))[^\S\n]*(?:\\\)|\$)"
)


# LaTeX's text commands around a label, and a set of labels under a heading: "\\textbf{A}",
# "$\\text{Incorrect} = \\{A, D\\}$"
_LATEX_LABEL = _Pattern(r"\\(?:textbf|textit|text|mathbf|mathrm|emph)\{(?P<inner>[A-Z])\}")
_LATEX_SET = _Pattern(
    r"\$?[^\S\n]*\\text\{(?P<head>[A-Za-z][A-Za-z ]{0,30})\}[^\S\n]*(?P<eq>=)[^\S\n]*"
    r"\\\{(?P<body>[^{}\n]{1,80})\\\}[^\S\n]*\$?"
)

_SET_ALONE = _Pattern(r"[\s.!*_`]*")


def _latex(text: str) -> str:
    """``text`` with LaTeX's text commands around a label written over by spaces
    ("\\textbf{A}" reads as "A"), and a set under a heading as a heading's line
    ("$\\text{Incorrect} = \\{A, D\\}$" reads as "Incorrect : A, D"); the same length."""
    if "\\" not in text:
        return text
    out = list(text)
    for match in _LATEX_LABEL.finditer(text):
        for at in (
            *range(match.start(), match.start("inner")),
            *range(match.end("inner"), match.end()),
        ):
            out[at] = " "
    for match in _LATEX_SET.finditer(text):
        end = text.find("\n", match.end())
        if not _SET_ALONE.fullmatch(text, match.end(), len(text) if end < 0 else end):
            continue  # "$\\text{Wrong} = \\{A, C\\}$ would be a mistake.": no heading
        keep = (match.span("head"), match.span("body"))
        for at in range(match.start(), match.end()):
            if not any(a <= at < b for a, b in keep):
                out[at] = " "
        out[match.start("eq")] = ":"
    return "".join(out)


def _plain(text: str) -> str:
    """``text`` with strong emphasis around short stretches, and LaTeX's inline math
    around labels, written over by spaces (the same length: offsets hold), so that
    "**C** and **D** are correct" reads as "C and D are correct" and "The answer is \\( B
    \\)." as "The answer is B.". Bullets ("* A") and other markup stay."""
    emphasis = "**" in text or "__" in text
    math = "\\(" in text or "$" in text
    if not emphasis and not math:
        return text
    out = list(text)
    spans: list[tuple[int, int, tuple[int, int]]] = []
    if emphasis:
        for match in _EMPHASIS.finditer(text):
            inner = match.span("inner") if match.group("inner") is not None else match.span("u")
            spans.append((match.start(), match.end(), inner))
    if math:
        spans.extend((m.start(), m.end(), m.span("inner")) for m in _LABEL_MATH.finditer(text))
    for start, end, inner in spans:
        for at in (*range(start, inner[0]), *range(inner[1], end)):
            out[at] = " "
    return "".join(out)


# Two labels joined by a word or a mark other than "and": "A plus C", "A + C", "A as well
# as C", "A together with C", "A and also C"; not in a formula ("A + C = 10")
_JOINED = _Pattern(
    r"(?<![\w=+*/^-])(?P<a>[A-Z])\)?(?P<j>[^\S\n]+(?:plus|as[^\S\n]+well[^\S\n]+as"
    r"|together[^\S\n]+with|and[^\S\n]+also)[^\S\n]+)(?=\(?(?P<b>[A-Z])(?![\w-]))"
)
_PLUS_CHAIN = _Pattern(
    r"(?<![\w=+*/^-])(?<![=+*/^-][^\S\n])[A-Z](?:[^\S\n]*\+[^\S\n]*[A-Z])+"
    r"(?![\w=+*/^<>-])(?![^\S\n][=+*/^<>-])"
)


def _joined(text: str, ctx: _Context) -> str:
    """``text`` with the words or marks that join two labels besides "and" written as
    "and" or "&" (the same length: offsets hold): "A plus C" reads as "A and C", "A + C"
    as "A & C"; not in a formula ("A + C = 10")."""
    if ctx.task != "choice" or not (
        "+" in text
        or any(word in text for word in ("plus", " as well as ", "together with", "and also"))
    ):
        return text
    out = list(text)
    for match in _JOINED.finditer(text):
        if match.group("a") not in ctx.keys or match.group("b") not in ctx.keys:
            continue
        lo, hi = match.span("j")
        start = lo + len(match.group("j")) - len(match.group("j").lstrip())
        out[start:hi] = "and" + " " * (hi - start - 3)
    for match in _PLUS_CHAIN.finditer(text):
        chain = match.group()
        if all(ch in ctx.keys for ch in chain if ch.isalpha()):
            for at in range(match.start(), match.end()):
                if text[at] == "+":
                    out[at] = "&"
    return "".join(out)


_ROUNDS = 8
"""Times the declared format is looked for again before the places it found, for the
formats whose reader stops at the last one (a JSON field, an ordering, the first line)."""


def _quoted(
    text: str,
    places: list[tuple[int, int]],
    contract: AnswerContract,
    ctx: _Context,
    echo: Sequence[str],
) -> list[tuple[int, int]]:
    """Every place of the declared format in ``text`` that stands in a quotation of the
    item (:func:`quoted_places`): those found, and those before them that a reader which
    stops at the last one did not reach."""
    shown = tuple(contract.labels) if contract.labels is not None else tuple(ctx.labels)
    names = (*shown, *((contract.tie,) if contract.tie else ()))
    case = contract.case_sensitive
    quoted = quoted_places(text, places, echo, names, case=case)
    rest = text
    for _ in range(_ROUNDS):
        if not places:
            break
        rest = _blanked(rest, places)
        _, places = read_declared(rest, contract, ctx)
        quoted += quoted_places(text, places, echo, names, case=case)
    return quoted


def _blanked(text: str, places: Sequence[tuple[int, int]]) -> str:
    """``text`` with ``places`` written over by spaces (line breaks kept)."""
    out = list(text)
    for lo, hi in places:
        for at in range(lo, hi):
            if out[at] != "\n":
                out[at] = " "
    return "".join(out)


def _walked(
    revisions: Revisions,
    view: _View,
    end: int,
    answer: _Reading,
    ctx: _Context,
    method: ParseMethod = ParseMethod.DECLARED,
) -> ParseResult | None:
    """A choice's answer (ending at ``end`` of the text ``revisions`` reads) as the
    statements after it revise it (:meth:`Revisions.final`; the statements read in
    ``view``, that text with the answer blanked or not), when a revision stands between
    the answer and the last of them ("Answer: B\n\nCorrection: D is also incorrect." on
    the reverse leg: B, D); None when nothing after the answer revises it."""
    if ctx.task != "choice" or not ctx.leg or answer.inverted:
        return None
    said = [
        replace(
            item,
            at=_in_reply(view, item.at),
            end=_in_reply(view, item.end),
            span=view.original(item.span),
        )
        for item in _said(view.text, 0, ctx)
    ]
    after = [item for item in said if item.at >= end]
    if not after or not revisions.between(end, after[-1].at):
        return None
    before = [item for item in said if item.at < end]
    final = revisions.final(answer.labels, after, ctx.leg, ctx.labels, before=before)
    if final is None:
        return _FAILED
    if final.labels == answer.labels:
        return _result(replace(answer, weak=answer.weak or final.weak), method, ctx)
    reading = _Reading(final.labels, after[-1].span, weak=final.weak)
    result = _result(reading, ParseMethod.LABEL_FORMS, ctx, empty=ParseMethod.NONE_WORD)
    if says_no_side(revisions.text, result, ctx):
        return replace(result, weak=True)  # "Correction: the answer is B." on the reverse leg
    return result


def _in_reply(view: _View, at: int) -> int:
    """Where ``at`` of a view's text stands in the text the view was made of."""
    if at in view.starts:
        return view.starts[at]
    ends = [end for end in view.ends if end <= at]
    return at if not ends else at - max(ends) + view.ends[max(ends)]


def _with_declared(
    declared: _Reading,
    general: ParseResult,
    ctx: _Context,
    *,
    revised: bool = False,
    stands: bool = False,
) -> ParseResult:
    """The declared format's reading, unless the reply concludes otherwise (no verdict),
    or revises it: ``revised``, the reply's conclusion stands after every place of the
    declared format, behind a revision ("Answer: C ... Correction: the answer is B.")."""
    said = _result(declared, ParseMethod.DECLARED, ctx)
    if said.status is ParseStatus.FAILED:
        return said
    if general.status is not ParseStatus.FAILED and general.labels != said.labels:
        if revised:
            return general  # the conclusion corrects the declared verdict (weak or not)
        if stands:
            return said  # the declared answer corrects the conclusion, or adds to it
        if not general.weak:
            return _FAILED  # the declared verdict and the reply's conclusion disagree
    return said


def _whole_set_after(
    text: str,
    general: ParseResult,
    at: tuple[int, int] | None,
    after: int,
    declared: _Reading,
    ctx: _Context,
) -> bool:
    """Whether a choice or checklist reply says something of every candidate at once after
    its declared answer ("None of them is right.", "All of them are correct.") that the
    answer does not say: the reply says two things. Such a claim reads weak on its own, so
    it does not outweigh the declared answer; it does leave the leg no verdict."""
    if ctx.pair or general.status is ParseStatus.FAILED or at is None or at[0] < after:
        return False
    said = set(general.labels)
    if said == declared.labels or (said and said != set(ctx.labels)):
        return False
    if _QUANTIFIER.match(text, at[0]) is None:
        return False  # the candidates listed ("I considered A, B, C and D."), no claim
    return _OF_THE_OTHERS.match(text, at[1]) is None  # "None of the others is right."


_QUANTIFIER = _Pattern(r"(?:all|every|each|both|none|neither)\b", re.IGNORECASE)
_OF_THE_OTHERS = _Pattern(r"\s+(?:of\s+)?the\s+(?:others?|rest|remaining)\b", re.IGNORECASE)


def _stands(
    text: str,
    places: Sequence[tuple[int, int]],
    span: tuple[int, int] | None,
    general: ParseResult,
    declared: _Reading,
) -> bool:
    """Whether the last declared answer stands over the reply's conclusion at ``span``
    that differs from it: a revision lies between the conclusion and that answer ("The
    appropriate choices are A, B and C. Actually no, ... so only A and C.\n\nAnswer: A,
    C"), or the conclusion adds to an answer line before it and the last one holds it
    ("Answer: A, C\n\nCorrection: D is also accurate.\n\nAnswer: A, C, D"), or the
    conclusion is statuses of some of its candidates (their sides are checked against it
    by :func:`_against_reasoning`)."""
    if not places or declared.inverted:
        return False
    if general.method is ParseMethod.PER_CANDIDATE and set(general.labels) <= declared.labels:
        return True  # statuses of some ("7: odd; 13: odd."): what they say is checked after
    if span is None:
        return False
    last = max(lo for lo, _ in places)
    if span[1] > last:
        return False
    revisions = Revisions(text)
    if revisions.between(span[1], last, hmm=False):
        return True
    earlier = [hi for _, hi in places if hi <= span[0]]
    if not earlier or not set(general.labels) <= declared.labels:
        return False
    return revisions.between(max(earlier), span[0], hmm=False) and revisions.adds(span, last)


def _against_own_lines(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether a choice reply's declared answer names a candidate that the reply's own
    per-option lines (a list or a table, read apart from the answer) put on the other
    side of the leg's question, and on its side nowhere: on the reverse leg, "C - This
    option is correct." then "Answer: C" answers the direct question; on the direct leg,
    "B - incorrect." then "Answer: B" contradicts itself. No verdict either way."""
    if ctx.task != "choice" or not ctx.leg or result.status is ParseStatus.FAILED:
        return False
    sides: dict[str, set[int]] = {}
    for status in _structure_statuses(text, ctx):
        if status.label is not None and status.structured and not status.weak and status.sign:
            sides.setdefault(status.label, set()).add(status.sign)
    for label, sign in _option_blocks(text, ctx):
        sides.setdefault(label, set()).add(sign)
    return any(sides.get(label) == {-ctx.leg} for label in result.labels)


# A line that opens a block on one option ("2. **Option B: The method ...**", "(C) 290:")
# and, in its block, the block's verdict on "this option" ("- This option is incorrect
# because ...")
_BLOCK_HEAD = _Pattern(
    r"^[^\S\n]*+(?:\d{1,2}[.)][^\S\n]*)?[*_#]*[^\S\n]*(?:option|choice)[^\S\n]+\(?(?P<l>[A-Za-z])\b",
    re.IGNORECASE | re.MULTILINE,
)
_THIS_IS = _Pattern(
    r"(?<![\w-])(?:this|the)[^\S\n]+(?:option|choice|answer|statement)[^\S\n]+(?:is|seems)"
    r"[^\S\n]+(?P<not>not[^\S\n]+)?(?:an?[^\S\n]+)?(?P<w>[A-Za-z]+)",
    re.IGNORECASE,
)


def _option_blocks(text: str, ctx: _Context) -> list[tuple[str, int]]:
    """The verdicts of blocks on one option each: a line naming "Option B" opens the
    block, and "This option is incorrect" in it (before the next such line) is B's side.
    A block with verdicts of both sides gives none."""
    heads = [
        (match.start(), label)
        for match in _BLOCK_HEAD.finditer(text)
        if (label := ctx.keys.get(match.group("l").upper())) is not None
    ]
    out: list[tuple[str, int]] = []
    for k, (at, label) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(text)
        signs = {
            ctx.vocab.sign(found.group("w"), negated=bool(found.group("not")))
            for found in _THIS_IS.finditer(text, at, end)
        } - {0}
        if len(signs) == 1:
            out.append((label, signs.pop()))
    return out


# What may follow a list of labels on its line and take it back: a question ("B, D? No
# ..."), a retraction ("or rather", "just kidding"), the listed ones referred to back in a
# negation ("none of those are", "not all of those", "these are not") or given a side
# ("these are the wrong ones"), or a side negated ("not the incorrect options").
_RETRACT = _Pattern(
    r"(?<![\w-])(?:or[^\S\n]+rather|just[^\S\n]+kidding|scratch[^\S\n]+that|i[^\S\n]+cannot"
    r"[^\S\n]+tell|not[^\S\n]+sure|i[^\S\n]+(?:am|'m)[^\S\n]+unsure)(?![\w-])",
    re.IGNORECASE,
)
_BACK_NEGATED = _Pattern(
    r"(?<![\w-])(?P<q>not|none|some|no|never|neither)(?:[^\S\n]+all)?[^\S\n]+(?:of[^\S\n]+)?"
    r"(?:those|these|them)(?![\w-])"
    r"|(?<![\w-])(?:those|these|they)[^\S\n]+(?:are|were)[^\S\n]+(?:not|never)(?![\w-])",
    re.IGNORECASE,
)
_SENTENCE_WORD = _Pattern(r"[A-Za-z-]+|[.!?;]")


def _negated_back(text: str, at: int, end: int, ctx: _Context) -> bool:
    """Whether a negation that refers back to the listed labels ("none of those are the
    correct options", "not all of those are the incorrect options", "these are not
    correct") puts them off the leg's side: the first polarity word after it, in its
    sentence, negated, is the other leg's; "some of those" says not which."""
    for found in _BACK_NEGATED.finditer(text, at, end):
        if (found.group("q") or "").lower() == "some":
            return True
        for word in _SENTENCE_WORD.finditer(text, found.end(), end):
            if word.group() in ".!?;":
                break
            sign = ctx.vocab.sign(word.group())
            if sign:
                if -sign == -ctx.leg:
                    return True
                break
    return False


_BACK_SIDE = _Pattern(
    r"(?<![\w-])(?:those|these|they)[^\S\n]+(?:are|were)[^\S\n]+(?:the[^\S\n]+|all[^\S\n]+)?"
    r"(?P<w>[A-Za-z-]+)",
    re.IGNORECASE,
)
_SIDE_NEGATED = _Pattern(
    r"(?<![\w-])not[^\S\n]+(?:the[^\S\n]+|an?[^\S\n]+)?(?P<w>[A-Za-z-]+)[^\S\n]+(?:options?|ones?"
    r"|answers?|choices?)(?![\w-])",
    re.IGNORECASE,
)


def _undone_after(text: str, result: ParseResult, ctx: _Context) -> ParseResult | None:
    """The reading when what follows its labels on their line takes them back: failed
    for a question right after them, a retraction, a negation that refers back to them,
    a side given to them that is not the leg's, or a side negated; weak for a question
    later on the line; None (the reading stands) otherwise. Choice legs only."""
    if ctx.task != "choice" or not ctx.leg or result.status is not ParseStatus.OK:
        return None
    if not result.labels or result.span is None:
        return None
    end = text.find("\n", result.span[1])
    end = len(text) if end < 0 else end
    at = result.span[1]
    tail = text[at:end]
    if not tail.strip(" \t.!*_`)"):
        return None
    if tail.lstrip(" \t*_`)").startswith("?"):
        return _FAILED  # "Reject: B, D? No — keep them all."
    if _RETRACT.search(text, at, end) or _negated_back(text, at, end, ctx):
        return _FAILED  # "Keep: A, C — or rather, ...", "B, D — none of those are ..."
    for side in _BACK_SIDE.finditer(text, at, end):
        if ctx.vocab.sign(side.group("w")) == -ctx.leg:
            return _FAILED  # "Keep: B, D (these are the wrong ones)."
    if _SIDE_NEGATED.search(text, at, end) is not None:
        return _FAILED  # "A, C — not the incorrect options."
    if "?" in tail:
        return replace(result, weak=True)  # "A and C — are those ...? I cannot tell."
    return None


# A concluding disjunction of labels, the reply's last sentence: "So the answer is (A) or (B)."
_EITHER = _Pattern(
    r"\b(?:answer|option|choice)[^\S\n]+(?:is|would[^\S\n]+be|could[^\S\n]+be)[^\S\n]+"
    r"(?:either[^\S\n]+)?(?P<run>[^.!?\n]{1,60}?\bor\b[^.!?\n]{1,20}?)[^\S\n]*[.!]?[^\S\n]*$",
    re.IGNORECASE,
)


def _either(text: str, ctx: _Context) -> ParseResult:
    """Labels joined by "or" as the reply's last sentence ("So the answer is (A) or
    (B).", after calling both right): no single answer, and no guess between them; the
    reply leaves each standing, so both are read, weak. Choice legs only."""
    stripped = text.rstrip()
    found = _EITHER.search(stripped, max(0, len(stripped) - 200))
    if found is None or ctx.task != "choice" or not ctx.leg:
        return _FAILED
    run = _labels_only(stripped, *found.span("run"), ctx.keys)
    if run is None or not run.void or not _each_upheld(stripped, found.start(), run.labels, ctx):
        return _FAILED
    return ParseResult(
        _ordered(run.labels, ctx.labels),
        ParseStatus.OK,
        ParseMethod.LABEL_FORMS,
        span=run.span,
        weak=True,
    )


_WORDS = _Pattern(r"[A-Za-z][A-Za-z'’]*")
# a label as the sentence writes it: "(B)", "B)", "option B"
_UPHELD_LABEL = _Pattern(
    r"(?<![\w])\(?([A-Z][A-Z0-9]{0,3})\)(?![\w])|\b(?:option|choice)\s+([A-Z])\b"
)
_SENTENCE = _Pattern(r"[^.!?\n]+(?:[.!?](?=\s|$)|\n|$)")
_UPHELD_SPAN = 1500
_DENIALS = frozenset({"not", "no", "never", "neither", "nor", "isn't", "aren't", "doesn't"})


def _each_upheld(text: str, at: int, labels: frozenset[str], ctx: _Context) -> bool:
    """Whether the reply, before ``at``, said each of ``labels`` is on the leg's side:
    in a sentence of its own that names it with a word of the leg's side ("(B) has the
    correct ordering."), or in one sentence that names them all and no other ("the only
    humorous edits are (A) and (C)."), with no denial in it."""
    upheld: set[str] = set()
    for sentence in _SENTENCE.finditer(text, max(0, at - _UPHELD_SPAN), at):
        words = [word.lower() for word in _WORDS.compiled.findall(sentence.group())]
        if _DENIALS.intersection(words):
            continue
        tokens = (m.group(1) or m.group(2) for m in _UPHELD_LABEL.finditer(sentence.group()))
        named = {ctx.keys[token] for token in tokens if token in ctx.keys}
        if named == labels or (
            len(named) == 1 and any(ctx.vocab.sign(word) == ctx.leg for word in words)
        ):
            upheld |= named & labels
    return upheld == labels


def _parse(text: str, ctx: _Context) -> ParseResult:
    """The leg's reading from the first place that holds an answer, every candidate its
    concluding part mentions accounted for (:func:`_accounted`)."""
    result = _place(text, ctx)
    # "A and C are metals; the other two are not."
    complement = read_complement(text, ctx) if result.status is not ParseStatus.OK else None
    if complement is not None:
        result = complement
    elif result.status is ParseStatus.FAILED and not result.disagreement:
        result = _either(text, ctx)  # "So the answer is (A) or (B).": both, weak
    if (
        _answers_the_predicate(text, result, ctx)
        or answers_the_question(text, result, ctx)
        or concluded_otherwise(text, result, ctx)
        or questions_the_leg(text, result, ctx)
    ):
        return _FAILED  # the direct question's answer, concluded on the reverse leg
    undone = _undone_after(text, result, ctx)
    if undone is not None:
        return undone  # "Keep: B, D (these are the wrong ones).", "A, C — not the ... options."
    result = _account(text, result, ctx)
    if result.method is ParseMethod.FINAL_LINE:
        result = _against_reasoning(text, result, ctx)
    result = against_own_sides(text, result, ctx)  # "Paris: capital. ...\n\nAnswer: B, D"
    if _touches_the_other_side(text, result, ctx):
        result = replace(result, weak=True)  # "Sharks are not mammals.\nAnswer: A, B, C"
    if says_no_side(text, result, ctx) or bare_none(text, result, ctx):
        return replace(result, weak=True)  # "The answer is B." with no reverse word
    return result


def _against_reasoning(text: str, result: ParseResult, ctx: _Context) -> ParseResult:
    """A choice's answer line against the sides its reasoning gave candidates before it
    (statuses in the template's words, the question's predicate, headings, whole-answer
    claims; the last side of each standing, what a retraction took back not said): when
    every candidate given a side is placed otherwise by the answer ("Shark is a fish, so
    wrong. Penguin is a bird, wrong.\n\nAnswer: A, C" on the reverse leg; "So 56 is
    accurate.\n\nAnswer: B" on the reverse leg), and it names only such candidates, the leg
    fails; else, when some are placed otherwise, the reading is weak."""
    if (
        ctx.task != "choice"
        or not ctx.leg
        or result.status is ParseStatus.FAILED
        or result.span is None
    ):
        return result
    start = _part_start(text, result.span[0])
    # not what a revision after it took back ("... A and C. Wait, I mixed it up. ..."); a
    # "hmm" revises nothing
    lo = Revisions(text).stands_from(0, start)
    sides = _sides(text[lo:start], 0, ctx)
    if not sides:
        return result
    named = frozenset(result.labels)
    against = [label for label, sign in sides if (sign == ctx.leg) != (label in named)]
    if not against:
        return result
    if len(against) == len(sides) and named <= set(against):
        return _FAILED  # it names only, and places every one, otherwise than the reasoning
    return replace(result, weak=True)


_MAX_LINES = 8


def _lines_disagree(
    text: str, places: Sequence[tuple[int, int]], contract: AnswerContract, ctx: _Context
) -> bool:
    """Whether the declared answer line is written more than once, with labels that
    differ and no revision between them ("Answer: B" ... "Answer: C"): two concluding
    statements that disagree, and neither says it replaces the other. A line that
    repeats the other's labels, or follows "wait", "correction:", "actually", stands."""
    if not ctx.leg or ctx.pair or len(places) < 2 or contract.format.kind != "line":
        return False
    ordered = sorted(places)[-_MAX_LINES:]
    readings = []
    for _, end in ordered:
        said = read_last(text[:end], contract, ctx)
        readings.append(None if said is None else (said.labels, said.inverted))
    for i in range(1, len(ordered)):
        before, after = readings[i - 1], readings[i]
        if before is None or after is None or before == after:
            continue
        if not Revisions(text).between(ordered[i - 1][1], ordered[i][0]):
            return True
    return False


def _answers_the_predicate(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether the answer read ("Answer: B", "The answer is A, C") names only candidates
    the reply itself said, before it, have the question's predicate (on the reverse leg:
    "The Red Planet is Mars." on "Which planet is known as the Red Planet?", "Whales and
    bats are mammals." on "Which animals are mammals?"), or have not (on the direct leg:
    "Sharks and penguins are not mammals.", "The Red Planet is not Venus."): the reply
    answers the other leg's question in words of its own, with no status word to tell."""
    if (
        not ctx.leg
        or not ctx.vocab.predicate
        or result.status is not ParseStatus.OK
        or not result.labels
        or result.span is None
    ):
        return False
    affirmed, denied = _predicated(text[: result.span[0]], ctx)
    said = affirmed if ctx.leg == -1 else denied
    if bool(said) and set(result.labels) <= said:
        return True
    if _against_the_predicate(set(result.labels), affirmed, denied, ctx):
        return True
    if _glossed(text, result.span[1], ctx) == -ctx.leg:
        return True  # "Answer: A, C (the capitals)." on the reverse leg
    return _explained_otherwise(text[result.span[1] :], set(result.labels), ctx)


# A gloss in brackets right after an answer, on its line: "A, C (the capitals).", "(both
# not prime)"; its words after a lead that says the labels are what follows
_GLOSS = _Pattern(
    r"[^\S\n]*[*_`]*[^\S\n]*[(\[][^\S\n]*(?:(?:i\.?e\.?,?|that\s+is,?|both|all|each|the|these"
    r"|they|which|those)[^\S\n]+)*(?:(?:are|is|being)[^\S\n]+)?(?:(?P<n>not[^\S\n]+|non-?)"
    r"(?:the[^\S\n]+)?)?(?P<g>[^()\[\]\n]{1,60}?)[^\S\n]*[)\]]",
    re.IGNORECASE,
)


def _glossed(text: str, end: int, ctx: _Context) -> int:
    """The side a gloss right after an answer ending at ``end`` gives its labels in the
    question's own predicate: 1 "(the capitals)", -1 "(not capitals)", "(non-metals)";
    0 for any other gloss ("(Paris and Rome)", "(the others are not)")."""
    found = _GLOSS.match(text, end)
    if found is None or not ctx.vocab.predicate:
        return 0
    lo, hi = found.span("g")
    if ctx.vocab.predicate_end(text, lo, hi) != hi:
        return 0
    return -1 if found.group("n") else 1


def _explained_otherwise(after: str, labels: set[str], ctx: _Context) -> bool:
    """Whether an answer given first is explained, after it, as the other leg's: the
    explanation says, in the question's own words, that every candidate the answer names
    is on the other side and none is on the answer's ("**Answer:** (A) and (C)\n\n28 and
    64 are divisible by 4." on the reverse leg). A later revision or answer is read by
    the stages, not here, so an explanation holding one says nothing."""
    if not after.strip() or Revisions(after).between(0, len(after)) or _LATER_ANSWER.search(after):
        return False
    affirmed, denied = _predicated(after, ctx)
    other, own = (denied, affirmed) if ctx.leg == 1 else (affirmed, denied)
    return bool(labels) and labels <= other and not labels & own


# An answer after the explanation: "Answer: B", "the incorrect ones are ...", "so the
# answer is ..."
_LATER_ANSWER = _Pattern(
    r"\b(?:answer|options?|choices?|ones?)\b[^.\n]{0,40}?(?::|\b(?:is|are)\b)", re.IGNORECASE
)


def _touches_the_other_side(text: str, result: ParseResult, ctx: _Context) -> bool:
    """Whether the answer read names a candidate the reply said before it, in the
    question's own words, is on the other side ("Sharks are not mammals.\nAnswer: A, B,
    C" on the direct leg, "Bat is a mammal. ...\n\nAnswer: A, C" on the reverse leg): the
    reasoning or the answer is wrong, and the reading says so (weak)."""
    if (
        not ctx.leg
        or not ctx.vocab.predicate
        or result.status is not ParseStatus.OK
        or not result.labels
        or result.span is None
    ):
        return False
    affirmed, denied = _predicated(text[: result.span[0]], ctx)
    if affirmed & denied:
        return False
    other = denied if ctx.leg == 1 else affirmed
    return bool(set(result.labels) & other)


def _against_the_predicate(
    labels: set[str], affirmed: frozenset[str], denied: frozenset[str], ctx: _Context
) -> bool:
    """Whether an answer contradicts what the reply said before it in the question's
    own words: it names none of the candidates said to be on its side ("The gas giants
    in the list are Jupiter and Saturn.\n\nAnswer: A, D" on the direct leg). Either the
    reasoning or the answer is wrong: no verdict. (An answer that names some of them and
    one said to be on the other side is read, as before: "Sharks are not mammals.\nAnswer:
    A, B, C".)"""
    if affirmed & denied:
        return False  # the reasoning disagrees with itself: the resolver's business
    own = affirmed if ctx.leg == 1 else denied
    return bool(own) and not labels & own


# A sentence (or a clause before a result: "Whales are mammals, so ...") that says
# candidates have the predicate: "X and Y are (a|the) PRED" or "(The) PRED is X"; or have
# it not: "X and Y are not PRED", "X isn't a PRED", "Neither X nor Y is a PRED", "X are
# fish, not PRED", "(The) PRED is not X", "(The) PRED does not include X".
_SEGMENT_END = _Pattern(
    # "so" after spaces on its line, from the run's start: from inside a run of blanked
    # copies, and across its lines, a scan would be quadratic
    r"([.!?])(?=\s|$)|\n|;|,?(?<![^\S\n])[^\S\n]+(?:so|therefore|thus|hence)\b"
    r"|,\s+(?:which|making)\b",
    re.IGNORECASE,
)
# A contrast inside a sentence: "Whales are mammals, but sharks are not."
_CLAUSE_END = _Pattern(r",?\s+(?:but|while|whereas)\s+|,\s+and\s+", re.IGNORECASE)
_NEGATIVE_WORD = _Pattern(
    r"(?<![\w-])(?:not|no|never|neither|nor|none|isn[’']t|aren[’']t|if|whether|unless|maybe"
    r"|perhaps|might|except)(?![\w-])",
    re.IGNORECASE,
)
_NAMING = r"(?:(?:known|referred\s+to|called|considered|classified|regarded|described)\s+"
_NAMING += r"(?:as\s+)?)?"
_COPULA = r"\s+(?:is|are)\s+(?:(?:both|all|also|indeed|clearly)\s+)?" + _NAMING
_NOT_COPULA = (
    r"\s+(?:(?:is|are)\s+(?:(?:also|clearly|certainly|definitely)\s+)?not|isn[’']t|aren[’']t)"
    r"\s+(?:(?:actually|truly)\s+)?" + _NAMING
)
_ARTICLE = r"(?:(?:an?|the)\s+)?"
_AMONG = (
    r"(?:\s+(?:here|listed|(?:in|on|from)\s+(?:the|this|that)\s+list|among\s+(?:them|these"
    r"|those|the\s+(?:options|choices))|of\s+(?:these|those|the\s+(?:options|choices))))?"
)
# "Sharks are not.", "whales and bats are": a clause that says it of its subject after a
# clause that said it of others ("Whales are mammals, but sharks are not.")
_ELLIPTIC = _Pattern(
    r"^\s*(?P<s>[^,;:]{1,200}?)\s+(?:(?P<n>(?:is|are)\s+not|isn[’']t|aren[’']t)|is|are)\s*[.!]?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Statements:
    """The sentences that say a candidate has the question's predicate (``affirm``) or has
    it not (``deny``), for one predicate; ``neither``: "Neither X nor Y is a PRED"."""

    affirm: tuple[re.Pattern[str], ...]
    deny: tuple[re.Pattern[str], ...]
    neither: re.Pattern[str]


@functools.lru_cache(maxsize=64)
def _statements(words: tuple[str, ...]) -> _Statements:
    """The statement patterns of the predicate ``words`` (its last word in the singular
    and the plural: "mammal", "mammals")."""
    pred = predicate_source(words)
    end = r"\s*[.!]?\s*$"
    # where the candidates stand: "The gas giants in the list are ...", "the metals here"
    among = pred + _AMONG

    def compiled(pattern: str) -> re.Pattern[str]:
        return re.compile(pattern, re.IGNORECASE)

    return _Statements(
        affirm=(
            compiled(rf"^\s*(?P<s>[^,;:]{{1,200}}?){_COPULA}{_ARTICLE}{among}{end}"),
            # "11: prime.", "Robin - bird": a listing's line, the predicate after a colon
            compiled(rf"^\s*(?P<s>[^,;:]{{1,200}}?)\s*(?::|\s[-–—])\s*{_ARTICLE}{pred}{end}"),
            compiled(rf"^\s*{_ARTICLE}{among}{_COPULA}(?P<s>.{{1,200}}?){end}"),
        ),
        deny=(
            compiled(rf"^\s*(?P<s>[^;:]{{1,200}}?){_NOT_COPULA}{_ARTICLE}{pred}{end}"),
            compiled(
                rf"^\s*(?P<s>[^,;:]{{1,200}}?)\s+(?:is|are)\s+(?:an?\s+)?[a-z][a-z -]{{0,40}}?,?"
                rf"\s+(?:and\s+)?not\s+{_ARTICLE}{pred}{end}"
            ),
            compiled(
                rf"^\s*(?P<s>[^;:]{{1,200}}?)\s+(?:do|does)(?:\s+not|n[’']t)\s+(?:count|qualify)"
                rf"\s+as\s+{_ARTICLE}{pred}{end}"
            ),
            compiled(rf"^\s*{_ARTICLE}{pred}{_NOT_COPULA}(?P<s>.{{1,200}}?){end}"),
            compiled(rf"^\s*(?P<s>[^,;:]{{1,200}}?)\s*(?::|\s[-–—])\s*not\s+{_ARTICLE}{pred}{end}"),
            compiled(
                rf"^\s*{_ARTICLE}{pred}\s+(?:do|does)(?:\s+not|n[’']t)\s+include\s+"
                rf"(?P<s>.{{1,200}}?){end}"
            ),
        ),
        neither=compiled(
            rf"^\s*neither\s+(?P<s>[^,;:]{{1,100}}?)\s+nor\s+(?P<t>[^,;:]{{1,100}}?)"
            rf"{_COPULA}{_ARTICLE}{pred}{end}"
        ),
    )


def _predicated(text: str, ctx: _Context) -> tuple[frozenset[str], frozenset[str]]:
    """The candidates ``text`` says, in a plain sentence, have the question's predicate,
    and those it says have it not (:func:`_answers_the_predicate`). A condition or a doubt
    in the sentence says nothing, nor does a question; a clause that leaves the
    predicate out ("..., but sharks are not") says it of its subject only right after a
    clause that said it."""
    said = _statements(ctx.vocab.predicate)
    text = without_asides(text, ctx)  # "Nitrogen (group 15) and chlorine (...) are not ..."
    affirmed: set[str] = set()
    denied: set[str] = set()
    start = 0
    before = 0  # the previous clause's statement: 1 said, -1 said not, 0 none
    previous = ""  # the previous sentence, which a pronoun may refer to
    for match in [*_SEGMENT_END.finditer(text), None]:
        end = len(text) if match is None else match.start()
        segment = text[start:end].strip(" \t*_`>-#")
        start = len(text) if match is None else match.end()
        if not segment:
            continue
        if match is not None and match.group(1) == "?":
            before = 0  # a question says nothing
            continue
        for clause in _CLAUSE_END.compiled.split(segment):
            whole = whole_set(clause.strip(" \t*_`>-#"), ctx.vocab.predicate, ctx.vocab.noun)
            if whole is not None and not _some_named(whole.refers_to or previous, ctx):
                # "All of them are divisible by 3.": every candidate; not "7 and 11: they
                # are all prime", nor "They are all prime." after a sentence naming some
                (affirmed if whole.sign > 0 else denied).update(ctx.labels)
                before = whole.sign
                continue
            named, sign = _statement(clause, said, before, ctx)
            (affirmed if sign > 0 else denied).update(named)
            before = sign if named else 0
        previous = segment
    return frozenset(affirmed), frozenset(denied)


_LABEL_TOKEN = _Pattern(r"(?<![\w-])[A-Z](?![\w-])")


def _some_named(text: str, ctx: _Context) -> bool:
    """Whether ``text`` names some of the candidates but not all, by label or text."""
    if not text:
        return False
    found = ctx.texts.inside(text) | {
        label for token in _LABEL_TOKEN.finditer(text) if (label := ctx.keys.get(token.group()))
    }
    return bool(found) and found != set(ctx.labels)


def _statement(clause: str, said: _Statements, before: int, ctx: _Context) -> tuple[set[str], int]:
    """The candidates one clause says have the predicate (1) or have it not (-1); none
    when it says neither in so many words."""
    clause = clause.strip(" \t*_`>-#")
    if not _NEGATIVE_WORD.search(clause):
        for pattern in said.affirm:
            if (found := pattern.match(clause)) is not None:
                return _named(found.group("s"), ctx), 1
    for pattern in said.deny:
        found = pattern.match(clause)
        if found is not None and not _NEGATIVE_WORD.search(found.group("s")):
            return _named(found.group("s"), ctx), -1
    found = said.neither.match(clause)
    if found is not None and not _NEGATIVE_WORD.search(found.group("s") + " " + found.group("t")):
        first, second = _named(found.group("s"), ctx), _named(found.group("t"), ctx)
        return (first | second if first and second else set()), -1
    found = _ELLIPTIC.match(clause) if before else None
    if found is not None and not _NEGATIVE_WORD.search(found.group("s")):
        return _named(found.group("s"), ctx), -1 if found.group("n") else 1
    return set(), 0


# "None of the given ratios form a proportion with 6/9.": the question's options, none of
# them, in a last sentence of its own with no polarity word, exception or condition
_NONE_OF = re.compile(
    r"(?:(?:so|therefore|thus|hence|in\s+conclusion|consequently)\s*,?\s+)?none\s+of\s+the"
    r"\s+(?:(?:given|listed|provided|above|available|offered)\s+)?(?P<n>[a-z]{3,30})\s+"
    r"(?P<rest>[^.!?\n]{3,160})[.!]?",
    re.IGNORECASE,
)
_NOT_PLAIN = _Pattern(
    r"(?<![\w-])(?:except|but|other|besides|only|if|unless|maybe|perhaps|might|seem\w*"
    r"|appear\w*|not|no|never)(?![\w-])",
    re.IGNORECASE,
)


def _none_of_them(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """On the direct leg, the reply's last sentence says that none of the question's
    options (by the question's own noun: "None of the given ratios form a proportion
    with 6/9." on "Which ratio can form a proportion with 6 over 9?") has what it asks:
    the direct question's none. None elsewhere, or with a polarity word in it."""
    noun = ctx.vocab.noun
    if ctx.leg != 1 or ctx.task != "choice" or not noun:
        return None
    stripped = text[lo:hi].rstrip(" \t*_`")
    start = max(stripped.rfind(mark) for mark in (". ", "! ", "? ", "\n")) + 1
    start += len(stripped) - start - len(stripped[start:].lstrip(" \t*_`"))
    said = _NONE_OF.fullmatch(stripped, start)
    if said is None:
        return None
    named = said.group("n").lower()
    if named not in {noun, noun + "s", noun + "es", "options", "choices"}:
        return None
    rest = said.group("rest")
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", rest)}
    if _NOT_PLAIN.search(rest) or words & (ctx.vocab.positive | ctx.vocab.negative):
        return None
    return _Reading(frozenset(), (lo + start, lo + len(stripped)))


def _account(text: str, result: ParseResult, ctx: _Context) -> ParseResult:
    """``result`` read from ``text``, with the mentions of its concluding part (from the
    sentence or line where its answer stands) and their sides gathered for the resolver
    (:func:`_accounted`)."""
    if ctx.pair or not ctx.leg or result.status is ParseStatus.FAILED:
        return result
    lo = _part_start(text, result.span[0] if result.span else 0)
    if _whole_side_differs(text, lo, result, ctx):
        return _FAILED  # "... the correct answer is A) Paris.\n\nFinal answer: A, C"
    mentions = _mentions(text, lo, result.span, ctx)
    if not mentions:
        return result  # the answer is all the concluding part names
    added = _added_after(text, result, ctx)
    if added:  # "The incorrect options are A and C. D is also incorrect.": A, C and D
        result = replace(result, labels=_ordered(set(result.labels) | added, ctx.labels))
    if result.span is not None:
        # a candidate the answer names, named again on its own line ("(B) Yes, because
        # ...", "C (Rome)"): the answer restated, its side the answer's (a side stated
        # of it still counts: "The answer is A, C. Note: C is wrong.")
        end = text.find("\n", result.span[1])
        end = len(text) if end < 0 else end
        mentions = [
            (label, at) for label, at in mentions if at >= end or label not in result.labels
        ]
    sides = _sides(text, lo, ctx)
    if result.span is not None and (excluded := _excluded(text, result.span[1], ctx)):
        # "The answer is A and C, not B or D": the other side, said with the answer
        sides = [*sides, *((label, -ctx.leg) for label in excluded.labels)]
    if ctx.leg == 1 and result.span is not None:
        # "third (not 2nd, not 4th)"; on the reverse leg it may reject the direct answer's
        # other values, said of the item's own question: a mention unexplained
        sides.extend((label, -1) for label in rejected_after(text, result.span[1], ctx))
    return _accounted(result, mentions, sides, ctx)


def _added_after(text: str, result: ParseResult, ctx: _Context) -> frozenset[str]:
    """The candidates a choice reply adds to its answer after it: those whose last
    statement there is of the leg's side and says it adds ("D is also incorrect.", "C is
    correct too."), not hedged, weak or asked ("B is also correct? No."), and not taken
    back by a later one ("D is also correct. No, wait: D is not correct."); a whole claim
    after the answer is a conclusion of its own, not an addition."""
    if ctx.task != "choice" or result.span is None or not result.labels:
        return frozenset()
    revisions = Revisions(text)
    named = set(result.labels)
    last: dict[str, bool] = {}  # each candidate's last statement: an addition or not
    for item in _said(text, result.span[1], ctx):
        adds = (
            not item.whole
            and not item.weak
            and item.sign == ctx.leg
            and not _asked(text, item.span)
            and revisions.adds(item.span)
        )
        for label in item.labels:
            last[label] = adds
    return frozenset(label for label, adds in last.items() if adds and label not in named)


_SENTENCE_STOP = _Pattern(r"[.!?\n]")


def _asked(text: str, span: tuple[int, int] | None) -> bool:
    """Whether the sentence holding ``span`` is a question (it ends on "?")."""
    if span is None:
        return False
    stop = _SENTENCE_STOP.search(text, span[1])
    return stop is not None and stop.group() == "?"


# A line that is only a heading of the answer: "## Answer", "**Final answer**", "Answer:"
_HEADING_ONLY = _Pattern(
    r"(?:^|\n)[^\S\n]*(?:#{1,6}[^\S\n]*)?[*_]*[^\S\n]*(?:the[^\S\n]+)?(?:final[^\S\n]+)?"
    r"answers?[^\S\n]*[*_]*[^\S\n]*:?[^\S\n]*[*_]*\Z",
    re.IGNORECASE,
)


def _whole_side_differs(text: str, lo: int, result: ParseResult, ctx: _Context) -> bool:
    """Whether the concluding part (from ``lo``), before the answer and with no revision
    between, claims a whole side in so many words that the answer does not hold: "...
    the correct answer is A) Paris.\n\nFinal answer: A, C", "Therefore the incorrect
    options are B and D.\nFinal answer: B, D, E" (the declared "Answer:" line fails the
    same way, :func:`_with_declared`)."""
    if result.span is None:
        return False
    named = frozenset(result.labels)
    revisions = Revisions(text)
    line = text.rfind("\n", 0, result.span[0]) + 1
    above = text[:line].rstrip()
    if _HEADING_ONLY.search(above):
        # the answer under a heading of its own ("## Answer\nA, C"): the line above it too
        before = text[: text.rfind("\n", 0, len(above)) + 1].rstrip()
        lo = min(lo, before.rfind("\n") + 1)
    for item in _said(text, lo, ctx):
        if not (item.whole and item.sign) or item.end > result.span[0]:
            continue
        if revisions.between(item.end, result.span[0], recheck=True):
            continue  # "The incorrect ones are D and E. ... Hmm, ... Final answer: A, B, D, E"
        if item.labels != (named if item.sign == ctx.leg else frozenset(ctx.labels) - named):
            return True
    return False


# A single capital letter that is a word of the sentence, not a label: "A capital city",
# "I think": followed by a lower-case word that is not what a label is followed by.
_MENTION = _Pattern(r"(?<![A-Za-z0-9°\\])(?P<l>[A-Za-z][A-Za-z0-9]{0,3})(?![A-Za-z0-9])")
_AFTER_WORD = _Pattern(r"[^\S\n]+(?P<w>[a-z][a-z']*)")
_LABEL_VERBS = frozenset(
    {
        "is", "are", "was", "were", "and", "or", "seems", "seem", "looks", "would", "should",
        "could", "can", "must", "might", "may", "has", "have", "had", "does", "did", "fails",
        "meets", "passes", "remains", "also", "too", "as", "but", "being", "isn't", "aren't",
        "gives", "matches", "not", "satisfies", "holds", "only", "alone", "wins", "to", "for",
        "because", "since", "with", "then", "so", "nor", "stays", "doesn't", "don't",
    }
)  # fmt: skip
_SHORT_TEXT = 3
_TEXT_MENTIONS = 32


def _part_start(text: str, at: int) -> int:
    """Where the concluding part starts: the line holding ``at``, or in a long line, its
    sentence ("D. A water molecule ..." is one line; "... Therefore, the answer is C.")."""
    line = text.rfind("\n", 0, at) + 1
    if at - line <= _SHORT_LINE:
        return _lead_in(text, line)
    return max(line, text.rfind(". ", line, at) + 2)


_SHORT_LINE = 120

# A line that only opens or closes a display (LaTeX's "\[", "$$", a code fence)
_DISPLAY = _Pattern(r"[^\S\n]*(?:\\\[|\\\]|\$\$|```[A-Za-z]*)?[^\S\n]*")
_LEAD_IN_LINES = 4


def _lead_in(text: str, line: int) -> int:
    """Where the concluding part of an answer whose line starts at ``line`` starts: the
    paragraph of its lead-in, when the line before it (blank lines and a display's
    brackets aside) introduces it ("The wrong options are A), B), D), and E). Therefore,
    the final answer is:"), else the line itself. What the lead-in states of candidates
    is part of the conclusion it introduces."""
    end = line - 1
    for _ in range(_LEAD_IN_LINES):
        if end <= 0:
            return line
        start = text.rfind("\n", 0, end) + 1
        if not _DISPLAY.fullmatch(text, start, end):
            if not text[start:end].rstrip(" \t*_`").endswith(":"):
                # the line's last sentence, when it states the answer in words ("...
                # Therefore, the correct answer is "D) Its distance from you".", "The
                # correct answer is: A"): a lead-in whose sides the answer must agree with
                stop = text.rfind(". ", start, end - 1)
                said = start if stop < 0 else stop + 2
                return said if _LEAD_IN.search(text, said, end) else line
            while start > 1 and text[start - 2] != "\n":  # back to the paragraph's start
                start = text.rfind("\n", 0, start - 1) + 1
            return start
        end = start - 1
    return line


def _mentions(
    text: str, lo: int, span: tuple[int, int] | None, ctx: _Context
) -> list[tuple[str, int]]:
    """The candidates ``text[lo:]`` names outside the answer read (``span``): labels
    written as labels (upper case, or a lower-case letter in a mark: "c)"), and
    candidates' texts of three characters or more (for up to ``_TEXT_MENTIONS``
    candidates: an item of thousands does not pay for indexing their texts)."""
    out: list[tuple[str, int]] = []
    inside = (lambda at: span[0] <= at < span[1]) if span else (lambda at: False)
    for match in _MENTION.finditer(text, lo):
        token = match.group("l")
        label = ctx.keys.get(token.upper())
        if label is None or inside(match.start()):
            continue
        marked = text[match.start() - 1 : match.start()] in ("(", "[") or text[
            match.end() : match.end() + 1
        ] in (")", "]")
        if not (token.isupper() or (len(token) == 1 and marked)):
            continue
        if len(token) == 1 and not marked:
            word = _AFTER_WORD.match(text, match.end())
            if word is not None and word.group("w") not in _LABEL_VERBS:
                continue  # "A capital city", "I think"
        out.append((label, match.start()))
    if len(ctx.labels) <= _TEXT_MENTIONS:  # many candidates: their texts are not indexed
        rest = text
        if span:
            rest = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
        # the answer's own line apart from what follows it: a text there may restate it
        # ("The answer is **(B) Yes, because ...**")
        end = text.find("\n", span[1]) if span else -1
        end = len(text) if end < 0 else end
        for start, stop in ((lo, end), (end, len(text))):
            for label in ctx.texts.inside(rest[start:stop]):
                if len(ctx.texts.norm_of(label) or "") >= _SHORT_TEXT:
                    out.append((label, start))
    return out


def _sides(text: str, lo: int, ctx: _Context) -> list[tuple[str, int]]:
    """The sides that statements in ``text[lo:]`` give candidates (:func:`_said`): the
    last side of each standing ("A is correct. On reflection, A is incorrect"), what a
    retraction ("Correction:", "wait, no") takes back said no more."""
    said = sorted(
        (item.at, label, item.sign)
        for item in _said(text, lo, ctx)
        if item.sign
        for label in item.labels
    )
    cut = Revisions(text).retracted_before(said)
    last: dict[str, int] = {}
    for at, label, sign in said:
        if at >= cut:
            last[label] = sign
    return list(last.items())


def _said(text: str, lo: int, ctx: _Context) -> list[Said]:
    """The statements in ``text[lo:]`` that give candidates a side (0: the leg's, "the
    answer is B"), in order: statuses
    ("B is incorrect", "C ✅", a table's row), whole-answer claims in a polarity's words
    ("the incorrect options are B and D"), headings ("Correct: A, C | Incorrect: B, D")
    and the question's predicate ("Sharks are not mammals.")."""
    claims = claims_of(text, ctx)
    said = [
        Said(status.at, (status.span or (status.at, status.at))[1], frozenset({status.label}),
             status.sign, status.span, weak=status.weak)
        for status in claims.statuses
        if status.label is not None and status.sign and status.at >= lo
    ]  # fmt: skip
    for claim in claims.whole:
        if claim.at >= lo and not claim.reading.inverted:  # sign 0: "the answer is B"
            said.append(
                Said(claim.at, claim.end, claim.reading.labels, claim.sign, claim.reading.span,
                     whole=True, weak=claim.reading.weak)
            )  # fmt: skip
    said.extend(  # "Correct: A, C | Incorrect: B, D"
        Said(at, at, frozenset({label}), sign) for at, label, sign in _heading_sides(text, ctx, lo)
    )
    if ctx.task == "choice" and ctx.vocab.predicate:  # "Sharks are not mammals."
        affirmed, denied = _predicated(text[lo:], ctx)
        if not affirmed & denied:
            said.extend(Said(lo, lo, frozenset({label}), 1) for label in sorted(affirmed))
            said.extend(Said(lo, lo, frozenset({label}), -1) for label in sorted(denied))
    said.sort(key=lambda item: (item.at, sorted(item.labels), item.sign))
    return said


def _every_side(statuses: Sequence[_Status], ctx: _Context) -> bool:
    """Whether the statuses give every candidate a side (their own, or "the rest ...")."""
    return any(status.label is None for status in statuses) or len(
        {status.label for status in statuses}
    ) == len(ctx.labels)


# A clause of its own: a sentence's end, a comma, a semicolon, a contrast or "and"
_CLAUSE_CUT = _Pattern(
    r"[.!?](?=\s|$)|[\n,;:]|(?<![\w-])(?:but|and|while|whereas|yet)(?![\w-])", re.IGNORECASE
)
# A possibility, not a side: "9 might be", "maybe 13", "D could be too"
_POSSIBLY = _Pattern(
    r"(?<![\w-])(?:might|may|could|maybe|perhaps|possibly|probably)(?![\w-])", re.IGNORECASE
)


def _doubted_others(text: str, statuses: Sequence[_Status], ctx: _Context) -> bool:
    """Whether a clause names, with only a possibility ("4 is not prime but 9 might be."),
    a candidate the statuses give no side: what that candidate is, is not told, so the
    statuses are no whole answer."""
    if ctx.task != "choice":
        return False
    sided = {status.label for status in statuses if status.label is not None}
    if any(status.label is None for status in statuses):
        return False  # "the rest are ...": every candidate has a side
    cuts = [0, *(found.end() for found in _CLAUSE_CUT.finditer(text)), len(text)]
    for lo, hi in itertools.pairwise(cuts):
        if _POSSIBLY.search(text, lo, hi) is None:
            continue
        clause = text[lo:hi]
        named = ctx.texts.inside(clause) | {
            label
            for token in _LABEL_TOKEN.finditer(clause)
            if (label := ctx.keys.get(token.group())) is not None
        }
        if named - sided:
            return True
    return False


def _partly_gone_through(statuses: Sequence[_Status], ctx: _Context) -> bool:
    """Whether the statuses go through the options one by one (some on each side) and
    stop before every candidate has a side, with no conclusion ("Option A is incorrect.
    Option B is correct." of five, a reply cut in its third option and closed by a note):
    what the others are is not said, so the leg's side is not told."""
    signs = {status.sign for status in statuses if status.label is not None}
    return ctx.task == "choice" and signs == {1, -1} and not _every_side(statuses, ctx)


# The reply's last sentence, a conclusion of labels alone: "..., so A and C.", "Therefore,
# B."
_SO_LABELS = _Pattern(
    r"(?:(?:(?<=[.!:;,\n])|(?<=^))[^\S\n]*(?:so|therefore|thus|hence)[^\S\n]*[,:]?[^\S\n]+"
    r"|[^\S\n]*(?:→|⇒|⟹|->|=>)[^\S\n]*)"  # "... are not noble gases → B & D"
    r"(?P<l>[^\n.!?;:]{1,60}?)[^\S\n]*[.!]?[^\S\n]*\Z",
    re.IGNORECASE,
)


# "..., so the incorrect ones are the rest.": the complement of what the reply just sided
_SO_REST = _Pattern(
    r"(?:(?<=[.!:;,\n])|(?<=^))[^\S\n]*(?:so|therefore|thus|hence)[^\S\n]*[,:]?[^\S\n]+"
    r"(?:the[^\S\n]+)?(?P<adj>[A-Za-z]+)[^\S\n]+(?:ones|options|answers|choices)[^\S\n]+are"
    r"[^\S\n]+(?:all[^\S\n]+)?the[^\S\n]+(?:rest|others|other[^\S\n]+ones|remaining"
    r"(?:[^\S\n]+(?:ones|options))?)[^\S\n]*[.!]?[^\S\n]*\Z",
    re.IGNORECASE,
)


# What may lead into a reply that is only labels: a softener (the reading is weak), or a
# first-person conclusion ("I think", "I'd say")
_PICK_LEAD = _Pattern(
    r"[^\S\n]*(?:(?P<soft>probably|likely|most\s+likely|arguably|presumably|i\s+guess"
    r"|i\s+suppose)|i\s+(?:would\s+|'d\s+|’d\s+)?(?:think|believe|say))[^\S\n]*[,:]?[^\S\n]+",
    re.IGNORECASE,
)


def _so_labels(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply whose last sentence concludes, after "so" or "therefore", on labels
    alone ("Whales and bats are mammals, so A and C."), read as its answer only when the
    reply said, before it, in the question's own predicate or in statuses ("Whale:
    mammal", "B ❌"), that exactly those candidates are on the leg's side, or that exactly
    the others are on the other side ("Whale: mammal. Bat: mammal. ... So B and D." on the
    reverse leg), and put none of them on the other side: "so A and C" itself says not
    which question it answers. Without a leg (the reading that tells a polarity-confused
    leg), the predicate's own side."""
    if ctx.task != "choice":
        return None
    found = _SO_LABELS.search(text[:hi], lo)
    rest = _SO_REST.search(text[:hi], lo) if ctx.leg else None
    if found is None and rest is None:
        return None
    listed = None
    if found is not None and rest is None:
        listed = _only_labels(text, found.start("l"), found.end("l"), ctx)
        if listed is None or not listed.labels or listed.void:
            return None
    elif rest is None or ctx.vocab.sign(rest.group("adj")) != ctx.leg:
        return None
    end = rest or found
    assert end is not None
    before = text[lo : end.start()].rstrip(" \t,;:")
    affirmed, denied = (
        _predicated(before, ctx) if ctx.vocab.predicate else (frozenset(), frozenset())
    )
    sides: dict[str, int] = {}
    for status in sorted(claims_of(before, ctx).statuses, key=lambda status: status.at):
        if status.label is not None and status.sign:
            sides[status.label] = status.sign
    if listed is None:  # the rest of what a heading sided too: "Correct: A, C. So the ..."
        for _, label, sign in _heading_sides(before, ctx, 0):
            sides[label] = sign
    affirmed |= {label for label, sign in sides.items() if sign > 0}
    denied |= {label for label, sign in sides.items() if sign < 0}
    if affirmed & denied:
        return None  # the reply put a candidate on both sides
    said, other = (denied, affirmed) if ctx.leg == -1 else (affirmed, denied)
    if listed is None:
        # "A and C are divisible by 4, so the incorrect ones are the rest": all but those
        # the reply put on the other side
        others = frozenset(ctx.labels) - other
        if not other or not others or not said <= others:
            return None
        return _Reading(others, end.span())
    if listed.labels & other:
        return None
    if said == listed.labels or (
        other and listed.labels == frozenset(ctx.labels) - other and said <= listed.labels
    ):
        return listed
    return None


def _drawn_on_its_side(
    text: str, lo: int, hi: int, ctx: _Context, *, weak: bool = False
) -> _Reading | None:
    """A last sentence that draws a conclusion on labels alone ("Hence, B.", "That leaves
    A, C and E."), read as the leg's answer only when the reasoning before it says so, as
    :func:`_so_labels` asks: exactly those candidates on the leg's side, or exactly the
    others on the other side, or a value it arrived at that is exactly their candidate's
    ("6 × 7 = 42. Hence, B."); and it concluded nothing else. After reasoning that names
    none of them and gives no candidate a side, read weak (``weak``: the last stage asks,
    when no other stage read the reply); after none ("So, A and C."),
    or after reasoning that names them in words no stage reads ("Sharks are fish, so B"),
    not read."""
    found = drawn(text, lo, hi, ctx)
    if found is None:
        return None
    listed, start = found
    before = text[lo:start]
    yes, no = _predicated(before, ctx) if ctx.vocab.predicate else (frozenset(), frozenset())
    affirmed, denied = set(yes), set(no)
    claims = claims_of(before, ctx)
    for status in claims.statuses:
        if status.label is not None and status.sign:
            (affirmed if status.sign > 0 else denied).add(status.label)
    if affirmed & denied or listed.labels & denied or claims.conflict:
        return None
    earlier = claims.conclusion()
    if earlier is not None and _result(earlier, ParseMethod.LABEL_FORMS, ctx).labels != (
        _result(listed, ParseMethod.LABEL_FORMS, ctx).labels
    ):
        return None
    value = arrived_at(text, lo, start, ctx)
    if (
        affirmed == listed.labels
        or (denied and listed.labels == frozenset(ctx.labels) - denied)
        or (not affirmed and value == listed.labels)
    ):
        return listed
    if not weak or affirmed or denied or value or not before.strip():
        return None
    if names_any(before, listed.labels, ctx):
        return None
    return replace(listed, weak=True)  # reasoning that names none of them: no side either way


_YES_NO = _Pattern(r"(?<![\w-])(?:yes|no)(?![\w-])", re.IGNORECASE)


def _yes_no_reverse(text: str, statuses: Sequence[_Status], ctx: _Context) -> bool:
    """Whether statuses on the reverse leg of a question with a predicate stand on lines
    that answer yes or no ("Whale - yes\nShark - no"): a yes is read as the leg's ("yes,
    it is incorrect"), but may answer the predicate ("yes, a mammal"), so the reading is
    weak."""
    if ctx.leg != -1 or not ctx.vocab.predicate:
        return False
    for status in statuses:
        start = text.rfind("\n", 0, status.at) + 1
        end = text.find("\n", status.at)
        end = len(text) if end < 0 else end
        if "|" not in text[start:end] and _YES_NO.search(text, start, end):
            return True  # not a table's row: its column's header says what yes answers
    return False


def _answer_first(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply that answers first and explains after: its first paragraph a line
    of labels or a label and its own text ("Options B and D.", "**B. Mars**", "B, D (the
    others ...)") before a blank line, or its first sentence two labels or more before a
    sentence's end or a dash ("A and C. B and D are not capitals.", "A and C — Sydney
    and Toronto are not."): that answer, unless what follows lists the options, revises
    ("wait", "actually") or concludes otherwise; weak when the reply is cut off."""
    if ctx.task != "choice":
        return None
    line_end = text.find("\n", lo, hi)
    following = _next_line(text, line_end) if line_end >= 0 else None
    reading: _Reading | None = None
    end = line_end
    if following is not None and following[0] < hi and "\n\n" in text[line_end : following[0]]:
        if _option_line(text, following, ctx):
            return None  # a listing of the options
        reading = (
            _only_labels(text, lo, end, ctx)
            or _but_not(text, lo, end, ctx)
            or _with_note(text, lo, end, ctx)
            or _own_line(text, lo, end, ctx)
        )
    if reading is None:
        stop = _FIRST_STOP.search(text, lo, line_end if line_end >= 0 else hi)
        if stop is None or not text[stop.end() : hi].strip():
            return None
        end = stop.start()
        reading = _only_labels(text, lo, end, ctx)
        if reading is not None and len(reading.labels) < 2:
            return None  # "A. Paris is ..." may be an option's line
    if reading is None or reading.void or reading.disagrees or not reading.labels:
        return None
    if Revisions(text).between(end, hi, recheck=True):
        return None
    if ctx.leg and _said_otherwise(text, end, hi, ctx):
        return None  # "A and C. Both are fruits." on the reverse leg
    # labels alone again at the end ("... So A and C.", a last line "A, C"): the reply
    # may have answered anew
    last = text.rfind("\n", 0, hi) + 1
    again = _only_labels(text, last, hi, ctx) if last > end else None
    if again is None and (so := _SO_LABELS.search(text[:hi], end)) is not None:
        again = _only_labels(text, so.start("l"), so.end("l"), ctx)
    if again is not None and again.value != reading.value:
        return None
    concluded = claims_of(text, ctx).conclusion()
    if concluded is not None and not concluded.weak and concluded.value != reading.value:
        return None  # the explanation concludes otherwise
    return replace(reading, weak=reading.weak or _cut_off(text[:hi]))


# Where a first sentence of labels ends: "A and C. ...", "A and C — ..."
_FIRST_STOP = _Pattern(r"[.!](?=[^\S\n])|[^\S\n]+[—–][^\S\n]+|[^\S\n]+-[^\S\n]+")


def _own_line(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as a label and its candidate's whole text, and nothing more ("**B.
    Mars**"): not a line that begins with the option and goes on ("A) A water molecule
    has two hydrogen atoms: its formula is ...", "A) ... B) ...")."""
    reading = _label_and_text(text, lo, hi, ctx)
    if reading is None or len(reading.labels) != 1:
        return None
    (label,) = reading.labels
    own = ctx.texts.norm_of(label) or ""
    if len(text[lo:hi].strip(" \t*_`.")) > len(own) + _MARK_CHARS:
        return None
    return reading


_MARK_CHARS = 6
"""How many characters a label's mark and markup may add to its text on a line of its own."""


def _picked_lines(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A reply that is only lines of a label and its own text ("C — Rome\nA — Paris"),
    read weakly as the candidates it picks; not a listing of the options (every one, or
    the first ones in their order: "A) Paris\nB) Sydney"), nor a line whose text is
    another candidate's."""
    if "\n" not in text[lo:hi]:
        return None
    picked: list[str] = []
    for start, end in _lines(text[:hi]):
        if end <= lo or not text[start:end].strip():
            continue
        one = _own_line(text, max(start, lo), end, ctx)
        if one is None or one.disagrees:
            return None
        picked.extend(one.labels)
    if len(set(picked)) != len(picked) or len(picked) >= len(ctx.labels):
        return None
    if picked == list(ctx.labels[: len(picked)]):
        return None  # the first options in their order: a listing (perhaps cut off)
    return _Reading(frozenset(picked), None, weak=True)


def _formal_disagree(text: str, formal: Sequence[tuple[int, _Reading, ParseMethod]]) -> bool:
    """Whether an answer written in a fixed form disagrees with one written before it
    (a tag, then a JSON object naming another label) with no revision ("wait",
    "correction:") between them: two answers, neither said to replace the other."""
    revisions = Revisions(text)
    for (before, first, _), (after, second, _) in pairwise(formal):
        if first.value != second.value and revisions.stands_from(before, after, hmm=True) == before:
            return True
    return False


# What a revision's text reads as that is a re-check, not a new answer: statuses ("Wait,
# is 196 really 14²? 14 × 14 = 196. Yes."), a candidate's text named
_RECHECKS = frozenset({ParseMethod.PER_CANDIDATE, ParseMethod.CANDIDATE_TEXT})


def _revision_concluded(
    text: str, reading: _Reading, ctx: _Context, method: ParseMethod
) -> ParseResult | None:
    """The answer written in a fixed form as what follows revises it: its candidates'
    statements after a revision, in order (:func:`_walked`: "Answer: A, C\n\nActually, C
    is wrong."; when they leave it as it was and what follows the revision concludes
    otherwise, that conclusion, weak), else a concluding claim after a revision
    ("Incorrect: B. Hmm, wait — Toronto isn't a capital either. So the incorrect ones are
    B and D."), else what the
    text after the revision reads as by itself ("Wait, 108 = 9 x 12, so C is divisible by
    9. Only D is incorrect.": D; not a re-check read from statuses); the answer, weak,
    when the revision names a candidate it holds and concludes nothing ("Wait, a frog is
    an amphibian."); None when there is none or it says the same (the answer stands as
    written)."""
    if reading.span is None:
        return None
    revisions = Revisions(text)
    walked = _walked(revisions, _View(text, {}, {}), reading.span[1], reading, ctx, method)
    stands = _result(reading, method, ctx)
    if walked is not None and (walked.status is ParseStatus.FAILED or walked != stands):
        return walked
    revision = revisions.first_after(reading.span[1])
    if revision is None:
        return walked
    concluded = claims_of(text, ctx).conclusion()
    if (
        walked is None
        and concluded is not None
        and not concluded.weak
        and concluded.span is not None
        and concluded.span[0] >= revision
    ):
        return _result(concluded, ParseMethod.LABEL_FORMS, ctx, empty=ParseMethod.NONE_WORD)
    if ctx.task != "choice" or not ctx.leg:
        return None
    # the revision's own text, read alone (offsets kept: what precedes it is blanked)
    after = _parse(" " * revision + text[revision:], ctx)
    if after.status is ParseStatus.FAILED or after.method in _RECHECKS:
        if walked is None and any(
            label in stands.labels for label, _ in _mentions(text, revision, None, ctx)
        ):
            return replace(stands, weak=True)  # "Wait, frogs are amphibians." and no answer
        return walked
    if after.labels == stands.labels:
        return walked
    # its statements leave the answer as it was, its conclusion does not ("Wait, ... so
    # C is divisible by 9. Only D is incorrect."): the conclusion, weak
    return replace(after, weak=True) if walked is not None else after


def _predicate_statuses(text: str, ctx: _Context) -> _Reading | None:
    """A choice reply that says, in plain sentences of the question's own predicate,
    which candidates have it and which have it not ("Peru and Chile are not in Africa;
    Kenya and Egypt are." on "Which of these countries are in Africa?"), with no other
    answer: the leg's side (those that have it on the direct leg, those that have it not
    on the reverse one), when it names some and no candidate is said to be on both;
    weak unless every candidate has a side."""
    if ctx.task != "choice" or not ctx.leg or not ctx.vocab.predicate:
        return None
    for match in _MENTION.finditer(text):
        token = match.group("l")
        if token.isupper() and token in ctx.keys:
            return None  # a label named ("..., so A."): a conclusion of its own, not these
    affirmed, denied = _predicated(text, ctx)
    said = affirmed if ctx.leg == 1 else denied
    if not said or affirmed & denied:
        return None
    every = len(affirmed | denied) == len(ctx.labels)
    return _Reading(said, None, weak=not every)


# What may lead into a last line of labels: a concluding word, a heading's or GSM8K's
# mark ("So again: A, C", "In short: A, C and E.", "#### C")
_LAST_LEAD = _Pattern(
    r"[^\S\n]*(?:(?:\#{1,6}|so|thus|therefore|hence|again|overall|finally|in\s+(?:short|sum"
    r"|summary|conclusion)|to\s+sum\s+up)(?![\w-])[^\S\n]*[,:]?[^\S\n]*)+",
    re.IGNORECASE,
)


# The reply's last clause, "only" and labels: "..., but strictly, only B and D."
_ONLY_LAST = _Pattern(
    r"(?:^|(?<=[,;:.!?\n]))[^\S\n]*(?:(?:so|thus|hence|therefore|then|and|but|strictly"
    r"|ultimately|finally|overall|in\s+the\s+end)(?![\w-])[^\S\n]*,?[^\S\n]*)*only[^\S\n]+"
    r"(?P<l>[^\n.!?;:,]{1,60}?(?:,[^\n.!?;:,]{1,60}?)*)[^\S\n]*[.!]?[^\S\n]*\Z",
    re.IGNORECASE,
)


def _only_last(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A choice reply whose last clause is "only" and labels alone ("..., but strictly,
    under the IAU definition, only B and D."): the answer to the leg's question, its
    concluding part accounted for (what it said before of other candidates)."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    start = max(text.rfind("\n", lo, hi) + 1, lo, hi - _ONLY_WINDOW)
    for at in range(hi - 1, start - 1, -1):  # from each clause start, last to first
        if at > start and text[at - 1] not in ",;:.!?":
            continue
        found = _ONLY_LAST.match(text, at, hi)
        if found is not None:
            listed = _labels_only(text, found.start("l"), found.end("l"), ctx.keys, upper=True)
            if listed is not None and listed.labels:
                return listed
    return None


_ONLY_WINDOW = 200


# An answer that opens the reply, then its explanation: "Both A and C. Dolphins ...",
# "A, C, D — Brontë, ...", "Two of them: A and C.", "**B** — ...", "All except B and E."
_OPENING_COUNT = _Pattern(
    r"[^\S\n]*(?:(?:just|only|exactly)[^\S\n]+)?(?P<n>one|two|three|four|five|six|seven"
    r"|eight|nine|ten|\d{1,2})(?:[^\S\n]+of[^\S\n]+(?:them|these|those|the[^\S\n]+\w+))?"
    r"(?:[^\S\n]+(?:options?|choices?|answers?))?[^\S\n]*:",
    re.IGNORECASE,
)
_COUNTS = {
    word: n
    for n, word in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 1
    )
}
# Where the opening answer ends: a sentence's end, a line's, a dash or a colon
_OPENING_END = _Pattern(
    r"[^\S\n]*(?:[.!](?=\s)|\n|[—–:](?=\s)|[^\S\n]-[^\S\n])"
    r"|,[^\S\n]+(?:because|since|as)(?![\w-])",
    re.IGNORECASE,
)
_OPENING_LINE = _Pattern(
    r"[^\S\n]*[(\[]?(?P<l>[A-Za-z][A-Za-z0-9]{0,3})[)\]]?[^\S\n]*(?:[—–:.)]|[^\S\n]-[^\S\n])"
)
# A pronoun's statement after the opening answer: "Both are fruits.", "They are wrong."
_PRONOUN_SIDE = _Pattern(
    r"(?<![\w-])(?:both(?:\s+of\s+them)?|they|these|those|all\s+(?:of\s+them|three|four|five)"
    r"|each(?:\s+of\s+them)?|the\s+(?:two|three|four)|them)" + _VERB_ADJ_SOURCE,
    re.IGNORECASE,
)


def _opening(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The answer a choice reply opens with, in a sentence of its own before its
    explanation: labels alone (two or more; one only before a dash or a colon: "**B** —
    ..."), after "Both", "Only" or a count that matches them ("Two of them: A and C."),
    or "all" and its exception ("All except B and E."). Not a listing of the options
    (lines that start with a label each), nor one whose explanation says of them, in a
    pronoun, the other side ("A and C. Both are fruits." on the reverse leg)."""
    if ctx.task != "choice" or not ctx.leg:
        return None
    start = lo
    while start < hi and text[start] in " \t*_#>`":
        start += 1
    count = _OPENING_COUNT.match(text, start, hi)
    if count is not None:
        start = count.end()
    end = _OPENING_END.search(text, start, min(hi, start + 80))
    if end is None or end.end() >= hi:
        return None
    mark = end.group().strip()
    reading = _only_labels(text, start, end.start(), ctx)
    if reading is None and count is None:
        quant = _QUANT.match(text, start, end.start())
        said = _quantified(text, quant, end.start(), ctx) if quant is not None else None
        if said is None or said[0] or not said[1].inverted:
            return None  # "All except B and E."; not "none", nor a status ("all are wrong")
        reading = said[1]
    elif reading is None or reading.void or not reading.labels:
        return None
    elif count is not None:
        word = count.group("n").lower()
        if _COUNTS.get(word, int(word) if word.isdigit() else 0) != len(reading.labels):
            return None  # "Two of them: A, C and D" says not which
    elif (
        len(reading.labels) == 1
        and mark not in ("—", "–", "-", ":")
        and (ctx.leg != 1 or not (mark.startswith(",") or _text_then_comma(text, start, hi, ctx)))
    ):
        # "A. Paris ..." is a listing's first line; "A, since ..." and "A. Paris, the
        # capital ..." are not (the direct leg only: on the reverse one the reason may pick
        # the other side)
        return None
    lines = [
        found
        for line in _lines_from(text, lo, hi)
        if (found := _OPENING_LINE.match(text, line, hi)) is not None
        and found.group("l").upper() in ctx.keys
        and (found.group("l").isupper() or len(found.group("l")) == 1)
    ]
    if len(lines) >= 2:
        return None  # per-option lines: "A — wrong. \nB — right."
    return None if _said_otherwise(text, end.end(), hi, ctx) else reading


# A negation in a reason: "..., not 45", "36 isn't 45", "≠ 45"
_REASON_NEGATION = _Pattern(r"(?<![\w-])(?:not|no|never)(?![\w-])|n[’']t(?!\w)|≠|!=", re.IGNORECASE)


def _reason_unsided(text: str, at: int, hi: int, one: _Reading, ctx: _Context) -> bool:
    """Whether a reason follows one label and its text (from ``at``) that says not the
    label is wrong: on the reverse leg "A. 36, since four nines make thirty-six." may
    pick the direct side. A reason says it when it negates the label's own text
    ("C. 45, since 9 × 4 is 36, not 45.") or calls it wrong, no negation and no word of
    the other side in it ("D. 40, which is wrong.")."""
    reason = text[at:hi].strip(" \t\r\n.!*_`")
    if not reason:
        return False
    (label,) = one.labels
    own = dict(ctx.texts.pairs()).get(label, "").strip()
    folded = reason.casefold()
    for negation in _REASON_NEGATION.finditer(reason):
        after = folded[negation.end() :].lstrip(" \t:=")
        after = _REASON_TO.compiled.sub("", after, count=1)
        if own and after.startswith(own.casefold()) and not after[len(own) :][:1].isalnum():
            return False
    if _REASON_NEGATION.search(reason) is not None:
        return True
    signs = {ctx.vocab.sign(word.group()) for word in _REASON_WORD.finditer(reason)}
    return not (-1 in signs and 1 not in signs)


# Words between a negation and the text it negates: "not equal to 45", "isn't even 45"
_REASON_TO = _Pattern(
    r"(?:(?:equal|equals|even|the|answer|value)\b[^\S\n]*(?:to\b)?[^\S\n]*)+", re.IGNORECASE
)
_REASON_WORD = _Pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _text_then_comma(text: str, start: int, hi: int, ctx: _Context) -> bool:
    """Whether the line at ``start`` is one label, its own candidate's text and a comma
    ("B. 1914, with ..."): an answer explained on its line, not a listing's first line."""
    end = text.find("\n", start, hi)
    comma = text.find(",", start, hi if end < 0 else end)
    if comma < 0:
        return False
    own = _label_and_text(text, start, comma, ctx)
    return own is not None and not own.disagrees and len(own.labels) == 1


def _said_otherwise(text: str, at: int, hi: int, ctx: _Context) -> bool:
    """Whether what follows an opening answer (from ``at``, after its stop) gives it a
    status of its own ("B, D — right.", "A: valid. B is valid. ...": statuses, read as
    such) or, in a pronoun, the other side ("A and C. Both are fruits." on the reverse
    leg)."""
    while at < hi and text[at] in " \t.:;,—–-":
        at += 1
    clause = _CLAUSE.match(text, at, hi)
    if clause is not None and (
        _status_sign(text, clause.start("c"), clause.end("c"), ctx)
        or any(ctx.vocab.sign(word) for word in clause.group("c").split())
    ):
        return True
    return any(
        ctx.vocab.verb_sign(pronoun) == -(ctx.leg or 1)
        for pronoun in _PRONOUN_SIDE.finditer(text, at, hi)
    )


# A short first clause after the opening answer: "— right.", ": not capitals;"
_CLAUSE = _Pattern(r"[^\S\n]*(?P<c>(?:[^\W\d_]+[^\S\n]*){1,3})(?=[,;.!?\n]|\Z)")


def _lines_from(text: str, lo: int, hi: int) -> Iterable[int]:
    """Where each line of ``text[lo:hi]`` starts."""
    at = lo
    while at < hi:
        yield at
        nl = text.find("\n", at, hi)
        if nl < 0:
            return
        at = nl + 1


def _after_listing(text: str, line: int, ctx: _Context) -> bool:
    """Whether the line before the one at ``line`` is an option's ("A) 184"): a label
    alone after it ends a listing of the options ("D) 177\nE)", cut there), no answer."""
    if line < 2:
        return False
    start = text.rfind("\n", 0, line - 1) + 1
    return _option_line(text, (start, line - 1), ctx)


def _before_last(text: str, reading: _Reading) -> bool:
    """Whether ``reading`` stands before the last sentence of ``text`` (where a reply cut
    off stops), or nowhere in particular."""
    stripped = text.rstrip()
    last = max(stripped.rfind(mark) for mark in (". ", "! ", "? ", "\n")) + 1
    return reading.span is None or reading.span[1] <= last


_SHORT_REPLY = 80
# Whole-reply frames of a choice's answer (:mod:`prin_guard.reader._restated`)
_FRAMED = (
    its,
    neither_nor,
    only_one,
    odd_out,
    no_status,
    struck,
    all_restated,
    then_sided,
    bookended,
)


def _boxes_concluded(
    text: str, at: int, reading: _Reading, method: ParseMethod, ctx: _Context
) -> _Reading | None:
    """A reply that boxes its picks along its reasoning and then concludes in prose on
    exactly them ("you can \\boxed{B} look around ... \\boxed{C} take pictures ... a
    \\boxed{E} new experience. So, the correct answer would be a combination of choices
    B, C, and E."): that conclusion, which the last box alone is not. None unless the last
    answer place is a box, every box is a plain pick, the conclusion after them is strong
    and names what they name together, and no revision stands between."""
    if method is not ParseMethod.FINAL_LINE or not text.startswith("\\boxed", at):
        return None
    boxed = boxed_labels(text, ctx)
    if boxed is None or boxed == reading.labels:
        return None
    concluded = claims_of(text, ctx).conclusion()
    if (
        concluded is None
        or concluded.weak
        or concluded.inverted
        or concluded.span is None
        or concluded.span[0] < (reading.span or (at, at))[1]
        or concluded.labels != boxed
        or Revisions(text).between(at, concluded.span[0])
    ):
        return None
    return concluded


def _place(text: str, ctx: _Context) -> ParseResult:
    if not text.strip():
        return _FAILED

    # 1. the places an answer is written in a fixed form: JSON objects that hold one,
    # answer and verdict tags, an answer line. The latest stands ("<think>... Answer:
    # A?</think> <answer>B</answer>" is B), revised by a conclusion after it; one
    # before it that disagrees, no revision between, leaves no verdict
    places, opposite = json_places(text, ctx)
    formal = [(at, reading, ParseMethod.STRUCTURED) for at, reading in places]
    tags = _read_tags(text, ctx)
    opposite = opposite or tags.opposite
    line, line_opposite = _answer_line(text, ctx)
    opposite = opposite or line_opposite
    formal += [((tag.span or (0, 0))[0], tag, ParseMethod.ANSWER_TAG) for _, tag in tags.said]
    verdict = _read_verdicts(text, ctx)
    if verdict is not None:
        formal.append((*verdict, ParseMethod.VERDICT_TAG))
    if line is not None:
        formal.append((*line, ParseMethod.FINAL_LINE))
    if formal:
        formal.sort(key=lambda place: place[0])
        at, reading, method = formal[-1]
        if (joined := _boxes_concluded(text, at, reading, method, ctx)) is not None:
            return _result(joined, ParseMethod.LABEL_FORMS, ctx)
        placed = replace(reading, span=reading.span or (at, at))
        revised = _revision_concluded(text, placed, ctx, method)
        if revised is not None:
            return revised
        if _formal_disagree(text, formal):
            return _FAILED  # '<answer>B</answer> ... {"answer": "A"}', unrevised
        return _result(reading, method, ctx)

    # 3. a heading in the leg's own words: "Incorrect: B, D"
    found = _read_headings(text, ctx)
    opposite = opposite or found.opposite
    if found.said:
        heading = found.said[-1][1]
        revised = _revision_concluded(text, heading, ctx, ParseMethod.HEADING)
        return revised or _result(heading, ParseMethod.HEADING, ctx)

    # 4. the whole reply is an answer: "none", "C, D", "Both.", "PASS"
    lo, hi = _strip_bounds(text, 0, len(text))
    if (listed := heading_over_texts(text, lo, hi, ctx)) is not None:
        return _result(listed, ParseMethod.HEADING, ctx)  # "The incorrect ones:\n1) Venus"
    if (listed := texts_alone(text, lo, hi, ctx)) is not None:
        return _result(listed, ParseMethod.CANDIDATE_TEXT, ctx)  # "- Paris\n- Rome"
    if _NONE_ONLY.fullmatch(text, lo, hi):
        span = _strip_bounds(text, lo, hi, _NONE_STRIP)
        return _result(_Reading(frozenset(), span), ParseMethod.NONE_WORD, ctx)
    gloss, glossed_labels = glossed(text, lo, hi, ctx)  # "B (100 °C).", "Rome, Paris: A, C"
    if gloss:
        return (
            _FAILED
            if glossed_labels is None
            else _result(glossed_labels, ParseMethod.LABEL_FORMS, ctx)
        )
    listed = _only_labels(text, 0, len(text), ctx)  # "C, D", "Options A, C, E."
    if listed is None:
        listed = _but_not(text, 0, len(text), ctx)  # "B and D, not A or C."
    if listed is None:
        listed = _with_note(text, 0, len(text), ctx)  # "B, D (the others are ...)"
    if listed is None and (lead := _PICK_LEAD.match(text, lo, hi)) is not None:
        # "Probably A and C." (weak), "I think B.": the whole reply, labels after a lead
        listed = _only_labels(text, lead.end(), hi, ctx)
        if listed is not None and lead.group("soft"):
            listed = replace(listed, weak=True)
    if listed is not None:
        return _result(listed, ParseMethod.LABEL_FORMS, ctx)
    if (
        not ctx.pair
        and "\n" not in text[lo:hi]
        and (texted := label_and_text_end(text, lo, hi, ctx))
    ):
        one, end = texted  # "B. 144", "**B** — 144"; "B. 144, since ..." weak on the reverse leg
        weak = ctx.leg == -1 and _reason_unsided(text, end, hi, one, ctx)
        return _result(replace(one, weak=one.weak or weak), ParseMethod.LABEL_FORMS, ctx)
    if not ctx.pair and (picked := _picked_lines(text, lo, hi, ctx)) is not None:
        return _result(picked, ParseMethod.LABEL_FORMS, ctx)  # "C — Rome\nA — Paris"
    # ... or its last paragraph is: reasoning, then "A, C" on a line of its own (after
    # a concluding word or a mark: "So again: A, C", "#### C")
    last = text.rfind("\n", 0, hi) + 1
    lead = _LAST_LEAD.match(text, last, hi) if last > lo else None
    if (
        not ctx.pair
        and last > lo
        and (listed := _only_labels(text, lead.end() if lead else last, hi, ctx)) is not None
        and not _after_listing(text, last, ctx)
    ):
        own = not text[text.rfind("\n", 0, last - 1) + 1 : last].strip()
        return _result(replace(listed, weak=not own), ParseMethod.LABEL_FORMS, ctx)
    first = _answer_first(text, lo, hi, ctx)  # "Options B and D.\n\nExplanation: ..."
    if first is not None:
        return _result(first, ParseMethod.LABEL_FORMS, ctx)
    if (meant := defined(text, lo, hi, ctx)) is not None:  # "Incorrect here means ..., so B"
        return _result(meant, ParseMethod.LABEL_FORMS, ctx)
    so = _so_labels(text, lo, hi, ctx)  # "Whales and bats are mammals, so A and C."
    if so is not None:
        return _result(so, ParseMethod.LABEL_FORMS, ctx)
    if (concluded := _drawn_on_its_side(text, lo, hi, ctx)) is not None:
        return _result(concluded, ParseMethod.LABEL_FORMS, ctx)  # "Thus, A and C."
    if (named := in_question_words(text, lo, hi, ctx)) is not None:
        return _result(named, ParseMethod.LABEL_FORMS, ctx)  # "The options not equal to ..."
    if not ctx.pair and (only := _only_last(text, lo, hi, ctx)) is not None:
        return _result(only, ParseMethod.LABEL_FORMS, ctx)  # "..., but strictly, only B and D."
    if (again := restated(text, lo, hi, ctx)) is not None:  # "Red, green and blue — A, C, D"
        return _result(again, ParseMethod.LABEL_FORMS, ctx)
    if (limited := alone(text, lo, hi, ctx)) is not None:  # "B alone.", "Only B fits: ..."
        return _result(limited, ParseMethod.LABEL_FORMS, ctx)
    for stage in _FRAMED:  # "It's B.", "Neither X nor Y is right.", "strike A, C and D"
        if (staged := stage(text, lo, hi, ctx)) is not None:
            return _result(staged, ParseMethod.LABEL_FORMS, ctx, empty=ParseMethod.NONE_WORD)
    if len(ctx.labels) == 1 and (status := _status_only(text, lo, hi, ctx)) is not None:
        resolved = _resolve([status], ctx)
        if isinstance(resolved, _Reading):
            return _result(resolved, ParseMethod.PER_CANDIDATE, ctx)

    # 5. the conclusion in prose, else the candidates' statuses; of a reply cut off
    # mid-sentence, a weak reading (it may have gone on to conclude otherwise)
    claims = claims_of(text, ctx)
    concluded = claims.conclusion()
    opposite = opposite or claims.opposite
    cut = _cut_off(text)
    if concluded is None or concluded.weak:  # "Is 9 prime? No. Is 11 prime? Yes. ..."
        questions = read_asked(text, lo, hi, ctx)
        if isinstance(questions, ParseResult):
            return questions
        if questions is not None:
            return _result(questions, ParseMethod.PER_CANDIDATE, ctx, empty=ParseMethod.NONE_WORD)
    # ... or a label and its text on a line of its own: "the most likely diagnosis
    # is:\n\nD. Aortic dissection"; a conclusion elsewhere that differs: no verdict
    own_line, line_opposite = _label_line(text, ctx) if ctx.task == "choice" else (None, False)
    opposite = opposite or line_opposite
    if own_line is not None and (
        concluded is None or concluded.weak or concluded.labels != own_line.labels
    ):
        if concluded is not None and concluded.labels != own_line.labels:
            return _FAILED
        return _result(replace(own_line, weak=own_line.weak or cut), ParseMethod.LABEL_FORMS, ctx)
    if cut and concluded is not None and concluded.weak and _before_last(text, concluded):
        concluded = None  # cut off before it concluded: "The options are: A) 9 B) 2 ... which"
    # ... or the reply opens with its answer ("Both A and C. Dolphins and bats are ...")
    opening = _opening(text, lo, hi, ctx) if not cut else None
    if opening is not None:
        said = _result(opening, ParseMethod.LABEL_FORMS, ctx)
        if concluded is None or concluded.weak:
            return said
        differs = _result(concluded, ParseMethod.LABEL_FORMS, ctx).labels != said.labels
        span = opening.span or (lo, lo)
        if differs and not Revisions(text).between(span[1], (concluded.span or span)[0]):
            return _FAILED  # it opens with one answer and concludes another, unrevised
    if concluded is not None:
        if cut:
            concluded = replace(concluded, weak=True)
        return _result(concluded, ParseMethod.LABEL_FORMS, ctx, empty=ParseMethod.NONE_WORD)
    if claims.statuses:
        resolved = _resolve(claims.statuses, ctx)
        if isinstance(resolved, _Reading):
            method = ParseMethod.PER_CANDIDATE if claims.structured else ParseMethod.LABEL_FORMS
            if cut and (not claims.structured or _stops_open(text)):
                # structured statuses too, when it stops open: "... = 36. The answer is"
                if not _every_side(claims.statuses, ctx):
                    return _FAILED  # cut before it gave every candidate a side
                resolved = replace(resolved, weak=True)
            elif _partly_gone_through(claims.statuses, ctx) or _doubted_others(
                text, claims.statuses, ctx
            ):
                resolved = replace(resolved, weak=True)
            if _yes_no_reverse(text, claims.statuses, ctx):
                resolved = replace(resolved, weak=True)
            return _result(resolved, method, ctx)
        opposite = opposite or resolved
    if opposite or claims.conflict:
        return _FAILED  # an answer to the other question, or conclusions that disagree
    if (scored := option_scores(text, lo, hi, ctx)) is not None:
        return _result(scored, ParseMethod.PER_CANDIDATE, ctx)  # "A: 9/10 ... D: 1/10", weak
    if ctx.task == "pairwise":
        return _FAILED

    # 6. loose forms (choice), then candidate texts; not in a reply cut off mid-sentence:
    # what it names before it stops ("set A", "c = 1.5", a listing of the options) is
    # the derivation, not an answer
    if cut:
        # a reply of one short line, candidates' texts alone ("the Nile and the Congo"),
        # is no derivation cut off: a judge's token limit stops no reply that short
        texts = _texts_list(text, lo, hi, ctx) if hi - lo <= _SHORT_REPLY else None
        if texts is not None and "\n" not in text[lo:hi] and texts[1] >= hi:
            return _result(texts[0], ParseMethod.CANDIDATE_TEXT, ctx)
        return _FAILED
    stated = _predicate_statuses(text, ctx)  # "Peru and Chile are not in Africa; ..."
    if stated is not None:
        return _result(stated, ParseMethod.LABEL_FORMS, ctx)
    none = _none_of_them(text, lo, hi, ctx)
    if none is not None:
        return _result(none, ParseMethod.NONE_WORD, ctx)
    texts = _texts_list(text, lo, hi, ctx)
    if texts is not None and _PUNCT_ONLY.fullmatch(text, texts[1], hi):  # "Paris and Rome."
        return _result(texts[0], ParseMethod.CANDIDATE_TEXT, ctx)
    if (value := read_value(text, lo, hi, ctx)) is not None:  # "So the speed is 45 km/h."
        return _result(value, ParseMethod.CANDIDATE_TEXT, ctx)
    if (concluded := _drawn_on_its_side(text, lo, hi, ctx, weak=True)) is not None:
        return _result(concluded, ParseMethod.LABEL_FORMS, ctx)  # "..., so we get D."
    if ctx.task == "choice":
        loose = _loose_forms(text, ctx)
        if loose:
            return _joint_result(loose, ParseMethod.LABEL_FORMS, ctx, weak=True)
    return _candidate_texts(text, ctx)
