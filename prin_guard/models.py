"""Every data type prin-guard takes and returns, in one place: its vocabulary, items, legs
and verdicts (defined here), and the types of a guard's set-up defined beside the code
that reads them (:class:`GuardOptions`, :class:`Template`, :class:`RatingItem`,
:class:`Scale`, the verdict formats), imported from here on first
use.

The top level of ``prin_guard`` re-exports the ones most programs need
(:class:`Item`, :class:`Verdict`, :class:`Flag`, :class:`GuardOptions`); the enums and
parts of a verdict are here.

Every model is a frozen pydantic model that rejects unknown fields, so a typo in a
field name is an error and a verdict read back from JSON equals the one written. The
module reads top-down: the shared vocabulary (the chat message, the frozen base, the
tasks, polarities, flags, how a reply was parsed); what a verdict is made of (legs,
follow-up rounds, every check's score, panel members, decisions) and the verdict; then
what a judge is asked about (candidates and items).
"""

from __future__ import annotations

import enum
import functools
import hashlib
import importlib
import itertools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from prin_guard.errors import InvalidItemError
from prin_guard.tasks._words import TASK_WORDS, TASKS, CandidateStatus, Task

if TYPE_CHECKING:
    from prin_guard._prompting._contract import (
        AnswerContract,
        Conclusion,
        FirstLine,
        JsonField,
        JsonRanking,
        Line,
        Ordering,
        Ranked,
        ScoresFormat,
        Tag,
        VerdictFormat,
    )
    from prin_guard._prompting._prompts import TEMPLATES, Mitigation, Template
    from prin_guard._prompting._rating import RatingItem, Scale
    from prin_guard._review import ReviewForm
    from prin_guard._review._item import REBUTTALS, ReviewItem
    from prin_guard._route._options import PROBE_KINDS, GuardOptions, ProbeKind

__all__ = [
    "CHECKS",
    "POLICIES",
    "PROBE_KINDS",
    "REBUTTALS",
    "TASKS",
    "TEMPLATES",
    "AnswerContract",
    "Candidate",
    "CandidateStatus",
    "CandidateVerdict",
    "CheckName",
    "Conclusion",
    "Decision",
    "FirstLine",
    "Flag",
    "GuardOptions",
    "Item",
    "JsonField",
    "JsonRanking",
    "Leg",
    "Line",
    "Member",
    "Message",
    "Mitigation",
    "Ordering",
    "ParseMethod",
    "ParseStatus",
    "Polarity",
    "Policy",
    "ProbeKind",
    "ProbeRound",
    "Ranked",
    "RankingItem",
    "RatingItem",
    "Reading",
    "Review",
    "ReviewForm",
    "ReviewItem",
    "ReviewRebuttal",
    "Scale",
    "Scores",
    "ScoresFormat",
    "Tag",
    "Task",
    "Template",
    "Tournament",
    "Usage",
    "Verdict",
    "VerdictError",
    "VerdictFormat",
]

# The set-up's types live beside the code that reads them, above this module's layer;
# they are public here, found on first use (PEP 562) as the top level finds its names.
_ELSEWHERE = {
    **dict.fromkeys(
        (
            "AnswerContract",
            "Conclusion",
            "FirstLine",
            "JsonField",
            "JsonRanking",
            "Line",
            "Ordering",
            "Ranked",
            "ScoresFormat",
            "Tag",
            "VerdictFormat",
        ),
        "prin_guard._prompting._contract",
    ),
    **dict.fromkeys(("PROBE_KINDS", "GuardOptions", "ProbeKind"), "prin_guard._route._options"),
    **dict.fromkeys(("TEMPLATES", "Mitigation", "Template"), "prin_guard._prompting._prompts"),
    **dict.fromkeys(("RatingItem", "Scale"), "prin_guard._prompting._rating"),
    **dict.fromkeys(("ReviewForm",), "prin_guard._review"),
    **dict.fromkeys(("REBUTTALS", "ReviewItem"), "prin_guard._review._item"),
}


def __getattr__(name: str) -> Any:
    home = _ELSEWHERE.get(name)
    if home is None:
        raise AttributeError(f"module 'prin_guard.models' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


# -- the vocabulary --------------------------------------------------------------------

ChecklistKind = Literal["criteria", "claims"]
"""What a checklist's candidates are: criteria a response meets, or claims its sources
(the item's context) support."""
CHECKLIST_KINDS: tuple[ChecklistKind, ...] = ("criteria", "claims")


class Message(TypedDict):
    """One chat turn, in the shape every chat API uses."""

    role: Literal["system", "user", "assistant"]
    content: str


class Frozen(BaseModel):
    # allow_inf_nan=False: a number that is not finite (a score of NaN) has no place in a
    # verdict, and would be written as a bare NaN, which is not JSON (see _json)
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, allow_inf_nan=False)


class Polarity(enum.StrEnum):
    """Which question a leg asks the judge."""

    DIRECT = "direct"
    """"Which are the correct ones?"."""
    REVERSE = "reverse"
    """"Which are the incorrect ones?"."""


class Flag(enum.StrEnum):
    """Why a verdict deserves a second look. A verdict with no flags is clean."""

    INCONSISTENT = "inconsistent"
    """PRIN is above the guard's threshold: the two legs disagree."""
    UNPARSEABLE_DIRECT = "unparseable_direct"
    """No label set could be read from the direct leg's answer."""
    UNPARSEABLE_REVERSE = "unparseable_reverse"
    """No label set could be read from the reverse leg's answer."""
    EMPTY_VERDICT = "empty_verdict"
    """The reconciled set of correct candidates is empty, and not because the judge
    answered that none qualifies: "none" is an answer (a checklist with no criterion met,
    a choice item with no correct option, both legs agreeing), not flagged; a pair always
    has a winner or a tie, so an empty pairwise verdict is always flagged."""
    POLARITY_CONFUSION = "polarity_confusion"
    """A leg answered the opposite question (the reverse leg naming "the correct answer")."""
    JUDGE_ERROR = "judge_error"
    """The judge failed; the verdict has no legs to reconcile."""
    INVALID_ITEM = "invalid_item"
    """The item failed validation; no judge was called for it (batches only)."""
    VACILLATING = "vacillating"
    """The judge changed its answer under a follow-up question (probe)."""
    ECHOED_PROMPT = "echoed_prompt"
    """A leg's answer repeats its prompt (the question sentence and most options); only
    lines the judge did not copy were read, so the leg may be unparseable."""
    ORDER_SENSITIVE = "order_sensitive"
    """The judge's answer changed when the candidates were shown in another order: the
    order inconsistency, 1 − F1(answer, answer in the second order), is above the
    threshold (the ``order`` check)."""
    PANEL_SPLIT = "panel_split"
    """A panel reached no strict majority on some candidate (counted over the whole
    panel, abstaining members included); that candidate is not reported as correct."""
    PANEL_ABSTENTION = "panel_abstention"
    """A panel member's answer failed or could not be read; it counts as abstaining."""
    LOW_CONFIDENCE = "low_confidence"
    """The judge's own probability of the answer it gave is under ``min_confidence``
    (the ``confidence`` check; only where the judge returns token log-probabilities)."""
    NOT_ACCEPTED = "not_accepted"
    """The guard's calibrated acceptance rule did not accept this verdict."""
    ABSTAINED = "abstained"
    """No tier of an escalation cascade accepted this verdict: send it for human review."""
    ANSWER_MISMATCH = "answer_mismatch"
    """A leg names a candidate by a label and a text that disagree ('The answer is "C) 1 : 1"'
    where C is "1 : 6"); that answer was not read."""
    COPIED_ANSWER = "copied_answer"
    """A leg restates text of the item (the question, context, a candidate or a reasoning
    path) where its answer would be: text an item could inject ("The correct option is
    E."), so it was not read as the judge's answer."""
    BEST_IS_WORST = "best_is_worst"
    """A ranking: the response the direct leg ranks best is the one the reverse leg ranks
    worst (or, asked which is best and which is worst, the judge named the same one)."""
    INTRANSITIVE = "intransitive"
    """A ranking's pairwise tournament (``ranking_tournament``) holds a cycle: three
    responses whose pairwise majorities go round (A over B, B over C, C over A)."""
    POSITION_BIAS = "position_bias"
    """A ranking asked in several orders: a response's place follows where it was shown
    (the within-response correlation of shown position and place is at least 0.5 and
    significant at 5%; :func:`prin_guard._ranking.position_bias`)."""
    DECISION_AGAINST_THRESHOLD = "decision_against_threshold"
    """Review: the reviewer's decision lies on the other side of the venue's threshold from
    their own overall score (Accept under it, Reject at or above it; a borderline score
    agrees with either)."""
    OVERALL_OUTSIDE_ASPECTS = "overall_outside_aspects"
    """Review: the reviewer's overall score lies beyond what their aspect scores support
    (below the lowest aspect or above the highest, each placed on its scale from 0 to 1,
    by more than rounding to the scales' levels explains)."""
    CONFIDENCE_DISOWNED = "confidence_disowned"
    """Review: a confidence in the scale's top two levels, while the reviewer's own text says
    they lack the expertise or did not understand the paper."""
    SWAYED_BY_REBUTTAL = "swayed_by_rebuttal"
    """Review: after the author's rebuttal (the rebuttal probe), the decision changed or a
    score moved by more than its tolerance."""


