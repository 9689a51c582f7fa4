"""Recurring tournaments: a five-field cron line gives the next edition's start (in UTC)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, cast

from celery.schedules import crontab

from config.vocabulary.refusals import Refusal


class _Expanded(Protocol):
    """The values a crontab's five fields name (set in __init__; celery-types omits them)."""

    minute: set[int]
    hour: set[int]
    day_of_month: set[int]
    month_of_year: set[int]
    day_of_week: set[int]


#: A cron line's five fields, in its order (crontab's own keywords come in another).
FIELDS = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")


def _crontab(line: str) -> crontab:
    fields = line.split()
    if len(fields) != len(FIELDS):
        raise Refusal.INVALID_RECURRENCE.error()
    try:
        return crontab(**dict(zip(FIELDS, fields, strict=True)))
    except (ValueError, TypeError):
        raise Refusal.INVALID_RECURRENCE.error() from None


def validate_cron(line: str) -> None:
    """Refuse a line that does not parse, or that names no time in the next five years."""
    next_occurrence(line, after=datetime.now(UTC))


def next_occurrence(line: str, *, after: datetime) -> datetime:
    """The first minute strictly after ``after`` that the cron line names (UTC). As in Celery's
    crontab, a day must match both the day of month and the day of week fields."""
    schedule = cast(_Expanded, _crontab(line))
    start = after.astimezone(UTC).replace(second=0, microsecond=0) + timedelta(minutes=1)
    day = start.replace(hour=0, minute=0)
    for _ in range(366 * 5):  # a line naming a day that never comes (30 February) ends here
        weekday = (day.weekday() + 1) % 7  # cron counts from Sunday = 0
        if (
            day.month in schedule.month_of_year
            and day.day in schedule.day_of_month
            and weekday in schedule.day_of_week
        ):
            for hour in sorted(schedule.hour):
                for minute in sorted(schedule.minute):
                    moment = day.replace(hour=hour, minute=minute)
                    if moment >= start:
                        return moment
        day += timedelta(days=1)
    raise Refusal.INVALID_RECURRENCE.error()
