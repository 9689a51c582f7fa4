from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, TypedDict

from django.utils.translation import gettext_lazy as _

from games.presenters import common
from games.presenters.common import Translated, ending_messages, ending_view, places_summary
from games.rules import ten_thousand as rules
from games.rules.base import Doc
from games.rules.ten_thousand_scoring import farkle_probability, max_keep_points, scoring_indices

_WORDS = Translated(
    {
        "hot_dice": _("Hot dice!"),
        "last_round": _("Last round!"),
        "round_lost": _("Lost round!"),
        "round_limit": _(
            "The last round allowed: the game ends after it, the highest total first."
        ),
        # The new-game form's name for a table with a computer opponent.
        "humans_plus_ai": _("Humans + 1 AI"),
        "roll": _("Roll"),
        "bank": _("Bank"),
    }
)
# The code of the message a client announces for these events (the state alone cannot tell that
# the last turn was lost: a lost round leaves the same state as a bank of nothing).
EVENT_MESSAGES = {
    "round_lost": "round_lost",
    "hot_dice": "hot_dice",
    "last_round_started": "last_round",
}


# The client's view, whose types are the API's schema (games.api.schema_forms).
class Kept(TypedDict):
    dice: list[int]
    points: int


class TenThousandState(common.Ending):
    target: int
    round: Annotated[int | None, Doc("The round in play (null: a game begun before round limits)")]
    max_rounds: Annotated[int | None, Doc("The game ends after this round, highest total first")]
    turn_seat: Annotated[int | None, Doc("null once finished")]
    totals: Annotated[list[int], Doc("Each seat's banked total")]
    roll: Annotated[list[int], Doc("The current roll; empty when none is pending")]
    scoring_indices: Annotated[list[int], Doc("Positions of the roll's dice that score")]
    best_keep_points: int
    kept: Annotated[list[Kept], Doc("Dice set aside this turn, group by group")]
    turn_points: int
    dice_in_play: int
    must_set_aside: bool
    can_roll: bool
    can_bank: bool
    farkle_risk: Annotated[float | None, Doc("The next throw's, if known")]
    farkle_risk_by_dice: Annotated[dict[int, float], Doc("The risk of a throw of n dice, by n")]
    hot_dice: bool
    last_round: bool
    last_round_trigger: int | None
    messages: list[common.Message]
    moves: list[common.MoveChoice]
    result: common.Result | None


def event_messages(event_type: str) -> list[common.Message]:
    if event_type not in EVENT_MESSAGES:
        return ending_messages(event_type)
    code = EVENT_MESSAGES[event_type]
    return [{"code": code, "text": _WORDS[code]}]


def setup_label(occupants: Iterable[str]) -> str | None:
    """The seat setup's name on the new-game form: "Humans + 1 AI" when the computer plays."""
    return _WORDS["humans_plus_ai"] if "computer" in set(occupants) else None


def present(wire_state: Mapping[str, Any]) -> TenThousandState:
    return present_rules(rules.state_from_wire(wire_state))


def present_rules(state: rules.TenThousandState) -> TenThousandState:
    words = _WORDS.now()
    messages: list[common.Message] = []
    if state.hot_dice and not state.finished:
        messages.append({"code": "hot_dice", "text": words["hot_dice"]})
    if state.last_round and not state.finished:
        messages.append({"code": "last_round", "text": words["last_round"]})
    round_now = _round(state)
    if round_now is not None and round_now == state.max_rounds and not state.finished:
        messages.append({"code": "round_limit", "text": words["round_limit"]})
    roll = list(state.roll)
    return {
        "target": state.target,
        "round": round_now,
        "max_rounds": state.max_rounds,
        "turn_seat": state.current_seat,
        "totals": list(state.totals),
        "roll": roll,
        "scoring_indices": sorted(scoring_indices(state.roll)) if roll else [],
        "best_keep_points": max_keep_points(state.roll) if roll else 0,
        "kept": [
            {"dice": list(group), "points": points}
            for group, points in zip(state.kept, state.kept_points, strict=True)
        ],
        "turn_points": state.turn_points,
        "dice_in_play": state.dice_in_play,
        "must_set_aside": bool(roll),
        "can_roll": not state.finished,
        "can_bank": state.can_bank,
        # With no roll pending: the risk of the next throw. With one pending it depends on what the
        # player sets aside, so every count is given.
        "farkle_risk": state.farkle_risk if not roll else None,
        "farkle_risk_by_dice": {n: farkle_probability(n) for n in range(1, rules.DICE + 1)},
        "hot_dice": state.hot_dice,
        "last_round": state.last_round,
        "last_round_trigger": state.last_round_trigger,
        "messages": messages,
        "moves": [
            {"type": move, "label": words[move]}
            for move, available in (("roll", not state.finished), ("bank", state.can_bank))
            if available
        ],
        **ending_view(state),
        "result": places_summary(state.places, state.totals)
        if state.finished and not state.aborted
        else None,
    }


def _round(state: rules.TenThousandState) -> int | None:
    """The round being played (the last one once the game is over); None in a game begun before
    the limit of rounds, which counts none."""
    if state.max_rounds is None or state.rounds_played is None:
        return None
    return min(state.rounds_played + 1, state.max_rounds)


class KeepPreview(TypedDict):
    keep: list[int]
    valid: Annotated[bool, Doc("Whether these dice may be set aside together")]
    points: int
    turn_points: Annotated[int, Doc("The turn's points with this selection")]
    hot_dice: bool
    next_roll_dice: int
    farkle_risk: float | None


def preview(wire_state: Mapping[str, Any], keep: list[int]) -> KeepPreview:
    """What setting aside ``keep`` (positions in the current roll) would give, before committing."""
    state = rules.state_from_wire(wire_state)
    points = rules.preview_keep(state, keep)
    valid = points is not None
    left = state.dice_in_play - len(keep) if valid else state.dice_in_play
    hot = valid and left == 0
    return {
        "keep": keep,
        "valid": valid,
        "points": points or 0,
        "turn_points": state.turn_points + (points or 0),
        "hot_dice": hot,
        "next_roll_dice": rules.DICE if hot else left,
        "farkle_risk": state.risk_after_keep(len(keep)) if valid else None,
    }
