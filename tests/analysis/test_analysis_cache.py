"""A game's folds are kept per game version (security round two, 2; ``games.analysis.fold_cache``):
the
analysis, its picture and a replay fold the log once, a new move makes a new version that is
folded afresh, the answer is made per request in its language with the seats' names as they are
now, and each answer has a strong ``ETag`` (``If-None-Match``: 304). What a request costs each
way: ``bench/analysis_cache.py`` (its smoke run: ``tests/bench/test_smoke.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.analysis import fold_cache
from games.analysis import reads as analysis
from games.kinds import kind_for
from games.models import Game
from players.models import Player
from tests.analysis.test_analysis_api import play
from tests.factories import Client, api_client, api_game, game_url

pytestmark = pytest.mark.django_db
HOTSEAT = {"type": "hotseat", "name": "Cleo"}


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every fold of a log the reads make: ``analysis`` and ``state``."""
    made: list[str] = []

    def counting(name: str, fold: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            made.append(name)
            return fold(*args, **kwargs)

        return counted

    monkeypatch.setattr(
        fold_cache, "analysis_folded", counting("analysis", fold_cache.analysis_folded)
    )
    monkeypatch.setattr(selectors, "game_state_at", counting("state", selectors.game_state_at))
    return made


def event_reads(queries: CaptureQueriesContext) -> int:
    return sum("games_gameevent" in query["sql"] for query in queries.captured_queries)


def finished_yatzy(client: Client) -> str:
    game = api_game(client, "yatzy", ["me", HOTSEAT])
    play(game["id"], client, {0: "optimal", 1: "casual"})
    return str(game["id"])


def test_the_second_analysis_and_its_picture_fold_nothing(folds: list[str]) -> None:
    ann = api_client("ann")
    gid = finished_yatzy(ann)
    first = ann.get(game_url(gid, "analysis/"))
    assert first.status_code == 200 and folds == ["analysis"]
    with CaptureQueriesContext(connection) as queries:
        again = ann.get(game_url(gid, "analysis/"))
        picture = ann.get(game_url(gid, "analysis.svg"))
    assert again.status_code == picture.status_code == 200
    assert folds == ["analysis"]  # the picture is drawn from the same kept fold
    assert event_reads(queries) == 0
    assert again.json() == first.json()
    assert again["Content-Type"] == "application/json"


def test_the_answer_written_from_the_kept_fold_is_the_whole_answer() -> None:
    """The head written now and the long lists written once make the answer ``body`` describes,
    in the request's language."""
    ann = api_client("ann")
    gid = finished_yatzy(ann)
    ann.get(game_url(gid, "analysis/"))  # kept
    answer = ann.get(game_url(gid, "analysis/"), HTTP_ACCEPT_LANGUAGE="fr")
    game = Game.objects.get(pk=gid)
    analyst = kind_for("yatzy").analyst
    assert analyst is not None
    from django.utils import translation

    with translation.override("fr"):
        expected = analysis.body(
            game, analyst, analysis.game_kept(game, analyst), analysis.seat_names(game)
        )
    assert json.loads(answer.content) == expected
    assert list(json.loads(answer.content)) == [
        "game", "kind", "finished", "method", "seats", "turns", "decisions", "rolls",
    ]  # fmt: skip
    with translation.override("en"):
        english = analysis.head(game, analyst, analysis.game_kept(game, analyst), ["", ""])
    assert expected["method"]["luck"] != english["method"]["luck"]  # French, not English
    assert len(expected["rolls"]) >= 26 and expected["seats"][1]["name"] == "Cleo"


def test_a_new_move_is_a_new_version_folded_afresh(folds: list[str]) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", HOTSEAT])  # a casual game: analysed during play
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=3)
    url = game_url(game["id"], "analysis/")
    before = ann.ok("get", url)
    ann.ok("get", url)
    assert folds == ["analysis"]
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=1)
    after = ann.ok("get", url)
    assert folds == ["analysis", "analysis"]
    assert len(after["rolls"]) + len(after["decisions"]) > len(before["rolls"]) + len(
        before["decisions"]
    )
    # And the kept answer of the version before is never served for this one.
    assert ann.ok("get", url) == after


