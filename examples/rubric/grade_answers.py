"""Grade short answers against a rubric, and see which criteria the judge contradicted.

Each answer is a checklist item (``task="checklist"``): the answer is the response, the
rubric's criteria the candidates. prin-guard asks which criteria the answer meets and
which it fails to meet; a criterion named in both answers, or in neither, is
``contradicted``: the grade leaves it out and a person should look at it. The score is
the weighted share of criteria met.

    python examples/rubric/grade_answers.py                       # a stand-in judge
    python examples/rubric/grade_answers.py --judge local         # the bundled model
    python examples/rubric/grade_answers.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from answers import QUESTIONS

import prin_guard
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec
from prin_guard.models import Candidate


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in a second. It reads each
    criterion's keywords (a model reads only the criterion): asked which criteria are
    met, it looks for a keyword anywhere in the answer; asked which are not, for a word
    starting with one. So "sunlight" meets "uses light" one way and not the other: the
    kind of contradiction a real judge makes, and the guard catches."""
    keywords = {c["text"]: c["keywords"] for q in QUESTIONS for c in q["rubric"]}

    def reply(prompt: str) -> str:
        answer = re.search(r"Given this response\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        assert answer is not None
        text = answer.group(2).lower()
        criteria = re.findall(r'"([A-Z])\) ([^"]+)"', prompt)
        if "please output the criteria it fails to meet." in prompt:
            named = [
                label
                for label, criterion in criteria
                if not any(re.search(rf"\b{re.escape(k)}", text) for k in keywords[criterion])
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
    parser.add_argument("--limit", type=int, help="grade only the first N answers")
    args = parser.parse_args(argv)

    graded: list[tuple[dict[str, Any], prin_guard.Item]] = []
    for question in QUESTIONS:
        for answer in question["answers"]:
            item = prin_guard.Item(
                task="checklist",
                id=f"{question['id']}/{answer['student']}",
                question=question["question"],
                response=answer["text"],
                candidates=[
                    Candidate(text=c["text"], weight=c.get("weight")) for c in question["rubric"]
                ],
            )
            graded.append((answer, item))
    graded = graded[: args.limit]

    guard = prin_guard.Guard(build_judge(args.judge, args.api_base))  # template: criteria
    print(f"Grading {len(graded)} answers against their rubrics, judge {args.judge!r}")
    verdicts = guard.check_many(item for _, item in graded)

    print("\n== Grades ==")
    exact = review = 0
    for (answer, item), verdict in zip(graded, verdicts, strict=True):
        score = "-" if verdict.score is None else f"{verdict.score:.2f}"
        print(f"\n[{item.key}] score {score}")
        for candidate in verdict.candidates:
            teacher = "met" if candidate.label in answer["met"] else "not met"
            mark = f"{candidate.label}) {candidate.status:<12} {candidate.text}"
            print(f"  {mark}  (teacher: {teacher})")
        contradicted = [c.label for c in verdict.candidates if c.status == "contradicted"]
        if contradicted or verdict.error is not None:
            review += 1
            print(f"  -> check by hand: {', '.join(contradicted) or verdict.flags}")
        exact += set(verdict.correct) == set(answer["met"])

    print("\n== Summary ==")
    print(f"answers: {len(graded)}, graded as the teacher did: {exact}, to check by hand: {review}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
