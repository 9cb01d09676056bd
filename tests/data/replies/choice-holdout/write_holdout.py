# ruff: noqa: E501 (the replies are data, one a line)
"""Write holdout.jsonl: multiple-choice free-text replies written by hand (issue 38 follow-up,
helper B, 2026-12-07), each with the reading a careful person gives it. Written BEFORE any
reader change of that round and never tuned to: its figure measures how the reader does on
phrasings no rule was written for. Not a test dependency (the .jsonl is).

    python tests/data/replies/choice-holdout/write_holdout.py
"""

from __future__ import annotations

import json
from pathlib import Path

ITEMS = {
    "percent": ("What is 15% of 240?", ["24", "36", "40", "32", "30"]),
    "primes": ("Which of these numbers are prime?", ["9", "11", "15", "17", "21"]),
    "red-planet": (
        "Which planet is known as the Red Planet?",
        ["Venus", "Mars", "Jupiter", "Saturn"],
    ),
    "mammals": (
        "Which of the following animals are mammals?",
        ["Whale", "Shark", "Bat", "Penguin"],
    ),
    "train": (
        "A train travels 120 km in 2 hours. What is its average speed?",
        ["50 km/h", "60 km/h", "70 km/h", "80 km/h", "90 km/h"],
    ),
    "capitals": (
        "Which of these cities are national capitals?",
        ["Madrid", "Barcelona", "Lisbon", "Milan"],
    ),
}

