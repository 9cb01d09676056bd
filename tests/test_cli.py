from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from prin_guard.cli import main
from prin_guard.judges import judge_from_spec


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "check" in out
    assert "demo" in out


def test_bad_input_fails_fast_with_field_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--question", " ", "--candidate", "7", "--candidate", "8"])
    assert code == 2
    assert "question: must not be empty" in capsys.readouterr().err


def test_single_candidate_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--question", "q", "--candidate", "7"]) == 2
    assert "candidates: needs at least two candidates" in capsys.readouterr().err


def test_max_candidates_bounds_the_candidates_before_any_judge_is_loaded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["check", "--question", "q", "--candidate", "7", "--candidate", "8"]
    # the default judge is a local model: failing before it loads proves the order
    assert main([*args, "--candidate", "9", "--max-candidates", "2"]) == 2
    assert "candidates: has 3 candidates; the limit is 2 (max_candidates)" in (
        capsys.readouterr().err
    )
    assert main([*args, "--max-candidates", "1"]) == 2
    assert "max_candidates: Input should be greater than or equal to 2" in capsys.readouterr().err


def test_unknown_judge_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["check", "--question", "q", "--candidate", "7", "--candidate", "8", "--judge", "gpt-17"]
    )
    assert code == 2
    assert "--judge: unknown judge 'gpt-17'" in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "prin-guard" in out.stdout


# -- the same judge spellings and options in every command ------------------------------

JUDGE_MODULE = """
def judge(prompt: str) -> str:
    # always A: consistent when the reverse answer names every other option
    if "incorrect" in prompt:
        letters = [c for c in "BCDE" if f'"{c})' in prompt]
        return "Answer: " + ", ".join(letters)
    return "Answer: A"


def make():
    return judge


def contradict(prompt: str) -> str:
    # "A" to both questions: PRIN 1
    return "Answer: A"


def rater(prompt: str) -> str:
    # 8 of 10, and 3 on the mirrored scale: the same rating
    return "Rating: [[3]]" if "how poor the response" in prompt else "Rating: [[8]]"
"""


