"""The OpenAPI description of every operation's refusals (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS).

``@refuses(...)`` names a view method's own refusals; ``ApiSchema`` adds one problem answer per
status, listing its codes, from those and from what every operation of its kind can answer, and
the headers each answer carries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated

from config.vocabulary.problems import BY_CODE, PROBLEM_JSON
from config.vocabulary.refusals import Refusal

F = TypeVar("F", bound=Callable[..., Any])
IDEMPOTENT = "_idempotent"
BODY_ON_DELETE = "_body_on_delete"
ETAGGED = "_etagged"


def refuses(*refusals: Refusal) -> Callable[[F], F]:
    """Name the refusals a view method gives (for its schema; nothing changes at run time)."""

    def mark(method: F) -> F:
        method._refusals = (*getattr(method, "_refusals", ()), *refusals)  # type: ignore[attr-defined]
        return method

    return mark


def etagged(method: F) -> F:
    """A view method whose answers carry an ``ETag`` (for its schema)."""
    setattr(method, ETAGGED, True)
    return method


def body_on_delete(method: F) -> F:
    """A DELETE that takes a body (its request is documented, as a POST's would be)."""
    setattr(method, BODY_ON_DELETE, True)
    return method


class ProblemErrorSerializer(serializers.Serializer[dict[str, Any]]):
    field = serializers.CharField(allow_null=True)
    code = serializers.CharField(help_text="The check that failed (`required`, `max_length`...)")
    detail = serializers.CharField()


@extend_schema_field({"type": "string", "enum": sorted(BY_CODE)}, component_name="ProblemCode")
class ProblemCodeField(serializers.CharField):
    """A refusal's code: one of the vocabulary's (``config.vocabulary.refusals``)."""


class ProblemSerializer(serializers.Serializer[dict[str, Any]]):
    """An RFC 9457 problem: every refusal of the API."""

    type = serializers.URLField(help_text="The code's page: GET /api/v1/errors/{code}/")
    title = serializers.CharField(help_text="The code's words, in the request's language")
    status = serializers.IntegerField(help_text="The HTTP status")
    detail = serializers.CharField(help_text="This refusal's words, in the request's language")
    code = ProblemCodeField(help_text="Stable and never translated: what programs read")
    field = serializers.CharField(allow_null=True, help_text="The input at fault, if any")
    params = serializers.DictField(
        required=False,
        help_text="Machine-readable specifics, their names the code's own (free-form: see the "
        "schema's description)",
    )
    errors = ProblemErrorSerializer(  # type: ignore[assignment]  # DRF's stubs: Serializer.errors
        many=True, required=False, help_text="invalid_input: one entry per field at fault"
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled, service_unavailable: seconds to wait (Retry-After)"
    )


# Each described once under components/headers.
HEADERS: dict[str, dict[str, Any]] = {
    "RateLimit-Policy": {
        "description": (
            "The rate limits that counted this request (IETF draft-ietf-httpapi-ratelimit-headers"
            ", a structured-field list): each named by its scope (`anon`, `user`, `auth`, "
            "`expensive`), `q` its quota of requests, `w` its window in seconds. Absent on an "
            "answer refused before it was counted (its token or its permissions)."
        ),
        "schema": {"type": "string", "example": '"user";q=1200;w=60'},
    },
    "RateLimit": {
        "description": (
            "What is left of each limit of `RateLimit-Policy`: `r` the requests left in the "
            "window, `t` the seconds until it closes (a 429's `Retry-After`, at `r=0`)."
        ),
        "schema": {"type": "string", "example": '"user";r=1187;t=42'},
    },
    "Retry-After": {
        "description": "Seconds to wait before asking again (the problem's `retry_after`).",
        "schema": {"type": "integer", "minimum": 1},
    },
    **{
        name: {"description": words, "schema": {"type": "string", **schema}}
        for name, words, schema in (
            ("ETag", "The answer's strong tag: `If-None-Match`, or a move's `If-Match`", {}),
            ("X-Request-ID", "The request's id in the logs (the client's own, if sent)", {}),
            ("Content-Language", "The language of the answer's words", {"example": "en"}),
            ("Idempotent-Replayed", "An answer kept for its `Idempotency-Key`", {"enum": ["true"]}),
        )
    },
}
_WAITING = ("429", "503")
_REQUEST_HEADERS = {
    "Accept-Language": "The language of the answer's words (`en`, `fr`, `uk`, `el`, `hr`, `ru`); "
    "`?lang=` and the account's own language come first",
    "If-None-Match": "The `ETag` of the answer you hold: 304, with no body, while it is current",
    "Idempotency-Key": "1 to 255 printable characters (a UUID will do): the same request sent "
    "again with it gets the first answer (`Idempotent-Replayed: true`) and creates nothing more",
}


class ApiSchema(AutoSchema):
    def _handler(self) -> Any:
        return getattr(self.view, self.method.lower(), None)

    def get_override_parameters(self) -> list[Any]:
        names = ["Accept-Language", *(["Idempotency-Key"] if self._marked(IDEMPOTENT) else [])]
        names += ["If-None-Match"] if self.method == "GET" and self._marked(ETAGGED) else []
        said = [
            OpenApiParameter(name, str, OpenApiParameter.HEADER, description=_REQUEST_HEADERS[name])
            for name in names
        ]
        return [*super().get_override_parameters(), *said]

    def _marked(self, mark: str) -> bool:
        return bool(getattr(self._handler(), mark, False))

    def _get_response_headers_for_code(self, status_code: Any, direction: Any = "response") -> Any:
        headers: dict[str, Any] = super()._get_response_headers_for_code(status_code, direction)
        code = str(status_code)
        names = ["X-Request-ID", "Content-Language"]
        names += ["RateLimit-Policy", "RateLimit"] if self.view.get_throttles() else []
        if code in _WAITING:
            names.append("Retry-After")
        if code in ("200", "201", "304") and self._marked(ETAGGED):
            names.append("ETag")
        if code.startswith("2") and self._marked(IDEMPOTENT):
            names.append("Idempotent-Replayed")
        for name in names:
            component = ResolvedComponent(
                name, ResolvedComponent.HEADER, schema=HEADERS[name], object=name
            )
            self.registry.register_on_missing(component)
            headers.setdefault(name, component.ref)
        return headers

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        by_status: dict[int, set[str]] = {}
        for refusal in self._refusals():
            by_status.setdefault(refusal.status, set()).add(refusal.code)
        problem = self.resolve_serializer(ProblemSerializer, "response").ref
        for status, codes in sorted(by_status.items()):
            listed = ", ".join(f"`{code}`" for code in sorted(codes))
            answer = {"content": {PROBLEM_JSON: {"schema": problem}}, "description": listed}
            headers = self._get_response_headers_for_code(str(status), direction)
            responses.setdefault(str(status), {"headers": headers, **answer} if headers else answer)
        return responses

    def _get_request_body(self, direction: str = "request") -> Any:
        # drf-spectacular documents a body for POST, PUT and PATCH only.
        if self.method != "DELETE" or not self._marked(BODY_ON_DELETE):
            return super()._get_request_body(direction)  # type: ignore[no-untyped-call]
        self.method = "POST"
        try:
            return super()._get_request_body(direction)  # type: ignore[no-untyped-call]
        finally:
            self.method = "DELETE"

    def _unwrap_list_serializer(self, serializer: Any, direction: Any) -> Any:
        """drf-spectacular's, with a nested list's bounds said as its ``maxItems`` and
        ``minItems``."""
        schema = super()._unwrap_list_serializer(serializer, direction)
        if schema and isinstance(serializer, serializers.ListSerializer):
            for bound, keyword in (("max_length", "maxItems"), ("min_length", "minItems")):
                if getattr(serializer, bound, None) is not None:
                    schema[keyword] = getattr(serializer, bound)
        return schema

    def _refusals(self) -> Iterable[Refusal]:
        yield from getattr(self._handler(), "_refusals", ())
        if self.method in ("POST", "PUT", "PATCH") or self._marked(BODY_ON_DELETE):
            yield Refusal.INVALID_INPUT
            yield Refusal.PARSE_ERROR
        if self._marked(IDEMPOTENT):
            yield Refusal.INVALID_IDEMPOTENCY_KEY
            yield Refusal.IDEMPOTENCY_KEY_REUSED
        if self.view.get_authenticators():
            yield Refusal.AUTHENTICATION_FAILED
        permissions = self.view.get_permissions()
        if any(isinstance(p, IsAuthenticated) for p in permissions) or (
            self.method != "GET" and not any(isinstance(p, AllowAny) for p in permissions)
        ):
            yield Refusal.NOT_AUTHENTICATED
        if "{" in self.path:
            yield Refusal.NOT_FOUND
        if self.view.get_throttles():
            yield Refusal.THROTTLED
        # The database out of reach (config.web.outage): any operation may meet it.
        yield Refusal.SERVICE_UNAVAILABLE
