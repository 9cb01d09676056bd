"""Write vault2.jsonl: hand-written replies to choice legs, a vault (see README.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SET = "vault2"
OUT = Path(__file__).with_name(f"{SET}.jsonl")

ITEMS = {
    "gas-giants": (
        "Which of these planets are gas giants?",
        ["Mars", "Jupiter", "Saturn", "Venus"],
    ),
    "three-quarters": ("What is 3/4 of 56?", ["42", "38", "44", "48"]),
    "mammals": (
        "Which of these animals are mammals?",
        ["Dolphin", "Shark", "Bat", "Penguin", "Platypus"],
    ),
    "primes": ("Which of these numbers are prime?", ["51", "53", "57", "59"]),
    "speed": (
        "A car travels 150 km in 2.5 hours. What is its average speed?",
        ["50 km/h", "60 km/h", "65 km/h", "75 km/h"],
    ),
    "capital": (
        "Which city is the capital of Australia?",
        ["Sydney", "Melbourne", "Canberra", "Perth"],
    ),
    "noble-gases": (
        "Which of these elements are noble gases?",
        ["Neon", "Nitrogen", "Argon", "Chlorine", "Krypton"],
    ),
    "discount": (
        "A jacket costs $80. It is discounted by 25%, and then the sale price is reduced by a "
        "further 10%. What is the final price?",
        ["$54", "$52", "$56", "$60"],
    ),
    "grammar": (
        "Which of these sentences are grammatically correct in standard English?",
        ["She doesn't like apples.", "He don't know.", "They were late.", "Me and him goes home."],
    ),
    "even-functions": (
        "Which of these functions are even?",
        ["f(x) = x^2", "f(x) = x^3", "f(x) = cos x", "f(x) = sin x"],
    ),
    "ww1": ("In which year did World War I begin?", ["1912", "1914", "1916", "1918"]),
    "renewable": (
        "Which of these are renewable energy sources?",
        ["Solar", "Coal", "Wind", "Natural gas", "Geothermal"],
    ),
    "triangle": (
        "What is the area of a triangle with a base of 10 cm and a height of 7 cm?",
        ["70 cm²", "35 cm²", "17 cm²", "3.5 cm²"],
    ),
    "falsy": (
        "Which of these Python values are falsy?",
        ["0", '"0"', "[]", "None", '"False"'],
    ),
    "largest-fraction": ("Which fraction is the largest?", ["3/5", "5/8", "7/12", "2/3"]),
    "not-factor": ("Which of these is NOT a prime factor of 210?", ["3", "7", "11", "5"]),
}

MITIGATIONS = {"": [], "c": ["cot"], "n": ["neg_exp"], "cn": ["cot", "neg_exp"]}
COT = "Let's think step by step."

# (item, polarity, mitigations, expected, note, reply)
REPLIES: list[tuple[str, str, str, list[str] | None, str, str]] = [
    ("gas-giants", "direct", "", ["B", "C"], "bare labels, comma", "B, C"),
    (
        "gas-giants",
        "direct",
        "c",
        ["B", "C"],
        "cot prose, option texts",
        f"{COT} Mars is a rocky terrestrial planet. Jupiter is the largest gas giant. Saturn is "
        "also "
        "a gas giant, famous for its rings. Venus is rocky, with a thick atmosphere but a solid "
        "surface. So the gas giants are Jupiter and Saturn.",
    ),
    ("gas-giants", "reverse", "", ["A", "D"], "option texts, terse", "Mars and Venus."),
    (
        "gas-giants",
        "reverse",
        "n",
        ["A", "D"],
        "direct then reverse labels",
        "Jupiter and Saturn are the gas giants, so they answer the question. The ones that don't "
        "are A and D.",
    ),
    (
        "gas-giants",
        "reverse",
        "c",
        None,
        "reverse answers direct question",
        f"{COT}\n1. Mars – rocky.\n2. Jupiter – gas giant.\n3. Saturn – gas giant.\n4. Venus – "
        "rocky."
        "\n\nThe gas giants in the list are Jupiter and Saturn.\n\n**Answer: B, C**",
    ),
    (
        "gas-giants",
        "direct",
        "",
        ["B", "C"],
        "bold answer, parenthesised labels",
        "**Answer:** (B) Jupiter and (C) Saturn",
    ),
    (
        "gas-giants",
        "reverse",
        "cn",
        ["A", "D"],
        "per-option verdicts, reverse",
        "Step by step: the question asks for gas giants; an option is incorrect if it is not one. "
        "Mars: terrestrial → incorrect. Jupiter: gas giant → correct. Saturn: gas giant → correct. "
        "Venus: terrestrial → incorrect.\nIncorrect options: A, D",
    ),
    (
        "three-quarters",
        "direct",
        "c",
        ["A"],
        "arithmetic cot, label at end",
        f"{COT} 56 ÷ 4 = 14, and 14 × 3 = 42. So 3/4 of 56 is 42, which is option A.",
    ),
    ("three-quarters", "direct", "", ["A"], "bare number text", "42"),
    (
        "three-quarters",
        "reverse",
        "",
        ["B", "C", "D"],
        "labels wrong, then value",
        "B, C and D are wrong; 3/4 of 56 is 42.",
    ),
    (
        "three-quarters",
        "reverse",
        "c",
        ["B", "C", "D"],
        "cot, correct then incorrect",
        f"{COT} 56/4 = 14. 14*3 = 42. So the correct answer is A (42). The incorrect options are "
        "therefore B (38), C (44) and D (48).",
    ),
    (
        "three-quarters",
        "direct",
        "c",
        None,
        "cut off before answer",
        "Step 1: 3/4 × 56 = (3 × 56)/4 = 168/4.\nStep 2: 168/4 = 42.\n\nHmm, wait — let me double "
        "check: 4 × 42 = 168. Yes.\n\nThe answer is",
    ),
    (
        "three-quarters",
        "reverse",
        "n",
        ["B", "C", "D"],
        "heading then option values",
        "Incorrect (these do not equal 3/4 of 56): 38, 44, 48.",
    ),
    (
        "three-quarters",
        "direct",
        "",
        ["A"],
        "hedge with other value",
        "I believe it's A, although 44 would be right if the question meant 11/14. Going with A.",
    ),
    ("mammals", "direct", "", ["A", "C", "E"], "bare labels", "A, C, E"),
    (
        "mammals",
        "direct",
        "c",
        ["A", "C", "E"],
        "markdown per-option with emoji",
        f"{COT}\n\n- **A. Dolphin** — breathes air, nurses its young: mammal ✅\n- **B. Shark** "
        "— a cartilaginous fish ❌\n- **C. Bat** — the only flying mammal ✅\n- **D. Penguin** "
        "— a bird "
        "❌\n- **E. Platypus** — lays eggs, but it is a monotreme, so still a mammal ✅\n\nFinal "
        "answer: A, C, E",
    ),
    (
        "mammals",
        "reverse",
        "",
        ["B", "D"],
        "question predicate negated",
        "The shark and the penguin are not mammals.",
    ),
    (
        "mammals",
        "reverse",
        "c",
        ["B", "D", "E"],
        "cot, judge wrong",
        f"{COT} Dolphins are mammals. Sharks are fish. Bats are mammals. Penguins are birds. The "
        "platypus lays eggs, so it is not a mammal. Therefore the options that are not mammals: B, "
        "D, E.",
    ),
    (
        "mammals",
        "direct",
        "",
        ["A", "C", "E"],
        "texts with both sides",
        "Dolphin, bat and platypus are mammals; the shark is a fish and the penguin is a bird.",
    ),
    (
        "mammals",
        "reverse",
        "",
        None,
        "reverse answers direct question",
        "Mammals: A (dolphin), C (bat), E (platypus).",
    ),
    (
        "mammals",
        "direct",
        "c",
        ["A", "C"],
        "cot, hedged exclusion",
        "Mammals have hair, are warm-blooded and feed their young with milk. The dolphin (A) "
        "qualifies. The shark (B) is a fish. The bat (C) qualifies. The penguin (D) is a bird. The "
        "platypus (E) is an egg-laying mammal, but I'm not sure egg-laying ones count under this "
        "question's definition... Excluding it to be safe: A and C.",
    ),
    (
        "mammals",
        "reverse",
        "n",
        ["B", "D"],
        "asterisk list",
        "Options that do not answer the question (i.e., are not mammals):\n* B\n* D",
    ),
    (
        "primes",
        "direct",
        "c",
        ["B", "D"],
        "divisibility derivation",
        f"{COT} 51 = 3 × 17, not prime. 53: not divisible by 2, 3, 5 or 7 (7² = 49 < 53 < 64), so "
        "prime. 57 = 3 × 19, not prime. 59: not divisible by 2, 3, 5, 7, so prime. Answer: B and "
        "D.",
    ),
    ("primes", "reverse", "", ["A", "C"], "predicate 'not prime'", "51 and 57 are not prime."),
    (
        "primes",
        "reverse",
        "c",
        ["A", "C"],
        "per-option sides, ends on direct",
        "Let's check each.\n51: 5+1 = 6, divisible by 3 → composite.\n53: prime.\n57: 5+7 = 12, "
        "divisible by 3 → composite.\n59: prime.\nSo 53 and 59 are prime.",
    ),
    ("primes", "direct", "", ["B"], "'only', judge wrong", "Only 53 is prime."),
    ("primes", "direct", "", ["B", "D"], "lowercase labels", "b, d"),
    ("primes", "reverse", "n", ["A", "C"], "arrow", "Not prime → A, C"),
    (
        "primes",
        "reverse",
        "",
        ["A", "C"],
        "self-correction adds label",
        "A is incorrect. Actually, hold on: 57 = 3 × 19 as well, so C is incorrect too. A and C.",
    ),
    (
        "primes",
        "direct",
        "c",
        None,
        "cut off mid analysis",
        f"{COT} A prime has exactly two divisors. 51 — hmm, 51 looks prime at first glance, but 3 "
        "× "
        "17 = 51. 53 — prime. 57 — ",
    ),
    (
        "speed",
        "direct",
        "c",
        ["B"],
        "units derivation, check",
        "Speed = distance / time = 150 km / 2.5 h = 60 km/h. (Check: 60 km/h × 2.5 h = 150 km ✓.) "
        "The answer is B.",
    ),
    ("speed", "direct", "", ["B"], "option text with unit", "60 km/h"),
    (
        "speed",
        "reverse",
        "c",
        ["A", "C", "D"],
        "cot, correct then 'therefore incorrect'",
        f"{COT} Average speed = 150 ÷ 2.5. Multiply both by 2: 300 ÷ 5 = 60 km/h. That matches "
        "option B, so B is the correct one and A, C and D are incorrect.",
    ),
    (
        "speed",
        "direct",
        "",
        ["B"],
        "note after answer names other option",
        "Option B (60 km/h) is correct. Note: if the 2.5 hours included a 30-minute stop, the "
        "moving "
        "speed would be 75 km/h (D), but the question asks for average speed.",
    ),
    (
        "speed",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "option texts, reverse",
        "Step by step: 150/2.5 = 60. The options that don't give the average speed are 50 km/h, "
        "65 km/h and 75 km/h.",
    ),
    (
        "speed",
        "direct",
        "c",
        ["B"],
        "revised 'no wait'",
        "150 km in 2.5 h. 150/2 = 75, so the answer is D... no wait, the time is 2.5 h, not 2 h. "
        "150/2.5 = 60. Answer: B.",
    ),
    ("capital", "direct", "", ["C"], "one word text", "Canberra."),
    ("capital", "reverse", "n", ["A", "B", "D"], "texts, no labels", "Sydney, Melbourne, Perth"),
    (
        "capital",
        "direct",
        "",
        ["C"],
        "label paren, trivia after",
        "C) Canberra — many people guess Sydney, but Canberra was purpose-built as the capital.",
    ),
    (
        "capital",
        "reverse",
        "n",
        ["A", "B", "D"],
        "predicate negated with labels",
        "A, B and D are not the capital of Australia.",
    ),
    (
        "capital",
        "reverse",
        "",
        None,
        "reverse answers direct question",
        "The capital of Australia is Canberra (C).",
    ),
    (
        "capital",
        "direct",
        "",
        None,
        "undecided between two",
        "Hmm, either Sydney or Canberra. I can never remember which.",
    ),
    (
        "capital",
        "reverse",
        "c",
        ["A", "B", "D"],
        "cot history then labels",
        f"{COT} Australia's capital is Canberra, chosen as a compromise between Sydney and "
        "Melbourne. Therefore the incorrect options are A, B and D.",
    ),
    (
        "noble-gases",
        "direct",
        "c",
        ["A", "C", "E"],
        "check marks inline",
        f"{COT} Noble gases are group 18: He, Ne, Ar, Kr, Xe, Rn. Neon (A) ✓, Nitrogen (B) is "
        "group "
        "15 ✗, Argon (C) ✓, Chlorine (D) is a halogen ✗, Krypton (E) ✓.\n\nSo: A, C and E.",
    ),
    ("noble-gases", "reverse", "", ["B", "D"], "casual plus sign", "nitrogen + chlorine"),
    (
        "noble-gases",
        "direct",
        "",
        ["A", "C", "E"],
        "predicate with texts",
        "Neon, argon and krypton are noble gases.",
    ),
    (
        "noble-gases",
        "reverse",
        "n",
        ["B", "D"],
        "labels then other texts as explanation",
        "Incorrect options: (B) Nitrogen, (D) Chlorine. Neon, argon and krypton all belong to "
        "group 18.",
    ),
    (
        "noble-gases",
        "direct",
        "",
        ["A", "C", "E"],
        "answer then negated others",
        "A, C, and E, but not B or D.",
    ),
    (
        "noble-gases",
        "reverse",
        "c",
        None,
        "reverse answers direct question",
        f"{COT} Group 18 contains neon, argon and krypton. So the answer is A, C, E.",
    ),
    (
        "noble-gases",
        "reverse",
        "",
        ["B", "D"],
        "labels, parenthetical reason",
        "B and D. (Chlorine is a halogen, nitrogen is a pnictogen.)",
    ),
    (
        "noble-gases",
        "reverse",
        "",
        None,
        "unsure, no conclusion",
        "I'm not sure about these. Nitrogen is a gas, chlorine is a gas too... I'd have to look up "
        "the periodic table.",
    ),
    (
        "discount",
        "direct",
        "c",
        ["A"],
        "money derivation, note on wrong method",
        f"{COT}\nFirst discount: 25% of $80 = $20, so the price becomes $60.\nSecond discount: 10% "
        "of "
        "$60 = $6, so $60 − $6 = $54.\nNote that the discounts don't add to 35% — that would give "
        "$52.\n\n**Answer: A ($54)**",
    ),
    (
        "discount",
        "direct",
        "c",
        ["B"],
        "cot, judge wrong",
        f"{COT} 25% + 10% = 35% off. 35% of 80 is 28, so 80 − 28 = 52. The answer is B.",
    ),
    (
        "discount",
        "reverse",
        "c",
        ["B", "C", "D"],
        "multiplier derivation, texts and labels",
        f"{COT} $80 × 0.75 = $60; $60 × 0.90 = $54. The final price is $54, so B ($52), C ($56) "
        "and "
        "D ($60) are incorrect.",
    ),
    ("discount", "reverse", "", ["B", "C", "D"], "dollar texts only", "$52, $56, $60"),
    (
        "discount",
        "reverse",
        "n",
        ["B", "C", "D"],
        "only A right, rest not",
        "Only A gives the final price; the rest don't.",
    ),
    (
        "discount",
        "direct",
        "",
        ["A"],
        "thinking aloud, settles",
        "The final price is $54 - wait, is it applied to the original? If both discounts are "
        "applied "
        "to the original price, it's $52. The question says \"the sale price\", so it's $54.",
    ),
    (
        "grammar",
        "direct",
        "",
        ["A", "C"],
        "labels with predicate",
        "A and C are grammatically correct.",
    ),
    (
        "grammar",
        "reverse",
        "",
        ["B", "D"],
        "quoted sentences, 'ungrammatical'",
        'B ("He don\'t know") and D ("Me and him goes home") are ungrammatical.',
    ),
    (
        "grammar",
        "direct",
        "c",
        ["A", "C"],
        "per-option lines, 'Correct:'",
        f"{COT}\nA: subject 'She' + 'doesn't' — correct.\nB: 'He don't' — subject-verb "
        "disagreement; "
        "should be 'doesn't'.\nC: 'They were late' — correct.\nD: 'Me and him goes' — wrong case "
        "(should be 'He and I') and wrong agreement (should be 'go').\nCorrect: A, C",
    ),
    (
        "grammar",
        "reverse",
        "c",
        ["B", "D"],
        "cot error descriptions",
        f"{COT} B has a subject-verb agreement error. D uses object pronouns as the subject and "
        "'goes' with a plural subject. Therefore the incorrect sentences are B and D.",
    ),
    (
        "grammar",
        "reverse",
        "n",
        ["B", "D"],
        "quoted option texts",
        'The sentences that are not grammatically correct: "He don\'t know." and "Me and him goes '
        'home."',
    ),
    (
        "grammar",
        "direct",
        "",
        ["A", "C"],
        "answer then concession",
        "A, C. B is a common dialect form, though, and some would accept it informally.",
    ),
    ("grammar", "reverse", "", ["B"], "single letter", "B"),
    (
        "grammar",
        "direct",
        "",
        ["A", "C"],
        "ordinal words",
        "I would say all of them are fine in casual speech, but in standard English only the first "
        "and third.",
    ),
    (
        "even-functions",
        "direct",
        "c",
        ["A", "C"],
        "f(-x) derivation",
        f"{COT} f is even if f(−x) = f(x).\nA: (−x)² = x² → even.\nB: (−x)³ = −x³ → odd.\nC: "
        "cos(−x) = cos x → even.\nD: sin(−x) = −sin x → odd.\nAnswer: A and C.",
    ),
    (
        "even-functions",
        "reverse",
        "c",
        ["B", "D"],
        "parenthesised labels, odd means incorrect",
        f"{COT} Check f(−x) for each:\n(A) x² → x², even\n(B) x³ → −x³, odd\n(C) cos x → cos x, "
        "even\n(D) sin x → −sin x, odd\nThe odd ones (B, D) are not even functions, so they're the "
        "incorrect options.",
    ),
    ("even-functions", "direct", "", ["A", "C"], "formula texts", "x^2 and cos x"),
    (
        "even-functions",
        "reverse",
        "",
        ["B", "D"],
        "predicate 'odd, not even'",
        "x³ and sin(x) are odd, not even.",
    ),
    (
        "even-functions",
        "reverse",
        "cn",
        ["B", "D"],
        "reverse, verdict words then answer",
        "Step by step: an option is incorrect if the function is not even. x² is even. x³ is odd. "
        "cos x is even. sin x is odd.\n\nAnswer: B, D",
    ),
    (
        "even-functions",
        "direct",
        "",
        None,
        "two conflicting answers",
        "Answer: A, C\n\nExplanation: x^2 and x^3 are both polynomials, so they're even; cos and "
        "sin "
        "are periodic.\n\nAnswer: A, B",
    ),
    (
        "even-functions",
        "reverse",
        "n",
        ["B", "D"],
        "neither ... nor",
        "Neither B nor D is even. Those are the incorrect ones.",
    ),
    ("ww1", "direct", "", ["B"], "year only", "1914"),
    (
        "ww1",
        "direct",
        "",
        ["B"],
        "label then long context",
        "B. 1914, with the assassination of Archduke Franz Ferdinand in June and declarations of "
        "war "
        "in late July–August.",
    ),
    ("ww1", "reverse", "", ["A", "C", "D"], "years 'are wrong'", "1912, 1916 and 1918 are wrong."),
    (
        "ww1",
        "reverse",
        "c",
        None,
        "reverse answers direct, mentions other year",
        f"{COT} Archduke Franz Ferdinand was assassinated on 28 June 1914, and Austria-Hungary "
        "declared war on Serbia on 28 July 1914. So the war began in 1914 (B). 1918 is when it "
        "ended.",
    ),
    (
        "ww1",
        "direct",
        "c",
        ["B"],
        "reasoning from end date",
        f"{COT} The war ended in 1918 and lasted about four years, so it began in 1914. The answer "
        "is (B).",
    ),
    ("ww1", "reverse", "n", ["A", "C", "D"], "bare labels", "A, C, D"),
    (
        "ww1",
        "reverse",
        "c",
        ["A", "C", "D"],
        "labels then note naming one",
        f"{COT} The war began in 1914. Options 1912, 1916, 1918 do not match. Incorrect: A, C, D. "
        "Though note that 1918 marks the armistice.",
    ),
    ("renewable", "direct", "", ["A", "C", "E"], "texts, period", "Solar, wind, geothermal."),
    (
        "renewable",
        "direct",
        "c",
        ["A", "C", "E"],
        "yes/no per text",
        f"{COT} Renewable sources are replenished naturally on human timescales. Solar: yes. Coal: "
        "fossil fuel, no. Wind: yes. Natural gas: fossil, no. Geothermal: yes (heat from Earth's "
        "interior). So the renewable ones are A, C and E.",
    ),
    (
        "renewable",
        "reverse",
        "",
        ["B", "D"],
        "texts and labels, 'so those are'",
        "Coal (B) and natural gas (D) are non-renewable fossil fuels, so those are the incorrect "
        "options.",
    ),
    (
        "renewable",
        "reverse",
        "c",
        None,
        "cut off at the label",
        f"{COT} Coal and natural gas are fossil fuels that take millions of years to form. Solar, "
        "wind and geothermal are continually replenished. So the incorrect options are",
    ),
    (
        "renewable",
        "direct",
        "",
        ["A", "C", "E"],
        "numbered list of texts",
        "1. Solar\n2. Wind\n3. Geothermal",
    ),
    (
        "renewable",
        "reverse",
        "cn",
        ["B", "D"],
        "debated option then answer",
        f"{COT} The question asks for renewable sources; the incorrect options are those that are "
        "not "
        "renewable. Geothermal is sometimes debated because wells can be depleted locally, but it "
        "is "
        "generally classed as renewable. So: B and D are incorrect.",
    ),
    (
        "renewable",
        "reverse",
        "",
        ["B", "D"],
        "everything except texts",
        "Everything except solar, wind and geothermal.",
    ),
    (
        "triangle",
        "direct",
        "c",
        ["B"],
        "formula with units",
        f"{COT} Area = ½ × base × height = ½ × 10 cm × 7 cm = 35 cm². Answer: B",
    ),
    (
        "triangle",
        "direct",
        "c",
        ["A"],
        "cot, judge wrong formula",
        f"{COT} Area = base × height = 10 × 7 = 70 cm². So A.",
    ),
    (
        "triangle",
        "reverse",
        "",
        ["A", "C", "D"],
        "texts with units 'are incorrect'",
        "70 cm², 17 cm² and 3.5 cm² are incorrect.",
    ),
    (
        "triangle",
        "reverse",
        "c",
        ["A", "C", "D"],
        "explains each distractor",
        f"{COT} A = bh/2 = 70/2 = 35 cm². A (70) forgets to halve; C (17) adds the sides; D (3.5) "
        "is off by a factor of ten. B is right. Incorrect: A, C, D.",
    ),
    ("triangle", "direct", "", ["B"], "text caret unit, label", "35 cm^2 (B)"),
    (
        "triangle",
        "reverse",
        "n",
        ["A", "C", "D"],
        "afterthought adds label",
        "The incorrect options are A and C. D is also incorrect.",
    ),
    (
        "triangle",
        "direct",
        "",
        ["B"],
        "neither-nor values, then value",
        "Neither 70 nor 17 nor 3.5 — it's 35.",
    ),
    (
        "falsy",
        "direct",
        "c",
        ["A", "C", "D"],
        "code spans, bold labels",
        f'{COT} In Python, `bool(0)` is `False`, `bool("0")` is `True` because the string is '
        'non-empty, `bool([])` is `False`, `bool(None)` is `False`, and `bool("False")` is '
        "`True`.\n\nFalsy: **A, C, D**",
    ),
    ("falsy", "direct", "", ["A", "C", "D"], "code-span texts", "`0`, `[]`, and `None`"),
    (
        "falsy",
        "reverse",
        "",
        ["B", "E"],
        "labels dash reason",
        "B and E — non-empty strings are truthy, whatever their content.",
    ),
    (
        "falsy",
        "reverse",
        "c",
        ["B", "E"],
        "markdown table",
        f'{COT}\n| Option | Value | bool() |\n|---|---|---|\n| A | 0 | False |\n| B | "0" | True '
        "|\n"
        '| C | [] | False |\n| D | None | False |\n| E | "False" | True |\n\nThe values that are '
        "not "
        "falsy are B and E, so those options are incorrect.",
    ),
    (
        "falsy",
        "direct",
        "c",
        ["A", "C", "D", "E"],
        "cot, judge wrong",
        f'{COT} 0 is falsy. "0" is a non-empty string, so truthy. [] is falsy. None is falsy. '
        "\"False\" — it's the word False, so it's falsy.\nAnswer: A, C, D, E",
    ),
    (
        "falsy",
        "reverse",
        "n",
        ["B", "E"],
        "quoted texts, 'do not satisfy'",
        '"0" and "False" are truthy; they do not satisfy the question.',
    ),
    (
        "falsy",
        "direct",
        "",
        ["A", "C", "D"],
        "answer then trap note",
        'A, C and D. (E is a trap: "False" is a non-empty string and hence truthy.)',
    ),
    (
        "largest-fraction",
        "direct",
        "c",
        ["D"],
        "common denominator",
        f"{COT} Use a common denominator of 120: 3/5 = 72/120, 5/8 = 75/120, 7/12 = 70/120, 2/3 = "
        "80/120. The largest is 2/3. Answer: D",
    ),
    ("largest-fraction", "direct", "", ["D"], "fraction text", "2/3"),
    (
        "largest-fraction",
        "reverse",
        "c",
        ["A", "B", "C"],
        "decimals, dash-set labels",
        f"{COT} As decimals: 3/5 = 0.6, 5/8 = 0.625, 7/12 ≈ 0.583, 2/3 ≈ 0.667. The largest is "
        "2/3, "
        "so the options that are not the largest — A, B and C — are incorrect.",
    ),
    ("largest-fraction", "reverse", "n", ["A", "B", "C"], "fraction texts", "3/5, 5/8, 7/12"),
    (
        "largest-fraction",
        "direct",
        "",
        ["D"],
        "revised from B to D",
        "B, I think — 5/8 = 0.625 is bigger than 3/5 = 0.6. Hmm, but 2/3 = 0.667 is bigger still. "
        "D then.",
    ),
    (
        "largest-fraction",
        "reverse",
        "",
        None,
        "reverse answers direct question",
        "D is the largest fraction.",
    ),
    (
        "largest-fraction",
        "direct",
        "c",
        None,
        "cut off in comparisons",
        f"{COT} Cross-multiply to compare 5/8 and 2/3: 5 × 3 = 15, 8 × 2 = 16, so 2/3 > 5/8. "
        "Compare 2/3 and 3/5: 10 vs 9, so 2/3 > 3/5. Compare 2/3 and 7/12: 2/3 = 8/12, and 8/12",
    ),
    (
        "not-factor",
        "direct",
        "c",
        ["C"],
        "factorisation",
        f"{COT} 210 = 2 × 105 = 2 × 3 × 35 = 2 × 3 × 5 × 7. The prime factors are 2, 3, 5, 7. 11 "
        "is "
        "not among them. Answer: C",
    ),
    (
        "not-factor",
        "direct",
        "",
        ["C"],
        "question's negated predicate",
        "11 is not a prime factor of 210.",
    ),
    (
        "not-factor",
        "reverse",
        "",
        ["A", "B", "D"],
        "positive predicate, then labels incorrect",
        "3, 7 and 5 are all prime factors of 210, so A, B and D are incorrect answers to this "
        "question.",
    ),
    (
        "not-factor",
        "reverse",
        "c",
        ["C"],
        "double negation confusion, concludes C",
        f"{COT} 210 = 2 · 3 · 5 · 7. So 3, 5 and 7 are prime factors; 11 is not. The incorrect "
        "option is C.",
    ),
    (
        "not-factor",
        "reverse",
        "n",
        ["A", "B", "D"],
        "explains double negation",
        "Options A, B and D are prime factors of 210, which means they do not answer 'which is NOT "
        "a "
        "prime factor'. So: A, B, D.",
    ),
    (
        "not-factor",
        "direct",
        "",
        ["C"],
        "label with check arithmetic",
        "C, since 210/11 isn't whole (11 × 19 = 209).",
    ),
    (
        "not-factor",
        "reverse",
        "cn",
        None,
        "cut off before the labels",
        f"{COT} 210 ÷ 3 = 70, 210 ÷ 7 = 30, 210 ÷ 5 = 42, 210 ÷ 11 ≈ 19.09. 11 is the only one "
        "that is not a factor, so it is the right answer; the other three are",
    ),
    (
        "gas-giants",
        "direct",
        "",
        ["B", "C"],
        "json in code fence",
        '```json\n{"answer": ["B", "C"]}\n```',
    ),
    (
        "mammals",
        "reverse",
        "",
        [],
        "none incorrect, misreads question",
        "None of them — every animal listed is a vertebrate, so no option is incorrect.",
    ),
    (
        "noble-gases",
        "direct",
        "",
        ["A", "C", "E"],
        "bold labels with texts, others named",
        "The correct answers are: **(A)** Neon, **(C)** Argon and **(E)** Krypton. Nitrogen and "
        "chlorine are reactive non-metals.",
    ),
    (
        "capital",
        "reverse",
        "",
        None,
        "facts, no conclusion",
        "Hard to say without more context — Sydney is the largest city, Canberra the seat of "
        "government, and Melbourne was the seat of government until 1927.",
    ),
    (
        "speed",
        "direct",
        "c",
        ["B"],
        "unit conversion, value conclusion",
        f"{COT} 2.5 hours = 150 minutes. 150 km in 150 minutes is 1 km per minute = 60 km/h.",
    ),
    (
        "primes",
        "direct",
        "",
        [],
        "none, judge wrong",
        "None of these is prime: each of them has a divisor other than 1 and itself.",
    ),
]


def record(n: int, row: tuple[str, str, str, list[str] | None, str, str]) -> dict[str, object]:
    slug, polarity, mitigations, expected, note, reply = row
    question, texts = ITEMS[slug]
    return {
        "id": f"{SET}:{n}",
        "source": f"{SET}-written",
        "dataset": "written",
        "item": {
            "id": f"{SET}-item-{slug}",
            "question": question,
            "candidates": [{"label": "ABCDE"[i], "text": t} for i, t in enumerate(texts)],
        },
        "polarity": polarity,
        "template": None,
        "mitigations": MITIGATIONS[mitigations],
        "reply": reply,
        "expected": None if expected is None else sorted(expected),
        "note": note,
    }


def main() -> None:
    rows = [record(n, row) for n, row in enumerate(REPLIES, 1)]
    labels = {slug: "ABCDE"[: len(texts)] for slug, (_, texts) in ITEMS.items()}
    for slug, _, _, expected, _, _ in REPLIES:
        assert expected is None or set(expected) <= set(labels[slug]), slug
    with OUT.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(len(rows), "records")
    print(Counter(r["polarity"] for r in rows))
    print(Counter((r["polarity"], "+".join(r["mitigations"]) or "none") for r in rows))
    kinds = Counter(
        "null"
        if r["expected"] is None
        else "empty"
        if not r["expected"]
        else "one"
        if len(r["expected"]) == 1
        else "several"
        for r in rows
    )
    print(kinds)
    print(Counter(r["item"]["id"] for r in rows))


if __name__ == "__main__":
    main()
