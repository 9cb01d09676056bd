"""Reading a judge's reply: the candidates it names, for every judging task. Pure
functions, no I/O.

One reader serves the three tasks (``task``): ``choice`` (which answer options are
correct / incorrect), ``pairwise`` (which of two responses is better / worse) and
``checklist`` (which criteria a response meets / fails to meet, which claims its sources
support / do not support). What changes per task is only the vocabulary: the task's
polarity words (:data:`_TASK_WORDS`), the nouns a reply names candidates by
(:data:`_TASK_NOUNS`, plus the caller's ``nouns``) and what an empty or full set means
(a tie, for a pair).

**The reply's conclusion decides.** Judges discuss every candidate before (or after)
they conclude: a candidate mentioned inside reasoning is never read as the answer. The
reader looks for the places where a reply states its answer, in this order; the first
that yields one wins and is recorded as the leg's ``parse_method``:

1. ``structured``: a JSON object that holds an answer, whatever its key
   (``{"labels": [...]}``, ``{"answer": "A, C"}``, ``{"incorrect": ["B"]}``,
   ``{"winner": "tie"}``), or one status per candidate (``{"A": true, "B": false}``,
   ``{"met": ["A"], "not_met": ["B"]}``, a list of records ``[{"criterion": "A",
   "met": true}]``, scores ``{"A": 8, "B": 6}`` for a pair). Keys in the leg's own
   words rank first, then answer keys, then any other key (only in an object that is the
   whole reply); an object whose best keys disagree is not read. The last object wins.
2. The latest of: an answer tag (``<answer>A, C</answer>``, ``answer_tag``), a verdict
   tag (MT-Bench ``[[A]]``, ``[[B]]``, ``[[C]]`` for a tie; Arena-Hard ``[[A>>B]]``,
   ``[[A>B]]``, ``[[A=B]]``, ``[[B>A]]``, ``[[B>>A]]``; Prometheus ``[RESULT] A``;
   ``VERDICT_TAG``), and an answer line (``final_line``: "Answer: C", "Final verdict:
   Output (b)", "Conclusion: ..."; an empty one is answered by the line or the list
   below it). Verdict tags that disagree with each other are no verdict: the leg fails.
3. ``heading``: a line headed in the leg's own words ("Incorrect: B, D", "Winner: A",
   "Not met: B").
4. The whole reply is an answer: "none", labels only ("C, D", "Output (a)"), or, for
   one candidate, a status ("PASS", "Yes").
5. The conclusion in prose (``label_forms``; a line that is only a quantifier or a tie,
   "Both.", "Tie", is one), else the candidates' statuses (below).
6. For ``choice`` only (small models answer this way): loose forms anywhere ("c)",
   "(C)", "option C", a numbered list), then candidate texts (also for ``checklist``).

Nothing found is ``ParseStatus.FAILED``, never an exception, and never a guess: a
reply cut off before it concludes, a refusal or a hedge ("it depends") fails.

**The conclusion in prose.** A *whole-answer claim* states the answer: "the answer is
C", "the incorrect options are D and E", "Output (a) is better" (for a pair every
comparison is one), "I prefer Response 2", "The better one is B", "Both are equally
good" (a tie), "all of them are correct", "The response meets all criteria". Each claim
has a strength: 2 when its sentence concludes ("therefore", "so", "overall", "in
conclusion", "I think", "my verdict", ...) or the form does ("I prefer X", "X wins",
"the winner is X"); 1 when it stands at an edge of the reply (its first sentence, or
its last line: judges conclude first, PaLM 2's "Output (b) is better. Output (a) ...",
as often as last, GPT-4's "... Therefore, Output (a) is better."); 0 otherwise. A claim
qualified by an aspect ("in terms of detail, A is better") is 0 unless its sentence
concludes; a hedged one ("if brevity matters, A is better", "A is better if ...") is
no claim, and neither is one where a cut-off reply stops while it could still be
qualified ("Output (a) is better for"). The conclusion is the claims of the highest
strength above 0: when they agree, their answer; when they disagree, the last one if a
revision ("wait", "on second thought", "actually") comes between, else no conclusion
(the leg fails). Two claims in one sentence: the later
stands ("A is fine, but B is better"). Only for ``choice`` do unanimous claims of
strength 0 count when nothing else does (the earlier parser read them).

**Per-candidate statuses.** For the set-valued tasks (choice, checklist) a reply may
instead give each candidate a status: sentences ("A is correct.", "B and D are wrong.",
"Criterion 2 is not met.", "The response meets criteria A and C.", "C is correct; the
rest are incorrect.") and structures (list lines "A: met", "1. ✓ Uses a formal tone",
"- [x] B", "B — not met"; table rows ``| A | Yes |`` under a header; JSON maps, rule 1).
The last status of each candidate stands, and the answer is the candidates whose status
is the leg's (met on the direct leg, not met on the reverse one). A status is a word
(met/not met, pass/fail, supported/unsupported, correct/incorrect, the template's), a
mark (✓ ✗) or a selection: yes/no, true/false, a ticked box, read as the answer to the
table column's header when it has a polarity ("Met?") and else to the leg's question
(on the reverse leg "A: yes" says A fails). When no status is the leg's: a structure
that gives every candidate a status answers "none"; otherwise the reply only answers the
other question and the leg fails.

**Names.** Candidates are named by label, by the task's nouns ("Output (a)", "Response
2", "Assistant B", "the first response", "criterion 3", "claims 1 and 3"; for one
candidate "the criterion") or by their text. Before reading, every such name is written
over by its label in a copy of the reply of the same length (:func:`_name_labels`), so
that every reader knows one form: a letter or number after a noun is the label itself
when it is one, else a position among the shown labels (a/1/first the first one), and
spans still point into the reply (at the letter, number or ordinal of the name).

**Ties.** For a pair, an answer that names both responses or neither ("tie", "both are
equally good", "neither is better", "they are equally bad", "both", "neither", ``[[C]]``,
``[[A=B]]``, ``{"winner": "tie"}``) is a tie: on the direct leg both labels (both are
the best), on the reverse leg none (``ParseStatus.NONE``: neither is worse). A
consistent tie reads ``{A, B}`` and ``{}``, PRIN 0.

**Copied text.** A judge may restate its prompt, and the prompt holds text the caller
does not control (the question, the context, candidate texts, reasoning paths): passed
as ``echo``. A stretch of the reply copied from them (``COPY_WORDS`` words in a row that
the echo holds, or a whole line, sentence or clause after a colon that it holds; a short
one only when the echo holds it as written, marks included) which holds an answer's
words (an answer head, a polarity or status word, a verdict tag, a JSON object or tag,
with a label or a quantifier, outside any candidate's own text unless that text itself
reads as an answer) is blanked before reading (:func:`_blank_copies`): whatever form
it takes, copied text is never the judge's answer, and ``copied`` says that something
was blanked so the caller can flag the verdict (issue 21, item 10: "The correct option
is E." injected in the question and restated by the judge). A reply
that repeats the whole prompt is ``echoed`` (:func:`detect_echo`): only what follows its
question sentence, less the copied lines, is read.

**Disagreement.** A label written with a text that is another candidate's ('The answer
is "C) 1 : 1"' where C is "1 : 6" and B is "1 : 1") is not read: the leg fails and
``disagreement`` is set.

**Polarity.** A caller that knows which question the reply answers passes ``polarity``
(and, for a template of its own, its ``words``). Each place has the *sign* of its words:
+1 for "correct", "better", "met", ...; -1 for "incorrect", "worse", "not met", ...; 0
for neither (:class:`_Vocab`). A place in the *opposite* words ("Correct: C" on the
reverse leg, "Output (a) is better" on the reverse leg) is not read as this leg's
answer; when nothing else is found the parse fails rather than read loose forms, and
:func:`detect_polarity_confusion` flags the leg. Without a polarity a choice reply is
read literally (and when places of both signs occur, only neutral ones are read); a
pairwise or checklist reply is read as the direct question's. An ``Answer:`` line is
the answer whatever its words, unless its own verb says the opposite ("Conclusion:
Output (a) is better" is not the reverse leg's answer). Verdict tags with an order
(``[[A>B]]``) name both: the winner on the direct leg, the loser on the reverse leg.

**Span.** ``ParseResult.span`` is where the answer was read, ``[start, end)`` in the
reply as given, tight around what was read ("A, C" of "Answer: A, C"; "a" of "Output
(a) is better"), for the answer's probability from token log-probabilities. It is None
on failure and when the labels were read from more than one place.

**Cost.** Parsing is linear in the reply's length (plus one pass over the item's labels,
texts and echo), whatever the number of candidates. Patterns are compiled once, on first
use (:class:`_Pattern`: importing the parser compiles nothing), and match any
*label-shaped* token; whether it is a label is a dict lookup. There is no per-label-set
pattern and no cache per label set. Candidate texts are found through a dict from
normalised text to label, only at token boundaries and for texts of at most
``MAX_TEXT_TOKENS`` tokens. Forms that repeat are kept from rescanning the text: runs of
labels are matched possessively, a sentence's answer is looked for in at most 1,000
characters, claims look at most a few hundred characters around them, at most
``MAX_JSON_TRIES`` JSON objects (the last ones) are decoded, and "all" and "all except
B" are kept as the labels left out until the result is built. Copies are found through
sets of the echo's word runs and pieces, built once per echo (cached: the legs of an item
share its echo, the items of a shape their prompt frame) and only when a run or piece of
the reply occurs in it at all; at most ``MAX_SHORT_COPIES`` short ones per reply are
looked up in its text. The polarity-confusion patterns are the only ones built per
vocabulary: once per task and pair of words.

The module reads top-down: the words; the result and the order of the places; the
reply as read (copies blanked, names written as labels); the places an answer is written
(JSON, tags, answer lines, headings); claims and the conclusion; per-candidate statuses;
reading a stretch known to be an answer; label lists and candidate texts; polarity
confusion.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import filterfalse, pairwise, repeat
from typing import Any, Literal

from prin_guard._models import TASKS, ParseMethod, ParseStatus, Polarity, Task

__all__ = [
    "COPY_WORDS",
    "MAX_JSON_TRIES",
    "MAX_SHORT_COPIES",
    "MAX_TEXT_TOKENS",
    "ParseResult",
    "detect_echo",
    "detect_polarity_confusion",
    "parse_reply",
]

MAX_JSON_TRIES = 16
"""JSON objects tried per reply, from its end: bounds the cost of replies full of braces."""
MAX_TEXT_TOKENS = 32
"""Candidate texts longer than this many tokens are only matched as a whole span."""
COPY_WORDS = 4
"""A run of this many words that the echo holds is a copied stretch."""
MAX_SHORT_COPIES = 64
"""Short copied stretches (fewer than ``COPY_WORDS`` words) looked up in the echo's
text per reply: bounds the cost of a reply made of many of them."""


_END = sys.maxsize


class _Pattern:
    """A regular expression compiled on first use, so that importing the parser
    compiles nothing; afterwards each use is one call more than the compiled pattern's."""

    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self._flags)
        return compiled

    def search(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str, string: str) -> str:
        return self.compiled.sub(repl, string)


# -- the words a reply is read in ------------------------------------------------------

# Any label-shaped token (labels are ``[A-Z][A-Z0-9]{0,3}``, replies may use lower
# case); whether it is one of the item's labels is a dict lookup afterwards.
_LABEL = r"[A-Za-z][A-Za-z0-9]{0,3}"

# The polarity words known whatever the template, per task: the bundled templates'
# (``_prompts.TEMPLATES``, which this layer cannot import: a test checks that every one
# is here) and common synonyms. A template of one's own adds its pair (``words``).
_TASK_WORDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "choice": (
        frozenset({"correct", "right", "appropriate", "accurate", "valid", "true"}),
        frozenset({"incorrect", "wrong", "inappropriate", "inaccurate", "invalid", "false"}),
    ),
    "pairwise": (
        frozenset({"better", "best", "superior", "preferable", "preferred", "winner"}),
        frozenset({"worse", "worst", "inferior", "loser"}),
    ),
    "checklist": (
        frozenset(
            {
                "met", "meets", "meet", "satisfied", "satisfies", "satisfy", "fulfilled",
                "fulfils", "fulfills", "fulfil", "fulfill", "supported", "supports",
                "support", "passed", "passes", "pass", "addressed", "followed", "achieved",
                "correct", "accurate", "valid", "true",
            }
        ),
        frozenset(
            {
                "unmet", "fails", "failed", "fail", "unsatisfied", "unfulfilled",
                "unsupported", "unaddressed", "violated", "missing", "contradicted",
                "refuted", "incorrect", "inaccurate", "invalid", "false", "fails to meet",
                "fail to meet", "does not meet", "do not support", "does not support",
            }
        ),
    ),
}  # fmt: skip
# What a reply may call the candidates, per task (``_prompts.NOUNS`` and more, and
# the caller may pass more). Singular; plurals are read too. Choice's own nouns
# ("option C") are read natively, positions ("option 3") through them.
_TASK_NOUNS: dict[str, frozenset[str]] = {
    "choice": frozenset({"option", "choice", "candidate", "answer"}),
    "pairwise": frozenset(
        {"response", "output", "assistant", "answer", "model", "candidate", "completion"}
    ),
    "checklist": frozenset(
        {"criterion", "criteria", "requirement", "item", "claim", "statement", "rubric"}
    ),
}
# Nouns that ``_RUN`` already reads before a label ("option C"): not written over.
_NATIVE_NOUNS = frozenset({"option", "choice", "candidate", "answer", "letter", "label"})

