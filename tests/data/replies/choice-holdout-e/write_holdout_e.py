# ruff: noqa: E501
"""Write holdout-e.jsonl: 80 hand-written (blind) judge replies to choice items."""

import json
from pathlib import Path

ITEMS = {
    "cap": (
        "Which of these cities are national capitals?",
        ["Paris", "Sydney", "Ottawa", "Istanbul"],
    ),
    "mul": ("What is 17 x 6?", ["96", "102", "112", "108"]),
    "prime": ("Which of these numbers are prime?", ["21", "29", "37", "51", "2"]),
    "mam": ("Which of these animals are mammals?", ["Dolphin", "Bat", "Whale", "Platypus"]),
    "gas": ("Which of these planets are gas giants?", ["Mars", "Jupiter", "Venus", "Saturn"]),
    "div": ("What is 144 / 12 + 5?", ["17", "12", "19", "7"]),
    "noble": (
        "Which of these elements are noble gases?",
        ["Neon", "Nitrogen", "Argon", "Chlorine", "Helium"],
    ),
    "rom": (
        "Which of these languages are Romance languages?",
        ["German", "Portuguese", "Romanian", "Polish"],
    ),
    "even": ("Which of these numbers are even?", ["14", "33", "57", "81"]),
    "aust": (
        "Which of these novels were written by Jane Austen?",
        ["Emma", "Jane Eyre", "Persuasion", "Middlemarch"],
    ),
    "pct": ("What is 15% of 80?", ["10", "12", "15", "8"]),
    "metal": (
        "Which of these elements are metals?",
        ["Sodium", "Sulfur", "Copper", "Mercury", "Carbon"],
    ),
}

C, N, CN, P = ["cot"], ["neg_exp"], ["cot", "neg_exp"], []
D, R = "direct", "reverse"

