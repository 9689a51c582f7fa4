"""Ending a game before its rules do: resign, claim, abort, leave and cancel, and the sweep that
cancels open games nobody joined.

A game in play ends through the one move path (``games.services.game_move``) with a command of
``games.rules.ending``: each service here only says, with the game locked, which seat sends it, or
refuses. So a resigned or claimed game finishes as any other (rated, its tournament advanced), an
aborted one with no result. An open game has no log yet: leaving and cancelling change its rows.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from games.kinds import WireState, kind_for
from games.loading import game_found
from games.models import Game, GameEvent, GameId, GameStatus
from games.seating import controlled_seats
from games.services import MoveResult, computer_seats, game_move
from players.models import Player

log = logging.getLogger(__name__)


def _own_seats(game: Game, player: Player) -> set[int]:
    mine = controlled_seats(game, player)
    if not mine:
        raise Refusal.NOT_A_SEAT_HOLDER.error()
    return mine


def _out(state: WireState) -> set[int]:
    return set(getattr(state, "out", ()))


def game_resign(
    *,
    game_id: GameId,
    player: Player,
    seat: int | None = None,
    expected_version: int | None = None,
) -> MoveResult:
    """``player``'s seat leaves the game (``seat``, for one who holds several: hot-seat games;
    else the seat to play if it is theirs, else their first seat still playing)."""

    def acting(game: Game, state: WireState) -> int:
        mine = _own_seats(game, player)
        if seat is not None:
            if seat not in mine:
                raise Refusal.NOT_A_SEAT_HOLDER.error(field="seat")
            return seat
        live = sorted(mine - _out(state)) or sorted(mine)  # none left: the rules say seat_out
        return state.current_seat if state.current_seat in live else live[0]

    return game_move(
        game_id=game_id,
        command={"type": "resign"},
        actor=player,
        expected_version=expected_version,
        acting=acting,
    )


def game_abort(*, game_id: GameId, player: Player) -> MoveResult:
    """Call the game off, before any dice are thrown in it; never a tournament's."""

    def acting(game: Game, state: WireState) -> int:
        mine = _own_seats(game, player)
        if Game.objects.filter(pk=game.pk, tournament_game__isnull=False).exists():
            raise Refusal.TOURNAMENT_GAME.error()
        return min(mine)

    return game_move(game_id=game_id, command={"type": "abort"}, actor=player, acting=acting)


def idle_since(game: Game) -> datetime:
    """When the seat to play last did something that counts (marking a box does not), or its turn
    began: the time of the game's latest event of a kind that restarts the clock."""
    kept = kind_for(game.kind).clock_kept_by
    latest = (
        GameEvent.objects.filter(game_id=game.pk)
        .exclude(type__in=kept)
        .order_by("-seq")
        .values_list("created_at", flat=True)
        .first()
    )
    return latest or game.started_at or game.created_at


def game_claim(*, game_id: GameId, player: Player, now: datetime | None = None) -> MoveResult:
    """Another seat's player claims the idle seat to play: in a game of two, the win; else that
    seat leaves the game and play goes on. Never in a game with a turn clock: there the clock
    decides (its stand-in plays a timed-out turn, a second one in a row leaves the game), and a
    claim sent the moment the clock runs out would race the stand-in for the win."""

    def acting(game: Game, state: WireState) -> int:
        mine = _own_seats(game, player)
        idle = state.current_seat
        if idle in mine or idle in computer_seats(game) or game.turn_clock_seconds:
            raise Refusal.NOT_CLAIMABLE.error()
        live = sorted(mine - _out(state))
        if not live:
            raise Refusal.SEAT_OUT.error()
        waited = ((now or timezone.now()) - idle_since(game)).total_seconds()
        grace = int(settings.CLAIM_GRACE_SECONDS)
        if waited < grace:
            raise Refusal.CLAIM_TOO_EARLY.error(params={"seconds_left": round(grace - waited, 1)})
        return live[0]

    return game_move(game_id=game_id, command={"type": "claim"}, actor=player, acting=acting)


def _lock_open(game_id: GameId) -> Game:
    game = game_found(game_id, lock=True)
    if game.status != GameStatus.OPEN:
        raise Refusal.GAME_NOT_OPEN.error()
    return game


@transaction.atomic
def game_leave(*, game_id: GameId, player: Player) -> Game:
    """Give back the seat ``player`` took in an open game (its creator cancels it instead)."""
    game = _lock_open(game_id)
    if game.created_by_id == player.pk:
        raise Refusal.CREATOR_CANNOT_LEAVE.error()
    seat = next((seat for seat in game.seats.all() if seat.player_id == player.pk), None)
    if seat is None:
        raise Refusal.NOT_A_SEAT_HOLDER.error()
    seat.player = None
    seat.client_seed = ""  # the leaver's, not the next player's
    seat.save(update_fields=["player", "client_seed"])
    return game


@transaction.atomic
def game_cancel(*, game_id: GameId, player: Player | None) -> None:
    """The creator (``None``: the server, for an expired game) cancels an open game: it is
    deleted with its seats (it has no log yet)."""
    game = _lock_open(game_id)
    if player is not None and game.created_by_id != player.pk:
        raise Refusal.NOT_CREATOR.error()
    game.delete()


def open_games_expire(*, now: datetime | None = None, limit: int = 500) -> int:
    """Cancel the open games created more than ``OPEN_GAME_TTL_HOURS`` ago; how many. Beat runs
    it every minute."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.OPEN_GAME_TTL_HOURS)
    stale = Game.objects.filter(status=GameStatus.OPEN, created_at__lt=cutoff)
    cancelled = 0
    for game_id in stale.values_list("pk", flat=True)[:limit]:
        try:
            game_cancel(game_id=game_id, player=None)
        except ApiError:  # started or cancelled meanwhile
            continue
        cancelled += 1
    if cancelled:
        log.info("cancelled %d open games past %s h", cancelled, settings.OPEN_GAME_TTL_HOURS)
    return cancelled
