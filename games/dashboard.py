"""The admin's dashboard (``/admin/dashboard/``): what is being played now, read when the page is
asked for (it reloads itself). Staff only; nothing here writes. Moves per minute are counted among
the latest events by id, never a scan of the whole log; open streams and the timer lag are this
machine's Prometheus figures (``config.observability.metrics``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Max, Min
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from prometheus_client.parser import text_string_to_metric_families

from config.observability.metrics import exposition
from config.observability.queue_depth import queue_depths, timers_pending
from games.kinds import kind_for
from games.models import Game, GameEvent, GameStatus
from games.moderation import rating_watch
from games.tournaments.models import Tournament, TournamentStatus

REFRESH_SECONDS = 10
#: How many of the latest events the moves-per-minute figure looks at, at most.
RECENT_EVENTS = 20_000

Row = tuple[str, Any]


def games_in_play() -> list[Row]:
    counts = (
        Game.objects.filter(status=GameStatus.ACTIVE)
        .values_list("kind")
        .annotate(n=Count("id"))
        .order_by("kind")
    )
    return [(str(kind_for(kind).label), n) for kind, n in counts]


def moves_last_minute(now: datetime) -> int:
    last = GameEvent.objects.aggregate(last=Max("id"))["last"]
    if last is None:
        return 0
    recent = GameEvent.objects.filter(
        id__gt=last - RECENT_EVENTS, created_at__gte=now - timedelta(minutes=1)
    )
    return recent.values("game_id", "created_at").distinct().count()


def oldest_overdue_seconds(now: datetime) -> float | None:
    oldest = Game.objects.filter(status=GameStatus.ACTIVE, deadline_at__lte=now).aggregate(
        oldest=Min("deadline_at")
    )["oldest"]
    return None if oldest is None else (now - oldest).total_seconds()


def process_figures() -> tuple[float | None, float | None]:
    """(open streams, the timer lag's p99 bound in seconds) from this machine's metrics."""
    streams: float | None = None
    buckets: list[tuple[float, float]] = []
    for family in text_string_to_metric_families(exposition(queues=False).decode()):
        for sample in family.samples:
            if sample.name == "dice_streams_open":
                streams = (streams or 0) + sample.value
            elif sample.name == "dice_timer_lag_seconds_bucket":
                buckets.append((float(sample.labels["le"]), sample.value))
    buckets.sort()
    total = buckets[-1][1] if buckets else 0
    p99 = next((bound for bound, count in buckets if count >= 0.99 * total), None)
    return streams, (p99 if total else None)


def figures(now: datetime | None = None) -> list[tuple[str, list[Row]]]:
    """The dashboard's sections, each a title and its rows (label, value)."""
    now = now or timezone.now()
    streams, lag_p99 = process_figures()
    pending, overdue = timers_pending(now.timestamp())
    oldest = oldest_overdue_seconds(now)
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING).order_by("starts_at")
    unknown = _("unknown")
    return [
        (_("Games in play"), games_in_play() or [(_("none"), 0)]),
        (
            _("Activity"),
            [
                (_("Moves in the last minute"), moves_last_minute(now)),
                (_("Open streams (this machine)"), unknown if streams is None else int(streams)),
            ],
        ),
        (
            _("Timers"),
            [
                (_("Set"), pending),
                (_("Overdue"), overdue),
                (_("Oldest overdue, seconds"), "-" if oldest is None else f"{oldest:.1f}"),
                (_("Lag p99 since start, seconds (at most)"), lag_p99 or unknown),
            ],
        ),
        (
            _("Worker queues (messages waiting)"),
            [(name, depth) for name, depth in queue_depths().items()] or [(unknown, "")],
        ),
        (_("Tournaments running"), [(t.name, _running_label(t)) for t in running]),
        (
            _("Rated pairs over the daily limit (24 h): rated games together"),
            rating_watch.pairs_over_limit(now),
        ),
        (
            _("Rated games resigned before the third turn (24 h): game"),
            rating_watch.quick_resignations(now),
        ),
    ]


def _running_label(tournament: Tournament) -> str:
    """Its game, and whether the staff paused it (games.tournaments.moderation)."""
    kind = str(tournament.get_kind_display())
    return f"{kind} · {_('paused')}" if tournament.paused_at is not None else kind


def view(request: HttpRequest) -> TemplateResponse:
    from django.contrib import admin

    context = {
        **admin.site.each_context(request),
        "title": _("Live figures"),
        "sections": figures(),
        "refresh": REFRESH_SECONDS,
    }
    return TemplateResponse(request, "admin/dice/dashboard.html", context)
