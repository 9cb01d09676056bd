# ruff: noqa: E501 (the readings are data, one a line)
"""Write mmlu-pro-<model>.jsonl: real chain-of-thought replies of eight open and API models
to MMLU-Pro questions, as TIGER-AI-Lab/MMLU-Pro committed them (Apache-2.0), each with the
reading a careful person gives it (``READINGS``, written by hand from the whole reply before
the reader was run on any of them).

Not a test dependency. Run against a fetched snapshot's git directory (or a clone) of
https://github.com/TIGER-AI-Lab/MMLU-Pro:

    python tests/data/replies/choice-real-b/extract_mmlu_pro_models.py /path/to/MMLU-Pro/.git
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

REPO = "TIGER-AI-Lab/MMLU-Pro"
COMMIT = "f418b116db00b065c2aea046518d8fcf74d39872"
"""The snapshot read; the zips were committed at 964a136 ('transfer to zip format', 2024-10-17)."""
PROMPT_NOTE = (
    "evaluate_from_local.py / evaluate_from_api.py: cot_prompt_lib/initial_prompt.txt ('The following "
    "are multiple choice questions (with answers) about <subject>. Think step by step and then finish "
    'your answer with "the answer is (X)" where X is the correct letter choice.\'), five worked '
    "examples of the category, then 'Question: ... Options: A. ... Answer: Let's think step by "
    "step.'; their parser: 'answer is \\(?([A-J])\\)?', then fallbacks -> pred (None when nothing "
    "matches)."
)

# Per model: question_id|expected|note. expected: comma-separated labels, [] (the reply says no
# option is correct) or null (a careful reader cannot say what it concludes). Chosen by
# select(): 8 replies whose text does not end in 'answer is (X)' and that the repository's
# parser could not read, 6 such replies it could read, 3 on NOT/EXCEPT/LEAST questions, 3
# ending in the fixed form; 60 to 2,200 characters.
READINGS = r"""
Llama-2-7b-hf
8910|null|loops on congruences mod 4/8/16/...; cut, no conclusion
9019|null|repeats the question's sentences until cut; no conclusion
4170|null|repeats one sentence until cut; no conclusion
3654|null|circular definitions repeated until cut; no conclusion
2937|null|repeats a description of the root cap until cut; never says which option (no conclusion)
4774|null|drifts into a description of Daoism, cut; no conclusion
11221|null|rewrites the key sentences, cut before any conclusion
8612|null|algebra loop, cut; no conclusion
8366|A,B,C,D,E,F,G|'The answer is (A, B, C, D, E, F, G, H).' on a single-answer item with options A-G only: every existing option (H does not exist)
11015|A,B|'The answer is (A) and (B).'
10629|A,B,C,D,E,F,G,H,I,J|restates each option (several negated), then 'The answer is (A, B, C, D, E, F, G, H, I, J).'
5759|C,D|'The vertical structures are the rafters and the beams. The answer is (C) and (D).'
3321|C|opens 'The answer is (C).' then an explanation
2889|A|'The dominant gene controls the gait, so the answer is (A).' then genotypes
1522|A|'The answer is (A).' after restating A
4699|B|'The answer is (B).' with no reasoning
7121|D|NOT question; 'The answer is (D).'
7478|B|'The answer is (B).' after restating B's content
9583|F|wrong derivation, 'The answer is (F).'
9339|A|'The answer is (A).' after a wrong computation

