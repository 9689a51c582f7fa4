"""A third kind, Pig (``tests/kinds/pig``), registered by the tests only: it is served like the
product's kinds with no migration and no change outside its own modules. Played here through the
API (accounts and the computer), its fair dice verified, its log read on the stream tier, and
listed by ``GET kinds/``; the endpoints it has no use for refuse it with their stable codes."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from drf_spectacular.plumbing import _load_enum_name_overrides

from games.kinds import Kind
from games.kinds.registry import registered
from games.models import Game
from games.streams.app import StreamApp
from games.timers import automation
from tests.factories import Client, MakeClient, api_game, game_url
from tests.kinds.pig.kind import KIND as PIG
from tests.streams import asgi

TARGET = 30


@pytest.fixture
def pig() -> Iterator[Kind]:
    # The schema's enum names are kept per language from the kinds at their first use.
    _load_enum_name_overrides.cache_clear()
    with registered(PIG) as kind:
        yield kind
    _load_enum_name_overrides.cache_clear()


def play(client: Client, game_id: str, **command: Any) -> dict[str, Any]:
    answer: dict[str, Any] = client.ok("post", game_url(game_id, "moves/"), command, status=201)
    return answer


def play_to_the_end(game_id: str, by_seat: dict[int, Client]) -> dict[str, Any]:
    """Each seat rolls until its turn holds 8 points, then holds; the last answer."""
    game = by_seat[0].ok("get", game_url(game_id))
    for _ in range(2000):
        if game["status"] != "active":
            return dict(game)
        state = game["state"]
        seat = state["turn_seat"]
        if seat not in by_seat:  # the computer's: the worker's task, run here
            assert automation.game_play_computer(game_id=game_id, version=game["version"])
            game = by_seat[0].ok("get", game_url(game_id))
            continue
        hold = state["turn_points"] >= 8
        assert {m["type"] for m in state["moves"]} == (
            {"roll", "hold"} if state["turn_points"] else {"roll"}
        )
        game = play(by_seat[seat], game_id, type="hold" if hold else "roll")["game"]
    raise AssertionError("the game did not end")


def test_kinds_lists_it_with_its_options_and_levels(pig: Kind, db: None) -> None:
    body = Client().ok("get", "/api/v1/kinds/")
    (listed,) = [kind for kind in body["kinds"] if kind["kind"] == "pig"]
    assert listed["name"] == "Pig"
    assert [level["level"] for level in listed["levels"]] == ["steady", "timid"]
    assert listed["options"]["properties"] == {
        "target": {"type": "integer", "default": 100, "title": "Target", "minimum": 20,
                   "maximum": 200, "x-rated": [100]},
    }  # fmt: skip
    assert (listed["preview"], listed["analysis"], listed["auto_confirm"]) == (False, False, False)


def test_two_accounts_play_a_whole_game_with_fair_dice(pig: Kind, make_client: MakeClient) -> None:
    ann, bob = make_client("ann"), make_client("bob")
    created = api_game(ann, "pig", ["me", "open"], options={"target": TARGET}, start=False)
    assert created["kind"] == "pig" and created["kind_name"] == "Pig"
    gid = created["id"]
    bob.ok("post", game_url(gid, "join/"), {"client_seed": "bob's"})
    started = ann.ok("post", game_url(gid, "start/"))
    assert started["state"]["target"] == TARGET and started["state"]["totals"] == [0, 0]

    final = play_to_the_end(gid, {0: ann, 1: bob})
    assert final["status"] == "finished"
    result = final["state"]["result"]
    assert max(result["totals"]) >= TARGET and result["places"][result["winners"][0]] == 1
    assert final["fairness"]["server_seed"]
    out = io.StringIO()
    call_command("verify_dice", gid, stdout=out)
    assert "every roll matches the seeds" in out.getvalue()

    listed = ann.ok("get", "/api/v1/games/?kind=pig&status=finished")
    assert [game["id"] for game in listed["results"]] == [gid]
    replay = ann.ok("get", game_url(gid, "replay/") + "?at=2")
    assert replay["state"]["turn_seat"] == 0 and replay["state"]["totals"] == [0, 0]
    assert ann.ok("get", game_url(gid, "replay/"))["state"] == final["state"]
    assert Game.objects.get(pk=gid).kind == "pig"


def test_against_the_computer_with_the_moves_refused_as_in_every_kind(
    pig: Kind, make_client: MakeClient
) -> None:
    ann = make_client("ann")
    game = api_game(ann, "pig", ["me", {"type": "computer", "level": "timid"}],
                    options={"target": TARGET})  # fmt: skip
    gid = game["id"]
    refused = ann.post(game_url(gid, "moves/"), {"type": "hold"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "nothing_to_bank")
    refused = ann.post(game_url(gid, "moves/"), {"type": "score", "box": "ones"}, format="json")
    assert refused.json()["code"] == "unknown_move"
    assert ann.ok("get", game_url(gid, "hint/"))["move"] == {"type": "roll"}
    assert play_to_the_end(gid, {0: ann})["status"] == "finished"
    for what, code in (
        ("analysis/", "analysis_not_available"),
        ("preview/?keep=0", "preview_not_available"),
    ):
        answer = ann.get(game_url(gid, what))
        assert (answer.status_code, answer.json()["code"]) == (400, code), what


def test_a_pig_game_needs_no_migration(pig: Kind, db: None) -> None:
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_its_log_reaches_the_stream_tier(pig: Kind, make_client: MakeClient) -> None:
    ann = await sync_to_async(make_client)("ann")
    seats: list[str | dict[str, Any]] = ["me", {"type": "hotseat", "name": "Cleo"}]
    game = await sync_to_async(api_game)(ann, "pig", seats, options={"target": TARGET})
    app = StreamApp()
    await app.hub()
    try:
        stream = await asgi.get(
            app, f"/api/v1/games/{game['id']}/events/", headers={"Accept": "text/event-stream"}
        )
        (started,) = await stream.events(1)
        assert started["type"] == "game_started" and started["data"]["options"] == {
            "target": TARGET
        }
        moved = await sync_to_async(play)(ann, game["id"], type="roll")
        (rolled,) = await stream.events(1)
        assert rolled["seq"] == moved["events"][0]["seq"] and rolled["type"] == "dice_rolled"
        await stream.close()
    finally:
        await app.shutdown()


def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    built: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return built


def test_the_schema_shows_its_state_its_moves_and_its_events(pig: Kind) -> None:
    components = schema()["components"]["schemas"]
    assert components["GameKindEnum"]["enum"] == ["yatzy", "ten_thousand", "pig"]
    games = components["Game"]["discriminator"]["mapping"]
    assert games["pig"] == "#/components/schemas/PigGame"
    state = components["PigState"]["properties"]
    assert {"target", "totals", "die", "turn_points", "moves", "result", "out"} <= set(state)
    assert components["Move"]["discriminator"]["mapping"]["hold"] == "#/components/schemas/HoldMove"
    assert components["PigTurnHeld"]["properties"]["total"] == {"type": "integer"}


def test_the_schema_is_the_registrys_at_every_build(db: None) -> None:
    _load_enum_name_overrides.cache_clear()
    plain = schema()["components"]["schemas"]
    assert "PigState" not in plain and "hold" not in plain["Move"]["discriminator"]["mapping"]
    assert plain["GameKindEnum"]["enum"] == ["yatzy", "ten_thousand"]
