"""Every write on a game. Each service is one transaction on a locked game row.

``game_move`` is the one path every move takes, whoever makes it: the events and the snapshot
(and a finished game's ratings) commit together; then ``games.followups.advance.after_commit``
tells the rest of the system, once the move is durable.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.observability.metrics import MOVE_SECONDS, MOVES, MOVES_REFUSED
from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal, refused_by_rules
from games.fairness import seeds as fairness
from games.followups import advance as followups
from games.kinds import WireEvent, WireState, kind_for
from games.loading import game_found
from games.log import store as event_store
from games.models import Game, GameEvent, GameId, GameStatus, Occupant, Seat
from games.rules import DiceRoller, RuleError, ending
from games.rules.fairness import is_client_seed
from games.seating import controlled_seats
from games.signals import game_finished
from games.timers.deadlines import MoveContext, deadline_after
from players.identity import display_name_clean
from players.models import Player
from players.services import player_hold


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for at creation: ``me``, ``open``, ``hotseat`` or ``computer``."""

    type: str
    name: str = ""
    level: str = ""
    #: This seat's client seed for the fair dice (``me``, ``hotseat`` and ``player`` seats).
    client_seed: str = ""
    # Only for seats the server fills itself (tournaments): this account takes the seat.
    player: Player | None = None


@dataclass(frozen=True)
class MoveResult:
    """A played move: the game as saved (its seats and accounts loaded), the events it appended,
    and the rules state they led to, so the answer is rendered without reading the state again."""

    game: Game
    events: list[GameEvent]
    state: WireState


P = ParamSpec("P")
#: With the game locked and its state read: the seat that sends an ending command, or a refusal.
Acting = Callable[[Game, WireState], int]


def turn_clock_choice(seconds: int | None) -> int | None:
    """A clock a player chose (a casual game, a seek): none, or one of ``TURN_CLOCK_CHOICES``.
    Tournaments, set by staff, take any positive clock."""
    if seconds is not None and seconds not in settings.TURN_CLOCK_CHOICES:
        raise Refusal.INVALID_TURN_CLOCK.error(
            params={"allowed": list(settings.TURN_CLOCK_CHOICES)}
        )
    return seconds


@transaction.atomic
def game_create(
    *,
    creator: Player,
    kind: str,
    seats: Sequence[SeatSpec],
    options: Mapping[str, Any],
    turn_clock_seconds: int | None = None,
    rated: bool = False,
    assistance: bool | None = None,
    by_account: bool = True,
) -> Game:
    """A new open game. ``assistance`` (hints and previews) is on by default for unrated games;
    a rated game never has it. ``by_account``: a game an account makes itself (the API, a
    rematch), whose row is held (``player_hold``: a ban or a deletion running meanwhile either
    sees the game or refuses it), and which keeps at most ``MAX_OPEN_GAMES_PER_ACCOUNT`` games
    open and ``MAX_COMPUTER_GAMES_PER_ACCOUNT`` with a computer seat open or in play (the
    computer's moves are the workers' time). Tournaments and pairings (which hold both accounts
    themselves) pass False."""
    if turn_clock_seconds is not None and turn_clock_seconds <= 0:
        raise Refusal.INVALID_TURN_CLOCK.error()  # no clock is None, never 0
    if assistance is None:
        assistance = not rated
    elif assistance and rated:
        raise Refusal.ASSISTANCE_NOT_ALLOWED.error()
    engine = kind_for(kind).engine
    try:
        parsed_options = engine.options_from_wire(options)
    except RuleError as exc:
        raise refused_by_rules(exc) from None
    computers = sum(spec.type == "computer" for spec in seats)
    if not kind_for(kind).seats.allow(people=len(seats) - computers, computers=computers):
        raise Refusal.INVALID_SEAT_COUNT.error()
    if sum(spec.type == "me" for spec in seats) > 1:
        raise Refusal.DUPLICATE_ME_SEAT.error()
    levels = [_seat_level(kind, spec, index) for index, spec in enumerate(seats)]
    for index, spec in enumerate(seats):
        _check_client_seed(spec.client_seed, f"seats.{index}.client_seed", spec.type)
    if by_account:
        player_hold(player=creator)
        _check_games_held(creator, computers=bool(computers))
    game = Game(
        kind=kind,
        created_by=creator,
        options=dataclasses.asdict(parsed_options),
        turn_clock_seconds=turn_clock_seconds,
        rated=rated,
        assistance=assistance,
    )
    # The seed is drawn now, so its hash is public before anyone can give a client seed.
    fairness.commit(game, len(seats))
    game.save(force_insert=True)
    Seat.objects.bulk_create(
        [
            Seat(
                game=game,
                index=index,
                occupant=_OCCUPANTS[spec.type],
                player=creator if spec.type == "me" else spec.player,
                name=display_name_clean(spec.name) if spec.type in ("hotseat", "computer") else "",
                level=level,
                client_seed=spec.client_seed,
            )
            for index, (spec, level) in enumerate(zip(seats, levels, strict=True))
        ]
    )
    return game


