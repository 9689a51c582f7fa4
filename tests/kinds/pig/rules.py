"""Pig as a pure event-sourced engine (no Django): one die; on a turn a seat rolls as often as it
likes, adding each face to the turn's points, and holds to bank them; a 1 loses the turn's points
and the turn. The first seat to bank ``target`` (100) wins at once; the others are placed by their
totals. The commands that end a game early are ``games.rules.ending``'s, as in every kind."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, ClassVar, TypeAlias

from games.rules import base, ending
from games.rules.base import (
    CommandSeat,
    Dice,
    DiceRoller,
    Doc,
    RuleError,
    TaggedUnion,
    Wire,
    WireError,
    WireForm,
    require_dice,
    stored_options,
    unknown_move,
)
from games.rules.fairness import Commitment, RevealedSeed, RollSeed, StartCommitment

MIN_SEATS, MAX_SEATS = 1, 4
MIN_TARGET, MAX_TARGET = 20, 200


def check_target(value: object) -> int:
    if type(value) is not int or not MIN_TARGET <= value <= MAX_TARGET:
        raise RuleError("invalid_option", field="options.target")
    return value


@dataclass(frozen=True)
class PigOptions(WireForm):
    #: The total that wins the game the moment a seat banks it.
    target: Annotated[
        int, Wire(decode=check_target), Doc(minimum=MIN_TARGET, maximum=MAX_TARGET)
    ] = 100


Options = Annotated[PigOptions, stored_options(PigOptions)]


def options_from_wire(data: Mapping[str, Any] | None) -> PigOptions:
    return base.options_from_wire(PigOptions, data)


# --- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll(WireForm):
    """Throw the die."""

    type: ClassVar[str] = "roll"
    seat: CommandSeat


@dataclass(frozen=True)
class Hold(WireForm):
    """Bank the turn's points; the turn passes."""

    type: ClassVar[str] = "hold"
    seat: CommandSeat


Command: TypeAlias = Roll | Hold | ending.Command
COMMANDS = TaggedUnion[Command](Roll, Hold, *ending.COMMANDS, unknown=unknown_move)


def command_from_wire(data: Mapping[str, Any], seat: int) -> Command:
    return COMMANDS.decode(data, seat=seat)


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(WireForm):
    type: ClassVar[str] = "game_started"
    seats: int
    options: Options = field(default_factory=PigOptions)
    fairness: StartCommitment = None


@dataclass(frozen=True)
class DiceRolled(WireForm):
    type: ClassVar[str] = "dice_rolled"
    seat: int
    dice: Dice
    client_seed: RollSeed = None


@dataclass(frozen=True)
class TurnLost(WireForm):
    """A 1: the turn's points are lost."""

    type: ClassVar[str] = "turn_lost"
    seat: int
    lost_points: int


@dataclass(frozen=True)
class TurnHeld(WireForm):
    type: ClassVar[str] = "turn_held"
    seat: int
    points: int
    total: int


@dataclass(frozen=True)
class GameFinished(WireForm):
    type: ClassVar[str] = "game_finished"
    totals: tuple[int, ...]
    places: tuple[int, ...]
    server_seed: RevealedSeed = None


Event: TypeAlias = (
    GameStarted
    | DiceRolled
    | TurnLost
    | TurnHeld
    | GameFinished
    | ending.SeatLeft
    | ending.GameAborted
    | ending.TurnTimedOut
    | ending.GameAdjudicated
    | ending.LimitReached
)
EVENTS = TaggedUnion[Event](
    GameStarted,
    DiceRolled,
    TurnLost,
    TurnHeld,
    GameFinished,
    *ending.EVENTS,
    unknown=lambda kind: WireError(f"not a pig event type: {kind!r}"),
)


def event_from_wire(data: Mapping[str, Any]) -> Event:
    return EVENTS.decode(data)


# --- state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PigState(WireForm):
    seats: int
    options: Options
    totals: tuple[int, ...]
    turn_seat: int = 0
    #: The die of the turn's last roll (empty before the turn's first).
    die: Dice = ()
    turn_points: int = 0
    finished: bool = False
    places: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    moved: tuple[int, ...] = ()
    timeouts: tuple[int, ...] = ()
    aborted: bool = False
    adjudicated: Annotated[bool | None, base.OMITTED_IF_NONE] = None
    limit_reached: Annotated[bool | None, base.OMITTED_IF_NONE] = None

    @property
    def current_seat(self) -> int | None:
        return None if self.finished else self.turn_seat


