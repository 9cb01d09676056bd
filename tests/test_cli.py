from __future__ import annotations

import subprocess
import sys

import pytest

from prin_guard.cli import main


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
