"""Seeks over HTTP: two compatible seeks become one started game, and both streams are told;
incompatible ones wait; the list, reading one, withdrawal, the limits and refusals; expiry;
withdrawing all of an account's seeks."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import jsonschema
import pytest
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from games.api.stream_schema import NOTES
from games.matchmaking import seeks
from games.matchmaking.models import Seek, SeekStatus
from games.matchmaking.tasks import expire_seeks
from games.models import Game, GameStatus
from players.models import Player, PlayerRating
from tests.factories import Client, api_client
from tests.matchmaking.conftest import Notes

pytestmark = pytest.mark.django_db

SEEKS = "/api/v1/seeks/"
YATZY = {"kind": "yatzy"}


def player(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def test_two_compatible_seeks_start_one_game(
    notes: Notes,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    ann, bob = api_client(), api_client()
    first = ann.ok("post", SEEKS, YATZY, status=201)
    assert first["status"] == "open" and first["game"] is None
    with django_capture_on_commit_callbacks(execute=True):
        second = bob.ok("post", SEEKS, YATZY, status=201)
    assert second["status"] == "paired"
    game = Game.objects.get(pk=second["game"])
    assert game.status == GameStatus.ACTIVE and not game.rated
    assert {seat.player_id for seat in game.seats.all()} == {player(ann).pk, player(bob).pk}
    assert Seek.objects.get(pk=first["id"]).game_id == game.pk
    paired = {who: note for who, note in notes if note["type"] == "seek_paired"}
    assert set(paired) == {player(ann).pk, player(bob).pk}
    assert paired[player(ann).pk]["game"] == str(game.pk)
    assert paired[player(ann).pk]["seek"] == first["id"]
    for note in paired.values():  # as the account stream's schema documents it
        jsonschema.validate(note, NOTES["SeekPairedNote"])
        assert set(note) == set(NOTES["SeekPairedNote"]["properties"])
    # The game itself: seated accounts can see it among theirs and play it.
    assert ann.ok("get", SEEKS) == [] and bob.ok("get", SEEKS) == []


@pytest.mark.parametrize(
    "other",
    [
        {"kind": "ten_thousand"},
        {"kind": "yatzy", "options": {"auto_confirm_seconds": 5}},
        {"kind": "yatzy", "turn_clock_seconds": 60},
        {"kind": "yatzy", "rated": True, "turn_clock_seconds": 60},
        {"kind": "yatzy", "rating_min": 1600},
    ],
    ids=["kind", "options", "clock", "rated", "range"],
)
def test_incompatible_seeks_wait(other: dict[str, Any], settings: Settings) -> None:
    settings.RATED_MIN_FINISHED_GAMES = 0  # new accounts (tests/api/test_rated_play.py)
    ann, bob = api_client(), api_client()
    ann.ok("post", SEEKS, YATZY, status=201)
    assert bob.ok("post", SEEKS, other, status=201)["status"] == "open"
    assert not Game.objects.exists()


def test_each_must_be_inside_the_others_range() -> None:
    ann, bob = api_client(), api_client()
    PlayerRating.objects.create(player=player(bob), kind="yatzy", rating=1800)
    ann.ok("post", SEEKS, {"kind": "yatzy", "rating_max": 1700}, status=201)
    assert bob.ok("post", SEEKS, YATZY, status=201)["status"] == "open"
    cat = api_client()
    assert cat.ok("post", SEEKS, {"kind": "yatzy", "rating_min": 1400}, status=201)["status"] == (
        "paired"
    )


def test_ones_own_seeks_never_pair() -> None:
    ann = api_client()
    ann.ok("post", SEEKS, YATZY, status=201)
    assert ann.ok("post", SEEKS, YATZY, status=201)["status"] == "open"
    assert len(ann.ok("get", SEEKS)) == 2


def test_a_seek_is_withdrawn_by_its_player_only() -> None:
    ann, bob = api_client(), api_client()
    seek = ann.ok("post", SEEKS, YATZY, status=201)
    url = f"{SEEKS}{seek['id']}/"
    assert bob.delete(url).json()["code"] == "not_found"
    assert ann.delete(url).status_code == 204
    assert Seek.objects.get(pk=seek["id"]).status == SeekStatus.WITHDRAWN
    again = ann.delete(url)
    assert (again.status_code, again.json()["code"]) == (409, "seek_not_open")
    # A withdrawn seek pairs with nobody.
    assert bob.ok("post", SEEKS, YATZY, status=201)["status"] == "open"


def test_a_seek_is_read_by_its_player_whatever_became_of_it() -> None:
    """``GET seeks/{id}/``: what a client that missed ``seek_paired`` (its stream dropped) reads
    to learn its seek's fate; ``GET seeks/`` lists only the open ones."""
    ann, bob, cat = api_client(), api_client(), api_client()
    made = ann.ok("post", SEEKS, YATZY, status=201)
    url = f"{SEEKS}{made['id']}/"
    assert made["status"] == "open" and made["game"] is None
    assert ann.ok("get", url) == made
    game = bob.ok("post", SEEKS, YATZY, status=201)["game"]
    assert ann.ok("get", url) == {**made, "status": "paired", "game": game}
    assert ann.ok("get", SEEKS) == []

    withdrawn = cat.ok("post", SEEKS, YATZY, status=201)
    cat.delete(f"{SEEKS}{withdrawn['id']}/")
    assert cat.ok("get", f"{SEEKS}{withdrawn['id']}/") == {**withdrawn, "status": "withdrawn"}


