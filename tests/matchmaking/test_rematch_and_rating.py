"""Rematches over HTTP (offers, the new game with the seats turned, refusals) and rated casual
games: a rated game paired by seeks changes both players' Glicko-2 ratings when it ends."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from games import ending
from games.api.stream_schema import NOTES
from games.models import Game, GameStatus
from players.models import Player, PlayerRating, RatingChange
from tests.factories import Client, account, api_client, game_url, new_game, token
from tests.matchmaking.conftest import Notes

pytestmark = pytest.mark.django_db


def client_of(player: Player) -> Client:
    client = Client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token(player)}")
    return client


def finished_game(*players: Player, **fields: Any) -> Game:
    """A two-seat game of ``players`` that the first seat resigned."""
    game = new_game(players[0], "yatzy", ("me", "open"), joiners=players[1:], **fields)
    ending.game_resign(game_id=game.pk, player=players[0])
    return Game.objects.get(pk=game.pk)


def test_a_rematch_starts_when_every_player_offers(
    notes: Notes,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_game(ann, bob, turn_clock_seconds=60)
    url = game_url(str(game.pk), "rematch/")
    with django_capture_on_commit_callbacks(execute=True):
        first = client_of(ann).ok("post", url, status=201)
    assert first == {"game": str(game.pk), "offered_seats": [0], "rematch": None}
    assert notes == [(bob.pk, {"type": "rematch_offered", "game": str(game.pk), "seat": 0})]
    again = client_of(ann).post(url)
    assert (again.status_code, again.json()["code"]) == (409, "rematch_already_offered")

    with django_capture_on_commit_callbacks(execute=True):
        second = client_of(bob).ok("post", url, status=201)
    assert second["offered_seats"] == [0, 1]
    rematch = Game.objects.get(pk=second["rematch"])
    assert rematch.status == GameStatus.ACTIVE
    assert (rematch.kind, rematch.options, rematch.turn_clock_seconds) == (
        game.kind,
        game.options,
        game.turn_clock_seconds,
    )
    # The seats turned one place: bob sits first now.
    assert [seat.player_id for seat in rematch.seats.order_by("index")] == [bob.pk, ann.pk]
    started = {who: note for who, note in notes if note["type"] == "rematch_started"}
    assert started[ann.pk] == {
        "type": "rematch_started",
        "game": str(rematch.pk),
        "previous": str(game.pk),
        "seat": 1,
    }
    assert started[bob.pk]["seat"] == 0
    # Each note is what the schema of the account stream documents.
    by_type = {schema["properties"]["type"]["enum"][0]: schema for schema in NOTES.values()}
    for _, note in notes:
        jsonschema.validate(note, by_type[note["type"]])
        assert set(note) == set(by_type[note["type"]]["properties"])
    # Once it has started, nobody starts another.
    late = client_of(bob).post(url)
    assert late.json()["code"] == "rematch_already_offered"
    assert Game.objects.count() == 2


def test_a_game_in_play_has_no_rematch() -> None:
    ann, bob = account("ann"), account("bob")
    game = new_game(ann, "yatzy", ("me", "open"), joiners=[bob])
    response = client_of(ann).post(game_url(str(game.pk), "rematch/"))
    assert (response.status_code, response.json()["code"]) == (409, "game_not_finished")


def test_only_seated_players_offer_a_rematch() -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_game(ann, bob)
    response = api_client().post(game_url(str(game.pk), "rematch/"))
    assert (response.status_code, response.json()["code"]) == (403, "not_a_seat_holder")


def test_a_rated_game_paired_by_seeks_is_rated_when_it_ends(settings: Settings) -> None:
    settings.RATED_MIN_FINISHED_GAMES = 0  # two new accounts (tests/api/test_rated_play.py)
    ann, bob = api_client(), api_client()
    body = {"kind": "yatzy", "rated": True, "turn_clock_seconds": 60}
    ann.ok("post", "/api/v1/seeks/", body, status=201)
    paired = bob.ok("post", "/api/v1/seeks/", body, status=201)
    game = Game.objects.get(pk=paired["game"])
    assert game.rated and not game.assistance
    loser = Player.objects.get(username=ann.username)
    winner = Player.objects.get(username=bob.username)
    client_of(loser).ok("post", game_url(str(game.pk), "resign/"), status=201)
    changes = {c.player_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {loser.pk, winner.pk}
    assert changes[winner.pk].rating_after > 1500 > changes[loser.pk].rating_after
    assert PlayerRating.objects.get(player=winner, kind="yatzy").games == 1
    # Ended by the resignation, through the one move path.
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED


def test_an_unrated_game_from_seeks_changes_no_rating() -> None:
    ann, bob = api_client(), api_client()
    ann.ok("post", "/api/v1/seeks/", {"kind": "yatzy"}, status=201)
    paired = bob.ok("post", "/api/v1/seeks/", {"kind": "yatzy"}, status=201)
    ann.ok("post", game_url(paired["game"], "resign/"), status=201)
    assert not RatingChange.objects.exists()


def test_a_rated_casual_game_created_outside_a_tournament_is_rated() -> None:
    ann = account("ann")
    computer = {"type": "computer", "level": "casual"}
    game = new_game(ann, "yatzy", ["me", computer], rated=True, turn_clock_seconds=60)
    ending.game_resign(game_id=game.pk, player=ann)
    change = RatingChange.objects.get(game=game)
    assert change.player_id == ann.pk and change.rating_after < change.rating_before
    assert PlayerRating.objects.get(player=ann, kind="yatzy").games == 1


def test_the_rematch_of_a_rated_game_is_rated() -> None:
    ann, bob = account("ann"), account("bob")
    game = finished_game(ann, bob, rated=True, turn_clock_seconds=60)
    url = game_url(str(game.pk), "rematch/")
    client_of(ann).ok("post", url, status=201)
    rematch = Game.objects.get(pk=client_of(bob).ok("post", url, status=201)["rematch"])
    assert rematch.rated and not rematch.assistance and rematch.turn_clock_seconds == 60


def test_the_offers_are_there_for_a_page_opened_later(notes: Notes) -> None:
    """``GET games/{id}/rematch/``: what a page opened after an offer shows, the stream's
    ``rematch_offered`` having gone only to the pages open then."""
    ann, bob = account("ann"), account("bob")
    game = finished_game(ann, bob)
    url = game_url(str(game.pk), "rematch/")
    anyone = api_client()
    assert anyone.ok("get", url) == {"game": str(game.pk), "offered_seats": [], "rematch": None}
    client_of(bob).ok("post", url, status=201)
    assert client_of(ann).ok("get", url) == {
        "game": str(game.pk),
        "offered_seats": [1],
        "rematch": None,
    }
    started = client_of(ann).ok("post", url, status=201)["rematch"]
    assert anyone.ok("get", url) == {
        "game": str(game.pk),
        "offered_seats": [0, 1],
        "rematch": started,
    }
    # A game in play has none; a game that is not there is the usual 404.
    playing = new_game(ann, "yatzy", ("me", "open"), joiners=[bob])
    assert anyone.ok("get", game_url(str(playing.pk), "rematch/"))["offered_seats"] == []
    missing = anyone.get(game_url("00000000-0000-0000-0000-000000000000", "rematch/"))
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
