"""Whole tournaments of each format, played to the end through the services (computer entrants,
and absent humans whose turns the clock hands to the computer)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from config.vocabulary.errors import ApiError
from games.models import Game, GameEvent, GameStatus
from games.timers import automation
from games.tournaments import selectors, services
from games.tournaments.models import Tournament, TournamentGame, TournamentStatus
from players.models import Player, RatingChange
from tests.factories import account, new_tournament

pytestmark = pytest.mark.django_db


def add_computers(tournament: Tournament, levels: list[str]) -> None:
    for level in levels:
        services.tournament_add_computer(tournament_id=tournament.pk, level=level)


def play_out(tournament: Tournament, *, limit: int = 60) -> Tournament:
    """Start it, then play every open game (the computer, or the clock for absent humans) and
    advance, round after round."""
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    return play_on(tournament, limit=limit)


def play_on(tournament: Tournament, *, limit: int = 60) -> Tournament:
    """Play a running tournament's games and advance it, round after round, to its end."""
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status != TournamentStatus.RUNNING:
            return tournament
        active = Game.objects.filter(
            tournament_game__round__tournament=tournament, status=GameStatus.ACTIVE
        )
        for game in active:
            automation.run_until_idle(game.pk)
            later = timezone.now() + timedelta(days=1)
            while automation.sweep(now=later):
                automation.run_until_idle(game.pk)
        services.tournament_advance(tournament_id=tournament.pk)
    raise AssertionError("the tournament did not finish")


def meetings(tournament: Tournament) -> list[frozenset[int]]:
    return [
        frozenset(pair)
        for game in TournamentGame.objects.filter(round__tournament=tournament, replay=0)
        for pair in itertools.combinations(game.entrant_ids, 2)
    ]


def test_round_robin_with_an_odd_count(organiser: Player) -> None:
    tournament = new_tournament(organiser)
    add_computers(tournament, ["optimal", "casual", "casual", "optimal", "casual"])
    tournament = play_out(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    pairs = meetings(tournament)
    assert len(pairs) == 10 and len(set(pairs)) == 10  # every pair once
    rounds = selectors.tournament_rounds(tournament)
    assert len(rounds) == 5
    byes = [bye.pk for round_ in rounds for bye in round_["byes"]]
    assert sorted(byes) == sorted(set(byes)) and len(byes) == 5
    standings = selectors.tournament_standings(tournament)
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    assert all(row["played"] == 4 for row in standings)
    # One point per game shared by its two seats; in a round robin everyone sits out once, so a
    # bye scores nothing.
    assert sum(row["points"] for row in standings) == pytest.approx(10)


def test_swiss_with_an_odd_count_and_no_repeats(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="swiss", rounds=3)
    add_computers(tournament, ["optimal", "casual"] * 3 + ["optimal"])
    tournament = play_out(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    pairs = meetings(tournament)
    assert len(pairs) == len(set(pairs)) == 9
    byes = [bye.pk for r in selectors.tournament_rounds(tournament) for bye in r["byes"]]
    assert len(byes) == 3 and len(set(byes)) == 3
    standings = selectors.tournament_standings(tournament)
    keys = [
        (row["points"], row["buchholz"], row["sonneborn_berger"], row["game_score"])
        for row in standings
    ]
    assert keys == sorted(keys, reverse=True)  # ranked by points, then the Swiss tie-breaks


def test_swiss_with_four_seat_tables(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="swiss", rounds=2, table_size=4)
    add_computers(tournament, ["casual"] * 9)
    tournament = play_out(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    for round_ in selectors.tournament_rounds(tournament):
        seated = [seat["entrant"] for game in round_["games"] for seat in game["seats"]]
        byes = [bye.pk for bye in round_["byes"]]
        assert sorted(seated + byes) == sorted(set(seated + byes))
        assert len(seated) + len(byes) == 9
        assert all(2 <= len(game["seats"]) <= 4 for game in round_["games"])


def test_knockout_seeds_byes_and_a_champion(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="knockout")
    add_computers(tournament, ["optimal", "optimal", "casual", "casual", "casual", "casual"])
    tournament = play_out(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    rounds = selectors.tournament_rounds(tournament)
    assert len(rounds) == 3
    assert len(rounds[0]["byes"]) == 2  # 6 entrants: the two top seeds skip round one
    assert {bye.level for bye in rounds[0]["byes"]} == {"optimal"}
    assert len(rounds[-1]["games"]) == 1
    final = rounds[-1]["games"][-1]
    champion = next(seat["entrant"] for seat in final["seats"] if seat["place"] == 1)
    assert selectors.tournament_standings(tournament)[0]["entrant"].pk == champion


def test_a_tied_knockout_table_is_replayed(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="knockout")
    add_computers(tournament, ["casual", "casual"])
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    (table,) = TournamentGame.objects.filter(round__tournament=tournament)
    automation.run_until_idle(table.game_id)
    table.game.seats.update(place=1)  # make the finished game a tie
    assert services.tournament_advance(tournament_id=tournament.pk)
    replay = TournamentGame.objects.get(round__tournament=tournament, replay=1)
    assert replay.entrant_ids == table.entrant_ids
    assert replay.game.status == GameStatus.ACTIVE
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING


def test_withdrawal_before_the_start(organiser: Player) -> None:
    tournament = new_tournament(organiser)
    ann, bob = account("ann"), account("bob")
    services.tournament_register(tournament_id=tournament.pk, player=ann)
    services.tournament_register(tournament_id=tournament.pk, player=bob)
    add_computers(tournament, ["casual"])
    services.tournament_withdraw(tournament_id=tournament.pk, player=bob)
    with pytest.raises(ApiError) as error:
        services.tournament_withdraw(tournament_id=tournament.pk, player=bob)
    assert error.value.get_codes() == "not_registered"
    tournament = play_out(tournament)
    entrants = {e for pair in meetings(tournament) for e in pair}
    assert len(entrants) == 2
    with pytest.raises(ApiError) as error:
        services.tournament_register(tournament_id=tournament.pk, player=bob)
    assert error.value.get_codes() == "registration_closed"


def test_an_absent_human_gets_a_result_and_a_rating(organiser: Player) -> None:
    tournament = new_tournament(organiser, rated=True, turn_clock_seconds=1)
    ann = account("ann")
    services.tournament_register(tournament_id=tournament.pk, player=ann)
    add_computers(tournament, ["casual"])
    tournament = play_out(tournament)
    game = Game.objects.get(tournament_game__round__tournament=tournament)
    assert game.status == GameStatus.FINISHED
    ann_seat = game.seats.get(player=ann)
    # A rated game: the stand-in played her first timed-out turn, the second forfeited the game
    # (issue 11: being away never plays better than the player would, and ends the game).
    played_for_ann = GameEvent.objects.filter(game=game, automatic=True, data__seat=ann_seat.index)
    assert played_for_ann.filter(type="box_scored").count() == 1
    left = played_for_ann.get(type="seat_left")
    assert left.data["reason"] == "timed_out"
    assert ann_seat.place == 2
    change = RatingChange.objects.get(game=game, player=ann)
    assert change.rating_after < change.rating_before
    assert ann.ratings.get(kind="yatzy").games == 1


def test_under_the_minimum_it_is_cancelled_with_a_reason(organiser: Player) -> None:
    tournament = new_tournament(organiser, min_entrants=3)
    add_computers(tournament, ["casual", "casual"])
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert "2" in tournament.cancel_reason and "3" in tournament.cancel_reason
    assert not TournamentGame.objects.filter(round__tournament=tournament).exists()


def test_starting_twice_creates_the_games_once(organiser: Player) -> None:
    tournament = new_tournament(organiser)
    add_computers(tournament, ["casual"] * 4)
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    assert not services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    assert TournamentGame.objects.filter(round__tournament=tournament).count() == 2


def test_the_tick_opens_registration_starts_due_ones_and_schedules_the_next_edition(
    organiser: Player,
) -> None:
    now = timezone.now()
    later = new_tournament(organiser, starts_at=now + timedelta(hours=2))
    due = new_tournament(organiser, starts_at=now + timedelta(minutes=1), recurrence="0 18 * * *")
    add_computers(due, ["casual", "casual"])
    assert services.tournaments_tick(now=now)["opened"] == 2
    later.refresh_from_db()
    assert later.status == TournamentStatus.REGISTRATION
    result = services.tournaments_tick(now=now + timedelta(minutes=2))
    assert result["started"] == 1
    due.refresh_from_db()
    assert due.status == TournamentStatus.RUNNING
    edition = Tournament.objects.get(previous_edition=due)
    assert edition.starts_at > due.starts_at
    assert (edition.starts_at.hour, edition.starts_at.minute) == (18, 0)
    assert edition.status == TournamentStatus.SCHEDULED


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"format": "swiss"}, "rounds_required"),
        ({"table_size": 4}, "invalid_table_size"),
        ({"recurrence": "every day"}, "invalid_recurrence"),
        ({"game_options": {"target": 123}}, "invalid_option"),
        ({"min_entrants": 5, "max_entrants": 4}, "invalid_entrant_bounds"),
    ],
)
def test_creation_refusals(organiser: Player, fields: dict[str, Any], code: str) -> None:
    with pytest.raises(ApiError) as error:
        new_tournament(organiser, **fields)
    assert error.value.get_codes() == code
    assert not Tournament.objects.exists()


