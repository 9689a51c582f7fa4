"""Yatzy's vocabulary: options, commands, events and the state, with their JSON forms.

Pure Python, no Django. The engine that moves between them is ``games.rules.yatzy``, which
re-exports every name here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from games.rules.base import RuleError, WireError, require_dice, wire_int, wire_ints
from games.rules.yatzy_scoring import (
    BOXES,
    SheetTotals,
    must_sacrifice,
    score_options,
    sheet_totals,
    yatzy_bonus,
)

DICE = 5
ROLLS_PER_TURN = 3
ROUNDS = len(BOXES)
MIN_SEATS = 1
MAX_SEATS = 6
MAX_AUTO_CONFIRM_SECONDS = 60.0


# --- options ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class YatzyOptions:
    #: Delay before the server scores a turn whose rolls are used up; 0 turns it off (seed 004).
    auto_confirm_seconds: float = 3.0

    def to_wire(self) -> dict[str, Any]:
        return {"auto_confirm_seconds": self.auto_confirm_seconds}


def check_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleError("invalid_option", field="options.auto_confirm_seconds")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_AUTO_CONFIRM_SECONDS:
        raise RuleError("invalid_option", field="options.auto_confirm_seconds")
    return seconds


def options_from_wire(data: Mapping[str, Any] | None) -> YatzyOptions:
    """Options from a new-game request; missing keys take their defaults."""
    if data is None:
        return YatzyOptions()
    if not isinstance(data, Mapping):
        raise RuleError("invalid_option", field="options")
    for key in data:
        if key != "auto_confirm_seconds":
            raise RuleError("invalid_option", field=f"options.{key}")
    seconds = check_seconds(data.get("auto_confirm_seconds", YatzyOptions.auto_confirm_seconds))
    return YatzyOptions(auto_confirm_seconds=seconds)


# --- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    seat: int
    #: Indices (0-4) of the current dice to keep; the other positions are thrown again.
    hold: tuple[int, ...] = ()


@dataclass(frozen=True)
class Score:
    seat: int
    box: str


@dataclass(frozen=True)
class Select:
    """Mark a box as chosen without confirming it (``None`` clears the mark). Auto-confirm scores
    the marked box when the player lets the timer run out."""

    seat: int
    box: str | None


Command: TypeAlias = Roll | Score | Select


def check_hold(hold: object) -> tuple[int, ...]:
    if not isinstance(hold, list | tuple):
        raise RuleError("invalid_dice_indices", field="hold")
    indices = tuple(hold)
    if not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < DICE for i in indices
    ) or len(set(indices)) != len(indices):
        raise RuleError("invalid_dice_indices", field="hold")
    return indices


def command_from_wire(data: Mapping[str, Any], seat: int) -> Command:
    """Decode ``{"type": "roll", "hold": [0, 3]}`` or ``{"type": "score", "box": "chance"}``."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind == "roll":
        return Roll(seat=seat, hold=check_hold(data.get("hold", [])))
    if kind == "score":
        box = data.get("box")
        if not isinstance(box, str) or box not in BOXES:
            raise RuleError("unknown_box", field="box")
        return Score(seat=seat, box=box)
    if kind == "select":
        selected = data.get("box")
        if selected is not None and (not isinstance(selected, str) or selected not in BOXES):
            raise RuleError("unknown_box", field="box")
        return Select(seat=seat, box=selected)
    raise RuleError("unknown_move", field="type")


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    type: ClassVar[str] = "game_started"
    seats: int
    options: YatzyOptions = field(default_factory=YatzyOptions)

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seats": self.seats, "options": self.options.to_wire()}


@dataclass(frozen=True)
class DiceRolled:
    type: ClassVar[str] = "dice_rolled"
    seat: int
    roll_number: int
    #: Indices kept from the previous roll, ascending.
    held: tuple[int, ...]
    #: All five dice after the roll, by position.
    dice: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seat": self.seat,
            "roll_number": self.roll_number,
            "held": list(self.held),
            "dice": list(self.dice),
        }


