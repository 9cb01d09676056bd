"""Who judges and how: :class:`GuardConfig`, the one description of a guard's set-up.

A guard's set-up is who judges (one judge, a panel, or the tiers of an escalation
cascade, each spelled as ``--judge`` spells it), the calibrated acceptance rule, the
settings of a hosted judge (``api_base``, ``structured``, ``max_tokens``, ``logprobs``,
``timeout``) and how to ask and decide (:class:`~prin_guard.GuardOptions`). The
command line, the HTTP service (its environment and TOML file), the Ray workers and
both adapters read this one model, so a setting is spelled, checked and documented
once; :meth:`GuardConfig.build` makes the :class:`~prin_guard.Guard`.

Every setting also has one flat name (:data:`SETTINGS`): the field's own name, for
the options' fields too (``template``, ``max_chars``). The flat names are what the
surfaces derive theirs from: ``--max-chars`` on the command line,
``PRIN_GUARD_MAX_CHARS`` and ``max_chars = ...`` for the service, ``max_chars:`` in
LiteLLM Proxy's guardrail settings. :meth:`GuardConfig.from_settings` reads them.

What is not here is how the judges are called (the cache, calls in flight, the
provider's rate limit): those are resources of the process that builds the guard,
given to :meth:`GuardConfig.build`.
"""

from __future__ import annotations

import argparse
import os
import types
import typing
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from prin_guard._infra._ratelimit import RateLimit
from prin_guard._infra._retry import CallLimit, Retry
from prin_guard._prompting._prompts import template_file
from prin_guard._route._acceptance import Acceptance
from prin_guard._route._assembly import JudgeLike, who_judges_problem
from prin_guard._route._guard import Guard
from prin_guard._route._options import GuardOptions, usage_error
from prin_guard.cache import Cache
from prin_guard.calls import JudgeCaller
from prin_guard.errors import UsageError
from prin_guard.judges import Judge, judge_from_spec

__all__ = [
    "CLI_EXCLUDED",
    "JUDGE_SETTINGS",
    "SETTINGS",
    "GuardConfig",
    "Structured",
    "add_arguments",
    "describe",
    "flag_of",
    "settings_from_args",
    "to_args",
]

Structured = Literal["none", "auto", "json-schema", "json-object"]
_JUDGE_HELP = (
    "'local' (the bundled SmolLM2-135M-Instruct), 'local:<HF model id or path>', a "
    "litellm model string such as 'openai/gpt-4o-mini' (keys from the provider's usual "
    "environment variables), or 'python:<module>:<attr>'"
)


def _split(value: Any, separator: str = ",") -> Any:
    if isinstance(value, str):
        return [part.strip() for part in value.split(separator) if part.strip()]
    return value


