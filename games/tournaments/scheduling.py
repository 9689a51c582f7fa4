"""What follows a tournament game's end: the round may be over (a task, so rounds do not wait
for beat; beat's tick catches any that is lost). Called by ``games.followups.after_commit``."""

from __future__ import annotations

from games import jobs
from games.models import GameId
from games.tournaments.models import TournamentGame


def on_game_advanced(*, game_id: GameId, finished: bool, **_: object) -> None:
    if not finished:
        return
    tournament_id = (
        TournamentGame.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        jobs.queue_tournament_advance(tournament_id=tournament_id)
