"""The account export's tasks, under the names they had in ``players.tasks`` (beat's schedule and
the steps already queued name them)."""

from __future__ import annotations

import logging

from celery import shared_task

from games.accounts import export_files

log = logging.getLogger(__name__)


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
