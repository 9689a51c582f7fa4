from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from knox.admin import AuthTokenAdmin as KnoxAuthTokenAdmin
from knox.models import AuthToken

from players.admin_actions import ReadOnlyAdmin
from players.models import Player, PlayerRating, RatingChange


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    """The accounts' admin. Its actions reach into the games: ``games.accounts.admin`` registers
    it again with them."""

    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name", "language", "deleted_at")}),
    )
    readonly_fields = ("deleted_at",)
    list_filter = (*UserAdmin.list_filter, ("deleted_at", admin.EmptyFieldListFilter))

    # A moderator (not a superuser) raises no one's powers nor touches a superuser's account.
    POWERS = ("is_superuser", "is_staff", "groups", "user_permissions")

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if _superuser(request) else (*fields, *self.POWERS)

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return _within_reach(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return _within_reach(request, obj) and super().has_delete_permission(request, obj)

    def _out_of_reach(self, request: HttpRequest, queryset: QuerySet[Player]) -> bool:
        """Whether the selection holds a superuser a moderator may not act on (it is told)."""
        if _superuser(request) or not queryset.filter(is_superuser=True).exists():
            return False
        message = gettext("Only a superuser may act on a superuser's account.")
        self.message_user(request, message, messages.ERROR)
        return True


def _superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def _within_reach(request: HttpRequest, obj: Player | None) -> bool:
    return obj is None or not obj.is_superuser or _superuser(request)


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "rating", "deviation", "volatility", "games", "updated_at")
    list_filter = ("kind",)
    search_fields = ("player__username",)
    list_select_related = ("player",)
    ordering = ("kind", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "player", "kind", "game", "rating_before", "rating_after", "created_at", "voided_at",
    )  # fmt: skip
    list_filter = ("kind", ("voided_at", admin.EmptyFieldListFilter))
    search_fields = ("player__username", "game__id")
    list_select_related = ("player", "game")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)


# knox's token admin mints a token for any account, as which an admin could act through the API:
# here tokens are only listed and revoked.
admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(KnoxAuthTokenAdmin):
    readonly_fields = ("user", "created", "expiry")
    fields = readonly_fields  # type: ignore[assignment]  # knox declares its own empty

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuthToken | None = None) -> bool:
        return False