def _check_games_held(creator: Player, *, computers: bool) -> None:
    # Under the account's row (player_hold): two creations at once cannot both pass a count.
    limit = int(settings.MAX_OPEN_GAMES_PER_ACCOUNT)
    if Game.objects.filter(created_by=creator, status=GameStatus.OPEN).count() >= limit:
        raise Refusal.TOO_MANY_OPEN_GAMES.error(params={"limit": limit})
    limit = int(settings.MAX_COMPUTER_GAMES_PER_ACCOUNT)
    running = Game.objects.filter(
        created_by=creator,
        status__in=(GameStatus.OPEN, GameStatus.ACTIVE),
        seats__occupant=Occupant.COMPUTER,
        tournament_game__isnull=True,
    )
    if computers and running.distinct().count() >= limit:
        raise Refusal.TOO_MANY_COMPUTER_GAMES.error(params={"limit": limit})


_OCCUPANTS = {
    "player": Occupant.PLAYER,
    "me": Occupant.PLAYER,
    "open": Occupant.PLAYER,
    "hotseat": Occupant.HOTSEAT,
    "computer": Occupant.COMPUTER,
}


def _seat_level(kind: str, spec: SeatSpec, index: int) -> str:
    if spec.type != "computer":
        return ""
    level = kind_for(kind).level_for(spec.level)
    if level is None:
        raise Refusal.UNKNOWN_LEVEL.error(field=f"seats.{index}.level")
    return level


#: The seats whose client seed their creator may give (a computer or an open seat has none).
_SEEDED = frozenset({"me", "hotseat", "player"})


def _check_client_seed(seed: str, field: str, seat_type: str) -> None:
    if not seed:
        return
    if seat_type not in _SEEDED:
        raise Refusal.CLIENT_SEED_NOT_ALLOWED.error(field=field)
    if not is_client_seed(seed):
        raise Refusal.INVALID_CLIENT_SEED.error(field=field)


@transaction.atomic
def game_join(
    *, game_id: GameId, player: Player, seat_index: int | None = None, client_seed: str = ""
) -> Game:
    _check_client_seed(client_seed, "client_seed", "player")
    # The account first, then the game: the order a ban or a deletion takes them in.
    player_hold(player=player)
    game = game_found(game_id, lock=True)
    if game.status != GameStatus.OPEN:
        raise Refusal.GAME_NOT_OPEN.error()
    seats = list(game.seats.all())
    if any(seat.player_id == player.pk for seat in seats):
        raise Refusal.ALREADY_SEATED.error()
    open_seats = [seat for seat in seats if seat.is_open]
    if seat_index is not None:
        open_seats = [seat for seat in open_seats if seat.index == seat_index]
    if not open_seats:
        raise Refusal.NO_OPEN_SEAT.error(field="seat" if seat_index is not None else None)
    seat = open_seats[0]
    seat.player = player
    seat.client_seed = client_seed
    seat.save(update_fields=["player", "client_seed"])
    return game


