"""Pairwise tournaments: every pair of responses judged on its own (through the pairwise
task, both orders), then read as a whole: the cycles it holds, and a Bradley-Terry ranking.

An *outcome* is ``(a, b, score)``: one judgment of ``a`` against ``b``, ``score`` 1 when ``a``
is better, 0 when ``b`` is, 0.5 for a tie (a pairwise verdict's legs that disagree, or a
tie). Both orders of one pair are two outcomes.

**Cycles** (:func:`intransitive_triples`). Each pair's outcomes are summed into a majority:
``a`` over ``b`` when ``a``'s mean score is above 1/2, a draw at exactly 1/2. A triple of
responses is *decided* when all three of its pairs have a majority, and *intransitive* when
the majorities go round (``a > b``, ``b > c``, ``c > a``). A triple with a drawn pair is
neither counted as a cycle nor as decided (``a > b``, ``b > c``, ``a = c`` is a weak
inconsistency that only a strict cycle count leaves out; the draws are counted apart). The
rate is cycles over decided triples, the form of TrustJudge's transitivity-violation figure.

**Bradley-Terry** (:func:`bradley_terry`). ``P(a beats b) = p_a / (p_a + p_b)``, fitted by
Hunter's (2004) MM algorithm: ``p_i <- W_i / sum_j n_ij / (p_i + p_j)`` with ``W_i`` the
wins of ``i`` (a tie half a win to each) and ``n_ij`` the games between ``i`` and ``j``,
until no log-strength moves by more than ``tol``. The maximum-likelihood strengths exist
only when every split of the responses into two groups has a win across it both ways
(Hunter's Assumption 1); a tournament with an undefeated response has none. So by default
each compared pair gets ``prior`` extra games (0.5) split evenly, a tie's worth of shrinkage
to equal strength that keeps every strength finite; ``prior=0`` fits the plain likelihood and
is a :class:`~prin_guard.UsageError` when the condition fails. Responses that are never
compared with the rest (a comparison graph in pieces) cannot be put on one scale: also a
``UsageError``.

Strengths are reported as log-strengths centred to mean 0. **Intervals** are Wald intervals
from the Fisher information at the estimate (not a bootstrap: deterministic and cheap):
the information of the log-strengths is the graph Laplacian with weights
``n_ij p_i p_j / (p_i + p_j)^2``, and the covariance of the centred log-strengths is its
Moore-Penrose inverse, ``(L + J/n)^-1 - J/n`` for a connected graph. The prior's games count
as games there too. ``level`` 0.95 gives ``estimate +- 1.96 se``. The ranking orders the
strengths; equal strengths (within 1e-9) tie.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from prin_guard._ranking._types import Ranking
from prin_guard.errors import UsageError

__all__ = [
    "BradleyTerry",
    "Intransitivity",
    "Outcome",
    "bradley_terry",
    "intransitive_triples",
    "majorities",
]

Outcome = tuple[str, str, float]
"""``(a, b, score)``: ``a`` against ``b``; score 1 ``a`` better, 0 ``b`` better, 0.5 a tie."""


def _checked(outcomes: Iterable[Outcome]) -> list[Outcome]:
    out: list[Outcome] = []
    for number, outcome in enumerate(outcomes):
        try:
            a, b, score = outcome
        except (TypeError, ValueError):
            raise UsageError(f"outcomes.{number}: {outcome!r} is not (a, b, score)") from None
        if not (isinstance(a, str) and isinstance(b, str) and a and b):
            raise UsageError(f"outcomes.{number}: {a!r} and {b!r} are not labels")
        if a == b:
            raise UsageError(f"outcomes.{number}: {a!r} against itself")
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
            raise UsageError(f"outcomes.{number}: score {score!r} is not a number from 0 to 1")
        out.append((a, b, float(score)))
    return out


def majorities(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], float]:
    """Each compared pair ``(a, b)`` (``a < b``) with ``a``'s mean score against ``b``."""
    totals: dict[tuple[str, str], list[float]] = {}
    for a, b, score in _checked(outcomes):
        key, value = ((a, b), score) if a < b else ((b, a), 1 - score)
        entry = totals.setdefault(key, [0.0, 0.0])
        entry[0] += value
        entry[1] += 1
    return {key: total / count for key, (total, count) in totals.items()}


@dataclass(frozen=True, slots=True)
class Intransitivity:
    """The cycles of a tournament's majorities."""

    cycles: tuple[tuple[str, str, str], ...]
    """The intransitive triples, each as ``(a, b, c)`` with ``a > b > c > a``, ``a`` the
    first in sorted order."""
    decided: int
    """Triples whose three pairs all have a strict majority."""
    drawn: int
    """Triples whose three pairs were all compared and at least one is drawn."""
    triples: int
    """Triples whose three pairs were all compared."""

    @property
    def rate(self) -> float | None:
        """Cycles over decided triples; ``None`` when none is decided."""
        return len(self.cycles) / self.decided if self.decided else None


