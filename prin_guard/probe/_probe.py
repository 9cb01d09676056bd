"""The probe: what to ask after the judge's first answer (:class:`Probe`), and asking it.

The Direct Form asks one follow-up type; the Progressive Form asks closed, then
open, then leading in one conversation. A probe also chooses the prompt set, the
mitigations and where they go, the control prompt and the seed of the leading
question's misleading answer.

:func:`run_rounds` continues a leg's conversation round by round with the questions
a probe asks; every follow-up call goes through the leg's
:class:`~prin_guard.calls.JudgeCaller`, so it is cached, retried and single-flighted like
a leg, and its events say ``call="follow_up"``. The guard's ``probe=`` option and
``prin-guard probe`` both use it.

The leading question's misleading answer ``{M_A}`` is a label the judge did not
give, drawn reproducibly from the item's id and the seed. When no such label
exists (the judge named every candidate) the leading round is not asked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prin_guard._infra._offloop import OFF_LOOP_CHARS, off_loop_if
from prin_guard._prompting._prompts import Mitigation, Template, answer_instruction, template_for
from prin_guard._route._options import ProbeKind
from prin_guard._route._reading import read_answer
from prin_guard.calls import JudgeCaller
from prin_guard.errors import UsageError
from prin_guard.models import Item, Message, ParseStatus, Polarity, ProbeRound
from prin_guard.probe._prompts import (
    DEFAULT_CONTROL_PROMPT,
    PROGRESSIVE_ORDER,
    FollowUpForm,
    FollowUpType,
    MitigationPosition,
    ProbeMitigation,
    PromptSet,
    build_followup_conversation,
    build_initial_conversation,
    get_prompt_set,
    misleading_answer,
    parse_probe_mitigations,
)

__all__ = ["Probe", "ask_follow_up", "run_rounds"]


@dataclass(frozen=True)
class Probe:
    """What to ask after the judge's first answer."""

    form: FollowUpForm = FollowUpForm.DIRECT
    followup_type: FollowUpType | None = FollowUpType.CLOSED
    """The Direct Form's follow-up; None in the Progressive Form."""
    prompt_set: PromptSet | str = "A"
    mitigations: tuple[ProbeMitigation, ...] = ()
    position: MitigationPosition = MitigationPosition.BOTH
    control_prompt: str = DEFAULT_CONTROL_PROMPT
    seed: int = 0
    """Seed for drawing the misleading answer of the leading question."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "form", FollowUpForm(self.form))
        object.__setattr__(self, "prompt_set", get_prompt_set(self.prompt_set))
        object.__setattr__(self, "mitigations", parse_probe_mitigations(self.mitigations))
        object.__setattr__(self, "position", MitigationPosition(self.position))
        if self.form is FollowUpForm.DIRECT:
            if self.followup_type is None:
                raise UsageError("probe: the Direct Form needs a follow-up type")
            object.__setattr__(self, "followup_type", FollowUpType(self.followup_type))
        elif self.followup_type is not None:
            raise UsageError("probe: the Progressive Form asks every type in turn")

    @classmethod
    def of(cls, spec: ProbeKind | Probe | str, *, prompt_set: str | PromptSet = "A") -> Probe:
        """``closed``, ``open``, ``leading`` (Direct Form) or ``progressive``."""
        if isinstance(spec, Probe):
            return spec
        if spec == "progressive":
            return cls(form=FollowUpForm.PROGRESSIVE, followup_type=None, prompt_set=prompt_set)
        try:
            kind = FollowUpType(spec)
        except ValueError:
            raise UsageError(
                f"probe: unknown probe {spec!r}; use closed, open, leading or progressive"
            ) from None
        return cls(followup_type=kind, prompt_set=prompt_set)

    @property
    def rounds(self) -> tuple[FollowUpType, ...]:
        if self.form is FollowUpForm.PROGRESSIVE:
            return PROGRESSIVE_ORDER
        assert self.followup_type is not None
        return (FollowUpType(self.followup_type),)

    @property
    def first_followup(self) -> FollowUpType:
        return self.rounds[0]

    def initial_conversation(self, messages: Sequence[Message]) -> list[Message]:
        """The first question, with the mitigations that belong to it."""
        return build_initial_conversation(
            messages,
            self.first_followup,
            mitigations=self.mitigations,
            position=self.position,
            control_prompt=self.control_prompt,
        )

    def changes_first_question(self) -> bool:
        return bool(self.mitigations) and (
            ProbeMitigation.FEW_SHOT in self.mitigations
            or self.position is not MitigationPosition.FOLLOW_UP
        )


async def run_rounds(
    caller: JudgeCaller,
    item: Item,
    polarity: Polarity,
    initial_messages: Sequence[Message],
    first_reply: str,
    first_labels: Sequence[str],
    probe: Probe,
    *,
    template: Template | None = None,
    mitigations: Sequence[Mitigation] = (),
) -> list[ProbeRound]:
    """Ask the probe's follow-up rounds after ``first_reply``; one entry per round asked.

    ``initial_messages`` are the first question *before* probe mitigations (they
    are applied again here, so the history matches what the judge saw). The rounds speak
    the leg's template (``template``, with ``mitigations``; default: the item's task's):
    each follow-up turn ends by asking for the answer as the template asks for it (unless
    the probe has a control prompt of its own), and each reply is read as the guard reads
    a leg of that template.
    """
    chosen = template if template is not None else template_for(None, item)
    control = probe.control_prompt
    if control == DEFAULT_CONTROL_PROMPT:
        control = answer_instruction(chosen, item, polarity)
    misleading: str | None = None
    if FollowUpType.LEADING in probe.rounds:
        try:
            misleading = misleading_answer(item.labels, first_labels, probe.seed, item.key)
        except UsageError:
            misleading = None  # the judge named every candidate: nothing to suggest
    labels = item.labels if chosen.builtin else ()

    def read(text: str | None) -> RoundReading:
        # read as a reply to the leg's own question, in the item's task and template
        reading, _ = read_answer(text, item, polarity, chosen, mitigations)
        changed = reading.status is ParseStatus.FAILED or set(reading.labels) != set(first_labels)
        return RoundReading(reading.labels, reading.status, changed)

    return await ask_rounds(
        caller,
        probe,
        polarity,
        initial_messages,
        first_reply,
        misleading=misleading,
        control=control,
        labels=labels,
        item_id=item.key,
        read=read,
    )


@dataclass(frozen=True, slots=True)
class RoundReading:
    """A follow-up reply as read: the labels it names (none for a rating), whether it
    could be read, whether the answer changed from the leg's, and a rating's score."""

    labels: tuple[str, ...]
    status: ParseStatus
    changed: bool
    score: float | None = None


async def ask_follow_up(
    caller: JudgeCaller,
    polarity: Polarity,
    messages: Sequence[Message],
    first_reply: str,
    follow_up: str,
    *,
    item_id: str,
    read: Callable[[str | None], RoundReading],
) -> ProbeRound:
    """One follow-up round in the caller's own words (an author's rebuttal to a review):
    the leg's conversation, its ``first_reply``, then ``follow_up`` as it is (it carries
    its own request for the answer's format), asked through the leg's caller like every
    round (cached, retried, ``call="follow_up"``) and read by ``read``."""
    conversation: list[Message] = [
        *messages,
        {"role": "assistant", "content": first_reply},
        {"role": "user", "content": follow_up},
    ]
    answer = await caller.converse(conversation, labels=(), item_id=item_id, purpose="follow_up")
    text = answer.response.text
    long = text is not None and len(text) > OFF_LOOP_CHARS
    reading = await off_loop_if(long, functools.partial(read, text))
    return ProbeRound(
        polarity=polarity,
        round=1,
        followup_type="rebuttal",
        followup=follow_up,
        raw_text=text,
        labels=reading.labels,
        parse_status=reading.status,
        changed=reading.changed,
        cached=answer.cached,
        latency_ms=answer.latency_ms,
        usage=answer.response.usage,
        score=reading.score,
    )


async def ask_rounds(
    caller: JudgeCaller,
    probe: Probe,
    polarity: Polarity,
    messages: Sequence[Message],
    first_reply: str,
    *,
    misleading: str | None,
    control: str,
    labels: Sequence[str],
    item_id: str,
    read: Callable[[str | None], RoundReading],
) -> list[ProbeRound]:
    """The probe's follow-up rounds after a leg's ``first_reply`` to ``messages``, each
    reply read by ``read``: the one loop of a label leg's probe and a rating leg's. A
    leading round without a ``misleading`` answer to suggest ends the rounds; in the
    progressive form each round's conversation holds the earlier rounds' replies.
    ``labels``: what a structured judge may constrain the answer to (none for a rating,
    whose answer is a score)."""
    rounds: list[ProbeRound] = []
    replies: list[str] = []
    for number, kind in enumerate(probe.rounds, start=1):
        if kind is FollowUpType.LEADING and misleading is None:
            break
        conversation = build_followup_conversation(
            messages,
            first_reply,
            kind,
            probe.prompt_set,
            round_replies=replies if probe.form is FollowUpForm.PROGRESSIVE else (),
            misleading=misleading if kind is FollowUpType.LEADING else None,
            mitigations=probe.mitigations,
            position=probe.position,
            control_prompt=control,
        )
        answer = await caller.converse(
            conversation, labels=labels, item_id=item_id, purpose="follow_up"
        )
        text = answer.response.text
        # a long reply (a judge that repeats a long item) is read off the event loop
        long = text is not None and len(text) > OFF_LOOP_CHARS
        reading = await off_loop_if(long, functools.partial(read, text))
        rounds.append(
            ProbeRound(
                polarity=polarity,
                round=number,
                followup_type=kind.value,
                followup=conversation[-1]["content"],
                raw_text=text,
                labels=reading.labels,
                parse_status=reading.status,
                changed=reading.changed,
                cached=answer.cached,
                latency_ms=answer.latency_ms,
                usage=answer.response.usage,
                score=reading.score,
            )
        )
        replies.append(text or "")
    return rounds