@dataclass(frozen=True)
class BoxScored:
    type: ClassVar[str] = "box_scored"
    seat: int
    box: str
    points: int
    yatzy_bonus: int

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seat": self.seat,
            "box": self.box,
            "points": self.points,
            "yatzy_bonus": self.yatzy_bonus,
        }


@dataclass(frozen=True)
class BoxSelected:
    type: ClassVar[str] = "box_selected"
    seat: int
    box: str | None

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "box": self.box}


@dataclass(frozen=True)
class GameFinished:
    type: ClassVar[str] = "game_finished"
    totals: tuple[int, ...]
    places: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "totals": list(self.totals), "places": list(self.places)}


Event: TypeAlias = GameStarted | DiceRolled | BoxScored | BoxSelected | GameFinished


def _wire_options(data: Mapping[str, Any]) -> YatzyOptions:
    try:
        return options_from_wire(data.get("options"))
    except RuleError as error:
        raise WireError(f"bad options: {error.field}") from None


def event_from_wire(data: Mapping[str, Any]) -> Event:
    """Decode a stored event; ``WireError`` (a ``ValueError``) if this engine never writes it."""
    kind = data.get("type")
    if kind == GameStarted.type:
        return GameStarted(seats=wire_int(data, "seats"), options=_wire_options(data))
    if kind == DiceRolled.type:
        return DiceRolled(
            seat=wire_int(data, "seat"),
            roll_number=wire_int(data, "roll_number"),
            held=wire_ints(data, "held"),
            dice=wire_ints(data, "dice"),
        )
    if kind == BoxScored.type:
        box = data.get("box")
        if not isinstance(box, str):
            raise WireError(f"box: expected a string, got {box!r}")
        return BoxScored(
            seat=wire_int(data, "seat"),
            box=box,
            points=wire_int(data, "points"),
            yatzy_bonus=wire_int(data, "yatzy_bonus"),
        )
    if kind == BoxSelected.type:
        selected = data.get("box")
        if selected is not None and not isinstance(selected, str):
            raise WireError(f"box: expected a string or null, got {selected!r}")
        return BoxSelected(seat=wire_int(data, "seat"), box=selected)
    if kind == GameFinished.type:
        return GameFinished(totals=wire_ints(data, "totals"), places=wire_ints(data, "places"))
    raise WireError(f"not a yatzy event type: {kind!r}")


# --- state --------------------------------------------------------------------------------------

Sheet: TypeAlias = tuple[int | None, ...]


@dataclass(frozen=True)
class YatzyState:
    seats: int
    options: YatzyOptions
    #: Per seat, the 13 boxes in ``BOXES`` order; ``None`` = still free.
    sheets: tuple[Sheet, ...]
    yatzy_bonus_points: tuple[int, ...]
    turn_seat: int = 0
    round: int = 1
    #: The five dice by position; empty before the first roll of a turn.
    dice: tuple[int, ...] = ()
    rolls_used: int = 0
    #: The positions kept from the previous roll in the last roll (a client shows them held).
    held: tuple[int, ...] = ()
    #: The box marked but not confirmed for the current dice (see ``Select``).
    selected: str | None = None
    finished: bool = False
    #: Per seat, 1 = first; equal totals share a place. Empty until the game is finished.
    places: tuple[int, ...] = ()

    @property
    def current_seat(self) -> int | None:
        return None if self.finished else self.turn_seat

    @property
    def rolls_left(self) -> int:
        return 0 if self.finished else ROLLS_PER_TURN - self.rolls_used

    def sheet(self, seat: int) -> dict[str, int]:
        """The used boxes of ``seat`` with their points, in sheet order."""
        return {box: p for box, p in zip(BOXES, self.sheets[seat], strict=True) if p is not None}

    def totals(self, seat: int) -> SheetTotals:
        return sheet_totals(self.sheet(seat), self.yatzy_bonus_points[seat])

    def legal_boxes(self) -> dict[str, int]:
        """The boxes the seat to play may score now, with points (Yatzy bonus excluded)."""
        if self.finished or not self.dice:
            return {}
        return score_options(self.dice, self.sheet(self.turn_seat))

    @property
    def yatzy_bonus_now(self) -> int:
        """The Yatzy bonus scoring the current dice would earn (0 before the first roll)."""
        if self.finished or not self.dice:
            return 0
        return yatzy_bonus(self.dice, self.sheet(self.turn_seat))

    @property
    def must_sacrifice(self) -> bool:
        """The dice are rolled and no box the seat may choose scores anything."""
        if self.finished or not self.dice:
            return False
        return must_sacrifice(self.dice, self.sheet(self.turn_seat))

    def to_wire(self) -> dict[str, Any]:
        """The state as JSON-safe data; ``state_from_wire`` reads it back to an equal state."""
        return {
            "seats": self.seats,
            "options": self.options.to_wire(),
            "sheets": [dict(zip(BOXES, sheet, strict=True)) for sheet in self.sheets],
            "yatzy_bonus_points": list(self.yatzy_bonus_points),
            "turn_seat": self.turn_seat,
            "round": self.round,
            "dice": list(self.dice),
            "rolls_used": self.rolls_used,
            "held": list(self.held),
            "selected": self.selected,
            "finished": self.finished,
            "places": list(self.places),
        }


