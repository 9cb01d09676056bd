# ruff: noqa: E501
"""Write holdout-g.jsonl: structured and half-structured judge replies, written blind."""

from __future__ import annotations

import json
from pathlib import Path

SET = "holdout-g"

ITEMS = {
    "capitals": (
        "Which of these cities are national capitals?",
        ["Canberra", "Sydney", "Ottawa", "Toronto", "Wellington"],
    ),
    "primes": ("Which of these numbers are prime?", ["21", "23", "27", "29"]),
    "times": ("What is 17 x 6?", ["96", "102", "112", "106"]),
    "noble": (
        "Which of these elements are noble gases?",
        ["Argon", "Nitrogen", "Neon", "Chlorine", "Krypton"],
    ),
    "planet": (
        "Which planet has the shortest year (orbital period)?",
        ["Venus", "Mercury", "Mars", "Earth"],
    ),
    "mammals": ("Which of these animals are mammals?", ["Dolphin", "Shark", "Bat", "Penguin"]),
    "solve": ("Solve 3x + 5 = 20 for x.", ["4", "5", "6", "25/3"]),
    "twelve": (
        "Which of these expressions equal 12?",
        ["3 * 4", "20 - 9", "36 / 3", "2^3 + 4", "5 + 8"],
    ),
    "austen": (
        "Who wrote 'Pride and Prejudice'?",
        ["Charlotte Bronte", "Jane Austen", "Mary Shelley", "George Eliot"],
    ),
    "immutable": (
        "Which of these built-in Python types are immutable?",
        ["tuple", "list", "frozenset", "dict", "str"],
    ),
    "boiling": (
        "At sea level, water boils at what temperature in degrees Fahrenheit?",
        ["100", "180", "212", "232"],
    ),
    "nine": ("Which of these numbers are divisible by 9?", ["81", "99", "108", "111"]),
    "romance": (
        "Which of these are Romance languages?",
        ["Portuguese", "Romanian", "German", "Greek"],
    ),
}

MITIGATIONS = {"": [], "c": ["cot"], "n": ["neg_exp"], "cn": ["cot", "neg_exp"]}

