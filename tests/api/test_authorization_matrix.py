"""Who may do what: every endpoint (route and method) of the API, health and metrics, against every
kind of caller, with the status each must get. The table is the contract: an endpoint added
without its row fails ``test_every_endpoint_has_a_row``, so nobody ships one whose access was
never thought through.

The callers, each a different account:
- ``anon``: no credentials;
- ``other``: an account with nothing to do with the game;
- ``seated``: seated in the game, not to move;
- ``to_move``: seated in the game, its seat to move;
- ``creator``: created the game (and started it), not seated;
- ``staff``: a staff account that may schedule tournaments (``tournaments.add_tournament``: being
  staff alone does not let one schedule), not seated.

Requests come from an outside address (``203.0.113.9``), as they would through the proxy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.matchmaking.seeks import seek_create
from games.models import Game
from players.models import Player
from players.tokens import token_id
from tests.factories import account, new_game, new_tournament, organiser, token

pytestmark = pytest.mark.django_db

ROLES = ("anon", "other", "seated", "to_move", "creator", "staff")
OUTSIDE = "203.0.113.9"
_names = count()


@dataclass
class World:
    """One of everything a request may be about, made fresh for each request."""

    people: dict[str, Player]
    active: Game  # yatzy, cora's, sam (seat 0, to move) against tom
    dice_game: Game  # ten_thousand, the same seats
    open_game: Game  # cora's, three seats: sam and tom in, one open
    full_game: Game  # cora's, two seats, sam and tom in, not started
    tournament_id: int
    seek_id: int  # tom's open seek
    token_id: str  # the public id of a token of tom's (besides the one each caller signs in with)


def make_world() -> World:
    tag = next(_names)
    people = {
        "other": account(f"olga{tag}"),
        "seated": account(f"tom{tag}"),
        "to_move": account(f"sam{tag}"),
        "creator": account(f"cora{tag}"),
        "staff": organiser(f"staff{tag}"),
    }
    sam, tom, cora = people["to_move"], people["seated"], people["creator"]
    return World(
        people=people,
        active=new_game(cora, "yatzy", ("open", "open"), joiners=[sam, tom]),
        dice_game=new_game(cora, "ten_thousand", ("open", "open"), joiners=[sam, tom]),
        open_game=new_game(cora, "yatzy", ("open",) * 3, joiners=[sam, tom], start=False),
        full_game=new_game(cora, "yatzy", ("open", "open"), joiners=[sam, tom], start=False),
        tournament_id=new_tournament(people["staff"]).pk,
        seek_id=seek_create(player=tom, kind="yatzy", options={}).pk,
        token_id=token_id(AuthToken.objects.create(user=tom)[0]),
    )


Request = Callable[[World, str], tuple[str, dict[str, Any] | None]]


def to(path: str, body: dict[str, Any] | None = None) -> Request:
    """A request to ``path`` (``{game}``, ``{dice_game}``, ``{open_game}``, ``{full_game}``,
    ``{tournament}``, ``{player}``, ``{seek}``, ``{token}`` filled from the world)."""

    def build(world: World, role: str) -> tuple[str, dict[str, Any] | None]:
        url = path.format(
            game=world.active.pk,
            dice_game=world.dice_game.pk,
            open_game=world.open_game.pk,
            full_game=world.full_game.pk,
            tournament=world.tournament_id,
            player=world.people["to_move"].username,
            seek=world.seek_id,
            token=world.token_id,
        )
        return url, body

    return build


def credentials(world: World, role: str) -> tuple[str, dict[str, Any]]:
    """Signing in: each caller with its own account's password (anonymous: a wrong one)."""
    who = world.people.get(role)
    name = who.username if who else "nobody"
    return "/api/v1/accounts/token/", {"username": name, "password": f"{name}-password-1"}


