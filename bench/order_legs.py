"""Does a pair's order check need four legs? Three (direct, reverse, and the direct question
in the swapped order) against four (the reverse question swapped too), on LLMBar Natural.

The order check flags a verdict ``order_sensitive`` when a leg and its twin asked with the
candidates swapped disagree: the direct pair, and with four legs the reverse pair too
(``prin_guard._route._decide.assess``). Three legs (``checks="reverse,swap"``) compare the direct
pair only. The three-leg verdicts are made from the four-leg verdicts' cached legs (a
subset, with the same cache keys; the run stops if a judge is asked again), so the
comparison is paired: a verdict flagged by four legs and not by
three is one whose direct answers agree across orders and whose reverse answers do not.

Judges:

- ``replay``: the recorded LLMBar replies of five real judges (GPT-4, ChatGPT, PaLM 2,
  LLaMA-2-70B-chat, Falcon-180B-chat; ``../shared/data/llmbar/natural-recorded-judges.jsonl``),
  each asked "which is better" in both orders. The direct legs replay the recorded pick in
  the order shown; the reverse question was never asked of them, so the reverse legs answer
  the other response (a consistent reverse, as ``tests/test_calibrate_recorded.py`` does).
  Here the fourth leg cannot add a flag by construction: what this measures is the flag's
  lift for real judges' position bias, which three legs see whole.
- ``openai/<name> --api-base URL``: a served model answering all four legs itself (real
  reverse legs), e.g. the bundled SmolLM2 on llama.cpp's server.

For each design: the share of verdicts flagged, the error rate of the verdict (the winner
against LLMBar's human label; a tie or no winner is an error) among flagged and unflagged
verdicts, and the lift (their ratio).

    .venv/bin/python -m bench.order_legs replay
    .venv/bin/python -m bench.order_legs openai/smollm2 \
        --api-base http://127.0.0.1:8000/v1 --limit 40
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench._common import ROOT

SHARED = ROOT.parent / "shared" / "data" / "llmbar"
JUDGES = ("GPT-4", "ChatGPT", "PaLM2", "LLaMA2", "Falcon")


def _rows() -> list[dict[str, Any]]:
    path = SHARED / "natural.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _replay(name: str, rows: Sequence[dict[str, Any]]) -> Any:
    from prin_guard.judges import ScriptedJudge

    by_instruction = {row["instruction"].strip(): row for row in rows}
    picked: dict[tuple[str, str], str] = {}
    for line in (SHARED / "natural-recorded-judges.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["judge"] == name:
            picked[(row["id"], row["shown_order"])] = row["winner"]

    def reply(prompt: str) -> str:
        instruction = re.search(r"Given this instruction\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        first = re.search(r"Response A:\n(`{3,})\n(.*?)\n\1", prompt, re.S)
        assert instruction is not None
        assert first is not None
        pair = by_instruction[instruction.group(2).strip()]
        order = "1-2" if first.group(2).strip() == pair["output_1"].strip() else "2-1"
        winner = picked.get((pair["id"], order))
        if winner is None:
            return "I cannot tell."
        better = "A" if winner == order[0] else "B"
        worse = "B" if better == "A" else "A"
        return f"Answer: {worse if 'please output the worse one.' in prompt else better}"

    return ScriptedJudge(fn=reply, name=f"{name}-recorded")


def _items(rows: Sequence[dict[str, Any]]) -> list[Any]:
    from prin_guard import Item

    return [
        Item(
            task="pairwise",
            question=row["instruction"],
            candidates=[row["output_1"], row["output_2"]],
            id=row["id"],
        )
        for row in rows
    ]


def measure(judge: Any, rows: Sequence[dict[str, Any]], concurrency: int = 4) -> dict[str, Any]:
    """Both designs' flags on the same verdicts (four legs each), with their error rates."""
    from prin_guard import Flag, Guard, MemoryCache

    # the four legs asked once; the three-leg verdicts (checks swap) from the same cache
    cache = MemoryCache()
    items = _items(rows)
    four = Guard(judge, checks="reverse,order", cache=cache, concurrency=concurrency)
    three = Guard(judge, checks="reverse,swap", cache=cache, concurrency=concurrency)
    verdicts = {"4 legs": four.check_many(items), "3 legs": three.check_many(items)}
    if not all(v.cached for v in verdicts["3 legs"]):
        raise RuntimeError("the three-leg verdicts asked the judge again")
    out: dict[str, Any] = {"verdicts": len(items)}
    flagged: dict[str, list[bool]] = {
        design: [Flag.ORDER_SENSITIVE in v.flags for v in made] for design, made in verdicts.items()
    }
    wrong: list[bool] = []
    for row, verdict in zip(rows, verdicts["4 legs"], strict=True):
        gold = "A" if int(row["label"]) == 1 else "B"
        wrong.append(verdict.winner != gold)  # the same winner with three legs
    for design, flags in flagged.items():
        on = [w for w, f in zip(wrong, flags, strict=True) if f]
        off = [w for w, f in zip(wrong, flags, strict=True) if not f]
        rate_on = sum(on) / len(on) if on else None
        rate_off = sum(off) / len(off) if off else None
        out[design] = {
            "flagged": len(on),
            "share_flagged": len(on) / len(flags) if flags else None,
            "error_rate_flagged": rate_on,
            "error_rate_unflagged": rate_off,
            "lift": rate_on / rate_off if rate_on is not None and rate_off else None,
        }
    out["only_4_legs_flag"] = sum(a and not b for a, b in zip(*flagged.values(), strict=True))
    out["error_rate"] = sum(wrong) / len(wrong) if wrong else None
    return out


def _line(name: str, result: dict[str, Any]) -> str:
    def pct(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    cells = []
    for design in ("4 legs", "3 legs"):
        d = result[design]
        lift = "–" if d["lift"] is None else f"{d['lift']:.2f}×"
        cells += [
            f"{d['flagged']} ({pct(d['share_flagged'])})",
            pct(d["error_rate_flagged"]),
            pct(d["error_rate_unflagged"]),
            lift,
        ]
    return (
        f"| {name} | {result['verdicts']} | {pct(result['error_rate'])} | "
        + " | ".join(cells)
        + f" | {result['only_4_legs_flag']} |"
    )


HEADER = (
    "| judge | verdicts | error rate | 4 legs: flagged | error flagged | error unflagged | "
    "lift | 3 legs: flagged | error flagged | error unflagged | lift | flagged by 4 only |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("judge", help="replay, or a litellm model string")
    parser.add_argument("--api-base", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args(argv)
    rows = _rows()[: args.limit]
    print(HEADER)
    if args.judge == "replay":
        for name in JUDGES:
            print(_line(f"{name} (recorded)", measure(_replay(name, rows), rows)), flush=True)
        return 0
    from prin_guard import LiteLLMJudge

    judge = LiteLLMJudge(
        args.judge,
        api_base=args.api_base,
        api_key="no-key" if args.api_base else None,
        max_tokens=args.max_tokens,
        timeout=args.timeout,
    )
    print(_line(args.judge, measure(judge, rows, args.concurrency)), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
