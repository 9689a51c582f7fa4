"""The Dés 10 000 computer players (ai.ten_thousand): exact turn values, legal moves, end game."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.positions import faces_to_indices
from ai.ten_thousand import (
    LEVELS,
    best_move,
    classic_threshold,
    expected_turn_value,
    optimal_turn_value,
    threshold_turn_value,
)
from ai.ten_thousand.match import play_engine, play_fast, solitaire_turn
from ai.ten_thousand.rolls import OUTCOMES, choices, roll_key
from ai.ten_thousand.tables import lazy, reach_table, score_outcome, score_table
from ai.ten_thousand.winmodel import PLANS, finish, menu, win_model
from games.rules.ten_thousand import farkle_probability, is_farkle, keep_options, score_keep

TARGETS = (5000, 10000, 15000)

# --- exact single-turn values -------------------------------------------------------------------


def test_optimal_turn_is_worth_551_55() -> None:
    assert round(optimal_turn_value(), 2) == 551.55
    assert expected_turn_value("expert") == optimal_turn_value()


def test_bank_at_300_is_worth_495_5() -> None:
    assert round(threshold_turn_value(300), 1) == 495.5


def test_classic_turn_value_is_exact_and_between() -> None:
    value = expected_turn_value("classic")
    assert round(value, 2) == 492.25
    assert value < threshold_turn_value(300) < optimal_turn_value()


def test_outcomes_cover_every_throw() -> None:
    for n in range(1, 7):
        o = OUTCOMES[n]
        assert o.prob.sum() + o.farkle == pytest.approx(1.0, abs=1e-12)
        assert o.farkle == farkle_probability(n)
        assert (o.units >= 1).all() and ((o.left >= 1) & (o.left <= 6)).all()


def test_choices_are_the_best_set_aside_for_each_count() -> None:
    cases = [((1, 1, 2, 3, 4, 5), {1: 100, 2: 200, 3: 250}), ((2, 3, 4, 4, 6, 6), {})]
    for key, options in cases:
        assert {len(c.faces): c.points for c in choices(key)} == options
    for c in choices((1, 2, 3, 4, 5, 6)):
        assert score_keep(c.faces) == c.points


def test_score_policy_throw_limits() -> None:
    """Where the optimum stops throwing: one die up to 250 points, six dice up to 16 450."""
    table = score_table(None)
    limits = {}
    for n in range(1, 7):
        throws = [t * 50 for t in range(len(table.value)) if not table.banks(t, n)]
        limits[n] = max(throws)
    assert limits == {1: 250, 2: 200, 3: 400, 4: 1000, 5: 3050, 6: 16450}


def test_score_outcome_matches_the_table() -> None:
    fresh = score_outcome(None)[0, 6]
    assert fresh.sum() == pytest.approx(1.0, abs=1e-12)
    assert sum(p * x * 50 for x, p in enumerate(fresh)) == pytest.approx(optimal_turn_value())
    assert fresh[0] == pytest.approx(0.2017, abs=1e-4)  # the optimum loses one turn in five


def test_reach_table_simple_values() -> None:
    reach = reach_table(0.0)
    assert reach.chance(1, 6) == pytest.approx(1 - farkle_probability(6))
    assert reach.chance(1, 1) == pytest.approx(1 / 3)
    assert reach.chance(0, 1) == 1.0
    assert reach.chance(10**6, 6) == 0.0
    assert reach.chance(6, 6) > reach.chance(7, 6) > reach.chance(40, 6)


def test_menu_distributions_sum_to_one() -> None:
    dist = menu(None)
    assert dist.shape[0] == len(PLANS)
    assert dist.sum(axis=1) == pytest.approx(1.0, abs=1e-9)


# --- legal moves --------------------------------------------------------------------------------


def _sub_multiset(part: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    return not Counter(part) - Counter(whole)


scoring_rolls = (
    st.lists(st.integers(1, 6), min_size=1, max_size=6)
    .map(tuple)
    .filter(lambda roll: not is_farkle(roll))
)


@settings(max_examples=200, deadline=None)
@given(
    roll=scoring_rolls,
    turn=st.integers(0, 60).map(lambda u: 50 * u),
    totals=st.lists(st.integers(0, 320).map(lambda u: 50 * u), min_size=1, max_size=4),
    me=st.integers(0, 3),
    target=st.sampled_from(TARGETS),
    last_round=st.booleans(),
    level=st.sampled_from(LEVELS),
)
def test_best_move_is_legal(
    roll: tuple[int, ...],
    turn: int,
    totals: list[int],
    me: int,
    target: int,
    last_round: bool,
    level: str,
) -> None:
    me %= len(totals)
    faces, bank = best_move(roll, turn, totals, me, target, last_round, level)
    assert type(bank) is bool
    assert faces == tuple(sorted(faces))
    assert _sub_multiset(faces, roll)
    points = score_keep(faces)
    assert points is not None and points > 0  # so a bank never banks 0
    indices = faces_to_indices(roll, faces)
    assert len(set(indices)) == len(indices) == len(faces)
    assert sorted(roll[i] for i in indices) == list(faces)
    others = [total for seat, total in enumerate(totals) if seat != me]
    if last_round and others and bank:
        # Never bank short of the leader in the last round (expert may bank an exact tie).
        assert totals[me] + turn + points >= max(others)
        if level == "classic":
            assert totals[me] + turn + points > max(others)


def test_best_move_random_rolls_every_level_and_state() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        roll = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 6)))
        if is_farkle(roll):
            continue
        totals = [50 * rng.randrange(0, 300) for _ in range(rng.randint(1, 3))]
        for level in LEVELS:
            faces, _ = best_move(roll, 50 * rng.randrange(0, 40), totals, 0, 15000, False, level)
            assert _sub_multiset(faces, roll) and score_keep(faces)


def test_faces_to_indices() -> None:
    assert faces_to_indices((5, 1, 5, 3), (1, 5)) == (0, 1)
    assert faces_to_indices((5, 1, 5, 3), (5, 5)) == (0, 2)
    assert faces_to_indices((2, 2, 2), ()) == ()
    with pytest.raises(ValueError, match="not part of the roll"):
        faces_to_indices((5, 1, 3), (5, 5))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((1, 2), 0, (0, 0), 0, 10000, False, "genius"), "unknown level"),
        (((2, 3, 4, 4, 6, 6), 0, (0, 0), 0, 10000, False, "expert"), "turn is lost"),
        (((1, 7), 0, (0, 0), 0, 10000, False, "expert"), "faces from 1 to 6"),
        (((1,), 0, (0, 0), 2, 10000, False, "classic"), "seat 2"),
        (((1,), -50, (0, 0), 0, 10000, False, "classic"), "non-negative"),
    ],
)
def test_bad_arguments(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        best_move(*args)  # type: ignore[arg-type]


# --- classic ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("behind", "left", "threshold"),
    [
        (0, 6, 300),
        (0, 3, 300),
        (0, 2, 250),
        (0, 1, 200),
        (-3000, 6, 300),  # leading changes nothing
        (499, 4, 300),
        (500, 4, 350),
        (2000, 4, 500),
        (2000, 1, 400),
        (3499, 5, 600),
        (10**6, 6, 1000),
        (10**6, 1, 900),
    ],
)
def test_classic_threshold(behind: int, left: int, threshold: int) -> None:
    assert classic_threshold(behind, left) == threshold


def test_classic_moves() -> None:
    def move(
        roll: tuple[int, ...], turn: int, totals: tuple[int, ...], last: bool = False
    ) -> object:
        return best_move(roll, turn, totals, 0, 10000, last, "classic")

    assert move((1, 5, 3, 3, 6, 2), 0, (0, 0)) == ((1,), False)  # 150 < 300: keep one die
    assert move((1, 5, 3, 3, 6, 2), 200, (0, 0)) == ((1, 5), True)  # 350 >= 300
    assert move((1, 5, 3, 3, 6, 2), 200, (0, 2000)) == ((1,), False)  # behind: 500 needed
    assert move((2, 2, 2, 1, 3, 4), 0, (0, 0)) == ((1, 2, 2, 2), True)  # 2 dice left: 250
    assert move((3, 3, 3, 1, 2, 4), 0, (0, 3000)) == ((3, 3, 3), False)  # keeps the three alike
    assert move((1, 2, 3, 4, 5, 6), 0, (0, 0)) == ((1, 2, 3, 4, 5, 6), True)
    assert move((2, 2, 3, 3, 6, 6), 0, (0, 0)) == ((2, 2, 3, 3, 6, 6), True)  # 750
    assert move((2, 2, 3, 3, 6, 6), 0, (0, 5000)) == ((2, 2, 3, 3, 6, 6), False)  # 800 needed
    assert move((1, 5, 2, 3), 900, (4000, 5000), last=True) == ((1, 5), True)  # 5050 > 5000
    assert move((1, 5, 2, 3), 800, (4000, 5000), last=True) == ((1,), False)  # 4950: on
    assert move((5, 2, 3, 4), 0, (0,)) == ((5,), False)  # alone: a seat leads nobody


# --- expert -------------------------------------------------------------------------------------


def _expert(
    roll: tuple[int, ...], turn: int, totals: tuple[int, ...], last: bool = False
) -> tuple[tuple[int, ...], bool]:
    return best_move(roll, turn, totals, 0, 10000, last, "expert")


def test_expert_alone_plays_the_score_table() -> None:
    assert _expert((5, 2, 3, 4), 400, (0,)) == ((5,), True)  # 3 dice: the optimum banks 450
    assert _expert((5, 2, 3, 4), 350, (0,)) == ((5,), False)  # and throws at 400
    assert _expert((1, 1, 5, 2, 3, 4), 0, (0,)) == ((1,), False)  # one 1, five dice on


def test_expert_last_round() -> None:
    # Needs more than 1000 this turn: 1050 is enough, 950 is not.
    assert _expert((1, 2, 3, 4, 6, 6), 950, (9000, 10000), last=True) == ((1,), True)
    assert _expert((5, 2, 3, 4, 6, 6), 900, (9000, 10000), last=True) == ((5,), False)
    # A tie shares the place: with one die left it is worth more than a 1-in-3 throw.
    assert _expert((5, 2), 950, (9000, 10000), last=True) == ((5,), True)
    # Far behind: never banks, keeps throwing whatever the turn has.
    assert _expert((1, 1, 1, 2, 3, 4), 4000, (1000, 11000), last=True)[1] is False
    # Alone above the leader already: banks at once with the most points.
    assert _expert((1, 5, 2, 3), 0, (12000, 10000), last=True) == ((1, 5), True)


def test_expert_end_game_risk() -> None:
    # Far behind an opponent close to the target: 450 with three dice is banked by the score
    # table (and alone), but the expert throws on.
    assert _expert((5, 2, 3, 4), 400, (2000, 9800)) == ((5,), False)
    # The turn reaches the target with a big lead and few dice: bank.
    assert _expert((1, 5, 2, 3), 100, (9800, 3000)) == ((1, 5), True)
    assert _expert((1, 2), 0, (9900, 5000)) == ((1,), True)
    # It reaches the target only 50 above the opponent, who would almost surely beat that in
    # its last turn: throw on, even one die, rather than bank.
    assert _expert((1, 2), 0, (9900, 9950)) == ((1,), False)
    assert _expert((1, 2, 3, 4), 0, (9900, 9950)) == ((1,), False)


def test_expert_wins_the_model_from_the_start() -> None:
    model = win_model(200)
    assert 0.5 < model.win[0, 0] < 0.6  # the first seat has the edge
    assert model.win[190, 100] > model.win[100, 100] > model.win[100, 190]
    assert ((model.win >= 0) & (model.win <= 1)).all()


def test_finish_is_monotone_in_the_lead() -> None:
    table = finish(0.5, 1)
    worth = [table.worth(lead, 6) for lead in range(2, 60)]
    assert worth == sorted(worth)
    assert table.banks(200, 1)


def test_lazy_builds_once_under_threads() -> None:
    calls: list[int] = []
    barrier = threading.Barrier(8)

    def build(key: int) -> int:
        calls.append(key)
        return key * 2

    cached = lazy(build)

    def run() -> None:
        barrier.wait()
        assert cached(21) == 42

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls == [21]


# --- games --------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_fast_games_are_the_engine_games(target: int) -> None:
    for seed in range(6):
        levels = ("expert", "classic") if seed % 2 else ("classic", "expert")
        assert play_fast(levels, target, seed) == play_engine(levels, target, seed)
    three = ("classic", "expert", "classic")
    assert play_fast(three, target, 99) == play_engine(three, target, 99)


def test_games_end_properly() -> None:
    result = play_engine(("expert", "classic"), 5000, 3)
    assert max(result.totals) >= 5000 and sorted(result.places)[0] == 1
    alone = play_engine(("expert",), 5000, 4)
    assert alone.totals[0] >= 5000 and alone.places == (1,)


def test_solitaire_turns_average_near_the_exact_values() -> None:
    rng = random.Random(2024)
    for level in LEVELS:
        mean = sum(solitaire_turn(level, rng) for _ in range(4000)) / 4000
        # The standard deviation of one turn is under 700 points: 4000 turns give +-11 (1 sd).
        assert abs(mean - expected_turn_value(level)) < 50


def test_expert_beats_classic() -> None:
    games, wins = 400, 0.0
    for seed in range(games):
        levels = ("expert", "classic") if seed % 2 == 0 else ("classic", "expert")
        result = play_fast(levels, 10000, 10_000 + seed)
        me = levels.index("expert")
        mine, theirs = result.places[me], result.places[1 - me]
        wins += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    assert wins / games > 0.5


def test_roll_key_and_keep_options_agree() -> None:
    for roll in [(6, 1, 1), (5,), (4, 4, 4, 4, 2, 6)]:
        best = max(points for _, points in keep_options(roll))
        assert max(c.points for c in choices(roll_key(roll))) == best
