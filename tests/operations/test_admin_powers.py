"""What a moderator may do from the admin, and no more (security round two, 4): every action
declares the permission it needs (staff who may only view run none that writes); a moderator with
``change_player`` cannot ban, unban or delete a superuser, edit a superuser's account or raise
anyone's powers, its own included."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.accounts import rating_service
from games.kinds import kind_for
from games.models import Game, GameStatus
from games.tournaments.models import Tournament, TournamentStatus
from players import ratings as glicko
from players.models import Player, RatingChange
from tests.factories import account, grant, new_game, new_tournament, organiser
from tests.operations.test_admin import PLAYERS, Staff

pytestmark = pytest.mark.django_db

TOURNAMENTS = "/admin/tournaments/tournament/"


def moderator() -> Staff:
    player = account("mod", password="mod-password-1", is_staff=True)
    grant(player, "players.view_player", "players.change_player")
    return Staff(player, "mod-password-1")


@pytest.mark.parametrize("action", ["ban", "unban", "delete_account"])
def test_a_moderator_cannot_act_on_a_superuser(action: str) -> None:
    mod = moderator()
    root = account("root", is_staff=True, is_superuser=True)
    mod.action(action, [root], apply="1", reason="a coup")
    root.refresh_from_db()
    assert (root.is_active, root.is_superuser, root.deleted_at) == (True, True, None)
    # Nor edit the account.
    page = mod.client.get(f"{PLAYERS}{root.pk}/change/")
    assert b'name="is_superuser"' not in page.content
    mod.post(f"{PLAYERS}{root.pk}/change/", {"username": "root", "is_active": ""})
    assert Player.objects.get(pk=root.pk).is_active


def test_a_moderator_cannot_raise_its_own_powers() -> None:
    mod = moderator()
    me = mod.player
    page = mod.client.get(f"{PLAYERS}{me.pk}/change/")
    assert page.status_code == 200
    for field in (b'name="is_superuser"', b'name="is_staff"', b'name="user_permissions"'):
        assert field not in page.content
    mod.post(
        f"{PLAYERS}{me.pk}/change/",
        {
            "username": me.username,
            "is_active": "on",
            "is_staff": "on",
            "is_superuser": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
        },
    )
    me.refresh_from_db()
    assert not me.is_superuser


def test_a_moderator_still_bans_a_player() -> None:
    mod = moderator()
    bob = account("bob")
    mod.action("ban", [bob], apply="1", reason="cheating")
    assert not Player.objects.get(pk=bob.pk).is_active


@pytest.mark.parametrize("action", ["start_now", "cancel"])
def test_staff_who_may_only_view_tournaments_run_no_action_on_them(action: str) -> None:
    viewer = account("viewer", password="viewer-password-1", is_staff=True)
    grant(viewer, "tournaments.view_tournament")
    staff = Staff(viewer, "viewer-password-1")
    cup = new_tournament(organiser(), computers=["casual", "casual"])
    staff.client.get(TOURNAMENTS)
    data = {"action": action, "_selected_action": [cup.pk], "index": 0}
    staff.post(TOURNAMENTS, data)
    assert Tournament.objects.get(pk=cup.pk).status != TournamentStatus.RUNNING
    assert Tournament.objects.get(pk=cup.pk).status != TournamentStatus.CANCELLED


def test_a_rated_game_never_has_assistance_whoever_writes_the_row() -> None:
    game = new_game(account("ann"), seats=("me", "open"), start=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(rated=True, assistance=True)
    Game.objects.filter(pk=game.pk).update(rated=True, assistance=False)


def test_hot_seats_are_left_out_of_the_ratings() -> None:
    ann = account("ann")
    seats = ("me", {"type": "hotseat", "name": "Kid"}, {"type": "computer", "level": "casual"})
    game = new_game(ann, seats=seats)
    for seat, place in zip(game.seats.order_by("index"), (2, 1, 3), strict=True):
        seat.place = place
        seat.save(update_fields=["place"])
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, rated=True, assistance=False)
    game.refresh_from_db()
    (change,) = rating_service.game_rate(game=game)
    # As if ann, second, had played the computer alone: the kid is no 1500 computer.
    computer = glicko.Rating(kind_for("yatzy").level_rating("casual"), 50.0)
    expected = glicko.update_table([glicko.Rating(), computer], [2, 3])[0]
    assert change.rating_after == pytest.approx(expected.rating)
    assert RatingChange.objects.filter(game=game).count() == 1
