"""Seeded games between computer levels (dice from ``random.Random(seed)``), for tests and
benchmarks: ``play_engine`` through the rules engine, ``play_fast`` the same game (same dice in the
same order, same moves) without it, about ten times faster."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ai.positions import faces_to_indices
from ai.ten_thousand import best_move
from games.rules.base import DiceRoller
from games.rules.ten_thousand import (
    Bank,
    Command,
    Roll,
    apply,
    decide,
    places_for,
    replay,
    start,
)
from games.rules.ten_thousand_scoring import DICE, FACES, is_farkle, score_keep


@dataclass(frozen=True)
class GameResult:
    totals: tuple[int, ...]
    places: tuple[int, ...]
    #: Turns played, all seats together.
    turns: int


def seeded_roller(rng: random.Random) -> DiceRoller:
    def roll(n: int) -> tuple[int, ...]:
        return tuple(rng.choices(FACES, k=n))

    return roll


def play_engine(levels: Sequence[str], target: int, seed: int) -> GameResult:
    """One game through the rules engine; seat ``i`` is played by ``levels[i]``."""
    roller = seeded_roller(random.Random(seed))
    state = replay(start(len(levels), {"target": target}))
    turns = 0
    while not state.finished:
        seat = state.turn_seat
        command: Command
        if not state.roll:
            turns += state.turn_points == 0 and not state.kept
            command = Roll(seat)
        else:
            faces, bank = best_move(
                state.roll,
                state.turn_points,
                state.totals,
                seat,
                target,
                state.last_round,
                levels[seat],
            )
            keep = faces_to_indices(state.roll, faces)
            command = Bank(seat, keep) if bank else Roll(seat, keep)
        for event in decide(state, command, roller):
            state = apply(state, event)
    return GameResult(state.totals, state.places, turns)


def play_fast(levels: Sequence[str], target: int, seed: int) -> GameResult:
    """The game ``play_engine`` plays, without the engine."""
    roller = seeded_roller(random.Random(seed))
    totals = [0] * len(levels)
    seat, trigger, turns = 0, -1, 0
    while True:
        turns += 1
        points, dice = 0, DICE
        while True:
            roll = roller(dice)
            if is_farkle(roll):
                break
            faces, bank = best_move(roll, points, totals, seat, target, trigger >= 0, levels[seat])
            points += score_keep(faces) or 0
            dice = dice - len(faces) or DICE
            if bank:
                totals[seat] += points
                if trigger < 0 and totals[seat] >= target:
                    trigger = seat
                break
        seat = (seat + 1) % len(levels)
        if seat == trigger:
            return GameResult(tuple(totals), places_for(totals), turns)


def solitaire_turn(level: str, rng: random.Random) -> int:
    """The points one fresh turn banks (0 if lost), alone at the table with nothing banked."""
    roller = seeded_roller(rng)
    points, dice = 0, DICE
    while True:
        roll = roller(dice)
        if is_farkle(roll):
            return 0
        faces, bank = best_move(roll, points, (0,), 0, 10000, False, level)
        points += score_keep(faces) or 0
        dice = dice - len(faces) or DICE
        if bank:
            return points
