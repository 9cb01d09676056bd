"""Write mmlu-pro-recorded.jsonl: real CoT replies of GPT-4o and DeepSeek-Chat to MMLU-Pro
questions, as TIGER-AI-Lab/MMLU-Pro committed them (Apache-2.0), with the reading a
careful person gives each (chosen and read by hand: ``SELECTED`` below).

Not a test dependency. Run against a local clone (or a fetched snapshot's git directory)
of https://github.com/TIGER-AI-Lab/MMLU-Pro:

    python tests/data/replies/choice-freetext/extract_mmlu_pro.py /path/to/MMLU-Pro/.git
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

REPO = "TIGER-AI-Lab/MMLU-Pro"
COMMIT = "ff991b5b7f14a383fd41da3987447ab6c08bf138"
"""'upload results' (2024-05-20): the gpt4o/ and deepseek/ result files (removed later)."""
MODELS = {"gpt4o": "gpt-4o", "deepseek": "deepseek-chat"}
"""Folder -> the model the run script at that commit names (run_gpt4o.py, run_deepseek.py)."""
PROMPT_NOTE = (
    "run_<model>.py at this commit: system 'You are an knowledge expert, you are supposed to "
    "answer the multi-choice question to derive your final answer as `The answer is ...`.'; "
    "user: 5 worked examples of the category (MMLU-Pro validation CoT), then 'Question: ... "
    "Options: A. ... J. ... Answer: Let think step by step.'; temperature 0.1, stop "
    "'Question:'. Their parser: re.search(r'answer is \\(?([ABCDEFGHIJ])\\)?') -> pred "
    "(None when it does not match)."
)

# (folder, category, index in the file's JSON list): (expected labels or None, note).
# [] = the reply concludes that no option is correct; None = a careful reader cannot say
# which option the reply chooses.
SELECTED: dict[tuple[str, str, int], tuple[list[str] | None, str]] = {
    ("gpt4o", "law", 1): (["B"], "ends 'The answer is **(B) Yes, because ...**' (bold)"),
    ("gpt4o", "law", 4): (["E"], "ends 'The answer is **E. guilty of manslaughter**.'"),
    ("gpt4o", "law", 29): (["H"], "ends 'The answer is: **H. He can be convicted ...**'"),
    ("gpt4o", "math", 4): (["B"], "ends 'The answer is \\( B \\).' (LaTeX inline)"),
    ("gpt4o", "math", 62): (
        [],
        "computes 720, not an option; ends 'The answer is not listed among the provided options.'",
    ),
    ("gpt4o", "psychology", 15): (["D"], "ends 'The answer is **D. Working**.'"),
    ("gpt4o", "psychology", 18): (["E"], "ends 'The answer is \\( E. 0.39 \\).'"),
    ("gpt4o", "history", 7): (["B"], "ends 'The answer is **B. both humans and ...**.'"),
    ("gpt4o", "history", 19): (
        ["C"],
        "reviews every option with its letter; 'The answer is **C**.'",
    ),
    ("gpt4o", "health", 16): (["A"], "ends 'The answer is **A. Parkinson's**.'"),
    ("gpt4o", "health", 36): (["C"], "ends 'The answer is **C. the neck was treated ...**.'"),
    ("gpt4o", "other", 2): (
        ["C"],
        "ends 'The answer is **C. Consider the public perception ...**'",
    ),
    ("gpt4o", "biology", 3): (
        ["A"],
        "ends 'The answer is **A**.' (the gold is I; the reply's answer is A)",
    ),
    ("gpt4o", "biology", 0): (
        ["B"],
        "'Thus, (A) is unlikely ... (B) is likely ...'; 'The answer is (B).'",
    ),
    ("gpt4o", "biology", 5): (
        ["A"],
        "the question asks which statement is NOT correct; the reply calls A incorrect and B-D "
        "correct, and answers 'The answer is A.': A is its answer to the question asked",
    ),
    ("gpt4o", "philosophy", 0): (
        ["A"],
        "lists every option, then 'corresponds to option A. The answer is A.'",
    ),
    ("gpt4o", "philosophy", 12): (
        ["G"],
        "ends 'The answer is **G: developing a global regulatory body ...**.'",
    ),
    ("gpt4o", "chemistry", 6): (
        ["A"],
        "ends 'The answer is **(A) The endpoint would be before ...**.'",
    ),
    ("gpt4o", "chemistry", 1): (
        ["D"],
        "per-option analysis with 'exceeds an octet'; 'The answer is (D).'",
    ),
    ("gpt4o", "economics", 0): (
        ["G"],
        "one line per option A-H with its classification; 'The answer is G.'",
    ),
    ("deepseek", "chemistry", 0): (
        ["C"],
        "ends 'most likely contains covalent network bonding (C).'; no 'answer is'",
    ),
    ("deepseek", "chemistry", 4): (
        ["E"],
        "'This corresponds to option (E).' after the equation; no 'answer is'",
    ),
    ("deepseek", "chemistry", 1): (["D"], "'The answer is (D) NH4+, as it has an octet ...'"),
    ("deepseek", "engineering", 0): (
        ["G"],
        "hedged: computes 24 lamps (not an option), 'Assuming the options are correct, the closest "
        "answer would be (G) 9 lamps, but this is not the exact answer'",
    ),
    ("deepseek", "engineering", 5): (
        ["A"],
        "no option matches its numbers; 'the closest match ... is: ...' then '**Answer: (A)**'",
    ),
    ("deepseek", "psychology", 1): (
        ["B"],
        "'the best course of action would be:\\n\\nB. Ignore your personal feelings ...'",
    ),
    ("deepseek", "psychology", 0): (["D"], "one paragraph; 'The answer is (D).'"),
    ("deepseek", "biology", 6): (
        ["F"],
        "'Therefore, the most accurate description is (F) an overarching explanation ...'",
    ),
    ("deepseek", "biology", 26): (
        None,
        "computes 9.09%, 'not listed among the options ... Please double-check the question': "
        "chooses no option and does not say that none is correct",
    ),
    ("deepseek", "biology", 0): (["B"], "one line per option; 'The answer is (B).'"),
    ("deepseek", "history", 3): (
        ["I"],
        "hedged: 'The answer is not directly listed in the options, but the closest match "
        "would be (I) ...'",
    ),
    ("deepseek", "history", 11): (
        ["F"],
        "hedged: 'none of the options directly align ... However, option F is the closest "
        "... would be:\\n\\nF. ...'",
    ),
    ("deepseek", "philosophy", 7): (
        ["J"],
        "'Therefore, the conclusion of the argument is:\\n\\nJ. It is wrong ...'",
    ),
    ("deepseek", "philosophy", 0): (
        ["A"],
        '\'The answer "Tdc" appears in (A); therefore, (A) must be the correct answer. '
        "The answer is (A).'",
    ),
    ("deepseek", "math", 6): (
        ["F"],
        "names F, D and E as the three group conditions, then 'Therefore, the correct "
        "statement is (F).'",
    ),
    ("deepseek", "math", 19): (
        [],
        "one line per option, each '(not equivalent to 6/9)' (B 8/12 = 2/3 wrongly so); "
        "ends 'None of the given ratios form a proportion with 6/9.'",
    ),
    ("deepseek", "math", 1): (["C"], "'The answer is (C) True, False.'"),
    ("deepseek", "law", 22): (
        ["H"],
        "'the man can likely be convicted of criminal mischief (H) ... However, the conviction for "
        "larceny (E) is less clear'",
    ),
    ("deepseek", "law", 0): (["D"], "'The answer is (D).'"),
    ("deepseek", "health", 26): (
        ["D"],
        "'the most likely diagnosis is:\\n\\nD. Aortic dissection' then a justification",
    ),
}


def result_file(git_dir: Path, folder: str, category: str) -> list[dict[str, Any]]:
    path = f"eval_results/{folder}/{category}_result.json"
    shown = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{COMMIT}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    )
    records: list[dict[str, Any]] = json.loads(shown.stdout)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).with_name("mmlu-pro-recorded.jsonl")
    )
    args = parser.parse_args()
    files: dict[tuple[str, str], list[dict[str, Any]]] = {}
    lines = []
    for n, ((folder, category, index), (expected, note)) in enumerate(SELECTED.items(), 1):
        rows = files.setdefault((folder, category), result_file(args.git_dir, folder, category))
        row = rows[index]
        labels = "ABCDEFGHIJ"[: len(row["options"])]
        record = {
            "id": f"mmlu-pro-{folder}:{n}",
            "source": f"mmlu-pro-{folder}",
            "dataset": "mmlu-pro",
            "item": {
                "id": f"mmlu-pro-{row['question_id']}",
                "question": row["question"],
                "candidates": [
                    {"label": label, "text": text}
                    for label, text in zip(labels, row["options"], strict=True)
                ],
                "gold": [row["answer"]],
            },
            "polarity": "direct",
            "template": None,
            "mitigations": [],
            "reply": row["response"],
            "judge_model": MODELS[folder],
            "expected": expected,
            "note": note,
            "provenance": {
                "repo": REPO,
                "commit": COMMIT,
                "path": f"eval_results/{folder}/{category}_result.json",
                "record": f"index {index} of the JSON list (question_id {row['question_id']})",
                "licence": "Apache-2.0",
                "recorded_pred": row["pred"],
                "prompt": PROMPT_NOTE,
            },
        }
        lines.append(json.dumps(record, ensure_ascii=False))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} records -> {args.out}")


if __name__ == "__main__":
    main()
