"""One redaction for every surface (``prin_guard._infra._redact``), and what each surface writes
when a judge's failure quotes secrets: no secret in any file or line (issue 27, item 1).

The judge is ``python:leaky_judges:leaky``: its error quotes ``token=``, ``api_key=``,
``Bearer``, ``sk-`` (and ``sk-ant-``, ``sk-proj-``), an ``Authorization`` header, URL
credentials, keys shown in part (as litellm's authentication errors show them) and the
value of a ``*_TOKEN`` environment variable. The service's responses and logs are in
test_server.py, the guardrail's log in test_adapter_litellm_proxy.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import leaky_judges
import pytest
from leaky_judges import ENV_NAME, ENV_VALUE, FORMS, assert_clean

from prin_guard import Guard, InvalidItemError, JudgeError, Retry
from prin_guard._infra._redact import (
    MIN_SECRET_CHARS,
    environment_secrets,
    is_secret_variable,
    redact,
)
from prin_guard.cli import main

QUESTION = ["--question", "2 + 2?", "--candidate", "3", "--candidate", "5", "--candidate", "4"]
ITEMS = [
    {"id": f"q{n}", "question": f"{n} + 2?", "candidates": ["3", "5", str(n + 2)], "gold": "C"}
    for n in range(10, 13)
]


@pytest.fixture(autouse=True)
def leaky_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_NAME, ENV_VALUE)


# -- the function ----------------------------------------------------------------------


@pytest.mark.parametrize(("form", "quoted"), [pytest.param(f, q, id=f) for f, q in FORMS.items()])
def test_every_form_of_a_secret_is_redacted(form: str, quoted: tuple[str, str]) -> None:
    text, secret = quoted
    redacted = redact(f"the provider said: {text}. Try again.")
    assert secret not in redacted
    assert "[redacted]" in redacted
    assert redacted.startswith("the provider said: ")
    assert redact(redacted) == redacted  # twice is once


def test_the_values_of_secret_variables_are_redacted_when_they_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert redact(f"bare {ENV_VALUE} here", shapes=False) == "bare [redacted] here"
    for name in ("MY_SERVICE_TOKEN", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY", "LITELLM_MASTER_KEY"):
        value = f"{name.lower()}-v4lue"
        assert redact(f"x {value}", shapes=False) == f"x {value}"
        monkeypatch.setenv(name, value)
        assert redact(f"x {value}", shapes=False) == "x [redacted]"
    monkeypatch.setenv("TEAM_API_KEYS", "teamkey-one1,teamkey-two2")
    assert redact("teamkey-two2", shapes=False) == "[redacted]"


def test_a_secret_variable_added_as_another_leaves_is_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The environment keeps its size (one variable gone, a secret one come): the values
    # are read again all the same (CI once read a stale list after such a swap).
    monkeypatch.setenv("PRIN_GUARD_TEST_PLAIN", "nothing secret here")
    assert redact("swapped-secret-v4lue", shapes=False) == "swapped-secret-v4lue"
    monkeypatch.delenv("PRIN_GUARD_TEST_PLAIN")
    monkeypatch.setenv("PRIN_GUARD_TEST_TOKEN", "swapped-secret-v4lue")
    assert redact("swapped-secret-v4lue", shapes=False) == "[redacted]"


def test_short_values_and_variables_that_hold_no_secret_are_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert MIN_SECRET_CHARS == 8
    monkeypatch.setenv("SHORT_TOKEN", "true")
    monkeypatch.setenv("SEVEN_PASSWORD", "letmein")
    monkeypatch.setenv("JUDGE_MODEL", "gpt-4o-mini-2024")
    assert redact("true letmein gpt-4o-mini-2024") == "true letmein gpt-4o-mini-2024"
    assert environment_secrets(
        {"PWD": "/home/someone/work", "OLDPWD": "/tmp/elsewhere", "X_TOKEN": "12345678"}
    ) == ("12345678",)
    secret = ("HF_TOKEN", "GITHUB_PAT", "AWS_SECRET_ACCESS_KEY", "PGPASSWORD", "api_key")
    for name in secret:
        assert is_secret_variable(name), name
    for name in ("TOKENIZERS_PARALLELISM", "JUDGE_MODEL", "KEYBOARD", "PWD", "OLDPWD"):
        assert not is_secret_variable(name), name


def test_ordinary_words_about_tokens_and_keys_stay() -> None:
    text = "max_tokens=512, prompt_tokens: 30, the secret of **bold** text, a@b.example"
    assert redact(text) == text
    prose = (
        "Authorization failed for 10.0.0.1; the signature of f(x) and your credentials "
        "are fine; a private key is private; an hf_ prefix; ghp_short"
    )
    assert redact(prose) == prose


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        pytest.param("Authorization: Custom Cs3Secret99", "Authorization: Custom ", id="custom"),
        pytest.param(
            "authorization=AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/x",
            "authorization=AWS4-HMAC-SHA256 ",
            id="aws4",
        ),
    ],
)
def test_an_authorization_keeps_its_scheme_word_and_loses_its_secret(text: str, kept: str) -> None:
    """Issue 37, item 7: an unknown scheme's word was redacted and its secret kept."""
    redacted = redact(text)
    assert redacted.startswith(f"{kept}[redacted]"), redacted
    assert "Cs3Secret99" not in redacted and "AKIAIOSFODNN7EXAMPLE" not in redacted


def test_tokens_detect_secrets_knows_are_redacted_wherever_they_stand() -> None:
    """A maintained set of token formats (detect-secrets' detectors) rather than ours."""
    tokens = [
        "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",  # Slack
        "glpat-AbCdEfGhIjKlMnOpQrSt",  # GitLab
        "AKIAIOSFODNN7EXAMPLE",  # an AWS access key id
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ]
    for token in tokens:
        redacted = redact(f"upstream said ({token}) twice: {token}")
        assert token not in redacted, token
        assert redacted.startswith("upstream said (")


