"""Check a RAG answer's claims against the sources it cites.

Each answer is a checklist of claims (``task="checklist"``, template ``claims``): the
answer is the response, its cited passages the context, its claims the candidates.
prin-guard asks which claims the sources support and which they do not; a claim named in
both answers, or in neither, is ``contradicted``: send it for review. The answers here
are real: ExpertQA's (GPT-4 with retrieved web pages), whose claims domain experts
labelled as supported by their citations or not (the ``expertqa-claims`` sample shipped
with prin-guard), so the verdicts can be compared with the experts'.

    python examples/rag_claims/check_claims.py                      # a stand-in judge
    python examples/rag_claims/check_claims.py --judge local        # the bundled model
    python examples/rag_claims/check_claims.py --judge openai/gpt-4o-mini --limit 10

Your own answer is one ``prin_guard.Item(task="checklist", response=answer,
context=sources, candidates=claims)``, asked with ``template="claims"``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Sequence

import prin_guard
from prin_guard.datasets import load_dataset
from prin_guard.judges import Judge, ScriptedJudge, judge_from_spec

_WORD = re.compile(r"[a-z0-9]{4,}")


def _passages(sources: str) -> dict[str, str]:
    """The sources by their citation number: ``[2] https://...`` starts passage 2."""
    parts = re.split(r"(?m)^\[(\d+)\] ", sources)
    return {number: text.lower() for number, text in zip(parts[1::2], parts[2::2], strict=True)}


def scripted_judge() -> Judge:
    """A stand-in judge, so the example runs anywhere in seconds: a claim is supported
    when most of its words appear in the passages it cites ([n]). Asked which claims are
    supported it wants 60% of the words; asked which are not, it names those under 50%:
    the claims in between come out contradicted, as a hesitant judge's do."""

    def reply(prompt: str) -> str:
        sources = re.search(r"Given these sources\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        assert sources is not None
        passages = _passages(sources.group(2))
        reverse = "please output the claims the sources do not support." in prompt
        named = []
        for label, claim in re.findall(r'"([A-Z]+)\) ((?:[^"\\]|\\.)*)"', prompt):
            cited = " ".join(passages.get(n, "") for n in re.findall(r"\[(\d+)\]", claim))
            words = set(_WORD.findall(re.sub(r"\[\d+\]", "", claim.lower())))
            share = sum(word in cited for word in words) / max(len(words), 1)
            if (share < 0.5) if reverse else (share >= 0.6):
                named.append(label)
        return "Answer: " + (", ".join(named) or "none")

    return ScriptedJudge(fn=reply, name="word-overlap")


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
    parser.add_argument("--limit", type=int, default=5, help="answers to check (default 5)")
    args = parser.parse_args(argv)

    records = list(load_dataset("expertqa-claims", limit=args.limit))
    guard = prin_guard.Guard(build_judge(args.judge, args.api_base), template="claims")
    print(f"Checking the claims of {len(records)} answers, judge {args.judge!r}")
    verdicts = guard.check_many(record.item for record in records)

    print("\n== Claims ==")
    status: Counter[str] = Counter()
    agree = total = 0
    for record, verdict in zip(records, verdicts, strict=True):
        print(f"\n[{record.item.key}] {record.item.question}")
        for claim in verdict.candidates:
            expert = "supported" if claim.label in record.gold else "not supported"
            shown = {"met": "supported", "failed": "not supported"}.get(claim.status, claim.status)
            status[shown] += 1
            total += 1
            agree += shown == expert
            text = claim.text if len(claim.text) <= 90 else claim.text[:87] + "..."
            print(f"  {claim.label}) {shown:<14} {text}  (expert: {expert})")

    print("\n== Summary ==")
    print(
        f"claims: {total}, supported: {status['supported']}, not supported: "
        f"{status['not supported']}, contradicted (review): {status['contradicted']}"
    )
    print(f"as the experts judged them: {agree} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
