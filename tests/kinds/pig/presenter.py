"""Pig's view for clients: what a client draws, an event's messages, the seat setup's name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.presenters import common
from games.presenters.common import ending_messages, ending_view, places_summary
from tests.kinds.pig import rules

MOVE_LABELS = {"roll": _("Roll"), "hold": _("Hold")}


class PigState(common.Ending):
    target: int
    turn_seat: int | None
    totals: list[int]
    #: The turn's last roll (empty before its first).
    die: list[int]
    turn_points: int
    moves: list[common.MoveChoice]
    result: common.Result | None


def event_messages(event_type: str) -> list[common.Message]:
    if event_type == "turn_lost":
        return [{"code": "turn_lost", "text": str(_("A one: the turn is lost"))}]
    return ending_messages(event_type)


def setup_label(occupants: Iterable[str]) -> str | None:
    return None


def present(wire_state: Mapping[str, Any]) -> PigState:
    return present_rules(rules.state_from_wire(wire_state))


def present_rules(state: rules.PigState) -> PigState:
    playing = not state.finished
    moves = [("roll", playing), ("hold", playing and state.turn_points > 0)]
    return {
        "target": state.options.target,
        "turn_seat": state.current_seat,
        "totals": list(state.totals),
        "die": list(state.die),
        "turn_points": state.turn_points,
        "moves": [
            common.MoveChoice(type=move, label=str(MOVE_LABELS[move])) for move, ok in moves if ok
        ],
        **ending_view(state),
        "result": places_summary(state.places, state.totals)
        if state.finished and not state.aborted
        else None,
    }