def test_a_prin_guard_error_is_redacted_as_it_is_made() -> None:
    error = JudgeError(leaky_judges.message())
    assert_clean(str(error), "str(JudgeError)")
    assert_clean(repr(error), "repr(JudgeError)")
    invalid = InvalidItemError("question", f"quotes {ENV_VALUE}")
    assert invalid.reason == "quotes [redacted]"
    assert str(invalid) == "question: quotes [redacted]"


def test_a_litellm_authentication_error_quoting_part_of_the_key_is_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The provider's 401 as OpenAI words it, through litellm: the key shown in part."""
    from fault_server import FaultServer, error

    from prin_guard.judges import LiteLLMJudge

    key = "sk-proj-Lt5Ndl" + "x" * 30 + "Qk7Yz"
    shown = "sk-proj-Lt5Ndl" + "*" * 20 + "Qk7Yz"
    monkeypatch.setenv("OPENAI_API_KEY", "unrelated-key-0000")

    def unauthorized(request: object) -> object:
        return error(401, f"Incorrect API key provided: {shown}.", kind="invalid_request_error")

    with FaultServer(unauthorized) as server:
        judge = LiteLLMJudge("openai/test", api_base=server.base_url, api_key=key)
        guard = Guard(judge, cache=None, retry=Retry(attempts=1))
        with pytest.raises(JudgeError) as caught:
            guard.check({"question": "2 + 2?", "candidates": ["3", "4"]})
    text = str(caught.value)
    assert "Incorrect API key provided: [redacted]" in text
    for part in ("Lt5Ndl", "Qk7Yz", key):
        assert part not in text


# -- every surface ---------------------------------------------------------------------


def test_check_prints_no_secret_on_stderr_nor_in_a_panels_abstain_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", *QUESTION, "--judge", "python:leaky_judges:leaky"]) == 2
    single = capsys.readouterr()
    assert "prin-guard: error: " in single.err and "upstream refused the call" in single.err
    assert_clean(single.out + single.err, "check's stdout and stderr")

    panel = ["--panel", "python:leaky_judges:leaky", "--panel", "python:leaky_judges:honest"]
    assert main(["-v", "check", *QUESTION, *panel]) == 0
    printed = capsys.readouterr()
    assert "abstains: judge error" in printed.out
    assert "upstream refused the call" in printed.out
    assert_clean(printed.out + printed.err, "check's panel lines")

    assert main(["check", *QUESTION, *panel, "--json"]) == 0
    assert_clean(capsys.readouterr().out, "check --json")


@pytest.mark.parametrize("suffix", ["jsonl", "csv", "parquet"])
def test_grades_error_column_holds_no_secret(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = tmp_path / "in.jsonl"
    given.write_text("".join(json.dumps(item) + "\n" for item in ITEMS))
    out = tmp_path / f"out.{suffix}"
    args = ["grade", str(given), "--out", str(out), "--no-progress"]
    assert main([*args, "--judge", "python:leaky_judges:leaky"]) == 0
    printed = capsys.readouterr()
    assert_clean(printed.out + printed.err, "grade's output")
    written = [path for path in tmp_path.rglob("*") if path.is_file() and path != given]
    assert written
    for path in written:
        assert_clean(path.read_bytes().decode("latin-1"), str(path))
    if suffix == "parquet":
        import pyarrow.parquet as pq

        errors = pq.read_table(out).column("error").to_pylist()
    elif suffix == "csv":
        import csv

        errors = [row["error"] for row in csv.DictReader(out.open())]
    else:
        errors = [json.loads(line)["error"] for line in out.read_text().splitlines()]
    assert len(errors) == 3
    for text in errors:
        assert "upstream refused the call" in text
        assert_clean(text, f"the error column of {out.name}")


@pytest.mark.parametrize(
    "who",
    [
        pytest.param(["--judge", "python:leaky_judges:leaky"], id="judge"),
        pytest.param(
            ["--panel", "python:leaky_judges:leaky", "--panel", "python:leaky_judges:honest"],
            id="panel",
        ),
    ],
)
def test_evals_four_files_hold_no_secret(
    who: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "mine.jsonl"
    data.write_text("".join(json.dumps(item) + "\n" for item in ITEMS))
    fast = ["--analyses", "none", "--methods", "direct,reverse,synergy", "--mitigation", "none"]
    run = tmp_path / "run"
    args = ["eval", str(data), *who, "--cache", "memory", "--out", str(run), *fast]
    assert main(args) == 0
    printed = capsys.readouterr()
    assert_clean(printed.out + printed.err, "eval's output")
    files = {
        name: (run / name).read_text()
        for name in ("items.jsonl", "summary.json", "report.md", "report.html")
    }
    for name, text in files.items():
        assert_clean(text, name)
    assert "upstream refused the call" in files["items.jsonl"]
    if who[0] == "--judge":  # every item failed: the reports list the failures
        for name in ("summary.json", "report.md", "report.html"):
            assert "upstream refused the call" in files[name], name


def test_prose_about_a_signature_or_credential_is_not_redacted() -> None:
    from prin_guard._infra._redact import redact

    text = "signature: does not match the file's content; credential: none given"
    assert redact(text) == text
    aws = redact("X-Amz Signature=abc123def456 Credential=AKIAIOSFODNN7EXAMPLE/x")
    assert "abc123def" not in aws and "AKIAIOSFODNN7EXAMPLE" not in aws
