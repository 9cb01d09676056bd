# ruff: noqa: E501 (the readings are data, one a line)
"""Write bbh-code-davinci-002.jsonl: real chain-of-thought replies of code-davinci-002 to
BIG-Bench Hard multiple-choice tasks, as suzgunmirac/BIG-Bench-Hard committed them (MIT),
each with the reading a careful person gives it (``READINGS``, written by hand from the whole
reply before the reader was run on any of them).

Not a test dependency. Run against a fetched snapshot's git directory (or a clone) of
https://github.com/suzgunmirac/BIG-Bench-Hard:

    python tests/data/replies/choice-real-b/extract_bbh.py /path/to/BIG-Bench-Hard/.git

Chosen (seeded, ``random.Random('real-b:bbh')``) per task: replies that do not end in the
few-shot form 'So the answer is (X).' (6 for hyperbaton, ruin_names, snarks,
logical_deduction_seven_objects, geometric_shapes; 2 for the others, fewer where fewer
exist), and one or two that do.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = "suzgunmirac/BIG-Bench-Hard"
COMMIT = "9ee07bd481feebf959a6b59d61ea57bdcf30964d"
FOLDER = "code-davinci-002-outputs/code-davinci-002-cot"
PROMPT_NOTE = (
    "the task's three-shot chain-of-thought prompt (cot-prompts/<task>.txt): a task description, "
    "three worked 'Q: ... Options: (A) ... A: Let's think step by step. ... So the answer is (X).' "
    "examples, then the question and 'A: Let's think step by step.'; code-davinci-002, greedy."
)

# task#index|expected|note. expected: labels, [] (no option qualifies) or null (cannot tell).
READINGS = r"""
date_understanding#105|null|counts eggs day by day, cut at 'June 4'; no conclusion
date_understanding#83|B|'The date yesterday is June 17, 2017, that is 06/17/2017. So the answer is (B).'
disambiguation_qa#32|A|'the answer should be the visitor. So the answer is (A).'
geometric_shapes#24|null|wrongly treats the path as four-sided, computes side lengths, cut at side G
geometric_shapes#42|null|the same three sentences (circle or sector, is it closed?) loop until cut
geometric_shapes#195|null|side lengths, 'this polygon has two pairs of equal-length adjacent sides', cut before naming a shape
geometric_shapes#117|null|side lengths A-G, cut mid-formula
geometric_shapes#50|null|side lengths A-F, cut mid-formula
geometric_shapes#106|H|kite or rectangle; 'is not \"kite\". So, the answer is (H).'
geometric_shapes#236|F|'\"octagon\" is the only eight-sided object on the list. So the answer is (F).'
hyperbaton#218|A,B|both orderings called correct (A's wrongly); 'So the answer is (A) and (B).'
hyperbaton#139|A,B|'(A) has the correct ordering', '(B) has the correct ordering', 'So the answer is (A) or (B).'
hyperbaton#100|A,B|both called correct; 'So the answer is (A) and (B).'
hyperbaton#68|A,B|both called correct; 'So the answer is (A) or (B).'
hyperbaton#143|A,B|both called correct; 'So the answer is (A) and (B).'
hyperbaton#13|A,B|both called correct; 'So the answer is (A) and (B).'
hyperbaton#189|A|'(B) does not have the correct ordering. So the answer is (A).'
hyperbaton#106|A|'(B) does not have the correct ordering. So the answer is (A).'
logical_deduction_five_objects#51|E|'The green book is the second from the left. So the answer is (E).'
logical_deduction_seven_objects#213|E|'the second-cheapest fruit is the kiwis.' then cut at 'The kiwis are the': its ordering names E's content; no label given
logical_deduction_seven_objects#65|C|'the third-most expensive fruit is the mangoes.' then cut at 'The mangoes are the third-': names C's content; no label given
logical_deduction_seven_objects#117|E|'the third-cheapest fruit is the kiwis.' then cut at 'The kiwis are the': names E's content; no label given
logical_deduction_seven_objects#193|null|degenerates into '? ? ? ...' until cut
logical_deduction_seven_objects#98|F|'Amy finished last. So the answer is (F).'
movie_recommendation#82|B|'the only movie similar ... seems to be Crimson Tide ... So the answer is (B).'
movie_recommendation#46|B|'seems to be Pinocchio ... So the answer is (B).'
penguins_in_a_table#122|B|'= 29. ... So the answer is (B).'
reasoning_about_colored_objects#134|B|'The number of black objects that remain on the nightstand is one. So the answer is (B).'
ruin_names#101|A,B|per option: A and B humorous, C and D not; 'the only humorous edits are (A) and (B). So the answer is (A) or (B).'
ruin_names#46|A,C|'the only humorous edits are (A) and (C). So the answer is (A) or (C).'
ruin_names#96|B,C|'the only humorous edits are (B) and (C). So the answer is (B) or (C).'
ruin_names#16|[]|every option 'not an actual word'; 'none of the edits are humorous. So the answer is (None of the above).'
ruin_names#184|A,D|'the only humorous edits are (A) and (D). So the answer is (A) or (D).'
ruin_names#153|B,C,D|'the only humorous edits are (B), (C), and (D). So the answer is (B), (C), and (D).'
ruin_names#195|C|C 'does not sound as humorous', yet 'the only humorous edit is (C). So the answer is (C).'
ruin_names#81|C|'the only humorous edit is (C). So the answer is (C).'
salient_translation_error_detection#87|E|'the translation contains an error pertaining to Dropped Content. So the answer is (E).'
snarks#158|A,B|'both options are sarcastic. So the answer is (A) and (B).'
snarks#3|[]|both 'a neutral statement'; 'neither option is sarcastic. So the answer is (None of the above).'
snarks#62|[]|'neither option is sarcastic. So the answer is (None of the above).'
snarks#15|[]|'neither option is sarcastic. So the answer is (None of the above).'
snarks#40|A,B|'the sarcastic option is (A) and (B). So the answer is (A) and (B).'
snarks#96|[]|'neither option is sarcastic. So the answer is (None of the above).'
snarks#21|B|'This is a satirical statement. ... the sarcastic option is (B). So the answer is (B).'
snarks#121|A|'the sarcastic option is (A). So the answer is (A).'
temporal_sequences#191|C|'was 4pm to 9pm. So the answer is (C).'
tracking_shuffled_objects_five_objects#231|C|'Bob is dancing with Patrick. So the answer is (C).'
"""

OPTION = re.compile(r"^\(([A-R])\) (.*)$")


def readings() -> list[tuple[str, int, list[str] | None, str]]:
    rows = []
    for row in READINGS.strip().splitlines():
        key, expected, note = row.split("|", 2)
        task, index = key.split("#")
        labels: list[str] | None
        if expected == "null":
            labels = None
        elif expected == "[]":
            labels = []
        else:
            labels = sorted(expected.split(","))
        rows.append((task, int(index), labels, note))
    return rows


def item(task: str, index: int, output: dict[str, Any]) -> dict[str, Any]:
    """The last question of the prompt (after the three worked examples) and its options."""
    asked = output["input"].split("\n\nQ: ")[-1].rsplit("\nA: ", 1)[0]
    question, options = asked.split("\nOptions:\n", 1)
    candidates = []
    for line in options.splitlines():
        match = OPTION.match(line)
        if match:
            candidates.append({"label": match.group(1), "text": match.group(2)})
    return {
        "id": f"bbh-{task}-{index}",
        "question": question,
        "candidates": candidates,
        "gold": [output["target"].strip("()")],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent / "bbh-code-davinci-002.jsonl"
    )
    args = parser.parse_args()
    cache: dict[str, list[dict[str, Any]]] = {}
    with args.out.open("w", encoding="utf-8") as out:
        for n, (task, index, expected, note) in enumerate(readings(), 1):
            path = f"{FOLDER}/{task}_few_shot_template_0-255000.json"
            if task not in cache:
                text = subprocess.run(
                    ["git", "--git-dir", str(args.git_dir), "show", f"{COMMIT}:{path}"],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                cache[task] = json.loads(text)["outputs"]
            output = cache[task][index]
            record = {
                "id": f"bbh-code-davinci-002:{n}",
                "source": "bbh-code-davinci-002",
                "dataset": f"bbh-{task}",
                "item": item(task, index, output),
                "polarity": "direct",
                "template": None,
                "mitigations": ["cot"],
                "reply": output["prediction"],
                "expected": expected,
                "note": note,
                "provenance": {
                    "repo": REPO,
                    "commit": COMMIT,
                    "path": path,
                    "index": index,
                    "prompt": PROMPT_NOTE,
                },
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(args.out.name, n)


if __name__ == "__main__":
    main()
