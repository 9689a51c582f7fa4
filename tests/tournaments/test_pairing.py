"""The pure tournament library: round robin, Swiss at two and more seats, knockout, standings.

Checked against brute force where the fields are small enough to enumerate. No Django.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import (
    Bye,
    EntrantId,
    Result,
    Round,
    Table,
    bracket_order,
    bracket_slots,
    knockout_bracket,
    knockout_next_round,
    knockout_winner,
    max_weight_matching,
    placement_points,
    round_robin_rounds,
    swiss_round,
)
from games.tournaments.standings import standings

PROPERTY = settings(max_examples=100, deadline=None)


# --- helpers --------------------------------------------------------------------------------


def places_for(totals: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking of totals: equal totals share a place (1, 1, 3)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def play(table: Table, rng: random.Random, top: int = 3) -> Result:
    totals = tuple(rng.randint(0, top) for _ in table.entrants)
    return Result(table.entrants, places_for(totals), totals)


def decisive(table: Table, winner: EntrantId) -> Result:
    totals = tuple(300 if e == winner else 200 for e in table.entrants)
    return Result(table.entrants, places_for(totals), totals)


def seated(round_: Round) -> list[EntrantId]:
    return [e for table in round_.tables for e in table.entrants] + [b.entrant for b in round_.byes]


def meetings_of(history: Sequence[Round]) -> Counter[frozenset[EntrantId]]:
    met: Counter[frozenset[EntrantId]] = Counter()
    for round_ in history:
        for table in round_.tables:
            met.update(frozenset(pair) for pair in combinations(table.entrants, 2))
    return met


def repeats(round_: Round, met: Counter[frozenset[EntrantId]]) -> int:
    return sum(
        met[frozenset(pair)] for table in round_.tables for pair in combinations(table.entrants, 2)
    )


def reference_points(history: Sequence[Round], results: Sequence[Result]) -> dict[int, Fraction]:
    """Two-seat points computed independently: win 1, draw 1/2, loss 0, bye 1."""
    points: dict[int, Fraction] = {}
    for result in results:
        (a, b), (place_a, place_b) = result.entrants, result.places
        for e in (a, b):
            points.setdefault(e, Fraction(0))
        if place_a == place_b:
            points[a] += Fraction(1, 2)
            points[b] += Fraction(1, 2)
        else:
            points[a if place_a < place_b else b] += 1
    for round_ in history:
        for bye in round_.byes:
            points[bye.entrant] = points.get(bye.entrant, Fraction(0)) + 1
    return points


def ranking(
    entrants: Sequence[EntrantId], points: Mapping[int, Fraction], ratings: Mapping[int, float]
) -> list[EntrantId]:
    index = {e: i for i, e in enumerate(entrants)}
    return sorted(
        entrants,
        key=lambda e: (-points.get(e, Fraction(0)), -ratings.get(e, float("-inf")), index[e]),
    )


def best_pairing(
    pool: Sequence[EntrantId], cost: dict[frozenset[EntrantId], tuple[int, int]]
) -> tuple[int, int]:
    """Lexicographically least summed (repeats, cross-group) cost of a perfect matching (DP)."""
    items = list(pool)

    @cache
    def best(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        options = []
        others = rest
        while others:
            j = (others & -others).bit_length() - 1
            others &= others - 1
            r, c = cost[frozenset((items[first], items[j]))]
            sub = best(rest & ~(1 << j))
            options.append((r + sub[0], c + sub[1]))
        return min(options)

    return best((1 << len(items)) - 1)


# --- placement points -----------------------------------------------------------------------


def fractions(*values: int | Fraction) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def test_placement_points() -> None:
    half, third, quarter = Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)
    assert placement_points((1, 2)) == fractions(1, 0)
    assert placement_points((1, 1)) == fractions(half, half)
    assert placement_points((2, 1, 3)) == fractions(half, 1, 0)
    assert placement_points((1, 2, 3, 4)) == fractions(1, 2 * third, third, 0)
    shared = fractions(3 * quarter, 3 * quarter, 0)
    assert placement_points((1, 1, 3)) == placement_points((1, 1, 2)) == shared
    assert placement_points((1, 2, 2)) == fractions(1, quarter, quarter)
    with pytest.raises(ValueError, match="two seats"):
        placement_points((1,))


@PROPERTY
@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_placement_points_sum_and_order(places: list[int]) -> None:
    points = placement_points(places)
    assert sum(points) == Fraction(len(places), 2)
    assert all(0 <= p <= 1 for p in points)
    for i, j in combinations(range(len(places)), 2):
        assert (points[i] > points[j]) == (places[i] < places[j])
        assert (points[i] == points[j]) == (places[i] == places[j])


def test_result_validation() -> None:
    with pytest.raises(ValueError, match="same length"):
        Result((1, 2), (1,), (3, 4))
    with pytest.raises(ValueError, match="distinct"):
        Result((1, 1), (1, 2), (3, 4))
    assert Result([1, 2], [1, 2], [5, 3]).entrants == (1, 2)  # type: ignore[arg-type]


# --- round robin ----------------------------------------------------------------------------


def check_round_robin(ids: list[EntrantId]) -> None:
    n = len(ids)
    rounds = round_robin_rounds(ids)
    assert [r.number for r in rounds] == list(range(1, (n if n % 2 else n - 1) + 1))
    pairs: Counter[frozenset[EntrantId]] = Counter()
    byes: Counter[EntrantId] = Counter()
    first: Counter[EntrantId] = Counter()
    sequence: dict[EntrantId, list[int]] = {e: [] for e in ids}
    for round_ in rounds:
        assert sorted(seated(round_)) == sorted(ids)
        assert len(round_.byes) == n % 2
        for table in round_.tables:
            assert len(table.entrants) == 2
            pairs[frozenset(table.entrants)] += 1
            first[table.entrants[0]] += 1
            sequence[table.entrants[0]].append(0)
            sequence[table.entrants[1]].append(1)
        byes.update(b.entrant for b in round_.byes)
    assert pairs == Counter(frozenset(p) for p in combinations(ids, 2))
    assert byes == (Counter(ids) if n % 2 else Counter())
    games = n - 1
    for e in ids:
        assert abs(2 * first[e] - games) <= 1, (e, first[e], games)
        seats = sequence[e]
        assert all(seats[i : i + 3] not in ([0, 0, 0], [1, 1, 1]) for i in range(len(seats)))
    assert round_robin_rounds(ids) == rounds  # deterministic


@pytest.mark.parametrize("n", range(2, 11))
def test_round_robin(n: int) -> None:
    check_round_robin([100 + 7 * i for i in range(n)])


@PROPERTY
@given(st.lists(st.integers(-1000, 1000), min_size=2, max_size=16, unique=True))
def test_round_robin_any_ids(ids: list[int]) -> None:
    check_round_robin(ids)


def test_round_robin_small_and_invalid() -> None:
    assert round_robin_rounds([]) == []
    assert round_robin_rounds([5]) == []
    assert round_robin_rounds([1, 2]) == [Round(1, (Table((1, 2)),), ())]
    with pytest.raises(ValueError, match="distinct"):
        round_robin_rounds([1, 2, 1])


# --- Swiss, two seats -----------------------------------------------------------------------


def test_swiss_first_round_top_half_meets_bottom_half() -> None:
    ids = list(range(1, 9))
    ratings = {e: 2000.0 - 10 * e for e in ids}
    first = swiss_round(ids[::-1], [], [], 1, ratings=ratings)
    assert first.number == 1
    assert first.byes == ()
    assert [t.entrants for t in first.tables] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_swiss_first_round_odd_gives_the_lowest_rated_the_bye() -> None:
    ids = list(range(1, 8))
    ratings = {e: 2000.0 - 10 * e for e in ids}
    first = swiss_round(ids, [], [], 1, ratings=ratings)
    assert first.byes == (Bye(7),)
    assert [t.entrants for t in first.tables] == [(1, 4), (2, 5), (3, 6)]


def test_swiss_without_ratings_ranks_by_entry_order() -> None:
    first = swiss_round([4, 3, 2, 1], [], [], 1)
    assert [t.entrants for t in first.tables] == [(4, 2), (3, 1)]


def test_swiss_second_round_pairs_within_score_groups() -> None:
    ids = list(range(1, 9))
    ratings = {e: 2000.0 - 10 * e for e in ids}
    first = swiss_round(ids, [], [], 1, ratings=ratings)
    results = [decisive(t, t.entrants[0]) for t in first.tables]  # 1-4 win
    second = swiss_round(ids, [first], results, 2, ratings=ratings)
    assert [t.entrants for t in second.tables] == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_swiss_odd_group_floats_its_lowest_to_the_top_of_the_next() -> None:
    ids = list(range(1, 7))
    ratings = {e: 2000.0 - 10 * e for e in ids}
    first = swiss_round(ids, [], [], 1, ratings=ratings)  # 1-4, 2-5, 3-6
    results = [
        decisive(first.tables[0], 1),
        decisive(first.tables[1], 2),
        decisive(first.tables[2], 3),
    ]
    second = swiss_round(ids, [first], results, 2, ratings=ratings)
    # Winners 1, 2, 3 (3 floats down), losers 4, 5, 6 (4 is the highest).
    assert {frozenset(t.entrants) for t in second.tables} == {
        frozenset({1, 2}),
        frozenset({3, 4}),
        frozenset({5, 6}),
    }


def test_swiss_bye_skips_an_entrant_who_had_one() -> None:
    ids = [1, 2, 3, 4, 5]
    ratings = {e: 2000.0 - 10 * e for e in ids}
    first = swiss_round(ids, [], [], 1, ratings=ratings)
    assert first.byes == (Bye(5),)
    results = [decisive(t, t.entrants[0]) for t in first.tables]  # 1, 2 win; 5 has the bye
    second = swiss_round(ids, [first], results, 2, ratings=ratings)
    assert second.byes[0].entrant != 5
    assert second.byes == (Bye(4),)  # 3 and 4 have 0 points: 4 is rated lower


def test_swiss_everyone_had_a_bye_then_fewest_byes() -> None:
    ids = [1, 2, 3]
    history: list[Round] = []
    results: list[Result] = []
    rng = random.Random(3)
    for number in range(1, 8):
        round_ = swiss_round(ids, history, results, number)
        before = Counter(b.entrant for r in history for b in r.byes)
        assert before[round_.byes[0].entrant] == min(before[e] for e in ids)
        history.append(round_)
        results += [play(t, rng) for t in round_.tables]
    assert sorted(Counter(b.entrant for r in history for b in r.byes).values()) == [2, 2, 3]


def test_swiss_small_and_invalid_fields() -> None:
    assert swiss_round([], [], [], 1) == Round(1, (), ())
    assert swiss_round([9], [], [], 3) == Round(3, (), (Bye(9),))
    assert swiss_round([9], [], [], 3, table_size=4) == Round(3, (), (Bye(9),))
    with pytest.raises(ValueError, match="table_size"):
        swiss_round([1, 2], [], [], 1, table_size=7)
    with pytest.raises(ValueError, match="table_size"):
        swiss_round([1, 2], [], [], 1, table_size=1)
    with pytest.raises(ValueError, match="distinct"):
        swiss_round([1, 2, 2], [], [], 1)


def check_swiss_round(
    ids: list[EntrantId],
    history: list[Round],
    results: list[Result],
    round_: Round,
    ratings: Mapping[int, float],
) -> None:
    """The invariants of one two-seat round, with brute force for fields up to 12."""
    assert sorted(seated(round_)) == sorted(ids)
    assert all(len(t.entrants) == 2 for t in round_.tables)
    assert len(round_.byes) == len(ids) % 2
    points = reference_points(history, results)
    order = ranking(ids, points, ratings)
    rank = {e: i for i, e in enumerate(order)}
    # Tables in ranking order: top board first.
    tops = [min(rank[e] for e in t.entrants) for t in round_.tables]
    assert tops == sorted(tops)
    met = meetings_of(history)
    before = Counter(b.entrant for r in history for b in r.byes)
    if round_.byes:
        bye = round_.byes[0].entrant
        assert before[bye] == min(before[e] for e in ids)  # no second bye while avoidable
    if len(ids) > 12:
        if len(history) < len(ids) // 2 - 1:  # Dirac: a repeat-free pairing exists
            assert repeats(round_, met) == 0
        return

    def cost_table(pool: Sequence[EntrantId]) -> dict[frozenset[EntrantId], tuple[int, int]]:
        return {
            frozenset((a, b)): (met[frozenset((a, b))], int(points.get(a) != points.get(b)))
            for a, b in combinations(pool, 2)
        }

    pool = [e for e in order if e not in {b.entrant for b in round_.byes}]
    ours = (
        repeats(round_, met),
        sum(points.get(t.entrants[0]) != points.get(t.entrants[1]) for t in round_.tables),
    )
    assert ours == best_pairing(pool, cost_table(pool))  # fewest repeats, then fewest floaters
    if round_.byes:  # the lowest-ranked eligible entrant that allows the fewest repeats
        fewest = min(before[e] for e in ids)
        eligible = [e for e in order if before[e] == fewest]
        need = {
            e: best_pairing(rest, cost_table(rest))[0]
            for e in eligible
            for rest in [[p for p in order if p != e]]
        }
        least = min(need.values())
        assert bye == [e for e in eligible if need[e] == least][-1]
        assert ours[0] == least


def run_swiss(n: int, rounds: int, seed: int, rated: bool) -> None:
    rng = random.Random(seed)
    ids = rng.sample(range(1, 1000), n)
    ratings = {e: float(rng.randint(1200, 1800)) for e in ids} if rated else {}
    history: list[Round] = []
    results: list[Result] = []
    for number in range(1, rounds + 1):
        round_ = swiss_round(ids, history, results, number, ratings=ratings or None)
        assert round_.number == number
        assert swiss_round(ids, history, results, number, ratings=ratings or None) == round_
        check_swiss_round(ids, history, results, round_, ratings)
        history.append(round_)
        results += [play(t, rng, top=rng.choice([1, 3])) for t in round_.tables]


@pytest.mark.parametrize("n", range(5, 17))
def test_swiss_simulated(n: int) -> None:
    run_swiss(n, min(n, 8), seed=n, rated=n % 3 != 0)


@PROPERTY
@given(st.integers(5, 12), st.integers(0, 2**32 - 1), st.booleans())
def test_swiss_simulated_property(n: int, seed: int, rated: bool) -> None:
    run_swiss(n, random.Random(seed).randint(2, n), seed, rated)


@PROPERTY
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 50)),
            max_size=30,
        ).map(lambda edges: (n, edges))
    )
)
def test_weighted_matching_against_brute_force(
    graph: tuple[int, list[tuple[int, int, int]]],
) -> None:
    n, raw = graph
    weights: dict[frozenset[int], int] = {}
    for a, b, w in raw:
        if a != b:
            weights[frozenset((a, b))] = w
    edges = [(min(k), max(k), w) for k, w in weights.items()]
    mate = max_weight_matching(n, edges)
    assert all(mate[m] == v for v, m in enumerate(mate) if m != -1)
    chosen = {frozenset((v, m)) for v, m in enumerate(mate) if m != -1}
    assert chosen <= set(weights)

    @cache
    def best(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        options = [best(rest)]
        for j in range(n):
            if rest >> j & 1 and frozenset((first, j)) in weights:
                size, total = best(rest & ~(1 << j))
                options.append((size + 1, total + weights[frozenset((first, j))]))
        return max(options)

    assert (len(chosen), sum(weights[k] for k in chosen)) == best((1 << n) - 1)


# --- Swiss, three to six seats --------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "size", "tables"),
    [
        (9, 4, [3, 3, 3]),
        (10, 4, [4, 3, 3]),
        (11, 4, [4, 4, 3]),
        (12, 4, [4, 4, 4]),
        (13, 4, [4, 3, 3, 3]),
        (2, 4, [2]),
        (4, 3, [2, 2]),
        (5, 3, [3, 2]),
        (6, 6, [6]),
        (7, 6, [4, 3]),
        (8, 6, [4, 4]),
        (31, 6, [6, 5, 5, 5, 5, 5]),
        (25, 5, [5, 5, 5, 5, 5]),
    ],
)
def test_multi_seat_table_sizes(n: int, size: int, tables: list[int]) -> None:
    round_ = swiss_round(list(range(n)), [], [], 1, table_size=size)
    assert [len(t.entrants) for t in round_.tables] == tables
    assert round_.byes == ()
    assert sorted(seated(round_)) == list(range(n))


def test_multi_seat_first_round_groups_by_standing() -> None:
    ids = list(range(1, 12))
    ratings = {e: 2000.0 - e for e in ids}
    first = swiss_round(ids[::-1], [], [], 1, table_size=4, ratings=ratings)
    assert [t.entrants for t in first.tables] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11)]


def repeat_free_plan_exists(
    ids: Sequence[EntrantId], sizes: Sequence[int], met: Counter[frozenset[EntrantId]]
) -> bool:
    """Exhaustive search over every split of ``ids`` into tables of ``sizes``."""

    def fits(e: EntrantId, group: Sequence[EntrantId]) -> bool:
        return all(not met[frozenset((e, g))] for g in group)

    def split(rest: tuple[EntrantId, ...], left: tuple[int, ...]) -> bool:
        if not rest:
            return True
        head, others = rest[0], rest[1:]
        for size in set(left):
            remaining = list(left)
            remaining.remove(size)
            for mates in combinations(others, size - 1):
                group = (head, *mates)
                if all(fits(e, group[:i]) for i, e in enumerate(group)):
                    leftover = tuple(e for e in others if e not in mates)
                    if split(leftover, tuple(remaining)):
                        return True
        return False

    return split(tuple(ids), tuple(sizes))


@pytest.mark.parametrize("n", range(9, 14))
def test_multi_seat_swiss_four_seats(n: int) -> None:
    rng = random.Random(n)
    ids = rng.sample(range(1, 100), n)
    ratings = {e: float(rng.randint(1200, 1800)) for e in ids}
    expected = {9: [3, 3, 3], 10: [4, 3, 3], 11: [4, 4, 3], 12: [4, 4, 4], 13: [4, 3, 3, 3]}[n]
    history: list[Round] = []
    results: list[Result] = []
    avoided = 0
    for number in range(1, 7):
        round_ = swiss_round(ids, history, results, number, table_size=4, ratings=ratings)
        assert round_ == swiss_round(ids, history, results, number, table_size=4, ratings=ratings)
        assert round_.byes == ()
        assert sorted(seated(round_)) == sorted(ids)
        assert sorted((len(t.entrants) for t in round_.tables), reverse=True) == expected
        met = meetings_of(history)
        if repeat_free_plan_exists(ids, expected, met):
            assert repeats(round_, met) == 0
            avoided += 1
        history.append(round_)
        results += [play(t, rng) for t in round_.tables]
    assert avoided >= 1
    # Multi-seat points: every table hands out n/2 points in all.
    table = standings(ids, history, results, format="swiss")
    assert sum(s.points for s in table) == pytest.approx(
        sum(len(t.entrants) / 2 for r in history for t in r.tables)
    )


@PROPERTY
@given(st.integers(3, 6), st.integers(3, 30), st.integers(0, 2**32 - 1))
def test_multi_seat_swiss_property(size: int, n: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = list(range(n))
    history: list[Round] = []
    results: list[Result] = []
    for number in range(1, 5):
        round_ = swiss_round(ids, history, results, number, table_size=size)
        sizes = [len(t.entrants) for t in round_.tables]
        assert sorted(seated(round_)) == ids
        assert round_.byes == ()
        assert max(sizes) <= size
        assert min(sizes) >= 2
        assert max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-n // size)
        points = {s.entrant: s.points for s in standings(ids, history, results, format="swiss")}
        rank = {e: i for i, e in enumerate(sorted(ids, key=lambda e: (-points[e], e)))}
        tops = [min(rank[e] for e in t.entrants) for t in round_.tables]
        assert tops == sorted(tops)  # top board first
        history.append(round_)
        results += [play(t, rng) for t in round_.tables]


# --- knockout -------------------------------------------------------------------------------


def test_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    for bad in (0, 1, 3, 12):
        with pytest.raises(ValueError, match="power of two"):
            bracket_order(bad)


def test_knockout_sixteen_in_standard_order() -> None:
    ids = list(range(1, 17))
    ratings = {e: 2000.0 - e for e in ids}  # entrant e is seed e
    first = knockout_bracket(ids[::-1], ratings)
    assert first.number == 1
    assert first.byes == ()
    assert [t.entrants for t in first.tables] == [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ]


def test_knockout_five_byes_advancement_tie_and_champion() -> None:
    ids = [10, 20, 30, 40, 50]
    ratings = {10: 1900.0, 20: 1800.0, 30: 1700.0, 40: 1600.0, 50: 1500.0}
    first = knockout_bracket(ids, ratings)
    assert first.byes == (Bye(10), Bye(20), Bye(30))
    assert first.tables == (Table((40, 50)),)
    assert bracket_slots(first) == [Bye(10), Table((40, 50)), Bye(20), Bye(30)]

    tie = Result((40, 50), (1, 1), (250, 250))
    assert knockout_winner(tie) is None
    with pytest.raises(ValueError, match="no winner"):
        knockout_next_round(first, [tie], 2)
    with pytest.raises(ValueError, match="no winner"):
        knockout_next_round(first, [], 2)
    replay = Result((50, 40), (1, 2), (300, 120))  # seat order of a replay may differ
    assert knockout_winner(replay) == 50
    second = knockout_next_round(first, [tie, replay], 2)
    assert second == Round(2, (Table((10, 50)), Table((20, 30))), ())

    both = [tie, replay, decisive(second.tables[0], 10), decisive(second.tables[1], 30)]
    final = knockout_next_round(second, both, 3)
    assert final == Round(3, (Table((10, 30)),), ())
    assert knockout_next_round(final, [decisive(final.tables[0], 10)], 4) is None
    with pytest.raises(ValueError, match="conflicting"):
        knockout_next_round(
            final, [decisive(final.tables[0], 10), decisive(final.tables[0], 30)], 4
        )


def test_knockout_eleven_byes_in_seed_order_placed_in_the_bracket() -> None:
    ids = list(range(1, 12))
    ratings = {e: 2000.0 - e for e in ids}  # entrant e is seed e
    first = knockout_bracket(ids, ratings)
    assert first.byes == tuple(Bye(e) for e in (1, 2, 3, 4, 5))
    assert [t.entrants for t in first.tables] == [(8, 9), (7, 10), (6, 11)]
    assert bracket_slots(first) == [
        Bye(1),
        Table((8, 9)),
        Bye(4),
        Bye(5),
        Bye(2),
        Table((7, 10)),
        Bye(3),
        Table((6, 11)),
    ]
    results = [decisive(t, t.entrants[1]) for t in first.tables]  # 9, 10, 11 win
    second = knockout_next_round(first, results, 2)
    assert second is not None
    assert [t.entrants for t in second.tables] == [(1, 9), (4, 5), (2, 10), (3, 11)]


def test_knockout_winner_multi_seat_and_invalid() -> None:
    assert knockout_winner(Result((1, 2, 3), (2, 1, 3), (5, 9, 1))) == 2
    assert knockout_winner(Result((1, 2, 3), (1, 1, 3), (9, 9, 1))) is None
    with pytest.raises(ValueError, match="at least two"):
        knockout_bracket([1], {1: 1500.0})
    with pytest.raises(ValueError, match="two seats"):
        bracket_slots(Round(1, (Table((1, 2, 3)),), ()))
    with pytest.raises(ValueError, match="byes"):
        bracket_slots(Round(1, (Table((1, 2)),), (Bye(3), Bye(4))))


def run_knockout(ids: list[EntrantId], ratings: Mapping[int, float], rng: random.Random) -> None:
    n = len(ids)
    size = 1
    while size < n:
        size *= 2
    seeds = sorted(ids, key=lambda e: (-ratings.get(e, float("-inf")), ids.index(e)))
    seed = {e: i + 1 for i, e in enumerate(seeds)}
    round_ = knockout_bracket(ids, ratings)
    assert [b.entrant for b in round_.byes] == seeds[: size - n]  # the top seeds, in order
    assert len(round_.tables) == (n - (size - n)) // 2
    for table in round_.tables:
        high, low = table.entrants
        assert seed[high] + seed[low] == size + 1 and seed[high] < seed[low]
    history = [round_]
    results: list[Result] = []
    alive = set(ids)
    while True:
        for table in round_.tables:
            if rng.random() < 0.3:  # a tied game, replayed
                tied = Result(table.entrants, (1, 1), (100, 100))
                results.append(tied)
                with pytest.raises(ValueError, match="no winner"):
                    knockout_next_round(round_, results, round_.number + 1)
            winner = rng.choice(table.entrants)
            alive -= set(table.entrants) - {winner}
            results.append(decisive(table, winner))
        following = knockout_next_round(round_, results, round_.number + 1)
        if following is None:
            break
        assert following.byes == ()
        assert {e for t in following.tables for e in t.entrants} == alive
        round_ = following
        history.append(round_)
    assert len(alive) == 1
    assert len(history) == size.bit_length() - 1
    assert len(round_.tables) == 1
    (champion,) = alive
    final_standings = standings(ids, history, results, format="knockout")
    assert final_standings[0].entrant == champion
    assert [row.rank for row in final_standings] == list(range(1, n + 1))


@pytest.mark.parametrize("n", range(5, 17))
def test_knockout_simulated(n: int) -> None:
    rng = random.Random(n)
    ids = rng.sample(range(1, 1000), n)
    run_knockout(ids, {e: float(rng.randint(1000, 2000)) for e in ids}, rng)


@PROPERTY
@given(st.integers(2, 40), st.integers(0, 2**32 - 1))
def test_knockout_property(n: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = rng.sample(range(1, 10_000), n)
    ratings = {e: float(rng.randint(1400, 1600)) for e in ids if rng.random() < 0.9}
    run_knockout(ids, ratings, rng)


# --- standings ------------------------------------------------------------------------------


def game(a: EntrantId, b: EntrantId, score_a: int, score_b: int) -> Result:
    return Result((a, b), places_for((score_a, score_b)), (score_a, score_b))


def rows(table: list) -> list[tuple]:  # type: ignore[type-arg]
    return [(s.entrant, s.rank, s.points, s.buchholz, s.sonneborn_berger) for s in table]


def test_standings_buchholz_breaks_a_points_tie() -> None:
    a, b, c, d = 1, 2, 3, 4
    history = [
        Round(1, (Table((a, b)), Table((c, d))), ()),
        Round(2, (Table((a, c)), Table((b, d))), ()),
    ]
    results = [game(a, b, 200, 100), game(c, d, 150, 140), game(a, c, 90, 90), game(b, d, 80, 70)]
    table = standings([d, c, b, a], history, results, format="swiss")
    # A 1.5 (opponents B 1 + C 1.5), C 1.5 (D 0 + A 1.5), B 1, D 0.
    assert rows(table) == [
        (a, 1, 1.5, 2.5, 1.75),
        (c, 2, 1.5, 1.5, 0.75),
        (b, 3, 1.0, 1.5, 0.0),
        (d, 4, 0.0, 2.5, 0.0),
    ]
    row_a = table[0]
    assert (row_a.game_score, row_a.played, row_a.wins, row_a.draws, row_a.losses) == (
        290,
        2,
        1,
        1,
        0,
    )


def round_robin_example() -> tuple[list[Round], list[Result]]:
    a, b, c, d = 1, 2, 3, 4
    history = [
        Round(1, (Table((a, b)), Table((c, d))), ()),
        Round(2, (Table((a, c)), Table((b, d))), ()),
        Round(3, (Table((a, d)), Table((b, c))), ()),
    ]
    results = [
        game(a, b, 10, 5),
        game(c, d, 7, 7),
        game(a, c, 4, 9),
        game(b, d, 8, 6),
        game(a, d, 12, 1),
        game(b, c, 3, 3),
    ]
    return history, results


def test_standings_sonneborn_berger_breaks_points_and_buchholz_ties() -> None:
    history, results = round_robin_example()
    # Points: A 2, C 2, B 1.5, D 0.5. Buchholz A = C = 4. SB: A = B 1.5 + D 0.5 = 2;
    # C = A 2 + half of D 0.5 + half of B 1.5 = 3.
    for format in ("swiss", "round_robin"):
        table = standings([1, 2, 3, 4], history, results, format=format)
        assert rows(table) == [
            (3, 1, 2.0, 4.0, 3.0),
            (1, 2, 2.0, 4.0, 2.0),
            (2, 3, 1.5, 4.5, 1.5),
            (4, 4, 0.5, 5.5, 1.0),
        ]


def test_standings_game_score_then_shared_ranks() -> None:
    history = [Round(1, (Table((1, 2)), Table((3, 4))), ())]
    results = [game(1, 2, 250, 100), game(3, 4, 200, 100)]
    table = standings([1, 2, 3, 4], history, results, format="swiss")
    assert [(s.entrant, s.rank) for s in table] == [(1, 1), (3, 2), (2, 3), (4, 3)]
    results = [game(1, 2, 200, 100), game(3, 4, 200, 100)]
    table = standings([4, 3, 2, 1], history, results, format="swiss")
    assert [(s.entrant, s.rank) for s in table] == [(3, 1), (1, 1), (4, 3), (2, 3)]
    draw = standings([1, 2], [Round(1, (Table((1, 2)),), ())], [game(1, 2, 5, 5)], format="swiss")
    assert [(s.rank, s.points, s.draws) for s in draw] == [(1, 0.5, 1), (1, 0.5, 1)]


def test_standings_multi_seat() -> None:
    a, b, c, d = 1, 2, 3, 4
    history = [Round(1, (Table((a, b, c)),), (Bye(d),))]
    results = [Result((a, b, c), (1, 2, 3), (30, 20, 10)), Result((b, c, d), (1, 2, 2), (9, 5, 5))]
    table = standings([a, b, c, d], history, results, format="swiss")
    # A 1, B 1 + 1/2 = 1.5, C 0 + 1/4, D 1/4 + 1 (bye).
    assert [(s.entrant, s.rank, s.points) for s in table] == [
        (b, 1, 1.5),
        (d, 2, 1.25),
        (a, 3, 1.0),
        (c, 4, 0.25),
    ]
    by = {s.entrant: s for s in table}
    assert by[a].buchholz == 1.5 + 0.25  # B + C
    assert by[b].buchholz == (1 + 0.25) + (0.25 + 1.25)
    assert by[a].sonneborn_berger == 1.5 + 0.25  # ahead of both
    assert by[b].sonneborn_berger == 0.25 + 0.25 + 1.25  # behind A, ahead of C, C, D
    assert by[c].sonneborn_berger == 1.25 / 2  # level with D
    assert (by[d].played, by[d].byes, by[d].draws, by[d].losses) == (1, 1, 0, 1)


def test_standings_round_robin_bye_is_worth_nothing() -> None:
    rounds = round_robin_rounds([1, 2, 3])
    results = [game(t.entrants[0], t.entrants[1], 10, 5) for r in rounds for t in r.tables]
    rr = {s.entrant: s for s in standings([1, 2, 3], rounds, results, format="round_robin")}
    swiss = {s.entrant: s for s in standings([1, 2, 3], rounds, results, format="swiss")}
    for e in (1, 2, 3):
        assert rr[e].byes == 1
        assert swiss[e].points == rr[e].points + 1
    assert [s.points for s in rr.values()] == [1.0, 1.0, 1.0]  # seat 0 won, once each


def test_standings_knockout() -> None:
    ids = [10, 20, 30, 40, 50]
    ratings = {10: 1900.0, 20: 1800.0, 30: 1700.0, 40: 1600.0, 50: 1500.0}
    first = knockout_bracket(ids, ratings)
    results = [decisive(first.tables[0], 50)]  # seed 5 beats seed 4
    second = knockout_next_round(first, results, 2)
    assert second is not None
    results += [decisive(second.tables[0], 10), decisive(second.tables[1], 30)]
    final = knockout_next_round(second, results, 3)
    assert final is not None
    results.append(decisive(final.tables[0], 10))
    table = standings(ids, [first, second, final], results, format="knockout")
    # Champion, finalist, then the semi-final losers (seed 2 before seed 5), then seed 4.
    assert [(s.entrant, s.rank, s.points) for s in table] == [
        (10, 1, 3.0),
        (30, 2, 2.0),
        (20, 3, 1.0),
        (50, 4, 1.0),
        (40, 5, 0.0),
    ]
    assert standings(ids, [], [], format="knockout")[0].rank == 1
    assert {s.rank for s in standings(ids, [], [], format="knockout")} == {1}


def test_standings_unknown_format() -> None:
    with pytest.raises(ValueError, match="format"):
        standings([1], [], [], format="ladder")


def test_libraries_do_not_import_django() -> None:
    code = (
        "import sys, games.tournaments.pairing, games.tournaments.standings, players.ratings;"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
