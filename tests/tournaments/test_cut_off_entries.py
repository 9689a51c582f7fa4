"""An account cut off (banned, or deleted) while a tournament it entered runs: its entry is
forfeited, not dropped. It stays in the pairing, so the schedule and the bracket are the ones the
start made; each later table of its opens and ends at once (its seat resigns as the game starts),
and the tournament runs on to its end rather than waiting on its clock."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks

from games.followups import jobs
from games.models import Game, GameEvent, GameStatus
from games.moderation.actions import player_ban
from games.timers import automation
from games.tournaments import pairing as p
from games.tournaments import selectors, services
from games.tournaments.models import Entrant, Tournament, TournamentGame, TournamentStatus
from games.tournaments.moderation import tournament_pause
from players.models import Player, PlayerRating
from tests.factories import Client, api_client, new_tournament
from tests.tournaments.test_tournament_flow import add_computers, play_on

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def entrant_of(tournament: Tournament, client: Client) -> Entrant:
    return tournament.entrants.get(player__username=client.username)


def register(tournament: Tournament, client: Client) -> Player:
    player = Player.objects.get(username=client.username)
    services.tournament_register(tournament_id=tournament.pk, player=player)
    return player


def ban(client: Client) -> None:
    player = Player.objects.get(username=client.username)
    assert player_ban(player_id=player.pk).entries == 1


def delete(client: Client) -> None:
    answer = client.delete("/api/v1/accounts/me/", {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content


CUT_OFFS: dict[str, Callable[[Client], None]] = {"ban": ban, "deletion": delete}


def table_of(tournament: Tournament, number: int, entrant: Entrant) -> TournamentGame:
    tables = TournamentGame.objects.filter(round__tournament=tournament, round__number=number)
    return next(table for table in tables if entrant.pk in table.entrant_ids)


def places(table: TournamentGame) -> dict[int, int | None]:
    """Each entrant's place at the table, from the game as it is now."""
    seats = Game.objects.get(pk=table.game_id).seats.order_by("index")
    return {
        entrant_id: seat.place for entrant_id, seat in zip(table.entrant_ids, seats, strict=True)
    }


def play_round(tournament: Tournament) -> None:
    """Play the computer games of the current round, then advance (what the task would)."""
    for table in TournamentGame.objects.filter(round__tournament=tournament):
        automation.run_until_idle(table.game_id)
    assert services.tournament_advance(tournament_id=tournament.pk)


def forfeited(table: TournamentGame, entrant: Entrant) -> bool:
    """The game ended with the entrant's seat resigning, and nothing else played."""
    game = Game.objects.get(pk=table.game_id)
    seat = table.entrant_ids.index(entrant.pk)
    played = GameEvent.objects.filter(game=game).exclude(type="game_started")
    left = played.filter(type="seat_left", data__seat=seat, data__reason="resigned")
    moves = played.exclude(type__in=("seat_left", "game_finished"))
    return game.status == GameStatus.FINISHED and left.exists() and not moves.exists()


