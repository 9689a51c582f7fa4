"""Hints and previews follow the game (issue: the optimal move was handed to the seat to move in
rated and tournament games): a game's ``assistance`` is on by default only when it is unrated and
outside a tournament, and with it off ``hint/`` and ``preview/`` answer 403 ``assistance_off``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.tournaments.services import tournament_register, tournament_start
from players.models import Player
from tests.factories import (
    Client,
    MakeClient,
    api_game,
    game_url,
    new_game,
    new_tournament,
    organiser,
)

pytestmark = pytest.mark.django_db


def refused(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 403, response.json()
    return str(response.json()["code"])


def test_a_casual_game_helps_unless_asked_not_to(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    assert (game["rated"], game["assistance"]) == (False, True)
    hint = ann.ok("get", game_url(game["id"], "hint/"))
    assert hint  # the computer's choice for the position
    plain = api_game(ann, "ten_thousand", options=None)
    assert ann.ok("get", game_url(plain["id"], "preview/") + "?keep=")["valid"] is False

    strict = ann.ok(
        "post", "/api/v1/games/", {"kind": "yatzy", "seats": [{"type": "me"}],
                                   "assistance": False}, status=201,
    )  # fmt: skip
    ann.ok("post", game_url(strict["id"], "start/"))
    assert strict["assistance"] is False
    assert refused(ann, game_url(strict["id"], "hint/")) == "assistance_off"


def test_a_rated_game_gives_no_hint_nor_preview(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    players = Player.objects.filter(username__in=[ann.username, bob.username]).order_by("pk")
    for kind, path in (("yatzy", "hint/"), ("ten_thousand", "preview/?keep=0")):
        game = new_game(players[0], kind, ("me", "open"), joiners=[players[1]], rated=True)
        assert game.assistance is False
        answer = ann.ok("get", game_url(str(game.pk)))
        assert (answer["rated"], answer["assistance"]) == (True, False)
        assert refused(ann, game_url(str(game.pk), path)) == "assistance_off"


def test_a_rated_game_cannot_ask_for_help(make_client: MakeClient) -> None:
    from config.vocabulary.errors import ApiError
    from games import services

    ann = Player.objects.get(username=make_client().username)
    with pytest.raises(ApiError) as refusal:
        services.game_create(
            creator=ann, kind="yatzy", seats=[services.SeatSpec("me")], options={},
            rated=True, assistance=True,
        )  # fmt: skip
    assert refusal.value.get_codes() == "assistance_not_allowed"
    assert not Game.objects.exists()


def test_a_tournament_game_gives_no_hint_even_unrated(make_client: MakeClient) -> None:
    ann = make_client()
    player = Player.objects.get(username=ann.username)
    cup = new_tournament(
        organiser(), name="Cup", starts_at=timezone.now() + timedelta(minutes=5),
        computers=["casual"], rated=False,
    )  # fmt: skip
    tournament_register(tournament_id=cup.pk, player=player)
    tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(minutes=6))
    game = Game.objects.get(seats__player=player)
    assert (game.rated, game.assistance) == (False, False)
    # Whoever is to move: the game refuses help before it asks whose turn it is.
    assert refused(ann, game_url(str(game.pk), "hint/")) == "assistance_off"
