"""A deleted account's username is held for ``DELETED_NAME_HOLD_DAYS`` (in any case, width or
lookalike letters), kept as keyed hashes, not the name.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from players.identity import hold_digests
from players.models import UsernameHold


def username_hold(*, username: str) -> UsernameHold | None:
    """Hold ``username`` from now, in the caller's transaction; None when the hold days are 0."""
    days = float(settings.DELETED_NAME_HOLD_DAYS)
    if days <= 0:
        return None
    name, skeleton = hold_digests(username)
    return UsernameHold.objects.create(
        name_digest=name, skeleton_digest=skeleton, held_until=timezone.now() + timedelta(days=days)
    )


def username_held(username: str) -> bool:
    name, skeleton = hold_digests(username)
    holds = UsernameHold.objects.filter(Q(name_digest=name) | Q(skeleton_digest=skeleton))
    return holds.filter(held_until__gt=timezone.now()).exists()


def username_holds_purge() -> int:
    deleted, _by_model = UsernameHold.objects.filter(held_until__lte=timezone.now()).delete()
    return deleted
