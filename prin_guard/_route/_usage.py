"""What a verdict cost: one rule, and the tally every summary prints.

**The rule.** A verdict records two sums of its judge answers' :class:`~prin_guard.Usage`
(its legs', and its probe's follow-ups'):

- ``usage``: what was paid now, for the answers the judge gave for this verdict;
- ``saved_usage``: what the answers served from prin-guard's own cache cost when they
  were first asked (paid then, not now).

Grade, eval, ``check`` and the service all read these two (or the legs they are summed
from, with :func:`split`), so no surface counts a cached answer as spent and none
forgets what it saved. An answer whose judge reported nothing makes the sum unknown
(``None``), never 0; an answer from the cache costs a known 0 now.

**The guard's premium.** What the guard's questions cost over what the judge asked once
would have: the cost of every answer of a verdict (now or when first asked) over the cost
of its direct leg (a panel's: its members' direct legs). 1.0 would be a free guard; two
legs with no prompt cache cost about 2.0. The direct leg is priced as it was billed, so
where it wrote a provider's prompt cache (Anthropic bills writes at 1.25x) that write is
in the denominator too, and the premium is a little under the ratio to a call that wrote
no cache (bench/premium.py measures that ratio).

**The share from a prompt cache.** Of the prompt tokens of the calls made now, the share
the provider served from its prompt cache (``cached_prompt_tokens / prompt_tokens``),
over the calls that reported both.

**What a judge reports is checked where it enters** (:func:`checked`, applied by the call
layer to every reply before anything reads it): a figure that cannot be (a negative count
or cost; more tokens read from or written to a prompt cache than the prompt has) is
unknown (``None``), never summed as reported, and the call layer warns once per judge
(``judge_usage_invalid``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from prin_guard.models import Leg, ProbeRound, Usage, Verdict

__all__ = [
    "Answered",
    "UsageSummary",
    "UsageTally",
    "answers_of",
    "checked",
    "leg_answer",
    "premium",
    "record_answers",
    "split",
    "usage_line",
    "verdict_answers",
]

_FIELDS = tuple(Usage.model_fields)


@dataclass(frozen=True, slots=True)
class Answered:
    """One judge answer of a verdict, as far as its cost goes."""

    usage: Usage | None
    """What the call cost (for an answer from the cache: when it was first asked)."""
    cached: bool
    """Served from prin-guard's cache: nothing paid now."""
    direct: bool = False
    """A first-order direct leg: what the judge asked once costs."""


def checked(usage: Usage) -> tuple[Usage, dict[str, str]]:
    """``usage`` with each figure that cannot be made unknown, and why each was: a
    negative count or cost, or cache counts over the prompt tokens they are part of (both
    cache counts when only their sum is over)."""
    why: dict[str, str] = {}
    for name in _FIELDS:
        value = getattr(usage, name)
        if value is not None and value < 0:
            why[name] = f"negative ({value})"
    prompt = None if "prompt_tokens" in why else usage.prompt_tokens
    cache = [name for name in ("cached_prompt_tokens", "cache_write_tokens") if name not in why]
    if prompt is not None:
        for name in cache:
            value = getattr(usage, name)
            if value is not None and value > prompt:
                why[name] = f"{value} of {prompt} prompt tokens"
        read, written = usage.cached_prompt_tokens, usage.cache_write_tokens
        if (
            read is not None
            and written is not None
            and not why.keys() & set(cache)
            and read + written > prompt
        ):
            for name in cache:
                why[name] = f"{read} read and {written} written of {prompt} prompt tokens"
    if not why:
        return usage, why
    return usage.model_copy(update=dict.fromkeys(why)), why


def answers_of(
    legs: Iterable[Leg], rounds: Iterable[ProbeRound] = (), *, direct: Iterable[Leg] = ()
) -> list[Answered]:
    """The answers of legs and follow-up rounds; ``direct``: which legs are direct legs."""
    first = {id(leg) for leg in direct}
    out = [Answered(leg.usage, leg.cached, id(leg) in first) for leg in legs]
    out += [Answered(entry.usage, entry.cached) for entry in rounds]
    return out


def split(answers: Iterable[Answered]) -> tuple[Usage, Usage]:
    """``(paid now, saved)``: the sums of the answers made now and of those from the cache."""
    paid, saved = Usage.zero(), Usage.zero()
    for answer in answers:
        usage = answer.usage or Usage()  # a judge that reported nothing: unknown
        if answer.cached:
            saved = saved + usage
        else:
            paid = paid + usage
    return paid, saved


def premium(answers: Iterable[Answered]) -> float | None:
    """Every answer's cost over the direct legs' cost; ``None`` when a cost is unknown."""
    parts = _premium_parts(list(answers))
    return None if parts is None else parts[0] / parts[1]


