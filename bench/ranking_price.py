"""14b. What a guarded ranking costs: calls and the bill per item, for each mode, against
one pass (issue 40, item 10).

The guard is run, with a scripted judge, on real ranking items (OpenAssistant's replies,
SummEval's summaries with their article: ``../shared/data``), in each mode: one pass (the
direct leg alone), direct+reverse, permutations (both legs in 4 balanced orders),
adaptive stopping over the same 4 orders, best-of-n, and the pairwise tournament. Every
conversation the judge receives is recorded in the order and the wave it is sent in: the
legs of one order go staggered (the reverse leg once the direct one has begun: E1's
``stagger="auto"``), the orders of a mode at once, and adaptive stopping's orders after
the first two one at a time.

The bill of each call is priced from its prompt's tokens (characters / 4: no tokenizer is
fetched here; the ratios, not the counts, are what the table reports) under two provider
prompt caches:

* **Anthropic-like**: a prefix written by an earlier wave (or, within an order, by the
  direct leg) is read at 0.1x the input price; the first time a prefix is written costs
  1.25x; prefixes under 1,024 tokens are not cached;
* **OpenAI-like**: a cached prefix is read at 0.5x, in steps of 128 tokens from 1,024;
  writing is free.

A call reads the longest prefix it shares with a call sent in an earlier wave (in the same
order: its direct leg). The orders of the permutation mode go out at once, so they read
nothing from each other: only the reverse legs read (their order's direct leg). Output is
200 tokens a call at 4x the input price (about GPT-4o's and Claude Sonnet's ratios). Two
judges: a *consistent* one (ranks by content: two orders agree, adaptive stops after
two) and a *position-biased* one (ranks in the order shown: orders never agree, adaptive
asks all four).

    PYTHONPATH=. .venv/bin/python -m bench.ranking_price [--items N]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prin_guard import Guard
from prin_guard._route._options import GuardOptions

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
_SHOWN = re.compile(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End of Response", re.S)
_PAIR = re.compile(r"Response A:\n(`{3,})\n(.*?)\n\1\nResponse B:\n(`{3,})\n(.*?)\n\3", re.S)

OUTPUT_TOKENS = 200
OUTPUT_PRICE = 4.0
MODES = ("one-pass", "direct+reverse", "permutations", "adaptive", "best-of-n", "tournament")
ORDERS = 4


@dataclass(frozen=True)
class Provider:
    name: str
    read: float
    write: float
    minimum: int
    step: int


PROVIDERS = (
    Provider("Anthropic-like (read 0.1x, write 1.25x)", 0.1, 1.25, 1024, 1),
    Provider("OpenAI-like (read 0.5x)", 0.5, 1.0, 1024, 128),
)


def tokens(text: str) -> int:
    return max(1, len(text) // 4)


def prompt_text(messages: Sequence[dict[str, str]]) -> str:
    return "\n".join(f"<{m['role']}>{m['content']}" for m in messages)


def reply(prompt: str, biased: bool) -> str:
    shown = _SHOWN.findall(prompt)
    if shown:
        ordered = shown if biased else sorted(shown, key=lambda pair: -len(pair[1]))
        labels = [label for label, _ in ordered]
        if "decide which response is the best" in prompt:
            return f"Best: [[{labels[0]}]]"
        if "decide which response is the worst" in prompt:
            return f"Worst: [[{labels[-1]}]]"
        if "from the worst to the best" in prompt:
            return "Ranking from worst to best: " + ", ".join(reversed(labels))
        return "Ranking from best to worst: " + ", ".join(labels)
    pair = re.search(
        r"Response A:\n(`{3,})\n(.*?)\n\1\nResponse B:\n(`{3,})\n(.*?)\n\3", prompt, re.S
    )
    if pair is not None:
        first = biased or len(pair.group(2)) >= len(pair.group(4))
        better, worse = ("A", "B") if first else ("B", "A")
        return f"Answer: {worse if 'output the worse one' in prompt else better}"
    return "Answer: A"


class Recorder:
    """A judge that answers by ``reply`` and records each conversation it gets, in
    arrival order, with the wave it came in (calls arriving within one event-loop pass of
    each other: sent at once)."""

    def __init__(self, biased: bool) -> None:
        self.biased = biased
        self.calls: list[tuple[int, str]] = []
        self._wave = 0
        self._open = False

    async def complete(self, messages: Sequence[dict[str, str]], **_: Any) -> Any:
        from prin_guard.judges import JudgeResponse

        if not self._open:
            self._wave += 1
            self._open = True
            asyncio.get_running_loop().call_soon(self._close)
        text = prompt_text(messages)
        self.calls.append((self._wave, text))
        await asyncio.sleep(0)
        return JudgeResponse(text=reply(messages[-1]["content"], self.biased))

    def prefix_caching(self, messages: Any, prefix: Any) -> str:
        """Says its provider caches prefixes: the guard staggers each order's legs."""
        return "delay"

    def _close(self) -> None:
        self._open = False

    def identity(self) -> dict[str, str]:
        return {"kind": "recorder", "biased": str(self.biased)}


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def bill(calls: Sequence[tuple[int, str]], provider: Provider) -> float:
    """The calls' cost in input-token prices (see the module): each call's prompt, the
    prefix it shares with a call of an earlier wave read at ``read``, the rest fresh at
    1; the tokens another call reads paid ``write`` instead of 1 once, by the call that
    wrote them; each reply's output."""
    total = 0.0
    charged = [0] * len(calls)  # tokens of each call already paid as written
    for index, (wave, text) in enumerate(calls):
        shared, source = 0, None
        for other, (earlier, prompt) in enumerate(calls[:index]):
            if earlier < wave:
                common = tokens(text[: _common(text, prompt)])
                if common > shared:
                    shared, source = common, other
        if shared < provider.minimum:
            shared = 0
        shared -= shared % provider.step
        total += shared * provider.read + (tokens(text) - shared)
        if source is not None and shared > charged[source]:
            total += (shared - charged[source]) * (provider.write - 1)
            charged[source] = shared
        total += OUTPUT_TOKENS * OUTPUT_PRICE
    return total


