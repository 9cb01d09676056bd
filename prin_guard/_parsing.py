"""Reading a label set out of a judge's reply. Pure functions, no I/O.

Rules, tried in order; the first that yields a result wins and is recorded as the
leg's ``parse_method``:

1. ``structured``: a JSON object, whatever its key: ``{"labels": [...]}``
   (structured output), ``{"answer": "A, C"}``, ``{"incorrect": ["B"]}``, alone,
   in a ```` ```json ```` fence or after prose. A value is a list of strings or a
   string, each read as an answer line is. Keys in the leg's own words rank first,
   then answer keys ("answer", "labels", "choice", ...), then any other key; an
   object whose best keys disagree is not read. The last object that holds an
   answer wins.
2. ``answer_tag``: ``<answer>A, C</answer>`` (also ``<final_answer>``,
   ``<incorrect>``, ...), or
3. ``final_line``: an ``Answer: ...`` line, as the prompt asks (also "Final
   answer:", "My answer:", and after the end of a sentence: "C is right. Answer:
   C"). Of the last readable tag and the last readable answer line, the later one
   wins. An answer line's labels may be written ``C``, ``c)``, ``(C)``, ``option C``,
   ``C) 9``; its candidate texts (``Answer: 9``) count too. An answer line with
   nothing after its colon is answered by the next line, or by the list below it
   (one label a line: "- B) 8", "D) 10").
4. ``heading``: the last line headed in the leg's own words instead of "Answer":
   "Incorrect: B, D", "Incorrect options: B and D", "Wrong: C" for the reverse leg,
   "Correct answers: A, C" for the direct leg. Candidate texts count only as the
   whole rest of the line ("Correct: 9"), not inside it ("Correct: 9 <= 10").
5. ``none_word``: a reply that only says there are none.
6. ``label_forms``: a reply made of nothing but labels ("C, D, E"); then a
   quantifier in the last line ("So all of them are incorrect.", "All options
   except B are correct.", a bare "All of them."); then sentences that state
   labels, all of them together: "the answer is C", "the incorrect options are D
   and E" (or a list below "the incorrect options are:"), "A and C are incorrect
   because ...", "Options B and D are wrong.", and "the rest are incorrect" after
   "C is correct"; then loose forms ("c)", "(C)", "option C", numbered list lines
   "1. C") anywhere in the text. A result that names nothing ("None of them are
   incorrect.") is recorded as ``none_word``.
7. ``candidate_text``: a candidate's exact text as the whole reply, quoted, or after
   "the answer is".

Nothing found is a parse failure (``ParseStatus.FAILED``), never an exception.

What an answer says. Wherever it is (rules 1 to 4, the sentences of rule 6), an
answer is read the same way (``_parsing_answer.read_answer``): "none", "none of
them", "neither", "[]" are the empty set (``ParseStatus.NONE``); "all", "all of
them", "all options", "all are correct" every label; "all except B", "all but B",
"everything except B" the complement; "both A and C" the two ("both" alone: every
label when there are two); otherwise a list of labels, marked labels or candidate
texts. Its head, what precedes an aside, is read first: "Answer: B (not A, since A
miscounts)" names B only.

Polarity. A caller that knows which question the reply answers passes
``polarity`` (and, for a template of its own, its ``words``). Each place (JSON key,
tag, heading, sentence) has the sign of its words: "correct", "right", "valid",
... or "incorrect", "wrong", "not correct", ... or neither. A place in the
*opposite* words ("Correct: C" on the reverse leg) is not read as this leg's
answer. Such a reply answers the other question: when nothing in the leg's own
words (or in neutral ones, "the answer is") is found, the parse fails rather than
read loose forms, and ``detect_polarity_confusion`` flags the leg. Without a
polarity every place is read literally, as before this option existed; when
places of both signs occur ("A is correct. B is incorrect."), only neutral ones
are read. An ``Answer:`` line is the answer, whatever words it uses.

Span. ``ParseResult.span`` is where the answer was read, as ``[start, end)``
offsets in the reply as given (an echoed reply included): from the first to the
last label of the list read ("Answer: A, C" gives "A, C"; ``{"labels": ["B",
"D"]}`` gives ``B", "D``), the candidate text read, the words that say "none", or
the quantifier ("all except B"). It is None on failure and when the labels were
read from more than one place (sentences about several options, a list one label a
line): there is no single run of tokens whose probability is the judge's.

Cost. Parsing is linear in the reply's length (plus one pass over the item's labels
and texts), whatever the number of candidates: every pattern is compiled once, at
import, and matches any *label-shaped* token (a letter and up to three letters or
digits, in any case); a token counts only if it is in the item's label set, a dict
lookup. There is no per-label-set pattern and no cache. Candidate texts are found
through a dict from normalised text to label: a whole span is one lookup, and a text
*inside* a span is looked for only at token boundaries, for the token counts that
candidate texts actually have, and only for texts of at most
``MAX_TEXT_TOKENS`` tokens (a longer text still matches when it is the whole span).
Forms that repeat are kept from rescanning the text: runs of labels are matched
possessively, a sentence's answer is looked for in at most 1,000 characters and an
"all except" list in at most 200, at most ``MAX_JSON_TRIES`` JSON objects (the last
ones) are decoded, and "all" and "all except B" are kept as the labels left out
until the result is built, so that they cost nothing per label.

Echoes. A judge may copy parts of its prompt, and the prompt holds text the caller
does not control (the question, the context, candidate texts, reasoning paths). The
caller passes those texts, or the prompt itself, as ``echo``; an ``Answer:`` line,
heading, tag or JSON object on a line that is a verbatim copy of one of their lines
is not the judge's answer and is skipped. A reply that repeats the prompt (its
"please output the ... ones." sentence and most of the options) is reported as
``echoed`` so the caller can flag it, and only what follows that sentence, less the
copied lines, is read: a bare echo is a parse failure, not "every option".

Separately, each reply is checked for *polarity confusion*: a reverse leg that
speaks of "the correct answer" (or a direct leg of "the incorrect ones") is
answering the opposite question; the flag says so.

Modules: this one (the order of the rules, echoes, spans, polarity confusion),
``_parsing_forms`` (the places an answer is written: JSON, tags, lines, sentences),
``_parsing_answer`` (reading a stretch known to be an answer; the polarity words)
and ``_parsing_labels`` (label lists, marked labels, candidate texts).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import filterfalse

from prin_guard._models import ParseMethod, ParseStatus, Polarity
from prin_guard._parsing_answer import (
    NONE_ONLY,
    NUMBERED,
    Context,
    Vocab,
    copied_line,
    line_key,
    next_line,
    read_answer,
    read_block,
)
from prin_guard._parsing_forms import (
    ANCHORED,
    ANSWER_LINE,
    MAX_JSON_TRIES,
    conclusion,
    read_headings,
    read_json,
    read_tags,
    statements,
)
from prin_guard._parsing_labels import (
    MARKED,
    MAX_TEXT_TOKENS,
    NORM_STRIP,
    Reading,
    Texts,
    keys_of,
    labels_only,
    marked_labels,
    ordered,
    strip_bounds,
    union,
)

__all__ = [
    "MAX_JSON_TRIES",
    "MAX_TEXT_TOKENS",
    "ParseResult",
    "detect_echo",
    "detect_polarity_confusion",
    "parse_reply",
]


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The label set read from one reply, and how and where it was read."""

    labels: tuple[str, ...]
    """The labels named, in the candidates' order."""
    status: ParseStatus
    method: ParseMethod | None
    """The rule that read them; None on failure."""
    echoed: bool = False
    """The reply repeats the prompt (see :func:`detect_echo`)."""
    span: tuple[int, int] | None = None
    """Where the answer was read: ``[start, end)`` offsets in the reply as given, tight
    around what was read ("A, C" of "Answer: A, C", "none" of "Answer: none", "all
    except B"); None on failure or when the labels come from several places."""


