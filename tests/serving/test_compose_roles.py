"""docker compose as shipped: each process connects as the role it needs (migrate as the tables'
owner, every other as the runtime role, none as PostgreSQL's superuser), Redis wants a password,
Prometheus and Grafana listen on loopback only and Grafana has no anonymous viewer.

Docker cannot run here: the file is read as compose reads it (YAML, its merge keys), and the
roles its PostgreSQL makes on its first start are made for real, by its own init script and
``config/deploy/roles.sql``, on a private PostgreSQL server (tests/reliability/private_postgres.py),
then migrated as the owner and played on as the runtime role, as compose's services do.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml

from tests.reliability.private_postgres import missing, private_server

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
APP_SERVICES = {"migrate", "api", "streams", "worker", "timers", "beat"}
INIT_SCRIPT = "/docker-entrypoint-initdb.d/10-dice-roles.sh"


def services() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return found


def url_user(url: str) -> tuple[str, str]:
    """The user and the password part of a URL with compose's ``${...}`` in it."""
    credentials = url.split("://", 1)[1].split("@", 1)[0]
    user, _, password = credentials.partition(":")
    return user, password


def required(variable: str) -> re.Pattern[str]:
    """``${NAME:?...}``: compose refuses to start without it, and it has no default."""
    return re.compile(r"^\$\{" + variable + r":\?[^}]*\}$")


def test_every_process_connects_as_its_role_and_none_as_the_superuser() -> None:
    found = services()
    for name in APP_SERVICES:
        env = found[name]["environment"]
        user, password = url_user(env["DATABASE_URL"])
        assert user == "dice_app", name  # the runtime role: it owns nothing
        assert required("DB_APP_PASSWORD").match(password), name
        assert env["DATABASE_URL"].endswith("@postgres:5432/dice"), name
    # migrate alone has the owner's URL (manage.py uses it for migrate and grant_runtime_role).
    owners = {
        name for name in found if "MIGRATE_DATABASE_URL" in found[name].get("environment", {})
    }
    assert owners == {"migrate"}
    owner, password = url_user(found["migrate"]["environment"]["MIGRATE_DATABASE_URL"])
    assert owner == "dice_owner" and required("DB_OWNER_PASSWORD").match(password)
    command = found["migrate"]["command"]
    migrate = command.index("manage.py migrate")
    assert migrate < command.index("manage.py grant_runtime_role dice_app")


def test_postgres_makes_the_roles_at_its_first_start() -> None:
    postgres = services()["postgres"]
    env = postgres["environment"]
    # The image's superuser is its default (postgres), with a password of the deployment's; no
    # database of the image's making: roles.sql makes dice, owned by dice_owner.
    assert "POSTGRES_USER" not in env and "POSTGRES_DB" not in env
    for variable in ("POSTGRES_PASSWORD", "DB_OWNER_PASSWORD", "DB_APP_PASSWORD"):
        assert required(variable).match(env[variable]), variable
    mounts = {volume.split(":")[1]: volume.split(":")[0] for volume in postgres["volumes"]}
    assert mounts[INIT_SCRIPT] == "./config/deploy/postgres/init-roles.sh"
    assert mounts["/dice/roles.sql"] == "./config/deploy/roles.sql"
    # Ready over TCP only: the image's first start serves its socket alone while it runs it.
    assert "-h 127.0.0.1" in postgres["healthcheck"]["test"][1]


def test_redis_wants_a_password_that_every_process_sends() -> None:
    found = services()
    redis = found["redis"]
    assert required("REDIS_PASSWORD").match(redis["environment"]["REDIS_PASSWORD"])
    assert '--requirepass "$$REDIS_PASSWORD"' in " ".join(redis["command"])
    check = redis["healthcheck"]["test"][1]
    assert "REDISCLI_AUTH" in check and "PONG" in check
    for name in APP_SERVICES:
        url = found[name]["environment"]["REDIS_URL"]
        user, password = url_user(url)
        assert user == "" and required("REDIS_PASSWORD").match(password), name
        assert "CELERY_BROKER_URL" not in found[name]["environment"]  # REDIS_URL's, with it


