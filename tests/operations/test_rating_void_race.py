"""Voiding a game's ratings while another game of the kind is being rated, on the real database:
whichever commits first, the other reads what it wrote, and the ratings end exactly as a fresh
computation of the games not void, in the order they were rated."""

from __future__ import annotations

import threading

import pytest

from games.accounts.rating_void import game_ratings_void
from games.models import Game
from games.staff import game_adjudicate
from players.models import Player, PlayerRating, RatingChange
from tests.factories import account, new_game
from tests.operations.test_admin_ratings import fresh
from tests.reliability.test_event_store import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(3))
def test_a_void_and_a_rating_at_once_end_as_a_fresh_computation(attempt: int) -> None:
    root = account("root", is_staff=True)
    ann, bob, cara = account("ann"), account("bob"), account("cara")

    def rated(first: Player, second: Player) -> Game:
        return new_game(first, "yatzy", ["me", "open"], joiners=[second], rated=True)

    g1, g2, g3 = rated(ann, bob), rated(bob, cara), rated(cara, ann)
    game_adjudicate(game_id=g1.pk, staff=root, winner=0)
    game_adjudicate(game_id=g2.pk, staff=root, winner=0)

    def act(index: int) -> str:
        if index == 0:
            game_ratings_void(game_id=g1.pk, reason="race")
        else:
            game_adjudicate(game_id=g3.pk, staff=root, winner=1)
        return "ok"

    calls = iter(range(2))  # the first thread to start voids, the second rates
    lock = threading.Lock()

    def next_act() -> str:
        with lock:
            index = next(calls)
        return act(index)

    assert race(2, next_act) == ["ok", "ok"]
    order = sorted((g2, g3), key=lambda g: RatingChange.objects.filter(game=g).order_by("id")[0].pk)
    expected = fresh([Game.objects.get(pk=g.pk) for g in order])
    rows = PlayerRating.objects.filter(kind="yatzy").select_related("player")
    assert {r.player.username: (r.rating, r.deviation, r.volatility, r.games) for r in rows} == {
        name: (rating.rating, rating.deviation, rating.volatility, games)
        for name, (rating, games) in expected.items()
    }