@transaction.atomic
def game_start(*, game_id: GameId, player: Player) -> Game:
    game = game_found(game_id, lock=True)
    if game.created_by_id != player.pk:
        raise Refusal.NOT_CREATOR.error()
    if game.status != GameStatus.OPEN:
        raise Refusal.GAME_NOT_OPEN.error()
    seats = list(game.seats.all())
    if any(seat.is_open for seat in seats):
        raise Refusal.SEATS_NOT_FILLED.error()
    engine = kind_for(game.kind).engine
    commitment = fairness.start_commitment(game, seats)
    events = engine.start(len(seats), engine.options_from_wire(game.options), commitment)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    _append(game, None, events, actor=player, automatic=False, more=fairness.COMMITTED_FIELDS)
    return game


def _metered(move: Callable[P, MoveResult]) -> Callable[P, MoveResult]:
    """The move metrics: a refusal's code, else the events appended and the time taken."""

    @functools.wraps(move)
    def metered(*args: P.args, **kwargs: P.kwargs) -> MoveResult:
        started = time.perf_counter()
        try:
            result = move(*args, **kwargs)
        except ApiError as exc:
            MOVES_REFUSED.labels(code=str(exc.get_codes())).inc()
            raise
        kind, automatic = result.game.kind, str(bool(kwargs.get("automatic"))).lower()
        MOVES.labels(kind=kind, automatic=automatic).inc(len(result.events))
        MOVE_SECONDS.labels(kind=kind).observe(time.perf_counter() - started)
        return result

    return metered


@_metered  # once the transaction is over
@transaction.atomic
def game_move(
    *,
    game_id: GameId,
    command: Mapping[str, Any],
    actor: Player | None,
    expected_version: int | None = None,
    if_match: int | None = None,
    automatic: bool = False,
    acting: Acting | None = None,
) -> MoveResult:
    """Play one command for the seat whose turn it is. ``actor`` None means the server itself
    (a computer seat or a timer), which may move for any seat; anyone else must control the seat.
    The commands that end a game early (``games.rules.ending``) come with ``acting`` (from
    ``games.ending``): it says, with the game locked, which seat sends the command, or refuses.
    ``if_match``: the version an ``If-Match`` precondition names (412 if the game is not there);
    ``expected_version``: the body's (409)."""
    game = game_found(game_id, lock=True)
    if if_match is not None and if_match != game.version:
        raise Refusal.PRECONDITION_FAILED.error()
    if expected_version is not None and expected_version != game.version:
        raise Refusal.STALE_VERSION.error()
    if game.status == GameStatus.OPEN:
        raise Refusal.GAME_NOT_STARTED.error()
    if game.status in (GameStatus.FINISHED, GameStatus.ABORTED):
        raise Refusal.GAME_FINISHED.error()
    engine = kind_for(game.kind).engine
    assert game.state is not None
    state = engine.state_from_wire(game.state)
    seat = to_play = state.current_seat
    assert seat is not None and to_play is not None  # an active game always has a seat to play
    move_type = command.get("type")
    if acting is not None:
        seat = acting(game, state)
    elif actor is not None and isinstance(move_type, str) and move_type in ending.TYPES:
        raise Refusal.ENDING_MOVE.error()
    elif actor is not None:
        mine = controlled_seats(game, actor)
        if not mine:
            raise Refusal.NOT_A_SEAT_HOLDER.error()
        if seat not in mine:
            raise Refusal.NOT_YOUR_TURN.error()
        requested = command.get("seat")
        if requested is not None and requested != seat:
            raise Refusal.NOT_YOUR_TURN.error(field="seat")

    if "client_seed" in command:
        # The seat's own client seed, given with its command (fixed by its first roll).
        fairness.seat_seed_give(game, seat, command["client_seed"])
        command = {key: value for key, value in command.items() if key != "client_seed"}
    # Whatever the command, any dice it throws are the seat's to play (a stand-in's turn too).
    roller = fairness.roller_for(game, to_play)
    try:
        parsed = engine.command_from_wire(command, seat)
        decided = engine.decide(state, parsed, roller)
    except RuleError as exc:
        raise refused_by_rules(exc) from None
    decided = [*decided, *_at_limit(game, state, decided, roller)]
    events = fairness.after_decision(game, roller, decided)
    records, after = _append(game, state, events, actor=actor, automatic=automatic)
    return MoveResult(game=game, events=records, state=after)


