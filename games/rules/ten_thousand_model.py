"""Dés 10 000's vocabulary: options, commands, events and the state, with their JSON forms.

Pure Python, no Django. The engine that moves between them is ``games.rules.ten_thousand``, which
re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from games.rules.base import (
    RuleError,
    WireError,
    require_dice,
    wire_bool,
    wire_int,
    wire_int_list,
    wire_ints,
)
from games.rules.ten_thousand_scoring import (
    DICE,
    farkle_probability,
    is_farkle,
)

TARGETS = (5000, 10000, 15000)
DEFAULT_TARGET = 10000
MIN_SEATS = 1
MAX_SEATS = 7


# --- options ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TenThousandOptions:
    #: The total that triggers the last round: one of ``TARGETS``.
    target: int = DEFAULT_TARGET

    def to_wire(self) -> dict[str, Any]:
        return {"target": self.target}


def check_target(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in TARGETS:
        raise RuleError("invalid_option", field="options.target", allowed=list(TARGETS))
    return value


def options_from_wire(data: Mapping[str, Any] | None) -> TenThousandOptions:
    """Options from a new-game request; missing keys take their defaults."""
    if data is None:
        return TenThousandOptions()
    if not isinstance(data, Mapping):
        raise RuleError("invalid_option", field="options")
    for key in data:
        if key != "target":
            raise RuleError("invalid_option", field=f"options.{key}")
    return TenThousandOptions(target=check_target(data.get("target", DEFAULT_TARGET)))


# --- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """Set aside ``keep`` (indices into the current roll) and throw the other dice.

    At the start of a turn there is no roll: ``keep`` must be empty and all the dice in play are
    thrown. After hot dice all six are thrown again.
    """

    type: ClassVar[str] = "roll"
    seat: int
    keep: tuple[int, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "keep": list(self.keep)}


@dataclass(frozen=True)
class Bank:
    """Set aside ``keep`` from the current roll, then add the turn's points to the seat's total."""

    type: ClassVar[str] = "bank"
    seat: int
    keep: tuple[int, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "keep": list(self.keep)}


Command: TypeAlias = Roll | Bank


def command_from_wire(data: Mapping[str, Any], seat: int) -> Command:
    """Decode ``{"type": "roll" | "bank", "keep": [0, 2]}``; ``keep`` defaults to ``[]``."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind not in (Roll.type, Bank.type):
        raise RuleError("unknown_move", field="type")
    keep = wire_int_list(data, "keep")
    if len(set(keep)) != len(keep):
        raise RuleError("invalid_dice_indices", field="keep")
    return Roll(seat=seat, keep=keep) if kind == Roll.type else Bank(seat=seat, keep=keep)


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    type: ClassVar[str] = "game_started"
    seats: int
    options: TenThousandOptions = field(default_factory=TenThousandOptions)

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seats": self.seats, "options": self.options.to_wire()}


@dataclass(frozen=True)
class DiceRolled:
    type: ClassVar[str] = "dice_rolled"
    seat: int
    dice: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "dice": list(self.dice)}


@dataclass(frozen=True)
class DiceSetAside:
    type: ClassVar[str] = "dice_set_aside"
    seat: int
    #: Positions in the roll, ascending; ``dice`` are the faces at those positions.
    indices: tuple[int, ...]
    dice: tuple[int, ...]
    points: int

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seat": self.seat,
            "indices": list(self.indices),
            "dice": list(self.dice),
            "points": self.points,
        }


@dataclass(frozen=True)
class HotDice:
    type: ClassVar[str] = "hot_dice"
    seat: int
    turn_points: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "turn_points": self.turn_points}


@dataclass(frozen=True)
class RoundLost:
    type: ClassVar[str] = "round_lost"
    seat: int
    lost_points: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "lost_points": self.lost_points}


@dataclass(frozen=True)
class TurnBanked:
    type: ClassVar[str] = "turn_banked"
    seat: int
    points: int
    #: The seat's total after banking.
    total: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "points": self.points, "total": self.total}


@dataclass(frozen=True)
class LastRoundStarted:
    type: ClassVar[str] = "last_round_started"
    #: The seat that reached the target; the game ends when the turn comes back to it.
    seat: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


@dataclass(frozen=True)
class GameFinished:
    type: ClassVar[str] = "game_finished"
    totals: tuple[int, ...]
    places: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "totals": list(self.totals), "places": list(self.places)}


Event: TypeAlias = (
    GameStarted
    | DiceRolled
    | DiceSetAside
    | HotDice
    | RoundLost
    | TurnBanked
    | LastRoundStarted
    | GameFinished
)


def _wire_options(data: Mapping[str, Any]) -> TenThousandOptions:
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
        return DiceRolled(seat=wire_int(data, "seat"), dice=require_dice(wire_ints(data, "dice")))
    if kind == DiceSetAside.type:
        return DiceSetAside(
            seat=wire_int(data, "seat"),
            indices=wire_ints(data, "indices"),
            dice=require_dice(wire_ints(data, "dice")),
            points=wire_int(data, "points"),
        )
    if kind == HotDice.type:
        return HotDice(seat=wire_int(data, "seat"), turn_points=wire_int(data, "turn_points"))
    if kind == RoundLost.type:
        return RoundLost(seat=wire_int(data, "seat"), lost_points=wire_int(data, "lost_points"))
    if kind == TurnBanked.type:
        return TurnBanked(
            seat=wire_int(data, "seat"),
            points=wire_int(data, "points"),
            total=wire_int(data, "total"),
        )
    if kind == LastRoundStarted.type:
        return LastRoundStarted(seat=wire_int(data, "seat"))
    if kind == GameFinished.type:
        return GameFinished(totals=wire_ints(data, "totals"), places=wire_ints(data, "places"))
    raise WireError(f"not a ten_thousand event type: {kind!r}")


