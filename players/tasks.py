"""Beat's tasks of the accounts (the export's are games.accounts.tasks)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from players.models import IdempotencyKey
from players.name_holds import username_holds_purge


@shared_task(name="players.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    deleted, _ = IdempotencyKey.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


@shared_task(name="players.tasks.purge_username_holds")
def purge_username_holds() -> int:
    return username_holds_purge()