def _wire_sheet(raw: object) -> Sheet:
    if not isinstance(raw, Mapping) or set(raw) != set(BOXES):
        raise WireError(f"a sheet must map all 13 boxes, got {raw!r}")
    cells = tuple(raw[box] for box in BOXES)
    for cell in cells:
        if cell is not None and (not isinstance(cell, int) or isinstance(cell, bool) or cell < 0):
            raise WireError(f"bad box points: {cell!r}")
    return cells


def state_from_wire(data: Mapping[str, Any]) -> YatzyState:
    """Rebuild a state from ``YatzyState.to_wire()``; ``WireError`` if the data is not one."""
    sheets = data.get("sheets")
    if not isinstance(sheets, list):
        raise WireError("sheets: expected a list")
    finished = data.get("finished")
    if not isinstance(finished, bool):
        raise WireError("finished: expected a bool")
    state = YatzyState(
        seats=wire_int(data, "seats"),
        options=_wire_options(data),
        sheets=tuple(_wire_sheet(s) for s in sheets),
        yatzy_bonus_points=wire_ints(data, "yatzy_bonus_points"),
        turn_seat=wire_int(data, "turn_seat"),
        round=wire_int(data, "round"),
        dice=_wire_dice(data),
        rolls_used=wire_int(data, "rolls_used"),
        held=wire_ints(data, "held"),
        selected=_wire_selected(data),
        finished=finished,
        places=wire_ints(data, "places"),
    )
    _check_state(state)
    return state


def _wire_selected(data: Mapping[str, Any]) -> str | None:
    selected = data.get("selected")
    if selected is not None and selected not in BOXES:
        raise WireError(f"selected: not a box: {selected!r}")
    return selected if isinstance(selected, str) else None


def _wire_dice(data: Mapping[str, Any]) -> tuple[int, ...]:
    try:
        return require_dice(wire_ints(data, "dice"))
    except ValueError as error:
        raise WireError(str(error)) from None


def _check_state(state: YatzyState) -> None:
    n = state.seats
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise WireError(f"bad seat count {n}")
    if len(state.sheets) != n or len(state.yatzy_bonus_points) != n:
        raise WireError("one sheet and one Yatzy bonus per seat")
    if not 0 <= state.turn_seat < n or not 1 <= state.round <= ROUNDS:
        raise WireError("turn out of range")
    dice_expected = 0 if state.rolls_used == 0 else DICE
    if not 0 <= state.rolls_used <= ROLLS_PER_TURN or len(state.dice) != dice_expected:
        raise WireError("dice do not match the rolls used")
    if any(not 0 <= i < len(state.dice) for i in state.held):
        raise WireError("held positions outside the dice")
    if len(state.places) != (n if state.finished else 0):
        raise WireError("places are set exactly when the game is finished")
