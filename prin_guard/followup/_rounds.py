"""The follow-up rounds after a leg's first answer, asked through the call layer.

:func:`run_rounds` continues a leg's conversation round by round with the
questions a :class:`~prin_guard.followup.Probe` asks; every follow-up call goes
through the leg's :class:`~prin_guard.JudgeCaller`, so it is cached, retried and
single-flighted like a leg, and its events say ``call="follow_up"``. The guard's
``probe=`` option and ``prin-guard probe`` both use it.

The leading question's misleading answer ``{M_A}`` is a label the judge did not
give, drawn reproducibly from the item's id and the seed. When no such label
exists (the judge named every candidate) the leading round is not asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from prin_guard._calls import JudgeCaller
from prin_guard._exceptions import UsageError
from prin_guard._models import Item, Message, ParseStatus, Polarity, ProbeRound
from prin_guard._parsing import parse_reply
from prin_guard.followup._probe import Probe
from prin_guard.followup._prompts import (
    FollowUpForm,
    FollowUpType,
    build_followup_conversation,
    misleading_answer,
)

__all__ = ["run_rounds"]


async def run_rounds(
    caller: JudgeCaller,
    item: Item,
    polarity: Polarity,
    initial_messages: Sequence[Message],
    first_reply: str,
    first_labels: Sequence[str],
    probe: Probe,
) -> list[ProbeRound]:
    """Ask the probe's follow-up rounds after ``first_reply``; one entry per round asked.

    ``initial_messages`` are the first question *before* probe mitigations (they
    are applied again here, so the history matches what the judge saw).
    """
    texts = [candidate.text for candidate in item.candidates]
    misleading: str | None = None
    if FollowUpType.LEADING in probe.rounds:
        try:
            misleading = misleading_answer(item.labels, first_labels, probe.seed, item.key)
        except UsageError:
            misleading = None  # the judge named every candidate: nothing to suggest
    rounds: list[ProbeRound] = []
    replies: list[str] = []
    for number, kind in enumerate(probe.rounds, start=1):
        if kind is FollowUpType.LEADING and misleading is None:
            break
        progressive = probe.form is FollowUpForm.PROGRESSIVE
        messages = build_followup_conversation(
            initial_messages,
            first_reply,
            kind,
            probe.prompt_set,
            round_replies=replies if progressive else (),
            misleading=misleading if kind is FollowUpType.LEADING else None,
            mitigations=probe.mitigations,
            position=probe.position,
            control_prompt=probe.control_prompt,
        )
        answer = await caller.converse(
            messages, labels=item.labels, item_id=item.key, purpose="follow_up"
        )
        response = answer.response
        parsed = parse_reply(response.text, item.labels, texts)
        changed = parsed.status is ParseStatus.FAILED or set(parsed.labels) != set(first_labels)
        rounds.append(
            ProbeRound(
                polarity=polarity,
                round=number,
                followup_type=kind.value,
                followup=messages[-1]["content"],
                raw_text=response.text,
                labels=parsed.labels,
                parse_status=parsed.status,
                changed=changed,
                cached=answer.cached,
                latency_ms=answer.latency_ms,
                usage=response.usage,
            )
        )
        replies.append(response.text or "")
    return rounds
