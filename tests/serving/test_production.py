"""Safe by default: production settings, what the servers refuse to start with, and the image
and compose file as shipped. Settings are read in a fresh process with the environment given, as
a server would read them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-production-secret-" + "x9Y8z7W6" * 6
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "dice.example.org"}


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "HTTPS"}}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting(name: str, **env: str) -> str:
    code = (
        f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    )
    result = run(code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_is_off_unless_set() -> None:
    assert setting("DEBUG") == "False"
    assert setting("DEBUG", DEBUG="true") == "True"
    assert "testserver" not in setting("ALLOWED_HOSTS")


def test_production_answers_json_only() -> None:
    code = (
        "import django; django.setup(); from rest_framework.settings import api_settings; "
        "print([c.__name__ for c in api_settings.DEFAULT_RENDERER_CLASSES])"
    )
    # JSON, and JSON again for a client that asks for application/problem+json alone
    expected = "['JSONRenderer', 'ProblemJSONRenderer']"
    assert run(code, **PRODUCTION).stdout.strip() == expected
    assert "BrowsableAPIRenderer" in run(code, DEBUG="true").stdout


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"DEBUG": "false", "ALLOWED_HOSTS": "dice.example.org"}, "SECRET_KEY"),
        ({**PRODUCTION, "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS"),
    ],
)
@pytest.mark.parametrize("entry", ["config.wsgi", "config.streams"])
def test_the_servers_refuse_to_start_unsafe(entry: str, env: dict[str, str], words: str) -> None:
    result = run(f"import {entry}", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert words in result.stderr
    assert run(f"import {entry}", **PRODUCTION).returncode == 0


def test_the_deploy_check_is_clean_with_the_documented_production_settings() -> None:
    manage = "import sys; from django.core.management import execute_from_command_line; "
    check = (
        manage
        + "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])"
    )
    result = run(check, **PRODUCTION, HTTPS="true")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
    # The development key is an error there, not only a warning.
    unsafe = run(check, DEBUG="false", ALLOWED_HOSTS="dice.example.org", HTTPS="true")
    assert unsafe.returncode != 0
    assert "dice.E001" in unsafe.stderr


def test_the_compose_file_ships_no_secret_and_checks_its_tiers() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "SECRET_KEY: ${SECRET_KEY:?" in compose  # required, no default
    assert re.search(r"DEBUG: \$\{DEBUG:-false\}", compose)
    assert "ALLOWED_HOSTS: ${ALLOWED_HOSTS:-localhost" in compose
    services = dict(re.findall(r"^  ([a-z]+):\n((?:    .*\n|\n)*)", compose, re.M))
    for tier in ("api", "streams"):
        assert "healthcheck:" in services[tier], tier
    assert "condition: service_healthy" in services["proxy"]


def test_every_long_running_service_of_compose_is_restarted() -> None:
    """A container that exits is started again (the process managers of `make run` and `make
    serve` do the same: tests/serving/test_supervise.py); only the one-shot migrate is not."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    policies = {name: service.get("restart") for name, service in services.items()}
    assert policies.pop("migrate") == "no"
    assert {"api", "streams", "proxy", "worker", "timers", "beat", "postgres", "redis"} <= set(
        policies
    )
    assert set(policies.values()) == {"unless-stopped"}, policies


def test_the_image_runs_as_its_own_user_from_the_lock() -> None:
    dockerfile = (ROOT / "config/deploy/Dockerfile").read_text()
    assert re.search(r"^USER dice$", dockerfile, re.M)
    assert "-r requirements.lock" in dockerfile
    assert "build_ai_tables" in dockerfile


def test_the_lock_pins_every_dependency_as_pyproject_does() -> None:
    """``make lock`` after changing pyproject: every pin of the project is in the lock, at the same
    version, and every line of the lock is pinned."""
    lock = {}
    for line in (ROOT / "config/deploy/requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, line
            lock[_canonical(name)] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        name, _, version = requirement.partition("==")
        assert lock.get(_canonical(name.split("[")[0])) == version, requirement


# What the processes of `make run` and the image load (the settings and every app, the URLs and
# their views, both web tiers, the Celery app with its tasks and broker transport, the timers and
# the tables' commands, the servers, supervisor, and Babel, the translations' compiler), with no
# distribution importable but the lock's: a dev package imported is ModuleNotFoundError, as where
# only the lock is installed, and an optional import of one falls back as it would there.
PROCESS_IMPORTS = """
import json, os, re, sys
from importlib.metadata import packages_distributions

ALLOWED = set(json.loads(os.environ["LOCKED"])) | {"dice-server"}
OWNERS = packages_distributions()

class OnlyTheLock:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        owners = {re.sub(r"[-_.]+", "-", d).lower() for d in OWNERS.get(top, [])}
        if owners and not owners & ALLOWED:
            raise ModuleNotFoundError(f"No module named {top!r} (not in the lock)", name=top)
        return None

sys.meta_path.insert(0, OnlyTheLock())
import django
django.setup()
import config.urls, config.asgi, config.streams, config.wsgi, config.broker
from config.celery_app import app
app.loader.import_default_modules()
import games.management.commands.run_timers, games.management.commands.build_ai_tables
import celery.bin.celery, uvicorn.main, gunicorn.app.wsgiapp, supervisor.supervisord
import babel.messages.frontend
"""


def test_the_processes_need_only_what_the_lock_installs() -> None:
    """The image installs the lock alone, and `make run` pyproject's dependencies alone (not the
    dev extra): the processes start with nothing else. (kombu's Redis transport needs its redis
    extra's ``packaging``, which only the dev set brought.)"""
    lock = [
        _canonical(line.partition("==")[0])
        for line in (ROOT / "config/deploy/requirements.lock").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    result = run(PROCESS_IMPORTS, DEBUG="true", LOCKED=json.dumps(lock))
    assert result.returncode == 0, result.stderr[-3000:]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
