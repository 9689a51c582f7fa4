"""The admin, through its own views (a staff member signed in through the login page, CSRF checks
on): ratings shown read-only, ban and unban with a reason in the admin's log, the dashboard of
live figures."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.tournaments.models import Entrant
from games.tournaments.services import tournament_register, tournament_start
from players.models import Player, PlayerRating, RatingChange
from tests import factories
from tests.factories import account, move, new_game, new_tournament

pytestmark = pytest.mark.django_db

PLAYERS = "/admin/players/player/"


class Staff:
    """A browser signed in to the admin as a superuser, sending the CSRF token like a form."""

    def __init__(self, player: Player, password: str) -> None:
        self.player = player
        self.client = Client(enforce_csrf_checks=True)
        self.client.get("/admin/login/")
        answer = self.post(
            "/admin/login/?next=/admin/",
            {"username": player.username, "password": password, "next": "/admin/"},
        )
        assert answer.status_code == 302, answer.content[:500]

    def post(self, url: str, data: dict[str, Any]) -> Any:
        token = self.client.cookies["csrftoken"].value
        return self.client.post(url, {**data, "csrfmiddlewaretoken": token})

    def action(self, name: str, players: list[Player], **extra: Any) -> Any:
        self.client.get(PLAYERS)
        data = {"action": name, "_selected_action": [p.pk for p in players], "index": 0}
        return self.post(PLAYERS, {**data, **extra})


@pytest.fixture
def staff() -> Staff:
    player = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    return Staff(player, "root-password-1")


@pytest.fixture
def bob() -> Player:
    return account("bob")


def entries_of(player: Player) -> Any:
    return Entrant.objects.filter(player=player, withdrawn_at__isnull=True)


def test_a_ban_asks_a_reason_then_ends_everything_and_logs_it(staff: Staff, bob: Player) -> None:
    token = factories.token(bob)
    Client().force_login(bob)  # a session of his (the browsable API's)
    cup = new_tournament(staff.player)
    tournament_register(tournament_id=cup.pk, player=bob)
    assert entries_of(bob).count() == 1

    asked = staff.action("ban", [bob])
    assert asked.status_code == 200
    assert b'name="reason"' in asked.content and b"bob" in asked.content
    assert Player.objects.get(pk=bob.pk).is_active  # nothing done yet

    blank = staff.action("ban", [bob], apply="1", reason="")
    assert blank.status_code == 200 and b"errorlist" in blank.content
    assert Player.objects.get(pk=bob.pk).is_active

    done = staff.action("ban", [bob], apply="1", reason="abusive chat")
    assert done.status_code == 302
    assert not Player.objects.get(pk=bob.pk).is_active
    assert not AuthToken.objects.filter(user=bob).exists()
    assert not any(
        s.get_decoded().get("_auth_user_id") == str(bob.pk) for s in Session.objects.all()
    )
    assert entries_of(bob).count() == 0
    entry = LogEntry.objects.get(object_id=str(bob.pk))
    assert entry.user_id == staff.player.pk and entry.action_flag == CHANGE
    assert "abusive chat" in entry.change_message
    assert (
        "tokens revoked: 1, sessions ended: 1, seeks withdrawn: 0, tournament entries withdrawn: 1"
        in (entry.change_message)
    )
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/accounts/me/").status_code == 401
    signin = {"username": "bob", "password": "bob-password-1"}
    assert APIClient().post("/api/v1/accounts/token/", signin, format="json").status_code == 401


def test_unban_with_a_reason(staff: Staff, bob: Player) -> None:
    staff.action("ban", [bob], apply="1", reason="spam")
    done = staff.action("unban", [bob], apply="1", reason="appeal accepted")
    assert done.status_code == 302
    assert Player.objects.get(pk=bob.pk).is_active
    messages = list(
        LogEntry.objects.filter(object_id=str(bob.pk))
        .order_by("id")
        .values_list("change_message", flat=True)
    )
    assert len(messages) == 2 and "appeal accepted" in messages[1]
    signin = {"username": "bob", "password": "bob-password-1"}
    assert APIClient().post("/api/v1/accounts/token/", signin, format="json").status_code == 201


def test_no_one_bans_themselves(staff: Staff) -> None:
    staff.action("ban", [staff.player], apply="1", reason="oops")
    assert Player.objects.get(pk=staff.player.pk).is_active
    assert not LogEntry.objects.filter(object_id=str(staff.player.pk)).exists()


def test_an_action_without_the_csrf_token_is_refused(staff: Staff, bob: Player) -> None:
    data = {"action": "ban", "_selected_action": [bob.pk], "apply": "1", "reason": "x"}
    assert staff.client.post(PLAYERS, data).status_code == 403
    assert Player.objects.get(pk=bob.pk).is_active


def test_ratings_are_shown_and_never_edited(staff: Staff, bob: Player, ann: Player) -> None:
    rating = PlayerRating.objects.create(player=bob, kind="yatzy", rating=1620.5)
    game = new_game(ann)
    change = RatingChange.objects.create(
        game=game, player=bob, kind="yatzy", rating_before=1500, rating_after=1620.5,
        deviation_after=290,
    )  # fmt: skip
    for url in ("/admin/players/playerrating/", "/admin/players/ratingchange/"):
        page = staff.client.get(url)
        assert page.status_code == 200 and b"bob" in page.content
        assert staff.client.get(url + "add/").status_code == 403
    for url in (
        f"/admin/players/playerrating/{rating.pk}/change/",
        f"/admin/players/ratingchange/{change.pk}/change/",
    ):
        view = staff.client.get(url)
        assert view.status_code == 200 and b'name="_save"' not in view.content
        assert staff.post(url, {"rating": 9999}).status_code == 403
        assert staff.client.get(url.replace("/change/", "/delete/")).status_code == 403
    assert PlayerRating.objects.get(pk=rating.pk).rating == 1620.5


def test_the_dashboard_shows_what_is_played_now(staff: Staff, ann: Player) -> None:
    game = new_game(ann)
    move(game, ann, type="roll")
    new_game(ann, "ten_thousand")
    org = account("org2", is_staff=True)
    cup = new_tournament(
        org, name="Night cup", computers=["optimal", "casual"],
        starts_at=timezone.now() + timedelta(seconds=1),
    )  # fmt: skip
    assert tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(seconds=2))
    page = staff.client.get("/admin/dashboard/")
    assert page.status_code == 200
    sections = dict(page.context["sections"])
    in_play = dict(sections["Games in play"])
    assert in_play["Yatzy"] >= 2 and in_play["Dés 10 000"] == 1  # the cup's game is yatzy
    assert dict(sections["Activity"])["Moves in the last minute"] >= 2  # the roll, the starts
    assert "Night cup" in dict(sections["Tournaments running"])
    assert "Overdue" in dict(sections["Timers"])
    assert b"Night cup" in page.content


def test_the_dashboard_is_for_staff_only(ann: Player) -> None:
    client = Client()
    client.force_login(ann)
    assert client.get("/admin/dashboard/").status_code == 302


def test_the_dashboard_and_the_reason_page_speak_the_admins_language(
    staff: Staff, bob: Player
) -> None:
    page = staff.client.get("/admin/dashboard/?lang=fr")
    assert "Parties en cours" in page.content.decode()
    staff.client.get(PLAYERS)
    token = staff.client.cookies["csrftoken"].value
    asked = staff.client.post(
        PLAYERS + "?lang=uk",
        {"action": "ban", "_selected_action": [bob.pk], "index": 0, "csrfmiddlewaretoken": token},
    )
    assert "Причина" in asked.content.decode()