def test_a_new_round_tells_each_seated_account(organiser: Player) -> None:
    tournament = new_tournament(organiser)
    ann = account("ann")
    services.tournament_register(tournament_id=tournament.pk, player=ann)
    add_computers(tournament, ["casual"])
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    (game,) = TournamentGame.objects.filter(round__tournament=tournament)
    told = services.round_started_notes(tournament, 1, [game])
    notes = [(player, note.to_wire()) for player, note in told]
    seat = game.entrant_ids.index(ann.tournament_entries.get().pk)
    assert notes == [
        (
            ann.pk,
            {
                "type": "tournament_round_started",
                "tournament": tournament.pk,
                "round": 1,
                "game": str(game.game_id),
                "seat": seat,
            },
        )
    ]


def test_a_knockout_table_tied_past_its_replays_goes_to_the_better_seed(organiser: Player) -> None:
    """A table of equals cannot hold a tournament forever (a review found ties replayed without
    limit): after the first game and two replays all tied, the better seed advances."""
    from games.tournaments.pairing import MAX_KNOCKOUT_REPLAYS

    tournament = new_tournament(organiser, format="knockout")
    add_computers(tournament, ["casual", "optimal"])
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    for replay in range(MAX_KNOCKOUT_REPLAYS + 1):
        table = TournamentGame.objects.get(round__tournament=tournament, replay=replay)
        automation.run_until_idle(table.game_id)
        table.game.seats.update(place=1)  # a tie, every time
        assert services.tournament_advance(tournament_id=tournament.pk)
    assert not TournamentGame.objects.filter(
        round__tournament=tournament, replay=MAX_KNOCKOUT_REPLAYS + 1
    ).exists()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    entrants = sorted(tournament.entrants.all(), key=lambda e: (-(e.seed_rating or 0.0), e.pk))
    champion = selectors.tournament_standings(tournament)[0]["entrant"]
    assert champion == entrants[0]  # the optimal computer, the better seed
