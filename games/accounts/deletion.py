"""An account's deletion: ``DELETE accounts/me/`` (with the password) and the admin's action.

The account is anonymised, not deleted: its games keep their seats and their logs (append-only,
each event's actor a foreign key to it), so every game it played still replays, and its rating
changes stay with the games that made them. What names it goes: the username becomes
``deleted-<id>``, the display name ``DELETED_NAME`` (shown translated), email and names are
cleared, the password made unusable, the account inactive, and it is cut off as a ban cuts off
(games.moderation.actions). The admin's log keeps its entries about the account, named anew.

What it typed into its games goes too: the client seeds of its seats (its own and the hot seats
of the games it created) and those hot seats' names, blanked once the deletion has committed
(``seats_typed_blank``); the append-only log keeps what it recorded. The sign-in guard's keys
go, and the name is held for ``DELETED_NAME_HOLD_DAYS`` (players.name_holds), so nobody
registers it the day after.
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
    """The admin's log names each object as it was when logged: the account's entries (and its
    tokens', named after their owner) get the new name."""
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
    Run once the deletion has committed, a game at a time under its row's lock: inside the
    deletion, which holds the account's row, it would wait for a game's row while a rematch of
    that game, holding it, waits for the account's (a deadlock). A seat of an open game the
    account gave back is left alone if someone took it meanwhile (its seed is the joiner's)."""
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
    # The seats holding what it typed: its own, and the hot seats of the games it created (their
    # names are its words for its guests). Listed before the cut-off, which gives back the seats
    # of the open games it joined.
    mine = Q(player=player) | Q(game__created_by=player, occupant=Occupant.HOTSEAT)
    typed = list(Seat.objects.filter(mine).values_list("pk", flat=True))
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
    transaction.on_commit(
        lambda: seats_typed_blank(player_id=player.pk, seat_ids=typed), robust=True
    )
    # Stored answers to its retried requests (they name the account as it was).
    IdempotencyKey.objects.filter(scope=f"player:{player.pk}").delete()
    # Its export: everything it had, email included.
    account_exports_delete(player=player)
    _admin_log_renamed(player, old_username)
    if not deleted_before:  # deleted again: its name is the placeholder, held already
        username_hold(username=old_username)
        transaction.on_commit(lambda: guard_forget(old_username))
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
def account_delete_own(
    *, player: Player, password: str, request: HttpRequest | None = None
) -> CutOff:
    """The account deletes itself, given its password (checked as a sign-in is: a wrong one counts
    on the guard)."""
    password_confirm(player=player, password=password, request=request)
    return account_delete(player_id=player.pk)
