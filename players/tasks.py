"""Tasks of the accounts: beat's, and the steps of an account's export."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from players import export_files
from players.models import IdempotencyKey
from players.name_holds import username_holds_purge

log = logging.getLogger(__name__)


@shared_task(name="players.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Delete the idempotency keys past their expiry (a retry after it creates again)."""
    deleted, _ = IdempotencyKey.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


@shared_task(name="players.tasks.purge_username_holds")
def purge_username_holds() -> int:
    """Delete the holds on deleted accounts' usernames past their time (players.name_holds)."""
    return username_holds_purge()


@shared_task(name=export_files.STEP_TASK, ignore_result=True)
def account_export_step(export_id: int, part: int) -> bool:
    """Write one part of an account's export (it queues the next); one that raises fails the
    export, which a new request starts again."""
    try:
        return export_files.account_export_step(export_id=export_id, part=part)
    except Exception:
        log.exception("the export %s failed at part %s", export_id, part)
        export_files.account_export_failed(export_id=export_id)
        return False


@shared_task(name="players.tasks.sweep_account_exports", ignore_result=True)
def sweep_account_exports() -> int:
    """Delete the exports past their time; queue again the steps that stalled."""
    deleted, _queued = export_files.export_sweep()
    return deleted
