"""A judge from one string: how the command line, the server and the examples name judges.

:func:`judge_from_spec` reads ``local``, ``local:<model>``, ``python:<module>:<attr>``
and litellm model strings. This module is on the path of ``import prin_guard.judges``,
so litellm, torch and transformers are imported only when such a judge is built.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeGuard

from prin_guard._infra._settings import env_is_set
from prin_guard.errors import UsageError
from prin_guard.judges._base import Judge
from prin_guard.judges._function import FunctionJudge, SourcedJudge, source_digest, source_file

__all__ = ["judge_from_spec"]

_Structured = bool | Literal["auto", "json_schema", "json_object"]

# The command line's spellings (dashes) and LiteLLMJudge's own (underscores): a
# config file written either way works.
_STRUCTURED: Final[Mapping[str | None, _Structured]] = {
    None: "auto",
    "none": False,
    "auto": "auto",
    "json-schema": "json_schema",
    "json_schema": "json_schema",
    "json-object": "json_object",
    "json_object": "json_object",
}

_PYTHON_FORM = "'python:<module>:<attr>'"


def judge_from_spec(
    spec: str,
    *,
    api_base: str | None = None,
    structured: str | None = None,
    max_tokens: int | None = None,
    logprobs: bool = False,
    timeout: float | None = None,
    top_logprobs: int | None = None,
) -> Judge:
    """The judge a string names, as ``--judge`` and the server's ``judge`` spell it.

    * ``local``: the bundled model (:class:`~prin_guard.judges.LocalJudge`; loads it);
    * ``local:<model id or path>``: another model run in this process;
    * ``python:<module>:<attr>``: ``attr`` of an importable module, which is a judge,
      a factory called with no arguments that returns a judge (or a function of the
      prompt), or a function judge ``fn(prompt) -> str``, sync or async (wrapped in a
      :class:`~prin_guard.judges.FunctionJudge` named after ``spec``). Its identity (and
      so every cache key of its calls, and an acceptance file bound to it) holds a
      digest of the module's file and of the file defining ``attr``: an edited script
      is a new judge, never served the old one's cached answers;
    * a litellm model string (``openai/gpt-4o-mini``, ``ollama/llama3``,
      ``openai/<name>`` with ``api_base`` for an OpenAI-compatible server).

    ``api_base``, ``structured`` (``auto``, the default: a JSON answer with its
    reasoning first where litellm says the model takes a JSON schema; ``none``,
    ``json-schema`` or ``json-object``; underscores work too), ``max_tokens`` and
    ``timeout`` (seconds per call; default 60) apply to litellm judges only;
    ``top_logprobs`` (each token's likeliest alternatives: a rating's expected score) to
    litellm and local judges.
    ``logprobs`` asks a litellm judge for the reply's token log-probabilities (off by
    default: not every provider accepts the parameter); a local judge always
    returns them, and a python judge returns whatever its code returns, so it is
    refused there. API keys come from the provider's usual environment variables
    (``OPENAI_API_KEY``, ...), read by litellm; an ``openai/...`` judge with an
    ``api_base`` and no key gets a dummy one, for keyless OpenAI-compatible servers.

    Raises :class:`~prin_guard.UsageError` naming ``judge`` (or ``structured``) and
    the reason when ``spec`` cannot be built.
    """
    if not isinstance(spec, str):
        raise UsageError(f"judge: expected a string, got {type(spec).__name__}")
    if structured is not None and (
        not isinstance(structured, str) or structured not in _STRUCTURED
    ):
        raise UsageError(
            "structured: expected 'none', 'auto', 'json-schema' or 'json-object', "
            f"got {structured!r}"
        )
    if not isinstance(logprobs, bool):
        raise UsageError(f"logprobs: expected a bool, got {type(logprobs).__name__}")
    litellm_only = [
        name
        for name, value in (
            ("api_base", api_base),
            ("structured", structured),
            ("max_tokens", max_tokens),
            ("timeout", timeout),
        )
        if value is not None
    ]
    if top_logprobs is not None and spec.startswith("python:"):
        raise UsageError("top_logprobs: applies to litellm and local judges only")
    if logprobs and spec.startswith("python:"):
        raise UsageError("logprobs: applies to litellm and local judges only")
    if spec == "local" or spec.startswith(("local:", "python:")):
        if litellm_only:
            # Silently ignoring them would leave a user believing they took effect.
            raise UsageError(
                f"{litellm_only[0]}: applies to litellm judges only (api_base, structured, "
                "max_tokens, timeout)"
            )
        if spec.startswith("python:"):
            return _python_judge(spec)
        from prin_guard.judges._local import LocalJudge

        model = spec.removeprefix("local").removeprefix(":") or None
        if top_logprobs is None:
            return LocalJudge(model)
        return LocalJudge(model, top_logprobs=top_logprobs)
    if "/" not in spec:
        raise UsageError(
            f"--judge: unknown judge {spec!r}; use 'local', 'local:<model id or path>', "
            f"{_PYTHON_FORM} or a litellm model string such as 'openai/gpt-4o-mini'"
        )
    from prin_guard.judges._litellm import LiteLLMJudge

    api_key = None
    if api_base is not None and spec.startswith("openai/") and not env_is_set("OPENAI_API_KEY"):
        # A local OpenAI-compatible server (llama.cpp, vLLM) needs no key, but the
        # OpenAI client refuses to send a request without one.
        api_key = "no-key"
    calling: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    return LiteLLMJudge(
        spec,
        api_base=api_base,
        api_key=api_key,
        structured=_STRUCTURED[structured],
        max_tokens=max_tokens,
        logprobs=logprobs,
        top_logprobs=top_logprobs,
        **calling,
    )


def _python_judge(spec: str) -> Judge:
    """``python:<module>:<attr>``: a judge, a factory of one, or a function judge."""
    parts = spec.split(":")
    if len(parts) != 3 or not all(part.strip() for part in parts[1:]):
        raise UsageError(f"judge {spec!r}: a python judge is spelled {_PYTHON_FORM}")
    _, module_name, attr = parts
    # The module is looked for in the current directory first, as tools that load an app
    # by name do (uvicorn, gunicorn): no PYTHONPATH=. needed for a judge beside the data.
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if not (module_name == missing or module_name.startswith(f"{missing}.")):
            # the module was found; something it imports was not
            raise UsageError(
                f"judge {spec!r}: cannot import module {module_name!r}: it imports "
                f"{missing!r}, which is not installed (ModuleNotFoundError)"
            ) from exc
        where = "the current directory and the installed packages"
        raise UsageError(
            f"judge {spec!r}: no module {exc.name or module_name!r} in {where} ({here}); "
            "run from the folder that holds it, or install it"
        ) from exc
    except Exception as exc:  # importing user code can raise anything
        raise UsageError(
            f"judge {spec!r}: cannot import module {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    try:
        target: object = getattr(module, attr)
    except AttributeError:
        raise UsageError(
            f"judge {spec!r}: module {module_name!r} has no attribute {attr!r}"
        ) from None

    # what the judge runs: the module named, and the file defining what it names
    source = source_digest([getattr(module, "__file__", None), source_file(target)])
    # A class has the protocol's methods too (isinstance(SomeJudge, Judge) is true):
    # it is a factory, not a judge.
    if _is_judge(target):
        return _sourced(target, source)
    if not callable(target):
        raise UsageError(
            f"judge {spec!r}: {attr!r} is not a judge, a factory or a function of the "
            f"prompt (got {_what(target)})"
        )
    takes_none, takes_one = _arity(target)
    if not takes_none:
        if isinstance(target, type):
            raise UsageError(
                f"judge {spec!r}: class {attr!r} needs constructor arguments; point at a "
                "factory that builds the judge"
            )
        if takes_one:
            return FunctionJudge(target, name=spec, source=source)
        raise UsageError(
            f"judge {spec!r}: {attr!r} takes neither no arguments (a factory returning a "
            "judge) nor one (a function of the prompt)"
        )
    try:
        made = target()
    except Exception as exc:  # the factory is user code: any failure is a usage error
        raise UsageError(
            f"judge {spec!r}: the factory {attr!r} raised {type(exc).__name__}: {exc}"
        ) from exc
    return _from_factory(spec, attr, made, source)


def _sourced(judge: Judge, source: str | None) -> Judge:
    return judge if source is None else SourcedJudge(judge, source)


def _from_factory(spec: str, attr: str, made: object, source: str | None) -> Judge:
    if _is_judge(made):
        return _sourced(made, source)
    if inspect.isawaitable(made):
        # The server builds its judge in a worker thread and the command line has no
        # event loop: there is nowhere to await it.
        if inspect.iscoroutine(made):
            made.close()  # no "never awaited" warning
        raise UsageError(
            f"judge {spec!r}: the factory {attr!r} is async; make it a plain function "
            "returning a judge"
        )
    if callable(made) and not isinstance(made, type):
        if _arity(made)[1]:
            return FunctionJudge(made, name=spec, source=source)
        raise UsageError(
            f"judge {spec!r}: the factory {attr!r} returned a function that cannot take "
            "one argument (the prompt)"
        )
    raise UsageError(
        f"judge {spec!r}: the factory {attr!r} returned {_what(made)}, not a judge or a "
        "function of the prompt"
    )


def _what(obj: object) -> str:
    if isinstance(obj, type):
        return f"the class {obj.__name__} (return an instance)"
    name = type(obj).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _is_judge(obj: object) -> TypeGuard[Judge]:
    return isinstance(obj, Judge) and not isinstance(obj, type)


def _arity(fn: Callable[..., object]) -> tuple[bool, bool]:
    """Whether ``fn`` can be called with no arguments, and with one (the prompt)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        # No signature to read (some builtins): try it as a factory, as the server
        # always did, and let a wrong guess fail there with its own message.
        return True, True
    return _binds(signature), _binds(signature, "prompt")


def _binds(signature: inspect.Signature, *args: str) -> bool:
    try:
        signature.bind(*args)
    except TypeError:
        return False
    return True
