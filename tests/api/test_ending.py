"""Every game can end (issue 11, part 1), over HTTP: resign, abort, claim, leave, cancel, expiry.

A resigned or claimed game finishes with places and rates them like any finished game; an aborted
one ends with no result and rates nothing. Each refusal has its stable code.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import Settings

from games import ending
from games.models import Game, GameStatus
from games.tournaments.models import TournamentGame
from games.tournaments.services import tournament_advance, tournament_register, tournament_start
from players.models import Player, RatingChange
from tests.doubles import ScriptedDice
from tests.factories import (
    Client,
    MakeClient,
    api_game,
    game_url,
    new_game,
    new_tournament,
    organiser,
)

pytestmark = pytest.mark.django_db


def player(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def rated_game(kind: str, clients: list[Client], **fields: Any) -> str:
    """A rated game of these clients' accounts (rated games are made by the server: tournaments,
    and matchmaking to come), started; its id."""
    people = [player(client) for client in clients]
    seats = ["me", *["open"] * (len(people) - 1)]
    game = new_game(people[0], kind, seats, joiners=people[1:], rated=True, **fields)
    return str(game.pk)


def refused(client: Client, url: str, status: int, method: str = "post", data: Any = None) -> str:
    response = getattr(client, method)(url, data, format="json")
    assert response.status_code == status, response.json()
    return str(response.json()["code"])


def changes(game_id: str) -> dict[str, float]:
    """Each account's rating change in the game."""
    return {
        change.player.username: change.rating_after - change.rating_before
        for change in RatingChange.objects.filter(game_id=game_id).select_related("player")
    }


def yatzy_turn(client: Client, game_id: str, box: str) -> dict[str, Any]:
    client.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    scored: dict[str, Any] = client.ok(
        "post", game_url(game_id, "moves/"), {"type": "score", "box": box}, status=201
    )
    return scored


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_a_resigned_game_ends_the_other_seat_winning_and_is_rated(
    make_client: MakeClient, kind: str
) -> None:
    ann, bob = make_client(), make_client()
    game_id = rated_game(kind, [ann, bob])
    moved = bob.ok("post", game_url(game_id, "resign/"), status=201)  # not even his turn
    assert [event["type"] for event in moved["events"]] == ["seat_left", "game_finished"]
    assert moved["events"][0]["data"] == {"type": "seat_left", "seat": 1, "reason": "resigned"}
    assert moved["events"][0]["messages"][0]["code"] == "seat_left"
    game = ann.ok("get", game_url(game_id))
    assert game["status"] == "finished"
    assert game["state"]["result"]["winners"] == [0]
    assert [seat["place"] for seat in game["seats"]] == [1, 2]
    delta = changes(game_id)
    assert delta[ann.username] > 0 > delta[bob.username]
    assert refused(bob, game_url(game_id, "resign/"), 409) == "game_finished"


def test_in_a_larger_game_the_resigner_drops_out_and_play_goes_on(make_client: MakeClient) -> None:
    ann, bob, cara = make_client(), make_client(), make_client()
    game_id = rated_game("yatzy", [ann, bob, cara])
    yatzy_turn(ann, game_id, "chance")
    game = bob.ok("post", game_url(game_id, "resign/"), status=201)["game"]
    assert game["status"] == "active" and game["state"]["out"] == [1]
    assert game["turn_seat"] == 2  # bob's turn passed on
    assert refused(bob, game_url(game_id, "resign/"), 409) == "seat_out"
    game = yatzy_turn(cara, game_id, "chance")["game"]
    assert game["turn_seat"] == 0  # round 2 skips bob
    assert game["state"]["round"] == 2
    moved = cara.ok("post", game_url(game_id, "resign/"), status=201)
    assert moved["game"]["status"] == "finished"
    # Ann, the one left, wins; cara left after bob: second, bob third.
    assert [seat["place"] for seat in moved["game"]["seats"]] == [1, 3, 2]
    delta = changes(game_id)
    assert delta[ann.username] > 0 > delta[bob.username]
    assert delta[bob.username] < delta[cara.username]


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_an_aborted_game_has_no_result_and_rates_nothing(
    make_client: MakeClient, dice: ScriptedDice, kind: str
) -> None:
    ann, bob = make_client(), make_client()
    game_id = rated_game(kind, [ann, bob])
    moves = game_url(game_id, "moves/")
    moved = bob.ok("post", game_url(game_id, "abort/"), status=201)  # no dice thrown yet
    assert [event["type"] for event in moved["events"]] == ["game_aborted"]
    game = bob.ok("get", game_url(game_id))
    assert (game["status"], game["state"]["aborted"], game["state"]["result"]) == (
        "aborted",
        True,
        None,
    )
    assert all(seat["place"] is None for seat in game["seats"])
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    assert refused(bob, moves, 409, data={"type": "roll"}) == "game_finished"


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_a_bad_first_throw_is_no_free_reroll(
    make_client: MakeClient, dice: ScriptedDice, kind: str
) -> None:
    # One throw by one seat and the game can only be resigned: rated, a loss.
    ann, bob = make_client(), make_client()
    game_id = rated_game(kind, [ann, bob])
    dice.push((1, 1, 2, 3, 4) if kind == "yatzy" else (2, 2, 3, 3, 4, 6))
    ann.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    for who in (ann, bob):
        assert refused(who, game_url(game_id, "abort/"), 409) == "abort_too_late"
    ann.ok("post", game_url(game_id, "resign/"), status=201)
    assert changes(game_id)[ann.username] < 0


