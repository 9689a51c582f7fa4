"""Whole games of both kinds, played through the API to the end, roll by the seeds: every roll of
the log is recomputed here by the algorithm written again (tests/fairness/independent.py) from the
seed the game reveals at the end; ``manage.py verify_dice`` agrees, and finds a roll that is not
the seeds'."""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from pytest_django import Settings

from games.kinds import kind_for
from games.models import Game
from games.staff import game_staff_abort
from tests.doubles import ScriptedDice
from tests.factories import Client, account, api_client, api_game, game_url
from tests.fairness.independent import rolls, seeded_dice

pytestmark = pytest.mark.django_db

LEVEL = {"yatzy": "casual", "ten_thousand": "classic"}
OPTIONS: dict[str, dict[str, Any]] = {"yatzy": {}, "ten_thousand": {"target": 5000}}


def play_to_the_end(game_id: str, by_seat: dict[int, Client]) -> list[dict[str, Any]]:
    """Each seat plays the computer's move (at a quick level), through the API; the answers."""
    answers = []
    while (game := Game.objects.get(pk=game_id)).status != "finished":
        kind = kind_for(game.kind)
        assert game.state is not None
        state = kind.engine.state_from_wire(game.state)
        command = kind.computer(state, LEVEL[game.kind])
        assert state.current_seat is not None
        client = by_seat[state.current_seat]
        body = {**command, "expected_version": game.version}
        answers.append(client.ok("post", game_url(game_id, "moves/"), body, status=201))
    return answers


def all_events(client: Client, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = client.ok("get", game_url(game_id, f"events/?after={len(events)}"))
        if not page["events"]:
            return events
        events += page["events"]


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
@pytest.mark.parametrize(
    "seeds", [("", "", ""), ("ann's seed", "b0b:1,2", "hot seat ~ 3")], ids=["none", "three"]
)
def test_every_roll_of_a_whole_game_is_the_seeds(kind: str, seeds: tuple[str, str, str]) -> None:
    ann, bob = api_client("ann"), api_client("bob")
    me: dict[str, Any] = {"type": "me"}
    hotseat: dict[str, Any] = {"type": "hotseat", "name": "Cleo"}
    if seeds[0]:
        me["client_seed"] = seeds[0]
    if seeds[2]:
        hotseat["client_seed"] = seeds[2]
    game = api_game(ann, kind, [me, "open", hotseat], options=OPTIONS[kind], start=False)
    assert game["fairness"] is None  # nothing drawn before the start
    join = {"client_seed": seeds[1]} if seeds[1] else {}
    bob.ok("post", game_url(game["id"], "join/"), join)
    started = ann.ok("post", game_url(game["id"], "start/"))

    fairness = started["fairness"]
    client_seed = ",".join(seeds)
    assert fairness["verifiable"] is True
    assert fairness["client_seed"] == client_seed
    assert fairness["server_seed"] is None
    assert re.fullmatch(r"[0-9a-f]{64}", fairness["server_seed_hash"])

    answers = play_to_the_end(game["id"], {0: ann, 1: bob, 2: ann})
    assert all(a["game"]["fairness"]["server_seed"] is None for a in answers[:-1])
    final = ann.ok("get", game_url(game["id"]))
    assert final["status"] == "finished"
    seed_hex = final["fairness"]["server_seed"]
    assert answers[-1]["game"]["fairness"]["server_seed"] == seed_hex
    seed = bytes.fromhex(seed_hex)
    assert hashlib.sha256(seed).hexdigest() == fairness["server_seed_hash"]

    events = all_events(bob, game["id"])
    assert events[0]["data"]["fairness"] == {
        "server_seed_hash": fairness["server_seed_hash"],
        "client_seed": client_seed,
        "algorithm": "hmac-sha256-v1",
    }
    assert events[-1]["type"] == "game_finished"
    assert events[-1]["data"]["server_seed"] == seed_hex
    assert sum("server_seed" in e["data"] for e in events) == 1
    played = list(rolls(kind, events))
    assert len(played) >= 20
    for nonce, dice in enumerate(played):
        assert dice == seeded_dice(seed, client_seed, nonce, len(dice)), nonce

    out = io.StringIO()
    call_command("verify_dice", game["id"], stdout=out)
    assert f"{len(played)} rolls; server seed revealed" in out.getvalue()
    assert "every roll matches the seeds" in out.getvalue()


def test_verify_dice_names_a_roll_that_is_not_the_seeds(settings: Settings) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "Cleo"}])
    moves = game_url(game["id"], "moves/")
    ann.ok("post", moves, {"type": "roll"}, status=201)  # roll 0, by the seeds
    row = Game.objects.get(pk=game["id"])
    fair = seeded_dice(bytes.fromhex(row.server_seed), row.client_seed, 1, 3)
    forged = ScriptedDice()
    forged.push([(face % 6) + 1 for face in fair])  # every die one pip off
    settings.GAMES_DICE_ROLLER = forged
    ann.ok("post", moves, {"type": "roll", "hold": [0, 1]}, status=201)

    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("verify_dice", game["id"], stdout=out)
    assert exited.value.code == 1
    text = out.getvalue()
    assert "2 rolls; server seed not yet revealed" in text
    assert f"roll 1 (event 3): rolled {[(f % 6) + 1 for f in fair]}, the seeds give {fair}" in text


