"""prin-guard as a LiteLLM Proxy custom guardrail.

LiteLLM Proxy loads this file by path: put it next to the proxy's ``config.yaml``
and name it in the config's ``guardrails`` section::

    guardrails:
      - guardrail_name: prin-guard
        litellm_params:
          guardrail: prin_guard_guardrail.PrinGuardGuardrail
          mode: [pre_call, post_call]
          default_on: true

A judge request carries its item in the request metadata (the body's
``metadata``; from the OpenAI client, ``metadata=`` or ``extra_body={"metadata": ...}``)::

    "metadata": {"prin_guard": {"question": "...", "candidates": ["7", "8", "9"],
                                "context": "...", "id": "...",
                                "template": "v0", "mitigations": ["neg_exp"]}}

or a rating to guard (how good a response is on a scale, and on the mirrored scale how
poor; the verdict's ``rating`` reconciles the two)::

    "metadata": {"prin_guard": {"task": "rating", "question": "...", "response": "...",
                                "scale": {"min": 1, "max": 10}}}

or a ranking of 3 to 20 responses (best to worst, and worst to best; the verdict's
``ranking`` is their consensus, with ``best`` and ``worst``; with the ``order`` check
each leg is asked again in two more orders, through the router)::

    "metadata": {"prin_guard": {"task": "ranking", "question": "...",
                                "candidates": ["...", "...", "..."]}}

The options are prin-guard's :class:`~prin_guard.GuardOptions`, spelled and checked
as everywhere else (``neg-exp`` works for ``neg_exp``). A request may set the ones
the operator lists in the ``request_options`` setting (by default ``template`` and
``mitigations``: how to ask, never what is blocked or how much is spent), out of
``PER_REQUEST_OPTIONS``; a ``template`` only among those ``request_templates`` names
(never a template of the request's own: its words would be instructions to the judge);
``max_chars`` and ``max_candidates`` are the guardrail's settings only.

Pre-call, the request's messages are replaced by prin-guard's direct prompt ("which
are correct?") and the reverse leg ("which are incorrect?") is sent through the
proxy's own router to the same model group, concurrently with the direct call.
Post-call, the model's answer is the direct leg; both legs are parsed and
reconciled by prin-guard and the verdict is attached to the response:

- the body gets a top-level ``prin_guard`` field holding the whole verdict
  (``prin_guard.Verdict`` as JSON; ``Verdict.model_validate_json(json.dumps(field))``
  reads it back); the OpenAI Python client exposes it as
  ``response.model_extra["prin_guard"]``;
- the headers ``x-prin-guard-prin-score``, ``x-prin-guard-consistent``,
  ``x-prin-guard-correct``, ``x-prin-guard-flags`` and ``x-prin-guard-direct-leg``
  summarise it for clients and gateways that drop unknown body fields.

A failed leg reaches the client as a kind and an id (``judge_error``, "the proxy log
has the details (error id ...)"), never as the provider's text: that text is logged
once (``judge_failed``), under the same id, redacted of secrets as every prin-guard
error is when it is made (docs/security.md lists what is redacted).

A request without ``metadata.prin_guard`` passes through untouched. Nothing here
needs the proxy's database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from litellm.integrations.custom_guardrail import CustomGuardrail

from prin_guard import (
    Flag,
    Guard,
    GuardOptions,
    Item,
    JudgeError,
    Retry,
    UsageError,
    Verdict,
)
from prin_guard.judges import JudgeResponse
from prin_guard.models import (
    TEMPLATES,
    Message,
    Polarity,
    RankingItem,
    RatingItem,
    Template,
    Usage,
)

__all__ = [
    "DEFAULT_REQUEST_OPTIONS",
    "GUARD_SETTINGS",
    "PER_REQUEST_OPTIONS",
    "PrinGuardGuardrail",
]

logger = logging.getLogger("prin_guard.litellm_proxy")

METADATA_KEY = "prin_guard"
"""The key under the request's ``metadata`` that marks a judge request."""

RESPONSE_FIELD = "prin_guard"
"""The top-level response field that carries the verdict."""

GUARD_SETTINGS = tuple(name for name in GuardOptions.model_fields if name != "on_inconsistent")
"""The guardrail settings that are the guard's options (every :class:`~prin_guard.GuardOptions`
field but ``on_inconsistent``, which is the guardrail's own: ``flag`` or ``block``)."""

