"""A ranking with ties, and the few operations every other part of ranking needs.

A :data:`Ranking` is a tuple of *tiers*, best first; each tier is a tuple of labels the
ranking ties. ``(("B",), ("A", "C"))`` says B is best and A and C share second place.
Every label stands in exactly one tier, and no tier is empty (:func:`check_ranking`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from prin_guard.errors import UsageError

__all__ = [
    "Ranking",
    "check_ranking",
    "check_same_labels",
    "from_order",
    "from_ranks",
    "labels_of",
    "mean_places",
    "reverse",
    "tier_index",
]

Ranking = tuple[tuple[str, ...], ...]
"""Tiers of labels, best first; labels in one tier are tied."""


def check_ranking(ranking: Sequence[Sequence[str]], field: str = "ranking") -> Ranking:
    """``ranking`` as a :data:`Ranking`, or a :class:`UsageError` naming ``field`` and what
    is wrong: an empty tier, a label that is not a non-empty string, a label twice."""
    seen: set[str] = set()
    tiers: list[tuple[str, ...]] = []
    for number, tier in enumerate(ranking):
        if isinstance(tier, str):
            raise UsageError(f"{field}.{number}: a tier is a sequence of labels, not a string")
        if not tier:
            raise UsageError(f"{field}.{number}: a tier holds at least one label")
        for label in tier:
            if not isinstance(label, str) or not label:
                raise UsageError(f"{field}.{number}: {label!r} is not a label")
            if label in seen:
                raise UsageError(f"{field}.{number}: label {label!r} stands in two places")
            seen.add(label)
        tiers.append(tuple(tier))
    return tuple(tiers)


def labels_of(ranking: Ranking) -> frozenset[str]:
    """The labels a ranking ranks."""
    return frozenset(label for tier in ranking for label in tier)


def check_same_labels(first: Ranking, second: Ranking, field: str = "rankings") -> None:
    """A :class:`UsageError` unless both rankings rank the same labels."""
    a, b = labels_of(first), labels_of(second)
    if a != b:
        only_a, only_b = sorted(a - b), sorted(b - a)
        raise UsageError(
            f"{field}: the rankings rank different labels (only in the first: "
            f"{', '.join(only_a) or 'none'}; only in the second: {', '.join(only_b) or 'none'})"
        )


def tier_index(ranking: Ranking) -> dict[str, int]:
    """Each label's tier, 0 for the best."""
    return {label: number for number, tier in enumerate(ranking) for label in tier}


def mean_places(ranking: Ranking) -> dict[str, float]:
    """Each label's place from 0 (best) to n - 1, tied labels sharing the mean of the places
    they cover (the "fractional ranking" that Spearman's rho uses)."""
    places: dict[str, float] = {}
    before = 0
    for tier in ranking:
        place = before + (len(tier) - 1) / 2
        for label in tier:
            places[label] = place
        before += len(tier)
    return places


def reverse(ranking: Ranking) -> Ranking:
    """The same tiers, worst first: how a reverse leg's ranking ("worst to best") joins the
    direct one's."""
    return tuple(reversed(ranking))


def from_order(labels: Iterable[str]) -> Ranking:
    """A strict ranking from labels listed best first."""
    return check_ranking([(label,) for label in labels])


def from_ranks(ranks: Mapping[str, float], *, higher_is_better: bool = False) -> Ranking:
    """A ranking from a number per label (rank 1 best, or scores with
    ``higher_is_better``); equal numbers tie."""
    ordered = sorted(ranks, key=lambda label: -ranks[label] if higher_is_better else ranks[label])
    tiers: list[tuple[str, ...]] = []
    for label in ordered:
        if tiers and ranks[tiers[-1][0]] == ranks[label]:
            tiers[-1] = (*tiers[-1], label)
        else:
            tiers.append((label,))
    return tuple(tiers)
