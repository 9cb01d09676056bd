"""The checks in an evaluation: the runner asks the order check on the base verdict
only, and the summary and report measure order inconsistency, position bias, panel
agreement, confidence and every signal's quality, with scripted judges whose
answers make every number computable by hand."""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Guard, GuardOptions, Item, UsageError
from prin_guard import eval as evaluation
from prin_guard.cache import MemoryCache
from prin_guard.datasets import LabeledItem
from prin_guard.eval import EvalConfig, EvalSummary
from prin_guard.eval._report import Run, load_run, write_report
from prin_guard.eval._run import run_eval
from prin_guard.eval._summary import summarize
from prin_guard.judges import JudgeResponse, ScriptedJudge
from prin_guard.models import Message

NEGATIVE = ("incorrect", "wrong", "inappropriate", "inaccurate", "invalid")
TEXTS = ("right", "wrong1", "wrong2", "wrong3")


def _options(prompt: str) -> dict[str, str]:
    """The shown labels and texts: ``"A) right", "B) wrong1", ...``."""
    return dict(re.findall(r'"([A-Z])\) ([^"]+)"', prompt))


def _question(prompt: str) -> str:
    match = re.search(r"Given this question\s+`{3,}\n(\w+)", prompt)
    assert match, prompt
    return match.group(1)


def _is_reverse(prompt: str) -> bool:
    return re.findall(r"please output the (\w+) ones\.", prompt)[-1] in NEGATIVE


def _content(prompt: str) -> str:
    """Names the candidate whose text is "right", wherever it is shown."""
    options = _options(prompt)
    chosen = [label for label, text in options.items() if (text == "right") != _is_reverse(prompt)]
    return "Answer: " + ", ".join(chosen)


def _position(prompt: str) -> str:
    """Names whatever is shown first as correct, the rest as incorrect."""
    labels = list(_options(prompt))
    return "Answer: " + (", ".join(labels[1:]) if _is_reverse(prompt) else labels[0])


def _mixed(prompt: str) -> str:
    # questions c* get a judge that reads the content, p* one that looks at positions
    return _content(prompt) if _question(prompt).startswith("c") else _position(prompt)


def _item(question: str, right_at: int) -> LabeledItem:
    texts = list(TEXTS[1:])
    texts.insert(right_at, "right")
    # four candidates: the second order is the reversal, D C B A
    item = Item(question=question, candidates=texts, id=question)
    return LabeledItem(item=item, gold=(item.labels[right_at],), line=1)


RECORDS = [_item("c1", 0), _item("c2", 1), _item("p1", 0), _item("p2", 2)]


def _summarize(
    judge: Any, config: EvalConfig, tmp_path: Path, records: Sequence[LabeledItem] = RECORDS
) -> tuple[EvalSummary, list[dict[str, Any]]]:
    items = tmp_path / "items.jsonl"
    stats = asyncio.run(run_eval(judge, records, config, items_path=items, cache=MemoryCache()))
    written = [json.loads(line) for line in items.read_text().splitlines()]
    return summarize(written, run={"config": stats["config"]}), written


def _config(checks: Sequence[str], **options: Any) -> EvalConfig:
    return EvalConfig(
        dataset="toy",
        mitigations=("cot",),
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        options=GuardOptions(checks=tuple(checks), **options),  # type: ignore[arg-type]
    )


def test_order_check_runs_on_the_base_verdict_only(tmp_path: Path) -> None:
    judge = ScriptedJudge(fn=_mixed)
    summary, records = _summarize(judge, _config(["reverse", "order"]), tmp_path)
    # 4 items x (base: 2 legs + 2 in the second order; cot: 2 legs)
    assert judge.call_count == 4 * 6
    assert summary.cost is not None and summary.cost.legs == 24
    assert all(len(r["configs"]["none"]["permuted"]) == 2 for r in records)
    assert all(r["configs"]["cot"]["permuted"] == [] for r in records)
    assert all(r["configs"]["cot"]["checks"] == ["reverse"] for r in records)


