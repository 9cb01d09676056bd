"""Guard the judge prompt you already run: MT-Bench's pairwise prompt, unchanged.

prin-guard asks your prompt as it is (the direct leg) and its reverse, derived by flipping
its words ("better" -> "worse", never in the item's text), reads "[[A]]", "[[B]]" or
"[[C]]" (a tie) as your prompt asks, and flags the pairs where the judge contradicts
itself. The judge is your own client: a function that takes the chat messages (here a
stand-in that prefers the longer answer and mistakes the reverse question for the
direct one half the time), or any litellm model.

    python examples/own_prompt/guard_mt_bench.py                      # the stand-in client
    python examples/own_prompt/guard_mt_bench.py --show-prompts       # see every leg first
    python examples/own_prompt/guard_mt_bench.py --judge openai/gpt-4o-mini
    python examples/own_prompt/guard_mt_bench.py --template my_prompt.toml

A prompt of your own goes in a TOML file (see my_prompt.toml beside this script).
"""

from __future__ import annotations

import argparse
import re
import zlib
from collections.abc import Sequence
from typing import Any

import prin_guard
from prin_guard import FunctionJudge

PAIRS = [
    {
        "id": "capital",
        "task": "pairwise",
        "question": "What is the capital of Australia?",
        "candidates": [
            "Sydney is the capital of Australia.",
            "Canberra is the capital of Australia; it was chosen in 1908 as a compromise "
            "between Sydney and Melbourne.",
        ],
    },
    {
        "id": "boiling",
        "task": "pairwise",
        "question": "At what temperature does water boil at sea level?",
        "candidates": [
            "100 degrees Celsius (212 degrees Fahrenheit) at standard atmospheric pressure.",
            "Water boils at 100 °C at sea level.",
        ],
    },
    {
        "id": "same",
        "task": "pairwise",
        "question": "Name a primary colour.",
        "candidates": ["Red.", "Blue."],
    },
]


def my_client(messages: list[dict[str, str]]) -> tuple[str, dict[str, Any]]:
    """Your code that calls a model (a stand-in here): it takes the chat messages and
    returns the reply and what the call cost. It calls answers of about the same length a
    tie, prefers the longer one otherwise, but on some pairs answers the reverse question
    as if it were the direct one. It writes its verdict as the prompt asks: MT-Bench's
    "[[A]]" tags, or my_prompt.toml's JSON."""
    system, user = messages[0]["content"], messages[-1]["content"]
    mt_bench = "[The Start of Assistant" in user
    pattern = (
        r"\[The Start of Assistant [AB]'s Answer\]\n(.*?)\n\[The End"
        if mt_bench
        else r"Answer [12]:\n(.*?)\n\n"
    )
    a, b = (len(text) for text in re.findall(pattern, user, re.S))
    usage = {"prompt_tokens": (len(system) + len(user)) // 4, "completion_tokens": 12}
    if abs(a - b) <= 10:
        choice = "tie"
    else:
        longer = "1" if a > b else "2"
        reverse = "is worse" in system or "is worse" in user
        confused = zlib.crc32(user.encode()) % 2 == 0  # it misreads some reverse legs
        choice = longer if not reverse or confused else {"1": "2", "2": "1"}[longer]
    if mt_bench:
        tag = {"1": "A", "2": "B", "tie": "C"}[choice]
        return f"Having compared the two answers:\n\n[[{tag}]]", usage
    return f'Compared point by point.\n{{"winner": "{choice}"}}', usage


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--judge", default="client", help="'client' (the stand-in) or a litellm model"
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--template", default="mt-bench-pair", help="a pack id or a TOML file")
    parser.add_argument("--show-prompts", action="store_true", help="print every leg, ask nothing")
    args = parser.parse_args(argv)
    if args.judge == "client":
        judge: Any = FunctionJudge(my_client, messages=True, name="my-client")
    else:
        judge = prin_guard.judges.judge_from_spec(args.judge, api_base=args.api_base)
    guard = prin_guard.Guard(judge, template=args.template, cache=None)
    if args.show_prompts:
        for leg in guard.prompts(PAIRS[0]):
            print(f"== {leg.name} leg ==")
            for message in leg.messages:
                print(f"[{message['role']}]\n{message['content']}\n")
            print(f"the reader looks for: {leg.reads}\n")
        return 0
    verdicts = guard.check_many(PAIRS)
    for pair, verdict in zip(PAIRS, verdicts, strict=True):
        if verdict.tie:
            outcome = "a tie"
        elif verdict.winner:
            outcome = f"winner {verdict.winner}: {verdict.winner_text}"
        else:
            outcome = "no winner"
        direct, reverse = (
            (leg.raw_text or "-").splitlines()[-1] if leg is not None else "-"
            for leg in (verdict.direct, verdict.reverse)
        )
        flags = ", ".join(verdict.flags) or "clean"
        print(f"{pair['id']}: {outcome}  (direct {direct}, reverse {reverse}; {flags})")
    tokens = sum((v.usage.prompt_tokens or 0) for v in verdicts if v.usage is not None)
    print(f"judge calls: {guard.judge_calls}; prompt tokens counted: {tokens}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
