"""Who sits where, as plain facts: what the write path, the answers and the stream tier all read of
a game's seats. ``TableFacts`` is a game's version as a transaction left it (no model rows), which
the notes to the players (``games.followups.notes``) are made from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from games.models import Game, Occupant

if TYPE_CHECKING:
    from players.models import Player


def controlled_seats(game: Game, player: Player | None) -> set[int]:
    """The seats this account may move for: its own, and the hot-seat seats of games it created."""
    if player is None or not player.is_authenticated:
        return set()
    owns_hotseats = game.created_by_id == player.pk
    return {
        seat.index
        for seat in game.seats.all()
        if (seat.occupant == Occupant.PLAYER and seat.player_id == player.pk)
        or (seat.occupant == Occupant.HOTSEAT and owns_hotseats)
    }


@dataclass(frozen=True)
class SeatFacts:
    index: int
    occupant: str
    player_id: int | None


@dataclass(frozen=True)
class TableFacts:
    """A game's version with its seats: plain values, read from rows the caller holds."""

    game_id: Any
    kind: str
    version: int
    finished: bool
    turn_seat: int | None
    created_by_id: int
    deadline_at: datetime | None
    seats: tuple[SeatFacts, ...]

    @classmethod
    def of(cls, game: Game, *, finished: bool) -> TableFacts:
        return cls(
            game_id=game.pk,
            kind=game.kind,
            version=game.version,
            finished=finished,
            turn_seat=game.turn_seat,
            created_by_id=game.created_by_id,
            deadline_at=game.deadline_at,
            seats=tuple(
                SeatFacts(index=seat.index, occupant=seat.occupant, player_id=seat.player_id)
                for seat in game.seats.all()
            ),
        )

    def owner_of(self, seat: SeatFacts) -> int | None:
        """The account that moves for ``seat``: its own, the creator for a hot seat, none for
        the computer or an open seat."""
        if seat.occupant == Occupant.HOTSEAT:
            return self.created_by_id
        return seat.player_id if seat.occupant == Occupant.PLAYER else None
