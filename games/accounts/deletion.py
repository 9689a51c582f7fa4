"""An account's deletion: ``DELETE accounts/me/`` (with the password) and the admin's action.

The account is anonymised, not deleted: its games keep their seats and append-only logs (each
event's actor a key to it), so they still replay, and its rating changes stay. What names it goes:
username ``deleted-<id>``, display name ``DELETED_NAME``, email and names cleared, password
unusable, inactive; it is cut off as a ban cuts off, the admin's log renamed. What it typed goes
too (its seats' client seeds, its hot seats' names: ``seats_typed_blank``), the sign-in guard's
keys, and the name is held for ``DELETED_NAME_HOLD_DAYS`` (players.name_holds).
"""

from __future__ import annotations

import secrets

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken

from games.accounts.export_files import account_exports_delete
from games.loading import game_with_seats
from games.models import Game, Occupant, Seat
from games.moderation.actions import CutOff, player_cut_off
from players.identity import PLACEHOLDER_PREFIX
from players.login_guard import guard_forget
from players.models import DELETED_NAME, IdempotencyKey, Player
from players.name_holds import username_hold
from players.services import password_confirm

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
    name = f"{PLACEHOLDER_PREFIX}{player.pk}"
    if Player.objects.name_conflict(name, exclude_pk=player.pk) is None:
        return name
    # Someone registered the name first: the placeholder only has to be unique.
    return f"{name}-{secrets.token_hex(4)}"


def _admin_log_renamed(player: Player, old_username: str) -> None:
    """The admin's log names objects as they were: the account's (and its tokens') get renamed."""
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


def seats_typed_blank(*, player_id: int, seat_ids: list[int]) -> int:
    """Blank the client seeds of these seats and the hot seats' names; how many seats changed.
    Run after the deletion commits, a game at a time under its row's lock: inside it, holding the
    account's row, it would deadlock with a rematch of the game waiting for that row. A seat
    given back and taken by someone else meanwhile is left alone (its seed is the joiner's)."""
    wanted = set(seat_ids)
    games = Seat.objects.filter(pk__in=wanted).values_list("game_id", flat=True).distinct()
    changed = 0
    for game_id in sorted(set(games), key=str):
        with transaction.atomic():
            try:
                game = game_with_seats(game_id, lock=True)
            except Game.DoesNotExist:  # cancelled since: gone with its seats
                continue
            mine = [
                seat
                for seat in game.seats.all()
                if seat.pk in wanted and seat.player_id in (player_id, None)
            ]
            for seat in mine:
                hot = seat.occupant == Occupant.HOTSEAT
                if seat.client_seed or (hot and seat.name):
                    seat.client_seed = ""
                    seat.name = "" if hot else seat.name
                    seat.save(update_fields=["client_seed", "name"])
                    changed += 1
    return changed


@transaction.atomic
def account_delete(*, player_id: int) -> CutOff:
    """Anonymise the account and cut it off (what the admin's action calls)."""
    # FOR NO KEY UPDATE, as a ban locks it: a round opening seating the account goes on (see
    # games.moderation.actions.player_ban).
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    old_username = player.username
    deleted_before = player.deleted_at is not None
    # Its seats and the hot seats of its games (their names are its words), listed before the
    # cut-off gives back the seats of the open games it joined.
    mine = Q(player=player) | Q(game__created_by=player, occupant=Occupant.HOTSEAT)
    typed = list(Seat.objects.filter(mine).values_list("pk", flat=True))
    player.username = _placeholder_username(player)
    player.display_name = DELETED_NAME
    player.email = player.first_name = player.last_name = ""
    player.set_unusable_password()
    player.is_active = player.is_staff = player.is_superuser = False
    player.deleted_at = player.deleted_at or timezone.now()  # deleted again: still the first
    # All but the username now: the cut-off's moves are published with the new names.
    player.save(update_fields=_ANONYMISED)
    player.groups.clear()
    player.user_permissions.clear()
    done = player_cut_off(player=player)
    transaction.on_commit(
        lambda: seats_typed_blank(player_id=player.pk, seat_ids=typed), robust=True
    )
    # Its stored answers to retried requests, and its export, name the account as it was.
    IdempotencyKey.objects.filter(scope=f"player:{player.pk}").delete()
    account_exports_delete(player=player)
    _admin_log_renamed(player, old_username)
    if not deleted_before:  # deleted again: its name is the placeholder, held already
        username_hold(username=old_username)
        transaction.on_commit(lambda: guard_forget(old_username))
    # The username last: a key, so writing it locks the row FOR UPDATE, which a commit referring
    # to the account waits for (deferred foreign key checks). Written first, a round opening
    # seating the account would wait at its commit holding its tournament's row, which the
    # cut-off waits for: a deadlock. Last, that commit waits for ours, and ours for nothing.
    player.save(update_fields=["username"])
    return done


@transaction.atomic
def account_delete_own(
    *, player: Player, password: str, request: HttpRequest | None = None
) -> CutOff:
    """The account deletes itself, given its password (a wrong one counts as a failed sign-in)."""
    password_confirm(player=player, password=password, request=request)
    return account_delete(player_id=player.pk)
