"""How the 160 MMLU-Pro replies were chosen: per model, seeded with ``'real-b:' + model``,
from the unzipped ``eval_results/model_outputs_<model>_5shots.zip`` of TIGER-AI-Lab/MMLU-Pro
(``<dir>/<model>/model_outputs_<model>_5shots.json``). Replies of 60 to 2,200 characters;
8 the repository's parser left without a prediction and that do not end in 'answer is (X)',
6 it read that do not end so, 3 on NOT / EXCEPT / LEAST questions, 3 that end so. Writes
model -> question ids as JSON (the ids ``extract_mmlu_pro_models.READINGS`` reads, in order).

Not a test dependency:

    python tests/data/replies/choice-real-b/select_mmlu_pro.py <dir> > selection.json
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

MODELS = (
    "Llama-2-7b-hf",
    "Mistral-7B-Instruct-v0.1",
    "Phi-3-mini-4k-instruct",
    "Qwen1.5-7B-Chat",
    "Yi-6b-Chat",
    "gemma-7b",
    "c4ai-command-r-v01",
    "gemini-1.5-flash-002",
)
FIXED_FORM = re.compile(r"answer is \(?[A-J]\)?\.?\s*$")
NEGATED = re.compile(r"\b(NOT|EXCEPT|LEAST)\b")


def reply(row: dict[str, Any]) -> str:
    return str(row.get("generated_text") or row.get("model_outputs") or "")


def fixed(row: dict[str, Any]) -> bool:
    return FIXED_FORM.search(reply(row).strip()) is not None


def negated(row: dict[str, Any]) -> bool:
    return NEGATED.search(row["question"]) is not None


def choose(rows: list[dict[str, Any]], seed: str) -> list[str]:
    rng = random.Random(seed)
    fit = [r for r in rows if 60 <= len(reply(r)) <= 2200]
    unread = [r for r in fit if not fixed(r) and r["pred"] in (None, "") and not negated(r)]
    read = [r for r in fit if not fixed(r) and r["pred"] not in (None, "") and not negated(r)]
    pools = [
        (unread, 8),
        (read, 6),
        ([r for r in fit if negated(r)], 3),
        ([r for r in fit if fixed(r) and not negated(r)], 3),
    ]
    chosen: list[dict[str, Any]] = []
    for pool, n in pools:
        taken = {c["question_id"] for c in chosen}
        left = [r for r in pool if r["question_id"] not in taken]
        chosen += rng.sample(left, min(n, len(left)))
    return [c["question_id"] for c in chosen]


def main() -> None:
    folder = Path(sys.argv[1])
    selection = {}
    for model in MODELS:
        path = folder / model / f"model_outputs_{model}_5shots.json"
        selection[model] = choose(json.loads(path.read_text(encoding="utf-8")), "real-b:" + model)
    json.dump(selection, sys.stdout, indent=0)


if __name__ == "__main__":
    main()