RECS = [
    # ---------------- capitals (A, C) ----------------
    (
        "cap",
        D,
        C,
        ["A", "C"],
        "option-by-option parenthesised, Answer line",
        "Let's think step by step. The question asks which of the listed cities are national capitals.\n\n"
        "Option A (Paris): Paris is the capital of France. Correct.\n"
        "Option B (Sydney): Sydney is the largest city in Australia, but the capital is Canberra. Not correct.\n"
        "Option C (Ottawa): Ottawa is the capital of Canada. Correct.\n"
        "Option D (Istanbul): Istanbul is Turkey's biggest city, but the capital is Ankara. Not correct.\n\n"
        "Answer: A, C",
    ),
    (
        "cap",
        R,
        C,
        ["B", "D"],
        "reverse done right, bold bullets, 'incorrect ones' line",
        "Let's think step by step about which options are incorrect, i.e. which cities are NOT national capitals.\n\n"
        "- **A. Paris** — capital of France, so this is a correct option.\n"
        "- **B. Sydney** — not a capital; Australia's capital is Canberra. Incorrect.\n"
        "- **C. Ottawa** — capital of Canada, correct.\n"
        "- **D. Istanbul** — a common trap; the capital of Turkey is Ankara. Incorrect.\n\n"
        "The incorrect ones: B, D.",
    ),
    (
        "cap",
        R,
        C,
        None,
        "reverse drifts to direct answer",
        "Let's think step by step. We need to look at each city and see if it is a national capital.\n\n"
        "Paris is the capital of France, and Ottawa is the capital of Canada; both are well known."
        "\n\n"
        "So the cities that are national capitals are Paris and Ottawa.\n\nAnswer: A, C",
    ),
    ("cap", D, P, ["A", "C"], "no reasoning, bare answer line", "Answer: A, C"),
    (
        "cap",
        D,
        C,
        ["A", "C"],
        "arrow-check format, texts in conclusion",
        "Let's think step by step.\n\n"
        "A) Paris → capital of France ✔\n"
        "B) Sydney → largest city of Australia, capital is Canberra ✘\n"
        "C) Ottawa → capital of Canada ✔\n"
        "D) Istanbul → capital is Ankara ✘\n\n"
        "The national capitals are Paris and Ottawa.",
    ),
    (
        "cap",
        R,
        CN,
        ["B", "D"],
        "reverse, predicate of question in conclusion (not capitals)",
        "Let's think step by step. Incorrect options are simply the options that are not correct, so I need the cities that are not national capitals.\n\n"
        "Looking at A, Paris is the capital of France, so it is a correct option. Looking at B, Sydney is not Australia's capital (that is Canberra). "
        "Looking at C, Ottawa is the capital of Canada. Looking at D, Istanbul is not the capital of Turkey; Ankara is.\n\n"
        "Therefore the options that are not national capitals are B and D.",
    ),
    # ---------------- multiplication (B) ----------------
    (
        "mul",
        D,
        C,
        ["B"],
        "arithmetic worked, Final answer line",
        "Let's think step by step. 17 x 6 = (10 x 6) + (7 x 6) = 60 + 42 = 102.\n\n"
        "Checking the options: A is 96, too small. B is 102, which matches. C is 112, too large. D is 108, which would be 18 x 6.\n\n"
        "Final answer: B",
    ),
    (
        "mul",
        R,
        C,
        ["A", "C", "D"],
        "reverse arithmetic, every option given a side",
        "Let's think step by step. First compute 17 x 6: 17 x 6 = 102.\n\n"
        "First, A (96): this is 16 x 6, so it is wrong. Second, B (102): this equals our result, so it is the correct one. "
        "Third, C (112): wrong. Fourth, D (108): that is 18 x 6, wrong.\n\n"
        "So the incorrect options are A, C and D.",
    ),
    (
        "mul",
        D,
        C,
        ["B"],
        "changes mind mid-way",
        "Let's think step by step. 17 x 6... 17 x 5 = 85, plus 17 gives 108. So D looks right.\n\n"
        "Wait, let me double-check: 85 + 17 = 102, not 108. I made an addition mistake. So 17 x 6 = 102, which is option B.\n\n"
        "Answer: B",
    ),
    (
        "mul",
        R,
        P,
        ["A", "C", "D"],
        "no reasoning, reverse, sentence",
        "The incorrect options are A, C, and D.",
    ),
    (
        "mul",
        R,
        C,
        None,
        "reverse drifts, answers the number only",
        "Let's think step by step. 17 x 6: 7 x 6 = 42, write 2 carry 4; 1 x 6 = 6, plus 4 = 10. So the product is 102.\n\n"
        "Answer: 102",
    ),
    (
        "mul",
        D,
        C,
        ["B"],
        "answer as text not label",
        "Let's think step by step. Breaking it down: 17 x 6 = 17 x 3 x 2 = 51 x 2 = 102. "
        "Among the options, 96, 112 and 108 do not match this value.\n\nSo the answer is 102.",
    ),
    # ---------------- primes (B, C, E) ----------------
    (
        "prime",
        D,
        C,
        ["B", "C", "E"],
        "first/second enumeration, Therefore line",
        "Let's think step by step. A prime has exactly two divisors.\n\n"
        "First, 21 = 3 x 7, so A is not prime. Second, 29 has no divisors other than 1 and 29, so B is prime. "
        "Third, 37 is only divisible by 1 and 37, so C is prime. Fourth, 51 = 3 x 17, so D is not prime. "
        "Fifth, 2 is the only even prime, so E is prime.\n\n"
        "Therefore, the correct options are B, C and E.",
    ),
    (
        "prime",
        R,
        C,
        ["A", "D"],
        "reverse, predicate conclusion 'not prime'",
        "Let's think step by step.\n\n"
        "A) 21 — divisible by 3 and 7.\n"
        "B) 29 — prime.\n"
        "C) 37 — prime.\n"
        "D) 51 — 51 = 3 x 17.\n"
        "E) 2 — prime (the only even prime).\n\n"
        "So the numbers that are not prime are 21 and 51, i.e. A and D.",
    ),
    (
        "prime",
        D,
        C,
        None,
        "analysis disagrees with final line (contradiction)",
        "Let's think step by step.\n\n"
        "21: 3 x 7, not prime.\n29: prime.\n37: prime.\n51: 3 x 17, not prime.\n2: prime.\n\n"
        "So the prime numbers are 29, 37 and 2.\n\nAnswer: B, C",
    ),
    (
        "prime",
        R,
        CN,
        ["A", "D"],
        "reverse, bold 'So my answer'",
        "Let's think step by step. The incorrect options are the ones that are not correct, so I need the non-prime numbers.\n\n"
        "- 21 is 3 times 7, composite.\n- 29 is prime.\n- 37 is prime.\n- 51 is 3 times 17, composite.\n- 2 is prime.\n\n"
        "So my answer: **A and D**",
    ),
    (
        "prime",
        D,
        C,
        None,
        "no conclusion, cut off",
        "Let's think step by step. To check if a number is prime we test divisibility by primes up to its square root.\n\n"
        "A: 21 — divisible by 3, so not prime.\nB: 29 — not divisible by 2, 3 or 5, so prime.\n"
        "C: 37 — not divisible by 2, 3 or 5, so prime.\nD: 51 — 5 + 1 = 6, divisible by 3, so",
    ),
    ("prime", R, P, ["A", "D"], "no reasoning, Hence parenthesised", "Hence (A) and (D)."),
    ("prime", D, P, ["B", "C", "E"], "bare last line labels", "B, C, E"),
    # ---------------- mammals (all) ----------------
    (
        "mam",
        D,
        C,
        ["A", "B", "C", "D"],
        "all options right, 'all of them'",
        "Let's think step by step.\n\n"
        "Dolphin: a marine mammal, breathes air and nurses its young. Yes.\n"
        "Bat: the only mammal capable of true flight. Yes.\n"
        "Whale: a marine mammal. Yes.\n"
        "Platypus: lays eggs, but it is a monotreme, which is a mammal. Yes.\n\n"
        "All four are mammals, so the correct options are A, B, C and D.",
    ),
    (
        "mam",
        R,
        C,
        [],
        "reverse, none incorrect",
        "Let's think step by step. Which of these animals are not mammals?\n\n"
        "A) Dolphin — mammal.\nB) Bat — mammal.\nC) Whale — mammal.\n"
        "D) Platypus — this one is tricky because it lays eggs, but monotremes are mammals.\n\n"
        "Every option is a mammal, so none of the options is incorrect.\n\nAnswer: none",
    ),
    (
        "mam",
        R,
        C,
        ["D"],
        "reverse, wrong belief but clear conclusion",
        "Let's think step by step. We are looking for the incorrect options, the animals that are not mammals.\n\n"
        "Dolphins, bats and whales all give birth to live young and nurse them, so they are mammals. "
        "The platypus lays eggs, which mammals do not do, so it is not a mammal.\n\n"
        "The incorrect option is D.",
    ),
    (
        "mam",
        D,
        C,
        ["A", "B", "C"],
        "changes mind against platypus",
        "Let's think step by step. A dolphin is a mammal. A bat is a mammal. A whale is a mammal. "
        "The platypus has fur and produces milk, so at first it seems to be a mammal too... "
        "but it lays eggs, and I will go with it not counting here.\n\n"
        "Final answer: A, B, C",
    ),
    (
        "mam",
        D,
        P,
        ["A", "B", "C", "D"],
        "no reasoning, 'All of the above'",
        "All of the above (A, B, C, D).",
    ),
    (
        "mam",
        R,
        CN,
        [],
        "reverse, empty in words only",
        "Let's think step by step. Incorrect options are simply the options different from the correct ones. "
        "Dolphin, bat, whale and platypus are all mammals — the platypus is an egg-laying mammal, but a mammal nonetheless. "
        "Since all four options are correct, there are no incorrect options in this list.",
    ),
    # ---------------- gas giants (B, D) ----------------
    (
        "gas",
        D,
        C,
        ["B", "D"],
        "Looking at X format, bold final",
        "Let's think step by step.\n\n"
        "Looking at A, Mars is a small rocky planet. Looking at B, Jupiter is the largest planet and is made mostly of hydrogen and helium, a gas giant. "
        "Looking at C, Venus is rocky, similar in size to Earth. Looking at D, Saturn is also a gas giant.\n\n"
        "So the answer is **B and D**.",
    ),
    (
        "gas",
        R,
        C,
        ["A", "C"],
        "reverse, 'terrestrial' predicate",
        "Let's think step by step. The question asks for the incorrect options — planets that are not gas giants.\n\n"
        "Mars (A) and Venus (C) are terrestrial, rocky planets. Jupiter (B) and Saturn (D) are gas giants.\n\n"
        "Therefore, the incorrect options are A and C.",
    ),
    (
        "gas",
        R,
        C,
        None,
        "reverse drifts, answers direct with labels",
        "Let's think step by step.\n\n"
        "Jupiter is the largest planet, made mostly of hydrogen and helium. Saturn has the same composition.\n\n"
        "The gas giants in the list are Jupiter and Saturn.\n\nFinal answer: B, D",
    ),
    (
        "gas",
        D,
        C,
        ["B", "D"],
        "texts in conclusion",
        "Let's think step by step. Gas giants are large planets composed mostly of hydrogen and helium. "
        "In our solar system these are Jupiter and Saturn (Uranus and Neptune are often called ice giants). "
        "Mars and Venus are inner rocky planets.\n\nThe gas giants here are Jupiter and Saturn.",
    ),
    (
        "gas",
        R,
        N,
        ["A", "C"],
        "no reasoning, reverse, sentence with texts",
        "The incorrect options are A) Mars and C) Venus.",
    ),
    ("gas", D, P, ["B", "D"], "no reasoning, 'B and D'", "B and D"),
    # ---------------- division (A) ----------------
    (
        "div",
        D,
        C,
        ["A"],
        "order of operations, Answer line",
        "Let's think step by step. By order of operations, division comes before addition. "
        "144 / 12 = 12. Then 12 + 5 = 17.\n\n"
        "Option A is 17, which matches. Option B (12) is only the division. Option C (19) and D (7) don't match.\n\nAnswer: A",
    ),
    (
        "div",
        R,
        C,
        ["B", "C", "D"],
        "reverse, check/cross list, bare last line",
        "Let's think step by step. 144 / 12 = 12, and 12 + 5 = 17. So 17 is correct and the rest are incorrect.\n\n"
        "A) 17 ✔\nB) 12 ✘\nC) 19 ✘\nD) 7 ✘\n\n"
        "B, C, D",
    ),
    (
        "div",
        D,
        C,
        None,
        "wrong order of ops then no clear pick",
        "Let's think step by step. We could read it as 144 / (12 + 5) = 144 / 17 ≈ 8.47, which is not among the options. "
        "Or as (144 / 12) + 5 = 17, which is option A. Depending on the convention the answer could differ, "
        "and 8.47 is not listed, so the question may be ambiguous.",
    ),
    (
        "div",
        R,
        CN,
        ["B", "C", "D"],
        "reverse, 'all except'",
        "Let's think step by step. Incorrect options are just those different from the correct ones. "
        "144 divided by 12 is 12, plus 5 is 17. Only option A equals 17.\n\n"
        "So every option except A is incorrect: B, C and D.",
    ),
    ("div", R, P, ["B", "C", "D"], "no reasoning, Answer line with spaces", "Answer: B C D"),
    (
        "div",
        D,
        C,
        ["A"],
        "answer text with label parenthetical",
        "Let's think step by step.\nStep 1: 144 / 12 = 12.\nStep 2: 12 + 5 = 17.\n\nThe result is 17 (option A).",
    ),
    # ---------------- noble gases (A, C, E) ----------------
    (
        "noble",
        D,
        C,
        ["A", "C", "E"],
        "group 18 reasoning, Answer line",
        "Let's think step by step. Noble gases are in group 18: helium, neon, argon, krypton, xenon, radon.\n\n"
        "A) Neon — group 18, yes.\nB) Nitrogen — group 15, no.\nC) Argon — group 18, yes.\n"
        "D) Chlorine — a halogen (group 17), no.\nE) Helium — group 18, yes.\n\nAnswer: A, C, E",
    ),
    (
        "noble",
        R,
        C,
        ["B", "D"],
        "reverse, 'not noble gases' predicate, texts",
        "Let's think step by step. We want the options that are incorrect, that is, elements that are not noble gases. "
        "Neon, argon and helium are all noble gases. Nitrogen is a reactive nonmetal and chlorine is a halogen.\n\n"
        "The elements that are not noble gases are nitrogen and chlorine.",
    ),
    (
        "noble",
        D,
        C,
        ["A", "C", "E"],
        "changes mind about nitrogen",
        "Let's think step by step. Nitrogen is a gas at room temperature and quite unreactive, so maybe B? "
        "No — being unreactive isn't enough; noble gases are group 18, and nitrogen is group 15. "
        "Neon, argon and helium are group 18. Chlorine is a halogen.\n\nSo the correct options are A, C and E.",
    ),
    ("noble", R, N, ["B", "D"], "no reasoning, 'Incorrect:' prefix", "Incorrect: B, D"),
    ("noble", D, P, ["A", "C", "E"], "no reasoning, parenthesised labels", "(A), (C), (E)"),
    (
        "noble",
        R,
        CN,
        ["B", "D"],
        "reverse, lowercase labels in prose",
        "Let's think step by step. Incorrect options are the ones that differ from the correct ones. "
        "Options a, c and e (neon, argon, helium) are noble gases, so they're correct. "
        "Option b (nitrogen) and option d (chlorine) are not noble gases.\n\n"
        "Therefore the incorrect ones are b and d.",
    ),
    # ---------------- Romance (B, C) ----------------
    (
        "rom",
        D,
        C,
        ["B", "C"],
        "family reasoning, Hence parenthesised",
        "Let's think step by step. Romance languages descend from Latin.\n\n"
        "German is a Germanic language. Portuguese comes from Latin. Romanian also descends from Latin, despite being in Eastern Europe. "
        "Polish is a Slavic language.\n\nHence (B) and (C).",
    ),
    (
        "rom",
        R,
        C,
        ["A", "D"],
        "reverse, option-by-option verdict words",
        "Let's think step by step.\n\n"
        "Option A (German): Germanic, not Romance → incorrect.\n"
        "Option B (Portuguese): Romance → correct.\n"
        "Option C (Romanian): Romance → correct.\n"
        "Option D (Polish): Slavic → incorrect.\n\n"
        "Answer: A, D",
    ),
    (
        "rom",
        D,
        C,
        ["B"],
        "per-option analysis disagrees with final line (final wins)",
        "Let's think step by step.\n\n"
        "- German: Germanic.\n- Portuguese: Romance, from Latin.\n- Romanian: also derived from Latin, so Romance.\n- Polish: Slavic.\n\n"
        "Final answer: B",
    ),
    (
        "rom",
        R,
        C,
        None,
        "reverse drifts, concludes 'Romance languages are'",
        "Let's think step by step. Romance languages come from Vulgar Latin. Portuguese is clearly one. "
        "Romanian is too, even though it is surrounded by Slavic languages.\n\n"
        "Therefore, the Romance languages are B and C.",
    ),
    ("rom", R, P, ["A", "D"], "no reasoning, bold labels", "**A, D**"),
    (
        "rom",
        D,
        C,
        None,
        "hedged, no commitment",
        "Let's think step by step. Portuguese is definitely a Romance language. Romanian is often listed as one, "
        "although it has many Slavic loanwords, so some might argue. German and Polish are not. "
        "It depends on how strictly one defines the family.",
    ),
    # ---------------- even (A) ----------------
    (
        "even",
        D,
        C,
        ["A"],
        "single right in multi-select",
        "Let's think step by step. An even number is divisible by 2.\n\n"
        "14 / 2 = 7, so 14 is even. 33, 57 and 81 all end in odd digits, so they are odd.\n\n"
        "Only option A is correct.\n\nAnswer: A",
    ),
    (
        "even",
        R,
        C,
        ["B", "C", "D"],
        "reverse, 'odd' predicate",
        "Let's think step by step. Incorrect options here are the numbers that are not even.\n\n"
        "A: 14 — even.\nB: 33 — odd.\nC: 57 — odd.\nD: 81 — odd.\n\n"
        "The odd numbers are B, C and D, so those are the incorrect options.",
    ),
    (
        "even",
        R,
        CN,
        ["B", "C", "D"],
        "reverse, texts only",
        "Let's think step by step. Incorrect options are the ones different from the correct ones. "
        "14 is even. 33, 57 and 81 are odd.\n\nThe incorrect options are 33, 57 and 81.",
    ),
    (
        "even",
        D,
        C,
        ["A"],
        "'The only correct option is'",
        "Let's think step by step. Check the last digit: 14 ends in 4 (even), 33 ends in 3, 57 ends in 7, 81 ends in 1 (all odd).\n\n"
        "The only correct option is A (14).",
    ),
    (
        "even",
        R,
        C,
        None,
        "reverse, ends with direct answer only",
        "Let's think step by step.\n\n14 → divisible by 2 ✔\n\nThe even number is 14.\n\nAnswer: A",
    ),
    ("even", D, P, ["A"], "no reasoning, 'Answer: (A)'", "Answer: (A)"),
    # ---------------- Austen (A, C) ----------------
    (
        "aust",
        D,
        C,
        ["A", "C"],
        "author attribution, So my answer bold",
        "Let's think step by step.\n\n"
        "- **A. Emma** — Jane Austen, 1815. ✔\n- **B. Jane Eyre** — Charlotte Brontë, not Austen.\n"
        "- **C. Persuasion** — Jane Austen, published posthumously in 1817. ✔\n- **D. Middlemarch** — George Eliot.\n\n"
        "So my answer: **A and C**",
    ),
    (
        "aust",
        R,
        C,
        ["B", "D"],
        "reverse, 'not written by Austen' predicate",
        "Let's think step by step. I need the incorrect options, i.e. the novels Jane Austen did not write.\n\n"
        "Emma and Persuasion are both Austen novels. Jane Eyre was written by Charlotte Brontë, and Middlemarch by George Eliot.\n\n"
        "So the novels not written by Jane Austen are B (Jane Eyre) and D (Middlemarch).",
    ),
    (
        "aust",
        D,
        C,
        ["A", "B", "C"],
        "confused about Jane Eyre, clear final",
        'Let\'s think step by step. Emma is by Jane Austen. Jane Eyre — the title has "Jane" in it, and I believe it is also by Austen. '
        "Persuasion is by Austen. Middlemarch is by George Eliot.\n\nTherefore, the correct options are A, B and C.",
    ),
    (
        "aust",
        R,
        CN,
        ["B", "D"],
        "reverse, 'wrong' word, texts+labels",
        "Let's think step by step. Incorrect options are those that are different from the correct ones.\n\n"
        "Emma (A): Austen — correct.\nJane Eyre (B): Charlotte Brontë — wrong.\nPersuasion (C): Austen — correct.\nMiddlemarch (D): George Eliot — wrong.\n\n"
        "Wrong options: B and D.",
    ),
    ("aust", D, P, ["A", "C"], "no reasoning, 'A & C'", "A & C"),
    (
        "aust",
        R,
        C,
        None,
        "reverse, cut off mid-analysis",
        "Let's think step by step. Jane Austen wrote six completed novels: Sense and Sensibility, Pride and Prejudice, "
        "Mansfield Park, Emma, Northanger Abbey and Persuasion.\n\nA) Emma — in the list.\nB) Jane Eyre — ",
    ),
    ("aust", R, P, ["B", "D"], "no reasoning, texts only", "Jane Eyre, Middlemarch"),
    # ---------------- percent (B) ----------------
    (
        "pct",
        D,
        C,
        ["B"],
        "percent arithmetic, Answer line",
        "Let's think step by step. 15% of 80 = 0.15 x 80 = 12. Alternatively, 10% of 80 is 8 and 5% is 4, so 8 + 4 = 12.\n\n"
        "Answer: B",
    ),
    (
        "pct",
        R,
        C,
        ["A", "C", "D"],
        "reverse, computes then lists others",
        "Let's think step by step. 10% of 80 is 8, 5% of 80 is 4, so 15% is 12, which is option B.\n\n"
        "The incorrect options are therefore A (10), C (15) and D (8). Note that D is just 10% of 80, a common distractor.",
    ),
    (
        "pct",
        D,
        C,
        ["D"],
        "wrong arithmetic, clear final",
        "Let's think step by step. 15% means 15 out of 100. 80 / 15 ≈ 5.3... hmm, that's not right. "
        "Let me take 10% of 80, which is 8. That's the closest reasonable value.\n\nFinal answer: D",
    ),
    (
        "pct",
        R,
        C,
        ["A", "C", "D"],
        "reverse, states incorrect then adds direct Answer: B (consistent sides)",
        "Let's think step by step. 0.15 x 80 = 12. So option B is correct.\n\n"
        "Incorrect options: A, C, D.\n\nAnswer: B",
    ),
    (
        "pct",
        R,
        N,
        ["A", "C", "D"],
        "no reasoning, 'not B' phrasing",
        "All options except B are incorrect.",
    ),
    (
        "pct",
        D,
        C,
        ["B"],
        "restates question, answer as text",
        "Let's think step by step. The question asks for 15 percent of 80. Fifteen percent is 15/100 = 3/20. "
        "3/20 x 80 = 240/20 = 12.\n\nSo 15% of 80 is 12.",
    ),
    # ---------------- metals (A, C, D) ----------------
    (
        "metal",
        D,
        C,
        ["A", "C", "D"],
        "mercury liquid caveat, Therefore",
        "Let's think step by step.\n\n"
        "Sodium (A) is an alkali metal. Sulfur (B) is a nonmetal. Copper (C) is a transition metal. "
        "Mercury (D) is liquid at room temperature, but it is still a metal. Carbon (E) is a nonmetal.\n\n"
        "Therefore, the correct options are A, C and D.",
    ),
    (
        "metal",
        R,
        C,
        ["B", "E"],
        "reverse, 'nonmetals' predicate",
        "Let's think step by step. The incorrect options are the elements that are not metals.\n\n"
        "A) Sodium → metal\nB) Sulfur → nonmetal\nC) Copper → metal\nD) Mercury → metal (liquid)\nE) Carbon → nonmetal\n\n"
        "The nonmetals are B and E.",
    ),
    (
        "metal",
        D,
        C,
        ["A", "C"],
        "changes mind on mercury, final drops it",
        "Let's think step by step. Sodium is a metal. Sulfur is not. Copper is a metal. Mercury is a metal as well... "
        "although, since metals are solid at room temperature and mercury is liquid, I'll exclude it. Carbon is a nonmetal.\n\n"
        "Final answer: A, C",
    ),
    (
        "metal",
        R,
        CN,
        ["B", "E"],
        "reverse done right, Answer line",
        "Let's think step by step. Incorrect options are simply the options that differ from the correct ones, "
        "so I list the elements that are not metals. Sulfur and carbon are nonmetals; sodium, copper and mercury are metals.\n\n"
        "Answer: B, E",
    ),
    ("metal", D, P, ["A", "C", "D"], "no reasoning, texts", "Sodium, Copper, Mercury"),
    ("metal", R, P, ["B", "E"], "no reasoning, 'B and E are incorrect'", "B and E are incorrect."),
    # ---------------- extras to balance ----------------
    (
        "mul",
        R,
        CN,
        ["A", "C", "D"],
        "reverse, 'all but B' phrasing",
        "Let's think step by step. Incorrect options are simply the options different from the correct one. "
        "17 x 6 = 102, which is B. So all but B are incorrect.\n\nThe incorrect ones: A, C, D.",
    ),
    (
        "rom",
        R,
        CN,
        ["A", "D"],
        "reverse, texts and Germanic/Slavic",
        "Let's think step by step. Incorrect options are the options that differ from the correct ones, "
        "so here those are the languages that are not Romance. German is Germanic, Polish is Slavic, while Portuguese and Romanian are Romance.\n\n"
        "Therefore the incorrect options are German and Polish.",
    ),
    (
        "div",
        R,
        C,
        ["B", "C", "D"],
        "reverse, gives every option a side in prose",
        "Let's think step by step. Division first: 144 / 12 = 12; then add 5 to get 17.\n\n"
        "So A (17) is the correct value, while B (12), C (19) and D (7) are incorrect.",
    ),
    ("div", D, N, ["A"], "no reasoning, bare number text", "17"),
    (
        "gas",
        D,
        P,
        ["B", "D"],
        "no reasoning, 'The correct ones are' with texts",
        "The correct ones are B) Jupiter and D) Saturn.",
    ),
    (
        "mam",
        D,
        P,
        None,
        "no reasoning, refuses to commit",
        "I'm not sure about this one; the platypus is an unusual case and I would need more context.",
    ),
]

