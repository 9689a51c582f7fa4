"""An account leaves every game it is in: what a ban and an account's deletion do to its games
(``games.moderation.actions.player_cut_off``). A game in play is resigned through the one move path
for every seat the account controls (hot seats included) still playing; an open game it created is
cancelled, an open game it joined gets its seat back.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from games.ending import game_cancel, game_leave, game_resign
from games.models import Game, GameId, GameStatus, Occupant
from games.seating import controlled_seats
from players.models import Player

#: Refusals that mean the game moved on meanwhile (another move ended it, the seat already
#: left): nothing is left to do there.
_ALREADY_OVER = {
    Refusal.GAME_FINISHED.code,
    Refusal.GAME_NOT_ACTIVE.code,
    Refusal.GAME_NOT_OPEN.code,
    Refusal.GAME_NOT_FOUND.code,
    Refusal.SEAT_OUT.code,
    Refusal.NOT_A_SEAT_HOLDER.code,
}


@dataclass(frozen=True)
class GamesLeft:
    #: Games in play where the account resigned at least one seat.
    resigned: int
    #: Open games it had joined, its seat given back.
    left: int
    #: Open games it had created, cancelled.
    cancelled: int


def _running_games(player: Player) -> list[GameId]:
    seated = Q(seats__player=player) | Q(created_by=player, seats__occupant=Occupant.HOTSEAT)
    games = Game.objects.filter(seated, status=GameStatus.ACTIVE).order_by("created_at", "id")
    return list(games.values_list("pk", flat=True).distinct())


def _resign_every_seat(game_id: GameId, player: Player) -> bool:
    """Resign each seat ``player`` controls in the game, one move each; whether any was."""
    resigned = False
    seat: int | None = None  # the first: the one game_resign picks (the seat to play if theirs)
    while True:
        try:
            result = game_resign(game_id=game_id, player=player, seat=seat)
        except ApiError as refusal:
            if refusal.entry.code in _ALREADY_OVER:
                return resigned
            raise
        resigned = True
        if result.game.status != GameStatus.ACTIVE:
            return True
        out = set(getattr(result.state, "out", ()))
        live = sorted(controlled_seats(result.game, player) - out)
        if not live:
            return True
        seat = live[0]


def player_running_games_end(*, player: Player) -> GamesLeft:
    """``player`` leaves every game: resigns those in play, gives back or cancels the open ones.
    Each game is its own transaction (or the caller's): a game ended here stays ended."""
    resigned = sum(_resign_every_seat(game_id, player) for game_id in _running_games(player))
    left = cancelled = 0
    open_games = Game.objects.filter(status=GameStatus.OPEN)
    for game_id in open_games.filter(created_by=player).values_list("pk", flat=True):
        try:
            game_cancel(game_id=game_id, player=player)
        except ApiError as refusal:  # started meanwhile: then it is a game in play
            if refusal.entry.code not in _ALREADY_OVER:
                raise
            resigned += _resign_every_seat(game_id, player)
            continue
        cancelled += 1
    joined = open_games.filter(seats__player=player).exclude(created_by=player)
    for game_id in joined.values_list("pk", flat=True).distinct():
        try:
            game_leave(game_id=game_id, player=player)
        except ApiError as refusal:
            if refusal.entry.code not in _ALREADY_OVER:
                raise
            resigned += _resign_every_seat(game_id, player)
            continue
        left += 1
    return GamesLeft(resigned=resigned, left=left, cancelled=cancelled)
