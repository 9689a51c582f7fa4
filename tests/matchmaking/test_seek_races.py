"""Racing seeks on PostgreSQL: twenty accounts seek at once and no seek lands in two games (nor
any game gets more or fewer than two seeks); ten pairs of compatible seeks made at the same moment
all pair (none are both left open); a player whose two seeks are taken at once by two others is
paired into one game; a seek taking the seek of an account being banned waits for the ban (and
the ban's commit, rating the seeker, does not wait for the seek); one account retrying with one
Idempotency-Key creates one seek."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction

from games.matchmaking import seeks
from games.matchmaking.models import Seek, SeekStatus
from games.models import Game, GameStatus
from games.moderation.actions import player_ban, player_cut_off
from players.models import Player, RatingChange
from tests.factories import Client, account, api_client, new_game
from tests.races import Racer, until_one_waits_on_a_lock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

SEEKS = "/api/v1/seeks/"
YATZY = {"kind": "yatzy"}


def authorization(client: Client) -> str:
    """The Authorization header ``client`` sends."""
    # DRF's APIClient keeps it in _credentials, absent from its stubs.
    return str(client._credentials["HTTP_AUTHORIZATION"])  # type: ignore[attr-defined]


def race(count: int, request: Callable[[int], Any]) -> list[Any]:
    """``request(i)`` from ``count`` threads released at once; their answers."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = request(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_twenty_racing_seeks_never_pair_a_seek_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    real_pair = seeks._pair

    def slow_pair(first: Seek, second: Seek, now: datetime) -> Game:
        game = real_pair(first, second, now)
        time.sleep(0.05)  # the others arrive while this pairing holds its lock
        return game

    monkeypatch.setattr(seeks, "_pair", slow_pair)
    count = 20
    tokens = [authorization(api_client()) for _ in range(count)]

    def seek(index: int) -> tuple[int, dict[str, Any]]:
        client = Client()
        client.credentials(HTTP_AUTHORIZATION=tokens[index])
        response = client.post(SEEKS, YATZY, format="json")
        return response.status_code, response.json()

    answers = race(count, seek)
    assert [status for status, _ in answers] == [201] * count
    assert Seek.objects.count() == count
    paired = Seek.objects.filter(status=SeekStatus.PAIRED)
    per_game = Counter(paired.values_list("game_id", flat=True))
    assert per_game and set(per_game.values()) == {2}  # every game: exactly two seeks
    assert Game.objects.count() == len(per_game)
    for game in Game.objects.prefetch_related("seats"):
        assert game.status == GameStatus.ACTIVE
        # The same players as many times each (a seat's player_id may be None: no sorting).
        seated = Counter(seat.player_id for seat in game.seats.all())
        assert seated == Counter(paired.filter(game=game).values_list("player_id", flat=True))
    # An answer that said paired named the game its seek is stored in (an open one may have
    # been paired since, by a later seek).
    for _, body in answers:
        if body["status"] == "paired":
            assert str(Seek.objects.get(pk=body["id"]).game_id) == body["game"]
    still_open = Seek.objects.filter(status=SeekStatus.OPEN).count()
    assert still_open == count - 2 * len(per_game)


