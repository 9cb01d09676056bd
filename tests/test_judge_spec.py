"""judge_from_spec: every spelling of a judge builds the right judge, every mistake says why."""

from __future__ import annotations

import gc
import hashlib
import importlib
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import prin_guard.judges
from prin_guard import FunctionJudge, Guard, Item, UsageError
from prin_guard.judges import LiteLLMJudge, ScriptedJudge, judge_from_spec
from prin_guard.judges._function import SourcedJudge

# Judges a `python:` spec points at, in a module of its own (written per test, so
# that nothing outside this file depends on it).
JUDGES_MODULE = textwrap.dedent(
    """
    import re

    from prin_guard.judges import ScriptedJudge

    def _answer(prompt):
        asked = re.findall(r"please output the (\\w+) ones\\.", prompt)
        return "Answer: B" if asked and asked[-1] == "incorrect" else "Answer: A"

    INSTANCE = ScriptedJudge(direct="Answer: A", reverse="Answer: B", name="instance")
    NUMBER = 7

    def factory():
        return ScriptedJudge(direct="Answer: A", reverse="Answer: B", name="from-factory")

    def function_factory():
        return _answer

    def judge(prompt):
        return _answer(prompt)

    async def async_judge(prompt):
        return _answer(prompt)

    class Judge(ScriptedJudge):
        def __init__(self):
            super().__init__(fn=_answer, name="a-class")

    class NeedsArguments(ScriptedJudge):
        def __init__(self, model):
            super().__init__(name=model)

    def raising():
        raise RuntimeError("no credentials")

    def returns_number():
        return 42

    def returns_class():
        return ScriptedJudge

    def returns_no_argument_function():
        return lambda: "Answer: A"

    async def async_factory():
        return ScriptedJudge()

    def two_arguments(prompt, labels):
        return "Answer: A"
    """
)


