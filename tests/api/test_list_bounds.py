"""Every list the API reads is bounded, and its length is checked before any of its items: a
request of 10,000 items is refused at once (400, a stable code, the field), its items unread.

The API's serializers (config.web.bounded_lists: DRF's ``max_length``, in ``errors``) and the rules'
own lists, a move's ``hold`` and ``keep`` and the preview's ``keep`` (``too_many_dice``).
"""

from __future__ import annotations

import importlib
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework import serializers

from config.web.bounded_lists import BoundedListField
from games.api.serializers import MAX_SEAT_ENTRIES, SeatInput
from games.models import Game
from games.rules import RuleError, ten_thousand, yatzy
from games.tournaments.models import Tournament
from players.models import Player
from tests.doubles import ScriptedDice
from tests.factories import MakeClient, api_game, game_url, grant

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
HUGE = 10_000
# Every module whose serializers read a request (their names end in Input).
INPUT_MODULES = [
    "games.accounts.api",
    "games.api.serializers",
    "games.matchmaking.api",
    "games.tournaments.api",
    "players.api",
]


def refused_at_once(response: Any, started: float) -> dict[str, Any]:
    assert response.status_code == 400, response.json()
    assert time.monotonic() - started < 2.0  # no item read: nothing to take long
    body: dict[str, Any] = response.json()
    return body


def test_every_list_input_of_the_api_is_bounded_before_its_items() -> None:
    found = []
    for name in INPUT_MODULES:
        for value in vars(importlib.import_module(name)).values():
            is_input = isinstance(value, type) and issubclass(value, serializers.Serializer)
            if not is_input or not value.__name__.endswith("Input"):
                continue
            for field_name, field in value().fields.items():
                where = f"{value.__name__}.{field_name}"
                if isinstance(field, serializers.ListField):
                    # DRF's own ListField reads every item before its max_length.
                    assert isinstance(field, BoundedListField), where
                    found.append(where)
                elif isinstance(field, serializers.ListSerializer):
                    # checked first by DRF (its stubs do not declare the attribute)
                    assert getattr(field, "max_length", None) is not None, where
                    found.append(where)
    # The scan sees the lists there are (a rename would hide them from it).
    assert {"GameCreateInput.seats", "TournamentCreateInput.computers"} <= set(found)


def test_the_schema_bounds_a_move_s_lists_as_the_rules_do() -> None:
    """A move's lists are the rules' to read (``too_many_dice``, below): the schema gives their
    bounds from the rules' forms."""
    from drf_spectacular.generators import SchemaGenerator

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    expected = {
        ("RollMoveRequest", "hold"): yatzy.DICE,
        ("RollMoveRequest", "keep"): ten_thousand.DICE,
        ("BankMoveRequest", "keep"): ten_thousand.DICE,
    }
    for (name, field), most in expected.items():
        assert schemas[name]["properties"][field]["maxItems"] == most, (name, field)


def test_a_huge_list_of_bad_seats_is_refused_by_its_length_alone(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = make_client()
    seats_read: list[object] = []
    original = SeatInput.to_internal_value

    def counting(self: SeatInput, data: Any) -> Any:
        seats_read.append(data)
        return original(self, data)

    monkeypatch.setattr(SeatInput, "to_internal_value", counting)
    started = time.monotonic()
    # Each seat is wrong in itself: were any read, its own error would be in errors.
    payload = {"kind": "yatzy", "seats": [{"type": "no-such-seat"}] * HUGE}
    body = refused_at_once(ann.post(GAMES, payload, format="json"), started)
    assert (body["code"], body["field"]) == ("invalid_input", "seats")
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("seats", "max_length")]
    assert seats_read == []
    assert Game.objects.count() == 0


