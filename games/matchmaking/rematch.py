"""Rematches: every account that controls a seat of a finished game offers to play it again; with
the last offer a new game starts with the same kind, options, clock and seats, turned one place,
made by an account that plays in it. A tournament's games have none. The finished game's row is
locked while an offer is made, so the rematch starts once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from config.vocabulary.refusals import Refusal
from games import services
from games.followups import live, notes
from games.loading import game_found
from games.matchmaking.models import RematchOffer
from games.matchmaking.rated import rated_between
from games.models import Game, GameId, GameStatus, Occupant, Seat
from games.tournaments.models import TournamentGame
from players.models import Player
from players.services import player_hold


@dataclass(frozen=True)
class RematchState:
    game: Game
    offered_seats: list[int]
    rematch: Game | None


def controllers(game: Game) -> dict[int, list[int]]:
    """The accounts whose consent a rematch needs, each with the seats it controls: every seated
    account, and the creator of a game with hot seats (played from its client)."""
    seats: dict[int, list[int]] = {}
    for seat in game.seats.all():
        if seat.player_id is not None:
            seats.setdefault(seat.player_id, []).append(seat.index)
        elif seat.occupant == Occupant.HOTSEAT:
            seats.setdefault(game.created_by_id, []).append(seat.index)
    return seats


@transaction.atomic
def game_rematch(*, game_id: GameId, player: Player) -> RematchState:
    game = game_found(game_id, lock=True)
    seats = list(game.seats.all())
    people = controllers(game)
    if player.pk not in people:
        raise Refusal.NOT_A_SEAT_HOLDER.error()
    if game.status != GameStatus.FINISHED:
        raise Refusal.GAME_NOT_FINISHED.error()
    if TournamentGame.objects.filter(game_id=game.pk).exists():
        raise Refusal.TOURNAMENT_REMATCH.error()
    if RematchOffer.objects.filter(game=game, player=player).exists():
        raise Refusal.REMATCH_ALREADY_OFFERED.error()
    RematchOffer.objects.create(game=game, player=player)
    offered = set(RematchOffer.objects.filter(game=game).values_list("player_id", flat=True))
    offered_seats = sorted(index for account in offered for index in people[account])
    if offered != set(people):
        offer = notes.RematchOffered(game=str(game.pk), seat=min(people[player.pk]))
        live.publish_on_commit([(other, offer) for other in people if other != player.pk])
        return RematchState(game=game, offered_seats=offered_seats, rematch=None)

    # Every account seated again, held as a join holds it (players.services.player_hold): one
    # banned or deleted since the game ended is not put in a new game.
    for account in sorted(people):
        refusal = Refusal.INVALID_TOKEN if account == player.pk else Refusal.REMATCH_UNAVAILABLE
        player_hold(player=Player(pk=account), refusal=refusal)
    # Made by an account that plays in it, against its own limits: the creator of the first game
    # if it played (it holds the hot seats, if any), else the account whose offer completed this.
    creator = game.created_by if game.created_by_id in people else player
    rematch = _start_again(game, seats, creator)
    RematchOffer.objects.filter(game=game).update(rematch=rematch)
    seat_of = {seat.player_id: seat.index for seat in rematch.seats.all() if seat.player_id}
    seats_now = [
        (account, seat_of[account] if account in seat_of else _first_hot_seat(rematch))
        for account in people
    ]
    live.publish_on_commit(
        (account, notes.RematchStarted(game=str(rematch.pk), previous=str(game.pk), seat=seat))
        for account, seat in seats_now
    )
    return RematchState(game=game, offered_seats=offered_seats, rematch=rematch)


def _first_hot_seat(game: Game) -> int:
    """The seat of an account in the game by its hot seats alone (their creator's)."""
    return min(s.index for s in game.seats.all() if s.occupant == Occupant.HOTSEAT)


def rematch_offers(*, game_id: GameId) -> RematchState:
    """The offers made so far at ``game_id``, and the new game once every account has offered."""
    game = game_found(game_id)
    people = controllers(game)
    offers = list(RematchOffer.objects.filter(game=game).select_related("rematch"))
    return RematchState(
        game=game,
        offered_seats=sorted(i for offer in offers for i in people.get(offer.player_id, ())),
        rematch=next((offer.rematch for offer in offers if offer.rematch is not None), None),
    )


def _spec(seat: Seat) -> services.SeatSpec:
    if seat.occupant == Occupant.PLAYER:
        return services.SeatSpec(type="player", player=seat.player)
    if seat.occupant == Occupant.HOTSEAT:
        return services.SeatSpec(type="hotseat", name=seat.name)
    return services.SeatSpec(type="computer", level=seat.level, name=seat.name)


def _start_again(game: Game, seats: list[Seat], creator: Player) -> Game:
    turned = seats[1:] + seats[:1]
    accounts = [seat.player for seat in seats if seat.player is not None]
    new = services.game_create(
        creator=creator,
        kind=game.kind,
        seats=[_spec(seat) for seat in turned],
        options=game.options,
        turn_clock_seconds=game.turn_clock_seconds,
        # Within the pair's daily rated games (games.matchmaking.rated), else played unrated.
        rated=game.rated and rated_between(accounts, timezone.now()),
        assistance=game.assistance,
    )
    return services.game_start(game_id=new.pk, player=creator)