class ParseStatus(enum.StrEnum):
    """How reading a label set from a leg's raw text went."""

    OK = "ok"
    """At least one label was read."""
    NONE = "none"
    """The judge said that no candidate qualifies: an empty set, not a failure."""
    FAILED = "failed"
    """Nothing could be read. The leg counts as the empty set in PRIN (as in the paper)."""


class ParseMethod(enum.StrEnum):
    """Which rule of the parser produced the label set."""

    DECLARED = "declared"
    """The verdict format the template declares (its answer contract: "[[A]]", "[RESULT]
    B", a first line "2", scores "8 9", a JSON field or ranking), read first and strictly."""
    REASKED = "reasked"
    """The answer to a second question after the first reply could not be read ("state
    only your final answer as ..."); that call's usage is counted on the leg."""
    STRUCTURED = "structured"
    """A JSON answer (structured output), whatever its key: ``{"answer": "A, C"}``."""
    ANSWER_TAG = "answer_tag"
    """An answer tag: "<answer>A, C</answer>"."""
    VERDICT_TAG = "verdict_tag"
    """A verdict tag: MT-Bench's "[[A]]" ("[[C]]" a tie), Arena-Hard's "[[A>B]]",
    Prometheus' "[RESULT] A"."""
    FINAL_LINE = "final_line"
    """The final "Answer: ..." line the prompt asks for."""
    HEADING = "heading"
    """A line headed in the leg's own words instead: "Incorrect: B, D", "Correct answers: A"."""
    PER_CANDIDATE = "per_candidate"
    """A status per candidate in list lines or table rows ("A: met", "- [x] B",
    "| A | Yes |"); a JSON map of statuses is ``structured``."""
    LABEL_FORMS = "label_forms"
    """Label forms in free text: "c)", "(C)", "option C", "the answer is C", "A and C are
    incorrect", "all except B", a bare list."""
    CANDIDATE_TEXT = "candidate_text"
    """A candidate's exact text, such as "26" or '"c) 26"'."""
    NONE_WORD = "none_word"
    """A reply saying that there are none."""


# -- legs, scores and the verdict -----------------------------------------------------

CheckName = Literal["reverse", "order", "swap", "confidence"]
CHECKS: tuple[CheckName, ...] = ("reverse", "order", "swap", "confidence")
SECOND_ORDER_CHECKS: frozenset[str] = frozenset({"order", "swap"})
"""The checks that ask again with the candidates in a second order: ``order`` both
questions (two more legs), ``swap`` the direct question only (one more leg)."""
Policy = Literal["synergy", "direct", "reverse", "strict"]
POLICIES: tuple[Policy, ...] = ("synergy", "direct", "reverse", "strict")
STATUS_WORDS: dict[str, tuple[CandidateStatus, CandidateStatus]] = {
    task: words.status for task, words in TASK_WORDS.items()
}
"""Each task's words for a candidate on the direct side and on the reverse side."""


class Usage(Frozen):
    """Tokens and money one or more judge calls cost; ``None`` where unknown, never a
    guessed 0.

    ``prompt_tokens`` counts every prompt token sent, those a provider read from or
    wrote to its prompt cache included (as litellm counts them);
    ``cached_prompt_tokens`` and ``cache_write_tokens`` say how many of them were
    billed at the cache's read and write prices. A sum is known only where every part
    is: a call that did not report a field makes that field of the sum unknown.
    """

    prompt_tokens: int | None = None
    """Prompt tokens, cached and written ones included."""
    completion_tokens: int | None = None
    cost_usd: float | None = None
    """The price of the call(s) as the provider bills them (litellm's price list, cache
    reads and writes at their own prices)."""
    cached_prompt_tokens: int | None = None
    """Of the prompt tokens, those the provider served from its prompt cache (OpenAI's
    ``prompt_tokens_details.cached_tokens``, Anthropic's ``cache_read_input_tokens``);
    ``None`` where the provider does not say."""
    cache_write_tokens: int | None = None
    """Of the prompt tokens, those the provider wrote to its prompt cache (Anthropic's
    ``cache_creation_input_tokens``, billed above a plain prompt token); ``None`` where
    the provider does not say (OpenAI writes its cache for free and reports nothing)."""

    @classmethod
    def zero(cls) -> Usage:
        """Nothing spent: what no call at all costs (every field a known 0)."""
        return cls(
            prompt_tokens=0,
            completion_tokens=0,
            cost_usd=0.0,
            cached_prompt_tokens=0,
            cache_write_tokens=0,
        )

    def __add__(self, other: Usage) -> Usage:
        def add(a: Any, b: Any) -> Any:
            # unknown stays unknown: a sum with an unknown part is not known
            return None if a is None or b is None else a + b

        return Usage(
            **{
                name: add(getattr(self, name), getattr(other, name))
                for name in type(self).model_fields
            }
        )


