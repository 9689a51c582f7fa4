"""Record the schema's examples from the API itself: ``make examples``
(``python -m tests.contract.record_examples``), a developer's tool beside the tests, which read
what it writes.

Plays one short scenario through the real views (accounts, their name, tokens and password, a game
of each kind, the ending moves, a tournament's entry, an account's export and deletion) inside a
transaction that is rolled back at the end, so the database is left as it was, and writes each
operation's request and answer to ``config/schema_examples.json``, which
``config.schema_examples`` adds to the OpenAPI schema. The examples are real answers, not
hand-written ones; re-run after an answer's shape changes (tests/api/test_schema_examples.py
checks every example against the schema and that every operation has one).
"""

from __future__ import annotations

import json
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import django
from django.db import transaction
from django.test import Client, override_settings
from django.utils import timezone

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

from config.schema_examples import EXAMPLES_FILE
from games import services
from games.accounts import export_files
from players.models import AccountExport, Player

API = "/api/v1"
PASSWORD = "correct-horse-battery"


class _Rollback(Exception):
    pass


class Recorder:
    """Calls the API as a client would and keeps, per operation, its latest request and answer."""

    def __init__(self) -> None:
        self.examples: dict[str, dict[str, Any]] = {}

    def call(
        self,
        client: Client,
        method: str,
        template: str,
        body: Any = None,
        *,
        keep: bool = True,
        query: str = "",
        **ids: Any,
    ) -> Any:
        url = API + template.format(**ids) + (f"?{query}" if query else "")
        send = getattr(client, method)
        if body is None:
            response = send(url)
        else:
            response = send(url, data=json.dumps(body), content_type="application/json")
        content_type = response.get("Content-Type", "").split(";")[0]
        # A streamed answer (the account's export) is read whole here: it is a small account's.
        content = b"".join(response.streaming_content) if response.streaming else response.content
        answer: Any = None
        if content_type.endswith("json") and content:
            answer = json.loads(content)
        elif content:
            answer = content.decode()
        if response.status_code >= 400:
            raise RuntimeError(f"{method.upper()} {url}: {response.status_code} {answer}")
        if keep:
            self.examples[f"{method} {API}{template}"] = {
                "request": body,
                "status": response.status_code,
                "content_type": content_type,
                "response": answer,
            }
        return answer


