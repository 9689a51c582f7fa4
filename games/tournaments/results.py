"""Reads that turn stored rounds and finished games into the pure pairing library's terms."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.kinds import kind_for
from games.models import GameStatus
from games.tournaments import pairing as p
from games.tournaments.models import Entrant, Tournament, TournamentFormat, TournamentGame
from players.models import PlayerRating


def table_results(
    games: Iterable[TournamentGame], seed_order: Mapping[int, int] | None = None
) -> list[p.Result]:
    """The finished games as results. With ``seed_order`` (knockouts), a table's last allowed
    replay that tied again is decided by seed (``pairing.decided_by_seed``)."""
    results = []
    for game in games:
        seats = sorted(game.game.seats.all(), key=lambda seat: seat.index)
        result = p.Result(
            entrants=tuple(game.entrant_ids),
            places=tuple(seat.place or 0 for seat in seats),
            totals=tuple(seat.final_total or 0 for seat in seats),
        )
        if seed_order is not None and game.replay >= p.MAX_KNOCKOUT_REPLAYS:
            result = p.decided_by_seed(result, seed_order)
        results.append(result)
    return results


def seed_order(tournament: Tournament) -> dict[int, int]:
    """Each seeded entrant's rank by seed, 0 the best: the order the bracket gave them."""
    seeded = tournament.entrants.filter(seed_rating__isnull=False)
    ranked = sorted(seeded, key=lambda e: (-(e.seed_rating or 0.0), e.pk))
    return {entrant.pk: rank for rank, entrant in enumerate(ranked)}


def pairing_history(tournament: Tournament) -> tuple[list[p.Round], list[p.Result]]:
    """Every round as paired, and the result of every decided table (a replayed knockout table
    counts by its last game)."""
    rounds = []
    finished: list[TournamentGame] = []
    for round_ in tournament.round_set.prefetch_related("byes", "games__game__seats"):
        games = sorted(round_.games.all(), key=lambda g: (g.table, g.replay))
        latest = {g.table: g for g in games}
        tables = tuple(p.Table(tuple(g.entrant_ids)) for g in games if g.replay == 0)
        # In seed order, as the bracket gave them: knockout advancement reads byes in that order.
        seeded = sorted(round_.byes.all(), key=lambda e: (-(e.seed_rating or 0.0), e.pk))
        byes = tuple(p.Bye(entrant.pk) for entrant in seeded)
        rounds.append(p.Round(number=round_.number, tables=tables, byes=byes))
        finished.extend(g for g in latest.values() if g.game.status == GameStatus.FINISHED)
    seeds = seed_order(tournament) if tournament.format == TournamentFormat.KNOCKOUT else None
    return rounds, table_results(finished, seeds)


def ratings_of(tournament: Tournament, entrants: Sequence[Entrant]) -> dict[int, float]:
    """Each entrant's current rating for the tournament's game (computers by level)."""
    kind = kind_for(tournament.kind)
    players = [e.player_id for e in entrants if e.player_id is not None]
    stored = dict(
        PlayerRating.objects.filter(kind=tournament.kind, player_id__in=players).values_list(
            "player_id", "rating"
        )
    )
    return {
        e.pk: kind.level_rating(e.level)
        if e.player_id is None  # is_computer, said so the type checker sees the account's id
        else stored.get(e.player_id, 1500.0)
        for e in entrants
    }
