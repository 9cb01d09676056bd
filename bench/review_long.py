"""14. A long paper reviewed both ways: what the reverse leg costs when the paper comes first.

A review item's paper (its ``document``) is laid out first in the ICLR form, so the mirrored
leg shares the system message and the user message through the end of the paper with the
direct leg (``tasks/_review.py``); a server or provider that caches prompt prefixes computes
that prefix once. This bench measures it on llama.cpp's server (llama-cpp-python, the
bundled SmolLM2-135M GGUF on loopback, one request at a time, as ``bench/premium.py``
starts it; the context raised to hold the paper): for papers of about 5,000, 15,000 and
30,000 tokens, each round on a server that has not seen the paper,

* **one review**: the direct leg alone (the form as written), one call;
* **guarded**: the review task's two calls (direct and mirrored);
* **guarded with a rebuttal**: the same two and the rebuttal probe's third call, which
  continues the direct conversation.

For each: wall time, and per request the prompt tokens and those the server took from its
cache (its log's ``prefix-match hit``). Then the same requests repriced with litellm's
price table (``bench.premium._price``) for hosted models, two ways: as the review task sends
its legs today, **at once** (both miss a hosted provider's cache: neither has written it),
and **staggered** (the mirrored leg after the direct one has begun, reading the prefix it
wrote; Anthropic bills the write at 1.25×, OpenAI reads in steps of 128 from 1,024).

The paper is made of real text that may be redistributed: the titles and abstracts of the
ICLR 2017 papers (CC0; ``../shared/data/reviews``), one section each, until the size is
reached (the server's tokenizer counts). SmolLM2-135M's own context is 8,192 tokens: past
it the bundled model's replies mean nothing, and this bench measures prices and caches
only. Replies are capped (``--max-tokens``).

    .venv/bin/python -m bench.review_long --sizes 5000,15000,30000 --max-tokens 48
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench._common import ROOT, md_table
from bench.premium import _PREFIX_HIT, PRICED, _llama_server, _price, _Server

PAPERS = ROOT.parent / "shared" / "data" / "reviews" / "papers.jsonl"
if not PAPERS.is_file():  # a worktree's folder of worktrees
    PAPERS = ROOT.parents[1] / "shared" / "data" / "reviews" / "papers.jsonl"


def _sections() -> list[str]:
    rows = [json.loads(line) for line in PAPERS.read_text().splitlines() if line.strip()]
    return [f"## {n}. {row['title']}\n\n{row['abstract']}\n" for n, row in enumerate(rows, 1)]


def paper_of(server: _Server, tokens: int, start: int = 0) -> str:
    """A markdown paper of about ``tokens`` tokens (the server's count), its sections the
    abstracts from ``start`` on (a different start each round: no round reads another's)."""
    sections = _sections()
    head = "# A survey of ICLR 2017 submissions\n\n"
    parts: list[str] = []
    index = start
    chars_per_token = 4.0
    while True:
        body = head + "\n".join(parts)
        if len(body) / chars_per_token >= tokens:
            counted = server.tokens(body)
            if counted >= tokens:
                return body
            chars_per_token = len(body) / counted
        parts.append(sections[index % len(sections)])
        index += 1


async def _measure(server: _Server, judge: Any, item: dict[str, Any], config: str) -> dict[str, Any]:
    from prin_guard import Guard
    from prin_guard.models import Polarity

    await judge.complete([{"role": "user", "content": f"Say hello. ({config} {item['id']})"}])
    before = len(_PREFIX_HIT.findall(server.output()))
    started = time.perf_counter()
    guard = Guard(judge, cache=None)
    if config == "one review":
        response = await judge.complete(guard.messages(item, Polarity.DIRECT))
        completions = [response.usage.completion_tokens if response.usage else None]
    else:
        asked = dict(item, rebuttal="no-evidence") if config == "guarded + rebuttal" else item
        verdict = await guard.acheck(asked)
        legs = [verdict.direct, verdict.reverse]
        completions = [leg.usage.completion_tokens if leg and leg.usage else None for leg in legs]
        if verdict.review is not None and verdict.review.rebuttal is not None:
            usage = verdict.review.rebuttal.usage
            completions.append(usage.completion_tokens if usage else None)
    seconds = time.perf_counter() - started
    hits = _PREFIX_HIT.findall(server.output())[before:]
    requests = [(int(a) + int(b), int(a)) for a, b in hits]  # (prompt, from the cache)
    return {"seconds": seconds, "requests": requests, "completions": completions}


def _billed(litellm: Any, provider: str, model: str, run: dict[str, Any], staggered: bool) -> float:
    """The run's requests at ``model``'s prices: each fresh (sent at once), or, staggered,
    the first writing the prefix the others read (the server's measured hits)."""
    total = 0.0
    for index, ((prompt, cached), completion) in enumerate(
        zip(run["requests"], run["completions"], strict=False)
    ):
        completion = completion or 0
        if not staggered or len(run["requests"]) == 1:
            total += _price(litellm, provider, model, prompt, completion)
        elif index == 0:
            write = run["requests"][1][1] if provider == "anthropic" else 0
            total += _price(litellm, provider, model, prompt, completion, write=write)
        else:
            total += _price(litellm, provider, model, prompt, completion, read=cached)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5000,15000,30000", help="paper sizes in tokens")
    parser.add_argument("--max-tokens", type=int, default=48, help="cap on each reply")
    parser.add_argument("--rounds", type=int, default=1, help="papers per size")
    args = parser.parse_args(argv)
    import litellm

    from prin_guard import LiteLLMJudge

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    configs = ("one review", "guarded", "guarded + rebuttal")
    results: list[dict[str, Any]] = []
    context = max(sizes) + 4096
    with _llama_server("--n_ctx", str(context)) as server:
        judge = LiteLLMJudge(
            "openai/smollm2",
            api_base=server.base,
            api_key="no-key",
            max_tokens=args.max_tokens,
            timeout=3600,
            prompt_cache=0,
        )
        for size in sizes:
            for round_ in range(args.rounds):
                paper = paper_of(server, size, start=37 * round_ + size // 1000)
                item = {"task": "review", "id": f"long-{size}-{round_}", "document": paper}
                for config in configs:
                    run = asyncio.run(_measure(server, judge, item, config))
                    run.update(size=size, round=round_, config=config)
                    results.append(run)
                    print(json.dumps(run), file=sys.stderr, flush=True)
    rows = []
    for run in results:
        requests = ", ".join(f"{cached:,}/{prompt:,}" for prompt, cached in run["requests"])
        rows.append(
            [
                f"{run['size']:,}",
                run["config"],
                f"{run['seconds']:.1f}",
                requests,
                ", ".join(str(c) for c in run["completions"]),
            ]
        )
    print("Requests (prompt tokens read from the server's cache / prompt tokens):\n")
    print(
        md_table(["paper (tokens)", "calls", "wall (s)", "cached / prompt", "completion"], rows)
    )
    priced = []
    for size in sizes:
        by = {r["config"]: r for r in results if r["size"] == size and r["round"] == 0}
        base = by["one review"]
        wall = by["guarded"]["seconds"] / base["seconds"]
        row = [f"{size:,}", f"{wall:.2f}×"]
        for provider, model, _ in PRICED[:2]:
            one = _billed(litellm, provider, model, base, False)
            for config in ("guarded", "guarded + rebuttal"):
                at_once = _billed(litellm, provider, model, by[config], False) / one
                staggered = _billed(litellm, provider, model, by[config], True) / one
                row.append(f"{at_once:.2f}× / {staggered:.2f}×")
        priced.append(row)
    header = ["paper (tokens)", "wall, guarded / one review (llama.cpp)"]
    for _, _, described in PRICED[:2]:
        header += [f"{described}: guarded", f"{described}: + rebuttal"]
    print("\nPremium (cost / one review's), legs at once / staggered:\n")
    print(md_table(header, priced))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