@pytest.fixture
def judges_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """``spec_judges`` (above) and ``spec_broken`` (fails on import), importable."""
    (tmp_path / "spec_judges.py").write_text(JUDGES_MODULE)
    (tmp_path / "spec_broken.py").write_text('raise RuntimeError("broken at import")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "spec_judges"
    # Each test writes its own copy: do not let the next one reuse this import.
    for name in ("spec_judges", "spec_broken"):
        sys.modules.pop(name, None)


ITEM = Item(question="What is 2 + 2?", candidates=["4", "5"], id="sum")


# -- local ---------------------------------------------------------------------------


class FakeLocalJudge:
    """Stands in for LocalJudge, whose constructor loads the weights."""

    def __init__(self, model: str | None = None) -> None:
        self.model = model


@pytest.mark.parametrize(
    ("spec", "model"),
    [
        pytest.param("local", None, id="bundled"),
        pytest.param("local:", None, id="bundled-empty-suffix"),
        pytest.param(
            "local:HuggingFaceTB/SmolLM2-360M-Instruct",
            "HuggingFaceTB/SmolLM2-360M-Instruct",
            id="hf-id",
        ),
        pytest.param("local:/models/judge.gguf", "/models/judge.gguf", id="path"),
    ],
)
def test_local_specs_build_a_local_judge(
    spec: str, model: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("prin_guard.judges._local.LocalJudge", FakeLocalJudge)
    judge = judge_from_spec(spec)
    assert isinstance(judge, FakeLocalJudge)
    assert judge.model == model


# -- litellm -------------------------------------------------------------------------

LOCAL_SERVER = "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("spec", "kwargs", "identity"),
    [
        pytest.param(
            "openai/gpt-4o-mini",
            {},
            # structured "auto" by default: gpt-4o-mini takes a JSON schema (litellm says)
            {"model": "openai/gpt-4o-mini", "api_base": None, "structured": "json_schema"},
            id="hosted",
        ),
        pytest.param(
            "ollama/llama3",
            {"max_tokens": 64},
            {"model": "ollama/llama3", "max_tokens": 64, "structured": False},
            id="max-tokens",
        ),
        pytest.param(
            "openai/smollm2",
            {"api_base": LOCAL_SERVER, "structured": "json-object"},
            {"model": "openai/smollm2", "api_base": LOCAL_SERVER, "structured": "json_object"},
            id="json-object",
        ),
        pytest.param(
            "openai/smollm2",
            {"api_base": LOCAL_SERVER, "structured": "json_object"},
            {"structured": "json_object"},
            id="json_object-underscore",
        ),
        pytest.param(
            "openai/gpt-4o-mini",
            {"structured": "json-schema"},
            {"structured": "json_schema"},
            id="json-schema",
        ),
        pytest.param(
            "openai/gpt-4o-mini",
            {"structured": "json_schema"},
            {"structured": "json_schema"},
            id="json_schema-underscore",
        ),
        pytest.param(
            "openai/gpt-4o-mini", {"structured": "none"}, {"structured": False}, id="none"
        ),
        # litellm's bundled model list says gpt-4o-mini supports response schemas
        pytest.param(
            "openai/gpt-4o-mini",
            {"structured": "auto"},
            {"structured": "json_schema"},
            id="auto-supported",
        ),
        pytest.param(
            "openai/smollm2",
            {"api_base": LOCAL_SERVER, "structured": "auto"},
            {"structured": False},
            id="auto-unknown-model",
        ),
    ],
)
def test_litellm_specs_build_a_litellm_judge(
    spec: str, kwargs: dict[str, Any], identity: dict[str, Any]
) -> None:
    judge = judge_from_spec(spec, **kwargs)
    assert isinstance(judge, LiteLLMJudge)
    found = dict(judge.identity())
    assert found["kind"] == "litellm"
    assert {name: found[name] for name in identity} == identity


@pytest.mark.parametrize(
    ("spec", "api_base", "key_in_env", "api_key"),
    [
        pytest.param("openai/smollm2", LOCAL_SERVER, False, "no-key", id="keyless-server"),
        pytest.param("openai/smollm2", LOCAL_SERVER, True, None, id="env-key-wins"),
        pytest.param("openai/gpt-4o-mini", None, False, None, id="hosted-no-dummy"),
        pytest.param("ollama/llama3", LOCAL_SERVER, False, None, id="not-openai"),
    ],
)
def test_dummy_key_only_for_a_keyless_openai_compatible_server(
    spec: str,
    api_base: str | None,
    key_in_env: bool,
    api_key: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if key_in_env:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    else:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = judge_from_spec(spec, api_base=api_base)
    assert isinstance(judge, LiteLLMJudge)
    assert judge._api_key == api_key
    assert "no-key" not in repr(judge.identity())


# -- python: -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attr", "kind", "identity"),
    [
        pytest.param(
            "INSTANCE", ScriptedJudge, {"kind": "scripted", "name": "instance"}, id="instance"
        ),
        pytest.param(
            "factory", ScriptedJudge, {"kind": "scripted", "name": "from-factory"}, id="factory"
        ),
        pytest.param("Judge", ScriptedJudge, {"kind": "scripted", "name": "a-class"}, id="class"),
        pytest.param(
            "function_factory",
            FunctionJudge,
            {"kind": "function", "name": "python:spec_judges:function_factory"},
            id="factory-of-function",
        ),
        pytest.param(
            "judge",
            FunctionJudge,
            {"kind": "function", "name": "python:spec_judges:judge"},
            id="function",
        ),
        pytest.param(
            "async_judge",
            FunctionJudge,
            {"kind": "function", "name": "python:spec_judges:async_judge"},
            id="async-function",
        ),
    ],
)
def test_python_specs_build_the_judge_the_attribute_names(
    judges_module: str, attr: str, kind: type, identity: dict[str, Any]
) -> None:
    judge = judge_from_spec(f"python:{judges_module}:{attr}")
    # a judge the code made is known by that code too: wrapped with its source
    made = judge.judge if isinstance(judge, SourcedJudge) else judge
    assert isinstance(made, kind)
    found = dict(judge.identity())
    assert {name: found[name] for name in identity} == identity
    assert found["source"] == _digest(judges_module)


def _digest(module: str) -> str:
    path = importlib.import_module(module).__file__
    assert path is not None
    return hashlib.sha256(hashlib.sha256(Path(path).read_bytes()).hexdigest().encode()).hexdigest()[
        :16
    ]


def test_instance_is_used_as_it_is(judges_module: str) -> None:
    module = importlib.import_module(judges_module)
    judge = judge_from_spec(f"python:{judges_module}:INSTANCE")
    assert isinstance(judge, SourcedJudge) and judge.judge is module.INSTANCE
    assert judge.identity() == {**module.INSTANCE.identity(), "source": _digest(judges_module)}


def test_dotted_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "spec_package"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "judges.py").write_text("def judge(prompt):\n    return 'Answer: A'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        judge = judge_from_spec("python:spec_package.judges:judge")
    finally:
        sys.modules.pop("spec_package.judges", None)
        sys.modules.pop("spec_package", None)
    assert dict(judge.identity()) == {
        "kind": "function",
        "name": "python:spec_package.judges:judge",
        "source": hashlib.sha256(
            hashlib.sha256(b"def judge(prompt):\n    return 'Answer: A'\n").hexdigest().encode()
        ).hexdigest()[:16],
    }


@pytest.mark.parametrize(
    "attr", [pytest.param("judge", id="sync"), pytest.param("async_judge", id="async")]
)
def test_function_judge_works_end_to_end(judges_module: str, attr: str) -> None:
    verdict = Guard(judge_from_spec(f"python:{judges_module}:{attr}")).check(ITEM)
    assert verdict.error is None
    assert verdict.direct is not None and verdict.direct.labels == ("A",)
    assert verdict.reverse is not None and verdict.reverse.labels == ("B",)
    assert verdict.correct == ("A",)
    assert verdict.consistent


def test_async_factory_is_refused_without_leaking_a_coroutine(judges_module: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(UsageError, match="'async_factory' is async"):
            judge_from_spec(f"python:{judges_module}:async_factory")
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)]


