"""Dés 10 000's analysis, in expected points per turn, from the optimal single turn
(``tables.score_table``). A seat's value is its banked total plus the expected points of its turn
in play: a fresh turn adds 551.55 to its ``expected_start``, a throw moves the value by its luck,
and a set-aside with the choice to bank or throw on is the decision; so every turn banks its
expected points plus luck minus skill loss. The expert plays to win, not for points: near the end
it may lose points.

With two seats each turn also has the seat's chance to win before and after it, and each decision
the chance it gave away (``ten_thousand_chances``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ai.analysis import Analysis, Chart, Ledger, Turn
from ai.analysis.ten_thousand_chances import chance_to_win, decision_loss, modelled
from ai.positions import faces_to_indices
from ai.ten_thousand.rolls import UNIT, choices, roll_key
from ai.ten_thousand.tables import ScoreTable, score_table
from games.rules import ending
from games.rules import ten_thousand as rules


def _worth(table: ScoreTable, units: int, left: int, *, bank: bool | None = None) -> float:
    """Points of reaching ``units`` turn points with ``left`` dice to throw: banked (``bank``),
    thrown on (not ``bank``), or whichever is better (None)."""
    if bank or units >= len(table.value):
        return float(units * UNIT)
    return float((table.value if bank is False else table.after)[units, left])


def _best(
    table: ScoreTable, roll: tuple[int, ...], turn_points: int
) -> tuple[dict[str, Any], float]:
    """The move that banks the most on average after ``roll``; its worth (points of the turn)."""
    t = turn_points // UNIT
    options = [(c, _worth(table, t + c.units, c.left)) for c in choices(roll_key(roll))]
    choice, worth = max(options, key=lambda option: (option[1], option[0].units))
    bank = table.banks(t + choice.units, choice.left)
    keep = list(faces_to_indices(roll, choice.faces))
    return {"type": "bank" if bank else "roll", "keep": keep}, worth


def analyse(events: Iterable[tuple[int, rules.Event]], table: ScoreTable | None = None) -> Analysis:
    """The analysis of a game from its events, ``(seq, event)`` in order, as far as they go."""
    scores = table or score_table(None)
    fresh = _worth(scores, 0, rules.DICE, bank=False)
    state: rules.TenThousandState | None = None
    ledger: Ledger | None = None
    turns: list[int] = []
    kept: tuple[int, rules.TenThousandState, rules.DiceSetAside] | None = None
    # seat -> (rolls and decisions recorded when its turn began, the turn's number, win chance)
    open_turn: dict[int, tuple[int, int, int, float | None]] = {}
    awaiting: int | None = None  # the last closed turn, until its chance after is known

    def close(seat: int, points: int) -> None:
        nonlocal awaiting
        assert ledger is not None
        start_rolls, start_decisions, number, before = open_turn.pop(seat)
        rolls = [r for r in ledger.analysis.rolls[start_rolls:] if r.seat == seat]
        decisions = [d for d in ledger.analysis.decisions[start_decisions:] if d.seat == seat]
        luck, loss = sum(r.luck for r in rolls), sum(d.loss for d in decisions)
        ledger.analysis.turns.append(Turn(seat, number, fresh, luck, loss, points, before))
        awaiting = len(ledger.analysis.turns) - 1

    def settle(between: rules.TenThousandState) -> None:
        """The last closed turn's chance after it, from the position between two turns."""
        nonlocal awaiting
        if awaiting is not None and ledger is not None and modelled(between):
            done = ledger.analysis.turns[awaiting]
            after = chance_to_win(between, done.seat)
            ledger.analysis.turns[awaiting] = replace(done, win_after=after)
        awaiting = None

    for seq, event in events:
        if isinstance(event, rules.GameStarted):
            ledger = Ledger(event.seats, 0.0)
            turns = [0] * event.seats
        elif state is not None and ledger is not None:
            seat = state.turn_seat
            banked = state.totals[seat]
            if isinstance(event, rules.DiceRolled):
                if kept is not None:  # the set-aside before this throw: thrown on
                    decided_at, before, aside = kept
                    worth = _worth(
                        scores, state.turn_points // UNIT, state.dice_in_play, bank=False
                    )
                    move = {"type": "roll", "keep": list(aside.indices)}
                    best, _ = _best(scores, before.roll, before.turn_points)
                    lost = decision_loss(before, state.turn_points, state.dice_in_play, False)
                    ledger.decide(decided_at, seat, turns[seat], move, banked + worth, best,
                                  win_loss=lost)  # fmt: skip
                    kept = None
                elif not state.kept:  # a fresh turn
                    settle(state)
                    turns[seat] += 1
                    chance = chance_to_win(state, seat) if modelled(state) else None
                    open_turn[seat] = (len(ledger.analysis.rolls), len(ledger.analysis.decisions),
                                       turns[seat], chance)  # fmt: skip
                    ledger.expect(seat, fresh)
                scoring = bool(choices(roll_key(event.dice)))
                after = _best(scores, event.dice, state.turn_points)[1] if scoring else 0.0
                ledger.roll(seq, seat, turns[seat], banked + after)
            elif isinstance(event, rules.DiceSetAside):
                kept = (seq, state, event)
            elif isinstance(event, rules.TurnBanked):
                if kept is not None:  # a bank after setting dice aside: the decision
                    decided_at, before, aside = kept
                    move = {"type": "bank", "keep": list(aside.indices)}
                    best, _ = _best(scores, before.roll, before.turn_points)
                    lost = decision_loss(before, event.points, rules.DICE, True)
                    ledger.decide(decided_at, seat, turns[seat], move, banked + event.points, best,
                                  win_loss=lost)  # fmt: skip
                    kept = None
                if seat in open_turn:
                    close(seat, event.points)
            elif isinstance(event, rules.RoundLost) and seat in open_turn:
                close(seat, 0)
            elif isinstance(event, ending.SeatLeft):
                # Leaving gives up the turn in play, if any: counted as the seat's loss.
                left = event.seat
                move = {"type": event.reason}
                now = float(state.totals[left])
                ledger.decide(seq, left, turns[left], move, now, {"type": "play_on"}, counted=False)
                if left in open_turn:
                    close(left, 0)
            elif isinstance(event, rules.GameFinished):
                ledger.end(event.totals)
        state = rules.apply(state, event)
        if state.finished:
            settle(state)
    if ledger is None or state is None:
        raise ValueError("a game's analysis starts at its game_started event")
    if not state.roll and not state.kept:  # between two turns
        settle(state)
    for seat, (_, _, number, chance) in open_turn.items():  # a turn in play: no figures yet
        ledger.analysis.turns.append(Turn(seat, number, fresh, 0.0, 0.0, None, chance))
    return ledger.analysis


def chart(analysis: Analysis) -> Chart:
    """Two seats: each seat's chance to win at the start and after every turn of the game;
    otherwise each seat's banked total after each of its turns."""
    turns = [turn for turn in analysis.turns if turn.points is not None]
    if len(analysis.seats) == 2 and turns and turns[0].win_before is not None:
        first = turns[0].win_before if turns[0].seat == 0 else 1 - turns[0].win_before
        chances = [first]
        for turn in turns:
            if turn.win_after is None:
                break
            chances.append(turn.win_after if turn.seat == 0 else 1 - turn.win_after)
        return Chart("chance", "turn", [chances, [1 - c for c in chances]])
    lines: list[list[float]] = [[0.0] for _ in analysis.seats]
    for turn in turns:
        assert turn.points is not None
        lines[turn.seat].append(lines[turn.seat][-1] + turn.points)
    return Chart("points", "round", lines)
