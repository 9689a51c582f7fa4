"""Refusals of the tournaments API (one vocabulary with the rest: config.errors)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import ApiError, Conflict

SWISS_NEEDS_ROUNDS = _("A Swiss tournament needs a number of rounds.")
MULTI_SEAT_SWISS_ONLY = _("Tables of more than two seats are for Swiss tournaments.")
CANNOT_CANCEL = _("Only a tournament that has not started can be cancelled.")
INVALID_RECURRENCE = _("The recurrence must be a cron line of five fields, e.g. 0 18 * * *.")


class TournamentNotFound(ApiError):
    status_code = 404
    default_detail = _("No such tournament.")
    default_code = "not_found"


class RegistrationClosed(Conflict):
    default_detail = _("Registration for this tournament is closed.")
    default_code = "registration_closed"


class RegistrationNotOpen(Conflict):
    default_detail = _("Registration for this tournament has not opened yet.")
    default_code = "registration_not_open"


class AlreadyRegistered(Conflict):
    default_detail = _("You are already registered for this tournament.")
    default_code = "already_registered"


class NotRegistered(Conflict):
    default_detail = _("You are not registered for this tournament.")
    default_code = "not_registered"


class TournamentFull(Conflict):
    default_detail = _("This tournament is full.")
    default_code = "tournament_full"
