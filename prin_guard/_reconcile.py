"""Reconciliation of the two legs, and the PRIN metric. Pure functions, no I/O.

With ``A`` all candidate labels, ``D`` the direct leg's labels and ``R`` the
reverse leg's labels (PRIN paper, section 3):

    reverse_implied = A − R
    PRIN            = 1 − F1(D, A − R)                  (equations 1 and 2)
    synergy         = D ∩ (A − R)                        (section 4.5)

Edge cases, as decided here:

- F1 of two empty sets is 1.0: a judge that calls nothing correct and everything
  incorrect is consistent (PRIN 0). F1 of an empty and a non-empty set is 0.0.
- Both legs empty (nothing correct, nothing incorrect) compares ∅ with A, so PRIN
  is 1.0, as the paper says it must be penalised.
- A leg whose reply could not be parsed counts as the empty set, as the paper's
  span extraction does; the verdict carries ``unparseable_*`` flags so a caller can
  tell it from a real "none". An unparseable reverse leg so implies that *every*
  candidate is correct, and an unparseable direct leg that none is: PRIN is 0 only
  when the other leg happens to say exactly that (direct = all, or reverse = all).
  Such a verdict is still never ``consistent``: a leg without an answer cannot
  agree with anything. PRIN keeps the paper's value; ``consistent`` is false and
  the ``unparseable_*`` flag says why (``inconsistent`` is raised only by PRIN
  above the threshold, as the two legs did not disagree).
- Labels a leg names that are not candidates never get this far (the parser only
  reads known labels).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from prin_guard._models import Flag, ParseStatus

__all__ = ["Reconciled", "f1", "prin_score", "reconcile", "synergy"]

Policy = Literal["synergy", "direct", "reverse", "strict"]
POLICIES: tuple[Policy, ...] = ("synergy", "direct", "reverse", "strict")


def f1(predicted: Iterable[str], reference: Iterable[str]) -> float:
    """Set F1. Symmetric; F1(∅, ∅) = 1.0."""
    a, b = set(predicted), set(reference)
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def prin_score(all_labels: Iterable[str], direct: Iterable[str], reverse: Iterable[str]) -> float:
    """PRIN = 1 − F1(direct, all − reverse). 0 is consistent, 1 is fully contradictory."""
    every = set(all_labels)
    return 1.0 - f1(direct, every - set(reverse))


def synergy(all_labels: Iterable[str], direct: Iterable[str], reverse: Iterable[str]) -> set[str]:
    """The candidates both legs call correct: direct ∩ (all − reverse)."""
    return set(direct) & (set(all_labels) - set(reverse))


@dataclass(frozen=True, slots=True)
class Reconciled:
    correct: tuple[str, ...]
    reverse_implied: tuple[str, ...]
    prin_score: float
    consistent: bool
    flags: tuple[Flag, ...]


def reconcile(
    labels: Sequence[str],
    direct: Iterable[str],
    reverse: Iterable[str],
    *,
    direct_status: ParseStatus = ParseStatus.OK,
    reverse_status: ParseStatus = ParseStatus.OK,
    polarity_confusion: bool = False,
    policy: Policy = "synergy",
    threshold: float = 0.0,
) -> Reconciled:
    """Everything a verdict says about two legs. ``labels`` fixes the output order.

    ``consistent`` is PRIN at or under ``threshold`` *and* both legs parsed.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy: unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    direct_set, reverse_set = set(direct), set(reverse)
    implied = set(labels) - reverse_set
    score = 1.0 - f1(direct_set, implied)
    # strict is synergy here; the guard intersects it with the other checks' sets
    if policy in ("synergy", "strict"):
        chosen = direct_set & implied
    elif policy == "direct":
        chosen = direct_set
    else:
        chosen = implied
    unparseable = ParseStatus.FAILED in (direct_status, reverse_status)
    flags: list[Flag] = []
    if score > threshold:
        flags.append(Flag.INCONSISTENT)
    # A direct answer must not look consistent because the reverse leg said nothing
    # readable (or the other way round): PRIN 0 is then a coincidence, not agreement.
    consistent = score <= threshold and not unparseable
    if direct_status is ParseStatus.FAILED:
        flags.append(Flag.UNPARSEABLE_DIRECT)
    if reverse_status is ParseStatus.FAILED:
        flags.append(Flag.UNPARSEABLE_REVERSE)
    if not chosen:
        flags.append(Flag.EMPTY_VERDICT)
    if polarity_confusion:
        flags.append(Flag.POLARITY_CONFUSION)

    def ordered(found: set[str]) -> tuple[str, ...]:
        return tuple(label for label in labels if label in found)

    return Reconciled(ordered(chosen), ordered(implied), score, consistent, tuple(flags))