def test_only_the_proxy_listens_beyond_this_machine() -> None:
    found = services()
    published = {name: service.get("ports", []) for name, service in found.items()}
    assert published.pop("proxy") == ["8000:80"]
    assert published.pop("prometheus") == ["127.0.0.1:9090:9090"]
    assert published.pop("grafana") == ["127.0.0.1:3000:3000"]
    assert not any(published.values()), published
    grafana = found["grafana"]["environment"]
    assert grafana["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert "GF_AUTH_ANONYMOUS_ORG_ROLE" not in grafana
    assert required("GRAFANA_ADMIN_PASSWORD").match(grafana["GF_SECURITY_ADMIN_PASSWORD"])


def test_the_tiers_answer_the_names_compose_reaches_them_by() -> None:
    """The health checks ask 127.0.0.1, Prometheus api and streams: both tiers refuse a host
    outside ALLOWED_HOSTS."""
    hosts = services()["api"]["environment"]["ALLOWED_HOSTS"]
    assert hosts.startswith("${ALLOWED_HOSTS:-localhost},")
    assert {"127.0.0.1", "api", "streams"} <= set(hosts.split("},", 1)[1].split(","))


def test_every_variable_compose_reads_is_documented() -> None:
    names = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", COMPOSE.read_text()))
    assert {"DB_APP_PASSWORD", "REDIS_PASSWORD", "GRAFANA_ADMIN_PASSWORD"} <= names
    env_example = (ROOT / ".env.example").read_text()
    settings_page = (ROOT / "docs" / "settings.md").read_text()
    for name in sorted(names):
        assert re.search(rf"^#? ?{name}=", env_example, re.M), f".env.example lacks {name}"
        assert f"| `{name}` |" in settings_page, f"docs/settings.md lacks {name}"


# --- the roles, made for real ------------------------------------------------------------------


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


PLAY = """
import django
django.setup()
from tests.factories import account, move, new_game
ann = account("ann")
game = move(new_game(ann), ann, type="roll")
print(game.pk)
"""


@pytest.mark.slow
@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_the_init_script_s_roles_migrate_play_and_keep_the_log(tmp_path: Path) -> None:
    passwords = {"DB_OWNER_PASSWORD": "owner0pass0word", "DB_APP_PASSWORD": "app0pass0word"}
    with private_server() as server:
        # The script as the image runs it: psql as its superuser, on the fresh server.
        script = subprocess.run(
            ["sh", str(ROOT / "config/deploy/postgres/init-roles.sh")],
            env={
                **os.environ,
                **passwords,
                "PGHOST": "127.0.0.1",
                "PGPORT": str(server.port),
                "POSTGRES_USER": "postgres",
                "DICE_ROLES_SQL": str(ROOT / "config/deploy/roles.sql"),
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert script.returncode == 0, script.stdout + script.stderr
        at = f"127.0.0.1:{server.port}/dice"
        owner_url = f"postgres://dice_owner:{passwords['DB_OWNER_PASSWORD']}@{at}"
        app_url = f"postgres://dice_app:{passwords['DB_APP_PASSWORD']}@{at}"
        clean = {
            k: v
            for k, v in os.environ.items()
            if k not in {"REDIS_URL", "CELERY_BROKER_URL", "PROMETHEUS_MULTIPROC_DIR"}
        }
        env = {
            **clean,
            "DATABASE_URL": app_url,
            "SECRET_KEY": "compose-roles-test-secret-key-0123456789-abcdefghijklmno",
            "CELERY_BROKER_URL": "memory://",
            "COMPUTER_MOVE_DELAY": "0",
        }
        # compose's migrate: as the owner, the runtime role granted its rights after.
        manage({**env, "MIGRATE_DATABASE_URL": owner_url}, "migrate", "--noinput")
        manage({**env, "MIGRATE_DATABASE_URL": owner_url}, "grant_runtime_role", "dice_app")
        # Every other process: the runtime role plays a move (its events appended).
        played = subprocess.run(
            [sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert played.returncode == 0, played.stderr
        game_id = played.stdout.strip().splitlines()[-1]

        with psycopg.connect(app_url, autocommit=True) as app:
            assert app.execute("SELECT current_user").fetchone() == ("dice_app",)
            events = app.execute(
                "SELECT count(*) FROM games_gameevent WHERE game_id = %s", [game_id]
            ).fetchone()
            assert events is not None and events[0] > 0
            for statement in [
                "UPDATE games_gameevent SET type = 'forged'",
                "DELETE FROM games_gameevent",
                "TRUNCATE games_gameevent",
                "ALTER TABLE games_gameevent DISABLE TRIGGER ALL",
                "CREATE TABLE forged (id int)",
            ]:
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    app.execute(statement)
            superuser = app.execute("SELECT rolsuper FROM pg_roles WHERE rolname = 'dice_app'")
            assert superuser.fetchone() == (False,)
        with psycopg.connect(owner_url, autocommit=True) as owner:
            tables = owner.execute(
                "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
            assert tables == [("dice_owner",)]
            # Even the owner cannot rewrite history: the log's trigger refuses it.
            with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
                owner.execute("UPDATE games_gameevent SET type = 'forged'")
