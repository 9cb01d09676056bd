"""Every data type prin-guard takes and returns, in one place.

The top level of ``prin_guard`` re-exports the ones most programs need
(:class:`Item`, :class:`Candidate`, :class:`Verdict`, :class:`Flag`,
:class:`GuardOptions`); the enums and parts of a verdict are here.
"""

from prin_guard._models import (
    CHECKS,
    POLICIES,
    TASKS,
    Candidate,
    CandidateStatus,
    CandidateVerdict,
    CheckName,
    Decision,
    Flag,
    Item,
    Leg,
    Member,
    Message,
    ParseMethod,
    ParseStatus,
    Polarity,
    Policy,
    ProbeRound,
    Scores,
    Task,
    Usage,
    Verdict,
    VerdictError,
)
from prin_guard._options import PROBE_KINDS, GuardOptions, ProbeKind
from prin_guard._prompts import TEMPLATES, Mitigation, Template

__all__ = [
    "CHECKS",
    "POLICIES",
    "PROBE_KINDS",
    "TASKS",
    "TEMPLATES",
    "Candidate",
    "CandidateStatus",
    "CandidateVerdict",
    "CheckName",
    "Decision",
    "Flag",
    "GuardOptions",
    "Item",
    "Leg",
    "Member",
    "Message",
    "Mitigation",
    "ParseMethod",
    "ParseStatus",
    "Polarity",
    "Policy",
    "ProbeKind",
    "ProbeRound",
    "Scores",
    "Task",
    "Template",
    "Usage",
    "Verdict",
    "VerdictError",
]