def test_a_seek_past_its_time_reads_expired_before_and_after_the_sweep() -> None:
    ann = api_client()
    made = ann.ok("post", SEEKS, YATZY, status=201)
    url = f"{SEEKS}{made['id']}/"
    past = timezone.now() - timedelta(seconds=1)
    Seek.objects.filter(pk=made["id"]).update(expires_at=past)
    for sweep in (False, True):
        if sweep:
            assert Seek.objects.get(pk=made["id"]).status == SeekStatus.OPEN  # read, not written
            assert expire_seeks() == 1
        answer = ann.ok("get", url)
        assert datetime.fromisoformat(answer["expires_at"]) == past
        assert answer == {**made, "status": "expired", "expires_at": answer["expires_at"]}


def test_another_accounts_seek_or_none_is_not_found() -> None:
    ann, bob = api_client(), api_client()
    made = ann.ok("post", SEEKS, YATZY, status=201)
    for url in (f"{SEEKS}{made['id']}/", f"{SEEKS}{made['id'] + 1000}/"):
        response = bob.get(url)
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
        # The same refusal as withdrawing it.
        assert bob.delete(url).json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"kind": "yatzy", "rated": True}, 400, "rated_seek_needs_clock"),
        ({"kind": "yatzy", "rating_min": 1600, "rating_max": 1500}, 400, "invalid_rating_range"),
        ({"kind": "yatzy", "turn_clock_seconds": 7}, 400, "invalid_turn_clock"),
        ({"kind": "yatzy", "options": {"nope": 1}}, 400, "invalid_option"),
    ],
)
def test_refusals(body: dict[str, Any], status: int, code: str) -> None:
    ann = api_client()
    response = ann.post(SEEKS, body, format="json")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Seek.objects.exists()


def test_an_account_has_at_most_n_open_seeks(settings: Settings) -> None:
    settings.MAX_OPEN_SEEKS_PER_ACCOUNT = 2
    ann = api_client()
    for _ in range(2):
        ann.ok("post", SEEKS, YATZY, status=201)
    response = ann.post(SEEKS, YATZY, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "too_many_open_seeks")
    assert response.json()["params"] == {"limit": 2}
    assert Seek.objects.count() == 2


