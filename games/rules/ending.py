"""Ending a game before its rules end it, the same for every game. Pure Python, no Django.

A seat leaves (``SeatLeft``): it resigns, another seat claims its idle turn, or its clock ran
out twice in a row in a rated game. A seat *out* is skipped, keeps its score and is placed after
every seat still playing, the later to leave the better. A game with one seat left (none, for a
game of one) ends at once. Until the first dice are thrown it may be aborted (``GameAborted``, no
result); after that leaving is resigning, since an abort after a bad first throw would be a free
reroll. The staff may call a game off (``StaffAbort``) or adjudicate it (``Adjudicate``: a winner,
or a draw, then the game's ``game_finished``, the other seats still playing second).

A game ends at a limit of its length (``LimitReached``: Dés 10 000's rounds, or the server's
``EndAtLimit``, the move path's events per game), the seats still playing placed by their totals
as they stand, so that no game goes on for ever. A turn whose clock ran out is played by the
game's stand-in, never better than the player would (``TimeOut``); ``TurnTimedOut`` counts the
seat's timed-out turns in a row, back to 0 when it ends a turn itself, and a ``TimeOut`` that
``forfeits`` (rated games) makes a seat already one down leave instead.

The seat a command names is who sends it (resign, claim, abort) or the seat to play; whether a
claim comes late enough is the server's to judge (the rules know no time). Each game's ``decide``
hands these commands to ``decide`` here with what differs between games (``Game``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Protocol, TypeAlias, TypeVar, get_args

from games.rules.base import CommandSeat, RuleError, Wire, WireError, WireForm, one_of, places_for
from games.rules.fairness import RevealedSeed

#: Why a seat left: it resigned, another seat claimed its idle turn, its clock ran out twice.
REASONS = ("resigned", "claimed", "timed_out")
#: The limits a game's length may reach: its rounds (a game's own rule), its events (the server's).
LIMITS = ("rounds", "events")


@dataclass(frozen=True)
class Resign(WireForm):
    """The seat leaves the game, whether it is its turn or not."""

    type: ClassVar[str] = "resign"
    seat: CommandSeat


@dataclass(frozen=True)
class Claim(WireForm):
    """The seat (not the one to play) claims the idle turn: the seat to play leaves."""

    type: ClassVar[str] = "claim"
    seat: CommandSeat


@dataclass(frozen=True)
class Abort(WireForm):
    """The seat calls the game off: only before every seat has made its first move."""

    type: ClassVar[str] = "abort"
    seat: CommandSeat


@dataclass(frozen=True)
class TimeOut(WireForm):
    """The seat to play let its turn clock run out: the stand-in plays its turn, or, when
    ``forfeits`` and its previous turn timed out too, it leaves the game."""

    type: ClassVar[str] = "time_out"
    seat: CommandSeat
    forfeits: bool = False


def _winner_on_wire(winner: object) -> int | None:
    # A command's field: what the staff sent is refused as a rule error, never a stored-data one.
    if winner is None or (type(winner) is int and winner >= 0):
        return winner
    raise RuleError("invalid_winner", field="winner")


@dataclass(frozen=True)
class StaffAbort(WireForm):
    """The staff call the game off, whoever has moved (moderation): no result."""

    type: ClassVar[str] = "staff_abort"
    #: The seat to play (the staff's commands are no seat's; the move path passes one).
    seat: CommandSeat


@dataclass(frozen=True)
class Adjudicate(WireForm):
    """The staff decide the game (moderation): ``winner`` wins, or, None, a draw."""

    type: ClassVar[str] = "adjudicate"
    seat: CommandSeat
    winner: Annotated[int | None, Wire(decode=_winner_on_wire)] = None


@dataclass(frozen=True)
class EndAtLimit(WireForm):
    """The server ends the game at a limit of its length (the move path's events per game)."""

    type: ClassVar[str] = "end_at_limit"
    seat: CommandSeat
    limit: Annotated[str, one_of(LIMITS, "limit")] = "events"
    #: The limit's value, for the event.
    count: int = 0


Command: TypeAlias = Resign | Claim | Abort | TimeOut | StaffAbort | Adjudicate | EndAtLimit
#: Refused by the public move path: they have their own endpoints, or are the server's or staff's.
COMMANDS: tuple[type[Command], ...] = get_args(Command)
TYPES = frozenset(command.type for command in COMMANDS)


@dataclass(frozen=True)
class SeatLeft(WireForm):
    type: ClassVar[str] = "seat_left"
    seat: int
    reason: Annotated[str, one_of(REASONS, "reason to leave")]


@dataclass(frozen=True)
class GameAborted(WireForm):
    type: ClassVar[str] = "game_aborted"
    #: The seat that called the game off; None: the staff did (``StaffAbort``).
    seat: int | None
    #: The fair dice's server seed, revealed (hex); None for a game without fair dice.
    server_seed: RevealedSeed = None


@dataclass(frozen=True)
class TurnTimedOut(WireForm):
    """After the stand-in's turn (before a ``game_finished`` it led to)."""

    type: ClassVar[str] = "turn_timed_out"
    seat: int
    #: The seat's timed-out turns in a row, this one included.
    in_a_row: int


@dataclass(frozen=True)
class GameAdjudicated(WireForm):
    """The staff decided the game; the game's ``game_finished`` follows with the places."""

    type: ClassVar[str] = "game_adjudicated"
    #: The seat the staff named the winner; None: a draw.
    winner: int | None


@dataclass(frozen=True)
class LimitReached(WireForm):
    """The game reached a limit of its length; the game's ``game_finished`` follows, the seats
    still playing placed by their totals as they stand."""

    type: ClassVar[str] = "limit_reached"
    #: Which limit: ``rounds`` (a game's own: Dés 10 000) or ``events`` (the server's).
    limit: Annotated[str, one_of(LIMITS, "limit")]
    #: The limit: the rounds played, or the events a game's log may hold.
    count: int


Event: TypeAlias = SeatLeft | GameAborted | TurnTimedOut | GameAdjudicated | LimitReached
EVENTS: tuple[type[Event], ...] = get_args(Event)


class Ending(Protocol):
    """The fields every game's state has for this module (each kind's ``<Kind>State``)."""

    @property
    def seats(self) -> int: ...
    @property
    def turn_seat(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def out(self) -> tuple[int, ...]: ...
    @property
    def moved(self) -> tuple[int, ...]: ...
    @property
    def timeouts(self) -> tuple[int, ...]: ...
    @property
    def adjudicated(self) -> bool | None: ...
    @property
    def limit_reached(self) -> bool | None: ...


S = TypeVar("S", bound=Ending)


def live_seats(state: Ending) -> list[int]:
    """The seats still playing, in seat order."""
    return [seat for seat in range(state.seats) if seat not in state.out]


def next_seat(state: Ending, seat: int) -> int:
    """The first seat after ``seat`` still playing (``seat`` itself when it is the only one)."""
    for step in range(1, state.seats + 1):
        candidate = (seat + step) % state.seats
        if candidate not in state.out:
            return candidate
    return seat


def passes(state: Ending, start: int, end: int, seat: int) -> bool:
    """Whether the turn, going from ``start`` to ``end`` (seats out skipped), comes to or passes
    ``seat``: with ``start == end``, a whole round."""
    for step in range(1, state.seats + 1):
        candidate = (start + step) % state.seats
        if candidate == seat:
            return True
        if candidate == end:
            return False
    return False


def timeouts_of(state: Ending, seat: int) -> int:
    """The seat's timed-out turns in a row (a snapshot older than the count holds none)."""
    return state.timeouts[seat] if state.timeouts else 0


def with_timeouts(state: S, seat: int, count: int) -> S:
    counts = list(state.timeouts or (0,) * state.seats)
    counts[seat] = count
    return replace(state, timeouts=tuple(counts))  # type: ignore[type-var]


def has_moved(state: S, seat: int) -> S:
    """``state`` with ``seat`` among the seats that have made a move."""
    if seat in state.moved:
        return state
    return replace(state, moved=tuple(sorted((*state.moved, seat))))  # type: ignore[type-var]


def places_with_leavers(totals: Sequence[int], out: Sequence[int]) -> tuple[int, ...]:
    """The seats still playing by their totals (equal totals share a place), then the seats that
    left, the last to leave first."""
    live = [seat for seat in range(len(totals)) if seat not in out]
    live_places = places_for([totals[seat] for seat in live])
    places = [0] * len(totals)
    for seat, place in zip(live, live_places, strict=True):
        places[seat] = place
    for rank, seat in enumerate(reversed(out)):
        places[seat] = len(live) + 1 + rank
    return tuple(places)


def check_state(state: Ending) -> None:
    """The wire checks of this module's fields."""
    n = state.seats
    if any(not 0 <= seat < n for seat in (*state.out, *state.moved)):
        raise WireError("seats out or moved outside the table")
    if len(set(state.out)) != len(state.out) or (state.timeouts and len(state.timeouts) != n):
        raise WireError("a seat leaves once; one timed-out count per seat")


@dataclass(frozen=True)
class Game:
    """What differs between games, for ``decide`` and ``apply`` here."""

    #: The game's own ``apply``.
    apply: Callable[[Any, Any], Any]
    #: The state once the seat to play has left: the next seat still playing has the turn.
    pass_turn: Callable[[Any], Any]
    #: ``game_finished`` if the game is over in ``after`` (the turn came from ``before``'s seat).
    finish: Callable[[Any, Any], list[Any]]
    #: The stand-in's turn for the seat to play (``TurnTimedOut`` is added here).
    stand_in: Callable[[Any, Any], list[Any]]
    #: The game's ``GameFinished``, made with ``totals`` and ``places`` (adjudication, limits).
    finished: Callable[..., Any]
    #: Each seat's total as it stands.
    totals: Callable[[Any], tuple[int, ...]]


def decide(game: Game, state: Ending, command: Command, roller: Any) -> list[Any]:
    """The events of one of this module's commands (the game checked ``game_finished``)."""
    if isinstance(command, StaffAbort):
        return [GameAborted(seat=None)]
    if isinstance(command, Adjudicate):
        # The winner first, the other seats still playing second (a draw: all first), then leavers.
        if command.winner is not None and command.winner not in live_seats(state):
            raise RuleError("invalid_winner", field="winner")
        marks = [int(seat == command.winner) for seat in range(state.seats)]
        places = places_with_leavers(marks, state.out)
        finished = game.finished(totals=game.totals(state), places=places)
        return [GameAdjudicated(winner=command.winner), finished]
    if isinstance(command, EndAtLimit):
        return at_limit(game, state, command.limit, command.count)
    if command.seat in state.out:
        raise RuleError("seat_out")
    if isinstance(command, Abort):
        if state.moved:  # a seat has thrown dice (every first move is a throw)
            raise RuleError("abort_too_late")
        return [GameAborted(seat=command.seat)]
    if isinstance(command, Claim):
        if command.seat == state.turn_seat:
            raise RuleError("claim_not_allowed")
        return _leave(game, state, state.turn_seat, "claimed")
    if isinstance(command, TimeOut):
        if command.seat != state.turn_seat:
            raise RuleError("not_your_turn", current_seat=state.turn_seat)
        if command.forfeits and timeouts_of(state, command.seat) >= 1:
            return _leave(game, state, command.seat, "timed_out")
        return timed_out(game, state, game.stand_in(state, roller))
    return _leave(game, state, command.seat, "resigned")


def result(game: Game, state: Ending) -> Any:
    """The game's ``game_finished``: the seats still playing placed by their totals as they stand
    (equal totals share a place), the seats that left after them."""
    totals = game.totals(state)
    return game.finished(totals=totals, places=places_with_leavers(totals, state.out))


def at_limit(game: Game, state: Ending, limit: str, count: int) -> list[Any]:
    """The game ends at a limit of its length: ``limit_reached``, then its ``result``."""
    return [LimitReached(limit=limit, count=count), result(game, state)]


def _leave(game: Game, state: Ending, seat: int, reason: str) -> list[Any]:
    left = SeatLeft(seat=seat, reason=reason)
    return [left, *game.finish(state, game.apply(state, left))]


#: The events that close a game, after the turn that led to them.
_CLOSING = frozenset({"limit_reached", "game_finished"})


def timed_out(game: Game, state: Ending, events: list[Any]) -> list[Any]:
    """The stand-in's ``events`` for the seat to play, with ``TurnTimedOut`` after its turn (before
    the events that close the game, if it led to its end)."""
    seat = state.turn_seat
    marker = TurnTimedOut(seat=seat, in_a_row=timeouts_of(state, seat) + 1)
    turn = len(events)
    while turn and events[turn - 1].type in _CLOSING:
        turn -= 1
    return [*events[:turn], marker, *events[turn:]]


def apply(game: Game, state: S, event: Event) -> S:
    """Fold one of this module's events into a game's state."""
    if isinstance(event, TurnTimedOut):
        return with_timeouts(state, event.seat, event.in_a_row)
    if isinstance(event, GameAborted):
        return replace(state, finished=True, aborted=True)  # type: ignore[type-var]
    if isinstance(event, GameAdjudicated):
        if event.winner is not None and event.winner not in live_seats(state):
            raise ValueError(f"seat {event.winner} cannot win")
        return replace(state, adjudicated=True)  # type: ignore[type-var]
    if isinstance(event, LimitReached):
        return replace(state, limit_reached=True)  # type: ignore[type-var]
    if event.seat in state.out or not 0 <= event.seat < state.seats:
        raise ValueError(f"seat {event.seat} cannot leave")
    left = replace(state, out=(*state.out, event.seat))  # type: ignore[type-var]
    return game.pass_turn(left) if event.seat == state.turn_seat else left


def is_ending(command: object) -> bool:
    return isinstance(command, COMMANDS)
