"""Real answers validate against the schema (games.api.schema_types): a game of each kind in each
status (its state typed per kind, discriminated on ``kind``), replays, a move's result, a hint,
and the moves clients send (typed per ``type``). Strict: a field the schema does not describe, or
one it describes wrongly, fails here."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from games.models import Game, GameStatus
from tests.api.test_render import games, people  # noqa: F401  (fixtures)
from tests.factories import api_client, api_game, game_url

pytestmark = pytest.mark.django_db


def strict(node: Any) -> Any:
    """The schema's components (OpenAPI 3.1: JSON Schema) with every object closed."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: strict(value) for key, value in node.items()}
    if converted.get("type") == "object" and "properties" in converted:
        converted.setdefault("additionalProperties", False)
    return converted


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {"components": strict(schema["components"])}


def check(components: dict[str, Any], name: str, instance: Any) -> None:
    schema = {**components, "$ref": f"#/components/schemas/{name}"}
    jsonschema.Draft202012Validator(schema).validate(instance)


def test_every_kind_and_status_of_game_is_its_schema(
    games: list[Game],  # noqa: F811
    components: dict[str, Any],
) -> None:
    seen = set()
    for game in games:
        for lang in ("en", "uk"):
            body = APIClient().get(game_url(str(game.pk)), HTTP_ACCEPT_LANGUAGE=lang).json()
            check(components, "Game", body)
        seen.add((game.kind, game.status, body["state"] is None))
        events = APIClient().get(game_url(str(game.pk), "events/")).json()
        check(components, "EventPage", events)
        if game.status != GameStatus.OPEN:
            replay = APIClient().get(game_url(str(game.pk), "replay/"), {"at": 1}).json()
            check(components, "Replay", replay)
            assert replay["state"] is not None
    assert len(seen) == 6
    listed = APIClient().get("/api/v1/games/").json()
    assert len(listed["results"]) == len(games)
    check(components, "PaginatedGameSummaryList", listed)


def test_every_event_type_of_every_kind_is_typed(
    games: list[Game],  # noqa: F811
    components: dict[str, Any],
) -> None:
    seen = set()
    for game in games:
        for event in APIClient().get(game_url(str(game.pk), "events/")).json()["events"]:
            check(components, "EventData", event["data"])
            seen.add((game.kind, event["type"]))
    assert {("yatzy", "box_scored"), ("ten_thousand", "turn_banked")} <= seen
    assert len(seen) >= 10
    forged = {"type": "dice_rolled", "seat": 0, "dice": [1, 2], "roll_number": 1}
    with pytest.raises(jsonschema.ValidationError):  # neither kind's dice_rolled
        check(components, "EventData", forged)


def test_a_wrong_state_fails_the_check(
    games: list[Game],  # noqa: F811
    components: dict[str, Any],
) -> None:
    body = APIClient().get(game_url(str(games[1].pk))).json()
    body["state"]["dice"] = "five dice"
    with pytest.raises(jsonschema.ValidationError):
        check(components, "Game", body)
    body = APIClient().get(game_url(str(games[1].pk))).json()
    body["kind"] = "ten_thousand"  # a yatzy state under the other kind
    with pytest.raises(jsonschema.ValidationError):
        check(components, "Game", body)


def test_moves_results_and_hints_are_their_schemas(components: dict[str, Any]) -> None:
    ann = api_client()
    yatzy = api_game(ann, "yatzy", ["me", "computer"], options={"auto_confirm_seconds": 0})
    url = game_url(yatzy["id"], "moves/")
    hint = ann.get(game_url(yatzy["id"], "hint/")).json()
    check(components, "Hint", hint)
    sent_moves = [
        {"type": "roll"},
        {"type": "roll", "hold": [0, 1]},
        {"type": "select", "box": "chance"},
    ]
    for sent in sent_moves:
        check(components, "MoveRequest", sent)
        result = ann.post(url, sent, format="json")
        assert result.status_code == 201, result.json()
        check(components, "MoveResult", result.json())
    check(components, "Hint", ann.get(game_url(yatzy["id"], "hint/")).json())
    check(components, "MoveRequest", {"type": "score", "box": "chance", "expected_version": 4})
    check(components, "MoveRequest", {"type": "bank", "keep": [0, 2]})
    with pytest.raises(jsonschema.ValidationError):
        check(components, "MoveRequest", {"type": "score", "box": "nowhere"})

    # A first roll with nothing to set aside (about 1 in 40) ends the turn, and a hint is then
    # refused (not_your_turn): such a game is resigned and another one rolled.
    for _ in range(10):
        dice = api_game(ann, "ten_thousand", ["me", "computer"])
        rolled = ann.post(game_url(dice["id"], "moves/"), {"type": "roll"}, format="json")
        check(components, "MoveResult", rolled.json())
        hint = ann.get(game_url(dice["id"], "hint/"))
        if hint.status_code != 409:
            break
        ann.post(game_url(dice["id"], "resign/"), {}, format="json")
    check(components, "Hint", hint.json())


@pytest.mark.django_db(transaction=True)
def test_the_account_streams_notes_are_their_schemas(components: dict[str, Any]) -> None:
    from games.streams import reads
    from tests.factories import account, new_game

    ann = account("ann")
    new_game(ann, "yatzy", ["me", "hotseat"])
    opening = reads.your_turns(ann.pk)
    assert opening
    for note in opening:
        check(components, "YourTurnNote", note)


def test_the_schema_reads_the_kinds_only_through_the_kinds() -> None:
    """Each kind's state, moves and events are derived from its own modules (its presenter's
    view, its rules' forms) through ``games.kinds.KINDS``: the API's schema modules import no
    kind's rules or presenter."""
    import re
    from pathlib import Path

    from games.kinds import KINDS

    folder = Path(__file__).resolve().parents[2] / "games" / "api"
    named = re.compile(rf"games\.(rules|presenters)(\.| import .*\b)({'|'.join(KINDS)})\b")
    for module in ("schema_forms.py", "schema_types.py", "serializers.py"):
        source = (folder / module).read_text()
        assert [line for line in source.splitlines() if named.search(line)] == [], module
    assert named.search("from games.rules import ten_thousand, yatzy")  # what it looks for
