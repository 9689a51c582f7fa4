"""Moderating games through the admin's own views (a staff member signed in, CSRF checks on, the
reason page in between): abort, adjudicate (a winner or a draw), each through the one move path
(the staff's event in the game's log), with the reason in the admin's log; refusals change
nothing and log nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.utils import timezone

from games.ending import game_resign
from games.models import Game, GameEvent, GameStatus
from games.tournaments.models import TournamentGame
from games.tournaments.services import tournament_register, tournament_start
from players.models import Player, RatingChange
from tests.api.test_schema_types import check, components  # noqa: F401  (a fixture)
from tests.factories import (
    account,
    api_client,
    api_game,
    game_url,
    grant,
    new_game,
    new_tournament,
    scored_turn,
)
from tests.operations.staff_browser import StaffBrowser

pytestmark = pytest.mark.django_db

GAMES = "/admin/games/game/"


@pytest.fixture
def staff() -> StaffBrowser:
    player = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    return StaffBrowser(player, "root-password-1")


@pytest.fixture
def bob() -> Player:
    return account("bob")


def rated(ann: Player, bob: Player, kind: str = "yatzy") -> Game:
    """A rated game of two in which both have moved (too late for a player's abort)."""
    game = new_game(ann, kind, ["me", "open"], joiners=[bob], rated=True)
    if kind == "yatzy":
        game = scored_turn(scored_turn(game, ann), bob)
    return game


def last_events(game: Game, n: int) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game).order_by("-seq")[:n])[::-1]


def entry(game: Game) -> LogEntry:
    return LogEntry.objects.get(object_id=str(game.pk))


def test_abort_asks_a_reason_then_calls_the_game_off_through_the_move_path(
    staff: StaffBrowser, ann: Player, bob: Player
) -> None:
    game = rated(ann, bob)
    asked = staff.ask(GAMES, "abort", [game.pk])
    assert str(game.pk).encode() in asked.content
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE  # nothing done yet
    blank = staff.act(GAMES, "abort", [game.pk], reason="")
    assert blank.status_code == 200 and b"errorlist" in blank.content
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE

    done = staff.act(GAMES, "abort", [game.pk], reason="players colluding")
    assert done.status_code == 302
    after = Game.objects.get(pk=game.pk)
    assert after.status == GameStatus.ABORTED and after.version == game.version + 1
    (event,) = last_events(after, 1)
    assert (event.type, event.data["seat"], event.actor_id) == (
        "game_aborted",
        None,  # no seat: the staff called it off
        staff.player.pk,
    )
    assert event.data["server_seed"]  # revealed, as at any game's end
    assert not RatingChange.objects.filter(game=game).exists()  # nothing rated
    logged = entry(game)
    assert logged.user_id == staff.player.pk and logged.action_flag == CHANGE
    assert logged.change_message == "Aborted: players colluding"


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_adjudicate_names_the_winner_the_game_finishes_rated_and_the_answer_says_so(
    staff: StaffBrowser, ann: Player, bob: Player, kind: str
) -> None:
    game = rated(ann, bob, kind)
    asked = staff.ask(GAMES, "adjudicate", [game.pk])
    assert b'name="winner"' in asked.content and b"Seat 2 wins (bob)" in asked.content
    done = staff.act(GAMES, "adjudicate", [game.pk], winner="1", reason="ann's connection abuse")
    assert done.status_code == 302
    after = Game.objects.get(pk=game.pk)
    assert after.status == GameStatus.FINISHED
    adjudicated, finished = last_events(after, 2)
    assert adjudicated.data == {"type": "game_adjudicated", "winner": 1}
    assert adjudicated.actor_id == staff.player.pk
    assert finished.type == "game_finished" and finished.data["places"] == [2, 1]
    assert [seat.place for seat in after.seats.order_by("index")] == [2, 1]
    delta = {c.player.username: c.rating_after - c.rating_before
             for c in RatingChange.objects.filter(game=game)}  # fmt: skip
    assert delta["bob"] > 0 > delta["ann"]
    assert entry(game).change_message == "Adjudicated, seat 2 wins: ann's connection abuse"

    # The game answer and its log, as a player sees them.
    viewer = api_client()
    answer = viewer.ok("get", game_url(str(game.pk)))
    assert answer["status"] == "finished"
    assert answer["state"]["adjudicated"] is True and answer["state"]["aborted"] is False
    assert answer["state"]["result"]["winners"] == [1]
    events = viewer.ok("get", game_url(str(game.pk), "events/"))["events"]
    shown = next(event for event in events if event["type"] == "game_adjudicated")
    assert shown["data"] == {"type": "game_adjudicated", "winner": 1}
    assert shown["messages"][0]["code"] == "game_adjudicated"


def test_adjudicate_a_draw(staff: StaffBrowser, ann: Player, bob: Player) -> None:
    game = rated(ann, bob)
    done = staff.act(GAMES, "adjudicate", [game.pk], winner="draw", reason="both disconnected")
    assert done.status_code == 302
    (finished,) = last_events(game, 1)
    assert finished.data["places"] == [1, 1]
    assert entry(game).change_message == "Adjudicated, a draw: both disconnected"