def test_order_inconsistency_and_position_bias_by_hand(tmp_path: Path) -> None:
    summary, _ = _summarize(ScriptedJudge(fn=_mixed), _config(["reverse", "order"]), tmp_path)
    checks = summary.checks
    assert checks is not None
    assert (checks.config, checks.checks, checks.verdicts, checks.scored) == (
        "none",
        ("reverse", "order"),
        4,
        4,
    )
    order = checks.order
    assert order is not None
    # p1, p2 name D in the reversed order: direct 1 − F1({A}, {D}) = 1; reverse
    # 1 − F1({B,C,D}, {A,B,C}) = 1/3; c1, c2 follow the content: 0
    assert order.direct == pytest.approx(0.5)
    assert order.reverse == pytest.approx(round(1 / 6, 4))
    assert order.inconsistency == pytest.approx(0.5)
    assert (order.changed_rate, order.flag_rate, order.verdicts) == (0.5, 0.5, 4)
    bias = {
        role: (s.answers, s.first_shown, s.expected, s.item_first)
        for role, s in checks.position_bias.items()
    }
    assert bias == {
        # c1 A, c2 B, p1 A, p2 A; one label of four: 25% expected
        "direct": (4, 0.75, 0.25, None),
        # c2 names A incorrect (right is B); p1, p2 name B, C, D
        "reverse": (4, 0.25, 0.75, None),
        # shown D C B A: p1 and p2 name the shown-first D; only c1 names the item's A
        "direct_permuted": (4, 0.5, 0.25, 0.25),
        # c1 and c2 name D incorrect; c2, p1 and p2 name the item's A
        "reverse_permuted": (4, 0.5, 0.75, 0.75),
    }


def test_flag_and_score_quality_by_hand(tmp_path: Path) -> None:
    summary, _ = _summarize(ScriptedJudge(fn=_mixed), _config(["reverse", "order"]), tmp_path)
    checks = summary.checks
    assert checks is not None
    # only p2 is wrong (it says A, gold C); p1 and p2 are flagged order_sensitive
    assert list(checks.flag_quality) == ["inconsistent", "order_sensitive", "any"]
    sensitive = checks.flag_quality["order_sensitive"]
    assert (sensitive.flagged, sensitive.unflagged, sensitive.share_flagged) == (2, 2, 0.5)
    assert (sensitive.error_rate_flagged, sensitive.error_rate_unflagged) == (0.5, 0.0)
    assert sensitive.lift is None
    # the wrong p2 against the right c1, c2 (unflagged: 2 wins) and p1 (a tie: ½)
    assert sensitive.auroc == pytest.approx(round(2.5 / 3, 4))
    assert checks.flag_quality["any"] == sensitive
    inconsistent = checks.flag_quality["inconsistent"]
    assert (inconsistent.flagged, inconsistent.error_rate_unflagged) == (0, 0.25)
    scores = checks.score_quality
    assert list(scores) == ["prin", "order_inconsistency"]
    assert scores["prin"].auroc == 0.5  # PRIN is 0 everywhere: no information
    assert scores["order_inconsistency"].auroc == pytest.approx(round(2.5 / 3, 4))
    assert [
        (p.threshold, p.coverage, p.accuracy) for p in scores["order_inconsistency"].coverage_curve
    ] == [
        (0.0, 0.5, 1.0),
        (1.0, 1.0, 0.75),
    ]


def test_a_run_without_the_order_check_still_measures_position_bias(tmp_path: Path) -> None:
    summary, _ = _summarize(ScriptedJudge(fn=_mixed), _config(["reverse"]), tmp_path)
    checks = summary.checks
    assert checks is not None and checks.checks == ("reverse",)
    dumped = checks.model_dump(mode="json")
    assert "order" not in dumped and "panel" not in dumped and "confidence" not in dumped
    assert list(checks.position_bias) == ["direct", "reverse"]
    assert list(checks.score_quality) == ["prin"]


class _ConfidentJudge:
    """Answers by ``rule``, the answer's token at a probability set per question."""

    def __init__(self, probability: Mapping[str, float], rule: Callable[[str], str]) -> None:
        self.probability = probability
        self.rule = rule

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "test", "name": "confident"}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        prompt = messages[-1]["content"]
        text = self.rule(prompt)
        p = self.probability[_question(prompt)]
        return JudgeResponse(
            text=text, tokens=(("Answer: ", 0.0), (text.removeprefix("Answer: "), math.log(p)))
        )