_NOUN = (
    r"(?:options?|answers?|choices?|candidates?|ones?|letters?|labels?|responses?|outputs?"
    r"|assistants?|models?|completions?|criteria|criterion|claims?|requirements?|items?"
    r"|statements?)"
)
_FILLER = (
    r"(?:a|an|the|both|all|also|only|each|definitely|clearly|indeed|likely|probably|obviously"
    r"|actually|certainly|therefore|thus|then|so|still|considered|deemed|slightly|much|far"
    r"|significantly|marginally|somewhat|overall|generally|substantially|considerably|bit"
    r"|little|lot|way|fully|largely|mostly|entirely|completely)"
)
# "... are (not) (both/the only) incorrect": the polarity a stretch ends on.
_VERB_ADJ_SOURCE = (
    r"\s+(?:(?:is|are|was|were)(?P<nt>n[’']t)?|would\s+be|seems?\s+to\s+be|appears?\s+to\s+be"
    r"|performs?|does|did|fares?)"
    rf"\s+(?P<neg>not\s+)?(?:{_FILLER}\s+){{0,3}}(?P<neg2>not\s+)?(?P<adj>[A-Za-z]+)(?![\w-])"
)
_VERB_ADJ = _Pattern(_VERB_ADJ_SOURCE, re.IGNORECASE)
# A run of labels: "B and D", "(A), (C)", "options A, C". Possessive: a run is
# scanned once wherever it is matched from, which keeps searches linear.
_TOK = rf"[(\[]?{_LABEL}(?![A-Za-z0-9])[)\]]?"
_SEP = r"(?:\s*[,&/]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_RUN = (
    r"(?:(?:the\s+)?(?:options?|choices?|candidates?|answers?|letters?|labels?)\s+)?"
    rf"(?P<run>{_TOK}(?:{_SEP}{_TOK})*+)"
)
_ALNUM = _Pattern(r"[A-Za-z0-9]+")
_SEP_WORDS = frozenset({"and", "or"})


@dataclass(frozen=True, slots=True)
class _Vocab:
    """The polarity words a parse knows: the task's, the bundled templates' and the
    caller's; ``phrases``: the caller's words of several words ("fails to meet")."""

    positive: frozenset[str]
    negative: frozenset[str]
    phrases: tuple[tuple[tuple[str, ...], int], ...] = ()

    @classmethod
    def of(cls, words: tuple[str, str] | None, task: str = "choice") -> _Vocab:
        positive, negative = _TASK_WORDS[task]
        if words is None:
            return cls(positive, negative)
        mine = [" ".join(word.lower().split()) for word in words]
        phrases = tuple(
            (tuple(word.split()), sign)
            for word, sign in zip(mine, (1, -1), strict=True)
            if " " in word
        )
        return cls(positive | {mine[0]}, negative | {mine[1]}, phrases)

    def sign(self, word: str, *, negated: bool = False) -> int:
        word = word.lower()
        sign = 1 if word in self.positive else -1 if word in self.negative else 0
        return -sign if negated else sign

    def verb_sign(self, match: re.Match[str]) -> int:
        """The sign of a ``_VERB_ADJ`` match: "are incorrect" -1, "is not correct" -1."""
        return self.sign(match.group("adj"), negated=_negated(match))

    def phrase_sign(self, words: Sequence[str], allowed: frozenset[str]) -> int | None:
        """The sign of a short phrase ("incorrect options", "not correct", "fails to
        meet"); None when a word is neither a polarity word nor in ``allowed``, or both
        polarities occur."""
        signs: set[int] = set()
        i = 0
        while i < len(words):
            phrase = next(
                ((len(p), sign) for p, sign in self.phrases if tuple(words[i : i + len(p)]) == p),
                None,
            )
            if phrase is not None:
                signs.add(phrase[1])
                i += phrase[0]
                continue
            if (
                words[i] in _FAIL_WORDS
                and tuple(words[i + 1 : i + 2]) == ("to",)
                and self.sign(words[i + 2] if i + 2 < len(words) else "") > 0
            ):  # "fails to meet"
                signs.add(-1)
                i += 3
                continue
            sign = self.sign(words[i], negated=i > 0 and words[i - 1] == "not")
            if sign:
                signs.add(sign)
            elif words[i] not in allowed:
                return None
            i += 1
        if len(signs) > 1:
            return None
        return signs.pop() if signs else 0


_FAIL_WORDS = frozenset({"fail", "fails", "failed"})


def _negated(match: re.Match[str]) -> bool:
    return bool(match.group("nt")) ^ bool(match.group("neg")) ^ bool(match.group("neg2"))


# -- the result, and the order of the places -------------------------------------------


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
    disagreement: bool = False
    """The answer named a candidate by a label and a text that disagree ('The answer is
    "C) 1 : 1"' where C is "1 : 6"): it was not read, and the parse failed."""
    copied: bool = False
    """Text copied from the item (``echo``) stood in the reply with an answer's words
    ("The correct option is E." restated): it was not read, whatever the result."""


_FAILED = ParseResult((), ParseStatus.FAILED, None)


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one place of a reply says: a label set (empty: "none") and where."""

    labels: frozenset[str]
    span: tuple[int, int] | None
    """``[start, end)`` in the text read, tight around the labels; None: not one place."""
    inverted: bool = False
    """``labels`` are the labels *not* named: "all" is ``()`` inverted, "all except B"
    ``("B",)`` inverted. Nothing reads every label until the parse's result is built,
    so "all except" costs nothing per label, however often a reply says it."""
    disagrees: bool = False
    """A label and a candidate text disagree here: the answer is not read."""
    void: bool = False
    """This place is the answer but says nothing readable (verdict tags that disagree)."""

    @property
    def names_some(self) -> bool:
        """Whether the reading may name a label (it is not a plain "none")."""
        return self.inverted or bool(self.labels)

    @property
    def value(self) -> tuple[frozenset[str], bool]:
        return self.labels, self.inverted


def _union(readings: Iterable[_Reading]) -> tuple[frozenset[str], bool]:
    """The labels that readings name together, as ``(labels, inverted)``."""
    named: set[str] = set()
    excluded: frozenset[str] | None = None
    for reading in readings:
        if reading.inverted:
            excluded = reading.labels if excluded is None else excluded & reading.labels
        else:
            named |= reading.labels
    if excluded is None:
        return frozenset(named), False
    return excluded - named, True


@dataclass(frozen=True, slots=True)
class _Context:
    """What every reader of one parse needs."""

    keys: Mapping[str, str]
    labels: Sequence[str]
    texts: _Texts
    vocab: _Vocab
    leg: int
    """+1 the direct leg, -1 the reverse leg, 0 unknown (choice only)."""
    task: str

    @property
    def pair(self) -> bool:
        return self.task == "pairwise"


_NONE_WORD = _Pattern(r"\bnone\b", re.IGNORECASE)
_QUOTED = _Pattern(r"[\"“'`]([^\"”'`\n]{1,200})[\"”'`]")


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
    """
    if task not in TASKS:
        raise ValueError(f"task: unknown task {task!r}; use choice, pairwise or checklist")
    if text is None or not text.strip():
        return _FAILED
    echoed = detect_echo(text, labels)
    read, read_at, text_at = text, list[int](), list[int]()
    if echoed:
        read, read_at, text_at = _own_lines(text, _echo_lines([*echo, *prompt]))
    leg = 0 if polarity is None else 1 if polarity is Polarity.DIRECT else -1
    if task != "choice" and not leg:
        leg = 1  # a pair or a checklist without a polarity: the direct question
    keys = _keys_of(labels)
    ctx = _Context(keys, labels, _Texts(labels, texts), _Vocab.of(words, task), leg, task)
    copied = False
    if any(echo) or any(prompt):
        reply = _Words(read)  # worked out once for both, unless the first blanks some
        read, copied = _blank_copies(reply, echo, ctx)
        read, _ = _blank_copies(_Words(read) if copied else reply, prompt, ctx)
    view = _name_labels(read, ctx, nouns)
    result = _parse(view.text, ctx)
    return ParseResult(
        result.labels,
        result.status,
        result.method,
        echoed,
        _map_span(view.original(result.span), read_at, text_at),
        result.disagreement,
        copied,
    )


def _parse(text: str, ctx: _Context) -> ParseResult:
    if not text.strip():
        return _FAILED

    # 1. a JSON object that holds an answer
    found = _read_json(text, ctx)
    opposite = found.opposite
    if found.said:
        return _result(found.said[-1][1], ParseMethod.STRUCTURED, ctx)

    # 2. the latest of an answer tag, a verdict tag and an answer line that says
    # something readable ("<think>... Answer: A?</think> <answer>B</answer>" is B)
    tags = _read_tags(text, ctx)
    opposite = opposite or tags.opposite
    line, line_opposite = _answer_line(text, ctx)
    opposite = opposite or line_opposite
    formal: list[tuple[int, _Reading, ParseMethod]] = []
    if tags.said:
        tag = tags.said[-1][1]
        formal.append(((tag.span or (0, 0))[0], tag, ParseMethod.ANSWER_TAG))
    verdict = _read_verdicts(text, ctx)
    if verdict is not None:
        formal.append((*verdict, ParseMethod.VERDICT_TAG))
    if line is not None:
        formal.append((*line, ParseMethod.FINAL_LINE))
    if formal:
        _, reading, method = max(formal, key=lambda place: place[0])
        return _result(reading, method, ctx)

    # 3. a heading in the leg's own words: "Incorrect: B, D"
    found = _read_headings(text, ctx)
    opposite = opposite or found.opposite
    if found.said:
        return _result(found.said[-1][1], ParseMethod.HEADING, ctx)

    # 4. the whole reply is an answer: "none", "C, D", "Both.", "PASS"
    lo, hi = _strip_bounds(text, 0, len(text))
    if _NONE_ONLY.fullmatch(text, lo, hi):
        span = _strip_bounds(text, lo, hi, _NONE_STRIP)
        return _result(_Reading(frozenset(), span), ParseMethod.NONE_WORD, ctx)
    listed = _labels_only(text, 0, len(text), ctx.keys)
    if listed is not None:
        return _result(listed, ParseMethod.LABEL_FORMS, ctx)
    if len(ctx.labels) == 1 and (status := _status_only(text, lo, hi, ctx)) is not None:
        resolved = _resolve([status], ctx)
        if isinstance(resolved, _Reading):
            return _result(resolved, ParseMethod.PER_CANDIDATE, ctx)

    # 5. the conclusion in prose, else the candidates' statuses
    claims = _Claims(text, ctx)
    concluded = claims.conclusion()
    opposite = opposite or claims.opposite
    if concluded is not None:
        return _result(concluded, ParseMethod.LABEL_FORMS, ctx, empty=ParseMethod.NONE_WORD)
    if claims.statuses:
        resolved = _resolve(claims.statuses, ctx)
        if isinstance(resolved, _Reading):
            method = ParseMethod.PER_CANDIDATE if claims.structured else ParseMethod.LABEL_FORMS
            return _result(resolved, method, ctx)
        opposite = opposite or resolved
    if opposite or claims.conflict:
        return _FAILED  # an answer to the other question, or conclusions that disagree
    if ctx.task == "pairwise":
        return _FAILED

    # 6. loose forms (choice, in a reply that was not cut off), then candidate texts
    if ctx.task == "choice" and not _cut_off(text):
        loose = _loose_forms(text, ctx)
        if loose:
            return _joint_result(loose, ParseMethod.LABEL_FORMS, ctx)
    return _candidate_texts(text, ctx)


def _result(
    reading: _Reading, method: ParseMethod, ctx: _Context, *, empty: ParseMethod | None = None
) -> ParseResult:
    """The result of a reading; ``empty``: the method when it names nothing."""
    if reading.void:
        return _FAILED
    if reading.disagrees:
        return ParseResult((), ParseStatus.FAILED, None, disagreement=True)
    span = reading.span if reading.span and reading.span[0] < reading.span[1] else None
    if reading.inverted:
        labels = tuple(filterfalse(reading.labels.__contains__, ctx.labels))
    else:
        labels = _ordered(reading.labels, ctx.labels)
    if ctx.pair and (not labels or len(labels) == len(ctx.labels)):
        # a tie: both responses are the best, neither is the worse
        labels = tuple(ctx.labels) if ctx.leg >= 0 else ()
    if not labels:
        return ParseResult((), ParseStatus.NONE, empty or method, span=span)
    return ParseResult(labels, ParseStatus.OK, method, span=span)


def _joint_result(readings: Sequence[_Reading], method: ParseMethod, ctx: _Context) -> ParseResult:
    """The labels of readings from several places; a span only when they are one place."""
    if any(reading.disagrees for reading in readings):
        return ParseResult((), ParseStatus.FAILED, None, disagreement=True)
    labels, inverted = _union(readings)
    spans = {reading.span for reading in readings if reading.names_some} or {
        reading.span for reading in readings
    }
    span = spans.pop() if len(spans) == 1 else None
    return _result(_Reading(labels, span, inverted), method, ctx, empty=ParseMethod.NONE_WORD)


def _loose_forms(text: str, ctx: _Context) -> list[_Reading]:
    """ "c)", "(C)", "option C", numbered list lines "1. C", anywhere (choice only)."""
    loose: list[_Reading] = []
    for match in _MARKED.finditer(text):
        group = match.lastgroup or "p"
        label = ctx.keys.get(match.group(group).upper())
        if label is not None:
            disagrees = group in ("p", "r") and _disagrees(text, match.end(), label, ctx)
            loose.append(_Reading(frozenset({label}), match.span(group), disagrees=disagrees))
    for match in _NUMBERED.finditer(text):
        label = ctx.keys.get(match.group("n").upper())
        if label is not None:
            loose.append(_Reading(frozenset({label}), match.span("n")))
    return loose


