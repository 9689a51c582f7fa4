"""Game kinds: what each is made of (``base``), each kind's own module, and the registry."""

from games.kinds.base import Analyst, Engine, Kind, Level, Presenter, WireEvent, WireState
from games.kinds.registry import KINDS, kind_for, kind_label, level_label

__all__ = [
    "KINDS",
    "Analyst",
    "Engine",
    "Kind",
    "Level",
    "Presenter",
    "WireEvent",
    "WireState",
    "kind_for",
    "kind_label",
    "level_label",
]