def test_abort_too_late_and_never_in_a_tournament(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    game_id = rated_game("yatzy", [ann, bob])
    yatzy_turn(ann, game_id, "chance")
    bob.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    assert refused(ann, game_url(game_id, "abort/"), 409) == "abort_too_late"
    stranger = make_client()
    assert refused(stranger, game_url(game_id, "abort/"), 403) == "not_a_seat_holder"

    cup = new_tournament(
        organiser(), name="Cup", starts_at=timezone.now() + timedelta(minutes=5),
        computers=["casual"], rated=False,
    )  # fmt: skip
    tournament_register(tournament_id=cup.pk, player=player(ann))
    tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(minutes=6))
    cup_game = Game.objects.get(seats__player=player(ann), tournament_game__isnull=False)
    assert refused(ann, game_url(str(cup_game.pk), "abort/"), 409) == "tournament_game"


def test_a_claimed_game_after_the_grace_time_is_won_and_rated(
    make_client: MakeClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CLAIM_GRACE_SECONDS = 300
    ann, bob = make_client(), make_client()
    game_id = rated_game("yatzy", [ann, bob])
    claim = game_url(game_id, "claim/")
    assert refused(bob, claim, 409) == "claim_too_early"  # ann, to play, has just begun
    assert refused(ann, claim, 409) == "not_claimable"  # her own turn
    # Marking boxes keeps a seat idle: it buys no time against a claim.
    ann.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    ann.ok("post", game_url(game_id, "moves/"), {"type": "select", "box": "chance"}, status=201)
    rolled_at = Game.objects.get(pk=game_id).events.get(seq=2).created_at
    later = rolled_at + timedelta(seconds=301)
    monkeypatch.setattr("games.ending.timezone.now", lambda: later)
    moved = bob.ok("post", claim, status=201)
    assert [event["type"] for event in moved["events"]] == ["seat_left", "game_finished"]
    assert moved["events"][0]["data"] == {"type": "seat_left", "seat": 0, "reason": "claimed"}
    assert [seat["place"] for seat in moved["game"]["seats"]] == [2, 1]
    delta = changes(game_id)
    assert delta[bob.username] > 0 > delta[ann.username]


def test_a_claim_in_a_larger_game_drops_the_idle_seat(
    make_client: MakeClient, settings: Settings
) -> None:
    settings.CLAIM_GRACE_SECONDS = 0
    ann, bob, cara = make_client(), make_client(), make_client()
    game_id = rated_game("ten_thousand", [ann, bob, cara])
    game = cara.ok("post", game_url(game_id, "claim/"), status=201)["game"]
    assert game["status"] == "active" and game["state"]["out"] == [0]
    assert game["turn_seat"] == 1
    assert refused(ann, game_url(game_id, "claim/"), 409) == "seat_out"


def test_a_computer_s_turn_is_never_claimed(make_client: MakeClient, settings: Settings) -> None:
    settings.CLAIM_GRACE_SECONDS = 0
    ann = make_client()
    game = api_game(ann, "yatzy", [{"type": "computer"}, "me"])
    assert refused(ann, game_url(game["id"], "claim/"), 409) == "not_claimable"


def test_the_ending_moves_have_their_own_endpoints(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    for move in ("resign", "claim", "abort", "time_out"):
        response = ann.post(game_url(game["id"], "moves/"), {"type": move}, format="json")
        assert response.status_code == 400 and response.json()["code"] == "ending_move", move


def test_leave_and_cancel_an_open_game(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    game = api_game(ann, "yatzy", ["me", "open"], joiners=[bob], start=False)
    url = game_url(game["id"])
    game = bob.ok("post", url + "leave/")
    assert game["seats"][1]["open"] is True
    assert refused(bob, url + "leave/", 403) == "not_a_seat_holder"
    assert refused(ann, url + "leave/", 409) == "creator_cannot_leave"
    assert refused(bob, url, 403, method="delete") == "not_creator"
    response = ann.delete(url)
    assert response.status_code == 204
    assert ann.get(url).status_code == 404

    started = api_game(ann)
    assert refused(ann, game_url(started["id"]), 409, method="delete") == "game_not_open"
    assert refused(ann, game_url(started["id"], "leave/"), 409) == "game_not_open"


def test_open_games_expire(make_client: MakeClient, settings: Settings) -> None:
    settings.OPEN_GAME_TTL_HOURS = 24
    ann = make_client()
    old = api_game(ann, "yatzy", ["me", "open"], start=False)
    fresh = api_game(ann, "yatzy", ["me", "open"], start=False)
    started = api_game(ann)
    Game.objects.filter(pk=old["id"]).update(created_at=timezone.now() - timedelta(hours=25))
    Game.objects.filter(pk=started["id"]).update(created_at=timezone.now() - timedelta(hours=25))
    assert ending.open_games_expire() == 1
    assert ann.get(game_url(old["id"])).status_code == 404
    assert ann.get(game_url(fresh["id"])).status_code == 200
    assert ann.get(game_url(started["id"])).status_code == 200


def test_a_resigned_tournament_game_finishes_and_the_tournament_goes_on(
    make_client: MakeClient,
) -> None:
    ann = make_client()
    cup = new_tournament(
        organiser(), name="Cup", starts_at=timezone.now() + timedelta(minutes=5),
        computers=["casual"], rated=True,
    )  # fmt: skip
    tournament_register(tournament_id=cup.pk, player=player(ann))
    tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(minutes=6))
    table = TournamentGame.objects.get(round__tournament=cup)
    ann.ok("post", game_url(str(table.game_id), "resign/"), status=201)
    table.game.refresh_from_db()
    assert table.game.status == GameStatus.FINISHED
    tournament_advance(tournament_id=cup.pk)
    cup.refresh_from_db()
    assert cup.status == "finished"  # a round robin of two: its only game is decided
    rows = ann.ok("get", f"/api/v1/tournaments/{cup.pk}/standings/")
    by_wins = {row["wins"]: row for row in rows}
    assert by_wins[0]["losses"] == 1 and by_wins[1]["losses"] == 0
    assert by_wins[0]["entrant"]["computer_level"] in ("", None)  # ann lost, the computer won
    assert changes(str(table.game_id))[ann.username] < 0


def test_with_a_turn_clock_the_clock_decides_not_a_claim(
    make_client: MakeClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A claim sent the moment the clock runs out would race the stand-in for the win: with a
    # clock the stand-in plays the timed-out turn, and only a second one in a row leaves.
    settings.CLAIM_GRACE_SECONDS = 0
    ann, bob = make_client(), make_client()
    game_id = rated_game("yatzy", [ann, bob], turn_clock_seconds=30)
    started = Game.objects.get(pk=game_id).events.get(seq=1).created_at
    for idle in (29, 31, 3600):
        monkeypatch.setattr(
            "games.ending.timezone.now", lambda idle=idle: started + timedelta(seconds=idle)
        )
        assert refused(bob, game_url(game_id, "claim/"), 409) == "not_claimable"
    assert Game.objects.get(pk=game_id).status == GameStatus.ACTIVE
