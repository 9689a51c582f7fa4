"""Reads on tournaments: lists, standings, rounds with their games."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db.models import Prefetch, QuerySet

from config.vocabulary.refusals import Refusal
from games.tournaments.models import Entrant, Tournament
from games.tournaments.results import pairing_history
from games.tournaments.standings import standings as compute_standings


def tournament_queryset() -> QuerySet[Tournament]:
    return Tournament.objects.prefetch_related(
        Prefetch("entrants", queryset=Entrant.objects.select_related("player").order_by("id"))
    )


def tournament_get(tournament_id: int | str) -> Tournament:
    try:
        return tournament_queryset().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError):
        raise Refusal.TOURNAMENT_NOT_FOUND.error() from None


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    entrants = {e.pk: e for e in tournament.entrants.all() if e.seed_rating is not None}
    if not entrants:
        return []
    rounds, results = pairing_history(tournament)
    rows = compute_standings(list(entrants), rounds, results, format=tournament.format)
    return [{**asdict(row), "entrant": entrants[row.entrant]} for row in rows]


def tournament_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    rounds = []
    names = {e.pk: e for e in tournament.entrants.all()}
    for round_ in tournament.round_set.prefetch_related("byes", "games__game__seats"):
        games = []
        for game in sorted(round_.games.all(), key=lambda g: (g.table, g.replay)):
            seats = sorted(game.game.seats.all(), key=lambda seat: seat.index)
            games.append(
                {
                    "table": game.table,
                    "replay": game.replay,
                    "game": game.game_id,
                    "status": game.game.status,
                    "seats": [
                        {
                            "entrant": entrant_id,
                            "name": names[entrant_id].display_name,
                            "place": seat.place,
                            "total": seat.final_total,
                        }
                        for entrant_id, seat in zip(game.entrant_ids, seats, strict=True)
                    ],
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "finished": round_.finished_at is not None,
                "byes": list(round_.byes.all()),
                "games": games,
            }
        )
    return rounds


__all__ = ["tournament_get", "tournament_queryset", "tournament_rounds", "tournament_standings"]
