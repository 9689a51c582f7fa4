"""Yatzy's vocabulary: options, commands, events and the state, with their JSON forms (the
engine, ``games.rules.yatzy``, re-exports every name here)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, TypeAlias, get_args

from games.rules import base, ending
from games.rules.base import (
    OMITTED_IF_NONE,
    Choices,
    CommandSeat,
    Dice,
    Doc,
    RuleError,
    TaggedUnion,
    Wire,
    WireError,
    WireForm,
    stored_options,
    unknown_move,
)
from games.rules.fairness import RevealedSeed, RollSeed, StartCommitment
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
#: Marks (``Select``) a turn may make: a turn cannot be held by marking boxes on and on.
MAX_SELECTS_PER_TURN = 20


def check_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleError("invalid_option", field="options.auto_confirm_seconds")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_AUTO_CONFIRM_SECONDS:
        raise RuleError("invalid_option", field="options.auto_confirm_seconds")
    return seconds


@dataclass(frozen=True)
class YatzyOptions(WireForm):
    #: Delay before the server scores a turn whose rolls are used up; 0 turns it off (seed 004).
    auto_confirm_seconds: Annotated[
        float, Wire(decode=check_seconds), Doc(minimum=0, maximum=MAX_AUTO_CONFIRM_SECONDS)
    ] = 3.0


def options_from_wire(data: Mapping[str, Any] | None) -> YatzyOptions:
    """Options from a new-game request; missing keys take their defaults."""
    return base.options_from_wire(YatzyOptions, data)


#: The options as an event or a state stores them.
Options = Annotated[YatzyOptions, stored_options(YatzyOptions)]


def read_hold(hold: object) -> tuple[int, ...]:
    """A roll's ``hold`` as a client sends it: its length first, so that a list of 100,000 is
    refused unread, then its positions."""
    if isinstance(hold, list | tuple) and len(hold) > DICE:
        raise RuleError("too_many_dice", field="hold", max=DICE)
    return check_hold(hold)


def check_hold(hold: object) -> tuple[int, ...]:
    if not isinstance(hold, list | tuple):
        raise RuleError("invalid_dice_indices", field="hold")
    indices = tuple(hold)
    if not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < DICE for i in indices
    ) or len(set(indices)) != len(indices):
        raise RuleError("invalid_dice_indices", field="hold")
    return indices


#: The boxes' names, as the API's schema names their set.
BOX_NAMES = Choices("YatzyBoxEnum", BOXES)


def check_box(box: object) -> str:
    if not isinstance(box, str) or box not in BOXES:
        raise RuleError("unknown_box", field="box")
    return box


def check_selection(box: object) -> str | None:
    return None if box is None else check_box(box)


@dataclass(frozen=True)
class Roll(WireForm):
    type: ClassVar[str] = "roll"
    seat: CommandSeat
    hold: Annotated[
        tuple[int, ...], Wire(decode=read_hold), Doc("Positions (0-4) of the dice to keep", DICE)
    ] = ()


@dataclass(frozen=True)
class Score(WireForm):
    type: ClassVar[str] = "score"
    seat: CommandSeat
    box: Annotated[str, Wire(decode=check_box), BOX_NAMES, Doc("The box to fill")]


@dataclass(frozen=True)
class Select(WireForm):
    """Mark a box as chosen without confirming it (``None`` clears the mark). Auto-confirm scores
    the marked box when the player lets the timer run out."""

    type: ClassVar[str] = "select"
    seat: CommandSeat
    box: Annotated[
        str | None,
        Wire(decode=check_selection),
        BOX_NAMES,
        Doc("The box to mark; null: none"),
    ]


Command: TypeAlias = Roll | Score | Select | ending.Command
COMMANDS = TaggedUnion[Command](Roll, Score, Select, *ending.COMMANDS, unknown=unknown_move)


def command_from_wire(data: Mapping[str, Any], seat: int) -> Command:
    """Decode ``{"type": "roll", "hold": [0, 3]}`` or ``{"type": "score", "box": "chance"}``."""
    return COMMANDS.decode(data, seat=seat)


@dataclass(frozen=True)
class GameStarted(WireForm):
    type: ClassVar[str] = "game_started"
    seats: int
    options: Options = field(default_factory=YatzyOptions)
    #: The fair dice's commitment (``games.rules.fairness``); None for a game without one.
    fairness: StartCommitment = None


@dataclass(frozen=True)
class DiceRolled(WireForm):
    type: ClassVar[str] = "dice_rolled"
    seat: int
    roll_number: int
    #: Indices kept from the previous roll, ascending.
    held: tuple[int, ...]
    #: All five dice after the roll, by position.
    dice: tuple[int, ...]
    #: Fair dice version 2: the client seed of the seat's rolls, in its first roll only.
    client_seed: RollSeed = None


@dataclass(frozen=True)
class BoxScored(WireForm):
    type: ClassVar[str] = "box_scored"
    seat: int
    box: str
    points: int
    yatzy_bonus: int


@dataclass(frozen=True)
class BoxSelected(WireForm):
    type: ClassVar[str] = "box_selected"
    seat: int
    box: str | None


@dataclass(frozen=True)
class GameFinished(WireForm):
    type: ClassVar[str] = "game_finished"
    totals: tuple[int, ...]
    places: tuple[int, ...]
    #: The fair dice's server seed, revealed (hex); None for a game without fair dice.
    server_seed: RevealedSeed = None


Event: TypeAlias = (
    GameStarted
    | DiceRolled
    | BoxScored
    | BoxSelected
    | GameFinished
    | ending.SeatLeft
    | ending.GameAborted
    | ending.TurnTimedOut
    | ending.GameAdjudicated
    | ending.LimitReached
)
EVENTS = TaggedUnion[Event](
    *get_args(Event), unknown=lambda kind: WireError(f"not a yatzy event type: {kind!r}")
)


#: A stored event; ``WireError`` (a ``ValueError``) if this engine never writes it.
event_from_wire = EVENTS.decode


def _box_on_wire(box: str) -> str:
    if box not in BOXES:
        raise WireError(f"not a box: {box!r}")
    return box


#: The name of one of the 13 boxes.
Box = Annotated[str, Wire(check=_box_on_wire), BOX_NAMES]


def _sheet_to_wire(sheet: tuple[int | None, ...]) -> dict[str, int | None]:
    return dict(zip(BOXES, sheet, strict=True))


_BOX_NAMES = frozenset(BOXES)


def _sheet_from_wire(raw: object) -> tuple[int | None, ...]:
    if not isinstance(raw, Mapping) or raw.keys() != _BOX_NAMES:
        raise WireError(f"a sheet must map all 13 boxes, got {raw!r}")
    cells = tuple(map(raw.__getitem__, BOXES))
    for cell in cells:
        if cell is not None and (type(cell) is not int or cell < 0):  # a bool is no points
            raise WireError(f"bad box points: {cell!r}")
    return cells


#: The 13 boxes in ``BOXES`` order, ``None`` = still free; on the wire, an object by box name.
Sheet: TypeAlias = Annotated[
    tuple[int | None, ...], Wire(encode=_sheet_to_wire, decode=_sheet_from_wire)
]


@dataclass(frozen=True)
class YatzyState(WireForm):
    seats: int
    options: Options
    #: One sheet per seat.
    sheets: tuple[Sheet, ...]
    yatzy_bonus_points: tuple[int, ...]
    turn_seat: int = 0
    round: int = 1
    #: The five dice by position; empty before the first roll of a turn.
    dice: Dice = ()
    rolls_used: int = 0
    #: The positions kept from the previous roll in the last roll (a client shows them held).
    held: tuple[int, ...] = ()
    #: The box marked but not confirmed for the current dice (see ``Select``).
    selected: Box | None = None
    finished: bool = False
    #: Per seat, 1 = first, equal totals sharing; empty unless finished (and not aborted).
    places: tuple[int, ...] = ()
    #: The marks made this turn (at most ``MAX_SELECTS_PER_TURN``).
    selects: int = 0
    #: Seats that left the game (``games.rules.ending``), in the order they left.
    out: tuple[int, ...] = ()
    #: Seats that have made a move (a game may be aborted until every seat has).
    moved: tuple[int, ...] = ()
    #: Per seat, its timed-out turns in a row (empty until a turn times out: none).
    timeouts: tuple[int, ...] = ()
    #: The game was called off: finished, with no places.
    aborted: bool = False
    #: ``ending``'s; absent (None) until set, so older snapshots stay as they were.
    adjudicated: Annotated[bool | None, OMITTED_IF_NONE] = None
    limit_reached: Annotated[bool | None, OMITTED_IF_NONE] = None

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


def state_from_wire(data: Mapping[str, Any]) -> YatzyState:
    """Rebuild a state from ``YatzyState.to_wire()``; ``WireError`` if the data is not one."""
    state = YatzyState.from_wire(data)
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
    if len(state.places) != (n if state.finished and not state.aborted else 0):
        raise WireError("places are set exactly when the game is finished")
    if (state.aborted and not state.finished) or not 0 <= state.selects <= MAX_SELECTS_PER_TURN:
        raise WireError("an aborted game is finished; selects within the cap")
    ending.check_state(state)
    return state
