"""A game with its seats, its creator and the seats' accounts, in one query (compiled once:
``config.storage.orm_shortcuts``), the seats attached as ``prefetch_related`` would: what moves
(locked, ``FOR UPDATE OF`` the game row and its seats) and reads start from.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from config.storage.orm_shortcuts import PreparedSelect
from config.vocabulary.refusals import Refusal
from games.models import Game, GameId, Seat
from players.models import Player


def _seats_of(*, lock: bool) -> Callable[[GameId], QuerySet[Seat]]:
    def build(game_id: GameId) -> QuerySet[Seat]:
        seats = Seat.objects.select_related("game__created_by", "player").filter(game_id=game_id)
        # The game row serialises every write on the game; the seats are locked with it only to
        # be read as they are once it is ours. PostgreSQL, having waited for a lock, reads again
        # the rows it locks and no other: with the game row alone, a join that waited for
        # another join would see the seat still open and take it too (both answered 200, one
        # overwritten), a start that waited for a leave would start with an empty seat. SQLite
        # has no FOR UPDATE; its transactions take the write lock when they begin (settings).
        locked = seats.select_for_update(of=("game", "self"))
        return (locked if lock else seats).order_by("index")

    return build


_GAME_FIELD = Seat._meta.get_field("game")
_READ = PreparedSelect(_seats_of(lock=False), _GAME_FIELD, uuid.UUID(int=0))
_LOCKED = PreparedSelect(_seats_of(lock=True), _GAME_FIELD, uuid.UUID(int=0))


def game_with_seats(game_id: GameId, *, lock: bool = False) -> Game:
    """The game (``Game.DoesNotExist``; ``ValidationError`` or ``ValueError`` for an id that
    cannot be one), with ``lock`` its row locked until the transaction ends."""
    seats = (_LOCKED if lock else _READ)(game_id)
    if lock:
        _accounts_read_again(seats)
    if seats:
        game = seats[0].game
    else:  # every game has seats, so this one most likely does not exist
        games = Game.objects.select_related("created_by")
        if lock:
            games = games.select_for_update(of=("self",))
        game = games.get(pk=game_id)
    game.use_seats(seats)
    return game


def _accounts_read_again(seats: list[Seat]) -> None:
    """The accounts of seats taken while the lock was awaited. PostgreSQL reads the locked rows
    again after the wait, but not the rows joined to them: a seat someone joined meanwhile comes
    back with its new ``player_id`` and the account the first read found, none. Rare (only after
    a wait), so one more query then, rather than a lock on every account in every move."""
    stale = [seat for seat in seats if seat.player_id is not None and seat.player is None]
    if stale:
        accounts = Player.objects.in_bulk([seat.player_id for seat in stale])
        for seat in stale:
            seat.player = accounts[seat.player_id]


def game_found(game_id: GameId, *, lock: bool = False) -> Game:
    """``game_with_seats``, or the API's ``not_found`` refusal for a game that is not there (or
    an id that cannot be one): what every service and read of one game starts from."""
    try:
        return game_with_seats(game_id, lock=lock)
    except (Game.DoesNotExist, ValueError, ValidationError):
        raise Refusal.GAME_NOT_FOUND.error() from None
