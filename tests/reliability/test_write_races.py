"""Every pair of writes that can touch the same rows (docs/writes.md lists them, with the rule
that decides each), fired at the same instant against the service as deployed (`make serve` on
PostgreSQL: tests/reliability/racing.py), many times each: half with the contended row held so
that both calls queue on it, half as they come.

Each race states the outcomes it allows, as (first call's, second call's): ``ok`` for a 2xx, else
the refusal's code. Those are the answers of the two calls run one after the other, in either
order: whatever the interleaving, the result is one of those, so every loser is told it lost
(a 4xx with its code, never a 2xx for a write that did not happen). Then the rows must agree with
the answers (the account answered 2xx is the one seated, one game was paired...), and every game
must have a whole log that replays to its snapshot.

Needs PostgreSQL and nginx (CI has both); the calls that are not requests (a timer, a computer's
move, beat starting a tournament, a ban) run the service in a thread of their own.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from django.db.models import Q
from django.utils import timezone

from games.ending import game_resign
from games.matchmaking.models import RematchOffer, Seek, SeekStatus
from games.matchmaking.seeks import PAIRING_LOCK
from games.models import Game, GameEvent, GameStatus, Seat
from games.moderation.actions import player_ban
from games.timers import automation
from games.tournaments import services as tournaments
from games.tournaments.models import Entrant, Tournament
from players.identity import skeleton_key
from players.models import Player
from tests.automation.checks import assert_whole_log
from tests.factories import account, deadline, new_game, new_tournament, organiser, token
from tests.reliability.racing import Answer, Call, Hold, Served, race, row, service

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
    # make serve starts several gunicorn workers only where they share their counts.
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
]

#: Races of each pair in each mode (held, free); RACE_TRIES=100 for a long run.
TRIES = int(os.environ.get("RACE_TRIES", "6"))

Outcomes = set[tuple[str, str]]


@pytest.fixture(scope="module")
def served(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("write-races"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["held", "free"])
def held(request: pytest.FixtureRequest, transactional_db: None) -> bool:
    """Whether the contended row is held until both calls queue on it."""
    return bool(request.param == "held")


def check(answers: tuple[Answer, Answer], allowed: Outcomes) -> tuple[Answer, Answer]:
    """The two answers are one of the serial outcomes, and each refusal is a 4xx with a code."""
    outcome = (answers[0].outcome, answers[1].outcome)
    assert outcome in allowed, (outcome, [answer.body for answer in answers])
    for answer in answers:
        if not answer.ok:
            assert 400 <= answer.status < 500 and answer.code, answer
    return answers


def logs_whole() -> None:
    """Every game that has a log: gap-free from 1 to its version, replaying to its snapshot."""
    for game in Game.objects.exclude(status=GameStatus.OPEN):
        assert_whole_log(game)


def in_log(answer: Answer, game: Game) -> None:
    """A move answered 2xx: each event it answered is in the log, at its seq."""
    for event in answer.body["events"]:
        stored = GameEvent.objects.get(game=game, seq=event["seq"])
        assert stored.type == event["type"], (stored.type, event)


def seated(game: Game) -> list[int | None]:
    return list(Seat.objects.filter(game=game).order_by("index").values_list("player", flat=True))


def held_row(hold: Hold, on: bool) -> Hold | None:
    return hold if on else None


def game_row(game: Game) -> Hold:
    return row("games_game", game.pk)


# --- games before the start -----------------------------------------------------------------


def join(served: Served, game: Game, player: Player, **body: Any) -> Call:
    return served.call("POST", f"games/{game.pk}/join/", body, token=token(player))


def test_two_accounts_racing_for_one_seat(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann, bob = account(), account(), account()
        game = new_game(host, seats=("me", "open"), start=False)
        answers = race(
            join(served, game, ann), join(served, game, bob), held_row(game_row(game), held)
        )
        a, b = check(answers, {("ok", "no_open_seat"), ("no_open_seat", "ok")})
        winner, answer = (ann, a) if a.ok else (bob, b)
        assert seated(game) == [host.pk, winner.pk]
        assert answer.body["your_seats"] == [1]


def test_one_account_joining_twice_at_once(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open", "open"), start=False)
        answers = race(
            join(served, game, ann), join(served, game, ann), held_row(game_row(game), held)
        )
        check(answers, {("ok", "already_seated"), ("already_seated", "ok")})
        assert seated(game).count(ann.pk) == 1


def test_the_last_seat_leaving_as_the_game_starts(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), joiners=[ann], start=False)
        start = served.call("POST", f"games/{game.pk}/start/", token=token(host))
        leave = served.call("POST", f"games/{game.pk}/leave/", token=token(ann))
        answers = race(start, leave, held_row(game_row(game), held))
        started, _left = check(answers, {("ok", "game_not_open"), ("seats_not_filled", "ok")})
        game.refresh_from_db()
        assert (game.status == GameStatus.ACTIVE) == started.ok
        assert seated(game) == ([host.pk, ann.pk] if started.ok else [host.pk, None])
    logs_whole()


def test_the_last_seat_taken_as_the_game_starts(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), start=False)
        start = served.call("POST", f"games/{game.pk}/start/", token=token(host))
        answers = race(start, join(served, game, ann), held_row(game_row(game), held))
        started, _joined = check(answers, {("ok", "ok"), ("seats_not_filled", "ok")})
        game.refresh_from_db()
        assert (game.status == GameStatus.ACTIVE) == started.ok
        assert seated(game) == [host.pk, ann.pk]
    logs_whole()


def test_one_start_sent_twice(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host = account()
        game = new_game(host, seats=("me", {"type": "computer"}), start=False)
        start = served.call("POST", f"games/{game.pk}/start/", token=token(host))
        answers = race(start, start, held_row(game_row(game), held))
        first, second = check(answers, {("ok", "game_not_open"), ("game_not_open", "ok")})
        game.refresh_from_db()
        assert GameEvent.objects.filter(game=game, type="game_started").count() == 1
        assert (first if first.ok else second).body["status"] == GameStatus.ACTIVE
    logs_whole()


def test_the_creator_cancelling_as_someone_joins(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), start=False)
        cancel = served.call("DELETE", f"games/{game.pk}/", token=token(host))
        answers = race(cancel, join(served, game, ann), held_row(game_row(game), held))
        check(answers, {("ok", "not_found"), ("ok", "ok")})
        assert not Game.objects.filter(pk=game.pk).exists()


def test_the_creator_cancelling_as_the_game_starts(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), joiners=[ann], start=False)
        cancel = served.call("DELETE", f"games/{game.pk}/", token=token(host))
        start = served.call("POST", f"games/{game.pk}/start/", token=token(host))
        answers = race(cancel, start, held_row(game_row(game), held))
        cancelled, _started = check(answers, {("ok", "not_found"), ("game_not_open", "ok")})
        assert Game.objects.filter(pk=game.pk).exists() != cancelled.ok
    logs_whole()


def test_one_leave_sent_twice(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), joiners=[ann], start=False)
        leave = served.call("POST", f"games/{game.pk}/leave/", token=token(ann))
        answers = race(leave, leave, held_row(game_row(game), held))
        check(answers, {("ok", "not_a_seat_holder"), ("not_a_seat_holder", "ok")})
        assert seated(game) == [host.pk, None]


# --- games in play ----------------------------------------------------------------------------


def two_players() -> tuple[Game, Player, Player]:
    host, ann = account(), account()
    return new_game(host, seats=("me", "open"), joiners=[ann]), host, ann


def moves(served: Served, game: Game, player: Player, command: dict[str, Any], **body: Any) -> Call:
    return served.call("POST", f"games/{game.pk}/moves/", {**command, **body}, token=token(player))


def test_one_move_sent_twice_with_its_version(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = two_players()
        roll = moves(served, game, host, {"type": "roll"}, expected_version=game.version)
        answers = race(roll, roll, held_row(game_row(game), held))
        first, second = check(answers, {("ok", "stale_version"), ("stale_version", "ok")})
        in_log(first if first.ok else second, game)
        assert GameEvent.objects.filter(game=game, type="dice_rolled").count() == 1
    logs_whole()


def test_one_move_sent_twice_with_one_key(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = two_players()
        key = {"Idempotency-Key": str(uuid.uuid4())}
        roll = served.call(
            "POST", f"games/{game.pk}/moves/", {"type": "roll"}, token=token(host), headers=key
        )
        a, b = check(race(roll, roll, held_row(game_row(game), held)), {("ok", "ok")})
        assert sorted((a.replayed, b.replayed)) == [False, True]
        assert a.body == b.body
        in_log(a, game)
        assert GameEvent.objects.filter(game=game, type="dice_rolled").count() == 1
    logs_whole()


def test_two_moves_without_a_version_apply_one_after_the_other(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = two_players()
        roll = moves(served, game, host, {"type": "roll"})
        first, second = check(race(roll, roll, held_row(game_row(game), held)), {("ok", "ok")})
        versions = sorted(answer.body["game"]["version"] for answer in (first, second))
        assert versions == [game.version + 1, game.version + 2]
        in_log(first, game)
        in_log(second, game)
    logs_whole()


def rolled_out(served: Served, game: Game, player: Player) -> Game:
    """Three rolls of ``player``'s turn: its auto-confirm is due 3 s after the last."""
    for _roll in range(3):
        answer = served.request(
            "POST",
            f"/api/v1/games/{game.pk}/moves/",
            {"type": "roll"},
            token=token(player),
        )
        assert answer.ok, answer
    game.refresh_from_db()
    return game