@pytest.fixture
def python_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "cli_test_judge.py").write_text(JUDGE_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return "python:cli_test_judge:make"


def test_check_takes_a_python_factory_judge(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--question", "2 + 2?", "--candidate", "4", "--candidate", "5"]
    assert main([*args, "--judge", python_judge, "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["correct"] == ["A"]
    assert verdict["flags"] == []


def test_check_rates_a_response_on_a_scale(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--task", "rating", "--question", "Capital of France?"]
    args += ["--response", "Paris.", "--judge", "python:cli_test_judge:rater"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rating: 8 on 1-10\n")
    # what each leg said, the score read from it, and what the verdict cost (issue 39)
    assert "  Direct leg (rating, " in out and "): 'Rating: [[8]]'\n    score 8\n" in out
    assert "): 'Rating: [[3]]'\n    score 3 on the mirrored scale (1 = excellent, 10 = " in out
    assert "very poor): 8 read back" in out and "Flags: none" in out
    assert "  Cost: judge calls 2; tokens unknown; cost unknown; guard premium unknown" in out
    assert main([*args, "--scale", "1-5", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["rating"], verdict["flags"]) == (None, ["unparseable_direct"])
    assert main([*args, "--scale", "5-1"]) == 2
    assert "scale.max: must be above min" in capsys.readouterr().err
    assert main([*args, "--candidate", "x"]) == 2
    assert "--candidate: a rating has no candidates" in capsys.readouterr().err
    # a rating pack, by its id; one whose fields the item lacks names the field
    assert main([*args, "--template", "mt-bench-single", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["rating"], verdict["direct"]["template"]) == (8.0, "mt-bench-single")
    assert main([*args, "--template", "prometheus-absolute", "--scale", "1-5"]) == 2
    assert "scale.rubric: required" in capsys.readouterr().err


def test_check_of_a_checklist_without_a_question_shows_the_response_as_such(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--task", "checklist", "--response", "Paris is the capital."]
    args += ["--candidate", "Names Paris", "--candidate", "Is long"]
    assert main([*args, "--judge", "python:cli_test_judge:contradict"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Response: Paris is the capital.\n")
    assert "Question:" not in out


def test_check_takes_a_checklist_of_claims(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--task", "checklist", "--kind", "claims", "--response", "Paris is big."]
    args += ["--candidate", "Paris is big", "--judge", "python:cli_test_judge:contradict"]
    assert main([*args, "--json"]) == 2
    assert "context: claims are checked against sources" in capsys.readouterr().err
    assert main([*args, "--context", "Paris has 2M people.", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["direct"]["template"] == "claims"


def test_the_demo_names_the_template_its_items_are_asked_in(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--limit", "1", "--judge", python_judge]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "template v0." in first and "None" not in first  # was "template None"


def test_check_with_a_panel_and_the_order_check(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--question", "2 + 2?", "--candidate", "4", "--candidate", "5"]
    # two spellings of one judge: a factory and the function itself
    panel = ["--panel", python_judge, "--panel", "python:cli_test_judge:judge"]
    assert main([*args, *panel, "--checks", "reverse,order", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert [m["judge"] for m in verdict["members"]] == [python_judge, "python:cli_test_judge:judge"]
    # always "A": the second order shows "5" first, so both members are order sensitive
    assert verdict["scores"]["order_inconsistency"] == 1.0
    assert "order_sensitive" in verdict["flags"]
    assert main([*args, "--panel", python_judge]) == 2
    assert "panel: a panel needs at least two judges" in capsys.readouterr().err


def test_check_with_an_acceptance_file_and_a_cascade(
    python_judge: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard import Acceptance
    from prin_guard._route._acceptance import Rule, Tier, binomial_cdf

    cheap, strong = "python:cli_test_judge:contradict", python_judge
    options = {"template": "v0", "mitigations": [], "policy": "synergy", "checks": ["reverse"]}
    # of 200 tested items, the cheap tier accepted 100 and the strong one 50 of the rest
    tiers = tuple(
        Tier(
            judge=dict(judge_from_spec(spec).identity()),  # with its source
            options=options,
            rule=Rule(signal="prin", threshold=0.0),
            asked=asked,
            accepted=accepted,
        )
        for spec, asked, accepted in ((cheap, 1.0, 0.5), (strong, 0.5, 0.25))
    )
    calibrated = Acceptance(
        alpha=0.1,
        delta=0.1,
        n=300,
        tested=200,
        accepted=150,
        errors=1,
        coverage=0.75,
        p_value=binomial_cdf(1, 150, 0.1),
        method="pareto_fixed_sequence",
        signals_tested=("prin",),
        tiers=tiers,
        calibration_sha256="0" * 64,
    )
    calibrated.save(tmp_path / "cascade.json")
    args = ["check", "--question", "2 + 2?", "--candidate", "4", "--candidate", "5", "--json"]
    cascade = ["--tier", cheap, "--tier", strong, "--acceptance", "cascade.json"]
    assert main([*args, *cascade]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["decision"]["accepted"] is True
    assert verdict["decision"]["tier"] == 1
    assert verdict["judge_calls"] == 4
    # without --json, the decision is the last line: accepted or not, the rule, the
    # score, the tier (issue 21 item 24)
    assert main([*args[:-1], *cascade]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert (
        printed[-1] == "Decision: accepted by the rule prin <= 0.0 (score 0, tier 1, 2 tiers asked)"
    )
    # calibrated for two tiers: one judge alone is refused, naming the field
    assert main([*args, "--judge", strong, "--acceptance", "cascade.json"]) == 2
    assert "acceptance: calibrated for 2 tiers" in capsys.readouterr().err


def test_eval_and_probe_take_the_same_python_judge(python_judge: str, tmp_path: Path) -> None:
    fast = ["--analyses", "none", "--methods", "direct,reverse,synergy", "--mitigation", "none"]
    common = ["--limit", "3", "--judge", python_judge, "--cache", "memory"]
    assert main(["eval", "mathqa", *common, *fast, "--out", "e"]) == 0
    summary = json.loads((tmp_path / "e" / "summary.json").read_text())
    assert summary["items_judged"] == 3
    assert summary["configs"]["none"]["prin"] == 0.0
    assert summary["run"]["config"]["judge"] == dict(judge_from_spec(python_judge).identity())
    assert summary["run"]["config"]["judge"]["name"] == python_judge
    assert main(["probe", "mathqa", *common, "--type", "closed", "--out", "p"]) == 0
    probe = json.loads((tmp_path / "p" / "summary.json").read_text())
    assert probe["items_judged"] == 3
    assert list(probe["by_type"]) == ["closed"]


def test_eval_passes_the_guard_options_to_every_guard(python_judge: str, tmp_path: Path) -> None:
    # --policy and --threshold reach the eval's guards (they were ignored before)
    fast = ["--analyses", "none", "--methods", "direct,reverse,synergy", "--mitigation", "none"]
    args = ["--limit", "2", "--judge", python_judge, "--cache", "memory", *fast]
    assert main(["eval", "mathqa", *args, "--policy", "direct", "--threshold", "0.5"]) == 0
    items = next((tmp_path / "runs").rglob("items.jsonl"))
    record = json.loads(items.read_text().splitlines()[0])
    verdict = record["configs"]["none"]
    assert verdict["policy"] == "direct"
    assert verdict["threshold"] == 0.5


@pytest.mark.parametrize("spelling", ["neg-exp", "neg_exp", "NEG-EXP"])
def test_mitigation_spellings_are_one(
    python_judge: str, spelling: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--question", "2 + 2?", "--candidate", "4", "--candidate", "5"]
    assert main([*args, "--judge", python_judge, "--mitigation", spelling, "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["reverse"]["mitigations"] == ["neg_exp"]


def test_a_bad_option_names_the_field(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["check", "--question", "2 + 2?", "--candidate", "4", "--candidate", "5"]
    assert main([*args, "--judge", python_judge, "--mitigation", "magic"]) == 2
    assert "mitigations: unknown mitigation 'magic'" in capsys.readouterr().err


# -- papercuts a new user hit (issue 37) -------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
ITEM = ["--question", "2 + 2?", "--candidate", "4", "--candidate", "5"]


@pytest.mark.parametrize(
    ("command", "status"),
    [
        pytest.param(
            ["check", *ITEM, "--judge", "python:cli_test_judge:make", "--json"], 141, id="json"
        ),
        pytest.param(["check", *ITEM, "--judge", "python:cli_test_judge:make"], 141, id="text"),
        pytest.param(["prompts", "--item", "item.json"], 141, id="prompts"),
        pytest.param(["--help"], 0, id="help"),  # argparse drops its own failed writes
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(
    command: list[str], status: int, tmp_path: Path
) -> None:
    # `prin-guard check ... --json | head`: the reader is gone before the output is
    # written (its end of the pipe closed first, so every write fails, every time)
    import os

    (tmp_path / "cli_test_judge.py").write_text(JUDGE_MODULE)
    (tmp_path / "item.json").write_text(
        json.dumps({"question": "2 + 2?", "candidates": ["4", "5"]})
    )
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "prin_guard.cli", *command],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=300,
        )
    finally:
        os.close(write)
    assert done.stderr == ""  # no BrokenPipeError traceback, no "Exception ignored"
    assert done.returncode == status


def test_fail_on_flag_exits_1_on_a_flagged_verdict(
    python_judge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    contradicts = [*ITEM, "--judge", "python:cli_test_judge:contradict", "--json"]
    assert main(["check", *contradicts]) == 0  # without the option: a verdict is a result
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["flags"] == ["inconsistent", "empty_verdict"]
    assert main(["check", *contradicts, "--fail-on-flag"]) == 1
    assert "inconsistent" in json.loads(capsys.readouterr().out)["flags"]  # still printed
    assert main(["check", *contradicts, "--fail-on-flag", "inconsistent,order_sensitive"]) == 1
    assert main(["check", *contradicts, "--fail-on-flag", "order-sensitive"]) == 0
    assert main(["check", *ITEM, "--judge", python_judge, "--fail-on-flag"]) == 0  # clean
    capsys.readouterr()
    assert main(["check", *contradicts, "--fail-on-flag", "inconsistnet"]) == 2
    assert "--fail-on-flag: unknown flag 'inconsistnet'; known: any, inconsistent" in (
        capsys.readouterr().err
    )
    # a rating, flagged for the legs that cannot be read on 1-5
    rating = ["check", "--task", "rating", "--question", "Capital?", "--response", "Paris."]
    rating += ["--judge", "python:cli_test_judge:rater", "--scale", "1-5", "--fail-on-flag"]
    assert main(rating) == 1


def test_grade_fails_on_a_flagged_row(python_judge: str, tmp_path: Path) -> None:
    rows = [{"question": "2 + 2?", "candidates": ["4", "5"], "id": str(n)} for n in range(2)]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["grade", "in.jsonl", "--no-progress", "--judge", "python:cli_test_judge:contradict"]
    assert main([*args, "--out", "a.jsonl"]) == 0
    assert main([*args, "--out", "b.jsonl", "--fail-on-flag"]) == 1
    assert main([*args, "--out", "c.jsonl", "--fail-on-flag", "judge_error"]) == 0
    # resumed rows were judged by an earlier run: nothing of this run is flagged
    assert main([*args, "--out", "b.jsonl", "--fail-on-flag"]) == 0


def test_docs_cli_is_the_reference_the_parser_gives() -> None:
    from prin_guard.cli import _parser
    from prin_guard.cli._common import EXIT_CODES
    from prin_guard.cli._reference import main as reference

    assert reference(["--check"]) == 0, "docs/cli.md differs from the parser: make cli-docs"
    page = (ROOT / "docs" / "cli.md").read_text()
    # every command and every flag is on the page, and every exit status
    (commands,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    for name, command in commands.choices.items():
        assert f"## prin-guard {name}\n" in page
        section = page.split(f"## prin-guard {name}\n")[1].split("\n## ")[0]
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue  # -h on every command, said once above
            for option in action.option_strings:
                assert f"`{option}" in section or f", {option}" in section, (name, option)
    for code in EXIT_CODES:
        assert f"- `{code}`: " in page


def test_a_demo_of_a_local_model_says_it_is_loading(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from prin_guard import Guard, GuardConfig
    from prin_guard.judges import ScriptedJudge

    built: list[str] = []

    def build(self: GuardConfig, **_: object) -> Guard:
        built.append(self.judge)  # what loads the model: the guard's judges
        return Guard(ScriptedJudge("Answer: A", "Answer: B, C, D, E"))

    monkeypatch.setattr(GuardConfig, "build", build)
    assert main(["demo", "--limit", "1"]) == 0
    err = capsys.readouterr().err
    assert built == ["local"]
    assert "prin-guard: loading the model of local ...\n" in err
    assert "prin-guard: model loaded in " in err
    assert main(["demo", "--limit", "1", "--judge", "python:nowhere:judge"]) == 0
    assert "loading the model" not in capsys.readouterr().err


def test_fail_on_flag_does_not_take_the_input_file(
    python_judge: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # nargs="?" would take in.jsonl as the flag list and then say INPUT is missing
    rows = [{"question": "2 + 2?", "candidates": ["4", "5"], "id": "0"}]
    (tmp_path / "in.jsonl").write_text(json.dumps(rows[0]) + "\n")
    judge = ["--judge", "python:cli_test_judge:contradict", "--no-progress"]
    with pytest.raises(SystemExit) as exited:
        main(["grade", "--fail-on-flag", "in.jsonl", "--out", "o.jsonl", *judge])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "'in.jsonl' is not a list of flag names" in error
    assert "required: INPUT" not in error
    assert main(["grade", "--fail-on-flag=any", "in.jsonl", "--out", "o.jsonl", *judge]) == 1
