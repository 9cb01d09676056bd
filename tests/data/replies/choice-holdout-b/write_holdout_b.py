"""Write holdout-b.jsonl: 100 hand-written free-text judge replies to choice items.

Written blind (without reading prin_guard's reader, its tests, or the other reply corpora),
in the styles of small open models (1-8B) acting as judges. Run from anywhere:

    python tests/data/replies/choice-holdout-b/write_holdout_b.py

``expected`` is what a careful person reads as the reply's conclusion FOR ITS OWN LEG:
direct -> the labels it says are correct; reverse -> the labels it says are incorrect;
``[]`` -> it concludes none qualifies; ``None`` -> a careful reader cannot tell.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _item(key, question, texts):
    labels = "ABCDE"
    return {
        "id": key,
        "question": question,
        "candidates": [{"label": labels[i], "text": t} for i, t in enumerate(texts)],
    }


ITEMS = {
    "train": _item(
        "train",
        "A train travels 180 km in 4 hours. What is its average speed?",
        ["40 km/h", "45 km/h", "50 km/h", "55 km/h"],
    ),  # B
    "discount": _item(
        "discount",
        "A shirt priced at $80 is sold at a 15% discount. What is the sale price?",
        ["$64", "$66", "$68", "$70", "$72"],
    ),  # C
    "work": _item(
        "work",
        "A can finish a job in 6 days and B can finish it in 12 days. Working together, "
        "how many days do they need?",
        ["3 days", "4 days", "5 days", "6 days", "9 days"],
    ),  # B
    "interest": _item(
        "interest",
        "What is the simple interest on $2000 at 5% per annum for 3 years?",
        ["$250", "$300", "$350", "$400"],
    ),  # B
    "ages": _item(
        "ages",
        "A father is three times as old as his son. In 12 years he will be twice as old as "
        "his son. How old is the son now?",
        ["10", "12", "14", "16", "18"],
    ),  # B
    "fraction": _item(
        "fraction",
        "What is 3/4 of 2/3 of 120?",
        ["45", "50", "60", "80"],
    ),  # C
    "primes": _item(
        "primes",
        "Which of the following numbers are prime?",
        ["21", "23", "27", "29", "33"],
    ),  # B, D
    "capital": _item(
        "capital",
        "What is the capital city of Australia?",
        ["Sydney", "Melbourne", "Canberra", "Perth"],
    ),  # C
    "noble": _item(
        "noble",
        "Which of the following elements are noble gases?",
        ["Argon", "Nitrogen", "Neon", "Chlorine", "Krypton"],
    ),  # A, C, E
    "organelle": _item(
        "organelle",
        "In plant cells, which organelle is the site of photosynthesis?",
        ["Mitochondrion", "Chloroplast", "Ribosome", "Golgi apparatus"],
    ),  # B
    "mammals": _item(
        "mammals",
        "Which of the following animals are mammals?",
        ["Dolphin", "Shark", "Bat", "Penguin"],
    ),  # A, C
    "circle": _item(
        "circle",
        "What is the area of a circle of radius 7 cm? (Use pi = 22/7.)",
        ["144 cm²", "154 cm²", "164 cm²", "176 cm²"],
    ),  # B
    "sets": _item(
        "sets",
        "Let set A = {1, 2, 3, 4} and set B = {3, 4, 5}. What is A ∩ B?",
        ["{3, 4}", "{1, 2}", "{1, 2, 3, 4, 5}", "{5}"],
    ),  # A
    "roots": _item(
        "roots",
        "Which of the following are roots of x² − 5x + 6 = 0?",
        ["1", "2", "3", "6"],
    ),  # B, C
    "pens": _item(
        "pens",
        "If 4 pens cost $6, how much do 10 pens cost?",
        ["$12", "$13.50", "$15", "$16.50"],
    ),  # C
}

D, R = "direct", "reverse"

# (item, polarity, mitigations, reply, expected, note)
RECORDS = [
    # ------------------------------------------------------------------ direct leg
    (
        "train",
        D,
        ["cot"],
        "To find the average speed, we divide the total distance by the total time.\n\n"
        "Speed = 180 km / 4 h = 45 km/h\n\n"
        "The options are:\nA) 40 km/h\nB) 45 km/h\nC) 50 km/h\nD) 55 km/h\n\n"
        "The correct answer is B) 45 km/h.\n\nAnswer: B",
        ["B"],
        "restates options then chooses",
    ),
    (
        "train",
        D,
        [],
        "Average speed = distance / time = 180 / 4 = 45.\n\nSo the speed is 45 km/h.",
        ["B"],
        "computed value matches one option text",
    ),
    (
        "train",
        D,
        ["cot"],
        "Step 1: Identify the distance and the time.\nDistance = 180 km\nTime = 4 hours\n\n"
        "Step 2: Use the formula for average speed:\n"
        r"\[ \text{Average speed} = \frac{\text{Total distance}}{\text{Total time}} \]"
        "\n\nStep 3: Substitute the values:\n"
        r"\[ \text{Average speed} = \frac{180}{4",
        None,
        "cut off mid-derivation",
    ),
    ("train", D, [], r"$\boxed{\text{B}}$", ["B"], "latex boxed text label"),
    (
        "discount",
        D,
        [],
        "The discount is 15% of $80 = 0.15 × 80 = $12.\nSale price = 80 − 12 = $68.\n\n#### C",
        ["C"],
        "#### label",
    ),
    ("discount", D, [], "Answer: C. $68", ["C"], "answer line label then value"),
    (
        "discount",
        D,
        [],
        "The discount is 0.15 × 80 = 12 dollars, so the sale price is 80 - 12 = 68 dollars, "
        "which is option C.\n\nAnswer: D",
        None,
        "answer line contradicts sentence before",
    ),
    (
        "discount",
        D,
        ["cot"],
        "Let's calculate the discount first. 15% of 80 is 0.15 × 80 = 12.5. "
        "So the sale price is 80 − 12.5 = 67.5 dollars.\n\n"
        "None of the options is exactly $67.50, but the closest option is C.",
        ["C"],
        "closest option",
    ),
    (
        "discount",
        D,
        ["cot"],
        "### Step 1: Understand the problem\n"
        "We are given the original price of a shirt, $80, and a discount rate of 15%. "
        "We need to find the price after the discount is applied.\n\n"
        "### Step 2: Convert the percentage to a decimal\n"
        r"\[ 15\% = \frac{15}{100} = 0.15 \]"
        "\n\n### Step 3: Calculate the discount amount\n"
        r"\[ \text{Discount} = 80 \times 0.15 = 12 \]"
        "\n\n### Step 4: Subtract the discount from the original price\n"
        r"\[ \text{Sale price} = 80 - 12 = 68 \]"
        "\n\n### Step 5: Check the result another way\n"
        "Paying 85% of the price: \\( 0.85 \\times 80 = 68 \\). Both methods give $68.\n\n"
        "### Step 6: Compare with the options\n"
        "- A) $64: this would be a 20% discount, too large.\n"
        "- B) $66: this is not a whole-percent discount of 80 that matches 15%.\n"
        "- C) $68: matches our calculation.\n"
        "- D) $70: this would be a 12.5% discount, too small.\n"
        "- E) $72: this would be a 10% discount, too small.\n\n"
        "### Conclusion\n"
        "The sale price of the shirt after a 15% discount is $68. Therefore, the correct "
        "option is:\n\n"
        r"\[ \boxed{C} \]",
        ["C"],
        "long markdown derivation, boxed label",
    ),
    (
        "discount",
        D,
        [],
        "80 × 0.85 = 67\n\nNone of the given options match the sale price, so none of them is "
        "correct.\n\nAnswer: None",
        [],
        "concludes none",
    ),
    (
        "work",
        D,
        ["cot"],
        "Let A's rate be 1/6 of the job per day and B's rate be 1/12 of the job per day.\n"
        "Together: 1/6 + 1/12 = 2/12 + 1/12 = 3/12 = 1/4 of the job per day.\n"
        "So they finish in 4 days.\n\nAnswer: B",
        ["B"],
        "workers named A and B",
    ),
    (
        "work",
        D,
        [],
        "A works at a rate of 1/6 per day and B at 1/12 per day. Combined they do 1/4 of the "
        "job each day, so together A and B need 4 days. The answer is (b).",
        ["B"],
        "lowercase (b) after worker names",
    ),
    (
        "work",
        D,
        [],
        "A alone: 6 days. B alone: 12 days. Together they take 4 days.",
        ["B"],
        "value match with worker names",
    ),
    (
        "work",
        D,
        [],
        "A can do 1/6 of the work in one day, B can do 1/12.\n"
        "1/6 + 1/12 = 1/4\n\nThe final answer is: $\\boxed{4}$",
        ["B"],
        "boxed bare number matching option text",
    ),
    (
        "interest",
        D,
        [],
        "SI = P × R × T / 100 = 2000 × 5 × 3 / 100 = 300.\n\nOption (B) $300",
        ["B"],
        "Option (B) value",
    ),
    (
        "interest",
        D,
        [],
        "Simple interest = 2000 × 0.05 × 3 = $300.\n\nThe answer is option 2.",
        ["B"],
        "option number, unambiguous by value",
    ),
    (
        "interest",
        D,
        [],
        "Given this question ``` What is the simple interest on $2000 at 5% per annum for 3 "
        'years? ``` and its answer options: "A) $250", "B) $300", "C) $350", "D) $400", '
        "please output the correct ones.<|end|>",
        None,
        "repeats prompt only",
    ),
    (
        "ages",
        D,
        ["cot"],
        "Let's think step by step.\n\n"
        "Let the son's current age be s. Then the father's current age is 3s.\n\n"
        "In 12 years:\n- the son will be s + 12\n- the father will be 3s + 12\n\n"
        "At that time the father will be twice as old as the son:\n"
        "3s + 12 = 2(s + 12)\n3s + 12 = 2s + 24\ns = 12\n\n"
        "Check: now the son is 12 and the father is 36. In 12 years the son is 24 and the "
        "father is 48, and 48 = 2 × 24. ✓\n\n"
        "The son is 12 years old now.\n\nAnswer: B",
        ["B"],
        "long derivation then answer line",
    ),
    (
        "ages",
        D,
        [],
        "Answer: B\n\nLet x be the son's age. Father = 3x. After 12 years: 3x + 12 = 2(x + 12), "
        "so x = 12... Let me verify with option C: son 14, father 42, in 12 years 26 and 54, "
        "and 54 is about twice 26.\n\nAnswer: C",
        None,
        "two disagreeing answer lines, no revision",
    ),
    (
        "ages",
        D,
        [],
        "Let the son be s years old. Father = 3s.\n3s + 12 = 2(s + 12)\n3s + 12 = 2s + 28\n"
        "s = 16 − ... s = 14\n\nAnswer: C\n\n"
        "Wait, let me recheck: 2(s + 12) = 2s + 24, so 3s + 12 = 2s + 24 gives s = 12, not 14.\n\n"
        "Correction: the answer is B.",
        ["B"],
        "explicit correction",
    ),
    (
        "fraction",
        D,
        [],
        r"First, \( \frac{2}{3} \times 120 = 80 \). Then \( \frac{3}{4} \times 80 = 60 \)."
        "\n\n"
        r"\[ \boxed{C} \]",
        ["C"],
        "latex inline and display boxed",
    ),
    ("fraction", D, [], "C)", ["C"], "bare C)"),
    ("fraction", D, [], "(c)", ["C"], "bare lowercase (c)"),
    (
        "fraction",
        D,
        [],
        "Given this question ``` What is 3/4 of 2/3 of 120? ``` and its answer options: "
        '"A) 45", "B) 50", "C) 60", "D) 80", please output the correct ones.\n\n'
        "The correct one is C) 60.",
        ["C"],
        "repeats prompt then answers",
    ),
    (
        "primes",
        D,
        [],
        "Let's check each number:\n- 21 = 3 × 7, not prime\n- 23 is prime\n"
        "- 27 = 3 × 9, not prime\n- 29 is prime\n- 33 = 3 × 11, not prime\n\nAnswer: B, D",
        ["B", "D"],
        "per-number check then answer line",
    ),
    (
        "primes",
        D,
        [],
        "A: incorrect\nB: correct\nC: incorrect\nD: correct\nE: incorrect",
        ["B", "D"],
        "per-option status list",
    ),
    (
        "primes",
        D,
        [],
        "The prime numbers among the options are 23 and 29.",
        ["B", "D"],
        "values only, multi",
    ),
    (
        "primes",
        D,
        ["cot"],
        "Let's check each option:\nA) 21 — divisible by 3 (21 = 3 × 7). Not prime.\n"
        "B) 23 — prime.\nC) 27 — divisible by 3. Not prime.\nD) 29 — ",
        None,
        "cut off in per-option walk",
    ),
    ("primes", D, [], "Answer: B and D", ["B", "D"], "answer line with and"),
    (
        "capital",
        D,
        [],
        "The capital of Australia is Canberra, not Sydney as many people think.\n\nAnswer: C",
        ["C"],
        "foil named then answer line",
    ),
    ("capital", D, [], "Canberra", ["C"], "bare option text"),
    (
        "capital",
        D,
        [],
        "The correct answer is C) Canberra. Sydney (A) is the largest city, and Melbourne (B) "
        "was the seat of government until 1927, but neither is the capital.",
        ["C"],
        "answer then other labels discussed",
    ),
    (
        "noble",
        D,
        ["cot"],
        "Noble gases are the elements in group 18 of the periodic table. Let's go through "
        "them:\n\n1. Argon (Ar) is in group 18, so it is a noble gas.\n"
        "2. Nitrogen (N) is in group 15; it is a diatomic gas but not a noble gas.\n"
        "3. Neon (Ne) is in group 18, a noble gas.\n"
        "4. Chlorine (Cl) is a halogen in group 17.\n"
        "5. Krypton (Kr) is in group 18, a noble gas.\n\nAnswer: A, C, E",
        ["A", "C", "E"],
        "numbered walk (1-5) then letter answer",
    ),
    ("noble", D, [], "**Answer:** A, C, and E", ["A", "C", "E"], "bold answer, oxford and"),
    (
        "noble",
        D,
        [],
        "The correct options are A) Argon, C) Neon, E) Krypton.",
        ["A", "C", "E"],
        "label-text pairs",
    ),
    (
        "noble",
        D,
        [],
        "Argon, neon and krypton are noble gases.\n\nAnswer: A, C",
        None,
        "answer line contradicts sentence before",
    ),
    (
        "organelle",
        D,
        [],
        "Photosynthesis takes place in the chloroplast, which contains chlorophyll.\n\n"
        "The answer is B.",
        ["B"],
        "the answer is X",
    ),
    ("organelle", D, [], "B. Chloroplast", ["B"], "label dot text"),
    (
        "organelle",
        D,
        [],
        "The mitochondrion is the powerhouse of the cell, where respiration happens (A). "
        "Ribosomes (C) make proteins, and the Golgi apparatus (D) packages them. "
        "Photosynthesis happens in the chloroplast.",
        ["B"],
        "eliminates by label, answer by text",
    ),
    (
        "mammals",
        D,
        [],
        "Dolphins and bats are mammals: they are warm-blooded, breathe air and nurse their "
        "young. Sharks are fish and penguins are birds.\n\nAnswer: A, C",
        ["A", "C"],
        "explanation then answer line",
    ),
    (
        "mammals",
        D,
        [],
        " The correct options are:\n\nA) Dolphin\nC) Bat\n\nExplanation: Dolphins and bats "
        "are mammals because they give birth to live young and produce milk. A shark is a "
        "fish and a penguin is a bird.",
        ["A", "C"],
        "listed options then explanation",
    ),
    (
        "circle",
        D,
        [],
        "Area = πr² = (22/7) × 7 × 7 = 22 × 7 = 154 cm².\n\n"
        "Therefore, the answer is $\\boxed{154}$.",
        ["B"],
        "boxed value not label",
    ),
    ("circle", D, [], r"\boxed{B}", ["B"], "bare boxed label"),
    (
        "circle",
        D,
        [],
        "The answer is B) 154 cm².\n\nExplanation:\nThe area of a circle is given by A = πr², "
        "where r is the radius. Substituting r = 7 cm and π = 22/7:\nA = 22/7 × 49 = ",
        ["B"],
        "cut off after stated conclusion; A as area variable",
    ),
    (
        "sets",
        D,
        [],
        "Set A = {1, 2, 3, 4} and set B = {3, 4, 5}. The intersection A ∩ B contains the "
        "elements in both sets: {3, 4}.\n\nAnswer: A",
        ["A"],
        "set names look like labels",
    ),
    ("sets", D, [], "A ∩ B = {3, 4}, which is option A.", ["A"], "which is option A"),
    (
        "sets",
        D,
        [],
        "The intersection of set A and set B is {3, 4}.",
        ["A"],
        "value match with set names",
    ),
    (
        "sets",
        D,
        ["cot"],
        "To find A ∩ B we look for the elements common to both set A and set B. Set A has 1, "
        "2, 3, 4. Set B has 3, 4, 5. The common elements are",
        None,
        "cut off before conclusion, set names",
    ),
    (
        "roots",
        D,
        [],
        "x² − 5x + 6 = (x − 2)(x − 3) = 0, so x = 2 or x = 3.\n\nAnswer: B, C",
        ["B", "C"],
        "factor then answer line",
    ),
    (
        "roots",
        D,
        [],
        "Factoring: $(x-2)(x-3)=0$. Roots: $x=2$ and $x=3$.\n\n$\\boxed{B, C}$",
        ["B", "C"],
        "boxed multi labels",
    ),
    (
        "roots",
        D,
        [],
        "Only x = 2 works: 4 − 10 + 6 = 0. Wait, x = 3 also works: 9 − 15 + 6 = 0. "
        "So the correct options are B and C.",
        ["B", "C"],
        "self-correction in prose",
    ),
    (
        "pens",
        D,
        ["cot"],
        "Let c be the cost of one pen. 4c = 6, so c = 1.5. Then 10 pens cost "
        "10c = 10 × 1.5 = 15.\n\nAnswer: C",
        ["C"],
        "variable c",
    ),
    (
        "pens",
        D,
        [],
        "let c = 1.5 (price of one pen)\n10 × c = 15\n\nAnswer: $15",
        ["C"],
        "answer line gives value",
    ),
    (
        "pens",
        D,
        [],
        "Since c = 1.5, the cost of 10 pens is 15 dollars, and the answer is (C) $15.",
        ["C"],
        "variable c then (C)",
    ),
    ("train", D, [], "The answer is option 3.", None, "option number, no value"),
    # ----------------------------------------------------------------- reverse leg
    (
        "train",
        R,
        ["neg_exp"],
        "The correct answer is B (45 km/h), so the incorrect options are A, C and D.\n\n"
        "Answer: A, C, D",
        ["A", "C", "D"],
        "correct named then incorrect listed",
    ),
    ("train", R, [], "The correct answer is B.\n\nAnswer: B", None, "reverse answers direct"),
    (
        "train",
        R,
        ["cot"],
        "Let's think step by step. Speed = 180 / 4 = 45 km/h. That matches option B. "
        "Therefore options A (40 km/h), C (50 km/h) and D (55 km/h) are incorrect.\n\n"
        "Answer: A, C, D",
        ["A", "C", "D"],
        "cot, incorrect listed with values",
    ),
    (
        "discount",
        R,
        [],
        "A) $64 — incorrect\nB) $66 — incorrect\nC) $68 — correct\nD) $70 — incorrect\n"
        "E) $72 — incorrect",
        ["A", "B", "D", "E"],
        "per-option status list",
    ),
    (
        "discount",
        R,
        ["cot"],
        "Let's think step by step.\nOriginal price = $80\nDiscount = 15% of 80 = 12\n"
        "Sale price = 80 − 12 = 68\n\nThe incorrect options are A, B, D, E.",
        ["A", "B", "D", "E"],
        "cot, incorrect listed",
    ),
    ("discount", R, [], "The incorrect ones are: A, B, D, E", ["A", "B", "D", "E"], "plain list"),
    (
        "work",
        R,
        [],
        "Let A's rate = 1/6 and B's rate = 1/12. Together 1/6 + 1/12 = 1/4, so 4 days. "
        "So the incorrect options are A, C, D and E.",
        ["A", "C", "D", "E"],
        "worker names then incorrect list",
    ),
    (
        "work",
        R,
        ["neg_exp"],
        "Since the correct answer is 4 days (option B), the incorrect options are:\n"
        "A) 3 days\nC) 5 days\nD) 6 days\nE) 9 days",
        ["A", "C", "D", "E"],
        "incorrect listed as label-text lines",
    ),
    (
        "work",
        R,
        ["cot"],
        "To solve this, first find the work rate of A and B.\n"
        "A can do 1/6 of the work per day.\nB can do 1/12 of the work per day.\n"
        "Together: 1/6 + 1/12 = 2/12 + 1/12 = 3/",
        None,
        "cut off mid-derivation, worker names",
    ),
    (
        "work",
        R,
        ["cot"],
        "Let's think step by step.\n\n"
        "**Step 1: Work rates.** If A finishes the job in 6 days, A completes 1/6 of the job "
        "each day. If B finishes it in 12 days, B completes 1/12 of the job each day.\n\n"
        "**Step 2: Combined rate.** Working together, A and B complete\n"
        r"\[ \frac{1}{6} + \frac{1}{12} = \frac{2}{12} + \frac{1}{12} = \frac{3}{12} "
        r"= \frac{1}{4} \]"
        "\nof the job per day.\n\n"
        "**Step 3: Time.** Time = 1 ÷ (1/4) = 4 days.\n\n"
        "**Step 4: Check each option.**\n"
        "- A) 3 days: in 3 days they would complete only 3/4 of the job. Incorrect.\n"
        "- B) 4 days: matches our result. This is the correct answer.\n"
        "- C) 5 days: more than needed. Incorrect.\n"
        "- D) 6 days: this is how long A needs alone. Incorrect.\n"
        "- E) 9 days: this is the average of 6 and 12, a common mistake. Incorrect.\n\n"
        "**Conclusion:** The incorrect options are A, C, D and E.",
        ["A", "C", "D", "E"],
        "long cot with per-option status",
    ),
    (
        "interest",
        R,
        [],
        "Simple interest = 2000 × 0.05 × 3 = $300. The incorrect options are those that are "
        "not $300: $250, $350, $400.",
        ["A", "C", "D"],
        "incorrect named by values",
    ),
    ("interest", R, ["neg_exp"], "Answer: A, C, D", ["A", "C", "D"], "bare answer line"),
    ("interest", R, [], r"\boxed{A, C, D}", ["A", "C", "D"], "boxed multi labels"),
    (
        "ages",
        R,
        ["cot"],
        "Let's think step by step.\nLet the son's current age be x. The father's age is 3x.\n"
        "In 12 years: father = 3x + 12, son = x + 12.\n3x + 12 = 2(x + 12)\n3x + 12 = 2x + 24\n"
        "x = 12\n\nSo the son is 12 now, which is option B. The incorrect options are A (10), "
        "C (14), D (16) and E (18).\n\nAnswer: A, C, D, E",
        ["A", "C", "D", "E"],
        "cot, correct named then incorrect listed",
    ),
    (
        "ages",
        R,
        [],
        "3x + 12 = 2(x + 12)\nx = 12\n\nThe answer is B.",
        None,
        "reverse answers direct",
    ),
    (
        "ages",
        R,
        ["neg_exp"],
        "The son's age is 12 years.\n\n#### 12",
        None,
        "reverse computes right value only",
    ),
    (
        "fraction",
        R,
        [],
        "3/4 × 2/3 × 120 = 60. Options A) 45, B) 50 and D) 80 are not equal to 60, so they "
        "are incorrect.\n\nAnswer: A, B, D",
        ["A", "B", "D"],
        "incorrect with values then answer line",
    ),
    (
        "fraction",
        R,
        [],
        r"\[ \frac{3}{4} \cdot \frac{2}{3} \cdot 120 = 60 \]"
        "\nThe incorrect options are $\\boxed{A, B, D}$.",
        ["A", "B", "D"],
        "latex boxed multi",
    ),
    (
        "fraction",
        R,
        [],
        "The value is 60, so the incorrect options are A, B and D.\n\nAnswer: C",
        None,
        "answer line contradicts sentence before",
    ),
    (
        "primes",
        R,
        [],
        "21 = 3×7 → not prime (incorrect)\n23 → prime (correct)\n27 = 3³ → not prime "
        "(incorrect)\n29 → prime (correct)\n33 = 3×11 → not prime (incorrect)\n\nAnswer: A, C, E",
        ["A", "C", "E"],
        "per-value status then answer line",
    ),
    (
        "primes",
        R,
        ["neg_exp"],
        "The correct options are B (23) and D (29). Therefore the incorrect options are A, C, "
        "and E.",
        ["A", "C", "E"],
        "correct named then incorrect",
    ),
    (
        "primes",
        R,
        [],
        "The numbers that are not prime are 21, 27 and 33.",
        ["A", "C", "E"],
        "incorrect named by values",
    ),
    (
        "primes",
        R,
        [],
        "23 and 29 are prime.\n\nAnswer: B, D",
        None,
        "reverse answers direct (multi)",
    ),
    (
        "noble",
        R,
        [],
        "Nitrogen (B) and Chlorine (D) are not noble gases.\n\nAnswer: B, D",
        ["B", "D"],
        "text (label) then answer line",
    ),
    (
        "noble",
        R,
        ["cot"],
        "A. Argon – noble gas ✔\nB. Nitrogen – not a noble gas ✘\nC. Neon – noble gas ✔\n"
        "D. Chlorine – halogen, not a noble gas ✘\nE. Krypton – noble gas ✔\n\n"
        "Incorrect options: B, D",
        ["B", "D"],
        "check-mark status then list",
    ),
    ("noble", R, [], "B and D", ["B", "D"], "bare labels with and"),
    (
        "noble",
        R,
        ["cot"],
        "Let's think step by step.\n\nNoble gases are the elements of group 18 of the periodic "
        "table: helium, neon, argon, krypton, xenon and radon.\n\nNow let's look at each "
        "option:\n\nA) Argon: This is a noble gas",
        None,
        "cut off in per-option walk",
    ),
    (
        "capital",
        R,
        [],
        "Sydney and Melbourne are major cities, and Perth is the capital of Western Australia, "
        "but none of them is the national capital. The incorrect options are A, B and D.",
        ["A", "B", "D"],
        "explanation then incorrect list",
    ),
    (
        "capital",
        R,
        ["neg_exp"],
        "Canberra is the capital of Australia.\n\nAnswer: C",
        None,
        "reverse answers direct",
    ),
    (
        "capital",
        R,
        [],
        "Incorrect: A) Sydney, B) Melbourne, D) Perth",
        ["A", "B", "D"],
        "Incorrect: label-text list",
    ),
    (
        "organelle",
        R,
        [],
        "The incorrect options are:\n\n* A) Mitochondrion – site of cellular respiration\n"
        "* C) Ribosome – site of protein synthesis\n"
        "* D) Golgi apparatus – modifies and packages proteins\n\n"
        "The correct answer is B) Chloroplast.",
        ["A", "C", "D"],
        "incorrect bullet list then correct named last",
    ),
    (
        "organelle",
        R,
        [],
        "Answer: A, C, D\n\nThe mitochondrion does respiration, the ribosome makes proteins "
        "and the Golgi apparatus packages them; none of these does photosynthesis. The Golgi "
        "apparatus is sometimes linked to plastids, though.\n\nAnswer: A, D",
        None,
        "two disagreeing answer lines, no revision",
    ),
    (
        "mammals",
        R,
        [],
        "Shark is a fish and penguin is a bird, so B and D are incorrect.",
        ["B", "D"],
        "X and Y are incorrect",
    ),
    (
        "mammals",
        R,
        ["cot"],
        "Let's think step by step. A dolphin breathes air and feeds its calves milk, a shark "
        "has gills, a bat nurses its young, a penguin lays eggs.\n\n"
        "A: correct, B: incorrect, C: correct, D: incorrect",
        ["B", "D"],
        "inline per-option status",
    ),
    (
        "mammals",
        R,
        [],
        "The incorrect options are Shark and Penguin.",
        ["B", "D"],
        "incorrect named by text",
    ),
    (
        "circle",
        R,
        [],
        "Area = 22/7 × 7² = 154 cm². So the incorrect options are A) 144 cm², C) 164 cm² and "
        "D) 176 cm².\n\nAnswer: A, C, D",
        ["A", "C", "D"],
        "incorrect with values then answer line",
    ),
    (
        "circle",
        R,
        [],
        "Answer: A, B, D\n\nWait, 154 is option B, which is the correct one, so it should not "
        "be listed. Correction: the incorrect options are A, C and D.\n\nAnswer: A, C, D",
        ["A", "C", "D"],
        "explicit correction of answer line",
    ),
    ("circle", R, [], r"\boxed{B}", None, "reverse boxed correct label only"),
    (
        "sets",
        R,
        [],
        "Set A = {1,2,3,4}, set B = {3,4,5}. A ∩ B = {3,4}. Option A is correct, so the "
        "incorrect options are B, C and D.",
        ["B", "C", "D"],
        "set names then incorrect list",
    ),
    (
        "sets",
        R,
        ["neg_exp"],
        "B) {1, 2} is A − B, not A ∩ B. C) {1, 2, 3, 4, 5} is A ∪ B. D) {5} is B − A. "
        "These are incorrect.\n\nAnswer: B, C, D",
        ["B", "C", "D"],
        "set-difference names then answer line",
    ),
    (
        "roots",
        R,
        [],
        "(x-2)(x-3)=0 → x = 2, 3. So 1 and 6 are not roots.\n\nAnswer: A, D",
        ["A", "D"],
        "values then answer line",
    ),
    (
        "roots",
        R,
        [],
        "x = 1: 1 − 5 + 6 = 2 ≠ 0 ✗\nx = 2: 4 − 10 + 6 = 0 ✓\nx = 3: 9 − 15 + 6 = 0 ✓\n"
        "x = 6: 36 − 30 + 6 = 12 ≠ 0 ✗\n\nThe incorrect options are A and D.",
        ["A", "D"],
        "per-value check marks then list",
    ),
    (
        "pens",
        R,
        [],
        "Let c = 1.5 be the price of one pen (6 ÷ 4). Ten pens cost 10c = 15. The options that "
        "are not $15 are A, B and D.\n\nAnswer: A, B, D",
        ["A", "B", "D"],
        "variable c then list",
    ),
    (
        "pens",
        R,
        ["cot"],
        "Incorrect options: A, B, D.\n\nStep by step: one pen costs 6/4 = 1.5, so 10 pens cost 1",
        ["A", "B", "D"],
        "conclusion first then cut off",
    ),
    ("pens", R, [], "10 pens cost $15.\n\n#### 15", None, "reverse computes right value only"),
]


def main() -> None:
    out = HERE / "holdout-b.jsonl"
    lines = []
    for n, (key, pol, mit, reply, expected, note) in enumerate(RECORDS, 1):
        labels = {c["label"] for c in ITEMS[key]["candidates"]}
        assert pol in (D, R) and set(mit) <= {"cot", "neg_exp"}
        assert expected is None or (set(expected) <= labels and expected == sorted(expected))
        rec = {
            "id": f"holdout-b:{n}",
            "source": "holdout-b-written",
            "dataset": "written",
            "item": ITEMS[key],
            "polarity": pol,
            "template": None,
            "mitigations": mit,
            "reply": reply,
            "expected": expected,
            "note": note,
        }
        lines.append(json.dumps(rec, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    direct = [r for r in RECORDS if r[1] == D]
    reverse = [r for r in RECORDS if r[1] == R]
    for name, rows in (("direct", direct), ("reverse", reverse), ("all", RECORDS)):
        nulls = sum(r[4] is None for r in rows)
        empty = sum(r[4] == [] for r in rows)
        single = sum(r[4] is not None and len(r[4]) == 1 for r in rows)
        multi = sum(r[4] is not None and len(r[4]) > 1 for r in rows)
        print(f"{name}: {len(rows)} (null {nulls}, [] {empty}, one {single}, several {multi})")


if __name__ == "__main__":
    main()