BACKGROUND = {
    "cap": "A national capital is the city where a country's government sits, which is not always its largest or best-known city.",
    "mul": "Multiplying a two-digit number by a single digit is easiest by splitting it into tens and units.",
    "prime": "A prime number is a whole number greater than 1 whose only divisors are 1 and itself.",
    "mam": "Mammals are warm-blooded vertebrates that have hair and feed their young with milk.",
    "gas": "The solar system has four inner rocky planets and four outer giant planets.",
    "div": "The usual order of operations does division before addition unless parentheses say otherwise.",
    "noble": "The noble gases make up group 18 of the periodic table and are known for being very unreactive.",
    "rom": "Romance languages are the modern descendants of Latin, spoken mostly in southern and eastern Europe.",
    "even": "A whole number is even when it divides by 2 with no remainder, which can be read from its last digit.",
    "aust": "Jane Austen was an English novelist of the early nineteenth century, known for six major novels.",
    "pct": "A percentage is a fraction of 100, so finding 15% of a number means multiplying it by 0.15.",
    "metal": "Metals are usually shiny, conduct electricity well, and sit on the left and in the centre of the periodic table.",
}

PREAMBLES = [
    'The question is "{q}" and the options are {opts}. I will go through them one at a time.',
    "We are given the question: {q} The answer options are {opts}. Let me recall the relevant facts and then check each option carefully before concluding.",
    "First, let me restate the problem. Question: {q} Options: {opts}. I'll evaluate each option on its own merits.",
    "To answer this, I need to consider what the question is asking: {q} The candidate answers are {opts}. I'll examine them in order.",
]
STEP = "Let's think step by step."


