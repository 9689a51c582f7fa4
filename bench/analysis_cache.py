"""The cost of a long game's analysis, its picture and its replay, per request: uncached, cached,
and answered 304 to an ``If-None-Match``.

    .venv/bin/python bench/analysis_cache.py [--seats 6] [--target 15000] [--repeat 5]
        [--live-moves 60]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_analysis_cache_bench]
        [--redis-url redis://127.0.0.1:6379/10 | ''] [--sqlite] [--smoke]

No server and no network client: each request is a WSGI environ handed to ``config.wsgi``'s
application in this process (as ``bench/move_profile.py`` does), with production settings (DEBUG
off, throttles set high, the PostgreSQL pool, Redis as the cache). Prints figures; never asserts
on time.

1. creates a fresh database (dropped and re-created; its name must contain ``bench``), migrates it,
   flushes the Redis db;
2. plays one long Dés 10 000 game through the move path (``games.services.game_move``): ``--seats``
   hot seats that bank the least they can at every turn, to ``--target`` (six seats to 15,000:
   some 2,800 events, about 160 rounds), then ``--live-moves`` moves of a game played by the
   computer levels (an analysis during play);
3. for ``analysis/``, ``analysis.svg`` and ``replay/`` (the latest state and the state halfway),
   ``--repeat`` requests each: uncached (the cache emptied before each), cached (the same request
   again), and with ``If-None-Match`` naming the answer's ``ETag`` where it has one (304). Prints
   the wall time per request in milliseconds (the database's read included) and, uncached, per
   event of the log in microseconds.

``--smoke``: a short game (one seat to 5,000), 10 moves of the other, one request of each read, on
a database of its own; it checks that the long game finished, that each kept answer is the
uncached one byte for byte and read no event of the log, and that each read answers its tag with
304 (``tests/bench/test_smoke.py``).
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    BenchDatabase,
    Checks,
    bench_env,
    clean_up,
    flush_redis,
    manage,
    parse_args,
    smoke_database,
    terminate_on_signals,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_analysis_cache_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/10"
API = "/api/v1"
# --smoke: a short game, a few moves of the other, one request of each, on a database of its own
SMOKE: dict[str, Any] = {
    "seats": 1, "target": 5000, "repeat": 1, "live_moves": 10,
    "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=6, help="hot seats of the long game (1-6)")
    parser.add_argument("--target", type=int, default=15000, choices=(5000, 10000, 15000))
    parser.add_argument("--repeat", type=int, default=5, help="requests per figure")
    parser.add_argument("--live-moves", type=int, default=60, help="moves of the game in play")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="'' for none")
    return parse_args(parser, argv, SMOKE)


class Wsgi:
    """Requests straight into the WSGI application, as gunicorn would hand them over."""

    def __init__(self, application: Callable[..., Any]) -> None:
        self.application = application

    def get(self, path: str, query: str = "", **headers: str) -> tuple[int, dict[str, str], bytes]:
        environ = {
            "REQUEST_METHOD": "GET",
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8011",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8011",
            "HTTP_ACCEPT_LANGUAGE": "en",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
        }
        status: list[str] = []
        answer_headers: dict[str, str] = {}

        def start_response(line: str, given: list[tuple[str, str]], exc: Any = None) -> None:
            status.append(line)
            answer_headers.update((name.lower(), value) for name, value in given)

        result = self.application(environ, start_response)
        try:
            raw = b"".join(result)
        finally:
            result.close()  # request_finished: the connection goes back to the pool
        code = int(status[0].split()[0])
        if code not in (200, 304):
            raise SystemExit(f"GET {path}?{query}: HTTP {code} {raw[:300]!r}")
        return code, answer_headers, raw


def cautious_command(state: Any) -> dict[str, Any]:
    """Bank the least that counts at every turn: the longest games that still end."""
    from ai.positions import faces_to_indices
    from games.rules import ten_thousand

    if not state.roll:
        return {"type": "roll"}
    faces, _points = min(ten_thousand.keep_options(state.roll), key=lambda o: (o[1], len(o[0])))
    return {"type": "bank", "keep": list(faces_to_indices(state.roll, faces))}


def play(game_id: Any, choose: Callable[[Any], dict[str, Any]], moves: int | None = None) -> None:
    """Moves through the one move path, by the server (``actor`` None), to the end or ``moves``."""
    from games import services
    from games.models import Game
    from games.rules import ten_thousand

    game = Game.objects.get(pk=game_id)
    state = ten_thousand.state_from_wire(game.state or {})
    played = 0
    while not state.finished and (moves is None or played < moves):
        moved = services.game_move(game_id=game_id, command=choose(state), actor=None)
        state = moved.state  # type: ignore[assignment]  # a TenThousandState: the game's kind
        played += 1


def new_game(seats: int, target: int, *, assistance: bool = True) -> Any:
    from games import services
    from players.models import Player

    creator, _ = Player.objects.get_or_create(username="bench-analysis")
    specs = [services.SeatSpec(type="hotseat", name=f"Seat {n + 1}") for n in range(seats)]
    game = services.game_create(
        creator=creator,
        kind="ten_thousand",
        seats=specs,
        options={"target": target},
        assistance=assistance,
        by_account=False,
    )
    services.game_start(game_id=game.pk, player=creator)
    return game.pk


def computer_command(state: Any) -> dict[str, Any]:
    from games.kinds import kind_for

    kind = kind_for("ten_thousand")
    return kind.computer(state, "expert" if state.turn_seat % 2 == 0 else "classic")


def measure(
    wsgi: Wsgi, path: str, query: str, repeat: int, checks: Checks
) -> tuple[float, float, float | None]:
    """Mean ms per request: uncached, cached, 304 (None without an ETag)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    uncached, cached, conditional = [], [], []
    tag = None
    where = f"{path}?{query}" if query else path
    for _ in range(repeat):
        cache.clear()
        started = time.perf_counter()
        _code, _headers, first = wsgi.get(path, query)
        uncached.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            _code, headers, again = wsgi.get(path, query)
            cached.append(time.perf_counter() - started)
        read = " ".join(sent["sql"] for sent in queries.captured_queries)
        checks.expect(again == first, f"{where}: the kept answer is the uncached one")
        checks.expect("games_gameevent" not in read, f"{where}: kept, it read no event")
        tag = headers.get("etag")
        if checks.expect(tag is not None, f"{where}: an ETag") and tag is not None:
            started = time.perf_counter()
            code, _headers, _body = wsgi.get(path, query, IF_NONE_MATCH=tag)
            conditional.append(time.perf_counter() - started)
            checks.expect(code == 304, f"{where}: If-None-Match with its tag answered {code}")

    def mean_ms(samples: list[float]) -> float:
        return 1000 * sum(samples) / len(samples)

    return mean_ms(uncached), mean_ms(cached), mean_ms(conditional) if conditional else None


