"""The admin's actions that reach across accounts and games: ban, unban and delete an account,
void a game's rating changes. Each admin beneath (``players.admin``, ``games.admin``) is
registered again here as a subclass: this app comes after both in ``INSTALLED_APPS``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import admin as game_admin
from games.accounts import deletion
from games.accounts.rating_void import game_ratings_void
from games.models import Game
from games.moderation import actions as moderation
from games.moderation.admin import game_label
from players import admin as player_admin
from players.admin_actions import each_logged, with_reason
from players.auth import request_player
from players.models import Player

admin.site.unregister(Player)
admin.site.unregister(Game)


@admin.register(Player)
class PlayerAdmin(player_admin.PlayerAdmin):
    actions = ["ban", "unban", "delete_account"]

    @admin.action(description=_("Ban the selected players"), permissions=["change"])
    def ban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        return self._cut_off(
            request,
            queryset,
            action="ban",
            cut=moderation.player_ban,
            yourself=gettext("You cannot ban yourself."),
            logged=gettext(
                "Banned: %(reason)s (tokens revoked: %(tokens)d, sessions ended: "
                "%(sessions)d, seeks withdrawn: %(seeks)d, tournament entries "
                "withdrawn: %(entries)d, games "
                "resigned: %(resigned)d, open games left: %(left)d, open games "
                "cancelled: %(cancelled)d)"
            ),
            done=gettext("Banned: %(n)d."),
            question=gettext(
                "Ban these players? They can no longer sign in; their tokens and sessions end, "
                "their games in play are resigned, the open games they are in are left or "
                "cancelled and their entries in tournaments not yet started are withdrawn."
            ),
            submit=gettext("Ban"),
        )

    @admin.action(description=_("Unban the selected players"), permissions=["change"])
    def unban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        if self._out_of_reach(request, queryset):
            return None

        def act(reason: str) -> None:
            for player in queryset:
                moderation.player_unban(player_id=player.pk)
                self.log_change(
                    request, player, gettext("Unbanned: %(reason)s") % {"reason": reason}
                )
            self.message_user(request, gettext("Unbanned: %(n)d.") % {"n": len(queryset)})

        return with_reason(
            self,
            request,
            queryset,
            action="unban",
            question=gettext("Unban these players? They may sign in again."),
            submit=gettext("Unban"),
            act=act,
        )

    @admin.action(description=_("Delete the selected accounts"), permissions=["change"])
    def delete_account(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> TemplateResponse | None:
        """The account's own deletion, done by an admin: anonymised, not erased."""
        return self._cut_off(
            request,
            queryset,
            action="delete_account",
            cut=deletion.account_delete,
            yourself=gettext("You cannot delete your own account."),
            logged=gettext(
                "Account deleted: %(reason)s (tokens revoked: %(tokens)d, sessions "
                "ended: %(sessions)d, seeks withdrawn: %(seeks)d, tournament entries "
                "withdrawn: %(entries)d, games "
                "resigned: %(resigned)d, open games left: %(left)d, open games "
                "cancelled: %(cancelled)d)"
            ),
            done=gettext("Accounts deleted: %(n)d."),
            question=gettext(
                "Delete these accounts? Each is anonymised: its name is replaced, its email "
                "cleared and its password made unusable; its tokens and sessions end, its games "
                "in play are resigned and its open games left. Its games and their logs stay. "
                "This cannot be undone."
            ),
            submit=gettext("Delete the accounts"),
        )

    def _cut_off(
        self,
        request: HttpRequest,
        queryset: QuerySet[Player],
        *,
        action: str,
        cut: Callable[..., moderation.CutOff],
        yourself: str,
        logged: str,
        done: str,
        question: str,
        submit: str,
    ) -> TemplateResponse | None:
        """A ban or a deletion (both cut the account off), each account logged with its counts."""
        if self._out_of_reach(request, queryset):
            return None
        if queryset.filter(pk=request_player(request).pk).exists():
            self.message_user(request, yourself, messages.ERROR)
            return None

        def act(reason: str) -> None:
            for player in queryset:
                cut_off = cut(player_id=player.pk)
                player.refresh_from_db()  # the log names a deleted account by its new name
                counts = {**asdict(cut_off), **asdict(cut_off.games)}  # the games' counts too
                self.log_change(request, player, logged % {"reason": reason, **counts})
            self.message_user(request, done % {"n": len(queryset)})

        return with_reason(
            self, request, queryset, action=action, question=question, submit=submit, act=act
        )


@admin.register(Game)
class GameAdmin(game_admin.GameAdmin):
    actions = [*game_admin.GameAdmin.actions, "void_ratings"]

    @admin.action(
        description=_("Void the selected games' rating changes and recompute ratings"),
        permissions=["change"],
    )
    def void_ratings(
        self, request: HttpRequest, queryset: QuerySet[Game]
    ) -> TemplateResponse | None:
        def act(reason: str) -> None:
            def one(game: Game) -> str:
                done = game_ratings_void(game_id=game.pk, reason=reason)
                return gettext(
                    "Rating changes voided: %(reason)s (changes voided: %(changes)d, later "
                    "changes recomputed: %(recomputed)d, ratings moved: %(players)d)"
                ) % {"reason": reason, **asdict(done)}

            each_logged(self, request, queryset, one, name=game_label)

        return with_reason(
            self,
            request,
            queryset,
            action="void_ratings",
            question=gettext(
                "Void these games' rating changes? Every rating of their game is computed again "
                "as if they had never been rated."
            ),
            submit=gettext("Void"),
            act=act,
        )