def record(output: Path = EXAMPLES_FILE) -> int:
    """Play the scenario (rolled back) and write every operation's example request and answer to
    ``output``; how many operations it recorded."""
    recorder = Recorder()
    with override_settings(ALLOWED_HOSTS=["*"]):
        try:
            with transaction.atomic():
                _scenario(recorder)
                raise _Rollback
        except _Rollback:
            pass
    output.write_text(
        json.dumps(recorder.examples, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
        encoding="utf-8",
    )
    return len(recorder.examples)


def _client(token: str | None = None) -> Client:
    headers = {"Host": "localhost:8000", "Accept-Language": "en"}  # config.schema_examples.ORIGIN
    if token:
        headers["Authorization"] = f"Token {token}"
    return Client(headers=headers)


def _account(rec: Recorder, username: str, keep: bool) -> tuple[Client, str]:
    anonymous = _client()
    rec.call(
        anonymous,
        "post",
        "/accounts/register/",
        {"username": username, "password": PASSWORD, "display_name": username.title()},
        keep=keep,
    )
    token = rec.call(
        anonymous,
        "post",
        "/accounts/token/",
        {"username": username, "password": PASSWORD},
        keep=keep,
    )["token"]
    return _client(token), token


def _scenario(rec: Recorder) -> None:
    ann, _ = _account(rec, "ann", keep=True)
    bob, _ = _account(rec, "bob", keep=False)
    rec.call(ann, "get", "/accounts/me/")
    rec.call(ann, "post", "/stream/tickets/")
    anyone = _client()
    rec.call(anyone, "get", "/errors/")
    rec.call(anyone, "get", "/kinds/")
    rec.call(anyone, "get", "/errors/{code}/", code="not_your_turn")

    _yatzy(rec, ann, bob)
    _ten_thousand(rec, ann)
    _endings(rec, ann, bob)
    _matchmaking(rec, ann, bob)
    tournament_id = _tournament(rec, ann)
    _own_data(rec, bob, tournament_id)

    rec.call(anyone, "get", "/leaderboards/{kind}/", kind="yatzy")
    rec.call(anyone, "get", "/players/{username}/", username="ann")
    rec.call(anyone, "get", "/players/{username}/stats/", username="ann")
    rec.call(ann, "get", "/games/")
    throwaway, _ = _account(rec, "carl", keep=False)
    rec.call(throwaway, "post", "/accounts/token/revoke/")
    _credentials(rec)


def _yatzy(rec: Recorder, ann: Client, bob: Client) -> None:
    game = rec.call(
        ann,
        "post",
        "/games/",
        {
            "kind": "yatzy",
            "seats": [{"type": "me"}, {"type": "open"}],
            "options": {"auto_confirm_seconds": 3},
        },
    )
    game_id = game["id"]
    # Each seat's client seed given once the game's hash is shown: as bob joins, with ann's move.
    join = {"client_seed": "bob's own seed"}
    rec.call(bob, "post", "/games/{game_id}/join/", join, game_id=game_id)
    version = rec.call(ann, "post", "/games/{game_id}/start/", game_id=game_id)["version"]
    moves = "/games/{game_id}/moves/"
    first = {"type": "roll", "expected_version": version, "client_seed": "ann: 4f1c"}
    rec.call(ann, "post", moves, first, game_id=game_id)
    rec.call(ann, "get", "/games/{game_id}/hint/", game_id=game_id)
    # The operation's example is the first roll; the rest of the turn makes the log's example.
    for move in (
        {"type": "roll", "hold": [0, 1]},
        {"type": "select", "box": "chance"},
        {"type": "score", "box": "chance"},
    ):
        rec.call(ann, "post", moves, move, game_id=game_id, keep=False)
    rec.call(ann, "get", "/games/{game_id}/", game_id=game_id)
    rec.call(ann, "get", "/games/{game_id}/events/", game_id=game_id)
    rec.call(ann, "get", "/games/{game_id}/replay/", query="at=3", game_id=game_id)
    rec.call(bob, "post", "/games/{game_id}/resign/", {}, game_id=game_id)
    rec.call(ann, "get", "/games/{game_id}/analysis/", game_id=game_id)
    rec.call(ann, "get", "/games/{game_id}/analysis.svg", game_id=game_id)


def _ten_thousand(rec: Recorder, ann: Client) -> None:
    for _attempt in range(20):  # a first roll may lose the round (2.3 %): take another game
        game = rec.call(
            ann,
            "post",
            "/games/",
            {
                "kind": "ten_thousand",
                "seats": [{"type": "me"}, {"type": "hotseat", "name": "Zoé"}],
                "options": {"target": 5000},
            },
            keep=False,
        )
        game_id = game["id"]
        rec.call(ann, "post", "/games/{game_id}/start/", game_id=game_id, keep=False)
        rolled = rec.call(
            ann, "post", "/games/{game_id}/moves/", {"type": "roll"}, game_id=game_id, keep=False
        )
        state = rolled["game"]["state"]
        scoring = state["scoring_indices"]
        if scoring:
            # A lone 1 or 5 always counts; otherwise every die that can count, together.
            singles = [i for i in scoring if state["roll"][i] in (1, 5)]
            keep = singles[:1] or scoring
            rec.call(
                ann,
                "get",
                "/games/{game_id}/preview/",
                query="keep=" + ",".join(map(str, keep)),
                game_id=game_id,
            )
            rec.call(
                ann,
                "post",
                "/games/{game_id}/moves/",
                {"type": "bank", "keep": keep},
                game_id=game_id,
                keep=False,
            )
            return
    raise RuntimeError("twenty lost first rolls in a row")


def _endings(rec: Recorder, ann: Client, bob: Client) -> None:
    two = {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]}
    # Abort: before every seat has moved.
    game_id = rec.call(ann, "post", "/games/", two, keep=False)["id"]
    rec.call(bob, "post", "/games/{game_id}/join/", {}, game_id=game_id, keep=False)
    rec.call(ann, "post", "/games/{game_id}/start/", game_id=game_id, keep=False)
    rec.call(ann, "post", "/games/{game_id}/abort/", {}, game_id=game_id)
    # Claim: the seat to play has been idle past the grace time.
    game_id = rec.call(ann, "post", "/games/", two, keep=False)["id"]
    rec.call(bob, "post", "/games/{game_id}/join/", {}, game_id=game_id, keep=False)
    rec.call(ann, "post", "/games/{game_id}/start/", game_id=game_id, keep=False)
    with override_settings(CLAIM_GRACE_SECONDS=0):  # rather than wait five minutes
        rec.call(bob, "post", "/games/{game_id}/claim/", {}, game_id=game_id)
    # Leave and cancel: open games.
    game_id = rec.call(ann, "post", "/games/", two, keep=False)["id"]
    rec.call(bob, "post", "/games/{game_id}/join/", {}, game_id=game_id, keep=False)
    rec.call(bob, "post", "/games/{game_id}/leave/", {}, game_id=game_id)
    rec.call(ann, "delete", "/games/{game_id}/", game_id=game_id)


