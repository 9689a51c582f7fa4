"""Each game kind's definition (games.kinds) is complete and agrees with itself: its levels, seats
and policies hold together, and its engine, presenter and computer agree on whole games."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.kinds import KINDS, Engine, Kind, Presenter, kind_for, kind_label, level_label
from games.kinds.registry import kind_choices
from games.models import Game, Occupant

ROOT = Path(__file__).resolve().parents[2]
EVERY_KIND = pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))


def members(protocol: type) -> list[str]:
    return [name for name in vars(protocol) if not name.startswith("_")]


@EVERY_KIND
def test_the_registry_finds_each_kind_by_its_code(kind: Kind) -> None:
    assert kind_for(kind.code) is kind
    assert kind_label(kind.code) == str(kind.label)
    assert str(kind.label)


def test_the_kinds_are_the_choices_of_a_games_kind() -> None:
    assert [code for code, _ in kind_choices()] == list(KINDS)
    assert [code for code, _ in Game._meta.get_field("kind").flatchoices] == list(KINDS)
    with pytest.raises(KeyError):
        kind_for("chess")


@EVERY_KIND
def test_engine_and_presenter_provide_all_the_move_path_asks(kind: Kind) -> None:
    for name in members(Engine):
        assert callable(getattr(kind.engine, name)), name
    for name in members(Presenter):
        assert callable(getattr(kind.presenter, name)), name


@EVERY_KIND
def test_levels_ratings_and_defaults(kind: Kind) -> None:
    assert kind.levels, "a kind without a computer could fill no idle seat"
    for name, level in kind.levels.items():
        assert level.name == name
        assert str(level.label)
        assert isinstance(level.rating, float) and 100 <= level.rating <= 3000
        assert kind.level_rating(name) == level.rating
        assert kind.level_for(name) == name
    assert kind.default_level in kind.levels
    assert kind.level_for("") == kind.default_level
    assert kind.level_for("grandmaster") is None


def test_a_level_name_means_one_level_whatever_the_kind() -> None:
    seen: dict[str, Any] = {}
    for kind in KINDS.values():
        for level in kind.levels.values():
            assert seen.setdefault(level.name, level) == level
            assert level_label(level.name) == level.label


@EVERY_KIND
def test_seats(kind: Kind) -> None:
    seats = kind.seats
    assert 1 <= seats.least <= seats.most
    assert seats.most >= 2, "tournaments seat at least two at a table"
    assert seats.allow(people=seats.least, computers=0)
    assert seats.allow(people=1, computers=1)
    assert not seats.allow(people=seats.most + 1, computers=0)
    assert not seats.allow(people=0, computers=seats.least - 1)
    # The largest table allowed is reachable with people and a computer.
    people = min(seats.most - 1, seats.most_people or seats.most)
    assert seats.allow(people=people, computers=1)


def test_ten_thousand_is_humans_and_one_computer() -> None:
    seats = kind_for("ten_thousand").seats
    assert seats.allow(people=6, computers=1)
    assert not seats.allow(people=5, computers=2)
    assert not seats.allow(people=7, computers=0)
    assert not kind_for("yatzy").seats.allow(people=7, computers=0)


def roller(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda n: tuple(rng.randint(1, 6) for _ in range(n))


def play(kind: Kind, level: str, seed: int, seats: int = 2) -> Iterator[tuple[Any, list[Any]]]:
    """A whole game of the computer at ``level`` against itself: each state, with the events
    that led to it."""
    engine = kind.engine
    events = engine.start(seats, engine.options_from_wire({}))
    state = None
    for event in events:
        state = engine.apply(state, event)
    yield state, events
    dice = roller(seed)
    assert state is not None
    for _ in range(5000):
        if state.finished:
            return
        seat = state.current_seat
        assert seat is not None
        command = engine.command_from_wire(kind.computer(state, level), seat)
        events = engine.decide(state, command, dice)
        for event in events:
            state = engine.apply(state, event)
        yield state, events
    raise AssertionError("the game did not end")


@EVERY_KIND
def test_engine_presenter_and_computer_agree_over_whole_games(kind: Kind) -> None:
    engine, presenter = kind.engine, kind.presenter
    for number, level in enumerate(kind.levels):
        log: list[Any] = []
        for state, events in play(kind, level, seed=number):
            log += events
            wire = state.to_wire()
            again = engine.state_from_wire(wire)
            assert again == state
            assert again.to_wire() == wire
            assert presenter.present(wire) == presenter.present_rules(state)
            for event in events:
                assert engine.event_from_wire(event.to_wire()) == event
                messages = presenter.event_messages(event.type)
                assert all(set(message) == {"code", "text"} for message in messages)
            if state.finished:
                continue
            seat = state.current_seat
            # The hint and the timer's move are moves the rules accept for the seat to play.
            for command in (kind.hint(state)["move"], kind.timer_move(state)):
                engine.decide(state, engine.command_from_wire(command, seat), roller(0))
        assert state.finished
        assert engine.replay(engine.event_from_wire(e.to_wire()) for e in log) == state


@EVERY_KIND
def test_the_timer_plays_the_auto_confirm_where_due_else_the_stand_in(kind: Kind) -> None:
    due = 0
    for state, _events in play(kind, kind.default_level, seed=7):
        if state.finished:
            continue
        confirm = kind.auto_confirm
        if confirm is not None and confirm.seconds(state):
            due += 1
            for assistance in (False, True):
                played = kind.timer_move(state, assistance=assistance)
                assert played == confirm.move(state, assistance)
        else:
            # The turn clock's stand-in (games.rules.ending), not the computer: it never plays
            # better than the player would; in a rated game a second time out forfeits.
            assert kind.timer_move(state) == {"type": "time_out", "forfeits": False}
            assert kind.timer_move(state, rated=True) == {"type": "time_out", "forfeits": True}
    assert (due > 0) == (kind.auto_confirm is not None)


@EVERY_KIND
def test_setup_labels(kind: Kind) -> None:
    for occupants in ([Occupant.PLAYER], [Occupant.PLAYER, Occupant.HOTSEAT, Occupant.COMPUTER]):
        label = kind.presenter.setup_label([str(o) for o in occupants])
        assert label is None or str(label)


DISPATCH = re.compile(r"isinstance\(.*State\)|\bkind ==|== *[\"']yatzy|== *[\"']ten_thousand")


def test_no_module_tells_one_kind_from_another_but_the_kinds_and_the_rules() -> None:
    found = []
    for folder in ("config", "games", "players", "ai"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(("games/kinds/", "games/rules/")):
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if DISPATCH.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


def test_the_move_refusals_each_kind_names_are_every_one_its_rules_raise() -> None:
    from config.vocabulary.refusals import Refusal
    from games.api.views import GameMoveView
    from tests.api.test_refusals import rule_codes

    named = {code for kind in KINDS.values() for code in kind.refusals}
    for code in named:
        Refusal.of_code(code)  # an entry of the one vocabulary
    documented = {refusal.code for refusal in GameMoveView.post._refusals}  # type: ignore[attr-defined]
    raised, _ = rule_codes([ROOT / "games" / "rules"])
    # What the rules raise but a move: at a game's start (its options, its seats), and on the
    # endpoints that end a game (ending.py's own: abort, claim, the staff's).
    elsewhere = {"invalid_option", "invalid_seat_count"}
    elsewhere |= {"abort_too_late", "claim_not_allowed", "seat_out", "invalid_winner"}
    assert {code for code, where in raised.items() if "ending.py" in where} <= elsewhere | {
        "not_your_turn",
        "game_finished",
    }
    assert named <= documented
    assert set(raised) - elsewhere <= documented


def test_no_application_file_names_a_kind_outside_its_own_modules() -> None:
    """Its rules, presenter, Kind and computer (and its analysis) are a kind's own modules, and
    the registry names them; no other module of the application names a kind."""
    found = []
    for code in KINDS:
        own = (
            f"games/rules/{code}",
            f"games/presenters/{code}",
            f"games/kinds/{code}",
            f"ai/{code}",
            f"ai/analysis/{code}",
        )
        for folder in ("config", "games", "players", "ai"):
            for path in (ROOT / folder).rglob("*"):
                relative = path.relative_to(ROOT).as_posix()
                if path.suffix not in {".py", ".html"} or "/migrations/" in relative:
                    continue
                if relative.startswith(own) or relative == "games/kinds/registry.py":
                    continue
                if code in path.read_text().lower():
                    found.append(f"{relative}: {code}")
    assert found == []
