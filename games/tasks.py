"""Celery tasks: thin, idempotent wrappers that load by id and call a service. Each carries the game
version it was scheduled for, so a duplicate delivery or a late timer does nothing.
"""

from __future__ import annotations

from celery import shared_task

from games import ending
from games.timers import automation


@shared_task(ignore_result=True)
def play_computer_move(game_id: str, version: int) -> bool:
    return automation.game_play_computer(game_id=game_id, version=version)


# Registered under its former name, which queued messages and the timers queue's route carry.
@shared_task(ignore_result=True, name="games.tasks.timeout")
def fire_timer(game_id: str, version: int) -> bool:
    """The game's timer for ``version`` is due: auto-confirm, or the turn clock's move. Queued only
    with ``GAMES_TIMERS=celery``; otherwise the timers process fires timers itself
    (games.timers.runner)."""
    return automation.game_fire_timer(game_id=game_id, version=version)


@shared_task(ignore_result=True)
def sweep_automatic_moves() -> int:
    return automation.sweep()


@shared_task(ignore_result=True)
def expire_open_games() -> int:
    """Cancel the open games nobody joined in time (``OPEN_GAME_TTL_HOURS``)."""
    return ending.open_games_expire()
