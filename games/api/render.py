"""The games API's answers: each a ``TypedDict`` filled here and read by the schema
(``schema_forms``). Plain dicts: a nested DRF serializer binds a field object per field of every
row, which on the move path was most of the CPU of a move.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from games import models
from games.fairness.seeds import Fairness, fairness_body
from games.followups import live
from games.kinds import kind_for, kind_label
from games.models import GameStatus, Occupant
from games.presenters.common import Instant, Message, Translated, iso_datetime
from games.rules.base import Choices, Doc
from games.seating import controlled_seats

_STATUSES = Translated(dict(GameStatus.choices))
_OCCUPANTS = Translated(dict(Occupant.choices))


class PlayerRef(TypedDict):
    id: int
    username: str
    name: Annotated[str, Doc("The account's display name, else its username")]


class Seat(TypedDict):
    index: Annotated[int, Doc("The seat's place at the table, 0 first", minimum=0)]
    kind: Annotated[str, Choices("SeatKindEnum", *zip(*Occupant.choices, strict=True))]
    kind_name: Annotated[str, Doc("The seat's kind, in the request's language")]
    name: str
    player: PlayerRef | None
    open: Annotated[bool, Doc("Open to a registered player who joins")]
    ai_level: Annotated[str, Doc("A computer seat's level (`GET kinds/`); empty otherwise")]
    place: Annotated[int | None, Doc("The seat's place once the game is over, 1 first")]
    final_total: Annotated[int | None, Doc("The seat's total once the game is over")]


class GameSummary(TypedDict):
    """A game as lists show it: all but its state."""

    id: Annotated[str, Doc(format="uuid")]
    kind: Annotated[str, Doc("The game's kind (`GET kinds/`)")]
    kind_name: Annotated[str, Doc("The kind's name, in the request's language")]
    status: Annotated[str, Choices("GameStatusEnum", *zip(*GameStatus.choices, strict=True))]
    status_name: Annotated[str, Doc("The status, in the request's language")]
    version: Annotated[int, Doc("The events so far: a move's `expected_version`", minimum=0)]
    options: Annotated[dict[str, Any], Doc("The kind's options (`GET kinds/`)", ref="Options")]
    created_by: PlayerRef
    created_at: Instant
    started_at: Instant | None
    finished_at: Instant | None
    turn_seat: Annotated[int | None, Doc("The seat to play; null when none is", minimum=0)]
    deadline_at: Annotated[
        Instant | None,
        Doc(
            "When the server plays for the seat to move if it has not moved by then: the "
            "auto-confirm of a turn left waiting (in the kinds that have one), or the end of the "
            "turn clock, whichever comes first. Null when nothing is due (no clock, a computer's "
            "turn, a game not in play)."
        ),
    ]
    rated: bool
    assistance: Annotated[bool, Doc("Hints and previews for the seat to move")]
    seats: list[Seat]
    your_seats: Annotated[list[int], Doc("The seats the request's account plays")]
    setup_label: Annotated[str | None, Doc("The table's set-up in words, where it has a name")]
    fairness: Fairness | None


class Game(GameSummary):
    state: Annotated[dict[str, Any] | None, Doc("The kind's view; null until the game starts")]


class GameEvent(live.EventWire):
    """An event; ``messages`` are what the app shows for it, in the request's language."""

    messages: list[Message]


class MoveResult(TypedDict):
    events: Annotated[list[GameEvent], Doc("The events the move made, in order")]
    game: Game


class EventPage(TypedDict):
    version: Annotated[int, Doc("The game's version: its last event's seq", minimum=0)]
    events: list[GameEvent]


class Replay(TypedDict):
    at: Annotated[int, Doc("The seq replayed up to", minimum=0)]
    version: Annotated[int, Doc("The game's version now", minimum=0)]
    state: Annotated[dict[str, Any] | None, Doc("The kind's view then; null before the start")]


def player_ref(player: Any) -> PlayerRef:
    return {"id": player.pk, "username": player.username, "name": player.public_name}


def seat_body(seat: models.Seat) -> Seat:
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


def summary_body(game: models.Game, viewer: Any) -> GameSummary:
    """A game less its state; ``viewer``: the request's user (``your_seats``)."""
    kind, status = str(game.kind), str(game.status)
    seats = list(game.seats.all())
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
        "setup_label": kind_for(kind).presenter.setup_label([seat.occupant for seat in seats]),
        "fairness": fairness_body(game),
    }


def game_body(game: models.Game, state: Any, viewer: Any) -> Game:
    """A game. ``state``: the rules state of ``game.state`` when the caller has it (after a
    move), else None and the snapshot is read here; ``viewer``: the request's user."""
    presenter = kind_for(game.kind).presenter
    if game.state is None:
        presented = None
    elif state is not None:
        presented = presenter.present_rules(state)
    else:
        presented = presenter.present(game.state)
    return {**summary_body(game, viewer), "state": presented}


def event_body(event: models.GameEvent, kind: str) -> GameEvent:
    actor = event.actor.username if event.actor is not None else None
    wire = live.event_wire(
        event.seq, event.type, event.data, actor, event.automatic, event.created_at
    )
    return {**wire, "messages": kind_for(kind).presenter.event_messages(event.type)}
