"""Yatzy (RULES.md, Game 1) as a pure event-sourced engine. No Django import.

``start`` opens a game, ``decide`` turns a command into events (or raises ``RuleError``), ``apply``
folds one event into the state; a game is exactly ``replay(events)``. The scoring vocabulary
(``BOXES``, ``score_options``, ``yatzy_bonus`` ...) lives in ``yatzy_scoring`` and is re-exported.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeAlias

from games.rules import base
from games.rules.base import DiceRoller, RuleError, require_dice
from games.rules.yatzy_scoring import (
    BOXES,
    LOWER_BOXES,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    UPPER_BOXES,
    YATZY_BONUS,
    SheetTotals,
    box_index,
    box_points,
    must_sacrifice,
    score_options,
    sheet_totals,
    yatzy_bonus,
)

__all__ = [
    "BOXES",
    "LOWER_BOXES",
    "MAX_SEATS",
    "ROLLS_PER_TURN",
    "ROUNDS",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "UPPER_BOXES",
    "YATZY_BONUS",
    "BoxScored",
    "Command",
    "DiceRolled",
    "Event",
    "GameFinished",
    "GameStarted",
    "Roll",
    "Score",
    "SheetTotals",
    "WireError",
    "YatzyOptions",
    "YatzyState",
    "apply",
    "box_points",
    "command_from_wire",
    "decide",
    "event_from_wire",
    "must_sacrifice",
    "options_from_wire",
    "places_for",
    "replay",
    "score_options",
    "sheet_totals",
    "start",
    "state_from_wire",
    "yatzy_bonus",
]

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


def _check_seconds(value: object) -> float:
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
    seconds = _check_seconds(data.get("auto_confirm_seconds", YatzyOptions.auto_confirm_seconds))
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


def _check_hold(hold: object) -> tuple[int, ...]:
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
        return Roll(seat=seat, hold=_check_hold(data.get("hold", [])))
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


class WireError(ValueError):
    """Stored data (an event, a state snapshot) that this engine did not write."""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise WireError(f"{key}: expected an int, got {value!r}")
    return value


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise WireError(f"{key}: expected a list of ints, got {value!r}")
    return tuple(value)


def _wire_options(data: Mapping[str, Any]) -> YatzyOptions:
    try:
        return options_from_wire(data.get("options"))
    except RuleError as error:
        raise WireError(f"bad options: {error.field}") from None


def event_from_wire(data: Mapping[str, Any]) -> Event:
    """Decode a stored event; ``WireError`` (a ``ValueError``) if this engine never writes it."""
    kind = data.get("type")
    if kind == GameStarted.type:
        return GameStarted(seats=_int(data, "seats"), options=_wire_options(data))
    if kind == DiceRolled.type:
        return DiceRolled(
            seat=_int(data, "seat"),
            roll_number=_int(data, "roll_number"),
            held=_ints(data, "held"),
            dice=_ints(data, "dice"),
        )
    if kind == BoxScored.type:
        box = data.get("box")
        if not isinstance(box, str):
            raise WireError(f"box: expected a string, got {box!r}")
        return BoxScored(
            seat=_int(data, "seat"),
            box=box,
            points=_int(data, "points"),
            yatzy_bonus=_int(data, "yatzy_bonus"),
        )
    if kind == BoxSelected.type:
        selected = data.get("box")
        if selected is not None and not isinstance(selected, str):
            raise WireError(f"box: expected a string or null, got {selected!r}")
        return BoxSelected(seat=_int(data, "seat"), box=selected)
    if kind == GameFinished.type:
        return GameFinished(totals=_ints(data, "totals"), places=_ints(data, "places"))
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
        seats=_int(data, "seats"),
        options=_wire_options(data),
        sheets=tuple(_wire_sheet(s) for s in sheets),
        yatzy_bonus_points=_ints(data, "yatzy_bonus_points"),
        turn_seat=_int(data, "turn_seat"),
        round=_int(data, "round"),
        dice=_wire_dice(data),
        rolls_used=_int(data, "rolls_used"),
        held=_ints(data, "held"),
        selected=_wire_selected(data),
        finished=finished,
        places=_ints(data, "places"),
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
        return require_dice(_ints(data, "dice"))
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


# --- the engine ---------------------------------------------------------------------------------


def start(seats: int, options: Mapping[str, Any] | YatzyOptions | None = None) -> list[Event]:
    """The events that open a game of ``seats`` players (1-6)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("invalid_seat_count", field="seats", min=MIN_SEATS, max=MAX_SEATS)
    if isinstance(options, YatzyOptions):
        opts = YatzyOptions(_check_seconds(options.auto_confirm_seconds))
    else:
        opts = options_from_wire(options)
    return [GameStarted(seats=seats, options=opts)]


def decide(state: YatzyState, command: Command, roller: DiceRoller) -> list[Event]:
    """The events ``command`` causes in ``state``; ``RuleError`` (nothing happens) if illegal.

    Checks run in this order: ``game_finished``, ``not_your_turn``, the shape of the command
    (``invalid_dice_indices``, ``unknown_box``), then what the turn allows.
    """
    if state.finished:
        raise RuleError("game_finished")
    if command.seat != state.turn_seat:
        raise RuleError("not_your_turn", current_seat=state.turn_seat)
    if isinstance(command, Roll):
        return [_decide_roll(state, command, roller)]
    if isinstance(command, Score):
        return _decide_score(state, command)
    if isinstance(command, Select):
        return [_decide_select(state, command)]
    raise RuleError("unknown_move", field="type")