def test_confidence_distribution_and_its_quality(tmp_path: Path) -> None:
    records = [*RECORDS[:2], _item("c3", 3), _item("c4", 0)]
    # c3 is made wrong: its gold is moved off the right candidate
    records[2] = LabeledItem(item=records[2].item, gold=("A",), line=1)
    judge = _ConfidentJudge({"c1": 0.95, "c2": 0.6, "c3": 0.3, "c4": 0.85}, _content)
    config = _config(["reverse", "confidence"], min_confidence=0.5)
    summary, written = _summarize(judge, config, tmp_path, records)
    assert written[0]["configs"]["none"]["direct"]["confidence"] == pytest.approx(0.95)
    checks = summary.checks
    assert checks is not None and checks.confidence is not None
    confidence = checks.confidence
    assert (confidence.verdicts, confidence.legs) == (4, 8)
    assert confidence.mean == pytest.approx((0.95 + 0.6 + 0.3 + 0.85) / 4)
    assert confidence.quartiles == (0.3, 0.525, 0.725, 0.875, 0.95)
    assert confidence.histogram == (0, 0, 0, 1, 0, 0, 1, 0, 1, 1)
    assert confidence.low_rate == 0.25
    low = checks.flag_quality["low_confidence"]
    assert (low.flagged, low.error_rate_flagged, low.error_rate_unflagged) == (1, 1.0, 0.0)
    quality = checks.score_quality["confidence"]
    # the wrong c3 has the lowest confidence; accepted from the most confident down
    assert (quality.riskier, quality.auroc) == ("lower", 1.0)
    assert [(p.threshold, p.kept) for p in quality.coverage_curve] == [
        (0.95, 1),
        (0.85, 2),
        (0.6, 3),
        (0.3, 4),
    ]
    assert [p.accuracy for p in quality.coverage_curve] == [1.0, 1.0, 1.0, 0.75]


def _panel_records(tmp_path: Path) -> list[dict[str, Any]]:
    """Verdicts of a panel (two content judges, one position judge), as records."""

    def failing(rule: Callable[[str], str], on: str) -> Callable[[str], str]:
        def reply(prompt: str) -> str:
            if _question(prompt) == on:
                raise ValueError("member down")
            return rule(prompt)

        return reply

    panel = Guard(
        [
            ScriptedJudge(fn=_content, name="j1"),
            ScriptedJudge(fn=failing(_content, "c4"), name="j2"),
            ScriptedJudge(fn=failing(_position, "c3"), name="j3"),
        ],
        retry=None,
    )
    items = [_item("c1", 0), _item("c2", 2), _item("c3", 1), _item("c4", 1)]
    verdicts = [panel.check(record.item) for record in items]
    return [
        {
            "id": record.item.key,
            "labels": list(record.item.labels),
            "gold": list(record.gold),
            "gold_known": True,
            "n_options": 4,
            "configs": {"none": verdict.model_dump(mode="json")},
        }
        for record, verdict in zip(items, verdicts, strict=True)
    ]


def test_panel_agreement_is_fleiss_kappa_with_abstaining_members_left_out(tmp_path: Path) -> None:
    records = _panel_records(tmp_path)
    summary = summarize(records)
    checks = summary.checks
    assert checks is not None and checks.panel is not None
    panel = checks.panel
    assert panel.members == ("j1", "j2", "j3")
    # subjects (yes, no): c1 unanimous; c2 A (1, 2), C (2, 1); c3 without j3, unanimous;
    # c4 without j2: A (1, 1), B (1, 1). P̄ = 19/24, p(yes) = 10/40, P_e = 5/8: κ = 4/9
    assert panel.subjects == 16
    assert panel.observed_agreement == pytest.approx(round(19 / 24, 4))
    assert panel.expected_agreement == 0.625
    assert panel.kappa == pytest.approx(round(4 / 9, 4))
    assert panel.abstention_rate == pytest.approx(round(2 / 12, 4))
    # c4: one vote each way and an abstention: no majority on A or B
    assert panel.split_rate == 0.25
    assert panel.member_accuracy == {"j1": 1.0, "j2": 1.0, "j3": pytest.approx(round(1 / 3, 4))}
    assert "panel_split" in checks.flag_quality and "panel_abstention" in checks.flag_quality
    agreement = checks.score_quality["panel_agreement"]
    # c4 (wrong: nothing reported) has the lowest agreement
    assert (agreement.riskier, agreement.auroc) == ("lower", 1.0)
    assert checks.position_bias["direct"].answers == 10  # 12 members' answers, 2 failed


def test_the_runner_judges_a_panel_as_one(tmp_path: Path) -> None:
    members = [ScriptedJudge(fn=_content, name="a"), ScriptedJudge(fn=_position, name="b")]
    members.append(ScriptedJudge(fn=_content, name="c"))
    summary, records = _summarize(members, _config(["reverse", "order"]), tmp_path)
    # each member: base verdict in both orders (4 legs), cot (2 legs)
    assert [m.call_count for m in members] == [4 * 6] * 3
    assert [m["judge"] for m in records[0]["configs"]["none"]["members"]] == ["a", "b", "c"]
    # two content judges outvote the position judge: the panel is always right
    assert summary.configs["none"].methods["synergy"].accuracy == 1.0
    checks = summary.checks
    assert checks is not None and checks.panel is not None and checks.order is not None
    assert checks.panel.member_accuracy == {"a": 1.0, "b": 0.5, "c": 1.0}
    assert checks.panel.abstention_rate == 0.0
    # the position judge names the first shown in both orders, the others never move
    assert checks.position_bias["direct_permuted"].answers == 12