_FAILED = ParseResult((), ParseStatus.FAILED, None)

_NONE_WORD = re.compile(r"\bnone\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“'`]([^\"”'`\n]{1,200})[\"”'`]")
# The sentence every template's prompt has, in any wording (v0-v4, paraphrases).
_ECHO_SENTENCE = re.compile(r"please\s+output\s+the\s+[\w-]+\s+ones\b", re.IGNORECASE)
_SPACE = " \t\r\n"


def _echo_lines(echo: Sequence[str]) -> set[str]:
    return {key for text in echo for line in text.splitlines() if (key := line_key(line))}


def detect_echo(text: str | None, labels: Sequence[str]) -> bool:
    """Whether a reply repeats the prompt: it has the prompt's "please output the
    ... ones." sentence and names more than half of the options as ``X)``, the
    way the prompt lists them. Linear in the reply's length."""
    if not text or not _ECHO_SENTENCE.search(text):
        return False
    keys = keys_of(labels)
    named = {
        label
        for match in MARKED.finditer(text)
        if match.group("r") and (label := keys.get(match.group("r").upper())) is not None
    }
    return 2 * len(named) > len(keys)


def _own_lines(text: str, copied: set[str]) -> tuple[str, list[int], list[int]]:
    """What the judge wrote after a repeated prompt: the lines after its question
    sentence that are not copies, joined, with each kept line's offset in that text
    and in ``text``.

    The prompt lists every option, and would otherwise read as "all of them". The
    text before its question sentence is the question and the options (however
    mangled); after it come the prompt's own lines, dropped when copied verbatim.
    """
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    last = max(i for i, line in enumerate(lines) if _ECHO_SENTENCE.search(line))
    kept: list[str] = []
    read_at: list[int] = []
    text_at: list[int] = []
    position = 0
    for i in range(last + 1, len(lines)):
        line = (lines[i].splitlines() or [""])[0]
        if line_key(line) in copied:
            continue
        kept.append(line)
        read_at.append(position)
        text_at.append(starts[i])
        position += len(line) + 1
    return "\n".join(kept), read_at, text_at