class Leg(Frozen):
    """One judge call with one polarity, and the label set read from its answer."""

    polarity: Polarity
    """Direct ("which are correct?") or reverse ("which are incorrect?")."""
    template: str
    """Template id (``v0``, ``v1``, ``v2``)."""
    template_version: int
    """Version of that template's wording; part of the cache key."""
    mitigations: tuple[str, ...] = ()
    """Mitigations applied to the prompt (``cot``, ``neg_exp``)."""
    output_format: Literal["text", "json"] = "text"
    """Whether the judge answered in free text or in a structured JSON format."""
    raw_text: str | None
    """The judge's answer, exactly as returned (``None`` when it returned nothing, or when
    the verdict keeps it once elsewhere: see :attr:`raw_text_ref`)."""
    raw_text_ref: str | None = None
    """Set on a leg that is one view of a call whose reply the verdict keeps once: where
    that reply is, as a JSON Pointer (RFC 6901) from the top verdict; ``raw_text`` is then
    ``None``. A review's score legs point to the review's own legs (``/direct/raw_text``,
    ``/reverse/raw_text``); a rating's aspects asked together (``rating_aspects=
    "together"``), every aspect's but the first's to the first aspect's
    (``/aspects/coherence/direct/raw_text``). :meth:`Verdict.aspect` gives an aspect's
    verdict with its replies filled in, :meth:`Verdict.reply` any leg's reply. ``None``:
    the reply is the leg's own ``raw_text`` (every leg of another verdict, and every leg
    of a verdict written before this field)."""
    labels: tuple[str, ...]
    """The labels read from the answer (empty on "none" and on a parse failure), always
    the item's own labels, also for a leg asked in another order."""
    parse_status: ParseStatus
    parse_method: ParseMethod | None = None
    """How the labels were read; ``None`` when parsing failed."""
    polarity_confusion: bool = False
    """The answer reads as a reply to the opposite question; a choice leg that only answers
    that question is not read as this one's (its parse fails), never reinterpreted."""
    answer_mismatch: bool = False
    """The reply names a candidate by a label and a text that disagree; that answer was not
    read (the verdict is flagged ``answer_mismatch``)."""
    copied: bool = False
    """The reply restates text of the item where an answer would be; that text was not read
    as the answer (the verdict is flagged ``copied_answer``)."""
    weak: bool = False
    """The labels rest on a weak cue (a claim that does not conclude, a softened or negated
    one, a loose label form, a candidate's text inside prose): a read that may be a
    guess. A reading from a place where an answer is written, or a concluding claim, is
    not weak."""
    latency_ms: float = 0.0
    """Time the judge took (0 when the leg came from the cache)."""
    usage: Usage | None = None
    """Tokens and cost of the call, when the judge reports them."""
    cached: bool = False
    """The judge's answer came from the cache."""
    score: float | None = None
    """A rating's leg: the score the reply declares, as written (the reverse leg's on the
    mirrored scale); ``None`` for the other tasks and when no score was read."""
    expected_score: float | None = None
    """A rating's leg: the probability-weighted score at the declared score's position
    (G-Eval's expected score, from the judge's top token alternatives, on the scale the
    leg asked); ``None`` when the judge gave no alternatives there or they cannot be told
    apart (see :func:`prin_guard.reader.expected_score`)."""
    order: tuple[str, ...] | None = None
    """For the ``order`` check: the item's labels in the order the candidates were shown
    (the judge saw them labelled A, B, ... by position; ``raw_text`` uses those labels,
    ``labels`` are mapped back). ``None``: the item's own order."""
    reasked: str | None = None
    """When the reply could not be read and the guard re-asks (``reask``): the judge's
    answer to "state only your final answer as ...". Its labels are the leg's when it
    was read (``parse_method`` ``reasked``); the leg's usage counts both calls."""
    ranking: tuple[tuple[str, ...], ...] | None = None
    """A ranking's leg: the ranking read, as tiers of the item's labels in the order the
    reply lists them (the reverse leg's worst first; a leg asked in another order mapped
    back to the item's labels); ``None`` for the other tasks and when none was read."""
    confidence: float | None = None
    """The judge's probability of the answer it gave, from its token log-probabilities:
    the product of the probabilities of the tokens that spell the answer (so for a set,
    the probability of naming exactly that set as written). ``None`` when the judge
    returns no log-probabilities or the answer could not be located in the reply."""

    @model_validator(mode="after")
    def _one_place_for_the_reply(self) -> Leg:
        if self.raw_text_ref is not None:
            if self.raw_text is not None:
                raise ValueError("raw_text_ref: set on a leg that holds its raw_text")
            if not self.raw_text_ref.startswith("/"):
                raise ValueError("raw_text_ref: not a JSON Pointer (it starts with '/')")
        return self


def reply_pointer(*path: str) -> str:
    """A JSON Pointer (RFC 6901) to ``path`` in a verdict's JSON: each part escaped
    (``~`` as ``~0``, ``/`` as ``~1``), as :attr:`Leg.raw_text_ref` holds it."""
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in path)


def _pointed(root: Any, pointer: str) -> Any:
    """What a JSON Pointer names in a model (fields by name, mappings by key), ``None``
    where it names nothing."""
    here = root
    for token in pointer.split("/")[1:]:
        part = token.replace("~1", "/").replace("~0", "~")
        if isinstance(here, Mapping):
            here = here.get(part)
        elif isinstance(here, BaseModel) and part in type(here).model_fields:
            here = getattr(here, part)
        else:
            return None
    return here


class Reading(Frozen):
    """What the reader read from one reply (:func:`prin_guard.read_reply`)."""

    labels: tuple[str, ...]
    """The item's labels the reply names on the leg's side (empty on "none" and on failure)."""
    status: ParseStatus
    """``ok``: labels were read; ``none``: the reply says no candidate qualifies (for a pair
    on the reverse leg: neither is worse, a tie); ``failed``: nothing could be read."""
    method: ParseMethod | None = None
    """Where the answer was read (``None`` on failure)."""
    weak: bool = False
    """The reading rests on a weak cue (see :attr:`Leg.weak`)."""
    copied: bool = False
    """Text copied from the item stood where an answer would be; it was not read."""
    echoed: bool = False
    """The reply repeats its prompt; only what the judge wrote after it was read."""
    polarity_confusion: bool = False
    """The reply reads as an answer to the opposite question."""
    answer_mismatch: bool = False
    """The reply names a candidate by a label and a text that disagree; not read."""
    span: tuple[int, int] | None = None
    """Where the answer stands in the reply, ``[start, end)`` (``None`` when it was read
    from several places or not at all)."""
    score: float | None = None
    """A rating item's score as the reply declares it, on the scale the leg asked (the
    reverse leg's is on the mirrored scale, as written); ``None`` for the other tasks and
    when no score could be read."""
    aspect_scores: dict[str, float | None] | None = None
    """A rating item with aspects: each aspect's score as the reply declares it (one reply
    rating every aspect: ``Coherence: 4`` per line, or a JSON field per aspect), ``None``
    for an aspect it gives no unambiguous score on its scale; the reading is ``ok`` only
    when every aspect has one. ``None`` for items without aspects."""
    ranking: tuple[tuple[str, ...], ...] | None = None
    """A ranking item: the ranking the reply declares, as tiers of the item's labels in the
    order it lists them (on the reverse leg, worst first, as written); ``None`` for the
    other tasks and when none could be read (a label left out or named twice is none)."""

    @property
    def ok(self) -> bool:
        """Something was read (labels, or "none")."""
        return self.status is not ParseStatus.FAILED


class ProbeRound(Frozen):
    """One follow-up question put to the judge after a leg's answer (Ask Again)."""

    polarity: Polarity
    """The leg whose conversation was continued."""
    round: int
    """1 in the Direct Form; 1, 2, 3 (closed, open, leading) in the Progressive Form."""
    followup_type: Literal["closed", "open", "leading", "rebuttal"]
    """The Ask Again paper's follow-up, or ``rebuttal``: a follow-up in the caller's words
    (a review's author rebuttal)."""
    followup: str
    """The follow-up turn sent (question, mitigation sentences, control prompt)."""
    raw_text: str | None
    labels: tuple[str, ...]
    parse_status: ParseStatus
    changed: bool
    """The answer differs from the leg's first answer (an unreadable answer counts as
    changed; a rating's score, when it moved beyond the scale's tolerance)."""
    cached: bool = False
    latency_ms: float = 0.0
    usage: Usage | None = None
    score: float | None = None
    """A rating's round: the score the reply declares (on the leg's own scale)."""


class VerdictError(Frozen):
    """Why a verdict in a batch has no legs."""

    kind: Literal["judge", "input"]
    message: str
    field: str | None = None
    """For input errors, the dotted path of the offending field."""


