"""The admin, through its pages as a staff member uses them: a started game and a running
tournament are read-only, no token is minted, a new password revokes the account's tokens,
scheduling takes the permission rather than staff status, and every custom action is in the
admin's history."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Game
from games.tournaments import services as tournament_services
from games.tournaments.models import Tournament, TournamentStatus
from players import services as player_services
from players.models import Player
from tests.factories import account, grant, move, new_game, new_tournament, token

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-secret-9"


class FormFields(HTMLParser):
    """The fields of a page's form, with the values a browser would send unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, Any] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in {"submit", "button", "file"}:
            if a.get("type") in {"checkbox", "radio"}:
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            else:
                self.data[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data.lstrip("\n")


def form_of(client: Client, url: str) -> dict[str, Any]:
    page = client.get(url)
    assert page.status_code == 200
    parser = FormFields()
    parser.feed(page.content.decode())
    return parser.data


@pytest.fixture
def superuser() -> Player:
    return Player.objects.create_superuser("root", "root@example.com", "root-password-1")


@pytest.fixture
def staff(superuser: Player) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


# --- a started game ---------------------------------------------------------------------------


def test_an_open_game_is_editable_a_started_one_is_not(staff: Client) -> None:
    pat, sue = account("pat"), account("sue")
    waiting = new_game(pat, seats=["me", "open"], start=False)
    url = f"/admin/games/game/{waiting.pk}/change/"
    form = form_of(staff, url)
    form["rated"] = "on"  # with its assistance still on: refused (the database's constraint)
    assert staff.post(url, form).status_code == 200
    assert not Game.objects.get(pk=waiting.pk).rated
    form.pop("assistance", None)  # an unticked box is not sent
    assert staff.post(url, form).status_code == 302
    assert Game.objects.get(pk=waiting.pk).rated

    game = move(new_game(pat, seats=["me", {"type": "hotseat", "name": "Guest"}]), pat, type="roll")
    url = f"/admin/games/game/{game.pk}/change/"
    page = staff.get(url)
    assert page.status_code == 200  # shown, for reading
    form = form_of(staff, url)
    form.update({"rated": "on", "turn_clock_seconds": "1", "csrfmiddlewaretoken": "x"})
    form.update({"seats-0-player": str(sue.pk), "seats-1-name": "Forged"})
    response = staff.post(url, form)
    assert response.status_code == 403
    after = Game.objects.get(pk=game.pk)
    assert (after.rated, after.turn_clock_seconds) == (game.rated, game.turn_clock_seconds)
    seats = list(after.seats.order_by("index").values_list("player_id", "name"))
    assert seats == [(pat.pk, ""), (None, "Guest")]


# --- a running tournament ---------------------------------------------------------------------


def running_tournament(organiser: Player) -> Tournament:
    tournament = new_tournament(
        organiser, computers=["casual", "optimal"], starts_at=timezone.now()
    )
    assert tournament_services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    return tournament


def test_a_running_tournament_is_read_only(staff: Client, superuser: Player) -> None:
    scheduled = new_tournament(superuser, computers=["casual", "optimal"])
    url = f"/admin/tournaments/tournament/{scheduled.pk}/change/"
    form = form_of(staff, url)
    form["name"] = "Renamed cup"
    response = staff.post(url, form)
    assert response.status_code == 302, response.content[:2000]
    assert Tournament.objects.get(pk=scheduled.pk).name == "Renamed cup"

    tournament = running_tournament(superuser)
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    form = form_of(staff, url)
    assert staff.get(url).status_code == 200
    form.update({"name": "Forged", "format": "knockout", "rounds": "9", "rated": "on"})
    assert staff.post(url, form).status_code == 403
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.name, after.format, after.rounds, after.rated) == (
        tournament.name, tournament.format, tournament.rounds, tournament.rated,
    )  # fmt: skip


# --- tokens -----------------------------------------------------------------------------------


