"""``GET games/{id}/analysis/``: a finished game for anyone, a game in play only where the
computer's help is (unrated, outside tournaments), for the moves made so far."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from games.kinds import kind_for
from games.models import Game
from players.models import Player
from tests.doubles import ScriptedDice
from tests.factories import Client, account, api_client, api_game, game_url, new_game

pytestmark = pytest.mark.django_db


def play(game_id: str, client: Client, levels: dict[int, str], moves: int | None = None) -> None:
    """Moves for every seat of ``client`` at the computer's ``levels``, to the end or ``moves``."""
    while moves is None or moves > 0:
        game = Game.objects.get(pk=game_id)
        if game.status == "finished":
            return
        kind = kind_for(game.kind)
        assert game.state is not None
        state = kind.engine.state_from_wire(game.state)
        assert state.current_seat is not None
        command = kind.computer(state, levels[state.current_seat])
        client.ok("post", game_url(game_id, "moves/"), command, status=201)
        moves = None if moves is None else moves - 1


def identity(seat: dict[str, Any]) -> float:
    return float(seat["expected_start"] + seat["luck"] - seat["skill_loss"])


def test_a_finished_yatzy_game_from_the_exact_table() -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "Cleo"}])
    play(game["id"], ann, {0: "optimal", 1: "casual"})
    body = Client().ok("get", game_url(game["id"], "analysis/"))  # anyone, once it is over
    assert body["finished"] is True
    assert set(body["method"]) == {"values", "luck", "skill_loss", "identity"}
    assert "254.48" in body["method"]["values"]
    optimal, casual = body["seats"]
    assert (optimal["name"], casual["name"]) == ("ann", "Cleo")
    for seat in body["seats"]:
        assert seat["expected_start"] == 254.48
        assert seat["final"] == pytest.approx(identity(seat), abs=0.03)
        assert seat["value_now"] == pytest.approx(seat["final"], abs=0.01)
    assert optimal["skill_loss"] == 0 and optimal["accuracy"] == 1
    assert casual["skill_loss"] > 0 and casual["accuracy"] < 1
    assert body["turns"] == []
    decision = body["decisions"][0]
    assert set(decision) == {
        "seq", "seat", "turn", "move", "best_move", "value", "best_value", "loss", "win_loss",
    }  # fmt: skip
    assert decision["win_loss"] is None  # a Dés 10 000 figure
    assert decision["move"]["type"] in ("roll", "score")
    assert len(body["rolls"]) >= 26
    assert {"seq", "seat", "turn", "before", "after", "luck"} == set(body["rolls"][0])


def test_a_finished_ten_thousand_game_counts_by_turns(dice: ScriptedDice) -> None:
    # Seeded dice, the same game every run: with the server's own, a game now and then was too
    # short for classic to make a losing decision.
    ann = api_client("ann")
    game = api_game(
        ann, "ten_thousand", ["me", {"type": "hotseat", "name": "Cleo"}], options={"target": 5000}
    )
    play(game["id"], ann, {0: "expert", 1: "classic"})
    body = ann.ok("get", game_url(game["id"], "analysis/"), HTTP_ACCEPT_LANGUAGE="fr")
    assert "551.55" in body["method"]["values"]
    for seat in body["seats"]:
        turns = [t for t in body["turns"] if t["seat"] == seat["seat"]]
        assert seat["expected_start"] == pytest.approx(551.554 * len(turns), abs=0.01)
        assert seat["final"] == pytest.approx(identity(seat), abs=0.03)
        assert seat["final"] == sum(t["points"] for t in turns)
    for turn in body["turns"]:
        assert turn["points"] == pytest.approx(
            turn["expected"] + turn["luck"] - turn["skill_loss"], abs=0.03
        )
    assert {d["move"]["type"] for d in body["decisions"]} <= {"roll", "bank"}
    # Two seats: the chance to win around each turn, from the exact game, to six decimals.
    chances = [(t["win_before"], t["win_after"]) for t in body["turns"]]
    assert all(0 <= before <= 1 and 0 <= after <= 1 for before, after in chances)
    assert body["turns"][0]["seat"] == 0 and chances[0][0] == 0.545865
    for (_, after), (before, _) in pairwise(chances):
        assert after == pytest.approx(1 - before, abs=1.1e-6)  # the other seat plays next
    # Each decision's loss in chance to win: none for the expert, who plays the exact game.
    losses = {
        seat: [d["win_loss"] for d in body["decisions"] if d["seat"] == seat] for seat in (0, 1)
    }
    assert all(loss >= 0 for loss in losses[0] + losses[1])
    assert max(losses[0]) == 0 and sum(losses[1]) > 0
    final = chances[-1][1]
    winner = body["turns"][-1]["seat"] == max(body["seats"], key=lambda s: s["final"])["seat"]
    assert final == (1.0 if winner else 0.0) or final == 0.5


def test_during_play_only_where_the_computer_may_help() -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", {"type": "hotseat", "name": "Cleo"}])
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=5)
    body = ann.ok("get", game_url(game["id"], "analysis/"))
    assert body["finished"] is False
    assert [seat["final"] for seat in body["seats"]] == [None, None]
    assert len(body["rolls"]) >= 3
    for seat in body["seats"]:
        assert seat["value_now"] == pytest.approx(identity(seat), abs=0.03)

    owner = Player.objects.get(username="ann")
    rated = new_game(owner, "yatzy", ["me", "open"], joiners=[account("bob")], rated=True)
    refused = ann.ok("get", game_url(str(rated.pk), "analysis/"), status=403)
    assert refused["code"] == "analysis_after_the_game"
    body = {"kind": "yatzy", "seats": [{"type": "me"}], "assistance": False}
    unhelped = ann.ok("post", "/api/v1/games/", body, status=201)
    ann.ok("post", game_url(unhelped["id"], "start/"))
    play(unhelped["id"], ann, {0: "casual"}, moves=2)
    refused = ann.ok("get", game_url(unhelped["id"], "analysis.svg"), status=403)
    assert refused["code"] == "analysis_after_the_game"
    play(unhelped["id"], ann, {0: "casual"})
    assert ann.ok("get", game_url(unhelped["id"], "analysis/"))["finished"] is True
    waiting = new_game(owner, "yatzy", ["me", "open"], start=False)
    refused = ann.ok("get", game_url(str(waiting.pk), "analysis/"), status=409)
    assert refused["code"] == "game_not_started"
