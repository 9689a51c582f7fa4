"""The API's JSON renderer (config.web.renderers, orjson) writes the bytes DRF's writes (a float
under a ten-thousandth aside: the same number, in its shortest form): for the values an answer may
hold, and for whole answers of both kinds."""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from typing import Any

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers

from config.web.renderers import JSONRenderer, ProblemJSONRenderer
from tests.factories import MakeClient, api_game, game_url

UTC = datetime.UTC
KYIV = datetime.timezone(datetime.timedelta(hours=2))

VALUES: list[Any] = [
    {"when": datetime.datetime(2026, 12, 5, 21, 59, 58, 123456, tzinfo=UTC)},
    {
        "when": datetime.datetime(2026, 12, 5, 21, 59, 58, tzinfo=KYIV),
        "day": datetime.date(2026, 1, 2),
    },
    {"at": datetime.time(10, 30, 1, 5), "naive": datetime.datetime(2026, 1, 1, 0, 0)},
    {"lasted": datetime.timedelta(seconds=3, microseconds=5)},
    {"id": uuid.UUID(int=12345), "price": decimal.Decimal("1.10")},
    {"text": gettext_lazy("The game was aborted: nobody wins.")},
    {
        "floats": [
            0.1,
            -0.0,
            1.0,
            3.0,
            1e16,
            0.0001,
            123456789.125,
            2.5e-300,
            1.7976931348623157e308,
        ]
    },
    {"ints": [0, -1, 2**63 - 1, -(2**63)]},
    {"huge": 2**70},  # past orjson's 64 bits: DRF's renderer writes it
    {1: "one", 2: "two"},  # keys that are not strings, as json writes them
    {
        "separators": "a\u2028b\u2029c",
        "unicode": "Ελληνικά, Українська, Hrvatski, Русский",
        "nul": "\x00",
    },
    {"nested": [{"a": [1, [2, [3]]]}, (4, 5), [], {}], "none": None, "yes": True, "no": False},
    [],
    "a string",
    7,
]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_is_written_as_drfs_renderer_writes_it(value: Any) -> None:
    assert JSONRenderer().render(value) == renderers.JSONRenderer().render(value)
    assert ProblemJSONRenderer().render(value) == renderers.JSONRenderer().render(value)


def test_a_float_under_a_ten_thousandth_is_the_same_number_in_its_shortest_form() -> None:
    tiny = [1e-5, 3.25e-7, -4e-10]
    written = JSONRenderer().render(tiny)
    assert written == b"[0.00001,3.25e-7,-4e-10]"  # DRF's: [1e-05,3.25e-07,-4e-10]
    assert json.loads(written) == json.loads(renderers.JSONRenderer().render(tiny)) == tiny


def test_an_indented_answer_is_drfs() -> None:
    value = {"a": [1, 2], "b": {"c": None}}
    indented = JSONRenderer().render(value, "application/json; indent=2")
    assert indented == renderers.JSONRenderer().render(value, "application/json; indent=2")
    assert b"\n  " in indented


def test_no_content_is_no_bytes() -> None:
    assert JSONRenderer().render(None) == b""


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_whole_answers_are_written_as_drfs_renderer_writes_them(
    make_client: MakeClient, kind: str
) -> None:
    client = make_client()
    game = api_game(client, kind, ["me", "computer"])
    answers = [client.get(game_url(game["id"])), client.get(game_url(game["id"], "events/"))]
    roll = {"type": "roll"}
    answers.append(client.post(game_url(game["id"], "moves/"), roll, format="json"))
    answers.append(client.post(game_url(game["id"], "moves/"), {"type": "nonsense"}, format="json"))
    answers.append(client.get("/api/v1/games/"))
    for answer in answers:
        assert answer.status_code in (200, 201, 400), answer.content
        assert answer.content == renderers.JSONRenderer().render(answer.data)
