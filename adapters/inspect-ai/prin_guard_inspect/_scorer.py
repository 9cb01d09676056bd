"""The prin-guard scorer and its metrics.

A sample is a judging task: a question (the sample's input), candidates (the
sample's ``choices``, or ``metadata["candidates"]``) and the labels of the correct
candidates (the sample's target, ``"A"``, ``"A, C"`` or ``["A", "C"]``). The scorer
asks the judge both of prin-guard's questions and scores the reconciled verdict
against the target: ``C`` when the verdict's correct set is exactly the target's,
``I`` otherwise. The verdict itself (PRIN, flags, both legs) goes into the score's
metadata, where the metrics read it.

A checklist sample without a target is scored by the verdict's share met (a number,
not ``C`` or ``I``): ``accuracy`` and ``stderr`` count only the samples with a target,
so a share never passes for a correct answer, and ``mean_score`` is the mean share met
over every checklist sample.

A rating sample (``task="rating"``) is scored by the verdict's rating, a number on the
scale (``N``, no answer, when the judge's two legs disagree); ``mean_rating`` averages the
ratings given, ``rating_error`` is their mean absolute error against a numeric target (a
human score), and neither enters ``accuracy``.

A ranking sample (``task="ranking"``: three to twenty candidates, as choices or
``metadata["candidates"]``) is scored by Kendall's tau-b between the verdict's ranking and
the target's (``"B > A = C"``, ``"B, A, C"`` or ``["B", "A", "C"]``, best first; ``N``
when the verdict has no ranking); ``mean_tau`` averages the taus, ``top1_agreement`` is
the share of ranking samples with a target whose predicted best are all among the
target's best (no ranking is a miss); neither enters ``accuracy``.
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from inspect_ai.model import Model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    NOANSWER,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.scorer import accuracy as _inspect_accuracy
from inspect_ai.scorer import stderr as _inspect_stderr
from inspect_ai.solver import TaskState

from prin_guard import Flag, Guard, GuardOptions, InvalidItemError, Item, Judge, Verdict
from prin_guard.cache import Cache
from prin_guard.judges import ScriptedJudge
from prin_guard.models import (
    Leg,
    Policy,
    ProbeKind,
    RankingItem,
    RatingItem,
    Scale,
    Task,
    Template,
)
from prin_guard_inspect._judge import InspectJudge

__all__ = [
    "accuracy",
    "flagged_rate",
    "inconsistent_rate",
    "mean_prin",
    "mean_rating",
    "mean_score",
    "mean_tau",
    "prin_guard_scorer",
    "ranking_item",
    "rating_error",
    "rating_item",
    "sample_item",
    "target_labels",
    "target_ranking",
    "top1_agreement",
    "verdict_from_score",
]

_TOKEN = re.compile(r"[\s,;]+")


def _with_target(scores: Iterable[SampleScore]) -> list[SampleScore]:
    # a score without the key is another scorer's, or one written before the key: C/I
    return [
        score
        for score in scores
        if score.score.metadata is None or score.score.metadata.get("target_known", True)
    ]


@metric
def accuracy() -> Metric:
    """Share of the samples with a target whose verdict matches it (Inspect's accuracy
    over those samples only: a checklist sample scored by its share met has no right
    answer to count)."""
    inner = _inspect_accuracy()

    def compute(scores: list[SampleScore]) -> float:
        return float(inner(_with_target(scores)))  # type: ignore[arg-type]

    return compute


@metric
def stderr() -> Metric:
    """The standard error of ``accuracy`` (Inspect's, over the samples with a target)."""
    inner = _inspect_stderr()

    def compute(scores: list[SampleScore]) -> float:
        return float(inner(_with_target(scores)))  # type: ignore[arg-type]

    return compute


@metric
def mean_score() -> Metric:
    """Mean share met of the checklist verdicts (every checklist sample, with a target
    or not; 0 when there is none)."""

    def compute(scores: list[SampleScore]) -> float:
        shares = [float(meta["score"]) for meta in _verdicts(scores) if meta["score"] is not None]
        return sum(shares) / len(shares) if shares else 0.0

    return compute


@metric
def mean_rating() -> Metric:
    """Mean rating of the rating verdicts that have one (0 when none has)."""

    def compute(scores: list[SampleScore]) -> float:
        ratings = [float(m["rating"]) for m in _verdicts(scores) if m.get("rating") is not None]
        return sum(ratings) / len(ratings) if ratings else 0.0

    return compute


@metric
def rating_error() -> Metric:
    """Mean absolute error of the ratings given against the samples' numeric targets (a
    human score); 0 when no rated sample has one."""

    def compute(scores: list[SampleScore]) -> float:
        errors = [
            abs(float(m["rating"]) - float(m["human"]))
            for m in _verdicts(scores)
            if m.get("rating") is not None and m.get("human") is not None
        ]
        return sum(errors) / len(errors) if errors else 0.0

    return compute


@metric
def mean_tau() -> Metric:
    """Mean Kendall's tau-b of the ranking verdicts against their targets (those with a
    ranking and a target; 0 when none has)."""

    def compute(scores: list[SampleScore]) -> float:
        taus = [float(m["tau"]) for m in _verdicts(scores) if m.get("tau") is not None]
        return sum(taus) / len(taus) if taus else 0.0

    return compute


@metric
def top1_agreement() -> Metric:
    """Share of the ranking samples with a target whose predicted best are all among the
    target's best (a verdict with no ranking is a miss; 0 when there is none)."""

    def compute(scores: list[SampleScore]) -> float:
        ranked = [m for m in _verdicts(scores) if m.get("task") == "ranking" and m.get("gold")]
        return sum(bool(m["top1"]) for m in ranked) / len(ranked) if ranked else 0.0

    return compute


@metric
def mean_prin() -> Metric:
    """Mean PRIN of the scored verdicts: 0 when every judge answer was consistent."""

    def compute(scores: list[SampleScore]) -> float:
        values = [float(meta["prin"]) for meta in _verdicts(scores) if meta["prin"] is not None]
        return sum(values) / len(values) if values else 0.0

    return compute


@metric
def inconsistent_rate() -> Metric:
    """Share of the scored verdicts flagged ``inconsistent``."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(scores, lambda flags: Flag.INCONSISTENT.value in flags)

    return compute


@metric
def flagged_rate() -> Metric:
    """Share of the scored verdicts with any flag: the ones worth a second look."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(scores, bool)

    return compute


def _verdicts(scores: Iterable[SampleScore]) -> list[dict[str, Any]]:
    return [
        score.score.metadata
        for score in scores
        if score.score.metadata is not None and "prin" in score.score.metadata
    ]


def _share(scores: list[SampleScore], test: Callable[[list[str]], bool]) -> float:
    verdicts = _verdicts(scores)
    if not verdicts:
        return 0.0
    return sum(1 for meta in verdicts if test(list(meta["flags"]))) / len(verdicts)


@scorer(
    metrics=[
        accuracy(),
        stderr(),
        mean_prin(),
        inconsistent_rate(),
        flagged_rate(),
        mean_score(),
        mean_rating(),
        rating_error(),
        mean_tau(),
        top1_agreement(),
    ]
)
def prin_guard_scorer(
    judge: Judge | Callable[[str], Any] | None = None,
    *,
    model: str | Model | None = None,
    model_role: str | None = "grader",
    template: str | Template | None = None,
    mitigations: Sequence[str] = (),
    policy: Policy = "synergy",
    threshold: float = 0.0,
    probe: ProbeKind | None = None,
    reask: bool = False,
    checks: Sequence[str] | str | None = None,
    min_confidence: float = 0.5,
    max_chars: int = 32_000,
    max_candidates: int = 64,
    reverse_legs: Literal["always", "uncertain"] = "always",
    reverse_below: float | None = None,
    monitor_share: float = 0.05,
    prompt_layout: Literal["template", "shared_first"] = "template",
    stagger: Literal["auto", "off"] = "auto",
    stagger_delay: float = 0.5,
    rating_aspects: Literal["apart", "together"] = "apart",
    ranking_mode: Literal["full", "best"] = "full",
    ranking_orders: int | None = None,
    ranking_adaptive: bool = False,
    ranking_tolerance: float = 0.1,
    ranking_window: int = 10,
    ranking_tournament: bool = False,
    task: Task = "choice",
    scale: Mapping[str, Any] | str | None = None,
    cache: Cache | None = None,
    concurrency: int = 32,
) -> Scorer:
    """Score a judge's reconciled verdict on each sample against the sample's target.

    The judge is ``judge`` (any prin-guard judge or a function ``fn(prompt) -> str``)
    or, by default, an Inspect model wrapped as :class:`InspectJudge`: ``model``
    when given, else the model bound to ``model_role`` (``"grader"``), else the
    model being evaluated. ``template``, ``mitigations``, ``policy``,
    ``threshold``, ``probe``, ``reask``, ``checks``, ``min_confidence``, ``max_chars``,
    ``max_candidates``, ``reverse_legs``, ``reverse_below``, ``monitor_share``,
    ``prompt_layout``, ``stagger``, ``stagger_delay``, ``rating_aspects`` and the
    ``ranking_*`` options (for ranking samples) are
    :class:`prin_guard.GuardOptions` (spelled as everywhere in
    prin-guard: ``neg-exp`` is ``neg_exp``); ``probe`` asks each leg again and flags
    ``vacillating`` (more judge calls); ``checks=("reverse", "order")`` asks again with
    the candidates in a second order and flags ``order_sensitive`` (two more calls per
    sample), the default for pairwise samples (``None``: each task's default, as
    everywhere in prin-guard). An
    inconsistent verdict is scored and flagged, never raised. ``cache`` is a
    prin-guard cache for the judge's answers (none by default, so that epochs ask again);
    ``concurrency`` bounds the judge calls in flight across samples, on top of the
    model's own ``max_connections``.

    ``task`` is the judging task of the samples: ``choice`` (the default: which of the
    sample's choices are correct), ``pairwise`` (which of two responses, from
    ``metadata["candidates"]`` or the sample's two choices, is better; the target is the
    better label, or ``tie``) or ``checklist`` (which criteria, from
    ``metadata["candidates"]``, a response meets: ``metadata["response"]``, else the output
    of the model being evaluated; ``metadata["kind"]`` ``claims`` for claims checked
    against ``metadata["context"]``; the target names the criteria met, and the score's
    value is the verdict's weighted share met when the sample has no target, left out of
    ``accuracy`` and ``stderr`` and averaged by ``mean_score``) or ``rating`` (how good a
    response is on ``scale``, ``"1-10"`` or ``{"min": 1, "max": 10, ...}`` as a rating item
    takes it, or ``metadata["scale"]``; the response is ``metadata["response"]``, else
    the output of the model being evaluated, ``metadata["reference"]`` a reference answer;
    the score's value is the verdict's rating, ``N`` when there is none, and a numeric
    target is the human score ``rating_error`` compares with) or ``ranking`` (three to
    twenty responses, as for choices, ranked best first; the target is the human ranking,
    ``"B > A = C"``; the score's value is Kendall's tau-b with it, ``N`` when the verdict
    has no ranking, read by ``mean_tau`` and ``top1_agreement``).

    Candidates come from ``metadata["candidates"]`` (strings, or objects with
    ``text`` and optional ``label`` and ``reasoning``) when present, else from the
    sample's ``choices`` in their original order, labelled A, B, C, ...;
    ``metadata["context"]`` is passed to the judge. As with Inspect's own scorers,
    machinery that fails raises: a sample that is not a valid item
    (:class:`prin_guard.InvalidItemError`), a target naming a label no candidate
    has (``ValueError``), a judge that keeps failing (:class:`prin_guard.JudgeError`).
    A judge answer that cannot be read is not a failure: it is scored and flagged.
    """
    # Bad options fail when the task is built, not in the middle of an eval: the
    # options (a UsageError naming the field), then what only a guard checks (the
    # cache, the concurrency, a probe it can run).
    options = GuardOptions.of(
        template=template,
        mitigations=mitigations,
        policy=policy,
        threshold=threshold,
        probe=probe,
        reask=reask,
        checks=checks,
        min_confidence=min_confidence,
        max_chars=max_chars,
        max_candidates=max_candidates,
        reverse_legs=reverse_legs,
        reverse_below=reverse_below,
        monitor_share=monitor_share,
        prompt_layout=prompt_layout,
        stagger=stagger,
        stagger_delay=stagger_delay,
        rating_aspects=rating_aspects,
        ranking_mode=ranking_mode,
        ranking_orders=ranking_orders,
        ranking_adaptive=ranking_adaptive,
        ranking_tolerance=ranking_tolerance,
        ranking_window=ranking_window,
        ranking_tournament=ranking_tournament,
        on_inconsistent="flag",  # an inconsistency is data for the metrics, not an error
    )
    Guard(ScriptedJudge(), options=options, cache=cache, concurrency=concurrency)
    # A caller's in-flight calls belong to one event loop, and one scorer may serve
    # several evals: one guard per loop and judge.
    guards: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Guard]] = (
        weakref.WeakKeyDictionary()
    )

    def guard_for(active: Judge | Callable[[str], Any], key: str) -> Guard:
        per_loop = guards.setdefault(asyncio.get_running_loop(), {})
        if key not in per_loop:
            per_loop[key] = Guard(active, options=options, cache=cache, concurrency=concurrency)
        return per_loop[key]

    if task == "rating" and scale is not None:
        rating_scale(scale)  # a bad scale fails here, naming its field

    async def score(state: TaskState, target: Target) -> Score:
        if task == "ranking":
            ranked = ranking_item(state, max_chars=options.max_chars)
            ranks = target_ranking(target, ranked.labels) if target.text.strip() else None
            guard = (
                guard_for(judge, "")
                if judge is not None
                else _inspect_guard(guard_for, model, model_role)
            )
            return _ranking_score(await guard.acheck(ranked), ranks)
        if task == "rating":
            rated = rating_item(state, scale, max_chars=options.max_chars)
            guard = (
                guard_for(judge, "")
                if judge is not None
                else _inspect_guard(guard_for, model, model_role)
            )
            return _rating_score(await guard.acheck(rated), target)
        item = sample_item(
            state, max_chars=options.max_chars, max_candidates=options.max_candidates, task=task
        )
        given = target.text.strip().lower()
        tie = task == "pairwise" and given == "tie"
        gold = item.labels if tie else () if given == "none" else target_labels(target, item.labels)
        graded = task == "checklist" and not given  # no gold: the share met is the score
        if judge is not None:
            guard = guard_for(judge, "")
        else:
            # Resolved per sample: the grader role is bound by eval(), after the
            # task (and this scorer) was built.
            inspect_judge = InspectJudge(model, role=model_role)
            identity = json.dumps(dict(inspect_judge.identity()), sort_keys=True)
            guard = guard_for(inspect_judge, identity)
        # A judge that keeps failing raises (after Inspect's own retries), as any
        # grader failure does in Inspect; a verdict that could not be read is data,
        # scored and flagged.
        verdict = await guard.acheck(item)
        return _score(verdict, gold, share=verdict.score if graded else None)

    return score