def test_seeks_expire(settings: Settings) -> None:
    ann, bob = api_client(), api_client()
    seek = ann.ok("post", SEEKS, YATZY, status=201)
    Seek.objects.filter(pk=seek["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    # Past its time a seek pairs with nobody, even before the sweep marks it.
    assert bob.ok("post", SEEKS, YATZY, status=201)["status"] == "open"
    assert ann.ok("get", SEEKS) == []
    assert expire_seeks() == 1
    assert Seek.objects.get(pk=seek["id"]).status == SeekStatus.EXPIRED
    assert settings.CELERY_BEAT_SCHEDULE["expire-seeks"]["task"] == (
        "games.matchmaking.tasks.expire_seeks"
    )


def test_pairing_withdraws_both_players_other_seeks() -> None:
    ann, bob, cat = api_client(), api_client(), api_client()
    ann_other = ann.ok("post", SEEKS, {"kind": "ten_thousand"}, status=201)
    ann.ok("post", SEEKS, YATZY, status=201)
    bob_other = bob.ok("post", SEEKS, {"kind": "yatzy", "turn_clock_seconds": 60}, status=201)
    cat_seek = cat.ok("post", SEEKS, {"kind": "ten_thousand", "rating_min": 1600}, status=201)
    assert bob.ok("post", SEEKS, YATZY, status=201)["status"] == "paired"
    # Each of the two is in one game now: their other seeks are taken back, others' stay.
    assert Seek.objects.get(pk=ann_other["id"]).status == SeekStatus.WITHDRAWN
    assert Seek.objects.get(pk=bob_other["id"]).status == SeekStatus.WITHDRAWN
    assert ann.ok("get", SEEKS) == [] and bob.ok("get", SEEKS) == []
    assert Seek.objects.get(pk=cat_seek["id"]).status == SeekStatus.OPEN
    # A withdrawn seek pairs with nobody; a seek made afterwards is a new wish and may pair.
    dan = api_client()
    assert dan.ok("post", SEEKS, {"kind": "ten_thousand"}, status=201)["status"] == "open"
    assert ann.ok("post", SEEKS, {"kind": "ten_thousand"}, status=201)["status"] == "paired"


def test_withdraw_for_player_takes_back_only_their_open_seeks() -> None:
    ann, bob, cat = api_client(), api_client(), api_client()
    ann.ok("post", SEEKS, YATZY, status=201)
    bob.ok("post", SEEKS, YATZY, status=201)  # pairs with ann's first
    ann.ok("post", SEEKS, {"kind": "ten_thousand"}, status=201)
    cat.ok("post", SEEKS, YATZY, status=201)
    assert seeks.seeks_withdraw_for_player(player=player(ann)) == 1
    statuses = sorted(Seek.objects.filter(player=player(ann)).values_list("status", flat=True))
    assert statuses == [SeekStatus.PAIRED, SeekStatus.WITHDRAWN]
    assert Seek.objects.get(player=player(cat)).status == SeekStatus.OPEN
    assert seeks.seeks_withdraw_for_player(player=player(ann)) == 0


def test_seeks_need_an_account(anon: APIClient) -> None:
    assert anon.post(SEEKS, YATZY, format="json").status_code == 401
    assert anon.get(SEEKS).status_code == 401
    assert anon.get(f"{SEEKS}1/").status_code == 401


def test_the_admin_lists_seeks_read_only() -> None:
    from django.test import Client as PageClient

    ann = api_client()
    ann.ok("post", SEEKS, YATZY, status=201)
    seek = Seek.objects.get()
    root = Player.objects.create_superuser("root", "root@example.com", "root-password-1")
    pages = PageClient()
    pages.force_login(root)
    listing = pages.get("/admin/matchmaking/seek/?status__exact=open")
    assert listing.status_code == 200 and ann.username in listing.content.decode()
    assert pages.get("/admin/matchmaking/seek/add/").status_code == 403
    pages.post(f"/admin/matchmaking/seek/{seek.pk}/delete/", {"post": "yes"})
    pages.post(f"/admin/matchmaking/seek/{seek.pk}/change/", {"status": "withdrawn"})
    assert Seek.objects.get().status == SeekStatus.OPEN