def _map_span(
    span: tuple[int, int] | None, read_at: list[int], text_at: list[int]
) -> tuple[int, int] | None:
    """A span of the kept lines' text as offsets in the reply."""
    if span is None or not read_at:
        return span

    def back(offset: int) -> int:
        line = bisect_right(read_at, offset) - 1
        return text_at[line] + offset - read_at[line]

    start, end = span
    return back(start), back(end - 1) + 1


def parse_reply(
    text: str | None,
    labels: Sequence[str],
    texts: Sequence[str],
    *,
    echo: Sequence[str] = (),
    polarity: Polarity | None = None,
    words: tuple[str, str] | None = None,
) -> ParseResult:
    """Read the set of labels a reply names. ``labels`` and ``texts`` are the candidates'.

    ``echo``: texts the judge may copy from its prompt (the item's question, context,
    candidate texts and reasoning paths, or the prompt itself). ``Answer:`` lines
    that copy one of their lines verbatim are not read; when the reply repeats the
    prompt (``echoed``), only the lines after its question sentence that are not
    copies are read.

    ``polarity``: the question the reply answers. Headings, tags, JSON keys and
    sentences in that question's words are read ("Incorrect: B, D" on the reverse
    leg), those in the opposite words are not. ``words``: the template's
    ``(positive, negative)`` words, such as ``("right", "wrong")``; the bundled
    templates' words are always known, so only a template of one's own needs it.
    """
    if text is None or not text.strip():
        return _FAILED
    copied = _echo_lines(echo)
    echoed = detect_echo(text, labels)
    read, read_at, text_at = text, list[int](), list[int]()
    if echoed:
        read, read_at, text_at = _own_lines(text, copied)
    leg = 0 if polarity is None else 1 if polarity is Polarity.DIRECT else -1
    ctx = Context(keys_of(labels), labels, Texts(labels, texts), Vocab.of(words), leg, copied)
    result = _parse(read, ctx)
    return ParseResult(
        result.labels,
        result.status,
        result.method,
        echoed,
        _map_span(result.span, read_at, text_at),
    )


