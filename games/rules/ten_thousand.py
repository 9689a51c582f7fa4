"""Dés 10 000 (RULES.md, Game 2) as a pure event-sourced engine. No Django import.

``start`` opens a game, ``decide`` turns a command into events (or raises ``RuleError``), ``apply``
folds one event into the state; a game is exactly ``replay(events)``. Scoring (``score_keep``,
``is_farkle``, ``farkle_probability`` ...) lives in ``ten_thousand_scoring`` and is re-exported.

Setting dice aside is part of the move that follows it (``Roll(keep)`` or ``Bank(keep)``), so a
client can never leave a turn half done nor set aside dice from an older roll. Between two commands
a state is therefore either the start of a turn (no roll, no turn points) or a roll that has at
least one scoring die and waits for the player.

Decisions this module makes where RULES.md is silent:

- Seats: 1 to 7 (up to 6 humans + the computer).
- Places: 1 + the number of strictly higher totals, so equal totals share a place (1, 1, 3).
- ``HotDice`` is emitted whenever the sixth die of the cycle is set aside, also by a ``Bank``: the
  replay shows "Hot dice!" for every turn that achieved it, whatever the player chose next.
- A lost round is announced even on the first roll of a turn (``lost_points`` is then 0).
- A one-seat game: the seat that banks up to the target triggers the last round; the turn comes
  straight back to it, so ``LastRoundStarted`` and ``GameFinished`` follow its ``TurnBanked``.
- During the last round, other seats that pass the target change nothing: the round still ends
  when the turn comes back to the seat that triggered it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeAlias

from games.rules import base
from games.rules.base import DiceRoller, RuleError, require_dice, wire_int_list
from games.rules.ten_thousand_scoring import (
    DICE,
    STRAIGHT_POINTS,
    THREE_PAIRS_POINTS,
    farkle_probability,
    is_farkle,
    keep_options,
    max_keep_points,
    n_alike_points,
    score_keep,
    scoring_indices,
)

__all__ = [
    "DEFAULT_TARGET",
    "DICE",
    "MAX_SEATS",
    "MIN_SEATS",
    "STRAIGHT_POINTS",
    "TARGETS",
    "THREE_PAIRS_POINTS",
    "Bank",
    "Command",
    "DiceRolled",
    "DiceSetAside",
    "Event",
    "GameFinished",
    "GameStarted",
    "HotDice",
    "LastRoundStarted",
    "Roll",
    "RoundLost",
    "TenThousandOptions",
    "TenThousandState",
    "TurnBanked",
    "WireError",
    "apply",
    "command_from_wire",
    "decide",
    "event_from_wire",
    "farkle_probability",
    "is_farkle",
    "keep_options",
    "max_keep_points",
    "n_alike_points",
    "options_from_wire",
    "places_for",
    "preview_keep",
    "replay",
    "score_keep",
    "scoring_indices",
    "start",
    "state_from_wire",
]

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


def _check_target(value: object) -> int:
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
    return TenThousandOptions(target=_check_target(data.get("target", DEFAULT_TARGET)))


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


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise WireError(f"{key}: expected a bool, got {value!r}")
    return value


def _wire_options(data: Mapping[str, Any]) -> TenThousandOptions:
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
        return DiceRolled(seat=_int(data, "seat"), dice=require_dice(_ints(data, "dice")))
    if kind == DiceSetAside.type:
        return DiceSetAside(
            seat=_int(data, "seat"),
            indices=_ints(data, "indices"),
            dice=require_dice(_ints(data, "dice")),
            points=_int(data, "points"),
        )
    if kind == HotDice.type:
        return HotDice(seat=_int(data, "seat"), turn_points=_int(data, "turn_points"))
    if kind == RoundLost.type:
        return RoundLost(seat=_int(data, "seat"), lost_points=_int(data, "lost_points"))
    if kind == TurnBanked.type:
        return TurnBanked(
            seat=_int(data, "seat"), points=_int(data, "points"), total=_int(data, "total")
        )
    if kind == LastRoundStarted.type:
        return LastRoundStarted(seat=_int(data, "seat"))
    if kind == GameFinished.type:
        return GameFinished(totals=_ints(data, "totals"), places=_ints(data, "places"))
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
        seats=_int(data, "seats"),
        options=_wire_options(data),
        totals=_ints(data, "totals"),
        turn_seat=_int(data, "turn_seat"),
        roll=require_dice(_ints(data, "roll")),
        kept=tuple(require_dice(_ints({"group": group}, "group")) for group in kept),
        kept_points=_ints(data, "kept_points"),
        turn_points=_int(data, "turn_points"),
        dice_in_play=_int(data, "dice_in_play"),
        hot_dice=_bool(data, "hot_dice"),
        last_round=_bool(data, "last_round"),
        last_round_trigger=None if trigger is None else _int(data, "last_round_trigger"),
        finished=_bool(data, "finished"),
        places=_ints(data, "places"),
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


# --- the engine ---------------------------------------------------------------------------------


def start(seats: int, options: Mapping[str, Any] | TenThousandOptions | None = None) -> list[Event]:
    """The events that open a game of ``seats`` players (1-7)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("invalid_seat_count", field="seats", min=MIN_SEATS, max=MAX_SEATS)
    if isinstance(options, TenThousandOptions):
        opts = TenThousandOptions(target=_check_target(options.target))
    else:
        opts = options_from_wire(options)
    return [GameStarted(seats=seats, options=opts)]