def _inspect_guard(
    guard_for: Callable[[Judge, str], Guard], model: str | Model | None, role: str | None
) -> Guard:
    inspect_judge = InspectJudge(model, role=role)
    return guard_for(inspect_judge, json.dumps(dict(inspect_judge.identity()), sort_keys=True))


def rating_scale(scale: Mapping[str, Any] | str) -> dict[str, Any]:
    """A scale as a rating item takes it, from ``"1-10"`` or a mapping; checked (a bad one
    is an :class:`~prin_guard.InvalidItemError` naming ``scale`` and its field)."""
    if isinstance(scale, str):
        bounds = re.fullmatch(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*", scale)
        if bounds is None:
            raise InvalidItemError("scale", f"expected MIN-MAX such as 1-10, got {scale!r}")
        given: dict[str, Any] = {"min": int(bounds[1]), "max": int(bounds[2])}
    else:
        given = dict(scale)
    Scale.coerce(given)
    return given


def rating_item(
    state: TaskState, scale: Mapping[str, Any] | str | None = None, *, max_chars: int | None = None
) -> dict[str, Any]:
    """The prin-guard rating item of a sample: the sample's input is the question, the
    response ``metadata["response"]`` (else the evaluated model's output), the scale
    ``scale`` (else ``metadata["scale"]``); checked, errors naming the field and the
    sample."""
    metadata = state.metadata or {}
    given = scale if scale is not None else metadata.get("scale")
    try:
        if given is None:
            raise InvalidItemError(
                "scale", "a rating needs a scale: prin_guard_scorer(scale=...) or metadata['scale']"
            )
        response = metadata.get("response")
        if response is None and state.output is not None:
            response = state.output.completion  # the evaluated model's own answer
        fields: dict[str, Any] = {
            "task": "rating",
            "id": str(state.sample_id),
            "question": state.input_text,
            "response": response,
            "scale": rating_scale(given),
        }
        for name in ("reference", "context"):
            if metadata.get(name) is not None:
                fields[name] = metadata[name]
        RatingItem.coerce(fields, max_chars=max_chars)
    except InvalidItemError as exc:
        raise InvalidItemError(exc.field, f"{exc.reason} (sample {state.sample_id!r})") from None
    return fields


def _rating_score(verdict: Verdict, target: Target) -> Score:
    try:
        human: float | None = float(target.text) if target.text.strip() else None
    except ValueError:
        human = None
    legs = [leg.score if leg is not None else None for leg in (verdict.direct, verdict.reverse)]
    flags = [flag.value for flag in verdict.flags]
    rating = verdict.rating
    shown = "none" if rating is None else f"{rating:g}"
    return Score(
        value=NOANSWER if rating is None else rating,
        answer=None if rating is None else f"{rating:g}",
        explanation=(
            f"how good: {legs[0]}; how poor, on the mirrored scale: {legs[1]}; rating: "
            f"{shown}; PRIN {verdict.prin_score}; flags: {', '.join(flags) or 'none'}"
        ),
        metadata={
            "target_known": False,  # a rating is no right or wrong answer for accuracy
            "prin": verdict.prin_score,
            "scores": verdict.scores.model_dump(mode="json"),
            "consistent": verdict.consistent,
            "flags": flags,
            "task": "rating",
            "rating": rating,
            "human": human,
            "score": None,
            "direct": legs[0],
            "reverse": legs[1],
            "verdict": verdict.model_dump(mode="json"),
        },
    )


def ranking_item(state: TaskState, *, max_chars: int | None = None) -> RankingItem:
    """The prin-guard ranking item of a sample: the sample's input is the question, the
    responses ``metadata["candidates"]`` (else the sample's choices in their original
    order), labelled A, B, C, ...; checked, errors naming the field and the sample."""
    metadata = state.metadata or {}
    candidates: Any = metadata.get("candidates")
    if candidates is None and state.choices:
        ordered = sorted(state.choices, key=lambda choice: choice.original_position)
        candidates = [choice.value for choice in ordered]
    fields: dict[str, Any] = {
        "task": "ranking",
        "question": state.input_text,
        "candidates": candidates,
        "id": str(state.sample_id),
    }
    if metadata.get("context") is not None:
        fields["context"] = metadata["context"]
    try:
        if candidates is None:
            raise InvalidItemError(
                "candidates",
                f"sample {state.sample_id!r} has neither choices nor metadata['candidates']",
            )
        return RankingItem.coerce(fields, max_chars=max_chars)
    except InvalidItemError as exc:
        raise InvalidItemError(exc.field, f"{exc.reason} (sample {state.sample_id!r})") from None


def target_ranking(
    target: Target | str | Sequence[str], labels: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    """The ranking a target gives, best first: ``"B > A = C"`` (``>`` a lower place, ``=``
    a tie), ``"B, A, C"`` or ``["B", "A", "C"]`` (one place each). Every label exactly
    once, or a ``ValueError`` naming what is wrong: a ranking is never completed."""
    if isinstance(target, Target):
        values = list(target.target)
        text = values[0] if len(values) == 1 else None
    else:
        text = target if isinstance(target, str) else None
        values = [target] if isinstance(target, str) else list(target)
    if text is not None and ">" in text:
        tiers = [[part.strip() for part in tier.split("=")] for tier in text.split(">")]
    elif text is not None:
        tiers = [[part.strip()] for part in re.split(r"[\s,;]+", text.strip()) if part.strip()]
    else:
        tiers = [[value.strip()] for value in values]
    ranking = tuple(tuple(label.strip("()[]'\"").upper() for label in tier) for tier in tiers)
    named = [label for tier in ranking for label in tier]
    if sorted(named) != sorted(labels):
        raise ValueError(
            f"target {values!r} does not rank every candidate ({', '.join(labels)}) exactly once"
        )
    return ranking


def _ranking_score(verdict: Verdict, gold: tuple[tuple[str, ...], ...] | None) -> Score:
    from prin_guard._ranking import kendall_tau_b, top_agrees

    ranking = verdict.ranking
    shown = " > ".join(" = ".join(tier) for tier in ranking) if ranking is not None else None
    tau = kendall_tau_b(ranking, gold) if ranking is not None and gold is not None else None
    top = ranking is not None and gold is not None and top_agrees(ranking, gold)
    flags = [flag.value for flag in verdict.flags]
    value: str | float = NOANSWER if ranking is None else (tau if tau is not None else 0.0)
    return Score(
        value=value,
        answer=shown,
        explanation=(
            f"ranking: {shown or 'none'}; best {verdict.best or '-'}, worst "
            f"{verdict.worst or '-'}; legs tau {verdict.scores.legs_tau}; PRIN "
            f"{verdict.prin_score}; flags: {', '.join(flags) or 'none'}"
        ),
        metadata={
            "target_known": False,  # a tau is no right or wrong answer for accuracy
            "prin": verdict.prin_score,
            "scores": verdict.scores.model_dump(mode="json"),
            "consistent": verdict.consistent,
            "flags": flags,
            "task": "ranking",
            "ranking": None if ranking is None else [list(tier) for tier in ranking],
            "gold": None if gold is None else [list(tier) for tier in gold],
            "tau": tau,
            "top1": top,
            "best": verdict.best,
            "worst": verdict.worst,
            "score": None,
            "verdict": verdict.model_dump(mode="json"),
        },
    )


def sample_item(
    state: TaskState,
    *,
    max_chars: int | None = None,
    max_candidates: int | None = None,
    task: Task = "choice",
) -> Item:
    """The prin-guard item of a sample: question, candidates, context and id.

    Raises :class:`prin_guard.InvalidItemError` naming the field when the sample
    does not make a valid item (fewer than two candidates, duplicate texts, a
    text longer than ``max_chars``, more than ``max_candidates`` candidates, ...).
    """
    metadata = state.metadata or {}
    candidates: Any = metadata.get("candidates")
    if candidates is None:
        if not state.choices or task == "checklist":
            raise InvalidItemError(
                "candidates",
                f"sample {state.sample_id!r} has neither choices nor metadata['candidates']",
            )
        # A solver may have shuffled the choices; the target refers to the original order.
        ordered = sorted(state.choices, key=lambda choice: choice.original_position)
        candidates = [choice.value for choice in ordered]
    fields: dict[str, Any] = {
        "task": task,
        "question": state.input_text,
        "candidates": candidates,
        "id": str(state.sample_id),
    }
    if metadata.get("context") is not None:
        fields["context"] = metadata["context"]
    if task == "checklist":
        response = metadata.get("response")
        if response is None and state.output is not None:
            response = state.output.completion  # the evaluated model's own answer
        fields["response"] = response
        if metadata.get("kind") is not None:
            fields["kind"] = metadata["kind"]  # criteria, or claims checked against context
    try:
        return Item.coerce(fields, max_chars=max_chars, max_candidates=max_candidates)
    except InvalidItemError as exc:
        # as Guard.check words it, and which sample it was
        raise InvalidItemError(exc.field, f"{exc.reason} (sample {state.sample_id!r})") from None


def target_labels(target: Target | str | Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
    """The candidate labels a target names, in candidate order.

    ``"A"``, ``"A, C"``, ``["A", "C"]`` and ``"AC"`` (as Inspect's ``choice`` scorer
    reads it) all name A and C; an empty target names none. A label that is not a
    candidate's is a ``ValueError``: the dataset and the candidates disagree.
    """
    values = [target] if isinstance(target, str) else list(target)
    known = set(labels)
    wanted: set[str] = set()
    for value in values:
        for token in _TOKEN.split(value.strip()):
            label = token.strip("()[].'\"").upper()
            if not label:
                continue
            if label in known:
                wanted.add(label)
            elif all(char in known for char in label):
                wanted.update(label)
            else:
                raise ValueError(
                    f"target {value!r} names {token!r}, which is not one of the candidate "
                    f"labels {', '.join(labels)}"
                )
    return tuple(label for label in labels if label in wanted)


def verdict_from_score(score: Score) -> Verdict:
    """The prin-guard verdict a score of :func:`prin_guard_scorer` carries."""
    if score.metadata is None or "verdict" not in score.metadata:
        raise ValueError("this score carries no prin-guard verdict")
    return Verdict.model_validate_json(json.dumps(score.metadata["verdict"]))


def _score(verdict: Verdict, gold: tuple[str, ...], *, share: float | None = None) -> Score:
    matches = set(verdict.correct) == set(gold)
    flags = [flag.value for flag in verdict.flags]
    value: str | float = CORRECT if matches else INCORRECT
    if share is not None:
        value = share
    return Score(
        value=value,
        answer=_labels(verdict.correct),
        explanation=_explain(verdict, gold),
        metadata={
            "target_known": share is None,
            "prin": verdict.prin_score,
            "scores": verdict.scores.model_dump(mode="json"),
            "consistent": verdict.consistent,
            "flags": flags,
            "correct": list(verdict.correct),
            "target": list(gold),
            "task": verdict.task,
            "winner": verdict.winner,
            "tie": verdict.tie,
            "score": verdict.score,
            "direct": _leg(verdict.direct),
            "reverse": _leg(verdict.reverse),
            "reverse_implied": list(verdict.reverse_implied),
            "verdict": verdict.model_dump(mode="json"),
        },
    )


def _leg(leg: Leg | None) -> dict[str, Any] | None:
    if leg is None:
        return None
    return {
        "answer": leg.raw_text,
        "labels": list(leg.labels),
        "parse_status": leg.parse_status.value,
        "polarity_confusion": leg.polarity_confusion,
    }


def _explain(verdict: Verdict, gold: tuple[str, ...]) -> str:
    direct = verdict.direct.labels if verdict.direct else ()
    reverse = verdict.reverse.labels if verdict.reverse else ()
    prin = "n/a" if verdict.prin_score is None else f"{verdict.prin_score:.2f}"
    flags = ", ".join(flag.value for flag in verdict.flags) or "none"
    return (
        f"correct ones: {_labels(direct)}; incorrect ones: {_labels(reverse)} "
        f"(so correct: {_labels(verdict.reverse_implied)}); "
        f"{verdict.policy}: {_labels(verdict.correct)}; target: {_labels(gold)}; "
        f"PRIN {prin}; flags: {flags}"
    )


def _labels(labels: Iterable[str]) -> str:
    return ", ".join(labels) or "none"
