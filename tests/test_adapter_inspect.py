"""prin-guard-inspect against the real Inspect AI: real evals, Inspect's mockllm as the grader.

Needs ``inspect-ai`` and the adapter (``pip install -e adapters/inspect-ai --no-deps``).
Nothing here may reach the network: every test runs with outbound connections refused.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect-ai is not installed")
pytest.importorskip("prin_guard_inspect", reason="pip install -e adapters/inspect-ai --no-deps")

# inspect_ai's own retry set-up, not ours
pytestmark = pytest.mark.filterwarnings(
    "ignore:The 'initial' parameter is deprecated:DeprecationWarning"
)

from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.log import EvalLog, read_eval_log  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatMessage,
    GenerateConfig,
    Model,
    ModelName,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import Target  # noqa: E402
from inspect_ai.solver import TaskState  # noqa: E402
from prin_guard_inspect import (  # noqa: E402
    InspectJudge,
    prin_guard_scorer,
    ranking_item,
    rating_item,
    sample_item,
    target_labels,
    target_ranking,
    verdict_from_score,
)

from prin_guard import InvalidItemError, UsageError  # noqa: E402
from prin_guard.judges import ScriptedJudge  # noqa: E402

TABLE1 = (
    "If n is an integer and 101 n^2 is at most 10000, what is the greatest possible value of n?"
)
NEG_EXP = "Please recall that 'incorrect options' are simply the options different from"

# The grader's replies by sample (a word of its question) and leg.
REPLIES = {
    # consistent and right
    "101 n^2": {"direct": "Answer: C", "reverse": "Answer: A, B, D, E"},
    # the PRIN paper's Table 1 contradiction: C, yet C, D, E are incorrect
    "primes": {"direct": "Answer: C", "reverse": "Answer: C, D, E"},
    # the reverse leg names "the correct answer": polarity confusion, not read as the
    # reverse leg's answer (it fails, so the reverse implies every option: PRIN 0.2)
    "runner": {"direct": "Answer: A, C", "reverse": "The correct answer is B."},
}


def samples() -> list[Sample]:
    return [
        Sample(id="table1", input=TABLE1, choices=["7", "8", "9", "10", "11"], target="C"),
        Sample(
            id="primes",
            input="How many primes are there below 10?",
            choices=["2", "3", "4", "5", "6"],
            target="C",
        ),
        Sample(
            id="runner",
            input="A runner covers 12 km in 1.5 hours. Which solutions are right?",
            target=["A", "C"],
            metadata={
                "context": "Speed is distance over time.",
                "candidates": [
                    {"text": "Solution 1: 8 km/h", "reasoning": "12 / 1.5 = 8"},
                    {"text": "Solution 2: 18 km/h", "reasoning": "12 * 1.5 = 18"},
                    {"text": "Solution 3: 8 km per hour", "reasoning": "120 / 15 = 8"},
                ],
            },
        ),
    ]


class Grader:
    """Inspect's mockllm answering as a judge would, recording every prompt it gets."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(
        self, input: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        prompt = input[-1].text
        self.prompts.append(prompt)
        leg = "reverse" if "output the incorrect ones" in prompt else "direct"
        reply = next(replies[leg] for key, replies in REPLIES.items() if key in prompt)
        output = ModelOutput.from_content(model="mockllm/model", content=reply)
        # With usage given, mockllm does not count tokens with tiktoken (a download).
        output.usage = ModelUsage(input_tokens=len(prompt) // 4, output_tokens=5, total_tokens=0)
        return output

    def model(self) -> Model:
        return get_model("mockllm/model", custom_outputs=self)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """Refuse every connection and name lookup that leaves this machine; fail if one was tried."""
    attempts: list[str] = []
    connect, connect_ex, getaddrinfo = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
    )

    def local(host: object) -> bool:
        if not isinstance(host, str) or host in ("localhost", ""):
            return True
        try:
            return ipaddress.ip_address(host.split("%")[0]).is_loopback
        except ValueError:
            return False

    def refuse(target: object) -> None:
        attempts.append(repr(target))
        raise OSError(f"network access in a test: {target!r}")

    def guarded_connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not local(address[0]):
            refuse(address)
        connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not local(address[0]):
            refuse(address)
        return connect_ex(self, address)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not local(host):
            refuse(host)
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    yield attempts
    assert attempts == [], f"tried to reach the network: {attempts}"


