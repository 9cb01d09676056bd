# ruff: noqa: E501 (the readings are data, one a line)
"""Write re2-*.jsonl: real replies of gpt-4o-mini, gpt-3.5-turbo and text-davinci-003 to
CommonsenseQA (five options), as Tebmer/Rereading-LLM-Reasoning committed them (Apache-2.0),
each with the reading a careful person gives it (``READINGS``, written by hand from the whole
reply before the reader was run on any of them).

Not a test dependency. Run against a fetched snapshot's git directory (or a clone) of
https://github.com/Tebmer/Rereading-LLM-Reasoning:

    python tests/data/replies/choice-real-c/extract_re2.py /path/to/Rereading-LLM-Reasoning/.git
    python tests/data/replies/choice-real-c/extract_re2.py GIT_DIR --worklist   # what was read

Chosen (seeded, ``random.Random('real-c:re2:<model>')``) per model from the read-once
(``readtimes1``) run: up to 10 chain-of-thought replies that are not "hard-free" (``HARD``:
no ``\\boxed{...}``, or boxes naming other than exactly one label), 8 other chain-of-thought
replies, up to 4 hard direct ("vanilla") replies and 3 other direct replies; 25 per model.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = "Tebmer/Rereading-LLM-Reasoning"
COMMIT = "0dbad50be663c2ea8c46334c2f9a086980d3e318"
FILES = {
    "gpt-4o-mini-2024-07-18": "results/commonsenseqa_gpt-4o-mini-2024-07-18_topp1.0_temp0.0_majority1_readtimes1_20240926_224916.jsonl",
    "gpt-3.5-turbo-0613": "results/commonsenseqa_topp1.0_temp0.0_majority1_readtimes1_20230912_002124.jsonl",
    "text-davinci-003": "results/commonsenseqa_topp1.0_temp0.0_majority1_readtimes1_20230912_002205.jsonl",
}
PROMPT_NOTE = (
    "prompter.py TEXT_PROMPT_CHOIECES, zero-shot: '\\nQ: {stem} Answer Choices: (A) ... (E) ...\\n\\n"
    "Your answer should be in the form \\\\boxed{choice}, e.g. \\\\boxed{A}, \\\\boxed{B}, \\\\boxed{C}, "
    "\\\\boxed{D}. There is only one correct choice.\\n\\nA: ' followed by \"Let's think step by step.\" "
    "(act 'cot') or nothing (act 'vanilla'); system message 'You are a helpful assistant.'; temperature 0."
)

BOX = re.compile(r"\\boxed\{(.*?)\}\}?")
LABEL = re.compile(r"\(?\b([A-E])\b\)?")


def hard(reply: str) -> bool:
    """No box, or the boxes name other than exactly one label."""
    boxes = BOX.findall(reply)
    if not boxes:
        return True
    labels = {m for box in boxes for m in re.findall(r"\b([A-E])\b", box)}
    return len(labels) != 1


def choose(model: str, rows: list[dict[str, Any]]) -> list[tuple[str, int]]:
    rng = random.Random(f"real-c:re2:{model}")
    picked: list[tuple[str, int]] = []
    for act, n_hard, n_other in (("cot", 10, 8), ("vanilla", 4, 3)):
        indices = list(range(len(rows)))
        rng.shuffle(indices)
        hard_ones = [i for i in indices if hard(rows[i][act]["generation"][0])][:n_hard]
        rest = [i for i in indices if i not in hard_ones][: n_other + n_hard - len(hard_ones)]
        picked += [(act, i) for i in hard_ones + rest]
    return picked


# model|act#line|expected|note. expected: labels, [] (no option qualifies) or null (cannot tell).
READINGS = r"""
gpt-4o-mini-2024-07-18 cot#855|A,B|A and B are both 'bent': '\(\boxed{A}\) (or \(\boxed{B}\) since it's the same choice).'
gpt-4o-mini-2024-07-18 cot#185|A,E|A and E are both 'mortal': 'the correct answer is \(\boxed{A}\) (or \(\boxed{E}\) since they are the same).'
gpt-4o-mini-2024-07-18 cot#427|A|'the most appropriate action might be (A) wait for ... So I would choose \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#609|C|per-option analysis; 'the answer is \(\boxed{C}\).'
gpt-4o-mini-2024-07-18 cot#581|A|'the most fitting answer is (A) ground. Thus, the answer is \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#89|D|'the most logical answer is (D) construction site.' then a display-math '\boxed{D}'
gpt-4o-mini-2024-07-18 cot#706|A|'Thus, the answer is \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#870|D|'the best choice ... is (D) ground. Thus, the answer is \(\boxed{D}\).'
gpt-4o-mini-2024-07-18 cot#406|A|'the final answer is \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#226|A|'the best choices here are (A) and (C) ... However, (A) is more focused on the goal ... the most appropriate answer is \boxed{A}.'
gpt-4o-mini-2024-07-18 cot#611|D|'the most appropriate answer is (D) **defend** ... Thus, the answer is \(\boxed{D}\).'
gpt-4o-mini-2024-07-18 cot#535|A|'the only option that fits is (A) concert hall ... \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#580|B|B and D both weighed; 'the best answer is \(\boxed{B}\).'
gpt-4o-mini-2024-07-18 cot#261|A|'**(A) New York City** stands out ... the answer is \(\boxed{A}\).'
gpt-4o-mini-2024-07-18 cot#23|E|'the most appropriate answer is \boxed{E}.'
gpt-4o-mini-2024-07-18 cot#424|E|E called 'very relevant'; ends 'can gain a celebrity:' then '\(\boxed{E}\)'
gpt-4o-mini-2024-07-18 cot#675|E|a numbered list 1-5 with option texts, no labels; 'a rabbit warren. Thus, the answer is \(\boxed{E}\).'
gpt-4o-mini-2024-07-18 cot#223|B|'Both options (B) and (D) convey the same action. However ... the option presented first ... \(\boxed{B}\)'
gpt-4o-mini-2024-07-18 vanilla#75|B|'the most appropriate answer to the question is (B) choice' then '\boxed{choice}' (B's text)
gpt-4o-mini-2024-07-18 vanilla#649|D|weighs A, D and B; 'the best answer ... would likely be:' '\boxed{d}' (lower-case label)
gpt-4o-mini-2024-07-18 vanilla#1012|A|boxes A, C, D as negative and B as positive, then 'here's a selected negative experience: \boxed{A}' as the answer given
gpt-4o-mini-2024-07-18 vanilla#459|B|'\boxed{B}' only
gpt-4o-mini-2024-07-18 vanilla#372|A|'Therefore, the best choice is: \(\boxed{A}\)'
gpt-4o-mini-2024-07-18 vanilla#1180|B|'\boxed{B}' only
gpt-4o-mini-2024-07-18 vanilla#1159|B|'\boxed{B}' only
gpt-3.5-turbo-0613 cot#424|B,D|'the most appropriate answer would be \boxed{(B) smile} or \boxed{(D) conversation}, as both options are likely responses'
gpt-3.5-turbo-0613 cot#31|[]|eliminates every option; 'none of the given options represent an island country ... \boxed{\text{None of the above}}.'
gpt-3.5-turbo-0613 cot#824|B|'the most appropriate choice to find a place to stay would be a phone book.' (B's text, labelled '(B) Phone book' above), then a caveat about online resources
gpt-3.5-turbo-0613 cot#891|A|'Therefore, the correct answer is (A) sporting event'; no box
gpt-3.5-turbo-0613 cot#260|B,E|'the correct answer is \boxed{(B) fair} or \boxed{(E) countryside}.' after keeping both
gpt-3.5-turbo-0613 cot#1157|B|'the most logical answer is (B) atlas.'; no box
gpt-3.5-turbo-0613 cot#1207|D,E|'either a river bed or a creek bed ... \boxed{(D) \text{river bed}} or \boxed{(E) \text{creek bed}}.'
gpt-3.5-turbo-0613 cot#321|E|keeps A and E, then 'the correct answer is option (E) values.'; no box
gpt-3.5-turbo-0613 cot#327|B,C,E|boxes B, C and E in turn; 'the correct answer would be a combination of choices B, C, and E.'
gpt-3.5-turbo-0613 cot#540|C,E|'must \boxed{(C) do mathematics}', 'must also \boxed{(E) begin to study}'; B, D and A each boxed and called 'not correct'
gpt-3.5-turbo-0613 cot#175|D|'the correct answer is \boxed{(D) \ boutique}.'
gpt-3.5-turbo-0613 cot#190|A|'the correct choice is \boxed{(A) boiling water}.'
gpt-3.5-turbo-0613 cot#137|A|'the correct answer is \boxed{(A) \text{ outer space}}.'
gpt-3.5-turbo-0613 cot#789|B|'the correct answer is \boxed{(B) \text{kill}}.'
gpt-3.5-turbo-0613 cot#520|C|negated question ('should not cause'); '\boxed{(C) joy}. Killing people should not cause joy.'
gpt-3.5-turbo-0613 cot#970|A|'the most suitable answer is (A) scary. Therefore, the correct answer is \boxed{(A)}.'
gpt-3.5-turbo-0613 cot#549|D|keeps B and D; 'the best answer would be \boxed{(D) dresser drawers}.'
gpt-3.5-turbo-0613 cot#619|C|'the correct answer is \boxed{(C) talented}.'
gpt-3.5-turbo-0613 vanilla#768|D|'(D) below' only
gpt-3.5-turbo-0613 vanilla#1050|C|'(C) marine museum' only
gpt-3.5-turbo-0613 vanilla#29|D|'(D) apartment' only
gpt-3.5-turbo-0613 vanilla#43|B|'(B) pet shop' only
gpt-3.5-turbo-0613 vanilla#477|E|'\boxed{(E) nuclear power plant}'
gpt-3.5-turbo-0613 vanilla#575|B|'\boxed{(B)} with brush'
gpt-3.5-turbo-0613 vanilla#125|D|'\boxed{D} gain ground'
text-davinci-003 cot#1086|null|'The answer is \boxed{wings}.': no option's text and no label
text-davinci-003 cot#155|[]|'None of the choices provided are related to skill, so the answer is none of the above. The correct answer is \boxed{none of the above}.'
text-davinci-003 cot#131|B,E|'The best choice would be to encourage or tell a story. The correct answer is \boxed{B} encourage or \boxed{E} tell story.'
text-davinci-003 cot#751|[]|every option 'the answer is not (X)'; '\boxed{none of the above}'
text-davinci-003 cot#814|D|'Choice (D) is the correct answer: \boxed{very colorful}.'
text-davinci-003 cot#331|[]|'choice B is incorrect', A, D, E incorrect, 'only choice C, which is incorrect. The correct answer is \boxed{none of the above}.'
text-davinci-003 cot#845|C,E|'(C) is the correct answer', '(E) is also a correct answer. Therefore, the correct answer is \boxed{C} and \boxed{E}.'
text-davinci-003 cot#771|A|'The most obvious choice is to \boxed{turn off} the television.': A's text word for word (C is 'turning off')
text-davinci-003 cot#122|[]|each option 'not the right choice'; '\boxed{none of the above}'
text-davinci-003 cot#685|C,E|'(C) is the correct answer', '(E) is also a correct answer.' then '\boxed{C, E}'
text-davinci-003 cot#151|D|'the correct answer is \boxed{D} military base.'
text-davinci-003 cot#1056|B|says sex leads to a good night's sleep, rest and sleepiness (B, C, D) but 'the correct answer is \boxed{B}.': the answer line counts
text-davinci-003 cot#861|E|'he wisely decided to...seek help.' then '\boxed{E}'
text-davinci-003 cot#15|A|'the correct answer is \boxed{A} literacy.'
text-davinci-003 cot#564|B|'the correct answer is \boxed{B} internet.'
text-davinci-003 cot#605|A|'The correct answer is \boxed{A: thin out}.'
text-davinci-003 cot#139|C|'The only choice that makes sense is a mine, so the answer is \boxed{C}.'
text-davinci-003 cot#1199|B|'The best option would be to go to a fruit stand (B). Therefore, the answer is \boxed{B}.'
text-davinci-003 vanilla#75|B|'\boxed{choice}': B's text
text-davinci-003 vanilla#646|D|'\boxed{D} bare': D's label ('bareword'), the word after it a short copy
text-davinci-003 vanilla#368|B|'\boxed{B}' only
text-davinci-003 vanilla#594|A|'\boxed{A}' only
text-davinci-003 vanilla#725|A|'\boxed{A}' only
text-davinci-003 vanilla#171|E|'\boxed{E}' only
text-davinci-003 vanilla#1045|D|'\boxed{D} wolf'
"""


def readings() -> dict[tuple[str, str, int], tuple[list[str] | None, str]]:
    out: dict[tuple[str, str, int], tuple[list[str] | None, str]] = {}
    for row in READINGS.strip().splitlines():
        key, expected, note = row.split("|", 2)
        model, rest = key.split(" ", 1)
        act, line = rest.split("#")
        labels: list[str] | None
        if expected == "null":
            labels = None
        elif expected == "[]":
            labels = []
        else:
            labels = sorted(expected.split(","))
        out[(model, act, int(line))] = (labels, note)
    return out


def load(git_dir: Path, path: str) -> list[dict[str, Any]]:
    text = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{COMMIT}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def repeats(candidates: list[dict[str, str]]) -> bool:
    """Two options with the same text (the dataset's own duplicates, e.g. 'bent' twice)."""
    texts = [c["text"].strip().lower() for c in candidates]
    return len(set(texts)) < len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--worklist", action="store_true", help="print the chosen replies")
    parser.add_argument("--out-dir", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    known = {} if args.worklist else readings()
    for model, path in FILES.items():
        rows = load(args.git_dir, path)
        source = f"re2-csqa-{model}"
        records = []
        for n, (act, line) in enumerate(choose(model, rows), 1):
            row = rows[line]
            reply = row[act]["generation"][0]
            question = row["question"]
            if args.worklist:
                options = " ".join(f"({c['label']}) {c['text']}" for c in question["choices"])
                print(f"=== {model} {act}#{line} | {question['stem']} | {options}\n{reply}\n")
                continue
            expected, note = known[(model, act, line)]
            if repeats(question["choices"]):
                continue  # read, but prin_guard's Item rejects identical candidate texts
            records.append(
                {
                    "id": f"{source}:{n}",
                    "source": source,
                    "dataset": "commonsenseqa",
                    "item": {
                        "id": f"csqa-{row['id']}",
                        "question": question["stem"],
                        "candidates": [
                            {"label": c["label"], "text": c["text"]} for c in question["choices"]
                        ],
                        "gold": [row["answerKey"]],
                    },
                    "polarity": "direct",
                    "template": None,
                    "mitigations": ["cot"] if act == "cot" else [],
                    "reply": reply,
                    "expected": expected,
                    "note": note,
                    "provenance": {
                        "repo": REPO,
                        "commit": COMMIT,
                        "path": path,
                        "index": line,
                        "act": act,
                        "prompt": PROMPT_NOTE,
                        "licence": "Apache-2.0",
                    },
                }
            )
        if records:
            out = args.out_dir / f"{source}.jsonl"
            with out.open("w", encoding="utf-8") as handle:
                for record in records:
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            print(out.name, len(records))


if __name__ == "__main__":
    main()
