"""Yatzy (RULES.md, Game 1) as a pure event-sourced engine (the protocol: ``games.rules``).
Scoring lives in ``yatzy_scoring``, the vocabulary in ``yatzy_model``, both re-exported here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from games.rules import base, ending
from games.rules.base import DiceRoller, RuleError, WireError, places_for, require_dice
from games.rules.fairness import Commitment
from games.rules.yatzy_model import (
    BOX_NAMES,
    DICE,
    MAX_SEATS,
    MAX_SELECTS_PER_TURN,
    MIN_SEATS,
    ROLLS_PER_TURN,
    ROUNDS,
    BoxScored,
    BoxSelected,
    Command,
    DiceRolled,
    Event,
    GameFinished,
    GameStarted,
    Roll,
    Score,
    Select,
    Sheet,
    YatzyOptions,
    YatzyState,
    check_hold,
    check_seconds,
    command_from_wire,
    event_from_wire,
    options_from_wire,
    state_from_wire,
)
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
    "BOX_NAMES",
    "DICE",
    "LOWER_BOXES",
    "MAX_SEATS",
    "MAX_SELECTS_PER_TURN",
    "ROLLS_PER_TURN",
    "ROUNDS",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "UPPER_BOXES",
    "YATZY_BONUS",
    "BoxScored",
    "BoxSelected",
    "Command",
    "DiceRolled",
    "Event",
    "GameFinished",
    "GameStarted",
    "Roll",
    "Score",
    "Select",
    "Sheet",
    "SheetTotals",
    "WireError",
    "YatzyOptions",
    "YatzyState",
    "apply",
    "box_points",
    "command_from_wire",
    "decide",
    "dice_thrown",
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


def start(
    seats: int,
    options: Mapping[str, Any] | YatzyOptions | None = None,
    fairness: Commitment | None = None,
) -> list[Event]:
    """The events that open a game of ``seats`` players (1-6)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("invalid_seat_count", field="seats", min=MIN_SEATS, max=MAX_SEATS)
    if isinstance(options, YatzyOptions):
        opts = YatzyOptions(check_seconds(options.auto_confirm_seconds))
    else:
        opts = options_from_wire(options)
    return [GameStarted(seats=seats, options=opts, fairness=fairness)]


def decide(state: YatzyState, command: Command, roller: DiceRoller) -> list[Event]:
    """The events ``command`` causes in ``state``; ``RuleError`` (nothing happens) if illegal:
    ``game_finished``, ``not_your_turn``, the command's shape, then what the turn allows."""
    if state.finished:
        raise RuleError("game_finished")
    if ending.is_ending(command):
        return ending.decide(_GAME, state, command, roller)  # type: ignore[arg-type]
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
    held = tuple(sorted(check_hold(command.hold)))
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
    if state.selects >= MAX_SELECTS_PER_TURN:
        raise RuleError("too_many_selects", limit=MAX_SELECTS_PER_TURN)
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
    return [scored, *_finish(state, apply(state, scored))]


def _over(state: YatzyState) -> bool:
    """Every seat still playing has filled its sheet, or at most one is left of several."""
    live = ending.live_seats(state)
    return len(live) < min(2, state.seats) or all(None not in state.sheets[s] for s in live)


def _finish(before: YatzyState, after: YatzyState) -> list[Event]:
    """``game_finished`` if the game is over in ``after``: places by total, leavers last."""
    return [ending.result(_GAME, after)] if _over(after) else []


def _stand_in(state: YatzyState, roller: DiceRoller) -> list[Event]:
    """The turn of a seat whose clock ran out: one roll if the turn has none, then
    ``stand_in_box``."""
    seat = state.turn_seat
    events: list[Event] = []
    if not state.dice:
        events.append(_decide_roll(state, Roll(seat=seat), roller))
        state = apply(state, events[-1])
    return [*events, *_decide_score(state, Score(seat=seat, box=stand_in_box(state)))]


def stand_in_box(state: YatzyState) -> str:
    """The box the server scores for a seat that left its dice waiting (its clock ran out, or the
    auto-confirm): the box it marked, else the legal box worth least now (first in sheet order),
    never better than the player would have it, so that leaving the choice is no help."""
    if state.selected is not None:
        return state.selected
    legal = state.legal_boxes()
    return min(legal, key=lambda name: (legal[name], BOXES.index(name)))


def dice_thrown(event: Event) -> tuple[int, ...] | None:
    """The dice a roll threw, in the order of the positions they filled; None for no roll."""
    if not isinstance(event, DiceRolled):
        return None
    return tuple(face for i, face in enumerate(event.dice) if i not in event.held)


def apply(state: YatzyState | None, event: Event) -> YatzyState:
    """Fold one event into the state. ``ValueError`` for an event that cannot follow ``state``."""
    if isinstance(event, GameStarted):
        if state is not None:
            raise ValueError("game_started must be the first event")
        if not MIN_SEATS <= event.seats <= MAX_SEATS:
            raise ValueError(f"bad seat count {event.seats}")
        return YatzyState(
            seats=event.seats,
            options=event.options,
            sheets=((None,) * len(BOXES),) * event.seats,
            yatzy_bonus_points=(0,) * event.seats,
        )
    if state is None:
        raise ValueError(f"{event.type} before game_started")
    if state.finished:
        raise ValueError(f"{event.type} after the game finished")
    if isinstance(event, DiceRolled):
        return ending.has_moved(_rolled(state, event), event.seat)
    if isinstance(event, BoxScored):
        return _scored(state, event)
    if isinstance(event, BoxSelected):
        if event.seat != state.turn_seat or not state.dice:
            raise ValueError(f"unexpected selection {event!r}")
        return replace(state, selected=event.box, selects=state.selects + 1)
    if isinstance(event, GameFinished):
        ended = _over(state) or state.adjudicated or state.limit_reached
        if not ended or len(event.places) != state.seats:
            raise ValueError("game_finished before every box is used")
        return replace(state, finished=True, places=tuple(event.places))
    return ending.apply(_GAME, state, event)


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
    scored = replace(
        state,
        sheets=(*state.sheets[:seat], tuple(sheet), *state.sheets[seat + 1 :]),
        yatzy_bonus_points=tuple(bonuses),
    )
    # The seat ended its turn: its timed-out turns start again (turn_timed_out counts after it).
    return _pass_turn(ending.with_timeouts(scored, seat, 0) if state.timeouts else scored)


def _pass_turn(state: YatzyState) -> YatzyState:
    """The next seat still playing has the turn, a new round when it comes round to the first."""
    seat = state.turn_seat
    next_seat = ending.next_seat(state, seat)
    # After the last turn of the game the round stays at 13; game_finished follows at once.
    next_round = state.round + 1 if next_seat <= seat and state.round < ROUNDS else state.round
    return replace(
        state,
        turn_seat=next_seat,
        round=next_round,
        dice=(),
        rolls_used=0,
        held=(),
        selected=None,
        selects=0,
    )


def _totals(state: YatzyState) -> tuple[int, ...]:
    return tuple(state.totals(seat).total for seat in range(state.seats))


_GAME = ending.Game(
    apply=apply,
    pass_turn=_pass_turn,
    finish=_finish,
    stand_in=_stand_in,
    finished=GameFinished,
    totals=_totals,
)


#: ``replay(events)``: the state of a game is exactly the fold of its events.
replay = partial(base.replay, apply)