def run(task: Task, tmp_path: Path, **options: Any) -> EvalLog:
    [log] = eval(task, display="none", log_dir=str(tmp_path / "logs"), **options)
    assert log.status == "success", log.error
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: metric.value for name, metric in scores.metrics.items()}


def test_eval_log_carries_each_verdict_and_the_prin_metrics(tmp_path: Path) -> None:
    grader = Grader()
    task = Task(dataset=samples(), solver=[], scorer=prin_guard_scorer(mitigations=["neg_exp"]))

    log = run(task, tmp_path, model=grader.model())

    # read back from disk: what a user of the log sees
    assert log.location
    log = read_eval_log(log.location)
    assert log.samples is not None
    scores = {sample.id: sample.scores["prin_guard_scorer"] for sample in log.samples}  # type: ignore[index]

    table1 = scores["table1"]
    assert table1.value == "C"
    assert table1.answer == "C"
    assert table1.metadata is not None
    assert table1.metadata["prin"] == 0.0
    assert table1.metadata["flags"] == []
    assert table1.metadata["direct"]["answer"] == "Answer: C"
    assert table1.metadata["reverse"]["answer"] == "Answer: A, B, D, E"
    assert table1.metadata["reverse"]["labels"] == ["A", "B", "D", "E"]

    primes = scores["primes"]
    assert primes.value == "I"
    assert primes.metadata is not None
    assert primes.metadata["prin"] == 1.0
    assert primes.metadata["flags"] == ["inconsistent", "empty_verdict"]
    assert primes.metadata["correct"] == []
    assert primes.metadata["reverse_implied"] == ["A", "B"]
    assert primes.explanation is not None
    assert "PRIN 1.00" in primes.explanation

    runner = scores["runner"]
    assert runner.value == "C"
    assert runner.metadata is not None
    assert runner.metadata["target"] == ["A", "C"]
    assert runner.metadata["flags"] == [
        "inconsistent",
        "unparseable_reverse",
        "polarity_confusion",
    ]
    assert runner.metadata["reverse"]["polarity_confusion"] is True
    assert runner.metadata["prin"] == pytest.approx(0.2)

    verdict = verdict_from_score(runner)
    assert verdict.item_id == "runner"
    assert verdict.correct == ("A", "C")
    assert verdict.direct is not None
    assert verdict.direct.usage is not None
    assert verdict.direct.usage.completion_tokens == 5

    assert metrics(log) == pytest.approx(
        {
            "accuracy": 2 / 3,
            "stderr": pytest.approx(1 / 3),
            "mean_prin": (0 + 1 + 0.2) / 3,
            "inconsistent_rate": 2 / 3,
            "flagged_rate": 2 / 3,
            "mean_score": 0.0,  # no checklist sample
            "mean_rating": 0.0,  # no rating sample
            "rating_error": 0.0,
            "mean_tau": 0.0,  # no ranking sample
            "top1_agreement": 0.0,
        }
    )

    # two legs per sample, through Inspect's model API (and so in its transcript)
    assert len(grader.prompts) == 6
    runner_sample = next(sample for sample in log.samples if sample.id == "runner")
    assert sum(1 for event in runner_sample.events if event.event == "model") == 2
    runner_prompts = [prompt for prompt in grader.prompts if "runner" in prompt]
    assert all("Speed is distance over time." in prompt for prompt in runner_prompts)
    assert sum(NEG_EXP in prompt for prompt in grader.prompts) == 3  # reverse legs only