def refused(staff: StaffBrowser, action: str, game: Game, **fields: Any) -> list[str]:
    version = Game.objects.get(pk=game.pk).version
    done = staff.act(GAMES, action, [game.pk], reason="x", **fields)
    assert done.status_code == 302
    assert Game.objects.get(pk=game.pk).version == version  # no event
    assert not LogEntry.objects.filter(object_id=str(game.pk)).exists()
    return staff.messages(done)


def test_a_finished_game_is_neither_aborted_nor_decided_again(
    staff: StaffBrowser, ann: Player, bob: Player
) -> None:
    game = rated(ann, bob)
    staff.act(GAMES, "abort", [game.pk], reason="first")
    LogEntry.objects.all().delete()
    assert refused(staff, "abort", game) == [f"{game.pk}: The game is over."]
    assert refused(staff, "adjudicate", game, winner="0") == [f"{game.pk}: The game is over."]


def test_a_seat_that_left_cannot_be_named_the_winner(staff: StaffBrowser, ann: Player) -> None:
    cara, dan = account("cara"), account("dan")
    game = new_game(ann, "yatzy", ["me", "open", "open"], joiners=[cara, dan])
    game_resign(game_id=game.pk, player=cara)
    LogEntry.objects.all().delete()
    words = "Only a seat still playing can be named the winner."
    assert refused(staff, "adjudicate", game, winner="1") == [f"{game.pk}: {words}"]


def test_a_tournament_game_is_decided_not_aborted(staff: StaffBrowser, organiser: Player) -> None:
    cup = new_tournament(organiser)
    for name in ("p1", "p2"):
        tournament_register(tournament_id=cup.pk, player=account(name))
    assert tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(hours=2))
    game = TournamentGame.objects.get(round__tournament=cup).game
    words = "A tournament game cannot be aborted: resign instead."
    assert refused(staff, "abort", game) == [f"{game.pk}: {words}"]


def test_the_public_move_path_refuses_the_staff_s_commands() -> None:
    client = api_client()
    game = api_game(client)
    for command in ({"type": "adjudicate", "winner": 0}, {"type": "staff_abort"}):
        answer = client.post(game_url(game["id"], "moves/"), command, format="json")
        assert (answer.status_code, answer.json()["code"]) == (400, "ending_move")


@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_the_staff_s_games_and_events_are_their_schemas(
    staff: StaffBrowser,
    ann: Player,
    bob: Player,
    components: dict[str, Any],  # noqa: F811
    kind: str,
) -> None:
    """The game answer, its events page and each event's data (the stream's frames are the same
    ``GameEvent``) validate against the schema, for an adjudicated and a staff-aborted game."""
    decided, aborted = rated(ann, bob, kind), rated(ann, bob, kind)
    staff.act(GAMES, "adjudicate", [decided.pk], winner="draw", reason="x")
    staff.act(GAMES, "abort", [aborted.pk], reason="x")
    viewer = api_client()
    for game in (decided, aborted):
        check(components, "Game", viewer.ok("get", game_url(str(game.pk))))
        page = viewer.ok("get", game_url(str(game.pk), "events/"))
        check(components, "EventPage", page)
        for event in page["events"]:
            check(components, "EventData", event["data"])
    types = {e.type for e in GameEvent.objects.filter(game__in=[decided, aborted])}
    assert {"game_adjudicated", "game_finished", "game_aborted"} <= types


def test_the_changelist_is_no_oracle_for_a_running_game_s_seed(ann: Player, bob: Player) -> None:
    # A moderator who may only view games tries the regex attack: a filter on the seed that the
    # page would answer with or without the game, one hex digit at a time.
    viewer = grant(
        account("viewer", password="viewer-password-1", is_staff=True), "games.view_game"
    )
    browser = StaffBrowser(viewer, "viewer-password-1")
    game = new_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    seed = Game.objects.get(pk=game.pk).server_seed
    assert seed  # a running game with fair dice: the secret to keep
    wrong = "0" if seed[0] != "0" else "1"
    answers = []
    for guess in (seed[:2], wrong + seed[1]):
        for lookup in ("server_seed__regex", "server_seed__startswith", "server_seed"):
            page = browser.client.get(GAMES, {"id": str(game.pk), lookup: f"^{guess}"})
            answers.append((page.status_code, listed(page)))
    # Every guess is refused alike: nothing tells a right one from a wrong one.
    assert set(answers) == {(400, None)}
    # The page itself still lists the game.
    assert listed(browser.client.get(GAMES, {"id": str(game.pk)})) == 1


def listed(page: Any) -> int | None:
    """How many games the changelist lists (None: no changelist, the page was refused)."""
    changelist = page.context["cl"] if page.status_code == 200 else None
    return None if changelist is None else int(changelist.result_count)
