"""Reads on games: lists, event pages, and the state at any point of a game's history."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from config.vocabulary.refusals import Refusal
from games.kinds import WireState, kind_for
from games.loading import game_found
from games.models import Game, GameEvent, GameId, GameStatus, Seat
from games.seating import controlled_seats
from players.models import Player


def game_queryset() -> QuerySet[Game]:
    return Game.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
    )


#: The game with its creator, its seats and their accounts (one query).
game_get = game_found


def game_events(game: Game, *, after: int = 0, limit: int | None = None) -> QuerySet[GameEvent]:
    events = game.events.filter(seq__gt=after).order_by("seq")
    return events[:limit] if limit is not None else events


def game_state_at(game: Game, *, at: int | None = None) -> WireState | None:
    """Replay the log up to event ``at`` (the whole log when None): the state a client saw then."""
    if at is not None and not 0 <= at <= game.version:
        raise Refusal.INVALID_SEQ.error()
    if at == 0 or game.version == 0:
        return None
    engine = kind_for(game.kind).engine
    rows = game_events(game).filter(seq__lte=at) if at is not None else game_events(game)
    return engine.replay(engine.event_from_wire(row.data) for row in rows.iterator())


def game_replay_matches_snapshot(game: Game) -> bool:
    """The snapshot must always equal the fold of the log; this is the check."""
    replayed = game_state_at(game)
    if replayed is None:
        return game.state is None
    return replayed.to_wire() == game.state


def game_hint(*, game_id: GameId, player: Player) -> dict[str, Any]:
    """What the computer would play now, for the player who is to move (never for onlookers)."""
    game = game_get(game_id)
    if game.status != GameStatus.ACTIVE or game.state is None:
        raise (
            Refusal.GAME_NOT_STARTED if game.status == GameStatus.OPEN else Refusal.GAME_FINISHED
        ).error()
    if not game.assistance:
        raise Refusal.ASSISTANCE_OFF.error()
    kind = kind_for(game.kind)
    state = kind.engine.state_from_wire(game.state)
    mine = controlled_seats(game, player)
    if not mine:
        raise Refusal.NOT_A_SEAT_HOLDER.error()
    if state.current_seat not in mine:
        raise Refusal.NOT_YOUR_TURN.error()
    return kind.hint(state)
