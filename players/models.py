from __future__ import annotations

from typing import Any, ClassVar, Literal

from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Case, Q, Value, When
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from players.identity import display_name_clean, skeleton_key, username_normalise

DELETED_NAME = gettext_noop("Deleted player")

NameConflict = Literal["taken", "confusable"]


class PlayerManager(UserManager["Player"]):
    def get_by_natural_key(self, username: str | None) -> Player:
        """The account of a username as typed, in any case or width (every sign-in)."""
        name = username_normalise(username) if isinstance(username, str) else ""
        return self.alias(lowered=Lower("username")).get(lowered=Lower(Value(name)))

    def name_conflict(self, username: str, *, exclude_pk: int | None = None) -> NameConflict | None:
        """Whether ``username`` is taken (in any case) or looks like a taken name: one query."""
        name = username_normalise(username)
        same = Q(lowered=Lower(Value(name)))
        found = self.alias(lowered=Lower("username")).filter(
            same | Q(username_skeleton=skeleton_key(name))
        )
        if exclude_pk is not None:
            found = found.exclude(pk=exclude_pk)
        flags = found.annotate(
            same=Case(When(same, then=Value(True)), default=Value(False))
        ).values_list("same", flat=True)[:8]
        matches = list(flags)
        if not matches:
            return None
        return "taken" if any(matches) else "confusable"

    def display_name_impersonates(
        self, display_name: str, *, username: str, exclude_pk: int | None = None
    ) -> bool:
        """Whether ``display_name`` looks like another account's username or a deleted account's."""
        name = display_name_clean(display_name)
        # Skeletons fold case after mapping (TR39 maps ``m`` to ``rn``, not ``M``): both forms.
        keys = {skeleton_key(name), skeleton_key(name.casefold())}
        if not name or keys & {skeleton_key(username), skeleton_key(username.casefold())}:
            return False
        if keys & {skeleton_key(DELETED_NAME), skeleton_key(DELETED_NAME.casefold())}:
            return True
        others = self.filter(username_skeleton__in=keys)
        if exclude_pk is not None:
            others = others.exclude(pk=exclude_pk)
        return others.exists()


class Player(AbstractUser):
    """An account that can sit at games: a person, or a bot driven through the API. A new
    password (any form, view or service that sets one) revokes every API token."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    #: One of ``settings.LANGUAGES``' codes, or blank: the browser's.
    language = models.CharField(_("language"), max_length=8, blank=True, default="", db_default="")
    username_skeleton = models.CharField(max_length=64, db_index=True, editable=False, default="")
    # Set by migration 0008 on the accounts registered while a lookalike of theirs already was
    # (before the skeleton was unique): kept as they are, outside the uniqueness below.
    skeleton_shared = models.BooleanField(default=False, db_default=False, editable=False)
    # Set when the account was deleted: its rows stay, anonymised, for the games it played.
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="player_username_unique_any_case",
                violation_error_message=_("A user with that username already exists."),
            ),
            # Two registrations of lookalike names at once cannot both pass the check.
            models.UniqueConstraint(
                fields=["username_skeleton"],
                condition=models.Q(skeleton_shared=False),
                name="player_username_skeleton_unique",
                violation_error_message=_("This username looks too much like an existing one."),
            ),
        ]

    def clean(self) -> None:
        super().clean()
        if not isinstance(self.username, str):  # the form already refused the field
            return
        if Player.objects.display_name_impersonates(
            self.display_name, username=self.username, exclude_pk=self.pk
        ):
            raise ValidationError(
                {"display_name": _("This display name looks like another player's username.")},
                code="display_name_taken",
            )
        if Player.objects.name_conflict(self.username, exclude_pk=self.pk) == "confusable":
            raise ValidationError(
                {"username": _("This username looks too much like an existing one.")},
                code="username_confusable",
            )

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username = username_normalise(self.username)
        self.username_skeleton = skeleton_key(self.username)
        self.display_name = display_name_clean(self.display_name)
        # A hash upgrade at sign-in is not a new password: Django clears _password before saving.
        new_password = getattr(self, "_password", None) is not None and not self._state.adding
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        # The token a new password leaves alone: POST accounts/password/'s own.
        keep_token: str | None = kwargs.pop("keep_token", None)
        with transaction.atomic():  # the new password and the revocation: both or neither
            super().save(*args, **kwargs)
            if new_password:
                from knox.models import AuthToken

                AuthToken.objects.filter(user=self).exclude(pk=keep_token).delete()

    @property
    def public_name(self) -> str:
        if self.deleted_at is not None:  # in the reader's language, whatever was stored
            return gettext(DELETED_NAME)
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
    #: Set when the staff voided the game's rating: counted nowhere, the ratings replayed without.
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    void_reason = models.CharField(_("why it was voided"), max_length=200, blank=True)

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
    """A client's ``Idempotency-Key`` and its answer (config.web.idempotency)."""

    scope = models.CharField(max_length=40)
    key = models.CharField(max_length=255)
    #: HMAC of the request: a different request with the key is refused.
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


class AccountSession(models.Model):
    """The account a browser session is signed in as (players.sessions)."""

    session = models.OneToOneField(
        "sessions.Session", on_delete=models.CASCADE, primary_key=True, related_name="account"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="browser_sessions")

    def __str__(self) -> str:
        return f"{self.player_id} {self.session_id}"


class UsernameHold(models.Model):
    """A deleted account's former username, refused to new accounts until ``held_until``
    (players.name_holds), kept as two keyed hashes, never the name."""

    #: players.identity.hold_digests
    name_digest = models.CharField(max_length=64, db_index=True, editable=False)
    skeleton_digest = models.CharField(max_length=64, db_index=True, editable=False)
    held_until = models.DateTimeField(db_index=True, editable=False)

    def __str__(self) -> str:
        return f"{self.name_digest[:12]} until {self.held_until:%Y-%m-%d}"


class ExportStatus(models.TextChoices):
    PENDING = "pending", _("Being written")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class AccountExport(models.Model):
    """An account's data as one JSON document, written by the workers a batch of games at a time
    (``games.accounts.export_files``). One per account."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="data_export")
    status = models.CharField(max_length=8, choices=ExportStatus.choices, default="pending")
    requested_at = models.DateTimeField(default=timezone.now)
    #: When a batch was last written (the sweep queues again one that stalls).
    progressed_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)
    parts = models.PositiveIntegerField(default=0)
    #: The games written so far, and the last one (by creation, then id).
    games = models.PositiveIntegerField(default=0)
    after_created_at = models.DateTimeField(null=True, blank=True)
    after_game = models.UUIDField(null=True, blank=True)
    #: The document's bytes so far: as JSON, and as stored (gzip-compressed).
    size = models.BigIntegerField(default=0)
    stored_size = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.player_id} {self.status} {self.parts} parts"


class AccountExportPart(models.Model):
    """A piece of an export's document, a gzip member: the parts in order are one gzip stream."""

    export = models.ForeignKey(AccountExport, on_delete=models.CASCADE, related_name="+")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["export", "index"], name="export_part_once")]

    def __str__(self) -> str:
        return f"{self.export_id} part {self.index}"
