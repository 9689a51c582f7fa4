"""Moderation: ban and unban an account (the admin's actions, games.accounts.admin).

A ban makes the account inactive and cuts it off (``player_cut_off``, which a deletion calls too):
its tokens and sessions end, its open seeks are withdrawn, its games in play resigned and its open
games left or cancelled (games.leaving), its tournament entries withdrawn (forfeited in running
ones, where it stays in the pairing), and its open account streams end (``account_closed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from games.followups import live, notes
from games.leaving import GamesLeft, player_running_games_end
from games.matchmaking.seeks import seeks_withdraw_for_player
from games.tournaments.models import Entrant, TournamentStatus
from games.tournaments.services import (
    OPEN_FOR_ENTRY,
    tournament_forfeit_entry,
    tournament_withdraw,
)
from players import services as player_services
from players.models import Player
from players.sessions import sessions_end


@dataclass(frozen=True)
class CutOff:
    tokens: int
    sessions: int
    seeks: int
    #: Entries withdrawn before the start, and forfeited in running tournaments.
    entries: int
    games: GamesLeft


def entries_withdraw(*, player: Player) -> int:
    """Withdraw the account's entries before the start, forfeit those in running ones; how many."""
    entries = Entrant.objects.filter(player=player, withdrawn_at__isnull=True)
    withdrawn = 0
    not_started = entries.filter(tournament__status__in=OPEN_FOR_ENTRY)
    for tournament_id in list(not_started.values_list("tournament_id", flat=True)):
        try:
            tournament_withdraw(tournament_id=tournament_id, player=player)
        except ApiError as refusal:
            if refusal.entry.code != Refusal.REGISTRATION_CLOSED.code:
                raise
            # It started since it was listed: running now, its entry is forfeited below.
            continue
        withdrawn += 1
    running = entries.filter(tournament__status=TournamentStatus.RUNNING)
    for tournament_id in list(running.values_list("tournament_id", flat=True)):
        withdrawn += tournament_forfeit_entry(tournament_id=tournament_id, player=player)
    return withdrawn


def player_cut_off(*, player: Player) -> CutOff:
    """End everything the account has going. In the caller's transaction, with the account's row
    locked (FOR NO KEY UPDATE: see ``player_ban``) and already unable to sign in, so that nothing
    new starts meanwhile; no key of it (its username) changes until this is done."""
    tokens = player_services.token_revoke_all(player=player)
    sessions = sessions_end(player=player)
    # Seeks first: a seek left open would pair the account into a new game after its games end.
    seeks = seeks_withdraw_for_player(player=player)
    # Entries before games, for the same reason: each tournament's row stays locked until this
    # commits, so none opens a round meanwhile, and any round it opened before is in play below.
    withdrawn = entries_withdraw(player=player)
    games = player_running_games_end(player=player)
    # A stream opened before the cut-off would go on until its lifetime ends: the note ends it.
    live.publish_on_commit([(player.pk, notes.AccountClosed())])
    return CutOff(tokens=tokens, sessions=sessions, seeks=seeks, entries=withdrawn, games=games)


@transaction.atomic
def player_ban(*, player_id: int) -> CutOff:
    # FOR NO KEY UPDATE, as every lock on an account's row: it excludes the account's seeks and
    # pairings, not a commit referring to it (FOR KEY SHARE). A round opening seating the account
    # commits holding its tournament's row, which the cut-off waits for: FOR UPDATE would deadlock.
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    player.is_active = False
    player.save(update_fields=["is_active"])
    return player_cut_off(player=player)


@transaction.atomic
def player_unban(*, player_id: int) -> None:
    """Active again: the account signs in anew (its tokens and sessions stay gone)."""
    Player.objects.filter(pk=player_id).update(is_active=True)
