"""Tournaments, leaderboards and profiles over HTTP."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from games.models import Game, GameStatus
from games.timers import automation
from games.tournaments import services
from games.tournaments.models import Tournament, TournamentStatus
from players.models import Player
from tests.factories import Client, MakeClient, grant

pytestmark = pytest.mark.django_db

TOURNAMENTS = "/api/v1/tournaments/"


@pytest.fixture
def staff(make_client: MakeClient) -> Client:
    client = make_client("organiser")
    Player.objects.filter(username="organiser").update(is_staff=True)
    grant(Player.objects.get(username="organiser"), "tournaments.add_tournament")
    return client


def schedule(staff: Client, **fields: object) -> dict[str, Any]:
    body = {
        "name": "Friday cup",
        "kind": "yatzy",
        "format": "round_robin",
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        "computers": ["casual", "optimal"],
        "turn_clock_seconds": 1,
        **fields,
    }
    scheduled: dict[str, Any] = staff.ok("post", TOURNAMENTS, body, status=201)
    return scheduled


def test_admins_schedule_players_register_and_withdraw(
    staff: Client, make_client: MakeClient, anon: APIClient
) -> None:
    tournament = schedule(staff)
    assert tournament["status"] == "scheduled"
    assert [e["computer_level"] for e in tournament["entrants"]] == ["casual", "optimal"]
    url = f"{TOURNAMENTS}{tournament['id']}/"

    ann = make_client("ann")
    refused = ann.post(TOURNAMENTS, {"name": "x"}, format="json")
    assert refused.status_code == 403
    assert anon.post(url + "register/").status_code == 401

    entrant = ann.ok("post", url + "register/", status=201)
    assert entrant["username"] == "ann"
    again = ann.post(url + "register/")
    assert again.status_code == 409 and again.json()["code"] == "already_registered"
    assert len(ann.ok("get", url)["entrants"]) == 3
    ann.ok("post", url + "withdraw/", status=204)
    assert len(ann.ok("get", url)["entrants"]) == 2
    ann.ok("post", url + "register/", status=201)

    listed = anon.get(TOURNAMENTS + "?upcoming=true&kind=yatzy").json()["results"]
    assert [t["id"] for t in listed] == [tournament["id"]]
    assert anon.get(TOURNAMENTS + "?status=finished").json()["results"] == []


def test_standings_and_rounds_of_a_finished_tournament(
    staff: Client, make_client: MakeClient, anon: APIClient, settings: Settings
) -> None:
    tournament = schedule(staff, rated=True)
    ann = make_client("ann")
    url = f"{TOURNAMENTS}{tournament['id']}/"
    ann.ok("post", url + "register/", status=201)
    assert anon.get(url + "standings/").json() == []

    services.tournament_start(tournament_id=tournament["id"], now=timezone.now())
    later = timezone.now() + timedelta(days=1)
    for _ in range(30):
        for game in Game.objects.filter(status=GameStatus.ACTIVE):
            automation.run_until_idle(game.pk)
            while automation.sweep(now=later):  # ann is away: the clock plays her turns
                automation.run_until_idle(game.pk)
        services.tournament_advance(tournament_id=tournament["id"])
        if Tournament.objects.get(pk=tournament["id"]).status == TournamentStatus.FINISHED:
            break

    detail = anon.get(url).json()
    assert detail["status"] == "finished"
    standings = anon.get(url + "standings/").json()
    assert len(standings) == 3
    assert standings[0]["rank"] == 1
    assert sum(row["played"] for row in standings) == 6
    rounds = anon.get(url + "rounds/").json()
    assert len(rounds) == 3 and all(r["finished"] for r in rounds)
    assert all(len(r["byes"]) == 1 and len(r["games"]) == 1 for r in rounds)

    # Two rated games leave ann's rating provisional: on her profile, not yet on the board.
    assert anon.get("/api/v1/leaderboards/yatzy/").json() == []
    profile = anon.get("/api/v1/players/ann/").json()
    assert profile["ratings"][0]["kind"] == "yatzy"
    assert profile["ratings"][0]["games"] == 2 and profile["ratings"][0]["provisional"]
    settings.LEADERBOARD_MAX_DEVIATION = 350  # every rating listed: the board as it reads them
    board = anon.get("/api/v1/leaderboards/yatzy/").json()
    assert [row["username"] for row in board] == ["ann"]
    assert board[0]["games"] == 2
    assert profile["tournaments"][0]["tournament"] == tournament["id"]
    assert len(profile["games"]) == 2
    assert anon.get("/api/v1/leaderboards/chess/").json()["code"] == "unknown_kind"


def test_scheduling_refusals(staff: Client) -> None:
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    response = staff.post(
        TOURNAMENTS,
        {"name": "late", "kind": "yatzy", "format": "swiss", "starts_at": past},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "starts_at"
    future = (timezone.now() + timedelta(hours=1)).isoformat()
    response = staff.post(
        TOURNAMENTS,
        {"name": "no rounds", "kind": "yatzy", "format": "swiss", "starts_at": future},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "rounds_required"
    assert not Tournament.objects.exists()
