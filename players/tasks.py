"""Beat tasks of the accounts."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from players.models import IdempotencyKey


@shared_task(name="players.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Delete the idempotency keys past their expiry (a retry after it creates again)."""
    deleted, _ = IdempotencyKey.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted
