"""Showing the responses in several orders: balanced orders, the position-bias check and
adaptive stopping.

**Balanced orders** (:func:`balanced_orders`). A judge's ranking moves with the order the
responses are shown in (Tang et al. 2023, permutation self-consistency), so a ranking is
asked in several orders and the rankings are reconciled. The orders are rows of a Williams
design (Williams 1949): a Latin square (each response in each position once over ``n``
orders) that is also balanced for neighbours: for an even ``n`` each response is shown
right after each other one exactly once over the ``n`` rows; for an odd ``n`` the square's
mirror image is added (``2n`` rows) and each ordered neighbour pair occurs twice. The
square's symbols are renamed so that the first order is the one given (order 0 is the
identity): one pass in the given order is the first order of every plan. ``k`` orders are
the first ``k`` rows, cycling past the last: each response stands in each position either
``floor(k/n)`` or ``ceil(k/n)`` times (for an odd ``n`` counted over the square and its
mirror separately).

**Position bias** (:func:`position_bias`). Does a response's place in the ranking follow
where it was shown? Over the passes, each response gives one point per pass: its shown
position and its place in that pass's ranking (ties share their mean place), both scaled
to 0..1. Each response's own means are subtracted from its points (so its quality, which
does not move with the order, drops out), and the statistic is the correlation of what
remains, pooled over the responses: the within-response correlation between shown position
and place (a Pearson correlation of centred values, like Spearman's rho because both are
places). Positive: responses shown earlier are ranked better (primacy); negative: recency.
It is flagged when ``|r| >=`` :data:`POSITION_BIAS_MIN_R` (0.5) and the correlation is
unlikely without a bias: the two-sided p-value of its t statistic ``r sqrt(df / (1 - r^2))``,
with ``df = points - responses - 1`` (the within-group correlation's degrees of freedom), is
at most :data:`POSITION_BIAS_MAX_P` (0.05; Student's t computed exactly for integer ``df``,
Abramowitz and Stegun 26.7.3-4). So two orders of three responses (``df`` 2) flag only
``r >= 0.95``, eight orders of five (``df`` 34) any ``r >= 0.5``. A judge whose ranking
never moves gives no correlation (``None``) and no flag.

**Adaptive stopping** (:func:`stop_after`). Ask orders one at a time and stop as soon as two
of the rankings so far agree: Kendall's tau-b at least ``min_tau`` (default
:data:`ADAPTIVE_MIN_TAU`, 0.8: one adjacent swap among five or more responses; for three or
four responses only the same ranking reaches it), or the same ranking where tau-b is not
defined (every response tied).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from prin_guard._ranking._agreement import kendall_tau_b
from prin_guard._ranking._types import Ranking, check_ranking, labels_of, mean_places
from prin_guard.errors import UsageError

__all__ = [
    "ADAPTIVE_MIN_TAU",
    "POSITION_BIAS_MAX_P",
    "POSITION_BIAS_MIN_R",
    "PositionBias",
    "balanced_orders",
    "orders_agree",
    "position_bias",
    "stop_after",
    "t_two_sided_p",
]

POSITION_BIAS_MIN_R = 0.5
"""The least within-response correlation between shown position and place that flags."""
POSITION_BIAS_MAX_P = 0.05
"""The largest two-sided p-value of that correlation that flags."""
ADAPTIVE_MIN_TAU = 0.8
"""Two orders whose rankings reach this Kendall's tau-b agree: stop asking."""


def _williams_rows(n: int) -> list[tuple[int, ...]]:
    first = [0]
    low, high = 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    # rename the symbols so that row 0 is 0, 1, ..., n - 1
    rename = {symbol: position for position, symbol in enumerate(first)}
    rows = [tuple(rename[(symbol + shift) % n] for symbol in first) for shift in range(n)]
    if n % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