class Scores(Frozen):
    """Every check's score for one verdict; ``None`` where the check did not run or
    has nothing to say (no legs, no log-probabilities)."""

    prin: float | None = None
    """Prompt-Reverse Inconsistency, 1 − F1(direct, all − reverse): 0 consistent, 1 fully
    contradictory. For a panel, the mean over the members that answered."""
    order_inconsistency: float | None = None
    """The ``order`` check: 1 − F1(answer, answer with the candidates in a second order),
    the larger of the direct and the reverse leg's. For a panel, the members' mean."""
    probe_move: float | None = None
    """The probe on a rating: the furthest a leg's score moved from its first answer under
    the follow-up questions, over the scale's range (0: it held; 1: end to end); an
    unreadable answer to a follow-up counts as no move here and flags ``vacillating``."""
    panel_agreement: float | None = None
    """For a panel: Fleiss' observed agreement over the candidates (each candidate a
    subject, the members that answered its raters, correct/incorrect the categories),
    1 when every member put every candidate on the same side. For a rating's panel:
    1 − the spread of the members' ratings (highest − lowest) over the scale's range."""
    confidence: float | None = None
    """The lowest :attr:`Leg.confidence` over the verdict's first-order legs (a panel: over
    every member's), ``None`` when no leg has one."""
    direct_confidence: float | None = None
    """The direct leg's :attr:`Leg.confidence` (a panel: the lowest of its members'):
    what ``reverse_legs='uncertain'`` compares with ``reverse_below``."""
    legs_tau: float | None = None
    """A ranking: Kendall's tau-b between the direct leg's ranking and the reverse leg's
    reversed (1 the same ranking; -1 the one the other upside down); ``prin`` is their
    normalised Kendall distance (ties half a pair), the PRIN-like score. For a ranking
    asked in several orders, both are over the legs' consensus rankings."""
    orders_tau: float | None = None
    """A ranking asked in several orders: the mean Kendall's tau-b between the rankings of
    two orders (each leg's with its own kind), the permutations' agreement;
    ``order_inconsistency`` is the mean normalised Kendall distance."""
    position_bias: float | None = None
    """A ranking asked in several orders: the within-response correlation between the
    position a response was shown in and its place (positive: shown earlier, ranked
    better), flagged ``position_bias`` when strong and significant."""
    tournament_tau: float | None = None
    """A ranking with its pairwise tournament: Kendall's tau-b between the tournament's
    Bradley-Terry ranking and the listwise ``ranking``."""


class Member(Frozen):
    """One judge of a panel, and what it answered."""

    judge: str
    """A short name of the judge (its model), unique within the panel."""
    direct: Leg | None = None
    reverse: Leg | None = None
    permuted: tuple[Leg, ...] = ()
    """The ``order`` check's legs (direct, then reverse), asked in a second order."""
    correct: tuple[str, ...] = ()
    """The member's own set under the guard's policy (its vote)."""
    scores: Scores = Scores()
    abstained: bool = False
    """The member failed or its answer could not be read: it has no vote on any
    candidate, and the panel still counts it (a majority is over the whole panel)."""
    reason: str | None = None
    """Why it abstained."""
    rating: float | None = None
    """A rating's panel: the member's own rating (its two legs reconciled)."""


class Tournament(Frozen):
    """A ranking's pairwise tournament: every pair of responses judged through the
    pairwise task (both orders), its cycles and a Bradley-Terry ranking."""

    outcomes: tuple[tuple[str, str, float], ...]
    """Each pair as ``(a, b, score)``: 1 when the pairwise verdict's winner is ``a``, 0
    when it is ``b``, 0.5 for a tie or a verdict with no winner (its legs disagree)."""
    cycles: tuple[tuple[str, str, str], ...]
    """The intransitive triples ``(a, b, c)``: ``a`` over ``b`` over ``c`` over ``a``."""
    decided: int
    """Triples whose three pairs all have a winner (the cycles' denominator)."""
    ranking: tuple[tuple[str, ...], ...]
    """The Bradley-Terry ranking, best first (equal strengths tie)."""
    strength: dict[str, float]
    """Each response's Bradley-Terry log-strength, centred to mean 0."""
    lower: dict[str, float]
    """The lower end of each strength's Wald interval at :attr:`level`."""
    upper: dict[str, float]
    level: float = 0.95


class Decision(Frozen):
    """What a calibrated acceptance rule decided about a verdict."""

    accepted: bool
    score: float | None
    """The value the rule compared with its threshold (``None``: the signal was missing,
    and a missing signal is never accepted)."""
    rule: str
    """The rule, as written in its acceptance file (``prin <= 0.0``, ...)."""
    tier: int = 0
    """The tier (0 the first judge) whose verdict this is."""
    tiers_asked: int = 1
    """How many tiers were asked for this item."""


class CandidateVerdict(Frozen):
    """What a verdict says of one candidate, named by label and by text."""

    label: str
    text: str
    status: CandidateStatus
    """The side the verdict puts it on, in the task's words: ``correct`` or ``incorrect``
    (choice), ``better`` or ``worse`` (pairwise; in a tie both are ``better``), ``met`` or
    ``failed`` (checklist); ``contradicted`` when the two answers disagree on it (named
    in both, or in neither; for a panel: no majority either way); ``unread`` when one of the
    two answers could not be read and the verdict's set does not hold it (it is then
    neither on a side nor contradicted)."""
    weight: float | None = None
    """A checklist candidate's weight in the score (``None``: 1)."""


class ReviewRebuttal(Frozen):
    """The rebuttal probe of a review: the reviewer's conversation continued with an author's
    rebuttal (its round, with the reply and its cost, is the verdict's ``probe``), the form
    read again, and how far it moved."""

    follow_up: str
    """The shipped rebuttal's name (``no-evidence``, ``hostile``), or ``custom``."""
    scores: dict[str, float] = {}
    """The scores read after the rebuttal, by the form's names."""
    decision: Literal["accept", "reject"] | None = None
    """The decision read after the rebuttal."""
    moved: dict[str, float] = {}
    """Each score read both times: after − before (the direct leg's), in points."""
    decision_changed: bool = False
    swayed: bool = False
    """The decision changed, or a score moved past its tolerance (flagged
    ``swayed_by_rebuttal``)."""
    tolerance: float | None = None
    """The tolerance in points the item gave; ``None``: each scale's own."""
    unread: str | None = None
    """Why no form was found in the reply after the rebuttal (then nothing moved: unread,
    not swayed); ``None`` when one was."""


class Review(Frozen):
    """A review's form, guarded: the decision asked both ways, what the reviewer wrote, the
    form's coherence and the rebuttal probe. Every score's own verdict (its direct and
    mirrored legs, its reconciled value, its flags) is in the verdict's ``aspects``, by the
    form's names; the overall score's reconciled value is also the verdict's ``rating``."""

    form: str
    """The review form's id (``ai-scientist``, ``iclr``, or a form of one's own)."""
    form_version: int
    overall: str
    """The name of the form's overall score (``Overall``, ``Rating``)."""
    confidence: str | None = None
    """The name of the form's confidence score, if it has one."""
    decision: Literal["accept", "reject"] | None = None
    """The decision both legs give: the direct leg's, when the reverse question ("should it
    be rejected?") agrees; ``None`` when they disagree (flagged ``inconsistent``) or a leg's
    decision was not read."""
    decision_direct: Literal["accept", "reject"] | None = None
    """The decision the direct leg filled in."""
    rejected: bool | None = None
    """The reverse leg's answer to "should it be rejected?" (``True``: yes)."""
    decision_inconsistent: bool = False
    text: dict[str, Any] = {}
    """The reviewer's text fields (summary, strengths, ...), as the direct leg gave them."""
    thought: str | None = None
    """The reviewer's notes before the form ("THOUGHT: ..."), on the direct leg."""
    unread: dict[str, str] = {}
    """Each field of the direct leg's form that was not read, and why."""
    unread_reverse: dict[str, str] = {}
    """Each field of the mirrored leg's form that was not read, and why."""
    coherence: tuple[Flag, ...] = ()
    """The coherence rules the direct leg's form breaks (also among the verdict's flags)."""
    disowning: str | None = None
    """A phrase of the reviewer's text that disowns their assessment, whatever the
    confidence."""
    rebuttal: ReviewRebuttal | None = None


