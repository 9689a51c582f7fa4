"""Yatzy's analysis, from the exact table of the optimal player (``ai.yatzy``): a seat's value is
its expected final score under optimal play from its position (a total, ``ai.yatzy.policy``), from
the empty sheet's 254.48 to, once the sheet is full, the seat's total. Yatzy bonuses already earned
are not in the table's values: they are added to every value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ai.analysis import Analysis, Chart, Ledger
from ai.positions import faces_to_indices
from ai.yatzy.policy import Strategy, default_strategy
from games.rules import ending, yatzy


def _command(dice: tuple[int, ...], move: Mapping[str, Any]) -> dict[str, object]:
    """The policy's ``{"box"}`` or ``{"hold": faces}`` as a move a client would send."""
    if "box" in move:
        return {"type": "score", "box": move["box"]}
    return {"type": "roll", "hold": list(faces_to_indices(dice, move["hold"]))}


def analyse(
    events: Iterable[tuple[int, yatzy.Event]], strategy: Strategy | None = None
) -> Analysis:
    """The analysis of a game from its events, ``(seq, event)`` in order, as far as they go."""
    table = strategy or default_strategy()
    state: yatzy.YatzyState | None = None
    ledger: Ledger | None = None
    for seq, event in events:
        if isinstance(event, yatzy.GameStarted):
            ledger = Ledger(event.seats, table.turn_value({}))
        elif state is not None and ledger is not None:
            seat = state.turn_seat
            sheet = state.sheet(seat)
            earned = state.yatzy_bonus_points[seat]
            if isinstance(event, yatzy.DiceRolled):
                if event.roll_number > 1:  # the hold was this roll's decision
                    held = [state.dice[i] for i in event.held]
                    value = table.hold_value(state.dice, sheet, state.rolls_left, held)
                    best, _ = table.best(state.dice, sheet, state.rolls_left)
                    move = {"type": "roll", "hold": list(event.held)}
                    best_move = _command(state.dice, best)
                    ledger.decide(seq, seat, state.round, move, value + earned, best_move)
                rolls_left = yatzy.ROLLS_PER_TURN - event.roll_number
                after = table.best(event.dice, sheet, rolls_left)[1]
                ledger.roll(seq, seat, state.round, after + earned)
            elif isinstance(event, yatzy.BoxScored):
                value = table.box_value(state.dice, sheet, event.box)
                best, _ = table.best(state.dice, sheet, state.rolls_left)
                move = {"type": "score", "box": event.box}
                best_move = _command(state.dice, best)
                ledger.decide(seq, seat, state.round, move, value + earned, best_move)
            elif isinstance(event, ending.SeatLeft):
                # Leaving gives up what the seat could still score: its loss, so the identity holds.
                left = event.seat
                now = state.totals(left).total
                move = {"type": event.reason}
                ledger.decide(
                    seq, left, state.round, move, float(now), {"type": "play_on"}, counted=False
                )
            elif isinstance(event, yatzy.GameFinished):
                unfinished = [seat for seat, sheet in enumerate(state.sheets) if None in sheet]
                ledger.end(event.totals, early=unfinished)
        state = yatzy.apply(state, event)
    if ledger is None:
        raise ValueError("a game's analysis starts at its game_started event")
    return ledger.analysis


def chart(analysis: Analysis) -> Chart:
    """Each seat's expected final score at the start and after each of its turns."""
    lines = [[line.expected_start] for line in analysis.seats]
    for decision in analysis.decisions:
        if decision.move["type"] == "score":
            lines[decision.seat].append(decision.best_value - decision.loss)
    return Chart("score", "round", lines)
