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


def present_state(kind: str, wire_state: Mapping[str, Any]) -> dict[str, Any]:
    return _PRESENTERS[kind](wire_state)
