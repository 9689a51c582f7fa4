"""Dice that bind the server (fair dice version 2), over HTTP: the seed's hash is shown from the
moment a game exists (an open game before anyone joins, a game paired from seeks or opened at a
tournament table), before any seat gives its client seed; each seat gives its own (seat spec,
join, seek, tournament entry, or its first command) and keeps it from its first roll on; a game
paired from seeks whose players gave their seeds after seeing the hash is recomputed here, roll by
roll, from the seed it reveals, by the formula written again (tests/fairness/independent.py)."""

from __future__ import annotations

import hashlib
import io
import re
import secrets
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, Seat
from games.tournaments import services as tournaments
from players.models import Player
from tests.factories import Client, api_client, api_game, game_url, new_tournament
from tests.fairness.independent import recomputed, rolls, seat_seeded_dice
from tests.fairness.test_fair_games import OPTIONS, all_events, play_to_the_end

pytestmark = pytest.mark.django_db

SEEKS = "/api/v1/seeks/"


def test_an_open_game_shows_its_hash_before_anyone_joins(anon: APIClient) -> None:
    ann = api_client("ann")
    created = api_game(ann, "yatzy", ["me", "open"], start=False)
    row = Game.objects.get(pk=created["id"])
    assert re.fullmatch(r"[0-9a-f]{64}", row.server_seed)
    for shown in (
        created["fairness"],
        anon.get(game_url(created["id"])).json()["fairness"],
        anon.get("/api/v1/games/?status=open").json()["results"][0]["fairness"],
    ):
        assert shown["version"] == 2 and shown["verifiable"] is True
        assert (
            shown["server_seed_hash"] == hashlib.sha256(bytes.fromhex(row.server_seed)).hexdigest()
        )
        assert shown["server_seed"] is None
        assert shown["seats"] == [
            {"seat": 0, "client_seed": "", "fixed": False},
            {"seat": 1, "client_seed": "", "fixed": False},
        ]
    assert row.server_seed not in anon.get(game_url(created["id"])).content.decode()


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_a_game_paired_from_seeks_is_recomputed_from_seeds_given_after_the_hash(
    kind: str,
) -> None:
    ann, bob = api_client("ann"), api_client("bob")
    body = {"kind": kind, "options": OPTIONS[kind]}
    waiting = ann.ok("post", SEEKS, body, status=201)
    paired = bob.ok("post", SEEKS, body, status=201)
    assert waiting["status"] == "open" and paired["status"] == "paired"
    game_id = paired["game"]

    # Both players read the game, paired and started: its hash is there, no seed is given yet.
    shown = {client.username: client.ok("get", game_url(game_id)) for client in (ann, bob)}
    hashes = {answer["fairness"]["server_seed_hash"] for answer in shown.values()}
    (server_seed_hash,) = hashes
    assert re.fullmatch(r"[0-9a-f]{64}", server_seed_hash)
    answer = shown["ann"]
    assert answer["status"] == "active" and answer["fairness"]["server_seed"] is None
    assert [s["client_seed"] for s in answer["fairness"]["seats"]] == ["", ""]
    # Each then picks a seed of its own and sends it with its first move.
    by_seat = {
        seat["index"]: ann if seat["player"]["username"] == "ann" else bob
        for seat in answer["seats"]
    }
    given = {seat: secrets.token_urlsafe(24) for seat in by_seat}
    play_to_the_end(game_id, by_seat, given)

    # A third party: the log, the revealed seed, the formula, nothing else.
    final = api_client("onlooker").ok("get", game_url(game_id))
    assert final["status"] == "finished"
    seed = bytes.fromhex(final["fairness"]["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == server_seed_hash
    events = all_events(api_client("another"), game_id)
    assert events[0]["data"]["fairness"] == {
        "server_seed_hash": server_seed_hash,
        "algorithm": "hmac-sha256-v2",
    }
    first_rolls: dict[int, str] = {}
    for event in events:
        if event["type"] == "dice_rolled" and event["data"]["seat"] not in first_rolls:
            first_rolls[event["data"]["seat"]] = event["data"]["client_seed"]
    assert first_rolls == given  # the log names the seeds the players sent
    played = list(rolls(kind, events))
    # Both seats rolled, more than once (a lucky Dés 10 000 game may end within a dozen rolls).
    assert first_rolls.keys() == {0, 1} and len(played) > 2
    assert played == recomputed(kind, events, seed)
    out = io.StringIO()
    call_command("verify_dice", game_id, stdout=out)
    assert "every roll matches the seeds" in out.getvalue()


def test_a_seeks_client_seed_is_its_seats() -> None:
    ann, bob = api_client("ann"), api_client("bob")
    ann.ok("post", SEEKS, {"kind": "yatzy", "client_seed": "ann's own"}, status=201)
    game_id = bob.ok("post", SEEKS, {"kind": "yatzy"}, status=201)["game"]
    rows = Seat.objects.filter(game_id=game_id).values_list("player__username", "index")
    seats = dict(rows)
    answer = ann.ok("get", game_url(game_id))
    assert answer["fairness"]["seats"][seats["ann"]]["client_seed"] == "ann's own"
    assert answer["fairness"]["seats"][seats["bob"]]["client_seed"] == ""
    refused = ann.ok("post", SEEKS, {"kind": "yatzy", "client_seed": "é"}, status=400)
    assert (refused["code"], refused["field"]) == ("invalid_client_seed", "client_seed")


def test_a_tournament_entrys_client_seed_is_its_seat_at_every_table() -> None:
    organiser = Player.objects.create_user(username="org", password="correct-horse-battery")
    cup = new_tournament(
        organiser, computers=["casual"], starts_at=timezone.now() + timedelta(hours=1)
    )
    ann = api_client("ann")
    url = f"/api/v1/tournaments/{cup.pk}/register/"
    refused = ann.ok("post", url, {"client_seed": "x" * 65}, status=400)
    assert (refused["code"], refused["field"]) == ("invalid_client_seed", "client_seed")
    ann.ok("post", url, {"client_seed": "ann at the cup"}, status=201)
    tournaments.tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(hours=2))
    seat = Seat.objects.get(player__username="ann")
    answer = ann.ok("get", game_url(str(seat.game_id)))
    assert answer["fairness"]["version"] == 2
    assert re.fullmatch(r"[0-9a-f]{64}", answer["fairness"]["server_seed_hash"])
    assert answer["fairness"]["seats"][seat.index]["client_seed"] == "ann at the cup"


def hotseat_game(client: Client, **me: Any) -> dict[str, Any]:
    return api_game(client, "yatzy", [{"type": "me", **me}, {"type": "hotseat", "name": "Cleo"}])


def test_a_seed_given_with_the_first_command_is_the_seats_and_named_by_its_roll() -> None:
    ann = api_client("ann")
    game = hotseat_game(ann, client_seed="given at creation")  # replaced: no roll yet
    moves = game_url(game["id"], "moves/")
    moved = ann.ok("post", moves, {"type": "roll", "client_seed": "mine, now"}, status=201)
    (rolled,) = moved["events"]
    assert rolled["data"]["client_seed"] == "mine, now"
    assert moved["game"]["fairness"]["seats"][0] == {
        "seat": 0,
        "client_seed": "mine, now",
        "fixed": True,
    }
    assert moved["game"]["fairness"]["seats"][1]["fixed"] is False
    seed = bytes.fromhex(Game.objects.get(pk=game["id"]).server_seed)
    assert rolled["data"]["dice"] == seat_seeded_dice(seed, "mine, now", 0, 0, 5)
    again = ann.ok("post", moves, {"type": "roll", "hold": [0]}, status=201)
    assert "client_seed" not in again["events"][0]["data"]  # only the first roll names it
    assert again["events"][0]["data"]["dice"][1:] == seat_seeded_dice(seed, "mine, now", 0, 1, 4)


def test_a_seed_cannot_change_after_the_seats_first_roll() -> None:
    ann = api_client("ann")
    game = hotseat_game(ann)
    moves = game_url(game["id"], "moves/")
    ann.ok("post", moves, {"type": "roll", "client_seed": "first"}, status=201)
    before = ann.ok("get", game_url(game["id"]))
    changed = {"type": "roll", "hold": [0], "client_seed": "second"}
    refused = ann.ok("post", moves, changed, status=409)
    assert (refused["code"], refused["field"]) == ("client_seed_fixed", "client_seed")
    after = ann.ok("get", game_url(game["id"]))
    assert after == before  # nothing moved, the seed is still the first
    # The same seed again is no change: the move is played.
    ann.ok("post", moves, {**changed, "client_seed": "first"}, status=201)
    ann.ok("post", moves, {"type": "score", "box": "chance"}, status=201)
    # Seat 1 has not rolled: its own seed is still its to give, with its first move.
    moved = ann.ok("post", moves, {"type": "roll", "client_seed": "cleo"}, status=201)
    assert moved["events"][0]["data"]["client_seed"] == "cleo"
    assert [s["client_seed"] for s in moved["game"]["fairness"]["seats"]] == ["first", "cleo"]


@pytest.mark.parametrize("seed", ["", "x" * 65, "é", 5, None])
def test_an_invalid_seed_in_a_command_is_refused_and_changes_nothing(seed: object) -> None:
    ann = api_client("ann")
    game = hotseat_game(ann)
    before = ann.ok("get", game_url(game["id"]))
    moves = game_url(game["id"], "moves/")
    refused = ann.ok("post", moves, {"type": "roll", "client_seed": seed}, status=400)
    assert (refused["code"], refused["field"]) == ("invalid_client_seed", "client_seed")
    assert ann.ok("get", game_url(game["id"])) == before


def test_a_seed_sent_with_a_refused_move_is_not_kept() -> None:
    ann = api_client("ann")
    game = hotseat_game(ann, client_seed="kept")
    moves = game_url(game["id"], "moves/")
    early = {"type": "score", "box": "chance", "client_seed": "lost"}
    assert ann.ok("post", moves, early, status=409)["code"] == "roll_first"
    seats = ann.ok("get", game_url(game["id"]))["fairness"]["seats"]
    assert seats[0] == {"seat": 0, "client_seed": "kept", "fixed": False}


def test_a_seat_given_back_takes_its_seed_with_it() -> None:
    ann, bob, cleo = api_client("ann"), api_client("bob"), api_client("cleo")
    game = api_game(ann, "yatzy", ["me", "open"], start=False)
    bob.ok("post", game_url(game["id"], "join/"), {"client_seed": "bob's"})
    bob.ok("post", game_url(game["id"], "leave/"), {})
    shown = ann.ok("get", game_url(game["id"]))
    assert shown["fairness"]["seats"][1] == {"seat": 1, "client_seed": "", "fixed": False}
    joined = cleo.ok("post", game_url(game["id"], "join/"))
    assert joined["fairness"]["seats"][1]["client_seed"] == ""
