# ruff: noqa: E501, W291  (the replies are data: long lines and trailing spaces are what judges wrote)
"""Write holdout-f.jsonl: replies in the habits of small open-weights instruct judges
(Llama-3/3.1-8B-Instruct, Mistral-7B-Instruct, Gemma-2-9B-it, Phi-3-mini, Qwen2.5-7B-Instruct,
Llama-2-chat), written by hand, blind to the reader, each with the reading a careful person
gives it. Edit this script and rerun it; never edit the jsonl by hand.

    python3 tests/data/replies/choice-holdout-f/write_holdout-f.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SET = "holdout-f"

ITEMS = {
    "capitals": (
        "Which of these cities are capitals of European countries?",
        ["Paris", "Sydney", "Rome", "Toronto"],
    ),
    "primes": (
        "Which of these numbers are prime?",
        ["21", "29", "37", "51", "53"],
    ),
    "times": (
        "What is 17 × 6?",
        ["96", "102", "108", "112"],
    ),
    "mammals": (
        "Which of these animals are mammals?",
        ["Dolphin", "Shark", "Bat", "Penguin"],
    ),
    "planet": (
        "Which planet is closest to the Sun?",
        ["Venus", "Mercury", "Mars", "Earth"],
    ),
    "noble": (
        "Which of these elements are noble gases?",
        ["Argon", "Nitrogen", "Neon", "Chlorine", "Xenon"],
    ),
    "boiling": (
        "At sea level, what is the boiling point of pure water in degrees Celsius?",
        ["90", "100", "110", "120"],
    ),
    "four": (
        "Which of these numbers are divisible by 4?",
        ["28", "42", "64", "90"],
    ),
    "plays": (
        "Which of these plays were written by William Shakespeare?",
        ["Hamlet", "Faust", "Macbeth", "The Seagull"],
    ),
    "linear": (
        "Solve for x: 3x + 5 = 20.",
        ["x = 3", "x = 5", "x = 7", "x = 25/3"],
    ),
    "typed": (
        "Which of these programming languages are statically typed?",
        ["Python", "Java", "Rust", "JavaScript", "Haskell"],
    ),
    "ocean": (
        "Which is the largest ocean on Earth?",
        ["Atlantic Ocean", "Indian Ocean", "Pacific Ocean", "Arctic Ocean"],
    ),
    "southam": (
        "Which of these countries are in South America?",
        ["Peru", "Kenya", "Chile", "Portugal"],
    ),
}

D, R = "direct", "reverse"
COT, NEG = ["cot"], ["neg_exp"]
BOTH = ["cot", "neg_exp"]
NONE: list[str] = []

# (item, polarity, mitigations, reply, expected, note)
REPLIES: list[tuple[str, str, list[str], str, list[str] | None, str]] = [
    # capitals: A, C
    (
        "capitals",
        D,
        COT,
        r"""Sure! Let's break it down step by step.

### Step 1: Look at each city
1. **Paris** – capital of France 🇫🇷 ✅
2. **Sydney** – a city in Australia, not a capital (the capital is Canberra) ❌
3. **Rome** – capital of Italy 🇮🇹 ✅
4. **Toronto** – in Canada, and the capital is Ottawa ❌

### Step 2: Conclusion
The correct answers are: 

* **A) Paris** 
* **C) Rome**

Let me know if you need anything else! 😊""",
        ["A", "C"],
        "bulleted labels with text, emoji",
    ),
    (
        "capitals",
        R,
        NONE,
        r"""**Answer:** (B) and (D)

Sydney and Toronto are not capitals of European countries. Sydney is in Australia and Toronto is in Canada.""",
        ["B", "D"],
        "bold Answer, parenthesised labels",
    ),
    (
        "capitals",
        R,
        COT,
        r"""Let's think step by step.

* Paris is the capital of France, which is in Europe.
* Sydney is in Australia.
* Rome is the capital of Italy, which is in Europe.
* Toronto is in Canada.

**The correct answers are A) Paris and C) Rome.**

I hope this helps! Let me know if you have any other questions.""",
        None,
        "reverse answers direct question",
    ),
    (
        "capitals",
        D,
        NONE,
        r"""a and c""",
        ["A", "C"],
        "lowercase labels, bare",
    ),
    (
        "capitals",
        R,
        NEG,
        r"""The options that do not answer the question are:

B. Sydney
D. Toronto

Both are cities outside Europe, so they cannot be capitals of European countries.""",
        ["B", "D"],
        "labels with text, one per line",
    ),
    (
        "capitals",
        D,
        COT,
        r"""## Analysis

Let's think step by step about each option:

- **A) Paris** — This is the capital of France. Correct.
- **B) Sydney** — Many people think this is the capital of Australia, but it is actually Canberra. Also, Australia is not in Europe. Incorrect.
- **C) Rome** — Capital of Italy. Correct.
- **D) Toronto** — Largest city in Canada, but Canada is in North America. Incorrect.

## Final Answer

**A and C** are the capitals of European countries.""",
        ["A", "C"],
        "markdown headers, per-option verdicts, final header",
    ),
    (
        "capitals",
        R,
        COT,
        r"""Let's think step by step. The question asks which are NOT capitals of European countries.

