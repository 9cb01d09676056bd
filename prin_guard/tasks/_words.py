"""What each judging task is, in words: one description per task, read by the prompts, the
reader of replies, the probe and the verdict alike.

The tasks' words module: each task module (``tasks._labels``) takes its words from here
(``LabelTask.words``), and the layers below the tasks (the data types, the prompts, the
reader) read the same words here, with nothing above imported: the tasks package's
``__init__`` imports no task module (its registry is ``tasks._registry``). A new task with
words gives them here, beside its module and its line in the registry.

A task is a question with two sides: the direct question names the candidates on one side
("which options are correct?"), the reverse question those on the other ("which are
incorrect?"). Its description holds what the prompts call the candidates, the names a reply
may give them, the words for each side, the status a verdict gives a candidate on each side,
and what an empty or a full answer means:

========== ============ =================================== ===================================
task       candidates   direct side / reverse side          an empty or full answer
========== ============ =================================== ===================================
choice     options      correct / incorrect                 "none" is an answer; "all" too
pairwise   responses    better / worse                      both or neither named: a tie
checklist  criteria     met / failed (claims: supported)    "none" is an answer; "all" too
========== ============ =================================== ===================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["TASKS", "TASK_WORDS", "CandidateStatus", "Task", "TaskWords"]

Task = Literal["choice", "pairwise", "checklist", "rating", "ranking", "review"]
"""What a judge is asked about an item: which answer options are correct (``choice``),
which of two responses is better (``pairwise``), which criteria a response meets or
which claims its sources support (``checklist``), how good one response is on a scale
(``rating``: no candidates; see :mod:`prin_guard._prompting._rating`), how three to twenty responses
rank from best to worst (``ranking``: see :mod:`prin_guard.tasks._ranking`), a reviewer's
form filled in for a paper (``review``: see :mod:`prin_guard.tasks._review`)."""
TASKS: tuple[Task, ...] = ("choice", "pairwise", "checklist")
"""The tasks about candidates, which an :class:`~prin_guard.Item` holds and every surface
judges. A rating is a task of its own (``Guard.check`` and ``read_reply`` so far)."""

CandidateStatus = Literal[
    "correct", "incorrect", "better", "worse", "met", "failed", "contradicted", "unread"
]


@dataclass(frozen=True, slots=True)
class TaskWords:
    """One task's words."""

    task: Task
    noun: str
    """What the bundled prompts call the candidates ("options", "responses", "criteria")."""
    kind: str
    """One candidate, in the mitigations' sentences ("option", "response", "candidate")."""
    names: frozenset[str]
    """Nouns a reply may name a candidate by ("Output (a)", "criterion 3"), singular; the
    reader reads plurals too."""
    positive: frozenset[str]
    """Words of the direct side a reply may use, whatever the template: the bundled
    templates' words and common synonyms. A template of one's own adds its pair."""
    negative: frozenset[str]
    """Words of the reverse side."""
    status: tuple[CandidateStatus, CandidateStatus]
    """The status a verdict gives a candidate on the direct side and on the reverse side."""
    tie: bool = False
    """Naming both candidates, or neither, is a tie (on the direct leg both are the best,
    on the reverse leg neither is the worse): the pairwise rule."""


TASK_WORDS: dict[Task, TaskWords] = {
    "choice": TaskWords(
        "choice",
        noun="options",
        kind="option",
        names=frozenset({"option", "choice", "candidate", "answer"}),
        positive=frozenset({"correct", "right", "appropriate", "accurate", "valid", "true"}),
        negative=frozenset(
            {"incorrect", "wrong", "inappropriate", "inaccurate", "invalid", "false"}
        ),
        status=("correct", "incorrect"),
    ),
    "pairwise": TaskWords(
        "pairwise",
        noun="responses",
        kind="response",
        names=frozenset(
            {"response", "output", "assistant", "answer", "model", "candidate", "completion"}
        ),
        positive=frozenset({"better", "best", "superior", "preferable", "preferred", "winner"}),
        negative=frozenset({"worse", "worst", "inferior", "loser"}),
        status=("better", "worse"),
        tie=True,
    ),
    "checklist": TaskWords(
        "checklist",
        noun="criteria",
        kind="candidate",
        names=frozenset(
            {"criterion", "criteria", "requirement", "item", "claim", "statement", "rubric"}
        ),
        positive=frozenset(
            {
                "met", "meets", "meet", "satisfied", "satisfies", "satisfy", "fulfilled",
                "fulfils", "fulfills", "fulfil", "fulfill", "supported", "supports",
                "support", "passed", "passes", "pass", "addressed", "followed", "achieved",
                "correct", "accurate", "valid", "true",
            }
        ),
        negative=frozenset(
            {
                "unmet", "fails", "failed", "fail", "unsatisfied", "unfulfilled",
                "unsupported", "unaddressed", "violated", "missing", "contradicted",
                "refuted", "incorrect", "inaccurate", "invalid", "false", "fails to meet",
                "fail to meet", "does not meet", "do not support", "does not support",
            }
        ),
        status=("met", "failed"),
    ),
}  # fmt: skip
"""Every task's words."""
