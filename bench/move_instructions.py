"""Machine instructions per move inside the server process, counted by valgrind's callgrind: a
figure that does not drift with the machine's speed, as every timed figure on a shared machine does
(the same code measured 44 to 51 % of the anchor, or 3.0 to 4.0 ms a move, from one minute to the
next). Read it to tell whether a change made a move cheaper; read the timed benches for how fast.

    .venv/bin/python bench/move_instructions.py [--moves 300]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_bench_instructions]
        [--redis-url redis://127.0.0.1:6379/13] [--smoke]

One process under ``valgrind --tool=callgrind``: it creates its own database and account as
``move_profile.py`` does, warms up (20 moves), then plays ``--moves`` moves, each a request handed
straight to ``config.wsgi``'s application (production settings, the PostgreSQL pool, Redis), a
one-seat yatzy game made through the API every 52 moves. Only the moves are counted (callgrind
collects inside ``sys.call_tracing``, which runs them, and nowhere else; ``PYTHONHASHSEED=0``):
Django, DRF, the service, the rules, psycopg and redis-py on the client side; not PostgreSQL's,
Redis's, gunicorn's or nginx's work. Prints figures; never asserts on them.

``--smoke``: 10 moves, on a database of its own; it checks that the run played what it was asked
and counted instructions. Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    Checks,
    parse_args,
    smoke_database,
    terminate_on_signals,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench_instructions"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
WARM_MOVES = 20
SMOKE: dict[str, Any] = {"moves": 10, "database_url": smoke_database(DEFAULT_DATABASE_URL)}
_TOTAL = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)


def child(args: argparse.Namespace) -> int:
    """One counted run (under callgrind): set up, warm up, then ``--child`` moves."""
    from move_profile import in_process_player

    with in_process_player(args.database_url, args.redis_url, False, "counter") as (player, _):
        for _ in range(WARM_MOVES):
            player.ensure_game()
            player.move()
        played = [0]

        def moves() -> None:
            for _ in range(args.child):
                player.ensure_game()
                player.move()
                played[0] += 1

        sys.call_tracing(moves, ())  # callgrind counts inside this call only
        print(f"played {played[0]} moves")
    return 0


def counted(args: argparse.Namespace, out: Path) -> subprocess.Popen[bytes]:
    argv = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
        "--toggle-collect=sys_call_tracing*",
        sys.executable, str(Path(__file__).resolve()), "--child", str(args.moves),
        "--database-url", args.database_url, "--redis-url", args.redis_url,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)


def total(out: Path) -> int:
    found = _TOTAL.search(out.read_bytes())
    if found is None:
        raise SystemExit(f"no total in {out}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parse_args(parser, argv, SMOKE)
    if args.child is not None:
        with terminate_on_signals():
            return child(args)
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind: apt-get install valgrind")
    checks = Checks(args.smoke)
    tmp = Path(tempfile.mkdtemp(prefix="dice-move-instructions-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        with terminate_on_signals():
            process = counted(args, tmp / "callgrind.out")
            output = process.communicate()[0].decode()
        played = re.search(r"^played (\d+) moves$", output, re.MULTILINE)
        ok = process.returncode == 0 and played is not None and int(played.group(1)) == args.moves
        if not checks.expect(ok, f"the run played its {args.moves} moves and exited 0"):
            print(output[-3000:])
            return checks.exit_code()
        instructions = total(tmp / "callgrind.out")
        print(f"instructions in {args.moves} moves: {instructions:,}")
        print(
            f"POST moves/: {instructions / args.moves / 1e6:.3f} million instructions per move"
            f" (over {args.moves})"
        )
        checks.expect(instructions > 0, f"instructions counted in the moves: {instructions:,}")
        return checks.exit_code()
    finally:
        if process is not None and process.poll() is None:  # stopped early: it cleans up
            process.terminate()
            process.wait(60)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
