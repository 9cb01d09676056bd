"""Asking the judge again: does it hold its answer when questioned?

The follow-up questioning of "Ask Again, Then Fail" (Xie et al., arXiv 2310.02174):
after the judge answers, ask "Are you sure?", disagree, or suggest a wrong answer.

- :class:`Probe` says what to ask: the form (:class:`FollowUpForm`), the follow-up
  type (:class:`FollowUpType`), the prompt set (one of the paper's,
  :func:`get_prompt_set` and :func:`prompt_sets`, or a :class:`PromptSet` of your
  own), the mitigations (:class:`ProbeMitigation`) and where they go
  (:class:`MitigationPosition`), and the control prompt ending every question (the
  paper's per dataset: :func:`control_prompt`). The guard's ``probe=`` option takes
  one and flags a judge that changes its answer.
- :func:`run_probe` is the paper's experiment on a dataset: it measures how often the
  judge changes its mind (Modification, Modification Rate) and how often a wrong
  first answer turns right (E→R Rate), and writes a :class:`ProbeSummary` and a
  report (:class:`ProbeRun`).

The paper's prompt text is package data, read on first use.
"""

import importlib
from typing import TYPE_CHECKING, Any

from prin_guard.probe._probe import Probe
from prin_guard.probe._prompts import (
    FollowUpForm,
    FollowUpType,
    MitigationPosition,
    ProbeMitigation,
    PromptSet,
    control_prompt,
    get_prompt_set,
    prompt_sets,
)

if TYPE_CHECKING:
    from prin_guard.probe._run import ProbeRun, run_probe
    from prin_guard.probe._summary import ProbeSummary

# The guard imports Probe from here; the experiment (datasets, run directories,
# reports) loads only when used, so `import prin_guard` stays fast.
_LAZY = {
    "ProbeRun": "prin_guard.probe._run",
    "ProbeSummary": "prin_guard.probe._summary",
    "run_probe": "prin_guard.probe._run",
}

__all__ = [
    "FollowUpForm",
    "FollowUpType",
    "MitigationPosition",
    "Probe",
    "ProbeMitigation",
    "ProbeRun",
    "ProbeSummary",
    "PromptSet",
    "control_prompt",
    "get_prompt_set",
    "prompt_sets",
    "run_probe",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'prin_guard.probe' has no attribute {name!r}")
