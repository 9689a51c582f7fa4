"""The API's exceptions, one class per kind of refusal so that callers can catch a kind (``except
Conflict``); the code, status and words always come from the entry (config.vocabulary.refusals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rest_framework import exceptions, status

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise  # a lazy translation (the stubs' name for it)


@dataclass(frozen=True, eq=False)  # eq=False: comparing lazy words would translate them at import
class Entry:
    code: str
    status: int
    message: StrPromise
    #: The input at fault when the raiser names none.
    field: str | None = None
    #: DRF's class of this refusal, which the exception raised also is (a 401's WWW-Authenticate).
    drf_class: type[exceptions.APIException] | None = None

    @property
    def drf_words(self) -> bool:
        """DRF's own words, translated by its catalogues rather than ours."""
        return self.drf_class is not None and self.message is self.drf_class.default_detail


class ApiError(exceptions.APIException):
    """A refused request. Made by ``Refusal.error``, which picks the class of the entry's status."""

    #: Seconds after which a retry may succeed: DRF's handler sends it as ``Retry-After``.
    wait: float | None = None

    def __init__(
        self,
        entry: Entry,
        *,
        field: str | None,
        params: dict[str, Any] | None = None,
        detail: str | None = None,
    ) -> None:
        # APIException's own constructor: the DRF classes mixed in below take other arguments.
        exceptions.APIException.__init__(
            self, detail=entry.message if detail is None else detail, code=entry.code
        )
        self.entry = entry
        self.status_code = entry.status
        self.field = field
        # Machine-readable specifics (e.g. which dice were refused), never translated.
        self.params = params or {}


class InvalidInput(ApiError):
    status_code = status.HTTP_400_BAD_REQUEST


class Forbidden(ApiError):
    status_code = status.HTTP_403_FORBIDDEN


class Conflict(ApiError):
    """The request is well formed but the resource's current state does not allow it."""

    status_code = status.HTTP_409_CONFLICT


_CLASSES: dict[int, type[ApiError]] = {
    cls.status_code: cls for cls in (InvalidInput, Forbidden, Conflict)
}


_DRF_KINDS: dict[type[exceptions.APIException], type[ApiError]] = {}


def error_class(entry: Entry) -> type[ApiError]:
    """The class of a refusal: of its status, or also DRF's own class where it has one."""
    drf = entry.drf_class
    if drf is None:
        return _CLASSES.get(entry.status, ApiError)
    # DRF's views recognise their classes: an AuthenticationFailed gets the WWW-Authenticate header.
    if drf not in _DRF_KINDS:
        _DRF_KINDS[drf] = type(drf.__name__, (ApiError, drf), {"__module__": __name__})
    return _DRF_KINDS[drf]


def error_body(exc: exceptions.APIException) -> dict[str, Any]:
    """The body of a refusal that is not a validation error."""
    detail = exc.detail
    code = getattr(detail, "code", None) or exc.default_code
    body: dict[str, Any] = {
        "code": code,
        "detail": str(detail),
        "field": getattr(exc, "field", None),
    }
    params = getattr(exc, "params", None)
    if params:
        body["params"] = params
    wait = getattr(exc, "wait", None)
    if wait is not None:
        body["retry_after"] = int(wait + 0.999)
    return body
