"""The API's one error vocabulary and the one handler that renders every error the same way.

Every error body is ``{"code": ..., "detail": ..., "field": ...}``: ``code`` is stable and never
translated, ``detail`` is for people in the request's language, ``field`` names the input at fault
(``null`` when none). Validation errors add ``errors``, one entry per field; refused moves may add
``params``, machine-readable specifics such as the dice that do not count.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler

#: The words for codes raised without a class of their own (``InvalidInput(code=...)``). Apps add
#: theirs (games.errors adds the rules' codes), so each code has its words in one place.
CODE_MESSAGES = {
    "invalid_query": _("This query parameter is not valid."),
    "invalid_if_match": _("If-Match must be the game's ETag or a version number."),
    "conflicting_versions": _("If-Match and expected_version name different versions."),
    "preview_not_available": _("A preview of set-aside dice is only for Dés 10 000."),
    "game_not_active": _("The game is not in play."),
    "duplicate_me_seat": _("You can take only one seat with your own account."),
    "invalid_table_size": _("This number of seats per table is not possible for this game."),
    "invalid_entrant_bounds": _(
        "The minimum of entrants must be at least 2 and at most the maximum."
    ),
    "unknown_level": _("There is no computer player of that level for this game."),
    "invalid_seq": _("There is no event with that number in this game."),
    "unknown_kind": _("There is no such game."),
    "token_required": _("Revoking one token needs a request made with that token."),
}


class ApiError(exceptions.APIException):
    """A refused request; subclasses set ``status_code``, ``default_detail``, ``default_code``."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    default_detail = _("The request was refused.")
    default_code = "refused"

    def __init__(
        self,
        detail: Any = None,
        code: str | None = None,
        field: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        if detail is None and code in CODE_MESSAGES:
            detail = CODE_MESSAGES[code]
        super().__init__(detail=detail, code=code)
        self.field = field
        # Machine-readable specifics (e.g. which dice were refused), never translated.
        self.params = params or {}


class InvalidInput(ApiError):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = _("The request is not valid.")
    default_code = "invalid_input"


class Conflict(ApiError):
    """The request is well formed but the resource's current state does not allow it."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = _("This is not allowed in the current state.")
    default_code = "conflict"


class StaleVersion(Conflict):
    default_detail = _("The game has moved on since the version you sent; reload it and retry.")
    default_code = "stale_version"


class Forbidden(ApiError):
    status_code = status.HTTP_403_FORBIDDEN
    default_detail = _("You are not allowed to do this.")
    default_code = "permission_denied"


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    """Turn DRF's nested validation detail into a flat list of {field, code, detail}."""
    if isinstance(detail, dict):
        out: list[dict[str, Any]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out.extend(_flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail) for item in detail):
            return [
                {"field": prefix or None, "code": item.code, "detail": str(item)} for item in detail
            ]
        out = []
        for index, item in enumerate(detail):
            out.extend(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return out
    code = getattr(detail, "code", "invalid")
    return [{"field": prefix or None, "code": code, "detail": str(detail)}]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None  # an unexpected failure: Django logs it and answers 500

    assert isinstance(exc, exceptions.APIException)
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = errors[0] if errors else {"field": None, "code": "invalid", "detail": ""}
        body: dict[str, Any] = {
            "code": "invalid_input",
            "detail": first["detail"] or str(InvalidInput.default_detail),
            "field": first["field"],
            "errors": errors,
        }
    else:
        detail = exc.detail
        code = getattr(detail, "code", None) or exc.default_code
        body = {"code": code, "detail": str(detail), "field": getattr(exc, "field", None)}
        params = getattr(exc, "params", None)
        if params:
            body["params"] = params
        if isinstance(exc, exceptions.Throttled):
            # DRF's Throttled sets ``wait`` (seconds, or None) in __init__; its stubs omit it.
            wait: float | None = getattr(exc, "wait", None)
            if wait is not None:
                body["retry_after"] = int(wait + 0.999)
    response.data = body
    return response
