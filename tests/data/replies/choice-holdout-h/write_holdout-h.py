"""Writes holdout-h.jsonl: hand-written judge replies to choice legs in the setting of the
PRIN paper (reverse question, negation explanation, reasoning paths) and of "Ask Again,
Then Fail" (judges that waver), each with the reading a careful person gives it.

Run from anywhere: python3 write_holdout-h.py
"""

from __future__ import annotations

import json
from pathlib import Path

SET = "holdout-h"
HERE = Path(__file__).resolve().parent

ITEMS = {
    "capitals": (
        "Which of the following cities are national capitals?",
        ["Canberra", "Sydney", "Ottawa", "Toronto", "Wellington"],
    ),
    "product": ("What is 17 × 6?", ["96", "102", "112", "106"]),
    "primes": ("Which of these numbers are prime?", ["21", "29", "37", "51", "57"]),
    "mammals": ("Which of these animals are mammals?", ["Dolphin", "Shark", "Bat", "Penguin"]),
    "boiling": (
        "At sea level, at what temperature does pure water boil?",
        ["90 °C", "100 °C", "110 °C", "120 °C"],
    ),
    "greatest-n": (
        "If n is an integer and 7n + 3 is less than or equal to 60, what is the greatest possible "
        "value of n?",
        ["6", "7", "8", "9", "10"],
    ),
    "noble-gases": (
        "Which of the following elements are noble gases?",
        ["Argon", "Nitrogen", "Neon", "Chlorine", "Krypton"],
    ),
    "div4": ("Which of these numbers are divisible by 4?", ["132", "146", "208", "310"]),
    "closest-planet": (
        "Which planet is closest to the Sun?",
        ["Venus", "Mercury", "Mars", "Earth"],
    ),
    "discount": (
        "A shirt costs $40 and is sold at a 25% discount. What is the sale price?",
        ["$10", "$25", "$30", "$35"],
    ),
    "swiss-languages": (
        "Which of these are official languages of Switzerland?",
        ["German", "French", "Dutch", "Italian", "Spanish"],
    ),
    "linear": ("Solve for x: 3x − 5 = 16.", ["5", "6", "7", "8"]),
    "squares": (
        "Which of these numbers are perfect squares?",
        ["144", "150", "169", "196", "200"],
    ),
}

MITIGATIONS = {"n": [], "c": ["cot"], "e": ["neg_exp"], "ce": ["cot", "neg_exp"]}

