"""Every write on a seek (make one, pairing it at once with a compatible open seek; withdraw it,
or all of an account's; expire them) and the reads (an account's open seeks, one seek).

Pairing is serialised by one transaction-scoped PostgreSQL advisory lock for the whole lobby, as a
lobby with a single worker would (lichess's is one actor): a seek sees every seek committed before
it, so two compatible seeks never both stay open and a seek is in at most one game. One lock, not
one per kind: pairing withdraws both players' other seeks of any kind, and one player's seeks of
two kinds must not pair at once into two games. The expiry sweep takes it too; SQLite needs none.
``tests/matchmaking`` races them.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from config.vocabulary.refusals import Refusal, refused_by_rules
from games import services
from games.followups import live, notes
from games.kinds import kind_for
from games.matchmaking.models import Seek, SeekStatus
from games.matchmaking.rated import rated_between, rated_seek_check
from games.models import Game
from games.rules import RuleError
from games.rules.fairness import is_client_seed
from players import ratings
from players.models import Player, PlayerRating

log = logging.getLogger(__name__)

# The advisory lock's key: any fixed number, as long as nothing else in the database uses it.
PAIRING_LOCK = 0x5EE6_0001


def seeks_open(*, player: Player, now: datetime | None = None) -> QuerySet[Seek]:
    """The account's seeks still waiting for an opponent, oldest first."""
    return Seek.objects.filter(
        player=player, status=SeekStatus.OPEN, expires_at__gt=now or timezone.now()
    )


def seek_get(*, seek_id: int, player: Player, now: datetime | None = None) -> Seek:
    """One of the account's seeks, whatever became of it (another's is not found); one past its
    ``expires_at`` is answered expired even before the sweep marks it."""
    seek = Seek.objects.filter(pk=seek_id, player=player).first()
    if seek is None:
        raise Refusal.SEEK_NOT_FOUND.error()
    if seek.status == SeekStatus.OPEN and not seek.open_at(now or timezone.now()):
        seek.status = SeekStatus.EXPIRED  # as the sweep will write it; nothing is saved here
    return seek


@transaction.atomic
def seek_create(
    *,
    player: Player,
    kind: str,
    options: Mapping[str, Any],
    rated: bool = False,
    turn_clock_seconds: int | None = None,
    rating_min: int | None = None,
    rating_max: int | None = None,
    client_seed: str = "",
    now: datetime | None = None,
) -> Seek:
    """Queue ``player`` for a game; with a compatible open seek (``_compatible``) the two become a
    started game now, the seek comes back paired, and both players' other open seeks are
    withdrawn (one game at a time). ``client_seed``: the seeker's seat's, once paired."""
    now = now or timezone.now()
    if client_seed and not is_client_seed(client_seed):
        raise Refusal.INVALID_CLIENT_SEED.error(field="client_seed")
    services.turn_clock_choice(turn_clock_seconds)
    if rated and turn_clock_seconds is None:
        # A rated game without a clock could be stalled by the losing side for ever.
        raise Refusal.RATED_SEEK_NEEDS_CLOCK.error()
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise Refusal.INVALID_RATING_RANGE.error()
    try:
        parsed = kind_for(kind).engine.options_from_wire(options)
    except RuleError as exc:
        raise refused_by_rules(exc) from None
    full_options = dataclasses.asdict(parsed)
    if rated:
        rated_seek_check(player=player, kind=kind, options=full_options, now=now)
    options_key = json.dumps(full_options, sort_keys=True, separators=(",", ":"))

    # Taken before the account's row: a pairing holding it never waits for a row that a seek
    # waiting for it holds.
    _serialise_pairing()
    # The account's row serialises its own seeks past the count. FOR NO KEY UPDATE, as every lock
    # on an account's row (see moderation.actions.player_ban): FOR UPDATE would hold up a commit
    # referring to the account (an opponent's ban resigning their game) while this waits below.
    Player.objects.select_for_update(no_key=True).filter(pk=player.pk).exists()
    limit = int(settings.MAX_OPEN_SEEKS_PER_ACCOUNT)
    if seeks_open(player=player, now=now).count() >= limit:
        raise Refusal.TOO_MANY_OPEN_SEEKS.error(params={"limit": limit})

    row = PlayerRating.objects.filter(player=player, kind=kind).only("rating").first()
    rating = row.rating if row is not None else ratings.Rating().rating  # a newcomer's
    seek = Seek(
        player=player,
        kind=kind,
        options=full_options,
        options_key=options_key,
        rated=rated,
        turn_clock_seconds=turn_clock_seconds,
        rating_min=rating_min,
        rating_max=rating_max,
        rating=rating,
        client_seed=client_seed,
        expires_at=now + timedelta(minutes=float(settings.SEEK_TTL_MINUTES)),
    )
    other = _partner(seek, now)
    if other is None:
        seek.save()
        return seek
    seek.status = SeekStatus.PAIRED
    seek.game = _pair(other, seek, now)
    seek.save()
    other.status, other.game = SeekStatus.PAIRED, seek.game
    other.save(update_fields=["status", "game"])
    withdrawn = Seek.objects.filter(
        player_id__in=(seek.player_id, other.player_id), status=SeekStatus.OPEN
    ).update(status=SeekStatus.WITHDRAWN)
    if withdrawn:
        log.info("pairing into game %s withdrew %d other seeks", seek.game.pk, withdrawn)
    _tell_paired(seek.game, [other, seek])
    return seek