class GuardConfig(BaseModel):
    """Who judges and how: everything a :class:`~prin_guard.Guard` is built from.

    ``judge``, ``panel`` and ``tiers`` are alternatives (give one); judges are spelled
    as :func:`~prin_guard.judges.judge_from_spec` reads them. Frozen, unknown fields are an
    error, and every error names the setting.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", title="GuardConfig")

    judge: str = Field("local", min_length=1, description=f"The judge: {_JUDGE_HELP}.")
    panel: tuple[str, ...] = Field(
        (),
        description="A panel instead of one judge: at least two judge specs (a comma-separated "
        "string works); a verdict is what a strict majority of all members calls correct.",
    )
    tiers: tuple[tuple[str, ...], ...] = Field(
        (),
        description="An escalation cascade instead of one judge, cheapest first: each tier a "
        "judge spec or a panel of several; a verdict the acceptance rule does not accept "
        "goes to the next tier. As a string: tiers separated by ';', a panel's judges by ','. "
        "Needs acceptance.",
    )
    acceptance: Acceptance | None = Field(
        None,
        description="An acceptance file from 'prin-guard calibrate' (its path, or its "
        "content): each verdict is accepted or flagged not_accepted by the calibrated rule, "
        "for the judge (or tiers) and options it was calibrated for.",
    )
    api_base: str | None = Field(
        None,
        description="Base URL of an OpenAI-compatible server for a litellm judge "
        "(e.g. http://127.0.0.1:8000/v1).",
    )
    structured: Structured | None = Field(
        None,
        description="How a litellm judge answers: auto (the default: JSON with its "
        "reasoning first and the labels after, where litellm says the model takes a JSON "
        "schema; else plain text), none (plain text), json-schema, or json-object "
        "(llama.cpp's server). Templates of one's own are asked in plain text.",
    )
    max_tokens: int | None = Field(
        None, ge=1, description="Cap on a litellm judge's reply length, in tokens."
    )
    logprobs: bool = Field(
        False,
        description="Ask a litellm judge for its tokens' log-probabilities (the confidence "
        "check; providers and OpenAI-compatible servers that support them).",
    )
    timeout: float | None = Field(
        None,
        gt=0,
        description="Seconds a litellm judge's call may take (default 60).",
    )
    top_logprobs: int | None = Field(
        None,
        ge=1,
        le=20,
        description="Ask a litellm judge for each token's N likeliest alternatives (1 to "
        "20; implies logprobs): a rating's expected score (G-Eval) is taken from them.",
    )
    options: GuardOptions = Field(
        default_factory=GuardOptions, description="How to ask and decide."
    )

    @field_validator("panel", mode="before")
    @classmethod
    def _panel_list(cls, value: Any) -> Any:
        return _split(value)

    @field_validator("tiers", mode="before")
    @classmethod
    def _tier_lists(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = _split(value, ";")
        if isinstance(value, list | tuple):
            return [_split(tier) for tier in value]
        return value

    @field_validator("structured", mode="before")
    @classmethod
    def _dashes(cls, value: Any) -> Any:
        # LiteLLMJudge spells them with underscores: a config file written either way works
        return value.replace("_", "-") if isinstance(value, str) else value

    @field_validator("acceptance", mode="before")
    @classmethod
    def _read_acceptance(cls, value: Any) -> Any:
        try:
            if isinstance(value, str) and value.lstrip().startswith("{"):
                return Acceptance.from_json(value)
            if isinstance(value, str | os.PathLike):
                return Acceptance.load(os.fspath(value))
        except UsageError as exc:
            raise ValueError(str(exc).removeprefix("acceptance: ")) from None
        return value

    @field_validator("judge", "panel", "tiers")
    @classmethod
    def _python_form(cls, value: Any) -> Any:
        specs = [value] if isinstance(value, str) else list(value)
        for spec in (s for entry in specs for s in ([entry] if isinstance(entry, str) else entry)):
            if spec.startswith("python:") and spec.count(":") != 2:
                raise ValueError(f"{spec!r}: a python judge is 'python:<module>:<attr>'")
        return value

    @model_validator(mode="after")
    def _who_judges(self) -> GuardConfig:
        given = [name for name in ("panel", "tiers") if getattr(self, name)]
        if "judge" in self.model_fields_set and given:
            raise ValueError(f"judge: give judge, panel or tiers, not judge and {given[0]}")
        if len(given) > 1:
            raise ValueError("tiers: give a panel or tiers, not both")
        if self.tiers:
            levels = [len(tier) if len(tier) > 1 else None for tier in self.tiers]
        elif self.panel:
            levels = [len(self.panel)]
        else:
            levels = [None]
        problem = who_judges_problem(
            levels, tiers=bool(self.tiers), acceptance=self.acceptance is not None, panel="panel"
        )
        if problem is not None:
            raise ValueError(problem)
        return self

    # -- reading -----------------------------------------------------------------

    @classmethod
    def of(cls, base: GuardConfig | None = None, /, **changes: Any) -> GuardConfig:
        """A config from keyword arguments (on top of ``base``), or a UsageError naming
        the first bad setting and why."""
        data = {} if base is None else base.model_dump(exclude_unset=True)
        data.update(changes)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise usage_error(exc, unknown="not a setting of a guard", nested="options") from None

    @classmethod
    def from_settings(
        cls, settings: Mapping[str, Any], *, base: GuardConfig | None = None
    ) -> GuardConfig:
        """A config from flat settings (:data:`SETTINGS` names: ``judge``, ``template``,
        ``max_chars``, ...) over ``base``; ``None`` values are left out."""
        top: dict[str, Any] = {} if base is None else base.model_dump(exclude_unset=True)
        options: dict[str, Any] = dict(top.pop("options", {}))
        for name, value in settings.items():
            if value is None:
                continue
            where = SETTINGS.get(name)
            if where is None:
                raise UsageError(f"{name}: not a setting of a guard")
            if where == "options":
                # the configuration is the operator's: a template may be a file
                options[name] = template_file(value) if name == "template" else value
            else:
                top[name] = value
        return cls.of(**top, options=options)

    def settings(self) -> dict[str, Any]:
        """This config as flat settings (the inverse of :meth:`from_settings`)."""
        flat = self.model_dump(exclude={"options"})
        flat.update(self.options.model_dump())
        return flat

    # -- building ----------------------------------------------------------------

    def levels(self) -> list[list[str]]:
        """Who judges, as judge specs per tier: one tier (one judge, or the panel), or
        the cascade's tiers."""
        if self.tiers:
            return [list(tier) for tier in self.tiers]
        return [list(self.panel)] if self.panel else [[self.judge]]

    def build_judge(self, spec: str) -> Judge:
        """The judge ``spec`` names, with this config's judge settings."""
        return judge_from_spec(
            spec,
            api_base=self.api_base,
            structured=self.structured,
            max_tokens=self.max_tokens,
            logprobs=self.logprobs,
            timeout=self.timeout,
            top_logprobs=self.top_logprobs,
        )

    def build_judges(self) -> list[list[Judge]]:
        """Every judge, per tier (one tier: the judge, or the panel)."""
        return [[self.build_judge(spec) for spec in level] for level in self.levels()]

    def build(
        self,
        *,
        judges: Sequence[Sequence[JudgeLike]] | None = None,
        cache: Cache | Literal["memory"] | None = "memory",
        concurrency: int | None = None,
        limit: CallLimit | None = None,
        retry: Retry | None = None,
        rate_limit: RateLimit | None = None,
    ) -> Guard:
        """The :class:`~prin_guard.Guard` this config describes.

        ``judges`` (one list per tier, as :meth:`levels`) replaces building them from
        their specs: judges already loaded, wrapped or JudgeCallers (then give no cache,
        concurrency, limit, retry or rate limit: the callers have their own).
        """
        built: Sequence[Sequence[JudgeLike]] = judges if judges is not None else self.build_judges()
        if [len(level) for level in built] != [len(level) for level in self.levels()]:
            raise UsageError("judges: one list per tier, one judge per spec of that tier")
        levels: list[Any] = [level[0] if len(level) == 1 else list(level) for level in built]
        calling: dict[str, Any] = {}
        if not any(isinstance(j, JudgeCaller) for level in built for j in level):
            calling = {
                "cache": cache,
                "concurrency": concurrency,
                "limit": limit,
                "retry": retry,
                "rate_limit": rate_limit,
            }
        if self.tiers:
            return Guard(tiers=levels, acceptance=self.acceptance, options=self.options, **calling)
        return Guard(levels[0], acceptance=self.acceptance, options=self.options, **calling)


