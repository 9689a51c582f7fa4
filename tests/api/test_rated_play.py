"""Rated play that cannot be gamed, over HTTP: the auto-confirm never plays better than the player
where the game gives no help, rated seeks keep to the presets and ask for a few finished games and
few aborts, a pair's rated games of a day are limited (later ones play unrated), provisional
ratings stay off the leaderboards, a rematch needs every account that controls a seat and none is
made of a tournament's game, display names cannot pass for another's username, and the admin's
dashboard lists what looks like a rating passed between accounts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client as DjangoClient
from pytest_django import Settings

from ai.yatzy import best_move
from games.ending import game_resign
from games.models import Game, GameEvent
from games.timers import automation
from games.tournaments.models import TournamentGame
from games.tournaments.services import tournament_register, tournament_start
from players.models import Player, PlayerRating
from tests.doubles import ScriptedDice
from tests.factories import (
    Client,
    account,
    api_client,
    api_game,
    deadline,
    game_url,
    new_game,
    new_tournament,
    organiser,
)

pytestmark = pytest.mark.django_db

SEEKS = "/api/v1/seeks/"
RATED = {"kind": "yatzy", "rated": True, "turn_clock_seconds": 60}


def player(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def three_rolls(client: Client, game_id: str, dice: ScriptedDice) -> Game:
    for _roll in range(3):
        dice.push((6, 6, 6, 5, 5))
        client.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    return Game.objects.get(pk=game_id)


def auto_confirmed_box(game: Game) -> str:
    assert automation.game_fire_timer(game_id=game.pk, version=game.version, now=deadline(game))
    return str(GameEvent.objects.get(game=game, type="box_scored").data["box"])


def test_a_rated_turn_left_to_the_auto_confirm_scores_the_box_worth_least(
    dice: ScriptedDice,
) -> None:
    ann, bob = api_client(), api_client()
    game = new_game(player(ann), seats=("me", "open"), joiners=[player(bob)], rated=True)
    game = three_rolls(ann, str(game.pk), dice)
    # 6 6 6 5 5 on an empty sheet: ones to fours score 0, ones first in sheet order; the
    # optimal player would score far more (and a different box).
    assert "box" in best_move((6, 6, 6, 5, 5), {}, 0)
    assert best_move((6, 6, 6, 5, 5), {}, 0).get("box") != "ones"
    assert auto_confirmed_box(game) == "ones"


@pytest.mark.parametrize(("assistance", "optimal"), [(False, False), (True, True)])
def test_a_casual_game_plays_the_optimal_box_only_with_assistance(
    dice: ScriptedDice, assistance: bool, optimal: bool
) -> None:
    ann = api_client()
    body = {"kind": "yatzy", "seats": [{"type": "me"}], "assistance": assistance}
    created = ann.ok("post", "/api/v1/games/", body, status=201)
    ann.ok("post", game_url(created["id"], "start/"))
    game = three_rolls(ann, created["id"], dice)
    expected = best_move((6, 6, 6, 5, 5), {}, 0).get("box") if optimal else "ones"
    assert auto_confirmed_box(game) == expected


# --- rated seeks ----------------------------------------------------------------------------


def seasoned(games: int = 3) -> Client:
    """A client whose account has finished ``games`` games (resigned against the computer)."""
    client = api_client()
    for _game in range(games):
        game = api_game(client, seats=["me", {"type": "computer"}])
        client.ok("post", game_url(game["id"], "resign/"), status=201)
    return client


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {"kind": "yatzy", "options": {"auto_confirm_seconds": 41.337}},
            "options.auto_confirm_seconds",
        ),
        ({"kind": "yatzy", "options": {"auto_confirm_seconds": 0}}, "options.auto_confirm_seconds"),
        ({"kind": "yatzy", "turn_clock_seconds": 45}, "turn_clock_seconds"),
    ],
)
def test_a_rated_seek_keeps_to_the_presets(body: dict[str, Any], field: str) -> None:
    ann = seasoned()
    response = ann.post(SEEKS, {**RATED, **body}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert response.json()["code"] in ("rated_option_not_allowed", "invalid_turn_clock")
    # The presets themselves are accepted: the seeds' 3 s, every target of Dés 10 000.
    ann.ok("post", SEEKS, {**RATED, "options": {"auto_confirm_seconds": 3}}, status=201)


def test_a_rated_seek_needs_finished_games(settings: Settings) -> None:
    settings.RATED_MIN_FINISHED_GAMES = 3
    fresh = api_client()
    response = fresh.post(SEEKS, RATED, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "rated_needs_finished_games"
    fresh.ok("post", SEEKS, {"kind": "yatzy"}, status=201)  # casual seeks are open to all
    seasoned().ok("post", SEEKS, RATED, status=201)


def test_an_account_that_aborts_too_often_may_not_seek_rated(settings: Settings) -> None:
    settings.RATED_ABORTS_PER_DAY = 3
    ann = seasoned()
    for _abort in range(3):
        game = api_game(ann, seats=["me", {"type": "computer"}])
        ann.ok("post", game_url(game["id"], "abort/"), status=201)
    response = ann.post(SEEKS, RATED, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "too_many_aborts"


def test_the_fourth_rated_pairing_of_a_pair_in_a_day_is_unrated(settings: Settings) -> None:
    settings.RATED_GAMES_PER_PAIR_PER_DAY = 3
    ann, bob, cat = seasoned(), seasoned(), seasoned()
    rated = []
    for _game in range(4):
        ann.ok("post", SEEKS, RATED, status=201)
        paired = bob.ok("post", SEEKS, RATED, status=201)
        game = bob.ok("get", game_url(paired["game"]))
        rated.append(game["rated"])
        bob.ok("post", game_url(game["id"], "resign/"), status=201)
    assert rated == [True, True, True, False]
    # Another pair is not held back by this one's games.
    ann.ok("post", SEEKS, RATED, status=201)
    paired = cat.ok("post", SEEKS, RATED, status=201)
    assert cat.ok("get", game_url(paired["game"]))["rated"] is True


def test_a_provisional_rating_is_off_the_leaderboard(settings: Settings) -> None:
    settings.LEADERBOARD_MAX_DEVIATION = 110
    sure, unsure = account(), account()
    PlayerRating.objects.create(player=sure, kind="yatzy", rating=1700, deviation=60, games=40)
    PlayerRating.objects.create(player=unsure, kind="yatzy", rating=2300, deviation=200, games=2)
    viewer = api_client()
    rows = viewer.ok("get", "/api/v1/leaderboards/yatzy/")
    assert [row["username"] for row in rows] == [sure.username]
    profile = viewer.ok("get", f"/api/v1/players/{unsure.username}/")
    assert [(r["kind"], r["provisional"]) for r in profile["ratings"]] == [("yatzy", True)]


# --- rematches ------------------------------------------------------------------------------


def test_a_rematch_needs_the_creator_of_the_hot_seats_too() -> None:
    host, joiner = api_client(), api_client()
    game = api_game(host, seats=[{"type": "hotseat", "name": "Grandma"}, "open"], joiners=[joiner])
    joiner.ok("post", game_url(game["id"], "resign/"), status=201)
    offered = joiner.ok("post", game_url(game["id"], "rematch/"), status=201)
    assert offered["rematch"] is None  # the joiner alone does not restart the host's game
    started = host.ok("post", game_url(game["id"], "rematch/"), status=201)
    assert started["rematch"] is not None
    assert Game.objects.get(pk=started["rematch"]).created_by == player(host)


def test_a_tournament_game_has_no_rematch() -> None:
    ann = api_client()
    cup = new_tournament(organiser(), computers=["casual"], rated=True)
    tournament_register(tournament_id=cup.pk, player=player(ann))
    tournament_start(tournament_id=cup.pk)
    table = TournamentGame.objects.get(round__tournament=cup)
    ann.ok("post", game_url(str(table.game_id), "resign/"), status=201)
    response = ann.post(game_url(str(table.game_id), "rematch/"), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "tournament_rematch"
    assert Game.objects.count() == 1


def test_a_rematch_of_a_pair_past_its_daily_limit_is_unrated(settings: Settings) -> None:
    settings.RATED_GAMES_PER_PAIR_PER_DAY = 1
    ann, bob = api_client(), api_client()
    game = new_game(player(ann), seats=("me", "open"), joiners=[player(bob)], rated=True)
    ann.ok("post", game_url(str(game.pk), "resign/"), status=201)
    ann.ok("post", game_url(str(game.pk), "rematch/"), status=201)
    started = bob.ok("post", game_url(str(game.pk), "rematch/"), status=201)
    assert Game.objects.get(pk=started["rematch"]).rated is False


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ann_smith", "ANN_SMITH", "ann_sm\u0456th", "Deleted player"])
def test_a_display_name_cannot_pass_for_another(name: str) -> None:
    # The third has a Cyrillic i (U+0456): the same skeleton.
    account("ann_smith")
    response = DjangoClient().post(
        "/api/v1/accounts/register/",
        {"username": "mallory", "password": "correct-horse-battery", "display_name": name},
        content_type="application/json",
    )
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "display_name_taken"
    assert response.json()["field"] == "display_name"
    assert not Player.objects.filter(username="mallory").exists()


def test_ones_own_username_is_a_fine_display_name() -> None:
    response = DjangoClient().post(
        "/api/v1/accounts/register/",
        {"username": "mallory", "password": "correct-horse-battery", "display_name": "Mallory"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()


# --- the dashboard --------------------------------------------------------------------------


def test_the_dashboard_lists_pairs_over_the_limit_and_quick_resignations(
    settings: Settings,
) -> None:
    settings.RATED_GAMES_PER_PAIR_PER_DAY = 1
    ann, bob = account("ann_pairs"), account("bob_pairs")
    for _game in range(2):  # made past the limit by hand (as a tournament could)
        game = new_game(ann, seats=("me", "open"), joiners=[bob], rated=True)
        game_resign(game_id=game.pk, player=bob)
    staff = account("staff", is_staff=True, is_superuser=True)
    browser = DjangoClient()
    browser.force_login(staff)
    page = browser.get("/admin/dashboard/").content.decode()
    assert "ann_pairs / bob_pairs" in page
    assert page.count("?q=bob_pairs") == 2  # bob's two resignations before any turn
