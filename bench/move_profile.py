"""The cost of one move inside the server process: CPU, SQL queries and Redis round trips.

    .venv/bin/python bench/move_profile.py [--moves 300] [--profile] [--top 30]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_lean_profile_bench]
        [--redis-url redis://127.0.0.1:6379/9 | ''] [--sqlite] [--smoke]

No server and no network client: each request is a WSGI environ handed to ``config.wsgi``'s
application in this process, so the figures are Django's work alone (middleware, DRF, auth,
throttles, the service, rendering), with production settings (DEBUG off, throttles set high, the
PostgreSQL pool, Redis as the cache). Prints figures; never asserts on time.

1. creates a fresh database (dropped and re-created; its name must contain ``bench``), migrates it,
   flushes the Redis db;
2. one account with a knox token; it creates one-seat yatzy games (``auto_confirm_seconds`` 0) and
   plays roll, roll, roll, score turns (``bench/harness.py``'s bot) with ``expected_version``;
3. a counting pass (one game, 52 moves): SQL queries per move (``CaptureQueriesContext``) and
   Redis round trips per move (packets sent by redis-py), and the same for ``GET games/{id}/``;
4. a timed pass: ``--moves`` moves, then as many ``GET games/{id}/``, each timed with the process
   CPU clock (game create/start requests are left out), and the CPU the database's server
   processes used meanwhile (read from /proc: this machine's PostgreSQL only); with
   ``--profile`` the moves run again under cProfile (on the CPU clock) and the top functions are
   printed (cProfile inflates the time: the CPU figure is the one measured without it).

``--smoke``: 20 moves, both profiles (5 lines each), on a database of its own; it checks that the
counting pass played a whole game (52 moves), that each move ran its queries inside one
transaction, and that the figures are of as many requests as asked.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    API,
    BenchDatabase,
    Checks,
    bench_env,
    clean_up,
    flush_redis,
    manage,
    parse_args,
    percentile,
    smoke_database,
    terminate_on_signals,
    yatzy_command,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_lean_profile_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/9"
MOVES_PER_GAME = 52  # a one-seat yatzy game: 13 turns of roll, roll, roll, score
# --smoke: a few moves and both profiles (the options a full run may take), on a database of its own
SMOKE: dict[str, Any] = {
    "moves": 20, "profile": True, "profile_detail": True, "top": 5,
    "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


class Wsgi:
    """Requests straight into the WSGI application, as gunicorn would hand them over."""

    def __init__(self, application: Callable[..., Any], token: str) -> None:
        self.application = application
        self.token = token

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8011",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8011",
            "HTTP_ACCEPT": "application/json",
            "HTTP_AUTHORIZATION": f"Token {self.token}",
            "CONTENT_TYPE": "application/json" if payload else "",
            "CONTENT_LENGTH": str(len(payload)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(payload),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        status: list[str] = []

        def start_response(line: str, headers: list[tuple[str, str]], exc: Any = None) -> None:
            status.append(line)

        result = self.application(environ, start_response)
        try:
            raw = b"".join(result)
        finally:
            result.close()  # request_finished: the connection goes back to the pool
        code = int(status[0].split()[0])
        return code, json.loads(raw) if raw else None


class Player:
    """One account's one-seat yatzy game, replaced when it ends; ``move`` plays one move."""

    def __init__(self, wsgi: Wsgi) -> None:
        self.wsgi = wsgi
        self.game: dict[str, Any] = {}

    def expect(self, status: int, method: str, path: str, body: Any = None) -> Any:
        got, data = self.wsgi.request(method, path, body)
        if got != status:
            raise SystemExit(f"{method} {path}: HTTP {got} {data}")
        return data

    def ensure_game(self) -> None:
        if self.game.get("status") in (None, "finished"):
            self.game = self.expect(
                201, "POST", f"{API}/games/",
                {"kind": "yatzy", "seats": [{"type": "me"}],
                 "options": {"auto_confirm_seconds": 0}},
            )  # fmt: skip
        if self.game["status"] == "open":
            self.game = self.expect(200, "POST", f"{API}/games/{self.game['id']}/start/")

    def move(self) -> None:
        command = {**yatzy_command(self.game["state"]), "expected_version": self.game["version"]}
        body = self.expect(201, "POST", f"{API}/games/{self.game['id']}/moves/", command)
        self.game = body["game"]

    def detail(self) -> None:
        self.expect(200, "GET", f"{API}/games/{self.game['id']}/")


@contextlib.contextmanager
def redis_round_trips() -> Iterator[list[int]]:
    """Counts the packets redis-py sends (a pipeline is one)."""
    import redis.connection

    counter = [0]
    original = redis.connection.AbstractConnection.send_packed_command

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        counter[0] += 1
        original(self, command, check_health)

    redis.connection.AbstractConnection.send_packed_command = counting  # type: ignore[method-assign]
    try:
        yield counter
    finally:
        redis.connection.AbstractConnection.send_packed_command = original  # type: ignore[method-assign]


