from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, TypedDict, overload

from django.core.signals import setting_changed
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.rules.base import Doc

#: A moment as the API writes it (``iso_datetime``).
Instant = Annotated[str, Doc(format="date-time")]


# The views every kind's view is made of: their types are the API's schema (games.api.schema_forms).
class Message(TypedDict):
    code: str
    text: str


class MoveChoice(TypedDict):
    type: Annotated[str, Doc("A move type the seat to play may send now")]
    label: Annotated[str, Doc("Its button's words, in the request's language")]


class Result(TypedDict):
    places: Annotated[list[int], Doc("Each seat's place, 1 first (ties share it)")]
    totals: Annotated[list[int], Doc("Each seat's final total")]
    winners: Annotated[list[int], Doc("The seats placed first")]
    draw: bool


class Ending(TypedDict):
    out: Annotated[list[int], Doc("The seats that left the game, in order")]
    timeouts: Annotated[list[int], Doc("Each seat's timed-out turns in a row")]
    aborted: Annotated[bool, Doc("Called off: no result")]
    adjudicated: Annotated[bool, Doc("The staff decided the result")]
    limit_reached: Annotated[
        bool, Doc("The game ended at a limit of its length: the highest total won")
    ]


def places_summary(places: Sequence[int], totals: Sequence[int]) -> Result:
    """The result block shared by every game: places, totals, winners, and whether it is a draw."""
    winners = [seat for seat, place in enumerate(places) if place == 1]
    return {
        "places": list(places),
        "totals": list(totals),
        "winners": winners,
        "draw": len(winners) > 1,
    }


def ending_view(state: Any) -> Ending:
    """What every game's view says of a game that may end early (``games.rules.ending``)."""
    return {
        "out": list(state.out),
        "timeouts": list(state.timeouts or (0,) * state.seats),
        "aborted": state.aborted,
        "adjudicated": bool(state.adjudicated),
        "limit_reached": bool(state.limit_reached),
    }


class Translated:
    """A table of lazy strings, translated once per active language and kept: a score sheet shows
    some 150 labels, and a gettext call for each is a measurable share of a move's time."""

    _tables: list[Translated] = []

    def __init__(self, lazy: Mapping[str, str | Promise]) -> None:
        self.lazy = dict(lazy)
        self._by_language: dict[str | None, dict[str, str]] = {}
        Translated._tables.append(self)

    def now(self) -> dict[str, str]:
        """The table in the active language (the request's)."""
        language = translation.get_language()
        strings = self._by_language.get(language)
        if strings is None:
            strings = {key: str(text) for key, text in self.lazy.items()}
            self._by_language[language] = strings
        return strings

    def __getitem__(self, key: str) -> str:
        return self.now()[key]


# The catalogues Django reads may change with these settings (tests override them).
_CATALOGUE_SETTINGS = {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"}


def _settings_changed(*, setting: str, **_: object) -> None:
    if setting in _CATALOGUE_SETTINGS:
        for table in Translated._tables:
            table._by_language = {}


setting_changed.connect(_settings_changed, dispatch_uid="games.presenters.translated")


@overload
def iso_datetime(value: datetime) -> str: ...
@overload
def iso_datetime(value: datetime | None) -> str | None: ...
def iso_datetime(value: datetime | None) -> str | None:
    """A datetime as the API writes it: as DRF's ``DateTimeField`` writes an aware one in UTC,
    the time zone the server always speaks (``TIME_ZONE``; none other is ever activated). A few
    microseconds against DRF's 25, which asks for the current time zone at every value."""
    if value is None:
        return None
    moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return moment.isoformat().replace("+00:00", "Z")


#: What a client announces for the events of a game that ends early, in every game.
ENDING_MESSAGES = {
    "seat_left": _("A player has left the game."),
    "game_aborted": _("The game was aborted: nobody wins."),
    "game_adjudicated": _("The game was decided by the staff."),
    "turn_timed_out": _("Time ran out: the turn was played for the player."),
    "limit_reached": _("The game has reached its length limit: the highest total wins."),
}
_ENDING_WORDS = Translated(ENDING_MESSAGES)


def ending_messages(event_type: str) -> list[Message]:
    """The message of an ending event (``[{"code", "text"}]``), else none."""
    if event_type not in ENDING_MESSAGES:
        return []
    return [{"code": event_type, "text": _ENDING_WORDS[event_type]}]
