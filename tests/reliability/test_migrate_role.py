"""``manage.py migrate`` connects as the migration role (``MIGRATE_DATABASE_URL``) when it is set;
every other command as the runtime role (``DATABASE_URL``). Shown with two SQLite files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def test_migrate_uses_the_migration_roles_database(tmp_path: Path) -> None:
    runtime, owner = tmp_path / "runtime.sqlite3", tmp_path / "owner.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{runtime}",
        "MIGRATE_DATABASE_URL": f"sqlite:///{owner}",
    }
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert not runtime.exists()
    with sqlite3.connect(owner) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"games_gameevent", "players_player"} <= tables
    check = subprocess.run(
        [sys.executable, "manage.py", "verify_log"], env=env, capture_output=True, text=True
    )
    assert runtime.exists()  # any other command: the runtime role's database
    assert check.returncode == 1  # which has no tables here
