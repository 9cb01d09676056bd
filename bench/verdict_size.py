"""16. How big a verdict's JSON is, and how many times it holds each judge reply.

A review (the bundled AI Scientist form: nine score fields, each with its own verdict in
``aspects``) and a rating of five aspects asked together (``rating_aspects="together"``)
are each answered by a scripted judge with a reply of about 3,000 characters per call
(the AI Scientist's own recorded review of a paper after a THOUGHT of filler, at least
the size, its JSON alone longer;
the rating's reasoning, then one line per aspect). The table gives the verdict's
``model_dump_json()`` in bytes and how many times each reply stands in it (as JSON writes
it, escaped): the figure that is cached nowhere (the cache keeps replies, not verdicts)
but is returned by the service, logged, and written to every eval run's records.

    PYTHONPATH=$PWD .venv/bin/python -m bench.verdict_size
    PYTHONPATH=$PWD .venv/bin/python -m bench.verdict_size --chars 6000
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence

from bench._common import ROOT, md_table
from prin_guard import Guard
from prin_guard.judges import JudgeResponse
from prin_guard.models import Usage, Verdict

RECORDED = ROOT / "tests" / "data" / "replies" / "reviews" / "ai-scientist-example-papers.jsonl"
PAPER = {
    "task": "review",
    "form": "ai-scientist",
    "title": "Adaptive Dual-Scale Denoising for Dynamic Feature Balancing",
    "abstract": "We propose a two-branch denoiser for low-dimensional diffusion models, with a "
    "learnable timestep-conditioned weighting of its global and local branches.",
}
ASPECTS = ("coherence", "consistency", "fluency", "relevance", "informativeness")
RATING = {
    "task": "rating",
    "question": "Summarize the article.",
    "response": "The council approved the city's budget on Monday after a long debate.",
    "scale": {"min": 1, "max": 5},
    "aspects": list(ASPECTS),
}
_FILLER = (
    "The method is described clearly enough to follow, but its evaluation leaves open "
    "whether the gains hold beyond the four toy datasets, and the ablations do not isolate "
    "the weighting network from the added capacity of the second branch. "
)


def _padded(head: str, tail: str, chars: int) -> str:
    """``head``, filler sentences, then ``tail``: about ``chars`` characters in all."""
    room = max(0, chars - len(head) - len(tail))
    filler = (_FILLER * (room // len(_FILLER) + 1))[:room]
    return head + filler + tail


def review_replies(chars: int) -> tuple[str, str]:
    """The direct reply (the recorded AI Scientist review, its THOUGHT lengthened) and the
    mirrored one (every score on its mirrored scale, ``Reject``), each about ``chars``."""
    record = json.loads(RECORDED.read_text().splitlines()[0])
    form = json.loads(record["reply"])
    direct_json = json.dumps(form, indent=4)
    direct = _padded("THOUGHT:\n", f"\n\nREVIEW JSON:\n```json\n{direct_json}\n```", chars)
    scales = {
        "Originality": 4, "Quality": 4, "Clarity": 4, "Significance": 4, "Soundness": 4,
        "Presentation": 4, "Contribution": 4, "Overall": 10, "Confidence": 5,
    }  # fmt: skip
    mirrored = {name: 1 + top - int(form[name]) for name, top in scales.items()}
    mirrored["Reject"] = "Yes" if form["Decision"] == "Reject" else "No"
    tail = f"\n\nREVIEW JSON:\n```json\n{json.dumps(mirrored, indent=4)}\n```"
    return direct, _padded("THOUGHT:\nOn the mirrored scales. ", tail, chars)


def rating_replies(chars: int) -> tuple[str, str]:
    """The direct and the mirrored reply to five aspects asked together, each ``chars``."""
    direct = "\n".join(f"{name}: [[4]]" for name in ASPECTS)
    mirrored = "\n".join(f"{name}: [[2]]" for name in ASPECTS)
    return (
        _padded("Reasoning: ", "\n\n" + direct, chars),
        _padded("Reasoning, on the mirrored scale: ", "\n\n" + mirrored, chars),
    )


def _judge(direct: str, mirrored: str, is_mirrored: Callable[[str], bool]):  # type: ignore[no-untyped-def]
    def judge(prompt: str) -> JudgeResponse:
        text = mirrored if is_mirrored(prompt) else direct
        return JudgeResponse(text=text, usage=Usage(prompt_tokens=1000, completion_tokens=700))

    return judge


def copies(dumped: str, reply: str) -> int:
    """How many times ``reply`` stands in a verdict's JSON text (escaped as JSON writes it)."""
    return dumped.count(json.dumps(reply, ensure_ascii=False)[1:-1])


def measure(chars: int) -> list[tuple[str, str, int, str, Verdict]]:
    """Each case: its name, the replies' lengths, the verdict's JSON bytes, the copies of
    each reply, the verdict."""
    out = []
    direct, mirrored = review_replies(chars)
    guard = Guard(_judge(direct, mirrored, lambda p: "This time, do not fill in" in p), cache=None)
    verdict = guard.check(PAPER)
    dumped = verdict.model_dump_json()
    shown = f"{copies(dumped, direct)} + {copies(dumped, mirrored)}"
    sizes = f"{len(direct)} / {len(mirrored)}"
    out.append(
        (f"review, ai-scientist ({len(verdict.aspects)} scores)", sizes, dumped, shown, verdict)
    )
    direct, mirrored = rating_replies(chars)
    guard = Guard(
        _judge(direct, mirrored, lambda p: "how poor the response" in p),
        cache=None,
        rating_aspects="together",
    )
    verdict = guard.check(RATING)
    dumped = verdict.model_dump_json()
    shown = f"{copies(dumped, direct)} + {copies(dumped, mirrored)}"
    sizes = f"{len(direct)} / {len(mirrored)}"
    out.append((f"rating, {len(ASPECTS)} aspects together", sizes, dumped, shown, verdict))
    return [(name, sizes, len(d.encode()), shown, v) for name, sizes, d, shown, v in out]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=3000, help="characters per reply")
    args = parser.parse_args(argv)
    rows = [row[:4] for row in measure(args.chars)]
    header = (
        "case",
        "reply chars (direct / mirrored)",
        "verdict JSON bytes",
        "copies in it (direct + mirrored)",
    )
    print(f"Replies of about {args.chars} characters each.\n")
    print(md_table(header, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
