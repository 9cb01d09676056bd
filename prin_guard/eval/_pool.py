"""Candidate pools for datasets that have none (GSM8K, MATH, MultiArith, SVAMP, ...).

The PRIN paper builds its MATH options this way (section 4, "Setting"): a model
solves each problem several times with chain-of-thought and the distinct final
answers become the candidates, each with the reasoning path that produced it.
:func:`build_pool` does the same with any sampling judge as the generator: ``n``
sampled solutions per problem, final answers read from their last ``Answer:``
line (or, failing that, their last number), duplicates merged (the first
solution of each distinct answer is kept as its reasoning). The gold set is the
candidates whose answer equals the dataset's answer (numerically when both are
numbers, else as normalised text); it may be empty, as the paper's pools may be.

A problem whose samples give fewer than two distinct answers has no pool to
judge and is skipped (reported through ``on_skip``). Generation calls are
cached like judge calls, so re-running costs nothing.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit
from prin_guard.cache import Cache
from prin_guard.calls import JudgeCaller
from prin_guard.datasets import (
    LabeledItem,
    Problem,
    SkipHandler,
    load_gsm8k,
    load_last_letters,
    load_math,
    load_multiarith,
    load_svamp,
)
from prin_guard.errors import UsageError
from prin_guard.judges import Judge
from prin_guard.models import Candidate, Item, Message

__all__ = ["PROBLEM_DATASETS", "build_pool", "final_answer", "load_problems", "same_answer"]

PROBLEM_DATASETS: Mapping[str, Callable[..., Iterator[Problem]]] = {
    "gsm8k": load_gsm8k,
    "math": load_math,
    "multiarith": load_multiarith,
    "svamp": load_svamp,
    "last-letters": load_last_letters,
}

SOLVE_PROMPT = (
    "Solve the following problem. Think step by step, then give the final answer on "
    'its own last line as "Answer: <answer>".\n\nProblem: {question}'
)

_ANSWER = re.compile(r"^[\s*#>_-]*(?:final\s+)?answer\s*[:：]\s*(?P<a>.+?)\s*$", re.I | re.M)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:/\d+)?")


def load_problems(
    name: str, path: str | Path, *, limit: int | None = None, on_skip: SkipHandler | None = None
) -> Iterator[Problem]:
    """Problems (question and answer, no candidates) of a registered problem dataset."""
    key = name.strip().lower().replace("_", "-")
    if key not in PROBLEM_DATASETS:
        raise UsageError(
            f"dataset: {name!r} is not a problem dataset; available: {', '.join(PROBLEM_DATASETS)}"
        )
    if not Path(path).exists():
        raise UsageError(f"path: no such file {str(path)!r}")
    kwargs: dict[str, Any] = {} if on_skip is None else {"on_skip": on_skip}
    problems = PROBLEM_DATASETS[key](path, **kwargs)
    for index, problem in enumerate(problems):
        if limit is not None and index >= limit:
            return
        yield problem


def _clean(text: str) -> str:
    text = text.strip().strip("*`$ ").rstrip(".")
    text = re.sub(r"\\boxed\{(.*)\}", r"\1", text)
    return " ".join(text.split())


def final_answer(solution: str | None) -> str | None:
    """The answer a solution ends with: its last ``Answer:`` line, else its last number."""
    if not solution:
        return None
    lines = list(_ANSWER.finditer(solution))
    if lines:
        answer = _clean(lines[-1].group("a"))
        return answer or None
    numbers = _NUMBER.findall(solution)
    return numbers[-1].replace(",", "") if numbers else None


def _as_number(text: str) -> Fraction | None:
    match = _NUMBER.fullmatch(text.replace(" ", "").lstrip("$").rstrip("%"))
    if not match:
        found = _NUMBER.findall(text)
        if len(found) != 1:
            return None
        match = _NUMBER.fullmatch(found[0])
        if not match:
            return None
    try:
        return Fraction(match.group(0).replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return None


def same_answer(a: str, b: str) -> bool:
    """Equal as numbers when both read as one number, else as normalised text."""
    x, y = _as_number(a), _as_number(b)
    if x is not None and y is not None:
        return x == y
    return _clean(a).casefold() == _clean(b).casefold()


async def _solve(samplers: Sequence[JudgeCaller], problem: Problem) -> list[str | None]:
    messages: list[Message] = [
        {"role": "user", "content": SOLVE_PROMPT.format(question=problem.question)}
    ]
    answers = await asyncio.gather(
        *(
            sampler.converse(messages, item_id=problem.id, purpose="pool_sample")
            for sampler in samplers
        )
    )
    return [answer.response.text for answer in answers]


def pool_item(problem: Problem, solutions: Sequence[str | None]) -> LabeledItem | str:
    """The candidate item for one problem, or the reason there is none."""
    distinct: list[tuple[str, str]] = []
    for solution in solutions:
        answer = final_answer(solution)
        if answer is None or solution is None:
            continue
        if not any(same_answer(answer, seen) for seen, _ in distinct):
            distinct.append((answer, solution))
    if len(distinct) < 2:
        return f"the generator gave {len(distinct)} distinct answer(s) in {len(solutions)} samples"
    candidates = tuple(
        Candidate(text=answer, reasoning=solution.strip()) for answer, solution in distinct
    )
    item = Item(question=problem.question, candidates=candidates, id=problem.id)
    gold = tuple(
        c.label for c in item.candidates if c.label and same_answer(c.text, problem.answer)
    )
    return LabeledItem(item=item, gold=gold, line=problem.line)


async def build_pool(
    generator: Judge,
    problems: Iterable[Problem],
    *,
    n: int = 5,
    temperature: float = 0.7,
    seed: int = 0,
    cache: Cache | None = None,
    concurrency: int = 4,
    on_skip: SkipHandler | None = None,
    rate_limit: RateLimit | None = None,
) -> list[LabeledItem]:
    """Sample ``n`` solutions per problem from ``generator`` and keep the distinct answers."""
    if n < 2:
        raise UsageError(f"generate_pool: need at least 2 samples per problem, got {n}")
    with_sampling = getattr(generator, "with_sampling", None)
    if with_sampling is None:
        raise UsageError(
            "generator: building a candidate pool needs a judge that can sample "
            "(LocalJudge or LiteLLMJudge)"
        )
    # One generator behind n sampling seeds: one bound on its calls in flight.
    limit = CallLimit(2 * concurrency)
    samplers = [
        JudgeCaller(
            with_sampling(temperature, seed + i), cache=cache, limit=limit, rate_limit=rate_limit
        )
        for i in range(n)
    ]
    slots = asyncio.Semaphore(concurrency)
    todo = list(problems)

    async def one(problem: Problem) -> LabeledItem | str:
        async with slots:
            return pool_item(problem, await _solve(samplers, problem))

    results = await asyncio.gather(*(one(problem) for problem in todo))
    items: list[LabeledItem] = []
    for problem, result in zip(todo, results, strict=True):
        if isinstance(result, str):
            if on_skip is not None:
                on_skip(problem.line, result)
        else:
            items.append(result)
    return items
