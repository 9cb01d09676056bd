"""Collect a real small judge's free-text replies to the guard's choice prompts (issue 38).

Not a test dependency: run by hand against an OpenAI-compatible server that serves the
judge (see SOURCES.md beside this file for the model, the server command and the date).
Each item is asked through the guard itself (``Guard(LiteLLMJudge(...))``, the bundled
choice templates, the direct and the reverse leg, with and without zero-shot CoT); a
wrapper around the judge records the exact messages each leg sent and what came back.
One JSON line per leg is appended to ``--out`` as soon as the item's verdict is in, so
an interrupted run keeps what it collected; items already in the file are skipped.

    python tests/data/replies/choice-freetext/collect.py \\
        --api-base http://127.0.0.1:8765/v1 --model qwen2.5-coder-1.5b-instruct-q4_k_m \\
        --out tests/data/replies/choice-freetext/qwen2.5-coder-1.5b.raw.jsonl

The readings a careful person gives (``expected``) are added afterwards, by hand.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import prin_guard
from prin_guard._prompting._prompts import Mitigation, build_prompt, get_template
from prin_guard.datasets import (
    LabeledItem,
    load_aqua_rat,
    load_mathqa,
    load_mmlu,
    sample_path,
)
from prin_guard.judges import JudgeResponse
from prin_guard.judges._base import Message
from prin_guard.models import Polarity

MMLU_SUBJECTS = (
    "college_biology",
    "high_school_physics",
    "astronomy",
    "nutrition",
    "high_school_geography",
    "computer_security",
    "machine_learning",
    "sociology",
    "conceptual_physics",
    "high_school_psychology",
    "global_facts",
    "virology",
)
TEMPLATES = ("v0", "v0", "v1", "v0", "v2", "v0")
"""The template of the n-th item of a condition: mostly the default (v0), some v1, v2."""


class Recording:
    """A judge that passes every call to ``judge`` and keeps the messages and the reply."""

    def __init__(self, judge: Any) -> None:
        self.judge = judge
        self.calls: list[tuple[list[Message], JudgeResponse]] = []

    def identity(self) -> Mapping[str, Any]:
        return dict(self.judge.identity())

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        response: JudgeResponse = await self.judge.complete(messages, labels=labels)
        self.calls.append(([dict(m) for m in messages], response))  # type: ignore[misc]
        return response


def items(dataset: str) -> Iterator[tuple[str, prin_guard.Item, tuple[str, ...]]]:
    """(dataset, item, gold) in the order they are asked: items from the middle of the
    shipped samples (not their first rows), short enough for a small model's context."""
    rows: Iterator[LabeledItem]
    if dataset == "mathqa":
        rows = itertools.islice(load_mathqa(sample_path("mathqa")), 100, None)
    elif dataset == "aqua-rat":
        rows = itertools.islice(load_aqua_rat(sample_path("aqua-rat")), 40, None)
    else:
        folder = sample_path("mmlu")
        rows = itertools.chain.from_iterable(
            itertools.islice(load_mmlu(folder / f"{subject}_test.csv"), 1, 2)
            for subject in MMLU_SUBJECTS
        )
    for row in rows:
        if len(row.item.question or "") <= 700:
            yield dataset, row.item, row.gold


def item_record(item: prin_guard.Item, gold: Sequence[str]) -> dict[str, Any]:
    return {
        "id": item.id,
        "question": item.question,
        "candidates": [{"label": c.label, "text": c.text} for c in item.candidates],
        "gold": list(gold),
    }


def legs(
    recording: Recording,
    item: prin_guard.Item,
    template: str,
    mitigations: tuple[Mitigation, ...],
) -> dict[str, tuple[list[Message], JudgeResponse]]:
    """The recorded call of each leg, told apart by the prompt the guard builds for it."""
    shown = get_template(template)
    found: dict[str, tuple[list[Message], JudgeResponse]] = {}
    for polarity in (Polarity.DIRECT, Polarity.REVERSE):
        prompt = build_prompt(item, polarity, shown, mitigations)
        matches = [call for call in recording.calls if call[0][-1]["content"] == prompt]
        if len(matches) != 1:
            raise RuntimeError(f"{item.id}: {len(matches)} recorded calls for the {polarity} leg")
        found[polarity.value] = matches[0]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--model", required=True, help="the served model's alias")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--items", type=int, default=6, help="items per dataset without CoT")
    parser.add_argument("--items-cot", type=int, default=4, help="items per dataset with CoT")
    parser.add_argument("--max-tokens", type=int, default=128, help="without CoT")
    parser.add_argument("--max-tokens-cot", type=int, default=224, help="with CoT")
    args = parser.parse_args()

    done = set()
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done.add((record["item"]["id"], tuple(record["mitigations"])))
    conditions = [(d, cot) for cot in (True, False) for d in ("mathqa", "aqua-rat", "mmlu")]
    queues = {
        (dataset, cot): list(
            itertools.islice(items(dataset), args.items_cot if cot else args.items)
        )
        for dataset, cot in conditions
    }
    # round robin over the conditions, so that a run cut short covers all of them
    order = [
        (condition, n, queues[condition][n])
        for n in range(max(args.items, args.items_cot))
        for condition in conditions
        if n < len(queues[condition])
    ]
    with args.out.open("a", encoding="utf-8") as out:
        for (dataset, cot), n, (_, item, gold) in order:
            mitigations = (Mitigation.COT,) if cot else ()
            if (item.id, tuple(m.value for m in mitigations)) in done:
                continue
            template = TEMPLATES[n % len(TEMPLATES)]
            sampling = {
                "temperature": 0.0,
                "max_tokens": args.max_tokens_cot if cot else args.max_tokens,
            }
            judge = prin_guard.LiteLLMJudge(
                f"openai/{args.model}",
                api_base=args.api_base,
                api_key="no-key",
                structured=False,
                timeout=1800.0,
                **sampling,
            )
            recording = Recording(judge)
            guard = prin_guard.Guard(
                recording, template=template, mitigations=mitigations, cache=None, concurrency=1
            )
            started = time.monotonic()
            verdict = guard.check(item)
            seconds = time.monotonic() - started
            for polarity, (messages, response) in legs(
                recording, item, template, mitigations
            ).items():
                usage = response.usage
                completion = usage.completion_tokens if usage is not None else None
                leg = verdict.direct if polarity == "direct" else verdict.reverse
                record = {
                    "dataset": dataset,
                    "item": item_record(item, gold),
                    "polarity": polarity,
                    "template": template,
                    "mitigations": [m.value for m in mitigations],
                    "messages": messages,
                    "reply": response.text,
                    "judge_model": args.model,
                    "sampling": sampling,
                    "completion_tokens": completion,
                    "prompt_tokens": usage.prompt_tokens if usage is not None else None,
                    "cut_at_limit": completion is not None and completion >= sampling["max_tokens"],
                    "guard_read_at_collection": {
                        "labels": list(leg.labels) if leg is not None else None,
                        "status": leg.parse_status.value if leg is not None else None,
                        "weak": leg.weak if leg is not None else None,
                        "polarity_confusion": leg.polarity_confusion if leg is not None else None,
                    },
                    "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            print(f"{dataset:8} cot={cot!s:5} {item.id:32} {template} {seconds:6.1f} s", flush=True)
            guard.close()


if __name__ == "__main__":
    main()
