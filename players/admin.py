from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from knox.admin import AuthTokenAdmin as KnoxAuthTokenAdmin
from knox.models import AuthToken

from games import moderation
from games.accounts import deletion
from players.admin_actions import ReadOnlyAdmin, log, with_reason
from players.auth import request_player
from players.models import Player, PlayerRating, RatingChange


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name", "deleted_at")}),
    )
    readonly_fields = ("deleted_at",)
    list_filter = (*UserAdmin.list_filter, ("deleted_at", admin.EmptyFieldListFilter))
    actions = ["ban", "unban", "delete_account"]

    # A moderator (``change_player`` without being a superuser) moderates players: it cannot
    # raise its own powers or anyone's, nor touch a superuser's account, which would be the same.
    POWERS = ("is_superuser", "is_staff", "groups", "user_permissions")

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if _superuser(request) else (*fields, *self.POWERS)

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        if obj is not None and obj.is_superuser and not _superuser(request):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        if obj is not None and obj.is_superuser and not _superuser(request):
            return False
        return super().has_delete_permission(request, obj)

    def _out_of_reach(self, request: HttpRequest, queryset: QuerySet[Player]) -> bool:
        """Whether the selection holds a superuser a moderator may not act on (it is told)."""
        if _superuser(request) or not queryset.filter(is_superuser=True).exists():
            return False
        message = gettext("Only a superuser may act on a superuser's account.")
        self.message_user(request, message, messages.ERROR)
        return True

    @admin.action(description=_("Ban the selected players"), permissions=["change"])
    def ban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        if self._out_of_reach(request, queryset):
            return None
        me = request_player(request)
        if queryset.filter(pk=me.pk).exists():
            self.message_user(request, gettext("You cannot ban yourself."), messages.ERROR)
            return None

        def act(reason: str) -> None:
            for player in queryset:
                done = moderation.player_ban(player_id=player.pk)
                log(
                    request,
                    player,
                    gettext(
                        "Banned: %(reason)s (tokens revoked: %(tokens)d, sessions ended: "
                        "%(sessions)d, seeks withdrawn: %(seeks)d, tournament entries "
                        "withdrawn: %(entries)d, games "
                        "resigned: %(resigned)d, open games left: %(left)d, open games "
                        "cancelled: %(cancelled)d)"
                    )
                    % {"reason": reason, **_counts(done)},
                )
            self.message_user(request, gettext("Banned: %(n)d.") % {"n": len(queryset)})

        return with_reason(
            self,
            request,
            queryset,
            action="ban",
            question=gettext(
                "Ban these players? They can no longer sign in; their tokens and sessions end, "
                "their games in play are resigned, the open games they are in are left or "
                "cancelled and their entries in tournaments not yet started are withdrawn."
            ),
            submit=gettext("Ban"),
            act=act,
        )

    @admin.action(description=_("Unban the selected players"), permissions=["change"])
    def unban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        if self._out_of_reach(request, queryset):
            return None

        def act(reason: str) -> None:
            for player in queryset:
                moderation.player_unban(player_id=player.pk)
                log(request, player, gettext("Unbanned: %(reason)s") % {"reason": reason})
            self.message_user(request, gettext("Unbanned: %(n)d.") % {"n": len(queryset)})

        return with_reason(
            self,
            request,
            queryset,
            action="unban",
            question=gettext("Unban these players? They may sign in again."),
            submit=gettext("Unban"),
            act=act,
        )

    @admin.action(description=_("Delete the selected accounts"), permissions=["change"])
    def delete_account(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> TemplateResponse | None:
        """The account's own deletion (players.deletion), done by an admin: anonymised, not
        erased, so its games and their logs stay."""
        if self._out_of_reach(request, queryset):
            return None
        me = request_player(request)
        if queryset.filter(pk=me.pk).exists():
            self.message_user(
                request, gettext("You cannot delete your own account."), messages.ERROR
            )
            return None

        def act(reason: str) -> None:
            for player in queryset:
                done = deletion.account_delete(player_id=player.pk)
                player.refresh_from_db()  # the log names the account by its new name
                log(
                    request,
                    player,
                    gettext(
                        "Account deleted: %(reason)s (tokens revoked: %(tokens)d, sessions "
                        "ended: %(sessions)d, seeks withdrawn: %(seeks)d, tournament entries "
                        "withdrawn: %(entries)d, games "
                        "resigned: %(resigned)d, open games left: %(left)d, open games "
                        "cancelled: %(cancelled)d)"
                    )
                    % {"reason": reason, **_counts(done)},
                )
            self.message_user(request, gettext("Accounts deleted: %(n)d.") % {"n": len(queryset)})

        return with_reason(
            self,
            request,
            queryset,
            action="delete_account",
            question=gettext(
                "Delete these accounts? Each is anonymised: its name is replaced, its email "
                "cleared and its password made unusable; its tokens and sessions end, its games "
                "in play are resigned and its open games left. Its games and their logs stay. "
                "This cannot be undone."
            ),
            submit=gettext("Delete the accounts"),
            act=act,
        )


def _superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def _counts(done: moderation.CutOff) -> dict[str, int]:
    return {
        "tokens": done.tokens,
        "sessions": done.sessions,
        "seeks": done.seeks,
        "entries": done.entries,
        "resigned": done.games.resigned,
        "left": done.games.left,
        "cancelled": done.games.cancelled,
    }


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


# knox's token admin mints a token for any account (its add form shows the raw token): an admin
# could then act as anyone through the API. Here tokens are only listed and revoked (deleted);
# an account gets its tokens by signing in itself.
admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(KnoxAuthTokenAdmin):
    readonly_fields = ("user", "created", "expiry")
    fields = readonly_fields  # type: ignore[assignment]  # knox declares its own empty

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuthToken | None = None) -> bool:
        return False
