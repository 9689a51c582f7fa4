"""Pig's ``Kind``: its engine, presenter, seats, computer and options. Registered by the tests only
(``games.kinds.registry.registered``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, cast

from django.utils.translation import gettext_lazy as _

from games.kinds.base import Engine, Kind, Level, Presenter, Seats, levels
from tests.kinds.pig import presenter, rules

#: The turn points at which each level holds.
HOLD_AT = {"steady": 20, "timid": 8}


def command(state: rules.PigState, level: str = "steady") -> dict[str, Any]:
    """Hold once the turn has ``HOLD_AT[level]`` points or would reach the target; else roll."""
    needed = state.options.target - state.totals[state.turn_seat]
    hold = state.turn_points >= min(HOLD_AT[level], needed)
    return {"type": "hold" if hold and state.turn_points else "roll"}


def hint(state: rules.PigState) -> dict[str, Any]:
    return {"move": command(state), "expected_value": None, "options": []}


KIND = Kind(
    code="pig",
    label=_("Pig"),
    engine=cast(Engine, rules),
    presenter=cast(Presenter, presenter),
    seats=Seats(least=1, most=rules.MAX_SEATS),
    levels=levels(Level("steady", _("steady"), rating=1500.0), Level("timid", _("timid"), 1200.0)),
    default_level="steady",
    computer=command,
    hint=hint,
    max_events=5000,
    dice=1,
    rated_presets=MappingProxyType({"target": (100,)}),
    refusals=("nothing_to_bank",),
    option_labels=MappingProxyType({"target": _("Target")}),
)
