"""The staff's hold on a running tournament (moderation, from the admin): pause and resume it,
or cancel it, its games in play called off or left to finish.

While paused, its games go on but no round opens and no table is paired or replayed; resuming
advances it at once, in case its round ended meanwhile. A cancelled tournament opens nothing more:
its games left to finish end as any game, those called off as the staff's abort (nothing rated).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from games.followups import jobs
from games.models import GameStatus
from games.staff import game_staff_abort
from games.tournaments.models import Tournament, TournamentGame, TournamentStatus
from games.tournaments.services import _lock
from players.models import Player

RUNNING = (TournamentStatus.RUNNING,)


@transaction.atomic
def tournament_pause(*, tournament_id: int | str) -> Tournament:
    tournament = _lock(tournament_id, RUNNING, Refusal.TOURNAMENT_NOT_RUNNING)
    if tournament.paused_at is not None:
        raise Refusal.TOURNAMENT_PAUSED.error()
    tournament.paused_at = timezone.now()
    tournament.save(update_fields=["paused_at"])
    return tournament


@transaction.atomic
def tournament_resume(*, tournament_id: int | str) -> Tournament:
    tournament = _lock(tournament_id, RUNNING, Refusal.TOURNAMENT_NOT_RUNNING)
    if tournament.paused_at is None:
        raise Refusal.TOURNAMENT_NOT_PAUSED.error()
    tournament.paused_at = None
    tournament.save(update_fields=["paused_at"])
    pk = tournament.pk
    transaction.on_commit(lambda: jobs.queue_tournament_advance(tournament_id=pk))
    return tournament


@dataclass(frozen=True)
class Cancelled:
    #: The games in play called off (none when they were left to finish).
    aborted: int
    #: The games in play left to finish.
    left: int


@transaction.atomic
def tournament_cancel_running(
    *, tournament_id: int | str, reason: str, staff: Player, abort_games: bool
) -> Cancelled:
    """Cancel a running (or paused) tournament; its games in play called off (``abort_games``,
    each by ``staff``, in this transaction) or left to finish."""
    tournament = _lock(tournament_id, RUNNING, Refusal.TOURNAMENT_NOT_RUNNING)
    tournament.status = TournamentStatus.CANCELLED
    tournament.cancel_reason = reason[:200]
    tournament.paused_at = None
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "cancel_reason", "paused_at", "finished_at"])
    in_play = list(
        TournamentGame.objects.filter(
            round__tournament=tournament, game__status=GameStatus.ACTIVE
        ).values_list("game_id", flat=True)
    )
    if not abort_games:
        return Cancelled(aborted=0, left=len(in_play))
    aborted = 0
    for game_id in in_play:
        try:
            game_staff_abort(game_id=game_id, staff=staff)
        except ApiError:  # it ended meanwhile (game_finished): there is nothing to call off
            continue
        aborted += 1
    return Cancelled(aborted=aborted, left=0)