Mistral-7B-Instruct-v0.1
10640|null|numbered plan steps, cut mid-sentence before any result
11919|null|formula degenerates into a repeated factor, cut
7144|null|two sentences repeated until cut; no conclusion
3854|null|repeats two weights until cut; no conclusion
11127|null|per-option meanings (A)..(H), cut inside (H) before any choice
8661|null|definitions of relation properties, cut; no option judged
10506|null|traces the program ('writes the output \"2 2\"' for the first line), cut at 'The final output of'; no conclusion
4355|null|Bohr formulas, cut mid-formula
7625|B|'The answer is (B) NI will be greater than GDP.'
7256|J|'Therefore, the answer is (J) $850.'
7593|F|'The answer is (F) Plant all his land in corn.'
7549|B,C,I|multi-select answer line on a single-answer item: 'The answer is (B) demand and supply, (C) technological innovation ..., and (I) government regulations.' (its sentence before also names D's content; the answer line is the conclusion)
6859|B|'The answer is (B) 7% per year.'
6555|G|'Therefore, the answer is (G). Individuals who take Drug X have an equal risk ...'
9991|E|'is/are NOT' question; reasoning calls C, D and E not caused by resonance, then 'The answer is (E).': the answer line is the conclusion
3061|C|EXCEPT question; 'The answer is (C).'
5358|I|NOT question; lists four kinds (A, E, I, H by content), then 'The answer is (I).'
5884|C|'was approximately 3.0% per year. The answer is (C).'
9701|A|'or 0.0032 ft. The answer is (A).'
11622|C|'L = 18 in. The answer is (C).'

Phi-3-mini-4k-instruct
12026|B|derives '12.33 hp for (a) and ... 10.966 hp for (b)' (option B's two values, word for word), then cut at 'The answer': the values name one option
10985|null|tests option C's valuation line by line, cut at the fourth proposition; no conclusion
9960|[]|'The answer is not listed in the options.'; then the model runs on ('== response ==', a different question), cut
3670|null|computes chlorinity 0.184 g/cc (no option's value), cut before salinity; no conclusion
11986|null|formula set-up, cut at h1 = 0 Btu; no conclusion
3512|null|essay on translocation theories, cut; names no option
8720|null|repeats one line of algebra until cut; no conclusion
8300|null|stars and bars, cut at '$286'; no conclusion
7311|A,F|'The answer is (A) and (F).' (single-answer item)
4894|B|'The answer is (B).' then '===' and a second paragraph arguing for 'technological developments spread across trade routes (Option B)', cut
4696|J|'The answer is (J).' then '===' 'The answer is J. An attempt to establish a state religion ...' and why not A, B, C, D, E, I, F, cut
4917|J|'The answer is (J).' then '===' 'The answer is: The answer is J. ...', cut
365|null|NOT question; 'Therefore, the correct answer is (A).', then 'Answer: The answer is (A).', '(D).', '(G).', '(H).', then '== response == The answer is (H). ...': conflicting conclusions, none revised
5506|I|'The answer is (I).', then a recap list 'The answer is (E). (B). (J). (I).' that it says answers 'each question' (the few-shot examples: '1. ... vaccinated ... (E)'); its answer to this question stays I
9942|H|NOT question; 'does not depend on the color of the water, so the answer is (H).'
5275|D|NOT question; 'The answer is (D).'
5574|D|EXCEPT question; 'Overcrowding is a push factor ... The answer is (D).'
8888|G|wrong arithmetic to 3.6; 'The answer is (G).'
1592|D|'The answer is (D).'
2063|G|'The answer is (G).' after restating G

Qwen1.5-7B-Chat
456|null|postage arithmetic, cut at 'Total cost = $85.60 / '; no conclusion
370|E|computes PEG 1.2 (no option's value), 'The closest option is (E).'
4420|null|sets up vapour-pressure equations, cut mid-formula
8765|null|equations of motion, cut mid-derivation
914|G|'The option that best fits the situation is (G).' (after '$75,000' in the sentence before, which four options name)
11513|null|converts units wrongly, cut at 'Now, since the mass of 100 g of liquid is'
9379|A|'The answer is approximately $6.28 \\times 10^{34}$, which corresponds to option (A).'
5861|B|bullets tie B, C and D to contestations, says A is no contestation, then 'the answer that best reflects ... is:' and B's full text
6601|B,C|'the most accurate answer is (B) complete loss of taste sensation and (C) paralysis ...'; 'Final Answer: The answer is (B) ... and (C) ...' (two options on a single-answer item)
12204|G|computes 4000 m^3/s, 'The closest option is G. 1000 m^3/s.'; 'Final Answer: The answer is G. 1000 m^3/s.'
6290|D|hedged: 'it's not possible to determine ... However ... would be an Asian man (option D) ... The answer is (D) with the understanding that it's a simplification.'
1811|F|'The answer is likely to be (C) or (F), but ... the most likely answer is (F)'
10567|E|'Therefore, the correct answer is (E). No, unless F is a strong PRF'
3875|C|'The answer is (C).' then an empty 'Please provide your final answer.\nAnswer:'
7423|B|NOT question; 'it does not redistribute wealth ... The answer is (B).'
3217|B|EXCEPT question; 'The exception is (B) genetic drift ... Therefore, the answer is (B).'
5536|E|LEAST question; first 'The answer is (A) and (H).', then 'Final Answer: The answer is **E. Silicon** ... The answer is not **A. Gold** ...': the final answer revises the first
5721|C|'The answer is (C).'
1623|I|'it should be excluded as not probative. However, if the court instructs ... it could be admitted. The answer is (I).'
10447|D|per-option lines call D, E and H exact, 'So, the exact binary representations are 0.1 and 0.2. The answer is (D)': the answer line is the conclusion

Yi-6b-Chat
4525|null|entropy formula algebra, degenerates into a long run of zeros... cut; no conclusion
4091|null|integral of a made-up heat capacity, cut; no conclusion
3991|null|substitution that runs into a string of zeros, cut; no conclusion
1323|null|the same sentence repeated (content of several options, no label) until cut; no conclusion
8718|null|arc-length set-up, cut mid-integral
12069|null|regulation formula set-up, cut
839|null|sums coverage limits to '$1375', no option's value, cut mid-sentence
2295|null|numbered list of differences (the first is J's content), cut at item 5; no conclusion
1059|B|'... the trial, and the direct appeal. The answer is (B).' then 'The answer is ...' and an unlabelled dump of option texts from other questions (ICJ, commerce clause) and from this one (E., B., F.): the one answer given is B
11739|G|'a snubber circuit is used ... The answer is (G).' then 'The answer is ...'
11305|F|'The answer is (F).' then 'The answer is ... F'
3707|D|'= 5.6. The answer is (D).' then 'The answer is 5.6.' repeated until cut (D is 5.6)
5566|I|computes $9,000 (no option), 'The answer is (I).' (I is $4,000): the answer line is its conclusion
5778|A,C,E,F,G,H,I|bulleted kinds of records, then 'The answer is (A), (C), (E), (F), (G), (H), (I).'
7947|null|NOT question; checks each point, finds '(– 2, 15) is not a solution', cut inside B's check before any conclusion
1335|J|'The answer is (J).'
3202|E|NOT question; lists four parts of the theory, 'The answer is (E).'
10334|I|one line: 'The principal source of Earth's internal energy is radioactivity. The answer is (I).'
9546|H|'The answer is (H).'
4782|null|'The answer is (I).' then a loop 'The answer is (A). (C). (E). (I). (A). ...' until cut: conflicting answer lines with no revision

gemma-7b
6831|null|numbered list of 22 'factors' that names most options' texts, some twice, cut; no conclusion
9282|null|'= h/(R/delta x)' repeated until cut; no conclusion
3827|null|van't Hoff set-up, cut mid-formula
3849|null|derives a pressure of '45 + 2250 = 22' psi, cut; no option named
3641|null|Stokes-Einstein set-up, cut mid-formula
12085|null|capacitor energy algebra, cut; no conclusion
4033|null|circular sentences repeated until cut; no conclusion
4587|null|one sentence repeated until cut; no conclusion
9420|A,B,D,E,H|restates five options as true, 'The answer is (A), (B), (D), (E), and (H).' (single-answer item)
10709|A|'The answer is A.' then repeats its complements, cut
10705|A|each sub-part ends 'The answer is (A).' (a-d), cut inside e): every answer line says A
9084|A|'(a) ... The answer is (A). (b) ...' cut inside part (b): the one answer line says A
12205|A|'(a) ... = 0.85. The answer is (A). (b) ...' cut inside part (b) (A is '0.85, 1937lbf')
6660|E,G|'of no value ... are blood pressure measurement and maternal serum screening. The answer is (E) and (G).'
4823|A|NOT question; 'The answer is (A).' with no reasoning
4935|E|NOT question; 'The answer is (E).'
7060|A|NOT question; 'The answer is (A).'
8967|H|rewrites the probability, 'The answer is (H).'
3981|A|'The answer is (A).' after restating A
11543|D|computes l = 1.1 in., 'The answer is (D).'

c4ai-command-r-v01
12141|null|grey-body set-up, cut mid-formula; no conclusion
7864|null|card-by-card entropies, cut; no conclusion
8634|null|ends with a boxed '18.09 AU', which is no option's value, and names no option (nor says none fits)
6929|B|computes x = $118,182, then 'Thus, the answer is $138,889, which is (B).'
10005|null|adiabatic derivation, cut mid-formula
9124|I|'So charges flow steadily in one direction, making (I) the correct answer.' (no 'answer is')
4098|null|unit conversion and Hess set-up, cut mid-formula
4319|null|diffusion set-up, cut at 'P_\\infty = 5 \\cdot 1'
4673|A|'The answer is (A).<EOS_TOKEN>'
4675|A|'The answer is (A).<EOS_TOKEN>' after a paragraph on the foramen magnum
4042|D|boxed '18 cc atm' then 'The answer is (D)<EOS_TOKEN>' (no full stop)
6514|A,C,G|'Therefore, the correct options are (A), (C) and (G). The answer is (ACG).' (single-answer item; letters run together)
138|E|'So, the final answer is E.<EOS_TOKEN>' twice
5041|A|'The answer is (A).<EOS_TOKEN>'
6214|C|NOT question; 'Therefore, we conclude that (C) is the correct answer. The answer is (C).'
2917|G|EXCEPT question; says four listed things are 'not specifically in morphogenesis', then 'The answer is (G).'
9931|C,I|NOT question; '(C) and (I) are not necessarily true. The other statements, however, ... are all true', then true-by-true for A, B, cut: every option given a side, C and I the ones not true
6897|A|'The answer is (A).'
6433|G|'by the anterior rami of T6-T10. The answer is (G).'
3267|A|computes 19.8%, then 'The answer is (A).' (A is 27%)

gemini-1.5-flash-002
6150|[]|'Therefore, none of the provided options are correct.' then, on a supposed typo, 'we cannot definitively answer ... We cannot provide an answer.': its statement that no option is correct is not taken back
11483|null|missing load impedance: 'none of the provided options can be definitively chosen' (cannot tell, not 'none is correct')
11467|null|missing outer radius: 'we cannot determine ... We cannot provide an answer.'
9137|[]|computes 15.9 and 1.59 Hz, 'none of the provided options are correct.' then 'The answer is (None of the above)'
11345|[]|missing height: 'we cannot determine the mass flow rate ... There is no correct answer among the options provided.'
12104|null|'it's impossible to calculate the required spring rate.' (no stance on the options)
11832|[]|'There is no correct answer among the options provided without additional information.'
12189|[]|'it's impossible to calculate E_T.' then 'The answer is (None of the above)'
7514|A|opens 'The answer is (A).' then the reason
11394|[]|computes 3.63 mA at +73.7 degrees, 'none of the options are close', then 'The answer is (None of the provided options are close to the calculated value).'
9497|null|'I cannot provide the answer.'
12111|null|'Therefore, I cannot provide an answer.'
11369|null|'Therefore, I cannot answer the last question.'
5479|[]|'not' question; 'Options A through J all describe situations that would likely impair ... Therefore, there is no correct answer among the options provided. The question is flawed.'
5275|D|NOT question; 'The answer is (D).'
6719|B|EXCEPT question; 'The transmitting neuron secretes neurotransmitters ... from its dendrites is incorrect. ... The answer is (B).'
7369|D|NOT question; 'The statement that is NOT correct is that the demand curve is one continuous function. The answer is (D).'
2218|C|'8-10 months (C) is within the typical range.' then 'The answer is (C)' (no full stop)
7724|E|'= $10.00.' then 'The answer is (E)' (no full stop)
10850|J|'The answer is (J).' then 'The answer is (J)'
"""


def readings() -> dict[str, list[tuple[str, list[str] | None, str]]]:
    """Model -> (question_id, expected, note) in the order written."""
    table: dict[str, list[tuple[str, list[str] | None, str]]] = {}
    for block in READINGS.strip().split("\n\n"):
        model, *rows = block.splitlines()
        for row in rows:
            qid, expected, note = row.split("|", 2)
            labels: list[str] | None
            if expected == "null":
                labels = None
            elif expected == "[]":
                labels = []
            else:
                labels = sorted(expected.split(","))
            table.setdefault(model, []).append((qid, labels, note))
    return table


def outputs(git_dir: Path, model: str) -> dict[str, dict[str, Any]]:
    path = f"eval_results/model_outputs_{model}_5shots.zip"
    blob = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{COMMIT}:{path}"],
        check=True,
        capture_output=True,
    ).stdout
    with zipfile.ZipFile(io.BytesIO(blob)) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".json")]
        rows = json.loads(archive.read(name))
    return {str(row["question_id"]): row for row in rows}


def record(
    model: str, n: int, row: dict[str, Any], expected: list[str] | None, note: str
) -> dict[str, Any]:
    options = row["options"]
    if isinstance(options, str):
        options = ast.literal_eval(options)
    labels = "ABCDEFGHIJ"
    reply = row.get("generated_text") or row.get("model_outputs") or ""
    return {
        "id": f"mmlu-pro-{model}:{n}",
        "source": f"mmlu-pro-{model}",
        "dataset": "mmlu-pro",
        "item": {
            "id": f"mmlu-pro-{row['question_id']}",
            "question": row["question"],
            "candidates": [{"label": labels[i], "text": text} for i, text in enumerate(options)],
            "gold": [row["answer"]],
        },
        "polarity": "direct",
        "template": None,
        "mitigations": ["cot"],
        "reply": reply,
        "expected": expected,
        "note": note,
        "provenance": {
            "repo": REPO,
            "commit": COMMIT,
            "path": f"eval_results/model_outputs_{model}_5shots.zip",
            "question_id": row["question_id"],
            "category": row["category"],
            "their_pred": row.get("pred"),
            "prompt": PROMPT_NOTE,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    for model, rows in readings().items():
        found = outputs(args.git_dir, model)
        path = args.out / f"mmlu-pro-{model.lower()}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for n, (qid, expected, note) in enumerate(rows, 1):
                line = record(model, n, found[qid], expected, note)
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(path.name, len(rows))


if __name__ == "__main__":
    main()