def mode_options(mode: str) -> GuardOptions:
    base: dict[str, Any] = {"checks": ("reverse",), "ranking_orders": 1}
    if mode in ("permutations", "adaptive"):
        base.update(checks=("reverse", "order"), ranking_orders=ORDERS)
    if mode == "adaptive":
        base["ranking_adaptive"] = True
    if mode == "best-of-n":
        base["ranking_mode"] = "best"
    if mode == "tournament":
        base["ranking_tournament"] = True
    return GuardOptions.of(**base)


def run_mode(item: dict[str, Any], mode: str, biased: bool) -> list[tuple[int, str]]:
    judge = Recorder(biased)
    guard = Guard(judge, options=mode_options(mode), cache=None)
    try:
        guard.check(item)
    finally:
        guard.close()
    calls = judge.calls
    if mode == "one-pass":  # the direct leg alone
        calls = [call for call in calls if "from the best to the worst" in call[1]][:1]
    if mode == "tournament":  # the pairs only: its legs are the direct+reverse mode's
        calls = [call for call in calls if "[The Start of Response" not in call[1]]
    return calls


def load_items(count: int) -> list[tuple[str, dict[str, Any]]]:
    from prin_guard.eval._rankings import load_ranked

    out: list[tuple[str, dict[str, Any]]] = []
    oasst = load_ranked("oasst-rankings", SHARED / "rankings" / "oasst-rankings.jsonl")
    out += [("oasst", item) for ranked, item in oasst if len(ranked.candidates) == 4][:count]
    summeval = load_ranked(
        "summeval-rankings", SHARED / "ratings" / "summeval.jsonl", summaries=4, limit=count
    )
    out += [("summeval", item) for _, item in summeval]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10, help="items of each set (default 10)")
    args = parser.parse_args(argv)
    items = load_items(args.items)
    rows: dict[tuple[str, str, str], list[tuple[int, float, float]]] = {}
    sizes: dict[str, list[int]] = {}
    for (source, item), biased, mode in itertools.product(items, (False, True), MODES):
        calls = run_mode(item, mode, biased)
        one = run_mode(item, "one-pass", biased)
        if mode == "one-pass":
            sizes.setdefault(source, []).append(tokens(one[0][1]))
        judge = "position-biased" if biased else "consistent"
        rows.setdefault((source, judge, mode), []).append(
            (len(calls), *(bill(calls, p) / bill(one, p) for p in PROVIDERS))
        )
    print(
        "Prompt tokens of one leg (chars/4), mean: "
        + ", ".join(f"{s} {statistics.fmean(v):.0f}" for s, v in sizes.items())
    )
    header = ["set", "judge", "mode", "calls / item", *(p.name + " x one pass" for p in PROVIDERS)]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for (source, judge, mode), values in rows.items():
        calls = statistics.fmean(v[0] for v in values)
        bills = [statistics.fmean(v[1 + i] for v in values) for i in range(len(PROVIDERS))]
        print(
            f"| {source} | {judge} | {mode} | {calls:.1f} | "
            + " | ".join(f"{b:.2f}" for b in bills)
            + " |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