def _result(
    reading: Reading, method: ParseMethod, ctx: Context, *, empty: ParseMethod | None = None
) -> ParseResult:
    """The result of a reading; ``empty``: the method when it names nothing."""
    span = reading.span if reading.span and reading.span[0] < reading.span[1] else None
    if reading.inverted:
        labels = tuple(filterfalse(reading.labels.__contains__, ctx.labels))
    else:
        labels = ordered(reading.labels, ctx.labels)
    if not labels:
        return ParseResult((), ParseStatus.NONE, empty or method, span=span)
    return ParseResult(labels, ParseStatus.OK, method, span=span)


def _union(readings: Sequence[Reading], method: ParseMethod, ctx: Context) -> ParseResult:
    """The labels of readings from several places; a span only when they are one place."""
    labels, inverted = union(readings)
    spans = {reading.span for reading in readings if reading.names_some} or {
        reading.span for reading in readings
    }
    span = spans.pop() if len(spans) == 1 else None
    return _result(Reading(labels, span, inverted), method, ctx, empty=ParseMethod.NONE_WORD)


def _answer_line(text: str, ctx: Context) -> tuple[int, Reading] | None:
    """The last readable "Answer:" line that is not a copy, and where it starts."""
    for match in reversed(list(ANSWER_LINE.finditer(text))):
        if copied_line(text, match.start(), ctx):
            continue
        if match.group("rest").strip(" \t\r*_`"):
            said = read_answer(text, match.start("rest"), match.end("rest"), ctx)
        else:
            block = read_block(text, match.end(), ctx)
            said = block[:2] if block is not None else None
        if said is not None:
            return match.start(), said[1]
    return None


def _parse(text: str, ctx: Context) -> ParseResult:
    if not text.strip():
        return _FAILED

    # 1. a JSON object that holds an answer
    found = read_json(text, ctx)
    opposite = found.opposite
    if found.said:
        return _result(found.said[-1][1], ParseMethod.STRUCTURED, ctx)

    # 2. an answer tag, 3. the last "Answer:" line that says something readable and
    # is the judge's own: whichever comes last ("<think>... Answer: A?</think>
    # <answer>B</answer>" is B)
    tags = read_tags(text, ctx)
    opposite = opposite or tags.opposite
    tag = tags.said[-1][1] if tags.said else None
    line = _answer_line(text, ctx)
    if tag is not None and (line is None or (tag.span or (0, 0))[0] > line[0]):
        return _result(tag, ParseMethod.ANSWER_TAG, ctx)
    if line is not None:
        return _result(line[1], ParseMethod.FINAL_LINE, ctx)

    # 4. a heading in the leg's own words: "Incorrect: B, D"
    found = read_headings(text, ctx)
    opposite = opposite or found.opposite
    if found.said:
        return _result(found.said[-1][1], ParseMethod.HEADING, ctx)

    # 5. a reply that only says "none"
    lo, hi = strip_bounds(text, 0, len(text))
    if NONE_ONLY.fullmatch(text, lo, hi):
        span = strip_bounds(text, lo, hi, _SPACE + ".,;:!?\"'`*_()")
        return _result(Reading(frozenset(), span), ParseMethod.NONE_WORD, ctx)

    # 6. label forms: a labels-only reply, a conclusion, sentences, loose forms
    listed = labels_only(text, 0, len(text), ctx.keys)
    if listed is not None:
        return _result(listed, ParseMethod.LABEL_FORMS, ctx)
    for reader in (conclusion, statements):
        found = reader(text, ctx)
        opposite = opposite or found.opposite
        if found.said:
            readings = [reading for _, reading in found.said]
            if reader is conclusion:
                readings = readings[-1:]  # the last conclusion of the last line
            return _union(readings, ParseMethod.LABEL_FORMS, ctx)
    if opposite:
        return _FAILED  # an answer to the other question: not read as this leg's
    loose: list[Reading] = []
    for match in MARKED.finditer(text):
        group = match.lastgroup or "p"
        label = ctx.keys.get(match.group(group).upper())
        if label is not None:
            loose.append(Reading(frozenset({label}), match.span(group)))
    for match in NUMBERED.finditer(text):
        label = ctx.keys.get(match.group("n").upper())
        if label is not None:
            loose.append(Reading(frozenset({label}), match.span("n")))
    if loose:
        return _union(loose, ParseMethod.LABEL_FORMS, ctx)

    # 7. candidate texts
    return _candidate_texts(text, ctx)


