"""``GET games/{id}/analysis/``: a played game's luck against skill (``ai.analysis``), per seat
and per decision, with the identity ``value = expected start + luck - skill loss``.

A finished game's analysis is open to anyone. During play it is given only where the computer's
help is (the game's ``assistance``: unrated games outside tournaments, unless turned off), for
the moves already made.

The fold of the log is kept per game version (``games.analysis.fold_cache``) as ``Kept``: the seats'
lines, the picture's chart, and the answer's long lists (its turns, decisions and rolls) written
as JSON once, in no language and without the seats' names. Each answer is made from it: the head
(the method in the request's language, the seats with their names as they are now) written per
request, the long lists spliced in as they were written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer

from ai.analysis import Chart, Decision, Roll, SeatLine, Turn
from config.vocabulary.refusals import Refusal
from games.analysis import fold_cache
from games.fairness.seeds import OVER
from games.kinds import Analyst, kind_for
from games.models import Game, GameId, GameStatus
from games.selectors import game_get

#: Values are given to this many decimals; the identity holds up to that rounding.
DECIMALS = 2
#: Chances to win (0 to 1), to this many: the exact two-seat values of Dés 10 000 are given whole.
CHANCE_DECIMALS = 6


def _allowed(game: Game) -> None:
    # During play, only where the computer may help (``assistance``: never in rated or
    # tournament games).
    if game.status == GameStatus.OPEN:
        raise Refusal.GAME_NOT_STARTED.error()
    if game.status not in OVER and not game.assistance:
        raise Refusal.ANALYSIS_AFTER_THE_GAME.error()


@dataclass(frozen=True)
class Kept:
    """A game's analysis at one version, as it is kept: in no language, without the seats'
    names. A few small objects and one string, so that reading it back costs little."""

    finished: bool
    #: Each seat's line, in seat order.
    lines: list[SeatLine]
    #: What the picture plots.
    chart: Chart
    #: The answer's ``"turns":[...],"decisions":[...],"rolls":[...]``, as the API writes JSON.
    lists: bytes


def game_to_analyse(game_id: GameId) -> tuple[Game, Analyst]:
    """The game (its seats loaded) and its kind's analyst, where its analysis may be given (else
    the refusal): nothing is folded yet."""
    game = game_get(game_id)
    analyst = kind_for(game.kind).analyst
    if analyst is None:
        raise Refusal.ANALYSIS_NOT_AVAILABLE.error()
    _allowed(game)
    return game, analyst


def seat_names(game: Game) -> list[str]:
    """Each seat's name now, in seat order."""
    return [seat.display_name for seat in game.seats.all()]


def game_kept(game: Game, analyst: Analyst) -> Kept:
    """The game's analysis at its version: folded once, then read back
    (``games.analysis.fold_cache``)."""
    return fold_cache.per_version(game, "analysis", lambda: _kept(game, analyst))


def _kept(game: Game, analyst: Analyst) -> Kept:
    analysis = fold_cache.analysis_folded(game, analyst)
    lists = {
        "turns": [_turn(t) for t in analysis.turns],
        "decisions": [_decision(d) for d in analysis.decisions],
        "rolls": [_roll(r) for r in analysis.rolls],
    }
    written = JSONRenderer().render(lists)
    return Kept(analysis.finished, analysis.seats, analyst.chart(analysis), written[1:-1])


#: A finished game's analysis never changes: its seats' summaries are kept this long.
SUMMARY_SECONDS = 30 * 24 * 3600


Summaries = list[dict[str, float | None]]


def seat_summaries_of(games: list[Game]) -> dict[Any, Summaries]:
    """Each finished game's luck, skill loss and accuracy per seat, by game id (games of a kind
    with no analysis, or not finished, are left out). Computed once and kept in the cache, which
    is read in one round trip: a player's statistics read up to fifty games."""
    analysable = [
        game
        for game in games
        if kind_for(game.kind).analyst is not None and game.status == GameStatus.FINISHED
    ]
    keys = {f"analysis:v1:{game.pk}": game for game in analysable}
    found: dict[str, Summaries] = cache.get_many(list(keys))
    missing: dict[str, Summaries] = {}
    for key, game in keys.items():
        if key not in found:
            analyst = kind_for(game.kind).analyst
            assert analyst is not None
            missing[key] = [
                {"luck": line.luck, "skill_loss": line.skill_loss, "accuracy": line.accuracy}
                for line in fold_cache.analysis_folded(game, analyst).seats
            ]
    if missing:
        cache.set_many(missing, SUMMARY_SECONDS)
    return {keys[key].pk: summaries for key, summaries in {**found, **missing}.items()}


def _r(value: float) -> float:
    return round(value, DECIMALS)


def _seat(line: SeatLine, name: str) -> dict[str, Any]:
    return {
        "seat": line.seat,
        "name": name,
        "expected_start": _r(line.expected_start),
        "luck": _r(line.luck),
        "skill_loss": _r(line.skill_loss),
        "value_now": _r(line.value_now),
        "final": line.final,
        "decisions": line.decisions,
        "accuracy": None if line.accuracy is None else round(line.accuracy, 4),
    }


def _decision(d: Decision) -> dict[str, Any]:
    return {
        "seq": d.seq, "seat": d.seat, "turn": d.turn, "move": d.move, "best_move": d.best_move,
        "value": _r(d.value), "best_value": _r(d.best_value), "loss": _r(d.loss),
        "win_loss": _chance(d.win_loss),
    }  # fmt: skip


def _roll(r: Roll) -> dict[str, Any]:
    return {
        "seq": r.seq, "seat": r.seat, "turn": r.turn, "before": _r(r.before),
        "after": _r(r.after), "luck": _r(r.luck),
    }  # fmt: skip


def _turn(t: Turn) -> dict[str, Any]:
    return {
        "seat": t.seat, "turn": t.turn, "expected": _r(t.expected), "luck": _r(t.luck),
        "skill_loss": _r(t.skill_loss), "points": t.points,
        "win_before": _chance(t.win_before), "win_after": _chance(t.win_after),
    }  # fmt: skip


def _chance(value: float | None) -> float | None:
    return None if value is None else round(value, CHANCE_DECIMALS)


def head(game: Game, analyst: Analyst, kept: Kept, names: list[str]) -> dict[str, Any]:
    """The answer but its long lists: in the request's language, with the seats' names."""
    return {
        "game": str(game.pk),
        "kind": game.kind,
        "finished": kept.finished,
        "method": {
            "values": str(analyst.values),
            "luck": _(
                "Luck of a roll: the value after it minus the value before it (its expected value)."
            ),
            "skill_loss": _(
                "Loss of a decision: the value of the best choice minus the value of the choice "
                "made; accuracy is the share of decisions with no loss."
            ),
            "identity": (
                _("For every turn and every seat: points = expected + luck - skill loss.")
                if analyst.by_turn
                else _("For every seat: final = expected start + luck - skill loss.")
            ),
        },
        "seats": [_seat(line, names[line.seat]) for line in kept.lines],
    }


def written(head_json: bytes, kept: Kept) -> bytes:
    """The whole answer as JSON: the head as written (an object), the long lists after it."""
    return head_json[:-1] + b"," + kept.lists + b"}"


def body(game: Game, analyst: Analyst, kept: Kept, names: list[str]) -> dict[str, Any]:
    """The whole answer as data (what ``written`` writes)."""
    return {**head(game, analyst, kept, names), **json.loads(b"{" + kept.lists + b"}")}
