"""The computer at a table: turns a rules state into the next command, as a client would send it.

Pure (no Django): the server's automatic moves call these and then take the one move path like any
client. Each game kind names its computer's functions and the levels it offers (``games.kinds``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ai.positions import faces_to_indices
from games.rules.ten_thousand import TenThousandState
from games.rules.yatzy import YatzyState, stand_in_box

if TYPE_CHECKING:
    from ai.analysis import Analysis, Chart


def yatzy_command(state: YatzyState, level: str = "optimal") -> dict[str, Any]:
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


def yatzy_auto_confirm(state: YatzyState, assisted: bool) -> dict[str, Any]:
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


def yatzy_hint(state: YatzyState) -> dict[str, Any]:
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


def ten_thousand_command(state: TenThousandState, level: str = "expert") -> dict[str, Any]:
    from ai import ten_thousand as policy

    if not state.roll:
        return {"type": "roll"}
    faces, bank = policy.best_move(
        state.roll,
        state.turn_points,
        state.totals,
        state.turn_seat,
        state.target,
        state.last_round,
        level,
    )
    keep = list(faces_to_indices(state.roll, faces))
    return {"type": "bank" if bank else "roll", "keep": keep}


def ten_thousand_hint(state: TenThousandState) -> dict[str, Any]:
    """The expert's move for the seat to play (its policy gives no value to show)."""
    return {"move": ten_thousand_command(state, "expert"), "expected_value": None, "options": []}


def yatzy_analysis(events: Iterable[tuple[int, Any]]) -> Analysis:
    """A played game's analysis (``ai.analysis.yatzy``; its table is loaded on first use)."""
    from ai.analysis import yatzy as analysis

    return analysis.analyse(events)


def ten_thousand_analysis(events: Iterable[tuple[int, Any]]) -> Analysis:
    """A played game's analysis (``ai.analysis.ten_thousand``)."""
    from ai.analysis import ten_thousand as analysis

    return analysis.analyse(events)


def yatzy_chart(analysis: Analysis) -> Chart:
    from ai.analysis import yatzy as analysed

    return analysed.chart(analysis)


def ten_thousand_chart(analysis: Analysis) -> Chart:
    from ai.analysis import ten_thousand as analysed

    return analysed.chart(analysis)
