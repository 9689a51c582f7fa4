"""``GET players/{username}/stats/``: games, wins, average score, luck and accuracy per kind, and
the rating history for a chart."""

from __future__ import annotations

from statistics import mean
from typing import Any

import pytest

from games.kinds import kind_for
from games.models import Game
from games.services import game_move
from players.models import Player
from tests.analysis.test_analysis_api import play
from tests.factories import Client, account, api_client, api_game, game_url, new_game

pytestmark = pytest.mark.django_db


def rated_game(ann: Player, bob: Player) -> Game:
    """A rated yatzy game of two accounts, played to the end by the casual computer."""
    game = new_game(ann, "yatzy", ["me", "open"], joiners=[bob], rated=True)
    engine, computer = kind_for("yatzy").engine, kind_for("yatzy").computer
    while (game := Game.objects.get(pk=game.pk)).status != "finished":
        assert game.state is not None
        state = engine.state_from_wire(game.state)
        actor = ann if state.current_seat == 0 else bob
        game_move(game_id=game.pk, command=computer(state, "casual"), actor=actor)
    return game


def anns_seat(client: Client, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann's seat (seat 0) in the game answer and in its analysis."""
    answer = client.ok("get", game_url(game_id))
    analysis = client.ok("get", game_url(game_id, "analysis/"))
    return answer["seats"][0], analysis["seats"][0]


def test_a_players_record_luck_accuracy_and_rating_history() -> None:
    ann = api_client("ann")
    ids = []
    for _ in range(2):
        game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "Cleo"}])
        play(game["id"], ann, {0: "optimal", 1: "casual"})
        ids.append(game["id"])
    solo = api_game(ann, "ten_thousand", ["me"], options={"target": 5000})
    play(solo["id"], ann, {0: "classic"})
    unfinished = api_game(ann, "yatzy", ["me"])
    play(unfinished["id"], ann, {0: "optimal"}, moves=3)
    rated = rated_game(Player.objects.get(username="ann"), account("bob"))
    ids.append(str(rated.pk))

    seats = [anns_seat(ann, game_id) for game_id in ids]
    body = api_client().ok("get", "/api/v1/players/ann/stats/")
    yatzy, ten_thousand = body["kinds"]
    assert (yatzy["kind"], ten_thousand["kind"]) == ("yatzy", "ten_thousand")
    assert yatzy["games"] == 3  # the finished ones
    assert yatzy["wins"] == sum(seat["place"] == 1 for seat, _ in seats)
    assert yatzy["average_score"] == pytest.approx(
        mean(s["final_total"] for s, _ in seats), abs=0.01
    )
    assert yatzy["analysed_games"] == 3
    assert yatzy["average_luck"] == pytest.approx(mean(a["luck"] for _, a in seats), abs=0.01)
    assert yatzy["average_skill_loss"] == pytest.approx(
        mean(a["skill_loss"] for _, a in seats), abs=0.01
    )
    assert yatzy["average_accuracy"] == pytest.approx(
        mean(a["accuracy"] for _, a in seats), abs=1e-3
    )
    assert ten_thousand["games"] == 1
    assert ten_thousand["wins"] == 0  # a game alone wins nothing
    assert ten_thousand["analysed_games"] == 1
    history = body["rating_history"]
    assert [(point["kind"], point["game"]) for point in history] == [("yatzy", str(rated.pk))]
    assert set(history[0]) == {
        "kind", "game", "at", "rating_before", "rating_after", "deviation_after",
    }  # fmt: skip
    assert api_client().get("/api/v1/players/nobody/stats/").status_code == 404
