"""Collect a third round of a real small judge's free-text replies to multiple-choice items
(issue 38, helper Q3, 2026-12-07): items no earlier round asked, read by hand blind (without
looking at what the reader reads), as a fresh untuned measure of the reader.

Not a test dependency: run by hand against an OpenAI-compatible server that serves the judge
(see SOURCES.md beside this file). Each leg is one chat completion of one user message,
sent straight to the server's ``/v1/chat/completions`` (urllib, no retries, no cache), so
what is recorded is exactly what was sent and what came back. The routes of the second
round (``collect_round2.py``):

- ``guard``: the guard's own choice prompts (``prin_guard._prompting._prompts.build_prompt``:
  the text ``Guard`` sends as the one user message of a leg), templates v0/v1/v2, direct and
  reverse, with and without zero-shot CoT, with and without the paper's NEG_EXP mitigation;
- ``user``: plain user-style phrasings of the same question ("Which of these options are
  correct? Explain."), direct and reverse, with the options listed ``A) text`` per line;
- ``brief``: the same, asking for a short answer ("Which of these are correct? Answer
  briefly.").

Items (rows neither earlier round asked): MathQA rows 170 on and AQuA-RAT rows 75 on of the
samples in ``prin_guard/data`` (the first round asked MathQA rows 100-106 and AQuA-RAT rows
40-46, the second MathQA rows 150-159 and AQuA-RAT rows 60-69), and MMLU test row 20 of the
17 subjects neither earlier round used (``--mmlu``: the folder of the full test CSVs,
``../shared/data/mmlu/data/test``). Each round of the plan asks the guard route on one item
of each dataset and the user and brief routes on one item each (datasets rotated): 10 legs
a round, 6 rounds, 60 legs. One JSON line per leg is appended to ``--out`` as soon as it is
back; legs already in the file are skipped. Nothing here calls the reader.

    python tests/data/replies/choice-freetext/collect_round3.py \\
        --api-base http://127.0.0.1:8711/v1 --model qwen \\
        --mmlu /work/shared/data/mmlu/data/test --out /tmp/round3.raw.jsonl

The readings a careful person gives (``expected``) are added afterwards, by hand
(``annotate_round3.py``).
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

# the MMLU subjects neither the first round (collect.MMLU_SUBJECTS) nor the second
# (collect_round2.MMLU_SUBJECTS) used, sciences and humanities interleaved
MMLU_SUBJECTS = (
    "high_school_macroeconomics",
    "college_medicine",
    "formal_logic",
    "high_school_computer_science",
    "human_sexuality",
    "high_school_government_and_politics",
    "professional_psychology",
    "high_school_statistics",
    "high_school_microeconomics",
    "abstract_algebra",
    "professional_accounting",
    "college_computer_science",
    "moral_scenarios",
    "high_school_mathematics",
    "high_school_european_history",
    "college_mathematics",
    "professional_law",
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
    # new in the third round
    (
        "Which of the options above are correct, and why?",
        "Which of the options above are not correct, and why?",
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
    # new in the third round
    ("Correct option(s)? Short answer.", "Incorrect option(s)? Short answer."),
)


def items(dataset: str, mmlu: Path) -> Iterator[tuple[prin_guard.Item, tuple[str, ...]]]:
    rows: Iterator[LabeledItem]
    if dataset == "mathqa":
        rows = itertools.islice(load_mathqa(sample_path("mathqa")), 170, None)
    elif dataset == "aqua-rat":
        rows = itertools.islice(load_aqua_rat(sample_path("aqua-rat")), 75, None)
    else:
        rows = itertools.chain.from_iterable(
            itertools.islice(load_mmlu(mmlu / f"{subject}_test.csv"), 20, 21)
            for subject in MMLU_SUBJECTS
        )
    for row in rows:
        if len(row.item.question or "") <= 600:
            yield row.item, row.gold


DATASETS = ("mathqa", "aqua-rat", "mmlu")
USER_DATASETS = ("mmlu", "aqua-rat", "mathqa")
BRIEF_DATASETS = ("mathqa", "mmlu", "aqua-rat")


def plan(rounds: int) -> list[tuple[str, str, int, int]]:
    """(route, dataset, condition or phrasing index, index of the item in its dataset's
    pool), in the order asked: per round the brief leg, the guard route on each dataset,
    then the explained user leg; each leg takes the next item of its dataset."""
    taken = dict.fromkeys(DATASETS, 0)
    legs = []
    for n in range(rounds):
        steps = [("brief", BRIEF_DATASETS[n % 3], n % len(BRIEF_PHRASINGS))]
        steps += [
            ("guard", dataset, (3 * n + d) % len(GUARD_CONDITIONS))
            for d, dataset in enumerate(DATASETS)
        ]
        steps.append(("user", USER_DATASETS[n % 3], n % len(USER_PHRASINGS)))
        for route, dataset, k in steps:
            legs.append((route, dataset, k, taken[dataset]))
            taken[dataset] += 1
    return legs


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
    parser.add_argument("--rounds", type=int, default=6, help="rounds of 10 legs")
    parser.add_argument("--max-tokens", type=int, default=64, help="guard legs without CoT")
    parser.add_argument("--max-tokens-long", type=int, default=300, help="CoT and user legs")
    parser.add_argument("--max-tokens-brief", type=int, default=150, help="brief user legs")
    parser.add_argument(
        "--stop-at",
        type=float,
        default=float("inf"),
        help="a Unix time: ask no leg after it (the legs back are kept)",
    )
    args = parser.parse_args()

    done = set()
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done.add((record["route"], record["item"]["id"], record["polarity"]))
    legs = plan(args.rounds)
    need = {d: 1 + max(at for _, dd, _, at in legs if dd == d) for d in DATASETS}
    pools = {d: list(itertools.islice(items(d, args.mmlu), need[d])) for d in DATASETS}
    with args.out.open("a", encoding="utf-8") as out:
        for route, dataset, k, at in legs:
            if time.time() > args.stop_at:
                print("stop time reached", flush=True)
                return
            pool = pools[dataset]
            if at >= len(pool):
                continue
            item, gold = pool[at]
            for polarity in (Polarity.DIRECT, Polarity.REVERSE):
                if (route, item.id, polarity.value) in done:
                    continue
                if route == "guard":
                    template, mitigations = GUARD_CONDITIONS[k]
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
                    phrasing = phrasings[k][polarity is Polarity.REVERSE]
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