def balanced_orders(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """``k`` orders of ``n`` responses: ``order[p]`` is the index of the response shown at
    position ``p``; the first order is ``0, 1, ..., n - 1`` (see the module)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"n: {n!r} is not a positive number of responses")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise UsageError(f"k: {k!r} is not a positive number of orders")
    rows = _williams_rows(n)
    return tuple(rows[j % len(rows)] for j in range(k))


@dataclass(frozen=True, slots=True)
class PositionBias:
    """Whether rankings follow the order the responses were shown in."""

    correlation: float | None
    """The within-response correlation of shown position and place; positive when earlier
    shown is ranked better. ``None`` when no response's place (or position) ever moves."""
    t: float | None
    """Its t statistic (``inf`` for a perfect correlation); ``None`` without ``df``."""
    p_value: float | None
    """The two-sided p-value of ``t`` (Student's t with ``df`` degrees of freedom)."""
    points: int
    """Responses x passes."""
    flagged: bool
    """``|correlation| >= min_r`` and ``p_value <= max_p``."""


def position_bias(
    shown: Sequence[Sequence[str]],
    rankings: Sequence[Ranking],
    *,
    min_r: float = POSITION_BIAS_MIN_R,
    max_p: float = POSITION_BIAS_MAX_P,
) -> PositionBias:
    """The position-bias statistic of passes that showed ``shown[i]`` (labels, first shown
    first) and got ``rankings[i]`` (see the module)."""
    if len(shown) != len(rankings):
        raise UsageError(
            f"rankings: {len(rankings)} rankings for {len(shown)} shown orders; one each"
        )
    if not shown:
        raise UsageError("shown: no passes")
    xs: dict[str, list[float]] = {}
    ys: dict[str, list[float]] = {}
    for number, (order, given) in enumerate(zip(shown, rankings, strict=True)):
        ranking = check_ranking(given, f"rankings.{number}")
        if len(set(order)) != len(order) or set(order) != labels_of(ranking):
            raise UsageError(
                f"shown.{number}: the shown order and its ranking name different labels "
                "(or a label twice)"
            )
        scale = max(1, len(order) - 1)
        places = mean_places(ranking)
        for position, label in enumerate(order):
            xs.setdefault(label, []).append(position / scale)
            ys.setdefault(label, []).append(places[label] / scale)
    sxy = sxx = syy = 0.0
    points = 0
    for label, x in xs.items():
        y = ys[label]
        mx, my = sum(x) / len(x), sum(y) / len(y)
        for a, b in zip(x, y, strict=True):
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) ** 2
            syy += (b - my) ** 2
        points += len(x)
    if sxx <= 1e-12 or syy <= 1e-12:
        return PositionBias(correlation=None, t=None, p_value=None, points=points, flagged=False)
    r = max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))
    df = points - len(xs) - 1
    if df <= 0:
        return PositionBias(correlation=r, t=None, p_value=None, points=points, flagged=False)
    t = math.copysign(math.inf, r) if abs(r) >= 1 else r * math.sqrt(df / (1 - r * r))
    p = t_two_sided_p(t, df)
    flagged = abs(r) >= min_r and p <= max_p
    return PositionBias(correlation=r, t=t, p_value=p, points=points, flagged=flagged)


def t_two_sided_p(t: float, df: int) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` (a positive integer) degrees of freedom,
    exactly (Abramowitz and Stegun 26.7.3 for odd ``df``, 26.7.4 for even)."""
    if df < 1:
        raise UsageError(f"df: {df!r} is not a positive number of degrees of freedom")
    if math.isinf(t):
        return 0.0
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        series, term = 0.0, 1.0
        if df > 1:
            series = 1.0
            for k in range(3, df - 1, 2):  # (2 4 ... (k-1)) / (1 3 ... k) cos^(k-1)
                term *= (k - 1) / k * c2
                series += term
        inside = theta + (math.sin(theta) * math.cos(theta) * series if df > 1 else 0.0)
        within = 2 / math.pi * inside
    else:
        series, term = 1.0, 1.0
        for k in range(2, df - 1, 2):  # (1 3 ... (k-1)) / (2 4 ... k) cos^k
            term *= (k - 1) / k * c2
            series += term
        within = math.sin(theta) * series
    return max(0.0, min(1.0, 1 - within))


def _agree(first: Ranking, second: Ranking, min_tau: float) -> bool:
    tau = kendall_tau_b(first, second)
    if tau is None:
        return [set(tier) for tier in first] == [set(tier) for tier in second]
    return tau >= min_tau


def orders_agree(
    rankings: Sequence[Ranking], *, min_tau: float = ADAPTIVE_MIN_TAU
) -> tuple[int, int] | None:
    """The first two rankings (by the later one's index, then the earlier's) that agree
    (see the module), or ``None``."""
    checked = [check_ranking(ranking, f"rankings.{n}") for n, ranking in enumerate(rankings)]
    for later in range(1, len(checked)):
        for earlier in range(later):
            if _agree(checked[earlier], checked[later], min_tau):
                return earlier, later
    return None


def stop_after(rankings: Sequence[Ranking], *, min_tau: float = ADAPTIVE_MIN_TAU) -> int | None:
    """How many orders adaptive stopping asks: the first ``m`` such that two of the first
    ``m`` rankings agree; ``None`` when no two of ``rankings`` agree."""
    pair = orders_agree(rankings, min_tau=min_tau)
    return None if pair is None else pair[1] + 1
