from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(AbstractUser):
    """An account that can sit at games: a person, or a bot driven through the API."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
