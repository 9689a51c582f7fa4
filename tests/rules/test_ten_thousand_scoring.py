"""Scoring of Dés 10 000 held to RULES.md and to an independent brute force, over every roll."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import factorial

import pytest

from games.rules.ten_thousand import (
    farkle_probability,
    is_farkle,
    keep_options,
    max_keep_points,
    score_keep,
    scoring_indices,
)

# --- an independent reference: the combinations of RULES.md written out one by one -------------


def _reference_combinations() -> list[tuple[Counter[int], int]]:
    combos: list[tuple[tuple[int, ...], int]] = [((1,), 100), ((5,), 50)]
    for face in range(1, 7):
        three = 1000 if face == 1 else face * 100
        combos += [
            ((face,) * 3, three),
            ((face,) * 4, 2 * three),
            ((face,) * 5, 4 * three),
            ((face,) * 6, 8 * three),
        ]
    combos.append(((1, 2, 3, 4, 5, 6), 1500))
    for a, b, c in combinations(range(1, 7), 3):
        combos.append(((a, a, b, b, c, c), 750))
    return [(Counter(dice), points) for dice, points in combos]


COMBINATIONS = _reference_combinations()


@cache
def reference_score(dice: tuple[int, ...]) -> int | None:
    """Best partition of the dice into combinations, every die used; None if there is none."""
    if not dice:
        return 0
    have = Counter(dice)
    best: int | None = None
    for combo, points in COMBINATIONS:
        if all(have[face] >= n for face, n in combo.items()):
            rest = reference_score(tuple(sorted((have - combo).elements())))
            if rest is not None and (best is None or points + rest > best):
                best = points + rest
    return best


def reference_farkle(dice: tuple[int, ...]) -> bool:
    have = Counter(dice)
    return not any(all(have[f] >= n for f, n in combo.items()) for combo, _ in COMBINATIONS)


def all_rolls(n: int) -> product[tuple[int, ...]]:
    return product(range(1, 7), repeat=n)


# --- exhaustive agreement -----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 7))
def test_score_keep_matches_brute_force_on_every_ordered_roll(n: int) -> None:
    for roll in all_rolls(n):
        assert score_keep(roll) == reference_score(tuple(sorted(roll))), roll
        assert score_keep(list(roll)) == score_keep(reversed(roll))


@pytest.mark.parametrize("n", range(1, 7))
def test_is_farkle_matches_brute_force_on_every_ordered_roll(n: int) -> None:
    for roll in all_rolls(n):
        assert is_farkle(roll) == reference_farkle(roll), roll


@pytest.mark.parametrize("n", range(1, 7))
def test_farkle_iff_no_subset_scores(n: int) -> None:
    for key in combinations_with_replacement(range(1, 7), n):
        subsets = [
            sub for k in range(1, n + 1) for sub in combinations(key, k) if reference_score(sub)
        ]
        assert is_farkle(key) == (not subsets)


@pytest.mark.parametrize("n", range(1, 7))
def test_scoring_indices_and_max_points_match_every_subset(n: int) -> None:
    for roll in all_rolls(n):
        counting: set[int] = set()
        best = 0
        for k in range(1, n + 1):
            for idx in combinations(range(n), k):
                points = reference_score(tuple(sorted(roll[i] for i in idx)))
                if points is not None:
                    counting.update(idx)
                    best = max(best, points)
        assert scoring_indices(roll) == frozenset(counting), roll
        assert max_keep_points(roll) == best, roll


@pytest.mark.parametrize("n", range(1, 7))
def test_keep_options_lists_each_scoring_sub_multiset_once(n: int) -> None:
    for key in combinations_with_replacement(range(1, 7), n):
        expected = {
            sub: reference_score(sub)
            for k in range(1, n + 1)
            for sub in set(combinations(key, k))
            if reference_score(sub) is not None
        }
        options = keep_options(key)
        assert dict(options) == expected
        assert len(options) == len(expected)
        assert [p for _, p in options] == sorted((p for _, p in options), reverse=True)


# --- RULES.md -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kept", "points"),
    [
        # Worked examples of Game 2.
        ((1, 5), 150),
        ((1,), 100),
        ((1, 2), None),
        ((3, 3, 3), 300),
        ((1, 1, 1, 5), 1050),
        ((2, 2, 3, 3, 6, 6), 750),
        ((1, 2, 3, 4, 5, 6), 1500),
        ((4, 4, 4, 4), 800),
        # The scoring table and its notes.
        ((5,), 50),
        ((1, 1, 1), 1000),
        ((6, 6, 6), 600),
        ((1, 1, 1, 1), 2000),
        ((5, 5, 5, 5, 5), 2000),
        ((2, 2, 2, 2, 2, 2), 1600),
        ((1, 1, 1, 1, 1, 1), 8000),
        ((1, 1, 1, 1, 5, 5), 2100),
        ((2, 2, 2, 2, 3, 3), None),
        ((2, 2, 2, 2), 400),
        ((3, 3), None),
        ((2,), None),
        ((), None),
        # Mixed: the best split wins.
        ((5, 5, 5, 5), 1000),
        ((1, 1, 5, 5, 3, 3), 750),
        ((1, 1, 5, 5, 1, 5), 1500),
        ((3, 3, 3, 3, 3, 3), 2400),
    ],
)
def test_rules_examples(kept: tuple[int, ...], points: int | None) -> None:
    assert score_keep(kept) == points


def test_worked_example_rolls() -> None:
    assert scoring_indices((1, 2, 3, 4, 6, 6)) == {0}
    assert scoring_indices((1, 5, 3, 3, 6, 2)) == {0, 1}
    assert scoring_indices((2, 2, 2, 2, 3, 3)) == {0, 1, 2, 3}
    assert scoring_indices((2, 3, 4, 4, 6, 6)) == frozenset()
    assert is_farkle((2, 3, 4, 4, 6, 6))
    assert max_keep_points((2, 3, 4, 4, 6, 6)) == 0
    assert max_keep_points((1, 2, 3, 4, 5, 6)) == 1500
    assert not is_farkle((2, 2, 3, 3, 4, 4))
    assert is_farkle((2, 3, 4, 6))


def test_bad_dice_are_programming_errors() -> None:
    with pytest.raises(ValueError, match="not a die face"):
        score_keep((0, 1))
    with pytest.raises(ValueError, match="1 to 6 dice"):
        score_keep((1,) * 7)
    with pytest.raises(ValueError, match="not a die face"):
        is_farkle((7,))


# --- farkle probability -------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 7))
def test_farkle_probability_is_the_exact_count(n: int) -> None:
    lost = sum(reference_farkle(roll) for roll in all_rolls(n))
    assert farkle_probability(n) == lost / 6**n
    # Counting multisets with their multinomial weights must agree with the ordered count.
    weighted = Fraction(0)
    for key in combinations_with_replacement(range(1, 7), n):
        if reference_farkle(key):
            ways = factorial(n)
            for count in Counter(key).values():
                ways //= factorial(count)
            weighted += Fraction(ways, 6**n)
    assert weighted == Fraction(lost, 6**n)


@pytest.mark.parametrize(
    ("n", "percent"),
    [(1, 66.667), (2, 44.444), (3, 27.778), (4, 15.741), (5, 7.716), (6, 2.315)],
)
def test_farkle_probability_seed_figures(n: int, percent: float) -> None:
    assert round(farkle_probability(n) * 100, 3) == percent


def test_farkle_probability_exact_ends() -> None:
    assert farkle_probability(6) == 15 / 648
    assert farkle_probability(1) == 4 / 6


def test_without_three_pairs_six_dice_would_lose_more_often() -> None:
    # RULES.md: three pairs is what brings 6 dice from 3.09 % down to 2.3 %.
    def farkle_without_pairs(roll: tuple[int, ...]) -> bool:
        pairs_only = sorted(Counter(roll).values()) == [2, 2, 2] and not {1, 5} & set(roll)
        return reference_farkle(roll) or pairs_only

    lost = sum(farkle_without_pairs(roll) for roll in all_rolls(6))
    assert round(lost / 6**6 * 100, 2) == 3.09


@pytest.mark.parametrize("n", [0, 7, -1])
def test_farkle_probability_rejects_impossible_counts(n: int) -> None:
    with pytest.raises(ValueError, match="dice in play"):
        farkle_probability(n)


# --- the figures RULES.md derives from the table ------------------------------------------------


def _turn_values() -> tuple[float, float]:
    """Expected points of one turn: optimal banking, and banking as soon as 300 is reached."""
    outcomes: dict[int, list[tuple[float, list[tuple[int, int]]]]] = {}
    for n in range(1, 7):
        rows = []
        for key in combinations_with_replacement(range(1, 7), n):
            ways = factorial(n)
            for count in Counter(key).values():
                ways //= factorial(count)
            best: dict[int, int] = {}
            for faces, points in keep_options(key):
                best[len(faces)] = max(best.get(len(faces), 0), points)
            rows.append((ways / 6**n, [(p, (n - k) or 6) for k, p in best.items()]))
        outcomes[n] = rows

    def roll_value(value: dict[tuple[int, int], float], t: int, n: int, cap: int) -> float:
        return sum(
            p * max(value[(t + pts, m)] if t + pts < cap else t + pts for pts, m in opts)
            for p, opts in outcomes[n]
            if opts
        )

    cap = 40_000  # far above any total worth risking 6 dice for
    optimal: dict[tuple[int, int], float] = {}
    for t in range(cap - 50, -1, -50):
        for n in range(1, 7):
            optimal[(t, n)] = max(t, roll_value(optimal, t, n, cap))
    greedy: dict[tuple[int, int], float] = {}
    for t in range(250, -1, -50):
        for n in range(1, 7):
            greedy[(t, n)] = roll_value(greedy, t, n, 300)
    return roll_value(optimal, 0, 6, cap), greedy[(0, 6)]


def test_expected_turn_values_match_rules_md() -> None:
    optimal, bank_at_300 = _turn_values()
    assert round(optimal, 2) == 551.55
    assert round(bank_at_300, 1) == 495.5
