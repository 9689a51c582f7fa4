"""Dés 10 000 (RULES.md, Game 2) as a pure event-sourced engine. No Django import.

The protocol is the package's (``games.rules``); scoring lives in ``ten_thousand_scoring``, the
vocabulary in ``ten_thousand_model``, both re-exported here. Setting dice aside is part of the move
that follows it (``Roll(keep)`` or ``Bank(keep)``), so a client can never leave a turn half done
nor set aside dice from an older roll: between two commands a turn is either fresh or waits on a
roll with a scoring die.

Where RULES.md is silent: 1 to 7 seats (6 humans + the computer); equal totals share a place
(1, 1, 3); ``HotDice`` whenever the sixth die of the cycle is set aside, by a ``Bank`` too, so the
replay shows every turn that achieved it; a lost round even on a turn's first roll
(``lost_points`` 0); alone at the table, ``LastRoundStarted`` and ``GameFinished`` follow the
``TurnBanked`` that reaches the target; in the last round, other seats passing the target change
nothing. A game ends at the end of round ``MAX_ROUNDS`` whatever is under way
(``ending.LimitReached``, ``rounds``); a round ends when the turn passes on from the last seat
still playing in seat order (in a game of one, at every turn).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from games.rules import base, ending
from games.rules.base import DiceRoller, RuleError, WireError, places_for, require_dice
from games.rules.fairness import Commitment
from games.rules.ten_thousand_model import (
    MAX_ROUNDS,
    MAX_SEATS,
    MIN_SEATS,
    TARGETS,
    Bank,
    Command,
    DiceRolled,
    DiceSetAside,
    Event,
    GameFinished,
    GameStarted,
    HotDice,
    LastRoundStarted,
    Roll,
    RoundLost,
    TenThousandOptions,
    TenThousandState,
    TurnBanked,
    check_target,
    command_from_wire,
    event_from_wire,
    options_from_wire,
    state_from_wire,
)
from games.rules.ten_thousand_scoring import (
    DICE,
    farkle_probability,
    is_farkle,
    keep_options,
    max_keep_points,
    score_keep,
    scoring_indices,
)

__all__ = [
    "DICE",
    "MAX_ROUNDS",
    "MAX_SEATS",
    "TARGETS",
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
    "dice_thrown",
    "event_from_wire",
    "farkle_probability",
    "is_farkle",
    "keep_options",
    "max_keep_points",
    "options_from_wire",
    "places_for",
    "preview_keep",
    "replay",
    "score_keep",
    "scoring_indices",
    "start",
    "state_from_wire",
]


def start(
    seats: int,
    options: Mapping[str, Any] | TenThousandOptions | None = None,
    fairness: Commitment | None = None,
    *,
    max_rounds: int | None = None,
) -> list[Event]:
    """The events that open a game of ``seats`` players (1-7), which ends at the latest at the end
    of round ``max_rounds`` (by default ``MAX_ROUNDS``)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("invalid_seat_count", field="seats", min=MIN_SEATS, max=MAX_SEATS)
    if max_rounds is None:
        max_rounds = MAX_ROUNDS
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError(f"not a limit of rounds: {max_rounds!r}")
    if isinstance(options, TenThousandOptions):
        opts = TenThousandOptions(target=check_target(options.target))
    else:
        opts = options_from_wire(options)
    return [GameStarted(seats=seats, options=opts, fairness=fairness, max_rounds=max_rounds)]


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
    """The events ``command`` causes in ``state``; ``RuleError`` (nothing happens) if illegal:
    ``game_finished``, ``not_your_turn``, the set-aside's errors, then ``nothing_to_bank``. The
    roller is only asked for dice once the command is legal."""
    if state.finished:
        raise RuleError("game_finished")
    if ending.is_ending(command):
        return ending.decide(_GAME, state, command, roller)  # type: ignore[arg-type]
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
    return [*events, *_end_turn(after, tail)]


def _end_turn(state: TenThousandState, tail: list[Event]) -> list[Event]:
    """``tail``, which passes the turn, and ``game_finished`` if that ends the game."""
    after = state
    for event in tail:
        after = apply(after, event)
    return [*tail, *_finish(state, after)]


def _finish(before: TenThousandState, after: TenThousandState) -> list[Event]:
    """``game_finished`` if the game is over in ``after``: at most one seat is left of several,
    or the turn came back to (or past, if it left) the seat that reached the target; else, at
    the end of the game's last round allowed, ``limit_reached`` and ``game_finished``."""
    live = ending.live_seats(after)
    passed = before.turn_seat != after.turn_seat or after.seats == 1
    trigger = after.last_round_trigger
    over = len(live) < min(2, after.seats) or (
        trigger is not None
        and passed
        and ending.passes(after, before.turn_seat, after.turn_seat, trigger)
    )
    if over:
        return [ending.result(_GAME, after)]
    if after.max_rounds is not None and after.rounds_played == after.max_rounds:
        return ending.at_limit(_GAME, after, "rounds", after.max_rounds)
    return []


