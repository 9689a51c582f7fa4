"""What production refuses to run with (the servers call ``refuse_unsafe_settings``, and
``manage.py check --deploy`` reports the same): with ``DEBUG`` off, the development ``SECRET_KEY``
(public: it is in this repository) or ``*`` in ``ALLOWED_HOSTS``. Settings stay importable either
way, so tests and management commands run without a key.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured


def unsafe_settings() -> list[str]:
    if settings.DEBUG:
        return []
    problems = []
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        problems.append("SECRET_KEY is the development key: set a secret one.")
    if "*" in settings.ALLOWED_HOSTS:
        problems.append("ALLOWED_HOSTS has '*': name the service's hosts.")
    return problems


def refuse_unsafe_settings() -> None:
    problems = unsafe_settings()
    if problems:
        raise ImproperlyConfigured(" ".join(problems))


@checks.register(checks.Tags.security, deploy=True)
def check_production_settings(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    return [
        checks.Error(problem, id=f"dice.E00{index}")
        for index, problem in enumerate(unsafe_settings(), start=1)
    ]
