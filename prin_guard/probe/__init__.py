"""Follow-up probing: does the judge hold its answer when asked again?

The experiment of "Ask Again, Then Fail" (Xie et al., arXiv 2310.02174): after
the judge answers, ask "Are you sure?", disagree, or suggest a wrong answer,
and measure how often it changes its mind (Modification, Modification Rate) and
how often a wrong first answer turns right (E→R Rate).

:class:`Probe` says what to ask (the guard's ``probe=`` option takes one too);
the metrics are pure functions of :class:`ProbeRecord`. The paper's prompt sets,
control prompts and demonstrations are in :mod:`prin_guard.probe.paper`.
"""

from prin_guard.followup import (
    FollowUpForm,
    FollowUpType,
    MitigationPosition,
    Probe,
    ProbeKind,
    ProbeMitigation,
    PromptSet,
)
from prin_guard.probe._metrics import (
    ConsistencyMetrics,
    MetricsKey,
    ProbeRecord,
    accuracy_after,
    accuracy_before,
    consistency_metrics,
    e_to_r_rate,
    error_rate,
    metrics_breakdown,
    metrics_by_followup_type,
    metrics_by_prompt_set,
    metrics_by_round,
    modification,
    modification_rate,
)
from prin_guard.probe._pipeline import ProbeRun, run
from prin_guard.probe._summary import ProbeSummary

__all__ = [
    "ConsistencyMetrics",
    "FollowUpForm",
    "FollowUpType",
    "MetricsKey",
    "MitigationPosition",
    "Probe",
    "ProbeKind",
    "ProbeMitigation",
    "ProbeRecord",
    "ProbeRun",
    "ProbeSummary",
    "PromptSet",
    "accuracy_after",
    "accuracy_before",
    "consistency_metrics",
    "e_to_r_rate",
    "error_rate",
    "metrics_breakdown",
    "metrics_by_followup_type",
    "metrics_by_prompt_set",
    "metrics_by_round",
    "modification",
    "modification_rate",
    "run",
]
