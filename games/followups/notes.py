"""The notes an account's stream hears (``GET stream/``): a closed set, built here and only here.

As lila-ws types what crosses between the site and the socket server (``LilaOut``), each note is
one frozen dataclass of this module, published as its ``to_wire()``; the schema's descriptions of
the notes (``games.api.stream_schema``) are made from the same classes, so the two cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.seating import TableFacts

#: A field's format in the schema (``dataclasses.field`` metadata).
UUID = {"format": "uuid"}
DATE_TIME = {"format": "date-time"}


@dataclass(frozen=True)
class Note:
    #: The note's ``type`` on the wire (and its SSE ``event:``).
    type: ClassVar[str]

    def to_wire(self) -> dict[str, Any]:
        # Its fields, in order: every one is a string, a number or None (asdict would copy each).
        return {"type": self.type, **vars(self)}


@dataclass(frozen=True)
class _AboutSeat(Note):
    game: str = field(metadata=UUID)
    kind: str
    version: int
    seat: int


@dataclass(frozen=True)
class YourTurn(_AboutSeat):
    """It is this seat's turn (sent on connect for every such game, then after each move that
    leaves the turn with you); `deadline`: when the timer plays it, if any."""

    type = "your_turn"
    deadline: str | None = field(metadata=DATE_TIME)


@dataclass(frozen=True)
class GameStarted(_AboutSeat):
    """A game you sit at started."""

    type = "game_started"


@dataclass(frozen=True)
class GameFinished(_AboutSeat):
    """A game you sit at is over."""

    type = "game_finished"


@dataclass(frozen=True)
class TournamentRoundStarted(Note):
    """A round of a tournament you entered started: your game and seat in it."""

    type = "tournament_round_started"
    tournament: int
    round: int
    game: str = field(metadata=UUID)
    seat: int


@dataclass(frozen=True)
class SeekPaired(Note):
    """Your seek (`POST seeks/`) found an opponent: the game has started; your seat in it."""

    type = "seek_paired"
    seek: int
    game: str = field(metadata=UUID)
    kind: str
    seat: int


@dataclass(frozen=True)
class RematchOffered(Note):
    """The player at `seat` of the finished `game` offers a rematch (`POST games/{id}/rematch/`
    accepts)."""

    type = "rematch_offered"
    game: str = field(metadata=UUID)
    seat: int


@dataclass(frozen=True)
class RematchStarted(Note):
    """Every player offered a rematch of `previous`: the new `game` has started; your seat."""

    type = "rematch_started"
    game: str = field(metadata=UUID)
    previous: str = field(metadata=UUID)
    seat: int


@dataclass(frozen=True)
class AccountClosed(Note):
    """The account was banned or deleted: this is the stream's last note, and it ends."""

    type = "account_closed"


#: Every note, in the order the schema lists them.
NOTES: tuple[type[Note], ...] = (
    YourTurn,
    GameStarted,
    GameFinished,
    TournamentRoundStarted,
    SeekPaired,
    RematchOffered,
    RematchStarted,
    AccountClosed,
)

#: A note for one account's stream: (player id, note).
PlayerNote = tuple[int, Note]


def table_notes(table: TableFacts) -> list[PlayerNote]:
    """What each account at the table hears of this version: ``game_started`` at the start,
    ``your_turn`` for the one to move, ``game_finished`` at the end."""
    game, kind, version = str(table.game_id), table.kind, table.version
    told = GameFinished if table.finished else GameStarted if version == 1 else None
    notes: list[PlayerNote] = []
    if told is not None:
        notes += [
            (seat.player_id, told(game=game, kind=kind, version=version, seat=seat.index))
            for seat in table.seats
            if seat.player_id is not None
        ]
    if table.finished:
        return notes
    turn = next((seat for seat in table.seats if seat.index == table.turn_seat), None)
    owner = table.owner_of(turn) if turn is not None else None
    if turn is not None and owner is not None:
        deadline = table.deadline_at.isoformat() if table.deadline_at is not None else None
        note = YourTurn(game=game, kind=kind, version=version, seat=turn.index, deadline=deadline)
        notes.append((owner, note))
    return notes
