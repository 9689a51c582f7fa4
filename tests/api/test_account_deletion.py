"""``DELETE accounts/me/`` (issue 15, part 6): with the password the account is anonymised, not
erased. Its games in play are resigned through the one move path, its open games left or
cancelled, its tokens, sessions and entries in tournaments not yet started gone; every game it
played still replays to its snapshot, and no answer of the API shows its old name. A wrong
password changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client as BrowserClient
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.log.check import log_problems
from games.models import Game, GameEvent, GameStatus
from games.tournaments.models import Entrant, TournamentGame
from games.tournaments.services import tournament_advance, tournament_register, tournament_start
from players.models import Player, RatingChange
from tests.factories import Client, api_client, game_url, new_game, new_tournament, organiser
from tests.factories import account as make_account

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"
OLD = "zeldaquartz"
OLD_NAME = "Zelda Quartz"
PASSWORD = "correct-horse-battery"


def zelda() -> Client:
    client = Client()
    body = client.ok(
        "post",
        "/api/v1/accounts/register/",
        {"username": OLD, "password": PASSWORD, "display_name": OLD_NAME},
        status=201,
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    client.username = OLD
    return client


def account(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def her_world() -> dict[str, Any]:
    """Zelda's account with something of everything: a finished rated game, a game of two and one
    of three in play, a hot-seat game, an open game she made and one she joined, a tournament in
    play and one not yet started, a session."""
    me, bob, cara = zelda(), api_client("bob"), api_client("cara")
    z, b, c = account(me), account(bob), account(cara)
    org = organiser()
    finished = new_game(z, "yatzy", ["me", "open"], joiners=[b], rated=True)
    bob.ok("post", game_url(str(finished.pk), "resign/"), status=201)
    duel = new_game(z, "yatzy", ["me", "open"], joiners=[b], rated=True)
    three = new_game(c, "ten_thousand", ["me", "open", "open"], joiners=[z, b])
    hotseat = new_game(z, "yatzy", ["me", "hotseat", "hotseat"])
    mine_open = new_game(z, "yatzy", ["me", "open"], start=False)
    joined_open = new_game(c, "yatzy", ["me", "open", "open"], joiners=[z], start=False)
    later = new_tournament(org, name="Later cup")
    tournament_register(tournament_id=later.pk, player=z)
    running = new_tournament(
        org, name="Running cup", starts_at=timezone.now() + timedelta(minutes=5)
    )
    tournament_register(tournament_id=running.pk, player=z)
    tournament_register(tournament_id=running.pk, player=c)
    tournament_start(tournament_id=running.pk, now=timezone.now() + timedelta(minutes=6))
    table = TournamentGame.objects.get(round__tournament=running)
    BrowserClient().force_login(z)
    return {
        "me": me, "bob": bob, "cara": cara, "player": z, "finished": finished, "duel": duel,
        "three": three, "hotseat": hotseat, "mine_open": mine_open, "joined_open": joined_open,
        "later": later, "running": running, "table": table.game_id,
    }  # fmt: skip


def sessions_of(player: Player) -> int:
    return sum(
        s.get_decoded().get("_auth_user_id") == str(player.pk) for s in Session.objects.all()
    )


def test_a_wrong_password_is_refused_and_nothing_changes() -> None:
    world = her_world()
    me, z = world["me"], world["player"]
    events = GameEvent.objects.count()
    for body in ({"password": "not-her-password"}, {"password": PASSWORD.upper()}):
        answer = me.delete(ME, body, format="json")
        assert answer.status_code == 403, answer.json()
        assert answer.json()["code"] == "wrong_password"
        assert answer.json()["field"] == "password"
    for body in ({}, {"password": ""}):
        missing = me.delete(ME, body, format="json")
        assert missing.status_code == 400 and missing.json()["code"] == "invalid_input"
    assert GameEvent.objects.count() == events
    after = Player.objects.get(pk=z.pk)
    assert (after.username, after.display_name, after.deleted_at) == (OLD, OLD_NAME, None)
    assert after.is_active and after.check_password(PASSWORD)
    assert me.ok("get", ME)["username"] == OLD
    assert Game.objects.get(pk=world["duel"].pk).status == GameStatus.ACTIVE
    assert sessions_of(z) == 1
    assert Entrant.objects.filter(player=z, withdrawn_at__isnull=True).count() == 2


def test_deleting_anonymises_ends_every_game_and_keeps_every_log() -> None:
    world = her_world()
    me, bob, z = world["me"], world["bob"], world["player"]
    token = me._credentials["HTTP_AUTHORIZATION"]

    answer = me.delete(ME, {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content

    gone = Player.objects.get(pk=z.pk)
    assert gone.username == f"deleted-{z.pk}"
    assert gone.display_name == "Deleted player" and gone.public_name == "Deleted player"
    assert gone.email == "" and not gone.has_usable_password() and not gone.is_active
    assert gone.deleted_at is not None
    assert not AuthToken.objects.filter(user=gone).exists() and sessions_of(gone) == 0
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=token)
    assert api.get(ME).status_code == 401
    signin = {"username": OLD, "password": PASSWORD}
    assert APIClient().post("/api/v1/accounts/token/", signin, format="json").status_code == 401

    # Games in play: resigned through the move path (a seat_left event of hers, each).
    duel = Game.objects.get(pk=world["duel"].pk)
    assert duel.status == GameStatus.FINISHED
    assert duel.seats.get(player=gone).place == 2
    assert RatingChange.objects.filter(game=duel, player=gone).exists()  # rated as any end
    three = Game.objects.get(pk=world["three"].pk)
    assert three.status == GameStatus.ACTIVE  # the two others play on
    assert three.state is not None
    assert 1 in three.state["out"]
    hotseat = Game.objects.get(pk=world["hotseat"].pk)
    assert hotseat.status == GameStatus.FINISHED  # her seat and a hot seat left: one remains
    table = Game.objects.get(pk=world["table"])
    assert table.status == GameStatus.FINISHED
    for game in (duel, three, hotseat, table):
        left = GameEvent.objects.filter(game=game, type="seat_left", actor=gone)
        assert left.exists(), game
        assert all(e.data["reason"] == "resigned" for e in left)
    # Open games: hers cancelled, the one she joined has her seat back.
    assert not Game.objects.filter(pk=world["mine_open"].pk).exists()
    joined = Game.objects.get(pk=world["joined_open"].pk)
    assert joined.status == GameStatus.OPEN and not joined.seats.filter(player=gone).exists()
    # The tournament not yet started: withdrawn; the running one goes on without her.
    assert Entrant.objects.get(tournament=world["later"], player=gone).withdrawn_at is not None
    tournament_advance(tournament_id=world["running"].pk)

    # Every game she played still replays to its snapshot.
    played = Game.objects.filter(seats__player=gone).distinct()
    assert played.count() == 5
    for game in played:
        assert list(log_problems(game)) == [], game

    # No answer of the API shows her old name.
    urls = [
        "/api/v1/games/",
        f"/api/v1/games/?player={gone.username}",
        "/api/v1/leaderboards/yatzy/",
        "/api/v1/players/bob/",
        "/api/v1/players/bob/stats/",
        "/api/v1/tournaments/",
    ]
    for game in [*played, joined]:
        urls += [game_url(str(game.pk)), game_url(str(game.pk), "events/")]
    for cup in (world["later"], world["running"]):
        base = f"/api/v1/tournaments/{cup.pk}/"
        urls += [base, base + "standings/", base + "rounds/"]
    for url in urls:
        answer = bob.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200, (url, answer.status_code)
        text = answer.content.decode().lower()
        assert OLD not in text and "zelda" not in text, url
    shown = bob.ok("get", game_url(str(duel.pk)))["seats"][0]
    assert shown["name"] == "Deleted player"
    assert shown["player"] == {"id": gone.pk, "username": gone.username, "name": "Deleted player"}
    assert bob.get(f"/api/v1/players/{gone.username}/").status_code == 404
    assert bob.get(f"/api/v1/players/{OLD}/").status_code == 404


def test_the_placeholder_is_shown_in_the_reader_s_language() -> None:
    me, bob = zelda(), api_client("bob")
    game = new_game(account(me), "yatzy", ["me", "open"], joiners=[account(bob)])
    assert me.delete(ME, {"password": PASSWORD}, format="json").status_code == 204
    answer = bob.ok("get", game_url(str(game.pk)) + "?lang=fr")
    assert answer["seats"][0]["name"] not in ("", "Deleted player", OLD_NAME)


def test_a_placeholder_name_taken_by_someone_else_gives_another() -> None:
    me = zelda()
    z = account(me)
    # Registered before such names were refused (username_reserved): an account made directly.
    make_account(f"deleted-{z.pk}")
    assert me.delete(ME, {"password": PASSWORD}, format="json").status_code == 204
    gone = Player.objects.get(pk=z.pk)
    assert gone.username.startswith(f"deleted-{z.pk}-") and gone.deleted_at is not None


def test_deleting_needs_a_token(anon: APIClient) -> None:
    answer = anon.delete(ME, {"password": PASSWORD}, format="json")
    assert answer.status_code == 401
