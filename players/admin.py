from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from knox.admin import AuthTokenAdmin as KnoxAuthTokenAdmin
from knox.models import AuthToken

from players.models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name",)}),
    )


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