def measurements(args: argparse.Namespace, checks: Checks) -> None:
    """The games and the figures, once Django is set up on a migrated database."""
    from django.core.handlers.wsgi import WSGIHandler

    from games.models import Game

    long_id = new_game(args.seats, args.target)
    started = time.perf_counter()
    play(long_id, cautious_command)
    game = Game.objects.get(pk=long_id)
    rounds = (game.state or {}).get("rounds_played")
    print(
        f"a finished game of {args.seats} seats to {args.target}: {game.version} events, "
        f"{rounds if rounds is not None else '?'} rounds, played in "
        f"{time.perf_counter() - started:.1f} s"
    )
    checks.expect(game.status == "finished", f"the long game finished ({game.status})")
    live_id = new_game(2, 10000)
    play(live_id, computer_command, moves=args.live_moves)
    live = Game.objects.get(pk=live_id)
    print(f"a game in play (expert against classic): {live.version} events, {live.status}")

    wsgi = Wsgi(WSGIHandler())  # config.wsgi's application, without its production checks
    for path in (f"{API}/games/{long_id}/analysis/", f"{API}/games/{long_id}/replay/"):
        wsgi.get(path)  # warm every import and table
    rows = [
        ("analysis/ (finished)", long_id, "analysis/", "", game.version),
        ("analysis.svg (finished)", long_id, "analysis.svg", "", game.version),
        ("replay/ (latest)", long_id, "replay/", "", game.version),
        ("replay/?at= (halfway)", long_id, "replay/", f"at={game.version // 2}", game.version // 2),
        ("analysis/ (in play)", live_id, "analysis/", "", live.version),
    ]
    print()
    print(f"{'request':<26} {'events':>7} {'uncached ms':>12} {'µs/event':>9} "
          f"{'cached ms':>10} {'304 ms':>8}")  # fmt: skip
    for label, game_id, what, query, events in rows:
        path = f"{API}/games/{game_id}/{what}"
        uncached, cached, conditional = measure(wsgi, path, query, args.repeat, checks)
        per_event = 1000 * uncached / max(events, 1)
        shown = f"{conditional:8.2f}" if conditional is not None else f"{'-':>8}"
        print(f"{label:<26} {events:>7} {uncached:12.2f} {per_event:9.1f} {cached:10.2f} {shown}")
    print(f"(mean of {args.repeat} requests each; wall time, the database's reads included)")


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    with terminate_on_signals():
        return run(args)


def run(args: argparse.Namespace) -> int:
    checks = Checks(args.smoke)
    tmp = Path(tempfile.mkdtemp(prefix="dice-analysis-cache-"))
    database = BenchDatabase(args.database_url, args.sqlite, tmp)
    env = bench_env(database.url, args.redis_url, THROTTLE_EXPENSIVE="1000000/s")
    try:
        database.create()
        flush_redis(args.redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
        import django

        django.setup()
        print(f"database: {database.describe()}; cache: {args.redis_url or 'in-process'}")
        measurements(args, checks)
        return checks.exit_code()
    finally:
        clean_up(database, args.redis_url, tmp, keep_logs=False)


if __name__ == "__main__":
    sys.exit(main())
