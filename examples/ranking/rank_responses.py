"""Rank several responses to one question, best first, each ranking checked against the
judge's own ranking from the worst to the best and against its rankings of the responses
shown in other orders.

Each question is a ranking item (``task="ranking"``, three to twenty responses). prin-guard
asks the judge to rank them from the best to the worst (the direct leg) and from the worst
to the best (the reverse leg), and, with the order check, asks both again with the
responses shown in other orders (balanced: each response in each position about equally
often). The verdict's ``ranking`` is the consensus of every leg (ties where the legs
disagree), with ``best`` and ``worst``; ``scores.legs_tau`` says how far the direct and the
reversed reverse ranking agree, ``scores.orders_tau`` how far the orders do. A judge whose
ranking follows the order it was shown the responses in is flagged ``order_sensitive``
(and ``position_bias``), even when its two legs agree.

    python examples/ranking/rank_responses.py                       # a stand-in judge
    python examples/ranking/rank_responses.py --judge local         # the bundled model
    python examples/ranking/rank_responses.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from responses import QUESTIONS

import prin_guard
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec

_SHOWN = re.compile(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End of Response \1\]", re.S)


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in a second. It prefers longer
    responses that give a number with its reason; but on the question about primes it
    ranks the responses in the order it is shown them, the position bias a real judge
    shows when it cannot tell responses apart (and the order check catches)."""

    def worth(text: str) -> int:
        return len(text.split()) + (10 if re.search(r"\d", text) else 0)

    def reply(prompt: str) -> str:
        shown = _SHOWN.findall(prompt)
        if "91" in prompt:
            ranked = [label for label, _ in shown]
        else:
            ranked = [label for label, _ in sorted(shown, key=lambda p: -worth(p[1]))]
        if "from the worst to the best" in prompt:
            return "Weighing them.\nRanking from worst to best: " + ", ".join(reversed(ranked))
        return "Weighing them.\nRanking from best to worst: " + ", ".join(ranked)

    return ScriptedJudge(fn=reply, name="stand-in")


def build_judge(spec: str, api_base: str | None) -> Judge:
    return scripted_judge() if spec == "scripted" else judge_from_spec(spec, api_base=api_base)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--judge",
        default="scripted",
        help="'scripted' (a stand-in, the default), 'local' (the bundled model) or a litellm "
        "model string such as 'openai/gpt-4o-mini'",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--limit", type=int, help="rank only the first N questions")
    args = parser.parse_args(argv)

    chosen = QUESTIONS[: args.limit]
    items = [
        {
            "task": "ranking",
            "id": entry["id"],
            "question": entry["question"],
            "candidates": entry["responses"],
        }
        for entry in chosen
    ]
    # the reverse leg and the order check: both legs in three balanced orders (6 calls)
    guard = prin_guard.Guard(build_judge(args.judge, args.api_base), checks=("reverse", "order"))
    print(f"Ranking the responses to {len(items)} questions, judge {args.judge!r}")
    verdicts = guard.check_many(items)

    print("\n== Rankings ==")
    clean = flagged = 0
    for entry, verdict in zip(chosen, verdicts, strict=True):
        ranking = " > ".join(" = ".join(tier) for tier in verdict.ranking or ()) or "-"
        expected = " > ".join(entry["expected"])
        scores = verdict.scores
        print(f"{entry['id']:<15} ranking {ranking:<14} (a careful reader: {expected})")
        print(
            f"{'':<15} best {verdict.best or '-'}, worst {verdict.worst or '-'}; legs tau "
            f"{_n(scores.legs_tau)}, orders tau {_n(scores.orders_tau)}; "
            f"calls {verdict.judge_calls}; flags {', '.join(verdict.flags) or 'none'}"
        )
        clean += verdict.consistent
        flagged += bool(verdict.flags)

    print("\n== Summary ==")
    print(f"questions: {len(items)}, consistent: {clean}, flagged: {flagged}")
    return 0


def _n(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
