"""What the worker tests check of a game: finished, and a whole log that replays to its snapshot."""

from __future__ import annotations

from games.models import Game, GameEvent, GameStatus
from games.selectors import game_replay_matches_snapshot


def finished(game: Game) -> bool:
    return Game.objects.filter(pk=game.pk, status=GameStatus.FINISHED).exists()


def assert_whole_log(game: Game) -> None:
    game.refresh_from_db()
    seqs = list(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert game_replay_matches_snapshot(game)
