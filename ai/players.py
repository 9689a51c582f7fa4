"""The computer at a table: turns a rules state into the next command, as a client would send it.

Pure (no Django): the server's automatic moves call these and then take the one move path like any
client. Levels: yatzy ``optimal`` / ``casual``; ten_thousand ``expert`` / ``classic``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules.ten_thousand import TenThousandState
from games.rules.yatzy import YatzyState

YATZY_LEVELS = ("optimal", "casual")
TEN_THOUSAND_LEVELS = ("expert", "classic")
DEFAULT_LEVEL = {"yatzy": "optimal", "ten_thousand": "expert"}
LEVELS = {"yatzy": YATZY_LEVELS, "ten_thousand": TEN_THOUSAND_LEVELS}


def faces_to_indices(dice: Sequence[int], faces: Sequence[int]) -> list[int]:
    """Positions in ``dice`` showing ``faces`` (a sub-multiset), lowest positions first."""
    free = list(enumerate(dice))
    chosen = []
    for face in faces:
        for slot, (position, value) in enumerate(free):
            if value == face:
                chosen.append(position)
                del free[slot]
                break
        else:
            raise ValueError(f"{list(faces)} is not part of {list(dice)}")
    return sorted(chosen)


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
    return {"type": "roll", "hold": faces_to_indices(state.dice, move["hold"])}


def yatzy_auto_confirm_box(state: YatzyState) -> str:
    """The box auto-confirm scores: the one the player marked, else the optimal computer's box."""
    if state.selected is not None:
        return state.selected
    from ai import yatzy as policy

    move: Any = policy.best_move(state.dice, state.sheet(state.turn_seat), 0, "optimal")
    return str(move["box"])  # with no roll left the policy always names a box


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
    keep = faces_to_indices(state.roll, faces)
    return {"type": "bank" if bank else "roll", "keep": keep}


def next_command(kind: str, state: Any, level: str) -> dict[str, Any]:
    if kind == "yatzy":
        return yatzy_command(state, level)
    if kind == "ten_thousand":
        return ten_thousand_command(state, level)
    raise ValueError(f"no computer player for {kind!r}")


def hint_for(kind: str, state: Any) -> dict[str, Any]:
    """The best move for the seat to play, with its value where the policy knows it."""
    if kind == "yatzy":
        return _yatzy_hint(state)
    return {"move": ten_thousand_command(state, "expert"), "expected_value": None, "options": []}


def _yatzy_hint(state: YatzyState) -> dict[str, Any]:
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