def _candidate_texts(text: str, ctx: Context) -> ParseResult:
    whole = ctx.texts.exact(text)
    if whole:
        span = strip_bounds(text, 0, len(text), NORM_STRIP + "\t\r\n")
        return _result(Reading(frozenset(whole), span), ParseMethod.CANDIDATE_TEXT, ctx)
    places: list[Reading] = []
    for match in _QUOTED.finditer(text):
        lo, hi = match.span(1)
        marked = marked_labels(text, lo, hi, ctx.keys)
        exact = ctx.texts.exact(match.group(1))
        if marked is not None:
            places.append(marked)
        elif exact:
            places.append(Reading(frozenset(exact), strip_bounds(text, lo, hi, NORM_STRIP)))
    if not places:
        for match in ANCHORED.finditer(text):
            lo, hi = match.span("span")
            if not text[lo:hi].strip():  # "The answer is:" and the answer below
                lo, hi = next_line(text, hi) or (hi, hi)
            inside = ctx.texts.inside(text[lo:hi])
            if inside:
                span = strip_bounds(text, lo, hi, NORM_STRIP + "\t\r\n")
                places.append(Reading(frozenset(inside), span))
    if places:
        return _union(places, ParseMethod.CANDIDATE_TEXT, ctx)
    none = _NONE_WORD.search(text)
    if none is not None and len(text) < 80:
        return _result(Reading(frozenset(), none.span()), ParseMethod.NONE_WORD, ctx)
    return _FAILED


_POSITIVE = r"(?:correct|right|appropriate|true|valid)"
_NEGATIVE = r"(?:incorrect|wrong|inappropriate|false|invalid|not\s+correct|not\s+right)"
_NOUN = r"(?:answers?|options?|choices?|ones?|candidates?)"
_POSITIVE_PHRASE = re.compile(
    rf"(?<![\w-])(?<!in)(?<!not ){_POSITIVE}\s+{_NOUN}\b|\b{_NOUN}\s+(?:is|are)\s+{_POSITIVE}\b",
    re.IGNORECASE,
)
_NEGATIVE_PHRASE = re.compile(
    rf"\b{_NEGATIVE}\s+{_NOUN}\b|\b{_NOUN}\s+(?:is|are)\s+{_NEGATIVE}\b",
    re.IGNORECASE,
)


def detect_polarity_confusion(text: str | None, polarity: Polarity) -> bool:
    """Whether a reply reads as an answer to the opposite question.

    A reverse leg is confused when it speaks of the correct answer(s) and never of
    incorrect ones ("The correct answer is c)"); a direct leg when it speaks only
    of incorrect ones. Replies that mention both are given the benefit of the
    doubt: they usually discuss each option.
    """
    if not text:
        return False
    positive = bool(_POSITIVE_PHRASE.search(text))
    negative = bool(_NEGATIVE_PHRASE.search(text))
    if polarity is Polarity.REVERSE:
        return positive and not negative
    return negative and not positive