def expand(n: int, key: str, reply: str) -> str:
    """Give a reasoning reply the restatement and background a mid-size model writes first."""
    if not reply.startswith(STEP):
        return reply
    q, texts = ITEMS[key]
    opts = ", ".join(f"{'ABCDE'[i]}) {t}" for i, t in enumerate(texts))
    pre = PREAMBLES[n % len(PREAMBLES)].format(q=q, opts=opts)
    return f"{STEP} {pre} {BACKGROUND[key]}\n\n{reply[len(STEP) :].lstrip()}"


def main() -> None:
    out = Path(__file__).with_name("holdout-e.jsonl")
    lines = []
    for n, (key, pol, mit, exp, note, reply) in enumerate(RECS, 1):
        q, texts = ITEMS[key]
        item = {
            "id": f"holdout-e-item-{key}",
            "question": q,
            "candidates": [{"label": "ABCDE"[i], "text": t} for i, t in enumerate(texts)],
        }
        rec = {
            "id": f"holdout-e:{n}",
            "source": "holdout-e-written",
            "dataset": "written",
            "item": item,
            "polarity": pol,
            "template": None,
            "mitigations": mit,
            "reply": expand(n, key, reply) if "cot" in mit else reply,
            "expected": sorted(exp) if exp is not None else None,
            "note": note,
        }
        lines.append(json.dumps(rec, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    recs = RECS
    print(
        len(recs),
        "direct",
        sum(r[1] == D for r in recs),
        "reverse",
        sum(r[1] == R for r in recs),
        "cot",
        sum("cot" in r[2] for r in recs),
        "null",
        sum(r[3] is None for r in recs),
        "empty",
        sum(r[3] == [] for r in recs),
    )


if __name__ == "__main__":
    main()
