"""``GET kinds/``: every kind the registry holds, with what a client needs to offer it, and an
options schema that says exactly what a new game takes (what it admits, the server admits)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from django.utils import translation

from games.kinds import KINDS, kind_for
from tests.factories import GAMES, Client, MakeClient

URL = "/api/v1/kinds/"


def kinds(client: Client, language: str = "en") -> list[dict[str, Any]]:
    answer = client.get(URL, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "public, max-age=300"
    body: dict[str, Any] = answer.json()
    return list(body["kinds"])


def test_every_registered_kind_in_order_with_its_seats_and_levels(db: None) -> None:
    listed = kinds(Client())
    assert [kind["kind"] for kind in listed] == list(KINDS)
    for body in listed:
        kind = kind_for(body["kind"])
        assert body["seats"] == {
            "least": kind.seats.least,
            "most": kind.seats.most,
            "most_computers": kind.seats.most_computers,
            "most_people": kind.seats.most_people,
        }
        assert [level["level"] for level in body["levels"]] == list(kind.levels)
        assert body["default_level"] == kind.default_level
        assert (body["preview"], body["analysis"]) == (
            kind.preview is not None,
            kind.analyst is not None,
        )


def test_names_and_labels_come_in_the_requests_language(db: None) -> None:
    french = {kind["kind"]: kind for kind in kinds(Client(), "fr")}
    with translation.override("fr"):
        for code, body in french.items():
            kind = kind_for(code)
            assert body["name"] == str(kind.label)
            assert [level["name"] for level in body["levels"]] == [
                str(level.label) for level in kind.levels.values()
            ]
            for name, option in body["options"]["properties"].items():
                assert option["title"] == str(kind.option_labels[name])
    assert french["ten_thousand"]["options"]["properties"]["target"]["title"] == "Objectif"
    assert {level["name"] for level in french["ten_thousand"]["levels"]} == {"expert", "classique"}


def candidates(option: dict[str, Any]) -> list[Any]:
    """Values on and just past each edge the schema draws, and some of another type."""
    values: list[Any] = [option["default"], "3", None, True]
    for value in option.get("enum", []):
        values += [value, value + 1]
    for edge, step in (("minimum", -1), ("maximum", 1)):
        if edge in option:
            values += [option[edge], option[edge] + step, option[edge] + step / 100]
    return values


@pytest.mark.parametrize("code", list(KINDS))
def test_the_options_schema_admits_exactly_what_a_new_game_takes(
    make_client: MakeClient, code: str
) -> None:
    ann = make_client("ann")
    (body,) = [kind for kind in kinds(ann) if kind["kind"] == code]
    schema = body["options"]
    assert schema["properties"], "each kind has options to offer"
    for name, option in schema["properties"].items():
        for value in candidates(option):
            admitted = jsonschema.Draft202012Validator(schema).is_valid({name: value})
            answer = ann.post(
                GAMES, {"kind": code, "seats": [{"type": "me"}], "options": {name: value}},
                format="json",
            )  # fmt: skip
            assert (answer.status_code == 201) == admitted, (name, value, answer.json())
            if admitted:
                assert answer.json()["options"][name] == value
            else:
                assert answer.json()["code"] == "invalid_option"
    game = ann.ok("post", GAMES, {"kind": code, "seats": [{"type": "me"}]}, status=201)
    assert game["options"] == {name: o["default"] for name, o in schema["properties"].items()}
    rated = {name: o["x-rated"] for name, o in schema["properties"].items() if "x-rated" in o}
    assert rated == {name: list(values) for name, values in kind_for(code).rated_presets.items()}


@pytest.mark.parametrize("code", list(KINDS))
def test_each_level_listed_seats_a_computer(make_client: MakeClient, code: str) -> None:
    ann = make_client()
    (body,) = [kind for kind in kinds(ann) if kind["kind"] == code]
    for level in body["levels"]:
        seats = [{"type": "me"}, {"type": "computer", "level": level["level"]}]
        game = ann.ok("post", GAMES, {"kind": code, "seats": seats}, status=201)
        assert game["seats"][1]["ai_level"] == level["level"]
