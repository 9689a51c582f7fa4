"""What the admin's dashboard lists from rated play of the last 24 h: pairs of accounts with more
rated games together than the daily limit rates, and rated games resigned before the resigning
seat's third turn (the usual shape of a rating passed between accounts). Each row links to the
account's games in the admin, where their ratings are voided.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.models import Game, GameEvent, GameId, GameStatus, Seat

DAY = timedelta(hours=24)
#: Rated games the lists read at most (the latest first): a bound on the dashboard's work.
LOOKED_AT = 2000


def _games_link(username: str, text: str) -> SafeString:
    url = reverse("admin:games_game_changelist")
    return format_html('<a href="{}?q={}">{}</a>', url, username, text)


def pairs_over_limit(now: datetime) -> list[tuple[str, Any]]:
    """Pairs of accounts with more rated games together in 24 h than the daily limit rates."""
    recent = Game.objects.filter(rated=True, created_at__gt=now - DAY).exclude(
        status=GameStatus.ABORTED
    )
    ids = list(recent.order_by("-created_at").values_list("pk", flat=True)[:LOOKED_AT])
    players: dict[object, list[str]] = {}
    seats = Seat.objects.filter(game_id__in=ids, player__isnull=False)
    for game_id, username in seats.values_list("game_id", "player__username"):
        players.setdefault(game_id, []).append(username)
    together = Counter(
        pair for names in players.values() for pair in combinations(sorted(set(names)), 2)
    )
    limit = int(settings.RATED_GAMES_PER_PAIR_PER_DAY)
    return [
        (_games_link(first, f"{first} / {second}"), count)
        for (first, second), count in together.most_common()
        if count > limit
    ]


def quick_resignations(now: datetime) -> list[tuple[str, Any]]:
    """Rated games of the last 24 h resigned before the resigning seat's third turn."""
    resigned = GameEvent.objects.filter(
        type="seat_left",
        data__reason="resigned",
        created_at__gt=now - DAY,
        game__rated=True,
        game__status=GameStatus.FINISHED,
    ).select_related("actor")
    found: list[tuple[str, Any]] = []
    for event in resigned.order_by("-created_at")[:LOOKED_AT]:
        seat = event.data.get("seat")
        if _turns_begun(event.game_id, seat, before=event.seq) < 3:
            name = event.actor.username if event.actor is not None else "-"
            found.append((_games_link(name, name), str(event.game_id)))
    return found


def _turns_begun(game_id: GameId, seat: object, *, before: int) -> int:
    """How many turns ``seat`` had begun: every turn opens with a throw, so the seat's throws
    that follow another seat's (or none)."""
    rolls = GameEvent.objects.filter(game_id=game_id, type="dice_rolled", seq__lt=before)
    begun, previous = 0, None
    for data in rolls.order_by("seq").values_list("data", flat=True):
        thrower = data.get("seat")
        if thrower == seat and previous != seat:
            begun += 1
        previous = thrower
    return begun
