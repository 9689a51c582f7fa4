"""A cut-off (a ban, an account's deletion) racing a round opening that seats the account, proved on
the real database. The round opening holds the tournament's row until it commits, and its commit
checks the seat's foreign key to the account's row (FOR KEY SHARE); the cut-off holds the
account's row and waits for the tournament's. Neither may wait for the other in turn: the round
opens, then the cut-off forfeits the entry and resigns the game just opened. Neither fails on a
deadlock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.accounts.deletion import account_delete
from games.log.check import log_problems
from games.models import Game, GameEvent, GameStatus
from games.moderation.actions import CutOff, player_ban, player_unban
from games.timers import automation
from games.tournaments import pairing as p
from games.tournaments import services
from games.tournaments.models import TournamentGame
from players.models import Player, PlayerRating, RatingChange
from tests.factories import account, new_game, new_tournament, organiser
from tests.races import Racer, until_one_waits_on_a_lock

CUT_OFFS: dict[str, Callable[..., CutOff]] = {"ban": player_ban, "deletion": account_delete}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", CUT_OFFS)
def test_a_cut_off_waiting_on_a_round_that_seats_the_account_lets_it_open(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(organiser())
    for _ in range(2):
        services.tournament_add_computer(tournament_id=tournament.pk, level="casual")
    ann = account("ann")
    entrant = services.tournament_register(tournament_id=tournament.pk, player=ann)
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    schedule = p.round_robin_rounds(sorted(e.pk for e in tournament.entrants.all()))
    assert schedule[0].byes == (p.Bye(entrant.pk),)  # the computers play round 1...
    assert entrant.pk in schedule[1].tables[0].entrants  # ...and round 2 seats her
    (first,) = TournamentGame.objects.filter(round__tournament=tournament)
    automation.run_until_idle(first.game_id)
    cutting = Racer(lambda: CUT_OFFS[how](player_id=ann.pk))
    open_round = services._open_round

    def open_round_once_the_cut_off_waits(*args: Any) -> None:
        # The advance holds the tournament's row here: the cut-off locks her row, then waits for
        # this one (her entry's); then the round's games go in, her seat among them.
        cutting.start()
        until_one_waits_on_a_lock("the cut-off, on the tournament's lock")
        open_round(*args)

    monkeypatch.setattr(services, "_open_round", open_round_once_the_cut_off_waits)
    assert services.tournament_advance(tournament_id=tournament.pk)
    done = cutting.finish()

    assert (done.entries, done.games.resigned) == (1, 1)
    entrant.refresh_from_db()
    assert entrant.withdrawn_at is not None
    table = TournamentGame.objects.get(round__tournament=tournament, round__number=2)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == GameStatus.FINISHED  # the game opened meanwhile: resigned
    seat = table.entrant_ids.index(entrant.pk)
    left = GameEvent.objects.get(game=game, type="seat_left")
    assert (left.actor_id, left.data["seat"], left.data["reason"]) == (ann.pk, seat, "resigned")
    assert list(log_problems(game)) == []
    if how == "deletion":
        assert Player.objects.get(pk=ann.pk).username == f"deleted-{ann.pk}"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_deletion_waiting_on_a_table_that_forfeits_an_entry_of_hers_lets_it_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Banned mid-tournament (her entry forfeited), then let back: her later tables still seat
    her and resign her seat as they open, which rates the game. Her deletion's cut-off passes
    that tournament by (nothing left to forfeit) and resigns a rated game of hers, so waits for
    her rating's row, which such a table holds until it commits; that commit, referring to her,
    must not wait for the deletion in turn."""
    tournament = new_tournament(organiser(), rated=True)
    for _ in range(2):
        services.tournament_add_computer(tournament_id=tournament.pk, level="casual")
    ann, bob = account("ann"), account("bob")
    PlayerRating.objects.create(player=ann, kind="yatzy")
    entrant = services.tournament_register(tournament_id=tournament.pk, player=ann)
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    assert player_ban(player_id=ann.pk).entries == 1  # round 1 is her bye: nothing resigned
    player_unban(player_id=ann.pk)
    duel = new_game(bob, "yatzy", ["me", "open"], joiners=[ann], rated=True)
    (first,) = TournamentGame.objects.filter(round__tournament=tournament)
    automation.run_until_idle(first.game_id)
    deleting = Racer(lambda: account_delete(player_id=ann.pk))
    forfeit_withdrawn = services._forfeit_withdrawn

    def forfeit_then_let_the_deletion_wait(*args: Any) -> None:
        forfeit_withdrawn(*args)  # round 2's table: her seat resigned, the game rated
        deleting.start()
        until_one_waits_on_a_lock("the deletion, on her rating's row (rating her other game)")

    monkeypatch.setattr(services, "_forfeit_withdrawn", forfeit_then_let_the_deletion_wait)
    assert services.tournament_advance(tournament_id=tournament.pk)
    done = deleting.finish()

    assert (done.entries, done.games.resigned) == (0, 1)
    table = TournamentGame.objects.get(round__tournament=tournament, round__number=2)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == GameStatus.FINISHED
    left = GameEvent.objects.get(game=game, type="seat_left")
    assert (left.actor_id, left.data["seat"]) == (ann.pk, table.entrant_ids.index(entrant.pk))
    duel = Game.objects.get(pk=duel.pk)
    assert duel.status == GameStatus.FINISHED
    assert RatingChange.objects.filter(player=ann).count() == 2
    for played in (game, duel):
        assert list(log_problems(played)) == []
    assert Player.objects.get(pk=ann.pk).username == f"deleted-{ann.pk}"
