"""Limits per account (a review found any account could start unlimited all-computer games,
filling the queue that plays everyone's computer turns): refused with a stable code, nothing
created."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from games.models import Game
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db


def test_games_with_the_computer_are_capped_per_account(
    make_client: MakeClient, settings: Settings
) -> None:
    settings.MAX_COMPUTER_GAMES_PER_ACCOUNT = 2
    ann, bob = make_client(), make_client()
    first = api_game(ann, seats=("me", "computer"))
    api_game(ann, seats=("computer", "computer"), start=False)  # open ones count too
    response = ann.post(
        "/api/v1/games/", {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "computer"}]}
    )
    assert response.status_code == 409
    assert response.json()["code"] == "too_many_computer_games"
    assert response.json()["params"] == {"limit": 2}
    assert Game.objects.filter(created_by__username=ann.username).count() == 2
    # Games among people are not the computer's time; another account has its own count.
    api_game(ann, seats=("me", {"type": "hotseat", "name": "Kid"}))
    api_game(bob, seats=("me", "computer"))
    # A finished game frees its place.
    game = Game.objects.get(pk=first["id"])
    game.status = "finished"
    game.save(update_fields=["status"])
    api_game(ann, seats=("me", "computer"))
    assert ann.get(game_url(first["id"])).status_code == 200


def test_open_games_are_capped_per_account(make_client: MakeClient, settings: Settings) -> None:
    # One account filled the lobby with twelve open games in a row.
    settings.MAX_OPEN_GAMES_PER_ACCOUNT = 3
    ann, bob = make_client(), make_client()
    waiting = [api_game(ann, seats=("me", "open"), start=False) for _game in range(3)]
    response = ann.post(
        "/api/v1/games/", {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]}
    )
    assert response.status_code == 409
    assert response.json()["code"] == "too_many_open_games"
    assert response.json()["params"] == {"limit": 3}
    assert Game.objects.filter(created_by__username=ann.username).count() == 3
    # Another account has its own count; a game that starts or is cancelled frees a place.
    api_game(bob, seats=("me", "open"), start=False)
    bob.ok("post", game_url(waiting[0]["id"], "join/"))
    ann.ok("post", game_url(waiting[0]["id"], "start/"))
    ann.ok("delete", game_url(waiting[1]["id"]), status=204)
    for _game in range(2):
        api_game(ann, seats=("me", "open"), start=False)