def test_factory_failure_keeps_its_cause(judges_module: str) -> None:
    with pytest.raises(UsageError) as info:
        judge_from_spec(f"python:{judges_module}:raising")
    assert isinstance(info.value.__cause__, RuntimeError)


# -- mistakes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kwargs", "message"),
    [
        pytest.param("gpt-17", {}, "--judge: unknown judge 'gpt-17'; use 'local'", id="unknown"),
        pytest.param("", {}, "--judge: unknown judge ''", id="empty"),
        pytest.param(
            "local",
            {"api_base": LOCAL_SERVER},
            "api_base: applies to litellm judges only",
            id="local-api-base",
        ),
        pytest.param(
            "local:some/model",
            {"max_tokens": 5},
            "max_tokens: applies to litellm judges only",
            id="local-max-tokens",
        ),
        pytest.param(
            "local",
            {"structured": "none"},
            "structured: applies to litellm judges only",
            id="local-structured",
        ),
        pytest.param(
            "python:spec_judges:judge",
            {"structured": "auto"},
            "structured: applies to litellm judges only",
            id="python-structured",
        ),
        pytest.param(
            "openai/gpt-4o-mini",
            {"structured": "yaml"},
            "structured: expected 'none', 'auto', 'json-schema' or 'json-object', got 'yaml'",
            id="bad-structured",
        ),
        pytest.param(
            "local",
            {"structured": "YAML"},
            "structured: expected",
            id="bad-structured-before-dispatch",
        ),
        pytest.param(
            "python:spec_judges",
            {},
            "judge 'python:spec_judges': a python judge is spelled 'python:<module>:<attr>'",
            id="one-colon",
        ),
        pytest.param(
            "python:spec_judges:judge:extra", {}, "a python judge is spelled", id="three-colons"
        ),
        pytest.param("python::judge", {}, "a python judge is spelled", id="empty-module"),
        pytest.param("python:spec_judges:", {}, "a python judge is spelled", id="empty-attr"),
        pytest.param(
            "python:spec_no_such_module:judge",
            {},
            "judge 'python:spec_no_such_module:judge': no module 'spec_no_such_module' in "
            "the current directory",
            id="module-missing",
        ),
        pytest.param(
            "python:spec_broken:judge",
            {},
            "cannot import module 'spec_broken': RuntimeError: broken at import",
            id="module-raises",
        ),
        pytest.param(
            "python:spec_judges:missing",
            {},
            "judge 'python:spec_judges:missing': module 'spec_judges' has no attribute 'missing'",
            id="attribute-missing",
        ),
        pytest.param(
            "python:spec_judges:NUMBER",
            {},
            "'NUMBER' is not a judge, a factory or a function of the prompt (got an int)",
            id="not-callable",
        ),
        pytest.param(
            "python:spec_judges:raising",
            {},
            "judge 'python:spec_judges:raising': the factory 'raising' raised "
            "RuntimeError: no credentials",
            id="factory-raises",
        ),
        pytest.param(
            "python:spec_judges:returns_number",
            {},
            "the factory 'returns_number' returned an int, not a judge or a function of the prompt",
            id="factory-returns-number",
        ),
        pytest.param(
            "python:spec_judges:returns_class",
            {},
            "returned the class ScriptedJudge (return an instance)",
            id="factory-returns-class",
        ),
        pytest.param(
            "python:spec_judges:returns_no_argument_function",
            {},
            "returned a function that cannot take one argument (the prompt)",
            id="factory-returns-bad-function",
        ),
        pytest.param(
            "python:spec_judges:two_arguments",
            {},
            "'two_arguments' takes neither no arguments (a factory returning a judge) nor one",
            id="two-arguments",
        ),
        pytest.param(
            "python:spec_judges:NeedsArguments",
            {},
            "class 'NeedsArguments' needs constructor arguments",
            id="class-needs-arguments",
        ),
    ],
)
def test_mistakes_are_usage_errors_that_say_why(
    judges_module: str, spec: str, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError) as info:
        judge_from_spec(spec, **kwargs)
    assert message in str(info.value)


