from __future__ import annotations

from celery import shared_task

from games.tournaments import services


@shared_task(ignore_result=True)
def advance_tournament(tournament_id: int) -> bool:
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def table_finished(game_id: str) -> bool:
    return services.tournament_table_finished(game_id=game_id)


@shared_task(ignore_result=True)
def tick_tournaments() -> dict[str, int]:
    return services.tournaments_tick()
