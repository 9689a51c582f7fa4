"""What rated play asks, so that a rating cannot be bought with a second account: the kind's preset
options, a few finished games, few aborts a day, and a daily limit on rated games between the same
two accounts (later ones are played unrated). Each limit is a setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from config.vocabulary.refusals import Refusal
from games.kinds import kind_for
from games.models import Game, GameEvent, GameStatus, Seat
from players.models import Player

DAY = timedelta(hours=24)


def rated_seek_check(
    *, player: Player, kind: str, options: Mapping[str, Any], now: datetime
) -> None:
    """Refuse a rated seek the account may not make: options off the kind's presets (400), too
    few finished games (403), too many aborts in the last 24 h (409)."""
    presets = kind_for(kind).rated_presets
    for name, value in options.items():
        allowed = presets.get(name, ())
        if value not in allowed:
            raise Refusal.RATED_OPTION_NOT_ALLOWED.error(
                field=f"options.{name}", params={"allowed": list(allowed)}
            )
    needed = int(settings.RATED_MIN_FINISHED_GAMES)
    finished = Seat.objects.filter(player=player, game__status=GameStatus.FINISHED)
    if finished.count() < needed:
        raise Refusal.RATED_NEEDS_FINISHED_GAMES.error(params={"games": needed})
    limit = int(settings.RATED_ABORTS_PER_DAY)
    aborts = GameEvent.objects.filter(type="game_aborted", actor=player, created_at__gt=now - DAY)
    if aborts.count() >= limit:
        raise Refusal.TOO_MANY_ABORTS.error(params={"limit": limit})


def rated_between(players: Sequence[Player], now: datetime) -> bool:
    """Whether a new game of these accounts may be rated: no two of them have played
    ``RATED_GAMES_PER_PAIR_PER_DAY`` rated games together in the last 24 h."""
    limit = int(settings.RATED_GAMES_PER_PAIR_PER_DAY)
    ids = sorted({player.pk for player in players})
    for index, first in enumerate(ids):
        for second in ids[index + 1 :]:
            together = (
                Game.objects.filter(rated=True, created_at__gt=now - DAY, seats__player=first)
                .filter(seats__player=second)
                .exclude(status=GameStatus.ABORTED)
            )
            if together.count() >= limit:
                return False
    return True