def _candidate_texts(text: str, ctx: _Context) -> ParseResult:
    whole = ctx.texts.exact(text)
    if whole:
        span = _strip_bounds(text, 0, len(text), _NORM_STRIP + "\t\r\n")
        return _result(_Reading(frozenset(whole), span), ParseMethod.CANDIDATE_TEXT, ctx)
    places: list[_Reading] = []
    for match in _QUOTED.finditer(text):
        lo, hi = match.span(1)
        marked = _marked_labels(text, lo, hi, ctx)
        exact = ctx.texts.exact(match.group(1))
        if marked is not None:
            places.append(marked)
        elif exact:
            places.append(_Reading(frozenset(exact), _strip_bounds(text, lo, hi, _NORM_STRIP)))
    if not places:
        for match in _ANCHORED.finditer(text):
            lo, hi = match.span("span")
            if not text[lo:hi].strip():  # "The answer is:" and the answer below
                lo, hi = _next_line(text, hi) or (hi, hi)
            inside = ctx.texts.inside(text[lo:hi])
            if inside:
                span = _strip_bounds(text, lo, hi, _NORM_STRIP + "\t\r\n")
                places.append(_Reading(frozenset(inside), span))
    if places:
        return _joint_result(places, ParseMethod.CANDIDATE_TEXT, ctx)
    none = _NONE_WORD.search(text)
    if none is not None and len(text) < 80:
        return _result(_Reading(frozenset(), none.span()), ParseMethod.NONE_WORD, ctx)
    return _FAILED


# -- the reply as read: copies blanked, names written as labels -------------------------

# The sentence every template's prompt has, in any wording (v0-v4, paraphrases, tasks).
_ECHO_SENTENCE = _Pattern(
    r"please\s+output\s+the\s+(?:[\w-]+\s+ones?|criteria|claims)\b", re.IGNORECASE
)


def _echo_lines(echo: Sequence[str]) -> set[str]:
    return {key for text in echo for line in text.splitlines() if (key := _line_key(line))}


