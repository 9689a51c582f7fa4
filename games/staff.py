"""The staff's decisions on a game in play (moderation, from the admin): call it off, or decide its
result, through the one move path with a command of ``games.rules.ending`` that the public move
path refuses, sent by the staff member for no seat of theirs.
"""

from __future__ import annotations

from games.kinds import WireState
from games.models import Game, GameId
from games.services import MoveResult, game_move
from players.models import Player


def _seat_to_play(game: Game, state: WireState) -> int:
    # The staff's commands are no seat's: the move path is handed the seat to play.
    seat = state.current_seat
    assert seat is not None  # a game in play always has one
    return seat


def game_staff_abort(*, game_id: GameId, staff: Player) -> MoveResult:
    """Call the game off, whoever has moved. The admin refuses a tournament's game (an aborted
    table would hold its round up for ever: the staff decide it instead, ``game_adjudicate``)
    but while its tournament is cancelled (``games.tournaments.moderation``)."""
    command = {"type": "staff_abort"}
    return game_move(game_id=game_id, command=command, actor=staff, acting=_seat_to_play)


def game_adjudicate(*, game_id: GameId, staff: Player, winner: int | None) -> MoveResult:
    """Decide the game: ``winner`` (a seat still playing) wins, None a draw."""
    command = {"type": "adjudicate", "winner": winner}
    return game_move(game_id=game_id, command=command, actor=staff, acting=_seat_to_play)