def _premium_parts(answers: list[Answered]) -> tuple[float, float] | None:
    costs = [None if a.usage is None else a.usage.cost_usd for a in answers]
    direct = [cost for cost, a in zip(costs, answers, strict=True) if a.direct]
    if not direct or any(cost is None for cost in costs):
        return None
    total = sum(cost for cost in costs if cost is not None)
    base = sum(cost for cost in direct if cost is not None)
    return (total, base) if base > 0 else None


def verdict_answers(verdict: Verdict) -> list[Answered]:
    """A verdict's answers: its legs (a panel's members' too) and its follow-up rounds; a
    rating with aspects, its aspects' (:func:`_asking_aspects`); a review's, its two legs
    and the rebuttal probe's round (its scores' verdicts share the two legs' replies)."""
    if verdict.review is not None:
        legs = [leg for leg in (verdict.direct, verdict.reverse) if leg is not None]
        return answers_of(legs, verdict.probe, direct=legs[:1])
    if verdict.aspects:
        aspects = list(verdict.aspects.values())
        owners = _asking_aspects(aspects, [aspect.judge_calls for aspect in aspects])
        return [answer for aspect in owners for answer in verdict_answers(aspect)]
    direct = [verdict.direct, *(member.direct for member in verdict.members)]
    return answers_of(
        verdict.legs(), verdict.probe, direct=[leg for leg in direct if leg is not None]
    )


def _asking_aspects(aspects: list[Any], calls: list[int]) -> list[Any]:
    """The aspects' verdicts whose answers are the item's: each one's, asked apart; asked
    together (``rating_aspects="together"``: no aspect made a call of its own, every one's
    legs hold the same two replies), the first one's, each call once."""
    together = bool(aspects) and not any(calls)
    return aspects[:1] if together else aspects


def record_answers(record: Mapping[str, Any]) -> list[Answered]:
    """The answers of a verdict as JSON (an eval record's): the same as
    :func:`verdict_answers` of the verdict it was dumped from."""
    review = record.get("review")
    if review:
        legs = [leg for leg in (record.get("direct"), record.get("reverse")) if leg]
        answers = [leg_answer(leg, direct=index == 0) for index, leg in enumerate(legs)]
        return answers + [leg_answer(entry) for entry in record.get("probe") or ()]
    aspects = list((record.get("aspects") or {}).values())
    if aspects:
        owners = _asking_aspects(aspects, [aspect.get("judge_calls") or 0 for aspect in aspects])
        return [answer for aspect in owners for answer in record_answers(aspect)]
    owners = [record, *(record.get("members") or ())]
    answers = []
    for owner in owners:
        direct, reverse = owner.get("direct"), owner.get("reverse")
        if direct:
            answers.append(leg_answer(direct, direct=True))
        for leg in (reverse, *(owner.get("permuted") or ())):
            if leg:
                answers.append(leg_answer(leg))
    answers += [leg_answer(entry) for entry in record.get("probe") or ()]
    return answers


def leg_answer(leg: Mapping[str, Any], *, direct: bool = False) -> Answered:
    """One answer as JSON (a leg's or a follow-up round's)."""
    usage = leg.get("usage")
    return Answered(
        None if usage is None else Usage.model_validate(usage, strict=False),
        bool(leg.get("cached")),
        direct,
    )


# -- summaries --------------------------------------------------------------------------


