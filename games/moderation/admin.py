"""The game admin's moderation actions: call a game off, decide it (voiding its rating changes is
``games.accounts.admin``'s). Each asks for a reason, calls one service per game and logs the
outcome with it; a refusal is shown, and changes nothing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.vocabulary.refusals import Refusal
from games import staff
from games.models import Game
from games.tournaments.models import TournamentGame
from players.admin_actions import ReasonForm, each_logged, with_form, with_reason
from players.auth import request_player

DRAW = "draw"


class AdjudicateForm(ReasonForm):
    """The reason, and the result: a seat wins (by its number, from 1), or a draw."""

    winner = forms.ChoiceField(label=_("Result"))
    field_order = ["winner", "reason"]

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = max((len(game.seats.all()) for game in games), default=0)
        # One game: its seats by name too; several: by number alone (the same seat in each).
        one = games[0].seats.all() if len(games) == 1 else []
        names = {seat.index: seat.display_name for seat in one}
        choices = [(DRAW, gettext("A draw"))]
        for index in range(seats):
            label = gettext("Seat %(number)d wins") % {"number": index + 1}
            choices.append((str(index), f"{label} ({names[index]})" if index in names else label))
        self.fields["winner"].choices = choices  # type: ignore[attr-defined]


def game_label(game: Game) -> str:
    return str(game.pk)  # whole: the list shows ids, and a game has no other name


class GameModeration:
    """Mixed into ``GameAdmin``."""

    @admin.action(
        description=_("Abort the selected games (no result, nothing rated)"), permissions=["change"]
    )
    def abort(self: Any, request: HttpRequest, queryset: QuerySet[Game]) -> TemplateResponse | None:
        def act(reason: str) -> None:
            me = request_player(request)

            def one(game: Game) -> str:
                # A table's game: the staff decide it (adjudicate), or cancel its tournament.
                if TournamentGame.objects.filter(game_id=game.pk).exists():
                    raise Refusal.TOURNAMENT_GAME.error()
                staff.game_staff_abort(game_id=game.pk, staff=me)
                return gettext("Aborted: %(reason)s") % {"reason": reason}

            each_logged(self, request, queryset, one, name=game_label)

        return with_reason(
            self,
            request,
            queryset,
            action="abort",
            question=gettext("Abort these games? Nobody wins and nothing is rated."),
            submit=gettext("Abort"),
            act=act,
        )

    @admin.action(
        description=_("Adjudicate the selected games (a winner or a draw)"), permissions=["change"]
    )
    def adjudicate(
        self: Any, request: HttpRequest, queryset: QuerySet[Game]
    ) -> TemplateResponse | None:
        def act(data: dict[str, Any]) -> None:
            me = request_player(request)
            winner = None if data["winner"] == DRAW else int(data["winner"])
            result = (
                gettext("a draw")
                if winner is None
                else gettext("seat %(number)d wins") % {"number": winner + 1}
            )

            def one(game: Game) -> str:
                staff.game_adjudicate(game_id=game.pk, staff=me, winner=winner)
                return gettext("Adjudicated, %(result)s: %(reason)s") % {
                    "result": result,
                    "reason": data["reason"],
                }

            each_logged(self, request, queryset, one, name=game_label)

        return with_form(
            self,
            request,
            queryset,
            action="adjudicate",
            question=gettext(
                "Decide these games? They finish with the result you choose, the totals as they "
                "stand, and are rated if they are rated games."
            ),
            submit=gettext("Adjudicate"),
            form=AdjudicateForm,
            form_kwargs={"games": list(queryset.prefetch_related("seats__player"))},
            act=act,
        )
