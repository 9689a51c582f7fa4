"""Client views of a game's state: everything a client needs to draw the table, localised.

Each presenter reads a rules state and adds what people read (labels, messages) through gettext.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.models import GameKind
from games.presenters import ten_thousand, yatzy

_PRESENTERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    GameKind.YATZY: yatzy.present,
    GameKind.TEN_THOUSAND: ten_thousand.present,
}
_RULES_PRESENTERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    GameKind.YATZY: yatzy.present_rules,
    GameKind.TEN_THOUSAND: ten_thousand.present_rules,
}


def present_state(kind: str, wire_state: Mapping[str, Any]) -> dict[str, Any]:
    return _PRESENTERS[kind](wire_state)


def present_rules_state(kind: str, state: Any) -> dict[str, Any]:
    """``present_state`` of a rules state object already in hand (``engine.state_from_wire``)."""
    return _RULES_PRESENTERS[kind](state)


def event_messages(kind: str, event_type: str) -> list[dict[str, str]]:
    """The messages a client shows for an event ("Lost round!", "Hot dice!", "Last round!")."""
    if kind == GameKind.TEN_THOUSAND:
        return ten_thousand.event_messages(event_type)
    return []


def setup_label(kind: str, seat_kinds: list[str]) -> str | None:
    """The name of the seat setup on the app's new-game form ("Humans + 1 AI")."""
    if kind == GameKind.TEN_THOUSAND:
        return ten_thousand.setup_label(seat_kinds)
    return None