1. Paris → capital of France (Europe) → it IS a capital, so it is not incorrect.
2. Sydney → Australia → not a European capital.
3. Rome → capital of Italy (Europe) → it is a capital.
4. Toronto → Canada → not a European""",
        None,
        "cut by token limit before conclusion",
    ),
    (
        "capitals",
        D,
        NONE,
        r"""Final Answer: The final answer is $\boxed{A, C}$. I hope it is correct.""",
        ["A", "C"],
        "Final Answer boxed, two labels",
    ),
    # primes: B, C, E
    (
        "primes",
        D,
        COT,
        r"""Let's think step by step.

**Step 1:** Check 21. 21 = 3 × 7, so it is not prime.
**Step 2:** Check 29. It is not divisible by 2, 3, or 5. √29 ≈ 5.4, so 29 is prime.
**Step 3:** Check 37. Not divisible by 2, 3, or 5. √37 ≈ 6.1. 37 is prime.
**Step 4:** Check 51. 5 + 1 = 6, which is divisible by 3, so 51 = 3 × 17. Not prime.
**Step 5:** Check 53. Not divisible by 2, 3, 5, or 7. 53 is prime.

**Answer:** (B), (C), and (E)

Final Answer: The final answer is $\boxed{B, C, E}$. I hope it is correct.""",
        ["B", "C", "E"],
        "numbered steps, answer then boxed repeat",
    ),
    (
        "primes",
        R,
        NONE,
        r"""The incorrect options are **A) 21** and **D) 51**, because 21 = 3 × 7 and 51 = 3 × 17.""",
        ["A", "D"],
        "bold labels with text in a sentence",
    ),
    (
        "primes",
        R,
        COT,
        r"""Sure! Let's go through each number step by step.

### A) 21
21 = 3 × 7 → **not prime**

### B) 29
Only divisible by 1 and 29 → **prime**

### C) 37
Only divisible by 1 and 37 → **prime**

### D) 51
Hmm, 51 looks prime at first, but 51 = 3 × 17 → **not prime**

### E) 53
Only divisible by 1 and 53 → **prime**

---

### ✅ Conclusion
The numbers that are **not** prime (the incorrect options) are:

* **A) 21**
* **D) 51**