def state_from_wire(data: Mapping[str, Any]) -> PigState:
    state = PigState.from_wire(data)
    if not MIN_SEATS <= state.seats <= MAX_SEATS or len(state.totals) != state.seats:
        raise WireError("bad seat count or totals")
    ending.check_state(state)
    return state


# --- the engine ---------------------------------------------------------------------------------


def start(
    seats: int,
    options: Mapping[str, Any] | PigOptions | None = None,
    fairness: Commitment | None = None,
) -> list[Event]:
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("invalid_seat_count", field="seats", min=MIN_SEATS, max=MAX_SEATS)
    if isinstance(options, PigOptions):
        options = options.to_wire()
    return [GameStarted(seats=seats, options=options_from_wire(options), fairness=fairness)]


def decide(state: PigState, command: Command, roller: DiceRoller) -> list[Event]:
    if state.finished:
        raise RuleError("game_finished")
    if ending.is_ending(command):
        return ending.decide(_GAME, state, command, roller)  # type: ignore[arg-type]
    if not isinstance(command, Roll | Hold):
        raise RuleError("unknown_move", field="type")
    if command.seat != state.turn_seat:
        raise RuleError("not_your_turn", current_seat=state.turn_seat)
    if isinstance(command, Hold):
        return _hold(state)
    (face,) = require_dice(roller(1), 1)
    rolled = DiceRolled(seat=state.turn_seat, dice=(face,))
    if face != 1:
        return [rolled]
    return [rolled, TurnLost(seat=state.turn_seat, lost_points=state.turn_points)]


def _hold(state: PigState) -> list[Event]:
    if not state.turn_points:
        raise RuleError("nothing_to_bank")
    seat = state.turn_seat
    held = TurnHeld(
        seat=seat, points=state.turn_points, total=state.totals[seat] + state.turn_points
    )
    return [held, *_finish(state, apply(state, held))]


def _finish(before: PigState, after: PigState) -> list[Event]:
    won = any(total >= after.options.target for total in after.totals)
    if won or len(ending.live_seats(after)) < min(2, after.seats):
        return [_result(after, ending.places_with_leavers(after.totals, after.out))]
    return []


def _stand_in(state: PigState, roller: DiceRoller) -> list[Event]:
    """A seat whose clock ran out loses its turn's points: never better than the player."""
    return [TurnLost(seat=state.turn_seat, lost_points=state.turn_points)]


def dice_thrown(event: Event) -> tuple[int, ...] | None:
    return event.dice if isinstance(event, DiceRolled) else None


def apply(state: PigState | None, event: Event) -> PigState:
    if isinstance(event, GameStarted):
        if state is not None:
            raise ValueError("game_started must be the first event")
        return PigState(seats=event.seats, options=event.options, totals=(0,) * event.seats)
    if state is None or state.finished:
        raise ValueError(f"{event.type} before the game started or after it finished")
    if isinstance(event, GameFinished):
        return replace(state, finished=True, totals=event.totals, places=event.places)
    if isinstance(
        event,
        ending.SeatLeft
        | ending.GameAborted
        | ending.TurnTimedOut
        | ending.GameAdjudicated
        | ending.LimitReached,
    ):
        return ending.apply(_GAME, state, event)
    if event.seat != state.turn_seat:
        raise ValueError(f"{event.type} for seat {event.seat}, but seat {state.turn_seat} plays")
    if isinstance(event, DiceRolled):
        points = state.turn_points + event.dice[0] if event.dice[0] != 1 else state.turn_points
        return ending.has_moved(replace(state, die=event.dice, turn_points=points), event.seat)
    if isinstance(event, TurnHeld):
        totals = list(state.totals)
        totals[event.seat] = event.total
        return _next_turn(replace(state, totals=tuple(totals)))
    return _next_turn(state)  # TurnLost


def _next_turn(state: PigState) -> PigState:
    if state.timeouts:
        state = ending.with_timeouts(state, state.turn_seat, 0)
    seat = ending.next_seat(state, state.turn_seat)
    return replace(state, turn_seat=seat, die=(), turn_points=0)


def _result(state: PigState, places: tuple[int, ...]) -> GameFinished:
    return GameFinished(totals=state.totals, places=places)


def replay(events: Iterable[Event]) -> PigState:
    return base.replay(apply, events)


_GAME = ending.Game(
    apply=apply,
    pass_turn=_next_turn,
    finish=_finish,
    stand_in=_stand_in,
    finished=GameFinished,
    totals=lambda state: state.totals,
)