def intransitive_triples(outcomes: Iterable[Outcome]) -> Intransitivity:
    """The majorities' cycles among every triple of compared responses (see the module)."""
    means = majorities(outcomes)
    labels = sorted({label for pair in means for label in pair})

    def beats(x: str, y: str) -> int | None:
        """1 when x's majority is over y, -1 under, 0 drawn, None never compared."""
        key = (x, y) if x < y else (y, x)
        if key not in means:
            return None
        mean = means[key] if x < y else 1 - means[key]
        return 0 if mean == 0.5 else (1 if mean > 0.5 else -1)

    cycles: list[tuple[str, str, str]] = []
    decided = drawn = triples = 0
    for a, b, c in itertools.combinations(labels, 3):
        ab, bc, ca = beats(a, b), beats(b, c), beats(c, a)
        if ab is None or bc is None or ca is None:
            continue
        triples += 1
        if 0 in (ab, bc, ca):
            drawn += 1
            continue
        decided += 1
        if ab == bc == ca == 1:
            cycles.append((a, b, c))
        elif ab == bc == ca == -1:
            cycles.append((a, c, b))
    return Intransitivity(cycles=tuple(cycles), decided=decided, drawn=drawn, triples=triples)


@dataclass(frozen=True, slots=True)
class BradleyTerry:
    """A Bradley-Terry fit: log-strengths with Wald intervals, and the ranking they give."""

    strength: dict[str, float]
    """Each response's log-strength, centred to mean 0; higher is better."""
    stderr: dict[str, float]
    lower: dict[str, float]
    upper: dict[str, float]
    level: float
    ranking: Ranking
    iterations: int
    converged: bool


def _components(labels: Sequence[str], games: dict[tuple[int, int], float]) -> int:
    parent = list(range(len(labels)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in games:
        parent[root(i)] = root(j)
    return len({root(i) for i in range(len(labels))})


def _strongly_connected(n: int, won: set[tuple[int, int]]) -> bool:
    def reach(edges: set[tuple[int, int]]) -> set[int]:
        seen, stack = {0}, [0]
        while stack:
            i = stack.pop()
            for x, y in edges:
                if x == i and y not in seen:
                    seen.add(y)
                    stack.append(y)
        return seen

    return len(reach(won)) == n and len(reach({(y, x) for x, y in won})) == n


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col]
        a[col] = [value / head for value in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def bradley_terry(
    outcomes: Iterable[Outcome],
    *,
    prior: float = 0.5,
    level: float = 0.95,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> BradleyTerry:
    """Fit Bradley-Terry strengths to the outcomes by Hunter's MM algorithm, with Wald
    intervals from the Fisher information (see the module)."""
    if not (math.isfinite(prior) and prior >= 0):
        raise UsageError(f"prior: {prior!r} is not a non-negative number of games")
    if not 0 < level < 1:
        raise UsageError(f"level: {level!r} is not between 0 and 1")
    checked = _checked(outcomes)
    labels = sorted({label for a, b, _ in checked for label in (a, b)})
    if len(labels) < 2:
        raise UsageError("outcomes: a tournament needs at least two responses")
    index = {label: i for i, label in enumerate(labels)}
    n = len(labels)
    wins = [0.0] * n
    games: dict[tuple[int, int], float] = {}
    won: set[tuple[int, int]] = set()
    for a, b, score in checked:
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1 - score
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + 1
        if score > 0:
            won.add((i, j))
        if score < 1:
            won.add((j, i))
    if _components(labels, games) > 1:
        raise UsageError(
            "outcomes: some responses are never compared with the others, directly or "
            "through others; their strengths share no scale"
        )
    if prior == 0 and not _strongly_connected(n, won):
        raise UsageError(
            "prior: 0 fits the plain likelihood, which has no maximum here (a group of "
            "responses never loses to the rest); give a positive prior"
        )
    for i, j in games:
        games[i, j] += prior
        wins[i] += prior / 2
        wins[j] += prior / 2
    partners: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), count in games.items():
        partners[i].append((j, count))
        partners[j].append((i, count))
    p = [1.0] * n
    converged = False
    iterations = 0
    while iterations < max_iter:
        iterations += 1
        new = [wins[i] / sum(count / (p[i] + p[j]) for j, count in partners[i]) for i in range(n)]
        centre = sum(math.log(x) for x in new) / n
        new = [x / math.exp(centre) for x in new]
        moved = max(abs(math.log(x) - math.log(y)) for x, y in zip(new, p, strict=True))
        p = new
        if moved < tol:
            converged = True
            break
    theta = [math.log(x) for x in p]
    information = [[0.0] * n for _ in range(n)]
    for (i, j), count in games.items():
        w = count * p[i] * p[j] / (p[i] + p[j]) ** 2
        information[i][j] -= w
        information[j][i] -= w
        information[i][i] += w
        information[j][j] += w
    shifted = [[value + 1 / n for value in row] for row in information]
    covariance = [[value - 1 / n for value in row] for row in _inverse(shifted)]
    z = NormalDist().inv_cdf((1 + level) / 2)
    se = [math.sqrt(max(0.0, covariance[i][i])) for i in range(n)]
    tiers: list[tuple[str, ...]] = []
    last = math.inf
    for i in sorted(range(n), key=lambda i: -theta[i]):
        if tiers and abs(last - theta[i]) <= 1e-9:
            tiers[-1] = (*tiers[-1], labels[i])
        else:
            tiers.append((labels[i],))
            last = theta[i]
    return BradleyTerry(
        strength={labels[i]: theta[i] for i in range(n)},
        stderr={labels[i]: se[i] for i in range(n)},
        lower={labels[i]: theta[i] - z * se[i] for i in range(n)},
        upper={labels[i]: theta[i] + z * se[i] for i in range(n)},
        level=level,
        ranking=tuple(tiers),
        iterations=iterations,
        converged=converged,
    )
