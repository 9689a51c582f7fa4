"""Rematches: every account seated at a finished game offers to play it again; with the last
offer a new game starts with the same kind, options, clock, rating and seats, the seats turned
one place (the second seat plays first, and so on).

The finished game's row is locked while an offer is made, so the offers of a table are counted
one at a time and the rematch starts once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from config.refusals import Refusal
from games import live, services
from games.loading import game_found
from games.matchmaking.models import RematchOffer
from games.models import Game, GameId, GameStatus, Occupant, Seat
from players.models import Player
from players.services import player_hold


@dataclass(frozen=True)
class RematchState:
    """After an offer: the finished game, the seats whose accounts have offered, and the new
    game once every account has."""

    game: Game
    offered_seats: list[int]
    rematch: Game | None


@transaction.atomic
def game_rematch(*, game_id: GameId, player: Player) -> RematchState:
    game = game_found(game_id, lock=True)
    seats = list(game.seats.all())
    people = {seat.player_id: seat.index for seat in seats if seat.player_id is not None}
    if player.pk not in people:
        raise Refusal.NOT_A_SEAT_HOLDER.error()
    if game.status != GameStatus.FINISHED:
        raise Refusal.GAME_NOT_FINISHED.error()
    if RematchOffer.objects.filter(game=game, player=player).exists():
        raise Refusal.REMATCH_ALREADY_OFFERED.error()
    RematchOffer.objects.create(game=game, player=player)
    offered = set(RematchOffer.objects.filter(game=game).values_list("player_id", flat=True))
    offered_seats = sorted(people[player_id] for player_id in offered)
    if offered != set(people):
        base = {"type": "rematch_offered", "game": str(game.pk), "seat": people[player.pk]}
        live.publish_on_commit([(other, base) for other in people if other != player.pk])
        return RematchState(game=game, offered_seats=offered_seats, rematch=None)

    # Every account seated again, held as a join holds it (players.services.player_hold): one
    # banned or deleted since the game ended is not put in a new game.
    accounts = {seat.player.pk: seat.player for seat in seats if seat.player is not None}
    for player_id in sorted(accounts):
        mine = player_id == player.pk
        refusal = Refusal.INVALID_TOKEN if mine else Refusal.REMATCH_UNAVAILABLE
        player_hold(player=accounts[player_id], refusal=refusal)
    rematch = _start_again(game, seats)
    RematchOffer.objects.filter(game=game).update(rematch=rematch)
    seat_of = {seat.player_id: seat.index for seat in rematch.seats.all() if seat.player_id}
    live.publish_on_commit(
        [
            (
                player_id,
                {
                    "type": "rematch_started",
                    "game": str(rematch.pk),
                    "previous": str(game.pk),
                    "seat": seat_of[player_id],
                },
            )
            for player_id in people
        ]
    )
    return RematchState(game=game, offered_seats=offered_seats, rematch=rematch)


def rematch_offers(*, game_id: GameId) -> RematchState:
    """The offers made so far at ``game_id`` (none while it is in play), and the new game once
    every account has offered: what a page opened after an offer needs, since the stream's
    ``rematch_offered`` reached only the pages open then."""
    game = game_found(game_id)
    seat_of = {seat.player_id: seat.index for seat in game.seats.all() if seat.player_id}
    offers = list(RematchOffer.objects.filter(game=game).select_related("rematch"))
    return RematchState(
        game=game,
        offered_seats=sorted(seat_of[offer.player_id] for offer in offers),
        rematch=next((offer.rematch for offer in offers if offer.rematch is not None), None),
    )


def _spec(seat: Seat) -> services.SeatSpec:
    if seat.occupant == Occupant.PLAYER:
        return services.SeatSpec(type="player", player=seat.player)
    if seat.occupant == Occupant.HOTSEAT:
        return services.SeatSpec(type="hotseat", name=seat.name)
    return services.SeatSpec(type="computer", level=seat.level, name=seat.name)


def _start_again(game: Game, seats: list[Seat]) -> Game:
    turned = seats[1:] + seats[:1]
    new = services.game_create(
        creator=game.created_by,  # hot-seat seats are played from the creator's client
        kind=game.kind,
        seats=[_spec(seat) for seat in turned],
        options=game.options,
        turn_clock_seconds=game.turn_clock_seconds,
        rated=game.rated,
        assistance=game.assistance,
    )
    return services.game_start(game_id=new.pk, player=game.created_by)
