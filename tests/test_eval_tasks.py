"""Eval on pairwise and checklist items: scripted judges with a planted error structure.

Each judge knows the right answer (a response or criterion says whether it is good in its
text) and errs in one planted way on a known set of items:

- **position bias**: on the planted items it names whatever is shown first (pairwise: the
  first response is better, the second worse; checklist: the first criterion shown is
  met, whatever it says);
- **reverse confusion**: on the planted items it answers the reverse question as if it
  were the direct one (the better response when asked for the worse, the criteria met
  when asked for those failed).

The runs' flags must recover what was planted: the order check's ``order_sensitive``
flag the items the position bias touched, and among them exactly the wrong verdicts;
the reverse check's ``inconsistent`` flag exactly the confused items, every one of them
wrong. Everywhere else the judge is right and unflagged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from prin_guard import GuardOptions, UsageError
from prin_guard.eval import EvalSummary
from prin_guard.eval import run as eval_run
from prin_guard.judges import ScriptedJudge

N = 40
PAIRWISE_BIASED = {i for i in range(N) if i % 3 == 0}
CHECKLIST_BIASED = {i for i in range(N) if i % 2 == 0}
CONFUSED = {i for i in range(N) if i % 5 == 1}
CHECKS = GuardOptions(checks=("reverse", "order"))

Reply = Callable[[str], str]


def _reverse(prompt: str) -> bool:
    return bool(re.search(r"please output the (worse one|criteria it fails to meet)\.", prompt))


def _index(prompt: str) -> int:
    match = re.search(r"task-(\d+):", prompt)
    assert match is not None
    return int(match.group(1))


# -- pairwise ---------------------------------------------------------------------------


def pairwise_items(folder: Path) -> Path:
    """Pairs whose better response says "good"; it is A on even items, B on odd ones."""
    path = folder / "pairs.jsonl"
    with path.open("w") as handle:
        for i in range(N):
            good, bad = f"a good answer to {i}", f"a bad answer to {i}"
            candidates = [good, bad] if i % 2 == 0 else [bad, good]
            row = {
                "id": f"pair-{i}",
                "task": "pairwise",
                "question": f"task-{i}: answer well.",
                "candidates": candidates,
                "gold": "A" if i % 2 == 0 else "B",
            }
            handle.write(json.dumps(row) + "\n")
    return path


def _shown_first_is_good(prompt: str) -> bool:
    match = re.search(r"Response A:\n(`{3,})\n(.*?)\n\1", prompt, re.S)
    assert match is not None
    return "good" in match.group(2)


def pairwise_judge(*, biased: set[int] = frozenset(), confused: set[int] = frozenset()) -> Reply:  # type: ignore[assignment]
    def reply(prompt: str) -> str:
        i = _index(prompt)
        good = "A" if _shown_first_is_good(prompt) else "B"
        bad = "B" if good == "A" else "A"
        if i in biased:
            good, bad = "A", "B"  # the first shown is better, whatever it says
        if _reverse(prompt):
            return f"Answer: {good if i in confused else bad}"
        return f"Answer: {good}"

    return reply


def evaluate(judge: Reply, data: Path, out: Path, name: str) -> tuple[EvalSummary, list[Any]]:
    result = eval_run(
        ScriptedJudge(fn=judge, name=name),
        str(data),
        options=CHECKS,
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        mitigations=(),
        cache="memory",
        progress=False,
        out=out,
    )
    records = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    return result.summary, sorted(records, key=lambda r: int(r["id"].split("-")[1]))


def _flagged(records: list[Any], flag: str) -> set[int]:
    return {i for i, r in enumerate(records) if flag in r["configs"]["none"]["flags"]}


def _wrong(records: list[Any]) -> set[int]:
    return {
        i for i, r in enumerate(records) if set(r["configs"]["none"]["correct"]) != set(r["gold"])
    }


def test_a_truthful_pairwise_judge_is_right_and_unflagged(tmp_path: Path) -> None:
    summary, records = evaluate(
        pairwise_judge(), pairwise_items(tmp_path), tmp_path / "run", "truthful"
    )
    assert summary.task == "pairwise"
    assert summary.pairwise is not None
    assert summary.pairwise.winner_accuracy == 1.0
    assert summary.pairwise.decided_rate == 1.0
    assert summary.pairwise.first_shown_wins == 0.5  # blind to position over both orders
    assert summary.pairwise.expected_first_shown == 0.5
    assert _wrong(records) == set() and _flagged(records, "order_sensitive") == set()
    assert [r["configs"]["none"]["winner"] for r in records[:2]] == ["A", "B"]


def test_position_bias_is_what_order_sensitive_flags_on_pairs(tmp_path: Path) -> None:
    summary, records = evaluate(
        pairwise_judge(biased=PAIRWISE_BIASED),
        pairwise_items(tmp_path),
        tmp_path / "run",
        "first-shown",
    )
    # the bias touched the planted items; it made wrong exactly those whose better
    # response is not the one the item shows first (odd items: the good one is B)
    assert _flagged(records, "order_sensitive") == PAIRWISE_BIASED
    assert _wrong(records) == {i for i in PAIRWISE_BIASED if i % 2 == 1}
    assert _flagged(records, "inconsistent") == set()  # each order alone is consistent
    checks = summary.checks
    assert checks is not None
    quality = checks.flag_quality["order_sensitive"]
    assert quality.error_rate_unflagged == 0.0
    assert quality.error_rate_flagged == pytest.approx(
        len(_wrong(records)) / len(PAIRWISE_BIASED), abs=1e-4
    )
    # every wrong verdict flagged (recall 1); the right ones the bias touched flagged too
    right_unflagged = (N - len(PAIRWISE_BIASED)) / (N - len(_wrong(records)))
    assert checks.score_quality["order_inconsistency"].auroc == pytest.approx(
        (1 + right_unflagged) / 2, abs=1e-4
    )
    assert checks.flag_quality["inconsistent"].flagged == 0
    # position: planted items name the first shown in both orders, the others half the time
    assert summary.pairwise is not None
    biased = len(PAIRWISE_BIASED)
    assert summary.pairwise.first_shown_wins == pytest.approx(
        (2 * biased + (N - biased)) / (2 * N), abs=1e-4
    )
    permuted = checks.position_bias["direct_permuted"]
    assert permuted.first_shown == summary.pairwise.first_shown_wins
    assert permuted.expected == 0.5


def test_reverse_confusion_is_what_inconsistent_flags_on_pairs(tmp_path: Path) -> None:
    summary, records = evaluate(
        pairwise_judge(confused=CONFUSED), pairwise_items(tmp_path), tmp_path / "run", "confused"
    )
    # the same response called better and worse: no winner, flagged, wrong
    assert _flagged(records, "inconsistent") == CONFUSED
    assert _wrong(records) == CONFUSED
    assert all(records[i]["configs"]["none"]["winner"] is None for i in CONFUSED)
    assert _flagged(records, "order_sensitive") == set()
    checks = summary.checks
    assert checks is not None
    quality = checks.flag_quality["inconsistent"]
    assert (quality.error_rate_flagged, quality.error_rate_unflagged, quality.auroc) == (
        1.0,
        0.0,
        1.0,
    )
    assert summary.pairwise is not None
    assert summary.pairwise.undecided_rate == len(CONFUSED) / N
    assert summary.pairwise.accuracy_when_decided == 1.0
    # the direct answers alone are right: the contradiction is the reverse leg's
    assert summary.configs["none"].methods["direct"].accuracy == 1.0


# -- checklists -------------------------------------------------------------------------

CRITERIA = ("met", "fail", "met", "met", "fail")


def checklist_items(folder: Path) -> Path:
    """Five criteria per item whose texts say whether the response meets them, the
    pattern rotated from item to item so the first one shown is sometimes failed."""
    path = folder / "checklists.jsonl"
    with path.open("w") as handle:
        for i in range(N):
            kinds = CRITERIA[i % 5 :] + CRITERIA[: i % 5]
            texts = [f"{kind}-{i}-{k}" for k, kind in enumerate(kinds)]
            row = {
                "id": f"list-{i}",
                "task": "checklist",
                "response": f"task-{i}: a response.",
                "candidates": texts,
                "gold": [chr(65 + k) for k, kind in enumerate(kinds) if kind == "met"],
            }
            handle.write(json.dumps(row) + "\n")
    return path


def _shown(prompt: str) -> list[tuple[str, str]]:
    return re.findall(r'"([A-Z])\) ((?:met|fail)-\d+-\d+)"', prompt)


def checklist_judge(*, biased: set[int] = frozenset(), confused: set[int] = frozenset()) -> Reply:  # type: ignore[assignment]
    def reply(prompt: str) -> str:
        i = _index(prompt)
        shown = _shown(prompt)
        met = {label for label, text in shown if text.startswith("met")}
        if i in biased:
            met.add(shown[0][0])  # the first criterion shown is met, whatever it says
        failed = {label for label, _ in shown} - met
        if _reverse(prompt):
            return "Answer: " + (", ".join(sorted(met if i in confused else failed)) or "none")
        return "Answer: " + (", ".join(sorted(met)) or "none")

    return reply


def _first_shown_fails(record: Any) -> set[str]:
    """The first criterion shown in each order, when it is a failed one."""
    verdict = record["configs"]["none"]
    orders = [record["labels"], *(leg["order"] for leg in verdict["permuted"])]
    return {order[0] for order in orders if order[0] not in record["gold"]}


def test_position_bias_is_what_order_sensitive_flags_on_checklists(tmp_path: Path) -> None:
    summary, records = evaluate(
        checklist_judge(biased=CHECKLIST_BIASED),
        checklist_items(tmp_path),
        tmp_path / "run",
        "first-met",
    )
    # wrong: the item's first criterion is failed and was called met
    wrong = {i for i in CHECKLIST_BIASED if records[i]["labels"][0] not in records[i]["gold"]}
    assert wrong and _wrong(records) == wrong
    # flagged: a failed criterion was shown first in one of the two orders
    touched = {i for i in CHECKLIST_BIASED if _first_shown_fails(records[i])}
    assert _flagged(records, "order_sensitive") == touched
    assert wrong <= touched
    checks = summary.checks
    assert checks is not None
    assert checks.flag_quality["order_sensitive"].error_rate_unflagged == 0.0
    assert summary.checklist is not None
    assert summary.checklist.missed == 0.0  # the bias only ever adds a criterion
    assert summary.checklist.false_met == pytest.approx(
        len(wrong) / sum(len(r["labels"]) - len(r["gold"]) for r in records), abs=1e-4
    )
    assert summary.checklist.exact_accuracy == 1 - len(wrong) / N
    # the direct leg names the first criterion shown more often than a blind judge would
    direct = checks.position_bias["direct"]
    assert direct.first_shown is not None and direct.expected is not None
    assert direct.first_shown > direct.expected


def test_reverse_confusion_is_what_inconsistent_flags_on_checklists(tmp_path: Path) -> None:
    summary, records = evaluate(
        checklist_judge(confused=CONFUSED), checklist_items(tmp_path), tmp_path / "run", "confused"
    )
    assert _flagged(records, "inconsistent") == CONFUSED
    assert _wrong(records) == CONFUSED
    for i in CONFUSED:  # named in both answers: contradicted, never met
        statuses = {c["status"] for c in records[i]["configs"]["none"]["candidates"]}
        assert statuses == {"contradicted"}
    checks = summary.checks
    assert checks is not None
    assert checks.flag_quality["inconsistent"].auroc == 1.0
    assert summary.checklist is not None
    assert summary.checklist.exact_accuracy == 1 - len(CONFUSED) / N
    assert summary.checklist.contradicted_rate == len(CONFUSED) / N
    # per candidate: the confused items' met criteria (3 of 5) are the only ones wrong
    assert summary.checklist.per_candidate_accuracy == pytest.approx(
        1 - 3 * len(CONFUSED) / (5 * N), abs=1e-4
    )
    assert summary.configs["none"].methods["synergy"].per_candidate == (
        summary.checklist.per_candidate_accuracy
    )


# -- what a run of another task measures -------------------------------------------------


def test_choice_only_analyses_are_skipped_on_other_tasks_with_a_note(tmp_path: Path) -> None:
    result = eval_run(
        ScriptedJudge(fn=pairwise_judge(), name="truthful"),
        str(pairwise_items(tmp_path)),
        methods=("synergy", "self_consistency"),
        analyses=("paraphrase", "options"),
        mitigations=(),
        cache="memory",
        progress=False,
        out=tmp_path / "run",
    )
    not_measured = result.summary.run.not_measured
    assert not_measured is not None
    assert set(not_measured) == {"self_consistency", "paraphrase", "options"}
    assert all(why.startswith("choice only: ") for why in not_measured.values())
    assert result.summary.prin_by_template == {} and result.summary.self_consistency is None
    report = (result.path / "report.md").read_text()
    assert "## Not measured" in report and "## Pairwise verdicts" in report
    assert "| task | pairwise |" in report


def test_a_template_of_another_task_is_refused_before_any_judge_call(tmp_path: Path) -> None:
    judge = ScriptedJudge(fn=pairwise_judge(), name="truthful")
    with pytest.raises(UsageError, match=r"template: 'v1' asks choice questions.*pairwise items"):
        eval_run(
            judge,
            str(pairwise_items(tmp_path)),
            options=GuardOptions(template="v1"),
            methods=("synergy",),
            analyses=(),
            mitigations=(),
            cache="memory",
            progress=False,
            out=tmp_path / "run",
        )
    assert judge.call_count == 0


def test_the_expertqa_sample_is_asked_with_the_claims_template(tmp_path: Path) -> None:
    seen: list[str] = []

    def reply(prompt: str) -> str:
        seen.append(prompt)
        return "Answer: none" if _reverse_claims(prompt) else "Answer: A"

    result = eval_run(
        ScriptedJudge(fn=reply, name="claims"),
        "expertqa-claims",
        limit=3,
        methods=("synergy",),
        analyses=(),
        mitigations=(),
        cache="memory",
        progress=False,
        out=tmp_path / "run",
    )
    assert result.summary.task == "checklist"
    assert result.summary.run.config is not None
    assert result.summary.run.config.template == "claims"
    assert all("please output the claims the sources" in prompt for prompt in seen)
    assert result.summary.checklist is not None
    assert result.summary.checklist.scored == 3


def _reverse_claims(prompt: str) -> bool:
    return "please output the claims the sources do not support." in prompt