def test_a_game_without_a_commitment_says_it_is_unverifiable(dice: ScriptedDice) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me"])  # a test's dice: nothing is committed, as before
    assert game["fairness"] == {
        "verifiable": False,
        "algorithm": None,
        "server_seed_hash": None,
        "client_seed": None,
        "server_seed": None,
    }
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_dice", game["id"], stdout=out)
    assert "unverifiable (started before fair dice)" in out.getvalue()


@pytest.mark.parametrize("seed", ["x" * 65, "é", "tab\there", "new\nline"])
def test_a_client_seed_is_1_to_64_printable_ascii_characters(seed: str) -> None:
    ann, bob = api_client("ann"), api_client("bob")
    body = {"kind": "yatzy", "seats": [{"type": "me", "client_seed": seed}]}
    refused = ann.ok("post", "/api/v1/games/", body, status=400)
    assert (refused["code"], refused["field"]) == ("invalid_client_seed", "seats.0.client_seed")
    game = api_game(ann, "yatzy", ["me", "open"], start=False)
    refused = bob.ok("post", game_url(game["id"], "join/"), {"client_seed": seed}, status=400)
    assert (refused["code"], refused["field"]) == ("invalid_client_seed", "client_seed")
    assert ann.ok("get", game_url(game["id"]))["seats"][1]["open"] is True
    longest = "~" * 64
    bob.ok("post", game_url(game["id"], "join/"), {"client_seed": longest})


def test_only_a_seat_of_ones_own_takes_a_client_seed() -> None:
    ann = api_client("ann")
    for seat in ({"type": "computer", "client_seed": "x"}, {"type": "open", "client_seed": "x"}):
        body = {"kind": "yatzy", "seats": [{"type": "me"}, seat]}
        refused = ann.ok("post", "/api/v1/games/", body, status=400)
        assert refused["code"] == "client_seed_not_allowed"
        assert refused["field"] == "seats.1.client_seed"


def test_an_aborted_game_reveals_its_seed_and_verifies() -> None:
    # Called off before any dice by a player, as a player may: over, so its seed is out.
    ann, bob = api_client("cal"), api_client("dan")
    early = api_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    called_off = bob.ok("post", game_url(early["id"], "abort/"), status=201)
    assert called_off["game"]["fairness"]["server_seed"] is not None
    ann, bob = api_client("ann"), api_client("bob")
    game = api_game(ann, "yatzy", ["me", "open"], start=False)
    bob.ok("post", game_url(game["id"], "join/"), {"client_seed": "b"})
    ann.ok("post", game_url(game["id"], "start/"))
    moves = game_url(game["id"], "moves/")
    ann.ok("post", moves, {"type": "roll"}, status=201)
    before = bob.ok("get", game_url(game["id"]))
    assert before["fairness"]["server_seed"] is None
    # Dice thrown: the players may no longer abort it, the staff may call it off.
    game_staff_abort(game_id=game["id"], staff=account("staff", is_staff=True))
    after = bob.ok("get", game_url(game["id"]))
    seed_hex = after["fairness"]["server_seed"]
    assert seed_hex == Game.objects.get(pk=game["id"]).server_seed
    assert after["status"] == "aborted"
    last = all_events(bob, game["id"])[-1]
    assert last["type"] == "game_aborted"
    assert last["data"]["server_seed"] == seed_hex
    events = all_events(bob, game["id"])
    (rolled,) = rolls("yatzy", events)
    assert rolled == seeded_dice(bytes.fromhex(seed_hex), ",b", 0, 5)
    out = io.StringIO()
    call_command("verify_dice", game["id"], stdout=out)
    assert "1 rolls; server seed revealed" in out.getvalue()
    # Over, so analysed for anyone, as a finished game is.
    assert api_client().ok("get", game_url(game["id"], "analysis/"))["finished"] is False
