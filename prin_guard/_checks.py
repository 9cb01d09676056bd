"""The checks beyond the reverse question, as pure functions: candidate order, panels,
confidence. No I/O; the guard asks, these decide.

**Order.** The order check asks the same question with the candidates in a second
order and labels re-assigned by position (the candidate shown first is always ``A``),
then maps the answer back to the item's own labels. The second order is the reversal
when reversal moves every candidate (an even number of candidates); otherwise (an odd
number: reversal keeps the middle candidate in place) a permutation that moves every
candidate, drawn from a generator seeded by the item's key, so the same item is always
asked in the same second order and its legs are cached. ``order_inconsistency`` is
``1 − F1(first answer, second answer)``, the PRIN paper's set F1 (F1(∅, ∅) = 1).

**Panels.** Each member's vote is its own set under the guard's policy. A candidate is
correct for the panel when more than half of *all* members vote for it, incorrect when
more than half vote against it; a member that failed or whose answer could not be read
abstains and still counts in the denominator, so an abstention can never turn a
minority into a majority. A candidate with neither majority is split: it is not
reported as correct and the verdict is flagged ``panel_split``; ties are never broken by
the order in which the judges were given. ``panel_agreement`` is Fleiss' observed
agreement P̄ over the candidates (subjects) with the voting members as raters and
correct/incorrect as categories: for a candidate with ``n`` voters of whom ``y`` vote
correct, ``P = (y(y−1) + (n−y)(n−y−1)) / (n(n−1))``; the mean over candidates. It needs
two voters (``None`` otherwise). The chance-corrected kappa needs many items and is
reported by ``prin-guard eval``.

**Confidence.** Given the reply's tokens with their log-probabilities and the span of
the reply the parser read the labels from, the answer's probability is the product of
the probabilities of the tokens that overlap the span: the probability that the judge,
having written what came before, writes exactly that answer (for a set, naming exactly
those labels as written, separators included). It is the judge's own distribution at
each step, not a calibrated probability of being right.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Mapping, Sequence

from prin_guard._models import Candidate, Item
from prin_guard._reconcile import f1

__all__ = [
    "answer_confidence",
    "fleiss_agreement",
    "map_back",
    "order_inconsistency",
    "panel_majority",
    "permuted_item",
    "second_order",
]


def second_order(labels: Sequence[str], seed: str) -> tuple[str, ...]:
    """The item's labels in the order the order check shows the candidates.

    The reversal when it moves every label; else a seeded permutation with no fixed
    point (a derangement), the same for the same ``labels`` and ``seed``.
    """
    n = len(labels)
    if n < 2:
        raise ValueError("labels: the order check needs at least two candidates")
    if n % 2 == 0:
        return tuple(reversed(labels))
    digest = hashlib.sha256(("order\x00" + seed).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))  # noqa: S311 (an order, not a secret)
    positions = list(range(n))
    # rejection sampling: a random permutation is a derangement with probability ~1/e,
    # so this takes about three draws; deterministic for the seed
    while True:
        rng.shuffle(positions)
        if all(index != value for index, value in enumerate(positions)):
            return tuple(labels[index] for index in positions)


def permuted_item(item: Item, order: Sequence[str]) -> tuple[Item, dict[str, str]]:
    """``item`` with its candidates shown in ``order`` and labelled by position.

    Returns the item to ask and the map from the labels it shows to the item's own.
    """
    by_label = {candidate.label: candidate for candidate in item.candidates}
    shown_labels = item.labels
    candidates = tuple(
        Candidate(text=by_label[label].text, label=shown, reasoning=by_label[label].reasoning)
        for shown, label in zip(shown_labels, order, strict=True)
    )
    permuted = Item(question=item.question, candidates=candidates, context=item.context, id=item.id)
    return permuted, dict(zip(shown_labels, order, strict=True))


def map_back(
    shown: Iterable[str], mapping: Mapping[str, str], labels: Sequence[str]
) -> tuple[str, ...]:
    """Labels as shown in the second order, mapped to the item's own (in ``labels`` order)."""
    found = {mapping[label] for label in shown}
    return tuple(label for label in labels if label in found)


def order_inconsistency(first: Iterable[str], second: Iterable[str]) -> float:
    """1 − F1(first, second): 0 when the second order gave the same set."""
    return 1.0 - f1(first, second)


def panel_majority(
    labels: Sequence[str], votes: Sequence[Iterable[str] | None]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(correct, split) for a panel: ``votes`` has one entry per member, ``None`` for an
    abstaining member. Both tuples follow ``labels``' order."""
    size = len(votes)
    if size == 0:
        raise ValueError("votes: a panel needs at least one member")
    cast = [set(vote) for vote in votes if vote is not None]
    correct: list[str] = []
    split: list[str] = []
    for label in labels:
        yes = sum(label in vote for vote in cast)
        no = len(cast) - yes
        if 2 * yes > size:
            correct.append(label)
        elif 2 * no <= size:
            split.append(label)
    return tuple(correct), tuple(split)


def fleiss_agreement(labels: Sequence[str], votes: Sequence[Iterable[str] | None]) -> float | None:
    """Fleiss' observed agreement over the candidates among the voting members."""
    cast = [set(vote) for vote in votes if vote is not None]
    n = len(cast)
    if n < 2 or not labels:
        return None
    total = 0.0
    for label in labels:
        yes = sum(label in vote for vote in cast)
        no = n - yes
        total += (yes * (yes - 1) + no * (no - 1)) / (n * (n - 1))
    return total / len(labels)


def answer_confidence(
    text: str | None,
    tokens: Sequence[tuple[str, float]] | None,
    span: tuple[int, int] | None,
) -> float | None:
    """The probability of the tokens that spell ``text[span]``, or ``None`` when the
    tokens are missing, do not spell ``text``, or there is no span."""
    if not text or not tokens or span is None:
        return None
    start, end = span
    if not 0 <= start < end <= len(text):
        return None
    if "".join(token for token, _ in tokens) != text:
        # the judge's tokens are not the reply as returned (stripped, byte pieces):
        # offsets would not line up, and a wrong number is worse than none
        return None
    position = 0
    logprob = 0.0
    touched = False
    for token, value in tokens:
        token_end = position + len(token)
        if token_end > start and position < end:
            if not math.isfinite(value):
                return None
            logprob += min(value, 0.0)
            touched = True
        position = token_end
        if position >= end:
            break
    return math.exp(logprob) if touched else None
