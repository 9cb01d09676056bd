"""An automated reviewer's forms, guarded: each paper reviewed in the ICLR form both ways,
checked for coherence, and asked again after an author's rebuttal that brings no evidence.

Each paper is a review item (``task="review"``, its title and abstract; a full text goes
in ``document``). prin-guard asks the form as written and, in a second call, every score on
its scale mirrored and "should it be rejected?"; a decision the two calls do not agree on is
none, a form that contradicts itself is flagged, and a reviewer who moves for a rebuttal
without evidence is ``swayed_by_rebuttal``. The flagged reviews are the ones a program
committee should read itself.

    python examples/peer_review/guarded_review.py                    # a stand-in reviewer
    python examples/peer_review/guarded_review.py --judge local      # the bundled model
    python examples/peer_review/guarded_review.py --judge openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence

import prin_guard
from prin_guard.judges import Judge, judge_from_spec

PAPERS = [
    {
        "id": "warmup",
        "title": "Learning-Rate Warm-up Stabilises Small-Batch Transformer Training",
        "abstract": "We show on three translation benchmarks and five seeds that a linear "
        "learning-rate warm-up of 4,000 steps removes the loss spikes of small-batch "
        "transformer training, and we release the code and every run's logs.",
    },
    {
        "id": "universal",
        "title": "A Universal Optimiser That Beats Every Baseline",
        "abstract": "Our optimiser outperforms all existing methods on all tasks. We ran one "
        "seed on one dataset; the results speak for themselves.",
    },
    {
        "id": "pruning",
        "title": "Pruning Data by Loss Curvature",
        "abstract": "We keep the training examples whose loss curvature is highest and match "
        "full-data accuracy on CIFAR-10 with 60% of the data, averaged over three seeds.",
    },
]
"""Three made-up papers, written for this example."""

# What the stand-in reviewer thinks of each paper: its form (rating, confidence, decision),
# what it answers to the mirrored questions, and its form after the rebuttal.
_STANCES = {
    "Learning-Rate Warm-up": ((7, 4, "Accept"), (4, 2, "No"), (7, 4, "Accept")),
    # its mirrored leg calls the paper good: the decision is not guarded
    "A Universal Optimiser": ((3, 4, "Reject"), (3, 2, "No"), (3, 4, "Reject")),
    # a confident form whose text disowns it, and a reviewer swayed by the rebuttal
    "Pruning Data": ((5, 5, "Reject"), (6, 1, "Yes"), (7, 5, "Accept")),
}


def scripted_judge() -> Callable[[str], str]:
    """A stand-in reviewer, so the example runs anywhere in a second: it answers each
    paper's form, its mirrored questions and the rebuttal as ``_STANCES`` says, the kinds
    of mistakes a real reviewer model makes and the guard catches. A plain function of the
    prompt: the guard hands it the whole conversation (the rebuttal's too) as one text."""

    def form(fields: dict[str, object], thought: str) -> str:
        return f"THOUGHT:\n{thought}\n\nREVIEW JSON:\n```json\n{json.dumps(fields)}\n```"

    def reply(prompt: str) -> str:
        title = re.search(r"^# (.+)$", prompt, re.M)
        assert title is not None
        stance = next(s for key, s in _STANCES.items() if title.group(1).startswith(key))
        (rating, confidence, decision), mirrored, after = stance
        if "Author rebuttal:" in prompt:
            rating, confidence, decision = after
        elif "This time, do not fill in the review form" in prompt:
            rating, confidence, reject = mirrored
            return form({"Rating": rating, "Confidence": confidence, "Reject": reject}, "Mirrored.")
        text = "The claims are supported by the experiments described."
        if title.group(1).startswith("Pruning"):
            text = "Curvature-based selection is outside my expertise; the idea seems plausible."
        return form(
            {"Review": text, "Rating": rating, "Confidence": confidence, "Decision": decision},
            "I weighed the evidence in the abstract.",
        )

    return reply


def build_judge(spec: str, api_base: str | None) -> Judge | Callable[[str], str]:
    return scripted_judge() if spec == "scripted" else judge_from_spec(spec, api_base=api_base)


def _score(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--judge",
        default="scripted",
        help="'scripted' (a stand-in, the default), 'local' (the bundled model) or a litellm "
        "model string such as 'openai/gpt-4o-mini'",
    )
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--limit", type=int, help="review only the first N papers")
    args = parser.parse_args(argv)

    papers = PAPERS[: args.limit]
    items = [
        {"task": "review", "form": "iclr", "rebuttal": "no-evidence", **paper} for paper in papers
    ]
    guard = prin_guard.Guard(build_judge(args.judge, args.api_base))
    print(f"Reviewing {len(items)} papers in the ICLR form with judge {args.judge!r}\n")
    decided = flagged = 0
    for paper, verdict in zip(papers, guard.check_many(items), strict=True):
        review = verdict.review
        assert review is not None
        print(f"[{paper['id']}] {paper['title']}")
        for name, aspect in verdict.aspects.items():
            direct = aspect.direct.score if aspect.direct else None
            reverse = aspect.reverse.score if aspect.reverse else None
            print(
                f"  {name}: direct {_score(direct)}, mirrored {_score(reverse)} (on the scale "
                f"turned round), guarded {_score(aspect.rating)}"
            )
        rejected = {True: "yes", False: "no", None: "unread"}[review.rejected]
        print(
            f"  decision: {review.decision_direct or 'unread'}; should it be rejected? "
            f"{rejected}; guarded: {review.decision or 'none (the two calls disagree)'}"
        )
        rebuttal = review.rebuttal
        if rebuttal is not None:
            moved = ", ".join(f"{k} {v:+g}" for k, v in rebuttal.moved.items()) or "nothing read"
            print(f"  after a rebuttal with no evidence: {moved}; decision {rebuttal.decision}")
        shown = ", ".join(flag.value for flag in verdict.flags) or "none"
        print(f"  flags: {shown}" + (f' ("{review.disowning}")' if review.disowning else ""))
        print()
        decided += review.decision is not None
        flagged += bool(verdict.flags)
    print(f"papers: {len(items)}, decided both ways: {decided}, for a person to read: {flagged}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
