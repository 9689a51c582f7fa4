"""Whole games of both kinds, played through the API to the end, roll by the seeds: every roll of
the log is recomputed here by the algorithm written again (tests/fairness/independent.py) from the
seed the game reveals at the end; ``manage.py verify_dice`` agrees, and finds a roll that is not
the seeds'. New games follow version 2 (a seed per game drawn when it is made, a client seed per
seat); a game made before it keeps version 1 to its end (``test_a_version_1_game_...``)."""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from pytest_django import Settings

from games.kinds import kind_for
from games.models import Game, GameEvent
from games.staff import game_staff_abort
from tests.doubles import ScriptedDice
from tests.factories import Client, account, api_client, api_game, game_url
from tests.fairness.independent import recomputed, rolls, seat_seeded_dice, seeded_dice

pytestmark = pytest.mark.django_db

LEVEL = {"yatzy": "casual", "ten_thousand": "classic"}
OPTIONS: dict[str, dict[str, Any]] = {"yatzy": {}, "ten_thousand": {"target": 5000}}


def play_to_the_end(
    game_id: str, by_seat: dict[int, Client], first_seeds: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """Each seat plays the computer's move (at a quick level), through the API; the answers.
    ``first_seeds``: the client seed a seat sends with its first command."""
    answers = []
    unsent = dict(first_seeds or {})
    while (game := Game.objects.get(pk=game_id)).status != "finished":
        kind = kind_for(game.kind)
        assert game.state is not None
        state = kind.engine.state_from_wire(game.state)
        command = kind.computer(state, LEVEL[game.kind])
        seat = state.current_seat
        assert seat is not None
        body = {**command, "expected_version": game.version}
        if seat in unsent:
            body["client_seed"] = unsent.pop(seat)
        answers.append(by_seat[seat].ok("post", game_url(game_id, "moves/"), body, status=201))
    assert unsent == {}, unsent  # every seat gave its seed
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
    # Seat 0 gives its seed in its seat spec, seat 1 as it joins, seat 2 with its first move.
    ann, bob = api_client("ann"), api_client("bob")
    me: dict[str, Any] = {"type": "me"}
    if seeds[0]:
        me["client_seed"] = seeds[0]
    hotseat = {"type": "hotseat", "name": "Cleo"}
    game = api_game(ann, kind, [me, "open", hotseat], options=OPTIONS[kind], start=False)
    committed = game["fairness"]
    assert committed["version"] == 2 and committed["algorithm"] == "hmac-sha256-v2"
    assert re.fullmatch(r"[0-9a-f]{64}", committed["server_seed_hash"])
    assert committed["server_seed"] is None and committed["client_seed"] is None
    assert committed["seats"] == [
        {"seat": 0, "client_seed": seeds[0], "fixed": False},
        {"seat": 1, "client_seed": "", "fixed": False},
        {"seat": 2, "client_seed": "", "fixed": False},
    ]
    join = {"client_seed": seeds[1]} if seeds[1] else {}
    bob.ok("post", game_url(game["id"], "join/"), join)
    started = ann.ok("post", game_url(game["id"], "start/"))

    fairness = started["fairness"]
    assert fairness["verifiable"] is True
    assert fairness["server_seed_hash"] == committed["server_seed_hash"]  # the one shown open
    assert fairness["server_seed"] is None
    assert [seat["client_seed"] for seat in fairness["seats"]] == [seeds[0], seeds[1], ""]

    first = {2: seeds[2]} if seeds[2] else {}
    answers = play_to_the_end(game["id"], {0: ann, 1: bob, 2: ann}, first)
    assert all(a["game"]["fairness"]["server_seed"] is None for a in answers[:-1])
    final = ann.ok("get", game_url(game["id"]))
    assert final["status"] == "finished"
    seed_hex = final["fairness"]["server_seed"]
    assert answers[-1]["game"]["fairness"]["server_seed"] == seed_hex
    assert final["fairness"]["seats"] == [
        {"seat": index, "client_seed": client_seed, "fixed": True}
        for index, client_seed in enumerate(seeds)
    ]
    seed = bytes.fromhex(seed_hex)
    assert hashlib.sha256(seed).hexdigest() == fairness["server_seed_hash"]

    events = all_events(bob, game["id"])
    assert events[0]["data"]["fairness"] == {
        "server_seed_hash": fairness["server_seed_hash"],
        "algorithm": "hmac-sha256-v2",
    }
    assert events[-1]["type"] == "game_finished"
    assert events[-1]["data"]["server_seed"] == seed_hex
    assert sum("server_seed" in e["data"] for e in events) == 1
    # Each seat's first roll names its seed, and no other event does.
    named = [
        (e["data"]["seat"], e["data"]["client_seed"]) for e in events if "client_seed" in e["data"]
    ]
    assert named == [(0, seeds[0]), (1, seeds[1]), (2, seeds[2])]
    played = list(rolls(kind, events))
    assert len(played) >= 20
    assert played == recomputed(kind, events, seed)

    out = io.StringIO()
    call_command("verify_dice", game["id"], stdout=out)
    assert f"fair dice version 2, {len(played)} rolls; server seed revealed" in out.getvalue()
    assert f"seat 2 rolls by the client seed {seeds[2]!r}" in out.getvalue()
    assert "every roll matches the seeds" in out.getvalue()


def test_verify_dice_names_a_roll_that_is_not_the_seeds(settings: Settings) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "Cleo"}])
    moves = game_url(game["id"], "moves/")
    ann.ok("post", moves, {"type": "roll", "client_seed": "a"}, status=201)  # seat 0's roll 0
    row = Game.objects.get(pk=game["id"])
    fair = seat_seeded_dice(bytes.fromhex(row.server_seed), "a", 0, 1, 3)
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
    assert "seat 0 rolls by the client seed 'a'" in text
    forged_faces = [(f % 6) + 1 for f in fair]
    assert (
        f"roll 1 (event 3), seat 0's roll 1: rolled {forged_faces}, the seeds give {fair}" in text
    )


