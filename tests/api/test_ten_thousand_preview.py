from __future__ import annotations

import pytest

from tests.doubles import ScriptedDice
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db


def test_preview_scores_a_selection_without_recording_it(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    ann = make_client()
    game = api_game(ann, "ten_thousand")
    dice.push((1, 5, 3, 3, 6, 2))
    ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
    version = ann.ok("get", game_url(game["id"]))["version"]
    preview = game_url(game["id"], "preview/")

    both = ann.ok("get", preview + "?keep=0,1")
    assert both["valid"] and both["points"] == 150 and both["turn_points"] == 150
    assert both["next_roll_dice"] == 4
    assert both["farkle_risk"] == pytest.approx(0.15741, abs=1e-5)
    bad = ann.ok("get", preview + "?keep=0,5")
    assert not bad["valid"] and bad["farkle_risk"] is None
    assert ann.ok("get", preview + "?keep=")["valid"] is False
    response = ann.get(preview + "?keep=a")
    assert response.status_code == 400 and response.json()["code"] == "invalid_dice_indices"
    assert ann.ok("get", game_url(game["id"]))["version"] == version


def test_preview_is_for_ten_thousand_only(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann, start=False)
    response = ann.get(game_url(game["id"], "preview/") + "?keep=0")
    assert response.status_code == 400
    assert response.json()["code"] == "preview_not_available"