def test_a_few_seats_too_many_are_the_game_s_to_refuse(make_client: MakeClient) -> None:
    """The bound is above every game's seats: a near miss is told ``invalid_seat_count``."""
    ann = make_client()
    hotseats = [{"type": "hotseat", "name": f"P{i}"} for i in range(MAX_SEAT_ENTRIES + 1)]
    near = ann.post(GAMES, {"kind": "yatzy", "seats": hotseats[:MAX_SEAT_ENTRIES]}, format="json")
    assert near.status_code == 400
    assert near.json()["code"] == "invalid_seat_count"
    past = ann.post(GAMES, {"kind": "yatzy", "seats": hotseats}, format="json")
    assert [(e["field"], e["code"]) for e in past.json()["errors"]] == [("seats", "max_length")]


@pytest.mark.parametrize(
    ("kind", "command", "field", "most"),
    [
        ("yatzy", {"type": "roll"}, "hold", yatzy.DICE),
        ("ten_thousand", {"type": "roll"}, "keep", ten_thousand.DICE),
        ("ten_thousand", {"type": "bank"}, "keep", ten_thousand.DICE),
    ],
)
def test_a_move_naming_too_many_dice_is_refused_before_any_is_read(
    make_client: MakeClient,
    dice: ScriptedDice,
    kind: str,
    command: dict[str, Any],
    field: str,
    most: int,
) -> None:
    ann = make_client()
    game = api_game(ann, kind)
    dice.push((1, 5, 3, 3, 6, 2)[: yatzy.DICE if kind == "yatzy" else ten_thousand.DICE])
    ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
    version = ann.ok("get", game_url(game["id"]))["version"]
    moves = game_url(game["id"], "moves/")
    for dice_named in (["not-a-position"] * HUGE, list(range(most + 1))):
        started = time.monotonic()
        body = refused_at_once(
            ann.post(moves, {**command, field: dice_named}, format="json"), started
        )
        assert (body["code"], body["field"], body["params"]) == (
            "too_many_dice",
            field,
            {"max": most},
        )
    # As many as the game has is the rules' to judge, item by item.
    repeated = ann.post(moves, {**command, field: [0] * most}, format="json")
    assert repeated.json()["code"] == "invalid_dice_indices"
    assert ann.ok("get", game_url(game["id"]))["version"] == version


@pytest.mark.parametrize(
    ("engine", "field", "most"),
    [(yatzy, "hold", yatzy.DICE), (ten_thousand, "keep", ten_thousand.DICE)],
)
def test_the_rules_read_a_list_s_length_before_its_items(
    engine: Any, field: str, most: int
) -> None:
    # Items the rules would refuse one by one (invalid_dice_indices), were any read.
    with pytest.raises(RuleError) as refused:
        engine.command_from_wire({"type": "roll", field: ["not-a-position"] * HUGE}, seat=0)
    assert (refused.value.code, refused.value.field) == ("too_many_dice", field)
    assert refused.value.params == {"max": most}


def test_the_preview_s_keep_is_bounded_too(make_client: MakeClient, dice: ScriptedDice) -> None:
    ann = make_client()
    game = api_game(ann, "ten_thousand")
    dice.push((1, 5, 3, 3, 6, 2))
    ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
    preview = game_url(game["id"], "preview/")
    started = time.monotonic()
    body = refused_at_once(ann.get(preview, {"keep": ",".join(["x"] * 2000)}), started)
    assert (body["code"], body["field"], body["params"]) == ("too_many_dice", "keep", {"max": 6})
    assert ann.ok("get", preview, {"keep": "0,1,2,3,4,5"})["valid"] is False  # six: read


def test_a_tournament_s_computer_entrants_are_bounded(make_client: MakeClient) -> None:
    staff = make_client("organiser")
    Player.objects.filter(username="organiser").update(is_staff=True)
    grant(Player.objects.get(username="organiser"), "tournaments.add_tournament")
    body = {
        "name": "Friday cup",
        "kind": "yatzy",
        "format": "round_robin",
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        # Each level too long to be one: were any read, its own error would be in errors.
        "computers": ["x" * 40] * HUGE,
    }
    started = time.monotonic()
    refused = refused_at_once(staff.post("/api/v1/tournaments/", body, format="json"), started)
    assert [(e["field"], e["code"]) for e in refused["errors"]] == [("computers", "max_length")]
    assert Tournament.objects.count() == 0