Let me know if you'd like me to explain the divisibility rule for 3! 😊""",
        ["A", "D"],
        "headers per option, bulleted conclusion",
    ),
    (
        "primes",
        D,
        NONE,
        r"""**Answer: B, C, D, E**

29, 37, 51 and 53 are all prime numbers. 21 is not prime because it is divisible by 3 and 7.

Wait, actually 51 is divisible by 3 (51 = 3 × 17), so it is not prime either.

**Corrected answer: B, C, E**""",
        ["B", "C", "E"],
        "self-correction with corrected answer",
    ),
    (
        "primes",
        R,
        BOTH,
        r"""Let's think step by step. An option is incorrect if the number does not answer the question, i.e. it is not prime.

- 21: divisible by 3 → not prime
- 29: prime
- 37: prime
- 51: divisible by 3 → not prime
- 53: prime

So the options that are not prime are 21 and 51.""",
        ["A", "D"],
        "option texts quoted instead of labels",
    ),
    (
        "primes",
        D,
        COT,
        r"""Let's think step by step.

21 is 3 times 7. Not prime.
29 is prime.
37 is prime.
51 is 3 times 17. Not prime.
53 is prime.

The correct answers are (B) 29, (C) 37 and (E) 53.

**Final answer: (B) 29, (C) 37, (E) 53** 🎉""",
        ["B", "C", "E"],
        "parenthesised labels with text, repeated",
    ),
    (
        "primes",
        R,
        NONE,
        r"""# Incorrect options

**A** and **D**

# Explanation

A prime number has exactly two divisors. 21 has divisors 1, 3, 7, 21 and 51 has divisors 1, 3, 17, 51. The other numbers (29, 37, 53) are prime.

# Summary

The incorrect options are **A (21)** and **D (51)**. Let me know if you need more help!""",
        ["A", "D"],
        "answer header first, summary repeated",
    ),
    # times: B
    (
        "times",
        D,
        COT,
        r"""Let's think step by step.

17 × 6 = (10 × 6) + (7 × 6) = 60 + 42 = 102

Final Answer: The final answer is $\boxed{B}$. I hope it is correct.""",
        ["B"],
        "Final Answer boxed single",
    ),
    (
        "times",
        R,
        COT,
        r"""Let's think step by step.

17 × 6 = 102.

So the correct answer is 102, which is option B. The incorrect options are:

* A) 96
* C) 108
* D) 112

**Answer:** (A), (C), (D)""",
        ["A", "C", "D"],
        "bulleted incorrect, bold answer",
    ),
    (
        "times",
        R,
        NONE,
        r"""B""",
        ["B"],
        "reverse, bare label that is the direct answer, read as given",
    ),
    (
        "times",
        D,
        NONE,
        r"""**Answer: (B) 102**

17 × 6 = 102. 

Hope this helps! 😊""",
        ["B"],
        "bold answer with text",
    ),
    (
        "times",
        R,
        NEG,
        r"""Sure! The options that do not answer the question are the ones that are not equal to 17 × 6.

17 × 6 = 102

So the options that do not answer the question are **96, 108, and 112**.""",
        ["A", "C", "D"],
        "option values instead of labels",
    ),
    (
        "times",
        D,
        COT,
        r"""Let's think step by step.

1. 17 × 6. First, 17 × 5 = 85.
2. Add one more 17: 85 + 17 = 102.

Hmm, wait, let me double-check: 17 × 6 = 108? No — 18 × 6 = 108. 17 × 6 = 102.

### Final Answer
**B. 102**""",
        ["B"],
        "hedged double-check, label with text",
    ),
    (
        "times",
        R,
        COT,
        r"""Let's think step by step.

## Step 1: Compute the product
17 × 6 = 102

## Step 2: Identify the incorrect options
Option B (102) matches the product. Options A (96), C (108) and D (112) do not match.

## Step 3: Final answer
The incorrect options are""",
        ["A", "C", "D"],
        "cut at the final line, a step names them",
    ),
    # mammals: A, C
    (
        "mammals",
        D,
        NONE,
        r"""The correct answers are: 

* **A) Dolphin** 
* **C) Bat**

Dolphins and bats are both mammals: they are warm-blooded, breathe air and feed their young milk. Sharks are fish and penguins are birds.""",
        ["A", "C"],
        "bulleted bold labels with text",
    ),
    (
        "mammals",
        R,
        COT,
        r"""Let's think step by step!

🐬 **Dolphin**: mammal (breathes air, nurses its young)
🦈 **Shark**: fish, not a mammal
🦇 **Bat**: mammal (the only flying mammal)
🐧 **Penguin**: bird, not a mammal

So the options that are NOT mammals are **Shark** and **Penguin**.

**Answer:** B and D""",
        ["B", "D"],
        "emoji per option, texts then labels",
    ),
    (
        "mammals",
        R,
        NONE,
        r"""**(A) and (C)** are mammals, while **(B) and (D)** are not.""",
        ["B", "D"],
        "both sides given",
    ),
    (
        "mammals",
        D,
        COT,
        r"""Let's think step by step.

1. **Dolphin** – Although it lives in the ocean, a dolphin is a mammal.
2. **Shark** – A shark is a cartilaginous fish.
3. **Bat** – Bats are mammals.
4. **Penguin** – Penguins are birds.

**Answer:** (A) and (C)

In conclusion, the animals that are mammals are the dolphin and the bat, so the answer is **A and C**. Let me know if you need anything else!""",
        ["A", "C"],
        "answer then concluding repeat",
    ),
    (
        "mammals",
        R,
        BOTH,
        r"""Let's think step by step. The incorrect options are the ones that are not mammals.

- Dolphin: mammal ✅
- Shark: fish ❌
- Bat: mammal ✅
- Penguin: mammal? Penguins are warm-blooded... but they lay eggs and have feathers, so they are birds ❌

Final Answer: The final answer is $\boxed{B, D}$. I hope it is correct.""",
        ["B", "D"],
        "check marks then boxed labels",
    ),
    (
        "mammals",
        D,
        NONE,
        r"""Dolphin and Bat.""",
        ["A", "C"],
        "option texts only, short",
    ),
    (
        "mammals",
        R,
        COT,
        r"""Let's think step by step.

A dolphin is a mammal. A shark is a fish. A bat is a mammal. A penguin is a bird.

**The incorrect options are B and D.**

Actually, wait — the question asks which are mammals, so the incorrect options (the ones that are not mammals) are B) Shark and D) Penguin. Yes, my answer is **B and D**.""",
        ["B", "D"],
        "false alarm self-check, same answer",
    ),
    # planet: B
    (
        "planet",
        D,
        COT,
        r"""Let's think step by step.

The order of the planets from the Sun is: Mercury, Venus, Earth, Mars, ...

So the planet closest to the Sun is **Mercury**.

**Answer: (B) Mercury** ☀️""",
        ["B"],
        "bold answer with text after reasoning",
    ),
    (
        "planet",
        R,
        NONE,
        r"""The incorrect options are: (A) Venus, (C) Mars, (D) Earth.

Mercury (B) is the planet closest to the Sun.""",
        ["A", "C", "D"],
        "parenthesised list, correct one named after",
    ),
    (
        "planet",
        D,
        NONE,
        r"""## Answer
**Venus**

Venus is the closest planet to the Sun and also the hottest planet in the solar system.

Hmm, actually, that's not right. Venus is the hottest, but **Mercury** is the closest.

## Corrected Answer
**(B) Mercury**""",
        ["B"],
        "revised answer under a corrected header",
    ),
    (
        "planet",
        R,
        NEG,
        r"""The options that do not answer the question are A, C and D.""",
        ["A", "C", "D"],
        "plain sentence with label list",
    ),
    (
        "planet",
        R,
        COT,
        r"""Let's think step by step.

The planet closest to the Sun is Mercury. Venus is second, Earth is third, and Mars is fourth.

Therefore, the correct answer is **B) Mercury**.""",
        None,
        "reverse answers direct question",
    ),
    (
        "planet",
        D,
        COT,
        r"""Sure! Let's break it down.

**Step 1:** Recall the order of the planets: My Very Educated Mother Just Served Us Noodles → Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus, Neptune.

**Step 2:** The first one is Mercury.

**Final Answer:** b""",
        ["B"],
        "lowercase single label after mnemonic",
    ),
    # noble: A, C, E
    (
        "noble",
        D,
        COT,
        r"""Let's think step by step.

Noble gases are in group 18 of the periodic table: helium, neon, argon, krypton, xenon, radon.

- **A) Argon** – group 18 ✅
- **B) Nitrogen** – group 15 ❌
- **C) Neon** – group 18 ✅
- **D) Chlorine** – group 17 (halogen) ❌
- **E) Xenon** – group 18 ✅

**Answer:** (A), (C) and (E)""",
        ["A", "C", "E"],
        "check-mark list then bold answer",
    ),
    (
        "noble",
        R,
        COT,
        r"""Let's think step by step.

Noble gases: He, Ne, Ar, Kr, Xe, Rn.

Argon - noble gas
Nitrogen - not a noble gas
Neon - noble gas
Chlorine - not a noble gas (it's a halogen)
Xenon - noble gas

So the incorrect options are Nitrogen and Chlorine, which are options B and D.

**Final Answer: B and D**

I hope this helps! Let me know if you have any other questions. 😊""",
        ["B", "D"],
        "texts then labels, closing offer",
    ),
    (
        "noble",
        R,
        NONE,
        r"""**Answer:** B, D

**Explanation:** Nitrogen is in group 15 and chlorine is a halogen (group 17). Argon, neon and xenon are noble gases.

**Answer:** B, D, E""",
        None,
        "two conflicting answers, no revision",
    ),
    (
        "noble",
        D,
        NONE,
        r"""The noble gases among the options are Argon, Neon, and Xenon.""",
        ["A", "C", "E"],
        "option texts in sentence",
    ),
    (
        "noble",
        R,
        BOTH,
        r"""Let's think step by step. Incorrect here means the options that are not noble gases.

1. Argon (Ar) – noble gas, so it answers the question.
2. Nitrogen (N) – a diatomic gas, but not a noble gas. ❌
3. Neon (Ne) – noble gas.
4. Chlorine (Cl) – halogen. ❌
5. Xenon (Xe) – noble gas.

### Final Answer
The options that do not answer the question: **(B) Nitrogen** and **(D) Chlorine**.""",
        ["B", "D"],
        "numbered analysis, final header with labels",
    ),
    (
        "noble",
        D,
        COT,
        r"""Let's think step by step. The noble gases are the elements of group 18 of the periodic table. They have a full outer shell of electrons, which makes them very unreactive. The noble gases are helium (He), neon (Ne), argon (Ar), krypton (Kr), xenon (Xe), and radon (Rn).

Now let's look at each option:

A) Argon: Argon is in group 18, so it is a noble gas.
B) Nitrogen: Nitrogen is in group 15. It makes up about 78% of the atmosphere, but it is not a noble gas.
C) Neon: Neon is in group 18, so it is a noble gas. It is used in""",
        None,
        "cut mid-analysis, no conclusion",
    ),
    (
        "noble",
        R,
        NEG,
        r"""Sure! Here are the options that do not answer the question (i.e. are not noble gases):

* **B) Nitrogen**
* **D) Chlorine**

Let me know if you need anything else!""",
        ["B", "D"],
        "polite opener, bulleted labels with text",
    ),
    # boiling: B
    (
        "boiling",
        D,
        NONE,
        r"""**Answer: B) 100**

At sea level (1 atm), pure water boils at 100 °C.""",
        ["B"],
        "bold answer label with value",
    ),
    (
        "boiling",
        R,
        COT,
        r"""Let's think step by step.

At standard atmospheric pressure, water boils at 100 degrees Celsius. Therefore options 90, 110 and 120 are incorrect.

**Answer:** (A), (C), and (D)

In summary, the incorrect options are A, C and D. 🌡️""",
        ["A", "C", "D"],
        "values then labels, summary repeat",
    ),
    (
        "boiling",
        D,
        COT,
        r"""Let's think step by step.

Water boils when its vapour pressure equals atmospheric pressure. At sea level that's 1 atm, and the temperature is 100 °C.

The answer is 100.""",
        ["B"],
        "option value as answer",
    ),
    (
        "boiling",
        R,
        NONE,
        r"""The correct answer is B.""",
        None,
        "reverse answers direct question, short",
    ),
    (
        "boiling",
        R,
        BOTH,
        r"""Let's think step by step. We need the options that do not answer the question.

- 90 °C: too low ❌
- 100 °C: correct boiling point ✅
- 110 °C: too high ❌
- 120 °C: too high ❌

The answer is **A, C, D**.""",
        ["A", "C", "D"],
        "marked values, bold label list",
    ),
    (
        "boiling",
        D,
        COT,
        r"""Let's think step by step.

1. Water boils at 100 °C at 1 atmosphere of pressure.
2. Sea level is about 1 atmosphere.

**Answer: (B)**

Actually, I should mention that at higher altitudes water boils at a lower temperature, e.g. around 90 °C in the mountains, but the question asks about sea level, so the answer remains **(B) 100**.""",
        ["B"],
        "answer kept after aside naming another value",
    ),
    # four: A, C
    (
        "four",
        D,
        COT,
        r"""Let's think step by step.

* 28 ÷ 4 = 7 ✅
* 42 ÷ 4 = 10.5 ❌
* 64 ÷ 4 = 16 ✅
* 90 ÷ 4 = 22.5 ❌

**Answer:** (A) and (C)

Final Answer: The final answer is $\boxed{A, C}$. I hope it is correct.""",
        ["A", "C"],
        "bold answer and boxed repeat",
    ),
    (
        "four",
        R,
        COT,
        r"""Let's think step by step.

A number is divisible by 4 if its last two digits are divisible by 4.

- 28: 28 ÷ 4 = 7 → divisible
- 42: 42 ÷ 4 = 10.5 → not divisible
- 64: 64 ÷ 4 = 16 → divisible
- 90: 90 ÷ 4 = 22.5 → not divisible

**Answer:** (B) and (D)

So the numbers that are not divisible by 4 are **42 and 90**, i.e. options **B and D**. Let me know if you need anything else! 👍""",
        ["B", "D"],
        "answer then values and labels repeated",
    ),
    (
        "four",
        R,
        NONE,
        r"""b and d""",
        ["B", "D"],
        "lowercase labels, bare",
    ),
    (
        "four",
        D,
        NONE,
        r"""The correct answers are: 

* **A) 28** 
* **C) 64**
* **D) 90**

Hmm, 90 ÷ 4 = 22.5, so 90 is not divisible by 4. Let me fix that.

The correct answers are **A) 28** and **C) 64**.""",
        ["A", "C"],
        "list then self-correction",
    ),
    (
        "four",
        R,
        NEG,
        r"""**Answer:** (A) and (C)

28 and 64 are divisible by 4.""",
        None,
        "reverse gives correct ones as answer",
    ),
    (
        "four",
        D,
        COT,
        r"""Let's think step by step.

## Divisibility by 4
A number is divisible by 4 if the number formed by its last two digits is divisible by 4.

## Checking each option
1. **28**: 28 / 4 = 7, a whole number. So 28 is divisible by 4.
2. **42**: 42 / 4 = 10.5, not a whole number.
3. **64**: 64 / 4 = 16. Divisible.
4. **90**: 90 / 4 = 22.5. Not divisible.

## Conclusion
The numbers divisible by 4 are **28** and **64**.

**Final Answer: A, C**""",
        ["A", "C"],
        "headers, values then labels",
    ),
    # plays: A, C
    (
        "plays",
        D,
        NONE,
        r"""**Answer:** (A) Hamlet and (C) Macbeth

*Faust* was written by Goethe and *The Seagull* by Anton Chekhov.""",
        ["A", "C"],
        "bold answer with texts, others attributed",
    ),
    (
        "plays",
        R,
        COT,
        r"""Let's think step by step.

**Hamlet** – Shakespeare ✔️
**Faust** – Johann Wolfgang von Goethe
**Macbeth** – Shakespeare ✔️
**The Seagull** – Anton Chekhov

The plays NOT written by Shakespeare are *Faust* and *The Seagull*.

**Answer: B, D**""",
        ["B", "D"],
        "texts then bold labels",
    ),
    (
        "plays",
        R,
        NONE,
        r"""The incorrect options are "Faust" and "The Seagull".""",
        ["B", "D"],
        "quoted option texts",
    ),
    (
        "plays",
        D,
        COT,
        r"""Let's think step by step.

1. Hamlet is one of Shakespeare's most famous tragedies.
2. Faust is a tragic play by Goethe, although Christopher Marlowe (a contemporary of Shakespeare) wrote Doctor Faustus.
3. Macbeth is a Shakespearean tragedy.
4. The Seagull is a play by Chekhov.

Therefore, the plays written by Shakespeare are **Hamlet** and **Macbeth**.

**Final Answer:** (A) and (C) 📚""",
        ["A", "C"],
        "numbered steps, final labels",
    ),
    (
        "plays",
        R,
        BOTH,
        r"""Let's think step by step about which options do not answer the question.

- **A) Hamlet**: written by Shakespeare around 1600.
- **B) Faust**: written by Goethe.
- **C) Macbeth**: written by Shakespeare.
- **D) The Seagull**: written by Chekhov.

**Answer:** The correct answers are **A) Hamlet** and **C) Macbeth**.""",
        None,
        "reverse with neg_exp still answers direct",
    ),
    (
        "plays",
        D,
        NONE,
        r"""## Answer

The plays written by Shakespeare are:

* **Hamlet** (A)
* **Macbeth** (C)

## Explanation
Hamlet (c. 1600) and Macbeth (c. 1606) are both tragedies by William Shakespeare. Faust is by Goethe and The Seagull is by Chekhov.

Let me know if you want to know more about these plays! 🎭""",
        ["A", "C"],
        "texts with trailing parenthesised labels",
    ),
    (
        "plays",
        R,
        COT,
        r"""Let's think step by step.

Hamlet – Shakespeare. Faust – Goethe. Macbeth – Shakespeare. The Seagull – Chekhov.

So the incorrect options are B and D. Wait, I need to double-check Macbeth... yes, Macbeth is Shakespeare's. Hmm, but Faust could refer to Marlowe's *Doctor Faustus*? No, that's a different play and not by Shakespeare either.

**Final answer: B and D.** Both Faust and The Seagull""",
        ["B", "D"],
        "hedges, answer then cut after it",
    ),
    # linear: B
    (
        "linear",
        D,
        COT,
        r"""Let's think step by step.

**Step 1:** Subtract 5 from both sides: 3x = 15
**Step 2:** Divide both sides by 3: x = 5

**Answer:** (B) x = 5

Final Answer: The final answer is $\boxed{B}$. I hope it is correct.""",
        ["B"],
        "steps, bold answer, boxed repeat",
    ),
    (
        "linear",
        R,
        COT,
        r"""Let's think step by step.

3x + 5 = 20
3x = 15
x = 5

So x = 5 is the solution. The incorrect options are x = 3, x = 7 and x = 25/3.

**Answer:** A, C, D""",
        ["A", "C", "D"],
        "option texts then label answer",
    ),
    (
        "linear",
        D,
        NONE,
        r"""x = 5""",
        ["B"],
        "option text only",
    ),
    (
        "linear",
        R,
        NONE,
        r"""**Answer: A, C, D**

Check: if x = 5, then 3(5) + 5 = 20 ✔️. So only B is correct and all others are incorrect.""",
        ["A", "C", "D"],
        "answer first, check after",
    ),
    (
        "linear",
        D,
        COT,
        r"""Let's think step by step.

We have 3x + 5 = 20. Move 5 to the other side: 3x = 20 + 5 = 25. Then x = 25/3.

**Answer: (D) x = 25/3**

Hmm, wait. When moving 5 to the other side it should be subtracted: 3x = 20 − 5 = 15, so x = 5.

**Corrected Answer: (B) x = 5**""",
        ["B"],
        "sign error then corrected answer",
    ),
    (
        "linear",
        R,
        NEG,
        r"""x = 5 is the solution, so the options that do not answer the question are:

A. x = 3
C. x = 7
D. x = 25/3""",
        ["A", "C", "D"],
        "labels with text, per line",
    ),
    (
        "linear",
        R,
        COT,
        r"""Let's solve step by step:

3x + 5 = 20
3x = 15
x = 5

The answer is B) x = 5. 😊""",
        None,
        "reverse answers direct question",
    ),
    # typed: B, C, E
    (
        "typed",
        D,
        COT,
        r"""Let's think step by step.

### Statically typed languages
Types are checked at compile time.

1. **Python** – dynamically typed (type hints are optional and not enforced at runtime) ❌
2. **Java** – statically typed ✅
3. **Rust** – statically typed ✅
4. **JavaScript** – dynamically typed ❌
5. **Haskell** – statically typed, with type inference ✅

### Answer
**B, C, and E**

Let me know if you want to know more about type systems! 💻""",
        ["B", "C", "E"],
        "headers, numbered analysis, bold labels",
    ),
    (
        "typed",
        R,
        COT,
        r"""Let's think step by step.

- Python: dynamic
- Java: static
- Rust: static
- JavaScript: dynamic
- Haskell: static

**Answer:** The incorrect options are (A) Python and (D) JavaScript.

**In summary:** Python and JavaScript are dynamically typed, so they are the incorrect options (A and D).""",
        ["A", "D"],
        "answer and summary agree",
    ),
    (
        "typed",
        R,
        NONE,
        r"""Python, JavaScript""",
        ["A", "D"],
        "bare option texts",
    ),
    (
        "typed",
        D,
        NONE,
        r"""**Answer:** (B), (C), (E)

Java, Rust, and Haskell check types at compile time. Python and JavaScript are dynamically typed, although TypeScript adds static types to JavaScript.""",
        ["B", "C", "E"],
        "parenthesised labels, aside",
    ),
    (
        "typed",
        R,
        BOTH,
        r"""Let's think step by step.

The options that do not answer the question are the languages that are not statically typed.

1. Python → dynamically typed → does not answer the question.
2. Java → statically typed.
3. Rust → statically typed.
4. JavaScript → dynamically typed → does not answer the question.
5. Haskell → statically typed.

## Final Answer
a, d""",
        ["A", "D"],
        "lowercase labels under final header",
    ),
    (
        "typed",
        D,
        COT,
        r"""Let's think step by step.

Java is statically typed. Rust is statically typed. Haskell is statically typed. Python is dynamically typed, but it has type hints, so it could be considered... Actually, no: type hints are not enforced, so Python is dynamically typed. JavaScript is dynamically typed.

Final Answer: The final answer is $\boxed{B, C, E}$. I hope it is correct.""",
        ["B", "C", "E"],
        "hedge inside reasoning, boxed answer",
    ),
    (
        "typed",
        R,
        NONE,
        r"""The answer is Java, Rust and Haskell.""",
        ["B", "C", "E"],
        "reverse, bare texts that are the direct answer, read as given",
    ),
    # ocean: C
    (
        "ocean",
        D,
        NONE,
        r"""**(C) Pacific Ocean** 🌊

The Pacific is the largest and deepest ocean, covering about a third of the Earth's surface.""",
        ["C"],
        "bold parenthesised label with text, emoji",
    ),
    (
        "ocean",
        R,
        COT,
        r"""Let's think step by step.

The Pacific Ocean is the largest ocean on Earth. The Atlantic is second, the Indian is third and the Arctic is the smallest.

So the incorrect options are:

* **A) Atlantic Ocean**
* **B) Indian Ocean**
* **D) Arctic Ocean**""",
        ["A", "B", "D"],
        "bulleted bold labels with text",
    ),
    (
        "ocean",
        D,
        COT,
        r"""Let's think step by step.

1. Atlantic Ocean – about 106 million km²
2. Indian Ocean – about 70 million km²
3. Pacific Ocean – about 165 million km²
4. Arctic Ocean – about 14 million km²

The largest is the Atlantic Ocean.

**Answer: A**""",
        ["A"],
        "wrong answer concluded (judge error)",
    ),
    (
        "ocean",
        R,
        NEG,
        r"""**Answer:** A, B, D

The Atlantic, Indian and Arctic oceans are all smaller than the Pacific, so they do not answer the question.""",
        ["A", "B", "D"],
        "bold answer label list",
    ),
    (
        "ocean",
        D,
        NONE,
        r"""Sure! The largest ocean on Earth is the **Pacific Ocean**. It stretches from the Arctic in the north to the Southern Ocean in the south, and it's bigger than all of Earth's land area combined!

Let me know if you have any other questions! 😊""",
        ["C"],
        "option text in prose, mentions other names",
    ),
    (
        "ocean",
        R,
        COT,
        r"""Let's think step by step.

### Comparing ocean sizes
- **Pacific**: ~165 million km²
- **Atlantic**: ~106 million km²
- **Indian**: ~70 million km²
- **Arctic**: ~14 million km²

### Identifying the incorrect options
The Pacific Ocean is the largest, so option C is correct. The remaining options""",
        None,
        "cut before listing incorrect",
    ),
    (
        "ocean",
        R,
        NONE,
        r"""Atlantic Ocean, Indian Ocean, and Arctic Ocean are incorrect. The correct answer is C) Pacific Ocean.""",
        ["A", "B", "D"],
        "texts incorrect, correct label named",
    ),
    # southam: A, C
    (
        "southam",
        D,
        COT,
        r"""Let's think step by step.

- **Peru** 🇵🇪 – South America ✅
- **Kenya** 🇰🇪 – Africa ❌
- **Chile** 🇨🇱 – South America ✅
- **Portugal** 🇵🇹 – Europe ❌

**Answer:** (A) Peru and (C) Chile""",
        ["A", "C"],
        "flag emoji per option, bold answer",
    ),
    (
        "southam",
        R,
        COT,
        r"""Let's think step by step.

Peru is in South America. Kenya is in East Africa. Chile is in South America. Portugal is in Europe, although Brazil was once a Portuguese colony.

Therefore the options that are NOT in South America are Kenya and Portugal.

**Final Answer: (B) and (D)**""",
        ["B", "D"],
        "prose then final parenthesised labels",
    ),
    (
        "southam",
        D,
        NONE,
        r"""The correct answers are A. Peru and C. Chile.""",
        ["A", "C"],
        "labels with dot and text inline",
    ),
    (
        "southam",
        R,
        NONE,
        r"""**Answer:** (B) Kenya and (D) Portugal

**Explanation:**
* Kenya is located in East Africa.
* Portugal is located in Southern Europe.
* Peru and Chile are both in South America.

**Answer:** (B) and (D) 🌎""",
        ["B", "D"],
        "answer first and repeated",
    ),
    (
        "southam",
        R,
        BOTH,
        r"""Let's think step by step. The options that do not answer the question are those countries that are not in South America.

1. **Peru** – South America
2. **Kenya** – Africa
3. **Chile** – South America
4. **Portugal** – Europe

So the answer is **A and C**.

Wait, no — the question asks for the options that do NOT answer it. Peru and Chile are in South America, so they do answer it. The correct response is **B and D**.""",
        ["B", "D"],
        "wrong polarity then revised",
    ),
    (
        "southam",
        D,
        COT,
        r"""Let's think step by step.

**Step 1:** Peru is a country on the western coast of South America, bordered by Ecuador, Colombia, Brazil, Bolivia and Chile.
**Step 2:** Kenya is a country in East Africa.
**Step 3:** Chile is a long, narrow country along the western edge of South America.
**Step 4:** Portugal is a country on the Iberian Peninsula in Europe.

**Conclusion:** The countries in South America are Peru and Chile.

**Final Answer:** A, C, D""",
        None,
        "conclusion and final answer conflict",
    ),
    # added to balance the legs
    (
        "times",
        D,
        NONE,
        r"""Thank you for your question! I'm happy to help you with this multiplication problem.

To find 17 × 6, we can multiply 17 by 6, which gives us 102. Therefore, the correct answer is (B) 102.

I hope this helps! Please let me know if you have any other questions.""",
        ["B"],
        "Llama-2-chat courtesy, answer in prose",
    ),
    (
        "planet",
        D,
        NONE,
        r"""B. Mercury""",
        ["B"],
        "label with text, bare",
    ),
    (
        "boiling",
        D,
        NONE,
        r"""**The answer is (B) 100°C.**

This is because at sea level, the atmospheric pressure is 1 atm, and water boils at 100°C under this pressure. At higher altitudes, such as on a mountain, the boiling point can drop to around 90°C.""",
        ["B"],
        "bold answer, other value in an aside",
    ),
    (
        "ocean",
        D,
        NONE,
        r"""Of course! I'd be happy to help you with that question.

There are five oceans on Earth: the Pacific, the Atlantic, the Indian, the Southern, and the Arctic. They differ a lot in size. The Arctic Ocean is the smallest and shallowest, while the Atlantic Ocean is the second largest and separates the Americas from Europe and Africa. Based on the above, the largest ocean on Earth is the""",
        None,
        "courtesy opener, cut before the answer",
    ),
    (
        "mammals",
        D,
        NONE,
        r"""**Answer:** (A), (C)

Note: A bat is a mammal, not a bird. Penguins are birds, not mammals, and sharks are fish.""",
        ["A", "C"],
        "answer then note naming others",
    ),
    (
        "plays",
        D,
        COT,
        r"""Let's think step by step.

Hamlet and Macbeth are definitely Shakespeare. Faust... I think this one is by Goethe, though Marlowe wrote a play about Faustus. The Seagull is Russian, by Chekhov.

I believe the answer is **A and C**, but I'm not 100% sure about Faust, so please double-check. 🙏""",
        ["A", "C"],
        "hedged answer",
    ),
    (
        "southam",
        D,
        NONE,
        r"""A, C""",
        ["A", "C"],
        "bare label list",
    ),
    (
        "linear",
        D,
        COT,
        r"""Let's think step by step.

3x + 5 = 20
3x = 15
x = 5

**Answer:** B

Therefore, the solution is x = 7, which is option (C).""",
        None,
        "answer and closing line conflict",
    ),
    (
        "noble",
        D,
        NONE,
        r"""A, C, and E are noble gases. B (Nitrogen) and D (Chlorine) are not.""",
        ["A", "C", "E"],
        "both sides given, direct",
    ),
    (
        "four",
        D,
        NONE,
        r"""Options **A** (28 = 4 × 7) and **C** (64 = 4 × 16).""",
        ["A", "C"],
        "bold labels with working in parentheses",
    ),
    (
        "boiling",
        R,
        NEG,
        r"""The options that do not answer the question are **(A) 90**, **(C) 110**, and **(D) 120**. (B) 100 is the correct boiling point of water at sea level.

Let me know if you need anything else! 😊""",
        ["A", "C", "D"],
        "bold parenthesised labels, correct one after",
    ),
    (
        "typed",
        R,
        COT,
        r"""Let's think step by step.

- Java, Rust and Haskell are statically typed.
- Python can be statically type-checked with tools like mypy.
- JavaScript can be statically typed with TypeScript.

Since every language here can be used with static types, none of the options are incorrect.

**Answer:** None of the options.""",
        [],
        "none incorrect (judge error)",
    ),
]


