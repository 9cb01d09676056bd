"""Collect a second round of a real small judge's free-text replies to multiple-choice items
(issue 38 follow-up, helper B, 2026-12-07).

Not a test dependency: run by hand against an OpenAI-compatible server that serves the judge
(see SOURCES.md beside this file). Each leg is one chat completion of one user message,
sent straight to the server's ``/v1/chat/completions`` (urllib, no retries, no cache), so
what is recorded is exactly what was sent and what came back. Two routes:

- ``guard``: the guard's own choice prompts (``prin_guard._prompting._prompts.build_prompt``:
  the text ``Guard`` sends as the one user message of a leg), templates v0/v1/v2, direct and
  reverse, with and without zero-shot CoT, with and without the paper's NEG_EXP mitigation;
- ``user``: plain user-style phrasings of the same question ("Which of these options are
  correct? Explain."), direct and reverse, with the options listed ``A) text`` per line.

Items: MathQA rows 150 on and AQuA-RAT rows 60 on of the samples in ``prin_guard/data``
(rows the first round did not ask), and MMLU test rows (``--mmlu``: the folder of the full
test CSVs, ``../shared/data/mmlu/data/test``), row 10 of a list of subjects. The order is a
round robin over (route, dataset), so a run cut short covers every condition. One JSON line
per leg is appended to ``--out`` as soon as it is back; legs already in the file are skipped.

    python tests/data/replies/choice-freetext/collect_round2.py \\
        --api-base http://127.0.0.1:8711/v1 --model qwen \\
        --mmlu /work/shared/data/mmlu/data/test --out /tmp/round2.raw.jsonl

The readings a careful person gives (``expected``) are added afterwards, by hand.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import prin_guard
from prin_guard._prompting._prompts import Mitigation, build_prompt, get_template
from prin_guard.datasets import LabeledItem, load_aqua_rat, load_mathqa, load_mmlu, sample_path
from prin_guard.models import Polarity

MMLU_SUBJECTS = (
    "high_school_biology",
    "college_chemistry",
    "anatomy",
    "marketing",
    "world_religions",
    "elementary_mathematics",
    "high_school_us_history",
    "philosophy",
    "medical_genetics",
    "management",
    "jurisprudence",
    "human_aging",
    "electrical_engineering",
    "logical_fallacies",
    "public_relations",
    "security_studies",
    "prehistory",
    "econometrics",
    "miscellaneous",
    "us_foreign_policy",
    "astronomy",
    "business_ethics",
    "clinical_knowledge",
    "college_physics",
    "computer_security",
    "high_school_geography",
    "high_school_psychology",
    "international_law",
    "moral_disputes",
    "nutrition",
    "sociology",
    "virology",
    "global_facts",
    "high_school_chemistry",
    "professional_medicine",
    "high_school_world_history",
)

# the guard's route: (template, mitigations), rotated over the items of a dataset
GUARD_CONDITIONS = (
    ("v0", ("cot",)),
    ("v1", ()),
    ("v0", ("cot", "neg_exp")),
    ("v2", ()),
    ("v0", ("neg_exp",)),
    ("v1", ("cot",)),
    ("v0", ()),
    ("v2", ("cot", "neg_exp")),
)

# the user's route: (direct, reverse) phrasings, rotated over the items of a dataset
USER_PHRASINGS = (
    (
        "Which of these options are correct? Explain.",
        "Which of these options are incorrect? Explain.",
    ),
    (
        "Which of the answer options are right? Give your reasoning.",
        "Which of the answer options are wrong? Give your reasoning.",
    ),
    (
        "Select all the correct options and briefly explain why.",
        "Select all the incorrect options and briefly explain why.",
    ),
    ("Which answers are correct?", "Which answers are incorrect?"),
    (
        "Go through the options and tell me which ones are true.",
        "Go through the options and tell me which ones are false.",
    ),
)


# the user's brief route: short answers asked for, (direct, reverse), rotated
BRIEF_PHRASINGS = (
    (
        "Which of these are correct? Answer briefly.",
        "Which of these are incorrect? Answer briefly.",
    ),
    (
        "Which option(s) are right? One sentence, please.",
        "Which option(s) are wrong? One sentence, please.",
    ),
    (
        "Name the correct answer(s) and say why in a few words.",
        "Name the incorrect answer(s) and say why in a few words.",
    ),
    ("Which ones are true? Keep it short.", "Which ones are false? Keep it short."),
    (
        "Which of the options would you mark as correct? Be concise.",
        "Which of the options would you mark as incorrect? Be concise.",
    ),
)


def items(dataset: str, mmlu: Path) -> Iterator[tuple[prin_guard.Item, tuple[str, ...]]]:
    rows: Iterator[LabeledItem]
    if dataset == "mathqa":
        rows = itertools.islice(load_mathqa(sample_path("mathqa")), 150, None)
    elif dataset == "aqua-rat":
        rows = itertools.islice(load_aqua_rat(sample_path("aqua-rat")), 60, None)
    else:
        rows = itertools.chain.from_iterable(
            itertools.islice(load_mmlu(mmlu / f"{subject}_test.csv"), 10, 11)
            for subject in MMLU_SUBJECTS
        )
    for row in rows:
        if len(row.item.question or "") <= 600:
            yield row.item, row.gold


def _long(route: str, n: int) -> bool:
    """Whether the ``n``-th round's leg of ``route`` is a long one (CoT or explained)."""
    if route == "guard":
        return "cot" in GUARD_CONDITIONS[n % len(GUARD_CONDITIONS)][1]
    return route == "user"