def test_spec_must_be_a_string() -> None:
    with pytest.raises(UsageError, match="judge: expected a string, got NoneType"):
        judge_from_spec(None)  # type: ignore[arg-type]


# -- packaging -----------------------------------------------------------------------


def test_exported_from_judges() -> None:
    assert "judge_from_spec" in prin_guard.judges.__all__
    assert prin_guard.judges.judge_from_spec is judge_from_spec


def test_importing_it_stays_light() -> None:
    code = (
        "import sys; from prin_guard.judges import judge_from_spec;"
        "from prin_guard import GuardConfig;"
        "heavy = [m for m in ('torch', 'transformers', 'litellm') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_config_builds_its_judges_through_it(judges_module: str) -> None:
    from prin_guard import GuardConfig

    (level,) = GuardConfig(judge=f"python:{judges_module}:judge").build_judges()
    assert [judge.identity() for judge in level] == [
        {"kind": "function", "name": "python:spec_judges:judge", "source": _digest(judges_module)}
    ]


def test_the_server_builds_its_judges_from_its_config(judges_module: str) -> None:
    pytest.importorskip("pydantic_settings")
    from prin_guard.server import load_config

    config = load_config(environ={"PRIN_GUARD_JUDGE": f"python:{judges_module}:judge"})
    (level,) = config.guard.build_judges()
    assert level[0].identity() == {
        "kind": "function",
        "name": "python:spec_judges:judge",
        "source": _digest(judges_module),
    }


# -- issue 27: a python judge is known by what it runs ---------------------------------


def test_an_edited_python_judge_is_not_served_its_old_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prin_guard import eval as evaluation

    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("EDITED_JUDGE_CALLS", str(calls))
    monkeypatch.syspath_prepend(str(tmp_path))
    script = tmp_path / "edited_judge.py"
    version = (
        "import os\n"
        "def judge(prompt):\n"
        "    with open(os.environ['EDITED_JUDGE_CALLS'], 'a') as f:\n"
        "        f.write('x\\n')\n"
        "    return {answer!r}\n"
    )
    cache = tmp_path / "answers.sqlite3"

    def run(answer: str) -> dict[str, Any]:
        script.write_text(version.format(answer=answer))
        sys.modules.pop("edited_judge", None)  # a new process imports the file anew
        judge = judge_from_spec("python:edited_judge:judge")
        out = tmp_path / f"run-{answer[-1]}"
        evaluation.run(
            judge,
            "mathqa",
            limit=2,
            cache=str(cache),
            methods=["direct", "reverse", "synergy"],
            analyses=[],
            mitigations=[],
            out=out,
        )
        return dict(judge.identity())

    first = run("Answer: A")
    made = len(calls.read_text().splitlines())
    assert made == 4  # two items, two legs each
    run("Answer: A")  # unchanged: every answer from the disk cache
    assert len(calls.read_text().splitlines()) == made
    second = run("Answer: B")  # the script changed: asked again, under another identity
    assert len(calls.read_text().splitlines()) == 2 * made
    assert first["name"] == second["name"] and first["source"] != second["source"]
    sys.modules.pop("edited_judge", None)


def test_a_function_judge_is_known_by_its_file_and_names_its_source() -> None:
    def judge(prompt: str) -> str:
        return "Answer: A"

    this = Path(__file__).read_bytes()
    expected = hashlib.sha256(hashlib.sha256(this).hexdigest().encode()).hexdigest()[:16]
    assert FunctionJudge(judge).identity()["source"] == expected
    assert "source" not in FunctionJudge(judge, source=None).identity()
    assert FunctionJudge(judge, name="n", source="v2").identity() == {
        "kind": "function",
        "name": "n",
        "source": "v2",
    }