class UsageSummary(BaseModel):
    """What a run's judge calls cost, as every summary reports it (grade, eval, service).

    Token and cost fields sum the calls made now that reported them; ``None`` when none
    did (the judge reports nothing), never a 0 that was not measured.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = 0
    """Judge answers paid now (answers from prin-guard's cache excluded)."""
    priced_calls: int = 0
    """Of those, the calls whose cost is known: ``cost_usd`` is their sum."""
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    """Prompt tokens a provider served from its prompt cache, over the calls that say."""
    cache_write_tokens: int | None = None
    """Prompt tokens written to a provider's prompt cache, over the calls that say."""
    completion_tokens: int | None = None
    cost_usd: float | None = None
    answers_from_cache: int = 0
    """Answers served from prin-guard's own cache (nothing paid now)."""
    saved_cost_usd: float | None = None
    """What those answers cost when they were first asked, where known."""
    premium: float | None = None
    """The guard's premium: what every answer of the verdicts cost over what their direct
    legs cost (over the verdicts whose answers are all priced)."""
    cache_share: float | None = None
    """The share of prompt tokens served from a provider's prompt cache (over the calls
    that report both)."""


@dataclass
class UsageTally:
    """Running sums for a :class:`UsageSummary`; add verdicts (or their answers), merge
    tallies of the parts of a run."""

    calls: int = 0
    priced_calls: int = 0
    sums: dict[str, float] = field(default_factory=dict)
    """Per usage field, the sum over the calls made now that reported it."""
    answers_from_cache: int = 0
    saved_cost: float = 0.0
    saved_priced: int = 0
    guarded: float = 0.0
    direct: float = 0.0
    premium_verdicts: int = 0
    cache_prompt: int = 0
    """Prompt tokens of the calls that reported their cached tokens too."""
    cache_read: int = 0

    def add(self, verdict: Verdict) -> None:
        self.add_answers(verdict_answers(verdict))

    def add_answers(self, answers: Iterable[Answered]) -> None:
        """The answers of one verdict."""
        answers = list(answers)
        for answer in answers:
            usage = answer.usage or Usage()
            if answer.cached:
                self.answers_from_cache += 1
                if usage.cost_usd is not None:
                    self.saved_cost += usage.cost_usd
                    self.saved_priced += 1
                continue
            self.calls += 1
            self.priced_calls += usage.cost_usd is not None
            for name in _FIELDS:
                value = getattr(usage, name)
                if value is not None:
                    self.sums[name] = self.sums.get(name, 0) + value
            if usage.prompt_tokens is not None and usage.cached_prompt_tokens is not None:
                self.cache_prompt += usage.prompt_tokens
                self.cache_read += usage.cached_prompt_tokens
        parts = _premium_parts(answers)
        if parts is not None:
            self.guarded += parts[0]
            self.direct += parts[1]
            self.premium_verdicts += 1

    def merge(self, other: UsageTally) -> None:
        for name in (
            "calls",
            "priced_calls",
            "answers_from_cache",
            "saved_cost",
            "saved_priced",
            "guarded",
            "direct",
            "premium_verdicts",
            "cache_prompt",
            "cache_read",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name, value in other.sums.items():
            self.sums[name] = self.sums.get(name, 0) + value

    def summary(self) -> UsageSummary:
        # no call made now: nothing paid, a known 0
        nothing = 0 if not self.calls else None

        def tokens(name: str) -> int | None:
            value = self.sums.get(name)
            return nothing if value is None else int(value)

        cost = self.sums.get("cost_usd", nothing)
        return UsageSummary(
            calls=self.calls,
            priced_calls=self.priced_calls,
            prompt_tokens=tokens("prompt_tokens"),
            cached_prompt_tokens=tokens("cached_prompt_tokens"),
            cache_write_tokens=tokens("cache_write_tokens"),
            completion_tokens=tokens("completion_tokens"),
            cost_usd=None if cost is None else round(cost, 6),
            answers_from_cache=self.answers_from_cache,
            saved_cost_usd=round(self.saved_cost, 6) if self.saved_priced else None,
            premium=round(self.guarded / self.direct, 4) if self.direct > 0 else None,
            cache_share=round(self.cache_read / self.cache_prompt, 4)
            if self.cache_prompt
            else None,
        )


def usage_line(summary: UsageSummary, *, calls: int | None = None) -> str:
    """One line: calls, tokens (and the share from a prompt cache), cost, what prin-guard's
    cache saved, and the guard's premium; "unknown" where the judge reported nothing.
    ``calls``: the judge calls to show, when counted elsewhere (attempts, retries
    included); else the answers paid now."""
    s = summary
    parts = [f"judge calls {s.calls if calls is None else calls:,}"]
    if s.prompt_tokens is None and s.completion_tokens is None:
        parts.append("tokens unknown" if s.calls else "tokens 0")
    else:
        prompt = "?" if s.prompt_tokens is None else f"{s.prompt_tokens:,}"
        completion = "?" if s.completion_tokens is None else f"{s.completion_tokens:,}"
        tokens = f"tokens {prompt} prompt + {completion} completion"
        if s.cache_share is not None:
            tokens += f" ({100 * s.cache_share:.1f}% of prompt tokens from a prompt cache)"
        parts.append(tokens)
    if not s.calls:
        parts.append("cost $0.0000")
    elif s.cost_usd is None:
        parts.append("cost unknown")
    elif s.priced_calls < s.calls:
        parts.append(f"cost ${s.cost_usd:.4f} over the {s.priced_calls:,} priced of {s.calls:,}")
    else:
        parts.append(f"cost ${s.cost_usd:.4f}")
    if s.answers_from_cache:
        saved = "" if s.saved_cost_usd is None else f", first asked for ${s.saved_cost_usd:.4f}"
        parts.append(f"answers from prin-guard's cache {s.answers_from_cache:,}{saved}")
    parts.append(
        "guard premium unknown (no prices)"
        if s.premium is None
        else f"guard premium {s.premium:.2f}x the direct leg"
    )
    return "; ".join(parts)