# (item, polarity, mitigations, reply, expected, note)
R, D = "reverse", "direct"
LEGS = [
    # capitals: correct A C E
    (
        "capitals",
        R,
        "e",
        "Incorrect here means the options that are not capitals, so the incorrect ones are B "
        "(Sydney) and D (Toronto).",
        ["B", "D"],
        "negation explained back",
    ),
    ("capitals", R, "n", "B, D", ["B", "D"], "bare labels"),
    (
        "capitals",
        R,
        "c",
        "Let's think step by step. Canberra is the capital of Australia, so A is not incorrect. "
        "Sydney is the largest Australian city but not the capital, so B is incorrect. Ottawa is "
        "the capital of Canada, so C is not incorrect. Toronto is not a national capital. "
        "Wellington is the capital of New Zealand.\n\nThe incorrect options are B and D.",
        ["B", "D"],
        "double negatives, per option, final line",
    ),
    (
        "capitals",
        R,
        "n",
        "The capitals are Canberra, Ottawa and Wellington.",
        None,
        "reverse answers the direct question only",
    ),
    (
        "capitals",
        R,
        "ce",
        "Path for A: Canberra has been Australia's capital since 1913, so A is a correct option, "
        "thus not in my answer.\n"
        "Path for B: Sydney is not a capital, so B goes in my answer.\n"
        "Path for C: Ottawa is the capital of Canada, so not in my answer.\n"
        "Path for D: Toronto is a provincial capital but not a national one, so D goes in my "
        "answer.\n"
        "Path for E: Wellington is the capital of New Zealand, not in my answer.\n"
        "Answer: B, D",
        ["B", "D"],
        "reasoning paths, not in my answer",
    ),
    ("capitals", R, "e", "All but A, C and E are incorrect.", ["B", "D"], "all but"),
    ("capitals", R, "n", "None of them is incorrect.", [], "none of them is incorrect"),
    (
        "capitals",
        R,
        "c",
        "Step by step: Sydney isn't the capital of Australia, so B is incorrect. Toronto... I "
        "think "
        "Toronto is the capital of Canada? No, Ottawa is. So D is incorrect as well. Hmm, but "
        "Wellington, is that right, or is Auckland the capital of New Zealand? I believe it is "
        "Wellington. Final: B and D.",
        ["B", "D"],
        "wavering, resolved",
    ),
    # product: correct B
    (
        "product",
        R,
        "n",
        "17 × 6 = 102, so the answer is B.",
        None,
        "reverse answers the direct question only",
    ),
    (
        "product",
        R,
        "e",
        "Recalling that the incorrect options are the ones different from the correct one: "
        "17 × 6 = 102, which is B. So the incorrect ones are A, C and D.",
        ["A", "C", "D"],
        "negation explained back",
    ),
    (
        "product",
        R,
        "c",
        "Let's think step by step. 17 × 6 = 10 × 6 + 7 × 6 = 60 + 42 = 102. Option B matches. "
        "Every option except B is incorrect.",
        ["A", "C", "D"],
        "every option except",
    ),
    (
        "product",
        R,
        "e",
        "B is correct, so the incorrect ones are the rest.",
        ["A", "C", "D"],
        "correct one, then the rest",
    ),
    (
        "product",
        R,
        "ce",
        "17 × 6: 17 × 5 = 85, plus 17 = 102. So B is the correct product and is not incorrect. "
        "96 (A) is 16 × 6, 112 (C) is off by ten, 106 (D) is off by four.\nIncorrect: A, C, D",
        ["A", "C", "D"],
        "double negative, per option",
    ),
    (
        "product",
        R,
        "n",
        "A, C, D.\n\nAre you sure? Let me re-check: 17 × 6 = 112? No, 17 × 6 = 102. Yes, A, C and "
        "D "
        "are incorrect.",
        ["A", "C", "D"],
        "are you sure, kept",
    ),
    (
        "product",
        R,
        "e",
        "Incorrect options are those that don't equal 17 × 6. 17 × 6 = 102. So the incorrect "
        "answer is B.",
        ["B"],
        "mixed-up conclusion",
    ),
    # primes: correct B C
    (
        "primes",
        R,
        "c",
        "Let's think step by step. 21 = 3 × 7, not prime. 29 is prime. 37 is prime. 51 = 3 × 17, "
        "not prime. 57 = 3 × 19, not prime. So the incorrect options are A, D and E.",
        ["A", "D", "E"],
        "cot, final sentence",
    ),
    (
        "primes",
        R,
        "e",
        "Since 'incorrect' means the numbers that are not prime: 21, 51 and 57 are "
        "composite.\n\nAnswer: A, D, E",
        ["A", "D", "E"],
        "negation explained back, answer line",
    ),
    (
        "primes",
        R,
        "n",
        "B and C are not incorrect; the others are.",
        ["A", "D", "E"],
        "double negative, the others",
    ),
    (
        "primes",
        R,
        "ce",
        "Path for A: 21 = 3·7, composite, so A is incorrect.\n"
        "Path for B: 29 has no divisor up to 5, prime, not incorrect.\n"
        "Path for C: 37 is prime, not incorrect.\n"
        "Path for D: 51 = 3·17, composite, incorrect.\n"
        "Path for E: 57. I first thought 57 was prime, but 5 + 7 = 12 is divisible by 3, so "
        "57 = 3·19 and E is incorrect too.\n"
        "The incorrect options: A, D, E.",
        ["A", "D", "E"],
        "reasoning paths, second thought inside",
    ),
    (
        "primes",
        R,
        "c",
        "Step by step: 21 is divisible by 3 and 7. 29 is prime. 37 is prime. 51 is divisible by 3. "
        "57 is divisible by 3.",
        ["A", "D", "E"],
        "per-option facts only, every option sided",
    ),
    (
        "primes",
        R,
        "n",
        "I think A and D, but maybe also E... 57 looks prime to me. Actually no, 57 = 3 × 19. "
        "I'll say A, D and E.",
        ["A", "D", "E"],
        "wavering, resolved",
    ),
    # mammals: correct A C
    (
        "mammals",
        R,
        "e",
        "Incorrect here means the animals that are not mammals, so: the shark (B) is a fish and "
        "the penguin (D) is a bird. B and D.",
        ["B", "D"],
        "negation explained back",
    ),
    (
        "mammals",
        R,
        "n",
        "The dolphin and the bat are mammals.",
        None,
        "reverse answers the direct question only",
    ),
    (
        "mammals",
        R,
        "c",
        "Let's think step by step. Dolphins breathe air and nurse their young: mammal. Sharks are "
        "cartilaginous fish. Bats are mammals that fly. Penguins are birds. So the options that "
        "are not mammals are B and D, which are the incorrect options.",
        ["B", "D"],
        "cot, final sentence",
    ),
    (
        "mammals",
        R,
        "e",
        "None of the options is incorrect except B and D.",
        ["B", "D"],
        "none except",
    ),
    (
        "mammals",
        R,
        "n",
        "Option A is incorrect because a dolphin is a fish. Option B is incorrect. C is correct. "
        "D is incorrect.",
        ["A", "B", "D"],
        "per option, judge wrong",
    ),
    (
        "mammals",
        R,
        "ce",
        "Recall: the incorrect options are simply those that are not mammals.\n"
        "Path for A: dolphin, warm-blooded, lungs, milk → mammal → correct option, not in my "
        "answer.\n"
        "Path for B: shark, gills → fish → incorrect.\n"
        "Path for C: bat → mammal → not in my answer.\n"
        "Path for D: penguin, feathers, eggs → bird → incorrect.\n\n"
        "Incorrect: B, D",
        ["B", "D"],
        "reasoning paths with arrows",
    ),
    # boiling: correct B
    (
        "boiling",
        R,
        "e",
        "The incorrect options are the ones different from the correct one. The correct one is "
        "B (100 °C), so the incorrect ones are A, C, D.",
        ["A", "C", "D"],
        "negation explained back",
    ),
    (
        "boiling",
        R,
        "c",
        "Step by step: at standard atmospheric pressure water boils at 100 °C. 90 °C is too low, "
        "110 and 120 °C are too high. Therefore A, C and D are incorrect and B is not.",
        ["A", "C", "D"],
        "cot, both sides",
    ),
    ("boiling", R, "n", "All but B.", ["A", "C", "D"], "all but"),
    ("boiling", R, "e", "Answer: B", ["B"], "bare label, likely confused"),
    # greatest-n: correct C
    ("greatest-n", R, "n", "C, D, E", ["C", "D", "E"], "paper's PRIN example, mixed-up"),
    (
        "greatest-n",
        R,
        "c",
        "Let's think step by step. 7n + 3 ≤ 60 means 7n ≤ 57, so n ≤ 8.14. n = 9 gives 66 and "
        "n = 10 gives 73, both too big. So D and E are incorrect.",
        ["D", "E"],
        "cot, only the violating ones",
    ),
    (
        "greatest-n",
        R,
        "e",
        "Incorrect options are the ones that differ from the correct answer. The greatest integer "
        "is 8 (C). So every option except C is incorrect: A, B, D, E.",
        ["A", "B", "D", "E"],
        "every option except, listed",
    ),
    (
        "greatest-n",
        R,
        "ce",
        "Path for A: n = 6 gives 45 ≤ 60 but is not the greatest, so A is incorrect.\n"
        "Path for B: n = 7 gives 52 ≤ 60, not the greatest, incorrect.\n"
        "Path for C: n = 8 gives 59 ≤ 60, and 9 fails, so C is the greatest, not incorrect.\n"
        "Path for D: 66 > 60, incorrect.\n"
        "Path for E: 73 > 60, incorrect.",
        ["A", "B", "D", "E"],
        "reasoning paths, no final line",
    ),
    (
        "greatest-n",
        R,
        "n",
        "The incorrect ones are D and E.\n\nAre you sure? Hmm, A and B also aren't the greatest "
        "value, so strictly they are incorrect too. Final answer: A, B, D, E.",
        ["A", "B", "D", "E"],
        "are you sure, revised",
    ),
    (
        "greatest-n",
        R,
        "c",
        "Step by step: 7·8 + 3 = 59 ≤ 60 and 7·9 + 3 = 66 > 60. So the greatest possible value of "
        "n is 8.",
        None,
        "reverse answers the direct question only",
    ),
    # noble gases: correct A C E
    (
        "noble-gases",
        R,
        "e",
        "Incorrect here means the options that are not noble gases, so nitrogen and chlorine: B "
        "and D.",
        ["B", "D"],
        "negation explained back",
    ),
    (
        "noble-gases",
        R,
        "n",
        "B is not incorrect. D is incorrect.",
        ["D"],
        "double negative, judge wrong",
    ),
    (
        "noble-gases",
        R,
        "c",
        "Let's think step by step. Group 18 of the periodic table: helium, neon, argon, krypton, "
        "xenon, radon. Argon (A): group 18. Nitrogen (B): group 15. Neon (C): group 18. "
        "Chlorine (D): group 17, a halogen. Krypton (E): group 18. The incorrect options are B "
        "and D.",
        ["B", "D"],
        "cot, per option, final sentence",
    ),
    (
        "noble-gases",
        R,
        "e",
        "None of them is incorrect; all five are gases at room temperature.",
        [],
        "none incorrect, judge wrong",
    ),
    (
        "noble-gases",
        R,
        "ce",
        "Recall that incorrect options are the ones different from the correct ones. Correct ones "
        "(noble gases): argon, neon, krypton, so A, C, E. So the incorrect ones are the rest.",
        ["B", "D"],
        "correct ones, then the rest",
    ),
    # div4: correct A C
    (
        "div4",
        R,
        "c",
        "Step by step. A number is divisible by 4 if its last two digits are. 32 ÷ 4 = 8, so 132 "
        "works. 46 ÷ 4 = 11.5, so 146 does not. 08 ÷ 4 = 2, so 208 works. 10 ÷ 4 = 2.5, so 310 "
        "does not. The options that are incorrect: B, D.",
        ["B", "D"],
        "cot, final line",
    ),
    (
        "div4",
        R,
        "e",
        "A and C are divisible by 4, so the incorrect ones are the rest.",
        ["B", "D"],
        "correct ones, then the rest",
    ),
    (
        "div4",
        R,
        "c",
        "Let's think step by step. 132 ÷ 4 = 33, so A is divisible. 146 ÷ 4 = 36.5, so B is",
        None,
        "cut off",
    ),
    (
        "div4",
        R,
        "e",
        "Incorrect means not divisible by 4. B and D are not divisible by 4, so they are "
        "incorrect... though if the question wants the options that are wrong answers to the "
        "exercise, then A and C.",
        None,
        "two readings left open",
    ),
    # closest planet: correct B
    (
        "closest-planet",
        R,
        "c",
        "Let's think step by step. The order from the Sun is Mercury, Venus, Earth, Mars. So "
        "Mercury is closest and the others are not. The incorrect options are A, C and D.",
        ["A", "C", "D"],
        "cot, final sentence",
    ),
    (
        "closest-planet",
        R,
        "e",
        "Incorrect here means the planets that are not the closest one to the Sun, so Venus, Mars "
        "and Earth: A, C, D.",
        ["A", "C", "D"],
        "negation explained back",
    ),
    ("closest-planet", R, "n", "Venus is incorrect.", ["A"], "one named, partial"),
    (
        "closest-planet",
        R,
        "ce",
        "Path for A: Venus is the second planet, so A is not the closest: incorrect.\n"
        "Path for B: Mercury is the first planet. This is the correct option, thus not in my "
        "answer.\n"
        "Path for C: Mars is fourth: incorrect.\n"
        "Path for D: Earth is third: incorrect.\n"
        "My answer: A, C, D",
        ["A", "C", "D"],
        "reasoning paths, my answer",
    ),
    # discount: correct C
    (
        "discount",
        R,
        "c",
        "Step by step: 25% of $40 is $10. $40 − $10 = $30. So the sale price is $30 (C), and the "
        "incorrect ones are A, B and D. Note that A ($10) is the discount, not the sale price.",
        ["A", "B", "D"],
        "cot, trailing note",
    ),
    (
        "discount",
        R,
        "e",
        "Incorrect here means the prices that are not the sale price. The sale price is $30. So "
        "A, B and D.",
        ["A", "B", "D"],
        "negation explained back",
    ),
    ("discount", R, "n", "A", ["A"], "bare single label"),
    (
        "discount",
        R,
        "e",
        "Hmm. $40 × 0.25 = $10, so A? No wait, that's the discount. The sale price is $30. Since "
        "'incorrect' means the options that are not the sale price, I'd say A, B, D... but maybe "
        "B too if they mean... no, B is already in. A, B and D.",
        ["A", "B", "D"],
        "wavering, resolved",
    ),
    (
        "discount",
        R,
        "ce",
        "Recall incorrect options = the options different from the correct one.\n"
        "Path: 25% of 40 = 10; 40 − 10 = 30. The correct answer is C.\n\nIncorrect: C",
        ["C"],
        "mixed-up final line",
    ),
    # swiss languages: correct A B D
    (
        "swiss-languages",
        R,
        "e",
        "Incorrect here means the options that are not official languages of Switzerland, so "
        "Dutch (C) and Spanish (E).",
        ["C", "E"],
        "negation explained back",
    ),
    (
        "swiss-languages",
        R,
        "c",
        "Let's think step by step. Switzerland has four national languages: German, French, "
        "Italian and Romansh. Dutch and Spanish are not among them. So the incorrect options are "
        "C and E.",
        ["C", "E"],
        "cot, final sentence",
    ),
    (
        "swiss-languages",
        R,
        "e",
        "Every option except A, B and D.",
        ["C", "E"],
        "every option except",
    ),
    (
        "swiss-languages",
        R,
        "e",
        "German, French and Italian are official.",
        None,
        "reverse answers the direct question only",
    ),
    (
        "swiss-languages",
        R,
        "c",
        "Step by step: German: official. French: official. Dutch: not. Italian: official. "
        "Spanish: I'm not sure, possibly in Ticino? No, Ticino is Italian-speaking. Spanish: not.\n"
        "Answer: C, E",
        ["C", "E"],
        "per option, second thought, answer line",
    ),
    # linear: correct C
    ("linear", R, "n", "x = 7", None, "reverse answers the direct question only"),
    (
        "linear",
        R,
        "e",
        "Incorrect ones = options different from the correct one. 3x = 21, x = 7, C. Incorrect: "
        "A, B, D.",
        ["A", "B", "D"],
        "negation explained back",
    ),
    (
        "linear",
        R,
        "c",
        "Step by step: 3x − 5 = 16 → 3x = 21 → x = 7. Checking: A gives 10, B gives 13, C gives "
        "16, D gives 19. Only C satisfies the equation; none of A, B, D do. So A, B, D are the "
        "incorrect options.",
        ["A", "B", "D"],
        "cot, none of ... do",
    ),
    (
        "linear",
        R,
        "ce",
        "Path for A: 3·5 − 5 = 10 ≠ 16 → incorrect.\n"
        "Path for B: 3·6 − 5 = 13 ≠ 16 → incorrect.\n"
        "Path for C: 3·7 − 5 = 16 → correct, not in my answer.\n"
        "Path for D: 3·8 − 5 = 19 ≠ 16 → incorrect.\n"
        "Incorrect options: A, B and D.",
        ["A", "B", "D"],
        "reasoning paths",
    ),
    (
        "linear",
        R,
        "n",
        "Are you sure you want the incorrect ones? The answer is C.",
        None,
        "reverse answers the direct question, questions the prompt",
    ),
    # squares: correct A C D
    (
        "squares",
        R,
        "e",
        "Incorrect here means the numbers that are not perfect squares. 150 and 200 are not: B "
        "and E.",
        ["B", "E"],
        "negation explained back",
    ),
    (
        "squares",
        R,
        "e",
        "B and E are not perfect squares, so they're the incorrect ones.",
        ["B", "E"],
        "short, reason then label",
    ),
    (
        "squares",
        R,
        "c",
        "Let's think step by step. 12² = 144, 13² = 169, 14² = 196. 150 lies between 12² and 13²; "
        "200 lies between 14² and 15² = 225. So none of A, C, D is incorrect, and B and E are.",
        ["B", "E"],
        "none of ... is incorrect, and ... are",
    ),
    (
        "squares",
        R,
        "ce",
        "I think B, but maybe also E... 200 is about 14.14², not a whole square. I'll say B and E.",
        ["B", "E"],
        "wavering, resolved",
    ),
    ("squares", R, "e", "None of them is incorrect.", [], "none of them is incorrect"),
    # direct legs
    ("capitals", D, "n", "A, C, E", ["A", "C", "E"], "bare labels"),
    (
        "capitals",
        D,
        "c",
        "Let's think step by step. Canberra: capital of Australia. Sydney: no. Ottawa: capital of "
        "Canada. Toronto: no. Wellington: capital of New Zealand. Correct: A, C, E.",
        ["A", "C", "E"],
        "cot, per option, final line",
    ),
    (
        "capitals",
        D,
        "n",
        "Canberra and Ottawa are not incorrect, and Wellington is not incorrect either.",
        ["A", "C", "E"],
        "double negatives in a direct leg",
    ),
    ("product", D, "n", "B", ["B"], "bare label"),
    (
        "product",
        D,
        "c",
        "17 × 6: 7 × 6 = 42, 10 × 6 = 60, total 102. Answer: B.\n\nAre you sure? Let me "
        "double-check: 102 ÷ 6 = 17. Yes, B.",
        ["B"],
        "are you sure, kept",
    ),
    (
        "product",
        D,
        "c",
        "Step by step: 17 × 6 = 17 + 17 + 17 + 17 + 17 + 17 = 102.",
        ["B"],
        "value only, no label",
    ),
    ("primes", D, "n", "29 and 37 are prime, so B and C.", ["B", "C"], "values then labels"),
    (
        "primes",
        D,
        "c",
        "Step by step: 21 = 3×7. 29 prime. 37 prime. 51: I think 51 is prime. 57 = 3 × 19. So B, "
        "C and D.",
        ["B", "C", "D"],
        "cot, judge wrong",
    ),
    (
        "primes",
        D,
        "n",
        "I think B, but maybe also E... 57 could be prime. I'll say B, C and E.",
        ["B", "C", "E"],
        "wavering, resolved, judge wrong",
    ),
    ("mammals", D, "n", "A and C", ["A", "C"], "bare labels"),
    (
        "mammals",
        D,
        "c",
        "Let's think step by step. Dolphins are mammals; sharks are fish; bats",
        None,
        "cut off",
    ),
    ("boiling", D, "n", "B (100 °C).", ["B"], "label with value"),
    (
        "greatest-n",
        D,
        "c",
        "7n ≤ 57, n ≤ 8.14, greatest integer 8. The answer is C.",
        ["C"],
        "short cot",
    ),
    (
        "greatest-n",
        D,
        "n",
        "C. Hmm, or D? 7·9 = 63, plus 3 is 66, too big. C.",
        ["C"],
        "second thought, kept",
    ),
    (
        "noble-gases",
        D,
        "n",
        "A, C and E are noble gases. B is not. D is not.",
        ["A", "C", "E"],
        "every option sided",
    ),
    (
        "noble-gases",
        D,
        "c",
        "Step by step: argon, neon and krypton are in group 18. Nitrogen is group 15. Chlorine is "
        "group 17. So the correct options are A, C and E, and the incorrect ones are B and D.",
        ["A", "C", "E"],
        "direct leg naming both sides",
    ),
    ("div4", D, "n", "None of them is divisible by 4.", [], "none, judge wrong"),
    (
        "div4",
        D,
        "c",
        "132 = 4 × 33 ✓. 146 = 4 × 36.5 ✗. 208 = 4 × 52 ✓. 310 = 4 × 77.5 ✗. Answer: A and C.",
        ["A", "C"],
        "check marks, answer line",
    ),
    ("closest-planet", D, "n", "Mercury (B)", ["B"], "value with label"),
    (
        "closest-planet",
        D,
        "n",
        "I'd say A, Venus.\n\nAre you sure? Hmm, Venus is the closest planet to Earth, not to the "
        "Sun. The closest to the Sun is Mercury, so B.",
        ["B"],
        "are you sure, revised",
    ),
    (
        "discount",
        D,
        "c",
        "Step by step: 25% of 40 = 10. 40 − 10 = 30. Answer: C",
        ["C"],
        "short cot, answer line",
    ),
    (
        "discount",
        D,
        "n",
        "A or C: A is $10 off, C is $30. Not sure which one the question means.",
        None,
        "two answers, unresolved",
    ),
    (
        "swiss-languages",
        D,
        "n",
        "German, French and Italian: A, B and D.",
        ["A", "B", "D"],
        "values then labels",
    ),
    (
        "swiss-languages",
        D,
        "c",
        "Switzerland's official languages are German, French, Italian and Romansh. So A, B, D are "
        "correct; C (Dutch) and E (Spanish) are incorrect.",
        ["A", "B", "D"],
        "direct leg naming both sides",
    ),
    ("swiss-languages", D, "n", "All but C and E.", ["A", "B", "D"], "all but"),
    ("linear", D, "n", "C", ["C"], "bare label"),
    (
        "linear",
        D,
        "c",
        "3x − 5 = 16, 3x = 21, x = 7. C is correct, A, B, D are not.",
        ["C"],
        "direct leg naming both sides",
    ),
    (
        "squares",
        D,
        "n",
        "A, C and D are perfect squares; every option except B and E.",
        ["A", "C", "D"],
        "labels and every option except",
    ),
    (
        "squares",
        D,
        "c",
        "Let's think step by step. 144 = 12², 150 is not a square, 169 = 13², 196 = 14², 200 is "
        "not. Correct: A, C, D.\n\nWait, is 196 really 14²? 14 × 14 = 196. Yes.",
        ["A", "C", "D"],
        "second thought, kept",
    ),
    (
        "squares",
        D,
        "n",
        "A and C. Maybe D as well, I'm not sure about 196.",
        None,
        "wavering, unresolved",
    ),
]


def item(slug: str) -> dict[str, object]:
    question, texts = ITEMS[slug]
    return {
        "id": f"{SET}-item-{slug}",
        "question": question,
        "candidates": [{"label": "ABCDE"[i], "text": t} for i, t in enumerate(texts)],
    }


def main() -> None:
    lines = []
    for n, (slug, polarity, mit, reply, expected, note) in enumerate(LEGS, start=1):
        labels = "ABCDE"[: len(ITEMS[slug][1])]
        assert expected is None or all(x in labels for x in expected), (n, expected)
        assert polarity == R or "neg_exp" not in MITIGATIONS[mit], n
        record = {
            "id": f"{SET}:{n}",
            "source": f"{SET}-written",
            "dataset": "written",
            "item": item(slug),
            "polarity": polarity,
            "template": None,
            "mitigations": MITIGATIONS[mit],
            "reply": reply,
            "expected": None if expected is None else sorted(expected),
            "note": note,
        }
        lines.append(json.dumps(record, ensure_ascii=False))
    (HERE / f"{SET}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
