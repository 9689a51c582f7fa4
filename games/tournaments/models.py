"""Tournaments, their entrants, rounds and the games of each round."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.kinds import level_label
from games.kinds.fields import kind_column
from games.models import Game


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("Knockout")


class TournamentStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


#: What an organiser sets (the admin's form); a recurring tournament's next edition copies them.
SETTINGS = (
    "name", "kind", "game_options", "format", "rounds", "table_size", "registration_opens_at",
    "starts_at", "min_entrants", "max_entrants", "rated", "turn_clock_seconds", "recurrence",
)  # fmt: skip


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=100)
    kind = kind_column()
    game_options = models.JSONField(_("game options"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=20, choices=TournamentFormat.choices)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), null=True, blank=True, help_text=_("Swiss only: how many rounds")
    )
    table_size = models.PositiveSmallIntegerField(
        _("seats per table"), default=2, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts"))
    min_entrants = models.PositiveSmallIntegerField(_("minimum entrants"), default=2)
    max_entrants = models.PositiveSmallIntegerField(_("maximum entrants"), default=64)
    rated = models.BooleanField(_("rated"), default=True)
    turn_clock_seconds = models.PositiveIntegerField(
        _("turn clock (seconds)"),
        default=60,
        validators=[MinValueValidator(1)],
        help_text=_("An idle seat's turn is played by the stand-in after this long."),
    )
    # A five-field cron line ("0 18 * * *": every day at 18:00 UTC); when set, starting this
    # edition schedules the next one.
    recurrence = models.CharField(_("recurrence (cron)"), max_length=100, blank=True)
    previous_edition = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="next_edition"
    )
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=TournamentStatus.choices,
        default=TournamentStatus.SCHEDULED,
    )
    cancel_reason = models.CharField(_("why it was cancelled"), max_length=200, blank=True)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    #: The staff's hold (games.tournaments.moderation); its games in play go on meanwhile.
    paused_at = models.DateTimeField(
        _("paused"),
        null=True,
        blank=True,
        help_text=_("Set while the staff pause it: no round opens until it resumes."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["starts_at", "id"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_entrants__gte=2)
                & models.Q(max_entrants__gte=models.F("min_entrants")),
                name="tournament_entrant_bounds",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A player, or a computer player of a given level, taking part in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    # A computer entrant's level (games.kinds); the column and the API call it "computer_level".
    level = models.CharField(
        _("computer level"), max_length=20, blank=True, db_column="computer_level"
    )
    name = models.CharField(_("name"), max_length=40, blank=True)
    seed_rating = models.FloatField(_("rating at the start"), null=True, blank=True)
    # The entrant's client seed (games.rules.fairness), its seat's at each table it sits at; empty
    # if it gave none (it may still give one with its first move of each game).
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(player__isnull=False),
                name="entrant_once_per_tournament",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, level="")
                | models.Q(player__isnull=True) & ~models.Q(level=""),
                name="entrant_player_or_computer",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.player is not None:
            return str(self.player.public_name)
        level = level_label(self.level)
        return str(_("Computer (%(level)s)") % {"level": level})

    @property
    def is_computer(self) -> bool:
        return self.player_id is None


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Entrants who sit this round out with a bye (worth a win).
    byes = models.ManyToManyField(Entrant, blank=True, related_name="byes")

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"


class TournamentGame(models.Model):
    """One table of a round. ``replay`` > 0 is a knockout table replayed after a tie."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="games")
    table = models.PositiveSmallIntegerField(_("table"))
    replay = models.PositiveSmallIntegerField(_("replay"), default=0)
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_game")
    # Entrant ids in seat order.
    entrant_ids = models.JSONField(_("entrants by seat"))

    class Meta:
        verbose_name = _("tournament game")
        verbose_name_plural = _("tournament games")
        ordering = ["round", "table", "replay"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "replay"], name="tournament_game_unique_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.table}"
