"""Which candidate equation fits this passage of a paper? Ask both ways, flag contradictions.

The EquInfer task of the PRIN paper: a reviewer model is shown a passage with an
equation taken out and several candidate equations, and must say which one belongs
there. The passage goes to the judge as the item's context.

    python examples/peer_review/review.py
    python examples/peer_review/review.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from passages import PASSAGES

import prin_guard
from prin_guard.judges import judge_from_spec


def labels(values: Sequence[str]) -> str:
    return ", ".join(values) or "none"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--judge",
        default="local",
        help="'local' (the bundled model) or a litellm model string such as "
        "'openai/gpt-4o-mini' (keys from the provider's usual environment variables)",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument(
        "--mitigations", default="neg_exp", help="comma-separated: neg_exp, cot (default neg_exp)"
    )
    parser.add_argument("--limit", type=int, help="review only the first N passages")
    args = parser.parse_args(argv)
    mitigations = [m.strip() for m in args.mitigations.split(",") if m.strip()]

    passages = PASSAGES[: args.limit] if args.limit is not None else PASSAGES
    items = [
        prin_guard.Item(
            id=p["id"], question=p["question"], context=p["context"], candidates=p["candidates"]
        )
        for p in passages
    ]
    guard = prin_guard.Guard(
        judge_from_spec(args.judge, api_base=args.api_base), mitigations=mitigations
    )
    print(f"Reviewing {len(items)} passages with judge {args.judge!r}")
    verdicts = guard.check_many(items)

    print("\n== Verdicts ==")
    right = 0
    for passage, item, verdict in zip(passages, items, verdicts, strict=True):
        gold = passage["gold"]
        right += verdict.correct == (gold,)
        print(f"\n[{item.id}]")
        for candidate in item.candidates:
            marks = [
                name
                for name, chosen in (
                    ("verdict", candidate.label in verdict.correct),
                    ("gold", candidate.label == gold),
                )
                if chosen
            ]
            note = f"   <- {' and '.join(marks)}" if marks else ""
            print(f"  {candidate.label}) {candidate.text}{note}")
        direct = verdict.direct.labels if verdict.direct else ()
        reverse = verdict.reverse.labels if verdict.reverse else ()
        prin = "-" if verdict.prin_score is None else f"{verdict.prin_score:.2f}"
        print(
            f"  correct ones: {labels(direct)} | incorrect ones: {labels(reverse)} "
            f"| agreed: {labels(verdict.correct)} | PRIN {prin}"
        )
        print(f"  flags: {', '.join(flag.value for flag in verdict.flags) or 'none'}")

    flagged = sum(1 for verdict in verdicts if verdict.flags)
    print("\n== Summary ==")
    print(f"passages: {len(items)}, verdict = gold: {right}, flagged for a human: {flagged}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