def test_the_grader_role_judges_rather_than_the_model_under_evaluation(tmp_path: Path) -> None:
    grader = Grader()
    task = Task(dataset=samples(), solver=[], scorer=prin_guard_scorer())

    log = run(task, tmp_path, model="mockllm/model", model_roles={"grader": grader.model()})

    assert len(grader.prompts) == 6
    assert metrics(log)["accuracy"] == pytest.approx(2 / 3)


def test_any_prin_guard_judge_can_grade(tmp_path: Path) -> None:
    judge = ScriptedJudge(direct="Answer: C", reverse="Answer: A, B, D")
    task = Task(
        dataset=samples()[:2],
        solver=[],
        scorer=prin_guard_scorer(judge, template="v1"),
    )

    log = run(task, tmp_path, model="mockllm/model")

    assert judge.call_count == 4
    assert sum("output the wrong ones" in call[-1]["content"] for call in judge.calls) == 2
    values = metrics(log)
    assert values["accuracy"] == pytest.approx(1.0)  # C is both samples' target
    assert values["mean_prin"] == pytest.approx(1 / 3)  # 1 - F1({C}, {C, E}) on both
    assert values["inconsistent_rate"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        pytest.param(
            {"template": "v9"},
            r"^template: unknown template 'v9'; known: claims, criteria, pairwise, rating, v0, v1, v2, v3, v4",  # noqa: E501
            id="template",
        ),
        pytest.param({"mitigations": ["louder"]}, r"^mitigations: unknown", id="mitigations"),
        pytest.param({"policy": "vote"}, r"^policy: unknown policy 'vote'", id="policy"),
        pytest.param({"threshold": 2}, r"^threshold: ", id="threshold"),
        pytest.param({"probe": "sometimes"}, r"^probe: ", id="probe"),
        pytest.param({"max_chars": 0}, r"^max_chars: ", id="max-chars"),
        pytest.param({"concurrency": 0}, r"^concurrency: ", id="concurrency"),
    ],
)  # fmt: skip
def test_bad_options_fail_when_the_task_is_built(options: dict[str, Any], says: str) -> None:
    with pytest.raises(UsageError, match=says):
        prin_guard_scorer(**options)


def test_options_take_every_spelling_prin_guard_takes(tmp_path: Path) -> None:
    judge = ScriptedJudge(direct="Answer: C", reverse="Answer: A, B, D, E")
    task = Task(
        dataset=samples()[:1],
        solver=[],
        scorer=prin_guard_scorer(judge, mitigations="cot,NEG-EXP", policy="direct"),
    )

    log = run(task, tmp_path, model="mockllm/model")

    assert log.samples is not None
    verdict = verdict_from_score(log.samples[0].scores["prin_guard_scorer"])  # type: ignore[index]
    assert verdict.policy == "direct"
    assert verdict.reverse is not None and verdict.reverse.mitigations == ("cot", "neg_exp")
    prompts = [call[-1]["content"] for call in judge.calls]
    reverse = [prompt for prompt in prompts if "incorrect ones" in prompt]
    assert len(reverse) == 1 and NEG_EXP in reverse[0]


def test_a_probe_asks_each_leg_again_and_flags_a_change(tmp_path: Path) -> None:
    # Asked again, the judge keeps its direct answer and drops its reverse one.
    judge = ScriptedJudge(direct="Answer: C", reverse=["Answer: A, B, D, E", "Answer: C"])
    task = Task(dataset=samples()[:1], solver=[], scorer=prin_guard_scorer(judge, probe="closed"))

    log = run(task, tmp_path, model="mockllm/model")

    assert log.samples is not None
    score = log.samples[0].scores["prin_guard_scorer"]  # type: ignore[index]
    verdict = verdict_from_score(score)
    assert judge.call_count == 4  # two legs, one follow-up each
    assert len(verdict.probe) == 2
    assert score.metadata is not None and "vacillating" in score.metadata["flags"]
    assert score.value == "C"  # the verdict stays the first answers'


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        pytest.param("C", ("C",), id="one-letter"),
        pytest.param("A, C", ("A", "C"), id="comma-list"),
        pytest.param(["C", "A"], ("A", "C"), id="list-in-candidate-order"),
        pytest.param("AC", ("A", "C"), id="letters-run-together-as-inspect-reads-them"),
        pytest.param("(b)", ("B",), id="lower-case-in-parentheses"),
        pytest.param("", (), id="empty-names-none"),
    ],
)
def test_target_labels(target: str | list[str], expected: tuple[str, ...]) -> None:
    assert target_labels(Target(target), ("A", "B", "C", "D")) == expected