SETTINGS: Final[Mapping[str, Literal["config", "options"]]] = {
    **{name: "config" for name in GuardConfig.model_fields if name != "options"},
    **dict.fromkeys(GuardOptions.model_fields, "options"),
}
"""Every setting of a guard by its flat name, and whether it is the config's own or one
of its options'. The surfaces derive their names from these."""


def describe(field: str) -> str:
    """A setting's description, for help texts (``--help``, the service's docs)."""
    where = SETTINGS[field]
    model: type[BaseModel] = GuardConfig if where == "config" else GuardOptions
    return model.model_fields[field].description or ""


# -- the set-up as command-line flags ---------------------------------------------

JUDGE_SETTINGS: Final = (
    "judge",
    "api_base",
    "structured",
    "max_tokens",
    "logprobs",
    "timeout",
    "top_logprobs",
)
"""The settings of the judge itself (what ``probe`` takes)."""

CLI_EXCLUDED: Final[Mapping[str, str]] = {
    "on_inconsistent": "'raise' is for the Python API; on the command line an "
    "inconsistency is a flag on the verdict",
}
"""Settings with no flag, and why (the drift test reads this)."""

# Settings a command line spells differently from ``--<name>``: repeated flags.
_SPELLING: Final[Mapping[str, dict[str, Any]]] = {
    "panel": {"flag": "--panel", "action": "append", "metavar": "JUDGE"},
    "tiers": {"flag": "--tier", "action": "append", "metavar": "JUDGE[,JUDGE...]"},
    "mitigations": {"flag": "--mitigation", "action": "append", "metavar": "NAME"},
    "acceptance": {"metavar": "FILE"},
    "checks": {"metavar": "NAMES"},
}
_HELP: Final[Mapping[str, str]] = {
    "panel": "a panel member, spelled as --judge (repeat: at least two); replaces --judge",
    "tiers": "an escalation tier, cheapest first (repeat; a comma-separated list is a "
    "panel); a verdict not accepted by --acceptance goes to the next tier, and one no "
    "tier accepts is flagged abstained; replaces --judge",
    "mitigations": "cot or neg_exp (neg-exp works too; repeatable): cot shows reasoning "
    "paths or asks for step-by-step reasoning; neg_exp explains the negation in the "
    "reverse prompt",
}