def count_pass(player: Player) -> dict[str, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    player.game = {}
    player.ensure_game()
    moves = queries = trips = 0
    details_q = details_t = 0
    shown: list[str] = []
    transactions = []  # each move's BEGIN and COMMIT
    while player.game["status"] != "finished":
        with CaptureQueriesContext(connection) as captured, redis_round_trips() as sent:
            player.move()
        moves += 1
        queries += len(captured.captured_queries)
        trips += sent[0]
        statements = [q["sql"].strip().upper() for q in captured.captured_queries]
        transactions.append((statements.count("BEGIN"), statements.count("COMMIT")))
        if moves == 5:
            shown = [q["sql"][:160] for q in captured.captured_queries]
            if os.environ.get("DUMP_SQL"):
                Path(os.environ["DUMP_SQL"]).write_text(
                    ";\n".join(q["sql"] for q in captured.captured_queries) + ";\n"
                )
    with CaptureQueriesContext(connection) as captured, redis_round_trips() as sent:
        player.detail()
    details_q, details_t = len(captured.captured_queries), sent[0]
    print("queries of one move (the 5th of a game):")
    for sql in shown:
        print(f"  {sql}")
    return {
        "moves": moves,
        "queries_per_move": queries / moves,
        "redis_per_move": trips / moves,
        "detail_queries": details_q,
        "detail_redis": details_t,
        "one_transaction": sum(t == (1, 1) for t in transactions),
    }


def postgres_cpu_seconds() -> float | None:
    """CPU used so far by this database's server processes (this process's connections), or None
    off PostgreSQL or when their /proc entries cannot be read (another machine)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        pids = [row[0] for row in cursor.fetchall()]
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def timed(player: Player, count: int, what: str) -> list[float]:
    samples = []
    done = 0
    while done < count:
        player.ensure_game()
        step = player.move if what == "move" else player.detail
        t0 = time.process_time()
        step()
        samples.append(time.process_time() - t0)
        done += 1
        if what == "detail" and done % 40 == 0:
            player.move()  # let the game change a little under the GETs
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the moves")
    parser.add_argument(
        "--profile-detail", action="store_true", help="print a cProfile of GET games/{id}/"
    )
    parser.add_argument("--top", type=int, default=30, help="functions shown by --profile")
    parser.add_argument("--sort", default="tottime", help="cProfile sort key (tottime, cumtime)")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="'' for none")
    args = parse_args(parser, argv, SMOKE)
    with terminate_on_signals():
        return run(args)


@contextlib.contextmanager
def in_process_player(
    database_url: str, redis_url: str, sqlite: bool, name: str
) -> Iterator[tuple[Player, str]]:
    """A fresh database (migrated) and Redis db, Django set up in this process with production
    settings, and one account's ``Player`` that hands its requests to ``config.wsgi`` (with the
    database's description); the database dropped and the Redis db flushed after."""
    tmp = Path(tempfile.mkdtemp(prefix="dice-in-process-"))
    database = BenchDatabase(database_url, sqlite, tmp)
    env = bench_env(database.url, redis_url)
    try:
        database.create()
        flush_redis(redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")  # a process of its own
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        from django.db import connection
        from knox.models import AuthToken

        from config.wsgi import application
        from players.models import Player as Account

        account = Account.objects.create_user(name, password=secrets.token_hex(12))
        _instance, token = AuthToken.objects.create(user=account)
        connection.close()
        yield Player(Wsgi(application, token)), database.describe()
    finally:
        clean_up(database, redis_url, tmp, keep_logs=False)


def run(args: argparse.Namespace) -> int:
    checks = Checks(args.smoke)
    made = in_process_player(args.database_url, args.redis_url, args.sqlite, "profiler")
    with made as (player, described):
        player.ensure_game()
        for _ in range(20):  # warm every import and cache
            player.move()
            player.detail()
            player.ensure_game()

        counts = count_pass(player)
        pg_before = postgres_cpu_seconds()
        moves = timed(player, args.moves, "move")
        pg_after = postgres_cpu_seconds()
        details = timed(player, args.moves, "detail")
        print()
        print(f"database: {described}; redis: {args.redis_url or 'none'}")
        print(
            f"POST moves/: {counts['queries_per_move']:.2f} queries, "
            f"{counts['redis_per_move']:.2f} Redis round trips per move "
            f"(over the {counts['moves']:.0f} moves of a game)"
        )
        print(
            f"GET games/{{id}}/: {counts['detail_queries']} queries, "
            f"{counts['detail_redis']} Redis round trips"
        )
        for label, samples in (("POST moves/", moves), ("GET games/{id}/", details)):
            mean = sum(samples) / len(samples)
            print(
                f"{label:<16} CPU per request over {len(samples)}: mean {mean * 1000:.2f} ms, "
                f"p50 {percentile(samples, 50) * 1000:.2f} ms, "
                f"p99 {percentile(samples, 99) * 1000:.2f} ms"
            )
        if pg_before is not None and pg_after is not None:
            # A game is created and started every 52 moves: their statements are counted too.
            print(
                f"POST moves/      PostgreSQL CPU per move (its server processes, /proc): "
                f"{(pg_after - pg_before) / len(moves) * 1000:.2f} ms"
            )
        for what, wanted in (("move", args.profile), ("detail", args.profile_detail)):
            if not wanted:
                continue
            # CPU time, not wall time: waits on PostgreSQL and Redis are not the server's work.
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            timed(player, args.moves, what)
            profiler.disable()
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats(args.sort).print_stats(args.top)
            print(f"cProfile of {args.moves} x {what}:")
            print(out.getvalue())
            checks.expect(
                stats.total_calls > 0,
                f"cProfile of {what}: {stats.total_calls} calls",
            )
        checks.expect(
            counts["moves"] == MOVES_PER_GAME,
            f"counting pass: {counts['moves']:.0f} moves to the end of a game "
            f"(a one-seat game has {MOVES_PER_GAME})",
        )
        checks.expect(
            counts["one_transaction"] == counts["moves"],
            f"moves run in one transaction each (BEGIN, COMMIT): {counts['one_transaction']:.0f}"
            f" of {counts['moves']:.0f}",
        )
        checks.expect(
            len(moves) == len(details) == args.moves,
            f"timed: {len(moves)} moves and {len(details)} GETs, of {args.moves} asked",
        )
        if args.redis_url:
            checks.expect(
                counts["redis_per_move"] > 0,
                f"Redis round trips per move: {counts['redis_per_move']:.2f} (throttle, notes)",
            )
        return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
