"""The moves the server makes by itself: computer seats and the timers (auto-confirm, the turn
clock). Each takes the one move path with ``expected_version`` set to the version it was
scheduled for: run twice, late, or after a player moved, all but the first is refused as stale.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from config.observability.metrics import TIMER_LAG_SECONDS
from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from games import services
from games.kinds import kind_for
from games.models import Game, GameId, GameStatus, Occupant

log = logging.getLogger(__name__)


def _load(game_id: GameId, version: int) -> tuple[Game, Any] | None:
    game = Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE, version=version).first()
    if game is None:
        return None
    assert game.state is not None
    return game, kind_for(game.kind).engine.state_from_wire(game.state)


def _move(game_id: GameId, command: dict[str, Any], version: int) -> bool:
    try:
        services.game_move(
            game_id=game_id, command=command, actor=None, expected_version=version, automatic=True
        )
    except ApiError as exc:
        # Stale or finished: someone moved first. Anything else is a bug worth a log line.
        if exc.get_codes() not in (Refusal.STALE_VERSION.code, Refusal.GAME_FINISHED.code):
            log.error("automatic move %s refused in game %s: %s", command, game_id, exc.detail)
        return False
    return True


def game_play_computer(*, game_id: GameId, version: int) -> bool:
    """Play one move for the computer seat whose turn it is at ``version``; False if none."""
    loaded = _load(game_id, version)
    if loaded is None:
        return False
    game, state = loaded
    seat = game.seats.filter(index=state.current_seat, occupant=Occupant.COMPUTER).first()
    if seat is None:
        return False
    return _move(game.pk, kind_for(game.kind).computer(state, seat.level), version)


def game_fire_timer(*, game_id: GameId, version: int, now: datetime | None = None) -> bool:
    """Move for the idle seat at ``version`` once its ``deadline_at`` is due (the kind's
    auto-confirm, else the turn clock's stand-in); False if nothing was due."""
    now = now or timezone.now()
    # One query, no model: the timers process fires this at every deadline (None: not yet due,
    # or moved on).
    row = (
        Game.objects.filter(
            pk=game_id, status=GameStatus.ACTIVE, version=version, deadline_at__lte=now
        )
        .values_list("kind", "state", "deadline_at", "rated", "assistance")
        .first()
    )
    if row is None:
        return False
    kind, wire, deadline_at, rated, assistance = row
    # An active game has its state; the filter matched a deadline: neither is None.
    assert wire is not None and deadline_at is not None
    state = kind_for(kind).engine.state_from_wire(wire)
    TIMER_LAG_SECONDS.observe((now - deadline_at).total_seconds())
    command = kind_for(kind).timer_move(state, rated=rated, assistance=assistance)
    return _move(game_id, command, version)


def sweep(*, now: datetime | None = None) -> int:
    """Catch every automatic move whose task was lost or delayed: due deadlines, and computer turns
    idle longer than their pause. Returns how many moves it made. Beat runs it every second."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.GAMES_SWEEP_GRACE_SECONDS)
    moved = 0
    # The longest waiting first, as the timers process claims them: after an outage, with more
    # than 500 overdue, the oldest are not left to the next sweeps.
    due = Game.objects.filter(status=GameStatus.ACTIVE, deadline_at__lte=now - grace)
    for game_id, version in due.order_by("deadline_at").values_list("pk", "version")[:500]:
        moved += game_fire_timer(game_id=game_id, version=version, now=now)
    idle_since = now - grace - timedelta(seconds=settings.GAMES_COMPUTER_MOVE_DELAY)
    stalled = Game.objects.filter(
        status=GameStatus.ACTIVE,
        last_move_at__lte=idle_since,
        seats__occupant=Occupant.COMPUTER,
        seats__index=F("turn_seat"),
    )
    for game_id, version in stalled.values_list("pk", "version")[:500]:
        moved += game_play_computer(game_id=game_id, version=version)
    return moved


def run_until_idle(game_id: GameId, *, limit: int = 10_000) -> int:
    """Play every computer move due in a game right now, synchronously (tests, tools)."""
    moves = 0
    while moves < limit:
        game = Game.objects.get(pk=game_id)
        if not game_play_computer(game_id=game_id, version=game.version):
            return moves
        moves += 1
    return moves
