"""14d. Record a real judge's ranking replies for replay (issue 40, item 7).

Takes a run of ``prin-guard eval oasst-rankings --ranking-modes one-pass,direct+reverse``
(its ``items.jsonl`` and ``summary.json``) and the items it judged (the same ``--path``,
``--seed`` and ``--limit``), and writes under ``--out``:

* ``replies.jsonl``: per item its id, question, context, responses in the order shown,
  the humans' ranking, and per leg (``direct``, ``reverse``) the template and its version,
  the SHA-256 of the conversation the judge was sent (its messages as JSON, keys sorted),
  the reply, how it was read and the ranking read;
* ``figures.json``: the run's figures per mode, and the run's judge, items, seed, command
  and wall time as given.

The conversations are rebuilt here by asking each item again through a guard with the
mode's options and a judge that answers from the run's replies (no model is called): what
the replay test (``tests/test_ranking_replay.py``) sends must hash the same.

    PYTHONPATH=. .venv/bin/python -m bench.ranking_replies --run /tmp/r1/run-oasst \\
        --path /tmp/r1/oasst-short.jsonl --limit 16 --out tests/data/rankings-qwen \\
        --model "..." --command "..." --wall-seconds 1234
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from prin_guard import Guard, GuardOptions
from prin_guard.eval._rankings import _mode_options, load_ranked
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message


def conversation_digest(messages: Sequence[Message]) -> str:
    """The SHA-256 of a conversation: its messages as JSON, keys sorted."""
    text = json.dumps([dict(m) for m in messages], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Answering:
    """Answers one item's legs from the run's replies and keeps each leg's digest."""

    def __init__(self, replies: Mapping[str, str | None]) -> None:
        self.replies = replies
        self.digests: dict[str, str] = {}

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "recorded", "name": "ranking-replies"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        last = messages[-1]["content"]
        polarity = "reverse" if "from the worst to the best" in last else "direct"
        if polarity in self.digests:
            raise RuntimeError(f"the {polarity} leg was asked twice")
        self.digests[polarity] = conversation_digest(messages)
        return JudgeResponse(text=self.replies[polarity])


def record(
    run: Path,
    path: Path,
    *,
    limit: int | None,
    seed: int,
    out: Path,
    meta: Mapping[str, Any],
) -> None:
    summary = json.loads((run / "summary.json").read_text())
    rows = {
        row["id"]: row for row in map(json.loads, (run / "items.jsonl").read_text().splitlines())
    }
    options = _mode_options(GuardOptions(), "direct+reverse", 1)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for ranked, item in load_ranked("oasst-rankings", path, seed=seed, limit=limit):
        verdict = rows[ranked.id]["configs"]["direct+reverse"]
        legs = {name: verdict[name] for name in ("direct", "reverse")}
        judge = _Answering({name: leg["raw_text"] for name, leg in legs.items()})
        guard = Guard(judge, options=options, cache="memory")
        try:
            again = guard.check(item)
        finally:
            guard.close()
        if again.ranking != (
            None if verdict["ranking"] is None else tuple(map(tuple, verdict["ranking"]))
        ):
            raise RuntimeError(f"{ranked.id}: the replies read again give another ranking")
        lines.append(
            {
                "id": ranked.id,
                "source_line": ranked.line,
                "question": ranked.question,
                "context": ranked.context,
                "candidates": [c.text for c in ranked.candidates],
                "gold": [list(tier) for tier in ranked.gold],
                "legs": {
                    name: {
                        "template": leg["template"],
                        "template_version": leg["template_version"],
                        "prompt_sha256": judge.digests[name],
                        "reply": leg["raw_text"],
                        "parse_status": leg["parse_status"],
                        "parse_method": leg["parse_method"],
                        "ranking": leg["ranking"],
                    }
                    for name, leg in legs.items()
                },
                "ranking": verdict["ranking"],
                "flags": verdict["flags"],
                "consistent": verdict["consistent"],
            }
        )
    with (out / "replies.jsonl").open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    figures = {**meta, "items": summary["items"], "sizes": summary["sizes"]}
    figures["modes"] = summary["modes"]
    (out / "figures.json").write_text(json.dumps(figures, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--path", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--wall-seconds", type=float, default=None)
    args = parser.parse_args(argv)
    meta = {
        "model": args.model,
        "seed": args.seed,
        "command": args.command,
        "wall_seconds": args.wall_seconds,
    }
    record(args.run, args.path, limit=args.limit, seed=args.seed, out=args.out, meta=meta)


if __name__ == "__main__":
    main()
