"""What the worker, the timers process and beat do, run in this process: the tasks that committed
moves queue, run one by one from the broker (tests/doubles.py: QueuedTasks); the timers fired on
an injected clock (TimerRunner on the games' deadlines); beat's tick and sweep called at that
clock's time. No sleep, no race with the wall clock: a check that nothing more happens looks at
the queues and the timers after they have run, not after a pause.

tests/automation/test_worker.py runs the real worker and timers processes once, end to end.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import Settings

from config.celery_app import app
from games import tasks
from games.models import Game, GameEvent
from games.timers import automation
from games.timers.runner import TimerRunner
from games.timers.wheel import DatabaseWheel
from players.models import Player
from tests.automation.checks import assert_whole_log, finished
from tests.doubles import Clock, QueuedTasks
from tests.factories import account, move, new_game, new_tournament, rolled_out, scored_turn

# Tasks are queued once a move commits: the moves here commit.
pytestmark = pytest.mark.django_db(transaction=True)

HOTSEAT_BO = {"type": "hotseat", "name": "Bo"}


@pytest.fixture
def worker(settings: Settings) -> QueuedTasks:
    # The timers are the games' own deadlines (the database wheel): none is left in Redis.
    settings.GAMES_TIMERS = "database"
    return QueuedTasks(app)


def scores(game: Game) -> Any:
    return GameEvent.objects.filter(game=game, type="box_scored")


def last_event(game: Game) -> GameEvent:
    return GameEvent.objects.filter(game=game).latest("seq")


def test_a_game_with_a_computer_seat_plays_to_the_end(ann: Player, worker: QueuedTasks) -> None:
    game = new_game(ann, "yatzy", ["me", "computer"])
    for _turn in range(13):
        scored_turn(game, ann)
        assert worker.run() > 0  # the computer's turn, task after task
        assert finished(game) or Game.objects.get(pk=game.pk).turn_seat == 0
    assert finished(game)
    computer = GameEvent.objects.filter(game=game, automatic=True)
    assert computer.filter(type="box_scored").count() == 13
    assert not GameEvent.objects.filter(game=game, automatic=False, data__seat=1).exists()
    assert_whole_log(game)


def test_a_computer_only_game_needs_no_human_at_all(ann: Player, worker: QueuedTasks) -> None:
    game = new_game(ann, "yatzy", [{"type": "computer", "level": "optimal"}, "computer"])
    # The start queues the first move, and each move the next: the worker alone ends the game.
    moves = worker.run()
    assert finished(game)
    played = GameEvent.objects.filter(game=game, seq__gt=1).exclude(type="game_finished")
    assert moves == played.count() == played.filter(automatic=True).count()  # a task a move
    assert_whole_log(game)


def test_auto_confirm_scores_once_after_three_seconds(ann: Player, worker: QueuedTasks) -> None:
    game = rolled_out(new_game(ann, "yatzy", ["me", HOTSEAT_BO]), ann)
    last_roll = last_event(game)
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    clock = Clock(due - 0.001)
    runner = TimerRunner(wheel=DatabaseWheel(), clock=clock)
    runner.run_once()
    assert not scores(game).exists()  # never early
    clock.now = due
    runner.run_once()
    scored = scores(game).get()
    assert scored.automatic and scored.actor is None
    waited = clock.moment - last_roll.created_at
    assert waited >= timedelta(seconds=3), waited
    # Long after: the runner again, beat's sweep, the worker: no second score.
    clock.now += 1.5
    runner.run_once()
    assert automation.sweep(now=clock.moment) == 0
    worker.run()
    assert scores(game).count() == 1
    assert_whole_log(game)


def test_a_player_who_scores_at_2_9_seconds_wins(ann: Player, worker: QueuedTasks) -> None:
    game = rolled_out(new_game(ann, "yatzy", ["me", HOTSEAT_BO]), ann)
    assert game.deadline_at is not None and game.last_move_at is not None
    assert game.deadline_at - game.last_move_at == timedelta(seconds=3)
    # 2.9 s after the roll was recorded, 0.1 s before the auto-confirm is due: nothing fires...
    clock = Clock(last_event(game).created_at.timestamp() + 2.9)
    runner = TimerRunner(wheel=DatabaseWheel(), clock=clock)
    runner.run_once()
    assert automation.sweep(now=clock.moment) == 0
    # ... and the player scores.
    move(game, ann, type="score", box="chance")
    clock.now += 2.5  # past the deadline and the sweep's grace
    runner.run_once()
    assert automation.sweep(now=clock.moment) == 0
    worker.run()
    scored = scores(game).get()
    assert not scored.automatic
    assert scored.data["box"] == "chance"
    assert_whole_log(game)


def test_stale_and_duplicate_tasks_do_nothing(ann: Player, worker: QueuedTasks) -> None:
    game = rolled_out(new_game(ann, "yatzy", ["me", HOTSEAT_BO]), ann)
    stale = game.version - 1
    tasks.fire_timer.delay(str(game.pk), stale)
    assert worker.run() == 1
    assert not scores(game).exists()
    # The same timer delivered twice, both due now: one score.
    assert game.deadline_at is not None
    Game.objects.filter(pk=game.pk).update(deadline_at=game.deadline_at - timedelta(seconds=3))
    tasks.fire_timer.delay(str(game.pk), game.version)
    tasks.fire_timer.delay(str(game.pk), game.version)
    assert worker.run() == 2
    assert worker.run() == 0  # nothing follows a hot seat's turn
    assert scores(game).count() == 1
    assert_whole_log(game)


def test_a_worker_killed_mid_turn_loses_and_doubles_nothing(
    ann: Player, worker: QueuedTasks, settings: Settings
) -> None:
    game = new_game(ann, "yatzy", ["computer", {"type": "computer", "level": "casual"}])
    worker.run(limit=11)
    assert Game.objects.get(pk=game.pk).version == 12  # a few moves
    # Killed with the next move in hand: that task is lost.
    lost = worker.lose()
    assert [name for name, _args in lost] == ["games.tasks.play_computer_move"]
    stopped = Game.objects.get(pk=game.pk)
    assert worker.run() == 0
    assert Game.objects.get(pk=game.pk).version == stopped.version  # nobody else is playing
    # Beat's sweep brings the stalled turn back to life once it is past its pause and grace...
    idle = settings.GAMES_SWEEP_GRACE_SECONDS + settings.GAMES_COMPUTER_MOVE_DELAY
    assert stopped.last_move_at is not None
    assert automation.sweep(now=stopped.last_move_at + timedelta(seconds=idle + 0.1)) == 1
    # ... and the lost task, delivered again late, does nothing.
    for name, args in lost:
        assert app.tasks[name].apply(tuple(args)).get() is False
    worker.run()
    assert finished(game)
    assert scores(game).count() == 26
    assert_whole_log(game)


def test_a_tournament_runs_on_the_worker_and_beat_with_an_absent_human(
    organiser: Player, worker: QueuedTasks
) -> None:
    from games.tournaments import services as tournaments
    from games.tournaments.models import Tournament, TournamentStatus

    away = account("away")
    cup = new_tournament(
        organiser,
        name="Worker cup",
        starts_at=timezone.now() + timedelta(seconds=2),
        rated=True,
        turn_clock_seconds=1,
        computers=["casual", "optimal"],
    )
    tournaments.tournament_register(tournament_id=cup.pk, player=away)
    clock = Clock(cup.starts_at.timestamp())
    wheel = DatabaseWheel()
    runner = TimerRunner(wheel=wheel, clock=clock)

    def over() -> bool:
        return Tournament.objects.get(pk=cup.pk).status == TournamentStatus.FINISHED

    for _step in range(2000):  # beat starts it, the worker plays, the clock plays the absentee
        if over():
            break
        tournaments.tournaments_tick(now=clock.moment)
        worker.run()
        due = wheel.next_due()
        clock.now = max(clock.now, due or clock.now)  # on to the next timer
        runner.run_once()
    assert over()
    games = Game.objects.filter(tournament_game__round__tournament=cup)
    assert games.count() == 3 and all(finished(game) for game in games)
    for game in games.filter(seats__player=away):
        seat = game.seats.get(player=away).index
        played = GameEvent.objects.filter(game=game, data__seat=seat, type="box_scored")
        # A rated game: the stand-in plays the first timed-out turn, the second forfeits it.
        assert played.count() == 1
        assert all(event.automatic for event in played)  # her turn handed to the stand-in
        left = GameEvent.objects.get(game=game, data__seat=seat, type="seat_left")
        assert left.automatic and left.data["reason"] == "timed_out"
        assert game.seats.get(player=away).place == 2
        assert_whole_log(game)