def _set_aside(state: TenThousandState, keep: Sequence[object]) -> DiceSetAside:
    roll = state.roll
    if not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(roll) for i in keep
    ) or len(set(keep)) != len(keep):
        raise RuleError("invalid_dice_indices", field="keep", dice_count=len(roll))
    indices = tuple(sorted(i for i in keep if isinstance(i, int)))
    dice = tuple(roll[i] for i in indices)
    points = score_keep(dice)
    if points is None:
        counting = scoring_indices(dice)
        offending = [i for j, i in enumerate(indices) if j not in counting]
        raise RuleError(
            "keep_not_scoring",
            field="keep",
            indices=offending,
            dice=[roll[i] for i in offending],
        )
    return DiceSetAside(seat=state.turn_seat, indices=indices, dice=dice, points=points)


def decide(state: TenThousandState, command: Command, roller: DiceRoller) -> list[Event]:
    """The events ``command`` causes in ``state``; ``RuleError`` (nothing happens) if illegal.

    Checks run in this order: ``game_finished``, ``not_your_turn``, then the set-aside
    (``keep_required`` / ``nothing_to_keep``, ``invalid_dice_indices``, ``keep_not_scoring``),
    then ``nothing_to_bank``. The roller is only asked for dice once the command is legal.
    """
    if state.finished:
        raise RuleError("game_finished")
    if not isinstance(command, Roll | Bank):
        raise RuleError("unknown_move", field="type")
    if command.seat != state.turn_seat:
        raise RuleError("not_your_turn", current_seat=state.turn_seat)
    seat = state.turn_seat
    events: list[Event] = []
    after = state
    if state.roll:
        if not command.keep:
            raise RuleError("keep_required", field="keep")
        events.append(_set_aside(state, command.keep))
        after = apply(after, events[-1])
        if after.dice_in_play == 0:
            events.append(HotDice(seat=seat, turn_points=after.turn_points))
            after = apply(after, events[-1])
    elif command.keep:
        raise RuleError("nothing_to_keep", field="keep")

    tail: list[Event]
    if isinstance(command, Bank):
        if after.turn_points == 0:
            raise RuleError("nothing_to_bank")
        total = after.totals[seat] + after.turn_points
        tail = [TurnBanked(seat=seat, points=after.turn_points, total=total)]
        if not after.last_round and total >= after.target:
            tail.append(LastRoundStarted(seat=seat))
    else:
        dice = require_dice(roller(after.dice_in_play), after.dice_in_play)
        rolled = DiceRolled(seat=seat, dice=dice)
        if not is_farkle(dice):
            return [*events, rolled]
        tail = [rolled, RoundLost(seat=seat, lost_points=after.turn_points)]

    # The turn has passed: the game ends when it comes back to the seat that reached the target.
    for event in tail:
        after = apply(after, event)
    events.extend(tail)
    if after.last_round and after.turn_seat == after.last_round_trigger:
        events.append(GameFinished(totals=after.totals, places=places_for(after.totals)))
    return events


