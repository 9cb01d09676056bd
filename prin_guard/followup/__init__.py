"""Asking the judge again after its answer: the follow-up machinery of "Ask Again".

The prompt sets, control prompts and demonstrations of the paper (``_prompts``,
pure data and conversation builders), what to ask (:class:`Probe`) and the
rounds themselves (:func:`run_rounds`, through the judge-call layer). The guard's
``probe=`` option uses it below the guard; ``prin_guard.probe`` (the measuring
experiment) builds on it above.
"""

from prin_guard.followup._probe import Probe, ProbeKind
from prin_guard.followup._prompts import (
    DATASET_TASK_TYPES,
    DEFAULT_CONTROL_PROMPT,
    EMOTION_PROMPT,
    FEW_SHOT_OPENING,
    MISLEADING_PLACEHOLDER,
    PAPER_CONTROL_PROMPTS,
    PAPER_DEMONSTRATIONS,
    PROGRESSIVE_ORDER,
    PROMPT_SET_A,
    PROMPT_SET_B,
    PROMPT_SET_C,
    PROMPT_SETS,
    ZERO_SHOT_COT_PROMPT,
    Demonstration,
    FollowUpForm,
    FollowUpType,
    MitigationPosition,
    ProbeMitigation,
    PromptSet,
    TaskType,
    build_followup_conversation,
    build_initial_conversation,
    control_prompt,
    default_demonstrations,
    followup_turn,
    get_prompt_set,
    misleading_answer,
    mitigation_text,
    parse_probe_mitigations,
    progressive_followups,
)
from prin_guard.followup._rounds import run_rounds

__all__ = [
    "DATASET_TASK_TYPES",
    "DEFAULT_CONTROL_PROMPT",
    "EMOTION_PROMPT",
    "FEW_SHOT_OPENING",
    "MISLEADING_PLACEHOLDER",
    "PAPER_CONTROL_PROMPTS",
    "PAPER_DEMONSTRATIONS",
    "PROGRESSIVE_ORDER",
    "PROMPT_SETS",
    "PROMPT_SET_A",
    "PROMPT_SET_B",
    "PROMPT_SET_C",
    "ZERO_SHOT_COT_PROMPT",
    "Demonstration",
    "FollowUpForm",
    "FollowUpType",
    "MitigationPosition",
    "Probe",
    "ProbeKind",
    "ProbeMitigation",
    "PromptSet",
    "TaskType",
    "build_followup_conversation",
    "build_initial_conversation",
    "control_prompt",
    "default_demonstrations",
    "followup_turn",
    "get_prompt_set",
    "misleading_answer",
    "mitigation_text",
    "parse_probe_mitigations",
    "progressive_followups",
    "run_rounds",
]
