"""An account's deletion: ``DELETE accounts/me/`` (with the password) and the admin's action.

The account is anonymised, not deleted: its games keep their seats and their logs (append-only,
each event's actor a foreign key to it), so every game it played still replays to its snapshot,
and its rating changes stay with the games that made them. What names it goes: the username
becomes ``deleted-<id>``, the display name the fixed placeholder (``DELETED_NAME``, shown
translated), email and names are cleared, the password made unusable, the account inactive (off
the leaderboards and profiles), and it is cut off as a ban cuts off (games.moderation): tokens and
sessions gone, games in play resigned through the one move path, open games left, entries in
tournaments not yet started withdrawn and those in running ones forfeited. The admin's log keeps
its entries about the account, their object named anew.
"""

from __future__ import annotations

import secrets

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

from config.refusals import Refusal
from games.moderation import CutOff, player_cut_off
from players.export_files import account_exports_delete
from players.models import DELETED_NAME, IdempotencyKey, Player

#: What the deletion writes before the cut-off: every changed field but the username (a key).
_ANONYMISED = (
    "display_name",
    "email",
    "first_name",
    "last_name",
    "password",
    "is_active",
    "is_staff",
    "is_superuser",
    "deleted_at",
)


def _placeholder_username(player: Player) -> str:
    name = f"deleted-{player.pk}"
    if Player.objects.name_conflict(name, exclude_pk=player.pk) is None:
        return name
    # Someone registered the name first: the placeholder only has to be unique.
    return f"{name}-{secrets.token_hex(4)}"


def _admin_log_renamed(player: Player, old_username: str) -> None:
    """The admin's log names each object as it was called when logged: its entries about the
    account (and about its tokens, named after their owner) get the new name."""
    entries = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Player), object_id=str(player.pk)
    )
    entries.update(object_repr=str(player)[:200])
    tokens = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(AuthToken),
        object_repr__endswith=f" : {old_username}",
    )
    for entry in tokens:
        entry.object_repr = entry.object_repr.removesuffix(old_username) + player.username
        entry.save(update_fields=["object_repr"])


@transaction.atomic
def account_delete(*, player_id: int) -> CutOff:
    """Anonymise the account and cut it off (what the admin's action calls)."""
    # FOR NO KEY UPDATE, as a ban locks it: a round opening seating the account goes on (see
    # games.moderation.player_ban).
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    old_username = player.username
    player.username = _placeholder_username(player)
    player.display_name = DELETED_NAME
    player.email = player.first_name = player.last_name = ""
    player.set_unusable_password()
    player.is_active = player.is_staff = player.is_superuser = False
    player.deleted_at = player.deleted_at or timezone.now()  # deleted again: still the first
    # All but the username now; the cut-off's moves are published with this object's new names.
    player.save(update_fields=_ANONYMISED)
    player.groups.clear()
    player.user_permissions.clear()
    done = player_cut_off(player=player)
    # Stored answers to its retried requests (they name the account as it was).
    IdempotencyKey.objects.filter(scope=f"player:{player.pk}").delete()
    # Its export: everything it had, email included.
    account_exports_delete(player=player)
    _admin_log_renamed(player, old_username)
    # The username last. It is a key (its unique index): writing it takes the row FOR UPDATE,
    # which a transaction referring to the account (a seat, an event, a rating change) waits for
    # as it commits (the foreign keys are checked then: DEFERRABLE INITIALLY DEFERRED). Written
    # first, a round opening seating the account would wait for this transaction at its commit,
    # still holding its tournament's row, which the cut-off waits for: a deadlock. Written last,
    # such a commit waits for ours, and ours for nothing more: its own checks wait only for a row
    # held FOR UPDATE, and every other lock on an account's row is FOR NO KEY UPDATE.
    player.save(update_fields=["username"])
    return done


@transaction.atomic
def account_delete_own(*, player: Player, password: str) -> CutOff:
    """The account deletes itself: only with its password (else nothing changes)."""
    if not player.check_password(password):
        raise Refusal.WRONG_PASSWORD.error()
    return account_delete(player_id=player.pk)
