"""How far two rankings of the same labels agree: Kendall's tau-b, the normalised Kendall
distance (the PRIN-like score of a ranking's legs) and top-1 agreement.

Pairs of labels are compared one by one. A pair is *concordant* when both rankings order it
the same way, *discordant* when they order it opposite ways, and *tied* in a ranking that
puts both labels in one tier.

* **Kendall's tau-b** (Kendall 1945; scipy's ``kendalltau`` default): ``(C - D) /
  sqrt((P - Ta) (P - Tb))`` over the ``P`` pairs, with ``Ta`` and ``Tb`` the pairs each
  ranking ties. 1 for the same strict ranking, -1 for a strict ranking and its reverse; not
  defined (``None``) when a ranking ties every label or there are fewer than two labels.
* **Kendall distance** with a half penalty for ties (Fagin, Kumar, Mahdian, Sivakumar and
  Vee 2006, ``K^(p)`` with ``p = 1/2``), divided by the number of pairs: each discordant pair
  counts 1, each pair tied in exactly one ranking 1/2, other pairs 0. 0 when the rankings
  are the same (ties included), 1 only for a strict ranking and its reverse. It is a metric
  (Fagin et al. prove the triangle inequality for ``p >= 1/2``), and it is defined where
  tau-b is not: one label, or every label tied in both rankings, is distance 0 (nothing to
  disagree about). For two strict rankings ``tau = 1 - 2 * distance``. This is the ranking's
  PRIN-like score: the direct leg's ranking against the reverse leg's, reversed.
* **Top-1 agreement** (:func:`top_agrees`): the predicted best are all among the
  reference's best. It is asymmetric on purpose: a judge that names one of several
  responses the humans tie for first agrees; a judge that ties two responses for first
  when the humans put one of them second does not.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from prin_guard._ranking._types import Ranking, check_same_labels, tier_index

__all__ = ["average_ranks", "kendall_distance", "kendall_tau_b", "pair_counts", "top_agrees"]


def pair_counts(first: Ranking, second: Ranking) -> tuple[int, int, int, int, int]:
    """``(concordant, discordant, tied_in_first_only, tied_in_second_only, tied_in_both)``
    over the pairs of labels; the rankings must rank the same labels."""
    check_same_labels(first, second)
    a, b = tier_index(first), tier_index(second)
    concordant = discordant = only_a = only_b = both = 0
    for x, y in itertools.combinations(sorted(a), 2):
        da, db = a[x] - a[y], b[x] - b[y]
        if da == 0 and db == 0:
            both += 1
        elif da == 0:
            only_a += 1
        elif db == 0:
            only_b += 1
        elif (da > 0) == (db > 0):
            concordant += 1
        else:
            discordant += 1
    return concordant, discordant, only_a, only_b, both


def kendall_tau_b(first: Ranking, second: Ranking) -> float | None:
    """Kendall's tau-b between two rankings of the same labels, ``None`` where it is not
    defined (see the module)."""
    concordant, discordant, only_a, only_b, _ = pair_counts(first, second)
    denominator = math.sqrt((concordant + discordant + only_b) * (concordant + discordant + only_a))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator


def kendall_distance(first: Ranking, second: Ranking) -> float:
    """The normalised Kendall distance with a half penalty for a pair only one ranking ties:
    0 the same, 1 a strict ranking and its reverse (see the module)."""
    concordant, discordant, only_a, only_b, both = pair_counts(first, second)
    pairs = concordant + discordant + only_a + only_b + both
    if pairs == 0:
        return 0.0
    return (discordant + (only_a + only_b) / 2) / pairs


def top_agrees(predicted: Ranking, reference: Ranking) -> bool:
    """Whether every label of ``predicted``'s first tier is in ``reference``'s first tier
    (both rank the same labels)."""
    check_same_labels(predicted, reference)
    if not predicted:
        return True
    return set(predicted[0]) <= set(reference[0])


def average_ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1 (smallest first), tied values sharing the mean of their
    places: what Spearman's rho correlates (scipy's ``rankdata`` method ``average``)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        stop = start
        while stop + 1 < len(order) and values[order[stop + 1]] == values[order[start]]:
            stop += 1
        for place in range(start, stop + 1):
            ranks[order[place]] = (start + stop) / 2 + 1
        start = stop + 1
    return ranks
