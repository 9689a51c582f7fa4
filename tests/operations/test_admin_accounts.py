"""Cutting an account off from the admin, through its own views (a staff member signed in through
the login page, CSRF checks on): deleting an account (the same service as ``DELETE
accounts/me/``) and banning one both resign its games in play through the one move path, revoke
its tokens and sessions and write the admin's log; after a deletion no admin page shows the old
name."""

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

from games.log.check import log_problems
from games.matchmaking.models import Seek, SeekStatus
from games.matchmaking.seeks import seek_create
from games.models import Game, GameEvent, GameStatus
from games.tournaments.models import Entrant
from games.tournaments.services import tournament_register
from players.models import Player
from tests import factories
from tests.factories import account, new_game, new_tournament
from tests.operations.test_admin import PLAYERS, Staff

pytestmark = pytest.mark.django_db

OLD = "bobbington"
OLD_NAME = "Bob Bington"


@pytest.fixture
def root() -> Staff:
    player = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    return Staff(player, "root-password-1")


@pytest.fixture
def bob() -> Player:
    return account(OLD, display_name=OLD_NAME, email="bob@example.org")


def sessions_of(player: Player) -> int:
    return sum(
        s.get_decoded().get("_auth_user_id") == str(player.pk) for s in Session.objects.all()
    )


def his_world(staff: Staff, bob: Player) -> dict[str, Any]:
    """A token and a session of his, a game of two and one of three in play, an open game he
    made, an open seek, an entry in a tournament not yet started."""
    ann, cara = account("ann"), account("cara")
    token = factories.token(bob)
    Client().force_login(bob)
    duel = new_game(bob, "yatzy", ["me", "open"], joiners=[ann])
    three = new_game(ann, "yatzy", ["me", "open", "open"], joiners=[bob, cara])
    waiting = new_game(bob, "yatzy", ["me", "open"], start=False)
    cup = new_tournament(staff.player, starts_at=timezone.now() + timedelta(hours=2))
    tournament_register(tournament_id=cup.pk, player=bob)
    seek = seek_create(player=bob, kind="ten_thousand", options={})
    assert seek.status == SeekStatus.OPEN
    return {
        "token": token,
        "duel": duel,
        "three": three,
        "waiting": waiting,
        "cup": cup,
        "seek": seek,
    }


def resigned_by(player: Player, game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, type="seat_left", actor=player))


def assert_cut_off(bob: Player, world: dict[str, Any]) -> None:
    """Every game in play resigned (an event of his in each log), the open game cancelled, his
    token and session gone, his entry withdrawn, and every log still replays."""
    duel = Game.objects.get(pk=world["duel"].pk)
    three = Game.objects.get(pk=world["three"].pk)
    assert duel.status == GameStatus.FINISHED and duel.seats.get(index=0).place == 2
    assert three.state is not None
    assert three.status == GameStatus.ACTIVE and three.state["out"] == [1]
    for game, seat in ((duel, 0), (three, 1)):
        events = resigned_by(bob, game)
        assert [e.data for e in events] == [
            {"type": "seat_left", "seat": seat, "reason": "resigned"}
        ]
        assert list(log_problems(game)) == []
    assert not Game.objects.filter(pk=world["waiting"].pk).exists()
    assert not AuthToken.objects.filter(user=bob).exists() and sessions_of(bob) == 0
    assert not Entrant.objects.filter(player=bob, withdrawn_at__isnull=True).exists()
    assert Seek.objects.get(pk=world["seek"].pk).status == SeekStatus.WITHDRAWN
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {world['token']}")
    assert api.get("/api/v1/accounts/me/").status_code == 401


def test_deleting_an_account_asks_a_reason_then_anonymises_and_logs_it(
    root: Staff, bob: Player
) -> None:
    world = his_world(root, bob)
    root.action("unban", [bob], apply="1", reason="appeal")  # an entry naming him as he was
    assert LogEntry.objects.get(object_id=str(bob.pk)).object_repr == OLD
    events = GameEvent.objects.count()

    asked = root.action("delete_account", [bob])
    assert asked.status_code == 200
    assert b'name="reason"' in asked.content and OLD.encode() in asked.content
    blank = root.action("delete_account", [bob], apply="1", reason="")
    assert blank.status_code == 200 and b"errorlist" in blank.content
    assert GameEvent.objects.count() == events
    assert Player.objects.get(pk=bob.pk).deleted_at is None  # nothing done yet

    done = root.action("delete_account", [bob], apply="1", reason="asked by email")
    assert done.status_code == 302

    gone = Player.objects.get(pk=bob.pk)
    assert gone.username == f"deleted-{bob.pk}" and gone.display_name == "Deleted player"
    assert gone.email == "" and not gone.has_usable_password() and not gone.is_active
    assert gone.deleted_at is not None
    assert_cut_off(gone, world)
    entry = LogEntry.objects.filter(object_id=str(bob.pk)).latest("id")
    assert entry.user_id == root.player.pk and entry.action_flag == CHANGE
    assert "asked by email" in entry.change_message
    assert (
        "tokens revoked: 1, sessions ended: 1, seeks withdrawn: 1, tournament entries withdrawn: "
        "1, games resigned: 2, open games left: 0, open games cancelled: 1"
    ) in entry.change_message
    assert entry.object_repr == gone.username

    # No admin page shows the old name.
    pages = [
        "/admin/",  # its recent actions: the log's entries, by the name logged
        PLAYERS,
        f"{PLAYERS}{bob.pk}/change/",
        f"{PLAYERS}{bob.pk}/history/",
        "/admin/games/game/",
        "/admin/games/gameevent/",
        "/admin/players/ratingchange/",
        "/admin/players/playerrating/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{world['cup'].pk}/change/",
    ]
    pages += [f"/admin/games/game/{world[g].pk}/change/" for g in ("duel", "three")]
    for page in pages:
        answer = root.client.get(page)
        assert answer.status_code == 200, page
        text = answer.content.decode().lower()
        assert OLD not in text and "bington" not in text, page
    deleted = root.client.get(PLAYERS, {"deleted_at__isempty": "0"}).content.decode()
    # The list's filter "deleted": his row alone.
    assert f"{PLAYERS}{gone.pk}/change/" in deleted
    assert f"{PLAYERS}{root.player.pk}/change/" not in deleted


def test_no_one_deletes_their_own_account_from_the_admin(root: Staff) -> None:
    root.action("delete_account", [root.player], apply="1", reason="oops")
    assert Player.objects.get(pk=root.player.pk).deleted_at is None
    assert not LogEntry.objects.filter(object_id=str(root.player.pk)).exists()


def test_deleting_without_the_csrf_token_is_refused(root: Staff, bob: Player) -> None:
    data = {"action": "delete_account", "_selected_action": [bob.pk], "apply": "1", "reason": "x"}
    assert root.client.post(PLAYERS, data).status_code == 403
    assert Player.objects.get(pk=bob.pk).username == OLD


def test_a_ban_resigns_the_games_in_play_and_ends_the_tokens(root: Staff, bob: Player) -> None:
    world = his_world(root, bob)
    done = root.action("ban", [bob], apply="1", reason="cheating")
    assert done.status_code == 302
    banned = Player.objects.get(pk=bob.pk)
    assert not banned.is_active and banned.username == OLD  # banned, not deleted
    assert_cut_off(banned, world)
    entry = LogEntry.objects.get(object_id=str(bob.pk))
    assert "cheating" in entry.change_message
    assert "seeks withdrawn: 1" in entry.change_message
    assert "games resigned: 2, open games left: 0, open games cancelled: 1" in entry.change_message
