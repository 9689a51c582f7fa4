"""Admins watch games and their logs; nothing here can change or delete an event."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.fairness.seeds import fairness_body
from games.models import Game, GameEvent, GameStatus, Seat
from games.moderation.admin import GameModeration
from games.selectors import game_replay_matches_snapshot

VERIFY_REPLAY = _("Check that replaying the log gives the stored state")


def started(game: Game | None) -> bool:
    """Whether the game has begun: from then on the admin only shows it (its seats, clock and
    rating are the players' agreement, and its log and snapshot are the move path's)."""
    return game is not None and game.status != GameStatus.OPEN


class NoAddOrDelete:
    """The admin adds and deletes none of these rows (the services write them)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(NoAddOrDelete, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "occupant", "player", "name", "level", "place", "final_total")
    readonly_fields = ("index", "occupant", "place", "final_total")
    raw_id_fields = ("player",)

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not started(obj) and super().has_change_permission(request, obj)


class ReadOnlyEventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    fields = ("seq", "type", "data", "actor", "automatic", "created_at")
    readonly_fields = fields
    ordering = ("seq",)
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


#: The game's columns no changelist lookup may name, as Django's user admin refuses ``password``:
#: a filter is an oracle (``?server_seed__regex=^3f[0-7]`` recovers a running game's seed in a
#: few hundred requests, and with it every roll to come).
SECRET_FIELDS = frozenset({"server_seed"})


@admin.register(Game)
class GameAdmin(NoAddOrDelete, GameModeration, admin.ModelAdmin):
    list_display = ("id", "kind", "status", "created_by", "version", "created_at", "finished_at")
    list_filter = ("kind", "status", "created_at")
    search_fields = ("id", "created_by__username", "seats__player__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline, ReadOnlyEventInline]
    # The log and its snapshot move together, only through the move path: never by hand.
    readonly_fields = (
        "id", "kind", "status", "options", "created_by", "created_at", "started_at",
        "finished_at", "version", "turn_seat", "state", "deadline_at", "last_move_at",
        "fair_dice",
    )  # fmt: skip
    # Moderation (games.moderation.admin; voiding ratings: games.accounts.admin): each through
    # the services, with a reason in the log.
    actions = ["verify_replay", "abort", "adjudicate"]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in SECRET_FIELDS:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("Fair dice"))
    def fair_dice(self, game: Game) -> str:
        # The server seed only once the game is over, as everywhere (games.fairness.seeds).
        body = fairness_body(game)
        if body is None or not body["verifiable"]:
            return "-"
        seed = body["server_seed"] or _("secret until the game is over")
        if body["seats"] is None:  # version 1: one client seed for the game
            seeds = repr(body["client_seed"])
        else:
            seeds = ", ".join(f"#{s['seat']} {s['client_seed']!r}" for s in body["seats"])
        return f"{body['algorithm']} · SHA-256 {body['server_seed_hash']} · {seeds} · {seed}"

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # A started game's page is for reading: it shows no form, and a POST to it is refused.
        return not started(obj) and super().has_change_permission(request, obj)

    # It only reads (and logs that it looked): anyone who may view games may run it.
    @admin.action(description=VERIFY_REPLAY, permissions=["view"])
    def verify_replay(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        bad = []
        for game in queryset:
            matches = game_replay_matches_snapshot(game)
            if not matches:
                bad.append(str(game.pk))
            outcome = _("the replay matches") if matches else _("the replay differs")
            self.log_change(request, game, f"{VERIFY_REPLAY}: {outcome}")
        if bad:
            self.message_user(
                request,
                _("Replay differs from the snapshot for: %(games)s") % {"games": ", ".join(bad)},
                messages.ERROR,
            )
        else:
            self.message_user(request, _("Every selected game replays to its snapshot."))


@admin.register(GameEvent)
class GameEventAdmin(NoAddOrDelete, admin.ModelAdmin):
    list_display = ("game", "seq", "type", "actor", "automatic", "created_at")
    list_filter = ("type", "automatic", "game__kind")
    search_fields = ("game__id",)
    readonly_fields = ("game", "seq", "type", "data", "actor", "automatic", "created_at")

    def has_change_permission(self, request: HttpRequest, obj: GameEvent | None = None) -> bool:
        return False
