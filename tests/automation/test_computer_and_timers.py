"""Computer seats and the auto-confirm timer, driven synchronously through the services.

The worker and beat only call these same services (games.tasks); tests/automation/test_worker.py
runs them for real.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import Settings

from games.models import Game, GameEvent, GameStatus
from games.selectors import game_replay_matches_snapshot
from games.timers import automation
from players.models import Player
from tests import factories
from tests.factories import account, move, new_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("level", ["optimal", "casual"])
def test_a_yatzy_computer_seat_plays_its_whole_game(ann: Player, level: str) -> None:
    game = new_game(ann, "yatzy", [{"type": "computer", "level": level}])
    moves = automation.run_until_idle(game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert 26 <= moves <= 52  # 13 turns of one to three rolls and a score
    events = GameEvent.objects.filter(game=game)
    assert all(event.automatic and event.actor is None for event in events if event.seq > 1)
    assert events.filter(type="box_scored").count() == 13
    assert game_replay_matches_snapshot(game)


@pytest.mark.parametrize("level", ["expert", "classic"])
def test_a_ten_thousand_game_against_the_computer_finishes(ann: Player, level: str) -> None:
    game = new_game(
        ann, "ten_thousand", [{"type": "me"}, {"type": "computer", "level": level}], target=5000
    )
    for _turn in range(400):
        if game.status == GameStatus.FINISHED:
            break
        # Ann banks as soon as she can; the computer then plays its turn move by move.
        state = game.state
        assert state is not None
        if state["roll"]:
            from games.kinds.ten_thousand import command as ten_thousand_command
            from games.rules import ten_thousand

            command = ten_thousand_command(ten_thousand.state_from_wire(state), "classic")
            game = move(game, ann, type="bank", keep=command["keep"])
        else:
            game = move(game, ann, type="roll")
        automation.run_until_idle(game.pk)
        game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    computer_events = GameEvent.objects.filter(game=game, automatic=True)
    assert computer_events.filter(type="dice_rolled").exists()
    assert game_replay_matches_snapshot(game)


def test_the_computer_does_not_play_a_human_turn(ann: Player) -> None:
    game = new_game(ann, "yatzy", [{"type": "me"}, {"type": "computer"}])
    assert automation.game_play_computer(game_id=game.pk, version=game.version) is False
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_task_for_an_old_version_does_nothing(ann: Player) -> None:
    game = new_game(ann, "yatzy", [{"type": "computer"}])
    old = game.version
    assert automation.game_play_computer(game_id=game.pk, version=old) is True
    count = GameEvent.objects.filter(game=game).count()
    assert automation.game_play_computer(game_id=game.pk, version=old) is False
    assert GameEvent.objects.filter(game=game).count() == count


def rolled_out(ann: Player, **options: Any) -> Game:
    return factories.rolled_out(new_game(ann, "yatzy", ["me"], **options), ann)


def test_the_last_roll_sets_a_deadline_three_seconds_on(ann: Player) -> None:
    game = rolled_out(ann)
    assert game.deadline_at is not None and game.last_move_at is not None
    assert game.deadline_at - game.last_move_at == timedelta(seconds=3)


def test_auto_confirm_scores_the_computers_box_once_due(ann: Player) -> None:
    game = rolled_out(ann)
    assert game.deadline_at is not None
    assert not automation.game_fire_timer(
        game_id=game.pk, version=game.version, now=game.deadline_at - timedelta(seconds=0.1)
    )
    assert automation.game_fire_timer(game_id=game.pk, version=game.version, now=game.deadline_at)
    assert not automation.game_fire_timer(
        game_id=game.pk, version=game.version, now=game.deadline_at
    )
    scored = GameEvent.objects.filter(game=game, type="box_scored")
    assert scored.count() == 1
    assert scored.get().automatic
    from ai.yatzy import best_move

    last_roll = GameEvent.objects.filter(game=game, type="dice_rolled").last()
    assert last_roll is not None
    dice = last_roll.data["dice"]
    best = best_move(dice, {}, 0)
    assert "box" in best  # no roll left: a box, not dice to hold
    assert scored.get().data["box"] == best.get("box")  # (a union: `in` does not narrow it)
    game.refresh_from_db()
    assert game.deadline_at is None


def test_auto_confirm_scores_the_marked_box(ann: Player) -> None:
    game = rolled_out(ann)
    deadline = game.deadline_at
    game = move(game, ann, type="select", box="chance")
    assert game.deadline_at == deadline  # marking a box does not buy time
    assert automation.game_fire_timer(game_id=game.pk, version=game.version, now=deadline)
    assert GameEvent.objects.get(game=game, type="box_scored").data["box"] == "chance"


def test_a_player_who_scores_first_wins_the_race(ann: Player) -> None:
    game = rolled_out(ann)
    version = game.version
    move(game, ann, type="score", box="chance")
    assert not automation.game_fire_timer(game_id=game.pk, version=version, now=timezone.now())
    assert GameEvent.objects.filter(game=game, type="box_scored").count() == 1


def test_auto_confirm_off_with_zero_delay(ann: Player) -> None:
    game = factories.rolled_out(new_game(ann, auto_confirm_seconds=0), ann, timer=False)
    assert game.deadline_at is None


def test_no_deadline_for_a_computer_seat(ann: Player) -> None:
    game = new_game(ann, "yatzy", [{"type": "computer"}, {"type": "me"}])
    automation.run_until_idle(game.pk)
    assert not Game.objects.filter(pk=game.pk, deadline_at__isnull=False).exists()


def test_the_sweep_catches_lost_timers_and_stalled_computer_turns(
    ann: Player, settings: Settings
) -> None:
    settings.GAMES_SWEEP_GRACE_SECONDS = 1.0
    settings.GAMES_COMPUTER_MOVE_DELAY = 0.0
    timed = rolled_out(ann)
    stalled = new_game(account("bob"), "yatzy", [{"type": "computer"}])
    stalled.refresh_from_db()
    # Half a second after the computer's last move, nothing is past its grace yet.
    assert stalled.last_move_at is not None and timed.deadline_at is not None
    assert automation.sweep(now=stalled.last_move_at + timedelta(seconds=0.5)) == 0
    later = timed.deadline_at + timedelta(seconds=1.5)
    assert automation.sweep(now=later) == 2
    assert GameEvent.objects.filter(game=timed, type="box_scored", automatic=True).count() == 1
    assert GameEvent.objects.filter(game=stalled, automatic=True).count() == 1


def test_the_sweep_catches_up_the_earliest_deadline_first(
    ann: Player, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After the timers process was away, the sweep fires what it missed as the timers process
    # claims it: the longest overdue first, never one due later ahead of it.
    settings.GAMES_SWEEP_GRACE_SECONDS = 1.0
    games = [rolled_out(ann) for _game in range(4)]
    # Due in an order unlike that of the games' making, either way (the model's default order).
    due_in = [1, 3, 0, 2]
    long_ago = timezone.now() - timedelta(minutes=1)
    for game, seconds in zip(games, due_in, strict=True):
        Game.objects.filter(pk=game.pk).update(deadline_at=long_ago + timedelta(seconds=seconds))
    fired: list[str] = []
    fire = automation.game_fire_timer

    def spy(*, game_id: Any, version: int, now: Any = None) -> bool:
        fired.append(str(game_id))
        return fire(game_id=game_id, version=version, now=now)

    monkeypatch.setattr(automation, "game_fire_timer", spy)
    assert automation.sweep() == len(games)
    by_deadline = sorted(zip(due_in, games, strict=True), key=lambda due: due[0])
    assert fired == [str(game.pk) for _seconds, game in by_deadline]


def test_computer_seat_levels_are_checked(ann: Player) -> None:
    from config.vocabulary.errors import InvalidInput

    with pytest.raises(InvalidInput) as error:
        new_game(ann, "yatzy", [{"type": "computer", "level": "godlike"}])
    assert error.value.get_codes() == "unknown_level"
    with pytest.raises(InvalidInput) as error:
        new_game(ann, "ten_thousand", [{"type": "computer"}, {"type": "computer"}])
    assert error.value.get_codes() == "invalid_seat_count"


def test_the_turn_clock_plays_an_idle_seat_and_gives_the_next_seat_its_full_clock(
    ann: Player,
) -> None:
    bob = account("bob")
    game = new_game(ann, "yatzy", ["me", {"type": "player", "player": bob}], turn_clock_seconds=60)
    assert game.deadline_at is not None and game.last_move_at is not None
    assert game.deadline_at - game.last_move_at == timedelta(seconds=60)
    # Ann is away: the clock hands her turn to the stand-in (the rules' time_out).
    later = game.deadline_at
    while Game.objects.get(pk=game.pk).turn_seat == 0:
        game.refresh_from_db()
        assert game.deadline_at is not None
        assert game.deadline_at <= later + timedelta(seconds=60)
        later = game.deadline_at
        assert automation.game_fire_timer(game_id=game.pk, version=game.version, now=later)
    game.refresh_from_db()
    assert game.turn_seat == 1
    # Bob, who is here, gets the whole clock for his turn.
    assert game.deadline_at is not None and game.last_move_at is not None
    assert game.deadline_at - game.last_move_at == timedelta(seconds=60)
    played = GameEvent.objects.filter(game=game, data__seat=0, type="box_scored").get()
    assert played.automatic
