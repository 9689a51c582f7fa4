"""Seeks in the admin: a read-only list (players make and withdraw them over the API)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.matchmaking.models import Seek


@admin.register(Seek)
# Django's ModelAdmin is generic only in its stubs (no runtime subscript), as games.admin.
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "id", "player", "kind", "rated", "turn_clock_seconds", "rating_min", "rating_max",
        "status", "game", "created_at", "expires_at",
    )  # fmt: skip
    list_filter = ("status", "kind", "rated")
    search_fields = ("player__username",)
    list_select_related = ("player",)
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
