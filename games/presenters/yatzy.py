from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, TypedDict

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.presenters import common
from games.presenters.common import Translated, ending_messages, ending_view, places_summary
from games.rules import yatzy as rules
from games.rules.base import Doc

# Box names carry a context: "Yatzy" the box is not "Yatzy" the game (uk "Пента", el "Πέντα").
BOX_LABELS = {
    "ones": pgettext_lazy("yatzy box", "Ones"),
    "twos": pgettext_lazy("yatzy box", "Twos"),
    "threes": pgettext_lazy("yatzy box", "Threes"),
    "fours": pgettext_lazy("yatzy box", "Fours"),
    "fives": pgettext_lazy("yatzy box", "Fives"),
    "sixes": pgettext_lazy("yatzy box", "Sixes"),
    "three_of_a_kind": pgettext_lazy("yatzy box", "Three of a kind"),
    "four_of_a_kind": pgettext_lazy("yatzy box", "Four of a kind"),
    "full_house": pgettext_lazy("yatzy box", "Full house"),
    "small_straight": pgettext_lazy("yatzy box", "Small straight"),
    "large_straight": pgettext_lazy("yatzy box", "Large straight"),
    "chance": pgettext_lazy("yatzy box", "Chance"),
    "yatzy": pgettext_lazy("yatzy box", "Yatzy"),
}
BOX_DESCRIPTIONS = {
    "ones": _("The sum of the ones"),
    "twos": _("The sum of the twos"),
    "threes": _("The sum of the threes"),
    "fours": _("The sum of the fours"),
    "fives": _("The sum of the fives"),
    "sixes": _("The sum of the sixes"),
    "three_of_a_kind": _("At least three dice alike: the sum of all five dice"),
    "four_of_a_kind": _("At least four dice alike: the sum of all five dice"),
    "full_house": _("Three dice of one face and two of another: 25 points"),
    "small_straight": _("Four faces in a row: 30 points"),
    "large_straight": _("Five faces in a row: 40 points"),
    "chance": _("Any dice: the sum of all five dice"),
    "yatzy": _("Five dice alike: 50 points"),
}
_LABELS = Translated(BOX_LABELS)
_DESCRIPTIONS = Translated(BOX_DESCRIPTIONS)
_MOVES = Translated(
    {
        "roll": _("Roll"),
        "select": _("Select a box"),
        "score": _("Confirm move"),
        "must_sacrifice": _("No open box scores: you must sacrifice one"),
    }
)


# The client's view, whose types are the API's schema (games.api.schema_forms).
class YatzyBox(TypedDict):
    box: Annotated[str, rules.BOX_NAMES]
    label: str
    description: str
    points: Annotated[int | None, Doc("null while empty; in legal_boxes: what it scores now")]


class YatzySheet(TypedDict):
    seat: int
    boxes: list[YatzyBox]
    upper_sum: int
    upper_bonus: int
    lower_sum: int
    yatzy_bonus: int
    total: int


class YatzyState(common.Ending):
    round: int
    rounds: int
    turn_seat: Annotated[int | None, Doc("null once finished")]
    dice: Annotated[list[int], Doc("The five dice, 1 to 6 (empty before the turn's first roll)")]
    held: Annotated[list[int], Doc("Positions kept from the previous roll")]
    selected: Annotated[str | None, rules.BOX_NAMES, Doc("Marked box")]
    rolls_used: int
    rolls_left: int
    can_roll: bool
    can_score: bool
    legal_boxes: Annotated[list[YatzyBox], Doc("The boxes you may fill now, with points")]
    moves: list[common.MoveChoice]
    yatzy_bonus: Annotated[int, Doc("100 if scoring now earns a Yatzy bonus")]
    must_sacrifice: Annotated[bool, Doc("Every legal box scores 0")]
    message: common.Message | None
    auto_confirm_seconds: Annotated[float, Doc("0: off")]
    selects_left: Annotated[int, Doc("Marks this turn may still make")]
    sheets: list[YatzySheet]
    result: common.Result | None


def event_messages(event_type: str) -> list[common.Message]:
    """Yatzy's state tells a client all it shows: only the events that end a game early (or time
    a turn out) carry a message."""
    return ending_messages(event_type)


def setup_label(occupants: Iterable[str]) -> str | None:
    """Yatzy's new-game form names no seat setup."""
    return None


def present(wire_state: Mapping[str, Any]) -> YatzyState:
    return present_rules(rules.state_from_wire(wire_state))


def present_rules(state: rules.YatzyState) -> YatzyState:
    labels, descriptions, words = _LABELS.now(), _DESCRIPTIONS.now(), _MOVES.now()
    legal = state.legal_boxes()
    must_sacrifice = state.must_sacrifice
    sheets = [_sheet(state, seat, labels, descriptions) for seat in range(state.seats)]
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
        "legal_boxes": [_box(box, points, labels, descriptions) for box, points in legal.items()],
        "moves": _moves(state, legal, words),
        "yatzy_bonus": state.yatzy_bonus_now,
        "must_sacrifice": must_sacrifice,
        "message": {"code": "must_sacrifice", "text": words["must_sacrifice"]}
        if must_sacrifice
        else None,
        "auto_confirm_seconds": state.options.auto_confirm_seconds,
        "selects_left": rules.MAX_SELECTS_PER_TURN - state.selects,
        "sheets": sheets,
        **ending_view(state),
        "result": places_summary(state.places, [sheet["total"] for sheet in sheets])
        if state.finished and not state.aborted
        else None,
    }


def _sheet(
    state: rules.YatzyState, seat: int, labels: Mapping[str, str], descriptions: Mapping[str, str]
) -> YatzySheet:
    totals = state.totals(seat)
    return {
        "seat": seat,
        "boxes": [
            _box(box, points, labels, descriptions)
            for box, points in zip(rules.BOXES, state.sheets[seat], strict=True)
        ],
        "upper_sum": totals.upper_sum,
        "upper_bonus": totals.upper_bonus,
        "lower_sum": totals.lower_sum,
        "yatzy_bonus": totals.yatzy_bonus,
        "total": totals.total,
    }


def _box(
    box: str, points: int | None, labels: Mapping[str, str], descriptions: Mapping[str, str]
) -> YatzyBox:
    return {"box": box, "label": labels[box], "description": descriptions[box], "points": points}


def _moves(
    state: rules.YatzyState, legal: Mapping[str, int], words: Mapping[str, str]
) -> list[common.MoveChoice]:
    available = []
    if not state.finished and state.rolls_left > 0:
        available.append("roll")
    if legal:
        available += ["select", "score"]
    return [{"type": move, "label": words[move]} for move in available]
