"""Write vault.jsonl: 110 hand-written free-text judge replies to multiple-choice items.

A VAULT hold-out set, written blind to the reader (see README.md). Run from anywhere:

    python tests/data/replies/choice-vault/write_vault.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent

ITEMS = {
    "capitals": (
        "Which of these cities are national capitals?",
        ["Paris", "Sydney", "Rome", "Toronto"],
    ),
    "primes": (
        "Which of these numbers are prime?",
        ["21", "23", "27", "29", "33"],
    ),
    "mult-17x6": (
        "What is 17 × 6?",
        ["96", "102", "112", "106"],
    ),
    "mammals": (
        "Which of the following animals are mammals?",
        ["Dolphin", "Shark", "Bat", "Penguin", "Platypus"],
    ),
    "closest-planet": (
        "Which planet is closest to the Sun?",
        ["Venus", "Mercury", "Mars", "Earth"],
    ),
    "noble-gases": (
        "Which of these elements are noble gases?",
        ["Neon", "Nitrogen", "Argon", "Chlorine"],
    ),
    "pride-author": (
        "Who wrote the novel “Pride and Prejudice”?",
        ["Charlotte Brontë", "Jane Austen", "Mary Shelley", "George Eliot", "Emily Dickinson"],
    ),
    "even-results": (
        "Which of these expressions evaluate to an even number?",
        ["3 + 5", "7 × 3", "2^4", "9 − 4", "11 + 1"],
    ),
    "boiling-point": (
        "At sea level, at which temperature does pure water boil?",
        ["90 °C", "100 °C", "212 °F", "273 K"],
    ),
    "fraction-075": (
        "Which of these fractions are equal to 0.75?",
        ["3/4", "6/8", "7/10", "2/3"],
    ),
    "prog-languages": (
        "Which of these are programming languages?",
        ["Python", "HTML", "Rust", "JSON", "Haskell"],
    ),
    "triangle-angle": (
        "Two angles of a triangle measure 50° and 60°. What does the third angle measure?",
        ["60°", "70°", "80°", "90°"],
    ),
    "africa": (
        "Which of these countries lie in Africa?",
        ["Egypt", "Chile", "Kenya", "Portugal"],
    ),
    "energy-units": (
        "Which of these are units of energy?",
        ["joule", "watt", "calorie", "newton", "kilowatt-hour"],
    ),
    "div-by-3": (
        "Which of these numbers are divisible by 3?",
        ["12", "21", "33", "45"],
    ),
}

D, R = "direct", "reverse"
NEG, COT = ["neg_exp"], ["cot"]

# (item, leg, mitigations, expected, note, reply)
# expected: labels the reply concludes for ITS leg (direct: correct; reverse: incorrect),
# [] when it concludes none qualifies, None when a careful reader cannot tell.
RECORDS: list[tuple[str, str, list[str], list[str] | None, str, str]] = [
    # ---------------------------------------------------------------- direct leg
    (
        "capitals",
        D,
        [],
        ["A", "C"],
        "bold header, per-option marks, answer line",
        "**Correct options: A and C**\n\n"
        "- **A) Paris** — capital of France ✅\n"
        "- **B) Sydney** — Australia's largest city, but the capital is Canberra ❌\n"
        "- **C) Rome** — capital of Italy ✅\n"
        "- **D) Toronto** — capital of Ontario, not of Canada (that's Ottawa) ❌\n\n"
        "Answer: A, C",
    ),
    (
        "primes",
        D,
        [],
        ["B", "D"],
        "markdown table then answer line",
        "| Option | Number | Prime? |\n|---|---|---|\n"
        "| A | 21 | No (3 × 7) |\n| B | 23 | Yes |\n| C | 27 | No (3³) |\n"
        "| D | 29 | Yes |\n| E | 33 | No (3 × 11) |\n\n"
        "The prime numbers are 23 and 29.\n\nAnswer: B, D",
    ),
    (
        "mult-17x6",
        D,
        [],
        ["B"],
        "fenced json, no answer line",
        '```json\n{"correct": ["B"], "reasoning": "17 × 6 = 102"}\n```',
    ),
    (
        "mammals",
        D,
        [],
        ["A", "C", "E"],
        "question's predicate, option texts only",
        "Dolphins, bats and platypuses are mammals (the platypus is an egg-laying monotreme, "
        "but still a mammal). Sharks are fish and penguins are birds.\n\n"
        "So the mammals here are the dolphin, the bat and the platypus.",
    ),
    (
        "closest-planet",
        D,
        [],
        ["B"],
        "numbered steps, latex final answer box",
        "Step 1: Recall the order of the planets from the Sun: Mercury, Venus, Earth, Mars.\n"
        "Step 2: The planet closest to the Sun is the first one in that order, Mercury.\n"
        "Step 3: Match with the options. A) Venus is the second planet. B) Mercury is the "
        "first. C) Mars is the fourth. D) Earth is the third.\n\n"
        "**Final Answer**\n\\[\n\\boxed{B}\n\\]",
    ),
    (
        "noble-gases",
        D,
        [],
        ["A", "C"],
        "check marks then boxed list",
        "Noble gases are the group 18 elements: He, Ne, Ar, Kr, Xe, Rn.\n\n"
        "- Neon (Ne): group 18 ✓\n- Nitrogen (N): group 15\n"
        "- Argon (Ar): group 18 ✓\n- Chlorine (Cl): group 17 (a halogen)\n\n"
        "The final answer is $\\boxed{A, C}$",
    ),
    (
        "pride-author",
        D,
        [],
        ["B"],
        "text then label in parentheses, other texts named",
        "That would be Jane Austen (B) — the novel was published in 1813. Charlotte Brontë "
        "wrote *Jane Eyre*, Mary Shelley wrote *Frankenstein*, George Eliot wrote "
        "*Middlemarch*, and Emily Dickinson was a poet.\n\nAnswer: B",
    ),
    (
        "triangle-angle",
        D,
        [],
        ["B"],
        "variables named A B C in the derivation",
        "Let the angles be A = 50°, B = 60° and C the unknown one. Since A + B + C = 180°, "
        "C = 180° − 50° − 60° = 70°.\n\nThe third angle is 70°, which is option B.",
    ),
    (
        "boiling-point",
        D,
        [],
        ["B", "C"],
        "answer line then note naming other options",
        "At standard atmospheric pressure water boils at 100 °C, which is the same "
        "temperature as 212 °F. So both **B** and **C** are correct.\n\nAnswer: B, C\n\n"
        "Note: 273 K is roughly the *freezing* point (0 °C), and 90 °C would only apply at "
        'high altitude (around 3,000 m), which the question rules out with "at sea level".',
    ),
    (
        "fraction-075",
        D,
        [],
        ["A", "B"],
        "ampersand list",
        "3/4 = 0.75 and 6/8 reduces to 3/4 = 0.75. 7/10 = 0.7, 2/3 ≈ 0.667.\nCorrect: A & B",
    ),
    (
        "prog-languages",
        D,
        [],
        ["A", "C", "E"],
        "prose then answer line",
        "Python, Rust and Haskell are clearly programming languages. HTML is a markup "
        "language and JSON is a data format, so neither is a programming language in the "
        "usual sense.\n\nAnswer: A, C, E",
    ),
    (
        "africa",
        D,
        [],
        ["A", "C"],
        "slash list",
        "Egypt and Kenya are African countries; Chile is in South America and Portugal is "
        "in Europe.\n\nAnswer: A/C",
    ),
    (
        "energy-units",
        D,
        [],
        ["A", "C"],
        "restated options, judge mistaken on E",
        "A) joule - unit of energy\nB) watt - unit of power\nC) calorie - unit of energy\n"
        "D) newton - unit of force\nE) kilowatt-hour - unit of power\n\nAnswer: A, C",
    ),
    (
        "div-by-3",
        D,
        [],
        None,
        "cut by token limit mid-check",
        "To check divisibility by 3, we add the digits of each number.\n\n"
        "A) 12: 1 + 2 = 3, divisible by 3.\nB) 21: 2 + 1 = 3, divisible by 3.\n"
        "C) 33: 3 + ",
    ),
    (
        "capitals",
        D,
        [],
        ["A", "C"],
        "parenthesised labels run together",
        "Paris is the capital of France and Rome is the capital of Italy. Sydney and "
        "Toronto are not the capitals of their countries.\nAnswer: (A)(C)",
    ),
    (
        "primes",
        D,
        [],
        ["B", "D"],
        "self-correction, second answer line",
        "Checking each number: 21 = 3×7 (not prime), 23 is prime, 27 = 3×9 (not prime), "
        "29 is prime, 33 = 3×11 (not prime).\n\nAnswer: B, D, E\n\n"
        "Wait — 33 is divisible by 3, so E is not prime. Correcting myself:\n\nAnswer: B, D",
    ),
    (
        "mult-17x6",
        D,
        [],
        None,
        "answer line contradicts the sentence before",
        "17 × 6 = 17 × 5 + 17 = 85 + 17 = 102. So the correct option is B.\nAnswer: D",
    ),
    (
        "mammals",
        D,
        [],
        ["A", "C", "E"],
        "bullets with bold status words, no answer line",
        "- A) Dolphin: **correct** – a marine mammal\n"
        "- B) Shark: incorrect – a cartilaginous fish\n"
        "- C) Bat: **correct** – the only mammal capable of true flight\n"
        "- D) Penguin: incorrect – a flightless bird\n"
        "- E) Platypus: **correct** – a monotreme: it lays eggs but is a mammal",
    ),
    (
        "closest-planet",
        D,
        [],
        ["B"],
        "bare json object",
        '{"answer": "B", "explanation": "Mercury orbits closest to the Sun, at about 0.39 AU."}',
    ),
    (
        "noble-gases",
        D,
        [],
        ["A", "C"],
        "'go with' and option texts",
        "I'd go with neon and argon — both sit in group 18 and have full valence shells. "
        "Nitrogen and chlorine are reactive nonmetals.",
    ),
    (
        "pride-author",
        D,
        [],
        ["B"],
        "repeated identical answer lines",
        "Pride and Prejudice was written by Jane Austen.\nAnswer: B\nAnswer: B",
    ),
    (
        "even-results",
        D,
        [],
        ["A", "C", "E"],
        "inline check marks, 'my choice'",
        "3+5=8 ✔, 7×3=21 ✘, 2^4=16 ✔, 9−4=5 ✘, 11+1=12 ✔\n\nMy choice: A, C, E",
    ),
    (
        "boiling-point",
        D,
        [],
        ["B", "C"],
        "answer line, then widened final answer",
        "Answer: B\n\nHmm, I should include C as well, since 212 °F is exactly 100 °C.\n\n"
        "Final answer: B, C",
    ),
    (
        "fraction-075",
        D,
        [],
        ["A", "B"],
        "numbered lines of label and text",
        "The correct options are:\n1. A) 3/4\n2. B) 6/8\n\nBoth are equal to 0.75.",
    ),
    (
        "prog-languages",
        D,
        [],
        ["A", "C", "E"],
        "'the right ones would be', others named",
        "The right ones would be Python (A), Rust (C) and Haskell (E). HTML (B) describes the "
        "structure of a document and JSON (D) is a data-interchange format; neither is a "
        "programming language.",
    ),
    (
        "triangle-angle",
        D,
        [],
        ["B"],
        "boxed option text",
        "The angles of a triangle sum to 180°. 180° − 50° − 60° = 70°.\n\n$\\boxed{70^\\circ}$",
    ),
    (
        "africa",
        D,
        [],
        ["A", "C"],
        "label — text lines with yes/no",
        "A — Egypt: yes, North Africa\nB — Chile: no\nC — Kenya: yes, East Africa\n"
        "D — Portugal: no\n\nSo: A and C.",
    ),
    (
        "energy-units",
        D,
        [],
        ["A", "C", "E"],
        "bold lead then caveat naming other options",
        "**Units of energy:** A (joule), C (calorie), E (kilowatt-hour).\n\n"
        "The watt (B) is a unit of *power* (J/s) and the newton (D) is a unit of *force*. "
        "Note that the kilowatt-hour is often mistaken for a unit of power, but it is power "
        "× time, i.e. energy (3.6 MJ).\n\nAnswer: A, C, E",
    ),
    (
        "div-by-3",
        D,
        [],
        ["A", "B", "C", "D"],
        "lowercase 'answer: all of them'",
        "12, 21, 33 and 45 all have digit sums divisible by 3.\nanswer: all of them",
    ),
    (
        "mult-17x6",
        D,
        [],
        [],
        "miscalculation, concludes none",
        "17 × 6 = 108. None of the listed options (96, 102, 112, 106) equals 108, so none of "
        "them is correct.\n\nAnswer: none",
    ),
    (
        "primes",
        D,
        [],
        ["B", "D"],
        "space-separated labels",
        "23 and 29 are prime numbers, the rest are divisible by 3.\nAnswer: B D",
    ),
    (
        "mammals",
        D,
        [],
        ["A", "C", "E"],
        "answer first, explanation names B and D after",
        "Answer: A, C, E\n\nExplanation:\n"
        "- Dolphins are marine mammals that breathe air and nurse their young.\n"
        "- Bats are mammals; they are the only mammals capable of sustained flight.\n"
        "- The platypus is one of the few egg-laying mammals (monotremes).\n"
        "- Sharks (B) are fish and penguins (D) are birds, so B and D are not mammals.",
    ),
    (
        "closest-planet",
        D,
        [],
        None,
        "cut by token limit mid-comparison",
        "To determine which planet is closest to the Sun, let's recall the average orbital "
        "distances:\n- Mercury: about 57.9 million km\n- Venus: about 108.2 million km\n"
        "- Earth: about 149.6 million km\n- Mars: about 227.9 million km\n\n"
        "Now let's compare these distances with the options given. Option A is Venus, "
        "which is at 108.2 million km. Option B is",
    ),
    (
        "noble-gases",
        D,
        [],
        ["A", "C"],
        "'Selected:' bold labels",
        "Neon (A) and argon (C) are noble gases (group 18); nitrogen and chlorine are not.\n\n"
        "Selected: **A, C**",
    ),
    (
        "pride-author",
        D,
        [],
        ["B"],
        "bold option text only",
        "**Jane Austen** wrote *Pride and Prejudice* (1813).",
    ),
    (
        "even-results",
        D,
        [],
        None,
        "several differing answer lines",
        "3+5 = 8 even\n7*3 = 21 odd\n2^4 = 16 even\n9-4 = 5 odd\n11+1 = 12 even\n"
        "Answer: A, C\nAnswer: A, C, E\nAnswer: C, E",
    ),
    (
        "boiling-point",
        D,
        [],
        ["B", "C"],
        "table with marks, bold conclusion",
        "| | Temperature | Boiling point at sea level? |\n|---|---|---|\n"
        "| A | 90 °C | ✗ |\n| B | 100 °C | ✓ |\n| C | 212 °F | ✓ (= 100 °C) |\n"
        "| D | 273 K | ✗ (≈ 0 °C, the freezing point) |\n\n**Correct: B and C**",
    ),
    (
        "fraction-075",
        D,
        [],
        ["A", "B"],
        "'I'd pick' with rejected options named",
        "I'd pick A and B: 3/4 is exactly 0.75, and 6/8 simplifies to 3/4. C (7/10 = 0.70) "
        "and D (2/3 ≈ 0.667) are close but not equal.",
    ),
    (
        "prog-languages",
        D,
        [],
        None,
        "hedged answer line (and possibly B)",
        "Python, Rust and Haskell are programming languages for sure. Whether HTML counts "
        "depends on your definition — it is not Turing-complete, so most people would say "
        "no, but some include it. JSON is definitely not a language.\n\n"
        "Answer: A, C, E (and possibly B)",
    ),
    (
        "triangle-angle",
        D,
        [],
        ["B"],
        "answer line with option text",
        "Sum = 180. 50 + 60 = 110. 180 - 110 = 70.\n\nAnswer: 70°",
    ),
    (
        "africa",
        D,
        [],
        ["A", "C"],
        "bold texts, parenthetical caveat",
        "Both **Egypt** and **Kenya** are in Africa. (Egypt also extends into Asia through "
        "the Sinai Peninsula, but it is still an African country.) Chile and Portugal are "
        "not.\n\nAnswer: A, C",
    ),
    (
        "energy-units",
        D,
        [],
        ["A", "C", "E"],
        "several boxed labels",
        "Energy units: joule (J), calorie (cal), kilowatt-hour (kWh). The watt is J/s and "
        "the newton is kg·m/s².\n\nThe correct options are \\boxed{A}, \\boxed{C}, and "
        "\\boxed{E}.",
    ),
    (
        "div-by-3",
        D,
        [],
        ["A", "B", "C", "D"],
        "every label, every one justified",
        "A, B, C, D — every option is divisible by 3 (12 = 3·4, 21 = 3·7, 33 = 3·11, 45 = 3·15).",
    ),
    (
        "capitals",
        D,
        [],
        ["A", "C"],
        "restated options, answer line with texts",
        "A) Paris - capital of France\nB) Sydney - not a capital\nC) Rome - capital of Italy\n"
        "D) Toronto - not a capital\n\nAnswer: A) Paris, C) Rome",
    ),
    (
        "primes",
        D,
        [],
        ["B", "D"],
        "bold numbers only",
        "Only **23** and **29** are prime; 21, 27 and 33 are all multiples of 3.",
    ),
    (
        "mult-17x6",
        D,
        [],
        None,
        "hedge between two labels",
        "17 × 6 = (10 × 6) + (7 × 6) = 60 + 42 = 102. Hmm, but I might have slipped "
        "somewhere, so it could also be 106.\n\nAnswer: B or D",
    ),
    (
        "mammals",
        D,
        [],
        ["A", "C", "E"],
        "lowercase labels in prose",
        "dolphins, bats and platypuses feed their young with milk, so the mammals are a, c and e.",
    ),
    (
        "closest-planet",
        D,
        [],
        ["B"],
        "bold answer first, misconception note names A",
        "**B) Mercury**\n\nMercury orbits at about 0.39 AU. A common misconception is Venus "
        "(A), which is the *hottest* planet, but not the closest one.",
    ),
    (
        "pride-author",
        D,
        [],
        ["B"],
        "'The answer is (B)', explanation names others",
        "The answer is (B) Jane Austen.\n\nExplanation: Jane Austen wrote Pride and Prejudice "
        "in 1813. Charlotte Brontë (A) wrote Jane Eyre, Mary Shelley (C) wrote Frankenstein, "
        "George Eliot (D) wrote Middlemarch and Emily Dickinson (E) wrote poetry.",
    ),
    (
        "even-results",
        D,
        [],
        ["A", "C", "E"],
        "mid-list self-correction",
        "A: 8 — even. B: 21 — even. No wait, 21 is odd. C: 16 — even. D: 5 — odd. "
        "E: 12 — even.\nSo the even results are A, C and E.",
    ),
    (
        "boiling-point",
        D,
        [],
        ["B", "C"],
        "semicolon list, uppercase ANSWER",
        "Water boils at 100 degrees Celsius at sea level, which is 212 degrees Fahrenheit.\n"
        "ANSWER: B; C",
    ),
    (
        "fraction-075",
        D,
        [],
        ["A"],
        "marks per option, judge miscomputes B",
        "A) 3/4 = 0.75 ✓\nB) 6/8 ≈ 0.8 ✗\nC) 7/10 = 0.7 ✗\nD) 2/3 ≈ 0.67 ✗\n\nAnswer: A",
    ),
    (
        "prog-languages",
        D,
        [],
        ["A", "C", "E"],
        "json objects with label and text",
        '{"correct_options": [{"label": "A", "text": "Python"}, {"label": "C", "text": '
        '"Rust"}, {"label": "E", "text": "Haskell"}]}',
    ),
    (
        "africa",
        D,
        [],
        None,
        "cut by token limit after two options",
        "Let's consider each country:\n\nA) Egypt - Egypt is located in North Africa, "
        "bordering the Mediterranean Sea. It is an African country.\n"
        "B) Chile - Chile is in South America, so it is not in Africa.\nC) Kenya - Kenya is",
    ),
    (
        "energy-units",
        D,
        [],
        ["A", "C", "E"],
        "unsorted labels, 'I'll select'",
        "Joule, calorie and kilowatt-hour all measure energy; watt measures power and newton "
        "measures force. I'll select C, A and E.",
    ),
    # --------------------------------------------------------------- reverse leg
    (
        "capitals",
        R,
        [],
        ["B", "D"],
        "bold header, bullets, correct ones named after",
        "**Incorrect options: B and D**\n\n"
        "- B) Sydney — not a capital (Australia's capital is Canberra)\n"
        "- D) Toronto — not a capital (Canada's capital is Ottawa)\n\n"
        "A) Paris and C) Rome are both national capitals.\n\nAnswer: B, D",
    ),
    (
        "primes",
        R,
        NEG,
        ["A", "C", "E"],
        "table with an 'Incorrect?' column",
        "| Option | Number | Prime | Incorrect? |\n|---|---|---|---|\n"
        "| A | 21 | no | yes |\n| B | 23 | yes | no |\n| C | 27 | no | yes |\n"
        "| D | 29 | yes | no |\n| E | 33 | no | yes |\n\nAnswer: A, C, E",
    ),
    (
        "mult-17x6",
        R,
        [],
        None,
        "reverse leg answers the direct question",
        "17 × 6 = 102. The correct answer is B.\nAnswer: B",
    ),
    (
        "mammals",
        R,
        COT,
        ["B", "D"],
        "step by step, conclusion sentence and answer line",
        "Let's think step by step. A dolphin is a mammal. A shark is a fish, so it's not a "
        "mammal. A bat is a mammal. A penguin is a bird, not a mammal. A platypus is a "
        "mammal even though it lays eggs.\nSo the incorrect options are B and D.\n"
        "Answer: B, D",
    ),
    (
        "closest-planet",
        R,
        NEG,
        ["A", "C", "D"],
        "names the correct one, then the rest",
        "The correct option is B (Mercury). The incorrect ones are therefore A, C and D.\n\n"
        "Answer: A, C, D",
    ),
    (
        "noble-gases",
        R,
        [],
        ["B", "D"],
        "fenced json 'incorrect' key",
        '```json\n{"incorrect": ["B", "D"]}\n```',
    ),
    (
        "pride-author",
        R,
        [],
        ["A", "C", "D", "E"],
        "option texts only",
        "The incorrect options are Charlotte Brontë, Mary Shelley, George Eliot and Emily "
        "Dickinson — only Jane Austen wrote *Pride and Prejudice*.",
    ),
    (
        "even-results",
        R,
        COT,
        ["B", "D"],
        "label: arithmetic → parity lines",
        "Let's think step by step.\nA: 3 + 5 = 8 → even\nB: 7 × 3 = 21 → odd\n"
        "C: 2^4 = 16 → even\nD: 9 − 4 = 5 → odd\nE: 11 + 1 = 12 → even\n"
        "The options that do not evaluate to an even number are B and D.\nAnswer: B, D",
    ),
    (
        "boiling-point",
        R,
        [],
        ["A", "D"],
        "status word for every option, no answer line",
        "- A) 90 °C — incorrect\n- B) 100 °C — correct\n- C) 212 °F — correct\n"
        "- D) 273 K — incorrect (that's about the freezing point)",
    ),
    (
        "fraction-075",
        R,
        [],
        ["C", "D"],
        "'options not equal to' predicate",
        "The options not equal to 0.75 are C (0.7) and D (≈0.667).",
    ),
    (
        "prog-languages",
        R,
        NEG,
        ["B", "D"],
        "'Incorrect:' labels with texts, answer line",
        "Incorrect: B (HTML) and D (JSON). HTML is a markup language and JSON is a data "
        "format.\n\nAnswer: B, D",
    ),
    (
        "triangle-angle",
        R,
        COT,
        None,
        "answer line contradicts the sentence before",
        "Let's think step by step. The sum of the angles in a triangle is 180°. "
        "180 − 50 − 60 = 70. So the third angle is 70°, which is option B. The incorrect "
        "options are A, C and D.\nAnswer: B",
    ),
    (
        "africa",
        R,
        [],
        ["B", "D"],
        "text then label, 'so they're the incorrect options'",
        "Chile (B) and Portugal (D) are not in Africa, so they're the incorrect options.",
    ),
    (
        "energy-units",
        R,
        [],
        ["B", "D"],
        "table with status column, then labels",
        "| Unit | Quantity | Status |\n|---|---|---|\n| A) joule | energy | correct |\n"
        "| B) watt | power | **incorrect** |\n| C) calorie | energy | correct |\n"
        "| D) newton | force | **incorrect** |\n| E) kilowatt-hour | energy | correct |\n\n"
        "Incorrect options: B, D",
    ),
    (
        "div-by-3",
        R,
        [],
        [],
        "boxed None",
        "Every option is divisible by 3, so there are no incorrect options.\n\n"
        "$\\boxed{\\text{None}}$",
    ),
    (
        "mammals",
        R,
        [],
        [],
        "judge confuses predicate, concludes none incorrect",
        "Dolphin, shark, bat, penguin and platypus are all animals with a backbone, so all "
        "of them fit. There are no incorrect options.\nAnswer: None",
    ),
    (
        "primes",
        R,
        COT,
        None,
        "cut by token limit mid-derivation",
        "Let's think step by step.\n\nA prime number is a number greater than 1 that has no "
        "positive divisors other than 1 and itself.\n\nFirst, 21. We check divisibility: "
        "21 ÷ 3 = 7, so 21 is not prime. Therefore option A is incorrect.\n\nNext, 23. We "
        "check divisibility by 2 and 3: 23 ÷ 2 = 11.5, 23 ÷ 3 ≈ 7.67. Since √23 < 5, 23 is "
        "prime, so option B is correct.\n\nNext, 27. 27 ÷ 3 = 9, so 27 is",
    ),
    (
        "mult-17x6",
        R,
        NEG,
        ["A", "C", "D"],
        "echoes the reminder, labels with texts",
        "Recall: the incorrect options are simply those different from the correct one. "
        "17 × 6 = 102 (B). Incorrect: A) 96, C) 112, D) 106.",
    ),
    (
        "closest-planet",
        R,
        [],
        ["A", "C", "D"],
        "plain line and bold answer line",
        "Incorrect options: A, C, D.\n\n**Answer: A, C, D**",
    ),
    (
        "noble-gases",
        R,
        [],
        ["B", "D"],
        "parenthesised labels run together",
        "Nitrogen and chlorine are not noble gases.\nAnswer: (B)(D)",
    ),
    (
        "pride-author",
        R,
        [],
        ["A", "C", "D", "E"],
        "bold answer first, note names A after",
        "**Answer: A, C, D, E**\n\nOnly Jane Austen (B) wrote *Pride and Prejudice*. Note: "
        "Charlotte Brontë (A) is sometimes confused with Austen since both wrote "
        "19th-century English novels, but her best-known work is *Jane Eyre*.",
    ),
    (
        "even-results",
        R,
        [],
        ["B", "D"],
        "'Wrong ones:' with reasons",
        "Wrong ones: B (21 is odd) and D (5 is odd).",
    ),
    (
        "boiling-point",
        R,
        [],
        None,
        "hedged answer line (and possibly C)",
        "A is definitely incorrect. D (273 K) is the freezing point, so it's incorrect too. "
        "As for C, 212 °F equals 100 °C, but if the question expects a Celsius value, C "
        "might be considered incorrect as well.\n\nAnswer: A, D (and possibly C)",
    ),
    (
        "fraction-075",
        R,
        NEG,
        ["C", "D"],
        "restates the reminder, derives from correct ones",
        "Incorrect options are options different from correct ones. The correct ones are A "
        "and B since 3/4 = 6/8 = 0.75. So incorrect options: C, D\nAnswer: C, D",
    ),
    (
        "prog-languages",
        R,
        [],
        None,
        "reverse leg answers the direct question",
        "The programming languages among the options are Python, Rust and Haskell.\n\n"
        "Answer: A, C, E",
    ),
    (
        "triangle-angle",
        R,
        [],
        ["A", "C", "D"],
        "option texts, label in parentheses after",
        "The third angle is 180° − 110° = 70°, not any of the others. So 60° (A), 80° (C) and "
        "90° (D) are incorrect.",
    ),
    (
        "africa",
        R,
        COT,
        ["B", "D"],
        "long step-by-step, 'B and D' answer line",
        "Let's think step by step.\n1. Egypt is in the north-east of Africa, so it lies in "
        "Africa.\n2. Chile is a long country on the west coast of South America.\n"
        "3. Kenya is in East Africa, on the equator.\n4. Portugal is in south-western Europe, "
        "on the Iberian Peninsula.\nThe countries that do not lie in Africa are Chile and "
        "Portugal.\nAnswer: B and D",
    ),
    (
        "energy-units",
        R,
        [],
        ["B", "D"],
        "option texts only, with reasons",
        "The incorrect ones are the watt and the newton: a watt measures power and a newton "
        "measures force.",
    ),
    (
        "div-by-3",
        R,
        NEG,
        [],
        "json with an empty list",
        'All four numbers are divisible by 3.\n\n{"incorrect_options": []}',
    ),
    (
        "capitals",
        R,
        [],
        ["B", "D"],
        "both lists given, 'Correct:' line first",
        "Correct: A, C\nIncorrect: B, D",
    ),
    (
        "primes",
        R,
        [],
        ["A", "C", "E"],
        "space-separated labels",
        "21, 27 and 33 are composite.\nAnswer: A C E",
    ),
    (
        "mammals",
        R,
        NEG,
        ["B", "D"],
        "cross-mark bullets, mammals named after",
        'Since "incorrect" here just means "not a mammal":\n\n'
        "- ❌ **B) Shark** — a fish\n- ❌ **D) Penguin** — a bird\n\n"
        "The dolphin, bat and platypus are all mammals.",
    ),
    (
        "closest-planet",
        R,
        COT,
        None,
        "cut by token limit before listing",
        "Let's think step by step. The planets in order from the Sun are Mercury, Venus, "
        "Earth, Mars, Jupiter, Saturn, Uranus and Neptune. The closest planet to the Sun is "
        "Mercury. So the correct answer is Mercury. Now we need to find the incorrect ones. "
        "The incorrect options are the ones that are not Mercury. Option A is Venus, which is "
        "not Mercury, so",
    ),
    (
        "noble-gases",
        R,
        [],
        ["B", "D"],
        "arrow to bold ampersand list",
        "Nitrogen (group 15) and chlorine (group 17, a halogen) are not noble gases → **B & D**",
    ),
    (
        "pride-author",
        R,
        [],
        ["A", "C", "D", "E"],
        "lowercase labels in prose",
        "only jane austen wrote it, so the incorrect options are a, c, d and e.",
    ),
    (
        "even-results",
        R,
        [],
        ["B", "D"],
        "slash list",
        "7 × 3 = 21 and 9 − 4 = 5 are odd.\nAnswer: B/D",
    ),
    (
        "boiling-point",
        R,
        NEG,
        ["A", "D"],
        "long sentence with texts after labels",
        "Following the reminder that incorrect options are simply those that differ from the "
        "correct ones: water boils at 100 °C at sea level, which is B, and 212 °F (C) is the "
        "same temperature. So the incorrect options are A) 90 °C and D) 273 K.",
    ),
    (
        "fraction-075",
        R,
        COT,
        ["C", "D"],
        "self-correction inside derivation",
        "Let's think step by step. 3/4 = 0.75. 6/8 = 0.75. 7/10 = 0.75? No, 7/10 = 0.7. "
        "2/3 = 0.666... So C and D are not equal to 0.75.\nAnswer: C, D",
    ),
    (
        "prog-languages",
        R,
        [],
        ["B", "D"],
        "per-text marks, texts in conclusion",
        "- Python ✓\n- HTML ✗\n- Rust ✓\n- JSON ✗\n- Haskell ✓\n\nIncorrect: HTML, JSON",
    ),
    (
        "triangle-angle",
        R,
        [],
        ["A", "C", "D"],
        "variables named A B C in the derivation",
        "Let A = 50°, B = 60°, and C be the third angle. Then C = 180° − A − B = 70°. The "
        "option equal to 70° is B, so the incorrect options are A, C and D.\n\n"
        "Answer: A, C, D",
    ),
    (
        "africa",
        R,
        [],
        ["B", "D"],
        "status for every option in predicate words",
        "A) Egypt — in Africa\nB) Chile — not in Africa\nC) Kenya — in Africa\n"
        "D) Portugal — not in Africa",
    ),
    (
        "energy-units",
        R,
        COT,
        None,
        "answer line contradicts the sentence before",
        "Let's think step by step. A joule is the SI unit of energy. A watt is one joule per "
        "second, a unit of power. A calorie is about 4.184 joules, a unit of energy. A newton "
        "is a unit of force. A kilowatt-hour is 3.6 million joules, a unit of energy. "
        "Therefore the incorrect options are B and D.\nAnswer: B, D, E",
    ),
    (
        "div-by-3",
        R,
        [],
        None,
        "reverse leg answers the direct question (all)",
        "12 ÷ 3 = 4, 21 ÷ 3 = 7, 33 ÷ 3 = 11, 45 ÷ 3 = 15. All of them are divisible by 3.\n"
        "Answer: A, B, C, D",
    ),
    (
        "capitals",
        R,
        NEG,
        ["B", "D"],
        "texts with labels in parentheses",
        "Sydney (B) and Toronto (D). Australia's capital is Canberra and Canada's is Ottawa, "
        "while Paris and Rome are capitals.",
    ),
    (
        "primes",
        R,
        [],
        ["A", "C", "E"],
        "self-correction, 'Updated:' line",
        "Incorrect: A, C.\n\nWait, I missed 33 = 3 × 11, which is also composite. "
        "Updated: A, C, E.",
    ),
    (
        "mammals",
        R,
        [],
        ["B", "D"],
        "answer then note naming another option",
        "Incorrect ones: B, D\n\nNote: the platypus (E) is sometimes wrongly thought not to be "
        "a mammal because it lays eggs; it is a mammal.",
    ),
    (
        "closest-planet",
        R,
        [],
        ["A", "C", "D"],
        "numbered texts with ')' numbering",
        "The incorrect ones:\n1) Venus\n2) Mars\n3) Earth",
    ),
    (
        "noble-gases",
        R,
        [],
        ["B", "D"],
        "labels first, caveat after",
        "B and D are the incorrect ones. (Caveat: nitrogen is fairly inert as N₂, but it is "
        "not a noble gas.)",
    ),
    (
        "pride-author",
        R,
        COT,
        ["A", "C", "D", "E"],
        "per-author steps, boxed list",
        "Let's think step by step.\nCharlotte Brontë wrote Jane Eyre.\nJane Austen wrote "
        "Pride and Prejudice.\nMary Shelley wrote Frankenstein.\nGeorge Eliot wrote "
        "Middlemarch.\nEmily Dickinson wrote poems.\nSo every author except Jane Austen is "
        "incorrect.\n\n$$\\boxed{A, C, D, E}$$",
    ),
    (
        "even-results",
        R,
        [],
        None,
        "reverse leg answers the direct question",
        "The expressions that give an even number are A (8), C (16) and E (12).",
    ),
    (
        "boiling-point",
        R,
        [],
        None,
        "several differing answer lines",
        "Answer: A, D\nAnswer: A\nAnswer: A, C, D",
    ),
    (
        "fraction-075",
        R,
        [],
        ["C", "D"],
        "bold labels",
        "7/10 and 2/3 do not equal 0.75, so the incorrect ones are **C** and **D**.",
    ),
    (
        "div-by-3",
        R,
        [],
        [],
        "status for every option, none incorrect",
        "A) 12 — correct\nB) 21 — correct\nC) 33 — correct\nD) 45 — correct",
    ),
    (
        "capitals",
        R,
        COT,
        ["B", "D"],
        "long step-by-step, 'Therefore' and answer line",
        "Let's think step by step.\nFirst, Paris is the capital city of France.\nSecond, "
        "Sydney is a big city in Australia but the capital of Australia is Canberra.\n"
        "Third, Rome is the capital city of Italy.\nFourth, Toronto is a big city in Canada "
        "but the capital of Canada is Ottawa.\nTherefore, the incorrect options are B and "
        "D.\nAnswer: B and D",
    ),
    (
        "mult-17x6",
        R,
        [],
        ["A", "C", "D"],
        "option texts (numbers) only",
        "17 × 6 = 102, so the incorrect options are 96, 112 and 106.",
    ),
]


def record(n: int, entry: tuple) -> dict:
    item_id, leg, mitigations, expected, note, reply = entry
    question, texts = ITEMS[item_id]
    labels = "ABCDE"[: len(texts)]
    if expected is not None:
        assert all(label in labels for label in expected), (n, expected)
        expected = sorted(expected)
    return {
        "id": f"vault:{n}",
        "source": "vault-written",
        "dataset": "written",
        "item": {
            "id": item_id,
            "question": question,
            "candidates": [{"label": lab, "text": t} for lab, t in zip(labels, texts, strict=True)],
        },
        "polarity": leg,
        "template": None,
        "mitigations": list(mitigations),
        "reply": reply,
        "expected": expected,
        "note": note,
    }


def main() -> None:
    records = [record(n, entry) for n, entry in enumerate(RECORDS, start=1)]
    with (HERE / "vault.jsonl").open("w", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    legs = Counter(r["polarity"] for r in records)
    kinds = Counter(
        (
            r["polarity"],
            "null"
            if r["expected"] is None
            else "[]"
            if not r["expected"]
            else "one"
            if len(r["expected"]) == 1
            else "several",
        )
        for r in records
    )
    mits = Counter((r["polarity"], "+".join(r["mitigations"]) or "none") for r in records)
    items = Counter(r["item"]["id"] for r in records)
    print(len(records), dict(legs))
    print(dict(sorted(kinds.items())))
    print(dict(sorted(mits.items())))
    print(len(items), dict(items))


if __name__ == "__main__":
    main()
