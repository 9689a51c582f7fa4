"""The event store's guarantees, proved on the real database (PostgreSQL in CI)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from config.vocabulary.errors import ApiError
from games import services
from games.models import Game, GameEvent
from players.models import Player
from tests.factories import account, move, new_game, new_tournament, organiser


def started_game(seats: int = 1) -> tuple[Game, Player]:
    """Alice's yatzy game (she and ``seats`` - 1 hot seats), her first roll played."""
    alice = account("alice")
    guests = [{"type": "hotseat", "name": f"guest {n}"} for n in range(1, seats)]
    return move(new_game(alice, "yatzy", ["me", *guests]), alice, type="roll"), alice


def race(count: int, move: Any) -> list[Any]:
    """Run ``move`` in ``count`` threads released at the same instant; collect results."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = move()
        except ApiError as exc:
            results[index] = exc.get_codes()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_moves_never_both_apply() -> None:
    game, alice = started_game()

    def score() -> str:
        services.game_move(game_id=game.pk, command={"type": "score", "box": "chance"}, actor=alice)
        return "ok"

    results = race(2, score)
    assert sorted(results) == ["ok", "roll_first"], results  # the next turn starts unrolled
    assert GameEvent.objects.filter(game=game, type="box_scored").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_moves_on_the_same_version_one_wins_the_rest_are_stale() -> None:
    game, alice = started_game(seats=2)
    version = game.version

    def score() -> str:
        services.game_move(
            game_id=game.pk,
            command={"type": "score", "box": "chance"},
            actor=alice,
            expected_version=version,
        )
        return "ok"

    results = race(4, score)
    assert sorted(results) == ["ok", "stale_version", "stale_version", "stale_version"], results
    seqs = list(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.django_db
def test_seq_is_unique_per_game() -> None:
    game, _ = started_game()
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.create(game=game, seq=1, type="dice_rolled", data={})


@pytest.mark.django_db
def test_events_cannot_be_changed_or_deleted_through_the_model() -> None:
    game, _ = started_game()
    event = GameEvent.objects.filter(game=game).first()
    assert event is not None
    event.type = "forged"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_refuses_updates_and_deletes_of_events() -> None:
    game, _ = started_game()
    with pytest.raises(DatabaseError), transaction.atomic():
        GameEvent.objects.filter(game=game).update(type="forged")
    with pytest.raises(DatabaseError), transaction.atomic():
        GameEvent.objects.filter(game=game).delete()
    assert GameEvent.objects.filter(game=game, type="forged").count() == 0
    assert GameEvent.objects.filter(game=game).count() == game.version


@pytest.mark.django_db
def test_a_game_with_a_log_cannot_be_deleted() -> None:
    game, _ = started_game()
    with pytest.raises(DatabaseError), transaction.atomic():
        game.delete()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_starting_a_due_tournament_twice_at_once_creates_its_games_once() -> None:
    from games.tournaments import services as tournaments
    from games.tournaments.models import TournamentGame

    cup = new_tournament(
        organiser(), name="Race cup", rated=True, turn_clock_seconds=60, computers=["casual"] * 4
    )
    # Two schedulers tick at the same moment: one starts it, the other finds it started.
    results = race(2, lambda: tournaments.tournaments_tick(now=cup.starts_at)["started"])
    assert sorted(results) == [0, 1], results
    assert TournamentGame.objects.filter(round__tournament=cup).count() == 2