def _at_limit(
    game: Game, state: WireState, decided: Sequence[WireEvent], roller: DiceRoller
) -> list[WireEvent]:
    """The events that end the game where this move brings its log to its kind's ``max_events``
    (``limit_reached``, then ``game_finished`` with the totals as they stand); none before, nor
    after a move that ended the game itself."""
    kind = kind_for(game.kind)
    if game.version + len(decided) < kind.max_events:
        return []
    after = state
    for event in decided:
        after = kind.engine.apply(after, event)
    seat = after.current_seat
    if seat is None:
        return []
    limit = ending.EndAtLimit(seat=seat, limit="events", count=kind.max_events)
    return kind.engine.decide(after, limit, roller)


def _append(
    game: Game,
    state: WireState | None,
    events: Sequence[WireEvent],
    *,
    actor: Player | None,
    automatic: bool,
    more: Sequence[str] = (),
) -> tuple[list[GameEvent], WireState]:
    """Append ``events`` after ``game.version``, fold them into the snapshot, save (with the
    columns ``more`` too): inside the caller's transaction, with the game row locked. Returns the
    records and the new state."""
    engine = kind_for(game.kind).engine
    now = timezone.now()
    records = []
    for offset, event in enumerate(events, start=1):
        state = engine.apply(state, event)
        records.append(
            GameEvent(
                game=game,
                seq=game.version + offset,
                type=event.type,
                data=event.to_wire(),
                actor=actor,
                automatic=automatic,
                created_at=now,
            )
        )
    assert state is not None
    event_store.events_append(records)
    seat = state.current_seat
    computer_to_play = seat is not None and seat in computer_seats(game)
    context = MoveContext(
        kind=game.kind,
        seat_is_computer=computer_to_play,
        turn_passed=seat != game.turn_seat,
        turn_clock_seconds=game.turn_clock_seconds,
    )
    game.deadline_at = deadline_after(
        state=state, events=events, previous=game.deadline_at, context=context, now=now
    )
    game.version += len(records)
    game.state = state.to_wire()
    game.turn_seat = seat
    game.last_move_at = now
    fields = [
        "version", "state", "turn_seat", "status", "started_at", "finished_at", "last_move_at",
        "deadline_at", "dice_rolls", "seat_rolls", *more,
    ]  # fmt: skip
    if state.finished and game.status == GameStatus.ACTIVE:
        game.finished_at = timezone.now()
        if state.aborted:  # no result, nothing rated
            game.status = GameStatus.ABORTED
        else:
            game.status = GameStatus.FINISHED
            finish = next(e for e in reversed(events) if e.type == "game_finished").to_wire()
            seats = list(game.seats.all())
            for row in seats:  # standings and histories need no replay
                row.place = state.places[row.index]
                row.final_total = finish["totals"][row.index]
            Seat.objects.bulk_update(seats, ["place", "final_total"])
            # In the move's transaction: a finished game and its ratings (games.accounts)
            # commit together.
            game_finished.send(sender=Game, game=game)
    event_store.snapshot_save(game, fields)

    advance = followups.Advance.capture(
        game, finished=state.finished, computer_to_play=computer_to_play, records=records
    )
    transaction.on_commit(lambda: followups.after_commit(advance))
    return records, state


def computer_seats(game: Game) -> set[int]:
    return {seat.index for seat in game.seats.all() if seat.occupant == Occupant.COMPUTER}