def flag_of(name: str) -> str:
    """The command-line flag of a setting."""
    spelled = _SPELLING.get(name, {}).get("flag")
    return str(spelled) if spelled else "--" + name.replace("_", "-")


def _field(name: str) -> Any:
    model: Any = GuardConfig if SETTINGS[name] == "config" else GuardOptions
    return model.model_fields[name]


def _scalar(annotation: Any) -> tuple[type | None, list[str] | None]:
    """The flag's type and choices from a field's annotation (``X | None`` unwrapped)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if typing.get_origin(annotation) is typing.Literal:
        return str, [str(value) for value in typing.get_args(annotation)]
    if annotation in (int, float, bool):
        return annotation, None
    return str, None


def add_arguments(
    parser: argparse.ArgumentParser,
    names: Collection[str] | None = None,
    *,
    help: Mapping[str, str] | None = None,
) -> None:
    """Add a flag for each setting in ``names`` (default: every one with a flag).

    The flag is the setting's name (``max_chars``: ``--max-chars``), its help the
    field's description, its type and choices the field's; a flag left out keeps
    the setting's default (every flag defaults to ``None``).
    """
    wanted = [n for n in SETTINGS if n not in CLI_EXCLUDED and (names is None or n in names)]
    for name in wanted:
        field = _field(name)
        spelling = dict(_SPELLING.get(name, {}))
        spelling.pop("flag", None)
        text = (help or {}).get(name) or _HELP.get(name) or field.description or ""
        kind, choices = _scalar(field.annotation)
        enum = (field.json_schema_extra or {}).get("enum") if field.json_schema_extra else None
        if enum and not choices:
            choices = [str(value) for value in enum]
        keywords: dict[str, Any] = {"default": None, "help": text, **spelling}
        if kind is bool:
            keywords["action"] = "store_true"
        elif "action" not in keywords:
            keywords["type"] = kind
            if choices:
                keywords["choices"] = choices
        parser.add_argument(flag_of(name), dest=name, **keywords)


def to_args(config: GuardConfig) -> list[str]:
    """``config`` as the flags of :func:`add_arguments` (settings at their default left
    out): what a program passes to a ``prin-guard`` child process."""
    defaults = GuardConfig().settings()
    given = config.settings()
    if config.acceptance is not None:
        raise UsageError("acceptance: pass the file's path as --acceptance yourself")
    args: list[str] = []
    for name, value in given.items():
        if name in CLI_EXCLUDED or value == defaults.get(name):
            continue
        flag = flag_of(name)
        if isinstance(value, bool):
            args.append(flag)
        elif name == "tiers":
            args += [part for tier in value for part in (flag, ",".join(tier))]
        elif isinstance(value, list | tuple):
            if _SPELLING.get(name, {}).get("action") == "append":
                args += [part for entry in value for part in (flag, str(entry))]
            else:
                args += [flag, ",".join(str(entry) for entry in value)]
        else:
            args += [flag, repr(value) if isinstance(value, float) else str(value)]
    return args


def settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the flags of :func:`add_arguments` gave (unset flags left out)."""
    return {
        name: value
        for name in SETTINGS
        if (value := getattr(args, name, None)) is not None and value is not False
    }
