"""Moderating running tournaments through the admin's own views (a staff member signed in, CSRF
checks on, the reason page in between): pause (no round opens, the tick passes it by), resume,
cancel with its games in play aborted or left to finish; each with the reason in the admin's
log; refusals with their codes' words change nothing and log nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from games.followups import jobs
from games.models import Game, GameEvent, GameStatus
from games.staff import game_adjudicate
from games.tournaments.models import Tournament, TournamentGame, TournamentStatus
from games.tournaments.services import (
    tournament_advance,
    tournament_register,
    tournament_start,
    tournaments_tick,
)
from players.models import Player
from tests.factories import account, api_client, new_tournament
from tests.operations.staff_browser import StaffBrowser

pytestmark = pytest.mark.django_db

CUPS = "/admin/tournaments/tournament/"


@pytest.fixture
def staff() -> StaffBrowser:
    player = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    return StaffBrowser(player, "root-password-1")


@pytest.fixture
def running(organiser: Player) -> Tournament:
    """A round robin of three accounts, started: round 1, one table and a bye."""
    cup = new_tournament(organiser)
    for name in ("p1", "p2", "p3"):
        tournament_register(tournament_id=cup.pk, player=account(name))
    assert tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(hours=2))
    return Tournament.objects.get(pk=cup.pk)


def table(cup: Tournament, number: int = 1) -> Game:
    return TournamentGame.objects.get(round__tournament=cup, round__number=number).game


def logged(cup: Tournament) -> list[str]:
    entries = LogEntry.objects.filter(object_id=str(cup.pk)).order_by("pk")
    return [entry.change_message for entry in entries]


def test_a_paused_tournament_opens_no_round_until_it_resumes(
    staff: StaffBrowser, running: Tournament
) -> None:
    done = staff.act(CUPS, "pause", [running.pk], reason="server move")
    assert done.status_code == 302
    assert Tournament.objects.get(pk=running.pk).paused_at is not None
    url = f"/api/v1/tournaments/{running.pk}/"
    assert api_client().ok("get", url)["paused_at"] is not None  # the players see it held
    game = table(running)
    game_adjudicate(game_id=game.pk, staff=staff.player, winner=0)  # its games go on and end
    assert not tournament_advance(tournament_id=running.pk)
    tournaments_tick()
    assert Tournament.objects.get(pk=running.pk).current_round == 1  # nothing paired

    done = staff.act(CUPS, "resume", [running.pk], reason="moved")
    assert done.status_code == 302
    assert Tournament.objects.get(pk=running.pk).paused_at is None
    assert api_client().ok("get", url)["paused_at"] is None
    tournaments_tick()  # (the advance a resume queues, as beat's catch-up runs it)
    assert Tournament.objects.get(pk=running.pk).current_round == 2
    assert logged(running) == ["Paused: server move", "Resumed: moved"]


def test_pause_and_resume_refusals(staff: StaffBrowser, running: Tournament) -> None:
    scheduled = new_tournament(running.created_by, name="Later cup")
    cases = [
        ("resume", running, "This tournament is not paused."),
        ("pause", scheduled, "This tournament is not running."),
        ("resume", scheduled, "This tournament is not running."),
        ("cancel_running", scheduled, "This tournament is not running."),
    ]
    for action, cup, words in cases:
        extra = {"games": "abort"} if action == "cancel_running" else {}
        done = staff.act(CUPS, action, [cup.pk], reason="x", **extra)
        assert staff.messages(done) == [f"{cup}: {words}"], action
    staff.act(CUPS, "pause", [running.pk], reason="first")
    done = staff.act(CUPS, "pause", [running.pk], reason="again")
    assert staff.messages(done) == [f"{running}: This tournament is paused already."]
    assert logged(running) == ["Paused: first"] and logged(scheduled) == []
    assert Tournament.objects.get(pk=scheduled.pk).status == TournamentStatus.SCHEDULED


def test_cancel_a_running_tournament_its_games_aborted(
    staff: StaffBrowser, running: Tournament
) -> None:
    asked = staff.ask(CUPS, "cancel_running", [running.pk])
    assert b'name="games"' in asked.content
    blank = staff.act(CUPS, "cancel_running", [running.pk], reason="cheating ring")
    assert blank.status_code == 200 and b"errorlist" in blank.content  # abort or leave: say
    done = staff.act(CUPS, "cancel_running", [running.pk], reason="cheating ring", games="abort")
    assert done.status_code == 302
    cup = Tournament.objects.get(pk=running.pk)
    assert (cup.status, cup.cancel_reason) == (TournamentStatus.CANCELLED, "cheating ring")
    game = table(running)
    assert game.status == GameStatus.ABORTED
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and (last.type, last.data["seat"], last.actor_id) == (
        "game_aborted",
        None,
        staff.player.pk,
    )
    assert logged(running) == [
        "Cancelled while running: cheating ring (games aborted: 1, games left to finish: 0)"
    ]


def test_cancel_a_running_tournament_its_games_left_to_finish(
    staff: StaffBrowser, running: Tournament
) -> None:
    done = staff.act(CUPS, "cancel_running", [running.pk], reason="venue lost", games="finish")
    assert done.status_code == 302
    game = table(running)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    game_adjudicate(game_id=game.pk, staff=staff.player, winner=1)  # it ends as any game
    tournaments_tick()
    cup = Tournament.objects.get(pk=running.pk)
    assert (cup.status, cup.current_round) == (TournamentStatus.CANCELLED, 1)
    assert logged(running) == [
        "Cancelled while running: venue lost (games aborted: 0, games left to finish: 1)"
    ]


def test_resuming_advances_the_tournament_at_once(
    staff: StaffBrowser,
    running: Tournament,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Its round may have ended while it was paused: the advance is queued once the resume
    commits, rather than waiting for beat's tick."""
    queued: list[int] = []
    monkeypatch.setattr(
        jobs, "queue_tournament_advance", lambda *, tournament_id: queued.append(tournament_id)
    )
    staff.act(CUPS, "pause", [running.pk], reason="hold")
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        staff.act(CUPS, "resume", [running.pk], reason="go")
    assert queued == [running.pk]


def test_the_admin_form_puts_a_game_option_refusal_on_its_field() -> None:
    from games.tournaments.admin import TournamentForm

    starts = timezone.now() + timedelta(days=1)
    data = {
        "name": "Cup", "kind": "yatzy", "game_options": '{"auto_confirm_seconds": 999}',
        "format": "round_robin", "rounds": 3, "table_size": 2,
        "registration_opens_at": timezone.now(), "starts_at": starts, "min_entrants": 2,
        "max_entrants": 8, "rated": False, "turn_clock_seconds": 60, "recurrence": "",
    }  # fmt: skip
    form = TournamentForm(data=data)
    assert not form.is_valid()  # a form error, not the 500 of an unknown field's name
    assert list(form.errors) == ["game_options"]
