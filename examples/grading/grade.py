"""Guard a grading function you already have, and count the grading errors its flags catch.

The data: GSM8K questions, each with four real model solutions marked right or wrong
(the ``gsm8k-solutions`` sample shipped with prin-guard). The grader is asked which
solutions are correct; ``@prin_guard.guard`` also asks which are incorrect, keeps what
both answers agree on, and flags the items where they disagree.

    python examples/grading/grade.py --limit 10
    python examples/grading/grade.py --limit 10 --judge openai/gpt-4o-mini

An error is a verdict whose correct set differs from the gold set; a caught error is
an error on a flagged item: one a reviewer who checks the flagged items would find.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import prin_guard
from prin_guard.datasets import LabeledItem, load_dataset
from prin_guard.judges import judge_from_spec


def make_grade(judge: str, api_base: str | None, mitigations: Sequence[str]) -> prin_guard.Guard:
    model = judge_from_spec(judge, api_base=api_base)

    # The grading function as it was before prin-guard: a prompt in, the model's reply
    # out. The decorator is the only change; `grade` becomes a Guard with `check`,
    # `check_many` and `acheck`.
    @prin_guard.guard(mitigations=mitigations)
    async def grade(prompt: str) -> str:
        reply = await model.complete([{"role": "user", "content": prompt}])
        return reply.text or ""

    return grade


def labels(values: Sequence[str]) -> str:
    return ", ".join(values) or "none"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=10, help="questions to grade (default 10)")
    parser.add_argument(
        "--judge",
        default="local",
        help="'local' (the bundled model) or a litellm model string such as "
        "'openai/gpt-4o-mini' (keys from the provider's usual environment variables)",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument(
        "--mitigations",
        default="neg_exp",
        help="comma-separated: neg_exp, cot (cot shows each full solution: "
        "slow on the bundled model); default neg_exp",
    )
    args = parser.parse_args(argv)
    mitigations = [m.strip() for m in args.mitigations.split(",") if m.strip()]

    records: list[LabeledItem] = list(load_dataset("gsm8k-solutions", limit=args.limit))
    grade = make_grade(args.judge, args.api_base, mitigations)
    print(
        f"Grading {len(records)} GSM8K questions (four model solutions each) with "
        f"judge {args.judge!r}, mitigations: {labels(mitigations)}"
    )
    started = time.perf_counter()
    verdicts = grade.check_many(record.item for record in records)
    seconds = time.perf_counter() - started

    print("\n== Grades ==")
    print(f"{'item':<20} {'graded correct':<15} {'gold':<15} {'PRIN':>5}  flags")
    for record, verdict in zip(records, verdicts, strict=True):
        wrong = set(verdict.correct) != set(record.gold)
        prin = "-" if verdict.prin_score is None else f"{verdict.prin_score:.2f}"
        flags = ", ".join(flag.value for flag in verdict.flags) or "ok"
        mark = "  <- wrong" if wrong else ""
        print(
            f"{record.item.key:<20} {labels(verdict.correct):<15} {labels(record.gold):<15} "
            f"{prin:>5}  {flags}{mark}"
        )

    print("\n== Flagged ==")
    flagged = [(r, v) for r, v in zip(records, verdicts, strict=True) if v.flags]
    if not flagged:
        print("(none)")
    for record, verdict in flagged:
        print(f"{record.item.key}: {', '.join(flag.value for flag in verdict.flags)}")
        if verdict.error is not None:
            print(f"  error: {verdict.error.message}")
        for leg in (verdict.direct, verdict.reverse):
            if leg is not None:
                text = " ".join((leg.raw_text or "").split())
                print(f"  {leg.polarity.value:<7} {text[:70]!r} -> {labels(leg.labels)}")

    errors = [set(v.correct) != set(r.gold) for r, v in zip(records, verdicts, strict=True)]
    caught = sum(1 for error, v in zip(errors, verdicts, strict=True) if error and v.flags)
    print("\n== Summary ==")
    print(f"graded:                 {len(records)} in {seconds:.1f} s")
    print(f"grading errors:         {sum(errors)} (verdict's correct set != gold)")
    print(f"flagged:                {len(flagged)}")
    print(f"errors caught by flags: {caught} of {sum(errors)}")
    print(f"errors not flagged:     {sum(errors) - caught}")
    print(f"flagged but right:      {len(flagged) - caught}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
