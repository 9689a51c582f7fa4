"""Every refusal the API can give, in one table: its stable code, HTTP status, words and field.

Modelled on DRF's exceptions, as one enum instead of one class per refusal: every layer raises
through it (``raise Refusal.BOX_USED.error(...)``). Two entries may share a code when the words
differ by where it is refused; the rules engines' codes each have exactly one entry
(``tests/api/test_refusals.py``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Literal

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework import status as http

from config.vocabulary.errors import ApiError, Entry, error_class

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from games.rules import RuleError


def _drf(drf_class: type[exceptions.APIException]) -> Entry:
    message = drf_class.default_detail
    assert isinstance(message, Promise)
    return Entry(drf_class.default_code, drf_class.status_code, message, drf_class=drf_class)


class _Table(enum.Enum):
    FIELD = "the field of the refusal's entry"


BAD = http.HTTP_400_BAD_REQUEST
UNAUTHORISED = http.HTTP_401_UNAUTHORIZED
FORBIDDEN = http.HTTP_403_FORBIDDEN
MISSING = http.HTTP_404_NOT_FOUND
CONFLICT = http.HTTP_409_CONFLICT
PRECONDITION = http.HTTP_412_PRECONDITION_FAILED
UNPROCESSABLE = http.HTTP_422_UNPROCESSABLE_ENTITY
SERVER = http.HTTP_500_INTERNAL_SERVER_ERROR


class Refusal(enum.Enum):
    # --- any request -------------------------------------------------------------------------
    INVALID_INPUT = Entry("invalid_input", BAD, _("The request is not valid."))
    INVALID_QUERY = Entry("invalid_query", BAD, _("This query parameter is not valid."))
    INTERNAL_ONLY = Entry(
        "internal_only", FORBIDDEN, _("This is for the operators: send the internal token.")
    )
    REQUEST_TOO_LARGE = Entry(
        "request_too_large",
        http.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        _("The request body is too large."),
    )
    # Sent by the proxy (config/deploy/nginx) in English.
    HEADERS_TOO_LARGE = Entry(
        "headers_too_large",
        http.HTTP_431_REQUEST_HEADER_FIELDS_TOO_LARGE,
        _("The request headers are too large."),
    )
    JSON_TOO_DEEP = Entry("json_too_deep", BAD, _("The JSON body is nested too deeply."))
    # Its problem's type is relative, naming no host.
    DISALLOWED_HOST = Entry(
        "disallowed_host", BAD, _("This server does not answer for that host name."), "Host"
    )
    SERVER_ERROR = Entry("server_error", SERVER, _("The server failed to answer this request."))
    # The database out of reach: not a failure of the request (config.web.outage).
    SERVICE_UNAVAILABLE = Entry(
        "service_unavailable",
        http.HTTP_503_SERVICE_UNAVAILABLE,
        _(
            "The service cannot reach its database or its cache for the moment: try again in "
            "a few seconds."
        ),
    )
    UNKNOWN_ERROR_CODE = Entry("not_found", MISSING, _("There is no error with this code."))
    INVALID_IDEMPOTENCY_KEY = Entry(
        "invalid_idempotency_key",
        BAD,
        _("An Idempotency-Key is 1 to 255 printable characters."),
        "Idempotency-Key",
    )
    IDEMPOTENCY_KEY_REUSED = Entry(
        "idempotency_key_reused",
        UNPROCESSABLE,
        _("This Idempotency-Key was already used for a different request."),
        "Idempotency-Key",
    )

    # --- accounts (players) ------------------------------------------------------------------
    WEAK_PASSWORD = Entry("weak_password", BAD, _("This password is too weak."), "password")
    USERNAME_TAKEN = Entry(
        "username_taken", CONFLICT, _("This username is already taken."), "username"
    )
    USERNAME_CONFUSABLE = Entry(
        "username_confusable",
        CONFLICT,
        _("This username looks too much like an existing one."),
        "username",
    )
    # Nobody passes for a deleted account (players.identity.PLACEHOLDER_PREFIX).
    USERNAME_RESERVED = Entry(
        "username_reserved",
        BAD,
        _("Usernames starting with “deleted-” are kept for deleted accounts."),
        "username",
    )
    USERNAME_HELD = Entry(
        "username_held",
        CONFLICT,
        _("This username belonged to an account deleted recently: it is held for a while."),
        "username",
    )
    # A name like one of RESERVED_NAMES, as a username or display name.
    NAME_RESERVED = Entry(
        "name_reserved", BAD, _("This name is kept for the server's staff."), "username"
    )
    DISPLAY_NAME_TAKEN = Entry(
        "display_name_taken",
        CONFLICT,
        _("This display name looks like another player's username."),
        "display_name",
    )
    UNKNOWN_LANGUAGE = Entry(
        "unknown_language", BAD, _("This language is not one the server speaks."), "language"
    )
    INVALID_CREDENTIALS = Entry(
        "invalid_credentials", UNAUTHORISED, _("Wrong username or password.")
    )
    # The account's export (games.accounts.export_files).
    EXPORT_NOT_FOUND = Entry(
        "not_found",
        MISSING,
        _("No export of this account: ask for one (POST accounts/me/export/)."),
    )
    EXPORT_NOT_READY = Entry(
        "export_not_ready",
        CONFLICT,
        _("The export is not ready: see its status at accounts/me/export/."),
    )
    # The sign-in guard (players.login_guard).
    LOGIN_THROTTLED = Entry(
        "login_throttled",
        http.HTTP_429_TOO_MANY_REQUESTS,
        _("Too many sign-in attempts from this address."),
        drf_class=exceptions.Throttled,
    )
    ACCOUNT_LOCKED = Entry(
        "account_locked",
        http.HTTP_429_TOO_MANY_REQUESTS,
        _("Too many failed sign-ins to this account: it is locked for a while."),
        "username",
        drf_class=exceptions.Throttled,
    )
    # The stream tier (games.streams): tickets and limits.
    TOKEN_IN_URL = Entry(
        "token_in_url",
        BAD,
        _("A token never goes in a URL: open the stream with a ticket (POST stream/tickets/)."),
        "token",
    )
    INVALID_TICKET = Entry(
        "invalid_ticket",
        UNAUTHORISED,
        _("This stream ticket is unknown, expired or already used."),
        "ticket",
    )
    TOO_MANY_STREAMS = Entry(
        "too_many_streams",
        http.HTTP_429_TOO_MANY_REQUESTS,
        _("Too many streams are open: close one before opening another."),
    )
    TOKEN_REQUIRED = Entry(
        "token_required", BAD, _("Revoking one token needs a request made with that token.")
    )
    UNKNOWN_KIND = Entry("unknown_kind", BAD, _("There is no such game."), "kind")
    # Deleting an account and changing its password ask for it again.
    WRONG_PASSWORD = Entry(
        "wrong_password", FORBIDDEN, _("This is not the account's password."), "password"
    )
    TOKEN_NOT_FOUND = Entry("not_found", MISSING, _("No such token."))

    # --- games -------------------------------------------------------------------------------
    ASSISTANCE_OFF = Entry(
        "assistance_off",
        FORBIDDEN,
        _("Hints and previews are off in this game (rated or tournament play)."),
    )
    TOO_MANY_COMPUTER_GAMES = Entry(
        "too_many_computer_games",
        CONFLICT,
        _("You have too many games with the computer open or in play: finish one first."),
    )
    TOO_MANY_OPEN_GAMES = Entry(
        "too_many_open_games",
        CONFLICT,
        _("You have too many games waiting for players: start or cancel one first."),
    )
    ASSISTANCE_NOT_ALLOWED = Entry(
        "assistance_not_allowed", BAD, _("A rated game has no hints or previews."), "assistance"
    )
    GAME_NOT_FOUND = Entry("not_found", MISSING, _("No such game."))
    INVALID_IF_MATCH = Entry(
        "invalid_if_match",
        BAD,
        _("If-Match must be the game's ETag or a version number."),
        "If-Match",
    )
    PRECONDITION_FAILED = Entry(
        "precondition_failed",
        PRECONDITION,
        _("The game has moved on since the ETag you sent in If-Match; reload it and retry."),
        "If-Match",
    )
    CONFLICTING_VERSIONS = Entry(
        "conflicting_versions",
        BAD,
        _("If-Match and expected_version name different versions."),
        "expected_version",
    )
    STALE_VERSION = Entry(
        "stale_version",
        CONFLICT,
        _("The game has moved on since the version you sent; reload it and retry."),
        "expected_version",
    )
    DUPLICATE_ME_SEAT = Entry(
        "duplicate_me_seat", BAD, _("You can take only one seat with your own account."), "seats"
    )
    UNKNOWN_LEVEL = Entry(
        "unknown_level", BAD, _("There is no computer player of that level for this game.")
    )
    INVALID_SEQ = Entry(
        "invalid_seq", BAD, _("There is no event with that number in this game."), "at"
    )
    PREVIEW_NOT_AVAILABLE = Entry(
        "preview_not_available", BAD, _("This kind of game has no preview of a move.")
    )
    GAME_NOT_ACTIVE = Entry("game_not_active", CONFLICT, _("The game is not in play."))
    GAME_NOT_STARTED = Entry("game_not_started", CONFLICT, _("The game has not started yet."))
    GAME_NOT_OPEN = Entry(
        "game_not_open", CONFLICT, _("The game has already started: its seats are closed.")
    )
    NOT_A_SEAT_HOLDER = Entry(
        "not_a_seat_holder", FORBIDDEN, _("You do not play any seat of this game.")
    )
    NOT_CREATOR = Entry(
        "not_creator", FORBIDDEN, _("Only the player who created the game can do this.")
    )
    NO_OPEN_SEAT = Entry("no_open_seat", CONFLICT, _("There is no open seat left in this game."))
    ALREADY_SEATED = Entry("already_seated", CONFLICT, _("You already have a seat in this game."))
    INVALID_CLIENT_SEED = Entry(
        "invalid_client_seed",
        BAD,
        _("A client seed is 1 to 64 printable ASCII characters."),
        "client_seed",
    )
    CLIENT_SEED_NOT_ALLOWED = Entry(
        "client_seed_not_allowed",
        BAD,
        _("Only your own seat or a hot-seat player's seat can have a client seed."),
        "client_seed",
    )
    CLIENT_SEED_FIXED = Entry(
        "client_seed_fixed",
        CONFLICT,
        _("This seat's client seed is fixed: the seat has already rolled by it."),
        "client_seed",
    )
    ANALYSIS_AFTER_THE_GAME = Entry(
        "analysis_after_the_game",
        FORBIDDEN,
        _("This game is analysed once it is over: it has no computer help."),
    )
    ANALYSIS_NOT_AVAILABLE = Entry(
        "analysis_not_available", BAD, _("There is no analysis for this game.")
    )
    SEATS_NOT_FILLED = Entry(
        "seats_not_filled",
        CONFLICT,
        _("Every player seat must be taken before the game can start."),
    )
    # Ending a game (games.ending): the rules' own codes are below.
    CLAIM_TOO_EARLY = Entry(
        "claim_too_early",
        CONFLICT,
        _("The seat to play has not been idle long enough to be claimed."),
    )
    NOT_CLAIMABLE = Entry(
        "not_claimable",
        CONFLICT,
        _(
            "Only another player's idle seat can be claimed, never your own or the computer's, "
            "and never in a game with a turn clock: the clock decides there."
        ),
    )
    TOURNAMENT_GAME = Entry(
        "tournament_game", CONFLICT, _("A tournament game cannot be aborted: resign instead.")
    )
    CREATOR_CANNOT_LEAVE = Entry(
        "creator_cannot_leave",
        CONFLICT,
        _("You created this game: cancel it instead of leaving it."),
    )
    ENDING_MOVE = Entry(
        "ending_move",
        BAD,
        _("Resign, claim and abort have their own endpoints; time outs are the server's."),
        "type",
    )
    INVALID_TURN_CLOCK = Entry(
        "invalid_turn_clock",
        BAD,
        _("This turn clock is not one of those offered."),
        "turn_clock_seconds",
    )
    # Matchmaking and rematches (games.matchmaking).
    SEEK_NOT_FOUND = Entry("not_found", MISSING, _("No such seek."))
    SEEK_NOT_OPEN = Entry("seek_not_open", CONFLICT, _("This seek is no longer open."))
    TOO_MANY_OPEN_SEEKS = Entry(
        "too_many_open_seeks", CONFLICT, _("You have too many open seeks: withdraw one first.")
    )
    RATED_SEEK_NEEDS_CLOCK = Entry(
        "rated_seek_needs_clock", BAD, _("A rated game needs a turn clock."), "turn_clock_seconds"
    )
    RATED_OPTION_NOT_ALLOWED = Entry(
        "rated_option_not_allowed",
        BAD,
        _("Rated games are played with the preset options only."),
        "options",
    )
    RATED_NEEDS_FINISHED_GAMES = Entry(
        "rated_needs_finished_games",
        FORBIDDEN,
        _("Finish a few games (casual or against the computer) before you seek a rated one."),
    )
    TOO_MANY_ABORTS = Entry(
        "too_many_aborts",
        CONFLICT,
        _("You have aborted too many games in the last day to seek a rated one."),
    )
    INVALID_RATING_RANGE = Entry(
        "invalid_rating_range",
        BAD,
        _("The lowest rating must not be above the highest."),
        "rating_min",
    )
    GAME_NOT_FINISHED = Entry(
        "game_not_finished", CONFLICT, _("A rematch is offered once the game is over.")
    )
    REMATCH_ALREADY_OFFERED = Entry(
        "rematch_already_offered", CONFLICT, _("You have already offered a rematch of this game.")
    )
    TOURNAMENT_REMATCH = Entry(
        "tournament_rematch",
        CONFLICT,
        _("A tournament game has no rematch: the tournament pairs its own games."),
    )
    REMATCH_UNAVAILABLE = Entry(
        "rematch_unavailable",
        CONFLICT,
        _("A player of this game can no longer play: there is no rematch."),
    )

    # Moderation (the admin's actions)
    NOT_RATED = Entry("not_rated", CONFLICT, _("This game has no rating changes to void."))

    # --- the rules engines' codes (games.rules.RuleError): malformed 400, not allowed 409 -----
    UNKNOWN_MOVE = Entry("unknown_move", BAD, _("Unknown move type."), "type")
    INVALID_DICE_INDICES = Entry(
        "invalid_dice_indices",
        BAD,
        _("Dice must be given as distinct positions of the current roll."),
    )
    # Refused before any of the list's items is read.
    TOO_MANY_DICE = Entry("too_many_dice", BAD, _("This names more dice than the game has."))
    UNKNOWN_BOX = Entry("unknown_box", BAD, _("There is no such box on the score sheet."), "box")
    INVALID_OPTION = Entry("invalid_option", BAD, _("This game option is not valid."))
    INVALID_SEAT_COUNT = Entry(
        "invalid_seat_count", BAD, _("This game cannot be played with that many seats."), "seats"
    )
    GAME_FINISHED = Entry("game_finished", CONFLICT, _("The game is over."))
    NOT_YOUR_TURN = Entry("not_your_turn", CONFLICT, _("It is not your turn."))
    NO_ROLLS_LEFT = Entry(
        "no_rolls_left", CONFLICT, _("You have used all three rolls: choose a box.")
    )
    HOLD_BEFORE_FIRST_ROLL = Entry(
        "hold_before_first_roll",
        CONFLICT,
        _("The first roll of a turn throws all the dice: nothing to hold yet."),
        "hold",
    )
    ROLL_FIRST = Entry("roll_first", CONFLICT, _("Roll the dice before choosing a box."))
    BOX_USED = Entry("box_used", CONFLICT, _("This box is already filled."), "box")
    BOX_NOT_ALLOWED = Entry(
        "box_not_allowed",
        CONFLICT,
        _("The joker rule does not allow this box for this roll."),
        "box",
    )
    KEEP_REQUIRED = Entry(
        "keep_required", CONFLICT, _("Set aside at least one scoring die first."), "keep"
    )
    KEEP_NOT_SCORING = Entry(
        "keep_not_scoring", CONFLICT, _("Every die you set aside must score."), "keep"
    )
    NOTHING_TO_KEEP = Entry(
        "nothing_to_keep", CONFLICT, _("Roll the dice before setting any aside."), "keep"
    )
    NOTHING_TO_BANK = Entry("nothing_to_bank", CONFLICT, _("There are no points to bank yet."))
    TOO_MANY_SELECTS = Entry(
        "too_many_selects",
        CONFLICT,
        _("You have marked boxes too often this turn: score one."),
        "box",
    )
    SEAT_OUT = Entry("seat_out", CONFLICT, _("This seat has left the game."))
    ABORT_TOO_LATE = Entry(
        "abort_too_late",
        CONFLICT,
        _("Dice have been thrown: the game can no longer be aborted, only resigned."),
    )
    INVALID_WINNER = Entry(
        "invalid_winner", BAD, _("Only a seat still playing can be named the winner."), "winner"
    )
    CLAIM_NOT_ALLOWED = Entry(
        "claim_not_allowed", CONFLICT, _("It is your turn: there is nothing to claim.")
    )

    # --- tournaments -------------------------------------------------------------------------
    TOURNAMENT_NOT_FOUND = Entry("not_found", MISSING, _("No such tournament."))
    ROUNDS_REQUIRED = Entry(
        "rounds_required", BAD, _("A Swiss tournament needs a number of rounds."), "rounds"
    )
    INVALID_TABLE_SIZE = Entry(
        "invalid_table_size",
        BAD,
        _("This number of seats per table is not possible for this game."),
        "table_size",
    )
    MULTI_SEAT_SWISS_ONLY = Entry(
        "invalid_table_size",
        BAD,
        _("Tables of more than two seats are for Swiss tournaments."),
        "table_size",
    )
    INVALID_ENTRANT_BOUNDS = Entry(
        "invalid_entrant_bounds",
        BAD,
        _("The minimum of entrants must be at least 2 and at most the maximum."),
        "min_entrants",
    )
    INVALID_RECURRENCE = Entry(
        "invalid_recurrence",
        BAD,
        _("The recurrence must be a cron line of five fields, e.g. 0 18 * * *."),
        "recurrence",
    )
    REGISTRATION_CLOSED = Entry(
        "registration_closed", CONFLICT, _("Registration for this tournament is closed.")
    )
    REGISTRATION_NOT_OPEN = Entry(
        "registration_not_open", CONFLICT, _("Registration for this tournament has not opened yet.")
    )
    ALREADY_REGISTERED = Entry(
        "already_registered", CONFLICT, _("You are already registered for this tournament.")
    )
    NOT_REGISTERED = Entry(
        "not_registered", CONFLICT, _("You are not registered for this tournament.")
    )
    TOURNAMENT_FULL = Entry("tournament_full", CONFLICT, _("This tournament is full."))
    CANNOT_CANCEL = Entry(
        "cannot_cancel", CONFLICT, _("Only a tournament that has not started can be cancelled.")
    )
    TOURNAMENT_NOT_RUNNING = Entry(
        "tournament_not_running", CONFLICT, _("This tournament is not running.")
    )
    TOURNAMENT_PAUSED = Entry(
        "tournament_paused", CONFLICT, _("This tournament is paused already.")
    )
    TOURNAMENT_NOT_PAUSED = Entry(
        "tournament_not_paused", CONFLICT, _("This tournament is not paused.")
    )

    # --- Django REST framework's own (which the stream tier raises too) ---------------------
    # knox's words for a token it does not know (players.auth)
    INVALID_TOKEN = Entry(
        "authentication_failed",
        UNAUTHORISED,
        _("Invalid token."),
        drf_class=exceptions.AuthenticationFailed,
    )
    PARSE_ERROR = _drf(exceptions.ParseError)
    AUTHENTICATION_FAILED = _drf(exceptions.AuthenticationFailed)
    NOT_AUTHENTICATED = _drf(exceptions.NotAuthenticated)
    PERMISSION_DENIED = _drf(exceptions.PermissionDenied)
    NOT_FOUND = _drf(exceptions.NotFound)
    METHOD_NOT_ALLOWED = _drf(exceptions.MethodNotAllowed)
    NOT_ACCEPTABLE = _drf(exceptions.NotAcceptable)
    UNSUPPORTED_MEDIA_TYPE = _drf(exceptions.UnsupportedMediaType)
    THROTTLED = _drf(exceptions.Throttled)

    @property
    def code(self) -> str:
        return self.value.code

    @property
    def status(self) -> int:
        return self.value.status

    @property
    def message(self) -> StrPromise:
        return self.value.message

    @property
    def field(self) -> str | None:
        return self.value.field

    def error(
        self,
        *,
        field: str | Literal[_Table.FIELD] | None = _Table.FIELD,
        params: dict[str, Any] | None = None,
        detail: str | None = None,
    ) -> ApiError:
        """The exception: ``field`` defaults to the entry's; a ``detail`` is translated already."""
        at_fault = self.field if field is _Table.FIELD else field
        return error_class(self.value)(self.value, field=at_fault, params=params, detail=detail)

    @classmethod
    def of_code(cls, code: str) -> Refusal:
        """The one entry of ``code``; ``KeyError`` for a code with none or with several."""
        return _BY_UNIQUE_CODE[code]


def _unique_codes() -> dict[str, Refusal]:
    by_code: dict[str, list[Refusal]] = {}
    for refusal in Refusal:
        by_code.setdefault(refusal.code, []).append(refusal)
    return {code: entries[0] for code, entries in by_code.items() if len(entries) == 1}


_BY_UNIQUE_CODE = _unique_codes()


def refused_by_rules(error: RuleError) -> ApiError:
    """A rules engine's ``RuleError`` as the API says it: the field and params the rules give."""
    return Refusal.of_code(error.code).error(field=error.field, params=error.params)
