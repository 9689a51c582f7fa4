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


class PlayerRating(models.Model):
    """A player's Glicko-2 rating for one game kind."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(_("game"), max_length=20)
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("rating deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["kind", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_one_per_kind")
        ]
        indexes = [models.Index(fields=["kind", "-rating"])]

    def __str__(self) -> str:
        return f"{self.player} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """One player's rating change from one game: unique, so a game is rated at most once."""

    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=20)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.rating_before:.0f} -> {self.rating_after:.0f}"


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` on a request that creates, and the answer it was given:
    a retry with the key gets that answer again (config.idempotency). Kept until ``expires_at``;
    the beat task ``players.tasks.purge_idempotency_keys`` deletes the expired."""

    #: Whose key: ``player:<id>``, or ``anonymous`` (registering).
    scope = models.CharField(max_length=40)
    key = models.CharField(max_length=255)
    #: HMAC of the request (method, path, body): a different request with the key is refused.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)
    #: The answer's JSON, sealed with the request it answers (it may hold a token).
    body = models.BinaryField(default=b"")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
