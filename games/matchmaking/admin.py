"""Seeks in the admin: a read-only list (players make and withdraw them over the API)."""

from __future__ import annotations

from django.contrib import admin

from games.matchmaking.models import Seek
from players.admin_actions import ReadOnlyAdmin


@admin.register(Seek)
class SeekAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "player", "kind", "rated", "turn_clock_seconds", "rating_min", "rating_max",
        "status", "game", "created_at", "expires_at",
    )  # fmt: skip
    list_filter = ("status", "kind", "rated")
    search_fields = ("player__username",)
    list_select_related = ("player",)
    date_hierarchy = "created_at"
