"""What a deleted account leaves behind (security round two, 9): the client seeds it gave and the
names of the hot seats in its games are blanked (the games' logs untouched); the sign-in guard
forgets its name (failures, lock, known addresses), so a later account of that name inherits
none of them; its username is held for ``DELETED_NAME_HOLD_DAYS``, in any case or lookalike
letters; and no new name starts like the deleted accounts' placeholder."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from games.accounts.deletion import seats_typed_blank
from games.models import Game, GameEvent, Occupant, Seat
from players.models import Player, UsernameHold
from players.tasks import purge_username_holds
from tests.factories import Client, api_client, api_game, game_url

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"
REGISTER = "/api/v1/accounts/register/"
SIGN_IN = "/api/v1/accounts/token/"
OLD = "zeldaquartz"
PASSWORD = "correct-horse-battery"
HOTSEAT_NAME = "Grandma Quartz"


def register(username: str, address: str = "192.0.2.1") -> int:
    body = {"username": username, "password": PASSWORD}
    return APIClient().post(REGISTER, body, format="json", REMOTE_ADDR=address).status_code


def register_refused(username: str) -> str:
    answer = APIClient().post(REGISTER, {"username": username, "password": PASSWORD})
    assert answer.status_code in (400, 409), (username, answer.status_code)
    assert answer.json()["field"] == "username"
    return str(answer.json()["code"])


def delete(client: Client) -> None:
    answer = client.delete(ME, {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content


def sign_in(username: str, address: str, password: str = PASSWORD) -> int:
    body = {"username": username, "password": password}
    return APIClient().post(SIGN_IN, body, REMOTE_ADDR=address).status_code


# --- what it typed into its games ----------------------------------------------------------------


def test_its_client_seeds_and_hot_seat_names_are_blanked_and_the_logs_kept(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    zelda, bob, cara = api_client(OLD), api_client("bob"), api_client("cara")
    hers = api_game(
        zelda,
        seats=[
            {"type": "me", "client_seed": "zelda-seed-1"},
            {"type": "hotseat", "name": HOTSEAT_NAME, "client_seed": "granny-seed"},
            {"type": "open"},
        ],
        start=False,
    )
    bob.ok("post", game_url(hers["id"], "join/"), {"client_seed": "bob-seed-1"})
    zelda.ok("post", game_url(hers["id"], "start/"))
    bobs = api_game(bob, seats=[{"type": "me", "client_seed": "bob-seed-2"}, "open"], start=False)
    zelda.ok("post", game_url(bobs["id"], "join/"), {"client_seed": "zelda-seed-2"})
    bob.ok("post", game_url(bobs["id"], "start/"))
    caras = api_game(cara, seats=["me", "open", "open"], start=False)  # she joins, never starts
    zelda.ok("post", game_url(caras["id"], "join/"), {"client_seed": "zelda-seed-3"})
    logs = {
        gid: list(GameEvent.objects.filter(game_id=gid).order_by("seq").values_list("seq", "data"))
        for gid in (hers["id"], bobs["id"])
    }

    with django_capture_on_commit_callbacks(execute=True):  # blanked once it has committed
        delete(zelda)

    assert not Seat.objects.filter(client_seed__startswith="zelda-seed").exists()
    assert not Seat.objects.filter(client_seed="granny-seed").exists()
    assert not Seat.objects.filter(name=HOTSEAT_NAME).exists()
    hot = Seat.objects.get(game_id=hers["id"], occupant=Occupant.HOTSEAT)
    assert (hot.name, hot.client_seed) == ("", "")
    # Bob's seeds are his own: kept.
    assert set(
        Seat.objects.filter(client_seed__startswith="bob-").values_list("client_seed", flat=True)
    ) == {
        "bob-seed-1",
        "bob-seed-2",
    }
    # The seat she left in cara's open game keeps nothing of hers for its next player.
    assert not Seat.objects.filter(game_id=caras["id"]).exclude(client_seed="").exists()
    # The hot seat shows as what it is, in the reader's language; the name is nowhere.
    shown = bob.ok("get", game_url(hers["id"]), HTTP_ACCEPT_LANGUAGE="en")
    assert shown["seats"][1]["name"] == "Hot-seat player"
    assert HOTSEAT_NAME not in bob.get(game_url(hers["id"])).content.decode()
    # The logs are append-only: every event as it was, the resignations after them.
    for gid, before in logs.items():
        after = GameEvent.objects.filter(game_id=gid).order_by("seq").values_list("seq", "data")
        assert list(after)[: len(before)] == before
        # The commitment the game was played by (fair dice version 2: the hash on the game, each
        # seat's client seed in its first roll, kept above with the whole log).
        assert Game.objects.get(pk=gid).server_seed_hash


def test_a_seat_given_back_and_taken_since_keeps_its_new_players_seed() -> None:
    zelda, bob, cara = api_client(OLD), api_client("bob"), api_client("cara")
    caras = api_game(cara, seats=["me", "open"], start=False)
    zelda.ok("post", game_url(caras["id"], "join/"), {"client_seed": "zelda-seed"})
    player = Player.objects.get(username=OLD)
    typed = list(Seat.objects.filter(player=player).values_list("pk", flat=True))
    zelda.ok("post", game_url(caras["id"], "leave/"))
    bob.ok("post", game_url(caras["id"], "join/"), {"client_seed": "bob-seed"})
    # What the deletion does once committed, with the seats it listed before its cut-off.
    assert seats_typed_blank(player_id=player.pk, seat_ids=typed) == 0
    assert Seat.objects.get(pk=typed[0]).client_seed == "bob-seed"


# --- the sign-in guard ---------------------------------------------------------------------------


def test_the_guard_forgets_the_name_so_a_later_account_inherits_no_lock_nor_known_address(
    settings: Settings, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    settings.DELETED_NAME_HOLD_DAYS = 0  # the name free at once, to show what it would inherit
    assert register(OLD, address="192.0.2.10") == 201
    assert sign_in(OLD, "192.0.2.10") == 201  # her home: a known address
    assert [sign_in(OLD, f"198.51.100.{i}", "guess") for i in range(3)] == [401] * 3
    assert sign_in(OLD, "198.51.100.50") == 429  # locked, but not from her home
    zelda = Client(REMOTE_ADDR="192.0.2.10")
    token = zelda.post(SIGN_IN, {"username": OLD, "password": PASSWORD}).json()["token"]
    zelda.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    with django_capture_on_commit_callbacks(execute=True):  # it forgets once the deletion commits
        delete(zelda)

    for key in (f"login:failures:{OLD}", f"login:locked:{OLD}", f"login:known:{OLD}"):
        assert cache.get(key) is None, key
    # Someone else takes the name, from a new address: not locked by her attackers ...
    assert register(OLD, address="203.0.113.5") == 201
    assert sign_in(OLD, "203.0.113.6") == 201
    # ... and her home is not a known address of the new account: its lock applies there.
    assert [sign_in(OLD, f"198.51.100.{i}", "guess") for i in range(3)] == [401] * 3
    assert sign_in(OLD, "192.0.2.10") == 429


# --- the name held -------------------------------------------------------------------------------


def test_the_former_username_is_held_in_any_case_and_lookalike_then_freed(
    settings: Settings,
) -> None:
    zelda = api_client(OLD)
    delete(zelda)
    hold = UsernameHold.objects.get()
    expected = timezone.now() + timedelta(days=30)
    assert abs((hold.held_until - expected).total_seconds()) < 60
    # Kept as keyed hashes: the name is not in the row.
    assert OLD not in f"{hold.name_digest} {hold.skeleton_digest}"
    for name in (
        OLD,
        "ZeldaQuartz",
        "\uff5aeldaquartz",  # a fullwidth z
        "z\u0435ldaquartz",  # a Cyrillic e
        "zeIdaquartz",  # a capital I for the l
    ):
        assert register_refused(name) == "username_held", name
    assert register("zeldaquartz2") == 201
    # Past its time, the name is free, and the beat task deletes the hold.
    UsernameHold.objects.update(held_until=timezone.now() - timedelta(seconds=1))
    assert purge_username_holds() == 1
    assert register(OLD) == 201


def test_the_hold_lasts_deleted_name_hold_days(settings: Settings) -> None:
    settings.DELETED_NAME_HOLD_DAYS = 2
    delete(api_client(OLD))
    hold = UsernameHold.objects.get()
    assert abs((hold.held_until - timezone.now() - timedelta(days=2)).total_seconds()) < 60
    assert register_refused(OLD) == "username_held"
    settings.DELETED_NAME_HOLD_DAYS = 0
    delete(api_client("yvonne"))
    assert UsernameHold.objects.count() == 1  # no hold for a name deleted with 0 days
    assert register("yvonne") == 201


def test_a_name_deleted_twice_is_held_once(settings: Settings) -> None:
    from games.accounts.deletion import account_delete

    zelda = api_client(OLD)
    delete(zelda)
    account_delete(player_id=Player.objects.get(deleted_at__isnull=False).pk)  # the admin's
    assert UsernameHold.objects.count() == 1


# --- the placeholder -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["deleted-7", "Deleted-99", "DELETED-x", "de1eted-5", "d\u0435leted-5", "\uff44eleted-5"],
)
def test_no_new_name_starts_like_the_placeholder(name: str) -> None:
    assert register_refused(name) == "username_reserved"
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", ["deleted_5", "undeleted-5", "deleted"])
def test_names_that_merely_contain_the_word_are_free(name: str) -> None:
    assert register(name) == 201
