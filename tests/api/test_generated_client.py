"""The schema is the contract: a Python client generated from the served schema by
openapi-python-client (pinned in the dev extras) plays a whole Yatzy game and a whole Dés 10 000
game, using only what it generated (its functions, its models, its parsing of every answer).

The client talks to the WSGI application in process (httpx's WSGI transport), as it would to a
server; hot seats let one account play every seat without waiting for the computer.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.wsgi import get_wsgi_application

from tests.doubles import ScriptedDice

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PACKAGE = "dice_api_client"
BASE = "http://testserver"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client package, generated from the schema the server serves."""
    from django.test import Client

    root = tmp_path_factory.mktemp("generated")
    served = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert served.status_code == 200
    schema = root / "schema.json"
    schema.write_bytes(served.content)
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [str(generator), "generate", "--path", str(schema), "--meta", "none",
         "--output-path", str(root / PACKAGE)],
        capture_output=True, text=True, timeout=300, cwd=root,
        env={"PATH": str(Path(sys.executable).parent)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [name for name in sys.modules if name.startswith(PACKAGE)]:
            del sys.modules[name]


def part(package: Any, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.{name}")


def client_of(package: Any, token: str | None = None) -> Any:
    transport = httpx.WSGITransport(app=get_wsgi_application())
    if token is None:
        return package.Client(base_url=BASE, httpx_args={"transport": transport})
    return package.AuthenticatedClient(
        base_url=BASE, token=token, prefix="Token", httpx_args={"transport": transport}
    )


def register(package: Any, username: str) -> Any:
    models = part(package, "models")
    answer = part(package, "api.accounts.accounts_register_create").sync(
        client=client_of(package),
        body=models.RegisterInputRequest(username=username, password="a-long-passphrase"),
    )
    assert isinstance(answer, models.TokenOutput), answer
    return client_of(package, answer.token)


def new_game(package: Any, me: Any, kind: str, options: dict[str, Any]) -> Any:
    """A game of ``kind`` with ``options``, sent as the kind's typed options (``Options``)."""
    models = part(package, "models")
    typed = getattr(models, f"{''.join(map(str.capitalize, kind.split('_')))}OptionsRequest")
    seats = [
        models.SeatInputRequest(type_=models.SeatInputTypeEnum.ME),
        models.SeatInputRequest(type_=models.SeatInputTypeEnum.HOTSEAT, name="Bea"),
    ]
    body = models.GameCreateInputRequest(
        kind=models.GameKindEnum(kind),
        seats=seats,
        options=typed(**options),
    )
    answer = part(package, "api.games.games_create").sync_detailed(client=me, body=body)
    assert answer.status_code == 201, answer.content
    created = answer.parsed
    assert created.status.value == "open"
    assert created.options.to_dict() == options
    started = part(package, "api.games.games_start_create").sync(client=me, game_id=created.id)
    assert started.status.value == "active", started
    return started


def play(package: Any, me: Any, game: Any, choose: Any) -> Any:
    """Moves chosen by ``choose(state)`` until the game is over; the last game answer."""
    moves = part(package, "api.games.games_moves_create")
    for _ in range(2000):
        if game.status.value == "finished":
            return game
        answer = moves.sync_detailed(client=me, game_id=game.id, body=choose(game.state))
        assert answer.status_code == 201, answer.content
        result = answer.parsed
        assert result.events, result
        game = result.game
    raise AssertionError("the game did not end")


def test_a_whole_yatzy_game_through_the_generated_client(generated: Any) -> None:
    models = part(generated, "models")
    me = register(generated, "ann")
    game = new_game(generated, me, "yatzy", {"auto_confirm_seconds": 0})
    assert isinstance(game, models.YatzyGame)
    assert isinstance(game.state, models.YatzyState)

    def choose(state: Any) -> Any:
        if state.rolls_used == 0:
            return models.RollMoveRequest(type_=models.RollMoveTypeEnum.ROLL)
        if state.rolls_used == 1:
            return models.RollMoveRequest(type_=models.RollMoveTypeEnum.ROLL, hold=[0, 1])
        best = max(state.legal_boxes, key=lambda box: box.points)
        return models.ScoreMoveRequest(type_=models.ScoreMoveTypeEnum.SCORE, box=best.box)

    over = play(generated, me, game, choose)
    assert isinstance(over, models.YatzyGame)
    assert over.state.result is not None
    assert sorted(over.state.result.places)[0] == 1
    assert all(len(sheet.boxes) == 13 for sheet in over.state.sheets)
    assert all(all(box.points is not None for box in sheet.boxes) for sheet in over.state.sheets)

    events = part(generated, "api.games.games_events_retrieve").sync(client=me, game_id=game.id)
    assert isinstance(events, models.EventPage)
    assert len(events.events) == events.version > 50
    replay = part(generated, "api.games.games_replay_retrieve").sync(
        client=me, game_id=game.id, at=3
    )
    assert isinstance(replay.state, models.YatzyState)


def test_a_whole_ten_thousand_game_through_the_generated_client(
    generated: Any, dice: ScriptedDice
) -> None:
    models = part(generated, "models")
    me = register(generated, "bea")
    game = new_game(generated, me, "ten_thousand", {"target": 5000})
    assert isinstance(game, models.TenThousandGame)
    dice.push([1, 1, 1, 5, 5, 2])  # then the seeded dice: lost rounds and hot dice may come

    def choose(state: Any) -> Any:
        if not state.roll:
            return models.RollMoveRequest(type_=models.RollMoveTypeEnum.ROLL)
        keep = list(state.scoring_indices)
        if state.turn_points >= 300 or len(keep) == state.dice_in_play:
            return models.BankMoveRequest(type_=models.BankMoveTypeEnum.BANK, keep=keep)
        return models.RollMoveRequest(type_=models.RollMoveTypeEnum.ROLL, keep=keep)

    over = play(generated, me, game, choose)
    assert isinstance(over, models.TenThousandGame)
    assert over.state.result is not None
    assert max(over.state.totals) >= 5000


def test_a_refusal_reaches_the_generated_client_as_a_problem(generated: Any) -> None:
    models = part(generated, "models")
    me = register(generated, "cid")
    game = new_game(generated, me, "yatzy", {"auto_confirm_seconds": 0})
    answer = part(generated, "api.games.games_moves_create").sync_detailed(
        client=me,
        game_id=game.id,
        body=models.ScoreMoveRequest(
            type_=models.ScoreMoveTypeEnum.SCORE, box=models.YatzyBoxEnum("chance")
        ),
    )
    assert answer.status_code == 409
    assert isinstance(answer.parsed, models.Problem)
    assert answer.parsed.code == "roll_first"
    assert answer.parsed.type_.endswith("/api/v1/errors/roll_first/")
