"""The games API's answers, built as plain dicts from the rows and the rules state in hand.

A nested DRF serializer builds and binds a field object per field of every row it renders, and
re-reads the state's JSON to present it: on the move path that was most of the CPU of a move. These
functions give the same JSON (``tests/api/test_render.py`` compares them, game by game, with
``games.api.serializers``, which stay as the schema's documentation).
"""

from __future__ import annotations

from typing import Any

from games.fairness.seeds import fairness_body
from games.followups import live
from games.kinds import kind_for, kind_label
from games.models import Game, GameEvent, GameStatus, Occupant, Seat
from games.presenters.common import Translated, iso_datetime
from games.seating import controlled_seats

_STATUSES = Translated(dict(GameStatus.choices))
_OCCUPANTS = Translated(dict(Occupant.choices))


def player_ref(player: Any) -> dict[str, Any]:
    return {"id": player.pk, "username": player.username, "name": player.public_name}


def seat_body(seat: Seat) -> dict[str, Any]:
    occupant = str(seat.occupant)
    return {
        "index": seat.index,
        "kind": occupant,
        "kind_name": _OCCUPANTS.now().get(occupant, occupant),
        "name": seat.display_name,
        "player": player_ref(seat.player) if seat.player_id is not None else None,
        "open": seat.is_open,
        "ai_level": seat.level,
        "place": seat.place,
        "final_total": seat.final_total,
    }


def game_body(game: Game, state: Any, viewer: Any) -> dict[str, Any]:
    """``GameSerializer``'s answer. ``state``: the rules state of ``game.state`` when the caller
    has it (after a move), else None and the snapshot is read here; ``viewer``: the request's
    user (``your_seats``)."""
    kind, status = str(game.kind), str(game.status)
    presenter = kind_for(kind).presenter
    seats = list(game.seats.all())
    if game.state is None:
        presented = None
    elif state is not None:
        presented = presenter.present_rules(state)
    else:
        presented = presenter.present(game.state)
    return {
        "id": str(game.pk),
        "kind": kind,
        "kind_name": kind_label(kind),
        "status": status,
        "status_name": _STATUSES.now().get(status, status),
        "version": game.version,
        "options": game.options,
        "created_by": player_ref(game.created_by),
        "created_at": iso_datetime(game.created_at),
        "started_at": iso_datetime(game.started_at),
        "finished_at": iso_datetime(game.finished_at),
        "turn_seat": game.turn_seat,
        "deadline_at": iso_datetime(game.deadline_at),
        "rated": game.rated,
        "assistance": game.assistance,
        "seats": [seat_body(seat) for seat in seats],
        "your_seats": sorted(controlled_seats(game, viewer)),
        "setup_label": presenter.setup_label([seat.occupant for seat in seats]),
        "fairness": fairness_body(game),
        "state": presented,
    }


def event_body(event: GameEvent, kind: str) -> dict[str, Any]:
    """``GameEventSerializer``'s answer; ``kind`` is the game's."""
    actor = event.actor.username if event.actor is not None else None
    wire = live.event_wire(
        event.seq, event.type, event.data, actor, event.automatic, event.created_at
    )
    return {**wire, "messages": kind_for(kind).presenter.event_messages(event.type)}