@pytest.fixture
def slow_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seek's transaction stays open a moment after it writes the seek: the others arrive
    while it is uncommitted, which is the moment two seeks used to miss each other."""
    real_save = Seek.save

    def save(self: Seek, *args: Any, **kwargs: Any) -> None:
        real_save(self, *args, **kwargs)
        time.sleep(0.05)

    monkeypatch.setattr(Seek, "save", save)


def seeker(token: str, body: dict[str, Any]) -> Callable[[], tuple[int, dict[str, Any]]]:
    def post() -> tuple[int, dict[str, Any]]:
        client = Client()
        client.credentials(HTTP_AUTHORIZATION=token)
        response = client.post(SEEKS, body, format="json")
        return response.status_code, response.json()

    return post


def test_compatible_seeks_made_at_once_never_both_stay_open(slow_save: None) -> None:
    pairs = 10
    # Ten buckets (yatzy, auto-confirm after 0 to 9 s), two seeks of two accounts in each.
    bodies = [{"kind": "yatzy", "options": {"auto_confirm_seconds": i // 2}} for i in range(20)]
    posts = [seeker(authorization(api_client()), body) for body in bodies]

    answers = race(2 * pairs, partial(call, posts))
    assert [status for status, _ in answers] == [201] * (2 * pairs)
    assert not Seek.objects.filter(status=SeekStatus.OPEN).exists()
    per_game = Counter(Seek.objects.values_list("game_id", flat=True))
    assert len(per_game) == pairs and set(per_game.values()) == {2}
    for game_id in per_game:
        options = {seek.options_key for seek in Seek.objects.filter(game_id=game_id)}
        assert len(options) == 1  # each game pairs the two seeks of one bucket
    assert Game.objects.filter(status=GameStatus.ACTIVE).count() == pairs


def test_a_player_whose_two_seeks_are_taken_at_once_plays_one_game(slow_save: None) -> None:
    for round_ in range(3):
        # Bob seeks two games; Ann takes his yatzy seek while Cat takes his Dés 10 000 one.
        bob = api_client()
        bodies = [
            {"kind": "yatzy", "options": {"auto_confirm_seconds": round_ + 1}},
            {"kind": "ten_thousand", "options": {"target": 5000 * (round_ + 1)}},
        ]
        for body in bodies:
            assert bob.ok("post", SEEKS, body, status=201)["status"] == "open"
        posts = [seeker(authorization(api_client()), body) for body in bodies]
        answers = race(2, partial(call, posts))
        # One of them has Bob; the other waits; Bob's other seek is withdrawn.
        assert sorted(body["status"] for _, body in answers) == ["open", "paired"]
        mine = Seek.objects.filter(player__username=bob.username)
        assert sorted(mine.values_list("status", flat=True)) == ["paired", "withdrawn"]
        assert bob.ok("get", SEEKS) == []
        assert Game.objects.filter(seats__player__username=bob.username).count() == 1


def call(posts: list[Callable[[], Any]], index: int) -> Any:
    return posts[index]()


def test_racing_retries_with_one_key_create_one_seek() -> None:
    ann = api_client()
    token = authorization(ann)
    count = 6

    def seek(index: int) -> tuple[int, int]:
        client = Client()
        client.credentials(HTTP_AUTHORIZATION=token)
        response = client.post(SEEKS, YATZY, format="json", HTTP_IDEMPOTENCY_KEY="seek-race")
        return response.status_code, response.json()["id"]

    answers = race(count, seek)
    (only,) = Seek.objects.values_list("pk", flat=True)
    assert answers == [(201, only)] * count


def test_a_seek_taking_a_seek_of_an_account_being_banned_waits_for_the_ban() -> None:
    """The ban holds Bob's row and then withdraws his seeks; Ann's seek, pairing meanwhile, waits
    for that row before it takes his seek, so neither waits for the other (no deadlock) and Ann
    is not paired with a banned account."""
    bob = account("bob")
    bobs = seeks.seek_create(player=bob, kind="yatzy", options={})
    ann = api_client()
    seeking = Racer(seeker(authorization(ann), YATZY))

    with transaction.atomic():
        banned = Player.objects.select_for_update(no_key=True).get(pk=bob.pk)  # as player_ban
        banned.is_active = False
        banned.save(update_fields=["is_active"])
        seeking.start()
        until_one_waits_on_a_lock("Ann's pairing, on Bob's row (it found his seek)")
        assert player_cut_off(player=banned).seeks == 1
    status, answer = seeking.finish()

    assert status == 201 and answer["status"] == "open"
    assert Seek.objects.get(pk=bobs.pk).status == SeekStatus.WITHDRAWN
    assert not Game.objects.exists()


def test_a_seek_waiting_for_a_ban_that_rates_its_game_with_the_seeker_does_not_deadlock() -> None:
    """The ban resigns Bob's rated game with Ann: a rating change of Ann's, whose foreign key is
    checked (FOR KEY SHARE of her row) as the ban commits. Ann's seek, pairing meanwhile, holds
    her row and waits for Bob's; holding hers FOR UPDATE, each would wait for the other."""
    ann, bob = account("ann"), account("bob")
    duel = new_game(ann, "yatzy", ["me", "open"], joiners=[bob], rated=True)
    bobs = seeks.seek_create(player=bob, kind="yatzy", options={})
    seeking = Racer(lambda: seeks.seek_create(player=ann, kind="yatzy", options={}))

    with transaction.atomic():
        assert player_ban(player_id=bob.pk).games.resigned == 1  # committed below
        seeking.start()
        until_one_waits_on_a_lock("Ann's pairing, on Bob's row (it found his seek)")
    seek = seeking.finish()

    assert seek.status == SeekStatus.OPEN
    assert Seek.objects.get(pk=bobs.pk).status == SeekStatus.WITHDRAWN
    assert Game.objects.get(pk=duel.pk).status == GameStatus.FINISHED
    assert RatingChange.objects.filter(game=duel, player=ann).exists()
