"""A game is its event log. ``Game.state`` is a snapshot of the fold of its events, for speed."""

from __future__ import annotations

import uuid
from typing import Any, TypeAlias

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.storage.orm_shortcuts import prefetched
from games.kinds.fields import kind_column


class GameStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    # Called off before every seat had moved (games.ending): no result, nothing rated.
    ABORTED = "aborted", _("Aborted")


class Occupant(models.TextChoices):
    """Who sits at a seat: an account (``player``: open until one takes it), a hot-seat player
    on the creator's device, or the computer. Clients read it as the seat's ``kind``."""

    PLAYER = "player", _("Player")
    HOTSEAT = "hotseat", _("Hot-seat player")
    COMPUTER = "computer", _("Computer")


#: A game's id as the code receives it: a UUID (URLs, rows) or its text (task arguments, JSON).
GameId: TypeAlias = uuid.UUID | str


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = kind_column()
    status = models.CharField(
        _("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The seq of the last event: clients send it back as ``expected_version``.
    version = models.PositiveIntegerField(_("version"), default=0)
    state = models.JSONField(_("state snapshot"), null=True, blank=True)
    # Denormalised from the state so "whose turn is it" is a query, not a fold.
    turn_seat = models.PositiveSmallIntegerField(_("seat to play"), null=True, blank=True)
    # When the server will move for the seat to play if it stays idle (auto-confirm, clock). The
    # periodic sweep reads it, so a lost timer task delays the move by seconds, not forever.
    deadline_at = models.DateTimeField(_("automatic move due"), null=True, blank=True)
    last_move_at = models.DateTimeField(_("last move"), null=True, blank=True)
    # The turn clock (tournament games, and casual games that chose one): a seat idle this long
    # has its turn played by the stand-in (games.kinds).
    turn_clock_seconds = models.PositiveIntegerField(_("turn clock"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    # Hints (the computer's choice) and previews for the seat to move: computer help, which
    # rated and tournament games leave out (games.services.game_create decides the default).
    assistance = models.BooleanField(_("hints and previews"), default=True)
    # Fair dice (games.fairness.seeds): the seed, secret until the game is over (never editable,
    # never rendered before then), and its SHA-256, public from the moment it is drawn. Version 1:
    # the seed drawn at the start, the seats' client seeds joined then, ``dice_rolls`` the next
    # roll's nonce. Version 2: the seed drawn when the game is made, each seat's client seed on its
    # seat (fixed once it has rolled), ``seat_rolls`` each seat's next nonce. A game started before
    # fair dice has no seed at all.
    fairness_version = models.PositiveSmallIntegerField(
        _("fair dice version"), default=2, editable=False
    )
    server_seed = models.CharField(max_length=64, blank=True, editable=False)
    server_seed_hash = models.CharField(
        _("server seed hash"), max_length=64, blank=True, editable=False
    )
    client_seed = models.CharField(_("client seed"), max_length=500, blank=True, editable=False)
    dice_rolls = models.PositiveIntegerField(_("rolls"), default=0, editable=False)
    seat_rolls = models.JSONField(_("rolls by seat"), default=list, editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["kind", "status", "-created_at"]),
            models.Index(
                fields=["deadline_at"],
                condition=models.Q(deadline_at__isnull=False),
                name="game_deadline_due",
            ),
        ]
        constraints = [
            # A rated game gets no computer help, whoever writes the row (the admin included).
            models.CheckConstraint(
                condition=~models.Q(rated=True, assistance=True),
                name="game_rated_without_assistance",
                violation_error_message=_("A rated game cannot have hints and previews."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {str(self.id)[:8]}"

    def use_seats(self, seats: list[Seat]) -> None:
        """Make ``seats`` (read with this game, in index order) what ``game.seats.all()`` gives, as
        ``prefetch_related`` would have, so that reading them again costs no query."""
        for seat in seats:
            seat.game = self
        prefetched(self, "seats", seats)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    # The column and the API keep the name "kind"; in code a seat's kind is its occupant.
    occupant = models.CharField(
        _("kind"), max_length=10, choices=Occupant.choices, db_column="kind"
    )
    # Set for a ``player`` seat once someone has taken it; empty while the seat is open.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    name = models.CharField(_("name"), max_length=40, blank=True)
    # A computer seat's level (games.kinds); the column and the API call it "ai_level".
    level = models.CharField(_("computer level"), max_length=20, blank=True, db_column="ai_level")
    # This seat's client seed (games.rules.fairness; version 1: its part of the game's), empty if
    # it gave none; fixed once the seat has rolled (version 1: once the game has started).
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True)
    # Filled when the game ends, so standings and histories need no replay.
    final_total = models.IntegerField(_("final total"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(player__isnull=False),
                name="seat_one_per_player",
            ),
            models.CheckConstraint(
                condition=models.Q(occupant=Occupant.PLAYER) | models.Q(player__isnull=True),
                name="seat_player_only_on_player_seats",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.index}"

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.player is not None:
            return str(self.player.public_name)
        if self.occupant == Occupant.COMPUTER:
            return str(_("Computer"))
        if self.occupant == Occupant.HOTSEAT:  # its name blanked with its creator's deletion
            return str(_("Hot-seat player"))
        return ""

    @property
    def is_open(self) -> bool:
        return self.occupant == Occupant.PLAYER and self.player_id is None


class GameEvent(models.Model):
    """One event of a game's log. Append-only: the unique (game, seq) makes a concurrent writer fail
    instead of forking the history, and seq runs 1, 2, 3... with no gap."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("sequence"))
    type = models.CharField(_("type"), max_length=40)
    data = models.JSONField(_("data"))
    # Who caused it: the account behind the move (null for the server's own moves).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("actor"),
    )
    automatic = models.BooleanField(_("automatic move"), default=False)
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:  # passed on to Model.save as they come
        if not self._state.adding:
            raise PermissionError("game events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("game events are append-only")


class LiveNote(models.Model):
    """The embedded live bus (no Redis): notes that stream processes poll for, kept two minutes;
    the same payloads as on Redis pub/sub (``games.followups.live``)."""

    id = models.BigAutoField(primary_key=True)
    topic = models.CharField(max_length=10)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("live note")
        verbose_name_plural = _("live notes")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.topic} #{self.pk}"