PER_REQUEST_OPTIONS = (
    "template",
    "mitigations",
    "threshold",
    "policy",
    "checks",
    "min_confidence",
    "probe",
)
"""The guard options a judge request may ever set next to its item, when the operator
lists them in the ``request_options`` setting.

Never ``max_chars`` nor ``max_candidates``: they are the operator's bounds on what the
proxy accepts. ``on_inconsistent`` is the guardrail's own (``flag`` or ``block``)."""

DEFAULT_REQUEST_OPTIONS = ("template", "mitigations")
"""The options a request may set unless the operator says otherwise (``request_options``).

How the two questions are worded, which is the client's business: the same calls,
the same decision rule. Not ``threshold``, ``policy``, ``checks`` or
``min_confidence``: they change what is called consistent, so what ``on_inconsistent:
block`` blocks (a request asking ``threshold: 1.0`` would let any contradiction
through). Not ``probe`` nor ``checks`` either for what they cost: follow-ups and the
``order`` check's legs are extra model calls through the router, which the proxy does
not bill to the calling key."""

_LEG_KEY = "prin_guard_reverse_leg"
"""The key, under the request's metadata, of the reverse leg the pre-call hook started.

A random token the guardrail writes there itself (over whatever the client sent), so
the post-call hook finds the leg of this request, never another's: the proxy's
``litellm_call_id`` would do as well, but a client sets it (``x-litellm-call-id``)."""

_MAX_JSON_DEPTH = 32
"""The deepest nesting of a JSON string the guardrail parses (an item needs 3 levels)."""

# Request parameters that change what the model answers: the reverse leg is asked
# with the same ones as the direct leg, so the two answers are comparable.
_SAMPLING_KEYS = (
    "temperature",
    "top_p",
    "seed",
    "max_tokens",
    "max_completion_tokens",
    "stop",
    "presence_penalty",
    "frequency_penalty",
    "response_format",
)

_CHAT_CALL_TYPES = ("completion", "acompletion")


class _Request:
    """What one judge request asks: the item and the guard options for it."""

    __slots__ = ("item", "options")

    def __init__(self, item: Item | RatingItem | RankingItem, options: GuardOptions) -> None:
        self.item = item
        self.options = options


class _Answer:
    """A leg's answer from the router, and how long the call took."""

    __slots__ = ("latency_ms", "response")

    def __init__(self, response: JudgeResponse, latency_ms: float) -> None:
        self.response = response
        self.latency_ms = latency_ms