D, R = "direct", "reverse"
# (item, leg, reply, expected: labels, or None when a careful reader cannot tell, note)
REPLIES: list[tuple[str, str, str, list[str] | None, str]] = [
    ("percent", D, "**Answer:** B", ["B"], "bold answer line"),
    ("percent", D, "The final answer is $\\boxed{B}$.", ["B"], "boxed in dollar math"),
    (
        "percent",
        D,
        "15% of 240 = 0.15 × 240 = 36. So the answer is 36, which is option B.",
        ["B"],
        "value then label",
    ),
    (
        "percent",
        D,
        "0.15*240 = 36\n\nCorrect option: (B) 36",
        ["B"],
        "heading with label and value",
    ),
    (
        "percent",
        R,
        "The incorrect options are A, C, D and E, since only 36 equals 15% of 240.",
        ["A", "C", "D", "E"],
        "reverse list with reason",
    ),
    (
        "percent",
        R,
        "15% of 240 is 36, so the correct answer is B.\n\nAnswer: B",
        None,
        "reverse leg answering the direct question",
    ),
    ("percent", R, "All options except B are incorrect.", ["A", "C", "D", "E"], "exception"),
    (
        "percent",
        R,
        "A, C, D, E are wrong; B (36) is right.",
        ["A", "C", "D", "E"],
        "both sides stated",
    ),
    ("percent", D, "The answer is (C) 40.", ["C"], "a wrong pick with its own text"),
    (
        "percent",
        D,
        "The answer is (C) 36.",
        None,
        "label with another option's value: disagreement",
    ),
    (
        "percent",
        D,
        "Let x be the amount. Then x = 0.15 × 240. Set A = 240 and B",
        None,
        "cut mid-derivation, variable names",
    ),
    (
        "percent",
        R,
        "B is the only correct one (36). Every other option is wrong.",
        ["A", "C", "D", "E"],
        "the rest wrong",
    ),
    (
        "primes",
        D,
        "11 and 17 are prime; 9, 15 and 21 are not.",
        ["B", "D"],
        "option values for labels",
    ),
    (
        "primes",
        D,
        "- A (9): not prime (3×3)\n- B (11): prime\n- C (15): not prime (3×5)\n- D (17): prime\n- E (21): not prime (3×7)\n\nSo the primes are B and D.",
        ["B", "D"],
        "per-option bullets, question's predicate",
    ),
    (
        "primes",
        R,
        "The composite numbers here are 9, 15 and 21, i.e. options A, C and E.",
        ["A", "C", "E"],
        "question's opposite predicate",
    ),
    (
        "primes",
        D,
        "Options B and D.\n\nExplanation: 11 and 17 have no divisors other than 1 and themselves, while A, C and E are divisible by 3.",
        ["B", "D"],
        "answer then explanation naming the others",
    ),
    ("primes", D, "B, D (the others are divisible by 3)", ["B", "D"], "list with parenthetical"),
    (
        "primes",
        D,
        "Let's check each number.\n\nFor option A, 9 = 3 × 3, so it is composite.\nFor option B, 11 is only divisible by 1 and 11, so",
        None,
        "cut before concluding",
    ),
    (
        "primes",
        D,
        "Prime numbers: 11, 17",
        ["B", "D"],
        "heading in the question's predicate, values",
    ),
    ("primes", R, "Not prime: 9, 15, 21", ["A", "C", "E"], "negated predicate heading, values"),
    ("primes", D, "The correct ones are B) 11 and D) 17.", ["B", "D"], "labels with their values"),
    ("red-planet", D, "The Red Planet is Mars (B).", ["B"], "text then label"),
    (
        "red-planet",
        D,
        "Mars is called the Red Planet because of iron oxide on its surface. The answer is Mars.",
        ["B"],
        "answer by name",
    ),
    (
        "red-planet",
        R,
        "Venus, Jupiter and Saturn are not known as the Red Planet, so the incorrect options are A, C and D.",
        ["A", "C", "D"],
        "reverse with names and labels",
    ),
    (
        "red-planet",
        R,
        "The Red Planet is Mars.\n\nAnswer: B",
        None,
        "reverse leg answering the direct question",
    ),
    ("red-planet", D, "I'd go with B.", ["B"], "informal pick"),
    (
        "red-planet",
        D,
        "B) Mars ✔️\nA) Venus ✘\nC) Jupiter ✘\nD) Saturn ✘",
        ["B"],
        "marks, shuffled order",
    ),
    ("red-planet", D, "Answer: (B) Mars", ["B"], "answer line with text"),
    (
        "red-planet",
        D,
        "**B. Mars**\n\nMars appears red because of iron oxide (rust) on its surface. Venus is often the brightest planet, Jupiter is the largest and Saturn has the most prominent rings.",
        ["B"],
        "bold pick first, notes on the others by name",
    ),
    ("mammals", D, "Whales and bats are mammals, so A and C.", ["A", "C"], "predicate then labels"),
    (
        "mammals",
        D,
        "A. Whale - mammal\nB. Shark - fish\nC. Bat - mammal\nD. Penguin - bird\n\nCorrect: A, C",
        ["A", "C"],
        "per-option lines then heading",
    ),
    (
        "mammals",
        R,
        "Sharks are fish and penguins are birds, so B and D are not mammals.",
        ["B", "D"],
        "negated predicate",
    ),
    (
        "mammals",
        R,
        "Incorrect options: B (shark, a fish) and D (penguin, a bird).",
        ["B", "D"],
        "heading with parentheticals",
    ),
    (
        "mammals",
        D,
        "The correct options are A and C. Note that B is a fish and D is a bird.",
        ["A", "C"],
        "note naming the others",
    ),
    (
        "mammals",
        D,
        "A whale is a mammal. A shark is a fish. A bat is a mammal. A penguin is a bird. Therefore the mammals are A and C.",
        ["A", "C"],
        "article 'A' in sentences",
    ),
    (
        "mammals",
        D,
        "Answer: A and C\n\n(B is a cartilaginous fish; D is a flightless bird.)",
        ["A", "C"],
        "answer line then parenthetical note",
    ),
    (
        "mammals",
        R,
        "Whales and bats are mammals. The answer is A, C.",
        None,
        "reverse leg answering the direct question",
    ),
    ("mammals", D, "Correct answers: A & C", ["A", "C"], "ampersand"),
    ("mammals", D, "A/C", ["A", "C"], "slash"),
    (
        "train",
        D,
        "Speed = distance / time = 120 / 2 = 60 km/h.\n\nThe answer is (B) 60 km/h.",
        ["B"],
        "answer with label and value",
    ),
    ("train", D, "Speed = 120/2 = 60 km/h, so the answer is 60 km/h.", ["B"], "answer by value"),
    (
        "train",
        D,
        "\\[ v = \\frac{120}{2} = 60 \\]\n\nTherefore the correct choice is \\(\\boxed{\\text{B}}\\).",
        ["B"],
        "boxed text in inline math",
    ),
    (
        "train",
        R,
        "Only B is right, so the wrong ones are A, C, D, E.",
        ["A", "C", "D", "E"],
        "reverse list",
    ),
    (
        "train",
        R,
        "Speed = 120/2 = 60 km/h, which matches B. So A, C, D and E are incorrect.\n\nAnswer: A, C, D, E",
        ["A", "C", "D", "E"],
        "reverse answer line",
    ),
    (
        "train",
        D,
        "Let me compute: 120 km / 2 h = 60 km/h.\nOption B says 60 km/h, which matches.\nFinal answer: B",
        ["B"],
        "final answer line",
    ),
    ("train", D, "B. 60 km/h", ["B"], "label and text only"),
    ("train", D, "The speed is 60 km/h.\n\nB", ["B"], "label alone on the last line"),
    (
        "capitals",
        D,
        "Madrid and Lisbon are capitals; Barcelona and Milan are not.",
        ["A", "C"],
        "names, predicate",
    ),
    ("capitals", D, "A and C are national capitals.", ["A", "C"], "question's predicate"),
    (
        "capitals",
        R,
        "Barcelona (B) and Milan (D) are not capitals.",
        ["B", "D"],
        "negated predicate, names and labels",
    ),
    ("capitals", D, "A: yes\nB: no\nC: yes\nD: no", ["A", "C"], "yes/no lines"),
    (
        "capitals",
        D,
        "| Option | Capital? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | Yes |\n| D | No |",
        ["A", "C"],
        "table",
    ),
    (
        "capitals",
        D,
        '{"correct": ["A", "C"], "incorrect": ["B", "D"]}',
        ["A", "C"],
        "JSON both keys",
    ),
    ("capitals", R, '{"incorrect_options": ["B", "D"]}', ["B", "D"], "JSON reverse key"),
    (
        "capitals",
        D,
        "Madrid (A) is the capital of Spain, and Lisbon (C) is the capital of Portugal. Barcelona is Catalonia's capital but not a national one, and Milan isn't a capital at all.\n\nSo: A, C.",
        ["A", "C"],
        "reasoning then short conclusion",
    ),
    (
        "capitals",
        D,
        "B and D. Wait, no: Barcelona and Milan are not capitals. The answer is A and C.",
        ["A", "C"],
        "revision",
    ),
]


def main() -> None:
    out = Path(__file__).with_name("holdout.jsonl")
    with out.open("w", encoding="utf-8") as f:
        for n, (key, leg, reply, expected, note) in enumerate(REPLIES, 1):
            question, texts = ITEMS[key]
            record = {
                "id": f"holdout:{n}",
                "source": "holdout-written",
                "dataset": "written",
                "item": {
                    "id": key,
                    "question": question,
                    "candidates": [{"label": chr(65 + i), "text": t} for i, t in enumerate(texts)],
                },
                "polarity": leg,
                "template": None,
                "mitigations": [],
                "reply": reply,
                "expected": expected,
                "note": note,
            }
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(len(REPLIES), "records")


if __name__ == "__main__":
    main()