def user_prompt(item: prin_guard.Item, ask: str) -> str:
    options = "\n".join(f"{c.label}) {c.text}" for c in item.candidates)
    return f"{item.question}\n\n{options}\n\n{ask}"


def complete(api_base: str, model: str, content: str, max_tokens: int) -> dict[str, Any]:
    body = json.dumps(
        {
            "model": model,
            "messages": [{"role": "user", "content": content}],
            "temperature": 0.0,
            "max_tokens": max_tokens,
        }
    ).encode()
    request = urllib.request.Request(
        f"{api_base}/chat/completions", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=3600) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--mmlu", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--items", type=int, default=8, help="items per dataset and route")
    parser.add_argument("--max-tokens", type=int, default=64, help="guard legs without CoT")
    parser.add_argument("--max-tokens-long", type=int, default=300, help="CoT and user legs")
    parser.add_argument("--max-tokens-brief", type=int, default=150, help="brief user legs")
    parser.add_argument(
        "--fast", action="store_true", help="from round 3 on, long legs on MMLU items only"
    )
    args = parser.parse_args()

    done = set()
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done.add((record["route"], record["item"]["id"], record["polarity"]))
    datasets = ("mathqa", "aqua-rat", "mmlu")
    pools = {d: list(itertools.islice(items(d, args.mmlu), 3 * args.items)) for d in datasets}
    # each route its own items of a dataset (guard n*3, user n*3+1, brief n*3+2); the
    # short legs first in each round, the long explained ones every third round only,
    # the brief ones on math items in the first two rounds only
    routes = {"guard": 0, "user": 1, "brief": 2}
    order = [
        (route, dataset, n)
        for n in range(args.items)
        for route in ("brief", "guard", "user")
        if route != "user" or n % 3 == 0
        for dataset in datasets
        # asked to be brief, the judge still derives a math item at length, and is cut
        if route != "brief" or dataset == "mmlu" or n < 2
        # --fast: from round 3 on, the long legs (CoT, explained) on MMLU items only
        if not (args.fast and n >= 3 and dataset != "mmlu" and _long(route, n))
    ]
    with args.out.open("a", encoding="utf-8") as out:
        for route, dataset, n in order:
            pool = pools[dataset]
            at = 3 * n + routes[route]
            if at >= len(pool):
                continue
            item, gold = pool[at]
            for polarity in (Polarity.DIRECT, Polarity.REVERSE):
                if (route, item.id, polarity.value) in done:
                    continue
                if route == "guard":
                    template, mitigations = GUARD_CONDITIONS[n % len(GUARD_CONDITIONS)]
                    content = build_prompt(
                        item,
                        polarity,
                        get_template(template),
                        tuple(Mitigation(m) for m in mitigations),
                    )
                    long = "cot" in mitigations
                    phrasing = None
                else:
                    template, mitigations = None, ()
                    phrasings = USER_PHRASINGS if route == "user" else BRIEF_PHRASINGS
                    phrasing = phrasings[n % len(phrasings)][polarity is Polarity.REVERSE]
                    content = user_prompt(item, phrasing)
                    long = route == "user"
                max_tokens = (
                    args.max_tokens_long
                    if long
                    else args.max_tokens_brief
                    if route == "brief"
                    else args.max_tokens
                )
                started = time.monotonic()
                reply = complete(args.api_base, args.model, content, max_tokens)
                seconds = time.monotonic() - started
                usage = reply.get("usage") or {}
                choice = reply["choices"][0]
                record = {
                    "route": route,
                    "dataset": dataset,
                    "item": {
                        "id": item.id,
                        "question": item.question,
                        "candidates": [{"label": c.label, "text": c.text} for c in item.candidates],
                        "gold": list(gold),
                    },
                    "polarity": polarity.value,
                    "template": template,
                    "mitigations": list(mitigations),
                    "phrasing": phrasing,
                    "messages": [{"role": "user", "content": content}],
                    "reply": choice["message"]["content"],
                    "finish_reason": choice.get("finish_reason"),
                    "sampling": {"temperature": 0.0, "max_tokens": max_tokens},
                    "completion_tokens": usage.get("completion_tokens"),
                    "prompt_tokens": usage.get("prompt_tokens"),
                    "cut_at_limit": choice.get("finish_reason") == "length",
                    "seconds": round(seconds, 1),
                    "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                out.flush()
                print(
                    f"{route:5} {dataset:8} {item.id:28} {polarity.value:7} "
                    f"{usage.get('completion_tokens')!s:>4} tok {seconds:6.1f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