class _ProxyJudge:
    """The judge a per-request Guard talks to.

    The conversation the proxy already sent to the model is answered with the
    model's reply; a conversation whose call was started in the pre-call hook is
    answered by that call; any other conversation goes through the proxy's router
    to the same model group.
    """

    def __init__(
        self,
        guardrail: PrinGuardGuardrail,
        model: str,
        params: Mapping[str, Any],
        parent_call_id: str | None,
        answered: tuple[str, JudgeResponse, float | None] | None,
        started: dict[str, asyncio.Task[_Answer]],
    ) -> None:
        self._guardrail = guardrail
        self._model = model
        self._params = params
        self._parent_call_id = parent_call_id
        self._answered = answered
        self._started = started
        self.routed: list[str] = []
        """Keys of the conversations this judge sent through the router."""
        self.latency_ms: dict[str, float] = {}
        """How long the model took on each conversation, by key, when known."""

    def identity(self) -> Mapping[str, Any]:
        return {"kind": "litellm-proxy", "model": self._model}

    async def complete(
        self, messages: Sequence[Mapping[str, str]], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        key = _messages_key(messages)
        if self._answered is not None and key == self._answered[0]:
            _, response, latency_ms = self._answered
            if latency_ms is not None:
                self.latency_ms[key] = latency_ms
            return response
        task = self._started.pop(key, None)
        if task is None:
            self.routed.append(key)
            task = asyncio.ensure_future(
                self._guardrail._ask(self._model, messages, self._params, self._parent_call_id)
            )
        try:
            answer = await task
        except JudgeError:
            raise
        except Exception as exc:
            # The router has retried already. A JudgeError is the guard's to report, not
            # to log: the guardrail logs the failure once, under the id the client gets.
            raise JudgeError(f"the proxy's call failed: {type(exc).__name__}: {exc}") from exc
        self.latency_ms[key] = answer.latency_ms
        return answer.response


class PrinGuardGuardrail(CustomGuardrail):
    """Ask the judge both questions through the proxy and attach prin-guard's verdict.

    Settings (``litellm_params`` in the proxy config, all optional):

    - the guard's options, by their :class:`prin_guard.GuardOptions` names
      (``GUARD_SETTINGS``): ``template`` (``v0``), ``mitigations`` (``[]``),
      ``threshold`` (``0.0``), ``policy`` (``synergy``), ``checks`` (each task's default:
      ``["reverse"]``, and ``["reverse", "order"]`` for pairwise items; ``order`` sends
      two more legs through the router, concurrently),
      ``min_confidence`` (``0.5``), ``max_chars`` (``32000``), ``max_candidates``
      (``64``), ``probe`` (none); a request may override the ones in
      ``request_options`` in its metadata.
    - ``request_options`` (``DEFAULT_REQUEST_OPTIONS``: ``[template, mitigations]``):
      the options a request may set in its metadata, out of ``PER_REQUEST_OPTIONS``;
      a request that sets another gets HTTP 400 naming it.
    - ``request_templates`` (prin-guard's built-in templates and the configured
      ``template``): the templates a request may choose by id; each a built-in's id or
      a template of the operator's own (an object: id, version, task, positive,
      negative, noun). A request never brings a template of its own (its words would be
      instructions to the judge): HTTP 400.
    - ``timeout``: seconds allowed for each leg the guardrail sends itself.
    - ``concurrent_reverse`` (``true``): with ``pre_call`` in ``mode``, start the
      reverse leg while the direct call runs, so a verdict costs about one call's
      latency instead of two.
    - ``on_inconsistent``: ``flag`` (default; the verdict says so) or ``block``
      (the client gets HTTP 422 with the verdict in the error detail).
    - ``on_error``: ``flag`` (default; a failed reverse leg gives a verdict flagged
      ``judge_error`` and the direct answer still goes back) or ``block`` (HTTP 502).
      Either way the client gets an error id, and the proxy log the error's text.
    """

    def __init__(
        self,
        *,
        concurrent_reverse: bool = True,
        on_inconsistent: str = "flag",
        on_error: str = "flag",
        request_options: Sequence[str] | str | None = None,
        request_templates: Sequence[Any] | str | None = None,
        **kwargs: Any,
    ) -> None:
        settings = {name: kwargs.pop(name) for name in GUARD_SETTINGS if name in kwargs}
        super().__init__(**kwargs)
        # Fail at proxy start-up, not on the first request, on a bad setting (the
        # UsageError names it: "template: unknown template 'v9'; known: ..."); the
        # guard built after checks what only a guard can (a probe it can run).
        self.options = GuardOptions.of(
            **{name: value for name, value in settings.items() if value is not None}
        )
        _build_guard(self._placeholder_judge(), self.options)
        self.concurrent_reverse = _as_bool(concurrent_reverse, "concurrent_reverse")
        self.request_options = _request_options(request_options)
        self.request_templates = _request_templates(request_templates, self.options.template)
        if on_inconsistent not in ("flag", "block"):
            raise ValueError(f"on_inconsistent: 'flag' or 'block', got {on_inconsistent!r}")
        if on_error not in ("flag", "block"):
            raise ValueError(f"on_error: 'flag' or 'block', got {on_error!r}")
        self.on_inconsistent = on_inconsistent
        self.on_error = on_error
        # Reverse legs started in the pre-call hook, by the token under _LEG_KEY.
        self._pending: dict[str, tuple[str, asyncio.Task[_Answer]]] = {}
        if not self._event_hook_is_event_type_name("post_call"):
            logger.warning(
                "prin-guard guardrail %r: mode has no post_call, so no verdict is ever "
                "computed; use mode: [pre_call, post_call]",
                self.guardrail_name,
            )

    # -- proxy hooks ----------------------------------------------------------------

    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: str
    ) -> dict[str, Any] | None:
        """Validate a judge request, ask it in prin-guard's words, start the reverse leg."""
        request = self._read_request(data)
        if request is None:
            return None
        _check_request_shape(data, call_type)
        guard = self._guard_for(request, None)
        direct = _leg_messages(guard, request.item, Polarity.DIRECT)
        data["messages"] = [dict(m) for m in direct]
        bucket = _metadata_bucket(data)
        if bucket is not None:
            bucket.pop(_LEG_KEY, None)  # a client's own value names no leg
        call_id = data.get("litellm_call_id")
        model = data.get("model")
        if self.concurrent_reverse and bucket is not None and isinstance(model, str):
            reverse = _leg_messages(guard, request.item, Polarity.REVERSE)
            parent = call_id if isinstance(call_id, str) else None
            task = asyncio.ensure_future(self._ask(model, reverse, _sampling(data), parent))
            # Never leave an exception unretrieved when nobody awaits the task.
            task.add_done_callback(_consume_exception)
            token = secrets.token_urlsafe(16)
            bucket[_LEG_KEY] = token
            self._pending[token] = (_messages_key(reverse), task)
            asyncio.get_running_loop().call_later(self._pending_ttl(), self._expire, token, task)
        return data

    async def async_post_call_success_hook(
        self, data: dict[str, Any], user_api_key_dict: Any, response: Any
    ) -> Any:
        """Reconcile the model's answer (direct leg) with the reverse leg; attach the verdict."""
        token = _leg_token(data)
        pending = self._pending.pop(token, None) if token is not None else None
        started = {pending[0]: pending[1]} if pending else {}
        call_id = data.get("litellm_call_id")
        try:
            request = self._read_request(data)
            if request is None:
                return None
            if data.get("stream"):
                # The proxy runs post-call hooks on a stream only after the client has
                # it: a verdict could reach the logs, never the client. Not worth two calls.
                logger.warning("prin-guard: a streamed judge request gets no verdict")
                return None
            answer = _answer_of(response, data)
            if answer is None:
                logger.warning("prin-guard: the response has no message to judge; left as is")
                return None
            messages = data.get("messages")
            answered = (
                (_messages_key(messages), answer, _response_ms(response))
                if isinstance(messages, list) and _plain_messages(messages)
                else None
            )
            judge = _ProxyJudge(
                self,
                str(data.get("model") or ""),
                _sampling(data),
                call_id if isinstance(call_id, str) else None,
                answered,
                started,
            )
            guard = self._guard_for(request, judge)
            started_at = time.time()
            try:
                verdict = await guard.acheck(request.item)
            except JudgeError as exc:
                verdict = guard.failed_verdict(request.item, exc)
            verdict, error_id = _for_client(verdict, call_id)
            verdict = _with_latencies(verdict, guard, request.item, judge.latency_ms)
            direct_leg = (
                "router"
                if _messages_key(_leg_messages(guard, request.item, Polarity.DIRECT))
                in judge.routed
                else "response"
            )
            self._attach(response, verdict, direct_leg)
            self._log_verdict(data, verdict, started_at)
            if Flag.JUDGE_ERROR in verdict.flags and self.on_error == "block":
                raise _http_error(
                    502,
                    "prin-guard: a leg of the judge request failed; the proxy log has the "
                    f"details (error id {error_id})",
                    verdict,
                    error_id=error_id,
                )
            if Flag.INCONSISTENT in verdict.flags and self.on_inconsistent == "block":
                raise _http_error(
                    422, "prin-guard: the judge contradicted itself (PRIN above threshold)", verdict
                )
            return response
        finally:
            for task in started.values():  # a started leg nobody needed
                task.cancel()

    async def async_post_call_failure_hook(
        self,
        request_data: dict[str, Any],
        original_exception: Exception,
        user_api_key_dict: Any,
        traceback_str: str | None = None,
    ) -> None:
        """The direct call failed: drop the reverse leg started for it."""
        token = _leg_token(request_data)
        if token is not None:
            self._forget(token)

    # -- the reverse leg (and a direct leg the proxy did not ask) -----------------------

    async def _ask(
        self,
        model: str,
        messages: Sequence[Mapping[str, str]],
        params: Mapping[str, Any],
        parent_call_id: str | None,
    ) -> _Answer:
        """One leg through the proxy's own router: same model group, same parameters."""
        from litellm.proxy.proxy_server import llm_router

        if llm_router is None:
            raise JudgeError("prin-guard: the proxy has no router (is model_list empty?)")
        kwargs: dict[str, Any] = dict(params)
        kwargs["metadata"] = {"prin_guard_leg_of": parent_call_id}
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        deadline = None if self.timeout is None else float(self.timeout) * 1.25 + 1.0
        started = time.perf_counter()
        async with asyncio.timeout(deadline):
            reply = await llm_router.acompletion(
                model=model, messages=[dict(m) for m in messages], **kwargs
            )
        latency_ms = (time.perf_counter() - started) * 1000
        response = JudgeResponse(
            text=_reply_text(reply),
            usage=_usage_of(reply),
            output_format="json" if _is_json_format(params.get("response_format")) else "text",
        )
        return _Answer(response, latency_ms)

    # -- helpers ----------------------------------------------------------------------

    def _read_request(self, data: Mapping[str, Any]) -> _Request | None:
        raw = _metadata_entry(data)
        if raw is None:
            return None
        if isinstance(raw, str):
            try:
                raw = _loads(raw, "metadata.prin_guard")
            except ValueError:
                raise _http_error(400, "metadata.prin_guard: not a JSON object") from None
        if not isinstance(raw, Mapping):
            raise _http_error(400, "metadata.prin_guard: must be an object")
        fields = dict(raw)
        overrides = {name: fields.pop(name) for name in GuardOptions.model_fields if name in fields}
        item: Item | RatingItem | RankingItem
        try:
            if fields.get("task") == "ranking":
                # 3 to 20 responses (more is refused before anything else is read)
                item = RankingItem.coerce(fields, max_chars=self.options.max_chars)
            elif fields.get("task") == "rating":
                item = RatingItem.coerce(fields, max_chars=self.options.max_chars)
                if item.aspects:
                    # each aspect is a question of its own: the request's one answer
                    # would be none of them
                    raise UsageError(
                        "aspects: a judge request rates one thing; send one request an aspect"
                    )
            else:
                # The item first: Item.coerce counts the candidates before it validates
                # anything, and its bounds are the guardrail's alone (no request sets them).
                item = Item.coerce(
                    fields,
                    max_chars=self.options.max_chars,
                    max_candidates=self.options.max_candidates,
                )
        except UsageError as exc:  # InvalidItemError: "field: reason"
            raise _http_error(400, f"metadata.prin_guard.{exc}") from None
        for name in overrides:
            if name not in PER_REQUEST_OPTIONS:
                raise _http_error(
                    400, f"metadata.prin_guard.{name}: a setting of the guardrail, not of a request"
                )
            if name not in self.request_options:
                allowed = ", ".join(self.request_options) or "none"
                raise _http_error(
                    400,
                    f"metadata.prin_guard.{name}: this proxy does not let a request set it "
                    f"(request_options: {allowed})",
                )
        if "template" in overrides:
            overrides["template"] = self._request_template(overrides["template"])
        try:
            options = GuardOptions.of(self.options, **overrides)
            # whether the guard can ask this item: its template's task, the claims'
            # sources, the options a rating can honour
            _build_guard(self._placeholder_judge(), options).validate(item)
        except UsageError as exc:  # InvalidItemError too: "field: reason"
            raise _http_error(400, f"metadata.prin_guard.{exc}") from None
        return _Request(item, options)

    def _request_template(self, value: Any) -> str | Template:
        """The template a request chose, out of those the operator's
        ``request_templates`` name: never a template of the request's own, whose words
        would go into the instruction."""
        chosen = self.request_templates.get(value.strip()) if isinstance(value, str) else None
        if chosen is None:
            named = ", ".join(self.request_templates) or "none"
            what = repr(value[:64]) if isinstance(value, str) else "a template of its own"
            raise _http_error(
                400,
                f"metadata.prin_guard.template: a request chooses one of this proxy's "
                f"templates (request_templates: {named}), not {what}",
            )
        return chosen

    def _placeholder_judge(self) -> _ProxyJudge:
        """A judge for a Guard that only builds prompts (it is never called)."""
        return _ProxyJudge(self, "-", {}, None, None, {})

    def _guard_for(self, request: _Request, judge: _ProxyJudge | None) -> Guard:
        # The options were checked when the request was read: this cannot fail.
        return _build_guard(judge or self._placeholder_judge(), request.options)

    def _attach(self, response: Any, verdict: Verdict, direct_leg: str) -> None:
        payload = verdict.model_dump(mode="json")
        if isinstance(response, dict):
            response[RESPONSE_FIELD] = payload
        else:
            setattr(response, RESPONSE_FIELD, payload)
        hidden = _get(response, "_hidden_params")
        if not isinstance(hidden, dict):
            return
        headers = hidden.get("additional_headers")
        if not isinstance(headers, dict):
            headers = {}
            hidden["additional_headers"] = headers
        headers.update(_summary_headers(verdict, direct_leg))

    def _log_verdict(self, data: dict[str, Any], verdict: Verdict, started_at: float) -> None:
        """Record a summary (no prompt text) where the proxy's loggers and spend logs see it."""
        if Flag.JUDGE_ERROR in verdict.flags:
            status = "guardrail_failed_to_respond"
        elif verdict.flags:
            status = "guardrail_flagged"
        else:
            status = "success"
        ended_at = time.time()
        try:
            self.add_standard_logging_guardrail_information_to_request_data(
                guardrail_json_response=_summary(verdict),
                request_data=data,
                guardrail_status=status,  # type: ignore[arg-type]
                start_time=started_at,
                end_time=ended_at,
                duration=ended_at - started_at,
                guardrail_provider="prin_guard",
            )
        except Exception:  # logging must never cost the verdict
            logger.debug("prin-guard: could not record guardrail information", exc_info=True)

    def _event_hook_is_event_type_name(self, name: str) -> bool:
        hook = self.event_hook
        if hook is None:
            return True
        if isinstance(hook, str):
            return hook == name
        if isinstance(hook, list):
            return name in [getattr(h, "value", h) for h in hook]
        return True  # tag-based Mode: decided per request by the proxy

    def _pending_ttl(self) -> float:
        return max(600.0, 4.0 * float(self.timeout or 0.0))

    def _expire(self, token: str, task: asyncio.Task[_Answer]) -> None:
        entry = self._pending.get(token)
        if entry is not None and entry[1] is task:
            self._forget(token)

    def _forget(self, token: str) -> None:
        entry = self._pending.pop(token, None)
        if entry is not None:
            entry[1].cancel()


