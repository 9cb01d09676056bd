"""A guard's parts from what it was given: every check of a guard's construction, in one
place (:func:`assemble`), so that :class:`~prin_guard.Guard` is the facade over them.

What ``Guard(...)`` is given is checked here, each error a UsageError naming the setting:
the options (``options=`` or keywords, not both; a template file read), who judges (a
judge, a panel of at least two, or tiers with an acceptance file: :func:`who_judges_problem`,
the one rule every surface applies), the judges' callers (all JudgeCallers or none; the
cache, the limit in flight, the retries and the rate limit given once for every judge),
the probe, what ``rating_aspects="together"`` cannot take, the acceptance file (one judge
or cascade asked one way) and the threshold ``reverse_legs="uncertain"`` needs.

:class:`~prin_guard.GuardConfig` (``_setup``) describes a guard as data and builds it
through ``Guard``; it sits above the guard, this module below it.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit, Retry
from prin_guard._prompting._prompts import template_file
from prin_guard._route._judging import VerdictEngine, judges_identity
from prin_guard._route._legs import LegAsker
from prin_guard._route._options import GuardOptions
from prin_guard.cache import Cache, MemoryCache
from prin_guard.calls import JudgeCaller
from prin_guard.errors import UsageError
from prin_guard.judges import Judge

if TYPE_CHECKING:
    from prin_guard._route._acceptance import Acceptance
    from prin_guard.probe import Probe

__all__ = ["UNSET", "JudgeLike", "Parts", "assemble", "who_judges_problem"]


class _Unset(enum.Enum):
    UNSET = "unset"


UNSET: Any = _Unset.UNSET
"""``cache=`` not given (one in-memory cache for every judge), as opposed to ``None`` (no
cache)."""

JudgeLike = Judge | JudgeCaller | Callable[[str], Any]


@dataclass(frozen=True, slots=True)
class Parts:
    """What a guard is made of, checked: its options (with the reverse threshold filled
    in), its probe, the leg asker and the acceptance rule shared by its tiers, and one
    engine per tier (the first is the guard's own judge or panel)."""

    options: GuardOptions
    probe: Probe | None
    asker: LegAsker
    acceptance: Acceptance | None
    engines: list[VerdictEngine]


def assemble(
    judge: JudgeLike | Sequence[JudgeLike] | None,
    *,
    tiers: Sequence[JudgeLike | Sequence[JudgeLike]] | None,
    acceptance: Acceptance | str | os.PathLike[str] | None,
    options: GuardOptions | None,
    cache: Cache | Literal["memory"] | None,
    concurrency: int | None,
    retry: Retry | None,
    limit: CallLimit | None,
    rate_limit: RateLimit | None,
    option_keywords: Mapping[str, Any],
) -> Parts:
    """The parts of the guard ``Guard(...)`` was asked for, or a UsageError naming the
    first setting that is wrong (see the module's docstring)."""
    guard_options, custom_probe = _options(options, option_keywords)
    callers = _callers(
        judge,
        tiers=tiers,
        acceptance=acceptance is not None,
        cache=cache,
        concurrency=concurrency,
        retry=retry,
        limit=limit,
        rate_limit=rate_limit,
    )
    probe = _check_probe(custom_probe or guard_options.probe)
    _check_together(guard_options, probe, callers)
    asker = LegAsker(
        None if guard_options.rating_template is not None else guard_options.label_template,
        guard_options.mitigations,
        reask=guard_options.reask,
        layout=guard_options.prompt_layout,
    )
    identities = [judges_identity([caller.identity for caller in level]) for level in callers]
    loaded = _load_acceptance(acceptance, identities, guard_options)
    guard_options = _reverse_threshold(guard_options, loaded)
    engines = [VerdictEngine(level, asker, guard_options, probe) for level in callers]
    return Parts(guard_options, probe, asker, loaded, engines)


def _options(
    options: GuardOptions | None, option_keywords: Mapping[str, Any]
) -> tuple[GuardOptions, Probe | None]:
    """The guard's options, from ``options=`` or from keywords (not both), and a probe of
    the caller's own given as ``probe=``."""
    keywords = dict(option_keywords)
    if "template" in keywords:  # Guard(template="mine.toml"): read the file
        keywords["template"] = template_file(keywords["template"])
    custom_probe = _custom_probe(keywords.get("probe"))
    if custom_probe is not None:
        keywords["probe"] = None
    if options is None:
        return GuardOptions.of(**keywords), custom_probe
    if not isinstance(options, GuardOptions):
        raise UsageError(f"options: expected GuardOptions, got {type(options).__name__}")
    if option_keywords:
        raise UsageError(
            "options: pass the guard's options either as options=GuardOptions(...) "
            f"or as keywords, not both (got {', '.join(sorted(option_keywords))})"
        )
    return options, custom_probe


def _callers(
    judge: JudgeLike | Sequence[JudgeLike] | None,
    *,
    tiers: Sequence[JudgeLike | Sequence[JudgeLike]] | None,
    acceptance: bool,
    cache: Cache | Literal["memory"] | None,
    concurrency: int | None,
    retry: Retry | None,
    limit: CallLimit | None,
    rate_limit: RateLimit | None,
) -> list[tuple[JudgeCaller, ...]]:
    """Each tier's callers (one tier: the judge's, or the panel's), every judge given as
    a JudgeCaller or none, the others built on one cache and one limit in flight."""
    if (judge is None) == (tiers is None):
        raise UsageError("judge: give a judge (or a panel), or tiers=[...], not both")
    if tiers is not None and (isinstance(tiers, str) or not isinstance(tiers, Sequence)):
        raise UsageError("tiers: a list of judges (or panels), cheapest first")
    given = list(tiers) if tiers is not None else [judge]
    problem = who_judges_problem(
        [len(level) if isinstance(level, list | tuple) else None for level in given],
        tiers=tiers is not None,
        acceptance=acceptance,
    )
    if problem is not None:
        raise UsageError(problem)
    levels = [_panel(level) for level in given]
    given_callers = [j for level in levels for j in level if isinstance(j, JudgeCaller)]
    if given_callers:
        if len(given_callers) != sum(len(level) for level in levels):
            raise UsageError("judge: give the judges all as JudgeCallers or none")
        if cache is not UNSET or concurrency is not None or retry is not None or limit:
            raise UsageError(
                "judge: a JudgeCaller brings its own cache, concurrency, retry and limit; "
                "set them on the JudgeCaller"
            )
        if rate_limit is not None:
            raise UsageError("rate_limit: set it on the JudgeCaller")
        return [tuple(level) for level in levels]
    if concurrency is not None and limit is not None:
        raise UsageError("concurrency: give concurrency or a shared limit, not both")
    shared_limit = limit or CallLimit(8 if concurrency is None else concurrency)
    # one cache for every judge: one prefetch round trip per item
    shared_cache = MemoryCache() if cache is UNSET or cache == "memory" else cache
    return [
        tuple(
            JudgeCaller(
                member, cache=shared_cache, retry=retry, limit=shared_limit, rate_limit=rate_limit
            )
            for member in level
        )
        for level in levels
    ]


def _panel(judge: Any) -> list[Any]:
    if isinstance(judge, list | tuple):
        members = list(judge)
        if len({id(member) for member in members}) != len(members):
            raise UsageError("judge: a panel lists the same judge twice")
        return members
    return [judge]


def _check_together(
    options: GuardOptions, probe: Probe | None, callers: Sequence[Sequence[JudgeCaller]]
) -> None:
    """``rating_aspects='together'`` asks one judge for every aspect in one reply: no
    rubric to reorder per aspect, no probe round per aspect, one judge's reply."""
    if options.rating_aspects != "together":
        return
    clash = [
        (name, what)
        for name, what, used in (
            ("checks", "the order check", bool(options.second_order("rating"))),
            ("probe", "a probe", probe is not None),
            ("judge", "a panel", any(len(level) > 1 for level in callers)),
        )
        if used
    ]
    if clash:
        name, what = clash[0]
        raise UsageError(
            f"{name}: rating_aspects='together' asks one judge for every aspect in "
            f"one reply, without {what}; use rating_aspects='apart' for it"
        )


def _custom_probe(probe: Any) -> Probe | None:
    """A probe of the caller's own (not a name); the probe package loads only then."""
    if probe is None or isinstance(probe, str):
        return None
    from prin_guard.probe import Probe

    return probe if isinstance(probe, Probe) else None


def _check_probe(probe: str | Probe | None) -> Probe | None:
    if probe is None:
        return None
    from prin_guard.probe import Probe

    checked = Probe.of(probe)
    if checked.changes_first_question():
        raise UsageError(
            "probe: in the guard the first question is the verdict's own leg, so probe "
            "mitigations can only go into follow-ups: use position='follow_up' and no "
            "few-shot demonstrations (prin-guard probe measures the other placements)"
        )
    return checked


def _reverse_threshold(options: GuardOptions, acceptance: Acceptance | None) -> GuardOptions:
    """The options with ``reverse_below`` where ``reverse_legs='uncertain'`` needs it:
    as given, else the threshold of the acceptance file's rule on ``direct_confidence``
    (calibrate chose it for the file's error level)."""
    if options.reverse_legs != "uncertain" or options.reverse_below is not None:
        return options
    rule = acceptance.tiers[0].rule if acceptance is not None else None
    if rule is None or rule.signal != "direct_confidence" or rule.threshold is None:
        raise UsageError(
            "reverse_below: reverse_legs='uncertain' asks the other legs under a "
            "confidence threshold; give it, or an acceptance file whose rule is on "
            "direct_confidence (prin-guard calibrate --signal direct_confidence)"
        )
    return options.model_copy(update={"reverse_below": rule.threshold})


def _load_acceptance(
    acceptance: Acceptance | str | os.PathLike[str] | None,
    identities: Sequence[Mapping[str, Any]],
    options: GuardOptions,
) -> Acceptance | None:
    if acceptance is None:
        return None
    # imported here: a guard without a calibrated rule never loads one
    from prin_guard._route._acceptance import Acceptance

    if isinstance(acceptance, str | os.PathLike):
        acceptance = Acceptance.load(os.fspath(acceptance))
    elif not isinstance(acceptance, Acceptance):
        raise UsageError(
            f"acceptance: expected an Acceptance or a path, got {type(acceptance).__name__}"
        )
    # an acceptance file is a promise about one judge (or cascade) asked one way
    acceptance.check_compatible(list(identities), options)
    return acceptance


def who_judges_problem(
    levels: Sequence[int | None], *, tiers: bool, acceptance: bool, panel: str = "judge"
) -> str | None:
    """What is wrong with who judges, or ``None``: the one rule every surface applies.

    ``levels`` has one entry per tier (one for a guard without escalation): ``None``
    for a judge given alone, the number of judges for a panel. A panel needs at least
    two judges (one judge is given alone, not as a panel of one); a cascade needs at
    least two tiers and a calibrated acceptance rule. ``panel`` is what the caller calls
    a panel's setting, for the message.
    """
    for size in levels:
        if size is not None and size < 2:
            where = "tiers" if tiers else panel
            return (
                f"{where}: a panel needs at least two judges, got {size}; give a single "
                "judge on its own, not in a list"
            )
    if tiers:
        if len(levels) < 2:
            return "tiers: a cascade needs at least two tiers, cheapest first"
        if not acceptance:
            return (
                "acceptance: tiers escalate by a calibrated rule; give acceptance= (a file "
                "from prin-guard calibrate)"
            )
    return None
