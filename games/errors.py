"""Refusals of the games API: the rules engines' codes, given a status and a translated message.

The rules library raises ``RuleError(code)`` and knows no language; this module is where each code
becomes words, so every message goes through gettext in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from config.errors import CODE_MESSAGES, ApiError, Conflict, Forbidden, InvalidInput, StaleVersion
from games.rules import RuleError

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# Malformed commands are 400; a well-formed move that the position does not allow is 409.
_MALFORMED = {"unknown_move", "invalid_dice_indices", "unknown_box", "invalid_option"}

RULE_MESSAGES: dict[str, StrPromise] = {
    "unknown_move": _("Unknown move type."),
    "invalid_dice_indices": _("Dice must be given as distinct positions of the current roll."),
    "unknown_box": _("There is no such box on the score sheet."),
    "invalid_option": _("This game option is not valid."),
    "invalid_seat_count": _("This game cannot be played with that many seats."),
    "game_finished": _("The game is over."),
    "not_your_turn": _("It is not your turn."),
    "no_rolls_left": _("You have used all three rolls: choose a box."),
    "hold_before_first_roll": _(
        "The first roll of a turn throws all the dice: nothing to hold yet."
    ),
    "roll_first": _("Roll the dice before choosing a box."),
    "box_used": _("This box is already filled."),
    "box_not_allowed": _("The joker rule does not allow this box for this roll."),
    "keep_required": _("Set aside at least one scoring die first."),
    "keep_not_scoring": _("Every die you set aside must score."),
    "nothing_to_keep": _("Roll the dice before setting any aside."),
    "nothing_to_bank": _("There are no points to bank yet."),
}


# A rules code raised by the API itself (a preview's bad dice, a seat count) reads the same.
CODE_MESSAGES.update(RULE_MESSAGES)


def rule_error_to_api(error: RuleError) -> ApiError:
    detail = RULE_MESSAGES.get(error.code, _("This move is not allowed."))
    exc_class: type[ApiError] = InvalidInput if error.code in _MALFORMED else Conflict
    return exc_class(detail=detail, code=error.code, field=error.field, params=error.params)


class GameNotFound(ApiError):
    status_code = 404
    default_detail = _("No such game.")
    default_code = "not_found"


class GameNotStarted(Conflict):
    default_detail = _("The game has not started yet.")
    default_code = "game_not_started"


class GameNotOpen(Conflict):
    default_detail = _("The game has already started: its seats are closed.")
    default_code = "game_not_open"


class GameOver(Conflict):
    default_detail = _("The game is over.")
    default_code = "game_finished"


class NotASeatHolder(Forbidden):
    default_detail = _("You do not play any seat of this game.")
    default_code = "not_a_seat_holder"


class NotYourTurn(Conflict):
    default_detail = RULE_MESSAGES["not_your_turn"]
    default_code = "not_your_turn"


class NotCreator(Forbidden):
    default_detail = _("Only the player who created the game can do this.")
    default_code = "not_creator"


class NoOpenSeat(Conflict):
    default_detail = _("There is no open seat left in this game.")
    default_code = "no_open_seat"


class AlreadySeated(Conflict):
    default_detail = _("You already have a seat in this game.")
    default_code = "already_seated"


class SeatsNotFilled(Conflict):
    default_detail = _("Every player seat must be taken before the game can start.")
    default_code = "seats_not_filled"


__all__ = ["ApiError", "Conflict", "Forbidden", "InvalidInput", "StaleVersion"]
