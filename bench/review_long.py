"""14. A long paper reviewed both ways: what the reverse leg costs when the paper comes first.

A review item's paper (its ``document``) is laid out first in the ICLR form, so the mirrored
leg shares the system message and the user message through the end of the paper with the
direct leg (``tasks/_review.py``); a server or provider that caches prompt prefixes computes
that prefix once.

This bench measures it on llama.cpp's server (llama-cpp-python, the bundled SmolLM2-135M
GGUF on loopback, one request at a time, as ``bench/premium.py`` starts it; the context
raised to hold the paper): for each paper of ``--sizes`` tokens, on a server that has not
seen it, the review with the ``no-evidence`` rebuttal (two calls, and the rebuttal's third
when the direct form was read): per request the prompt tokens, those the server took from
its cache (its log's ``prefix-match hit``) and its time (the log's ``total time``); the
guarded review's server time over the direct call's is the premium over one review.

Then, for each paper of ``--counted`` tokens (counted by the server's tokenizer, not
asked), each call's prompt tokens and what it shares, priced with litellm's price table
(``bench.premium._price``) for hosted models as a multiple of one review: legs **at once**
(``stagger="off"``, or a judge whose provider caches nothing: both miss a hosted provider's
cache, neither has written it) and **staggered** (the default where the provider caches
prefixes: the mirrored leg after the direct one has begun, reading the paper it wrote;
Anthropic bills the write at 1.25×, OpenAI reads in steps of 128 from 1,024), and with the
rebuttal's call (it reads the direct call's prompt: a provider caches no reply).

The paper is made of real text that may be redistributed: the titles and abstracts of the
ICLR 2017 papers (CC0; ``../shared/data/reviews``), one section each, until the size is
reached (the server's tokenizer counts). SmolLM2-135M's own context is 8,192 tokens: past
it the bundled model's replies mean nothing, and this bench measures prices and caches
only. Replies are capped (``--max-tokens``).

    .venv/bin/python -m bench.review_long --sizes 5000 --counted 5000 --max-tokens 48
    .venv/bin/python -m bench.review_long --sizes "" --counted 5000,15000,30000 --priced-reply 400
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
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


_TIMES = re.compile(r"total time =\s+([\d.]+) ms")


async def _measure(server: _Server, judge: Any, item: dict[str, Any]) -> dict[str, Any]:
    """The review with the rebuttal probe on a server that has not seen the paper: each
    request's prompt tokens, those read from the server's cache, its time (the server's
    log) and its completion tokens."""
    from prin_guard import Guard

    await judge.complete([{"role": "user", "content": f"Say hello. ({item['id']})"}])
    log = server.output()
    before, times_before = len(_PREFIX_HIT.findall(log)), len(_TIMES.findall(log))
    started = time.perf_counter()
    verdict = await Guard(judge, cache=None).acheck(dict(item, rebuttal="no-evidence"))
    seconds = time.perf_counter() - started
    legs = [verdict.direct, verdict.reverse]
    completions = [leg.usage.completion_tokens if leg and leg.usage else None for leg in legs]
    completions += [r.usage.completion_tokens if r.usage else None for r in verdict.probe]
    log = server.output()
    hits = _PREFIX_HIT.findall(log)[before:]
    times = [float(t) / 1000 for t in _TIMES.findall(log)[times_before:]]
    return {
        "seconds": seconds,
        "requests": [(int(a) + int(b), int(a)) for a, b in hits],  # (prompt, from the cache)
        "request_seconds": times,
        "completions": completions,
    }


def _tokens(server: _Server, item: dict[str, Any], reply: str) -> dict[str, int]:
    """Each call's prompt tokens and what it shares with the call before it, counted by
    the server's tokenizer over the messages' text (the chat template adds a few)."""
    from prin_guard import Guard
    from prin_guard._route._legs import shared_prefix
    from prin_guard.models import Polarity
    from prin_guard.tasks._review import rebuttal_turn

    guard = Guard(lambda prompt: "")
    direct, mirrored = (guard.messages(item, polarity) for polarity in Polarity)

    def count(messages: Any) -> int:
        return server.tokens("".join(m["content"] for m in messages))

    prefix = shared_prefix([direct, mirrored])
    head = [*direct[:-1], {"role": "user", "content": prefix.split(direct)[0]}] if prefix else []
    shared = count(head) if head else 0
    turn = rebuttal_turn(guard.validate(dict(item, rebuttal="no-evidence"))) or ""
    conversation = [*direct, {"role": "assistant", "content": reply}]
    return {
        "direct": count(direct),
        "mirrored": count(mirrored),
        "shared": shared,
        "rebuttal": count([*conversation, {"role": "user", "content": turn}]),
        "rebuttal_shared": count(conversation),
    }


def _billed(litellm: Any, provider: str, model: str, calls: list[tuple[int, ...]]) -> float:
    """``calls`` (prompt tokens, read from the provider's cache, written to it, completion
    tokens) at ``model``'s prices (writes billed by Anthropic only)."""
    return sum(
        _price(litellm, provider, model, prompt, completion, read=read, write=write)
        for prompt, read, write, completion in calls
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5000", help="paper sizes reviewed, in tokens")
    parser.add_argument(
        "--counted", default="5000,15000,30000", help="paper sizes counted and priced, in tokens"
    )
    parser.add_argument("--max-tokens", type=int, default=48, help="cap on each reply")
    parser.add_argument(
        "--priced-reply",
        type=int,
        default=400,
        help="tokens of each reply in the repricing (a review form with its reasoning: the "
        "recorded Qwen replies were 220-280 tokens, the AI Scientist's form asks for more)",
    )
    args = parser.parse_args(argv)
    import litellm

    from prin_guard import LiteLLMJudge

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    counted = [int(s) for s in args.counted.split(",") if s.strip()]
    measured: list[dict[str, Any]] = []
    priced: list[dict[str, Any]] = []
    context = max(sizes + counted) + 4096
    with _llama_server("--n_ctx", str(context)) as server:
        judge = LiteLLMJudge(
            "openai/smollm2",
            api_base=server.base,
            api_key="no-key",
            max_tokens=args.max_tokens,
            timeout=7200,
            prompt_cache=0,
        )
        for size in sizes:
            paper = paper_of(server, size, start=size // 1000)
            item = {"task": "review", "id": f"long-{size}", "document": paper}
            run = asyncio.run(_measure(server, judge, item))
            run.update(size=size, counts=_tokens(server, item, "x" * 4 * args.max_tokens))
            measured.append(run)
            print(json.dumps(run), file=sys.stderr, flush=True)
        for size in counted:
            paper = paper_of(server, size, start=size // 1000)
            item = {"task": "review", "id": f"long-{size}", "document": paper}
            counts = _tokens(server, item, "x" * 4 * args.priced_reply)
            priced.append({"size": size, "counts": counts})
            print(json.dumps(priced[-1]), file=sys.stderr, flush=True)
    rows = []
    for run in measured:
        requests = [f"{cached:,}/{prompt:,}" for prompt, cached in run["requests"]]
        times = run["request_seconds"]
        premium = (times[0] + times[1]) / times[0] if len(times) >= 2 and times[0] else None
        rows.append(
            [
                f"{run['size']:,}",
                f"{run['counts']['shared']:,}",
                "; ".join(requests),
                "; ".join(f"{t:.1f}" for t in times),
                f"{run['seconds']:.1f}",
                "—" if premium is None else f"{premium:.2f}×",
            ]
        )
    print("Measured on llama.cpp's server (the bundled model):\n")
    header = [
        "paper (tokens)",
        "legs share (tokens)",
        "cached / prompt: direct; mirrored; rebuttal",
        "seconds per request",
        "wall (s)",
        "server time, guarded / one review",
    ]
    print(md_table(header, rows))
    table = []
    completion = args.priced_reply
    for entry in priced:
        c = entry["counts"]
        # A hosted provider caches prompts, never a reply: the rebuttal's call reads the
        # direct call's prompt (which Anthropic's direct call writes whole, marked at the
        # end of the paper for the mirrored leg and at its own end for the rebuttal).
        one = [(c["direct"], 0, 0, completion)]
        at_once = [(c["direct"], 0, 0, completion), (c["mirrored"], 0, 0, completion)]
        staggered = [
            (c["direct"], 0, c["shared"], completion),
            (c["mirrored"], c["shared"], 0, completion),
        ]
        rebutted = [
            (c["direct"], 0, c["direct"], completion),
            (c["mirrored"], c["shared"], 0, completion),
            (c["rebuttal"], c["direct"], 0, completion),
        ]
        row = [f"{entry['size']:,}", f"{c['shared'] / c['mirrored']:.1%}"]
        for provider, model, _ in PRICED[:2]:
            base = _billed(litellm, provider, model, one)
            for calls in (at_once, staggered, rebutted):
                row.append(f"{_billed(litellm, provider, model, calls) / base:.2f}×")
        table.append(row)
    header = ["paper (tokens)", "mirrored prompt from the cache"]
    for _, _, described in PRICED[:2]:
        header += [
            f"{described}: guarded, legs at once",
            "guarded, staggered",
            "+ rebuttal, staggered",
        ]
    print(f"\nPremium (billed cost / one review's), {completion}-token replies:\n")
    print(md_table(header, table))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
