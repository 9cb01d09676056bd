"""prin_guard._output._terminal: plain output for logs and pipes, rich output on a terminal.

The plain forms are pinned to concrete strings: CI logs and tools read them. They
are the forms the command line printed before this module (the progress line is
also compared with the evaluation runner's own, while that one exists).
"""

from __future__ import annotations

import io
import subprocess
import sys
import time
from typing import Any

import pytest

import prin_guard
from prin_guard import Flag, Verdict
from prin_guard._output import _terminal as terminal
from prin_guard._output._terminal import (
    Progress,
    eval_summary_text,
    print_eval_summary,
    print_probe_table,
    print_verdict,
    probe_table,
    render_verdict,
)
from prin_guard.models import Decision


class FakeTTY(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """A hand-moved time.monotonic()."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(time, "monotonic", fake)  # read by both Progress classes
    return fake


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # rich sizes a console that is not a real terminal from COLUMNS (else 80)
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.delenv("NO_COLOR", raising=False)


# ------------------------------------------------------------------ progress, plain


def test_plain_progress_writes_a_line_at_most_every_five_seconds_and_at_the_end(
    clock: Clock,
) -> None:
    stream = io.StringIO()
    progress = Progress(10, stream=stream)
    for step, prin in enumerate([0.0, 1.0, None, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]):
        clock.now = 1000.0 + 2 * (step + 1)  # an item every 2 s
        progress.update(prin)
    progress.close()
    assert stream.getvalue().splitlines() == [
        "[ 1/10]  10%  elapsed 2s  ETA 18s  PRIN 0.000",
        "[ 4/10]  40%  elapsed 8s  ETA 12s  PRIN 0.500",
        "[ 7/10]  70%  elapsed 14s  ETA 6s  PRIN 0.250",
        "[10/10] 100%  elapsed 20s  ETA 0s  PRIN 0.167",
    ]
    assert (progress.total, progress.done) == (10, 10)
    assert progress.prin == pytest.approx(1.5 / 9)


def test_plain_progress_without_prin_and_with_a_label(clock: Clock) -> None:
    stream = io.StringIO()
    with Progress(3, stream=stream, show_prin=False, label="probe") as progress:
        for _ in range(3):
            clock.now += 75
            progress.update(None)
    assert stream.getvalue().splitlines() == [
        "probe [1/3]  33%  elapsed 1m15s  ETA 2m30s",
        "probe [2/3]  67%  elapsed 2m30s  ETA 1m15s",
        "probe [3/3] 100%  elapsed 3m45s  ETA 0s",
    ]


def test_plain_progress_close_reports_where_an_interrupted_run_stopped(clock: Clock) -> None:
    stream = io.StringIO()
    progress = Progress(100, stream=stream)
    for _ in range(3):
        clock.now += 1
        progress.update(1.0)
    progress.close()
    progress.close()  # a second close writes nothing more
    assert stream.getvalue().splitlines() == [
        "[  1/100]   1%  elapsed 1s  ETA 1m39s  PRIN 1.000",
        "[  3/100]   3%  elapsed 3s  ETA 1m37s  PRIN 1.000",
    ]


def test_plain_progress_close_after_the_last_line_writes_nothing(clock: Clock) -> None:
    stream = io.StringIO()
    with Progress(2, stream=stream) as progress:
        progress.update(None)
        progress.update(None)
    assert stream.getvalue().splitlines() == [
        "[1/2]  50%  elapsed 0s  ETA 0s  PRIN -",
        "[2/2] 100%  elapsed 0s  ETA 0s  PRIN -",
    ]


def test_plain_progress_durations_in_hours(clock: Clock) -> None:
    stream = io.StringIO()
    progress = Progress(2, stream=stream, show_prin=False)
    clock.now += 2 * 3600 + 5 * 60 + 7
    progress.update(None)
    assert stream.getvalue() == "[1/2]  50%  elapsed 2h05m  ETA 2h05m\n"


def test_progress_defaults_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress(1)
    progress.update(0.25)
    progress.close()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("[1/1] 100%  elapsed ")
    assert captured.err.endswith("  PRIN 0.250\n")


# ---------------------------------------------------------------- progress, rich


def test_progress_on_a_terminal_draws_a_rich_bar() -> None:
    stream = FakeTTY()
    with Progress(4, stream=stream, label="eval") as progress:
        assert progress._bar is not None
        for prin in (1.0, 0.0, None, 0.5):
            progress.update(prin)
        assert progress._bar.finished
    out = stream.getvalue()
    assert "\x1b[" in out  # drawn with terminal control sequences, not plain lines
    assert "eval" in out
    assert "4/4" in out
    assert "PRIN 0.500" in out
    assert "elapsed" in out
    assert "ETA" in out
    assert "[4/4]" not in out  # not the plain form
    assert progress.done == 4


def test_rich_progress_without_prin_and_closed_early() -> None:
    stream = FakeTTY()
    progress = Progress(10, stream=stream, show_prin=False)
    progress.update(0.5)
    progress.close()
    progress.close()
    progress.update(0.5)  # after close: counted, not drawn
    out = stream.getvalue()
    assert "1/10" in out
    assert "PRIN" not in out
    assert progress.done == 2


# -------------------------------------------------------------------------- verdicts


def _verdict(
    direct: str, reverse: str, latency_ms: float = 1234.0, flags: tuple[Flag, ...] = ()
) -> tuple[Verdict, list[str]]:
    """A real verdict from a scripted judge, with fixed leg latencies and flags.

    The flags are set here so that these tests pin the rendering, not the guard's
    flagging rules.
    """

    @prin_guard.guard
    def judge(prompt: str) -> str:
        return reverse if "incorrect" in prompt else direct

    texts = ["7", "8", "9", "10", "[11] (the *largest*)"]
    verdict = judge.check(
        {"question": "If 101 n^2 is at most 10000,\n what is the greatest n?", "candidates": texts}
    )
    assert verdict.direct is not None
    assert verdict.reverse is not None
    verdict = verdict.model_copy(
        update={
            "direct": verdict.direct.model_copy(update={"latency_ms": latency_ms}),
            "reverse": verdict.reverse.model_copy(update={"cached": True}),
            "flags": flags,
        }
    )
    return verdict, texts


INCONSISTENT = """\
Question: If 101 n^2 is at most 10000, what is the greatest n?

  label  candidate             direct    reverse    verdict
  A      7                     -         -          contradicted
  B      8                     -         -          contradicted
  C      9                     correct   incorrect  contradicted
  D      10                    -         incorrect  
  E      [11] (the *largest*)  -         incorrect  

Direct  leg (v0, 1.23 s): 'Answer: C'
        read as {C} (ok, declared)
Reverse leg (v0, cache): 'Answer: C, D, E'
        read as {C, D, E} (ok, declared)
Reverse leg implies correct: {A, B}
PRIN 1.000: INCONSISTENT
Flags: inconsistent
Verdict (synergy): (none)
Cost: judge calls 1; tokens unknown; cost unknown; answers from prin-guard's cache 1; \
guard premium unknown (no prices)"""  # noqa: W291 - the table pads its last column


def test_render_verdict_plain_text() -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E", flags=(Flag.INCONSISTENT,))
    assert render_verdict(verdict, verdict_question(), texts) == INCONSISTENT


def verdict_question() -> str:
    return "If 101 n^2 is at most 10000,\n what is the greatest n?"


def test_render_verdict_consistent_and_long_candidates() -> None:
    verdict, _ = _verdict("Answer: C", "Answer: A, B, D, E", latency_ms=0.0)
    texts = ["x" * 50, "8", "9", "10", "11"]
    text = render_verdict(verdict, "q", texts)
    assert f"  A      {'x' * 39}…  -         incorrect  \n" in text
    assert "  C      9" + " " * 39 + "  correct   -          CORRECT\n" in text
    assert "Direct  leg (v0, 0.00 s): 'Answer: C'" in text
    assert (
        "Reverse leg implies correct: {C}\nPRIN 0.000: consistent\nFlags: none\n"
        "Verdict (synergy): C\nCost: "
    ) in text


def test_print_verdict_is_plain_off_a_terminal() -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E", flags=(Flag.INCONSISTENT,))
    stream = io.StringIO()
    print_verdict(verdict, verdict_question(), texts, stream)
    assert stream.getvalue() == INCONSISTENT + "\n"


def test_print_verdict_defaults_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E", flags=(Flag.INCONSISTENT,))
    print_verdict(verdict, verdict_question(), texts)
    assert capsys.readouterr().out == INCONSISTENT + "\n"


def test_print_verdict_draws_a_table_on_a_terminal() -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E", flags=(Flag.INCONSISTENT,))
    stream = FakeTTY()
    print_verdict(verdict, verdict_question(), texts, stream)
    out = stream.getvalue()
    assert "\x1b[" in out
    assert "━" in out or "─" in out  # a drawn table, not the padded text one
    assert "Question: If 101 n^2 is at most 10000, what is the greatest n?" in out
    # bracketed candidate text is shown as it is, not read as rich markup
    assert "[11] (the *largest*)" in out
    assert "PRIN 1.000: INCONSISTENT" in out
    assert "Verdict (synergy): (none)" in out
    assert "  label  candidate" not in out


@pytest.mark.parametrize(
    ("decision", "line"),
    [
        pytest.param(
            Decision(accepted=True, score=0.0, rule="prin <= 0.5"),
            "Decision: accepted by the rule prin <= 0.5 (score 0, tier 0)",
            id="accepted",
        ),
        pytest.param(
            Decision(accepted=False, score=1.0, rule="prin <= 0.0", tier=1, tiers_asked=2),
            "Decision: not accepted by the rule prin <= 0.0 (score 1, tier 1, 2 tiers asked)",
            id="cascade-not-accepted",
        ),
        pytest.param(
            Decision(accepted=False, score=None, rule="confidence >= 0.93"),
            "Decision: not accepted by the rule confidence >= 0.93 (score missing, tier 0)",
            id="signal-missing",
        ),
        pytest.param(
            Decision(accepted=True, score=1 / 3, rule="prin <= 0.99999999"),
            "Decision: accepted by the rule prin <= 0.99999999 (score 0.3333333333, tier 0)",
            id="long-score",
        ),
    ],
)
def test_a_verdict_with_a_decision_ends_with_it(decision: Decision, line: str) -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E", flags=(Flag.INCONSISTENT,))
    decided = verdict.model_copy(update={"decision": decision})
    assert render_verdict(decided, verdict_question(), texts) == INCONSISTENT + "\n" + line
    stream = FakeTTY()
    print_verdict(decided, verdict_question(), texts, stream)
    assert line in stream.getvalue()


# ------------------------------------------------------------------------- summaries


EVAL_SUMMARY: dict[str, Any] = {
    "items": 20,
    "items_judged": 18,
    "run": {"partial": True},
    "configs": {
        "none": {
            "prin": 0.25,
            "methods": {
                "direct": {"accuracy": 0.5},
                "reverse": {"accuracy": 0.4444},
                "synergy": {"accuracy": None},
            },
        },
        "cot+neg_exp": {
            "prin": 0.0,
            "methods": {
                "direct": {"accuracy": 1.0},
                "reverse": {"accuracy": 0.75},
                "synergy": {"accuracy": 0.8},
            },
        },
    },
    "self_consistency": {"samples": 5, "accuracy": 0.6},
    "flag_quality": {
        "inconsistent_flag": {"error_rate_flagged": 0.9, "error_rate_unflagged": 0.125}
    },
}

EVAL_TEXT = """\
items judged: 18 of 20 (partial run)
  none          PRIN  25.0%   accuracy: direct 50.0%, reverse 44.4%, synergy -
  cot+neg_exp   PRIN   0.0%   accuracy: direct 100.0%, reverse 75.0%, synergy 80.0%
  self-consistency (k=5) accuracy 60.0%
  error rate: flagged inconsistent 90.0%, not flagged 12.5%"""

MINIMAL_EVAL_SUMMARY: dict[str, Any] = {"items": 3, "items_judged": 0, "configs": {}}

PROBE_SUMMARY: dict[str, Any] = {
    "items": 10,
    "items_judged": 9,
    "by_type": {
        "closed": {
            "accuracy_before": 0.5,
            "modification": 0.3333,
            "modification_rate": 0.6667,
            "e_to_r_rate": None,
        },
        "leading": {
            "accuracy_before": 1.0,
            "modification": 0.0,
            "modification_rate": 0.0,
            "e_to_r_rate": 0.25,
        },
    },
    "by_round": {},
}

PROBE_TEXT = """\
items judged: 9 of 10
follow-up   Before      M.  M. Rate    E->R
closed       50.00   33.33    66.67       -
leading     100.00    0.00     0.00   25.00"""

PROGRESSIVE_SUMMARY: dict[str, Any] = {
    "items": 2,
    "items_judged": 2,
    "by_type": {},
    "by_round": {
        "round 1": {
            "accuracy_before": 0.5,
            "modification": 0.5,
            "modification_rate": 1.0,
            "e_to_r_rate": 1.0,
        }
    },
}


def test_eval_summary_text() -> None:
    assert eval_summary_text(EVAL_SUMMARY) == EVAL_TEXT
    assert eval_summary_text(MINIMAL_EVAL_SUMMARY) == "items judged: 0 of 3"


def test_probe_table_text() -> None:
    assert probe_table(PROBE_SUMMARY) == PROBE_TEXT
    assert probe_table(PROGRESSIVE_SUMMARY).splitlines()[-1] == (
        "round 1      50.00   50.00   100.00  100.00"
    )


def test_summaries_are_plain_off_a_terminal() -> None:
    stream = io.StringIO()
    print_eval_summary(EVAL_SUMMARY, stream)
    print_probe_table(PROBE_SUMMARY, stream)
    assert stream.getvalue() == EVAL_TEXT + "\n" + PROBE_TEXT + "\n"


def test_eval_summary_on_a_terminal_is_a_table() -> None:
    stream = FakeTTY()
    print_eval_summary(EVAL_SUMMARY, stream)
    out = stream.getvalue()
    assert "\x1b[" in out
    assert "items judged: 18 of 20 (partial run)" in out
    for cell in ("cot+neg_exp", "25.0%", "44.4%", "100.0%", "80.0%", "synergy acc."):
        assert cell in out
    assert "self-consistency (k=5) accuracy 60.0%" in out
    assert "error rate: flagged inconsistent 90.0%, not flagged 12.5%" in out
    assert "accuracy: direct" not in out


def test_probe_table_on_a_terminal_is_a_table() -> None:
    stream = FakeTTY()
    print_probe_table(PROGRESSIVE_SUMMARY, stream)
    print_probe_table(PROBE_SUMMARY, stream)
    out = stream.getvalue()
    assert "\x1b[" in out
    assert "items judged: 9 of 10" in out
    for cell in ("round 1", "closed", "leading", "M. Rate", "E->R", "66.67", "25.00"):
        assert cell in out
    assert "follow-up   Before" not in out


# ------------------------------------------------------------------ import cost


def _python(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_package_and_this_module_import_without_rich() -> None:
    # rich is needed only once something is drawn on a terminal
    _python(
        "import sys; sys.modules['rich'] = None\n"
        "import prin_guard, prin_guard._output._terminal as t\n"
        "assert t.probe_table({'items': 1, 'items_judged': 1, 'by_type': {}, 'by_round': {}})"
    )


def test_importing_loads_no_rich_module_of_its_own() -> None:
    # structlog imports part of rich when it is installed (for its tracebacks);
    # prin_guard must add nothing to that, the progress bar least of all.
    _python(
        "import sys, structlog\n"
        "before = {m for m in sys.modules if m.split('.')[0] == 'rich'}\n"
        "import prin_guard, prin_guard._output._terminal\n"
        "after = {m for m in sys.modules if m.split('.')[0] == 'rich'}\n"
        "assert after == before, sorted(after - before)\n"
        "assert 'rich.progress' not in sys.modules and 'rich.live' not in sys.modules"
    )


def test_public_names_are_sorted() -> None:
    assert terminal.__all__ == sorted(terminal.__all__)
    for name in terminal.__all__:
        assert hasattr(terminal, name)


# ----------------------------------------------------- verdicts of the other tasks (issue 27)


def test_a_pairwise_verdict_speaks_of_the_instruction_and_the_better_one() -> None:
    guard = prin_guard.Guard(lambda p: "Answer: B" if "worse one" in p else "Answer: A")
    pair = {"task": "pairwise", "question": "Say hi.", "candidates": ["Hello!", "Go away."]}
    verdict = guard.check(pair)
    text = render_verdict(verdict, "Say hi.", ["Hello!", "Go away."])
    assert text.startswith("Instruction: Say hi.\n")
    assert "Reverse leg implies the better one: A\n" in text
    assert "implies correct" not in text


def test_a_checklist_without_a_question_shows_its_response_as_the_response() -> None:
    guard = prin_guard.Guard(lambda p: "Answer: B" if "fails to meet" in p else "Answer: A, B")
    item = {
        "task": "checklist",
        "response": "Paris is big.",
        "candidates": ["Names Paris", "Is long"],
    }
    verdict = guard.check(item)
    text = render_verdict(verdict, "", ["Names Paris", "Is long"], response="Paris is big.")
    assert text.startswith("Response: Paris is big.\n\n")
    assert "Question:" not in text
    # B is named met and failed: the verdict column says so, not a blank
    assert "  B      Is long      met       failed     contradicted\n" in text
    assert "Reverse leg implies met: {A}\n" in text


# -- what the demo showed a new user unexplained (issue 37, papercuts) --------------------


def test_an_unreadable_reverse_leg_says_unreadable_not_contradicted() -> None:
    verdict, texts = _verdict("Answer: C", "I would rather not say.")
    assert verdict.reverse is not None and verdict.reverse.parse_status.value == "failed"
    text = render_verdict(verdict, "q", texts)
    assert "contradicted" not in text
    assert "  A      7                     -         unread     unreadable\n" in text
    assert "  C      9                     correct   unread     " in text
    assert "Reverse leg implies nothing: its reply could not be read\n" in text
    assert "Reverse leg implies correct" not in text


def test_a_readable_contradiction_is_still_called_one() -> None:
    verdict, texts = _verdict("Answer: C", "Answer: C, D, E")
    assert render_verdict(verdict, "q", texts).count("contradicted") == 3


def test_the_answer_probability_is_named_where_it_is_shown() -> None:
    verdict, texts = _verdict("Answer: C", "Answer: A, B, D, E")
    assert verdict.direct is not None
    verdict = verdict.model_copy(
        update={
            "direct": verdict.direct.model_copy(update={"confidence": 0.2153}),
            "scores": verdict.scores.model_copy(update={"confidence": 0.2153}),
        }
    )
    text = render_verdict(verdict, "q", texts)
    assert "p=" not in text
    assert "Direct  leg (v0, 1.23 s, answer probability 0.22): 'Answer: C'" in text
    assert "confidence 0.215 (the legs' lowest answer probability)" in text


def test_the_verdict_itself_says_unread_for_candidates_an_unread_leg_leaves_unplaced() -> None:
    verdict, _ = _verdict("Answer: C", "I would rather not say.")
    statuses = {c.label: c.status for c in verdict.candidates}
    assert statuses["C"] == "correct"
    assert {statuses[label] for label in "ABDE"} == {"unread"}
    readable, _ = _verdict("Answer: C", "Answer: C, D, E")
    assert [c.status for c in readable.candidates].count("contradicted") == 3
    assert "unread" not in {c.status for c in readable.candidates}


# -- a rating's verdict: what each leg said, its score, the cost (issue 39, item 7) ------


def _rater(prompt: str) -> str:
    # 4 on 1-5, and 2 on the mirrored scale: the same rating; every aspect at once too
    score = "2" if "how poor" in prompt else "4"
    return f"Coherence: [[{score}]]\nFluency: [[{score}]]\nBecause.\nRating: [[{score}]]"


RUBRIC = {str(n): f"level {n}" for n in range(1, 6)}
RATED = {"task": "rating", "question": "Q?", "response": "R.", "scale": {"min": 1, "max": 5}}


@pytest.mark.parametrize(
    ("judge", "item", "options", "expected"),
    [
        pytest.param(
            _rater,
            {**RATED, "scale": {"min": 1, "max": 5, "rubric": RUBRIC}},
            {"checks": "reverse,order"},
            [
                "Rating: 4 on 1-5",
                "  Direct leg (rating, cache): 'Coherence: [[4]] Fluency: [[4]] Because. "
                "Rating: [[4]]'",
                "    score 4",
                "  Mirrored leg (rating, cache): 'Coherence: [[2]] Fluency: [[2]] Because. "
                "Rating: [[2]]'",
                "    score 2 on the mirrored scale (1 = excellent, 5 = very poor): 4 read back",
                "  Direct, rubric reversed leg (rating, cache): 'Coherence: [[4]] Fluency: "
                "[[4]] Because. Rating: [[4]]'",
                "    score 4",
                "  PRIN: 0.00",
                "  Flags: none",
                "  Cost: judge calls 0; tokens 0 prompt + 0 completion; cost $0.0000; answers from "
                "prin-guard's "
                "cache 3; guard premium unknown (no prices)",
            ],
            id="order-check",
        ),
        pytest.param(
            [_rater, lambda prompt: "No idea."],
            RATED,
            {},
            [
                "Rating: 4 on 1-5",
                "  Member test_terminal._rater rates 4",
                "    Direct leg (rating, cache): 'Coherence: [[4]] Fluency: [[4]] Because. "
                "Rating: [[4]]'",
                "      score 4",
                "    Mirrored leg (rating, cache): 'Coherence: [[2]] Fluency: [[2]] Because. "
                "Rating: [[2]]'",
                "      score 2 on the mirrored scale (1 = excellent, 5 = very poor): 4 read back",
                "  Member test_terminal.<lambda> abstains: unparseable_direct, unparseable_reverse",
                "    Direct leg (rating, cache): 'No idea.'",
                "      score unread (failed)",
                "    Mirrored leg (rating, cache): 'No idea.'",
                "      score unread (failed)",
                "  PRIN: 0.00",
                "  Flags: panel_abstention",
                "  Cost: judge calls 0; tokens 0 prompt + 0 completion; cost $0.0000; answers from "
                "prin-guard's "
                "cache 4; guard premium unknown (no prices)",
            ],
            id="panel",
        ),
        pytest.param(
            _rater,
            {**RATED, "aspects": ["coherence", "fluency"]},
            {"rating_aspects": "together"},
            [
                "Rating: per aspect (2)",
                "  Aspect coherence: rating 4; flags none",
                "    Direct leg (rating-aspects, cache): 'Coherence: [[4]] Fluency: [[4]] "
                "Because. Rating: [[4]]'",
                "      score 4",
                "    Mirrored leg (rating-aspects, cache): 'Coherence: [[2]] Fluency: [[2]] "
                "Because. Rating: [[2]]'",
                "      score 2 on the mirrored scale (1 = excellent, 5 = very poor): 4 read back",
                "  Aspect fluency: rating 4; flags none",
                "    Direct leg (rating-aspects, cache): 'Coherence: [[4]] Fluency: [[4]] "
                "Because. Rating: [[4]]'",
                "      score 4",
                "    Mirrored leg (rating-aspects, cache): 'Coherence: [[2]] Fluency: [[2]] "
                "Because. Rating: [[2]]'",
                "      score 2 on the mirrored scale (1 = excellent, 5 = very poor): 4 read back",
                "  PRIN: 0.00",
                "  Flags: none",
                "  Cost: judge calls 0; tokens 0 prompt + 0 completion; cost $0.0000; answers from "
                "prin-guard's "
                "cache 2; guard premium unknown (no prices)",
            ],
            id="aspects-together",
        ),
    ],
)
def test_a_ratings_lines_show_what_each_leg_said_its_score_and_the_cost(
    judge: Any, item: dict[str, Any], options: dict[str, Any], expected: list[str]
) -> None:
    """Issue 39, item 7: ``check --task rating`` printed neither what the judge wrote nor
    a cost line. Asked twice so every answer is from the cache (no timing in the lines)."""
    guard = prin_guard.Guard(judge, **options)
    guard.check(item)
    verdict = guard.check(item)
    assert terminal.rating_lines(verdict, 1, 5) == expected
