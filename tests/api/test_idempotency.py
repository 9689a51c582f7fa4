"""Idempotency-Key on every POST that writes (creating, joining, starting, moving, ending): a
retry answers the first result and changes nothing; a different request with the key is refused;
refusals keep nothing; keys expire; two racing requests with one key create once (PostgreSQL)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from games.tournaments.models import Entrant
from players.models import IdempotencyKey, Player
from players.tasks import purge_idempotency_keys
from tests.factories import Client, MakeClient, api_client, organiser

pytestmark = pytest.mark.django_db(transaction=True)

REGISTER = "/api/v1/accounts/register/"
GAMES = "/api/v1/games/"
YATZY = {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "computer"}]}


def keyed(client: APIClient, url: str, body: Any, key: str, **extra: Any) -> Any:
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key, **extra)


def test_a_retried_register_answers_the_first_result(anon: APIClient) -> None:
    body = {"username": "ann", "password": "a-long-passphrase"}
    first = keyed(anon, REGISTER, body, "k-1")
    again = keyed(APIClient(), REGISTER, body, "k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Player.objects.filter(username="ann").count() == 1


def test_the_kept_answer_is_sealed(anon: APIClient) -> None:
    token = keyed(anon, REGISTER, {"username": "ann", "password": "a-long-passphrase"}, "k")
    row = IdempotencyKey.objects.get()
    assert token.json()["token"].encode() not in bytes(row.body)
    assert b"ann" not in bytes(row.body)


def test_another_request_with_a_used_key_is_refused(anon: APIClient) -> None:
    keyed(anon, REGISTER, {"username": "ann", "password": "a-long-passphrase"}, "k")
    other = keyed(anon, REGISTER, {"username": "bob", "password": "a-long-passphrase"}, "k")
    assert other.status_code == 422
    assert other["Content-Type"] == "application/problem+json"
    assert (other.json()["code"], other.json()["field"]) == (
        "idempotency_key_reused",
        "Idempotency-Key",
    )
    assert not Player.objects.filter(username="bob").exists()


def test_a_retried_game_creation_creates_once_per_account(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    first = keyed(ann, GAMES, YATZY, "game-1")
    again = keyed(ann, GAMES, {"seats": YATZY["seats"], "kind": "yatzy"}, "game-1")  # key order
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    # the same key from another account is another key
    assert keyed(bob, GAMES, YATZY, "game-1").json()["id"] != first.json()["id"]
    assert Game.objects.count() == 2
    # the same body on another path is another request
    other = keyed(ann, "/api/v1/tournaments/1/register/", YATZY, "game-1")
    assert other.status_code == 422


def test_a_refusal_keeps_nothing(make_client: MakeClient) -> None:
    ann = make_client()
    refused = keyed(ann, GAMES, {"kind": "chess", "seats": YATZY["seats"]}, "k")
    assert refused.status_code == 400
    assert not IdempotencyKey.objects.exists()
    assert keyed(ann, GAMES, YATZY, "k").status_code == 201


def test_without_a_key_every_request_creates(make_client: MakeClient) -> None:
    ann = make_client()
    for _ in range(2):
        ann.ok("post", GAMES, YATZY, status=201)
    assert Game.objects.count() == 2
    assert not IdempotencyKey.objects.exists()


def test_keys_expire(make_client: MakeClient, settings: Settings) -> None:
    ann = make_client()
    first = keyed(ann, GAMES, YATZY, "k").json()["id"]
    IdempotencyKey.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert keyed(ann, GAMES, YATZY, "k").json()["id"] != first  # the key is free again
    assert timedelta(hours=24) == settings.IDEMPOTENCY_KEY_TTL
    row = IdempotencyKey.objects.get()
    assert timedelta(hours=23) < row.expires_at - timezone.now() <= timedelta(hours=24)
    IdempotencyKey.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert purge_idempotency_keys() == 1
    assert not IdempotencyKey.objects.exists()


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_malformed_key_is_refused(make_client: MakeClient, key: str) -> None:
    response = keyed(make_client(), GAMES, YATZY, key)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
    assert not Game.objects.exists()


def test_a_quoted_key_is_the_same_key(make_client: MakeClient) -> None:
    ann = make_client()
    first = keyed(ann, GAMES, YATZY, '"k-2"').json()["id"]
    assert keyed(ann, GAMES, YATZY, "k-2").json()["id"] == first


def test_a_retried_move_answers_the_first_move_and_plays_once(make_client: MakeClient) -> None:
    ann = make_client()
    game = ann.ok("post", GAMES, YATZY, status=201)["id"]
    ann.ok("post", f"{GAMES}{game}/start/")
    moves = f"{GAMES}{game}/moves/"
    first = keyed(ann, moves, {"type": "roll"}, "roll-1")
    again = keyed(ann, moves, {"type": "roll"}, "roll-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert GameEvent.objects.filter(game_id=game, type="dice_rolled").count() == 1
    # another move under the key is refused; the same move under a new key is played
    assert keyed(ann, moves, {"type": "roll", "hold": [0]}, "roll-1").status_code == 422
    assert keyed(ann, moves, {"type": "roll"}, "roll-2").status_code == 201
    assert GameEvent.objects.filter(game_id=game, type="dice_rolled").count() == 2


def test_a_retried_join_and_resign_answer_their_first_result(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    body = {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]}
    game = ann.ok("post", GAMES, body, status=201)["id"]
    joined = [keyed(bob, f"{GAMES}{game}/join/", {}, "join") for _ in range(2)]
    assert [r.status_code for r in joined] == [200, 200]
    assert joined[1]["Idempotent-Replayed"] == "true"
    ann.ok("post", f"{GAMES}{game}/start/")
    resigned = [keyed(bob, f"{GAMES}{game}/resign/", {}, "resign") for _ in range(2)]
    assert [r.status_code for r in resigned] == [201, 201]
    assert resigned[1].json() == resigned[0].json()
    assert GameEvent.objects.filter(game_id=game, type="seat_left").count() == 1


def test_a_retried_tournament_entry_answers_the_first_entry() -> None:
    from games.tournaments.services import tournament_create

    tournament = tournament_create(
        created_by=organiser(),
        name="Cup",
        kind="yatzy",
        format="round_robin",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    ann = api_client()
    url = f"/api/v1/tournaments/{tournament.pk}/register/"
    first = keyed(ann, url, None, "entry")
    again = keyed(ann, url, None, "entry")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Entrant.objects.filter(tournament=tournament).count() == 1
    plain = ann.post(url)  # without the key: already registered, as before
    assert plain.status_code == 409 and plain.json()["code"] == "already_registered"


@pytest.mark.postgres
def test_racing_requests_with_one_key_create_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from games import services

    ann = api_client()
    # The header the client sends: DRF's APIClient keeps it in _credentials, absent from its stubs.
    token = ann._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    created: list[str] = []
    real_create = services.game_create

    def slow_create(**kwargs: Any) -> Game:
        game = real_create(**kwargs)
        created.append(str(game.pk))
        time.sleep(0.3)  # the others arrive while the first holds the key
        return game

    monkeypatch.setattr(services, "game_create", slow_create)
    count = 4
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(index: int) -> None:
        client = Client()
        client.credentials(HTTP_AUTHORIZATION=token)
        try:
            barrier.wait()
            response = keyed(client, GAMES, YATZY, "race")
            answers[index] = (response.status_code, response.json()["id"])
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(created) == 1
    assert answers == [(201, created[0])] * count
    assert Game.objects.count() == 1