def test_a_game_without_a_commitment_says_it_is_unverifiable(dice: ScriptedDice) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me"])  # a test's dice: nothing is committed, as before
    assert game["fairness"] == {
        "version": None,
        "verifiable": False,
        "algorithm": None,
        "server_seed_hash": None,
        "client_seed": None,
        "seats": None,
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
    assert rolled == seat_seeded_dice(bytes.fromhex(seed_hex), "", 0, 0, 5)  # ann's, seat 0
    out = io.StringIO()
    call_command("verify_dice", game["id"], stdout=out)
    assert "1 rolls; server seed revealed" in out.getvalue()
    # Over, so analysed for anyone, as a finished game is.
    assert api_client().ok("get", game_url(game["id"], "analysis/"))["finished"] is False


# --- version 1: the games made before version 2 -------------------------------------------------


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_a_version_1_game_keeps_its_formula_to_the_end(kind: str) -> None:
    """An open game made before version 2 (migration 0012 leaves it version 1, with no seed: it
    drew its seed at the start) starts, rolls and verifies by version 1, as it would have."""
    ann, bob = api_client("ann"), api_client("bob")
    me = {"type": "me", "client_seed": "ann"}
    game = api_game(ann, kind, [me, "open"], options=OPTIONS[kind], start=False)
    Game.objects.filter(pk=game["id"]).update(
        fairness_version=1, server_seed="", server_seed_hash="", seat_rolls=[]
    )
    assert ann.ok("get", game_url(game["id"]))["fairness"] is None  # as an open game's was
    bob.ok("post", game_url(game["id"], "join/"), {"client_seed": "b"})
    started = ann.ok("post", game_url(game["id"], "start/"))
    fairness = started["fairness"]
    assert fairness == {
        "version": 1,
        "verifiable": True,
        "algorithm": "hmac-sha256-v1",
        "server_seed_hash": fairness["server_seed_hash"],
        "client_seed": "ann,b",
        "seats": None,
        "server_seed": None,
    }
    # Version 1 fixed the client seeds at the start: another one is refused, the same taken.
    moves = game_url(game["id"], "moves/")
    first_move = {"type": "roll", "client_seed": "changed"}
    refused = ann.ok("post", moves, first_move, status=409)
    assert (refused["code"], refused["field"]) == ("client_seed_fixed", "client_seed")

    play_to_the_end(game["id"], {0: ann, 1: bob}, {0: "ann"})
    final = ann.ok("get", game_url(game["id"]))
    seed = bytes.fromhex(final["fairness"]["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == fairness["server_seed_hash"]
    events = all_events(bob, game["id"])
    assert events[0]["data"]["fairness"] == {
        "server_seed_hash": fairness["server_seed_hash"],
        "client_seed": "ann,b",
        "algorithm": "hmac-sha256-v1",
    }
    assert not [e for e in events if "client_seed" in e["data"]]
    played = list(rolls(kind, events))
    assert {e["data"]["seat"] for e in events if e["type"] == "dice_rolled"} == {0, 1}
    for nonce, dice in enumerate(played):
        assert dice == seeded_dice(seed, "ann,b", nonce, len(dice)), nonce
    out = io.StringIO()
    call_command("verify_dice", game["id"], stdout=out)
    assert f"fair dice version 1, {len(played)} rolls; server seed revealed" in out.getvalue()
    assert "every roll matches the seeds" in out.getvalue()


def test_a_version_1_log_as_it_was_written_verifies() -> None:
    """A log written before version 2, its JSON as it was stored: read back unchanged, checked by
    the version 1 formula, and a forged die is still named."""
    seed = bytes(range(32))
    digest = hashlib.sha256(seed).hexdigest()
    first = seeded_dice(seed, "x,", 0, 5)
    second = first[:3] + seeded_dice(seed, "x,", 1, 2)
    written: list[dict[str, Any]] = [
        {
            "type": "game_started",
            "seats": 2,
            "options": {"auto_confirm_seconds": 3.0},
            "fairness": {
                "server_seed_hash": digest,
                "client_seed": "x,",
                "algorithm": "hmac-sha256-v1",
            },
        },
        {"type": "dice_rolled", "seat": 0, "roll_number": 1, "held": [], "dice": first},
        {"type": "dice_rolled", "seat": 0, "roll_number": 2, "held": [0, 1, 2], "dice": second},
        {"type": "game_aborted", "seat": None, "server_seed": seed.hex()},
    ]
    engine = kind_for("yatzy").engine
    assert [engine.event_from_wire(data).to_wire() for data in written] == written

    def stored(log: list[dict[str, Any]]) -> Game:
        game = Game.objects.create(
            kind="yatzy",
            created_by=account(),
            status="aborted",
            options={"auto_confirm_seconds": 3.0},
            fairness_version=1,
            server_seed=seed.hex(),
            server_seed_hash=digest,
            client_seed="x,",
            dice_rolls=2,
            version=len(log),
        )
        for seq, data in enumerate(log, start=1):
            GameEvent.objects.create(game=game, seq=seq, type=data["type"], data=data)
        return game

    out = io.StringIO()
    call_command("verify_dice", str(stored(written).pk), stdout=out)
    assert "fair dice version 1, 2 rolls; server seed revealed" in out.getvalue()
    assert "every roll matches the seeds" in out.getvalue()

    forged = [*written[:2], {**written[2], "dice": [*second[:4], second[4] % 6 + 1]}, written[3]]
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_dice", str(stored(forged).pk), stdout=out)
    wrong = f"roll 1 (event 3): rolled {[second[3], second[4] % 6 + 1]}"
    assert f"{wrong}, the seeds give {second[3:]}" in out.getvalue()
