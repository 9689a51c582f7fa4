"""Voiding a game's rating changes (moderation, from the admin): its ``RatingChange`` rows are
kept, marked void with the reason, and the kind's ratings computed again without the game.

Glicko-2 carries each player's deviation and volatility from game to game, and each game reads its
opponents' ratings as they were: removing one moves every later rating of its players, and through
them their opponents'. So the kind's rated games are replayed in the order they were rated, the
void ones left out; moved change rows are rewritten and each rating becomes the replay's. It reads
the kind's whole history: moderation is rare, and a few thousand games take under a second.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from config.vocabulary.refusals import Refusal
from games.accounts.rating_service import COMPUTER_DEVIATION, rated_seats
from games.kinds import kind_for
from games.models import GameId, Seat
from players import ratings as glicko
from players.models import PlayerRating, RatingChange


@dataclass(frozen=True)
class Voided:
    #: The game's rating changes marked void.
    changes: int
    #: Later rating changes whose figures the replay moved.
    recomputed: int
    #: Accounts whose rating moved.
    players: int


@dataclass
class _Player:
    rating: glicko.Rating
    games: int = 0


@transaction.atomic
def game_ratings_void(*, game_id: GameId, reason: str) -> Voided:
    """Mark ``game_id``'s rating changes void and replay the kind's ratings without it;
    ``not_rated`` if it has none left to void."""
    changes = list(
        RatingChange.objects.select_for_update().filter(game_id=game_id, voided_at__isnull=True)
    )
    if not changes:
        raise Refusal.NOT_RATED.error()
    kind = changes[0].kind
    # Every rating of the kind, locked (in one order): the replay may rewrite any of them, and a
    # game rated meanwhile waits, then reads the replayed rating.
    stored = {row.player_id: row for row in PlayerRating.objects.select_for_update()
              .filter(kind=kind).order_by("pk")}  # fmt: skip
    RatingChange.objects.filter(pk__in=[change.pk for change in changes]).update(
        voided_at=timezone.now(), void_reason=reason[:200]
    )
    replayed, recomputed = _replay(kind)
    moved = 0
    for player_id in {*stored, *replayed}:
        now = replayed.get(player_id, _Player(glicko.Rating()))
        row = stored.get(player_id) or PlayerRating(player_id=player_id, kind=kind)
        figures = (now.rating.rating, now.rating.deviation, now.rating.volatility, now.games)
        if (row.rating, row.deviation, row.volatility, row.games) != figures:
            row.rating, row.deviation, row.volatility, row.games = figures
            row.save()
            moved += 1
    return Voided(changes=len(changes), recomputed=recomputed, players=moved)


def _replay(kind: str) -> tuple[dict[int, _Player], int]:
    """Every account's rating after the kind's rated games not void, in the order they were
    rated; and how many change rows were rewritten on the way."""
    history = RatingChange.objects.filter(kind=kind, voided_at__isnull=True).order_by("id")
    by_game: dict[GameId, dict[int, RatingChange]] = defaultdict(dict)
    for change in history:
        by_game[change.game_id][change.player_id] = change  # in rating order (dicts keep it)
    seats: dict[GameId, list[Seat]] = defaultdict(list)
    for seat in rated_seats(Seat.objects.filter(game_id__in=list(by_game))).order_by("index"):
        seats[seat.game_id].append(seat)
    level_rating = kind_for(kind).level_rating
    players: dict[int, _Player] = {}
    rewritten: list[RatingChange] = []
    for game_id, rows in by_game.items():
        table = seats[game_id]
        # As rating_service.game_rate: an account at its rating, a computer at its level's.
        before = [
            players.setdefault(seat.player_id, _Player(glicko.Rating())).rating
            if seat.player_id is not None
            else glicko.Rating(level_rating(seat.level), COMPUTER_DEVIATION)
            for seat in table
        ]
        after = glicko.update_table(before, [seat.place or 0 for seat in table])
        for seat, old, new in zip(table, before, after, strict=True):
            found = rows.get(seat.player_id) if seat.player_id is not None else None
            if found is None:
                continue
            player = players[found.player_id]
            player.rating, player.games = new, player.games + 1
            figures = (old.rating, new.rating, new.deviation)
            if (found.rating_before, found.rating_after, found.deviation_after) != figures:
                found.rating_before, found.rating_after, found.deviation_after = figures
                rewritten.append(found)
    fields = ["rating_before", "rating_after", "deviation_after"]
    RatingChange.objects.bulk_update(rewritten, fields, batch_size=500)
    return players, len(rewritten)