def test_a_box_chosen_as_the_auto_confirm_fires(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = two_players()
        game = rolled_out(served, game, host)
        due = deadline(game)
        score = moves(served, game, host, {"type": "score", "box": "chance"})
        fire = service(
            partial(automation.game_fire_timer, game_id=game.pk, version=game.version, now=due)
        )
        answers = race(score, fire, held_row(game_row(game), held))
        scored, _fired = check(answers, {("ok", "stale"), ("not_your_turn", "ok")})
        if scored.ok:
            in_log(scored, game)
        # The turn was scored once, by whichever came first.
        boxes = GameEvent.objects.filter(game=game, type="box_scored", seq__gt=game.version)
        assert boxes.count() == 1
    logs_whole()


def test_a_computer_move_as_its_opponent_resigns(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host = account()
        game = new_game(host, seats=({"type": "computer"}, "me"))
        resign = served.call("POST", f"games/{game.pk}/resign/", token=token(host))
        computer = service(
            partial(automation.game_play_computer, game_id=game.pk, version=game.version)
        )
        resigned, played = check(
            race(resign, computer, held_row(game_row(game), held)),
            {("ok", "stale"), ("ok", "ok")},
        )
        in_log(resigned, game)
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED
        assert GameEvent.objects.filter(game=game, type="dice_rolled").count() == played.ok
    logs_whole()


def test_both_players_resigning_at_once(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, ann = two_players()
        first = served.call("POST", f"games/{game.pk}/resign/", token=token(host))
        second = served.call("POST", f"games/{game.pk}/resign/", token=token(ann))
        answers = race(first, second, held_row(game_row(game), held))
        a, _b = check(answers, {("ok", "game_finished"), ("game_finished", "ok")})
        winner = ann if a.ok else host
        assert Seat.objects.get(game=game, player=winner).place == 1
    logs_whole()


def test_an_abort_as_the_first_roll_is_played(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, ann = two_players()
        roll = moves(served, game, host, {"type": "roll"})
        abort = served.call("POST", f"games/{game.pk}/abort/", token=token(ann))
        answers = race(roll, abort, held_row(game_row(game), held))
        rolled, aborted = check(
            answers, {("ok", "ok"), ("ok", "abort_too_late"), ("game_finished", "ok")}
        )
        game.refresh_from_db()
        assert (game.status == GameStatus.ABORTED) == aborted.ok
        if rolled.ok:
            in_log(rolled, game)
    logs_whole()


def test_a_claim_as_the_idle_seat_moves(served: Served, held: bool) -> None:
    # The server lets a claim in at once (CLAIM_GRACE_SECONDS=0): only the order decides.
    for _try in range(TRIES):
        game, host, ann = two_players()
        roll = moves(served, game, host, {"type": "roll"})
        claim = served.call("POST", f"games/{game.pk}/claim/", token=token(ann))
        answers = race(roll, claim, held_row(game_row(game), held))
        rolled, claimed = check(answers, {("ok", "ok"), ("game_finished", "ok")})
        in_log(claimed, game)
        assert Seat.objects.get(game=game, player=ann).place == 1
        if rolled.ok:
            in_log(rolled, game)
    logs_whole()


def test_a_claim_as_the_turn_clock_runs_out(served: Served, held: bool) -> None:
    # A claim is let in once the seat to play has been idle for its turn clock, when the clock's
    # stand-in is due too: the games are made first, then raced once their clocks have run out
    # (no timers process runs here to play the stand-in first).
    tables = []
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), joiners=[ann], turn_clock_seconds=15)
        tables.append((game, ann))
    last = max(deadline(game) for game, _ann in tables)
    time.sleep(max(0.0, (last - timezone.now()).total_seconds()) + 0.5)
    for game, ann in tables:
        claim = served.call("POST", f"games/{game.pk}/claim/", token=token(ann))
        clock = service(partial(automation.game_fire_timer, game_id=game.pk, version=game.version))
        answers = race(claim, clock, held_row(game_row(game), held))
        claimed, _ran_out = check(answers, {("ok", "stale"), ("not_claimable", "ok")})
        game.refresh_from_db()
        # Claimed: the game is ann's. Run out: the stand-in played host's turn; ann's to play.
        assert (game.status == GameStatus.FINISHED) == claimed.ok
        if not claimed.ok:
            assert game.turn_seat == 1
    logs_whole()


def test_a_ban_as_the_account_moves(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = two_players()
        roll = moves(served, game, host, {"type": "roll"})
        answers = race(roll, banning(host), held_row(game_row(game), held))
        rolled, _banned = check(
            answers, {("ok", "ok"), ("game_finished", "ok"), ("authentication_failed", "ok")}
        )
        if rolled.ok:
            in_log(rolled, game)
        nowhere(host)
    logs_whole()


# --- rematches --------------------------------------------------------------------------------


def finished() -> tuple[Game, Player, Player]:
    game, host, ann = two_players()
    game_resign(game_id=game.pk, player=host)
    return game, host, ann


def rematch(served: Served, game: Game, player: Player) -> Call:
    return served.call("POST", f"games/{game.pk}/rematch/", token=token(player))


def test_both_players_offering_a_rematch_at_once(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, ann = finished()
        answers = race(
            rematch(served, game, host), rematch(served, game, ann), held_row(game_row(game), held)
        )
        a, b = check(answers, {("ok", "ok")})
        # The second offer to commit starts the one new game, which both offers then name.
        started = {answer.body["rematch"] for answer in (a, b)} - {None}
        assert len(started) == 1
        offers = RematchOffer.objects.filter(game=game)
        assert {str(offer.rematch_id) for offer in offers} == started
        assert Game.objects.filter(created_by=host).count() == 2
    logs_whole()


def test_one_rematch_offer_sent_twice(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, _ann = finished()
        offer = rematch(served, game, host)
        answers = race(offer, offer, held_row(game_row(game), held))
        check(answers, {("ok", "rematch_already_offered"), ("rematch_already_offered", "ok")})
        assert RematchOffer.objects.filter(game=game, player=host).count() == 1


def test_a_ban_as_the_last_rematch_offer_comes(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        game, host, ann = finished()
        rematch(served, game, ann)()
        ban = service(partial(player_ban, player_id=ann.pk))
        answers = race(
            rematch(served, game, host), ban, held_row(row("players_player", ann.pk), held)
        )
        offered, _banned = check(answers, {("ok", "ok"), ("rematch_unavailable", "ok")})
        # A new game with the banned account in it was resigned by the ban, or never made.
        assert not Game.objects.filter(
            seats__player=ann, status__in=(GameStatus.OPEN, GameStatus.ACTIVE)
        ).exists()
        assert RematchOffer.objects.filter(game=game, rematch__isnull=False).exists() == offered.ok
    logs_whole()


# --- seeks ------------------------------------------------------------------------------------

PAIRING = Hold([("SELECT pg_advisory_xact_lock(%s)", [PAIRING_LOCK])])


def no_open_seeks() -> None:
    """Each race starts with an empty lobby: a seek left open by the last would pair."""
    Seek.objects.filter(status=SeekStatus.OPEN).update(status=SeekStatus.WITHDRAWN)


def seek(served: Served, player: Player, **body: Any) -> Call:
    return served.call("POST", "seeks/", {"kind": "yatzy", **body}, token=token(player))


def test_two_compatible_seeks_at_once(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        no_open_seeks()
        ann, bob = account(), account()
        a, b = check(
            race(seek(served, ann), seek(served, bob), held_row(PAIRING, held)), {("ok", "ok")}
        )
        seeks = Seek.objects.filter(player__in=(ann, bob))
        assert {s.status for s in seeks} == {SeekStatus.PAIRED}
        assert len({s.game_id for s in seeks}) == 1
        # The second to commit answered paired, the first open (it was, when it committed).
        assert sorted(answer.body["status"] for answer in (a, b)) == ["open", "paired"]
    logs_whole()


def test_a_seek_withdrawn_as_another_pairs_with_it(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        no_open_seeks()
        ann, bob = account(), account()
        opened = seek(served, ann)()
        assert opened.ok and opened.body["status"] == "open", opened
        withdraw = served.call("DELETE", f"seeks/{opened.body['id']}/", token=token(ann))
        hold = row("matchmaking_seek", opened.body["id"])
        answers = race(withdraw, seek(served, bob), held_row(hold, held))
        withdrawn, sought = check(answers, {("ok", "ok"), ("seek_not_open", "ok")})
        assert sought.body["status"] == ("open" if withdrawn.ok else "paired")
        status = Seek.objects.get(pk=opened.body["id"]).status
        assert status == (SeekStatus.WITHDRAWN if withdrawn.ok else SeekStatus.PAIRED)
    logs_whole()


def test_one_seek_sent_twice_with_one_key(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        no_open_seeks()
        ann = account()
        key = {"Idempotency-Key": str(uuid.uuid4())}
        once = served.call("POST", "seeks/", {"kind": "yatzy"}, token=token(ann), headers=key)
        hold = Hold([("SELECT 1 FROM players_player WHERE id = %s FOR UPDATE", [ann.pk])])
        a, b = check(race(once, once, held_row(hold, held)), {("ok", "ok")})
        assert sorted((a.replayed, b.replayed)) == [False, True]
        assert a.body == b.body
        assert Seek.objects.filter(player=ann).count() == 1


def test_one_game_created_twice_with_one_key(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        ann = account()
        key = {"Idempotency-Key": str(uuid.uuid4())}
        body = {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]}
        create = served.call("POST", "games/", body, token=token(ann), headers=key)
        a, b = check(race(create, create, held_row(account_row(ann), held)), {("ok", "ok")})
        assert sorted((a.replayed, b.replayed)) == [False, True]
        assert a.body["id"] == b.body["id"]
        assert Game.objects.filter(created_by=ann).count() == 1


# --- tournaments ------------------------------------------------------------------------------


def tournament(**fields: Any) -> Tournament:
    return new_tournament(organiser(f"org-{uuid.uuid4().hex[:8]}"), **fields)


def enter(served: Served, cup: Tournament, player: Player) -> Call:
    return served.call("POST", f"tournaments/{cup.pk}/register/", token=token(player))


def tournament_row(cup: Tournament) -> Hold:
    return row("tournaments_tournament", cup.pk)


def test_two_accounts_racing_for_the_last_place(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        cup = tournament(max_entrants=2, computers=["casual"])
        ann, bob = account(), account()
        answers = race(
            enter(served, cup, ann), enter(served, cup, bob), held_row(tournament_row(cup), held)
        )
        a, _b = check(answers, {("ok", "tournament_full"), ("tournament_full", "ok")})
        entered = Entrant.objects.filter(tournament=cup, player__isnull=False)
        assert list(entered.values_list("player", flat=True)) == [(ann if a.ok else bob).pk]


def test_one_entry_sent_twice(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        cup, ann = tournament(), account()
        answers = race(
            enter(served, cup, ann), enter(served, cup, ann), held_row(tournament_row(cup), held)
        )
        check(answers, {("ok", "already_registered"), ("already_registered", "ok")})
        assert Entrant.objects.filter(tournament=cup, player=ann).count() == 1


def start_now(cup: Tournament) -> Call:
    return service(partial(tournaments.tournament_start, tournament_id=cup.pk))


def test_an_entry_as_the_tournament_starts(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        cup, ann = tournament(computers=["casual", "casual"]), account()
        answers = race(enter(served, cup, ann), start_now(cup), held_row(tournament_row(cup), held))
        entered, _started = check(answers, {("ok", "ok"), ("registration_closed", "ok")})
        # An entry that was answered 201 is in the pairing; one refused is nowhere.
        entry = Entrant.objects.filter(tournament=cup, player=ann).first()
        assert (entry is not None) == entered.ok
        assert entry is None or entry.seed_rating is not None
    logs_whole()


def test_a_withdrawal_as_the_tournament_starts(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        cup, ann = tournament(computers=["casual", "casual"]), account()
        tournaments.tournament_register(tournament_id=cup.pk, player=ann)
        withdraw = served.call("POST", f"tournaments/{cup.pk}/withdraw/", token=token(ann))
        answers = race(withdraw, start_now(cup), held_row(tournament_row(cup), held))
        withdrawn, _started = check(answers, {("ok", "ok"), ("registration_closed", "ok")})
        entry = Entrant.objects.get(tournament=cup, player=ann)
        assert (entry.withdrawn_at is not None) == withdrawn.ok
        # In the pairing (a seed rating) exactly when it was still entered at the start.
        assert (entry.seed_rating is None) == withdrawn.ok
    logs_whole()


# --- accounts ---------------------------------------------------------------------------------


def test_two_registrations_of_one_name(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        name = f"racer{uuid.uuid4().hex[:8]}"
        body = {"username": name, "password": "correct-horse-battery-staple"}
        register = served.call("POST", "accounts/register/", body)
        # Held: a registration of the same name, uncommitted: both wait on the name's index.
        hold = Hold(
            [
                (
                    "INSERT INTO players_player (password, is_superuser, username, first_name,"
                    " last_name, email, is_staff, is_active, date_joined, display_name,"
                    " username_skeleton) VALUES ('', false, %s, '', '', '', false, true, now(),"
                    " '', '')",
                    [name],
                )
            ]
        )
        answers = race(register, register, held_row(hold, held))
        check(answers, {("ok", "username_taken"), ("username_taken", "ok")})
        assert Player.objects.filter(username=name).count() == 1


def test_two_registrations_of_lookalike_names(served: Served, held: bool) -> None:
    # "m" and "rn" look alike (their TR39 skeletons are one): the check before the insert lets
    # both through when they come at once; the skeleton's unique index does not.
    for _try in range(TRIES):
        stem = f"racer{uuid.uuid4().hex[:8]}"
        password = "correct-horse-battery-staple"
        first = served.call(
            "POST", "accounts/register/", {"username": f"{stem}m", "password": password}
        )
        second = served.call(
            "POST", "accounts/register/", {"username": f"{stem}rn", "password": password}
        )
        # Held: a third lookalike's row, uncommitted: both wait on the skeleton's unique index.
        assert skeleton_key(f"{stem}m") == skeleton_key(f"{stem}rn")
        hold = Hold(
            [
                (
                    "INSERT INTO players_player (password, is_superuser, username, first_name,"
                    " last_name, email, is_staff, is_active, date_joined, display_name,"
                    " username_skeleton, skeleton_shared) VALUES ('', false, %s, '', '', '',"
                    " false, true, now(), '', %s, false)",
                    [f"{stem}x", skeleton_key(f"{stem}m")],
                )
            ]
        )
        answers = race(first, second, held_row(hold, held))
        check(answers, {("ok", "username_confusable"), ("username_confusable", "ok")})
        assert Player.objects.filter(username__startswith=stem).count() == 1


def signed_up(served: Served) -> tuple[Player, str, str]:
    """An account registered through the API (its password hashed as the server hashes them,
    not as the tests' fast hasher does): the account, its password and a token."""
    name, password = f"racer{uuid.uuid4().hex[:8]}", "correct-horse-battery-staple"
    answer = served.request(
        "POST", "/api/v1/accounts/register/", {"username": name, "password": password}
    )
    assert answer.ok, answer
    return Player.objects.get(username=name), password, answer.body["token"]


def banning(player: Player) -> Call:
    return service(partial(player_ban, player_id=player.pk))


def account_row(player: Player) -> Hold:
    return row("players_player", player.pk)


def nowhere(player: Player) -> None:
    """A cut-off account holds no seat in an open game or a game in play, nor an entry."""
    live = Q(status__in=(GameStatus.OPEN, GameStatus.ACTIVE))
    assert not Game.objects.filter(live, seats__player=player).exists()
    assert not Entrant.objects.filter(player=player, withdrawn_at__isnull=True).exists()


def test_a_ban_as_the_account_joins_a_game(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        host, ann = account(), account()
        game = new_game(host, seats=("me", "open"), start=False)
        answers = race(join(served, game, ann), banning(ann), held_row(account_row(ann), held))
        check(answers, {("ok", "ok"), ("authentication_failed", "ok")})
        nowhere(ann)
        # Joined first: the ban gave the seat back.
        assert seated(game) == [host.pk, None]


def test_a_ban_as_the_account_creates_a_game(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        ann = account()
        create = served.call(
            "POST",
            "games/",
            {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]},
            token=token(ann),
        )
        answers = race(create, banning(ann), held_row(account_row(ann), held))
        check(answers, {("ok", "ok"), ("authentication_failed", "ok")})
        nowhere(ann)
        assert not Game.objects.filter(created_by=ann, status=GameStatus.OPEN).exists()


def test_a_deletion_as_the_account_enters_a_tournament(served: Served, held: bool) -> None:
    for _try in range(TRIES):
        cup = tournament()
        ann, password, key = signed_up(served)
        delete = served.call("DELETE", "accounts/me/", {"password": password}, token=key)
        answers = race(enter(served, cup, ann), delete, held_row(account_row(ann), held))
        check(answers, {("ok", "ok"), ("authentication_failed", "ok")})
        nowhere(ann)


def test_two_sign_ins_at_once_both_get_a_token(served: Served, held: bool) -> None:
    # Not a conflict (each is a row of its own) but a write all the same: neither is lost.
    for _try in range(TRIES):
        ann, password, _token = signed_up(served)
        body = {"username": ann.username, "password": password}
        sign_in = served.call("POST", "accounts/token/", body)
        a, b = check(race(sign_in, sign_in, held_row(account_row(ann), held)), {("ok", "ok")})
        assert a.body["token"] != b.body["token"]
        for answer in (a, b):
            me = served.request("GET", "/api/v1/accounts/me/", token=answer.body["token"])
            assert me.ok and me.body["username"] == ann.username
