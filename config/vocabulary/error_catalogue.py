"""The error catalogue: ``GET /api/v1/errors/`` and the page each problem's ``type`` names."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.vocabulary.problems import BY_CODE, origin_of, type_url
from config.vocabulary.refusals import Refusal


class ErrorCodeSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField(help_text="Stable, never translated: what programs read")
    status = serializers.IntegerField(help_text="The HTTP status it is answered with")
    title = serializers.CharField(help_text="The code's words, in the request's language")
    type = serializers.URLField(help_text="This page: a problem's `type`")
    field = serializers.CharField(allow_null=True, help_text="The input usually at fault")
    details = serializers.ListField(
        child=serializers.CharField(),
        help_text="Every `detail` the code is given with (one per place it is refused)",
    )


class ErrorListSerializer(serializers.Serializer[dict[str, Any]]):
    errors = ErrorCodeSerializer(many=True)  # type: ignore[assignment]  # DRF's stubs: .errors


def describe(code: str, origin: str) -> dict[str, Any]:
    named = BY_CODE[code]
    # Every distinct word of the code, in the table's order.
    details = list(dict.fromkeys(str(r.message) for r in Refusal if r.code == code))
    return {
        "code": code,
        "status": named.status,
        "title": str(named.message),
        "type": type_url(code, origin),
        "field": named.field,
        "details": details,
    }


class ErrorListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="errors_list",
        summary="Every error code",
        description="Each code the API answers with, its status and its words in the "
        "request's language (`Accept-Language` or `?lang=`).",
        responses=ErrorListSerializer,
        tags=["errors"],
    )
    def get(self, request: Request) -> Response:
        origin = origin_of(request._request)
        return Response({"errors": [describe(code, origin) for code in sorted(BY_CODE)]})


class ErrorDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="One error code",
        description="The page a problem's `type` links to.",
        responses=ErrorCodeSerializer,
        tags=["errors"],
    )
    def get(self, request: Request, code: str) -> Response:
        if code not in BY_CODE:
            raise Refusal.UNKNOWN_ERROR_CODE.error(field=None)
        return Response(describe(code, origin_of(request._request)))
