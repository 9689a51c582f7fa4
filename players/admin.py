from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from players.models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name",)}),
    )