def test_a_target_naming_no_candidate_is_an_error() -> None:
    with pytest.raises(ValueError, match="'E'"):
        target_labels(Target("E"), ("A", "B", "C", "D"))


def state(**options: Any) -> TaskState:
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id=7,
        epoch=1,
        input="Pick one.",
        messages=[],
        **options,
    )


def test_shuffled_choices_are_judged_in_their_original_order() -> None:
    shuffled = state(choices=["red", "green", "blue", "cyan"])
    shuffled.choices.shuffle(Random(3))
    assert [choice.value for choice in shuffled.choices] != ["red", "green", "blue", "cyan"]

    item = sample_item(shuffled)

    assert [candidate.text for candidate in item.candidates] == ["red", "green", "blue", "cyan"]
    assert item.labels == ("A", "B", "C", "D")
    assert item.id == "7"


def test_a_sample_that_is_no_valid_item_names_the_field() -> None:
    with pytest.raises(InvalidItemError, match="candidates"):
        sample_item(state(choices=["only one"]))
    with pytest.raises(InvalidItemError, match="neither choices nor"):
        sample_item(state())
    with pytest.raises(InvalidItemError) as caught:
        sample_item(state(choices=["short", "x" * 11]), max_chars=10)
    assert caught.value.field == "candidates.1.text"
    assert str(caught.value) == (
        "candidates.1.text: is 11 characters long; the limit is 10 (max_chars) (sample 7)"
    )
    assert sample_item(state(choices=["short", "x" * 11])).labels == ("A", "B")


def test_inspect_judge_identity_has_what_changes_answers_and_no_headers() -> None:
    model = get_model(
        "mockllm/model",
        config=GenerateConfig(temperature=0.0, timeout=5, extra_headers={"Authorization": "k"}),
    )

    identity = InspectJudge(model, config=GenerateConfig(max_tokens=64)).identity()

    assert identity["model"] == "mockllm/model"
    assert identity["config"] == {"temperature": 0.0, "max_tokens": 64}
    assert "Authorization" not in repr(identity)


def test_a_grader_that_keeps_failing_fails_the_sample_with_the_reason(tmp_path: Path) -> None:
    def down(*args: Any) -> ModelOutput:
        raise RuntimeError("grader down")

    task = Task(dataset=samples()[:1], solver=[], scorer=prin_guard_scorer())

    [log] = eval(
        task,
        model=get_model("mockllm/model", custom_outputs=down),
        display="none",
        log_dir=str(tmp_path / "logs"),
    )

    assert log.status == "error"
    assert log.error is not None
    assert "leg failed: RuntimeError: grader down" in log.error.message


