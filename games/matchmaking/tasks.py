"""Celery tasks of matchmaking: thin wrappers over its services."""

from __future__ import annotations

from celery import shared_task

from games.matchmaking import seeks


@shared_task(ignore_result=True)
def expire_seeks() -> int:
    """Mark the seeks nobody paired in time expired (``SEEK_TTL_MINUTES``)."""
    return seeks.seeks_expire()