def own_password(world: World, role: str) -> tuple[str, dict[str, Any]]:
    """Deleting one's own account: with its password (anonymous: there is none)."""
    who = world.people.get(role)
    name = who.username if who else "nobody"
    return "/api/v1/accounts/me/", {"password": f"{name}-password-1"}


def password_change(world: World, role: str) -> tuple[str, dict[str, Any]]:
    """Changing one's own password: with the current one (anonymous: there is none)."""
    who = world.people.get(role)
    name = who.username if who else "nobody"
    return "/api/v1/accounts/password/", {
        "current_password": f"{name}-password-1",
        "new_password": "a-new-long-passphrase-9",
    }


def registration(world: World, role: str) -> tuple[str, dict[str, Any]]:
    return "/api/v1/accounts/register/", {
        "username": f"new{next(_names)}",
        "password": "correct-horse-battery",
    }


A = "api/v1/"
G = "api/v1/games/<uuid:game_id>/"
T = "api/v1/tournaments/<int:tournament_id>/"
ME = {"type": "me"}

#: (route, method) -> (request, statuses for anon, other, seated, to_move, creator, staff).
MATRIX: dict[tuple[str, str], tuple[Request, tuple[int, ...]]] = {
    ("health/live", "GET"): (to("/health/live"), (200,) * 6),
    ("health/ready", "GET"): (to("/health/ready"), (200,) * 6),
    ("health/", "GET"): (to("/health/"), (200,) * 6),
    # The operators' pages: a token or this machine, never an account (config.web.internal).
    ("health/deep", "GET"): (to("/health/deep"), (403,) * 6),
    ("metrics", "GET"): (to("/metrics"), (403,) * 6),
    (A + "accounts/register/", "POST"): (registration, (201,) * 6),
    (A + "accounts/token/", "POST"): (credentials, (401, 201, 201, 201, 201, 201)),
    (A + "accounts/token/revoke/", "POST"): (
        to("/api/v1/accounts/token/revoke/"),
        (401, 204, 204, 204, 204, 204),
    ),
    (A + "accounts/me/", "GET"): (to("/api/v1/accounts/me/"), (401, 200, 200, 200, 200, 200)),
    (A + "accounts/me/", "DELETE"): (own_password, (401, 204, 204, 204, 204, 204)),
    # One's own name and language: every account may change its own, nobody another's.
    (A + "accounts/me/", "PATCH"): (
        to("/api/v1/accounts/me/", {"display_name": "Renamed", "language": "fr"}),
        (401, 200, 200, 200, 200, 200),
    ),
    # The account's export: its own; nobody here has asked for one yet.
    (A + "accounts/me/export/", "POST"): (
        to("/api/v1/accounts/me/export/"),
        (401, 202, 202, 202, 202, 202),
    ),
    (A + "accounts/password/", "POST"): (password_change, (401, 204, 204, 204, 204, 204)),
    # Tokens: an account's own; another's token is not found.
    (A + "accounts/tokens/", "GET"): (
        to("/api/v1/accounts/tokens/"),
        (401, 200, 200, 200, 200, 200),
    ),
    (A + "accounts/tokens/<str:token_id>/", "DELETE"): (
        to("/api/v1/accounts/tokens/{token}/"),
        (401, 404, 204, 404, 404, 404),
    ),
    (A + "accounts/me/export/", "GET"): (
        to("/api/v1/accounts/me/export/"),
        (401, 404, 404, 404, 404, 404),
    ),
    (A + "accounts/me/export/download/", "GET"): (
        to("/api/v1/accounts/me/export/download/"),
        (401, 404, 404, 404, 404, 404),
    ),
    (A + "stream/tickets/", "POST"): (
        to("/api/v1/stream/tickets/"),
        (401, 201, 201, 201, 201, 201),
    ),
    (A + "leaderboards/<str:kind>/", "GET"): (to("/api/v1/leaderboards/yatzy/"), (200,) * 6),
    (A + "kinds/", "GET"): (to("/api/v1/kinds/"), (200,) * 6),
    (A + "players/<str:username>/", "GET"): (to("/api/v1/players/{player}/"), (200,) * 6),
    (A + "players/<str:username>/stats/", "GET"): (
        to("/api/v1/players/{player}/stats/"),
        (200,) * 6,
    ),
    (A + "games/", "GET"): (to("/api/v1/games/"), (200,) * 6),
    (A + "games/", "POST"): (
        to("/api/v1/games/", {"kind": "yatzy", "seats": [ME]}),
        (401, 201, 201, 201, 201, 201),
    ),
    (G, "GET"): (to("/api/v1/games/{game}/"), (200,) * 6),
    # An open seat for whoever is not seated yet; the creator need not sit at their game.
    (G + "join/", "POST"): (
        to("/api/v1/games/{open_game}/join/"),
        (401, 200, 409, 409, 200, 200),
    ),
    # Only the creator starts.
    (G + "start/", "POST"): (
        to("/api/v1/games/{full_game}/start/"),
        (401, 403, 403, 403, 200, 403),
    ),
    # Only the seat to move plays: a seat holder out of turn is told so (409), anyone else 403.
    (G + "moves/", "POST"): (
        to("/api/v1/games/{game}/moves/", {"type": "roll"}),
        (401, 403, 409, 201, 403, 403),
    ),
    # Cancelling an open game: its creator only.
    (G, "DELETE"): (
        to("/api/v1/games/{open_game}/"),
        (401, 403, 403, 403, 204, 403),
    ),
    # Giving back a seat of an open game: those seated (the creator cancels instead).
    (G + "leave/", "POST"): (
        to("/api/v1/games/{open_game}/leave/"),
        (401, 403, 200, 200, 409, 403),
    ),
    # Resigning and aborting (nobody has moved yet): any seat holder, whoever is to move.
    (G + "resign/", "POST"): (
        to("/api/v1/games/{game}/resign/"),
        (401, 403, 201, 201, 403, 403),
    ),
    (G + "abort/", "POST"): (
        to("/api/v1/games/{game}/abort/"),
        (401, 403, 201, 201, 403, 403),
    ),
    # Claiming: another seat holder, once the seat to move has been idle (here it has not); the
    # seat to move has nothing to claim.
    (G + "claim/", "POST"): (
        to("/api/v1/games/{game}/claim/"),
        (401, 403, 409, 409, 403, 403),
    ),
    (G + "events/", "GET"): (to("/api/v1/games/{game}/events/"), (200,) * 6),
    (G + "replay/", "GET"): (to("/api/v1/games/{game}/replay/?at=1"), (200,) * 6),
    # The computer's choice: for the seat to move only, never for onlookers.
    (G + "hint/", "GET"): (
        to("/api/v1/games/{game}/hint/"),
        (401, 403, 409, 200, 403, 403),
    ),
    # Scoring a selection of the dice on the table: public arithmetic on a public state.
    (G + "preview/", "GET"): (to("/api/v1/games/{dice_game}/preview/?keep="), (200,) * 6),
    # Luck against skill, for the moves made: anyone's to read while the computer may help.
    (G + "analysis/", "GET"): (to("/api/v1/games/{game}/analysis/"), (200,) * 6),
    (G + "analysis.svg", "GET"): (to("/api/v1/games/{game}/analysis.svg"), (200,) * 6),
    (A + "tournaments/", "GET"): (to("/api/v1/tournaments/"), (200,) * 6),
    (A + "tournaments/", "POST"): (
        to(
            "/api/v1/tournaments/",
            {
                "name": "Spring cup",
                "kind": "yatzy",
                "format": "round_robin",
                "starts_at": "2099-01-01T10:00:00Z",
                "turn_clock_seconds": 60,
            },
        ),
        (401, 403, 403, 403, 403, 201),
    ),
    (T, "GET"): (to("/api/v1/tournaments/{tournament}/"), (200,) * 6),
    (T + "register/", "POST"): (
        to("/api/v1/tournaments/{tournament}/register/"),
        (401, 201, 201, 201, 201, 201),
    ),
    # Nobody is registered in the world's tournament: withdrawing is refused, for everyone.
    (T + "withdraw/", "POST"): (
        to("/api/v1/tournaments/{tournament}/withdraw/"),
        (401, 409, 409, 409, 409, 409),
    ),
    (T + "standings/", "GET"): (to("/api/v1/tournaments/{tournament}/standings/"), (200,) * 6),
    (T + "rounds/", "GET"): (to("/api/v1/tournaments/{tournament}/rounds/"), (200,) * 6),
    # Seeks: an account's own; another's seek is not found.
    (A + "seeks/", "GET"): (to("/api/v1/seeks/"), (401, 200, 200, 200, 200, 200)),
    (A + "seeks/", "POST"): (
        to("/api/v1/seeks/", {"kind": "ten_thousand"}),
        (401, 201, 201, 201, 201, 201),
    ),
    (A + "seeks/<int:seek_id>/", "GET"): (
        to("/api/v1/seeks/{seek}/"),
        (401, 404, 200, 404, 404, 404),
    ),
    (A + "seeks/<int:seek_id>/", "DELETE"): (
        to("/api/v1/seeks/{seek}/"),
        (401, 404, 204, 404, 404, 404),
    ),
    # A game's rematch offers: public, like the game (none while it is in play).
    (G + "rematch/", "GET"): (to("/api/v1/games/{game}/rematch/"), (200,) * 6),
    # A rematch: seat holders of a finished game (this one is in play), nobody else.
    (G + "rematch/", "POST"): (
        to("/api/v1/games/{game}/rematch/"),
        (401, 403, 409, 409, 403, 403),
    ),
    # The error catalogue: public, the words of every refusal.
    (A + "errors/", "GET"): (to("/api/v1/errors/"), (200,) * 6),
    (A + "errors/<str:code>/", "GET"): (to("/api/v1/errors/not_your_turn/"), (200,) * 6),
    (A + "schema/", "GET"): (to("/api/v1/schema/"), (200,) * 6),
    (A + "docs/", "GET"): (to("/api/v1/docs/"), (200,) * 6),
}