def test_pairwise_and_checklist_samples_are_scored_as_their_task(tmp_path: Path) -> None:
    def judge(prompt: str) -> str:
        if "please output the better one" in prompt:
            return "Answer: B"
        if "please output the worse one" in prompt:
            return "Answer: A"
        if "criteria it meets" in prompt:
            return "Answer: A" if "Paris" in prompt else "Answer: none"
        return "Answer: B" if "Paris" in prompt else "Answer: A, B"

    pairs = [
        Sample(
            id="hello", input="Greet me.", target="B", metadata={"candidates": ["hi", "hello!"]}
        ),
        Sample(id="tied", input="Greet me.", target="tie", metadata={"candidates": ["yo", "hey"]}),
    ]
    log = run(
        Task(dataset=pairs, solver=[], scorer=prin_guard_scorer(judge, task="pairwise")),
        tmp_path / "pairwise",
        model="mockllm/model",
    )
    assert log.samples is not None
    scored = {s.id: s.scores["prin_guard_scorer"] for s in log.samples}  # type: ignore[index]
    assert scored["hello"].value == "C"
    assert scored["hello"].metadata is not None
    assert scored["hello"].metadata["winner"] == "B"
    assert scored["tied"].value == "I"  # B won, the target said tie

    rubric = ["Names the capital", "Gives the population"]
    checks = [
        # graded against a target: the criteria met
        Sample(id="met", input="Describe France.", target="A",
               metadata={"candidates": rubric, "response": "Paris is its capital."}),
        # no target: the score is the share met
        Sample(id="share", input="Describe France.",
               metadata={"candidates": rubric, "response": "France is in Europe."}),
    ]  # fmt: skip
    log = run(
        Task(dataset=checks, solver=[], scorer=prin_guard_scorer(judge, task="checklist")),
        tmp_path / "checklist",
        model="mockllm/model",
    )
    assert log.samples is not None
    scored = {s.id: s.scores["prin_guard_scorer"] for s in log.samples}  # type: ignore[index]
    assert scored["met"].value == "C"
    assert scored["met"].metadata is not None
    assert scored["met"].metadata["score"] == 0.5
    # the response names no capital: nothing met, a share of 0
    assert scored["share"].value == 0.0
    assert scored["share"].metadata is not None
    assert scored["share"].metadata["verdict"]["candidates"][0]["status"] == "failed"
    # accuracy is over the samples with a target only: the share (0.0) is no wrong answer
    assert metrics(log)["accuracy"] == 1.0
    assert metrics(log)["mean_score"] == pytest.approx(0.25)  # 0.5 and 0.0


def test_accuracy_never_mixes_a_share_met_with_right_and_wrong(tmp_path: Path) -> None:
    def judge(prompt: str) -> str:
        return "Answer: A" if "criteria it meets" in prompt else "Answer: B"

    rubric = ["Names the capital", "Gives the population"]
    checks = [
        Sample(id="right", input="Describe France.", target="A",
               metadata={"candidates": rubric, "response": "Paris."}),
        Sample(id="wrong", input="Describe France.", target="B",
               metadata={"candidates": rubric, "response": "Paris."}),
        Sample(id="graded", input="Describe France.",
               metadata={"candidates": rubric, "response": "Paris."}),
    ]  # fmt: skip
    log = run(
        Task(dataset=checks, solver=[], scorer=prin_guard_scorer(judge, task="checklist")),
        tmp_path,
        model="mockllm/model",
    )
    values = metrics(log)
    # Inspect's own accuracy averaged C, I and the share 0.5: (1 + 0 + 0.5) / 3
    assert values["accuracy"] == pytest.approx(0.5)
    assert values["stderr"] == pytest.approx(0.5)  # of [1, 0]
    assert values["mean_score"] == pytest.approx(0.5)


def test_a_checklist_without_a_response_judges_the_evaluated_models_output() -> None:
    answered = state(metadata={"candidates": ["Names the capital"]})
    answered.output = ModelOutput.from_content("mockllm/model", "Paris is the capital.")
    item = sample_item(answered, task="checklist")
    assert (item.task, item.response) == ("checklist", "Paris is the capital.")


