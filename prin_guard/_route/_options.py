"""How to judge: :class:`GuardOptions`, the one model of every option of a guard.

The command line, the HTTP service's request body, the LiteLLM Proxy guardrail
and the eval runner all describe a guard with this model, so an option is
spelled, checked and documented once. Allowed values come from the registries
that define them (templates from ``_prompts.TEMPLATES``, mitigations from
:class:`~prin_guard.Mitigation`, policies from the verdict model), so a
new template is accepted everywhere the day it is registered.

Spellings are forgiving where people differ and strict where a typo would
change the meaning: ``neg-exp``, ``neg_exp`` and ``NEG-EXP`` are one
mitigation; an unknown template is an error naming ``template`` and the known
ones.

A host that lets its clients choose only some options (the HTTP service keeps
``max_chars``, ``max_candidates`` and ``on_inconsistent`` for itself) describes them with
:meth:`GuardOptions.request_model`: a model of the remaining fields, built from
this one, so its schema and its checks cannot drift from it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
)

from prin_guard._prompting._prompts import (
    TEMPLATES,
    Mitigation,
    PromptLayout,
    Template,
    get_template,
    packs,
    parse_mitigations,
)
from prin_guard.errors import UsageError
from prin_guard.models import CHECKS, POLICIES, CheckName, Polarity, Policy, Task, known_word

__all__ = ["DEFAULT_CHECKS", "PROBE_KINDS", "GuardOptions", "OptionsRequest", "ProbeKind"]

ProbeKind = Literal["closed", "open", "leading", "progressive"]
PROBE_KINDS: tuple[ProbeKind, ...] = ("closed", "open", "leading", "progressive")

DEFAULT_CHECKS: dict[Task, tuple[CheckName, ...]] = {
    "choice": ("reverse",),
    # Position bias is the best-documented failure of pairwise judges (MT-Bench, LLMBar),
    # and the reverse question alone cannot see it: a judge that prefers whatever is shown
    # first calls the second one worse, consistently. The swap sees it, for two more legs.
    "pairwise": ("reverse", "order"),
    "checklist": ("reverse",),
    # A rating's order check needs a rubric to reorder (prin_guard.tasks._ratings); asked for, it
    # costs a third call.
    "rating": ("reverse",),
    # A ranking's order check asks both legs again in balanced orders (ranking_orders);
    # each order costs two calls or more, so it is asked for, not given.
    "ranking": ("reverse",),
    # A review's every score mirrored and its decision reversed: the reverse check alone
    # (it has no candidates to reorder).
    "review": ("reverse",),
}
"""The checks each task's items get when the options name none."""