# (item, polarity, mitigations, expected, note, reply)
REPLIES: list[tuple[str, str, str, list[str] | None, str, str]] = [
    # ---- direct ----
    ("capitals", "direct", "", ["A", "C", "E"], "xml answer tag", "<answer>A, C, E</answer>"),
    (
        "capitals",
        "direct",
        "c",
        ["A", "C", "E"],
        "xml reasoning then answer",
        "Let's think step by step. Canberra is the capital of Australia; Sydney is only its largest "
        "city. Ottawa is Canada's capital, not Toronto. Wellington is the capital of New Zealand.\n\n"
        "<reasoning>Canberra, Ottawa and Wellington are national capitals; Sydney and Toronto are "
        "not.</reasoning>\n<answer>A, C, E</answer>",
    ),
    (
        "primes",
        "direct",
        "",
        ["B", "D"],
        "json fence correct list",
        '```json\n{"correct": ["B", "D"]}\n```',
    ),
    (
        "primes",
        "direct",
        "c",
        ["B", "D"],
        "json booleans per option after cot",
        "Step by step: 21 = 3 x 7, 23 has no divisors besides 1 and itself, 27 = 3^3, 29 is prime.\n\n"
        '```json\n{"A": false, "B": true, "C": false, "D": true}\n```',
    ),
    ("times", "direct", "", ["B"], "key value answer", "Answer: B"),
    (
        "times",
        "direct",
        "c",
        ["B"],
        "verdict line after cot",
        "17 x 6 = 17 x 5 + 17 = 85 + 17 = 102.\n\nVerdict: B (102)",
    ),
    (
        "noble",
        "direct",
        "",
        ["A", "C", "E"],
        "markdown table verdicts",
        "| Option | Verdict | Reason |\n|---|---|---|\n| A | Correct | Argon is in group 18 |\n"
        "| B | Incorrect | Nitrogen is group 15 |\n| C | Correct | Neon is a noble gas |\n"
        "| D | Incorrect | Chlorine is a halogen |\n| E | Correct | Krypton is in group 18 |",
    ),
    (
        "noble",
        "direct",
        "c",
        ["A", "C", "E"],
        "checkbox list after cot",
        "Let's think step by step. The noble gases are helium, neon, argon, krypton, xenon and radon. "
        "Nitrogen and chlorine are reactive nonmetals.\n\n- [x] A. Argon\n- [ ] B. Nitrogen\n"
        "- [x] C. Neon\n- [ ] D. Chlorine\n- [x] E. Krypton",
    ),
    (
        "planet",
        "direct",
        "",
        ["B"],
        "yaml fence answer",
        "```yaml\nanswer: B\nconfidence: high\n```",
    ),
    (
        "planet",
        "direct",
        "c",
        ["B"],
        "scores with conclusion",
        "Orbital periods: Mercury about 88 days, Venus 225, Earth 365, Mars 687.\n\n"
        "A: 2/10\nB: 10/10\nC: 1/10\nD: 1/10\n\nConclusion: B",
    ),
    (
        "mammals",
        "direct",
        "",
        ["A", "C"],
        "scores without conclusion, bimodal",
        "A: 9/10, B: 2/10, C: 8/10, D: 1/10",
    ),
    (
        "mammals",
        "direct",
        "c",
        ["A", "C"],
        "json then prose correction",
        "Dolphins and bats nurse their young; sharks are fish.\n\n"
        '```json\n{"correct": ["A", "C", "D"]}\n```\n\n'
        "Wait, penguins are birds, not mammals. Correction: the correct options are A and C.",
    ),
    ("solve", "direct", "", ["B"], "rubric selected line", "Selected: B"),
    (
        "solve",
        "direct",
        "c",
        ["B"],
        "answer tag after algebra",
        "3x + 5 = 20, so 3x = 15 and x = 5.\n<answer>B</answer>",
    ),
    (
        "twelve",
        "direct",
        "",
        ["A", "C", "D"],
        "key value correct options",
        "Correct options: A, C, D",
    ),
    (
        "twelve",
        "direct",
        "c",
        ["A", "C", "D"],
        "csv yes/no after cot",
        "Evaluating each: 3*4 = 12, 20-9 = 11, 36/3 = 12, 2^3+4 = 8+4 = 12, 5+8 = 13.\n\n"
        "option,equals_12\nA,yes\nB,no\nC,yes\nD,yes\nE,no",
    ),
    ("austen", "direct", "", ["B"], "true/false lines", "A: False\nB: True\nC: False\nD: False"),
    (
        "austen",
        "direct",
        "c",
        None,
        "two structures disagree",
        "Pride and Prejudice is an 1813 novel about the Bennet sisters.\n\n<answer>B</answer>\n\n"
        'Final structured output:\n```json\n{"answer": "A"}\n```',
    ),
    (
        "immutable",
        "direct",
        "",
        ["A", "C", "E"],
        "json with comments, invalid",
        '```json\n{\n  "A": true,  // tuple\n  "B": false, // list is mutable\n  "C": true,  // frozenset\n'
        '  "D": false, // dict is mutable\n  "E": true   // str\n}\n```',
    ),
    (
        "immutable",
        "direct",
        "c",
        None,
        "truncated json",
        "Thinking step by step: a tuple cannot be changed after creation, a list can be appended to, "
        'a frozenset is the immutable set...\n\n```json\n{"verdicts": {"A": "correct", "B": "incorrect", "C": "corr',
    ),
    ("boiling", "direct", "", ["C"], "decision line", "Decision: C"),
    (
        "boiling",
        "direct",
        "c",
        ["C"],
        "rubric form",
        "Criteria: standard atmospheric pressure, Fahrenheit scale.\n"
        "Check: 100 C x 9/5 + 32 = 212 F.\nVerdict: option C (212)",
    ),
    ("nine", "direct", "", ["A", "B", "C"], "xml answer tag", "<answer>A, B, C</answer>"),
    (
        "nine",
        "direct",
        "c",
        ["A", "B", "C"],
        "markdown table after cot",
        "A number is divisible by 9 when its digit sum is.\n\n| Option | Digit sum | Divisible by 9 |\n"
        "|---|---|---|\n| A | 9 | yes |\n| B | 18 | yes |\n| C | 9 | yes |\n| D | 3 | no |",
    ),
    ("romance", "direct", "", ["A", "B"], "yaml list", "correct:\n  - A\n  - B"),
    (
        "romance",
        "direct",
        "c",
        ["A", "B"],
        "checkbox list after cot",
        "Portuguese and Romanian both descend from Latin. German is Germanic, Greek is Hellenic.\n\n"
        "- [x] A\n- [x] B\n- [ ] C\n- [ ] D",
    ),
    ("capitals", "direct", "", None, "empty xml tag", "<answer></answer>"),
    (
        "primes",
        "direct",
        "c",
        ["B", "D"],
        "json inline in prose",
        "After checking each number for divisors, I'd put my answer as "
        '{"correct_options": ["B", "D"]} since 23 and 29 have no divisors other than 1 and themselves.',
    ),
    ("times", "direct", "", ["B"], "single-quoted pseudo json", "{'answer': 'B'}"),
    (
        "noble",
        "direct",
        "c",
        ["A", "C", "E"],
        "nested json with final_answer",
        "Group 18 check for each element.\n```json\n{\n"
        '  "analysis": {\n    "A": {"is_noble_gas": true},\n    "B": {"is_noble_gas": false},\n'
        '    "C": {"is_noble_gas": true},\n    "D": {"is_noble_gas": false},\n'
        '    "E": {"is_noble_gas": true}\n  },\n  "final_answer": ["A", "C", "E"]\n}\n```',
    ),
    ("planet", "direct", "", ["A"], "key value, wrong judge", "answer: A"),
    ("mammals", "direct", "", ["A", "C"], "both polarity keys", "Incorrect: B, D\nCorrect: A, C"),
    (
        "twelve",
        "direct",
        "",
        ["A", "C", "D"],
        "slash-separated true/false",
        "A: True / B: False / C: True / D: True / E: False",
    ),
    (
        "twelve",
        "direct",
        "c",
        ["A", "C"],
        "json list of objects, judge arithmetic slip",
        "Let's think step by step and evaluate each expression.\n```json\n[\n"
        '  {"option": "A", "value": 12, "correct": true},\n'
        '  {"option": "B", "value": 11, "correct": false},\n'
        '  {"option": "C", "value": 12, "correct": true},\n'
        '  {"option": "D", "value": 10, "correct": false},\n'
        '  {"option": "E", "value": 13, "correct": false}\n]\n```',
    ),
    (
        "austen",
        "direct",
        "c",
        ["B"],
        "reasoning and answer lines",
        "Reasoning: Pride and Prejudice (1813) is by Jane Austen.\nAnswer: B",
    ),
    (
        "immutable",
        "direct",
        "",
        ["A", "C", "E"],
        "table with check marks",
        "| Option | Type | Immutable |\n|---|---|---|\n| A | tuple | ✓ |\n| B | list | ✗ |\n"
        "| C | frozenset | ✓ |\n| D | dict | ✗ |\n| E | str | ✓ |",
    ),
    (
        "immutable",
        "direct",
        "c",
        ["A", "C", "E"],
        "correct and incorrect tags",
        "list and dict support in-place mutation; tuple, frozenset and str do not.\n"
        "<correct>A, C, E</correct>\n<incorrect>B, D</incorrect>",
    ),
    ("boiling", "direct", "", ["C"], "json string", '```json\n"C"\n```'),
    (
        "nine",
        "direct",
        "c",
        ["A", "B", "C"],
        "scores without conclusion after cot",
        "Digit sums: 81 -> 9, 99 -> 18, 108 -> 9, 111 -> 3.\n\nA: 10/10\nB: 10/10\nC: 10/10\nD: 0/10",
    ),
    ("romance", "direct", "", [], "json empty list, wrong judge", '{"correct": []}'),
    (
        "capitals",
        "direct",
        "c",
        ["A", "C", "E"],
        "two tags, second revises",
        "Canberra and Ottawa are capitals; Sydney and Toronto are not.\n<answer>A, C</answer>\n\n"
        "Actually Wellington is also a capital (New Zealand), so my final answer is:\n"
        "<answer>A, C, E</answer>",
    ),
    (
        "solve",
        "direct",
        "",
        None,
        "muddled scores, no conclusion",
        "A: 5/10\nB: 6/10\nC: 5/10\nD: 4/10",
    ),
    (
        "primes",
        "direct",
        "",
        ["B", "D"],
        "correct and incorrect key lines",
        "Correct options: B, D\nIncorrect options: A, C",
    ),
    (
        "times",
        "direct",
        "c",
        None,
        "truncated json before result",
        "Let's compute 17 x 6 step by step.\n```json\n{\n"
        '  "steps": ["17 x 6 = 17 x 5 + 17", "= 85 + ',
    ),
    (
        "noble",
        "direct",
        "",
        ["A", "C", "E"],
        "csv label verdicts",
        "A,noble\nB,not noble\nC,noble\nD,not noble\nE,noble",
    ),
    (
        "planet",
        "direct",
        "c",
        ["B"],
        "yaml wrapped in prose",
        "Here is my evaluation:\n\n```yaml\nselected: [B]\nreason: Mercury orbits the Sun in about 88 days\n```\n\n"
        "So the answer is Mercury.",
    ),
    (
        "mammals",
        "direct",
        "c",
        ["A", "C"],
        "answer tag with option texts",
        "Mammals are warm-blooded, have hair at some stage and feed milk to their young.\n"
        "<answer>Dolphin and Bat</answer>",
    ),
    (
        "nine",
        "direct",
        "",
        ["A", "B", "C"],
        "json both polarity keys",
        '{"correct": ["A", "B", "C"], "incorrect": ["D"]}',
    ),
    ("austen", "direct", "", None, "empty json object", "```json\n{}\n```"),
    (
        "boiling",
        "direct",
        "c",
        ["C"],
        "verdict then correction",
        "Verdict: D\n\nCorrection: 100 degrees Celsius converts to 212 degrees Fahrenheit, so the "
        "right option is C, not D.",
    ),
    # ---- reverse ----
    ("capitals", "reverse", "", ["B", "D"], "incorrect tag", "<incorrect>B, D</incorrect>"),
    ("capitals", "reverse", "n", ["B", "D"], "answer tag", "<answer>B, D</answer>"),
    (
        "capitals",
        "reverse",
        "c",
        None,
        "answers direct question only",
        "Let's think step by step. Canberra is the capital of Australia, Ottawa of Canada and "
        "Wellington of New Zealand.\n<answer>A, C, E</answer>",
    ),
    (
        "primes",
        "reverse",
        "",
        ["A", "C"],
        "json incorrect key",
        '```json\n{"incorrect": ["A", "C"]}\n```',
    ),
    (
        "primes",
        "reverse",
        "",
        ["A", "C"],
        "nested is_prime booleans, no conclusion",
        '{"A": {"is_prime": false}, "B": {"is_prime": true}, "C": {"is_prime": false}, '
        '"D": {"is_prime": true}}',
    ),
    (
        "primes",
        "reverse",
        "n",
        ["A", "C"],
        "true/false per option, asked leg",
        "A: True / B: False / C: True / D: False",
    ),
    (
        "times",
        "reverse",
        "",
        ["A", "C", "D"],
        "key value incorrect options",
        "Incorrect options: A, C, D",
    ),
    (
        "times",
        "reverse",
        "c",
        ["A", "C", "D"],
        "verdict line after cot",
        "17 x 6 = 102, so only B is right.\n\nVerdict: A, C, D are incorrect.",
    ),
    (
        "times",
        "reverse",
        "n",
        ["A", "C", "D"],
        "yaml both keys",
        "```yaml\nincorrect_options:\n  - A\n  - C\n  - D\ncorrect_option: B\n```",
    ),
    (
        "noble",
        "reverse",
        "",
        ["B", "D"],
        "markdown table sides",
        "| Option | Element | Noble gas? |\n|---|---|---|\n| A | Argon | Yes |\n| B | Nitrogen | No |\n"
        "| C | Neon | Yes |\n| D | Chlorine | No |\n| E | Krypton | Yes |",
    ),
    (
        "noble",
        "reverse",
        "c",
        ["B", "D"],
        "checkbox list of incorrect",
        "Let's think step by step. Group 18 holds He, Ne, Ar, Kr, Xe, Rn.\n\nIncorrect options:\n"
        "- [ ] A. Argon\n- [x] B. Nitrogen\n- [ ] C. Neon\n- [x] D. Chlorine\n- [ ] E. Krypton",
    ),
    ("noble", "reverse", "n", ["B", "D"], "key value incorrect", "Incorrect: B, D"),
    (
        "planet",
        "reverse",
        "",
        ["A", "C", "D"],
        "json both keys",
        '```json\n{"incorrect": ["A", "C", "D"], "correct": "B"}\n```',
    ),
    (
        "planet",
        "reverse",
        "c",
        ["A", "C", "D"],
        "scores then conclusion",
        "Mercury is closest to the Sun, so its year is shortest (88 days).\n\n"
        "A: 1/10, B: 10/10, C: 1/10, D: 2/10\n\nConclusion: the incorrect options are A, C and D.",
    ),
    (
        "planet",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "answer tag after cot",
        "Step by step: Mercury 88 days, Venus 225, Earth 365, Mars 687. The options that do not "
        "answer the question are Venus, Mars and Earth.\n<answer>A, C, D</answer>",
    ),
    (
        "mammals",
        "reverse",
        "",
        None,
        "scores, polarity unstated",
        "A: 9/10, B: 1/10, C: 9/10, D: 2/10",
    ),
    (
        "mammals",
        "reverse",
        "c",
        ["B", "D"],
        "tag revised by second tag",
        "Sharks are cartilaginous fish.\n<incorrect>B</incorrect>\n\nOn reflection, penguins are birds "
        "too, so D is also incorrect.\n<incorrect>B, D</incorrect>",
    ),
    ("mammals", "reverse", "n", ["B", "D"], "selected line", "Selected: B, D"),
    (
        "solve",
        "reverse",
        "",
        ["A", "C", "D"],
        "decision line both sides",
        "Decision: A, C, D incorrect; B (x = 5) correct.",
    ),
    (
        "solve",
        "reverse",
        "c",
        ["A", "C", "D"],
        "csv with check column",
        "Substitute each value into 3x + 5.\n\noption,check,verdict\nA,3*4+5=17,incorrect\n"
        "B,3*5+5=20,correct\nC,3*6+5=23,incorrect\nD,3*(25/3)+5=30,incorrect",
    ),
    ("solve", "reverse", "n", None, "empty incorrect tag", "<incorrect></incorrect>"),
    (
        "twelve",
        "reverse",
        "",
        ["B", "E"],
        "per-option incorrect labels",
        "B: incorrect, E: incorrect",
    ),
    (
        "twelve",
        "reverse",
        "c",
        ["B", "D", "E"],
        "json values and list, judge slip",
        "Let's think step by step.\n```json\n"
        '{"A": 12, "B": 11, "C": 12, "D": 10, "E": 13, "incorrect": ["B", "D", "E"]}\n```',
    ),
    ("twelve", "reverse", "n", ["B", "E"], "checkbox marked only", "- [x] B\n- [x] E"),
    (
        "austen",
        "reverse",
        "",
        None,
        "correct_answer key only",
        '```json\n{"correct_answer": "B"}\n```',
    ),
    (
        "austen",
        "reverse",
        "c",
        ["A", "C", "D"],
        "reasoning and incorrect lines",
        "Reasoning: Jane Austen wrote it. Charlotte Bronte wrote Jane Eyre, Mary Shelley wrote "
        "Frankenstein, George Eliot wrote Middlemarch.\nIncorrect: A, C, D",
    ),
    (
        "austen",
        "reverse",
        "n",
        ["A", "C", "D"],
        "table yes/no sides",
        "| Option | Author of Pride and Prejudice? |\n|---|---|\n| A | No |\n| B | Yes |\n| C | No |\n| D | No |",
    ),
    (
        "immutable",
        "reverse",
        "",
        ["B", "D"],
        "json with comment",
        '```json\n{\n  "incorrect": ["B", "D"] // list and dict are mutable\n}\n```',
    ),
    (
        "immutable",
        "reverse",
        "c",
        ["B", "D"],
        "nested mutable booleans, no conclusion",
        "Let's think step by step about which types allow in-place changes.\n```json\n"
        '{"types": {"A": {"mutable": false}, "B": {"mutable": true}, "C": {"mutable": false}, '
        '"D": {"mutable": true}, "E": {"mutable": false}}}\n```',
    ),
    ("immutable", "reverse", "n", None, "truncated json", '{"incorrect_options": ["B",'),
    ("boiling", "reverse", "", ["A", "B", "D"], "incorrect tag", "<incorrect>A, B, D</incorrect>"),
    (
        "boiling",
        "reverse",
        "c",
        None,
        "verdict answers direct question",
        "Let's think step by step. Water boils at 100 degrees Celsius, which is 212 degrees "
        "Fahrenheit.\nVerdict: C",
    ),
    (
        "boiling",
        "reverse",
        "",
        ["A", "B", "D"],
        "answer line plus correct line",
        "Answer: A, B, D\nCorrect: C",
    ),
    ("nine", "reverse", "", ["D"], "yaml incorrect list", "incorrect:\n  - D"),
    (
        "nine",
        "reverse",
        "",
        ["D"],
        "json booleans, positive key",
        "Digit sums: 81 -> 9, 99 -> 18, 108 -> 9, 111 -> 3.\n```json\n"
        '{"divisible_by_9": {"A": true, "B": true, "C": true, "D": false}}\n```',
    ),
    ("nine", "reverse", "n", ["D"], "answer tag single", "<answer>D</answer>"),
    ("romance", "reverse", "", ["C", "D"], "csv line", "incorrect,C,D"),
    (
        "romance",
        "reverse",
        "c",
        None,
        "two structures disagree",
        "German belongs to the Germanic branch and Greek is its own branch.\n"
        "<incorrect>C, D</incorrect>\n\n"
        '```json\n{"incorrect": ["B", "C", "D"]}\n```',
    ),
    (
        "romance",
        "reverse",
        "c",
        ["B", "C", "D"],
        "key value, wrong judge",
        "Romanian is spoken in Eastern Europe surrounded by Slavic languages, so I'd class it as "
        "Slavic.\nIncorrect options: B, C, D",
    ),
    (
        "capitals",
        "reverse",
        "c",
        ["B", "D"],
        "json then prose revision",
        "Sydney and Toronto are the largest cities but not capitals.\n"
        '```json\n{"incorrect": ["B", "D", "E"]}\n```\n'
        "Correction: Wellington is New Zealand's capital, so E should not be in that list. Final: B, D.",
    ),
    (
        "primes",
        "reverse",
        "",
        ["A", "C"],
        "json list of verdict objects",
        '[{"option": "A", "verdict": "incorrect"}, {"option": "B", "verdict": "correct"}, '
        '{"option": "C", "verdict": "incorrect"}, {"option": "D", "verdict": "correct"}]',
    ),
    ("capitals", "reverse", "", [], "json empty list, wrong judge", '{"incorrect": []}'),
    (
        "noble",
        "reverse",
        "",
        ["B", "D"],
        "scores of incorrectness, no conclusion",
        "Scores (how likely each option is incorrect):\nA: 1/10\nB: 9/10\nC: 1/10\nD: 9/10\nE: 2/10",
    ),
    (
        "planet",
        "reverse",
        "n",
        ["A", "C", "D"],
        "is-incorrect true/false header",
        "Is incorrect?\nA: True\nB: False\nC: True\nD: True",
    ),
    (
        "solve",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "table after cot",
        "Step by step: 3x = 15 so x = 5. Options that do not satisfy the equation:\n\n"
        "| Option | 3x + 5 | Satisfies? |\n|---|---|---|\n| A (4) | 17 | No |\n| B (5) | 20 | Yes |\n"
        "| C (6) | 23 | No |\n| D (25/3) | 30 | No |",
    ),
    (
        "twelve",
        "reverse",
        "",
        ["B", "E"],
        "rubric selected then prose confirms",
        "Rubric:\n- Evaluate each expression\n- Mark those not equal to 12\n\nSelected: B, E\n\n"
        "20 - 9 = 11 and 5 + 8 = 13; 2^3 + 4 = 12, so B and E stand.",
    ),
    (
        "austen",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "reasoning and answer tags",
        "<reasoning>Jane Austen published it in 1813. Bronte wrote Jane Eyre, Shelley Frankenstein, "
        "Eliot Middlemarch.</reasoning>\n<answer>A, C, D</answer>",
    ),
    ("immutable", "reverse", "", None, "correct options key only", "Correct options: A, C, E"),
    (
        "nine",
        "reverse",
        "",
        ["D"],
        "key line then revision",
        "Incorrect: C, D\n\nWait, 108 = 9 x 12, so C is divisible by 9. Only D is incorrect.",
    ),
    (
        "romance",
        "reverse",
        "n",
        ["C", "D"],
        "json family per option",
        '```json\n{"A": "Romance", "B": "Romance", "C": "Germanic", "D": "Hellenic"}\n```',
    ),
]


def main() -> None:
    out = Path(__file__).with_name(f"{SET}.jsonl")
    lines = []
    for n, (item, polarity, mits, expected, note, reply) in enumerate(REPLIES, start=1):
        question, texts = ITEMS[item]
        record = {
            "id": f"{SET}:{n}",
            "source": f"{SET}-written",
            "dataset": "written",
            "item": {
                "id": f"{SET}-item-{item}",
                "question": question,
                "candidates": [{"label": "ABCDE"[i], "text": text} for i, text in enumerate(texts)],
            },
            "polarity": polarity,
            "template": None,
            "mitigations": MITIGATIONS[mits],
            "reply": reply,
            "expected": sorted(expected) if expected is not None else None,
            "note": note,
        }
        lines.append(json.dumps(record, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