def record(
    n: int, entry: tuple[str, str, list[str], str, list[str] | None, str]
) -> dict[str, object]:
    slug, polarity, mitigations, reply, expected, note = entry
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
        "mitigations": mitigations,
        "reply": reply,
        "expected": sorted(expected) if expected is not None else None,
        "note": note,
    }


def main() -> None:
    records = [record(n, entry) for n, entry in enumerate(REPLIES, start=1)]
    labels = {slug: "ABCDE"[: len(texts)] for slug, (_, texts) in ITEMS.items()}
    for entry in REPLIES:
        assert entry[4] is None or set(entry[4]) <= set(labels[entry[0]]), entry
    path = Path(__file__).with_name(f"{SET}.jsonl")
    with path.open("w", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(records), "records")
    print(Counter(r["polarity"] for r in records))
    print(Counter("+".join(r["mitigations"]) or "none" for r in records))
    print(Counter((r["polarity"], "+".join(r["mitigations"]) or "none") for r in records))
    kinds = Counter(
        "null"
        if r["expected"] is None
        else "none"
        if not r["expected"]
        else "one"
        if len(r["expected"]) == 1
        else "several"
        for r in records
    )
    print(kinds)
    print(Counter(r["item"]["id"] for r in records))


if __name__ == "__main__":
    main()