def test_rating_samples_are_scored_by_their_rating(tmp_path: Path) -> None:
    # issue 30: the value is the rating (N without one), mean_rating and rating_error
    # (against a human score as the target) in the results, accuracy untouched
    def judge(prompt: str) -> str:
        mirrored = "how poor the response" in prompt
        if "Lyon" in prompt:  # the same number on both legs: no rating
            return "Rating: [[8]]"
        return "Rating: [[3]]" if mirrored else "Rating: [[8]]"

    rated = [
        Sample(id="paris", input="The capital of France?", target="9",
               metadata={"response": "Paris."}),
        Sample(id="lyon", input="The capital of France?", target="2",
               metadata={"response": "Lyon."}),
    ]  # fmt: skip
    log = run(
        Task(
            dataset=rated, solver=[], scorer=prin_guard_scorer(judge, task="rating", scale="1-10")
        ),
        tmp_path,
        model="mockllm/model",
    )
    assert log.samples is not None
    scored = {s.id: s.scores["prin_guard_scorer"] for s in log.samples}  # type: ignore[index]
    assert scored["paris"].value == 8.0
    assert scored["lyon"].value == "N"
    assert scored["lyon"].metadata is not None
    assert "polarity_confusion" in scored["lyon"].metadata["flags"]
    values = metrics(log)
    assert values["mean_rating"] == 8.0 and values["rating_error"] == 1.0
    assert values["flagged_rate"] == 0.5
    with pytest.raises(InvalidItemError, match="scale"):
        prin_guard_scorer(judge, task="rating", scale="ten")
    with pytest.raises(InvalidItemError, match=r"scale: .*\(sample 7\)"):
        rating_item(state(metadata={"response": "Paris."}))


def test_ranking_samples_are_scored_by_their_tau(tmp_path: Path) -> None:
    # issue 40: the value is Kendall's tau-b with the target ranking (N without a
    # ranking), mean_tau and top1_agreement in the results, accuracy untouched
    def judge(prompt: str) -> str:
        shown = re.findall(r"\[The Start of Response (\w+)\]\n(.*?)\n\[The End", prompt, re.S)
        if "Lyon" in prompt:  # leaves a response out: unreadable on both legs
            return "Ranking from best to worst: A, B"
        labels = [label for label, _ in sorted(shown, key=lambda pair: -len(pair[1]))]
        if "from the worst to the best" in prompt:
            return "Ranking from worst to best: " + ", ".join(reversed(labels))
        return "Ranking from best to worst: " + ", ".join(labels)

    ranked = [
        Sample(id="paris", input="The capital of France?", target="C > B > A",
               choices=["Rome.", "Paris.", "Paris, on the Seine."]),
        Sample(id="wrong", input="The capital of France?", target="B, A, C",
               choices=["Paris.", "It is Paris.", "Paris, of course, on the Seine."]),
        Sample(id="lyon", input="The capital of France?", target="A > B = C",
               choices=["Paris.", "Lyon.", "Nice."]),
    ]  # fmt: skip
    log = run(
        Task(dataset=ranked, solver=[], scorer=prin_guard_scorer(judge, task="ranking")),
        tmp_path,
        model="mockllm/model",
    )
    assert log.samples is not None
    scored = {s.id: s.scores["prin_guard_scorer"] for s in log.samples}  # type: ignore[index]
    assert scored["paris"].value == 1.0 and scored["paris"].answer == "C > B > A"
    assert scored["wrong"].value == pytest.approx(-1 / 3)  # C > B > A against B > A > C
    assert scored["lyon"].value == "N"
    assert scored["lyon"].metadata is not None
    assert "unparseable_direct" in scored["lyon"].metadata["flags"]
    values = metrics(log)
    assert values["mean_tau"] == pytest.approx(1 / 3)
    assert values["top1_agreement"] == pytest.approx(1 / 3)  # paris only
    assert values["accuracy"] == 0.0  # no sample with a right-or-wrong target
    assert target_ranking("B > A = C", ("A", "B", "C")) == (("B",), ("A", "C"))
    assert target_ranking(["c", "a", "b"], ("A", "B", "C")) == (("C",), ("A",), ("B",))
    with pytest.raises(ValueError, match="exactly once"):
        target_ranking("B > A", ("A", "B", "C"))
    with pytest.raises(InvalidItemError, match=r"candidates: .*\(sample 7\)"):
        ranking_item(state(metadata={"candidates": ["one", "two"]}))
