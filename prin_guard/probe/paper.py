"""The "Ask Again, Then Fail" paper's text, verbatim: prompt sets, control prompts,
demonstrations and the task types of its datasets.

Kept apart from ``prin_guard.probe`` so the package's top level stays the API
(what to ask, how to run and measure it); import the paper's constants from here.
"""

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
    TaskType,
)

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
    "TaskType",
]
