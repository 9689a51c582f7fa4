"""Admins create, schedule, cancel, pause and watch tournaments here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.vocabulary.errors import ApiError
from games.tournaments import moderation, services
from games.tournaments.models import SETTINGS, Entrant, Tournament, TournamentGame, TournamentRound
from players.admin_actions import ReasonForm, each_logged, with_form, with_reason
from players.auth import request_player

START_NOW = _("Start now (or cancel if under the minimum)")
CANCEL = _("Cancel")
ABORT = "abort"
FINISH = "finish"


class CancelRunningForm(ReasonForm):
    games = forms.ChoiceField(
        label=_("Its games in play"),
        choices=[
            (ABORT, _("Abort them: no result, nothing rated")),
            (FINISH, _("Let them finish (rated as usual)")),
        ],
        widget=forms.RadioSelect,
    )
    field_order = ["games", "reason"]


class TournamentForm(ModelForm):
    class Meta:
        model = Tournament
        fields = SETTINGS

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            services.tournament_validate(Tournament(**cleaned))
        except ApiError as exc:
            # A game option's refusal names it (``game_options.<name>``): the form has its column.
            field = (exc.field or "").split(".")[0]
            where = field if field in self.fields else NON_FIELD_ERRORS
            raise ValidationError({where: exc.detail}) from None
        return cleaned


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("player", "level", "name", "seed_rating", "withdrawn_at")
    readonly_fields = ("seed_rating",)
    raw_id_fields = ("player",)


class RoundInline(admin.TabularInline):
    model = TournamentRound
    extra = 0
    fields = ("number", "started_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "name", "kind", "format", "status", "paused_at", "starts_at", "current_round", "rated",
    )  # fmt: skip
    list_filter = ("status", "kind", "format", "rated")
    search_fields = ("name",)
    date_hierarchy = "starts_at"
    inlines = [EntrantInline, RoundInline]
    readonly_fields = (
        "status", "cancel_reason", "current_round", "started_at", "finished_at",
        "previous_edition", "paused_at",
    )  # fmt: skip
    # The last three hold running tournaments (moderation), each asking for a reason.
    actions = ["start_now", "cancel", "cancel_running", "pause", "resume"]

    def has_change_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        # Once it runs, its settings and entrants are what its games were made from: the page is
        # for reading (a POST is refused); the actions still apply.
        locked = obj is not None and obj.status not in services.OPEN_FOR_ENTRY
        return not locked and super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request_player(request)
        super().save_model(request, obj, form, change)

    @admin.action(description=START_NOW, permissions=["change"])
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        started = 0
        for tournament in queryset:
            started += services.tournament_start(tournament_id=tournament.pk)
            tournament.refresh_from_db()
            self.log_change(request, tournament, f"{START_NOW}: {tournament.get_status_display()}")
        message = ngettext(
            "%(count)d tournament started.", "%(count)d tournaments started.", started
        )
        self.message_user(request, message % {"count": started})

    @admin.action(description=CANCEL, permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                services.tournament_cancel(
                    tournament_id=tournament.pk, reason=str(_("Cancelled by the organiser."))
                )
            except ApiError as exc:
                self.message_user(request, f"{tournament}: {exc.detail}", messages.ERROR)
                self.log_change(request, tournament, f"{CANCEL}: {exc.detail}")
            else:
                tournament.refresh_from_db()
                self.log_change(request, tournament, f"{CANCEL}: {tournament.get_status_display()}")

    @admin.action(description=_("Cancel the selected running tournaments"), permissions=["change"])
    def cancel_running(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        def act(data: dict[str, Any]) -> None:
            me = request_player(request)
            reason = data["reason"]

            def one(tournament: Tournament) -> str:
                done = moderation.tournament_cancel_running(
                    tournament_id=tournament.pk,
                    reason=reason,
                    staff=me,
                    abort_games=data["games"] == ABORT,
                )
                return gettext(
                    "Cancelled while running: %(reason)s (games aborted: %(aborted)d, games "
                    "left to finish: %(left)d)"
                ) % {"reason": reason, "aborted": done.aborted, "left": done.left}

            each_logged(self, request, queryset, one)

        return with_form(
            self,
            request,
            queryset,
            action="cancel_running",
            question=gettext(
                "Cancel these running tournaments? No round opens any more; their games in play "
                "are aborted or left to finish, as you choose."
            ),
            submit=gettext("Cancel the tournaments"),
            form=CancelRunningForm,
            act=act,
        )

    @admin.action(description=_("Pause the selected running tournaments"), permissions=["change"])
    def pause(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        def act(reason: str) -> None:
            def one(tournament: Tournament) -> str:
                moderation.tournament_pause(tournament_id=tournament.pk)
                return gettext("Paused: %(reason)s") % {"reason": reason}

            each_logged(self, request, queryset, one)

        return with_reason(
            self,
            request,
            queryset,
            action="pause",
            question=gettext(
                "Pause these tournaments? Their games in play go on, but no round opens until "
                "they resume."
            ),
            submit=gettext("Pause"),
            act=act,
        )

    @admin.action(description=_("Resume the selected paused tournaments"), permissions=["change"])
    def resume(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        def act(reason: str) -> None:
            def one(tournament: Tournament) -> str:
                moderation.tournament_resume(tournament_id=tournament.pk)
                return gettext("Resumed: %(reason)s") % {"reason": reason}

            each_logged(self, request, queryset, one)

        return with_reason(
            self,
            request,
            queryset,
            action="resume",
            question=gettext("Resume these tournaments? Their next rounds open as they are due."),
            submit=gettext("Resume"),
            act=act,
        )


class TournamentGameInline(admin.TabularInline):
    model = TournamentGame
    extra = 0
    fields = ("table", "replay", "game", "entrant_ids")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "started_at", "finished_at")
    readonly_fields = ("tournament", "number", "started_at", "finished_at", "byes")
    inlines = [TournamentGameInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
