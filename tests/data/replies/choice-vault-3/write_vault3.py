"""Write vault3.jsonl: hand-written replies to choice legs, a vault (see README.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SET = "vault3"
OUT = Path(__file__).with_name(f"{SET}.jsonl")

ITEMS = {
    "boiling": (
        "Which of these liquids boil below 100 °C at sea level?",
        ["Ethanol", "Glycerol", "Acetone", "Mercury"],
    ),
    "hexagon": ("How many diagonals does a regular hexagon have?", ["6", "9", "12", "15"]),
    "palindromes": (
        "Which of these words are palindromes?",
        ["level", "rotor", "table", "civic", "stone"],
    ),
    "squares": (
        "Which of these numbers are perfect squares?",
        ["144", "150", "169", "196", "200"],
    ),
    "austen": (
        'Who wrote the novel "Pride and Prejudice"?',
        ["Charlotte Brontë", "Jane Austen", "George Eliot", "Mary Shelley"],
    ),
    "interest": (
        "$1,000 is invested at 5% simple interest per year. How much interest does it earn in "
        "3 years?",
        ["$150", "$157.63", "$50", "$1,150"],
    ),
    "insects": ("Which of these animals are insects?", ["Ant", "Spider", "Beetle", "Scorpion"]),
    "africa": (
        "Which of these countries are in Africa?",
        ["Kenya", "Peru", "Egypt", "Nepal", "Ghana"],
    ),
    "median": ("What is the median of 3, 9, 4, 7, 10?", ["4", "7", "6.6", "9"]),
    "sql": (
        "Which of these SQL statements change the rows stored in a table?",
        ["SELECT", "UPDATE", "DELETE", "GRANT"],
    ),
    "conductors": (
        "Which of these materials conduct electricity well?",
        ["Copper", "Rubber", "Graphite", "Glass"],
    ),
    "derivative": (
        "What is the derivative of f(x) = x·e^x?",
        ["e^x", "x·e^x", "e^x(x+1)", "e^x + 1"],
    ),
    "not-planet": (
        "Which of these is NOT a planet of the Solar System?",
        ["Neptune", "Pluto", "Mercury", "Uranus"],
    ),
    "odd-sums": ("Which of these sums are odd?", ["3 + 5", "4 + 7", "6 + 8", "2 + 9"]),
    "leap": (
        "Which of these years are leap years?",
        ["1900", "2000", "2016", "2100", "2024"],
    ),
    "seconds": (
        "How many seconds are there in 2.5 hours?",
        ["9,000 s", "150 s", "900 s", "15,000 s"],
    ),
}

MITIGATIONS = {"": [], "c": ["cot"], "n": ["neg_exp"], "cn": ["cot", "neg_exp"]}
COT = "Let's think step by step."

# (item, polarity, mitigations, expected, note, reply)
REPLIES: list[tuple[str, str, str, list[str] | None, str, str]] = [
    # boiling: A, C
    (
        "boiling",
        "direct",
        "",
        ["A", "C"],
        "labels with texts in parentheses",
        "A (Ethanol) and C (Acetone)",
    ),
    (
        "boiling",
        "direct",
        "c",
        ["A", "C"],
        "cot, values, answer line",
        "Step by step: ethanol boils at about 78 °C; glycerol at around 290 °C; acetone at 56 °C; "
        "mercury at 357 °C. The ones below 100 °C are ethanol and acetone.\n\nAnswer: A, C",
    ),
    (
        "boiling",
        "direct",
        "",
        ["A"],
        "option text, wrong judge",
        "Ethanol. It boils around 78 °C; the others all boil well above water.",
    ),
    (
        "boiling",
        "direct",
        "c",
        None,
        "cot numbered, cut off",
        f"{COT}\n\n1. Ethanol: bp ≈ 78.4 °C → below 100 °C.\n2. Glycerol: bp ≈ 290 °C → above.\n"
        "3. Acetone: bp ≈",
    ),
    (
        "boiling",
        "reverse",
        "",
        ["B", "D"],
        "predicate then labels",
        "Glycerol and mercury boil above 100 °C, so the incorrect options are B and D.",
    ),
    ("boiling", "reverse", "n", ["B", "D"], "bare json", '{"incorrect": ["B", "D"]}'),
    (
        "boiling",
        "reverse",
        "c",
        ["B", "D"],
        "markdown table with yes/no, answer line",
        "| Option | Liquid | bp (°C) | Below 100 °C? |\n|---|---|---|---|\n"
        "| A | Ethanol | 78 | yes |\n| B | Glycerol | 290 | no |\n| C | Acetone | 56 | yes |\n"
        "| D | Mercury | 357 | no |\n\nThe incorrect options are B and D.",
    ),
    (
        "boiling",
        "reverse",
        "cn",
        None,
        "reverse leg answers the direct question",
        "Thinking step by step, ethanol (78 °C) and acetone (56 °C) both boil below 100 °C. "
        "The answer is A and C.",
    ),
    # hexagon: B
    (
        "hexagon",
        "direct",
        "c",
        ["B"],
        "cot formula, bold answer",
        "A hexagon has n = 6 vertices. Number of diagonals = n(n − 3)/2 = 6·3/2 = 9.\n\n"
        "**Answer: B**",
    ),
    (
        "hexagon",
        "direct",
        "",
        ["B"],
        "small model, repeated answer line",
        "Answer: B. 9\nAnswer: B. 9",
    ),
    (
        "hexagon",
        "direct",
        "c",
        ["C"],
        "cot, wrong derivation, wrong judge",
        "Each of the 6 vertices draws diagonals to the 3 non-adjacent vertices, and 6 × 3 = 18; "
        "removing the 6 sides gives 12. So the answer is C (12).",
    ),
    (
        "hexagon",
        "direct",
        "",
        None,
        "undecided between two",
        "It's either 9 or 12 depending on whether you count each diagonal once or twice; I can't "
        "pick between B and C without knowing the convention.",
    ),
    ("hexagon", "reverse", "", ["A", "C", "D"], "option texts, terse", "6, 12 and 15 are wrong."),
    (
        "hexagon",
        "reverse",
        "c",
        ["A", "C", "D"],
        "cot formula, correct one then the rest",
        "Diagonals = n(n-3)/2. For n = 6: 6 × 3 / 2 = 9. So B is the correct count, and the "
        "incorrect options are A, C and D.",
    ),
    ("hexagon", "reverse", "n", ["A", "C", "D"], "all except", "All options except B."),
    (
        "hexagon",
        "reverse",
        "c",
        None,
        "cot cut off before the number",
        "Let's think. The formula is n(n−3)/2, so with n = 6 we get",
    ),
    # palindromes: A, B, D
    ("palindromes", "direct", "", ["A", "B", "D"], "option texts, comma", "level, rotor, civic"),
    (
        "palindromes",
        "direct",
        "c",
        ["A", "B", "D"],
        "cot arrow list with marks",
        "- level → reversed: level ✔\n- rotor → reversed: rotor ✔\n- table → reversed: elbat ✘\n"
        "- civic → reversed: civic ✔\n- stone → reversed: enots ✘\n\nSo: A, B, D.",
    ),
    (
        "palindromes",
        "direct",
        "",
        ["A", "D"],
        "short sentence, wrong judge",
        "A and D are palindromes.",
    ),
    (
        "palindromes",
        "direct",
        "c",
        ["A", "B", "D"],
        "ordinal words",
        "Reading each word backwards: the first, second and fourth words read the same either "
        "way; the third and fifth do not. So the answer is the first, second and fourth options.",
    ),
    ("palindromes", "reverse", "", ["C", "E"], "bare labels with and", "C and E"),
    (
        "palindromes",
        "reverse",
        "n",
        ["C", "E"],
        "predicate, quoted texts",
        "The options that are not palindromes are 'table' and 'stone'.",
    ),
    (
        "palindromes",
        "reverse",
        "c",
        ["C", "E"],
        "cot, everything but, then conclusion",
        "Reversing: level→level, rotor→rotor, table→elbat, civic→civic, stone→enots. Everything "
        "but C and E is a palindrome, so the incorrect ones are C and E.",
    ),
    (
        "palindromes",
        "reverse",
        "",
        ["C", "E"],
        "small model echoing the prompt",
        "Which of the following options are incorrect?\nOptions: C. table E. stone\n"
        "Incorrect: C, E",
    ),
    # squares: A, C, D
    (
        "squares",
        "direct",
        "c",
        ["A", "C", "D"],
        "cot derivation, texts then labels",
        "12² = 144, 13² = 169, 14² = 196. 150 lies between 144 and 169, and 200 between 196 and "
        "225, so neither is a square. Perfect squares: 144, 169, 196 → A, C, D.",
    ),
    (
        "squares",
        "direct",
        "",
        ["A", "C", "D"],
        "json in fence with extra key",
        '```json\n{"correct_options": ["A", "C", "D"], "confidence": 0.95}\n```',
    ),
    (
        "squares",
        "direct",
        "",
        ["A", "C"],
        "labels then a negation, wrong judge",
        "A and C. 196 is not a perfect square.",
    ),
    (
        "squares",
        "direct",
        "c",
        None,
        "hedged, possibly one more",
        "144 = 12² and 169 = 13². For 196 I'm not certain whether 14² is 186 or 196 and I can't "
        "verify it, so I'd say A and C, possibly D.",
    ),
    ("squares", "reverse", "", ["B", "E"], "bare option texts", "150 and 200"),
    (
        "squares",
        "reverse",
        "c",
        ["B", "E"],
        "numbered roots, answer line",
        "1. √144 = 12 → square\n2. √150 ≈ 12.25 → not a square\n3. √169 = 13 → square\n"
        "4. √196 = 14 → square\n5. √200 ≈ 14.14 → not a square\n\nIncorrect options: B and E.",
    ),
    (
        "squares",
        "reverse",
        "cn",
        ["B", "E"],
        "careful prose restating the negation",
        "Recall that the incorrect options are the ones that are not perfect squares. 144, 169 and "
        "196 are 12², 13² and 14². That leaves 150 and 200, which fall between consecutive "
        "squares. The incorrect options are therefore B (150) and E (200).",
    ),
    (
        "squares",
        "reverse",
        "",
        ["B", "D", "E"],
        "predicate, wrong judge",
        "B, D and E are not perfect squares.",
    ),
    # austen: B
    (
        "austen",
        "direct",
        "",
        ["B"],
        "option text in a sentence",
        "Jane Austen wrote Pride and Prejudice (1813).",
    ),
    (
        "austen",
        "direct",
        "c",
        ["B"],
        "cot naming other authors' books first",
        "Pride and Prejudice was published in 1813. Charlotte Brontë wrote Jane Eyre; George Eliot "
        "wrote Middlemarch; Mary Shelley wrote Frankenstein. The author is Jane Austen, option B.",
    ),
    (
        "austen",
        "direct",
        "",
        ["B"],
        "label then note naming another option",
        "B\n\nNote: A is often confused with B because both were English novelists, but Charlotte "
        "Brontë wrote Jane Eyre, not this book.",
    ),
    (
        "austen",
        "direct",
        "",
        ["B"],
        "lowercase label in parentheses",
        "The answer is (b) Jane Austen.",
    ),
    (
        "austen",
        "reverse",
        "",
        ["A", "C", "D"],
        "option texts only",
        "Charlotte Brontë, George Eliot, Mary Shelley",
    ),
    (
        "austen",
        "reverse",
        "n",
        ["A", "C", "D"],
        "labels with parenthetical on the correct one",
        "Incorrect: A, C, D (only B, Jane Austen, is the author).",
    ),
    (
        "austen",
        "reverse",
        "c",
        ["A", "C", "D"],
        "dash list yes/no per option",
        "- A: No, Brontë wrote Jane Eyre.\n- B: Yes, Austen is the author.\n- C: No — Eliot wrote "
        "Middlemarch.\n- D: No; Shelley wrote Frankenstein.\n\n"
        "So the incorrect ones are A, C and D.",
    ),
    (
        "austen",
        "reverse",
        "",
        None,
        "reverse leg answers the direct question, label and text",
        "B. Jane Austen is the author of Pride and Prejudice.",
    ),
    # interest: A
    (
        "interest",
        "direct",
        "c",
        ["A"],
        "cot formula, note on other options",
        "Simple interest I = P·r·t = 1000 × 0.05 × 3 = 150. So the interest is $150 (option A). "
        "Note that $157.63 would be compound interest and $1,150 is the total amount, not the "
        "interest.",
    ),
    ("interest", "direct", "", ["A"], "dollar amount only", "$150"),
    (
        "interest",
        "direct",
        "c",
        ["D"],
        "cot, answers the total, wrong judge",
        "I = 1000 × 0.05 × 3 = 150, so the balance after three years is 1,000 + 150 = $1,150.\n"
        "Answer: D",
    ),
    (
        "interest",
        "direct",
        "c",
        ["A"],
        "self-correction from compound to simple",
        "Compounding: 1000 × 1.05³ = 1157.63, so the interest is 157.63 → B. Wait, the question "
        "says simple interest, not compound. Simple: 1000 × 0.05 × 3 = 150. Correct answer: A.",
    ),
    ("interest", "reverse", "", ["B", "C", "D"], "bare labels", "B, C, D"),
    (
        "interest",
        "reverse",
        "c",
        ["B", "C", "D"],
        "cot explaining each wrong option",
        f"{COT} P = 1000, r = 5%, t = 3. Interest = 150. Option A matches. B uses compounding, C "
        "is one year's interest, D is principal plus interest. Incorrect: B, C and D.",
    ),
    (
        "interest",
        "reverse",
        "n",
        ["B", "C", "D"],
        "dollar texts",
        "The incorrect options are $157.63, $50 and $1,150.",
    ),
    (
        "interest",
        "reverse",
        "cn",
        None,
        "numbered steps cut off",
        "Step 1: the formula for simple interest is I = Prt.\nStep 2: substituting, I = 1000 × "
        "0.05 × 3\nStep 3:",
    ),
    # insects: A, C
    ("insects", "direct", "", ["A", "C"], "lowercase labels", "a, c"),
    (
        "insects",
        "direct",
        "c",
        ["A", "C"],
        "cot legs count, option texts",
        "Insects have six legs and three body parts. Ant: 6 legs → insect. Spider: 8 legs → "
        "arachnid. Beetle: 6 legs → insect. Scorpion: 8 legs → arachnid. Therefore the insects "
        "are the ant and the beetle.",
    ),
    (
        "insects",
        "direct",
        "",
        ["A", "B", "C"],
        "labels then the rest named, wrong judge",
        "A, B and C are insects; D is an arachnid.",
    ),
    (
        "insects",
        "direct",
        "",
        None,
        "small model contradicting itself, cut off",
        "Ant is an insect. Spider is an insect. Spider is not an insect. Spider is",
    ),
    (
        "insects",
        "reverse",
        "",
        ["B", "D"],
        "labels with reason",
        "B and D — spiders and scorpions are arachnids, not insects.",
    ),
    (
        "insects",
        "reverse",
        "c",
        ["B", "D"],
        "gpt-style headings, bold answer",
        "### Analysis\n\n- **Ant** — six legs, head/thorax/abdomen: insect.\n- **Spider** — eight "
        "legs, two body segments: arachnid.\n- **Beetle** — six legs: insect.\n- **Scorpion** — "
        "eight legs: arachnid.\n\n### Answer\n\nThe incorrect options are **B (Spider)** and "
        "**D (Scorpion)**.",
    ),
    (
        "insects",
        "reverse",
        "n",
        ["D"],
        "only one, with a wrong aside, wrong judge",
        "Only D is incorrect: a scorpion is an arachnid. (A spider is an insect.)",
    ),
    (
        "insects",
        "reverse",
        "",
        None,
        "reverse leg answers the direct question, texts",
        "Ant and beetle are the insects here.",
    ),
    # africa: A, C, E
    (
        "africa",
        "direct",
        "",
        ["A", "C", "E"],
        "option texts in a sentence",
        "Kenya, Egypt and Ghana.",
    ),
    (
        "africa",
        "direct",
        "c",
        ["A", "C", "E"],
        "cot per country, answer line",
        "Kenya is in East Africa. Peru is in South America. Egypt is in North Africa (with Sinai "
        "in Asia, but the country is counted as African). Nepal is in South Asia. Ghana is in West "
        "Africa.\n\nAnswer: A, C, E",
    ),
    (
        "africa",
        "direct",
        "",
        ["A", "E"],
        "labels then leaving one out, wrong judge",
        "A and E. Egypt is usually counted as the Middle East, so I'd leave C out.",
    ),
    (
        "africa",
        "direct",
        "",
        ["A", "C", "E"],
        "all except, option texts",
        "All of them except Peru and Nepal.",
    ),
    (
        "africa",
        "reverse",
        "",
        ["B", "D"],
        "texts with continents in parentheses",
        "Peru (South America) and Nepal (Asia).",
    ),
    (
        "africa",
        "reverse",
        "c",
        ["B", "D"],
        "numbered marks, digits mapped to labels",
        "1. Kenya – Africa ✓\n2. Peru – South America ✗\n3. Egypt – Africa ✓\n4. Nepal – Asia ✗\n"
        "5. Ghana – Africa ✓\n\nIncorrect options: 2 and 4, i.e. B and D.",
    ),
    (
        "africa",
        "reverse",
        "n",
        ["B", "D"],
        "labels, the rest described",
        "Options B and D are incorrect; the rest are African countries.",
    ),
    (
        "africa",
        "reverse",
        "c",
        None,
        "hedge, maybe one more",
        "Kenya and Ghana are clearly African and Peru is clearly not. Nepal is in Asia. Egypt is "
        "transcontinental, so whether C counts as incorrect depends on the convention. Incorrect: "
        "B, D, and maybe C.",
    ),
    # median: B
    (
        "median",
        "direct",
        "c",
        ["B"],
        "cot sort, mentions the mean option",
        "Sorted: 3, 4, 7, 9, 10. The middle value (3rd of 5) is 7. The mean would be 33/5 = 6.6, "
        "which is option C, but the question asks for the median. Answer: B.",
    ),
    ("median", "direct", "", ["B"], "label in parentheses only", "(B)"),
    (
        "median",
        "direct",
        "c",
        ["C"],
        "cot computes the mean, wrong judge",
        "Add them: 3+9+4+7+10 = 33. Divide by 5: 6.6. The median is 6.6 → C.",
    ),
    (
        "median",
        "direct",
        "",
        None,
        "definition only, no conclusion",
        "The median is the middle value once the numbers are sorted in ascending order.",
    ),
    ("median", "reverse", "", ["A", "C", "D"], "labels are incorrect", "A, C, D are incorrect."),
    (
        "median",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "cot, the other three with texts",
        "Let's sort: 3, 4, 7, 9, 10. The median is 7 (B). The incorrect options are the other "
        "three: 4 (A), 6.6 (C) and 9 (D).",
    ),
    (
        "median",
        "reverse",
        "c",
        ["A", "C", "D"],
        "mark per label lines",
        "Median = 7.\nA ✗\nB ✓\nC ✗\nD ✗\nThe ones marked ✗ are the incorrect options.",
    ),
    # sql: B, C
    ("sql", "direct", "", ["B", "C"], "code spans", "`UPDATE` and `DELETE`"),
    (
        "sql",
        "direct",
        "c",
        ["B", "C"],
        "cot per statement, labels at end",
        "SELECT only reads. UPDATE rewrites existing rows. DELETE removes rows. GRANT changes "
        "permissions, not rows. So B and C change the rows.",
    ),
    (
        "sql",
        "direct",
        "",
        ["B", "C", "D"],
        "labels with dash reason, wrong judge",
        "B, C, D — they all modify the database.",
    ),
    (
        "sql",
        "reverse",
        "",
        ["A", "D"],
        "predicate arrow labels",
        "SELECT and GRANT do not change rows → A, D",
    ),
    (
        "sql",
        "reverse",
        "c",
        ["A", "D"],
        "numbered bold with italic verdicts",
        "Let's go through each statement:\n\n1. **SELECT** – retrieves data; leaves rows "
        "untouched. *Incorrect.*\n2. **UPDATE** – modifies column values in existing rows. "
        "*Correct.*\n3. **DELETE** – removes rows. *Correct.*\n4. **GRANT** – alters privileges, "
        "not table data. *Incorrect.*\n\n**Incorrect options: A and D.**",
    ),
    (
        "sql",
        "reverse",
        "n",
        None,
        "one verdict then cut off",
        "SELECT is read-only, so it is one of the incorrect options. UPDATE",
    ),
    (
        "sql",
        "reverse",
        "",
        ["A"],
        "only one with an argument, wrong judge",
        "Only A is incorrect. GRANT writes to the system catalog, so it does change stored rows; "
        "SELECT is the only statement that changes nothing.",
    ),
    # conductors: A, C
    ("conductors", "direct", "", ["A", "C"], "texts with semicolon", "Copper; graphite"),
    (
        "conductors",
        "direct",
        "c",
        ["A", "C"],
        "cot prose, texts at end",
        "Copper is a metal with free electrons — a conductor. Rubber is an insulator. Graphite has "
        "delocalised electrons between its layers, so it conducts. Glass is an insulator at room "
        "temperature. Conductors: copper and graphite.",
    ),
    (
        "conductors",
        "direct",
        "",
        ["A"],
        "label only, argues one out, wrong judge",
        "A only — graphite is a form of carbon, a non-metal, so it insulates.",
    ),
    (
        "conductors",
        "direct",
        "c",
        None,
        "numbered thinking aloud, cut off",
        "1. Copper: excellent conductor.\n2. Rubber: insulator.\n3. Graphite: hmm, this one is "
        "tricky. Diamond doesn't conduct, but graphite",
    ),
    ("conductors", "reverse", "", ["B", "D"], "lowercase texts", "rubber, glass"),
    (
        "conductors",
        "reverse",
        "cn",
        ["B", "D"],
        "restated negation, labels",
        "Incorrect options are those that do not conduct well. Copper and graphite conduct; rubber "
        "and glass are insulators. Incorrect: B, D.",
    ),
    (
        "conductors",
        "reverse",
        "c",
        ["B", "D"],
        "answer then note about another option",
        "Answer: B, D\n\n(Graphite (C) may look like the odd one out, but it does conduct, so it "
        "is not among the incorrect options.)",
    ),
    # derivative: C
    (
        "derivative",
        "direct",
        "c",
        ["C"],
        "cot product rule, matches option",
        "Product rule: (uv)' = u'v + uv'. With u = x, v = e^x: 1·e^x + x·e^x = e^x(x + 1). That "
        "matches option C.",
    ),
    ("derivative", "direct", "", ["C"], "formula text only", "e^x(x+1)"),
    ("derivative", "direct", "", ["C"], "ordinal word", "The third one."),
    ("derivative", "reverse", "", ["A", "B", "D"], "all but", "All but C."),
    (
        "derivative",
        "reverse",
        "c",
        ["A", "B", "D"],
        "cot, labels then reasons",
        "Using the product rule, f'(x) = e^x + x e^x = e^x(x+1). Options A, B and D are "
        "incorrect; A forgets the x·e^x term, B just repeats f, D drops the x.",
    ),
    (
        "derivative",
        "reverse",
        "n",
        ["A", "B"],
        "two, excusing a third, wrong judge",
        "A and B are incorrect. D, e^x + 1, is the same as C after simplifying, so it is fine.",
    ),
    (
        "derivative",
        "reverse",
        "c",
        None,
        "reverse leg answers the direct question",
        "f'(x) = e^x(x+1), so the answer is C.",
    ),
    # not-planet: B (negated question)
    (
        "not-planet",
        "direct",
        "",
        ["B"],
        "text with reason",
        "Pluto — it was reclassified as a dwarf planet in 2006.",
    ),
    (
        "not-planet",
        "direct",
        "c",
        ["B"],
        "cot, question's own predicate",
        "Neptune, Mercury and Uranus are all among the eight planets. Pluto has been a dwarf "
        "planet since 2006. So B is the one that is not a planet.",
    ),
    (
        "not-planet",
        "direct",
        "",
        None,
        "defers the choice",
        "If we follow the pre-2006 list, every option is a planet and none fits; under the IAU "
        "definition it's Pluto. I'll leave the choice to you.",
    ),
    (
        "not-planet",
        "reverse",
        "",
        ["A", "C", "D"],
        "negated question, labels with reason",
        "A, C and D are incorrect answers, since Neptune, Mercury and Uranus are planets.",
    ),
    (
        "not-planet",
        "reverse",
        "cn",
        ["A", "C", "D"],
        "negated question, careful prose, texts",
        "The question asks which body is not a planet. The incorrect options are the ones that "
        "fail to answer that, i.e. the real planets: Neptune, Mercury and Uranus (A, C, D).",
    ),
    (
        "not-planet",
        "reverse",
        "c",
        ["B"],
        "negated question misread, wrong judge",
        "Pluto isn't a planet, so option B is incorrect.",
    ),
    ("not-planet", "reverse", "", ["A", "C", "D"], "bare labels, spaces", "A C D"),
    # odd-sums: B, D
    (
        "odd-sums",
        "direct",
        "",
        ["B", "D"],
        "sums then labels",
        "4 + 7 = 11 and 2 + 9 = 11 are odd, so B and D.",
    ),
    (
        "odd-sums",
        "direct",
        "c",
        ["B", "D"],
        "cot parity rule",
        "3+5=8 even; 4+7=11 odd; 6+8=14 even; 2+9=11 odd. Odd + even = odd, so the pairs that mix "
        "parities are the answers: B, D.",
    ),
    ("odd-sums", "direct", "", ["B", "D"], "two labelled groups", "Odd: B, D. Even: A, C."),
    (
        "odd-sums",
        "reverse",
        "",
        ["A", "C"],
        "labels with parenthetical values",
        "A and C (8 and 14 are even).",
    ),
    (
        "odd-sums",
        "reverse",
        "c",
        ["A", "C"],
        "per-label lines, set notation",
        "A: 8 — even, incorrect. B: 11 — odd. C: 14 — even, incorrect. D: 11 — odd.\n"
        "Incorrect = {A, C}",
    ),
    (
        "odd-sums",
        "reverse",
        "n",
        ["A", "C", "D"],
        "arithmetic slip, wrong judge",
        "3+5 = 8 (even), 6+8 = 14 (even), 2+9 = 10 (even). Incorrect: A, C, D.",
    ),
    (
        "odd-sums",
        "reverse",
        "",
        ["A", "C"],
        "question's predicate negated, texts",
        "The sums that are even, not odd: 3 + 5 and 6 + 8.",
    ),
    # leap: B, C, E
    (
        "leap",
        "direct",
        "c",
        ["B", "C", "E"],
        "cot rule per year, texts",
        "Rule: divisible by 4, except century years, unless divisible by 400. 1900: century, not "
        "÷400 → no. 2000: ÷400 → yes. 2016: ÷4 → yes. 2100: century, not ÷400 → no. 2024: ÷4 → "
        "yes. Leap years: 2000, 2016, 2024.",
    ),
    (
        "leap",
        "direct",
        "",
        ["A", "B", "C", "D", "E"],
        "all of them, wrong judge",
        "All of them are divisible by 4, so all five are leap years.",
    ),
    ("leap", "direct", "", ["B", "C", "E"], "bare labels, spaces", "B C E"),
    (
        "leap",
        "direct",
        "c",
        ["B", "C", "E"],
        "self-correction, no wait",
        "1900 ÷ 4 = 475, so 1900 is a leap year... no, hold on: century years need to be divisible "
        "by 400, and 1900 isn't. Same for 2100. 2000 is. So: B, C, E.",
    ),
    ("leap", "reverse", "", ["A", "D"], "years only", "1900 and 2100"),
    (
        "leap",
        "reverse",
        "cn",
        ["A", "D"],
        "reasoning then bare json",
        "Reasoning: century years are leap years only when divisible by 400, so 1900 and 2100 are "
        'not; 2000, 2016 and 2024 are.\n\n{"incorrect": ["A", "D"]}',
    ),
    (
        "leap",
        "reverse",
        "c",
        None,
        "cannot settle one option",
        "1900 and 2100 are not leap years. 2000... I keep forgetting whether the 400 rule makes "
        "2000 a leap year or not. If it isn't, B is incorrect too. I can't settle this.",
    ),
    # seconds: A
    (
        "seconds",
        "direct",
        "c",
        ["A"],
        "cot unit conversion",
        "1 hour = 3,600 s. 2.5 × 3,600 = 9,000 s. Answer: A",
    ),
    ("seconds", "direct", "", ["A"], "number without comma and unit word", "9000 seconds"),
    (
        "seconds",
        "direct",
        "",
        ["D"],
        "wrong conversion, wrong judge",
        "2.5 h = 250 min, and 250 × 60 = 15,000 s, option D.",
    ),
    ("seconds", "direct", "", ["A"], "ordinal word", "The first option."),
    (
        "seconds",
        "reverse",
        "",
        ["B", "C", "D"],
        "texts with units",
        "150 s, 900 s and 15,000 s are incorrect.",
    ),
    (
        "seconds",
        "reverse",
        "c",
        ["B", "C", "D"],
        "cot, each wrong option explained",
        "2.5 h × 60 = 150 min; 150 min × 60 = 9,000 s. B stops at minutes (150), C is off by a "
        "factor of ten, D uses 250 minutes. Incorrect: B, C, D.",
    ),
    (
        "seconds",
        "reverse",
        "n",
        [],
        "none incorrect, wrong judge",
        "I don't see an incorrect option here — each one is a valid way of expressing the "
        "duration.",
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
    print(Counter((r["polarity"], "+".join(r["mitigations"]) or "none") for r in rows))
    kinds = Counter(
        (
            r["polarity"],
            "null"
            if r["expected"] is None
            else "empty"
            if not r["expected"]
            else "one"
            if len(r["expected"]) == 1
            else "several",
        )
        for r in rows
    )
    print(kinds)


if __name__ == "__main__":
    main()
