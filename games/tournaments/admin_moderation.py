"""The tournament admin's moderation actions: cancel a running tournament (its games in play
called off or left to finish, as the staff choose), pause and resume one. Each asks for a reason
(``players.admin_actions``), calls one service per tournament (``games.tournaments.moderation``)
and writes the outcome with the reason to the admin's log; a refusal is shown, and changes
nothing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.tournaments import moderation
from games.tournaments.models import Tournament
from players.admin_actions import ReasonForm, each_logged, with_form, with_reason
from players.auth import request_player

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


class TournamentModeration:
    """Mixed into ``TournamentAdmin``."""

    @admin.action(description=_("Cancel the selected running tournaments"), permissions=["change"])
    def cancel_running(
        self: Any, request: HttpRequest, queryset: QuerySet[Tournament]
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
        self: Any, request: HttpRequest, queryset: QuerySet[Tournament]
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
        self: Any, request: HttpRequest, queryset: QuerySet[Tournament]
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