# --- state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TenThousandState:
    seats: int
    options: TenThousandOptions
    #: Banked points per seat.
    totals: tuple[int, ...]
    turn_seat: int = 0
    #: The roll waiting for the player to set dice aside; empty when the seat must roll.
    roll: tuple[int, ...] = ()
    #: The dice set aside this turn, one group per roll, and what each group scored.
    kept: tuple[tuple[int, ...], ...] = ()
    kept_points: tuple[int, ...] = ()
    turn_points: int = 0
    #: Dice not set aside since the turn began or since the last hot dice: with no roll pending,
    #: how many the next roll throws; with a roll pending, its size.
    dice_in_play: int = DICE
    #: All six dice were set aside; stays true beside the six fresh dice until some are set aside
    #: again, so a client can show "Hot dice!" next to that roll.
    hot_dice: bool = False
    last_round: bool = False
    last_round_trigger: int | None = None
    finished: bool = False
    #: Per seat, 1 = first; equal totals share a place. Empty until the game is finished.
    places: tuple[int, ...] = ()

    @property
    def target(self) -> int:
        return self.options.target

    @property
    def current_seat(self) -> int | None:
        return None if self.finished else self.turn_seat

    @property
    def can_bank(self) -> bool:
        """A ``Bank`` is possible now (with a scoring ``keep`` when a roll is pending)."""
        if self.finished:
            return False
        if self.roll:
            return not is_farkle(self.roll)
        return self.turn_points > 0

    @property
    def farkle_risk(self) -> float:
        """The chance of a lost round when ``dice_in_play`` dice are thrown.

        With a roll pending that is the risk that roll ran; ``risk_after_keep`` gives the next one.
        """
        return farkle_probability(self.dice_in_play) if self.dice_in_play else 0.0

    def risk_after_keep(self, count: int) -> float:
        """The risk of the next roll if ``count`` dice of the pending roll are set aside."""
        left = self.dice_in_play - count
        return farkle_probability(left if left > 0 else DICE)

    def to_wire(self) -> dict[str, Any]:
        """The state as JSON-safe data; ``state_from_wire`` reads it back to an equal state."""
        return {
            "seats": self.seats,
            "options": self.options.to_wire(),
            "totals": list(self.totals),
            "turn_seat": self.turn_seat,
            "roll": list(self.roll),
            "kept": [list(group) for group in self.kept],
            "kept_points": list(self.kept_points),
            "turn_points": self.turn_points,
            "dice_in_play": self.dice_in_play,
            "hot_dice": self.hot_dice,
            "last_round": self.last_round,
            "last_round_trigger": self.last_round_trigger,
            "finished": self.finished,
            "places": list(self.places),
        }


def state_from_wire(data: Mapping[str, Any]) -> TenThousandState:
    """Rebuild a state from ``TenThousandState.to_wire()``; ``WireError`` if it is not one."""
    kept = data.get("kept")
    if not isinstance(kept, list):
        raise WireError("kept: expected a list")
    trigger = data.get("last_round_trigger")
    state = TenThousandState(
        seats=wire_int(data, "seats"),
        options=_wire_options(data),
        totals=wire_ints(data, "totals"),
        turn_seat=wire_int(data, "turn_seat"),
        roll=require_dice(wire_ints(data, "roll")),
        kept=tuple(require_dice(wire_ints({"group": group}, "group")) for group in kept),
        kept_points=wire_ints(data, "kept_points"),
        turn_points=wire_int(data, "turn_points"),
        dice_in_play=wire_int(data, "dice_in_play"),
        hot_dice=wire_bool(data, "hot_dice"),
        last_round=wire_bool(data, "last_round"),
        last_round_trigger=None if trigger is None else wire_int(data, "last_round_trigger"),
        finished=wire_bool(data, "finished"),
        places=wire_ints(data, "places"),
    )
    _check_state(state)
    return state


def _check_state(state: TenThousandState) -> None:
    n = state.seats
    if not MIN_SEATS <= n <= MAX_SEATS or len(state.totals) != n:
        raise WireError("bad seat count or totals")
    if not 0 <= state.turn_seat < n:
        raise WireError("turn out of range")
    if len(state.kept) != len(state.kept_points) or sum(state.kept_points) != state.turn_points:
        raise WireError("turn points do not match the dice set aside")
    if not 0 <= state.dice_in_play <= DICE or (
        state.roll and len(state.roll) != state.dice_in_play
    ):
        raise WireError("dice in play do not match the roll")
    if state.last_round != (state.last_round_trigger is not None):
        raise WireError("a last round has exactly one trigger seat")
    if len(state.places) != (n if state.finished else 0):
        raise WireError("places are set exactly when the game is finished")