def test_an_analysis_shows_the_seats_names_as_they_are_now(folds: list[str]) -> None:
    ann, bob = api_client("ann"), api_client("bob")
    game = api_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    bob.ok("post", game_url(game["id"], "resign/"), status=201)
    url = game_url(game["id"], "analysis/")
    first = ann.get(url)
    assert [seat["name"] for seat in first.json()["seats"]] == ["ann", "bob"]
    bobs = Player.objects.get(username="bob").pk
    bob.ok("delete", "/api/v1/accounts/me/", {"password": "correct-horse-battery"}, status=204)
    renamed = ann.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert renamed.status_code == 200  # the names changed: so did the tag
    assert renamed["ETag"] != first["ETag"]
    names = [seat["name"] for seat in renamed.json()["seats"]]
    assert names == ["ann", str(Player.objects.get(pk=bobs).public_name)] and names[1] != "bob"
    assert folds == ["analysis"]  # the names are the request's, the fold the kept one


def test_the_tags_answer_304_until_the_game_moves_or_the_language_changes() -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", HOTSEAT])
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=2)
    for what in ("analysis/", "analysis.svg", "replay/"):
        url = game_url(game["id"], what)
        first = ann.get(url)
        tag = first["ETag"]
        assert tag.startswith('"') and "Accept-Language" in first["Vary"]
        unchanged = ann.get(url, HTTP_IF_NONE_MATCH=tag)
        assert unchanged.status_code == 304 and unchanged["ETag"] == tag
        assert not unchanged.content
        french = ann.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="fr")
        assert french.status_code == 200 and french["ETag"] != tag
    tags = {what: ann.get(game_url(game["id"], what))["ETag"] for what in ("analysis/", "replay/")}
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=1)
    for what, tag in tags.items():
        moved = ann.get(game_url(game["id"], what), HTTP_IF_NONE_MATCH=tag)
        assert moved.status_code == 200 and moved["ETag"] != tag


def test_a_tag_is_never_a_way_past_a_refusal() -> None:
    ann = api_client("ann")
    body = {"kind": "yatzy", "seats": [{"type": "me"}], "assistance": False}
    unhelped = ann.ok("post", "/api/v1/games/", body, status=201)
    ann.ok("post", game_url(unhelped["id"], "start/"))
    refused = ann.get(game_url(unhelped["id"], "analysis/"), HTTP_IF_NONE_MATCH="*")
    assert refused.status_code == 403 and refused.json()["code"] == "analysis_after_the_game"


def test_a_replay_replays_each_state_once(folds: list[str]) -> None:
    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", HOTSEAT])
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=4)
    url = game_url(game["id"], "replay/")
    latest = ann.ok("get", url)
    with CaptureQueriesContext(connection) as queries:
        assert ann.ok("get", url) == latest
    assert folds == ["state"] and event_reads(queries) == 0
    middle = ann.ok("get", url + "?at=2")
    assert ann.ok("get", url + "?at=2") == middle
    assert folds == ["state", "state"]
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=1)
    newer = ann.ok("get", url)
    assert newer["at"] == latest["at"] + 1 and newer["state"] != latest["state"]
    assert folds == ["state", "state", "state"]
    # A state kept at an event stays that event's state; its answer says the game's version now.
    again = ann.ok("get", url + "?at=2")
    assert again["state"] == middle["state"] and again["version"] == newer["version"]
    assert folds == ["state", "state", "state"]
    refused = ann.get(url + f"?at={newer['version'] + 1}")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_seq"
    assert ann.ok("get", url + "?at=0")["state"] is None


def test_a_finished_games_folds_are_kept_for_a_month(monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[int] = []
    real_set = cache.set

    def spy(key: str, value: Any, timeout: Any = None, **kwargs: Any) -> Any:
        if key.startswith("fold:"):
            kept.append(timeout)
        return real_set(key, value, timeout, **kwargs)

    ann = api_client("ann")
    game = api_game(ann, "yatzy", ["me", HOTSEAT])
    play(game["id"], ann, {0: "casual", 1: "casual"}, moves=2)
    monkeypatch.setattr(cache, "set", spy)
    ann.ok("get", game_url(game["id"], "analysis/"))
    play(game["id"], ann, {0: "casual", 1: "casual"})
    ann.ok("get", game_url(game["id"], "analysis/"))
    ann.ok("get", game_url(game["id"], "replay/"))
    assert kept == [
        fold_cache.IN_PLAY_SECONDS, fold_cache.FINISHED_SECONDS, fold_cache.FINISHED_SECONDS,
    ]  # fmt: skip
    assert fold_cache.FINISHED_SECONDS == 30 * 24 * 3600
