"""The folds of a game's log that its public reads answer from (its analysis, its state at an
event), kept in the cache so that a request folds a log at most once per game version.

A log is append-only, so a fold of its first ``n`` events never changes: a move makes a new
version, hence a new key, and nothing needs forgetting; a game in play's folds expire sooner. What
is kept is the fold alone, in no language and without the seats' names (the answer adds them per
request). The checks of the log (``manage.py verify_log``) never read these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.cache import cache

from ai.analysis import Analysis
from config.vocabulary.refusals import Refusal
from games import selectors
from games.fairness.seeds import OVER
from games.kinds import Analyst, WireState, kind_for
from games.models import Game

#: A finished game's folds never change: kept this long (a month).
FINISHED_SECONDS = 30 * 24 * 3600
#: A game in play moves on: its folds are kept this long.
IN_PLAY_SECONDS = 10 * 60
#: Part of every key: change it when what is kept changes shape (``games.analysis.reads.Kept``, a
#: state's wire form), so that no process reads what an older release kept.
VERSION = 2

T = TypeVar("T")
#: What a fold that gives None is kept as (the cache's own None means "not kept").
_NOTHING = "-"


def _kept(key: str, game: Game, fold: Callable[[], T]) -> T:
    found = cache.get(key)
    if found is not None:
        return cast(T, None if found == _NOTHING else found)
    value = fold()
    seconds = FINISHED_SECONDS if game.status in OVER else IN_PLAY_SECONDS
    cache.set(key, _NOTHING if value is None else value, seconds)
    return value


def per_version(game: Game, what: str, fold: Callable[[], T]) -> T:
    """What ``fold`` gives for the game at its version (``what`` names it), folded once."""
    return _kept(f"fold:v{VERSION}:{what}:{game.pk}:{game.version}", game, fold)


def analysis_folded(game: Game, analyst: Analyst) -> Analysis:
    """The game's analysis, folded from its log now (not kept here)."""
    engine = kind_for(game.kind).engine
    rows = selectors.game_events(game).iterator()
    return analyst.analyse((row.seq, engine.event_from_wire(row.data)) for row in rows)


def game_state_at(game: Game, at: int) -> WireState | None:
    """The state after event ``at`` (0 to the game's version, else ``invalid_seq``: as
    ``selectors.game_state_at``), replayed once; kept in its wire form."""
    if not 0 <= at <= game.version:
        raise Refusal.INVALID_SEQ.error()
    key = f"fold:v{VERSION}:state:{game.pk}:{at}"
    wire: dict[str, Any] | None = _kept(key, game, lambda: _state_wire(game, at))
    return None if wire is None else kind_for(game.kind).engine.state_from_wire(wire)


def _state_wire(game: Game, at: int) -> dict[str, Any] | None:
    state = selectors.game_state_at(game, at=at)
    return None if state is None else state.to_wire()