def _decide_roll(state: YatzyState, command: Roll, roller: DiceRoller) -> DiceRolled:
    held = tuple(sorted(_check_hold(command.hold)))
    if state.rolls_used >= ROLLS_PER_TURN:
        raise RuleError("no_rolls_left")
    if state.rolls_used == 0:
        if held:
            raise RuleError("hold_before_first_roll", field="hold")
        dice = require_dice(roller(DICE), DICE)
    else:
        thrown = [i for i in range(DICE) if i not in held]
        # Holding all five is a legal (if pointless) roll; the roller is not asked for zero dice.
        faces = require_dice(roller(len(thrown)), len(thrown)) if thrown else ()
        new = list(state.dice)
        for position, face in zip(thrown, faces, strict=True):
            new[position] = face
        dice = tuple(new)
    return DiceRolled(seat=command.seat, roll_number=state.rolls_used + 1, held=held, dice=dice)


def _legal_box_points(state: YatzyState, box: object) -> tuple[dict[str, int], int]:
    """The sheet of the seat to play and the points ``box`` would score now, or a rule error."""
    if not isinstance(box, str) or box not in BOXES:
        raise RuleError("unknown_box", field="box")
    if not state.dice:
        raise RuleError("roll_first")
    sheet = state.sheet(state.turn_seat)
    if box in sheet:
        raise RuleError("box_used", field="box", box=box)
    options = score_options(state.dice, sheet)
    if box not in options:
        raise RuleError("box_not_allowed", field="box", box=box, allowed=list(options))
    return sheet, options[box]


def _decide_select(state: YatzyState, command: Select) -> BoxSelected:
    if command.box is not None:
        _legal_box_points(state, command.box)
    elif not state.dice:
        raise RuleError("roll_first")
    return BoxSelected(seat=command.seat, box=command.box)


def _decide_score(state: YatzyState, command: Score) -> list[Event]:
    sheet, points = _legal_box_points(state, command.box)
    scored = BoxScored(
        seat=command.seat,
        box=command.box,
        points=points,
        yatzy_bonus=yatzy_bonus(state.dice, sheet),
    )
    after = apply(state, scored)
    if not all(None not in s for s in after.sheets):
        return [scored]
    totals = tuple(after.totals(seat).total for seat in range(after.seats))
    return [scored, GameFinished(totals=totals, places=places_for(totals))]


def places_for(totals: Sequence[int]) -> tuple[int, ...]:
    """1 + the number of strictly higher totals: equal totals share a place (1, 1, 3 ...)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def apply(state: YatzyState | None, event: Event) -> YatzyState:
    """Fold one event into the state. ``ValueError`` for an event that cannot follow ``state``."""
    if isinstance(event, GameStarted):
        if state is not None:
            raise ValueError("game_started must be the first event")
        return _started(event)
    if state is None:
        raise ValueError(f"{event.type} before game_started")
    if state.finished:
        raise ValueError(f"{event.type} after the game finished")
    if isinstance(event, DiceRolled):
        return _rolled(state, event)
    if isinstance(event, BoxScored):
        return _scored(state, event)
    if isinstance(event, BoxSelected):
        if event.seat != state.turn_seat or not state.dice:
            raise ValueError(f"unexpected selection {event!r}")
        return replace(state, selected=event.box)
    return _finished(state, event)


def _started(event: GameStarted) -> YatzyState:
    if not MIN_SEATS <= event.seats <= MAX_SEATS:
        raise ValueError(f"bad seat count {event.seats}")
    return YatzyState(
        seats=event.seats,
        options=event.options,
        sheets=((None,) * len(BOXES),) * event.seats,
        yatzy_bonus_points=(0,) * event.seats,
    )


def _rolled(state: YatzyState, event: DiceRolled) -> YatzyState:
    if event.seat != state.turn_seat or event.roll_number != state.rolls_used + 1:
        raise ValueError(f"unexpected roll {event!r}")
    if event.roll_number > ROLLS_PER_TURN or any(
        not 0 <= i < DICE or state.dice[i] != event.dice[i] for i in event.held
    ):
        raise ValueError(f"roll does not follow the previous dice: {event!r}")
    return replace(
        state,
        dice=require_dice(event.dice, DICE),
        rolls_used=event.roll_number,
        held=tuple(event.held),
        selected=None,  # a mark made for the previous dice may not be legal for these
    )


def _scored(state: YatzyState, event: BoxScored) -> YatzyState:
    index = box_index(event.box)
    seat = event.seat
    if seat != state.turn_seat or not state.dice or state.sheets[seat][index] is not None:
        raise ValueError(f"unexpected score {event!r}")
    sheet = list(state.sheets[seat])
    sheet[index] = event.points
    bonuses = list(state.yatzy_bonus_points)
    bonuses[seat] += event.yatzy_bonus
    next_seat = (seat + 1) % state.seats
    # After the last turn of the game the round stays at 13; game_finished follows at once.
    next_round = state.round + 1 if next_seat == 0 and state.round < ROUNDS else state.round
    return replace(
        state,
        sheets=(*state.sheets[:seat], tuple(sheet), *state.sheets[seat + 1 :]),
        yatzy_bonus_points=tuple(bonuses),
        turn_seat=next_seat,
        round=next_round,
        dice=(),
        rolls_used=0,
        held=(),
        selected=None,
    )


def _finished(state: YatzyState, event: GameFinished) -> YatzyState:
    if any(None in sheet for sheet in state.sheets) or len(event.places) != state.seats:
        raise ValueError("game_finished before every box is used")
    return replace(state, finished=True, places=tuple(event.places))


def replay(events: Iterable[Event]) -> YatzyState:
    """The state of a game is exactly the fold of its events."""
    return base.replay(apply, events)
