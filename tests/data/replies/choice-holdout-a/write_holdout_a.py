"""Write holdout-a.jsonl: 100 hand-written judge replies to choice items (set A).

Written blind (without reading the reader, its tests or the other reply corpora) in the
styles of frontier chat models acting as judges. ``expected`` is the set of labels a careful
reader takes the reply to conclude for its own leg's question (direct: the correct ones;
reverse: the incorrect ones), ``[]`` for "none qualifies", ``None`` when a careful reader
cannot tell. Run from anywhere: ``python write_holdout_a.py``.
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def opts(*texts: str) -> list[dict[str, str]]:
    return [{"label": "ABCDE"[i], "text": t} for i, t in enumerate(texts)]


ITEMS = {
    "capitals": (
        "Which of these cities are national capitals?",
        opts("Paris", "Sydney", "Rome", "Toronto"),
    ),
    "primes": ("Which of these numbers are prime?", opts("21", "23", "27", "29", "31")),
    "square": ("What is 6 × 6?", opts("30", "36", "42", "48")),
    "planets": (
        "Which of these are planets of the Solar System?",
        opts("Pluto", "Mars", "Ceres", "Neptune", "Titan"),
    ),
    "boiling": (
        "At sea level, at what temperature in degrees Celsius does pure water boil?",
        opts("90", "100", "110", "212"),
    ),
    "mammals": ("Which of these animals are mammals?", opts("Dolphin", "Shark", "Bat", "Penguin")),
    "austen": (
        'Who wrote "Pride and Prejudice"?',
        opts("Charlotte Brontë", "Jane Austen", "Mary Shelley", "George Eliot"),
    ),
    "halves": (
        "Which of these fractions are equal to 1/2?",
        opts("2/4", "3/5", "4/8", "5/10", "6/10"),
    ),
    "percent": ("What is 15% of 80?", opts("10", "12", "15", "18")),
    "noble": (
        "Which of these elements are noble gases?",
        opts("Neon", "Nitrogen", "Argon", "Oxygen", "Helium"),
    ),
    "africa": ("Which of these countries are in Africa?", opts("Kenya", "Peru", "Egypt", "Chile")),
    "grammar": (
        "Which sentence is grammatically correct in standard English?",
        opts(
            "She don't like it.",
            "She doesn't like it.",
            "She not like it.",
            "She doesn't likes it.",
        ),
    ),
    "div3": ("Which of these numbers are divisible by 3?", opts("12", "14", "21", "25", "30")),
    "triangle": (
        "A triangle has angles of 50° and 60°. What is its third angle?",
        opts("60°", "70°", "80°", "90°"),
    ),
    "even": ("Which of these numbers are even?", opts("3", "7", "11", "15")),
}

# (item, polarity, mitigations, reply, expected, note)
D, R = "direct", "reverse"
NEG, COT = ["neg_exp"], ["cot"]

REPLIES = [
    # ---------------------------------------------------------------- direct legs (55)
    (
        "capitals",
        D,
        [],
        "## Analysis\n\n"
        "- **A) Paris** ✅ — capital of France.\n"
        "- **B) Sydney** ❌ — the capital of Australia is Canberra.\n"
        "- **C) Rome** ✅ — capital of Italy.\n"
        "- **D) Toronto** ❌ — the capital of Canada is Ottawa.\n\n"
        "**Final answer:** A, C",
        ["A", "C"],
        "markdown checkmarks + bold final answer",
    ),
    (
        "capitals",
        D,
        [],
        "Paris and Rome are national capitals; Sydney and Toronto are not. Sydney is often "
        "mistaken for Australia's capital, but that is Canberra, and Canada's is Ottawa.",
        ["A", "C"],
        "question's predicate with option texts",
    ),
    (
        "primes",
        D,
        [],
        '```json\n{"correct": ["B", "D", "E"]}\n```',
        ["B", "D", "E"],
        "json correct list in fence",
    ),
    (
        "primes",
        D,
        [],
        '{"A": false, "B": true, "C": false, "D": true, "E": true}',
        ["B", "D", "E"],
        "json label->bool map",
    ),
    ("square", D, [], "6 × 6 = 36. The answer is 36.", ["B"], "option text instead of label"),
    ("square", D, [], "B", ["B"], "bare label"),
    (
        "planets",
        D,
        [],
        "| Option | Verdict |\n|---|---|\n"
        "| A) Pluto | Incorrect — reclassified as a dwarf planet in 2006 |\n"
        "| B) Mars | Correct |\n"
        "| C) Ceres | Incorrect — dwarf planet in the asteroid belt |\n"
        "| D) Neptune | Correct |\n"
        "| E) Titan | Incorrect — a moon of Saturn |\n\n"
        "Answer: B, D",
        ["B", "D"],
        "table of verdicts + answer line",
    ),
    (
        "planets",
        D,
        [],
        "| Option | Planet? |\n|---|---|\n| A | No |\n| B | Yes |\n| C | No |\n| D | Yes |\n"
        "| E | No |",
        ["B", "D"],
        "table yes/no with the question's predicate, no conclusion line",
    ),
    (
        "boiling",
        D,
        [],
        "The correct option is **B) 100**.\n\nNote: D) 212 would be correct if the question "
        "asked in Fahrenheit, but it asks for Celsius.\n\nAnswer: B",
        ["B"],
        "caveat naming another label",
    ),
    (
        "boiling",
        D,
        COT,
        "At sea level water boils at 212 degrees, so D.\n\nWait — the question asks for "
        "Celsius, not Fahrenheit. 212 °F is 100 °C. So the answer is B, not D.\n\nAnswer: B",
        ["B"],
        "self-correction",
    ),
    (
        "mammals",
        D,
        [],
        "Both A and C. Dolphins and bats are mammals; sharks are fish and penguins are birds.",
        ["A", "C"],
        "both X and Y",
    ),
    ("mammals", D, [], "The correct options are (A) and (C).", ["A", "C"], "parenthesized labels"),
    (
        "austen",
        D,
        [],
        'Great question! "Pride and Prejudice" (1813) is one of the best-known novels in '
        "English literature. It was written by Jane Austen, who also wrote *Sense and "
        "Sensibility* and *Emma*. Charlotte Brontë wrote *Jane Eyre*, Mary Shelley wrote "
        "*Frankenstein*, and George Eliot wrote *Middlemarch*.\n\nSo the correct option is B.",
        ["B"],
        "polite preamble + per-option explanations + conclusion",
    ),
    ("austen", D, [], "Jane Austen.", ["B"], "option text only, short"),
    (
        "halves",
        D,
        [],
        "All except B and E. 2/4, 4/8 and 5/10 all reduce to 1/2, while 3/5 = 0.6 and 6/10 = 0.6.",
        ["A", "C", "D"],
        "all except",
    ),
    ("halves", D, [], "a, c, d", ["A", "C", "D"], "lower-case labels"),
    ("halves", D, [], "Answer: A/C/D", ["A", "C", "D"], "slash-separated labels"),
    (
        "percent",
        D,
        [],
        "15% of 80 = 0.15 × 80 = 12.\n\nAnswer: B",
        ["B"],
        "arithmetic then answer line",
    ),
    (
        "percent",
        D,
        [],
        "To find 15% of 80, take 10% (8) and add 5% (4): 8 + 4 = 12. That matches option B) 12.",
        ["B"],
        "matches option",
    ),
    (
        "noble",
        D,
        [],
        "Neon, argon and helium are noble gases (group 18). Nitrogen and oxygen are not.\n\n"
        "Answer: A & C & E",
        ["A", "C", "E"],
        "ampersand-joined labels",
    ),
    (
        "noble",
        D,
        [],
        "The noble gases here are A, C and E.\n\n"
        "- Neon (A): group 18, inert.\n"
        "- Nitrogen (B): group 15.\n"
        "- Argon (C): group 18.\n"
        "- Oxygen (D): group 16.\n"
        "- Helium (E): group 18.\n\n"
        "So again: **A, C, E**.",
        ["A", "C", "E"],
        "answer first, then repeated",
    ),
    (
        "africa",
        D,
        [],
        "Kenya and Egypt are in Africa, so options A and C. Peru and Chile are in South America.",
        ["A", "C"],
        "options A and C mid-sentence",
    ),
    ("africa", D, [], "I'm sorry, but I can't help with that request.", None, "refusal"),
    (
        "grammar",
        D,
        [],
        "**B** — \"She doesn't like it.\" The third-person singular takes *doesn't*, followed by "
        "the base form of the verb. A uses *don't*, C lacks an auxiliary, and D marks the verb "
        "twice (*doesn't likes*).",
        ["B"],
        "bold label first, then explanation naming others",
    ),
    (
        "capitals",
        D,
        [],
        "A) Paris — largest city of France, on the Seine.\n"
        "B) Sydney — largest city of Australia, home of the Opera House.\n"
        "C) Rome — Italian city, home of the Colosseum.\n"
        "D) Toronto — largest city of Canada, on Lake Ontario.",
        None,
        "describes each option without concluding",
    ),
    (
        "div3",
        D,
        [],
        "Which of these numbers are divisible by 3? Let's check each by its digit sum: 12 → 3, "
        "14 → 5, 21 → 3, 25 → 7, 30 → 3. So 12, 21 and 30 are divisible by 3; 14 and 25 are "
        "not.\n\nAnswer: A, C, E",
        ["A", "C", "E"],
        "restates the question, then answer line",
    ),
    (
        "div3",
        D,
        [],
        "All of them are divisible by 3.",
        ["A", "B", "C", "D", "E"],
        "all of them (a wrong judgement)",
    ),
    (
        "triangle",
        D,
        [],
        "The angles of a triangle sum to 180°. 180 − 50 − 60 = 70°.\n\n**Final Answer: B) 70°**",
        ["B"],
        "bold final answer with option text",
    ),
    (
        "even",
        D,
        [],
        "None of the options are even — 3, 7, 11 and 15 are all odd.",
        [],
        "none of the options",
    ),
    ("even", D, [], "Answer: None", [], "answer line none"),
    (
        "planets",
        D,
        [],
        "B) Mars and D) Neptune are planets. A) Pluto was considered a planet until 2006 and "
        "some still argue for it, but strictly, under the IAU definition, only B and D.",
        ["B", "D"],
        "hedge then strictly",
    ),
    (
        "planets",
        D,
        [],
        "It depends on the definition. Under the IAU's 2006 definition, B and D; under the "
        "older usage, A, B and D. I'd need to know which definition the question intends.",
        None,
        "conditional, two answers",
    ),
    (
        "primes",
        D,
        [],
        "Let's look at each option.\n\nA) 21 = 3 × 7, so not prime.\nB) 23 is prime.\n"
        "C) 27 = 3 × 9, not prime.\nD) 29",
        None,
        "cut off mid-list",
    ),
    (
        "primes",
        D,
        COT,
        "Let's think step by step.\n\n"
        "A prime number is a natural number greater than 1 whose only divisors are 1 and "
        "itself. To test each candidate it is enough to try the primes up to its square root, "
        "which for numbers below 36 means trying 2, 3 and 5.\n\n"
        "**Option A — 21.** 21 is odd, so 2 does not divide it. Its digit sum is 3, so it is "
        "divisible by 3: 21 = 3 × 7. Not prime.\n\n"
        "**Option B — 23.** Odd; digit sum 5, so not divisible by 3; it does not end in 0 or 5. "
        "No divisor up to √23 ≈ 4.8, so 23 is prime.\n\n"
        "**Option C — 27.** Digit sum 9, divisible by 3: 27 = 3 × 3 × 3. Not prime.\n\n"
        "**Option D — 29.** Odd; digit sum 11; does not end in 0 or 5. √29 ≈ 5.4 and 5 does "
        "not divide 29, so 29 is prime.\n\n"
        "**Option E — 31.** Odd; digit sum 4; does not end in 0 or 5. √31 ≈ 5.6, and neither "
        "2, 3 nor 5 divides it, so 31 is prime.\n\n"
        "Summary: three of the five numbers — 23, 29 and 31 — are prime, while 21 and 27 are "
        "composite (both multiples of 3, a common trap because they look prime at a glance).\n\n"
        "Answer: B, D, E",
        ["B", "D", "E"],
        "long step-by-step, answer line",
    ),
    (
        "square",
        D,
        [],
        "The correct answer is B) 36.\n\nAnswer: C",
        None,
        "contradictory: text and answer line disagree",
    ),
    (
        "boiling",
        D,
        [],
        "I cannot determine the correct option with confidence: the boiling point depends on "
        "pressure and purity, and the figures given could refer to different conditions.",
        None,
        "cannot determine",
    ),
    (
        "capitals",
        D,
        [],
        "The correct ones are Paris and Rome.",
        ["A", "C"],
        "option texts named as correct",
    ),
    (
        "capitals",
        D,
        [],
        "Answer: A, C\n\nNote: B would be the answer if the question asked for a state capital "
        "— Sydney is the capital of New South Wales, not of Australia.",
        ["A", "C"],
        "note after the answer naming another label",
    ),
    (
        "mammals",
        D,
        [],
        "The correct options are:\n\n* A) Dolphin\n* C) Bat\n\n"
        "These are mammals because they are warm-blooded, breathe air with lungs, and nurse "
        "their young with milk.",
        ["A", "C"],
        "bullet list of correct options",
    ),
    (
        "halves",
        D,
        [],
        "**Correct options: A, C, D**\n\nExplanation:\n"
        "- 2/4 = 1/2 ✔\n- 3/5 = 0.6 ✘\n- 4/8 = 1/2 ✔\n- 5/10 = 1/2 ✔\n- 6/10 = 0.6 ✘",
        ["A", "C", "D"],
        "bold header answer then ✔/✘ list without labels",
    ),
    (
        "africa",
        D,
        [],
        "Here's the breakdown:\n\n"
        "* **Kenya (A):** Located in East Africa. **Correct.**\n"
        "* **Peru (B):** Located in South America. **Incorrect.**\n"
        "* **Egypt (C):** Located in North Africa (with the Sinai Peninsula in Asia). "
        "**Correct.**\n"
        "* **Chile (D):** South America. **Incorrect.**\n\n"
        "Therefore, the correct answers are **A and C**.",
        ["A", "C"],
        "per-option bold verdicts + conclusion",
    ),
    (
        "noble",
        D,
        [],
        "A. True\nB. False\nC. True\nD. False\nE. True",
        ["A", "C", "E"],
        "True/False per label",
    ),
    ("austen", D, [], "The answer is (B).", ["B"], "parenthesized single label"),
    (
        "noble",
        D,
        [],
        "Answer: Neon, Argon, Helium",
        ["A", "C", "E"],
        "answer line with option texts",
    ),
    (
        "div3",
        D,
        [],
        "Answer: A, C\n\nWait — I missed E. 30 = 3 × 10, so it is divisible by 3 as well. "
        "Corrected answer: A, C, E.",
        ["A", "C", "E"],
        "self-correction after the answer line",
    ),
    ("percent", D, [], "Wrong: A, C, D.", None, "direct leg answers the reverse question only"),
    ("triangle", D, [], "The third angle is 70 degrees.", ["B"], "option value in prose"),
    (
        "capitals",
        D,
        [],
        "Answer: A and C\n\n(Sydney is the largest city in Australia, but not its capital.)",
        ["A", "C"],
        "answer line then parenthetical about another option",
    ),
    (
        "primes",
        D,
        [],
        "**A) 21** – Not prime (3 × 7)\n**B) 23** – Prime\n**C) 27** – Not prime (3³)\n"
        "**D) 29** – Prime\n**E) 31** – Prime",
        ["B", "D", "E"],
        "per-option predicate, no summary",
    ),
    (
        "primes",
        D,
        [],
        "Primes are numbers with exactly two divisors. You can check each option by trial "
        "division up to its square root.",
        None,
        "method only, no answer",
    ),
    (
        "mammals",
        D,
        [],
        "I'm not confident about this one — A or C, perhaps, but I wouldn't rule out the others.",
        None,
        "uncommitted hedge",
    ),
    (
        "austen",
        D,
        [],
        "Option B is correct; the others wrote different novels.",
        ["B"],
        "option X is correct",
    ),
    (
        "even",
        D,
        [],
        "Correct options: none. Every number listed (3, 7, 11, 15) is odd.",
        [],
        "correct options: none",
    ),
    ("square", D, [], "B) 36 ✅", ["B"], "single label with checkmark"),
    (
        "halves",
        D,
        [],
        "Two of them: A and C. Both simplify to exactly one half.",
        ["A", "C"],
        "count then labels (misses D; a wrong judgement)",
    ),
    # --------------------------------------------------------------- reverse legs (45)
    ("capitals", R, [], "Incorrect: B, D (A and C are correct)", ["B", "D"], "both sides listed"),
    (
        "capitals",
        R,
        [],
        "The incorrect options are B) Sydney and D) Toronto.",
        ["B", "D"],
        "incorrect options with texts",
    ),
    (
        "capitals",
        R,
        [],
        "The correct answers are A and C.",
        None,
        "reverse leg answers the direct question",
    ),
    (
        "capitals",
        R,
        [],
        "A correct, B incorrect, C correct, D incorrect.",
        ["B", "D"],
        "every option given a side",
    ),
    (
        "primes",
        R,
        NEG,
        "Recall that the incorrect options are those that are not correct. 21 = 3 × 7 and "
        "27 = 3³ are composite, so they are not prime.\n\nAnswer: A, C",
        ["A", "C"],
        "neg_exp restated, answer line",
    ),
    ("primes", R, [], '{"incorrect": ["A", "C"]}', ["A", "C"], "json incorrect list"),
    (
        "primes",
        R,
        [],
        '{"A": "incorrect", "B": "correct", "C": "incorrect", "D": "correct", "E": "correct"}',
        ["A", "C"],
        "json label->verdict map",
    ),
    (
        "square",
        R,
        COT,
        "Let's think step by step. 6 × 6 = 36, which is option B. Therefore the incorrect "
        "options are A (30), C (42) and D (48).\n\nAnswer: A, C, D",
        ["A", "C", "D"],
        "cot, names the correct one first",
    ),
    (
        "square",
        R,
        [],
        "30, 42 and 48 are wrong; only 36 is right.",
        ["A", "C", "D"],
        "option texts both sides",
    ),
    ("square", R, [], "The answer is 36 (B).", None, "reverse leg gives the direct answer"),
    (
        "planets",
        R,
        [],
        "| Option | Correct? |\n|---|---|\n| A) Pluto | ❌ |\n| B) Mars | ✅ |\n"
        "| C) Ceres | ❌ |\n| D) Neptune | ✅ |\n| E) Titan | ❌ |\n\n"
        "The incorrect ones are A, C and E.",
        ["A", "C", "E"],
        "checkmark table + conclusion",
    ),
    (
        "planets",
        R,
        [],
        "| Option | Planet? |\n|---|---|\n| A) Pluto | ❌ dwarf planet |\n| B) Mars | ✅ |\n"
        "| C) Ceres | ❌ dwarf planet |\n| D) Neptune | ✅ |\n| E) Titan | ❌ moon |",
        ["A", "C", "E"],
        "checkmark table, every side, no conclusion",
    ),
    (
        "planets",
        R,
        COT,
        "All except B and D are incorrect: Pluto and Ceres are dwarf planets and Titan is a "
        "moon of Saturn.",
        ["A", "C", "E"],
        "all except ... are incorrect",
    ),
    (
        "boiling",
        R,
        NEG,
        "A) 90, C) 110 and D) 212 are incorrect. D is the boiling point in Fahrenheit, not "
        "Celsius.",
        ["A", "C", "D"],
        "labels with texts + remark on one",
    ),
    (
        "boiling",
        R,
        [],
        "Incorrect options: A, C.\n\nNote: D (212) is the Fahrenheit value, so it is also "
        "incorrect for a Celsius question.",
        ["A", "C", "D"],
        "note amends the answer (adds a label)",
    ),
    (
        "boiling",
        R,
        [],
        "Answer: A, C, D\n\nNote: B (100 °C) is the standard value at 1 atm; at higher "
        "altitude water boils below 100 °C.",
        ["A", "C", "D"],
        "note naming the correct label",
    ),
    (
        "mammals",
        R,
        [],
        "Sharks (B) are fish and penguins (D) are birds, so those two are the incorrect "
        "options. Dolphins and bats are mammals.",
        ["B", "D"],
        "labels in parentheses after names, 'those two'",
    ),
    ("mammals", R, [], "B & D", ["B", "D"], "ampersand"),
    (
        "mammals",
        R,
        [],
        "Incorrect: B (shark is a fish). Hmm, D too — penguins are birds, not mammals. "
        "Final: B, D.",
        ["B", "D"],
        "self-correction on the reverse leg",
    ),
    (
        "austen",
        R,
        NEG,
        "A, C, D — Brontë, Shelley and Eliot did not write it; Austen did.",
        ["A", "C", "D"],
        "labels first then reasons",
    ),
    (
        "austen",
        R,
        [],
        "Jane Austen wrote Pride and Prejudice.",
        None,
        "reverse leg answers the direct question in prose",
    ),
    (
        "austen",
        R,
        COT,
        "Let's go step by step:\n"
        "1. Charlotte Brontë wrote *Jane Eyre* → not the author.\n"
        "2. Jane Austen → the author.\n"
        "3. Mary Shelley wrote *Frankenstein* → not the author.\n"
        "4. George Eliot wrote *Middlemarch* → not the author.\n\n"
        "So the incorrect options are A, C, and D.",
        ["A", "C", "D"],
        "numbered steps (not labels) then conclusion",
    ),
    (
        "halves",
        R,
        [],
        "The incorrect options are B (3/5) and E (6/10), since both equal 0.6.",
        ["B", "E"],
        "incorrect options with values",
    ),
    ("halves", R, [], "b, e", ["B", "E"], "lower-case labels"),
    ("halves", R, [], "Both B and E are incorrect.", ["B", "E"], "both X and Y are incorrect"),
    (
        "halves",
        R,
        [],
        "I cannot determine which options are incorrect without knowing whether unsimplified "
        'fractions count as "equal" to 1/2.',
        None,
        "cannot determine",
    ),
    (
        "percent",
        R,
        COT,
        "15% × 80 = 12 → B is correct.\nIncorrect: A) 10, C) 15, D) 18",
        ["A", "C", "D"],
        "correct one first, then incorrect list",
    ),
    (
        "percent",
        R,
        [],
        "Incorrect options: A, C, D.\n\nAnswer: B",
        None,
        "contradictory: incorrect list vs answer line",
    ),
    (
        "noble",
        R,
        [],
        "Nitrogen (B) and oxygen (D) are not noble gases.\n\nAnswer: B, D",
        ["B", "D"],
        "predicate negated, answer line",
    ),
    (
        "noble",
        R,
        [],
        '{"correct": ["A", "C", "E"], "incorrect": ["B", "D"]}',
        ["B", "D"],
        "json both sides",
    ),
    ("noble", R, [], '{"correct": ["A", "C", "E"]}', None, "json answers only the direct question"),
    (
        "africa",
        R,
        NEG,
        "Peru and Chile are not in Africa; Kenya and Egypt are.",
        ["B", "D"],
        "predicate both sides with texts",
    ),
    (
        "africa",
        R,
        [],
        "Sure! The incorrect options are options B and D — Peru and Chile are both in South "
        "America.",
        ["B", "D"],
        "polite, options B and D",
    ),
    ("grammar", R, [], "A, C and D are ungrammatical.", ["A", "C", "D"], "negative predicate"),
    (
        "grammar",
        R,
        [],
        "C and D are clearly incorrect. A is nonstandard but acceptable in some dialects; "
        "strictly, in standard English, A is also incorrect. So: A, C, D.",
        ["A", "C", "D"],
        "hedge resolved with 'So:'",
    ),
    (
        "grammar",
        R,
        [],
        "D is definitely wrong. A and C might be acceptable in informal speech, so it depends "
        "on the standard you apply.",
        None,
        "partial answer with unresolved hedge",
    ),
    ("div3", R, [], "B/D — 14 and 25 are not divisible by 3.", ["B", "D"], "slash labels"),
    (
        "div3",
        R,
        [],
        "### Incorrect options\n- **B) 14** — 14 ÷ 3 ≈ 4.67\n- **D) 25** — 25 ÷ 3 ≈ 8.33\n\n"
        "### Correct options\n- A) 12, C) 21, E) 30",
        ["B", "D"],
        "markdown headers, both sides",
    ),
    (
        "triangle",
        R,
        [],
        "Only B (70°) fits, so the incorrect ones are A, C, D.",
        ["A", "C", "D"],
        "only X fits, so the incorrect ones",
    ),
    (
        "triangle",
        R,
        COT,
        "Let's think step by step. 50 + 60 = 110. 180 − 110 = 60, so A is correct and B, C, D "
        "are incorrect. Wait, let me recheck: 180 − 110 = 70, not 60. So B is correct, and the "
        "incorrect options are A, C and D.\n\nAnswer: A, C, D",
        ["A", "C", "D"],
        "cot self-correction",
    ),
    (
        "even",
        R,
        [],
        "All of them are incorrect — 3, 7, 11 and 15 are all odd.",
        ["A", "B", "C", "D"],
        "all of them are incorrect",
    ),
    (
        "even",
        R,
        [],
        "None of the options is even, so every option is incorrect: A, B, C, D.",
        ["A", "B", "C", "D"],
        "none qualifies so all incorrect",
    ),
    (
        "even",
        R,
        [],
        "None of them.",
        None,
        "'none of them' on the reverse leg: none even or none incorrect?",
    ),
    (
        "capitals",
        R,
        NEG,
        "Following the reminder that incorrect options are simply those different from the "
        "correct ones: the correct ones are Paris and Rome, so the incorrect ones are Sydney "
        "and Toronto.",
        ["B", "D"],
        "neg_exp echoed, option texts",
    ),
    (
        "primes",
        R,
        [],
        "The incorrect options are the composite numbers. Checking: 21 = 3 × 7 (composite), 23",
        None,
        "cut off",
    ),
]


def main() -> None:
    lines = []
    for n, (item, polarity, mitigations, reply, expected, note) in enumerate(REPLIES, 1):
        question, candidates = ITEMS[item]
        lines.append(
            json.dumps(
                {
                    "id": f"holdout-a:{n}",
                    "source": "holdout-a-written",
                    "dataset": "written",
                    "item": {"id": item, "question": question, "candidates": candidates},
                    "polarity": polarity,
                    "template": None,
                    "mitigations": list(mitigations),
                    "reply": reply,
                    "expected": None if expected is None else sorted(expected),
                    "note": note,
                },
                ensure_ascii=False,
            )
        )
    (HERE / "holdout-a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