class GuardOptions(BaseModel):
    """Everything about how a guard asks and decides that is not the judge or the cache.

    Frozen: the options that feed cache keys (template, mitigations) cannot change
    under a guard that has already cached answers.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", title="GuardOptions")

    template: str | Template | None = Field(
        None,
        description="Prompt wording. None: the task's default (choice v0, pairwise "
        "pairwise, checklist criteria). Choice: v0 the PRIN paper's (correct/incorrect), v1 "
        "right/wrong, v2 appropriate/inappropriate (the paper's paraphrases), v3 "
        "accurate/inaccurate and v4 valid/invalid (ours); pairwise: pairwise (better/worse); "
        "checklist: criteria (meets/fails to meet) or claims (the sources support/do not "
        "support). A pack (a judge prompt people run: mt-bench-pair, mt-bench-pair-ref, "
        "arena-hard, prometheus-relative), a path to a .toml or .json template file, or a "
        "template of your own: an object with id, version, task, positive, negative, noun "
        "and, for your own prompt text, system, instruction, contract, ... (Template). "
        "Ratings: none for prin-guard's own (rating), a rating pack (mt-bench-single, "
        "mt-bench-single-ref, arena-hard-v1-single, prometheus-absolute) or your own: a "
        "template with task rating, instruction, ...; a guard with one asks rating items "
        "only. Rankings: a ranking pack (llmzoo-order, rankgpt) or a ranking template of "
        "your own (task ranking); none: prin-guard's own ranking wording.",
        json_schema_extra={
            "anyOf": [{"enum": [*sorted(TEMPLATES)]}, {"type": "string"}, {"type": "object"}]
        },
    )
    mitigations: tuple[Mitigation, ...] = Field(
        (),
        description="cot: show each candidate's reasoning path (or ask for step-by-step "
        "reasoning); neg_exp: explain the negation in the reverse prompt. 'neg-exp' is "
        "accepted for neg_exp.",
    )
    policy: Policy = Field(
        "synergy",
        description="Which set is reported as correct: synergy (what both legs agree on), "
        "strict (what every leg of every check agrees on: synergy intersected with the "
        "second order's), "
        "direct or reverse.",
    )
    threshold: float = Field(
        0.0,
        ge=0.0,
        le=1.0,
        description="Largest PRIN (and order inconsistency) still consistent.",
    )
    checks: tuple[CheckName, ...] | None = Field(
        None,
        description="Checks run on every verdict: reverse (always: the direct and the reverse "
        "question), order (ask both again with the candidates in a second order; flag "
        "order_sensitive: four legs), swap (ask the direct question alone again in the second "
        "order, staggered behind the first leg so that it reads the shared instruction from a "
        "provider's prompt cache; flag order_sensitive: three legs; a rating's order check is "
        "one leg either way), confidence (flag low_confidence when the judge's own probability "
        "of its answer is under min_confidence; judges with log-probabilities only). None: "
        "each task's default, reverse for choice and checklist items, reverse and order for "
        "pairwise items (the swap, which sees position bias: two more legs per verdict).",
        json_schema_extra={
            "anyOf": [{"type": "array", "items": {"enum": list(CHECKS)}}, {"type": "null"}]
        },
    )
    min_confidence: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="With the confidence check: the lowest probability of a leg's answer "
        "that is not flagged low_confidence.",
    )
    max_chars: int = Field(
        32_000, ge=1, description="Longest question, context, candidate or reasoning accepted."
    )
    max_candidates: int = Field(
        64,
        ge=2,
        description="Most candidates accepted in one item (an item needs at least two).",
    )
    probe: ProbeKind | None = Field(
        None,
        description="Ask each leg again after its answer (closed: 'Are you sure?', open, "
        "leading, or progressive: all three in turn) and flag `vacillating` when the judge "
        "changes its mind. Costs more judge calls.",
    )
    reask: bool = Field(
        False,
        description="When a leg's reply cannot be read, ask the judge once more to state only "
        "its final answer in the template's form; the leg records the second reply "
        "(parse method 'reasked') and both calls' cost.",
    )
    reverse_legs: Literal["always", "uncertain"] = Field(
        "always",
        description="always: every verdict asks the reverse (and order) legs. uncertain: ask "
        "the direct leg first and the others only when its confidence (the judge's own "
        "probability of its answer, from log-probabilities) is under reverse_below, and for "
        "a sampled share monitor_share of the confident items; a confident verdict is the "
        "direct answer alone (selected 'confident'), with the flags only its leg can raise. "
        "A direct leg without a confidence counts as uncertain.",
    )
    reverse_below: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="With reverse_legs='uncertain': the direct leg's confidence under which the "
        "other legs are asked: the threshold 'prin-guard calibrate --signal "
        "direct_confidence' chose for a target error (None: the guard's acceptance file's, "
        "when its rule is on direct_confidence).",
    )
    monitor_share: float = Field(
        0.05,
        ge=0.0,
        le=1.0,
        description="With reverse_legs='uncertain': the share of confident items asked in full "
        "anyway (selected 'monitored', drawn by the item's id), so that eval can say what "
        "skipping the reverse legs missed.",
    )
    prompt_layout: PromptLayout = Field(
        "template",
        description="template: each template's own layout; the task templates (pairwise, "
        "criteria, claims) put what a verdict's legs share first (the item, the candidates, "
        "the reasoning paths) and each leg's own instruction last, so a provider's prompt "
        "cache serves the shared part; the paper's choice templates (v0-v4) keep the "
        "paper's sentence, the reasoning paths after it. shared_first: the choice "
        "templates too (their sentence ends with the options, 'Now please output the correct "
        "ones.' after the reasoning paths).",
    )
    stagger: Literal["auto", "off"] = Field(
        "auto",
        description="auto: where the judge's provider caches prompt prefixes and the prefix "
        "a verdict's legs share is long enough for it (litellm's minimum for the model: "
        "1,024 tokens for OpenAI, 1,024 to 4,096 for Anthropic's models), send the first "
        "leg ahead, marked for the cache (Anthropic's cache_control, OpenAI's "
        "prompt_cache_key), and the others once it has begun answering, so that they read "
        "the prefix from the cache; every other leg, and every leg of a judge that caches "
        "nothing, goes at once. off: every leg at once, unmarked.",
    )
    stagger_delay: float = Field(
        0.5,
        ge=0.0,
        le=30.0,
        description="With stagger: seconds the other legs wait for the first when the judge "
        "cannot say that it has begun answering (it does not stream); they go at its first "
        "token when it can, and at once when it has answered or failed.",
    )
    rating_aspects: Literal["apart", "together"] = Field(
        "apart",
        description="A rating item with aspects: apart, each aspect asked in calls of its "
        "own (its direct and its mirrored question about it alone, G-Eval's way: two calls "
        "per aspect); together, every aspect in one direct and one mirrored call, the reply "
        "giving one score per aspect on a line of its own ('Coherence: [[4]]'): two calls "
        "in all, as a judge that rates several aspects at once (one judge; no order check "
        "or probe).",
    )
    ranking_mode: Literal["full", "best"] = Field(
        "full",
        description="A ranking item: full, rank every response from the best to the worst "
        "(the direct leg) and from the worst to the best (the reverse leg); best, the cheap "
        "best-of-n mode: ask only which response is the best and which is the worst.",
    )
    ranking_orders: int | None = Field(
        None,
        ge=1,
        le=40,
        description="A ranking item: in how many orders of the responses its legs are asked "
        "(balanced: each response in each position about equally often, a Williams design; "
        "the first order is the one given). None: 3 with the order check (both legs in each "
        "order) or the swap check (the direct leg alone in the other orders), else 1.",
    )
    ranking_adaptive: bool = Field(
        False,
        description="A ranking item asked in several orders: ask the orders one at a time "
        "after the first two and stop as soon as the direct rankings of two orders agree "
        "(Kendall's tau-b at least 0.8).",
    )
    ranking_tolerance: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="A ranking item: the largest normalised Kendall distance (ties half a "
        "pair) between the direct ranking and the reverse one reversed, and between the "
        "rankings of two orders, still consistent: above it the verdict is flagged "
        "inconsistent (order_sensitive). 0.1 is one pair in ten ordered the other way "
        "(Kendall's tau-b 0.8 between strict rankings).",
    )
    ranking_window: int = Field(
        10,
        ge=3,
        le=20,
        description="A ranking item with more responses than this is ranked by sliding "
        "windows of this many (RankGPT's): from the end of the list to its start, half a "
        "window at a time, each window ranked and put back in its place; each leg is then "
        "several calls in turn.",
    )
    ranking_tournament: bool = Field(
        False,
        description="A ranking item: also judge every pair of its responses through the "
        "pairwise task, in both orders (four legs a pair), and report the tournament: its "
        "cycles (flag intransitive) and a Bradley-Terry ranking with 95 per cent intervals.",
    )
    on_inconsistent: Literal["flag", "raise"] = Field(
        "flag",
        description="flag: an inconsistency is a flag on the verdict; raise: "
        "InconsistentVerdictError (Python API only).",
    )

    @field_validator("template", mode="before")
    @classmethod
    def _known_template(cls, value: Any) -> Any:
        if isinstance(value, str) and value.lstrip().startswith("{"):
            # a template of one's own, as the command line and environment spell it
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise ValueError(f"not a template id and not JSON: {exc}") from None
        if isinstance(value, dict):
            try:
                value = Template.from_mapping(value)  # a label or a rating template
            except UsageError as exc:
                raise ValueError(str(exc).removeprefix("template: ")) from None
        if isinstance(value, str) and value not in TEMPLATES and value not in packs():
            # never a file: options may come from a request (a file is read by the
            # program's own surfaces: Guard(template=path), --template, a configuration)
            known = ", ".join([*sorted(TEMPLATES), *sorted(packs())])
            raise ValueError(
                f"unknown template {value!r}; known: {known} (a template file is loaded by "
                "Guard(template=path), --template and a service's configuration)"
            )
        if isinstance(value, Template):
            named = TEMPLATES.get(value.id) or packs().get(value.id)
            if named is not None:
                if named != value:
                    raise ValueError(
                        f"{value.id!r} is one of prin-guard's templates; give yours another id"
                    )
                return value.id  # one spelling for a bundled template or a pack
        return value

    @field_validator("mitigations", mode="before")
    @classmethod
    def _normal_mitigations(cls, value: Any) -> Any:
        if value is None:
            return ()
        if isinstance(value, str):
            value = [part for part in value.split(",") if part.strip()]
        try:
            return parse_mitigations(
                tuple(v.strip().lower() if isinstance(v, str) else v for v in value)
            )
        except (UsageError, TypeError) as exc:
            raise ValueError(str(exc).removeprefix("mitigations: ")) from None

    @field_validator("checks", mode="before")
    @classmethod
    def _known_checks(cls, value: Any) -> Any:
        if value is None:
            return None  # each task's default (DEFAULT_CHECKS); a choice given wins
        if isinstance(value, str):
            value = [part for part in value.split(",") if part.strip()]
        if not isinstance(value, list | tuple):
            raise ValueError("must be a list of check names or a comma-separated string")
        names: list[str] = []
        for name in value:
            if not isinstance(name, str) or name.strip().lower() not in CHECKS:
                raise ValueError(f"unknown check {name!r}; known: {', '.join(CHECKS)}")
            if name.strip().lower() not in names:
                names.append(name.strip().lower())
        if "reverse" not in names:
            raise ValueError(
                "must include 'reverse': every verdict asks the direct and the reverse "
                "question (the other checks come on top)"
            )
        if "order" in names and "swap" in names:
            raise ValueError(
                "name 'order' or 'swap', not both: 'swap' is the order check's direct "
                "question alone (three legs), 'order' asks both questions again (four)"
            )
        # one spelling per set of checks: the registry's order
        return tuple(check for check in CHECKS if check in names)

    @field_validator("probe", mode="before")
    @classmethod
    def _known_probe(cls, value: Any) -> Any:
        return known_word(value, PROBE_KINDS, "probe")

    @field_validator("policy", mode="before")
    @classmethod
    def _known_policy(cls, value: Any) -> Any:
        return known_word(value, POLICIES, "policy")

    @classmethod
    def of(cls, options: GuardOptions | None = None, /, **changes: Any) -> GuardOptions:
        """Options from keyword arguments (on top of ``options``), or a UsageError
        naming the first bad field and why."""
        data = {} if options is None else options.model_dump()
        data.update(changes)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise usage_error(exc) from None

    @classmethod
    def request_model(
        cls,
        name: str,
        *,
        exclude: Iterable[str] = (),
        names_only: Iterable[str] = (),
        doc: str | None = None,
    ) -> type[OptionsRequest]:
        """A model of these options without the ``exclude`` fields, for a request body.

        Its fields are copies of this model's (types, defaults, bounds, descriptions,
        the allowed values of the registries) and its field validators are this
        model's, so its JSON schema and its checks are the options' own; the
        excluded fields are unknown to it (``extra="forbid"``: a client sending one
        gets an error naming it). ``names_only`` fields take a name (a string) the host
        resolves itself, not the option's own values (a template by id, never a template
        object from the client). :meth:`OptionsRequest.to_options` turns an instance into
        :class:`GuardOptions`, with the excluded fields from the host.
        """
        excluded = frozenset(exclude)
        named = frozenset(names_only)
        unknown = sorted(excluded - set(cls.model_fields))
        if unknown:
            raise UsageError(f"exclude: not an option: {', '.join(unknown)}")
        fields: dict[str, Any] = {
            # deep copies: a FieldInfo belongs to the model it was collected into
            field: (info.annotation, copy.deepcopy(info))
            for field, info in cls.model_fields.items()
            if field not in excluded
        }
        for field in named & set(fields):
            info = copy.deepcopy(cls.model_fields[field])
            info.json_schema_extra = None
            fields[field] = (str | None, info)
        validators: dict[str, Any] = {}
        for attribute, decorator in cls.__pydantic_decorators__.field_validators.items():
            kept = [field for field in decorator.info.fields if field not in excluded | named]
            if kept:
                # pydantic keeps a classmethod validator bound to this class; rebind
                # it to the new model, or its signature reads as (cls, value) and it
                # would be handed the validation info as the value.
                function = getattr(decorator.func, "__func__", None)
                validator: Any = classmethod(function) if function is not None else decorator.func
                validators[attribute] = field_validator(*kept, mode=decorator.info.mode)(validator)
        return create_model(
            name,
            __base__=OptionsRequest,
            __doc__=doc or "How to judge: the guard's options.",
            __module__=cls.__module__,
            __validators__=validators,
            **fields,
        )

    @property
    def rating_template(self) -> Template | None:
        """``template`` when it is a rating template (a pack, or one's own)."""
        if self.template is None:
            return None
        chosen = get_template(self.template)  # an id or an object: never a file here
        return chosen if chosen.task == "rating" else None

    @property
    def label_template(self) -> str | Template | None:
        """``template`` as the label tasks (choice, pairwise, checklist) read it; a
        UsageError when it is a rating template, which asks rating items only."""
        rating = self.rating_template
        if rating is not None:
            raise UsageError(
                f"template: {rating.id!r} is a rating prompt: it asks rating items only"
            )
        return self.template

    def checks_for(self, task: Task) -> tuple[CheckName, ...]:
        """The checks an item of ``task`` gets: the options' own, or the task's default
        (:data:`DEFAULT_CHECKS`)."""
        return self.checks if self.checks is not None else DEFAULT_CHECKS[task]

    def ranking_order_count(self) -> int:
        """How many orders a ranking item's legs are asked in (see ``ranking_orders``)."""
        if self.ranking_orders is not None:
            return self.ranking_orders
        return 3 if self.second_order("ranking") else 1

    def second_order(self, task: Task) -> tuple[Polarity, ...]:
        """The questions an item of ``task`` is asked again with its candidates in a second
        order: both with ``order``, the direct one with ``swap``, none without either."""
        checks = self.checks_for(task)
        if "order" in checks:
            return (Polarity.DIRECT, Polarity.REVERSE)
        return (Polarity.DIRECT,) if "swap" in checks else ()

    def key(self) -> tuple[Any, ...]:
        """A hashable identity of these options (for caches of guards)."""
        return tuple(getattr(self, name) for name in type(self).model_fields)


class OptionsRequest(BaseModel):
    """Some of a guard's options, as a client sends them: the base of the models
    :meth:`GuardOptions.request_model` builds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_options(self, base: GuardOptions | None = None, /, **fixed: Any) -> GuardOptions:
        """These options over ``base``, with ``fixed`` (the fields the host keeps) on top.

        Only the fields the client gave override ``base``: the others keep the host's.

        Validated again as a whole by :class:`GuardOptions` (a UsageError naming the
        field), so a check that spans fields cannot be skipped.
        """
        return GuardOptions.of(base, **{**self.model_dump(exclude_unset=True), **fixed})


def usage_error(
    exc: ValidationError, *, unknown: str | None = None, nested: str | None = None
) -> UsageError:
    """The first error of a validation, as a UsageError naming the field and why.

    ``unknown`` is what an unknown field is told (default: the options' names); the
    fields of ``nested`` (a field holding a model) are named by their own names, as
    settings are (``template``, not ``options.template``). A check across fields names
    its field in its own message ("panel: needs two judges").
    """
    first = exc.errors()[0]
    loc = [str(part) for part in first["loc"] if not isinstance(part, int)]
    message = str(first["msg"]).removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        message = unknown or (
            f"not an option; the options are {', '.join(GuardOptions.model_fields)}"
        )
    if nested is not None and len(loc) > 1 and loc[0] == nested:
        loc = loc[1:]
    if not loc:
        named, _, rest = message.partition(": ")
        return UsageError(message if rest and named.isidentifier() else f"options: {message}")
    return UsageError(f"{'.'.join(loc)}: {message}")