def endpoints() -> Iterator[tuple[str, str]]:
    """Every (route, method) served: the API's views by the methods they define, the plain
    function views (health, metrics) as GET."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                if not route.startswith(("api/v1/", "health", "metrics")):
                    continue
                view_class = getattr(pattern.callback, "cls", None)
                if view_class is None:
                    yield route, "GET"
                    continue
                for method in view_class.http_method_names:
                    if method not in ("options", "head") and hasattr(view_class, method):
                        yield route, method.upper()

    return walk(get_resolver().url_patterns, "")


def test_every_endpoint_has_a_row() -> None:
    served = set(endpoints())
    assert served - MATRIX.keys() == set(), "endpoints without a row in the matrix"
    assert MATRIX.keys() - served == set(), "rows for endpoints that are not served"


@pytest.mark.parametrize("endpoint", sorted(MATRIX), ids=lambda e: f"{e[1]} {e[0]}")
def test_each_caller_gets_its_status(endpoint: tuple[str, str]) -> None:
    _route, method = endpoint
    build, expected = MATRIX[endpoint]
    assert len(expected) == len(ROLES)
    got = []
    for role in ROLES:
        world = make_world()  # fresh: a request that changes something changes it for itself
        client = APIClient(REMOTE_ADDR=OUTSIDE)
        if role != "anon":
            client.credentials(HTTP_AUTHORIZATION=f"Token {token(world.people[role])}")
        url, body = build(world, role)
        response = getattr(client, method.lower())(url, body, format="json")
        got.append(response.status_code)
    assert dict(zip(ROLES, got, strict=True)) == dict(zip(ROLES, expected, strict=True))
