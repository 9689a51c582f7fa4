"""The dashboard's figures beside the games (tests/operations/test_admin.py): open streams and
the timer lag as this machine's processes count them, the worker queues' depths from the broker,
and a paused tournament marked among those running."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from pytest_django import Settings

from config.observability.metrics import STREAMS_OPEN, TIMER_LAG_SECONDS
from config.observability.queue_depth import queue_names
from games.tournaments.moderation import tournament_pause
from games.tournaments.services import tournament_register, tournament_start
from tests.factories import account, new_tournament
from tests.operations.staff_browser import StaffBrowser

pytestmark = pytest.mark.django_db


def test_streams_lag_queues_and_a_paused_tournament(settings: Settings) -> None:
    settings.CELERY_BROKER_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
    root = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    staff = StaffBrowser(root, "root-password-1")
    cup = new_tournament(root, name="Held cup")
    for name in ("p1", "p2"):
        tournament_register(tournament_id=cup.pk, player=account(name))
    assert tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(hours=2))
    tournament_pause(tournament_id=cup.pk)
    STREAMS_OPEN.inc()
    TIMER_LAG_SECONDS.observe(0.3)
    try:
        page = staff.client.get("/admin/dashboard/")
    finally:
        STREAMS_OPEN.dec()
    sections = dict(page.context["sections"])
    activity = dict(sections["Activity"])
    assert isinstance(activity["Open streams (this machine)"], int)
    assert activity["Open streams (this machine)"] >= 1
    lag = dict(sections["Timers"])["Lag p99 since start, seconds (at most)"]
    assert isinstance(lag, float) and lag > 0
    queues = dict(sections["Worker queues (messages waiting)"])
    assert set(queue_names()) <= set(queues) and all(isinstance(n, int) for n in queues.values())
    assert dict(sections["Tournaments running"])["Held cup"] == "Yatzy · paused"
    assert b"Yatzy \xc2\xb7 paused" in page.content