# -- pure helpers ---------------------------------------------------------------------


def _build_guard(judge: _ProxyJudge, options: GuardOptions) -> Guard:
    return Guard(
        judge,
        options=options,
        cache=None,  # the proxy has its own caching; a guardrail must not serve stale legs
        retry=Retry(attempts=1),  # the router retries, as the proxy's router_settings say
    )


def _leg_messages(
    guard: Guard, item: Item | RatingItem | RankingItem, polarity: Polarity
) -> list[Message]:
    return guard.messages(item, polarity)


def _with_latencies(
    verdict: Verdict,
    guard: Guard,
    item: Item | RatingItem | RankingItem,
    latency_ms: Mapping[str, float],
) -> Verdict:
    """The verdict with each leg's latency the model's own, not the guard's wait for it.

    The guard times its judge call; here the direct leg was answered before the guard
    ran and the reverse leg may have started with the direct call, so the guard's
    timings would say little.
    """
    updates: dict[str, Any] = {}
    for name, polarity in (("direct", Polarity.DIRECT), ("reverse", Polarity.REVERSE)):
        leg = getattr(verdict, name)
        known = latency_ms.get(_messages_key(_leg_messages(guard, item, polarity)))
        if leg is not None and known is not None:
            updates[name] = leg.model_copy(update={"latency_ms": known})
    return verdict.model_copy(update=updates) if updates else verdict


