"""Rate responses on a scale of 1 to 10, each checked against the judge's own rating of how
poor it is on the mirrored scale.

Each response is a rating item (``task="rating"``). prin-guard asks the judge how good the
response is (1 = very poor, 10 = excellent) and, on the mirrored scale, how poor it is
(1 = excellent, 10 = very poor), and reads the second back through the mirror. A judge
that means what it says gives mirror images (8, then 3); the rating is their mean when
they agree within a point. When they do not, the verdict has no rating and says why:
``inconsistent``, and ``polarity_confusion`` when the judge gave the same number to both
questions (it answered the mirrored one as if it were the direct one).

    python examples/ratings/rate_responses.py                       # a stand-in judge
    python examples/ratings/rate_responses.py --judge local         # the bundled model
    python examples/ratings/rate_responses.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from responses import RESPONSES

import prin_guard
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in a second. It scores a response by
    its length and its numbers, and on the mirrored question it usually answers the mirror
    image; but for a very short response it gives the same number to both questions, the
    mistake a real judge makes when it does not notice the mirror (and the guard flags)."""

    def reply(prompt: str) -> str:
        answer = re.search(
            r"\[The Start of Assistant's Answer\]\n(.*?)\n\[The End of Assistant's Answer\]",
            prompt,
            re.S,
        )
        assert answer is not None
        text = answer.group(1)
        good = 2 if "90 degrees" in text else min(9, 2 + len(text.split()) // 3)
        if "how poor the response" not in prompt:
            return f"The response is {'thorough' if good > 6 else 'thin'}. Rating: [[{good}]]"
        mirrored = good if len(text.split()) < 5 else 11 - good
        return f"Judged on the mirrored scale. Rating: [[{mirrored}]]"

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
    parser.add_argument("--limit", type=int, help="rate only the first N responses")
    args = parser.parse_args(argv)

    chosen = RESPONSES[: args.limit]
    items = [
        {
            "task": "rating",
            "id": entry["id"],
            "question": entry["question"],
            "response": entry["response"],
            "scale": {"min": 1, "max": 10},
        }
        for entry in chosen
    ]
    guard = prin_guard.Guard(build_judge(args.judge, args.api_base))
    print(f"Rating {len(items)} responses on 1-10, judge {args.judge!r}")
    verdicts = guard.check_many(items)

    print("\n== Ratings ==")
    rated = flagged = 0
    for entry, verdict in zip(chosen, verdicts, strict=True):
        direct = verdict.direct.score if verdict.direct is not None else None
        reverse = verdict.reverse.score if verdict.reverse is not None else None
        rating = "-" if verdict.rating is None else f"{verdict.rating:g}"
        legs = f"how good {_n(direct)}, how poor {_n(reverse)} (mirrored back {_back(reverse)})"
        flags = ", ".join(verdict.flags) or "none"
        print(
            f"{entry['id']:<22} rating {rating:<4} (a careful reader: {entry['expected']}) "
            f"{legs}; flags {flags}"
        )
        rated += verdict.rating is not None
        flagged += bool(verdict.flags)

    print("\n== Summary ==")
    print(f"responses: {len(items)}, rated: {rated}, flagged: {flagged}")
    return 0


def _n(score: float | None) -> str:
    return "-" if score is None else f"{score:g}"


def _back(score: float | None) -> str:
    return "-" if score is None else f"{11 - score:g}"


if __name__ == "__main__":
    sys.exit(main())
