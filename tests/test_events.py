"""prin-guard's events: scrubbed of secrets in one place, for every event and either way
they go (the standard-library logger ``prin_guard``, or the application's structlog
pipeline), with their context bound, and at no cost when nobody listens."""

from __future__ import annotations

import logging

import pytest
import structlog
from structlog.testing import capture_logs

from prin_guard import FunctionJudge, Guard, JudgeError, Retry
from prin_guard._infra import _events as events_module
from prin_guard._infra._events import bind_context, log, reset_context
from prin_guard._infra._redact import add_secrets, redact

ITEM = {"id": "q1", "question": "What is 2 + 2?", "candidates": ["3", "5", "4"]}
PROVIDER_KEY = "sk-provider-events-0123456789"
REGISTERED = "registered-secret-0123456789"
URL = "https://svc:hunter2@llm.internal.example:8443/v1"


@pytest.fixture
def leaky_guard(monkeypatch: pytest.MonkeyPatch) -> Guard:
    """A guard whose judge fails with a message quoting every kind of secret."""
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    add_secrets([REGISTERED])

    def leaky(prompt: str) -> str:
        raise RuntimeError(
            f"upstream rejected credential {PROVIDER_KEY} ({REGISTERED}) at {URL}; "
            "Authorization: Bearer abcdefgh0123456789"
        )

    return Guard(FunctionJudge(leaky, name="leaky"), cache=None, retry=Retry(attempts=1))


def assert_clean(text: str) -> None:
    for secret in (PROVIDER_KEY, REGISTERED, "hunter2", "abcdefgh0123456789"):
        assert secret not in text, text


@pytest.fixture
def stdlib_events(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    structlog.reset_defaults()
    caplog.set_level(logging.DEBUG, logger="prin_guard")
    return caplog


def test_the_judge_error_warning_is_scrubbed_on_the_stdlib_logger(
    leaky_guard: Guard, stdlib_events: pytest.LogCaptureFixture
) -> None:
    """Issue 21, item 8: judge_error logged URL credentials and OPENAI_API_KEY in clear."""
    with pytest.raises(JudgeError):
        leaky_guard.check(ITEM)
    lines = [r.getMessage() for r in stdlib_events.records if r.name == "prin_guard"]
    errors = [line for line in lines if "judge_error" in line]
    assert errors, lines
    assert "upstream rejected credential [redacted]" in errors[0]
    assert "https://[redacted]@llm.internal.example" in errors[0]
    assert "Bearer [redacted]" in errors[0]
    for line in lines:
        assert_clean(line)


def test_the_judge_error_warning_is_scrubbed_in_a_structlog_pipeline(leaky_guard: Guard) -> None:
    with capture_logs() as captured, pytest.raises(JudgeError):
        leaky_guard.check(ITEM)
    errors = [e for e in captured if e["event"] == "judge_error"]
    assert errors
    assert "upstream rejected credential [redacted]" in str(errors[0]["error"])
    for entry in captured:
        assert_clean(repr(entry))


def test_text_inside_lists_and_dicts_is_scrubbed_for_structlog() -> None:
    add_secrets([REGISTERED])
    with capture_logs() as captured:
        log().debug("judge_prompt", messages=[{"role": "user", "content": f"x {REGISTERED}"}])
    assert captured[0]["messages"] == [{"role": "user", "content": "x [redacted]"}]


def test_bound_context_is_on_every_event_either_way(
    stdlib_events: pytest.LogCaptureFixture,
) -> None:
    token = bind_context(request_id="rid-events")
    try:
        log().info("something", item_id="a")
        with capture_logs() as captured:
            log().info("something_else")
    finally:
        reset_context(token)
    structlog.reset_defaults()  # capture_logs leaves structlog configured
    log().info("outside")
    lines = [r.getMessage() for r in stdlib_events.records if r.name == "prin_guard"]
    assert lines[0] == "event='something' request_id='rid-events' item_id='a'"
    assert lines[-1] == "event='outside'"
    assert captured == [
        {"event": "something_else", "request_id": "rid-events", "log_level": "info"}
    ]


def test_events_nobody_listens_to_are_never_scrubbed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Scrubbing happens after the level check: below it, an event costs a comparison."""
    scrubbed: list[str] = []

    def counting(text: str, *, shapes: bool = True) -> str:
        scrubbed.append(text)
        return redact(text, shapes=shapes)

    monkeypatch.setattr(events_module, "redact", counting)
    guard = Guard(FunctionJudge(lambda prompt: "Answer: C", name="quiet"), cache=None)
    structlog.reset_defaults()
    caplog.set_level(logging.WARNING, logger="prin_guard")
    guard.check(ITEM)  # judge_call, verdict (info), judge_prompt (debug): all dropped
    assert scrubbed == []
    # an application's structlog pipeline that filters at WARNING: dropped too
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    guard.check({**ITEM, "id": "q2"})
    assert scrubbed == []
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG))
    with capture_logs():
        guard.check({**ITEM, "id": "q3"})
    assert scrubbed  # listened to: scrubbed


def test_provider_keys_set_after_import_are_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    late = "sk-late-0123456789abcdef"
    assert redact(f"key {late}", shapes=False) == f"key {late}"
    monkeypatch.setenv("LATE_PROVIDER_API_KEY", late)
    assert redact(f"key {late}", shapes=False) == "key [redacted]"
    monkeypatch.setenv("LATE_PROVIDER_API_KEY", "sk-changed-0123456789")
    assert redact(f"key {late} sk-changed-0123456789", shapes=False) == f"key {late} [redacted]"
