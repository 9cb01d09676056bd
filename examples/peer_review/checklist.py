"""A reviewer's checklist over a paper's experiments sections, guarded.

Each section is a checklist item (``task="checklist"``): the section's text is the
response, the reviewing checklist's criteria the candidates. prin-guard asks which
criteria the section meets and which it fails to meet; a criterion named in both, or in
neither, is ``contradicted``: a point the reviewer must check by hand instead of trusting
the model's tick.

    python examples/peer_review/checklist.py                    # a stand-in judge
    python examples/peer_review/checklist.py --judge local      # the bundled model
    python examples/peer_review/checklist.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from sections import CHECKLIST, SECTIONS

import prin_guard
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in a second: a criterion is met
    when one of its keywords is in the section; asked which are not met, it wants the
    keyword as a word of its own, so "larger datasets" ticks "names the datasets" one way
    only: the kind of contradiction a real judge makes, and the guard catches."""
    keywords = {c["text"]: c["keywords"] for c in CHECKLIST}

    def reply(prompt: str) -> str:
        section = re.search(r"Given this response\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        assert section is not None
        text = section.group(2).lower()
        criteria = re.findall(r'"([A-Z])\) ([^"]+)"', prompt)
        if "please output the criteria it fails to meet." in prompt:
            named = [
                label
                for label, criterion in criteria
                if not any(
                    re.search(rf"(?<!\w){re.escape(k)}(?!\w)", text) for k in keywords[criterion]
                )
            ]
        else:
            named = [
                label
                for label, criterion in criteria
                if any(k in text for k in keywords[criterion])
            ]
        return "Answer: " + (", ".join(named) or "none")

    return ScriptedJudge(fn=reply, name="keywords")


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
    parser.add_argument("--limit", type=int, help="review only the first N sections")
    args = parser.parse_args(argv)

    sections = SECTIONS[: args.limit]
    items = [
        prin_guard.Item(
            task="checklist",
            id=section["id"],
            question="Review this experiments section of a paper against the checklist.",
            response=section["text"],
            candidates=[criterion["text"] for criterion in CHECKLIST],
        )
        for section in sections
    ]
    guard = prin_guard.Guard(build_judge(args.judge, args.api_base), mitigations=["neg_exp"])
    print(
        f"Reviewing {len(items)} sections against {len(CHECKLIST)} criteria, judge {args.judge!r}"
    )
    verdicts = guard.check_many(items)

    print("\n== Checklist ==")
    agreed = by_hand = 0
    for section, verdict in zip(sections, verdicts, strict=True):
        print(f"\n[{verdict.item_id}] {len(verdict.correct)} of {len(CHECKLIST)} met")
        for criterion in verdict.candidates:
            reviewer = "met" if criterion.label in section["met"] else "not met"
            mark = f"{criterion.label}) {criterion.status:<12} {criterion.text}"
            print(f"  {mark}  (reviewer: {reviewer})")
            by_hand += criterion.status == "contradicted"
        agreed += set(verdict.correct) == set(section["met"])

    print("\n== Summary ==")
    print(
        f"sections: {len(items)}, checklist as the reviewer's: {agreed}, "
        f"criteria to check by hand: {by_hand}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