def test_the_token_admin_mints_no_token(staff: Client) -> None:
    pat = account("pat")
    assert staff.get("/admin/knox/authtoken/add/").status_code == 403
    response = staff.post("/admin/knox/authtoken/add/", {"user": pat.pk, "expiry": ""})
    assert response.status_code == 403
    assert not AuthToken.objects.filter(user=pat).exists()
    token(pat)
    listing = staff.get("/admin/knox/authtoken/")
    assert listing.status_code == 200
    stored = AuthToken.objects.get(user=pat)
    url = f"/admin/knox/authtoken/{stored.digest}/change/"
    assert staff.post(url, {"user": account("sue").pk}).status_code == 403
    assert AuthToken.objects.get(pk=stored.pk).user_id == pat.pk
    # Revoking stays possible.
    response = staff.post(f"/admin/knox/authtoken/{stored.digest}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not AuthToken.objects.filter(user=pat).exists()


def test_an_admin_password_reset_revokes_the_accounts_tokens(staff: Client) -> None:
    pat, sue = account("pat"), account("sue")
    token(pat), token(pat), token(sue)
    url = f"/admin/players/player/{pat.pk}/password/"
    form = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    response = staff.post(url, form)
    assert response.status_code == 302, response.content[:3000]
    assert not AuthToken.objects.filter(user=pat).exists()
    assert AuthToken.objects.filter(user=sue).count() == 1
    assert Player.objects.get(pk=pat.pk).check_password(NEW_PASSWORD)


def test_changing_ones_own_password_revokes_ones_tokens(staff: Client, superuser: Player) -> None:
    token(superuser)
    form = {
        "old_password": "root-password-1",
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
    }
    response = staff.post("/admin/password_change/", form)
    assert response.status_code == 302
    assert not AuthToken.objects.filter(user=superuser).exists()
    assert staff.get("/admin/").status_code == 200  # this session goes on


def test_the_password_service_revokes_tokens_and_a_sign_in_does_not() -> None:
    pat = account("pat")
    token(pat)
    player_services.token_create(username="pat", password="pat-password-1")
    assert AuthToken.objects.filter(user=pat).count() == 2  # signing in keeps the others
    player_services.password_set(player=pat, password=NEW_PASSWORD)
    assert not AuthToken.objects.filter(user=pat).exists()


# --- permissions and history -------------------------------------------------------------------


def test_scheduling_takes_the_permission_not_staff_status(anon: APIClient) -> None:
    from tests.factories import api_client

    body = {
        "name": "Cup",
        "kind": "yatzy",
        "format": "round_robin",
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
    }
    staff_only = api_client("staffer")
    Player.objects.filter(username="staffer").update(is_staff=True)
    assert staff_only.post("/api/v1/tournaments/", body, format="json").status_code == 403
    grant(Player.objects.get(username="staffer"), "tournaments.add_tournament")
    assert staff_only.post("/api/v1/tournaments/", body, format="json").status_code == 201
    organiser = api_client("organiser")  # not staff: the permission is what counts
    grant(Player.objects.get(username="organiser"), "tournaments.add_tournament")
    assert organiser.post("/api/v1/tournaments/", body, format="json").status_code == 201


def test_every_custom_action_is_in_the_admin_history(staff: Client, superuser: Player) -> None:
    pat = account("pat")
    game = move(new_game(pat), pat, type="roll")
    first = new_tournament(superuser, computers=["casual", "optimal"], starts_at=timezone.now())
    second = new_tournament(superuser, computers=["casual", "optimal"])
    actions = [
        ("/admin/games/game/", "verify_replay", game.pk),
        ("/admin/tournaments/tournament/", "start_now", first.pk),
        ("/admin/tournaments/tournament/", "cancel", second.pk),
    ]
    for url, action, pk in actions:
        response = staff.post(url, {"action": action, "_selected_action": [str(pk)]})
        assert response.status_code == 302, (action, response.status_code)
    entries = LogEntry.objects.filter(user=superuser, action_flag=CHANGE).order_by("pk")
    logged = [(entry.object_id, entry.get_change_message()) for entry in entries]
    assert logged == [
        (str(game.pk), "Check that replaying the log gives the stored state: the replay matches"),
        (str(first.pk), "Start now (or cancel if under the minimum): Running"),
        (str(second.pk), "Cancel: Cancelled"),
    ]
    history = staff.get(f"/admin/games/game/{game.pk}/history/")
    assert b"the replay matches" in history.content
