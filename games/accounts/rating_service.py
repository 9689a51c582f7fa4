"""Glicko-2 ratings per game kind, updated once per finished rated game: a multi-seat game counts
as pairwise results by placement, a computer seat as an opponent rated at its level; hot seats
are left out, and only accounts' ratings change.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from games.kinds import kind_for
from games.models import Game, Occupant, Seat
from players import ratings as glicko
from players.models import PlayerRating, RatingChange

#: A computer seat's rating is its level's (``games.kinds``), with this deviation: well known, it
#: does not drift.
COMPUTER_DEVIATION = 50.0


def rated_seats(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The seats a rating counts, in the rating and in a void's replay: hot seats (guests on
    their host's device) have no rating to stand for them."""
    return seats.exclude(occupant=Occupant.HOTSEAT)


def game_rate(*, game: Any) -> list[RatingChange]:
    """Rate a finished game's accounts against every other seat. Runs inside the move's
    transaction; the unique (game, player) change rows make a second call do nothing."""
    if not game.rated or RatingChange.objects.filter(game=game).exists():
        return []
    seats = list(rated_seats(game.seats.all()).order_by("index"))
    kind = kind_for(game.kind)
    # Its players' rows locked in one order, the one rating_void locks a kind's in: two rating
    # writers never wait for each other crosswise.
    accounts = [seat.player_id for seat in seats if seat.player_id is not None]
    locked = PlayerRating.objects.select_for_update().filter(player_id__in=accounts, kind=game.kind)
    stored = {row.player_id: row for row in locked.order_by("pk")}
    before = []
    for seat in seats:
        if seat.player_id is not None:
            if seat.player_id not in stored:
                stored[seat.player_id] = PlayerRating.objects.create(
                    player_id=seat.player_id, kind=game.kind
                )
            row = stored[seat.player_id]
            before.append(glicko.Rating(row.rating, row.deviation, row.volatility))
        else:
            before.append(glicko.Rating(kind.level_rating(seat.level), COMPUTER_DEVIATION))
    after = glicko.update_table(before, [seat.place or 0 for seat in seats])  # every seat placed
    changes = []
    for seat, new in zip(seats, after, strict=True):
        if seat.player_id is None:
            continue
        row = stored[seat.player_id]
        changes.append(
            RatingChange(
                game=game,
                player_id=row.player_id,
                kind=game.kind,
                rating_before=row.rating,
                rating_after=new.rating,
                deviation_after=new.deviation,
            )
        )
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.save()
    RatingChange.objects.bulk_create(changes)
    return changes


def game_finished_rate(sender: type[Game], *, game: Game, **kwargs: Any) -> None:
    """``games.signals.game_finished``'s receiver: the game and its ratings commit together."""
    game_rate(game=game)


def leaderboard(kind: str) -> QuerySet[PlayerRating]:
    """The ratings a leaderboard lists: not provisional ones (deviation above
    ``LEADERBOARD_MAX_DEVIATION``), so a few lucky games against a second account top nothing."""
    return (
        PlayerRating.objects.filter(
            kind=kind,
            games__gt=0,
            player__is_active=True,
            deviation__lte=settings.LEADERBOARD_MAX_DEVIATION,
        )
        .select_related("player")
        .order_by("-rating", "deviation", "player__username")
    )
