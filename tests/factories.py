"""The one home of the tests' data: accounts (with tokens), games of each kind with their seats,
games played to a given point, tournaments, API clients.

Everything is built through the services (or, for API clients and their games, the API), as a
real client would build it, so a test's data is always in a state the server can reach.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from games import services
from games.models import Game
from games.tournaments.models import Tournament
from players.models import Player

GAMES = "/api/v1/games/"
_names = itertools.count(1)

# A seat as a test writes it: "me", "hotseat", "computer", "open", or the API's dict form.
SeatLike = str | Mapping[str, Any]


# --------------------------------------------------------------------------------------------------
# accounts


def account(username: str | None = None, *, password: str | None = None, **fields: Any) -> Player:
    """An account; its password is ``<username>-password-1`` unless given."""
    name = username or f"player{next(_names)}"
    return Player.objects.create_user(name, password=password or f"{name}-password-1", **fields)


def organiser(username: str = "org") -> Player:
    """A staff account, who may schedule tournaments (the permission to add one)."""
    return grant(account(username, is_staff=True), "tournaments.add_tournament")


def grant(player: Player, *permissions: str) -> Player:
    """``player`` given these permissions (``app_label.codename``), fresh from the database."""
    from django.contrib.auth.models import Permission

    for permission in permissions:
        app_label, codename = permission.split(".")
        player.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return Player.objects.get(pk=player.pk)  # no permission cache


def token(player: Player) -> str:
    """A new API token of ``player``."""
    return str(AuthToken.objects.create(user=player)[1])


# --------------------------------------------------------------------------------------------------
# games, through the services


def stream_ticket(player: Player) -> str:
    """A ticket that opens ``player``'s account stream once."""
    from players.stream_tickets import stream_ticket_create

    return stream_ticket_create(player_id=player.pk)[0]


def seat_specs(seats: Iterable[SeatLike]) -> list[services.SeatSpec]:
    return [
        services.SeatSpec(type=seat) if isinstance(seat, str) else services.SeatSpec(**seat)
        for seat in seats
    ]


def new_game(
    creator: Player,
    kind: str = "yatzy",
    seats: Sequence[SeatLike] = ("me",),
    *,
    joiners: Sequence[Player] = (),
    start: bool = True,
    turn_clock_seconds: int | None = None,
    rated: bool = False,
    **options: Any,
) -> Game:
    """A game of ``kind`` created by ``creator`` with ``seats``; ``joiners`` take the open seats
    in order; then started (unless ``start`` is false). Read back from the database."""
    game = services.game_create(
        creator=creator,
        kind=kind,
        seats=seat_specs(seats),
        options=options,
        turn_clock_seconds=turn_clock_seconds,
        rated=rated,
    )
    for joiner in joiners:
        services.game_join(game_id=game.pk, player=joiner)
    if start:
        services.game_start(game_id=game.pk, player=creator)
    return Game.objects.get(pk=game.pk)


def move(game: Game, player: Player | None, **command: Any) -> Game:
    """One move through the one move path; the game as it is after it."""
    services.game_move(game_id=game.pk, command=command, actor=player)
    return Game.objects.get(pk=game.pk)


def rolled_out(game: Game, player: Player, *, timer: bool = True) -> Game:
    """A yatzy turn's three rolls (the first die held): the auto-confirm is due 3 s after the
    last, unless the game has it off (``timer`` false). The game as it is after them."""
    game = move(game, player, type="roll")
    game = move(game, player, type="roll", hold=[0])
    assert game.deadline_at is None  # a roll is left: no timer yet
    game = move(game, player, type="roll", hold=[0])
    assert (game.deadline_at is not None) == timer, game.deadline_at
    return game


def deadline(game: Game) -> datetime:
    """``game``'s deadline, which the test knows is set (a timer or a turn clock running)."""
    assert game.deadline_at is not None, game.pk
    return game.deadline_at


def scored_turn(game: Game, player: Player) -> Game:
    """A yatzy turn of one roll, scored in the first free box of the seat to play."""
    game = move(game, player, type="roll")
    assert game.state is not None and game.turn_seat is not None
    sheet = game.state["sheets"][game.turn_seat]
    box = next(box for box, points in sheet.items() if points is None)
    return move(game, player, type="score", box=box)


# --------------------------------------------------------------------------------------------------
# tournaments


def new_tournament(created_by: Player, **fields: Any) -> Tournament:
    """A yatzy round robin an hour from now, unrated, with a 5 s turn clock, unless ``fields``
    say otherwise (``computers``, ``format``, ``starts_at``...)."""
    from games.tournaments.services import tournament_create

    defaults: dict[str, Any] = {
        "name": "Test cup",
        "kind": "yatzy",
        "format": "round_robin",
        "starts_at": timezone.now() + timedelta(hours=1),
        "rated": False,
        "turn_clock_seconds": 5,
    }
    return tournament_create(created_by=created_by, **{**defaults, **fields})


# --------------------------------------------------------------------------------------------------
# through the API


class Client(APIClient):
    """An API client for one account, with helpers that fail loudly on an unexpected status."""

    username: str

    def ok(self, method: str, url: str, data: Any = None, status: int = 200, **kw: Any) -> Any:
        response = getattr(self, method)(url, data, format="json", **kw)
        assert response.status_code == status, (response.status_code, response.json())
        return response.json() if response.content else None


class MakeClient(Protocol):
    """The ``make_client`` fixture (tests/conftest.py): ``api_client``."""

    def __call__(
        self, username: str | None = None, password: str = "correct-horse-battery"
    ) -> Client: ...


def api_client(username: str | None = None, password: str = "correct-horse-battery") -> Client:
    """A client of a new account, registered through the API, its token set."""
    client = Client()
    name = username or f"player{next(_names)}"
    body = client.ok(
        "post", "/api/v1/accounts/register/", {"username": name, "password": password}, status=201
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    client.username = name
    return client


def game_url(game_id: str, suffix: str = "") -> str:
    return f"{GAMES}{game_id}/{suffix}"


def api_game(
    client: Client,
    kind: str = "yatzy",
    seats: Sequence[SeatLike] = ("me",),
    *,
    options: Mapping[str, Any] | None = None,
    joiners: Sequence[Client] = (),
    start: bool = True,
) -> dict[str, Any]:
    """A game created through the API by ``client``; ``joiners`` take the open seats in order;
    then started (unless ``start`` is false). The API's last answer about it."""
    wire = [{"type": seat} if isinstance(seat, str) else dict(seat) for seat in seats]
    payload: dict[str, Any] = {"kind": kind, "seats": wire}
    if options is not None:
        payload["options"] = dict(options)
    game: dict[str, Any] = client.ok("post", GAMES, payload, status=201)
    for joiner in joiners:
        joiner.ok("post", game_url(game["id"], "join/"))
    if start:
        game = client.ok("post", game_url(game["id"], "start/"))
    return game
