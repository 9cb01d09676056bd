"""Record the messages The AI Scientist's own code sends its reviewer, for the byte-for-byte
test of prin-guard's copy of its form (tests/test_review_forms.py).

Run with the repository's file at the recorded commit, not with prin-guard:

    git -C AI-Scientist archive 9dffdc445c2596ffa871b5588377e9f12558febc \
        ai_scientist/perform_review.py ai_scientist/__init__.py | tar -x -C /tmp/ais
    python tests/data/review-forms/capture_ai_scientist.py /tmp/ais \
        > tests/data/review-forms/ai-scientist-rendered.json

It imports ``ai_scientist.perform_review`` itself (its PDF and numpy imports stubbed: no
case here reads a PDF or averages an ensemble), replaces the LLM call it imported with one
that records ``(system_message, msg, msg_history)`` and answers a fixed reply, and calls
``perform_review`` as ``review_iclr_bench/iclr_analysis.py`` and ``launch_scientist.py``
do. The few-shot cases write synthetic example files (ours, not the repository's papers)
where ``get_review_fewshot_examples`` reads them, so the recorded strings hold no text of
theirs besides the prompts.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

PAPER = (
    "# A Test Paper {with braces} and `ticks`\n\n"
    "Abstract. We study ```fences``` inside a paper, unicode (naïve, 数据), a tab\there,\n"
    "a trailing space \nand {paper} {text} {{double}} placeholders left alone.\n"
)
REPLY = (
    "THOUGHT:\nA fixed reply.\n\nREVIEW JSON:\n```json\n"
    '{"Summary": "s", "Overall": 4, "Confidence": 3, "Decision": "Reject"}\n```\n'
)
EXAMPLES = [
    ("Example paper one.\nIt has two lines {and braces}.", {"Overall": 6, "Decision": "Accept"}),
    ("Example paper two.", {"Overall": 3, "Decision": "Reject"}),
]


def main(root: str) -> None:
    sys.path.insert(0, root)
    for name in ("pypdf", "pymupdf", "pymupdf4llm", "numpy"):
        module = types.ModuleType(name)
        module.PdfReader = None  # type: ignore[attr-defined]
        sys.modules[name] = module
    llm = types.ModuleType("ai_scientist.llm")
    calls: list[dict[str, object]] = []

    def get_response_from_llm(
        msg, client, model, system_message, print_debug=False, msg_history=None, temperature=0.75
    ):
        history = list(msg_history or [])
        calls.append({"system": system_message, "user": msg, "history": history})
        new = [*history, {"role": "user", "content": msg}]
        return REPLY, [*new, {"role": "assistant", "content": REPLY}]

    llm.get_response_from_llm = get_response_from_llm  # type: ignore[attr-defined]
    llm.get_batch_responses_from_llm = None  # type: ignore[attr-defined]
    llm.extract_json_between_markers = lambda text: json.loads(  # type: ignore[attr-defined]
        text.split("```json")[1].split("```")[0]
    )
    sys.modules["ai_scientist.llm"] = llm
    import ai_scientist.perform_review as pr

    fewshot = Path(root) / "ai_scientist" / "fewshot_examples"
    fewshot.mkdir(exist_ok=True)
    for (text, review), pdf in zip(EXAMPLES, pr.fewshot_papers, strict=False):
        Path(pdf.replace(".pdf", ".txt")).write_text(text)
        Path(pdf.replace(".pdf", ".json")).write_text(json.dumps({"review": json.dumps(review)}))

    cases = {}
    for variant, system in (
        ("neg", pr.reviewer_system_prompt_neg),
        ("pos", pr.reviewer_system_prompt_pos),
        ("base", pr.reviewer_system_prompt_base),
    ):
        calls.clear()
        pr.perform_review(
            PAPER,
            "gpt-4o",
            None,
            num_reflections=1,
            num_fs_examples=0,
            reviewer_system_prompt=system,
        )
        cases[f"{variant}-fs0"] = calls[0]
    for shots in (1, 2):
        calls.clear()
        pr.perform_review(PAPER, "gpt-4o", None, num_reflections=1, num_fs_examples=shots)
        cases[f"neg-fs{shots}"] = calls[0]
    calls.clear()
    pr.perform_review(PAPER, "gpt-4o", None, num_reflections=2, num_fs_examples=0)
    cases["neg-fs0-reflection"] = calls[1]
    json.dump(
        {
            "source": "SakanaAI/AI-Scientist ai_scientist/perform_review.py @ "
            "9dffdc445c2596ffa871b5588377e9f12558febc "
            "(blob 4a6b9ae91f8d257e891df5a143f00bb84cf033d0)",
            "paper": PAPER,
            "reply": REPLY,
            "examples": [[text, json.dumps(review)] for text, review in EXAMPLES],
            "cases": cases,
        },
        sys.stdout,
        indent=1,
        ensure_ascii=False,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
