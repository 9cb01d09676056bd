"""Listwise ranking's pure functions (issue 40): rankings with ties, how far two agree, the
consensus of several, the orders to show the responses in, the position-bias check,
adaptive stopping, and pairwise tournaments. No I/O and no judge: the task module of the
tasks package (issue 39) calls them.

* ``_types``: :data:`Ranking` (tiers of labels, best first) and its checks;
* ``_agreement``: Kendall's tau-b, the normalised Kendall distance (the legs' PRIN-like
  score), top-1 agreement;
* ``_consensus``: the Kemeny consensus of weighted votes (a reverse leg's ranking reversed
  first), exact by dynamic programming up to eight labels, Borda with local search above;
* ``_orders``: balanced orders (a Williams design), the position-bias statistic and its
  flag, adaptive stopping;
* ``_tournament``: the cycles of a pairwise tournament and a Bradley-Terry fit with
  intervals.

Bad input raises :class:`~prin_guard.UsageError` naming the argument and the reason.
"""

from __future__ import annotations

from prin_guard._ranking._agreement import (
    average_ranks,
    kendall_distance,
    kendall_tau_b,
    pair_counts,
    top_agrees,
)
from prin_guard._ranking._consensus import (
    KEMENY_EXACT_MAX,
    Consensus,
    Vote,
    borda_local_search,
    consensus,
    kemeny,
    kemeny_cost,
)
from prin_guard._ranking._orders import (
    ADAPTIVE_MIN_TAU,
    POSITION_BIAS_MAX_P,
    POSITION_BIAS_MIN_R,
    PositionBias,
    balanced_orders,
    orders_agree,
    position_bias,
    stop_after,
    t_two_sided_p,
)
from prin_guard._ranking._tournament import (
    BradleyTerry,
    Intransitivity,
    Outcome,
    bradley_terry,
    intransitive_triples,
    majorities,
)
from prin_guard._ranking._types import (
    Ranking,
    check_ranking,
    from_order,
    from_ranks,
    labels_of,
    mean_places,
    reverse,
    tier_index,
)

__all__ = [
    "ADAPTIVE_MIN_TAU",
    "KEMENY_EXACT_MAX",
    "POSITION_BIAS_MAX_P",
    "POSITION_BIAS_MIN_R",
    "BradleyTerry",
    "Consensus",
    "Intransitivity",
    "Outcome",
    "PositionBias",
    "Ranking",
    "Vote",
    "average_ranks",
    "balanced_orders",
    "borda_local_search",
    "bradley_terry",
    "check_ranking",
    "consensus",
    "from_order",
    "from_ranks",
    "intransitive_triples",
    "kemeny",
    "kemeny_cost",
    "kendall_distance",
    "kendall_tau_b",
    "labels_of",
    "majorities",
    "mean_places",
    "orders_agree",
    "pair_counts",
    "position_bias",
    "reverse",
    "stop_after",
    "t_two_sided_p",
    "tier_index",
    "top_agrees",
]
