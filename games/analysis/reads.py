"""``GET games/{id}/analysis/``: a played game's luck against skill (``ai.analysis``), per seat
and per decision, with the identity ``value = expected start + luck - skill loss``. A finished
game's is open to anyone; during play, only where the computer may help (``assistance``).

The fold is kept per game version (``fold_cache``) as ``Kept``: the seats' lines, the chart, and
the answer's long lists written as JSON once, in no language and without the seats' names. Each
answer writes its head per request (the request's language, the names as they are now) and
splices the lists in as they were written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict, TypeVar, cast

from django.core.cache import cache
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer

from ai.analysis import Chart, SeatLine
from config.vocabulary.refusals import Refusal
from games.analysis import fold_cache
from games.fairness.seeds import OVER
from games.kinds import Analyst, kind_for
from games.models import Game, GameId, GameStatus
from games.rules.base import Doc
from games.selectors import game_get

#: Values are given to this many decimals; the identity holds up to that rounding.
DECIMALS = 2
#: Chances to win (0 to 1), to this many: the exact two-seat values of Dés 10 000 are given whole.
CHANCE_DECIMALS = 6


def _allowed(game: Game) -> None:
    if game.status == GameStatus.OPEN:
        raise Refusal.GAME_NOT_STARTED.error()
    if game.status not in OVER and not game.assistance:
        raise Refusal.ANALYSIS_AFTER_THE_GAME.error()


@dataclass(frozen=True)
class Kept:
    """A game's analysis at one version, as kept: in no language, without the seats' names."""

    finished: bool
    #: Each seat's line, in seat order.
    lines: list[SeatLine]
    #: What the picture plots.
    chart: Chart
    #: The answer's ``"turns":[...],"decisions":[...],"rolls":[...]``, as the API writes JSON.
    lists: bytes


def game_to_analyse(game_id: GameId) -> tuple[Game, Analyst]:
    """The game (its seats loaded) and its kind's analyst, where its analysis may be given."""
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
    """The game's analysis at its version: folded once, then read back."""
    return fold_cache.per_version(game, "analysis", lambda: _kept(game, analyst))


def _kept(game: Game, analyst: Analyst) -> Kept:
    analysis = fold_cache.analysis_folded(game, analyst)
    lists = {
        "turns": [_row(AnalysisTurn, t) for t in analysis.turns],
        "decisions": [_row(AnalysisDecision, d) for d in analysis.decisions],
        "rolls": [_row(AnalysisRoll, r) for r in analysis.rolls],
    }
    written = JSONRenderer().render(lists)
    return Kept(analysis.finished, analysis.seats, analyst.chart(analysis), written[1:-1])


Summaries = list[dict[str, float | None]]


def seat_summaries_of(games: list[Game]) -> dict[Any, Summaries]:
    """Each finished, analysable game's luck, skill loss and accuracy per seat, by game id; kept
    in the cache, read in one round trip (a player's statistics read up to fifty games)."""
    keys = {
        f"analysis:v1:{game.pk}": game
        for game in games
        if kind_for(game.kind).analyst is not None and game.status == GameStatus.FINISHED
    }
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
        cache.set_many(missing, fold_cache.FINISHED_SECONDS)  # a finished game's never change
    return {keys[key].pk: summaries for key, summaries in {**found, **missing}.items()}


class AnalysisSeat(TypedDict):
    seat: int
    name: str
    expected_start: Annotated[float, Doc("The seat's value at the start, as the kind counts it")]
    luck: float
    skill_loss: float
    value_now: Annotated[float, Doc("expected_start + luck - skill_loss")]
    final: int | None
    decisions: int
    accuracy: float | None


class AnalysisTurn(TypedDict):
    seat: int
    turn: int
    expected: float
    luck: float
    skill_loss: float
    points: int | None
    win_before: Annotated[float | None, Doc("Two seats: the seat's chance to win before the turn")]
    win_after: float | None


class AnalysisDecision(TypedDict):
    seq: int
    seat: int
    turn: int
    move: Annotated[dict[str, Any], Doc("The move made (free-form: see the schema's description)")]
    best_move: Annotated[dict[str, Any], Doc("The computer's best move there")]
    value: float
    best_value: float
    loss: float
    win_loss: Annotated[
        float | None, Doc("Two seats: the chance to win the move gave away (else null)")
    ]


class AnalysisRoll(TypedDict):
    seq: int
    seat: int
    turn: int
    before: float
    after: float
    luck: float


class AnalysisHead(TypedDict):
    game: Annotated[str, Doc(format="uuid")]
    kind: str
    finished: bool
    method: Annotated[dict[str, str], Doc("How the values are counted, in the request's language")]
    seats: list[AnalysisSeat]


class Analysis(AnalysisHead):
    turns: list[AnalysisTurn]
    decisions: list[AnalysisDecision]
    rolls: list[AnalysisRoll]


#: The digits of the fields not given to ``DECIMALS``: a chance to win, a share.
_FINE = {"win_before": CHANCE_DECIMALS, "win_after": CHANCE_DECIMALS,
         "win_loss": CHANCE_DECIMALS, "accuracy": 4}  # fmt: skip
Row = TypeVar("Row")


def _row(form: type[Row], item: Any, **given: Any) -> Row:
    """``item``'s fields (or ``given``) that ``form`` lists, floats rounded."""
    row = {key: given[key] if key in given else getattr(item, key) for key in form.__annotations__}
    digits = {key: _FINE.get(key, DECIMALS) for key in row}
    return cast(
        Row, {k: round(v, digits[k]) if isinstance(v, float) else v for k, v in row.items()}
    )


def head(game: Game, analyst: Analyst, kept: Kept, names: list[str]) -> AnalysisHead:
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
        "seats": [_row(AnalysisSeat, line, name=names[line.seat]) for line in kept.lines],
    }


def written(head_json: bytes, kept: Kept) -> bytes:
    """The whole answer as JSON: the head as written (an object), the long lists after it."""
    return head_json[:-1] + b"," + kept.lists + b"}"


def body(game: Game, analyst: Analyst, kept: Kept, names: list[str]) -> Analysis:
    """The whole answer as data (what ``written`` writes)."""
    lists = json.loads(b"{" + kept.lists + b"}")
    return cast(Analysis, {**head(game, analyst, kept, names), **lists})
