"""What a guard returns: legs, every check's score, panel members and the verdict."""

from __future__ import annotations

from typing import Any, Literal

from prin_guard._kinds import Flag, Frozen, ParseMethod, ParseStatus, Polarity

__all__ = [
    "CHECKS",
    "CheckName",
    "Decision",
    "Leg",
    "Member",
    "ProbeRound",
    "Scores",
    "Usage",
    "Verdict",
    "VerdictError",
]

CheckName = Literal["reverse", "order", "confidence"]
CHECKS: tuple[CheckName, ...] = ("reverse", "order", "confidence")


class Usage(Frozen):
    """Tokens and money one or more judge calls cost; ``None`` where unknown."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        def add(a: Any, b: Any) -> Any:
            return None if a is None and b is None else (a or 0) + (b or 0)

        return Usage(
            prompt_tokens=add(self.prompt_tokens, other.prompt_tokens),
            completion_tokens=add(self.completion_tokens, other.completion_tokens),
            cost_usd=add(self.cost_usd, other.cost_usd),
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
    """The judge's answer, exactly as returned (``None`` when it returned nothing)."""
    labels: tuple[str, ...]
    """The labels read from the answer (empty on "none" and on a parse failure), always
    the item's own labels, also for a leg asked in another order."""
    parse_status: ParseStatus
    parse_method: ParseMethod | None = None
    """How the labels were read; ``None`` when parsing failed."""
    polarity_confusion: bool = False
    """The answer reads as a reply to the opposite question; ``labels`` stay its literal parse."""
    latency_ms: float = 0.0
    """Time the judge took (0 when the leg came from the cache)."""
    usage: Usage | None = None
    """Tokens and cost of the call, when the judge reports them."""
    cached: bool = False
    """The judge's answer came from the cache."""
    order: tuple[str, ...] | None = None
    """For the ``order`` check: the item's labels in the order the candidates were shown
    (the judge saw them labelled A, B, ... by position; ``raw_text`` uses those labels,
    ``labels`` are mapped back). ``None``: the item's own order."""
    confidence: float | None = None
    """The judge's probability of the answer it gave, from its token log-probabilities:
    the product of the probabilities of the tokens that spell the answer (so for a set,
    the probability of naming exactly that set as written). ``None`` when the judge
    returns no log-probabilities or the answer could not be located in the reply."""


class ProbeRound(Frozen):
    """One follow-up question put to the judge after a leg's answer (Ask Again)."""

    polarity: Polarity
    """The leg whose conversation was continued."""
    round: int
    """1 in the Direct Form; 1, 2, 3 (closed, open, leading) in the Progressive Form."""
    followup_type: Literal["closed", "open", "leading"]
    followup: str
    """The follow-up turn sent (question, mitigation sentences, control prompt)."""
    raw_text: str | None
    labels: tuple[str, ...]
    parse_status: ParseStatus
    changed: bool
    """The answer differs from the leg's first answer (an unreadable answer counts as changed)."""
    cached: bool = False
    latency_ms: float = 0.0
    usage: Usage | None = None


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
    panel_agreement: float | None = None
    """For a panel: Fleiss' observed agreement over the candidates (each candidate a
    subject, the members that answered its raters, correct/incorrect the categories),
    1 when every member put every candidate on the same side."""
    confidence: float | None = None
    """The lowest :attr:`Leg.confidence` over the verdict's first-order legs (a panel: over
    every member's), ``None`` when no leg has one."""


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


class Verdict(Frozen):
    """The reconciled answer for one item, with its legs and what they say about each other."""

    item_id: str
    """The item's id, or its content hash."""
    labels: tuple[str, ...] = ()
    """All candidate labels of the item, in order."""
    correct: tuple[str, ...] = ()
    """The labels the policy accepts as correct (synergy: direct ∩ (all − reverse); for a
    panel, the candidates a strict majority of members calls correct)."""
    direct: Leg | None = None
    reverse: Leg | None = None
    reverse_implied: tuple[str, ...] = ()
    """The correct set the reverse leg implies: all − reverse."""
    prin_score: float | None = None
    """1 − F1(direct, all − reverse), from 0 (consistent) to 1; ``None`` without legs.
    The same number as ``scores.prin``."""
    consistent: bool = False
    """Every check's score is at or under the threshold and every leg was read (false when
    there are no legs, or when a leg could not be parsed, whatever its score)."""
    flags: tuple[Flag, ...] = ()
    policy: Literal["synergy", "direct", "reverse", "strict"] = "synergy"
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
    """Summed over the legs."""
    error: VerdictError | None = None
    """Set when the verdict carries ``judge_error`` or ``invalid_item``."""
    probe: tuple[ProbeRound, ...] = ()
    """Follow-up rounds, when the guard probes; they flag, never change, the verdict."""
    decision: Decision | None = None
    """The acceptance rule's decision, when the guard has one."""

    @property
    def ok(self) -> bool:
        """No flags at all."""
        return not self.flags

    @property
    def accepted(self) -> bool | None:
        """Whether the guard's acceptance rule accepted this verdict (``None``: no rule)."""
        return None if self.decision is None else self.decision.accepted

    def legs(self) -> tuple[Leg, ...]:
        """Every leg of this verdict: its own, then each panel member's."""
        own = tuple(leg for leg in (self.direct, self.reverse) if leg is not None)
        out = [*own, *self.permuted]
        for member in self.members:
            out += [leg for leg in (member.direct, member.reverse) if leg is not None]
            out += member.permuted
        return tuple(out)
