"""One ranking from several: the Kemeny consensus of weighted votes, ties allowed.

A *vote* is one ranking a judge gave (one leg, one order of the responses), with a weight.
A reverse leg ranks worst first; its ranking is reversed before it joins
(:attr:`Vote.worst_first`), so every vote reads best first.

**The objective.** The consensus is the ranking, ties allowed, with the least total weighted
Kendall distance to the votes: each pair of labels costs a vote's weight when the vote orders
it the other way, half of it when exactly one of the two (consensus or vote) ties it (the
``K^(1/2)`` distance of :mod:`prin_guard._ranking._agreement`). Kemeny's rule is the one
that is consistent and Condorcet-consistent (Young and Levenglick 1978); this is its form
for weak orders. Its pairwise costs make a tie the consensus's choice for a pair only when
the votes are split evenly on it: two legs that disagree on a pair leave it tied.

**Exact up to** :data:`KEMENY_EXACT_MAX` **labels** (:func:`kemeny`): dynamic programming
over subsets. The cost of a weak order splits into its tiers (the pairs inside a tier) and
the pairs across tiers, so the best arrangement of a set ``R`` of labels still to place is
the best first tier ``T`` of ``R`` plus the best arrangement of ``R - T``: ``3^n`` pairs
``(R, T)`` (6,561 for 8 labels), each costed in ``O(|T|)`` from per-label sums precomputed
for every subset (``n 2^n`` numbers). Among weak orders of equal cost (within a rounding
tolerance) it keeps the one with the most tied pairs: when the evidence is balanced the
consensus does not invent an order; then the first found, visiting first tiers in the
order of bit masks over the labels sorted (deterministic, independent of the order the
votes list or were shown in).

**Above that** (:func:`borda_local_search`): the Borda order (each vote gives a label one
point per label it ranks below and half a point per label it ties with; equal totals tie),
then steepest descent on the same objective with moves between neighbours: one label joins
the tier above or below it, or leaves its tier to stand alone just above or below it, or two
neighbouring tiers change places. Each move is costed by its change (``O(n)`` per label
moved), and the search stops at a ranking no such move improves. This is a local optimum,
not a certified one: on 600 random ballots of 6 to 8 labels (2 to 7 noisy votes each,
``tests/test_ranking.py``) it reached the exact consensus's cost in 583, with a mean
relative excess of 0.1% (worst 7%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from prin_guard._ranking._types import Ranking, check_ranking, labels_of, reverse, tier_index
from prin_guard.errors import UsageError

__all__ = [
    "KEMENY_EXACT_MAX",
    "Consensus",
    "Vote",
    "borda_local_search",
    "consensus",
    "kemeny",
    "kemeny_cost",
]

KEMENY_EXACT_MAX = 8
"""The most labels :func:`consensus` ranks exactly (3^8 = 6,561 steps); more go to
:func:`borda_local_search`."""

ConsensusMethod = Literal["kemeny", "borda-local-search"]


@dataclass(frozen=True, slots=True)
class Vote:
    """One ranking that joins a consensus."""

    ranking: Ranking
    weight: float = 1.0
    """How much the vote counts (a leg's weight); positive and finite."""
    worst_first: bool = False
    """The ranking lists the worst first (a reverse leg's answer); it is reversed before
    it joins."""


@dataclass(frozen=True, slots=True)
class Consensus:
    """The consensus ranking and how far the votes are from it."""

    ranking: Ranking
    method: ConsensusMethod
    cost: float
    """The objective: the weighted sum over votes of the pairs they order the other way
    (1 each) or tie differently (1/2 each)."""
    distance: float
    """``cost`` over (total weight x pairs): the votes' weighted mean normalised Kendall
    distance from the consensus, 0 when every vote is the consensus."""


@dataclass(frozen=True, slots=True)
class _Pairs:
    labels: tuple[str, ...]
    before: list[list[float]]
    """``before[i][j]``: the cost of placing label i above label j."""
    tied: list[list[float]]
    """``tied[i][j]``: the cost of tying labels i and j."""
    weight: float


def _pairs(votes: Sequence[Vote]) -> _Pairs:
    if not votes:
        raise UsageError("votes: a consensus needs at least one vote")
    rankings: list[Ranking] = []
    weight = 0.0
    for number, vote in enumerate(votes):
        ranking = check_ranking(vote.ranking, f"votes.{number}.ranking")
        if not (isinstance(vote.weight, int | float) and math.isfinite(vote.weight)):
            raise UsageError(f"votes.{number}.weight: {vote.weight!r} is not a finite number")
        if vote.weight <= 0:
            raise UsageError(f"votes.{number}.weight: {vote.weight!r} is not positive")
        if rankings and labels_of(ranking) != labels_of(rankings[0]):
            raise UsageError(
                f"votes.{number}.ranking: ranks other labels than votes.0 "
                f"({', '.join(sorted(labels_of(ranking) ^ labels_of(rankings[0])))})"
            )
        rankings.append(reverse(ranking) if vote.worst_first else ranking)
        weight += vote.weight
    labels = tuple(sorted(labels_of(rankings[0])))
    n = len(labels)
    before = [[0.0] * n for _ in range(n)]
    tied = [[0.0] * n for _ in range(n)]
    for vote, ranking in zip(votes, rankings, strict=True):
        tiers = tier_index(ranking)
        places = [tiers[label] for label in labels]
        w = vote.weight
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                if places[i] == places[j]:
                    before[i][j] += w / 2
                else:
                    tied[i][j] += w / 2
                    if places[j] < places[i]:
                        before[i][j] += w
    return _Pairs(labels, before, tied, weight)


def _cost(pairs: _Pairs, ranking: Ranking) -> float:
    index = {label: i for i, label in enumerate(pairs.labels)}
    tiers = tier_index(ranking)
    total = 0.0
    for i, x in enumerate(pairs.labels):
        for y in pairs.labels[i + 1 :]:
            a, b = index[x], index[y]
            if tiers[x] == tiers[y]:
                total += pairs.tied[a][b]
            elif tiers[x] < tiers[y]:
                total += pairs.before[a][b]
            else:
                total += pairs.before[b][a]
    return total


def _result(pairs: _Pairs, ranking: Ranking, method: ConsensusMethod) -> Consensus:
    cost = _cost(pairs, ranking)
    n = len(pairs.labels)
    count = n * (n - 1) // 2
    distance = cost / (pairs.weight * count) if count else 0.0
    return Consensus(ranking=ranking, method=method, cost=cost, distance=distance)


def kemeny_cost(votes: Sequence[Vote], ranking: Ranking) -> float:
    """The consensus objective of ``ranking`` for ``votes`` (see the module)."""
    pairs = _pairs(votes)
    candidate = check_ranking(ranking)
    if labels_of(candidate) != set(pairs.labels):
        raise UsageError("ranking: ranks other labels than the votes")
    return _cost(pairs, candidate)


def _tolerance(pairs: _Pairs) -> float:
    return 1e-9 * (pairs.weight + 1) * max(1, len(pairs.labels)) ** 2


def kemeny(votes: Sequence[Vote]) -> Consensus:
    """The exact Kemeny consensus with ties by dynamic programming over subsets (see the
    module); at most :data:`KEMENY_EXACT_MAX` labels."""
    pairs = _pairs(votes)
    n = len(pairs.labels)
    if n > KEMENY_EXACT_MAX:
        raise UsageError(
            f"votes: {n} labels; the exact consensus takes at most {KEMENY_EXACT_MAX} "
            "(use consensus(), which searches above that)"
        )
    size = 1 << n
    # sums[i][m] and ties[i][m]: the cost of label i above, or tied with, every label of m.
    above = [[0.0] * size for _ in range(n)]
    level = [[0.0] * size for _ in range(n)]
    for i in range(n):
        for mask in range(1, size):
            low = (mask & -mask).bit_length() - 1
            rest = mask & (mask - 1)
            above[i][mask] = above[i][rest] + pairs.before[i][low]
            level[i][mask] = level[i][rest] + pairs.tied[i][low]
    inside = [0.0] * size  # the cost of the pairs inside a tier
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        rest = mask & (mask - 1)
        inside[mask] = inside[rest] + level[low][rest]
    eps = _tolerance(pairs)
    best_cost = [0.0] * size
    best_ties = [0] * size
    first_tier = [0] * size
    for remaining in range(1, size):
        found = False
        cost_here, ties_here, choice = 0.0, 0, 0
        tier = remaining
        while tier:
            rest = remaining & ~tier
            cost = inside[tier] + best_cost[rest]
            bits = tier
            while bits:
                low = (bits & -bits).bit_length() - 1
                cost += above[low][rest]
                bits &= bits - 1
            members = tier.bit_count()
            ties = members * (members - 1) // 2 + best_ties[rest]
            if (
                not found
                or cost < cost_here - eps
                or (cost <= cost_here + eps and ties > ties_here)
            ):
                found, cost_here, ties_here, choice = True, cost, ties, tier
            tier = (tier - 1) & remaining
        best_cost[remaining], best_ties[remaining] = cost_here, ties_here
        first_tier[remaining] = choice
    tiers: list[tuple[str, ...]] = []
    remaining = size - 1
    while remaining:
        tier = first_tier[remaining]
        tiers.append(tuple(pairs.labels[i] for i in range(n) if tier >> i & 1))
        remaining &= ~tier
    return _result(pairs, tuple(tiers), "kemeny")


def _borda(pairs: _Pairs) -> list[list[int]]:
    n = len(pairs.labels)
    # a label's Borda points are what placing each other label above it would cost
    points = [sum(pairs.before[j][i] for j in range(n) if j != i) for i in range(n)]
    eps = _tolerance(pairs)
    tiers: list[list[int]] = []
    for i in sorted(range(n), key=lambda i: -points[i]):
        if tiers and abs(points[tiers[-1][0]] - points[i]) <= eps:
            tiers[-1].append(i)
        else:
            tiers.append([i])
    return tiers


def _label_cost(pairs: _Pairs, where: list[int], x: int, place: int) -> float:
    """The cost of label x's pairs with x at ``place`` (doubled tier indexes: tier k at
    2k, a new tier just above or below it at 2k - 1 or 2k + 1)."""
    total = 0.0
    for y, other in enumerate(where):
        if y == x:
            continue
        if place == other:
            total += pairs.tied[x][y]
        elif place < other:
            total += pairs.before[x][y]
        else:
            total += pairs.before[y][x]
    return total


def _improve(pairs: _Pairs, tiers: list[list[int]]) -> list[list[int]]:
    eps = _tolerance(pairs)
    n = len(pairs.labels)
    while True:
        where = [0] * n
        for k, tier in enumerate(tiers):
            for i in tier:
                where[i] = 2 * k
        best_gain, best_move = eps, None
        for x in range(n):
            here = where[x]
            alone = len(tiers[here // 2]) == 1
            now = _label_cost(pairs, where, x, here)
            targets = [here - 2, here + 2] + ([] if alone else [here - 1, here + 1])
            for place in targets:
                # a new tier may stand above the first or below the last (-1, 2 len - 1)
                if place < -1 or place > 2 * len(tiers) - 1:
                    continue
                gain = now - _label_cost(pairs, where, x, place)
                if gain > best_gain:
                    best_gain, best_move = gain, ("move", x, place)
        for k in range(len(tiers) - 1):
            gain = sum(
                pairs.before[t][u] - pairs.before[u][t] for t in tiers[k] for u in tiers[k + 1]
            )
            if gain > best_gain:
                best_gain, best_move = gain, ("swap", k, 0)
        if best_move is None:
            return tiers
        kind, a, b = best_move
        if kind == "swap":
            tiers[a], tiers[a + 1] = tiers[a + 1], tiers[a]
            continue
        here = where[a]
        tiers[here // 2].remove(a)
        if b % 2 == 0:
            tiers[b // 2].append(a)
        else:
            tiers.insert((b + 1) // 2, [a])
        tiers = [tier for tier in tiers if tier]


def borda_local_search(votes: Sequence[Vote]) -> Consensus:
    """The Borda order improved by moves between neighbours until none lowers the Kemeny
    objective (see the module): any number of labels, a local optimum."""
    pairs = _pairs(votes)
    tiers = _improve(pairs, _borda(pairs))
    ranking = tuple(tuple(pairs.labels[i] for i in sorted(tier)) for tier in tiers)
    return _result(pairs, ranking, "borda-local-search")


def consensus(votes: Sequence[Vote], *, exact_max: int = KEMENY_EXACT_MAX) -> Consensus:
    """The Kemeny consensus of ``votes``: exact up to ``exact_max`` labels (at most
    :data:`KEMENY_EXACT_MAX`), Borda with local search above."""
    if not 0 <= exact_max <= KEMENY_EXACT_MAX:
        raise UsageError(f"exact_max: {exact_max!r} is not between 0 and {KEMENY_EXACT_MAX}")
    if votes and len(labels_of(votes[0].ranking)) <= exact_max:
        return kemeny(votes)
    return borda_local_search(votes)