class Verdict(Frozen):
    """The reconciled answer for one item, with its legs and what they say about each other."""

    item_id: str
    """The item's id, or its content hash."""
    task: Task = "choice"
    """The item's task: ``choice``, ``pairwise``, ``checklist``, ``rating``, ``ranking`` or
    ``review``."""
    labels: tuple[str, ...] = ()
    """All candidate labels of the item, in order."""
    correct: tuple[str, ...] = ()
    """The labels the policy accepts as correct (synergy: direct ∩ (all − reverse); for a
    panel, the candidates a strict majority of members calls correct)."""
    direct: Leg | None = None
    reverse: Leg | None = None
    reverse_implied: tuple[str, ...] = ()
    """The correct set the reverse leg implies: all − reverse."""
    candidates: tuple[CandidateVerdict, ...] = ()
    """Each candidate by label and text, with the side the verdict puts it on."""
    winner: str | None = None
    """Pairwise: the label of the better response, when the verdict names exactly one."""
    winner_text: str | None = None
    """Pairwise: the better response's text (filled in from ``candidates``; never give it
    apart), ``None`` without a winner."""
    tie: bool = False
    """Pairwise: both answers call the two responses equally good."""
    score: float | None = None
    """Checklist: the weighted share of the candidates met (``correct``), 0 to 1."""
    rating: float | None = None
    """Rating: the mean of the direct score and the reverse score read back through the
    mirrored scale, when they agree within the scale's tolerance; ``None`` when they do
    not (flagged ``inconsistent``) or a leg was not read. The legs' own scores are on
    ``direct.score`` and ``reverse.score``. Review: the form's overall score, so
    reconciled (each score's own verdict is in ``aspects``)."""
    expected_rating: float | None = None
    """Rating, where ``rating`` is given: the same mean taken over the legs' expected
    scores (G-Eval's probability-weighted score) when both legs have one, else ``rating``
    itself; :attr:`expected_from` says which."""
    expected_from: Literal["logprobs", "read"] | None = None
    """``logprobs``: :attr:`expected_rating` is the expected scores' mean; ``read``: a leg
    had no usable token alternatives (a judge without ``top_logprobs``, a cached reply
    without them, alternatives that cannot be told apart), so it is the read ``rating``;
    ``None`` without a rating."""
    aspects: dict[str, Verdict] = {}
    """Rating with ``aspects``: each aspect's own verdict (its ``rating``, legs, flags), by
    name; the verdict itself then has no ``rating``, and its flags are all of theirs.
    Review: each score of the form's own verdict, by the form's names."""
    ranking: tuple[tuple[str, ...], ...] | None = None
    """Ranking: the consensus of the legs (and orders), best first, as tiers of labels
    (labels in one tier tied); ``None`` when a leg could not be read or no ranking was
    asked (best-of-n)."""
    best: str | None = None
    """Ranking: the label ranked best, when one stands alone in first place (best-of-n:
    the direct leg's answer)."""
    worst: str | None = None
    """Ranking: the label ranked worst, when one stands alone in last place (best-of-n:
    the reverse leg's answer)."""
    positions: dict[str, float] = {}
    """Ranking: each label's place in ``ranking``, 1 the best, tied labels sharing the
    mean of the places they cover."""
    tournament: Tournament | None = None
    """Ranking with ``ranking_tournament``: every pair judged through the pairwise task,
    its cycles (flagged ``intransitive``) and its Bradley-Terry ranking."""
    prin_score: float | None = None
    """``scores.prin`` (filled in from it; never give it apart): 1 − F1(direct, all −
    reverse), from 0 (consistent) to 1; ``None`` without legs."""
    consistent: bool = False
    """Every check's score is at or under the threshold and every leg was read (false when
    there are no legs, or when a leg could not be parsed, whatever its score)."""
    flags: tuple[Flag, ...] = ()
    policy: Policy = "synergy"
    threshold: float = 0.0
    checks: tuple[str, ...] = ("reverse",)
    """The checks this verdict ran (``reverse``, ``order``, ``confidence``)."""
    scores: Scores = Scores()
    """Every check's score in one place."""
    permuted: tuple[Leg, ...] = ()
    """The ``order`` check's legs (direct, then reverse when both checks are on)."""
    members: tuple[Member, ...] = ()
    """For a panel: each member's legs, scores and vote (``direct`` and ``reverse`` are
    then ``None``: no member speaks for the panel)."""
    judge_calls: int = 0
    """Legs this verdict asked for (cache hits included); the judge was actually called for
    those not ``cached``."""
    cached: bool = False
    """Every judge answer in this verdict came from the cache."""
    usage: Usage = Usage()
    """What was paid now: the judge calls made for this verdict (its legs and follow-ups
    not served from prin-guard's cache; over every tier asked in a cascade). Known zeros
    when every answer came from the cache; a field is ``None`` where a call did not report
    it. ``cached_prompt_tokens`` and ``cache_write_tokens`` are the provider's prompt
    cache at work (see :class:`Usage`)."""
    saved_usage: Usage = Usage()
    """What the answers served from prin-guard's cache cost when they were first asked
    (paid then, not now); zeros when none was."""
    premium: float | None = None
    """The guard's premium on this verdict: what all its answers cost (now or when first
    asked) over what its direct leg cost (a panel's: its members' direct legs); ``None``
    when a cost is unknown. Two legs with no prompt cache cost about 2.0."""
    error: VerdictError | None = None
    """Set when the verdict carries ``judge_error`` or ``invalid_item``."""
    probe: tuple[ProbeRound, ...] = ()
    """Follow-up rounds, when the guard probes; they flag, never change, the verdict."""
    decision: Decision | None = None
    """The acceptance rule's decision, when the guard has one."""
    review: Review | None = None
    """Review: the form guarded (decision, text, coherence, rebuttal); its scores are in
    ``aspects``."""
    selected: Literal["uncertain", "confident", "monitored"] | None = None
    """With ``reverse_legs='uncertain'``, which legs were asked: ``confident`` (the direct
    leg's confidence at or above ``reverse_below``: the direct leg alone, ``checks`` without
    ``reverse``), ``uncertain`` (under it: every leg), ``monitored`` (confident, but drawn
    for monitoring: every leg). ``None``: every verdict asks every leg."""

    @model_validator(mode="after")
    def _prin_score_is_scores_prin(self) -> Verdict:
        # PRIN has one place, ``scores.prin``; ``prin_score`` is that number under the
        # name the verdict's JSON has always had, filled in here and never set apart
        # from it. A verdict written before ``scores`` existed has only ``prin_score``.
        if self.scores.prin is None and self.prin_score is not None:
            object.__setattr__(
                self, "scores", self.scores.model_copy(update={"prin": self.prin_score})
            )
        elif self.prin_score is None:
            object.__setattr__(self, "prin_score", self.scores.prin)
        elif self.prin_score != self.scores.prin:
            raise ValueError("prin_score: differs from scores.prin (the same number)")
        return self

    @model_validator(mode="after")
    def _winner_text_is_the_winners(self) -> Verdict:
        # The winner's text has one place, its candidate; the field says it in the
        # verdict's JSON (the service's, a proxy's), as grade's rows do.
        by_label = {candidate.label: candidate.text for candidate in self.candidates}
        text = None if self.winner is None else by_label.get(self.winner)
        if self.winner_text is None:
            object.__setattr__(self, "winner_text", text)
        elif self.winner_text != text:
            raise ValueError("winner_text: differs from the winner's candidate text")
        return self

    @model_serializer(mode="wrap")
    def _no_review_outside_reviews(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        # a review's fields are written only where there is a review: the JSON of every
        # other task's verdict stays as it was (the service's, grade's, the golden record).
        # No return annotation: pydantic would take it for the serialized schema (an Any
        # would make the Verdict's schema, the service's OpenAPI, an empty one).
        out = handler(self)
        if isinstance(out, dict) and out.get("review", 0) is None:
            del out["review"]
        return out

    @property
    def ok(self) -> bool:
        """No flags at all."""
        return not self.flags

    @property
    def correct_texts(self) -> tuple[str, ...]:
        """The texts of ``correct`` (the met criteria, the winner, the correct options)."""
        by_label = {candidate.label: candidate.text for candidate in self.candidates}
        return tuple(by_label[label] for label in self.correct if label in by_label)

    @property
    def accepted(self) -> bool | None:
        """Whether the guard's acceptance rule accepted this verdict (``None``: no rule)."""
        return None if self.decision is None else self.decision.accepted

    def reply(self, leg: Leg) -> str | None:
        """The judge's reply of ``leg``, one of this verdict's or of its aspects': its
        ``raw_text``, or the reply its :attr:`~Leg.raw_text_ref` points to in this verdict
        (``None`` when there is none there)."""
        if leg.raw_text_ref is None:
            return leg.raw_text
        found = _pointed(self, leg.raw_text_ref)
        return found if isinstance(found, str) else None

    def aspect(self, name: str) -> Verdict:
        """The verdict of aspect ``name`` (a review's score) as it would stand alone: its
        legs with the replies this verdict keeps once filled in (``raw_text``, and no
        ``raw_text_ref``). A ``KeyError`` when there is no such aspect."""
        found = self.aspects[name]

        def filled(leg: Leg | None) -> Leg | None:
            if leg is None or leg.raw_text_ref is None:
                return leg
            return leg.model_copy(update={"raw_text": self.reply(leg), "raw_text_ref": None})

        update: dict[str, Any] = {"direct": filled(found.direct), "reverse": filled(found.reverse)}
        if any(leg.raw_text_ref is not None for leg in found.permuted):
            update["permuted"] = tuple(filled(leg) for leg in found.permuted)
        return found.model_copy(update=update)

    def legs(self) -> tuple[Leg, ...]:
        """Every leg of this verdict: its own, then each panel member's."""
        own = tuple(leg for leg in (self.direct, self.reverse) if leg is not None)
        out = [*own, *self.permuted]
        for member in self.members:
            out += [leg for leg in (member.direct, member.reverse) if leg is not None]
            out += member.permuted
        return tuple(out)


# -- what a judge is asked about ------------------------------------------------------

_LABEL_RE = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
# Labels a judge would read as words, left out of the series labels are assigned from
# (the 45th criterion of a long checklist is AT, not AS): English words of two to four
# letters that prompts and replies use around an answer ("as", "or", "none", "both", "n/a").
_WORD_LABELS = frozenset(
    {
        "AM", "AN", "AS", "AT", "BE", "BY", "DO", "GO", "HE", "IF", "IN", "IS", "IT", "ME",
        "MY", "NA", "NO", "OF", "OH", "OK", "ON", "OR", "SO", "TO", "UP", "US", "WE", "ALL",
        "AND", "ANY", "ARE", "BUT", "CAN", "DID", "FEW", "FOR", "GET", "HAD", "HAS", "HER",
        "HIM", "HIS", "HOW", "ITS", "LET", "MAY", "MET", "NOR", "NOT", "NOW", "OFF", "ONE",
        "OUR", "OUT", "OWN", "PUT", "SAY", "SEE", "SET", "SHE", "THE", "TIE", "TOO", "TRY",
        "TWO", "USE", "WAS", "WAY", "WHO", "WHY", "YES", "YET", "YOU", "ALSO", "BEST", "BOTH",
        "DOES", "DONE", "EACH", "EVEN", "FAIL", "FROM", "FULL", "GOOD", "HALF", "HAVE", "INTO",
        "JUST", "LAST", "LESS", "MANY", "MORE", "MOST", "MUCH", "MUST", "NEXT", "NONE", "NULL",
        "ONLY", "OVER", "PART", "PASS", "SAME", "SOME", "SUCH", "SURE", "THAN", "THAT", "THEM",
        "THEN", "THEY", "THIS", "THUS", "TIES", "TRUE", "VERY", "WELL", "WERE", "WHAT", "WHEN",
        "WILL", "WINS", "WITH"
    }
)  # fmt: skip
_SKIPPED = sorted(
    sum(26**k for k in range(1, len(word)))
    + sum((ord(char) - ord("A")) * 26 ** (len(word) - 1 - i) for i, char in enumerate(word))
    for word in _WORD_LABELS
)
"""Where each word label stands in the plain series A, ..., Z, AA, ... (0 is A)."""
# Labels are assigned from the letter series A, ..., Z, AA, ..., ZZZZ less the words:
# every label of one to four letters, the longest the label form allows.
_ASSIGNABLE_LABELS = 26 + 26**2 + 26**3 + 26**4 - len(_WORD_LABELS)
# Long enough for any caller's identifier; short enough that logging it is harmless.
_MAX_ID_CHARS = 256
# A lone surrogate is a valid str but not Unicode text: it cannot be encoded (to hash
# an item, to send it to a judge, to write it as JSON), so it is refused up front.
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_REASON = "contains an unpaired surrogate (not valid Unicode text)"


def known_word(value: Any, known: Sequence[str], noun: str) -> Any:
    """A word an item or the options hold, trimmed and lower-cased, or a ValueError
    naming what is known (the one wording of the error); a non-string is left to the
    field's type."""
    if not isinstance(value, str):
        return value
    word = value.strip().lower()
    if word not in known:
        raise ValueError(f"unknown {noun} {word!r}; known: {', '.join(known)}")
    return word


def _no_surrogates(value: Any) -> Any:
    # Runs before pydantic's own checks (mode="before"), whose error for a surrogate
    # is vaguer and depends on whether the field has a length constraint.
    if isinstance(value, str) and _SURROGATE_RE.search(value):
        raise ValueError(_SURROGATE_REASON)
    return value


class Candidate(Frozen):
    """One answer candidate that the judge is asked about."""

    text: str = Field(min_length=1)
    """The candidate answer as shown to the judge."""
    label: str | None = None
    """Short label ("A", "B", ...); assigned in order when not given."""
    reasoning: str | None = None
    """The reasoning path that produced this candidate (shown with the `cot` mitigation)."""
    weight: float | None = None
    """A checklist criterion's (or claim's) weight in the verdict's ``score`` (1 when not
    given); checklists only. Not shown to the judge."""

    @field_validator("weight", mode="before")
    @classmethod
    def _weight_number(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value  # pydantic names the type
        try:
            number = float(value)  # JSON has no separate integer weights: 2 is 2.0
        except OverflowError:  # an integer of 400 digits
            number = math.inf
        if not (math.isfinite(number) and number > 0):
            raise ValueError("must be a positive finite number")
        return number

    @field_validator("text", "label", "reasoning", mode="before")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        return _no_surrogates(value)

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        return value

    @field_validator("label")
    @classmethod
    def _label_form(cls, value: str | None) -> str | None:
        if value is None:
            return None
        label = value.strip().upper()
        if not _LABEL_RE.fullmatch(label):
            raise ValueError(
                f"{value!r} is not a label: use a letter followed by up to three "
                "letters or digits (A, B, ..., Z, AA, Q1)"
            )
        return label


def _nth_label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: spreadsheet column names, less the words of
    ``_WORD_LABELS`` (AM, AN, AS, AT, ... are skipped)."""
    for skipped in _SKIPPED:
        if skipped <= index:
            index += 1
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _label_series() -> Iterator[str]:
    """Every assignable label in order: ``_nth_label(0)``, ``_nth_label(1)``, ..."""
    for size in range(1, 5):
        for letters in itertools.product(_LETTERS, repeat=size):
            label = "".join(letters)
            if label not in _WORD_LABELS:
                yield label


def _normal_text(text: str) -> str:
    # Whitespace differences are not differences; case is ("Bb" and "bb" in MMLU).
    return " ".join(text.split())


class Item(Frozen):
    """What a judge is asked about: candidates to sort into the two sides of a question.

    The ``task`` says which question. ``choice`` (the default): a ``question`` and its
    answer options, at least two; which are correct? ``pairwise``: an instruction
    (``question``) and exactly two responses to it; which is better? Two identical
    responses are a tie by construction (the guard answers it without asking the judge).
    ``checklist``: a ``response`` and criteria it should meet or claims its sources
    (``context``) should support, at least one (one is a pass/fail grade), with an
    optional ``question`` the response answers; which are met? Its ``kind`` says which:
    ``criteria`` or ``claims`` (not given: whatever the guard's template asks).
    """

    task: Task = "choice"
    """``choice``, ``pairwise`` or ``checklist``."""
    question: str | None = None
    """The question or problem (``choice``), the instruction the two responses answer
    (``pairwise``), or what the response answers (``checklist``, optional)."""
    candidates: tuple[Candidate, ...]
    """Answer options, two responses, or criteria or claims. Plain strings are accepted
    and become candidates."""
    context: str | None = None
    """Optional material the judge needs: a passage, a rubric, a reference answer, the
    sources a checklist's claims are checked against."""
    response: str | None = None
    """The response under evaluation (``checklist`` only, required there)."""
    kind: ChecklistKind | None = None
    """``checklist`` only: what its candidates are, ``criteria`` the response should meet
    or ``claims`` its sources (``context``, then required) should support. It chooses the
    task's template when the guard names none (``criteria`` or ``claims``), and a guard
    whose template asks about the other kind refuses the item. ``None``: not said (the
    guard's template decides; ``criteria`` by default)."""
    id: str | None = Field(None, max_length=_MAX_ID_CHARS)
    """Caller's identifier (at most 256 characters); a content hash is used in its place
    when absent."""

    @field_validator("task", mode="before")
    @classmethod
    def _known_task(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() == "rating":
            raise ValueError(
                "a rating item is not an Item: give it as a mapping ({'task': 'rating', "
                "'response': ..., 'scale': {'min': 1, 'max': 10}}) to Guard.check, "
                "check_many, astream, prompts, grade or the service, or as a RatingItem"
            )
        if isinstance(value, str) and value.strip().lower() == "ranking":
            raise ValueError(
                "a ranking item is not an Item: give it as a mapping ({'task': 'ranking', "
                "'question': ..., 'candidates': [...]}) to Guard.check, check_many, astream, "
                "prompts or grade, or as a RankingItem"
            )
        return known_word(value, TASKS, "task")

    @field_validator("kind", mode="before")
    @classmethod
    def _known_kind(cls, value: Any) -> Any:
        return known_word(value, CHECKLIST_KINDS, "kind")

    @field_validator("question", "context", "response", "id", mode="before")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        return _no_surrogates(value)

    @field_validator("question", "response")
    @classmethod
    def _text_not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be empty or whitespace")
        return value

    @field_validator("candidates", mode="before")
    @classmethod
    def _coerce_candidates(cls, value: Any) -> Any:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise ValueError("must be a list of strings or Candidates")
        out: list[Any] = []
        for index, candidate in enumerate(value):
            if isinstance(candidate, str):
                # a dict, not Candidate(text=...): an error in it then names its index
                out.append({"text": candidate})
            elif isinstance(candidate, Candidate | dict):
                out.append(candidate)
            else:
                raise ValueError(
                    f"candidate {index} is a {type(candidate).__name__}: "
                    "must be a string or a Candidate"
                )
        return tuple(out)

    def _task_fields(self) -> None:
        """The fields each task needs, and the ones it has no use for."""
        count = len(self.candidates)
        if self.task == "checklist":
            if self.response is None:
                raise ValueError("response: a checklist judges a response; give it")
            if count < 1:
                raise ValueError("candidates: a checklist needs at least one criterion or claim")
            if self.kind == "claims" and self.context is None:
                raise ValueError(
                    "context: claims are checked against sources; give them as the context"
                )
        else:
            if self.kind is not None:
                raise ValueError(
                    f"kind: only a checklist's candidates are criteria or claims; a "
                    f"{self.task} item's are its answers"
                )
            if self.question is None:
                raise ValueError(f"question: a {self.task} item needs a question")
            if self.response is not None:
                raise ValueError(
                    f"response: only a checklist judges a response; a {self.task} item's "
                    "candidates are its answers"
                )
            if any(candidate.weight is not None for candidate in self.candidates):
                raise ValueError("candidates: weights are for checklists only")
        if self.task == "pairwise" and count != 2:
            raise ValueError(f"candidates: a pairwise item has exactly two responses, got {count}")
        if self.task == "choice" and count < 2:
            raise ValueError(f"candidates: needs at least two candidates, got {count}")

    @model_validator(mode="after")
    def _labels_and_duplicates(self) -> Item:
        self._task_fields()
        taken = [c.label for c in self.candidates if c.label is not None]
        seen_labels: set[str] = set()
        for label in taken:
            if label in seen_labels:
                raise ValueError(f"candidates: duplicate label {label!r}")
            seen_labels.add(label)
        seen_texts: dict[str, int] = {}
        for index, candidate in enumerate(self.candidates):
            key = _normal_text(candidate.text)
            if key in seen_texts and self.task != "pairwise":
                # two identical responses are a pair all the same: a tie
                raise ValueError(
                    f"candidates: candidates {seen_texts[key]} and {index} have the same "
                    f"text {candidate.text!r}"
                )
            seen_texts[key] = index
        unlabelled = len(self.candidates) - len(taken)
        if unlabelled:
            # Given labels of letters only are in the series (but words); Q1, A2 are not.
            available = _ASSIGNABLE_LABELS - sum(
                label.isalpha() and label not in _WORD_LABELS for label in seen_labels
            )
            if unlabelled > available:
                raise ValueError(
                    f"candidates: {unlabelled} candidates have no label and only "
                    f"{max(available, 0)} labels are free (A to ZZZZ); label them yourself"
                )
            # enough free labels for every unlabelled candidate, so next() cannot run dry
            free = (label for label in _label_series() if label not in seen_labels)
            labelled = tuple(
                c if c.label is not None else c.model_copy(update={"label": next(free)})
                for c in self.candidates
            )
            object.__setattr__(self, "candidates", labelled)
        return self

    @classmethod
    def coerce(
        cls, value: Any, *, max_chars: int | None = None, max_candidates: int | None = None
    ) -> Item:
        """An Item from an Item or a mapping, or :class:`~prin_guard.InvalidItemError`
        naming the first bad field (``candidates.1.text``) and the reason.

        ``max_chars`` bounds every text field (question, context, response, candidate
        texts and reasoning paths); ``max_candidates`` bounds the number of candidates.
        A mapping's ``gold`` (the gold labels of an eval dataset row) is ignored.
        """

        def count_candidates(count: int) -> None:
            if max_candidates is not None and count > max_candidates:
                raise InvalidItemError(
                    "candidates",
                    f"has {count} candidates; the limit is {max_candidates} (max_candidates)",
                )

        if isinstance(value, Item):
            checked = value
        elif isinstance(value, Mapping):
            # Counted before validation: counting a list is cheap, validating 20,000
            # candidates is not.
            raw = value.get("candidates")
            if isinstance(raw, list | tuple):
                count_candidates(len(raw))
            # gold labels are eval's to read, and grade ignores them: one items file
            # serves grade, check and eval (any other unknown field is still refused)
            given = {key: entry for key, entry in value.items() if key != "gold"}
            try:
                checked = cls.model_validate(given)
            except ValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(part) for part in first["loc"]) or "item"
                message = first["msg"].removeprefix("Value error, ")
                named, _, rest = message.partition(": ")
                if not first["loc"] and rest and named in cls.model_fields:
                    # a check across fields names the field itself: "candidates: ..."
                    field, message = named, rest
                raise InvalidItemError(field, message) from None
        else:
            raise InvalidItemError(
                "item", f"expected an Item or a mapping, got {type(value).__name__}"
            )
        # again on the result: an Item, or candidates given as another kind of sequence
        count_candidates(len(checked.candidates))
        if max_chars is None:
            return checked
        fields: list[tuple[str, str | None]] = [
            ("question", checked.question),
            ("context", checked.context),
            ("response", checked.response),
        ]
        for index, candidate in enumerate(checked.candidates):
            fields.append((f"candidates.{index}.text", candidate.text))
            fields.append((f"candidates.{index}.reasoning", candidate.reasoning))
        for name, text in fields:
            if text is not None and len(text) > max_chars:
                raise InvalidItemError(
                    name, f"is {len(text)} characters long; the limit is {max_chars} (max_chars)"
                )
        return checked

    @functools.cached_property
    def labels(self) -> tuple[str, ...]:
        """The candidates' labels, in the order given."""
        return tuple(c.label for c in self.candidates)  # type: ignore[misc]

    @functools.cached_property
    def identical_pair(self) -> bool:
        """A pairwise item whose two responses are the same text (whitespace aside): a
        tie by construction."""
        if self.task != "pairwise":
            return False
        first, second = (_normal_text(c.text) for c in self.candidates)
        return first == second

    @functools.cached_property
    def key(self) -> str:
        """The caller's id, or a short content hash that is stable across runs."""
        if self.id is not None:
            return self.id
        content: list[Any] = [
            self.question,
            [[c.label, c.text] for c in self.candidates],
            self.context,
        ]
        if self.task != "choice":
            # a choice item's hash is what it has always been
            weights = [c.weight for c in self.candidates]
            content = [self.task, *content, self.response, weights]
        if self.kind is not None:
            # and an item that does not say its kind keeps its hash too
            content.append(self.kind)
        payload = json.dumps(content, ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


RANKING_MIN_CANDIDATES = 3
"""The fewest responses a ranking item holds (two are a pairwise item)."""
RANKING_MAX_CANDIDATES = 20
"""The most responses a ranking item holds."""


class RankingItem(Frozen):
    """Three to twenty responses to one question, to be ranked from best to worst.

    ``{"task": "ranking", "question": ..., "candidates": [...], "context": ...}``: the
    candidates are the responses (strings, or ``{"text": ..., "label": ...}``), labelled
    A, B, C, ... when not labelled; the judge is asked to rank them from the best to the
    worst and, on the reverse leg, from the worst to the best (see
    :mod:`prin_guard.tasks._ranking`).
    """

    task: Literal["ranking"] = "ranking"
    question: str
    """The instruction or question the responses answer."""
    candidates: tuple[Candidate, ...]
    """The responses, three to twenty."""
    context: str | None = None
    """Optional material the judge needs (a passage, a reference answer)."""
    id: str | None = Field(None, max_length=_MAX_ID_CHARS)
    """Caller's identifier; a content hash is used in its place when absent."""

    @field_validator("question", "context", "id", mode="before")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        return _no_surrogates(value)

    @field_validator("question")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        return value

    @field_validator("candidates", mode="before")
    @classmethod
    def _coerce_candidates(cls, value: Any) -> Any:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise ValueError("must be a list of responses (strings or Candidates)")
        return tuple({"text": entry} if isinstance(entry, str) else entry for entry in value)

    @model_validator(mode="after")
    def _labelled(self) -> RankingItem:
        count = len(self.candidates)
        if not RANKING_MIN_CANDIDATES <= count <= RANKING_MAX_CANDIDATES:
            raise ValueError(
                f"candidates: a ranking has {RANKING_MIN_CANDIDATES} to "
                f"{RANKING_MAX_CANDIDATES} responses, got {count}"
                + (" (two responses are a pairwise item)" if count == 2 else "")
            )
        for index, candidate in enumerate(self.candidates):
            if candidate.weight is not None:
                raise ValueError(f"candidates.{index}.weight: weights are for checklists only")
            if candidate.reasoning is not None:
                raise ValueError(
                    f"candidates.{index}.reasoning: a ranking shows the responses only"
                )
        seen_texts: dict[str, int] = {}
        for index, candidate in enumerate(self.candidates):
            key = _normal_text(candidate.text)
            if key in seen_texts:
                raise ValueError(
                    f"candidates: responses {seen_texts[key]} and {index} have the same text"
                )
            seen_texts[key] = index
        taken = [c.label for c in self.candidates if c.label is not None]
        if len(set(taken)) != len(taken):
            twice = next(label for label in taken if taken.count(label) > 1)
            raise ValueError(f"candidates: duplicate label {twice!r}")
        free = (label for label in _label_series() if label not in taken)
        labelled = tuple(
            c if c.label is not None else c.model_copy(update={"label": next(free)})
            for c in self.candidates
        )
        object.__setattr__(self, "candidates", labelled)
        return self

    @classmethod
    def coerce(cls, value: Any, *, max_chars: int | None = None) -> RankingItem:
        """A ranking item from a RankingItem or a mapping, or an
        :class:`~prin_guard.InvalidItemError` naming the first bad field
        (``candidates.1.text``) and the reason; ``max_chars`` bounds every text."""
        if isinstance(value, RankingItem):
            checked = value
        elif isinstance(value, Mapping):
            given = dict(value)
            given.pop("gold", None)  # eval's, as for the other items
            try:
                checked = cls.model_validate(given, strict=False)
            except ValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(part) for part in first["loc"]) or "item"
                message = first["msg"].removeprefix("Value error, ")
                named, _, rest = message.partition(": ")
                if not first["loc"] and rest and named.split(".")[0] in cls.model_fields:
                    field, message = named, rest
                raise InvalidItemError(field, message) from None
        else:
            raise InvalidItemError(
                "item", f"expected a RankingItem or a mapping, got {type(value).__name__}"
            )
        if max_chars is not None:
            fields = [("question", checked.question), ("context", checked.context)]
            fields += [
                (f"candidates.{index}.text", c.text) for index, c in enumerate(checked.candidates)
            ]
            for name, text in fields:
                if text is not None and len(text) > max_chars:
                    raise InvalidItemError(
                        name,
                        f"is {len(text)} characters long; the limit is {max_chars} (max_chars)",
                    )
        return checked

    @functools.cached_property
    def labels(self) -> tuple[str, ...]:
        """The responses' labels, in the order given."""
        return tuple(c.label for c in self.candidates)  # type: ignore[misc]

    @functools.cached_property
    def texts(self) -> tuple[str, ...]:
        """Every text of the item (what a reply may copy)."""
        own = [self.question, *(c.text for c in self.candidates)]
        return tuple(own + ([self.context] if self.context else []))

    @functools.cached_property
    def key(self) -> str:
        """The caller's id, or a short content hash that is stable across runs."""
        if self.id is not None:
            return self.id
        content = [self.task, self.question, [[c.label, c.text] for c in self.candidates]]
        payload = json.dumps([*content, self.context], ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def as_dict(self) -> dict[str, Any]:
        """The item's JSON form (what :meth:`coerce` reads)."""
        out: dict[str, Any] = {
            "task": "ranking",
            "question": self.question,
            "candidates": [{"text": c.text, "label": c.label} for c in self.candidates],
        }
        if self.context is not None:
            out["context"] = self.context
        if self.id is not None:
            out["id"] = self.id
        return out
