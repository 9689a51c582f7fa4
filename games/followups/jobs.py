"""Work handed to the Celery workers, named rather than imported: the task modules sit above the
services that queue them, so importing them here would close a loop (services -> followups ->
tasks -> automation -> services). ``tests/automation/test_followups.py`` checks every name
resolves. A finished table reaches its tournament through ``TABLE_FINISHED`` likewise.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.conf import settings

from config.storage.redis_client import CommandBatch
from games.models import Game, GameId
from games.timers.wheel import timer_schedule

log = logging.getLogger(__name__)

PLAY_COMPUTER_MOVE = "games.tasks.play_computer_move"
#: games.tasks.fire_timer, registered under its former name (queued messages keep it).
FIRE_TIMER = "games.tasks.timeout"
ADVANCE_TOURNAMENT = "games.tournaments.tasks.advance_tournament"
TABLE_FINISHED = "games.tournaments.tasks.table_finished"
TASK_NAMES = (PLAY_COMPUTER_MOVE, FIRE_TIMER, ADVANCE_TOURNAMENT, TABLE_FINISHED)


def _queue(
    name: str, *args: object, countdown: float | None = None, eta: datetime | None = None
) -> None:
    # Where the task modules are loaded (a worker, the tests) a signature runs the task's own
    # apply_async; elsewhere (a web process) it sends by name, routed by name all the same.
    signature = current_app.signature(name, args=args)
    # After a commit: a broker out of reach must not turn a move into an error; the sweep or
    # beat's tick makes up for the task.
    try:
        if eta is not None:
            signature.apply_async(eta=eta)
        elif countdown is not None:
            signature.apply_async(countdown=countdown)
        else:
            signature.apply_async()
    except Exception:
        log.warning("could not queue %s%s: the sweep will", name, args, exc_info=True)


def queue_computer_move(*, game_id: object, version: int) -> None:
    _queue(PLAY_COMPUTER_MOVE, str(game_id), version, countdown=settings.GAMES_COMPUTER_MOVE_DELAY)


def queue_fire_timer(*, game_id: object, version: int, eta: datetime) -> None:
    """Only with ``GAMES_TIMERS=celery``: the timers process fires deadlines otherwise."""
    _queue(FIRE_TIMER, str(game_id), version, eta=eta)


def queue_tournament_advance(*, tournament_id: int) -> None:
    _queue(ADVANCE_TOURNAMENT, tournament_id)


def queue_table_finished(*, game_id: GameId) -> None:
    _queue(TABLE_FINISHED, str(game_id))


def game_finished(*, game_id: GameId) -> None:
    """A finished game that is a tournament's table: its round may be over (a task, so rounds do
    not wait for beat; beat's tick catches any that is lost). Other games queue nothing."""
    if Game.objects.filter(pk=game_id, tournament_game__isnull=False).exists():
        queue_table_finished(game_id=game_id)


def schedule_followups(
    *,
    game_id: object,
    version: int,
    computer_to_play: bool,
    deadline_at: datetime | None,
    batch: CommandBatch | None = None,
) -> None:
    """After a move commits: queue the computer's next move, set the game's timer (``batch``)."""
    if computer_to_play:
        queue_computer_move(game_id=game_id, version=version)
    if settings.GAMES_TIMERS == "celery":
        if deadline_at is not None:
            queue_fire_timer(game_id=game_id, version=version, eta=deadline_at)
        return
    # Also when the move left no deadline: on Redis that removes the timer the player just beat.
    timer_schedule(game_id=game_id, version=version, deadline_at=deadline_at, batch=batch)
