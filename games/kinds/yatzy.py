"""Yatzy as a game kind of this server: its computer at the table and its ``Kind``. The computer's
functions return the next command as a client would send it, for the one move path.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, cast

from django.utils.translation import gettext_lazy as _

from ai.positions import faces_to_indices
from games.kinds.base import (
    Analyst,
    AutoConfirm,
    Engine,
    Kind,
    Level,
    Presenter,
    Seats,
    WireEvent,
    levels,
)
from games.presenters import yatzy as view
from games.rules import yatzy
from games.rules.yatzy import YatzyState, stand_in_box


def command(state: YatzyState, level: str = "optimal") -> dict[str, Any]:
    from ai import yatzy as policy

    if state.rolls_used == 0:
        return {"type": "roll"}
    move = policy.best_move(state.dice, state.sheet(state.turn_seat), state.rolls_left, level)
    return _command(state, move)


def _command(state: YatzyState, move: Any) -> dict[str, Any]:
    """The policy's ``{"box"}`` or ``{"hold": faces}`` as a move a client would send."""
    if "box" in move:
        return {"type": "score", "box": move["box"]}
    return {"type": "roll", "hold": list(faces_to_indices(state.dice, move["hold"]))}


def auto_confirm_move(state: YatzyState, assisted: bool) -> dict[str, Any]:
    """The move auto-confirm plays: score the box the player marked; else, in a game with
    assistance (casual, hints on), the optimal computer's box (with no roll left the policy always
    names one), and in any other the turn clock's stand-in's (the legal box worth least): the
    server never chooses better than the player in a game where the player may not be helped."""
    box = state.selected
    if box is None and not assisted:
        box = stand_in_box(state)
    if box is None:
        from ai import yatzy as policy

        move: Any = policy.best_move(state.dice, state.sheet(state.turn_seat), 0, "optimal")
        box = str(move["box"])
    return {"type": "score", "box": box}


def tables() -> str:
    """The optimal player's strategy table, built if missing or invalid, then loaded."""
    from ai.yatzy import load_table, start_value
    from ai.yatzy.table import table_path

    load_table()
    return f"table {table_path()}; expected score under optimal play {start_value():.4f}"


def hint(state: YatzyState) -> dict[str, Any]:
    """The optimal move for the seat to play, with the best five and their expected values."""
    from ai import yatzy as policy

    if state.rolls_used == 0:
        return {"move": {"type": "roll"}, "expected_value": None, "options": []}
    sheet = state.sheet(state.turn_seat)
    options = []
    for move, value in policy.option_values(state.dice, sheet, state.rolls_left)[:5]:
        options.append({"move": _command(state, move), "expected_value": round(value, 4)})
    return {
        "move": options[0]["move"],
        "expected_value": options[0]["expected_value"],
        "options": options,
    }


def _auto_confirm_seconds(state: yatzy.YatzyState) -> float:
    """Yatzy waits for a box once the last roll is used (seeds 000/001)."""
    waiting = not state.finished and state.rolls_left == 0 and bool(state.dice)
    return state.options.auto_confirm_seconds if waiting else 0


def _rolled(events: Sequence[WireEvent]) -> bool:
    # Marking a box (``box_selected``) buys no time: only the roll starts the delay.
    return any(isinstance(event, yatzy.DiceRolled) for event in events)


KIND = Kind(
    code="yatzy",
    label=_("Yatzy"),
    engine=cast(Engine, yatzy),
    presenter=cast(Presenter, view),
    seats=Seats(least=1, most=6),
    levels=levels(
        Level("optimal", _("optimal"), rating=1800.0),
        Level("casual", _("casual"), rating=1400.0),
    ),
    default_level="optimal",
    computer=command,
    hint=hint,
    tables=tables,
    # Never reached: the longest game there can be has 1,959 events (six seats, 13 turns each of
    # 3 rolls, 20 marks, a box and a timed-out turn; the start, the end, the seats leaving).
    max_events=2500,
    dice=yatzy.DICE,
    clock_kept_by=frozenset({yatzy.BoxSelected.type}),
    # The seeds' auto-confirm (000/001).
    rated_presets=MappingProxyType({"auto_confirm_seconds": (3.0,)}),
    refusals=(
        "invalid_dice_indices",
        "too_many_dice",
        "unknown_box",
        "no_rolls_left",
        "hold_before_first_roll",
        "roll_first",
        "box_used",
        "box_not_allowed",
        "too_many_selects",
    ),
    option_labels=MappingProxyType({"auto_confirm_seconds": _("Auto-confirm (seconds)")}),
    auto_confirm=AutoConfirm(
        seconds=_auto_confirm_seconds,
        restarted_by=_rolled,
        move=auto_confirm_move,
    ),
    analyst=Analyst(
        module="ai.analysis.yatzy",
        values=_(
            "Expected final scores from the exact table of the optimal player (dynamic "
            "programming over every sheet, 254.48 from an empty sheet): a seat's value is its "
            "points plus the expected points still to come under optimal play."
        ),
    ),
)
