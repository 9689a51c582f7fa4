"""Dés 10 000 as a game kind of this server: its computer at the table and its ``Kind``."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, cast

from django.utils.translation import gettext_lazy as _

from ai.positions import faces_to_indices
from games.kinds.base import Analyst, Engine, Kind, Level, Presenter, Seats, levels
from games.presenters import ten_thousand as view
from games.rules import ten_thousand
from games.rules.ten_thousand import TenThousandState


def command(state: TenThousandState, level: str = "expert") -> dict[str, Any]:
    from ai import ten_thousand as policy

    if not state.roll:
        return {"type": "roll"}
    faces, bank = policy.best_move(
        state.roll,
        state.turn_points,
        state.totals,
        state.turn_seat,
        state.target,
        state.last_round,
        level,
    )
    keep = list(faces_to_indices(state.roll, faces))
    return {"type": "bank" if bank else "roll", "keep": keep}


def tables() -> str:
    """The exact two-seat tables of each target: read (shipped), or built where they do not
    match the rules."""
    from ai.ten_thousand import exact_tables

    held = []
    for target in exact_tables.TARGETS:
        win = exact_tables.load(target)
        assert win is not None
        held.append(f"{target} (first mover {win[0, 0]:.6f})")
    return "exact two-seat tables for " + ", ".join(held)


def hint(state: TenThousandState) -> dict[str, Any]:
    """The expert's move for the seat to play (its policy gives no value to show)."""
    return {"move": command(state, "expert"), "expected_value": None, "options": []}


KIND = Kind(
    code="ten_thousand",
    label=_("Dés 10 000"),
    engine=cast(Engine, ten_thousand),
    presenter=cast(Presenter, view),
    # "Humans + 1 AI": up to six people and at most one computer opponent.
    seats=Seats(least=1, most=7, most_computers=1, most_people=6),
    levels=levels(
        Level("expert", _("expert"), rating=1800.0),
        Level("classic", _("classic"), rating=1450.0),
    ),
    default_level="expert",
    computer=command,
    tables=tables,
    hint=hint,
    # A game ends at its round limit first (300 rounds: games.rules.ten_thousand.MAX_ROUNDS);
    # this bounds the games begun before it, and a turn that would never end.
    max_events=20000,
    dice=ten_thousand.DICE,
    preview=view.preview,
    rated_presets=MappingProxyType({"target": ten_thousand.TARGETS}),
    refusals=(
        "invalid_dice_indices",
        "too_many_dice",
        "keep_required",
        "keep_not_scoring",
        "nothing_to_keep",
        "nothing_to_bank",
    ),
    option_labels=MappingProxyType({"target": _("Target")}),
    analyst=Analyst(
        module="ai.analysis.ten_thousand",
        values=_(
            "Expected points per turn from the exact single-turn table of the play that banks "
            "the most points on average (551.55 from a fresh turn): a seat's value is its "
            "banked total plus the expected points of the turn in play. The expert plays to "
            "win, not for points, so it may lose points on purpose. With two seats, each "
            "turn has the seat's chance to win before and after it, and each decision the "
            "chance to win it gave away, from the exact solution of the game with both seats "
            "playing to win (a tie counts half)."
        ),
        by_turn=True,
    ),
)
