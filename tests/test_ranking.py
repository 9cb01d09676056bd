"""Listwise ranking's pure functions: agreement, consensus, orders, tournaments."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prin_guard._ranking import (
    Ranking,
    Vote,
    balanced_orders,
    borda_local_search,
    bradley_terry,
    consensus,
    from_order,
    from_ranks,
    intransitive_triples,
    kemeny,
    kemeny_cost,
    kendall_distance,
    kendall_tau_b,
    orders_agree,
    position_bias,
    reverse,
    stop_after,
    t_two_sided_p,
    top_agrees,
)
from prin_guard.errors import UsageError

LABELS = "ABCDEFGHIJKL"


@st.composite
def weak_orders(draw: st.DrawFn, labels: str) -> Ranking:
    """A random ranking of ``labels``, ties allowed."""
    order = draw(st.permutations(list(labels)))
    cuts = draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
    tiers: list[tuple[str, ...]] = []
    for label, new in zip(order, cuts, strict=True):
        if new or not tiers:
            tiers.append((label,))
        else:
            tiers[-1] = (*tiers[-1], label)
    return tuple(tiers)


@st.composite
def ranking_pairs(draw: st.DrawFn, most: int = 7) -> tuple[Ranking, Ranking]:
    labels = LABELS[: draw(st.integers(1, most))]
    return draw(weak_orders(labels)), draw(weak_orders(labels))


def _all_weak_orders(labels: tuple[str, ...]) -> list[Ranking]:
    if not labels:
        return [()]
    out: list[Ranking] = []
    for size in range(1, len(labels) + 1):
        for first in itertools.combinations(labels, size):
            rest = tuple(label for label in labels if label not in first)
            out.extend((first, *tail) for tail in _all_weak_orders(rest))
    return out


def _same(first: Ranking, second: Ranking) -> bool:
    return [set(tier) for tier in first] == [set(tier) for tier in second]


# --------------------------------------------------------------------------- agreement


@pytest.mark.filterwarnings("ignore:One or more sample arguments is too small")
@settings(deadline=None)
@given(ranking_pairs())
def test_tau_b_matches_scipy(pair: tuple[Ranking, Ranking]) -> None:
    stats = pytest.importorskip("scipy.stats")
    first, second = pair
    labels = sorted({label for tier in first for label in tier})
    places_a = {label: n for n, tier in enumerate(first) for label in tier}
    places_b = {label: n for n, tier in enumerate(second) for label in tier}
    ours = kendall_tau_b(first, second)
    theirs = stats.kendalltau([places_a[x] for x in labels], [places_b[x] for x in labels])[0]
    if ours is None:
        assert len(labels) < 2 or math.isnan(theirs)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


@given(ranking_pairs())
def test_distance_is_a_bounded_symmetric_score_zero_only_for_the_same_ranking(
    pair: tuple[Ranking, Ranking],
) -> None:
    first, second = pair
    d = kendall_distance(first, second)
    assert 0 <= d <= 1
    assert d == kendall_distance(second, first)
    assert (d == 0) == _same(first, second)
    assert kendall_distance(first, first) == 0


@given(st.integers(1, 6).flatmap(lambda n: st.tuples(*[weak_orders(LABELS[:n])] * 3)))
def test_distance_obeys_the_triangle_inequality(triple: tuple[Ranking, Ranking, Ranking]) -> None:
    a, b, c = triple
    assert kendall_distance(a, c) <= kendall_distance(a, b) + kendall_distance(b, c) + 1e-12


@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(st.permutations(LABELS[:n]), st.permutations(LABELS[:n]))
    )
)
def test_for_strict_rankings_tau_is_one_less_twice_the_distance(
    orders: tuple[list[str], list[str]],
) -> None:
    first, second = from_order(orders[0]), from_order(orders[1])
    tau = kendall_tau_b(first, second)
    assert tau is not None
    assert tau == pytest.approx(1 - 2 * kendall_distance(first, second))


@pytest.mark.parametrize(
    ("first", "second", "tau", "distance"),
    [
        pytest.param((("A",), ("B",), ("C",)), (("A",), ("B",), ("C",)), 1.0, 0.0, id="same"),
        pytest.param((("A",), ("B",), ("C",)), (("C",), ("B",), ("A",)), -1.0, 1.0, id="reversed"),
        pytest.param((("A",),), (("A",),), None, 0.0, id="one candidate"),
        pytest.param((("A", "B", "C"),), (("A", "B", "C"),), None, 0.0, id="all tied both"),
        pytest.param((("A", "B", "C"),), (("A",), ("B",), ("C",)), None, 0.5, id="all tied one"),
        pytest.param(
            (("A",), ("B", "C")), (("A",), ("B",), ("C",)), math.sqrt(2 / 3), 1 / 6, id="one tie"
        ),
    ],
)
def test_agreement_edge_cases(
    first: Ranking, second: Ranking, tau: float | None, distance: float
) -> None:
    got = kendall_tau_b(first, second)
    assert got == (None if tau is None else pytest.approx(tau))
    assert kendall_distance(first, second) == pytest.approx(distance)


@pytest.mark.parametrize(
    ("predicted", "reference", "agrees"),
    [
        pytest.param((("A",), ("B", "C")), (("A",), ("B",), ("C",)), True, id="same best"),
        pytest.param((("B",), ("A", "C")), (("A",), ("B",), ("C",)), False, id="other best"),
        pytest.param(
            (("A",), ("B",), ("C",)), (("A", "B"), ("C",)), True, id="one of the tied best"
        ),
        pytest.param((("A", "B"), ("C",)), (("A",), ("B",), ("C",)), False, id="ties a second"),
    ],
)
def test_top_agreement(predicted: Ranking, reference: Ranking, agrees: bool) -> None:
    assert top_agrees(predicted, reference) is agrees


def test_rankings_of_different_labels_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="only in the first: C"):
        kendall_tau_b((("A",), ("C",)), (("A",), ("B",)))


# --------------------------------------------------------------------------- consensus


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.lists(
            st.tuples(weak_orders(LABELS[:n]), st.sampled_from([0.5, 1.0, 2.0]), st.booleans()),
            min_size=1,
            max_size=4,
        )
    )
)
def test_kemeny_is_the_least_cost_weak_order(votes: list[tuple[Ranking, float, bool]]) -> None:
    ballot = [Vote(ranking, weight, worst_first) for ranking, weight, worst_first in votes]
    found = kemeny(ballot)
    labels = tuple(sorted({label for tier in votes[0][0] for label in tier}))
    best = min(kemeny_cost(ballot, candidate) for candidate in _all_weak_orders(labels))
    assert found.cost == pytest.approx(best)
    assert found.cost == pytest.approx(kemeny_cost(ballot, found.ranking))
    assert found.cost <= borda_local_search(ballot).cost + 1e-9


def test_a_reverse_leg_joins_reversed() -> None:
    direct = (("B",), ("A",), ("C",))
    votes = [Vote(direct), Vote(reverse(direct), worst_first=True)]
    assert consensus(votes).ranking == direct
    assert consensus(votes).distance == 0


def test_legs_split_evenly_on_a_pair_leave_it_tied() -> None:
    votes = [Vote((("A",), ("B",), ("C",))), Vote((("C",), ("A",), ("B",)), worst_first=True)]
    # the reverse leg read best first is B > A > C: the legs disagree on A and B only
    assert _same(consensus(votes).ranking, (("A", "B"), ("C",)))


def test_weights_decide_between_legs() -> None:
    votes = [Vote((("A",), ("B",)), weight=2.0), Vote((("B",), ("A",)))]
    assert consensus(votes).ranking == (("A",), ("B",))


def test_a_condorcet_cycle_gets_a_strict_consensus_of_cost_four() -> None:
    votes = [Vote(from_order(order)) for order in ("ABC", "BCA", "CAB")]
    found = consensus(votes)
    assert all(len(tier) == 1 for tier in found.ranking)
    assert found.cost == pytest.approx(4)


def test_above_eight_labels_the_search_is_borda_with_local_search() -> None:
    order = from_order(LABELS[:10])
    rng = random.Random(0)
    noisy = []
    for _ in range(4):
        labels = list(LABELS[:10])
        i = rng.randrange(9)
        labels[i], labels[i + 1] = labels[i + 1], labels[i]
        noisy.append(Vote(from_order(labels)))
    found = consensus([Vote(order), Vote(order), *noisy])
    assert found.method == "borda-local-search"
    assert found.ranking == order
    assert consensus([Vote(from_order("ABCD"))], exact_max=3).method == "borda-local-search"


def _neighbours(ranking: Ranking) -> list[Ranking]:
    """Every ranking one local-search move away (written apart from the search)."""
    tiers = [list(tier) for tier in ranking]
    out: list[Ranking] = []
    for k in range(len(tiers) - 1):
        swapped = [*tiers[:k], tiers[k + 1], tiers[k], *tiers[k + 2 :]]
        out.append(tuple(tuple(t) for t in swapped))
    for k, tier in enumerate(tiers):
        for label in tier:
            rest = [
                [x for x in t if x != label] if i == k else list(t) for i, t in enumerate(tiers)
            ]
            for target in (k - 1, k + 1):
                if 0 <= target < len(tiers):
                    moved = [list(t) for t in rest]
                    moved[target].append(label)
                    out.append(tuple(tuple(t) for t in moved if t))
            if len(tier) > 1:
                for at in (k, k + 1):
                    moved = [list(t) for t in rest]
                    moved.insert(at, [label])
                    out.append(tuple(tuple(t) for t in moved if t))
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 9).flatmap(lambda n: st.lists(weak_orders(LABELS[:n]), min_size=1, max_size=5))
)
def test_the_local_search_stops_where_no_move_improves(rankings: list[Ranking]) -> None:
    votes = [Vote(ranking) for ranking in rankings]
    found = borda_local_search(votes)
    for neighbour in _neighbours(found.ranking):
        assert kemeny_cost(votes, neighbour) >= found.cost - 1e-9


@pytest.mark.parametrize(
    ("votes", "match"),
    [
        pytest.param([], "at least one vote", id="none"),
        pytest.param(
            [Vote((("A",), ("B",))), Vote((("A",), ("C",)))], "votes.1.ranking", id="labels"
        ),
        pytest.param([Vote((("A",), ("A",)))], "two places", id="repeated"),
        pytest.param([Vote((("A",), ("B",)), weight=0.0)], "votes.0.weight", id="weight"),
        pytest.param([Vote((("A",), ()))], "at least one label", id="empty tier"),
    ],
)
def test_bad_votes_are_usage_errors(votes: list[Vote], match: str) -> None:
    with pytest.raises(UsageError, match=match):
        consensus(votes)


# --------------------------------------------------------------------------- orders


@given(st.integers(1, 9), st.integers(1, 30))
def test_balanced_orders_put_each_response_in_each_position_about_equally(n: int, k: int) -> None:
    orders = balanced_orders(n, k)
    assert len(orders) == k
    assert orders[0] == tuple(range(n))
    assert all(sorted(order) == list(range(n)) for order in orders)
    # the Latin square, and for odd n its mirror, are each balanced on their own
    block = n if n % 2 == 0 else 2 * n
    for start in range(0, k, block):
        rows = orders[start : start + block]
        for half in (rows[:n], rows[n:]):
            for response in range(n):
                counts = [sum(order[p] == response for order in half) for p in range(n)]
                assert max(counts, default=0) <= 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_a_full_design_shows_every_response_after_every_other_equally(n: int) -> None:
    block = n if n % 2 == 0 else 2 * n
    follows = {}
    for order in balanced_orders(n, block):
        for a, b in itertools.pairwise(order):
            follows[a, b] = follows.get((a, b), 0) + 1
    assert set(follows.values()) == {block // n}
    assert len(follows) == n * (n - 1)


def _passes(judge: str, n: int, k: int) -> tuple[list[list[str]], list[Ranking]]:
    quality = list(LABELS[:n])  # A best
    shown, rankings = [], []
    for order in balanced_orders(n, k):
        labels = [LABELS[i] for i in order]
        shown.append(labels)
        if judge == "primacy":
            rankings.append(from_order(labels))
        elif judge == "recency":
            rankings.append(from_order(reversed(labels)))
        else:
            rankings.append(from_order(quality))
    return shown, rankings


@pytest.mark.parametrize(
    ("judge", "flagged", "sign"),
    [
        pytest.param("primacy", True, 1, id="ranks the order shown"),
        pytest.param("recency", True, -1, id="ranks the order shown reversed"),
        pytest.param("steady", False, 0, id="ranks by quality"),
    ],
)
def test_position_bias_flags_a_judge_that_follows_the_order(
    judge: str, flagged: bool, sign: int
) -> None:
    bias = position_bias(*_passes(judge, 4, 4))
    assert bias.flagged is flagged
    if sign:
        assert bias.correlation == pytest.approx(sign)
    else:
        assert bias.correlation is None


def test_position_bias_needs_evidence_beyond_a_weak_correlation() -> None:
    # the same ranking every time but one swap that follows the shown order
    shown = [["A", "B", "C"], ["C", "A", "B"]]
    rankings = [from_order("ABC"), from_order("ACB")]
    bias = position_bias(shown, rankings)
    assert bias.correlation == pytest.approx(math.sqrt(3) / 2)
    assert bias.p_value == pytest.approx(0.134, abs=1e-3)  # t 2.45 on 2 degrees of freedom
    assert not bias.flagged


@settings(deadline=None)
@given(st.floats(-50, 50), st.integers(1, 60))
def test_t_p_values_match_scipy(t: float, df: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    if abs(t) < 1e-6:  # scipy's sf rounds to 0.5 there (t = 1e-10, df = 1: 1.0, not 1 - 6.4e-11)
        mpmath = pytest.importorskip("mpmath")
        with mpmath.workdps(50):  # P(|T| >= t) = I_{df / (df + t^2)}(df / 2, 1 / 2)
            x = mpmath.mpf(df) / (df + mpmath.mpf(t) ** 2)
            expected = float(mpmath.betainc(df / 2, 0.5, 0, x, regularized=True))
    else:
        expected = 2 * stats.t.sf(abs(t), df)
    assert t_two_sided_p(t, df) == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize(("t", "df"), [(1e-10, 1), (2.4e-9, 1), (2.4e-9, 7), (-3e-7, 60)])
def test_t_p_values_near_zero_are_exact(t: float, df: int) -> None:
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(50):
        x = mpmath.mpf(df) / (df + mpmath.mpf(t) ** 2)
        expected = float(mpmath.betainc(df / 2, 0.5, 0, x, regularized=True))
    assert t_two_sided_p(t, df) == pytest.approx(expected, abs=1e-14)


@pytest.mark.parametrize(
    ("rankings", "stop"),
    [
        pytest.param(["ABC", "ABC"], 2, id="first two agree"),
        pytest.param(["ABC", "BAC", "ABC"], 3, id="third agrees with first"),
        pytest.param(["ABC", "BAC", "CAB"], None, id="never"),
        pytest.param(["ABCDE", "ABCED"], 2, id="one swap of five is tau 0.8"),
        pytest.param(["ABCD", "ABDC", "BACD"], None, id="one swap of four is below"),
    ],
)
def test_adaptive_stopping(rankings: list[str], stop: int | None) -> None:
    assert stop_after([from_order(r) for r in rankings]) == stop


def test_rankings_that_tie_everything_agree_only_when_the_same() -> None:
    tied: Ranking = (("A", "B", "C"),)
    assert orders_agree([tied, (("C", "B", "A"),)]) == (0, 1)
    assert orders_agree([tied, from_order("ABC")]) is None


# --------------------------------------------------------------------------- tournaments


def _outcomes(seed: int, n: int, games: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    out = []
    for a, b in itertools.combinations(LABELS[:n], 2):
        for _ in range(games):
            out.append((a, b, rng.choice([0.0, 0.5, 1.0, 1.0])))
    return out


@given(st.integers(3, 8), st.integers(0, 10_000))
def test_cycles_match_the_count_from_scores_in_a_complete_tournament(n: int, seed: int) -> None:
    rng = random.Random(seed)
    outcomes = [(a, b, float(rng.random() < 0.5)) for a, b in itertools.combinations(LABELS[:n], 2)]
    found = intransitive_triples(outcomes)
    wins = dict.fromkeys(LABELS[:n], 0)
    for a, b, score in outcomes:
        wins[a if score == 1 else b] += 1
    expected = math.comb(n, 3) - sum(math.comb(w, 2) for w in wins.values())
    assert len(found.cycles) == expected
    assert found.decided == found.triples == math.comb(n, 3)


def test_a_drawn_pair_is_no_cycle_and_is_counted_apart() -> None:
    found = intransitive_triples([("A", "B", 1), ("B", "C", 1), ("C", "A", 0.5)])
    assert found.cycles == () and found.drawn == 1 and found.rate is None
    cycle = intransitive_triples([("B", "A", 1), ("C", "B", 1), ("A", "C", 1)])
    assert cycle.cycles == (("A", "C", "B"),) and cycle.rate == 1


@settings(deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.sampled_from([0.0, 0.5, 2.0]))
def test_bradley_terry_solves_the_likelihood_equations(n: int, seed: int, prior: float) -> None:
    outcomes = _outcomes(seed, n, 3)
    try:
        fit = bradley_terry(outcomes, prior=prior)
    except UsageError:
        assert prior == 0
        return
    assert fit.converged
    assert sum(fit.strength.values()) == pytest.approx(0, abs=1e-9)
    p = {label: math.exp(value) for label, value in fit.strength.items()}
    wins = dict.fromkeys(p, 0.0)
    expected = dict.fromkeys(p, 0.0)
    pairs = {}
    for a, b, score in outcomes:
        wins[a] += score
        wins[b] += 1 - score
        pairs[tuple(sorted((a, b)))] = pairs.get(tuple(sorted((a, b))), 0) + 1
    for (a, b), count in pairs.items():
        wins[a] += prior / 2
        wins[b] += prior / 2
        expected[a] += (count + prior) * p[a] / (p[a] + p[b])
        expected[b] += (count + prior) * p[b] / (p[a] + p[b])
    for label in p:
        assert expected[label] == pytest.approx(wins[label], rel=1e-6, abs=1e-6)


def test_bradley_terry_two_players_in_closed_form() -> None:
    fit = bradley_terry([("A", "B", 1), ("A", "B", 1), ("B", "A", 1), ("B", "A", 0)], prior=0)
    assert fit.strength["A"] - fit.strength["B"] == pytest.approx(math.log(3))
    # Fisher information of the difference 4 * 3/16; each centred half has a quarter of it
    assert fit.stderr["A"] == pytest.approx(math.sqrt(1 / 3))
    assert fit.upper["A"] - fit.strength["A"] == pytest.approx(1.959964 * math.sqrt(1 / 3))
    assert fit.ranking == (("A",), ("B",))


def test_bradley_terry_intervals_halve_with_four_times_the_games() -> None:
    few = bradley_terry(_outcomes(1, 4, 4), prior=0)
    many = bradley_terry(_outcomes(1, 4, 4) * 4, prior=0)
    for label in few.stderr:
        assert many.strength[label] == pytest.approx(few.strength[label], abs=1e-6)
        assert many.stderr[label] == pytest.approx(few.stderr[label] / 2, rel=1e-6)


@pytest.mark.parametrize(
    ("outcomes", "prior", "match"),
    [
        pytest.param(
            [("A", "B", 1), ("A", "C", 1), ("B", "C", 0.5)], 0.0, "prior", id="undefeated"
        ),
        pytest.param([("A", "B", 1), ("C", "D", 0)], 0.5, "never compared", id="two pieces"),
        pytest.param([("A", "A", 1)], 0.5, "against itself", id="self"),
        pytest.param([("A", "B", 2)], 0.5, "score 2", id="score"),
    ],
)
def test_bradley_terry_bad_tournaments(
    outcomes: list[tuple[str, str, float]], prior: float, match: str
) -> None:
    with pytest.raises(UsageError, match=match):
        bradley_terry(outcomes, prior=prior)


def test_an_undefeated_response_gets_a_finite_strength_with_the_prior() -> None:
    fit = bradley_terry([("A", "B", 1), ("A", "C", 1), ("B", "C", 1)])
    assert fit.ranking == (("A",), ("B",), ("C",))
    assert all(math.isfinite(value) for value in fit.upper.values())


def test_from_ranks_ties_equal_ranks() -> None:
    assert from_ranks({"A": 2, "B": 1, "C": 2}) == (("B",), ("A", "C"))
    assert from_ranks({"A": 4.5, "B": 5.0}, higher_is_better=True) == (("B",), ("A",))


def test_local_search_is_close_to_the_exact_consensus_on_noisy_votes() -> None:
    """The figure in _consensus's docstring: 600 random ballots of 6 to 8 labels (2 to 7
    votes, each the true order with random adjacent swaps, a third of them shuffled)."""
    rng = random.Random(0)
    reached, gaps = 0, []
    for n in (6, 7, 8):
        for _ in range(200):
            votes = []
            for _ in range(rng.choice([2, 3, 5, 7])):
                order = list(LABELS[:n])
                if rng.random() < 0.3:
                    rng.shuffle(order)
                for _ in range(rng.randrange(n)):
                    i = rng.randrange(n - 1)
                    order[i], order[i + 1] = order[i + 1], order[i]
                votes.append(Vote(from_order(order)))
            exact, local = kemeny(votes), borda_local_search(votes)
            reached += local.cost <= exact.cost + 1e-9
            gaps.append((local.cost - exact.cost) / exact.cost if exact.cost else 0.0)
    assert reached >= 580  # 583 of 600 when written
    assert sum(gaps) / len(gaps) < 0.002  # 0.0010 when written
