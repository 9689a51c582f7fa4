"""Glicko-2 (players.ratings): Glickman's worked example, idle periods, multi-seat tables."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from players.ratings import Rating, pairwise_results, update, update_table

PROPERTY = settings(max_examples=100, deadline=None)

ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


def test_glickman_worked_example() -> None:
    """'Example of the Glicko-2 system' (Glickman): 1500/200 plays 1400/30, 1550/100, 1700/300."""
    player = Rating(1500.0, 200.0, 0.06)
    results = [
        (Rating(1400.0, 30.0), 1.0),
        (Rating(1550.0, 100.0), 0.0),
        (Rating(1700.0, 300.0), 0.0),
    ]
    new = update(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert update(player, results, tau=0.5) == new  # tau 0.5 is the default
    assert player == Rating(1500.0, 200.0, 0.06)  # frozen, untouched


def test_defaults() -> None:
    assert Rating() == Rating(1500.0, 350.0, 0.06)
    with pytest.raises(AttributeError):
        Rating().rating = 1600.0  # type: ignore[misc]


def test_no_games_only_the_deviation_grows() -> None:
    player = Rating(1620.0, 80.0, 0.06)
    idle = update(player, [])
    assert idle.rating == 1620.0
    assert idle.volatility == 0.06
    assert idle.deviation == pytest.approx(math.hypot(80.0, 0.06 * 173.7178))
    assert update(idle, []).deviation > idle.deviation


def test_invalid_input() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Rating(), [(Rating(), 2.0)])
    with pytest.raises(ValueError, match="tau"):
        update(Rating(), [(Rating(), 1.0)], tau=0)
    with pytest.raises(ValueError, match="one place per rating"):
        update_table([Rating(), Rating()], [1])


def test_pairwise_results() -> None:
    assert pairwise_results([1, 2]) == [[0.5, 1.0], [0.0, 0.5]]
    assert pairwise_results([2, 1, 2]) == [
        [0.5, 0.0, 0.5],
        [1.0, 0.5, 1.0],
        [0.5, 0.0, 0.5],
    ]
    assert pairwise_results([1, 1, 3, 2]) == [
        [0.5, 0.5, 1.0, 1.0],
        [0.5, 0.5, 1.0, 1.0],
        [0.0, 0.0, 0.5, 0.0],
        [0.0, 0.0, 1.0, 0.5],
    ]


def test_update_table_two_equal_players_is_symmetric() -> None:
    winner, loser = update_table([Rating(), Rating()], [1, 2])
    assert winner.rating > 1500.0 > loser.rating
    assert winner.rating - 1500.0 == pytest.approx(1500.0 - loser.rating)
    assert winner.deviation == pytest.approx(loser.deviation)
    assert winner.deviation < 350.0
    assert update_table([Rating(), Rating()], [2, 1]) == [loser, winner]


def test_update_table_equal_places_barely_move_equal_ratings() -> None:
    a, b, c = update_table([Rating(1700.0, 90.0)] * 3, [1, 1, 1])
    for new in (a, b, c):
        assert new.rating == pytest.approx(1700.0, abs=1e-9)
        assert new.deviation < 90.0
        assert new.volatility == pytest.approx(0.06, abs=1e-4)


def test_update_table_is_pairwise_against_every_other_seat() -> None:
    table = [
        Rating(1500.0, 200.0),
        Rating(1400.0, 30.0),
        Rating(1550.0, 100.0),
        Rating(1700.0, 300.0),
    ]
    places = [2, 3, 1, 1]
    new = update_table(table, places)
    scores = pairwise_results(places)
    for i, rating in enumerate(table):
        others = [(table[j], scores[i][j]) for j in range(4) if j != i]
        assert new[i] == update(rating, others)
    # Seat 0 beat seat 1 only: Glickman's example again.
    assert new[0].rating == pytest.approx(1464.06, abs=0.02)


def test_update_table_four_equal_seats_order_by_place() -> None:
    new = update_table([Rating()] * 4, [3, 1, 4, 2])
    assert new[1].rating > new[3].rating > 1500.0 > new[0].rating > new[2].rating
    assert sum(r.rating for r in new) == pytest.approx(6000.0)


@PROPERTY
@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), max_size=8))
def test_update_property(player: Rating, results: list[tuple[Rating, float]]) -> None:
    new = update(player, results)
    assert all(math.isfinite(x) for x in (new.rating, new.deviation, new.volatility))
    assert new.deviation > 0 and new.volatility > 0
    if results:
        if all(score == 1.0 for _, score in results):
            assert new.rating > player.rating
        if all(score == 0.0 for _, score in results):
            assert new.rating < player.rating
        assert new.deviation < math.hypot(player.deviation, new.volatility * 173.7178)


@PROPERTY
@given(st.lists(st.tuples(ratings, st.integers(1, 4)), min_size=2, max_size=6))
def test_update_table_property(seats: list[tuple[Rating, int]]) -> None:
    table = [rating for rating, _ in seats]
    places = [place for _, place in seats]
    new = update_table(table, places)
    assert len(new) == len(table)
    best, worst = min(places), max(places)
    for before, after, place in zip(table, new, places, strict=True):
        if best != worst and place == best and places.count(best) == 1:
            assert after.rating > before.rating  # beat everyone
        if best != worst and place == worst and places.count(worst) == 1:
            assert after.rating < before.rating  # lost to everyone
