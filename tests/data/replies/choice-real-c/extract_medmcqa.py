# ruff: noqa: E501 (the readings are data, one a line)
"""Write medmcqa-instructgpt.jsonl: real replies of InstructGPT (text-davinci-002) to MedMCQA
questions (four options), as vlievin/medical-reasoning published them (Apache-2.0) in
``docs/samples/medmcqa-wo-context.html``, each with the reading a careful person gives it
(``READINGS``, written by hand from the whole reply before the reader was run on any of them).

Not a test dependency. Run against a fetched snapshot's git directory (or a clone) of
https://github.com/vlievin/medical-reasoning:

    python tests/data/replies/choice-real-c/extract_medmcqa.py /path/to/medical-reasoning/.git
    python tests/data/replies/choice-real-c/extract_medmcqa.py GIT_DIR --worklist   # what was read

The page holds 1,000 validation questions, each answered under six prompts (a direct answer and
five chain-of-thought triggers). Chosen (seeded, ``random.Random('real-c:medmcqa')``): 60
questions whose stem is negated (``NEGATED``: EXCEPT, NOT, false, incorrect, least, ...), one
chain-of-thought reply each (prompt drawn at random), then 30 other questions, one reply each
under any of the six prompts.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = "vlievin/medical-reasoning"
COMMIT = "bb0e7f6934c455797f46837395c25e6af2be3c0b"
PATH = "docs/samples/medmcqa-wo-context.html"
NEGATED = re.compile(
    r"\b(EXCEPT|[Ee]xcept|NOT|not|[Ff]alse|FALSE|[Ii]ncorrect|INCORRECT|[Ll]east|LEAST|[Ww]rong)\b"
)
MARK = re.compile(r"^(?:\u2705|\u274c) ?")  # the page's right/wrong mark, not part of the reply
OPTION = re.compile(r"^([A-D])\) (.*)$")
PROMPT_NOTE = (
    "zero-shot, two steps (Lievin et al. 2022, 'Can large language models reason about medical "
    "questions?'): 'Question: ...\\n\\nA) ...\\nB) ...\\nC) ...\\nD) ...\\n\\nAnswer: ' + the trigger "
    "({trigger}); the completion, then the appended 'Therefore, among A through D, the answer is' "
    "and its completion. The page shows the whole text after the question, kept verbatim here "
    "(the trigger and the appended phrase included); text-davinci-002, greedy."
)


def parse(page: str) -> tuple[list[str], dict[str, dict[str, Any]]]:
    triggers = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", page)]
    questions: dict[str, dict[str, Any]] = {}
    for qid, body in re.findall(r"<tr data-qid=(\w+)>(.*?)</tr>", page, re.S):
        cells = [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
        entry = questions.setdefault(qid, {"order": len(questions)})
        if len(cells) == 1:
            text = cells[0]
            source = re.search(r"<strong>MedMCQA \[(.*?)\]</strong>", text)
            entry["source_id"] = source.group(1) if source else qid
            text = re.sub(r"^<strong>MedMCQA \[.*?\]</strong> Question: ", "", text)
            stem, _, options = text.partition("\n\n")
            entry["question"] = stem
            entry["candidates"] = []
            entry["gold"] = []
            for line in options.splitlines():
                gold = line.startswith("<strong>")
                line = re.sub(r"</?strong>", "", line)
                match = OPTION.match(line)
                if match:
                    entry["candidates"].append({"label": match.group(1), "text": match.group(2)})
                    if gold:
                        entry["gold"].append(match.group(1))
        else:
            entry["replies"] = [MARK.sub("", c) for c in cells]
    return triggers, questions


def choose(questions: dict[str, dict[str, Any]]) -> list[tuple[str, int]]:
    rng = random.Random("real-c:medmcqa")
    qids = sorted(questions, key=lambda q: questions[q]["order"])
    rng.shuffle(qids)
    negated = [q for q in qids if NEGATED.search(questions[q]["question"])][:60]
    others = [q for q in qids if q not in negated][:30]
    return [(q, rng.randrange(1, 6)) for q in negated] + [(q, rng.randrange(0, 6)) for q in others]


# qid#prompt|expected|note. expected: labels, [] (no option qualifies) or null (cannot tell).
READINGS = r"""
259b6ecedb481b8a11d3d31be4d17d36#2|D|'The answer is D) Glycogenin. Glycogenin is not a cofactor ...' then 'the answer is D.'
7a9e585ed7dce0e6a1b7a40d819ce7c4#1|[]|eliminates every option; 'This leaves us with no correct answer. Therefore, among A through D, the answer is none of the above.'
ae9cb6dccb85345d6a43994c879847f4#5|C|'the answer is C) Necrotic node.' (the question asks which is NOT seen; read as given)
11353571b01050732695c383f0a01649#1|B|'Therefore, the answer is B) Wolinella.' twice
7a2f8459497083e443ab536b1a2103fc#1|B|'the answer is B) Oropharyngeal suction.' (the 'not' is in the vignette: 'not intubated')
1008a7ab90c254ea0c54909a322a7fcd#3|D|A, B, C 'could be a reason'; D 'the most likely reason'; 'the answer is most likely D.'
60554589f700475aa5575d40674b9a02#5|D|reasoning rules out toxic shock only, then 'the answer is D.'
078c12bb40a2bed41c630ac3ed86b7d0#2|D|'the answer is D) Implanon.' twice
4fb24754cbd25bdeadc0e925798b12c0#2|D|'the answer is D) Atridox.' then 'the answer is D.'
b1d68dd4dd6e35165d15f3805ddc859e#4|D|four identical option descriptions; 'the answer is D, Metronidazole.'
2e88cfad631e4b3893c0447592582169#1|C|'the answer is C) superior labial.' twice
71811e7a3bdd8d83e37bf95ad5df628d#4|C|EXCEPT question; lists what increases GFR, then 'the answer is C) Renal stone in ureter.'
c370c5d54146addb84dee56af6eab4d9#4|C|EXCEPT question; C and D both 'a rare side effect'; 'the answer is C) Hypoglycemia.'
96613c46cc743246fd8e06550bb6e56a#5|D|'the septal branch of the superior labial artery is not the branch ...'; 'the answer is D.'
8a2fd74b8cc8e1dd5768806fd1873565#1|D|weighs LMA, Combitube, laryngoscopy, fiberoptic by case; 'the answer is D.'
e52b7778d9d75fa88fdb0ea8d7926fc1#4|D|EXCEPT question; lists the ring's tonsils; 'the answer is D.'
020d428629eb45f77710d98cc4a29dd7#1|D|restates all four as true; 'the answer is D.'
72079271b5db1ee7cd6db6e46bf98de3#5|C|per-option list 1-4, no verdict in it; 'the answer is C.'
e29d165d8bc60677e02e291d2fcb9fbd#2|D|EXCEPT question; 'the most likely causative agent ... is exposure to NSAlDs, followed by ... Vitamin K'; 'the answer is D.'
83ee71f6795538c29a986045508f1f25#2|D|'So, the answer is D) Rh Incompatibility.' then 'the answer is D.'
32422ca042d12606e00a324fc4571bb9#3|D|'the answer is D, or hemangiosarcoma.'
3ad800200e325d0adb38cf9216a4b0f0#5|A|'the most probable diagnosis is congenital adrenal hyperplasia (CAH).' then 'the answer is A.'
f3e4c08a932409a59abb9a587c0b8266#4|D|EXCEPT question; describes each junction, no verdict; 'the answer is D.'
4013413d5eae0fb35e5dfe9b71726e36#3|C|NOT question; lists the three qSOFA criteria, 'eliminate answers B and D', then 'answer C is the correct answer.' and 'the answer is C.'
fff287498726acc608ce29b52b7b6e95#3|B|'Therefore, the answer is (B) influenza.' then 'the answer is B.'
d6f40e3243da50f66033af0e711a2ee7#2|D|'So, the answer is D) Upward rotation.' twice
ae0b62d77df66db8c7959e2fd25dc4a7#5|D|a list of causes and cauterised vessels naming all four; 'the answer is D.'
da0814651d23e0f530fd689e768f3538#5|C|all-true-EXCEPT question; B and C both marked 'False', A and D 'True'; 'the answer is C.': the answer line counts
28567e273fad5b0f7ec763e35c522afe#5|D|'Therefore, the answer is D) Ketogenesis.' then 'the answer is D.'
f859358951c407f95cf4d57a81d755b6#2|D|describes all four as management steps; 'the answer is D.'
31cb124d11d9851dd5aa978e5aa5bb21#1|D|'c-erbB1 is not a tumor suppressor gene.' then 'the answer is D.'
5087379be9c52446f69a2f03713cebff#3|D|A, B, C 'True', D 'False'; 'the answer is D.'
7479ec407396cc20c24197836f76672c#5|D|facts about enteric fever, then 'the answer is D) High titre value ... is not confirmative.' and 'the answer is D.'
1b68411405e1c645ef2d86b14f4ad81b#5|D|says the buccinator compresses the cheeks and lists the pterygoids as muscles of mastication, yet 'the answer is D) Pterygoids.' twice: the answer line counts
c1b7bbd38496dd9495bbd07bc28bf54b#5|D|per-option causes; 'The answer is D) SBP <= 100 mm Hg' then 'the answer is D.'
51cdf5e3ac5f0a3e1f216eff01a95355#4|D|all four called common features, then 'the answer is D) Chronic active hepatitis is not a feature ...' and 'the answer is D.'
07345db283b9c4ce247055fbf31449d2#5|C|restates the four options; 'The answer is C.' twice
d5aaaa5c70d2adcf71b7311859feb374#2|B|'the most likely diagnosis is fulminant hepatitis due to hepatitis B infection.' then 'the answer is B.'
14314ef11fa975e4ee8ff4e9c44cbf77#3|D|'Complex syndactyly is a common feature ..., but it is not a diagnostic feature.' then 'the answer is D, complex syndactyly.'
9c0f52644b0e8866b69e4314c28a710a#1|D|'So the answer is D) Inhibition of prostaglandin PGI2.' then 'the answer is D.'
01f169fea00eec1702691c3f897bedee#5|D|'Around umbilicus: This site is least commonly used' then 'the answer is D.'
cf9d013f1d6affabe4574a7ac0301c7f#2|D|'The answer is amylase.' then 'the answer is D, or amylase.'
0bfaf54fa0311c8988e1351a6e5b61e9#2|D|'oestrogen does not help with stopping the bleeding' (C), yet 'the answer is D.': the answer line counts
bb88a0c38c94ff19d494e3c88af0da44#2|D|'The most appropriate treatment ... would be antibiotics, heat, and fluid.' then 'the answer is D.'
4bfb532e7e61d9b57700914ef848cdfb#1|D|lists all four as determining efficiency; 'the answer is D.'
7163bb8a9311fd3c83a1fa6832578911#5|D|EXCEPT question; lists causes of each sign; 'the answer is D) weight loss.' then 'the answer is D.'
10af6c1766a414b9af19c98375b9ba66#1|C|per option: A, B, D 'true', C 'not true'; 'the answer is C.'
63f12a52aa982c3f379a8b949e31eb03#3|A|EXCEPT question; eliminates D and C, then 'option A is the correct answer.' and 'the answer is A.'
c6f9857d7c8f9425f89a4d5a6e7e4957#2|A|NOT-true question; eliminates B, C, D; 'option A as the correct answer.' and 'the answer is A.'
1f337332114f449c150bb97030dc605e#3|D|EXCEPT question; each instrument's use; 'the correct answer is D) Harmonic scalpel.' then 'the answer is D.'
ddbf5fdd85333d0c1a617a7f48da5dd2#1|D|'the only answer that meets all three criteria is "primary teeth with no successor."' (B's content), then the final line 'the answer is D.': the final answer line counts
a43a991739228afcdbcdac993d494bc7#5|D|per-option vectors; 'The correct answer is D) Carrion's Disease is NOT transmitted by sandflies.' then 'the answer is D.'
3a6017692ab84cc3755dbd73778a9e1c#4|C|per option: A, B, D 'a correct answer', C 'not a correct answer'; 'the answer is C.' (EXCEPT question: C is the one excepted)
458e11f8f476a4132dc08b0b8aa5e574#2|D|A, B, C 'true', D 'not true'; 'the answer is D.'
c3bbdeb1e6dc567122b211a99c812958#5|A,B,C|'I would recommend starting with liraglutide or sitagliptin ... then canagliflozin can be tried.' then 'the answer is A, B, or C.'
b3d94b7ac3e125160d6fdf8216cd6a51#5|C|'The most likely diagnosis in this patient is Parkinson's disease, followed by Alzheimer's disease.' then 'the answer is C, Supranuclear palsy.': the answer line
767ca525c805c59a3474f34f5e79921d#2|D|background on tonsillectomy, nothing on the options; 'the answer is D.'
26601eead21eb1510760927b02199412#1|A|'the false statement ... is that it mainly affects young females.' then 'the answer is A.'
9dba09e928d7fb448c1c1b9168a7e837#1|A|'This would be the "obstinate cry."' then 'the answer is A.'
f8a9f79273b8b266036811ec117a4c32#1|D|C and D both called 'incorrect'; 'the answer is D.': the answer line counts
7666357bbea820890a9482b5602e72b3#2|D|chains A, B, C as cause, treatment, cure; 'the answer is D.'
04c91f53ff66e2f042626e0f0f20a590#2|B|dendritic cell activates the naive T cell; 'the answer is B.'
c50646360627943d0483c310ee48322b#2|D|'made possible by proper cementation technique, shoulder preparation, and use of pins and grooves.' (B, C, D), then 'the answer is D.': the answer line counts
b583292e8caa0a26f4bf46b4f8a0ff27#5|C|'the answer is most likely C) Uniform arrangement of enamel rods.'
33e2ca1558e464f486adca75c9fc002e#3|D|describes all three tests in turn; 'the answer is D.' (D is 'All of the above')
2d194a25a744450eb3a399dcbed40dd1#1|B|'The best answer choice is B) Growth after a neurological injury.' then 'the answer is B.'
aab70258ed2246f0a7c7177afc0564f9#3|D|all four called 'a potential cause'; 'the answer is D.'
143e80c07aeb272d9c4f388efd96286f#5|A,B|'we can infer that GIC contains covalent and ionic bonds.' then 'the answer is A and B.'
c40fcd43e4f5a9fbb655750f451dfbc3#5|B|step 1 'This is an unpaired t-test.', step 2 'This is a paired t-test.'; 'the answer is B.'
b3cdc109ce01ce17bbb4acbf15d57387#4|B|'supplied by the third part of the maxillary artery.' then 'the answer is B.'
33c41162b769acf774acbb21da8d9abd#5|D|four muddled steps naming each option; 'the answer is D.'
8abc84fecb0613d40d67a441e4edfb99#5|A|'The answer is nitrous oxide.' then 'the answer is A.'
18f3dfb960d2679adffd77483d678d67#2|A|'the most likely diagnosis is myxedema coma' then 'the answer is A.'
06113faf3069114c2ff4eb27024df671#4|D|'controlled by the hypothalamus', which 'is located in the diencephalon' (C); 'the answer is D, the hypothalamus.'
d6ec82938a2d9b22fa3d3134de7e808f#2|D|A, B, C 'not controlled by feedforward control', prolactin is; 'the answer is D, Prolactin.'
3fab59791cd2a7266b1026d072824325#5|A|computes 'Time = 1 minute' (no option's value), then 'the answer is A.' (9 minutes): the answer line counts
77db8fd08363c776aea1f32803a5c706#2|A|'So the answer is Paget's disease, polyostotic fibrous dysplasia, and cherubism can all lead to ...' then 'the answer is A.'
3fecfd11ddd4dd70bb54e2780bdafb80#0|B|direct: 'among A through D, the answer is B.'
a2281bfc8439a3c071bd826417cde4a8#5|B|'The next line of management would be microlaryngoscopy' then 'the answer is B.'
008a3b2869245f7b985b6feb3c1d7b56#2|C|'the most likely ... an anti-viral antibody test.' then 'the answer is C.'
0c01223060aa9fec21100be29f164352#1|B|'will result in bradycardia with AV block.' then 'the answer is B.'
fb5f6c552bea9e27d19e8cbe2b922063#3|C|A, B, D 'This answer is incorrect.', C 'This answer is correct.'; 'the answer is C.'
b893899aa1ba88c544a8a7f5297f9f81#2|A|'High pull head gear would be best' then 'the answer is A.'
d4c8bd5e2204ff7e4a73aea33106e7dc#5|D|'the answer is Ghee.': D's text ('Ghee (unsaturated)'), no label
8c97430ef0483c1e1c05c2e1347af94e#5|A|ranks the four causes, first 'congenital'; 'the answer is A.'
9995d352c124da8d8258568488085225#1|D|'So, the answer is D) Class. III malocclusion.' then 'the answer is D.'
435ca00e8af30bd9fd82ba34608ba027#4|C|'Broca's area is related to words.' then 'the answer is C.'
6db7b2f0a26047350960da2f8de4357a#0|B|direct: 'among A through D, the answer is B) 5min'
4cc36c52cedeb4184609386aa310e709#0|C|direct: 'among A through D, the answer is C) 3 months.'
9f059963384aa44399ca49ad375fdc09#3|A|'That would be answer C ... However, that's not the correct answer. The correct answer is A, the upper canine.' then 'the answer is A.'
"""


def readings() -> dict[tuple[str, int], tuple[list[str] | None, str]]:
    out: dict[tuple[str, int], tuple[list[str] | None, str]] = {}
    for row in READINGS.strip().splitlines():
        key, expected, note = row.split("|", 2)
        qid, prompt = key.split("#")
        labels: list[str] | None
        if expected == "null":
            labels = None
        elif expected == "[]":
            labels = []
        else:
            labels = sorted(expected.split(","))
        out[(qid, int(prompt))] = (labels, note)
    return out


def repeats(candidates: list[dict[str, str]]) -> bool:
    """Two options with the same text (the dataset's own duplicates, e.g. 'bent' twice)."""
    texts = [c["text"].strip().lower() for c in candidates]
    return len(set(texts)) < len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--worklist", action="store_true", help="print the chosen replies")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent / "medmcqa-instructgpt.jsonl"
    )
    args = parser.parse_args()
    page = subprocess.run(
        ["git", "--git-dir", str(args.git_dir), "show", f"{COMMIT}:{PATH}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    triggers, questions = parse(page)
    known = {} if args.worklist else readings()
    records = []
    for n, (qid, prompt) in enumerate(choose(questions), 1):
        entry = questions[qid]
        reply = entry["replies"][prompt]
        if args.worklist:
            options = " ".join(f"{c['label']}) {c['text']}" for c in entry["candidates"])
            print(f"=== {qid}#{prompt} | {entry['question']} | {options}\n{reply}\n")
            continue
        expected, note = known[(qid, prompt)]
        if repeats(entry["candidates"]):
            continue  # read, but prin_guard's Item rejects identical candidate texts
        records.append(
            {
                "id": f"medmcqa-instructgpt:{n}",
                "source": "medmcqa-instructgpt",
                "dataset": "medmcqa",
                "item": {
                    "id": f"medmcqa-{entry['source_id']}",
                    "question": entry["question"],
                    "candidates": entry["candidates"],
                    "gold": entry["gold"],
                },
                "polarity": "direct",
                "template": None,
                "mitigations": ["cot"] if prompt else [],
                "reply": reply,
                "expected": expected,
                "note": note,
                "provenance": {
                    "repo": REPO,
                    "commit": COMMIT,
                    "path": PATH,
                    "index": qid,
                    "prompt": PROMPT_NOTE.format(
                        trigger=repr(triggers[prompt]) if prompt else "none: direct answer"
                    ),
                    "licence": "Apache-2.0",
                },
            }
        )
    if records:
        with args.out.open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(args.out.name, len(records))


if __name__ == "__main__":
    main()