def test_eval_run_of_a_panel_records_its_members(tmp_path: Path) -> None:
    path = tmp_path / "toy.jsonl"
    rows = [{"id": "c1", "question": "c1", "candidates": list(TEXTS), "gold": ["A"]}]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    members = [ScriptedJudge(fn=_content, name="a"), ScriptedJudge(fn=_position, name="b")]
    result = evaluation.run(
        members,
        str(path),
        mitigations=(),
        methods=("direct", "reverse", "synergy"),
        analyses=(),
        cache="memory",
        out=tmp_path / "run",
        progress=False,
    )
    config = result.summary.run.config
    assert config is not None and config.judge is not None
    assert config.judge["kind"] == "panel" and config.judge["name"] == "panel-of-2"
    assert [m["name"] for m in config.judge["members"]] == ["a", "b"]
    assert result.summary.checks is not None and result.summary.checks.panel is not None


def test_a_panel_cannot_be_sampled(tmp_path: Path) -> None:
    config = EvalConfig(dataset="toy", mitigations=(), analyses=("paraphrase",))
    members = [ScriptedJudge(fn=_content, name="a"), ScriptedJudge(fn=_content, name="b")]
    with pytest.raises(UsageError, match=r"panel.*self_consistency, paraphrase"):
        _summarize(members, config, tmp_path)


def test_report_shows_the_checks_sections(tmp_path: Path) -> None:
    summary, _ = _summarize(ScriptedJudge(fn=_mixed), _config(["reverse", "order"]), tmp_path)
    panel = summarize(_panel_records(tmp_path))
    runs = [Run("order", tmp_path, summary), Run("panel", tmp_path, panel)]
    write_report(runs, tmp_path / "report")
    markdown = (tmp_path / "report" / "report.md").read_text()
    titles = [line for line in markdown.splitlines() if line.startswith("## ")]
    assert titles[-4:] == [
        "## Checks",
        "## Position bias",
        "## Flag quality by signal",
        "## Coverage by signal",
    ]
    assert "| order inconsistency (%) | 50.0 | – |" in markdown
    assert "| Fleiss' kappa | – | 0.444 |" in markdown
    assert "| direct, second order | order | 4 | 50.0 | 25.0 | 25.0 |" in markdown
    assert "| order_sensitive | order | 4 | 50.0 | 50.0 | 0.0 | – | 0.833 |" in markdown
    assert "| panel agreement | panel | 4 | – | – | – | – | 1.000 |" in markdown
    assert (tmp_path / "report" / "coverage_by_signal.png").is_file()


def test_the_checks_section_round_trips_through_summary_json(tmp_path: Path) -> None:
    summary, _ = _summarize(ScriptedJudge(fn=_mixed), _config(["reverse", "order"]), tmp_path)
    again = EvalSummary.model_validate_json(summary.to_json())
    assert again == summary
    assert again.to_json() == summary.to_json()


# -- the reference runs in tests/data/summary ---------------------------------------

DATA = Path(__file__).parent / "data" / "summary"
CHECK_RUNS = ("eval_checks", "eval_panel")


@pytest.mark.parametrize("name", CHECK_RUNS)
def test_summary_and_report_of_the_reference_runs_are_unchanged(name: str, tmp_path: Path) -> None:
    folder = DATA / name
    stored = (folder / "summary.json").read_text(encoding="utf-8")
    records = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    summary = summarize(records, run=json.loads(stored)["run"])
    assert summary.to_json() == stored
    assert EvalSummary.model_validate_json(stored) == summary
    write_report([load_run(folder)], tmp_path)
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == (folder / "report.md").read_text(
        encoding="utf-8"
    )
    html = re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,PNG", (tmp_path / "report.html").read_text())
    assert html == (folder / "report.html").read_text(encoding="utf-8")
    figures = json.loads((folder / "figures.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == figures


def test_a_run_without_checks_beside_one_with_them(tmp_path: Path) -> None:
    write_report([load_run(DATA / "eval_small"), load_run(DATA / "eval_checks")], tmp_path)
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    # the old run has no checks: the checks' sections show the new run only
    assert "| checks run | reverse, order, confidence |" in markdown
    assert "|  | eval_checks |" in markdown
    assert "| direct | eval_small |" not in markdown