@pytest.mark.parametrize("how", CUT_OFFS)
def test_an_account_cut_off_mid_round_robin_forfeits_its_later_games(
    organiser: Player, how: str
) -> None:
    tournament = new_tournament(organiser)
    ann = api_client("ann")
    register(tournament, ann)
    add_computers(tournament, ["casual"] * 3)
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    entrant = entrant_of(tournament, ann)
    schedule = p.round_robin_rounds(sorted(e.pk for e in tournament.entrants.all()))
    first = table_of(tournament, 1, entrant)

    CUT_OFFS[how](ann)

    entrant.refresh_from_db()
    assert entrant.withdrawn_at is not None
    assert entrant.seed_rating is not None  # still in the pairing
    (opponent,) = set(first.entrant_ids) - {entrant.pk}
    assert places(first) == {entrant.pk: 2, opponent: 1}  # her game in play: resigned
    play_round(tournament)
    second = table_of(tournament, 2, entrant)
    assert forfeited(second, entrant)  # before any computer move is played
    (opponent,) = set(second.entrant_ids) - {entrant.pk}
    assert places(second) == {entrant.pk: 2, opponent: 1}

    tournament = play_on(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    played = [
        (table.round.number, tuple(table.entrant_ids))
        for table in TournamentGame.objects.filter(round__tournament=tournament).order_by(
            "round__number", "table"
        )
    ]
    assert played == [
        (round_.number, table.entrants) for round_ in schedule for table in round_.tables
    ]
    assert forfeited(table_of(tournament, 3, entrant), entrant)
    standings = {row["entrant"].pk: row for row in selectors.tournament_standings(tournament)}
    assert (standings[entrant.pk]["played"], standings[entrant.pk]["points"]) == (3, 0)


def test_a_knockout_entrant_cut_off_loses_the_table_it_would_play(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="knockout")
    ann = api_client("ann")
    PlayerRating.objects.create(player=register(tournament, ann), kind="yatzy", rating=3000)
    add_computers(tournament, ["casual", "casual"])
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    entrant = entrant_of(tournament, ann)
    (first,) = selectors.tournament_rounds(tournament)
    assert first["byes"] == [entrant]  # the top seed waits for the final

    ban(ann)

    play_round(tournament)
    final = table_of(tournament, 2, entrant)
    assert forfeited(final, entrant)
    (opponent,) = set(final.entrant_ids) - {entrant.pk}
    assert places(final) == {entrant.pk: 2, opponent: 1}
    assert services.tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert selectors.tournament_standings(tournament)[0]["entrant"].pk == opponent


def test_rounds_whose_every_table_ends_as_it_opens_do_not_stall(
    organiser: Player,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Ann and Bob, cut off in round 1, meet in round 3: a table with no seat left to play. Every
    round after the first ends inside the transaction that opens it; each must still queue the
    advance that opens the next, as any finished game does, with no tick to catch up."""
    tournament = new_tournament(organiser)
    ann, bob = api_client("ann"), api_client("bob")
    register(tournament, ann)
    add_computers(tournament, ["casual"])
    register(tournament, bob)
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    a, b = entrant_of(tournament, ann), entrant_of(tournament, bob)
    schedule = p.round_robin_rounds(sorted(e.pk for e in tournament.entrants.all()))
    assert {a.pk, b.pk} not in [set(t.entrants) for t in schedule[0].tables]
    assert schedule[2].tables == (p.Table((a.pk, b.pk)),)
    # What the worker would run: an advance, or a finished table handed to its tournament.
    queued: list[tuple[str, object]] = []
    monkeypatch.setattr(
        jobs,
        "queue_tournament_advance",
        lambda *, tournament_id: queued.append(("advance", tournament_id)),
    )
    monkeypatch.setattr(
        jobs, "queue_table_finished", lambda *, game_id: queued.append(("table", game_id))
    )

    with django_capture_on_commit_callbacks(execute=True):
        ban(ann)  # her round-1 game resigned: the round is over
        ban(bob)
    for _ in range(20):
        if not queued:
            break
        what, key = queued.pop()
        with django_capture_on_commit_callbacks(execute=True):
            if what == "advance":
                assert key == tournament.pk
                services.tournament_advance(tournament_id=tournament.pk)
            else:
                assert (
                    TournamentGame.objects.get(game_id=str(key)).round.tournament_id
                    == tournament.pk
                )
                services.tournament_table_finished(game_id=str(key))

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert table_of(tournament, 2, b).game.status == GameStatus.FINISHED
    last = table_of(tournament, 3, a)
    assert last.entrant_ids == [a.pk, b.pk]
    assert places(last) == {a.pk: 2, b.pk: 1}  # the first seat resigned; the last one left won


def test_an_entry_in_a_paused_tournament_is_forfeited_too(organiser: Player) -> None:
    tournament = new_tournament(organiser)
    ann = api_client("ann")
    register(tournament, ann)
    add_computers(tournament, ["casual"])
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament_pause(tournament_id=tournament.pk)
    ban(ann)
    assert entrant_of(tournament, ann).withdrawn_at is not None


def test_at_a_larger_table_the_others_play_on(organiser: Player) -> None:
    tournament = new_tournament(organiser, format="swiss", rounds=2, table_size=3)
    ann = api_client("ann")
    register(tournament, ann)
    add_computers(tournament, ["casual"] * 5)
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    entrant = entrant_of(tournament, ann)

    ban(ann)

    play_round(tournament)
    second = table_of(tournament, 2, entrant)
    game = Game.objects.get(pk=second.game_id)
    assert len(second.entrant_ids) == 3
    assert game.status == GameStatus.ACTIVE
    assert game.state is not None
    assert game.state["out"] == [second.entrant_ids.index(entrant.pk)]
    tournament = play_on(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    assert places(second)[entrant.pk] == 3


def test_the_tournament_answer_keeps_a_forfeited_entry_and_marks_it(organiser: Player) -> None:
    """A forfeited entrant stays in the pairing, so the tournament's answer keeps listing it (with
    its ``withdrawn_at``) rather than dropping it from the entrants the standings still rank."""
    tournament = new_tournament(organiser)
    ann = api_client("ann")
    register(tournament, ann)
    add_computers(tournament, ["casual"] * 3)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    watcher = api_client()

    def entrants() -> dict[str | None, object]:
        listed = watcher.ok("get", url)["entrants"]
        assert len(listed) == 4
        return {entry["username"]: entry["withdrawn_at"] for entry in listed}

    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    assert entrants()["ann"] is None
    ban(ann)
    assert entrants()["ann"] is not None
