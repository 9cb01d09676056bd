"""What to ask after the judge's first answer: :class:`Probe`.

The Direct Form asks one follow-up type; the Progressive Form asks closed, then
open, then leading in one conversation. A probe also chooses the prompt set, the
mitigations and where they go, the control prompt and the seed of the leading
question's misleading answer. Pure: it builds conversations, it calls no judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prin_guard._exceptions import UsageError
from prin_guard._models import Message
from prin_guard._options import ProbeKind
from prin_guard.followup._prompts import (
    DEFAULT_CONTROL_PROMPT,
    PROGRESSIVE_ORDER,
    FollowUpForm,
    FollowUpType,
    MitigationPosition,
    ProbeMitigation,
    PromptSet,
    build_initial_conversation,
    get_prompt_set,
    parse_probe_mitigations,
)

__all__ = ["Probe", "ProbeKind"]


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
