"""The HTTP API's request and response bodies (they make the OpenAPI schema).

Items are not validated by the request model: a bad item in a batch must cost
only its own verdict, so items reach the guard as they came and the guard's own
validation names the field. The schema still documents them as :class:`ItemIn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, model_validator
from pydantic.json_schema import SkipJsonSchema

from prin_guard._route._options import GuardOptions, OptionsRequest
from prin_guard.models import Candidate, ChecklistKind, Verdict

__all__ = [
    "SERVER_OWNED_OPTIONS",
    "AspectIn",
    "BatchVerdictResponse",
    "ErrorBody",
    "ErrorResponse",
    "HealthResponse",
    "ItemError",
    "ItemIn",
    "RatingItemIn",
    "ReadyResponse",
    "ReviewItemIn",
    "ScaleIn",
    "SingleVerdictResponse",
    "VerdictOptions",
    "VerdictRequest",
]


class ItemIn(BaseModel):
    """An item to judge: answer options to a question (choice), two responses to an
    instruction (pairwise), or a response and criteria or claims (checklist)."""

    model_config = ConfigDict(extra="forbid", title="Item")

    task: Literal["choice", "pairwise", "checklist"] = Field(
        "choice",
        description="choice: which answer options are correct; pairwise: which of two "
        "responses is better; checklist: which criteria a response meets (or which claims "
        "its sources support).",
    )
    question: str | None = Field(
        None,
        description="The question (choice), the instruction (pairwise), or what the "
        "response answers (checklist, optional).",
    )
    candidates: list[str | Candidate] = Field(
        min_length=1,
        description="Answer options (at least two), exactly two responses, or criteria or "
        "claims (at least one): plain strings, or objects with text, an optional label, an "
        "optional reasoning path and (checklist) an optional weight.",
    )
    context: str | None = Field(
        None, description="Material the judge needs (a passage, a rubric, the sources)."
    )
    response: str | None = Field(None, description="Checklist: the response under evaluation.")
    kind: ChecklistKind | None = Field(
        None,
        description="Checklist: what the candidates are, criteria (the default) or claims "
        "(checked against the sources in context). Chooses the template when the options "
        "name none.",
    )
    id: str | None = Field(None, description="Your identifier; a content hash otherwise.")
    gold: Any = Field(
        None, description="Ignored (a dataset row's gold labels may travel with the item)."
    )


class ScaleIn(BaseModel):
    """A rating's scale: integer bounds, optionally a label and a rubric description per
    level (keyed by the level), decimals, and the tolerance within which the two legs
    agree (one point up to 11 levels, else a tenth of the range, when not given)."""

    model_config = ConfigDict(extra="forbid", title="Scale")

    min: int = Field(description="The lowest score (|n| <= 1,000,000).")
    max: int = Field(description="The highest score, above min; at most 101 levels.")
    labels: dict[str, str] | None = Field(None, description="A name per level.")
    rubric: dict[str, str] | None = Field(
        None, description="A description per level (Prometheus style), shown to the judge."
    )
    decimals: bool = Field(False, description="Whether a score may be a decimal (7.5).")
    tolerance: float | None = Field(
        None, description="How far the two legs may differ and still agree."
    )


class AspectIn(BaseModel):
    """One named aspect of a rating (G-Eval's coherence, fluency, ...)."""

    model_config = ConfigDict(extra="forbid", title="Aspect")

    name: str = Field(description="The aspect's name, 1 to 128 characters, unique in the item.")
    description: str | None = Field(None, description="What the aspect means.")
    scale: ScaleIn | None = Field(None, description="Its own scale; the item's otherwise.")


class RatingItemIn(BaseModel):
    """A response to rate on a scale: asked how good it is, and on the mirrored scale how
    poor; the verdict's ``rating`` reconciles the two."""

    model_config = ConfigDict(extra="forbid", title="RatingItem")

    task: Literal["rating"]
    response: str = Field(description="The response to rate.")
    scale: ScaleIn
    question: str | None = Field(None, description="What the response answers.")
    reference: str | None = Field(None, description="A reference answer to compare with.")
    context: str | None = Field(None, description="Material the judge needs.")
    id: str | None = Field(None, description="Your identifier; a content hash otherwise.")
    aspects: list[str | AspectIn] | None = Field(
        None,
        description="Rate on each of these named aspects instead (at most 32), each asked "
        "in calls of its own (or all in two calls, with the option rating_aspects="
        "'together'), on its own scale or the item's; the verdict's `aspects` holds each "
        "one's verdict.",
    )


class ReviewItemIn(BaseModel):
    """A paper to review with a review form: the form asked as written and mirrored (every
    score mirrored, the decision reversed), its coherence checked; the verdict's ``review``
    holds the form guarded, ``aspects`` each score's verdict."""

    model_config = ConfigDict(extra="forbid", title="ReviewItem")

    task: Literal["review"]
    title: str | None = Field(None, description="The paper's title.")
    abstract: str | None = Field(None, description="The paper's abstract.")
    document: str | None = Field(
        None, description="The paper's full text or markdown (then title and abstract aside)."
    )
    form: str | None = Field(
        None, description="A shipped review form: iclr (default), ai-scientist."
    )
    system: str | None = Field(None, description="Which of the form's system messages to send.")
    rebuttal: str | None = Field(
        None,
        description="The rebuttal probe: no-evidence or hostile (shipped), or the rebuttal's text.",
    )
    rebuttal_tolerance: float | None = Field(
        None, description="Points a score may move after the rebuttal before it sways the review."
    )
    context_tokens: int | None = Field(
        None,
        description="The judge's context in tokens: a longer paper is refused before any call.",
    )
    id: str | None = Field(None, description="Your identifier; a content hash otherwise.")


def _as_given(value: Any) -> Any:
    return value


RawItem = Annotated[
    Any, PlainValidator(_as_given, json_schema_input_type=ItemIn | RatingItemIn | ReviewItemIn)
]
"""An item exactly as sent; documented as :class:`ItemIn`, :class:`RatingItemIn` or
:class:`ReviewItemIn`,
checked by the guard."""


# A client chooses how its items are judged, never the service's own limits:
# max_chars is the server's (configuration), and the service always flags an
# inconsistency (raising is for the Python API). Everything else is GuardOptions'
# own fields and checks, so the schema cannot drift from the guard.
SERVER_OWNED_OPTIONS: Final = ("max_chars", "max_candidates", "on_inconsistent")

if TYPE_CHECKING:
    # A model built at runtime is no type to mypy; its base has the methods used.
    VerdictOptions = OptionsRequest
else:
    VerdictOptions = GuardOptions.request_model(
        "VerdictOptions",
        exclude=SERVER_OWNED_OPTIONS,
        # a template by id, among those the operator offers (request_templates)
        names_only=("template",),
        doc="How to judge: the guard's options (the service sets max_chars itself; a "
        "template is chosen by id among those the service offers).",
    )


class VerdictRequest(BaseModel):
    """Either one item (`item`) or a batch (`items`), and the options."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["item"]}, {"required": ["items"]}]},
    )

    item: RawItem = Field(None, description="One item; a bad item is a 422 naming the field.")
    items: list[RawItem] | SkipJsonSchema[None] = Field(
        None,
        description="A batch, judged concurrently; verdicts come back in input order. A bad "
        "item gets a verdict flagged invalid_item and an entry in `errors`.",
    )
    options: VerdictOptions = Field(default_factory=VerdictOptions)

    @model_validator(mode="before")
    @classmethod
    def _wrapped(cls, data: Any) -> Any:
        # An item sent as the body itself would otherwise be refused field by field
        # ("question: Extra inputs are not permitted"), never naming what is missing.
        if isinstance(data, dict) and "item" not in data and "items" not in data:
            unwrapped = [name for name in ItemIn.model_fields if name in data]
            raise ValueError(
                "the body needs 'item' (one item) or 'items' (a batch)"
                + (
                    f"; it has the item's own fields ({', '.join(unwrapped)}) at the top: "
                    'send {"item": {"question": ..., "candidates": [...]}}'
                    if unwrapped
                    else ""
                )
            )
        return data

    @model_validator(mode="after")
    def _one_of(self) -> VerdictRequest:
        if (self.item is None) == (self.items is None):
            raise ValueError("send either 'item' (one item) or 'items' (a batch), not both")
        return self


class SingleVerdictResponse(BaseModel):
    verdict: Verdict


class ItemError(BaseModel):
    """Why the verdict at `index` has no legs."""

    index: int
    kind: Literal["input", "judge"]
    field: str | None = None
    """For input errors, the dotted path of the offending field."""
    reason: str


class BatchVerdictResponse(BaseModel):
    verdicts: list[Verdict]
    """One per item, in input order."""
    errors: list[ItemError]
    """The items that could not be judged, by index."""


class ErrorBody(BaseModel):
    type: str
    """invalid_request, invalid_item, unauthorized, body_too_large, batch_too_large,
    judge_error, timeout, not_found, method_not_allowed, unavailable, internal_error."""
    message: str
    field: str | None = None
    """The dotted path of the offending field (invalid_request, invalid_item)."""
    reason: str | None = None
    limit: str | None = None
    """The configuration setting that was exceeded (max_body_bytes, max_batch, max_chars)."""
    max: int | None = None
    errors: list[dict[str, Any]] | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


class HealthResponse(BaseModel):
    status: Literal["ok", "degraded"]
    judge: dict[str, Any]
    redis: Literal["ok", "unreachable", "not_configured"]
    version: str


class ReadyResponse(BaseModel):
    """Whether this worker can serve verdicts now (``/readyz``: 200 ready, 503 not)."""

    status: Literal["ready", "not_ready"]
    reason: Literal["starting", "draining"] | None = None
    """Why not: the worker is starting, it is shutting down (finishing the requests in
    flight, taking no new ones), or the configured Redis does not answer a ping."""
