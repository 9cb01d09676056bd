"""Which of two models answers your prompts better? A guarded pairwise judge decides.

Each prompt's two answers go to the judge as a pair (``task="pairwise"``). prin-guard
asks which answer is better and which is worse, and asks again with the two swapped
(the ``order`` check); with ``policy="strict"`` a pair has a winner only when all four
answers agree. The others are the pairs the judge could not decide: it contradicted
itself, or its choice moved with the order the answers were shown in.

    python examples/compare_models/compare.py                        # a stand-in judge
    python examples/compare_models/compare.py --judge local          # the bundled model
    python examples/compare_models/compare.py --judge openai/gpt-4o-mini

Which model is shown first is drawn per prompt (seeded), so a judge's preference for
the first position cannot favour one model.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import prin_guard
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec

HERE = Path(__file__).resolve().parent


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in a second: the longer answer is
    better, and when the two are within a quarter of each other's length it picks the
    one shown first (a position bias, which the order check catches)."""

    def reply(prompt: str) -> str:
        shown = re.findall(r"Response ([AB]):\n(`{3,})\n(.*?)\n\2", prompt, re.S)
        (first, a), (_, b) = [(label, text) for label, _, text in shown]
        longer = "A" if len(a) >= len(b) else "B"
        better = first if min(len(a), len(b)) >= 0.75 * max(len(a), len(b)) else longer
        worse = "B" if better == "A" else "A"
        return f"Answer: {worse if 'please output the worse one.' in prompt else better}"

    return ScriptedJudge(fn=reply, name="longer-is-better")


def build_judge(spec: str, api_base: str | None) -> Judge:
    return scripted_judge() if spec == "scripted" else judge_from_spec(spec, api_base=api_base)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% interval for a win share (Wilson's score interval)."""
    if n == 0:
        return 0.0, 1.0
    share = wins / n
    middle = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--judge",
        default="scripted",
        help="'scripted' (a stand-in, the default), 'local' (the bundled model) or a litellm "
        "model string such as 'openai/gpt-4o-mini'",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--answers", default=str(HERE / "answers.jsonl"), help="the prompt set")
    parser.add_argument("--models", default="model-a,model-b", help="the two fields to compare")
    parser.add_argument("--limit", type=int, help="compare only the first N prompts")
    parser.add_argument("--seed", type=int, default=0, help="seed of the order shown")
    args = parser.parse_args(argv)
    first_model, second_model = args.models.split(",")

    rows: list[dict[str, Any]] = [
        json.loads(line) for line in Path(args.answers).read_text().splitlines() if line.strip()
    ][: args.limit]
    rng = random.Random(args.seed)  # noqa: S311 - a reproducible order, not a secret
    items, shown_as = [], []
    for row in rows:
        models = [first_model, second_model]
        rng.shuffle(models)  # which model is response A
        shown_as.append({"A": models[0], "B": models[1]})
        items.append(
            prin_guard.Item(
                task="pairwise",
                id=row["id"],
                question=row["prompt"],
                candidates=[row[models[0]], row[models[1]]],
            )
        )

    guard = prin_guard.Guard(
        build_judge(args.judge, args.api_base),
        options=prin_guard.GuardOptions(checks=("reverse", "order"), policy="strict"),
    )
    print(
        f"Comparing {first_model} and {second_model} on {len(items)} prompts, judge {args.judge!r}"
    )
    verdicts = guard.check_many(items)

    print("\n== Pairs ==")
    outcome: Counter[str] = Counter()
    undecided: list[tuple[str, str]] = []
    for item, models, verdict in zip(items, shown_as, verdicts, strict=True):
        if verdict.winner is not None:
            result = f"{models[verdict.winner]} wins"
            outcome[models[verdict.winner]] += 1
        elif verdict.tie:
            result = "tie"
            outcome["tie"] += 1
        else:
            why = ", ".join(flag.value for flag in verdict.flags) or "no answer"
            result = f"not decided ({why})"
            outcome["undecided"] += 1
            undecided.append((item.key, why))
        print(f"{item.key:<16} A = {models['A']}, B = {models['B']}: {result}")

    decided = outcome[first_model] + outcome[second_model]
    low, high = wilson(outcome[first_model], decided)
    print("\n== Summary ==")
    print(
        f"{first_model} wins {outcome[first_model]}, {second_model} wins "
        f"{outcome[second_model]}, ties {outcome['tie']}, not decided {outcome['undecided']}"
    )
    if decided:
        leader = first_model if outcome[first_model] >= outcome[second_model] else second_model
        share = outcome[leader] / decided
        low, high = (low, high) if leader == first_model else (1 - high, 1 - low)
        print(
            f"{leader} wins {share:.0%} of the {decided} decided pairs, {outcome[leader]} to "
            f"{decided - outcome[leader]} (95% interval {low:.0%} to {high:.0%})"
        )
    if undecided:
        print("pairs the judge could not decide (look at them yourself):")
        for key, why in undecided:
            print(f"  {key}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