def _serialise_pairing() -> None:
    """Wait for, and hold until this transaction ends, the lobby's pairing lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PAIRING_LOCK])


def _partner(seek: Seek, now: datetime) -> Seek | None:
    """The oldest open seek ``seek`` may pair with, locked, or none. Its player's row is locked
    first, in the order a ban or a deletion takes them (the row, then its seeks), so neither
    waits for the other crosswise. Under the pairing lock, whoever else holds the seek is
    withdrawing it, briefly: it is waited on, then read again."""
    while True:
        found = _compatible(seek, now).values_list("pk", "player_id").first()
        if found is None:
            return None
        seek_id, player_id = found
        Player.objects.select_for_update(no_key=True).filter(pk=player_id).exists()
        other = _compatible(seek, now).filter(pk=seek_id).select_for_update().first()
        if other is not None:
            return other  # else withdrawn meanwhile: the next one


def _compatible(seek: Seek, now: datetime) -> QuerySet[Seek]:
    """The open seeks ``seek`` may pair with, oldest first: the same kind, options, clock and
    rated flag, another account, each player inside the other's rating range."""
    candidates = Seek.objects.filter(
        status=SeekStatus.OPEN,
        expires_at__gt=now,
        kind=seek.kind,
        options_key=seek.options_key,
        rated=seek.rated,
        turn_clock_seconds=seek.turn_clock_seconds,
    ).exclude(player_id=seek.player_id)
    # The seeker inside the other's range, and the other inside the seeker's.
    candidates = candidates.filter(Q(rating_min__isnull=True) | Q(rating_min__lte=seek.rating))
    candidates = candidates.filter(Q(rating_max__isnull=True) | Q(rating_max__gte=seek.rating))
    if seek.rating_min is not None:
        candidates = candidates.filter(rating__gte=seek.rating_min)
    if seek.rating_max is not None:
        candidates = candidates.filter(rating__lte=seek.rating_max)
    return candidates.order_by("created_at", "id")


def _pair(first: Seek, second: Seek, now: datetime) -> Game:
    """The started game of two seeks, who sits first drawn, each with its seek's client seed;
    rated unless the two have played their rated games of the day together (``rated``)."""
    seated = [first, second]
    if secrets.randbelow(2):
        seated.reverse()
    players = [seek.player for seek in seated]
    game = services.game_create(
        creator=players[0],
        kind=first.kind,
        seats=[
            services.SeatSpec(type="player", player=seek.player, client_seed=seek.client_seed)
            for seek in seated
        ],
        options=first.options,
        turn_clock_seconds=first.turn_clock_seconds,
        rated=first.rated and rated_between(players, now),
        by_account=False,
    )
    return services.game_start(game_id=game.pk, player=players[0])


def _tell_paired(game: Game, seeks: list[Seek]) -> None:
    seat_of = {seat.player_id: seat.index for seat in game.seats.all()}
    told = [
        (
            seek.player_id,
            notes.SeekPaired(
                seek=seek.pk, game=str(game.pk), kind=game.kind, seat=seat_of[seek.player_id]
            ),
        )
        for seek in seeks
    ]
    live.publish_on_commit(told)


@transaction.atomic
def seek_withdraw(*, seek_id: int, player: Player) -> Seek:
    """The seeker takes an open seek back (another's seek is not found)."""
    seek = Seek.objects.select_for_update().filter(pk=seek_id, player=player).first()
    if seek is None:
        raise Refusal.SEEK_NOT_FOUND.error()
    if not seek.open_at(timezone.now()):
        raise Refusal.SEEK_NOT_OPEN.error()
    seek.status = SeekStatus.WITHDRAWN
    seek.save(update_fields=["status"])
    return seek


def seeks_withdraw_for_player(*, player: Player) -> int:
    """Withdraw every open seek of ``player`` (a ban, a deleted account); how many. One UPDATE:
    a seek being paired meanwhile is waited on, then left alone. The caller holds the account's
    row, so this must not wait for the pairing lock (a pairing holds it while it waits for that
    row)."""
    return Seek.objects.filter(player=player, status=SeekStatus.OPEN).update(
        status=SeekStatus.WITHDRAWN
    )


@transaction.atomic
def seeks_expire(*, now: datetime | None = None) -> int:
    """Mark the open seeks past their ``expires_at`` expired; how many (beat, every
    ``SEEK_SWEEP_SECONDS``: pairing ignores them already, this tidies their status)."""
    _serialise_pairing()
    expired = Seek.objects.filter(
        status=SeekStatus.OPEN, expires_at__lte=now or timezone.now()
    ).update(status=SeekStatus.EXPIRED)
    if expired:
        log.info("expired %d seeks past %s min", expired, settings.SEEK_TTL_MINUTES)
    return expired
