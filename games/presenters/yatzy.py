from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.presenters.common import places_summary
from games.rules import yatzy as rules

BOX_LABELS = {
    "ones": _("Ones"),
    "twos": _("Twos"),
    "threes": _("Threes"),
    "fours": _("Fours"),
    "fives": _("Fives"),
    "sixes": _("Sixes"),
    "three_of_a_kind": _("Three of a kind"),
    "four_of_a_kind": _("Four of a kind"),
    "full_house": _("Full house"),
    "small_straight": _("Small straight"),
    "large_straight": _("Large straight"),
    "chance": _("Chance"),
    "yatzy": _("Yatzy"),
}
MUST_SACRIFICE = _("No open box scores: you must sacrifice one")


def present(wire_state: Mapping[str, Any]) -> dict[str, Any]:
    state = rules.state_from_wire(wire_state)
    legal = state.legal_boxes()
    must_sacrifice = state.must_sacrifice
    sheets = [_sheet(state, seat) for seat in range(state.seats)]
    return {
        "round": state.round,
        "rounds": rules.ROUNDS,
        "turn_seat": state.current_seat,
        "dice": list(state.dice),
        "held": list(state.held),
        "selected": state.selected,
        "rolls_used": state.rolls_used,
        "rolls_left": state.rolls_left,
        "can_roll": not state.finished and state.rolls_left > 0,
        "can_score": bool(legal),
        "legal_boxes": [
            {"box": box, "label": str(BOX_LABELS[box]), "points": points}
            for box, points in legal.items()
        ],
        "yatzy_bonus": state.yatzy_bonus_now,
        "must_sacrifice": must_sacrifice,
        "message": {"code": "must_sacrifice", "text": str(MUST_SACRIFICE)}
        if must_sacrifice
        else None,
        "auto_confirm_seconds": state.options.auto_confirm_seconds,
        "sheets": sheets,
        "result": places_summary(state.places, [sheet["total"] for sheet in sheets])
        if state.finished
        else None,
    }


def _sheet(state: rules.YatzyState, seat: int) -> dict[str, Any]:
    totals = state.totals(seat)
    return {
        "seat": seat,
        "boxes": [
            {"box": box, "label": str(BOX_LABELS[box]), "points": points}
            for box, points in zip(rules.BOXES, state.sheets[seat], strict=True)
        ],
        "upper_sum": totals.upper_sum,
        "upper_bonus": totals.upper_bonus,
        "lower_sum": totals.lower_sum,
        "yatzy_bonus": totals.yatzy_bonus,
        "total": totals.total,
    }