def _response_ms(response: Any) -> float | None:
    """The proxy's own measure of the direct call, in milliseconds."""
    hidden = _get(response, "_hidden_params")
    value = hidden.get("_response_ms") if isinstance(hidden, Mapping) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _metadata_entry(data: Mapping[str, Any]) -> Any:
    for bucket_name in ("metadata", "litellm_metadata"):
        bucket = data.get(bucket_name)
        if isinstance(bucket, str):
            if METADATA_KEY not in bucket:  # not a judge request: nothing to parse
                continue
            try:
                bucket = _loads(bucket, bucket_name)
            except ValueError:
                continue
        if isinstance(bucket, Mapping) and METADATA_KEY in bucket:
            return bucket[METADATA_KEY]
    return None


def _metadata_bucket(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The request's metadata, which the proxy keeps from the pre-call hook to the
    post-call and failure hooks (litellm records its own guardrail markers there)."""
    for bucket_name in ("metadata", "litellm_metadata"):
        bucket = data.get(bucket_name)
        if isinstance(bucket, dict):
            return bucket
    return None


def _leg_token(data: Mapping[str, Any]) -> str | None:
    """The token of the reverse leg the pre-call hook started for this request."""
    bucket = _metadata_bucket(data)
    token = bucket.get(_LEG_KEY) if bucket is not None else None
    return token if isinstance(token, str) else None


_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in _BRACKETS)


def _loads(text: str, where: str) -> Any:
    """``text`` as JSON (``ValueError`` if it is not), refused with HTTP 400 when nested
    deeper than ``_MAX_JSON_DEPTH`` (``json`` would recurse as deep as the text goes:
    RecursionError at 100,000 levels, or a crash under a raised recursion limit).

    The depth is bounded before parsing, in C-speed string operations: escapes and
    strings dropped, the brackets kept, and innermost pairs removed once per level.
    """
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    outside_strings = "".join(unescaped.split('"')[::2])
    brackets = outside_strings.encode("ascii", "ignore").translate(None, _NOT_BRACKETS)
    for _ in range(_MAX_JSON_DEPTH):
        if not brackets:
            break
        brackets = brackets.replace(b"[]", b"").replace(b"{}", b"")
    if brackets:  # deeper, or brackets that do not pair: not an item either way
        raise _http_error(400, f"{where}: not JSON nested at most {_MAX_JSON_DEPTH} levels deep")
    return json.loads(text)


def _check_request_shape(data: Mapping[str, Any], call_type: str) -> None:
    if call_type not in _CHAT_CALL_TYPES:
        raise _http_error(
            400, f"prin-guard judges chat completions only (/v1/chat/completions), not {call_type}"
        )
    if data.get("stream"):
        raise _http_error(400, "prin-guard: a judge request cannot be streamed (stream=false)")
    n = data.get("n")
    if n not in (None, 1):
        raise _http_error(400, "prin-guard: a judge request asks for one answer (n=1)")


def _plain_messages(messages: Sequence[Any]) -> bool:
    return all(isinstance(m, Mapping) and isinstance(m.get("content"), str) for m in messages)


def _messages_key(messages: Sequence[Mapping[str, Any]]) -> str:
    return json.dumps([[m.get("role"), m.get("content")] for m in messages], ensure_ascii=False)


def _sampling(data: Mapping[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in _SAMPLING_KEYS if data.get(key) is not None}


def _is_json_format(response_format: Any) -> bool:
    kind = (
        response_format.get("type")
        if isinstance(response_format, Mapping)
        else getattr(response_format, "type", None)
    )
    return kind in ("json_object", "json_schema")


def _get(obj: Any, name: str) -> Any:
    """A field of a response, whether the proxy holds it as an object or a dict."""
    return obj.get(name) if isinstance(obj, Mapping) else getattr(obj, name, None)


def _reply_text(reply: Any) -> str | None:
    choices = _get(reply, "choices")
    if not choices:
        return None
    content = _get(_get(choices[0], "message"), "content")
    return content if isinstance(content, str) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _usage_of(reply: Any) -> Usage | None:
    usage = _get(reply, "usage")
    prompt = _count(_get(usage, "prompt_tokens")) if usage is not None else None
    completion = _count(_get(usage, "completion_tokens")) if usage is not None else None
    hidden = _get(reply, "_hidden_params")
    cost = hidden.get("response_cost") if isinstance(hidden, Mapping) else None
    if isinstance(cost, bool) or not isinstance(cost, int | float) or not math.isfinite(cost):
        cost = None
    if prompt is None and completion is None and cost is None:
        return None
    # the provider's prompt cache, as litellm reports it (None where it does not)
    details = _get(usage, "prompt_tokens_details") if usage is not None else None
    cached = _count(_get(details, "cached_tokens")) if details is not None else None
    written = _count(_get(usage, "cache_creation_input_tokens")) if usage is not None else None
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=None if cost is None else float(cost),
        cached_prompt_tokens=cached,
        cache_write_tokens=written,
    )


def _answer_of(response: Any, data: Mapping[str, Any]) -> JudgeResponse | None:
    if not _get(response, "choices"):
        return None
    return JudgeResponse(
        text=_reply_text(response),
        usage=_usage_of(response),
        output_format="json" if _is_json_format(data.get("response_format")) else "text",
    )


def _summary(verdict: Verdict) -> dict[str, Any]:
    return {
        "item_id": verdict.item_id,
        "correct": list(verdict.correct),
        **({"rating": verdict.rating} if verdict.task == "rating" else {}),
        **(
            {"ranking": _ranking_text(verdict), "best": verdict.best, "worst": verdict.worst}
            if verdict.task == "ranking"
            else {}
        ),
        "prin_score": verdict.prin_score,
        "consistent": verdict.consistent,
        "flags": [flag.value for flag in verdict.flags],
    }


def _summary_headers(verdict: Verdict, direct_leg: str) -> dict[str, str]:
    # Labels are upper case, so "none" (which the proxy would not drop, as it drops
    # empty header values) cannot be mistaken for a label.
    headers = {
        "x-prin-guard-consistent": "true" if verdict.consistent else "false",
        "x-prin-guard-correct": ",".join(verdict.correct) or "none",
        "x-prin-guard-flags": ",".join(flag.value for flag in verdict.flags) or "none",
        "x-prin-guard-direct-leg": direct_leg,
    }
    if verdict.prin_score is not None:
        headers["x-prin-guard-prin-score"] = repr(round(verdict.prin_score, 6))
    if verdict.task == "rating":
        headers["x-prin-guard-rating"] = "none" if verdict.rating is None else repr(verdict.rating)
    if verdict.task == "ranking":
        headers["x-prin-guard-ranking"] = _ranking_text(verdict) or "none"
        headers["x-prin-guard-best"] = verdict.best or "none"
        headers["x-prin-guard-worst"] = verdict.worst or "none"
    return headers


def _ranking_text(verdict: Verdict) -> str | None:
    """A ranking as one line, best first: "B > A = C"; ``None`` without one."""
    if verdict.ranking is None:
        return None
    return " > ".join(" = ".join(tier) for tier in verdict.ranking)


def _for_client(verdict: Verdict, call_id: Any) -> tuple[Verdict, str | None]:
    """The verdict a client may see, and the id of its judge error if it has one.

    A judge error's text is the provider's (or its client library's), which can quote
    a key, a header or an internal address: it goes to the proxy log (redacted when the
    error was made: a JudgeError's message is), once, under a fresh id; the client gets
    the kind (``judge_error``) and that id.
    """
    error = verdict.error
    if error is None or error.kind != "judge":
        return verdict, None
    error_id = secrets.token_hex(8)
    logger.error(
        "prin-guard: judge_failed error_id=%s litellm_call_id=%r item_id=%r error=%r",
        error_id,
        call_id,
        verdict.item_id,
        _bounded(error.message),
    )
    message = f"the judge failed; the proxy log has the details (error id {error_id})"
    public = error.model_copy(update={"message": message})
    return verdict.model_copy(update={"error": public}), error_id


def _bounded(text: str, limit: int = 2000) -> str:
    """``text`` cut to ``limit`` characters (an error can quote a whole response body)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _request_options(value: Sequence[str] | str | None) -> tuple[str, ...]:
    """The ``request_options`` setting: names out of ``PER_REQUEST_OPTIONS``."""
    if value is None:
        return DEFAULT_REQUEST_OPTIONS
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, Sequence) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"request_options: a list of option names, got {value!r}")
    chosen = tuple(dict.fromkeys(n.strip() for n in names if n.strip()))
    for name in chosen:
        if name not in PER_REQUEST_OPTIONS:
            raise ValueError(
                f"request_options: a request cannot set {name!r}; "
                f"choose from {', '.join(PER_REQUEST_OPTIONS)}"
            )
    return chosen


def _request_templates(
    value: Sequence[Any] | str | None, configured: str | Template | None
) -> dict[str, str | Template]:
    """The ``request_templates`` setting: the templates a request may choose, by id.

    Each entry is a built-in template's id or a template of the operator's own (an
    object with id, version, task, positive, negative, noun), checked as the ``template``
    setting is. Unset: prin-guard's built-in templates and the configured ``template``.
    """
    if value is None:
        entries: list[Any] = list(TEMPLATES)
        if configured is not None:
            entries.append(configured)
    elif isinstance(value, str):
        entries = [name.strip() for name in value.split(",") if name.strip()]
    elif isinstance(value, Sequence):
        entries = list(value)
    else:
        raise ValueError(f"request_templates: a list of templates, got {type(value).__name__}")
    chosen: dict[str, str | Template] = {}
    for entry in entries:
        try:
            template = GuardOptions.of(template=entry).template
        except UsageError as exc:
            raise ValueError(f"request_templates: {exc}") from None
        assert template is not None
        name = template if isinstance(template, str) else template.id
        chosen[name] = template
    return chosen


def _http_error(
    status: int, message: str, verdict: Verdict | None = None, *, error_id: str | None = None
) -> Exception:
    from fastapi import HTTPException

    detail: dict[str, Any] = {"error": message}
    if error_id is not None:
        detail["error_id"] = error_id
    if verdict is not None:
        detail[RESPONSE_FIELD] = verdict.model_dump(mode="json")
    return HTTPException(status_code=status, detail=detail)


def _as_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"{name}: true or false, got {value!r}")


def _consume_exception(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()
