"""``GET games/{id}/analysis.svg``: valid SVG (parsed as XML here), one line per seat over the
game, each seat's luck and skill loss beside it, every label in the request's language."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from tests.analysis.test_analysis_api import play
from tests.factories import api_client, api_game, game_url

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def parsed(content: bytes) -> ET.Element:
    root = ET.fromstring(content)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_a_yatzy_game_as_expected_final_scores_round_by_round() -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "<Cléo & co>"}])
    play(game["id"], ann, {0: "optimal", 1: "casual"})
    response = ann.get(game_url(game["id"], "analysis.svg"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Language"] == "fr"
    root = parsed(response.content)
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("data-seat") for line in lines] == ["0", "1"]
    for line in lines:
        points = line.get("points", "").split()
        assert len(points) == 14  # the start, then each of the 13 rounds
    words = texts(root)
    assert "ann" in words and "<Cléo & co>" in words
    with translation.override("fr"):
        assert translation.gettext("Expected final score") in words
        assert translation.gettext("Round") in words
        luck = translation.gettext("luck %(points)s").split("%")[0]
        skill = translation.gettext("skill loss %(points)s").split("%")[0]
    assert sum(w.startswith(luck) for w in words) == 2
    assert sum(w.startswith(skill) for w in words) == 2
    assert any(w.startswith(skill) and w.endswith("(100 %)") for w in words)  # the optimal seat
    title = root.find(f"{SVG}title")
    assert title is not None and "Yatzy" in (title.text or "")


def test_a_two_seat_ten_thousand_game_as_chances_to_win_turn_by_turn() -> None:
    ann = api_client("ann")
    game = api_game(
        ann, "ten_thousand", ["me", {"type": "hotseat", "name": "Cleo"}], options={"target": 5000}
    )
    play(game["id"], ann, {0: "expert", 1: "classic"})
    turns = ann.ok("get", game_url(game["id"], "analysis/"))["turns"]
    response = ann.get(game_url(game["id"], "analysis.svg"))
    root = parsed(response.content)
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    for line in lines:
        assert len(line.get("points", "").split()) == len(turns) + 1
    words = texts(root)
    assert "Chance to win" in words and "Turn" in words
    assert "100 %" in words and "0 %" in words


def test_refusals_stay_json_for_an_image_request() -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", "open"], start=False)
    response = ann.get(game_url(game["id"], "analysis.svg"), HTTP_ACCEPT="image/svg+xml")
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_started"