def detect_echo(text: str | None, labels: Sequence[str]) -> bool:
    """Whether a reply repeats the prompt: it has the prompt's "please output the
    ... ones." sentence and names more than half of the options as ``X)``, the
    way the prompt lists them. Linear in the reply's length."""
    if not text or not _ECHO_SENTENCE.search(text):
        return False
    keys = _keys_of(labels)
    named = {
        label
        for match in _MARKED.finditer(text)
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
        if _line_key(line) in copied:
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


def _line_key(line: str) -> str:
    return " ".join(line.split())


_WORD_RUN = _Pattern(r"\w+")
# Where a sentence ends inside a line; and a sentence or a clause after a colon.
_SENTENCE_END = _Pattern(r"[.!?]+(?=\s|$)")
_PIECE_END = _Pattern(r"[.!?]+(?=\s|$)|:(?=\s)")
# Words that make a copied stretch an answer (besides the task's polarity words).
_CUE_WORDS = frozenset(
    {
        "answer", "answers", "verdict", "result", "winner", "decision", "conclusion",
        "choice", "prefer", "preferred", "met", "unmet", "pass", "passed", "fail",
        "failed", "fails", "supported", "unsupported", "satisfied", "incorrect",
        "correct", "wrong", "right", "better", "worse",
    }
)  # fmt: skip
_CUE_MARKS = ("[[", "{", "<", "✓", "✗", "✔", "✘", "❌", "✅")
_CUE_MARK = _Pattern("|".join(re.escape(mark) for mark in _CUE_MARKS))
_QUANT_WORDS = frozenset({"all", "none", "both", "neither", "tie", "every", "nothing"})


@dataclass(slots=True)
class _EchoIndex:
    """What the judge was shown: every run of ``COPY_WORDS`` words, every line, sentence
    and clause (as lower-case words), and the whole text (lower case, one space between
    words) for stretches too short to trust their words alone."""

    grams: set[tuple[str, ...]]
    pieces: set[str]
    echo: Sequence[str]
    _flat: str | None = None

    @classmethod
    def of(cls, echo: Sequence[str]) -> _EchoIndex:
        grams: set[tuple[str, ...]] = set()
        pieces: set[str] = set()
        for text in echo:
            if text:
                own_grams, own_pieces = _text_index(text)
                grams |= own_grams
                pieces |= own_pieces
        pieces.discard("")
        return cls(grams, pieces, echo)

    def holds(self, text: str, seen: dict[str, bool]) -> bool:
        """Whether the echo holds ``text`` as written (marks included, case and spacing
        aside): "[[A]]" copied, not only the word "a". ``seen``: the reply's lookups so
        far; past ``MAX_SHORT_COPIES`` of them a stretch counts as held. (Per reply: the
        index is cached and shared, and a bound kept on it would make a reply's reading
        depend on the replies read before it.)"""
        key = " ".join(text.casefold().split())
        if key not in seen:
            if len(seen) >= MAX_SHORT_COPIES:
                return True
            if self._flat is None:
                self._flat = "\x00".join(" ".join(t.casefold().split()) for t in self.echo)
            seen[key] = key in self._flat
        return seen[key]


_QUICK_WORDS = 64
"""Replies of at most this many words (most answers) are first tested against the echo's
flattened words: when none of their runs or pieces occurs there at all, nothing in them
is a copy, and the echo need not be indexed."""


@functools.lru_cache(maxsize=256)
def _flat_echo(echo: tuple[str, ...]) -> str:
    """The echo's words, lower case, one space apart, each text between spaces and the
    texts apart by a NUL (so a word run is looked for as `` run ``, whole words)."""
    texts = (" ".join(_WORD_RUN.compiled.findall(t.casefold())) for t in echo if t)
    return "".join(f" {words} \x00" for words in texts)


def _may_hold(words: _Words, echo: tuple[str, ...]) -> bool:
    """Whether the echo may hold a copied run or piece of the reply: each run of
    ``COPY_WORDS`` words and each piece is looked for in the flattened echo (a superset
    of what the index finds: a miss here is a miss there)."""
    flat = _flat_echo(echo)
    return any(probe in flat for probe in words.probes)


@functools.lru_cache(maxsize=256)
def _echo_index(echo: tuple[str, ...]) -> _EchoIndex:
    """The index of an echo (cached: every leg of an item has the same echo, and every
    item of a shape the same prompt frame)."""
    return _EchoIndex.of(echo)


@functools.lru_cache(maxsize=4096)
def _text_index(text: str) -> tuple[frozenset[tuple[str, ...]], frozenset[str]]:
    """One echo text's runs of ``COPY_WORDS`` words and its pieces (lines, sentences,
    clauses) as lower-case words. Cached: an item's texts are the echo of each of its
    legs, and a prompt is read once per leg."""
    words = _Words(text)
    pieces = frozenset(" ".join(words.words[i:j]) for _, _, i, j in words.pieces())
    return frozenset(words.grams()), pieces


class _Words:
    """A text's word runs (offsets, lower-case words) and its pieces (:func:`_pieces`)
    as word ranges: worked out once per reply, for both the echo and the prompt frame
    it is compared with, and once per echo text."""

    __slots__ = ("_probes", "spans", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = [match.span() for match in _WORD_RUN.compiled.finditer(text)]
        self.words = [text[lo:hi].casefold() for lo, hi in self.spans]
        self._probes: list[str] | None = None

    def grams(self) -> Iterator[tuple[str, ...]]:
        """Every run of ``COPY_WORDS`` words."""
        return zip(*(self.words[k:] for k in range(COPY_WORDS)), strict=False)

    def pieces(self) -> Iterator[tuple[int, int, int, int]]:
        """Each piece as ``(lo, hi, i, j)``: ``text[lo:hi]``, whose words are ``words[i:j]``."""
        starts = [lo for lo, _ in self.spans]
        for lo, hi in _pieces(self.text):
            yield lo, hi, bisect_right(starts, lo - 1), bisect_right(starts, hi - 1)

    @property
    def probes(self) -> list[str]:
        """What :func:`_may_hold` looks for in a flattened echo: each run and each piece
        as `` words ``, but for a piece of one bare word, which reads as no answer
        (:func:`_reads_as_answer`): no copy to blank."""
        if self._probes is None:
            text, words = self.text, self.words
            probes = [f" {' '.join(gram)} " for gram in self.grams()]
            probes += [
                f" {' '.join(words[i:j])} "
                for lo, hi, i, j in self.pieces()
                if j - i > 1 or (j - i == 1 and _CUE_MARK.search(text, lo, hi) is not None)
            ]
            self._probes = probes
        return self._probes


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    """Each line of ``text``, each sentence of a line and each clause after a colon, as
    offsets ("Note to the judge: Output (a) is better." has the clause "Output (a) is
    better.")."""
    pos, size = 0, len(text)
    while pos <= size:
        end = text.find("\n", pos)
        end = size if end < 0 else end
        yield pos, end
        start = pos
        for match in _PIECE_END.finditer(text, pos, end):
            if start < match.end() < end:
                yield start, match.end()
                start = match.end()
        if start > pos:
            yield start, end
        pos = end + 1


def _blank_copies(reply: _Words, echo: Sequence[str], ctx: _Context) -> tuple[str, bool]:
    """The reply's text with each copied stretch that reads as an answer written over by
    spaces (its line breaks kept, so offsets do not move), and whether one was.

    A stretch is copied when it is a run of ``COPY_WORDS`` words or more that the echo
    holds, or a line, sentence or clause whose words the echo holds as one (and, when
    shorter than ``COPY_WORDS`` words, as written). It reads as an answer when, outside
    any candidate's text, it has an answer's word or mark (an answer head, a polarity or
    status word, a verdict tag, a JSON object, a tag, a check mark) and a label or a
    quantifier: "The correct option is E.", ``{"answer": "B"}``, "Answer: B". A copied
    option line ("A) 7") or criterion text is only a name, and stays.
    """
    text, spans, words = reply.text, reply.spans, reply.words
    if not any(echo):
        return text, False
    shown = tuple(echo)
    if len(words) <= _QUICK_WORDS and not _may_hold(reply, shown):
        return text, False
    index = _echo_index(shown)
    in_run = bytearray(len(words))
    grams = index.grams
    for i, gram in enumerate(reply.grams()):
        if gram in grams:
            in_run[i : i + COPY_WORDS] = b"\x01" * COPY_WORDS
    units: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if in_run[i]:
            j = i
            while j < len(words) and in_run[j]:
                j += 1
            units.append((i, j))
            i = j
        else:
            i += 1
    for _, _, i, j in reply.pieces():
        if j > i and " ".join(words[i:j]) in index.pieces:
            units.append((i, j))
    blanks: list[tuple[int, int]] = []
    seen: dict[str, bool] = {}
    for i, j in units:
        stretch = _widen(text, spans[i][0], spans[j - 1][1])
        if _reads_as_answer(text, stretch, spans, words, i, j, ctx) and (
            j - i >= COPY_WORDS or index.holds(text[stretch[0] : stretch[1]], seen)
        ):
            blanks.append(stretch)
    if not blanks:
        return text, False
    out: list[str] = []
    pos = 0
    for lo, hi in sorted(blanks):
        lo = max(lo, pos)
        if hi <= lo:
            continue
        out.append(text[pos:lo])
        out.append("".join("\n" if char == "\n" else " " for char in text[lo:hi]))
        pos = hi
    out.append(text[pos:])
    return "".join(out), True


def _reads_as_answer(
    text: str,
    stretch: tuple[int, int],
    spans: list[tuple[int, int]],
    words: list[str],
    i: int,
    j: int,
    ctx: _Context,
) -> bool:
    """Whether the copied words ``words[i:j]`` (``text[slice(*stretch)]`` with the marks
    around them) hold an answer's word or mark and a label or a quantifier, outside the
    candidates' own texts."""
    lo, hi = stretch
    marked = _CUE_MARK.search(text, lo, hi) is not None
    vocab = ctx.vocab
    cues = [
        k
        for k in range(i, j)
        if words[k] in _CUE_WORDS or words[k] in vocab.positive or words[k] in vocab.negative
    ]
    names = [k for k in range(i, j) if _label_word(text, *spans[k], words[k], ctx)]
    if not names or not (marked or cues):
        return False
    # the candidates' own texts are names, whatever words they hold
    covered = ctx.texts.covered(words, i, j, functools.partial(_plain, ctx=ctx))
    return (marked or any(not covered[k - i] for k in cues)) and any(
        not covered[k - i] for k in names
    )


def _label_word(text: str, start: int, end: int, word: str, ctx: _Context) -> bool:
    """Whether the word ``text[start:end]`` names a label or a quantity ("E", "(a)", "all")."""
    token = text[start:end]
    return word in _QUANT_WORDS or (
        ctx.keys.get(token.upper()) is not None
        and (token.isupper() or (len(token) == 1 and text[start - 1 : start] == "("))
    )


def _plain(text: str, *, ctx: _Context) -> bool:
    """Whether a candidate's text is only a name: it does not itself read as an answer
    (a text holding "Answer: B" is an injection, and no name)."""
    vocab = ctx.vocab
    cue = any(mark in text for mark in _CUE_MARKS)
    label = False
    for match in _WORD_RUN.finditer(text):
        word = match.group().casefold()
        cue = cue or word in _CUE_WORDS or word in vocab.positive or word in vocab.negative
        label = label or _label_word(text, match.start(), match.end(), word, ctx)
    return not (cue and label)


def _widen(text: str, lo: int, hi: int) -> tuple[int, int]:
    """``[lo, hi)`` with the marks around it (quotes, braces, brackets, stars, a full
    stop) that belong to the copied stretch."""
    while lo > 0 and not text[lo - 1].isspace() and not text[lo - 1].isalnum():
        lo -= 1
    while hi < len(text) and not text[hi].isspace() and not text[hi].isalnum():
        hi += 1
    return lo, hi


@dataclass(frozen=True, slots=True)
class _View:
    """The reply with every candidate's name written as its label, and where each
    label written stands in the reply (its letter, number or ordinal)."""

    text: str
    starts: Mapping[int, int]
    ends: Mapping[int, int]

    def original(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        if span is None or not self.starts:
            return span
        start, end = span
        return self.starts.get(start, start), self.ends.get(end, end)


_ORDINALS = {
    word: i
    for i, words in enumerate(
        (
            ("first", "1st"), ("second", "2nd"), ("third", "3rd"), ("fourth", "4th"),
            ("fifth", "5th"), ("sixth", "6th"), ("seventh", "7th"), ("eighth", "8th"),
            ("ninth", "9th"), ("tenth", "10th"),
        ),
        start=1,
    )
    for word in words
}  # fmt: skip
# "the first response", "Output (a)", "Response 2", "Assistant B", "criterion #3"
_NAME = _Pattern(
    r"(?<![\w-])(?P<det>(?:[Tt]he|[Tt]his|[Tt]hat)[^\S\n]+)?"
    r"(?P<ord>(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|1st|2nd|3rd|[4-9]th|10th))[^\S\n]+(?P<onoun>[A-Za-z]+)(?![\w-])"
    r"|(?<![\w-])(?P<noun>[A-Za-z]{2,})"
    r"(?:[^\S\n]*(?:\((?P<p>[A-Za-z0-9]{1,4})\)|\[(?P<b>[A-Za-z0-9]{1,4})\])"
    r"|[^\S\n]+(?:(?:#|[Nn]o\.|[Nn]umber)[^\S\n]*)?(?P<t>[A-Z][A-Z0-9]{0,3}|[0-9]{1,3})"
    r"(?![\w-]|\.\d))"
)
# More names after one: "claims 1 and 3", "Output (a) and (b)", "criteria A, C"
_NAME_MORE = _Pattern(
    r"(?:[^\S\n]*[,&/][^\S\n]*(?:and[^\S\n]+|or[^\S\n]+)?|[^\S\n]+(?:and|or)[^\S\n]+)"
    r"(?:\((?P<p>[A-Za-z0-9]{1,4})\)|(?P<t>[A-Z][A-Z0-9]{0,3}|[0-9]{1,3})(?![\w-]|\.\d))"
)
# With one candidate: "the criterion", "this claim"
_NAME_ONE = _Pattern(
    r"(?<![\w-])(?:[Tt]he[^\S\n]+(?:given|only|single)|[Tt]he|[Tt]his|[Tt]hat)[^\S\n]+"
    r"(?P<noun>[A-Za-z]+)(?![\w-])(?![^\S\n]*(?:[(\[#]|[A-Z0-9]))"
)


def _name_labels(text: str, ctx: _Context, extra: Iterable[str]) -> _View:
    """``text`` with each name of a candidate ("Output (a)", "Response 2", "the first
    response", "criterion 3") written over by the candidate's label, padded with spaces
    to the name's length. A letter or a number after a noun is the label itself when it
    is one ("Response B"), else a position among the shown labels ("Output (a)" is the
    first, "claim 2" the second). Names with choice's own nouns and a label ("option
    C") are read as they are."""
    nouns = _TASK_NOUNS[ctx.task] | {word.strip().lower() for word in extra}
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    out: list[str] = []
    pos = 0

    def write(lo: int, hi: int, token_start: int, token_end: int, label: str) -> None:
        """Write ``label`` over ``text[lo:hi]``, at its token ``[token_start,
        token_end)`` where it fits."""
        nonlocal pos
        at = min(token_start, hi - len(label))
        if at < lo:
            return
        out.append(text[pos:lo])
        out.append(" " * (at - lo) + label + " " * (hi - at - len(label)))
        starts[at] = token_start
        ends[at + len(label)] = token_end
        pos = hi

    search_at = 0
    while (match := _NAME.search(text, search_at)) is not None:
        search_at = match.end()
        if match.group("ord"):
            onoun = match.group("onoun")
            if _is_noun(onoun, nouns) or (onoun.lower() == "one" and match.group("det")):
                label = _nth_label(_ORDINALS[match.group("ord").lower()], ctx)
                if label is not None:
                    write(match.start(), match.end(), match.start("ord"), match.end("ord"), label)
            continue
        noun = match.group("noun")
        if not _is_noun(noun, nouns):
            search_at = match.start() + len(noun)  # the token may start a name itself
            continue
        native = noun.lower().rstrip("s") in _NATIVE_NOUNS
        group = "p" if match.group("p") else "b" if match.group("b") else "t"
        label = _named(match.group(group), ctx, marked=group != "t")
        if label is None:
            continue
        if not (native and match.group(group).upper() == label.upper()):
            write(match.start(), match.end(), match.start(group), match.end(group), label)
        while (more := _NAME_MORE.match(text, search_at)) is not None:
            group = "p" if more.group("p") else "t"
            label = _named(more.group(group), ctx, marked=group == "p")
            if label is None:
                break
            search_at = more.end()
            if not (native and more.group(group).upper() == label.upper()):
                lo = more.start(group) - (group == "p")
                write(
                    lo, more.end(group) + (group == "p"), more.start(group), more.end(group), label
                )
    out.append(text[pos:])
    written = "".join(out)
    if len(ctx.labels) == 1:
        written = _name_the_one(written, ctx, nouns, starts, ends)
    return _View(written, starts, ends)


def _name_the_one(
    text: str, ctx: _Context, nouns: frozenset[str], starts: dict[int, int], ends: dict[int, int]
) -> str:
    """With one candidate, "the criterion" and "this claim" name it."""
    label = ctx.labels[0]
    out: list[str] = []
    pos = 0
    for match in _NAME_ONE.finditer(text):
        lo, hi = match.span()
        at = match.start("noun")
        if not _is_noun(match.group("noun"), nouns) or at + len(label) > hi:
            continue
        out.append(text[pos:lo])
        out.append(" " * (at - lo) + label + " " * (hi - at - len(label)))
        starts[at] = at
        ends[at + len(label)] = match.end("noun")
        pos = hi
    out.append(text[pos:])
    return "".join(out)


def _is_noun(word: str, nouns: frozenset[str]) -> bool:
    word = word.lower()
    return (
        word in nouns
        or (word.endswith("s") and word[:-1] in nouns)
        or (word.endswith("es") and word[:-2] in nouns)
    )


def _nth_label(position: int, ctx: _Context) -> str | None:
    return ctx.labels[position - 1] if 1 <= position <= len(ctx.labels) else None


def _named(token: str, ctx: _Context, *, marked: bool) -> str | None:
    """The label a name's letter or number stands for: the label itself when it is one
    (in capitals, or marked "(b)"), else its position ("2", "(b)")."""
    if token.isdigit():
        return _nth_label(int(token), ctx)
    label = ctx.keys.get(token.upper())
    if label is not None and (marked or token.isupper()):
        return label
    if len(token) == 1 and token.isalpha() and (marked or token.isupper()):
        return _nth_label(ord(token.lower()) - ord("a") + 1, ctx)
    return None


# -- the places an answer is written -----------------------------------------------------

# Words of a JSON key or tag name that make it an answer ("final_answer", "labels").
_ANSWER_WORDS = frozenset(
    {
        "answer", "answers", "label", "labels", "choice", "choices", "option", "options",
        "selected", "selection", "result", "results", "final", "verdict", "prediction",
        "predictions", "output", "letter", "letters", "candidates", "ones", "winner",
        "preference", "decision", "judgment", "judgement",
    }
)  # fmt: skip
# Words a heading may have besides its polarity word ("The incorrect options:"). Not
# "is" or "are": "The correct answer is:" is a sentence, read as one.
_HEADING_WORDS = _ANSWER_WORDS | {
    "the", "my", "so", "thus", "hence", "therefore", "not", "of", "list",
    "all", "only", "one", "choice", "candidate", "which", "response", "responses",
    "criteria", "criterion", "claims", "claim", "requirements", "requirement", "items",
    "statements", "to", "by", "sources", "it", "do", "does",
}  # fmt: skip

# Horizontal whitespace only at line starts: a class that also takes newlines would
# rescan every following blank line from every line start (quadratic). Besides line
# starts, an answer may follow the end of a sentence: "C is right. Answer: C".
_ANSWER_LINE = _Pattern(
    r"(?:^(?:[^\S\n]|[>*#_`-])*|(?<=[.!?])[^\S\n]+)(?:(?:my|our)[^\S\n]+)?"
    r"(?:final[^\S\n]+)?(?:answers?|verdict|decision|judge?ment|conclusion|choice|preference"
    r"|result|outcome|grade)"
    r"\b[^\S\n*_`]*[*_`]*[^\S\n]*(?:(?:is|are)[^\S\n]*)?[:：=\-][^\S\n]*(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING = _Pattern(
    r"^(?:[^\S\n]|[>*#_`-])*(?P<head>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+){0,4})[*_`]*[^\S\n]*[:：]"
    r"[^\S\n]*(?P<rest>[^\n]*)",
    re.MULTILINE,
)
_TAG = _Pattern(
    r"<\s*(?P<tag>[A-Za-z][\w-]{0,40})\s*>(?P<body>[^<]*)<\s*/\s*(?P=tag)\s*>", re.IGNORECASE
)
# MT-Bench [[A]], [[C]] (a tie); Arena-Hard [[A>>B]], [[A=B]]; a rating [[5]] is none.
_VERDICT = _Pattern(
    r"\[\[\s*(?P<x>[A-Za-z0-9]{1,4})\s*(?:(?P<op>>>|>|=|<<|<|≫|≪)\s*(?P<y>[A-Za-z0-9]{1,4})\s*)?\]\]"
)
# Prometheus: "[RESULT] A"
_RESULT = _Pattern(r"\[RESULT\][^\S\n]*:?(?P<rest>[^\n]*)", re.IGNORECASE)
_KEY_WORD = _Pattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_OBJECT_START = _Pattern(r"\{(?=\s*[\"}])")
_JSON_SPACE = _Pattern(r"[ \t\n\r]*")
_FENCE_BEFORE = _Pattern(r"\s*(?:`{3,}[A-Za-z]*\s*)?")
_FENCE_AFTER = _Pattern(r"\s*(?:`{3,}\s*)?")
_DECODER = json.JSONDecoder()
_JSON_LIST_STRIP = " \t\r\n[]\"'"
# A JSON key that names a candidate: "A", "b", "2", "Response A", "score_a"
_KEY_NAME = _Pattern(
    r"\s*(?:(?:score|rating|points|response|output|assistant|model|candidate|criterion|claim"
    r"|option|item|requirement)[\s_-]*)?(?:\(\s*)?(?P<t>[A-Za-z][A-Za-z0-9]{0,3}|\d{1,3})"
    r"(?:\s*\))?(?:[\s_-]*(?:score|rating|points))?\s*",
    re.IGNORECASE,
)
# The fields of a record that name its candidate and give its status.
_RECORD_NAMES = frozenset(
    {
        "criterion", "claim", "id", "label", "name", "key", "item", "option", "response",
        "candidate", "requirement", "statement", "letter", "output",
    }
)  # fmt: skip
_STATUS_KEYS = frozenset(
    {
        "status", "verdict", "result", "value", "answer", "decision", "judgment",
        "judgement", "score", "rating", "label", "outcome", "assessment",
    }
)  # fmt: skip


@dataclass(slots=True)
class _Found:
    """Places read by one rule, with their signs, and whether one answered the other
    question (a place of the sign opposite to the leg's)."""

    said: list[tuple[int, _Reading]] = field(default_factory=list)
    opposite: bool = False


def _admitted(signs: Iterable[int], leg: int) -> frozenset[int]:
    """The signs a parse reads, given the signs of the places found."""
    if leg:
        return frozenset({0, leg})
    present = set(signs)
    return frozenset({0}) if {1, -1} <= present else frozenset({-1, 0, 1})


def _admit(out: _Found, leg: int) -> _Found:
    """Keep the places of the signs the parse reads (see :func:`_admitted`)."""
    keep = _admitted((sign for sign, _ in out.said), leg)
    out.opposite = out.opposite or any(sign == -leg != 0 for sign, _ in out.said)
    out.said = [(sign, reading) for sign, reading in out.said if sign in keep]
    return out


# -- JSON objects and tags -------------------------------------------------------------


def _signed(sign: int, reading: _Reading, ctx: _Context) -> int:
    """A place's sign, none for a pair's tie: "Better: tie" answers both questions."""
    return 0 if ctx.pair and _tie_free(reading, ctx) == (frozenset(), False) else sign


def _name_sign(name: str, ctx: _Context) -> tuple[int, bool] | None:
    """A JSON key's or tag's sign, and whether it names an answer ("final_answer",
    "incorrect_options"); None when it names both polarities."""
    words = [word.lower() for word in _KEY_WORD.compiled.findall(name)]
    signs = {
        ctx.vocab.sign(word, negated=i > 0 and words[i - 1] == "not")
        for i, word in enumerate(words)
    } - {0}
    if len(signs) > 1:
        return None
    sign = signs.pop() if signs else 0
    return sign, sign != 0 or any(word in _ANSWER_WORDS for word in words)


def _json_value(text: str, value: Any, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """A JSON value at ``text[lo:hi]`` as an answer: a string or a list of strings."""
    if isinstance(value, str):
        if "\\" not in text[lo:hi]:
            said = _read_answer(text, lo + 1, hi - 1, ctx)
            return said[1] if said is not None else None
        said = _read_answer(value, 0, len(value), ctx)  # escapes: offsets are the value's
        if said is None:
            return None
        return _Reading(said[1].labels, (lo + 1, hi - 1), said[1].inverted, said[1].disagrees)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    readings: list[_Reading] = []
    for item in value:
        said = _read_answer(item, 0, len(item), ctx)
        if said is None:
            return None
        readings.append(said[1])
    span = _strip_bounds(text, lo, hi, _JSON_LIST_STRIP)
    labels, inverted = _union(readings)
    disagrees = any(reading.disagrees for reading in readings)
    return _Reading(labels, span if span[0] < span[1] else (lo, hi), inverted, disagrees)


def _skip_space(text: str, pos: int) -> int:
    space = _JSON_SPACE.match(text, pos)
    return space.end() if space is not None else pos


def _members(text: str, start: int) -> tuple[list[tuple[str, Any, int, int]], int] | None:
    """The top-level members of the JSON object at ``text[start]`` (key, value and
    the value's offsets) and where the object ends; None when it is not one."""
    members: list[tuple[str, Any, int, int]] = []
    pos = _skip_space(text, start + 1)
    if text.startswith("}", pos):
        return members, pos + 1
    try:
        while True:
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _skip_space(text, pos)
            if not isinstance(key, str) or not text.startswith(":", pos):
                return None
            value_start = _skip_space(text, pos + 1)
            value, pos = _DECODER.raw_decode(text, value_start)
            members.append((key, value, value_start, pos))
            pos = _skip_space(text, pos)
            if text.startswith("}", pos):
                return members, pos + 1
            if not text.startswith(",", pos):
                return None
            pos = _skip_space(text, pos + 1)
    except (ValueError, RecursionError):  # not JSON; nested too deep to decode
        return None


def _read_json(text: str, ctx: _Context) -> _Found:
    """The last JSON object of the reply that holds an answer, whatever its key.

    Keys in the leg's own words ("incorrect") rank first, then answer keys
    ("answer", "labels", "choice") and, without a polarity, keys in either word,
    then any other key whose value reads as labels, but only in an object that is
    the whole reply (perhaps fenced): an object quoted in prose, ``{"grade": "A"}``,
    is not an answer for its key alone. Keys that name candidates (``{"A": true}``,
    ``{"Response B": 6}``) and lists of records (``{"criteria": [{"id": "A", "met":
    true}]}``) give per-candidate statuses, read as answer keys. An object whose best
    keys disagree is not read.
    """
    out = _Found()
    starts = [match.start() for match in _OBJECT_START.finditer(text)]
    for start in reversed(starts[-MAX_JSON_TRIES:]):
        decoded = _members(text, start)
        if decoded is None or not decoded[0]:
            continue
        members, end = decoded
        alone = bool(_FENCE_BEFORE.fullmatch(text, 0, start) and _FENCE_AFTER.fullmatch(text, end))
        places: list[tuple[int, int, _Reading]] = []
        statuses: list[_Status] = []
        for key, value, lo, hi in members:
            named = _name_sign(key, ctx)
            if len(ctx.labels) == 1 and isinstance(value, bool) and named and named[0]:
                # one criterion: {"met": true}
                sign = named[0] * (1 if value else -1)
                statuses.append(_Status(ctx.labels[0], sign, (lo, hi), lo, True))
                continue
            if named is not None and not named[1]:
                label = _key_candidate(key, ctx)
                status = _value_status(value, ctx) if label is not None else None
                if label is not None and status is not None:
                    sign, score = status
                    span = (lo + 1, hi - 1) if isinstance(value, str) else (lo, hi)
                    statuses.append(_Status(label, sign, span, lo, True, score))
                    continue
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                statuses.extend(_records(value, lo, ctx))
                continue
            reading = _json_value(text, value, lo, hi, ctx) if named is not None else None
            if named is not None and reading is not None and (named[1] or alone):
                places.append((_signed(named[0], reading, ctx), 2 if named[1] else 1, reading))
        if statuses:
            resolved = _resolve(statuses, ctx)
            if isinstance(resolved, _Reading):
                places.append((0, 2, resolved))
            else:
                out.opposite = out.opposite or resolved
        keep = _admitted((sign for sign, _, _ in places), ctx.leg)
        out.opposite = out.opposite or any(sign == -ctx.leg != 0 for sign, _, _ in places)
        ranked = [
            (3 if sign and sign == ctx.leg else rank, reading)
            for sign, rank, reading in places
            if sign in keep
        ]
        if not ranked:
            continue
        best = max(rank for rank, _ in ranked)
        readings = [reading for rank, reading in ranked if rank == best]
        if len({reading.value for reading in readings}) == 1:
            out.said = [(0, readings[-1])]
            return out
    return out


def _key_candidate(key: str, ctx: _Context) -> str | None:
    """The candidate a JSON key names: a label, a position ("2", "b"), a name ("Response
    A", "score_a") or a candidate's text."""
    match = _KEY_NAME.fullmatch(key)
    if match is not None:
        return _named(match.group("t"), ctx, marked=True)
    found = ctx.texts.exact(key)
    return next(iter(found)) if len(found) == 1 else None


def _value_status(value: Any, ctx: _Context, header: int = 0) -> tuple[int, float | None] | None:
    """A JSON value as a candidate's status: its sign (and, for a pair, a score).
    ``true``/``false`` (and 1/0) answer ``header``'s question, else the leg's."""
    if isinstance(value, bool):
        return (header or ctx.leg or 1) * (1 if value else -1), None
    if isinstance(value, int | float):
        if ctx.pair:
            return 0, float(value)
        if value in (0, 1):
            return (header or ctx.leg or 1) * (1 if value else -1), None
        return None
    if isinstance(value, str):
        sign = _status_sign(value, 0, len(value), ctx, header)
        return (sign, None) if sign else None
    if isinstance(value, dict):
        for key, inner in value.items():
            if not isinstance(key, str):
                continue
            named = _name_sign(key, ctx)
            if key.lower() in _STATUS_KEYS or (named is not None and named[0]):
                return _value_status(inner, ctx, named[0] if named else 0)
    return None


def _records(records: list[dict[str, Any]], at: int, ctx: _Context) -> list[_Status]:
    """Statuses from records that name a candidate and give its status:
    ``[{"criterion": "A", "met": true}, {"claim": "2", "supported": false}]``."""
    out: list[_Status] = []
    for record in records:
        label: str | None = None
        status: tuple[int, float | None] | None = None
        for key, value in record.items():
            if not isinstance(key, str):
                continue
            if key.lower() in _RECORD_NAMES and isinstance(value, str | int) and label is None:
                label = _key_candidate(str(value), ctx)
                if label is not None:
                    continue
            if status is None:
                named = _name_sign(key, ctx)
                if key.lower() in _STATUS_KEYS or (named is not None and named[0]):
                    status = _value_status(value, ctx, named[0] if named else 0)
        if label is None or status is None:
            return []  # not a list of statuses
        out.append(_Status(label, status[0], None, at, True, status[1]))
    return out


def _read_tags(text: str, ctx: _Context) -> _Found:
    """``<answer>A, C</answer>`` and tags named in either polarity (``<incorrect>``)."""
    out = _Found()
    for match in _TAG.finditer(text):
        named = _name_sign(match.group("tag"), ctx)
        if named is None or not named[1]:
            continue
        said = _read_answer(text, match.start("body"), match.end("body"), ctx)
        if said is not None:
            out.said.append((_signed(named[0] or said[0], said[1], ctx), said[1]))
    return _admit(out, ctx.leg)


def _read_verdicts(text: str, ctx: _Context) -> tuple[int, _Reading] | None:
    """Verdict tags (``[[A]]``, ``[[A>B]]``, ``[RESULT] A``): where the last one is and
    what they say; a void reading when they disagree (no verdict)."""
    readings: list[tuple[int, _Reading]] = []
    for match in _VERDICT.finditer(text):
        reading = _verdict(match, ctx)
        if reading is not None:
            readings.append((match.start(), reading))
    for match in _RESULT.finditer(text):
        said = _read_answer(text, match.start("rest"), match.end("rest"), ctx)
        if said is not None and not (said[0] and said[0] == -ctx.leg):
            readings.append((match.start(), said[1]))
    if not readings:
        return None
    readings.sort(key=lambda place: place[0])
    if len({_tie_free(reading, ctx) for _, reading in readings}) > 1:
        return readings[-1][0], _Reading(frozenset(), None, void=True)
    return readings[-1]


def _tie_free(reading: _Reading, ctx: _Context) -> tuple[frozenset[str], bool]:
    """What a reading says, a pair's tie being one value however it is written."""
    if ctx.pair and (not reading.names_some or (not reading.inverted and len(reading.labels) > 1)):
        return frozenset(), False
    return reading.value


def _verdict(match: re.Match[str], ctx: _Context) -> _Reading | None:
    """One verdict tag: ``[[A]]`` names A (the answer to the question asked); for a pair,
    ``[[C]]`` and ``[[A=B]]`` are a tie and ``[[A>B]]`` names the winner on the direct
    leg and the loser on the reverse leg."""
    first = ctx.keys.get(match.group("x").upper())
    op = match.group("op")
    if op is None:
        if first is not None:
            return _Reading(frozenset({first}), match.span("x"))
        if ctx.pair and match.group("x").upper() == "C":
            return _Reading(frozenset(), match.span("x"))  # MT-Bench's tie
        return None
    second = ctx.keys.get(match.group("y").upper())
    if not ctx.pair or first is None or second is None or first == second:
        return None
    if op == "=":
        return _Reading(frozenset(), match.span())
    if op in ("<", "<<", "≪"):
        first, second = second, first
        winner, loser = match.span("y"), match.span("x")
    else:
        winner, loser = match.span("x"), match.span("y")
    return (
        _Reading(frozenset({first}), winner)
        if ctx.leg >= 0
        else _Reading(frozenset({second}), loser)
    )


# -- answer lines and headings -----------------------------------------------------------


def _answer_line(text: str, ctx: _Context) -> tuple[tuple[int, _Reading] | None, bool]:
    """The last readable "Answer:" line (or "Verdict:", "Conclusion:", ...), and where
    it starts; and whether a line answered the other question in its own words
    ("Conclusion: Output (a) is better" on the reverse leg), which is not read."""
    opposite = False
    for match in reversed(list(_ANSWER_LINE.finditer(text))):
        if match.group("rest").strip(" \t\r*_`"):
            said = _read_answer(text, match.start("rest"), match.end("rest"), ctx)
        else:
            block = _read_block(text, match.end(), ctx)
            said = block[:2] if block is not None else None
        if said is None:
            continue
        if _signed(said[0], said[1], ctx) == -ctx.leg != 0:
            opposite = True
            continue
        return (match.start(), said[1]), opposite
    return None, opposite


def _read_headings(text: str, ctx: _Context) -> _Found:
    """Lines headed in a polarity's words: "Incorrect: B, D", "Correct answers: A, C",
    "Winner: A", "Not met: B"."""
    out = _Found()
    for match in _HEADING.finditer(text):
        words = match.group("head").lower().split()
        sign = ctx.vocab.phrase_sign(words, _HEADING_WORDS)
        if not sign:
            continue
        rest = match.group("rest")
        if rest.strip(" \t\r*_`"):
            said = _read_answer(text, match.start("rest"), match.end("rest"), ctx, texts="whole")
        else:
            block = _read_block(text, match.end(), ctx, texts="whole")
            said = block[:2] if block is not None else None
        if said is not None:
            out.said.append((_signed(sign, said[1], ctx), said[1]))
    return _admit(out, ctx.leg)


# -- claims and the conclusion ----------------------------------------------------------

# "the answer is C", "the incorrect options are D and E", "the better response is B",
# "the correct ones are:", "the winner is Output (a)"
_ANCHORED = _Pattern(
    r"\b(?:the\s+)?(?:(?P<adj>[A-Za-z]+)\s+)??(?P<noun>answers?|options?|choices?|ones?"
    r"|responses?|outputs?|criteria|criterion|claims?|requirements?|verdict|decision|winner"
    r"|preference|pick)\s+(?:is|are|would\s+be|:)[^\S\n]*(?::[^\S\n]*)?"
    r"(?P<span>(?:[^\n.]|\.(?=\d)){0,1000})",
    re.IGNORECASE,
)
# Labels before a verb: "A and C are incorrect", "Options B and D are wrong". The verb
# is optional, so that every run is consumed where it starts (linear time).
_STATEMENT = _Pattern(rf"(?<![A-Za-z0-9]){_RUN}(?P<verb>{_VERB_ADJ_SOURCE})?", re.IGNORECASE)
# Labels before a verb of their own: "Output (a) wins", "criterion B fails"
_RUN_VERB = _Pattern(
    rf"(?<![A-Za-z0-9]){_RUN}(?:\s+(?:(?:clearly|also|only|still|easily|narrowly|slightly)\s+)?"
    r"(?P<v>wins|won|outperforms|outperformed|surpasses|beats|loses|lost|fails|failed|passes"
    r"|passed)\b)?",
    re.IGNORECASE,
)
_RUN_VERB_SIGNS = {
    "wins": 1, "won": 1, "outperforms": 1, "outperformed": 1, "surpasses": 1, "beats": 1,
    "loses": -1, "lost": -1, "fails": -1, "failed": -1, "passes": 1, "passed": 1,
}  # fmt: skip
_GRADE_VERBS = frozenset({"fails", "failed", "passes", "passed"})
# "the rest are incorrect", "all other options are wrong": every label but those
# stated in the other polarity
_REST = _Pattern(
    rf"(?<![\w-])(?P<rest>(?:all\s+)?(?:the\s+)?(?:rest|others|other\s+{_NOUN}"
    rf"|remaining(?:\s+{_NOUN})?)(?:\s+of\s+(?:them|the\s+{_NOUN}))?)(?![\w-])"
    rf"(?P<verb>{_VERB_ADJ_SOURCE})",
    re.IGNORECASE,
)
# "I prefer Response 2", "I would choose B"
_PREFER = _Pattern(
    r"(?<![\w-])I(?:\s+would|'d|’d|\s+will|\s+must|\s+therefore|\s+thus|\s+clearly"
    r"|\s+definitely|\s+strongly|\s+slightly|\s+ultimately|\s+overall)*\s+(?:prefer|choose"
    r"|pick|select|go\s+with|vote\s+for|favou?r|recommend|side\s+with)\s+"
    r"(?:(?:the\s+)?(?:responses?|outputs?|answers?|ones?|completions?)\s+(?:from|by|of)\s+)?"
    rf"{_RUN}",
    re.IGNORECASE,
)
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
# Where a sentence ends (a new one starts after it): a full stop and a space, a line end.
_BREAK = _Pattern(r"[.!?]+(?=\s)|\n")
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


@dataclass(frozen=True, slots=True)
class _Status:
    """A candidate's status, as a sentence or a structure gives it."""

    label: str | None
    """None: every candidate without a status of its own ("the rest are incorrect")."""
    sign: int
    """+1 the direct question's status (correct, met, supported), -1 the reverse's."""
    span: tuple[int, int] | None
    at: int
    structured: bool
    """From a list, a table or a JSON object: a format with a place for both statuses."""
    score: float | None = None
    """A pair's score ("Output (a): 8/10")."""


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
        if ctx.task == "checklist":
            self._check_verbs()
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
            # the next sentence may start inside this one's span: "..., so the incorrect
            # options are A, B": go on from the end of this span's head
            cut = _ASIDE.search(text, lo, hi)
            pos = cut.end() if cut is not None else match.end()
            reach = hi
            if text[lo:hi].strip():
                said = _read_answer(text, lo, hi, ctx, texts="none")
            elif (block := _read_block(text, hi, ctx, texts="none")) is not None:
                said, pos, reach = block[:2], max(pos, block[2]), block[2]
            else:
                said = None
            if said is None:
                continue
            adjective, noun = match.group("adj"), match.group("noun")
            sign = (ctx.vocab.sign(adjective) if adjective else 0) or ctx.vocab.sign(noun)
            reading = said[1]
            end = reading.span[1] if reading.span else hi
            self.whole.append(_Claim(match.start(), end, max(end, reach), sign or said[0], reading))

    def _statements(self) -> None:
        """ "A and C are incorrect because ...", "Output (b) is better", "criterion B
        fails", and "the rest are incorrect" after labels stated in the other words."""
        text, ctx = self.text, self.ctx
        for match in _STATEMENT.finditer(text):
            if match.group("verb") is None or _hedged(text, match.start()):
                continue
            sign = ctx.vocab.verb_sign(match)
            run = _run_labels(text, match.start("run"), match.end("run"), ctx) if sign else None
            if run is None:
                continue
            if ctx.pair:
                if not _negated(match) and len(run.labels) == 1:
                    self._add(match.start("run"), match.end(), sign, run)
            else:
                self._state(run, sign, match.start(), structured=False)
        for match in _RUN_VERB.finditer(text):
            verb = (match.group("v") or "").lower()
            run = _run_labels(text, match.start("run"), match.end("run"), ctx) if verb else None
            if run is None or _hedged(text, match.start()):
                continue
            sign = _RUN_VERB_SIGNS[verb]
            if not ctx.pair and verb in _GRADE_VERBS:  # "criterion B fails"
                self._state(run, sign, match.start(), structured=False)
            elif ctx.pair and verb not in _GRADE_VERBS and len(run.labels) == 1:  # "A wins"
                self._add(match.start("run"), match.end(), sign, run, forced=True)
        if ctx.pair:
            return
        stated = {
            sign: {s.label for s in self.statuses if s.sign == sign and s.label} for sign in (1, -1)
        }
        for match in _REST.finditer(text):
            sign = ctx.vocab.verb_sign(match)
            if sign and stated.get(-sign) and not _hedged(text, match.start()):
                # "C is correct; the rest are incorrect": all but C
                self.statuses.append(_Status(None, sign, match.span("rest"), match.start(), False))

    def _state(self, run: _Reading, sign: int, at: int, *, structured: bool) -> None:
        for label in run.labels:
            self.statuses.append(_Status(label, sign, run.span, at, structured))

    def _quantifiers(self) -> None:
        """ "So all of them are incorrect.", "All options except B are correct.", "Neither
        is better" (a pair's tie), or a line that is only a quantifier ("All of them.")."""
        text, ctx = self.text, self.ctx
        for match in _QUANT.finditer(text):
            if _hedged(text, match.start()):
                continue
            hi = _line_end(text, match.start())
            said = _quantified(text, match, hi, ctx)
            if said is None:
                continue
            sign, reading, end = said
            line = text.rfind("\n", 0, match.start()) + 1
            lead = _LEAD.match(text, line, hi)
            bare = (lead.end() if lead is not None else line) == match.start() and bool(
                _PUNCT_ONLY.fullmatch(text, end, hi)
            )
            if ctx.pair:
                if bare or (sign and not reading.names_some):  # "Neither is better."
                    self._add(match.start(), end, 0, _Reading(frozenset(), reading.span))
            elif sign or bare:
                self._add(match.start(), end, sign, reading)

    def _pair_forms(self) -> None:
        """A pair's ties in words and preferences: "both are equally good", "I prefer B"."""
        text, ctx = self.text, self.ctx
        for match in _TIE.finditer(text):
            if not _hedged(text, match.start()):
                self._add(match.start(), match.end(), 0, _Reading(frozenset(), match.span()))
        for match in _PREFER.finditer(text):
            run = _run_labels(text, match.start("run"), match.end("run"), ctx)
            if run is not None and len(run.labels) == 1:
                self._add(match.start(), match.end(), 1, run, forced=True)

    def _check_verbs(self) -> None:
        """ "The response meets criteria A and C", "It fails to meet B", "The sources do not
        support claims 1 and 3", "It meets all the criteria"."""
        text, ctx = self.text, self.ctx
        for match in _CHECK_VERB.finditer(text):
            if _hedged(text, match.start()):
                continue
            verb = match.group("verb").lower()
            sign = -1 if verb.startswith(_NEGATIVE_VERBS) else 1
            if match.group("aux"):
                sign = -sign
            quant = match.group("quant")
            if quant is not None:
                reading = _Reading(frozenset(), match.span("quant"), inverted=quant != "none")
                self._add(
                    match.start(), match.end(), sign if quant != "any" else -abs(sign), reading
                )
                continue
            run = _run_labels(text, match.start("run"), match.end("run"), ctx)
            if run is not None:
                self._state(run, sign, match.start(), structured=False)

    # -- the conclusion --------------------------------------------------------------

    def _sentence(self, at: int) -> tuple[int, int]:
        """The bounds of the sentence holding ``text[at]``."""
        i = bisect_right(self._breaks, at) - 1
        end = self._breaks[i + 1] if i + 1 < len(self._breaks) else len(self.text)
        return self._breaks[i], end

    def _strength(self, claim: _Claim) -> int | None:
        """2: its sentence concludes; 1: it stands at an edge of the reply; 0: reasoning;
        None: not a claim (a condition, a hedge, or a sentence cut off)."""
        text = self.text
        start, end = self._sentence(claim.at)
        before = max(start, claim.at - _CLAIM_WINDOW)
        after = min(end, claim.end + _CLAIM_WINDOW)
        if _HEDGE.search(text, before, claim.at) or _HEDGE_AFTER.match(text, claim.end, after):
            return None
        if end >= len(text) and self._unfinished and _OPEN_CLAUSE.match(text, claim.end, end):
            return None  # cut off where the claim could still be qualified: "A is better for"
        if claim.forced or _CONCLUDING.search(text, before, claim.at):
            return 2
        if _QUALIFIER.search(text, before, claim.at) or _QUALIFIER.search(text, claim.end, after):
            return 0
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
        earlier = [claim for claim in chosen if _tie_free(claim.reading, ctx) != value]
        if earlier and not _REVISION.search(self.text, earlier[-1].at, last.at):
            self.conflict = True
            return None
        return last.reading


_CUT_WORDS = 5


def _cut_off(text: str) -> bool:
    """Whether a reply stops in the middle of a sentence (it was cut off): it ends on a
    word or a comma, and its last sentence has ``_CUT_WORDS`` words or more ("c) 9" and
    "Output (a)" are answers; "A) 7 gives 4949, B) 8 gives" is not)."""
    stripped = text.rstrip(" \t\r\n*_`")
    if not stripped or not (stripped[-1].isalnum() or stripped[-1] in ",;:"):
        return False
    start = max(stripped.rfind(mark) for mark in (". ", "! ", "? ", "\n")) + 1
    return sum(1 for _ in _WORD_RUN.finditer(stripped, start)) >= _CUT_WORDS


def _resolve(statuses: Sequence[_Status], ctx: _Context) -> _Reading | bool:
    """The leg's answer from candidates' statuses: the last status of each candidate
    stands; the answer is those whose status is the leg's. True: the statuses only
    answer the other question; False: nothing to read (a pair without both scores,
    statuses of both signs without a polarity)."""
    ordered = sorted(statuses, key=lambda status: status.at)
    if ctx.pair:
        scores = {s.label: (s.score, s.span) for s in ordered if s.score is not None and s.label}
        if len(scores) != 2 or len(ctx.labels) != 2:
            return False
        (a, (a_score, a_span)), (b, (b_score, b_span)) = (
            (label, scores[label]) for label in ctx.labels
        )
        if a_score == b_score:
            return _Reading(frozenset(), None)  # a tie
        winner, loser = (
            ((a, a_span), (b, b_span)) if a_score > b_score else ((b, b_span), (a, a_span))
        )
        label, span = winner if ctx.leg >= 0 else loser
        return _Reading(frozenset({label}), span)
    last: dict[str, _Status] = {}
    rest: _Status | None = None
    for status in ordered:
        if status.score is not None:
            continue
        if status.label is None:
            rest = status
        else:
            last[status.label] = status
    leg = ctx.leg
    if not leg:
        signs = {status.sign for status in last.values()} | ({rest.sign} if rest else set())
        if len(signs) != 1:
            return False
        leg = signs.pop()
    chosen = [status for status in last.values() if status.sign == leg]
    if rest is not None and rest.sign == leg:
        # every candidate but those stated otherwise, kept as the labels left out
        excluded = frozenset(label for label, status in last.items() if status.sign != leg)
        spans = {rest.span, *(status.span for status in chosen)}
        return _Reading(excluded, spans.pop() if len(spans) == 1 else None, inverted=True)
    if chosen:
        spans = {status.span for status in chosen}
        return _Reading(
            frozenset(status.label for status in chosen if status.label),
            spans.pop() if len(spans) == 1 else None,
        )
    if (rest is not None or len(last) == len(ctx.labels)) and all(
        status.structured for status in last.values()
    ):
        return _Reading(frozenset(), None)  # every candidate has the other status: none
    return True


# -- per-candidate structures: lists and tables ----------------------------------------

_STATUS_MARKS = {
    "✓": 1, "✔": 1, "✅": 1, "☑": 1, "🗸": 1, "✗": -1, "✘": -1, "❌": -1, "☒": -1, "✖": -1,
}  # fmt: skip
_MARK_CLASS = "✓✔✅☑🗸✗✘❌☒✖"
# Answers to a question: read as the column header's, else the leg's.
_SELECTIONS = {"yes": 1, "y": 1, "true": 1, "no": -1, "n": -1, "false": -1}
_STATUS_SIGNS = {
    **dict.fromkeys(
        (
            "met", "satisfied", "fulfilled", "fulfils", "fulfills", "pass", "passed",
            "passes", "supported", "addressed", "followed", "achieved", "present", "ok",
            "okay", "correct", "right", "valid", "done", "included", "accurate", "meets",
            "holds",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "unmet", "unsatisfied", "unfulfilled", "fail", "failed", "fails", "unsupported",
            "unaddressed", "violated", "missing", "absent", "incorrect", "wrong", "invalid",
            "contradicted", "refuted", "inaccurate", "omitted",
        ),
        -1,
    ),
}  # fmt: skip
_STATUS_FILLER = frozenset({"fully", "clearly", "completely", "entirely"})
_PARTIAL = frozenset({"partially", "partly", "somewhat", "mostly", "largely", "half"})
_STATUS_COLUMNS = frozenset(
    {
        "status", "verdict", "result", "outcome", "assessment", "judgment", "judgement",
        "answer", "decision", "evaluation", "met", "pass", "fail", "supported", "satisfied",
        "score", "rating", "check",
    }
)  # fmt: skip
_STATUS_TOKEN = _Pattern(rf"[A-Za-z]+|[{_MARK_CLASS}]")
# A list line's lead: a bullet or number, a checkbox, a check mark.
_ITEM = _Pattern(
    r"[^\S\n]*(?:(?:[-*•+]|(?P<num>\d{1,3})[.)])[^\S\n]*)?"
    rf"(?:\[(?P<box>[ xX✓✔✗✘]?)\][^\S\n]*)?(?P<mark>[{_MARK_CLASS}]\ufe0f?[^\S\n]*)?"
)
# A label leading a line: "A:", "**B**", "C)", "(D)", "E -"
_LEAD_LABEL = _Pattern(
    r"(?:[*_`]+[^\S\n]*)?[(\[]?(?P<l>[A-Za-z][A-Za-z0-9]{0,3})(?P<c>[)\]:.]|[*_`]+)?"
    r"(?=[^\S\n]|$|[:*_)\]])[)\]*_`]*"
)
# A status right after the candidate ("A: met (...)"), or ending the line ("... — not met")
_STATUS_HEAD = _Pattern(
    r"[^\S\n:=|>→*_`–—-]*[:=|>→*_`–—-]*[^\S\n*_`]*"
    rf"(?:(?P<m>[{_MARK_CLASS}])|(?P<s>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)?)"
    r"(?=[^\S\n]*(?:$|[.,;:!()\[\]|*_—–]|-\s|\s(?:because|since|as|—)\b)))"
)
# The first separator of a list line, after which its status may stand ("**A. Uses a
# formal tone**: ✅ ...", "1. Cites a source – Met.")
_FIRST_SEP = _Pattern(r"[:=|→]|[^\S\n][–—-][^\S\n]|[–—]")
_STATUS_TAIL = _Pattern(
    rf"(?:[:=|(—–,]|\s-)[^\S\n]*[*_`]*(?P<s>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)?|[{_MARK_CLASS}])"
    r"[*_`)\s.!]*$"
)
_TRAILING_MARK = _Pattern(rf"[^\S\n]*(?P<s>[{_MARK_CLASS}])\ufe0f?[^\S\n.]*$")
_TABLE_RULE = _Pattern(r"[\s|:-]*-{2,}[\s|:-]*")
_SCORE = _Pattern(
    r"[^\S\n]*[:=\-–—]?[^\S\n]*(?:score[^\S\n]*:?[^\S\n]*)?[*_`]*(?P<n>\d{1,3}(?:\.\d+)?)"
    r"(?:[^\S\n]*/[^\S\n]*\d{1,3})?[*_`]*[^\S\n.]*$",
    re.IGNORECASE,
)


def _status_sign(text: str, lo: int, hi: int, ctx: _Context, header: int = 0) -> int:
    """The sign of a short status ("met", "Not met", "✓", "Yes", "PASS"), 0 when
    ``text[lo:hi]`` is not one. A selection (yes/no, true/false) answers ``header``'s
    question, else the leg's."""
    sign = 0
    negated = False
    count = 0
    for match in _STATUS_TOKEN.finditer(text, lo, hi):
        count += 1
        token = match.group().lower()
        if count > 3 or token in _PARTIAL:
            return 0
        if token in ("not", "never"):
            negated = True
            continue
        found = (
            _STATUS_MARKS.get(token)
            or ((header or ctx.leg or 1) * _SELECTIONS[token] if token in _SELECTIONS else 0)
            or _STATUS_SIGNS.get(token)
            or ctx.vocab.sign(token)
        )
        if found:
            if sign and found != sign:
                return 0
            sign = found
        elif token not in _STATUS_FILLER:
            return 0
    return -sign if negated else sign


def _status_only(text: str, lo: int, hi: int, ctx: _Context) -> _Status | None:
    """A whole reply that is a status ("PASS", "Yes.", "Not met"): one candidate's."""
    lo, hi = _strip_bounds(text, lo, hi, _NONE_STRIP)
    sign = _status_sign(text, lo, hi, ctx) if lo < hi else 0
    return _Status(ctx.labels[0], sign, (lo, hi), lo, True) if sign else None


def _structure_statuses(text: str, ctx: _Context) -> list[_Status]:
    """The statuses of list lines and table rows (a pair's scores)."""
    out: list[_Status] = []
    table: list[tuple[int, int]] = []
    pos, size = 0, len(text)
    while pos <= size:
        end = _line_end(text, pos)
        lo, hi = _strip_bounds(text, pos, end)
        if text.startswith("|", lo):
            table.append((lo, hi))
        else:
            if table:
                out.extend(_table_statuses(text, table, ctx))
                table = []
            if lo < hi:
                out.extend(_line_statuses(text, lo, hi, ctx))
        pos = end + 1
    if table:
        out.extend(_table_statuses(text, table, ctx))
    return out


def _line_statuses(text: str, lo: int, hi: int, ctx: _Context) -> Iterator[_Status]:
    """The statuses of a line, or of each of its sentences ("A: met. B: not met."), or
    of a line that names its candidate first and ends on a sentence that is a status
    ("**Criterion A (Uses a formal tone):** It opens with 'Dear Sir'. Met.")."""
    item = _ITEM.match(text, lo, hi)
    after = item.end() if item is not None else lo  # "1." is no sentence
    ends = [m.end() for m in _SENTENCE_END.finditer(text, after, hi) if m.end() < hi]
    if not ends:
        whole = _line_status(text, lo, hi, ctx)
        if whole is not None:
            yield whole
        return
    found = False
    start = lo
    for end in [*ends, hi]:
        a, b = _strip_bounds(text, start, end)
        if a < b and (status := _line_status(text, a, b, ctx)) is not None:
            found = True
            yield status
        start = end
    if found or ctx.pair:
        return
    a, b = _strip_bounds(text, ends[-1], hi)
    sign = _status_sign(text, a, b, ctx) if a < b else 0
    if sign:
        label, span = _line_candidate(text, lo, ends[0], item, ctx)
        if label is not None:
            yield _Status(label, sign, span, lo, True)


def _line_status(text: str, lo: int, hi: int, ctx: _Context) -> _Status | None:
    """One list line's candidate and status: "A: met", "- [x] B", "1. ✓ Uses a formal
    tone", "B — not met", "**A. Uses a formal tone**: ✅ ...", "Output (a): 8/10" (a
    pair's score)."""
    item = _ITEM.match(text, lo, hi)
    pos = item.end() if item is not None else lo
    lead = _lead_label(text, pos, hi, ctx)
    if ctx.pair:
        score = _SCORE.fullmatch(text, lead[2], hi) if lead is not None else None
        if lead is None or score is None:
            return None
        return _Status(lead[0], 0, lead[1], lo, True, float(score.group("n")))
    sign, status_at = _line_sign(text, lead[2] if lead else pos, hi, item, ctx)
    if not sign:
        return None
    label, span = lead[:2] if lead else _line_candidate(text, lo, status_at, item, ctx)
    return _Status(label, sign, span, lo, True) if label is not None else None


def _lead_label(
    text: str, pos: int, hi: int, ctx: _Context
) -> tuple[str, tuple[int, int], int] | None:
    """A label leading a list line ("A:", "**B**", "C)", "(d)"), where it is, and where
    what follows it starts."""
    lead = _LEAD_LABEL.match(text, pos, hi)
    if lead is None:
        return None
    token = lead.group("l")
    found = ctx.keys.get(token.upper())
    if found is None or not (token.isupper() or (len(token) == 1 and lead.group("c"))):
        return None
    return found, lead.span("l"), lead.end()


def _line_candidate(
    text: str, lo: int, hi: int, item: re.Match[str] | None, ctx: _Context
) -> tuple[str | None, tuple[int, int] | None]:
    """The candidate a list line names before ``hi`` (where its status stands): a
    leading label, else a candidate's text, else its number ("2." the second)."""
    pos = item.end() if item is not None else lo
    lead = _lead_label(text, pos, hi, ctx)
    if lead is not None:
        return lead[0], lead[1]
    named = ctx.texts.inside(text[pos:hi]) if pos < hi else set()
    if len(named) == 1:
        return next(iter(named)), None
    if item is not None and item.group("num"):
        return _nth_label(int(item.group("num")), ctx), None
    return None, None


def _line_sign(
    text: str, pos: int, hi: int, item: re.Match[str] | None, ctx: _Context
) -> tuple[int, int]:
    """A list line's status after its lead (from ``pos``), and where the candidate's
    name must end: a check box or a check mark before it (the name runs to ``hi``), a
    status right after the candidate or after the line's first separator, or ending the
    line."""
    box = item.group("box") if item is not None else None
    mark = item.group("mark") if item is not None else None
    if box is not None:
        return (ctx.leg or 1) * (1 if box.strip() else -1), hi
    if mark:
        return _STATUS_MARKS.get(mark.strip().rstrip("\ufe0f"), 0), hi
    heads = [pos]
    if (sep := _FIRST_SEP.search(text, pos, hi)) is not None and sep.start() > pos:
        heads.append(sep.start())
    for at in heads:
        head = _STATUS_HEAD.match(text, at, hi)
        if head is not None:
            group = "m" if head.group("m") else "s"
            sign = _status_sign(text, *head.span(group), ctx)
            if sign:
                return sign, at
    for pattern in (_STATUS_TAIL, _TRAILING_MARK):
        tail = pattern.search(text, pos, hi)
        if tail is not None and (sign := _status_sign(text, *tail.span("s"), ctx)):
            return sign, tail.start()
    return 0, hi


def _table_statuses(text: str, rows: list[tuple[int, int]], ctx: _Context) -> list[_Status]:
    """Rows of a table with a candidate and a status column: ``| A | Yes |`` under
    ``| Criterion | Met? |``. A yes/no answers the status column's header when it has a
    polarity ("Met?", "Fails"), else the leg's question."""
    cells = [_cells(text, lo, hi) for lo, hi in rows]
    column: int | None = None
    header = 0
    first = 0
    if len(rows) >= 2 and _TABLE_RULE.fullmatch(text, *rows[1]):
        first = 2
        for k, (a, b) in enumerate(cells[0]):
            sign = _status_sign(text, a, b, ctx)
            words = {word.lower() for word in _ALNUM.compiled.findall(text, a, b)}
            if k and (sign or words & _STATUS_COLUMNS):
                column, header = k, sign
                break
    out: list[_Status] = []
    for (lo, _), row in zip(rows[first:], cells[first:], strict=True):
        if len(row) < 2 or _TABLE_RULE.fullmatch(text, row[0][0], row[-1][1]):
            continue
        k = column if column is not None and column < len(row) else len(row) - 1
        sign = _status_sign(text, *row[k], ctx, header)
        if not sign:
            continue
        for j, (a, b) in enumerate(row):
            if j == k:
                continue
            named = _cell_candidate(text, a, b, ctx)
            if named is not None:
                out.append(_Status(named[0], sign, named[1], lo, True))
                break
    return out


def _cells(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The cells of a table row ``| a | b |``, as stripped offsets."""
    bars = [i for i in range(lo, hi) if text[i] == "|"]
    if bars and bars[-1] != hi - 1:
        bars.append(hi)
    return [_strip_bounds(text, a + 1, b, " \t*_`") for a, b in pairwise(bars)]


def _cell_candidate(
    text: str, lo: int, hi: int, ctx: _Context
) -> tuple[str, tuple[int, int] | None] | None:
    """The candidate a table cell names: its label (perhaps with its text, "A. Uses a
    formal tone"), or its text."""
    if lo >= hi:
        return None
    only = _labels_only(text, lo, hi, ctx.keys)
    if only is not None and len(only.labels) == 1:
        return next(iter(only.labels)), only.span
    lead = _LEAD_LABEL.match(text, lo, hi)
    if lead is not None and lead.group("c") and (label := ctx.keys.get(lead.group("l").upper())):
        return label, lead.span("l")
    named = ctx.texts.exact(text[lo:hi]) or ctx.texts.inside(text[lo:hi])
    return (next(iter(named)), None) if len(named) == 1 else None


# -- reading a stretch known to be an answer -------------------------------------------

# "all", "all of them", "all five options", "none of the above", "neither", "no option",
# a pair's "tie"; not "all other options", which leaves out the ones just named.
_ADJ = r"(?:(?!(?:other|remaining|rest|else)\b)[a-z]+\s+)?"
_QUANT = _Pattern(
    r"(?<![\w-])(?:(?P<all>all|every(?:thing|one)?|each|both)"
    rf"|(?P<none>none|neither|nothing|no(?=\s+{_NOUN}\b))|(?P<tie>tie|tied|draw))(?![\w-])"
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
    r"\s*(?:$|[(\[,;:.!?—–-]|(?:because|since|as|which|so|given|due|for)\b)", re.IGNORECASE
)
_CLOSING = _Pattern(r"[)\]\"'*`]*")
_PUNCT_ONLY = _Pattern(r"[\s.!?*_`\"')\]]*")
# Conditionals and negations before a statement: "if C is correct", "not all are".
_HEDGE_BEFORE = _Pattern(
    r"(?:\b(?:if|whether|nor|not|suppose|assume|assuming|unless)\s+)\Z", re.IGNORECASE
)
_HEDGE_WINDOW = 12
# Where the head of an answer ends: an aside in brackets that is not a label mark,
# a dash or semicolon, the end of a sentence, an explanation or a verb.
_ASIDE = _Pattern(
    rf"\s*[(\[](?!\s*{_LABEL}\s*[)\]])"
    r"|\s*[;—–]|\s+-+\s"
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


def _hedged(text: str, at: int) -> bool:
    """Whether a statement at ``at`` follows "if", "not", "whether", ..."""
    return bool(_HEDGE_BEFORE.search(text, max(0, at - _HEDGE_WINDOW), at))


def _only_labels(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """``text[lo:hi]`` as nothing but labels, after "options", "both", "only", ..."""
    prefix = _LIST_PREFIX.match(text, lo, hi)
    start = prefix.end() if prefix else lo
    return _labels_only(text, start, hi, ctx.keys) if start < hi else None


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
    if head < hi:
        if (found := _only_labels(text, lo, head, ctx)) is not None:
            return found, head  # most answers: no need to look at candidate texts
        if texts != "none" and (whole := ctx.texts.exact(text[lo:hi])):
            span = _strip_bounds(text, lo, hi, _NORM_STRIP + "\t\r\n")
            return _Reading(frozenset(whole), span), hi
        found = _list_at(text, lo, head, ctx, texts=texts)
        if found is not None:
            return found, head
    found = _list_at(text, lo, hi, ctx, texts=texts)
    return (found, hi) if found is not None else None


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
    return _Reading(frozenset(found), _strip_bounds(text, lo, head, _NORM_STRIP)) if found else None


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
        sign, pos = ctx.vocab.verb_sign(verb), verb.end()
    excepted: _Reading | None = None
    ex = (_EXCEPT if verb is None else _EXCEPT_AFTER).match(text, pos, hi)
    if ex is not None:
        excepted = _excepted(text, ex.end(), hi, ctx)
        if excepted is None or excepted.span is None:
            return None
        closing = _CLOSING.match(text, excepted.span[1], hi)
        pos = closing.end() if closing is not None else excepted.span[1]
        if verb is None and (verb := _VERB_ADJ.match(text, pos, hi)) is not None:
            sign, pos = ctx.vocab.verb_sign(verb), verb.end()
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
    if lo >= hi:
        return None
    quant = _QUANT.match(text, lo, hi)
    if quant is not None and (said := _quantified(text, quant, hi, ctx)) is not None:
        return said[0], said[1]
    cut = _ASIDE.search(text, lo, hi)
    for end in (cut.start(), hi) if cut is not None and cut.start() > lo else (hi,):
        if _NONE_ONLY.fullmatch(text, lo, end):
            span = _strip_bounds(text, lo, end, _NONE_STRIP)
            return 0, _Reading(frozenset(), span if span[0] < span[1] else (lo, end))
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


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _next_line(text: str, end: int) -> tuple[int, int] | None:
    """The first line with text after the line ending at ``end``, as offsets."""
    pos = end + 1
    while pos <= len(text) and not text[pos : _line_end(text, pos)].strip():
        pos = _line_end(text, pos) + 1
    return (pos, _line_end(text, pos)) if pos <= len(text) else None


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
    if first is None:
        return None
    lo, hi = first
    following = _next_line(text, hi)
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


def _run_labels(text: str, lo: int, hi: int, ctx: _Context) -> _Reading | None:
    """The labels of a run before a verb, less the words that lead into it ("Thus, A
    and C are ..."): from the first label after the last word that is not one. In
    free text a label in lower case counts only as a single letter ("a and c")."""
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


# -- label lists and candidate texts ---------------------------------------------------

# forms that are unambiguous anywhere: "(C)", "[C]", "c)", "option C"
_MARKED = _Pattern(
    rf"(?:\(\s*(?P<p>{_LABEL})\s*\)"
    rf"|\[\s*(?P<b>{_LABEL})\s*\]"
    rf"|(?<![A-Za-z0-9(])(?P<r>{_LABEL})\s*\)"
    rf"|\b(?:option|choice|candidate)s?\s*(?:[:#]\s*)?(?P<o>{_LABEL})(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
# A labels-only span, read piece by piece: ASCII alphanumeric runs, single other chars.
_LIST_PIECE = _Pattern(r"[A-Za-z0-9]+|.", re.DOTALL)
# Tokens of normalised text: word runs and single other characters.
_TEXT_PIECE = _Pattern(r"\w+|\S")
_WORD_OR_DOT = _Pattern(r"[\w.]")
_WORD = _Pattern(r"\w")
_DOT_DIGIT = _Pattern(r"\.\d")

_PRE = frozenset("\"'*`([")
_POST = frozenset(")]\"'.*`")
_SEP_CHARS = frozenset(",;/&")


def _keys_of(labels: Sequence[str]) -> dict[str, str]:
    """Each label under its upper-case form, the form replies are looked up in.

    This and :func:`_ordered` are a parse's only work per label; they run in C (join,
    zip, filter) so that 20,000 labels cost about a millisecond.
    """
    if "".join(labels).isupper():  # labels of an Item always are
        return dict(zip(labels, labels, strict=True))
    return dict(zip(map(str.upper, labels), labels, strict=True))


def _ordered(found: Iterable[str], labels: Sequence[str]) -> tuple[str, ...]:
    """``found`` in the candidates' order."""
    return tuple(filter(frozenset(found).__contains__, labels))


def _strip_bounds(text: str, lo: int, hi: int, chars: str = " \t\r\n") -> tuple[int, int]:
    """``text[lo:hi]`` without ``chars`` at either end, as offsets."""
    while lo < hi and text[lo] in chars:
        lo += 1
    while hi > lo and text[hi - 1] in chars:
        hi -= 1
    return lo, hi


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
            upto = matches[i + 1].start() if i + 1 < len(matches) else hi
            disagrees = disagrees or (
                group in ("p", "r") and _disagrees(text, match.end(), label, ctx, upto)
            )
    return _Reading(frozenset(found), (first, last), disagrees=disagrees) if found else None


_AFTER_MARK_STRIP = " \t\"'`*.,;:“”"


def _disagrees(text: str, pos: int, label: str, ctx: _Context, hi: int | None = None) -> bool:
    """Whether the text after a label's mark ("C) 1 : 1") is another candidate's text."""
    hi = _line_end(text, pos) if hi is None else min(hi, _line_end(text, pos))
    cut = _ASIDE.search(text, pos, hi)
    lo, hi = _strip_bounds(text, pos, cut.start() if cut is not None else hi, _AFTER_MARK_STRIP)
    if lo >= hi:
        return False
    rest = text[lo:hi]
    for word in (" and", " or"):
        if rest.lower().endswith(word):
            rest = rest[: -len(word)]
    norm = _norm(rest)
    other = ctx.texts.by_text.get(norm)
    return other is not None and other != label and ctx.texts.norm_of(label) != norm


def _gap_ok(gap: Sequence[str]) -> bool:
    """Whether what lies between two labels separates them.

    The grammar is ``closing* separator opening*``: closing marks ``) ] " ' . * ```,
    opening marks ``" ' * ` ( [``, and one separator (``, ; / &``, "and", "or") or
    whitespace between them.
    """
    seps = [i for i, piece in enumerate(gap) if piece in _SEP_CHARS or piece.lower() in _SEP_WORDS]
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
    single letter ("a and c", but not "it" for the label IT)."""
    lo, hi = _strip_bounds(text, lo, hi)
    found: set[str] = set()
    gap: list[str] = []
    first = last = -1
    for match in _LIST_PIECE.finditer(text, lo, hi):
        piece = match.group(0)
        if not _ALNUM.fullmatch(piece):
            gap.append(piece)
            continue
        if first >= 0 and piece.lower() in _SEP_WORDS:
            # "C and D" is two labels even when AND is a label too (4,000+ options)
            gap.append(piece)
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
    return _Reading(frozenset(found), (first, last))


# Whitespace runs other than a lone space (most texts have only those: leave them).
_SPACES = _Pattern(r"[^\S ]\s*| \s+")
_NORM_STRIP = " \"'`*."
_JOIN = "\x00"  # not whitespace, not changed by casefold


def _norm(text: str) -> str:
    """Whitespace runs as one space, case folded, outer quotes, stars and dots off."""
    return _SPACES.sub(" ", text).casefold().strip(_NORM_STRIP)


def _norms(texts: Sequence[str]) -> list[str]:
    """``[_norm(t) for t in texts]``, done on all texts at once.

    The same steps on one joined string run in C rather than once per text in
    Python (20,000 texts: a few milliseconds instead of tens); casefold maps each
    character on its own, so joining does not change the result.
    """
    joined = _JOIN.join(texts)
    if joined.count(_JOIN) != max(len(texts) - 1, 0):
        return [_norm(text) for text in texts]  # a text holds the separator itself
    parts = _SPACES.sub(" ", joined).casefold().split(_JOIN)
    return list(map(str.strip, parts, repeat(_NORM_STRIP, len(parts))))


class _Texts:
    """The candidates' texts, indexed by normalised text, for one parse.

    The index is built on first use: most replies are read from their labels alone
    and never pay for it. Two texts may share a normal form ("Bb" and "bb"); the
    first one wins, as a reply cannot tell them apart.
    """

    def __init__(self, labels: Sequence[str], texts: Sequence[str]) -> None:
        if len(labels) != len(texts):
            raise ValueError(f"{len(labels)} labels but {len(texts)} texts")
        self._labels = labels
        self._texts = texts
        self._by_text: dict[str, str] | None = None
        self._norm_of: dict[str, str] | None = None
        self._phrases: dict[tuple[str, ...], str] | None = None
        self._firsts: dict[str, list[int]] = {}
        self._longest = 0

    @property
    def by_text(self) -> dict[str, str]:
        if self._by_text is None:
            # reversed, so that the first of two equal normal forms is the one kept
            norms = _norms(self._texts)
            self._norm_of = dict(zip(self._labels, norms, strict=True))
            by_text = dict(zip(reversed(norms), reversed(self._labels), strict=True))
            by_text.pop("", None)  # a text of quotes and dots only names nothing
            self._by_text = by_text
            self._longest = max(map(len, by_text), default=0)
        return self._by_text

    def norm_of(self, label: str) -> str | None:
        """A candidate's normalised text."""
        if self._norm_of is None:
            _ = self.by_text
        assert self._norm_of is not None
        return self._norm_of.get(label)

    def exact(self, span: str) -> set[str]:
        found = self.by_text.get(_norm(span))
        return {found} if found is not None else set()

    def inside(self, span: str) -> set[str]:
        """Candidates whose text occurs in ``span`` as whole words.

        An occurrence must not touch a word character or a dot on its left, nor a
        word character or a decimal part (".5") on its right: "9" is not in "19"
        or in "9.5". It therefore starts and ends on token boundaries, so only
        windows of whole tokens are looked up: at most ``MAX_TEXT_TOKENS`` of them,
        and no longer than the longest text, from each token.
        """
        by_text = self.by_text
        norm_span = _norm(span)
        pieces = [m.span() for m in _TEXT_PIECE.finditer(norm_span)]
        found: dict[str, str] = {}
        for s, (start, _) in enumerate(pieces):
            if start and _WORD_OR_DOT.match(norm_span, start - 1):
                continue
            for _, end in pieces[s : s + MAX_TEXT_TOKENS]:
                if end - start > self._longest:
                    break
                label = by_text.get(norm_span[start:end])
                if label is None:
                    continue
                if _WORD.match(norm_span, end) or _DOT_DIGIT.match(norm_span, end):
                    continue
                found[norm_span[start:end]] = label
        if len(found) > 1:
            # A text that is a run of tokens of another found text ("10" in "10 cm")
            # is dropped in favour of the longer one. Found texts have at most
            # MAX_TEXT_TOKENS tokens, which bounds the windows looked at.
            shorter: set[str] = set()
            for norm in found:
                spans = [m.span() for m in _TEXT_PIECE.finditer(norm)]
                for i, (left, _) in enumerate(spans):
                    for _, right in spans[i:]:
                        window = norm[left:right]
                        if window != norm and window in found:
                            shorter.add(window)
            found = {norm: label for norm, label in found.items() if norm not in shorter}
        return set(found.values())

    def covered(
        self, words: Sequence[str], lo: int, hi: int, plain: Callable[[str], bool]
    ) -> list[bool]:
        """Which of ``words[lo:hi]`` (lower-case words of a reply) lie inside a
        candidate's text of at most ``MAX_TEXT_TOKENS`` words that is ``plain``."""
        if self._phrases is None:
            phrases: dict[tuple[str, ...], str] = {}
            for label, text in zip(self._labels, self._texts, strict=True):
                key = tuple(m.group().casefold() for m in _WORD_RUN.finditer(text))
                if 0 < len(key) <= MAX_TEXT_TOKENS and plain(text):
                    phrases.setdefault(key, label)
            self._phrases = phrases
            firsts: dict[str, set[int]] = {}
            for key in phrases:
                firsts.setdefault(key[0], set()).add(len(key))
            self._firsts = {word: sorted(sizes) for word, sizes in firsts.items()}
        out = [False] * (hi - lo)
        for start in range(lo, hi):
            for size in self._firsts.get(words[start], ()):
                if start + size > hi:
                    break
                if tuple(words[start : start + size]) in self._phrases:
                    out[start - lo : start - lo + size] = [True] * size
        return out


# -- polarity confusion ----------------------------------------------------------------

# Nouns a reply names its answer with: "the correct answer", "options are wrong".
_CONFUSION_NOUN = (
    r"(?:answers?|options?|choices?|ones?|candidates?|responses?|outputs?|criteria|criterion"
    r"|claims?)"
)


def detect_polarity_confusion(
    text: str | None,
    polarity: Polarity,
    *,
    words: tuple[str, str] | None = None,
    task: Task = "choice",
) -> bool:
    """Whether a reply reads as an answer to the opposite question.

    A reverse leg is confused when it speaks of the correct answer(s) and never of
    incorrect ones ("The correct answer is c)"); a direct leg when it speaks only
    of incorrect ones. Replies that mention both are given the benefit of the
    doubt: they usually discuss each option.

    ``words``: the template's ``(positive, negative)`` words, as for
    :func:`parse_reply`, such as ``("accurate", "inaccurate")``: "The accurate answer
    is C." is then confused on the reverse leg. The words the parser always knows for
    the ``task`` (the paper's "correct" and "incorrect", "better" and "worse", "met"
    and "not met", and the bundled templates') count for every template.
    """
    if not text:
        return False
    positive_phrase, negative_phrase = _confusion_patterns(words, task)
    positive = positive_phrase.search(text) is not None
    negative = negative_phrase.search(text) is not None
    if polarity is Polarity.REVERSE:
        return positive and not negative
    return negative and not positive


@functools.lru_cache(maxsize=64)
def _confusion_patterns(
    words: tuple[str, str] | None, task: str = "choice"
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The phrases that name an answer in positive words ("the correct answer", "options
    are right") and in negative ones ("incorrect options", "answer is not correct"), in
    the vocabulary the parser reads with these ``words``. Built on first use, once per
    pair of words: a template's words are not known at import."""
    vocab = _Vocab.of(words, task)
    positive = _any_of(vocab.positive)
    negative = rf"(?:{_any_of(vocab.negative)}|not\s+{positive})"
    noun = _CONFUSION_NOUN
    return (
        re.compile(
            rf"(?<![\w-])(?<!not )(?<!to ){positive}\s+{noun}\b"
            rf"|\b{noun}\s+(?:is|are)\s+{positive}\b",
            re.IGNORECASE,
        ),
        re.compile(rf"\b{negative}\s+{noun}\b|\b{noun}\s+(?:is|are)\s+{negative}\b", re.IGNORECASE),
    )


def _any_of(words: Iterable[str]) -> str:
    """A group that matches any of ``words`` (a word of several words across any
    spacing), longest first."""
    spelled = {r"\s+".join(map(re.escape, word.split())) for word in words if word.strip()}
    return f"(?:{'|'.join(sorted(spelled, key=lambda word: (-len(word), word)))})"
