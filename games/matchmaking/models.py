"""A seek (a player waiting for an opponent) and a rematch offer."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.kinds.fields import kind_column
from games.models import Game


class SeekStatus(models.TextChoices):
    OPEN = "open", _("Waiting for an opponent")
    PAIRED = "paired", _("Paired")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    EXPIRED = "expired", _("Expired")


class Seek(models.Model):
    """One player's wish for a game of ``kind`` with these options: open until another player's
    compatible seek pairs with it (games.matchmaking.seeks), it is withdrawn, or it expires."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seeks",
        verbose_name=_("player"),
    )
    kind = kind_column()
    options = models.JSONField(_("options"), default=dict, blank=True)
    # The options as canonical JSON (sorted keys, every option filled in): two seeks pair only if
    # their keys are equal, a plain indexed comparison on every database.
    options_key = models.CharField(max_length=500, editable=False)
    rated = models.BooleanField(_("rated"), default=False)
    turn_clock_seconds = models.PositiveIntegerField(_("turn clock"), null=True, blank=True)
    # The opponents' ratings this seek accepts (none: no bound), and the seeker's own rating in
    # this game when it was made, which the other seek's range is checked against.
    rating_min = models.IntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.IntegerField(_("highest rating"), null=True, blank=True)
    rating = models.FloatField(_("rating"), editable=False)
    # The seeker's client seed (games.rules.fairness), its seat's when the seek pairs; empty if
    # it gave none (it may still give one with its first move).
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=SeekStatus.choices, default=SeekStatus.OPEN
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(
                fields=["kind", "options_key", "created_at"],
                condition=models.Q(status="open"),
                name="seek_open_by_kind",
            ),
        ]
        constraints = [
            # A paired seek names its game, and only a paired one does.
            models.CheckConstraint(
                condition=models.Q(status="paired", game__isnull=False)
                | (~models.Q(status="paired") & models.Q(game__isnull=True)),
                name="seek_game_iff_paired",
            ),
            # Two of one player's seeks never land in the same game.
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(game__isnull=False),
                name="seek_one_per_player_and_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} seek #{self.pk}"

    def open_at(self, now: datetime) -> bool:
        """Still waiting for an opponent at ``now``: one past its time pairs with nobody, though
        the sweep marks it expired only later."""
        return self.status == SeekStatus.OPEN and self.expires_at > now


class RematchOffer(models.Model):
    """A seated account's offer to play a finished game again; when every account at the table
    has offered, the rematch starts and each offer names it."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rematch_offers", verbose_name=_("game")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    rematch = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("rematch"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rematch offer")
        verbose_name_plural = _("rematch offers")
        ordering = ["game", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rematch_one_offer_each"),
        ]

    def __str__(self) -> str:
        return f"{self.game} rematch by {self.player_id}"
