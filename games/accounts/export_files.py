"""An account's export as a file the workers write and the account downloads.

A Celery task writes the document (``export``) a step at a time, each one short transaction that
stores one part (the head, then ``EXPORT_BATCH`` games, then the tail) as a gzip member in the
database and queues the next after its commit: a big export never holds a worker for long, and
the download sends the parts as stored, reading no game. A step names its part: one delivered
twice, or after the export was replaced, writes nothing. The sweep queues again a step lost for
``STALLED`` and deletes exports ``EXPORT_KEEP_HOURS`` after they were ready (or asked for).
"""

from __future__ import annotations

import gzip
import logging
import zlib
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.accounts import export
from games.models import Game
from players.models import AccountExport, AccountExportPart, ExportStatus, Player
from players.services import player_hold

log = logging.getLogger(__name__)

#: The task that writes a step (``games.accounts.tasks.account_export_step``), queued by its
#: former name, which steps queued before may carry.
STEP_TASK = "players.tasks.account_export_step"
#: An export that has not progressed for this long has a lost step: the sweep queues it again.
STALLED = timedelta(minutes=2)
#: gzip's level for each part: most of the gain for a fraction of the time of the highest.
LEVEL = 6


def _keep() -> timedelta:
    return timedelta(hours=float(settings.EXPORT_KEEP_HOURS))


@transaction.atomic
def account_export_request(*, player: Player) -> AccountExport:
    """The export being written, else a new one (replacing one finished). Under the account's
    row: two requests at once make one export."""
    player_hold(player=player)
    found = AccountExport.objects.filter(player=player).first()
    if found is not None and found.status == ExportStatus.PENDING:
        return found
    if found is not None:  # finished: no step writes it any more
        found.delete()
    now = timezone.now()
    made = AccountExport.objects.create(
        player=player, requested_at=now, progressed_at=now, expires_at=now + _keep()
    )
    transaction.on_commit(lambda: queue_step(made.pk, 0))
    return made


def queue_step(export_id: int, part: int) -> None:
    """Queue the step that writes ``part``; a broker out of reach is the sweep's to make up for."""
    try:
        current_app.signature(STEP_TASK, args=(export_id, part)).apply_async()
    except Exception:
        log.warning("could not queue export %s part %s: the sweep will", export_id, part)


def account_export_of(player: Player) -> AccountExport | None:
    return AccountExport.objects.filter(player=player).first()


@transaction.atomic
def account_export_step(*, export_id: int, part: int) -> bool:
    """Write part ``part`` of the export if it is the part due; whether it wrote."""
    # The export's row alone: the account's is never locked FOR UPDATE (a move of the account
    # would wait for it as it commits: docs/writes.md).
    found = (
        AccountExport.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=export_id, status=ExportStatus.PENDING)
        .first()
    )
    if found is None or found.parts != part:
        return False
    text, done = _next_piece(found)
    data = gzip.compress(text.encode(), compresslevel=LEVEL, mtime=0)
    AccountExportPart.objects.create(export=found, index=part, data=data)
    now = timezone.now()
    found.parts += 1
    found.size += len(text.encode())
    found.stored_size += len(data)
    found.progressed_at = now
    if done:
        found.status = ExportStatus.READY
        found.ready_at = now
        found.expires_at = now + _keep()
    found.save()
    if not done:
        transaction.on_commit(lambda: queue_step(found.pk, part + 1))
    return True


def _next_piece(found: AccountExport) -> tuple[str, bool]:
    """The next piece of the document, and whether it is the last (the caller saves ``found``)."""
    player = found.player
    if found.parts == 0:
        return export.document_head(player, found.requested_at), False
    ids = _next_games(player, found.after_created_at, found.after_game)
    if ids:
        last = Game.objects.values_list("created_at", "pk").get(pk=ids[-1])
        found.after_created_at, found.after_game = last
        text = "".join(
            ("," if found.games + n else "") + export.dumps(game)
            for n, game in enumerate(export.games_of(ids))
        )
        found.games += len(ids)
        return text, False
    return export.document_tail(player), True


def _next_games(player: Player, created_at: datetime | None, game_id: UUID | None) -> list[Any]:
    """The next ``EXPORT_BATCH`` games the account sat in or created, oldest first."""
    games = Game.objects.filter(Q(seats__player=player) | Q(created_by=player))
    if created_at is not None:
        games = games.filter(
            Q(created_at__gt=created_at) | Q(created_at=created_at, pk__gt=game_id)
        )
    rows = games.order_by("created_at", "pk").values_list("pk", "created_at").distinct()
    return [pk for pk, _created in rows[: settings.EXPORT_BATCH]]


def account_export_failed(*, export_id: int) -> None:
    """A step raised: a new request starts again."""
    AccountExport.objects.filter(pk=export_id, status=ExportStatus.PENDING).update(
        status=ExportStatus.FAILED, progressed_at=timezone.now()
    )


def export_chunks(export: AccountExport, *, gzipped: bool) -> Iterator[bytes]:
    """The parts in order, one query each, as stored (gzip members) or decompressed."""
    for index in range(export.parts):
        parts = AccountExportPart.objects.filter(export=export, index=index)
        data = bytes(parts.values_list("data", flat=True)[0])
        yield data if gzipped else zlib.decompress(data, wbits=31)


def _delete_locked(exports: QuerySet[AccountExport], *, skip_locked: bool = False) -> int:
    """Delete these exports once their rows are locked: a step writing one is waited for (or,
    with ``skip_locked``, passed by), so its part is never left pointing at nothing."""
    with transaction.atomic():
        locked = exports.select_for_update(skip_locked=skip_locked).values_list("pk", flat=True)
        _rows, by_model = AccountExport.objects.filter(pk__in=list(locked)).delete()
    return by_model.get(AccountExport._meta.label, 0)


def account_exports_delete(*, player: Player) -> int:
    """Delete the account's export (its deletion: it holds everything the account had)."""
    return _delete_locked(AccountExport.objects.filter(player=player))


def export_sweep(*, now: datetime | None = None) -> tuple[int, int]:
    """Delete the exports past their time (one a step is writing: the next sweep's); queue again
    the step of each that stalled. How many of each."""
    now = now or timezone.now()
    deleted = _delete_locked(AccountExport.objects.filter(expires_at__lte=now), skip_locked=True)
    stalled = AccountExport.objects.filter(
        status=ExportStatus.PENDING, progressed_at__lte=now - STALLED
    ).values_list("pk", "parts")
    queued = 0
    for export_id, part in stalled:
        queue_step(export_id, part)
        queued += 1
    return deleted, queued