def _stand_in(state: TenThousandState, roller: DiceRoller) -> list[Event]:
    """The turn of a seat whose clock ran out, never better than the player would have it: bank
    at once (setting aside the least that counts of a pending roll), else the turn is lost."""
    seat = state.turn_seat
    if not state.roll and not state.turn_points:
        return _end_turn(state, [RoundLost(seat=seat, lost_points=0)])
    keep: tuple[int, ...] = ()
    if state.roll:
        faces, _points = min(keep_options(state.roll), key=lambda o: (o[1], len(o[0])))
        keep = base.faces_to_indices(state.roll, faces)
    return decide(state, Bank(seat=seat, keep=keep), roller)


def preview_keep(state: TenThousandState, indices: Iterable[int]) -> int | None:
    """Points that setting aside ``indices`` of the current roll would add to the turn; ``None``
    whenever they could not be set aside (none, no roll, bad or repeated, a die that counts not)."""
    if state.finished or not state.roll:
        return None
    chosen = tuple(indices)
    if not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(state.roll) for i in chosen
    ) or len(set(chosen)) != len(chosen):
        return None
    return score_keep(state.roll[i] for i in chosen) if chosen else None


def dice_thrown(event: Event) -> tuple[int, ...] | None:
    """The dice a roll threw, in order; None for an event that is no roll."""
    return event.dice if isinstance(event, DiceRolled) else None


def apply(state: TenThousandState | None, event: Event) -> TenThousandState:
    """Fold one event into the state. ``ValueError`` for an event that cannot follow ``state``."""
    if isinstance(event, GameStarted):
        if state is not None:
            raise ValueError("game_started must be the first event")
        if not MIN_SEATS <= event.seats <= MAX_SEATS:
            raise ValueError(f"bad seat count {event.seats}")
        return TenThousandState(
            seats=event.seats,
            options=event.options,
            totals=(0,) * event.seats,
            max_rounds=event.max_rounds,
            rounds_played=None if event.max_rounds is None else 0,
        )
    if state is None:
        raise ValueError(f"{event.type} before game_started")
    if state.finished:
        raise ValueError(f"{event.type} after the game finished")
    if isinstance(event, GameFinished):
        few = len(ending.live_seats(state)) < min(2, state.seats)
        ended = state.last_round or few or state.adjudicated or state.limit_reached
        if not ended or len(event.places) != state.seats:
            raise ValueError("game_finished before the last round is over")
        return replace(state, finished=True, totals=event.totals, places=event.places)
    if isinstance(event, LastRoundStarted):
        if state.last_round:
            raise ValueError("the last round has already started")
        return replace(state, last_round=True, last_round_trigger=event.seat)
    if not isinstance(event, DiceRolled | DiceSetAside | HotDice | TurnBanked | RoundLost):
        return ending.apply(_GAME, state, event)
    if event.seat != state.turn_seat:
        raise ValueError(f"{event.type} for seat {event.seat}, but seat {state.turn_seat} plays")
    if isinstance(event, DiceRolled):
        if state.roll or len(event.dice) != state.dice_in_play:
            raise ValueError(f"unexpected roll {event!r}")
        return ending.has_moved(replace(state, roll=event.dice), event.seat)
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
    """The turn passes to the next seat still playing, a round played when it comes round in seat
    order; the seat that ended it by itself (or left) starts its timed-out turns in a row again
    (a stand-in's turn is counted after it)."""
    if state.timeouts:
        state = ending.with_timeouts(state, state.turn_seat, 0)
    seat = ending.next_seat(state, state.turn_seat)
    rounds = state.rounds_played
    if rounds is not None and seat <= state.turn_seat:
        rounds += 1
    return replace(
        state,
        turn_seat=seat,
        rounds_played=rounds,
        roll=(),
        kept=(),
        kept_points=(),
        turn_points=0,
        dice_in_play=DICE,
        hot_dice=False,
    )


def _totals(state: TenThousandState) -> tuple[int, ...]:
    return state.totals


_GAME = ending.Game(
    apply=apply,
    pass_turn=_next_turn,
    finish=_finish,
    stand_in=_stand_in,
    finished=GameFinished,
    totals=_totals,
)

#: ``replay(events)``: the state of a game is exactly the fold of its events.
replay = partial(base.replay, apply)
