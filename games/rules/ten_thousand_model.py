"""Dés 10 000's vocabulary: options, commands, events and the state, with their JSON forms (the
engine, ``games.rules.ten_thousand``, re-exports every name here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, TypeAlias, get_args

from games.rules import base, ending
from games.rules.base import (
    OMITTED_IF_NONE,
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
from games.rules.ten_thousand_scoring import (
    DICE,
    farkle_probability,
    is_farkle,
)

TARGETS = (5000, 10000, 15000)
DEFAULT_TARGET = 10000
MIN_SEATS = 1
MAX_SEATS = 7
#: A game ends at the end of this round whatever is under way (``ending.LimitReached``). No game
#: whose seats bank reaches it: over 2,800 seeded games to 15,000, the computers finished within 41
#: rounds and seats banking the least they can within 220. Written in each ``game_started``, so a
#: later change never changes a game begun under another limit (older games have none).
MAX_ROUNDS = 300


def check_target(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in TARGETS:
        raise RuleError("invalid_option", field="options.target", allowed=list(TARGETS))
    return value


@dataclass(frozen=True)
class TenThousandOptions(WireForm):
    #: The total that triggers the last round: one of ``TARGETS``.
    target: Annotated[int, Wire(decode=check_target), Doc(values=TARGETS)] = DEFAULT_TARGET


def options_from_wire(data: Mapping[str, Any] | None) -> TenThousandOptions:
    """Options from a new-game request; missing keys take their defaults."""
    return base.options_from_wire(TenThousandOptions, data)


#: The options as an event or a state stores them.
Options = Annotated[TenThousandOptions, stored_options(TenThousandOptions)]


def check_keep(keep: object) -> tuple[int, ...]:
    # Its length before its items: a list of 100,000 is refused without reading one.
    if isinstance(keep, list) and len(keep) > DICE:
        raise RuleError("too_many_dice", field="keep", max=DICE)
    if (
        not isinstance(keep, list)
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in keep)
        or len(set(keep)) != len(keep)
    ):
        raise RuleError("invalid_dice_indices", field="keep")
    return tuple(keep)


#: Positions in the current roll, each once (whether they are in the roll, ``decide`` checks).
Keep = Annotated[tuple[int, ...], Wire(decode=check_keep)]


@dataclass(frozen=True)
class Roll(WireForm):
    """Set aside ``keep`` (indices into the current roll; none at the start of a turn) and throw
    the other dice in play (all six again after hot dice)."""

    type: ClassVar[str] = "roll"
    seat: CommandSeat
    keep: Annotated[Keep, Doc("Positions of the current roll to set aside first", DICE)] = ()


@dataclass(frozen=True)
class Bank(WireForm):
    """Set aside ``keep`` from the current roll, then add the turn's points to the seat's total."""

    type: ClassVar[str] = "bank"
    seat: CommandSeat
    keep: Annotated[Keep, Doc("Positions of the current roll to set aside, then bank", DICE)] = ()


Command: TypeAlias = Roll | Bank | ending.Command
COMMANDS = TaggedUnion[Command](Roll, Bank, *ending.COMMANDS, unknown=unknown_move)


def command_from_wire(data: Mapping[str, Any], seat: int) -> Command:
    """Decode ``{"type": "roll" | "bank", "keep": [0, 2]}``; ``keep`` defaults to ``[]``."""
    return COMMANDS.decode(data, seat=seat)


@dataclass(frozen=True)
class GameStarted(WireForm):
    type: ClassVar[str] = "game_started"
    seats: int
    options: Options = field(default_factory=TenThousandOptions)
    #: The fair dice's commitment (``games.rules.fairness``); None for a game without one.
    fairness: StartCommitment = None
    #: The game's limit of rounds (``MAX_ROUNDS`` when it started); absent in older games.
    max_rounds: Annotated[int | None, OMITTED_IF_NONE] = None


@dataclass(frozen=True)
class DiceRolled(WireForm):
    type: ClassVar[str] = "dice_rolled"
    seat: int
    dice: Dice
    #: Fair dice version 2: the client seed of the seat's rolls, in its first roll only.
    client_seed: RollSeed = None


@dataclass(frozen=True)
class DiceSetAside(WireForm):
    type: ClassVar[str] = "dice_set_aside"
    seat: int
    #: Positions in the roll, ascending; ``dice`` are the faces at those positions.
    indices: tuple[int, ...]
    dice: Dice
    points: int


@dataclass(frozen=True)
class HotDice(WireForm):
    type: ClassVar[str] = "hot_dice"
    seat: int
    turn_points: int


@dataclass(frozen=True)
class RoundLost(WireForm):
    type: ClassVar[str] = "round_lost"
    seat: int
    lost_points: int


@dataclass(frozen=True)
class TurnBanked(WireForm):
    type: ClassVar[str] = "turn_banked"
    seat: int
    points: int
    #: The seat's total after banking.
    total: int


@dataclass(frozen=True)
class LastRoundStarted(WireForm):
    type: ClassVar[str] = "last_round_started"
    #: The seat that reached the target; the game ends when the turn comes back to it.
    seat: int


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
    | DiceSetAside
    | HotDice
    | RoundLost
    | TurnBanked
    | LastRoundStarted
    | GameFinished
    | ending.SeatLeft
    | ending.GameAborted
    | ending.TurnTimedOut
    | ending.GameAdjudicated
    | ending.LimitReached
)

EVENTS = TaggedUnion[Event](
    *get_args(Event), unknown=lambda kind: WireError(f"not a ten_thousand event type: {kind!r}")
)


#: A stored event; ``WireError`` (a ``ValueError``) if this engine never writes it.
event_from_wire = EVENTS.decode


@dataclass(frozen=True)
class TenThousandState(WireForm):
    seats: int
    options: Options
    #: Banked points per seat.
    totals: tuple[int, ...]
    turn_seat: int = 0
    #: The roll waiting for the player to set dice aside; empty when the seat must roll.
    roll: Dice = ()
    #: The dice set aside this turn, one group per roll, and what each group scored.
    kept: tuple[Dice, ...] = ()
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
    #: Per seat, 1 = first, equal totals sharing; empty unless finished (and not aborted).
    places: tuple[int, ...] = ()
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
    #: The game's limit of rounds and the rounds played in full; both absent in older games.
    max_rounds: Annotated[int | None, OMITTED_IF_NONE] = None
    rounds_played: Annotated[int | None, OMITTED_IF_NONE] = None

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
        """The chance of a lost round when ``dice_in_play`` dice are thrown (with a roll pending,
        the risk it ran; ``risk_after_keep`` gives the next one)."""
        return farkle_probability(self.dice_in_play) if self.dice_in_play else 0.0

    def risk_after_keep(self, count: int) -> float:
        """The risk of the next roll if ``count`` dice of the pending roll are set aside."""
        left = self.dice_in_play - count
        return farkle_probability(left if left > 0 else DICE)


def state_from_wire(data: Mapping[str, Any]) -> TenThousandState:
    """Rebuild a state from ``TenThousandState.to_wire()``; ``WireError`` if it is not one."""
    state = TenThousandState.from_wire(data)
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
    if len(state.places) != (n if state.finished and not state.aborted else 0):
        raise WireError("places are set exactly when the game is finished")
    if state.aborted and not state.finished:
        raise WireError("an aborted game is finished")
    if (state.max_rounds is None) != (state.rounds_played is None) or (
        state.max_rounds is not None
        and state.rounds_played is not None
        and not 0 <= state.rounds_played <= state.max_rounds
    ):
        raise WireError("rounds played within the game's limit, both or neither")
    ending.check_state(state)
    return state
