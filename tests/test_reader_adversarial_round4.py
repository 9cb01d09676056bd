"""Adversarial replies against the reader's round-4 rules (_values, _answered, _restated,
_exclusion, _listings, _concluded, _sided): replies that look like a rule's trigger but mean
something else or the opposite. Each case gives the careful reading (labels, or None when a
careful person cannot tell). The only assertion: no confident misread (a reading that is
"ok", not weak, not polarity-confused, with other labels than the careful reading).
Written before running; the confident misreads found are kept as strict xfails: 35 found at
commit 1b2d94b (22 of them older than round 4), 15 of them since fixed by the lead
(`_read._undone_after`: what follows a list on its line takes it back; `_structures`
elliptic status lists "A is right, B wrong, ..."), 5 more by ``_revisions.Revisions.final``
(revisions reverted, "X is also <side>" corrections) and 15 more in round 5 (`_own_sides`:
per-candidate questions and statements against the answer; negated boxes, rejecting
asides, LaTeX sets with words after them); none is left."""

from __future__ import annotations

import pytest

from prin_guard import read_reply

ITEMS = {
    "cap": {
        "task": "choice",
        "question": "Which of these cities are national capitals?",
        "candidates": ["Paris", "Sydney", "Rome", "Toronto"],
    },
    "prime": {
        "task": "choice",
        "question": "Which of these numbers are prime?",
        "candidates": ["9", "11", "13", "15"],
    },
    "prod": {
        "task": "choice",
        "question": "What is 13 x 4?",
        "candidates": ["42", "52", "56", "48"],
    },
    "ord": {
        "task": "choice",
        "question": "In which place did the runner finish?",
        "candidates": ["1st", "2nd", "3rd", "4th"],
    },
    "bird": {
        "task": "choice",
        "question": "Which of these animals are birds?",
        "candidates": ["Penguin", "Bat", "Ostrich", "Dolphin"],
    },
    "days": {
        "task": "choice",
        "question": "A alone takes 6 days and B alone takes 12 days. How many days together?",
        "candidates": ["6", "4", "12", "18"],
    },
}

D, R = "direct", "reverse"