def preview_keep(state: TenThousandState, indices: Iterable[int]) -> int | None:
    """Points that setting aside ``indices`` of the current roll would add to the turn.

    ``None`` whenever the selection could not be set aside: nothing selected, no roll pending,
    bad or repeated indices, or a die that does not count.
    """
    if state.finished or not state.roll:
        return None
    chosen = tuple(indices)
    if not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(state.roll) for i in chosen
    ) or len(set(chosen)) != len(chosen):
        return None
    return score_keep(state.roll[i] for i in chosen) if chosen else None


def places_for(totals: Sequence[int]) -> tuple[int, ...]:
    """1 + the number of strictly higher totals: equal totals share a place (1, 1, 3 ...)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def apply(state: TenThousandState | None, event: Event) -> TenThousandState:
    """Fold one event into the state. ``ValueError`` for an event that cannot follow ``state``."""
    if isinstance(event, GameStarted):
        if state is not None:
            raise ValueError("game_started must be the first event")
        if not MIN_SEATS <= event.seats <= MAX_SEATS:
            raise ValueError(f"bad seat count {event.seats}")
        return TenThousandState(seats=event.seats, options=event.options, totals=(0,) * event.seats)
    if state is None:
        raise ValueError(f"{event.type} before game_started")
    if state.finished:
        raise ValueError(f"{event.type} after the game finished")
    if isinstance(event, GameFinished):
        if not state.last_round or len(event.places) != state.seats:
            raise ValueError("game_finished before the last round is over")
        return replace(state, finished=True, totals=event.totals, places=event.places)
    if isinstance(event, LastRoundStarted):
        if state.last_round:
            raise ValueError("the last round has already started")
        return replace(state, last_round=True, last_round_trigger=event.seat)
    if event.seat != state.turn_seat:
        raise ValueError(f"{event.type} for seat {event.seat}, but seat {state.turn_seat} plays")
    if isinstance(event, DiceRolled):
        if state.roll or len(event.dice) != state.dice_in_play:
            raise ValueError(f"unexpected roll {event!r}")
        return replace(state, roll=event.dice)
    if isinstance(event, DiceSetAside):
        if (
            not state.roll
            or any(not 0 <= i < len(state.roll) for i in event.indices)
            or any(state.roll[i] != face for i, face in zip(event.indices, event.dice, strict=True))
        ):
            raise ValueError(f"set-aside does not match the roll: {event!r}")
        return replace(
            state,
            roll=(),
            kept=(*state.kept, event.dice),
            kept_points=(*state.kept_points, event.points),
            turn_points=state.turn_points + event.points,
            dice_in_play=state.dice_in_play - len(event.dice),
            hot_dice=False,
        )
    if isinstance(event, HotDice):
        return replace(state, dice_in_play=DICE, hot_dice=True)
    if isinstance(event, TurnBanked):
        if (
            event.points != state.turn_points
            or event.total != state.totals[event.seat] + event.points
        ):
            raise ValueError(f"banked points do not match the turn: {event!r}")
        totals = list(state.totals)
        totals[event.seat] = event.total
        return _next_turn(replace(state, totals=tuple(totals)))
    return _next_turn(state)  # RoundLost: the turn's points are simply dropped


def _next_turn(state: TenThousandState) -> TenThousandState:
    return replace(
        state,
        turn_seat=(state.turn_seat + 1) % state.seats,
        roll=(),
        kept=(),
        kept_points=(),
        turn_points=0,
        dice_in_play=DICE,
        hot_dice=False,
    )


def replay(events: Iterable[Event]) -> TenThousandState:
    """The state of a game is exactly the fold of its events."""
    return base.replay(apply, events)