def _matchmaking(rec: Recorder, ann: Client, bob: Client) -> None:
    seek = {"kind": "yatzy", "rated": True, "turn_clock_seconds": 60, "rating_max": 1800}
    # Withdrawing: a seek nobody has taken yet.
    seek_id = rec.call(ann, "post", "/seeks/", {"kind": "ten_thousand"}, keep=False)["id"]
    rec.call(ann, "delete", "/seeks/{seek_id}/", seek_id=seek_id)
    # Two new accounts: rather than finish three games each first (RATED_MIN_FINISHED_GAMES).
    with override_settings(RATED_MIN_FINISHED_GAMES=0):
        waiting = rec.call(ann, "post", "/seeks/", seek, keep=False)["id"]
        rec.call(ann, "get", "/seeks/")
        # The operation's example is the seek that pairs: the game has started.
        paired = {**seek, "rating_max": None, "client_seed": "bob seeks"}
        game_id = rec.call(bob, "post", "/seeks/", paired)["game"]
    rec.call(ann, "get", "/seeks/{seek_id}/", seek_id=waiting)  # paired since: its game
    rec.call(ann, "post", "/games/{game_id}/resign/", {}, game_id=game_id, keep=False)
    rec.call(ann, "post", "/games/{game_id}/rematch/", game_id=game_id, keep=False)
    rec.call(bob, "get", "/games/{game_id}/rematch/", game_id=game_id)  # ann's offer, waiting
    rec.call(bob, "post", "/games/{game_id}/rematch/", game_id=game_id)


def _tournament(rec: Recorder, ann: Client) -> int:
    Player.objects.create_superuser(username="organiser", password=PASSWORD, email="o@example.org")
    organiser = _client(
        rec.call(
            _client(),
            "post",
            "/accounts/token/",
            {"username": "organiser", "password": PASSWORD},
            keep=False,
        )["token"]
    )
    starts = (timezone.now() + timedelta(days=1)).replace(microsecond=0)
    tournament = rec.call(
        organiser,
        "post",
        "/tournaments/",
        {
            "name": "Sunday Yatzy",
            "kind": "yatzy",
            "format": "swiss",
            "starts_at": starts.isoformat(),
            "rounds": 3,
        },
    )
    tournament_id = tournament["id"]
    entry = {"client_seed": "ann at the cup"}
    rec.call(
        ann, "post", "/tournaments/{tournament_id}/register/", entry, tournament_id=tournament_id
    )
    rec.call(ann, "get", "/tournaments/{tournament_id}/", tournament_id=tournament_id)
    rec.call(ann, "get", "/tournaments/{tournament_id}/standings/", tournament_id=tournament_id)
    rec.call(ann, "get", "/tournaments/{tournament_id}/rounds/", tournament_id=tournament_id)
    rec.call(ann, "post", "/tournaments/{tournament_id}/withdraw/", tournament_id=tournament_id)
    rec.call(ann, "get", "/tournaments/")
    return int(tournament_id)


def _credentials(rec: Recorder) -> None:
    """An account signed in on two clients changes its display name and language, lists its
    tokens, revokes the other client's, and changes its password."""
    erin, _ = _account(rec, "erin", keep=False)
    rec.call(
        _client(),
        "post",
        "/accounts/token/",
        {"username": "erin", "password": PASSWORD},
        keep=False,
    )
    rec.call(erin, "patch", "/accounts/me/", {"display_name": "Erin D.", "language": "fr"})
    tokens = rec.call(erin, "get", "/accounts/tokens/")
    other = next(token["id"] for token in tokens if not token["current"])
    rec.call(erin, "delete", "/accounts/tokens/{token_id}/", token_id=other)
    change = {"current_password": PASSWORD, "new_password": "a-new-long-passphrase-9"}
    rec.call(erin, "post", "/accounts/password/", change)


def _own_data(rec: Recorder, bob: Client, tournament_id: int) -> None:
    """An account with a little of everything exports its data, then deletes itself."""
    dora, _ = _account(rec, "dora", keep=False)
    rec.call(
        dora,
        "post",
        "/tournaments/{tournament_id}/register/",
        {},
        tournament_id=tournament_id,
        keep=False,
    )
    # A rated game (the server makes those: tournaments, matchmaking), so a rating change too.
    game = services.game_create(
        creator=Player.objects.get(username="dora"),
        kind="yatzy",
        seats=[services.SeatSpec(type="me"), services.SeatSpec(type="open")],
        options={},
        rated=True,
    )
    services.game_join(game_id=game.pk, player=Player.objects.get(username="bob"))
    services.game_start(game_id=game.pk, player=game.created_by)
    moves = "/games/{game_id}/moves/"
    rec.call(dora, "post", moves, {"type": "roll"}, game_id=game.pk, keep=False)
    rec.call(bob, "post", "/games/{game_id}/resign/", {}, game_id=game.pk, keep=False)
    rec.call(dora, "post", "/accounts/me/export/")
    # The workers write it (its first step is queued as the request commits, which this
    # scenario never does): its steps run here, as a worker runs them.
    made = AccountExport.objects.get(player__username="dora")
    part = 0
    while export_files.account_export_step(export_id=made.pk, part=part):
        part += 1
    rec.call(dora, "get", "/accounts/me/export/")
    rec.call(dora, "get", "/accounts/me/export/download/")
    rec.call(dora, "delete", "/accounts/me/", {"password": PASSWORD})


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLES_FILE
    print(f"{record(target)} operations recorded in {target}")
