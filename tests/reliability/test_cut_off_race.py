"""A ban (the cut-off an account's deletion shares) racing a move that ends the same game, proved on
the real database: the cut-off waits for the game's lock, finds the game over and passes it by;
the log gets no second ending and still replays."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from games.ending import game_resign
from games.log_check import log_problems
from games.models import Game, GameEvent, GameStatus
from games.moderation import player_ban
from tests.factories import account, new_game


def waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_ban_waiting_on_a_game_that_ends_meanwhile_passes_it_by() -> None:
    ann, bob = account("ann"), account("bob")
    game = new_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    outcome: dict[str, Any] = {}

    def ban() -> None:
        try:
            outcome["ban"] = player_ban(player_id=bob.pk)
        except Exception as exc:  # reported below, not lost in the thread
            outcome["error"] = exc
        finally:
            connection.close()

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)  # a move of ann's holds the game
        banning = threading.Thread(target=ban)
        banning.start()
        deadline = time.monotonic() + 20
        while waiting_on_a_lock() == 0:  # the ban listed the game in play and now waits
            assert time.monotonic() < deadline, "the ban never reached the game's lock"
            time.sleep(0.05)
        game_resign(game_id=game.pk, player=ann)  # ann's move ends the game first
    banning.join(timeout=60)

    assert "error" not in outcome, outcome
    assert outcome["ban"].games.resigned == 0
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    left = list(
        GameEvent.objects.filter(game=game, type="seat_left").values_list("actor", flat=True)
    )
    assert left == [ann.pk]
    assert list(log_problems(game)) == []