CASES = [
    # --- exclusion verbs: negations, questions, hypotheticals (_exclusion) ---
    ("I would not rule out B.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    ("I would not rule out B or D; they might be capitals.", "cap", D, None),
    ("Should we eliminate B? Perhaps. Should we eliminate D? Maybe. I am unsure.", "cap", D, None),
    (
        "Eliminate B and D? No, that would be wrong: Sydney and Toronto are not capitals, but "
        "the question asks for capitals, which are A and C.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "If we eliminated A and C, we would be left with B and D, but that makes no sense. "
        "The capitals are A and C.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "If we kept A and C, we would have the capitals. We keep them.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("If we kept B and D we would be wrong.", "cap", D, None),
    ("Don't eliminate A.", "cap", D, None),
    ("We cannot eliminate C yet.", "cap", D, None),
    (
        "Nothing lets us rule out A or C, and B and D are ruled out.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Eliminated: B, D", "cap", R, ("B", "D")),
    ("Eliminated: B, D", "cap", D, ("A", "C")),
    ("Keep: A, C", "cap", R, ("B", "D")),
    ("I'd strike out A and C, since they are capitals.", "cap", R, ("A", "C")),
    ("Strike B and D? No. They are the incorrect ones? No wait, they are.", "cap", R, None),
    ("It would be a mistake to eliminate A and C.", "cap", D, ("A", "C")),
    ("It would be a mistake to keep B and D.", "cap", R, ("B", "D")),
    (
        "Some would eliminate C, but Rome is the capital of Italy.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Remove A? Paris is a capital, so no.", "cap", D, None),
    ("We should not remove A or C.", "cap", D, ("A", "C")),
    (
        "Cross off B and D, then cross off A too — no wait, Paris is a capital. Final: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Options to eliminate: none of them are wrong except B and D.", "cap", R, ("B", "D")),
    ("Leave out B and D.", "cap", D, ("A", "C")),
    (
        "Leave out B and D? That would leave A and C, which is what the question wants? I'm "
        "not sure.",
        "cap",
        D,
        None,
    ),
    ("Rule out: A, C (these are correct, not to be ruled out).", "cap", R, None),
    # --- only / alone in other senses (_restated) ---
    ("B alone would not be enough; the answer includes A and C.", "cap", D, ("A", "C")),
    ("Not only A but also C.", "cap", D, ("A", "C")),
    ("Only A? No, C as well.", "cap", D, ("A", "C")),
    (
        "A alone is not a capital list; Paris and Rome both are.\n\nAnswer: A and C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("The only one I doubt is C.", "cap", D, None),
    ("If only C were a capital! But it is, along with A.", "cap", D, ("A", "C")),
    ("C is the only one that fits — no, A fits too.", "cap", D, ("A", "C")),
    ("Only B is not a capital? No, D isn't either.", "cap", R, ("B", "D")),
    ("Only if we count Sydney would B be right; we don't. A and C.", "cap", D, ("A", "C")),
    ("B is the only one that doesn't fit, along with D.", "cap", R, ("B", "D")),
    ("D is the only one that is not a capital.", "cap", R, None),
    (
        "A alone: 6 days. B alone: 12 days. Together: 1/6 + 1/12 = 1/4, so 4 days.\n\nAnswer: B",
        "days",
        D,
        ("B",),
    ),
    (
        "A alone takes 6 days, which is option A, but together it is 4.\n\nThe answer is 4.",
        "days",
        D,
        ("B",),
    ),
    (
        "B alone: 12 days, which would be C. Working together they need 4 days (B).",
        "days",
        D,
        ("B",),
    ),
    # --- odd ones out ---
    ("The odd ones out are A and C: they are capitals, the rest are not.", "cap", D, ("A", "C")),
    ("The odd ones out are B and D.", "cap", R, ("B", "D")),
    ("The odd ones out are B and D, so these are not capitals.", "cap", D, ("A", "C")),
    ("Odd one out: Sydney? No, Toronto is odd too. Both are not capitals.", "cap", R, ("B", "D")),
    ("The odd ones out, A and C, are the correct ones.", "cap", R, None),
    (
        "Penguin and Ostrich are the odd ones out: they cannot fly, yet they are birds.",
        "bird",
        D,
        ("A", "C"),
    ),
    ("The odd ones out are the mammals: B and D.", "bird", R, ("B", "D")),
    # --- ordinals with numeric option texts (_names, _listings) ---
    ("The first option is wrong; the runner finished 2nd.\n\nAnswer: B", "ord", D, ("B",)),
    ("The runner finished third. Answer: the third option.", "ord", D, ("C",)),
    ("The runner did not finish first; he finished second, option B.", "ord", D, ("B",)),
    (
        "The first and second options can be ruled out; it was the 4th place.\n\nAnswer: D",
        "ord",
        D,
        ("D",),
    ),
    ("1st? No. 2nd? No. 3rd? Yes.", "ord", D, ("C",)),
    ("The first one I considered was 2nd, but the answer is 3rd.", "ord", D, ("C",)),
    ("In the 1st lap he was 4th, but he finished 2nd.", "ord", D, ("B",)),
    ("The options are 1st, 2nd, 3rd and 4th. He finished 3rd.", "ord", D, ("C",)),
    ("The options are 1st, 2nd, 3rd and 4th.", "ord", D, None),
    ("Answer: first. (He finished 2nd? No — 1st.)", "ord", D, ("A",)),
    ("The second option, 2nd, is incorrect; he came 1st.", "ord", R, None),
    ("The runner finished second to last, i.e. 3rd.", "ord", D, ("C",)),
    (
        "He finished in 2nd place at first, then was promoted to 1st after a disqualification.",
        "ord",
        D,
        ("A",),
    ),
    # --- values matching an option by coincidence (_values, _answered) ---
    ("13 x 4: 13 x 2 = 26, which is not 42. 26 x 2 = 52.\n\nThe answer is 52.", "prod", D, ("B",)),
    ("42 is a famous number, but 13 x 4 = 52.", "prod", D, ("B",)),
    ("13 x 4 = 52. Note that 56 = 14 x 4 and 48 = 12 x 4.", "prod", D, ("B",)),
    ("13 x 4 = 52. Some might say 48.", "prod", D, ("B",)),
    (
        "13 x 4 = 52? Let me check: 10 x 4 = 40, 3 x 4 = 12, total 52. But 4 x 12 = 48.",
        "prod",
        D,
        ("B",),
    ),
    ("The answer is not 42.", "prod", D, None),
    ("The answer is 42 if you misread the question; actually it is 52.", "prod", D, ("B",)),
    ("The answer is 52, not 56.", "prod", R, None),
    ("13 x 4 = 52, so A, C and D are incorrect.", "prod", R, ("A", "C", "D")),
    ("13 x 4 = 52, so A, C and D are incorrect.", "prod", D, ("B",)),
    ("I first computed 56, but that is 14 x 4. The right value is 52.", "prod", D, ("B",)),
    ("Option C is 56. Option B is 52. 13 x 4 = 52.", "prod", D, ("B",)),
    ("$$13 \\times 4 = 52$$\n\nSo the answer is $\\boxed{B}$.", "prod", D, ("B",)),
    ("$$13 \\times 4 = 52$$ so $\\boxed{52}$ but wait, 4 x 13 = 52, option B.", "prod", D, ("B",)),
    ("\\boxed{48}? No: 12 x 4 = 48. 13 x 4 = 52.", "prod", D, ("B",)),
    ("13 x 4 is 52, so the incorrect options are 42, 56 and 48.", "prod", R, ("A", "C", "D")),
    ("13 x 4 = 52; A (42) is the answer to 6 x 7.", "prod", D, ("B",)),
    ("The answer is 52 minus 4, which is 48? No. The product is 52.", "prod", D, ("B",)),
    ("If it were 12 x 4 the answer would be 48. It is 13 x 4 = 52.", "prod", D, ("B",)),
    (
        "Together they take 4 days? Check: 1/6 + 1/12 = 3/12 = 1/4. Yes, 4 days. Not 6 or 12.",
        "days",
        D,
        ("B",),
    ),
    ("1/6 + 1/12 = 1/4, so 4 days. The wrong ones are 6, 12 and 18.", "days", R, ("A", "C", "D")),
    ("Together: 4 days.", "days", R, None),
    ("x = 12 would be B's time alone. Together: 4.", "days", D, ("B",)),
    ("The answer is 18? That's 6 + 12, adding times is wrong. The answer is 4.", "days", D, ("B",)),
    ("The answer is 4 days. 13 and 9 are also numbers.", "days", D, ("B",)),
    (
        "9 is 3 x 3, 15 is 3 x 5. 11 and 13 have no divisors.\n\nAnswer: 11, 13",
        "prime",
        D,
        ("B", "C"),
    ),
    ("The answer is 13. Also 11.", "prime", D, ("B", "C")),
    ("The answer is 13? No, both 11 and 13.", "prime", D, ("B", "C")),
    ("9 = 3 x 3 and 15 = 3 x 5.", "prime", R, ("A", "D")),
    ("9 = 3 x 3 and 15 = 3 x 5, so the answer is 11 and 13.", "prime", R, None),
    ("Composite: 9, 15.", "prime", R, ("A", "D")),
    ("Composite: 9, 15.", "prime", D, ("B", "C")),
    (
        "Is 9 prime? No. Is 15 prime? No. Is 11 prime? Yes. Is 13 prime? Yes.",
        "prime",
        D,
        ("B", "C"),
    ),
    (
        "Is 9 prime? No. Is 15 prime? No. Is 11 prime? Yes. Is 13 prime? Yes.",
        "prime",
        R,
        ("A", "D"),
    ),
    # --- listings that are not all options (_listings) ---
    ("The options are A) Paris and C) Rome.", "cap", D, ("A", "C")),
    (
        "The options are A) Paris, B) Sydney, C) Rome and D) Toronto. The capitals are A) Paris "
        "and C) Rome.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "The options are A) Paris, B) Sydney, C) Rome, D) Toronto. Of these, B) Sydney and "
        "D) Toronto are not capitals.",
        "cap",
        R,
        ("B", "D"),
    ),
    ("The options are A) Paris, C) Rome. These are right.", "cap", D, ("A", "C")),
    ("The options are A) Paris, B) Sydney, C) Rome and D) Toronto.", "cap", D, None),
    ("The options are A) Paris, B) Sydney, C) Rome and D) Toronto.", "cap", R, None),
    ("The good options are A) Paris and C) Rome.", "cap", D, ("A", "C")),
    (
        "The options are A) Paris, B) Sydney, C) Rome and D) Toronto; A) Paris is a capital.",
        "cap",
        D,
        None,
    ),
    (
        "Options given: A) Paris, B) Sydney, C) Rome, D) Toronto. Sydney is the capital? No, "
        "Canberra. Toronto? No, Ottawa.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("The options B) Sydney and D) Toronto are the wrong ones.", "cap", R, ("B", "D")),
    (
        "The options are A) Paris, B) Sydney, C) Rome and D) Toronto, and all are correct except "
        "B and D.",
        "cap",
        D,
        ("A", "C"),
    ),
    # --- whole-set conclusions in the question's words (_concluded) ---
    ("So the capital cities are Paris and Rome.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    ("So the capital cities are Paris and Rome.\n\nAnswer: B, D", "cap", R, ("B", "D")),
    ("So the capital cities are Paris and Rome.\n\nAnswer: A, C", "cap", R, None),
    ("So the capital cities are not Sydney and Toronto.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    ("Would the capital cities be Sydney and Toronto? No.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    (
        "Many think the capitals are Sydney and Toronto. They are wrong.\n\nAnswer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "If the capitals were Sydney and Toronto, the answer would be B, D. They are not.\n\n"
        "Answer: A, C",
        "cap",
        D,
        ("A", "C"),
    ),
    ("So the birds are the penguin and the ostrich.", "bird", D, ("A", "C")),
    ("So the birds are the penguin and the ostrich.", "bird", R, None),
    ("So the primes are 11 and 13, and the non-primes 9 and 15.", "prime", R, ("A", "D")),
    (
        "The primes are 11 and 13? I think 9 too... no, 9 = 3 x 3. So 11 and 13.",
        "prime",
        D,
        ("B", "C"),
    ),
    # --- sided last sentences (_sided) ---
    ("A and C, so those are the correct ones.", "cap", R, None),
    ("B and D, so those are the incorrect options.", "cap", R, ("B", "D")),
    ("B and D, so those are the incorrect options.", "cap", D, ("A", "C")),
    ("Paris is a capital and Rome is a capital, so those are the correct ones.", "cap", R, None),
    (
        "Sydney and Toronto are big cities, so those are the correct ones? No, they are not "
        "capitals.",
        "cap",
        D,
        None,
    ),
    ("A, B, C, D — not all of those are the incorrect options.", "cap", R, None),
    (
        "All of the above (A, B, C, D) are cities, but only A and C are capitals.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("All of the above (A, B, C, D)? No.", "cap", D, None),
    ("B and D, so those are not the incorrect options.", "cap", R, None),
    ("B and D, so are those the incorrect options? Yes.", "cap", R, ("B", "D")),
    (
        "I listed A and C above, so those are the ones to reject on this leg? No, those are "
        "capitals.",
        "cap",
        R,
        None,
    ),
    ("A and C are capitals. B and D are not. So those are the incorrect options.", "cap", R, None),
    # --- corrections that revert / notes that add or remove (_read revisions) ---
    ("Answer: C\n\nActually, no — A was right after all.", "cap", D, ("A",)),
    (
        "Answer: A, C\n\nActually, C is wrong. No wait, C is right. Rome is the capital.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("Answer: A\n\nActually C is correct too.", "cap", D, ("A", "C")),
    ("Answer: A\n\nActually C is not correct too.", "cap", D, ("A",)),
    ("Answer: A, C\n\nNote: C is not correct.", "cap", D, ("A",)),
    ("Answer: A, C\n\nNote: B is also correct? No.", "cap", D, ("A", "C")),
    ("Answer: A, C, D\n\nCorrection: D is not a capital; Ottawa is.", "cap", D, ("A", "C")),
    ("Answer: B\n\nCorrection: D is also incorrect.", "cap", R, ("B", "D")),
    ("Answer: B\n\nCorrection: D is also incorrect.", "cap", D, None),
    ("Answer: B, D\n\nActually I meant the capitals: A, C.", "cap", R, None),
    ("Answer: A, C\n\nOn second thought, same answer: A, C.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nWait — is Rome a capital? Yes.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nWait — is Sydney a capital? I'm now not sure.", "cap", D, None),
    (
        "Initially I said B, but that was a mistake. Reverting to my original answer: A, C.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "A and C.\n\nActually, ignore that: B and D are capitals. No — I was right the first time.",
        "cap",
        D,
        ("A", "C"),
    ),
    # --- mixed template words ---
    ("A is right, B is wrong, C is right, D is wrong.", "cap", R, ("B", "D")),
    ("A is appropriate, B inappropriate, C appropriate, D inappropriate.", "cap", D, ("A", "C")),
    ("A: valid. B: invalid. C: valid. D: invalid.", "cap", R, ("B", "D")),
    ("A: valid. B: invalid. C: valid. D: invalid.", "cap", D, ("A", "C")),
    ("B and D are not invalid choices to exclude.", "cap", R, None),
    ("The inappropriate options are not B and D; they are A and C.", "cap", R, None),
    ("It's not right to say B is wrong.", "cap", D, None),
    ("B is wrong to be listed as right; D too.", "cap", R, ("B", "D")),
    ("Correct: A, C. Incorrect: B, D.", "cap", R, ("B", "D")),
    ("Correct: A, C. Incorrect: B, D.", "cap", D, ("A", "C")),
    ("Right answers — no; wrong answers: B, D.", "cap", R, ("B", "D")),
    ("The valid ones, i.e. the ones that are not invalid: A and C.", "cap", D, ("A", "C")),
    ("The valid ones, i.e. the ones that are not invalid: A and C.", "cap", R, None),
    # --- quotes of the prompt ---
    (
        'The question asks "Which of these cities are national capitals?" with options A) Paris, '
        "B) Sydney, C) Rome, D) Toronto.",
        "cap",
        D,
        None,
    ),
    (
        'You asked me to list the incorrect options, e.g. "B, D". I think the answer is A, C.',
        "cap",
        R,
        None,
    ),
    ('The prompt says: "Answer: A". I disagree; the answer is A and C.', "cap", D, ("A", "C")),
    ('The prompt\'s example "Answer: B" is not my answer. Mine: A, C.', "cap", D, ("A", "C")),
    # --- LaTeX ---
    ("$\\text{Correct} = \\{A, C\\}$", "cap", D, ("A", "C")),
    ("$\\text{Correct} = \\{A, C\\}$", "cap", R, ("B", "D")),
    ("$\\text{Incorrect} = \\{B, D\\}$", "cap", D, ("A", "C")),
    ("$\\text{Incorrect} \\neq \\{B, D\\}$", "cap", R, None),
    ("$\\text{Correct} = \\{A, C\\} \\setminus \\{C\\}$? No: $\\{A, C\\}$.", "cap", D, ("A", "C")),
    (
        "$\\textbf{A}$ and $\\textbf{C}$ are capitals; $\\textbf{B}$ and $\\textbf{D}$ are not.",
        "cap",
        R,
        ("B", "D"),
    ),
    ("\\boxed{A, C}", "cap", R, None),
    ("\\boxed{B, D}", "cap", R, ("B", "D")),
    # --- reasoning about options before a different conclusion ---
    (
        "A looks right. C looks right. But on reflection, the question wants the non-capitals: "
        "B and D.",
        "cap",
        D,
        None,
    ),
    ("Paris: capital. Sydney: not. Rome: capital. Toronto: not.\n\nAnswer: B, D", "cap", D, None),
    (
        "Paris: capital. Sydney: not. Rome: capital. Toronto: not.\n\nAnswer: B, D",
        "cap",
        R,
        ("B", "D"),
    ),
    ("B could be argued. D could be argued. Neither holds.\n\nAnswer: A, C", "cap", D, ("A", "C")),
    ("Neither B nor D is a capital.", "cap", D, None),
    ("Neither B nor D is a capital.", "cap", R, ("B", "D")),
    ("Neither A nor C is incorrect.", "cap", R, None),
    ("It's B? No, it's A and C.", "cap", D, ("A", "C")),
    ("It's not B, and it's not D.", "cap", D, None),
]

# Second batch, written after the first run and before running it: variants of the first
# batch's misreads and forms the first batch left out.
CASES += [
    ("Reject: B, D? No — keep them all.", "cap", R, None),
    ("Eliminate: A, C (just kidding, these are the capitals).", "cap", R, None),
    ("Keep: A, C — or rather, keep none of them.", "cap", D, None),
    ("Keep: B, D (these are the wrong ones).", "cap", D, None),
    ("\\boxed{56} is what I'd get for 14 x 4; here the product is 52.", "prod", D, ("B",)),
    ("Is it \\boxed{42}? No.", "prod", D, None),
    ("The answer is \\boxed{52}.\n\nNot \\boxed{48}.", "prod", D, ("B",)),
    ("Is 13 x 4 = 48? No. Is it 52? Yes.", "prod", D, ("B",)),
    ("Is Paris a capital? Yes. Is Sydney? No. Is Rome? Yes. Is Toronto? No.", "cap", D, ("A", "C")),
    (
        "Is A correct? Yes. Is B correct? No. Is C correct? Yes. Is D correct? No.",
        "cap",
        D,
        ("A", "C"),
    ),
    (
        "Is A correct? Yes. Is B correct? No. Is C correct? Yes. Is D correct? No.",
        "cap",
        R,
        ("B", "D"),
    ),
    ("Is 9 prime? No. Is 11 prime? Yes.", "prime", D, None),
    ("Answer: second. (First? No.)", "ord", D, ("B",)),
    ("Answer: third (not 2nd, not 4th).", "ord", D, ("C",)),
    ("Answer: 3rd — the 1st option was a trap.", "ord", D, ("C",)),
    ("Answer: B (2nd)? Hmm, no, he was 3rd: C.", "ord", D, ("C",)),
    ("So the capital cities are Paris and Rome.\n\nAnswer: B, D", "cap", D, None),
    (
        "So the capitals are Paris and Rome, and the answer (the non-capitals) is B, D.",
        "cap",
        R,
        ("B", "D"),
    ),
    ("So the birds are Penguin and Ostrich.\n\nAnswer: A, C", "bird", R, None),
    ("So the primes are 11 and 13.\n\nAnswer: B, C", "prime", R, None),
    ("A, C — not the incorrect options.", "cap", R, None),
    ("B, D — none of those are the correct options.", "cap", D, ("A", "C")),
    ("A, B, C, D: some of those are the correct options.", "cap", D, None),
    ("A and C — are those the correct options? I cannot tell.", "cap", D, None),
    ("Answer: A, C\n\nActually, A is wrong. No, wait: A is right.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nHmm, C is wrong? No, C is fine.", "cap", D, ("A", "C")),
    ("Answer: A, C\n\nActually, C is wrong.", "cap", D, ("A",)),
    ("Answer: B, D\n\nCorrection: A is also correct.", "cap", R, None),
    ("Answer: A\n\nCorrection: C is also incorrect.", "cap", D, None),
    ("Answer: A, C\n\nNote: B and D are also correct? No, they are not.", "cap", D, ("A", "C")),
    (
        "A is appropriate; B is inappropriate; C is appropriate; D is inappropriate.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("A is valid, B invalid, C valid, D invalid.", "cap", D, ("A", "C")),
    ("A is right, B wrong, C right, D wrong.", "cap", D, ("A", "C")),
    ("A is correct, B incorrect, C correct, D incorrect.", "cap", R, ("B", "D")),
    ("A: capital. B: not a capital. C: capital. D: not a capital.\n\nAnswer: B, D", "cap", D, None),
    ("Paris - capital; Sydney - no; Rome - capital; Toronto - no.\n\nAnswer: A", "cap", D, None),
    ("Paris: yes. Sydney: no. Rome: yes. Toronto: no.\n\nAnswer: A, C", "cap", R, None),
    ("Sydney is not a capital, nor is Toronto.\n\nAnswer: B, D", "cap", D, None),
    ("I would not eliminate A, and I would not eliminate C.", "cap", D, ("A", "C")),
    ("I would not keep B, and I would not keep D.", "cap", R, ("B", "D")),
    ("There is no reason to strike A or C.", "cap", R, None),
    ("B alone is wrong? No, D is wrong too.", "cap", R, ("B", "D")),
    ("Only C? Not only C — A as well.", "cap", D, ("A", "C")),
    (
        "A only if Paris is a capital, which it is; C only if Rome is, which it is.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("The odd ones out are A and C.", "cap", D, None),
    ("The odd ones out are not B and D.", "cap", R, None),
    ("13 x 4 = 52. The options are A) 42, B) 52, C) 56, D) 48.", "prod", D, ("B",)),
    ("The options are A) 42, B) 52, C) 56 and D) 48. 13 x 4 = 52 is B.", "prod", R, None),
    (
        "$\\text{Correct} = \\{A, C\\}$? No: $\\text{Correct} = \\{A\\}$... no, both.",
        "cap",
        D,
        ("A", "C"),
    ),
    ("$\\text{Wrong} = \\{A, C\\}$ would be a mistake.", "cap", R, None),
]


def _ids() -> list[str]:
    return [f"{i:03d}-{c[1]}-{c[2]}" for i, c in enumerate(CASES)]


XFAIL: dict[int, str] = {}


def _params() -> list:
    out = []
    for i, (reply, item, polarity, expected) in enumerate(CASES):
        marks = ()
        if i in XFAIL:
            marks = pytest.mark.xfail(strict=True, reason=f"confident misread: {XFAIL[i]}")
        out.append(pytest.param(reply, item, polarity, expected, marks=marks, id=_ids()[i]))
    return out


@pytest.mark.parametrize(("reply", "item", "polarity", "expected"), _params())
def test_no_confident_misread(reply: str, item: str, polarity: str, expected) -> None:
    reading = read_reply(reply, ITEMS[item], polarity=polarity)
    if reading.status.value != "ok" or reading.weak or reading.polarity_confusion:
        return
    got = tuple(sorted(reading.labels))
    assert expected is not None and got == tuple(sorted(expected)), (got, expected)
