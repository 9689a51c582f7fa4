"""Voiding a game's rating changes through the admin's own views: the rows are kept, marked void
with the reason, and every later rating of the kind is computed again in order; the result is
exactly a fresh computation without the voided game. A game with nothing to void is refused
(``not_rated``) and logs nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from games.accounts.rating_service import COMPUTER_DEVIATION
from games.accounts.stats import player_stats
from games.kinds import kind_for
from games.models import Game, Occupant
from games.staff import game_adjudicate
from players import ratings as glicko
from players.models import Player, PlayerRating, RatingChange
from tests.factories import account, new_game
from tests.operations.staff_browser import StaffBrowser

pytestmark = pytest.mark.django_db

GAMES = "/admin/games/game/"
COMPUTER = {"type": "computer", "level": "casual"}
GUEST = {"type": "hotseat", "name": "Guest"}


@pytest.fixture
def staff() -> StaffBrowser:
    player = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    return StaffBrowser(player, "root-password-1")


def decided(staff: Player, seats: list[Any], winner: int | None) -> Game:
    """A rated yatzy game of these accounts (and computer seats), decided at once."""
    people = [seat for seat in seats if isinstance(seat, Player)]
    specs = ["me" if seat is people[0] else "open" if isinstance(seat, Player) else seat
             for seat in seats]  # fmt: skip
    game = new_game(people[0], "yatzy", specs, joiners=people[1:], rated=True)
    game_adjudicate(game_id=game.pk, staff=staff, winner=winner)
    return Game.objects.get(pk=game.pk)


def fresh(games: list[Game]) -> dict[str, tuple[glicko.Rating, int]]:
    """Every account's rating computed from nothing over ``games``, in order."""
    level_rating = kind_for("yatzy").level_rating
    now: dict[str, tuple[glicko.Rating, int]] = {}
    for game in games:
        # Hot seats (guests on their host's device) are left out, as the rating leaves them.
        seats = [
            seat
            for seat in game.seats.select_related("player").order_by("index")
            if seat.occupant != Occupant.HOTSEAT
        ]
        before = [
            now.get(seat.player.username, (glicko.Rating(), 0))[0]
            if seat.player
            else glicko.Rating(level_rating(seat.level), COMPUTER_DEVIATION)
            for seat in seats
        ]
        places: list[int] = []
        for seat in seats:
            assert seat.place is not None  # a finished game: every seat placed
            places.append(seat.place)
        after = glicko.update_table(before, places)
        for seat, new in zip(seats, after, strict=True):
            if seat.player:
                now[seat.player.username] = (new, now.get(seat.player.username, (None, 0))[1] + 1)
    return now


def stored() -> dict[str, tuple[glicko.Rating, int]]:
    return {
        row.player.username: (glicko.Rating(row.rating, row.deviation, row.volatility), row.games)
        for row in PlayerRating.objects.filter(kind="yatzy").select_related("player")
        if row.games
    }


def test_voiding_a_game_replays_every_later_rating_as_a_fresh_computation_would(
    staff: StaffBrowser,
) -> None:
    ann, bob, cara = account("ann"), account("bob"), account("cara")
    me = staff.player
    g1 = decided(me, [ann, bob], 0)
    g2 = decided(me, [bob, cara], 0)  # to be voided: bob's win over cara
    g3 = decided(me, [ann, cara], 1)
    g4 = decided(me, [bob, ann, cara], None)
    g5 = decided(me, [cara, COMPUTER], 0)
    g6 = decided(me, [ann, bob], 1)
    assert stored() == fresh([g1, g2, g3, g4, g5, g6])  # the replay's premise
    before = {c.pk: c.rating_after for c in RatingChange.objects.all()}

    done = staff.act(GAMES, "void_ratings", [g2.pk], reason="bob and cara colluded")
    assert done.status_code == 302

    expected = fresh([g1, g3, g4, g5, g6])
    assert stored() == expected  # exactly, not approximately
    assert stored() != fresh([g1, g2, g3, g4, g5, g6])
    voided = RatingChange.objects.filter(game=g2)
    assert voided.count() == 2
    assert all(c.voided_at and c.void_reason == "bob and cara colluded" for c in voided)
    assert {c.pk: c.rating_after for c in voided} == {c.pk: before[c.pk] for c in voided}
    # Each later change row is the replay's, and the first game's was left as it was.
    for game in (g3, g4, g5, g6):
        replayed = fresh([g for g in (g1, g3, g4, g5, g6) if g.created_at <= game.created_at])
        for change in RatingChange.objects.filter(game=game).select_related("player"):
            assert change.rating_after == replayed[change.player.username][0].rating
    assert all(c.rating_after == before[c.pk] for c in RatingChange.objects.filter(game=g1))
    assert str(g2.pk) not in {row["game"] for row in player_stats(cara)["rating_history"]}
    entry = LogEntry.objects.get(object_id=str(g2.pk))
    assert entry.user_id == me.pk
    assert entry.change_message.startswith("Rating changes voided: bob and cara colluded")
    assert "changes voided: 2" in entry.change_message


def test_a_void_replays_a_game_with_a_hot_seat_as_it_was_rated(staff: StaffBrowser) -> None:
    """A hot seat has no rating to stand for it: the rating leaves it out, and so does the replay
    after a void (it once counted it as a computer at the default rating)."""
    ann, bob = account("ann"), account("bob")
    me = staff.player
    g1 = decided(me, [ann, GUEST, bob], 1)  # the guest wins, ann second, bob third
    g2 = decided(me, [ann, bob], 0)
    assert stored() == fresh([g1, g2])

    assert staff.act(GAMES, "void_ratings", [g2.pk], reason="a test").status_code == 302

    assert stored() == fresh([g1])
    for change in RatingChange.objects.filter(game=g1).select_related("player"):
        assert change.rating_after == fresh([g1])[change.player.username][0].rating


def test_nothing_to_void_is_refused_and_logs_nothing(staff: StaffBrowser) -> None:
    ann, bob = account("ann"), account("bob")
    game = decided(staff.player, [ann, bob], 0)
    staff.act(GAMES, "void_ratings", [game.pk], reason="first")
    unrated = new_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    for target in (game, unrated):
        LogEntry.objects.all().delete()
        done = staff.act(GAMES, "void_ratings", [target.pk], reason="again")
        assert staff.messages(done) == [f"{target.pk}: This game has no rating changes to void."]
        assert not LogEntry.objects.exists()
