"""A game with its seats, its creator and the seats' accounts, in one query.

Moves (locked, ``FOR UPDATE OF`` the game row only) and reads (``games.selectors.game_get``) start
from this: the seats are read joined to their game, and attached to it as ``prefetch_related``
would, so ``game.seats.all()`` costs nothing more. The query is compiled once (config.queries).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from config.queries import PreparedSelect
from config.refusals import Refusal
from games.models import Game, GameId, Seat


def _seats_of(*, lock: bool) -> Callable[[GameId], QuerySet[Seat]]:
    def build(game_id: GameId) -> QuerySet[Seat]:
        seats = Seat.objects.select_related("game__created_by", "player").filter(game_id=game_id)
        # Only the game row is locked: it alone serialises moves. SQLite has no FOR UPDATE; its
        # transactions take the write lock when they begin (settings).
        return (seats.select_for_update(of=("game",)) if lock else seats).order_by("index")

    return build


_GAME_FIELD = Seat._meta.get_field("game")
_READ = PreparedSelect(_seats_of(lock=False), _GAME_FIELD, uuid.UUID(int=0))
_LOCKED = PreparedSelect(_seats_of(lock=True), _GAME_FIELD, uuid.UUID(int=0))


def game_with_seats(game_id: GameId, *, lock: bool = False) -> Game:
    """The game (``Game.DoesNotExist``; ``ValidationError`` or ``ValueError`` for an id that
    cannot be one), with ``lock`` its row locked until the transaction ends."""
    seats = (_LOCKED if lock else _READ)(game_id)
    if seats:
        game = seats[0].game
    else:  # every game has seats, so this one most likely does not exist
        games = Game.objects.select_related("created_by")
        if lock:
            games = games.select_for_update(of=("self",))
        game = games.get(pk=game_id)
    game.use_seats(seats)
    return game


def game_found(game_id: GameId, *, lock: bool = False) -> Game:
    """``game_with_seats``, or the API's ``not_found`` refusal for a game that is not there (or
    an id that cannot be one): what every service and read of one game starts from."""
    try:
        return game_with_seats(game_id, lock=lock)
    except (Game.DoesNotExist, ValueError, ValidationError):
        raise Refusal.GAME_NOT_FOUND.error() from None
