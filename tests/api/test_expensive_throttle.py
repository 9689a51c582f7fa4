"""The ``expensive`` throttle scope (security round two, 2): the reads that fold a game's log or
read many games (a game's analysis, its picture and its replay, a player's statistics) and the
account's export (asking for one, downloading it) count against ``THROTTLE_EXPENSIVE`` (30 a
minute by default) per account, else per address, in place of the ``user`` and ``anon`` rates."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.urls import resolve
from rest_framework.test import APIClient

from tests.analysis.test_analysis_api import play
from tests.doubles import throttle_rates
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

HOTSEAT = {"type": "hotseat", "name": "Cleo"}


def scope_of(path: str, method: str = "GET") -> str | None:
    view = resolve(path).func.view_class()  # type: ignore[attr-defined]
    view.request = type("Request", (), {"method": method})()
    scope: str | None = getattr(view, "throttle_scope", None)
    return scope


def test_the_expensive_reads_have_the_scope() -> None:
    game = "/api/v1/games/3f0c8b1e-0000-4000-8000-000000000000/"
    assert scope_of(game + "analysis/") == "expensive"
    assert scope_of(game + "analysis.svg") == "expensive"
    assert scope_of(game + "replay/") == "expensive"
    assert scope_of("/api/v1/players/ann/stats/") == "expensive"
    assert scope_of("/api/v1/accounts/me/export/", "POST") == "expensive"
    assert scope_of("/api/v1/accounts/me/export/download/") == "expensive"
    # Following an export is a row's read: the account's own rate.
    assert scope_of("/api/v1/accounts/me/export/") is None
    assert scope_of(game) is None and scope_of(game + "events/") is None


def test_the_rate_has_a_documented_default() -> None:
    framework: dict[str, Any] = settings.REST_FRAMEWORK
    assert framework["DEFAULT_THROTTLE_RATES"]["expensive"] == "30/min"


def test_the_expensive_reads_share_one_limit_per_address(
    make_client: MakeClient, anon: APIClient
) -> None:
    ann = make_client("ann")
    game = api_game(ann, "yatzy", ["me", HOTSEAT])
    play(game["id"], ann, {0: "optimal", 1: "casual"})
    with throttle_rates(expensive="3/min", anon="100/min"):
        statuses = [
            anon.get(game_url(game["id"], what)).status_code
            for what in ("analysis/", "analysis.svg", "replay/", "analysis/")
        ]
        assert statuses == [200, 200, 200, 429]
        refused = anon.get("/api/v1/players/ann/stats/")
        assert refused.status_code == 429 and refused.json()["code"] == "throttled"
        assert int(refused["Retry-After"]) > 0
        # The other reads keep their own rate.
        assert anon.get(game_url(game["id"])).status_code == 200
        # And an account counts on its own.
        assert ann.get(game_url(game["id"], "analysis/")).status_code == 200


def test_an_account_asking_for_its_export_counts_against_the_rate(
    make_client: MakeClient,
) -> None:
    ann = make_client("ann")
    with throttle_rates(expensive="1/min"):
        assert ann.post("/api/v1/accounts/me/export/").status_code == 202
        assert ann.post("/api/v1/accounts/me/export/").status_code == 429
        assert ann.get("/api/v1/accounts/me/export/download/").status_code == 429
        assert ann.get("/api/v1/accounts/me/export/").status_code == 200
